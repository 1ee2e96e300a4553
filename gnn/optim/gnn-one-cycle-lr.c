/* gnn-one-cycle-lr.c: the 1cycle policy (torch.optim.lr_scheduler.OneCycleLR)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "gnn-lr-scheduler-private.h"
#include "nn/gnn-module-private.h"

/**
 * GnnOneCycleLR:
 *
 * The 1cycle policy (`torch.optim.lr_scheduler.OneCycleLR`): the learning rate of every
 * group rises from `max_lr / div_factor` to `max_lr` over the first `pct_start` of the
 * cycle, then falls to `max_lr / div_factor / final_div_factor`; with `three_phase`, it
 * first falls back to the initial rate symmetrically, and then to the minimum. Each step
 * is one batch, and the cycle lasts `total_steps` batches (or `epochs × steps_per_epoch`);
 * stepping past its end is an error.
 *
 * With `cycle_momentum`, the momentum cycles the other way, between `max_momentum` and
 * `base_momentum`: the `momentum` option of the groups, or the first of the `betas` when
 * the optimizer has a `betas` default (Adam). The optimizer must have one of those
 * defaults.
 *
 * The scheduler is not chainable: it computes each rate from the group options it sets
 * at construction, `initial_lr`, `max_lr` and `min_lr` (and `max_momentum`,
 * `base_momentum`), which the optimizer's state saves. Construction overwrites
 * `initial_lr`, as PyTorch does.
 *
 * The arguments of [ctor@Gnn.OneCycleLR.new] are its construct-only properties, so
 * `g_initable_new (GNN_TYPE_ONE_CYCLE_LR, NULL, &error, "optimizer", optimizer,
 * "max-lr", max_lr, "total-steps", 100, NULL)` builds one too.
 *
 * Its state adds `total_steps` (`x`), `_schedule_phases` (`aa{sv}`: each phase's
 * `end_step` (`d`) and the names of the group options it anneals between, `start_lr`,
 * `end_lr`, `start_momentum`, `end_momentum`), `_anneal_func_type` (`s`: "cos" or
 * "linear", as current PyTorch), `cycle_momentum` (`b`) and, when it is true,
 * `use_beta1` (`b`).
 */

typedef struct {
  double end_step;
  char *start_lr;
  char *end_lr;
  char *start_momentum;
  char *end_momentum;
} Phase;

struct _GnnOneCycleLR
{
  GnnLRScheduler parent_instance;

  /* construction arguments, read by prepare: 'ad's of one value or one per group */
  GVariant *max_lr, *base_momentum, *max_momentum;
  int epochs, steps_per_epoch;
  double pct_start, div_factor, final_div_factor;
  gboolean three_phase;

  /* the schedule; total_steps is -1 (None) until prepare computes it */
  int total_steps;
  char *anneal_strategy;
  gboolean cycle_momentum;
  gboolean use_beta1;
  Phase phases[3];
  guint n_phases;
};

G_DEFINE_FINAL_TYPE (GnnOneCycleLR, gnn_one_cycle_lr, GNN_TYPE_LR_SCHEDULER)

enum {
  PROP_0,
  PROP_MAX_LR,
  PROP_TOTAL_STEPS,
  PROP_EPOCHS,
  PROP_STEPS_PER_EPOCH,
  PROP_PCT_START,
  PROP_ANNEAL_STRATEGY,
  PROP_CYCLE_MOMENTUM,
  PROP_BASE_MOMENTUM,
  PROP_MAX_MOMENTUM,
  PROP_DIV_FACTOR,
  PROP_FINAL_DIV_FACTOR,
  PROP_THREE_PHASE,
  N_PROPS
};

static GnnProp props[N_PROPS];

static const char *option_names[] = {
  "initial_lr", "max_lr", "min_lr", "max_momentum", "base_momentum", NULL
};
static const char *strategies[] = { "cos", "linear", NULL };

static void
phase_clear (Phase *p)
{
  g_clear_pointer (&p->start_lr, g_free);
  g_clear_pointer (&p->end_lr, g_free);
  g_clear_pointer (&p->start_momentum, g_free);
  g_clear_pointer (&p->end_momentum, g_free);
}

