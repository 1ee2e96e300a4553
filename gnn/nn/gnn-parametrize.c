/* gnn-parametrize.c: parametrizations of a module's tensors, as torch.nn.utils.parametrize
 *
 * register_parametrization (module, "weight", p) moves the parameter (or buffer) `weight` of
 * the module into `module.parametrizations.weight`, a ParametrizationList holding `original`
 * (or `original0`, `original1`, ... when p's right_inverse gives several tensors) and the
 * parametrizations as its children `0`, `1`, ...; `weight` becomes a computed tensor attribute
 * (gnn-module-attributes.c) whose value is p (original), recomputed on every read, or once per
 * cached scope. The state-dict keys are torch's: `parametrizations.weight.original` and
 * `parametrizations.weight.0.<p's own>`.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include "gnn-parametrize.h"
#include "gnn-containers.h"
#include "gnn-parameter.h"
#include "gnn-conv.h"
#include "gnn-init.h"
#include "ops/gnn-ops.h"
#include "gnn-module-private.h"
#include "core/gnn-error.h"
#include "core/gnn-tensor-private.h"
#include "autograd/graph/gnn-grad-mode.h"

/* ---- right_inverse --------------------------------------------------------------------- */

typedef struct {
  GnnRightInverseFunc func;
  gpointer data;
  GDestroyNotify destroy;
} RightInverse;

static void
right_inverse_free (gpointer data)
{
  RightInverse *ri = data;

  if (ri->destroy)
    ri->destroy (ri->data);
  g_free (ri);
}

static GQuark
right_inverse_quark (void)
{
  return g_quark_from_static_string ("gnn-parametrization-right-inverse");
}

/**
 * gnn_parametrization_set_right_inverse:
 * @parametrization: a module used as a parametrization
 * @func: (nullable) (scope notified) (closure user_data) (destroy destroy): its right inverse;
 *   %NULL removes it
 * @user_data: data for @func
 * @destroy: (nullable): frees @user_data when the function is replaced or @parametrization goes
 *
 * Gives @parametrization a `right_inverse`, as a PyTorch parametrization module has one as a
 * method: [func@Gnn.register_parametrization] applies it to the tensor being parametrized, and
 * assigning the parametrized tensor ([func@Gnn.parametrize_set_tensor]) goes through it.
 * A parametrization without one acts, at registration, as if its right inverse were the
 * identity. The Python overrides install the `right_inverse` method of a Python class.
 *
 * Since: 0.1
 */
void
gnn_parametrization_set_right_inverse (GnnModule          *parametrization,
                                       GnnRightInverseFunc func,
                                       gpointer            user_data,
                                       GDestroyNotify      destroy)
{
  RightInverse *ri = NULL;

  g_return_if_fail (GNN_IS_MODULE (parametrization));
  if (func)
    {
      ri = g_new0 (RightInverse, 1);
      ri->func = func;
      ri->data = user_data;
      ri->destroy = destroy;
    }
  else if (destroy)
    destroy (user_data);
  g_object_set_qdata_full (G_OBJECT (parametrization), right_inverse_quark (), ri,
                           ri ? right_inverse_free : NULL);
}

/**
 * gnn_parametrization_has_right_inverse:
 * @parametrization: a module
 *
 * Whether @parametrization has a `right_inverse` ([func@Gnn.parametrization_set_right_inverse]).
 *
 * Returns: %TRUE when it has one
 *
 * Since: 0.1
 */
gboolean
gnn_parametrization_has_right_inverse (GnnModule *parametrization)
{
  g_return_val_if_fail (GNN_IS_MODULE (parametrization), FALSE);
  return g_object_get_qdata (G_OBJECT (parametrization), right_inverse_quark ()) != NULL;
}

/* @p's right inverse of @value: the tensors, with *@sequence telling a sequence from one
 * tensor; NULL with @error set when it fails */
static GPtrArray *
call_right_inverse (GnnModule *p, GnnTensor *value, gboolean *sequence, GError **error)
{
  RightInverse *ri = g_object_get_qdata (G_OBJECT (p), right_inverse_quark ());
  g_autoptr(GnnArgs) out = gnn_args_new ();
  GError *local = NULL;
  GPtrArray *tensors;
  const GValue *seq;
  guint n;

  g_assert (ri != NULL);
  if (!ri->func (p, value, out, ri->data, &local))
    {
      if (local == NULL)
        local = g_error_new (GNN_ERROR, GNN_ERROR_FAILED, "right_inverse of %s failed",
                             gnn_module_get_name (p));
      g_propagate_error (error, local);
      return NULL;
    }
  n = gnn_args_get_n_values (out);
  seq = gnn_args_get_kwarg (out, "sequence");
  *sequence = n != 1 || (seq && G_VALUE_HOLDS_BOOLEAN (seq) && g_value_get_boolean (seq));
  tensors = g_ptr_array_new_with_free_func (g_object_unref);
  for (guint i = 0; i < n; i++)
    {
      if (!gnn_args_is_tensor (out, i))
        {
          const GValue *v = gnn_args_get_value (out, i);
          if (*sequence)
            g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                         "'right_inverse' must return a Tensor or a Sequence of tensors (list, "
                         "tuple...). Got element %u of the sequence with type %s.", i,
                         v ? G_VALUE_TYPE_NAME (v) : "NoneType");
          else
            g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                         "'right_inverse' must return a Tensor or a Sequence of tensors (list, "
                         "tuple...). Got %s", v ? G_VALUE_TYPE_NAME (v) : "NoneType");
          g_ptr_array_unref (tensors);
          return NULL;
        }
      g_ptr_array_add (tensors, g_object_ref (gnn_args_get_tensor (out, i, NULL)));
    }
  return tensors;
}

/* ---- messages -------------------------------------------------------------------------- */

static char *
size_string (GnnTensor *t)
{
  guint ndim = gnn_tensor_get_ndim (t);
  g_autofree char *s = gnn_shape_to_string (ndim, gnn_tensor_get_shape (t, NULL));

  return g_strdup_printf ("torch.Size(%s)", s);
}

static gboolean
same_shape (GnnTensor *a, guint ndim, const gint64 *shape)
{
  return gnn_tensor_get_ndim (a) == ndim &&
         memcmp (gnn_tensor_get_shape (a, NULL), shape, ndim * sizeof (gint64)) == 0;
}

