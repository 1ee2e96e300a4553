/* gnn-cuda-kernels-index.cu: index_select, index_add, gather, scatter_add and one_hot
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Every operand is contiguous with the layout the GnnBackendOp documentation gives, indices
 * are int64, as the CPU backend takes them. One thread per element of the listed operand.
 *
 * Indices cannot be checked before the kernel runs without reading them back (a
 * synchronization), so an index outside [0, size) is never followed: selecting and gathering
 * kernels write 0 for it, adding kernels skip it, and one_hot writes a row of zeros. The CPU
 * backend reports such an index as a GNN_ERROR_INDEX instead.
 *
 * INDEX_ADD and SCATTER_ADD add with atomicAdd (int64 through unsigned long long, which wraps
 * as the CPU's int64 addition does). The order of the additions into one element is not
 * fixed, so float results are not deterministic from run to run when indices repeat; CUDA
 * kernels do not promise determinism here, as PyTorch's do not.
 */
#include "gnn-cuda-kernels.cuh"

namespace gnn_cuda {
namespace {

#define IDX_THREADS 256

/* l = (a · B + b) · C + c */
struct Split3 {
  i64 B, C;
  IntDiv dB, dC;
  int small;   /* the total is below 2^31 */

  void init (i64 b_size, i64 c_size, i64 total)
  {
    B = b_size;
    C = c_size;
    small = total < ((i64) 1 << 31);
    dB.init ((u64) b_size);
    dC.init ((u64) c_size);
  }
  __device__ __forceinline__ void split (i64 l, i64 &a, i64 &b, i64 &c) const
  {
    if (small)
      {
        unsigned t = dC.div ((unsigned) l);
        unsigned q = dB.div (t);
        c = (i64) ((unsigned) l - t * dC.d);
        b = (i64) (t - q * dB.d);
        a = q;
      }
    else
      {
        i64 t = l / C;
        c = l - t * C;
        a = t / B;
        b = t - a * B;
      }
  }
};

/* INDEX_SELECT: out[o, j, i] = in0[o, idx[j], i], elements moved as bits */
template <class U>
__global__ void __launch_bounds__ (IDX_THREADS)
index_select_kernel (const U *in, const i64 *idx, U *out, Split3 s, i64 size, i64 total)
{
  for (i64 l = (i64) blockIdx.x * blockDim.x + threadIdx.x; l < total; l += (i64) gridDim.x * blockDim.x)
    {
      i64 o, j, i;
      s.split (l, o, j, i);
      const i64 at = idx[j];
      out[l] = (at >= 0 && at < size) ? in[(o * size + at) * s.C + i] : (U) 0;
    }
}

/* GATHER: out[o, j, i] = in0[o, idx[o, j, i], i] */
template <class U>
__global__ void __launch_bounds__ (IDX_THREADS)
gather_kernel (const U *in, const i64 *idx, U *out, Split3 s, i64 size, i64 total)
{
  for (i64 l = (i64) blockIdx.x * blockDim.x + threadIdx.x; l < total; l += (i64) gridDim.x * blockDim.x)
    {
      i64 o, j, i;
      s.split (l, o, j, i);
      const i64 at = idx[l];
      out[l] = (at >= 0 && at < size) ? in[(o * size + at) * s.C + i] : (U) 0;
    }
}

__device__ __forceinline__ void atomic_add (float *p, float v)   { atomicAdd (p, v); }
__device__ __forceinline__ void atomic_add (double *p, double v) { atomicAdd (p, v); }
__device__ __forceinline__ void atomic_add (i64 *p, i64 v)
{
  atomicAdd ((unsigned long long *) p, (unsigned long long) v);
}

/* INDEX_ADD (per_element 0): out[o, idx[j], i] += in0[o, j, i];
 * SCATTER_ADD (per_element 1): out[o, idx[o, j, i], i] += in0[o, j, i] */
template <class T>
__global__ void __launch_bounds__ (IDX_THREADS)
index_add_kernel (const T *in, const i64 *idx, T *out, Split3 s, i64 size, i64 total, int per_element)
{
  for (i64 l = (i64) blockIdx.x * blockDim.x + threadIdx.x; l < total; l += (i64) gridDim.x * blockDim.x)
    {
      i64 o, j, i;
      s.split (l, o, j, i);
      const i64 at = per_element ? idx[l] : idx[j];
      if (at >= 0 && at < size)
        atomic_add (&out[(o * size + at) * s.C + i], in[l]);
    }
}

/* ONE_HOT: out[j, c] = in0[j] == c, @one the bits of 1 in out's dtype */
template <class U>
__global__ void __launch_bounds__ (IDX_THREADS)
one_hot_kernel (const i64 *labels, U *out, i64 classes, U one, i64 total)
{
  for (i64 l = (i64) blockIdx.x * blockDim.x + threadIdx.x; l < total; l += (i64) gridDim.x * blockDim.x)
    {
      const i64 j = l / classes;
      out[l] = labels[j] == l - j * classes ? one : (U) 0;
    }
}

gboolean
check_tensor (const GnnKernelArgs *args, const GnnKernelTensor *t, const char *name, GnnDtype dtype,
              i64 expected, GError **error)
{
  if (t->dtype != dtype)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED, "The cuda backend has no %s kernel for %s of "
                   "dtype %s (expected %s)", op_name (args->op), name, gnn_dtype_get_name (t->dtype),
                   gnn_dtype_get_name (dtype));
      return FALSE;
    }
  if (expected >= 0 && numel (t) != expected)
    return fail (error, GNN_ERROR_INVALID_ARGUMENT, args->op, "%s has %" G_GINT64_FORMAT " elements, but the "
                 "layout in the parameters needs %" G_GINT64_FORMAT, name, (gint64) numel (t), (gint64) expected);
  if (!is_contiguous (t))
    return fail (error, GNN_ERROR_NOT_SUPPORTED, args->op, "%s must be contiguous", name);
  return TRUE;
}

} /* anonymous namespace */

