/* gnn-packed-params.c: GnnLinearPackedParams, the saved form of a quantized Linear's weight
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "nn/gnn-module-private.h"
#include "nn/gnn-props-private.h"
#include "core/gnn-tensor-private.h"
#include "ops/gnn-ops.h"
#include "gnn-enum-types.h"
#include "gnn-packed-params.h"
#include "gnn-quant-private.h"

/**
 * GnnLinearPackedParams:
 *
 * The qint8 weight and float32 bias of a quantized linear layer, as torch's
 * `LinearPackedParams` (the `_packed_params` child of `torch.ao.nn.quantized.Linear` and of
 * its dynamic form).
 *
 * torch saves them as one entry, `_packed_params._packed_params`, a Python tuple of the
 * quantized weight and the bias, beside `_packed_params.dtype` (`torch.qint8`); safetensors
 * holds only plain tensors, so gnn saves the tuple's parts as the child's buffers:
 *
 * - `weight`: the weight's integers (`weight.int_repr ()`), int8, (out_features, in_features);
 * - `weight_scale`, `weight_zero_point`: its scale (float64) and zero point (int64), 0-d per
 *   tensor, or one per output feature (axis 0) with a per-channel
 *   [property@Gnn.LinearPackedParams:qscheme];
 * - `bias`: the float32 bias (absent without one, where torch's tuple holds None).
 *
 * `_packed_params.dtype` is not saved: the weight's storage dtype (int8) says it.
 *
 * Since: 0.1
 */
struct _GnnLinearPackedParams
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

G_DEFINE_FINAL_TYPE (GnnLinearPackedParams, gnn_linear_packed_params, GNN_TYPE_MODULE)

static gboolean
per_channel (GnnLinearPackedParams *self)
{
  return self->qscheme == GNN_QSCHEME_PER_CHANNEL_AFFINE || self->qscheme == GNN_QSCHEME_PER_CHANNEL_SYMMETRIC;
}

static gboolean
register_new (GnnModule  *module,
              const char *name,
              GnnTensor  *t,
              GError    **error)
{
  g_autoptr(GnnTensor) owned = t;

  return owned != NULL && gnn_module_register_buffer (module, name, owned, TRUE, error);
}

static gboolean
gnn_linear_packed_params_setup (GnnModule *module,
                                GError   **error)
{
  GnnLinearPackedParams *self = GNN_LINEAR_PACKED_PARAMS (module);
  gint64 wshape[2] = { self->out_features, self->in_features };
  gint64 cshape[1] = { self->out_features };
  guint pdim = per_channel (self) ? 1 : 0;
  GnnTensor *ints;

  if (!GNN_MODULE_CLASS (gnn_linear_packed_params_parent_class)->setup (module, error))
    return FALSE;
  /* torch's constructor: zero integers with scale 1 and zero point 0, a zero bias; a loaded
   * state must bring int8 integers (torch's packed tuple holds a qint8 tensor) */
  ints = gnn_tensor_new_zeros (wshape, 2, GNN_DTYPE_INT8, NULL, error);
  if (ints != NULL)
    g_object_set_data (G_OBJECT (ints), GNN_TENSOR_LOAD_EXACT_DTYPE, GINT_TO_POINTER (1));
  if (!register_new (module, "weight", ints, error)
      || !register_new (module, "weight_scale",
                        gnn_tensor_new_full (cshape, pdim, 1.0, GNN_DTYPE_FLOAT64, NULL, error), error)
      || !register_new (module, "weight_zero_point",
                        gnn_tensor_new_zeros (cshape, pdim, GNN_DTYPE_INT64, NULL, error), error))
    return FALSE;
  if (self->bias
      && !register_new (module, "bias", gnn_tensor_new_zeros (cshape, 1, GNN_DTYPE_FLOAT32, NULL, error), error))
    return FALSE;
  return TRUE;
}

static char *
gnn_linear_packed_params_extra_repr (GnnModule *module)
{
  GnnLinearPackedParams *self = GNN_LINEAR_PACKED_PARAMS (module);

  return g_strdup_printf ("in_features=%d, out_features=%d, dtype=torch.qint8", self->in_features,
                          self->out_features);
}

