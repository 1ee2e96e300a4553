/* gnn-graph-json.h: a graph (torch.fx's Graph) as JSON text
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

G_BEGIN_DECLS

/**
 * GNN_GRAPH_JSON_MAX_ARGS_DEPTH:
 *
 * The deepest nesting of argument tuples that a graph's JSON form holds: a node whose
 * arguments nest tuples deeper is refused by [method@Gnn.Graph.to_json] and
 * [ctor@Gnn.Graph.new_from_json] with an error naming the node.
 *
 * Since: 0.1
 */
#define GNN_GRAPH_JSON_MAX_ARGS_DEPTH 64

GNN_AVAILABLE_IN_ALL
char     *gnn_graph_to_json        (GnnGraph    *self,
                                    gboolean     pretty,
                                    GError     **error);
GNN_AVAILABLE_IN_ALL
GnnGraph *gnn_graph_new_from_json  (const char  *json,
                                    gssize       length,
                                    GError     **error);

G_END_DECLS