/* ---- ParametrizationList --------------------------------------------------------------- */

/**
 * GnnParametrizationList:
 *
 * The parametrizations of one tensor of a module, as torch's
 * `torch.nn.utils.parametrize.ParametrizationList`: the parametrizations are its children `0`,
 * `1`, ... (applied in that order), the unparametrized tensor its parameter (or buffer)
 * `original`, or `original0`, `original1`, ... when the first parametrization's right inverse
 * gave several tensors. Its forward takes no input and returns the parametrized tensor.
 * [func@Gnn.register_parametrization] makes one; it lives in the module's
 * `parametrizations` ModuleDict under the tensor's name.
 *
 * Since: 0.1
 */
struct _GnnParametrizationList
{
  GnnModule parent_instance;
  gboolean unsafe;
  gboolean is_tensor;
  guint n_tensors;
};

G_DEFINE_FINAL_TYPE (GnnParametrizationList, gnn_parametrization_list, GNN_TYPE_MODULE)

static char *
original_name (GnnParametrizationList *self, guint i)
{
  return self->is_tensor ? g_strdup ("original") : g_strdup_printf ("original%u", i);
}

/* the tensor `original` (or `original<i>`), borrowed */
static GnnTensor *
list_original (GnnParametrizationList *self, guint i)
{
  g_autofree char *name = original_name (self, i);

  return gnn_module_tensor (GNN_MODULE (self), name, FALSE, NULL);
}

static GnnArgs *
gnn_parametrization_list_forward (GnnModule *module,
                                  GnnArgs   *input,
                                  GError   **error)
{
  GnnParametrizationList *self = GNN_PARAMETRIZATION_LIST (module);
  GnnArgs *args = gnn_args_new ();
  guint n = gnn_parametrization_list_get_length (self);

  for (guint i = 0; i < self->n_tensors; i++)
    {
      GnnTensor *o = list_original (self, i);
      if (o == NULL)
        {
          g_autofree char *name = original_name (self, i);
          g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                       "ParametrizationList has no tensor '%s'", name);
          g_object_unref (args);
          return NULL;
        }
      gnn_args_add_tensor (args, o);
    }
  for (guint k = 0; k < n; k++)
    {
      GnnModule *p = gnn_parametrization_list_get (self, (int) k, NULL);
      GnnArgs *out = gnn_module_forward (p, args, error);
      GnnTensor *t;

      g_object_unref (args);
      if (out == NULL)
        return NULL;
      if (gnn_args_get_n_values (out) != 1 || !gnn_args_is_tensor (out, 0))
        {
          const GValue *v = gnn_args_get_n_values (out) ? gnn_args_get_value (out, 0) : NULL;
          g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                       "A parametrization must return a tensor. Got %s.",
                       gnn_args_get_n_values (out) > 1 ? "tuple"
                       : v && G_VALUE_TYPE (v) != G_TYPE_INVALID ? G_VALUE_TYPE_NAME (v) : "NoneType");
          g_object_unref (out);
          return NULL;
        }
      t = gnn_args_get_tensor (out, 0, NULL);
      args = gnn_args_new_tensor (t);
      g_object_unref (out);
    }
  return args;
}

static void
gnn_parametrization_list_class_init (GnnParametrizationListClass *klass)
{
  GNN_MODULE_CLASS (klass)->forward = gnn_parametrization_list_forward;
}

static void
gnn_parametrization_list_init (GnnParametrizationList *self)
{
  self->is_tensor = TRUE;
  self->n_tensors = 1;
}

/**
 * gnn_parametrization_list_get_length:
 * @self: a ParametrizationList
 *
 * The number of parametrizations in the chain (`len (plist)`).
 *
 * Returns: the length
 *
 * Since: 0.1
 */
guint
gnn_parametrization_list_get_length (GnnParametrizationList *self)
{
  guint n = 0;

  g_return_val_if_fail (GNN_IS_PARAMETRIZATION_LIST (self), 0);
  for (;; n++)
    {
      char name[16];
      g_snprintf (name, sizeof name, "%u", n);
      if (gnn_module_get_submodule (GNN_MODULE (self), name, NULL) == NULL)
        return n;
    }
}

/**
 * gnn_parametrization_list_get:
 * @self: a ParametrizationList
 * @index: the position, negative from the end
 * @error: return location for a #GError
 *
 * The parametrization at @index (`plist[index]`).
 *
 * Returns: (transfer none): the parametrization, or %NULL with @error set
 *   (%GNN_ERROR_INDEX) when @index is out of range
 *
 * Since: 0.1
 */
GnnModule *
gnn_parametrization_list_get (GnnParametrizationList *self,
                              int                     index,
                              GError                **error)
{
  guint n;
  char name[16];

  g_return_val_if_fail (GNN_IS_PARAMETRIZATION_LIST (self), NULL);
  n = gnn_parametrization_list_get_length (self);
  if (index < -(int) n || index >= (int) n)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INDEX, "index %d is out of range", index);
      return NULL;
    }
  if (index < 0)
    index += (int) n;
  g_snprintf (name, sizeof name, "%d", index);
  return gnn_module_get_submodule (GNN_MODULE (self), name, error);
}

/**
 * gnn_parametrization_list_get_unsafe:
 * @self: a ParametrizationList
 *
 * Whether any of the parametrizations was registered with `unsafe`.
 *
 * Returns: the flag
 *
 * Since: 0.1
 */
gboolean
gnn_parametrization_list_get_unsafe (GnnParametrizationList *self)
{
  g_return_val_if_fail (GNN_IS_PARAMETRIZATION_LIST (self), FALSE);
  return self->unsafe;
}

/**
 * gnn_parametrization_list_get_n_tensors:
 * @self: a ParametrizationList
 *
 * How many unparametrized tensors it holds (`ntensors`): 1 for `original`, else the length of
 * the sequence the right inverse gave.
 *
 * Returns: the count
 *
 * Since: 0.1
 */
guint
gnn_parametrization_list_get_n_tensors (GnnParametrizationList *self)
{
  g_return_val_if_fail (GNN_IS_PARAMETRIZATION_LIST (self), 0);
  return self->n_tensors;
}

/**
 * gnn_parametrization_list_get_is_tensor:
 * @self: a ParametrizationList
 *
 * Whether the unparametrized tensor is the one `original` (`is_tensor`) rather than a
 * sequence `original0`, `original1`, ...
 *
 * Returns: the flag
 *
 * Since: 0.1
 */
