/* gnn-layers.c: GnnIdentity, GnnFlatten, GnnUnflatten, GnnDropout, GnnDropout2d,
 * GnnEmbedding, GnnBilinear
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <math.h>

#include "gnn-args-private.h"
#include "gnn-module-private.h"
#include "gnn-props-private.h"
#include "core/gnn-tensor-private.h"
#include "gnn-layers.h"
#include "gnn-init.h"




/* ---- Identity -------------------------------------------------------------------------- */

/**
 * GnnIdentity:
 *
 * A placeholder that returns its input, as `torch.nn.Identity`: the same tensor object,
 * untouched. It has no parameters and prints as "Identity()".
 *
 * Since: 0.1
 */
struct _GnnIdentity
{
  GnnModule parent_instance;
};

G_DEFINE_FINAL_TYPE (GnnIdentity, gnn_identity, GNN_TYPE_MODULE)

static GnnArgs *
gnn_identity_forward (GnnModule *module,
                      GnnArgs   *input,
                      GError   **error)
{
  GnnTensor *x = gnn_args_first_tensor (input, "Identity", error);

  return x ? gnn_args_new_tensor (x) : NULL;
}

static void
gnn_identity_class_init (GnnIdentityClass *klass)
{
  GNN_MODULE_CLASS (klass)->forward = gnn_identity_forward;
}

static void
gnn_identity_init (GnnIdentity *self)
{
}

/**
 * gnn_identity_new:
 *
 * Creates an Identity layer (`nn.Identity ()`).
 *
 * Returns: (transfer full): the layer
 *
 * Since: 0.1
 */
GnnIdentity *
gnn_identity_new (void)
{
  return g_object_new (GNN_TYPE_IDENTITY, NULL);
}

/* ---- Flatten --------------------------------------------------------------------------- */

/**
 * GnnFlatten:
 *
 * Flattens a range of dimensions into one, as `torch.nn.Flatten`: an input of shape
 * (N, C, H, W) becomes (N, C×H×W) with the defaults start_dim=1, end_dim=-1.
 *
 * It has no parameters and prints as PyTorch's: "Flatten(start_dim=1, end_dim=-1)".
 *
 * Since: 0.1
 */
struct _GnnFlatten
{
  GnnModule parent_instance;

  int start_dim;
  int end_dim;
};

enum {
  FLATTEN_PROP_0,
  FLATTEN_PROP_START_DIM,
  FLATTEN_PROP_END_DIM,
  FLATTEN_N_PROPS
};

static GnnProp flatten_props[FLATTEN_N_PROPS];

G_DEFINE_FINAL_TYPE (GnnFlatten, gnn_flatten, GNN_TYPE_MODULE)

static GnnArgs *
gnn_flatten_forward (GnnModule *module,
                     GnnArgs   *input,
                     GError   **error)
{
  GnnFlatten *self = GNN_FLATTEN (module);
  GnnTensor *x = gnn_args_first_tensor (input, "Flatten", error);

  if (x == NULL)
    return NULL;
  return gnn_args_take_tensor_or_prefix (gnn_tensor_flatten (x, self->start_dim, self->end_dim, error),
                         "Flatten", error);
}

static char *
gnn_flatten_extra_repr (GnnModule *module)
{
  GnnFlatten *self = GNN_FLATTEN (module);

  return g_strdup_printf ("start_dim=%d, end_dim=%d", self->start_dim, self->end_dim);
}

static void
gnn_flatten_class_init (GnnFlattenClass *klass)
{
  GnnModuleClass *module_class = GNN_MODULE_CLASS (klass);

  module_class->forward = gnn_flatten_forward;
  module_class->extra_repr = gnn_flatten_extra_repr;

  /**
   * GnnFlatten:start-dim:
   *
   * The first dimension to flatten (`start_dim`, default 1); negative counts from the end.
   *
   * Since: 0.1
   */
  flatten_props[FLATTEN_PROP_START_DIM] = (GnnProp) {
    g_param_spec_int ("start-dim", NULL, NULL, G_MININT, G_MAXINT, 1, GNN_PARAM_RW | G_PARAM_CONSTRUCT),
    G_STRUCT_OFFSET (GnnFlatten, start_dim) };

  /**
   * GnnFlatten:end-dim:
   *
   * The last dimension to flatten (`end_dim`, default -1); negative counts from the end.
   *
   * Since: 0.1
   */
  flatten_props[FLATTEN_PROP_END_DIM] = (GnnProp) {
    g_param_spec_int ("end-dim", NULL, NULL, G_MININT, G_MAXINT, -1, GNN_PARAM_RW | G_PARAM_CONSTRUCT),
    G_STRUCT_OFFSET (GnnFlatten, end_dim) };

  gnn_props_install (G_OBJECT_CLASS (klass), flatten_props, FLATTEN_N_PROPS);
}

static void
gnn_flatten_init (GnnFlatten *self)
{
  self->start_dim = 1;
  self->end_dim = -1;
}

/**
 * gnn_flatten_new:
 * @start_dim: the first dimension to flatten; PyTorch's default is 1
 * @end_dim: the last dimension to flatten; PyTorch's default is -1
 *
 * Creates a Flatten layer (`nn.Flatten (start_dim, end_dim)`).
 *
 * Returns: (transfer full): the layer
 *
 * Since: 0.1
 */
GnnFlatten *
gnn_flatten_new (int start_dim,
                 int end_dim)
{
  return g_object_new (GNN_TYPE_FLATTEN, "start-dim", start_dim, "end-dim", end_dim, NULL);
}

/* ---- Unflatten ------------------------------------------------------------------------- */

/**
 * GnnUnflatten:
 *
 * Splits one dimension into several, as `torch.nn.Unflatten`: with dim=1 and
 * unflattened_size=(2, 5), an input of shape (N, 10, …) becomes (N, 2, 5, …). One size may
 * be -1, inferred from the others.
 *
 * The sizes are the property [property@Gnn.Unflatten:unflattened-size], a #GVariant of type
 * "ax" (an array of int64), which every binding can read and write. The layer has no
 * parameters and prints as PyTorch's: "Unflatten(dim=1, unflattened_size=(2, 5))".
 *
 * Since: 0.1
 */
struct _GnnUnflatten
{
  GnnModule parent_instance;

  int dim;
  GVariant *sizes; /* "ax"; NULL is the empty array */
};

enum {
  UNFLATTEN_PROP_0,
  UNFLATTEN_PROP_DIM,
  UNFLATTEN_PROP_UNFLATTENED_SIZE,
  UNFLATTEN_N_PROPS
};

static GnnProp unflatten_props[UNFLATTEN_N_PROPS];

G_DEFINE_FINAL_TYPE (GnnUnflatten, gnn_unflatten, GNN_TYPE_MODULE)

static char *
sizes_to_string (const gint64 *sizes,
                 gsize         n,
                 gboolean      tuple)
{
  GString *s = g_string_new (tuple ? "(" : "[");

  for (gsize i = 0; i < n; i++)
    g_string_append_printf (s, "%s%" G_GINT64_FORMAT, i ? ", " : "", sizes[i]);
  if (tuple && n == 1)
    g_string_append_c (s, ',');
  g_string_append_c (s, tuple ? ')' : ']');
  return g_string_free (s, FALSE);
}

