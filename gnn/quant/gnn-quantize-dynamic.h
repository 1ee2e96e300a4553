/* gnn-quantize-dynamic.h: dynamic quantization, as torch.ao.quantization.quantize_dynamic
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
#include "../nn/gnn-linear.h"
#include "gnn-quantized-tensor.h"

G_BEGIN_DECLS

#define GNN_TYPE_DYNAMIC_QUANTIZED_LINEAR (gnn_dynamic_quantized_linear_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnDynamicQuantizedLinear, gnn_dynamic_quantized_linear, GNN,
                      DYNAMIC_QUANTIZED_LINEAR, GnnModule)

GNN_AVAILABLE_IN_ALL
GnnDynamicQuantizedLinear *gnn_dynamic_quantized_linear_new_from_float (GnnLinear  *linear,
                                                                       GError    **error);
GNN_AVAILABLE_IN_ALL
GnnQuantizedTensor        *gnn_dynamic_quantized_linear_get_weight     (GnnDynamicQuantizedLinear *self,
                                                                       GError                   **error);
GNN_AVAILABLE_IN_ALL
GnnTensor                 *gnn_dynamic_quantized_linear_get_bias       (GnnDynamicQuantizedLinear *self);

GNN_AVAILABLE_IN_ALL
gboolean                   gnn_choose_qparams_per_tensor (GnnTensor  *input,
                                                          gboolean    reduce_range,
                                                          double     *scale,
                                                          gint64     *zero_point,
                                                          GError    **error);

GNN_AVAILABLE_IN_ALL
GnnModule                 *gnn_quantize_dynamic          (GnnModule  *model,
                                                          const GType *types,
                                                          gsize       n_types,
                                                          GnnQDtype   dtype,
                                                          gboolean    inplace,
                                                          GError    **error);

G_END_DECLS
