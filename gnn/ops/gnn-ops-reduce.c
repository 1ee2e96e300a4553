/* gnn-ops-reduce.c: reductions over dimensions
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "gnn-ops-private.h"
#include "gnn-autocast-private.h"

#define NEEDS(j) (node->edges[(j)].node != NULL)

/* What a reduction over a set of dimensions keeps and how the kernel sees it. */
typedef struct {
  guint ndim;                       /* of the input */
  gboolean reduced[GNN_MAX_DIMS];
  gboolean keepdim;
  guint out_ndim;
  gint64 out_shape[GNN_MAX_DIMS];
  gint64 keep_shape[GNN_MAX_DIMS];  /* the output shape with keepdim, for backward */
  gint64 outer, r, inner;           /* kernel layout */
} ReducePlan;

/* Normalises @dims (an empty list means every dimension) and works out the output shape. */
static gboolean
reduce_plan (const char *op, GnnTensorPrivate *p, const int *dims, guint n_dims, gboolean keepdim,
             ReducePlan *plan, GError **error)
{
  memset (plan, 0, sizeof *plan);
  plan->ndim = p->ndim;
  plan->keepdim = keepdim;
  if (n_dims == 0)
    for (guint i = 0; i < p->ndim; i++)
      plan->reduced[i] = TRUE;
  for (guint i = 0; i < n_dims; i++)
    {
      guint d;
      if (!gnn_normalize_dim (dims[i], p->ndim, &d, error))
        {
          g_prefix_error (error, "%s: ", op);
          return FALSE;
        }
      if (p->ndim == 0)
        continue;
      if (plan->reduced[d])
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                       "%s: dim %u appears multiple times in the list of dims", op, d);
          return FALSE;
        }
      plan->reduced[d] = TRUE;
    }
  for (guint i = 0; i < p->ndim; i++)
    {
      plan->keep_shape[i] = plan->reduced[i] ? 1 : p->shape[i];
      if (!plan->reduced[i])
        plan->out_shape[plan->out_ndim++] = p->shape[i];
      else if (keepdim)
        plan->out_shape[plan->out_ndim++] = 1;
    }
  return TRUE;
}

/* A contiguous tensor of @dtype laid out as [outer, r, inner] for the kernel: the input itself
 * when the reduced dimensions form one block of a contiguous input, else a permuted copy with
 * the reduced dimensions last. */
static GnnTensor *
gnn_reduce_prepare (GnnTensor *t, ReducePlan *plan, GnnDtype dtype, GError **error)
{
  GnnTensorPrivate *p = gnn_tensor_priv (t);
  int state = 0;   /* 0 before the reduced block, 1 inside it, 2 after it */
  gboolean block = TRUE;

  plan->outer = 1;
  plan->r = 1;
  plan->inner = 1;
  /* size-1 dimensions do not matter for the layout of a contiguous tensor */
  for (guint i = 0; i < p->ndim; i++)
    {
      if (p->shape[i] == 1)
        continue;
      if (plan->reduced[i])
        {
          if (state == 2)
            block = FALSE;
          state = 1;
          plan->r *= p->shape[i];
        }
      else if (state == 0)
        plan->outer *= p->shape[i];
      else
        {
          state = 2;
          plan->inner *= p->shape[i];
        }
    }
  if (block)
    return gnn_tensor_contiguous_as (t, dtype, error);
  {
    int perm[GNN_MAX_DIMS];
    guint k = 0;
    gboolean prev = gnn_set_grad_enabled (FALSE);
    g_autoptr(GnnTensor) permuted = NULL;

    plan->outer = 1;
    plan->r = 1;
    plan->inner = 1;
    for (guint i = 0; i < p->ndim; i++)
      if (!plan->reduced[i])
        {
          perm[k++] = (int) i;
          plan->outer *= p->shape[i];
        }
    for (guint i = 0; i < p->ndim; i++)
      if (plan->reduced[i])
        {
          perm[k++] = (int) i;
          plan->r *= p->shape[i];
        }
    permuted = gnn_tensor_permute (t, perm, p->ndim, error);
    gnn_set_grad_enabled (prev);
    if (permuted == NULL)
      return NULL;
    return gnn_tensor_clone_contiguous (permuted, dtype, error);
  }
}

static GnnDtype
sum_dtype (GnnDtype d)
{
  return gnn_dtype_is_floating (d) ? d : GNN_DTYPE_INT64;
}

/* Sums without autograd: out has plan->out_shape and @dtype. */
static GnnTensor *
sum_kernel (GnnTensor *self, ReducePlan *plan, GnnDtype dtype, GError **error)
{
  GnnDtype compute = gnn_compute_dtype (dtype);
  g_autoptr(GnnTensor) in = NULL;
  g_autoptr(GnnTensor) out = NULL;
  GnnKernelTensor kin, kout;
  GnnKernelArgs args = { 0 };
  GnnTensorPrivate *p = gnn_tensor_priv (self);
  int dims[GNN_MAX_DIMS];
  guint n = 0, first;

  /* reduced dimensions apart from each other (a bias's gradient, over N, H and W of
   * (N, C, H, W)): the last run of them first, which needs no permuted copy, then all of
   * them again (the run now of size one). Size-one dimensions do not separate runs. */
  for (guint i = 0; i < p->ndim; i++)
    if (plan->reduced[i] && p->shape[i] != 1)
      dims[n++] = (int) i;
  for (first = n ? n - 1 : 0; first > 0; first--)
    {
      gboolean gap = FALSE;

      for (int i = dims[first - 1] + 1; i < dims[first]; i++)
        gap |= p->shape[i] != 1;
      if (gap)
        break;
    }
  if (first > 0)
    {
      g_autoptr(GnnNoGradGuard) guard = gnn_no_grad_guard_new ();
      g_autoptr(GnnTensor) partial = gnn_tensor_sum (self, dims + first, n - first, TRUE, error);

      return partial ? sum_kernel (partial, plan, dtype, error) : NULL;
    }

  in = gnn_reduce_prepare (self, plan, compute, error);
  if (in == NULL)
    return NULL;
  out = gnn_tensor_new_like (self, compute, plan->out_ndim, plan->out_shape, error);
  if (out == NULL)
    return NULL;
  if (plan->outer * plan->inner > 0)
    {
      gnn_kernel_tensor_3d (in, plan->outer, plan->r, plan->inner, &kin);
      gnn_kernel_tensor_3d (out, plan->outer, 1, plan->inner, &kout);
      kout.ndim = 2;
      kout.shape[1] = plan->inner;
      kout.strides[0] = plan->inner;
      kout.strides[1] = 1;
      args.op = GNN_BACKEND_OP_SUM;
      args.out = &kout;
      args.in[0] = &kin;
      args.n_in = 1;
      args.params.reduce = (GnnKernelReduce) { plan->outer, plan->r, plan->inner, 0 };
      if (!gnn_run_kernel (out, &args, error))
        return NULL;
    }
  if (compute != dtype)
    return gnn_tensor_clone_contiguous (out, dtype, error);
  return g_steal_pointer (&out);
}

typedef struct {
  ReducePlan plan;
  double scale;
} SumCtx;

/* sum / mean: the gradient, scaled for mean, broadcast back over the reduced dimensions */
static gboolean
sum_backward (GnnNode *node, GnnTensor **go, GnnTensor **gi, GError **error)
{
  SumCtx *ctx = node->ctx;
  g_autoptr(GnnTensor) g = NULL, k = NULL;

  if (go[0] == NULL || !NEEDS (0))
    return TRUE;
  g = ctx->scale == 1.0 ? g_object_ref (go[0]) : gnn_tensor_mul_scalar (go[0], ctx->scale, error);
  if (g == NULL)
    return FALSE;
  k = gnn_tensor_reshape (g, ctx->plan.keep_shape, ctx->plan.ndim, error);
  if (k == NULL)
    return FALSE;
  gi[0] = gnn_tensor_expand (k, node->in_shape[0], node->in_ndim[0], error);
  return gi[0] != NULL;
}

/* out *= scale in place (mean's division). On host float32 and float64 memory it multiplies
 * directly rather than through a scalar tensor and the binary kernel: the same result, as a
 * float32 product is exact in double and rounds once either way. */
static gboolean
scale_in_place (GnnTensor *out, double scale, GError **error)
{
  GnnTensorPrivate *q = gnn_tensor_priv (out);
  gint64 n = 1;

  if (!q->storage->entry->funcs->is_host || !gnn_tensor_is_contiguous_priv (q) ||
      (q->dtype != GNN_DTYPE_FLOAT32 && q->dtype != GNN_DTYPE_FLOAT64))
    return gnn_tensor_mul_scalar_ (out, scale, error);
  for (guint i = 0; i < q->ndim; i++)
    n *= q->shape[i];
  if (q->dtype == GNN_DTYPE_FLOAT32)
    {
      float *v = gnn_tensor_data_ptr (q), s = (float) scale;
      for (gint64 i = 0; i < n; i++)
        v[i] = v[i] * s;
    }
  else
    {
      double *v = gnn_tensor_data_ptr (q);
      for (gint64 i = 0; i < n; i++)
        v[i] = v[i] * scale;
    }
  gnn_tensor_bump_version (out);
  return TRUE;
}

