/* gnn-onnx.h: a traced graph written as an ONNX model
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined (GNN_INSIDE) && !defined (GNN_COMPILATION)
#error "Only <gnn/gnn.h> can be included directly."
#endif

#include <glib-object.h>
#include "../gnn-version-macros.h"
#include "../fx/gnn-graph.h"
#include "../nn/gnn-module.h"

G_BEGIN_DECLS

/**
 * GNN_ONNX_MAX_OPSET:
 *
 * The highest ONNX opset [func@Gnn.onnx_export] writes: 17, the last one the checker of
 * onnx 1.12 knows.
 *
 * Since: 0.1
 */
#define GNN_ONNX_MAX_OPSET 17

/**
 * GNN_ONNX_MIN_OPSET:
 *
 * The lowest ONNX opset [func@Gnn.onnx_export] writes: 13, where Softmax, Reshape and
 * BatchNormalization took the forms it writes.
 *
 * Since: 0.1
 */
#define GNN_ONNX_MIN_OPSET 13

GNN_AVAILABLE_IN_ALL
gboolean      gnn_onnx_is_available (void);

GNN_AVAILABLE_IN_ALL
gboolean      gnn_onnx_export       (GnnGraph           *graph,
                                     GnnModule          *root,
                                     const char * const *input_names,
                                     const char * const *output_names,
                                     GVariant           *dynamic_axes,
                                     int                 opset_version,
                                     const char         *path,
                                     GError            **error);

G_END_DECLS