gboolean
gnn_parametrization_list_get_is_tensor (GnnParametrizationList *self)
{
  g_return_val_if_fail (GNN_IS_PARAMETRIZATION_LIST (self), FALSE);
  return self->is_tensor;
}

static gboolean
register_original (GnnModule *owner, const char *name, GnnTensor *t, GError **error)
{
  if (GNN_IS_PARAMETER (t))
    return gnn_module_register_parameter (owner, name, GNN_PARAMETER (t), error);
  return gnn_module_register_buffer (owner, name, t, TRUE, error);
}

/* runs the chain's right inverses, last to first, on @value: the tensors the first gives */
static GPtrArray *
chain_right_inverse (GnnParametrizationList *self, GnnTensor *value, gboolean at_registration,
                     gboolean *sequence, GError **error)
{
  guint n = gnn_parametrization_list_get_length (self);
  GPtrArray *cur = g_ptr_array_new_with_free_func (g_object_unref);

  *sequence = FALSE;
  g_ptr_array_add (cur, g_object_ref (value));
  for (int k = (int) n - 1; k >= 0; k--)
    {
      GnnModule *p = gnn_parametrization_list_get (self, k, NULL);
      GError *local = NULL;
      GPtrArray *next;

      if (*sequence)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                       "the right_inverse of parametrization %u gave a sequence of tensors: only "
                       "the first parametrization's may", (guint) k + 1);
          goto fail;
        }
      if (!gnn_parametrization_has_right_inverse (p))
        {
          if (at_registration)
            continue;
          g_set_error (error, GNN_ERROR, GNN_ERROR_FAILED,
                       "parametrization %s does not implement right_inverse.",
                       gnn_module_get_name (p));
          goto fail;
        }
      next = call_right_inverse (p, cur->pdata[0], sequence, &local);
      if (next == NULL)
        {
          if (at_registration && g_error_matches (local, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED))
            {
              g_clear_error (&local);
              continue;
            }
          g_propagate_error (error, local);
          goto fail;
        }
      g_ptr_array_unref (cur);
      cur = next;
    }
  return cur;

fail:
  g_ptr_array_unref (cur);
  return NULL;
}

/* the parametrized value, computed anew (a new reference) */
static GnnTensor *
list_compute (GnnParametrizationList *self, GError **error)
{
  g_autoptr(GnnArgs) none = gnn_args_new ();
  g_autoptr(GnnArgs) out = gnn_module_forward (GNN_MODULE (self), none, error);

  if (out == NULL)
    return NULL;
  return g_object_ref (gnn_args_get_tensor (out, 0, NULL));
}

static GnnParametrizationList *
list_new (GnnModule *p, GnnTensor *original, gboolean unsafe, GError **error)
{
  g_autoptr(GnnParametrizationList) self = g_object_new (GNN_TYPE_PARAMETRIZATION_LIST, NULL);
  g_autoptr(GPtrArray) inv = NULL;
  g_autoptr(GnnTensor) z = NULL;
  g_autoptr(GnnTensor) saved = NULL;   /* original's data before, put back when this fails */
  guint ndim = gnn_tensor_get_ndim (original);
  g_autofree gint64 *shape = g_memdup2 (gnn_tensor_get_shape (original, NULL),
                                        MAX (ndim, 1) * sizeof (gint64));
  GnnDtype dtype = gnn_tensor_get_dtype (original);
  gboolean sequence, grad = gnn_is_grad_enabled ();

  self->unsafe = unsafe;
  if (!gnn_module_register_module (GNN_MODULE (self), "0", p, error))
    return NULL;
  gnn_set_grad_enabled (FALSE);
  inv = chain_right_inverse (self, original, TRUE, &sequence, error);
  gnn_set_grad_enabled (grad);
  if (inv == NULL)
    return NULL;
  self->is_tensor = !sequence;
  self->n_tensors = inv->len;
  if (self->is_tensor)
    {
      GnnTensor *t = inv->pdata[0];
      if (gnn_tensor_get_dtype (t) != dtype)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                       "When `right_inverse` outputs one tensor, it may not change the dtype.\n"
                       "original.dtype: torch.%s\nright_inverse(original).dtype: torch.%s",
                       gnn_dtype_get_name (dtype), gnn_dtype_get_name (gnn_tensor_get_dtype (t)));
          return NULL;
        }
      if (t != original)
        {
          saved = gnn_tensor_detach (original);
          if (!gnn_tensor_set_data (original, t, error))
            return NULL;
        }
      if (!register_original (GNN_MODULE (self), "original", original, error))
        goto fail;
    }
  else
    {
      gboolean rg = gnn_tensor_get_requires_grad (original);
      for (guint i = 0; i < inv->len; i++)
        {
          g_autofree char *name = g_strdup_printf ("original%u", i);
          g_autoptr(GnnTensor) oi = NULL;

          if (GNN_IS_PARAMETER (original))
            oi = GNN_TENSOR (gnn_parameter_new (inv->pdata[i], rg, error));
          else
            {
              oi = gnn_tensor_detach (inv->pdata[i]);
              if (rg && !gnn_tensor_set_requires_grad (oi, TRUE, error))
                return NULL;
            }
          if (oi == NULL || !register_original (GNN_MODULE (self), name, oi, error))
            return NULL;
        }
    }
  if (!unsafe)
    {
      z = list_compute (self, error);
      if (z == NULL)
        goto fail;
      if (gnn_tensor_get_dtype (z) != dtype)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                       "Registering a parametrization may not change the dtype of the tensor, "
                       "unless `unsafe` flag is enabled.\nunparametrized dtype: torch.%s\n"
                       "parametrized dtype: torch.%s", gnn_dtype_get_name (dtype),
                       gnn_dtype_get_name (gnn_tensor_get_dtype (z)));
          goto fail;
        }
      if (!same_shape (z, ndim, shape))
        {
          g_autofree char *a = gnn_shape_to_string (ndim, shape);
          g_autofree char *b = size_string (z);
          g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                       "Registering a parametrization may not change the shape of the tensor, "
                       "unless `unsafe` flag is enabled.\nunparametrized shape: torch.Size(%s)\n"
                       "parametrized shape: %s", a, b);
          goto fail;
        }
    }
  return g_steal_pointer (&self);

