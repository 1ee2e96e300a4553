/* gnn-optimizer.c: parameter groups and the base class of every optimizer
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include <gio/gio.h>

#include "gnn-optim-private.h"
#include "ops/gnn-ops-private.h"
#include "nn/gnn-props-private.h"
#include "core/gnn-profiler-hooks-private.h"

/* ---- options: an ordered name -> GVariant list ------------------------------------- */

typedef struct {
  char *name;
  GVariant *value;
} Option;

static void
option_free (gpointer data)
{
  Option *o = data;

  g_free (o->name);
  g_variant_unref (o->value);
  g_free (o);
}

static Option *
options_find (GPtrArray  *options,
              const char *name)
{
  for (guint i = 0; i < options->len; i++)
    {
      Option *o = g_ptr_array_index (options, i);

      if (strcmp (o->name, name) == 0)
        return o;
    }
  return NULL;
}

static void
options_set (GPtrArray  *options,
             const char *name,
             GVariant   *value)
{
  Option *o = options_find (options, name);

  g_variant_ref_sink (value);
  if (o)
    {
      g_variant_unref (o->value);
      o->value = value;
      return;
    }
  o = g_new0 (Option, 1);
  o->name = g_strdup (name);
  o->value = value;
  g_ptr_array_add (options, o);
}

/* a numeric option's value: a double, an integer, or a boolean (0 or 1) */
static double
option_number (Option *o)
{
  if (g_variant_is_of_type (o->value, G_VARIANT_TYPE_DOUBLE))
    return g_variant_get_double (o->value);
  if (g_variant_is_of_type (o->value, G_VARIANT_TYPE_INT64))
    return (double) g_variant_get_int64 (o->value);
  if (g_variant_is_of_type (o->value, G_VARIANT_TYPE_INT32))
    return g_variant_get_int32 (o->value);
  if (g_variant_is_of_type (o->value, G_VARIANT_TYPE_BOOLEAN))
    return g_variant_get_boolean (o->value) ? 1 : 0;
  g_critical ("option \"%s\" of a parameter group is a '%s', not a number", o->name,
              g_variant_get_type_string (o->value));
  return 0;
}

/* ---- GnnParamGroup ----------------------------------------------------------------- */

/**
 * GnnParamGroup:
 *
 * A group of parameters that an optimizer updates with the same options: one entry of
 * PyTorch's `optimizer.param_groups`, a dict holding `params` and the options (`lr`,
 * `momentum`, `betas` ...).
 *
 * The options are named [struct@GLib.Variant]s: doubles for numbers (`lr`, `momentum`,
 * `weight_decay`), booleans for flags (`nesterov`, `amsgrad`), a `(dd)` pair for Adam's
 * `betas`. Options a group does not set are filled from the optimizer's defaults when the
 * group is added with [method@Gnn.Optimizer.add_param_group]; options set before that
 * override the defaults for this group alone, as the dicts of PyTorch's per-parameter
 * options do. Learning-rate schedulers change `lr` (and `momentum` or `betas`) in place.
 *
 * In Python a group is a mapping of its options: `group["lr"] = 0.01`.
 */
struct _GnnParamGroup
{
  GObject parent_instance;

  GPtrArray *params;   /* GnnTensor, owned */
  GPtrArray *options;  /* Option */
};

G_DEFINE_FINAL_TYPE (GnnParamGroup, gnn_param_group, G_TYPE_OBJECT)

static void
gnn_param_group_finalize (GObject *object)
{
  GnnParamGroup *self = GNN_PARAM_GROUP (object);

  g_ptr_array_unref (self->params);
  g_ptr_array_unref (self->options);
  G_OBJECT_CLASS (gnn_param_group_parent_class)->finalize (object);
}

static void
gnn_param_group_class_init (GnnParamGroupClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = gnn_param_group_finalize;
}

static void
gnn_param_group_init (GnnParamGroup *self)
{
  self->params = g_ptr_array_new_with_free_func (g_object_unref);
  self->options = g_ptr_array_new_with_free_func (option_free);
}

/**
 * gnn_param_group_new:
 * @params: (array length=n_params): the parameters of the group
 * @n_params: the number of parameters
 *
 * Creates a group of parameters without options: they come from the optimizer's defaults,
 * or from [method@Gnn.ParamGroup.set_option] before the group is added.
 *
 * Returns: (transfer full): a new group
 */
GnnParamGroup *
gnn_param_group_new (GnnTensor **params,
                     guint       n_params)
{
  GnnParamGroup *self = g_object_new (GNN_TYPE_PARAM_GROUP, NULL);

  g_return_val_if_fail (params != NULL || n_params == 0, self);
  for (guint i = 0; i < n_params; i++)
    {
      g_return_val_if_fail (GNN_IS_TENSOR (params[i]), self);
      g_ptr_array_add (self->params, g_object_ref (params[i]));
    }
  return self;
}

/**
 * gnn_param_group_new_from_module:
 * @module: a module
 *
 * Creates a group of the parameters of @module and its submodules, each once, in the
 * order of [method@Gnn.Module.parameters] (`optimizer(model.parameters())`).
 *
 * Returns: (transfer full): a new group
 */
GnnParamGroup *
gnn_param_group_new_from_module (GnnModule *module)
{
  g_autoptr(GPtrArray) params = NULL;

  g_return_val_if_fail (GNN_IS_MODULE (module), NULL);
  params = gnn_module_parameters (module, TRUE);
  return gnn_param_group_new ((GnnTensor **) params->pdata, params->len);
}

/**
 * gnn_param_group_get_n_params:
 * @self: a group
 *
 * The number of parameters in the group.
 *
 * Returns: the number of parameters
 */
guint
gnn_param_group_get_n_params (GnnParamGroup *self)
{
  g_return_val_if_fail (GNN_IS_PARAM_GROUP (self), 0);
  return self->params->len;
}

/**
 * gnn_param_group_get_param:
 * @self: a group
 * @index: the position of the parameter
 *
 * One parameter of the group.
 *
 * Returns: (transfer none): the parameter
 */
GnnTensor *
gnn_param_group_get_param (GnnParamGroup *self,
                           guint          index)
{
  g_return_val_if_fail (GNN_IS_PARAM_GROUP (self), NULL);
  g_return_val_if_fail (index < self->params->len, NULL);
  return g_ptr_array_index (self->params, index);
}

/**
 * gnn_param_group_get_params:
 * @self: a group
 *
 * The parameters of the group (`group["params"]`).
 *
 * Returns: (transfer container) (element-type Gnn.Tensor): the parameters
 */
