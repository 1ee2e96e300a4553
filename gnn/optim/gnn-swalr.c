/* gnn-swalr.c: the learning-rate scheduler of stochastic weight averaging
 * (torch.optim.swa_utils.SWALR)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "gnn-lr-scheduler-private.h"

/**
 * GnnSWALR:
 *
 * Anneals the learning rate of every group to a fixed value, its `swa_lr`, over
 * [property@Gnn.SWALR:anneal-epochs] steps and keeps it there
 * (`torch.optim.swa_utils.SWALR`), for stochastic weight averaging with
 * [class@Gnn.AveragedModel].
 *
 * Construction stores `swa_lr` as an option of every group. Each step interpolates
 * between the rate the annealing started from and `swa_lr`, by a factor that goes from 0
 * to 1 along a cosine ("cos") or a line ("linear"), counted in the scheduler's own steps
 * ([method@Gnn.LRScheduler.get_step_count]). The starting rate is not stored: as PyTorch's
 * `_get_initial_lr`, every step recovers it from the group's current `lr` and the previous
 * factor, so SWALR takes over smoothly from the rate another scheduler left, as in the
 * usual loop:
 *
 * ```c
 * for (int epoch = 0; epoch < 100; epoch++)
 *   {
 *     train_one_epoch (model, optimizer);
 *     if (epoch > swa_start)
 *       {
 *         gnn_averaged_model_update_parameters (swa_model, model, &error);
 *         gnn_lr_scheduler_step (GNN_LR_SCHEDULER (swa_scheduler), &error);
 *       }
 *     else
 *       gnn_lr_scheduler_step (GNN_LR_SCHEDULER (scheduler), &error);
 *   }
 * ```
 *
 * The arguments of [ctor@Gnn.SWALR.new] are its construct-only properties:
 * `g_initable_new (GNN_TYPE_SWALR, NULL, &error, "optimizer", optimizer, "swa-lr", swa_lr,
 * NULL)` builds one too.
 *
 * Its state adds `anneal_epochs` (`x`) and `_anneal_strategy` (`s`), as current PyTorch;
 * the `swa_lr` of the groups is saved with the optimizer's state.
 */
struct _GnnSWALR
{
  GnnLRScheduler parent_instance;

  GVariant *swa_lr;   /* 'ad': one value or one per group */
  int anneal_epochs;
  char *anneal_strategy;
};

G_DEFINE_FINAL_TYPE (GnnSWALR, gnn_swalr, GNN_TYPE_LR_SCHEDULER)

enum {
  PROP_0,
  PROP_SWA_LR,
  PROP_ANNEAL_EPOCHS,
  PROP_ANNEAL_STRATEGY,
  N_PROPS
};

static GnnProp props[N_PROPS];

static const char *strategies[] = { "cos", "linear", NULL };

static double
anneal (GnnSWALR *self,
        double    t)
{
  if (strcmp (self->anneal_strategy, "cos") == 0)
    return (1 - cos (G_PI * t)) / 2;
  return t;
}

static gboolean
gnn_swalr_prepare (GnnLRScheduler *sched,
                   GError        **error)
{
  GnnSWALR *self = GNN_SWALR (sched);
  GnnOptimizer *optimizer = gnn_lr_scheduler_get_optimizer (sched);
  g_autofree double *swa_lrs = NULL;

  if (!gnn_lr_scheduler_format_doubles (sched, "swa_lr", self->swa_lr, &swa_lrs, error))
    return FALSE;
  if (self->anneal_strategy == NULL || !g_strv_contains (strategies, self->anneal_strategy))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "anneal_strategy must by one of 'cos' or 'linear', instead got %s",
                   self->anneal_strategy ? self->anneal_strategy : "None");
      return FALSE;
    }
  if (self->anneal_epochs < 0)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "anneal_epochs must be equal or greater than 0, got %d", self->anneal_epochs);
      return FALSE;
    }
  for (guint g = 0; g < gnn_lr_scheduler_n_groups (sched); g++)
    gnn_param_group_set_double (gnn_optimizer_get_param_group (optimizer, g), "swa_lr", swa_lrs[g]);
  return TRUE;
}

