/* gnn-conv.c: GnnConv1d, GnnConv2d, GnnConv3d, GnnConvTranspose1d, GnnConvTranspose2d and
 * GnnConvTranspose3d
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The layers share one implementation over a Conv struct; they differ in the number of
 * spatial dimensions (1, 2 or 3), in their names, and (ConvTranspose1d/2d/3d) in the weight's layout
 * and the output padding.
 */
#include "config.h"

#include <math.h>

#include "gnn-module-private.h"
#include "gnn-props-private.h"
#include "core/gnn-tensor-private.h"
#include "ops/gnn-ops-private.h"
#include "gnn-conv.h"
#include "gnn-init.h"

typedef struct {
  int in_channels;
  int out_channels;
  GVariant *kernel_size;    /* ax */
  GVariant *stride;         /* ax or NULL */
  GVariant *padding;        /* ax or s, or NULL */
  GVariant *dilation;       /* ax or NULL */
  GVariant *output_padding; /* ax or NULL (transposed only) */
  int groups;
  gboolean bias;
  char *padding_mode;       /* "zeros", "reflect", "replicate" or "circular" (not transposed) */
  /* resolved at setup */
  gint64 k[3], s[3], p[3], d[3], op[3];
  gboolean transposed;
  const char *padding_string; /* "same", "valid" or NULL */
} Conv;

struct _GnnConv1d
{
  GnnModule parent_instance;
  Conv conv;
};

struct _GnnConv2d
{
  GnnModule parent_instance;
  Conv conv;
};

struct _GnnConvTranspose1d
{
  GnnModule parent_instance;
  Conv conv;
};

struct _GnnConvTranspose2d
{
  GnnModule parent_instance;
  Conv conv;
};

struct _GnnConv3d
{
  GnnModule parent_instance;
  Conv conv;
};

struct _GnnConvTranspose3d
{
  GnnModule parent_instance;
  Conv conv;
};

enum {
  PROP_0,
  PROP_IN_CHANNELS,
  PROP_OUT_CHANNELS,
  PROP_KERNEL_SIZE,
  PROP_STRIDE,
  PROP_PADDING,
  PROP_DILATION,
  PROP_GROUPS,
  PROP_BIAS,
  N_PROPS,
  /* the last property: padding-mode of Conv1d and Conv2d, output-padding of ConvTranspose2d */
  PROP_PADDING_MODE = N_PROPS,
  PROP_OUTPUT_PADDING = N_PROPS
};

/* the four classes share the enum and the layout (a Conv after the GnnModule), each its
 * table */
static GnnProp conv1d_props[N_PROPS + 1], conv2d_props[N_PROPS + 1], conv_transpose1d_props[N_PROPS + 1],
  conv_transpose2d_props[N_PROPS + 1], conv3d_props[N_PROPS + 1], conv_transpose3d_props[N_PROPS + 1];

#define CONV_MEMBER(m) G_STRUCT_OFFSET (GnnConv2d, conv.m)
G_STATIC_ASSERT (G_STRUCT_OFFSET (GnnConv1d, conv) == G_STRUCT_OFFSET (GnnConv2d, conv));
G_STATIC_ASSERT (G_STRUCT_OFFSET (GnnConvTranspose1d, conv) == G_STRUCT_OFFSET (GnnConv2d, conv));
G_STATIC_ASSERT (G_STRUCT_OFFSET (GnnConvTranspose2d, conv) == G_STRUCT_OFFSET (GnnConv2d, conv));
G_STATIC_ASSERT (G_STRUCT_OFFSET (GnnConv3d, conv) == G_STRUCT_OFFSET (GnnConv2d, conv));
G_STATIC_ASSERT (G_STRUCT_OFFSET (GnnConvTranspose3d, conv) == G_STRUCT_OFFSET (GnnConv2d, conv));

G_DEFINE_FINAL_TYPE (GnnConv1d, gnn_conv1d, GNN_TYPE_MODULE)
G_DEFINE_FINAL_TYPE (GnnConv2d, gnn_conv2d, GNN_TYPE_MODULE)
G_DEFINE_FINAL_TYPE (GnnConvTranspose1d, gnn_conv_transpose1d, GNN_TYPE_MODULE)
G_DEFINE_FINAL_TYPE (GnnConvTranspose2d, gnn_conv_transpose2d, GNN_TYPE_MODULE)
G_DEFINE_FINAL_TYPE (GnnConv3d, gnn_conv3d, GNN_TYPE_MODULE)
G_DEFINE_FINAL_TYPE (GnnConvTranspose3d, gnn_conv_transpose3d, GNN_TYPE_MODULE)

static Conv *
conv_of (GnnModule *module, guint *nd, const char **name)
{
  if (GNN_IS_CONV1D (module))
    {
      *nd = 1;
      *name = "Conv1d";
      return &GNN_CONV1D (module)->conv;
    }
  if (GNN_IS_CONV_TRANSPOSE1D (module))
    {
      *nd = 1;
      *name = "ConvTranspose1d";
      return &GNN_CONV_TRANSPOSE1D (module)->conv;
    }
  if (GNN_IS_CONV3D (module))
    {
      *nd = 3;
      *name = "Conv3d";
      return &GNN_CONV3D (module)->conv;
    }
  if (GNN_IS_CONV_TRANSPOSE3D (module))
    {
      *nd = 3;
      *name = "ConvTranspose3d";
      return &GNN_CONV_TRANSPOSE3D (module)->conv;
    }
  *nd = 2;
  if (GNN_IS_CONV_TRANSPOSE2D (module))
    {
      *name = "ConvTranspose2d";
      return &GNN_CONV_TRANSPOSE2D (module)->conv;
    }
  *name = "Conv2d";
  return &GNN_CONV2D (module)->conv;
}