fail:
  /* unlike torch, a failed registration leaves the tensor as it was */
  if (saved)
    gnn_tensor_set_data (original, saved, NULL);
  return NULL;
}

/**
 * gnn_parametrization_list_right_inverse:
 * @self: a ParametrizationList
 * @value: the value the parametrized tensor should take
 * @error: return location for a #GError
 *
 * Sets the unparametrized tensors so that the chain gives @value (`plist.right_inverse
 * (value)`): @value goes through the right inverses of the parametrizations, last to first,
 * without recording gradients, and the result replaces the data of `original` (the same
 * tensor object, so that an optimizer holding it still does).
 *
 * Returns: %TRUE on success; %FALSE with @error set when a parametrization has no right
 *   inverse (%GNN_ERROR_FAILED), or the result has the wrong dtype or count
 *
 * Since: 0.1
 */
gboolean
gnn_parametrization_list_right_inverse (GnnParametrizationList *self,
                                        GnnTensor              *value,
                                        GError                **error)
{
  g_autoptr(GPtrArray) inv = NULL;
  gboolean sequence, grad;

  g_return_val_if_fail (GNN_IS_PARAMETRIZATION_LIST (self), FALSE);
  g_return_val_if_fail (GNN_IS_TENSOR (value), FALSE);
  grad = gnn_is_grad_enabled ();
  gnn_set_grad_enabled (FALSE);
  inv = chain_right_inverse (self, value, FALSE, &sequence, error);
  gnn_set_grad_enabled (grad);
  if (inv == NULL)
    return FALSE;
  if (self->is_tensor && sequence)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "`right_inverse` should return a tensor. Got tuple");
      return FALSE;
    }
  if (!self->is_tensor && inv->len != self->n_tensors)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "'right_inverse' must return a sequence of tensors of length %u. Got a "
                   "sequence of length %u.", self->n_tensors, inv->len);
      return FALSE;
    }
  for (guint i = 0; i < inv->len; i++)
    {
      GnnTensor *o = list_original (self, i);
      GnnTensor *t = inv->pdata[i];

      if (gnn_tensor_get_dtype (o) != gnn_tensor_get_dtype (t))
        {
          if (self->is_tensor)
            g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                         "The tensor returned by `right_inverse` has dtype torch.%s while "
                         "`original` has dtype torch.%s",
                         gnn_dtype_get_name (gnn_tensor_get_dtype (t)),
                         gnn_dtype_get_name (gnn_tensor_get_dtype (o)));
          else
            g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                         "Tensor %u returned by `right_inverse` has dtype torch.%s while "
                         "`original%u` has dtype torch.%s", i,
                         gnn_dtype_get_name (gnn_tensor_get_dtype (t)), i,
                         gnn_dtype_get_name (gnn_tensor_get_dtype (o)));
          return FALSE;
        }
    }
  for (guint i = 0; i < inv->len; i++)
    {
      GnnTensor *o = list_original (self, i);
      if (inv->pdata[i] != o && !gnn_tensor_set_data (o, inv->pdata[i], error))
        return FALSE;
    }
  return TRUE;
}

/* ---- the cached scope ------------------------------------------------------------------ */

typedef struct {
  guint depth;
  GHashTable *values;   /* "<module address>/<name>" -> GnnTensor */
} Cache;

static void
cache_free (gpointer data)
{
  Cache *c = data;

  g_clear_pointer (&c->values, g_hash_table_unref);
  g_free (c);
}

static GPrivate cache_key = G_PRIVATE_INIT (cache_free);

static Cache *
cache (void)
{
  Cache *c = g_private_get (&cache_key);

  if (c == NULL)
    {
      c = g_new0 (Cache, 1);
      g_private_set (&cache_key, c);
    }
  return c;
}

/**
 * gnn_parametrize_cached_enter:
 *
 * Enters a cached scope (`with parametrize.cached ():`): until the matching
 * [func@Gnn.parametrize_cached_leave], each parametrized tensor read on this thread is
 * computed once, at its first read, and the same value is given to every later read (so that
 * a parametrized weight used by several time steps of an RNN, or by several layers, is
 * computed once). Scopes nest; the values are dropped when the outermost one is left.
 *
 * Since: 0.1
 */
void
gnn_parametrize_cached_enter (void)
{
  Cache *c = cache ();

  if (c->depth++ == 0 && c->values == NULL)
    c->values = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_object_unref);
}

/**
 * gnn_parametrize_cached_leave:
 *
 * Leaves the cached scope entered by [func@Gnn.parametrize_cached_enter].
 *
 * Since: 0.1
 */
void
gnn_parametrize_cached_leave (void)
{
  Cache *c = cache ();

  g_return_if_fail (c->depth > 0);
  if (--c->depth == 0)
    g_clear_pointer (&c->values, g_hash_table_unref);
}

/* ---- the module side ------------------------------------------------------------------- */

static GnnModuleDict *
parametrizations_of (GnnModule *module)
{
  GnnModule *d = gnn_module_get_submodule (module, "parametrizations", NULL);

  return d && GNN_IS_MODULE_DICT (d) ? GNN_MODULE_DICT (d) : NULL;
}

static GnnParametrizationList *
list_of (GnnModule *module, const char *name)
{
  GnnModuleDict *d = parametrizations_of (module);
  GnnModule *l;

  if (d == NULL || !gnn_module_dict_contains (d, name))
    return NULL;
  l = gnn_module_dict_get (d, name, NULL);
  return GNN_IS_PARAMETRIZATION_LIST (l) ? GNN_PARAMETRIZATION_LIST (l) : NULL;
}

static GnnTensor *
parametrized_getter (GnnModule  *module,
                     const char *name,
                     gpointer    data,
                     GError    **error)
{
  GnnParametrizationList *l = list_of (module, name);
  Cache *c = cache ();
  g_autofree char *key = NULL;
  GnnTensor *t;

  if (l == NULL)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "%s has no parametrization on '%s'", gnn_module_get_name (module), name);
      return NULL;
    }
  if (c->depth > 0)
    {
      key = g_strdup_printf ("%p/%s", (gpointer) module, name);
      t = g_hash_table_lookup (c->values, key);
      if (t)
        return g_object_ref (t);
    }
  t = list_compute (l, error);
  if (t == NULL)
    {
      g_prefix_error (error, "%s '%s': ", gnn_module_get_name (module), name);
      return NULL;
    }
  if (key)
    g_hash_table_insert (c->values, g_steal_pointer (&key), g_object_ref (t));
  return t;
}

