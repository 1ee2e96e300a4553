/* gnn-lr-schedulers-more.c: ConstantLR, PolynomialLR, CosineAnnealingWarmRestarts, CyclicLR
 * and ReduceLROnPlateau (torch.optim.lr_scheduler)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * As in gnn-lr-schedulers.c, each class describes its hyperparameters once, in a field table
 * (gnn-props-private.h), and names those the base class saves (GnnLRSchedulerHooks.state_props).
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "gnn-lr-scheduler-private.h"
#include "nn/gnn-module-private.h"
#include "nn/gnn-props-private.h"

/* "float division by zero (what)": Python's ZeroDivisionError */
static gboolean
division_by_zero (GError    **error,
                  const char *what)
{
  g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT, "float division by zero (%s)", what);
  return FALSE;
}

/* a string property's value among @allowed, or PyTorch's message: @before, the value, @after */
static gboolean
check_choice (const char         *value,
              const char * const *allowed,
              const char         *before,
              const char         *after,
              GError            **error)
{
  if (value && g_strv_contains (allowed, value))
    return TRUE;
  g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT, "%s%s%s", before, value ? value : "None", after);
  return FALSE;
}

/* ====================================================================================== */
/* ConstantLR                                                                             */
/* ====================================================================================== */

/**
 * GnnConstantLR:
 *
 * Multiplies the learning rate of every group by [property@Gnn.ConstantLR:factor] until the
 * epoch reaches [property@Gnn.ConstantLR:total-iters], and then gives it back
 * (`torch.optim.lr_scheduler.ConstantLR`). With `lr` 0.05, `factor` 0.5 and `total_iters` 4:
 * 0.025 for epochs 0 to 3, then 0.05. Other changes to the rates made meanwhile are kept, as
 * the scheduler multiplies the current rates.
 *
 * Its state adds `factor` (`d`) and `total_iters` (`x`).
 *
 * Since: 0.1
 */
struct _GnnConstantLR
{
  GnnLRScheduler parent_instance;

  double factor;
  int total_iters;
};

G_DEFINE_FINAL_TYPE (GnnConstantLR, gnn_constant_lr, GNN_TYPE_LR_SCHEDULER)

enum { CONST_PROP_0, CONST_PROP_FACTOR, CONST_PROP_TOTAL_ITERS, CONST_N_PROPS };
static GnnProp const_props[CONST_N_PROPS];
static const char * const const_state[] = { "factor", "factor", "total-iters", "total_iters", NULL };

static gboolean
gnn_constant_lr_prepare (GnnLRScheduler *sched,
                         GError        **error)
{
  double factor = GNN_CONSTANT_LR (sched)->factor;

  if (factor > 1.0 || factor < 0 || isnan (factor))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "Constant multiplicative factor expected to be between 0 and 1.");
      return FALSE;
    }
  return TRUE;
}

static double *
gnn_constant_lr_get_lr (GnnLRScheduler *sched,
                        guint          *n_lrs,
                        GError        **error)
{
  GnnConstantLR *self = GNN_CONSTANT_LR (sched);
  int e = gnn_lr_scheduler_get_last_epoch (sched);
  double *lrs = gnn_lr_scheduler_current_lrs (sched, n_lrs, error);

  if (lrs == NULL)
    return NULL;
  if (e == 0)
    return gnn_lr_scale (lrs, *n_lrs, self->factor);
  if (e != self->total_iters)
    return lrs;
  if (self->factor == 0)
    {
      g_free (lrs);
      division_by_zero (error, "ConstantLR with factor 0 gives the rates back at total_iters");
      return NULL;
    }
  return gnn_lr_scale (lrs, *n_lrs, 1.0 / self->factor);
}

static double *
gnn_constant_lr_closed_form (GnnLRScheduler *sched,
                             guint          *n_lrs,
                             GError        **error)
{
  GnnConstantLR *self = GNN_CONSTANT_LR (sched);
  gboolean done = gnn_lr_scheduler_get_last_epoch (sched) >= self->total_iters;
  double *lrs = gnn_lr_scheduler_base_lrs_or_empty (sched, n_lrs);

  return gnn_lr_scale (lrs, *n_lrs, self->factor + done * (1 - self->factor));
}

static void
gnn_constant_lr_class_init (GnnConstantLRClass *klass)
{
  GnnLRSchedulerHooks *hooks = gnn_lr_scheduler_class_get_hooks (GNN_LR_SCHEDULER_CLASS (klass));

  hooks->prepare = gnn_constant_lr_prepare;
  hooks->get_lr = gnn_constant_lr_get_lr;
  hooks->closed_form_lr = gnn_constant_lr_closed_form;
  hooks->state_props = const_state;

  /**
   * GnnConstantLR:factor:
   *
   * The factor of the rates until [property@Gnn.ConstantLR:total-iters] (`factor`), in
   * [0, 1].
   *
   * Since: 0.1
   */
  const_props[CONST_PROP_FACTOR] = gnn_lr_prop_double ("factor", 1.0 / 3, GNN_LR_HYPERPARAMETER,
                                                       G_STRUCT_OFFSET (GnnConstantLR, factor));
  /**
   * GnnConstantLR:total-iters:
   *
   * The epoch at which the rates are given back (`total_iters`).
   *
   * Since: 0.1
   */
  const_props[CONST_PROP_TOTAL_ITERS] = gnn_lr_prop_int ("total-iters", 5, GNN_LR_HYPERPARAMETER,
                                                         G_STRUCT_OFFSET (GnnConstantLR, total_iters), NULL);
  gnn_props_install (G_OBJECT_CLASS (klass), const_props, CONST_N_PROPS);
}

static void
gnn_constant_lr_init (GnnConstantLR *self)
{
}

/**
 * gnn_constant_lr_new:
 * @optimizer: the optimizer whose groups to schedule
 * @factor: the factor of the rates until @total_iters, in [0, 1] (PyTorch's default: 1/3)
 * @total_iters: the epoch at which the rates are given back (PyTorch's default: 5)
 * @last_epoch: -1 for a new schedule, or the epoch to resume after
 * @error: return location for a #GError
 *
 * Creates a scheduler that multiplies the rates by @factor until epoch @total_iters
 * (`ConstantLR (optimizer, factor, total_iters, last_epoch)`), and performs its initial
 * step, which multiplies them.
 *
 * Returns: (transfer full) (nullable): the scheduler, or %NULL with @error set: @factor is
 *   out of [0, 1] (PyTorch's message), or a group lacks `initial_lr` when resuming
 *
 * Since: 0.1
 */
GnnConstantLR *
gnn_constant_lr_new (GnnOptimizer *optimizer,
                     double        factor,
                     int           total_iters,
                     int           last_epoch,
                     GError      **error)
{
  g_return_val_if_fail (GNN_IS_OPTIMIZER (optimizer), NULL);
  return g_initable_new (GNN_TYPE_CONSTANT_LR, NULL, error, "optimizer", optimizer, "last-epoch", last_epoch,
                         "factor", factor, "total-iters", total_iters, NULL);
}

/* ====================================================================================== */
/* PolynomialLR                                                                           */
/* ====================================================================================== */

/**
 * GnnPolynomialLR:
 *
 * Decays the learning rate of every group along a polynomial of degree
 * [property@Gnn.PolynomialLR:power] down to 0 at epoch [property@Gnn.PolynomialLR:total-iters]
 * (`torch.optim.lr_scheduler.PolynomialLR`), in PyTorch's chainable form: each epoch
 * multiplies the current rate by `((1 - e / total_iters) / (1 - (e - 1) / total_iters)) ^
 * power`. With `lr` 0.001, `total_iters` 4 and `power` 1: 0.001, 0.00075, 0.0005, 0.00025,
 * then 0.
 *
 * Its state adds `total_iters` (`x`) and `power` (`d`).
 *
 * Since: 0.1
 */
struct _GnnPolynomialLR
{
  GnnLRScheduler parent_instance;

  int total_iters;
  double power;
};

G_DEFINE_FINAL_TYPE (GnnPolynomialLR, gnn_polynomial_lr, GNN_TYPE_LR_SCHEDULER)

enum { POLY_PROP_0, POLY_PROP_TOTAL_ITERS, POLY_PROP_POWER, POLY_N_PROPS };
static GnnProp poly_props[POLY_N_PROPS];
static const char * const poly_state[] = { "total-iters", "total_iters", "power", "power", NULL };

static double *
gnn_polynomial_lr_get_lr (GnnLRScheduler *sched,
                          guint          *n_lrs,
                          GError        **error)
{
  GnnPolynomialLR *self = GNN_POLYNOMIAL_LR (sched);
  int e = gnn_lr_scheduler_get_last_epoch (sched);
  double T = self->total_iters;
  double *lrs = gnn_lr_scheduler_current_lrs (sched, n_lrs, error);

  if (lrs == NULL || e == 0 || e > self->total_iters)
    return lrs;
  return gnn_lr_scale (lrs, *n_lrs, pow ((1.0 - e / T) / (1.0 - (e - 1) / T), self->power));
}

static double *
gnn_polynomial_lr_closed_form (GnnLRScheduler *sched,
                               guint          *n_lrs,
                               GError        **error)
{
  GnnPolynomialLR *self = GNN_POLYNOMIAL_LR (sched);
  int e = gnn_lr_scheduler_get_last_epoch (sched);
  double T = self->total_iters;

  if (self->total_iters == 0)
    {
      division_by_zero (error, "PolynomialLR with total_iters 0");
      return NULL;
    }
  return gnn_lr_scale (gnn_lr_scheduler_base_lrs_or_empty (sched, n_lrs), *n_lrs,
                       pow (1.0 - MIN (self->total_iters, e) / T, self->power));
}

