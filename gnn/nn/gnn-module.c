/* gnn-module.c: GnnModule
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <string.h>

#include "gnn-module-private.h"
#include "gnn-props-private.h"
#include "core/gnn-tensor-private.h"
#include "gnn-args-private.h"
#include "gnn-marshal.h"
#include "core/gnn-profiler-hooks-private.h"

/**
 * GnnModule:
 *
 * The base class of every layer and model, as `torch.nn.Module`.
 *
 * A module holds parameters ([class@Gnn.Parameter]), buffers and submodules, each registered
 * under a name, in order; names join with dots into the keys PyTorch uses
 * (`layers.0.weight`). Subclasses implement `forward`, and build what they hold in `setup`,
 * from their properties.
 *
 * Call a module with [method@Gnn.Module.forward] (any values in, any values out, through
 * [class@Gnn.Args]) or [method@Gnn.Module.forward_tensor] (one tensor in and out).
 *
 * The [property@Gnn.Module:training] property selects training or evaluation behaviour for
 * the whole tree below the module; [property@Gnn.Module:device] tells where its tensors are
 * and moves them.
 */

enum {
  SIGNAL_FORWARD_PRE,
  SIGNAL_FORWARD_POST,
  SIGNAL_BACKWARD_PRE,
  SIGNAL_BACKWARD_POST,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

enum {
  PROP_0,
  PROP_TRAINING,
  PROP_DEVICE,
  PROP_DTYPE,
  N_PROPS
};

static GnnProp props[N_PROPS];

G_DEFINE_TYPE_WITH_PRIVATE (GnnModule, gnn_module, G_TYPE_OBJECT)

static GnnModulePrivate *
priv_of (GnnModule *self)
{
  return gnn_module_get_instance_private (self);
}

GnnModulePrivate *
gnn_module_priv (GnnModule *self)
{
  return priv_of (self);
}

static void
slot_free (gpointer data)
{
  GnnModuleSlot *s = data;
  g_free (s->name);
  g_clear_object (&s->value);
  g_free (s);
}

GnnModuleSlot *
gnn_module_find_slot (GPtrArray *slots, const char *name)
{
  for (guint i = 0; i < slots->len; i++)
    {
      GnnModuleSlot *s = slots->pdata[i];
      if (g_str_equal (s->name, name))
        return s;
    }
  return NULL;
}

static void
gnn_module_dispose (GObject *object)
{
  GnnModulePrivate *priv = priv_of (GNN_MODULE (object));

  g_ptr_array_set_size (priv->parameters, 0);
  g_ptr_array_set_size (priv->buffers, 0);
  g_ptr_array_set_size (priv->modules, 0);
  g_clear_pointer (&priv->attributes, g_ptr_array_unref);
  g_clear_pointer (&priv->forward_hooks, g_ptr_array_unref);
  G_OBJECT_CLASS (gnn_module_parent_class)->dispose (object);
}

static void
gnn_module_finalize (GObject *object)
{
  GnnModulePrivate *priv = priv_of (GNN_MODULE (object));

  g_ptr_array_unref (priv->parameters);
  g_ptr_array_unref (priv->buffers);
  g_ptr_array_unref (priv->modules);
  g_clear_error (&priv->setup_error);
  gnn_props_clear (object);
  G_OBJECT_CLASS (gnn_module_parent_class)->finalize (object);
}

static void
training_get (GObject *object, GParamSpec *pspec, GValue *value)
{
  g_value_set_boolean (value, gnn_module_get_training (GNN_MODULE (object)));
}

/* sets the whole tree; each module whose mode changes notifies */
static void
training_set (GObject *object, GParamSpec *pspec, const GValue *value)
{
  gnn_module_set_training (GNN_MODULE (object), g_value_get_boolean (value));
}

static void
device_get (GObject *object, GParamSpec *pspec, GValue *value)
{
  g_value_take_string (value, gnn_module_get_device (GNN_MODULE (object)));
}

/* moves the tensors; notifies when the device changed */
static void
device_set (GObject *object, GParamSpec *pspec, const GValue *value)
{
  GnnModule *self = GNN_MODULE (object);
  g_autoptr(GError) error = NULL;
  const char *device = g_value_get_string (value);

  if (device && !gnn_module_to_device (self, device, &error))
    g_warning ("Could not move %s to %s: %s", gnn_module_get_name (self), device, error->message);
}

static void
dtype_get (GObject *object, GParamSpec *pspec, GValue *value)
{
  g_value_set_enum (value, gnn_module_dtype (GNN_MODULE (object)));
}

static void
gnn_module_constructed (GObject *object)
{
  G_OBJECT_CLASS (gnn_module_parent_class)->constructed (object);
  /* construct properties are set now, in every language: build from them. A failure is
   * kept and reported by the first call that needs the module */
  gnn_module_ensure_setup (GNN_MODULE (object), NULL);
}

static GnnArgs *
gnn_module_real_forward (GnnModule *self, GnnArgs *input, GError **error)
{
  g_set_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED,
               "Module [%s] is missing the required \"forward\" function", gnn_module_get_name (self));
  return NULL;
}

static gboolean
gnn_module_real_setup (GnnModule *self, GError **error)
{
  return TRUE;
}

static char *
gnn_module_real_extra_repr (GnnModule *self)
{
  return g_strdup ("");
}

static void
gnn_module_class_init (GnnModuleClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = gnn_module_dispose;
  object_class->finalize = gnn_module_finalize;
  object_class->constructed = gnn_module_constructed;
  klass->forward = gnn_module_real_forward;
  klass->setup = gnn_module_real_setup;
  klass->extra_repr = gnn_module_real_extra_repr;

  /**
   * GnnModule:training:
   *
   * Whether the module is in training mode (`nn.Module.training`). Setting it sets it on every
   * descendant too, as `train (mode)` does; notify is emitted only by modules whose mode
   * changes.
   */
  props[PROP_TRAINING] = (GnnProp) {
    g_param_spec_boolean ("training", NULL, NULL, TRUE, GNN_PARAM_RW),
    GNN_PROP_NO_MEMBER, NULL, training_get, training_set };

  /**
   * GnnModule:device:
   *
   * The device of the module's parameters and buffers, such as "cpu" or "cuda:0"; %NULL when
   * it has none or they sit on several devices. Setting it moves them, as
   * [method@Gnn.Module.to_device] does.
   */
  props[PROP_DEVICE] = (GnnProp) {
    g_param_spec_string ("device", NULL, NULL, NULL, GNN_PARAM_RW),
    GNN_PROP_NO_MEMBER, NULL, device_get, device_set };

  /**
   * GnnModule:dtype:
   *
   * The floating-point element type a layer creates its parameters and buffers in
   * (PyTorch's `dtype` factory argument of `nn.Linear`, `nn.Conv2d`, `nn.BatchNorm1d` ...);
   * modules without tensors of their own ignore it. Read after construction, it is the
   * dtype of the module's first floating-point parameter (or buffer, when it has no
   * parameter), which [method@Gnn.Module.to_dtype] may have changed, and the one given at
   * construction when it has none.
   */
  props[PROP_DTYPE] = (GnnProp) {
    g_param_spec_enum ("dtype", NULL, NULL, GNN_TYPE_DTYPE, GNN_DTYPE_FLOAT32,
                       GNN_PARAM_RW | G_PARAM_CONSTRUCT_ONLY),
    G_PRIVATE_OFFSET (GnnModule, dtype), NULL, dtype_get };

  gnn_props_install (object_class, props, N_PROPS);

  /**
   * GnnModule::forward-pre:
   * @self: the module being called
   * @input: the inputs, which handlers may change in place
   *
   * Emitted before forward runs, after the hooks of
   * [method@Gnn.Module.register_forward_pre_hook] and the global ones; each handler sees what
   * the previous one changed. Not emitted, and costs nothing, when no handler is connected.
   */
  signals[SIGNAL_FORWARD_PRE] =
    g_signal_new ("forward-pre", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                  _gnn_marshal_VOID__OBJECT, G_TYPE_NONE, 1, GNN_TYPE_ARGS);
  g_signal_set_va_marshaller (signals[SIGNAL_FORWARD_PRE], G_TYPE_FROM_CLASS (klass),
                              _gnn_marshal_VOID__OBJECTv);

  /**
   * GnnModule::forward-post:
   * @self: the module that was called
   * @input: the inputs
   * @output: the outputs, which handlers may change in place
   *
   * Emitted after forward succeeded, after the hooks of
   * [method@Gnn.Module.register_forward_hook] and the global ones; each handler sees what the
   * previous one changed.
   */
  signals[SIGNAL_FORWARD_POST] =
    g_signal_new ("forward-post", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                  _gnn_marshal_VOID__OBJECT_OBJECT, G_TYPE_NONE, 2, GNN_TYPE_ARGS, GNN_TYPE_ARGS);
  g_signal_set_va_marshaller (signals[SIGNAL_FORWARD_POST], G_TYPE_FROM_CLASS (klass),
                              _gnn_marshal_VOID__OBJECT_OBJECTv);

  /**
   * GnnModule::backward-pre:
   * @self: the module
   * @grad_output: the gradients of the module's outputs, which handlers may change in place
   *
   * Emitted during backward when the gradients of the outputs of a call of the module are
   * known, after the hooks of [method@Gnn.Module.register_full_backward_pre_hook] and the
   * global ones. Connecting a handler makes later calls of the module record what backward
   * hooks need.
   */
  signals[SIGNAL_BACKWARD_PRE] =
    g_signal_new ("backward-pre", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                  _gnn_marshal_VOID__OBJECT, G_TYPE_NONE, 1, GNN_TYPE_ARGS);
  g_signal_set_va_marshaller (signals[SIGNAL_BACKWARD_PRE], G_TYPE_FROM_CLASS (klass),
                              _gnn_marshal_VOID__OBJECTv);

  /**
   * GnnModule::backward-post:
   * @self: the module
   * @grad_input: the gradients of the module's positional inputs, which handlers may change in
   *   place
   * @grad_output: the gradients of the module's outputs
   *
   * Emitted during backward when the gradients of the inputs of a call of the module are known
   * (PyTorch's full backward hook), after the hooks of
   * [method@Gnn.Module.register_full_backward_hook] and the global ones.
   */
  signals[SIGNAL_BACKWARD_POST] =
    g_signal_new ("backward-post", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                  _gnn_marshal_VOID__OBJECT_OBJECT, G_TYPE_NONE, 2, GNN_TYPE_ARGS, GNN_TYPE_ARGS);
  g_signal_set_va_marshaller (signals[SIGNAL_BACKWARD_POST], G_TYPE_FROM_CLASS (klass),
                              _gnn_marshal_VOID__OBJECT_OBJECTv);
}

guint
gnn_module_signal_id (GnnHookKind kind)
{
  switch (kind)
    {
    case GNN_HOOK_FORWARD_PRE: return signals[SIGNAL_FORWARD_PRE];
    case GNN_HOOK_FORWARD: return signals[SIGNAL_FORWARD_POST];
    case GNN_HOOK_BACKWARD_PRE: return signals[SIGNAL_BACKWARD_PRE];
    default: return signals[SIGNAL_BACKWARD_POST];
    }
}

static void
gnn_module_init (GnnModule *self)
{
  GnnModulePrivate *priv = priv_of (self);

  priv->parameters = g_ptr_array_new_with_free_func (slot_free);
  priv->buffers = g_ptr_array_new_with_free_func (slot_free);
  priv->modules = g_ptr_array_new_with_free_func (slot_free);
  priv->training = TRUE;
  priv->dtype = GNN_DTYPE_FLOAT32;
}

gboolean
gnn_module_ensure_setup (GnnModule *self,
                         GError   **error)
{
  GnnModulePrivate *priv = priv_of (self);

  if (!priv->setup_done)
    {
      GError *local = NULL;
      priv->setup_done = TRUE;
      /* the properties' own checks first: a value out of range is an error, not a warning */
      if (!gnn_props_check (self, &local))
        g_prefix_error (&local, "%s: ", gnn_module_get_name (self));
      else if (!GNN_MODULE_GET_CLASS (self)->setup (self, &local) && local == NULL)
        local = g_error_new (GNN_ERROR, GNN_ERROR_FAILED, "%s.setup failed without setting an error",
                             gnn_module_get_name (self));
      priv->setup_error = local;
    }
  if (priv->setup_error)
    {
      if (error)
        *error = g_error_copy (priv->setup_error);
      return FALSE;
    }
  return TRUE;
}

