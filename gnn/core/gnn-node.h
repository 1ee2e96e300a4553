/* gnn-node.h: autograd nodes as users see them (a tensor's grad_fn and the graph behind it)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined (GNN_INSIDE) && !defined (GNN_COMPILATION)
#error "Only <gnn/gnn.h> can be included directly."
#endif

#include <glib-object.h>
#include "../gnn-version-macros.h"

G_BEGIN_DECLS

/**
 * GnnNode:
 *
 * A node of the autograd graph: the backward function an op recorded (`Tensor.grad_fn`,
 * such as `AddBackward0`), or the `AccumulateGrad` node of a leaf that requires grad. Its
 * next functions are the nodes its gradients flow to, as torch's `grad_fn.next_functions`,
 * so that a tool can walk and draw the graph behind a tensor. Nodes are reference counted
 * (a boxed type), and one lives while a tensor it made, a node after it, or a reference
 * holds it.
 *
 * Since: 0.1
 */
typedef struct _GnnNode GnnNode;

#define GNN_TYPE_NODE (gnn_node_get_type ())

GNN_AVAILABLE_IN_ALL
GType       gnn_node_get_type (void) G_GNUC_CONST;
GNN_AVAILABLE_IN_ALL
GnnNode    *gnn_node_ref      (GnnNode *node);
GNN_AVAILABLE_IN_ALL
void        gnn_node_unref    (GnnNode *node);
GNN_AVAILABLE_IN_ALL
const char *gnn_node_get_name (GnnNode *node);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (GnnNode, gnn_node_unref)

G_END_DECLS
