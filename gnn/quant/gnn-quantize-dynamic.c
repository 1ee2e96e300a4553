/* gnn-quantize-dynamic.c: GnnDynamicQuantizedLinear and gnn_quantize_dynamic ()
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <math.h>

#include "nn/gnn-module-private.h"
#include "nn/gnn-props-private.h"
#include "core/gnn-tensor-private.h"
#include "gnn-observer.h"
#include "gnn-quantize-dynamic.h"
#include "gnn-quant-private.h"
#include "gnn-enum-types.h"

/**
 * GnnDynamicQuantizedLinear:
 *
 * A fully connected layer with int8 weights whose input is quantized on the fly, as
 * `torch.ao.nn.quantized.dynamic.Linear` (it prints as `DynamicQuantizedLinear`).
 *
 * The weight is quantized once, per tensor and symmetric to qint8 (zero point 0), as torch's
 * `default_dynamic_qconfig` does with its `MinMaxObserver`. Each forward chooses a scale and
 * zero point for the batch from its minimum and maximum over the quint8 range halved
 * (0..127: torch's `reduce_range=True`, as its fbgemm and onednn kernels are called), quantizes
 * the input, multiplies the integers (exactly: their int32 accumulation, computed through the
 * backend's float64 matmul) and gives float32 y = acc × (input_scale × weight_scale) + bias.
 *
 * The input is a float32 tensor of shape `(*, in_features)`.
 *
 * Since: 0.1
 */
struct _GnnDynamicQuantizedLinear
{
  GnnModule parent_instance;

  int in_features;
  int out_features;
  gboolean bias;
  GnnQScheme qscheme;
};

enum {
  PROP_0,
  PROP_IN_FEATURES,
  PROP_OUT_FEATURES,
  PROP_BIAS,
  PROP_QSCHEME,
  N_PROPS
};

static GnnProp props[N_PROPS];

G_DEFINE_FINAL_TYPE (GnnDynamicQuantizedLinear, gnn_dynamic_quantized_linear, GNN_TYPE_MODULE)

/* fbgemm's and ATen's ChooseQuantizationParams (quant_utils.h), without preserve_sparsity or a
 * power-of-two scale: the scale in double, as torch keeps it */
#define SMALL_SCALE_THRESHOLD 6.1e-5f

static void
choose_qparams (float    min,
                float    max,
                gint64   qmin,
                gint64   qmax,
                gboolean reduce_range,
                double  *out_scale,
                gint64  *out_zero_point)
{
  double scale, zp_from_min, zp_from_max, err_min, err_max, initial;
  gint64 zp;

  if (reduce_range)
    {
      qmin /= 2;
      qmax /= 2;
    }
  min = MIN (min, 0.f);
  max = MAX (max, 0.f);
  scale = ((double) max - min) / (double) (qmax - qmin);
  if ((float) scale == 0.0f || isinf (1.0f / (float) scale))
    scale = 0.1;
  if (scale < SMALL_SCALE_THRESHOLD)
    {
      float org_scale = (float) scale;

      scale = SMALL_SCALE_THRESHOLD;
      if (min == 0.0f)
        max = SMALL_SCALE_THRESHOLD * (qmax - qmin);
      else if (max == 0.0f)
        min = -SMALL_SCALE_THRESHOLD * (qmax - qmin);
      else
        {
          float amplifier = SMALL_SCALE_THRESHOLD / org_scale;
          min *= amplifier;
          max *= amplifier;
        }
    }
  zp_from_min = qmin - min / scale;
  zp_from_max = qmax - max / scale;
  err_min = fabs ((double) qmin) - fabs (min / scale);
  err_max = fabs ((double) qmax) - fabs (max / scale);
  initial = err_min < err_max ? zp_from_min : zp_from_max;
  if (initial < qmin)
    zp = qmin;
  else if (initial > qmax)
    zp = qmax;
  else
    zp = (gint64) nearbyint (initial);
  *out_scale = scale;
  *out_zero_point = zp;
}

