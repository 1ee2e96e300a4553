/* gnn-sequential-lr.c: schedulers one after the other, and all at once
 * (torch.optim.lr_scheduler.SequentialLR and ChainedScheduler)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include "gnn-lr-scheduler-private.h"

/**
 * GnnSequentialLR:
 *
 * Runs several schedulers of the same optimizer one after the other
 * (`torch.optim.lr_scheduler.SequentialLR`): the first until the first milestone epoch, the
 * second until the next, and so on. With `lr` 1, a [class@Gnn.LinearLR] warm-up and an
 * [class@Gnn.ExponentialLR] of `gamma` 0.9 at milestone 2: the warm-up's rates for epochs 0
 * and 1, then 1, 0.9, 0.81 ...
 *
 * As PyTorch, construction resets every group's `lr` to its `initial_lr`, undoes the
 * initial step of every scheduler (decrementing their `last_epoch`, recursively into
 * nested SequentialLRs as current PyTorch does) and performs the initial step of the first
 * one only. At a milestone, the next scheduler is moved to epoch 0 in its closed form
 * (PyTorch's `step (0)`): a [class@Gnn.StepLR], [class@Gnn.MultiStepLR],
 * [class@Gnn.ExponentialLR], [class@Gnn.CosineAnnealingLR], [class@Gnn.LinearLR],
 * [class@Gnn.ConstantLR] or [class@Gnn.PolynomialLR] starts again from its base rates, a
 * [class@Gnn.CosineAnnealingWarmRestarts] from the start of its first period, other
 * schedulers compute their epoch 0 with `get_lr`. As
 * current PyTorch (`_update_lr (0)`), that does not count as a step of the scheduler:
 * PyTorch 1.13's `step (0)` also incremented its step count, so a [class@Gnn.SWALR] put
 * after a milestone there began annealing one step earlier.
 *
 * Built from properties, it takes [property@Gnn.SequentialLR:schedulers] (a list model of
 * the schedulers) and [property@Gnn.SequentialLR:milestones]: `g_initable_new
 * (GNN_TYPE_SEQUENTIAL_LR, NULL, &error, "optimizer", optimizer, "schedulers", list,
 * "milestones", milestones, NULL)`.
 *
 * Its state adds `_milestones` (`ax`) and `_schedulers` (`av`: the state of each
 * scheduler, an `a{sv}`).
 */
struct _GnnSequentialLR
{
  GnnLRScheduler parent_instance;

  GListModel *scheduler_list;   /* the property, read at initialisation into: */
  GPtrArray *schedulers;        /* GnnLRScheduler, owned */
  GVariant *milestones;         /* 'ax' */
};

G_DEFINE_FINAL_TYPE (GnnSequentialLR, gnn_sequential_lr, GNN_TYPE_LR_SCHEDULER)

enum { PROP_0, PROP_SCHEDULERS, PROP_MILESTONES, N_PROPS };
static GnnProp props[N_PROPS];

static void
gnn_sequential_lr_finalize (GObject *object)
{
  g_ptr_array_unref (GNN_SEQUENTIAL_LR (object)->schedulers);
  G_OBJECT_CLASS (gnn_sequential_lr_parent_class)->finalize (object);
}

/* Python's bisect.bisect_right over the milestones */
static guint
bisect_right (GnnSequentialLR *self,
              int              x)
{
  gsize hi;
  const gint64 *m = gnn_prop_int64s (self->milestones, &hi);
  guint lo = 0;

  while (lo < hi)
    {
      guint mid = (lo + hi) / 2;

      if (x < m[mid])
        hi = mid;
      else
        lo = mid + 1;
    }
  return lo;
}

/* the milestone before the @index-th scheduler */
static gint64
milestone (GnnSequentialLR *self,
           guint            index)
{
  gsize n;

  return gnn_prop_int64s (self->milestones, &n)[index];
}

