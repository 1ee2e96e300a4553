/* gnn-lr-scheduler.h: learning-rate schedulers, as torch.optim.lr_scheduler (and SWALR, as
 * torch.optim.swa_utils.SWALR)
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

/* ---- the base class ------------------------------------------------------------------ */

#define GNN_TYPE_LR_SCHEDULER (gnn_lr_scheduler_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_DERIVABLE_TYPE (GnnLRScheduler, gnn_lr_scheduler, GNN, LR_SCHEDULER, GObject)

/**
 * GnnLRSchedulerClass:
 * @parent_class: the parent class
 * @get_lr: computes the learning rate of every parameter group for the current
 *   [property@Gnn.LRScheduler:last-epoch], in the chainable form (`get_lr`): from the
 *   current `lr` of each group, or from [method@Gnn.LRScheduler.get_base_lrs]; an array
 *   of doubles, one per group
 * @save_state: adds the subclass's entries to a state being saved, after chaining up
 * @load_state: restores the subclass's entries from a state being loaded, after chaining
 *   up; entries that are absent keep their value
 *
 * The virtual methods of [class@Gnn.LRScheduler]. Python subclasses override `do_get_lr`
 * (returning a list of floats), gjs subclasses `vfunc_get_lr`, Vala subclasses `get_lr`.
 */
struct _GnnLRSchedulerClass
{
  GObjectClass parent_class;

  GArray  *(*get_lr)     (GnnLRScheduler *self,
                          GError        **error);
  void     (*save_state) (GnnLRScheduler *self,
                          GVariantDict   *state);
  gboolean (*load_state) (GnnLRScheduler *self,
                          GVariantDict   *state,
                          GError        **error);

  /*< private >*/
  gpointer padding[8];
};

GNN_AVAILABLE_IN_ALL
gboolean      gnn_lr_scheduler_step            (GnnLRScheduler  *self,
                                                GError         **error);
GNN_AVAILABLE_IN_ALL
GArray       *gnn_lr_scheduler_get_lr          (GnnLRScheduler  *self,
                                                GError         **error);
GNN_AVAILABLE_IN_ALL
double       *gnn_lr_scheduler_get_last_lr     (GnnLRScheduler  *self,
                                                guint           *n_lrs);
GNN_AVAILABLE_IN_ALL
double       *gnn_lr_scheduler_get_base_lrs    (GnnLRScheduler  *self,
                                                guint           *n_lrs);
GNN_AVAILABLE_IN_ALL
GnnOptimizer *gnn_lr_scheduler_get_optimizer   (GnnLRScheduler  *self);
GNN_AVAILABLE_IN_ALL
int           gnn_lr_scheduler_get_last_epoch  (GnnLRScheduler  *self);
GNN_AVAILABLE_IN_ALL
void          gnn_lr_scheduler_set_last_epoch  (GnnLRScheduler  *self,
                                                int              last_epoch);
GNN_AVAILABLE_IN_ALL
int           gnn_lr_scheduler_get_step_count  (GnnLRScheduler  *self);
GNN_AVAILABLE_IN_ALL
gboolean      gnn_lr_scheduler_is_initial_step (GnnLRScheduler  *self);
GNN_AVAILABLE_IN_ALL
GVariant     *gnn_lr_scheduler_state_dict      (GnnLRScheduler  *self);
GNN_AVAILABLE_IN_ALL
gboolean      gnn_lr_scheduler_load_state_dict (GnnLRScheduler  *self,
                                                GVariant        *state,
                                                GError         **error);

/* ---- StepLR -------------------------------------------------------------------------- */

#define GNN_TYPE_STEP_LR (gnn_step_lr_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnStepLR, gnn_step_lr, GNN, STEP_LR, GnnLRScheduler)

GNN_AVAILABLE_IN_ALL
GnnStepLR *gnn_step_lr_new (GnnOptimizer  *optimizer,
                            int            step_size,
                            double         gamma,
                            int            last_epoch,
                            GError       **error);

/* ---- MultiStepLR --------------------------------------------------------------------- */

#define GNN_TYPE_MULTI_STEP_LR (gnn_multi_step_lr_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnMultiStepLR, gnn_multi_step_lr, GNN, MULTI_STEP_LR, GnnLRScheduler)

GNN_AVAILABLE_IN_ALL
GnnMultiStepLR *gnn_multi_step_lr_new            (GnnOptimizer    *optimizer,
                                                  const int       *milestones,
                                                  guint            n_milestones,
                                                  double           gamma,
                                                  int              last_epoch,
                                                  GError         **error);
GNN_AVAILABLE_IN_ALL
int            *gnn_multi_step_lr_get_milestones (GnnMultiStepLR  *self,
                                                  guint           *n_milestones);

