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

#include <float.h>
#include <math.h>
#include <string.h>

#include "gnn-parametrize.h"
#include "gnn-parametrize-private.h"
#include "gnn-containers.h"
#include "gnn-parameter.h"
#include "gnn-conv.h"
#include "gnn-init.h"
#include "gnn-state-dict.h"
#include "ops/gnn-ops.h"
#include "gnn-module-private.h"
#include "gnn-props-private.h"
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

/* does @module read something under @name (torch's `hasattr (module, name)` for a tensor) */
static gboolean
module_has_tensor (GnnModule *module, const char *name)
{
  g_autoptr(GnnTensor) t = NULL;

  if (gnn_module_get_parameter (module, name, NULL) || gnn_module_get_buffer (module, name, NULL) ||
      list_of (module, name) || gnn_module_get_submodule (module, name, NULL))
    return TRUE;
  t = gnn_module_get_tensor (module, name, NULL);
  return t != NULL;
}

/* `to_list.<name> = from_list.<name>`: the same tensor object, a parameter or a buffer as it is */
static gboolean
share_original (GnnParametrizationList *to, GnnParametrizationList *from, const char *name,
                GError **error)
{
  GnnTensor *t = gnn_module_tensor (GNN_MODULE (from), name, FALSE, NULL);
  GnnModule *owner = GNN_MODULE (to);
  gboolean was_param = gnn_module_get_parameter (owner, name, NULL) != NULL;

  if (t == NULL)
    return TRUE;
  if (was_param != GNN_IS_PARAMETER (t))
    gnn_module_remove (owner, name);
  return register_original (owner, name, t, error);
}

/**
 * gnn_transfer_parametrizations_and_params:
 * @from_module: the module whose parametrizations are transferred
 * @to_module: the module that receives them
 * @tensor_name: (nullable): the one parametrized tensor to transfer, or %NULL for all of them
 * @error: return location for a #GError
 *
 * `torch.nn.utils.parametrize.transfer_parametrizations_and_params`: for each parametrized
 * tensor of @from_module (or @tensor_name only), in the order they were parametrized, @to_module
 * gets, if it has no tensor of that name, a parameter holding @from_module's parametrized value;
 * then each parametrization of @from_module's chain is registered on it (the same module
 * objects, shared between the two, without `unsafe`, as torch does), and finally its
 * `original` (or `original0`, `original1`, ...) becomes @from_module's, the same tensor object,
 * so that both modules read the same parametrized tensor and train the same parameters.
 * Nothing happens when @from_module is not parametrized.
 *
 * As in torch, a failure in the middle (a parametrization that does not fit a tensor of
 * @to_module) leaves what was transferred before it.
 *
 * Returns: %TRUE on success; %FALSE with @error set (%GNN_ERROR_INVALID_ARGUMENT, naming the
 *   tensor) when @tensor_name is not parametrized in a parametrized @from_module, or a
 *   registration on @to_module fails
 *
 * Since: 0.1
 */
gboolean
gnn_transfer_parametrizations_and_params (GnnModule  *from_module,
                                          GnnModule  *to_module,
                                          const char *tensor_name,
                                          GError    **error)
{
  GnnModuleDict *d;
  g_auto(GStrv) names = NULL;

  g_return_val_if_fail (GNN_IS_MODULE (from_module), FALSE);
  g_return_val_if_fail (GNN_IS_MODULE (to_module), FALSE);
  if (!gnn_is_parametrized (from_module, NULL))
    return TRUE;
  d = parametrizations_of (from_module);
  if (tensor_name)
    {
      if (list_of (from_module, tensor_name) == NULL)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                       "%s has no parametrization on '%s' to transfer",
                       gnn_module_get_name (from_module), tensor_name);
          return FALSE;
        }
      names = g_new0 (char *, 2);
      names[0] = g_strdup (tensor_name);
    }
  else
    names = gnn_module_dict_keys (d);

  for (guint i = 0; names[i]; i++)
    {
      const char *name = names[i];
      GnnParametrizationList *from = list_of (from_module, name), *to;
      guint n = gnn_parametrization_list_get_length (from);

      if (!module_has_tensor (to_module, name))
        {
          g_autoptr(GnnTensor) value = gnn_module_get_tensor (from_module, name, error);
          g_autoptr(GnnTensor) data = NULL;
          g_autoptr(GnnParameter) param = NULL;

          if (value == NULL)
            return FALSE;
          data = gnn_tensor_detach (value);
          if (!(param = gnn_parameter_new (data, TRUE, error)) ||
              !gnn_module_register_parameter (to_module, name, param, error))
            return FALSE;
        }
      for (guint k = 0; k < n; k++)
        if (!gnn_register_parametrization (to_module, name,
                                           gnn_parametrization_list_get (from, (int) k, NULL),
                                           FALSE, error))
          return FALSE;
      to = list_of (to_module, name);
      if (from->is_tensor)
        {
          if (!share_original (to, from, "original", error))
            return FALSE;
        }
      else
        for (guint k = 0; k < from->n_tensors; k++)
          {
            g_autofree char *oname = original_name (from, k);
            if (!share_original (to, from, oname, error))
              return FALSE;
          }
    }
  return TRUE;
}

/**
 * gnn_type_before_parametrizations:
 * @module: a module
 *
 * `torch.nn.utils.parametrize.type_before_parametrizations`: the class of @module as it was
 * before any parametrization. Where torch swaps a parametrized module's class for a generated
 * subclass (`ParametrizedLinear`), gnn keeps the class, so this is always @module's own type.
 *
 * Returns: the type
 *
 * Since: 0.1
 */