gpointer
gnn_module_new_or_error (GError    **error,
                         GType       type,
                         const char *first_property_name,
                         ...)
{
  g_autoptr(GnnModule) self = NULL;
  va_list args;

  va_start (args, first_property_name);
  self = GNN_MODULE (g_object_new_valist (type, first_property_name, args));
  va_end (args);
  if (!gnn_module_ensure_setup (self, error))
    return NULL;
  return g_steal_pointer (&self);
}

/**
 * gnn_module_setup: (virtual setup)
 * @self: a module
 * @error: return location for a #GError
 *
 * Builds the module's parameters, buffers and submodules from its properties. gnn calls the
 * virtual method once, from `constructed`, in C and in every binding: read only properties
 * flagged `G_PARAM_CONSTRUCT` or `G_PARAM_CONSTRUCT_ONLY` there (Python `GObject.Property
 * (flags=...CONSTRUCT_ONLY)`, gjs `GObject.ParamFlags.CONSTRUCT_ONLY`, Vala
 * `{ get; construct; }`), since others are set only after construction. A subclass implements
 * the virtual method and chains up. Calling this function runs nothing again: it reports
 * whether setup succeeded; a module whose setup failed reports that error from every call
 * that needs it.
 *
 * Returns: %TRUE when setup succeeded
 */
gboolean
gnn_module_setup (GnnModule *self,
                  GError   **error)
{
  g_return_val_if_fail (GNN_IS_MODULE (self), FALSE);
  return gnn_module_ensure_setup (self, error);
}

/**
 * gnn_module_get_name:
 * @self: a module
 *
 * The class name PyTorch would print: the type name without gnn's "Gnn" prefix ("Linear"),
 * and without the module path PyGObject puts in front of Python classes or the "Gjs_" prefix
 * of JavaScript classes without an explicit GTypeName.
 *
 * Returns: the name
 */
const char *
gnn_module_get_name (GnnModule *self)
{
  const char *name, *plus;

  g_return_val_if_fail (GNN_IS_MODULE (self), NULL);
  name = G_OBJECT_TYPE_NAME (self);
  plus = strrchr (name, '+');
  if (plus)
    return plus + 1;
  if (g_str_has_prefix (name, "Gjs_"))
    return name + 4;
  if (g_str_has_prefix (name, "Gnn") && g_ascii_isupper (name[3]))
    return name + 3;
  return name;
}

/* ---- creating by type name ----------------------------------------------------------- */

/* gnn's own module types exist only once something asked for them: each file of layers lists
 * its own (gnn_*_ensure_types in gnn-module-private.h), so that a new layer is added there */
static void
ensure_gnn_types (void)
{
  gnn_linear_ensure_types ();
  gnn_activation_ensure_types ();
  gnn_layers_ensure_types ();
  gnn_containers_ensure_types ();
  gnn_norm_ensure_types ();
  gnn_conv_ensure_types ();
  gnn_pool_ensure_types ();
  gnn_rnn_ensure_types ();
  gnn_attention_ensure_types ();
  gnn_transformer_ensure_types ();
  gnn_layers_more_ensure_types ();
}

/**
 * gnn_module_new_from_type_name:
 * @type_name: a GType name, such as "GnnLinear" or the `__gtype_name__` of a Python class
 * @n_properties: the number of properties
 * @names: (array length=n_properties): the property names
 * @values: (array length=n_properties): the property values
 * @error: return location for a #GError
 *
 * Creates a module of a type known by name, with construct properties, as loaders of model
 * descriptions and module copies do. Types from the bindings must have been registered first
 * (their class defined). The module's setup has run; its failure is reported here.
 *
 * Returns: (transfer full): the module, or %NULL with @error set when no module type has that
 *   name, the type is abstract, or setup failed
 */
GnnModule *
gnn_module_new_from_type_name (const char   *type_name,
                               guint         n_properties,
                               const char  **names,
                               const GValue *values,
                               GError      **error)
{
  GType type;
  g_autoptr(GnnModule) module = NULL;

  g_return_val_if_fail (type_name != NULL, NULL);
  g_return_val_if_fail (n_properties == 0 || (names != NULL && values != NULL), NULL);
  ensure_gnn_types ();
  type = g_type_from_name (type_name);
  if (type == 0 || !g_type_is_a (type, GNN_TYPE_MODULE))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   type == 0 ? "no type named '%s' is registered" : "type '%s' is not a GnnModule",
                   type_name);
      return NULL;
    }
  if (G_TYPE_IS_ABSTRACT (type))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT, "type '%s' is abstract", type_name);
      return NULL;
    }
  for (guint i = 0; i < n_properties; i++)
    {
      GObjectClass *klass = g_type_class_ref (type);
      GParamSpec *pspec = g_object_class_find_property (klass, names[i]);
      g_type_class_unref (klass);
      if (pspec == NULL || !(pspec->flags & G_PARAM_WRITABLE))
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                       "%s has no writable property '%s'", type_name, names[i]);
          return NULL;
        }
      if (!g_value_type_transformable (G_VALUE_TYPE (&values[i]), pspec->value_type))
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                       "%s:%s expects %s, got %s", type_name, names[i],
                       g_type_name (pspec->value_type), G_VALUE_TYPE_NAME (&values[i]));
          return NULL;
        }
    }
  module = GNN_MODULE (g_object_new_with_properties (type, n_properties, names, values));
  if (!gnn_module_ensure_setup (module, error))
    return NULL;
  return g_steal_pointer (&module);
}

/* ---- copying --------------------------------------------------------------------------- */

/* The copy of every source object already copied (modules, parameters, buffers), so that
 * what the source shares, the copy shares; and the set of objects of the copy already taken,
 * so that one a setup registered twice is not filled twice from different sources. */
typedef struct {
  GHashTable *copies;   /* source → copy, references */
  GHashTable *taken;    /* copies, borrowed (copies holds them) */
} CopyMemo;

static gboolean
memo_add (CopyMemo *memo, gpointer src, gpointer copy)
{
  g_hash_table_insert (memo->copies, g_object_ref (src), g_object_ref (copy));
  return g_hash_table_add (memo->taken, copy);
}

static gboolean copy_into (GnnModule *dst, GnnModule *src, CopyMemo *memo, GError **error);

/* Values of @src's saved properties (gnn_module_list_saved_properties): the copy gets
 * GnnModule's training and device through its tensors and flags. */
static void
collect_properties (GnnModule *src, GPtrArray *names, GArray *values)
{
  guint n;
  g_autofree GParamSpec **pspecs = gnn_module_list_saved_properties (G_OBJECT_TYPE (src), &n);

  for (guint i = 0; i < n; i++)
    {
      GValue v = G_VALUE_INIT;

      g_value_init (&v, pspecs[i]->value_type);
      g_object_get_property (G_OBJECT (src), pspecs[i]->name, &v);
      g_ptr_array_add (names, (gpointer) pspecs[i]->name);
      g_array_append_val (values, v);
    }
}

/* A copy of @t's values in new memory, on its device, in its dtype, without history. */
static GnnTensor *
clone_values (GnnTensor *t, GError **error)
{
  g_autoptr(GnnNoGradGuard) guard = gnn_no_grad_guard_new ();
  return gnn_tensor_clone (t, error);
}

/* The copy of the tensor @src (a parameter or a buffer): @existing, made by the copy's setup
 * under the same name, takes the values (so that objects a setup kept elsewhere, such as a
 * language attribute, stay the module's), otherwise a new tensor of @src's class. */
static GObject *
copy_tensor (GnnTensor *src, GObject *existing, gboolean parameter, gboolean persistent, GError **error)
{
  g_autoptr(GnnTensor) data = clone_values (src, error);
  gboolean requires_grad = gnn_tensor_get_requires_grad (src);

  if (data == NULL)
    return NULL;
  if (existing && (parameter ? GNN_IS_PARAMETER (existing) : !GNN_IS_PARAMETER (existing)))
    {
      GnnTensor *t = GNN_TENSOR (existing);
      if (!gnn_tensor_set_requires_grad (t, FALSE, error) || !gnn_tensor_set_data (t, data, error) ||
          !gnn_tensor_set_requires_grad (t, requires_grad, error))
        return NULL;
      if (GNN_IS_BUFFER (t))
        gnn_buffer_set_persistent (GNN_BUFFER (t), persistent);
      return g_object_ref (existing);
    }
  if (parameter)
    return G_OBJECT (gnn_parameter_new (data, requires_grad, error));
  if (GNN_IS_BUFFER (src))
    return G_OBJECT (gnn_buffer_new (data, persistent));
  if (requires_grad && !gnn_tensor_set_requires_grad (data, TRUE, error))
    return NULL;
  return G_OBJECT (g_steal_pointer (&data));
}

/* Makes @dst's slots the names of @src's, in @src's order: slots @src lacks go, the others
 * move into place (their values are set by the caller). */
static void
order_slots_like (GPtrArray *dst, GPtrArray *src)
{
  g_autoptr(GPtrArray) ordered = g_ptr_array_new ();

  for (guint i = 0; i < src->len; i++)
    {
      GnnModuleSlot *s = src->pdata[i];
      for (guint k = 0; k < dst->len; k++)
        if (g_str_equal (((GnnModuleSlot *) dst->pdata[k])->name, s->name))
          {
            g_ptr_array_add (ordered, g_ptr_array_steal_index (dst, k));
            break;
          }
    }
  g_ptr_array_set_size (dst, 0);
  for (guint i = 0; i < ordered->len; i++)
    g_ptr_array_add (dst, ordered->pdata[i]);
}

static void
put_slot (GPtrArray *slots, const char *name, GObject *value, gboolean persistent)
{
  GnnModuleSlot *s = gnn_module_find_slot (slots, name);

  if (s == NULL)
    {
      s = g_new0 (GnnModuleSlot, 1);
      s->name = g_strdup (name);
      g_ptr_array_add (slots, s);
    }
  if (value)
    g_object_ref (value);
  g_clear_object (&s->value);
  s->value = value;
  s->persistent = persistent;
}

/* the tensor slots (parameters or buffers) of @src into @dst */
static gboolean
copy_tensor_slots (GnnModule *dst, GnnModule *src, gboolean parameters, CopyMemo *memo, GError **error)
{
  GPtrArray *from = parameters ? priv_of (src)->parameters : priv_of (src)->buffers;
  GPtrArray *to = parameters ? priv_of (dst)->parameters : priv_of (dst)->buffers;

  for (guint i = 0; i < from->len; i++)
    {
      GnnModuleSlot *s = from->pdata[i], *d = gnn_module_find_slot (to, s->name);
      g_autoptr(GObject) value = NULL;

      if (s->value == NULL)
        ;
      else if ((value = g_hash_table_lookup (memo->copies, s->value)))
        g_object_ref (value);
      else
        {
          GObject *existing = d && d->value && !g_hash_table_contains (memo->taken, d->value) ? d->value : NULL;
          value = copy_tensor (GNN_TENSOR (s->value), existing, parameters, s->persistent, error);
          if (value == NULL)
            {
              g_prefix_error (error, "copying %s %s of %s: ", parameters ? "parameter" : "buffer", s->name,
                              gnn_module_get_name (src));
              return FALSE;
            }
          memo_add (memo, s->value, value);
        }
      put_slot (to, s->name, value, s->persistent);
    }
  order_slots_like (to, from);
  return TRUE;
}

/* A new module of @src's class and properties, then everything of @src copied into it. */
static GnnModule *
copy_module (GnnModule *src, CopyMemo *memo, GError **error)
{
  g_autoptr(GPtrArray) names = g_ptr_array_new ();
  g_autoptr(GArray) values = g_array_new (FALSE, TRUE, sizeof (GValue));
  g_autoptr(GnnModule) copy = NULL;

  g_array_set_clear_func (values, (GDestroyNotify) g_value_unset);
  collect_properties (src, names, values);
  /* the copy's values come from @src: its initialisation would only spend random numbers */
  copy = gnn_module_new_skip_init (G_OBJECT_TYPE_NAME (src), names->len, (const char **) names->pdata,
                                   (const GValue *) values->data, error);
  if (copy == NULL)
    {
      g_prefix_error (error, "copying %s: ", gnn_module_get_name (src));
      return NULL;
    }
  memo_add (memo, src, copy);
  if (!copy_into (copy, src, memo, error))
    return NULL;
  return g_steal_pointer (&copy);
}

