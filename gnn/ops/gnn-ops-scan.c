/* gnn-ops-scan.c: inclusive scans along one dimension: cumsum, cumprod, logcumsumexp
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Each scan is one kernel row of the op table (CUMSUM, CUMPROD, LOGCUMSUMEXP: their dtypes
 * differ, logcumsumexp being floating-point only) run over the layout [outer, r, inner] of a
 * contiguous copy, forwards or, with reduce.reverse, from the end: the reversed scans are the
 * backward of the forward ones, so every gradient here is written with these same ops (and
 * elementwise ones) and runs, and differentiates again, on every backend.
 */
#include "config.h"

#include <float.h>
#include <math.h>

#include "gnn-ops-private.h"

#define NEEDS(j) (node->edges[(j)].node != NULL)

typedef struct {
  guint dim;
  gboolean reverse;
} ScanCtx;

/* @op over @dim of @self, on the backend that owns @self, as a new contiguous tensor of
 * @compute; no autograd */
static GnnTensor *
scan_run (GnnBackendOp op, GnnTensor *self, guint dim, gboolean reverse, GnnDtype compute, GError **error)
{
  GnnTensorPrivate *p = gnn_tensor_priv (self);
  g_autoptr(GnnTensor) in = NULL, out = NULL;
  gint64 outer, r, inner;
  GnnKernelTensor kin, kout;
  GnnKernelArgs args = { 0 };

  gnn_layout_around (p->ndim, p->shape, dim, &outer, &r, &inner);
  if (!(in = gnn_tensor_contiguous_as (self, compute, error)) ||
      !(out = gnn_tensor_new_like (self, compute, p->ndim, p->shape, error)))
    return NULL;
  if (outer * r * inner == 0)
    return g_steal_pointer (&out);
  gnn_kernel_tensor_3d (in, outer, r, inner, &kin);
  gnn_kernel_tensor_3d (out, outer, r, inner, &kout);
  args.op = op;
  args.in[0] = &kin;
  args.n_in = 1;
  args.out = &kout;
  args.params.reduce = (GnnKernelReduce) { outer, r, inner, 0, reverse };
  if (!gnn_run_kernel (out, &args, error))
    return NULL;
  return g_steal_pointer (&out);
}

/* scan_run, through the CPU backend (a copy to the host and back) when the backend of @self
 * declares that it has no kernel for @op */
static GnnTensor *
scan_kernel (GnnBackendOp op, GnnTensor *self, guint dim, gboolean reverse, GnnDtype compute, GError **error)
{
  GnnTensorPrivate *p = gnn_tensor_priv (self);
  gboolean prev;
  g_autoptr(GnnTensor) host = NULL, host_out = NULL;
  GnnTensor *result;

  if (gnn_backend_supports_op (p->storage->entry->backend, op, compute) ||
      g_str_equal (gnn_tensor_get_device (self), "cpu"))
    return scan_run (op, self, dim, reverse, compute, error);
  prev = gnn_set_grad_enabled (FALSE);
  host = gnn_tensor_to_device (self, "cpu", error);
  host_out = host ? scan_run (op, host, dim, reverse, compute, error) : NULL;
  result = host_out ? gnn_tensor_to_device (host_out, gnn_tensor_get_device (self), error) : NULL;
  gnn_set_grad_enabled (prev);
  return result;
}

/* The dtype of a cumsum or cumprod: bool and the integers scan as int64, as in PyTorch */
static GnnDtype
scan_dtype (GnnDtype d)
{
  return gnn_dtype_is_floating (d) ? d : GNN_DTYPE_INT64;
}

static GnnTensor *scan_op (GnnBackendOp op, GnnTensor *self, int dim, gboolean reverse, GError **error);