static GnnArgs *
gnn_unflatten_forward (GnnModule *module,
                       GnnArgs   *input,
                       GError   **error)
{
  GnnUnflatten *self = GNN_UNFLATTEN (module);
  const gint64 *shape, *sizes;
  g_autofree gint64 *new_shape = NULL;
  gsize n_sizes;
  gint64 product = 1, size;
  int infer = -1, d;
  guint ndim, k = 0;
  GnnTensor *x;

  x = gnn_args_first_tensor (input, "Unflatten", error);
  if (x == NULL)
    return NULL;
  shape = gnn_tensor_get_shape (x, &ndim);
  sizes = gnn_prop_int64s (self->sizes, &n_sizes);
  d = self->dim < 0 ? self->dim + (int) ndim : self->dim;
  if (d < 0 || d >= (int) ndim)
    {
      g_autofree char *s = gnn_shape_to_string (ndim, shape);
      g_set_error (error, GNN_ERROR, GNN_ERROR_INDEX,
                   "Unflatten: dimension %d out of range for an input of shape %s",
                   self->dim, s);
      return NULL;
    }
  if (n_sizes == 0)
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                           "Unflatten: unflattened_size must be non-empty");
      return NULL;
    }
  for (gsize i = 0; i < n_sizes; i++)
    {
      if (sizes[i] == -1 && infer < 0)
        infer = (int) i;
      else if (sizes[i] < 0)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                       "Unflatten: invalid size %" G_GINT64_FORMAT " in unflattened_size", sizes[i]);
          return NULL;
        }
      else if (__builtin_mul_overflow (product, sizes[i], &product))
        {
          g_autofree char *want = sizes_to_string (sizes, n_sizes, FALSE);
          g_autofree char *s = gnn_shape_to_string (ndim, shape);
          g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                       "Unflatten: sizes %s don't multiply up to the size of dim %d (%" G_GINT64_FORMAT
                       ") in the input of shape %s: their product overflows int64",
                       want, self->dim, shape[d], s);
          return NULL;
        }
    }
  size = shape[d];
  if ((infer < 0 && product != size) ||
      (infer >= 0 && (product == 0 || size % product != 0)))
    {
      g_autofree char *want = sizes_to_string (sizes, n_sizes, FALSE);
      g_autofree char *s = gnn_shape_to_string (ndim, shape);
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "Unflatten: sizes %s don't multiply up to the size of dim %d (%" G_GINT64_FORMAT
                   ") in the input of shape %s", want, self->dim, size, s);
      return NULL;
    }
  new_shape = g_new (gint64, ndim - 1 + n_sizes);
  for (int i = 0; i < d; i++)
    new_shape[k++] = shape[i];
  for (gsize i = 0; i < n_sizes; i++)
    new_shape[k++] = (int) i == infer ? size / product : sizes[i];
  for (guint i = d + 1; i < ndim; i++)
    new_shape[k++] = shape[i];
  return gnn_args_take_tensor_or_prefix (gnn_tensor_reshape (x, new_shape, k, error), "Unflatten", error);
}

static char *
gnn_unflatten_extra_repr (GnnModule *module)
{
  GnnUnflatten *self = GNN_UNFLATTEN (module);
  gsize n;
  const gint64 *sizes = gnn_prop_int64s (self->sizes, &n);
  g_autofree char *s = sizes_to_string (sizes, n, TRUE);

  return g_strdup_printf ("dim=%d, unflattened_size=%s", self->dim, s);
}

static void
gnn_unflatten_class_init (GnnUnflattenClass *klass)
{
  GnnModuleClass *module_class = GNN_MODULE_CLASS (klass);

  module_class->forward = gnn_unflatten_forward;
  module_class->extra_repr = gnn_unflatten_extra_repr;

  /**
   * GnnUnflatten:dim:
   *
   * The dimension to split (`dim`); negative counts from the end.
   *
   * Since: 0.1
   */
  unflatten_props[UNFLATTEN_PROP_DIM] = (GnnProp) {
    g_param_spec_int ("dim", NULL, NULL, G_MININT, G_MAXINT, 0, GNN_PARAM_RW | G_PARAM_CONSTRUCT),
    G_STRUCT_OFFSET (GnnUnflatten, dim) };

  /**
   * GnnUnflatten:unflattened-size:
   *
   * The sizes the dimension is split into (`unflattened_size`), as a #GVariant of type "ax";
   * at most one may be -1. From Python: `GLib.Variant('ax', [2, 5])`. Setting %NULL sets
   * the empty array, which forward refuses.
   *
   * Since: 0.1
   */
  unflatten_props[UNFLATTEN_PROP_UNFLATTENED_SIZE] = (GnnProp) {
    g_param_spec_variant ("unflattened-size", NULL, NULL, G_VARIANT_TYPE ("ax"), NULL,
                          GNN_PARAM_RW | G_PARAM_CONSTRUCT),
    G_STRUCT_OFFSET (GnnUnflatten, sizes), NULL, gnn_prop_get_int64s_or_empty };

  gnn_props_install (G_OBJECT_CLASS (klass), unflatten_props, UNFLATTEN_N_PROPS);
}

static void
gnn_unflatten_init (GnnUnflatten *self)
{
}

/**
 * gnn_unflatten_new:
 * @dim: the dimension to split; negative counts from the end
 * @unflattened_size: (array length=n_sizes): the sizes it is split into; one may be -1
 * @n_sizes: the number of sizes
 *
 * Creates an Unflatten layer (`nn.Unflatten (dim, unflattened_size)`).
 *
 * Returns: (transfer full): the layer
 *
 * Since: 0.1
 */
GnnUnflatten *
gnn_unflatten_new (int           dim,
                   const gint64 *unflattened_size,
                   gsize         n_sizes)
{
  g_return_val_if_fail (unflattened_size != NULL || n_sizes == 0, NULL);
  return g_object_new (GNN_TYPE_UNFLATTEN,
                       "dim", dim,
                       "unflattened-size",
                       g_variant_new_fixed_array (G_VARIANT_TYPE_INT64, unflattened_size, n_sizes,
                                                  sizeof (gint64)),
                       NULL);
}

/**
 * gnn_unflatten_get_unflattened_size:
 * @self: an Unflatten layer
 * @n_sizes: (out): the number of sizes
 *
 * Gets [property@Gnn.Unflatten:unflattened-size].
 *
 * Returns: (array length=n_sizes) (transfer none): the sizes the dimension is split into,
 *   valid until the property changes
 *
 * Since: 0.1
 */
const gint64 *
gnn_unflatten_get_unflattened_size (GnnUnflatten *self,
                                    gsize        *n_sizes)
{
  g_return_val_if_fail (GNN_IS_UNFLATTEN (self), NULL);
  g_return_val_if_fail (n_sizes != NULL, NULL);
  return gnn_prop_int64s (self->sizes, n_sizes);
}

/* ---- Dropout, Dropout2d ---------------------------------------------------------------- */

/* PyTorch's check of p, in the constructor and in F.dropout */
static gboolean
p_is_valid (double   p,
            GError **error)
{
  g_autofree char *repr = NULL;

  if (p >= 0 && p <= 1)
    return TRUE;
  repr = gnn_python_float_repr (p);
  g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
               "dropout probability has to be between 0 and 1, but got %s", repr);
  return FALSE;
}

static gboolean
check_p (GParamSpec   *pspec,
         const GValue *value,
         GError      **error)
{
  return p_is_valid (g_value_get_double (value), error);
}

/* PyTorch's _dropout (and _dropout<feature>): identity when p is 0 or in eval mode, input × 0
 * when p is 1, otherwise input × noise with noise of @noise_shape drawn as Bernoulli(1 − p)
 * from the default generator and divided by 1 − p; the product broadcasts noise over the
 * dimensions it has size 1 in, and its backward multiplies by the same noise. */