/* ---- ExponentialLR ------------------------------------------------------------------- */

#define GNN_TYPE_EXPONENTIAL_LR (gnn_exponential_lr_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnExponentialLR, gnn_exponential_lr, GNN, EXPONENTIAL_LR, GnnLRScheduler)

GNN_AVAILABLE_IN_ALL
GnnExponentialLR *gnn_exponential_lr_new (GnnOptimizer  *optimizer,
                                          double         gamma,
                                          int            last_epoch,
                                          GError       **error);

/* ---- CosineAnnealingLR --------------------------------------------------------------- */

#define GNN_TYPE_COSINE_ANNEALING_LR (gnn_cosine_annealing_lr_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnCosineAnnealingLR, gnn_cosine_annealing_lr, GNN, COSINE_ANNEALING_LR, GnnLRScheduler)

GNN_AVAILABLE_IN_ALL
GnnCosineAnnealingLR *gnn_cosine_annealing_lr_new (GnnOptimizer  *optimizer,
                                                   int            T_max,
                                                   double         eta_min,
                                                   int            last_epoch,
                                                   GError       **error);

/* ---- LinearLR ------------------------------------------------------------------------ */

#define GNN_TYPE_LINEAR_LR (gnn_linear_lr_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnLinearLR, gnn_linear_lr, GNN, LINEAR_LR, GnnLRScheduler)

GNN_AVAILABLE_IN_ALL
GnnLinearLR *gnn_linear_lr_new (GnnOptimizer  *optimizer,
                                double         start_factor,
                                double         end_factor,
                                int            total_iters,
                                int            last_epoch,
                                GError       **error);

/* ---- LambdaLR ------------------------------------------------------------------------ */

/**
 * GnnLRLambdaFunc:
 * @epoch: the epoch to compute the factor for (the scheduler's `last_epoch`)
 * @user_data: the data given with the function
 *
 * A learning-rate factor as a function of the epoch, for [class@Gnn.LambdaLR]
 * (`lr_lambda`): the learning rate of a group becomes its initial learning rate times the
 * value returned.
 *
 * Returns: the factor
 */
typedef double (*GnnLRLambdaFunc) (int      epoch,
                                   gpointer user_data);

/**
 * GnnLRGroupLambdaFunc:
 * @group: the index of the parameter group
 * @epoch: the epoch to compute the factor for (the scheduler's `last_epoch`)
 * @user_data: the data given with the function
 *
 * A learning-rate factor for each parameter group, as a function of the epoch: one
 * function standing for PyTorch's list of `lr_lambda`s, one per group.
 *
 * Returns: the factor for the group
 */
typedef double (*GnnLRGroupLambdaFunc) (guint    group,
                                        int      epoch,
                                        gpointer user_data);

#define GNN_TYPE_LAMBDA_LR (gnn_lambda_lr_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnLambdaLR, gnn_lambda_lr, GNN, LAMBDA_LR, GnnLRScheduler)

GNN_AVAILABLE_IN_ALL
GnnLambdaLR *gnn_lambda_lr_new            (GnnOptimizer          *optimizer,
                                           GnnLRLambdaFunc        lr_lambda,
                                           gpointer               user_data,
                                           GDestroyNotify         notify,
                                           int                    last_epoch,
                                           GError               **error);
GNN_AVAILABLE_IN_ALL
GnnLambdaLR *gnn_lambda_lr_new_per_group  (GnnOptimizer          *optimizer,
                                           GnnLRGroupLambdaFunc   lr_lambda,
                                           gpointer               user_data,
                                           GDestroyNotify         notify,
                                           int                    last_epoch,
                                           GError               **error);
GNN_AVAILABLE_IN_ALL
GnnLambdaLR *gnn_lambda_lr_new_with_closure (GnnOptimizer        *optimizer,
                                             GClosure            *lr_lambda,
                                             int                  last_epoch,
                                             GError             **error);
GNN_AVAILABLE_IN_ALL
GnnLambdaLR *gnn_lambda_lr_new_from_array (GnnOptimizer          *optimizer,
                                           const GnnLRLambdaFunc *lr_lambdas,
                                           gpointer              *user_data,
                                           guint                  n_lr_lambdas,
                                           int                    last_epoch,
                                           GError               **error);

/* ---- MultiplicativeLR ---------------------------------------------------------------- */

#define GNN_TYPE_MULTIPLICATIVE_LR (gnn_multiplicative_lr_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnMultiplicativeLR, gnn_multiplicative_lr, GNN, MULTIPLICATIVE_LR, GnnLRScheduler)

