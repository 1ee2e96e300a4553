/* gnn-distance.c: cosine similarity, pairwise distance and pdist, as functions and modules
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "gnn-distance.h"
#include "gnn-args-private.h"
#include "gnn-module-private.h"
#include "gnn-props-private.h"
#include "core/gnn-tensor-private.h"
#include "ops/gnn-ops-private.h"

/* Composed of differentiable ops, so autograd comes from the ops. The formulas are PyTorch
 * 1.13's (aten/src/ATen/native/Distance.cpp). */

static GnnTensor *
named (GnnTensor  *result,
       const char *name,
       GError    **error)
{
  if (result == NULL)
    g_prefix_error (error, "%s: ", name);
  return result;
}

/* x1 and x2: floating, one dtype */
static gboolean
check_two (GnnTensor *x1,
           GnnTensor *x2,
           GError   **error)
{
  GnnDtype d1 = gnn_tensor_get_dtype (x1), d2 = gnn_tensor_get_dtype (x2);

  if (!gnn_dtype_is_floating (d1) || !gnn_dtype_is_floating (d2))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE,
                   "expected floating-point inputs, got %s and %s",
                   gnn_dtype_get_name (d1), gnn_dtype_get_name (d2));
      return FALSE;
    }
  if (d1 != d2)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE,
                   "x1 (%s) and x2 (%s) have different dtypes",
                   gnn_dtype_get_name (d1), gnn_dtype_get_name (d2));
      return FALSE;
    }
  return TRUE;
}

/* @value with its forward value clamped below at @min and its gradient that of @value:
 * value + detach (clamp_min (value, min) − value), PyTorch's clamp_min_ under NoGradGuard */
static GnnTensor *
clamp_min_no_grad (GnnTensor *value,
                   double     min,
                   GError   **error)
{
  g_autoptr(GnnTensor) c = NULL, d = NULL, dd = NULL;

  if ((c = gnn_tensor_clamp_min (value, min, error)) == NULL ||
      (d = gnn_tensor_sub (c, value, 1.0, error)) == NULL)
    return NULL;
  dd = gnn_tensor_detach (d);
  return gnn_tensor_add (value, dd, 1.0, error);
}

static GnnTensor *
cosine_similarity (GnnTensor *x1, GnnTensor *x2, int dim, double eps, GError **error)
{
  const gint64 *s1, *s2;
  guint n1, n2, n;
  gint64 shape[GNN_MAX_DIMS];
  g_autoptr(GnnTensor) a = NULL, b = NULL, ab = NULL, aa = NULL, bb = NULL;
  g_autoptr(GnnTensor) w12 = NULL, w1 = NULL, w2 = NULL, w1c = NULL, w2c = NULL, den = NULL;
  g_autoptr(GnnTensor) rden = NULL;

  if (!check_two (x1, x2, error))
    return NULL;
  s1 = gnn_tensor_get_shape (x1, &n1);
  s2 = gnn_tensor_get_shape (x2, &n2);
  if (!gnn_broadcast_shapes ("cosine_similarity", n1, s1, n2, s2, &n, shape, error))
    return NULL;
  if (dim < -(int) MAX (n, 1) || dim >= (int) MAX (n, 1))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INDEX,
                   "dimension out of range (expected to be in range of [%d, %d], but got %d)",
                   -(int) MAX (n, 1), (int) MAX (n, 1) - 1, dim);
      return NULL;
    }
  if ((a = gnn_tensor_expand (x1, shape, n, error)) == NULL ||
      (b = gnn_tensor_expand (x2, shape, n, error)) == NULL ||
      (ab = gnn_tensor_mul (a, b, error)) == NULL ||
      (aa = gnn_tensor_mul (a, a, error)) == NULL ||
      (bb = gnn_tensor_mul (b, b, error)) == NULL ||
      (w12 = gnn_tensor_sum (ab, &dim, 1, FALSE, error)) == NULL ||
      (w1 = gnn_tensor_sum (aa, &dim, 1, FALSE, error)) == NULL ||
      (w2 = gnn_tensor_sum (bb, &dim, 1, FALSE, error)) == NULL ||
      (w1c = clamp_min_no_grad (w1, eps * eps, error)) == NULL ||
      (w2c = clamp_min_no_grad (w2, eps * eps, error)) == NULL ||
      (den = gnn_tensor_mul (w1c, w2c, error)) == NULL ||
      (rden = gnn_tensor_rsqrt (den, error)) == NULL)
    return NULL;
  return gnn_tensor_mul (w12, rden, error);
}