/* Reads an "ax" of 1 or @nd values (one value stands for all) into @out; @def when NULL */
static gboolean
read_tuple (const char *name, const char *what, GVariant *v, guint nd, gint64 def, gint64 min,
            gint64 *out, GError **error)
{
  gsize n = 0;
  const gint64 *vals;

  if (v == NULL)
    {
      for (guint a = 0; a < nd; a++)
        out[a] = def;
      return TRUE;
    }
  vals = g_variant_get_fixed_array (v, &n, sizeof (gint64));
  if (n != 1 && n != nd)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "%s: %s must have 1 or %u values, got %" G_GSIZE_FORMAT, name, what, nd, n);
      return FALSE;
    }
  for (guint a = 0; a < nd; a++)
    {
      out[a] = vals[n == 1 ? 0 : a];
      if (out[a] < min || out[a] > G_MAXINT32)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                       "%s: %s must lie in [%" G_GINT64_FORMAT ", 2^31), got %" G_GINT64_FORMAT,
                       name, what, min, out[a]);
          return FALSE;
        }
    }
  return TRUE;
}

static gboolean
conv_setup (GnnModule *module, GError **error)
{
  guint nd;
  const char *name;
  Conv *c = conv_of (module, &nd, &name);
  g_autoptr(GnnTensor) wdata = NULL, bdata = NULL;
  g_autoptr(GnnParameter) weight = NULL, bias = NULL;
  gint64 wshape[5];

  if (c->in_channels < 0 || c->out_channels < 0 || c->groups < 1 ||
      c->in_channels % c->groups != 0 || c->out_channels % c->groups != 0)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "%s: groups (%d) must be positive and divide in_channels (%d) and out_channels (%d)",
                   name, c->groups, c->in_channels, c->out_channels);
      return FALSE;
    }
  if (c->kernel_size == NULL)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT, "%s: kernel_size is required", name);
      return FALSE;
    }
  if (!read_tuple (name, "kernel_size", c->kernel_size, nd, 1, 1, c->k, error) ||
      !read_tuple (name, "stride", c->stride, nd, 1, 1, c->s, error) ||
      !read_tuple (name, "dilation", c->dilation, nd, 1, 1, c->d, error))
    return FALSE;
  c->padding_string = NULL;
  if (!read_tuple (name, "output_padding", c->output_padding, nd, 0, 0, c->op, error))
    return FALSE;
  if (c->transposed && c->padding && g_variant_is_of_type (c->padding, G_VARIANT_TYPE_STRING))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "%s: Only \"zeros\" padding mode and numeric padding are supported", name);
      return FALSE;
    }
  for (guint a = 0; c->transposed && a < nd; a++)
    if (c->op[a] >= c->s[a] && c->op[a] >= c->d[a])
      {
        g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                     "%s: output padding must be smaller than either stride or dilation", name);
        return FALSE;
      }
  if (c->padding && g_variant_is_of_type (c->padding, G_VARIANT_TYPE_STRING))
    {
      const char *ps = g_variant_get_string (c->padding, NULL);

      if (g_strcmp0 (ps, "same") != 0 && g_strcmp0 (ps, "valid") != 0)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                       "%s: Invalid padding string '%s', should be one of {'valid', 'same'}", name, ps);
          return FALSE;
        }
      c->padding_string = g_str_equal (ps, "same") ? "same" : "valid";
      for (guint a = 0; a < nd; a++)
        c->p[a] = 0;
      if (g_str_equal (ps, "same") && (c->s[0] != 1 || (nd >= 2 && c->s[1] != 1) || (nd == 3 && c->s[2] != 1)))
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                       "%s: padding='same' is not supported for strided convolutions", name);
          return FALSE;
        }
    }
  else if (c->padding && !g_variant_is_of_type (c->padding, G_VARIANT_TYPE ("ax")))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "%s: padding must be a GVariant of type \"ax\" or \"s\", got \"%s\"", name,
                   g_variant_get_type_string (c->padding));
      return FALSE;
    }
  else if (!read_tuple (name, "padding", c->padding, nd, 0, 0, c->p, error))
    return FALSE;

  if (!GNN_MODULE_CLASS (g_type_class_peek_parent (G_OBJECT_GET_CLASS (module)))->setup (module, error))
    return FALSE;
  wshape[0] = c->transposed ? c->in_channels : c->out_channels;
  wshape[1] = c->transposed ? c->out_channels / c->groups : c->in_channels / c->groups;
  for (guint a = 0; a < nd; a++)
    wshape[2 + a] = c->k[a];
  wdata = gnn_tensor_new_empty (wshape, 2 + nd, gnn_module_dtype (module), NULL, error);
  if (wdata == NULL || !(weight = gnn_parameter_new (wdata, TRUE, error)) ||
      !gnn_module_register_parameter (module, "weight", weight, error))
    return FALSE;
  if (c->bias)
    {
      gint64 bshape[1] = { c->out_channels };
      bdata = gnn_tensor_new_empty (bshape, 1, gnn_module_dtype (module), NULL, error);
      if (bdata == NULL || !(bias = gnn_parameter_new (bdata, TRUE, error)))
        return FALSE;
    }
  if (!gnn_module_register_parameter (module, "bias", bias, error))
    return FALSE;
  return gnn_module_reset_kaiming_uniform (module, "Conv", error);
}