static gboolean
check_qscheme (GParamSpec   *pspec,
               const GValue *value,
               GError      **error)
{
  int v = g_value_get_enum (value);

  if (v != GNN_QSCHEME_PER_TENSOR_AFFINE && v != GNN_QSCHEME_PER_CHANNEL_AFFINE)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "qscheme: expected per_tensor_affine or per_channel_affine (the schemes of a "
                   "quantized tensor), got value %d", v);
      return FALSE;
    }
  return TRUE;
}

static void
gnn_linear_packed_params_class_init (GnnLinearPackedParamsClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GnnModuleClass *module_class = GNN_MODULE_CLASS (klass);

  module_class->setup = gnn_linear_packed_params_setup;
  module_class->extra_repr = gnn_linear_packed_params_extra_repr;

  /**
   * GnnLinearPackedParams:in-features:
   *
   * The size of each input sample: the weight's second dimension.
   *
   * Since: 0.1
   */
  props[PROP_IN_FEATURES] = (GnnProp) {
    g_param_spec_int ("in-features", NULL, NULL, G_MININT, G_MAXINT, 0,
                      GNN_PARAM_RW | G_PARAM_CONSTRUCT_ONLY),
    G_STRUCT_OFFSET (GnnLinearPackedParams, in_features), gnn_prop_check_size };

  /**
   * GnnLinearPackedParams:out-features:
   *
   * The size of each output sample: the weight's first dimension.
   *
   * Since: 0.1
   */
  props[PROP_OUT_FEATURES] = (GnnProp) {
    g_param_spec_int ("out-features", NULL, NULL, G_MININT, G_MAXINT, 0,
                      GNN_PARAM_RW | G_PARAM_CONSTRUCT_ONLY),
    G_STRUCT_OFFSET (GnnLinearPackedParams, out_features), gnn_prop_check_size };

  /**
   * GnnLinearPackedParams:bias:
   *
   * Whether there is a float32 bias (the buffer `bias`).
   *
   * Since: 0.1
   */
  props[PROP_BIAS] = (GnnProp) {
    g_param_spec_boolean ("bias", NULL, NULL, TRUE, GNN_PARAM_RW | G_PARAM_CONSTRUCT_ONLY),
    G_STRUCT_OFFSET (GnnLinearPackedParams, bias) };

  /**
   * GnnLinearPackedParams:qscheme:
   *
   * The weight's scheme: per_tensor_affine (the default; `weight_scale` and
   * `weight_zero_point` are 0-d) or per_channel_affine (one per output feature). It fixes the
   * buffers' shapes, so that a saved per-channel layer loads into one built from its JSON.
   *
   * Since: 0.1
   */
  props[PROP_QSCHEME] = (GnnProp) {
    g_param_spec_enum ("qscheme", NULL, NULL, GNN_TYPE_QSCHEME, GNN_QSCHEME_PER_TENSOR_AFFINE,
                       GNN_PARAM_RW | G_PARAM_CONSTRUCT_ONLY),
    G_STRUCT_OFFSET (GnnLinearPackedParams, qscheme), check_qscheme };

  gnn_props_install (object_class, props, N_PROPS);
}

static void
gnn_linear_packed_params_init (GnnLinearPackedParams *self)
{
  self->bias = TRUE;
  self->qscheme = GNN_QSCHEME_PER_TENSOR_AFFINE;
}

/**
 * gnn_linear_packed_params_get_weight:
 * @self: packed parameters
 * @error: return location for a #GError
 *
 * The quantized weight (the first element of torch's `_packed_params` tuple), made from the
 * buffers `weight`, `weight_scale` and `weight_zero_point`.
 *
 * Returns: (transfer full): the weight, or %NULL with @error set when the buffers hold no
 *   valid quantized tensor (a loaded scale of 0, a zero point out of the qint8 range)
 *
 * Since: 0.1
 */
GnnQuantizedTensor *
gnn_linear_packed_params_get_weight (GnnLinearPackedParams *self,
                                     GError               **error)
{
  GnnTensor *w, *s, *z;

  g_return_val_if_fail (GNN_IS_LINEAR_PACKED_PARAMS (self), NULL);
  if (!gnn_module_ensure_setup (GNN_MODULE (self), error))
    return NULL;
  w = gnn_module_tensor (GNN_MODULE (self), "weight", TRUE, error);
  s = w ? gnn_module_tensor (GNN_MODULE (self), "weight_scale", TRUE, error) : NULL;
  z = s ? gnn_module_tensor (GNN_MODULE (self), "weight_zero_point", TRUE, error) : NULL;
  if (z == NULL)
    return NULL;
  if (per_channel (self))
    return gnn_quantized_tensor_new_per_channel (w, s, z, 0, GNN_QDTYPE_QINT8, error);
  else
    {
      double scale = gnn_tensor_item (s, error);
      gint64 zp;

      if (error && *error)
        return NULL;
      zp = (gint64) gnn_tensor_item (z, error);
      if (error && *error)
        return NULL;
      return gnn_quantized_tensor_new_per_tensor (w, scale, zp, GNN_QDTYPE_QINT8, error);
    }
}

