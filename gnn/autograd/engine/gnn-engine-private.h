/* gnn-engine-private.h: the autograd engine, above ops/
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "autograd/graph/gnn-graph-private.h"

G_BEGIN_DECLS

/* Runs backward from @roots, each with its gradient @grads[i], over the recorded graph in
 * reverse order of recording (later nodes first, as PyTorch's engine), with grad mode on
 * only when @create_graph (so that the formulas record the gradients' own graph): leaves
 * accumulate into their grad, saved tensors are freed unless @retain_graph.
 * With @capture (gnn_autograd_grad), the gradient reaching input @capture_nr[k] of node
 * @capture[k] is stored in @captured[k] (a new reference, or left NULL when none came), only
 * the nodes leading to a captured edge run and no leaf accumulates. */
gboolean gnn_autograd_run_backward (GnnTensor **roots,
                                    GnnTensor **grads,
                                    guint       n_roots,
                                    gboolean    retain_graph,
                                    gboolean    create_graph,
                                    GnnNode   **capture,
                                    guint      *capture_nr,
                                    guint       n_capture,
                                    GnnTensor **captured,
                                    GError    **error);

G_END_DECLS
