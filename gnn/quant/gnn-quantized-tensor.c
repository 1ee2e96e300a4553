/* gnn-quantized-tensor.c: GnnQuantizedTensor
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <math.h>

#include "core/gnn-error.h"
#include "core/gnn-tensor-private.h"
#include "gnn-quantized-tensor.h"
#include "gnn-quant-private.h"

/**
 * GnnQuantizedTensor:
 *
 * A tensor of integers with the affine map that gives them real values, as a tensor that
 * `torch.quantize_per_tensor` or `torch.quantize_per_channel` returns: the real value of an
 * element q is (q - zero_point) × scale.
 *
 * The integers are an ordinary [class@Gnn.Tensor] of int8 (for `qint8`), uint8 (`quint8`) or
 * int32 (`qint32`), which [method@Gnn.QuantizedTensor.int_repr] gives; the quantization
 * parameters are one scale and zero point ([method@Gnn.QuantizedTensor.q_scale],
 * [method@Gnn.QuantizedTensor.q_zero_point]) or one of each per index along an axis
 * ([method@Gnn.QuantizedTensor.q_per_channel_scales]). A quantized tensor does not take part
 * in autograd and is immutable.
 *
 * Quantizing rounds as torch's CPU kernels do: q = zero_point + nearbyint (x × (1 / scale)),
 * the reciprocal and the product in float32 and the rounding half to even, then clamped to the
 * range of the dtype; dequantizing computes (q - zero_point) × scale in float32 per tensor and
 * with the float64 scale per channel, as torch's kernels do.
 *
 * Since: 0.1
 */
struct _GnnQuantizedTensor
{
  GObject parent_instance;

  GnnTensor *int_repr;
  GnnQDtype dtype;
  GnnQScheme qscheme;
  double scale;
  gint64 zero_point;
  GnnTensor *scales;       /* per channel: float64 (C) */
  GnnTensor *zero_points;  /* per channel: int64 (C) */
  int axis;
};

G_DEFINE_FINAL_TYPE (GnnQuantizedTensor, gnn_quantized_tensor, G_TYPE_OBJECT)

static void
gnn_quantized_tensor_dispose (GObject *object)
{
  GnnQuantizedTensor *self = GNN_QUANTIZED_TENSOR (object);

  g_clear_object (&self->int_repr);
  g_clear_object (&self->scales);
  g_clear_object (&self->zero_points);
  G_OBJECT_CLASS (gnn_quantized_tensor_parent_class)->dispose (object);
}

static void
gnn_quantized_tensor_class_init (GnnQuantizedTensorClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = gnn_quantized_tensor_dispose;
}

static void
gnn_quantized_tensor_init (GnnQuantizedTensor *self)
{
}

/**
 * gnn_qdtype_get_name:
 * @dtype: a quantized dtype
 *
 * Gets torch's name of @dtype: "qint8", "quint8" or "qint32".
 *
 * Returns: (transfer none): the name, a static string
 *
 * Since: 0.1
 */
const char *
gnn_qdtype_get_name (GnnQDtype dtype)
{
  switch (dtype)
    {
    case GNN_QDTYPE_QINT8: return "qint8";
    case GNN_QDTYPE_QUINT8: return "quint8";
    case GNN_QDTYPE_QINT32: return "qint32";
    default: return "unknown";
    }
}

/**
 * gnn_qdtype_get_range:
 * @dtype: a quantized dtype
 * @quant_min: (out) (optional): the smallest value of @dtype
 * @quant_max: (out) (optional): the largest value of @dtype
 *
 * Gets the range of the integers of @dtype: -128..127 for qint8, 0..255 for quint8,
 * -2³¹..2³¹-1 for qint32.
 *
 * Since: 0.1
 */
