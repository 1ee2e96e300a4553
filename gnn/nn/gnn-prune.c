/* gnn-prune.c: pruning of a module's tensors by masks, as torch.nn.utils.prune
 *
 * Pruning the tensor `weight` of a module moves the parameter to `weight_orig`, registers the
 * buffer `weight_mask` and sets the plain tensor attribute `weight` = weight_orig · weight_mask,
 * which the layer's forward reads in place of the parameter. A forward pre-hook, whose data is
 * the pruning method, recomputes the attribute before each call. Pruning the same tensor again
 * combines the methods in a GnnPruningContainer, whose mask prunes only among the entries still
 * unpruned (torch's PruningContainer); gnn_prune_remove() makes the pruning permanent.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "gnn-prune.h"
#include "gnn-module-private.h"
#include "gnn-prune-private.h"

/* ---- helpers ------------------------------------------------------------------------------ */

/* torch.Size([2, 3]) as PyTorch prints a shape */
char *
gnn_prune_shape_string (GnnTensor *t)
{
  guint ndim;
  const gint64 *shape = gnn_tensor_get_shape (t, &ndim);
  GString *s = g_string_new ("torch.Size([");

  for (guint i = 0; i < ndim; i++)
    g_string_append_printf (s, "%s%" G_GINT64_FORMAT, i ? ", " : "", shape[i]);
  g_string_append (s, "])");
  return g_string_free (s, FALSE);
}

/* the amount as Python prints it: an int or a float's repr */
static char *
amount_string (double amount, gboolean is_count)
{
  if (is_count)
    return g_strdup_printf ("%.0f", amount);
  return gnn_python_float_repr (amount);
}

/* _validate_pruning_amount_init */
gboolean
gnn_prune_validate_amount_init (double amount, gboolean is_count, GError **error)
{
  g_autofree char *s = NULL;

  if (is_count && amount >= 0 && amount == floor (amount))
    return TRUE;
  if (!is_count && amount >= 0.0 && amount <= 1.0)
    return TRUE;
  s = amount_string (amount, is_count);
  if (is_count && amount >= 0)
    g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                 "amount=%s should be a whole number of parameters when given as a count", s);
  else
    g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                 "amount=%s should either be a float in the range [0, 1] or a non-negative integer", s);
  return FALSE;
}

/* _compute_nparams_toprune then _validate_pruning_amount: the number of entries to prune of
 * @tensor_size, or -1 with @error set. A fraction rounds as Python's round (half to even). */
gint64
gnn_prune_nparams_toprune (double amount, gboolean is_count, gint64 tensor_size, GError **error)
{
  gint64 n = is_count ? (gint64) amount : (gint64) nearbyint (amount * (double) tensor_size);

  if (n > tensor_size)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "amount=%" G_GINT64_FORMAT " should be smaller than the number of parameters to "
                   "prune=%" G_GINT64_FORMAT, n, tensor_size);
      return -1;
    }
  return n;
}

/* a new tensor: @t as a contiguous copy without autograd */
GnnTensor *
gnn_prune_clone (GnnTensor *t, GError **error)
{
  g_autoptr(GnnTensor) d = gnn_tensor_detach (t);

  return gnn_tensor_clone (d, error);
}

/* @mask with the flat positions @index set to @value (a new tensor of @mask's shape) */
GnnTensor *
gnn_prune_fill_flat (GnnTensor *mask, GnnTensor *index, double value, GError **error)
{
  guint ndim;
  const gint64 *shape = gnn_tensor_get_shape (mask, &ndim);
  gint64 numel = gnn_tensor_get_numel (mask);
  g_autoptr(GnnTensor) flat = NULL, filled = NULL;

  if (!(flat = gnn_tensor_reshape (mask, &numel, 1, error)) ||
      !(filled = gnn_tensor_index_fill (flat, 0, index, value, error)))
    return NULL;
  return gnn_tensor_reshape (filled, shape, ndim, error);
}

/* ---- GnnBasePruningMethod ------------------------------------------------------------------ */

typedef struct {
  char *tensor_name;
  char *pruning_type;
  int dim;
  double amount;
  gboolean amount_is_count;
} GnnBasePruningMethodPrivate;

enum {
  PROP_0,
  PROP_TENSOR_NAME,
  PROP_PRUNING_TYPE,
  PROP_DIM,
  PROP_AMOUNT,
  PROP_AMOUNT_IS_COUNT,
  N_PROPS
};

static GParamSpec *props[N_PROPS];

/**
 * GnnBasePruningMethod:
 *
 * A way of pruning a tensor, as `torch.nn.utils.prune.BasePruningMethod`: a subclass computes
 * the mask (the compute_mask virtual method) and [func@Gnn.prune_apply] reparametrizes a
 * module's tensor by it. Python subclasses write `compute_mask (self, t, default_mask)` and set
 * `PRUNING_TYPE`, as in torch.
 *
 * Since: 0.1
 */
G_DEFINE_TYPE_WITH_PRIVATE (GnnBasePruningMethod, gnn_base_pruning_method, G_TYPE_OBJECT)

static void
gnn_base_pruning_method_finalize (GObject *object)
{
  GnnBasePruningMethodPrivate *priv =
    gnn_base_pruning_method_get_instance_private (GNN_BASE_PRUNING_METHOD (object));

  g_free (priv->tensor_name);
  g_free (priv->pruning_type);
  G_OBJECT_CLASS (gnn_base_pruning_method_parent_class)->finalize (object);
}

