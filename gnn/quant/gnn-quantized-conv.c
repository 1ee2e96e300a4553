/* gnn-quantized-conv.c: gnn_quantized_conv2d ()
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <math.h>

#include "core/gnn-tensor-private.h"
#include "gnn-quantized-conv.h"
#include "gnn-quant-private.h"

/**
 * gnn_quantized_conv2d:
 * @input: a quint8 per-tensor quantized input of shape (N, C, H, W)
 * @weight: a qint8 weight of shape (OC, C / @groups, KH, KW), per tensor or per channel along
 *   axis 0
 * @bias: (nullable): a float32 bias of OC values
 * @stride: (array fixed-size=2): the strides
 * @padding: (array fixed-size=2): the zero padding (the input's zero point in the integers)
 * @dilation: (array fixed-size=2): the dilations
 * @groups: the number of groups
 * @output_scale: the output's scale, finite and > 0
 * @output_zero_point: the output's zero point, in 0..255
 * @relu: whether to clamp the output at its zero point (a fused ReLU)
 * @error: return location for a #GError
 *
 * The statically quantized convolution, as `torch.ops.quantized.conv2d` (and `conv2d_relu`):
 * the int32 accumulation of (x_q - x_zp)(w_q - w_zp) over each window, then, as
 * [method@Gnn.LinearPackedParams.apply], y_q = nearbyint ((acc × float32 (x_scale × w_scale)
 * + bias) × (1 / output_scale)) + output_zero_point in float32, clamped to 0..255.
 *
 * Returns: (transfer full): the quint8 output (N, OC, OH, OW), or %NULL with @error set: a
 *   dtype, scheme or shape that does not fit (named), or a bad output scale or zero point
 *
 * Since: 0.1
 */