static GnnArgs *
conv_forward (GnnModule *module, GnnArgs *input, GError **error)
{
  guint nd;
  const char *name;
  Conv *c = conv_of (module, &nd, &name);
  GnnTensor *weight, *bias;
  g_autoptr(GnnTensor) out = NULL, padded = NULL;
  GnnTensor *x;
  gboolean same = g_strcmp0 (c->padding_string, "same") == 0;
  static const gint64 zeros[3] = { 0, 0, 0 };
  const gint64 *p = c->p;

  x = gnn_args_get_tensor (input, 0, error);
  if (x == NULL)
    {
      g_prefix_error (error, "%s: ", name);
      return NULL;
    }
  weight = gnn_module_tensor (module, "weight", TRUE, error);
  if (weight == NULL)
    return NULL;
  bias = gnn_module_tensor (module, "bias", FALSE, error);
  if (bias == NULL && error && *error)
    return NULL;
  if (!c->transposed && g_strcmp0 (c->padding_mode, "zeros") != 0)
    {
      /* torch's _ConvNd: the input padded in that mode (the last dimension first), then an
       * unpadded convolution */
      gint64 pads[6];

      for (guint a = 0; a < nd; a++)
        {
          gint64 total = same ? c->d[a] * (c->k[a] - 1) : 2 * c->p[a];
          gint64 before = same ? total / 2 : c->p[a];

          pads[2 * (nd - 1 - a)] = before;
          pads[2 * (nd - 1 - a) + 1] = total - before;
        }
      if (!(padded = gnn_tensor_pad (x, pads, 2 * nd, c->padding_mode, 0.0, error)))
        {
          g_prefix_error (error, "%s: ", name);
          return NULL;
        }
      x = padded;
      same = FALSE;
      p = zeros;
    }
  if (c->transposed && nd == 3)
    out = gnn_conv_transpose3d_internal (name, x, weight, bias,
                                         c->s, c->p, c->op, c->groups, c->d, error);
  else if (nd == 3)
    out = gnn_conv3d_internal (name, x, weight, bias,
                               c->s, p, c->d, c->groups, same, error);
  else if (c->transposed && nd == 1)
    out = gnn_conv_transpose1d_internal (name, x, weight, bias,
                                         c->s[0], c->p[0], c->op[0], c->groups, c->d[0], error);
  else if (c->transposed)
    out = gnn_conv_transpose2d_internal (name, x, weight, bias,
                                         c->s, c->p, c->op, c->groups, c->d, error);
  else if (nd == 1)
    out = gnn_conv1d_internal (name, x, weight, bias,
                               c->s[0], p[0], c->d[0], c->groups, same, error);
  else
    out = gnn_conv2d_internal (name, x, weight, bias,
                               c->s, p, c->d, c->groups, same, error);
  if (out == NULL)
    return NULL;
  return gnn_args_new_tensor (out);
}

static void
append_tuple (GString *s, const gint64 *v, guint nd)
{
  g_string_append_c (s, '(');
  for (guint a = 0; a < nd; a++)
    g_string_append_printf (s, a ? ", %" G_GINT64_FORMAT : "%" G_GINT64_FORMAT, v[a]);
  g_string_append (s, nd == 1 ? ",)" : ")");
}

/* PyTorch's _ConvNd.extra_repr */
static char *
conv_extra_repr (GnnModule *module)
{
  guint nd;
  const char *name;
  Conv *c = conv_of (module, &nd, &name);
  GString *s = g_string_new (NULL);
  gboolean pad0 = TRUE, dil1 = TRUE, op0 = TRUE;

  for (guint a = 0; a < nd; a++)
    {
      pad0 = pad0 && c->p[a] == 0;
      dil1 = dil1 && c->d[a] == 1;
      op0 = op0 && (!c->transposed || c->op[a] == 0);
    }
  g_string_append_printf (s, "%d, %d, kernel_size=", c->in_channels, c->out_channels);
  append_tuple (s, c->k, nd);
  g_string_append (s, ", stride=");
  append_tuple (s, c->s, nd);
  if (c->padding_string)
    g_string_append_printf (s, ", padding=%s", c->padding_string);
  else if (!pad0)
    {
      g_string_append (s, ", padding=");
      append_tuple (s, c->p, nd);
    }
  if (!dil1)
    {
      g_string_append (s, ", dilation=");
      append_tuple (s, c->d, nd);
    }
  if (!op0)
    {
      g_string_append (s, ", output_padding=");
      append_tuple (s, c->op, nd);
    }
  if (c->groups != 1)
    g_string_append_printf (s, ", groups=%d", c->groups);
  if (gnn_module_find_parameter (module, "bias") == NULL)
    g_string_append (s, ", bias=False");
  if (!c->transposed && g_strcmp0 (c->padding_mode, "zeros") != 0)
    g_string_append_printf (s, ", padding_mode=%s", c->padding_mode);
  return g_string_free (s, FALSE);
}

/**
 * GnnConv1d:in-channels:
 *
 * The channels of the input (`in_channels`).
 */
/**
 * GnnConv1d:out-channels:
 *
 * The channels the layer produces (`out_channels`).
 */
/**
 * GnnConv1d:kernel-size:
 *
 * The size of the kernel (`kernel_size`), a #GVariant "ax" of one value for every spatial dimension or one per dimension.
 */
/**
 * GnnConv1d:stride:
 *
 * The stride (`stride`), a #GVariant "ax" as kernel-size; %NULL for 1.
 */
/**
 * GnnConv1d:padding:
 *
 * The zero padding on both sides (`padding`): a #GVariant "ax" as kernel-size, or a string "same" or "valid"; %NULL for 0.
 */
/**
 * GnnConv1d:dilation:
 *
 * The spacing between kernel elements (`dilation`), a #GVariant "ax" as kernel-size; %NULL for 1.
 */
/**
 * GnnConv1d:groups:
 *
 * The number of blocked connections from input to output channels (`groups`).
 */
/**
 * GnnConv1d:bias:
 *
 * Whether the layer learns an additive bias (`bias`); the parameter itself is named "bias".
 */
/**
 * GnnConv1d:padding-mode:
 *
 * How the input is padded (`padding_mode`): "zeros" (the default), or "reflect", "replicate"
 * or "circular", the modes of [method@Gnn.Tensor.pad], which then pads the input before an
 * unpadded convolution.
 */
/**
 * GnnConv2d:in-channels:
 *
 * The channels of the input (`in_channels`).
 */
/**
 * GnnConv2d:out-channels:
 *
 * The channels the layer produces (`out_channels`).
 */
/**
 * GnnConv2d:kernel-size:
 *
 * The size of the kernel (`kernel_size`), a #GVariant "ax" of one value for every spatial dimension or one per dimension.
 */
/**
 * GnnConv2d:stride:
 *
 * The stride (`stride`), a #GVariant "ax" as kernel-size; %NULL for 1.
 */
/**
 * GnnConv2d:padding:
 *
 * The zero padding on both sides (`padding`): a #GVariant "ax" as kernel-size, or a string "same" or "valid"; %NULL for 0.
 */