/* a schedulers property (@list) into @schedulers */
static gboolean
take_schedulers (GListModel *list,
                 GPtrArray  *schedulers,
                 GError    **error)
{
  guint n = list ? g_list_model_get_n_items (list) : 0;

  g_ptr_array_set_size (schedulers, 0);
  for (guint i = 0; i < n; i++)
    {
      GObject *item = g_list_model_get_item (list, i);

      if (!GNN_IS_LR_SCHEDULER (item))
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                       "schedulers: expected learning-rate schedulers (GnnLRScheduler), found a %s "
                       "at %u", G_OBJECT_TYPE_NAME (item), i);
          g_object_unref (item);
          return FALSE;
        }
      g_ptr_array_add (schedulers, item);
    }
  return TRUE;
}

/* "_schedulers": the state of each scheduler, an 'av' of 'a{sv}' */
static GVariant *
save_schedulers (GPtrArray *schedulers)
{
  g_auto(GVariantBuilder) b = G_VARIANT_BUILDER_INIT (G_VARIANT_TYPE ("av"));

  for (guint i = 0; i < schedulers->len; i++)
    {
      g_autoptr(GVariant) s = gnn_lr_scheduler_state_dict (g_ptr_array_index (schedulers, i));

      g_variant_builder_add (&b, "v", s);
    }
  return g_variant_builder_end (&b);
}

/* "_schedulers" of a loaded state (@states, NULL when absent): checks its shape */
static gboolean
check_scheduler_states (GVariant   *states,
                        GPtrArray  *schedulers,
                        GError    **error)
{
  if (states == NULL ||
      (g_variant_is_of_type (states, G_VARIANT_TYPE_ARRAY) && g_variant_n_children (states) == schedulers->len))
    return TRUE;
  g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
               "\"_schedulers\" in the loaded scheduler state is a '%s', expected a list "
               "of the states of the %u schedulers", g_variant_get_type_string (states), schedulers->len);
  return FALSE;
}

/* loads each state of @states (checked) into its scheduler; @who names the owner */
static gboolean
load_schedulers (GVariant   *states,
                 GPtrArray  *schedulers,
                 const char *who,
                 GError    **error)
{
  for (guint i = 0; states && i < schedulers->len; i++)
    {
      g_autoptr(GVariant) child = g_variant_get_child_value (states, i);

      while (g_variant_is_of_type (child, G_VARIANT_TYPE_VARIANT))
        {
          GVariant *inner = g_variant_get_variant (child);

          g_variant_unref (child);
          child = inner;
        }
      if (!gnn_lr_scheduler_load_state_dict (g_ptr_array_index (schedulers, i), child, error))
        {
          g_prefix_error (error, "scheduler %u of the %s: ", i, who);
          return FALSE;
        }
    }
  return TRUE;
}

/* a list store of @schedulers, for the schedulers properties */
static GListStore *
scheduler_store (GnnLRScheduler **schedulers,
                 guint            n_schedulers)
{
  GListStore *list = g_list_store_new (GNN_TYPE_LR_SCHEDULER);

  for (guint i = 0; i < n_schedulers; i++)
    g_list_store_append (list, schedulers[i]);
  return list;
}

static void
recursive_undo (GnnLRScheduler *sched)
{
  if (GNN_IS_SEQUENTIAL_LR (sched))
    {
      GnnSequentialLR *seq = GNN_SEQUENTIAL_LR (sched);

      for (guint i = 0; i < seq->schedulers->len; i++)
        recursive_undo (g_ptr_array_index (seq->schedulers, i));
    }
  else
    gnn_lr_scheduler_set_last_epoch (sched, gnn_lr_scheduler_get_last_epoch (sched) - 1);
}

static void
copy_last_lr (GnnLRScheduler *to,
              GnnLRScheduler *from)
{
  guint n = 0;
  g_autofree double *lrs = gnn_lr_scheduler_get_last_lr (from, &n);

  gnn_lr_scheduler_set_last_lr (to, lrs, n);
}

