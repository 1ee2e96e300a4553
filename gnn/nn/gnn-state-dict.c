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
 * Checks whether @key is in the state dict (`key in state`).
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
 * Returns the keys, in order (`state.keys ()`).
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
 * Returns the number of keys (`len (state)`).
 *
 * Returns: the number of keys (`len (state)`)
 */
guint
gnn_state_dict_get_length (GnnStateDict *self)
{
  g_return_val_if_fail (GNN_IS_STATE_DICT (self), 0);
  return self->entries->len;
}

/* ---- incompatible keys --------------------------------------------------------------- */

/**
 * GnnIncompatibleKeys:
 *
 * The missing and unexpected keys of a load (`_IncompatibleKeys`), as a
 * [callback@Gnn.LoadStateDictPostHookFunc] sees them. A hook may edit the lists; a strict
 * [method@Gnn.Module.load_state_dict] then checks the edited lists, and reports them.
 */

struct _GnnIncompatibleKeys
{
  GObject parent_instance;

  GPtrArray *missing;     /* char * */
  GPtrArray *unexpected;  /* char * */
};

G_DEFINE_FINAL_TYPE (GnnIncompatibleKeys, gnn_incompatible_keys, G_TYPE_OBJECT)

static void
gnn_incompatible_keys_finalize (GObject *object)
{
  GnnIncompatibleKeys *self = GNN_INCOMPATIBLE_KEYS (object);

  g_ptr_array_unref (self->missing);
  g_ptr_array_unref (self->unexpected);
  G_OBJECT_CLASS (gnn_incompatible_keys_parent_class)->finalize (object);
}

static void
gnn_incompatible_keys_class_init (GnnIncompatibleKeysClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = gnn_incompatible_keys_finalize;
}