/**
 * GnnConv2d:dilation:
 *
 * The spacing between kernel elements (`dilation`), a #GVariant "ax" as kernel-size; %NULL for 1.
 */
/**
 * GnnConv2d:groups:
 *
 * The number of blocked connections from input to output channels (`groups`).
 */
/**
 * GnnConv2d:bias:
 *
 * Whether the layer learns an additive bias (`bias`); the parameter itself is named "bias".
 */
/**
 * GnnConv2d:padding-mode:
 *
 * How the input is padded (`padding_mode`): "zeros" (the default), or "reflect", "replicate"
 * or "circular", the modes of [method@Gnn.Tensor.pad], which then pads the input before an
 * unpadded convolution.
 */

static gboolean
check_groups (GParamSpec *pspec, const GValue *value, GError **error)
{
  if (g_value_get_int (value) >= 1)
    return TRUE;
  g_set_error_literal (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT, "groups must be a positive integer");
  return FALSE;
}

/* torch's padding modes of Conv1d and Conv2d (F.pad's modes, "zeros" for its constant 0) */
static gboolean
check_padding_mode (GParamSpec *pspec, const GValue *value, GError **error)
{
  static const char *const modes[] = { "zeros", "reflect", "replicate", "circular" };
  const char *mode = g_value_get_string (value);

  for (guint i = 0; i < G_N_ELEMENTS (modes); i++)
    if (g_strcmp0 (mode, modes[i]) == 0)
      return TRUE;
  g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
               "padding_mode must be one of ['zeros', 'reflect', 'replicate', 'circular'], but got "
               "padding_mode='%s'", mode ? mode : "");
  return FALSE;
}

static void
conv_class_init (GObjectClass *object_class, GnnModuleClass *module_class, GnnProp *props, gboolean transposed)
{
  GParamFlags co = GNN_PARAM_RW | G_PARAM_CONSTRUCT_ONLY;

  module_class->setup = conv_setup;
  module_class->forward = conv_forward;
  module_class->extra_repr = conv_extra_repr;

  props[PROP_IN_CHANNELS] = (GnnProp) {
    g_param_spec_int ("in-channels", NULL, NULL, G_MININT, G_MAXINT, 0, co),
    CONV_MEMBER (in_channels), gnn_prop_check_size };
  props[PROP_OUT_CHANNELS] = (GnnProp) {
    g_param_spec_int ("out-channels", NULL, NULL, G_MININT, G_MAXINT, 0, co),
    CONV_MEMBER (out_channels), gnn_prop_check_size };
  props[PROP_KERNEL_SIZE] = (GnnProp) { gnn_param_spec_int64s ("kernel-size", co), CONV_MEMBER (kernel_size) };
  props[PROP_STRIDE] = (GnnProp) { gnn_param_spec_int64s ("stride", co), CONV_MEMBER (stride) };
  props[PROP_PADDING] = (GnnProp) {
    g_param_spec_variant ("padding", NULL, NULL, G_VARIANT_TYPE_ANY, NULL, co), CONV_MEMBER (padding) };
  props[PROP_DILATION] = (GnnProp) { gnn_param_spec_int64s ("dilation", co), CONV_MEMBER (dilation) };
  props[PROP_GROUPS] = (GnnProp) {
    g_param_spec_int ("groups", NULL, NULL, G_MININT, G_MAXINT, 1, co), CONV_MEMBER (groups), check_groups };
  props[PROP_BIAS] = (GnnProp) { g_param_spec_boolean ("bias", NULL, NULL, TRUE, co), CONV_MEMBER (bias) };
  if (transposed)
    props[PROP_OUTPUT_PADDING] = (GnnProp) {
      gnn_param_spec_int64s ("output-padding", co), CONV_MEMBER (output_padding) };
  else
    props[PROP_PADDING_MODE] = (GnnProp) {
      g_param_spec_string ("padding-mode", NULL, NULL, "zeros", co), CONV_MEMBER (padding_mode),
      check_padding_mode };
  gnn_props_install (object_class, props, N_PROPS + 1);
  gnn_module_class_uses_dtype (module_class);
}

/**
 * GnnConv1d:
 *
 * A 1-d convolution layer, as `torch.nn.Conv1d`: input (N, C_in, L) or (C_in, L), output
 * (N, C_out, L_out), computed by [method@Gnn.Tensor.conv1d].
 *
 * Properties (all construct-only), as nn.Conv1d's arguments: `in-channels`, `out-channels`,
 * `kernel-size`, `stride` and `dilation` (#GVariant "ax" of one value), `padding` (a
 * #GVariant "ax", or "s" holding "same" or "valid", PyTorch's string padding), `groups`,
 * `bias`, `padding-mode` and `dtype`.
 *
 * The weight (out_channels, in_channels / groups, kernel_size) is initialised as PyTorch's
 * `reset_parameters`: kaiming_uniform_ with a = √5, the bias from U(-1/√fan_in, 1/√fan_in),
 * fan_in = in_channels / groups · kernel_size. The layer prints as PyTorch's:
 * "Conv1d(3, 8, kernel_size=(3,), stride=(1,))".
 */
static void
gnn_conv1d_class_init (GnnConv1dClass *klass)
{
  conv_class_init (G_OBJECT_CLASS (klass), GNN_MODULE_CLASS (klass), conv1d_props, FALSE);
}

static void
gnn_conv1d_init (GnnConv1d *self)
{
}

/**
 * GnnConv2d:
 *
 * A 2-d convolution layer, as `torch.nn.Conv2d`: input (N, C_in, H, W) or (C_in, H, W),
 * output (N, C_out, H_out, W_out), computed by [method@Gnn.Tensor.conv2d] (im2col and gemm).
 *
 * Properties (all construct-only), as nn.Conv2d's arguments: `in-channels`, `out-channels`,
 * `kernel-size`, `stride` and `dilation` (#GVariant "ax" of one value for both dimensions or
 * two), `padding` (a #GVariant "ax", or "s" holding "same" or "valid"), `groups`, `bias`,
 * `padding-mode` and `dtype`.
 *
 * The weight (out_channels, in_channels / groups, kH, kW) is initialised as PyTorch's
 * `reset_parameters`: kaiming_uniform_ with a = √5, the bias from U(-1/√fan_in, 1/√fan_in).
 * The layer prints as PyTorch's: "Conv2d(3, 8, kernel_size=(3, 3), stride=(1, 1), padding=(1, 1))".
 *
 * Stricter than torch 1.13: a kernel size, stride or dilation below 1 (such as kernel_size
 * (0, 0)) is refused when the layer is made (by [ctor@Gnn.Conv2d.new], the module JSON and
 * the Python constructor), where torch builds the layer and refuses it at the first forward.
 */