static gboolean
copy_into (GnnModule *dst, GnnModule *src, CopyMemo *memo, GError **error)
{
  GnnModulePrivate *sp = priv_of (src), *dp = priv_of (dst);

  if (!copy_tensor_slots (dst, src, TRUE, memo, error) ||
      !copy_tensor_slots (dst, src, FALSE, memo, error))
    return FALSE;

  for (guint i = 0; i < sp->modules->len; i++)
    {
      GnnModuleSlot *s = sp->modules->pdata[i], *d = gnn_module_find_slot (dp->modules, s->name);
      g_autoptr(GObject) value = NULL;

      if (s->value == NULL)
        ;
      else if ((value = g_hash_table_lookup (memo->copies, s->value)))
        g_object_ref (value);
      else if (d && d->value && G_OBJECT_TYPE (d->value) == G_OBJECT_TYPE (s->value) &&
               !g_hash_table_contains (memo->taken, d->value))
        {
          /* a child the copy's setup made: it takes the source child's state */
          value = g_object_ref (d->value);
          memo_add (memo, s->value, value);
          if (!copy_into (GNN_MODULE (value), GNN_MODULE (s->value), memo, error))
            return FALSE;
        }
      else if (!(value = (GObject *) copy_module (GNN_MODULE (s->value), memo, error)))
        return FALSE;
      put_slot (dp->modules, s->name, value, FALSE);
    }
  order_slots_like (dp->modules, sp->modules);
  if (!gnn_module_copy_tensor_attributes (dst, src, error))
    return FALSE;

  dp->training = sp->training;
  if (gnn_module_has_extra_state (src))
    {
      GError *local = NULL;
      g_autoptr(GVariant) state = gnn_module_get_extra_state (src, &local);

      if (local)
        {
          g_propagate_prefixed_error (error, local, "copying the extra state of %s: ", gnn_module_get_name (src));
          return FALSE;
        }
      if (state && !gnn_module_set_extra_state (dst, state, error))
        {
          g_prefix_error (error, "copying the extra state of %s: ", gnn_module_get_name (src));
          return FALSE;
        }
    }
  return TRUE;
}

/**
 * gnn_module_copy:
 * @self: a module
 * @error: return location for a #GError
 *
 * A deep copy of the module tree (`copy.deepcopy (module)`), as [class@Gnn.AveragedModel]
 * makes of the model it averages. Each module of the copy is created from its class and the
 * values of its readable and writable properties (construct-only ones included), so that its
 * `setup` builds it as it built the original (in C and in every language: Python, gjs and
 * Vala subclasses too); its initialisation is skipped, as by [ctor@Gnn.Module.new_skip_init].
 * Then, for every module:
 *
 * - every parameter and buffer (persistent or not) is copied into new memory on the same
 *   device, in the same dtype; parameters keep their `requires_grad`, buffers their
 *   persistence, gradients are not copied. A tensor that setup created under the same name
 *   takes the values and stays the same object, so that references a subclass kept to it stay
 *   valid; other tensors are new. A name set to %NULL stays %NULL;
 * - submodules are copied recursively: those that setup created under the same name and of
 *   the same class are filled in place, the others (the children of containers such as
 *   [class@Gnn.Sequential], or modules added after construction) are added; names that setup
 *   made but the original lacks are removed, and names keep the original's order;
 * - the training flag and the extra state ([method@Gnn.Module.get_extra_state]) are copied.
 *
 * What the original shares, the copy shares: a parameter, buffer or submodule registered
 * twice in the tree is one object in the copy too. Properties holding objects are not
 * copied: the copy refers to the same objects.
 *
 * Unlike Python's `deepcopy` of a PyTorch module, hooks (registered functions and signal
 * handlers) are not copied: the copy starts without any. Python attributes that are not
 * parameters, buffers or submodules are copied by `copy.deepcopy`, not by this function.
 *
 * Returns: (transfer full): the copy, or %NULL with @error set (a class that cannot be
 *   created from its properties, a setup or extra state that fails)
 */
GnnModule *
gnn_module_copy (GnnModule *self,
                 GError   **error)
{
  CopyMemo memo;
  GnnModule *copy;

  g_return_val_if_fail (GNN_IS_MODULE (self), NULL);
  if (!gnn_module_ensure_setup (self, error))
    return NULL;
  memo.copies = g_hash_table_new_full (NULL, NULL, g_object_unref, g_object_unref);
  memo.taken = g_hash_table_new (NULL, NULL);
  copy = copy_module (self, &memo, error);
  g_hash_table_unref (memo.taken);
  g_hash_table_unref (memo.copies);
  return copy;
}

/* ---- calling ------------------------------------------------------------------------- */

/* ---- hooks ----------------------------------------------------------------------------- */

static guint next_hook_id = 1;
static GMutex global_hooks_lock;
static GPtrArray *global_hooks;   /* GnnModuleHook*, in registration order */

/* hooks are reference counted: a call keeps the ones it runs alive even when a hook removes
 * another */
void
gnn_module_hook_unref (gpointer data)
{
  GnnModuleHook *h = data;

  if (!g_atomic_int_dec_and_test (&h->ref))
    return;
  if (h->destroy)
    h->destroy (h->data);
  g_free (h);
}

static GnnModuleHook *
hook_ref (GnnModuleHook *h)
{
  g_atomic_int_inc (&h->ref);
  return h;
}

typedef enum {
  HOOK_PREPEND     = 1 << 0,
  HOOK_WITH_KWARGS = 1 << 1,
  HOOK_ALWAYS_CALL = 1 << 2,
} HookFlags;

static HookFlags
hook_flags (gboolean prepend, gboolean with_kwargs, gboolean always_call)
{
  return (prepend ? HOOK_PREPEND : 0) | (with_kwargs ? HOOK_WITH_KWARGS : 0) |
         (always_call ? HOOK_ALWAYS_CALL : 0);
}

/* The one registration of every kind of hook: into @self's list (in firing order, so that
 * HOOK_PREPEND puts it first), or into the global list (in registration order) when @self is
 * NULL. Returns the new hook's handle. */
static guint
add_hook (GnnModule      *self,
          GnnHookKind     kind,
          gpointer        func,
          gpointer        data,
          GDestroyNotify  destroy,
          HookFlags       flags)
{
  GnnModuleHook *h = g_new0 (GnnModuleHook, 1);
  GPtrArray **list;
  guint id;

  h->ref = 1;
  h->id = id = g_atomic_int_add (&next_hook_id, 1);
  h->kind = kind;
  h->func = func;
  h->data = data;
  h->destroy = destroy;
  h->with_kwargs = (flags & HOOK_WITH_KWARGS) != 0;
  h->always_call = (flags & HOOK_ALWAYS_CALL) != 0;
  if (self == NULL)
    g_mutex_lock (&global_hooks_lock);
  list = self ? &priv_of (self)->forward_hooks : &global_hooks;
  if (*list == NULL)
    *list = g_ptr_array_new_with_free_func (gnn_module_hook_unref);
  g_ptr_array_insert (*list, (flags & HOOK_PREPEND) ? 0 : -1, h);
  if (self == NULL)
    g_mutex_unlock (&global_hooks_lock);
  return id;
}

/* Removes the hook of @list whose handle is @handle; whether there was one. */
static gboolean
remove_hook (GPtrArray *list, guint handle)
{
  for (guint i = 0; list && i < list->len; i++)
    if (((GnnModuleHook *) list->pdata[i])->id == handle)
      {
        g_ptr_array_remove_index (list, i);
        return TRUE;
      }
  return FALSE;
}

/**
 * gnn_module_register_forward_pre_hook:
 * @self: a module
 * @func: (scope notified) (closure user_data) (destroy destroy): the hook
 * @user_data: data for @func
 * @destroy: (nullable): frees @user_data when the hook is removed or the module disposed
 * @prepend: whether the hook fires before the module's other pre-hooks
 * @with_kwargs: whether the hook sees the keyword inputs too
 *
 * Registers a forward pre-hook (`register_forward_pre_hook`). Order of a call: global
 * pre-hooks, then this module's in their order, then handlers of
 * [signal@Gnn.Module::forward-pre], then forward.
 *
 * Returns: a handle for [method@Gnn.Module.remove_hook]
 */
guint
gnn_module_register_forward_pre_hook (GnnModule             *self,
                                      GnnForwardPreHookFunc  func,
                                      gpointer               user_data,
                                      GDestroyNotify         destroy,
                                      gboolean               prepend,
                                      gboolean               with_kwargs)
{
  g_return_val_if_fail (GNN_IS_MODULE (self), 0);
  g_return_val_if_fail (func != NULL, 0);
  return add_hook (self, GNN_HOOK_FORWARD_PRE, func, user_data, destroy, hook_flags (prepend, with_kwargs, FALSE));
}

/**
 * gnn_module_register_forward_hook:
 * @self: a module
 * @func: (scope notified) (closure user_data) (destroy destroy): the hook
 * @user_data: data for @func
 * @destroy: (nullable): frees @user_data when the hook is removed or the module disposed
 * @prepend: whether the hook fires before the module's other forward hooks
 * @with_kwargs: whether the hook sees the keyword inputs too
 * @always_call: whether the hook runs even when forward fails (with a %NULL output)
 *
 * Registers a forward hook (`register_forward_hook`). Order after forward: global hooks, then
 * this module's in their order, then handlers of [signal@Gnn.Module::forward-post].
 *
 * Returns: a handle for [method@Gnn.Module.remove_hook]
 */
guint
gnn_module_register_forward_hook (GnnModule          *self,
                                  GnnForwardHookFunc  func,
                                  gpointer            user_data,
                                  GDestroyNotify      destroy,
                                  gboolean            prepend,
                                  gboolean            with_kwargs,
                                  gboolean            always_call)
{
  g_return_val_if_fail (GNN_IS_MODULE (self), 0);
  g_return_val_if_fail (func != NULL, 0);
  return add_hook (self, GNN_HOOK_FORWARD, func, user_data, destroy, hook_flags (prepend, with_kwargs, always_call));
}

/**
 * gnn_module_add_forward_pre_hook:
 * @self: a module
 * @func: (scope notified) (closure user_data) (destroy destroy): the hook
 * @user_data: data for @func
 * @destroy: (nullable): frees @user_data when the hook is removed or the module disposed
 *
 * Registers a forward pre-hook with PyTorch's defaults, as `register_forward_pre_hook (hook)`
 * without keywords: after the module's other pre-hooks, seeing the positional inputs only.
 * It is [method@Gnn.Module.register_forward_pre_hook] with @prepend and @with_kwargs %FALSE,
 * for the bindings that cannot leave out arguments (`m.add_forward_pre_hook (fn)` in gjs).
 *
 * Returns: a handle for [method@Gnn.Module.remove_hook]
 */
guint
gnn_module_add_forward_pre_hook (GnnModule             *self,
                                 GnnForwardPreHookFunc  func,
                                 gpointer               user_data,
                                 GDestroyNotify         destroy)
{
  return gnn_module_register_forward_pre_hook (self, func, user_data, destroy, FALSE, FALSE);
}

/**
 * gnn_module_add_forward_hook:
 * @self: a module
 * @func: (scope notified) (closure user_data) (destroy destroy): the hook
 * @user_data: data for @func
 * @destroy: (nullable): frees @user_data when the hook is removed or the module disposed
 *
 * Registers a forward hook with PyTorch's defaults, as `register_forward_hook (hook)` without
 * keywords: after the module's other forward hooks, seeing the positional inputs only, not run
 * when forward fails. It is [method@Gnn.Module.register_forward_hook] with @prepend,
 * @with_kwargs and @always_call %FALSE, for the bindings that cannot leave out arguments
 * (`m.add_forward_hook (fn)` in gjs, instead of four arguments).
 *
 * Returns: a handle for [method@Gnn.Module.remove_hook]
 */
