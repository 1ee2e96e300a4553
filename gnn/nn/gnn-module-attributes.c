/* gnn-module-attributes.c: tensors a module's forward reads by name that are neither parameters
 * nor buffers
 *
 * PyTorch's modules read `self.weight` as an attribute, and what stands behind the name may be a
 * parameter, a buffer, a plain tensor set with `setattr` (pruning's recomputed `weight`) or a
 * property computed on every read (parametrize's `weight`). A gnn layer's forward reads its
 * tensors through gnn_module_tensor(), which looks in the same places.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include "gnn-module.h"
#include "gnn-module-private.h"
#include "core/gnn-error.h"
#include "core/gnn-tensor.h"

struct _GnnModuleAttribute {
  char *name;
  GnnTensor *tensor;              /* a plain attribute; for a computed one the last value read
                                   * outside a forward call */
  GnnModuleTensorGetter getter;   /* NULL: a plain attribute */
  gpointer data;
  GDestroyNotify destroy;
};

/* how many computed attributes exist in the process: while none does, a forward call does not
 * look at the per-thread list below */
gint gnn_module_computed_attributes;

/* the values computed during the outermost forward call running on this thread, kept until it
 * returns, so that forward code may borrow them */
typedef struct {
  guint depth;
  GPtrArray *kept;
} ForwardScope;

static void
forward_scope_free (gpointer data)
{
  ForwardScope *scope = data;

  g_clear_pointer (&scope->kept, g_ptr_array_unref);
  g_free (scope);
}

static GPrivate forward_scope_key = G_PRIVATE_INIT (forward_scope_free);

static ForwardScope *
forward_scope (void)
{
  ForwardScope *scope = g_private_get (&forward_scope_key);

  if (scope == NULL)
    {
      scope = g_new0 (ForwardScope, 1);
      g_private_set (&forward_scope_key, scope);
    }
  return scope;
}

void
gnn_module_forward_scope_enter (void)
{
  forward_scope ()->depth++;
}

void
gnn_module_forward_scope_leave (void)
{
  ForwardScope *scope = forward_scope ();

  if (scope->depth > 0 && --scope->depth == 0 && scope->kept)
    g_ptr_array_set_size (scope->kept, 0);
}

void
gnn_module_attribute_free (gpointer data)
{
  GnnModuleAttribute *a = data;

  if (a->getter)
    g_atomic_int_dec_and_test (&gnn_module_computed_attributes);
  if (a->destroy)
    a->destroy (a->data);
  g_clear_object (&a->tensor);
  g_free (a->name);
  g_free (a);
}

GnnModuleAttribute *
gnn_module_find_attribute (GnnModule  *self,
                           const char *name)
{
  GPtrArray *attrs = gnn_module_priv (self)->attributes;

  for (guint i = 0; attrs && i < attrs->len; i++)
    {
      GnnModuleAttribute *a = attrs->pdata[i];
      if (strcmp (a->name, name) == 0)
        return a;
    }
  return NULL;
}

static void
remove_attribute (GnnModule *self, GnnModuleAttribute *a)
{
  g_ptr_array_remove (gnn_module_priv (self)->attributes, a);
}

static GnnModuleAttribute *
add_attribute (GnnModule *self, const char *name)
{
  GnnModulePrivate *priv = gnn_module_priv (self);
  GnnModuleAttribute *a = g_new0 (GnnModuleAttribute, 1);

  if (priv->attributes == NULL)
    priv->attributes = g_ptr_array_new_with_free_func (gnn_module_attribute_free);
  a->name = g_strdup (name);
  g_ptr_array_add (priv->attributes, a);
  return a;
}

/* A name a tensor attribute may take: not empty, no dots, not a slot or a property. */
static gboolean
check_attribute_name (GnnModule *self, const char *name, GError **error)
{
  GnnModulePrivate *priv = gnn_module_priv (self);
  const char *kind = NULL;
  GParamSpec *pspec;

  if (name == NULL || *name == '\0' || strchr (name, '.'))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "attribute name can't be empty or contain \".\", got: \"%s\"", name ? name : "");
      return FALSE;
    }
  if (gnn_module_find_slot (priv->parameters, name))
    kind = "parameter";
  else if (gnn_module_find_slot (priv->buffers, name))
    kind = "buffer";
  else if (gnn_module_find_slot (priv->modules, name))
    kind = "child module";
  if (kind)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "cannot assign a tensor attribute '%s' to %s: it is a %s (remove it first)", name,
                   gnn_module_get_name (self), kind);
      return FALSE;
    }
  /* a construct-only property is a constructor argument (Linear's `bias`): the attribute
   * may take its name, as a parameter may; other properties are attributes already */
  pspec = g_object_class_find_property (G_OBJECT_GET_CLASS (self), name);
  if (pspec && !(pspec->flags & G_PARAM_CONSTRUCT_ONLY))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "cannot assign a tensor attribute '%s' to %s: it is a property", name,
                   gnn_module_get_name (self));
      return FALSE;
    }
  return TRUE;
}

