/* gnn-autograd.h: gradients of outputs with respect to given inputs (torch.autograd.grad)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined (GNN_INSIDE) && !defined (GNN_COMPILATION)
#error "Only <gnn/gnn.h> can be included directly."
#endif

#include <glib-object.h>
#include "../../gnn-version-macros.h"
#include "../../core/gnn-tensor.h"

G_BEGIN_DECLS

GNN_AVAILABLE_IN_ALL
GPtrArray *gnn_autograd_grad (GnnTensor **outputs,
                              guint       n_outputs,
                              GnnTensor **grad_outputs,
                              guint       n_grad_outputs,
                              GnnTensor **inputs,
                              guint       n_inputs,
                              gboolean    retain_graph,
                              gboolean    create_graph,
                              gboolean    allow_unused,
                              GError    **error);

GNN_AVAILABLE_IN_ALL
char      *gnn_autograd_take_anomaly_report (void);

G_END_DECLS
