/* gnn-lr-scheduler.c: the base class of learning-rate schedulers
 * (torch.optim.lr_scheduler.LRScheduler)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <gio/gio.h>

#include "gnn-lr-scheduler-private.h"
#include "nn/gnn-props-private.h"

/**
 * GnnLRScheduler:
 *
 * The base class of learning-rate schedulers (`torch.optim.lr_scheduler.LRScheduler`):
 * a scheduler changes the `lr` option of every parameter group of its optimizer each time
 * [method@Gnn.LRScheduler.step] is called, usually once an epoch after
 * [method@Gnn.Optimizer.step].
 *
 * Construction follows PyTorch: with [property@Gnn.LRScheduler:last-epoch] -1 (a new
 * schedule), every group gets an `initial_lr` option equal to its `lr` unless it already has
 * one; with any other value (resuming), every group must already have `initial_lr`, as
 * restored by [method@Gnn.Optimizer.load_state_dict]. The `initial_lr`s are the
 * [method@Gnn.LRScheduler.get_base_lrs]. The scheduler then performs its initial step,
 * which takes `last_epoch` from -1 to 0.
 *
 * Each step increments `last_epoch` and sets the `lr` of every group to what the
 * `get_lr` virtual method computes. gnn's schedulers use PyTorch's chainable form, which
 * computes the next rate from the current one, so that several schedulers can act on the
 * same optimizer, and a schedule drifts from its closed form exactly as PyTorch's does.
 *
 * Construction can fail (PyTorch raises), so schedulers implement [iface@Gio.Initable]:
 * the constructors of gnn's schedulers report errors through their #GError argument. Every
 * scheduler can also be built from its properties alone, as bindings and loaders build
 * objects, the arguments of its constructor being its properties:
 *
 * ```c
 * scheduler = g_initable_new (GNN_TYPE_STEP_LR, NULL, &error, "optimizer", optimizer,
 *                             "step-size", 30, "gamma", 0.1, NULL);
 * ```
 *
 * [method@Gio.Initable.init] checks them (with PyTorch's messages) and performs the
 * initial step; until it has, the scheduler refuses to step. The `_new` constructors are
 * shorthands for g_initable_new(). A subclass written in a binding creates its object and
 * then calls [method@Gio.Initable.init]; gnn's Python overrides do that in
 * `LRScheduler.__init__`, so a Python subclass is written as in PyTorch:
 *
 * ```python
 * class Halving(Gnn.LRScheduler):
 *     __gtype_name__ = "Halving"
 *
 *     def __init__(self, optimizer, last_epoch=-1):
 *         super().__init__(optimizer, last_epoch)
 *
 *     def do_get_lr(self):
 *         return [base * 0.5 ** self.last_epoch for base in self.base_lrs]
 * ```
 *
 * [method@Gnn.LRScheduler.state_dict] saves everything but the optimizer, with PyTorch's
 * key names, so that a checkpoint resumes the schedule exactly.
 *
 * Unlike PyTorch, gnn does not warn when `step` is called before the optimizer's first
 * step, and there is no deprecated `step (epoch)`.
 */

typedef struct {
  GnnOptimizer *optimizer;
  int last_epoch;
  int step_count;
  GArray *base_lrs;   /* double */
  GArray *last_lr;    /* double */
  gboolean is_initial;
  gboolean init_done;
  GError *init_error;
} GnnLRSchedulerPrivate;

enum {
  PROP_0,
  PROP_OPTIMIZER,
  PROP_LAST_EPOCH,
  N_PROPS
};

static GnnProp props[N_PROPS];

static void gnn_lr_scheduler_initable_iface_init (GInitableIface *iface);

G_DEFINE_ABSTRACT_TYPE_WITH_CODE (GnnLRScheduler, gnn_lr_scheduler, G_TYPE_OBJECT,
                                  G_ADD_PRIVATE (GnnLRScheduler)
                                  G_IMPLEMENT_INTERFACE (G_TYPE_INITABLE,
                                                         gnn_lr_scheduler_initable_iface_init)
                                  g_type_add_class_private (g_define_type_id,
                                                            sizeof (GnnLRSchedulerHooks)))

#define PRIV(self) ((GnnLRSchedulerPrivate *) gnn_lr_scheduler_get_instance_private (GNN_LR_SCHEDULER (self)))

GnnLRSchedulerHooks *
gnn_lr_scheduler_class_get_hooks (GnnLRSchedulerClass *klass)
{
  return G_TYPE_CLASS_GET_PRIVATE (klass, GNN_TYPE_LR_SCHEDULER, GnnLRSchedulerHooks);
}

static GnnLRSchedulerHooks *
hooks_of (GnnLRScheduler *self)
{
  return gnn_lr_scheduler_class_get_hooks (GNN_LR_SCHEDULER_GET_CLASS (self));
}

const char *
gnn_lr_scheduler_type_name (gpointer self)
{
  const char *name = G_OBJECT_TYPE_NAME (self);
  const char *plus = strrchr (name, '+');

  if (plus)
    return plus + 1;
  if (g_str_has_prefix (name, "Gjs_"))
    return name + 4;
  if (g_str_has_prefix (name, "Gnn") && g_ascii_isupper (name[3]))
    return name + 3;
  return name;
}

/* ---- group options ------------------------------------------------------------------- */

static gboolean
variant_number (GVariant *v,
                double   *out)
{
  if (v == NULL)
    return FALSE;
  if (g_variant_is_of_type (v, G_VARIANT_TYPE_DOUBLE))
    *out = g_variant_get_double (v);
  else if (g_variant_is_of_type (v, G_VARIANT_TYPE_INT64))
    *out = (double) g_variant_get_int64 (v);
  else if (g_variant_is_of_type (v, G_VARIANT_TYPE_INT32))
    *out = g_variant_get_int32 (v);
  else if (g_variant_is_of_type (v, G_VARIANT_TYPE_UINT64))
    *out = (double) g_variant_get_uint64 (v);
  else if (g_variant_is_of_type (v, G_VARIANT_TYPE_UINT32))
    *out = g_variant_get_uint32 (v);
  else if (g_variant_is_of_type (v, G_VARIANT_TYPE_INT16))
    *out = g_variant_get_int16 (v);
  else if (g_variant_is_of_type (v, G_VARIANT_TYPE_UINT16))
    *out = g_variant_get_uint16 (v);
  else if (g_variant_is_of_type (v, G_VARIANT_TYPE_BYTE))
    *out = g_variant_get_byte (v);
  else if (g_variant_is_of_type (v, G_VARIANT_TYPE_BOOLEAN))
    *out = g_variant_get_boolean (v) ? 1 : 0;
  else
    return FALSE;
  return TRUE;
}