static void
gnn_base_pruning_method_set_property (GObject *object, guint prop_id, const GValue *value, GParamSpec *pspec)
{
  GnnBasePruningMethod *self = GNN_BASE_PRUNING_METHOD (object);
  GnnBasePruningMethodPrivate *priv = gnn_base_pruning_method_get_instance_private (self);

  switch (prop_id)
    {
    case PROP_TENSOR_NAME:
      gnn_base_pruning_method_set_tensor_name (self, g_value_get_string (value));
      break;
    case PROP_PRUNING_TYPE:
      g_free (priv->pruning_type);
      priv->pruning_type = g_value_dup_string (value);
      break;
    case PROP_DIM:
      priv->dim = g_value_get_int (value);
      break;
    case PROP_AMOUNT:
      priv->amount = g_value_get_double (value);
      break;
    case PROP_AMOUNT_IS_COUNT:
      priv->amount_is_count = g_value_get_boolean (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
gnn_base_pruning_method_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  GnnBasePruningMethod *self = GNN_BASE_PRUNING_METHOD (object);
  GnnBasePruningMethodPrivate *priv = gnn_base_pruning_method_get_instance_private (self);

  switch (prop_id)
    {
    case PROP_TENSOR_NAME:
      g_value_set_string (value, priv->tensor_name);
      break;
    case PROP_PRUNING_TYPE:
      g_value_set_string (value, priv->pruning_type);
      break;
    case PROP_DIM:
      g_value_set_int (value, priv->dim);
      break;
    case PROP_AMOUNT:
      g_value_set_double (value, priv->amount);
      break;
    case PROP_AMOUNT_IS_COUNT:
      g_value_set_boolean (value, priv->amount_is_count);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
gnn_base_pruning_method_class_init (GnnBasePruningMethodClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = gnn_base_pruning_method_finalize;
  object_class->set_property = gnn_base_pruning_method_set_property;
  object_class->get_property = gnn_base_pruning_method_get_property;

  /**
   * GnnBasePruningMethod:tensor-name:
   *
   * The name of the tensor the method prunes (`_tensor_name`), set when it is applied.
   *
   * Since: 0.1
   */
  props[PROP_TENSOR_NAME] =
    g_param_spec_string ("tensor-name", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /**
   * GnnBasePruningMethod:pruning-type:
   *
   * `PRUNING_TYPE`: "unstructured" (a mask of single entries), "structured" (whole slices along
   * [property@Gnn.BasePruningMethod:dim]) or "global"; it tells a
   * [class@Gnn.PruningContainer] which entries the method prunes among. A subclass sets it
   * when its instances are made (Python subclasses by the class attribute `PRUNING_TYPE`).
   *
   * Since: 0.1
   */
  props[PROP_PRUNING_TYPE] =
    g_param_spec_string ("pruning-type", NULL, NULL, "unstructured",
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT | G_PARAM_STATIC_STRINGS);
  /**
   * GnnBasePruningMethod:dim:
   *
   * The dimension along which a structured method prunes whole slices (`dim`), negative from
   * the end.
   *
   * Since: 0.1
   */
  props[PROP_DIM] =
    g_param_spec_int ("dim", NULL, NULL, G_MININT, G_MAXINT, -1,
                      G_PARAM_READWRITE | G_PARAM_CONSTRUCT | G_PARAM_STATIC_STRINGS);
  /**
   * GnnBasePruningMethod:amount:
   *
   * How much a method that prunes by an amount prunes (`amount`): a fraction in [0, 1] of the
   * entries (slices) still unpruned, or, with [property@Gnn.BasePruningMethod:amount-is-count],
   * their number.
   *
   * Since: 0.1
   */
  props[PROP_AMOUNT] =
    g_param_spec_double ("amount", NULL, NULL, -G_MAXDOUBLE, G_MAXDOUBLE, 0.0,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  /**
   * GnnBasePruningMethod:amount-is-count:
   *
   * Whether [property@Gnn.BasePruningMethod:amount] is a number of entries (a Python int)
   * rather than a fraction (a Python float).
   *
   * Since: 0.1
   */
  props[PROP_AMOUNT_IS_COUNT] =
    g_param_spec_boolean ("amount-is-count", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, props);
}

static void
gnn_base_pruning_method_init (GnnBasePruningMethod *self)
{
  GnnBasePruningMethodPrivate *priv = gnn_base_pruning_method_get_instance_private (self);

  priv->dim = -1;
}

static GnnBasePruningMethodPrivate *
method_priv (GnnBasePruningMethod *self)
{
  return gnn_base_pruning_method_get_instance_private (self);
}

/**
 * gnn_base_pruning_method_compute_mask:
 * @self: a pruning method
 * @t: the tensor to prune (or its importance scores)
 * @default_mask: the mask of what is already pruned, of @t's shape
 * @error: return location for a #GError
 *
 * The mask of @t that @self computes (`compute_mask (t, default_mask)`): 1 where an entry is
 * kept, 0 where it is pruned; entries already pruned in @default_mask stay pruned.
 *
 * Returns: (transfer full): the mask, of @t's shape, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_base_pruning_method_compute_mask (GnnBasePruningMethod *self,
                                      GnnTensor            *t,
                                      GnnTensor            *default_mask,
                                      GError              **error)
{
  GnnBasePruningMethodClass *klass;
  GnnTensor *mask;

  g_return_val_if_fail (GNN_IS_BASE_PRUNING_METHOD (self), NULL);
  g_return_val_if_fail (GNN_IS_TENSOR (t), NULL);
  g_return_val_if_fail (GNN_IS_TENSOR (default_mask), NULL);
  klass = GNN_BASE_PRUNING_METHOD_GET_CLASS (self);
  if (klass->compute_mask == NULL)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED,
                   "%s does not implement compute_mask", G_OBJECT_TYPE_NAME (self));
      return NULL;
    }
  {
    g_autoptr(GnnNoGradGuard) guard = gnn_no_grad_guard_new ();
    GError *local = NULL;

    mask = klass->compute_mask (self, t, default_mask, &local);
    if (mask == NULL)
      {
        if (local == NULL)
          g_set_error (&local, GNN_ERROR, GNN_ERROR_FAILED, "%s.compute_mask returned no mask",
                       G_OBJECT_TYPE_NAME (self));
        g_propagate_error (error, local);
        return NULL;
      }
    g_clear_error (&local);
  }
  if (!GNN_IS_TENSOR (mask))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT, "compute_mask must return a tensor");
      return NULL;
    }
  {
    guint n1, n2;
    const gint64 *s1 = gnn_tensor_get_shape (mask, &n1), *s2 = gnn_tensor_get_shape (t, &n2);

    if (n1 != n2 || memcmp (s1, s2, n1 * sizeof (gint64)) != 0)
      {
        g_autofree char *a = gnn_prune_shape_string (mask), *b = gnn_prune_shape_string (t);

        g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                     "%s.compute_mask returned a mask of shape %s for a tensor of shape %s",
                     G_OBJECT_TYPE_NAME (self), a, b);
        g_object_unref (mask);
        return NULL;
      }
  }
  return mask;
}

/* module.<name>_orig and module.<name>_mask, borrowed */
static gboolean
orig_and_mask (GnnModule *module, const char *name, GnnTensor **orig, GnnTensor **mask, GError **error)
{
  g_autofree char *orig_name = g_strconcat (name, "_orig", NULL);
  g_autofree char *mask_name = g_strconcat (name, "_mask", NULL);

  *orig = GNN_TENSOR (gnn_module_find_parameter (module, orig_name));
  if (*orig == NULL)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT, "'%s' object has no parameter '%s'",
                   gnn_module_get_name (module), orig_name);
      return FALSE;
    }
  *mask = gnn_module_tensor (module, mask_name, TRUE, error);
  return *mask != NULL;
}

/**
 * gnn_base_pruning_method_apply_mask:
 * @self: a pruning method applied to @module
 * @module: the module
 * @error: return location for a #GError
 *
 * The pruned tensor: `<name>_orig · <name>_mask` of @module, for the tensor name @self was
 * applied to (`apply_mask (module)`), differentiable with respect to `<name>_orig`.
 *
 * Returns: (transfer full): the pruned tensor, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_base_pruning_method_apply_mask (GnnBasePruningMethod *self,
                                    GnnModule            *module,
                                    GError              **error)
{
  GnnBasePruningMethodPrivate *priv;
  GnnTensor *orig, *mask;
  g_autoptr(GnnTensor) m = NULL;

  g_return_val_if_fail (GNN_IS_BASE_PRUNING_METHOD (self), NULL);
  g_return_val_if_fail (GNN_IS_MODULE (module), NULL);
  priv = method_priv (self);
  if (priv->tensor_name == NULL)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "Module %s has to be pruned before the mask is applied (the method has no tensor name)",
                   gnn_module_get_name (module));
      return NULL;
    }
  if (!orig_and_mask (module, priv->tensor_name, &orig, &mask, error))
    return NULL;
  if (!(m = gnn_tensor_to_dtype (mask, gnn_tensor_get_dtype (orig), error)))
    return NULL;
  return gnn_tensor_mul (m, orig, error);
}

/**
 * gnn_base_pruning_method_prune:
 * @self: a pruning method
 * @t: the tensor to prune
 * @default_mask: (nullable): the mask of what is already pruned; %NULL: nothing is
 * @importance_scores: (nullable): the scores the mask is computed from, of @t's shape; %NULL:
 *   @t itself
 * @error: return location for a #GError
 *
 * @t times the mask @self computes (`prune (t, default_mask, importance_scores)`), without
 * touching a module.
 *
 * Returns: (transfer full): the pruned tensor, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_base_pruning_method_prune (GnnBasePruningMethod *self,
                               GnnTensor            *t,
                               GnnTensor            *default_mask,
                               GnnTensor            *importance_scores,
                               GError              **error)
{
  g_autoptr(GnnTensor) ones = NULL, mask = NULL;
  GnnTensor *scores = importance_scores ? importance_scores : t;

  g_return_val_if_fail (GNN_IS_BASE_PRUNING_METHOD (self), NULL);
  g_return_val_if_fail (GNN_IS_TENSOR (t), NULL);
  if (importance_scores && gnn_tensor_get_numel (importance_scores) != gnn_tensor_get_numel (t))
    {
      g_autofree char *a = gnn_prune_shape_string (importance_scores), *b = gnn_prune_shape_string (t);

      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "importance_scores should have the same shape as tensor t: got %s for %s", a, b);
      return NULL;
    }
  if (default_mask == NULL)
    {
      guint ndim;
      const gint64 *shape = gnn_tensor_get_shape (t, &ndim);

      if (!(ones = gnn_tensor_new_ones (shape, ndim, gnn_tensor_get_dtype (t), gnn_tensor_get_device (t),
                                        error)))
        return NULL;
      default_mask = ones;
    }
  if (!(mask = gnn_base_pruning_method_compute_mask (self, scores, default_mask, error)))
    return NULL;
  {
    g_autoptr(GnnTensor) m = gnn_tensor_to_dtype (mask, gnn_tensor_get_dtype (t), error);

    return m ? gnn_tensor_mul (t, m, error) : NULL;
  }
}

/**
 * gnn_base_pruning_method_get_pruning_type:
 * @self: a pruning method
 *
 * `PRUNING_TYPE`: "unstructured", "structured" or "global".
 *
 * Returns: the type
 *
 * Since: 0.1
 */
const char *
gnn_base_pruning_method_get_pruning_type (GnnBasePruningMethod *self)
{
  g_return_val_if_fail (GNN_IS_BASE_PRUNING_METHOD (self), NULL);
  return method_priv (self)->pruning_type;
}

/**
 * gnn_base_pruning_method_get_tensor_name:
 * @self: a pruning method
 *
 * The name of the tensor @self prunes (`_tensor_name`).
 *
 * Returns: (nullable): the name, %NULL until @self is applied
 *
 * Since: 0.1
 */
const char *
gnn_base_pruning_method_get_tensor_name (GnnBasePruningMethod *self)
{
  g_return_val_if_fail (GNN_IS_BASE_PRUNING_METHOD (self), NULL);
  return method_priv (self)->tensor_name;
}

/**
 * gnn_base_pruning_method_set_tensor_name:
 * @self: a pruning method
 * @name: (nullable): the name of the tensor it prunes
 *
 * Sets [property@Gnn.BasePruningMethod:tensor-name].
 *
 * Since: 0.1
 */
void
gnn_base_pruning_method_set_tensor_name (GnnBasePruningMethod *self,
                                         const char           *name)
{
  GnnBasePruningMethodPrivate *priv;

  g_return_if_fail (GNN_IS_BASE_PRUNING_METHOD (self));
  priv = method_priv (self);
  if (g_strcmp0 (priv->tensor_name, name) == 0)
    return;
  g_free (priv->tensor_name);
  priv->tensor_name = g_strdup (name);
  g_object_notify_by_pspec (G_OBJECT (self), props[PROP_TENSOR_NAME]);
}

/**
 * gnn_base_pruning_method_get_dim:
 * @self: a pruning method
 *
 * [property@Gnn.BasePruningMethod:dim].
 *
 * Returns: the dimension a structured method prunes along
 *
 * Since: 0.1
 */
int
gnn_base_pruning_method_get_dim (GnnBasePruningMethod *self)
{
  g_return_val_if_fail (GNN_IS_BASE_PRUNING_METHOD (self), -1);
  return method_priv (self)->dim;
}

/**
 * gnn_base_pruning_method_get_amount:
 * @self: a pruning method
 * @amount_is_count: (out) (optional): whether the amount is a count
 *
 * [property@Gnn.BasePruningMethod:amount].
 *
 * Returns: the amount
 *
 * Since: 0.1
 */
double
gnn_base_pruning_method_get_amount (GnnBasePruningMethod *self,
                                    gboolean             *amount_is_count)
{
  g_return_val_if_fail (GNN_IS_BASE_PRUNING_METHOD (self), 0.0);
  if (amount_is_count)
    *amount_is_count = method_priv (self)->amount_is_count;
  return method_priv (self)->amount;
}

/* ---- the hook -------------------------------------------------------------------------------- */

static void
prune_forward_pre_hook (GnnModule *module, GnnArgs *input, gpointer data)
{
  GnnBasePruningMethod *method = data;
  const char *name = method_priv (method)->tensor_name;
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) w = gnn_base_pruning_method_apply_mask (method, module, &error);

  (void) input;
  /* a hook cannot fail: when the mask cannot be applied (orig or mask removed by hand), the
   * attribute goes, and the forward reports the missing tensor */
  if (w == NULL || !gnn_module_set_tensor_attribute (module, name, w, &error))
    {
      g_debug ("pruning %s of %s: %s", name, gnn_module_get_name (module), error->message);
      gnn_module_set_tensor_attribute (module, name, NULL, NULL);
    }
}

/* the hook of @module that prunes @name, or NULL */
static GnnModuleHook *
find_hook (GnnModule *module, const char *name)
{
  GPtrArray *hooks = gnn_module_priv (module)->forward_hooks;

  for (guint i = 0; hooks && i < hooks->len; i++)
    {
      GnnModuleHook *h = hooks->pdata[i];
      if (h->kind == GNN_HOOK_FORWARD_PRE && h->func == (gpointer) prune_forward_pre_hook &&
          (name == NULL || g_strcmp0 (method_priv (h->data)->tensor_name, name) == 0))
        return h;
    }
  return NULL;
}

/**
 * gnn_prune_get_method:
 * @module: a module
 * @name: the name of a tensor of @module
 *
 * The pruning method whose forward pre-hook prunes @name in @module (the hook's object in
 * `module._forward_pre_hooks`): a [class@Gnn.PruningContainer] after several prunings.
 *
 * Returns: (transfer none) (nullable): the method, or %NULL when @name is not pruned
 *
 * Since: 0.1
 */
GnnBasePruningMethod *
gnn_prune_get_method (GnnModule  *module,
                      const char *name)
{
  GnnModuleHook *h;

  g_return_val_if_fail (GNN_IS_MODULE (module), NULL);
  g_return_val_if_fail (name != NULL, NULL);
  h = find_hook (module, name);
  return h ? h->data : NULL;
}

/**
 * gnn_prune_is_pruned:
 * @module: a module
 *
 * Whether @module or a module below it has a pruned tensor (`prune.is_pruned (module)`).
 *
 * Returns: %TRUE when a pruning hook is found
 *
 * Since: 0.1
 */
gboolean
gnn_prune_is_pruned (GnnModule *module)
{
  g_autoptr(GPtrArray) modules = NULL;

  g_return_val_if_fail (GNN_IS_MODULE (module), FALSE);
  modules = gnn_module_modules (module);
  for (guint i = 0; i < modules->len; i++)
    if (find_hook (modules->pdata[i], NULL))
      return TRUE;
  return FALSE;
}

/* ---- applying ---------------------------------------------------------------------------- */

static void
prefix_error (GError **error, GnnModule *module, const char *name)
{
  if (error && *error)
    g_prefix_error (error, "pruning '%s' of %s: ", name, gnn_module_get_name (module));
}

/**
 * gnn_prune_apply:
 * @module: a module
 * @name: the name of a parameter of @module (or of a tensor already pruned)
 * @method: the pruning method
 * @importance_scores: (nullable): the scores the mask is computed from, of the tensor's shape;
 *   %NULL: the tensor itself
 * @error: return location for a #GError
 *
 * Prunes the tensor @name of @module by @method (`BasePruningMethod.apply (module, name, ...)`):
 * the parameter becomes `<name>_orig`, the buffer `<name>_mask` holds the mask, and `<name>`
 * is the tensor attribute `<name>_orig · <name>_mask`, recomputed by a forward pre-hook before
 * each call of @module (a hook of the `forward-pre` kind, listed by the module's hooks).
 *
 * When @name is pruned already, @method joins the pruning that is there in a
 * [class@Gnn.PruningContainer] and prunes among the entries still unpruned: an unstructured
 * method among the unpruned entries, a structured one among the slices not wholly pruned.
 * On failure @module is left as it was.
 *
 * Returns: (transfer none): the method now pruning @name (@method, or the container holding
 *   it), or %NULL with @error set
 *
 * Since: 0.1
 */
GnnBasePruningMethod *
gnn_prune_apply (GnnModule            *module,
                 const char           *name,
                 GnnBasePruningMethod *method,
                 GnnTensor            *importance_scores,
                 GError              **error)
{
  GnnModuleHook *old_hook;
  GnnBasePruningMethod *old = NULL;
  g_autoptr(GnnBasePruningMethod) combined = NULL;
  g_autofree char *orig_name = NULL, *mask_name = NULL;
  g_autoptr(GnnTensor) default_mask = NULL, mask = NULL, weight = NULL;
  GnnTensor *orig;
  GnnParameter *param = NULL;
  guint old_id = 0;

  g_return_val_if_fail (GNN_IS_MODULE (module), NULL);
  g_return_val_if_fail (name != NULL, NULL);
  g_return_val_if_fail (GNN_IS_BASE_PRUNING_METHOD (method), NULL);
  g_return_val_if_fail (importance_scores == NULL || GNN_IS_TENSOR (importance_scores), NULL);

  orig_name = g_strconcat (name, "_orig", NULL);
  mask_name = g_strconcat (name, "_mask", NULL);
  old_hook = find_hook (module, name);
  if (old_hook)
    {
      old = old_hook->data;
      old_id = old_hook->id;
    }
  if (old == NULL)
    {
      param = gnn_module_find_parameter (module, name);
      if (param == NULL)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                       "Parameter '%s' of module %s has to be a parameter to be pruned "
                       "(there is no parameter '%s')", name, gnn_module_get_name (module), name);
          return NULL;
        }
      if (gnn_module_tensor (module, orig_name, FALSE, NULL) || gnn_module_tensor (module, mask_name, FALSE, NULL))
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                       "cannot prune '%s' of module %s: it already has a tensor '%s' or '%s'",
                       name, gnn_module_get_name (module), orig_name, mask_name);
          return NULL;
        }
      orig = GNN_TENSOR (param);
    }
  else if (!(orig = gnn_module_tensor (module, name, TRUE, error)))
    {
      prefix_error (error, module, name);
      return NULL;
    }
  if (importance_scores)
    {
      guint n1, n2;
      const gint64 *s1 = gnn_tensor_get_shape (importance_scores, &n1), *s2 = gnn_tensor_get_shape (orig, &n2);

      if (n1 != n2 || memcmp (s1, s2, n1 * sizeof (gint64)) != 0)
        {
          g_autofree char *a = gnn_prune_shape_string (importance_scores), *b = gnn_prune_shape_string (orig);

          g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                       "importance_scores should have the same shape as parameter %s of %s: "
                       "expected %s, got %s", name, gnn_module_get_name (module), b, a);
          return NULL;
        }
    }

  gnn_base_pruning_method_set_tensor_name (method, name);
  if (old)
    {
      /* a new container, so that a failure leaves the old pruning as it was */
      GnnPruningContainer *c = gnn_pruning_container_new ();

      combined = GNN_BASE_PRUNING_METHOD (c);
      gnn_base_pruning_method_set_tensor_name (combined, name);
      if (GNN_IS_PRUNING_CONTAINER (old))
        {
          for (guint i = 0; i < gnn_pruning_container_get_n_methods (GNN_PRUNING_CONTAINER (old)); i++)
            if (!gnn_pruning_container_add_pruning_method (
                  c, gnn_pruning_container_get_method (GNN_PRUNING_CONTAINER (old), i), error))
              return NULL;
        }
      else if (!gnn_pruning_container_add_pruning_method (c, old, error))
        return NULL;
      if (!gnn_pruning_container_add_pruning_method (c, method, error))
        return NULL;
      {
        GnnTensor *old_mask = gnn_module_tensor (module, mask_name, TRUE, error);

        default_mask = old_mask ? gnn_prune_clone (old_mask, error) : NULL;
      }
    }
  else
    {
      guint ndim;
      const gint64 *shape = gnn_tensor_get_shape (orig, &ndim);

      combined = g_object_ref (method);
      default_mask = gnn_tensor_new_ones (shape, ndim, gnn_tensor_get_dtype (orig), gnn_tensor_get_device (orig),
                                          error);
    }
  if (default_mask == NULL ||
      !(mask = gnn_base_pruning_method_compute_mask (combined, importance_scores ? importance_scores : orig,
                                                     default_mask, error)))
    {
      prefix_error (error, module, name);
      return NULL;
    }

  if (old == NULL)
    {
      g_autoptr(GnnParameter) keep = g_object_ref (param);

      gnn_module_remove (module, name);
      if (!gnn_module_register_parameter (module, orig_name, keep, error))
        {
          gnn_module_register_parameter (module, name, keep, NULL);
          prefix_error (error, module, name);
          return NULL;
        }
    }
  else
    gnn_module_remove (module, mask_name);
  if (!gnn_module_register_buffer (module, mask_name, mask, TRUE, error) ||
      !(weight = gnn_base_pruning_method_apply_mask (combined, module, error)) ||
      !gnn_module_set_tensor_attribute (module, name, weight, error))
    {
      /* not expected (the names were checked): undo what was done */
      if (old == NULL)
        {
          g_autoptr(GnnParameter) keep = g_object_ref (param);

          gnn_module_remove (module, mask_name);
          gnn_module_remove (module, orig_name);
          gnn_module_register_parameter (module, name, keep, NULL);
        }
      prefix_error (error, module, name);
      return NULL;
    }
  if (old_id)
    gnn_module_remove_hook (module, old_id);
  gnn_module_register_forward_pre_hook (module, prune_forward_pre_hook, g_object_ref (combined), g_object_unref,
                                        FALSE, FALSE);
  return combined;   /* the hook holds it */
}