static void
min_max_of (const float *x,
            gsize        n,
            float       *mn,
            float       *mx)
{
  float lo = n ? x[0] : 0.f, hi = n ? x[0] : 0.f;

  for (gsize i = 1; i < n; i++)
    {
      lo = MIN (lo, x[i]);
      hi = MAX (hi, x[i]);
    }
  *mn = lo;
  *mx = hi;
}

/**
 * gnn_choose_qparams_per_tensor:
 * @input: a float32 tensor
 * @reduce_range: whether to use half of the quint8 range (0..127)
 * @scale: (out): the scale
 * @zero_point: (out): the zero point
 * @error: return location for a #GError
 *
 * The quint8 parameters a dynamically quantized layer chooses for @input, as
 * `torch._choose_qparams_per_tensor (input, reduce_range)`: from the minimum and maximum of
 * @input (0 included), with torch's nudging of the zero point and its smallest scale
 * (6.1e-5).
 *
 * Returns: %TRUE, or %FALSE with @error set when @input is not float32
 *
 * Since: 0.1
 */
gboolean
gnn_choose_qparams_per_tensor (GnnTensor  *input,
                               gboolean    reduce_range,
                               double     *scale,
                               gint64     *zero_point,
                               GError    **error)
{
  g_autofree float *x = NULL;
  gsize n = 0;
  float mn, mx;

  g_return_val_if_fail (GNN_IS_TENSOR (input), FALSE);
  if (gnn_tensor_get_dtype (input) != GNN_DTYPE_FLOAT32)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE,
                   "choose_qparams_per_tensor: expected a float32 tensor, got %s",
                   gnn_dtype_get_name (gnn_tensor_get_dtype (input)));
      return FALSE;
    }
  x = gnn_tensor_to_floats (input, &n, error);
  if (x == NULL && n > 0)
    return FALSE;
  min_max_of (x, n, &mn, &mx);
  choose_qparams (mn, mx, 0, 255, reduce_range, scale, zero_point);
  return TRUE;
}

static gboolean
gnn_dynamic_quantized_linear_setup (GnnModule *module,
                                    GError   **error)
{
  GnnDynamicQuantizedLinear *self = GNN_DYNAMIC_QUANTIZED_LINEAR (module);
  g_autoptr(GnnTensor) scale = NULL;
  g_autoptr(GnnTensor) zero_point = NULL;
  g_autoptr(GnnModule) packed = NULL;

  if (!GNN_MODULE_CLASS (gnn_dynamic_quantized_linear_parent_class)->setup (module, error))
    return FALSE;
  /* torch's quantized Linear saves its output scale and zero point (1.0 and 0 for the dynamic
   * one, whose output is float), then its _packed_params */
  scale = gnn_tensor_new_scalar (1.0, GNN_DTYPE_FLOAT32, NULL, error);
  zero_point = scale ? gnn_tensor_new_scalar (0.0, GNN_DTYPE_INT64, NULL, error) : NULL;
  if (zero_point == NULL
      || !gnn_module_register_buffer (module, "scale", scale, TRUE, error)
      || !gnn_module_register_buffer (module, "zero_point", zero_point, TRUE, error))
    return FALSE;
  packed = gnn_module_new_or_error (error, GNN_TYPE_LINEAR_PACKED_PARAMS,
                                    "in-features", self->in_features, "out-features", self->out_features,
                                    "bias", self->bias, "qscheme", self->qscheme, NULL);
  return packed != NULL && gnn_module_register_module (module, "_packed_params", packed, error);
}

static GnnLinearPackedParams *
packed_params (GnnDynamicQuantizedLinear *self,
               GError                   **error)
{
  GnnModule *child = gnn_module_get_submodule (GNN_MODULE (self), "_packed_params", error);

  if (child == NULL)
    return NULL;
  if (!GNN_IS_LINEAR_PACKED_PARAMS (child))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "DynamicQuantizedLinear: expected _packed_params to be a LinearPackedParams, got %s",
                   gnn_module_get_name (child));
      return NULL;
    }
  return GNN_LINEAR_PACKED_PARAMS (child);
}