guint
gnn_lr_scheduler_n_groups (GnnLRScheduler *self)
{
  GnnLRSchedulerPrivate *priv = PRIV (self);

  return priv->optimizer ? gnn_optimizer_get_n_param_groups (priv->optimizer) : 0;
}

gboolean
gnn_lr_scheduler_read_groups (GnnLRScheduler *self,
                              const char     *name,
                              double         *values,
                              GError        **error)
{
  GnnLRSchedulerPrivate *priv = PRIV (self);
  guint n = gnn_lr_scheduler_n_groups (self);

  for (guint g = 0; g < n; g++)
    {
      GnnParamGroup *group = gnn_optimizer_get_param_group (priv->optimizer, g);
      g_autoptr(GVariant) v = gnn_param_group_get_option (group, name);

      if (v == NULL)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                       "param_groups[%u] has no option '%s'", g, name);
          return FALSE;
        }
      if (!variant_number (v, &values[g]))
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                       "option '%s' of param_groups[%u] is a '%s', expected a number",
                       name, g, g_variant_get_type_string (v));
          return FALSE;
        }
    }
  return TRUE;
}

gboolean
gnn_lr_scheduler_format_param (GnnLRScheduler *self,
                               const char     *name,
                               const double   *values,
                               guint           n_values,
                               double        **out,
                               GError        **error)
{
  guint n = gnn_lr_scheduler_n_groups (self);

  if (n_values != 1 && n_values != n)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "%s must have the same length as optimizer.param_groups. %s has %u values, "
                   "param_groups has %u.", name, name, n_values, n);
      return FALSE;
    }
  *out = g_new (double, MAX (n, 1));
  for (guint g = 0; g < n; g++)
    (*out)[g] = values[n_values == 1 ? 0 : g];
  return TRUE;
}

double *
gnn_lr_scheduler_current_lrs (GnnLRScheduler *self,
                              guint          *n_lrs,
                              GError        **error)
{
  guint n = gnn_lr_scheduler_n_groups (self);
  g_autofree double *lrs = g_new (double, MAX (n, 1));

  if (!gnn_lr_scheduler_read_groups (self, "lr", lrs, error))
    return NULL;
  *n_lrs = n;
  return g_steal_pointer (&lrs);
}

double *
gnn_lr_scheduler_base_lrs_or_empty (GnnLRScheduler *self,
                                    guint          *n_lrs)
{
  double *base = gnn_lr_scheduler_get_base_lrs (self, n_lrs);

  return base ? base : g_new0 (double, 1);
}

double *
gnn_lr_scale (double *lrs,
              guint   n_lrs,
              double  factor)
{
  for (guint g = 0; lrs && g < n_lrs; g++)
    lrs[g] = lrs[g] * factor;
  return lrs;
}

gboolean
gnn_lr_scheduler_format_doubles (GnnLRScheduler *self,
                                 const char     *name,
                                 GVariant       *values,
                                 double        **out,
                                 GError        **error)
{
  gsize n;
  const double *v = gnn_prop_doubles (values, &n);

  return gnn_lr_scheduler_format_param (self, name, v, n, out, error);
}

gboolean
gnn_lr_scheduler_momentum_kind (GnnLRScheduler *self,
                                gboolean       *use_beta1,
                                GError        **error)
{
  GnnOptimizer *optimizer = PRIV (self)->optimizer;
  g_autoptr(GVariant) momentum = gnn_optimizer_get_default (optimizer, "momentum");
  g_autoptr(GVariant) betas = gnn_optimizer_get_default (optimizer, "betas");

  if (momentum == NULL && betas == NULL)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "optimizer must support momentum or beta1 with `cycle_momentum` option enabled");
      return FALSE;
    }
  *use_beta1 = betas != NULL;
  return TRUE;
}

/* group["betas"] as a tuple of at least one element, or NULL with @error set */
static GVariant *
group_betas (GnnParamGroup *group,
             guint          index,
             GError       **error)
{
  g_autoptr(GVariant) betas = gnn_param_group_get_option (group, "betas");

  if (betas == NULL || !g_variant_is_of_type (betas, G_VARIANT_TYPE_TUPLE) ||
      g_variant_n_children (betas) == 0)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "param_groups[%u] has no option 'betas' holding a tuple (such as '(dd)')",
                   index);
      return NULL;
    }
  return g_steal_pointer (&betas);
}

gboolean
gnn_lr_scheduler_read_momentums (GnnLRScheduler *self,
                                 gboolean        use_beta1,
                                 double         *values,
                                 GError        **error)
{
  guint n = gnn_lr_scheduler_n_groups (self);

  if (!use_beta1)
    return gnn_lr_scheduler_read_groups (self, "momentum", values, error);
  for (guint g = 0; g < n; g++)
    {
      g_autoptr(GVariant) betas = group_betas (gnn_optimizer_get_param_group (PRIV (self)->optimizer, g),
                                               g, error);
      g_autoptr(GVariant) first = NULL;

      if (betas == NULL)
        return FALSE;
      first = g_variant_get_child_value (betas, 0);
      if (!variant_number (first, &values[g]))
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                       "the first of the 'betas' of param_groups[%u] is a '%s', expected a number",
                       g, g_variant_get_type_string (first));
          return FALSE;
        }
    }
  return TRUE;
}

