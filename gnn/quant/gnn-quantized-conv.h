/* gnn-quantized-conv.h: the statically quantized 2-d convolution, as torch.ops.quantized.conv2d
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined (GNN_INSIDE) && !defined (GNN_COMPILATION)
#error "Only <gnn/gnn.h> can be included directly."
#endif

#include <glib-object.h>
#include "../gnn-version-macros.h"
#include "gnn-quantized-tensor.h"

G_BEGIN_DECLS

GNN_AVAILABLE_IN_ALL
GnnQuantizedTensor *gnn_quantized_conv2d (GnnQuantizedTensor *input,
                                          GnnQuantizedTensor *weight,
                                          GnnTensor          *bias,
                                          const int          *stride,
                                          const int          *padding,
                                          const int          *dilation,
                                          int                 groups,
                                          double              output_scale,
                                          gint64              output_zero_point,
                                          gboolean            relu,
                                          GError            **error);

G_END_DECLS