static void
gnn_polynomial_lr_class_init (GnnPolynomialLRClass *klass)
{
  GnnLRSchedulerHooks *hooks = gnn_lr_scheduler_class_get_hooks (GNN_LR_SCHEDULER_CLASS (klass));

  hooks->get_lr = gnn_polynomial_lr_get_lr;
  hooks->closed_form_lr = gnn_polynomial_lr_closed_form;
  hooks->state_props = poly_state;

  /**
   * GnnPolynomialLR:total-iters:
   *
   * The epoch at which the rates reach 0 (`total_iters`).
   *
   * Since: 0.1
   */
  poly_props[POLY_PROP_TOTAL_ITERS] = gnn_lr_prop_int ("total-iters", 5, GNN_LR_HYPERPARAMETER,
                                                       G_STRUCT_OFFSET (GnnPolynomialLR, total_iters), NULL);
  /**
   * GnnPolynomialLR:power:
   *
   * The degree of the polynomial (`power`).
   *
   * Since: 0.1
   */
  poly_props[POLY_PROP_POWER] = gnn_lr_prop_double ("power", 1.0, GNN_LR_HYPERPARAMETER,
                                                    G_STRUCT_OFFSET (GnnPolynomialLR, power));
  gnn_props_install (G_OBJECT_CLASS (klass), poly_props, POLY_N_PROPS);
}

static void
gnn_polynomial_lr_init (GnnPolynomialLR *self)
{
}

/**
 * gnn_polynomial_lr_new:
 * @optimizer: the optimizer whose groups to schedule
 * @total_iters: the epoch at which the rates reach 0 (PyTorch's default: 5)
 * @power: the degree of the polynomial (PyTorch's default: 1)
 * @last_epoch: -1 for a new schedule, or the epoch to resume after
 * @error: return location for a #GError
 *
 * Creates a polynomial-decay scheduler (`PolynomialLR (optimizer, total_iters, power,
 * last_epoch)`) and performs its initial step, which leaves the rates alone.
 *
 * Returns: (transfer full) (nullable): the scheduler, or %NULL with @error set (a group
 *   lacks `initial_lr` when resuming)
 *
 * Since: 0.1
 */
GnnPolynomialLR *
gnn_polynomial_lr_new (GnnOptimizer *optimizer,
                       int           total_iters,
                       double        power,
                       int           last_epoch,
                       GError      **error)
{
  g_return_val_if_fail (GNN_IS_OPTIMIZER (optimizer), NULL);
  return g_initable_new (GNN_TYPE_POLYNOMIAL_LR, NULL, error, "optimizer", optimizer, "last-epoch", last_epoch,
                         "total-iters", total_iters, "power", power, NULL);
}

/* ====================================================================================== */
/* CosineAnnealingWarmRestarts                                                            */
/* ====================================================================================== */

/**
 * GnnCosineAnnealingWarmRestarts:
 *
 * SGDR, cosine annealing with warm restarts
 * (`torch.optim.lr_scheduler.CosineAnnealingWarmRestarts`): the learning rate of every group
 * falls along a cosine from its initial value to [property@Gnn.CosineAnnealingWarmRestarts:eta-min]
 * over `T_i` epochs, then restarts from the initial value; the first period `T_i` is
 * [property@Gnn.CosineAnnealingWarmRestarts:t-0], and each restart multiplies it by
 * [property@Gnn.CosineAnnealingWarmRestarts:t-mult]:
 *
 * ```
 * lr = eta_min + (base_lr - eta_min) · (1 + cos(π T_cur / T_i)) / 2
 * ```
 *
 * where `T_cur` counts the epochs since the last restart. Besides
 * [method@Gnn.LRScheduler.step], [method@Gnn.CosineAnnealingWarmRestarts.step_to] moves
 * the schedule to any epoch, fractional ones included (`scheduler.step (epoch + i / iters)`
 * within an epoch), and the next step goes on from there. As PyTorch's, its steps do not
 * count in [method@Gnn.LRScheduler.get_step_count], which stays 0.
 *
 * Its state adds `T_0` (`x`), `T_i` (`x`), `T_mult` (`x`), `eta_min` (`d`) and `T_cur`
 * (`d`).
 *
 * Since: 0.1
 */
struct _GnnCosineAnnealingWarmRestarts
{
  GnnLRScheduler parent_instance;

  int t_0;
  int t_mult;
  double eta_min;
  gint64 t_i;
  double t_cur;
  gboolean located;   /* T_cur and T_i are already those of the epoch being applied */
};

G_DEFINE_FINAL_TYPE (GnnCosineAnnealingWarmRestarts, gnn_cosine_annealing_warm_restarts, GNN_TYPE_LR_SCHEDULER)

enum { SGDR_PROP_0, SGDR_PROP_T_0, SGDR_PROP_T_MULT, SGDR_PROP_ETA_MIN, SGDR_N_PROPS };
static GnnProp sgdr_props[SGDR_N_PROPS];
static const char * const sgdr_state[] = { "t-0", "T_0", "t-mult", "T_mult", "eta-min", "eta_min", NULL };

static gboolean
check_t_0 (GParamSpec   *pspec,
           const GValue *value,
           GError      **error)
{
  return gnn_lr_check_positive ("T_0", g_value_get_int (value), error);
}

static gboolean
check_t_mult (GParamSpec   *pspec,
              const GValue *value,
              GError      **error)
{
  if (g_value_get_int (value) >= 1)
    return TRUE;
  g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
               "Expected integer T_mult >= 1, but got %d", g_value_get_int (value));
  return FALSE;
}

static gboolean
gnn_cosine_annealing_warm_restarts_prepare (GnnLRScheduler *sched,
                                            GError        **error)
{
  GnnCosineAnnealingWarmRestarts *self = GNN_COSINE_ANNEALING_WARM_RESTARTS (sched);

  self->t_i = self->t_0;
  self->t_cur = gnn_lr_scheduler_get_last_epoch (sched);
  return TRUE;
}

static double *
gnn_cosine_annealing_warm_restarts_get_lr (GnnLRScheduler *sched,
                                           guint          *n_lrs,
                                           GError        **error)
{
  GnnCosineAnnealingWarmRestarts *self = GNN_COSINE_ANNEALING_WARM_RESTARTS (sched);
  double *lrs = gnn_lr_scheduler_base_lrs_or_empty (sched, n_lrs);
  double wave = (1 + cos (G_PI * self->t_cur / (double) self->t_i)) / 2;

  for (guint g = 0; g < *n_lrs; g++)
    lrs[g] = self->eta_min + (lrs[g] - self->eta_min) * wave;
  return lrs;
}

/* T_cur and T_i at @epoch, as PyTorch's step (epoch) computes them */
static gboolean
sgdr_locate (GnnCosineAnnealingWarmRestarts *self,
             double                          epoch,
             GError                        **error)
{
  if (!(epoch >= 0))
    {
      g_autofree char *repr = gnn_python_float_repr (epoch);

      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "Expected non-negative epoch, but got %s", repr);
      return FALSE;
    }
  if (epoch >= self->t_0)
    {
      if (self->t_mult == 1)
        self->t_cur = fmod (epoch, self->t_0);
      else
        {
          int n = (int) (log (epoch / self->t_0 * (self->t_mult - 1) + 1) / log (self->t_mult));
          gint64 power = 1;

          for (int i = 0; i < n; i++)
            power *= self->t_mult;
          self->t_cur = epoch - (double) (self->t_0 * (power - 1)) / (double) (self->t_mult - 1);
          self->t_i = self->t_0 * power;
        }
    }
  else
    {
      self->t_i = self->t_0;
      self->t_cur = epoch;
    }
  return TRUE;
}

/* step () (@has_epoch FALSE) or step (epoch); all or nothing */
static gboolean
sgdr_step (GnnCosineAnnealingWarmRestarts *self,
           gboolean                        has_epoch,
           double                          epoch,
           GError                        **error)
{
  GnnLRScheduler *sched = GNN_LR_SCHEDULER (self);
  int last_epoch = gnn_lr_scheduler_get_last_epoch (sched);
  double t_cur = self->t_cur;
  gint64 t_i = self->t_i;
  gboolean ok = TRUE;

  if (!has_epoch && last_epoch < 0)
    has_epoch = TRUE, epoch = 0;
  if (!has_epoch)
    {
      epoch = (double) last_epoch + 1;
      self->t_cur = self->t_cur + 1;
      if (self->t_cur >= self->t_i)
        {
          self->t_cur = self->t_cur - self->t_i;
          self->t_i = self->t_i * self->t_mult;
        }
    }
  else
    ok = sgdr_locate (self, epoch, error);
  if (ok && !(floor (epoch) <= G_MAXINT))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "epoch %g is out of the range of an int", epoch);
      ok = FALSE;
    }
  self->located = TRUE;
  ok = ok && gnn_lr_scheduler_update_lr_to (sched, (int) floor (epoch), error);
  self->located = FALSE;
  if (!ok)
    {
      self->t_cur = t_cur;
      self->t_i = t_i;
    }
  return ok;
}

/* the rates at last_epoch when something else moved the scheduler there (SequentialLR at a
 * milestone, PyTorch's step (0)): T_cur and T_i of that epoch first */
static double *
gnn_cosine_annealing_warm_restarts_closed_form (GnnLRScheduler *sched,
                                                guint          *n_lrs,
                                                GError        **error)
{
  GnnCosineAnnealingWarmRestarts *self = GNN_COSINE_ANNEALING_WARM_RESTARTS (sched);

  if (!self->located && !sgdr_locate (self, gnn_lr_scheduler_get_last_epoch (sched), error))
    return NULL;
  return gnn_cosine_annealing_warm_restarts_get_lr (sched, n_lrs, error);
}