/**
 * gnn_tensor_cosine_similarity:
 * @x1: a floating-point tensor
 * @x2: a tensor of @x1's dtype whose shape broadcasts with @x1's
 * @dim: the dimension of the vectors (of the broadcast shape); PyTorch's default is 1
 * @eps: the smallest norm a vector is divided by; PyTorch's default is 1e-8
 * @error: return location for a #GError
 *
 * The cosine similarity along @dim (`torch.nn.functional.cosine_similarity`), by PyTorch
 * 1.13's formula: with @x1 and @x2 broadcast, Σ x1·x2 / √(max (Σ x1², eps²) · max (Σ x2², eps²)).
 * As in PyTorch, the clamp of the squared norms is outside autograd: the gradient is that of
 * the unclamped formula at the clamped values.
 *
 * Returns: (transfer full): the similarities, the broadcast shape without @dim, or %NULL
 *   with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_cosine_similarity (GnnTensor  *x1,
                              GnnTensor  *x2,
                              int         dim,
                              double      eps,
                              GError    **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (x1), NULL);
  g_return_val_if_fail (GNN_IS_TENSOR (x2), NULL);
  return named (cosine_similarity (x1, x2, dim, eps, error), "cosine_similarity", error);
}

static GnnTensor *
pairwise_distance (GnnTensor *x1, GnnTensor *x2, double p, double eps, gboolean keepdim,
                   GError **error)
{
  g_autoptr(GnnTensor) d = NULL, de = NULL;
  guint n1 = gnn_tensor_get_ndim (x1), n2 = gnn_tensor_get_ndim (x2);
  int dim = (int) MAX (n1, n2) - 1;

  if (!check_two (x1, x2, error))
    return NULL;
  if (p < 0)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "p must be non-negative, got %g", p);
      return NULL;
    }
  if ((d = gnn_tensor_sub (x1, x2, 1.0, error)) == NULL ||
      (de = gnn_tensor_add_scalar (d, eps, error)) == NULL)
    return NULL;
  if (gnn_tensor_get_ndim (de) == 0)
    return gnn_tensor_norm (de, p, NULL, 0, keepdim, error);
  return gnn_tensor_norm (de, p, &dim, 1, keepdim, error);
}

/**
 * gnn_tensor_pairwise_distance:
 * @x1: a floating-point tensor, (N, D) or (D)
 * @x2: a tensor of @x1's dtype whose shape broadcasts with @x1's
 * @p: the order of the norm, non-negative; PyTorch's default is 2
 * @eps: added to the differences, to keep the norm differentiable; PyTorch's default is 1e-6
 * @keepdim: whether to keep the last dimension with size one
 * @error: return location for a #GError
 *
 * The p-norm distance along the last dimension (`torch.nn.functional.pairwise_distance`):
 * ‖x1 − x2 + eps‖ₚ over the last dimension of the broadcast shape.
 *
 * Returns: (transfer full): the distances, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_pairwise_distance (GnnTensor  *x1,
                              GnnTensor  *x2,
                              double      p,
                              double      eps,
                              gboolean    keepdim,
                              GError    **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (x1), NULL);
  g_return_val_if_fail (GNN_IS_TENSOR (x2), NULL);
  return named (pairwise_distance (x1, x2, p, eps, keepdim, error), "pairwise_distance", error);
}

static GnnTensor *
pdist (GnnTensor *input, double p, GError **error)
{
  const gint64 *shape;
  guint ndim;
  gint64 n, m, k = 0;
  g_autofree gint64 *ii = NULL, *jj = NULL;
  g_autoptr(GnnTensor) ci = NULL, cj = NULL, gi = NULL, gj = NULL, ri = NULL, rj = NULL;
  g_autoptr(GnnTensor) d = NULL;
  int dim = 1;

  if (!gnn_dtype_is_floating (gnn_tensor_get_dtype (input)))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE, "expected a floating-point input, got %s",
                   gnn_dtype_get_name (gnn_tensor_get_dtype (input)));
      return NULL;
    }
  shape = gnn_tensor_get_shape (input, &ndim);
  if (ndim != 2)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "pdist only supports 2D tensors, got: %uD", ndim);
      return NULL;
    }
  if (p < 0)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "pdist only supports non-negative p values, got %g", p);
      return NULL;
    }
  n = shape[0];
  m = shape[1];
  ii = g_new (gint64, MAX (n * (n - 1) / 2, 1));
  jj = g_new (gint64, MAX (n * (n - 1) / 2, 1));
  for (gint64 i = 0; i < n; i++)
    for (gint64 j = i + 1; j < n; j++, k++)
      {
        ii[k] = i;
        jj[k] = j;
      }
  if ((ci = gnn_tensor_new_from_int64s (ii, k, &k, 1, error)) == NULL ||
      (cj = gnn_tensor_new_from_int64s (jj, k, &k, 1, error)) == NULL ||
      (gi = gnn_tensor_to_device (ci, gnn_tensor_get_device (input), error)) == NULL ||
      (gj = gnn_tensor_to_device (cj, gnn_tensor_get_device (input), error)) == NULL ||
      (ri = gnn_tensor_index_select (input, 0, gi, error)) == NULL ||
      (rj = gnn_tensor_index_select (input, 0, gj, error)) == NULL ||
      (d = gnn_tensor_sub (ri, rj, 1.0, error)) == NULL)
    return NULL;
  if (m == 0)
    return gnn_tensor_new_zeros ((const gint64[]) { k }, 1, gnn_tensor_get_dtype (input),
                                 gnn_tensor_get_device (input), error);
  return gnn_tensor_norm (d, p, &dim, 1, FALSE, error);
}

/**
 * gnn_tensor_pdist:
 * @input: a floating-point tensor (N, M): N row vectors
 * @p: the order of the norm, non-negative; PyTorch's default is 2
 * @error: return location for a #GError
 *
 * The p-norm distances between the rows of @input (`torch.nn.functional.pdist`): the
 * N·(N − 1)/2 distances ‖input[i] − input[j]‖ₚ for i < j, in row-major order of the upper
 * triangle, as `torch.pdist`.
 *
 * Returns: (transfer full): the distances, of shape (N·(N − 1)/2), or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_pdist (GnnTensor  *input,
                  double      p,
                  GError    **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (input), NULL);
  return named (pdist (input, p, error), "pdist", error);
}

/* the two positional inputs of forward */
static gboolean
two_inputs (GnnArgs    *input,
            const char *name,
            GnnTensor **x1,
            GnnTensor **x2,
            GError    **error)
{
  if ((*x1 = gnn_args_get_tensor (input, 0, error)) == NULL ||
      (*x2 = gnn_args_get_tensor (input, 1, error)) == NULL)
    {
      g_prefix_error (error, "%s: expected (x1, x2): ", name);
      return FALSE;
    }
  return TRUE;
}

