/* gnn-prune-structured.c: the structured pruning methods (whole slices along a dimension) and
 * global pruning across several tensors, as torch.nn.utils.prune
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "gnn-prune.h"
#include "gnn-prune-private.h"
#include "gnn-module-private.h"

/* torch's _validate_structured_pruning and _validate_pruning_dim; the dim made non-negative */
static gboolean
validate_structured (GnnTensor *t, int dim, int *out_dim, GError **error)
{
  guint ndim = gnn_tensor_get_ndim (t);
  g_autofree char *s = gnn_prune_shape_string (t);

  if (ndim <= 1)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "Structured pruning can only be applied to multidimensional tensors. Found tensor of "
                   "shape %s with %u dims", s, ndim);
      return FALSE;
    }
  if (dim >= (int) ndim || dim < -(int) ndim)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INDEX, "Invalid index %d for tensor of size %s", dim, s);
      return FALSE;
    }
  *out_dim = dim < 0 ? dim + (int) ndim : dim;
  return TRUE;
}

/* default_mask · (1 along @dim where @channels (a bool or 0/1 vector of the size of @dim) is
 * set): torch's mask = zeros_like (t); mask[slc] = 1; mask *= default_mask */
static GnnTensor *
channel_mask (GnnTensor *t, GnnTensor *default_mask, int dim, GnnTensor *channels, GError **error)
{
  guint ndim = gnn_tensor_get_ndim (t);
  gint64 shape[32];
  g_autoptr(GnnTensor) c = NULL, view = NULL, dm = NULL;

  for (guint d = 0; d < ndim; d++)
    shape[d] = (int) d == dim ? gnn_tensor_get_shape (t, NULL)[d] : 1;
  if (!(c = gnn_tensor_to_dtype (channels, gnn_tensor_get_dtype (t), error)) ||
      !(view = gnn_tensor_reshape (c, shape, ndim, error)) ||
      !(dm = gnn_tensor_to_dtype (default_mask, gnn_tensor_get_dtype (t), error)))
    return NULL;
  return gnn_tensor_mul (dm, view, error);
}

/* ---- RandomStructured ---------------------------------------------------------------------- */

struct _GnnRandomStructured
{
  GnnBasePruningMethod parent_instance;
};

/**
 * GnnRandomStructured:
 *
 * The method that prunes whole slices along a dimension at random (`prune.RandomStructured`).
 *
 * Since: 0.1
 */
G_DEFINE_FINAL_TYPE (GnnRandomStructured, gnn_random_structured, GNN_TYPE_BASE_PRUNING_METHOD)

static GnnTensor *
random_structured_compute_mask (GnnBasePruningMethod *self, GnnTensor *t, GnnTensor *default_mask,
                                GError **error)
{
  gboolean is_count;
  double amount = gnn_base_pruning_method_get_amount (self, &is_count);
  int dim;
  gint64 size, k;
  g_autoptr(GnnTensor) prob = NULL, threshold = NULL, keep = NULL;

  if (!validate_structured (t, gnn_base_pruning_method_get_dim (self), &dim, error))
    return NULL;
  size = gnn_tensor_get_shape (t, NULL)[dim];
  if ((k = gnn_prune_nparams_toprune (amount, is_count, size, error)) < 0)
    return NULL;
  if (k == 0)
    return gnn_prune_clone (default_mask, error);
  /* the channels whose draw is above the k-th smallest are kept */
  if (!(prob = gnn_tensor_new_rand (&size, 1, NULL, GNN_DTYPE_FLOAT32, gnn_tensor_get_device (t), error)) ||
      !(threshold = gnn_tensor_kthvalue (prob, k, 0, FALSE, NULL, error)) ||
      !(keep = gnn_tensor_gt (prob, threshold, error)))
    return NULL;
  return channel_mask (t, default_mask, dim, keep, error);
}

static void
gnn_random_structured_class_init (GnnRandomStructuredClass *klass)
{
  GNN_BASE_PRUNING_METHOD_CLASS (klass)->compute_mask = random_structured_compute_mask;
}

static void
gnn_random_structured_init (GnnRandomStructured *self)
{
  (void) self;
}

/**
 * gnn_random_structured_new:
 * @amount: how much to prune: a fraction in [0, 1] of the slices along @dim, or their number
 * @amount_is_count: whether @amount is a number of slices (a Python int)
 * @dim: the dimension whose slices (channels) are pruned, negative from the end
 * @error: return location for a #GError
 *
 * The method that prunes whole slices along @dim at random (`prune.RandomStructured (amount,
 * dim)`), drawn from gnn's default generator.
 *
 * Returns: (transfer full): the method, or %NULL with @error set when @amount is negative,
 *   above 1.0 as a fraction or not whole as a count
 *
 * Since: 0.1
 */