static gboolean
gnn_sequential_lr_init_hook (GnnLRScheduler *sched,
                             GError        **error)
{
  GnnSequentialLR *self = GNN_SEQUENTIAL_LR (sched);
  GnnOptimizer *optimizer = gnn_lr_scheduler_get_optimizer (sched);
  guint n_groups = gnn_lr_scheduler_n_groups (sched);
  g_autofree double *initial = g_new (double, MAX (n_groups, 1));
  gsize n_milestones;

  gnn_prop_int64s (self->milestones, &n_milestones);
  if (!take_schedulers (self->scheduler_list, self->schedulers, error))
    return FALSE;
  if (self->schedulers->len < 1)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "SequentialLR expects at least one scheduler, but got no scheduler.");
      return FALSE;
    }
  for (guint i = 0; i < self->schedulers->len; i++)
    {
      GnnLRScheduler *s = g_ptr_array_index (self->schedulers, i);
      GnnOptimizer *o = gnn_lr_scheduler_get_optimizer (s);

      if (o != optimizer)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                       "SequentialLR expects all schedulers to belong to the same optimizer, but "
                       "got scheduler %s at index %u has %s (%p), which is different from %s (%p).",
                       gnn_lr_scheduler_type_name (s), i,
                       o ? G_OBJECT_TYPE_NAME (o) : "None", o,
                       G_OBJECT_TYPE_NAME (optimizer), optimizer);
          return FALSE;
        }
    }
  if (n_milestones != self->schedulers->len - 1)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "Sequential Schedulers expects number of schedulers provided to be one more "
                   "than the number of milestone points, but got number of schedulers %u and the "
                   "number of milestones to be equal to %u",
                   self->schedulers->len, (guint) n_milestones);
      return FALSE;
    }
  for (guint g = 0; g < n_groups; g++)
    if (!gnn_param_group_has_option (gnn_optimizer_get_param_group (optimizer, g), "initial_lr"))
      {
        g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                     "param 'initial_lr' is not specified in param_groups[%u]", g);
        return FALSE;
      }
  if (!gnn_lr_scheduler_read_groups (sched, "initial_lr", initial, error) ||
      !gnn_lr_scheduler_init_base (sched, FALSE, error))
    return FALSE;

  gnn_lr_scheduler_set_last_epoch (sched, gnn_lr_scheduler_get_last_epoch (sched) + 1);
  /* reset the learning rates back to their initial values */
  for (guint g = 0; g < n_groups; g++)
    gnn_param_group_set_double (gnn_optimizer_get_param_group (optimizer, g), "lr", initial[g]);
  /* undo the step performed by the other schedulers */
  recursive_undo (sched);
  /* perform the initial step of the first scheduler only */
  if (!gnn_lr_scheduler_initial_step (g_ptr_array_index (self->schedulers, 0), error))
    return FALSE;
  gnn_lr_scheduler_set_step_count (sched, 1);
  copy_last_lr (sched, g_ptr_array_index (self->schedulers, 0));
  return TRUE;
}

static gboolean
gnn_sequential_lr_step_hook (GnnLRScheduler *sched,
                             GError        **error)
{
  GnnSequentialLR *self = GNN_SEQUENTIAL_LR (sched);
  int e = gnn_lr_scheduler_get_last_epoch (sched) + 1;
  guint idx;
  GnnLRScheduler *current;
  gboolean ok;

  if (self->schedulers->len < 1)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "SequentialLR expects at least one scheduler, but got no scheduler.");
      return FALSE;
    }
  idx = bisect_right (self, e);
  if (idx >= self->schedulers->len)
    idx = self->schedulers->len - 1;
  current = g_ptr_array_index (self->schedulers, idx);
  if (idx > 0 && milestone (self, idx - 1) == e)
    ok = gnn_lr_scheduler_update_lr_to (current, 0, error);
  else
    ok = gnn_lr_scheduler_step (current, error);
  if (!ok)
    return FALSE;
  gnn_lr_scheduler_set_last_epoch (sched, e);
  gnn_lr_scheduler_set_step_count (sched, gnn_lr_scheduler_get_step_count (sched) + 1);
  copy_last_lr (sched, current);
  return TRUE;
}