/**
 * gnn_linear_packed_params_get_bias:
 * @self: packed parameters
 *
 * The float32 bias (the second element of torch's `_packed_params` tuple).
 *
 * Returns: (transfer none) (nullable): the bias, or %NULL without one
 *
 * Since: 0.1
 */
GnnTensor *
gnn_linear_packed_params_get_bias (GnnLinearPackedParams *self)
{
  g_return_val_if_fail (GNN_IS_LINEAR_PACKED_PARAMS (self), NULL);
  if (!gnn_module_ensure_setup (GNN_MODULE (self), NULL) || !self->bias)
    return NULL;
  return gnn_module_tensor (GNN_MODULE (self), "bias", FALSE, NULL);
}

/**
 * gnn_linear_packed_params_set_weight_bias:
 * @self: packed parameters
 * @weight: a qint8 weight of shape (out_features, in_features), per tensor or per channel
 *   along axis 0 as [property@Gnn.LinearPackedParams:qscheme] says
 * @bias: (nullable): the float32 bias of shape (out_features), %NULL when the layer has none
 * @error: return location for a #GError
 *
 * Stores @weight and @bias (`set_weight_bias (weight, bias)`) in the buffers, in place.
 *
 * Returns: %TRUE, or %FALSE with @error set when @weight's dtype, shape or scheme or @bias's
 *   presence or shape do not match the layer
 *
 * Since: 0.1
 */
gboolean
gnn_linear_packed_params_set_weight_bias (GnnLinearPackedParams *self,
                                          GnnQuantizedTensor    *weight,
                                          GnnTensor             *bias,
                                          GError               **error)
{
  g_autoptr(GnnTensor) ints = NULL;
  g_autoptr(GnnTensor) scales = NULL;
  g_autoptr(GnnTensor) zps = NULL;
  GnnModule *module = GNN_MODULE (self);
  GnnQScheme scheme;
  const gint64 *shape;
  guint ndim;

  g_return_val_if_fail (GNN_IS_LINEAR_PACKED_PARAMS (self), FALSE);
  g_return_val_if_fail (GNN_IS_QUANTIZED_TENSOR (weight), FALSE);
  g_return_val_if_fail (bias == NULL || GNN_IS_TENSOR (bias), FALSE);
  if (!gnn_module_ensure_setup (module, error))
    return FALSE;
  if (gnn_quantized_tensor_get_dtype (weight) != GNN_QDTYPE_QINT8)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE,
                   "LinearPackedParams: expected a qint8 weight, got %s",
                   gnn_qdtype_get_name (gnn_quantized_tensor_get_dtype (weight)));
      return FALSE;
    }
  ints = gnn_quantized_tensor_int_repr (weight);
  shape = gnn_tensor_get_shape (ints, &ndim);
  if (ndim != 2 || shape[0] != self->out_features || shape[1] != self->in_features)
    {
      g_autofree char *s = gnn_shape_to_string (ndim, shape);
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "LinearPackedParams: expected a weight of shape [%d, %d], got %s",
                   self->out_features, self->in_features, s);
      return FALSE;
    }
  scheme = gnn_quantized_tensor_get_qscheme (weight);
  if ((scheme == GNN_QSCHEME_PER_CHANNEL_AFFINE) != per_channel (self)
      || (per_channel (self) && gnn_quantized_tensor_q_per_channel_axis (weight, NULL) != 0))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "LinearPackedParams: expected a weight quantized %s, got one quantized %s",
                   per_channel (self) ? "per channel along axis 0" : "per tensor",
                   scheme == GNN_QSCHEME_PER_CHANNEL_AFFINE ? "per channel" : "per tensor");
      return FALSE;
    }
  if ((bias != NULL) != self->bias)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "LinearPackedParams: expected %s, got %s", self->bias ? "a bias" : "no bias",
                   bias ? "a bias" : "none");
      return FALSE;
    }
  if (bias && (gnn_tensor_get_ndim (bias) != 1 || gnn_tensor_get_numel (bias) != self->out_features))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "LinearPackedParams: expected a bias of %d values, got %" G_GINT64_FORMAT,
                   self->out_features, gnn_tensor_get_numel (bias));
      return FALSE;
    }
  if (per_channel (self))
    {
      scales = gnn_quantized_tensor_q_per_channel_scales (weight, error);
      zps = scales ? gnn_quantized_tensor_q_per_channel_zero_points (weight, error) : NULL;
      if (zps == NULL)
        return FALSE;
    }
  else
    {
      scales = gnn_tensor_new_scalar (gnn_quantized_tensor_q_scale (weight, NULL), GNN_DTYPE_FLOAT64, NULL, error);
      zps = scales ? gnn_tensor_new_scalar ((double) gnn_quantized_tensor_q_zero_point (weight, NULL),
                                            GNN_DTYPE_INT64, NULL, error) : NULL;
      if (zps == NULL)
        return FALSE;
    }
  return gnn_tensor_copy_into (gnn_module_tensor (module, "weight", TRUE, error), ints, error)
         && gnn_tensor_copy_into (gnn_module_tensor (module, "weight_scale", TRUE, error), scales, error)
         && gnn_tensor_copy_into (gnn_module_tensor (module, "weight_zero_point", TRUE, error), zps, error)
         && (bias == NULL
             || gnn_tensor_copy_into (gnn_module_tensor (module, "bias", TRUE, error), bias, error));
}

