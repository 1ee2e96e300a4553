/* gnn-cuda-kernels.cu: which (op, dtype) pairs the CUDA kernels run, the dispatcher, and the
 * host helpers the kernel files share
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The pairs are those of the CPU backend (gnn-cpu-backend.c, cpu_supports_op), GEMM aside:
 * the host side runs it with cuBLAS.
 */
#include <stdarg.h>

#include "gnn-cuda-kernels.cuh"

namespace gnn_cuda {

/* ---- host helpers ------------------------------------------------------------------ */

const char *
op_name (GnnBackendOp op)
{
  static gsize klass;
  GEnumValue *v;

  if (g_once_init_enter (&klass))
    g_once_init_leave (&klass, (gsize) g_type_class_ref (GNN_TYPE_BACKEND_OP));
  v = g_enum_get_value ((GEnumClass *) klass, op);
  return v ? v->value_nick : "unknown";
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

enum {
  M_F32 = 1u << GNN_DTYPE_FLOAT32,
  M_F64 = 1u << GNN_DTYPE_FLOAT64,
  M_I64 = 1u << GNN_DTYPE_INT64,
  M_BOOL = 1u << GNN_DTYPE_BOOL,
  M_U8 = 1u << GNN_DTYPE_UINT8,
  M_F16 = 1u << GNN_DTYPE_FLOAT16,
  M_BF16 = 1u << GNN_DTYPE_BFLOAT16,
  M_ALL = M_F32 | M_F64 | M_I64 | M_BOOL | M_U8 | M_F16 | M_BF16,
  M_FLOAT = M_F32 | M_F64,
  M_NUMBER = M_F32 | M_F64 | M_I64,
  M_FLOATING = M_F32 | M_F64 | M_F16 | M_BF16,
};

/* Where the op's dtype (the one supports () is asked about) is read from. */
enum { FROM_OUT = -1, FROM_IN0 = 0, FROM_IN1 = 1, FROM_LIST = -2 };

typedef struct {
  unsigned dtypes;   /* 0: not a kernel of these files */
  int n_in;          /* input operands that must be present */
  int from;
} OpInfo;

static OpInfo
op_info (GnnBackendOp op)
{
  switch (op)
    {
    case GNN_BACKEND_OP_COPY:                 return { M_ALL, 1, FROM_OUT };
    case GNN_BACKEND_OP_FILL:                 return { M_ALL, 0, FROM_OUT };
    case GNN_BACKEND_OP_ARANGE:               return { M_ALL, 0, FROM_OUT };
    case GNN_BACKEND_OP_RAND_UNIFORM:         return { M_FLOATING, 0, FROM_OUT };
    case GNN_BACKEND_OP_RAND_NORMAL:          return { M_FLOATING, 0, FROM_OUT };
    case GNN_BACKEND_OP_RAND_INT:             return { M_I64, 0, FROM_OUT };
    case GNN_BACKEND_OP_ADD:
    case GNN_BACKEND_OP_SUB:
    case GNN_BACKEND_OP_MUL:
    case GNN_BACKEND_OP_POW:
    case GNN_BACKEND_OP_MAXIMUM:
    case GNN_BACKEND_OP_MINIMUM:
    case GNN_BACKEND_OP_EQ:
    case GNN_BACKEND_OP_NE:
    case GNN_BACKEND_OP_LT:
    case GNN_BACKEND_OP_LE:
    case GNN_BACKEND_OP_GT:
    case GNN_BACKEND_OP_GE:                   return { M_NUMBER, 2, FROM_IN0 };
    case GNN_BACKEND_OP_DIV:                  return { M_FLOAT, 2, FROM_IN0 };
    case GNN_BACKEND_OP_WHERE:                return { M_NUMBER, 3, FROM_OUT };
    case GNN_BACKEND_OP_NEG:
    case GNN_BACKEND_OP_ABS:
    case GNN_BACKEND_OP_SIGN:
    case GNN_BACKEND_OP_CLAMP:
    case GNN_BACKEND_OP_POW_SCALAR:
    case GNN_BACKEND_OP_RELU:                 return { M_NUMBER, 1, FROM_OUT };
    case GNN_BACKEND_OP_EXP:
    case GNN_BACKEND_OP_LOG:
    case GNN_BACKEND_OP_SQRT:
    case GNN_BACKEND_OP_LEAKY_RELU:
    case GNN_BACKEND_OP_ELU:
    case GNN_BACKEND_OP_GELU:
    case GNN_BACKEND_OP_SILU:
    case GNN_BACKEND_OP_SIGMOID:
    case GNN_BACKEND_OP_TANH:                 return { M_FLOAT, 1, FROM_OUT };
    case GNN_BACKEND_OP_RELU_BACKWARD:
    case GNN_BACKEND_OP_LEAKY_RELU_BACKWARD:
    case GNN_BACKEND_OP_ELU_BACKWARD:
    case GNN_BACKEND_OP_GELU_BACKWARD:
    case GNN_BACKEND_OP_SILU_BACKWARD:
    case GNN_BACKEND_OP_SIGMOID_BACKWARD:
    case GNN_BACKEND_OP_TANH_BACKWARD:        return { M_FLOAT, 2, FROM_OUT };
    case GNN_BACKEND_OP_LERP:
    case GNN_BACKEND_OP_ADDCDIV:              return { M_FLOAT, 3, FROM_OUT };
    case GNN_BACKEND_OP_ADDCMUL:              return { M_NUMBER, 3, FROM_OUT };
    case GNN_BACKEND_OP_SUM:
    case GNN_BACKEND_OP_MAX:
    case GNN_BACKEND_OP_MIN:                  return { M_NUMBER, 1, FROM_IN0 };
    case GNN_BACKEND_OP_VAR:
    case GNN_BACKEND_OP_SOFTMAX:
    case GNN_BACKEND_OP_LOG_SOFTMAX:          return { M_FLOAT, 1, FROM_IN0 };
    case GNN_BACKEND_OP_SOFTMAX_BACKWARD:
    case GNN_BACKEND_OP_LOG_SOFTMAX_BACKWARD: return { M_FLOAT, 2, FROM_IN0 };
    case GNN_BACKEND_OP_INDEX_SELECT:
    case GNN_BACKEND_OP_INDEX_ADD:
    case GNN_BACKEND_OP_GATHER:
    case GNN_BACKEND_OP_SCATTER_ADD:          return { M_NUMBER, 2, FROM_OUT };
    case GNN_BACKEND_OP_ONE_HOT:              return { M_NUMBER, 1, FROM_OUT };
    case GNN_BACKEND_OP_IM2COL:
    case GNN_BACKEND_OP_COL2IM:
    case GNN_BACKEND_OP_MAX_POOL2D:
    case GNN_BACKEND_OP_AVG_POOL2D:
    case GNN_BACKEND_OP_AVG_POOL2D_BACKWARD:
    case GNN_BACKEND_OP_ADAPTIVE_AVG_POOL2D:
    case GNN_BACKEND_OP_ADAPTIVE_AVG_POOL2D_BACKWARD: return { M_FLOAT, 1, FROM_IN0 };
    case GNN_BACKEND_OP_MAX_POOL2D_BACKWARD:  return { M_FLOAT, 2, FROM_IN0 };
    case GNN_BACKEND_OP_FOREACH_LERP:         return { M_FLOAT, 0, FROM_LIST };
    case GNN_BACKEND_OP_GEMM:                 /* cuBLAS, on the host side */
    default:                                  return { 0, 0, FROM_OUT };
    }
}

} /* namespace gnn_cuda */

using namespace gnn_cuda;

extern "C" gboolean
gnn_cuda_kernels_supports (GnnBackendOp op,
                           GnnDtype     dtype)
{
  if ((guint) op >= GNN_BACKEND_OP_N_OPS || (guint) dtype > GNN_DTYPE_BFLOAT16)
    return FALSE;
  return (op_info (op).dtypes & (1u << dtype)) != 0;
}

extern "C" gboolean
gnn_cuda_kernels_run (GnnCudaContext      *ctx,
                      const GnnKernelArgs *args,
                      GError             **error)
{
  GnnBackendOp op = args->op;
  OpInfo info;
  GnnDtype dtype;

  if ((guint) op >= GNN_BACKEND_OP_N_OPS || (info = op_info (op)).dtypes == 0)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED,
                   "The cuda backend has no kernel number %d", (int) op);
      return FALSE;
    }

  if (info.from == FROM_LIST)
    {
      if (args->n_list == 0)
        return TRUE;
      if (args->list_out == NULL || args->list_in == NULL)
        return fail (error, GNN_ERROR_INVALID_ARGUMENT, op, "%u operand pairs but no operand lists",
                     args->n_list);
      dtype = args->list_out[0].dtype;
    }
  else
    {
      if (args->out == NULL || args->out->ndim > GNN_MAX_DIMS)
        return fail (error, GNN_ERROR_INVALID_ARGUMENT, op,
                     "no output operand, or one of more than %d dimensions", GNN_MAX_DIMS);
      for (int k = 0; k < info.n_in; k++)
        if (args->in[k] == NULL || args->in[k]->ndim > GNN_MAX_DIMS)
          return fail (error, GNN_ERROR_INVALID_ARGUMENT, op, "expected %d input operands, in%d is "
                       "missing or has more than %d dimensions", info.n_in, k, GNN_MAX_DIMS);
      dtype = info.from == FROM_OUT ? args->out->dtype : args->in[info.from]->dtype;
    }
  if ((guint) dtype > GNN_DTYPE_BFLOAT16 || !(info.dtypes & (1u << dtype)))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED,
                   "The cuda backend has no %s kernel for dtype %s", op_name (op),
                   (guint) dtype > GNN_DTYPE_BFLOAT16 ? "unknown" : gnn_dtype_get_name (dtype));
      return FALSE;
    }

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