static gboolean
gnn_cosine_annealing_warm_restarts_step (GnnLRScheduler *sched,
                                         GError        **error)
{
  return sgdr_step (GNN_COSINE_ANNEALING_WARM_RESTARTS (sched), FALSE, 0, error);
}

static void
gnn_cosine_annealing_warm_restarts_save_state (GnnLRScheduler *sched,
                                               GVariantDict   *state)
{
  GnnCosineAnnealingWarmRestarts *self = GNN_COSINE_ANNEALING_WARM_RESTARTS (sched);

  GNN_LR_SCHEDULER_CLASS (gnn_cosine_annealing_warm_restarts_parent_class)->save_state (sched, state);
  g_variant_dict_insert (state, "T_i", "x", self->t_i);
  g_variant_dict_insert (state, "T_cur", "d", self->t_cur);
}

static gboolean
gnn_cosine_annealing_warm_restarts_load_state (GnnLRScheduler *sched,
                                               GVariantDict   *state,
                                               GError        **error)
{
  GnnCosineAnnealingWarmRestarts *self = GNN_COSINE_ANNEALING_WARM_RESTARTS (sched);
  gint64 t_i = self->t_i;
  double t_cur = self->t_cur;

  if (!gnn_lr_state_get_int (state, "T_i", &t_i, error) ||
      !gnn_lr_state_get_double (state, "T_cur", &t_cur, error))
    return FALSE;
  if (t_i <= 0)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "\"T_i\" in the loaded scheduler state is %" G_GINT64_FORMAT ", expected a "
                   "positive integer", t_i);
      return FALSE;
    }
  if (!GNN_LR_SCHEDULER_CLASS (gnn_cosine_annealing_warm_restarts_parent_class)->load_state (sched, state, error))
    return FALSE;
  self->t_i = t_i;
  self->t_cur = t_cur;
  return TRUE;
}

static void
gnn_cosine_annealing_warm_restarts_class_init (GnnCosineAnnealingWarmRestartsClass *klass)
{
  GnnLRSchedulerClass *sched_class = GNN_LR_SCHEDULER_CLASS (klass);
  GnnLRSchedulerHooks *hooks = gnn_lr_scheduler_class_get_hooks (sched_class);

  sched_class->save_state = gnn_cosine_annealing_warm_restarts_save_state;
  sched_class->load_state = gnn_cosine_annealing_warm_restarts_load_state;
  hooks->prepare = gnn_cosine_annealing_warm_restarts_prepare;
  hooks->get_lr = gnn_cosine_annealing_warm_restarts_get_lr;
  hooks->step = gnn_cosine_annealing_warm_restarts_step;
  hooks->closed_form_lr = gnn_cosine_annealing_warm_restarts_closed_form;
  hooks->state_props = sgdr_state;

  /**
   * GnnCosineAnnealingWarmRestarts:t-0:
   *
   * The number of epochs before the first restart (`T_0`); positive.
   *
   * Since: 0.1
   */
  sgdr_props[SGDR_PROP_T_0] = gnn_lr_prop_int ("t-0", 1, GNN_LR_HYPERPARAMETER,
                                               G_STRUCT_OFFSET (GnnCosineAnnealingWarmRestarts, t_0), check_t_0);
  /**
   * GnnCosineAnnealingWarmRestarts:t-mult:
   *
   * The factor of the period at each restart (`T_mult`); at least 1.
   *
   * Since: 0.1
   */
  sgdr_props[SGDR_PROP_T_MULT] = gnn_lr_prop_int ("t-mult", 1, GNN_LR_HYPERPARAMETER,
                                                  G_STRUCT_OFFSET (GnnCosineAnnealingWarmRestarts, t_mult),
                                                  check_t_mult);
  /**
   * GnnCosineAnnealingWarmRestarts:eta-min:
   *
   * The lowest learning rate (`eta_min`).
   *
   * Since: 0.1
   */
  sgdr_props[SGDR_PROP_ETA_MIN] = gnn_lr_prop_double ("eta-min", 0.0, GNN_LR_HYPERPARAMETER,
                                                      G_STRUCT_OFFSET (GnnCosineAnnealingWarmRestarts, eta_min));
  gnn_props_install (G_OBJECT_CLASS (klass), sgdr_props, SGDR_N_PROPS);
}

static void
gnn_cosine_annealing_warm_restarts_init (GnnCosineAnnealingWarmRestarts *self)
{
}

/**
 * gnn_cosine_annealing_warm_restarts_new:
 * @optimizer: the optimizer whose groups to schedule
 * @T_0: the number of epochs before the first restart, positive
 * @T_mult: the factor of the period at each restart, at least 1 (PyTorch's default: 1)
 * @eta_min: the lowest learning rate (PyTorch's default: 0)
 * @last_epoch: -1 for a new schedule, or the epoch to resume after
 * @error: return location for a #GError
 *
 * Creates an SGDR scheduler (`CosineAnnealingWarmRestarts (optimizer, T_0, T_mult, eta_min,
 * last_epoch)`) and performs its initial step.
 *
 * Returns: (transfer full) (nullable): the scheduler, or %NULL with @error set: @T_0 is not
 *   positive or @T_mult is below 1 (PyTorch's messages), or a group lacks `initial_lr` when
 *   resuming
 *
 * Since: 0.1
 */
GnnCosineAnnealingWarmRestarts *
gnn_cosine_annealing_warm_restarts_new (GnnOptimizer *optimizer,
                                        int           T_0,
                                        int           T_mult,
                                        double        eta_min,
                                        int           last_epoch,
                                        GError      **error)
{
  g_return_val_if_fail (GNN_IS_OPTIMIZER (optimizer), NULL);
  return g_initable_new (GNN_TYPE_COSINE_ANNEALING_WARM_RESTARTS, NULL, error, "optimizer", optimizer,
                         "last-epoch", last_epoch, "t-0", T_0, "t-mult", T_mult, "eta-min", eta_min, NULL);
}

/**
 * gnn_cosine_annealing_warm_restarts_step_to:
 * @self: a scheduler
 * @epoch: the epoch to move to, fractional or not; not negative
 * @error: return location for a #GError
 *
 * Moves the schedule to @epoch (`scheduler.step (epoch)`): computes `T_cur` and `T_i` at
 * @epoch, sets [property@Gnn.LRScheduler:last-epoch] to its floor and the rates of every
 * group. Calling it after each batch with `epoch + i / iters` anneals within epochs; a
 * later [method@Gnn.LRScheduler.step] goes on from @epoch.
 *
 * Returns: %TRUE on success; %FALSE with @error set when @epoch is negative ("Expected
 *   non-negative epoch, but got -1.0"), leaving the scheduler unchanged
 *
 * Since: 0.1
 */