GPtrArray *
gnn_param_group_get_params (GnnParamGroup *self)
{
  GPtrArray *out;

  g_return_val_if_fail (GNN_IS_PARAM_GROUP (self), NULL);
  out = g_ptr_array_new_full (self->params->len, g_object_unref);
  for (guint i = 0; i < self->params->len; i++)
    g_ptr_array_add (out, g_object_ref (g_ptr_array_index (self->params, i)));
  return out;
}

/**
 * gnn_param_group_has_option:
 * @self: a group
 * @name: an option name, such as "lr"
 *
 * Whether the group has the option (`name in group`).
 *
 * Returns: %TRUE when the option is set
 */
gboolean
gnn_param_group_has_option (GnnParamGroup *self,
                            const char    *name)
{
  g_return_val_if_fail (GNN_IS_PARAM_GROUP (self), FALSE);
  g_return_val_if_fail (name != NULL, FALSE);
  return options_find (self->options, name) != NULL;
}

/**
 * gnn_param_group_get_option:
 * @self: a group
 * @name: an option name, such as "lr" or "betas"
 *
 * The value of an option (`group[name]`).
 *
 * Returns: (transfer full) (nullable): the value, or %NULL when the group lacks the option
 */
GVariant *
gnn_param_group_get_option (GnnParamGroup *self,
                            const char    *name)
{
  Option *o;

  g_return_val_if_fail (GNN_IS_PARAM_GROUP (self), NULL);
  g_return_val_if_fail (name != NULL, NULL);
  o = options_find (self->options, name);
  return o ? g_variant_ref (o->value) : NULL;
}

/**
 * gnn_param_group_set_option:
 * @self: a group
 * @name: an option name
 * @value: the value; a floating reference is sunk
 *
 * Sets an option (`group[name] = value`). A new option goes after the others.
 */
void
gnn_param_group_set_option (GnnParamGroup *self,
                            const char    *name,
                            GVariant      *value)
{
  g_return_if_fail (GNN_IS_PARAM_GROUP (self));
  g_return_if_fail (name != NULL);
  g_return_if_fail (value != NULL);
  options_set (self->options, name, value);
}

/**
 * gnn_param_group_get_double:
 * @self: a group
 * @name: the name of a numeric option, such as "lr"
 *
 * The value of a numeric option: a double, an integer, or a boolean (0 or 1). Asking for
 * an option the group lacks is a programmer error.
 *
 * Returns: the value
 */
double
gnn_param_group_get_double (GnnParamGroup *self,
                            const char    *name)
{
  Option *o;

  g_return_val_if_fail (GNN_IS_PARAM_GROUP (self), 0);
  g_return_val_if_fail (name != NULL, 0);
  o = options_find (self->options, name);
  g_return_val_if_fail (o != NULL, 0);
  return option_number (o);
}

/**
 * gnn_param_group_set_double:
 * @self: a group
 * @name: an option name, such as "lr"
 * @value: the value
 *
 * Sets a numeric option (`group[name] = value`).
 */
void
gnn_param_group_set_double (GnnParamGroup *self,
                            const char    *name,
                            double         value)
{
  gnn_param_group_set_option (self, name, g_variant_new_double (value));
}

/**
 * gnn_param_group_get_boolean:
 * @self: a group
 * @name: the name of a flag, such as "nesterov"
 *
 * The value of a flag; a number is %TRUE when it is not zero. Asking for an option the
 * group lacks is a programmer error.
 *
 * Returns: the value
 */
gboolean
gnn_param_group_get_boolean (GnnParamGroup *self,
                             const char    *name)
{
  Option *o;

  g_return_val_if_fail (GNN_IS_PARAM_GROUP (self), FALSE);
  g_return_val_if_fail (name != NULL, FALSE);
  o = options_find (self->options, name);
  g_return_val_if_fail (o != NULL, FALSE);
  if (g_variant_is_of_type (o->value, G_VARIANT_TYPE_BOOLEAN))
    return g_variant_get_boolean (o->value);
  return gnn_param_group_get_double (self, name) != 0;
}

/**
 * gnn_param_group_set_boolean:
 * @self: a group
 * @name: the name of a flag
 * @value: the value
 *
 * Sets a flag (`group[name] = value`).
 */
void
gnn_param_group_set_boolean (GnnParamGroup *self,
                             const char    *name,
                             gboolean       value)
{
  gnn_param_group_set_option (self, name, g_variant_new_boolean (value));
}

/**
 * gnn_param_group_list_options:
 * @self: a group
 *
 * The names of the group's options, in the order they were first set.
 *
 * Returns: (transfer full) (array zero-terminated=1): the names
 */
char **
gnn_param_group_list_options (GnnParamGroup *self)
{
  char **names;

  g_return_val_if_fail (GNN_IS_PARAM_GROUP (self), NULL);
  names = g_new0 (char *, self->options->len + 1);
  for (guint i = 0; i < self->options->len; i++)
    names[i] = g_strdup (((Option *) g_ptr_array_index (self->options, i))->name);
  return names;
}

/* ---- GnnOptimizer ------------------------------------------------------------------ */

/**
 * GnnOptimizer:
 *
 * The base class of optimizers (`torch.optim.Optimizer`): parameter groups with their
 * options, per-parameter state, [method@Gnn.Optimizer.step], [method@Gnn.Optimizer.zero_grad],
 * and a state dict that resumes training exactly.
 *
 * gnn's optimizers are built from properties alone, as bindings and loaders build objects:
 * [property@Gnn.Optimizer:params] holds the parameters (or the groups), and each option is
 * a property that reads and writes its default (`lr`, `momentum`, `betas` ...):
 *
 * ```c
 * g_autoptr(GListStore) params = g_list_store_new (GNN_TYPE_PARAM_GROUP);
 * g_list_store_append (params, gnn_param_group_new_from_module (model));
 * optimizer = g_initable_new (GNN_TYPE_SGD, NULL, &error, "params", params, "lr", 0.1,
 *                             "momentum", 0.9, NULL);
 * ```
 *
 * The options are checked and the groups added when the object is constructed, with
 * PyTorch's messages; the optimizers implement [iface@Gio.Initable], whose `init` reports
 * that outcome (and `step` reports it again), so g_object_new() alone also gives a working
 * optimizer. The `_new` constructors are shorthands for g_initable_new().
 *
 * A subclass in a binding sets its defaults with [method@Gnn.Optimizer.set_default] before
 * the first group is added, implements `step`, and keeps what it needs between steps in the
 * state of each parameter ([method@Gnn.Optimizer.get_state]), as tensors
 * (`momentum_buffer`, `exp_avg` ...) or plain values (`step`).
 *
 * The signals [signal@Gnn.Optimizer::step-pre] and [signal@Gnn.Optimizer::step-post] are
 * PyTorch's `register_step_pre_hook` and `register_step_post_hook`.
 */

