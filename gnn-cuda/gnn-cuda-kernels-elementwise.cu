/* gnn-cuda-kernels-elementwise.cu: copy and dtype conversion, fill, arange, the Philox random
 * kernels, binary arithmetic and comparisons, where, the unary functions and activations with
 * their backward kernels, lerp / addcmul / addcdiv, and the multi-tensor FOREACH_LERP
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Every elementwise kernel goes through one driver: the operands (out first) have out's shape,
 * any strides (zero for broadcasting); dimensions of size 1 are dropped and dimensions that are
 * contiguous in every operand merged, as the CPU backend's gnn_cpu_foreach does. What is left
 * is either one dimension (a grid-stride loop; for the cheap functors, 4-wide vector accesses
 * when every operand has unit or zero stride and is aligned) or several (the row-major index
 * is taken apart with 32-bit multiplicative division, so that a tensor of 2^31 elements or
 * more takes several launches). Each functor is instantiated for the dtypes the CPU backend
 * has, no more, to keep the code size and nvcc's time down.
 *
 * FOREACH_LERP queues one kernel per up to 64 operand pairs: the pairs' pointers and sizes go
 * in the kernel parameter (no copy, no synchronization), each block takes one chunk of one
 * pair, with 16-byte accesses for aligned pairs. A pair that is not contiguous goes through
 * the elementwise driver.
 */
#include <type_traits>

#include "gnn-cuda-kernels.cuh"
#include "core/gnn-dtype-private.h"   /* static inline: unaffected by the visibility pragma */
#include "backend/gnn-math-private.h"   /* the special functions, device functions here */

