/* gnn-engine-private.h: the autograd engine, above ops/
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "autograd/graph/gnn-graph-private.h"

G_BEGIN_DECLS

/* Runs backward from @roots, each with its gradient @grads[i], over the recorded graph in
 * reverse order of recording (later nodes first, as PyTorch's engine), with grad mode off:
 * leaves accumulate into their grad, saved tensors are freed unless @retain_graph. */
gboolean gnn_autograd_run_backward (GnnTensor **roots,
                                    GnnTensor **grads,
                                    guint       n_roots,
                                    gboolean    retain_graph,
                                    GError    **error);

G_END_DECLS
