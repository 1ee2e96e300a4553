/* gnn-pool.c: GnnMaxPool1d/2d/3d, GnnAvgPool1d/2d/3d, GnnAdaptiveAvgPool1d/2d/3d and
 * GnnAdaptiveMaxPool3d
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The 1-d, 2-d and 3-d layers of each kind share one implementation over a struct after the
 * GnnModule (MaxPool, AvgPool, AdaptivePool); they differ in the number of spatial dimensions
 * and in their names. The 1-d forms run the 2-d kernels on a unit height; the 3-d forms run the
 * 3-d kernels.
 */
#include "config.h"

#include "gnn-module-private.h"
#include "gnn-props-private.h"
#include "core/gnn-tensor-private.h"
#include "ops/gnn-ops-private.h"
#include "gnn-pool.h"

/**
 * GnnMaxPool2d:
 *
 * 2-d max pooling, as `torch.nn.MaxPool2d`, computed by [method@Gnn.Tensor.max_pool2d]: input
 * (N, C, H, W) or (C, H, W). Its construct-only properties are nn.MaxPool2d's arguments:
 * `kernel-size`, `stride`, `padding` and `dilation` (#GVariant "ax" of one value for both
 * dimensions or two; `stride` %NULL for the kernel size), `ceil-mode` and `return-indices`
 * (then the module returns the int64 indices of the maxima as a second output, as
 * `return_indices=True` does). It prints as PyTorch's,
 * with the sizes as given: "MaxPool2d(kernel_size=2, stride=2, padding=0, dilation=1, ceil_mode=False)".
 */
typedef struct {
  GVariant *kernel_size, *stride, *padding, *dilation;
  gboolean ceil_mode;
  gboolean return_indices;
} MaxPool;

struct _GnnMaxPool2d
{
  GnnModule parent_instance;
  MaxPool pool;
};

/**
 * GnnMaxPool1d:
 *
 * 1-d max pooling, as `torch.nn.MaxPool1d`, computed by [method@Gnn.Tensor.max_pool1d]: input
 * (N, C, L) or (C, L). Its construct-only properties are nn.MaxPool1d's arguments, as those of
 * [class@Gnn.MaxPool2d] with one value each. It prints as PyTorch's, with the sizes as given:
 * "MaxPool1d(kernel_size=2, stride=2, padding=0, dilation=1, ceil_mode=False)".
 *
 * Since: 0.1
 */
struct _GnnMaxPool1d
{
  GnnModule parent_instance;
  MaxPool pool;
};

/**
 * GnnMaxPool3d:
 *
 * 3-d max pooling, as `torch.nn.MaxPool3d`, computed by [method@Gnn.Tensor.max_pool3d]: input
 * (N, C, D, H, W) or (C, D, H, W). Its construct-only properties are nn.MaxPool3d's arguments,
 * as those of [class@Gnn.MaxPool2d] with one value or three, (D, H, W). It prints as PyTorch's,
 * with the sizes as given: "MaxPool3d(kernel_size=2, stride=2, padding=0, dilation=1, ceil_mode=False)".
 *
 * Since: 0.1
 */
struct _GnnMaxPool3d
{
  GnnModule parent_instance;
  MaxPool pool;
};

/**
 * GnnAvgPool2d:
 *
 * 2-d average pooling, as `torch.nn.AvgPool2d`, computed by [method@Gnn.Tensor.avg_pool2d].
 * Its construct-only properties are nn.AvgPool2d's arguments: `kernel-size`, `stride`,
 * `padding` (#GVariant "ax" as for [class@Gnn.MaxPool2d]), `ceil-mode`, `count-include-pad`
 * and `divisor-override` (0 for None). It prints as PyTorch's:
 * "AvgPool2d(kernel_size=2, stride=2, padding=0)".
 */
typedef struct {
  GVariant *kernel_size, *stride, *padding;
  gboolean ceil_mode, count_include_pad;
  gint64 divisor_override;
} AvgPool;

struct _GnnAvgPool2d
{
  GnnModule parent_instance;
  AvgPool pool;
};

/**
 * GnnAvgPool1d:
 *
 * 1-d average pooling, as `torch.nn.AvgPool1d`, computed by [method@Gnn.Tensor.avg_pool1d].
 * Its construct-only properties are nn.AvgPool1d's arguments: `kernel-size`, `stride`,
 * `padding` (#GVariant "ax" of one value), `ceil-mode` and `count-include-pad`. It prints as
 * PyTorch's, which always shows the sizes as tuples: "AvgPool1d(kernel_size=(2,), stride=(2,),
 * padding=(0,))".
 *
 * Since: 0.1
 */
struct _GnnAvgPool1d
{
  GnnModule parent_instance;
  AvgPool pool;
};

/**
 * GnnAvgPool3d:
 *
 * 3-d average pooling, as `torch.nn.AvgPool3d`, computed by [method@Gnn.Tensor.avg_pool3d].
 * Its construct-only properties are nn.AvgPool3d's arguments: `kernel-size`, `stride`,
 * `padding` (#GVariant "ax" of one value or three, (D, H, W)), `ceil-mode`, `count-include-pad`
 * and `divisor-override` (0 for None). It prints as PyTorch's:
 * "AvgPool3d(kernel_size=2, stride=2, padding=0)".
 *
 * Since: 0.1
 */
struct _GnnAvgPool3d
{
  GnnModule parent_instance;
  AvgPool pool;
};

enum {
  PROP_0,
  PROP_KERNEL_SIZE,
  PROP_STRIDE,
  PROP_PADDING,
  PROP_DILATION,
  PROP_CEIL_MODE,
  PROP_COUNT_INCLUDE_PAD,
  PROP_DIVISOR_OVERRIDE,
  PROP_RETURN_INDICES,
  N_PROPS
};

/* the four classes share the enum, each its table */
static GnnProp max1d_props[N_PROPS], max_props[N_PROPS], avg1d_props[N_PROPS], avg_props[N_PROPS],
  max3d_props[N_PROPS], avg3d_props[N_PROPS];