guint
gnn_module_add_forward_hook (GnnModule          *self,
                             GnnForwardHookFunc  func,
                             gpointer            user_data,
                             GDestroyNotify      destroy)
{
  return gnn_module_register_forward_hook (self, func, user_data, destroy, FALSE, FALSE, FALSE);
}

/**
 * gnn_module_register_full_backward_pre_hook:
 * @self: a module
 * @func: (scope notified) (closure user_data) (destroy destroy): the hook
 * @user_data: data for @func
 * @destroy: (nullable): frees @user_data when the hook is removed or the module disposed
 * @prepend: whether the hook fires before the module's other backward pre-hooks
 *
 * Registers a backward pre-hook (`register_full_backward_pre_hook`): during backward, it sees
 * the gradients of the outputs of each call of the module made after registration. Order:
 * global hooks, this module's, then [signal@Gnn.Module::backward-pre] handlers.
 *
 * Returns: a handle for [method@Gnn.Module.remove_hook]
 */
guint
gnn_module_register_full_backward_pre_hook (GnnModule              *self,
                                            GnnBackwardPreHookFunc  func,
                                            gpointer                user_data,
                                            GDestroyNotify          destroy,
                                            gboolean                prepend)
{
  g_return_val_if_fail (GNN_IS_MODULE (self), 0);
  g_return_val_if_fail (func != NULL, 0);
  return add_hook (self, GNN_HOOK_BACKWARD_PRE, func, user_data, destroy, hook_flags (prepend, TRUE, FALSE));
}

/**
 * gnn_module_register_full_backward_hook:
 * @self: a module
 * @func: (scope notified) (closure user_data) (destroy destroy): the hook
 * @user_data: data for @func
 * @destroy: (nullable): frees @user_data when the hook is removed or the module disposed
 * @prepend: whether the hook fires before the module's other backward hooks
 *
 * Registers a full backward hook (`register_full_backward_hook`): during backward, it sees the
 * gradients of the positional inputs and of the outputs of each call of the module made after
 * registration, and may replace the input gradients. When no input requires grad, it runs with
 * %NULL input gradients once the output gradients are known. Order: global hooks, this
 * module's, then [signal@Gnn.Module::backward-post] handlers. The outputs of a hooked call may
 * not be modified in place, as in PyTorch.
 *
 * Returns: a handle for [method@Gnn.Module.remove_hook]
 */
guint
gnn_module_register_full_backward_hook (GnnModule           *self,
                                        GnnBackwardHookFunc  func,
                                        gpointer             user_data,
                                        GDestroyNotify       destroy,
                                        gboolean             prepend)
{
  g_return_val_if_fail (GNN_IS_MODULE (self), 0);
  g_return_val_if_fail (func != NULL, 0);
  return add_hook (self, GNN_HOOK_BACKWARD, func, user_data, destroy, hook_flags (prepend, TRUE, FALSE));
}

/**
 * gnn_module_add_full_backward_pre_hook:
 * @self: a module
 * @func: (scope notified) (closure user_data) (destroy destroy): the hook
 * @user_data: data for @func
 * @destroy: (nullable): frees @user_data when the hook is removed or the module disposed
 *
 * Registers a backward pre-hook with PyTorch's defaults, as
 * `register_full_backward_pre_hook (hook)` without keywords: after the module's other
 * backward pre-hooks. It is [method@Gnn.Module.register_full_backward_pre_hook] with @prepend
 * %FALSE, for the bindings that cannot leave out arguments
 * (`m.add_full_backward_pre_hook (fn)` in gjs).
 *
 * Returns: a handle for [method@Gnn.Module.remove_hook]
 */
guint
gnn_module_add_full_backward_pre_hook (GnnModule              *self,
                                       GnnBackwardPreHookFunc  func,
                                       gpointer                user_data,
                                       GDestroyNotify          destroy)
{
  return gnn_module_register_full_backward_pre_hook (self, func, user_data, destroy, FALSE);
}

/**
 * gnn_module_add_full_backward_hook:
 * @self: a module
 * @func: (scope notified) (closure user_data) (destroy destroy): the hook
 * @user_data: data for @func
 * @destroy: (nullable): frees @user_data when the hook is removed or the module disposed
 *
 * Registers a full backward hook with PyTorch's defaults, as
 * `register_full_backward_hook (hook)` without keywords: after the module's other backward
 * hooks. It is [method@Gnn.Module.register_full_backward_hook] with @prepend %FALSE, for the
 * bindings that cannot leave out arguments (`m.add_full_backward_hook (fn)` in gjs).
 *
 * Returns: a handle for [method@Gnn.Module.remove_hook]
 */
guint
gnn_module_add_full_backward_hook (GnnModule           *self,
                                   GnnBackwardHookFunc  func,
                                   gpointer             user_data,
                                   GDestroyNotify       destroy)
{
  return gnn_module_register_full_backward_hook (self, func, user_data, destroy, FALSE);
}

/**
 * gnn_module_remove_hook:
 * @self: a module
 * @handle: a handle from one of the module's registrations
 *   ([method@Gnn.Module.register_forward_pre_hook], [method@Gnn.Module.register_forward_hook],
 *   [method@Gnn.Module.add_forward_pre_hook], [method@Gnn.Module.add_forward_hook],
 *   [method@Gnn.Module.register_full_backward_pre_hook],
 *   [method@Gnn.Module.register_full_backward_hook],
 *   [method@Gnn.Module.add_full_backward_pre_hook], [method@Gnn.Module.add_full_backward_hook])
 *
 * Removes a hook of the module's own list (`RemovableHandle.remove ()`); signal handlers are
 * disconnected with g_signal_handler_disconnect(), global hooks removed with
 * [func@Gnn.remove_module_hook].
 *
 * Returns: whether a hook was removed
 */
gboolean
gnn_module_remove_hook (GnnModule *self,
                        guint      handle)
{
  g_return_val_if_fail (GNN_IS_MODULE (self), FALSE);
  return remove_hook (priv_of (self)->forward_hooks, handle);
}

/**
 * gnn_register_module_forward_pre_hook:
 * @func: (scope notified) (closure user_data) (destroy destroy): the hook
 * @user_data: data for @func
 * @destroy: (nullable): frees @user_data when the hook is removed
 *
 * Registers a pre-hook for every module (`register_module_forward_pre_hook`); global hooks
 * fire before per-module ones. It sees the keyword inputs too.
 *
 * Returns: a handle for [func@Gnn.remove_module_hook]
 *
 * MT safe.
 */
guint
gnn_register_module_forward_pre_hook (GnnForwardPreHookFunc func,
                                      gpointer              user_data,
                                      GDestroyNotify        destroy)
{
  g_return_val_if_fail (func != NULL, 0);
  return add_hook (NULL, GNN_HOOK_FORWARD_PRE, func, user_data, destroy, hook_flags (FALSE, TRUE, FALSE));
}

/**
 * gnn_register_module_forward_hook:
 * @func: (scope notified) (closure user_data) (destroy destroy): the hook
 * @user_data: data for @func
 * @destroy: (nullable): frees @user_data when the hook is removed
 * @always_call: whether the hook runs even when forward fails (with a %NULL output)
 *
 * Registers a forward hook for every module (`register_module_forward_hook`); global hooks fire
 * before per-module ones. It sees the keyword inputs too.
 *
 * Returns: a handle for [func@Gnn.remove_module_hook]
 *
 * MT safe.
 */
guint
gnn_register_module_forward_hook (GnnForwardHookFunc func,
                                  gpointer           user_data,
                                  GDestroyNotify     destroy,
                                  gboolean           always_call)
{
  g_return_val_if_fail (func != NULL, 0);
  return add_hook (NULL, GNN_HOOK_FORWARD, func, user_data, destroy, hook_flags (FALSE, TRUE, always_call));
}

/**
 * gnn_register_module_full_backward_pre_hook:
 * @func: (scope notified) (closure user_data) (destroy destroy): the hook
 * @user_data: data for @func
 * @destroy: (nullable): frees @user_data when the hook is removed
 *
 * Registers a backward pre-hook for every module (`register_module_full_backward_pre_hook`);
 * global hooks fire before per-module ones.
 *
 * Returns: a handle for [func@Gnn.remove_module_hook]
 *
 * MT safe.
 */
guint
gnn_register_module_full_backward_pre_hook (GnnBackwardPreHookFunc func,
                                            gpointer               user_data,
                                            GDestroyNotify         destroy)
{
  g_return_val_if_fail (func != NULL, 0);
  return add_hook (NULL, GNN_HOOK_BACKWARD_PRE, func, user_data, destroy, hook_flags (FALSE, TRUE, FALSE));
}

/**
 * gnn_register_module_full_backward_hook:
 * @func: (scope notified) (closure user_data) (destroy destroy): the hook
 * @user_data: data for @func
 * @destroy: (nullable): frees @user_data when the hook is removed
 *
 * Registers a full backward hook for every module (`register_module_full_backward_hook`);
 * global hooks fire before per-module ones.
 *
 * Returns: a handle for [func@Gnn.remove_module_hook]
 *
 * MT safe.
 */
guint
gnn_register_module_full_backward_hook (GnnBackwardHookFunc func,
                                        gpointer            user_data,
                                        GDestroyNotify      destroy)
{
  g_return_val_if_fail (func != NULL, 0);
  return add_hook (NULL, GNN_HOOK_BACKWARD, func, user_data, destroy, hook_flags (FALSE, TRUE, FALSE));
}

/**
 * gnn_remove_module_hook:
 * @handle: a handle from a global hook registration
 *
 * Removes a global hook.
 *
 * Returns: whether a hook was removed
 *
 * MT safe.
 */
gboolean
gnn_remove_module_hook (guint handle)
{
  gboolean found;

  g_mutex_lock (&global_hooks_lock);
  found = remove_hook (global_hooks, handle);
  g_mutex_unlock (&global_hooks_lock);
  return found;
}

/* Runs one hook; without with_kwargs the hook gets the positional values only, and its
 * changes to them are carried back. */
static void
run_hook (GnnModule *self, GnnModuleHook *h, GnnArgs *input, GnnArgs *output)
{
  g_autoptr(GnnArgs) positional = NULL;
  GnnArgs *seen = input;

  if (!h->with_kwargs && gnn_args_has_any_kwarg (input))
    {
      positional = gnn_args_copy_positional (input);
      seen = positional;
    }
  if (h->kind == GNN_HOOK_FORWARD_PRE)
    ((GnnForwardPreHookFunc) h->func) (self, seen, h->data);
  else
    ((GnnForwardHookFunc) h->func) (self, seen, output, h->data);
  if (positional)
    gnn_args_take_positional (input, positional);
}

/* The hooks of one phase, global first: a snapshot, so that hooks may remove hooks. */
GPtrArray *
gnn_module_hooks_for (GnnModule *self, GnnHookKind kind)
{
  GnnModulePrivate *priv = priv_of (self);
  GPtrArray *list = NULL;

  if (global_hooks != NULL)
    {
      g_mutex_lock (&global_hooks_lock);
      for (guint i = 0; global_hooks && i < global_hooks->len; i++)
        {
          GnnModuleHook *h = global_hooks->pdata[i];
          if (h->kind != kind)
            continue;
          if (list == NULL)
            list = g_ptr_array_new_with_free_func (gnn_module_hook_unref);
          g_ptr_array_add (list, hook_ref (h));
        }
      g_mutex_unlock (&global_hooks_lock);
    }
  for (guint i = 0; priv->forward_hooks && i < priv->forward_hooks->len; i++)
    {
      GnnModuleHook *h = priv->forward_hooks->pdata[i];
      if (h->kind != kind)
        continue;
      if (list == NULL)
        list = g_ptr_array_new_with_free_func (gnn_module_hook_unref);
      g_ptr_array_add (list, hook_ref (h));
    }
  return list;
}

/**
 * gnn_module_forward: (virtual forward)
 * @self: a module
 * @input: the positional and keyword inputs; pre-hooks may change them in place
 * @error: return location for a #GError
 *
 * Calls the module (`module (*args, **kwargs)`): runs the forward pre-hooks and the
 * [signal@Gnn.Module::forward-pre] handlers, the `forward` virtual method, then the forward
 * hooks and the [signal@Gnn.Module::forward-post] handlers. When nothing is hooked, it costs a
 * virtual call.
 *
 * Returns: (transfer full): the outputs, or %NULL with @error set
 */