static GnnArgs *
gnn_dynamic_quantized_linear_forward (GnnModule *module,
                                      GnnArgs   *input,
                                      GError   **error)
{
  GnnDynamicQuantizedLinear *self = GNN_DYNAMIC_QUANTIZED_LINEAR (module);
  g_auto(GnnQLinearWeights) w = { 0 };
  g_autofree float *x = NULL;
  g_autofree guint8 *xq = NULL;
  g_autofree gint32 *acc = NULL;
  g_autoptr(GBytes) ybytes = NULL;
  g_autoptr(GnnTensor) out = NULL;
  GnnLinearPackedParams *packed;
  gint64 oshape[GNN_MAX_DIMS], M, K = self->in_features, N = self->out_features, zp;
  const gint64 *shape;
  double xscale;
  GnnTensor *in;
  gsize n = 0;
  float mn, mx, inv;
  guint ndim;
  float *y;

  in = gnn_args_get_tensor (input, 0, error);
  if (in == NULL)
    {
      g_prefix_error (error, "DynamicQuantizedLinear: ");
      return NULL;
    }
  shape = gnn_tensor_get_shape (in, &ndim);
  if (ndim == 0 || shape[ndim - 1] != K)
    {
      g_autofree char *s = gnn_shape_to_string (ndim, shape);
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "DynamicQuantizedLinear: expected input with last dimension %" G_GINT64_FORMAT
                   " (in_features), got shape %s", K, s);
      return NULL;
    }
  if (gnn_tensor_get_dtype (in) != GNN_DTYPE_FLOAT32)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE,
                   "DynamicQuantizedLinear: expected a float32 input, got %s",
                   gnn_dtype_get_name (gnn_tensor_get_dtype (in)));
      return NULL;
    }
  packed = packed_params (self, error);
  if (packed == NULL || !gnn_qlinear_weights_read (packed, &w, error))
    return NULL;
  x = gnn_tensor_to_floats (in, &n, error);
  if (x == NULL && n > 0)
    return NULL;
  M = 1;
  for (guint d = 0; d + 1 < ndim; d++)
    M *= shape[d];
  min_max_of (x, n, &mn, &mx);
  choose_qparams (mn, mx, 0, 255, TRUE, &xscale, &zp);
  inv = 1.0f / (float) xscale;
  xq = g_new (guint8, MAX (n, 1));
  for (gsize i = 0; i < n; i++)
    xq[i] = (guint8) gnn_quant_quantize_value (x[i], inv, zp, 0, 255);
  acc = g_new (gint32, MAX (M * N, 1));
  if (!gnn_qlinear_accumulate (acc, xq, (gint32) zp, &w, M, error))
    {
      g_prefix_error (error, "DynamicQuantizedLinear: ");
      return NULL;
    }
  /* y = acc × (input_scale × weight_scale) + b, the scale product in float32 */
  y = g_new0 (float, MAX (M * N, 1));
  for (gint64 m = 0; m < M; m++)
    for (gint64 j = 0; j < N; j++)
      {
        float s = (float) (xscale * w.scales[w.n_scales > 1 ? j : 0]);
        y[m * N + j] = (float) acc[m * N + j] * s + (w.bias ? w.bias[j] : 0.f);
      }
  memcpy (oshape, shape, ndim * sizeof (gint64));
  oshape[ndim - 1] = N;
  ybytes = g_bytes_new_take (y, (gsize) MAX (M * N, 1) * sizeof (float));
  out = gnn_tensor_new_from_bytes (ybytes, GNN_DTYPE_FLOAT32, oshape, ndim,
                                   gnn_tensor_get_device (in), error);
  if (out == NULL)
    return NULL;
  return gnn_args_new_tensor (out);
}

