/* gnn-lr-schedulers.c: StepLR, MultiStepLR, ExponentialLR, CosineAnnealingLR, LinearLR,
 * LambdaLR and MultiplicativeLR (torch.optim.lr_scheduler)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Each class describes its hyperparameters once, in a field table (gnn-props-private.h),
 * and names those the base class saves in the state (GnnLRSchedulerHooks.state_props).
 */
#include "config.h"

#include <math.h>

#include "gnn-lr-scheduler-private.h"
#include "nn/gnn-props-private.h"

/* Python's floor division */
static gint64
floor_div (gint64 a,
           gint64 b)
{
  gint64 q = a / b;

  if ((a % b != 0) && ((a < 0) != (b < 0)))
    q--;
  return q;
}

/* ====================================================================================== */
/* StepLR                                                                                 */
/* ====================================================================================== */

/**
 * GnnStepLR:
 *
 * Decays the learning rate of every group by [property@Gnn.StepLR:gamma] every
 * [property@Gnn.StepLR:step-size] epochs (`torch.optim.lr_scheduler.StepLR`). Other
 * changes to the learning rates made meanwhile are kept, as the decay multiplies the
 * current rates.
 *
 * Its state adds `step_size` (`x`) and `gamma` (`d`).
 */
struct _GnnStepLR
{
  GnnLRScheduler parent_instance;

  int step_size;
  double gamma;
};

G_DEFINE_FINAL_TYPE (GnnStepLR, gnn_step_lr, GNN_TYPE_LR_SCHEDULER)

enum { STEP_PROP_0, STEP_PROP_STEP_SIZE, STEP_PROP_GAMMA, STEP_N_PROPS };
static GnnProp step_props[STEP_N_PROPS];
static const char * const step_state[] = { "step-size", "step_size", "gamma", "gamma", NULL };

static double *
gnn_step_lr_get_lr (GnnLRScheduler *sched,
                    guint          *n_lrs,
                    GError        **error)
{
  GnnStepLR *self = GNN_STEP_LR (sched);
  int e = gnn_lr_scheduler_get_last_epoch (sched);
  double *lrs = gnn_lr_scheduler_current_lrs (sched, n_lrs, error);

  if (lrs == NULL || e == 0 || e % self->step_size != 0)
    return lrs;
  return gnn_lr_scale (lrs, *n_lrs, self->gamma);
}

static double *
gnn_step_lr_closed_form (GnnLRScheduler *sched,
                         guint          *n_lrs,
                         GError        **error)
{
  GnnStepLR *self = GNN_STEP_LR (sched);
  double *lrs = gnn_lr_scheduler_base_lrs_or_empty (sched, n_lrs);
  double factor = pow (self->gamma, (double) floor_div (gnn_lr_scheduler_get_last_epoch (sched),
                                                         self->step_size));

  return gnn_lr_scale (lrs, *n_lrs, factor);
}

static void
gnn_step_lr_class_init (GnnStepLRClass *klass)
{
  GnnLRSchedulerHooks *hooks = gnn_lr_scheduler_class_get_hooks (GNN_LR_SCHEDULER_CLASS (klass));

  hooks->get_lr = gnn_step_lr_get_lr;
  hooks->closed_form_lr = gnn_step_lr_closed_form;
  hooks->state_props = step_state;

  /**
   * GnnStepLR:step-size:
   *
   * The period of the decay, in epochs (`step_size`); positive ("Expected positive
   * integer step_size, but got 0" otherwise, from [method@Gio.Initable.init] and the
   * next step).
   */
  step_props[STEP_PROP_STEP_SIZE] = gnn_lr_prop_int ("step-size", 1, GNN_LR_HYPERPARAMETER,
                                                     G_STRUCT_OFFSET (GnnStepLR, step_size),
                                                     gnn_lr_check_positive_int);
  /**
   * GnnStepLR:gamma:
   *
   * The factor of each decay (`gamma`).
   */
  step_props[STEP_PROP_GAMMA] = gnn_lr_prop_double ("gamma", 0.1, GNN_LR_HYPERPARAMETER,
                                                    G_STRUCT_OFFSET (GnnStepLR, gamma));
  gnn_props_install (G_OBJECT_CLASS (klass), step_props, STEP_N_PROPS);
}

static void
gnn_step_lr_init (GnnStepLR *self)
{
}

/**
 * gnn_step_lr_new:
 * @optimizer: the optimizer whose groups to schedule
 * @step_size: the period of the decay, in epochs
 * @gamma: the factor of each decay (PyTorch's default: 0.1)
 * @last_epoch: -1 for a new schedule, or the epoch to resume after
 * @error: return location for a #GError
 *
 * Creates a scheduler that multiplies the learning rates by @gamma every @step_size
 * epochs (`StepLR (optimizer, step_size, gamma, last_epoch)`), and performs its initial
 * step. With `lr` 0.05, `step_size` 30 and `gamma` 0.1: 0.05 for epochs 0 to 29, 0.005 for
 * epochs 30 to 59, and so on.
 *
 * Returns: (transfer full) (nullable): the scheduler, or %NULL with @error set: @step_size
 *   is not positive, or a group lacks `initial_lr` when resuming
 */
GnnStepLR *
gnn_step_lr_new (GnnOptimizer *optimizer,
                 int           step_size,
                 double        gamma,
                 int           last_epoch,
                 GError      **error)
{
  g_return_val_if_fail (GNN_IS_OPTIMIZER (optimizer), NULL);
  return g_initable_new (GNN_TYPE_STEP_LR, NULL, error, "optimizer", optimizer, "last-epoch", last_epoch,
                         "step-size", step_size, "gamma", gamma, NULL);
}

/* ====================================================================================== */
/* MultiStepLR                                                                            */
/* ====================================================================================== */

/**
 * GnnMultiStepLR:
 *
 * Decays the learning rate of every group by [property@Gnn.MultiStepLR:gamma] at each
 * milestone epoch (`torch.optim.lr_scheduler.MultiStepLR`); a milestone given twice decays
 * twice, as PyTorch's `Counter` of milestones does.
 *
 * Its state adds `milestones` (`a{xx}`: epoch → how many times it was given, PyTorch's
 * `Counter`) and `gamma` (`d`).
 */
struct _GnnMultiStepLR
{
  GnnLRScheduler parent_instance;

  GVariant *milestones;   /* 'ax', in any order, repeated */
  double gamma;
};

G_DEFINE_FINAL_TYPE (GnnMultiStepLR, gnn_multi_step_lr, GNN_TYPE_LR_SCHEDULER)

enum { MULTI_PROP_0, MULTI_PROP_MILESTONES, MULTI_PROP_GAMMA, MULTI_N_PROPS };
static GnnProp multi_props[MULTI_N_PROPS];
static const char * const multi_state[] = { "gamma", "gamma", NULL };

/* how many milestones are @e (@at_most: at most @e) */
static int
count_milestones (GnnMultiStepLR *self,
                  int             e,
                  gboolean        at_most)
{
  gsize n;
  const gint64 *m = gnn_prop_int64s (self->milestones, &n);
  int count = 0;

  for (gsize i = 0; i < n; i++)
    count += at_most ? m[i] <= e : m[i] == e;
  return count;
}