/**
 * gnn_linear_packed_params_apply:
 * @self: packed parameters
 * @input: a quint8 per-tensor quantized input of shape (*, in_features)
 * @output_scale: the output's scale, finite and > 0
 * @output_zero_point: the output's zero point, in 0..255
 * @relu: whether to clamp the output at its zero point (a fused ReLU)
 * @error: return location for a #GError
 *
 * The statically quantized linear layer, as `torch.ops.quantized.linear` (and
 * `linear_relu`): the int32 accumulation of (x_q - x_zp)(w_q - w_zp), then
 * y_q = clamp (nearbyint ((acc × float32 (x_scale × w_scale) + bias) × (1 / output_scale)) +
 * output_zero_point, 0, 255), the real value rounded half to even in float32.
 *
 * Returns: (transfer full): the quint8 output, or %NULL with @error set: @input not quint8 per
 *   tensor (%GNN_ERROR_DTYPE) or of the wrong last dimension (%GNN_ERROR_SHAPE), or a bad
 *   output scale or zero point
 *
 * Since: 0.1
 */
GnnQuantizedTensor *
gnn_linear_packed_params_apply (GnnLinearPackedParams *self,
                                GnnQuantizedTensor    *input,
                                double                 output_scale,
                                gint64                 output_zero_point,
                                gboolean               relu,
                                GError               **error)
{
  g_auto(GnnQLinearWeights) w = { 0 };
  g_autoptr(GnnTensor) xint = NULL;
  g_autoptr(GBytes) xbytes = NULL;
  g_autoptr(GBytes) ybytes = NULL;
  g_autoptr(GnnTensor) yint = NULL;
  g_autofree gint32 *acc = NULL;
  gint64 oshape[GNN_MAX_DIMS], M = 1, N, xzp, lo;
  const gint64 *shape;
  double xscale;
  float inv;
  guint ndim;
  guint8 *y;

  g_return_val_if_fail (GNN_IS_LINEAR_PACKED_PARAMS (self), NULL);
  g_return_val_if_fail (GNN_IS_QUANTIZED_TENSOR (input), NULL);
  if (!gnn_quant_check_params ("quantized linear", output_scale, output_zero_point, GNN_QDTYPE_QUINT8, error))
    return NULL;
  if (gnn_quantized_tensor_get_dtype (input) != GNN_QDTYPE_QUINT8
      || gnn_quantized_tensor_get_qscheme (input) != GNN_QSCHEME_PER_TENSOR_AFFINE)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE,
                   "quantized linear: expected a quint8 input quantized per tensor, got %s%s",
                   gnn_qdtype_get_name (gnn_quantized_tensor_get_dtype (input)),
                   gnn_quantized_tensor_get_qscheme (input) == GNN_QSCHEME_PER_TENSOR_AFFINE ? "" : " per channel");
      return NULL;
    }
  if (!gnn_qlinear_weights_read (self, &w, error))
    return NULL;
  xint = gnn_quantized_tensor_int_repr (input);
  shape = gnn_tensor_get_shape (xint, &ndim);
  if (ndim == 0 || shape[ndim - 1] != w.in)
    {
      g_autofree char *s = gnn_shape_to_string (ndim, shape);
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "quantized linear: expected input with last dimension %" G_GINT64_FORMAT
                   " (in_features), got shape %s", w.in, s);
      return NULL;
    }
  for (guint d = 0; d + 1 < ndim; d++)
    M *= shape[d];
  N = w.out;
  xscale = gnn_quantized_tensor_q_scale (input, NULL);
  xzp = gnn_quantized_tensor_q_zero_point (input, NULL);
  xbytes = gnn_tensor_get_bytes (xint, error);
  if (xbytes == NULL)
    return NULL;
  acc = g_new (gint32, MAX (M * N, 1));
  if (!gnn_qlinear_accumulate (acc, g_bytes_get_data (xbytes, NULL), (gint32) xzp, &w, M, error))
    return NULL;
  inv = 1.0f / (float) output_scale;
  lo = relu ? output_zero_point : 0;
  y = g_new (guint8, MAX (M * N, 1));
  for (gint64 m = 0; m < M; m++)
    for (gint64 j = 0; j < N; j++)
      {
        float s = (float) (xscale * w.scales[w.n_scales > 1 ? j : 0]);
        float v = (float) acc[m * N + j] * s + (w.bias ? w.bias[j] : 0.f);

        y[m * N + j] = (guint8) gnn_quant_quantize_value (v, inv, output_zero_point, lo, 255);
      }
  memcpy (oshape, shape, ndim * sizeof (gint64));
  oshape[ndim - 1] = N;
  ybytes = g_bytes_new_take (y, (gsize) MAX (M * N, 1));
  yint = gnn_tensor_new_from_bytes (ybytes, GNN_DTYPE_UINT8, oshape, ndim, gnn_tensor_get_device (xint), error);
  if (yint == NULL)
    return NULL;
  return gnn_quantized_tensor_new_per_tensor (yint, output_scale, output_zero_point, GNN_QDTYPE_QUINT8, error);
}

