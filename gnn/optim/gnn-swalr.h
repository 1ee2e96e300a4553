/* gnn-swalr.h: the learning-rate scheduler of stochastic weight averaging, as
 * torch.optim.swa_utils.SWALR
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined (GNN_INSIDE) && !defined (GNN_COMPILATION)
#error "Only <gnn/gnn.h> can be included directly."
#endif

#include <glib-object.h>
#include "../gnn-version-macros.h"
#include "gnn-lr-scheduler.h"

G_BEGIN_DECLS

#define GNN_TYPE_SWALR (gnn_swalr_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnSWALR, gnn_swalr, GNN, SWALR, GnnLRScheduler)

GNN_AVAILABLE_IN_ALL
GnnSWALR *gnn_swalr_new (GnnOptimizer  *optimizer,
                         const double  *swa_lr,
                         guint          n_swa_lr,
                         int            anneal_epochs,
                         const char    *anneal_strategy,
                         int            last_epoch,
                         GError       **error);

G_END_DECLS