typedef struct {
  GPtrArray *groups;     /* GnnParamGroup */
  GPtrArray *defaults;   /* Option */
  GHashTable *state;     /* GnnTensor (ref) -> GnnStateDict */
  GListModel *params;    /* the construct property, until constructed adds it */
  GError *init_error;    /* what completing the construction found */
} GnnOptimizerPrivate;

enum {
  PROP_0,
  PROP_PARAMS,
  N_PROPS
};

static GnnProp props[N_PROPS];

enum {
  SIGNAL_STEP_PRE,
  SIGNAL_STEP_POST,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void gnn_optimizer_initable_iface_init (GInitableIface *iface);

G_DEFINE_ABSTRACT_TYPE_WITH_CODE (GnnOptimizer, gnn_optimizer, G_TYPE_OBJECT,
                                  G_ADD_PRIVATE (GnnOptimizer)
                                  G_IMPLEMENT_INTERFACE (G_TYPE_INITABLE,
                                                         gnn_optimizer_initable_iface_init))

static void
gnn_optimizer_finalize (GObject *object)
{
  GnnOptimizerPrivate *priv = gnn_optimizer_get_instance_private (GNN_OPTIMIZER (object));

  g_ptr_array_unref (priv->groups);
  g_ptr_array_unref (priv->defaults);
  g_hash_table_unref (priv->state);
  g_clear_error (&priv->init_error);
  gnn_props_clear (object);
  G_OBJECT_CLASS (gnn_optimizer_parent_class)->finalize (object);
}

/* ---- construction from properties -------------------------------------------------- */

/* the pspecs of option properties carry this mark */
static G_DEFINE_QUARK (gnn-optimizer-option, option_pspec)

/* Sets the default of an option keeping STYLE.md's rule for its property, where the class
 * has one: nothing happens when the value is unchanged; otherwise the default is set and
 * the property notified. @value: a floating reference is sunk. */
static void
defaults_set (GnnOptimizer *self,
              const char   *name,
              GVariant     *value)
{
  GnnOptimizerPrivate *priv = gnn_optimizer_get_instance_private (self);
  g_autoptr(GVariant) v = g_variant_ref_sink (value);
  g_autofree char *prop_name = g_strdelimit (g_strdup (name), "_", '-');
  GParamSpec *pspec = g_object_class_find_property (G_OBJECT_GET_CLASS (self), prop_name);
  Option *o = options_find (priv->defaults, name);

  if (o && g_variant_equal (o->value, v))
    return;
  if (pspec && !g_param_spec_get_qdata (pspec, option_pspec_quark ()))
    pspec = NULL;
  if (pspec)
    g_object_freeze_notify (G_OBJECT (self));
  options_set (priv->defaults, name, v);
  if (pspec)
    {
      g_object_notify_by_pspec (G_OBJECT (self), pspec);
      g_object_thaw_notify (G_OBJECT (self));
    }
}

/* An option property reads and writes the default of its name ("weight-decay" is the
 * option "weight_decay"): a double ('d'), a flag ('b') or a variant as it is. */
static void
option_get (GObject *object, GParamSpec *pspec, GValue *value)
{
  GnnOptimizerPrivate *priv = gnn_optimizer_get_instance_private (GNN_OPTIMIZER (object));
  g_autofree char *name = gnn_prop_python_name (pspec);
  Option *o = options_find (priv->defaults, name);

  if (o == NULL)
    g_param_value_set_default (pspec, value);
  else if (G_VALUE_HOLDS_VARIANT (value))
    g_value_set_variant (value, o->value);
  else if (G_VALUE_HOLDS_BOOLEAN (value))
    g_value_set_boolean (value, option_number (o) != 0);
  else
    g_value_set_double (value, option_number (o));
}

static void
option_set (GObject *object, GParamSpec *pspec, const GValue *value)
{
  g_autofree char *name = gnn_prop_python_name (pspec);
  GVariant *v;

  if (G_VALUE_HOLDS_VARIANT (value))
    v = g_value_get_variant (value);
  else if (G_VALUE_HOLDS_BOOLEAN (value))
    v = g_variant_new_boolean (g_value_get_boolean (value));
  else
    v = g_variant_new_double (g_value_get_double (value));
  if (v != NULL)
    defaults_set (GNN_OPTIMIZER (object), name, v);
}

void
gnn_optim_class_install_options (GObjectClass *klass,
                                 GnnProp      *options,
                                 guint         n_options)
{
  for (guint i = 1; i < n_options; i++)
    {
      options[i].offset = GNN_PROP_NO_MEMBER;
      options[i].get = option_get;
      options[i].set = option_set;
      g_param_spec_set_qdata (options[i].pspec, option_pspec_quark (), GINT_TO_POINTER (TRUE));
    }
  gnn_props_install (klass, options, n_options);
}

static gboolean
check_group (GnnOptimizer  *self,
             GnnParamGroup *group,
             GError       **error)
{
  GnnOptimizerClass *klass = GNN_OPTIMIZER_GET_CLASS (self);
  GError *local = NULL;

  if (klass->check_group == NULL || klass->check_group (self, group, &local))
    return TRUE;
  if (local == NULL)
    local = g_error_new (GNN_ERROR, GNN_ERROR_FAILED,
                         "%s.check_group failed without setting an error", G_OBJECT_TYPE_NAME (self));
  g_propagate_error (error, local);
  return FALSE;
}

/* PyTorch's checks of the constructor's arguments: the defaults as a group of their own */
static gboolean
check_defaults (GnnOptimizer *self,
                GError      **error)
{
  GnnOptimizerPrivate *priv = gnn_optimizer_get_instance_private (self);
  g_autoptr(GnnParamGroup) group = gnn_param_group_new (NULL, 0);

  for (guint d = 0; d < priv->defaults->len; d++)
    {
      Option *o = g_ptr_array_index (priv->defaults, d);

      options_set (group->options, o->name, o->value);
    }
  return check_group (self, group, error);
}

/* [property@Gnn.Optimizer:params]: groups, or tensors for one group */
static gboolean
add_params (GnnOptimizer *self,
            GListModel   *params,
            GError      **error)
{
  guint n = g_list_model_get_n_items (params), n_tensors = 0;
  g_autoptr(GPtrArray) tensors = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GPtrArray) groups = g_ptr_array_new_with_free_func (g_object_unref);