void
gnn_qdtype_get_range (GnnQDtype dtype,
                      gint64   *quant_min,
                      gint64   *quant_max)
{
  gint64 lo = 0, hi = 0;

  switch (dtype)
    {
    case GNN_QDTYPE_QINT8: lo = -128; hi = 127; break;
    case GNN_QDTYPE_QUINT8: lo = 0; hi = 255; break;
    case GNN_QDTYPE_QINT32: lo = G_MININT32; hi = G_MAXINT32; break;
    default: break;
    }
  if (quant_min)
    *quant_min = lo;
  if (quant_max)
    *quant_max = hi;
}

GnnDtype
gnn_qdtype_storage (GnnQDtype dtype)
{
  switch (dtype)
    {
    case GNN_QDTYPE_QUINT8: return GNN_DTYPE_UINT8;
    case GNN_QDTYPE_QINT32: return GNN_DTYPE_INT32;
    case GNN_QDTYPE_QINT8:
    default: return GNN_DTYPE_INT8;
    }
}

gboolean
gnn_quant_check_qdtype (const char *op,
                        GnnQDtype   dtype,
                        GError    **error)
{
  if ((guint) dtype > GNN_QDTYPE_QINT32)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE,
                   "%s: expected a quantized dtype (qint8, quint8 or qint32), got value %d",
                   op, (int) dtype);
      return FALSE;
    }
  return TRUE;
}

gboolean
gnn_quant_check_params (const char *op,
                        double      scale,
                        gint64      zero_point,
                        GnnQDtype   dtype,
                        GError    **error)
{
  gint64 lo, hi;

  if (!gnn_quant_check_qdtype (op, dtype, error))
    return FALSE;
  if (!(scale > 0) || !isfinite (scale) || !isfinite (1.0f / (float) scale))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "%s: expected a finite scale > 0 whose float32 reciprocal is finite, got %g",
                   op, scale);
      return FALSE;
    }
  gnn_qdtype_get_range (dtype, &lo, &hi);
  if (zero_point < lo || zero_point > hi)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "%s: expected a zero point in [%" G_GINT64_FORMAT ", %" G_GINT64_FORMAT
                   "] (the range of %s), got %" G_GINT64_FORMAT,
                   op, lo, hi, gnn_qdtype_get_name (dtype), zero_point);
      return FALSE;
    }
  return TRUE;
}

static void
store_q (gpointer out, GnnQDtype dtype, gint64 i, gint64 q)
{
  switch (dtype)
    {
    case GNN_QDTYPE_QINT8: ((gint8 *) out)[i] = (gint8) q; break;
    case GNN_QDTYPE_QUINT8: ((guint8 *) out)[i] = (guint8) q; break;
    case GNN_QDTYPE_QINT32: ((gint32 *) out)[i] = (gint32) q; break;
    default: break;
    }
}

static gint64
load_q (gconstpointer in, GnnQDtype dtype, gint64 i)
{
  switch (dtype)
    {
    case GNN_QDTYPE_QINT8: return ((const gint8 *) in)[i];
    case GNN_QDTYPE_QUINT8: return ((const guint8 *) in)[i];
    case GNN_QDTYPE_QINT32: return ((const gint32 *) in)[i];
    default: return 0;
    }
}

gint64
gnn_quant_quantize_value (float  value,
                          float  inv_scale,
                          gint64 zero_point,
                          gint64 qmin,
                          gint64 qmax)
{
  float r = nearbyintf (value * inv_scale);
  gint64 q;

  /* torch converts to int64 first; a value out of int64's range saturates here instead */
  if (isnan (r))
    q = G_MININT64;
  else if (r >= 9.2e18f)
    q = G_MAXINT64;
  else if (r <= -9.2e18f)
    q = G_MININT64;
  else
    q = (gint64) r;
  if (q > G_MININT64 && q < G_MAXINT64)
    q += zero_point;
  return CLAMP (q, qmin, qmax);
}

static gboolean
check_float_input (const char *op,
                   GnnTensor  *input,
                   GError    **error)
{
  if (gnn_tensor_get_dtype (input) != GNN_DTYPE_FLOAT32)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE,
                   "%s: expected a float32 tensor to quantize, got %s", op,
                   gnn_dtype_get_name (gnn_tensor_get_dtype (input)));
      return FALSE;
    }
  return TRUE;
}