namespace gnn_cuda {
namespace {

typedef unsigned char u8;

/* ---- the driver ---------------------------------------------------------------------- */

struct EwPtrs {
  void *out;
  const void *in[3];
};

/* a one-dimensional view: the stride of each operand (out first) */
struct EwFlat {
  i64 st[4];
  int vec;   /* every stride 0 or 1 and every unit-stride operand aligned for 4-wide access */
};

/* several dimensions, innermost first. One launch covers fewer than 2^31 elements, so that
 * the index is taken apart in 32-bit arithmetic; a larger tensor takes several launches, each
 * starting at row-major index base, whose multi-index base_idx is added digit by digit. */
struct EwNd {
  int ndim;
  int has_base;
  IntDiv div[GNN_MAX_DIMS];
  i64 shape[GNN_MAX_DIMS];
  i64 st[4][GNN_MAX_DIMS];
  i64 base_idx[GNN_MAX_DIMS];
  i64 base;
};

/* elements per launch of a tensor of 2^31 elements or more */
#define EW_LAUNCH_MAX ((i64) 1 << 30)

/* Functors: typed ones give out_t and in0_t..in2_t and compute one element from the inputs'
 * values; RAW ones address the operands themselves (dtype conversion, arange, random), with
 * the row-major index of the element. */
template <class TO, class T0 = void, class T1 = void, class T2 = void, bool V = true>
struct Typed {
  using out_t = TO;
  using in0_t = T0;
  using in1_t = T1;
  using in2_t = T2;
  static constexpr bool RAW = false;
  static constexpr bool VEC = V;   /* cheap enough to unroll 4-wide */
  static constexpr int N = std::is_void<T0>::value ? 0 : std::is_void<T1>::value ? 1
                           : std::is_void<T2>::value ? 2 : 3;
};

template <int NIN>
struct Raw {
  using out_t = u8;
  using in0_t = u8;
  using in1_t = u8;
  using in2_t = u8;
  static constexpr bool RAW = true;
  static constexpr bool VEC = false;
  static constexpr int N = NIN;
};

template <class T>
struct alignas (sizeof (T) * 4) V4 {
  T v[4];
};

template <class T>
__device__ __forceinline__ V4<T>
load4 (const void *base, i64 st, i64 q)
{
  if (st == 0)
    {
      T x = *(const T *) base;
      return V4<T> { { x, x, x, x } };
    }
  return ((const V4<T> *) base)[q];
}

template <class Op>
__device__ __forceinline__ void
ew_apply (const Op &op, const EwPtrs &p, i64 l, i64 o, i64 a, i64 b, i64 c)
{
  if constexpr (Op::RAW)
    op.apply (p, l, o, a, b, c);
  else
    {
      using TO = typename Op::out_t;
      TO *out = (TO *) p.out;
      if constexpr (Op::N == 0)
        out[o] = op ();
      else if constexpr (Op::N == 1)
        out[o] = op (((const typename Op::in0_t *) p.in[0])[a]);
      else if constexpr (Op::N == 2)
        out[o] = op (((const typename Op::in0_t *) p.in[0])[a], ((const typename Op::in1_t *) p.in[1])[b]);
      else
        out[o] = op (((const typename Op::in0_t *) p.in[0])[a], ((const typename Op::in1_t *) p.in[1])[b],
                     ((const typename Op::in2_t *) p.in[2])[c]);
    }
}

/* elements 4q .. 4q + 3 of unit-stride (or zero-stride inputs) operands */
template <class Op>
__device__ __forceinline__ void
ew_apply4 (const Op &op, const EwPtrs &p, const EwFlat &s, i64 q)
{
  using TO = typename Op::out_t;
  V4<TO> r;

  if constexpr (Op::N == 0)
    {
#pragma unroll
      for (int j = 0; j < 4; j++)
        r.v[j] = op ();
    }
  else if constexpr (Op::N == 1)
    {
      V4<typename Op::in0_t> a = load4<typename Op::in0_t> (p.in[0], s.st[1], q);
#pragma unroll
      for (int j = 0; j < 4; j++)
        r.v[j] = op (a.v[j]);
    }
  else if constexpr (Op::N == 2)
    {
      V4<typename Op::in0_t> a = load4<typename Op::in0_t> (p.in[0], s.st[1], q);
      V4<typename Op::in1_t> b = load4<typename Op::in1_t> (p.in[1], s.st[2], q);
#pragma unroll
      for (int j = 0; j < 4; j++)
        r.v[j] = op (a.v[j], b.v[j]);
    }
  else
    {
      V4<typename Op::in0_t> a = load4<typename Op::in0_t> (p.in[0], s.st[1], q);
      V4<typename Op::in1_t> b = load4<typename Op::in1_t> (p.in[1], s.st[2], q);
      V4<typename Op::in2_t> c = load4<typename Op::in2_t> (p.in[2], s.st[3], q);
#pragma unroll
      for (int j = 0; j < 4; j++)
        r.v[j] = op (a.v[j], b.v[j], c.v[j]);
    }
  ((V4<TO> *) p.out)[q] = r;
}

template <class Op>
__global__ void __launch_bounds__ (GC_THREADS)
ew_flat_kernel (Op op, EwPtrs p, EwFlat s, i64 n)
{
  i64 tid = (i64) blockIdx.x * blockDim.x + threadIdx.x;
  i64 step = (i64) gridDim.x * blockDim.x;
  i64 start = tid;

  if constexpr (Op::VEC)
    {
      if (s.vec)
        {
          i64 nv = n >> 2;
          for (i64 q = tid; q < nv; q += step)
            ew_apply4 (op, p, s, q);
          start = (nv << 2) + tid;
        }
    }
  for (i64 l = start; l < n; l += step)
    ew_apply (op, p, l, l * s.st[0], l * s.st[1], l * s.st[2], l * s.st[3]);
}

template <class Op>
__global__ void __launch_bounds__ (GC_THREADS)
ew_nd_kernel (Op op, EwPtrs p, const __grid_constant__ EwNd g, unsigned n)
{
  constexpr int NOPS = Op::N + 1;
  unsigned tid = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned step = gridDim.x * blockDim.x;

  for (unsigned l = tid; l < n; l += step)
    {
      i64 off[4] = { 0, 0, 0, 0 };
      unsigned rem = l, carry = 0;

#pragma unroll 1
      for (int d = 0; d < g.ndim; d++)
        {
          /* the outermost digit is what is left */
          unsigned q = d + 1 < g.ndim ? g.div[d].div (rem) : 0;
          i64 idx = (i64) (rem - q * g.div[d].d);
          rem = q;
          if (g.has_base)
            {
              idx += g.base_idx[d] + carry;
              carry = d + 1 < g.ndim && idx >= g.shape[d];
              if (carry)
                idx -= g.shape[d];
            }
#pragma unroll
          for (int k = 0; k < NOPS; k++)
            off[k] += idx * g.st[k][d];
        }
      ew_apply (op, p, g.base + (i64) l, off[0], off[1], off[2], off[3]);
    }
}

/* the size of an operand type, 1 for an absent one */
template <class T> struct SizeOf { static constexpr size_t v = sizeof (T); };
template <> struct SizeOf<void> { static constexpr size_t v = 1; };

/* Collapses the operands' common shape (out's) and launches one kernel over it. */
template <class Op>
gboolean
ew_launch (GnnCudaContext *ctx, GnnBackendOp opcode, const GnnKernelTensor *const *ops, const Op &op,
           GError **error)
{
  constexpr int NOPS = Op::N + 1;
  const GnnKernelTensor *out = ops[0];
  i64 shape[GNN_MAX_DIMS], st[4][GNN_MAX_DIMS];
  int nd = 0;
  i64 n = 1;
  EwPtrs p = { out->data, { NULL, NULL, NULL } };

  for (int k = 1; k < NOPS; k++)
    {
      if (ops[k]->ndim != out->ndim || memcmp (ops[k]->shape, out->shape, sizeof (gint64) * out->ndim) != 0)
        return fail (error, GNN_ERROR_INVALID_ARGUMENT, opcode,
                     "in%d and out differ in shape (operands of an elementwise kernel share one shape)", k - 1);
      p.in[k - 1] = ops[k]->data;
    }

  /* drop size-1 dimensions, merge dimensions contiguous in every operand */
  for (guint d = 0; d < out->ndim; d++)
    {
      i64 size = out->shape[d];
      n *= size;
      if (size == 1)
        continue;
      if (nd > 0)
        {
          bool merge = true;
          for (int k = 0; k < NOPS && merge; k++)
            if (st[k][nd - 1] != ops[k]->strides[d] * size)
              merge = false;
          if (merge)
            {
              shape[nd - 1] *= size;
              for (int k = 0; k < NOPS; k++)
                st[k][nd - 1] = ops[k]->strides[d];
              continue;
            }
        }
      shape[nd] = size;
      for (int k = 0; k < NOPS; k++)
        st[k][nd] = ops[k]->strides[d];
      nd++;
    }
  if (n == 0)
    return TRUE;

  if (nd <= 1)
    {
      EwFlat s = { { 0, 0, 0, 0 }, 0 };
      unsigned blocks;

      for (int k = 0; k < NOPS; k++)
        s.st[k] = nd == 1 ? st[k][0] : 0;
      if (Op::VEC && n >= 4 && s.st[0] == 1)
        {
          const size_t sizes[4] = { SizeOf<typename Op::out_t>::v, SizeOf<typename Op::in0_t>::v,
                                    SizeOf<typename Op::in1_t>::v, SizeOf<typename Op::in2_t>::v };
          const void *ptrs[4] = { p.out, p.in[0], p.in[1], p.in[2] };
          s.vec = 1;
          for (int k = 0; k < NOPS; k++)
            if (!(s.st[k] == 0 && k > 0) &&
                !(s.st[k] == 1 && (uintptr_t) ptrs[k] % (4 * sizes[k]) == 0))
              s.vec = 0;
        }
      blocks = grid_blocks (ctx, s.vec ? (n + 3) / 4 : n, GC_THREADS);
      ew_flat_kernel<Op><<<blocks, GC_THREADS, 0, ctx->stream>>> (op, p, s, n);
    }
  else
    {
      EwNd g;

      memset (&g, 0, sizeof g);
      g.ndim = nd;
      for (int d = 0; d < nd; d++)
        {
          int src = nd - 1 - d;   /* innermost first */
          g.shape[d] = shape[src];
          g.div[d].init ((u64) shape[src]);
          for (int k = 0; k < NOPS; k++)
            g.st[k][d] = st[k][src];
        }
      for (i64 base = 0; base < n; base += EW_LAUNCH_MAX)
        {
          i64 count = n - base < EW_LAUNCH_MAX ? n - base : EW_LAUNCH_MAX;
          i64 rest = base;

          g.base = base;
          g.has_base = base > 0;
          for (int d = 0; d < nd; d++)
            {
              g.base_idx[d] = d + 1 < nd ? rest % g.shape[d] : rest;
              rest /= g.shape[d];
            }
          ew_nd_kernel<Op><<<grid_blocks (ctx, count, GC_THREADS), GC_THREADS, 0, ctx->stream>>> (op, p, g, (unsigned) count);
          if (n > EW_LAUNCH_MAX && !check_launch (opcode, error))
            return FALSE;
        }
    }
  return check_launch (opcode, error);
}

/* out and the first n_in inputs of a kernel call */
template <class Op>
gboolean
ew_args (GnnCudaContext *ctx, const GnnKernelArgs *args, const Op &op, GError **error)
{
  const GnnKernelTensor *ops[4] = { args->out, args->in[0], args->in[1], args->in[2] };
  return ew_launch (ctx, args->op, ops, op, error);
}

/* ---- the math, as the CPU kernels write it ------------------------------------------- */

__device__ __forceinline__ float  pow_ (float a, float b)   { return powf (a, b); }
__device__ __forceinline__ double pow_ (double a, double b) { return pow (a, b); }

__device__ __forceinline__ float  hypot_ (float a, float b)   { return hypotf (a, b); }
__device__ __forceinline__ double hypot_ (double a, double b) { return hypot (a, b); }

/* integer power, wrapping; a negative exponent gives 1 / base^|e| truncated */
__device__ __forceinline__ i64
pow_ (i64 base, i64 e)
{
  u64 r = 1, b = (u64) base;

  if (e < 0)
    return base == 1 ? 1 : (base == -1 ? ((e & 1) ? -1 : 1) : 0);
  while (e)
    {
      if (e & 1)
        r *= b;
      b *= b;
      e >>= 1;
    }
  return (i64) r;
}

__device__ __forceinline__ float  neg_ (float x)  { return -x; }
__device__ __forceinline__ double neg_ (double x) { return -x; }
__device__ __forceinline__ i64    neg_ (i64 x)    { return (i64) (0 - (u64) x); }
__device__ __forceinline__ float  abs_ (float x)  { return fabsf (x); }
__device__ __forceinline__ double abs_ (double x) { return fabs (x); }
__device__ __forceinline__ i64    abs_ (i64 x)    { return x < 0 ? (i64) (0 - (u64) x) : x; }
__device__ __forceinline__ float  sqrt_ (float x)  { return __fsqrt_rn (x); }
__device__ __forceinline__ double sqrt_ (double x) { return __dsqrt_rn (x); }
__device__ __forceinline__ float  tanh_ (float x)  { return tanhf (x); }
__device__ __forceinline__ double tanh_ (double x) { return tanh (x); }
__device__ __forceinline__ float  erf_ (float x)  { return erff (x); }
__device__ __forceinline__ double erf_ (double x) { return erf (x); }

#define C_SQRT1_2   0.70710678118654752440
#define C_2_SQRTPI  1.12837916709551257390
#define C_SQRT2     1.41421356237309504880
#define GELU_BETA   (C_SQRT2 * C_2_SQRTPI * 0.5)
#define GELU_KAPPA  0.044715

/* gelu exact: x/2 (1 + erf (x / √2)) */
template <class T>
__device__ __forceinline__ T
gelu_erf (T x)
{
  return x * (T) 0.5 * ((T) 1 + erf_ (x * (T) C_SQRT1_2));
}

/* gelu, tanh approximation */
template <class T>
__device__ __forceinline__ T
gelu_tanh (T x)
{
  const T inner = (T) GELU_BETA * (x + (T) GELU_KAPPA * (x * x * x));
  return (T) 0.5 * x * ((T) 1 + tanh_ (inner));
}

template <class T>
__device__ __forceinline__ T
gelu_erf_grad (T x)
{
  const T cdf = (T) 0.5 * ((T) 1 + erf_ (x * (T) C_SQRT1_2));
  const T pdf = (T) (C_2_SQRTPI * C_SQRT1_2 * 0.5) * exp_ (x * x * (T) -0.5);
  return cdf + x * pdf;
}

template <class T>
__device__ __forceinline__ T
gelu_tanh_grad (T x)
{
  const T beta = (T) GELU_BETA, kappa = (T) GELU_KAPPA;
  const T x_sq = x * x;
  const T t = tanh_ (beta * (x + kappa * (x_sq * x)));
  const T left = (T) 0.5 * x, right = (T) 1 + t;
  return (T) 0.5 * right + left * ((T) 1 - t * t) * beta * ((T) 1 + (T) 3 * kappa * x_sq);
}

template <class T>
__device__ __forceinline__ T
silu_grad (T x)
{
  const T sg = (T) 1 / ((T) 1 + exp_ (-x));
  return sg * ((T) 1 + x * ((T) 1 - sg));
}

/* ---- functors ---------------------------------------------------------------------- */

/* a functor of T with one scalar parameter p, read from the named kernel parameter PARAM
 * (an expression of args, e.g. args->params.elu.alpha) */
#define FUNCTOR_P(NAME, BASE, PARAMS, PARAM, EXPR)                                           \
template <class T>                                                                           \
struct NAME : BASE {                                                                         \
  T p;                                                                                       \
  static NAME make (const GnnKernelArgs *args) { NAME f; f.p = (T) (PARAM); return f; }      \
  __device__ __forceinline__ typename BASE::out_t operator() PARAMS const { return (EXPR); } \
};
/* a functor of T without parameters */
#define FUNCTOR(NAME, BASE, PARAMS, EXPR)                                                    \
template <class T>                                                                           \
struct NAME : BASE {                                                                         \
  static NAME make (const GnnKernelArgs *) { NAME f; return f; }                             \
  __device__ __forceinline__ typename BASE::out_t operator() PARAMS const { return (EXPR); } \
};

/* cheap functors (4-wide unrolled on aligned unit strides) and costly ones (one element a
 * thread, to keep the code size and compile time down) */
#define B2 Typed<T, T, T>
#define B2X Typed<T, T, T, void, false>
#define U1 Typed<T, T>
#define U1X Typed<T, T, void, void, false>
#define T3 Typed<T, T, T, T>
#define PA (T a)
#define PAB (T a, T b)
#define PABC (T a, T b, T c)

/* ADD and SUB: a + p b, p = alpha or -alpha (a - alpha b and a + (-alpha) b round alike; int64 wraps) */
template <class T>
struct AddOp : B2 {
  T p;
  static AddOp make (const GnnKernelArgs *args)
  {
    AddOp f;
    f.p = (T) args->params.add.alpha;
    if (args->op == GNN_BACKEND_OP_SUB)
      {
        if constexpr (std::is_same<T, i64>::value)
          f.p = (i64) (0 - (u64) f.p);
        else
          f.p = -f.p;
      }
    return f;
  }
  __device__ __forceinline__ T operator() (T a, T b) const { return add_ (a, mul_ (p, b)); }
};

/* MAXIMUM and MINIMUM, NaN propagating */
template <class T>
struct MaxMinOp : B2 {
  int is_min;
  static MaxMinOp make (const GnnKernelArgs *args)
  {
    MaxMinOp f;
    f.is_min = args->op == GNN_BACKEND_OP_MINIMUM;
    return f;
  }
  __device__ __forceinline__ T operator() (T a, T b) const
  {
    return ((is_min ? a < b : a > b) || a != a) ? a : b;
  }
};

/* the comparisons, bool out */
template <class T>
struct CompareOp : Typed<u8, T, T> {
  int kind;
  static CompareOp make (const GnnKernelArgs *args)
  {
    CompareOp f;
    f.kind = args->op - GNN_BACKEND_OP_EQ;
    return f;
  }
  __device__ __forceinline__ u8 operator() (T a, T b) const
  {
    switch (kind)
      {
      case 0: return a == b;
      case 1: return a != b;
      case 2: return a < b;
      case 3: return a <= b;
      case 4: return a > b;
      default: return a >= b;
      }
  }
};

/* NEG, ABS, SIGN (of NaN: 0), RELU (NaN propagating) */
template <class T>
struct SimpleUnaryOp : U1 {
  int kind;
  static SimpleUnaryOp make (const GnnKernelArgs *args)
  {
    SimpleUnaryOp f;
    f.kind = args->op == GNN_BACKEND_OP_NEG ? 0 : args->op == GNN_BACKEND_OP_ABS ? 1
             : args->op == GNN_BACKEND_OP_SIGN ? 2 : 3;
    return f;
  }
  __device__ __forceinline__ T operator() (T a) const
  {
    switch (kind)
      {
      case 0: return neg_ (a);
      case 1: return abs_ (a);
      case 2: return a > (T) 0 ? (T) 1 : (a < (T) 0 ? (T) -1 : (T) 0);
      default: return a < (T) 0 ? (T) 0 : a;
      }
  }
};

FUNCTOR (MulOp, B2, PAB, mul_ (a, b))
FUNCTOR (DivOp, B2, PAB, div_ (a, b))
FUNCTOR (PowOp, B2X, PAB, pow_ (a, b))
FUNCTOR (HypotOp, B2X, PAB, hypot_ (a, b))

FUNCTOR (ExpOp, U1X, PA, exp_ (a))
FUNCTOR (LogOp, U1X, PA, log_ (a))
FUNCTOR (SqrtOp, U1, PA, sqrt_ (a))
FUNCTOR_P (LeakyReluOp, U1, PA, args->params.leaky_relu.negative_slope, a > (T) 0 ? a : mul_ (a, p))
/* PyTorch 1.13 computes exp (x) - 1 here, not expm1 */
FUNCTOR_P (EluOp, U1X, PA, args->params.elu.alpha, a > (T) 0 ? a : mul_ (sub_ (exp_ (a), (T) 1), p))
FUNCTOR (GeluErfOp, U1X, PA, gelu_erf (a))
FUNCTOR (GeluTanhOp, U1X, PA, gelu_tanh (a))
FUNCTOR (SiluOp, U1X, PA, div_ (a, add_ ((T) 1, exp_ (-a))))
FUNCTOR (SigmoidOp, U1X, PA, div_ ((T) 1, add_ ((T) 1, exp_ (-a))))
FUNCTOR (TanhOp, U1X, PA, tanh_ (a))

/* backward: a is the gradient (in0), b the saved input or result (in1) */
FUNCTOR (ReluBackwardOp, B2, PAB, b <= (T) 0 ? (T) 0 : a)
FUNCTOR_P (LeakyReluBackwardOp, B2, PAB, args->params.leaky_relu.negative_slope, b > (T) 0 ? a : mul_ (a, p))
FUNCTOR_P (EluBackwardOp, B2X, PAB, args->params.elu.alpha, b <= (T) 0 ? mul_ (mul_ (a, p), exp_ (b)) : a)
FUNCTOR (GeluErfBackwardOp, B2X, PAB, a * gelu_erf_grad (b))
FUNCTOR (GeluTanhBackwardOp, B2X, PAB, a * gelu_tanh_grad (b))
FUNCTOR (SiluBackwardOp, B2X, PAB, a * silu_grad (b))
FUNCTOR (SigmoidBackwardOp, B2, PAB, mul_ (mul_ (a, sub_ ((T) 1, b)), b))
FUNCTOR (TanhBackwardOp, B2, PAB, mul_ (a, sub_ ((T) 1, mul_ (b, b))))

/* the elementwise math functions (gnn-cpu-math.c's tables): one functor of each arity that
 * switches on the op, as the CPU backend calls the op's function from its table */
template <class T>
__device__ __forceinline__ T
math1 (GnnBackendOp op, T a)
{
  switch (op)
    {
    case GNN_BACKEND_OP_RECIPROCAL: return (T) 1 / a;
    case GNN_BACKEND_OP_RSQRT:      return (T) 1 / sqrt_ (a);
    case GNN_BACKEND_OP_LOG1P:      return log1p (a);
    case GNN_BACKEND_OP_EXPM1:      return expm1 (a);
    case GNN_BACKEND_OP_LOG2:       return log2 (a);
    case GNN_BACKEND_OP_LOG10:      return log10 (a);
    case GNN_BACKEND_OP_SIN:        return sin (a);
    case GNN_BACKEND_OP_COS:        return cos (a);
    case GNN_BACKEND_OP_TAN:        return tan (a);
    case GNN_BACKEND_OP_ASIN:       return asin (a);
    case GNN_BACKEND_OP_ACOS:       return acos (a);
    case GNN_BACKEND_OP_ATAN:       return atan (a);
    case GNN_BACKEND_OP_SINH:       return sinh (a);
    case GNN_BACKEND_OP_COSH:       return cosh (a);
    case GNN_BACKEND_OP_ASINH:      return asinh (a);
    case GNN_BACKEND_OP_ACOSH:      return acosh (a);
    case GNN_BACKEND_OP_ATANH:      return atanh (a);
    case GNN_BACKEND_OP_ERF:        return erf (a);
    case GNN_BACKEND_OP_ERFC:       return erfc (a);
    case GNN_BACKEND_OP_ERFINV:     return erfinv (a);
    case GNN_BACKEND_OP_LGAMMA:     return lgamma (a);
    case GNN_BACKEND_OP_FLOOR:      return floor (a);
    case GNN_BACKEND_OP_CEIL:       return ceil (a);
    case GNN_BACKEND_OP_ROUND:      return nearbyint (a);
    case GNN_BACKEND_OP_TRUNC:      return trunc (a);
    case GNN_BACKEND_OP_EXP2:       return exp2 (a);
    case GNN_BACKEND_OP_SINC:
      {
        /* in T, as PyTorch's kernel: π rounded to T, then sin (πx) / (πx) */
        T px = (T) M_PI * a;
        return a == (T) 0 ? (T) 1 : sin (px) / px;
      }
    /* the special functions: gnn-math-private.h's, in double as on the CPU, rounded once */
    case GNN_BACKEND_OP_I0:         return (T) gnn_math_i0 ((double) a);
    case GNN_BACKEND_OP_I0E:        return (T) gnn_math_i0e ((double) a);
    case GNN_BACKEND_OP_I1:         return (T) gnn_math_i1 ((double) a);
    case GNN_BACKEND_OP_I1E:        return (T) gnn_math_i1e ((double) a);
    case GNN_BACKEND_OP_NDTRI:      return (T) gnn_math_ndtri ((double) a);
    case GNN_BACKEND_OP_LOG_NDTR:   return (T) gnn_math_log_ndtr ((double) a);
    case GNN_BACKEND_OP_ERFCX:      return (T) gnn_math_erfcx ((double) a);
    case GNN_BACKEND_OP_ENTR:       return (T) gnn_math_entr ((double) a);
    default:                        return a - trunc (a);   /* FRAC */
    }
}

/* gnn-math-private.h's remainder, floor_divide and xlogy, in T */
template <class T>
__device__ __forceinline__ T
math2 (GnnBackendOp op, T a, T b)
{
  if constexpr (std::is_same<T, i64>::value)
    {
      if (op == GNN_BACKEND_OP_FMAX)
        return a > b ? a : b;
      if (op == GNN_BACKEND_OP_FMIN)
        return a < b ? a : b;
      if (op == GNN_BACKEND_OP_HEAVISIDE)
        return a == 0 ? b : (i64) (a > 0);
    }
  if constexpr (std::is_same<T, i64>::value)
    {
      /* FMOD, REMAINDER, FLOOR_DIVIDE: a zero divisor gives 0 (a device kernel cannot report
       * it); INT64_MIN by -1 wraps */
      i64 r, q;
      if (b == 0)
        return 0;
      r = b == -1 ? 0 : a % b;
      q = b == -1 ? (i64) (0 - (u64) a) : a / b;
      if (op == GNN_BACKEND_OP_FMOD || r == 0 || ((r < 0) == (b < 0)))
        return op == GNN_BACKEND_OP_FLOOR_DIVIDE ? q : r;
      return op == GNN_BACKEND_OP_FLOOR_DIVIDE ? q - 1 : r + b;
    }
  else
  switch (op)
    {
    case GNN_BACKEND_OP_ATAN2: return atan2 (a, b);
    case GNN_BACKEND_OP_FMOD:  return fmod (a, b);
    case GNN_BACKEND_OP_REMAINDER:
      {
        T r = fmod (a, b);
        return (r != (T) 0 && ((b < (T) 0) != (r < (T) 0))) ? r + b : r;
      }
    case GNN_BACKEND_OP_FLOOR_DIVIDE:
      {
        T mod, div, fl;
        if (b == (T) 0)
          return a / b;
        mod = fmod (a, b);
        div = (a - mod) / b;
        if (mod != (T) 0 && ((b < (T) 0) != (mod < (T) 0)))
          div -= (T) 1;
        if (div == (T) 0)
          return copysign ((T) 0, a / b);
        fl = floor (div);
        return div - fl > (T) 0.5 ? fl + (T) 1 : fl;
      }
    case GNN_BACKEND_OP_COPYSIGN:  return copysign (a, b);
    case GNN_BACKEND_OP_FMAX:      return fmax (a, b);
    case GNN_BACKEND_OP_FMIN:      return fmin (a, b);
    case GNN_BACKEND_OP_NEXTAFTER: return nextafter (a, b);
    case GNN_BACKEND_OP_HEAVISIDE: return a == (T) 0 ? b : (T) (a > (T) 0);
    case GNN_BACKEND_OP_LOGADDEXP:
    case GNN_BACKEND_OP_LOGADDEXP2:
      {
        /* gnn-math-private.h's: from the larger, the same infinity kept */
        T m = a > b ? a : b;
        if (isinf (a) && a == b)
          return a;
        if (a != a || b != b)
          return a + b;
        if (op == GNN_BACKEND_OP_LOGADDEXP)
          return m + log1p (exp (-fabs (a - b)));
        return m + log1p (exp2 (-fabs (a - b))) / (T) M_LN2;
      }
    case GNN_BACKEND_OP_XLOG1PY:   return (T) gnn_math_xlog1py ((double) a, (double) b);
    default:   /* XLOGY */
      return b != b ? b : a == (T) 0 ? (T) 0 : a * log (b);
    }
}

template <class T>
struct MathUnaryOp : U1X {
  GnnBackendOp op;
  static MathUnaryOp make (const GnnKernelArgs *args) { MathUnaryOp f; f.op = args->op; return f; }
  __device__ __forceinline__ T operator() (T a) const { return math1 (op, a); }
};

template <class T>
struct MathBinaryOp : B2X {
  GnnBackendOp op;
  static MathBinaryOp make (const GnnKernelArgs *args) { MathBinaryOp f; f.op = args->op; return f; }
  __device__ __forceinline__ T operator() (T a, T b) const { return math2 (op, a, b); }
};

/* PyTorch's lerp: start + w (end - start) for |w| < 0.5, else end - (end - start) (1 - w) */
template <class T>
__device__ __forceinline__ T
lerp_ (T a, T b, T w)
{
  return (w < (T) 0.5 && w > (T) -0.5) ? add_ (a, mul_ (w, sub_ (b, a)))
                                       : sub_ (b, mul_ (sub_ (b, a), sub_ ((T) 1, w)));
}

FUNCTOR (LerpOp, T3, PABC, lerp_ (a, b, c))
FUNCTOR_P (AddcmulOp, T3, PABC, args->params.addc.value, add_ (a, mul_ (mul_ (p, b), c)))
/* PyTorch's order: self + value * tensor1 / tensor2 is (value * tensor1) / tensor2 */
FUNCTOR_P (AddcdivOp, T3, PABC, args->params.addc.value, add_ (a, div_ (mul_ (p, b), c)))
/* lerp with a scalar weight: FOREACH_LERP on operands that are not contiguous */
FUNCTOR_P (LerpScalarOp, B2, PAB, args->params.lerp.weight, lerp_ (a, b, p))

/* clamp: lower bound first, so min > max gives max; a NaN input stays NaN */
template <class T>
struct ClampOp : Typed<T, T> {
  T lo, hi;
  static ClampOp make (const GnnKernelArgs *args)
  {
    ClampOp f;
    if constexpr (std::is_same<T, i64>::value)
      {
        f.lo = args->params.clamp.has_min ? bound_i64 (args->params.clamp.min) : G_MININT64;
        f.hi = args->params.clamp.has_max ? bound_i64 (args->params.clamp.max) : G_MAXINT64;
      }
    else
      {
        f.lo = args->params.clamp.has_min ? (T) args->params.clamp.min : -(T) INFINITY;
        f.hi = args->params.clamp.has_max ? (T) args->params.clamp.max : (T) INFINITY;
      }
    return f;
  }
  /* a bound saturated into the int64 range */
  static i64 bound_i64 (double v)
  {
    if (v >= 9223372036854775807.0)
      return G_MAXINT64;
    if (v <= -9223372036854775808.0)
      return G_MININT64;
    return (i64) v;
  }
  __device__ __forceinline__ T operator() (T x) const
  {
    const T v = x < lo ? lo : x;
    return v > hi ? hi : v;
  }
};

/* x ^ exponent with the CPU's special cases */
template <class T>
struct PowScalarOp : U1X {
  int mode;   /* 0 pow, 1 x², 2 x³, 3 √x, 4 1/√x, 5 1/x, 6 1/x² */
  T e;
  i64 ie;
  static PowScalarOp make (const GnnKernelArgs *args)
  {
    PowScalarOp f;
    double e = args->params.pow.exponent;
    f.e = (T) e;
    f.ie = (i64) e;
    f.mode = e == 2.0 ? 1 : e == 3.0 ? 2 : e == 0.5 ? 3 : e == -0.5 ? 4 : e == -1.0 ? 5 : e == -2.0 ? 6 : 0;
    return f;
  }
  __device__ __forceinline__ T operator() (T x) const
  {
    if constexpr (std::is_same<T, i64>::value)
      return pow_ (x, ie);
    else
      switch (mode)
        {
        case 1: return mul_ (x, x);
        case 2: return mul_ (mul_ (x, x), x);
        case 3: return (T) __dsqrt_rn ((double) x);
        case 4: return (T) __ddiv_rn (1.0, __dsqrt_rn ((double) x));
        case 5: return div_ ((T) 1, x);
        case 6: return div_ ((T) 1, mul_ (x, x));
        default: return pow_ (x, e);
        }
  }
};

/* out = cond ? in1 : in2, elements moved as bits */
template <class U>
struct WhereOp : Typed<U, u8, U, U> {
  __device__ __forceinline__ U operator() (u8 c, U a, U b) const { return c ? a : b; }
};

template <class U>
struct BitCopyOp : Typed<U, U> {
  __device__ __forceinline__ U operator() (U a) const { return a; }
};

template <class U>
struct FillOp : Typed<U> {
  U v;
  __device__ __forceinline__ U operator() () const { return v; }
};

/* out = in0 converted through double, as the CPU's convert loops */
struct ConvertOp : Raw<1> {
  int from, to;
  __device__ __forceinline__ void apply (const EwPtrs &p, i64 l, i64 o, i64 a, i64, i64) const
  {
    write_double (to, p.out, o, read_double (from, p.in[0], a));
  }
};

/* out[l] = start + l step */
struct ArangeOp : Raw<0> {
  int dtype;
  double start, step;
  __device__ __forceinline__ void apply (const EwPtrs &p, i64 l, i64 o, i64, i64, i64) const
  {
    write_double (dtype, p.out, o, __dadd_rn (start, __dmul_rn ((double) l, step)));
  }
};

/* ---- random numbers: the CPU backend's Philox streams, bit for bit ------------------- */

__device__ __forceinline__ void
philox4x32 (u64 counter, u64 key, unsigned w[4])
{
  unsigned c0 = (unsigned) counter, c1 = (unsigned) (counter >> 32), c2 = 0, c3 = 0;
  unsigned k0 = (unsigned) key, k1 = (unsigned) (key >> 32);

#pragma unroll
  for (int r = 0; r < 10; r++)
    {
      unsigned hi0 = __umulhi (0xD2511F53u, c0), lo0 = 0xD2511F53u * c0;
      unsigned hi1 = __umulhi (0xCD9E8D57u, c2), lo1 = 0xCD9E8D57u * c2;
      unsigned n0 = hi1 ^ c1 ^ k0;
      unsigned n2 = hi0 ^ c3 ^ k1;
      c0 = n0; c1 = lo1; c2 = n2; c3 = lo0;
      k0 += 0x9E3779B9u;
      k1 += 0xBB67AE85u;
    }
  w[0] = c0; w[1] = c1; w[2] = c2; w[3] = c3;
}

__device__ __forceinline__ unsigned short
to_16 (int dtype, double v)
{
  return dtype == GNN_DTYPE_FLOAT16 ? float_to_half ((float) v) : float_to_bf16 ((float) v);
}

__device__ __forceinline__ double
from_16 (int dtype, unsigned short bits)
{
  return dtype == GNN_DTYPE_FLOAT16 ? (double) half_to_float (bits) : (double) bf16_to_float (bits);
}

/* writes the largest value of @dtype below @bound (the CPU's write_below) */
__device__ void
write_below (int dtype, void *base, i64 o, double bound)
{
  switch (dtype)
    {
    case GNN_DTYPE_FLOAT32:
      ((float *) base)[o] = nextafterf ((float) bound, -INFINITY);
      break;
    case GNN_DTYPE_FLOAT64:
      ((double *) base)[o] = nextafter (bound, (double) -INFINITY);
      break;
    case GNN_DTYPE_FLOAT16:
    case GNN_DTYPE_BFLOAT16:
      for (;;)
        {
          /* step the 16-bit pattern of the bound one unit toward -inf; again from the stored
           * value when the bound rounded down when stored */
          unsigned short bits = to_16 (dtype, bound);
          if ((bits & 0x7fff) == 0)
            bits = 0x8001;
          else if (bits & 0x8000)
            bits++;
          else
            bits--;
          if (from_16 (dtype, bits) >= bound)
            {
              bound = from_16 (dtype, bits);
              continue;
            }
          ((unsigned short *) base)[o] = bits;
          break;
        }
      break;
    default:
      write_double (dtype, base, o, bound - 1);
    }
}

struct RandomOp : Raw<0> {
  int kind;    /* 0 uniform, 1 normal, 2 int */
  int dtype;
  u64 seed, offset;
  double lo, hi;
  i64 ilo;
  u64 range;
  __device__ void apply (const EwPtrs &p, i64 l, i64 o, i64, i64, i64) const
  {
    unsigned w[4];
    double u1, u2;

    philox4x32 (offset + (u64) l, seed, w);
    /* 53-bit uniforms in [0, 1) */
    u1 = (double) (((u64) w[0] << 21) ^ (w[1] >> 11)) * (1.0 / 9007199254740992.0);
    u2 = (double) (((u64) w[2] << 21) ^ (w[3] >> 11)) * (1.0 / 9007199254740992.0);
    if (kind == 0)
      {
        write_double (dtype, p.out, o, __dadd_rn (lo, __dmul_rn (u1, __dsub_rn (hi, lo))));
        /* rounding to the storage dtype may reach the excluded upper bound */
        if (read_double (dtype, p.out, o) >= hi && hi > lo)
          write_below (dtype, p.out, o, hi);
      }
    else if (kind == 1)
      {
        double r = __dsqrt_rn (__dmul_rn (-2.0, log (__dsub_rn (1.0, u1))));
        double c = cos (__dmul_rn (2.0 * 3.14159265358979323846, u2));
        write_double (dtype, p.out, o, __dadd_rn (lo, __dmul_rn (__dmul_rn (hi, r), c)));
      }
    else
      {
        u64 x = ((u64) w[0] << 32) | w[1];
        ((i64 *) p.out)[o] = (i64) ((u64) ilo + x % range);
      }
  }
};

/* ---- dispatch ---------------------------------------------------------------------- */

template <template <class> class F>
gboolean
by_float (GnnCudaContext *ctx, const GnnKernelArgs *args, GnnDtype dt, GError **error)
{
  if (dt == GNN_DTYPE_FLOAT32)
    return ew_args (ctx, args, F<float>::make (args), error);
  return ew_args (ctx, args, F<double>::make (args), error);
}

template <template <class> class F>
gboolean
by_number (GnnCudaContext *ctx, const GnnKernelArgs *args, GnnDtype dt, GError **error)
{
  if (dt == GNN_DTYPE_INT64)
    return ew_args (ctx, args, F<i64>::make (args), error);
  return by_float<F> (ctx, args, dt, error);
}

gboolean
unsupported (const GnnKernelArgs *args, GError **error)
{
  g_set_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED,
               "The cuda backend has no %s kernel for these operand dtypes (out %s)",
               op_name (args->op), gnn_dtype_get_name (args->out->dtype));
  return FALSE;
}

/* whether out and the first n inputs all have @dt */
bool
same_dtype (const GnnKernelArgs *args, int n, GnnDtype dt, bool check_out)
{
  if (check_out && args->out->dtype != dt)
    return false;
  for (int k = 0; k < n; k++)
    if (args->in[k]->dtype != dt)
      return false;
  return true;
}

/* the contiguous one-dimensional extent of @t, or -1 */
i64
flat_extent (const GnnKernelTensor *t)
{
  return is_contiguous (t) ? numel (t) : -1;
}

gboolean
k_copy (GnnCudaContext *ctx, const GnnKernelArgs *args, GError **error)
{
  const GnnKernelTensor *out = args->out, *in = args->in[0];
  const GnnKernelTensor *ops[2] = { out, in };
  size_t es = gnn_dtype_get_size (out->dtype);

  if (out->dtype == in->dtype)
    {
      i64 n = flat_extent (out);
      if (n >= 0 && flat_extent (in) == n && in->ndim == out->ndim &&
          memcmp (in->shape, out->shape, sizeof (gint64) * out->ndim) == 0)
        {
          cudaError_t e;
          if (n == 0 || out->data == in->data)
            return TRUE;
          e = cudaMemcpyAsync (out->data, in->data, (size_t) n * es, cudaMemcpyDeviceToDevice, ctx->stream);
          if (e != cudaSuccess)
            return fail (error, GNN_ERROR_BACKEND, args->op, "cudaMemcpyAsync failed: %s", cudaGetErrorString (e));
          return TRUE;
        }
      switch (es)
        {
        case 1: return ew_launch (ctx, args->op, ops, BitCopyOp<u8> (), error);
        case 2: return ew_launch (ctx, args->op, ops, BitCopyOp<unsigned short> (), error);
        case 4: return ew_launch (ctx, args->op, ops, BitCopyOp<unsigned> (), error);
        default: return ew_launch (ctx, args->op, ops, BitCopyOp<u64> (), error);
        }
    }
  if ((guint) in->dtype >= GNN_N_DTYPES)
    return unsupported (args, error);
  {
    ConvertOp op;
    op.from = in->dtype;
    op.to = out->dtype;
    return ew_launch (ctx, args->op, ops, op, error);
  }
}

template <class U>
gboolean
fill_bits (GnnCudaContext *ctx, const GnnKernelArgs *args, U v, GError **error)
{
  const GnnKernelTensor *ops[1] = { args->out };
  i64 n = flat_extent (args->out);
  FillOp<U> op;
  bool bytes_equal = true;

  for (size_t b = 1; b < sizeof (U); b++)
    if (((const u8 *) &v)[b] != ((const u8 *) &v)[0])
      bytes_equal = false;
  if (n > 0 && bytes_equal)
    {
      cudaError_t e = cudaMemsetAsync (args->out->data, ((const u8 *) &v)[0], (size_t) n * sizeof (U), ctx->stream);
      if (e != cudaSuccess)
        return fail (error, GNN_ERROR_BACKEND, args->op, "cudaMemsetAsync failed: %s", cudaGetErrorString (e));
      return TRUE;
    }
  op.v = v;
  return ew_launch (ctx, args->op, ops, op, error);
}

/* out = fill.value, converted on the host exactly as the CPU's WR_* macros convert it */
gboolean
k_fill (GnnCudaContext *ctx, const GnnKernelArgs *args, GError **error)
{
  double s = args->params.fill.value;

  switch (args->out->dtype)
    {
    case GNN_DTYPE_FLOAT32:
      {
        float f = (float) s;
        unsigned bits;
        memcpy (&bits, &f, 4);
        return fill_bits<unsigned> (ctx, args, bits, error);
      }
    case GNN_DTYPE_FLOAT64:
      {
        u64 bits;
        memcpy (&bits, &s, 8);
        return fill_bits<u64> (ctx, args, bits, error);
      }
    case GNN_DTYPE_INT64:
      return fill_bits<u64> (ctx, args, (u64) (gint64) s, error);
    case GNN_DTYPE_BOOL:
      return fill_bits<u8> (ctx, args, (u8) (s != 0), error);
    case GNN_DTYPE_UINT8:
      return fill_bits<u8> (ctx, args, (u8) (gint64) s, error);
    case GNN_DTYPE_INT32:
      return fill_bits<unsigned> (ctx, args, (unsigned) (gint32) (gint64) s, error);
    case GNN_DTYPE_INT16:
      return fill_bits<unsigned short> (ctx, args, (unsigned short) (gint16) (gint64) s, error);
    case GNN_DTYPE_INT8:
      return fill_bits<u8> (ctx, args, (u8) (gint8) (gint64) s, error);
    case GNN_DTYPE_FLOAT16:
      return fill_bits<unsigned short> (ctx, args, gnn_float_to_half ((float) s), error);
    default:
      return fill_bits<unsigned short> (ctx, args, gnn_float_to_bf16 ((float) s), error);
    }
}

gboolean
k_random (GnnCudaContext *ctx, const GnnKernelArgs *args, GError **error)
{
  const GnnKernelTensor *ops[1] = { args->out };
  RandomOp op;

  op.kind = args->op == GNN_BACKEND_OP_RAND_UNIFORM ? 0 : args->op == GNN_BACKEND_OP_RAND_NORMAL ? 1 : 2;
  op.dtype = args->out->dtype;
  const GnnKernelRandom *r = &args->params.random;

  op.seed = r->seed;
  op.offset = r->offset;
  op.lo = op.kind == 1 ? r->mean : r->low;
  op.hi = op.kind == 1 ? r->std : r->high;
  op.ilo = r->int_low;
  op.range = (u64) r->int_high - (u64) r->int_low;
  if (op.kind == 2 && r->int_high <= r->int_low)
    return fail (error, GNN_ERROR_INVALID_ARGUMENT, args->op,
                 "the range [%" G_GINT64_FORMAT ", %" G_GINT64_FORMAT ") is empty", r->int_low, r->int_high);
  return ew_launch (ctx, args->op, ops, op, error);
}

gboolean
k_where (GnnCudaContext *ctx, const GnnKernelArgs *args, GError **error)
{
  GnnDtype dt = args->out->dtype;

  if ((args->in[0]->dtype != GNN_DTYPE_BOOL && args->in[0]->dtype != GNN_DTYPE_UINT8) ||
      args->in[1]->dtype != dt || args->in[2]->dtype != dt)
    return unsupported (args, error);
  if (dt == GNN_DTYPE_FLOAT32)
    return ew_args (ctx, args, WhereOp<unsigned> (), error);
  return ew_args (ctx, args, WhereOp<u64> (), error);
}

} /* anonymous namespace */