static void
phase_set (Phase      *p,
           double      end_step,
           const char *start_lr,
           const char *end_lr,
           const char *start_momentum,
           const char *end_momentum)
{
  phase_clear (p);
  p->end_step = end_step;
  p->start_lr = g_strdup (start_lr);
  p->end_lr = g_strdup (end_lr);
  p->start_momentum = g_strdup (start_momentum);
  p->end_momentum = g_strdup (end_momentum);
}

static void
gnn_one_cycle_lr_finalize (GObject *object)
{
  GnnOneCycleLR *self = GNN_ONE_CYCLE_LR (object);

  for (guint i = 0; i < G_N_ELEMENTS (self->phases); i++)
    phase_clear (&self->phases[i]);
  G_OBJECT_CLASS (gnn_one_cycle_lr_parent_class)->finalize (object);
}

static double
anneal (GnnOneCycleLR *self,
        double         start,
        double         end,
        double         pct)
{
  if (strcmp (self->anneal_strategy, "cos") == 0)
    {
      double cos_out = cos (G_PI * pct) + 1;

      return end + (start - end) / 2.0 * cos_out;
    }
  return (end - start) * pct + start;
}

static gboolean
group_number (GnnParamGroup *group,
              guint          index,
              const char    *name,
              double        *out,
              GError       **error)
{
  g_autoptr(GVariant) v = gnn_param_group_get_option (group, name);
  gint64 i;

  if (v != NULL && g_variant_is_of_type (v, G_VARIANT_TYPE_DOUBLE))
    {
      *out = g_variant_get_double (v);
      return TRUE;
    }
  if (v != NULL && gnn_lr_variant_get_integer (v, &i))
    {
      *out = (double) i;
      return TRUE;
    }
  g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
               "param_groups[%u] has no numeric option '%s' (OneCycleLR sets it at "
               "construction; a resumed schedule needs it from the optimizer's state)",
               index, name);
  return FALSE;
}

static gboolean
gnn_one_cycle_lr_prepare (GnnLRScheduler *sched,
                          GError        **error)
{
  GnnOneCycleLR *self = GNN_ONE_CYCLE_LR (sched);
  GnnOptimizer *optimizer = gnn_lr_scheduler_get_optimizer (sched);
  gboolean fresh = gnn_lr_scheduler_get_last_epoch (sched) == -1;
  guint n = gnn_lr_scheduler_n_groups (sched);
  g_autofree double *max_lrs = NULL, *max_moms = NULL, *base_moms = NULL;
  double pct = self->pct_start;
  gint64 total;

  /* total steps: given, or epochs × steps_per_epoch */
  if (self->total_steps >= 0)
    {
      if (!gnn_lr_check_positive ("total_steps", self->total_steps, error))
        return FALSE;
    }
  else if (self->epochs >= 0 && self->steps_per_epoch >= 0)
    {
      if (!gnn_lr_check_positive ("epochs", self->epochs, error) ||
          !gnn_lr_check_positive ("steps_per_epoch", self->steps_per_epoch, error))
        return FALSE;
      total = (gint64) self->epochs * self->steps_per_epoch;
      if (total > G_MAXINT)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                       "epochs × steps_per_epoch (%" G_GINT64_FORMAT ") is too large", total);
          return FALSE;
        }
      self->total_steps = (int) total;
    }
  else
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "You must define either total_steps OR (epochs AND steps_per_epoch)");
      return FALSE;
    }

  if (!(pct >= 0 && pct <= 1))
    {
      g_autofree char *repr = gnn_python_float_repr (pct);

      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "Expected float between 0 and 1 pct_start, but got %s", repr);
      return FALSE;
    }
  if (self->anneal_strategy == NULL || !g_strv_contains (strategies, self->anneal_strategy))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "anneal_strategy must be one of 'cos' or 'linear', instead got %s",
                   self->anneal_strategy ? self->anneal_strategy : "None");
      return FALSE;
    }
  if (self->three_phase)
    {
      self->n_phases = 3;
      phase_set (&self->phases[0], pct * self->total_steps - 1, "initial_lr", "max_lr",
                 "max_momentum", "base_momentum");
      phase_set (&self->phases[1], 2 * pct * self->total_steps - 2, "max_lr", "initial_lr",
                 "base_momentum", "max_momentum");
      phase_set (&self->phases[2], self->total_steps - 1, "initial_lr", "min_lr",
                 "max_momentum", "max_momentum");
    }
  else
    {
      self->n_phases = 2;
      phase_set (&self->phases[0], pct * self->total_steps - 1, "initial_lr", "max_lr",
                 "max_momentum", "base_momentum");
      phase_set (&self->phases[1], self->total_steps - 1, "max_lr", "min_lr",
                 "base_momentum", "max_momentum");
    }

  if (!gnn_lr_scheduler_format_doubles (sched, "max_lr", self->max_lr, &max_lrs, error))
    return FALSE;
  if (self->cycle_momentum &&
      (!gnn_lr_scheduler_momentum_kind (sched, &self->use_beta1, error) ||
       !gnn_lr_scheduler_format_doubles (sched, "max_momentum", self->max_momentum, &max_moms, error) ||
       !gnn_lr_scheduler_format_doubles (sched, "base_momentum", self->base_momentum, &base_moms, error)))
    return FALSE;

  /* all checked (the betas first): set the group options */
  if (fresh && self->cycle_momentum &&
      !gnn_lr_scheduler_write_momentums (sched, self->use_beta1, max_moms, error))
    return FALSE;
  if (fresh)
    for (guint g = 0; g < n; g++)
      {
        GnnParamGroup *group = gnn_optimizer_get_param_group (optimizer, g);
        double initial_lr = max_lrs[g] / self->div_factor;

        gnn_param_group_set_double (group, "initial_lr", initial_lr);
        gnn_param_group_set_double (group, "max_lr", max_lrs[g]);
        gnn_param_group_set_double (group, "min_lr", initial_lr / self->final_div_factor);
        if (self->cycle_momentum)
          {
            gnn_param_group_set_double (group, "max_momentum", max_moms[g]);
            gnn_param_group_set_double (group, "base_momentum", base_moms[g]);
          }
      }
  return TRUE;
}