static GnnTensor *
sum_or_mean (const char *op, const char *grad_name, GnnTensor *self, const int *dims, guint n_dims,
             gboolean keepdim, gboolean mean, GError **error)
{
  GnnTensorPrivate *p = gnn_tensor_priv (self);
  SumCtx ctx;
  GnnTensor *out;
  GnnNode *node;
  GnnDtype dtype = sum_dtype (p->dtype);
  gint64 count = 1;

  if (!reduce_plan (op, p, dims, n_dims, keepdim, &ctx.plan, error))
    return NULL;
  if (mean && !gnn_dtype_is_floating (p->dtype))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE,
                   "mean(): could not infer output dtype. Input dtype must be either a floating point "
                   "or complex dtype. Got: %s", gnn_dtype_get_name (p->dtype));
      return NULL;
    }
  out = sum_kernel (self, &ctx.plan, dtype, error);
  if (out == NULL)
    return NULL;
  for (guint i = 0; i < p->ndim; i++)
    if (ctx.plan.reduced[i])
      count *= p->shape[i];
  ctx.scale = 1.0;
  if (mean)
    {
      ctx.scale = 1.0 / (double) count;
      if (!scale_in_place (out, count == 0 ? NAN : ctx.scale, error))
        {
          g_object_unref (out);
          return NULL;
        }
      if (count == 0)
        ctx.scale = NAN;
    }
  if ((node = gnn_autograd_record (grad_name, sum_backward, &self, 1, &out, 1)))
    gnn_node_set_ctx (node, g_memdup2 (&ctx, sizeof ctx), g_free);
  return out;
}

/**
 * gnn_tensor_sum:
 * @self: a tensor
 * @dims: (array length=n_dims) (nullable): the dimensions to sum over; none for all
 * @n_dims: the number of dimensions in @dims
 * @keepdim: whether to keep the summed dimensions with size one
 * @error: return location for a #GError
 *
 * Sums over @dims (`torch.sum (self, dims, keepdim)`). Integer and bool tensors sum to int64.
 * Float32 sums accumulate in double, in an order that does not depend on the thread count.
 *
 * Returns: (transfer full): the sum, or %NULL with @error set
 */
GnnTensor *
gnn_tensor_sum (GnnTensor *self, const int *dims, guint n_dims, gboolean keepdim, GError **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  return sum_or_mean ("sum", "SumBackward1", self, dims, n_dims, keepdim, FALSE, error);
}

/**
 * gnn_tensor_sum_all:
 * @self: a tensor
 * @error: return location for a #GError
 *
 * Sums every element (`torch.sum (self)`).
 *
 * Returns: (transfer full): a zero-dimensional sum, or %NULL with @error set
 */
GnnTensor *
gnn_tensor_sum_all (GnnTensor *self, GError **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  return sum_or_mean ("sum", "SumBackward0", self, NULL, 0, FALSE, FALSE, error);
}

/**
 * gnn_tensor_mean:
 * @self: a floating-point tensor
 * @dims: (array length=n_dims) (nullable): the dimensions to average over; none for all
 * @n_dims: the number of dimensions in @dims
 * @keepdim: whether to keep the averaged dimensions with size one
 * @error: return location for a #GError
 *
 * Averages over @dims (`torch.mean (self, dims, keepdim)`).
 *
 * Returns: (transfer full): the mean, or %NULL with @error set
 */
GnnTensor *
gnn_tensor_mean (GnnTensor *self, const int *dims, guint n_dims, gboolean keepdim, GError **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  return sum_or_mean ("mean", "MeanBackward1", self, dims, n_dims, keepdim, TRUE, error);
}

/**
 * gnn_tensor_mean_all:
 * @self: a floating-point tensor
 * @error: return location for a #GError
 *
 * Averages every element (`torch.mean (self)`).
 *
 * Returns: (transfer full): a zero-dimensional mean, or %NULL with @error set
 */
GnnTensor *
gnn_tensor_mean_all (GnnTensor *self, GError **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  return sum_or_mean ("mean", "MeanBackward0", self, NULL, 0, FALSE, TRUE, error);
}

/* ---- kernels on the [outer, r, inner] layout ---------------------------------------- */

/* A contiguous [outer, inner] kernel view of a reduction's output */
static void
kernel_2d (GnnTensor *t, gint64 outer, gint64 inner, GnnKernelTensor *kt)
{
  gnn_kernel_tensor_contiguous (t, 2, (const gint64[]) { outer, inner }, kt);
}

/* Runs @op on contiguous operands: @in0 (and @in1) [outer, r, inner]; @out (and @out2)
 * [outer, inner] when @reduces, else [outer, r, inner]; @correction for VAR. */
static gboolean
run_layout_kernel (GnnBackendOp op, gboolean reduces, GnnTensor *out, GnnTensor *out2,
                   GnnTensor *in0, GnnTensor *in1, gint64 outer, gint64 r, gint64 inner,
                   double correction, GError **error)
{
  GnnKernelTensor kin0, kin1, kout, kout2;
  GnnKernelArgs args = { 0 };

  gnn_kernel_tensor_3d (in0, outer, r, inner, &kin0);
  args.in[0] = &kin0;
  args.n_in = 1;
  if (in1)
    {
      gnn_kernel_tensor_3d (in1, outer, r, inner, &kin1);
      args.in[1] = &kin1;
      args.n_in = 2;
    }
  if (reduces)
    kernel_2d (out, outer, inner, &kout);
  else
    gnn_kernel_tensor_3d (out, outer, r, inner, &kout);
  if (out2)
    {
      kernel_2d (out2, outer, inner, &kout2);
      args.out2 = &kout2;
    }
  args.op = op;
  args.out = &kout;
  args.params.reduce = (GnnKernelReduce) { outer, r, inner, correction };
  return gnn_run_kernel (out, &args, error);
}

/* The normalised reduced dimensions of @plan, for calling another reduction */
static guint
plan_dims (const ReducePlan *plan, int *dims)
{
  guint n = 0;

  for (guint i = 0; i < plan->ndim; i++)
    if (plan->reduced[i])
      dims[n++] = (int) i;
  return n;
}

static gint64
plan_count (const ReducePlan *plan, GnnTensorPrivate *p)
{
  gint64 count = 1;

  for (guint i = 0; i < p->ndim; i++)
    if (plan->reduced[i])
      count *= p->shape[i];
  return count;
}

/* ---- var ---------------------------------------------------------------------------- */

typedef struct {
  ReducePlan plan;
  double scale;     /* 2 / (N - correction) */
} VarCtx;

/* var: gi = g * 2 (x - mean) / (N - correction), g broadcast over the reduced dimensions */
static gboolean
var_backward (GnnNode *node, GnnTensor **go, GnnTensor **gi, GError **error)
{
  VarCtx *ctx = node->ctx;
  int dims[GNN_MAX_DIMS];
  guint n_dims = plan_dims (&ctx->plan, dims);
  GnnTensor *x;
  g_autoptr(GnnTensor) mean = NULL, diff = NULL, g = NULL, t = NULL;

  if (go[0] == NULL || !NEEDS (0))
    return TRUE;
  if (!(x = gnn_node_saved (node, 0, error)))
    return FALSE;
  if (!(mean = gnn_tensor_mean (x, dims, n_dims, TRUE, error)) ||
      !(diff = gnn_tensor_sub (x, mean, 1.0, error)) ||
      !(g = gnn_tensor_reshape (go[0], ctx->plan.keep_shape, ctx->plan.ndim, error)) ||
      !(t = gnn_tensor_mul (diff, g, error)))
    return FALSE;
  gi[0] = gnn_tensor_mul_scalar (t, ctx->scale, error);
  return gi[0] != NULL;
}

static GnnTensor *
var_impl (GnnTensor *self, const int *dims, guint n_dims, double correction, gboolean keepdim,
          GError **error)
{
  GnnTensorPrivate *p = gnn_tensor_priv (self);
  GnnDtype compute = gnn_compute_dtype (p->dtype);
  g_autoptr(GnnTensor) in = NULL;
  g_autoptr(GnnTensor) out = NULL;
  GnnTensor *result;
  VarCtx ctx;
  GnnNode *node;

  if (!gnn_dtype_is_floating (p->dtype))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE,
                   "var(): std and var only support floating point and complex dtypes, got %s",
                   gnn_dtype_get_name (p->dtype));
      return NULL;
    }
  if (!reduce_plan ("var", p, dims, n_dims, keepdim, &ctx.plan, error))
    return NULL;
  if (!(in = gnn_reduce_prepare (self, &ctx.plan, compute, error)) ||
      !(out = gnn_tensor_new_like (self, compute, ctx.plan.out_ndim, ctx.plan.out_shape, error)))
    return NULL;
  if (ctx.plan.outer * ctx.plan.inner > 0 &&
      !run_layout_kernel (GNN_BACKEND_OP_VAR, TRUE, out, NULL, in, NULL, ctx.plan.outer, ctx.plan.r,
                          ctx.plan.inner, correction, error))
    return NULL;
  if (!(result = gnn_tensor_cast (out, p->dtype, error)))
    return NULL;
  ctx.scale = 2.0 / ((double) plan_count (&ctx.plan, p) - correction);
  if ((node = gnn_autograd_record ("VarBackward0", var_backward, &self, 1, &result, 1)))
    {
      gnn_node_save (node, self);
      gnn_node_set_ctx (node, g_memdup2 (&ctx, sizeof ctx), g_free);
    }
  return result;
}