GType
gnn_type_before_parametrizations (GnnModule *module)
{
  g_return_val_if_fail (GNN_IS_MODULE (module), G_TYPE_INVALID);
  return G_OBJECT_TYPE (module);
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

/* `_u` and `_v` drawn from the standard normal distribution, normalized, then 15 power
 * iteration steps on @mat, as _SpectralNorm's constructor does */
static gboolean
spectral_init_uv (GnnSpectralNorm *self, GnnTensor *mat, GError **error)
{
  GnnTensor *u = gnn_module_get_buffer (GNN_MODULE (self), "_u", error);
  GnnTensor *v = gnn_module_get_buffer (GNN_MODULE (self), "_v", error);
  g_autoptr(GnnTensor) nu = NULL, nv = NULL;
  g_autoptr(GnnNoGradGuard) guard = gnn_no_grad_guard_new ();

  return u && v &&
         gnn_init_normal_ (u, 0.0, 1.0, NULL, error) && gnn_init_normal_ (v, 0.0, 1.0, NULL, error) &&
         (nu = gnn_tensor_normalize (u, 2.0, 0, self->eps, error)) &&
         (nv = gnn_tensor_normalize (v, 2.0, 0, self->eps, error)) &&
         gnn_tensor_copy_ (u, nu, error) && gnn_tensor_copy_ (v, nv, error) &&
         spectral_power_method (self, mat, 15, error);
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

enum {
  SN_PROP_0,
  SN_PROP_N_POWER_ITERATIONS,
  SN_PROP_DIM,
  SN_PROP_EPS,
  SN_PROP_NDIM,
  SN_N_PROPS
};

static GnnProp spectral_norm_props[SN_N_PROPS];

static void
gnn_spectral_norm_class_init (GnnSpectralNormClass *klass)
{
  GNN_MODULE_CLASS (klass)->forward = gnn_spectral_norm_forward;
  GNN_MODULE_CLASS (klass)->extra_repr = gnn_spectral_norm_extra_repr;

  /**
   * GnnSpectralNorm:n-power-iterations:
   *
   * The power iteration steps run at each forward in training mode (torch's
   * `n_power_iterations`, default 1).
   *
   * Since: 0.1
   */
  spectral_norm_props[SN_PROP_N_POWER_ITERATIONS] = (GnnProp) {
    g_param_spec_int ("n-power-iterations", NULL, NULL, 1, G_MAXINT, 1,
                      GNN_PARAM_RW | G_PARAM_CONSTRUCT_ONLY),
    G_STRUCT_OFFSET (GnnSpectralNorm, n_power_iterations) };
  /**
   * GnnSpectralNorm:dim:
   *
   * The dimension of the weight put first when it is seen as a matrix (torch's `dim`, from 0).
   *
   * Since: 0.1
   */
  spectral_norm_props[SN_PROP_DIM] = (GnnProp) {
    g_param_spec_int ("dim", NULL, NULL, 0, GNN_MAX_DIMS - 1, 0,
                      GNN_PARAM_RW | G_PARAM_CONSTRUCT_ONLY),
    G_STRUCT_OFFSET (GnnSpectralNorm, dim) };
  /**
   * GnnSpectralNorm:eps:
   *
   * The epsilon of the normalizations (torch's `eps`, default 1e-12).
   *
   * Since: 0.1
   */
  spectral_norm_props[SN_PROP_EPS] = (GnnProp) {
    g_param_spec_double ("eps", NULL, NULL, 0.0, G_MAXDOUBLE, 1e-12,
                         GNN_PARAM_RW | G_PARAM_CONSTRUCT_ONLY),
    G_STRUCT_OFFSET (GnnSpectralNorm, eps) };
  /**
   * GnnSpectralNorm:ndim:
   *
   * The number of dimensions of the weight it was made for (torch's `ndim`); a 1-D weight is
   * normalized rather than divided by σ.
   *
   * Since: 0.1
   */
  spectral_norm_props[SN_PROP_NDIM] = (GnnProp) {
    g_param_spec_uint ("ndim", NULL, NULL, 0, GNN_MAX_DIMS, 0,
                       GNN_PARAM_RW | G_PARAM_CONSTRUCT_ONLY),
    G_STRUCT_OFFSET (GnnSpectralNorm, ndim) };

  gnn_props_install (G_OBJECT_CLASS (klass), spectral_norm_props, SN_N_PROPS);
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
      g_autoptr(GnnTensor) u = NULL, v = NULL;
      const gint64 *shape;
      GnnDtype dtype = gnn_tensor_get_dtype (weight);
      const char *device = gnn_tensor_get_device (weight);

      if (mat == NULL)
        return NULL;
      shape = gnn_tensor_get_shape (mat, NULL);
      if (!(u = gnn_tensor_new_zeros (&shape[0], 1, dtype, device, error)) ||
          !(v = gnn_tensor_new_zeros (&shape[1], 1, dtype, device, error)) ||
          !gnn_module_register_buffer (GNN_MODULE (self), "_u", u, TRUE, error) ||
          !gnn_module_register_buffer (GNN_MODULE (self), "_v", v, TRUE, error) ||
          !spectral_init_uv (self, mat, error))
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

/* ---- orthogonal ------------------------------------------------------------------------- */

/**
 * GnnOrthogonal:
 *
 * The parametrization of [func@Gnn.orthogonal], torch's
 * `torch.nn.utils.parametrizations._Orthogonal`: its forward maps a matrix (or a batch of
 * them) X of shape (…, n, k) to one with orthonormal columns (rows when n < k, where it works
 * on Xᵀ and transposes back). The maps: "matrix_exp" and "cayley" take A = L − Lᵀ, L the lower
 * triangle of X padded with zeros to n × n, and give the first k columns of exp(A) or of
 * (I − A/2)⁻¹(I + A/2) ([func@Gnn.linalg_matrix_exp], [func@Gnn.linalg_solve]); "householder"
 * takes the product of the reflectors below the diagonal of X
 * ([func@Gnn.linalg_householder_product]) times the signs on its diagonal. With
 * `use_trivialization` the result is multiplied on the left by the buffer `base`, which the
 * right inverse sets. All three are compositions of differentiable ops, so gradients reach X.
 *
 * Since: 0.1
 */
struct _GnnOrthogonal
{
  GnnModule parent_instance;
  int map;
  gboolean use_trivialization;
  guint ndim;
  gint64 shape[GNN_MAX_DIMS];
};

G_DEFINE_FINAL_TYPE (GnnOrthogonal, gnn_orthogonal, GNN_TYPE_MODULE)

enum { ORTH_MATRIX_EXP, ORTH_CAYLEY, ORTH_HOUSEHOLDER };
static const char *const orth_map_names[] = { "matrix_exp", "cayley", "householder" };

static char *
orth_shape_string (const gint64 *shape, guint ndim)
{
  GString *s = g_string_new ("torch.Size([");

  for (guint d = 0; d < ndim; d++)
    g_string_append_printf (s, "%s%" G_GINT64_FORMAT, d ? ", " : "", shape[d]);
  g_string_append (s, "])");
  return g_string_free (s, FALSE);
}

static GnnTensor *
orth_mt (GnnTensor *t, GError **error)
{
  guint nd = gnn_tensor_get_ndim (t);

  return gnn_tensor_transpose (t, (int) nd - 2, (int) nd - 1, error);
}

static GnnArgs *
gnn_orthogonal_forward (GnnModule *module,
                        GnnArgs   *input,
                        GError   **error)
{
  GnnOrthogonal *self = GNN_ORTHOGONAL (module);
  GnnTensor *X = gnn_args_get_tensor (input, 0, error);
  g_autoptr(GnnTensor) x = NULL, Q = NULL, out = NULL;
  const gint64 *shape;
  gint64 n, k;
  guint nd;
  gboolean transposed;
  GnnDtype dtype;
  const char *device;

  if (X == NULL)
    return NULL;
  nd = gnn_tensor_get_ndim (X);
  if (nd != self->ndim)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "_Orthogonal was made for a %u-D weight, got a %u-D one", self->ndim, nd);
      return NULL;
    }
  dtype = gnn_tensor_get_dtype (X);
  device = gnn_tensor_get_device (X);
  shape = gnn_tensor_get_shape (X, NULL);
  n = shape[nd - 2];
  k = shape[nd - 1];
  transposed = n < k;
  if (transposed)
    {
      gint64 t = n;

      n = k;
      k = t;
      if (!(x = orth_mt (X, error)))
        return NULL;
    }
  else
    x = g_object_ref (X);

  if (self->map != ORTH_HOUSEHOLDER)
    {
      g_autoptr(GnnTensor) low = NULL, sq = NULL, sq_t = NULL, A = NULL;

      if (!(low = gnn_tensor_tril (x, 0, error)))
        return NULL;
      if (n != k)
        {
          gint64 zshape[GNN_MAX_DIMS];
          g_autoptr(GnnTensor) zeros = NULL;
          GnnTensor *parts[2];

          memcpy (zshape, gnn_tensor_get_shape (x, NULL), nd * sizeof (gint64));
          zshape[nd - 1] = n - k;
          if (!(zeros = gnn_tensor_new_zeros (zshape, nd, dtype, device, error)))
            return NULL;
          parts[0] = low;
          parts[1] = zeros;
          if (!(sq = gnn_cat (parts, 2, (int) nd - 1, error)))
            return NULL;
        }
      else
        sq = g_object_ref (low);
      if (!(sq_t = orth_mt (sq, error)) || !(A = gnn_tensor_sub (sq, sq_t, 1.0, error)))
        return NULL;
      if (self->map == ORTH_MATRIX_EXP)
        Q = gnn_linalg_matrix_exp (A, error);
      else
        {
          g_autoptr(GnnTensor) id = NULL, lhs = NULL, rhs = NULL;

          if (!(id = gnn_tensor_new_eye (n, n, dtype, device, error)) ||
              !(lhs = gnn_tensor_add (id, A, -0.5, error)) ||
              !(rhs = gnn_tensor_add (id, A, 0.5, error)))
            return NULL;
          Q = gnn_linalg_solve (lhs, rhs, error);
        }
      if (Q == NULL)
        return NULL;
      if (n != k)
        {
          GnnTensor *cols = gnn_tensor_narrow (Q, (int) nd - 1, 0, k, error);

          g_clear_object (&Q);
          if (!(Q = cols))
            return NULL;
        }
    }
  else
    {
      g_autoptr(GnnTensor) A = NULL, AA = NULL, s = NULL, s1 = NULL, r = NULL, tau = NULL;
      g_autoptr(GnnTensor) H = NULL, xd = NULL, diag = NULL, di = NULL, df = NULL, du = NULL;
      int dim = (int) nd - 2;

      if (!(A = gnn_tensor_tril (x, -1, error)) || !(AA = gnn_tensor_mul (A, A, error)) ||
          !(s = gnn_tensor_sum (AA, &dim, 1, FALSE, error)) ||
          !(s1 = gnn_tensor_add_scalar (s, 1.0, error)) ||
          !(r = gnn_tensor_reciprocal (s1, error)) ||
          !(tau = gnn_tensor_mul_scalar (r, 2.0, error)) ||
          !(H = gnn_linalg_householder_product (A, tau, error)))
        return NULL;
      /* the signs on the diagonal of X, cast to int as torch does: no gradient goes there */
      xd = gnn_tensor_detach (x);
      if (!(diag = gnn_tensor_diagonal (xd, 0, (int) nd - 2, (int) nd - 1, error)) ||
          !(di = gnn_tensor_to_dtype (diag, GNN_DTYPE_INT32, error)) ||
          !(df = gnn_tensor_to_dtype (di, dtype, error)) ||
          !(du = gnn_tensor_unsqueeze (df, (int) nd - 2, error)) ||
          !(Q = gnn_tensor_mul (H, du, error)))
        return NULL;
    }

  if (self->use_trivialization)
    {
      GnnTensor *base = gnn_module_get_buffer (module, "base", error);
      GnnTensor *bq;

      if (base == NULL || !(bq = gnn_tensor_matmul (base, Q, error)))
        return NULL;
      g_object_unref (Q);
      Q = bq;
    }
  if (transposed)
    out = orth_mt (Q, error);
  else
    out = g_object_ref (Q);
  return out ? gnn_args_new_tensor (out) : NULL;
}

/* LAPACK's geqrf on one row-major m × n matrix (m ≥ n), in place: R on and above the
 * diagonal, the reflectors' vectors below it (their leading 1 implied), their scales in @tau */
static void
orth_host_geqrf (double *a, gint64 m, gint64 n, double *tau)
{
  for (gint64 j = 0; j < n; j++)
    {
      double alpha = a[j * n + j], xnorm = 0.0, beta, scal;

      for (gint64 i = j + 1; i < m; i++)
        xnorm += a[i * n + j] * a[i * n + j];
      xnorm = sqrt (xnorm);
      if (xnorm == 0.0)
        {
          tau[j] = 0.0;
          continue;
        }
      beta = -copysign (hypot (alpha, xnorm), alpha);
      tau[j] = (beta - alpha) / beta;
      scal = 1.0 / (alpha - beta);
      for (gint64 i = j + 1; i < m; i++)
        a[i * n + j] *= scal;
      a[j * n + j] = beta;
      for (gint64 c = j + 1; c < n; c++)
        {
          double s = a[j * n + c];

          for (gint64 i = j + 1; i < m; i++)
            s += a[i * n + j] * a[i * n + c];
          s *= tau[j];
          a[j * n + c] -= s;
          for (gint64 i = j + 1; i < m; i++)
            a[i * n + c] -= s * a[i * n + j];
        }
    }
}

static double
orth_sgn (double v)
{
  return v > 0.0 ? 1.0 : v < 0.0 ? -1.0 : 0.0;
}

/* torch's _make_orthogonal on one n × n matrix: the Q of A = QR with diag(R) ≥ 0 */
static void
orth_host_make_orthogonal (const double *a_in, gint64 n, double *q)
{
  g_autofree double *a = g_memdup2 (a_in, n * n * sizeof (double));
  g_autofree double *tau = g_new (double, n);

  orth_host_geqrf (a, n, n, tau);
  for (gint64 i = 0; i < n * n; i++)
    q[i] = i / n == i % n ? 1.0 : 0.0;
  for (gint64 j = n - 1; j >= 0; j--)
    for (gint64 c = 0; c < n; c++)
      {
        double s = q[j * n + c];

        for (gint64 i = j + 1; i < n; i++)
          s += a[i * n + j] * q[i * n + c];
        s *= tau[j];
        q[j * n + c] -= s;
        for (gint64 i = j + 1; i < n; i++)
          q[i * n + c] -= s * a[i * n + j];
      }
  for (gint64 j = 0; j < n; j++)
    {
      double sg = orth_sgn (a[j * n + j]);

      for (gint64 i = 0; i < n; i++)
        q[i * n + j] *= sg;
    }
}

/* @data (batch of row-major @rows × @cols, in host doubles) as a tensor of @like's dtype and
 * device with @like's leading dimensions */
static GnnTensor *
orth_from_host (const double *data, gint64 batch, gint64 rows, gint64 cols, GnnTensor *like,
                GError **error)
{
  gint64 shape[GNN_MAX_DIMS];
  guint nd = gnn_tensor_get_ndim (like);
  g_autoptr(GnnTensor) t = NULL, c = NULL;

  memcpy (shape, gnn_tensor_get_shape (like, NULL), nd * sizeof (gint64));
  shape[nd - 2] = rows;
  shape[nd - 1] = cols;
  if (!(t = gnn_tensor_new_from_doubles (data, batch * rows * cols, shape, nd, error)) ||
      !(c = gnn_tensor_to_dtype (t, gnn_tensor_get_dtype (like), error)))
    return NULL;
  return gnn_tensor_to_device (c, gnn_tensor_get_device (like), error);
}

static gboolean
orthogonal_right_inverse_nograd (GnnOrthogonal *self, GnnTensor *value, GnnArgs *out,
                                 GError **error)
{
  const gint64 *shape;
  guint nd = gnn_tensor_get_ndim (value);
  gint64 n, k, batch;
  gboolean transposed;
  g_autoptr(GnnTensor) q = NULL, res = NULL;
  g_autofree double *qd = NULL;
  gsize nq;

  shape = gnn_tensor_get_shape (value, NULL);
  if (nd != self->ndim || memcmp (shape, self->shape, nd * sizeof (gint64)) != 0)
    {
      g_autofree char *want = orth_shape_string (self->shape, self->ndim);
      g_autofree char *got = orth_shape_string (shape, nd);

      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "Expected a matrix or batch of matrices of shape %s. Got a tensor of shape %s.",
                   want, got);
      return FALSE;
    }
  n = shape[nd - 2];
  k = shape[nd - 1];
  transposed = n < k;
  if (transposed)
    {
      gint64 t = n;

      n = k;
      k = t;
      q = orth_mt (value, error);
    }
  else
    q = g_object_ref (value);
  if (q == NULL || !(qd = gnn_tensor_to_doubles (q, &nq, error)))
    return FALSE;
  batch = n * k != 0 ? (gint64) nq / (n * k) : 0;

  if (!self->use_trivialization)
    {
      g_autofree double *tau = g_new (double, k);

      if (self->map != ORTH_HOUSEHOLDER)
        {
          g_set_error_literal (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED,
                               "It is not possible to assign to the matrix exponential or the "
                               "Cayley parametrizations when use_trivialization=False.");
          return FALSE;
        }
      for (gint64 b = 0; b < batch; b++)
        {
          double *a = qd + b * n * k;

          orth_host_geqrf (a, n, k, tau);
          for (gint64 j = 0; j < k; j++)
            {
              a[j * k + j] = orth_sgn (a[j * k + j]);
              if (tau[j] == 0.0)
                a[j * k + j] *= -1.0;
            }
        }
      if (!(res = orth_from_host (qd, batch, n, k, q, error)))
        return FALSE;
      if (transposed)
        {
          GnnTensor *t = orth_mt (res, error);

          g_object_unref (res);
          if (!(res = t))
            return FALSE;
        }
    }
  else
    {
      g_autofree double *sq = g_new0 (double, batch * n * n);
      g_autofree double *base = g_new (double, batch * n * n);
      g_autofree double *neg_id = g_new0 (double, nq);
      g_autoptr(GnnTensor) base_t = NULL;
      GnnTensor *buffer;
      double eps = gnn_tensor_get_dtype (value) == GNN_DTYPE_FLOAT64 ? DBL_EPSILON : FLT_EPSILON;

      if (n != k)
        {
          /* complete Q into an n × n matrix with standard normal columns, then orthogonalize */
          gint64 nshape[GNN_MAX_DIMS];
          g_autoptr(GnnTensor) N = NULL;
          g_autofree double *nd_data = NULL;
          gsize nn;

          memcpy (nshape, gnn_tensor_get_shape (q, NULL), nd * sizeof (gint64));
          nshape[nd - 1] = n - k;
          if (!(N = gnn_tensor_new_zeros (nshape, nd, gnn_tensor_get_dtype (value),
                                          gnn_tensor_get_device (value), error)) ||
              !gnn_init_normal_ (N, 0.0, 1.0, NULL, error) ||
              !(nd_data = gnn_tensor_to_doubles (N, &nn, error)))
            return FALSE;
          for (gint64 b = 0; b < batch; b++)
            for (gint64 i = 0; i < n; i++)
              {
                memcpy (sq + (b * n + i) * n, qd + (b * n + i) * k, k * sizeof (double));
                memcpy (sq + (b * n + i) * n + k, nd_data + (b * n + i) * (n - k),
                        (n - k) * sizeof (double));
              }
          for (gint64 b = 0; b < batch; b++)
            orth_host_make_orthogonal (sq + b * n * n, n, base + b * n * n);
        }
      else
        {
          memcpy (sq, qd, nq * sizeof (double));
          for (gint64 b = 0; b < batch; b++)
            {
              const double *m = sq + b * n * n;
              gboolean orth = TRUE;

              /* torch's _is_orthogonal: allclose (QᵀQ, I, atol = 10 n eps) */
              for (gint64 i = 0; orth && i < n; i++)
                for (gint64 j = 0; orth && j < n; j++)
                  {
                    double s = 0.0, want = i == j ? 1.0 : 0.0;

                    for (gint64 r = 0; r < n; r++)
                      s += m[r * n + i] * m[r * n + j];
                    orth = fabs (s - want) <= 10.0 * n * eps + 1e-5 * fabs (want);
                  }
              if (orth)
                memcpy (base + b * n * n, m, n * n * sizeof (double));
              else
                orth_host_make_orthogonal (m, n, base + b * n * n);
            }
        }
      if (!(base_t = orth_from_host (base, batch, n, n, q, error)))
        return FALSE;
      buffer = gnn_module_get_buffer (GNN_MODULE (self), "base", error);
      if (buffer == NULL || !gnn_tensor_copy_ (buffer, base_t, error))
        return FALSE;
      /* −I, so that householder (zeros) is the identity as torch has it */
      for (gint64 b = 0; b < batch; b++)
        for (gint64 j = 0; j < k; j++)
          neg_id[b * n * k + j * k + j] = -1.0;
      if (!(res = orth_from_host (neg_id, batch, shape[nd - 2], shape[nd - 1], value, error)))
        return FALSE;
      /* neg_id was laid out as n × k; the diagonal of its transpose is the same */
      if (transposed)
        {
          g_autofree double *t = g_new0 (double, nq);

          g_object_unref (res);
          for (gint64 b = 0; b < batch; b++)
            for (gint64 j = 0; j < k; j++)
              t[b * n * k + j * n + j] = -1.0;
          if (!(res = orth_from_host (t, batch, shape[nd - 2], shape[nd - 1], value, error)))
            return FALSE;
        }
    }
  gnn_args_add_tensor (out, res);
  return TRUE;
}