  for (guint i = 0; i < n; i++)
    {
      GObject *item = g_list_model_get_item (params, i);

      if (GNN_IS_TENSOR (item) && groups->len == 0)
        g_ptr_array_add (tensors, item);
      else if (GNN_IS_PARAM_GROUP (item) && tensors->len == 0)
        {
          n_tensors += GNN_PARAM_GROUP (item)->params->len;
          g_ptr_array_add (groups, item);
        }
      else
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                       "params: expected tensors or parameter groups (GnnParamGroup), not both, found "
                       "a %s at %u", G_OBJECT_TYPE_NAME (item), i);
          g_object_unref (item);
          return FALSE;
        }
    }
  if (tensors->len > 0)
    g_ptr_array_add (groups, gnn_param_group_new ((GnnTensor **) tensors->pdata, tensors->len));
  if (tensors->len + n_tensors == 0)
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT, "optimizer got an empty parameter list");
      return FALSE;
    }
  for (guint g = 0; g < groups->len; g++)
    if (!gnn_optimizer_add_param_group (self, groups->pdata[g], error))
      return FALSE;
  return TRUE;
}

static void
gnn_optimizer_constructed (GObject *object)
{
  GnnOptimizer *self = GNN_OPTIMIZER (object);
  GnnOptimizerPrivate *priv = gnn_optimizer_get_instance_private (self);
  g_autoptr(GListModel) params = g_steal_pointer (&priv->params);

  G_OBJECT_CLASS (gnn_optimizer_parent_class)->constructed (object);
  /* the defaults are set (construct properties): check them and add the parameters, as
   * PyTorch's constructor does; the outcome is reported by init and step */
  if (priv->defaults->len > 0 && !check_defaults (self, &priv->init_error))
    return;
  if (params)
    add_params (self, params, &priv->init_error);
}

static gboolean
gnn_optimizer_initable_init (GInitable    *initable,
                             GCancellable *cancellable,
                             GError      **error)
{
  GnnOptimizerPrivate *priv = gnn_optimizer_get_instance_private (GNN_OPTIMIZER (initable));

  if (priv->init_error == NULL)
    return TRUE;
  if (error)
    *error = g_error_copy (priv->init_error);
  return FALSE;
}

static void
gnn_optimizer_initable_iface_init (GInitableIface *iface)
{
  iface->init = gnn_optimizer_initable_init;
}

GListModel *
gnn_optim_params_list (GnnParamGroup *params)
{
  GListStore *list;

  if (params == NULL)
    return NULL;
  list = g_list_store_new (GNN_TYPE_PARAM_GROUP);
  g_list_store_append (list, params);
  return G_LIST_MODEL (list);
}

static gboolean
gnn_optimizer_real_step (GnnOptimizer *self,
                         GError      **error)
{
  g_set_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED,
               "%s does not implement step", G_OBJECT_TYPE_NAME (self));
  return FALSE;
}

/**
 * GnnOptimizerClass::check_group:
 * @self: an optimizer
 * @group: the group about to be added, its options completed from the defaults
 * @error: return location for a #GError
 *
 * Validates the options of a parameter group before it is added (PyTorch raises
 * `ValueError`). When it returns %FALSE without setting @error, gnn sets one.
 *
 * Returns: %TRUE to accept the group, %FALSE with @error set to refuse it
 */
static void
gnn_optimizer_class_init (GnnOptimizerClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = gnn_optimizer_finalize;
  object_class->constructed = gnn_optimizer_constructed;
  klass->step = gnn_optimizer_real_step;

  /**
   * GnnOptimizer:params:
   *
   * The parameters to optimize, set at construction (PyTorch's `params`): a list model
   * of [class@Gnn.Tensor]s, which become one group, or of [class@Gnn.ParamGroup]s, whose
   * options override the defaults. An empty list is an error ("optimizer got an empty
   * parameter list"); without it the optimizer starts with no group, for
   * [method@Gnn.Optimizer.add_param_group]. Not readable: the groups are
   * [method@Gnn.Optimizer.get_param_groups].
   */
  props[PROP_PARAMS] = (GnnProp) {
    g_param_spec_object ("params", NULL, NULL, G_TYPE_LIST_MODEL,
                         G_PARAM_WRITABLE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS),
    G_PRIVATE_OFFSET (GnnOptimizer, params) };
  gnn_props_install (object_class, props, N_PROPS);

  /**
   * GnnOptimizer::step-pre:
   * @self: the optimizer
   *
   * Emitted before each step (`register_step_pre_hook`). Handlers may change the options of
   * the groups. Not emitted, and costs nothing, when no handler is connected.
   */
  signals[SIGNAL_STEP_PRE] =
    g_signal_new ("step-pre", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                  NULL, G_TYPE_NONE, 0);

  /**
   * GnnOptimizer::step-post:
   * @self: the optimizer
   *
   * Emitted after each successful step (`register_step_post_hook`).
   */
  signals[SIGNAL_STEP_POST] =
    g_signal_new ("step-post", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                  NULL, G_TYPE_NONE, 0);
}

static void
gnn_optimizer_init (GnnOptimizer *self)
{
  GnnOptimizerPrivate *priv = gnn_optimizer_get_instance_private (self);

  priv->groups = g_ptr_array_new_with_free_func (g_object_unref);
  priv->defaults = g_ptr_array_new_with_free_func (option_free);
  priv->state = g_hash_table_new_full (g_direct_hash, g_direct_equal, g_object_unref, g_object_unref);
}

/**
 * gnn_optimizer_step:
 * @self: an optimizer
 * @error: return location for a #GError
 *
 * Updates the parameters from their gradients (`optimizer.step()`), with gradient
 * recording off. Parameters whose gradient is %NULL are left alone.
 *
 * Returns: %TRUE on success
 */