static GnnTensor *
new_int_tensor (GnnTensor *like,
                gpointer   data,
                GnnQDtype  dtype,
                GError   **error)
{
  GnnDtype storage = gnn_qdtype_storage (dtype);
  guint ndim;
  const gint64 *shape = gnn_tensor_get_shape (like, &ndim);
  gint64 numel = gnn_tensor_get_numel (like);
  g_autoptr(GBytes) bytes = g_bytes_new_take (data, (gsize) numel * gnn_dtype_get_size (storage));

  return gnn_tensor_new_from_bytes (bytes, storage, shape, ndim, gnn_tensor_get_device (like), error);
}

/**
 * gnn_quantize_per_tensor:
 * @input: a float32 tensor
 * @scale: the step between two quantized values, finite and > 0
 * @zero_point: the integer that stands for 0.0, in the range of @dtype
 * @dtype: the quantized dtype
 * @error: return location for a #GError
 *
 * Quantizes @input with one scale and zero point, as `torch.quantize_per_tensor (input,
 * scale, zero_point, dtype)`: q = clamp (zero_point + nearbyint (x × (1 / scale)), qmin,
 * qmax), computed in float32 and rounded half to even as torch's CPU kernel rounds.
 *
 * torch accepts a scale of 0 or NaN and fills the result with the dtype's minimum; gnn refuses
 * them.
 *
 * Returns: (transfer full): the quantized tensor, or %NULL with @error set: @input is not
 *   float32 (%GNN_ERROR_DTYPE), @dtype is not a quantized dtype, @scale is not finite and
 *   positive or @zero_point is out of the range of @dtype (%GNN_ERROR_INVALID_ARGUMENT)
 *
 * Since: 0.1
 */
GnnQuantizedTensor *
gnn_quantize_per_tensor (GnnTensor  *input,
                         double      scale,
                         gint64      zero_point,
                         GnnQDtype   dtype,
                         GError    **error)
{
  g_autofree float *x = NULL;
  g_autoptr(GnnTensor) ints = NULL;
  gsize n = 0;
  gint64 qmin, qmax;
  float inv_scale;
  gpointer out;

  g_return_val_if_fail (GNN_IS_TENSOR (input), NULL);
  if (!gnn_quant_check_params ("quantize_per_tensor", scale, zero_point, dtype, error)
      || !check_float_input ("quantize_per_tensor", input, error))
    return NULL;
  x = gnn_tensor_to_floats (input, &n, error);
  if (x == NULL && n > 0)
    return NULL;
  gnn_qdtype_get_range (dtype, &qmin, &qmax);
  inv_scale = 1.0f / (float) scale;
  out = g_malloc (MAX (n, 1) * gnn_dtype_get_size (gnn_qdtype_storage (dtype)));
  for (gsize i = 0; i < n; i++)
    store_q (out, dtype, (gint64) i, gnn_quant_quantize_value (x[i], inv_scale, zero_point, qmin, qmax));
  ints = new_int_tensor (input, out, dtype, error);
  if (ints == NULL)
    return NULL;
  return gnn_quantized_tensor_new_per_tensor (ints, scale, zero_point, dtype, error);
}

/* Refuses @int_repr unless it is stored in @dtype's storage dtype. */
static gboolean
check_storage (GnnTensor  *int_repr,
               GnnQDtype   dtype,
               GError    **error)
{
  if (gnn_tensor_get_dtype (int_repr) != gnn_qdtype_storage (dtype))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE,
                   "quantized tensor: %s values are stored as %s, got a %s tensor",
                   gnn_qdtype_get_name (dtype), gnn_dtype_get_name (gnn_qdtype_storage (dtype)),
                   gnn_dtype_get_name (gnn_tensor_get_dtype (int_repr)));
      return FALSE;
    }
  return TRUE;
}