static gboolean
orthogonal_right_inverse (GnnModule *p, GnnTensor *value, GnnArgs *out, gpointer data,
                          GError **error)
{
  gboolean grad = gnn_is_grad_enabled (), ok;

  gnn_set_grad_enabled (FALSE);
  ok = orthogonal_right_inverse_nograd (GNN_ORTHOGONAL (p), value, out, error);
  gnn_set_grad_enabled (grad);
  return ok;
}

static char *
gnn_orthogonal_extra_repr (GnnModule *module)
{
  return g_strdup ("");
}

enum {
  ORTH_PROP_0,
  ORTH_PROP_ORTHOGONAL_MAP,
  ORTH_PROP_USE_TRIVIALIZATION,
  ORTH_PROP_SHAPE,
  ORTH_N_PROPS
};

static GnnProp orthogonal_props[ORTH_N_PROPS];

static void
orth_map_get (GObject *object, GParamSpec *pspec, GValue *value)
{
  g_value_set_string (value, orth_map_names[GNN_ORTHOGONAL (object)->map]);
}

static int
orth_map_index (const char *name)
{
  for (int i = 0; name && i < (int) G_N_ELEMENTS (orth_map_names); i++)
    if (strcmp (name, orth_map_names[i]) == 0)
      return i;
  return -1;
}

static gboolean
orth_map_check (GParamSpec *pspec, const GValue *value, GError **error)
{
  if (orth_map_index (g_value_get_string (value)) >= 0)
    return TRUE;
  g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
               "orthogonal_map has to be one of \"matrix_exp\", \"cayley\", \"householder\". "
               "Got: %s", g_value_get_string (value) ? g_value_get_string (value) : "None");
  return FALSE;
}

static void
orth_map_set (GObject *object, GParamSpec *pspec, const GValue *value)
{
  int map = orth_map_index (g_value_get_string (value));

  GNN_ORTHOGONAL (object)->map = MAX (map, 0);
}

static void
orth_shape_get (GObject *object, GParamSpec *pspec, GValue *value)
{
  GnnOrthogonal *self = GNN_ORTHOGONAL (object);

  g_value_set_variant (value, g_variant_new_fixed_array (G_VARIANT_TYPE_INT64, self->shape,
                                                         self->ndim, sizeof (gint64)));
}

static gboolean
orth_shape_check (GParamSpec *pspec, const GValue *value, GError **error)
{
  GVariant *v = g_value_get_variant (value);
  gsize n = 0;
  const gint64 *shape = v ? g_variant_get_fixed_array (v, &n, sizeof (gint64)) : NULL;

  if (n > GNN_MAX_DIMS)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "shape: expected at most %d dimensions, got %" G_GSIZE_FORMAT, GNN_MAX_DIMS, n);
      return FALSE;
    }
  for (gsize i = 0; i < n; i++)
    if (shape[i] < 0)
      {
        g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                     "shape: expected sizes of at least 0, got %" G_GINT64_FORMAT, shape[i]);
        return FALSE;
      }
  return TRUE;
}