/**
 * gnn_module_set_tensor_attribute:
 * @self: a module
 * @name: the attribute's name: not empty, without dots, not a parameter, buffer, submodule or
 *   read-write property of @self (a construct-only property may share it, as Linear's `bias`)
 * @tensor: (nullable): the tensor; %NULL removes the attribute
 * @error: return location for a #GError
 *
 * Sets a plain tensor attribute: a tensor that @self's forward reads under @name as it reads a
 * parameter, without it being one (`setattr (module, name, tensor)` for a tensor that is not a
 * `Parameter`). Such an attribute is not in the state dict, not listed by
 * [method@Gnn.Module.parameters] and not moved by [method@Gnn.Module.to_device]: pruning's
 * recomputed `weight` is one.
 *
 * A layer's `weight` that should become such an attribute is removed first
 * ([method@Gnn.Module.remove]); registering a parameter or buffer under the name of an attribute
 * fails until the attribute is removed, as in PyTorch. An attribute computed by a
 * parametrization cannot be set this way.
 *
 * Returns: %TRUE on success
 *
 * Since: 0.1
 */
gboolean
gnn_module_set_tensor_attribute (GnnModule  *self,
                                 const char *name,
                                 GnnTensor  *tensor,
                                 GError    **error)
{
  GnnModuleAttribute *a;

  g_return_val_if_fail (GNN_IS_MODULE (self), FALSE);
  g_return_val_if_fail (tensor == NULL || GNN_IS_TENSOR (tensor), FALSE);
  a = name ? gnn_module_find_attribute (self, name) : NULL;
  if (a && a->getter)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "cannot assign the attribute '%s' of %s: it is computed by a parametrization", name,
                   gnn_module_get_name (self));
      return FALSE;
    }
  if (tensor == NULL)
    {
      if (a)
        remove_attribute (self, a);
      return TRUE;
    }
  if (a == NULL)
    {
      if (!check_attribute_name (self, name, error))
        return FALSE;
      a = add_attribute (self, name);
    }
  g_set_object (&a->tensor, tensor);
  return TRUE;
}

gboolean
gnn_module_set_tensor_getter (GnnModule            *self,
                              const char           *name,
                              GnnModuleTensorGetter getter,
                              gpointer              data,
                              GDestroyNotify        destroy,
                              GError              **error)
{
  GnnModuleAttribute *a;

  g_return_val_if_fail (GNN_IS_MODULE (self), FALSE);
  g_return_val_if_fail (name != NULL, FALSE);
  a = gnn_module_find_attribute (self, name);
  if (getter == NULL)
    {
      if (a && a->getter)
        remove_attribute (self, a);
      if (destroy)
        destroy (data);
      return TRUE;
    }
  if (a && a->getter == NULL)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "the attribute '%s' of %s is a plain tensor: remove it first", name,
                   gnn_module_get_name (self));
      goto fail;
    }
  if (a == NULL)
    {
      if (!check_attribute_name (self, name, error))
        goto fail;
      a = add_attribute (self, name);
    }
  else
    {
      if (a->destroy)
        a->destroy (a->data);
      g_atomic_int_dec_and_test (&gnn_module_computed_attributes);
    }
  a->getter = getter;
  a->data = data;
  a->destroy = destroy;
  g_clear_object (&a->tensor);
  g_atomic_int_inc (&gnn_module_computed_attributes);
  return TRUE;

fail:
  if (destroy)
    destroy (data);
  return FALSE;
}

gpointer
gnn_module_get_tensor_getter_data (GnnModule  *self,
                                   const char *name)
{
  GnnModuleAttribute *a = gnn_module_find_attribute (self, name);

  return a && a->getter ? a->data : NULL;
}

/* the tensor @name reads as on @self itself, borrowed (see gnn_module_tensor) */
static GnnTensor *
lookup_tensor (GnnModule *self, const char *name, gboolean *found, GError **error)
{
  GnnModulePrivate *priv = gnn_module_priv (self);
  GnnModuleSlot *s;
  GnnModuleAttribute *a;
  GnnTensor *value;
  ForwardScope *scope;

  *found = TRUE;
  if ((s = gnn_module_find_slot (priv->parameters, name)) && s->value)
    return GNN_TENSOR (s->value);
  if ((s = gnn_module_find_slot (priv->buffers, name)) && s->value)
    return GNN_TENSOR (s->value);
  a = gnn_module_find_attribute (self, name);
  if (a == NULL)
    {
      *found = FALSE;
      return NULL;
    }
  if (a->getter == NULL)
    return a->tensor;
  value = a->getter (self, name, a->data, error);
  if (value == NULL)
    {
      if (error && *error == NULL)
        g_set_error (error, GNN_ERROR, GNN_ERROR_FAILED, "computing the attribute '%s' of %s failed",
                     name, gnn_module_get_name (self));
      return NULL;
    }
  scope = forward_scope ();
  if (scope->depth > 0)
    {
      if (scope->kept == NULL)
        scope->kept = g_ptr_array_new_with_free_func (g_object_unref);
      g_ptr_array_add (scope->kept, value);
    }
  else
    {
      g_clear_object (&a->tensor);
      a->tensor = value;
    }
  return value;
}