gboolean
gnn_cosine_annealing_warm_restarts_step_to (GnnCosineAnnealingWarmRestarts *self,
                                            double                          epoch,
                                            GError                        **error)
{
  g_return_val_if_fail (GNN_IS_COSINE_ANNEALING_WARM_RESTARTS (self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);
  if (!gnn_lr_scheduler_ensure_ready (GNN_LR_SCHEDULER (self), error))
    return FALSE;
  return sgdr_step (self, TRUE, epoch, error);
}

/**
 * gnn_cosine_annealing_warm_restarts_get_t_cur:
 * @self: a scheduler
 *
 * The epochs since the last restart (`T_cur`), fractional after a fractional
 * [method@Gnn.CosineAnnealingWarmRestarts.step_to].
 *
 * Returns: `T_cur`
 *
 * Since: 0.1
 */
double
gnn_cosine_annealing_warm_restarts_get_t_cur (GnnCosineAnnealingWarmRestarts *self)
{
  g_return_val_if_fail (GNN_IS_COSINE_ANNEALING_WARM_RESTARTS (self), 0);
  return self->t_cur;
}

/**
 * gnn_cosine_annealing_warm_restarts_get_t_i:
 * @self: a scheduler
 *
 * The length of the current period, in epochs (`T_i`).
 *
 * Returns: `T_i`
 *
 * Since: 0.1
 */
gint64
gnn_cosine_annealing_warm_restarts_get_t_i (GnnCosineAnnealingWarmRestarts *self)
{
  g_return_val_if_fail (GNN_IS_COSINE_ANNEALING_WARM_RESTARTS (self), 0);
  return self->t_i;
}

/* ====================================================================================== */
/* CyclicLR                                                                               */
/* ====================================================================================== */

/**
 * GnnCyclicLR:
 *
 * The cyclical learning-rate policy (`torch.optim.lr_scheduler.CyclicLR`): the learning rate
 * of every group goes from [property@Gnn.CyclicLR:base-lr] up to [property@Gnn.CyclicLR:max-lr]
 * in [property@Gnn.CyclicLR:step-size-up] steps and back down in
 * [property@Gnn.CyclicLR:step-size-down], the amplitude scaled per cycle or per step by the
 * [property@Gnn.CyclicLR:mode] ("triangular": 1; "triangular2": halved each cycle;
 * "exp_range": `gamma` to the power of the step) or by [property@Gnn.CyclicLR:scale-fn].
 * Each step is one batch.
 *
 * With [property@Gnn.CyclicLR:cycle-momentum], the momentum cycles the other way, between
 * [property@Gnn.CyclicLR:max-momentum] and [property@Gnn.CyclicLR:base-momentum]: the
 * `momentum` option of the groups, or the first of the `betas` when the optimizer has a
 * `betas` default (Adam), as current PyTorch does (1.13 refused optimizers without a
 * `momentum` default).
 *
 * A new schedule sets the `lr` of every group to its base rate (and the momentum to its
 * base momentum); the base rates are then the [method@Gnn.LRScheduler.get_base_lrs].
 *
 * Its state adds `max_lrs` (`ad`), `total_size` (`d`), `step_ratio` (`d`), `mode` (`s`),
 * `gamma` (`d`), `scale_mode` (`s`), `cycle_momentum` (`b`) and, when it is true,
 * `base_momentums` (`ad`), `max_momentums` (`ad`) and `use_beta1` (`b`). The scale
 * function is not saved, as PyTorch does not save functions.
 *
 * Since: 0.1
 */
struct _GnnCyclicLR
{
  GnnLRScheduler parent_instance;

  /* construction arguments: 'ad's of one value or one per group */
  GVariant *base_lr, *max_lr, *base_momentum, *max_momentum;
  double step_size_up, step_size_down;
  char *mode;
  double gamma;
  GClosure *scale_fn;
  char *scale_mode;
  gboolean cycle_momentum;

  /* the schedule */
  double *max_lrs, *base_momentums, *max_momentums;   /* one per group */
  double total_size, step_ratio;
  gboolean use_beta1;
};

G_DEFINE_FINAL_TYPE (GnnCyclicLR, gnn_cyclic_lr, GNN_TYPE_LR_SCHEDULER)

enum {
  CYC_PROP_0,
  CYC_PROP_BASE_LR,
  CYC_PROP_MAX_LR,
  CYC_PROP_STEP_SIZE_UP,
  CYC_PROP_STEP_SIZE_DOWN,
  CYC_PROP_MODE,
  CYC_PROP_GAMMA,
  CYC_PROP_SCALE_FN,
  CYC_PROP_SCALE_MODE,
  CYC_PROP_CYCLE_MOMENTUM,
  CYC_PROP_BASE_MOMENTUM,
  CYC_PROP_MAX_MOMENTUM,
  CYC_N_PROPS
};
static GnnProp cyc_props[CYC_N_PROPS];
static const char * const cyc_modes[] = { "triangular", "triangular2", "exp_range", NULL };

static void
gnn_cyclic_lr_finalize (GObject *object)
{
  GnnCyclicLR *self = GNN_CYCLIC_LR (object);

  g_clear_pointer (&self->scale_fn, g_closure_unref);
  g_free (self->max_lrs);
  g_free (self->base_momentums);
  g_free (self->max_momentums);
  G_OBJECT_CLASS (gnn_cyclic_lr_parent_class)->finalize (object);
}

/* takes the floating reference, as g_signal_connect_closure () does */
static void
scale_fn_set (GObject      *object,
              GParamSpec   *pspec,
              const GValue *value)
{
  gnn_lr_closure_set (&GNN_CYCLIC_LR (object)->scale_fn, g_value_get_boxed (value));
}

static void
scale_fn_get (GObject    *object,
              GParamSpec *pspec,
              GValue     *value)
{
  g_value_set_boxed (value, GNN_CYCLIC_LR (object)->scale_fn);
}

static gboolean
gnn_cyclic_lr_init_hook (GnnLRScheduler *sched,
                         GError        **error)
{
  GnnCyclicLR *self = GNN_CYCLIC_LR (sched);
  gboolean fresh = gnn_lr_scheduler_get_last_epoch (sched) == -1;
  guint n = gnn_lr_scheduler_n_groups (sched);
  g_autofree double *base_lrs = NULL, *max_lrs = NULL, *base_moms = NULL, *max_moms = NULL;
  double up = self->step_size_up, down = self->step_size_down < 0 ? up : self->step_size_down;

  if (!gnn_lr_scheduler_format_doubles (sched, "base_lr", self->base_lr, &base_lrs, error) ||
      !gnn_lr_scheduler_format_doubles (sched, "max_lr", self->max_lr, &max_lrs, error))
    return FALSE;
  if (up + down == 0)
    return division_by_zero (error, "CyclicLR with step_size_up + step_size_down 0");
  if (self->scale_fn == NULL && (self->mode == NULL || !g_strv_contains (cyc_modes, self->mode)))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT, "mode is invalid and scale_fn is None");
      return FALSE;
    }
  if (self->cycle_momentum &&
      (!gnn_lr_scheduler_momentum_kind (sched, &self->use_beta1, error) ||
       !gnn_lr_scheduler_format_doubles (sched, "base_momentum", self->base_momentum, &base_moms, error) ||
       !gnn_lr_scheduler_format_doubles (sched, "max_momentum", self->max_momentum, &max_moms, error)))
    return FALSE;
  /* all checked: a new schedule starts from the base rates and momenta */
  if (fresh && self->cycle_momentum &&
      !gnn_lr_scheduler_write_momentums (sched, self->use_beta1, base_moms, error))
    return FALSE;
  if (self->cycle_momentum && !gnn_lr_scheduler_read_momentums (sched, self->use_beta1, base_moms, error))
    return FALSE;
  if (fresh)
    for (guint g = 0; g < n; g++)
      gnn_param_group_set_double (gnn_optimizer_get_param_group (gnn_lr_scheduler_get_optimizer (sched), g),
                                  "lr", base_lrs[g]);
  self->total_size = up + down;
  self->step_ratio = up / self->total_size;
  if (self->scale_fn == NULL)
    gnn_prop_set (self, &cyc_props[CYC_PROP_SCALE_MODE],
                  strcmp (self->mode, "exp_range") == 0 ? "iterations" : "cycle");
  g_free (self->max_lrs);
  self->max_lrs = g_steal_pointer (&max_lrs);
  g_free (self->base_momentums);
  self->base_momentums = g_steal_pointer (&base_moms);
  g_free (self->max_momentums);
  self->max_momentums = g_steal_pointer (&max_moms);
  /* PyTorch's initial step runs with the base class's base_lrs (the initial_lr), which
   * CyclicLR then replaces with its base_lr */
  if (!gnn_lr_scheduler_init_base (sched, TRUE, error))
    return FALSE;
  gnn_lr_scheduler_set_base_lrs (sched, base_lrs, n);
  return TRUE;
}

/* the scale of the amplitude at @x (the cycle or the step) */
static gboolean
cyclic_scale (GnnCyclicLR *self,
              double       x,
              double      *out,
              GError     **error)
{
  if (self->scale_fn)
    {
      g_auto(GValue) ret = G_VALUE_INIT;
      g_auto(GValue) arg = G_VALUE_INIT;

      g_value_init (&ret, G_TYPE_DOUBLE);
      g_value_init (&arg, G_TYPE_DOUBLE);
      g_value_set_double (&arg, x);
      g_closure_invoke (self->scale_fn, &ret, 1, &arg, NULL);
      *out = g_value_get_double (&ret);
    }
  else if (g_strcmp0 (self->mode, "triangular2") == 0)
    *out = 1 / pow (2., x - 1);
  else if (g_strcmp0 (self->mode, "exp_range") == 0)
    *out = pow (self->gamma, x);
  else
    *out = 1.;
  return TRUE;
}

static double *
gnn_cyclic_lr_get_lr (GnnLRScheduler *sched,
                      guint          *n_lrs,
                      GError        **error)
{
  GnnCyclicLR *self = GNN_CYCLIC_LR (sched);
  int e = gnn_lr_scheduler_get_last_epoch (sched);
  guint n = gnn_lr_scheduler_n_groups (sched);
  double cycle = floor (1 + e / self->total_size);
  double x = 1. + e / self->total_size - cycle;
  double factor = x <= self->step_ratio ? x / self->step_ratio : (x - 1) / (self->step_ratio - 1);
  double at = g_strcmp0 (self->scale_mode, "cycle") == 0 ? cycle : e;
  g_autofree double *lrs = gnn_lr_scheduler_base_lrs_or_empty (sched, n_lrs);
  g_autofree double *moms = g_new (double, MAX (n, 1));

  if (*n_lrs != n || self->max_lrs == NULL)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "the optimizer has %u parameter groups, the scheduler has %u base_lrs", n, *n_lrs);
      return NULL;
    }
  for (guint g = 0; g < n; g++)
    {
      double scale;

      if (!cyclic_scale (self, at, &scale, error))
        return NULL;
      lrs[g] = lrs[g] + (self->max_lrs[g] - lrs[g]) * factor * scale;
    }
  if (self->cycle_momentum)
    {
      for (guint g = 0; g < n; g++)
        {
          double scale;

          if (!cyclic_scale (self, at, &scale, error))
            return NULL;
          moms[g] = self->max_momentums[g] - (self->max_momentums[g] - self->base_momentums[g]) * factor * scale;
        }
      if (!gnn_lr_scheduler_write_momentums (sched, self->use_beta1, moms, error))
        return NULL;
    }
  return g_steal_pointer (&lrs);
}

static GVariant *
group_doubles (const double *values,
               guint         n)
{
  return g_variant_new_fixed_array (G_VARIANT_TYPE_DOUBLE, values, values ? n : 0, sizeof (double));
}

static void
gnn_cyclic_lr_save_state (GnnLRScheduler *sched,
                          GVariantDict   *state)
{
  GnnCyclicLR *self = GNN_CYCLIC_LR (sched);
  guint n = gnn_lr_scheduler_n_groups (sched);

  GNN_LR_SCHEDULER_CLASS (gnn_cyclic_lr_parent_class)->save_state (sched, state);
  g_variant_dict_insert_value (state, "max_lrs", group_doubles (self->max_lrs, n));
  g_variant_dict_insert (state, "total_size", "d", self->total_size);
  g_variant_dict_insert (state, "step_ratio", "d", self->step_ratio);
  g_variant_dict_insert (state, "mode", "s", self->mode ? self->mode : "None");
  g_variant_dict_insert (state, "gamma", "d", self->gamma);
  g_variant_dict_insert (state, "scale_mode", "s", self->scale_mode ? self->scale_mode : "None");
  g_variant_dict_insert (state, "cycle_momentum", "b", self->cycle_momentum);
  if (self->cycle_momentum)
    {
      g_variant_dict_insert_value (state, "base_momentums", group_doubles (self->base_momentums, n));
      g_variant_dict_insert_value (state, "max_momentums", group_doubles (self->max_momentums, n));
      g_variant_dict_insert (state, "use_beta1", "b", self->use_beta1);
    }
}

