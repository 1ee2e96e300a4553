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
#include "../core/gnn-tensor.h"
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

/**
 * GNN_ONNX_MAX_NESTING:
 *
 * How deep an ONNX file read by [ctor@Gnn.OnnxModel.new_from_file] may nest the schema's
 * recursive messages (a graph inside a node's attribute inside a graph, a type inside a
 * type): checked on the wire format before the protobuf is parsed, so that a hostile file
 * cannot exhaust the stack.
 *
 * Since: 0.1
 */
#define GNN_ONNX_MAX_NESTING 64

#define GNN_TYPE_ONNX_MODEL (gnn_onnx_model_get_type ())
GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnOnnxModel, gnn_onnx_model, GNN, ONNX_MODEL, GObject)

GNN_AVAILABLE_IN_ALL
GnnOnnxModel *gnn_onnx_model_new_from_file         (const char   *path,
                                                    GError      **error);
GNN_AVAILABLE_IN_ALL
GnnOnnxModel *gnn_onnx_model_new_from_bytes        (GBytes       *bytes,
                                                    GError      **error);
GNN_AVAILABLE_IN_ALL
gint64        gnn_onnx_model_get_opset_version     (GnnOnnxModel *self);
GNN_AVAILABLE_IN_ALL
const char   *gnn_onnx_model_get_producer_name     (GnnOnnxModel *self);
GNN_AVAILABLE_IN_ALL
guint         gnn_onnx_model_get_n_nodes           (GnnOnnxModel *self);
GNN_AVAILABLE_IN_ALL
GVariant     *gnn_onnx_model_get_node              (GnnOnnxModel *self,
                                                    guint         index);
GNN_AVAILABLE_IN_ALL
GnnTensor    *gnn_onnx_model_get_node_tensor       (GnnOnnxModel *self,
                                                    guint         index,
                                                    const char   *attribute);
GNN_AVAILABLE_IN_ALL
char        **gnn_onnx_model_get_initializer_names (GnnOnnxModel *self);
GNN_AVAILABLE_IN_ALL
GnnTensor    *gnn_onnx_model_get_initializer       (GnnOnnxModel *self,
                                                    const char   *name);
GNN_AVAILABLE_IN_ALL
GVariant     *gnn_onnx_model_get_inputs            (GnnOnnxModel *self);
GNN_AVAILABLE_IN_ALL
GVariant     *gnn_onnx_model_get_outputs           (GnnOnnxModel *self);

G_END_DECLS