static GnnArgs *module_call (GnnModule *self, GnnArgs *input, GError **error);

GnnArgs *
gnn_module_forward (GnnModule *self,
                    GnnArgs   *input,
                    GError   **error)
{
  GnnArgs *out;

  /* values of computed attributes that the forward code borrows live until the outermost
   * call returns; without any such attribute there is nothing to keep */
  if (G_LIKELY (g_atomic_int_get (&gnn_module_computed_attributes) == 0))
    return module_call (self, input, error);
  gnn_module_forward_scope_enter ();
  out = module_call (self, input, error);
  gnn_module_forward_scope_leave ();
  return out;
}

static GnnArgs *
module_call (GnnModule *self,
             GnnArgs   *input,
             GError   **error)
{
  GError *local = NULL;
  GnnArgs *out;
  g_autoptr(GPtrArray) pre = NULL, post = NULL;
  g_autoptr(GnnArgs) wrapped = NULL;
  GnnBackwardHookState *bw = NULL;
  gpointer profiled = NULL;

  g_return_val_if_fail (GNN_IS_MODULE (self), NULL);
  g_return_val_if_fail (GNN_IS_ARGS (input), NULL);
  if (!gnn_module_ensure_setup (self, error))
    return NULL;
  if (GNN_PROFILER_IS_ACTIVE ())
    profiled = gnn_profiler_module_range_begin (G_OBJECT (self));

  pre = gnn_module_hooks_for (self, GNN_HOOK_FORWARD_PRE);
  for (guint i = 0; pre && i < pre->len; i++)
    run_hook (self, pre->pdata[i], input, NULL);
  if (g_signal_has_handler_pending (self, signals[SIGNAL_FORWARD_PRE], 0, FALSE))
    g_signal_emit (self, signals[SIGNAL_FORWARD_PRE], 0, input);

  /* backward hooks: the inputs pass through an identity node that will see their gradients */
  if (gnn_is_grad_enabled () && gnn_module_wants_backward_hooks (self))
    {
      wrapped = gnn_args_copy (input);
      bw = gnn_backward_hooks_setup_input (self, wrapped);
      input = wrapped;
    }

  out = GNN_MODULE_GET_CLASS (self)->forward (self, input, &local);
  if (out == NULL && local == NULL)
    local = g_error_new (GNN_ERROR, GNN_ERROR_FAILED, "%s.forward returned nothing and set no error",
                         gnn_module_get_name (self));
  if (local)
    g_clear_object (&out);

  post = gnn_module_hooks_for (self, GNN_HOOK_FORWARD);
  for (guint i = 0; post && i < post->len; i++)
    {
      GnnModuleHook *h = post->pdata[i];
      if (out != NULL || h->always_call)
        run_hook (self, h, input, out);
    }
  if (local)
    {
      if (bw)
        gnn_backward_hooks_setup_output (bw, NULL);
      gnn_profiler_range_close (profiled);
      g_propagate_error (error, local);
      return NULL;
    }
  if (g_signal_has_handler_pending (self, signals[SIGNAL_FORWARD_POST], 0, FALSE))
    g_signal_emit (self, signals[SIGNAL_FORWARD_POST], 0, input, out);
  /* ... and the outputs through one that will see theirs */
  if (bw)
    gnn_backward_hooks_setup_output (bw, out);
  gnn_profiler_range_close (profiled);
  return out;
}

/**
 * gnn_module_forward_tensor:
 * @self: a module
 * @input: the input tensor
 * @error: return location for a #GError
 *
 * Calls the module with one tensor and returns its first output, which must be a tensor.
 *
 * Returns: (transfer full): the output, or %NULL with @error set
 */
GnnTensor *
gnn_module_forward_tensor (GnnModule *self,
                           GnnTensor *input,
                           GError   **error)
{
  g_autoptr(GnnArgs) in = NULL;
  g_autoptr(GnnArgs) out = NULL;
  GnnTensor *t;

  g_return_val_if_fail (GNN_IS_MODULE (self), NULL);
  g_return_val_if_fail (GNN_IS_TENSOR (input), NULL);
  in = gnn_args_new_tensor (input);
  out = gnn_module_forward (self, in, error);
  if (out == NULL)
    return NULL;
  t = gnn_args_get_tensor (out, 0, error);
  if (t == NULL)
    {
      g_prefix_error (error, "%s returned no tensor: ", gnn_module_get_name (self));
      return NULL;
    }
  return g_object_ref (t);
}

/**
 * gnn_module_extra_repr: (virtual extra_repr)
 * @self: a module
 *
 * The text inside the parentheses of the module's printed form (`extra_repr`), such as
 * "in_features=4, out_features=3, bias=True".
 *
 * Returns: (transfer full): the text, possibly empty
 */
char *
gnn_module_extra_repr (GnnModule *self)
{
  char *s;

  g_return_val_if_fail (GNN_IS_MODULE (self), NULL);
  s = GNN_MODULE_GET_CLASS (self)->extra_repr (self);
  return s ? s : g_strdup ("");
}

/**
 * gnn_module_get_extra_state: (virtual get_extra_state)
 * @self: a module
 * @error: return location for a #GError
 *
 * The module's state that is not a tensor, saved in its state dict under `_extra_state`
 * (`get_extra_state`). Subclasses that have some implement the virtual method (and
 * `set_extra_state`); the base class has none.
 *
 * Returns: (transfer full) (nullable): the state, or %NULL when the module has none or with
 *   @error set
 */
GVariant *
gnn_module_get_extra_state (GnnModule *self,
                            GError   **error)
{
  GnnModuleClass *klass;
  GVariant *v;

  g_return_val_if_fail (GNN_IS_MODULE (self), NULL);
  klass = GNN_MODULE_GET_CLASS (self);
  if (klass->get_extra_state == NULL)
    return NULL;
  v = klass->get_extra_state (self, error);
  if (v)
    g_variant_take_ref (v);
  return v;
}

/**
 * gnn_module_set_extra_state: (virtual set_extra_state)
 * @self: a module
 * @state: what [method@Gnn.Module.get_extra_state] returned
 * @error: return location for a #GError
 *
 * Restores the module's extra state from a state dict (`set_extra_state`).
 *
 * Returns: %TRUE on success; a module without extra state gives an error
 */
gboolean
gnn_module_set_extra_state (GnnModule *self,
                            GVariant  *state,
                            GError   **error)
{
  GnnModuleClass *klass;
  GError *local = NULL;

  g_return_val_if_fail (GNN_IS_MODULE (self), FALSE);
  g_return_val_if_fail (state != NULL, FALSE);
  klass = GNN_MODULE_GET_CLASS (self);
  if (klass->set_extra_state == NULL)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED,
                   "Reached a code path in Module.set_extra_state() that should never be called: %s "
                   "has no set_extra_state", gnn_module_get_name (self));
      return FALSE;
    }
  if (!klass->set_extra_state (self, state, &local))
    {
      if (local == NULL)
        local = g_error_new (GNN_ERROR, GNN_ERROR_FAILED, "%s.set_extra_state failed without setting an error",
                             gnn_module_get_name (self));
      g_propagate_error (error, local);
      return FALSE;
    }
  return TRUE;
}

/**
 * gnn_module_has_extra_state:
 * @self: a module
 *
 * Checks whether the module's class implements `get_extra_state`, so that its state dict has
 * an `_extra_state` entry.
 *
 * Returns: whether the module's class implements `get_extra_state`, so that its state dict
 *   has an `_extra_state` entry
 */
gboolean
gnn_module_has_extra_state (GnnModule *self)
{
  g_return_val_if_fail (GNN_IS_MODULE (self), FALSE);
  return GNN_MODULE_GET_CLASS (self)->get_extra_state != NULL;
}

/* ---- registration -------------------------------------------------------------------- */

static gboolean
check_name (GnnModule *self, const char *kind, const char *name, GPtrArray *own, GError **error)
{
  GnnModulePrivate *priv = priv_of (self);

  if (name == NULL || *name == '\0')
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "%s name can't be empty string \"\"", kind);
      return FALSE;
    }
  if (strchr (name, '.'))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "%s name can't contain \".\", got: %s", kind, name);
      return FALSE;
    }
  if ((own != priv->parameters && gnn_module_find_slot (priv->parameters, name)) ||
      (own != priv->buffers && gnn_module_find_slot (priv->buffers, name)) ||
      (own != priv->modules && gnn_module_find_slot (priv->modules, name)) ||
      gnn_module_find_attribute (self, name))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "attribute '%s' already exists in %s", name, gnn_module_get_name (self));
      return FALSE;
    }
  /* a construct-only property is a constructor argument, as `bias` of nn.Linear: a member
   * may take its name (Linear's bias parameter); other properties are attributes */
  {
    GParamSpec *pspec = g_object_class_find_property (G_OBJECT_GET_CLASS (self), name);
    if (pspec && !(pspec->flags & G_PARAM_CONSTRUCT_ONLY))
      {
        g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                     "attribute '%s' already exists in %s as a property", name, gnn_module_get_name (self));
        return FALSE;
      }
  }
  return TRUE;
}

static void
set_slot (GPtrArray *slots, const char *name, GObject *value)
{
  GnnModuleSlot *s = gnn_module_find_slot (slots, name);

  if (s == NULL)
    {
      s = g_new0 (GnnModuleSlot, 1);
      s->name = g_strdup (name);
      g_ptr_array_add (slots, s);
    }
  if (value)
    g_object_ref (value);
  g_clear_object (&s->value);
  s->value = value;
}

GnnParameter *
gnn_module_find_parameter (GnnModule  *module,
                           const char *name)
{
  GnnModuleSlot *s = gnn_module_find_slot (priv_of (module)->parameters, name);

  return s && s->value ? GNN_PARAMETER (s->value) : NULL;
}

GnnParameter *
gnn_module_new_parameter (const gint64 *shape,
                          guint         ndim,
                          GnnDtype      dtype,
                          GError      **error)
{
  g_autoptr(GnnTensor) data = gnn_tensor_new_empty (shape, ndim, dtype, NULL, error);

  return data ? gnn_parameter_new (data, TRUE, error) : NULL;
}

/**
 * gnn_module_register_parameter:
 * @self: a module
 * @name: the parameter's name, not empty, without dots, not taken by a buffer, submodule or
 *   read-write property (a construct-only property may share it, as Linear's `bias`)
 * @parameter: (nullable): the parameter; %NULL reserves the name, left out of the state dict
 * @error: return location for a #GError
 *
 * Adds or replaces a parameter (`register_parameter`).
 *
 * Returns: %TRUE on success
 */
gboolean
gnn_module_register_parameter (GnnModule    *self,
                               const char   *name,
                               GnnParameter *parameter,
                               GError      **error)
{
  g_return_val_if_fail (GNN_IS_MODULE (self), FALSE);
  g_return_val_if_fail (parameter == NULL || GNN_IS_PARAMETER (parameter), FALSE);
  if (!check_name (self, "parameter", name, priv_of (self)->parameters, error))
    return FALSE;
  if (parameter && !gnn_tensor_is_leaf (GNN_TENSOR (parameter)))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "Cannot assign non-leaf Tensor to parameter '%s'", name);
      return FALSE;
    }
  set_slot (priv_of (self)->parameters, name, (GObject *) parameter);
  return TRUE;
}

/**
 * gnn_module_register_buffer:
 * @self: a module
 * @name: the buffer's name, not empty, without dots, not taken by a parameter, submodule or
 *   property
 * @tensor: (nullable): the buffer (any tensor, or a [class@Gnn.Buffer]); %NULL reserves the
 *   name
 * @persistent: whether the buffer is part of the state dict
 * @error: return location for a #GError
 *
 * Adds or replaces a buffer (`register_buffer`). A [class@Gnn.Buffer] given here takes
 * @persistent as its [property@Gnn.Buffer:persistent].
 *
 * Returns: %TRUE on success
 */