static gboolean
gnn_cyclic_lr_load_state (GnnLRScheduler *sched,
                          GVariantDict   *state,
                          GError        **error)
{
  GnnCyclicLR *self = GNN_CYCLIC_LR (sched);
  g_autofree double *max_lrs = NULL, *base_moms = NULL, *max_moms = NULL;
  g_autofree char *mode = g_strdup (self->mode), *scale_mode = g_strdup (self->scale_mode);
  double total_size = self->total_size, step_ratio = self->step_ratio, gamma = self->gamma;
  gboolean cycle = self->cycle_momentum, beta1 = self->use_beta1;
  guint n = gnn_lr_scheduler_n_groups (sched);

  if (!gnn_lr_state_get_group_doubles (sched, state, "max_lrs", &max_lrs, error) ||
      !gnn_lr_state_get_group_doubles (sched, state, "base_momentums", &base_moms, error) ||
      !gnn_lr_state_get_group_doubles (sched, state, "max_momentums", &max_moms, error) ||
      !gnn_lr_state_get_double (state, "total_size", &total_size, error) ||
      !gnn_lr_state_get_double (state, "step_ratio", &step_ratio, error) ||
      !gnn_lr_state_get_double (state, "gamma", &gamma, error) ||
      !gnn_lr_state_get_string (state, "mode", NULL, &mode, error) ||
      !gnn_lr_state_get_string (state, "scale_mode", NULL, &scale_mode, error) ||
      !gnn_lr_state_get_boolean (state, "cycle_momentum", &cycle, error) ||
      !gnn_lr_state_get_boolean (state, "use_beta1", &beta1, error))
    return FALSE;
  if (cycle && ((base_moms == NULL && self->base_momentums == NULL) ||
                (max_moms == NULL && self->max_momentums == NULL)))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "the loaded scheduler state cycles the momentum (\"cycle_momentum\" is True) but "
                   "has no \"base_momentums\" and \"max_momentums\"");
      return FALSE;
    }
  if (!GNN_LR_SCHEDULER_CLASS (gnn_cyclic_lr_parent_class)->load_state (sched, state, error))
    return FALSE;
  if (max_lrs)
    memcpy (self->max_lrs, max_lrs, n * sizeof (double));
  if (base_moms)
    {
      g_free (self->base_momentums);
      self->base_momentums = g_steal_pointer (&base_moms);
    }
  if (max_moms)
    {
      g_free (self->max_momentums);
      self->max_momentums = g_steal_pointer (&max_moms);
    }
  self->total_size = total_size;
  self->step_ratio = step_ratio;
  self->gamma = gamma;
  gnn_prop_set (self, &cyc_props[CYC_PROP_MODE], mode);
  gnn_prop_set (self, &cyc_props[CYC_PROP_SCALE_MODE], scale_mode);
  self->cycle_momentum = cycle;
  self->use_beta1 = beta1;
  return TRUE;
}

static void
gnn_cyclic_lr_class_init (GnnCyclicLRClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GnnLRSchedulerClass *sched_class = GNN_LR_SCHEDULER_CLASS (klass);
  GnnLRSchedulerHooks *hooks = gnn_lr_scheduler_class_get_hooks (sched_class);
  const double base_momentum = 0.8, max_momentum = 0.9;

  object_class->finalize = gnn_cyclic_lr_finalize;
  sched_class->save_state = gnn_cyclic_lr_save_state;
  sched_class->load_state = gnn_cyclic_lr_load_state;
  hooks->init = gnn_cyclic_lr_init_hook;
  hooks->get_lr = gnn_cyclic_lr_get_lr;

  /**
   * GnnCyclicLR:base-lr:
   *
   * The lower rate of the cycle (`base_lr`), a #GVariant `ad`: one value for every group, or
   * one per group. Required.
   *
   * Since: 0.1
   */
  cyc_props[CYC_PROP_BASE_LR] = (GnnProp) {
    gnn_param_spec_doubles ("base-lr", NULL, GNN_LR_ARGUMENT), G_STRUCT_OFFSET (GnnCyclicLR, base_lr) };
  /**
   * GnnCyclicLR:max-lr:
   *
   * The upper rate of the cycle (`max_lr`), a #GVariant `ad`: one value or one per group.
   * Required.
   *
   * Since: 0.1
   */
  cyc_props[CYC_PROP_MAX_LR] = (GnnProp) {
    gnn_param_spec_doubles ("max-lr", NULL, GNN_LR_ARGUMENT), G_STRUCT_OFFSET (GnnCyclicLR, max_lr) };
  /**
   * GnnCyclicLR:step-size-up:
   *
   * The number of steps of the rising half of a cycle (`step_size_up`).
   *
   * Since: 0.1
   */
  cyc_props[CYC_PROP_STEP_SIZE_UP] = gnn_lr_prop_double ("step-size-up", 2000, GNN_LR_ARGUMENT,
                                                         G_STRUCT_OFFSET (GnnCyclicLR, step_size_up));
  /**
   * GnnCyclicLR:step-size-down:
   *
   * The number of steps of the falling half of a cycle (`step_size_down`); negative (-1, the
   * default, for None) for [property@Gnn.CyclicLR:step-size-up].
   *
   * Since: 0.1
   */
  cyc_props[CYC_PROP_STEP_SIZE_DOWN] = gnn_lr_prop_double ("step-size-down", -1, GNN_LR_ARGUMENT,
                                                           G_STRUCT_OFFSET (GnnCyclicLR, step_size_down));
  /**
   * GnnCyclicLR:mode:
   *
   * The scaling policy (`mode`): "triangular", "triangular2" or "exp_range"; ignored when
   * [property@Gnn.CyclicLR:scale-fn] is set.
   *
   * Since: 0.1
   */
  cyc_props[CYC_PROP_MODE] = (GnnProp) {
    g_param_spec_string ("mode", NULL, NULL, "triangular", GNN_LR_ARGUMENT), G_STRUCT_OFFSET (GnnCyclicLR, mode) };
  /**
   * GnnCyclicLR:gamma:
   *
   * The base of the "exp_range" scale, `gamma ** step` (`gamma`).
   *
   * Since: 0.1
   */
  cyc_props[CYC_PROP_GAMMA] = gnn_lr_prop_double ("gamma", 1.0, GNN_LR_ARGUMENT, G_STRUCT_OFFSET (GnnCyclicLR, gamma));
  /**
   * GnnCyclicLR:scale-fn:
   *
   * A custom scale of the amplitude (`scale_fn`), in [0, 1]: a #GClosure taking a `double`
   * (the cycle, from 1, or the step, as [property@Gnn.CyclicLR:scale-mode] says) and
   * returning a `double`; %NULL (the default) for the [property@Gnn.CyclicLR:mode]'s. A
   * floating reference is taken; a closure without a marshaller (g_cclosure_new()) gets
   * g_cclosure_marshal_generic().
   *
   * Since: 0.1
   */
  cyc_props[CYC_PROP_SCALE_FN] = (GnnProp) {
    g_param_spec_boxed ("scale-fn", NULL, NULL, G_TYPE_CLOSURE, GNN_LR_ARGUMENT),
    GNN_PROP_NO_MEMBER, NULL, scale_fn_get, scale_fn_set };
  /**
   * GnnCyclicLR:scale-mode:
   *
   * What [property@Gnn.CyclicLR:scale-fn] is given (`scale_mode`): "cycle" or "iterations";
   * without a scale function, the [property@Gnn.CyclicLR:mode]'s ("iterations" for
   * "exp_range", "cycle" otherwise), which initialisation sets.
   *
   * Since: 0.1
   */
  cyc_props[CYC_PROP_SCALE_MODE] = (GnnProp) {
    g_param_spec_string ("scale-mode", NULL, NULL, "cycle", GNN_LR_ARGUMENT),
    G_STRUCT_OFFSET (GnnCyclicLR, scale_mode) };
  /**
   * GnnCyclicLR:cycle-momentum:
   *
   * Whether the momentum (or the first beta) cycles too, inversely to the rate
   * (`cycle_momentum`).
   *
   * Since: 0.1
   */
  cyc_props[CYC_PROP_CYCLE_MOMENTUM] = (GnnProp) {
    g_param_spec_boolean ("cycle-momentum", NULL, NULL, TRUE, GNN_LR_ARGUMENT),
    G_STRUCT_OFFSET (GnnCyclicLR, cycle_momentum) };
  /**
   * GnnCyclicLR:base-momentum:
   *
   * The lower momentum (`base_momentum`), a #GVariant `ad`: one value or one per group;
   * PyTorch's default is 0.8.
   *
   * Since: 0.1
   */
  cyc_props[CYC_PROP_BASE_MOMENTUM] = (GnnProp) {
    gnn_param_spec_doubles ("base-momentum", gnn_prop_new_doubles (&base_momentum, 1), GNN_LR_ARGUMENT),
    G_STRUCT_OFFSET (GnnCyclicLR, base_momentum) };
  /**
   * GnnCyclicLR:max-momentum:
   *
   * The upper momentum (`max_momentum`), a #GVariant `ad`: one value or one per group;
   * PyTorch's default is 0.9.
   *
   * Since: 0.1
   */
  cyc_props[CYC_PROP_MAX_MOMENTUM] = (GnnProp) {
    gnn_param_spec_doubles ("max-momentum", gnn_prop_new_doubles (&max_momentum, 1), GNN_LR_ARGUMENT),
    G_STRUCT_OFFSET (GnnCyclicLR, max_momentum) };
  gnn_props_install (object_class, cyc_props, CYC_N_PROPS);
}