static char *
gnn_dynamic_quantized_linear_extra_repr (GnnModule *module)
{
  GnnDynamicQuantizedLinear *self = GNN_DYNAMIC_QUANTIZED_LINEAR (module);

  return g_strdup_printf ("in_features=%d, out_features=%d, dtype=torch.qint8, qscheme=torch.%s",
                          self->in_features, self->out_features,
                          self->qscheme == GNN_QSCHEME_PER_CHANNEL_AFFINE ? "per_channel_affine"
                                                                         : "per_tensor_affine");
}

static void
gnn_dynamic_quantized_linear_class_init (GnnDynamicQuantizedLinearClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GnnModuleClass *module_class = GNN_MODULE_CLASS (klass);

  module_class->setup = gnn_dynamic_quantized_linear_setup;
  module_class->forward = gnn_dynamic_quantized_linear_forward;
  module_class->extra_repr = gnn_dynamic_quantized_linear_extra_repr;

  /**
   * GnnDynamicQuantizedLinear:in-features:
   *
   * The size of each input sample (`in_features`).
   *
   * Since: 0.1
   */
  props[PROP_IN_FEATURES] = (GnnProp) {
    g_param_spec_int ("in-features", NULL, NULL, G_MININT, G_MAXINT, 0,
                      GNN_PARAM_RW | G_PARAM_CONSTRUCT_ONLY),
    G_STRUCT_OFFSET (GnnDynamicQuantizedLinear, in_features), gnn_prop_check_size };

  /**
   * GnnDynamicQuantizedLinear:out-features:
   *
   * The size of each output sample (`out_features`).
   *
   * Since: 0.1
   */
  props[PROP_OUT_FEATURES] = (GnnProp) {
    g_param_spec_int ("out-features", NULL, NULL, G_MININT, G_MAXINT, 0,
                      GNN_PARAM_RW | G_PARAM_CONSTRUCT_ONLY),
    G_STRUCT_OFFSET (GnnDynamicQuantizedLinear, out_features), gnn_prop_check_size };

  /**
   * GnnDynamicQuantizedLinear:bias:
   *
   * Whether the layer adds a float32 bias (`bias_`).
   *
   * Since: 0.1
   */
  props[PROP_BIAS] = (GnnProp) {
    g_param_spec_boolean ("bias", NULL, NULL, TRUE, GNN_PARAM_RW | G_PARAM_CONSTRUCT_ONLY),
    G_STRUCT_OFFSET (GnnDynamicQuantizedLinear, bias) };

  /**
   * GnnDynamicQuantizedLinear:qscheme:
   *
   * How the weight is quantized: per_tensor_affine (the default, torch's
   * `default_dynamic_qconfig`) or per_channel_affine (along the output features, torch's
   * `per_channel_dynamic_qconfig`). It fixes the shapes of the saved weight scale and zero
   * point (see [class@Gnn.LinearPackedParams]).
   *
   * Since: 0.1
   */
  props[PROP_QSCHEME] = (GnnProp) {
    g_param_spec_enum ("qscheme", NULL, NULL, GNN_TYPE_QSCHEME, GNN_QSCHEME_PER_TENSOR_AFFINE,
                       GNN_PARAM_RW | G_PARAM_CONSTRUCT_ONLY),
    G_STRUCT_OFFSET (GnnDynamicQuantizedLinear, qscheme) };

  gnn_props_install (object_class, props, N_PROPS);
}

static void
gnn_dynamic_quantized_linear_init (GnnDynamicQuantizedLinear *self)
{
  self->bias = TRUE;
  self->qscheme = GNN_QSCHEME_PER_TENSOR_AFFINE;
}

/**
 * gnn_dynamic_quantized_linear_new_from_float:
 * @linear: a float32 linear layer
 * @error: return location for a #GError
 *
 * Makes the dynamically quantized form of @linear, as `DynamicQuantizedLinear.from_float`
 * with torch's default dynamic qconfig: the weight observed by a qint8 per-tensor symmetric
 * [class@Gnn.MinMaxObserver] and quantized with its parameters, the bias kept in float32.
 *
 * Returns: (transfer full): the layer, or %NULL with @error set when @linear's weight is not
 *   float32
 *
 * Since: 0.1
 */
