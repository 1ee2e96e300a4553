/* gnn-cuda-kernels.cuh: what the .cu kernel files of the CUDA backend share
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The kernels mirror the CPU backend (gnn/backend/cpu/) element for element: the same formulas
 * in the same order of operations, in the operand dtype (float for float32, double for
 * float64, wrapping 64-bit integers for int64). Plain additions and multiplications go through
 * the *_rn intrinsics below so that nvcc does not fuse them into FMAs, which the CPU build
 * (x86-64 baseline, no FMA) does not do either; transcendental functions (exp, log, tanh, erf,
 * pow) are CUDA's and may differ from glibc's in the last bits.
 *
 * Every kernel is queued on ctx->stream; nothing here synchronizes or allocates.
 */
#pragma once

/* glib's headers use __attribute__((format (gnu_printf, …))), which nvcc's front end does not
 * know; the warning is about glib, not about this code */
#pragma nv_diag_suppress 1217

#include <glib-object.h>
#include <cuda_runtime.h>
#include <stdint.h>

extern "C" {
#include "gnn-cuda-private.h"
}

/* nothing of the kernel files is exported from the module (the C side is built with hidden
 * visibility; this does the same for the C++ side, gnn_cuda_kernels_* included). Headers
 * are all included above. */
#pragma GCC visibility push(hidden)

namespace gnn_cuda {

typedef long long i64;
typedef unsigned long long u64;

/* threads per block of the elementwise and most other kernels */
#define GC_THREADS 256

/* ---- host helpers (gnn-cuda-kernels.cu) ----------------------------------------------- */

const char *op_name       (GnnBackendOp op);
i64         numel         (const GnnKernelTensor *t);
/* row-major contiguous, size-1 dimensions ignored */
bool        is_contiguous (const GnnKernelTensor *t);
/* checks cudaGetLastError () after a launch; GNN_ERROR_BACKEND naming the op */
gboolean    check_launch  (GnnBackendOp op, GError **error);
/* a GError in the GNN_ERROR domain, prefixed with "cuda <op> kernel: "; returns FALSE */
gboolean    fail          (GError **error, int code, GnnBackendOp op, const char *fmt, ...) G_GNUC_PRINTF (4, 5);
/* blocks of @threads threads for @work work items (each thread loops over a grid stride),
 * capped at what keeps every SM busy */
unsigned    grid_blocks   (const GnnCudaContext *ctx, i64 work, int threads);
/* scratch of at least @nbytes, grown through the host when needed; NULL with @error set */
void       *scratch       (GnnCudaContext *ctx, size_t nbytes, GError **error);

/* the per-file entry points; the dispatcher has checked the operands' presence and dtype */
gboolean run_elementwise (GnnCudaContext *ctx, const GnnKernelArgs *args, GError **error);
gboolean run_foreach     (GnnCudaContext *ctx, const GnnKernelArgs *args, GError **error);
gboolean run_reduce      (GnnCudaContext *ctx, const GnnKernelArgs *args, GError **error);
gboolean run_index       (GnnCudaContext *ctx, const GnnKernelArgs *args, GError **error);
gboolean run_conv        (GnnCudaContext *ctx, const GnnKernelArgs *args, GError **error);

/* ---- fast unsigned division by a run-time constant (n < 2^31) ------------------------- */

/* n / d as (hi (n m) + n) >> s (Granlund and Montgomery). A divisor of 2^31 or more gives 0
 * for every n < 2^31 (m = 0, s = 31). */
struct IntDiv {
  unsigned d, m, s;

