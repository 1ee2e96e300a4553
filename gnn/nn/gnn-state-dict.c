/* gnn-state-dict.c: GnnStateDict, and saving and loading the state of a module tree
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <string.h>

#include "gnn-module-private.h"
#include "gnn-state-dict.h"

/**
 * GnnStateDict:
 *
 * The state of a module tree: an ordered map from dotted keys ("layers.0.weight") to
 * tensors, as the `OrderedDict` PyTorch's `state_dict` returns.
 *
 * Keys keep the order in which they were first set; setting a key again replaces its value
 * in place. A value is usually a [class@Gnn.Tensor]; any other #GValue can be stored too,
 * for the extra state of a module. Iterate with [method@Gnn.StateDict.get_keys].
 *
 * Make one from a module with [method@Gnn.Module.state_dict], load one into a module with
 * [method@Gnn.Module.load_state_dict].
 */

typedef struct {
  char *key;
  GValue value;
} Entry;

struct _GnnStateDict
{
  GObject parent_instance;

  GPtrArray *entries;   /* Entry, in insertion order */
  GHashTable *index;    /* key (owned by the entry) -> Entry */
};

G_DEFINE_FINAL_TYPE (GnnStateDict, gnn_state_dict, G_TYPE_OBJECT)

static void
entry_free (gpointer data)
{
  Entry *e = data;

  g_free (e->key);
  g_value_unset (&e->value);
  g_free (e);
}

static void
gnn_state_dict_finalize (GObject *object)
{
  GnnStateDict *self = GNN_STATE_DICT (object);

  g_hash_table_unref (self->index);
  g_ptr_array_unref (self->entries);
  G_OBJECT_CLASS (gnn_state_dict_parent_class)->finalize (object);
}

static void
gnn_state_dict_class_init (GnnStateDictClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = gnn_state_dict_finalize;
}

static void
gnn_state_dict_init (GnnStateDict *self)
{
  self->entries = g_ptr_array_new_with_free_func (entry_free);
  self->index = g_hash_table_new (g_str_hash, g_str_equal);
}

/**
 * gnn_state_dict_new:
 *
 * Creates an empty state dict.
 *
 * Returns: (transfer full): a new state dict
 */
GnnStateDict *
gnn_state_dict_new (void)
{
  return g_object_new (GNN_TYPE_STATE_DICT, NULL);
}

static Entry *
lookup (GnnStateDict *self, const char *key)
{
  return g_hash_table_lookup (self->index, key);
}

/* the entry for @key, added at the end when new, its value unset */
static Entry *
reset_entry (GnnStateDict *self, const char *key)
{
  Entry *e = lookup (self, key);

  if (e)
    {
      g_value_unset (&e->value);
      return e;
    }
  e = g_new0 (Entry, 1);
  e->key = g_strdup (key);
  g_ptr_array_add (self->entries, e);
  g_hash_table_insert (self->index, e->key, e);
  return e;
}

static GnnTensor *
entry_tensor (Entry *e)
{
  GObject *obj;

  if (!G_VALUE_HOLDS_OBJECT (&e->value))
    return NULL;
  obj = g_value_get_object (&e->value);
  return obj && GNN_IS_TENSOR (obj) ? GNN_TENSOR (obj) : NULL;
}

static gboolean
missing_key (const char *key, GError **error)
{
  g_set_error (error, GNN_ERROR, GNN_ERROR_INDEX, "no key \"%s\" in the state dict", key);
  return FALSE;
}

/**
 * gnn_state_dict_set_tensor:
 * @self: a state dict
 * @key: the key, such as "fc.weight"
 * @tensor: the tensor
 *
 * Sets @key to @tensor (`state[key] = tensor`). A new key goes at the end; an existing key
 * keeps its place.
 */
void
gnn_state_dict_set_tensor (GnnStateDict *self,
                           const char   *key,
                           GnnTensor    *tensor)
{
  Entry *e;

  g_return_if_fail (GNN_IS_STATE_DICT (self));
  g_return_if_fail (key != NULL);
  g_return_if_fail (GNN_IS_TENSOR (tensor));
  e = reset_entry (self, key);
  g_value_init (&e->value, GNN_TYPE_TENSOR);
  g_value_set_object (&e->value, tensor);
}