static void
gnn_cyclic_lr_init (GnnCyclicLR *self)
{
}

/**
 * gnn_cyclic_lr_new:
 * @optimizer: the optimizer whose groups to schedule
 * @base_lr: (array length=n_base_lr): the lower rate: one value for every group, or one per
 *   group
 * @n_base_lr: the number of values in @base_lr
 * @max_lr: (array length=n_max_lr): the upper rate: one value or one per group
 * @n_max_lr: the number of values in @max_lr
 * @step_size_up: the steps of the rising half of a cycle (PyTorch's default: 2000)
 * @step_size_down: the steps of the falling half, or a negative value (None) for
 *   @step_size_up
 * @mode: (nullable): "triangular" (the default, for %NULL), "triangular2" or "exp_range"
 * @gamma: the base of the "exp_range" scale (default: 1)
 * @scale_fn: (nullable): a custom scale, a #GClosure of a `double` returning a `double`, or
 *   %NULL for the @mode's; a floating reference is sunk
 * @scale_mode: (nullable): what @scale_fn is given, "cycle" (the default, for %NULL) or
 *   "iterations"
 * @cycle_momentum: whether to cycle the momentum inversely to the rate (default: %TRUE)
 * @base_momentum: (array length=n_base_momentum) (nullable): the lower momentum, one value
 *   or one per group; %NULL for PyTorch's default, 0.8
 * @n_base_momentum: the number of values in @base_momentum
 * @max_momentum: (array length=n_max_momentum) (nullable): the upper momentum, one value or
 *   one per group; %NULL for PyTorch's default, 0.9
 * @n_max_momentum: the number of values in @max_momentum
 * @last_epoch: -1 for a new schedule, or the number of batches to resume after
 * @error: return location for a #GError
 *
 * Creates a cyclical scheduler (`CyclicLR (optimizer, base_lr, max_lr, step_size_up,
 * step_size_down, mode, gamma, scale_fn, scale_mode, cycle_momentum, base_momentum,
 * max_momentum, last_epoch)`), which sets the groups' rates (and momenta) to the base ones
 * when @last_epoch is -1, and performs its initial step.
 *
 * Returns: (transfer full) (nullable): the scheduler, or %NULL with @error set: a list of
 *   values of the wrong length, an unknown @mode without @scale_fn ("mode is invalid and
 *   scale_fn is None"), @cycle_momentum with an optimizer that has neither `momentum` nor
 *   `betas`, or a group lacks `initial_lr` when resuming
 *
 * Since: 0.1
 */
GnnCyclicLR *
gnn_cyclic_lr_new (GnnOptimizer  *optimizer,
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
                   GError       **error)
{
  const double default_base = 0.8, default_max = 0.9;

  g_return_val_if_fail (GNN_IS_OPTIMIZER (optimizer), NULL);
  g_return_val_if_fail (base_lr != NULL || n_base_lr == 0, NULL);
  g_return_val_if_fail (max_lr != NULL || n_max_lr == 0, NULL);
  if (base_momentum == NULL || n_base_momentum == 0)
    base_momentum = &default_base, n_base_momentum = 1;
  if (max_momentum == NULL || n_max_momentum == 0)
    max_momentum = &default_max, n_max_momentum = 1;
  return g_initable_new (GNN_TYPE_CYCLIC_LR, NULL, error, "optimizer", optimizer, "last-epoch", last_epoch,
                         "base-lr", gnn_prop_new_doubles (base_lr, n_base_lr),
                         "max-lr", gnn_prop_new_doubles (max_lr, n_max_lr),
                         "step-size-up", step_size_up, "step-size-down", step_size_down,
                         "mode", mode ? mode : "triangular", "gamma", gamma, "scale-fn", scale_fn,
                         "scale-mode", scale_mode ? scale_mode : "cycle", "cycle-momentum", cycle_momentum,
                         "base-momentum", gnn_prop_new_doubles (base_momentum, n_base_momentum),
                         "max-momentum", gnn_prop_new_doubles (max_momentum, n_max_momentum), NULL);
}

/* ====================================================================================== */
/* ReduceLROnPlateau                                                                      */
/* ====================================================================================== */

/**
 * GnnReduceLROnPlateau:
 *
 * Reduces the learning rate of every group when a metric stops improving
 * (`torch.optim.lr_scheduler.ReduceLROnPlateau`): each epoch, give the metric (a validation
 * loss, say) to [method@Gnn.ReduceLROnPlateau.step_with_metric]; after more than
 * [property@Gnn.ReduceLROnPlateau:patience] epochs without improvement, every rate is
 * multiplied by [property@Gnn.ReduceLROnPlateau:factor], down to
 * [property@Gnn.ReduceLROnPlateau:min-lr], and the scheduler waits
 * [property@Gnn.ReduceLROnPlateau:cooldown] epochs before counting again. An improvement
 * is a metric below the best one (above it in "max" [property@Gnn.ReduceLROnPlateau:mode])
 * by more than [property@Gnn.ReduceLROnPlateau:threshold], relative or absolute as
 * [property@Gnn.ReduceLROnPlateau:threshold-mode] says; a reduction smaller than
 * [property@Gnn.ReduceLROnPlateau:eps] is skipped.
 *
 * In PyTorch 1.13 it is not an `LRScheduler`; in gnn it is one, as in current PyTorch, so
 * that [method@Gnn.LRScheduler.get_last_lr], the optimizer and the state work as for every
 * scheduler. Its plain [method@Gnn.LRScheduler.step] has no metric and fails. Construction
 * neither sets `initial_lr` nor steps: [property@Gnn.LRScheduler:last-epoch] starts at 0,
 * and the base rates are empty.
 *
 * Its state is PyTorch's: `factor` (`d`), `min_lrs` (`ad`), `patience` (`x`), `cooldown`
 * (`x`), `cooldown_counter` (`x`), `mode` (`s`), `threshold` (`d`), `threshold_mode` (`s`),
 * `best` (`d`), `num_bad_epochs` (`x`), `mode_worse` (`d`), `eps` (`d`), `last_epoch` (`x`)
 * and, once it has stepped, `_last_lr` (`ad`).
 *
 * Since: 0.1
 */
struct _GnnReduceLROnPlateau
{
  GnnLRScheduler parent_instance;

  char *mode;
  double factor;
  int patience;
  double threshold;
  char *threshold_mode;
  int cooldown;
  GVariant *min_lr;   /* 'ad': one value or one per group */
  double eps;

  double *min_lrs;    /* one per group */
  int cooldown_counter;
  int num_bad_epochs;
  double best;
  double mode_worse;
  gboolean stepped;
};

G_DEFINE_FINAL_TYPE (GnnReduceLROnPlateau, gnn_reduce_lr_on_plateau, GNN_TYPE_LR_SCHEDULER)

enum {
  PLAT_PROP_0,
  PLAT_PROP_MODE,
  PLAT_PROP_FACTOR,
  PLAT_PROP_PATIENCE,
  PLAT_PROP_THRESHOLD,
  PLAT_PROP_THRESHOLD_MODE,
  PLAT_PROP_COOLDOWN,
  PLAT_PROP_MIN_LR,
  PLAT_PROP_EPS,
  PLAT_N_PROPS
};
static GnnProp plat_props[PLAT_N_PROPS];
static const char * const plat_modes[] = { "min", "max", NULL };
static const char * const plat_threshold_modes[] = { "rel", "abs", NULL };

static void
gnn_reduce_lr_on_plateau_finalize (GObject *object)
{
  g_free (GNN_REDUCE_LR_ON_PLATEAU (object)->min_lrs);
  G_OBJECT_CLASS (gnn_reduce_lr_on_plateau_parent_class)->finalize (object);
}

/* `_init_is_better`: checks the modes, and the worst value for the mode */
static gboolean
plateau_init_is_better (GnnReduceLROnPlateau *self,
                        const char           *mode,
                        const char           *threshold_mode,
                        GError              **error)
{
  if (!check_choice (mode, plat_modes, "mode ", " is unknown!", error) ||
      !check_choice (threshold_mode, plat_threshold_modes, "threshold mode ", " is unknown!", error))
    return FALSE;
  self->mode_worse = strcmp (mode, "min") == 0 ? INFINITY : -INFINITY;
  return TRUE;
}

static gboolean
gnn_reduce_lr_on_plateau_init_hook (GnnLRScheduler *sched,
                                    GError        **error)
{
  GnnReduceLROnPlateau *self = GNN_REDUCE_LR_ON_PLATEAU (sched);
  g_autofree double *min_lrs = NULL;
  guint n = 0;
  g_autofree double *lrs = NULL;

  if (self->factor >= 1.0)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT, "Factor should be < 1.0.");
      return FALSE;
    }
  if (!gnn_lr_scheduler_format_doubles (sched, "min_lr", self->min_lr, &min_lrs, error) ||
      !plateau_init_is_better (self, self->mode, self->threshold_mode, error))
    return FALSE;
  lrs = gnn_lr_scheduler_current_lrs (sched, &n, error);
  if (lrs == NULL)
    return FALSE;
  g_free (self->min_lrs);
  self->min_lrs = g_steal_pointer (&min_lrs);
  /* `_reset` */
  self->best = self->mode_worse;
  self->cooldown_counter = 0;
  self->num_bad_epochs = 0;
  gnn_lr_scheduler_set_last_epoch (sched, 0);
  gnn_lr_scheduler_set_last_lr (sched, lrs, n);
  return TRUE;
}