/**
 * gnn_base_pruning_method_remove:
 * @self: the pruning method applied to @module
 * @module: the module
 * @error: return location for a #GError
 *
 * Makes the pruning permanent (`BasePruningMethod.remove (module)`): the parameter `<name>`
 * holds the pruned values again, `<name>_orig`, `<name>_mask` and the hook are gone.
 *
 * Returns: %TRUE on success
 *
 * Since: 0.1
 */
gboolean
gnn_base_pruning_method_remove (GnnBasePruningMethod *self,
                                GnnModule            *module,
                                GError              **error)
{
  GnnModuleHook *h;
  g_autofree char *name = NULL, *orig_name = NULL, *mask_name = NULL;
  g_autoptr(GnnTensor) weight = NULL;
  g_autoptr(GnnParameter) orig = NULL;
  guint id;

  g_return_val_if_fail (GNN_IS_BASE_PRUNING_METHOD (self), FALSE);
  g_return_val_if_fail (GNN_IS_MODULE (module), FALSE);
  /* the hook holds @self, which may go with it */
  name = g_strdup (method_priv (self)->tensor_name);
  h = name ? find_hook (module, name) : NULL;
  if (h == NULL || h->data != (gpointer) self)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "Parameter '%s' of module %s has to be pruned before pruning can be removed",
                   name ? name : "", gnn_module_get_name (module));
      return FALSE;
    }
  id = h->id;
  orig_name = g_strconcat (name, "_orig", NULL);
  mask_name = g_strconcat (name, "_mask", NULL);
  {
    g_autoptr(GnnNoGradGuard) guard = gnn_no_grad_guard_new ();

    if (!(weight = gnn_base_pruning_method_apply_mask (self, module, error)))
      return FALSE;
  }
  orig = g_object_ref (gnn_module_find_parameter (module, orig_name));
  if (!gnn_tensor_set_data (GNN_TENSOR (orig), weight, error))
    return FALSE;
  gnn_module_remove_hook (module, id);
  gnn_module_set_tensor_attribute (module, name, NULL, NULL);
  gnn_module_remove (module, orig_name);
  gnn_module_remove (module, mask_name);
  return gnn_module_register_parameter (module, name, orig, error);
}