/**
 * gnn_state_dict_get_tensor:
 * @self: a state dict
 * @key: the key
 * @error: return location for a #GError
 *
 * The tensor stored under @key (`state[key]`).
 *
 * Returns: (transfer none): the tensor, or %NULL with @error set when @key is absent
 *   (%GNN_ERROR_INDEX) or holds something else (%GNN_ERROR_INVALID_ARGUMENT)
 */
GnnTensor *
gnn_state_dict_get_tensor (GnnStateDict *self,
                           const char   *key,
                           GError      **error)
{
  Entry *e;
  GnnTensor *t;

  g_return_val_if_fail (GNN_IS_STATE_DICT (self), NULL);
  g_return_val_if_fail (key != NULL, NULL);
  e = lookup (self, key);
  if (e == NULL)
    {
      missing_key (key, error);
      return NULL;
    }
  t = entry_tensor (e);
  if (t == NULL)
    g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                 "the value of \"%s\" in the state dict is a %s, not a tensor", key,
                 G_VALUE_TYPE_NAME (&e->value));
  return t;
}

/**
 * gnn_state_dict_set_value:
 * @self: a state dict
 * @key: the key
 * @value: the value: a #GnnTensor, or anything else for a module's extra state
 *
 * Sets @key to a copy of @value. A new key goes at the end; an existing key keeps its
 * place.
 */
void
gnn_state_dict_set_value (GnnStateDict *self,
                          const char   *key,
                          const GValue *value)
{
  Entry *e;

  g_return_if_fail (GNN_IS_STATE_DICT (self));
  g_return_if_fail (key != NULL);
  g_return_if_fail (G_IS_VALUE (value));
  e = reset_entry (self, key);
  g_value_init (&e->value, G_VALUE_TYPE (value));
  g_value_copy (value, &e->value);
}

/**
 * gnn_state_dict_get_value:
 * @self: a state dict
 * @key: the key
 * @value: (out caller-allocates): an uninitialized #GValue to receive a copy of the value
 * @error: return location for a #GError
 *
 * Copies the value stored under @key, whatever its type, into @value.
 *
 * Returns: %TRUE on success; %FALSE with @error set (%GNN_ERROR_INDEX) when @key is absent
 */
gboolean
gnn_state_dict_get_value (GnnStateDict *self,
                          const char   *key,
                          GValue       *value,
                          GError      **error)
{
  Entry *e;

  g_return_val_if_fail (GNN_IS_STATE_DICT (self), FALSE);
  g_return_val_if_fail (key != NULL, FALSE);
  g_return_val_if_fail (value != NULL, FALSE);
  e = lookup (self, key);
  if (e == NULL)
    return missing_key (key, error);
  g_value_init (value, G_VALUE_TYPE (&e->value));
  g_value_copy (&e->value, value);
  return TRUE;
}

/**
 * gnn_state_dict_contains:
 * @self: a state dict
 * @key: the key
 *
 * Returns: whether @key is in the state dict (`key in state`)
 */
gboolean
gnn_state_dict_contains (GnnStateDict *self,
                         const char   *key)
{
  g_return_val_if_fail (GNN_IS_STATE_DICT (self), FALSE);
  g_return_val_if_fail (key != NULL, FALSE);
  return lookup (self, key) != NULL;
}

/**
 * gnn_state_dict_remove:
 * @self: a state dict
 * @key: the key
 *
 * Removes @key and its value (`del state[key]`); the other keys keep their order.
 *
 * Returns: whether @key was there
 */
gboolean
gnn_state_dict_remove (GnnStateDict *self,
                       const char   *key)
{
  Entry *e;

  g_return_val_if_fail (GNN_IS_STATE_DICT (self), FALSE);
  g_return_val_if_fail (key != NULL, FALSE);
  e = lookup (self, key);
  if (e == NULL)
    return FALSE;
  g_hash_table_remove (self->index, key);
  g_ptr_array_remove (self->entries, e);
  return TRUE;
}

/**
 * gnn_state_dict_get_keys:
 * @self: a state dict
 *
 * Returns: (transfer full) (array zero-terminated=1): the keys, in order (`state.keys ()`)
 */