#define MAX_MEMBER(m) G_STRUCT_OFFSET (GnnMaxPool2d, pool.m)
#define AVG_MEMBER(m) G_STRUCT_OFFSET (GnnAvgPool2d, pool.m)
G_STATIC_ASSERT (G_STRUCT_OFFSET (GnnMaxPool1d, pool) == G_STRUCT_OFFSET (GnnMaxPool2d, pool));
G_STATIC_ASSERT (G_STRUCT_OFFSET (GnnAvgPool1d, pool) == G_STRUCT_OFFSET (GnnAvgPool2d, pool));
G_STATIC_ASSERT (G_STRUCT_OFFSET (GnnMaxPool3d, pool) == G_STRUCT_OFFSET (GnnMaxPool2d, pool));
G_STATIC_ASSERT (G_STRUCT_OFFSET (GnnAvgPool3d, pool) == G_STRUCT_OFFSET (GnnAvgPool2d, pool));

G_DEFINE_FINAL_TYPE (GnnMaxPool1d, gnn_max_pool1d, GNN_TYPE_MODULE)
G_DEFINE_FINAL_TYPE (GnnMaxPool2d, gnn_max_pool2d, GNN_TYPE_MODULE)
G_DEFINE_FINAL_TYPE (GnnAvgPool1d, gnn_avg_pool1d, GNN_TYPE_MODULE)
G_DEFINE_FINAL_TYPE (GnnAvgPool2d, gnn_avg_pool2d, GNN_TYPE_MODULE)
G_DEFINE_FINAL_TYPE (GnnMaxPool3d, gnn_max_pool3d, GNN_TYPE_MODULE)
G_DEFINE_FINAL_TYPE (GnnAvgPool3d, gnn_avg_pool3d, GNN_TYPE_MODULE)

static MaxPool *
max_pool_of (GnnModule *module, guint *nd, const char **name)
{
  if (GNN_IS_MAX_POOL1D (module))
    {
      *nd = 1;
      *name = "MaxPool1d";
      return &GNN_MAX_POOL1D (module)->pool;
    }
  if (GNN_IS_MAX_POOL3D (module))
    {
      *nd = 3;
      *name = "MaxPool3d";
      return &GNN_MAX_POOL3D (module)->pool;
    }
  *nd = 2;
  *name = "MaxPool2d";
  return &GNN_MAX_POOL2D (module)->pool;
}

static AvgPool *
avg_pool_of (GnnModule *module, guint *nd, const char **name)
{
  if (GNN_IS_AVG_POOL1D (module))
    {
      *nd = 1;
      *name = "AvgPool1d";
      return &GNN_AVG_POOL1D (module)->pool;
    }
  if (GNN_IS_AVG_POOL3D (module))
    {
      *nd = 3;
      *name = "AvgPool3d";
      return &GNN_AVG_POOL3D (module)->pool;
    }
  *nd = 2;
  *name = "AvgPool2d";
  return &GNN_AVG_POOL2D (module)->pool;
}

/* @v ("ax" of 1 or @nd values, or NULL for @fallback / @def) as @nd values */
static gboolean
sizes_of (const char *name, const char *what, GVariant *v, GVariant *fallback, gint64 def, guint nd,
          gint64 out[3], GError **error)
{
  gsize n = 0;
  const gint64 *vals;

  if (v == NULL)
    v = fallback;
  if (v == NULL)
    {
      out[0] = out[1] = out[2] = def;
      return TRUE;
    }
  vals = g_variant_get_fixed_array (v, &n, sizeof (gint64));
  if (n != 1 && n != nd)
    {
      if (nd == 1)
        g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                     "%s: %s must have 1 value, got %" G_GSIZE_FORMAT, name, what, n);
      else
        g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                     "%s: %s must have 1 or %u values, got %" G_GSIZE_FORMAT, name, what, nd, n);
      return FALSE;
    }
  for (guint a = 0; a < 3; a++)
    out[a] = vals[n == 1 ? 0 : MIN (a, n - 1)];
  return TRUE;
}

/* PyTorch prints what was given: an int or a tuple (@as_tuple: always a tuple, as the 1-d
 * average pooling's _single makes it) */
static void
append_size (GString *s, GVariant *v, GVariant *fallback, gint64 def, gboolean as_tuple)
{
  gsize n = 0;
  const gint64 *vals;

  if (v == NULL)
    v = fallback;
  if (v == NULL)
    {
      g_string_append_printf (s, as_tuple ? "(%" G_GINT64_FORMAT ",)" : "%" G_GINT64_FORMAT, def);
      return;
    }
  vals = g_variant_get_fixed_array (v, &n, sizeof (gint64));
  if (n == 1 && !as_tuple)
    g_string_append_printf (s, "%" G_GINT64_FORMAT, vals[0]);
  else
    {
      g_string_append_c (s, '(');
      for (gsize i = 0; i < n; i++)
        g_string_append_printf (s, i ? ", %" G_GINT64_FORMAT : "%" G_GINT64_FORMAT, vals[i]);
      g_string_append (s, n == 1 ? ",)" : ")");
    }
}

static gboolean
check_kernel (const char *name, GVariant *kernel_size, GError **error)
{
  if (kernel_size == NULL)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT, "%s: kernel_size is required", name);
      return FALSE;
    }
  return TRUE;
}

/* ---- MaxPool1d, MaxPool2d -------------------------------------------------------------- */

static GnnArgs *
max_pool_forward (GnnModule *module, GnnArgs *input, GError **error)
{
  guint nd;
  const char *name;
  MaxPool *self = max_pool_of (module, &nd, &name);
  gint64 k[3], s[3], p[3], d[3];
  g_autoptr(GnnTensor) out = NULL, indices = NULL;
  GnnTensor *x = gnn_args_get_tensor (input, 0, error);
  GnnArgs *result;

  if (x == NULL)
    {
      g_prefix_error (error, "%s: ", name);
      return NULL;
    }
  if (!check_kernel (name, self->kernel_size, error) ||
      !sizes_of (name, "kernel_size", self->kernel_size, NULL, 1, nd, k, error) ||
      !sizes_of (name, "stride", self->stride, self->kernel_size, 1, nd, s, error) ||
      !sizes_of (name, "padding", self->padding, NULL, 0, nd, p, error) ||
      !sizes_of (name, "dilation", self->dilation, NULL, 1, nd, d, error))
    return NULL;
  if (nd == 3)
    out = gnn_max_pool3d_internal (name, x, k, s, p, d, self->ceil_mode,
                                   self->return_indices ? &indices : NULL, error);
  else if (nd == 1)
    out = gnn_max_pool1d_internal (name, x, k[0], s[0], p[0], d[0], self->ceil_mode,
                                   self->return_indices ? &indices : NULL, error);
  else
    out = gnn_max_pool2d_internal (name, x, k, s, p, d, self->ceil_mode,
                                   self->return_indices ? &indices : NULL, error);
  if (out == NULL)
    return NULL;
  result = gnn_args_new_tensor (out);
  if (self->return_indices)
    gnn_args_add_tensor (result, indices);
  return result;
}