static void
gnn_sequential_lr_save_state (GnnLRScheduler *sched,
                              GVariantDict   *state)
{
  GnnSequentialLR *self = GNN_SEQUENTIAL_LR (sched);
  gsize n;
  const gint64 *m = gnn_prop_int64s (self->milestones, &n);

  GNN_LR_SCHEDULER_CLASS (gnn_sequential_lr_parent_class)->save_state (sched, state);
  g_variant_dict_insert_value (state, "_milestones",
                               g_variant_new_fixed_array (G_VARIANT_TYPE_INT64, m, n, sizeof (gint64)));
  g_variant_dict_insert_value (state, "_schedulers", save_schedulers (self->schedulers));
}

static gboolean
gnn_sequential_lr_load_state (GnnLRScheduler *sched,
                              GVariantDict   *state,
                              GError        **error)
{
  GnnSequentialLR *self = GNN_SEQUENTIAL_LR (sched);
  g_autoptr(GVariant) scheds = g_variant_dict_lookup_value (state, "_schedulers", NULL);
  g_autoptr(GVariant) miles = g_variant_dict_lookup_value (state, "_milestones", NULL);
  g_autoptr(GArray) milestones = NULL;
  gsize n_milestones;

  gnn_prop_int64s (self->milestones, &n_milestones);
  if (miles)
    {
      gsize n = g_variant_is_of_type (miles, G_VARIANT_TYPE_ARRAY) ? g_variant_n_children (miles) : 0;

      milestones = g_array_new (FALSE, FALSE, sizeof (int));
      for (gsize i = 0; i < n; i++)
        {
          g_autoptr(GVariant) child = g_variant_get_child_value (miles, i);
          gint64 v;

          if (!gnn_lr_variant_get_integer (child, &v) || v < G_MININT || v > G_MAXINT)
            goto bad_milestones;
          g_array_append_vals (milestones, &(int) { (int) v }, 1);
        }
      if (!g_variant_is_of_type (miles, G_VARIANT_TYPE_ARRAY) || n != n_milestones)
        goto bad_milestones;
    }
  if (!check_scheduler_states (scheds, self->schedulers, error) ||
      !GNN_LR_SCHEDULER_CLASS (gnn_sequential_lr_parent_class)->load_state (sched, state, error) ||
      !load_schedulers (scheds, self->schedulers, "SequentialLR", error))
    return FALSE;
  if (milestones)
    {
      g_clear_pointer (&self->milestones, g_variant_unref);
      self->milestones = g_variant_ref_sink (gnn_lr_milestones_new ((const int *) milestones->data,
                                                                     milestones->len));
    }
  return TRUE;

bad_milestones:
  g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
               "\"_milestones\" in the loaded scheduler state is a '%s', expected a list of %u "
               "integers", g_variant_get_type_string (miles), (guint) n_milestones);
  return FALSE;
}