/**
 * gnn_prune_remove:
 * @module: a module
 * @name: the name of a pruned tensor of @module
 * @error: return location for a #GError
 *
 * Makes the pruning of @name permanent (`prune.remove (module, name)`): `<name>` is a plain
 * parameter again holding `<name>_orig · <name>_mask`; `<name>_orig`, `<name>_mask` and the
 * pruning hook are gone.
 *
 * Returns: %TRUE on success; %FALSE with @error set when @name is not pruned
 *
 * Since: 0.1
 */
gboolean
gnn_prune_remove (GnnModule  *module,
                  const char *name,
                  GError    **error)
{
  GnnBasePruningMethod *method;

  g_return_val_if_fail (GNN_IS_MODULE (module), FALSE);
  g_return_val_if_fail (name != NULL, FALSE);
  method = gnn_prune_get_method (module, name);
  if (method == NULL)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "Parameter '%s' of module %s has to be pruned before pruning can be removed",
                   name, gnn_module_get_name (module));
      return FALSE;
    }
  return gnn_base_pruning_method_remove (method, module, error);
}

/* ---- rebuilding from a file (gnn-prune-private.h) -------------------------------------- */

GnnBasePruningMethod *
gnn_prune_hook_method (GnnModuleHook *hook)
{
  if (hook->kind == GNN_HOOK_FORWARD_PRE && hook->func == (gpointer) prune_forward_pre_hook)
    return hook->data;
  return NULL;
}