gboolean
gnn_module_register_buffer (GnnModule  *self,
                            const char *name,
                            GnnTensor  *tensor,
                            gboolean    persistent,
                            GError    **error)
{
  GnnModuleSlot *s;

  g_return_val_if_fail (GNN_IS_MODULE (self), FALSE);
  g_return_val_if_fail (tensor == NULL || GNN_IS_TENSOR (tensor), FALSE);
  if (!check_name (self, "buffer", name, priv_of (self)->buffers, error))
    return FALSE;
  if (tensor && GNN_IS_PARAMETER (tensor))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "cannot assign a Parameter as buffer '%s' (a Tensor or None expected)", name);
      return FALSE;
    }
  set_slot (priv_of (self)->buffers, name, (GObject *) tensor);
  s = gnn_module_find_slot (priv_of (self)->buffers, name);
  s->persistent = persistent;
  if (tensor && GNN_IS_BUFFER (tensor))
    gnn_buffer_set_persistent (GNN_BUFFER (tensor), persistent);
  return TRUE;
}

/**
 * gnn_module_is_buffer_persistent:
 * @self: a module
 * @name: a buffer name of this module (not a dotted path)
 *
 * Checks whether the buffer registered under @name is part of the state dict; %FALSE when
 * there is no such buffer.
 *
 * Returns: whether the buffer registered under @name is part of the state dict; %FALSE when
 *   there is no such buffer
 */
gboolean
gnn_module_is_buffer_persistent (GnnModule  *self,
                                 const char *name)
{
  GnnModuleSlot *s;

  g_return_val_if_fail (GNN_IS_MODULE (self), FALSE);
  g_return_val_if_fail (name != NULL, FALSE);
  s = gnn_module_find_slot (priv_of (self)->buffers, name);
  return s != NULL && s->persistent;
}

/* whether @target is @root or among its submodules, at any depth (the tree may share
 * submodules: each is walked once) */
static gboolean
tree_holds (GnnModule *root, GnnModule *target)
{
  g_autoptr(GPtrArray) todo = g_ptr_array_new ();
  g_autoptr(GHashTable) visited = g_hash_table_new (NULL, NULL);

  g_ptr_array_add (todo, root);
  while (todo->len > 0)
    {
      GnnModule *m = g_ptr_array_steal_index_fast (todo, todo->len - 1);
      GPtrArray *modules = priv_of (m)->modules;

      if (m == target)
        return TRUE;
      if (!g_hash_table_add (visited, m))
        continue;
      for (guint i = 0; i < modules->len; i++)
        {
          GnnModuleSlot *s = modules->pdata[i];
          if (s->value)
            g_ptr_array_add (todo, s->value);
        }
    }
  return FALSE;
}

/**
 * gnn_module_register_module:
 * @self: a module
 * @name: the submodule's name, not empty, without dots, not taken by a parameter, buffer or
 *   property
 * @module: (nullable): the submodule; %NULL reserves the name
 * @error: return location for a #GError
 *
 * Adds or replaces a submodule (`register_module`). A module may be registered in several
 * places of a tree (shared), but not inside itself: @module must not be @self nor hold
 * @self among its submodules at any depth. PyTorch does not check this, and its recursive
 * walks then fail with a `RecursionError`; gnn's (state dict, forward, `repr`, JSON) would
 * overflow the stack, so such a cycle is refused here with an error.
 *
 * Returns: %TRUE on success, %FALSE with @error set (%GNN_ERROR_INVALID_ARGUMENT) for a
 *   name that cannot be used or a module that would make the tree a cycle
 */
gboolean
gnn_module_register_module (GnnModule  *self,
                            const char *name,
                            GnnModule  *module,
                            GError    **error)
{
  g_return_val_if_fail (GNN_IS_MODULE (self), FALSE);
  g_return_val_if_fail (module == NULL || GNN_IS_MODULE (module), FALSE);
  if (!check_name (self, "module", name, priv_of (self)->modules, error))
    return FALSE;
  if (module != NULL && tree_holds (module, self))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "cannot register a %s as submodule '%s' of %s: %s, so the module tree would be "
                   "a cycle (expected a module that does not hold this one)", gnn_module_get_name (module),
                   name, gnn_module_get_name (self),
                   module == self ? "it is that module itself" : "it holds that module among its submodules");
      return FALSE;
    }
  set_slot (priv_of (self)->modules, name, (GObject *) module);
  return TRUE;
}

/**
 * gnn_module_remove:
 * @self: a module
 * @name: a parameter, buffer, submodule or plain tensor attribute name
 *
 * Removes what is registered under @name (Python's `del module.name`), or the plain tensor
 * attribute @name ([method@Gnn.Module.set_tensor_attribute]). An attribute computed by a
 * parametrization is not removed here.
 *
 * Returns: whether something was removed
 */
gboolean
gnn_module_remove (GnnModule  *self,
                   const char *name)
{
  GnnModulePrivate *priv;
  GPtrArray *all[3];

  g_return_val_if_fail (GNN_IS_MODULE (self), FALSE);
  priv = priv_of (self);
  all[0] = priv->parameters;
  all[1] = priv->buffers;
  all[2] = priv->modules;
  for (guint k = 0; k < 3; k++)
    {
      GnnModuleSlot *s = gnn_module_find_slot (all[k], name);
      if (s)
        {
          g_ptr_array_remove (all[k], s);
          return TRUE;
        }
    }
  {
    GnnModuleAttribute *a = gnn_module_find_attribute (self, name);
    if (a && gnn_module_set_tensor_attribute (self, name, NULL, NULL))
      return TRUE;
  }
  return FALSE;
}

/* ---- lookup -------------------------------------------------------------------------- */

/**
 * gnn_module_get_submodule:
 * @self: a module
 * @target: a dotted path such as "net.0", or "" for @self
 * @error: return location for a #GError
 *
 * Returns the submodule at @target (`get_submodule`).
 *
 * Returns: (transfer none): the submodule at @target (`get_submodule`), or %NULL with @error
 *   set naming the first missing step
 */
GnnModule *
gnn_module_get_submodule (GnnModule  *self,
                          const char *target,
                          GError    **error)
{
  g_auto(GStrv) atoms = NULL;
  GnnModule *mod = self;

  g_return_val_if_fail (GNN_IS_MODULE (self), NULL);
  g_return_val_if_fail (target != NULL, NULL);
  if (*target == '\0')
    return self;
  atoms = g_strsplit (target, ".", -1);
  for (guint i = 0; atoms[i]; i++)
    {
      GnnModuleSlot *s = gnn_module_find_slot (priv_of (mod)->modules, atoms[i]);
      if (s == NULL || s->value == NULL)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                       "%s has no attribute `%s`", gnn_module_get_name (mod), atoms[i]);
          return NULL;
        }
      mod = GNN_MODULE (s->value);
    }
  return mod;
}

/**
 * gnn_module_set_submodule:
 * @self: a module
 * @target: a dotted path to an existing or new submodule, such as "net.0"
 * @module: the submodule to put there
 * @error: return location for a #GError
 *
 * Replaces or adds the submodule at @target (`set_submodule`); every step but the last must
 * exist.
 *
 * Returns: %TRUE on success
 */
gboolean
gnn_module_set_submodule (GnnModule  *self,
                          const char *target,
                          GnnModule  *module,
                          GError    **error)
{
  const char *dot;
  GnnModule *parent = self;

  g_return_val_if_fail (GNN_IS_MODULE (self), FALSE);
  g_return_val_if_fail (target != NULL, FALSE);
  g_return_val_if_fail (GNN_IS_MODULE (module), FALSE);
  if (*target == '\0')
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                           "Cannot set the submodule without a target name!");
      return FALSE;
    }
  dot = strrchr (target, '.');
  if (dot)
    {
      g_autofree char *path = g_strndup (target, dot - target);
      parent = gnn_module_get_submodule (self, path, error);
      if (parent == NULL)
        return FALSE;
      target = dot + 1;
    }
  return gnn_module_register_module (parent, target, module, error);
}

GnnModule *
gnn_module_owner_of (GnnModule *self, const char *target, const char **leaf, GError **error)
{
  const char *dot = strrchr (target, '.');

  if (dot == NULL)
    {
      *leaf = target;
      return self;
    }
  {
    g_autofree char *path = g_strndup (target, dot - target);
    *leaf = dot + 1;
    return gnn_module_get_submodule (self, path, error);
  }
}

/**
 * gnn_module_get_parameter:
 * @self: a module
 * @target: a dotted path such as "net.0.weight"
 * @error: return location for a #GError
 *
 * Returns the parameter at @target (`get_parameter`).
 *
 * Returns: (transfer none): the parameter at @target (`get_parameter`), or %NULL with @error
 *   set
 */
GnnParameter *
gnn_module_get_parameter (GnnModule  *self,
                          const char *target,
                          GError    **error)
{
  const char *leaf;
  GnnModule *owner;
  GnnModuleSlot *s;

  g_return_val_if_fail (GNN_IS_MODULE (self), NULL);
  g_return_val_if_fail (target != NULL, NULL);
  owner = gnn_module_owner_of (self, target, &leaf, error);
  if (owner == NULL)
    return NULL;
  s = gnn_module_find_slot (priv_of (owner)->parameters, leaf);
  if (s == NULL || s->value == NULL)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "%s has no parameter `%s`", gnn_module_get_name (owner), leaf);
      return NULL;
    }
  return GNN_PARAMETER (s->value);
}

/**
 * gnn_module_get_buffer:
 * @self: a module
 * @target: a dotted path such as "bn.running_mean"
 * @error: return location for a #GError
 *
 * Returns the buffer at @target (`get_buffer`).
 *
 * Returns: (transfer none): the buffer at @target (`get_buffer`), or %NULL with @error set
 */
GnnTensor *
gnn_module_get_buffer (GnnModule  *self,
                       const char *target,
                       GError    **error)
{
  const char *leaf;
  GnnModule *owner;
  GnnModuleSlot *s;

  g_return_val_if_fail (GNN_IS_MODULE (self), NULL);
  g_return_val_if_fail (target != NULL, NULL);
  owner = gnn_module_owner_of (self, target, &leaf, error);
  if (owner == NULL)
    return NULL;
  s = gnn_module_find_slot (priv_of (owner)->buffers, leaf);
  if (s == NULL || s->value == NULL)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "%s has no buffer `%s`", gnn_module_get_name (owner), leaf);
      return NULL;
    }
  return GNN_TENSOR (s->value);
}

/* ---- traversal ----------------------------------------------------------------------- */

static char *
join_prefix (const char *prefix, const char *name)
{
  if (prefix == NULL || *prefix == '\0')
    return g_strdup (name);
  return g_strconcat (prefix, ".", name, NULL);
}

/* named_modules: (prefix, module) pairs, depth first, self first */
static void
collect_modules (GnnModule *self, const char *prefix, gboolean remove_duplicate, GHashTable *memo,
                 GPtrArray *mods, GPtrArray *names)
{
  GnnModulePrivate *priv = priv_of (self);

  if (remove_duplicate)
    {
      if (g_hash_table_contains (memo, self))
        return;
      g_hash_table_add (memo, self);
    }
  g_ptr_array_add (mods, g_object_ref (self));
  g_ptr_array_add (names, g_strdup (prefix ? prefix : ""));
  for (guint i = 0; i < priv->modules->len; i++)
    {
      GnnModuleSlot *s = priv->modules->pdata[i];
      g_autofree char *sub = NULL;
      if (s->value == NULL)
        continue;
      sub = join_prefix (prefix, s->name);
      collect_modules (GNN_MODULE (s->value), sub, remove_duplicate, memo, mods, names);
    }
}

static char **
take_names (GPtrArray *names)
{
  g_ptr_array_add (names, NULL);
  return (char **) g_ptr_array_free (names, FALSE);
}

/**
 * gnn_module_named_modules:
 * @self: a module
 * @prefix: (nullable): a prefix for the names
 * @remove_duplicate: whether a module reachable twice is listed once
 * @names: (out) (optional) (array zero-terminated=1) (transfer full): the names
 *
 * Every module of the tree, @self first ("" or @prefix), depth first in registration order
 * (`named_modules`).
 *
 * Returns: (transfer container) (element-type Gnn.Module): the modules
 */