static void
gnn_conv2d_class_init (GnnConv2dClass *klass)
{
  conv_class_init (G_OBJECT_CLASS (klass), GNN_MODULE_CLASS (klass), conv2d_props, FALSE);
}

static void
gnn_conv2d_init (GnnConv2d *self)
{
}

/**
 * GnnConvTranspose1d:
 *
 * A transposed 1-d convolution layer, as `torch.nn.ConvTranspose1d`: input (N, C_in, L) or
 * (C_in, L), computed by [method@Gnn.Tensor.conv_transpose1d] (the 2-d form on a unit height).
 *
 * Properties (all construct-only), as nn.ConvTranspose1d's arguments: `in-channels`,
 * `out-channels`, `kernel-size`, `stride`, `padding`, `output-padding` and `dilation`
 * (#GVariant "ax" of one value), `groups`, `bias` and `dtype`. String padding does not exist
 * for it, nor does the `output_size` argument of forward.
 *
 * The weight (in_channels, out_channels / groups, kernel_size) is initialised as PyTorch's
 * `reset_parameters`: kaiming_uniform_ with a = √5, the bias from U(-1/√fan_in, 1/√fan_in),
 * fan_in = out_channels / groups · kernel_size. It prints as PyTorch's:
 * "ConvTranspose1d(3, 8, kernel_size=(3,), stride=(2,), output_padding=(1,))".
 *
 * Since: 0.1
 */

/**
 * GnnConvTranspose1d:in-channels:
 *
 * The channels of the input (`in_channels`).
 */
/**
 * GnnConvTranspose1d:out-channels:
 *
 * The channels the layer produces (`out_channels`).
 */
/**
 * GnnConvTranspose1d:kernel-size:
 *
 * The size of the kernel (`kernel_size`), a #GVariant "ax" of one value.
 */
/**
 * GnnConvTranspose1d:stride:
 *
 * The stride (`stride`), as kernel-size; %NULL for 1.
 */
/**
 * GnnConvTranspose1d:padding:
 *
 * The padding (`padding`), as kernel-size; %NULL for 0.
 */
/**
 * GnnConvTranspose1d:output-padding:
 *
 * The size added to one end of the output (`output_padding`), as kernel-size; %NULL for 0.
 */
/**
 * GnnConvTranspose1d:dilation:
 *
 * The spacing between kernel elements (`dilation`), as kernel-size; %NULL for 1.
 */
/**
 * GnnConvTranspose1d:groups:
 *
 * The number of blocked connections from input to output channels (`groups`).
 */
/**
 * GnnConvTranspose1d:bias:
 *
 * Whether the layer learns an additive bias (`bias`).
 */
static void
gnn_conv_transpose1d_class_init (GnnConvTranspose1dClass *klass)
{
  conv_class_init (G_OBJECT_CLASS (klass), GNN_MODULE_CLASS (klass), conv_transpose1d_props, TRUE);
}

static void
gnn_conv_transpose1d_init (GnnConvTranspose1d *self)
{
  self->conv.transposed = TRUE;
}

/**
 * GnnConvTranspose2d:
 *
 * A transposed 2-d convolution layer, as `torch.nn.ConvTranspose2d`: input (N, C_in, H, W)
 * or (C_in, H, W), computed by [method@Gnn.Tensor.conv_transpose2d] (gemm and col2im).
 *
 * Properties (all construct-only), as nn.ConvTranspose2d's arguments: `in-channels`,
 * `out-channels`, `kernel-size`, `stride`, `padding`, `output-padding` and `dilation`
 * (#GVariant "ax" of one or two values), `groups`, `bias` and `dtype`. String padding does not
 * exist for it, nor does the `output_size` argument of forward.
 *
 * The weight (in_channels, out_channels / groups, kH, kW) is initialised as PyTorch's
 * `reset_parameters`: kaiming_uniform_ with a = √5, the bias from U(-1/√fan_in, 1/√fan_in),
 * fan_in = out_channels / groups · kH · kW (PyTorch's fan of this weight layout). It prints as
 * PyTorch's: "ConvTranspose2d(3, 8, kernel_size=(3, 3), stride=(2, 2), output_padding=(1, 1))".
 */

/**
 * GnnConvTranspose2d:in-channels:
 *
 * The channels of the input (`in_channels`).
 */
/**
 * GnnConvTranspose2d:out-channels:
 *
 * The channels the layer produces (`out_channels`).
 */
/**
 * GnnConvTranspose2d:kernel-size:
 *
 * The size of the kernel (`kernel_size`), a #GVariant "ax" of one or two values.
 */
/**
 * GnnConvTranspose2d:stride:
 *
 * The stride (`stride`), as kernel-size; %NULL for 1.
 */
/**
 * GnnConvTranspose2d:padding:
 *
 * The padding (`padding`), as kernel-size; %NULL for 0.
 */
/**
 * GnnConvTranspose2d:output-padding:
 *
 * The size added to one side of the output (`output_padding`), as kernel-size; %NULL for 0.
 */
/**
 * GnnConvTranspose2d:dilation:
 *
 * The spacing between kernel elements (`dilation`), as kernel-size; %NULL for 1.
 */
/**
 * GnnConvTranspose2d:groups:
 *
 * The number of blocked connections from input to output channels (`groups`).
 */
/**
 * GnnConvTranspose2d:bias:
 *
 * Whether the layer learns an additive bias (`bias`).
 */