/* ---- CosineSimilarity ------------------------------------------------------------------ */

/**
 * GnnCosineSimilarity:
 *
 * The cosine similarity as a module (`torch.nn.CosineSimilarity`); forward takes (x1, x2);
 * see [method@Gnn.Tensor.cosine_similarity]. It has no parameters and prints as PyTorch's:
 * "CosineSimilarity()".
 *
 * Since: 0.1
 */
struct _GnnCosineSimilarity
{
  GnnModule parent_instance;

  int dim;
  double eps;
};

enum {
  COS_PROP_0,
  COS_PROP_DIM,
  COS_PROP_EPS,
  COS_N_PROPS
};

static GnnProp cos_props[COS_N_PROPS];

G_DEFINE_FINAL_TYPE (GnnCosineSimilarity, gnn_cosine_similarity, GNN_TYPE_MODULE)

static GnnArgs *
gnn_cosine_similarity_forward (GnnModule *module, GnnArgs *input, GError **error)
{
  GnnCosineSimilarity *self = GNN_COSINE_SIMILARITY (module);
  GnnTensor *x1, *x2;

  if (!two_inputs (input, "CosineSimilarity", &x1, &x2, error))
    return NULL;
  return gnn_args_take_tensor (gnn_tensor_cosine_similarity (x1, x2, self->dim, self->eps, error));
}