static GnnTensor *
dropout_noise (GnnTensor    *x,
               double        p,
               gboolean      training,
               const gint64 *noise_shape,
               guint         ndim,
               GError      **error)
{
  g_autoptr(GnnTensor) u = NULL, keep = NULL, mask = NULL, noise = NULL;
  const char *device_name = NULL;
  GnnDtype dtype = gnn_tensor_get_dtype (x);

  if (!p_is_valid (p, error))
    return NULL;
  if (!training || p == 0 || gnn_tensor_get_numel (x) == 0)
    return g_object_ref (x);
  if (p == 1)
    return gnn_tensor_mul_scalar (x, 0.0, error);
  if (dtype != GNN_DTYPE_FLOAT32 && dtype != GNN_DTYPE_FLOAT64)
    dtype = GNN_DTYPE_FLOAT32;
  device_name = gnn_tensor_get_device (x);
  u = gnn_tensor_new_rand (noise_shape, ndim, NULL, dtype, device_name, error);
  if (u == NULL)
    return NULL;
  keep = gnn_tensor_lt_scalar (u, 1 - p, error);
  if (keep == NULL)
    return NULL;
  mask = gnn_tensor_to_dtype (keep, dtype, error);
  if (mask == NULL)
    return NULL;
  noise = gnn_tensor_div_scalar (mask, 1 - p, error);
  if (noise == NULL)
    return NULL;
  return gnn_tensor_mul (x, noise, error);
}

/* dropout of single elements (@channels FALSE) or of whole channels, dimensions 0 and 1 of
 * an input of at least two (@channels TRUE); errors start with @who */
static GnnTensor *
dropout (GnnTensor  *x,
         double      p,
         gboolean    training,
         gboolean    channels,
         const char *who,
         GError    **error)
{
  gint64 noise_shape[GNN_MAX_DIMS];
  const gint64 *shape;
  GnnTensor *y;
  guint ndim;

  shape = gnn_tensor_get_shape (x, &ndim);
  if (channels && ndim < 2)
    {
      g_autofree char *s = gnn_shape_to_string (ndim, shape);
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "%s: expected an input of shape (N, C, H, W) (at least 2 dimensions), got shape %s",
                   who, s);
      return NULL;
    }
  for (guint i = 0; i < ndim; i++)
    noise_shape[i] = !channels || i < 2 ? shape[i] : 1;
  y = dropout_noise (x, p, training, noise_shape, ndim, error);
  if (y == NULL)
    g_prefix_error (error, "%s: ", who);
  return y;
}

/* torch's dropout1d: 2-d (C, L) or 3-d (N, C, L) input, an unbatched one read as a batch
 * of one */
static GnnTensor *
dropout1d (GnnTensor  *x,
           double      p,
           gboolean    training,
           const char *who,
           GError    **error)
{
  g_autoptr(GnnTensor) batched = NULL, y = NULL;
  guint ndim;

  gnn_tensor_get_shape (x, &ndim);
  if (!p_is_valid (p, error))
    {
      g_prefix_error (error, "%s: ", who);
      return NULL;
    }
  if (ndim != 2 && ndim != 3)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "%s: Expected 2D or 3D input, but received a %uD input", who, ndim);
      return NULL;
    }
  /* nothing dropped: the input itself, as dropout () gives it */
  if (ndim == 3 || !training || p == 0)
    return dropout (x, p, training, TRUE, who, error);
  if (!(batched = gnn_tensor_unsqueeze (x, 0, error)) ||
      !(y = dropout (batched, p, training, TRUE, who, error)))
    return NULL;
  return gnn_tensor_squeeze_dim (y, 0, error);
}

/**
 * gnn_tensor_dropout:
 * @self: the input
 * @p: the probability of an element being zeroed, in [0, 1]
 * @training: whether to apply dropout; without, the input is returned as it is
 * @error: return location for a #GError
 *
 * Dropout, as `torch.nn.functional.dropout`: in training each element is zeroed with
 * probability @p, drawn from the default generator (see [func@Gnn.manual_seed]), and the
 * others are scaled by 1 / (1 - @p); the gradient goes through the same mask. This is what
 * [class@Gnn.Dropout] runs.
 *
 * Returns: (transfer full): the result (@self itself, another reference, when nothing is
 *   dropped), or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_dropout (GnnTensor *self,
                    double     p,
                    gboolean   training,
                    GError   **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  return dropout (self, p, training, FALSE, "dropout", error);
}

/**
 * gnn_tensor_dropout2d:
 * @self: the input, (N, C, ...)
 * @p: the probability of a channel being zeroed, in [0, 1]
 * @training: whether to apply dropout; without, the input is returned as it is
 * @error: return location for a #GError
 *
 * Channel dropout, as `torch.nn.functional.dropout2d`: in training each channel (each
 * element of the first two dimensions) is zeroed as a whole with probability @p and the
 * others are scaled by 1 / (1 - @p). A 3-D input is read as (N, C, L), as torch 1.13 reads
 * it. This is what [class@Gnn.Dropout2d] runs.
 *
 * Returns: (transfer full): the result (@self itself, another reference, when nothing is
 *   dropped), or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_dropout2d (GnnTensor *self,
                      double     p,
                      gboolean   training,
                      GError   **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  return dropout (self, p, training, TRUE, "dropout2d", error);
}

/**
 * gnn_tensor_dropout1d:
 * @self: the input, (N, C, L) or unbatched (C, L)
 * @p: the probability of a channel being zeroed, in [0, 1]
 * @training: whether to apply dropout; without, the input is returned as it is
 * @error: return location for a #GError
 *
 * Channel dropout of 1-d inputs, as `torch.nn.functional.dropout1d`: in training each
 * channel (each of the N × C rows of length L, or each of the C rows of an unbatched input)
 * is zeroed as a whole with probability @p and the others are scaled by 1 / (1 - @p). This
 * is what [class@Gnn.Dropout1d] runs.
 *
 * Returns: (transfer full): the result (@self itself, another reference, when nothing is
 *   dropped), or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_dropout1d (GnnTensor *self,
                      double     p,
                      gboolean   training,
                      GError   **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  return dropout1d (self, p, training, "dropout1d", error);
}

#define DEFINE_DROPOUT(TypeName, type_name, TYPE, CAST, IS)                                    \
  struct _##TypeName                                                                          \
  {                                                                                           \
    GnnModule parent_instance;                                                                \
                                                                                              \
    double p;                                                                                 \
  };                                                                                          \
                                                                                              \
  static GnnProp type_name##_props[2];                                                        \
                                                                                              \
  G_DEFINE_FINAL_TYPE (TypeName, type_name, GNN_TYPE_MODULE)                                  \
                                                                                              \
  static GnnArgs *type_name##_forward (GnnModule *module, GnnArgs *input, GError **error);    \
                                                                                              \
  static char *                                                                               \
  type_name##_extra_repr (GnnModule *module)                                                  \
  {                                                                                           \
    g_autofree char *p = gnn_python_float_repr (CAST (module)->p);                            \
                                                                                              \
    return g_strdup_printf ("p=%s, inplace=False", p);                                        \
  }                                                                                           \
                                                                                              \
  static void                                                                                 \
  type_name##_class_init (TypeName##Class *klass)                                             \
  {                                                                                           \
    GNN_MODULE_CLASS (klass)->forward = type_name##_forward;                                  \
    GNN_MODULE_CLASS (klass)->extra_repr = type_name##_extra_repr;                            \
    type_name##_props[1] = (GnnProp) {                                                        \
      g_param_spec_double ("p", NULL, NULL, -G_MAXDOUBLE, G_MAXDOUBLE, 0.5,                   \
                           GNN_PARAM_RW | G_PARAM_CONSTRUCT),                                 \
      G_STRUCT_OFFSET (TypeName, p), check_p };                                               \
    gnn_props_install (G_OBJECT_CLASS (klass), type_name##_props, 2);                         \
  }                                                                                           \
                                                                                              \
  static void                                                                                 \
  type_name##_init (TypeName *self)                                                           \
  {                                                                                           \
  }                                                                                           \
                                                                                              \
  TypeName *                                                                                  \
  type_name##_new (double   p,                                                                \
                   GError **error)                                                            \
  {                                                                                           \
    return gnn_module_new_or_error (error, TYPE, "p", p, NULL);                               \
  }                                                                                           \
                                                                                              \
  double                                                                                      \
  type_name##_get_p (TypeName *self)                                                          \
  {                                                                                           \
    g_return_val_if_fail (IS (self), 0.0);                                                    \
    return self->p;                                                                           \
  }                                                                                           \
                                                                                              \
  void                                                                                        \
  type_name##_set_p (TypeName *self,                                                          \
                     double    p)                                                             \
  {                                                                                           \
    g_return_if_fail (IS (self));                                                             \
    g_return_if_fail (p >= 0 && p <= 1);                                                      \
    gnn_prop_set (self, &type_name##_props[1], p);                                            \
  }

/**
 * GnnDropout:
 *
 * Randomly zeroes elements during training, as `torch.nn.Dropout`: in training mode (see
 * [method@Gnn.Module.train]) each element is kept with probability 1 − p, drawn from the
 * default [class@Gnn.Generator], and the kept ones are scaled by 1 / (1 − p); the backward
 * multiplies the gradient by the same mask and scale. In evaluation mode, or with p = 0, the
 * input tensor itself is returned; with p = 1 the output is input × 0 (zeros, and NaN where
 * the input is NaN or infinite, as PyTorch's).
 *
 * It has no parameters and prints as PyTorch's: "Dropout(p=0.5, inplace=False)"; PyTorch's
 * `inplace` argument has no counterpart.
 *
 * Since: 0.1
 */

