/* gnn-adam.h: Adam and AdamW, as torch.optim.Adam and torch.optim.AdamW
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

#define GNN_TYPE_ADAM (gnn_adam_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnAdam, gnn_adam, GNN, ADAM, GnnOptimizer)

GNN_AVAILABLE_IN_ALL
GnnOptimizer *gnn_adam_new  (GnnParamGroup  *params,
                             double          lr,
                             double          beta1,
                             double          beta2,
                             double          eps,
                             double          weight_decay,
                             gboolean        amsgrad,
                             gboolean        maximize,
                             GError        **error);

#define GNN_TYPE_ADAMW (gnn_adamw_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnAdamW, gnn_adamw, GNN, ADAMW, GnnOptimizer)

GNN_AVAILABLE_IN_ALL
GnnOptimizer *gnn_adamw_new (GnnParamGroup  *params,
                             double          lr,
                             double          beta1,
                             double          beta2,
                             double          eps,
                             double          weight_decay,
                             gboolean        amsgrad,
                             gboolean        maximize,
                             GError        **error);

G_END_DECLS