GnnTensor *
gnn_module_tensor (GnnModule  *self,
                   const char *name,
                   gboolean    required,
                   GError    **error)
{
  gboolean found;
  GError *local = NULL;
  GnnTensor *t;

  g_return_val_if_fail (GNN_IS_MODULE (self), NULL);
  g_return_val_if_fail (name != NULL, NULL);
  t = lookup_tensor (self, name, &found, &local);
  if (local)
    {
      g_propagate_error (error, local);
      return NULL;
    }
  if (t == NULL && required)
    g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT, "%s has no parameter `%s`",
                 gnn_module_get_name (self), name);
  return t;
}

/**
 * gnn_module_get_tensor:
 * @self: a module
 * @target: a dotted path such as "net.0.weight"
 * @error: return location for a #GError
 *
 * Returns the tensor that the module at the path's prefix reads under the path's last name
 * when it runs, as `getattr (module, name)` does in PyTorch: a parameter, a buffer, a plain
 * tensor attribute ([method@Gnn.Module.set_tensor_attribute]) or one computed by a
 * parametrization, which is computed anew by this call.
 *
 * Returns: (transfer full): the tensor, or %NULL with @error set when there is none (or
 *   computing it failed)
 *
 * Since: 0.1
 */
GnnTensor *
gnn_module_get_tensor (GnnModule  *self,
                       const char *target,
                       GError    **error)
{
  GnnModule *owner;
  const char *leaf;
  gboolean found;
  GError *local = NULL;
  GnnTensor *t;
  ForwardScope *scope;
  guint depth;

  g_return_val_if_fail (GNN_IS_MODULE (self), NULL);
  g_return_val_if_fail (target != NULL, NULL);
  owner = gnn_module_owner_of (self, target, &leaf, error);
  if (owner == NULL)
    return NULL;
  /* a computed value read here belongs to the caller: read it as outside a forward call */
  scope = forward_scope ();
  depth = scope->depth;
  scope->depth = 0;
  t = lookup_tensor (owner, leaf, &found, &local);
  scope->depth = depth;
  if (local)
    {
      g_propagate_error (error, local);
      return NULL;
    }
  if (t == NULL)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT, "%s has no attribute `%s`",
                   gnn_module_get_name (owner), leaf);
      return NULL;
    }
  return g_object_ref (t);
}

/**
 * gnn_module_list_tensor_attributes:
 * @self: a module
 *
 * The names of @self's tensor attributes: the plain ones and those computed by
 * parametrizations, in the order they were set. Parameters and buffers are not listed.
 *
 * Returns: (transfer full) (array zero-terminated=1): the names
 *
 * Since: 0.1
 */
char **
gnn_module_list_tensor_attributes (GnnModule *self)
{
  GPtrArray *attrs;
  GPtrArray *names = g_ptr_array_new ();

  g_return_val_if_fail (GNN_IS_MODULE (self), NULL);
  attrs = gnn_module_priv (self)->attributes;
  for (guint i = 0; attrs && i < attrs->len; i++)
    g_ptr_array_add (names, g_strdup (((GnnModuleAttribute *) attrs->pdata[i])->name));
  g_ptr_array_add (names, NULL);
  return (char **) g_ptr_array_free (names, FALSE);
}

/* deepcopy: plain attributes are copied as detached clones (PyTorch's deepcopy copies them);
 * computed ones are not (like hooks, their functions belong to whoever installed them) */
gboolean
gnn_module_copy_tensor_attributes (GnnModule  *dst,
                                   GnnModule  *src,
                                   GError    **error)
{
  GPtrArray *attrs = gnn_module_priv (src)->attributes;

  for (guint i = 0; attrs && i < attrs->len; i++)
    {
      GnnModuleAttribute *a = attrs->pdata[i];
      g_autoptr(GnnTensor) detached = NULL, clone = NULL;

      if (a->getter || a->tensor == NULL)
        continue;
      detached = gnn_tensor_detach (a->tensor);
      clone = gnn_tensor_clone (detached, error);
      if (clone == NULL || !gnn_module_set_tensor_attribute (dst, a->name, clone, error))
        return FALSE;
    }
  return TRUE;
}