/* PyTorch's _get_initial_lr: the rate the annealing started from */
static double
initial_lr (double lr,
            double swa_lr,
            double alpha)
{
  if (alpha == 1)
    return swa_lr;
  return (lr - alpha * swa_lr) / (1 - alpha);
}

static double *
gnn_swalr_get_lr (GnnLRScheduler *sched,
                  guint          *n_lrs,
                  GError        **error)
{
  GnnSWALR *self = GNN_SWALR (sched);
  guint n = gnn_lr_scheduler_n_groups (sched);
  g_autofree double *lrs = g_new (double, MAX (n, 1));
  g_autofree double *swa = g_new (double, MAX (n, 1));
  int step = gnn_lr_scheduler_get_step_count (sched) - 1;
  double denominator = MAX (1, self->anneal_epochs);
  double prev_t, prev_alpha, t, alpha;

  if (!gnn_lr_scheduler_read_groups (sched, "lr", lrs, error) ||
      !gnn_lr_scheduler_read_groups (sched, "swa_lr", swa, error))
    return NULL;
  if (self->anneal_epochs == 0)
    step = MAX (1, step);
  prev_t = MAX (0, MIN (1, (step - 1) / denominator));
  prev_alpha = anneal (self, prev_t);
  t = MAX (0, MIN (1, step / denominator));
  alpha = anneal (self, t);
  for (guint g = 0; g < n; g++)
    {
      double prev_lr = initial_lr (lrs[g], swa[g], prev_alpha);

      lrs[g] = swa[g] * alpha + prev_lr * (1 - alpha);
    }
  *n_lrs = n;
  return g_steal_pointer (&lrs);
}

static void
gnn_swalr_save_state (GnnLRScheduler *sched,
                      GVariantDict   *state)
{
  GnnSWALR *self = GNN_SWALR (sched);

  GNN_LR_SCHEDULER_CLASS (gnn_swalr_parent_class)->save_state (sched, state);
  g_variant_dict_insert (state, "anneal_epochs", "x", (gint64) self->anneal_epochs);
  g_variant_dict_insert (state, "_anneal_strategy", "s", self->anneal_strategy);
}

static gboolean
gnn_swalr_load_state (GnnLRScheduler *sched,
                      GVariantDict   *state,
                      GError        **error)
{
  GnnSWALR *self = GNN_SWALR (sched);
  gint64 epochs = self->anneal_epochs;
  g_autofree char *strategy = g_strdup (self->anneal_strategy);

  if (!gnn_lr_state_get_int (state, "anneal_epochs", &epochs, error) ||
      !gnn_lr_state_get_string (state, "_anneal_strategy", strategies, &strategy, error))
    return FALSE;
  if (epochs < 0 || epochs > G_MAXINT)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "\"anneal_epochs\" in the loaded scheduler state is %" G_GINT64_FORMAT
                   ", expected an int equal or greater than 0", epochs);
      return FALSE;
    }
  if (!GNN_LR_SCHEDULER_CLASS (gnn_swalr_parent_class)->load_state (sched, state, error))
    return FALSE;
  if (self->anneal_epochs != epochs)
    {
      self->anneal_epochs = (int) epochs;
      g_object_notify_by_pspec (G_OBJECT (self), props[PROP_ANNEAL_EPOCHS].pspec);
    }
  if (g_strcmp0 (self->anneal_strategy, strategy) != 0)
    {
      g_free (self->anneal_strategy);
      self->anneal_strategy = g_steal_pointer (&strategy);
      g_object_notify_by_pspec (G_OBJECT (self), props[PROP_ANNEAL_STRATEGY].pspec);
    }
  return TRUE;
}