static void
gnn_conv_transpose2d_class_init (GnnConvTranspose2dClass *klass)
{
  conv_class_init (G_OBJECT_CLASS (klass), GNN_MODULE_CLASS (klass), conv_transpose2d_props, TRUE);
}

static void
gnn_conv_transpose2d_init (GnnConvTranspose2d *self)
{
  self->conv.transposed = TRUE;
}

/**
 * GnnConv3d:
 *
 * A 3-d convolution layer, as `torch.nn.Conv3d`: input (N, C_in, D, H, W) or (C_in, D, H, W),
 * output (N, C_out, D_out, H_out, W_out), computed by [method@Gnn.Tensor.conv3d] (vol2col and
 * gemm).
 *
 * Properties (all construct-only), as nn.Conv3d's arguments: `in-channels`, `out-channels`,
 * `kernel-size`, `stride` and `dilation` (#GVariant "ax" of one value for all three dimensions
 * or three), `padding` (a #GVariant "ax", or "s" holding "same" or "valid"), `groups`, `bias`,
 * `padding-mode` and `dtype`.
 *
 * The weight (out_channels, in_channels / groups, kD, kH, kW) is initialised as PyTorch's
 * `reset_parameters`: kaiming_uniform_ with a = √5, the bias from U(-1/√fan_in, 1/√fan_in).
 * The layer prints as PyTorch's: "Conv3d(3, 8, kernel_size=(3, 3, 3), stride=(1, 1, 1))".
 *
 * Since: 0.1
 */
/**
 * GnnConv3d:in-channels:
 *
 * The channels of the input (`in_channels`).
 *
 * Since: 0.1
 */
/**
 * GnnConv3d:out-channels:
 *
 * The channels the layer produces (`out_channels`).
 *
 * Since: 0.1
 */
/**
 * GnnConv3d:kernel-size:
 *
 * The size of the kernel (`kernel_size`), a #GVariant "ax" of one value for every spatial dimension or three, (D, H, W).
 *
 * Since: 0.1
 */
/**
 * GnnConv3d:stride:
 *
 * The stride (`stride`), a #GVariant "ax" as kernel-size; %NULL for 1.
 *
 * Since: 0.1
 */
/**
 * GnnConv3d:padding:
 *
 * The zero padding on both sides (`padding`): a #GVariant "ax" as kernel-size, or a string "same" or "valid"; %NULL for 0.
 *
 * Since: 0.1
 */
/**
 * GnnConv3d:dilation:
 *
 * The spacing between kernel elements (`dilation`), a #GVariant "ax" as kernel-size; %NULL for 1.
 *
 * Since: 0.1
 */
/**
 * GnnConv3d:groups:
 *
 * The number of blocked connections from input to output channels (`groups`).
 *
 * Since: 0.1
 */
/**
 * GnnConv3d:bias:
 *
 * Whether the layer learns an additive bias (`bias`); the parameter itself is named "bias".
 *
 * Since: 0.1
 */
/**
 * GnnConv3d:padding-mode:
 *
 * How the input is padded (`padding_mode`): "zeros" (the default), or "reflect", "replicate"
 * or "circular", the modes of [method@Gnn.Tensor.pad], which then pads the input before an
 * unpadded convolution.
 *
 * Since: 0.1
 */
static void
gnn_conv3d_class_init (GnnConv3dClass *klass)
{
  conv_class_init (G_OBJECT_CLASS (klass), GNN_MODULE_CLASS (klass), conv3d_props, FALSE);
}

static void
gnn_conv3d_init (GnnConv3d *self)
{
}

/**
 * GnnConvTranspose3d:
 *
 * A transposed 3-d convolution layer, as `torch.nn.ConvTranspose3d`: input (N, C_in, D, H, W)
 * or (C_in, D, H, W), computed by [method@Gnn.Tensor.conv_transpose3d] (gemm and col2vol).
 *
 * Properties (all construct-only), as nn.ConvTranspose3d's arguments: `in-channels`,
 * `out-channels`, `kernel-size`, `stride`, `padding`, `output-padding` and `dilation`
 * (#GVariant "ax" of one or three values), `groups`, `bias` and `dtype`. String padding does
 * not exist for it, nor does the `output_size` argument of forward.
 *
 * The weight (in_channels, out_channels / groups, kD, kH, kW) is initialised as PyTorch's
 * `reset_parameters`: kaiming_uniform_ with a = √5, the bias from U(-1/√fan_in, 1/√fan_in),
 * fan_in = out_channels / groups · kD · kH · kW. It prints as PyTorch's:
 * "ConvTranspose3d(3, 8, kernel_size=(3, 3, 3), stride=(2, 2, 2), output_padding=(1, 1, 1))".
 *
 * Since: 0.1
 */
/**
 * GnnConvTranspose3d:in-channels:
 *
 * The channels of the input (`in_channels`).
 *
 * Since: 0.1
 */
/**
 * GnnConvTranspose3d:out-channels:
 *
 * The channels the layer produces (`out_channels`).
 *
 * Since: 0.1
 */
/**
 * GnnConvTranspose3d:kernel-size:
 *
 * The size of the kernel (`kernel_size`), a #GVariant "ax" of one or three values, (D, H, W).
 *
 * Since: 0.1
 */
/**
 * GnnConvTranspose3d:stride:
 *
 * The stride (`stride`), as kernel-size; %NULL for 1.
 *
 * Since: 0.1
 */
/**
 * GnnConvTranspose3d:padding:
 *
 * The padding (`padding`), as kernel-size; %NULL for 0.
 *
 * Since: 0.1
 */
/**
 * GnnConvTranspose3d:output-padding:
 *
 * The size added to one side of the output (`output_padding`), as kernel-size; %NULL for 0.
 *
 * Since: 0.1
 */
/**
 * GnnConvTranspose3d:dilation:
 *
 * The spacing between kernel elements (`dilation`), as kernel-size; %NULL for 1.
 *
 * Since: 0.1
 */
/**
 * GnnConvTranspose3d:groups:
 *
 * The number of blocked connections from input to output channels (`groups`).
 *
 * Since: 0.1
 */