static void
gnn_cosine_similarity_class_init (GnnCosineSimilarityClass *klass)
{
  GNN_MODULE_CLASS (klass)->forward = gnn_cosine_similarity_forward;

  /**
   * GnnCosineSimilarity:dim:
   *
   * The dimension of the vectors (`dim`); PyTorch's default is 1.
   *
   * Since: 0.1
   */
  cos_props[COS_PROP_DIM] = (GnnProp) {
    g_param_spec_int ("dim", NULL, NULL, G_MININT, G_MAXINT, 1, GNN_PARAM_RW | G_PARAM_CONSTRUCT),
    G_STRUCT_OFFSET (GnnCosineSimilarity, dim) };

  /**
   * GnnCosineSimilarity:eps:
   *
   * The smallest norm a vector is divided by (`eps`); PyTorch's default is 1e-8.
   *
   * Since: 0.1
   */
  cos_props[COS_PROP_EPS] = (GnnProp) {
    g_param_spec_double ("eps", NULL, NULL, -G_MAXDOUBLE, G_MAXDOUBLE, 1e-8,
                         GNN_PARAM_RW | G_PARAM_CONSTRUCT),
    G_STRUCT_OFFSET (GnnCosineSimilarity, eps) };
  gnn_props_install (G_OBJECT_CLASS (klass), cos_props, COS_N_PROPS);
}

static void
gnn_cosine_similarity_init (GnnCosineSimilarity *self)
{
  self->dim = 1;
  self->eps = 1e-8;
}

/**
 * gnn_cosine_similarity_new:
 * @dim: the dimension of the vectors; PyTorch's default is 1
 * @eps: the smallest norm a vector is divided by; PyTorch's default is 1e-8
 *
 * Creates a CosineSimilarity module (`nn.CosineSimilarity (dim, eps)`).
 *
 * Returns: (transfer full): the module
 *
 * Since: 0.1
 */
GnnCosineSimilarity *
gnn_cosine_similarity_new (int    dim,
                           double eps)
{
  return g_object_new (GNN_TYPE_COSINE_SIMILARITY, "dim", dim, "eps", eps, NULL);
}

/**
 * gnn_cosine_similarity_get_dim:
 * @self: a CosineSimilarity module
 *
 * Gets [property@Gnn.CosineSimilarity:dim].
 *
 * Returns: the dimension of the vectors
 *
 * Since: 0.1
 */
int
gnn_cosine_similarity_get_dim (GnnCosineSimilarity *self)
{
  g_return_val_if_fail (GNN_IS_COSINE_SIMILARITY (self), 1);
  return self->dim;
}

/**
 * gnn_cosine_similarity_get_eps:
 * @self: a CosineSimilarity module
 *
 * Gets [property@Gnn.CosineSimilarity:eps].
 *
 * Returns: the smallest norm a vector is divided by
 *
 * Since: 0.1
 */
double
gnn_cosine_similarity_get_eps (GnnCosineSimilarity *self)
{
  g_return_val_if_fail (GNN_IS_COSINE_SIMILARITY (self), 1e-8);
  return self->eps;
}

/* ---- PairwiseDistance ------------------------------------------------------------------ */

/**
 * GnnPairwiseDistance:
 *
 * The pairwise p-norm distance as a module (`torch.nn.PairwiseDistance`); forward takes
 * (x1, x2); see [method@Gnn.Tensor.pairwise_distance]. It has no parameters and prints as
 * PyTorch's: "PairwiseDistance()".
 *
 * Since: 0.1
 */
struct _GnnPairwiseDistance
{
  GnnModule parent_instance;

  double p;
  double eps;
  gboolean keepdim;
};

enum {
  PD_PROP_0,
  PD_PROP_P,
  PD_PROP_EPS,
  PD_PROP_KEEPDIM,
  PD_N_PROPS
};

static GnnProp pd_props[PD_N_PROPS];

G_DEFINE_FINAL_TYPE (GnnPairwiseDistance, gnn_pairwise_distance, GNN_TYPE_MODULE)

static GnnArgs *
gnn_pairwise_distance_forward (GnnModule *module, GnnArgs *input, GError **error)
{
  GnnPairwiseDistance *self = GNN_PAIRWISE_DISTANCE (module);
  GnnTensor *x1, *x2;

  if (!two_inputs (input, "PairwiseDistance", &x1, &x2, error))
    return NULL;
  return gnn_args_take_tensor (gnn_tensor_pairwise_distance (x1, x2, self->p, self->eps,
                                                             self->keepdim, error));
}