static void
gnn_swalr_class_init (GnnSWALRClass *klass)
{
  GnnLRSchedulerClass *sched_class = GNN_LR_SCHEDULER_CLASS (klass);
  GnnLRSchedulerHooks *hooks = gnn_lr_scheduler_class_get_hooks (sched_class);

  sched_class->save_state = gnn_swalr_save_state;
  sched_class->load_state = gnn_swalr_load_state;
  hooks->prepare = gnn_swalr_prepare;
  hooks->get_lr = gnn_swalr_get_lr;

  /**
   * GnnSWALR:swa-lr:
   *
   * The rate to anneal to (`swa_lr`), a #GVariant `ad`: one value for every group, or one
   * per group. Required.
   */
  props[PROP_SWA_LR] = (GnnProp) {
    gnn_param_spec_doubles ("swa-lr", NULL, GNN_LR_ARGUMENT), G_STRUCT_OFFSET (GnnSWALR, swa_lr) };
  /**
   * GnnSWALR:anneal-epochs:
   *
   * The number of steps the annealing lasts (`anneal_epochs`), 0 or more; 0 switches to
   * `swa_lr` at the first step.
   */
  props[PROP_ANNEAL_EPOCHS] = gnn_lr_prop_int ("anneal-epochs", 10, GNN_LR_ARGUMENT,
                                               G_STRUCT_OFFSET (GnnSWALR, anneal_epochs), NULL);
  /**
   * GnnSWALR:anneal-strategy:
   *
   * The shape of the annealing (`anneal_strategy`): "cos" or "linear".
   */
  props[PROP_ANNEAL_STRATEGY] = (GnnProp) {
    g_param_spec_string ("anneal-strategy", NULL, NULL, "cos", GNN_LR_ARGUMENT),
    G_STRUCT_OFFSET (GnnSWALR, anneal_strategy) };
  gnn_props_install (G_OBJECT_CLASS (klass), props, N_PROPS);
}

static void
gnn_swalr_init (GnnSWALR *self)
{
}

/**
 * gnn_swalr_new:
 * @optimizer: the optimizer whose groups to schedule
 * @swa_lr: (array length=n_swa_lr): the rate to anneal to: one value for every group, or
 *   one per group
 * @n_swa_lr: the number of values in @swa_lr
 * @anneal_epochs: the number of steps the annealing lasts, 0 or more (PyTorch's default:
 *   10)
 * @anneal_strategy: (nullable): "cos" (the default, for %NULL) or "linear"
 * @last_epoch: -1 for a new schedule, or the epoch to resume after
 * @error: return location for a #GError
 *
 * Creates the scheduler of stochastic weight averaging (`SWALR (optimizer, swa_lr,
 * anneal_epochs, anneal_strategy, last_epoch)`), stores `swa_lr` in every group and
 * performs the initial step, which leaves the rates alone.
 *
 * Returns: (transfer full) (nullable): the scheduler, or %NULL with @error set, with
 *   PyTorch's messages: @swa_lr has neither one value nor one per group, an unknown
 *   @anneal_strategy, or a negative @anneal_epochs
 */
GnnSWALR *
gnn_swalr_new (GnnOptimizer *optimizer,
               const double *swa_lr,
               guint         n_swa_lr,
               int           anneal_epochs,
               const char   *anneal_strategy,
               int           last_epoch,
               GError      **error)
{
  g_return_val_if_fail (GNN_IS_OPTIMIZER (optimizer), NULL);
  g_return_val_if_fail (swa_lr != NULL || n_swa_lr == 0, NULL);
  return g_initable_new (GNN_TYPE_SWALR, NULL, error, "optimizer", optimizer, "last-epoch", last_epoch,
                         "swa-lr", gnn_prop_new_doubles (swa_lr, n_swa_lr), "anneal-epochs", anneal_epochs,
                         "anneal-strategy", anneal_strategy, NULL);
}