GnnDynamicQuantizedLinear *
gnn_dynamic_quantized_linear_new_from_float (GnnLinear  *linear,
                                             GError    **error)
{
  g_autoptr(GnnDynamicQuantizedLinear) self = NULL;
  g_autoptr(GnnMinMaxObserver) obs = NULL;
  GnnLinearPackedParams *packed;
  GnnQuantizedTensor *qw;
  GnnParameter *weight, *bias;
  gboolean ok;
  double scale;
  gint64 zp;

  g_return_val_if_fail (GNN_IS_LINEAR (linear), NULL);
  if (!gnn_module_ensure_setup (GNN_MODULE (linear), error))
    return NULL;
  weight = gnn_module_find_parameter (GNN_MODULE (linear), "weight");
  bias = gnn_module_find_parameter (GNN_MODULE (linear), "bias");
  if (weight == NULL || gnn_tensor_get_dtype (GNN_TENSOR (weight)) != GNN_DTYPE_FLOAT32)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE,
                   "quantize_dynamic: expected a Linear with a float32 weight, got %s",
                   weight ? gnn_dtype_get_name (gnn_tensor_get_dtype (GNN_TENSOR (weight))) : "none");
      return NULL;
    }
  obs = gnn_min_max_observer_new (GNN_QDTYPE_QINT8, GNN_QSCHEME_PER_TENSOR_SYMMETRIC, FALSE, error);
  if (obs == NULL || !gnn_min_max_observer_observe (obs, GNN_TENSOR (weight), error))
    return NULL;
  if (!gnn_min_max_observer_calculate_qparams (obs, &scale, &zp, error))
    {
      /* an empty weight: torch's default parameters */
      g_clear_error (error);
      scale = 1.0;
      zp = 0;
    }
  qw = gnn_quantize_per_tensor (GNN_TENSOR (weight), scale, zp, GNN_QDTYPE_QINT8, error);
  if (qw == NULL)
    return NULL;
  self = gnn_module_new_or_error (error, GNN_TYPE_DYNAMIC_QUANTIZED_LINEAR,
                                  "in-features", gnn_linear_get_in_features (linear),
                                  "out-features", gnn_linear_get_out_features (linear),
                                  "bias", bias != NULL, NULL);
  if (self == NULL || !gnn_module_ensure_setup (GNN_MODULE (self), error))
    {
      g_object_unref (qw);
      return NULL;
    }
  packed = packed_params (self, error);
  ok = packed != NULL
       && gnn_linear_packed_params_set_weight_bias (packed, qw, bias ? GNN_TENSOR (bias) : NULL, error);
  g_object_unref (qw);
  if (!ok)
    return NULL;
  return g_steal_pointer (&self);
}

/**
 * gnn_dynamic_quantized_linear_get_weight:
 * @self: a dynamically quantized linear layer
 * @error: return location for a #GError
 *
 * The quantized weight (`weight ()`), qint8, made from the buffers of `_packed_params`.
 *
 * Returns: (transfer full): the weight, or %NULL with @error set when the loaded buffers hold
 *   no valid quantized tensor
 *
 * Since: 0.1
 */
GnnQuantizedTensor *
gnn_dynamic_quantized_linear_get_weight (GnnDynamicQuantizedLinear *self,
                                         GError                   **error)
{
  GnnLinearPackedParams *packed;

  g_return_val_if_fail (GNN_IS_DYNAMIC_QUANTIZED_LINEAR (self), NULL);
  if (!gnn_module_ensure_setup (GNN_MODULE (self), error))
    return NULL;
  packed = packed_params (self, error);
  return packed ? gnn_linear_packed_params_get_weight (packed, error) : NULL;
}

/**
 * gnn_dynamic_quantized_linear_get_bias:
 * @self: a dynamically quantized linear layer
 *
 * The float32 bias (`bias ()`), the buffer `_packed_params.bias`.
 *
 * Returns: (transfer none) (nullable): the bias, or %NULL for a layer without one
 *
 * Since: 0.1
 */
