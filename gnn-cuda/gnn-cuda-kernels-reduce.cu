/* gnn-cuda-kernels-reduce.cu: reductions over the middle dimension of [outer, r, inner] (sum,
 * max, min with the first index, var) and softmax, log-softmax and their backward kernels
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Operands are contiguous, as the CPU backend takes them. One reduction kernel serves every
 * layout: a block of 256 threads covers TX output columns (a column is one (o, i) pair) with TY
 * threads along r each, TX · TY = 256; the TY partial results of a column are combined in
 * shared memory. When the columns are too few to fill the device, r is also split across
 * gridDim.y blocks whose partial results go to scratch memory and are combined in order by a
 * second kernel. Sums accumulate in double (float32, float64) or wrapping int64, as on the
 * CPU; the order of the additions differs, so float results may differ in the last bits.
 * Max / min keep the first index of the extreme value (the first NaN when there is one).
 * Variance is one pass over shifted data, Σ (x - x0) and Σ (x - x0)² in double with x0 the
 * column's first element, then Σ (x - mean)² = Σ (x - x0)² - (Σ (x - x0))² / r.
 *
 * Softmax over contiguous rows (inner = 1) gives each row a group of G threads (G a power of
 * two up to 512; groups of fewer than 32 threads share a warp); otherwise one thread takes
 * each (o, i) column. The maximum is taken in the operand type, NaN propagating; sums of
 * exponentials and the backward sums accumulate in double.
 */
#include <type_traits>

#include "gnn-cuda-kernels.cuh"