static gboolean
gnn_reduce_lr_on_plateau_step_hook (GnnLRScheduler *sched,
                                    GError        **error)
{
  g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
               "ReduceLROnPlateau.step() missing 1 required positional argument: 'metrics' "
               "(call gnn_reduce_lr_on_plateau_step_with_metric)");
  return FALSE;
}

static gboolean
plateau_is_better (GnnReduceLROnPlateau *self,
                   double                a,
                   double                best)
{
  gboolean rel = strcmp (self->threshold_mode, "rel") == 0;

  if (strcmp (self->mode, "min") == 0)
    return rel ? a < best * (1. - self->threshold) : a < best - self->threshold;
  return rel ? a > best * (self->threshold + 1.) : a > best + self->threshold;
}

static void
gnn_reduce_lr_on_plateau_save_state (GnnLRScheduler *sched,
                                     GVariantDict   *state)
{
  GnnReduceLROnPlateau *self = GNN_REDUCE_LR_ON_PLATEAU (sched);
  guint n = 0;
  g_autofree double *last_lr = gnn_lr_scheduler_get_last_lr (sched, &n);

  /* PyTorch's keys: not those of the base class */
  g_variant_dict_insert (state, "factor", "d", self->factor);
  g_variant_dict_insert_value (state, "min_lrs", group_doubles (self->min_lrs, gnn_lr_scheduler_n_groups (sched)));
  g_variant_dict_insert (state, "patience", "x", (gint64) self->patience);
  g_variant_dict_insert (state, "cooldown", "x", (gint64) self->cooldown);
  g_variant_dict_insert (state, "cooldown_counter", "x", (gint64) self->cooldown_counter);
  g_variant_dict_insert (state, "mode", "s", self->mode);
  g_variant_dict_insert (state, "threshold", "d", self->threshold);
  g_variant_dict_insert (state, "threshold_mode", "s", self->threshold_mode);
  g_variant_dict_insert (state, "best", "d", self->best);
  g_variant_dict_insert (state, "num_bad_epochs", "x", (gint64) self->num_bad_epochs);
  g_variant_dict_insert (state, "mode_worse", "d", self->mode_worse);
  g_variant_dict_insert (state, "eps", "d", self->eps);
  g_variant_dict_insert (state, "last_epoch", "x", (gint64) gnn_lr_scheduler_get_last_epoch (sched));
  if (self->stepped)
    g_variant_dict_insert_value (state, "_last_lr", group_doubles (last_lr, n));
}

static gboolean
gnn_reduce_lr_on_plateau_load_state (GnnLRScheduler *sched,
                                     GVariantDict   *state,
                                     GError        **error)
{
  GnnReduceLROnPlateau *self = GNN_REDUCE_LR_ON_PLATEAU (sched);
  g_autofree double *min_lrs = NULL, *last_lr = NULL;
  g_autofree char *mode = g_strdup (self->mode), *threshold_mode = g_strdup (self->threshold_mode);
  double factor = self->factor, threshold = self->threshold, best = self->best, eps = self->eps;
  double mode_worse = self->mode_worse;
  int patience = self->patience, cooldown = self->cooldown, counter = self->cooldown_counter;
  int bad = self->num_bad_epochs, last_epoch = gnn_lr_scheduler_get_last_epoch (sched);

  if (!gnn_lr_state_get_group_doubles (sched, state, "min_lrs", &min_lrs, error) ||
      !gnn_lr_state_get_group_doubles (sched, state, "_last_lr", &last_lr, error) ||
      !gnn_lr_state_get_double (state, "factor", &factor, error) ||
      !gnn_lr_state_get_double (state, "threshold", &threshold, error) ||
      !gnn_lr_state_get_double (state, "best", &best, error) ||
      !gnn_lr_state_get_double (state, "mode_worse", &mode_worse, error) ||
      !gnn_lr_state_get_double (state, "eps", &eps, error) ||
      !gnn_lr_state_get_int32 (state, "patience", &patience, error) ||
      !gnn_lr_state_get_int32 (state, "cooldown", &cooldown, error) ||
      !gnn_lr_state_get_int32 (state, "cooldown_counter", &counter, error) ||
      !gnn_lr_state_get_int32 (state, "num_bad_epochs", &bad, error) ||
      !gnn_lr_state_get_int32 (state, "last_epoch", &last_epoch, error) ||
      !gnn_lr_state_get_string (state, "mode", NULL, &mode, error) ||
      !gnn_lr_state_get_string (state, "threshold_mode", NULL, &threshold_mode, error))
    return FALSE;
  /* PyTorch's load_state_dict calls _init_is_better, which checks the modes and sets
   * mode_worse from the mode */
  if (!plateau_init_is_better (self, mode, threshold_mode, error))
    {
      self->mode_worse = mode_worse;
      return FALSE;
    }
  gnn_prop_set (self, &plat_props[PLAT_PROP_MODE], mode);
  gnn_prop_set (self, &plat_props[PLAT_PROP_THRESHOLD_MODE], threshold_mode);
  gnn_prop_set (self, &plat_props[PLAT_PROP_FACTOR], factor);
  gnn_prop_set (self, &plat_props[PLAT_PROP_THRESHOLD], threshold);
  gnn_prop_set (self, &plat_props[PLAT_PROP_EPS], eps);
  gnn_prop_set (self, &plat_props[PLAT_PROP_PATIENCE], patience);
  gnn_prop_set (self, &plat_props[PLAT_PROP_COOLDOWN], cooldown);
  if (min_lrs)
    {
      g_free (self->min_lrs);
      self->min_lrs = g_steal_pointer (&min_lrs);
    }
  if (last_lr)
    {
      gnn_lr_scheduler_set_last_lr (sched, last_lr, gnn_lr_scheduler_n_groups (sched));
      self->stepped = TRUE;
    }
  self->best = best;
  self->cooldown_counter = counter;
  self->num_bad_epochs = bad;
  gnn_lr_scheduler_set_last_epoch (sched, last_epoch);
  return TRUE;
}

static void
gnn_reduce_lr_on_plateau_class_init (GnnReduceLROnPlateauClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GnnLRSchedulerClass *sched_class = GNN_LR_SCHEDULER_CLASS (klass);
  GnnLRSchedulerHooks *hooks = gnn_lr_scheduler_class_get_hooks (sched_class);
  const double min_lr = 0;

  object_class->finalize = gnn_reduce_lr_on_plateau_finalize;
  sched_class->save_state = gnn_reduce_lr_on_plateau_save_state;
  sched_class->load_state = gnn_reduce_lr_on_plateau_load_state;
  hooks->init = gnn_reduce_lr_on_plateau_init_hook;
  hooks->step = gnn_reduce_lr_on_plateau_step_hook;

  /**
   * GnnReduceLROnPlateau:mode:
   *
   * "min" to reduce when the metric stops decreasing, "max" when it stops increasing
   * (`mode`).
   *
   * Since: 0.1
   */
  plat_props[PLAT_PROP_MODE] = (GnnProp) {
    g_param_spec_string ("mode", NULL, NULL, "min", GNN_LR_HYPERPARAMETER),
    G_STRUCT_OFFSET (GnnReduceLROnPlateau, mode) };
  /**
   * GnnReduceLROnPlateau:factor:
   *
   * The factor of each reduction (`factor`), below 1.
   *
   * Since: 0.1
   */
  plat_props[PLAT_PROP_FACTOR] = gnn_lr_prop_double ("factor", 0.1, GNN_LR_HYPERPARAMETER,
                                                     G_STRUCT_OFFSET (GnnReduceLROnPlateau, factor));
  /**
   * GnnReduceLROnPlateau:patience:
   *
   * The number of epochs without improvement to ignore before reducing (`patience`).
   *
   * Since: 0.1
   */
  plat_props[PLAT_PROP_PATIENCE] = gnn_lr_prop_int ("patience", 10, GNN_LR_HYPERPARAMETER,
                                                    G_STRUCT_OFFSET (GnnReduceLROnPlateau, patience), NULL);
  /**
   * GnnReduceLROnPlateau:threshold:
   *
   * How much better than the best a metric must be to count as an improvement
   * (`threshold`).
   *
   * Since: 0.1
   */
  plat_props[PLAT_PROP_THRESHOLD] = gnn_lr_prop_double ("threshold", 1e-4, GNN_LR_HYPERPARAMETER,
                                                        G_STRUCT_OFFSET (GnnReduceLROnPlateau, threshold));
  /**
   * GnnReduceLROnPlateau:threshold-mode:
   *
   * "rel" for a threshold relative to the best metric (`best * (1 - threshold)` in "min"
   * mode), "abs" for an absolute one (`best - threshold`) (`threshold_mode`).
   *
   * Since: 0.1
   */
  plat_props[PLAT_PROP_THRESHOLD_MODE] = (GnnProp) {
    g_param_spec_string ("threshold-mode", NULL, NULL, "rel", GNN_LR_HYPERPARAMETER),
    G_STRUCT_OFFSET (GnnReduceLROnPlateau, threshold_mode) };
  /**
   * GnnReduceLROnPlateau:cooldown:
   *
   * The number of epochs to wait after a reduction before counting bad epochs again
   * (`cooldown`).
   *
   * Since: 0.1
   */
  plat_props[PLAT_PROP_COOLDOWN] = gnn_lr_prop_int ("cooldown", 0, GNN_LR_HYPERPARAMETER,
                                                    G_STRUCT_OFFSET (GnnReduceLROnPlateau, cooldown), NULL);
  /**
   * GnnReduceLROnPlateau:min-lr:
   *
   * The lowest rate (`min_lr`), a #GVariant `ad`: one value for every group, or one per
   * group; read at initialisation.
   *
   * Since: 0.1
   */
  plat_props[PLAT_PROP_MIN_LR] = (GnnProp) {
    gnn_param_spec_doubles ("min-lr", gnn_prop_new_doubles (&min_lr, 1), GNN_LR_ARGUMENT),
    G_STRUCT_OFFSET (GnnReduceLROnPlateau, min_lr) };
  /**
   * GnnReduceLROnPlateau:eps:
   *
   * The smallest reduction applied (`eps`): a smaller one is skipped.
   *
   * Since: 0.1
   */
  plat_props[PLAT_PROP_EPS] = gnn_lr_prop_double ("eps", 1e-8, GNN_LR_HYPERPARAMETER,
                                                  G_STRUCT_OFFSET (GnnReduceLROnPlateau, eps));
  gnn_props_install (object_class, plat_props, PLAT_N_PROPS);
}