static double *
gnn_multi_step_lr_get_lr (GnnLRScheduler *sched,
                          guint          *n_lrs,
                          GError        **error)
{
  GnnMultiStepLR *self = GNN_MULTI_STEP_LR (sched);
  int count = count_milestones (self, gnn_lr_scheduler_get_last_epoch (sched), FALSE);
  double *lrs = gnn_lr_scheduler_current_lrs (sched, n_lrs, error);
  double factor;

  if (lrs == NULL || count == 0)
    return lrs;
  factor = pow (self->gamma, count);
  return gnn_lr_scale (lrs, *n_lrs, factor);
}

static double *
gnn_multi_step_lr_closed_form (GnnLRScheduler *sched,
                               guint          *n_lrs,
                               GError        **error)
{
  GnnMultiStepLR *self = GNN_MULTI_STEP_LR (sched);
  double *lrs = gnn_lr_scheduler_base_lrs_or_empty (sched, n_lrs);
  /* bisect_right over the sorted milestones */
  double factor = pow (self->gamma, count_milestones (self, gnn_lr_scheduler_get_last_epoch (sched), TRUE));

  return gnn_lr_scale (lrs, *n_lrs, factor);
}

static void
gnn_multi_step_lr_save_state (GnnLRScheduler *sched,
                              GVariantDict   *state)
{
  GnnMultiStepLR *self = GNN_MULTI_STEP_LR (sched);
  g_auto(GVariantBuilder) counter = G_VARIANT_BUILDER_INIT (G_VARIANT_TYPE ("a{xx}"));
  guint n;
  g_autofree int *m = gnn_lr_milestones_get (self->milestones, TRUE, &n);

  GNN_LR_SCHEDULER_CLASS (gnn_multi_step_lr_parent_class)->save_state (sched, state);
  for (guint i = 0; i < n;)
    {
      int epoch = m[i];
      gint64 count = 0;

      while (i < n && m[i] == epoch)
        count++, i++;
      g_variant_builder_add (&counter, "{xx}", (gint64) epoch, count);
    }
  g_variant_dict_insert_value (state, "milestones", g_variant_builder_end (&counter));
}

/* milestones from a loaded Counter ("a{xx}" or any integer dict) or a list of integers, as
 * an 'ax' (floating) */
static gboolean
load_milestones (GVariantDict *state,
                 GVariant    **out,
                 GError      **error)
{
  g_autoptr(GVariant) v = g_variant_dict_lookup_value (state, "milestones", NULL);
  g_autoptr(GArray) m = NULL;
  gsize n;

  *out = NULL;
  if (v == NULL)
    return TRUE;
  m = g_array_new (FALSE, FALSE, sizeof (int));
  if (!g_variant_is_of_type (v, G_VARIANT_TYPE_ARRAY))
    goto bad;
  n = g_variant_n_children (v);
  for (gsize i = 0; i < n; i++)
    {
      g_autoptr(GVariant) child = g_variant_get_child_value (v, i);
      g_autoptr(GVariant) key = NULL, count = NULL;
      gint64 k = 0, c = 1;

      if (g_variant_is_of_type (child, G_VARIANT_TYPE_DICT_ENTRY))
        {
          key = g_variant_get_child_value (child, 0);
          count = g_variant_get_child_value (child, 1);
        }
      else
        key = g_variant_ref (child);
      if (!gnn_lr_variant_get_integer (key, &k) || k < G_MININT || k > G_MAXINT ||
          (count && !gnn_lr_variant_get_integer (count, &c)) || c < 0 || c > 1000000)
        goto bad;
      for (gint64 j = 0; j < c; j++)
        {
          int mk = (int) k;

          g_array_append_val (m, mk);
        }
    }
  *out = gnn_lr_milestones_new ((const int *) m->data, m->len);
  return TRUE;

bad:
  g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
               "\"milestones\" in the loaded scheduler state is a '%s', expected a Counter "
               "of epochs ('a{xx}') or a list of integers", g_variant_get_type_string (v));
  return FALSE;
}

static gboolean
gnn_multi_step_lr_load_state (GnnLRScheduler *sched,
                              GVariantDict   *state,
                              GError        **error)
{
  g_autoptr(GVariant) milestones = NULL;

  if (!load_milestones (state, &milestones, error))
    return FALSE;
  if (milestones)
    g_variant_ref_sink (milestones);
  if (!GNN_LR_SCHEDULER_CLASS (gnn_multi_step_lr_parent_class)->load_state (sched, state, error))
    return FALSE;
  if (milestones)
    gnn_prop_set (sched, &multi_props[MULTI_PROP_MILESTONES], milestones);
  return TRUE;
}

static void
gnn_multi_step_lr_class_init (GnnMultiStepLRClass *klass)
{
  GnnLRSchedulerClass *sched_class = GNN_LR_SCHEDULER_CLASS (klass);
  GnnLRSchedulerHooks *hooks = gnn_lr_scheduler_class_get_hooks (sched_class);

  sched_class->save_state = gnn_multi_step_lr_save_state;
  sched_class->load_state = gnn_multi_step_lr_load_state;
  hooks->get_lr = gnn_multi_step_lr_get_lr;
  hooks->closed_form_lr = gnn_multi_step_lr_closed_form;
  hooks->state_props = multi_state;

  /**
   * GnnMultiStepLR:milestones:
   *
   * The epochs at which to decay (`milestones`), a #GVariant `ax` in any order; an epoch
   * given twice decays twice. %NULL for none.
   */
  multi_props[MULTI_PROP_MILESTONES] = (GnnProp) {
    gnn_param_spec_int64s ("milestones", GNN_LR_HYPERPARAMETER),
    G_STRUCT_OFFSET (GnnMultiStepLR, milestones), gnn_lr_check_milestones };
  /**
   * GnnMultiStepLR:gamma:
   *
   * The factor of each decay (`gamma`).
   */
  multi_props[MULTI_PROP_GAMMA] = gnn_lr_prop_double ("gamma", 0.1, GNN_LR_HYPERPARAMETER,
                                                      G_STRUCT_OFFSET (GnnMultiStepLR, gamma));
  gnn_props_install (G_OBJECT_CLASS (klass), multi_props, MULTI_N_PROPS);
}

static void
gnn_multi_step_lr_init (GnnMultiStepLR *self)
{
}

/**
 * gnn_multi_step_lr_new:
 * @optimizer: the optimizer whose groups to schedule
 * @milestones: (array length=n_milestones) (nullable): the epochs at which to decay
 * @n_milestones: the number of milestones
 * @gamma: the factor of each decay (PyTorch's default: 0.1)
 * @last_epoch: -1 for a new schedule, or the epoch to resume after
 * @error: return location for a #GError
 *
 * Creates a scheduler that multiplies the learning rates by @gamma when the epoch reaches
 * each milestone (`MultiStepLR (optimizer, milestones, gamma, last_epoch)`), and performs
 * its initial step. With `lr` 0.05, milestones 30 and 80 and `gamma` 0.1: 0.05 before epoch
 * 30, 0.005 until epoch 79, then 0.0005.
 *
 * Returns: (transfer full) (nullable): the scheduler, or %NULL with @error set (a group
 *   lacks `initial_lr` when resuming)
 */