gboolean
gnn_lr_scheduler_write_momentums (GnnLRScheduler *self,
                                  gboolean        use_beta1,
                                  const double   *values,
                                  GError        **error)
{
  GnnOptimizer *optimizer = PRIV (self)->optimizer;
  guint n = gnn_lr_scheduler_n_groups (self);
  g_autoptr(GPtrArray) new_betas = g_ptr_array_new_with_free_func ((GDestroyNotify) g_variant_unref);

  /* group["betas"] = (momentum, *group["betas"][1:]), every group checked first */
  for (guint g = 0; use_beta1 && g < n; g++)
    {
      g_autoptr(GVariant) betas = group_betas (gnn_optimizer_get_param_group (optimizer, g), g, error);
      g_auto(GVariantBuilder) b = G_VARIANT_BUILDER_INIT (G_VARIANT_TYPE_TUPLE);

      if (betas == NULL)
        return FALSE;
      g_variant_builder_add_value (&b, g_variant_new_double (values[g]));
      for (gsize i = 1; i < g_variant_n_children (betas); i++)
        {
          g_autoptr(GVariant) child = g_variant_get_child_value (betas, i);

          g_variant_builder_add_value (&b, child);
        }
      g_ptr_array_add (new_betas, g_variant_ref_sink (g_variant_builder_end (&b)));
    }
  for (guint g = 0; g < n; g++)
    {
      GnnParamGroup *group = gnn_optimizer_get_param_group (optimizer, g);

      if (use_beta1)
        gnn_param_group_set_option (group, "betas", g_ptr_array_index (new_betas, g));
      else
        gnn_param_group_set_double (group, "momentum", values[g]);
    }
  return TRUE;
}

void
gnn_lr_closure_set (GClosure **slot,
                    GClosure  *closure)
{
  if (closure == *slot)
    return;
  g_clear_pointer (slot, g_closure_unref);
  if (closure == NULL)
    return;
  *slot = g_closure_ref (closure);
  g_closure_sink (closure);
  if (G_CLOSURE_NEEDS_MARSHAL (closure))
    g_closure_set_marshal (closure, g_cclosure_marshal_generic);
}

/* ---- GObject ------------------------------------------------------------------------- */

static void
gnn_lr_scheduler_finalize (GObject *object)
{
  GnnLRSchedulerPrivate *priv = PRIV (object);

  g_array_unref (priv->base_lrs);
  g_array_unref (priv->last_lr);
  g_clear_error (&priv->init_error);
  gnn_props_clear (object);
  G_OBJECT_CLASS (gnn_lr_scheduler_parent_class)->finalize (object);
}

/* a GArray of doubles holding @values, which it frees; NULL for NULL */
static GArray *
array_take (double *values,
            guint   n_values)
{
  GArray *a;

  if (values == NULL)
    return NULL;
  a = g_array_sized_new (FALSE, FALSE, sizeof (double), n_values);
  g_array_append_vals (a, values, n_values);
  g_free (values);
  return a;
}

static GArray *
gnn_lr_scheduler_real_get_lr (GnnLRScheduler *self,
                              GError        **error)
{
  GnnLRSchedulerHooks *hooks = hooks_of (self);
  guint n = 0;
  double *values;

  if (hooks->get_lr)
    {
      values = hooks->get_lr (self, &n, error);
      return array_take (values, n);
    }
  g_set_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED,
               "%s does not implement get_lr", gnn_lr_scheduler_type_name (self));
  return NULL;
}

static GVariant *
doubles_variant (GArray *a)
{
  return g_variant_new_fixed_array (G_VARIANT_TYPE_DOUBLE, a->data, a->len, sizeof (double));
}

static void
gnn_lr_scheduler_real_save_state (GnnLRScheduler *self,
                                  GVariantDict   *state)
{
  GnnLRSchedulerPrivate *priv = PRIV (self);

  g_variant_dict_insert (state, "last_epoch", "x", (gint64) priv->last_epoch);
  g_variant_dict_insert (state, "_step_count", "x", (gint64) priv->step_count);
  g_variant_dict_insert_value (state, "base_lrs", doubles_variant (priv->base_lrs));
  g_variant_dict_insert_value (state, "_last_lr", doubles_variant (priv->last_lr));
  /* the subclass's hyperparameters: an int as 'x', a double as 'd' */
  for (const char * const *p = hooks_of (self)->state_props; p && p[0]; p += 2)
    {
      g_auto(GValue) value = G_VALUE_INIT;

      g_value_init (&value, g_object_class_find_property (G_OBJECT_GET_CLASS (self), p[0])->value_type);
      g_object_get_property (G_OBJECT (self), p[0], &value);
      g_variant_dict_insert_value (state, p[1], G_VALUE_HOLDS_INT (&value)
                                                ? g_variant_new_int64 (g_value_get_int (&value))
                                                : g_variant_new_double (g_value_get_double (&value)));
    }
}

gboolean
gnn_lr_state_get_int32 (GVariantDict *state,
                        const char   *key,
                        int          *out,
                        GError      **error)
{
  gint64 v = *out;

  if (!gnn_lr_state_get_int (state, key, &v, error))
    return FALSE;
  if (v < G_MININT || v > G_MAXINT)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "\"%s\" in the loaded scheduler state is %" G_GINT64_FORMAT
                   ", out of the range of an int", key, v);
      return FALSE;
    }
  *out = (int) v;
  return TRUE;
}

gboolean
gnn_lr_state_get_group_doubles (GnnLRScheduler *self,
                                GVariantDict   *state,
                                const char     *key,
                                double        **out,
                                GError        **error)
{
  g_autofree double *values = NULL;
  guint n = 0;
  guint n_groups = gnn_lr_scheduler_n_groups (self);

  if (!gnn_lr_state_get_doubles (state, key, &values, &n, error))
    return FALSE;
  if (values == NULL)
    return TRUE;
  if (n != n_groups)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "\"%s\" in the loaded scheduler state has %u values, the optimizer has %u "
                   "parameter groups", key, n, n_groups);
      return FALSE;
    }
  *out = g_steal_pointer (&values);
  return TRUE;
}

static gboolean
state_lrs (GnnLRScheduler *self,
           GVariantDict   *state,
           const char     *key,
           GArray        **out,
           GError        **error)
{
  g_autofree double *values = NULL;

  if (!gnn_lr_state_get_group_doubles (self, state, key, &values, error))
    return FALSE;
  *out = values ? array_take (g_steal_pointer (&values), gnn_lr_scheduler_n_groups (self)) : NULL;
  return TRUE;
}

/* Reads the subclass's hyperparameters (state_props) from @state, each checked as its
 * property is; with @apply, sets them. */