static double *
gnn_one_cycle_lr_get_lr (GnnLRScheduler *sched,
                         guint          *n_lrs,
                         GError        **error)
{
  GnnOneCycleLR *self = GNN_ONE_CYCLE_LR (sched);
  GnnOptimizer *optimizer = gnn_lr_scheduler_get_optimizer (sched);
  int step_num = gnn_lr_scheduler_get_last_epoch (sched);
  guint n = gnn_lr_scheduler_n_groups (sched);
  g_autofree double *lrs = g_new (double, MAX (n, 1));
  g_autofree double *moms = g_new (double, MAX (n, 1));

  if (step_num > self->total_steps)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "Tried to step %d times. The specified number of total steps is %d",
                   step_num, self->total_steps);
      return NULL;
    }
  for (guint g = 0; g < n; g++)
    {
      GnnParamGroup *group = gnn_optimizer_get_param_group (optimizer, g);
      double start_step = 0.0;

      for (guint i = 0; i < self->n_phases; i++)
        {
          Phase *phase = &self->phases[i];
          double end_step = phase->end_step;

          if (step_num <= end_step || i == self->n_phases - 1)
            {
              double pct, start, end;

              if (end_step - start_step == 0)
                {
                  g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                               "float division by zero (OneCycleLR phase %u of %d total steps "
                               "is empty)", i, self->total_steps);
                  return NULL;
                }
              pct = (step_num - start_step) / (end_step - start_step);
              if (!group_number (group, g, phase->start_lr, &start, error) ||
                  !group_number (group, g, phase->end_lr, &end, error))
                return NULL;
              lrs[g] = anneal (self, start, end, pct);
              if (self->cycle_momentum)
                {
                  if (!group_number (group, g, phase->start_momentum, &start, error) ||
                      !group_number (group, g, phase->end_momentum, &end, error))
                    return NULL;
                  moms[g] = anneal (self, start, end, pct);
                }
              break;
            }
          start_step = phase->end_step;
        }
    }
  if (self->cycle_momentum && !gnn_lr_scheduler_write_momentums (sched, self->use_beta1, moms, error))
    return NULL;
  *n_lrs = n;
  return g_steal_pointer (&lrs);
}