GnnMultiStepLR *
gnn_multi_step_lr_new (GnnOptimizer *optimizer,
                       const int    *milestones,
                       guint         n_milestones,
                       double        gamma,
                       int           last_epoch,
                       GError      **error)
{
  g_return_val_if_fail (GNN_IS_OPTIMIZER (optimizer), NULL);
  g_return_val_if_fail (milestones != NULL || n_milestones == 0, NULL);
  return g_initable_new (GNN_TYPE_MULTI_STEP_LR, NULL, error, "optimizer", optimizer,
                         "last-epoch", last_epoch,
                         "milestones", gnn_lr_milestones_new (milestones, n_milestones),
                         "gamma", gamma, NULL);
}

/**
 * gnn_multi_step_lr_get_milestones:
 * @self: a scheduler
 * @n_milestones: (out): return location for the number of milestones
 *
 * The milestones, sorted, each as many times as it was given.
 *
 * Returns: (array length=n_milestones) (transfer full) (nullable): the milestones
 */
int *
gnn_multi_step_lr_get_milestones (GnnMultiStepLR *self,
                                  guint          *n_milestones)
{
  g_return_val_if_fail (n_milestones != NULL, NULL);
  *n_milestones = 0;
  g_return_val_if_fail (GNN_IS_MULTI_STEP_LR (self), NULL);
  return gnn_lr_milestones_get (self->milestones, TRUE, n_milestones);
}

/* ====================================================================================== */
/* ExponentialLR                                                                          */
/* ====================================================================================== */

/**
 * GnnExponentialLR:
 *
 * Decays the learning rate of every group by [property@Gnn.ExponentialLR:gamma] every
 * epoch (`torch.optim.lr_scheduler.ExponentialLR`).
 *
 * As current PyTorch (and unlike 1.13, which tested `last_epoch == 0`), the initial step
 * leaves the rates alone, so that a scheduler created to resume (`last_epoch` ≥ 0) does not
 * decay once more.
 *
 * Its state adds `gamma` (`d`).
 */
struct _GnnExponentialLR
{
  GnnLRScheduler parent_instance;

  double gamma;
};

G_DEFINE_FINAL_TYPE (GnnExponentialLR, gnn_exponential_lr, GNN_TYPE_LR_SCHEDULER)

enum { EXP_PROP_0, EXP_PROP_GAMMA, EXP_N_PROPS };
static GnnProp exp_props[EXP_N_PROPS];
static const char * const exp_state[] = { "gamma", "gamma", NULL };

static double *
gnn_exponential_lr_get_lr (GnnLRScheduler *sched,
                           guint          *n_lrs,
                           GError        **error)
{
  GnnExponentialLR *self = GNN_EXPONENTIAL_LR (sched);
  double *lrs = gnn_lr_scheduler_current_lrs (sched, n_lrs, error);

  if (lrs == NULL || gnn_lr_scheduler_is_initial_step (sched))
    return lrs;
  return gnn_lr_scale (lrs, *n_lrs, self->gamma);
}

static double *
gnn_exponential_lr_closed_form (GnnLRScheduler *sched,
                                guint          *n_lrs,
                                GError        **error)
{
  GnnExponentialLR *self = GNN_EXPONENTIAL_LR (sched);
  double *lrs = gnn_lr_scheduler_base_lrs_or_empty (sched, n_lrs);
  double factor = pow (self->gamma, gnn_lr_scheduler_get_last_epoch (sched));

  return gnn_lr_scale (lrs, *n_lrs, factor);
}

static void
gnn_exponential_lr_class_init (GnnExponentialLRClass *klass)
{
  GnnLRSchedulerHooks *hooks = gnn_lr_scheduler_class_get_hooks (GNN_LR_SCHEDULER_CLASS (klass));

  hooks->get_lr = gnn_exponential_lr_get_lr;
  hooks->closed_form_lr = gnn_exponential_lr_closed_form;
  hooks->state_props = exp_state;

  /**
   * GnnExponentialLR:gamma:
   *
   * The factor of the decay each epoch (`gamma`).
   */
  exp_props[EXP_PROP_GAMMA] = gnn_lr_prop_double ("gamma", 0.1, GNN_LR_HYPERPARAMETER,
                                                  G_STRUCT_OFFSET (GnnExponentialLR, gamma));
  gnn_props_install (G_OBJECT_CLASS (klass), exp_props, EXP_N_PROPS);
}

static void
gnn_exponential_lr_init (GnnExponentialLR *self)
{
}

/**
 * gnn_exponential_lr_new:
 * @optimizer: the optimizer whose groups to schedule
 * @gamma: the factor of the decay each epoch
 * @last_epoch: -1 for a new schedule, or the epoch to resume after
 * @error: return location for a #GError
 *
 * Creates a scheduler that multiplies the learning rates by @gamma every epoch
 * (`ExponentialLR (optimizer, gamma, last_epoch)`), and performs its initial step.
 *
 * Returns: (transfer full) (nullable): the scheduler, or %NULL with @error set (a group
 *   lacks `initial_lr` when resuming)
 */
GnnExponentialLR *
gnn_exponential_lr_new (GnnOptimizer *optimizer,
                        double        gamma,
                        int           last_epoch,
                        GError      **error)
{
  g_return_val_if_fail (GNN_IS_OPTIMIZER (optimizer), NULL);
  return g_initable_new (GNN_TYPE_EXPONENTIAL_LR, NULL, error, "optimizer", optimizer,
                         "last-epoch", last_epoch, "gamma", gamma, NULL);
}

/* ====================================================================================== */
/* CosineAnnealingLR                                                                      */
/* ====================================================================================== */

/**
 * GnnCosineAnnealingLR:
 *
 * Anneals the learning rate of every group along a cosine from its initial value down to
 * [property@Gnn.CosineAnnealingLR:eta-min] over [property@Gnn.CosineAnnealingLR:t-max]
 * epochs, and back up over the next `T_max`, and so on
 * (`torch.optim.lr_scheduler.CosineAnnealingLR`, the annealing of SGDR without restarts).
 *
 * The rate is computed with PyTorch's recursive (chainable) formula
 *
 * ```
 * lr(t) = eta_min + (lr(t-1) - eta_min) · (1 + cos(π t / T_max)) / (1 + cos(π (t-1) / T_max))
 * ```
 *
 * and `lr(t-1) + (base_lr - eta_min) · (1 - cos(π / T_max)) / 2` where the cosine turns
 * back up (`(t - 1 - T_max) % (2 T_max) == 0`), so it drifts from the closed form
 * `eta_min + (base_lr - eta_min) · (1 + cos(π t / T_max)) / 2` by rounding exactly as
 * PyTorch's does, and other changes to the rates are carried along. As current PyTorch
 * (and unlike 1.13), the initial step leaves the rates alone even when resuming.
 *
 * Its state adds `T_max` (`x`) and `eta_min` (`d`).
 */
struct _GnnCosineAnnealingLR
{
  GnnLRScheduler parent_instance;

  int t_max;
  double eta_min;
};

G_DEFINE_FINAL_TYPE (GnnCosineAnnealingLR, gnn_cosine_annealing_lr, GNN_TYPE_LR_SCHEDULER)

enum { COS_PROP_0, COS_PROP_T_MAX, COS_PROP_ETA_MIN, COS_N_PROPS };
static GnnProp cos_props[COS_N_PROPS];
static const char * const cos_state[] = { "t-max", "T_max", "eta-min", "eta_min", NULL };