/**
 * gnn_quantized_tensor_new_per_tensor:
 * @int_repr: the integers: an int8 tensor for qint8, uint8 for quint8, int32 for qint32
 * @scale: the scale, finite and > 0
 * @zero_point: the zero point, in the range of @dtype
 * @dtype: the quantized dtype
 * @error: return location for a #GError
 *
 * Makes a per-tensor quantized tensor of integers already quantized, as
 * `torch._make_per_tensor_quantized_tensor (int_repr, scale, zero_point)`. The tensor keeps a
 * contiguous copy of @int_repr (or @int_repr itself when it is contiguous).
 *
 * Returns: (transfer full): the quantized tensor, or %NULL with @error set when @int_repr's
 *   dtype does not store @dtype or a parameter is out of range
 *
 * Since: 0.1
 */
GnnQuantizedTensor *
gnn_quantized_tensor_new_per_tensor (GnnTensor  *int_repr,
                                     double      scale,
                                     gint64      zero_point,
                                     GnnQDtype   dtype,
                                     GError    **error)
{
  GnnQuantizedTensor *self;
  GnnTensor *ints;

  g_return_val_if_fail (GNN_IS_TENSOR (int_repr), NULL);
  if (!gnn_quant_check_params ("quantized tensor", scale, zero_point, dtype, error))
    return NULL;
  if (!check_storage (int_repr, dtype, error))
    return NULL;
  ints = gnn_tensor_contiguous_as (int_repr, gnn_tensor_get_dtype (int_repr), error);
  if (ints == NULL)
    return NULL;
  self = g_object_new (GNN_TYPE_QUANTIZED_TENSOR, NULL);
  self->int_repr = ints;
  self->dtype = dtype;
  self->qscheme = GNN_QSCHEME_PER_TENSOR_AFFINE;
  self->scale = scale;
  self->zero_point = zero_point;
  return self;
}

/* Checks per-channel @scales and @zero_points (one-dimensional of @channels, integer zero
 * points, each pair valid for @dtype) and reads them into *@s_out and *@z_out (owned by the
 * caller, set even on failure). Errors are prefixed with @who. */
static gboolean
read_channel_params (const char  *who,
                     GnnTensor   *scales,
                     GnnTensor   *zero_points,
                     gint64       channels,
                     guint        dim,
                     GnnQDtype    dtype,
                     double     **s_out,
                     gint64     **z_out,
                     GError     **error)
{
  gsize ns = 0, nz = 0;

  if (gnn_tensor_get_ndim (scales) != 1 || gnn_tensor_get_numel (scales) != channels
      || gnn_tensor_get_ndim (zero_points) != 1 || gnn_tensor_get_numel (zero_points) != channels)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "%s: expected %" G_GINT64_FORMAT " scales and zero points (the size of "
                   "dimension %u), got %" G_GINT64_FORMAT " and %" G_GINT64_FORMAT, who,
                   channels, dim, gnn_tensor_get_numel (scales), gnn_tensor_get_numel (zero_points));
      return FALSE;
    }
  if (gnn_dtype_is_floating (gnn_tensor_get_dtype (zero_points)))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE, "%s: expected integer zero points, got %s",
                   who, gnn_dtype_get_name (gnn_tensor_get_dtype (zero_points)));
      return FALSE;
    }
  *s_out = gnn_tensor_to_doubles (scales, &ns, error);
  if (*s_out == NULL && channels > 0)
    return FALSE;
  *z_out = gnn_tensor_to_int64s (zero_points, &nz, error);
  if (*z_out == NULL && channels > 0)
    return FALSE;
  for (gint64 c = 0; c < channels; c++)
    if (!gnn_quant_check_params (who, (*s_out)[c], (*z_out)[c], dtype, error))
      {
        g_prefix_error (error, "channel %" G_GINT64_FORMAT ": ", c);
        return FALSE;
      }
  return TRUE;
}