static gboolean
load_props (GnnLRScheduler *self,
            GVariantDict   *state,
            gboolean        apply,
            GError        **error)
{
  for (const char * const *p = hooks_of (self)->state_props; p && p[0]; p += 2)
    {
      GParamSpec *pspec = g_object_class_find_property (G_OBJECT_GET_CLASS (self), p[0]);
      g_auto(GValue) value = G_VALUE_INIT;
      gboolean ok;

      g_value_init (&value, pspec->value_type);
      g_object_get_property (G_OBJECT (self), p[0], &value);
      if (G_VALUE_HOLDS_INT (&value))
        {
          int v = g_value_get_int (&value);

          ok = gnn_lr_state_get_int32 (state, p[1], &v, error);
          g_value_set_int (&value, v);
        }
      else
        {
          double v = g_value_get_double (&value);

          ok = gnn_lr_state_get_double (state, p[1], &v, error);
          g_value_set_double (&value, v);
        }
      if (!ok || !gnn_prop_check_value (pspec, &value, error))
        return FALSE;
      if (apply)
        g_object_set_property (G_OBJECT (self), p[0], &value);
    }
  return TRUE;
}

static gboolean
gnn_lr_scheduler_real_load_state (GnnLRScheduler *self,
                                  GVariantDict   *state,
                                  GError        **error)
{
  GnnLRSchedulerPrivate *priv = PRIV (self);
  int last_epoch = priv->last_epoch, step_count = priv->step_count;
  g_autoptr(GArray) base_lrs = NULL, last_lr = NULL;

  if (!gnn_lr_state_get_int32 (state, "last_epoch", &last_epoch, error) ||
      !gnn_lr_state_get_int32 (state, "_step_count", &step_count, error) ||
      !state_lrs (self, state, "base_lrs", &base_lrs, error) ||
      !state_lrs (self, state, "_last_lr", &last_lr, error) ||
      !load_props (self, state, FALSE, error))
    return FALSE;
  gnn_lr_scheduler_set_last_epoch (self, last_epoch);
  priv->step_count = step_count;
  if (base_lrs)
    {
      g_array_unref (priv->base_lrs);
      priv->base_lrs = g_steal_pointer (&base_lrs);
    }
  if (last_lr)
    {
      g_array_unref (priv->last_lr);
      priv->last_lr = g_steal_pointer (&last_lr);
    }
  return load_props (self, state, TRUE, error);
}

/**
 * GnnLRSchedulerClass::save_state:
 * @self: a scheduler
 * @state: the state being saved
 *
 * Adds the subclass's entries to @state; implementations chain up first.
 */
/**
 * GnnLRSchedulerClass::load_state:
 * @self: a scheduler
 * @state: the state being loaded
 * @error: return location for a #GError
 *
 * Restores the subclass's entries from @state; implementations chain up first. Entries that
 * are absent keep their value.
 *
 * Returns: %TRUE on success, %FALSE with @error set
 */
static void
gnn_lr_scheduler_class_init (GnnLRSchedulerClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = gnn_lr_scheduler_finalize;
  klass->get_lr = gnn_lr_scheduler_real_get_lr;
  klass->save_state = gnn_lr_scheduler_real_save_state;
  klass->load_state = gnn_lr_scheduler_real_load_state;

  /**
   * GnnLRScheduler:optimizer:
   *
   * The optimizer whose parameter groups the scheduler drives.
   */
  props[PROP_OPTIMIZER] = (GnnProp) {
    g_param_spec_object ("optimizer", NULL, NULL, GNN_TYPE_OPTIMIZER, GNN_PARAM_RW | G_PARAM_CONSTRUCT_ONLY),
    G_PRIVATE_OFFSET (GnnLRScheduler, optimizer) };

  /**
   * GnnLRScheduler:last-epoch:
   *
   * The index of the last epoch (`last_epoch`): -1 at construction for a new schedule, or
   * the epoch to resume after; the initial step adds one, and so does every step.
   */
  props[PROP_LAST_EPOCH] = (GnnProp) {
    g_param_spec_int ("last-epoch", NULL, NULL, G_MININT, G_MAXINT, -1, GNN_PARAM_RW | G_PARAM_CONSTRUCT),
    G_PRIVATE_OFFSET (GnnLRScheduler, last_epoch) };
  gnn_props_install (object_class, props, N_PROPS);
}

static void
gnn_lr_scheduler_init (GnnLRScheduler *self)
{
  GnnLRSchedulerPrivate *priv = PRIV (self);

  priv->base_lrs = g_array_new (FALSE, FALSE, sizeof (double));
  priv->last_lr = g_array_new (FALSE, FALSE, sizeof (double));
}

/* ---- construction -------------------------------------------------------------------- */

gboolean
gnn_lr_scheduler_ensure_ready (GnnLRScheduler *self,
                               GError        **error)
{
  GnnLRSchedulerPrivate *priv = PRIV (self);

  if (!priv->init_done)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_FAILED,
                   "%s was not initialised: call g_initable_init () (Gio.Initable.init) after "
                   "creating it", gnn_lr_scheduler_type_name (self));
      return FALSE;
    }
  if (priv->init_error)
    {
      if (error)
        *error = g_error_copy (priv->init_error);
      return FALSE;
    }
  return TRUE;
}

gboolean
gnn_lr_scheduler_init_base (GnnLRScheduler *self,
                            gboolean        initial_step,
                            GError        **error)
{
  GnnLRSchedulerPrivate *priv = PRIV (self);
  guint n = gnn_lr_scheduler_n_groups (self);
  g_autofree double *base = g_new (double, MAX (n, 1));

  for (guint g = 0; g < n; g++)
    {
      GnnParamGroup *group = gnn_optimizer_get_param_group (priv->optimizer, g);

      if (gnn_param_group_has_option (group, "initial_lr"))
        continue;
      if (priv->last_epoch != -1)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                       "param 'initial_lr' is not specified in param_groups[%u] when resuming "
                       "an optimizer", g);
          return FALSE;
        }
    }
  if (priv->last_epoch == -1)
    for (guint g = 0; g < n; g++)
      {
        GnnParamGroup *group = gnn_optimizer_get_param_group (priv->optimizer, g);
        g_autoptr(GVariant) lr = gnn_param_group_get_option (group, "lr");

        if (lr == NULL)
          {
            g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                         "param_groups[%u] has no option 'lr'", g);
            return FALSE;
          }
        if (!gnn_param_group_has_option (group, "initial_lr"))
          gnn_param_group_set_option (group, "initial_lr", lr);
      }
  if (!gnn_lr_scheduler_read_groups (self, "initial_lr", base, error))
    return FALSE;
  gnn_lr_scheduler_set_base_lrs (self, base, n);
  if (initial_step)
    return gnn_lr_scheduler_initial_step (self, error);
  return TRUE;
}