char **
gnn_state_dict_get_keys (GnnStateDict *self)
{
  char **keys;

  g_return_val_if_fail (GNN_IS_STATE_DICT (self), NULL);
  keys = g_new (char *, self->entries->len + 1);
  for (guint i = 0; i < self->entries->len; i++)
    keys[i] = g_strdup (((Entry *) self->entries->pdata[i])->key);
  keys[self->entries->len] = NULL;
  return keys;
}

/**
 * gnn_state_dict_get_length:
 * @self: a state dict
 *
 * Returns: the number of keys (`len (state)`)
 */
guint
gnn_state_dict_get_length (GnnStateDict *self)
{
  g_return_val_if_fail (GNN_IS_STATE_DICT (self), 0);
  return self->entries->len;
}

/* ---- saving -------------------------------------------------------------------------- */

/**
 * gnn_module_state_dict:
 * @self: a module
 * @prefix: (nullable): a prefix for the keys: "model" gives "model.fc.weight" (PyTorch's
 *   "model." with its trailing dot is accepted too)
 * @keep_vars: whether the values are the parameters and buffers themselves rather than
 *   tensors detached from them
 * @error: return location for a #GError
 *
 * The whole state of the module tree (`state_dict`): for each module, its parameters, then
 * its persistent buffers, then the state of each submodule in turn, in registration order;
 * names registered with %NULL and non-persistent buffers are left out. A module reachable
 * under several names is saved under each.
 *
 * Without @keep_vars, the values are detached tensors sharing storage with the module's
 * (`Tensor.detach`): writing into them changes the module.
 *
 * Returns: (transfer full): the state dict, or %NULL with @error set when a module's setup
 *   failed
 */
GnnStateDict *
gnn_module_state_dict (GnnModule  *self,
                       const char *prefix,
                       gboolean    keep_vars,
                       GError    **error)
{
  g_autoptr(GPtrArray) mods = NULL;
  g_auto(GStrv) names = NULL;
  g_autofree char *root = NULL;
  g_autoptr(GnnStateDict) state = NULL;

  g_return_val_if_fail (GNN_IS_MODULE (self), NULL);
  root = g_strdup (prefix ? prefix : "");
  if (*root && root[strlen (root) - 1] == '.')
    root[strlen (root) - 1] = '\0';
  /* named_modules without removing duplicates visits the tree as PyTorch's recursive
   * state_dict does: a module, then each child's subtree */
  mods = gnn_module_named_modules (self, root, FALSE, &names);
  state = gnn_state_dict_new ();
  for (guint m = 0; m < mods->len; m++)
    {
      GnnModule *mod = mods->pdata[m];
      GnnModulePrivate *priv = gnn_module_priv (mod);

      if (!gnn_module_ensure_setup (mod, error))
        return NULL;
      for (guint k = 0; k < 2; k++)
        {
          GPtrArray *slots = k == 0 ? priv->parameters : priv->buffers;
          for (guint i = 0; i < slots->len; i++)
            {
              GnnModuleSlot *s = slots->pdata[i];
              g_autofree char *key = NULL;
              g_autoptr(GnnTensor) value = NULL;

              if (s->value == NULL || (k == 1 && !s->persistent))
                continue;
              key = *names[m] ? g_strconcat (names[m], ".", s->name, NULL) : g_strdup (s->name);
              value = keep_vars ? g_object_ref (GNN_TENSOR (s->value))
                                : gnn_tensor_detach (GNN_TENSOR (s->value));
              gnn_state_dict_set_tensor (state, key, value);
            }
        }
    }
  return g_steal_pointer (&state);
}

/* ---- loading ------------------------------------------------------------------------- */

typedef struct {
  GnnTensor *target;   /* the module's parameter or buffer */
  GnnTensor *source;   /* what goes into it */
} Pending;

static void
pending_free (gpointer data)
{
  Pending *p = data;

  g_object_unref (p->target);
  g_object_unref (p->source);
  g_free (p);
}

typedef struct {
  GnnStateDict *state;
  gboolean assign;
  GPtrArray *missing;     /* char * */
  GPtrArray *unexpected;  /* char * */
  GPtrArray *errors;      /* char *, PyTorch's error_msgs */
  GnnError first_code;    /* of the first of @errors */
  GPtrArray *pending;     /* Pending */
} LoadContext;

static void
add_error (LoadContext *ctx, GnnError code, char *message)
{
  if (ctx->errors->len == 0)
    ctx->first_code = code;
  g_ptr_array_add (ctx->errors, message);
}