static void
gnn_reduce_lr_on_plateau_init (GnnReduceLROnPlateau *self)
{
}

/**
 * gnn_reduce_lr_on_plateau_new:
 * @optimizer: the optimizer whose groups to schedule
 * @mode: (nullable): "min" (the default, for %NULL) or "max"
 * @factor: the factor of each reduction, below 1 (PyTorch's default: 0.1)
 * @patience: the epochs without improvement to ignore (default: 10)
 * @threshold: the threshold of an improvement (default: 1e-4)
 * @threshold_mode: (nullable): "rel" (the default, for %NULL) or "abs"
 * @cooldown: the epochs to wait after a reduction (default: 0)
 * @min_lr: (array length=n_min_lr) (nullable): the lowest rate, one value or one per group;
 *   %NULL for PyTorch's default, 0
 * @n_min_lr: the number of values in @min_lr
 * @eps: the smallest reduction applied (default: 1e-8)
 * @error: return location for a #GError
 *
 * Creates a scheduler that reduces the rates when a metric stops improving
 * (`ReduceLROnPlateau (optimizer, mode, factor, patience, threshold, threshold_mode,
 * cooldown, min_lr, eps)`). It does not step: give it the metric of each epoch with
 * [method@Gnn.ReduceLROnPlateau.step_with_metric].
 *
 * Returns: (transfer full) (nullable): the scheduler, or %NULL with @error set, with
 *   PyTorch's messages: @factor is not below 1 ("Factor should be < 1.0."), an unknown mode
 *   ("mode avg is unknown!", "threshold mode rel2 is unknown!"), or a list of values of the
 *   wrong length
 *
 * Since: 0.1
 */
GnnReduceLROnPlateau *
gnn_reduce_lr_on_plateau_new (GnnOptimizer  *optimizer,
                              const char    *mode,
                              double         factor,
                              int            patience,
                              double         threshold,
                              const char    *threshold_mode,
                              int            cooldown,
                              const double  *min_lr,
                              guint          n_min_lr,
                              double         eps,
                              GError       **error)
{
  const double default_min = 0;

  g_return_val_if_fail (GNN_IS_OPTIMIZER (optimizer), NULL);
  if (min_lr == NULL || n_min_lr == 0)
    min_lr = &default_min, n_min_lr = 1;
  return g_initable_new (GNN_TYPE_REDUCE_LR_ON_PLATEAU, NULL, error, "optimizer", optimizer,
                         "mode", mode ? mode : "min", "factor", factor, "patience", patience,
                         "threshold", threshold, "threshold-mode", threshold_mode ? threshold_mode : "rel",
                         "cooldown", cooldown, "min-lr", gnn_prop_new_doubles (min_lr, n_min_lr), "eps", eps,
                         NULL);
}

/**
 * gnn_reduce_lr_on_plateau_step_with_metric:
 * @self: a scheduler
 * @metric: the metric of the epoch that ended, such as a validation loss
 * @error: return location for a #GError
 *
 * Ends an epoch with its metric (`scheduler.step (metrics)`): increments
 * [property@Gnn.LRScheduler:last-epoch], counts the epoch as bad unless @metric improves
 * on the best one, and after more than [property@Gnn.ReduceLROnPlateau:patience] bad epochs
 * (outside a cooldown) multiplies the rate of every group by
 * [property@Gnn.ReduceLROnPlateau:factor], no lower than its `min_lr`. A NaN metric is a
 * bad epoch. In Python, `scheduler.step (loss)` takes a float or a one-element tensor.
 *
 * Returns: %TRUE on success; %FALSE with @error set when a group has no numeric `lr`,
 *   leaving the scheduler unchanged
 *
 * Since: 0.1
 */
gboolean
gnn_reduce_lr_on_plateau_step_with_metric (GnnReduceLROnPlateau *self,
                                           double                metric,
                                           GError              **error)
{
  GnnLRScheduler *sched = (GnnLRScheduler *) self;
  GnnOptimizer *optimizer;
  g_autofree double *lrs = NULL;
  guint n = 0;

  g_return_val_if_fail (GNN_IS_REDUCE_LR_ON_PLATEAU (self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);
  if (!gnn_lr_scheduler_ensure_ready (sched, error))
    return FALSE;
  lrs = gnn_lr_scheduler_current_lrs (sched, &n, error);
  if (lrs == NULL)
    return FALSE;
  optimizer = gnn_lr_scheduler_get_optimizer (sched);
  gnn_lr_scheduler_set_last_epoch (sched, gnn_lr_scheduler_get_last_epoch (sched) + 1);
  if (plateau_is_better (self, metric, self->best))
    {
      self->best = metric;
      self->num_bad_epochs = 0;
    }
  else
    self->num_bad_epochs++;
  if (self->cooldown_counter > 0)
    {
      self->cooldown_counter--;
      self->num_bad_epochs = 0;   /* bad epochs in cooldown are ignored */
    }
  if (self->num_bad_epochs > self->patience)
    {
      for (guint g = 0; g < n; g++)
        {
          double old_lr = lrs[g], product = old_lr * self->factor;
          double new_lr = self->min_lrs[g] > product ? self->min_lrs[g] : product;   /* Python's max */

          if (old_lr - new_lr > self->eps)
            {
              gnn_param_group_set_double (gnn_optimizer_get_param_group (optimizer, g), "lr", new_lr);
              lrs[g] = new_lr;
            }
        }
      self->cooldown_counter = self->cooldown;
      self->num_bad_epochs = 0;
    }
  gnn_lr_scheduler_set_last_lr (sched, lrs, n);
  self->stepped = TRUE;
  return TRUE;
}

/**
 * gnn_reduce_lr_on_plateau_get_best:
 * @self: a scheduler
 *
 * The best metric so far (`best`): infinity in "min" mode (minus infinity in "max" mode)
 * before the first step.
 *
 * Returns: the best metric
 *
 * Since: 0.1
 */
double
gnn_reduce_lr_on_plateau_get_best (GnnReduceLROnPlateau *self)
{
  g_return_val_if_fail (GNN_IS_REDUCE_LR_ON_PLATEAU (self), 0);
  return self->best;
}

/**
 * gnn_reduce_lr_on_plateau_get_num_bad_epochs:
 * @self: a scheduler
 *
 * The number of bad epochs in a row (`num_bad_epochs`).
 *
 * Returns: the number of bad epochs
 *
 * Since: 0.1
 */
int
gnn_reduce_lr_on_plateau_get_num_bad_epochs (GnnReduceLROnPlateau *self)
{
  g_return_val_if_fail (GNN_IS_REDUCE_LR_ON_PLATEAU (self), 0);
  return self->num_bad_epochs;
}

/**
 * gnn_reduce_lr_on_plateau_get_cooldown_counter:
 * @self: a scheduler
 *
 * The epochs left in the cooldown (`cooldown_counter`).
 *
 * Returns: the epochs left
 *
 * Since: 0.1
 */
int
gnn_reduce_lr_on_plateau_get_cooldown_counter (GnnReduceLROnPlateau *self)
{
  g_return_val_if_fail (GNN_IS_REDUCE_LR_ON_PLATEAU (self), 0);
  return self->cooldown_counter;
}

/**
 * gnn_reduce_lr_on_plateau_in_cooldown:
 * @self: a scheduler
 *
 * Whether the scheduler is waiting after a reduction (`in_cooldown`).
 *
 * Returns: %TRUE in a cooldown
 *
 * Since: 0.1
 */
gboolean
gnn_reduce_lr_on_plateau_in_cooldown (GnnReduceLROnPlateau *self)
{
  g_return_val_if_fail (GNN_IS_REDUCE_LR_ON_PLATEAU (self), FALSE);
  return self->cooldown_counter > 0;
}

/**
 * gnn_reduce_lr_on_plateau_get_min_lrs:
 * @self: a scheduler
 * @n_min_lrs: (out): return location for the number of values, one per parameter group
 *
 * The lowest rate of every group (`min_lrs`).
 *
 * Returns: (array length=n_min_lrs) (transfer full) (nullable): the rates
 *
 * Since: 0.1
 */
double *
gnn_reduce_lr_on_plateau_get_min_lrs (GnnReduceLROnPlateau *self,
                                      guint                *n_min_lrs)
{
  g_return_val_if_fail (n_min_lrs != NULL, NULL);
  *n_min_lrs = 0;
  g_return_val_if_fail (GNN_IS_REDUCE_LR_ON_PLATEAU (self), NULL);
  if (self->min_lrs == NULL)
    return NULL;
  *n_min_lrs = gnn_lr_scheduler_n_groups (GNN_LR_SCHEDULER (self));
  return g_memdup2 (self->min_lrs, *n_min_lrs * sizeof (double));
}
