/* gnn-cuda-kernels.cu: which (op, dtype) pairs the CUDA kernels run, the dispatcher, and the
 * host helpers the kernel files share
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The pairs are those of the op table (gnn/backend/gnn-backend-ops.def) but for the departures
 * below, GEMM aside: the host side runs it with cuBLAS.
 */
#include <stdarg.h>

#include "gnn-cuda-kernels.cuh"

namespace gnn_cuda {

/* ---- host helpers ------------------------------------------------------------------ */

const char *
op_name (GnnBackendOp op)
{
  return gnn_backend_op_get_nick (op);
}

i64
numel (const GnnKernelTensor *t)
{
  i64 n = 1;

  for (guint d = 0; d < t->ndim; d++)
    n *= t->shape[d];
  return n;
}

bool
is_contiguous (const GnnKernelTensor *t)
{
  i64 expected = 1;

  for (guint d = t->ndim; d-- > 0;)
    {
      if (t->shape[d] == 0)
        return true;
      if (t->shape[d] != 1 && t->strides[d] != expected)
        return false;
      expected *= t->shape[d];
    }
  return true;
}

gboolean
fail (GError **error, int code, GnnBackendOp op, const char *fmt, ...)
{
  va_list ap;
  char *what;

  va_start (ap, fmt);
  what = g_strdup_vprintf (fmt, ap);
  va_end (ap);
  g_set_error (error, GNN_ERROR, code, "cuda %s kernel: %s", op_name (op), what);
  g_free (what);
  return FALSE;
}

gboolean
check_launch (GnnBackendOp op, GError **error)
{
  cudaError_t e = cudaGetLastError ();

  if (e == cudaSuccess)
    return TRUE;
  return fail (error, GNN_ERROR_BACKEND, op, "launch failed: %s (%s)", cudaGetErrorString (e),
               cudaGetErrorName (e));
}

unsigned
grid_blocks (const GnnCudaContext *ctx, i64 work, int threads)
{
  i64 sms = ctx->sm_count > 0 ? ctx->sm_count : 80;
  /* 2048 resident threads per SM on every target; two waves of them */
  i64 cap = sms * (4096 / threads);
  i64 want = (work + threads - 1) / threads;

  if (want < 1)
    want = 1;
  return (unsigned) (want < cap ? want : cap);
}

void *
scratch (GnnCudaContext *ctx, size_t nbytes, GError **error)
{
  if (nbytes <= ctx->scratch_bytes && ctx->scratch != NULL)
    return ctx->scratch;
  if (ctx->grow_scratch == NULL)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_OUT_OF_MEMORY,
                   "cuda: a kernel needs %" G_GSIZE_FORMAT " bytes of scratch memory and the device has "
                   "%" G_GSIZE_FORMAT, (gsize) nbytes, (gsize) ctx->scratch_bytes);
      return NULL;
    }
  return ctx->grow_scratch (ctx->host, nbytes, error);
}

/* ---- which (op, dtype) pairs --------------------------------------------------------- */