/**
 * GnnConvTranspose3d:bias:
 *
 * Whether the layer learns an additive bias (`bias`).
 *
 * Since: 0.1
 */
static void
gnn_conv_transpose3d_class_init (GnnConvTranspose3dClass *klass)
{
  conv_class_init (G_OBJECT_CLASS (klass), GNN_MODULE_CLASS (klass), conv_transpose3d_props, TRUE);
}

static void
gnn_conv_transpose3d_init (GnnConvTranspose3d *self)
{
  self->conv.transposed = TRUE;
}

static GVariant *
tuple_variant (const gint64 *v, guint nd)
{
  return v ? g_variant_new_fixed_array (G_VARIANT_TYPE_INT64, v, nd, sizeof (gint64)) : NULL;
}

static GnnModule *
conv_new (GType type, int in_channels, int out_channels, guint nd, const gint64 *kernel_size,
          const gint64 *stride, const gint64 *padding, const gint64 *dilation, int groups,
          gboolean bias, GnnDtype dtype, GError **error)
{
  return gnn_module_new_or_error (error, type,
                                  "in-channels", in_channels,
                                  "out-channels", out_channels,
                                  "kernel-size", tuple_variant (kernel_size, nd),
                                  "stride", tuple_variant (stride, nd),
                                  "padding", tuple_variant (padding, nd),
                                  "dilation", tuple_variant (dilation, nd),
                                  "groups", groups,
                                  "bias", bias,
                                  "dtype", dtype,
                                  NULL);
}

static GnnModule *
conv_transpose_new (GType type, int in_channels, int out_channels, guint nd, const gint64 *kernel_size,
                    const gint64 *stride, const gint64 *padding, const gint64 *output_padding, int groups,
                    gboolean bias, const gint64 *dilation, GnnDtype dtype, GError **error)
{
  return gnn_module_new_or_error (error, type,
                                  "in-channels", in_channels,
                                  "out-channels", out_channels,
                                  "kernel-size", tuple_variant (kernel_size, nd),
                                  "stride", tuple_variant (stride, nd),
                                  "padding", tuple_variant (padding, nd),
                                  "output-padding", tuple_variant (output_padding, nd),
                                  "dilation", tuple_variant (dilation, nd),
                                  "groups", groups,
                                  "bias", bias,
                                  "dtype", dtype,
                                  NULL);
}

/**
 * gnn_conv1d_new:
 * @in_channels: the channels of the input
 * @out_channels: the channels of the output
 * @kernel_size: the size of the kernel, at least 1
 * @stride: the stride, at least 1
 * @padding: the zero padding on both sides, at least 0
 * @dilation: the spacing of the kernel elements, at least 1
 * @groups: the number of blocked connections, dividing both channel counts
 * @bias: whether the layer learns an additive bias
 * @dtype: the floating-point element type of the parameters
 * @error: return location for a #GError
 *
 * Creates `nn.Conv1d (in_channels, out_channels, kernel_size, stride, padding, dilation,
 * groups, bias, dtype=dtype)`. String padding ("same", "valid") is set through the `padding`
 * property with g_object_new().
 *
 * Returns: (transfer full): the layer, or %NULL with @error set
 */
GnnConv1d *
gnn_conv1d_new (int in_channels, int out_channels, gint64 kernel_size, gint64 stride, gint64 padding,
                gint64 dilation, int groups, gboolean bias, GnnDtype dtype, GError **error)
{
  return (GnnConv1d *) conv_new (GNN_TYPE_CONV1D, in_channels, out_channels, 1, &kernel_size, &stride,
                                 &padding, &dilation, groups, bias, dtype, error);
}

/**
 * gnn_conv2d_new:
 * @in_channels: the channels of the input
 * @out_channels: the channels of the output
 * @kernel_size: (array fixed-size=2): the kernel's height and width, at least 1
 * @stride: (array fixed-size=2) (nullable): the stride along H and W, or %NULL for (1, 1)
 * @padding: (array fixed-size=2) (nullable): the zero padding of H and W, or %NULL for (0, 0)
 * @dilation: (array fixed-size=2) (nullable): the dilation along H and W, or %NULL for (1, 1)
 * @groups: the number of blocked connections, dividing both channel counts
 * @bias: whether the layer learns an additive bias
 * @dtype: the floating-point element type of the parameters
 * @error: return location for a #GError
 *
 * Creates `nn.Conv2d (in_channels, out_channels, kernel_size, stride, padding, dilation,
 * groups, bias, dtype=dtype)`. String padding ("same", "valid") is set through the `padding`
 * property with g_object_new().
 *
 * Returns: (transfer full): the layer, or %NULL with @error set
 */
GnnConv2d *
gnn_conv2d_new (int in_channels, int out_channels, const gint64 *kernel_size, const gint64 *stride,
                const gint64 *padding, const gint64 *dilation, int groups, gboolean bias, GnnDtype dtype,
                GError **error)
{
  g_return_val_if_fail (kernel_size != NULL, NULL);
  return (GnnConv2d *) conv_new (GNN_TYPE_CONV2D, in_channels, out_channels, 2, kernel_size, stride,
                                 padding, dilation, groups, bias, dtype, error);
}

/**
 * gnn_conv_transpose2d_new:
 * @in_channels: the channels of the input
 * @out_channels: the channels of the output
 * @kernel_size: (array fixed-size=2): the kernel's height and width, at least 1
 * @stride: (array fixed-size=2) (nullable): the stride, or %NULL for (1, 1)
 * @padding: (array fixed-size=2) (nullable): the padding, or %NULL for (0, 0)
 * @output_padding: (array fixed-size=2) (nullable): the output padding, or %NULL for (0, 0)
 * @groups: the number of blocked connections, dividing both channel counts
 * @bias: whether the layer learns an additive bias
 * @dilation: (array fixed-size=2) (nullable): the dilation, or %NULL for (1, 1)
 * @dtype: the floating-point element type of the parameters
 * @error: return location for a #GError
 *
 * Creates `nn.ConvTranspose2d (in_channels, out_channels, kernel_size, stride, padding,
 * output_padding, groups, bias, dilation, dtype=dtype)`.
 *
 * Returns: (transfer full): the layer, or %NULL with @error set
 */