/* ---- for the layers' forward (gnn-quant-private.h) ---- */

void
gnn_qlinear_weights_clear (GnnQLinearWeights *w)
{
  g_clear_pointer (&w->wbytes, g_bytes_unref);
  g_clear_pointer (&w->scales, g_free);
  g_clear_pointer (&w->zero_points, g_free);
  g_clear_pointer (&w->bias, g_free);
}

gboolean
gnn_qlinear_weights_read (GnnLinearPackedParams *self,
                          GnnQLinearWeights     *w,
                          GError               **error)
{
  GnnModule *module = GNN_MODULE (self);
  GnnTensor *wt, *st, *zt, *bt;
  gsize n;

  memset (w, 0, sizeof *w);
  w->in = self->in_features;
  w->out = self->out_features;
  if (!gnn_module_ensure_setup (module, error))
    return FALSE;
  wt = gnn_module_tensor (module, "weight", TRUE, error);
  st = wt ? gnn_module_tensor (module, "weight_scale", TRUE, error) : NULL;
  zt = st ? gnn_module_tensor (module, "weight_zero_point", TRUE, error) : NULL;
  if (zt == NULL)
    return FALSE;
  if (gnn_tensor_get_dtype (wt) != GNN_DTYPE_INT8 || gnn_tensor_get_numel (wt) != w->in * w->out
      || gnn_tensor_get_numel (st) != (per_channel (self) ? w->out : 1)
      || gnn_tensor_get_numel (zt) != gnn_tensor_get_numel (st))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "LinearPackedParams: expected an int8 weight of %" G_GINT64_FORMAT " values and %"
                   G_GINT64_FORMAT " scales and zero points, got %s %" G_GINT64_FORMAT ", %" G_GINT64_FORMAT
                   " and %" G_GINT64_FORMAT, w->in * w->out, per_channel (self) ? w->out : 1,
                   gnn_dtype_get_name (gnn_tensor_get_dtype (wt)), gnn_tensor_get_numel (wt),
                   gnn_tensor_get_numel (st), gnn_tensor_get_numel (zt));
      return FALSE;
    }
  w->wbytes = gnn_tensor_get_bytes (wt, error);
  if (w->wbytes == NULL)
    return FALSE;
  w->scales = gnn_tensor_to_doubles (st, &n, error);
  if (w->scales == NULL)
    return FALSE;
  w->zero_points = gnn_tensor_to_int64s (zt, &n, error);
  if (w->zero_points == NULL)
    return FALSE;
  w->n_scales = per_channel (self) ? w->out : 1;
  for (gint64 c = 0; c < w->n_scales; c++)
    if (!gnn_quant_check_params ("LinearPackedParams", w->scales[c], w->zero_points[c], GNN_QDTYPE_QINT8, error))
      return FALSE;
  bt = self->bias ? gnn_module_tensor (module, "bias", TRUE, error) : NULL;
  if (self->bias)
    {
      if (bt == NULL)
        return FALSE;
      w->bias = gnn_tensor_to_floats (bt, &n, error);
      if (w->bias == NULL && w->out > 0)
        return FALSE;
      if ((gint64) n != w->out)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                       "LinearPackedParams: expected a bias of %" G_GINT64_FORMAT " values, got %"
                       G_GSIZE_FORMAT, w->out, n);
          return FALSE;
        }
    }
  return TRUE;
}