/**
 * gnn_tensor_var:
 * @self: a floating-point tensor
 * @dims: (array length=n_dims) (nullable): the dimensions to reduce; none for all
 * @n_dims: the number of dimensions in @dims
 * @correction: the difference between the number of reduced elements N and the divisor:
 *   1 for the unbiased (Bessel-corrected) estimate, 0 for the population variance
 * @keepdim: whether to keep the reduced dimensions with size one
 * @error: return location for a #GError
 *
 * The variance over @dims (`torch.var (self, dims, correction=correction, keepdim=keepdim)`):
 * Σ (x - mean)² / max (0, N - @correction). Fewer than @correction + 1 elements give NaN or
 * infinity as in PyTorch. Float32 accumulates in double; the result does not depend on the
 * thread count.
 *
 * Returns: (transfer full): the variance, or %NULL with @error set
 */
GnnTensor *
gnn_tensor_var (GnnTensor *self, const int *dims, guint n_dims, double correction, gboolean keepdim,
                GError **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  g_return_val_if_fail (dims != NULL || n_dims == 0, NULL);
  return var_impl (self, dims, n_dims, correction, keepdim, error);
}

/**
 * gnn_tensor_var_all:
 * @self: a floating-point tensor
 * @correction: 1 for the unbiased estimate, 0 for the population variance
 * @error: return location for a #GError
 *
 * The variance of every element (`torch.var (self, correction=correction)`).
 *
 * Returns: (transfer full): a zero-dimensional variance, or %NULL with @error set
 */
GnnTensor *
gnn_tensor_var_all (GnnTensor *self, double correction, GError **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  return var_impl (self, NULL, 0, correction, FALSE, error);
}

/* ---- max / min / argmax / argmin ---------------------------------------------------- */

/* Runs MAX or MIN over @plan: the values in @self's dtype and the int64 indices along the
 * reduced block (flat, row-major, when every dimension is reduced). No autograd. */
static gboolean
minmax_kernel (GnnTensor *self, ReducePlan *plan, gboolean is_max, GnnTensor **values,
               GnnTensor **indices, GError **error)
{
  GnnTensorPrivate *p = gnn_tensor_priv (self);
  GnnDtype compute = gnn_compute_dtype (p->dtype);
  g_autoptr(GnnTensor) in = NULL, out = NULL, idx = NULL;

  if (!(in = gnn_reduce_prepare (self, plan, compute, error)) ||
      !(out = gnn_tensor_new_like (self, compute, plan->out_ndim, plan->out_shape, error)) ||
      !(idx = gnn_tensor_new_like (self, GNN_DTYPE_INT64, plan->out_ndim, plan->out_shape, error)))
    return FALSE;
  if (plan->outer * plan->inner > 0 &&
      !run_layout_kernel (is_max ? GNN_BACKEND_OP_MAX : GNN_BACKEND_OP_MIN, TRUE, out, idx, in, NULL,
                          plan->outer, plan->r, plan->inner, 0, error))
    return FALSE;
  if (values && !(*values = gnn_tensor_cast (out, p->dtype, error)))
    return FALSE;
  if (indices)
    *indices = g_steal_pointer (&idx);
  return TRUE;
}

/* Checks what PyTorch checks before a max / min / amax / amin / argmax / argmin: the reduced
 * dimensions (every one when @n_dims is 0) must not be empty. */
static gboolean
minmax_plan (const char *op, GnnTensor *self, const int *dims, guint n_dims, gboolean keepdim,
             ReducePlan *plan, GError **error)
{
  GnnTensorPrivate *p = gnn_tensor_priv (self);

  if (!reduce_plan (op, p, dims, n_dims, keepdim, plan, error))
    return FALSE;
  if (n_dims == 0 && gnn_shape_numel (p->ndim, p->shape) == 0)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INDEX,
                   "%s(): Expected reduction dim to be specified for input.numel() == 0. Specify the "
                   "reduction dim with the 'dim' argument.", op);
      return FALSE;
    }
  for (guint i = 0; n_dims > 0 && i < p->ndim; i++)
    if (plan->reduced[i] && p->shape[i] == 0)
      {
        g_set_error (error, GNN_ERROR, GNN_ERROR_INDEX,
                     "%s(): Expected reduction dim %u to have non-zero size.", op, i);
        return FALSE;
      }
  return TRUE;
}

typedef struct {
  guint dim;         /* the reduced dimension of the input */
} MinMaxDimCtx;

/* max / min over a dim: the gradient goes to the returned index */
static gboolean
minmax_dim_backward (GnnNode *node, GnnTensor **go, GnnTensor **gi, GError **error)
{
  MinMaxDimCtx *ctx = node->ctx;

  return gnn_index_add_backward (node, GNN_BACKEND_OP_SCATTER_ADD, ctx->dim, go, gi, error);
}

static GnnTensor *
minmax_dim (gboolean is_max, GnnTensor *self, int dim, gboolean keepdim, GnnTensor **indices,
            GError **error)
{
  ReducePlan plan;
  MinMaxDimCtx ctx = { 0 };
  GnnTensor *values = NULL;
  g_autoptr(GnnTensor) idx = NULL;
  GnnNode *node;

  if (!minmax_plan (is_max ? "max" : "min", self, &dim, 1, keepdim, &plan, error) ||
      !minmax_kernel (self, &plan, is_max, &values, &idx, error))
    return NULL;
  for (guint i = 0; i < plan.ndim; i++)
    if (plan.reduced[i])
      ctx.dim = i;
  node = gnn_autograd_record (is_max ? "MaxBackward0" : "MinBackward0", minmax_dim_backward,
                              &self, 1, &values, 1);
  if (node)
    {
      gnn_node_save (node, idx);
      gnn_node_set_ctx (node, g_memdup2 (&ctx, sizeof ctx), g_free);
    }
  if (indices)
    *indices = g_steal_pointer (&idx);
  return values;
}

/**
 * gnn_tensor_max_dim:
 * @self: a tensor
 * @dim: the dimension to reduce
 * @keepdim: whether to keep @dim with size one
 * @indices: (out) (transfer full) (optional): return location for the int64 indices of the
 *   maxima along @dim, or %NULL
 * @error: return location for a #GError
 *
 * The maximum over @dim and where it is (`torch.max (self, dim, keepdim)`). Of equal maxima
 * the first index is returned; NaN counts as larger than any number. The gradient flows to
 * the returned index.
 *
 * Returns: (transfer full): the maxima, in @self's dtype, or %NULL with @error set
 */
GnnTensor *
gnn_tensor_max_dim (GnnTensor *self, int dim, gboolean keepdim, GnnTensor **indices, GError **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  return minmax_dim (TRUE, self, dim, keepdim, indices, error);
}

/**
 * gnn_tensor_min_dim:
 * @self: a tensor
 * @dim: the dimension to reduce
 * @keepdim: whether to keep @dim with size one
 * @indices: (out) (transfer full) (optional): return location for the int64 indices of the
 *   minima along @dim, or %NULL
 * @error: return location for a #GError
 *
 * The minimum over @dim and where it is (`torch.min (self, dim, keepdim)`). Of equal minima
 * the first index is returned; NaN counts as smaller than any number. The gradient flows to
 * the returned index.
 *
 * Returns: (transfer full): the minima, in @self's dtype, or %NULL with @error set
 */
GnnTensor *
gnn_tensor_min_dim (GnnTensor *self, int dim, gboolean keepdim, GnnTensor **indices, GError **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  return minmax_dim (FALSE, self, dim, keepdim, indices, error);
}

/* max / min of everything: the gradient is shared evenly by every element equal to the
 * result (every NaN when the result is NaN), as PyTorch's evenly_distribute_backward */
static gboolean
minmax_all_backward (GnnNode *node, GnnTensor **go, GnnTensor **gi, GError **error)
{
  double value = *(double *) node->ctx;
  GnnTensor *x;
  g_autoptr(GnnTensor) mask = NULL, count = NULL, g = NULL, zero = NULL, t = NULL;

  if (go[0] == NULL || !NEEDS (0))
    return TRUE;
  if (!(x = gnn_node_saved (node, 0, error)))
    return FALSE;
  if (!(mask = isnan (value) ? gnn_tensor_ne (x, x, error) : gnn_tensor_eq_scalar (x, value, error)) ||
      !(count = gnn_tensor_sum_all (mask, error)) ||
      !(g = gnn_tensor_div_scalar (go[0], gnn_tensor_item (count, NULL), error)) ||
      !(zero = gnn_tensor_new_like (go[0], gnn_tensor_priv (go[0])->dtype, 0, NULL, error)) ||
      !gnn_tensor_zero_ (zero, error) ||
      !(t = gnn_where (mask, g, zero, error)))
    return FALSE;
  gi[0] = gnn_tensor_cast (t, node->in_dtype[0], error);
  return gi[0] != NULL;
}