static gboolean
gnn_lr_scheduler_initable_init (GInitable    *initable,
                                GCancellable *cancellable,
                                GError      **error)
{
  GnnLRScheduler *self = GNN_LR_SCHEDULER (initable);
  GnnLRSchedulerPrivate *priv = PRIV (self);
  GnnLRSchedulerHooks *hooks = hooks_of (self);
  GError *local = NULL;
  gboolean ok;

  if (priv->init_done)
    return gnn_lr_scheduler_ensure_ready (self, error);
  priv->init_done = TRUE;
  if (priv->optimizer == NULL && hooks->default_optimizer)
    {
      GnnOptimizer *optimizer = hooks->default_optimizer (self);

      priv->optimizer = optimizer ? g_object_ref (optimizer) : NULL;
    }
  if (priv->optimizer == NULL)
    {
      local = g_error_new (GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                           "%s needs an optimizer (the \"optimizer\" property)",
                           gnn_lr_scheduler_type_name (self));
      ok = FALSE;
    }
  else if (!gnn_props_check (self, &local))
    ok = FALSE;
  else if (hooks->init)
    ok = hooks->init (self, &local);
  else
    ok = (hooks->prepare == NULL || hooks->prepare (self, &local)) &&
         gnn_lr_scheduler_init_base (self, TRUE, &local);
  if (!ok && local == NULL)
    local = g_error_new (GNN_ERROR, GNN_ERROR_FAILED, "%s failed to initialise and set no error",
                         gnn_lr_scheduler_type_name (self));
  if (local)
    {
      priv->init_error = local;
      if (error)
        *error = g_error_copy (local);
      return FALSE;
    }
  return TRUE;
}

static void
gnn_lr_scheduler_initable_iface_init (GInitableIface *iface)
{
  iface->init = gnn_lr_scheduler_initable_init;
}

/* ---- the properties of gnn's schedulers ------------------------------------------------ */

gboolean
gnn_lr_check_positive (const char *name,
                       gint64      value,
                       GError    **error)
{
  if (value > 0)
    return TRUE;
  g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
               "Expected positive integer %s, but got %" G_GINT64_FORMAT, name, value);
  return FALSE;
}

gboolean
gnn_lr_check_positive_int (GParamSpec   *pspec,
                           const GValue *value,
                           GError      **error)
{
  g_autofree char *name = gnn_prop_python_name (pspec);

  return gnn_lr_check_positive (name, g_value_get_int (value), error);
}

gboolean
gnn_lr_check_milestones (GParamSpec   *pspec,
                         const GValue *value,
                         GError      **error)
{
  gsize n;
  const gint64 *m = gnn_prop_int64s (g_value_get_variant (value), &n);

  for (gsize i = 0; i < n; i++)
    if (m[i] < G_MININT || m[i] > G_MAXINT)
      {
        g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                     "milestones are epochs, in the range of an int; got %" G_GINT64_FORMAT, m[i]);
        return FALSE;
      }
  return TRUE;
}

GVariant *
gnn_lr_milestones_new (const int *values,
                       guint      n_values)
{
  g_autofree gint64 *m = g_new (gint64, MAX (n_values, 1));

  for (guint i = 0; i < n_values; i++)
    m[i] = values[i];
  return g_variant_new_fixed_array (G_VARIANT_TYPE_INT64, m, n_values, sizeof (gint64));
}

static int
compare_int (gconstpointer a,
             gconstpointer b)
{
  int x = *(const int *) a, y = *(const int *) b;

  return (x > y) - (x < y);
}

int *
gnn_lr_milestones_get (GVariant *milestones,
                       gboolean  sorted,
                       guint    *n_values)
{
  gsize n;
  const gint64 *m = gnn_prop_int64s (milestones, &n);
  int *out;

  *n_values = n;
  if (n == 0)
    return NULL;
  out = g_new (int, n);
  for (gsize i = 0; i < n; i++)
    out[i] = (int) m[i];
  if (sorted)
    qsort (out, n, sizeof (int), compare_int);
  return out;
}

GnnProp
gnn_lr_prop_int (const char   *name,
                 int           default_value,
                 GParamFlags   flags,
                 gssize        offset,
                 GnnPropCheck  check)
{
  return (GnnProp) { g_param_spec_int (name, NULL, NULL, G_MININT, G_MAXINT, default_value, flags), offset, check };
}

GnnProp
gnn_lr_prop_double (const char  *name,
                    double       default_value,
                    GParamFlags  flags,
                    gssize       offset)
{
  return (GnnProp) { gnn_param_spec_double (name, default_value, flags), offset };
}

/* ---- stepping ------------------------------------------------------------------------ */

/* get_lr (or the closed form), checked: NULL with @error set, or one value per group */
static double *
call_get_lr (GnnLRScheduler *self,
             gboolean        closed_form,
             GError        **error)
{
  GnnLRSchedulerHooks *hooks = hooks_of (self);
  guint n_groups = gnn_lr_scheduler_n_groups (self);
  guint n = 0;
  GError *local = NULL;
  double *values;

  /* a property set since the last step may be out of its range (StepLR's step-size) */
  if (!gnn_props_check (self, error))
    return NULL;
  if (closed_form && hooks->closed_form_lr)
    values = hooks->closed_form_lr (self, &n, &local);
  else
    {
      GArray *a = GNN_LR_SCHEDULER_GET_CLASS (self)->get_lr (self, &local);

      if (a && g_array_get_element_size (a) != sizeof (double))
        {
          if (local == NULL)
            local = g_error_new (GNN_ERROR, GNN_ERROR_FAILED,
                                 "%s.get_lr returned an array of elements of %u bytes, not doubles",
                                 gnn_lr_scheduler_type_name (self), g_array_get_element_size (a));
          g_array_unref (a);
          a = NULL;
        }
      n = a ? a->len : 0;
      if (a && n == 0)
        {
          g_array_unref (a);
          values = g_new0 (double, 1);
        }
      else
        values = a ? (double *) g_array_free (a, FALSE) : NULL;
    }
  if (local == NULL && values == NULL)
    local = g_error_new (GNN_ERROR, GNN_ERROR_FAILED, "%s.get_lr returned nothing and set no error",
                         gnn_lr_scheduler_type_name (self));
  if (local == NULL && n != n_groups)
    local = g_error_new (GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                         "%s.get_lr returned %u learning rates for %u parameter groups",
                         gnn_lr_scheduler_type_name (self), n, n_groups);
  if (local)
    {
      g_free (values);
      g_propagate_error (error, local);
      return NULL;
    }
  return values;
}