static gboolean
check_t_max (GParamSpec   *pspec,
             const GValue *value,
             GError      **error)
{
  if (g_value_get_int (value) == 0)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "T_max must not be 0: the schedule divides by it (PyTorch raises "
                   "ZeroDivisionError at the first step)");
      return FALSE;
    }
  return TRUE;
}

static double *
gnn_cosine_annealing_lr_get_lr (GnnLRScheduler *sched,
                                guint          *n_lrs,
                                GError        **error)
{
  GnnCosineAnnealingLR *self = GNN_COSINE_ANNEALING_LR (sched);
  gint64 e = gnn_lr_scheduler_get_last_epoch (sched);
  double T = self->t_max, eta_min = self->eta_min;
  g_autofree double *base = NULL;
  guint n_base = 0;
  double *lrs = gnn_lr_scheduler_current_lrs (sched, n_lrs, error);

  if (lrs == NULL || gnn_lr_scheduler_is_initial_step (sched))
    return lrs;
  base = gnn_lr_scheduler_get_base_lrs (sched, &n_base);
  if (n_base != *n_lrs)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "the optimizer has %u parameter groups, the scheduler has %u base_lrs",
                   *n_lrs, n_base);
      g_free (lrs);
      return NULL;
    }
  if (gnn_lr_scheduler_get_step_count (sched) == 1 && e > 0)
    {
      for (guint g = 0; g < *n_lrs; g++)
        lrs[g] = eta_min + (base[g] - eta_min) * (1 + cos ((double) e * G_PI / T)) / 2;
    }
  else if ((e - 1 - self->t_max) % (2 * (gint64) self->t_max) == 0)
    {
      for (guint g = 0; g < *n_lrs; g++)
        lrs[g] = lrs[g] + (base[g] - eta_min) * (1 - cos (G_PI / T)) / 2;
    }
  else
    {
      double ratio = (1 + cos (G_PI * (double) e / T)) / (1 + cos (G_PI * (double) (e - 1) / T));

      for (guint g = 0; g < *n_lrs; g++)
        lrs[g] = ratio * (lrs[g] - eta_min) + eta_min;
    }
  return lrs;
}

static double *
gnn_cosine_annealing_lr_closed_form (GnnLRScheduler *sched,
                                     guint          *n_lrs,
                                     GError        **error)
{
  GnnCosineAnnealingLR *self = GNN_COSINE_ANNEALING_LR (sched);
  double e = gnn_lr_scheduler_get_last_epoch (sched);
  double *lrs = gnn_lr_scheduler_base_lrs_or_empty (sched, n_lrs);

  for (guint g = 0; g < *n_lrs; g++)
    lrs[g] = self->eta_min + (lrs[g] - self->eta_min) * (1 + cos (G_PI * e / self->t_max)) / 2;
  return lrs;
}

static void
gnn_cosine_annealing_lr_class_init (GnnCosineAnnealingLRClass *klass)
{
  GnnLRSchedulerHooks *hooks = gnn_lr_scheduler_class_get_hooks (GNN_LR_SCHEDULER_CLASS (klass));

  hooks->get_lr = gnn_cosine_annealing_lr_get_lr;
  hooks->closed_form_lr = gnn_cosine_annealing_lr_closed_form;
  hooks->state_props = cos_state;

  /**
   * GnnCosineAnnealingLR:t-max:
   *
   * The number of epochs of a half cosine (`T_max`); not 0.
   */
  cos_props[COS_PROP_T_MAX] = gnn_lr_prop_int ("t-max", 1, GNN_LR_HYPERPARAMETER,
                                               G_STRUCT_OFFSET (GnnCosineAnnealingLR, t_max), check_t_max);
  /**
   * GnnCosineAnnealingLR:eta-min:
   *
   * The lowest learning rate (`eta_min`).
   */
  cos_props[COS_PROP_ETA_MIN] = gnn_lr_prop_double ("eta-min", 0.0, GNN_LR_HYPERPARAMETER,
                                                    G_STRUCT_OFFSET (GnnCosineAnnealingLR, eta_min));
  gnn_props_install (G_OBJECT_CLASS (klass), cos_props, COS_N_PROPS);
}

static void
gnn_cosine_annealing_lr_init (GnnCosineAnnealingLR *self)
{
}

/**
 * gnn_cosine_annealing_lr_new:
 * @optimizer: the optimizer whose groups to schedule
 * @T_max: the number of epochs of a half cosine
 * @eta_min: the lowest learning rate (PyTorch's default: 0)
 * @last_epoch: -1 for a new schedule, or the epoch to resume after
 * @error: return location for a #GError
 *
 * Creates a cosine-annealing scheduler (`CosineAnnealingLR (optimizer, T_max, eta_min,
 * last_epoch)`) and performs its initial step.
 *
 * Returns: (transfer full) (nullable): the scheduler, or %NULL with @error set: @T_max is 0,
 *   or a group lacks `initial_lr` when resuming
 */
GnnCosineAnnealingLR *
gnn_cosine_annealing_lr_new (GnnOptimizer *optimizer,
                             int           T_max,
                             double        eta_min,
                             int           last_epoch,
                             GError      **error)
{
  g_return_val_if_fail (GNN_IS_OPTIMIZER (optimizer), NULL);
  return g_initable_new (GNN_TYPE_COSINE_ANNEALING_LR, NULL, error, "optimizer", optimizer,
                         "last-epoch", last_epoch, "t-max", T_max, "eta-min", eta_min, NULL);
}

/* ====================================================================================== */
/* LinearLR                                                                               */
/* ====================================================================================== */

/**
 * GnnLinearLR:
 *
 * Multiplies the learning rate of every group by a factor that changes linearly from
 * [property@Gnn.LinearLR:start-factor] to [property@Gnn.LinearLR:end-factor] over
 * [property@Gnn.LinearLR:total-iters] epochs (`torch.optim.lr_scheduler.LinearLR`), a
 * warm-up when the start factor is small. With `lr` 0.05, start factor 0.5 and 4 total
 * iterations: 0.025, 0.03125, 0.0375, 0.04375, then 0.05.
 *
 * The start factor must be greater than 0, as in current PyTorch (1.13 accepted 0, which
 * divides by zero at the next step).
 *
 * Its state adds `start_factor` (`d`), `end_factor` (`d`) and `total_iters` (`x`).
 */
struct _GnnLinearLR
{
  GnnLRScheduler parent_instance;

  double start_factor;
  double end_factor;
  int total_iters;
};

G_DEFINE_FINAL_TYPE (GnnLinearLR, gnn_linear_lr, GNN_TYPE_LR_SCHEDULER)

enum { LIN_PROP_0, LIN_PROP_START_FACTOR, LIN_PROP_END_FACTOR, LIN_PROP_TOTAL_ITERS, LIN_N_PROPS };
static GnnProp lin_props[LIN_N_PROPS];
static const char * const lin_state[] = {
  "start-factor", "start_factor", "end-factor", "end_factor", "total-iters", "total_iters", NULL
};

static gboolean
gnn_linear_lr_prepare (GnnLRScheduler *sched,
                       GError        **error)
{
  GnnLinearLR *self = GNN_LINEAR_LR (sched);

  if (!(self->start_factor > 0 && self->start_factor <= 1.0))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "Starting multiplicative factor expected to be greater than 0 and less or "
                   "equal to 1.");
      return FALSE;
    }
  if (!(self->end_factor >= 0 && self->end_factor <= 1.0))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "Ending multiplicative factor expected to be between 0 and 1.");
      return FALSE;
    }
  return TRUE;
}