GnnRandomStructured *
gnn_random_structured_new (double    amount,
                           gboolean  amount_is_count,
                           int       dim,
                           GError  **error)
{
  if (!gnn_prune_validate_amount_init (amount, amount_is_count, error))
    return NULL;
  return g_object_new (GNN_TYPE_RANDOM_STRUCTURED, "amount", amount, "amount-is-count", amount_is_count, "dim", dim,
                       "pruning-type", "structured", NULL);
}

/* ---- LnStructured -------------------------------------------------------------------------- */

struct _GnnLnStructured
{
  GnnBasePruningMethod parent_instance;
  double n;
};

/**
 * GnnLnStructured:
 *
 * The method that prunes the slices along a dimension of smallest Ln norm
 * (`prune.LnStructured`).
 *
 * Since: 0.1
 */
G_DEFINE_FINAL_TYPE (GnnLnStructured, gnn_ln_structured, GNN_TYPE_BASE_PRUNING_METHOD)

static GnnTensor *
ln_structured_compute_mask (GnnBasePruningMethod *method, GnnTensor *t, GnnTensor *default_mask,
                            GError **error)
{
  GnnLnStructured *self = GNN_LN_STRUCTURED (method);
  gboolean is_count;
  double amount = gnn_base_pruning_method_get_amount (method, &is_count);
  int dim, dims[32];
  guint n_dims = 0, ndim = gnn_tensor_get_ndim (t);
  gint64 size, k;
  g_autoptr(GnnTensor) norm = NULL, values = NULL, index = NULL, zeros = NULL, keep = NULL;

  if (!validate_structured (t, gnn_base_pruning_method_get_dim (method), &dim, error))
    return NULL;
  size = gnn_tensor_get_shape (t, NULL)[dim];
  if ((k = gnn_prune_nparams_toprune (amount, is_count, size, error)) < 0)
    return NULL;
  if (k == 0)
    return gnn_prune_clone (default_mask, error);
  for (guint d = 0; d < ndim; d++)
    if ((int) d != dim)
      dims[n_dims++] = (int) d;
  /* the size - k channels of largest norm are kept */
  if (!(norm = gnn_linalg_vector_norm (t, self->n, dims, n_dims, FALSE, error)) ||
      !(values = gnn_tensor_topk (norm, size - k, 0, TRUE, TRUE, &index, error)) ||
      !(zeros = gnn_tensor_new_zeros (&size, 1, gnn_tensor_get_dtype (t), gnn_tensor_get_device (t), error)) ||
      !(keep = gnn_tensor_index_fill (zeros, 0, index, 1.0, error)))
    return NULL;
  return channel_mask (t, default_mask, dim, keep, error);
}

static void
gnn_ln_structured_set_property (GObject *object, guint prop_id, const GValue *value, GParamSpec *pspec)
{
  if (prop_id == 1)
    GNN_LN_STRUCTURED (object)->n = g_value_get_double (value);
  else
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
}

static void
gnn_ln_structured_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  if (prop_id == 1)
    g_value_set_double (value, GNN_LN_STRUCTURED (object)->n);
  else
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
}

static void
gnn_ln_structured_class_init (GnnLnStructuredClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->set_property = gnn_ln_structured_set_property;
  object_class->get_property = gnn_ln_structured_get_property;
  GNN_BASE_PRUNING_METHOD_CLASS (klass)->compute_mask = ln_structured_compute_mask;

  /**
   * GnnLnStructured:n:
   *
   * The order of the norm (torch's `n`, `torch.norm`'s `p`: 1, 2, infinity, minus infinity,
   * 0 ...).
   *
   * Since: 0.1
   */
  g_object_class_install_property (object_class, 1,
    g_param_spec_double ("n", NULL, NULL, -INFINITY, INFINITY, 2.0,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));
}

static void
gnn_ln_structured_init (GnnLnStructured *self)
{
  self->n = 2.0;
}

/**
 * gnn_ln_structured_new:
 * @amount: how much to prune: a fraction in [0, 1] of the slices along @dim, or their number
 * @amount_is_count: whether @amount is a number of slices (a Python int)
 * @n: the order of the norm (`torch.norm`'s `p`: 1, 2, `INFINITY`, `-INFINITY`, 0 ...)
 * @dim: the dimension whose slices (channels) are pruned, negative from the end
 * @error: return location for a #GError
 *
 * The method that prunes the slices along @dim of smallest L@n norm, taken over all the other
 * dimensions (`prune.LnStructured (amount, n, dim)`); of equal norms, the slice first in order
 * is kept first.
 *
 * Returns: (transfer full): the method, or %NULL with @error set when @amount is negative,
 *   above 1.0 as a fraction or not whole as a count
 *
 * Since: 0.1
 */