static void
gnn_pairwise_distance_class_init (GnnPairwiseDistanceClass *klass)
{
  GNN_MODULE_CLASS (klass)->forward = gnn_pairwise_distance_forward;

  /**
   * GnnPairwiseDistance:p:
   *
   * The order of the norm (`p`), non-negative; PyTorch's default is 2.
   *
   * Since: 0.1
   */
  pd_props[PD_PROP_P] = (GnnProp) {
    g_param_spec_double ("p", NULL, NULL, -G_MAXDOUBLE, G_MAXDOUBLE, 2.0,
                         GNN_PARAM_RW | G_PARAM_CONSTRUCT),
    G_STRUCT_OFFSET (GnnPairwiseDistance, p), gnn_prop_check_non_negative };

  /**
   * GnnPairwiseDistance:eps:
   *
   * Added to the differences (`eps`); PyTorch's default is 1e-6.
   *
   * Since: 0.1
   */
  pd_props[PD_PROP_EPS] = (GnnProp) {
    g_param_spec_double ("eps", NULL, NULL, -G_MAXDOUBLE, G_MAXDOUBLE, 1e-6,
                         GNN_PARAM_RW | G_PARAM_CONSTRUCT),
    G_STRUCT_OFFSET (GnnPairwiseDistance, eps) };

  /**
   * GnnPairwiseDistance:keepdim:
   *
   * Whether the last dimension is kept with size one (`keepdim`); PyTorch's default is
   * %FALSE.
   *
   * Since: 0.1
   */
  pd_props[PD_PROP_KEEPDIM] = (GnnProp) {
    g_param_spec_boolean ("keepdim", NULL, NULL, FALSE, GNN_PARAM_RW | G_PARAM_CONSTRUCT),
    G_STRUCT_OFFSET (GnnPairwiseDistance, keepdim) };
  gnn_props_install (G_OBJECT_CLASS (klass), pd_props, PD_N_PROPS);
}

static void
gnn_pairwise_distance_init (GnnPairwiseDistance *self)
{
  self->p = 2.0;
  self->eps = 1e-6;
}

/**
 * gnn_pairwise_distance_new:
 * @p: the order of the norm, non-negative; PyTorch's default is 2
 * @eps: added to the differences; PyTorch's default is 1e-6
 * @keepdim: whether to keep the last dimension with size one; PyTorch's default is %FALSE
 *
 * Creates a PairwiseDistance module (`nn.PairwiseDistance (p, eps, keepdim)`).
 *
 * Returns: (transfer full): the module
 *
 * Since: 0.1
 */
GnnPairwiseDistance *
gnn_pairwise_distance_new (double   p,
                           double   eps,
                           gboolean keepdim)
{
  return g_object_new (GNN_TYPE_PAIRWISE_DISTANCE, "p", p, "eps", eps, "keepdim", keepdim, NULL);
}

/**
 * gnn_pairwise_distance_get_p:
 * @self: a PairwiseDistance module
 *
 * Gets [property@Gnn.PairwiseDistance:p].
 *
 * Returns: the order of the norm
 *
 * Since: 0.1
 */
double
gnn_pairwise_distance_get_p (GnnPairwiseDistance *self)
{
  g_return_val_if_fail (GNN_IS_PAIRWISE_DISTANCE (self), 2.0);
  return self->p;
}

/**
 * gnn_pairwise_distance_get_eps:
 * @self: a PairwiseDistance module
 *
 * Gets [property@Gnn.PairwiseDistance:eps].
 *
 * Returns: what is added to the differences
 *
 * Since: 0.1
 */
double
gnn_pairwise_distance_get_eps (GnnPairwiseDistance *self)
{
  g_return_val_if_fail (GNN_IS_PAIRWISE_DISTANCE (self), 1e-6);
  return self->eps;
}

/**
 * gnn_pairwise_distance_get_keepdim:
 * @self: a PairwiseDistance module
 *
 * Gets [property@Gnn.PairwiseDistance:keepdim].
 *
 * Returns: whether the last dimension is kept
 *
 * Since: 0.1
 */
gboolean
gnn_pairwise_distance_get_keepdim (GnnPairwiseDistance *self)
{
  g_return_val_if_fail (GNN_IS_PAIRWISE_DISTANCE (self), FALSE);
  return self->keepdim;
}