/* cumsum: gi = the reversed cumsum of g */
static gboolean
cumsum_backward (GnnNode *node, GnnTensor **go, GnnTensor **gi, GError **error)
{
  ScanCtx *ctx = node->ctx;
  g_autoptr(GnnTensor) g = NULL;

  if (go[0] == NULL || !NEEDS (0))
    return TRUE;
  if (!(g = scan_op (GNN_BACKEND_OP_CUMSUM, go[0], (int) ctx->dim, !ctx->reverse, error)))
    return FALSE;
  gi[0] = gnn_tensor_cast (g, node->in_dtype[0], error);
  return gi[0] != NULL;
}

/* cumprod, PyTorch's formula that holds with zeros in x. Along the dim, before the first zero
 * gi = revcumsum (g · y) / x; at the first zero, gi = revcumsum (g · cumprod (x with that zero
 * made 1)), the products that leave it out; after it every product holds a zero, gi = 0 */
static gboolean
cumprod_backward (GnnNode *node, GnnTensor **go, GnnTensor **gi, GError **error)
{
  ScanCtx *ctx = node->ctx;
  int dim = (int) ctx->dim;
  gboolean rev = ctx->reverse;
  GnnTensor *x;
  const char *device;
  g_autoptr(GnnTensor) zero = NULL, one = NULL, is_zero = NULL, n_zeros = NULL, before = NULL, rank = NULL,
    first = NULL, y = NULL, gy = NULL, sy = NULL, safe = NULL, ga = NULL, x1 = NULL, y1 = NULL, gy1 = NULL,
    gz = NULL, tail = NULL;

  if (go[0] == NULL || !NEEDS (0))
    return TRUE;
  if (!(x = gnn_node_saved (node, 0, error)))
    return FALSE;
  device = gnn_tensor_get_device (x);
  if (!(zero = gnn_tensor_new_scalar (0, gnn_tensor_priv (x)->dtype, device, error)) ||
      !(one = gnn_tensor_new_scalar (1, gnn_tensor_priv (x)->dtype, device, error)) ||
      !(is_zero = gnn_tensor_eq_scalar (x, 0, error)))
    return FALSE;
  /* the zero branch's second derivative is not yet torch's: refuse it under create_graph
   * rather than give a wrong one (a double backward through zero-free inputs is right) */
  if (gnn_is_grad_enabled ())
    {
      g_autoptr(GnnTensor) any = gnn_tensor_sum_all (is_zero, error);
      GError *local = NULL;
      double n;

      if (any == NULL)
        return FALSE;
      n = gnn_tensor_item (any, &local);
      if (local != NULL)
        {
          g_propagate_error (error, local);
          return FALSE;
        }
      if (n > 0 && !gnn_check_double_backward (node, go, error))
        return FALSE;
    }
  if (!(n_zeros = scan_op (GNN_BACKEND_OP_CUMSUM, is_zero, dim, rev, error)) ||
      !(before = gnn_tensor_eq_scalar (n_zeros, 0, error)) ||
      !(rank = gnn_tensor_add (n_zeros, is_zero, 1, error)) ||
      !(first = gnn_tensor_eq_scalar (rank, 2, error)) ||   /* a zero with none before it */
      !(y = scan_op (GNN_BACKEND_OP_CUMPROD, x, dim, rev, error)) ||
      !(gy = gnn_tensor_mul (go[0], y, error)) ||
      !(sy = scan_op (GNN_BACKEND_OP_CUMSUM, gy, dim, !rev, error)) ||
      !(safe = gnn_where (before, x, one, error)) ||
      !(ga = gnn_tensor_div (sy, safe, error)) ||
      !(x1 = gnn_where (first, one, x, error)) ||
      !(y1 = scan_op (GNN_BACKEND_OP_CUMPROD, x1, dim, rev, error)) ||
      !(gy1 = gnn_tensor_mul (go[0], y1, error)) ||
      !(gz = scan_op (GNN_BACKEND_OP_CUMSUM, gy1, dim, !rev, error)) ||
      !(tail = gnn_where (first, gz, zero, error)))
    return FALSE;
  gi[0] = gnn_where (before, ga, tail, error);
  return gi[0] != NULL;
}