/**
 * GnnDropout:p:
 *
 * The probability of zeroing an element (`p`), between 0 and 1; PyTorch's default is 0.5.
 *
 * Since: 0.1
 */

/**
 * gnn_dropout_new:
 * @p: the probability of zeroing an element, between 0 and 1; PyTorch's default is 0.5
 * @error: return location for a #GError
 *
 * Creates a Dropout layer (`nn.Dropout (p)`).
 *
 * Returns: (transfer full): the layer, or %NULL with @error set when @p is outside [0, 1]
 *
 * Since: 0.1
 */

/**
 * gnn_dropout_get_p:
 * @self: a Dropout layer
 *
 * Gets [property@Gnn.Dropout:p].
 *
 * Returns: the probability of zeroing an element
 *
 * Since: 0.1
 */

/**
 * gnn_dropout_set_p:
 * @self: a Dropout layer
 * @p: the probability of zeroing an element, between 0 and 1
 *
 * Sets [property@Gnn.Dropout:p]; the next forward uses it.
 *
 * Since: 0.1
 */
DEFINE_DROPOUT (GnnDropout, gnn_dropout, GNN_TYPE_DROPOUT, GNN_DROPOUT, GNN_IS_DROPOUT)

static GnnArgs *
gnn_dropout_forward (GnnModule *module,
                     GnnArgs   *input,
                     GError   **error)
{
  GnnTensor *x = gnn_args_first_tensor (input, "Dropout", error);

  if (x == NULL)
    return NULL;
  return gnn_args_take_tensor (dropout (x, GNN_DROPOUT (module)->p, gnn_module_get_training (module), FALSE,
                                        "Dropout", error));
}

/**
 * GnnDropout2d:
 *
 * Randomly zeroes whole channels during training, as `torch.nn.Dropout2d`: for an input of
 * shape (N, C, H, W), each of the N × C channels is kept with probability 1 − p (drawn from
 * the default [class@Gnn.Generator]) and scaled by 1 / (1 − p), or zeroed entirely; the
 * backward uses the same mask. Evaluation mode, p = 0 and p = 1 behave as in
 * [class@Gnn.Dropout].
 *
 * The channels are those of dimension 1 whatever the number of dimensions (at least 2), as
 * PyTorch's `feature_dropout` computes it: a 3-D input is read as (N, C, L), which is what
 * PyTorch (up to 2.x) does at run time despite its documentation's (C, H, W), with a warning.
 *
 * It has no parameters and prints as PyTorch's: "Dropout2d(p=0.5, inplace=False)".
 *
 * Since: 0.1
 */

/**
 * GnnDropout2d:p:
 *
 * The probability of zeroing a channel (`p`), between 0 and 1; PyTorch's default is 0.5.
 *
 * Since: 0.1
 */

/**
 * gnn_dropout2d_new:
 * @p: the probability of zeroing a channel, between 0 and 1; PyTorch's default is 0.5
 * @error: return location for a #GError
 *
 * Creates a Dropout2d layer (`nn.Dropout2d (p)`).
 *
 * Returns: (transfer full): the layer, or %NULL with @error set when @p is outside [0, 1]
 *
 * Since: 0.1
 */

/**
 * gnn_dropout2d_get_p:
 * @self: a Dropout2d layer
 *
 * Gets [property@Gnn.Dropout2d:p].
 *
 * Returns: the probability of zeroing a channel
 *
 * Since: 0.1
 */

/**
 * gnn_dropout2d_set_p:
 * @self: a Dropout2d layer
 * @p: the probability of zeroing a channel, between 0 and 1
 *
 * Sets [property@Gnn.Dropout2d:p]; the next forward uses it.
 *
 * Since: 0.1
 */
DEFINE_DROPOUT (GnnDropout2d, gnn_dropout2d, GNN_TYPE_DROPOUT2D, GNN_DROPOUT2D, GNN_IS_DROPOUT2D)

static GnnArgs *
gnn_dropout2d_forward (GnnModule *module,
                       GnnArgs   *input,
                       GError   **error)
{
  GnnTensor *x = gnn_args_first_tensor (input, "Dropout2d", error);

  if (x == NULL)
    return NULL;
  return gnn_args_take_tensor (dropout (x, GNN_DROPOUT2D (module)->p, gnn_module_get_training (module), TRUE,
                                        "Dropout2d", error));
}

/**
 * GnnDropout1d:
 *
 * Randomly zeroes whole channels of 1-d inputs during training, as `torch.nn.Dropout1d`: for
 * an input of shape (N, C, L) or (C, L), each channel is kept with probability 1 − p (drawn
 * from the default [class@Gnn.Generator]) and scaled by 1 / (1 − p), or zeroed entirely; the
 * backward uses the same mask. Evaluation mode, p = 0 and p = 1 behave as in
 * [class@Gnn.Dropout]. Other ranks are refused, as PyTorch refuses them.
 *
 * It has no parameters and prints as PyTorch's: "Dropout1d(p=0.5, inplace=False)".
 *
 * Since: 0.1
 */

/**
 * GnnDropout1d:p:
 *
 * The probability of zeroing a channel (`p`), between 0 and 1; PyTorch's default is 0.5.
 *
 * Since: 0.1
 */

/**
 * gnn_dropout1d_new:
 * @p: the probability of zeroing a channel, between 0 and 1; PyTorch's default is 0.5
 * @error: return location for a #GError
 *
 * Creates a Dropout1d layer (`nn.Dropout1d (p)`).
 *
 * Returns: (transfer full): the layer, or %NULL with @error set when @p is outside [0, 1]
 *
 * Since: 0.1
 */

/**
 * gnn_dropout1d_get_p:
 * @self: a Dropout1d layer
 *
 * Gets [property@Gnn.Dropout1d:p].
 *
 * Returns: the probability of zeroing a channel
 *
 * Since: 0.1
 */