gboolean
gnn_optimizer_step (GnnOptimizer *self,
                    GError      **error)
{
  g_autoptr(GnnNoGradGuard) guard = NULL;
  GError *local = NULL;

  g_return_val_if_fail (GNN_IS_OPTIMIZER (self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);
  gpointer profiled = NULL;

  if (!gnn_optimizer_initable_init (G_INITABLE (self), NULL, error))
    return FALSE;
  if (GNN_PROFILER_IS_ACTIVE ())
    profiled = gnn_profiler_optimizer_range_begin (G_OBJECT (self), "step");
  if (g_signal_has_handler_pending (self, signals[SIGNAL_STEP_PRE], 0, TRUE))
    g_signal_emit (self, signals[SIGNAL_STEP_PRE], 0);
  guard = gnn_no_grad_guard_new ();
  if (!GNN_OPTIMIZER_GET_CLASS (self)->step (self, &local))
    {
      /* a Python do_step that raised something other than GLib.Error returns FALSE
       * without an error */
      if (local == NULL)
        local = g_error_new (GNN_ERROR, GNN_ERROR_FAILED, "%s.step failed without setting an error",
                             G_OBJECT_TYPE_NAME (self));
      gnn_profiler_range_close (profiled);
      g_propagate_error (error, local);
      return FALSE;
    }
  g_clear_pointer (&guard, gnn_no_grad_guard_free);
  if (g_signal_has_handler_pending (self, signals[SIGNAL_STEP_POST], 0, TRUE))
    g_signal_emit (self, signals[SIGNAL_STEP_POST], 0);
  gnn_profiler_range_close (profiled);
  return TRUE;
}

/**
 * gnn_optimizer_zero_grad:
 * @self: an optimizer
 * @set_to_none: %TRUE (PyTorch's default) to drop the gradients, %FALSE to fill them with
 *   zeros
 *
 * Clears the gradients of every parameter of every group (`optimizer.zero_grad()`).
 */
void
gnn_optimizer_zero_grad (GnnOptimizer *self,
                         gboolean      set_to_none)
{
  GnnOptimizerPrivate *priv;
  gpointer profiled = NULL;

  g_return_if_fail (GNN_IS_OPTIMIZER (self));
  priv = gnn_optimizer_get_instance_private (self);
  if (GNN_PROFILER_IS_ACTIVE ())
    profiled = gnn_profiler_optimizer_range_begin (G_OBJECT (self), "zero_grad");
  for (guint g = 0; g < priv->groups->len; g++)
    {
      GnnParamGroup *group = g_ptr_array_index (priv->groups, g);

      for (guint i = 0; i < group->params->len; i++)
        {
          GnnTensor *p = g_ptr_array_index (group->params, i);
          GnnTensor *grad = gnn_tensor_get_grad (p);

          if (grad == NULL)
            continue;
          if (set_to_none)
            gnn_tensor_set_grad (p, NULL, NULL);
          else
            {
              g_autoptr(GnnNoGradGuard) guard = gnn_no_grad_guard_new ();

              gnn_tensor_zero_ (grad, NULL);
            }
        }
    }
  gnn_profiler_range_close (profiled);
}

static gboolean
optimizer_owns_param (GnnOptimizerPrivate *priv,
                      GnnTensor           *p)
{
  for (guint g = 0; g < priv->groups->len; g++)
    {
      GnnParamGroup *group = g_ptr_array_index (priv->groups, g);

      for (guint i = 0; i < group->params->len; i++)
        if (g_ptr_array_index (group->params, i) == p)
          return TRUE;
    }
  return FALSE;
}

/**
 * gnn_optimizer_add_param_group:
 * @self: an optimizer
 * @group: the group to add
 * @error: return location for a #GError
 *
 * Adds a group of parameters (`optimizer.add_param_group`). Options the group lacks are set
 * from the optimizer's defaults; the optimizer then checks them. A parameter may belong to
 * one group only, and must be a leaf tensor.
 *
 * Returns: %TRUE on success; %FALSE with @error set (%GNN_ERROR_INVALID_ARGUMENT), leaving
 *   the optimizer unchanged
 */
gboolean
gnn_optimizer_add_param_group (GnnOptimizer  *self,
                               GnnParamGroup *group,
                               GError       **error)
{
  GnnOptimizerPrivate *priv;

  g_return_val_if_fail (GNN_IS_OPTIMIZER (self), FALSE);
  g_return_val_if_fail (GNN_IS_PARAM_GROUP (group), FALSE);
  priv = gnn_optimizer_get_instance_private (self);
  for (guint g = 0; g < priv->groups->len; g++)
    if (g_ptr_array_index (priv->groups, g) == group)
      {
        g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                     "this parameter group was already added to the optimizer");
        return FALSE;
      }
  for (guint i = 0; i < group->params->len; i++)
    {
      GnnTensor *p = g_ptr_array_index (group->params, i);

      if (!gnn_tensor_is_leaf (p))
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                       "can't optimize a non-leaf Tensor (parameter %u of the group)", i);
          return FALSE;
        }
      for (guint j = 0; j < i; j++)
        if (g_ptr_array_index (group->params, j) == p)
          {
            g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                         "the parameter group holds parameter %u twice (again at %u)", j, i);
            return FALSE;
          }
      if (optimizer_owns_param (priv, p))
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                       "some parameters appear in more than one parameter group (parameter %u "
                       "of the new group)", i);
          return FALSE;
        }
    }
  for (guint d = 0; d < priv->defaults->len; d++)
    {
      Option *o = g_ptr_array_index (priv->defaults, d);

      if (!options_find (group->options, o->name))
        options_set (group->options, o->name, o->value);
    }
  if (!check_group (self, group, error))
    return FALSE;
  g_ptr_array_add (priv->groups, g_object_ref (group));
  return TRUE;
}

/**
 * gnn_optimizer_get_n_param_groups:
 * @self: an optimizer
 *
 * The number of parameter groups (`len(optimizer.param_groups)`).
 *
 * Returns: the number of groups
 */
guint
gnn_optimizer_get_n_param_groups (GnnOptimizer *self)
{
  GnnOptimizerPrivate *priv;

  g_return_val_if_fail (GNN_IS_OPTIMIZER (self), 0);
  priv = gnn_optimizer_get_instance_private (self);
  return priv->groups->len;
}

/**
 * gnn_optimizer_get_param_group:
 * @self: an optimizer
 * @index: the position of the group
 *
 * One parameter group (`optimizer.param_groups[index]`); changing its options changes how
 * the next step updates its parameters.
 *
 * Returns: (transfer none): the group
 */
GnnParamGroup *
gnn_optimizer_get_param_group (GnnOptimizer *self,
                               guint         index)
{
  GnnOptimizerPrivate *priv;

  g_return_val_if_fail (GNN_IS_OPTIMIZER (self), NULL);
  priv = gnn_optimizer_get_instance_private (self);
  g_return_val_if_fail (index < priv->groups->len, NULL);
  return g_ptr_array_index (priv->groups, index);
}

/**
 * gnn_optimizer_get_param_groups:
 * @self: an optimizer
 *
 * The parameter groups (`optimizer.param_groups`).
 *
 * Returns: (transfer container) (element-type Gnn.ParamGroup): the groups
 */
GPtrArray *
gnn_optimizer_get_param_groups (GnnOptimizer *self)
{
  GnnOptimizerPrivate *priv;
  GPtrArray *out;

  g_return_val_if_fail (GNN_IS_OPTIMIZER (self), NULL);
  priv = gnn_optimizer_get_instance_private (self);
  out = g_ptr_array_new_full (priv->groups->len, g_object_unref);
  for (guint g = 0; g < priv->groups->len; g++)
    g_ptr_array_add (out, g_object_ref (g_ptr_array_index (priv->groups, g)));
  return out;
}