static void
gnn_one_cycle_lr_save_state (GnnLRScheduler *sched,
                             GVariantDict   *state)
{
  GnnOneCycleLR *self = GNN_ONE_CYCLE_LR (sched);
  g_auto(GVariantBuilder) phases = G_VARIANT_BUILDER_INIT (G_VARIANT_TYPE ("aa{sv}"));

  GNN_LR_SCHEDULER_CLASS (gnn_one_cycle_lr_parent_class)->save_state (sched, state);
  g_variant_dict_insert (state, "total_steps", "x", (gint64) self->total_steps);
  for (guint i = 0; i < self->n_phases; i++)
    {
      Phase *p = &self->phases[i];
      g_auto(GVariantDict) d = G_VARIANT_DICT_INIT (NULL);

      g_variant_dict_insert (&d, "end_step", "d", p->end_step);
      g_variant_dict_insert (&d, "start_lr", "s", p->start_lr);
      g_variant_dict_insert (&d, "end_lr", "s", p->end_lr);
      g_variant_dict_insert (&d, "start_momentum", "s", p->start_momentum);
      g_variant_dict_insert (&d, "end_momentum", "s", p->end_momentum);
      g_variant_builder_add_value (&phases, g_variant_dict_end (&d));
    }
  g_variant_dict_insert_value (state, "_schedule_phases", g_variant_builder_end (&phases));
  g_variant_dict_insert (state, "_anneal_func_type", "s", self->anneal_strategy);
  g_variant_dict_insert (state, "cycle_momentum", "b", self->cycle_momentum);
  if (self->cycle_momentum)
    g_variant_dict_insert (state, "use_beta1", "b", self->use_beta1);
}

static gboolean
load_phases (GnnOneCycleLR *self,
             GVariantDict  *state,
             Phase         *out,
             guint         *n_out,
             GError       **error)
{
  g_autoptr(GVariant) v = g_variant_dict_lookup_value (state, "_schedule_phases", NULL);
  gsize n;

  *n_out = 0;
  if (v == NULL)
    return TRUE;
  if (!g_variant_is_of_type (v, G_VARIANT_TYPE_ARRAY) ||
      (n = g_variant_n_children (v)) < 1 || n > 3)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "\"_schedule_phases\" in the loaded scheduler state is a '%s' of %" G_GSIZE_FORMAT
                   " entries, expected a list of 1 to 3 phases ('aa{sv}')",
                   g_variant_get_type_string (v),
                   g_variant_is_of_type (v, G_VARIANT_TYPE_ARRAY) ? g_variant_n_children (v) : 0);
      return FALSE;
    }
  for (gsize i = 0; i < n; i++)
    {
      g_autoptr(GVariant) child = g_variant_get_child_value (v, i);
      g_autoptr(GVariantDict) d = NULL;
      const char *keys[] = { "start_lr", "end_lr", "start_momentum", "end_momentum" };
      char *names[4] = { NULL, NULL, NULL, NULL };
      double end_step = NAN;

      while (g_variant_is_of_type (child, G_VARIANT_TYPE_VARIANT))
        {
          GVariant *inner = g_variant_get_variant (child);

          g_variant_unref (child);
          child = inner;
        }
      if (!g_variant_is_of_type (child, G_VARIANT_TYPE_VARDICT))
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                       "phase %" G_GSIZE_FORMAT " of \"_schedule_phases\" is a '%s', expected "
                       "'a{sv}'", i, g_variant_get_type_string (child));
          return FALSE;
        }
      d = g_variant_dict_new (child);
      if (!gnn_lr_state_get_double (d, "end_step", &end_step, error))
        return FALSE;
      for (guint k = 0; k < 4; k++)
        if (!gnn_lr_state_get_string (d, keys[k], option_names, &names[k], error) || names[k] == NULL)
          {
            if (names[k] == NULL && (error == NULL || *error == NULL))
              g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                           "phase %" G_GSIZE_FORMAT " of \"_schedule_phases\" lacks \"%s\"", i, keys[k]);
            for (guint j = 0; j < 4; j++)
              g_free (names[j]);
            return FALSE;
          }
      if (isnan (end_step))
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                       "phase %" G_GSIZE_FORMAT " of \"_schedule_phases\" lacks \"end_step\"", i);
          for (guint j = 0; j < 4; j++)
            g_free (names[j]);
          return FALSE;
        }
      out[i].end_step = end_step;
      out[i].start_lr = names[0];
      out[i].end_lr = names[1];
      out[i].start_momentum = names[2];
      out[i].end_momentum = names[3];
    }
  *n_out = n;
  return TRUE;
}