GnnQuantizedTensor *
gnn_quantized_conv2d (GnnQuantizedTensor *input,
                      GnnQuantizedTensor *weight,
                      GnnTensor          *bias,
                      const int          *stride,
                      const int          *padding,
                      const int          *dilation,
                      int                 groups,
                      double              output_scale,
                      gint64              output_zero_point,
                      gboolean            relu,
                      GError            **error)
{
  g_autoptr(GnnTensor) xint = NULL;
  g_autoptr(GnnTensor) wint = NULL;
  g_autoptr(GnnTensor) ws = NULL;
  g_autoptr(GnnTensor) wz = NULL;
  g_autoptr(GBytes) xb = NULL;
  g_autoptr(GBytes) wb = NULL;
  g_autoptr(GBytes) yb = NULL;
  g_autoptr(GnnTensor) yint = NULL;
  g_autofree double *wscale = NULL;
  g_autofree gint64 *wzp = NULL;
  g_autofree float *b = NULL;
  const gint64 *xs, *wsh;
  gint64 N, C, H, W, OC, CG, KH, KW, OH, OW, xzp, lo, oshape[4];
  guint xnd, wnd;
  gsize n;
  double xscale;
  float inv;
  const guint8 *x;
  const gint8 *w;
  guint8 *y;
  gboolean per_channel;

  g_return_val_if_fail (GNN_IS_QUANTIZED_TENSOR (input), NULL);
  g_return_val_if_fail (GNN_IS_QUANTIZED_TENSOR (weight), NULL);
  g_return_val_if_fail (stride && padding && dilation, NULL);
  if (!gnn_quant_check_params ("quantized conv2d", output_scale, output_zero_point, GNN_QDTYPE_QUINT8, error))
    return NULL;
  if (gnn_quantized_tensor_get_dtype (input) != GNN_QDTYPE_QUINT8
      || gnn_quantized_tensor_get_qscheme (input) != GNN_QSCHEME_PER_TENSOR_AFFINE
      || gnn_quantized_tensor_get_dtype (weight) != GNN_QDTYPE_QINT8)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE,
                   "quantized conv2d: expected a quint8 per-tensor input and a qint8 weight, got %s and %s",
                   gnn_qdtype_get_name (gnn_quantized_tensor_get_dtype (input)),
                   gnn_qdtype_get_name (gnn_quantized_tensor_get_dtype (weight)));
      return NULL;
    }
  xint = gnn_quantized_tensor_int_repr (input);
  wint = gnn_quantized_tensor_int_repr (weight);
  xs = gnn_tensor_get_shape (xint, &xnd);
  wsh = gnn_tensor_get_shape (wint, &wnd);
  if (xnd != 4 || wnd != 4 || groups < 1 || wsh[0] % groups != 0 || xs[1] != wsh[1] * groups
      || stride[0] < 1 || stride[1] < 1 || dilation[0] < 1 || dilation[1] < 1 || padding[0] < 0 || padding[1] < 0)
    {
      g_autofree char *a = gnn_shape_to_string (xnd, xs);
      g_autofree char *c = gnn_shape_to_string (wnd, wsh);
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "quantized conv2d: expected an input (N, C, H, W) and a weight (OC, C / groups, KH, KW) "
                   "with positive strides and dilations, got input %s, weight %s, groups %d", a, c, groups);
      return NULL;
    }
  N = xs[0]; C = xs[1]; H = xs[2]; W = xs[3];
  OC = wsh[0]; CG = wsh[1]; KH = wsh[2]; KW = wsh[3];
  OH = (H + 2 * padding[0] - dilation[0] * (KH - 1) - 1) / stride[0] + 1;
  OW = (W + 2 * padding[1] - dilation[1] * (KW - 1) - 1) / stride[1] + 1;
  if (OH < 1 || OW < 1)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "quantized conv2d: the kernel (%" G_GINT64_FORMAT " x %" G_GINT64_FORMAT ") does not fit "
                   "the padded input (%" G_GINT64_FORMAT " x %" G_GINT64_FORMAT ")", KH, KW, H, W);
      return NULL;
    }
  if (bias && gnn_tensor_get_numel (bias) != OC)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "quantized conv2d: expected a bias of %" G_GINT64_FORMAT " values, got %" G_GINT64_FORMAT,
                   OC, gnn_tensor_get_numel (bias));
      return NULL;
    }
  per_channel = gnn_quantized_tensor_get_qscheme (weight) == GNN_QSCHEME_PER_CHANNEL_AFFINE;
  if (per_channel && gnn_quantized_tensor_q_per_channel_axis (weight, NULL) != 0)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "quantized conv2d: expected a weight quantized per channel along axis 0, got axis %d",
                   gnn_quantized_tensor_q_per_channel_axis (weight, NULL));
      return NULL;
    }
  if (per_channel)
    {
      ws = gnn_quantized_tensor_q_per_channel_scales (weight, error);
      wz = ws ? gnn_quantized_tensor_q_per_channel_zero_points (weight, error) : NULL;
      if (wz == NULL)
        return NULL;
      wscale = gnn_tensor_to_doubles (ws, &n, error);
      wzp = wscale ? gnn_tensor_to_int64s (wz, &n, error) : NULL;
      if (wzp == NULL)
        return NULL;
    }
  else
    {
      wscale = g_new (double, 1);
      wzp = g_new (gint64, 1);
      wscale[0] = gnn_quantized_tensor_q_scale (weight, NULL);
      wzp[0] = gnn_quantized_tensor_q_zero_point (weight, NULL);
    }
  if (bias)
    {
      b = gnn_tensor_to_floats (bias, &n, error);
      if (b == NULL)
        return NULL;
    }
  xb = gnn_tensor_get_bytes (xint, error);
  wb = xb ? gnn_tensor_get_bytes (wint, error) : NULL;
  if (wb == NULL)
    return NULL;
  x = g_bytes_get_data (xb, NULL);
  w = g_bytes_get_data (wb, NULL);
  xscale = gnn_quantized_tensor_q_scale (input, NULL);
  xzp = gnn_quantized_tensor_q_zero_point (input, NULL);
  inv = 1.0f / (float) output_scale;
  lo = relu ? output_zero_point : 0;
  y = g_new (guint8, MAX (N * OC * OH * OW, 1));
  /* y (N, OC, OH, OW); a padded position contributes x_zp, that is 0 after subtracting it */
  for (gint64 nn = 0; nn < N; nn++)
    for (gint64 oc = 0; oc < OC; oc++)
      {
        gint64 g = oc / (OC / groups), c0 = g * CG, pc = per_channel ? oc : 0;
        float s = (float) (xscale * wscale[pc]);
        gint32 wz0 = (gint32) wzp[pc];

        for (gint64 oh = 0; oh < OH; oh++)
          for (gint64 ow = 0; ow < OW; ow++)
            {
              gint32 acc = 0;
              float v;

              for (gint64 c = 0; c < CG; c++)
                for (gint64 kh = 0; kh < KH; kh++)
                  {
                    gint64 ih = oh * stride[0] - padding[0] + kh * dilation[0];

                    if (ih < 0 || ih >= H)
                      continue;
                    for (gint64 kw = 0; kw < KW; kw++)
                      {
                        gint64 iw = ow * stride[1] - padding[1] + kw * dilation[1];
                        gint32 xv, wv;

                        if (iw < 0 || iw >= W)
                          continue;
                        xv = (gint32) x[((nn * C + c0 + c) * H + ih) * W + iw] - (gint32) xzp;
                        wv = (gint32) w[((oc * CG + c) * KH + kh) * KW + kw] - wz0;
                        acc += xv * wv;
                      }
                  }
              v = (float) acc * s + (b ? b[oc] : 0.f);
              y[((nn * OC + oc) * OH + oh) * OW + ow] =
                (guint8) gnn_quant_quantize_value (v, inv, output_zero_point, lo, 255);
            }
      }
  oshape[0] = N; oshape[1] = OC; oshape[2] = OH; oshape[3] = OW;
  yb = g_bytes_new_take (y, (gsize) MAX (N * OC * OH * OW, 1));
  yint = gnn_tensor_new_from_bytes (yb, GNN_DTYPE_UINT8, oshape, 4, gnn_tensor_get_device (xint), error);
  if (yint == NULL)
    return NULL;
  return gnn_quantized_tensor_new_per_tensor (yint, output_scale, output_zero_point, GNN_QDTYPE_QUINT8, error);
}