static char *
max_pool_extra_repr (GnnModule *module)
{
  guint nd;
  const char *name;
  MaxPool *self = max_pool_of (module, &nd, &name);
  GString *s = g_string_new ("kernel_size=");

  append_size (s, self->kernel_size, NULL, 1, FALSE);
  g_string_append (s, ", stride=");
  append_size (s, self->stride, self->kernel_size, 1, FALSE);
  g_string_append (s, ", padding=");
  append_size (s, self->padding, NULL, 0, FALSE);
  g_string_append (s, ", dilation=");
  append_size (s, self->dilation, NULL, 1, FALSE);
  g_string_append_printf (s, ", ceil_mode=%s", self->ceil_mode ? "True" : "False");
  return g_string_free (s, FALSE);
}

static void
max_pool_class_init (GObjectClass *object_class, GnnModuleClass *module_class, GnnProp *props)
{
  GParamFlags co = GNN_PARAM_RW | G_PARAM_CONSTRUCT_ONLY;

  module_class->forward = max_pool_forward;
  module_class->extra_repr = max_pool_extra_repr;
  props[PROP_KERNEL_SIZE] = (GnnProp) { gnn_param_spec_int64s ("kernel-size", co), MAX_MEMBER (kernel_size) };
  props[PROP_STRIDE] = (GnnProp) { gnn_param_spec_int64s ("stride", co), MAX_MEMBER (stride) };
  props[PROP_PADDING] = (GnnProp) { gnn_param_spec_int64s ("padding", co), MAX_MEMBER (padding) };
  props[PROP_DILATION] = (GnnProp) { gnn_param_spec_int64s ("dilation", co), MAX_MEMBER (dilation) };
  props[PROP_CEIL_MODE] = (GnnProp) {
    g_param_spec_boolean ("ceil-mode", NULL, NULL, FALSE, co), MAX_MEMBER (ceil_mode) };
  props[PROP_RETURN_INDICES] = (GnnProp) {
    g_param_spec_boolean ("return-indices", NULL, NULL, FALSE, co), MAX_MEMBER (return_indices) };
  gnn_props_install (object_class, props, N_PROPS);
}

/**
 * GnnMaxPool2d:kernel-size:
 *
 * The window size (`kernel_size`), a #GVariant "ax" of one or two values.
 */
/**
 * GnnMaxPool2d:stride:
 *
 * The stride (`stride`), as kernel-size; %NULL for the kernel size.
 */
/**
 * GnnMaxPool2d:padding:
 *
 * The implicit -∞ padding on both sides (`padding`), as kernel-size; %NULL for 0.
 */
/**
 * GnnMaxPool2d:dilation:
 *
 * The spacing of the window's elements (`dilation`), as kernel-size; %NULL for 1.
 */
/**
 * GnnMaxPool2d:ceil-mode:
 *
 * Whether the output size rounds up (`ceil_mode`).
 */
/**
 * GnnMaxPool2d:return-indices:
 *
 * Whether the module also returns the indices of the maxima (`return_indices`), as a second
 * output.
 */
static void
gnn_max_pool2d_class_init (GnnMaxPool2dClass *klass)
{
  max_pool_class_init (G_OBJECT_CLASS (klass), GNN_MODULE_CLASS (klass), max_props);
}

static void
gnn_max_pool2d_init (GnnMaxPool2d *self)
{
}

/**
 * GnnMaxPool1d:kernel-size:
 *
 * The window length (`kernel_size`), a #GVariant "ax" of one value.
 */
/**
 * GnnMaxPool1d:stride:
 *
 * The stride (`stride`), as kernel-size; %NULL for the kernel size.
 */
/**
 * GnnMaxPool1d:padding:
 *
 * The implicit -∞ padding on both sides (`padding`), as kernel-size; %NULL for 0.
 */
/**
 * GnnMaxPool1d:dilation:
 *
 * The spacing of the window's elements (`dilation`), as kernel-size; %NULL for 1.
 */
/**
 * GnnMaxPool1d:ceil-mode:
 *
 * Whether the output size rounds up (`ceil_mode`).
 */
/**
 * GnnMaxPool1d:return-indices:
 *
 * Whether the module also returns the positions of the maxima along L (`return_indices`),
 * as a second output.
 */
static void
gnn_max_pool1d_class_init (GnnMaxPool1dClass *klass)
{
  max_pool_class_init (G_OBJECT_CLASS (klass), GNN_MODULE_CLASS (klass), max1d_props);
}

static void
gnn_max_pool1d_init (GnnMaxPool1d *self)
{
}

static GVariant *
sizes_variant (const gint64 *v, guint nd)
{
  return v ? g_variant_new_fixed_array (G_VARIANT_TYPE_INT64, v, nd, sizeof (gint64)) : NULL;
}

static GVariant *
pair_variant (const gint64 *v)
{
  return sizes_variant (v, 2);
}

/* a 1-d layer's stride: 0 for PyTorch's None (%NULL) */
static GVariant *
stride_variant (gint64 stride)
{
  return stride ? sizes_variant (&stride, 1) : NULL;
}

/**
 * gnn_max_pool2d_new:
 * @kernel_size: (array fixed-size=2): the window's height and width
 * @stride: (array fixed-size=2) (nullable): the stride, or %NULL for @kernel_size
 * @padding: (array fixed-size=2) (nullable): the padding, or %NULL for 0
 * @dilation: (array fixed-size=2) (nullable): the dilation, or %NULL for 1
 * @ceil_mode: whether the output size rounds up
 *
 * Creates `nn.MaxPool2d (kernel_size, stride, padding, dilation, ceil_mode=ceil_mode)`.
 * Sizes are checked when the layer runs.
 *
 * Returns: (transfer full): the layer
 */