/**
 * gnn_is_parametrized:
 * @module: a module
 * @tensor_name: (nullable): a tensor name, or %NULL for any
 *
 * Whether @module has a parametrization on @tensor_name, or with %NULL on any of its tensors
 * (`torch.nn.utils.parametrize.is_parametrized`).
 *
 * Returns: the answer
 *
 * Since: 0.1
 */
gboolean
gnn_is_parametrized (GnnModule  *module,
                     const char *tensor_name)
{
  GnnModuleDict *d;

  g_return_val_if_fail (GNN_IS_MODULE (module), FALSE);
  d = parametrizations_of (module);
  if (d == NULL)
    return FALSE;
  if (tensor_name == NULL)
    return gnn_module_dict_get_length (d) > 0;
  return gnn_module_dict_contains (d, tensor_name);
}

/**
 * gnn_register_parametrization:
 * @module: the module holding the tensor
 * @tensor_name: the name of a parameter or buffer of @module, or of an already parametrized
 *   tensor
 * @parametrization: the parametrization: any module whose forward maps the tensor (or the
 *   tensors its right inverse gives) to the parametrized tensor
 * @unsafe: skip the checks that the parametrization keeps the tensor's shape and dtype
 * @error: return location for a #GError
 *
 * `torch.nn.utils.parametrize.register_parametrization (module, tensor_name,
 * parametrization, unsafe=unsafe)`. The first registration on @tensor_name moves the tensor
 * into `module.parametrizations[tensor_name]`, a [class@Gnn.ParametrizationList], as its
 * `original` (after applying @parametrization's right inverse, if it has one,
 * [func@Gnn.parametrization_set_right_inverse]; the same tensor object is kept) or as
 * `original0`, `original1`, ... when the right inverse gives several tensors; @tensor_name
 * then reads as `parametrization (original)`, recomputed on each read (the forward of the
 * layers reads it so) unless in a cached scope ([func@Gnn.parametrize_cached_enter]).
 * A later registration on the same name appends @parametrization to the chain; the
 * original is left as it is.
 *
 * @parametrization is put in @module's training mode.
 *
 * Returns: %TRUE on success; %FALSE with @error set (%GNN_ERROR_INVALID_ARGUMENT, naming the
 *   module and the tensor) when @tensor_name is neither a parameter, a buffer nor parametrized,
 *   when (without @unsafe) the parametrization or the right inverse changes the shape or dtype,
 *   or when they fail; @module is then unchanged
 *
 * Since: 0.1
 */
gboolean
gnn_register_parametrization (GnnModule  *module,
                              const char *tensor_name,
                              GnnModule  *parametrization,
                              gboolean    unsafe,
                              GError    **error)
{
  GnnParametrizationList *l;
  GnnModuleDict *d;
  GnnTensor *slot;
  g_autoptr(GnnTensor) original = NULL;
  g_autoptr(GnnParametrizationList) nl = NULL;
  g_autofree char *index = NULL;

  g_return_val_if_fail (GNN_IS_MODULE (module), FALSE);
  g_return_val_if_fail (tensor_name != NULL, FALSE);
  g_return_val_if_fail (GNN_IS_MODULE (parametrization), FALSE);

  gnn_module_train (parametrization, gnn_module_get_training (module));
  l = list_of (module, tensor_name);
  if (l)
    {
      if (!unsafe)
        {
          g_autoptr(GnnTensor) y = gnn_module_get_tensor (module, tensor_name, error);
          g_autoptr(GnnArgs) in = NULL;
          g_autoptr(GnnArgs) out = NULL;
          GnnTensor *x;

          if (y == NULL)
            return FALSE;
          in = gnn_args_new_tensor (y);
          out = gnn_module_forward (parametrization, in, error);
          if (out == NULL)
            goto prefix;
          if (gnn_args_get_n_values (out) != 1 || !gnn_args_is_tensor (out, 0))
            {
              g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                           "A parametrization must return a tensor.");
              goto prefix;
            }
          x = gnn_args_get_tensor (out, 0, NULL);
          if (gnn_tensor_get_dtype (x) != gnn_tensor_get_dtype (y))
            {
              g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                           "Registering a parametrization may not change the dtype of the "
                           "tensor, unless the `unsafe` flag is enabled.\nmodule.%s.dtype: "
                           "torch.%s\nparametrization(module.%s).dtype: torch.%s", tensor_name,
                           gnn_dtype_get_name (gnn_tensor_get_dtype (y)), tensor_name,
                           gnn_dtype_get_name (gnn_tensor_get_dtype (x)));
              goto prefix;
            }
          if (!same_shape (x, gnn_tensor_get_ndim (y), gnn_tensor_get_shape (y, NULL)))
            {
              g_autofree char *a = size_string (y), *b = size_string (x);
              g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                           "Registering a parametrization may not change the shape of the "
                           "tensor, unless the `unsafe` flag is enabled.\nmodule.%s.shape: %s\n"
                           "parametrization(module.%s).shape: %s", tensor_name, a, tensor_name, b);
              goto prefix;
            }
          if (gnn_parametrization_has_right_inverse (parametrization))
            {
              GError *local = NULL;
              gboolean sequence, grad = gnn_is_grad_enabled ();
              g_autoptr(GPtrArray) z = NULL;

              gnn_set_grad_enabled (FALSE);
              z = call_right_inverse (parametrization, x, &sequence, &local);
              gnn_set_grad_enabled (grad);
              if (z == NULL && !g_error_matches (local, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED))
                {
                  g_propagate_error (error, local);
                  goto prefix;
                }
              g_clear_error (&local);
              if (z && sequence)
                {
                  g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                               "parametrization.right_inverse must return a tensor. Got: tuple");
                  goto prefix;
                }
              if (z && gnn_tensor_get_dtype (z->pdata[0]) != gnn_tensor_get_dtype (y))
                {
                  g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                               "The tensor returned by parametrization.right_inverse must have "
                               "the same dtype as module.%s, unless the `unsafe` flag is "
                               "enabled.\nmodule.%s.dtype: torch.%s\nreturned dtype: torch.%s",
                               tensor_name, tensor_name,
                               gnn_dtype_get_name (gnn_tensor_get_dtype (y)),
                               gnn_dtype_get_name (gnn_tensor_get_dtype (z->pdata[0])));
                  goto prefix;
                }
              if (z && !same_shape (z->pdata[0], gnn_tensor_get_ndim (y),
                                    gnn_tensor_get_shape (y, NULL)))
                {
                  g_autofree char *a = size_string (y), *b = size_string (z->pdata[0]);
                  g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                               "The tensor returned by parametrization.right_inverse must have "
                               "the same shape as module.%s, unless the `unsafe` flag is "
                               "enabled.\nmodule.%s.shape: %s\nreturned shape: %s",
                               tensor_name, tensor_name, a, b);
                  goto prefix;
                }
            }
        }
      index = g_strdup_printf ("%u", gnn_parametrization_list_get_length (l));
      if (!gnn_module_register_module (GNN_MODULE (l), index, parametrization, error))
        goto prefix;
      l->unsafe |= unsafe;
      return TRUE;
    }

  slot = GNN_TENSOR (gnn_module_get_parameter (module, tensor_name, NULL));
  if (slot == NULL)
    slot = gnn_module_get_buffer (module, tensor_name, NULL);
  if (slot == NULL)
    {
      g_autofree char *repr = gnn_module_to_string (module);
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "Module '%s' does not have a parameter, a buffer, or a parametrized element "
                   "with name '%s'", repr, tensor_name);
      return FALSE;
    }
  original = g_object_ref (slot);
  nl = list_new (parametrization, original, unsafe, error);
  if (nl == NULL)
    goto prefix;
  d = parametrizations_of (module);
  if (d == NULL)
    {
      g_autoptr(GnnModuleDict) nd = gnn_module_dict_new ();
      if (!gnn_module_register_module (module, "parametrizations", GNN_MODULE (nd), error))
        goto prefix;
      d = nd;
    }
  gnn_module_remove (module, tensor_name);
  if (!gnn_module_dict_set (d, tensor_name, GNN_MODULE (nl), error) ||
      !gnn_module_set_tensor_getter (module, tensor_name, parametrized_getter, NULL, NULL, error))
    {
      /* undo: the tensor goes back where it was */
      gnn_module_dict_pop (d, tensor_name, NULL);
      register_original (module, tensor_name, original, NULL);
      if (gnn_module_dict_get_length (d) == 0)
        gnn_module_remove (module, "parametrizations");
      goto prefix;
    }
  return TRUE;