GnnTensor *
gnn_dynamic_quantized_linear_get_bias (GnnDynamicQuantizedLinear *self)
{
  GnnLinearPackedParams *packed;

  g_return_val_if_fail (GNN_IS_DYNAMIC_QUANTIZED_LINEAR (self), NULL);
  if (!gnn_module_ensure_setup (GNN_MODULE (self), NULL))
    return NULL;
  packed = packed_params (self, NULL);
  return packed ? gnn_linear_packed_params_get_bias (packed) : NULL;
}

static gboolean
swap_children (GnnModule *module,
               GError   **error)
{
  g_auto(GStrv) names = NULL;
  g_autoptr(GPtrArray) children = gnn_module_named_children (module, &names);

  for (guint i = 0; i < children->len; i++)
    {
      GnnModule *child = g_ptr_array_index (children, i);

      /* torch maps the exact type (type (mod) in the mapping), not subclasses */
      if (G_OBJECT_TYPE (child) == GNN_TYPE_LINEAR)
        {
          g_autoptr(GnnDynamicQuantizedLinear) q =
            gnn_dynamic_quantized_linear_new_from_float (GNN_LINEAR (child), error);

          if (q == NULL)
            {
              g_prefix_error (error, "%s: ", names[i]);
              return FALSE;
            }
          gnn_module_set_training (GNN_MODULE (q), gnn_module_get_training (child));
          if (!gnn_module_set_submodule (module, names[i], GNN_MODULE (q), error))
            return FALSE;
        }
      else if (!swap_children (child, error))
        return FALSE;
    }
  return TRUE;
}

/**
 * gnn_quantize_dynamic:
 * @model: a model
 * @types: (array length=n_types): the layer types to quantize (`qconfig_spec`, a set of
 *   classes); only [class@Gnn.Linear] is supported yet
 * @n_types: the number of @types; 0 quantizes every supported type, as torch's default
 * @dtype: the weight dtype: qint8
 * @inplace: whether to change @model itself instead of a copy
 * @error: return location for a #GError
 *
 * Replaces the layers of @types in @model by their dynamically quantized forms, as
 * `torch.ao.quantization.quantize_dynamic (model, {nn.Linear}, dtype=torch.qint8)`: every
 * [class@Gnn.Linear] below @model (not @model itself, and not a subclass of Linear, as torch)
 * becomes a [class@Gnn.DynamicQuantizedLinear]. Without @inplace the model is copied first
 * ([method@Gnn.Module.copy]) and @model is left as it was.
 *
 * Returns: (transfer full): the quantized model (@model itself, a new reference, with
 *   @inplace), or %NULL with @error set: a type in @types that gnn cannot quantize
 *   dynamically yet (named), a dtype other than qint8 (%GNN_ERROR_NOT_SUPPORTED)
 *
 * Since: 0.1
 */
GnnModule *
gnn_quantize_dynamic (GnnModule   *model,
                      const GType *types,
                      gsize        n_types,
                      GnnQDtype    dtype,
                      gboolean     inplace,
                      GError     **error)
{
  g_autoptr(GnnModule) out = NULL;

  g_return_val_if_fail (GNN_IS_MODULE (model), NULL);
  g_return_val_if_fail (types != NULL || n_types == 0, NULL);
  if (dtype != GNN_QDTYPE_QINT8)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED,
                   "quantize_dynamic: expected dtype qint8 (the one gnn quantizes dynamically), got %s",
                   gnn_qdtype_get_name (dtype));
      return NULL;
    }
  for (gsize i = 0; i < n_types; i++)
    if (types[i] != GNN_TYPE_LINEAR)
      {
        g_set_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED,
                     "quantize_dynamic: gnn has no dynamically quantized form of %s yet "
                     "(it quantizes Linear)", g_type_name (types[i]));
        return NULL;
      }
  out = inplace ? g_object_ref (model) : gnn_module_copy (model, error);
  if (out == NULL || !swap_children (out, error))
    return NULL;
  return g_steal_pointer (&out);
}