GnnMaxPool2d *
gnn_max_pool2d_new (const gint64 *kernel_size, const gint64 *stride, const gint64 *padding,
                    const gint64 *dilation, gboolean ceil_mode)
{
  g_return_val_if_fail (kernel_size != NULL, NULL);
  return g_object_new (GNN_TYPE_MAX_POOL2D, "kernel-size", pair_variant (kernel_size),
                       "stride", pair_variant (stride), "padding", pair_variant (padding),
                       "dilation", pair_variant (dilation), "ceil-mode", ceil_mode, NULL);
}

/**
 * gnn_max_pool1d_new:
 * @kernel_size: the window's length
 * @stride: the stride, or 0 for @kernel_size (PyTorch's None)
 * @padding: the padding
 * @dilation: the dilation
 * @ceil_mode: whether the output size rounds up
 *
 * Creates `nn.MaxPool1d (kernel_size, stride, padding, dilation, ceil_mode=ceil_mode)`.
 * Sizes are checked when the layer runs.
 *
 * Returns: (transfer full): the layer
 *
 * Since: 0.1
 */
GnnMaxPool1d *
gnn_max_pool1d_new (gint64 kernel_size, gint64 stride, gint64 padding, gint64 dilation, gboolean ceil_mode)
{
  return g_object_new (GNN_TYPE_MAX_POOL1D, "kernel-size", sizes_variant (&kernel_size, 1),
                       "stride", stride_variant (stride), "padding", sizes_variant (&padding, 1),
                       "dilation", sizes_variant (&dilation, 1), "ceil-mode", ceil_mode, NULL);
}

/* ---- AvgPool1d, AvgPool2d -------------------------------------------------------------- */

static GnnArgs *
avg_pool_forward (GnnModule *module, GnnArgs *input, GError **error)
{
  guint nd;
  const char *name;
  AvgPool *self = avg_pool_of (module, &nd, &name);
  gint64 k[3], s[3], p[3];
  g_autoptr(GnnTensor) out = NULL;
  GnnTensor *x = gnn_args_get_tensor (input, 0, error);

  if (x == NULL)
    {
      g_prefix_error (error, "%s: ", name);
      return NULL;
    }
  if (!check_kernel (name, self->kernel_size, error) ||
      !sizes_of (name, "kernel_size", self->kernel_size, NULL, 1, nd, k, error) ||
      !sizes_of (name, "stride", self->stride, self->kernel_size, 1, nd, s, error) ||
      !sizes_of (name, "padding", self->padding, NULL, 0, nd, p, error))
    return NULL;
  if (nd == 3)
    out = gnn_avg_pool3d_internal (name, x, k, s, p, self->ceil_mode, self->count_include_pad,
                                   self->divisor_override, error);
  else if (nd == 1)
    out = gnn_avg_pool1d_internal (name, x, k[0], s[0], p[0], self->ceil_mode, self->count_include_pad, error);
  else
    out = gnn_avg_pool2d_internal (name, x, k, s, p, self->ceil_mode, self->count_include_pad,
                                   self->divisor_override, error);
  return out ? gnn_args_new_tensor (out) : NULL;
}

static char *
avg_pool_extra_repr (GnnModule *module)
{
  guint nd;
  const char *name;
  AvgPool *self = avg_pool_of (module, &nd, &name);
  GString *s = g_string_new ("kernel_size=");

  append_size (s, self->kernel_size, NULL, 1, nd == 1);
  g_string_append (s, ", stride=");
  append_size (s, self->stride, self->kernel_size, 1, nd == 1);
  g_string_append (s, ", padding=");
  append_size (s, self->padding, NULL, 0, nd == 1);
  return g_string_free (s, FALSE);
}

static void
avg_pool_class_init (GObjectClass *object_class, GnnModuleClass *module_class, GnnProp *props)
{
  GParamFlags co = GNN_PARAM_RW | G_PARAM_CONSTRUCT_ONLY;

  module_class->forward = avg_pool_forward;
  module_class->extra_repr = avg_pool_extra_repr;
  props[PROP_KERNEL_SIZE] = (GnnProp) { gnn_param_spec_int64s ("kernel-size", co), AVG_MEMBER (kernel_size) };
  props[PROP_STRIDE] = (GnnProp) { gnn_param_spec_int64s ("stride", co), AVG_MEMBER (stride) };
  props[PROP_PADDING] = (GnnProp) { gnn_param_spec_int64s ("padding", co), AVG_MEMBER (padding) };
  props[PROP_CEIL_MODE] = (GnnProp) {
    g_param_spec_boolean ("ceil-mode", NULL, NULL, FALSE, co), AVG_MEMBER (ceil_mode) };
  props[PROP_COUNT_INCLUDE_PAD] = (GnnProp) {
    g_param_spec_boolean ("count-include-pad", NULL, NULL, TRUE, co), AVG_MEMBER (count_include_pad) };
  /* nn.AvgPool1d has no divisor_override */
  if (props == avg_props || props == avg3d_props)
    props[PROP_DIVISOR_OVERRIDE] = (GnnProp) {
      g_param_spec_int64 ("divisor-override", NULL, NULL, G_MININT64, G_MAXINT64, 0, co),
      AVG_MEMBER (divisor_override) };
  gnn_props_install (object_class, props, N_PROPS);
}

/**
 * GnnAvgPool2d:kernel-size:
 *
 * The window size (`kernel_size`), a #GVariant "ax" of one or two values.
 */
/**
 * GnnAvgPool2d:stride:
 *
 * The stride (`stride`), as kernel-size; %NULL for the kernel size.
 */
/**
 * GnnAvgPool2d:padding:
 *
 * The implicit zero padding on both sides (`padding`), as kernel-size; %NULL for 0.
 */
/**
 * GnnAvgPool2d:ceil-mode:
 *
 * Whether the output size rounds up (`ceil_mode`).
 */
/**
 * GnnAvgPool2d:count-include-pad:
 *
 * Whether the zero padding counts in the divisor (`count_include_pad`).
 */