static GnnTensor *
minmax_all (gboolean is_max, GnnTensor *self, GError **error)
{
  ReducePlan plan;
  GnnTensor *values = NULL;
  GnnNode *node;

  if (!minmax_plan (is_max ? "max" : "min", self, NULL, 0, FALSE, &plan, error) ||
      !minmax_kernel (self, &plan, is_max, &values, NULL, error))
    return NULL;
  node = gnn_autograd_record (is_max ? "MaxBackward1" : "MinBackward1", minmax_all_backward,
                              &self, 1, &values, 1);
  if (node)
    {
      double *value = g_new (double, 1);
      *value = gnn_tensor_item (values, NULL);
      gnn_node_save (node, self);
      gnn_node_set_ctx (node, value, g_free);
    }
  return values;
}

/**
 * gnn_tensor_max_all:
 * @self: a tensor with at least one element
 * @error: return location for a #GError
 *
 * The largest element (`torch.max (self)`), NaN if any element is NaN. The gradient is
 * shared evenly by all the elements equal to the maximum.
 *
 * Returns: (transfer full): a zero-dimensional tensor of @self's dtype, or %NULL with
 *   @error set
 */
GnnTensor *
gnn_tensor_max_all (GnnTensor *self, GError **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  return minmax_all (TRUE, self, error);
}

/**
 * gnn_tensor_min_all:
 * @self: a tensor with at least one element
 * @error: return location for a #GError
 *
 * The smallest element (`torch.min (self)`), NaN if any element is NaN. The gradient is
 * shared evenly by all the elements equal to the minimum.
 *
 * Returns: (transfer full): a zero-dimensional tensor of @self's dtype, or %NULL with
 *   @error set
 */
GnnTensor *
gnn_tensor_min_all (GnnTensor *self, GError **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  return minmax_all (FALSE, self, error);
}

/* amax / amin over dims: the gradient is shared evenly by the elements of each reduced
 * group that equal its extreme, as PyTorch's scale_grad_by_count (grad / count * mask, so
 * that a group whose extreme is NaN, where no element equals it, gets NaN) */
static gboolean
amax_backward (GnnNode *node, GnnTensor **go, GnnTensor **gi, GError **error)
{
  ReducePlan *plan = node->ctx;
  int dims[GNN_MAX_DIMS];
  guint n_dims = 0;
  GnnTensor *x, *out;
  g_autoptr(GnnTensor) y = NULL, mask = NULL, count = NULL, g = NULL, share = NULL, t = NULL;

  if (go[0] == NULL || !NEEDS (0))
    return TRUE;
  for (guint i = 0; i < plan->ndim; i++)
    if (plan->reduced[i])
      dims[n_dims++] = (int) i;
  if (!(x = gnn_node_saved (node, 0, error)) || !(out = gnn_node_saved (node, 1, error)) ||
      !(y = gnn_tensor_reshape (out, plan->keep_shape, plan->ndim, error)))
    return FALSE;
  if (!(mask = gnn_tensor_eq (x, y, error)) ||
      !(count = gnn_tensor_sum (mask, dims, n_dims, TRUE, error)) ||
      !(g = gnn_tensor_reshape (go[0], plan->keep_shape, plan->ndim, error)) ||
      !(share = gnn_tensor_div (g, count, error)) ||
      !(t = gnn_tensor_mul (share, mask, error)))
    return FALSE;
  gi[0] = gnn_tensor_cast (t, node->in_dtype[0], error);
  return gi[0] != NULL;
}

static GnnTensor *
amax_amin (gboolean is_max, GnnTensor *self, const int *dims, guint n_dims, gboolean keepdim,
           GError **error)
{
  ReducePlan plan;
  GnnTensor *values = NULL;
  GnnNode *node;

  if (!minmax_plan (is_max ? "amax" : "amin", self, dims, n_dims, keepdim, &plan, error) ||
      !minmax_kernel (self, &plan, is_max, &values, NULL, error))
    return NULL;
  node = gnn_autograd_record (is_max ? "AmaxBackward0" : "AminBackward0", amax_backward,
                              &self, 1, &values, 1);
  if (node)
    {
      /* the output itself, reshaped with keepdim in backward: a saved view of it would hold
       * it, and through it this node, in a cycle that was never freed */
      gnn_node_save (node, self);
      gnn_node_save (node, values);
      gnn_node_set_ctx (node, g_memdup2 (&plan, sizeof plan), g_free);
    }
  return values;
}

/**
 * gnn_tensor_amax:
 * @self: a tensor
 * @dims: (array length=n_dims) (nullable): the dimensions to reduce; none for all
 * @n_dims: the number of dimensions in @dims
 * @keepdim: whether to keep the reduced dimensions with size one
 * @error: return location for a #GError
 *
 * The maximum over @dims (`torch.amax (self, dims, keepdim)`), NaN where a group holds a NaN.
 * Unlike [method@Gnn.Tensor.max_dim], the gradient is shared evenly by all the elements of a
 * group equal to its maximum.
 *
 * Returns: (transfer full): the maxima, in @self's dtype, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_amax (GnnTensor *self, const int *dims, guint n_dims, gboolean keepdim, GError **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  g_return_val_if_fail (dims != NULL || n_dims == 0, NULL);
  return amax_amin (TRUE, self, dims, n_dims, keepdim, error);
}

/**
 * gnn_tensor_amin:
 * @self: a tensor
 * @dims: (array length=n_dims) (nullable): the dimensions to reduce; none for all
 * @n_dims: the number of dimensions in @dims
 * @keepdim: whether to keep the reduced dimensions with size one
 * @error: return location for a #GError
 *
 * The minimum over @dims (`torch.amin (self, dims, keepdim)`), as [method@Gnn.Tensor.amax].
 *
 * Returns: (transfer full): the minima, in @self's dtype, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_amin (GnnTensor *self, const int *dims, guint n_dims, gboolean keepdim, GError **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  g_return_val_if_fail (dims != NULL || n_dims == 0, NULL);
  return amax_amin (FALSE, self, dims, n_dims, keepdim, error);
}

static GnnTensor *
arg_minmax (gboolean is_max, GnnTensor *self, const int *dim, gboolean keepdim, GError **error)
{
  const char *op = is_max ? "argmax" : "argmin";
  ReducePlan plan;
  GnnTensor *indices = NULL;

  if (gnn_tensor_priv (self)->dtype == GNN_DTYPE_BOOL)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE, "%s(): not implemented for bool tensors", op);
      return NULL;
    }
  if (!minmax_plan (op, self, dim, dim ? 1 : 0, keepdim, &plan, error) ||
      !minmax_kernel (self, &plan, is_max, NULL, &indices, error))
    return NULL;
  return indices;
}

/**
 * gnn_tensor_argmax:
 * @self: a tensor
 * @dim: the dimension to reduce
 * @keepdim: whether to keep @dim with size one
 * @error: return location for a #GError
 *
 * The indices of the maxima along @dim (`torch.argmax (self, dim, keepdim)`): the first of
 * equal maxima, the first NaN if there is one.
 *
 * Returns: (transfer full): an int64 tensor, or %NULL with @error set
 */
GnnTensor *
gnn_tensor_argmax (GnnTensor *self, int dim, gboolean keepdim, GError **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  return arg_minmax (TRUE, self, &dim, keepdim, error);
}

/**
 * gnn_tensor_argmax_all:
 * @self: a tensor with at least one element
 * @error: return location for a #GError
 *
 * The index of the largest element in the flattened tensor (`torch.argmax (self)`).
 *
 * Returns: (transfer full): a zero-dimensional int64 tensor, or %NULL with @error set
 */
GnnTensor *
gnn_tensor_argmax_all (GnnTensor *self, GError **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  return arg_minmax (TRUE, self, NULL, FALSE, error);
}

/**
 * gnn_tensor_argmin:
 * @self: a tensor
 * @dim: the dimension to reduce
 * @keepdim: whether to keep @dim with size one
 * @error: return location for a #GError
 *
 * The indices of the minima along @dim (`torch.argmin (self, dim, keepdim)`): the first of
 * equal minima, the first NaN if there is one.
 *
 * Returns: (transfer full): an int64 tensor, or %NULL with @error set
 */
GnnTensor *
gnn_tensor_argmin (GnnTensor *self, int dim, gboolean keepdim, GError **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  return arg_minmax (FALSE, self, &dim, keepdim, error);
}

/* ---- softmax / log_softmax ---------------------------------------------------------- */

typedef struct {
  gint64 outer, r, inner;
  gboolean is_log;
  int dim;
} SoftmaxCtx;