static char *
shape_string (GnnTensor *t)
{
  guint ndim;
  const gint64 *shape = gnn_tensor_get_shape (t, &ndim);
  GString *s = g_string_new ("[");

  for (guint i = 0; i < ndim; i++)
    g_string_append_printf (s, "%s%" G_GINT64_FORMAT, i ? ", " : "", shape[i]);
  g_string_append_c (s, ']');
  return g_string_free (s, FALSE);
}

static gboolean
same_shape (GnnTensor *a, GnnTensor *b)
{
  guint na, nb;
  const gint64 *sa = gnn_tensor_get_shape (a, &na);
  const gint64 *sb = gnn_tensor_get_shape (b, &nb);

  return na == nb && (na == 0 || memcmp (sa, sb, na * sizeof (gint64)) == 0);
}

/* one expected key found in the state dict: checks it, and queues the copy */
static void
check_one (LoadContext *ctx, const char *key, GnnTensor *target, gboolean is_param)
{
  Entry *e = lookup (ctx->state, key);
  GnnTensor *input = entry_tensor (e);
  g_autoptr(GnnTensor) source = NULL;
  g_autoptr(GError) local = NULL;
  Pending *p;

  if (input == NULL)
    {
      add_error (ctx, GNN_ERROR_INVALID_ARGUMENT,
                 g_strdup_printf ("While copying the parameter named \"%s\", expected Tensor or "
                                  "Tensor-like object from checkpoint but received %s",
                                  key, G_VALUE_TYPE_NAME (&e->value)));
      return;
    }
  source = g_object_ref (input);
  /* backward compatibility, as PyTorch: a 1-element 1-d tensor loads into a 0-d one */
  if (gnn_tensor_get_ndim (target) == 0 && gnn_tensor_get_ndim (source) == 1 &&
      gnn_tensor_get_numel (source) == 1)
    {
      gint64 none[1] = { 1 };
      GnnTensor *scalar = gnn_tensor_reshape (source, none, 0, &local);
      if (scalar == NULL)
        goto failed;
      g_object_unref (source);
      source = scalar;
    }
  if (!same_shape (source, target))
    {
      g_autofree char *from = shape_string (source);
      g_autofree char *to = shape_string (target);
      add_error (ctx, GNN_ERROR_SHAPE,
                 g_strdup_printf ("size mismatch for %s: copying a param with shape %s from "
                                  "checkpoint, the shape in current model is %s.", key, from, to));
      return;
    }
  if (ctx->assign)
    {
      /* the module's tensor takes the checkpoint's storage, dtype and device, keeping its
       * identity and requires_grad */
      if (is_param && gnn_tensor_get_requires_grad (target) &&
          !gnn_dtype_is_floating (gnn_tensor_get_dtype (source)))
        {
          local = g_error_new (GNN_ERROR, GNN_ERROR_DTYPE,
                               "only tensors of floating point dtype can require gradients, got %s",
                               gnn_dtype_get_name (gnn_tensor_get_dtype (source)));
          goto failed;
        }
    }
  else
    {
      g_autoptr(GnnDevice) dt = gnn_tensor_get_device (target);
      g_autoptr(GnnDevice) ds = gnn_tensor_get_device (source);
      if (!gnn_device_equal (dt, ds))
        {
          g_autofree char *name = gnn_device_to_string (dt);
          GnnTensor *moved = gnn_tensor_to_device (source, name, &local);
          if (moved == NULL)
            goto failed;
          g_object_unref (source);
          source = moved;
        }
    }
  p = g_new0 (Pending, 1);
  p->target = g_object_ref (target);
  p->source = g_steal_pointer (&source);
  g_ptr_array_add (ctx->pending, p);
  return;

failed:
  {
    g_autofree char *from = shape_string (input);
    g_autofree char *to = shape_string (target);
    add_error (ctx, local->domain == GNN_ERROR ? (GnnError) local->code : GNN_ERROR_FAILED,
               g_strdup_printf ("While copying the parameter named \"%s\", whose dimensions in the "
                                "model are %s and whose dimensions in the checkpoint are %s, an "
                                "exception occurred : %s.", key, to, from, local->message));
  }
}