/**
 * gnn_dropout1d_set_p:
 * @self: a Dropout1d layer
 * @p: the probability of zeroing a channel, between 0 and 1
 *
 * Sets [property@Gnn.Dropout1d:p]; the next forward uses it.
 *
 * Since: 0.1
 */
DEFINE_DROPOUT (GnnDropout1d, gnn_dropout1d, GNN_TYPE_DROPOUT1D, GNN_DROPOUT1D, GNN_IS_DROPOUT1D)

static GnnArgs *
gnn_dropout1d_forward (GnnModule *module,
                       GnnArgs   *input,
                       GError   **error)
{
  GnnTensor *x = gnn_args_first_tensor (input, "Dropout1d", error);

  if (x == NULL)
    return NULL;
  return gnn_args_take_tensor (dropout1d (x, GNN_DROPOUT1D (module)->p, gnn_module_get_training (module),
                                          "Dropout1d", error));
}

/* torch's dropout3d: 5-d (N, C, D, H, W) input; any other rank is read as unbatched, a batch of
 * one (torch warns when it is not 4-d (C, D, H, W)) */
static GnnTensor *
dropout3d (GnnTensor  *x,
           double      p,
           gboolean    training,
           const char *who,
           GError    **error)
{
  g_autoptr(GnnTensor) batched = NULL, y = NULL;
  guint ndim;

  gnn_tensor_get_shape (x, &ndim);
  if (!p_is_valid (p, error))
    {
      g_prefix_error (error, "%s: ", who);
      return NULL;
    }
  if (ndim == 5 || !training || p == 0)
    return dropout (x, p, training, TRUE, who, error);
  if (!(batched = gnn_tensor_unsqueeze (x, 0, error)) ||
      !(y = dropout (batched, p, training, TRUE, who, error)))
    return NULL;
  return gnn_tensor_squeeze_dim (y, 0, error);
}

/**
 * gnn_tensor_dropout3d:
 * @self: the input, (N, C, D, H, W) or unbatched (C, D, H, W)
 * @p: the probability of a channel being zeroed, in [0, 1]
 * @training: whether to apply dropout; without, the input is returned as it is
 * @error: return location for a #GError
 *
 * Channel dropout of 3-d inputs, as `torch.nn.functional.dropout3d`: in training each
 * channel (each of the N × C volumes, or each of the C volumes of an unbatched input) is
 * zeroed as a whole with probability @p and the others are scaled by 1 / (1 - @p); an input
 * that is not 5-d is read as unbatched, as torch reads it. This is what [class@Gnn.Dropout3d]
 * runs.
 *
 * Returns: (transfer full): the result (@self itself, another reference, when nothing is
 *   dropped), or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_dropout3d (GnnTensor *self,
                      double     p,
                      gboolean   training,
                      GError   **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  return dropout3d (self, p, training, "dropout3d", error);
}

/**
 * GnnDropout3d:
 *
 * Randomly zeroes whole channels of 3-d inputs during training, as `torch.nn.Dropout3d`: for
 * an input of shape (N, C, D, H, W) or (C, D, H, W), each channel is kept with probability
 * 1 − p (drawn from the default [class@Gnn.Generator]) and scaled by 1 / (1 − p), or zeroed
 * entirely; the backward uses the same mask. Evaluation mode, p = 0 and p = 1 behave as in
 * [class@Gnn.Dropout].
 *
 * It has no parameters and prints as PyTorch's: "Dropout3d(p=0.5, inplace=False)".
 *
 * Since: 0.1
 */

/**
 * GnnDropout3d:p:
 *
 * The probability of zeroing a channel (`p`), between 0 and 1; PyTorch's default is 0.5.
 *
 * Since: 0.1
 */

/**
 * gnn_dropout3d_new:
 * @p: the probability of zeroing a channel, between 0 and 1; PyTorch's default is 0.5
 * @error: return location for a #GError
 *
 * Creates a Dropout3d layer (`nn.Dropout3d (p)`).
 *
 * Returns: (transfer full): the layer, or %NULL with @error set when @p is outside [0, 1]
 *
 * Since: 0.1
 */

/**
 * gnn_dropout3d_get_p:
 * @self: a Dropout3d layer
 *
 * Gets [property@Gnn.Dropout3d:p].
 *
 * Returns: the probability of zeroing a channel
 *
 * Since: 0.1
 */

/**
 * gnn_dropout3d_set_p:
 * @self: a Dropout3d layer
 * @p: the probability of zeroing a channel, between 0 and 1
 *
 * Sets [property@Gnn.Dropout3d:p]; the next forward uses it.
 *
 * Since: 0.1
 */
DEFINE_DROPOUT (GnnDropout3d, gnn_dropout3d, GNN_TYPE_DROPOUT3D, GNN_DROPOUT3D, GNN_IS_DROPOUT3D)

static GnnArgs *
gnn_dropout3d_forward (GnnModule *module,
                       GnnArgs   *input,
                       GError   **error)
{
  GnnTensor *x = gnn_args_first_tensor (input, "Dropout3d", error);

  if (x == NULL)
    return NULL;
  return gnn_args_take_tensor (dropout3d (x, GNN_DROPOUT3D (module)->p, gnn_module_get_training (module),
                                          "Dropout3d", error));
}

/* ---- Embedding ------------------------------------------------------------------------- */

/**
 * GnnEmbedding:
 *
 * A lookup table of vectors, as `torch.nn.Embedding`: the output for an int64 tensor of
 * indices of any shape `(*)` has shape `(*, embedding_dim)`, row i of the parameter `weight`
 * (of shape (num_embeddings, embedding_dim)) for each index i. An index outside
 * [0, num_embeddings) is an error.
 *
 * The weight is initialised from N(0, 1) with the default [class@Gnn.Generator] (so the
 * numbers differ from PyTorch's), the padding row, when there is one, set to zeros.
 *
 * [property@Gnn.Embedding:padding-idx] names a row whose gradient is always zero, as
 * PyTorch's `padding_idx`; [const@Gnn.EMBEDDING_NO_PADDING] stands for `None`. A negative
 * value counts from the end, and reading the property after construction gives the
 * row itself, as PyTorch stores it.
 *
 * PyTorch's `max_norm`, `norm_type`, `scale_grad_by_freq` and `sparse` have no counterpart.
 * The layer prints as PyTorch's: "Embedding(10, 3)" or "Embedding(10, 3, padding_idx=0)".
 *
 * Since: 0.1
 */
struct _GnnEmbedding
{
  GnnModule parent_instance;

  gint64 num_embeddings;
  gint64 embedding_dim;
  gint64 padding_idx;
};

enum {
  EMB_PROP_0,
  EMB_PROP_NUM_EMBEDDINGS,
  EMB_PROP_EMBEDDING_DIM,
  EMB_PROP_PADDING_IDX,
  EMB_N_PROPS
};

static GnnProp emb_props[EMB_N_PROPS];

G_DEFINE_FINAL_TYPE (GnnEmbedding, gnn_embedding, GNN_TYPE_MODULE)

