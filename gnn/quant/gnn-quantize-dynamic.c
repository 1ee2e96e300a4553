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
  GnnQuantizedTensor *weight;
  GnnTensor *bias_tensor;
};

enum {
  PROP_0,
  PROP_IN_FEATURES,
  PROP_OUT_FEATURES,
  PROP_BIAS,
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
  gint64 wshape[2] = { self->out_features, self->in_features };
  gint64 bshape[1] = { self->out_features };
  g_autoptr(GnnTensor) w = NULL;

  if (!GNN_MODULE_CLASS (gnn_dynamic_quantized_linear_parent_class)->setup (module, error))
    return FALSE;
  /* torch's constructor: a zero weight (scale 1, zero point 0) and a zero bias */
  w = gnn_tensor_new_zeros (wshape, 2, GNN_DTYPE_INT8, NULL, error);
  if (w == NULL)
    return FALSE;
  self->weight = gnn_quantized_tensor_new_per_tensor (w, 1.0, 0, GNN_QDTYPE_QINT8, error);
  if (self->weight == NULL)
    return FALSE;
  if (self->bias)
    {
      self->bias_tensor = gnn_tensor_new_zeros (bshape, 1, GNN_DTYPE_FLOAT32, NULL, error);
      if (self->bias_tensor == NULL)
        return FALSE;
    }
  return TRUE;
}

/* y (M, N) = ((xq - xzp) (M, K) · wq (N, K)ᵀ) × out_scale + b (N).
 *
 * The integer products go through the backend's float64 matmul (OpenBLAS dgemm on the CPU):
 * every product is at most 255 × 128 in magnitude, so every partial sum is an integer below
 * 2⁵³ for any K below 2³⁸ and the result is exactly the int32 accumulation torch's kernels
 * compute (as long as that does not overflow, which needs K > 65000). */
static gboolean
qlinear_forward (float        *y,
                 const guint8 *xq,
                 gint32        xzp,
                 const gint8  *wq,
                 const float  *b,
                 float         out_scale,
                 gint64        M,
                 gint64        K,
                 gint64        N,
                 GError      **error)
{
  g_autofree double *xs = g_new (double, MAX (M * K, 1));
  g_autofree double *ws = g_new (double, MAX (N * K, 1));
  g_autofree double *acc = NULL;
  g_autoptr(GnnTensor) xt = NULL;
  g_autoptr(GnnTensor) wt = NULL;
  g_autoptr(GnnTensor) wtt = NULL;
  g_autoptr(GnnTensor) at = NULL;
  gint64 xshape[2] = { M, K }, wshape[2] = { N, K };
  gsize n;

  if (M < 8)
    {
      /* a few rows: converting the weight costs as much as the product, so multiply here */
      for (gint64 m = 0; m < M; m++)
        for (gint64 j = 0; j < N; j++)
          {
            const gint8 *w = wq + j * K;
            const guint8 *x = xq + m * K;
            gint32 sum = 0;

            for (gint64 k = 0; k < K; k++)
              sum += ((gint32) x[k] - xzp) * w[k];
            y[m * N + j] = (float) sum * out_scale + (b ? b[j] : 0.f);
          }
      return TRUE;
    }
  for (gint64 i = 0; i < M * K; i++)
    xs[i] = (double) ((gint32) xq[i] - xzp);
  for (gint64 i = 0; i < N * K; i++)
    ws[i] = wq[i];
  xt = gnn_tensor_new_from_doubles (xs, M * K, xshape, 2, error);
  wt = xt ? gnn_tensor_new_from_doubles (ws, N * K, wshape, 2, error) : NULL;
  wtt = wt ? gnn_tensor_t (wt, error) : NULL;
  at = wtt ? gnn_tensor_matmul (xt, wtt, error) : NULL;
  acc = at ? gnn_tensor_to_doubles (at, &n, error) : NULL;
  if (acc == NULL && M * N > 0)
    return FALSE;
  for (gint64 m = 0; m < M; m++)
    for (gint64 j = 0; j < N; j++)
      y[m * N + j] = (float) (gint32) acc[m * N + j] * out_scale + (b ? b[j] : 0.f);
  return TRUE;
}