gboolean
run_elementwise (GnnCudaContext *ctx, const GnnKernelArgs *args, GError **error)
{
  GnnBackendOp op = args->op;
  GnnDtype dt;

  switch (op)
    {
    case GNN_BACKEND_OP_COPY:
      return k_copy (ctx, args, error);
    case GNN_BACKEND_OP_FILL:
      return k_fill (ctx, args, error);
    case GNN_BACKEND_OP_ARANGE:
      {
        const GnnKernelTensor *ops[1] = { args->out };
        ArangeOp a;
        a.dtype = args->out->dtype;
        a.start = args->params.arange.start;
        a.step = args->params.arange.step;
        return ew_launch (ctx, op, ops, a, error);
      }
    case GNN_BACKEND_OP_RAND_UNIFORM:
    case GNN_BACKEND_OP_RAND_NORMAL:
    case GNN_BACKEND_OP_RAND_INT:
      return k_random (ctx, args, error);
    case GNN_BACKEND_OP_WHERE:
      return k_where (ctx, args, error);
    default:
      break;
    }

  /* binary ops and comparisons take their dtype from in0, the others from out */
  switch (op)
    {
    case GNN_BACKEND_OP_ADD:
    case GNN_BACKEND_OP_SUB:
    case GNN_BACKEND_OP_MUL:
    case GNN_BACKEND_OP_DIV:
    case GNN_BACKEND_OP_POW:
    case GNN_BACKEND_OP_MAXIMUM:
    case GNN_BACKEND_OP_MINIMUM:
    case GNN_BACKEND_OP_HYPOT:
    case GNN_BACKEND_OP_ATAN2:
    case GNN_BACKEND_OP_FMOD:
    case GNN_BACKEND_OP_REMAINDER:
    case GNN_BACKEND_OP_FLOOR_DIVIDE:
    case GNN_BACKEND_OP_XLOGY:
    case GNN_BACKEND_OP_XLOG1PY:
    case GNN_BACKEND_OP_COPYSIGN:
    case GNN_BACKEND_OP_FMAX:
    case GNN_BACKEND_OP_FMIN:
    case GNN_BACKEND_OP_LOGADDEXP:
    case GNN_BACKEND_OP_LOGADDEXP2:
    case GNN_BACKEND_OP_NEXTAFTER:
    case GNN_BACKEND_OP_HEAVISIDE:
      dt = args->in[0]->dtype;
      if (!same_dtype (args, 2, dt, true))
        return unsupported (args, error);
      break;
    case GNN_BACKEND_OP_EQ:
    case GNN_BACKEND_OP_NE:
    case GNN_BACKEND_OP_LT:
    case GNN_BACKEND_OP_LE:
    case GNN_BACKEND_OP_GT:
    case GNN_BACKEND_OP_GE:
      dt = args->in[0]->dtype;
      if (!same_dtype (args, 2, dt, false) ||
          (args->out->dtype != GNN_DTYPE_BOOL && args->out->dtype != GNN_DTYPE_UINT8))
        return unsupported (args, error);
      break;
    case GNN_BACKEND_OP_RELU_BACKWARD:
    case GNN_BACKEND_OP_LEAKY_RELU_BACKWARD:
    case GNN_BACKEND_OP_ELU_BACKWARD:
    case GNN_BACKEND_OP_GELU_BACKWARD:
    case GNN_BACKEND_OP_SILU_BACKWARD:
    case GNN_BACKEND_OP_SIGMOID_BACKWARD:
    case GNN_BACKEND_OP_TANH_BACKWARD:
      dt = args->out->dtype;
      if (!same_dtype (args, 2, dt, true))
        return unsupported (args, error);
      break;
    case GNN_BACKEND_OP_LERP:
    case GNN_BACKEND_OP_ADDCMUL:
    case GNN_BACKEND_OP_ADDCDIV:
      dt = args->out->dtype;
      if (!same_dtype (args, 3, dt, true))
        return unsupported (args, error);
      break;
    default:
      dt = args->out->dtype;
      if (!same_dtype (args, 1, dt, true))
        return unsupported (args, error);
      break;
    }
  if ((op == GNN_BACKEND_OP_GELU || op == GNN_BACKEND_OP_GELU_BACKWARD) &&
      args->params.gelu.approximate != 0 && args->params.gelu.approximate != 1)
    return fail (error, GNN_ERROR_INVALID_ARGUMENT, op, "unknown approximation %d (0 erf, 1 tanh)",
                 args->params.gelu.approximate);

  switch (op)
    {
    case GNN_BACKEND_OP_ADD:
    case GNN_BACKEND_OP_SUB:                 return by_number<AddOp> (ctx, args, dt, error);
    case GNN_BACKEND_OP_MUL:                 return by_number<MulOp> (ctx, args, dt, error);
    case GNN_BACKEND_OP_DIV:                 return by_number<DivOp> (ctx, args, dt, error);
    case GNN_BACKEND_OP_POW:                 return by_number<PowOp> (ctx, args, dt, error);
    case GNN_BACKEND_OP_MAXIMUM:
    case GNN_BACKEND_OP_MINIMUM:             return by_number<MaxMinOp> (ctx, args, dt, error);
    case GNN_BACKEND_OP_EQ:
    case GNN_BACKEND_OP_NE:
    case GNN_BACKEND_OP_LT:
    case GNN_BACKEND_OP_LE:
    case GNN_BACKEND_OP_GT:
    case GNN_BACKEND_OP_GE:                  return by_number<CompareOp> (ctx, args, dt, error);
    case GNN_BACKEND_OP_HYPOT:               return by_float<HypotOp> (ctx, args, dt, error);
    case GNN_BACKEND_OP_FMOD:
    case GNN_BACKEND_OP_REMAINDER:
    case GNN_BACKEND_OP_FLOOR_DIVIDE:
    case GNN_BACKEND_OP_FMAX:
    case GNN_BACKEND_OP_FMIN:
    case GNN_BACKEND_OP_HEAVISIDE:           return by_number<MathBinaryOp> (ctx, args, dt, error);
    case GNN_BACKEND_OP_ATAN2:
    case GNN_BACKEND_OP_XLOGY:
    case GNN_BACKEND_OP_XLOG1PY:
    case GNN_BACKEND_OP_COPYSIGN:
    case GNN_BACKEND_OP_LOGADDEXP:
    case GNN_BACKEND_OP_LOGADDEXP2:
    case GNN_BACKEND_OP_NEXTAFTER:           return by_float<MathBinaryOp> (ctx, args, dt, error);
    case GNN_BACKEND_OP_RECIPROCAL:
    case GNN_BACKEND_OP_RSQRT:
    case GNN_BACKEND_OP_LOG1P:
    case GNN_BACKEND_OP_EXPM1:
    case GNN_BACKEND_OP_LOG2:
    case GNN_BACKEND_OP_LOG10:
    case GNN_BACKEND_OP_SIN:
    case GNN_BACKEND_OP_COS:
    case GNN_BACKEND_OP_TAN:
    case GNN_BACKEND_OP_ASIN:
    case GNN_BACKEND_OP_ACOS:
    case GNN_BACKEND_OP_ATAN:
    case GNN_BACKEND_OP_SINH:
    case GNN_BACKEND_OP_COSH:
    case GNN_BACKEND_OP_ASINH:
    case GNN_BACKEND_OP_ACOSH:
    case GNN_BACKEND_OP_ATANH:
    case GNN_BACKEND_OP_ERF:
    case GNN_BACKEND_OP_ERFC:
    case GNN_BACKEND_OP_ERFINV:
    case GNN_BACKEND_OP_LGAMMA:
    case GNN_BACKEND_OP_FLOOR:
    case GNN_BACKEND_OP_CEIL:
    case GNN_BACKEND_OP_ROUND:
    case GNN_BACKEND_OP_TRUNC:
    case GNN_BACKEND_OP_FRAC:
    case GNN_BACKEND_OP_EXP2:
    case GNN_BACKEND_OP_SINC:
    case GNN_BACKEND_OP_I0:
    case GNN_BACKEND_OP_I0E:
    case GNN_BACKEND_OP_I1:
    case GNN_BACKEND_OP_I1E:
    case GNN_BACKEND_OP_NDTRI:
    case GNN_BACKEND_OP_LOG_NDTR:
    case GNN_BACKEND_OP_ERFCX:
    case GNN_BACKEND_OP_ENTR:                return by_float<MathUnaryOp> (ctx, args, dt, error);
    case GNN_BACKEND_OP_EXP:                 return by_float<ExpOp> (ctx, args, dt, error);
    case GNN_BACKEND_OP_LOG:                 return by_float<LogOp> (ctx, args, dt, error);
    case GNN_BACKEND_OP_SQRT:                return by_float<SqrtOp> (ctx, args, dt, error);
    case GNN_BACKEND_OP_CLAMP:               return by_number<ClampOp> (ctx, args, dt, error);
    case GNN_BACKEND_OP_POW_SCALAR:          return by_number<PowScalarOp> (ctx, args, dt, error);
    case GNN_BACKEND_OP_NEG:
    case GNN_BACKEND_OP_ABS:
    case GNN_BACKEND_OP_SIGN:
    case GNN_BACKEND_OP_RELU:                return by_number<SimpleUnaryOp> (ctx, args, dt, error);
    case GNN_BACKEND_OP_LEAKY_RELU:          return by_float<LeakyReluOp> (ctx, args, dt, error);
    case GNN_BACKEND_OP_ELU:                 return by_float<EluOp> (ctx, args, dt, error);
    case GNN_BACKEND_OP_GELU:
      return args->params.gelu.approximate == 1 ? by_float<GeluTanhOp> (ctx, args, dt, error)
                             : by_float<GeluErfOp> (ctx, args, dt, error);
    case GNN_BACKEND_OP_SILU:                return by_float<SiluOp> (ctx, args, dt, error);
    case GNN_BACKEND_OP_SIGMOID:             return by_float<SigmoidOp> (ctx, args, dt, error);
    case GNN_BACKEND_OP_TANH:                return by_float<TanhOp> (ctx, args, dt, error);
    case GNN_BACKEND_OP_RELU_BACKWARD:       return by_float<ReluBackwardOp> (ctx, args, dt, error);
    case GNN_BACKEND_OP_LEAKY_RELU_BACKWARD: return by_float<LeakyReluBackwardOp> (ctx, args, dt, error);
    case GNN_BACKEND_OP_ELU_BACKWARD:        return by_float<EluBackwardOp> (ctx, args, dt, error);
    case GNN_BACKEND_OP_GELU_BACKWARD:
      return args->params.gelu.approximate == 1 ? by_float<GeluTanhBackwardOp> (ctx, args, dt, error)
                             : by_float<GeluErfBackwardOp> (ctx, args, dt, error);
    case GNN_BACKEND_OP_SILU_BACKWARD:       return by_float<SiluBackwardOp> (ctx, args, dt, error);
    case GNN_BACKEND_OP_SIGMOID_BACKWARD:    return by_float<SigmoidBackwardOp> (ctx, args, dt, error);
    case GNN_BACKEND_OP_TANH_BACKWARD:       return by_float<TanhBackwardOp> (ctx, args, dt, error);
    case GNN_BACKEND_OP_LERP:                return by_float<LerpOp> (ctx, args, dt, error);
    case GNN_BACKEND_OP_ADDCMUL:             return by_number<AddcmulOp> (ctx, args, dt, error);
    case GNN_BACKEND_OP_ADDCDIV:             return by_float<AddcdivOp> (ctx, args, dt, error);
    default:
      return unsupported (args, error);
    }
}