static gboolean
gnn_embedding_setup (GnnModule *module,
                     GError   **error)
{
  GnnEmbedding *self = GNN_EMBEDDING (module);
  gint64 shape[2] = { self->num_embeddings, self->embedding_dim };
  g_autoptr(GnnTensor) data = NULL;
  g_autoptr(GnnParameter) weight = NULL;

  if (!GNN_MODULE_CLASS (gnn_embedding_parent_class)->setup (module, error))
    return FALSE;
  if (self->padding_idx != GNN_EMBEDDING_NO_PADDING)
    {
      if (self->padding_idx >= self->num_embeddings || self->padding_idx < -self->num_embeddings)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_INDEX,
                       "Embedding: padding_idx %" G_GINT64_FORMAT " must be within num_embeddings (%"
                       G_GINT64_FORMAT ")", self->padding_idx, self->num_embeddings);
          return FALSE;
        }
      if (self->padding_idx < 0)
        self->padding_idx += self->num_embeddings;
    }
  data = gnn_tensor_new_randn (shape, 2, NULL, gnn_module_dtype (module), NULL, error);
  if (data == NULL)
    return FALSE;
  if (self->padding_idx != GNN_EMBEDDING_NO_PADDING)
    {
      g_autoptr(GnnTensor) row = gnn_tensor_select (data, 0, self->padding_idx, error);

      if (row == NULL || !gnn_tensor_zero_ (row, error))
        return FALSE;
    }
  weight = gnn_parameter_new (data, TRUE, error);
  if (weight == NULL)
    return FALSE;
  return gnn_module_register_parameter (module, "weight", weight, error);
}

/* the rows of @weight at @idx (int64, any shape), (*, embedding_dim); the row @padding_idx
 * (a row of @weight, or GNN_EMBEDDING_NO_PADDING) passes no gradient; errors start with @who */
static GnnTensor *
embedding (GnnTensor  *idx,
           GnnTensor  *weight,
           gint64      padding_idx,
           const char *who,
           GError    **error)
{
  g_autoptr(GnnTensor) flat = NULL, rows = NULL, table = NULL;
  g_autofree gint64 *out_shape = NULL;
  const gint64 *shape;
  gint64 numel;
  GnnTensor *out;
  guint ndim;

  if (gnn_tensor_get_dtype (idx) != GNN_DTYPE_INT64)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE, "%s: expected indices of dtype int64, got %s",
                   who, gnn_dtype_get_name (gnn_tensor_get_dtype (idx)));
      return NULL;
    }
  if (gnn_tensor_get_ndim (weight) != 2)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE, "%s: 'weight' must be 2-D, got %uD",
                   who, gnn_tensor_get_ndim (weight));
      return NULL;
    }
  shape = gnn_tensor_get_shape (idx, &ndim);
  numel = gnn_tensor_get_numel (idx);
  flat = gnn_tensor_reshape (idx, &numel, 1, error);
  if (flat == NULL)
    goto fail;

  if (padding_idx != GNN_EMBEDDING_NO_PADDING && padding_idx < gnn_tensor_get_size (weight, 0, NULL))
    {
      /* the padding row takes part with its value but passes no gradient to the weight */
      g_autoptr(GnnTensor) keep = NULL, keep_row = NULL, frozen = NULL;
      const char *device_name = gnn_tensor_get_device (weight);
      gint64 mshape[2] = { gnn_tensor_get_size (weight, 0, NULL), 1 };

      keep = gnn_tensor_new_ones (mshape, 2, GNN_DTYPE_BOOL, device_name, error);
      if (keep == NULL)
        goto fail;
      keep_row = gnn_tensor_select (keep, 0, padding_idx, error);
      if (keep_row == NULL || !gnn_tensor_zero_ (keep_row, error))
        goto fail;
      frozen = gnn_tensor_detach (weight);
      table = gnn_where (keep, weight, frozen, error);
    }
  else
    table = g_object_ref (weight);
  if (table == NULL)
    goto fail;

  rows = gnn_tensor_index_select (table, 0, flat, error);
  if (rows == NULL)
    goto fail;
  out_shape = g_new (gint64, ndim + 1);
  memcpy (out_shape, shape, ndim * sizeof (gint64));
  out_shape[ndim] = gnn_tensor_get_size (weight, 1, NULL);
  out = gnn_tensor_reshape (rows, out_shape, ndim + 1, error);
  if (out)
    return out;

fail:
  g_prefix_error (error, "%s: ", who);
  return NULL;
}

/**
 * gnn_tensor_embedding:
 * @input: the indices, int64 of any shape (*)
 * @weight: the table, (num_embeddings, embedding_dim)
 * @padding_idx: a row that gets no gradient (negative counts from the end), or
 *   [const@Gnn.EMBEDDING_NO_PADDING] for none
 * @error: return location for a #GError
 *
 * A table lookup, as `torch.nn.functional.embedding`: row i of @weight for each index i, of
 * shape (*, embedding_dim). An index outside [0, num_embeddings) is an error. This is what
 * [class@Gnn.Embedding] runs.
 *
 * Returns: (transfer full): the rows, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_embedding (GnnTensor *input,
                      GnnTensor *weight,
                      gint64     padding_idx,
                      GError   **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (input), NULL);
  g_return_val_if_fail (GNN_IS_TENSOR (weight), NULL);
  if (padding_idx != GNN_EMBEDDING_NO_PADDING && gnn_tensor_get_ndim (weight) == 2)
    {
      gint64 rows = gnn_tensor_get_size (weight, 0, NULL);

      if (padding_idx >= rows || padding_idx < -rows)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_INDEX,
                       "embedding: Padding_idx must be within num_embeddings (got padding_idx=%" G_GINT64_FORMAT
                       " for %" G_GINT64_FORMAT " rows)", padding_idx, rows);
          return NULL;
        }
      if (padding_idx < 0)
        padding_idx += rows;
    }
  return embedding (input, weight, padding_idx, "embedding", error);
}

static GnnArgs *
gnn_embedding_forward (GnnModule *module,
                       GnnArgs   *input,
                       GError   **error)
{
  GnnTensor *weight;
  GnnTensor *idx;

  idx = gnn_args_first_tensor (input, "Embedding", error);
  if (idx == NULL)
    return NULL;
  weight = gnn_module_tensor (module, "weight", TRUE, error);
  if (weight == NULL)
    return NULL;
  return gnn_args_take_tensor (embedding (idx, weight, GNN_EMBEDDING (module)->padding_idx,
                                          "Embedding", error));
}

static char *
gnn_embedding_extra_repr (GnnModule *module)
{
  GnnEmbedding *self = GNN_EMBEDDING (module);

  if (self->padding_idx == GNN_EMBEDDING_NO_PADDING)
    return g_strdup_printf ("%" G_GINT64_FORMAT ", %" G_GINT64_FORMAT,
                            self->num_embeddings, self->embedding_dim);
  return g_strdup_printf ("%" G_GINT64_FORMAT ", %" G_GINT64_FORMAT ", padding_idx=%" G_GINT64_FORMAT,
                          self->num_embeddings, self->embedding_dim, self->padding_idx);
}

static void
gnn_embedding_class_init (GnnEmbeddingClass *klass)
{
  GnnModuleClass *module_class = GNN_MODULE_CLASS (klass);

  module_class->setup = gnn_embedding_setup;
  module_class->forward = gnn_embedding_forward;
  module_class->extra_repr = gnn_embedding_extra_repr;

  /**
   * GnnEmbedding:num-embeddings:
   *
   * The number of rows of the table (`num_embeddings`), at least 0.
   *
   * Since: 0.1
   */
  emb_props[EMB_PROP_NUM_EMBEDDINGS] = (GnnProp) {
    g_param_spec_int64 ("num-embeddings", NULL, NULL, G_MININT64, G_MAXINT64, 0,
                        GNN_PARAM_RW | G_PARAM_CONSTRUCT_ONLY),
    G_STRUCT_OFFSET (GnnEmbedding, num_embeddings), gnn_prop_check_size };

  /**
   * GnnEmbedding:embedding-dim:
   *
   * The size of each row (`embedding_dim`), at least 0.
   *
   * Since: 0.1
   */
  emb_props[EMB_PROP_EMBEDDING_DIM] = (GnnProp) {
    g_param_spec_int64 ("embedding-dim", NULL, NULL, G_MININT64, G_MAXINT64, 0,
                        GNN_PARAM_RW | G_PARAM_CONSTRUCT_ONLY),
    G_STRUCT_OFFSET (GnnEmbedding, embedding_dim), gnn_prop_check_size };

  /**
   * GnnEmbedding:padding-idx:
   *
   * The row that gets no gradient (`padding_idx`), or [const@Gnn.EMBEDDING_NO_PADDING]
   * (the default) for none. A negative value counts from the end; once the layer is
   * constructed the property holds the row itself.
   *
   * Since: 0.1
   */
  emb_props[EMB_PROP_PADDING_IDX] = (GnnProp) {
    g_param_spec_int64 ("padding-idx", NULL, NULL, G_MININT64, G_MAXINT64, GNN_EMBEDDING_NO_PADDING,
                        GNN_PARAM_RW | G_PARAM_CONSTRUCT_ONLY),
    G_STRUCT_OFFSET (GnnEmbedding, padding_idx) };

  gnn_props_install (G_OBJECT_CLASS (klass), emb_props, EMB_N_PROPS);
  gnn_module_class_uses_dtype (module_class);
}