static void
gnn_incompatible_keys_init (GnnIncompatibleKeys *self)
{
  self->missing = g_ptr_array_new_with_free_func (g_free);
  self->unexpected = g_ptr_array_new_with_free_func (g_free);
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

static void
set_list (GPtrArray *list, const char * const *keys)
{
  g_ptr_array_set_size (list, 0);
  for (guint i = 0; keys && keys[i]; i++)
    g_ptr_array_add (list, g_strdup (keys[i]));
}

static gboolean
remove_from_list (GPtrArray *list, const char *key)
{
  for (guint i = 0; i < list->len; i++)
    if (g_str_equal (list->pdata[i], key))
      {
        g_ptr_array_remove_index (list, i);
        return TRUE;
      }
  return FALSE;
}

/**
 * gnn_incompatible_keys_get_missing_keys:
 * @self: incompatible keys
 *
 * Returns the keys the module expects that the state dict lacks (`missing_keys`), in order.
 *
 * Returns: (transfer full) (array zero-terminated=1): the keys the module expects that the
 *   state dict lacks (`missing_keys`), in order
 */
char **
gnn_incompatible_keys_get_missing_keys (GnnIncompatibleKeys *self)
{
  g_return_val_if_fail (GNN_IS_INCOMPATIBLE_KEYS (self), NULL);
  return strv_of (self->missing);
}

/**
 * gnn_incompatible_keys_get_unexpected_keys:
 * @self: incompatible keys
 *
 * Returns the keys of the state dict the module does not expect (`unexpected_keys`), in order.
 *
 * Returns: (transfer full) (array zero-terminated=1): the keys of the state dict the module
 *   does not expect (`unexpected_keys`), in order
 */
char **
gnn_incompatible_keys_get_unexpected_keys (GnnIncompatibleKeys *self)
{
  g_return_val_if_fail (GNN_IS_INCOMPATIBLE_KEYS (self), NULL);
  return strv_of (self->unexpected);
}

/**
 * gnn_incompatible_keys_set_missing_keys:
 * @self: incompatible keys
 * @keys: (nullable) (array zero-terminated=1): the new missing keys; %NULL clears them
 *
 * Replaces the missing keys (`missing_keys[:] = keys`, or `missing_keys.clear ()`).
 */
void
gnn_incompatible_keys_set_missing_keys (GnnIncompatibleKeys *self,
                                        const char * const  *keys)
{
  g_return_if_fail (GNN_IS_INCOMPATIBLE_KEYS (self));
  set_list (self->missing, keys);
}

/**
 * gnn_incompatible_keys_set_unexpected_keys:
 * @self: incompatible keys
 * @keys: (nullable) (array zero-terminated=1): the new unexpected keys; %NULL clears them
 *
 * Replaces the unexpected keys (`unexpected_keys[:] = keys`, or `unexpected_keys.clear ()`).
 */
void
gnn_incompatible_keys_set_unexpected_keys (GnnIncompatibleKeys *self,
                                           const char * const  *keys)
{
  g_return_if_fail (GNN_IS_INCOMPATIBLE_KEYS (self));
  set_list (self->unexpected, keys);
}

/**
 * gnn_incompatible_keys_remove_missing_key:
 * @self: incompatible keys
 * @key: a key
 *
 * Removes the first occurrence of @key from the missing keys (`missing_keys.remove (key)`).
 *
 * Returns: whether @key was there
 */
gboolean
gnn_incompatible_keys_remove_missing_key (GnnIncompatibleKeys *self,
                                          const char          *key)
{
  g_return_val_if_fail (GNN_IS_INCOMPATIBLE_KEYS (self), FALSE);
  g_return_val_if_fail (key != NULL, FALSE);
  return remove_from_list (self->missing, key);
}

/**
 * gnn_incompatible_keys_remove_unexpected_key:
 * @self: incompatible keys
 * @key: a key
 *
 * Removes the first occurrence of @key from the unexpected keys
 * (`unexpected_keys.remove (key)`).
 *
 * Returns: whether @key was there
 */
gboolean
gnn_incompatible_keys_remove_unexpected_key (GnnIncompatibleKeys *self,
                                             const char          *key)
{
  g_return_val_if_fail (GNN_IS_INCOMPATIBLE_KEYS (self), FALSE);
  g_return_val_if_fail (key != NULL, FALSE);
  return remove_from_list (self->unexpected, key);
}

/* ---- hooks --------------------------------------------------------------------------- */

enum {
  SAVE_PRE,
  SAVE_POST,
  LOAD_PRE,
  LOAD_POST,
  N_HOOK_KINDS
};

/* reference counted, so that a hook that removes itself or another while the hooks of a
 * module run does not free one still to be called */
typedef struct {
  gint ref;
  guint id;
  gpointer func;
  gpointer data;
  GDestroyNotify destroy;
} Hook;

/* a module's state-dict hooks, kept as object data so that they go with the module */
typedef struct {
  GPtrArray *hooks[N_HOOK_KINDS];   /* Hook *, in registration order */
} HookLists;

static guint next_hook_id = 1;

static void
hook_unref (gpointer data)
{
  Hook *h = data;

  if (!g_atomic_int_dec_and_test (&h->ref))
    return;
  if (h->destroy)
    h->destroy (h->data);
  g_free (h);
}

static void
hook_lists_free (gpointer data)
{
  HookLists *lists = data;

  for (guint k = 0; k < N_HOOK_KINDS; k++)
    g_ptr_array_unref (lists->hooks[k]);
  g_free (lists);
}

static G_DEFINE_QUARK (gnn-state-dict-hooks, hooks)

static guint
add_hook (GnnModule *self, guint kind, gpointer func, gpointer data, GDestroyNotify destroy)
{
  HookLists *lists = g_object_get_qdata (G_OBJECT (self), hooks_quark ());
  Hook *h;

  if (lists == NULL)
    {
      lists = g_new0 (HookLists, 1);
      for (guint k = 0; k < N_HOOK_KINDS; k++)
        lists->hooks[k] = g_ptr_array_new_with_free_func (hook_unref);
      g_object_set_qdata_full (G_OBJECT (self), hooks_quark (), lists, hook_lists_free);
    }
  h = g_new0 (Hook, 1);
  h->ref = 1;
  h->id = (guint) g_atomic_int_add (&next_hook_id, 1);
  h->func = func;
  h->data = data;
  h->destroy = destroy;
  g_ptr_array_add (lists->hooks[kind], h);
  return h->id;
}

/* a snapshot of the module's hooks of @kind, each referenced; NULL when none */
static GPtrArray *
hooks_of (GnnModule *self, guint kind)
{
  HookLists *lists = g_object_get_qdata (G_OBJECT (self), hooks_quark ());
  GPtrArray *snap;

  if (lists == NULL || lists->hooks[kind]->len == 0)
    return NULL;
  snap = g_ptr_array_new_full (lists->hooks[kind]->len, hook_unref);
  for (guint i = 0; i < lists->hooks[kind]->len; i++)
    {
      Hook *h = lists->hooks[kind]->pdata[i];
      g_atomic_int_inc (&h->ref);
      g_ptr_array_add (snap, h);
    }
  return snap;
}

/* whether the hook is still registered: one removed by an earlier hook of the same call is
 * not called */
static gboolean
hook_alive (GnnModule *self, guint kind, Hook *h)
{
  HookLists *lists = g_object_get_qdata (G_OBJECT (self), hooks_quark ());
  guint idx;

  return lists != NULL && g_ptr_array_find (lists->hooks[kind], h, &idx);
}

/**
 * gnn_module_register_state_dict_pre_hook:
 * @self: a module
 * @func: (scope notified) (closure user_data) (destroy destroy): the hook
 * @user_data: data for @func
 * @destroy: (nullable): frees @user_data when the hook is removed or the module finalized
 *
 * Registers a hook that [method@Gnn.Module.state_dict] calls with the module, the prefix of
 * its keys and @keep_vars before the module saves its own entries
 * (`register_state_dict_pre_hook`). The hooks of a module run in registration order, before
 * those of its submodules.
 *
 * Returns: a handle for [method@Gnn.Module.remove_state_dict_hook]
 */
guint
gnn_module_register_state_dict_pre_hook (GnnModule               *self,
                                         GnnStateDictPreHookFunc  func,
                                         gpointer                 user_data,
                                         GDestroyNotify           destroy)
{
  g_return_val_if_fail (GNN_IS_MODULE (self), 0);
  g_return_val_if_fail (func != NULL, 0);
  return add_hook (self, SAVE_PRE, func, user_data, destroy);
}

/**
 * gnn_module_register_state_dict_post_hook:
 * @self: a module
 * @func: (scope notified) (closure user_data) (destroy destroy): the hook
 * @user_data: data for @func
 * @destroy: (nullable): frees @user_data when the hook is removed or the module finalized
 *
 * Registers a hook that [method@Gnn.Module.state_dict] calls with the module, the state dict
 * and the prefix of the module's keys after the module and all its submodules saved their
 * entries (`register_state_dict_post_hook`); the hook may edit the state dict in place. The
 * hooks of a module run in registration order, after those of its submodules.
 *
 * Returns: a handle for [method@Gnn.Module.remove_state_dict_hook]
 */
guint
gnn_module_register_state_dict_post_hook (GnnModule                *self,
                                          GnnStateDictPostHookFunc  func,
                                          gpointer                  user_data,
                                          GDestroyNotify            destroy)
{
  g_return_val_if_fail (GNN_IS_MODULE (self), 0);
  g_return_val_if_fail (func != NULL, 0);
  return add_hook (self, SAVE_POST, func, user_data, destroy);
}

/**
 * gnn_module_register_load_state_dict_pre_hook:
 * @self: a module
 * @func: (scope notified) (closure user_data) (destroy destroy): the hook
 * @user_data: data for @func
 * @destroy: (nullable): frees @user_data when the hook is removed or the module finalized
 *
 * Registers a hook that [method@Gnn.Module.load_state_dict] calls with the module, the
 * entries it loads from, the prefix of its keys and @strict before the module looks up its
 * own entries (`register_load_state_dict_pre_hook`). The hook may edit the entries in place,
 * to rename keys of an older checkpoint say: it sees a copy of the caller's state dict, the
 * part of it under the module's prefix, which the module's submodules then take their part
 * of. The hooks of a module run in registration order, before those of its submodules.
 *
 * Returns: a handle for [method@Gnn.Module.remove_state_dict_hook]
 */
guint
gnn_module_register_load_state_dict_pre_hook (GnnModule                   *self,
                                              GnnLoadStateDictPreHookFunc  func,
                                              gpointer                     user_data,
                                              GDestroyNotify               destroy)
{
  g_return_val_if_fail (GNN_IS_MODULE (self), 0);
  g_return_val_if_fail (func != NULL, 0);
  return add_hook (self, LOAD_PRE, func, user_data, destroy);
}

/**
 * gnn_module_register_load_state_dict_post_hook:
 * @self: a module
 * @func: (scope notified) (closure user_data) (destroy destroy): the hook
 * @user_data: data for @func
 * @destroy: (nullable): frees @user_data when the hook is removed or the module finalized
 *
 * Registers a hook that [method@Gnn.Module.load_state_dict] calls with the module and the
 * missing and unexpected keys after loading (`register_load_state_dict_post_hook`). The hook
 * may edit the keys: a strict load checks them after every hook ran, so removing a missing
 * key lets the load succeed and adding one makes it fail. The hooks of a module run in
 * registration order, after those of its submodules.
 *
 * Returns: a handle for [method@Gnn.Module.remove_state_dict_hook]
 */
guint
gnn_module_register_load_state_dict_post_hook (GnnModule                    *self,
                                               GnnLoadStateDictPostHookFunc  func,
                                               gpointer                      user_data,
                                               GDestroyNotify                destroy)
{
  g_return_val_if_fail (GNN_IS_MODULE (self), 0);
  g_return_val_if_fail (func != NULL, 0);
  return add_hook (self, LOAD_POST, func, user_data, destroy);
}

/**
 * gnn_module_remove_state_dict_hook:
 * @self: a module
 * @handle: a handle from one of the state-dict hook registrations of @self
 *
 * Removes a state-dict hook (`RemovableHandle.remove ()`), calling its destroy notify.
 *
 * Returns: whether a hook was removed
 */
gboolean
gnn_module_remove_state_dict_hook (GnnModule *self,
                                   guint      handle)
{
  HookLists *lists;

  g_return_val_if_fail (GNN_IS_MODULE (self), FALSE);
  lists = g_object_get_qdata (G_OBJECT (self), hooks_quark ());
  if (lists == NULL)
    return FALSE;
  for (guint k = 0; k < N_HOOK_KINDS; k++)
    for (guint i = 0; i < lists->hooks[k]->len; i++)
      if (((Hook *) lists->hooks[k]->pdata[i])->id == handle)
        {
          g_ptr_array_remove_index (lists->hooks[k], i);
          return TRUE;
        }
  return FALSE;
}

/* ---- saving -------------------------------------------------------------------------- */

/* PyTorch's recursive state_dict: pre-hooks, own entries (_save_to_state_dict), each
 * submodule, post-hooks; @prefix is empty or ends with a dot */
static gboolean
save_module (GnnModule    *mod,
             GnnStateDict *state,
             const char   *prefix,
             gboolean      keep_vars,
             GError      **error)
{
  GnnModulePrivate *priv = gnn_module_priv (mod);
  g_autoptr(GPtrArray) pre = NULL;
  g_autoptr(GPtrArray) post = NULL;

  if (!gnn_module_ensure_setup (mod, error))
    return FALSE;

  pre = hooks_of (mod, SAVE_PRE);
  for (guint i = 0; pre && i < pre->len; i++)
    {
      Hook *h = pre->pdata[i];
      if (hook_alive (mod, SAVE_PRE, h))
        ((GnnStateDictPreHookFunc) h->func) (mod, prefix, keep_vars, h->data);
    }

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
          key = g_strconcat (prefix, s->name, NULL);
          value = keep_vars ? g_object_ref (GNN_TENSOR (s->value))
                            : gnn_tensor_detach (GNN_TENSOR (s->value));
          gnn_state_dict_set_tensor (state, key, value);
        }
    }

  if (gnn_module_has_extra_state (mod))
    {
      g_autofree char *key = g_strconcat (prefix, "_extra_state", NULL);
      g_autoptr(GError) local = NULL;
      g_autoptr(GVariant) extra = gnn_module_get_extra_state (mod, &local);
      g_auto(GValue) v = G_VALUE_INIT;

      if (local)
        {
          g_propagate_prefixed_error (error, g_steal_pointer (&local),
                                      "get_extra_state of %s (\"%s\") failed: ",
                                      gnn_module_get_name (mod), key);
          return FALSE;
        }
      g_value_init (&v, G_TYPE_VARIANT);
      g_value_set_variant (&v, extra);
      gnn_state_dict_set_value (state, key, &v);
    }

  for (guint c = 0; c < priv->modules->len; c++)
    {
      GnnModuleSlot *s = priv->modules->pdata[c];
      g_autofree char *child_prefix = NULL;

      if (s->value == NULL)
        continue;
      child_prefix = g_strconcat (prefix, s->name, ".", NULL);
      if (!save_module (GNN_MODULE (s->value), state, child_prefix, keep_vars, error))
        return FALSE;
    }

  post = hooks_of (mod, SAVE_POST);
  for (guint i = 0; post && i < post->len; i++)
    {
      Hook *h = post->pdata[i];
      if (hook_alive (mod, SAVE_POST, h))
        ((GnnStateDictPostHookFunc) h->func) (mod, state, prefix, h->data);
    }
  return TRUE;
}

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
 * its persistent buffers, then its extra state, then the state of each submodule in turn, in
 * registration order; names registered with %NULL and non-persistent buffers are left out.
 * A module reachable under several names is saved under each.
 *
 * The extra state of a module whose class implements `get_extra_state`
 * ([method@Gnn.Module.get_extra_state]) is stored as a #GValue holding the #GVariant it
 * returned (or a %NULL one), under the key `_extra_state` after the module's prefix.
 *
 * Without @keep_vars, the values are detached tensors sharing storage with the module's
 * (`Tensor.detach`): writing into them changes the module.
 *
 * Hooks registered with [method@Gnn.Module.register_state_dict_pre_hook] run before a module
 * saves its entries, those of [method@Gnn.Module.register_state_dict_post_hook] after it and
 * its submodules did; both receive the prefix with its trailing dot ("model.block.").
 *
 * Returns: (transfer full): the state dict, or %NULL with @error set when a module's setup or
 *   its get_extra_state failed
 */