/* The lowest finite value of a floating dtype */
static double
lowest (GnnDtype dtype)
{
  switch (dtype)
    {
    case GNN_DTYPE_FLOAT64:  return -DBL_MAX;
    case GNN_DTYPE_FLOAT16:  return -65504.0;
    case GNN_DTYPE_BFLOAT16: return -3.3895313892515355e38;
    default:                 return -FLT_MAX;
    }
}

/* log Σ_{j ∈ [start, k]} exp (x_j + log |g_j|) over the signs of g, as PyTorch does (TensorFlow's
 * formula), so that nothing overflows: with y = logcumsumexp (x),
 * gi = exp (x + revlogcumsumexp (log g⁺ - y)) - exp (x + revlogcumsumexp (log g⁻ - y)),
 * log g± the logs of the positive and negative parts (the lowest finite value where zero) */
static gboolean
logcumsumexp_backward (GnnNode *node, GnnTensor **go, GnnTensor **gi, GError **error)
{
  ScanCtx *ctx = node->ctx;
  int dim = (int) ctx->dim;
  GnnTensor *x;
  GnnTensor *parts[2] = { NULL, NULL };
  g_autoptr(GnnTensor) floor_ = NULL, y = NULL, abs_g = NULL, log_g = NULL;
  gboolean ok = TRUE;

  if (go[0] == NULL || !NEEDS (0))
    return TRUE;
  if (!(x = gnn_node_saved (node, 0, error)))
    return FALSE;
  if (!(floor_ = gnn_tensor_new_scalar (lowest (gnn_tensor_priv (go[0])->dtype), gnn_tensor_priv (go[0])->dtype,
                                        gnn_tensor_get_device (go[0]), error)) ||
      !(y = scan_op (GNN_BACKEND_OP_LOGCUMSUMEXP, x, dim, ctx->reverse, error)) ||
      !(abs_g = gnn_tensor_abs (go[0], error)) ||
      !(log_g = gnn_tensor_log (abs_g, error)))
    return FALSE;
  for (guint s = 0; s < 2 && ok; s++)
    {
      g_autoptr(GnnTensor) sign = s == 0 ? gnn_tensor_gt_scalar (go[0], 0, error) : gnn_tensor_lt_scalar (go[0], 0, error);
      g_autoptr(GnnTensor) part = sign ? gnn_where (sign, log_g, floor_, error) : NULL;
      g_autoptr(GnnTensor) shifted = part ? gnn_tensor_sub (part, y, 1, error) : NULL;
      g_autoptr(GnnTensor) acc = shifted ? scan_op (GNN_BACKEND_OP_LOGCUMSUMEXP, shifted, dim, !ctx->reverse, error) : NULL;
      g_autoptr(GnnTensor) sum = acc ? gnn_tensor_add (acc, x, 1, error) : NULL;
      ok = sum && (parts[s] = gnn_tensor_exp (sum, error)) != NULL;
    }
  if (ok)
    gi[0] = gnn_tensor_sub (parts[0], parts[1], 1, error);
  g_clear_object (&parts[0]);
  g_clear_object (&parts[1]);
  return gi[0] != NULL;
}