static void
gnn_sequential_lr_class_init (GnnSequentialLRClass *klass)
{
  GnnLRSchedulerClass *sched_class = GNN_LR_SCHEDULER_CLASS (klass);
  GnnLRSchedulerHooks *hooks = gnn_lr_scheduler_class_get_hooks (sched_class);

  G_OBJECT_CLASS (klass)->finalize = gnn_sequential_lr_finalize;
  sched_class->save_state = gnn_sequential_lr_save_state;
  sched_class->load_state = gnn_sequential_lr_load_state;
  hooks->init = gnn_sequential_lr_init_hook;
  hooks->step = gnn_sequential_lr_step_hook;

  /**
   * GnnSequentialLR:schedulers:
   *
   * The schedulers, in the order they run (`schedulers`): a list model of
   * [class@Gnn.LRScheduler]s of the same optimizer, at least one, read when the scheduler
   * is initialised.
   */
  props[PROP_SCHEDULERS] = (GnnProp) {
    g_param_spec_object ("schedulers", NULL, NULL, G_TYPE_LIST_MODEL, GNN_LR_ARGUMENT),
    G_STRUCT_OFFSET (GnnSequentialLR, scheduler_list) };
  /**
   * GnnSequentialLR:milestones:
   *
   * The epochs at which the next scheduler takes over (`milestones`), a #GVariant `ax`:
   * one less than the schedulers.
   */
  props[PROP_MILESTONES] = (GnnProp) {
    gnn_param_spec_int64s ("milestones", GNN_LR_ARGUMENT),
    G_STRUCT_OFFSET (GnnSequentialLR, milestones), gnn_lr_check_milestones };
  gnn_props_install (G_OBJECT_CLASS (klass), props, N_PROPS);
}

static void
gnn_sequential_lr_init (GnnSequentialLR *self)
{
  self->schedulers = g_ptr_array_new_with_free_func (g_object_unref);
}

/**
 * gnn_sequential_lr_new:
 * @optimizer: the optimizer of every scheduler
 * @schedulers: (array length=n_schedulers): the schedulers, in the order they run
 * @n_schedulers: the number of schedulers, at least one
 * @milestones: (array length=n_milestones) (nullable): the epochs at which the next
 *   scheduler takes over
 * @n_milestones: the number of milestones: one less than @n_schedulers
 * @last_epoch: -1 for a new schedule
 * @error: return location for a #GError
 *
 * Creates a scheduler that runs @schedulers one after the other (`SequentialLR (optimizer,
 * schedulers, milestones, last_epoch)`): it resets the groups' rates to their initial
 * values, undoes the initial steps of @schedulers and performs that of the first.
 *
 * Returns: (transfer full) (nullable): the scheduler, or %NULL with @error set, with
 *   PyTorch's messages: no scheduler, a scheduler of another optimizer, or a number of
 *   milestones that is not one less than the number of schedulers
 */
GnnSequentialLR *
gnn_sequential_lr_new (GnnOptimizer    *optimizer,
                       GnnLRScheduler **schedulers,
                       guint            n_schedulers,
                       const int       *milestones,
                       guint            n_milestones,
                       int              last_epoch,
                       GError         **error)
{
  g_autoptr(GListStore) list = NULL;

  g_return_val_if_fail (GNN_IS_OPTIMIZER (optimizer), NULL);
  g_return_val_if_fail (schedulers != NULL || n_schedulers == 0, NULL);
  g_return_val_if_fail (milestones != NULL || n_milestones == 0, NULL);
  for (guint i = 0; i < n_schedulers; i++)
    g_return_val_if_fail (GNN_IS_LR_SCHEDULER (schedulers[i]), NULL);
  list = scheduler_store (schedulers, n_schedulers);
  return g_initable_new (GNN_TYPE_SEQUENTIAL_LR, NULL, error, "optimizer", optimizer, "last-epoch", last_epoch,
                         "schedulers", list, "milestones", gnn_lr_milestones_new (milestones, n_milestones),
                         NULL);
}

/**
 * gnn_sequential_lr_get_n_schedulers:
 * @self: a scheduler
 *
 * The number of schedulers it runs.
 *
 * Returns: the number of schedulers
 */
guint
gnn_sequential_lr_get_n_schedulers (GnnSequentialLR *self)
{
  g_return_val_if_fail (GNN_IS_SEQUENTIAL_LR (self), 0);
  return self->schedulers->len;
}

/**
 * gnn_sequential_lr_get_scheduler:
 * @self: a scheduler
 * @index: the position of a scheduler
 *
 * One of the schedulers it runs (`_schedulers[index]`).
 *
 * Returns: (transfer none): the scheduler
 */