static gboolean
update_lr (GnnLRScheduler *self,
           gboolean        to_epoch,
           int             epoch,
           GError        **error)
{
  GnnLRSchedulerPrivate *priv = PRIV (self);
  int old_epoch = priv->last_epoch;
  guint n = gnn_lr_scheduler_n_groups (self);
  g_autofree double *values = NULL;

  priv->last_epoch = to_epoch ? epoch : priv->last_epoch + 1;
  values = call_get_lr (self, to_epoch, error);
  if (values == NULL)
    {
      priv->last_epoch = old_epoch;
      return FALSE;
    }
  for (guint g = 0; g < n; g++)
    gnn_param_group_set_double (gnn_optimizer_get_param_group (priv->optimizer, g), "lr", values[g]);
  gnn_lr_scheduler_set_last_lr (self, values, n);
  if (priv->last_epoch != old_epoch)
    g_object_notify_by_pspec (G_OBJECT (self), props[PROP_LAST_EPOCH].pspec);
  return TRUE;
}

static gboolean
default_step (GnnLRScheduler *self,
              GError        **error)
{
  GnnLRSchedulerPrivate *priv = PRIV (self);

  priv->step_count++;
  if (!update_lr (self, FALSE, 0, error))
    {
      priv->step_count--;
      return FALSE;
    }
  return TRUE;
}

static gboolean
do_step (GnnLRScheduler *self,
         GError        **error)
{
  GnnLRSchedulerHooks *hooks = hooks_of (self);

  return hooks->step ? hooks->step (self, error) : default_step (self, error);
}

gboolean
gnn_lr_scheduler_initial_step (GnnLRScheduler *self,
                               GError        **error)
{
  GnnLRSchedulerPrivate *priv = PRIV (self);
  gboolean was_initial = priv->is_initial;
  int old_count = priv->step_count;
  gboolean ok;

  priv->step_count = 0;
  priv->is_initial = TRUE;
  ok = do_step (self, error);
  priv->is_initial = was_initial;
  if (!ok)
    priv->step_count = old_count;
  return ok;
}

gboolean
gnn_lr_scheduler_update_lr_to (GnnLRScheduler *self,
                               int             epoch,
                               GError        **error)
{
  return update_lr (self, TRUE, epoch, error);
}

void
gnn_lr_scheduler_set_last_lr (GnnLRScheduler *self,
                              const double   *lrs,
                              guint           n_lrs)
{
  GnnLRSchedulerPrivate *priv = PRIV (self);

  g_array_set_size (priv->last_lr, 0);
  g_array_append_vals (priv->last_lr, lrs, n_lrs);
}

void
gnn_lr_scheduler_set_base_lrs (GnnLRScheduler *self,
                               const double   *lrs,
                               guint           n_lrs)
{
  GnnLRSchedulerPrivate *priv = PRIV (self);

  g_array_set_size (priv->base_lrs, 0);
  g_array_append_vals (priv->base_lrs, lrs, n_lrs);
}

void
gnn_lr_scheduler_set_step_count (GnnLRScheduler *self,
                                 int             step_count)
{
  PRIV (self)->step_count = step_count;
}

/**
 * gnn_lr_scheduler_step:
 * @self: a scheduler
 * @error: return location for a #GError
 *
 * Moves the schedule one epoch on (`scheduler.step()`): increments
 * [property@Gnn.LRScheduler:last-epoch] and sets the `lr` of every parameter group to what
 * the `get_lr` virtual method computes. Call it after [method@Gnn.Optimizer.step].
 *
 * Returns: %TRUE on success; %FALSE with @error set when the schedule cannot go on (such as
 *   [class@Gnn.OneCycleLR] past its total steps), leaving the scheduler and the groups
 *   unchanged
 */