/* softmax_backward under create_graph, in recording ops */
static gboolean
softmax_backward_differentiable (GnnNode *node, GnnTensor *g, GnnTensor *y, GnnTensor **gi, GError **error)
{
  SoftmaxCtx *ctx = node->ctx;
  g_autoptr(GnnTensor) gy = NULL, s = NULL, d = NULL, e = NULL, t = NULL;

  if (ctx->is_log)
    {
      /* g − e^y Σ g */
      if (!(s = gnn_tensor_sum (g, &ctx->dim, 1, TRUE, error)) || !(e = gnn_tensor_exp (y, error)) ||
          !(t = gnn_tensor_mul (e, s, error)) || !(d = gnn_tensor_sub (g, t, 1.0, error)))
        return FALSE;
    }
  else
    {
      /* y (g − Σ g y) */
      if (!(gy = gnn_tensor_mul (g, y, error)) || !(s = gnn_tensor_sum (gy, &ctx->dim, 1, TRUE, error)) ||
          !(t = gnn_tensor_sub (g, s, 1.0, error)) || !(d = gnn_tensor_mul (y, t, error)))
        return FALSE;
    }
  gi[0] = gnn_tensor_cast (d, node->in_dtype[0], error);
  return gi[0] != NULL;
}

/* softmax: gi = y * (g - Σ g y); log_softmax: gi = g - exp (y) Σ g (y the saved result) */
static gboolean
softmax_backward (GnnNode *node, GnnTensor **go, GnnTensor **gi, GError **error)
{
  SoftmaxCtx *ctx = node->ctx;
  GnnDtype compute = gnn_compute_dtype (node->in_dtype[0]);
  GnnTensor *y;
  g_autoptr(GnnTensor) g = NULL, yc = NULL, out = NULL;

  if (go[0] == NULL || !NEEDS (0))
    return TRUE;
  if (!(y = gnn_node_saved (node, 0, error)))
    return FALSE;
  if (gnn_is_grad_enabled ())
    return softmax_backward_differentiable (node, go[0], y, gi, error);
  if (!(g = gnn_tensor_contiguous_as (go[0], compute, error)) ||
      !(yc = gnn_tensor_contiguous_as (y, compute, error)) ||
      !(out = gnn_tensor_new_like (y, compute, node->in_ndim[0], node->in_shape[0], error)))
    return FALSE;
  if (ctx->outer * ctx->r * ctx->inner > 0 &&
      !run_layout_kernel (ctx->is_log ? GNN_BACKEND_OP_LOG_SOFTMAX_BACKWARD : GNN_BACKEND_OP_SOFTMAX_BACKWARD,
                          FALSE, out, NULL, g, yc, ctx->outer, ctx->r, ctx->inner, 0, error))
    return FALSE;
  gi[0] = gnn_tensor_cast (out, node->in_dtype[0], error);
  return gi[0] != NULL;
}

static GnnTensor *
softmax_impl (gboolean is_log, GnnTensor *self, int dim, GError **error)
{
  const char *op = is_log ? "log_softmax" : "softmax";
  GnnTensorPrivate *p = gnn_tensor_priv (self);
  GnnDtype compute = gnn_compute_dtype (p->dtype);
  SoftmaxCtx ctx = { 1, 1, 1, is_log, 0 };
  g_autoptr(GnnTensor) in = NULL, out = NULL;
  GnnTensor *result;
  GnnNode *node;
  guint d;

  if (!gnn_check_floating (op, self, error))
    return NULL;
  if (!gnn_normalize_dim (dim, p->ndim, &d, error))
    {
      g_prefix_error (error, "%s: ", op);
      return NULL;
    }
  ctx.dim = (int) d;
  for (guint i = 0; i < p->ndim; i++)
    {
      if (i < d)
        ctx.outer *= p->shape[i];
      else if (i == d)
        ctx.r = p->shape[i];
      else
        ctx.inner *= p->shape[i];
    }
  if (!(in = gnn_tensor_contiguous_as (self, compute, error)) ||
      !(out = gnn_tensor_new_like (self, compute, p->ndim, p->shape, error)))
    return NULL;
  if (ctx.outer * ctx.r * ctx.inner > 0 &&
      !run_layout_kernel (is_log ? GNN_BACKEND_OP_LOG_SOFTMAX : GNN_BACKEND_OP_SOFTMAX, FALSE, out, NULL,
                          in, NULL, ctx.outer, ctx.r, ctx.inner, 0, error))
    return NULL;
  if (!(result = gnn_tensor_cast (out, p->dtype, error)))
    return NULL;
  node = gnn_autograd_record (is_log ? "LogSoftmaxBackward0" : "SoftmaxBackward0", softmax_backward,
                              &self, 1, &result, 1);
  if (node)
    {
      gnn_node_save (node, result);
      gnn_node_set_ctx (node, g_memdup2 (&ctx, sizeof ctx), g_free);
    }
  return result;
}

/**
 * gnn_tensor_softmax:
 * @self: a floating-point tensor
 * @dim: the dimension along which the outputs sum to one
 * @error: return location for a #GError
 *
 * exp (x) / Σ exp (x) along @dim (`torch.softmax (self, dim)`), computed stably by
 * subtracting the maximum first; float32 sums accumulate in double.
 *
 * Returns: (transfer full): the softmax, shaped as @self, or %NULL with @error set
 */
GnnTensor *
gnn_tensor_softmax (GnnTensor *self, int dim, GError **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  {
    GnnTensor *ac_in[1] = { self }, *c[1];
    int ac = gnn_autocast_operands (GNN_AUTOCAST_OP_SOFTMAX, ac_in, 1, c, error);

    if (ac != 0)
      {
        GnnTensor *r = ac < 0 ? NULL : gnn_tensor_softmax (c[0], dim, error);

        gnn_autocast_operands_clear (c, 1);
        return r;
      }
  }
  return softmax_impl (FALSE, self, dim, error);
}

/**
 * gnn_tensor_log_softmax:
 * @self: a floating-point tensor
 * @dim: the dimension to normalise over
 * @error: return location for a #GError
 *
 * x - log Σ exp (x) along @dim (`torch.log_softmax (self, dim)`), computed stably by
 * subtracting the maximum first; float32 sums accumulate in double.
 *
 * Returns: (transfer full): the log-softmax, shaped as @self, or %NULL with @error set
 */
GnnTensor *
gnn_tensor_log_softmax (GnnTensor *self, int dim, GError **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  {
    GnnTensor *ac_in[1] = { self }, *c[1];
    int ac = gnn_autocast_operands (GNN_AUTOCAST_OP_SOFTMAX, ac_in, 1, c, error);

    if (ac != 0)
      {
        GnnTensor *r = ac < 0 ? NULL : gnn_tensor_log_softmax (c[0], dim, error);

        gnn_autocast_operands_clear (c, 1);
        return r;
      }
  }
  return softmax_impl (TRUE, self, dim, error);
}

/* ---- reductions written with other ops ---------------------------------------------- */

/* @kept, a result with keepdim, reshaped to @plan's output shape (without autograd: the
 * caller records the op's own node on the result) */
static GnnTensor *
plan_output (GnnTensor *kept, const ReducePlan *plan, GError **error)
{
  g_autoptr(GnnNoGradGuard) guard = gnn_no_grad_guard_new ();

  return gnn_tensor_reshape (kept, plan->out_shape, plan->out_ndim, error);
}

/* ---- logsumexp ---- */

/* logsumexp over the dims of @plan with keepdim, stably as m + log Σ exp (x - m) with m the
 * maximum taken as a constant (zero where it is infinite, so that rows of -inf give -inf
 * and rows holding +inf give +inf rather than NaN). Differentiable in @x. */
static GnnTensor *
logsumexp_kept (GnnTensor *x, const ReducePlan *plan, GError **error)
{
  int dims[GNN_MAX_DIMS];
  guint n_dims = plan_dims (plan, dims);
  g_autoptr(GnnTensor) m = NULL, inf = NULL, shift = NULL, d = NULL, e = NULL, s = NULL, l = NULL;

  {
    g_autoptr(GnnNoGradGuard) guard = gnn_no_grad_guard_new ();

    if (!(m = gnn_tensor_amax (x, dims, n_dims, TRUE, error)) || !(inf = gnn_tensor_isinf (m, error)) ||
        !(shift = gnn_where_scalar (inf, 0.0, m, error)))
      return NULL;
  }
  if (!(d = gnn_tensor_sub (x, shift, 1.0, error)) || !(e = gnn_tensor_exp (d, error)) ||
      !(s = gnn_tensor_sum (e, dims, n_dims, TRUE, error)) || !(l = gnn_tensor_log (s, error)))
    return NULL;
  return gnn_tensor_add (l, shift, 1.0, error);
}