static gboolean
gnn_one_cycle_lr_load_state (GnnLRScheduler *sched,
                             GVariantDict   *state,
                             GError        **error)
{
  GnnOneCycleLR *self = GNN_ONE_CYCLE_LR (sched);
  gint64 total = self->total_steps;
  g_autofree char *strategy = g_strdup (self->anneal_strategy);
  gboolean cycle = self->cycle_momentum, beta1 = self->use_beta1;
  Phase phases[3] = { { 0 } };
  guint n_phases = 0;

  if (!gnn_lr_state_get_int (state, "total_steps", &total, error))
    return FALSE;
  if (total <= 0 || total > G_MAXINT)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "\"total_steps\" in the loaded scheduler state is %" G_GINT64_FORMAT
                   ", expected a positive int", total);
      return FALSE;
    }
  if (!gnn_lr_state_get_string (state, "_anneal_func_type", strategies, &strategy, error) ||
      !gnn_lr_state_get_boolean (state, "cycle_momentum", &cycle, error) ||
      !gnn_lr_state_get_boolean (state, "use_beta1", &beta1, error) ||
      !load_phases (self, state, phases, &n_phases, error))
    return FALSE;
  if (!GNN_LR_SCHEDULER_CLASS (gnn_one_cycle_lr_parent_class)->load_state (sched, state, error))
    {
      for (guint i = 0; i < n_phases; i++)
        phase_clear (&phases[i]);
      return FALSE;
    }
  self->total_steps = (int) total;
  g_free (self->anneal_strategy);
  self->anneal_strategy = g_steal_pointer (&strategy);
  self->cycle_momentum = cycle;
  self->use_beta1 = beta1;
  if (n_phases > 0)
    {
      for (guint i = 0; i < G_N_ELEMENTS (self->phases); i++)
        phase_clear (&self->phases[i]);
      memcpy (self->phases, phases, sizeof phases);
      self->n_phases = n_phases;
    }
  return TRUE;
}