static double *
gnn_linear_lr_get_lr (GnnLRScheduler *sched,
                      guint          *n_lrs,
                      GError        **error)
{
  GnnLinearLR *self = GNN_LINEAR_LR (sched);
  int e = gnn_lr_scheduler_get_last_epoch (sched);
  double start = self->start_factor, end = self->end_factor, denominator, factor;
  double *lrs = gnn_lr_scheduler_current_lrs (sched, n_lrs, error);

  if (lrs == NULL)
    return NULL;
  if (e == 0)
    return gnn_lr_scale (lrs, *n_lrs, start);
  if (gnn_lr_scheduler_is_initial_step (sched) || e > self->total_iters)
    return lrs;
  denominator = self->total_iters * start + (double) (e - 1) * (end - start);
  if (denominator == 0)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "float division by zero (LinearLR with total_iters %d, start_factor %g, "
                   "end_factor %g at epoch %d)", self->total_iters, start, end, e);
      g_free (lrs);
      return NULL;
    }
  factor = 1. + (end - start) / denominator;
  return gnn_lr_scale (lrs, *n_lrs, factor);
}

static double *
gnn_linear_lr_closed_form (GnnLRScheduler *sched,
                           guint          *n_lrs,
                           GError        **error)
{
  GnnLinearLR *self = GNN_LINEAR_LR (sched);
  int e = gnn_lr_scheduler_get_last_epoch (sched);
  double *lrs;

  if (self->total_iters == 0)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "division by zero (LinearLR with total_iters 0)");
      return NULL;
    }
  lrs = gnn_lr_scheduler_base_lrs_or_empty (sched, n_lrs);
  for (guint g = 0; g < *n_lrs; g++)
    lrs[g] = lrs[g] * (self->start_factor + (self->end_factor - self->start_factor) *
                       (double) MIN (self->total_iters, e) / self->total_iters);
  return lrs;
}

static void
gnn_linear_lr_class_init (GnnLinearLRClass *klass)
{
  GnnLRSchedulerHooks *hooks = gnn_lr_scheduler_class_get_hooks (GNN_LR_SCHEDULER_CLASS (klass));

  hooks->prepare = gnn_linear_lr_prepare;
  hooks->get_lr = gnn_linear_lr_get_lr;
  hooks->closed_form_lr = gnn_linear_lr_closed_form;
  hooks->state_props = lin_state;

  /**
   * GnnLinearLR:start-factor:
   *
   * The factor of the first epoch (`start_factor`), in (0, 1].
   */
  lin_props[LIN_PROP_START_FACTOR] = gnn_lr_prop_double ("start-factor", 1.0 / 3, GNN_LR_HYPERPARAMETER,
                                                         G_STRUCT_OFFSET (GnnLinearLR, start_factor));
  /**
   * GnnLinearLR:end-factor:
   *
   * The factor reached after [property@Gnn.LinearLR:total-iters] epochs (`end_factor`), in
   * [0, 1].
   */
  lin_props[LIN_PROP_END_FACTOR] = gnn_lr_prop_double ("end-factor", 1.0, GNN_LR_HYPERPARAMETER,
                                                       G_STRUCT_OFFSET (GnnLinearLR, end_factor));
  /**
   * GnnLinearLR:total-iters:
   *
   * The number of epochs over which the factor changes (`total_iters`).
   */
  lin_props[LIN_PROP_TOTAL_ITERS] = gnn_lr_prop_int ("total-iters", 5, GNN_LR_HYPERPARAMETER,
                                                     G_STRUCT_OFFSET (GnnLinearLR, total_iters), NULL);
  gnn_props_install (G_OBJECT_CLASS (klass), lin_props, LIN_N_PROPS);
}

static void
gnn_linear_lr_init (GnnLinearLR *self)
{
}

/**
 * gnn_linear_lr_new:
 * @optimizer: the optimizer whose groups to schedule
 * @start_factor: the factor of the first epoch, in (0, 1] (PyTorch's default: 1/3)
 * @end_factor: the factor reached at the end, in [0, 1] (PyTorch's default: 1)
 * @total_iters: the number of epochs over which the factor changes (PyTorch's default: 5)
 * @last_epoch: -1 for a new schedule, or the epoch to resume after
 * @error: return location for a #GError
 *
 * Creates a linear warm-up (or decay) scheduler (`LinearLR (optimizer, start_factor,
 * end_factor, total_iters, last_epoch)`) and performs its initial step, which multiplies
 * the rates by @start_factor.
 *
 * Returns: (transfer full) (nullable): the scheduler, or %NULL with @error set: a factor is
 *   out of its range (PyTorch's message), or a group lacks `initial_lr` when resuming
 */
GnnLinearLR *
gnn_linear_lr_new (GnnOptimizer *optimizer,
                   double        start_factor,
                   double        end_factor,
                   int           total_iters,
                   int           last_epoch,
                   GError      **error)
{
  g_return_val_if_fail (GNN_IS_OPTIMIZER (optimizer), NULL);
  return g_initable_new (GNN_TYPE_LINEAR_LR, NULL, error, "optimizer", optimizer, "last-epoch", last_epoch,
                         "start-factor", start_factor, "end-factor", end_factor,
                         "total-iters", total_iters, NULL);
}

/* ====================================================================================== */
/* LambdaLR                                                                               */
/* ====================================================================================== */

/**
 * GnnLambdaLR:
 *
 * Sets the learning rate of every group to its initial learning rate times a function of
 * the epoch (`torch.optim.lr_scheduler.LambdaLR`): one function for every group
 * ([ctor@Gnn.LambdaLR.new]), or one for each group ([ctor@Gnn.LambdaLR.new_per_group],
 * which passes the group's index, and [ctor@Gnn.LambdaLR.new_from_array] in C), or a
 * #GClosure of the epoch and the group ([ctor@Gnn.LambdaLR.new_with_closure], or the
 * [property@Gnn.LambdaLR:lr-lambda] property, which each of the others sets).
 *
 * In Python, `Gnn.LambdaLR (optimizer, lr_lambda=lambda epoch: 0.95 ** epoch)` or a list
 * of functions; in Vala, a lambda (`new Gnn.LambdaLR (optimizer, (epoch) => 0.95, -1)`). In
 * gjs, use [ctor@Gnn.LambdaLR.new_with_closure] (`Gnn.LambdaLR.new_with_closure (optimizer,
 * epoch => 0.95 ** epoch, -1)`): gjs 1.74 turns a floating-point value returned by a
 * callback into an integer, which breaks the plain callbacks there.
 *
 * The functions are not saved in the state, as PyTorch does not save plain functions.
 */
struct _GnnLambdaLR
{
  GnnLRScheduler parent_instance;

  GClosure *lr_lambda;
};

G_DEFINE_FINAL_TYPE (GnnLambdaLR, gnn_lambda_lr, GNN_TYPE_LR_SCHEDULER)