/**
 * GnnAvgPool2d:divisor-override:
 *
 * The divisor of every window when not 0 (`divisor_override`; a negative one divides by
 * itself, as torch's does); 0 for None.
 */
static void
gnn_avg_pool2d_class_init (GnnAvgPool2dClass *klass)
{
  avg_pool_class_init (G_OBJECT_CLASS (klass), GNN_MODULE_CLASS (klass), avg_props);
}

static void
gnn_avg_pool2d_init (GnnAvgPool2d *self)
{
}

/**
 * GnnAvgPool1d:kernel-size:
 *
 * The window length (`kernel_size`), a #GVariant "ax" of one value.
 */
/**
 * GnnAvgPool1d:stride:
 *
 * The stride (`stride`), as kernel-size; %NULL for the kernel size.
 */
/**
 * GnnAvgPool1d:padding:
 *
 * The implicit zero padding on both sides (`padding`), as kernel-size; %NULL for 0.
 */
/**
 * GnnAvgPool1d:ceil-mode:
 *
 * Whether the output size rounds up (`ceil_mode`).
 */
/**
 * GnnAvgPool1d:count-include-pad:
 *
 * Whether the zero padding counts in the divisor (`count_include_pad`).
 */
static void
gnn_avg_pool1d_class_init (GnnAvgPool1dClass *klass)
{
  avg_pool_class_init (G_OBJECT_CLASS (klass), GNN_MODULE_CLASS (klass), avg1d_props);
}

static void
gnn_avg_pool1d_init (GnnAvgPool1d *self)
{
}

/**
 * gnn_avg_pool2d_new:
 * @kernel_size: (array fixed-size=2): the window's height and width
 * @stride: (array fixed-size=2) (nullable): the stride, or %NULL for @kernel_size
 * @padding: (array fixed-size=2) (nullable): the padding, or %NULL for 0
 * @ceil_mode: whether the output size rounds up
 * @count_include_pad: whether the padding counts in the divisor
 * @divisor_override: the divisor of every window when not 0 (negative too); 0 for None
 *
 * Creates `nn.AvgPool2d (kernel_size, stride, padding, ceil_mode, count_include_pad,
 * divisor_override)`. Sizes are checked when the layer runs.
 *
 * Returns: (transfer full): the layer
 */
GnnAvgPool2d *
gnn_avg_pool2d_new (const gint64 *kernel_size, const gint64 *stride, const gint64 *padding,
                    gboolean ceil_mode, gboolean count_include_pad, gint64 divisor_override)
{
  g_return_val_if_fail (kernel_size != NULL, NULL);
  return g_object_new (GNN_TYPE_AVG_POOL2D, "kernel-size", pair_variant (kernel_size),
                       "stride", pair_variant (stride), "padding", pair_variant (padding),
                       "ceil-mode", ceil_mode, "count-include-pad", count_include_pad,
                       "divisor-override", divisor_override, NULL);
}

/**
 * gnn_avg_pool1d_new:
 * @kernel_size: the window's length
 * @stride: the stride, or 0 for @kernel_size (PyTorch's None)
 * @padding: the padding
 * @ceil_mode: whether the output size rounds up
 * @count_include_pad: whether the padding counts in the divisor
 *
 * Creates `nn.AvgPool1d (kernel_size, stride, padding, ceil_mode, count_include_pad)`. Sizes
 * are checked when the layer runs.
 *
 * Returns: (transfer full): the layer
 *
 * Since: 0.1
 */
GnnAvgPool1d *
gnn_avg_pool1d_new (gint64 kernel_size, gint64 stride, gint64 padding, gboolean ceil_mode,
                    gboolean count_include_pad)
{
  return g_object_new (GNN_TYPE_AVG_POOL1D, "kernel-size", sizes_variant (&kernel_size, 1),
                       "stride", stride_variant (stride), "padding", sizes_variant (&padding, 1),
                       "ceil-mode", ceil_mode, "count-include-pad", count_include_pad, NULL);
}

/* ---- AdaptiveAvgPool1d, AdaptiveAvgPool2d -------------------------------------------------- */

/**
 * GnnAdaptiveAvgPool2d:
 *
 * 2-d adaptive average pooling, as `torch.nn.AdaptiveAvgPool2d`, computed by
 * [method@Gnn.Tensor.adaptive_avg_pool2d]. Its construct-only property `output-size` is a
 * #GVariant "ax" of one value for both dimensions or two, -1 standing for PyTorch's None (keep
 * the input's size). It prints as PyTorch's: "AdaptiveAvgPool2d(output_size=(5, 7))".
 */
struct _GnnAdaptiveAvgPool2d
{
  GnnModule parent_instance;
  GVariant *output_size;
};

/**
 * GnnAdaptiveAvgPool1d:
 *
 * 1-d adaptive average pooling, as `torch.nn.AdaptiveAvgPool1d`, computed by
 * [method@Gnn.Tensor.adaptive_avg_pool1d]. Its construct-only property `output-size` is a
 * #GVariant "ax" of one value. It prints as PyTorch's: "AdaptiveAvgPool1d(output_size=5)".
 *
 * Since: 0.1
 */
struct _GnnAdaptiveAvgPool1d
{
  GnnModule parent_instance;
  GVariant *output_size;
};

/**
 * GnnAdaptiveAvgPool3d:
 *
 * 3-d adaptive average pooling, as `torch.nn.AdaptiveAvgPool3d`, computed by
 * [method@Gnn.Tensor.adaptive_avg_pool3d]. Its construct-only property `output-size` is a
 * #GVariant "ax" of one value for all three dimensions or three, (D, H, W), -1 standing for
 * PyTorch's None (keep the input's size). It prints as PyTorch's:
 * "AdaptiveAvgPool3d(output_size=(2, None, 3))".
 *
 * Since: 0.1
 */
struct _GnnAdaptiveAvgPool3d
{
  GnnModule parent_instance;
  GVariant *output_size;
};