prefix:
  g_prefix_error (error, "%s '%s': ", gnn_module_get_name (module), tensor_name);
  return FALSE;
}

/**
 * gnn_remove_parametrizations:
 * @module: a module
 * @tensor_name: a parametrized tensor of @module
 * @leave_parametrized: keep the current parametrized value (%TRUE, torch's default) rather
 *   than the unparametrized `original`
 * @error: return location for a #GError
 *
 * `torch.nn.utils.parametrize.remove_parametrizations`: @tensor_name becomes a parameter (or
 * buffer) of @module again, the same tensor object as `original`, holding its parametrized
 * value with @leave_parametrized or its unparametrized one without; `parametrizations` goes
 * when no parametrized tensor remains.
 *
 * Returns: %TRUE on success; %FALSE with @error set (%GNN_ERROR_INVALID_ARGUMENT) when
 *   @tensor_name is not parametrized, or when @leave_parametrized is %FALSE for a tensor
 *   parametrized by a sequence of tensors
 *
 * Since: 0.1
 */
gboolean
gnn_remove_parametrizations (GnnModule  *module,
                             const char *tensor_name,
                             gboolean    leave_parametrized,
                             GError    **error)
{
  GnnParametrizationList *l;
  GnnModuleDict *d;
  g_autoptr(GnnParametrizationList) keep = NULL;
  g_autoptr(GnnTensor) original = NULL;
  g_autoptr(GnnTensor) t = NULL;
  g_autoptr(GnnModule) popped = NULL;

  g_return_val_if_fail (GNN_IS_MODULE (module), FALSE);
  g_return_val_if_fail (tensor_name != NULL, FALSE);
  l = list_of (module, tensor_name);
  if (l == NULL)
    {
      g_autofree char *repr = gnn_module_to_string (module);
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "Module %s does not have a parametrization on %s", repr, tensor_name);
      return FALSE;
    }
  keep = g_object_ref (l);
  if (l->is_tensor)
    {
      original = g_object_ref (list_original (l, 0));
      if (leave_parametrized)
        {
          gboolean grad = gnn_is_grad_enabled ();
          gnn_set_grad_enabled (FALSE);
          t = gnn_module_get_tensor (module, tensor_name, error);
          gnn_set_grad_enabled (grad);
          if (t == NULL)
            return FALSE;
          if (t != original && !gnn_tensor_set_data (original, t, error))
            return FALSE;
        }
    }
  else
    {
      if (!leave_parametrized)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                       "Cannot leave unparametrized (`leave_parametrized=False`) a tensor that is "
                       "parametrized in terms of a sequence of tensors.");
          return FALSE;
        }
      t = gnn_module_get_tensor (module, tensor_name, error);
      if (t == NULL)
        return FALSE;
      if (gnn_tensor_get_requires_grad (t))
        {
          g_autoptr(GnnTensor) data = gnn_tensor_detach (t);
          original = GNN_TENSOR (gnn_parameter_new (data, TRUE, error));
          if (original == NULL)
            return FALSE;
        }
      else
        original = g_object_ref (t);
    }
  gnn_module_set_tensor_getter (module, tensor_name, NULL, NULL, NULL, NULL);
  d = parametrizations_of (module);
  popped = gnn_module_dict_pop (d, tensor_name, NULL);
  if (!register_original (module, tensor_name, original, error))
    return FALSE;
  if (gnn_module_dict_get_length (d) == 0)
    gnn_module_remove (module, "parametrizations");
  return TRUE;
}

/**
 * gnn_parametrize_set_tensor:
 * @module: a module
 * @tensor_name: a parametrized tensor of @module
 * @value: the value it should take
 * @error: return location for a #GError
 *
 * Assigns the parametrized tensor (`module.weight = value` in PyTorch): the
 * ParametrizationList's right inverse ([method@Gnn.ParametrizationList.right_inverse]) sets
 * `original` so that the tensor reads as @value.
 *
 * Returns: %TRUE on success; %FALSE with @error set when @tensor_name is not parametrized or
 *   the right inverse fails
 *
 * Since: 0.1
 */
