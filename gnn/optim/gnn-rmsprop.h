/* gnn-rmsprop.h: RMSprop, as torch.optim.RMSprop
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined (GNN_INSIDE) && !defined (GNN_COMPILATION)
#error "Only <gnn/gnn.h> can be included directly."
#endif

#include <glib-object.h>
#include "../gnn-version-macros.h"
#include "gnn-optimizer.h"

G_BEGIN_DECLS

#define GNN_TYPE_RMSPROP (gnn_rmsprop_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnRMSprop, gnn_rmsprop, GNN, RMSPROP, GnnOptimizer)

GNN_AVAILABLE_IN_ALL
GnnOptimizer *gnn_rmsprop_new (GnnParamGroup  *params,
                               double          lr,
                               double          alpha,
                               double          eps,
                               double          weight_decay,
                               double          momentum,
                               gboolean        centered,
                               gboolean        maximize,
                               GError        **error);

G_END_DECLS