GNN_AVAILABLE_IN_ALL
GnnMultiplicativeLR *gnn_multiplicative_lr_new              (GnnOptimizer          *optimizer,
                                                             GnnLRLambdaFunc        lr_lambda,
                                                             gpointer               user_data,
                                                             GDestroyNotify         notify,
                                                             int                    last_epoch,
                                                             GError               **error);
GNN_AVAILABLE_IN_ALL
GnnMultiplicativeLR *gnn_multiplicative_lr_new_per_group    (GnnOptimizer          *optimizer,
                                                             GnnLRGroupLambdaFunc   lr_lambda,
                                                             gpointer               user_data,
                                                             GDestroyNotify         notify,
                                                             int                    last_epoch,
                                                             GError               **error);
GNN_AVAILABLE_IN_ALL
GnnMultiplicativeLR *gnn_multiplicative_lr_new_with_closure (GnnOptimizer          *optimizer,
                                                             GClosure              *lr_lambda,
                                                             int                    last_epoch,
                                                             GError               **error);

/* ---- ConstantLR ---------------------------------------------------------------------- */

#define GNN_TYPE_CONSTANT_LR (gnn_constant_lr_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnConstantLR, gnn_constant_lr, GNN, CONSTANT_LR, GnnLRScheduler)

GNN_AVAILABLE_IN_ALL
GnnConstantLR *gnn_constant_lr_new (GnnOptimizer  *optimizer,
                                    double         factor,
                                    int            total_iters,
                                    int            last_epoch,
                                    GError       **error);

/* ---- PolynomialLR -------------------------------------------------------------------- */

#define GNN_TYPE_POLYNOMIAL_LR (gnn_polynomial_lr_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnPolynomialLR, gnn_polynomial_lr, GNN, POLYNOMIAL_LR, GnnLRScheduler)

GNN_AVAILABLE_IN_ALL
GnnPolynomialLR *gnn_polynomial_lr_new (GnnOptimizer  *optimizer,
                                        int            total_iters,
                                        double         power,
                                        int            last_epoch,
                                        GError       **error);

/* ---- CosineAnnealingWarmRestarts ----------------------------------------------------- */

#define GNN_TYPE_COSINE_ANNEALING_WARM_RESTARTS (gnn_cosine_annealing_warm_restarts_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnCosineAnnealingWarmRestarts, gnn_cosine_annealing_warm_restarts, GNN,
                      COSINE_ANNEALING_WARM_RESTARTS, GnnLRScheduler)

GNN_AVAILABLE_IN_ALL
GnnCosineAnnealingWarmRestarts *gnn_cosine_annealing_warm_restarts_new       (GnnOptimizer  *optimizer,
                                                                              int            T_0,
                                                                              int            T_mult,
                                                                              double         eta_min,
                                                                              int            last_epoch,
                                                                              GError       **error);
GNN_AVAILABLE_IN_ALL
gboolean gnn_cosine_annealing_warm_restarts_step_to   (GnnCosineAnnealingWarmRestarts  *self,
                                                       double                           epoch,
                                                       GError                         **error);
GNN_AVAILABLE_IN_ALL
double   gnn_cosine_annealing_warm_restarts_get_t_cur (GnnCosineAnnealingWarmRestarts  *self);
GNN_AVAILABLE_IN_ALL
gint64   gnn_cosine_annealing_warm_restarts_get_t_i   (GnnCosineAnnealingWarmRestarts  *self);

/* ---- CyclicLR ------------------------------------------------------------------------ */

#define GNN_TYPE_CYCLIC_LR (gnn_cyclic_lr_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnCyclicLR, gnn_cyclic_lr, GNN, CYCLIC_LR, GnnLRScheduler)

GNN_AVAILABLE_IN_ALL
GnnCyclicLR *gnn_cyclic_lr_new (GnnOptimizer  *optimizer,
                                const double  *base_lr,
                                guint          n_base_lr,
                                const double  *max_lr,
                                guint          n_max_lr,
                                double         step_size_up,
                                double         step_size_down,
                                const char    *mode,
                                double         gamma,
                                GClosure      *scale_fn,
                                const char    *scale_mode,
                                gboolean       cycle_momentum,
                                const double  *base_momentum,
                                guint          n_base_momentum,
                                const double  *max_momentum,
                                guint          n_max_momentum,
                                int            last_epoch,
                                GError       **error);

/* ---- ReduceLROnPlateau --------------------------------------------------------------- */

#define GNN_TYPE_REDUCE_LR_ON_PLATEAU (gnn_reduce_lr_on_plateau_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnReduceLROnPlateau, gnn_reduce_lr_on_plateau, GNN, REDUCE_LR_ON_PLATEAU, GnnLRScheduler)