/**
 * gnn_optimizer_set_default:
 * @self: an optimizer
 * @name: an option name
 * @value: its default value; a floating reference is sunk
 *
 * Sets the default of an option (`optimizer.defaults[name]`), which groups added later get
 * when they lack it. Subclasses set every option they read before the first group is added.
 * The option properties of gnn's optimizers ([property@Gnn.SGD:weight-decay] for
 * `weight_decay`) are these defaults: setting one here notifies its property.
 */
void
gnn_optimizer_set_default (GnnOptimizer *self,
                           const char   *name,
                           GVariant     *value)
{
  g_return_if_fail (GNN_IS_OPTIMIZER (self));
  g_return_if_fail (name != NULL);
  g_return_if_fail (value != NULL);
  defaults_set (self, name, value);
}

/**
 * gnn_optimizer_get_default:
 * @self: an optimizer
 * @name: an option name
 *
 * The default of an option (`optimizer.defaults[name]`).
 *
 * Returns: (transfer full) (nullable): the default, or %NULL when there is none
 */
GVariant *
gnn_optimizer_get_default (GnnOptimizer *self,
                           const char   *name)
{
  GnnOptimizerPrivate *priv;
  Option *o;

  g_return_val_if_fail (GNN_IS_OPTIMIZER (self), NULL);
  g_return_val_if_fail (name != NULL, NULL);
  priv = gnn_optimizer_get_instance_private (self);
  o = options_find (priv->defaults, name);
  return o ? g_variant_ref (o->value) : NULL;
}

/**
 * gnn_optimizer_get_state:
 * @self: an optimizer
 * @param: a parameter of one of the groups
 *
 * The state the optimizer keeps for @param (`optimizer.state[param]`), created empty on
 * first use: named tensors such as `momentum_buffer`, and plain values such as `step`.
 *
 * Returns: (transfer none): the state of @param
 */
GnnStateDict *
gnn_optimizer_get_state (GnnOptimizer *self,
                         GnnTensor    *param)
{
  GnnOptimizerPrivate *priv;
  GnnStateDict *state;

  g_return_val_if_fail (GNN_IS_OPTIMIZER (self), NULL);
  g_return_val_if_fail (GNN_IS_TENSOR (param), NULL);
  priv = gnn_optimizer_get_instance_private (self);
  state = g_hash_table_lookup (priv->state, param);
  if (state == NULL)
    {
      state = gnn_state_dict_new ();
      g_hash_table_insert (priv->state, g_object_ref (param), state);
    }
  return state;
}

/**
 * gnn_optimizer_has_state:
 * @self: an optimizer
 * @param: a parameter
 *
 * Whether the optimizer holds state for @param (`param in optimizer.state`) that is not
 * empty.
 *
 * Returns: %TRUE when it does
 */
gboolean
gnn_optimizer_has_state (GnnOptimizer *self,
                         GnnTensor    *param)
{
  GnnOptimizerPrivate *priv;
  GnnStateDict *state;

  g_return_val_if_fail (GNN_IS_OPTIMIZER (self), FALSE);
  g_return_val_if_fail (GNN_IS_TENSOR (param), FALSE);
  priv = gnn_optimizer_get_instance_private (self);
  state = g_hash_table_lookup (priv->state, param);
  return state != NULL && gnn_state_dict_get_length (state) > 0;
}

static void
set_variant_value (GnnStateDict *dict,
                   const char   *key,
                   GVariant     *v)
{
  GValue value = G_VALUE_INIT;

  g_value_init (&value, G_TYPE_VARIANT);
  g_value_set_variant (&value, v);
  gnn_state_dict_set_value (dict, key, &value);
  g_value_unset (&value);
}

/**
 * gnn_optimizer_state_dict:
 * @self: an optimizer
 *
 * The optimizer's state (`optimizer.state_dict()`), flattened into one ordered map. As in
 * PyTorch, parameters are numbered across the groups in order, and the map holds:
 *
 * - `state.<n>.<name>`: the state of parameter n, each entry as it is kept (tensors are the
 *   optimizer's own, not copies, as in PyTorch);
 * - `param_groups.<g>.<option>`: each option of group g, a #GVariant;
 * - `param_groups.<g>.params`: the numbers of the group's parameters, a #GVariant of
 *   type `ax`.
 *
 * Returns: (transfer full): the state
 */
GnnStateDict *
gnn_optimizer_state_dict (GnnOptimizer *self)
{
  GnnOptimizerPrivate *priv;
  GnnStateDict *out;
  guint index = 0;

  g_return_val_if_fail (GNN_IS_OPTIMIZER (self), NULL);
  priv = gnn_optimizer_get_instance_private (self);
  out = gnn_state_dict_new ();
  for (guint g = 0; g < priv->groups->len; g++)
    {
      GnnParamGroup *group = g_ptr_array_index (priv->groups, g);

      for (guint i = 0; i < group->params->len; i++, index++)
        {
          GnnStateDict *state = g_hash_table_lookup (priv->state, g_ptr_array_index (group->params, i));
          g_auto(GStrv) keys = NULL;

          if (state == NULL)
            continue;
          keys = gnn_state_dict_get_keys (state);
          for (guint k = 0; keys[k]; k++)
            {
              g_auto(GValue) value = G_VALUE_INIT;
              g_autofree char *key = g_strdup_printf ("state.%u.%s", index, keys[k]);

              if (gnn_state_dict_get_value (state, keys[k], &value, NULL))
                gnn_state_dict_set_value (out, key, &value);
            }
        }
    }
  index = 0;
  for (guint g = 0; g < priv->groups->len; g++)
    {
      GnnParamGroup *group = g_ptr_array_index (priv->groups, g);
      g_autoptr(GVariantBuilder) ids = g_variant_builder_new (G_VARIANT_TYPE ("ax"));
      g_autofree char *pkey = g_strdup_printf ("param_groups.%u.params", g);

      for (guint o = 0; o < group->options->len; o++)
        {
          Option *opt = g_ptr_array_index (group->options, o);
          g_autofree char *key = g_strdup_printf ("param_groups.%u.%s", g, opt->name);

          set_variant_value (out, key, opt->value);
        }
      for (guint i = 0; i < group->params->len; i++)
        g_variant_builder_add (ids, "x", (gint64) index++);
      set_variant_value (out, pkey, g_variant_builder_end (ids));
    }
  return out;
}

/* parses "<prefix><number>.<rest>"; returns rest or NULL */
static const char *
parse_numbered_key (const char *key,
                    const char *prefix,
                    guint64    *number)
{
  const char *p;
  char *end = NULL;

  if (!g_str_has_prefix (key, prefix))
    return NULL;
  p = key + strlen (prefix);
  if (!g_ascii_isdigit (*p))
    return NULL;
  *number = g_ascii_strtoull (p, &end, 10);
  if (end == NULL || *end != '.' || end[1] == '\0')
    return NULL;
  return end + 1;
}

