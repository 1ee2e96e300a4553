/* gnn-optimizers-more.h: more torch.optim optimizers: Adadelta, Adamax, NAdam, RAdam, Rprop,
 * ASGD, SparseAdam and LBFGS
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

/* ---- Adadelta ------------------------------------------------------------------------ */

#define GNN_TYPE_ADADELTA (gnn_adadelta_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnAdadelta, gnn_adadelta, GNN, ADADELTA, GnnOptimizer)

GNN_AVAILABLE_IN_ALL
GnnAdadelta *gnn_adadelta_new (GnnParamGroup  *params,
                               double          lr,
                               double          rho,
                               double          eps,
                               double          weight_decay,
                               gboolean        maximize,
                               GError        **error);

/* ---- Adamax -------------------------------------------------------------------------- */

#define GNN_TYPE_ADAMAX (gnn_adamax_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnAdamax, gnn_adamax, GNN, ADAMAX, GnnOptimizer)

GNN_AVAILABLE_IN_ALL
GnnAdamax *gnn_adamax_new (GnnParamGroup  *params,
                           double          lr,
                           double          beta1,
                           double          beta2,
                           double          eps,
                           double          weight_decay,
                           gboolean        maximize,
                           GError        **error);

/* ---- NAdam --------------------------------------------------------------------------- */

#define GNN_TYPE_NADAM (gnn_nadam_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnNAdam, gnn_nadam, GNN, NADAM, GnnOptimizer)

GNN_AVAILABLE_IN_ALL
GnnNAdam *gnn_nadam_new (GnnParamGroup  *params,
                         double          lr,
                         double          beta1,
                         double          beta2,
                         double          eps,
                         double          weight_decay,
                         double          momentum_decay,
                         GError        **error);

/* ---- RAdam --------------------------------------------------------------------------- */

#define GNN_TYPE_RADAM (gnn_radam_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnRAdam, gnn_radam, GNN, RADAM, GnnOptimizer)

GNN_AVAILABLE_IN_ALL
GnnRAdam *gnn_radam_new (GnnParamGroup  *params,
                         double          lr,
                         double          beta1,
                         double          beta2,
                         double          eps,
                         double          weight_decay,
                         GError        **error);

/* ---- Rprop --------------------------------------------------------------------------- */

#define GNN_TYPE_RPROP (gnn_rprop_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnRprop, gnn_rprop, GNN, RPROP, GnnOptimizer)

GNN_AVAILABLE_IN_ALL
GnnRprop *gnn_rprop_new (GnnParamGroup  *params,
                         double          lr,
                         double          etaminus,
                         double          etaplus,
                         double          step_size_min,
                         double          step_size_max,
                         gboolean        maximize,
                         GError        **error);

/* ---- ASGD ---------------------------------------------------------------------------- */

#define GNN_TYPE_ASGD (gnn_asgd_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnASGD, gnn_asgd, GNN, ASGD, GnnOptimizer)

GNN_AVAILABLE_IN_ALL
GnnASGD *gnn_asgd_new (GnnParamGroup  *params,
                       double          lr,
                       double          lambd,
                       double          alpha,
                       double          t0,
                       double          weight_decay,
                       gboolean        maximize,
                       GError        **error);

/* ---- SparseAdam ---------------------------------------------------------------------- */

#define GNN_TYPE_SPARSE_ADAM (gnn_sparse_adam_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnSparseAdam, gnn_sparse_adam, GNN, SPARSE_ADAM, GnnOptimizer)

GNN_AVAILABLE_IN_ALL
GnnSparseAdam *gnn_sparse_adam_new (GnnParamGroup  *params,
                                    double          lr,
                                    double          beta1,
                                    double          beta2,
                                    double          eps,
                                    gboolean        maximize,
                                    GError        **error);

/* ---- LBFGS --------------------------------------------------------------------------- */

typedef gboolean (*GnnLBFGSClosure) (double   *loss,
                                     gpointer  user_data);

#define GNN_TYPE_LBFGS (gnn_lbfgs_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnLBFGS, gnn_lbfgs, GNN, LBFGS, GnnOptimizer)

GNN_AVAILABLE_IN_ALL
GnnLBFGS *gnn_lbfgs_new          (GnnParamGroup    *params,
                                  double            lr,
                                  gint64            max_iter,
                                  gint64            max_eval,
                                  double            tolerance_grad,
                                  double            tolerance_change,
                                  gint64            history_size,
                                  const char       *line_search_fn,
                                  GError          **error);
GNN_AVAILABLE_IN_ALL
gboolean  gnn_lbfgs_step_closure (GnnLBFGS         *self,
                                  GnnLBFGSClosure   closure,
                                  gpointer          user_data,
                                  double           *loss,
                                  GError          **error);

G_END_DECLS