/**
 * gnn_quantized_tensor_new_per_channel:
 * @int_repr: the integers: an int8 tensor for qint8, uint8 for quint8, int32 for qint32
 * @scales: one scale per index of @int_repr along @axis, each finite and > 0
 * @zero_points: one integer zero point per index along @axis, each in the range of @dtype
 * @axis: the channel dimension of @int_repr (negative counts from the end)
 * @dtype: the quantized dtype
 * @error: return location for a #GError
 *
 * Makes a per-channel quantized tensor of integers already quantized, as
 * `torch._make_per_channel_quantized_tensor (int_repr, scales, zero_points, axis)`. The
 * parameters are kept as float64 scales and int64 zero points.
 *
 * Returns: (transfer full): the quantized tensor, or %NULL with @error set: @int_repr's dtype
 *   does not store @dtype (%GNN_ERROR_DTYPE), @axis is out of range or the parameters are not
 *   one-dimensional of the channel count (%GNN_ERROR_SHAPE), or a parameter is out of range
 *
 * Since: 0.1
 */
GnnQuantizedTensor *
gnn_quantized_tensor_new_per_channel (GnnTensor  *int_repr,
                                      GnnTensor  *scales,
                                      GnnTensor  *zero_points,
                                      int         axis,
                                      GnnQDtype   dtype,
                                      GError    **error)
{
  g_autofree double *s = NULL;
  g_autofree gint64 *z = NULL;
  g_autoptr(GnnTensor) ints = NULL;
  GnnQuantizedTensor *self;
  const gint64 *shape;
  gint64 channels;
  guint ndim, dim;

  g_return_val_if_fail (GNN_IS_TENSOR (int_repr), NULL);
  g_return_val_if_fail (GNN_IS_TENSOR (scales), NULL);
  g_return_val_if_fail (GNN_IS_TENSOR (zero_points), NULL);
  if (!gnn_quant_check_qdtype ("quantized tensor", dtype, error))
    return NULL;
  if (!check_storage (int_repr, dtype, error))
    return NULL;
  shape = gnn_tensor_get_shape (int_repr, &ndim);
  if (ndim == 0 || !gnn_normalize_dim (axis, ndim, &dim, error))
    {
      if (ndim == 0)
        g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                     "quantized tensor: expected integers with at least one dimension for per-channel "
                     "parameters, got a scalar");
      else
        g_prefix_error (error, "quantized tensor: ");
      return NULL;
    }
  channels = shape[dim];
  if (!read_channel_params ("quantized tensor", scales, zero_points, channels, dim, dtype,
                            &s, &z, error))
    return NULL;
  ints = gnn_tensor_contiguous_as (int_repr, gnn_tensor_get_dtype (int_repr), error);
  if (ints == NULL)
    return NULL;
  self = g_object_new (GNN_TYPE_QUANTIZED_TENSOR, NULL);
  self->int_repr = g_steal_pointer (&ints);
  self->dtype = dtype;
  self->qscheme = GNN_QSCHEME_PER_CHANNEL_AFFINE;
  self->scales = gnn_tensor_new_from_doubles (s, channels, &channels, 1, NULL);
  self->zero_points = gnn_tensor_new_from_int64s (z, channels, &channels, 1, NULL);
  self->axis = (int) dim;
  return self;
}

/**
 * gnn_quantize_per_channel:
 * @input: a float32 tensor
 * @scales: one scale per index of @input along @axis, each finite and > 0
 * @zero_points: one zero point per index along @axis, each in the range of @dtype
 * @axis: the channel dimension of @input (negative counts from the end)
 * @dtype: the quantized dtype
 * @error: return location for a #GError
 *
 * Quantizes @input with a scale and zero point per channel, as `torch.quantize_per_channel
 * (input, scales, zero_points, axis, dtype)`, each element rounded as in
 * [func@Gnn.quantize_per_tensor] with its channel's parameters. The parameters are kept as
 * float64 scales and int64 zero points, the dtypes torch gives back.
 *
 * Returns: (transfer full): the quantized tensor, or %NULL with @error set: @axis out of range,
 *   @scales or @zero_points not one-dimensional of the channel count (%GNN_ERROR_SHAPE), or a
 *   parameter or dtype refused as by [func@Gnn.quantize_per_tensor]
 *
 * Since: 0.1
 */