/**
 * GnnMultiplicativeLR:
 *
 * Multiplies the learning rate of every group by a function of the epoch at each epoch
 * after the first (`torch.optim.lr_scheduler.MultiplicativeLR`): the chainable sibling of
 * [class@Gnn.LambdaLR], with the same functions: one for every group
 * ([ctor@Gnn.MultiplicativeLR.new]), one for each group
 * ([ctor@Gnn.MultiplicativeLR.new_per_group]), or a #GClosure of the epoch and the group
 * ([ctor@Gnn.MultiplicativeLR.new_with_closure], the form for gjs, or the
 * [property@Gnn.MultiplicativeLR:lr-lambda] property). With `lr` 0.1 and `lambda epoch:
 * 0.95`: 0.1, 0.095, 0.09025 ...
 *
 * The functions are not saved in the state, as PyTorch does not save plain functions.
 *
 * Since: 0.1
 */
struct _GnnMultiplicativeLR
{
  GnnLRScheduler parent_instance;

  GClosure *lr_lambda;
};

G_DEFINE_FINAL_TYPE (GnnMultiplicativeLR, gnn_multiplicative_lr, GNN_TYPE_LR_SCHEDULER)

enum { LAMBDA_PROP_0, LAMBDA_PROP_LR_LAMBDA, LAMBDA_N_PROPS };
static GnnProp lambda_props[LAMBDA_N_PROPS];
static GnnProp mult_props[LAMBDA_N_PROPS];

/* the lr_lambda of a LambdaLR or a MultiplicativeLR */
static GClosure **
lambda_slot (gpointer self)
{
  if (GNN_IS_LAMBDA_LR (self))
    return &GNN_LAMBDA_LR (self)->lr_lambda;
  return &GNN_MULTIPLICATIVE_LR (self)->lr_lambda;
}

/* The closure of the C constructors: one function of the epoch, one of the group and the
 * epoch, or an array of functions of the epoch, one per group. */
typedef struct {
  GClosure closure;
  GnnLRLambdaFunc func;
  GnnLRGroupLambdaFunc group_func;
  gpointer user_data;
  GnnLRLambdaFunc *funcs;
  gpointer *datas;
  guint n_funcs;
} LambdaClosure;

static void
lambda_closure_marshal (GClosure     *closure,
                        GValue       *return_value,
                        guint         n_param_values,
                        const GValue *param_values,
                        gpointer      invocation_hint,
                        gpointer      marshal_data)
{
  LambdaClosure *c = (LambdaClosure *) closure;
  int epoch = g_value_get_int (&param_values[0]);
  guint group = g_value_get_uint (&param_values[1]);
  double factor;

  if (c->funcs)
    factor = group < c->n_funcs ? c->funcs[group] (epoch, c->datas[group]) : NAN;
  else if (c->group_func)
    factor = c->group_func (group, epoch, c->user_data);
  else
    factor = c->func (epoch, c->user_data);
  g_value_set_double (return_value, factor);
}

static void
lambda_closure_free_arrays (gpointer  data,
                            GClosure *closure)
{
  LambdaClosure *c = (LambdaClosure *) closure;

  g_free (c->funcs);
  g_free (c->datas);
}

/* a closure of the C functions; @notify frees @user_data with it */
static GClosure *
lambda_closure_new (gpointer       user_data,
                    GDestroyNotify notify)
{
  GClosure *closure = g_closure_new_simple (sizeof (LambdaClosure), NULL);

  ((LambdaClosure *) closure)->user_data = user_data;
  if (notify)
    g_closure_add_finalize_notifier (closure, user_data, (GClosureNotify) (void (*) (void)) notify);
  g_closure_set_marshal (closure, lambda_closure_marshal);
  return closure;
}

/* takes the floating reference, as g_signal_connect_closure () does */
static void
lr_lambda_set (GObject      *object,
               GParamSpec   *pspec,
               const GValue *value)
{
  gnn_lr_closure_set (lambda_slot (object), g_value_get_boxed (value));
}

static void
lr_lambda_get (GObject    *object,
               GParamSpec *pspec,
               GValue     *value)
{
  g_value_set_boxed (value, *lambda_slot (object));
}

static gboolean
lambda_prepare (GnnLRScheduler *sched,
                GError        **error)
{
  if (*lambda_slot (sched))
    return TRUE;
  g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
               "%s needs a function (the \"lr-lambda\" property)", gnn_lr_scheduler_type_name (sched));
  return FALSE;
}

/* the rates of @lrs (the base or the current ones, one per group, which it frees on error)
 * times the lr_lambda of each group at the current epoch */
static double *
lambda_scale (GnnLRScheduler *sched,
              double         *lrs,
              guint          *n_lrs,
              GError        **error)
{
  GClosure *closure = *lambda_slot (sched);
  LambdaClosure *c = (LambdaClosure *) closure;
  int e = gnn_lr_scheduler_get_last_epoch (sched);
  guint n_groups = gnn_lr_scheduler_n_groups (sched);
  gboolean array = lrs && c->closure.marshal == lambda_closure_marshal && c->funcs;

  if (lrs == NULL)
    return NULL;
  if (*n_lrs != n_groups || (array && c->n_funcs != n_groups))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "Expected %u lr_lambdas, but got %u", n_groups, array ? c->n_funcs : *n_lrs);
      g_free (lrs);
      return NULL;
    }
  for (guint g = 0; g < *n_lrs; g++)
    {
      g_auto(GValue) ret = G_VALUE_INIT;
      GValue args[2] = { G_VALUE_INIT, G_VALUE_INIT };

      g_value_init (&ret, G_TYPE_DOUBLE);
      g_value_init (&args[0], G_TYPE_INT);
      g_value_set_int (&args[0], e);
      g_value_init (&args[1], G_TYPE_UINT);
      g_value_set_uint (&args[1], g);
      g_closure_invoke (closure, &ret, 2, args, NULL);
      lrs[g] = lrs[g] * g_value_get_double (&ret);
      g_value_unset (&args[0]);
      g_value_unset (&args[1]);
    }
  return lrs;
}

static double *
gnn_lambda_lr_get_lr (GnnLRScheduler *sched,
                      guint          *n_lrs,
                      GError        **error)
{
  return lambda_scale (sched, gnn_lr_scheduler_base_lrs_or_empty (sched, n_lrs), n_lrs, error);
}

static void
lambda_finalize (GObject *object)
{
  g_clear_pointer (lambda_slot (object), g_closure_unref);
  G_OBJECT_CLASS (g_type_class_peek_parent (G_OBJECT_GET_CLASS (object)))->finalize (object);
}

/* the lr-lambda property of LambdaLR and MultiplicativeLR */
static GnnProp
lambda_prop (void)
{
  return (GnnProp) {
    g_param_spec_boxed ("lr-lambda", NULL, NULL, G_TYPE_CLOSURE, GNN_PARAM_RW | G_PARAM_CONSTRUCT_ONLY),
    GNN_PROP_NO_MEMBER, NULL, lr_lambda_get, lr_lambda_set };
}

static void
gnn_lambda_lr_class_init (GnnLambdaLRClass *klass)
{
  GnnLRSchedulerHooks *hooks = gnn_lr_scheduler_class_get_hooks (GNN_LR_SCHEDULER_CLASS (klass));

  G_OBJECT_CLASS (klass)->finalize = lambda_finalize;
  hooks->prepare = lambda_prepare;
  hooks->get_lr = gnn_lambda_lr_get_lr;

  /**
   * GnnLambdaLR:lr-lambda:
   *
   * The factor of each group's initial learning rate (`lr_lambda`), a #GClosure of the
   * epoch (`int`) and the group's index (`guint`) returning a `double`; a function of the
   * epoch alone serves every group. Set at construction; a floating reference is taken. A
   * closure without a marshaller (g_cclosure_new()) gets g_cclosure_marshal_generic().
   */
  lambda_props[LAMBDA_PROP_LR_LAMBDA] = lambda_prop ();
  gnn_props_install (G_OBJECT_CLASS (klass), lambda_props, LAMBDA_N_PROPS);
}