GNN_AVAILABLE_IN_ALL
GnnReduceLROnPlateau *gnn_reduce_lr_on_plateau_new      (GnnOptimizer          *optimizer,
                                                         const char            *mode,
                                                         double                 factor,
                                                         int                    patience,
                                                         double                 threshold,
                                                         const char            *threshold_mode,
                                                         int                    cooldown,
                                                         const double          *min_lr,
                                                         guint                  n_min_lr,
                                                         double                 eps,
                                                         GError               **error);
GNN_AVAILABLE_IN_ALL
gboolean gnn_reduce_lr_on_plateau_step_with_metric      (GnnReduceLROnPlateau  *self,
                                                         double                 metric,
                                                         GError               **error);
GNN_AVAILABLE_IN_ALL
double   gnn_reduce_lr_on_plateau_get_best              (GnnReduceLROnPlateau  *self);
GNN_AVAILABLE_IN_ALL
int      gnn_reduce_lr_on_plateau_get_num_bad_epochs    (GnnReduceLROnPlateau  *self);
GNN_AVAILABLE_IN_ALL
int      gnn_reduce_lr_on_plateau_get_cooldown_counter  (GnnReduceLROnPlateau  *self);
GNN_AVAILABLE_IN_ALL
gboolean gnn_reduce_lr_on_plateau_in_cooldown           (GnnReduceLROnPlateau  *self);
GNN_AVAILABLE_IN_ALL
double  *gnn_reduce_lr_on_plateau_get_min_lrs           (GnnReduceLROnPlateau  *self,
                                                         guint                 *n_min_lrs);

/* ---- OneCycleLR ---------------------------------------------------------------------- */

#define GNN_TYPE_ONE_CYCLE_LR (gnn_one_cycle_lr_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnOneCycleLR, gnn_one_cycle_lr, GNN, ONE_CYCLE_LR, GnnLRScheduler)

GNN_AVAILABLE_IN_ALL
GnnOneCycleLR *gnn_one_cycle_lr_new (GnnOptimizer  *optimizer,
                                     const double  *max_lr,
                                     guint          n_max_lr,
                                     int            total_steps,
                                     int            epochs,
                                     int            steps_per_epoch,
                                     double         pct_start,
                                     const char    *anneal_strategy,
                                     gboolean       cycle_momentum,
                                     const double  *base_momentum,
                                     guint          n_base_momentum,
                                     const double  *max_momentum,
                                     guint          n_max_momentum,
                                     double         div_factor,
                                     double         final_div_factor,
                                     gboolean       three_phase,
                                     int            last_epoch,
                                     GError       **error);

/* ---- SequentialLR -------------------------------------------------------------------- */

#define GNN_TYPE_SEQUENTIAL_LR (gnn_sequential_lr_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnSequentialLR, gnn_sequential_lr, GNN, SEQUENTIAL_LR, GnnLRScheduler)

GNN_AVAILABLE_IN_ALL
GnnSequentialLR *gnn_sequential_lr_new            (GnnOptimizer     *optimizer,
                                                   GnnLRScheduler  **schedulers,
                                                   guint             n_schedulers,
                                                   const int        *milestones,
                                                   guint             n_milestones,
                                                   int               last_epoch,
                                                   GError          **error);
GNN_AVAILABLE_IN_ALL
guint            gnn_sequential_lr_get_n_schedulers (GnnSequentialLR *self);
GNN_AVAILABLE_IN_ALL
GnnLRScheduler  *gnn_sequential_lr_get_scheduler    (GnnSequentialLR *self,
                                                     guint            index);
GNN_AVAILABLE_IN_ALL
int             *gnn_sequential_lr_get_milestones   (GnnSequentialLR *self,
                                                     guint           *n_milestones);

/* ---- ChainedScheduler ---------------------------------------------------------------- */

#define GNN_TYPE_CHAINED_SCHEDULER (gnn_chained_scheduler_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnChainedScheduler, gnn_chained_scheduler, GNN, CHAINED_SCHEDULER, GnnLRScheduler)

GNN_AVAILABLE_IN_ALL
GnnChainedScheduler *gnn_chained_scheduler_new              (GnnLRScheduler     **schedulers,
                                                             guint                n_schedulers,
                                                             GError             **error);
GNN_AVAILABLE_IN_ALL
guint                gnn_chained_scheduler_get_n_schedulers (GnnChainedScheduler *self);
GNN_AVAILABLE_IN_ALL
GnnLRScheduler      *gnn_chained_scheduler_get_scheduler    (GnnChainedScheduler *self,
                                                             guint                index);

/* ---- SWALR (torch.optim.swa_utils) --------------------------------------------------- */

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