/**
 * GnnAdaptiveMaxPool3d:
 *
 * 3-d adaptive max pooling, as `torch.nn.AdaptiveMaxPool3d`, computed by
 * [method@Gnn.Tensor.adaptive_max_pool3d]. Its construct-only properties are `output-size`, as
 * [class@Gnn.AdaptiveAvgPool3d]'s, and `return-indices` (then the module returns the int64
 * indices of the maxima as a second output). It prints as PyTorch's:
 * "AdaptiveMaxPool3d(output_size=(2, None, 3))".
 *
 * Since: 0.1
 */
struct _GnnAdaptiveMaxPool3d
{
  GnnModule parent_instance;
  GVariant *output_size;
  gboolean return_indices;
};

enum {
  APROP_0,
  APROP_OUTPUT_SIZE,
  APROP_N_PROPS,
  /* AdaptiveMaxPool3d's second property */
  APROP_RETURN_INDICES = APROP_N_PROPS
};

static GnnProp adaptive1d_props[APROP_N_PROPS], adaptive_props[APROP_N_PROPS], adaptive3d_props[APROP_N_PROPS],
  adaptive_max3d_props[APROP_N_PROPS + 1];

G_STATIC_ASSERT (G_STRUCT_OFFSET (GnnAdaptiveAvgPool1d, output_size) ==
                 G_STRUCT_OFFSET (GnnAdaptiveAvgPool2d, output_size));
G_STATIC_ASSERT (G_STRUCT_OFFSET (GnnAdaptiveAvgPool3d, output_size) ==
                 G_STRUCT_OFFSET (GnnAdaptiveAvgPool2d, output_size));
G_STATIC_ASSERT (G_STRUCT_OFFSET (GnnAdaptiveMaxPool3d, output_size) ==
                 G_STRUCT_OFFSET (GnnAdaptiveAvgPool2d, output_size));

G_DEFINE_FINAL_TYPE (GnnAdaptiveAvgPool1d, gnn_adaptive_avg_pool1d, GNN_TYPE_MODULE)
G_DEFINE_FINAL_TYPE (GnnAdaptiveAvgPool2d, gnn_adaptive_avg_pool2d, GNN_TYPE_MODULE)
G_DEFINE_FINAL_TYPE (GnnAdaptiveAvgPool3d, gnn_adaptive_avg_pool3d, GNN_TYPE_MODULE)
G_DEFINE_FINAL_TYPE (GnnAdaptiveMaxPool3d, gnn_adaptive_max_pool3d, GNN_TYPE_MODULE)

static GVariant *
adaptive_output_size (GnnModule *module, guint *nd, const char **name)
{
  if (GNN_IS_ADAPTIVE_AVG_POOL1D (module))
    {
      *nd = 1;
      *name = "AdaptiveAvgPool1d";
      return GNN_ADAPTIVE_AVG_POOL1D (module)->output_size;
    }
  if (GNN_IS_ADAPTIVE_AVG_POOL3D (module))
    {
      *nd = 3;
      *name = "AdaptiveAvgPool3d";
      return GNN_ADAPTIVE_AVG_POOL3D (module)->output_size;
    }
  if (GNN_IS_ADAPTIVE_MAX_POOL3D (module))
    {
      *nd = 3;
      *name = "AdaptiveMaxPool3d";
      return GNN_ADAPTIVE_MAX_POOL3D (module)->output_size;
    }
  *nd = 2;
  *name = "AdaptiveAvgPool2d";
  return GNN_ADAPTIVE_AVG_POOL2D (module)->output_size;
}

static GnnArgs *
adaptive_avg_pool_forward (GnnModule *module, GnnArgs *input, GError **error)
{
  guint nd;
  const char *name;
  GVariant *output_size = adaptive_output_size (module, &nd, &name);
  gint64 size[3];
  g_autoptr(GnnTensor) out = NULL;
  GnnTensor *x = gnn_args_get_tensor (input, 0, error);

  if (x == NULL)
    {
      g_prefix_error (error, "%s: ", name);
      return NULL;
    }
  if (output_size == NULL)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT, "%s: output_size is required", name);
      return NULL;
    }
  if (!sizes_of (name, "output_size", output_size, NULL, -1, nd, size, error))
    return NULL;
  if (GNN_IS_ADAPTIVE_MAX_POOL3D (module))
    {
      g_autoptr(GnnTensor) indices = NULL;
      gboolean ret = GNN_ADAPTIVE_MAX_POOL3D (module)->return_indices;
      GnnArgs *result;

      if (!(out = gnn_adaptive_max_pool3d_internal (name, x, size, ret ? &indices : NULL, error)))
        return NULL;
      result = gnn_args_new_tensor (out);
      if (ret)
        gnn_args_add_tensor (result, indices);
      return result;
    }
  if (nd == 3)
    out = gnn_adaptive_avg_pool3d_internal (name, x, size, error);
  else if (nd == 1)
    out = gnn_adaptive_avg_pool1d_internal (name, x, size[0], error);
  else
    out = gnn_adaptive_avg_pool2d_internal (name, x, size, error);
  return out ? gnn_args_new_tensor (out) : NULL;
}

static char *
adaptive_avg_pool_extra_repr (GnnModule *module)
{
  guint nd;
  const char *name;
  GVariant *output_size = adaptive_output_size (module, &nd, &name);
  GString *s = g_string_new ("output_size=");
  gsize n = 0;
  const gint64 *v = output_size ? g_variant_get_fixed_array (output_size, &n, sizeof (gint64)) : NULL;

  if (n > 1)
    g_string_append_c (s, '(');
  for (gsize i = 0; i < n; i++)
    {
      if (i)
        g_string_append (s, ", ");
      if (v[i] < 0)
        g_string_append (s, "None");
      else
        g_string_append_printf (s, "%" G_GINT64_FORMAT, v[i]);
    }
  if (n > 1)
    g_string_append_c (s, ')');
  if (n == 0)
    g_string_append (s, "None");
  return g_string_free (s, FALSE);
}

