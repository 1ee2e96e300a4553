/* gnn-ops-reduce.c: reductions over dimensions
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "gnn-ops-private.h"

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

static void
kernel_3d (GnnTensor *t, gint64 outer, gint64 r, gint64 inner, GnnKernelTensor *kt)
{
  GnnTensorPrivate *p = gnn_tensor_priv (t);
  kt->data = gnn_tensor_data_ptr (p);
  kt->dtype = p->dtype;
  kt->ndim = 3;
  kt->shape[0] = outer;
  kt->shape[1] = r;
  kt->shape[2] = inner;
  kt->strides[0] = r * inner;
  kt->strides[1] = inner;
  kt->strides[2] = 1;
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
  g_autoptr(GnnTensor) in = gnn_reduce_prepare (self, plan, compute, error);
  g_autoptr(GnnTensor) out = NULL;
  GnnKernelTensor kin, kout;
  GnnKernelArgs args = { 0 };

  if (in == NULL)
    return NULL;
  out = gnn_tensor_new_like (self, compute, plan->out_ndim, plan->out_shape, error);
  if (out == NULL)
    return NULL;
  if (plan->outer * plan->inner > 0)
    {
      kernel_3d (in, plan->outer, plan->r, plan->inner, &kin);
      kernel_3d (out, plan->outer, 1, plan->inner, &kout);
      kout.ndim = 2;
      kout.shape[1] = plan->inner;
      kout.strides[0] = plan->inner;
      kout.strides[1] = 1;
      args.op = GNN_BACKEND_OP_SUM;
      args.out = &kout;
      args.in[0] = &kin;
      args.n_in = 1;
      args.i[0] = plan->outer;
      args.i[1] = plan->r;
      args.i[2] = plan->inner;
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
      if (!gnn_tensor_mul_scalar_ (out, count == 0 ? NAN : ctx.scale, error))
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

/* TODO(reduce helper): var, max/min, argmax/argmin, softmax, log_softmax */
#define STUB(decl) decl { g_set_error_literal (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED, "not implemented yet"); return NULL; }
/**
 * gnn_tensor_var: (skip)
 * @self: placeholder
 * @dims: placeholder
 * @n_dims: placeholder
 * @correction: placeholder
 * @keepdim: placeholder
 * @error: placeholder
 *
 * Not implemented yet.
 *
 * Returns: (transfer full): nothing
 */
STUB (GnnTensor *gnn_tensor_var (GnnTensor *self, const int *dims, guint n_dims, double correction, gboolean keepdim, GError **error))
/**
 * gnn_tensor_var_all: (skip)
 * @self: placeholder
 * @correction: placeholder
 * @error: placeholder
 *
 * Not implemented yet.
 *
 * Returns: (transfer full): nothing
 */
STUB (GnnTensor *gnn_tensor_var_all (GnnTensor *self, double correction, GError **error))
/**
 * gnn_tensor_max_dim: (skip)
 * @self: placeholder
 * @dim: placeholder
 * @keepdim: placeholder
 * @indices: placeholder
 * @error: placeholder
 *
 * Not implemented yet.
 *
 * Returns: (transfer full): nothing
 */
STUB (GnnTensor *gnn_tensor_max_dim (GnnTensor *self, int dim, gboolean keepdim, GnnTensor **indices, GError **error))
/**
 * gnn_tensor_min_dim: (skip)
 * @self: placeholder
 * @dim: placeholder
 * @keepdim: placeholder
 * @indices: placeholder
 * @error: placeholder
 *
 * Not implemented yet.
 *
 * Returns: (transfer full): nothing
 */
STUB (GnnTensor *gnn_tensor_min_dim (GnnTensor *self, int dim, gboolean keepdim, GnnTensor **indices, GError **error))
/**
 * gnn_tensor_max_all: (skip)
 * @self: placeholder
 * @error: placeholder
 *
 * Not implemented yet.
 *
 * Returns: (transfer full): nothing
 */
STUB (GnnTensor *gnn_tensor_max_all (GnnTensor *self, GError **error))
/**
 * gnn_tensor_min_all: (skip)
 * @self: placeholder
 * @error: placeholder
 *
 * Not implemented yet.
 *
 * Returns: (transfer full): nothing
 */
STUB (GnnTensor *gnn_tensor_min_all (GnnTensor *self, GError **error))
/**
 * gnn_tensor_argmax: (skip)
 * @self: placeholder
 * @dim: placeholder
 * @keepdim: placeholder
 * @error: placeholder
 *
 * Not implemented yet.
 *
 * Returns: (transfer full): nothing
 */
STUB (GnnTensor *gnn_tensor_argmax (GnnTensor *self, int dim, gboolean keepdim, GError **error))
/**
 * gnn_tensor_argmax_all: (skip)
 * @self: placeholder
 * @error: placeholder
 *
 * Not implemented yet.
 *
 * Returns: (transfer full): nothing
 */
STUB (GnnTensor *gnn_tensor_argmax_all (GnnTensor *self, GError **error))
/**
 * gnn_tensor_argmin: (skip)
 * @self: placeholder
 * @dim: placeholder
 * @keepdim: placeholder
 * @error: placeholder
 *
 * Not implemented yet.
 *
 * Returns: (transfer full): nothing
 */
STUB (GnnTensor *gnn_tensor_argmin (GnnTensor *self, int dim, gboolean keepdim, GError **error))
/**
 * gnn_tensor_softmax: (skip)
 * @self: placeholder
 * @dim: placeholder
 * @error: placeholder
 *
 * Not implemented yet.
 *
 * Returns: (transfer full): nothing
 */
STUB (GnnTensor *gnn_tensor_softmax (GnnTensor *self, int dim, GError **error))
/**
 * gnn_tensor_log_softmax: (skip)
 * @self: placeholder
 * @dim: placeholder
 * @error: placeholder
 *
 * Not implemented yet.
 *
 * Returns: (transfer full): nothing
 */
STUB (GnnTensor *gnn_tensor_log_softmax (GnnTensor *self, int dim, GError **error))