GPtrArray *
gnn_module_named_modules (GnnModule  *self,
                          const char *prefix,
                          gboolean    remove_duplicate,
                          char     ***names)
{
  g_autoptr(GHashTable) memo = g_hash_table_new (NULL, NULL);
  GPtrArray *mods = g_ptr_array_new_with_free_func (g_object_unref);
  GPtrArray *n = g_ptr_array_new_with_free_func (g_free);

  g_return_val_if_fail (GNN_IS_MODULE (self), NULL);
  collect_modules (self, prefix ? prefix : "", remove_duplicate, memo, mods, n);
  if (names)
    {
      g_ptr_array_set_free_func (n, NULL);
      *names = take_names (n);
    }
  else
    g_ptr_array_unref (n);
  return mods;
}

/**
 * gnn_module_modules:
 * @self: a module
 *
 * Returns every module of the tree, @self first (`modules`).
 *
 * Returns: (transfer container) (element-type Gnn.Module): every module of the tree, @self
 *   first (`modules`)
 */
GPtrArray *
gnn_module_modules (GnnModule *self)
{
  return gnn_module_named_modules (self, NULL, TRUE, NULL);
}

/**
 * gnn_module_named_children:
 * @self: a module
 * @names: (out) (optional) (array zero-terminated=1) (transfer full): the names
 *
 * Returns the direct submodules, each once (`named_children`).
 *
 * Returns: (transfer container) (element-type Gnn.Module): the direct submodules, each once
 *   (`named_children`)
 */
GPtrArray *
gnn_module_named_children (GnnModule *self,
                           char    ***names)
{
  GnnModulePrivate *priv;
  g_autoptr(GHashTable) memo = g_hash_table_new (NULL, NULL);
  GPtrArray *mods = g_ptr_array_new_with_free_func (g_object_unref);
  GPtrArray *n = g_ptr_array_new ();

  g_return_val_if_fail (GNN_IS_MODULE (self), NULL);
  priv = priv_of (self);
  for (guint i = 0; i < priv->modules->len; i++)
    {
      GnnModuleSlot *s = priv->modules->pdata[i];
      if (s->value == NULL || g_hash_table_contains (memo, s->value))
        continue;
      g_hash_table_add (memo, s->value);
      g_ptr_array_add (mods, g_object_ref (s->value));
      g_ptr_array_add (n, g_strdup (s->name));
    }
  if (names)
    *names = take_names (n);
  else
    {
      g_ptr_array_set_free_func (n, g_free);
      g_ptr_array_unref (n);
    }
  return mods;
}

/**
 * gnn_module_children:
 * @self: a module
 *
 * Returns the direct submodules (`children`).
 *
 * Returns: (transfer container) (element-type Gnn.Module): the direct submodules (`children`)
 */
GPtrArray *
gnn_module_children (GnnModule *self)
{
  return gnn_module_named_children (self, NULL);
}

/* named_parameters / named_buffers share the walk: which slots, and whether to list a
 * non-persistent buffer */
static GPtrArray *
named_members (GnnModule *self, const char *prefix, gboolean recurse, gboolean remove_duplicate,
               gboolean buffers, char ***names)
{
  g_autoptr(GPtrArray) mods = NULL;
  g_auto(GStrv) mod_names = NULL;
  g_autoptr(GHashTable) memo = g_hash_table_new (NULL, NULL);
  GPtrArray *out = g_ptr_array_new_with_free_func (g_object_unref);
  GPtrArray *n = g_ptr_array_new ();

  if (recurse)
    mods = gnn_module_named_modules (self, prefix, remove_duplicate, &mod_names);
  else
    {
      mods = g_ptr_array_new_with_free_func (g_object_unref);
      g_ptr_array_add (mods, g_object_ref (self));
      mod_names = g_new0 (char *, 2);
      mod_names[0] = g_strdup (prefix ? prefix : "");
    }
  for (guint m = 0; m < mods->len; m++)
    {
      GnnModulePrivate *priv = priv_of (mods->pdata[m]);
      GPtrArray *slots = buffers ? priv->buffers : priv->parameters;
      for (guint i = 0; i < slots->len; i++)
        {
          GnnModuleSlot *s = slots->pdata[i];
          if (s->value == NULL)
            continue;
          if (remove_duplicate)
            {
              if (g_hash_table_contains (memo, s->value))
                continue;
              g_hash_table_add (memo, s->value);
            }
          g_ptr_array_add (out, g_object_ref (s->value));
          g_ptr_array_add (n, join_prefix (mod_names[m], s->name));
        }
    }
  if (names)
    *names = take_names (n);
  else
    {
      g_ptr_array_set_free_func (n, g_free);
      g_ptr_array_unref (n);
    }
  return out;
}

/**
 * gnn_module_named_parameters:
 * @self: a module
 * @prefix: (nullable): a prefix for the names
 * @recurse: whether to include the parameters of submodules
 * @remove_duplicate: whether a parameter shared by several modules is listed once
 * @names: (out) (optional) (array zero-terminated=1) (transfer full): the dotted names
 *
 * The parameters with their names, such as "layers.0.weight" (`named_parameters`).
 *
 * Returns: (transfer container) (element-type Gnn.Parameter): the parameters
 */
GPtrArray *
gnn_module_named_parameters (GnnModule  *self,
                             const char *prefix,
                             gboolean    recurse,
                             gboolean    remove_duplicate,
                             char     ***names)
{
  g_return_val_if_fail (GNN_IS_MODULE (self), NULL);
  return named_members (self, prefix, recurse, remove_duplicate, FALSE, names);
}

/**
 * gnn_module_parameters:
 * @self: a module
 * @recurse: whether to include the parameters of submodules
 *
 * Returns the parameters, each once (`parameters`).
 *
 * Returns: (transfer container) (element-type Gnn.Parameter): the parameters, each once
 *   (`parameters`)
 */
GPtrArray *
gnn_module_parameters (GnnModule *self,
                       gboolean   recurse)
{
  return gnn_module_named_parameters (self, NULL, recurse, TRUE, NULL);
}

/**
 * gnn_module_named_buffers:
 * @self: a module
 * @prefix: (nullable): a prefix for the names
 * @recurse: whether to include the buffers of submodules
 * @remove_duplicate: whether a buffer shared by several modules is listed once
 * @names: (out) (optional) (array zero-terminated=1) (transfer full): the dotted names
 *
 * The buffers, persistent or not, with their names (`named_buffers`).
 *
 * Returns: (transfer container) (element-type Gnn.Tensor): the buffers
 */
GPtrArray *
gnn_module_named_buffers (GnnModule  *self,
                          const char *prefix,
                          gboolean    recurse,
                          gboolean    remove_duplicate,
                          char     ***names)
{
  g_return_val_if_fail (GNN_IS_MODULE (self), NULL);
  return named_members (self, prefix, recurse, remove_duplicate, TRUE, names);
}

/**
 * gnn_module_buffers:
 * @self: a module
 * @recurse: whether to include the buffers of submodules
 *
 * Returns the buffers (`buffers`).
 *
 * Returns: (transfer container) (element-type Gnn.Tensor): the buffers (`buffers`)
 */
GPtrArray *
gnn_module_buffers (GnnModule *self,
                    gboolean   recurse)
{
  return gnn_module_named_buffers (self, NULL, recurse, TRUE, NULL);
}

/**
 * gnn_module_apply:
 * @self: a module
 * @func: (scope call): the function
 * @user_data: data for @func
 *
 * Calls @func on every submodule, children first (each after its own children), then on
 * @self (`apply`).
 *
 * Returns: (transfer none): @self, for chaining, as PyTorch's `apply` returns the module
 */
GnnModule *
gnn_module_apply (GnnModule         *self,
                  GnnModuleApplyFunc func,
                  gpointer           user_data)
{
  g_autoptr(GPtrArray) children = NULL;

  g_return_val_if_fail (GNN_IS_MODULE (self), NULL);
  g_return_val_if_fail (func != NULL, NULL);
  children = gnn_module_children (self);
  for (guint i = 0; i < children->len; i++)
    gnn_module_apply (children->pdata[i], func, user_data);
  func (self, user_data);
  return self;
}

/* ---- training mode, gradients, devices, dtypes ------------------------------------- */

/**
 * gnn_module_get_training:
 * @self: a module
 *
 * Gets [property@Gnn.Module:training].
 *
 * Returns: whether the module is in training mode
 */
gboolean
gnn_module_get_training (GnnModule *self)
{
  g_return_val_if_fail (GNN_IS_MODULE (self), FALSE);
  return priv_of (self)->training;
}

static void
set_training_one (GnnModule *module, gpointer data)
{
  GnnModulePrivate *priv = priv_of (module);
  gboolean training = GPOINTER_TO_INT (data);

  if (priv->training == training)
    return;
  priv->training = training;
  g_object_notify_by_pspec (G_OBJECT (module), props[PROP_TRAINING].pspec);
}

/**
 * gnn_module_set_training:
 * @self: a module
 * @training: whether to train
 *
 * Sets [property@Gnn.Module:training] on @self and every descendant.
 */
void
gnn_module_set_training (GnnModule *self,
                         gboolean   training)
{
  g_autoptr(GPtrArray) mods = NULL;

  g_return_if_fail (GNN_IS_MODULE (self));
  mods = gnn_module_modules (self);
  for (guint i = 0; i < mods->len; i++)
    set_training_one (mods->pdata[i], GINT_TO_POINTER (!!training));
}

/**
 * gnn_module_train:
 * @self: a module
 * @mode: %TRUE for training mode, %FALSE for evaluation mode
 *
 * Sets the mode of the whole tree (`train (mode)`).
 *
 * Returns: (transfer none): @self, for chaining, as PyTorch's `train` returns the module
 */
GnnModule *
gnn_module_train (GnnModule *self,
                  gboolean   mode)
{
  g_return_val_if_fail (GNN_IS_MODULE (self), NULL);
  gnn_module_set_training (self, mode);
  return self;
}

/**
 * gnn_module_eval:
 * @self: a module
 *
 * Puts the whole tree in evaluation mode (`eval ()`).
 *
 * Returns: (transfer none): @self, for chaining, as PyTorch's `eval` returns the module
 */
GnnModule *
gnn_module_eval (GnnModule *self)
{
  return gnn_module_train (self, FALSE);
}

/**
 * gnn_module_zero_grad:
 * @self: a module
 * @set_to_none: whether to drop the gradients (PyTorch's default) rather than fill them with
 *   zeros
 * @error: return location for a #GError
 *
 * Resets the gradients of every parameter (`zero_grad`).
 *
 * Returns: %TRUE on success
 */
gboolean
gnn_module_zero_grad (GnnModule *self,
                      gboolean   set_to_none,
                      GError   **error)
{
  g_autoptr(GPtrArray) params = NULL;

  g_return_val_if_fail (GNN_IS_MODULE (self), FALSE);
  params = gnn_module_parameters (self, TRUE);
  for (guint i = 0; i < params->len; i++)
    {
      GnnTensor *p = params->pdata[i];
      GnnTensor *g = gnn_tensor_get_grad (p);
      if (g == NULL)
        continue;
      if (set_to_none)
        {
          if (!gnn_tensor_set_grad (p, NULL, error))
            return FALSE;
        }
      else
        {
          g_autoptr(GnnNoGradGuard) guard = gnn_no_grad_guard_new ();
          if (!gnn_tensor_zero_ (g, error))
            return FALSE;
        }
    }
  return TRUE;
}

/**
 * gnn_module_requires_grad_:
 * @self: a module
 * @requires_grad: whether autograd should record operations on the parameters
 * @error: return location for a #GError
 *
 * Sets requires_grad on every parameter (`requires_grad_`).
 *
 * Returns: (transfer none): @self, for chaining; %NULL with @error set on failure
 */
GnnModule *
gnn_module_requires_grad_ (GnnModule *self,
                           gboolean   requires_grad,
                           GError   **error)
{
  g_autoptr(GPtrArray) params = NULL;

  g_return_val_if_fail (GNN_IS_MODULE (self), NULL);
  params = gnn_module_parameters (self, TRUE);
  for (guint i = 0; i < params->len; i++)
    if (!gnn_tensor_set_requires_grad (params->pdata[i], requires_grad, error))
      return NULL;
  return self;
}

/**
 * gnn_module_get_device:
 * @self: a module
 *
 * Gets [property@Gnn.Module:device].
 *
 * Returns: (transfer full) (nullable): the device of every parameter and buffer, such as
 *   "cpu"; %NULL when there are none or they sit on several devices
 */