static void
adaptive_avg_pool_class_init (GObjectClass *object_class, GnnModuleClass *module_class, GnnProp *props)
{
  module_class->forward = adaptive_avg_pool_forward;
  module_class->extra_repr = adaptive_avg_pool_extra_repr;
  props[APROP_OUTPUT_SIZE] = (GnnProp) {
    gnn_param_spec_int64s ("output-size", GNN_PARAM_RW | G_PARAM_CONSTRUCT_ONLY),
    G_STRUCT_OFFSET (GnnAdaptiveAvgPool2d, output_size) };
  if (props == adaptive_max3d_props)
    {
      props[APROP_RETURN_INDICES] = (GnnProp) {
        g_param_spec_boolean ("return-indices", NULL, NULL, FALSE, GNN_PARAM_RW | G_PARAM_CONSTRUCT_ONLY),
        G_STRUCT_OFFSET (GnnAdaptiveMaxPool3d, return_indices) };
      gnn_props_install (object_class, props, APROP_N_PROPS + 1);
      return;
    }
  gnn_props_install (object_class, props, APROP_N_PROPS);
}

/**
 * GnnAdaptiveAvgPool2d:output-size:
 *
 * The output's height and width (`output_size`), a #GVariant "ax" of one or two values,
 * -1 for None (the input's size).
 */
static void
gnn_adaptive_avg_pool2d_class_init (GnnAdaptiveAvgPool2dClass *klass)
{
  adaptive_avg_pool_class_init (G_OBJECT_CLASS (klass), GNN_MODULE_CLASS (klass), adaptive_props);
}

static void
gnn_adaptive_avg_pool2d_init (GnnAdaptiveAvgPool2d *self)
{
}

/**
 * GnnAdaptiveAvgPool1d:output-size:
 *
 * The output's length (`output_size`), a #GVariant "ax" of one value.
 */
static void
gnn_adaptive_avg_pool1d_class_init (GnnAdaptiveAvgPool1dClass *klass)
{
  adaptive_avg_pool_class_init (G_OBJECT_CLASS (klass), GNN_MODULE_CLASS (klass), adaptive1d_props);
}

static void
gnn_adaptive_avg_pool1d_init (GnnAdaptiveAvgPool1d *self)
{
}

/**
 * gnn_adaptive_avg_pool2d_new:
 * @output_size: (array fixed-size=2): the output's height and width, -1 for the input's
 *
 * Creates `nn.AdaptiveAvgPool2d (output_size)`.
 *
 * Returns: (transfer full): the layer
 */
GnnAdaptiveAvgPool2d *
gnn_adaptive_avg_pool2d_new (const gint64 *output_size)
{
  g_return_val_if_fail (output_size != NULL, NULL);
  return g_object_new (GNN_TYPE_ADAPTIVE_AVG_POOL2D, "output-size", pair_variant (output_size), NULL);
}

/**
 * gnn_adaptive_avg_pool1d_new:
 * @output_size: the output's length
 *
 * Creates `nn.AdaptiveAvgPool1d (output_size)`.
 *
 * Returns: (transfer full): the layer
 *
 * Since: 0.1
 */
GnnAdaptiveAvgPool1d *
gnn_adaptive_avg_pool1d_new (gint64 output_size)
{
  return g_object_new (GNN_TYPE_ADAPTIVE_AVG_POOL1D, "output-size", sizes_variant (&output_size, 1), NULL);
}

/**
 * GnnMaxPool3d:kernel-size:
 *
 * The window size (`kernel_size`), a #GVariant "ax" of one or three values, (D, H, W).
 *
 * Since: 0.1
 */
/**
 * GnnMaxPool3d:stride:
 *
 * The stride (`stride`), as kernel-size; %NULL for the kernel size.
 *
 * Since: 0.1
 */
/**
 * GnnMaxPool3d:padding:
 *
 * The implicit -∞ padding on both sides (`padding`), as kernel-size; %NULL for 0.
 *
 * Since: 0.1
 */
/**
 * GnnMaxPool3d:dilation:
 *
 * The spacing of the window's elements (`dilation`), as kernel-size; %NULL for 1.
 *
 * Since: 0.1
 */
/**
 * GnnMaxPool3d:ceil-mode:
 *
 * Whether the output size rounds up (`ceil_mode`).
 *
 * Since: 0.1
 */
/**
 * GnnMaxPool3d:return-indices:
 *
 * Whether the module also returns the indices of the maxima (`return_indices`), as a second
 * output.
 *
 * Since: 0.1
 */
static void
gnn_max_pool3d_class_init (GnnMaxPool3dClass *klass)
{
  max_pool_class_init (G_OBJECT_CLASS (klass), GNN_MODULE_CLASS (klass), max3d_props);
}

static void
gnn_max_pool3d_init (GnnMaxPool3d *self)
{
}

static GVariant *
triple_variant (const gint64 *v)
{
  return sizes_variant (v, 3);
}

/**
 * gnn_max_pool3d_new:
 * @kernel_size: (array fixed-size=3): the window's depth, height and width
 * @stride: (array fixed-size=3) (nullable): the stride, or %NULL for @kernel_size
 * @padding: (array fixed-size=3) (nullable): the padding, or %NULL for 0
 * @dilation: (array fixed-size=3) (nullable): the dilation, or %NULL for 1
 * @ceil_mode: whether the output size rounds up
 *
 * Creates `nn.MaxPool3d (kernel_size, stride, padding, dilation, ceil_mode=ceil_mode)`.
 * Sizes are checked when the layer runs; `return-indices` is set with g_object_new().
 *
 * Returns: (transfer full): the layer
 *
 * Since: 0.1
 */
GnnMaxPool3d *
gnn_max_pool3d_new (const gint64 *kernel_size, const gint64 *stride, const gint64 *padding,
                    const gint64 *dilation, gboolean ceil_mode)
{
  g_return_val_if_fail (kernel_size != NULL, NULL);
  return g_object_new (GNN_TYPE_MAX_POOL3D, "kernel-size", triple_variant (kernel_size),
                       "stride", triple_variant (stride), "padding", triple_variant (padding),
                       "dilation", triple_variant (dilation), "ceil-mode", ceil_mode, NULL);
}

/**
 * GnnAvgPool3d:kernel-size:
 *
 * The window size (`kernel_size`), a #GVariant "ax" of one or three values, (D, H, W).
 *
 * Since: 0.1
 */
/**
 * GnnAvgPool3d:stride:
 *
 * The stride (`stride`), as kernel-size; %NULL for the kernel size.
 *
 * Since: 0.1
 */
/**
 * GnnAvgPool3d:padding:
 *
 * The implicit zero padding on both sides (`padding`), as kernel-size; %NULL for 0.
 *
 * Since: 0.1
 */