GnnQuantizedTensor *
gnn_quantize_per_channel (GnnTensor  *input,
                          GnnTensor  *scales,
                          GnnTensor  *zero_points,
                          int         axis,
                          GnnQDtype   dtype,
                          GError    **error)
{
  g_autofree float *x = NULL;
  g_autofree double *s = NULL;
  g_autofree gint64 *z = NULL;
  g_autofree float *inv = NULL;
  g_autoptr(GnnTensor) ints = NULL;
  g_autoptr(GnnTensor) st = NULL;
  g_autoptr(GnnTensor) zt = NULL;
  GnnQuantizedTensor *self;
  const gint64 *shape;
  gint64 channels, inner = 1, qmin, qmax;
  gsize n = 0;
  guint ndim, dim;
  gpointer out;

  g_return_val_if_fail (GNN_IS_TENSOR (input), NULL);
  g_return_val_if_fail (GNN_IS_TENSOR (scales), NULL);
  g_return_val_if_fail (GNN_IS_TENSOR (zero_points), NULL);
  if (!gnn_quant_check_qdtype ("quantize_per_channel", dtype, error)
      || !check_float_input ("quantize_per_channel", input, error))
    return NULL;
  shape = gnn_tensor_get_shape (input, &ndim);
  if (ndim == 0 || !gnn_normalize_dim (axis, ndim, &dim, error))
    {
      if (ndim == 0)
        g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                     "quantize_per_channel: expected a tensor with at least one dimension, got a scalar");
      else
        g_prefix_error (error, "quantize_per_channel: ");
      return NULL;
    }
  channels = shape[dim];
  for (guint d = dim + 1; d < ndim; d++)
    inner *= shape[d];
  if (!read_channel_params ("quantize_per_channel", scales, zero_points, channels, dim, dtype,
                            &s, &z, error))
    return NULL;
  inv = g_new (float, MAX (channels, 1));
  for (gint64 c = 0; c < channels; c++)
    inv[c] = 1.0f / (float) s[c];
  x = gnn_tensor_to_floats (input, &n, error);
  if (x == NULL && n > 0)
    return NULL;
  gnn_qdtype_get_range (dtype, &qmin, &qmax);
  out = g_malloc (MAX (n, 1) * gnn_dtype_get_size (gnn_qdtype_storage (dtype)));
  for (gsize i = 0; i < n; i++)
    {
      gint64 c = ((gint64) i / inner) % channels;
      store_q (out, dtype, (gint64) i, gnn_quant_quantize_value (x[i], inv[c], z[c], qmin, qmax));
    }
  ints = new_int_tensor (input, out, dtype, error);
  if (ints == NULL)
    return NULL;
  st = gnn_tensor_new_from_doubles (s, channels, &channels, 1, error);
  if (st == NULL)
    return NULL;
  zt = gnn_tensor_new_from_int64s (z, channels, &channels, 1, error);
  if (zt == NULL)
    return NULL;
  self = g_object_new (GNN_TYPE_QUANTIZED_TENSOR, NULL);
  self->int_repr = g_steal_pointer (&ints);
  self->dtype = dtype;
  self->qscheme = GNN_QSCHEME_PER_CHANNEL_AFFINE;
  self->scales = g_steal_pointer (&st);
  self->zero_points = g_steal_pointer (&zt);
  self->axis = (int) dim;
  return self;
}

/**
 * gnn_quantized_tensor_dequantize:
 * @self: a quantized tensor
 * @error: return location for a #GError
 *
 * The real values, as `Tensor.dequantize ()`: a new float32 tensor of (q - zero_point) ×
 * scale, computed in float32 as torch computes it.
 *
 * Returns: (transfer full): the float32 tensor, or %NULL with @error set (no memory)
 *
 * Since: 0.1
 */