static void
gnn_one_cycle_lr_class_init (GnnOneCycleLRClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GnnLRSchedulerClass *sched_class = GNN_LR_SCHEDULER_CLASS (klass);
  GnnLRSchedulerHooks *hooks = gnn_lr_scheduler_class_get_hooks (sched_class);
  const double base_momentum = 0.85, max_momentum = 0.95;

  object_class->finalize = gnn_one_cycle_lr_finalize;
  sched_class->save_state = gnn_one_cycle_lr_save_state;
  sched_class->load_state = gnn_one_cycle_lr_load_state;
  hooks->prepare = gnn_one_cycle_lr_prepare;
  hooks->get_lr = gnn_one_cycle_lr_get_lr;

  /**
   * GnnOneCycleLR:max-lr:
   *
   * The peak learning rate (`max_lr`), a #GVariant `ad`: one value for every group, or one
   * per group. Required.
   */
  props[PROP_MAX_LR] = (GnnProp) {
    gnn_param_spec_doubles ("max-lr", NULL, GNN_LR_ARGUMENT), G_STRUCT_OFFSET (GnnOneCycleLR, max_lr) };
  /**
   * GnnOneCycleLR:total-steps:
   *
   * The number of steps in the cycle (`total_steps`); -1 (None, the default) to take
   * [property@Gnn.OneCycleLR:epochs] × [property@Gnn.OneCycleLR:steps-per-epoch], which
   * it then reads.
   */
  props[PROP_TOTAL_STEPS] = gnn_lr_prop_int ("total-steps", -1, GNN_LR_ARGUMENT,
                                             G_STRUCT_OFFSET (GnnOneCycleLR, total_steps), NULL);
  /**
   * GnnOneCycleLR:epochs:
   *
   * The number of epochs (`epochs`), or -1 (None).
   */
  props[PROP_EPOCHS] = gnn_lr_prop_int ("epochs", -1, GNN_LR_ARGUMENT, G_STRUCT_OFFSET (GnnOneCycleLR, epochs), NULL);
  /**
   * GnnOneCycleLR:steps-per-epoch:
   *
   * The number of steps per epoch (`steps_per_epoch`), or -1 (None).
   */
  props[PROP_STEPS_PER_EPOCH] = gnn_lr_prop_int ("steps-per-epoch", -1, GNN_LR_ARGUMENT,
                                                 G_STRUCT_OFFSET (GnnOneCycleLR, steps_per_epoch), NULL);
  /**
   * GnnOneCycleLR:pct-start:
   *
   * The fraction of the cycle spent raising the rate (`pct_start`), in [0, 1].
   */
  props[PROP_PCT_START] = gnn_lr_prop_double ("pct-start", 0.3, GNN_LR_ARGUMENT,
                                              G_STRUCT_OFFSET (GnnOneCycleLR, pct_start));
  /**
   * GnnOneCycleLR:anneal-strategy:
   *
   * How the rates move within a phase (`anneal_strategy`): "cos" or "linear".
   */
  props[PROP_ANNEAL_STRATEGY] = (GnnProp) {
    g_param_spec_string ("anneal-strategy", NULL, NULL, "cos", GNN_LR_ARGUMENT),
    G_STRUCT_OFFSET (GnnOneCycleLR, anneal_strategy) };
  /**
   * GnnOneCycleLR:cycle-momentum:
   *
   * Whether the momentum (or the first beta) cycles too (`cycle_momentum`).
   */
  props[PROP_CYCLE_MOMENTUM] = (GnnProp) {
    g_param_spec_boolean ("cycle-momentum", NULL, NULL, TRUE, GNN_LR_ARGUMENT),
    G_STRUCT_OFFSET (GnnOneCycleLR, cycle_momentum) };
  /**
   * GnnOneCycleLR:base-momentum:
   *
   * The lowest momentum (`base_momentum`), a #GVariant `ad`: one value or one per group;
   * PyTorch's default is 0.85.
   */
  props[PROP_BASE_MOMENTUM] = (GnnProp) {
    gnn_param_spec_doubles ("base-momentum", gnn_prop_new_doubles (&base_momentum, 1), GNN_LR_ARGUMENT),
    G_STRUCT_OFFSET (GnnOneCycleLR, base_momentum) };
  /**
   * GnnOneCycleLR:max-momentum:
   *
   * The highest momentum (`max_momentum`), a #GVariant `ad`: one value or one per group;
   * PyTorch's default is 0.95.
   */
  props[PROP_MAX_MOMENTUM] = (GnnProp) {
    gnn_param_spec_doubles ("max-momentum", gnn_prop_new_doubles (&max_momentum, 1), GNN_LR_ARGUMENT),
    G_STRUCT_OFFSET (GnnOneCycleLR, max_momentum) };
  /**
   * GnnOneCycleLR:div-factor:
   *
   * The initial rate is `max_lr / div_factor` (`div_factor`).
   */
  props[PROP_DIV_FACTOR] = gnn_lr_prop_double ("div-factor", 25, GNN_LR_ARGUMENT,
                                               G_STRUCT_OFFSET (GnnOneCycleLR, div_factor));
  /**
   * GnnOneCycleLR:final-div-factor:
   *
   * The lowest rate is the initial rate / `final_div_factor` (`final_div_factor`).
   */
  props[PROP_FINAL_DIV_FACTOR] = gnn_lr_prop_double ("final-div-factor", 1e4, GNN_LR_ARGUMENT,
                                                     G_STRUCT_OFFSET (GnnOneCycleLR, final_div_factor));
  /**
   * GnnOneCycleLR:three-phase:
   *
   * Whether to fall back to the initial rate before falling to the lowest (`three_phase`).
   */
  props[PROP_THREE_PHASE] = (GnnProp) {
    g_param_spec_boolean ("three-phase", NULL, NULL, FALSE, GNN_LR_ARGUMENT),
    G_STRUCT_OFFSET (GnnOneCycleLR, three_phase) };
  gnn_props_install (object_class, props, N_PROPS);
}