static void
gnn_lambda_lr_init (GnnLambdaLR *self)
{
}

static gpointer
lambda_lr_new (GType         type,
               GnnOptimizer *optimizer,
               GClosure     *lr_lambda,
               int           last_epoch,
               GError      **error)
{
  return g_initable_new (type, NULL, error, "optimizer", optimizer, "last-epoch", last_epoch,
                         "lr-lambda", lr_lambda, NULL);
}

/* the closure of a function of the epoch (or, with @per_group, of the group and the epoch) */
static GClosure *
lambda_closure_of (gpointer       func,
                   gboolean       per_group,
                   gpointer       user_data,
                   GDestroyNotify notify)
{
  GClosure *closure = lambda_closure_new (user_data, notify);

  if (per_group)
    ((LambdaClosure *) closure)->group_func = (GnnLRGroupLambdaFunc) func;
  else
    ((LambdaClosure *) closure)->func = (GnnLRLambdaFunc) func;
  return closure;
}

/**
 * gnn_lambda_lr_new:
 * @optimizer: the optimizer whose groups to schedule
 * @lr_lambda: (scope notified) (closure user_data) (destroy notify): the factor as a
 *   function of the epoch, for every group
 * @user_data: data for @lr_lambda
 * @notify: (nullable): frees @user_data when the scheduler is finalized
 * @last_epoch: -1 for a new schedule, or the epoch to resume after
 * @error: return location for a #GError
 *
 * Creates a scheduler that sets the learning rate of every group to its initial one times
 * `lr_lambda (epoch)` (`LambdaLR (optimizer, lr_lambda, last_epoch)`), and performs its
 * initial step, which calls `lr_lambda (0)`.
 *
 * Returns: (transfer full) (nullable): the scheduler, or %NULL with @error set (a group
 *   lacks `initial_lr` when resuming)
 */
GnnLambdaLR *
gnn_lambda_lr_new (GnnOptimizer    *optimizer,
                   GnnLRLambdaFunc  lr_lambda,
                   gpointer         user_data,
                   GDestroyNotify   notify,
                   int              last_epoch,
                   GError         **error)
{
  g_return_val_if_fail (GNN_IS_OPTIMIZER (optimizer), NULL);
  g_return_val_if_fail (lr_lambda != NULL, NULL);
  return lambda_lr_new (GNN_TYPE_LAMBDA_LR, optimizer, lambda_closure_of (lr_lambda, FALSE, user_data, notify),
                        last_epoch, error);
}

/**
 * gnn_lambda_lr_new_per_group:
 * @optimizer: the optimizer whose groups to schedule
 * @lr_lambda: (scope notified) (closure user_data) (destroy notify): the factor as a
 *   function of the group's index and the epoch
 * @user_data: data for @lr_lambda
 * @notify: (nullable): frees @user_data when the scheduler is finalized
 * @last_epoch: -1 for a new schedule, or the epoch to resume after
 * @error: return location for a #GError
 *
 * Creates a scheduler that sets the learning rate of group `g` to its initial one times
 * `lr_lambda (g, epoch)`: PyTorch's `LambdaLR` with a list of functions, one per group,
 * written as one function of the group. Performs the initial step.
 *
 * Returns: (transfer full) (nullable): the scheduler, or %NULL with @error set (a group
 *   lacks `initial_lr` when resuming)
 */
GnnLambdaLR *
gnn_lambda_lr_new_per_group (GnnOptimizer         *optimizer,
                             GnnLRGroupLambdaFunc  lr_lambda,
                             gpointer              user_data,
                             GDestroyNotify        notify,
                             int                   last_epoch,
                             GError              **error)
{
  g_return_val_if_fail (GNN_IS_OPTIMIZER (optimizer), NULL);
  g_return_val_if_fail (lr_lambda != NULL, NULL);
  return lambda_lr_new (GNN_TYPE_LAMBDA_LR, optimizer, lambda_closure_of (lr_lambda, TRUE, user_data, notify),
                        last_epoch, error);
}

/**
 * gnn_lambda_lr_new_with_closure:
 * @optimizer: the optimizer whose groups to schedule
 * @lr_lambda: the factor as a closure of the epoch (`int`) and the group's index (`guint`),
 *   returning a `double`; a floating reference is sunk
 * @last_epoch: -1 for a new schedule, or the epoch to resume after
 * @error: return location for a #GError
 *
 * Creates a scheduler that sets the learning rate of group `g` to its initial one times
 * `lr_lambda (epoch, g)`, and performs the initial step. A function of the epoch alone
 * serves every group. This is the form for gjs, whose callbacks cannot return a
 * floating-point value: `Gnn.LambdaLR.new_with_closure (optimizer, epoch => 0.95 ** epoch,
 * -1)`. A closure without a marshaller (g_cclosure_new()) gets
 * g_cclosure_marshal_generic().
 *
 * Returns: (transfer full) (nullable): the scheduler, or %NULL with @error set (a group
 *   lacks `initial_lr` when resuming)
 */
GnnLambdaLR *
gnn_lambda_lr_new_with_closure (GnnOptimizer *optimizer,
                                GClosure     *lr_lambda,
                                int           last_epoch,
                                GError      **error)
{
  g_return_val_if_fail (GNN_IS_OPTIMIZER (optimizer), NULL);
  g_return_val_if_fail (lr_lambda != NULL, NULL);
  return lambda_lr_new (GNN_TYPE_LAMBDA_LR, optimizer, lr_lambda, last_epoch, error);
}

/**
 * gnn_lambda_lr_new_from_array: (skip)
 * @optimizer: the optimizer whose groups to schedule
 * @lr_lambdas: (array length=n_lr_lambdas): one function per parameter group
 * @user_data: (array length=n_lr_lambdas) (nullable): the data of each function, or %NULL
 *   for none; it must outlive the scheduler
 * @n_lr_lambdas: the number of functions, which must be the number of groups
 * @last_epoch: -1 for a new schedule, or the epoch to resume after
 * @error: return location for a #GError
 *
 * Creates a scheduler with one function per group (`LambdaLR (optimizer, [f, g],
 * last_epoch)`), from C. Bindings use [ctor@Gnn.LambdaLR.new_per_group].
 *
 * Returns: (transfer full) (nullable): the scheduler, or %NULL with @error set: the number
 *   of functions is not the number of groups ("Expected 2 lr_lambdas, but got 3"), or a
 *   group lacks `initial_lr` when resuming
 */