GnnLRScheduler *
gnn_sequential_lr_get_scheduler (GnnSequentialLR *self,
                                 guint            index)
{
  g_return_val_if_fail (GNN_IS_SEQUENTIAL_LR (self), NULL);
  g_return_val_if_fail (index < self->schedulers->len, NULL);
  return g_ptr_array_index (self->schedulers, index);
}

/**
 * gnn_sequential_lr_get_milestones:
 * @self: a scheduler
 * @n_milestones: (out): return location for the number of milestones
 *
 * The milestones (`_milestones`).
 *
 * Returns: (array length=n_milestones) (transfer full) (nullable): the milestones
 */
int *
gnn_sequential_lr_get_milestones (GnnSequentialLR *self,
                                  guint           *n_milestones)
{
  g_return_val_if_fail (n_milestones != NULL, NULL);
  *n_milestones = 0;
  g_return_val_if_fail (GNN_IS_SEQUENTIAL_LR (self), NULL);
  return gnn_lr_milestones_get (self->milestones, FALSE, n_milestones);
}

/* ====================================================================================== */
/* ChainedScheduler                                                                       */
/* ====================================================================================== */

/**
 * GnnChainedScheduler:
 *
 * Steps several chainable schedulers of the same optimizer at once
 * (`torch.optim.lr_scheduler.ChainedScheduler`): each [method@Gnn.LRScheduler.step] steps
 * every scheduler in turn, so that their changes multiply. With `lr` 1, a
 * [class@Gnn.ConstantLR] of `factor` 0.1 for 2 epochs and an [class@Gnn.ExponentialLR] of
 * `gamma` 0.9: 0.09, 0.081, 0.729, 0.6561 ...
 *
 * It takes its optimizer from the schedulers, and constructing it changes nothing: the
 * schedulers have made their initial steps already. As PyTorch's, it has no base rates of
 * its own; [property@Gnn.LRScheduler:last-epoch] counts its steps from 0.
 *
 * Built from properties, it takes [property@Gnn.ChainedScheduler:schedulers] (a list model
 * of the schedulers): `g_initable_new (GNN_TYPE_CHAINED_SCHEDULER, NULL, &error,
 * "schedulers", list, NULL)`.
 *
 * Its state is PyTorch's: `_schedulers` (`av`: the state of each scheduler, an `a{sv}`) and
 * `_last_lr` (`ad`).
 *
 * Since: 0.1
 */
struct _GnnChainedScheduler
{
  GnnLRScheduler parent_instance;

  GListModel *scheduler_list;   /* the property, read at initialisation into: */
  GPtrArray *schedulers;        /* GnnLRScheduler, owned */
};

G_DEFINE_FINAL_TYPE (GnnChainedScheduler, gnn_chained_scheduler, GNN_TYPE_LR_SCHEDULER)

enum { CHAIN_PROP_0, CHAIN_PROP_SCHEDULERS, CHAIN_N_PROPS };
static GnnProp chain_props[CHAIN_N_PROPS];

static void
gnn_chained_scheduler_finalize (GObject *object)
{
  g_ptr_array_unref (GNN_CHAINED_SCHEDULER (object)->schedulers);
  G_OBJECT_CLASS (gnn_chained_scheduler_parent_class)->finalize (object);
}

static GnnOptimizer *
gnn_chained_scheduler_default_optimizer (GnnLRScheduler *sched)
{
  GnnChainedScheduler *self = GNN_CHAINED_SCHEDULER (sched);
  g_autoptr(GObject) first = NULL;

  if (self->scheduler_list == NULL || g_list_model_get_n_items (self->scheduler_list) == 0)
    return NULL;
  first = g_list_model_get_item (self->scheduler_list, 0);
  return GNN_IS_LR_SCHEDULER (first) ? gnn_lr_scheduler_get_optimizer (GNN_LR_SCHEDULER (first)) : NULL;
}