static GVariant *
dict_variant (GnnStateDict *state,
              const char   *key)
{
  g_auto(GValue) value = G_VALUE_INIT;

  if (!gnn_state_dict_get_value (state, key, &value, NULL) || !G_VALUE_HOLDS_VARIANT (&value))
    return NULL;
  return g_value_dup_variant (&value);
}

typedef struct {
  GnnTensor *param;
  char *name;
  GValue value;
} PendingState;

static GQuark
state_keys_quark (void)
{
  return g_quark_from_static_string ("gnn-optim-state-keys");
}

void
gnn_optim_class_set_state_keys (gpointer              klass,
                                GnnOptimStateKeysFunc func)
{
  g_type_set_qdata (G_TYPE_FROM_CLASS (klass), state_keys_quark (), (gpointer) func);
}

static GQuark
fixed_state_keys_quark (void)
{
  return g_quark_from_static_string ("gnn-optim-fixed-state-keys");
}

void
gnn_optim_class_set_fixed_state_keys (gpointer           klass,
                                      const char *const *keys)
{
  g_type_set_qdata (G_TYPE_FROM_CLASS (klass), fixed_state_keys_quark (), (gpointer) keys);
}

/* the entries the state of a parameter of @group needs, or NULL */
static const char *const *
state_keys_for (GnnOptimizer  *self,
                GnnParamGroup *group)
{
  GType type = G_OBJECT_TYPE (self);
  GnnOptimStateKeysFunc func = (GnnOptimStateKeysFunc) g_type_get_qdata (type, state_keys_quark ());

  if (func != NULL)
    return func (self, group);
  return g_type_get_qdata (type, fixed_state_keys_quark ());
}

/* Every parameter of @group with some loaded state has all the entries its optimizer needs
 * (gnn_optim_class_set_state_keys); @all_params maps the saved numbers to parameters. */
static gboolean
check_state_complete (GnnOptimizer  *self,
                      GnnParamGroup *group,
                      GPtrArray     *all_params,
                      GPtrArray     *pending,
                      GError       **error)
{
  const char *const *need = state_keys_for (self, group);

  if (need == NULL)
    return TRUE;
  for (guint i = 0; i < group->params->len; i++)
    {
      GnnTensor *param = g_ptr_array_index (group->params, i);
      gboolean any = FALSE;

      for (guint p = 0; p < pending->len && !any; p++)
        any = ((PendingState *) g_ptr_array_index (pending, p))->param == param;
      if (!any)
        continue;   /* no state: a parameter not stepped yet */
      for (guint k = 0; need[k]; k++)
        {
          gboolean found = FALSE;
          guint n = 0;

          for (guint p = 0; p < pending->len && !found; p++)
            {
              PendingState *s = g_ptr_array_index (pending, p);
              found = s->param == param && strcmp (s->name, need[k]) == 0;
            }
          if (found)
            continue;
          while (n < all_params->len && g_ptr_array_index (all_params, n) != param)
            n++;
          g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                       "the loaded state of parameter %u lacks \"state.%u.%s\", which %s needs (a "
                       "parameter's state is saved whole or not at all)", n, n, need[k],
                       G_OBJECT_TYPE_NAME (self));
          return FALSE;
        }
    }
  return TRUE;
}

static void
pending_state_free (gpointer data)
{
  PendingState *s = data;

  g_free (s->name);
  g_value_unset (&s->value);
  g_free (s);
}

/**
 * gnn_optimizer_load_state_dict:
 * @self: an optimizer
 * @state: a state from [method@Gnn.Optimizer.state_dict], of an optimizer with as many
 *   groups of the same sizes
 * @error: return location for a #GError
 *
 * Restores the optimizer's state (`optimizer.load_state_dict`): the options of every group
 * and the state of every parameter. State tensors are copied, and, as PyTorch does, cast to
 * the dtype (when floating point) and the device of their parameter, except `step`. Options
 * a loaded group lacks keep their current values; the loaded options are checked as
 * [method@Gnn.Optimizer.add_param_group] checks a group's. A parameter's state is loaded whole
 * or not at all: one that holds some entries and lacks one its optimizer needs (Adam's
 * `exp_avg_sq`, or `max_exp_avg_sq` with amsgrad) is refused, naming the missing key, where
 * PyTorch fails at the next step with a KeyError (the optimizer would otherwise start that
 * entry afresh, and a resumed run would no longer follow the saved one).
 *
 * Returns: %TRUE on success; %FALSE with @error set when @state does not fit the optimizer
 *   (%GNN_ERROR_INVALID_ARGUMENT, with PyTorch's wording), leaving the optimizer unchanged
 */
