/* gnn-adagrad.h: Adagrad, as torch.optim.Adagrad
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

#define GNN_TYPE_ADAGRAD (gnn_adagrad_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnAdagrad, gnn_adagrad, GNN, ADAGRAD, GnnOptimizer)

GNN_AVAILABLE_IN_ALL
GnnOptimizer *gnn_adagrad_new (GnnParamGroup  *params,
                               double          lr,
                               double          lr_decay,
                               double          weight_decay,
                               double          initial_accumulator_value,
                               double          eps,
                               gboolean        maximize,
                               GError        **error);

G_END_DECLS
