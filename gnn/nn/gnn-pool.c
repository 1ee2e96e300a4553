/* gnn-pool.c: GnnMaxPool2d, GnnAvgPool2d and GnnAdaptiveAvgPool2d
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
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
struct _GnnMaxPool2d
{
  GnnModule parent_instance;
  GVariant *kernel_size, *stride, *padding, *dilation;
  gboolean ceil_mode;
  gboolean return_indices;
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
struct _GnnAvgPool2d
{
  GnnModule parent_instance;
  GVariant *kernel_size, *stride, *padding;
  gboolean ceil_mode, count_include_pad;
  gint64 divisor_override;
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

/* the two classes share the enum, each its table */
static GnnProp max_props[N_PROPS], avg_props[N_PROPS];


G_DEFINE_FINAL_TYPE (GnnMaxPool2d, gnn_max_pool2d, GNN_TYPE_MODULE)
G_DEFINE_FINAL_TYPE (GnnAvgPool2d, gnn_avg_pool2d, GNN_TYPE_MODULE)

/* @v ("ax" of 1 or 2 values, or NULL for @fallback / @def) as a pair */
static gboolean
pair_of (const char *name, const char *what, GVariant *v, GVariant *fallback, gint64 def, gint64 out[2],
         GError **error)
{
  gsize n = 0;
  const gint64 *vals;

  if (v == NULL)
    v = fallback;
  if (v == NULL)
    {
      out[0] = out[1] = def;
      return TRUE;
    }
  vals = g_variant_get_fixed_array (v, &n, sizeof (gint64));
  if (n != 1 && n != 2)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "%s: %s must have 1 or 2 values, got %" G_GSIZE_FORMAT, name, what, n);
      return FALSE;
    }
  out[0] = vals[0];
  out[1] = vals[n - 1];
  return TRUE;
}