/**
 * GnnAvgPool3d:ceil-mode:
 *
 * Whether the output size rounds up (`ceil_mode`).
 *
 * Since: 0.1
 */
/**
 * GnnAvgPool3d:count-include-pad:
 *
 * Whether the zero padding counts in the divisor (`count_include_pad`).
 *
 * Since: 0.1
 */
/**
 * GnnAvgPool3d:divisor-override:
 *
 * The divisor of every window when not 0 (`divisor_override`; a negative one divides by
 * itself, as torch's does); 0 for None.
 *
 * Since: 0.1
 */
static void
gnn_avg_pool3d_class_init (GnnAvgPool3dClass *klass)
{
  avg_pool_class_init (G_OBJECT_CLASS (klass), GNN_MODULE_CLASS (klass), avg3d_props);
}

static void
gnn_avg_pool3d_init (GnnAvgPool3d *self)
{
}

/**
 * gnn_avg_pool3d_new:
 * @kernel_size: (array fixed-size=3): the window's depth, height and width
 * @stride: (array fixed-size=3) (nullable): the stride, or %NULL for @kernel_size
 * @padding: (array fixed-size=3) (nullable): the padding, or %NULL for 0
 * @ceil_mode: whether the output size rounds up
 * @count_include_pad: whether the padding counts in the divisor
 * @divisor_override: the divisor of every window when not 0 (negative too); 0 for None
 *
 * Creates `nn.AvgPool3d (kernel_size, stride, padding, ceil_mode, count_include_pad,
 * divisor_override)`. Sizes are checked when the layer runs.
 *
 * Returns: (transfer full): the layer
 *
 * Since: 0.1
 */
GnnAvgPool3d *
gnn_avg_pool3d_new (const gint64 *kernel_size, const gint64 *stride, const gint64 *padding,
                    gboolean ceil_mode, gboolean count_include_pad, gint64 divisor_override)
{
  g_return_val_if_fail (kernel_size != NULL, NULL);
  return g_object_new (GNN_TYPE_AVG_POOL3D, "kernel-size", triple_variant (kernel_size),
                       "stride", triple_variant (stride), "padding", triple_variant (padding),
                       "ceil-mode", ceil_mode, "count-include-pad", count_include_pad,
                       "divisor-override", divisor_override, NULL);
}

/**
 * GnnAdaptiveAvgPool3d:output-size:
 *
 * The output's depth, height and width (`output_size`), a #GVariant "ax" of one or three
 * values, -1 for None (the input's size).
 *
 * Since: 0.1
 */
static void
gnn_adaptive_avg_pool3d_class_init (GnnAdaptiveAvgPool3dClass *klass)
{
  adaptive_avg_pool_class_init (G_OBJECT_CLASS (klass), GNN_MODULE_CLASS (klass), adaptive3d_props);
}

static void
gnn_adaptive_avg_pool3d_init (GnnAdaptiveAvgPool3d *self)
{
}

/**
 * gnn_adaptive_avg_pool3d_new:
 * @output_size: (array fixed-size=3): the output's depth, height and width, -1 for the input's
 *
 * Creates `nn.AdaptiveAvgPool3d (output_size)`.
 *
 * Returns: (transfer full): the layer
 *
 * Since: 0.1
 */
GnnAdaptiveAvgPool3d *
gnn_adaptive_avg_pool3d_new (const gint64 *output_size)
{
  g_return_val_if_fail (output_size != NULL, NULL);
  return g_object_new (GNN_TYPE_ADAPTIVE_AVG_POOL3D, "output-size", triple_variant (output_size), NULL);
}

/**
 * GnnAdaptiveMaxPool3d:output-size:
 *
 * The output's depth, height and width (`output_size`), a #GVariant "ax" of one or three
 * values, -1 for None (the input's size).
 *
 * Since: 0.1
 */
/**
 * GnnAdaptiveMaxPool3d:return-indices:
 *
 * Whether the module also returns the indices of the maxima (`return_indices`), as a second
 * output.
 *
 * Since: 0.1
 */
static void
gnn_adaptive_max_pool3d_class_init (GnnAdaptiveMaxPool3dClass *klass)
{
  adaptive_avg_pool_class_init (G_OBJECT_CLASS (klass), GNN_MODULE_CLASS (klass), adaptive_max3d_props);
}

static void
gnn_adaptive_max_pool3d_init (GnnAdaptiveMaxPool3d *self)
{
}

/**
 * gnn_adaptive_max_pool3d_new:
 * @output_size: (array fixed-size=3): the output's depth, height and width, -1 for the input's
 * @return_indices: whether the layer also returns the indices of the maxima
 *
 * Creates `nn.AdaptiveMaxPool3d (output_size, return_indices)`.
 *
 * Returns: (transfer full): the layer
 *
 * Since: 0.1
 */
GnnAdaptiveMaxPool3d *
gnn_adaptive_max_pool3d_new (const gint64 *output_size,
                             gboolean      return_indices)
{
  g_return_val_if_fail (output_size != NULL, NULL);
  return g_object_new (GNN_TYPE_ADAPTIVE_MAX_POOL3D, "output-size", triple_variant (output_size),
                       "return-indices", return_indices, NULL);
}

/* the layer types of this file, for gnn_module_new_from_type_name() to find by name */
void
gnn_pool_ensure_types (void)
{
  g_type_ensure (GNN_TYPE_MAX_POOL2D);
  g_type_ensure (GNN_TYPE_AVG_POOL2D);
  g_type_ensure (GNN_TYPE_ADAPTIVE_AVG_POOL2D);
  g_type_ensure (GNN_TYPE_MAX_POOL1D);
  g_type_ensure (GNN_TYPE_AVG_POOL1D);
  g_type_ensure (GNN_TYPE_ADAPTIVE_AVG_POOL1D);
  g_type_ensure (GNN_TYPE_MAX_POOL3D);
  g_type_ensure (GNN_TYPE_AVG_POOL3D);
  g_type_ensure (GNN_TYPE_ADAPTIVE_AVG_POOL3D);
  g_type_ensure (GNN_TYPE_ADAPTIVE_MAX_POOL3D);
}