namespace gnn_cuda {
namespace {

#define RED_THREADS 256

struct RGeom {
  i64 r, inner, cols;   /* cols = outer · inner */
  i64 tiles;            /* ceil (cols / TX) */
  i64 chunk;            /* elements of r per split */
  int tx, ty;           /* columns per block, threads per column */
  int kfast;            /* consecutive threads walk r (inner = 1), else columns */
};

template <class T>
using SumAcc = typename std::conditional<std::is_same<T, i64>::value, i64, double>::type;

template <class T_>
struct SumRed {
  using T = T_;
  using Acc = SumAcc<T>;
  static constexpr bool PIVOT = false;
  __device__ __forceinline__ Acc init () const { return 0; }
  __device__ __forceinline__ Acc update (Acc a, T x, i64, T) const { return add_ (a, (Acc) x); }
  __device__ __forceinline__ Acc combine (Acc a, Acc b) const { return add_ (a, b); }
  __device__ __forceinline__ void finish (Acc a, T *out, i64 *, i64 c) const { out[c] = (T) a; }
};

template <class T>
struct ValueAt {
  T v;
  i64 k;   /* -1: nothing seen */
};

/* max or min with the first index; NaN beats every number, the first NaN wins */
template <class T_>
struct MinMaxRed {
  using T = T_;
  using Acc = ValueAt<T>;
  static constexpr bool PIVOT = false;
  int is_min;
  __device__ __forceinline__ Acc init () const { return Acc { (T) 0, -1 }; }
  __device__ __forceinline__ Acc combine (Acc a, Acc b) const
  {
    if (b.k < 0)
      return a;
    if (a.k < 0)
      return b;
    {
      bool a_nan = a.v != a.v, b_nan = b.v != b.v;
      if (a_nan || b_nan)
        {
          if (a_nan && b_nan)
            return b.k < a.k ? b : a;
          return a_nan ? a : b;
        }
    }
    if (is_min ? b.v < a.v : b.v > a.v)
      return b;
    if (b.v == a.v && b.k < a.k)
      return b;
    return a;
  }
  __device__ __forceinline__ Acc update (Acc a, T x, i64 k, T) const { return combine (a, Acc { x, k }); }
  __device__ __forceinline__ void finish (Acc a, T *out, i64 *out2, i64 c) const
  {
    out[c] = a.v;
    if (out2)
      out2[c] = a.k;
  }
};

struct Moments {
  double s1, s2;
};

template <class T_>
struct VarRed {
  using T = T_;
  using Acc = Moments;
  static constexpr bool PIVOT = true;
  double r, div;   /* the count and max (0, r - correction) */
  __device__ __forceinline__ Acc init () const { return Acc { 0.0, 0.0 }; }
  __device__ __forceinline__ Acc update (Acc a, T x, i64, T pivot) const
  {
    double d = __dsub_rn ((double) x, (double) pivot);
    return Acc { __dadd_rn (a.s1, d), __dadd_rn (a.s2, __dmul_rn (d, d)) };
  }
  __device__ __forceinline__ Acc combine (Acc a, Acc b) const
  {
    return Acc { __dadd_rn (a.s1, b.s1), __dadd_rn (a.s2, b.s2) };
  }
  __device__ __forceinline__ void finish (Acc a, T *out, i64 *, i64 c) const
  {
    double m2 = __dsub_rn (a.s2, __ddiv_rn (__dmul_rn (a.s1, a.s1), r));
    if (m2 < 0)
      m2 = 0;   /* rounding; a NaN stays */
    out[c] = (T) (r == 0 ? (double) NAN : __ddiv_rn (m2, div));
  }
};

template <class Red>
__global__ void __launch_bounds__ (RED_THREADS)
reduce_kernel (Red red, const typename Red::T *in, RGeom g, typename Red::Acc *partial,
               typename Red::T *out, i64 *out2)
{
  using T = typename Red::T;
  using Acc = typename Red::Acc;
  __shared__ Acc sh[RED_THREADS];
  const int tid = threadIdx.x;
  const int col = g.kfast ? tid / g.ty : tid % g.tx;
  const int kk = g.kfast ? tid % g.ty : tid / g.tx;
  const int slot = kk * g.tx + col;
  const i64 k0 = (i64) blockIdx.y * g.chunk;
  const i64 k1 = min (g.r, k0 + g.chunk);

  for (i64 tile = blockIdx.x; tile < g.tiles; tile += gridDim.x)
    {
      const i64 c = tile * g.tx + col;
      Acc acc = red.init ();

      if (c < g.cols)
        {
          const i64 o = c / g.inner, i = c - o * g.inner;
          const T *base = in + o * g.r * g.inner + i;
          T pivot = (T) 0;

          if constexpr (Red::PIVOT)
            pivot = base[0];
          for (i64 k = k0 + kk; k < k1; k += g.ty)
            acc = red.update (acc, base[k * g.inner], k, pivot);
        }
      sh[slot] = acc;
      __syncthreads ();
      for (int s = g.ty >> 1; s > 0; s >>= 1)
        {
          if (kk < s)
            sh[slot] = red.combine (sh[slot], sh[slot + s * g.tx]);
          __syncthreads ();
        }
      if (kk == 0 && c < g.cols)
        {
          if (gridDim.y == 1)
            red.finish (sh[col], out, out2, c);
          else
            partial[(i64) blockIdx.y * g.cols + c] = sh[col];
        }
      __syncthreads ();
    }
}

/* combines the partial results of the splits of r, in order */
template <class Red>
__global__ void __launch_bounds__ (RED_THREADS)
reduce_finish_kernel (Red red, const typename Red::Acc *partial, int splits, i64 cols,
                      typename Red::T *out, i64 *out2)
{
  for (i64 c = (i64) blockIdx.x * blockDim.x + threadIdx.x; c < cols; c += (i64) gridDim.x * blockDim.x)
    {
      typename Red::Acc acc = partial[c];
      for (int s = 1; s < splits; s++)
        acc = red.combine (acc, partial[(i64) s * cols + c]);
      red.finish (acc, out, out2, c);
    }
}

int
pow2_at_least (i64 v)
{
  int p = 1;
  while (p < v && p < (1 << 30))
    p <<= 1;
  return p;
}

template <class Red>
gboolean
reduce_launch (GnnCudaContext *ctx, const GnnKernelArgs *args, const Red &red, GError **error)
{
  using T = typename Red::T;
  using Acc = typename Red::Acc;
  const i64 outer = args->params.reduce.outer, r = args->params.reduce.reduced, inner = args->params.reduce.inner;
  const i64 sms = ctx->sm_count > 0 ? ctx->sm_count : 80;
  const i64 target = sms * (2048 / RED_THREADS);
  RGeom g;
  int splits = 1;
  int tx_pref;
  Acc *partial = NULL;
  i64 *out2 = args->out2 ? (i64 *) args->out2->data : NULL;
  dim3 grid;

  g.r = r;
  g.inner = inner;
  g.cols = outer * inner;
  if (g.cols == 0)
    return TRUE;
  tx_pref = inner == 1 ? 1 : (int) (inner < 32 ? pow2_at_least (inner) : 32);
  g.ty = (int) MIN ((i64) (RED_THREADS / tx_pref), (i64) pow2_at_least (MAX (r, 1)));
  g.tx = RED_THREADS / g.ty;
  g.kfast = inner == 1;
  g.tiles = (g.cols + g.tx - 1) / g.tx;
  g.chunk = MAX (r, 1);
  if (g.tiles < target && r > (i64) g.ty * 16)
    {
      i64 s = MIN ((target + g.tiles - 1) / g.tiles, (r + g.ty * 16 - 1) / (g.ty * 16));
      s = MIN (s, 1024);
      g.chunk = (r + s - 1) / s;
      splits = (int) ((r + g.chunk - 1) / g.chunk);
    }
  if (splits > 1)
    {
      partial = (Acc *) scratch (ctx, sizeof (Acc) * (size_t) splits * (size_t) g.cols, error);
      if (partial == NULL)
        return FALSE;
    }
  grid = dim3 ((unsigned) MIN (g.tiles, sms * 32), (unsigned) splits, 1);
  reduce_kernel<Red><<<grid, RED_THREADS, 0, ctx->stream>>> (red, (const T *) args->in[0]->data, g, partial,
                                                             (T *) args->out->data, out2);
  if (splits > 1)
    {
      if (!check_launch (args->op, error))
        return FALSE;
      reduce_finish_kernel<Red><<<grid_blocks (ctx, g.cols, RED_THREADS), RED_THREADS, 0, ctx->stream>>> (
        red, partial, splits, g.cols, (T *) args->out->data, out2);
    }
  return check_launch (args->op, error);
}

/* ---- softmax ------------------------------------------------------------------------ */

template <class T>
__device__ __forceinline__ T
max_nan (T a, T b)
{
  return (a != a) ? a : ((b > a || b != b) ? b : a);
}

/* reduces v over the G = blockDim.x threads of a row group (threadIdx.y picks the group);
 * every thread of the group gets the result */
template <class V, class F>
__device__ __forceinline__ V
group_reduce (V v, F f, V *sh)
{
  const int G = blockDim.x;
  const int width = G < 32 ? G : 32;

  for (int off = width >> 1; off > 0; off >>= 1)
    v = f (v, __shfl_xor_sync (0xffffffffu, v, off, width));
  if (G > 32)
    {
      const int warps = G >> 5;
      V *mine = sh + threadIdx.y * warps;

      __syncthreads ();
      if ((threadIdx.x & 31) == 0)
        mine[threadIdx.x >> 5] = v;
      __syncthreads ();
      v = mine[0];
      for (int w = 1; w < warps; w++)
        v = f (v, mine[w]);
    }
  return v;
}

struct MaxNanF {
  template <class T> __device__ __forceinline__ T operator() (T a, T b) const { return max_nan (a, b); }
};

struct AddF {
  __device__ __forceinline__ double operator() (double a, double b) const { return __dadd_rn (a, b); }
};

/* softmax (is_log 0) or log-softmax (1) of rows of length r */
template <class T>
__global__ void __launch_bounds__ (1024)
softmax_rows_kernel (const T *in, T *out, i64 outer, i64 r, int is_log)
{
  __shared__ double shd[32];
  __shared__ T sht[32];
  const int G = blockDim.x, R = blockDim.y;

  for (i64 rb = blockIdx.x; rb * R < outer; rb += gridDim.x)
    {
      const i64 row = rb * R + threadIdx.y;
      const bool valid = row < outer;
      const T *x = in + row * r;
      T *y = out + row * r;
      T m = (T) -INFINITY;
      double s = 0;

      if (valid)
        for (i64 k = threadIdx.x; k < r; k += G)
          m = max_nan (m, x[k]);
      m = group_reduce (m, MaxNanF (), sht);
      if (valid)
        for (i64 k = threadIdx.x; k < r; k += G)
          s = __dadd_rn (s, (double) exp_ (x[k] - m));
      s = group_reduce (s, AddF (), shd);
      if (valid)
        {
          if (is_log)
            {
              const double lse = (double) m + log (s);
              for (i64 k = threadIdx.x; k < r; k += G)
                y[k] = (T) ((double) x[k] - lse);
            }
          else
            {
              const double inv = 1.0 / s;
              for (i64 k = threadIdx.x; k < r; k += G)
                y[k] = (T) ((double) exp_ (x[k] - m) * inv);
            }
        }
      __syncthreads ();
    }
}

/* the same over columns (o, i) of [outer, r, inner], one thread each */
template <class T>
__global__ void __launch_bounds__ (RED_THREADS)
softmax_cols_kernel (const T *in, T *out, i64 cols, i64 r, i64 inner, int is_log)
{
  for (i64 c = (i64) blockIdx.x * blockDim.x + threadIdx.x; c < cols; c += (i64) gridDim.x * blockDim.x)
    {
      const i64 o = c / inner, i = c - o * inner;
      const T *x = in + o * r * inner + i;
      T *y = out + o * r * inner + i;
      T m = (T) -INFINITY;
      double s = 0;

      for (i64 k = 0; k < r; k++)
        m = max_nan (m, x[k * inner]);
      for (i64 k = 0; k < r; k++)
        s = __dadd_rn (s, (double) exp_ (x[k * inner] - m));
      if (is_log)
        {
          const double lse = (double) m + log (s);
          for (i64 k = 0; k < r; k++)
            y[k * inner] = (T) ((double) x[k * inner] - lse);
        }
      else
        {
          const double inv = 1.0 / s;
          for (i64 k = 0; k < r; k++)
            y[k * inner] = (T) ((double) exp_ (x[k * inner] - m) * inv);
        }
    }
}

/* softmax backward: out = y (g - Σ g y); log-softmax backward: out = g - exp (y) Σ g.
 * The sum is complete before out is written, and each element is read and written by one
 * thread, so out may be in0. */
template <class T>
__device__ __forceinline__ double
backward_term (T g, T y, int is_log)
{
  return is_log ? (double) g : __dmul_rn ((double) g, (double) y);
}

template <class T>
__device__ __forceinline__ T
backward_out (T g, T y, double s, int is_log)
{
  return is_log ? (T) __dsub_rn ((double) g, __dmul_rn (exp ((double) y), s))
                : (T) __dmul_rn ((double) y, __dsub_rn ((double) g, s));
}

template <class T>
__global__ void __launch_bounds__ (1024)
softmax_backward_rows_kernel (const T *gin, const T *yin, T *out, i64 outer, i64 r, int is_log)
{
  __shared__ double shd[32];
  const int G = blockDim.x, R = blockDim.y;

  for (i64 rb = blockIdx.x; rb * R < outer; rb += gridDim.x)
    {
      const i64 row = rb * R + threadIdx.y;
      const bool valid = row < outer;
      const T *g = gin + row * r, *y = yin + row * r;
      T *o = out + row * r;
      double s = 0;

      if (valid)
        for (i64 k = threadIdx.x; k < r; k += G)
          s = __dadd_rn (s, backward_term (g[k], y[k], is_log));
      s = group_reduce (s, AddF (), shd);
      if (valid)
        for (i64 k = threadIdx.x; k < r; k += G)
          o[k] = backward_out (g[k], y[k], s, is_log);
      __syncthreads ();
    }
}

template <class T>
__global__ void __launch_bounds__ (RED_THREADS)
softmax_backward_cols_kernel (const T *gin, const T *yin, T *out, i64 cols, i64 r, i64 inner, int is_log)
{
  for (i64 c = (i64) blockIdx.x * blockDim.x + threadIdx.x; c < cols; c += (i64) gridDim.x * blockDim.x)
    {
      const i64 o = c / inner, i = c - o * inner;
      const i64 at = o * r * inner + i;
      double s = 0;

      for (i64 k = 0; k < r; k++)
        s = __dadd_rn (s, backward_term (gin[at + k * inner], yin[at + k * inner], is_log));
      for (i64 k = 0; k < r; k++)
        out[at + k * inner] = backward_out (gin[at + k * inner], yin[at + k * inner], s, is_log);
    }
}

template <class T>
gboolean
softmax_launch (GnnCudaContext *ctx, const GnnKernelArgs *args, GError **error)
{
  const i64 outer = args->params.reduce.outer, r = args->params.reduce.reduced, inner = args->params.reduce.inner;
  const bool backward = args->op == GNN_BACKEND_OP_SOFTMAX_BACKWARD || args->op == GNN_BACKEND_OP_LOG_SOFTMAX_BACKWARD;
  const int is_log = args->op == GNN_BACKEND_OP_LOG_SOFTMAX || args->op == GNN_BACKEND_OP_LOG_SOFTMAX_BACKWARD;
  const i64 sms = ctx->sm_count > 0 ? ctx->sm_count : 80;
  const T *in0 = (const T *) args->in[0]->data;
  const T *in1 = backward ? (const T *) args->in[1]->data : NULL;
  T *out = (T *) args->out->data;

  if (outer * r * inner == 0)
    return TRUE;
  if (inner == 1)
    {
      const int G = (int) MIN ((i64) pow2_at_least (r), (i64) 512);
      const int R = MAX (1, RED_THREADS / G);
      const dim3 block (G, R, 1);
      const unsigned blocks = (unsigned) MIN ((outer + R - 1) / R, sms * (2048 / (G * R)) * 2);

      if (backward)
        softmax_backward_rows_kernel<T><<<blocks, block, 0, ctx->stream>>> (in0, in1, out, outer, r, is_log);
      else
        softmax_rows_kernel<T><<<blocks, block, 0, ctx->stream>>> (in0, out, outer, r, is_log);
    }
  else
    {
      const unsigned blocks = grid_blocks (ctx, outer * inner, RED_THREADS);

      if (backward)
        softmax_backward_cols_kernel<T><<<blocks, RED_THREADS, 0, ctx->stream>>> (in0, in1, out, outer * inner, r,
                                                                                  inner, is_log);
      else
        softmax_cols_kernel<T><<<blocks, RED_THREADS, 0, ctx->stream>>> (in0, out, outer * inner, r, inner, is_log);
    }
  return check_launch (args->op, error);
}

gboolean
check_operand (const GnnKernelArgs *args, const GnnKernelTensor *t, const char *name, GnnDtype dtype,
               i64 expected, GError **error)
{
  if (t->dtype != dtype)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED, "The cuda backend has no %s kernel for %s of "
                   "dtype %s (expected %s)", op_name (args->op), name, gnn_dtype_get_name (t->dtype),
                   gnn_dtype_get_name (dtype));
      return FALSE;
    }
  if (numel (t) != expected)
    return fail (error, GNN_ERROR_INVALID_ARGUMENT, args->op, "%s has %" G_GINT64_FORMAT " elements, but the "
                 "layout in params.reduce needs %" G_GINT64_FORMAT, name, (gint64) numel (t), (gint64) expected);
  if (!is_contiguous (t))
    return fail (error, GNN_ERROR_NOT_SUPPORTED, args->op, "%s must be contiguous", name);
  return TRUE;
}

} /* anonymous namespace */