static gboolean
has_slot (GPtrArray *slots, const char *name, gsize len, gboolean need_value, gboolean need_persistent)
{
  for (guint i = 0; i < slots->len; i++)
    {
      GnnModuleSlot *s = slots->pdata[i];
      if (strlen (s->name) == len && strncmp (s->name, name, len) == 0)
        return (!need_value || s->value != NULL) && (!need_persistent || s->persistent);
    }
  return FALSE;
}

/* PyTorch's load (): @prefix ends with a dot, or is empty; @keys (const char *) are the keys
 * of the state dict that start with it, in order */
static gboolean
load_module (LoadContext *ctx, GnnModule *mod, const char *prefix, GPtrArray *keys, GError **error)
{
  GnnModulePrivate *priv = gnn_module_priv (mod);
  gsize plen = strlen (prefix);
  g_autofree char *extra_key = g_strconcat (prefix, "_extra_state", NULL);

  if (!gnn_module_ensure_setup (mod, error))
    return FALSE;

  /* _load_from_state_dict: parameters then persistent buffers */
  for (guint k = 0; k < 2; k++)
    {
      GPtrArray *slots = k == 0 ? priv->parameters : priv->buffers;
      for (guint i = 0; i < slots->len; i++)
        {
          GnnModuleSlot *s = slots->pdata[i];
          g_autofree char *key = NULL;

          if (s->value == NULL || (k == 1 && !s->persistent))
            continue;
          key = g_strconcat (prefix, s->name, NULL);
          if (lookup (ctx->state, key))
            check_one (ctx, key, GNN_TENSOR (s->value), k == 0);
          else
            g_ptr_array_add (ctx->missing, g_steal_pointer (&key));
        }
    }

  /* no module has extra state yet: an "_extra_state" key is unexpected, listed first */
  if (lookup (ctx->state, extra_key))
    g_ptr_array_add (ctx->unexpected, g_strdup (extra_key));
  for (guint i = 0; i < keys->len; i++)
    {
      const char *key = keys->pdata[i];
      const char *name = key + plen;
      const char *dot = strchr (name, '.');
      gsize len = dot ? (gsize) (dot - name) : strlen (name);

      if (g_str_equal (key, extra_key))
        continue;
      /* a submodule's name, even one registered as NULL, is not unexpected here */
      if (has_slot (priv->modules, name, len, FALSE, FALSE) ||
          has_slot (priv->parameters, name, len, TRUE, FALSE) ||
          has_slot (priv->buffers, name, len, TRUE, TRUE))
        continue;
      g_ptr_array_add (ctx->unexpected, g_strdup (key));
    }

  for (guint c = 0; c < priv->modules->len; c++)
    {
      GnnModuleSlot *s = priv->modules->pdata[c];
      g_autofree char *child_prefix = NULL;
      g_autoptr(GPtrArray) child_keys = NULL;

      if (s->value == NULL)
        continue;
      child_prefix = g_strconcat (prefix, s->name, ".", NULL);
      child_keys = g_ptr_array_new ();
      for (guint i = 0; i < keys->len; i++)
        if (g_str_has_prefix (keys->pdata[i], child_prefix))
          g_ptr_array_add (child_keys, keys->pdata[i]);
      if (!load_module (ctx, GNN_MODULE (s->value), child_prefix, child_keys, error))
        return FALSE;
    }
  return TRUE;
}

static char *
quoted_list (const char *what, GPtrArray *keys)
{
  GString *s = g_string_new (what);

  for (guint i = 0; i < keys->len; i++)
    g_string_append_printf (s, "%s\"%s\"", i ? ", " : "", (const char *) keys->pdata[i]);
  g_string_append (s, ". ");
  return g_string_free (s, FALSE);
}

static char **
strv_of (GPtrArray *list)
{
  char **v = g_new (char *, list->len + 1);

  for (guint i = 0; i < list->len; i++)
    v[i] = g_strdup (list->pdata[i]);
  v[list->len] = NULL;
  return v;
}