gboolean
gnn_prune_restore (GnnModule            *module,
                   const char           *name,
                   GnnBasePruningMethod *method,
                   GError              **error)
{
  g_autofree char *orig_name = g_strconcat (name, "_orig", NULL);
  g_autofree char *mask_name = g_strconcat (name, "_mask", NULL);
  g_autoptr(GnnParameter) param = NULL;
  g_autoptr(GnnTensor) mask = NULL, weight = NULL;
  GnnParameter *p = gnn_module_find_parameter (module, name);
  guint ndim;
  const gint64 *shape;

  if (p == NULL || find_hook (module, name))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "cannot prune '%s' of %s: it is %s", name, gnn_module_get_name (module),
                   p ? "pruned already" : "no parameter");
      return FALSE;
    }
  if (gnn_module_tensor (module, orig_name, FALSE, NULL) || gnn_module_tensor (module, mask_name, FALSE, NULL))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "cannot prune '%s' of %s: it already has a tensor '%s' or '%s'",
                   name, gnn_module_get_name (module), orig_name, mask_name);
      return FALSE;
    }
  param = g_object_ref (p);
  shape = gnn_tensor_get_shape (GNN_TENSOR (param), &ndim);
  if (!(mask = gnn_tensor_new_ones (shape, ndim, gnn_tensor_get_dtype (GNN_TENSOR (param)),
                                    gnn_tensor_get_device (GNN_TENSOR (param)), error)))
    return FALSE;
  gnn_module_remove (module, name);
  if (!gnn_module_register_parameter (module, orig_name, param, error) ||
      !gnn_module_register_buffer (module, mask_name, mask, TRUE, error) ||
      !(weight = gnn_tensor_detach (GNN_TENSOR (param))) ||
      !gnn_module_set_tensor_attribute (module, name, weight, error))
    {
      gnn_module_remove (module, mask_name);
      gnn_module_remove (module, orig_name);
      gnn_module_register_parameter (module, name, param, NULL);
      return FALSE;
    }
  gnn_base_pruning_method_set_tensor_name (method, name);
  gnn_module_register_forward_pre_hook (module, prune_forward_pre_hook, g_object_ref (method), g_object_unref,
                                        FALSE, FALSE);
  return TRUE;
}

/* ---- PruningContainer ---------------------------------------------------------------------- */

struct _GnnPruningContainer
{
  GnnBasePruningMethod parent_instance;
  GPtrArray *methods;
};

/**
 * GnnPruningContainer:
 *
 * The pruning methods applied one after the other to one tensor (`prune.PruningContainer`):
 * its mask is the last method's, computed among the entries the earlier masks keep.
 *
 * Since: 0.1
 */
G_DEFINE_FINAL_TYPE (GnnPruningContainer, gnn_pruning_container, GNN_TYPE_BASE_PRUNING_METHOD)