gboolean
run_reduce (GnnCudaContext *ctx, const GnnKernelArgs *args, GError **error)
{
  const GnnBackendOp op = args->op;
  const i64 outer = args->params.reduce.outer, r = args->params.reduce.reduced, inner = args->params.reduce.inner;
  const GnnDtype dt = args->in[0]->dtype;
  const bool softmax = op == GNN_BACKEND_OP_SOFTMAX || op == GNN_BACKEND_OP_LOG_SOFTMAX ||
                       op == GNN_BACKEND_OP_SOFTMAX_BACKWARD || op == GNN_BACKEND_OP_LOG_SOFTMAX_BACKWARD;

  if (outer < 0 || r < 0 || inner < 0)
    return fail (error, GNN_ERROR_INVALID_ARGUMENT, op, "negative sizes in params.reduce");
  if (!check_operand (args, args->in[0], "in0", dt, outer * r * inner, error) ||
      !check_operand (args, args->out, "out", dt, softmax ? outer * r * inner : outer * inner, error))
    return FALSE;
  if ((op == GNN_BACKEND_OP_SOFTMAX_BACKWARD || op == GNN_BACKEND_OP_LOG_SOFTMAX_BACKWARD) &&
      !check_operand (args, args->in[1], "in1", dt, outer * r * inner, error))
    return FALSE;

  switch (op)
    {
    case GNN_BACKEND_OP_SUM:
      if (dt == GNN_DTYPE_FLOAT32)
        return reduce_launch (ctx, args, SumRed<float> (), error);
      if (dt == GNN_DTYPE_FLOAT64)
        return reduce_launch (ctx, args, SumRed<double> (), error);
      return reduce_launch (ctx, args, SumRed<i64> (), error);
    case GNN_BACKEND_OP_MAX:
    case GNN_BACKEND_OP_MIN:
      if (args->out2 && !check_operand (args, args->out2, "out2", GNN_DTYPE_INT64, outer * inner, error))
        return FALSE;
      if (r == 0)
        return fail (error, GNN_ERROR_INDEX, op, "cannot reduce over a dimension of size zero");
      if (dt == GNN_DTYPE_FLOAT32)
        {
          MinMaxRed<float> red;
          red.is_min = op == GNN_BACKEND_OP_MIN;
          return reduce_launch (ctx, args, red, error);
        }
      if (dt == GNN_DTYPE_FLOAT64)
        {
          MinMaxRed<double> red;
          red.is_min = op == GNN_BACKEND_OP_MIN;
          return reduce_launch (ctx, args, red, error);
        }
      {
        MinMaxRed<i64> red;
        red.is_min = op == GNN_BACKEND_OP_MIN;
        return reduce_launch (ctx, args, red, error);
      }
    case GNN_BACKEND_OP_VAR:
      if (dt == GNN_DTYPE_FLOAT32)
        {
          VarRed<float> red;
          red.r = (double) r;
          red.div = MAX (0.0, (double) r - args->params.reduce.correction);
          return reduce_launch (ctx, args, red, error);
        }
      {
        VarRed<double> red;
        red.r = (double) r;
        red.div = MAX (0.0, (double) r - args->params.reduce.correction);
        return reduce_launch (ctx, args, red, error);
      }
    default:
      if (dt == GNN_DTYPE_FLOAT32)
        return softmax_launch<float> (ctx, args, error);
      return softmax_launch<double> (ctx, args, error);
    }
}

} /* namespace gnn_cuda */