GnnLambdaLR *
gnn_lambda_lr_new_from_array (GnnOptimizer          *optimizer,
                              const GnnLRLambdaFunc *lr_lambdas,
                              gpointer              *user_data,
                              guint                  n_lr_lambdas,
                              int                    last_epoch,
                              GError               **error)
{
  GClosure *closure;
  LambdaClosure *c;
  guint n_groups;

  g_return_val_if_fail (GNN_IS_OPTIMIZER (optimizer), NULL);
  g_return_val_if_fail (lr_lambdas != NULL || n_lr_lambdas == 0, NULL);
  for (guint i = 0; i < n_lr_lambdas; i++)
    g_return_val_if_fail (lr_lambdas[i] != NULL, NULL);
  n_groups = gnn_optimizer_get_n_param_groups (optimizer);
  if (n_lr_lambdas != n_groups)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "Expected %u lr_lambdas, but got %u", n_groups, n_lr_lambdas);
      return NULL;
    }
  closure = lambda_closure_new (NULL, NULL);
  c = (LambdaClosure *) closure;
  c->n_funcs = n_lr_lambdas;
  c->funcs = g_new0 (GnnLRLambdaFunc, MAX (n_lr_lambdas, 1));
  c->datas = g_new0 (gpointer, MAX (n_lr_lambdas, 1));
  for (guint i = 0; i < n_lr_lambdas; i++)
    {
      c->funcs[i] = lr_lambdas[i];
      c->datas[i] = user_data ? user_data[i] : NULL;
    }
  g_closure_add_finalize_notifier (closure, NULL, lambda_closure_free_arrays);
  return lambda_lr_new (GNN_TYPE_LAMBDA_LR, optimizer, closure, last_epoch, error);
}

/* ====================================================================================== */
/* MultiplicativeLR                                                                       */
/* ====================================================================================== */

static double *
gnn_multiplicative_lr_get_lr (GnnLRScheduler *sched,
                              guint          *n_lrs,
                              GError        **error)
{
  double *lrs = gnn_lr_scheduler_current_lrs (sched, n_lrs, error);

  if (lrs == NULL || gnn_lr_scheduler_get_last_epoch (sched) <= 0)
    return lrs;
  return lambda_scale (sched, lrs, n_lrs, error);
}

static void
gnn_multiplicative_lr_class_init (GnnMultiplicativeLRClass *klass)
{
  GnnLRSchedulerHooks *hooks = gnn_lr_scheduler_class_get_hooks (GNN_LR_SCHEDULER_CLASS (klass));

  G_OBJECT_CLASS (klass)->finalize = lambda_finalize;
  hooks->prepare = lambda_prepare;
  hooks->get_lr = gnn_multiplicative_lr_get_lr;

  /**
   * GnnMultiplicativeLR:lr-lambda:
   *
   * The factor of each group's rate at each epoch (`lr_lambda`), a #GClosure of the epoch
   * (`int`) and the group's index (`guint`) returning a `double`, as
   * [property@Gnn.LambdaLR:lr-lambda]. Set at construction; a floating reference is taken.
   *
   * Since: 0.1
   */
  mult_props[LAMBDA_PROP_LR_LAMBDA] = lambda_prop ();
  gnn_props_install (G_OBJECT_CLASS (klass), mult_props, LAMBDA_N_PROPS);
}

static void
gnn_multiplicative_lr_init (GnnMultiplicativeLR *self)
{
}

/**
 * gnn_multiplicative_lr_new:
 * @optimizer: the optimizer whose groups to schedule
 * @lr_lambda: (scope notified) (closure user_data) (destroy notify): the factor as a
 *   function of the epoch, for every group
 * @user_data: data for @lr_lambda
 * @notify: (nullable): frees @user_data when the scheduler is finalized
 * @last_epoch: -1 for a new schedule, or the epoch to resume after
 * @error: return location for a #GError
 *
 * Creates a scheduler that multiplies the rate of every group by `lr_lambda (epoch)` at each
 * epoch after the first (`MultiplicativeLR (optimizer, lr_lambda, last_epoch)`), and
 * performs its initial step, which leaves the rates alone.
 *
 * Returns: (transfer full) (nullable): the scheduler, or %NULL with @error set (a group
 *   lacks `initial_lr` when resuming)
 *
 * Since: 0.1
 */
GnnMultiplicativeLR *
gnn_multiplicative_lr_new (GnnOptimizer    *optimizer,
                           GnnLRLambdaFunc  lr_lambda,
                           gpointer         user_data,
                           GDestroyNotify   notify,
                           int              last_epoch,
                           GError         **error)
{
  g_return_val_if_fail (GNN_IS_OPTIMIZER (optimizer), NULL);
  g_return_val_if_fail (lr_lambda != NULL, NULL);
  return lambda_lr_new (GNN_TYPE_MULTIPLICATIVE_LR, optimizer,
                        lambda_closure_of (lr_lambda, FALSE, user_data, notify), last_epoch, error);
}

/**
 * gnn_multiplicative_lr_new_per_group:
 * @optimizer: the optimizer whose groups to schedule
 * @lr_lambda: (scope notified) (closure user_data) (destroy notify): the factor as a
 *   function of the group's index and the epoch
 * @user_data: data for @lr_lambda
 * @notify: (nullable): frees @user_data when the scheduler is finalized
 * @last_epoch: -1 for a new schedule, or the epoch to resume after
 * @error: return location for a #GError
 *
 * Creates a scheduler that multiplies the rate of group `g` by `lr_lambda (g, epoch)` at each
 * epoch after the first: PyTorch's `MultiplicativeLR` with a list of functions, one per
 * group. Performs the initial step.
 *
 * Returns: (transfer full) (nullable): the scheduler, or %NULL with @error set (a group
 *   lacks `initial_lr` when resuming)
 *
 * Since: 0.1
 */
GnnMultiplicativeLR *
gnn_multiplicative_lr_new_per_group (GnnOptimizer         *optimizer,
                                     GnnLRGroupLambdaFunc  lr_lambda,
                                     gpointer              user_data,
                                     GDestroyNotify        notify,
                                     int                   last_epoch,
                                     GError              **error)
{
  g_return_val_if_fail (GNN_IS_OPTIMIZER (optimizer), NULL);
  g_return_val_if_fail (lr_lambda != NULL, NULL);
  return lambda_lr_new (GNN_TYPE_MULTIPLICATIVE_LR, optimizer,
                        lambda_closure_of (lr_lambda, TRUE, user_data, notify), last_epoch, error);
}

/**
 * gnn_multiplicative_lr_new_with_closure:
 * @optimizer: the optimizer whose groups to schedule
 * @lr_lambda: the factor as a closure of the epoch (`int`) and the group's index (`guint`),
 *   returning a `double`; a floating reference is sunk
 * @last_epoch: -1 for a new schedule, or the epoch to resume after
 * @error: return location for a #GError
 *
 * Creates a scheduler that multiplies the rate of group `g` by `lr_lambda (epoch, g)` at
 * each epoch after the first, and performs the initial step: the form for gjs, as
 * [ctor@Gnn.LambdaLR.new_with_closure].
 *
 * Returns: (transfer full) (nullable): the scheduler, or %NULL with @error set (a group
 *   lacks `initial_lr` when resuming)
 *
 * Since: 0.1
 */
GnnMultiplicativeLR *
gnn_multiplicative_lr_new_with_closure (GnnOptimizer *optimizer,
                                        GClosure     *lr_lambda,
                                        int           last_epoch,
                                        GError      **error)
{
  g_return_val_if_fail (GNN_IS_OPTIMIZER (optimizer), NULL);
  g_return_val_if_fail (lr_lambda != NULL, NULL);
  return lambda_lr_new (GNN_TYPE_MULTIPLICATIVE_LR, optimizer, lr_lambda, last_epoch, error);
}