gboolean
run_index (GnnCudaContext *ctx, const GnnKernelArgs *args, GError **error)
{
  const GnnBackendOp op = args->op;
  const GnnKernelTensor *out = args->out, *in = args->in[0], *index = args->in[1];
  const GnnDtype dt = out->dtype;
  unsigned blocks;

  if (op == GNN_BACKEND_OP_ONE_HOT)
    {
      const i64 classes = args->params.one_hot.classes, n = numel (in), total = n * classes;
      if (classes < 0)
        return fail (error, GNN_ERROR_INVALID_ARGUMENT, op, "negative number of classes %" G_GINT64_FORMAT,
                     (gint64) classes);
      if (!check_tensor (args, in, "in0", GNN_DTYPE_INT64, -1, error) ||
          !check_tensor (args, out, "out", dt, total, error))
        return FALSE;
      if (total == 0)
        return TRUE;
      blocks = grid_blocks (ctx, total, IDX_THREADS);
      if (dt == GNN_DTYPE_FLOAT32)
        one_hot_kernel<unsigned><<<blocks, IDX_THREADS, 0, ctx->stream>>> ((const i64 *) in->data, (unsigned *) out->data,
                                                                          classes, 0x3f800000u, total);
      else
        one_hot_kernel<u64><<<blocks, IDX_THREADS, 0, ctx->stream>>> ((const i64 *) in->data, (u64 *) out->data, classes,
                                                                     dt == GNN_DTYPE_FLOAT64 ? 0x3ff0000000000000ull : 1ull,
                                                                     total);
      return check_launch (op, error);
    }

  {
    const bool add = op == GNN_BACKEND_OP_INDEX_ADD || op == GNN_BACKEND_OP_SCATTER_ADD;
    const bool per_element = op == GNN_BACKEND_OP_GATHER || op == GNN_BACKEND_OP_SCATTER_ADD;
    const i64 outer = args->params.index.outer, size = args->params.index.size, inner = args->params.index.inner;
    const i64 n_index = per_element ? args->params.index.index_size : numel (index);
    const i64 total = outer * n_index * inner;   /* elements of the listed operand */
    const GnnKernelTensor *indexed = add ? out : in, *listed = add ? in : out;
    Split3 s;

    if (outer < 0 || size < 0 || inner < 0 || n_index < 0)
      return fail (error, GNN_ERROR_INVALID_ARGUMENT, op, "negative sizes in params.index");
    if (!check_tensor (args, in, "in0", dt, -1, error) ||
        !check_tensor (args, indexed, add ? "out" : "in0", dt, outer * size * inner, error) ||
        !check_tensor (args, listed, add ? "in0" : "out", dt, total, error) ||
        !check_tensor (args, index, "in1", GNN_DTYPE_INT64, per_element ? total : -1, error))
      return FALSE;
    if (total == 0)
      return TRUE;
    s.init (n_index, inner, total);
    blocks = grid_blocks (ctx, total, IDX_THREADS);
    if (add)
      {
        const int pe = per_element ? 1 : 0;
        if (dt == GNN_DTYPE_FLOAT32)
          index_add_kernel<float><<<blocks, IDX_THREADS, 0, ctx->stream>>> (
            (const float *) in->data, (const i64 *) index->data, (float *) out->data, s, size, total, pe);
        else if (dt == GNN_DTYPE_FLOAT64)
          index_add_kernel<double><<<blocks, IDX_THREADS, 0, ctx->stream>>> (
            (const double *) in->data, (const i64 *) index->data, (double *) out->data, s, size, total, pe);
        else
          index_add_kernel<i64><<<blocks, IDX_THREADS, 0, ctx->stream>>> (
            (const i64 *) in->data, (const i64 *) index->data, (i64 *) out->data, s, size, total, pe);
      }
    else if (gnn_dtype_get_size (dt) == 4)
      {
        if (per_element)
          gather_kernel<unsigned><<<blocks, IDX_THREADS, 0, ctx->stream>>> (
            (const unsigned *) in->data, (const i64 *) index->data, (unsigned *) out->data, s, size, total);
        else
          index_select_kernel<unsigned><<<blocks, IDX_THREADS, 0, ctx->stream>>> (
            (const unsigned *) in->data, (const i64 *) index->data, (unsigned *) out->data, s, size, total);
      }
    else
      {
        if (per_element)
          gather_kernel<u64><<<blocks, IDX_THREADS, 0, ctx->stream>>> (
            (const u64 *) in->data, (const i64 *) index->data, (u64 *) out->data, s, size, total);
        else
          index_select_kernel<u64><<<blocks, IDX_THREADS, 0, ctx->stream>>> (
            (const u64 *) in->data, (const i64 *) index->data, (u64 *) out->data, s, size, total);
      }
    return check_launch (op, error);
  }
}

} /* namespace gnn_cuda */