  __host__ void init (u64 divisor)
  {
    unsigned shift = 0;

    if (divisor >= (1ull << 31))
      {
        d = 0;   /* only ever multiplied by a quotient of 0 */
        m = 0;
        s = 31;
        return;
      }
    while ((1ull << shift) < divisor)
      shift++;
    d = (unsigned) divisor;
    s = shift;
    m = (unsigned) (((1ull << 32) * ((1ull << shift) - divisor)) / divisor + 1);
  }
  __device__ __forceinline__ unsigned div (unsigned n) const
  {
    return (__umulhi (n, m) + n) >> s;
  }
};

/* ---- arithmetic without FMA contraction -------------------------------------------- */

__device__ __forceinline__ float  add_ (float a, float b)   { return __fadd_rn (a, b); }
__device__ __forceinline__ double add_ (double a, double b) { return __dadd_rn (a, b); }
__device__ __forceinline__ i64    add_ (i64 a, i64 b)       { return (i64) ((u64) a + (u64) b); }
__device__ __forceinline__ float  sub_ (float a, float b)   { return __fsub_rn (a, b); }
__device__ __forceinline__ double sub_ (double a, double b) { return __dsub_rn (a, b); }
__device__ __forceinline__ i64    sub_ (i64 a, i64 b)       { return (i64) ((u64) a - (u64) b); }
__device__ __forceinline__ float  mul_ (float a, float b)   { return __fmul_rn (a, b); }
__device__ __forceinline__ double mul_ (double a, double b) { return __dmul_rn (a, b); }
__device__ __forceinline__ i64    mul_ (i64 a, i64 b)       { return (i64) ((u64) a * (u64) b); }
__device__ __forceinline__ float  div_ (float a, float b)   { return __fdiv_rn (a, b); }
__device__ __forceinline__ double div_ (double a, double b) { return __ddiv_rn (a, b); }
/* rounded toward zero (the op table's int64 DIV); INT64_MIN / -1 wraps; 0 for a zero divisor,
 * which a kernel cannot report */
__device__ __forceinline__ i64    div_ (i64 a, i64 b)       { return b == 0 ? 0 : b == -1 ? (i64) (0 - (u64) a) : a / b; }

__device__ __forceinline__ float  exp_ (float x)  { return expf (x); }
__device__ __forceinline__ double exp_ (double x) { return exp (x); }
__device__ __forceinline__ float  log_ (float x)  { return logf (x); }
__device__ __forceinline__ double log_ (double x) { return log (x); }

/* ---- conversions, bit for bit as gnn/core/gnn-dtype-private.h and the CPU kernels ------ */

/* (gint64) v as the host's C compiler does it: x86-64 gives INT64_MIN for NaN and for values
 * out of range, where CUDA's conversion saturates */
__device__ __forceinline__ i64
d2ll (double v)
{
#if defined (__x86_64__) || defined (__i386__)
  return (v >= -9223372036854775808.0 && v < 9223372036854775808.0) ? (i64) v : (i64) 0x8000000000000000ull;
#else
  return (i64) v;
#endif
}

__device__ __forceinline__ float
half_to_float (unsigned short h)
{
  unsigned sign = (unsigned) (h & 0x8000) << 16;
  unsigned e = (h >> 10) & 0x1f;
  unsigned mant = h & 0x3ff;
  unsigned bits;

  if (e == 0)
    {
      if (mant == 0)
        bits = sign;
      else
        {
          /* subnormal: normalise so that bit 10 is set */
          int shift = __clz (mant) - 21;
          mant <<= shift;
          bits = sign | ((unsigned) (127 - 15 + 1 - shift) << 23) | ((mant & 0x3ff) << 13);
        }
    }
  else if (e == 0x1f)
    bits = sign | 0x7f800000u | (mant << 13);
  else
    bits = sign | ((e + 127 - 15) << 23) | (mant << 13);
  return __uint_as_float (bits);
}

__device__ __forceinline__ unsigned short
float_to_half (float f)
{
  unsigned x = __float_as_uint (f);
  unsigned sign = (x >> 16) & 0x8000;
  int e = (int) ((x >> 23) & 0xff) - 127 + 15;
  unsigned mant = x & 0x7fffff;

  if (((x >> 23) & 0xff) == 0xff)
    return (unsigned short) (sign | 0x7c00 | (mant ? 0x200 : 0));
  if (e >= 0x1f)
    return (unsigned short) (sign | 0x7c00);
  if (e <= 0)
    {
      unsigned shift, half_mant, rem, halfway;
      if (e < -10)
        return (unsigned short) sign;
      mant |= 0x800000;
      shift = (unsigned) (14 - e);
      half_mant = mant >> shift;
      rem = mant & ((1u << shift) - 1);
      halfway = 1u << (shift - 1);
      if (rem > halfway || (rem == halfway && (half_mant & 1)))
        half_mant++;
      return (unsigned short) (sign | half_mant);
    }
  {
    unsigned h = sign | ((unsigned) e << 10) | (mant >> 13);
    unsigned rem = mant & 0x1fff;
    if (rem > 0x1000 || (rem == 0x1000 && (h & 1)))
      h++;
    return (unsigned short) h;
  }
}

__device__ __forceinline__ float
bf16_to_float (unsigned short b)
{
  return __uint_as_float ((unsigned) b << 16);
}

__device__ __forceinline__ unsigned short
float_to_bf16 (float f)
{
  unsigned x = __float_as_uint (f);
  if ((x & 0x7fffffff) > 0x7f800000)
    return (unsigned short) ((x >> 16) | 0x40);
  x += 0x7fff + ((x >> 16) & 1);
  return (unsigned short) (x >> 16);
}

/* element @off of @base, of @dtype, as a double (the CPU's RD_* macros) */
__device__ __forceinline__ double
read_double (int dtype, const void *base, i64 off)
{
  switch (dtype)
    {
    case GNN_DTYPE_FLOAT32:  return (double) ((const float *) base)[off];
    case GNN_DTYPE_FLOAT64:  return ((const double *) base)[off];
    case GNN_DTYPE_INT64:    return (double) ((const i64 *) base)[off];
    case GNN_DTYPE_BOOL:     return ((const unsigned char *) base)[off] != 0 ? 1.0 : 0.0;
    case GNN_DTYPE_UINT8:    return (double) ((const unsigned char *) base)[off];
    case GNN_DTYPE_FLOAT16:  return (double) half_to_float (((const unsigned short *) base)[off]);
    case GNN_DTYPE_INT32:    return (double) ((const int *) base)[off];
    case GNN_DTYPE_INT16:    return (double) ((const short *) base)[off];
    case GNN_DTYPE_INT8:     return (double) ((const signed char *) base)[off];
    default:                 return (double) bf16_to_float (((const unsigned short *) base)[off]);
    }
}

/* element @off of @base, of @dtype, set to @v (the CPU's WR_* macros) */
__device__ __forceinline__ void
write_double (int dtype, void *base, i64 off, double v)
{
  switch (dtype)
    {
    case GNN_DTYPE_FLOAT32:  ((float *) base)[off] = (float) v; break;
    case GNN_DTYPE_FLOAT64:  ((double *) base)[off] = v; break;
    case GNN_DTYPE_INT64:    ((i64 *) base)[off] = d2ll (v); break;
    case GNN_DTYPE_BOOL:     ((unsigned char *) base)[off] = v != 0; break;
    case GNN_DTYPE_UINT8:    ((unsigned char *) base)[off] = (unsigned char) d2ll (v); break;
    case GNN_DTYPE_FLOAT16:  ((unsigned short *) base)[off] = float_to_half ((float) v); break;
    case GNN_DTYPE_INT32:    ((int *) base)[off] = (int) d2ll (v); break;
    case GNN_DTYPE_INT16:    ((short *) base)[off] = (short) d2ll (v); break;
    case GNN_DTYPE_INT8:     ((signed char *) base)[off] = (signed char) d2ll (v); break;
    default:                 ((unsigned short *) base)[off] = float_to_bf16 ((float) v); break;
    }
}

} /* namespace gnn_cuda */