/* `_last_lr`: the rates of the groups now */
static gboolean
chained_update_last_lr (GnnLRScheduler *sched,
                        GError        **error)
{
  guint n = 0;
  g_autofree double *lrs = gnn_lr_scheduler_current_lrs (sched, &n, error);

  if (lrs == NULL)
    return FALSE;
  gnn_lr_scheduler_set_last_lr (sched, lrs, n);
  return TRUE;
}

static gboolean
gnn_chained_scheduler_init_hook (GnnLRScheduler *sched,
                                 GError        **error)
{
  GnnChainedScheduler *self = GNN_CHAINED_SCHEDULER (sched);
  GnnOptimizer *optimizer = gnn_lr_scheduler_get_optimizer (sched);

  if (!take_schedulers (self->scheduler_list, self->schedulers, error))
    return FALSE;
  if (self->schedulers->len < 1)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "ChainedScheduler expects at least one scheduler, but got no scheduler.");
      return FALSE;
    }
  for (guint i = 0; i < self->schedulers->len; i++)
    if (gnn_lr_scheduler_get_optimizer (g_ptr_array_index (self->schedulers, i)) != optimizer)
      {
        g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                     "ChainedScheduler expects all schedulers to belong to the same optimizer, but "
                     "got schedulers at index 0 and %u to be different", i);
        return FALSE;
      }
  gnn_lr_scheduler_set_last_epoch (sched, 0);
  return chained_update_last_lr (sched, error);
}

static gboolean
gnn_chained_scheduler_step_hook (GnnLRScheduler *sched,
                                 GError        **error)
{
  GnnChainedScheduler *self = GNN_CHAINED_SCHEDULER (sched);

  for (guint i = 0; i < self->schedulers->len; i++)
    if (!gnn_lr_scheduler_step (g_ptr_array_index (self->schedulers, i), error))
      {
        g_prefix_error (error, "scheduler %u of the ChainedScheduler: ", i);
        return FALSE;
      }
  gnn_lr_scheduler_set_last_epoch (sched, gnn_lr_scheduler_get_last_epoch (sched) + 1);
  gnn_lr_scheduler_set_step_count (sched, gnn_lr_scheduler_get_step_count (sched) + 1);
  return chained_update_last_lr (sched, error);
}

static void
gnn_chained_scheduler_save_state (GnnLRScheduler *sched,
                                  GVariantDict   *state)
{
  GnnChainedScheduler *self = GNN_CHAINED_SCHEDULER (sched);
  guint n = 0;
  g_autofree double *last_lr = gnn_lr_scheduler_get_last_lr (sched, &n);

  /* PyTorch's keys: not those of the base class */
  g_variant_dict_insert_value (state, "_schedulers", save_schedulers (self->schedulers));
  g_variant_dict_insert_value (state, "_last_lr",
                               g_variant_new_fixed_array (G_VARIANT_TYPE_DOUBLE, last_lr, n, sizeof (double)));
}

static gboolean
gnn_chained_scheduler_load_state (GnnLRScheduler *sched,
                                  GVariantDict   *state,
                                  GError        **error)
{
  GnnChainedScheduler *self = GNN_CHAINED_SCHEDULER (sched);
  g_autoptr(GVariant) scheds = g_variant_dict_lookup_value (state, "_schedulers", NULL);
  g_autofree double *last_lr = NULL;

  if (!check_scheduler_states (scheds, self->schedulers, error) ||
      !gnn_lr_state_get_group_doubles (sched, state, "_last_lr", &last_lr, error) ||
      !load_schedulers (scheds, self->schedulers, "ChainedScheduler", error))
    return FALSE;
  if (last_lr)
    gnn_lr_scheduler_set_last_lr (sched, last_lr, gnn_lr_scheduler_n_groups (sched));
  return TRUE;
}