/* PyTorch prints what was given: an int or a tuple */
static void
append_size (GString *s, GVariant *v, GVariant *fallback, gint64 def)
{
  gsize n = 0;
  const gint64 *vals;

  if (v == NULL)
    v = fallback;
  if (v == NULL)
    {
      g_string_append_printf (s, "%" G_GINT64_FORMAT, def);
      return;
    }
  vals = g_variant_get_fixed_array (v, &n, sizeof (gint64));
  if (n == 1)
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

/* ---- MaxPool2d ------------------------------------------------------------------------ */

static GnnArgs *
gnn_max_pool2d_forward (GnnModule *module, GnnArgs *input, GError **error)
{
  GnnMaxPool2d *self = GNN_MAX_POOL2D (module);
  gint64 k[2], s[2], p[2], d[2];
  g_autoptr(GnnTensor) out = NULL;
  GnnTensor *x = gnn_args_get_tensor (input, 0, error);

  if (x == NULL)
    {
      g_prefix_error (error, "MaxPool2d: ");
      return NULL;
    }
  if (!check_kernel ("MaxPool2d", self->kernel_size, error) ||
      !pair_of ("MaxPool2d", "kernel_size", self->kernel_size, NULL, 1, k, error) ||
      !pair_of ("MaxPool2d", "stride", self->stride, self->kernel_size, 1, s, error) ||
      !pair_of ("MaxPool2d", "padding", self->padding, NULL, 0, p, error) ||
      !pair_of ("MaxPool2d", "dilation", self->dilation, NULL, 1, d, error))
    return NULL;
  {
    g_autoptr(GnnTensor) indices = NULL;
    GnnArgs *result;

    out = gnn_max_pool2d_internal ("MaxPool2d", x, k, s, p, d, self->ceil_mode,
                                   self->return_indices ? &indices : NULL, error);
    if (out == NULL)
      return NULL;
    result = gnn_args_new_tensor (out);
    if (self->return_indices)
      gnn_args_add_tensor (result, indices);
    return result;
  }
}

static char *
gnn_max_pool2d_extra_repr (GnnModule *module)
{
  GnnMaxPool2d *self = GNN_MAX_POOL2D (module);
  GString *s = g_string_new ("kernel_size=");

  append_size (s, self->kernel_size, NULL, 1);
  g_string_append (s, ", stride=");
  append_size (s, self->stride, self->kernel_size, 1);
  g_string_append (s, ", padding=");
  append_size (s, self->padding, NULL, 0);
  g_string_append (s, ", dilation=");
  append_size (s, self->dilation, NULL, 1);
  g_string_append_printf (s, ", ceil_mode=%s", self->ceil_mode ? "True" : "False");
  return g_string_free (s, FALSE);
}

static void
gnn_max_pool2d_class_init (GnnMaxPool2dClass *klass)
{
  GnnModuleClass *module_class = GNN_MODULE_CLASS (klass);

  module_class->forward = gnn_max_pool2d_forward;
  module_class->extra_repr = gnn_max_pool2d_extra_repr;

  /**
   * GnnMaxPool2d:kernel-size:
   *
   * The window size (`kernel_size`), a #GVariant "ax" of one or two values.
   */
  max_props[PROP_KERNEL_SIZE] = (GnnProp) {
    gnn_param_spec_int64s ("kernel-size", GNN_PARAM_RW | G_PARAM_CONSTRUCT_ONLY),
    G_STRUCT_OFFSET (GnnMaxPool2d, kernel_size) };
  /**
   * GnnMaxPool2d:stride:
   *
   * The stride (`stride`), as kernel-size; %NULL for the kernel size.
   */
  max_props[PROP_STRIDE] = (GnnProp) {
    gnn_param_spec_int64s ("stride", GNN_PARAM_RW | G_PARAM_CONSTRUCT_ONLY),
    G_STRUCT_OFFSET (GnnMaxPool2d, stride) };
  /**
   * GnnMaxPool2d:padding:
   *
   * The implicit -∞ padding on both sides (`padding`), as kernel-size; %NULL for 0.
   */
  max_props[PROP_PADDING] = (GnnProp) {
    gnn_param_spec_int64s ("padding", GNN_PARAM_RW | G_PARAM_CONSTRUCT_ONLY),
    G_STRUCT_OFFSET (GnnMaxPool2d, padding) };
  /**
   * GnnMaxPool2d:dilation:
   *
   * The spacing of the window's elements (`dilation`), as kernel-size; %NULL for 1.
   */
  max_props[PROP_DILATION] = (GnnProp) {
    gnn_param_spec_int64s ("dilation", GNN_PARAM_RW | G_PARAM_CONSTRUCT_ONLY),
    G_STRUCT_OFFSET (GnnMaxPool2d, dilation) };
  /**
   * GnnMaxPool2d:ceil-mode:
   *
   * Whether the output size rounds up (`ceil_mode`).
   */
  max_props[PROP_CEIL_MODE] = (GnnProp) {
    g_param_spec_boolean ("ceil-mode", NULL, NULL, FALSE, GNN_PARAM_RW | G_PARAM_CONSTRUCT_ONLY), G_STRUCT_OFFSET (GnnMaxPool2d, ceil_mode) };
  /**
   * GnnMaxPool2d:return-indices:
   *
   * Whether the module also returns the indices of the maxima (`return_indices`), as a second
   * output.
   */
  max_props[PROP_RETURN_INDICES] = (GnnProp) {
    g_param_spec_boolean ("return-indices", NULL, NULL, FALSE, GNN_PARAM_RW | G_PARAM_CONSTRUCT_ONLY), G_STRUCT_OFFSET (GnnMaxPool2d, return_indices) };
  gnn_props_install (G_OBJECT_CLASS (klass), max_props, N_PROPS);
}

static void
gnn_max_pool2d_init (GnnMaxPool2d *self)
{
}

static GVariant *
pair_variant (const gint64 *v)
{
  return v ? g_variant_new_fixed_array (G_VARIANT_TYPE_INT64, v, 2, sizeof (gint64)) : NULL;
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

/* ---- AvgPool2d ------------------------------------------------------------------------ */

static GnnArgs *
gnn_avg_pool2d_forward (GnnModule *module, GnnArgs *input, GError **error)
{
  GnnAvgPool2d *self = GNN_AVG_POOL2D (module);
  gint64 k[2], s[2], p[2];
  g_autoptr(GnnTensor) out = NULL;
  GnnTensor *x = gnn_args_get_tensor (input, 0, error);

  if (x == NULL)
    {
      g_prefix_error (error, "AvgPool2d: ");
      return NULL;
    }
  if (!check_kernel ("AvgPool2d", self->kernel_size, error) ||
      !pair_of ("AvgPool2d", "kernel_size", self->kernel_size, NULL, 1, k, error) ||
      !pair_of ("AvgPool2d", "stride", self->stride, self->kernel_size, 1, s, error) ||
      !pair_of ("AvgPool2d", "padding", self->padding, NULL, 0, p, error))
    return NULL;
  out = gnn_avg_pool2d_internal ("AvgPool2d", x, k, s, p, self->ceil_mode, self->count_include_pad,
                                 self->divisor_override, error);
  return out ? gnn_args_new_tensor (out) : NULL;
}

static char *
gnn_avg_pool2d_extra_repr (GnnModule *module)
{
  GnnAvgPool2d *self = GNN_AVG_POOL2D (module);
  GString *s = g_string_new ("kernel_size=");

  append_size (s, self->kernel_size, NULL, 1);
  g_string_append (s, ", stride=");
  append_size (s, self->stride, self->kernel_size, 1);
  g_string_append (s, ", padding=");
  append_size (s, self->padding, NULL, 0);
  return g_string_free (s, FALSE);
}

static void
gnn_avg_pool2d_class_init (GnnAvgPool2dClass *klass)
{
  GnnModuleClass *module_class = GNN_MODULE_CLASS (klass);

  module_class->forward = gnn_avg_pool2d_forward;
  module_class->extra_repr = gnn_avg_pool2d_extra_repr;

  /**
   * GnnAvgPool2d:kernel-size:
   *
   * The window size (`kernel_size`), a #GVariant "ax" of one or two values.
   */
  avg_props[PROP_KERNEL_SIZE] = (GnnProp) {
    gnn_param_spec_int64s ("kernel-size", GNN_PARAM_RW | G_PARAM_CONSTRUCT_ONLY),
    G_STRUCT_OFFSET (GnnAvgPool2d, kernel_size) };
  /**
   * GnnAvgPool2d:stride:
   *
   * The stride (`stride`), as kernel-size; %NULL for the kernel size.
   */
  avg_props[PROP_STRIDE] = (GnnProp) {
    gnn_param_spec_int64s ("stride", GNN_PARAM_RW | G_PARAM_CONSTRUCT_ONLY),
    G_STRUCT_OFFSET (GnnAvgPool2d, stride) };
  /**
   * GnnAvgPool2d:padding:
   *
   * The implicit zero padding on both sides (`padding`), as kernel-size; %NULL for 0.
   */
  avg_props[PROP_PADDING] = (GnnProp) {
    gnn_param_spec_int64s ("padding", GNN_PARAM_RW | G_PARAM_CONSTRUCT_ONLY),
    G_STRUCT_OFFSET (GnnAvgPool2d, padding) };
  /**
   * GnnAvgPool2d:ceil-mode:
   *
   * Whether the output size rounds up (`ceil_mode`).
   */
  avg_props[PROP_CEIL_MODE] = (GnnProp) {
    g_param_spec_boolean ("ceil-mode", NULL, NULL, FALSE, GNN_PARAM_RW | G_PARAM_CONSTRUCT_ONLY), G_STRUCT_OFFSET (GnnAvgPool2d, ceil_mode) };
  /**
   * GnnAvgPool2d:count-include-pad:
   *
   * Whether the zero padding counts in the divisor (`count_include_pad`).
   */
  avg_props[PROP_COUNT_INCLUDE_PAD] = (GnnProp) {
    g_param_spec_boolean ("count-include-pad", NULL, NULL, TRUE, GNN_PARAM_RW | G_PARAM_CONSTRUCT_ONLY), G_STRUCT_OFFSET (GnnAvgPool2d, count_include_pad) };
  /**
   * GnnAvgPool2d:divisor-override:
   *
   * The divisor of every window when positive (`divisor_override`); 0 for None.
   */
  avg_props[PROP_DIVISOR_OVERRIDE] = (GnnProp) {
    g_param_spec_int64 ("divisor-override", NULL, NULL, G_MININT64, G_MAXINT64, 0, GNN_PARAM_RW | G_PARAM_CONSTRUCT_ONLY),
    G_STRUCT_OFFSET (GnnAvgPool2d, divisor_override), gnn_prop_check_non_negative };
  gnn_props_install (G_OBJECT_CLASS (klass), avg_props, N_PROPS);
}

static void
gnn_avg_pool2d_init (GnnAvgPool2d *self)
{
}

/**
 * gnn_avg_pool2d_new:
 * @kernel_size: (array fixed-size=2): the window's height and width
 * @stride: (array fixed-size=2) (nullable): the stride, or %NULL for @kernel_size
 * @padding: (array fixed-size=2) (nullable): the padding, or %NULL for 0
 * @ceil_mode: whether the output size rounds up
 * @count_include_pad: whether the padding counts in the divisor
 * @divisor_override: the divisor of every window when positive; 0 for None
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
                       "divisor-override", MAX (divisor_override, 0), NULL);
}

/* ---- AdaptiveAvgPool2d ------------------------------------------------------------------ */

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

enum {
  APROP_0,
  APROP_OUTPUT_SIZE,
  APROP_N_PROPS
};

static GnnProp adaptive_props[APROP_N_PROPS];

G_DEFINE_FINAL_TYPE (GnnAdaptiveAvgPool2d, gnn_adaptive_avg_pool2d, GNN_TYPE_MODULE)

static GnnArgs *
gnn_adaptive_avg_pool2d_forward (GnnModule *module, GnnArgs *input, GError **error)
{
  GnnAdaptiveAvgPool2d *self = GNN_ADAPTIVE_AVG_POOL2D (module);
  gint64 size[2];
  g_autoptr(GnnTensor) out = NULL;
  GnnTensor *x = gnn_args_get_tensor (input, 0, error);

  if (x == NULL)
    {
      g_prefix_error (error, "AdaptiveAvgPool2d: ");
      return NULL;
    }
  if (self->output_size == NULL)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT, "AdaptiveAvgPool2d: output_size is required");
      return NULL;
    }
  if (!pair_of ("AdaptiveAvgPool2d", "output_size", self->output_size, NULL, -1, size, error))
    return NULL;
  out = gnn_adaptive_avg_pool2d_internal ("AdaptiveAvgPool2d", x, size, error);
  return out ? gnn_args_new_tensor (out) : NULL;
}