gboolean
gnn_optimizer_load_state_dict (GnnOptimizer *self,
                               GnnStateDict *state,
                               GError      **error)
{
  GnnOptimizerPrivate *priv;
  g_auto(GStrv) keys = NULL;
  g_autoptr(GPtrArray) all_params = NULL;   /* saved number -> parameter */
  g_autoptr(GPtrArray) pending = NULL;
  g_autoptr(GPtrArray) group_options = NULL; /* per group: GPtrArray of Option */
  g_autoptr(GnnNoGradGuard) guard = NULL;
  guint n_saved_groups = 0;

  g_return_val_if_fail (GNN_IS_OPTIMIZER (self), FALSE);
  g_return_val_if_fail (GNN_IS_STATE_DICT (state), FALSE);
  guard = gnn_no_grad_guard_new ();
  priv = gnn_optimizer_get_instance_private (self);

  while (TRUE)
    {
      g_autofree char *k = g_strdup_printf ("param_groups.%u.params", n_saved_groups);

      if (!gnn_state_dict_contains (state, k))
        break;
      n_saved_groups++;
    }
  if (n_saved_groups != priv->groups->len)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "loaded state dict has a different number of parameter groups "
                   "(%u, the optimizer has %u)", n_saved_groups, priv->groups->len);
      return FALSE;
    }

  all_params = g_ptr_array_new ();
  for (guint g = 0; g < priv->groups->len; g++)
    {
      GnnParamGroup *group = g_ptr_array_index (priv->groups, g);
      g_autofree char *k = g_strdup_printf ("param_groups.%u.params", g);
      g_autoptr(GVariant) ids = dict_variant (state, k);
      gsize n_ids;
      const gint64 *id;

      if (ids == NULL || !g_variant_is_of_type (ids, G_VARIANT_TYPE ("ax")))
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                       "\"%s\" in the loaded state dict is not a list of parameter numbers "
                       "(a GVariant of type 'ax')", k);
          return FALSE;
        }
      id = g_variant_get_fixed_array (ids, &n_ids, sizeof (gint64));
      if (n_ids != group->params->len)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                       "loaded state dict contains a parameter group that doesn't match the "
                       "size of optimizer's group (group %u: %" G_GSIZE_FORMAT " parameters, "
                       "the optimizer's has %u)", g, n_ids, group->params->len);
          return FALSE;
        }
      for (gsize i = 0; i < n_ids; i++)
        {
          if (id[i] < 0 || id[i] > 1000000000)
            {
              g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                           "parameter number %" G_GINT64_FORMAT " in \"%s\" is out of range", id[i], k);
              return FALSE;
            }
          if ((guint64) id[i] >= all_params->len)
            g_ptr_array_set_size (all_params, id[i] + 1);
          if (g_ptr_array_index (all_params, id[i]) != NULL)
            {
              g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                           "parameter number %" G_GINT64_FORMAT " appears twice in the loaded "
                           "parameter groups", id[i]);
              return FALSE;
            }
          all_params->pdata[id[i]] = g_ptr_array_index (group->params, i);
        }
    }

  /* every other key: a group option or a parameter's state */
  keys = gnn_state_dict_get_keys (state);
  pending = g_ptr_array_new_with_free_func (pending_state_free);
  group_options = g_ptr_array_new_with_free_func ((GDestroyNotify) g_ptr_array_unref);
  for (guint g = 0; g < priv->groups->len; g++)
    g_ptr_array_add (group_options, g_ptr_array_new_with_free_func (option_free));
  for (guint k = 0; keys[k]; k++)
    {
      guint64 n;
      const char *rest;

      if ((rest = parse_numbered_key (keys[k], "param_groups.", &n)) != NULL)
        {
          GVariant *v;

          if (strcmp (rest, "params") == 0)
            continue;
          if (n >= priv->groups->len || (v = dict_variant (state, keys[k])) == NULL)
            {
              g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                           "unexpected entry \"%s\" in the loaded state dict (group options are "
                           "GVariants of groups 0 to %u)", keys[k], priv->groups->len - 1);
              return FALSE;
            }
          options_set (g_ptr_array_index (group_options, n), rest, v);
          g_variant_unref (v);
        }
      else if ((rest = parse_numbered_key (keys[k], "state.", &n)) != NULL)
        {
          PendingState *s;
          GnnTensor *param = n < all_params->len ? g_ptr_array_index (all_params, n) : NULL;

          if (param == NULL)
            {
              g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                           "the loaded state dict holds state for parameter %" G_GUINT64_FORMAT
                           " (\"%s\"), which no parameter group lists", n, keys[k]);
              return FALSE;
            }
          s = g_new0 (PendingState, 1);
          s->param = param;
          s->name = g_strdup (rest);
          g_ptr_array_add (pending, s);
          gnn_state_dict_get_value (state, keys[k], &s->value, NULL);
          if (G_VALUE_HOLDS (&s->value, GNN_TYPE_TENSOR) && g_value_get_object (&s->value))
            {
              GnnTensor *t = g_value_get_object (&s->value);
              g_autoptr(GnnTensor) cast = NULL;
              g_autoptr(GnnTensor) moved = NULL;
              g_autoptr(GnnTensor) copy = NULL;
              GnnDtype dtype = gnn_tensor_get_dtype (t);

              if (strcmp (rest, "step") != 0 && gnn_dtype_is_floating (dtype) &&
                  gnn_dtype_is_floating (gnn_tensor_get_dtype (param)))
                dtype = gnn_tensor_get_dtype (param);
              if ((cast = gnn_tensor_to_dtype (t, dtype, error)) == NULL ||
                  (moved = gnn_tensor_to_device_of (cast, param, error)) == NULL ||
                  (copy = gnn_tensor_clone (moved, error)) == NULL)
                {
                  g_prefix_error (error, "loading \"%s\": ", keys[k]);
                  return FALSE;
                }
              g_value_set_object (&s->value, copy);
            }
        }
      else
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                       "unexpected key \"%s\" in the loaded optimizer state dict (expected "
                       "\"state.<n>.<name>\" or \"param_groups.<g>.<option>\")", keys[k]);
          return FALSE;
        }
    }

  /* options the loaded groups lack keep their current values (PyTorch's __setstate__ fills
   * such options with defaults), so that a state saved without, say, "maximize" loads; then
   * the optimizer checks the loaded options as it checks a new group, and a failure puts the
   * previous options back */
  for (guint g = 0; g < priv->groups->len; g++)
    {
      GnnParamGroup *group = g_ptr_array_index (priv->groups, g);
      GPtrArray *loaded = g_ptr_array_index (group_options, g);

      for (guint o = 0; o < group->options->len; o++)
        {
          Option *opt = g_ptr_array_index (group->options, o);

          if (!options_find (loaded, opt->name))
            options_set (loaded, opt->name, opt->value);
        }
    }
  for (guint g = 0; g < priv->groups->len; g++)
    {
      GnnParamGroup *group = g_ptr_array_index (priv->groups, g);
      GPtrArray *previous = group->options;
      GnnOptimizerClass *klass = GNN_OPTIMIZER_GET_CLASS (self);
      GError *local = NULL;

      group->options = g_ptr_array_ref (g_ptr_array_index (group_options, g));
      if (klass->check_group && !klass->check_group (self, group, &local))
        {
          if (local == NULL)
            local = g_error_new (GNN_ERROR, GNN_ERROR_FAILED,
                                 "%s.check_group failed without setting an error", G_OBJECT_TYPE_NAME (self));
          g_prefix_error (&local, "loading the options of parameter group %u: ", g);
        }
      /* with the loaded options, which decide what the state holds (amsgrad ...) */
      else if (!check_state_complete (self, group, all_params, pending, &local))
        g_prefix_error (&local, "parameter group %u: ", g);
      if (local != NULL)
        {
          g_propagate_error (error, local);
          g_ptr_array_unref (group->options);
          group->options = previous;
          for (guint h = 0; h < g; h++)
            {
              GnnParamGroup *done = g_ptr_array_index (priv->groups, h);

              g_ptr_array_unref (done->options);
              done->options = g_ptr_array_ref (g_ptr_array_index (group_options, h));   /* its previous */
            }
          return FALSE;
        }
      /* keep the previous options where the rollback finds them */
      g_ptr_array_unref (g_ptr_array_index (group_options, g));
      group_options->pdata[g] = previous;
    }
  g_hash_table_remove_all (priv->state);
  for (guint i = 0; i < pending->len; i++)
    {
      PendingState *s = g_ptr_array_index (pending, i);

      gnn_state_dict_set_value (gnn_optimizer_get_state (self, s->param), s->name, &s->value);
    }
  return TRUE;
}
