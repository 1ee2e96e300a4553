/* gnn-graph.h: a module's computation as a graph of nodes (torch.fx.Graph, torch.fx.Node)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined (GNN_INSIDE) && !defined (GNN_COMPILATION)
#error "Only <gnn/gnn.h> can be included directly."
#endif

#include <glib-object.h>
#include "../gnn-version-macros.h"
#include "../core/gnn-dtype.h"
#include "../nn/gnn-args.h"
#include "../nn/gnn-module.h"

G_BEGIN_DECLS

/**
 * GnnGraphOp:
 * @GNN_GRAPH_OP_PLACEHOLDER: an input of the graph; the target is the input's name
 * @GNN_GRAPH_OP_GET_ATTR: a parameter, buffer or tensor attribute; the target is its dotted path
 * @GNN_GRAPH_OP_CALL_FUNCTION: a call of a function; the target names the function
 * @GNN_GRAPH_OP_CALL_METHOD: a call of a tensor method on the first argument; the target is
 *   the method's name
 * @GNN_GRAPH_OP_CALL_MODULE: a call of a submodule's forward; the target is its dotted path
 * @GNN_GRAPH_OP_OUTPUT: the value the graph returns, its first argument
 *
 * What a [class@Gnn.GraphNode] does: the `op` of torch.fx's `Node`, whose strings are the
 * nicks (`"placeholder"`, `"get_attr"`, `"call_function"`, `"call_method"`, `"call_module"`,
 * `"output"`).
 *
 * Since: 0.1
 */
typedef enum {
  GNN_GRAPH_OP_PLACEHOLDER,   /*< nick=placeholder >*/
  GNN_GRAPH_OP_GET_ATTR,      /*< nick=get_attr >*/
  GNN_GRAPH_OP_CALL_FUNCTION, /*< nick=call_function >*/
  GNN_GRAPH_OP_CALL_METHOD,   /*< nick=call_method >*/
  GNN_GRAPH_OP_CALL_MODULE,   /*< nick=call_module >*/
  GNN_GRAPH_OP_OUTPUT,        /*< nick=output >*/
} GnnGraphOp;

#define GNN_TYPE_GRAPH_NODE (gnn_graph_node_get_type ())
GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnGraphNode, gnn_graph_node, GNN, GRAPH_NODE, GObject)

#define GNN_TYPE_GRAPH (gnn_graph_get_type ())
GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnGraph, gnn_graph, GNN, GRAPH, GObject)

GNN_AVAILABLE_IN_ALL
GnnGraphOp    gnn_graph_node_get_op           (GnnGraphNode *self);
GNN_AVAILABLE_IN_ALL
const char   *gnn_graph_node_get_op_name      (GnnGraphNode *self);
GNN_AVAILABLE_IN_ALL
const char   *gnn_graph_node_get_name         (GnnGraphNode *self);
GNN_AVAILABLE_IN_ALL
const char   *gnn_graph_node_get_target       (GnnGraphNode *self);
GNN_AVAILABLE_IN_ALL
GnnArgs      *gnn_graph_node_get_args         (GnnGraphNode *self);
GNN_AVAILABLE_IN_ALL
gboolean      gnn_graph_node_set_args         (GnnGraphNode *self,
                                               GnnArgs      *args,
                                               GError      **error);
GNN_AVAILABLE_IN_ALL
GPtrArray    *gnn_graph_node_get_users        (GnnGraphNode *self);
GNN_AVAILABLE_IN_ALL
guint         gnn_graph_node_get_n_users      (GnnGraphNode *self);
GNN_AVAILABLE_IN_ALL
GnnGraph     *gnn_graph_node_get_graph        (GnnGraphNode *self);
GNN_AVAILABLE_IN_ALL
void          gnn_graph_node_set_tensor_meta  (GnnGraphNode *self,
                                               const gint64 *shape,
                                               guint         n_dims,
                                               GnnDtype      dtype);
GNN_AVAILABLE_IN_ALL
const gint64 *gnn_graph_node_get_tensor_meta  (GnnGraphNode *self,
                                               guint        *n_dims,
                                               GnnDtype     *dtype);
GNN_AVAILABLE_IN_ALL
guint         gnn_graph_node_replace_all_uses_with (GnnGraphNode *self,
                                                    GnnGraphNode *replacement);

GNN_AVAILABLE_IN_ALL
GnnGraph     *gnn_graph_new                   (void);
GNN_AVAILABLE_IN_ALL
GnnGraphNode *gnn_graph_create_node           (GnnGraph     *self,
                                               GnnGraphOp    op,
                                               const char   *target,
                                               GnnArgs      *args,
                                               const char   *name,
                                               GError      **error);
GNN_AVAILABLE_IN_ALL
GnnGraphNode *gnn_graph_placeholder           (GnnGraph     *self,
                                               const char   *name,
                                               GError      **error);
GNN_AVAILABLE_IN_ALL
GnnGraphNode *gnn_graph_get_attr              (GnnGraph     *self,
                                               const char   *target,
                                               GError      **error);
GNN_AVAILABLE_IN_ALL
GnnGraphNode *gnn_graph_call_function         (GnnGraph     *self,
                                               const char   *target,
                                               GnnArgs      *args,
                                               GError      **error);
GNN_AVAILABLE_IN_ALL
GnnGraphNode *gnn_graph_call_method           (GnnGraph     *self,
                                               const char   *target,
                                               GnnArgs      *args,
                                               GError      **error);
GNN_AVAILABLE_IN_ALL
GnnGraphNode *gnn_graph_call_module           (GnnGraph     *self,
                                               const char   *target,
                                               GnnArgs      *args,
                                               GError      **error);
GNN_AVAILABLE_IN_ALL
GnnGraphNode *gnn_graph_output                (GnnGraph     *self,
                                               GnnArgs      *args,
                                               GError      **error);
GNN_AVAILABLE_IN_ALL
void          gnn_graph_inserting_before      (GnnGraph     *self,
                                               GnnGraphNode *node);
GNN_AVAILABLE_IN_ALL
GPtrArray    *gnn_graph_get_nodes             (GnnGraph     *self);
GNN_AVAILABLE_IN_ALL
guint         gnn_graph_get_n_nodes           (GnnGraph     *self);
GNN_AVAILABLE_IN_ALL
GnnGraphNode *gnn_graph_find_node             (GnnGraph     *self,
                                               const char   *name);
GNN_AVAILABLE_IN_ALL
gboolean      gnn_graph_erase_node            (GnnGraph     *self,
                                               GnnGraphNode *node,
                                               GError      **error);
GNN_AVAILABLE_IN_ALL
gboolean      gnn_graph_eliminate_dead_code   (GnnGraph     *self);
GNN_AVAILABLE_IN_ALL
gboolean      gnn_graph_lint                  (GnnGraph     *self,
                                               GError      **error);
GNN_AVAILABLE_IN_ALL
char         *gnn_graph_to_string             (GnnGraph     *self);
GNN_AVAILABLE_IN_ALL
char         *gnn_graph_to_dot                (GnnGraph     *self,
                                               GnnModule    *root);

G_END_DECLS