GnnTensor *
gnn_quantized_tensor_dequantize (GnnQuantizedTensor *self,
                                 GError            **error)
{
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GBytes) outb = NULL;
  g_autofree double *s = NULL;
  g_autofree gint64 *z = NULL;
  gconstpointer in;
  const gint64 *shape;
  gint64 numel, inner = 1, channels = 1;
  guint ndim;
  float *out;

  g_return_val_if_fail (GNN_IS_QUANTIZED_TENSOR (self), NULL);
  bytes = gnn_tensor_get_bytes (self->int_repr, error);
  if (bytes == NULL)
    return NULL;
  in = g_bytes_get_data (bytes, NULL);
  shape = gnn_tensor_get_shape (self->int_repr, &ndim);
  numel = gnn_tensor_get_numel (self->int_repr);
  out = g_new (float, MAX (numel, 1));
  if (self->qscheme == GNN_QSCHEME_PER_CHANNEL_AFFINE)
    {
      gsize n;

      s = gnn_tensor_to_doubles (self->scales, &n, error);
      z = gnn_tensor_to_int64s (self->zero_points, &n, error);
      channels = shape[self->axis];
      for (guint d = self->axis + 1; d < ndim; d++)
        inner *= shape[d];
      for (gint64 i = 0; i < numel; i++)
        {
          gint64 c = (i / inner) % channels;
          /* torch's per-channel kernel multiplies by the float64 scale */
          out[i] = (float) ((double) (load_q (in, self->dtype, i) - z[c]) * s[c]);
        }
    }
  else
    {
      float scale = (float) self->scale;

      for (gint64 i = 0; i < numel; i++)
        out[i] = (float) (load_q (in, self->dtype, i) - self->zero_point) * scale;
    }
  outb = g_bytes_new_take (out, (gsize) MAX (numel, 1) * sizeof (float));
  return gnn_tensor_new_from_bytes (outb, GNN_DTYPE_FLOAT32, shape, ndim,
                                    gnn_tensor_get_device (self->int_repr), error);
}

/**
 * gnn_quantized_tensor_int_repr:
 * @self: a quantized tensor
 *
 * The integers, as `Tensor.int_repr ()`: an int8 tensor for qint8, uint8 for quint8, int32 for
 * qint32. The tensor is shared: writing to it is writing to @self.
 *
 * Returns: (transfer full): the integers
 *
 * Since: 0.1
 */
GnnTensor *
gnn_quantized_tensor_int_repr (GnnQuantizedTensor *self)
{
  g_return_val_if_fail (GNN_IS_QUANTIZED_TENSOR (self), NULL);
  return g_object_ref (self->int_repr);
}

/**
 * gnn_quantized_tensor_get_dtype:
 * @self: a quantized tensor
 *
 * The quantized dtype (`Tensor.dtype`: `torch.qint8`, ...).
 *
 * Returns: the dtype
 *
 * Since: 0.1
 */
GnnQDtype
gnn_quantized_tensor_get_dtype (GnnQuantizedTensor *self)
{
  g_return_val_if_fail (GNN_IS_QUANTIZED_TENSOR (self), GNN_QDTYPE_QINT8);
  return self->dtype;
}

/**
 * gnn_quantized_tensor_get_qscheme:
 * @self: a quantized tensor
 *
 * The scheme of the parameters (`Tensor.qscheme ()`): per-tensor or per-channel affine.
 *
 * Returns: the scheme
 *
 * Since: 0.1
 */
GnnQScheme
gnn_quantized_tensor_get_qscheme (GnnQuantizedTensor *self)
{
  g_return_val_if_fail (GNN_IS_QUANTIZED_TENSOR (self), GNN_QSCHEME_PER_TENSOR_AFFINE);
  return self->qscheme;
}

static gboolean
check_scheme (GnnQuantizedTensor *self,
              GnnQScheme          scheme,
              const char         *what,
              GError            **error)
{
  if (self->qscheme == scheme)
    return TRUE;
  g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
               "%s: expected a %s quantized tensor, got a %s one", what,
               scheme == GNN_QSCHEME_PER_TENSOR_AFFINE ? "per-tensor" : "per-channel",
               self->qscheme == GNN_QSCHEME_PER_TENSOR_AFFINE ? "per-tensor" : "per-channel");
  return FALSE;
}