GnnLnStructured *
gnn_ln_structured_new (double    amount,
                       gboolean  amount_is_count,
                       double    n,
                       int       dim,
                       GError  **error)
{
  GnnLnStructured *self;

  if (!gnn_prune_validate_amount_init (amount, amount_is_count, error))
    return NULL;
  self = g_object_new (GNN_TYPE_LN_STRUCTURED, "amount", amount, "amount-is-count", amount_is_count, "dim", dim,
                       "pruning-type", "structured", NULL);
  self->n = n;
  return self;
}

/**
 * gnn_ln_structured_get_n:
 * @self: a method
 *
 * The order of the norm (`n`).
 *
 * Returns: the order
 *
 * Since: 0.1
 */
double
gnn_ln_structured_get_n (GnnLnStructured *self)
{
  g_return_val_if_fail (GNN_IS_LN_STRUCTURED (self), 2.0);
  return self->n;
}

/* ---- the functions ------------------------------------------------------------------------ */

static gboolean
apply_new (GnnModule *module, const char *name, gpointer method, GnnTensor *scores, GError **error)
{
  g_autoptr(GnnBasePruningMethod) m = method;

  if (m == NULL)
    {
      g_prefix_error (error, "pruning '%s' of %s: ", name, gnn_module_get_name (module));
      return FALSE;
    }
  return gnn_prune_apply (module, name, m, scores, error) != NULL;
}

/**
 * gnn_prune_random_structured:
 * @module: a module
 * @name: the name of a parameter of @module
 * @amount: a fraction in [0, 1] of the slices along @dim, or (@amount_is_count) their number
 * @amount_is_count: whether @amount is a number of slices (a Python int)
 * @dim: the dimension whose slices are pruned, negative from the end
 * @error: return location for a #GError
 *
 * Prunes @amount of the slices of @name along @dim at random
 * (`prune.random_structured (module, name, amount, dim)`).
 *
 * Returns: %TRUE on success; %FALSE with @error set (naming the module and tensor) for a bad
 *   amount, a tensor of fewer than 2 dimensions or @dim out of range
 *
 * Since: 0.1
 */
gboolean
gnn_prune_random_structured (GnnModule  *module,
                             const char *name,
                             double      amount,
                             gboolean    amount_is_count,
                             int         dim,
                             GError    **error)
{
  g_return_val_if_fail (GNN_IS_MODULE (module), FALSE);
  return apply_new (module, name, gnn_random_structured_new (amount, amount_is_count, dim, error), NULL, error);
}

/**
 * gnn_prune_ln_structured:
 * @module: a module
 * @name: the name of a parameter of @module
 * @amount: a fraction in [0, 1] of the slices along @dim, or (@amount_is_count) their number
 * @amount_is_count: whether @amount is a number of slices (a Python int)
 * @n: the order of the norm
 * @dim: the dimension whose slices are pruned, negative from the end
 * @importance_scores: (nullable): the scores whose norms rank the slices, of the tensor's
 *   shape; %NULL: the tensor's values
 * @error: return location for a #GError
 *
 * Prunes the @amount slices of @name along @dim of smallest L@n norm
 * (`prune.ln_structured (module, name, amount, n, dim, importance_scores)`).
 *
 * Returns: %TRUE on success; %FALSE with @error set (naming the module and tensor) for a bad
 *   amount, a tensor of fewer than 2 dimensions or @dim out of range
 *
 * Since: 0.1
 */
gboolean
gnn_prune_ln_structured (GnnModule  *module,
                         const char *name,
                         double      amount,
                         gboolean    amount_is_count,
                         double      n,
                         int         dim,
                         GnnTensor  *importance_scores,
                         GError    **error)
{
  g_return_val_if_fail (GNN_IS_MODULE (module), FALSE);
  return apply_new (module, name, gnn_ln_structured_new (amount, amount_is_count, n, dim, error),
                    importance_scores, error);
}

/**
 * gnn_prune_global_unstructured:
 * @modules: (array length=n_parameters): the modules
 * @names: (array length=n_parameters): the name of the tensor pruned in each module
 * @n_parameters: how many (module, name) pairs
 * @method: an unstructured method (its amount counts over all the tensors together)
 * @importance_scores: (array length=n_parameters) (nullable): for each pair, its scores or
 *   %NULL for the tensor's values; %NULL for all the tensors' values
 * @error: return location for a #GError
 *
 * Prunes the tensors together, as one vector (`prune.global_unstructured (parameters,
 * pruning_method, importance_scores, **kwargs)`): @method's mask over all their entries still
 * unpruned, then each tensor pruned by its part of it (as [func@Gnn.prune_custom_from_mask]).
 *
 * Returns: %TRUE on success; %FALSE with @error set when @method is not unstructured, the
 *   amount is too large for all the entries together, or a tensor cannot be pruned (the
 *   modules are left as they were)
 *
 * Since: 0.1
 */