static void
orth_shape_set (GObject *object, GParamSpec *pspec, const GValue *value)
{
  GnnOrthogonal *self = GNN_ORTHOGONAL (object);
  GVariant *v = g_value_get_variant (value);
  gsize n = 0;
  const gint64 *shape = v ? g_variant_get_fixed_array (v, &n, sizeof (gint64)) : NULL;

  self->ndim = (guint) MIN (n, GNN_MAX_DIMS);
  if (self->ndim)
    memcpy (self->shape, shape, self->ndim * sizeof (gint64));
}

static void
gnn_orthogonal_class_init (GnnOrthogonalClass *klass)
{
  GNN_MODULE_CLASS (klass)->forward = gnn_orthogonal_forward;
  GNN_MODULE_CLASS (klass)->extra_repr = gnn_orthogonal_extra_repr;

  /**
   * GnnOrthogonal:orthogonal-map:
   *
   * The map: "matrix_exp", "cayley" or "householder" (torch's `orthogonal_map`).
   *
   * Since: 0.1
   */
  orthogonal_props[ORTH_PROP_ORTHOGONAL_MAP] = (GnnProp) {
    g_param_spec_string ("orthogonal-map", NULL, NULL, "matrix_exp",
                         GNN_PARAM_RW | G_PARAM_CONSTRUCT_ONLY),
    GNN_PROP_NO_MEMBER, orth_map_check, orth_map_get, orth_map_set };
  /**
   * GnnOrthogonal:use-trivialization:
   *
   * Whether the result is multiplied by the buffer `base` (torch's `use_trivialization`).
   *
   * Since: 0.1
   */
  orthogonal_props[ORTH_PROP_USE_TRIVIALIZATION] = (GnnProp) {
    g_param_spec_boolean ("use-trivialization", NULL, NULL, TRUE,
                          GNN_PARAM_RW | G_PARAM_CONSTRUCT_ONLY),
    G_STRUCT_OFFSET (GnnOrthogonal, use_trivialization) };
  /**
   * GnnOrthogonal:shape:
   *
   * The shape of the weight it was made for (torch's `shape`), an array of sizes (`ax`).
   *
   * Since: 0.1
   */
  orthogonal_props[ORTH_PROP_SHAPE] = (GnnProp) {
    g_param_spec_variant ("shape", NULL, NULL, G_VARIANT_TYPE ("ax"), NULL,
                          GNN_PARAM_RW | G_PARAM_CONSTRUCT_ONLY),
    GNN_PROP_NO_MEMBER, orth_shape_check, orth_shape_get, orth_shape_set };

  gnn_props_install (G_OBJECT_CLASS (klass), orthogonal_props, ORTH_N_PROPS);
}

static void
gnn_orthogonal_init (GnnOrthogonal *self)
{
  self->use_trivialization = TRUE;
  gnn_parametrization_set_right_inverse (GNN_MODULE (self), orthogonal_right_inverse, NULL, NULL);
}

/**
 * gnn_orthogonal_new:
 * @weight: the weight it will parametrize, a matrix or a batch of matrices (its shape, dtype
 *   and device)
 * @orthogonal_map: (nullable): "matrix_exp", "cayley" or "householder"; %NULL for torch's
 *   default: "matrix_exp" for a square matrix, "householder" otherwise
 * @use_trivialization: whether to keep the buffer `base` and multiply by it (torch's default
 *   %TRUE); without it, only "householder" has a right inverse
 * @error: return location for a #GError
 *
 * Makes the orthogonal parametrization of @weight (torch's `_Orthogonal (weight, map,
 * use_trivialization=)`). With @use_trivialization, `base` starts as zeros of shape (…, n, n)
 * (n the larger of the two last dimensions) until the right inverse sets it.
 *
 * Returns: (transfer full): the parametrization, or %NULL with @error set when @weight has
 *   fewer than two dimensions or @orthogonal_map is unknown (%GNN_ERROR_INVALID_ARGUMENT)
 *
 * Since: 0.1
 */
GnnOrthogonal *
gnn_orthogonal_new (GnnTensor  *weight,
                    const char *orthogonal_map,
                    gboolean    use_trivialization,
                    GError    **error)
{
  g_autoptr(GnnOrthogonal) self = NULL;
  const gint64 *shape;
  guint ndim;
  int map = -1;

  g_return_val_if_fail (GNN_IS_TENSOR (weight), NULL);
  shape = gnn_tensor_get_shape (weight, &ndim);
  if (ndim < 2)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "Expected a matrix or batch of matrices. Got a tensor of %u dimensions.", ndim);
      return NULL;
    }
  if (orthogonal_map == NULL)
    map = shape[ndim - 2] == shape[ndim - 1] ? ORTH_MATRIX_EXP : ORTH_HOUSEHOLDER;
  else
    for (int i = 0; i < (int) G_N_ELEMENTS (orth_map_names); i++)
      if (strcmp (orthogonal_map, orth_map_names[i]) == 0)
        map = i;
  if (map < 0)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "orthogonal_map has to be one of \"matrix_exp\", \"cayley\", \"householder\". "
                   "Got: %s", orthogonal_map);
      return NULL;
    }
  self = g_object_new (GNN_TYPE_ORTHOGONAL, NULL);
  self->map = map;
  self->use_trivialization = use_trivialization;
  self->ndim = ndim;
  memcpy (self->shape, shape, ndim * sizeof (gint64));
  if (use_trivialization)
    {
      gint64 bshape[GNN_MAX_DIMS];
      gint64 n = MAX (shape[ndim - 2], shape[ndim - 1]);
      g_autoptr(GnnTensor) base = NULL;

      memcpy (bshape, shape, ndim * sizeof (gint64));
      bshape[ndim - 2] = bshape[ndim - 1] = n;
      if (!(base = gnn_tensor_new_zeros (bshape, ndim, gnn_tensor_get_dtype (weight),
                                         gnn_tensor_get_device (weight), error)) ||
          !gnn_module_register_buffer (GNN_MODULE (self), "base", base, TRUE, error))
        return NULL;
    }
  return g_steal_pointer (&self);
}

/**
 * gnn_orthogonal:
 * @module: a module
 * @name: the name of its weight (torch's default "weight")
 * @orthogonal_map: (nullable): "matrix_exp", "cayley" or "householder"; %NULL for torch's
 *   default ("matrix_exp" for a square weight, "householder" otherwise)
 * @use_trivialization: whether to keep the buffer `base` (torch's default %TRUE)
 * @error: return location for a #GError
 *
 * `torch.nn.utils.parametrizations.orthogonal`: registers a [class@Gnn.Orthogonal] on @name
 * (unsafely, as torch does), so that @module's weight reads as a matrix with orthonormal
 * columns (or rows, for a wide one). The state dict then holds
 * `parametrizations.<name>.original` and, with @use_trivialization,
 * `parametrizations.<name>.0.base`; at registration the base is the weight made orthogonal
 * (its QR factor Q with diag(R) ≥ 0, a tall weight first completed by standard normal
 * columns) and `original` is −I.
 *
 * Returns: %TRUE on success; %FALSE with @error set when @module has no tensor @name
 *   (%GNN_ERROR_INVALID_ARGUMENT) or [ctor@Gnn.Orthogonal.new] fails
 *
 * Since: 0.1
 */
gboolean
gnn_orthogonal (GnnModule  *module,
                const char *name,
                const char *orthogonal_map,
                gboolean    use_trivialization,
                GError    **error)
{
  g_autoptr(GnnTensor) weight = NULL;
  g_autoptr(GnnOrthogonal) p = NULL;

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
  p = gnn_orthogonal_new (weight, orthogonal_map, use_trivialization, error);
  if (p == NULL)
    {
      g_prefix_error (error, "%s '%s': ", gnn_module_get_name (module), name);
      return FALSE;
    }
  return gnn_register_parametrization (module, name, GNN_MODULE (p), TRUE, error);
}

/* ---- the hook-based weight_norm ---------------------------------------------------------- */

typedef struct
{
  char *name;
  int dim;
} WeightNormHook;

static void
weight_norm_hook_free (gpointer data)
{
  WeightNormHook *h = data;

  g_free (h->name);
  g_free (h);
}

/* torch's norm_except_dim (v, 2, dim): the 2-norm over every dimension but @dim, kept as 1s;
 * over all of them (a 0-D tensor) when @dim is -1 (torch's None). Other negative dimensions
 * count from the end, as torch's do; out of range is %GNN_ERROR_INDEX with torch's message. */
static GnnTensor *
weight_norm_except_dim (GnnTensor *v, int dim, GError **error)
{
  int dims[GNN_MAX_DIMS];
  guint nd = gnn_tensor_get_ndim (v), k = 0;

  if (dim == -1)
    {
      for (guint d = 0; d < nd; d++)
        dims[k++] = (int) d;
      return gnn_linalg_vector_norm (v, 2.0, dims, k, FALSE, error);
    }
  if (dim < -(int) MAX (nd, 1) || dim >= (int) MAX (nd, 1))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INDEX,
                   "Dimension out of range (expected to be in range of [-%u, %d], but got %d)",
                   MAX (nd, 1), (int) MAX (nd, 1) - 1, dim);
      return NULL;
    }
  if (dim < 0)
    dim += (int) nd;
  for (guint d = 0; d < nd; d++)
    if ((int) d != dim)
      dims[k++] = (int) d;
  return gnn_linalg_vector_norm (v, 2.0, dims, k, TRUE, error);
}

/* v · (g / ‖v‖), torch's _weight_norm (v, g, dim) */
static GnnTensor *
weight_norm_apply (GnnTensor *g, GnnTensor *v, int dim, GError **error)
{
  g_autoptr(GnnTensor) norm = NULL, scale = NULL;

  if (!(norm = weight_norm_except_dim (v, dim, error)) ||
      !(scale = gnn_tensor_div (g, norm, error)))
    return NULL;
  return gnn_tensor_mul (v, scale, error);
}

static GnnTensor *
weight_norm_compute (GnnModule *module, gpointer data, GError **error)
{
  WeightNormHook *h = data;
  g_autofree char *g_name = g_strconcat (h->name, "_g", NULL);
  g_autofree char *v_name = g_strconcat (h->name, "_v", NULL);
  GnnParameter *g = gnn_module_find_parameter (module, g_name);
  GnnParameter *v = gnn_module_find_parameter (module, v_name);

  if (g == NULL || v == NULL)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "Module '%s' has no parameters '%s' and '%s'", gnn_module_get_name (module),
                   g_name, v_name);
      return NULL;
    }
  return weight_norm_apply (GNN_TENSOR (g), GNN_TENSOR (v), h->dim, error);
}