/* @op along @dim of @self (from the end with @reverse), with its autograd node */
static GnnTensor *
scan_op (GnnBackendOp op, GnnTensor *self, int dim, gboolean reverse, GError **error)
{
  const char *name = op == GNN_BACKEND_OP_CUMSUM ? "cumsum" : op == GNN_BACKEND_OP_CUMPROD ? "cumprod" : "logcumsumexp";
  GnnTensorPrivate *p = gnn_tensor_priv (self);
  GnnDtype dtype = scan_dtype (p->dtype);
  ScanCtx ctx = { 0, reverse };
  g_autoptr(GnnTensor) out = NULL;
  GnnTensor *result;
  GnnNode *node;

  if (op == GNN_BACKEND_OP_LOGCUMSUMEXP && !gnn_check_floating (name, self, error))
    return NULL;
  if (!gnn_normalize_dim (dim, p->ndim, &ctx.dim, error))
    {
      g_prefix_error (error, "%s: ", name);
      return NULL;
    }
  if (!(out = scan_kernel (op, self, ctx.dim, reverse, gnn_compute_dtype (dtype), error)) ||
      !(result = gnn_tensor_cast (out, dtype, error)))
    return NULL;
  if (!gnn_dtype_is_floating (dtype))
    return result;
  node = gnn_autograd_record (op == GNN_BACKEND_OP_CUMSUM ? "CumsumBackward0" :
                              op == GNN_BACKEND_OP_CUMPROD ? "CumprodBackward0" : "LogcumsumexpBackward0",
                              op == GNN_BACKEND_OP_CUMSUM ? cumsum_backward :
                              op == GNN_BACKEND_OP_CUMPROD ? cumprod_backward : logcumsumexp_backward,
                              &self, 1, &result, 1);
  if (node)
    {
      if (op != GNN_BACKEND_OP_CUMSUM)
        gnn_node_save (node, self);
      gnn_node_set_ctx (node, g_memdup2 (&ctx, sizeof ctx), g_free);
    }
  return result;
}

/**
 * gnn_tensor_cumsum:
 * @self: a tensor
 * @dim: the dimension to scan along, negative from the end
 * @error: return location for a #GError
 *
 * The inclusive prefix sums of @self along @dim (`torch.cumsum (self, dim)`): element k is
 * the sum of elements 0 to k. Bool and integer tensors sum as int64, floating-point ones in
 * their own dtype (float32 accumulating in double). Convert @self first for PyTorch's
 * `dtype=`. Its gradient is the reversed prefix sum of the output's.
 *
 * Returns: (transfer full): the prefix sums, shaped as @self, or %NULL with @error set
 *   (%GNN_ERROR_INDEX when @dim is out of range)
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_cumsum (GnnTensor *self, int dim, GError **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  return scan_op (GNN_BACKEND_OP_CUMSUM, self, dim, FALSE, error);
}

/**
 * gnn_tensor_cumprod:
 * @self: a tensor
 * @dim: the dimension to scan along, negative from the end
 * @error: return location for a #GError
 *
 * The inclusive prefix products of @self along @dim (`torch.cumprod (self, dim)`), with the
 * dtypes of [method@Gnn.Tensor.cumsum]. Its gradient is PyTorch's, which holds where @self
 * has zeros (it does not divide by them).
 *
 * Returns: (transfer full): the prefix products, shaped as @self, or %NULL with @error set
 *   (%GNN_ERROR_INDEX when @dim is out of range)
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_cumprod (GnnTensor *self, int dim, GError **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  return scan_op (GNN_BACKEND_OP_CUMPROD, self, dim, FALSE, error);
}

/**
 * gnn_tensor_logcumsumexp:
 * @self: a floating-point tensor
 * @dim: the dimension to scan along, negative from the end
 * @error: return location for a #GError
 *
 * log Σ_{j ≤ k} exp (x_j) along @dim (`torch.logcumsumexp (self, dim)`), computed stably
 * (each step adds the smaller term as log1p (exp (min - max)) to the larger), NaN from the
 * first NaN on.
 *
 * Returns: (transfer full): the result, shaped as @self, or %NULL with @error set
 *   (%GNN_ERROR_DTYPE for an integer or bool @self, %GNN_ERROR_INDEX when @dim is out of range)
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_logcumsumexp (GnnTensor *self, int dim, GError **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  return scan_op (GNN_BACKEND_OP_LOGCUMSUMEXP, self, dim, FALSE, error);
}