gboolean
gnn_lr_scheduler_step (GnnLRScheduler *self,
                       GError        **error)
{
  g_return_val_if_fail (GNN_IS_LR_SCHEDULER (self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);
  if (!gnn_lr_scheduler_ensure_ready (self, error))
    return FALSE;
  return do_step (self, error);
}

/**
 * gnn_lr_scheduler_get_lr: (virtual get_lr)
 * @self: a scheduler
 * @error: return location for a #GError
 *
 * Computes the learning rate of every group for the current
 * [property@Gnn.LRScheduler:last-epoch] (`get_lr`), without applying it. Steps call it
 * after incrementing `last_epoch`; the chainable form reads the current `lr` of the
 * groups, so calling it at other times rarely gives a useful value: the last rates
 * applied are [method@Gnn.LRScheduler.get_last_lr]. In Python, a list of floats.
 *
 * Returns: (transfer full) (element-type gdouble) (nullable): the learning rates, one per
 *   group, or %NULL with @error set
 */
GArray *
gnn_lr_scheduler_get_lr (GnnLRScheduler *self,
                         GError        **error)
{
  double *values;

  g_return_val_if_fail (GNN_IS_LR_SCHEDULER (self), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);
  values = call_get_lr (self, FALSE, error);
  if (values == NULL)
    return NULL;
  return array_take (values, gnn_lr_scheduler_n_groups (self));
}

static double *
copy_doubles (GArray *a,
              guint  *n)
{
  *n = a->len;
  if (a->len == 0)
    return NULL;
  return g_memdup2 (a->data, a->len * sizeof (double));
}

/**
 * gnn_lr_scheduler_get_last_lr:
 * @self: a scheduler
 * @n_lrs: (out): return location for the number of values, one per parameter group
 *
 * The learning rates the last step set (`get_last_lr()`). In Python, a list of floats.
 *
 * Returns: (array length=n_lrs) (transfer full) (nullable): the learning rates
 */
double *
gnn_lr_scheduler_get_last_lr (GnnLRScheduler *self,
                              guint          *n_lrs)
{
  g_return_val_if_fail (n_lrs != NULL, NULL);
  *n_lrs = 0;
  g_return_val_if_fail (GNN_IS_LR_SCHEDULER (self), NULL);
  return copy_doubles (PRIV (self)->last_lr, n_lrs);
}

/**
 * gnn_lr_scheduler_get_base_lrs:
 * @self: a scheduler
 * @n_lrs: (out): return location for the number of values, one per parameter group
 *
 * The initial learning rate of every group (`base_lrs`): the `initial_lr` options at
 * construction.
 *
 * Returns: (array length=n_lrs) (transfer full) (nullable): the learning rates
 */
double *
gnn_lr_scheduler_get_base_lrs (GnnLRScheduler *self,
                               guint          *n_lrs)
{
  g_return_val_if_fail (n_lrs != NULL, NULL);
  *n_lrs = 0;
  g_return_val_if_fail (GNN_IS_LR_SCHEDULER (self), NULL);
  return copy_doubles (PRIV (self)->base_lrs, n_lrs);
}

/**
 * gnn_lr_scheduler_get_optimizer:
 * @self: a scheduler
 *
 * The optimizer the scheduler drives (`scheduler.optimizer`).
 *
 * Returns: (transfer none): the optimizer
 */
GnnOptimizer *
gnn_lr_scheduler_get_optimizer (GnnLRScheduler *self)
{
  g_return_val_if_fail (GNN_IS_LR_SCHEDULER (self), NULL);
  return PRIV (self)->optimizer;
}

/**
 * gnn_lr_scheduler_get_last_epoch:
 * @self: a scheduler
 *
 * The index of the last epoch (`last_epoch`).
 *
 * Returns: the last epoch
 */
int
gnn_lr_scheduler_get_last_epoch (GnnLRScheduler *self)
{
  g_return_val_if_fail (GNN_IS_LR_SCHEDULER (self), 0);
  return PRIV (self)->last_epoch;
}

/**
 * gnn_lr_scheduler_set_last_epoch:
 * @self: a scheduler
 * @last_epoch: the index of the last epoch
 *
 * Sets the index of the last epoch (`scheduler.last_epoch = n`); the next step computes the
 * rates of epoch @last_epoch + 1 from the current ones.
 */
void
gnn_lr_scheduler_set_last_epoch (GnnLRScheduler *self,
                                 int             last_epoch)
{
  g_return_if_fail (GNN_IS_LR_SCHEDULER (self));
  gnn_prop_set (self, &props[PROP_LAST_EPOCH], last_epoch);
}

/**
 * gnn_lr_scheduler_get_step_count:
 * @self: a scheduler
 *
 * How many times the scheduler stepped since its initial step, that one included
 * (`_step_count`): 1 after construction. [class@Gnn.SWALR] anneals by it.
 *
 * Returns: the step count
 */
int
gnn_lr_scheduler_get_step_count (GnnLRScheduler *self)
{
  g_return_val_if_fail (GNN_IS_LR_SCHEDULER (self), 0);
  return PRIV (self)->step_count;
}

/**
 * gnn_lr_scheduler_is_initial_step:
 * @self: a scheduler
 *
 * Whether the step under way is the initial step of construction (PyTorch's
 * `_is_initial`). A `get_lr` that returns the current rates during the initial step
 * leaves a resumed schedule where the optimizer's restored state put it.
 *
 * Returns: %TRUE inside the initial step
 */
gboolean
gnn_lr_scheduler_is_initial_step (GnnLRScheduler *self)
{
  g_return_val_if_fail (GNN_IS_LR_SCHEDULER (self), FALSE);
  return PRIV (self)->is_initial;
}

/**
 * gnn_lr_scheduler_state_dict:
 * @self: a scheduler
 *
 * The scheduler's state (`scheduler.state_dict()`): everything but the optimizer, as a
 * dictionary of type `a{sv}` whose keys are PyTorch's. Every scheduler saves
 *
 * - `last_epoch` (`x`), `_step_count` (`x`),
 * - `base_lrs` (`ad`) and `_last_lr` (`ad`), one value per group,
 *
 * and each adds its own hyperparameters under the names of its PyTorch attributes
 * (`step_size`, `gamma`, `T_max` ...), documented with each class. Callbacks
 * ([class@Gnn.LambdaLR]'s `lr_lambda`) are not saved, as PyTorch does not save plain
 * functions. The optimizer's state, which holds the groups' `lr` and `initial_lr`, is
 * saved apart with [method@Gnn.Optimizer.state_dict]; a checkpoint needs both.
 *
 * Returns: (transfer full): the state, not floating
 */
GVariant *
gnn_lr_scheduler_state_dict (GnnLRScheduler *self)
{
  g_autoptr(GVariantDict) dict = NULL;

  g_return_val_if_fail (GNN_IS_LR_SCHEDULER (self), NULL);
  dict = g_variant_dict_new (NULL);
  GNN_LR_SCHEDULER_GET_CLASS (self)->save_state (self, dict);
  return g_variant_ref_sink (g_variant_dict_end (dict));
}

/**
 * gnn_lr_scheduler_load_state_dict:
 * @self: a scheduler
 * @state: a state from [method@Gnn.LRScheduler.state_dict], of type `a{sv}`
 * @error: return location for a #GError
 *
 * Restores the scheduler's state (`scheduler.load_state_dict`). As PyTorch's
 * `__dict__.update`, entries absent from @state keep their value and unknown entries are
 * ignored; integers may come as any integer type and numbers lists as `ad`, `ax`, `ai` or
 * `av`. Load the optimizer's state too, so that the groups' `lr` match.
 *
 * Returns: %TRUE on success; %FALSE with @error set (%GNN_ERROR_INVALID_ARGUMENT) when an
 *   entry has the wrong type or size, leaving the scheduler unchanged
 */
gboolean
gnn_lr_scheduler_load_state_dict (GnnLRScheduler *self,
                                  GVariant       *state,
                                  GError        **error)
{
  GnnLRSchedulerClass *klass;
  g_autoptr(GVariant) snapshot = NULL;
  g_autoptr(GVariantDict) dict = NULL;
  GError *local = NULL;

  g_return_val_if_fail (GNN_IS_LR_SCHEDULER (self), FALSE);
  g_return_val_if_fail (state != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);
  if (!g_variant_is_of_type (state, G_VARIANT_TYPE_VARDICT))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "a scheduler state is a dictionary of type 'a{sv}', not a '%s'",
                   g_variant_get_type_string (state));
      return FALSE;
    }
  klass = GNN_LR_SCHEDULER_GET_CLASS (self);
  snapshot = gnn_lr_scheduler_state_dict (self);
  dict = g_variant_dict_new (state);
  if (klass->load_state (self, dict, &local))
    return TRUE;
  if (local == NULL)
    local = g_error_new (GNN_ERROR, GNN_ERROR_FAILED, "%s.load_state failed and set no error",
                         gnn_lr_scheduler_type_name (self));
  /* put back what a partial load changed */
  {
    g_autoptr(GVariantDict) back = g_variant_dict_new (snapshot);

    klass->load_state (self, back, NULL);
  }
  g_propagate_error (error, local);
  return FALSE;
}