gboolean
gnn_parametrize_set_tensor (GnnModule  *module,
                            const char *tensor_name,
                            GnnTensor  *value,
                            GError    **error)
{
  GnnParametrizationList *l;

  g_return_val_if_fail (GNN_IS_MODULE (module), FALSE);
  g_return_val_if_fail (tensor_name != NULL, FALSE);
  g_return_val_if_fail (GNN_IS_TENSOR (value), FALSE);
  l = list_of (module, tensor_name);
  if (l == NULL)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "%s has no parametrization on '%s'", gnn_module_get_name (module), tensor_name);
      return FALSE;
    }
  if (!gnn_parametrization_list_right_inverse (l, value, error))
    {
      g_prefix_error (error, "%s '%s': ", gnn_module_get_name (module), tensor_name);
      return FALSE;
    }
  return TRUE;
}

/* ---- spectral_norm ---------------------------------------------------------------------- */

/**
 * GnnSpectralNorm:
 *
 * The parametrization of [func@Gnn.spectral_norm], torch's
 * `torch.nn.utils.parametrizations._SpectralNorm`: its forward divides a weight by its
 * largest singular value σ, estimated by power iteration on the weight seen as a matrix (the
 * dimension @dim first, the others flattened) with the buffers `_u` and `_v`; one iteration
 * step (`n_power_iterations`) runs at each forward in training mode only, without recording
 * gradients, and σ = uᵀ W v. A 1-D weight is normalized instead. Its right inverse is the
 * identity.
 *
 * Since: 0.1
 */
struct _GnnSpectralNorm
{
  GnnModule parent_instance;
  int n_power_iterations;
  int dim;
  double eps;
  guint ndim;
};

G_DEFINE_FINAL_TYPE (GnnSpectralNorm, gnn_spectral_norm, GNN_TYPE_MODULE)

/* the weight as a matrix: @dim first, the other dimensions flattened */
static GnnTensor *
spectral_matrix (GnnSpectralNorm *self, GnnTensor *weight, GError **error)
{
  g_autoptr(GnnTensor) permuted = NULL;

  if (self->dim != 0)
    {
      int perm[GNN_MAX_DIMS];
      guint k = 0;

      perm[k++] = self->dim;
      for (int d = 0; d < (int) self->ndim; d++)
        if (d != self->dim)
          perm[k++] = d;
      permuted = gnn_tensor_permute (weight, perm, self->ndim, error);
    }
  else
    permuted = g_object_ref (weight);
  if (permuted == NULL)
    return NULL;
  return gnn_tensor_flatten (permuted, 1, -1, error);
}

/* @n steps of power iteration on @mat, updating `_u` and `_v` in place, without gradients */
static gboolean
spectral_power_method (GnnSpectralNorm *self, GnnTensor *mat, int n, GError **error)
{
  GnnTensor *u = gnn_module_get_buffer (GNN_MODULE (self), "_u", error);
  GnnTensor *v = gnn_module_get_buffer (GNN_MODULE (self), "_v", error);
  g_autoptr(GnnTensor) mat_t = NULL;
  gboolean grad = gnn_is_grad_enabled (), ok = TRUE;

  if (u == NULL || v == NULL)
    return FALSE;
  gnn_set_grad_enabled (FALSE);
  mat_t = gnn_tensor_t (mat, error);
  ok = mat_t != NULL;
  for (int i = 0; ok && i < n; i++)
    {
      g_autoptr(GnnTensor) wv = NULL, nu = NULL, wu = NULL, nv = NULL;

      ok = (wv = gnn_tensor_mv (mat, v, error)) &&
           (nu = gnn_tensor_normalize (wv, 2.0, 0, self->eps, error)) &&
           gnn_tensor_copy_ (u, nu, error) &&
           (wu = gnn_tensor_mv (mat_t, u, error)) &&
           (nv = gnn_tensor_normalize (wu, 2.0, 0, self->eps, error)) &&
           gnn_tensor_copy_ (v, nv, error);
    }
  gnn_set_grad_enabled (grad);
  return ok;
}

static GnnArgs *
gnn_spectral_norm_forward (GnnModule *module,
                           GnnArgs   *input,
                           GError   **error)
{
  GnnSpectralNorm *self = GNN_SPECTRAL_NORM (module);
  GnnTensor *weight = gnn_args_get_tensor (input, 0, error);
  g_autoptr(GnnTensor) mat = NULL, u = NULL, v = NULL, wv = NULL, sigma = NULL, out = NULL;

  if (weight == NULL)
    return NULL;
  if (gnn_tensor_get_ndim (weight) != self->ndim)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "_SpectralNorm was made for a %u-D weight, got a %u-D one", self->ndim,
                   gnn_tensor_get_ndim (weight));
      return NULL;
    }
  if (self->ndim == 1)
    {
      out = gnn_tensor_normalize (weight, 2.0, 0, self->eps, error);
      return out ? gnn_args_new_tensor (out) : NULL;
    }
  if (!(mat = spectral_matrix (self, weight, error)))
    return NULL;
  if (gnn_module_get_training (module) &&
      !spectral_power_method (self, mat, self->n_power_iterations, error))
    return NULL;
  if (!(u = gnn_tensor_clone (gnn_module_get_buffer (module, "_u", NULL), error)) ||
      !(v = gnn_tensor_clone (gnn_module_get_buffer (module, "_v", NULL), error)) ||
      !(wv = gnn_tensor_mv (mat, v, error)) || !(sigma = gnn_tensor_dot (u, wv, error)) ||
      !(out = gnn_tensor_div (weight, sigma, error)))
    return NULL;
  return gnn_args_new_tensor (out);
}

static gboolean
spectral_right_inverse (GnnModule *p, GnnTensor *value, GnnArgs *out, gpointer data, GError **error)
{
  gnn_args_add_tensor (out, value);
  return TRUE;
}

static char *
gnn_spectral_norm_extra_repr (GnnModule *module)
{
  return g_strdup ("");
}

static void
gnn_spectral_norm_class_init (GnnSpectralNormClass *klass)
{
  GNN_MODULE_CLASS (klass)->forward = gnn_spectral_norm_forward;
  GNN_MODULE_CLASS (klass)->extra_repr = gnn_spectral_norm_extra_repr;
}