/* Where the kernels differ from the op table. */
static const GnnBackendOpDeparture departures[] = {
  /* cuBLAS, on the host side (gnn-cuda-backend.c) */
  { GNN_BACKEND_OP_GEMM, 0, GNN_DTYPES_ALL },
  /* no fused batch-norm kernels yet: the ops compose batch normalisation from reductions and
   * elementwise kernels on backends without them */
  { GNN_BACKEND_OP_BATCH_NORM_STATS, 0, GNN_DTYPES_ALL },
  { GNN_BACKEND_OP_CHANNEL_AFFINE, 0, GNN_DTYPES_ALL },
  { GNN_BACKEND_OP_BATCH_NORM_BACKWARD_REDUCE, 0, GNN_DTYPES_ALL },
  /* no scan kernels yet (nothing on the sequence models' hot path scans): cumsum, cumprod and
   * logcumsumexp of a cuda tensor run on the CPU backend, through a copy to the host and back */
  { GNN_BACKEND_OP_CUMSUM, 0, GNN_DTYPES_ALL },
  { GNN_BACKEND_OP_CUMPROD, 0, GNN_DTYPES_ALL },
  { GNN_BACKEND_OP_LOGCUMSUMEXP, 0, GNN_DTYPES_ALL },
  /* no sort kernel yet: sort, topk and the medians of a cuda tensor run on the CPU backend */
  { GNN_BACKEND_OP_SORT, 0, GNN_DTYPES_ALL },
  /* no polygamma kernel (digamma, the gradients of lgamma and digamma: not on a hot path): they
   * run on the CPU backend */
  { GNN_BACKEND_OP_POLYGAMMA, 0, GNN_DTYPES_ALL },
  /* nor a zeta kernel (torch.special.zeta, the same Hurwitz sum): it runs on the CPU backend */
  { GNN_BACKEND_OP_ZETA, 0, GNN_DTYPES_ALL },
  /* no scatter_reduce kernel yet (scatter, scatter_reduce, index_copy; off the sequence models'
   * hot path, which scatters only by adding): those ops of a cuda tensor run on the CPU backend */
  { GNN_BACKEND_OP_SCATTER_REDUCE, 0, GNN_DTYPES_ALL },
  /* no kernels yet for the activations off the sequence models' hot path (softplus, hardsigmoid,
   * hardswish, mish, celu, selu, logsigmoid, the shrinks, threshold): they run on the CPU backend */
  { GNN_BACKEND_OP_SOFTPLUS, 0, GNN_DTYPES_ALL },
  { GNN_BACKEND_OP_HARDSIGMOID, 0, GNN_DTYPES_ALL },
  { GNN_BACKEND_OP_HARDSWISH, 0, GNN_DTYPES_ALL },
  { GNN_BACKEND_OP_MISH, 0, GNN_DTYPES_ALL },
  { GNN_BACKEND_OP_CELU, 0, GNN_DTYPES_ALL },
  { GNN_BACKEND_OP_SELU, 0, GNN_DTYPES_ALL },
  { GNN_BACKEND_OP_LOG_SIGMOID, 0, GNN_DTYPES_ALL },
  { GNN_BACKEND_OP_HARDSHRINK, 0, GNN_DTYPES_ALL },
  { GNN_BACKEND_OP_SOFTSHRINK, 0, GNN_DTYPES_ALL },
  { GNN_BACKEND_OP_THRESHOLD, 0, GNN_DTYPES_ALL },
  /* no fused attention kernels yet: scaled_dot_product_attention of a cuda tensor composes the
   * scores, softmax and products from the GEMM, softmax and elementwise kernels */
  { GNN_BACKEND_OP_ATTENTION, 0, GNN_DTYPES_ALL },
  { GNN_BACKEND_OP_ATTENTION_BACKWARD, 0, GNN_DTYPES_ALL },
  /* no fused recurrent-cell kernels yet: the recurrent layers compose the gates from
   * elementwise kernels on backends without them */
  { GNN_BACKEND_OP_LSTM_CELL, 0, GNN_DTYPES_ALL },
  { GNN_BACKEND_OP_LSTM_CELL_BACKWARD, 0, GNN_DTYPES_ALL },
  { GNN_BACKEND_OP_GRU_CELL, 0, GNN_DTYPES_ALL },
  { GNN_BACKEND_OP_GRU_CELL_BACKWARD, 0, GNN_DTYPES_ALL },
  /* no kernels yet for the bitwise and integer ops (bitwise and, or, xor, not, the shifts, gcd,
   * lcm; masks and integer data, off the hot paths): they run on the CPU backend */
  { GNN_BACKEND_OP_BITWISE_AND, 0, GNN_DTYPES_ALL },
  { GNN_BACKEND_OP_BITWISE_OR, 0, GNN_DTYPES_ALL },
  { GNN_BACKEND_OP_BITWISE_XOR, 0, GNN_DTYPES_ALL },
  { GNN_BACKEND_OP_BITWISE_NOT, 0, GNN_DTYPES_ALL },
  { GNN_BACKEND_OP_BITWISE_LEFT_SHIFT, 0, GNN_DTYPES_ALL },
  { GNN_BACKEND_OP_BITWISE_RIGHT_SHIFT, 0, GNN_DTYPES_ALL },
  { GNN_BACKEND_OP_GCD, 0, GNN_DTYPES_ALL },
  { GNN_BACKEND_OP_LCM, 0, GNN_DTYPES_ALL },
  /* no 3-d convolution and pooling kernels yet (vol2col, col2vol, max, avg, adaptive avg and
   * adaptive max pooling in 3-d, off the models' hot paths here): conv3d, conv_transpose3d and the 3-d pools of
   * a cuda tensor run these kernels on the CPU backend, through a copy to the host and back */
  { GNN_BACKEND_OP_VOL2COL, 0, GNN_DTYPES_ALL },
  { GNN_BACKEND_OP_COL2VOL, 0, GNN_DTYPES_ALL },
  { GNN_BACKEND_OP_MAX_POOL3D, 0, GNN_DTYPES_ALL },
  { GNN_BACKEND_OP_MAX_POOL3D_BACKWARD, 0, GNN_DTYPES_ALL },
  { GNN_BACKEND_OP_AVG_POOL3D, 0, GNN_DTYPES_ALL },
  { GNN_BACKEND_OP_AVG_POOL3D_BACKWARD, 0, GNN_DTYPES_ALL },
  { GNN_BACKEND_OP_ADAPTIVE_AVG_POOL3D, 0, GNN_DTYPES_ALL },
  { GNN_BACKEND_OP_ADAPTIVE_AVG_POOL3D_BACKWARD, 0, GNN_DTYPES_ALL },
  { GNN_BACKEND_OP_ADAPTIVE_MAX_POOL3D, 0, GNN_DTYPES_ALL },
};

} /* namespace gnn_cuda */