/* acc (M, N) = Σ_k (xq[m, k] - xzp) (wq[n, k] - wzp[n]), exactly.
 *
 * The integer products go through the backend's float64 matmul (OpenBLAS dgemm on the CPU):
 * every product is at most 255 × 255 in magnitude, so every partial sum is an integer below
 * 2⁵³ for any K below 2³⁷ and the result is exactly the int32 accumulation torch's kernels
 * compute (as long as that does not overflow, which needs K > 33000). */
gboolean
gnn_qlinear_accumulate (gint32                  *acc,
                        const guint8            *xq,
                        gint32                   xzp,
                        const GnnQLinearWeights *w,
                        gint64                   M,
                        GError                 **error)
{
  const gint8 *wq = g_bytes_get_data (w->wbytes, NULL);
  gint64 K = w->in, N = w->out;
  g_autofree double *xs = NULL;
  g_autofree double *ws = NULL;
  g_autofree double *a = NULL;
  g_autoptr(GnnTensor) xt = NULL;
  g_autoptr(GnnTensor) wt = NULL;
  g_autoptr(GnnTensor) wtt = NULL;
  g_autoptr(GnnTensor) at = NULL;
  gint64 xshape[2] = { M, K }, wshape[2] = { N, K };
  gsize n;

  if (M < 8 || K == 0)
    {
      /* a few rows: converting the weight costs as much as the product, so multiply here */
      for (gint64 m = 0; m < M; m++)
        for (gint64 j = 0; j < N; j++)
          {
            const gint8 *wr = wq + j * K;
            const guint8 *x = xq + m * K;
            gint32 wzp = (gint32) w->zero_points[w->n_scales > 1 ? j : 0];
            gint32 sum = 0;

            for (gint64 k = 0; k < K; k++)
              sum += ((gint32) x[k] - xzp) * ((gint32) wr[k] - wzp);
            acc[m * N + j] = sum;
          }
      return TRUE;
    }
  xs = g_new (double, M * K);
  ws = g_new (double, MAX (N * K, 1));
  for (gint64 i = 0; i < M * K; i++)
    xs[i] = (double) ((gint32) xq[i] - xzp);
  for (gint64 j = 0; j < N; j++)
    {
      double wzp = (double) w->zero_points[w->n_scales > 1 ? j : 0];
      for (gint64 k = 0; k < K; k++)
        ws[j * K + k] = wq[j * K + k] - wzp;
    }
  xt = gnn_tensor_new_from_doubles (xs, M * K, xshape, 2, error);
  wt = xt ? gnn_tensor_new_from_doubles (ws, N * K, wshape, 2, error) : NULL;
  wtt = wt ? gnn_tensor_t (wt, error) : NULL;
  at = wtt ? gnn_tensor_matmul (xt, wtt, error) : NULL;
  a = at ? gnn_tensor_to_doubles (at, &n, error) : NULL;
  if (a == NULL && M * N > 0)
    return FALSE;
  for (gint64 i = 0; i < M * N; i++)
    acc[i] = (gint32) a[i];
  return TRUE;
}