static void
weight_norm_forward_pre_hook (GnnModule *module, GnnArgs *input, gpointer data)
{
  WeightNormHook *h = data;
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) w = weight_norm_compute (module, h, &error);

  (void) input;
  /* a hook cannot fail: without g or v the attribute goes and the forward reports it */
  if (w == NULL || !gnn_module_set_tensor_attribute (module, h->name, w, &error))
    {
      g_debug ("weight_norm %s of %s: %s", h->name, gnn_module_get_name (module), error->message);
      gnn_module_set_tensor_attribute (module, h->name, NULL, NULL);
    }
}

/* The forward pre-hook @func of @module that recomputes the weight @name: weight_norm's or
 * spectral_norm's, whose data (WeightNormHook, SpectralNormHook) both start with the weight's
 * name. NULL when there is none. */
static GnnModuleHook *
find_weight_hook (GnnModule *module, GnnForwardPreHookFunc func, const char *name)
{
  GPtrArray *hooks = gnn_module_priv (module)->forward_hooks;

  for (guint i = 0; hooks && i < hooks->len; i++)
    {
      GnnModuleHook *h = hooks->pdata[i];

      if (h->kind == GNN_HOOK_FORWARD_PRE && h->func == (gpointer) func &&
          g_strcmp0 (*(char **) h->data, name) == 0)
        return h;
    }
  return NULL;
}

/* One tensor that replaces the weight of a hook-based norm: `<name><suffix>`, a parameter
 * when @tensor is a GnnParameter, a persistent buffer otherwise. */
typedef struct
{
  const char *suffix;
  GnnTensor *tensor;
} WeightHookSlot;

/* The parameter @name of @module that a hook-based norm (@kind, its hook @func) may replace,
 * borrowed: NULL with @error set (%GNN_ERROR_INVALID_ARGUMENT) when @name already has such a
 * hook or is no parameter of @module. */
static GnnParameter *
weight_hook_parameter (GnnModule *module, const char *name, GnnForwardPreHookFunc func,
                       const char *kind, GError **error)
{
  GnnParameter *param;

  if (find_weight_hook (module, func, name))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "Cannot register two %s hooks on the same parameter %s", kind, name);
      return NULL;
    }
  param = gnn_module_find_parameter (module, name);
  if (param == NULL)
    g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                 "Module '%s' has no parameter with name '%s'", gnn_module_get_name (module), name);
  return param;
}

/* The set-up of a hook-based norm, all or nothing: the parameter @name of @module is replaced
 * by the @n_slots tensors `<name><suffix>` (registered in that order), @name reads as the
 * plain tensor attribute @weight until the first forward, and the forward pre-hook @func
 * (with @hook_data, which @free_data frees, on failure too) recomputes it before each call.
 * The new tensors are registered before @name goes, so that a name clash among them leaves
 * @module as it was, @name in its place. */
static gboolean
install_weight_hook (GnnModule *module, const char *name, const WeightHookSlot *slots,
                     guint n_slots, GnnTensor *weight, GnnForwardPreHookFunc func,
                     gpointer hook_data, GDestroyNotify free_data, GError **error)
{
  g_autoptr(GnnParameter) keep = g_object_ref (gnn_module_find_parameter (module, name));
  guint done = 0;
  gboolean ok = TRUE;

  while (ok && done < n_slots)
    {
      g_autofree char *slot_name = g_strconcat (name, slots[done].suffix, NULL);
      GnnTensor *t = slots[done].tensor;

      ok = GNN_IS_PARAMETER (t)
        ? gnn_module_register_parameter (module, slot_name, GNN_PARAMETER (t), error)
        : gnn_module_register_buffer (module, slot_name, t, TRUE, error);
      if (ok)
        done++;
    }
  if (ok)
    {
      gnn_module_remove (module, name);
      ok = gnn_module_set_tensor_attribute (module, name, weight, error);
      if (!ok)
        gnn_module_register_parameter (module, name, keep, NULL);
    }
  if (!ok)
    {
      for (guint i = 0; i < done; i++)
        {
          g_autofree char *slot_name = g_strconcat (name, slots[i].suffix, NULL);
          gnn_module_remove (module, slot_name);
        }
      free_data (hook_data);
      return FALSE;
    }
  gnn_module_register_forward_pre_hook (module, func, hook_data, free_data, FALSE, FALSE);
  return TRUE;
}

typedef GnnTensor *(*WeightHookCompute) (GnnModule *module, gpointer hook_data, GError **error);

/* The removal of a hook-based norm (@kind, its hook @func) from @name: the weight @compute
 * gives (without gradients) becomes the parameter @name again, registered last as torch
 * does, and the hook, the attribute and the tensors `<name><suffix>` of @suffixes (ending
 * with NULL) go. On failure (%GNN_ERROR_INVALID_ARGUMENT when there is no such hook)
 * @module is as it was. */
static gboolean
uninstall_weight_hook (GnnModule *module, const char *name, GnnForwardPreHookFunc func,
                       const char *kind, WeightHookCompute compute,
                       const char *const *suffixes, GError **error)
{
  GnnModuleHook *hook = find_weight_hook (module, func, name);
  g_autoptr(GnnTensor) w = NULL, data = NULL;
  g_autoptr(GnnParameter) param = NULL;

  if (hook == NULL)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "%s of '%s' not found in %s", kind, name, gnn_module_get_name (module));
      return FALSE;
    }
  {
    g_autoptr(GnnNoGradGuard) guard = gnn_no_grad_guard_new ();

    if (!(w = compute (module, hook->data, error)))
      return FALSE;
  }
  data = gnn_tensor_detach (w);
  if (!(param = gnn_parameter_new (data, TRUE, error)))
    return FALSE;
  gnn_module_remove_hook (module, hook->id);
  gnn_module_set_tensor_attribute (module, name, NULL, NULL);
  for (guint i = 0; suffixes[i]; i++)
    {
      g_autofree char *slot_name = g_strconcat (name, suffixes[i], NULL);
      gnn_module_remove (module, slot_name);
    }
  return gnn_module_register_parameter (module, name, param, error);
}

/* the weight norm's hook on @name, with `<name>_g` = @g and `<name>_v` = @v, and @weight as
 * `<name>` until the first forward */
static gboolean
install_weight_norm (GnnModule    *module,
                     const char   *name,
                     int           dim,
                     GnnParameter *g,
                     GnnParameter *v,
                     GnnTensor    *weight,
                     GError      **error)
{
  WeightNormHook *h = g_new0 (WeightNormHook, 1);

  h->name = g_strdup (name);
  h->dim = dim;
  return install_weight_hook (module, name,
                              (WeightHookSlot[]) { { "_g", GNN_TENSOR (g) }, { "_v", GNN_TENSOR (v) } },
                              2, weight, weight_norm_forward_pre_hook, h, weight_norm_hook_free, error);
}

/**
 * gnn_weight_norm:
 * @module: a module
 * @name: the name of its weight parameter (torch's default "weight")
 * @dim: the dimension kept by the norm (torch's default 0); -1 (torch's `None`) for the norm
 *   of the whole tensor; other negative dimensions count from the end
 * @error: return location for a #GError
 *
 * The hook-based `torch.nn.utils.weight_norm`: the parameter @name is replaced by
 * `<name>_g` (its norm over every dimension but @dim) and `<name>_v` (its values), and a
 * forward pre-hook recomputes `<name>` = v · g / ‖v‖ before each call, as torch's state-dict
 * keys and semantics have it. [func@Gnn.remove_weight_norm] undoes it.
 *
 * Returns: %TRUE on success; %FALSE with @error set when @name is not a parameter of @module
 *   or already has a weight norm (%GNN_ERROR_INVALID_ARGUMENT), or @dim is out of range
 *   (%GNN_ERROR_INDEX)
 *
 * Since: 0.1
 */
gboolean
gnn_weight_norm (GnnModule  *module,
                 const char *name,
                 int         dim,
                 GError    **error)
{
  GnnParameter *param;
  g_autoptr(GnnParameter) g = NULL, v = NULL;
  g_autoptr(GnnTensor) data = NULL, norm = NULL, w = NULL;

  g_return_val_if_fail (GNN_IS_MODULE (module), FALSE);
  g_return_val_if_fail (name != NULL, FALSE);
  param = weight_hook_parameter (module, name, weight_norm_forward_pre_hook, "weight_norm", error);
  if (param == NULL)
    return FALSE;
  data = gnn_tensor_detach (GNN_TENSOR (param));
  if (!(norm = weight_norm_except_dim (data, dim, error)) ||
      !(g = gnn_parameter_new (norm, TRUE, error)) ||
      !(v = gnn_parameter_new (data, TRUE, error)) ||
      !(w = weight_norm_apply (GNN_TENSOR (g), GNN_TENSOR (v), dim, error)))
    return FALSE;
  return install_weight_norm (module, name, dim, g, v, w, error);
}

/**
 * gnn_remove_weight_norm:
 * @module: a module with a weight norm on @name
 * @name: the name of the weight (torch's default "weight")
 * @error: return location for a #GError
 *
 * `torch.nn.utils.remove_weight_norm`: `<name>` is a parameter again, holding v · g / ‖v‖;
 * `<name>_g`, `<name>_v` and the hook are gone.
 *
 * Returns: %TRUE on success; %FALSE with @error set when @module has no weight norm on @name
 *   (%GNN_ERROR_INVALID_ARGUMENT)
 *
 * Since: 0.1
 */
gboolean
gnn_remove_weight_norm (GnnModule  *module,
                        const char *name,
                        GError    **error)
{
  static const char *const suffixes[] = { "_g", "_v", NULL };

  g_return_val_if_fail (GNN_IS_MODULE (module), FALSE);
  g_return_val_if_fail (name != NULL, FALSE);
  return uninstall_weight_hook (module, name, weight_norm_forward_pre_hook, "weight_norm",
                                weight_norm_compute, suffixes, error);
}

