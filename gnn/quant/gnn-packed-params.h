/* gnn-packed-params.h: the int8 weight and bias of a quantized linear layer, as torch's
 * LinearPackedParams
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined (GNN_INSIDE) && !defined (GNN_COMPILATION)
#error "Only <gnn/gnn.h> can be included directly."
#endif

#include <glib-object.h>
#include "../gnn-version-macros.h"
#include "../nn/gnn-module.h"
#include "gnn-quantized-tensor.h"

G_BEGIN_DECLS

#define GNN_TYPE_LINEAR_PACKED_PARAMS (gnn_linear_packed_params_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnLinearPackedParams, gnn_linear_packed_params, GNN, LINEAR_PACKED_PARAMS,
                      GnnModule)

GNN_AVAILABLE_IN_ALL
GnnQuantizedTensor *gnn_linear_packed_params_get_weight     (GnnLinearPackedParams *self,
                                                             GError               **error);
GNN_AVAILABLE_IN_ALL
GnnTensor          *gnn_linear_packed_params_get_bias       (GnnLinearPackedParams *self);
GNN_AVAILABLE_IN_ALL
gboolean            gnn_linear_packed_params_set_weight_bias (GnnLinearPackedParams *self,
                                                              GnnQuantizedTensor    *weight,
                                                              GnnTensor             *bias,
                                                              GError               **error);
GNN_AVAILABLE_IN_ALL
GnnQuantizedTensor *gnn_linear_packed_params_apply          (GnnLinearPackedParams *self,
                                                             GnnQuantizedTensor    *input,
                                                             double                 output_scale,
                                                             gint64                 output_zero_point,
                                                             gboolean               relu,
                                                             GError               **error);

G_END_DECLS