static void
gnn_embedding_init (GnnEmbedding *self)
{
  self->padding_idx = GNN_EMBEDDING_NO_PADDING;
}

/**
 * gnn_embedding_new:
 * @num_embeddings: the number of rows
 * @embedding_dim: the size of each row
 * @padding_idx: the row that gets no gradient, or [const@Gnn.EMBEDDING_NO_PADDING]
 * @dtype: the floating-point element type of the weight
 * @error: return location for a #GError
 *
 * Creates an embedding table (`nn.Embedding (num_embeddings, embedding_dim, padding_idx,
 * dtype=dtype)`), initialised from N(0, 1) with the padding row zeroed.
 *
 * Returns: (transfer full): the layer, or %NULL with @error set when a size is negative or
 *   @padding_idx is out of range
 *
 * Since: 0.1
 */
GnnEmbedding *
gnn_embedding_new (gint64     num_embeddings,
                   gint64     embedding_dim,
                   gint64     padding_idx,
                   GnnDtype   dtype,
                   GError   **error)
{
  return gnn_module_new_or_error (error, GNN_TYPE_EMBEDDING,
                                  "num-embeddings", num_embeddings,
                                  "embedding-dim", embedding_dim,
                                  "padding-idx", padding_idx,
                                  "dtype", dtype,
                                  NULL);
}

/**
 * gnn_embedding_get_num_embeddings:
 * @self: an Embedding layer
 *
 * Gets [property@Gnn.Embedding:num-embeddings].
 *
 * Returns: the number of rows
 *
 * Since: 0.1
 */
gint64
gnn_embedding_get_num_embeddings (GnnEmbedding *self)
{
  g_return_val_if_fail (GNN_IS_EMBEDDING (self), 0);
  return self->num_embeddings;
}

/**
 * gnn_embedding_get_embedding_dim:
 * @self: an Embedding layer
 *
 * Gets [property@Gnn.Embedding:embedding-dim].
 *
 * Returns: the size of each row
 *
 * Since: 0.1
 */
gint64
gnn_embedding_get_embedding_dim (GnnEmbedding *self)
{
  g_return_val_if_fail (GNN_IS_EMBEDDING (self), 0);
  return self->embedding_dim;
}

/**
 * gnn_embedding_get_padding_idx:
 * @self: an Embedding layer
 *
 * Gets [property@Gnn.Embedding:padding-idx].
 *
 * Returns: the padding row, or [const@Gnn.EMBEDDING_NO_PADDING]
 *
 * Since: 0.1
 */
gint64
gnn_embedding_get_padding_idx (GnnEmbedding *self)
{
  g_return_val_if_fail (GNN_IS_EMBEDDING (self), GNN_EMBEDDING_NO_PADDING);
  return self->padding_idx;
}

/* ---- Bilinear -------------------------------------------------------------------------- */

/**
 * GnnBilinear:
 *
 * A bilinear transformation of two inputs, as `torch.nn.Bilinear`:
 * yₖ = x₁ᵀ Aₖ x₂ + bₖ.
 *
 * The layer holds the parameters `weight`, of shape (out_features, in1_features,
 * in2_features), and `bias`, of shape (out_features) (registered empty without a bias, as in
 * [class@Gnn.Linear]). Both are initialised as PyTorch's `reset_parameters` does, from
 * U(-1/√in1_features, 1/√in1_features), with the default [class@Gnn.Generator].
 *
 * Forward takes two positional tensors, of shapes `(*, in1_features)` and `(*, in2_features)`
 * with the same leading dimensions; the output has shape `(*, out_features)`. It is composed
 * of a matrix product, a product and a sum, so its gradients come from theirs.
 * The layer prints as PyTorch's:
 * "Bilinear(in1_features=2, in2_features=3, out_features=4, bias=True)".
 *
 * Since: 0.1
 */
struct _GnnBilinear
{
  GnnModule parent_instance;

  int in1_features;
  int in2_features;
  int out_features;
  gboolean bias;
};

enum {
  BIL_PROP_0,
  BIL_PROP_IN1_FEATURES,
  BIL_PROP_IN2_FEATURES,
  BIL_PROP_OUT_FEATURES,
  BIL_PROP_BIAS,
  BIL_N_PROPS
};

static GnnProp bil_props[BIL_N_PROPS];

G_DEFINE_FINAL_TYPE (GnnBilinear, gnn_bilinear, GNN_TYPE_MODULE)

static gboolean
gnn_bilinear_setup (GnnModule *module,
                    GError   **error)
{
  GnnBilinear *self = GNN_BILINEAR (module);
  g_autoptr(GnnParameter) weight = NULL;
  g_autoptr(GnnParameter) bias = NULL;
  gint64 wshape[3] = { self->out_features, self->in1_features, self->in2_features };
  gint64 bshape[1] = { self->out_features };
  double bound = self->in1_features > 0 ? 1 / sqrt ((double) self->in1_features) : 0;

  if (!GNN_MODULE_CLASS (gnn_bilinear_parent_class)->setup (module, error))
    return FALSE;
  weight = gnn_module_new_parameter (wshape, 3, gnn_module_dtype (module), error);
  if (weight == NULL || !gnn_module_register_parameter (module, "weight", weight, error))
    return FALSE;
  if (!gnn_init_uniform_ (GNN_TENSOR (weight), -bound, bound, NULL, error))
    return FALSE;
  if (self->bias)
    {
      bias = gnn_module_new_parameter (bshape, 1, gnn_module_dtype (module), error);
      if (bias == NULL || !gnn_init_uniform_ (GNN_TENSOR (bias), -bound, bound, NULL, error))
        return FALSE;
    }
  return gnn_module_register_parameter (module, "bias", bias, error);
}