/* ---- weight_norm, the parametrization ----------------------------------------------------- */

/**
 * GnnWeightNorm:
 *
 * The parametrization of [func@Gnn.parametrizations_weight_norm], PyTorch 2.1's
 * `torch.nn.utils.parametrizations._WeightNorm`: its forward takes the magnitude g and the
 * direction v and gives v · g / ‖v‖, the norm taken over every dimension but `dim` (over the
 * whole tensor when `dim` is -1, torch's `None`); its right inverse splits a weight into
 * g = ‖weight‖ (over every dimension but `dim`, kept as 1s) and v = weight.
 *
 * Since: 0.1
 */
struct _GnnWeightNorm
{
  GnnModule parent_instance;
  int dim;
};

enum {
  WN_PROP_0,
  WN_PROP_DIM,
  WN_N_PROPS
};

static GnnProp weight_norm_props[WN_N_PROPS];

G_DEFINE_FINAL_TYPE (GnnWeightNorm, gnn_weight_norm, GNN_TYPE_MODULE)

static GnnArgs *
gnn_weight_norm_forward (GnnModule *module,
                         GnnArgs   *input,
                         GError   **error)
{
  GnnWeightNorm *self = GNN_WEIGHT_NORM (module);
  GnnTensor *g, *v;
  g_autoptr(GnnTensor) w = NULL;

  if (gnn_args_get_n_values (input) != 2)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "_WeightNorm.forward() takes 2 tensors (weight_g, weight_v), got %u",
                   gnn_args_get_n_values (input));
      return NULL;
    }
  if (!(g = gnn_args_get_tensor (input, 0, error)) || !(v = gnn_args_get_tensor (input, 1, error)) ||
      !(w = weight_norm_apply (g, v, self->dim, error)))
    return NULL;
  return gnn_args_new_tensor (w);
}

static gboolean
weight_norm_right_inverse (GnnModule *p, GnnTensor *value, GnnArgs *out, gpointer data,
                           GError **error)
{
  g_autoptr(GnnTensor) g = weight_norm_except_dim (value, GNN_WEIGHT_NORM (p)->dim, error);

  if (g == NULL)
    return FALSE;
  gnn_args_add_tensor (out, g);
  gnn_args_add_tensor (out, value);
  return TRUE;
}

static char *
gnn_weight_norm_extra_repr (GnnModule *module)
{
  return g_strdup ("");
}

static void
gnn_weight_norm_class_init (GnnWeightNormClass *klass)
{
  GNN_MODULE_CLASS (klass)->forward = gnn_weight_norm_forward;
  GNN_MODULE_CLASS (klass)->extra_repr = gnn_weight_norm_extra_repr;

  /**
   * GnnWeightNorm:dim:
   *
   * The dimension the norm keeps (torch's `dim`, default 0); -1 (torch's `None`) for the
   * norm of the whole tensor; other negative dimensions count from the end. It is checked
   * against the weight when the parametrization is registered.
   *
   * Since: 0.1
   */
  weight_norm_props[WN_PROP_DIM] = (GnnProp) {
    g_param_spec_int ("dim", NULL, NULL, G_MININT, G_MAXINT, 0,
                      GNN_PARAM_RW | G_PARAM_CONSTRUCT_ONLY),
    G_STRUCT_OFFSET (GnnWeightNorm, dim) };

  gnn_props_install (G_OBJECT_CLASS (klass), weight_norm_props, WN_N_PROPS);
}

static void
gnn_weight_norm_init (GnnWeightNorm *self)
{
  gnn_parametrization_set_right_inverse (GNN_MODULE (self), weight_norm_right_inverse, NULL, NULL);
}

/**
 * gnn_weight_norm_new:
 * @dim: the dimension kept by the norm (torch's default 0); -1 (torch's `None`) for the norm
 *   of the whole tensor; other negative dimensions count from the end
 *
 * Makes the weight-norm parametrization (torch's `_WeightNorm (dim)`). @dim is checked
 * against the weight when the parametrization is registered.
 *
 * Returns: (transfer full): the parametrization
 *
 * Since: 0.1
 */
GnnWeightNorm *
gnn_weight_norm_new (int dim)
{
  return g_object_new (GNN_TYPE_WEIGHT_NORM, "dim", dim, NULL);
}

/**
 * gnn_weight_norm_get_dim:
 * @self: a weight-norm parametrization
 *
 * The dimension its norm keeps, -1 for the norm of the whole tensor (torch's `dim`).
 *
 * Returns: the dimension
 *
 * Since: 0.1
 */
int
gnn_weight_norm_get_dim (GnnWeightNorm *self)
{
  g_return_val_if_fail (GNN_IS_WEIGHT_NORM (self), 0);
  return self->dim;
}

/* torch's _weight_norm_compat_hook: a state dict of the hook-based weight_norm
 * (`<name>_g`, `<name>_v`) loads into the parametrized module as original0 and original1 */
static void
weight_norm_compat_hook (GnnModule *module, GnnStateDict *state, const char *prefix,
                         gboolean strict, gpointer data)
{
  const char *name = data;
  g_autofree char *g_key = g_strconcat (prefix, name, "_g", NULL);
  g_autofree char *v_key = g_strconcat (prefix, name, "_v", NULL);
  g_autofree char *g_new = g_strconcat (prefix, "parametrizations.", name, ".original0", NULL);
  g_autofree char *v_new = g_strconcat (prefix, "parametrizations.", name, ".original1", NULL);
  g_autoptr(GnnTensor) g = NULL, v = NULL;
  GnnTensor *t;

  (void) module;
  (void) strict;
  if (!gnn_state_dict_contains (state, g_key) || !gnn_state_dict_contains (state, v_key))
    return;
  /* a non-tensor value under either key is left for the load to report */
  if (!(t = gnn_state_dict_get_tensor (state, g_key, NULL)))
    return;
  g = g_object_ref (t);
  if (!(t = gnn_state_dict_get_tensor (state, v_key, NULL)))
    return;
  v = g_object_ref (t);
  gnn_state_dict_remove (state, g_key);
  gnn_state_dict_remove (state, v_key);
  gnn_state_dict_set_tensor (state, g_new, g);
  gnn_state_dict_set_tensor (state, v_new, v);
}

/**
 * gnn_parametrizations_weight_norm:
 * @module: a module
 * @name: the name of its weight (torch's default "weight")
 * @dim: the dimension kept by the norm (torch's default 0); -1 (torch's `None`) for the norm
 *   of the whole tensor; other negative dimensions count from the end
 * @error: return location for a #GError
 *
 * PyTorch 2.1's `torch.nn.utils.parametrizations.weight_norm`: registers a
 * [class@Gnn.WeightNorm] on @name (with `unsafe`, as torch does), so that @module's weight
 * reads as v · g / ‖v‖ with g (the magnitude, its norm over every dimension but @dim) and v
 * (the direction, its values) in `parametrizations.<name>.original0` and
 * `parametrizations.<name>.original1`, which are the state-dict keys. As in torch, a state
 * dict of the hook-based [func@Gnn.weight_norm] (`<name>_g`, `<name>_v`) loads into the
 * module too. [func@Gnn.remove_parametrizations] undoes it.
 *
 * Returns: %TRUE on success; %FALSE with @error set when @module has no tensor @name
 *   (%GNN_ERROR_INVALID_ARGUMENT) or @dim is out of range for it (%GNN_ERROR_INDEX)
 *
 * Since: 0.1
 */
gboolean
gnn_parametrizations_weight_norm (GnnModule  *module,
                                  const char *name,
                                  int         dim,
                                  GError    **error)
{
  g_autoptr(GnnWeightNorm) p = NULL;

  g_return_val_if_fail (GNN_IS_MODULE (module), FALSE);
  g_return_val_if_fail (name != NULL, FALSE);
  p = gnn_weight_norm_new (dim);
  if (!gnn_register_parametrization (module, name, GNN_MODULE (p), TRUE, error))
    return FALSE;
  gnn_module_register_load_state_dict_pre_hook (module, weight_norm_compat_hook, g_strdup (name),
                                                g_free);
  return TRUE;
}

/* ---- the hook-based spectral_norm -------------------------------------------------------- */

typedef struct
{
  char *name;
  int dim;
  int n_power_iterations;
  double eps;
} SpectralNormHook;

static void
spectral_norm_hook_free (gpointer data)
{
  SpectralNormHook *h = data;

  g_free (h->name);
  g_free (h);
}

/* torch's reshape_weight_to_matrix: @dim first, the rest flattened (a 1-D weight as a column) */
static GnnTensor *
spectral_hook_matrix (GnnTensor *weight, int dim, GError **error)
{
  g_autoptr(GnnTensor) permuted = NULL;
  guint nd = gnn_tensor_get_ndim (weight);

  if (nd == 1)
    return gnn_tensor_unsqueeze (weight, 1, error);
  if (dim != 0)
    {
      int perm[GNN_MAX_DIMS];
      guint k = 0;

      perm[k++] = dim;
      for (int d = 0; d < (int) nd; d++)
        if (d != dim)
          perm[k++] = d;
      permuted = gnn_tensor_permute (weight, perm, nd, error);
    }
  else
    permuted = g_object_ref (weight);
  if (permuted == NULL)
    return NULL;
  return gnn_tensor_flatten (permuted, 1, -1, error);
}