GnnConvTranspose2d *
gnn_conv_transpose2d_new (int in_channels, int out_channels, const gint64 *kernel_size, const gint64 *stride,
                          const gint64 *padding, const gint64 *output_padding, int groups, gboolean bias,
                          const gint64 *dilation, GnnDtype dtype, GError **error)
{
  g_return_val_if_fail (kernel_size != NULL, NULL);
  return (GnnConvTranspose2d *) conv_transpose_new (GNN_TYPE_CONV_TRANSPOSE2D, in_channels, out_channels, 2,
                                                    kernel_size, stride, padding, output_padding, groups, bias,
                                                    dilation, dtype, error);
}

/**
 * gnn_conv_transpose1d_new:
 * @in_channels: the channels of the input
 * @out_channels: the channels of the output
 * @kernel_size: the size of the kernel, at least 1
 * @stride: the stride, at least 1
 * @padding: the padding, at least 0
 * @output_padding: the output padding, smaller than the stride or the dilation
 * @groups: the number of blocked connections, dividing both channel counts
 * @bias: whether the layer learns an additive bias
 * @dilation: the dilation, at least 1
 * @dtype: the floating-point element type of the parameters
 * @error: return location for a #GError
 *
 * Creates `nn.ConvTranspose1d (in_channels, out_channels, kernel_size, stride, padding,
 * output_padding, groups, bias, dilation, dtype=dtype)`.
 *
 * Returns: (transfer full): the layer, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnConvTranspose1d *
gnn_conv_transpose1d_new (int in_channels, int out_channels, gint64 kernel_size, gint64 stride, gint64 padding,
                          gint64 output_padding, int groups, gboolean bias, gint64 dilation, GnnDtype dtype,
                          GError **error)
{
  return (GnnConvTranspose1d *) conv_transpose_new (GNN_TYPE_CONV_TRANSPOSE1D, in_channels, out_channels, 1,
                                                    &kernel_size, &stride, &padding, &output_padding, groups,
                                                    bias, &dilation, dtype, error);
}

/**
 * gnn_conv3d_new:
 * @in_channels: the channels of the input
 * @out_channels: the channels of the output
 * @kernel_size: (array fixed-size=3): the kernel's depth, height and width, at least 1
 * @stride: (array fixed-size=3) (nullable): the stride along D, H and W, or %NULL for (1, 1, 1)
 * @padding: (array fixed-size=3) (nullable): the zero padding of D, H and W, or %NULL for (0, 0, 0)
 * @dilation: (array fixed-size=3) (nullable): the dilation along D, H and W, or %NULL for (1, 1, 1)
 * @groups: the number of blocked connections, dividing both channel counts
 * @bias: whether the layer learns an additive bias
 * @dtype: the floating-point element type of the parameters
 * @error: return location for a #GError
 *
 * Creates `nn.Conv3d (in_channels, out_channels, kernel_size, stride, padding, dilation,
 * groups, bias, dtype=dtype)`. String padding ("same", "valid") and the padding modes are set
 * through the `padding` and `padding-mode` properties with g_object_new().
 *
 * Returns: (transfer full): the layer, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnConv3d *
gnn_conv3d_new (int in_channels, int out_channels, const gint64 *kernel_size, const gint64 *stride,
                const gint64 *padding, const gint64 *dilation, int groups, gboolean bias, GnnDtype dtype,
                GError **error)
{
  g_return_val_if_fail (kernel_size != NULL, NULL);
  return (GnnConv3d *) conv_new (GNN_TYPE_CONV3D, in_channels, out_channels, 3, kernel_size, stride,
                                 padding, dilation, groups, bias, dtype, error);
}

/**
 * gnn_conv_transpose3d_new:
 * @in_channels: the channels of the input
 * @out_channels: the channels of the output
 * @kernel_size: (array fixed-size=3): the kernel's depth, height and width, at least 1
 * @stride: (array fixed-size=3) (nullable): the stride, or %NULL for (1, 1, 1)
 * @padding: (array fixed-size=3) (nullable): the padding, or %NULL for (0, 0, 0)
 * @output_padding: (array fixed-size=3) (nullable): the output padding, or %NULL for (0, 0, 0)
 * @groups: the number of blocked connections, dividing both channel counts
 * @bias: whether the layer learns an additive bias
 * @dilation: (array fixed-size=3) (nullable): the dilation, or %NULL for (1, 1, 1)
 * @dtype: the floating-point element type of the parameters
 * @error: return location for a #GError
 *
 * Creates `nn.ConvTranspose3d (in_channels, out_channels, kernel_size, stride, padding,
 * output_padding, groups, bias, dilation, dtype=dtype)`.
 *
 * Returns: (transfer full): the layer, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnConvTranspose3d *
gnn_conv_transpose3d_new (int in_channels, int out_channels, const gint64 *kernel_size, const gint64 *stride,
                          const gint64 *padding, const gint64 *output_padding, int groups, gboolean bias,
                          const gint64 *dilation, GnnDtype dtype, GError **error)
{
  g_return_val_if_fail (kernel_size != NULL, NULL);
  return (GnnConvTranspose3d *) conv_transpose_new (GNN_TYPE_CONV_TRANSPOSE3D, in_channels, out_channels, 3,
                                                    kernel_size, stride, padding, output_padding, groups, bias,
                                                    dilation, dtype, error);
}

/* the layer types of this file, for gnn_module_new_from_type_name() to find by name */
void
gnn_conv_ensure_types (void)
{
  g_type_ensure (GNN_TYPE_CONV1D);
  g_type_ensure (GNN_TYPE_CONV2D);
  g_type_ensure (GNN_TYPE_CONV_TRANSPOSE2D);
  g_type_ensure (GNN_TYPE_CONV_TRANSPOSE1D);
  g_type_ensure (GNN_TYPE_CONV3D);
  g_type_ensure (GNN_TYPE_CONV_TRANSPOSE3D);
}
