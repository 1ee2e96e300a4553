/* gnn-quantized-tensor.h: affine-quantized tensors, as torch's quantized tensors
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined (GNN_INSIDE) && !defined (GNN_COMPILATION)
#error "Only <gnn/gnn.h> can be included directly."
#endif

#include <glib-object.h>
#include "../gnn-version-macros.h"
#include "../core/gnn-tensor.h"

G_BEGIN_DECLS

/**
 * GnnQDtype:
 * @GNN_QDTYPE_QINT8: signed 8-bit quantized values (`torch.qint8`), stored as int8, -128..127
 * @GNN_QDTYPE_QUINT8: unsigned 8-bit quantized values (`torch.quint8`), stored as uint8, 0..255
 * @GNN_QDTYPE_QINT32: signed 32-bit quantized values (`torch.qint32`, for biases), stored as
 *   int32
 *
 * The element type of a [class@Gnn.QuantizedTensor]. Values are only ever added.
 *
 * Since: 0.1
 */
typedef enum {
  GNN_QDTYPE_QINT8,
  GNN_QDTYPE_QUINT8,
  GNN_QDTYPE_QINT32,
} GnnQDtype;

/**
 * GnnQScheme:
 * @GNN_QSCHEME_PER_TENSOR_AFFINE: one scale and zero point for the whole tensor
 *   (`torch.per_tensor_affine`)
 * @GNN_QSCHEME_PER_CHANNEL_AFFINE: a scale and zero point for each index along one axis
 *   (`torch.per_channel_affine`)
 * @GNN_QSCHEME_PER_TENSOR_SYMMETRIC: per tensor, with the range symmetric around zero
 *   (`torch.per_tensor_symmetric`, an observer's scheme)
 * @GNN_QSCHEME_PER_CHANNEL_SYMMETRIC: per channel, symmetric (`torch.per_channel_symmetric`)
 *
 * How the quantization parameters map integers to real numbers, in torch's order.
 *
 * Since: 0.1
 */
typedef enum {
  GNN_QSCHEME_PER_TENSOR_AFFINE,
  GNN_QSCHEME_PER_CHANNEL_AFFINE,
  GNN_QSCHEME_PER_TENSOR_SYMMETRIC,
  GNN_QSCHEME_PER_CHANNEL_SYMMETRIC,
} GnnQScheme;

#define GNN_TYPE_QUANTIZED_TENSOR (gnn_quantized_tensor_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnQuantizedTensor, gnn_quantized_tensor, GNN, QUANTIZED_TENSOR, GObject)

GNN_AVAILABLE_IN_ALL
const char         *gnn_qdtype_get_name                  (GnnQDtype  dtype);
GNN_AVAILABLE_IN_ALL
void                gnn_qdtype_get_range                 (GnnQDtype  dtype,
                                                          gint64    *quant_min,
                                                          gint64    *quant_max);

GNN_AVAILABLE_IN_ALL
GnnQuantizedTensor *gnn_quantize_per_tensor              (GnnTensor  *input,
                                                          double      scale,
                                                          gint64      zero_point,
                                                          GnnQDtype   dtype,
                                                          GError    **error);
GNN_AVAILABLE_IN_ALL
GnnQuantizedTensor *gnn_quantize_per_channel             (GnnTensor  *input,
                                                          GnnTensor  *scales,
                                                          GnnTensor  *zero_points,
                                                          int         axis,
                                                          GnnQDtype   dtype,
                                                          GError    **error);
GNN_AVAILABLE_IN_ALL
GnnQuantizedTensor *gnn_quantized_tensor_new_per_tensor  (GnnTensor  *int_repr,
                                                          double      scale,
                                                          gint64      zero_point,
                                                          GnnQDtype   dtype,
                                                          GError    **error);

GNN_AVAILABLE_IN_ALL
GnnQuantizedTensor *gnn_quantized_tensor_new_per_channel (GnnTensor  *int_repr,
                                                          GnnTensor  *scales,
                                                          GnnTensor  *zero_points,
                                                          int         axis,
                                                          GnnQDtype   dtype,
                                                          GError    **error);

GNN_AVAILABLE_IN_ALL
GnnTensor          *gnn_quantized_tensor_dequantize      (GnnQuantizedTensor *self,
                                                          GError            **error);
GNN_AVAILABLE_IN_ALL
GnnTensor          *gnn_quantized_tensor_int_repr        (GnnQuantizedTensor *self);
GNN_AVAILABLE_IN_ALL
GnnQDtype           gnn_quantized_tensor_get_dtype       (GnnQuantizedTensor *self);
GNN_AVAILABLE_IN_ALL
GnnQScheme          gnn_quantized_tensor_get_qscheme     (GnnQuantizedTensor *self);
GNN_AVAILABLE_IN_ALL
double              gnn_quantized_tensor_q_scale         (GnnQuantizedTensor *self,
                                                          GError            **error);
GNN_AVAILABLE_IN_ALL
gint64              gnn_quantized_tensor_q_zero_point    (GnnQuantizedTensor *self,
                                                          GError            **error);
GNN_AVAILABLE_IN_ALL
GnnTensor          *gnn_quantized_tensor_q_per_channel_scales      (GnnQuantizedTensor *self,
                                                                    GError            **error);
GNN_AVAILABLE_IN_ALL
GnnTensor          *gnn_quantized_tensor_q_per_channel_zero_points (GnnQuantizedTensor *self,
                                                                    GError            **error);
GNN_AVAILABLE_IN_ALL
int                 gnn_quantized_tensor_q_per_channel_axis        (GnnQuantizedTensor *self,
                                                                    GError            **error);

G_END_DECLS