static GnnTensor *
spectral_hook_compute (GnnModule *module, SpectralNormHook *h, gboolean power_iteration,
                       GError **error)
{
  g_autofree char *orig_name = g_strconcat (h->name, "_orig", NULL);
  g_autofree char *u_name = g_strconcat (h->name, "_u", NULL);
  g_autofree char *v_name = g_strconcat (h->name, "_v", NULL);
  GnnParameter *orig = gnn_module_find_parameter (module, orig_name);
  GnnTensor *u = gnn_module_get_buffer (module, u_name, NULL);
  GnnTensor *v = gnn_module_get_buffer (module, v_name, NULL);
  g_autoptr(GnnTensor) mat = NULL, uc = NULL, vc = NULL, wv = NULL, sigma = NULL;

  if (orig == NULL || u == NULL || v == NULL)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "Module '%s' has no '%s', '%s' and '%s'", gnn_module_get_name (module),
                   orig_name, u_name, v_name);
      return NULL;
    }
  if (!(mat = spectral_hook_matrix (GNN_TENSOR (orig), h->dim, error)))
    return NULL;
  if (power_iteration)
    {
      gboolean grad = gnn_is_grad_enabled (), ok = TRUE;
      g_autoptr(GnnTensor) mat_t = NULL;

      gnn_set_grad_enabled (FALSE);
      ok = (mat_t = gnn_tensor_t (mat, error)) != NULL;
      for (int i = 0; ok && i < h->n_power_iterations; i++)
        {
          g_autoptr(GnnTensor) wu = NULL, nv = NULL, wvv = NULL, nu = NULL;

          ok = (wu = gnn_tensor_mv (mat_t, u, error)) &&
               (nv = gnn_tensor_normalize (wu, 2.0, 0, h->eps, error)) &&
               gnn_tensor_copy_ (v, nv, error) &&
               (wvv = gnn_tensor_mv (mat, v, error)) &&
               (nu = gnn_tensor_normalize (wvv, 2.0, 0, h->eps, error)) &&
               gnn_tensor_copy_ (u, nu, error);
        }
      gnn_set_grad_enabled (grad);
      if (!ok)
        return NULL;
    }
  if (!(uc = gnn_tensor_clone (u, error)) || !(vc = gnn_tensor_clone (v, error)) ||
      !(wv = gnn_tensor_mv (mat, vc, error)) || !(sigma = gnn_tensor_dot (uc, wv, error)))
    return NULL;
  return gnn_tensor_div (GNN_TENSOR (orig), sigma, error);
}

/* orig / σ from the current u and v, without power iteration */
static GnnTensor *
spectral_hook_compute_current (GnnModule *module, gpointer data, GError **error)
{
  return spectral_hook_compute (module, data, FALSE, error);
}

static void
spectral_norm_forward_pre_hook (GnnModule *module, GnnArgs *input, gpointer data)
{
  SpectralNormHook *h = data;
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) w = spectral_hook_compute (module, h, gnn_module_get_training (module),
                                                  &error);

  (void) input;
  if (w == NULL || !gnn_module_set_tensor_attribute (module, h->name, w, &error))
    {
      g_debug ("spectral_norm %s of %s: %s", h->name, gnn_module_get_name (module), error->message);
      gnn_module_set_tensor_attribute (module, h->name, NULL, NULL);
    }
}


/**
 * gnn_spectral_norm_hook:
 * @module: a module
 * @name: the name of its weight parameter (torch's default "weight")
 * @n_power_iterations: power iteration steps per training forward (torch's default 1)
 * @eps: the epsilon of the normalizations (torch's default 1e-12)
 * @dim: the dimension of the output channels ([func@Gnn.SpectralNorm.default_dim] gives
 *   torch's default)
 * @error: return location for a #GError
 *
 * The hook-based `torch.nn.utils.spectral_norm`: the parameter @name becomes `<name>_orig`,
 * the buffers `<name>_u` and `<name>_v` (standard normal, normalized) are added, and a
 * forward pre-hook sets `<name>` = orig / σ before each call, σ = uᵀ W v after
 * @n_power_iterations steps of power iteration (v first, then u, without gradients) in
 * training mode, none in eval mode. Until the first call `<name>` is orig's values, as in
 * torch. [func@Gnn.remove_spectral_norm] undoes it.
 *
 * Returns: %TRUE on success; %FALSE with @error set when @name is not a parameter of @module
 *   or already has a spectral norm (%GNN_ERROR_INVALID_ARGUMENT), or @dim is out of range
 *   (%GNN_ERROR_INDEX)
 *
 * Since: 0.1
 */
gboolean
gnn_spectral_norm_hook (GnnModule  *module,
                        const char *name,
                        int         n_power_iterations,
                        double      eps,
                        int         dim,
                        GError    **error)
{
  GnnParameter *param;
  g_autoptr(GnnTensor) data = NULL, mat = NULL, u = NULL, v = NULL, nu = NULL, nv = NULL;
  SpectralNormHook *h;
  const gint64 *shape;
  guint nd;

  g_return_val_if_fail (GNN_IS_MODULE (module), FALSE);
  g_return_val_if_fail (name != NULL, FALSE);
  param = weight_hook_parameter (module, name, spectral_norm_forward_pre_hook, "spectral_norm",
                                 error);
  if (param == NULL)
    return FALSE;
  nd = gnn_tensor_get_ndim (GNN_TENSOR (param));
  if (dim < -(int) nd || dim >= (int) nd)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INDEX,
                   "Dimension out of range (expected to be in range of [-%u, %d] but got %d)",
                   nd, (int) nd - 1, dim);
      return FALSE;
    }
  if (dim < 0)
    dim += (int) nd;
  data = gnn_tensor_detach (GNN_TENSOR (param));
  if (!(mat = spectral_hook_matrix (data, dim, error)))
    return FALSE;
  shape = gnn_tensor_get_shape (mat, NULL);
  if (!(u = gnn_tensor_new_zeros (&shape[0], 1, gnn_tensor_get_dtype (data),
                                  gnn_tensor_get_device (data), error)) ||
      !(v = gnn_tensor_new_zeros (&shape[1], 1, gnn_tensor_get_dtype (data),
                                  gnn_tensor_get_device (data), error)) ||
      !gnn_init_normal_ (u, 0.0, 1.0, NULL, error) || !gnn_init_normal_ (v, 0.0, 1.0, NULL, error) ||
      !(nu = gnn_tensor_normalize (u, 2.0, 0, eps, error)) ||
      !(nv = gnn_tensor_normalize (v, 2.0, 0, eps, error)))
    return FALSE;
  h = g_new0 (SpectralNormHook, 1);
  h->name = g_strdup (name);
  h->dim = dim;
  h->n_power_iterations = n_power_iterations;
  h->eps = eps;
  /* until the first forward the weight reads as orig's values, as torch's */
  return install_weight_hook (module, name,
                              (WeightHookSlot[]) { { "_orig", GNN_TENSOR (param) },
                                                   { "_u", nu }, { "_v", nv } },
                              3, data, spectral_norm_forward_pre_hook, h, spectral_norm_hook_free,
                              error);
}

/**
 * gnn_remove_spectral_norm:
 * @module: a module with a hook-based spectral norm on @name
 * @name: the name of the weight (torch's default "weight")
 * @error: return location for a #GError
 *
 * `torch.nn.utils.remove_spectral_norm`: `<name>` is a parameter again, holding orig / σ
 * (σ from the current `<name>_u` and `<name>_v`, no iteration); `<name>_orig`, `<name>_u`,
 * `<name>_v` and the hook are gone.
 *
 * Returns: %TRUE on success; %FALSE with @error set when @module has no spectral norm on
 *   @name (%GNN_ERROR_INVALID_ARGUMENT)
 *
 * Since: 0.1
 */
gboolean
gnn_remove_spectral_norm (GnnModule  *module,
                          const char *name,
                          GError    **error)
{
  static const char *const suffixes[] = { "_u", "_v", "_orig", NULL };

  g_return_val_if_fail (GNN_IS_MODULE (module), FALSE);
  g_return_val_if_fail (name != NULL, FALSE);
  return uninstall_weight_hook (module, name, spectral_norm_forward_pre_hook, "spectral_norm",
                                spectral_hook_compute_current, suffixes, error);
}

/* ---- rebuilding from a file (gnn-parametrize-private.h) --------------------------------- */

static gboolean
restore_error (GError **error, const char *format, ...) G_GNUC_PRINTF (2, 3);

static gboolean
restore_error (GError **error, const char *format, ...)
{
  va_list args;
  g_autofree char *msg = NULL;

  va_start (args, format);
  msg = g_strdup_vprintf (format, args);
  va_end (args);
  g_set_error_literal (error, GNN_ERROR, GNN_ERROR_FILE_FORMAT, msg);
  return FALSE;
}

/* A rebuilt chain that no state dict fills yet starts as registration leaves it: the
 * originals are the right inverse of the setup's tensor (the identity for parametrizations
 * without one) and each spectral norm draws `_u` and `_v` and iterates on its input. */
static gboolean
restore_fresh (GnnParametrizationList *l, GnnTensor *setup_tensor, GError **error)
{
  g_autoptr(GPtrArray) inv = NULL;
  gboolean sequence;
  guint n = gnn_parametrization_list_get_length (l);

  {
    g_autoptr(GnnNoGradGuard) guard = gnn_no_grad_guard_new ();

    if (setup_tensor && !(inv = chain_right_inverse (l, setup_tensor, TRUE, &sequence, error)))
      return FALSE;
    for (guint i = 0; inv && i < inv->len && i < l->n_tensors; i++)
      {
        GnnTensor *o = list_original (l, i);
        GnnTensor *t = inv->pdata[i];

        if (o && gnn_tensor_get_dtype (o) == gnn_tensor_get_dtype (t) &&
            same_shape (o, gnn_tensor_get_ndim (t), gnn_tensor_get_shape (t, NULL)) &&
            !gnn_tensor_set_data (o, t, error))
          return FALSE;
      }
  }
  /* the spectral norms, each on its input */
  for (guint k = 0; k < n; k++)
    if (GNN_IS_SPECTRAL_NORM (gnn_parametrization_list_get (l, (int) k, NULL)))
      break;
    else if (k + 1 == n)
      return TRUE;
  {
    g_autoptr(GnnNoGradGuard) guard = gnn_no_grad_guard_new ();
    g_autoptr(GnnArgs) args = gnn_args_new ();

    for (guint i = 0; i < l->n_tensors; i++)
      gnn_args_add_tensor (args, list_original (l, i));
    for (guint k = 0; k < n; k++)
      {
        GnnModule *p = gnn_parametrization_list_get (l, (int) k, NULL);
        GnnArgs *out;

        if (GNN_IS_SPECTRAL_NORM (p) && GNN_SPECTRAL_NORM (p)->ndim > 1 && gnn_args_get_n_values (args) == 1)
          {
            GnnTensor *w = gnn_args_get_tensor (args, 0, error);
            g_autoptr(GnnTensor) mat = NULL;

            if (w == NULL || gnn_tensor_get_ndim (w) != GNN_SPECTRAL_NORM (p)->ndim ||
                !(mat = spectral_matrix (GNN_SPECTRAL_NORM (p), w, error)) ||
                !spectral_init_uv (GNN_SPECTRAL_NORM (p), mat, error))
              return error == NULL || *error == NULL;   /* a chain that does not fit fails at its first read */
          }
        if (!(out = gnn_module_forward (p, args, error)))
          return FALSE;
        g_object_unref (args);
        args = out;
      }
  }
  return TRUE;
}