/* torch's _combine_masks: @method's mask computed among the entries @default_mask keeps */
GnnTensor *
gnn_prune_combine_masks (GnnBasePruningMethod *method,
                         GnnTensor            *t,
                         GnnTensor            *default_mask,
                         GError              **error)
{
  const char *type = method_priv (method)->pruning_type;
  g_autoptr(GnnTensor) new_mask = NULL, partial = NULL, sub_t = NULL, sub_mask = NULL;

  if (!(new_mask = gnn_prune_clone (default_mask, error)))
    return NULL;
  if (g_strcmp0 (type, "unstructured") == 0)
    {
      g_autoptr(GnnTensor) slc = NULL, p = NULL;

      if (!(slc = gnn_tensor_eq_scalar (new_mask, 1.0, error)) ||
          !(sub_t = gnn_tensor_masked_select (t, slc, error)) ||
          !(sub_mask = gnn_tensor_masked_select (new_mask, slc, error)) ||
          !(partial = gnn_base_pruning_method_compute_mask (method, sub_t, sub_mask, error)) ||
          !(p = gnn_tensor_to_dtype (partial, gnn_tensor_get_dtype (new_mask), error)))
        return NULL;
      return gnn_tensor_masked_scatter (new_mask, slc, p, error);
    }
  if (g_strcmp0 (type, "structured") == 0)
    {
      guint ndim = gnn_tensor_get_ndim (t);
      int dim = method_priv (method)->dim, dims[32];
      guint n_dims = 0;
      g_autoptr(GnnTensor) sums = NULL, keep = NULL, idx = NULL, idx1 = NULL, p = NULL;
      gint64 n_keep;

      if (dim < 0)
        dim += (int) ndim;
      if (dim < 0 || dim >= (int) ndim)
        {
          g_autofree char *s = gnn_prune_shape_string (t);

          g_set_error (error, GNN_ERROR, GNN_ERROR_INDEX, "Invalid index %d for tensor of size %s",
                       method_priv (method)->dim, s);
          return NULL;
        }
      for (guint d = 0; d < ndim; d++)
        if ((int) d != dim)
          dims[n_dims++] = (int) d;
      if (!(sums = gnn_tensor_sum (new_mask, dims, n_dims, FALSE, error)) ||
          !(keep = gnn_tensor_ne_scalar (sums, 0.0, error)) ||
          !(idx = gnn_tensor_nonzero (keep, error)))
        return NULL;
      n_keep = gnn_tensor_get_numel (idx);
      if (!(idx1 = gnn_tensor_reshape (idx, &n_keep, 1, error)) ||
          !(sub_t = gnn_tensor_index_select (t, dim, idx1, error)) ||
          !(sub_mask = gnn_tensor_index_select (new_mask, dim, idx1, error)) ||
          !(partial = gnn_base_pruning_method_compute_mask (method, sub_t, sub_mask, error)) ||
          !(p = gnn_tensor_to_dtype (partial, gnn_tensor_get_dtype (new_mask), error)))
        return NULL;
      return gnn_tensor_index_copy (new_mask, dim, idx1, p, error);
    }
  if (g_strcmp0 (type, "global") == 0)
    {
      if (!(partial = gnn_base_pruning_method_compute_mask (method, t, new_mask, error)))
        return NULL;
      return gnn_tensor_to_dtype (partial, gnn_tensor_get_dtype (new_mask), error);
    }
  g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT, "Unrecognized PRUNING_TYPE %s", type ? type : "(null)");
  return NULL;
}

static GnnTensor *
gnn_pruning_container_compute_mask (GnnBasePruningMethod *method,
                                    GnnTensor            *t,
                                    GnnTensor            *default_mask,
                                    GError              **error)
{
  GnnPruningContainer *self = GNN_PRUNING_CONTAINER (method);

  if (self->methods->len == 0)
    return gnn_prune_clone (default_mask, error);
  return gnn_prune_combine_masks (self->methods->pdata[self->methods->len - 1], t, default_mask, error);
}

static void
gnn_pruning_container_finalize (GObject *object)
{
  g_ptr_array_unref (GNN_PRUNING_CONTAINER (object)->methods);
  G_OBJECT_CLASS (gnn_pruning_container_parent_class)->finalize (object);
}

static void
gnn_pruning_container_class_init (GnnPruningContainerClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = gnn_pruning_container_finalize;
  GNN_BASE_PRUNING_METHOD_CLASS (klass)->compute_mask = gnn_pruning_container_compute_mask;
}

static void
gnn_pruning_container_init (GnnPruningContainer *self)
{
  self->methods = g_ptr_array_new_with_free_func (g_object_unref);
}

/**
 * gnn_pruning_container_new:
 *
 * An empty container of pruning methods (`PruningContainer ()`): its mask is the last
 * method's, computed among the entries the masks before it keep. [func@Gnn.prune_apply]
 * makes one when a tensor is pruned a second time.
 *
 * Returns: (transfer full): the container
 *
 * Since: 0.1
 */
GnnPruningContainer *
gnn_pruning_container_new (void)
{
  return g_object_new (GNN_TYPE_PRUNING_CONTAINER, NULL);
}

/**
 * gnn_pruning_container_add_pruning_method:
 * @self: a container
 * @method: a pruning method for the same tensor
 * @error: return location for a #GError
 *
 * Adds @method at the end (`add_pruning_method`); a container without a tensor name takes
 * @method's.
 *
 * Returns: %TRUE on success; %FALSE with @error set when @method prunes another tensor
 *
 * Since: 0.1
 */
gboolean
gnn_pruning_container_add_pruning_method (GnnPruningContainer  *self,
                                          GnnBasePruningMethod *method,
                                          GError              **error)
{
  GnnBasePruningMethodPrivate *priv;
  const char *name;

  g_return_val_if_fail (GNN_IS_PRUNING_CONTAINER (self), FALSE);
  g_return_val_if_fail (GNN_IS_BASE_PRUNING_METHOD (method), FALSE);
  priv = method_priv (GNN_BASE_PRUNING_METHOD (self));
  name = method_priv (method)->tensor_name;
  if (priv->tensor_name == NULL)
    gnn_base_pruning_method_set_tensor_name (GNN_BASE_PRUNING_METHOD (self), name);
  else if (g_strcmp0 (priv->tensor_name, name) != 0)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "Can only add pruning methods acting on the parameter named '%s' to PruningContainer. "
                   "Found '%s'", priv->tensor_name, name ? name : "None");
      return FALSE;
    }
  g_ptr_array_add (self->methods, g_object_ref (method));
  return TRUE;
}

/**
 * gnn_pruning_container_get_n_methods:
 * @self: a container
 *
 * `len (container)`.
 *
 * Returns: the number of methods
 *
 * Since: 0.1
 */
guint
gnn_pruning_container_get_n_methods (GnnPruningContainer *self)
{
  g_return_val_if_fail (GNN_IS_PRUNING_CONTAINER (self), 0);
  return self->methods->len;
}

/**
 * gnn_pruning_container_get_method:
 * @self: a container
 * @index: a position below [method@Gnn.PruningContainer.get_n_methods]
 *
 * `container[index]`.
 *
 * Returns: (transfer none): the method
 *
 * Since: 0.1
 */
GnnBasePruningMethod *
gnn_pruning_container_get_method (GnnPruningContainer *self,
                                  guint                index)
{
  g_return_val_if_fail (GNN_IS_PRUNING_CONTAINER (self), NULL);
  g_return_val_if_fail (index < self->methods->len, NULL);
  return self->methods->pdata[index];
}

/* ---- Identity ----------------------------------------------------------------------------- */

struct _GnnPruningIdentity
{
  GnnBasePruningMethod parent_instance;
};

/**
 * GnnPruningIdentity:
 *
 * The method that prunes nothing (`prune.Identity`).
 *
 * Since: 0.1
 */
G_DEFINE_FINAL_TYPE (GnnPruningIdentity, gnn_pruning_identity, GNN_TYPE_BASE_PRUNING_METHOD)

static GnnTensor *
identity_compute_mask (GnnBasePruningMethod *self, GnnTensor *t, GnnTensor *default_mask, GError **error)
{
  (void) self;
  (void) t;
  return gnn_prune_clone (default_mask, error);
}

static void
gnn_pruning_identity_class_init (GnnPruningIdentityClass *klass)
{
  GNN_BASE_PRUNING_METHOD_CLASS (klass)->compute_mask = identity_compute_mask;
}