/* logsumexp: gi = g · exp (x - out), PyTorch's formula (NaN in rows of -inf, as there) */
static gboolean
logsumexp_backward (GnnNode *node, GnnTensor **go, GnnTensor **gi, GError **error)
{
  ReducePlan *plan = node->ctx;
  GnnTensor *x, *out;
  g_autoptr(GnnTensor) y = NULL, g = NULL, d = NULL, e = NULL;

  if (go[0] == NULL || !NEEDS (0))
    return TRUE;
  if (!(x = gnn_node_saved (node, 0, error)) || !(out = gnn_node_saved (node, 1, error)) ||
      !(y = gnn_tensor_reshape (out, plan->keep_shape, plan->ndim, error)) ||
      !(g = gnn_tensor_reshape (go[0], plan->keep_shape, plan->ndim, error)) ||
      !(d = gnn_tensor_sub (x, y, 1.0, error)) || !(e = gnn_tensor_exp (d, error)))
    return FALSE;
  gi[0] = gnn_tensor_mul (e, g, error);
  return gi[0] != NULL;
}

/**
 * gnn_tensor_logsumexp:
 * @self: a tensor; integer and bool tensors are converted to float32
 * @dims: (array length=n_dims) (nullable): the dimensions to reduce; none for all
 * @n_dims: the number of dimensions in @dims
 * @keepdim: whether to keep the reduced dimensions with size one
 * @error: return location for a #GError
 *
 * log Σ exp (x) over @dims (`torch.logsumexp (self, dims, keepdim)`), computed stably by
 * taking the maximum out first: large values do not overflow, a group of -inf (or an empty
 * group) gives -inf and a group holding +inf gives +inf. The gradient (`LogsumexpBackward0`)
 * is the softmax of the group, g · exp (x - logsumexp), and differentiates again.
 *
 * Returns: (transfer full): the result, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_logsumexp (GnnTensor *self, const int *dims, guint n_dims, gboolean keepdim, GError **error)
{
  GnnTensorPrivate *p;
  ReducePlan plan;
  g_autoptr(GnnTensor) x = NULL, kept = NULL;
  GnnTensor *out;
  GnnNode *node;

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  g_return_val_if_fail (dims != NULL || n_dims == 0, NULL);
  p = gnn_tensor_priv (self);
  if (!reduce_plan ("logsumexp", p, dims, n_dims, keepdim, &plan, error))
    return NULL;
  {
    g_autoptr(GnnNoGradGuard) guard = gnn_no_grad_guard_new ();

    x = gnn_dtype_is_floating (p->dtype) ? g_object_ref (self) : gnn_tensor_to_dtype (self, GNN_DTYPE_FLOAT32, error);
    if (x == NULL)
      return NULL;
    if (gnn_tensor_get_numel (x) == 0)
      kept = gnn_tensor_new_full (plan.keep_shape, plan.ndim, -INFINITY, gnn_tensor_get_dtype (x),
                                  gnn_tensor_get_device (x), error);
    else
      kept = logsumexp_kept (x, &plan, error);
    if (kept == NULL || !(out = plan_output (kept, &plan, error)))
      return NULL;
  }
  if ((node = gnn_autograd_record ("LogsumexpBackward0", logsumexp_backward, &self, 1, &out, 1)))
    {
      /* the output itself, reshaped in backward (a saved view of it would hold the node) */
      gnn_node_save (node, self);
      gnn_node_save (node, out);
      gnn_node_set_ctx (node, g_memdup2 (&plan, sizeof plan), g_free);
    }
  return out;
}

/* ---- prod ---- */

typedef struct {
  gboolean all;          /* over every element: the input flattened, dim 0 */
  int dim;
  guint ndim;            /* of the (flattened) input */
  gint64 keep_shape[GNN_MAX_DIMS];
} ProdCtx;

/* The product along @dim with keepdim, as the last of the prefix products (one where @dim
 * is empty). No autograd. */
static GnnTensor *
prod_kept (GnnTensor *x, int dim, const gint64 *keep_shape, GError **error)
{
  g_autoptr(GnnNoGradGuard) guard = gnn_no_grad_guard_new ();
  GnnTensorPrivate *p = gnn_tensor_priv (x);
  gint64 n = p->shape[dim];
  g_autoptr(GnnTensor) c = NULL, last = NULL;

  if (gnn_tensor_get_numel (x) == 0)
    return gnn_tensor_new_full (keep_shape, p->ndim, n == 0 ? 1.0 : 0.0, p->dtype, gnn_tensor_get_device (x), error);
  if (!(c = gnn_tensor_cumprod (x, dim, error)) || !(last = gnn_tensor_narrow (c, dim, n - 1, 1, error)))
    return NULL;
  return gnn_tensor_contiguous (last, error);
}

/* @x reversed along @dim (its n elements), by index_select so that it has a gradient */
static GnnTensor *
reverse_along (GnnTensor *x, int dim, gint64 n, GError **error)
{
  g_autoptr(GnnTensor) index = gnn_tensor_new_arange ((double) n - 1, -1.0, -1.0, GNN_DTYPE_INT64,
                                                      gnn_tensor_get_device (x), error);

  return index ? gnn_tensor_index_select (x, dim, index, error) : NULL;
}

/* The gradient of the product along @dim for g (with keepdim): at each element the product
 * of the others, as the product of the elements before it times that of the elements after
 * it (exclusive prefix products, from the left and from the right), PyTorch's formula for
 * inputs with zeros, exact with any number of them. Written with ops (cumprod, cat,
 * index_select), so that it differentiates again, at the zeros too. */
static GnnTensor *
prod_grad (GnnTensor *x, int dim, GnnTensor *g, GError **error)
{
  GnnTensorPrivate *p = gnn_tensor_priv (x);
  gint64 n = p->ndim == 0 ? 1 : p->shape[dim];
  gint64 keep_shape[GNN_MAX_DIMS];
  g_autoptr(GnnTensor) one = NULL, head = NULL, tail = NULL, tail_r = NULL, lcat = NULL, left = NULL,
    rcat = NULL, rprod = NULL, right = NULL, lr = NULL;
  GnnTensor *parts[2];

  if (n <= 1)
    return gnn_tensor_expand (g, p->shape, p->ndim, error);
  memcpy (keep_shape, p->shape, p->ndim * sizeof (gint64));
  keep_shape[dim] = 1;
  if (!(one = gnn_tensor_new_ones (keep_shape, p->ndim, p->dtype, gnn_tensor_get_device (x), error)) ||
      !(head = gnn_tensor_narrow (x, dim, 0, n - 1, error)) || !(tail = gnn_tensor_narrow (x, dim, 1, n - 1, error)) ||
      !(tail_r = reverse_along (tail, dim, n - 1, error)))
    return NULL;
  parts[0] = one;
  parts[1] = head;
  if (!(lcat = gnn_cat (parts, 2, dim, error)) || !(left = gnn_tensor_cumprod (lcat, dim, error)))
    return NULL;
  parts[1] = tail_r;
  if (!(rcat = gnn_cat (parts, 2, dim, error)) || !(rprod = gnn_tensor_cumprod (rcat, dim, error)) ||
      !(right = reverse_along (rprod, dim, n, error)) || !(lr = gnn_tensor_mul (left, right, error)))
    return NULL;
  return gnn_tensor_mul (lr, g, error);
}

static gboolean
prod_backward (GnnNode *node, GnnTensor **go, GnnTensor **gi, GError **error)
{
  ProdCtx *ctx = node->ctx;
  GnnTensor *x;
  g_autoptr(GnnTensor) flat = NULL, g = NULL, grad = NULL;
  gint64 minus_one = -1;

  if (go[0] == NULL || !NEEDS (0))
    return TRUE;
  if (!(x = gnn_node_saved (node, 0, error)))
    return FALSE;
  flat = ctx->all ? gnn_tensor_reshape (x, &minus_one, 1, error) : g_object_ref (x);
  if (flat == NULL || !(g = gnn_tensor_reshape (go[0], ctx->keep_shape, ctx->ndim, error)) ||
      !(grad = prod_grad (flat, ctx->dim, g, error)))
    return FALSE;
  gi[0] = ctx->all ? gnn_tensor_reshape (grad, node->in_shape[0], node->in_ndim[0], error) : g_object_ref (grad);
  return gi[0] != NULL;
}