char *
gnn_module_get_device (GnnModule *self)
{
  g_autoptr(GPtrArray) params = NULL, bufs = NULL;
  const char *device = NULL;

  g_return_val_if_fail (GNN_IS_MODULE (self), NULL);
  params = gnn_module_parameters (self, TRUE);
  bufs = gnn_module_buffers (self, TRUE);
  for (guint k = 0; k < 2; k++)
    {
      GPtrArray *list = k == 0 ? params : bufs;
      for (guint i = 0; i < list->len; i++)
        {
          const char *s = gnn_tensor_get_device (list->pdata[i]);
          if (device == NULL)
            device = s;
          else if (device != s)   /* interned */
            return NULL;
        }
    }
  return g_strdup (device);
}

typedef GnnTensor *(*ConvertFunc) (GnnTensor *t, gpointer data, GError **error);

/* PyTorch's _apply: every parameter and buffer gets new data, keeping its identity; the
 * gradient is converted too */
static gboolean
apply_to_tensors_full (GnnModule *self, ConvertFunc convert, gpointer data, gboolean recurse, GError **error)
{
  g_autoptr(GPtrArray) params = NULL, bufs = NULL;
  g_autoptr(GnnNoGradGuard) guard = gnn_no_grad_guard_new ();

  params = gnn_module_parameters (self, recurse);
  bufs = gnn_module_buffers (self, recurse);
  for (guint k = 0; k < 2; k++)
    {
      GPtrArray *list = k == 0 ? params : bufs;
      for (guint i = 0; i < list->len; i++)
        {
          GnnTensor *t = list->pdata[i];
          g_autoptr(GnnTensor) converted = convert (t, data, error);
          GnnTensor *grad;
          if (converted == NULL || !gnn_tensor_set_data (t, converted, error))
            return FALSE;
          grad = gnn_tensor_get_grad (t);
          if (grad)
            {
              g_autoptr(GnnTensor) g2 = convert (grad, data, error);
              if (g2 == NULL || !gnn_tensor_set_data (grad, g2, error))
                return FALSE;
            }
        }
    }
  return TRUE;
}

static gboolean
apply_to_tensors (GnnModule *self, ConvertFunc convert, gpointer data, GError **error)
{
  return apply_to_tensors_full (self, convert, data, TRUE, error);
}

static GnnTensor *
convert_device (GnnTensor *t, gpointer data, GError **error)
{
  return gnn_tensor_to_device (t, data, error);
}

static GnnTensor *
convert_dtype (GnnTensor *t, gpointer data, GError **error)
{
  GnnDtype dtype = GPOINTER_TO_INT (data);

  /* only floating-point tensors change dtype, as in PyTorch */
  if (!gnn_dtype_is_floating (gnn_tensor_get_dtype (t)))
    return g_object_ref (t);
  return gnn_tensor_to_dtype (t, dtype, error);
}

/**
 * gnn_module_to_device:
 * @self: a module
 * @device: a device such as "cpu" or "cuda:0"
 * @error: return location for a #GError
 *
 * Moves every parameter and buffer (and gradient) to @device, in place: the tensor objects
 * stay the same, so optimizers holding them keep working (`module.to (device)`).
 *
 * Returns: (transfer none): @self, for chaining (PyTorch's `model = Net ().to (device)`
 *   keeps the module); %NULL with @error set on failure
 */
GnnModule *
gnn_module_to_device (GnnModule  *self,
                      const char *device,
                      GError    **error)
{
  g_autofree char *before = NULL;
  g_autofree char *after = NULL;
  gboolean ok;

  g_return_val_if_fail (GNN_IS_MODULE (self), NULL);
  g_return_val_if_fail (device != NULL, NULL);
  before = gnn_module_get_device (self);
  ok = apply_to_tensors (self, convert_device, (gpointer) device, error);
  after = gnn_module_get_device (self);
  if (g_strcmp0 (before, after) != 0)
    g_object_notify_by_pspec (G_OBJECT (self), props[PROP_DEVICE].pspec);
  return ok ? self : NULL;
}

/* the first floating-point tensor of @slots, or NULL */
static GnnTensor *
first_floating (GPtrArray *slots)
{
  for (guint i = 0; i < slots->len; i++)
    {
      GnnModuleSlot *s = slots->pdata[i];

      if (s->value && gnn_dtype_is_floating (gnn_tensor_get_dtype (GNN_TENSOR (s->value))))
        return GNN_TENSOR (s->value);
    }
  return NULL;
}

GnnDtype
gnn_module_dtype (GnnModule *self)
{
  GnnModulePrivate *priv = priv_of (self);
  GnnTensor *t = first_floating (priv->parameters);

  if (t == NULL)
    t = first_floating (priv->buffers);
  return t ? gnn_tensor_get_dtype (t) : priv->dtype;
}

static G_DEFINE_QUARK (gnn-module-uses-dtype, uses_dtype)

void
gnn_module_class_uses_dtype (GnnModuleClass *klass)
{
  g_type_set_qdata (G_TYPE_FROM_CLASS (klass), uses_dtype_quark (), GINT_TO_POINTER (TRUE));
}

static gboolean
type_uses_dtype (GType type)
{
  for (GType t = type; t != GNN_TYPE_MODULE && t != 0; t = g_type_parent (t))
    if (g_type_get_qdata (t, uses_dtype_quark ()))
      return TRUE;
  return FALSE;
}

gboolean
gnn_module_property_is_saved (GType       type,
                              GParamSpec *pspec)
{
  if ((pspec->flags & G_PARAM_READWRITE) != G_PARAM_READWRITE)
    return FALSE;
  if (pspec->owner_type == GNN_TYPE_MODULE)
    return pspec == props[PROP_DTYPE].pspec && type_uses_dtype (type);
  return TRUE;
}

GParamSpec **
gnn_module_list_saved_properties (GType  type,
                                  guint *n_out)
{
  GObjectClass *klass = g_type_class_ref (type);
  guint n, k = 0;
  GParamSpec **pspecs = g_object_class_list_properties (klass, &n);

  /* the class's own in their order, then GnnModule's dtype (as the layers listed it last) */
  for (guint i = 0; i < n; i++)
    if (pspecs[i]->owner_type != GNN_TYPE_MODULE && gnn_module_property_is_saved (type, pspecs[i]))
      pspecs[k++] = pspecs[i];
  if (gnn_module_property_is_saved (type, props[PROP_DTYPE].pspec))
    pspecs[k++] = props[PROP_DTYPE].pspec;
  g_type_class_unref (klass);
  *n_out = k;
  return pspecs;
}

/**
 * gnn_module_to_dtype:
 * @self: a module
 * @dtype: a floating-point dtype
 * @error: return location for a #GError
 *
 * Converts every floating-point parameter and buffer to @dtype, in place (`module.to (dtype)`);
 * integer buffers keep theirs.
 *
 * Returns: (transfer none): @self, for chaining; %NULL with @error set on failure
 */
GnnModule *
gnn_module_to_dtype (GnnModule *self,
                     GnnDtype   dtype,
                     GError   **error)
{
  g_return_val_if_fail (GNN_IS_MODULE (self), NULL);
  if (!gnn_dtype_is_floating (dtype))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE,
                   "nn.Module.to only accepts floating point dtypes, but got desired dtype=%s",
                   gnn_dtype_get_name (dtype));
      return NULL;
    }
  return apply_to_tensors (self, convert_dtype, GINT_TO_POINTER (dtype), error) ? self : NULL;
}

static GnnTensor *
convert_empty (GnnTensor *t, gpointer data, GError **error)
{
  guint nd;
  const gint64 *shape = gnn_tensor_get_shape (t, &nd);
  return gnn_tensor_new_empty (shape, nd, gnn_tensor_get_dtype (t), data, error);
}

/**
 * gnn_module_to_tensor:
 * @self: a module
 * @other: a tensor whose device and dtype the module's tensors take
 * @error: return location for a #GError
 *
 * Moves the module to @other's device and converts its floating-point tensors to @other's
 * dtype (`module.to (tensor)`).
 *
 * Returns: (transfer none): @self, for chaining; %NULL with @error set on failure
 */
GnnModule *
gnn_module_to_tensor (GnnModule *self,
                      GnnTensor *other,
                      GError   **error)
{
  const char *device = NULL;

  g_return_val_if_fail (GNN_IS_MODULE (self), NULL);
  g_return_val_if_fail (GNN_IS_TENSOR (other), NULL);
  device = gnn_tensor_get_device (other);
  if (!gnn_module_to_device (self, device, error))
    return NULL;
  /* gnn_module_to_dtype refuses a dtype that is not floating point, naming it */
  return gnn_module_to_dtype (self, gnn_tensor_get_dtype (other), error);
}

/**
 * gnn_module_to_empty:
 * @self: a module
 * @device: the device for the tensors
 * @recurse: whether submodules' tensors move too
 * @error: return location for a #GError
 *
 * Moves parameters and buffers to @device without copying their values: they become
 * uninitialised tensors of the same shapes and dtypes (`to_empty`), to be filled by a load or
 * an initialisation.
 *
 * Returns: (transfer none): @self, for chaining; %NULL with @error set on failure
 */
GnnModule *
gnn_module_to_empty (GnnModule  *self,
                     const char *device,
                     gboolean    recurse,
                     GError    **error)
{
  g_return_val_if_fail (GNN_IS_MODULE (self), NULL);
  g_return_val_if_fail (device != NULL, NULL);
  return apply_to_tensors_full (self, convert_empty, (gpointer) device, recurse, error) ? self : NULL;
}

/* ---- printing ------------------------------------------------------------------------ */

/* torch.nn.modules.module._addindent */
static char *
add_indent (const char *s, int spaces)
{
  g_auto(GStrv) lines = g_strsplit (s, "\n", -1);
  GString *out = g_string_new (lines[0]);

  for (guint i = 1; lines[i]; i++)
    {
      g_string_append_c (out, '\n');
      for (int k = 0; k < spaces; k++)
        g_string_append_c (out, ' ');
      g_string_append (out, lines[i]);
    }
  return g_string_free (out, FALSE);
}

/**
 * gnn_module_to_string:
 * @self: a module
 *
 * The printed form of the module tree, laid out as PyTorch's `repr (module)`:
 * `Net(\n  (fc): Linear(in_features=4, out_features=3, bias=True)\n)`.
 *
 * Returns: (transfer full): the printed form
 */
char *
gnn_module_to_string (GnnModule *self)
{
  GnnModulePrivate *priv;
  g_autofree char *extra = NULL;
  g_auto(GStrv) extra_lines = NULL;
  g_autoptr(GPtrArray) lines = g_ptr_array_new_with_free_func (g_free);
  guint n_extra = 0, n_child = 0;
  GString *s;

  g_return_val_if_fail (GNN_IS_MODULE (self), NULL);
  priv = priv_of (self);
  extra = gnn_module_extra_repr (self);
  if (*extra)
    {
      extra_lines = g_strsplit (extra, "\n", -1);
      for (guint i = 0; extra_lines[i]; i++, n_extra++)
        g_ptr_array_add (lines, g_strdup (extra_lines[i]));
    }
  for (guint i = 0; i < priv->modules->len; i++, n_child++)
    {
      GnnModuleSlot *sl = priv->modules->pdata[i];
      g_autofree char *child = NULL;
      g_autofree char *indented = NULL;

      /* torch's quantized layers hide this child (_hide_packed_params_repr) */
      if (g_str_equal (sl->name, "_packed_params"))
        {
          n_child--;
          continue;
        }
      child = sl->value ? gnn_module_to_string (GNN_MODULE (sl->value)) : g_strdup ("None");
      indented = add_indent (child, 2);
      g_ptr_array_add (lines, g_strdup_printf ("(%s): %s", sl->name, indented));
    }
  s = g_string_new (gnn_module_get_name (self));
  g_string_append_c (s, '(');
  if (lines->len > 0)
    {
      if (n_extra == 1 && n_child == 0)
        g_string_append (s, lines->pdata[0]);
      else
        {
          g_string_append (s, "\n  ");
          for (guint i = 0; i < lines->len; i++)
            {
              if (i > 0)
                g_string_append (s, "\n  ");
              g_string_append (s, lines->pdata[i]);
            }
          g_string_append_c (s, '\n');
        }
    }
  g_string_append_c (s, ')');
  return g_string_free (s, FALSE);
}