static void
gnn_pruning_identity_init (GnnPruningIdentity *self)
{
  (void) self;
}

/**
 * gnn_pruning_identity_new:
 *
 * The method that prunes nothing (`prune.Identity`): its mask is the default mask.
 *
 * Returns: (transfer full): the method
 *
 * Since: 0.1
 */
GnnPruningIdentity *
gnn_pruning_identity_new (void)
{
  return g_object_new (GNN_TYPE_PRUNING_IDENTITY, NULL);
}

/* ---- RandomUnstructured and L1Unstructured ------------------------------------------------ */

struct _GnnRandomUnstructured
{
  GnnBasePruningMethod parent_instance;
};

/**
 * GnnRandomUnstructured:
 *
 * The method that prunes entries at random (`prune.RandomUnstructured`).
 *
 * Since: 0.1
 */
G_DEFINE_FINAL_TYPE (GnnRandomUnstructured, gnn_random_unstructured, GNN_TYPE_BASE_PRUNING_METHOD)

struct _GnnL1Unstructured
{
  GnnBasePruningMethod parent_instance;
};

/**
 * GnnL1Unstructured:
 *
 * The method that prunes the entries of smallest absolute value (`prune.L1Unstructured`).
 *
 * Since: 0.1
 */
G_DEFINE_FINAL_TYPE (GnnL1Unstructured, gnn_l1_unstructured, GNN_TYPE_BASE_PRUNING_METHOD)

/* the default mask with the @k entries whose @scores are largest (or smallest) set to 0 */
static GnnTensor *
prune_topk (GnnTensor *scores, GnnTensor *default_mask, gint64 k, gboolean largest, GError **error)
{
  gint64 numel = gnn_tensor_get_numel (scores);
  g_autoptr(GnnTensor) flat = NULL, values = NULL, index = NULL;

  if (k == 0)
    return gnn_prune_clone (default_mask, error);
  if (!(flat = gnn_tensor_reshape (scores, &numel, 1, error)) ||
      !(values = gnn_tensor_topk (flat, k, 0, largest, TRUE, &index, error)))
    return NULL;
  return gnn_prune_fill_flat (default_mask, index, 0.0, error);
}

static GnnTensor *
random_unstructured_compute_mask (GnnBasePruningMethod *self, GnnTensor *t, GnnTensor *default_mask,
                                  GError **error)
{
  GnnBasePruningMethodPrivate *priv = method_priv (self);
  gint64 k = gnn_prune_nparams_toprune (priv->amount, priv->amount_is_count, gnn_tensor_get_numel (t), error);
  g_autoptr(GnnTensor) prob = NULL;
  guint ndim;
  const gint64 *shape = gnn_tensor_get_shape (t, &ndim);

  if (k < 0)
    return NULL;
  if (k == 0)
    return gnn_prune_clone (default_mask, error);
  if (!(prob = gnn_tensor_new_rand (shape, ndim, NULL, GNN_DTYPE_FLOAT32, gnn_tensor_get_device (t), error)))
    return NULL;
  return prune_topk (prob, default_mask, k, TRUE, error);
}

static GnnTensor *
l1_unstructured_compute_mask (GnnBasePruningMethod *self, GnnTensor *t, GnnTensor *default_mask, GError **error)
{
  GnnBasePruningMethodPrivate *priv = method_priv (self);
  gint64 k = gnn_prune_nparams_toprune (priv->amount, priv->amount_is_count, gnn_tensor_get_numel (t), error);
  g_autoptr(GnnTensor) a = NULL;

  if (k < 0)
    return NULL;
  if (k == 0)
    return gnn_prune_clone (default_mask, error);
  if (!(a = gnn_tensor_abs (t, error)))
    return NULL;
  return prune_topk (a, default_mask, k, FALSE, error);
}

static void
gnn_random_unstructured_class_init (GnnRandomUnstructuredClass *klass)
{
  GNN_BASE_PRUNING_METHOD_CLASS (klass)->compute_mask = random_unstructured_compute_mask;
}

static void
gnn_random_unstructured_init (GnnRandomUnstructured *self)
{
  (void) self;
}

static void
gnn_l1_unstructured_class_init (GnnL1UnstructuredClass *klass)
{
  GNN_BASE_PRUNING_METHOD_CLASS (klass)->compute_mask = l1_unstructured_compute_mask;
}

static void
gnn_l1_unstructured_init (GnnL1Unstructured *self)
{
  (void) self;
}

/**
 * gnn_random_unstructured_new:
 * @amount: how much to prune: a fraction in [0, 1] of the unpruned entries, or their number
 * @amount_is_count: whether @amount is a number of entries (a Python int)
 * @error: return location for a #GError
 *
 * The method that prunes entries at random (`prune.RandomUnstructured (amount)`), drawn from
 * gnn's default generator.
 *
 * Returns: (transfer full): the method, or %NULL with @error set when @amount is negative,
 *   above 1.0 as a fraction or not whole as a count
 *
 * Since: 0.1
 */
GnnRandomUnstructured *
gnn_random_unstructured_new (double    amount,
                             gboolean  amount_is_count,
                             GError  **error)
{
  if (!gnn_prune_validate_amount_init (amount, amount_is_count, error))
    return NULL;
  return g_object_new (GNN_TYPE_RANDOM_UNSTRUCTURED, "amount", amount, "amount-is-count", amount_is_count, NULL);
}

/**
 * gnn_l1_unstructured_new:
 * @amount: how much to prune: a fraction in [0, 1] of the unpruned entries, or their number
 * @amount_is_count: whether @amount is a number of entries (a Python int)
 * @error: return location for a #GError
 *
 * The method that prunes the entries of smallest absolute value (`prune.L1Unstructured
 * (amount)`); of equal values, the first in the tensor's order goes first.
 *
 * Returns: (transfer full): the method, or %NULL with @error set when @amount is negative,
 *   above 1.0 as a fraction or not whole as a count
 *
 * Since: 0.1
 */
GnnL1Unstructured *
gnn_l1_unstructured_new (double    amount,
                         gboolean  amount_is_count,
                         GError  **error)
{
  if (!gnn_prune_validate_amount_init (amount, amount_is_count, error))
    return NULL;
  return g_object_new (GNN_TYPE_L1_UNSTRUCTURED, "amount", amount, "amount-is-count", amount_is_count, NULL);
}

/* ---- CustomFromMask -------------------------------------------------------------------------- */

struct _GnnCustomFromMask
{
  GnnBasePruningMethod parent_instance;
  GnnTensor *mask;
};

/**
 * GnnCustomFromMask:
 *
 * The method that prunes by a given mask (`prune.CustomFromMask`).
 *
 * Since: 0.1
 */
G_DEFINE_FINAL_TYPE (GnnCustomFromMask, gnn_custom_from_mask, GNN_TYPE_BASE_PRUNING_METHOD)

static GnnTensor *
custom_compute_mask (GnnBasePruningMethod *method, GnnTensor *t, GnnTensor *default_mask, GError **error)
{
  GnnCustomFromMask *self = GNN_CUSTOM_FROM_MASK (method);
  guint n1, n2;
  const gint64 *s1 = gnn_tensor_get_shape (default_mask, &n1), *s2 = gnn_tensor_get_shape (self->mask, &n2);
  g_autoptr(GnnTensor) m = NULL;

  (void) t;
  if (n1 != n2 || memcmp (s1, s2, n1 * sizeof (gint64)) != 0)
    {
      g_autofree char *a = gnn_prune_shape_string (self->mask), *b = gnn_prune_shape_string (default_mask);

      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "custom_from_mask: the mask has shape %s, the tensor pruned %s", a, b);
      return NULL;
    }
  if (!(m = gnn_tensor_to_dtype (self->mask, gnn_tensor_get_dtype (default_mask), error)))
    return NULL;
  {
    g_autoptr(GnnTensor) dm = gnn_tensor_detach (default_mask);
    g_autoptr(GnnTensor) md = gnn_tensor_detach (m);

    return gnn_tensor_mul (dm, md, error);
  }
}