gboolean
gnn_parametrize_restore (GnnModule  *module,
                         const char *tensor_name,
                         GnnTensor  *setup_tensor,
                         gboolean    unsafe,
                         gboolean    fresh,
                         GError    **error)
{
  GnnModuleDict *d = parametrizations_of (module);
  GnnModule *lm;
  GnnParametrizationList *l;
  GnnTensor *o;
  guint n = 0;

  if (d == NULL || !gnn_module_dict_contains (d, tensor_name))
    return restore_error (error, "'%s' is parametrized, but there is no 'parametrizations.%s' "
                          "(expected a GnnParametrizationList there)", tensor_name, tensor_name);
  lm = gnn_module_dict_get (d, tensor_name, NULL);
  if (!GNN_IS_PARAMETRIZATION_LIST (lm))
    return restore_error (error, "'parametrizations.%s': expected a GnnParametrizationList, found a %s",
                          tensor_name, G_OBJECT_TYPE_NAME (lm));
  l = GNN_PARAMETRIZATION_LIST (lm);
  if (gnn_parametrization_list_get_length (l) == 0)
    return restore_error (error, "'parametrizations.%s' holds no parametrization (expected the "
                          "child '0')", tensor_name);
  if ((o = gnn_module_tensor (lm, "original", FALSE, NULL)))
    {
      l->is_tensor = TRUE;
      l->n_tensors = 1;
      if (!unsafe && setup_tensor &&
          (!same_shape (o, gnn_tensor_get_ndim (setup_tensor), gnn_tensor_get_shape (setup_tensor, NULL)) ||
           gnn_tensor_get_dtype (o) != gnn_tensor_get_dtype (setup_tensor)))
        {
          g_autofree char *want = size_string (setup_tensor), *got = size_string (o);
          return restore_error (error, "'parametrizations.%s.original' has shape %s and dtype %s, but the "
                                "%s makes '%s' of shape %s and dtype %s (a parametrization that is not "
                                "unsafe keeps them)", tensor_name, got,
                                gnn_dtype_get_name (gnn_tensor_get_dtype (o)), G_OBJECT_TYPE_NAME (module),
                                tensor_name, want, gnn_dtype_get_name (gnn_tensor_get_dtype (setup_tensor)));
        }
    }
  else
    {
      for (;; n++)
        {
          char name[32];
          g_snprintf (name, sizeof name, "original%u", n);
          if (gnn_module_tensor (lm, name, FALSE, NULL) == NULL)
            break;
        }
      if (n == 0)
        return restore_error (error, "'parametrizations.%s.original' is missing (expected the tensor "
                              "'original', or 'original0', 'original1', ...)", tensor_name);
      l->is_tensor = FALSE;
      l->n_tensors = n;
    }
  /* the tensors the parametrizations of gnn read in their forward */
  for (guint k = 0; k < gnn_parametrization_list_get_length (l); k++)
    {
      GnnModule *p = gnn_parametrization_list_get (l, (int) k, NULL);
      const char *need[2] = { NULL, NULL };

      if (GNN_IS_SPECTRAL_NORM (p) && GNN_SPECTRAL_NORM (p)->ndim > 1)
        need[0] = "_u", need[1] = "_v";
      else if (GNN_IS_ORTHOGONAL (p) && GNN_ORTHOGONAL (p)->use_trivialization)
        need[0] = "base";
      for (guint i = 0; i < G_N_ELEMENTS (need) && need[i]; i++)
        if (gnn_module_get_buffer (p, need[i], NULL) == NULL)
          return restore_error (error, "'parametrizations.%s.%u.%s' is missing (a %s reads it)", tensor_name, k,
                                need[i], G_OBJECT_TYPE_NAME (p));
    }
  l->unsafe = unsafe;
  if (fresh && !restore_fresh (l, setup_tensor, error))
    {
      g_prefix_error (error, "'parametrizations.%s': ", tensor_name);
      return FALSE;
    }
  if (gnn_module_tensor (module, tensor_name, FALSE, NULL))
    return restore_error (error, "'%s' is parametrized, but the %s holds a tensor '%s' too",
                          tensor_name, G_OBJECT_TYPE_NAME (module), tensor_name);
  if (!gnn_module_set_tensor_getter (module, tensor_name, parametrized_getter, NULL, NULL, error))
    return FALSE;
  if (n == 2 && gnn_parametrization_list_get_length (l) == 1 &&
      GNN_IS_WEIGHT_NORM (gnn_parametrization_list_get (l, 0, NULL)))
    gnn_module_register_load_state_dict_pre_hook (module, weight_norm_compat_hook, g_strdup (tensor_name),
                                                  g_free);
  return TRUE;
}

gboolean
gnn_weight_hook_describe (GnnModuleHook *hook,
                          const char   **kind,
                          const char   **name,
                          int           *dim,
                          int           *n_power_iterations,
                          double        *eps)
{
  if (hook->kind != GNN_HOOK_FORWARD_PRE)
    return FALSE;
  if (hook->func == (gpointer) weight_norm_forward_pre_hook)
    {
      WeightNormHook *h = hook->data;

      *kind = "weight_norm";
      *name = h->name;
      *dim = h->dim;
      return TRUE;
    }
  if (hook->func == (gpointer) spectral_norm_forward_pre_hook)
    {
      SpectralNormHook *h = hook->data;

      *kind = "spectral_norm";
      *name = h->name;
      *dim = h->dim;
      *n_power_iterations = h->n_power_iterations;
      *eps = h->eps;
      return TRUE;
    }
  return FALSE;
}

gboolean
gnn_weight_norm_restore (GnnModule  *module,
                         const char *name,
                         int         dim,
                         GError    **error)
{
  GnnParameter *param;
  g_autoptr(GnnTensor) data = NULL, zeros = NULL;
  g_autoptr(GnnParameter) g = NULL, v = NULL;
  gint64 shape[GNN_MAX_DIMS];
  guint nd, gnd;

  param = weight_hook_parameter (module, name, weight_norm_forward_pre_hook, "weight_norm", error);
  if (param == NULL)
    return FALSE;
  nd = gnn_tensor_get_ndim (GNN_TENSOR (param));
  if (dim != -1 && (dim < -(int) MAX (nd, 1) || dim >= (int) MAX (nd, 1)))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INDEX,
                   "Dimension out of range (expected to be in range of [-%u, %d], but got %d)",
                   MAX (nd, 1), (int) MAX (nd, 1) - 1, dim);
      return FALSE;
    }
  /* g: the norm's shape, 1s but along dim (a 0-D tensor for the whole tensor's norm) */
  gnd = dim == -1 ? 0 : nd;
  for (guint d = 0; d < gnd; d++)
    shape[d] = (int) d == (dim < 0 ? dim + (int) nd : dim) ? gnn_tensor_get_shape (GNN_TENSOR (param), NULL)[d] : 1;
  data = gnn_tensor_detach (GNN_TENSOR (param));
  if (!(zeros = gnn_tensor_new_zeros (shape, gnd, gnn_tensor_get_dtype (data), gnn_tensor_get_device (data),
                                      error)) ||
      !(g = gnn_parameter_new (zeros, TRUE, error)) ||
      !(v = gnn_parameter_new (data, TRUE, error)))
    return FALSE;
  return install_weight_norm (module, name, dim, g, v, data, error);
}

gboolean
gnn_spectral_norm_hook_restore (GnnModule  *module,
                                const char *name,
                                int         n_power_iterations,
                                double      eps,
                                int         dim,
                                gboolean    fresh,
                                GError    **error)
{
  GnnParameter *param;
  g_autoptr(GnnTensor) data = NULL, mat = NULL, u = NULL, v = NULL;
  SpectralNormHook *h;
  const gint64 *shape;
  guint nd;

  param = weight_hook_parameter (module, name, spectral_norm_forward_pre_hook, "spectral_norm", error);
  if (param == NULL)
    return FALSE;
  nd = gnn_tensor_get_ndim (GNN_TENSOR (param));
  if (dim < 0 || dim >= (int) nd)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INDEX,
                   "Dimension out of range (expected to be in range of [0, %d] but got %d)", (int) nd - 1, dim);
      return FALSE;
    }
  data = gnn_tensor_detach (GNN_TENSOR (param));
  if (!(mat = spectral_hook_matrix (data, dim, error)))
    return FALSE;
  shape = gnn_tensor_get_shape (mat, NULL);
  if (!(u = gnn_tensor_new_zeros (&shape[0], 1, gnn_tensor_get_dtype (data), gnn_tensor_get_device (data),
                                  error)) ||
      !(v = gnn_tensor_new_zeros (&shape[1], 1, gnn_tensor_get_dtype (data), gnn_tensor_get_device (data),
                                  error)))
    return FALSE;
  if (fresh)
    {
      /* as gnn_spectral_norm_hook: standard normal, normalized */
      g_autoptr(GnnTensor) nu = NULL, nv = NULL;

      if (!gnn_init_normal_ (u, 0.0, 1.0, NULL, error) || !gnn_init_normal_ (v, 0.0, 1.0, NULL, error) ||
          !(nu = gnn_tensor_normalize (u, 2.0, 0, eps, error)) ||
          !(nv = gnn_tensor_normalize (v, 2.0, 0, eps, error)))
        return FALSE;
      g_set_object (&u, nu);
      g_set_object (&v, nv);
    }
  h = g_new0 (SpectralNormHook, 1);
  h->name = g_strdup (name);
  h->dim = dim;
  h->n_power_iterations = n_power_iterations;
  h->eps = eps;
  return install_weight_hook (module, name,
                              (WeightHookSlot[]) { { "_orig", GNN_TENSOR (param) },
                                                   { "_u", u }, { "_v", v } },
                              3, data, spectral_norm_forward_pre_hook, h, spectral_norm_hook_free, error);
}