gboolean
gnn_prune_global_unstructured (GnnModule            **modules,
                               const char           **names,
                               guint                  n_parameters,
                               GnnBasePruningMethod  *method,
                               GnnTensor            **importance_scores,
                               GError               **error)
{
  g_autoptr(GPtrArray) scores = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GPtrArray) masks = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GnnTensor) all_scores = NULL, all_masks = NULL, final = NULL;
  g_autoptr(GnnPruningContainer) container = NULL;
  gint64 offset = 0;
  const char *type;

  g_return_val_if_fail (n_parameters == 0 || (modules && names), FALSE);
  g_return_val_if_fail (GNN_IS_BASE_PRUNING_METHOD (method), FALSE);
  type = gnn_base_pruning_method_get_pruning_type (method);
  if (g_strcmp0 (type, "unstructured") != 0)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "Only \"unstructured\" PRUNING_TYPE supported for the `pruning_method`. Found method %s of "
                   "type %s", G_OBJECT_TYPE_NAME (method), type ? type : "(null)");
      return FALSE;
    }
  if (n_parameters == 0)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "global_unstructured: no parameters to prune");
      return FALSE;
    }
  for (guint i = 0; i < n_parameters; i++)
    {
      g_autofree char *mask_name = g_strconcat (names[i], "_mask", NULL);
      GnnTensor *w, *m, *s = importance_scores ? importance_scores[i] : NULL;
      gint64 numel;
      g_autoptr(GnnTensor) ones = NULL;

      g_return_val_if_fail (GNN_IS_MODULE (modules[i]) && names[i], FALSE);
      if (!(w = gnn_module_tensor (modules[i], names[i], TRUE, error)))
        {
          g_prefix_error (error, "pruning '%s' of %s: ", names[i], gnn_module_get_name (modules[i]));
          return FALSE;
        }
      numel = gnn_tensor_get_numel (w);
      if (s && gnn_tensor_get_numel (s) != numel)
        {
          g_autofree char *a = gnn_prune_shape_string (s), *b = gnn_prune_shape_string (w);

          g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                       "importance_scores should have the same shape as parameter %s of %s: expected %s, got %s",
                       names[i], gnn_module_get_name (modules[i]), b, a);
          return FALSE;
        }
      m = gnn_module_tensor (modules[i], mask_name, FALSE, NULL);
      if (m == NULL)
        {
          guint ndim;
          const gint64 *shape = gnn_tensor_get_shape (w, &ndim);

          if (!(ones = gnn_tensor_new_ones (shape, ndim, gnn_tensor_get_dtype (w), gnn_tensor_get_device (w), error)))
            return FALSE;
          m = ones;
        }
      {
        g_autoptr(GnnTensor) sd = gnn_tensor_detach (s ? s : w);
        g_autoptr(GnnTensor) md = gnn_tensor_detach (m);
        GnnTensor *fs = gnn_tensor_reshape (sd, &numel, 1, error);
        GnnTensor *fm = fs ? gnn_tensor_reshape (md, &numel, 1, error) : NULL;

        if (fm == NULL)
          {
            g_clear_object (&fs);
            return FALSE;
          }
        g_ptr_array_add (scores, fs);
        g_ptr_array_add (masks, fm);
      }
    }
  if (!(all_scores = gnn_cat ((GnnTensor **) scores->pdata, scores->len, 0, error)) ||
      !(all_masks = gnn_cat ((GnnTensor **) masks->pdata, masks->len, 0, error)))
    return FALSE;
  container = gnn_pruning_container_new ();
  gnn_base_pruning_method_set_tensor_name (method, "temp");
  if (!gnn_pruning_container_add_pruning_method (container, method, error) ||
      !(final = gnn_base_pruning_method_compute_mask (GNN_BASE_PRUNING_METHOD (container), all_scores, all_masks,
                                                      error)))
    return FALSE;
  for (guint i = 0; i < n_parameters; i++)
    {
      GnnTensor *w = gnn_module_tensor (modules[i], names[i], TRUE, NULL);
      guint ndim;
      const gint64 *shape = gnn_tensor_get_shape (w, &ndim);
      gint64 numel = gnn_tensor_get_numel (w);
      g_autoptr(GnnTensor) part = gnn_tensor_narrow (final, 0, offset, numel, error);
      g_autoptr(GnnTensor) shaped = part ? gnn_tensor_reshape (part, shape, ndim, error) : NULL;

      if (shaped == NULL || !gnn_prune_custom_from_mask (modules[i], names[i], shaped, error))
        return FALSE;
      offset += numel;
    }
  return TRUE;
}