static void
gnn_custom_from_mask_finalize (GObject *object)
{
  g_clear_object (&GNN_CUSTOM_FROM_MASK (object)->mask);
  G_OBJECT_CLASS (gnn_custom_from_mask_parent_class)->finalize (object);
}

static void
gnn_custom_from_mask_set_property (GObject *object, guint prop_id, const GValue *value, GParamSpec *pspec)
{
  GnnCustomFromMask *self = GNN_CUSTOM_FROM_MASK (object);

  if (prop_id != 1)
    {
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      return;
    }
  g_clear_object (&self->mask);
  if (g_value_get_object (value))
    self->mask = gnn_tensor_detach (g_value_get_object (value));
}

static void
gnn_custom_from_mask_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  if (prop_id != 1)
    {
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      return;
    }
  g_value_set_object (value, GNN_CUSTOM_FROM_MASK (object)->mask);
}

static void
gnn_custom_from_mask_class_init (GnnCustomFromMaskClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = gnn_custom_from_mask_finalize;
  object_class->set_property = gnn_custom_from_mask_set_property;
  object_class->get_property = gnn_custom_from_mask_get_property;
  GNN_BASE_PRUNING_METHOD_CLASS (klass)->compute_mask = custom_compute_mask;

  /**
   * GnnCustomFromMask:mask:
   *
   * The mask it prunes by (torch's `mask`): 1 (or true) where entries are kept.
   *
   * Since: 0.1
   */
  g_object_class_install_property (object_class, 1,
    g_param_spec_object ("mask", NULL, NULL, GNN_TYPE_TENSOR,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));
}

static void
gnn_custom_from_mask_init (GnnCustomFromMask *self)
{
  (void) self;
}

/**
 * gnn_custom_from_mask_new:
 * @mask: the mask: 1 (or true) where entries are kept, of the shape of the tensors it prunes
 *
 * The method that prunes by a given mask (`prune.CustomFromMask (mask)`); entries already
 * pruned stay pruned. Its pruning type is "global", as torch's: the mask covers the whole
 * tensor.
 *
 * Returns: (transfer full): the method
 *
 * Since: 0.1
 */
GnnCustomFromMask *
gnn_custom_from_mask_new (GnnTensor *mask)
{
  GnnCustomFromMask *self;

  g_return_val_if_fail (GNN_IS_TENSOR (mask), NULL);
  self = g_object_new (GNN_TYPE_CUSTOM_FROM_MASK, "pruning-type", "global", NULL);
  self->mask = gnn_tensor_detach (mask);
  return self;
}

/* ---- the functions ------------------------------------------------------------------------ */

static gboolean
apply_new (GnnModule *module, const char *name, gpointer method, GnnTensor *scores, GError **error)
{
  g_autoptr(GnnBasePruningMethod) m = method;

  if (m == NULL)
    {
      prefix_error (error, module, name);
      return FALSE;
    }
  return gnn_prune_apply (module, name, m, scores, error) != NULL;
}

/**
 * gnn_prune_identity:
 * @module: a module
 * @name: the name of a parameter of @module
 * @error: return location for a #GError
 *
 * Reparametrizes @name as pruned without pruning any entry (`prune.identity (module, name)`):
 * `<name>_orig`, a mask of ones and the hook, as [func@Gnn.prune_apply] sets them.
 *
 * Returns: %TRUE on success
 *
 * Since: 0.1
 */
gboolean
gnn_prune_identity (GnnModule  *module,
                    const char *name,
                    GError    **error)
{
  g_return_val_if_fail (GNN_IS_MODULE (module), FALSE);
  return apply_new (module, name, gnn_pruning_identity_new (), NULL, error);
}

/**
 * gnn_prune_random_unstructured:
 * @module: a module
 * @name: the name of a parameter of @module
 * @amount: a fraction in [0, 1] of the unpruned entries, or (@amount_is_count) their number
 * @amount_is_count: whether @amount is a number of entries (a Python int)
 * @error: return location for a #GError
 *
 * Prunes @amount of the unpruned entries of @name at random
 * (`prune.random_unstructured (module, name, amount)`).
 *
 * Returns: %TRUE on success; %FALSE with @error set (naming the module and tensor) when the
 *   amount is negative, above 1.0 as a fraction, or above the number of entries as a count
 *
 * Since: 0.1
 */
gboolean
gnn_prune_random_unstructured (GnnModule  *module,
                               const char *name,
                               double      amount,
                               gboolean    amount_is_count,
                               GError    **error)
{
  g_return_val_if_fail (GNN_IS_MODULE (module), FALSE);
  return apply_new (module, name, gnn_random_unstructured_new (amount, amount_is_count, error), NULL, error);
}

/**
 * gnn_prune_l1_unstructured:
 * @module: a module
 * @name: the name of a parameter of @module
 * @amount: a fraction in [0, 1] of the unpruned entries, or (@amount_is_count) their number
 * @amount_is_count: whether @amount is a number of entries (a Python int)
 * @importance_scores: (nullable): the scores that rank the entries, of the tensor's shape;
 *   %NULL: the tensor's values
 * @error: return location for a #GError
 *
 * Prunes the @amount unpruned entries of @name of smallest absolute score
 * (`prune.l1_unstructured (module, name, amount, importance_scores)`).
 *
 * Returns: %TRUE on success; %FALSE with @error set (naming the module and tensor) when the
 *   amount is negative, above 1.0 as a fraction, or above the number of entries as a count,
 *   or the scores' shape is not the tensor's
 *
 * Since: 0.1
 */
gboolean
gnn_prune_l1_unstructured (GnnModule  *module,
                           const char *name,
                           double      amount,
                           gboolean    amount_is_count,
                           GnnTensor  *importance_scores,
                           GError    **error)
{
  g_return_val_if_fail (GNN_IS_MODULE (module), FALSE);
  return apply_new (module, name, gnn_l1_unstructured_new (amount, amount_is_count, error), importance_scores,
                    error);
}

/**
 * gnn_prune_custom_from_mask:
 * @module: a module
 * @name: the name of a parameter of @module
 * @mask: the mask, of the tensor's shape: 1 (or true) where entries are kept
 * @error: return location for a #GError
 *
 * Prunes the entries of @name where @mask is 0 (`prune.custom_from_mask (module, name, mask)`).
 *
 * Returns: %TRUE on success; %FALSE with @error set when @mask's shape is not the tensor's
 *
 * Since: 0.1
 */
gboolean
gnn_prune_custom_from_mask (GnnModule  *module,
                            const char *name,
                            GnnTensor  *mask,
                            GError    **error)
{
  g_return_val_if_fail (GNN_IS_MODULE (module), FALSE);
  g_return_val_if_fail (GNN_IS_TENSOR (mask), FALSE);
  return apply_new (module, name, gnn_custom_from_mask_new (mask), NULL, error);
}