/**
 * gnn_module_load_state_dict:
 * @self: a module
 * @state: the state to load, such as one from [method@Gnn.Module.state_dict]
 * @strict: whether the keys of @state must be exactly the keys of the module's state dict
 * @assign: whether the module's tensors take the tensors of @state (their storage, dtype and
 *   device; parameters keep their identity and their requires_grad) instead of copying
 *   their values
 * @missing_keys: (out) (optional) (array zero-terminated=1) (transfer full): the keys the
 *   module expects that @state lacks
 * @unexpected_keys: (out) (optional) (array zero-terminated=1) (transfer full): the keys of
 *   @state the module does not expect
 * @error: return location for a #GError
 *
 * Loads parameters and persistent buffers from @state into the module tree
 * (`load_state_dict`). Each value is copied into the module's tensor without recording
 * gradients, converting its dtype and device as `Tensor.copy_` does.
 *
 * Keys follow PyTorch's rules: a key is unexpected when it names neither a parameter, a
 * persistent buffer nor a submodule of the module it falls in; a key for a parameter or
 * buffer registered as %NULL, or for a non-persistent buffer, is unexpected; keys under a
 * submodule registered as %NULL are ignored. The keys are checked whatever @strict: without
 * it, missing and unexpected keys are not errors, only reported in @missing_keys and
 * @unexpected_keys.
 *
 * Every problem is collected into one error, in PyTorch's words: "Error(s) in loading
 * state_dict for Net:" followed by a line for the missing keys, one for the unexpected keys
 * (when @strict) and one for each value whose shape differs from the module's
 * ("size mismatch for fc.weight: copying a param with shape [3, 4] from checkpoint, the
 * shape in current model is [3, 5]."). Unlike PyTorch, everything is checked before
 * anything is written, so a load that fails leaves the module unchanged.
 *
 * Modules with extra state (`get_extra_state` / `set_extra_state`) are not supported yet:
 * an "_extra_state" key is unexpected.
 *
 * Returns: %TRUE on success
 */
gboolean
gnn_module_load_state_dict (GnnModule     *self,
                            GnnStateDict  *state,
                            gboolean       strict,
                            gboolean       assign,
                            char        ***missing_keys,
                            char        ***unexpected_keys,
                            GError       **error)
{
  g_autoptr(GPtrArray) keys = NULL;
  g_autoptr(GPtrArray) missing = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) unexpected = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) errors = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) pending = g_ptr_array_new_with_free_func (pending_free);
  LoadContext ctx = { state, assign, missing, unexpected, errors, GNN_ERROR_FAILED, pending };

  if (missing_keys)
    *missing_keys = NULL;
  if (unexpected_keys)
    *unexpected_keys = NULL;
  g_return_val_if_fail (GNN_IS_MODULE (self), FALSE);
  g_return_val_if_fail (GNN_IS_STATE_DICT (state), FALSE);

  keys = g_ptr_array_sized_new (state->entries->len);
  for (guint i = 0; i < state->entries->len; i++)
    g_ptr_array_add (keys, ((Entry *) state->entries->pdata[i])->key);
  if (!load_module (&ctx, self, "", keys, error))
    return FALSE;

  if (strict)
    {
      if (unexpected->len > 0)
        {
          g_ptr_array_insert (errors, 0, quoted_list ("Unexpected key(s) in state_dict: ", unexpected));
          ctx.first_code = GNN_ERROR_INVALID_ARGUMENT;
        }
      if (missing->len > 0)
        {
          g_ptr_array_insert (errors, 0, quoted_list ("Missing key(s) in state_dict: ", missing));
          ctx.first_code = GNN_ERROR_INVALID_ARGUMENT;
        }
    }
  if (errors->len > 0)
    {
      g_autofree char *joined = NULL;

      g_ptr_array_add (errors, NULL);
      joined = g_strjoinv ("\n\t", (char **) errors->pdata);
      g_set_error (error, GNN_ERROR, ctx.first_code, "Error(s) in loading state_dict for %s:\n\t%s",
                   gnn_module_get_name (self), joined);
      return FALSE;
    }

  /* everything checked: write */
  {
    g_autoptr(GnnNoGradGuard) guard = gnn_no_grad_guard_new ();

    for (guint i = 0; i < pending->len; i++)
      {
        Pending *p = pending->pdata[i];
        gboolean ok = assign ? gnn_tensor_set_data (p->target, p->source, error)
                             : gnn_tensor_copy_ (p->target, p->source, error);
        if (!ok)
          return FALSE;
      }
  }

  if (missing_keys)
    *missing_keys = strv_of (missing);
  if (unexpected_keys)
    *unexpected_keys = strv_of (unexpected);
  return TRUE;
}