/* ---- reading loaded states ------------------------------------------------------------ */

static GVariant *
state_lookup (GVariantDict *state,
              const char   *key)
{
  GVariant *v = g_variant_dict_lookup_value (state, key, NULL);

  while (v && g_variant_is_of_type (v, G_VARIANT_TYPE_VARIANT))
    {
      GVariant *inner = g_variant_get_variant (v);

      g_variant_unref (v);
      v = inner;
    }
  return v;
}

static gboolean
wrong_type (const char *key,
            GVariant   *v,
            const char *expected,
            GError    **error)
{
  g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
               "\"%s\" in the loaded scheduler state is a '%s', expected %s",
               key, g_variant_get_type_string (v), expected);
  return FALSE;
}

gboolean
gnn_lr_variant_get_integer (GVariant *v,
                            gint64   *out)
{
  g_autoptr(GVariant) inner = NULL;

  while (g_variant_is_of_type (v, G_VARIANT_TYPE_VARIANT))
    {
      GVariant *next = g_variant_get_variant (v);

      g_clear_pointer (&inner, g_variant_unref);
      v = inner = next;
    }
  if (g_variant_is_of_type (v, G_VARIANT_TYPE_INT64))
    *out = g_variant_get_int64 (v);
  else if (g_variant_is_of_type (v, G_VARIANT_TYPE_INT32))
    *out = g_variant_get_int32 (v);
  else if (g_variant_is_of_type (v, G_VARIANT_TYPE_UINT32))
    *out = g_variant_get_uint32 (v);
  else if (g_variant_is_of_type (v, G_VARIANT_TYPE_INT16))
    *out = g_variant_get_int16 (v);
  else if (g_variant_is_of_type (v, G_VARIANT_TYPE_UINT16))
    *out = g_variant_get_uint16 (v);
  else if (g_variant_is_of_type (v, G_VARIANT_TYPE_BYTE))
    *out = g_variant_get_byte (v);
  else if (g_variant_is_of_type (v, G_VARIANT_TYPE_UINT64) && g_variant_get_uint64 (v) <= G_MAXINT64)
    *out = (gint64) g_variant_get_uint64 (v);
  else
    return FALSE;
  return TRUE;
}

gboolean
gnn_lr_state_get_int (GVariantDict *state,
                      const char   *key,
                      gint64       *out,
                      GError      **error)
{
  g_autoptr(GVariant) v = state_lookup (state, key);

  if (v == NULL)
    return TRUE;
  if (!gnn_lr_variant_get_integer (v, out))
    return wrong_type (key, v, "an integer", error);
  return TRUE;
}

gboolean
gnn_lr_state_get_double (GVariantDict *state,
                         const char   *key,
                         double       *out,
                         GError      **error)
{
  g_autoptr(GVariant) v = state_lookup (state, key);
  gint64 i;

  if (v == NULL)
    return TRUE;
  if (g_variant_is_of_type (v, G_VARIANT_TYPE_DOUBLE))
    *out = g_variant_get_double (v);
  else if (gnn_lr_variant_get_integer (v, &i))
    *out = (double) i;
  else
    return wrong_type (key, v, "a number", error);
  return TRUE;
}

gboolean
gnn_lr_state_get_boolean (GVariantDict *state,
                          const char   *key,
                          gboolean     *out,
                          GError      **error)
{
  g_autoptr(GVariant) v = state_lookup (state, key);

  if (v == NULL)
    return TRUE;
  if (!g_variant_is_of_type (v, G_VARIANT_TYPE_BOOLEAN))
    return wrong_type (key, v, "a boolean", error);
  *out = g_variant_get_boolean (v);
  return TRUE;
}

gboolean
gnn_lr_state_get_string (GVariantDict *state,
                         const char   *key,
                         const char  **allowed,
                         char        **out,
                         GError      **error)
{
  g_autoptr(GVariant) v = state_lookup (state, key);
  const char *s;

  if (v == NULL)
    return TRUE;
  if (!g_variant_is_of_type (v, G_VARIANT_TYPE_STRING))
    return wrong_type (key, v, "a string", error);
  s = g_variant_get_string (v, NULL);
  if (allowed && !g_strv_contains (allowed, s))
    {
      g_autofree char *list = g_strjoinv ("', '", (char **) allowed);

      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "\"%s\" in the loaded scheduler state is '%s', expected one of '%s'",
                   key, s, list);
      return FALSE;
    }
  g_free (*out);
  *out = g_strdup (s);
  return TRUE;
}

gboolean
gnn_lr_state_get_doubles (GVariantDict *state,
                          const char   *key,
                          double      **out,
                          guint        *n_out,
                          GError      **error)
{
  g_autoptr(GVariant) v = state_lookup (state, key);
  g_autofree double *values = NULL;
  gsize n;

  *out = NULL;
  *n_out = 0;
  if (v == NULL)
    return TRUE;
  if (!g_variant_is_of_type (v, G_VARIANT_TYPE_ARRAY))
    return wrong_type (key, v, "a list of numbers", error);
  n = g_variant_n_children (v);
  values = g_new (double, MAX (n, 1));
  for (gsize i = 0; i < n; i++)
    {
      g_autoptr(GVariant) child = g_variant_get_child_value (v, i);
      gint64 iv;

      while (g_variant_is_of_type (child, G_VARIANT_TYPE_VARIANT))
        {
          GVariant *inner = g_variant_get_variant (child);

          g_variant_unref (child);
          child = inner;
        }
      if (g_variant_is_of_type (child, G_VARIANT_TYPE_DOUBLE))
        values[i] = g_variant_get_double (child);
      else if (gnn_lr_variant_get_integer (child, &iv))
        values[i] = (double) iv;
      else
        return wrong_type (key, v, "a list of numbers", error);
    }
  *out = g_steal_pointer (&values);
  *n_out = n;
  return TRUE;
}