GnnStateDict *
gnn_module_state_dict (GnnModule  *self,
                       const char *prefix,
                       gboolean    keep_vars,
                       GError    **error)
{
  g_autofree char *root = NULL;
  g_autoptr(GnnStateDict) state = NULL;

  g_return_val_if_fail (GNN_IS_MODULE (self), NULL);
  if (prefix == NULL || *prefix == '\0')
    root = g_strdup ("");
  else if (g_str_has_suffix (prefix, "."))
    root = g_strdup (prefix);
  else
    root = g_strconcat (prefix, ".", NULL);
  state = gnn_state_dict_new ();
  if (!save_module (self, state, root, keep_vars, error))
    return NULL;
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
  GnnModule *module;   /* one with extra state */
  char *key;
  GVariant *state;     /* NULL: a NULL variant was saved, nothing to set */
} PendingExtra;

static void
pending_extra_free (gpointer data)
{
  PendingExtra *p = data;

  g_object_unref (p->module);
  g_free (p->key);
  g_clear_pointer (&p->state, g_variant_unref);
  g_free (p);
}

typedef struct {
  gboolean strict;
  gboolean assign;
  GPtrArray *missing;     /* char * */
  GPtrArray *unexpected;  /* char * */
  GPtrArray *errors;      /* char *, PyTorch's error_msgs */
  GnnError first_code;    /* of the first of @errors */
  GPtrArray *pending;     /* Pending */
  GPtrArray *extras;      /* PendingExtra */
  GPtrArray *post;        /* GnnModule *, those with load post-hooks, in the order they run */
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
check_one (LoadContext *ctx, GnnStateDict *local_state, const char *key, GnnTensor *target,
           gboolean is_param)
{
  Entry *e = lookup (local_state, key);
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
  if (g_object_get_data (G_OBJECT (target), GNN_TENSOR_LOAD_EXACT_DTYPE) != NULL &&
      gnn_tensor_get_dtype (source) != gnn_tensor_get_dtype (target))
    {
      add_error (ctx, GNN_ERROR_DTYPE,
                 g_strdup_printf ("dtype mismatch for %s: copying a tensor of dtype %s from "
                                  "checkpoint, the dtype in current model is %s.", key,
                                  gnn_dtype_get_name (gnn_tensor_get_dtype (source)),
                                  gnn_dtype_get_name (gnn_tensor_get_dtype (target))));
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
      const char *device = gnn_tensor_get_device (target);
      if (!g_str_equal (device, gnn_tensor_get_device (source)))
        {
          GnnTensor *moved = gnn_tensor_to_device (source, device, &local);
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


/* one module with extra state: checks its entry, and queues set_extra_state */
static void
check_extra (LoadContext *ctx, GnnModule *mod, GnnStateDict *local_state, const char *key)
{
  Entry *e = lookup (local_state, key);
  PendingExtra *p;

  if (e == NULL)
    {
      g_ptr_array_add (ctx->missing, g_strdup (key));
      return;
    }
  if (!G_VALUE_HOLDS (&e->value, G_TYPE_VARIANT))
    {
      add_error (ctx, GNN_ERROR_INVALID_ARGUMENT,
                 g_strdup_printf ("While loading the extra state \"%s\", expected a GVariant from "
                                  "checkpoint but received %s", key, G_VALUE_TYPE_NAME (&e->value)));
      return;
    }
  p = g_new0 (PendingExtra, 1);
  p->module = g_object_ref (mod);
  p->key = g_strdup (key);
  p->state = g_value_dup_variant (&e->value);
  g_ptr_array_add (ctx->extras, p);
}

/* PyTorch's load (): @prefix ends with a dot, or is empty; @local_state holds the entries
 * of the state dict under @prefix (all of them for the root), the module's own to edit */
static gboolean
load_module (LoadContext *ctx, GnnModule *mod, const char *prefix, GnnStateDict *local_state,
             GError **error)
{
  GnnModulePrivate *priv = gnn_module_priv (mod);
  gsize plen = strlen (prefix);
  g_autofree char *extra_key = g_strconcat (prefix, "_extra_state", NULL);
  gboolean has_extra = gnn_module_has_extra_state (mod);
  g_autoptr(GPtrArray) hooks = NULL;

  if (!gnn_module_ensure_setup (mod, error))
    return FALSE;

  hooks = hooks_of (mod, LOAD_PRE);
  for (guint i = 0; hooks && i < hooks->len; i++)
    {
      Hook *h = hooks->pdata[i];
      if (hook_alive (mod, LOAD_PRE, h))
        ((GnnLoadStateDictPreHookFunc) h->func) (mod, local_state, prefix, ctx->strict, h->data);
    }

  /* _load_from_state_dict: parameters, persistent buffers, then the extra state */
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
          if (lookup (local_state, key))
            check_one (ctx, local_state, key, GNN_TENSOR (s->value), k == 0);
          else
            g_ptr_array_add (ctx->missing, g_steal_pointer (&key));
        }
    }
  if (has_extra)
    check_extra (ctx, mod, local_state, extra_key);
  else if (lookup (local_state, extra_key))
    /* a module without extra state: its "_extra_state" key is unexpected, listed first */
    g_ptr_array_add (ctx->unexpected, g_strdup (extra_key));

  for (guint i = 0; i < local_state->entries->len; i++)
    {
      const char *key = ((Entry *) local_state->entries->pdata[i])->key;
      const char *name, *dot;
      gsize len;

      /* a pre-hook may have added keys outside the prefix: not this module's */
      if (!g_str_has_prefix (key, prefix) || g_str_equal (key, extra_key))
        continue;
      name = key + plen;
      dot = strchr (name, '.');
      len = dot ? (gsize) (dot - name) : strlen (name);
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
      g_autoptr(GnnStateDict) child_state = NULL;

      if (s->value == NULL)
        continue;
      child_prefix = g_strconcat (prefix, s->name, ".", NULL);
      child_state = gnn_state_dict_new ();
      for (guint i = 0; i < local_state->entries->len; i++)
        {
          Entry *e = local_state->entries->pdata[i];
          if (g_str_has_prefix (e->key, child_prefix))
            gnn_state_dict_set_value (child_state, e->key, &e->value);
        }
      if (!load_module (ctx, GNN_MODULE (s->value), child_prefix, child_state, error))
        return FALSE;
    }

  /* post-hooks run after the module's subtree, in PyTorch's order: children first */
  g_clear_pointer (&hooks, g_ptr_array_unref);
  hooks = hooks_of (mod, LOAD_POST);
  if (hooks)
    g_ptr_array_add (ctx->post, g_object_ref (mod));
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


/* sets @error from the collected errors, with the key lists first when @strict; FALSE when
 * there was something to report */
static gboolean
report (GnnModule *self, LoadContext *ctx, GPtrArray *missing, GPtrArray *unexpected, GError **error)
{
  g_autoptr(GPtrArray) lines = g_ptr_array_new_with_free_func (g_free);
  GnnError code = ctx->first_code;
  g_autofree char *joined = NULL;

  if (ctx->strict && missing->len > 0)
    g_ptr_array_add (lines, quoted_list ("Missing key(s) in state_dict: ", missing));
  if (ctx->strict && unexpected->len > 0)
    g_ptr_array_add (lines, quoted_list ("Unexpected key(s) in state_dict: ", unexpected));
  if (lines->len > 0)
    code = GNN_ERROR_INVALID_ARGUMENT;
  for (guint i = 0; i < ctx->errors->len; i++)
    g_ptr_array_add (lines, g_strdup (ctx->errors->pdata[i]));
  if (lines->len == 0)
    return TRUE;
  g_ptr_array_add (lines, NULL);
  joined = g_strjoinv ("\n\t", (char **) lines->pdata);
  g_set_error (error, GNN_ERROR, code, "Error(s) in loading state_dict for %s:\n\t%s",
               gnn_module_get_name (self), joined);
  return FALSE;
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
 * Loads parameters, persistent buffers and extra state from @state into the module tree
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
 * A module whose class implements `get_extra_state` expects an `_extra_state` key after its
 * prefix, holding a #GVariant (as [method@Gnn.Module.state_dict] stores it), and receives it
 * through [method@Gnn.Module.set_extra_state]; without that key, the key is missing. For
 * other modules, an `_extra_state` key is unexpected. A set_extra_state that fails fails the
 * load, with its error.
 *
 * Every problem is collected into one error, in PyTorch's words: "Error(s) in loading
 * state_dict for Net:" followed by a line for the missing keys, one for the unexpected keys
 * (when @strict) and one for each value whose shape differs from the module's
 * ("size mismatch for fc.weight: copying a param with shape [3, 4] from checkpoint, the
 * shape in current model is [3, 5]."). Unlike PyTorch, everything is checked before
 * anything is written, so a load that fails leaves the module unchanged — except in two
 * cases. The extra states are set first, so a set_extra_state that fails leaves the extra
 * states set before it. And when the tree has load post-hooks, which run after the values
 * are written, a strict load whose only problems are its keys writes the values, runs the
 * hooks and only then checks the (possibly edited) keys, as PyTorch does.
 *
 * Hooks: each module's [method@Gnn.Module.register_load_state_dict_pre_hook] hooks run
 * before it looks up its entries (a parent's before its children's); the
 * [method@Gnn.Module.register_load_state_dict_post_hook] hooks run after everything was
 * written, children's before their parent's, all seeing the keys of the whole load. A load
 * with problems in its values writes nothing and runs no post-hook.
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
  g_autoptr(GnnStateDict) copy = NULL;
  g_autoptr(GnnIncompatibleKeys) keys = NULL;
  g_autoptr(GPtrArray) errors = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) pending = g_ptr_array_new_with_free_func (pending_free);
  g_autoptr(GPtrArray) extras = g_ptr_array_new_with_free_func (pending_extra_free);
  g_autoptr(GPtrArray) post = g_ptr_array_new_with_free_func (g_object_unref);
  LoadContext ctx = { strict, assign, NULL, NULL, errors, GNN_ERROR_FAILED, pending, extras, post };

  if (missing_keys)
    *missing_keys = NULL;
  if (unexpected_keys)
    *unexpected_keys = NULL;
  g_return_val_if_fail (GNN_IS_MODULE (self), FALSE);
  g_return_val_if_fail (GNN_IS_STATE_DICT (state), FALSE);

  keys = g_object_new (GNN_TYPE_INCOMPATIBLE_KEYS, NULL);
  ctx.missing = keys->missing;
  ctx.unexpected = keys->unexpected;
  /* as PyTorch, the hooks edit a copy: the caller's state dict stays as it was */
  copy = gnn_state_dict_new ();
  for (guint i = 0; i < state->entries->len; i++)
    {
      Entry *e = state->entries->pdata[i];
      gnn_state_dict_set_value (copy, e->key, &e->value);
    }
  if (!load_module (&ctx, self, "", copy, error))
    return FALSE;

  /* problems in the values, or (without post-hooks to edit them) in the keys: nothing is
   * written */
  if (errors->len > 0 || post->len == 0)
    if (!report (self, &ctx, keys->missing, keys->unexpected, error))
      return FALSE;

  /* everything checked: write */
  for (guint i = 0; i < extras->len; i++)
    {
      PendingExtra *p = extras->pdata[i];
      GError *local = NULL;

      if (p->state == NULL)
        continue;
      if (!gnn_module_set_extra_state (p->module, p->state, &local))
        {
          g_propagate_prefixed_error (error, local,
                                      "Error(s) in loading state_dict for %s:\n\tWhile setting the "
                                      "extra state \"%s\", an exception occurred : ",
                                      gnn_module_get_name (self), p->key);
          return FALSE;
        }
    }
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

  for (guint m = 0; m < post->len; m++)
    {
      GnnModule *mod = post->pdata[m];
      g_autoptr(GPtrArray) hooks = hooks_of (mod, LOAD_POST);

      for (guint i = 0; hooks && i < hooks->len; i++)
        {
          Hook *h = hooks->pdata[i];
          if (hook_alive (mod, LOAD_POST, h))
            ((GnnLoadStateDictPostHookFunc) h->func) (mod, keys, h->data);
        }
    }
  if (post->len > 0 && !report (self, &ctx, keys->missing, keys->unexpected, error))
    return FALSE;

  if (missing_keys)
    *missing_keys = strv_of (keys->missing);
  if (unexpected_keys)
    *unexpected_keys = strv_of (keys->unexpected);
  return TRUE;
}
