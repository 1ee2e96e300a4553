/* gv-graph.h: the Graph page's model: a network's nodes (an ONNX file's, or a module tree's
 * children in call order), their tensors, and a layered layout top to bottom
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gnn/gnn.h>

G_BEGIN_DECLS

#define GV_GRAPH_NODE_WIDTH  200.0
#define GV_GRAPH_NODE_HEIGHT 64.0

typedef struct
{
  char      *name;      /* the ONNX node's name (its op and index when it has none), a module's path, an input's name */
  char      *op;        /* op_type, the module's type, "Input" or "Output" */
  char      *shape;     /* the shape of the value it makes (its first output) as text where known, or NULL */
  gint64     n_params;  /* elements of the initializers (ONNX) or parameters (a module) it takes */
  GPtrArray *tensors;   /* char*: "name<TAB>shape" of each initializer, parameter or buffer */
  GPtrArray *values;    /* char*: "input|output<TAB>name<TAB>shape<TAB>dtype" of each value an ONNX
                         * node takes (other than initializers) and makes; shape and dtype "" where
                         * unknown */
  GArray    *inputs;    /* guint: the nodes whose values it takes, each once */
  guint      layer;     /* the longest path from a node without inputs */
  double     x, y;      /* top-left corner in the layout */
} GvGraphNode;

#define GV_TYPE_GRAPH (gv_graph_get_type ())
G_DECLARE_FINAL_TYPE (GvGraph, gv_graph, GV, GRAPH, GObject)

/* An ONNX file through GnnOnnxModel: its inputs, nodes and outputs; NULL and @error when the
 * file cannot be read. The shape of each value is the file's (its inputs, outputs and
 * value_info; a dim_param by its name), else the one a small shape inference finds from
 * them (Constant, elementwise ops, Conv, the pools, Flatten, Transpose, Gemm, MatMul), else
 * unknown: never a guess. */
GvGraph     *gv_graph_new_from_onnx_file (const char  *path,
                                          GError     **error);
/* A module tree: an input, each module without children in the order of named_modules (the
 * call order of a Sequential and of a tree of them: the forward itself is not traced), an
 * output, each taking the value of the one before. */
GvGraph     *gv_graph_new_from_module    (GnnModule   *model,
                                          const char  *label);

const char  *gv_graph_get_source         (GvGraph     *self);
guint        gv_graph_get_n_nodes        (GvGraph     *self);
GvGraphNode *gv_graph_get_node           (GvGraph     *self,
                                          guint        index);
guint        gv_graph_get_n_edges        (GvGraph     *self);
guint        gv_graph_get_n_layers       (GvGraph     *self);
/* the parameters of the whole graph: a tensor several nodes take counts once */
gint64       gv_graph_get_n_params       (GvGraph     *self);
void         gv_graph_get_size           (GvGraph     *self,
                                          double      *width,
                                          double      *height);
/* the node drawn at (@x, @y) of the layout, or -1 */
int          gv_graph_node_at            (GvGraph     *self,
                                          double       x,
                                          double       y);
int          gv_graph_find_node          (GvGraph     *self,
                                          const char  *name);

G_END_DECLS