/* ---- FOREACH_LERP: one launch per up to FE_MAX operand pairs ------------------------- */

namespace {

#define FE_MAX 64
#define FE_UNROLL 4

/* The pairs of one launch, passed by value as the kernel parameter: block b works on pair j
 * with block_start[j] <= b < block_start[j + 1], on elements [(b - block_start[j]) chunk, +chunk). */
struct ForeachTable {
  void *out[FE_MAX];
  const void *in[FE_MAX];
  i64 n[FE_MAX];
  int block_start[FE_MAX + 1];
  u64 vec;     /* bit j: pair j is aligned for 16-byte access */
  int count;
};

template <class T>
__global__ void __launch_bounds__ (GC_THREADS)
foreach_lerp_kernel (const __grid_constant__ ForeachTable t, T w)
{
  constexpr int VEC = 16 / sizeof (T);
  constexpr i64 CHUNK = (i64) GC_THREADS * VEC * FE_UNROLL;
  int lo = 0, hi = t.count - 1;

  while (lo < hi)
    {
      int mid = (lo + hi + 1) >> 1;
      if (t.block_start[mid] <= (int) blockIdx.x)
        lo = mid;
      else
        hi = mid - 1;
    }
  {
    const int j = lo;
    const i64 begin = (i64) ((int) blockIdx.x - t.block_start[j]) * CHUNK;
    const i64 end = min (begin + CHUNK, t.n[j]);
    T *out = (T *) t.out[j];
    const T *in = (const T *) t.in[j];

    if ((t.vec >> j) & 1)
      {
        struct alignas (16) VT { T v[VEC]; };
        const i64 vbegin = begin / VEC, vend = end / VEC;   /* begin is a multiple of VEC */
        VT a[FE_UNROLL], b[FE_UNROLL];

#pragma unroll
        for (int u = 0; u < FE_UNROLL; u++)
          {
            i64 v = vbegin + u * GC_THREADS + threadIdx.x;
            if (v < vend)
              {
                a[u] = ((const VT *) out)[v];
                b[u] = ((const VT *) in)[v];
              }
          }
#pragma unroll
        for (int u = 0; u < FE_UNROLL; u++)
          {
            i64 v = vbegin + u * GC_THREADS + threadIdx.x;
            if (v < vend)
              {
#pragma unroll
                for (int e = 0; e < VEC; e++)
                  a[u].v[e] = lerp_ (a[u].v[e], b[u].v[e], w);
                ((VT *) out)[v] = a[u];
              }
          }
        for (i64 l = vend * VEC + threadIdx.x; l < end; l += GC_THREADS)
          out[l] = lerp_ (out[l], in[l], w);
      }
    else
      for (i64 l = begin + threadIdx.x; l < end; l += GC_THREADS)
        out[l] = lerp_ (out[l], in[l], w);
  }
}

template <class T>
gboolean
foreach_lerp (GnnCudaContext *ctx, const GnnKernelArgs *args, GError **error)
{
  constexpr i64 CHUNK = (i64) GC_THREADS * (16 / sizeof (T)) * FE_UNROLL;
  const T w = (T) args->params.lerp.weight;
  ForeachTable t;

  memset (&t, 0, sizeof t);
  for (guint j = 0; j <= args->n_list; j++)
    {
      /* flush a full table, or the last one */
      if (j == args->n_list || t.count == FE_MAX ||
          (t.count > 0 && (i64) t.block_start[t.count] + (numel (&args->list_out[j]) + CHUNK - 1) / CHUNK > G_MAXINT32))
        {
          if (t.count > 0)
            {
              foreach_lerp_kernel<T><<<t.block_start[t.count], GC_THREADS, 0, ctx->stream>>> (t, w);
              if (!check_launch (args->op, error))
                return FALSE;
            }
          memset (&t, 0, sizeof t);
          if (j == args->n_list)
            break;
        }
      {
        const GnnKernelTensor *o = &args->list_out[j], *in = &args->list_in[j];
        i64 n = numel (o);

        if (n == 0)
          continue;
        if (is_contiguous (o) && is_contiguous (in))
          {
            t.out[t.count] = o->data;
            t.in[t.count] = in->data;
            t.n[t.count] = n;
            if ((uintptr_t) o->data % 16 == 0 && (uintptr_t) in->data % 16 == 0)
              t.vec |= 1ull << t.count;
            t.block_start[t.count + 1] = t.block_start[t.count] + (int) ((n + CHUNK - 1) / CHUNK);
            t.count++;
          }
        else
          {
            /* a strided pair: the elementwise driver, out = lerp (out, in, w) */
            const GnnKernelTensor *ops[3] = { o, o, in };
            LerpScalarOp<T> op;
            op.p = w;
            if (!ew_launch (ctx, args->op, ops, op, error))
              return FALSE;
          }
      }
    }
  return TRUE;
}

} /* anonymous namespace */

gboolean
run_foreach (GnnCudaContext *ctx, const GnnKernelArgs *args, GError **error)
{
  GnnDtype dt = args->list_out[0].dtype;

  for (guint j = 0; j < args->n_list; j++)
    {
      const GnnKernelTensor *o = &args->list_out[j], *in = &args->list_in[j];

      if (o->dtype != dt || in->dtype != dt)
        return fail (error, GNN_ERROR_DTYPE, args->op, "pair %u has dtypes %s and %s, expected %s "
                     "for every operand", j, gnn_dtype_get_name (o->dtype), gnn_dtype_get_name (in->dtype),
                     gnn_dtype_get_name (dt));
      if (o->ndim > GNN_MAX_DIMS || o->ndim != in->ndim ||
          memcmp (o->shape, in->shape, sizeof (gint64) * o->ndim) != 0)
        return fail (error, GNN_ERROR_SHAPE, args->op, "the operands of pair %u differ in shape", j);
    }
  if (dt == GNN_DTYPE_FLOAT32)
    return foreach_lerp<float> (ctx, args, error);
  return foreach_lerp<double> (ctx, args, error);
}

} /* namespace gnn_cuda */