static void
gnn_one_cycle_lr_init (GnnOneCycleLR *self)
{
}

/**
 * gnn_one_cycle_lr_new:
 * @optimizer: the optimizer whose groups to schedule
 * @max_lr: (array length=n_max_lr): the peak learning rate: one value for every group, or
 *   one per group
 * @n_max_lr: the number of values in @max_lr
 * @total_steps: the number of steps in the cycle, or -1 (None) to take
 *   @epochs × @steps_per_epoch
 * @epochs: the number of epochs, or -1 (None)
 * @steps_per_epoch: the number of steps per epoch, or -1 (None)
 * @pct_start: the fraction of the cycle spent raising the rate (PyTorch's default: 0.3)
 * @anneal_strategy: (nullable): "cos" (the default, for %NULL) or "linear"
 * @cycle_momentum: whether to cycle the momentum inversely to the rate (default: %TRUE)
 * @base_momentum: (array length=n_base_momentum) (nullable): the lowest momentum, one
 *   value or one per group; %NULL for PyTorch's default, 0.85
 * @n_base_momentum: the number of values in @base_momentum
 * @max_momentum: (array length=n_max_momentum) (nullable): the highest momentum, one value
 *   or one per group; %NULL for PyTorch's default, 0.95
 * @n_max_momentum: the number of values in @max_momentum
 * @div_factor: the initial rate is @max_lr / @div_factor (default: 25)
 * @final_div_factor: the lowest rate is the initial rate / @final_div_factor (default:
 *   1e4)
 * @three_phase: whether to fall back to the initial rate before falling to the lowest
 *   (default: %FALSE)
 * @last_epoch: -1 for a new schedule, or the number of batches to resume after
 * @error: return location for a #GError
 *
 * Creates a 1cycle scheduler (`OneCycleLR (optimizer, max_lr, total_steps, epochs,
 * steps_per_epoch, pct_start, anneal_strategy, cycle_momentum, base_momentum,
 * max_momentum, div_factor, final_div_factor, three_phase, last_epoch)`), sets the group
 * options it works from when @last_epoch is -1, and performs its initial step.
 *
 * Returns: (transfer full) (nullable): the scheduler, or %NULL with @error set, with
 *   PyTorch's messages: no total steps, a count that is not positive, @pct_start outside
 *   [0, 1], an unknown @anneal_strategy, a list of values of the wrong length, or
 *   @cycle_momentum with an optimizer that has neither `momentum` nor `betas`
 */
GnnOneCycleLR *
gnn_one_cycle_lr_new (GnnOptimizer  *optimizer,
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
                      GError       **error)
{
  const double default_base = 0.85, default_max = 0.95;

  g_return_val_if_fail (GNN_IS_OPTIMIZER (optimizer), NULL);
  g_return_val_if_fail (max_lr != NULL || n_max_lr == 0, NULL);
  if (base_momentum == NULL || n_base_momentum == 0)
    base_momentum = &default_base, n_base_momentum = 1;
  if (max_momentum == NULL || n_max_momentum == 0)
    max_momentum = &default_max, n_max_momentum = 1;
  return g_initable_new (GNN_TYPE_ONE_CYCLE_LR, NULL, error, "optimizer", optimizer, "last-epoch", last_epoch,
                         "max-lr", gnn_prop_new_doubles (max_lr, n_max_lr),
                         "total-steps", MAX (total_steps, -1), "epochs", MAX (epochs, -1),
                         "steps-per-epoch", MAX (steps_per_epoch, -1), "pct-start", pct_start,
                         "anneal-strategy", anneal_strategy, "cycle-momentum", cycle_momentum,
                         "base-momentum", gnn_prop_new_doubles (base_momentum, n_base_momentum),
                         "max-momentum", gnn_prop_new_doubles (max_momentum, n_max_momentum),
                         "div-factor", div_factor, "final-div-factor", final_div_factor,
                         "three-phase", three_phase, NULL);
}