static void
gnn_spectral_norm_init (GnnSpectralNorm *self)
{
  self->n_power_iterations = 1;
  self->eps = 1e-12;
  gnn_parametrization_set_right_inverse (GNN_MODULE (self), spectral_right_inverse, NULL, NULL);
}

/**
 * gnn_spectral_norm_new:
 * @weight: the weight it will parametrize (its shape, dtype and device; its values start the
 *   power iteration)
 * @n_power_iterations: power iteration steps per training forward (torch's default 1)
 * @dim: the dimension of the output channels (0, or 1 for transposed convolutions)
 * @eps: the epsilon of the normalizations (torch's default 1e-12)
 * @error: return location for a #GError
 *
 * Makes the spectral-norm parametrization of @weight (torch's `_SpectralNorm (weight,
 * n_power_iterations, dim, eps)`): for a weight of more than one dimension, `_u` and `_v` are
 * drawn from the standard normal distribution (the default generator), normalized, and
 * refined by 15 power iteration steps.
 *
 * Returns: (transfer full): the parametrization, or %NULL with @error set when @dim is out of
 *   range (%GNN_ERROR_INDEX) or @n_power_iterations is not positive
 *   (%GNN_ERROR_INVALID_ARGUMENT)
 *
 * Since: 0.1
 */
GnnSpectralNorm *
gnn_spectral_norm_new (GnnTensor *weight,
                       int        n_power_iterations,
                       int        dim,
                       double     eps,
                       GError   **error)
{
  g_autoptr(GnnSpectralNorm) self = NULL;
  guint ndim;

  g_return_val_if_fail (GNN_IS_TENSOR (weight), NULL);
  ndim = gnn_tensor_get_ndim (weight);
  if (dim >= (int) ndim || dim < -(int) ndim)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INDEX,
                   "Dimension out of range (expected to be in range of [-%u, %d] but got %d)",
                   ndim, (int) ndim - 1, dim);
      return NULL;
    }
  if (n_power_iterations <= 0)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "Expected n_power_iterations to be positive, but got n_power_iterations=%d",
                   n_power_iterations);
      return NULL;
    }
  self = g_object_new (GNN_TYPE_SPECTRAL_NORM, NULL);
  self->ndim = ndim;
  self->dim = dim >= 0 ? dim : dim + (int) ndim;
  self->eps = eps;
  self->n_power_iterations = n_power_iterations;
  if (ndim > 1)
    {
      g_autoptr(GnnTensor) detached = gnn_tensor_detach (weight);
      g_autoptr(GnnTensor) mat = spectral_matrix (self, detached, error);
      g_autoptr(GnnTensor) u = NULL, v = NULL, nu = NULL, nv = NULL;
      const gint64 *shape;
      GnnDtype dtype = gnn_tensor_get_dtype (weight);
      const char *device = gnn_tensor_get_device (weight);

      if (mat == NULL)
        return NULL;
      shape = gnn_tensor_get_shape (mat, NULL);
      if (!(u = gnn_tensor_new_zeros (&shape[0], 1, dtype, device, error)) ||
          !(v = gnn_tensor_new_zeros (&shape[1], 1, dtype, device, error)) ||
          !gnn_init_normal_ (u, 0.0, 1.0, NULL, error) || !gnn_init_normal_ (v, 0.0, 1.0, NULL, error) ||
          !(nu = gnn_tensor_normalize (u, 2.0, 0, eps, error)) ||
          !(nv = gnn_tensor_normalize (v, 2.0, 0, eps, error)) ||
          !gnn_module_register_buffer (GNN_MODULE (self), "_u", nu, TRUE, error) ||
          !gnn_module_register_buffer (GNN_MODULE (self), "_v", nv, TRUE, error) ||
          !spectral_power_method (self, mat, 15, error))
        return NULL;
    }
  return g_steal_pointer (&self);
}

/**
 * gnn_spectral_norm_default_dim:
 * @module: a module
 *
 * The output-channel dimension [func@Gnn.spectral_norm] uses for @module when torch's `dim`
 * is `None`: 1 for the transposed convolutions, 0 otherwise.
 *
 * Returns: the dimension
 *
 * Since: 0.1
 */
int
gnn_spectral_norm_default_dim (GnnModule *module)
{
  g_return_val_if_fail (GNN_IS_MODULE (module), 0);
  return GNN_IS_CONV_TRANSPOSE1D (module) || GNN_IS_CONV_TRANSPOSE2D (module) ? 1 : 0;
}

/**
 * gnn_spectral_norm:
 * @module: a module
 * @name: the name of its weight (torch's default "weight")
 * @n_power_iterations: power iteration steps per training forward (torch's default 1)
 * @eps: the epsilon of the normalizations (torch's default 1e-12)
 * @dim: the dimension of the output channels ([func@Gnn.SpectralNorm.default_dim] gives
 *   torch's default)
 * @error: return location for a #GError
 *
 * `torch.nn.utils.parametrizations.spectral_norm`: registers a [class@Gnn.SpectralNorm] on
 * @name, so that @module's weight reads as W / σ(W). The state dict then holds
 * `parametrizations.<name>.original`, `parametrizations.<name>.0._u` and
 * `parametrizations.<name>.0._v`.
 *
 * Returns: %TRUE on success; %FALSE with @error set when @module has no tensor @name
 *   (%GNN_ERROR_INVALID_ARGUMENT) or [ctor@Gnn.SpectralNorm.new] fails
 *
 * Since: 0.1
 */
gboolean
gnn_spectral_norm (GnnModule  *module,
                   const char *name,
                   int         n_power_iterations,
                   double      eps,
                   int         dim,
                   GError    **error)
{
  g_autoptr(GnnTensor) weight = NULL;
  g_autoptr(GnnSpectralNorm) p = NULL;

  g_return_val_if_fail (GNN_IS_MODULE (module), FALSE);
  g_return_val_if_fail (name != NULL, FALSE);
  weight = gnn_module_get_tensor (module, name, NULL);
  if (weight == NULL)
    {
      g_autofree char *repr = gnn_module_to_string (module);
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "Module '%s' has no parameter or buffer with name '%s'", repr, name);
      return FALSE;
    }
  p = gnn_spectral_norm_new (weight, n_power_iterations, dim, eps, error);
  if (p == NULL)
    {
      g_prefix_error (error, "%s '%s': ", gnn_module_get_name (module), name);
      return FALSE;
    }
  return gnn_register_parametrization (module, name, GNN_MODULE (p), FALSE, error);
}