static char *
gnn_adaptive_avg_pool2d_extra_repr (GnnModule *module)
{
  GnnAdaptiveAvgPool2d *self = GNN_ADAPTIVE_AVG_POOL2D (module);
  GString *s = g_string_new ("output_size=");
  gsize n = 0;
  const gint64 *v = self->output_size ? g_variant_get_fixed_array (self->output_size, &n, sizeof (gint64)) : NULL;

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
gnn_adaptive_avg_pool2d_class_init (GnnAdaptiveAvgPool2dClass *klass)
{
  GnnModuleClass *module_class = GNN_MODULE_CLASS (klass);

  module_class->forward = gnn_adaptive_avg_pool2d_forward;
  module_class->extra_repr = gnn_adaptive_avg_pool2d_extra_repr;

  /**
   * GnnAdaptiveAvgPool2d:output-size:
   *
   * The output's height and width (`output_size`), a #GVariant "ax" of one or two values,
   * -1 for None (the input's size).
   */
  adaptive_props[APROP_OUTPUT_SIZE] = (GnnProp) {
    gnn_param_spec_int64s ("output-size", GNN_PARAM_RW | G_PARAM_CONSTRUCT_ONLY), G_STRUCT_OFFSET (GnnAdaptiveAvgPool2d, output_size) };
  gnn_props_install (G_OBJECT_CLASS (klass), adaptive_props, APROP_N_PROPS);
}

static void
gnn_adaptive_avg_pool2d_init (GnnAdaptiveAvgPool2d *self)
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

/* the layer types of this file, for gnn_module_new_from_type_name() to find by name */
void
gnn_pool_ensure_types (void)
{
  g_type_ensure (GNN_TYPE_MAX_POOL2D);
  g_type_ensure (GNN_TYPE_AVG_POOL2D);
  g_type_ensure (GNN_TYPE_ADAPTIVE_AVG_POOL2D);
}