static GnnTensor *
prod_impl (GnnTensor *self, const int *dim, gboolean keepdim, GError **error)
{
  GnnTensorPrivate *p = gnn_tensor_priv (self);
  GnnDtype dtype = gnn_dtype_is_floating (p->dtype) ? p->dtype : GNN_DTYPE_INT64;
  ProdCtx ctx = { 0 };
  ReducePlan plan;
  g_autoptr(GnnTensor) x = NULL, kept = NULL;
  GnnTensor *out;
  GnnNode *node;
  gint64 minus_one = -1;

  ctx.all = dim == NULL;
  if (!reduce_plan ("prod", p, dim, dim ? 1 : 0, keepdim, &plan, error))
    return NULL;
  {
    g_autoptr(GnnNoGradGuard) guard = gnn_no_grad_guard_new ();
    g_autoptr(GnnTensor) converted = gnn_tensor_to_dtype (self, dtype, error);

    if (converted == NULL)
      return NULL;
    x = ctx.all ? gnn_tensor_reshape (converted, &minus_one, 1, error) : g_object_ref (converted);
    if (x == NULL)
      return NULL;
    ctx.ndim = gnn_tensor_get_ndim (x);
    if (ctx.all)
      ctx.keep_shape[0] = 1;
    else
      {
        ctx.dim = p->ndim == 0 ? 0 : *dim < 0 ? *dim + (int) p->ndim : *dim;
        memcpy (ctx.keep_shape, plan.keep_shape, sizeof ctx.keep_shape);
      }
    if (ctx.ndim == 0)
      kept = g_object_ref (x);    /* the product of one number */
    else if (!(kept = prod_kept (x, ctx.dim, ctx.keep_shape, error)))
      return NULL;
    if (ctx.ndim == 0)
      out = gnn_tensor_clone (kept, error);
    else if (ctx.all)
      out = gnn_tensor_reshape (kept, NULL, 0, error);
    else
      out = plan_output (kept, &plan, error);
    if (out == NULL)
      return NULL;
  }
  if (gnn_dtype_is_floating (dtype) &&
      (node = gnn_autograd_record (dim ? "ProdBackward1" : "ProdBackward0", prod_backward, &self, 1, &out, 1)))
    {
      gnn_node_save (node, self);
      gnn_node_set_ctx (node, g_memdup2 (&ctx, sizeof ctx), g_free);
    }
  return out;
}

/**
 * gnn_tensor_prod:
 * @self: a tensor
 * @dim: the dimension to multiply along
 * @keepdim: whether to keep @dim with size one
 * @error: return location for a #GError
 *
 * The product along @dim (`torch.prod (self, dim, keepdim)`); bool and integer tensors
 * multiply as int64 (pass `dtype=` by converting @self first). An empty @dim gives one. The
 * gradient (`ProdBackward1`) is the product of the other elements, exact with zeros, and
 * differentiates again.
 *
 * Returns: (transfer full): the product, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_prod (GnnTensor *self, int dim, gboolean keepdim, GError **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  return prod_impl (self, &dim, keepdim, error);
}

/**
 * gnn_tensor_prod_all:
 * @self: a tensor
 * @error: return location for a #GError
 *
 * The product of every element (`torch.prod (self)`), zero-dimensional, with the dtypes and
 * the gradient (`ProdBackward0`) of [method@Gnn.Tensor.prod].
 *
 * Returns: (transfer full): the product, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_prod_all (GnnTensor *self, GError **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  return prod_impl (self, NULL, FALSE, error);
}

/* ---- all / any / count_nonzero ---- */

static GnnTensor *
all_any (const char *op, gboolean is_all, GnnTensor *self, const int *dims, guint n_dims, gboolean keepdim,
         GError **error)
{
  GnnTensorPrivate *p = gnn_tensor_priv (self);
  g_autoptr(GnnNoGradGuard) guard = gnn_no_grad_guard_new ();
  ReducePlan plan;
  g_autoptr(GnnTensor) test = NULL, count = NULL, result = NULL;

  if (!reduce_plan (op, p, dims, n_dims, keepdim, &plan, error))
    return NULL;
  test = is_all ? gnn_tensor_eq_scalar (self, 0.0, error) : gnn_tensor_ne_scalar (self, 0.0, error);
  if (test == NULL || !(count = gnn_tensor_sum (test, dims, n_dims, keepdim, error)))
    return NULL;
  result = is_all ? gnn_tensor_eq_scalar (count, 0.0, error) : gnn_tensor_gt_scalar (count, 0.0, error);
  if (result == NULL)
    return NULL;
  return gnn_tensor_to_dtype (result, p->dtype == GNN_DTYPE_UINT8 ? GNN_DTYPE_UINT8 : GNN_DTYPE_BOOL, error);
}

/**
 * gnn_tensor_all:
 * @self: a tensor
 * @dims: (array length=n_dims) (nullable): the dimensions to reduce; none for all
 * @n_dims: the number of dimensions in @dims
 * @keepdim: whether to keep the reduced dimensions with size one
 * @error: return location for a #GError
 *
 * Whether every element over @dims is non-zero (`torch.all (self, dim, keepdim)`): bool, or
 * uint8 for a uint8 @self as in PyTorch; true over an empty group. NaN counts as non-zero.
 *
 * Returns: (transfer full): the result, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_all (GnnTensor *self, const int *dims, guint n_dims, gboolean keepdim, GError **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  g_return_val_if_fail (dims != NULL || n_dims == 0, NULL);
  return all_any ("all", TRUE, self, dims, n_dims, keepdim, error);
}

/**
 * gnn_tensor_any:
 * @self: a tensor
 * @dims: (array length=n_dims) (nullable): the dimensions to reduce; none for all
 * @n_dims: the number of dimensions in @dims
 * @keepdim: whether to keep the reduced dimensions with size one
 * @error: return location for a #GError
 *
 * Whether some element over @dims is non-zero (`torch.any (self, dim, keepdim)`): bool, or
 * uint8 for a uint8 @self; false over an empty group.
 *
 * Returns: (transfer full): the result, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_any (GnnTensor *self, const int *dims, guint n_dims, gboolean keepdim, GError **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  g_return_val_if_fail (dims != NULL || n_dims == 0, NULL);
  return all_any ("any", FALSE, self, dims, n_dims, keepdim, error);
}

/**
 * gnn_tensor_count_nonzero:
 * @self: a tensor
 * @dims: (array length=n_dims) (nullable): the dimensions to count over; none for all
 * @n_dims: the number of dimensions in @dims
 * @error: return location for a #GError
 *
 * The number of non-zero elements over @dims (`torch.count_nonzero (self, dims)`), int64,
 * without the counted dimensions.
 *
 * Returns: (transfer full): the counts, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_count_nonzero (GnnTensor *self, const int *dims, guint n_dims, GError **error)
{
  g_autoptr(GnnNoGradGuard) guard = NULL;
  g_autoptr(GnnTensor) nz = NULL;
  ReducePlan plan;

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  g_return_val_if_fail (dims != NULL || n_dims == 0, NULL);
  if (!reduce_plan ("count_nonzero", gnn_tensor_priv (self), dims, n_dims, FALSE, &plan, error))
    return NULL;
  guard = gnn_no_grad_guard_new ();
  if (!(nz = gnn_tensor_ne_scalar (self, 0.0, error)))
    return NULL;
  return gnn_tensor_sum (nz, dims, n_dims, FALSE, error);
}

/* ---- nansum / nanmean ---- */

/* nansum: the gradient passes where x is not NaN */
static gboolean
nansum_backward (GnnNode *node, GnnTensor **go, GnnTensor **gi, GError **error)
{
  ReducePlan *plan = node->ctx;
  GnnTensor *x;
  g_autoptr(GnnTensor) g = NULL, nan = NULL;

  if (go[0] == NULL || !NEEDS (0))
    return TRUE;
  if (!(x = gnn_node_saved (node, 0, error)) ||
      !(g = gnn_tensor_reshape (go[0], plan->keep_shape, plan->ndim, error)) ||
      !(nan = gnn_tensor_isnan (x, error)))
    return FALSE;
  gi[0] = gnn_where_scalar (nan, 0.0, g, error);
  return gi[0] != NULL;
}

/**
 * gnn_tensor_nansum:
 * @self: a tensor
 * @dims: (array length=n_dims) (nullable): the dimensions to sum over; none for all
 * @n_dims: the number of dimensions in @dims
 * @keepdim: whether to keep the summed dimensions with size one
 * @error: return location for a #GError
 *
 * The sum over @dims counting NaN as zero (`torch.nansum (self, dims, keepdim)`), with the
 * dtypes of [method@Gnn.Tensor.sum]. The gradient (`NansumBackward0`) is zero at the NaNs.
 *
 * Returns: (transfer full): the sum, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_nansum (GnnTensor *self, const int *dims, guint n_dims, gboolean keepdim, GError **error)
{
  GnnTensorPrivate *p;
  ReducePlan plan;
  GnnTensor *out;
  GnnNode *node;

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  g_return_val_if_fail (dims != NULL || n_dims == 0, NULL);
  p = gnn_tensor_priv (self);
  if (!gnn_dtype_is_floating (p->dtype))
    return gnn_tensor_sum (self, dims, n_dims, keepdim, error);
  if (!reduce_plan ("nansum", p, dims, n_dims, keepdim, &plan, error))
    return NULL;
  {
    g_autoptr(GnnNoGradGuard) guard = gnn_no_grad_guard_new ();
    g_autoptr(GnnTensor) nan = NULL, clean = NULL;

    if (!(nan = gnn_tensor_isnan (self, error)) || !(clean = gnn_where_scalar (nan, 0.0, self, error)) ||
        !(out = gnn_tensor_sum (clean, dims, n_dims, keepdim, error)))
      return NULL;
  }
  if ((node = gnn_autograd_record ("NansumBackward0", nansum_backward, &self, 1, &out, 1)))
    {
      gnn_node_save (node, self);
      gnn_node_set_ctx (node, g_memdup2 (&plan, sizeof plan), g_free);
    }
  return out;
}

/**
 * gnn_tensor_nanmean:
 * @self: a floating-point tensor
 * @dims: (array length=n_dims) (nullable): the dimensions to average over; none for all
 * @n_dims: the number of dimensions in @dims
 * @keepdim: whether to keep the averaged dimensions with size one
 * @error: return location for a #GError
 *
 * The mean over @dims of the elements that are not NaN (`torch.nanmean (self, dims,
 * keepdim)`): [method@Gnn.Tensor.nansum] divided by their count, NaN where all are NaN. As
 * in PyTorch, the result is that division (`DivBackward0`).
 *
 * Returns: (transfer full): the mean, or %NULL with @error set (%GNN_ERROR_DTYPE for an
 *   integer or bool @self)
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_nanmean (GnnTensor *self, const int *dims, guint n_dims, gboolean keepdim, GError **error)
{
  GnnTensorPrivate *p;
  g_autoptr(GnnTensor) s = NULL, nan = NULL, kept = NULL, count = NULL;

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  g_return_val_if_fail (dims != NULL || n_dims == 0, NULL);
  p = gnn_tensor_priv (self);
  if (!gnn_dtype_is_floating (p->dtype))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE,
                   "nanmean(): expected input to have floating point dtype but got %s",
                   gnn_dtype_get_name (p->dtype));
      return NULL;
    }
  if (!(s = gnn_tensor_nansum (self, dims, n_dims, keepdim, error)))
    return NULL;
  {
    g_autoptr(GnnNoGradGuard) guard = gnn_no_grad_guard_new ();

    if (!(nan = gnn_tensor_isnan (self, error)) || !(kept = gnn_tensor_eq_scalar (nan, 0.0, error)) ||
        !(count = gnn_tensor_sum (kept, dims, n_dims, keepdim, error)))
      return NULL;
  }
  return gnn_tensor_div (s, count, error);
}

/* ---- var_mean / std_mean ---- */