/**
 * gnn_quantized_tensor_q_scale:
 * @self: a per-tensor quantized tensor
 * @error: return location for a #GError
 *
 * The scale (`Tensor.q_scale ()`).
 *
 * Returns: the scale, or 0 with @error set when @self is quantized per channel
 *
 * Since: 0.1
 */
double
gnn_quantized_tensor_q_scale (GnnQuantizedTensor *self,
                              GError            **error)
{
  g_return_val_if_fail (GNN_IS_QUANTIZED_TENSOR (self), 0);
  if (!check_scheme (self, GNN_QSCHEME_PER_TENSOR_AFFINE, "q_scale", error))
    return 0;
  return self->scale;
}

/**
 * gnn_quantized_tensor_q_zero_point:
 * @self: a per-tensor quantized tensor
 * @error: return location for a #GError
 *
 * The zero point (`Tensor.q_zero_point ()`).
 *
 * Returns: the zero point, or 0 with @error set when @self is quantized per channel
 *
 * Since: 0.1
 */
gint64
gnn_quantized_tensor_q_zero_point (GnnQuantizedTensor *self,
                                   GError            **error)
{
  g_return_val_if_fail (GNN_IS_QUANTIZED_TENSOR (self), 0);
  if (!check_scheme (self, GNN_QSCHEME_PER_TENSOR_AFFINE, "q_zero_point", error))
    return 0;
  return self->zero_point;
}

/**
 * gnn_quantized_tensor_q_per_channel_scales:
 * @self: a per-channel quantized tensor
 * @error: return location for a #GError
 *
 * The scales, a float64 tensor (`Tensor.q_per_channel_scales ()`).
 *
 * Returns: (transfer full): the scales, or %NULL with @error set when @self is quantized per
 *   tensor
 *
 * Since: 0.1
 */
GnnTensor *
gnn_quantized_tensor_q_per_channel_scales (GnnQuantizedTensor *self,
                                           GError            **error)
{
  g_return_val_if_fail (GNN_IS_QUANTIZED_TENSOR (self), NULL);
  if (!check_scheme (self, GNN_QSCHEME_PER_CHANNEL_AFFINE, "q_per_channel_scales", error))
    return NULL;
  return g_object_ref (self->scales);
}

/**
 * gnn_quantized_tensor_q_per_channel_zero_points:
 * @self: a per-channel quantized tensor
 * @error: return location for a #GError
 *
 * The zero points, an int64 tensor (`Tensor.q_per_channel_zero_points ()`).
 *
 * Returns: (transfer full): the zero points, or %NULL with @error set when @self is quantized
 *   per tensor
 *
 * Since: 0.1
 */
GnnTensor *
gnn_quantized_tensor_q_per_channel_zero_points (GnnQuantizedTensor *self,
                                                GError            **error)
{
  g_return_val_if_fail (GNN_IS_QUANTIZED_TENSOR (self), NULL);
  if (!check_scheme (self, GNN_QSCHEME_PER_CHANNEL_AFFINE, "q_per_channel_zero_points", error))
    return NULL;
  return g_object_ref (self->zero_points);
}

/**
 * gnn_quantized_tensor_q_per_channel_axis:
 * @self: a per-channel quantized tensor
 * @error: return location for a #GError
 *
 * The channel dimension (`Tensor.q_per_channel_axis ()`), never negative.
 *
 * Returns: the axis, or -1 with @error set when @self is quantized per tensor
 *
 * Since: 0.1
 */
int
gnn_quantized_tensor_q_per_channel_axis (GnnQuantizedTensor *self,
                                         GError            **error)
{
  g_return_val_if_fail (GNN_IS_QUANTIZED_TENSOR (self), -1);
  if (!check_scheme (self, GNN_QSCHEME_PER_CHANNEL_AFFINE, "q_per_channel_axis", error))
    return -1;
  return self->axis;
}