static GnnArgs *
gnn_bilinear_forward (GnnModule *module,
                      GnnArgs   *input,
                      GError   **error)
{
  GnnBilinear *self = GNN_BILINEAR (module);
  g_autoptr(GnnTensor) x1f = NULL, x2f = NULL, wp = NULL, wr = NULL, t = NULL, t3 = NULL;
  g_autoptr(GnnTensor) x2u = NULL, prod = NULL, s = NULL, y = NULL;
  g_autofree gint64 *out_shape = NULL;
  const gint64 *shape1, *shape2;
  GnnTensor *weight, *bias;
  GnnTensor *x1, *x2;
  guint nd1, nd2;
  gint64 batch = 1;
  int perm[3] = { 1, 0, 2 };
  int sum_dim = 2;

  x1 = gnn_args_first_tensor (input, "Bilinear", error);
  if (x1 == NULL)
    return NULL;
  x2 = gnn_args_get_tensor (input, 1, error);
  if (x2 == NULL)
    {
      g_prefix_error (error, "Bilinear: second input: ");
      return NULL;
    }
  shape1 = gnn_tensor_get_shape (x1, &nd1);
  shape2 = gnn_tensor_get_shape (x2, &nd2);
  if (nd1 == 0 || shape1[nd1 - 1] != self->in1_features ||
      nd2 == 0 || shape2[nd2 - 1] != self->in2_features ||
      nd1 != nd2 || memcmp (shape1, shape2, (nd1 - 1) * sizeof (gint64)) != 0)
    {
      g_autofree char *s1 = gnn_shape_to_string (nd1, shape1);
      g_autofree char *s2 = gnn_shape_to_string (nd2, shape2);
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "Bilinear: expected inputs of shapes (*, %d) and (*, %d) with the same leading "
                   "dimensions, got shapes %s and %s",
                   self->in1_features, self->in2_features, s1, s2);
      return NULL;
    }
  weight = gnn_module_tensor (module, "weight", TRUE, error);
  if (weight == NULL)
    return NULL;
  bias = gnn_module_tensor (module, "bias", FALSE, error);
  if (bias == NULL && error && *error)
    return NULL;
  for (guint i = 0; i + 1 < nd1; i++)
    batch *= shape1[i];

  {
    gint64 s1[2] = { batch, self->in1_features };
    gint64 s2[2] = { batch, self->in2_features };
    gint64 sw[2] = { self->in1_features, (gint64) self->out_features * self->in2_features };
    gint64 st[3] = { batch, self->out_features, self->in2_features };

    if (!(x1f = gnn_tensor_reshape (x1, s1, 2, error)) ||
        !(x2f = gnn_tensor_reshape (x2, s2, 2, error)) ||
        !(wp = gnn_tensor_permute (weight, perm, 3, error)) ||
        !(wr = gnn_tensor_reshape (wp, sw, 2, error)) ||
        !(t = gnn_tensor_matmul (x1f, wr, error)) ||
        !(t3 = gnn_tensor_reshape (t, st, 3, error)) ||
        !(x2u = gnn_tensor_unsqueeze (x2f, 1, error)) ||
        !(prod = gnn_tensor_mul (t3, x2u, error)) ||
        !(s = gnn_tensor_sum (prod, &sum_dim, 1, FALSE, error)))
      goto fail;
  }
  if (bias)
    y = gnn_tensor_add (s, bias, 1.0, error);
  else
    y = g_object_ref (s);
  if (y == NULL)
    goto fail;
  out_shape = g_new (gint64, nd1);
  memcpy (out_shape, shape1, (nd1 - 1) * sizeof (gint64));
  out_shape[nd1 - 1] = self->out_features;
  return gnn_args_take_tensor_or_prefix (gnn_tensor_reshape (y, out_shape, nd1, error), "Bilinear", error);

fail:
  g_prefix_error (error, "Bilinear: ");
  return NULL;
}

static char *
gnn_bilinear_extra_repr (GnnModule *module)
{
  GnnBilinear *self = GNN_BILINEAR (module);

  return g_strdup_printf ("in1_features=%d, in2_features=%d, out_features=%d, bias=%s",
                          self->in1_features, self->in2_features, self->out_features,
                          gnn_module_find_parameter (module, "bias") ? "True" : "False");
}

static void
gnn_bilinear_class_init (GnnBilinearClass *klass)
{
  GnnModuleClass *module_class = GNN_MODULE_CLASS (klass);

  module_class->setup = gnn_bilinear_setup;
  module_class->forward = gnn_bilinear_forward;
  module_class->extra_repr = gnn_bilinear_extra_repr;

  /**
   * GnnBilinear:in1-features:
   *
   * The size of each sample of the first input (`in1_features`), at least 0.
   *
   * Since: 0.1
   */
  bil_props[BIL_PROP_IN1_FEATURES] = (GnnProp) {
    g_param_spec_int ("in1-features", NULL, NULL, G_MININT, G_MAXINT, 0, GNN_PARAM_RW | G_PARAM_CONSTRUCT_ONLY),
    G_STRUCT_OFFSET (GnnBilinear, in1_features), gnn_prop_check_size };

  /**
   * GnnBilinear:in2-features:
   *
   * The size of each sample of the second input (`in2_features`), at least 0.
   *
   * Since: 0.1
   */
  bil_props[BIL_PROP_IN2_FEATURES] = (GnnProp) {
    g_param_spec_int ("in2-features", NULL, NULL, G_MININT, G_MAXINT, 0, GNN_PARAM_RW | G_PARAM_CONSTRUCT_ONLY),
    G_STRUCT_OFFSET (GnnBilinear, in2_features), gnn_prop_check_size };

  /**
   * GnnBilinear:out-features:
   *
   * The size of each output sample (`out_features`), at least 0.
   *
   * Since: 0.1
   */
  bil_props[BIL_PROP_OUT_FEATURES] = (GnnProp) {
    g_param_spec_int ("out-features", NULL, NULL, G_MININT, G_MAXINT, 0, GNN_PARAM_RW | G_PARAM_CONSTRUCT_ONLY),
    G_STRUCT_OFFSET (GnnBilinear, out_features), gnn_prop_check_size };

  /**
   * GnnBilinear:bias:
   *
   * Whether the layer learns an additive bias (`bias`).
   *
   * Since: 0.1
   */
  bil_props[BIL_PROP_BIAS] = (GnnProp) {
    g_param_spec_boolean ("bias", NULL, NULL, TRUE, GNN_PARAM_RW | G_PARAM_CONSTRUCT_ONLY),
    G_STRUCT_OFFSET (GnnBilinear, bias) };

  gnn_props_install (G_OBJECT_CLASS (klass), bil_props, BIL_N_PROPS);
  gnn_module_class_uses_dtype (module_class);
}

static void
gnn_bilinear_init (GnnBilinear *self)
{
  self->bias = TRUE;
}

/**
 * gnn_bilinear_new:
 * @in1_features: the size of each sample of the first input
 * @in2_features: the size of each sample of the second input
 * @out_features: the size of each output sample
 * @bias: whether the layer learns an additive bias
 * @dtype: the floating-point element type of the parameters
 * @error: return location for a #GError
 *
 * Creates a bilinear layer (`nn.Bilinear (in1_features, in2_features, out_features, bias,
 * dtype=dtype)`), initialised as PyTorch initialises it.
 *
 * Returns: (transfer full): the layer, or %NULL with @error set when a size is negative or
 *   the parameters could not be made
 *
 * Since: 0.1
 */
GnnBilinear *
gnn_bilinear_new (int        in1_features,
                  int        in2_features,
                  int        out_features,
                  gboolean   bias,
                  GnnDtype   dtype,
                  GError   **error)
{
  return gnn_module_new_or_error (error, GNN_TYPE_BILINEAR,
                                  "in1-features", in1_features,
                                  "in2-features", in2_features,
                                  "out-features", out_features,
                                  "bias", bias,
                                  "dtype", dtype,
                                  NULL);
}

/* the layer types of this file, for gnn_module_new_from_type_name() to find by name */
void
gnn_layers_ensure_types (void)
{
  g_type_ensure (GNN_TYPE_IDENTITY);
  g_type_ensure (GNN_TYPE_FLATTEN);
  g_type_ensure (GNN_TYPE_UNFLATTEN);
  g_type_ensure (GNN_TYPE_DROPOUT);
  g_type_ensure (GNN_TYPE_DROPOUT2D);
  g_type_ensure (GNN_TYPE_DROPOUT1D);
  g_type_ensure (GNN_TYPE_EMBEDDING);
  g_type_ensure (GNN_TYPE_BILINEAR);
  g_type_ensure (GNN_TYPE_DROPOUT3D);
}