typedef struct {
  ReducePlan plan;
  gboolean std;
  double scale;     /* 2 / (N - correction) */
  double inv_count; /* 1 / N */
} VarMeanCtx;

/* var_mean / std_mean: the variance's gradient 2 (x - mean) g / (N - correction) (for std,
 * with g / (2 std), zero where std is zero, as PyTorch's std_backward) plus the mean's,
 * g / N, both broadcast over the reduced dimensions; written with ops */
static gboolean
var_mean_backward (GnnNode *node, GnnTensor **go, GnnTensor **gi, GError **error)
{
  VarMeanCtx *ctx = node->ctx;
  ReducePlan *plan = &ctx->plan;
  int dims[GNN_MAX_DIMS];
  guint n_dims = plan_dims (plan, dims);
  GnnTensor *x;
  g_autoptr(GnnTensor) gv = NULL, gm = NULL;

  if ((go[0] == NULL && go[1] == NULL) || !NEEDS (0))
    return TRUE;
  if (!(x = gnn_node_saved (node, 0, error)))
    return FALSE;
  if (go[0] != NULL)
    {
      g_autoptr(GnnTensor) g = NULL, mean = NULL, diff = NULL, t = NULL;

      if (!(g = gnn_tensor_reshape (go[0], plan->keep_shape, plan->ndim, error)))
        return FALSE;
      if (ctx->std)
        {
          GnnTensor *out;
          g_autoptr(GnnTensor) s = NULL, s2 = NULL, q = NULL, zero = NULL;

          if (!(out = gnn_node_saved (node, 1, error)) ||
              !(s = gnn_tensor_reshape (out, plan->keep_shape, plan->ndim, error)) ||
              !(s2 = gnn_tensor_mul_scalar (s, 2.0, error)) || !(q = gnn_tensor_div (g, s2, error)) ||
              !(zero = gnn_tensor_eq_scalar (s, 0.0, error)))
            return FALSE;
          g_object_unref (g);
          if (!(g = gnn_where_scalar (zero, 0.0, q, error)))
            return FALSE;
        }
      if (!(mean = gnn_tensor_mean (x, dims, n_dims, TRUE, error)) ||
          !(diff = gnn_tensor_sub (x, mean, 1.0, error)) || !(t = gnn_tensor_mul (diff, g, error)) ||
          !(gv = gnn_tensor_mul_scalar (t, ctx->scale, error)))
        return FALSE;
    }
  if (go[1] != NULL)
    {
      g_autoptr(GnnTensor) g = NULL, k = NULL;

      if (!(g = gnn_tensor_mul_scalar (go[1], ctx->inv_count, error)) ||
          !(k = gnn_tensor_reshape (g, plan->keep_shape, plan->ndim, error)) ||
          !(gm = gnn_tensor_expand (k, node->in_shape[0], node->in_ndim[0], error)))
        return FALSE;
    }
  if (gv != NULL && gm != NULL)
    gi[0] = gnn_tensor_add (gv, gm, 1.0, error);
  else
    gi[0] = g_object_ref (gv != NULL ? gv : gm);
  return gi[0] != NULL;
}

static GnnTensor *
var_mean_impl (gboolean std, GnnTensor *self, const int *dims, guint n_dims, double correction,
               gboolean keepdim, GnnTensor **mean, GError **error)
{
  const char *op = std ? "std_mean" : "var_mean";
  GnnTensorPrivate *p = gnn_tensor_priv (self);
  VarMeanCtx ctx;
  g_autoptr(GnnTensor) v = NULL, m = NULL;
  GnnTensor *outs[2];
  GnnNode *node;
  gint64 count;

  if (!gnn_dtype_is_floating (p->dtype))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE,
                   "%s only support floating point and complex dtypes, got %s", op, gnn_dtype_get_name (p->dtype));
      return NULL;
    }
  if (!reduce_plan (op, p, dims, n_dims, keepdim, &ctx.plan, error))
    return NULL;
  {
    g_autoptr(GnnNoGradGuard) guard = gnn_no_grad_guard_new ();
    g_autoptr(GnnTensor) var = NULL;

    if (!(var = gnn_tensor_var (self, dims, n_dims, correction, keepdim, error)) ||
        !(m = gnn_tensor_mean (self, dims, n_dims, keepdim, error)))
      return NULL;
    v = std ? gnn_tensor_sqrt (var, error) : g_object_ref (var);
    if (v == NULL)
      return NULL;
  }
  count = plan_count (&ctx.plan, p);
  ctx.std = std;
  ctx.scale = 2.0 / ((double) count - correction);
  ctx.inv_count = count == 0 ? NAN : 1.0 / (double) count;
  outs[0] = v;
  outs[1] = m;
  if ((node = gnn_autograd_record (std ? "StdMeanBackward0" : "VarMeanBackward0", var_mean_backward, &self, 1,
                                   outs, 2)))
    {
      gnn_node_save (node, self);
      gnn_node_save (node, v);
      gnn_node_set_ctx (node, g_memdup2 (&ctx, sizeof ctx), g_free);
    }
  if (mean)
    *mean = g_steal_pointer (&m);
  return g_steal_pointer (&v);
}

/**
 * gnn_tensor_var_mean:
 * @self: a floating-point tensor
 * @dims: (array length=n_dims) (nullable): the dimensions to reduce; none for all
 * @n_dims: the number of dimensions in @dims
 * @correction: 1 for the unbiased estimate, 0 for the population variance, as in
 *   [method@Gnn.Tensor.var]
 * @keepdim: whether to keep the reduced dimensions with size one
 * @mean: (out) (transfer full) (optional): return location for the mean over @dims
 * @error: return location for a #GError
 *
 * The variance and the mean over @dims at once (`torch.var_mean (self, dims,
 * correction=correction, keepdim=keepdim)`), one node (`VarMeanBackward0`) for both.
 *
 * Returns: (transfer full): the variance, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_var_mean (GnnTensor *self, const int *dims, guint n_dims, double correction, gboolean keepdim,
                     GnnTensor **mean, GError **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  g_return_val_if_fail (dims != NULL || n_dims == 0, NULL);
  return var_mean_impl (FALSE, self, dims, n_dims, correction, keepdim, mean, error);
}

/**
 * gnn_tensor_std_mean:
 * @self: a floating-point tensor
 * @dims: (array length=n_dims) (nullable): the dimensions to reduce; none for all
 * @n_dims: the number of dimensions in @dims
 * @correction: 1 for the unbiased estimate, 0 for the population standard deviation
 * @keepdim: whether to keep the reduced dimensions with size one
 * @mean: (out) (transfer full) (optional): return location for the mean over @dims
 * @error: return location for a #GError
 *
 * The standard deviation and the mean over @dims at once (`torch.std_mean`), one node
 * (`StdMeanBackward0`) for both; the deviation's gradient is zero where it is zero.
 *
 * Returns: (transfer full): the standard deviation, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_std_mean (GnnTensor *self, const int *dims, guint n_dims, double correction, gboolean keepdim,
                     GnnTensor **mean, GError **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  g_return_val_if_fail (dims != NULL || n_dims == 0, NULL);
  return var_mean_impl (TRUE, self, dims, n_dims, correction, keepdim, mean, error);
}