static GnnArgs *
gnn_dynamic_quantized_linear_forward (GnnModule *module,
                                      GnnArgs   *input,
                                      GError   **error)
{
  GnnDynamicQuantizedLinear *self = GNN_DYNAMIC_QUANTIZED_LINEAR (module);
  g_autofree float *x = NULL;
  g_autofree float *b = NULL;
  g_autofree guint8 *xq = NULL;
  g_autoptr(GBytes) wbytes = NULL;
  g_autoptr(GBytes) ybytes = NULL;
  g_autoptr(GnnTensor) wint = NULL;
  g_autoptr(GnnTensor) out = NULL;
  gint64 oshape[GNN_MAX_DIMS], M, K = self->in_features, N = self->out_features, zp;
  const gint64 *shape;
  double xscale, wscale;
  GnnTensor *in;
  gsize n = 0, nb;
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
  wint = gnn_quantized_tensor_int_repr (self->weight);
  wbytes = gnn_tensor_get_bytes (wint, error);
  if (wbytes == NULL)
    return NULL;
  wscale = gnn_quantized_tensor_q_scale (self->weight, NULL);
  if (self->bias_tensor)
    {
      b = gnn_tensor_to_floats (self->bias_tensor, &nb, error);
      if (b == NULL && N > 0)
        return NULL;
    }
  y = g_new0 (float, MAX (M * N, 1));
  if (!qlinear_forward (y, xq, (gint32) zp, g_bytes_get_data (wbytes, NULL), b,
                        (float) (xscale * wscale), M, K, N, error))
    {
      g_free (y);
      g_prefix_error (error, "DynamicQuantizedLinear: ");
      return NULL;
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

  return g_strdup_printf ("in_features=%d, out_features=%d, dtype=torch.qint8, "
                          "qscheme=torch.per_tensor_affine", self->in_features, self->out_features);
}

static void
gnn_dynamic_quantized_linear_dispose (GObject *object)
{
  GnnDynamicQuantizedLinear *self = GNN_DYNAMIC_QUANTIZED_LINEAR (object);

  g_clear_object (&self->weight);
  g_clear_object (&self->bias_tensor);
  G_OBJECT_CLASS (gnn_dynamic_quantized_linear_parent_class)->dispose (object);
}

static void
gnn_dynamic_quantized_linear_class_init (GnnDynamicQuantizedLinearClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GnnModuleClass *module_class = GNN_MODULE_CLASS (klass);

  object_class->dispose = gnn_dynamic_quantized_linear_dispose;
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

  gnn_props_install (object_class, props, N_PROPS);
}

static void
gnn_dynamic_quantized_linear_init (GnnDynamicQuantizedLinear *self)
{
  self->bias = TRUE;
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
  GnnQuantizedTensor *qw;
  GnnParameter *weight, *bias;
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
  g_set_object (&self->weight, NULL);
  self->weight = qw;
  if (bias)
    {
      g_clear_object (&self->bias_tensor);
      self->bias_tensor = gnn_tensor_clone_contiguous (GNN_TENSOR (bias), GNN_DTYPE_FLOAT32, error);
      if (self->bias_tensor == NULL)
        return NULL;
    }
  return g_steal_pointer (&self);
}

/**
 * gnn_dynamic_quantized_linear_get_weight:
 * @self: a dynamically quantized linear layer
 *
 * The quantized weight (`weight ()`), qint8 per tensor.
 *
 * Returns: (transfer none): the weight
 *
 * Since: 0.1
 */
GnnQuantizedTensor *
gnn_dynamic_quantized_linear_get_weight (GnnDynamicQuantizedLinear *self)
{
  g_return_val_if_fail (GNN_IS_DYNAMIC_QUANTIZED_LINEAR (self), NULL);
  gnn_module_ensure_setup (GNN_MODULE (self), NULL);
  return self->weight;
}

/**
 * gnn_dynamic_quantized_linear_get_bias:
 * @self: a dynamically quantized linear layer
 *
 * The float32 bias (`bias ()`).
 *
 * Returns: (transfer none) (nullable): the bias, or %NULL for a layer without one
 *
 * Since: 0.1
 */
GnnTensor *
gnn_dynamic_quantized_linear_get_bias (GnnDynamicQuantizedLinear *self)
{
  g_return_val_if_fail (GNN_IS_DYNAMIC_QUANTIZED_LINEAR (self), NULL);
  gnn_module_ensure_setup (GNN_MODULE (self), NULL);
  return self->bias_tensor;
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