using namespace gnn_cuda;

extern "C" gboolean
gnn_cuda_kernels_supports (GnnBackendOp op,
                           GnnDtype     dtype)
{
  return gnn_backend_op_supported_with (op, dtype, departures, G_N_ELEMENTS (departures));
}

extern "C" gboolean
gnn_cuda_kernels_run (GnnCudaContext      *ctx,
                      const GnnKernelArgs *args,
                      GError             **error)
{
  GnnBackendOp op = args->op;
  GnnDtype dtype;

  if (!gnn_backend_op_check_args ("cuda", args, &dtype, error))
    return FALSE;
  if (!gnn_cuda_kernels_supports (op, dtype))
    return gnn_backend_op_set_unsupported (error, "cuda", op, dtype);
  if (op == GNN_BACKEND_OP_FOREACH_LERP && args->n_list == 0)
    return TRUE;

  switch (op)
    {
    case GNN_BACKEND_OP_FOREACH_LERP:
      return run_foreach (ctx, args, error);
    case GNN_BACKEND_OP_SUM:
    case GNN_BACKEND_OP_MAX:
    case GNN_BACKEND_OP_MIN:
    case GNN_BACKEND_OP_VAR:
    case GNN_BACKEND_OP_SOFTMAX:
    case GNN_BACKEND_OP_LOG_SOFTMAX:
    case GNN_BACKEND_OP_SOFTMAX_BACKWARD:
    case GNN_BACKEND_OP_LOG_SOFTMAX_BACKWARD:
      return run_reduce (ctx, args, error);
    case GNN_BACKEND_OP_INDEX_SELECT:
    case GNN_BACKEND_OP_INDEX_ADD:
    case GNN_BACKEND_OP_GATHER:
    case GNN_BACKEND_OP_SCATTER_ADD:
    case GNN_BACKEND_OP_ONE_HOT:
      return run_index (ctx, args, error);
    case GNN_BACKEND_OP_IM2COL:
    case GNN_BACKEND_OP_COL2IM:
    case GNN_BACKEND_OP_MAX_POOL2D:
    case GNN_BACKEND_OP_MAX_POOL2D_BACKWARD:
    case GNN_BACKEND_OP_AVG_POOL2D:
    case GNN_BACKEND_OP_AVG_POOL2D_BACKWARD:
    case GNN_BACKEND_OP_ADAPTIVE_AVG_POOL2D:
    case GNN_BACKEND_OP_ADAPTIVE_AVG_POOL2D_BACKWARD:
      return run_conv (ctx, args, error);
    default:
      return run_elementwise (ctx, args, error);
    }
}