static void
gnn_chained_scheduler_class_init (GnnChainedSchedulerClass *klass)
{
  GnnLRSchedulerClass *sched_class = GNN_LR_SCHEDULER_CLASS (klass);
  GnnLRSchedulerHooks *hooks = gnn_lr_scheduler_class_get_hooks (sched_class);

  G_OBJECT_CLASS (klass)->finalize = gnn_chained_scheduler_finalize;
  sched_class->save_state = gnn_chained_scheduler_save_state;
  sched_class->load_state = gnn_chained_scheduler_load_state;
  hooks->default_optimizer = gnn_chained_scheduler_default_optimizer;
  hooks->init = gnn_chained_scheduler_init_hook;
  hooks->step = gnn_chained_scheduler_step_hook;

  /**
   * GnnChainedScheduler:schedulers:
   *
   * The schedulers to step together, in order (`schedulers`): a list model of
   * [class@Gnn.LRScheduler]s of the same optimizer, at least one, read when the scheduler
   * is initialised; the [property@Gnn.LRScheduler:optimizer] is theirs when not given.
   *
   * Since: 0.1
   */
  chain_props[CHAIN_PROP_SCHEDULERS] = (GnnProp) {
    g_param_spec_object ("schedulers", NULL, NULL, G_TYPE_LIST_MODEL, GNN_LR_ARGUMENT),
    G_STRUCT_OFFSET (GnnChainedScheduler, scheduler_list) };
  gnn_props_install (G_OBJECT_CLASS (klass), chain_props, CHAIN_N_PROPS);
}

static void
gnn_chained_scheduler_init (GnnChainedScheduler *self)
{
  self->schedulers = g_ptr_array_new_with_free_func (g_object_unref);
}

/**
 * gnn_chained_scheduler_new:
 * @schedulers: (array length=n_schedulers): the schedulers to step together, in order
 * @n_schedulers: the number of schedulers, at least one
 * @error: return location for a #GError
 *
 * Creates a scheduler that steps all of @schedulers at once (`ChainedScheduler
 * (schedulers)`); its optimizer is theirs.
 *
 * Returns: (transfer full) (nullable): the scheduler, or %NULL with @error set: no
 *   scheduler, or schedulers of different optimizers (PyTorch's message)
 *
 * Since: 0.1
 */
GnnChainedScheduler *
gnn_chained_scheduler_new (GnnLRScheduler **schedulers,
                           guint            n_schedulers,
                           GError         **error)
{
  g_autoptr(GListStore) list = NULL;

  g_return_val_if_fail (schedulers != NULL || n_schedulers == 0, NULL);
  for (guint i = 0; i < n_schedulers; i++)
    g_return_val_if_fail (GNN_IS_LR_SCHEDULER (schedulers[i]), NULL);
  list = scheduler_store (schedulers, n_schedulers);
  return g_initable_new (GNN_TYPE_CHAINED_SCHEDULER, NULL, error, "schedulers", list, NULL);
}

/**
 * gnn_chained_scheduler_get_n_schedulers:
 * @self: a scheduler
 *
 * The number of schedulers it steps.
 *
 * Returns: the number of schedulers
 *
 * Since: 0.1
 */
guint
gnn_chained_scheduler_get_n_schedulers (GnnChainedScheduler *self)
{
  g_return_val_if_fail (GNN_IS_CHAINED_SCHEDULER (self), 0);
  return self->schedulers->len;
}

/**
 * gnn_chained_scheduler_get_scheduler:
 * @self: a scheduler
 * @index: the position of a scheduler
 *
 * One of the schedulers it steps (`_schedulers[index]`).
 *
 * Returns: (transfer none): the scheduler
 *
 * Since: 0.1
 */
GnnLRScheduler *
gnn_chained_scheduler_get_scheduler (GnnChainedScheduler *self,
                                     guint                index)
{
  g_return_val_if_fail (GNN_IS_CHAINED_SCHEDULER (self), NULL);
  g_return_val_if_fail (index < self->schedulers->len, NULL);
  return g_ptr_array_index (self->schedulers, index);
}
