/* gnn-backend.h: the compute backend interface
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined (GNN_INSIDE) && !defined (GNN_COMPILATION)
#error "Only <gnn/gnn.h> can be included directly."
#endif

#include <glib-object.h>
#include "../gnn-version-macros.h"
#include "../core/gnn-dtype.h"

G_BEGIN_DECLS

/**
 * GNN_BACKEND_API_VERSION:
 *
 * The version of the backend module interface. A loadable backend module exports
 * `gnn_backend_module_api_version` with the value it was built against; the registry
 * refuses a module whose value differs.
 */
#define GNN_BACKEND_API_VERSION 3

/**
 * GNN_BACKEND_EXTENSION_POINT_NAME:
 *
 * The name of the GIO extension point that backends implement.
 */
#define GNN_BACKEND_EXTENSION_POINT_NAME "gnn-backend"

/**
 * GnnBackendOp:
 * @GNN_BACKEND_OP_COPY: strided copy with dtype conversion: out = in0
 * @GNN_BACKEND_OP_FILL: out = s0
 * @GNN_BACKEND_OP_ARANGE: out[i] = s0 + i * s1 (contiguous out)
 * @GNN_BACKEND_OP_RAND_UNIFORM: out = uniform in [s0, s1), s1 excluded in every dtype, from a Philox stream
 *   (i0 seed, i1 offset); element i of the contiguous out uses counter offset + i
 * @GNN_BACKEND_OP_RAND_NORMAL: out = normal with mean s0 and std s1 (i0 seed, i1 offset), counters as RAND_UNIFORM
 * @GNN_BACKEND_OP_RAND_INT: out = integers in [i2, i3) (i0 seed, i1 offset), counters as RAND_UNIFORM
 * @GNN_BACKEND_OP_ADD: out = in0 + s0 * in1
 * @GNN_BACKEND_OP_SUB: out = in0 - s0 * in1
 * @GNN_BACKEND_OP_MUL: out = in0 * in1
 * @GNN_BACKEND_OP_DIV: out = in0 / in1
 * @GNN_BACKEND_OP_POW: out = in0 ^ in1
 * @GNN_BACKEND_OP_MAXIMUM: out = max (in0, in1), NaN propagating
 * @GNN_BACKEND_OP_MINIMUM: out = min (in0, in1), NaN propagating
 * @GNN_BACKEND_OP_EQ: bool out = in0 == in1
 * @GNN_BACKEND_OP_NE: bool out = in0 != in1
 * @GNN_BACKEND_OP_LT: bool out = in0 < in1
 * @GNN_BACKEND_OP_LE: bool out = in0 <= in1
 * @GNN_BACKEND_OP_GT: bool out = in0 > in1
 * @GNN_BACKEND_OP_GE: bool out = in0 >= in1
 * @GNN_BACKEND_OP_WHERE: out = in0 (bool) ? in1 : in2
 * @GNN_BACKEND_OP_NEG: out = -in0
 * @GNN_BACKEND_OP_EXP: out = exp (in0)
 * @GNN_BACKEND_OP_LOG: out = log (in0)
 * @GNN_BACKEND_OP_SQRT: out = sqrt (in0)
 * @GNN_BACKEND_OP_ABS: out = |in0|
 * @GNN_BACKEND_OP_SIGN: out = sign (in0)
 * @GNN_BACKEND_OP_CLAMP: out = clamp (in0, s0, s1); i0 bit 0: has min, bit 1: has max
 * @GNN_BACKEND_OP_POW_SCALAR: out = in0 ^ s0
 * @GNN_BACKEND_OP_RELU: out = max (in0, 0)
 * @GNN_BACKEND_OP_LEAKY_RELU: out = in0 > 0 ? in0 : s0 * in0
 * @GNN_BACKEND_OP_ELU: out = in0 > 0 ? in0 : s0 * (exp (in0) - 1)
 * @GNN_BACKEND_OP_GELU: out = gelu (in0); i0 = 0 exact (erf), 1 tanh approximation
 * @GNN_BACKEND_OP_SILU: out = in0 * sigmoid (in0)
 * @GNN_BACKEND_OP_SIGMOID: out = 1 / (1 + exp (-in0))
 * @GNN_BACKEND_OP_TANH: out = tanh (in0)
 * @GNN_BACKEND_OP_RELU_BACKWARD: out = in1 <= 0 ? 0 : in0 (in0 grad, in1 input or result; NaN passes the gradient)
 * @GNN_BACKEND_OP_LEAKY_RELU_BACKWARD: out = in1 > 0 ? in0 : s0 * in0 (in1 input)
 * @GNN_BACKEND_OP_ELU_BACKWARD: out = in1 <= 0 ? in0 * s0 * exp (in1) : in0 (in1 input; NaN passes the gradient)
 * @GNN_BACKEND_OP_GELU_BACKWARD: out = in0 * gelu' (in1) (in1 input; i0 as for GELU)
 * @GNN_BACKEND_OP_SILU_BACKWARD: out = in0 * silu' (in1) (in1 input)
 * @GNN_BACKEND_OP_SIGMOID_BACKWARD: out = in0 * in1 * (1 - in1) (in1 result)
 * @GNN_BACKEND_OP_TANH_BACKWARD: out = in0 * (1 - in1 * in1) (in1 result)
 * @GNN_BACKEND_OP_LERP: PyTorch's lerp: out = |in2| < 0.5 ? in0 + in2 * (in1 - in0) : in1 - (in1 - in0) * (1 - in2)
 * @GNN_BACKEND_OP_ADDCMUL: out = in0 + s0 * in1 * in2
 * @GNN_BACKEND_OP_ADDCDIV: out = in0 + s0 * in1 / in2
 * @GNN_BACKEND_OP_GEMM: out[b] = s0 * in0[b] · in1[b] + s1 * out[b]; 3-d views (batch, m, k), (batch, k, n), (batch, m, n);
 *   out is not read when s1 is 0
 * @GNN_BACKEND_OP_SUM: out[o, i] = Σ_r in0[o, r, i]; i0 outer, i1 reduced, i2 inner sizes of a contiguous in0
 * @GNN_BACKEND_OP_MAX: out[o, i] = max_r, out2 (int64) the first index of it; layout as SUM
 * @GNN_BACKEND_OP_MIN: out[o, i] = min_r, out2 (int64) the first index of it; layout as SUM
 * @GNN_BACKEND_OP_VAR: out[o, i] = variance over r with correction s0; layout as SUM
 * @GNN_BACKEND_OP_SOFTMAX: softmax over r; layout as SUM, out shaped as in0
 * @GNN_BACKEND_OP_LOG_SOFTMAX: log-softmax over r; layout as SOFTMAX
 * @GNN_BACKEND_OP_SOFTMAX_BACKWARD: out = in1 * (in0 - Σ_r in0 * in1) (in0 grad, in1 result)
 * @GNN_BACKEND_OP_LOG_SOFTMAX_BACKWARD: out = in0 - exp (in1) * Σ_r in0 (in0 grad, in1 result)
 * @GNN_BACKEND_OP_INDEX_SELECT: out[o, j, i] = in0[o, in1[j], i]; i0 outer, i1 source size, i2 inner
 * @GNN_BACKEND_OP_INDEX_ADD: out[o, in1[j], i] += in0[o, j, i]; i0 outer, i1 the size of out's indexed dimension, i2 inner
 * @GNN_BACKEND_OP_GATHER: out[o, j, i] = in0[o, in1[o, j, i], i]; i0 outer, i1 source size, i2 inner, i3 index size
 * @GNN_BACKEND_OP_SCATTER_ADD: out[o, in1[o, j, i], i] += in0[o, j, i]; i0 outer, i1 the size of out's indexed
 *   dimension, i2 inner, i3 index size
 * @GNN_BACKEND_OP_ONE_HOT: out[j, c] = in0[j] == c, i0 classes
 * @GNN_BACKEND_OP_IM2COL: out[n, (c * kh + ki) * kw + kj, oy, ox] = in0[n, c, oy * sh - ph + ki * dh,
 *   ox * sw - pw + kj * dw], 0 where that position lies outside in0; in0 (N, C, H, W), out contiguous
 *   (N, C * kh * kw, OH, OW), OH and OW read from out's shape (so a larger OH/OW pads on the bottom/right
 *   as well). The geometry packs two 32-bit values per slot, the H value in the high half:
 *   i0 = kh << 32 | kw, i1 = sh << 32 | sw, i2 = ph << 32 | pw, i3 = dh << 32 | dw (all ≥ 0, k, s, d ≥ 1)
 * @GNN_BACKEND_OP_COL2IM: the adjoint of IM2COL: out (N, C, H, W), contiguous, is set to the sum over every
 *   column entry in0[n, (c * kh + ki) * kw + kj, oy, ox] of the position IM2COL reads it from (entries
 *   outside out are dropped); in0 (N, C * kh * kw, OH, OW); i0..i3 as IM2COL
 * @GNN_BACKEND_OP_MAX_POOL2D: out[n, c, oy, ox] = the max of in0[n, c, oy * sh - ph + ki * dh, ox * sw - pw + kj * dw]
 *   over the positions inside in0 (ki < kh, kj < kw), NaN propagating, and out2 (int64) its index y * W + x in the
 *   (H, W) plane, the first one on ties; in0 (N, C, H, W), out and out2 contiguous (N, C, OH, OW), OH and OW read
 *   from out's shape; i0..i3 packed as IM2COL (kernel, stride, padding, dilation)
 * @GNN_BACKEND_OP_MAX_POOL2D_BACKWARD: out (N, C, H, W), contiguous, is set to zero, then out[n, c, in1[n, c, oy, ox]]
 *   += in0[n, c, oy, ox] (in0 grad and in1 int64 indices, both (N, C, OH, OW), as MAX_POOL2D gives them)
 * @GNN_BACKEND_OP_AVG_POOL2D: PyTorch's avg_pool2d: out[n, c, oy, ox] = Σ in0 over the window [oy * sh - ph, + kh) ×
 *   [ox * sw - pw, + kw) clipped to in0, divided by s0 when s0 > 0 (divisor_override), else by the window's size
 *   clipped to the padded input (i3 = 1, count_include_pad) or to in0 (i3 = 0); 0 for a window wholly outside;
 *   in0 (N, C, H, W), out contiguous (N, C, OH, OW) (OH, OW from out); i0..i2 packed as IM2COL
 * @GNN_BACKEND_OP_AVG_POOL2D_BACKWARD: out (N, C, H, W), contiguous, is set to zero, then each in0[n, c, oy, ox]
 *   (the grad, (N, C, OH, OW)) divided as AVG_POOL2D divides is added over its window; i0..i3 and s0 as AVG_POOL2D
 * @GNN_BACKEND_OP_ADAPTIVE_AVG_POOL2D: PyTorch's adaptive_avg_pool2d: out[n, c, oy, ox] = the mean of in0[n, c] over
 *   rows [⌊oy · H / OH⌋, ⌈(oy + 1) · H / OH⌉) and columns [⌊ox · W / OW⌋, ⌈(ox + 1) · W / OW⌉); in0 (N, C, H, W), out
 *   contiguous (N, C, OH, OW), OH and OW read from out's shape; no i[] or s[] parameters
 * @GNN_BACKEND_OP_ADAPTIVE_AVG_POOL2D_BACKWARD: out (N, C, H, W), contiguous, is set to zero, then each in0[n, c, oy, ox]
 *   (the grad, (N, C, OH, OW)) divided by its window's size is added over that window (windows as ADAPTIVE_AVG_POOL2D)
 * @GNN_BACKEND_OP_FOREACH_LERP: a multi-tensor kernel: for each j < n_list, list_out[j] = lerp (list_out[j],
 *   list_in[j], s0) with PyTorch's lerp formula (as LERP, the weight a scalar); out and in of a pair share one
 *   shape, any strides; every tensor of the call has the op's floating dtype. One call updates a whole
 *   parameter list (the EMA and SWA averaging of [class@Gnn.AveragedModel]); `out`, `in` are unused
 * @GNN_BACKEND_OP_BATCH_NORM_STATS: per-channel statistics of a contiguous in0 (N, C, S) (i0 N, i1 C,
 *   i2 S): out, contiguous (2, C), gets the mean over N and S in row 0 and the biased variance
 *   Σ (x - mean)² / (N·S) in row 1 (the training-mode statistics of batch normalisation)
 * @GNN_BACKEND_OP_CHANNEL_AFFINE: out = in0 · in1[0, c] + in1[1, c] for in0 and out contiguous (N, C, S)
 *   (i0 N, i1 C, i2 S) and coefficients in1, contiguous (2, C); when in2 (contiguous (N, C, S)) is given,
 *   in1 has 4 rows and (in2 - in1[2, c]) · in1[3, c] is added (batch normalisation forward and backward)
 * @GNN_BACKEND_OP_BATCH_NORM_BACKWARD_REDUCE: for the gradient in0 and the input in1, both contiguous
 *   (N, C, S) (i0 N, i1 C, i2 S), and the per-channel mean in2 (C): out, contiguous (2, C), gets Σ in0 in
 *   row 0 and Σ in0 · (in1 - in2[c]) in row 1, summed over N and S
 * @GNN_BACKEND_OP_N_OPS: the number of ops in this version of the interface
 *
 * The kernels a backend may implement, dispatched through the backend's `run` function with
 * a `GnnKernelArgs` (see `gnn/gnn-backend-impl.h`). Unless said otherwise, all operands of
 * an elementwise kernel share one shape, broadcasting is expressed by zero strides, `in`
 * operands have the compute dtype and `out` is written in place. Values are only ever added.
 */
typedef enum {
  GNN_BACKEND_OP_COPY,
  GNN_BACKEND_OP_FILL,
  GNN_BACKEND_OP_ARANGE,
  GNN_BACKEND_OP_RAND_UNIFORM,
  GNN_BACKEND_OP_RAND_NORMAL,
  GNN_BACKEND_OP_RAND_INT,
  GNN_BACKEND_OP_ADD,
  GNN_BACKEND_OP_SUB,
  GNN_BACKEND_OP_MUL,
  GNN_BACKEND_OP_DIV,
  GNN_BACKEND_OP_POW,
  GNN_BACKEND_OP_MAXIMUM,
  GNN_BACKEND_OP_MINIMUM,
  GNN_BACKEND_OP_EQ,
  GNN_BACKEND_OP_NE,
  GNN_BACKEND_OP_LT,
  GNN_BACKEND_OP_LE,
  GNN_BACKEND_OP_GT,
  GNN_BACKEND_OP_GE,
  GNN_BACKEND_OP_WHERE,
  GNN_BACKEND_OP_NEG,
  GNN_BACKEND_OP_EXP,
  GNN_BACKEND_OP_LOG,
  GNN_BACKEND_OP_SQRT,
  GNN_BACKEND_OP_ABS,
  GNN_BACKEND_OP_SIGN,
  GNN_BACKEND_OP_CLAMP,
  GNN_BACKEND_OP_POW_SCALAR,
  GNN_BACKEND_OP_RELU,
  GNN_BACKEND_OP_LEAKY_RELU,
  GNN_BACKEND_OP_ELU,
  GNN_BACKEND_OP_GELU,
  GNN_BACKEND_OP_SILU,
  GNN_BACKEND_OP_SIGMOID,
  GNN_BACKEND_OP_TANH,
  GNN_BACKEND_OP_RELU_BACKWARD,
  GNN_BACKEND_OP_LEAKY_RELU_BACKWARD,
  GNN_BACKEND_OP_ELU_BACKWARD,
  GNN_BACKEND_OP_GELU_BACKWARD,
  GNN_BACKEND_OP_SILU_BACKWARD,
  GNN_BACKEND_OP_SIGMOID_BACKWARD,
  GNN_BACKEND_OP_TANH_BACKWARD,
  GNN_BACKEND_OP_LERP,
  GNN_BACKEND_OP_ADDCMUL,
  GNN_BACKEND_OP_ADDCDIV,
  GNN_BACKEND_OP_GEMM,
  GNN_BACKEND_OP_SUM,
  GNN_BACKEND_OP_MAX,
  GNN_BACKEND_OP_MIN,
  GNN_BACKEND_OP_VAR,
  GNN_BACKEND_OP_SOFTMAX,
  GNN_BACKEND_OP_LOG_SOFTMAX,
  GNN_BACKEND_OP_SOFTMAX_BACKWARD,
  GNN_BACKEND_OP_LOG_SOFTMAX_BACKWARD,
  GNN_BACKEND_OP_INDEX_SELECT,
  GNN_BACKEND_OP_INDEX_ADD,
  GNN_BACKEND_OP_GATHER,
  GNN_BACKEND_OP_SCATTER_ADD,
  GNN_BACKEND_OP_ONE_HOT,
  GNN_BACKEND_OP_IM2COL,
  GNN_BACKEND_OP_COL2IM,
  GNN_BACKEND_OP_MAX_POOL2D,
  GNN_BACKEND_OP_MAX_POOL2D_BACKWARD,
  GNN_BACKEND_OP_AVG_POOL2D,
  GNN_BACKEND_OP_AVG_POOL2D_BACKWARD,
  GNN_BACKEND_OP_ADAPTIVE_AVG_POOL2D,
  GNN_BACKEND_OP_ADAPTIVE_AVG_POOL2D_BACKWARD,
  GNN_BACKEND_OP_FOREACH_LERP,
  GNN_BACKEND_OP_BATCH_NORM_STATS,
  GNN_BACKEND_OP_CHANNEL_AFFINE,
  GNN_BACKEND_OP_BATCH_NORM_BACKWARD_REDUCE,
  GNN_BACKEND_OP_N_OPS
} GnnBackendOp;

#define GNN_TYPE_BACKEND (gnn_backend_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_INTERFACE (GnnBackend, gnn_backend, GNN, BACKEND, GObject)

GNN_AVAILABLE_IN_ALL
const char  *gnn_backend_get_name             (GnnBackend  *self);
GNN_AVAILABLE_IN_ALL
const char  *gnn_backend_get_device_type      (GnnBackend  *self);
GNN_AVAILABLE_IN_ALL
guint        gnn_backend_get_device_count     (GnnBackend  *self);
GNN_AVAILABLE_IN_ALL
char        *gnn_backend_get_device_description (GnnBackend *self,
                                                 guint       index);
GNN_AVAILABLE_IN_ALL
gboolean     gnn_backend_get_memory_info      (GnnBackend  *self,
                                               guint        index,
                                               guint64     *free_bytes,
                                               guint64     *total_bytes,
                                               GError     **error);
GNN_AVAILABLE_IN_ALL
gboolean     gnn_backend_supports_op          (GnnBackend  *self,
                                               GnnBackendOp op,
                                               GnnDtype     dtype);
GNN_AVAILABLE_IN_ALL
gboolean     gnn_backend_synchronize          (GnnBackend  *self,
                                               guint        index,
                                               GError     **error);

GNN_AVAILABLE_IN_ALL
GnnBackend  *gnn_backend_get_for_device_type  (const char  *device_type,
                                               GError     **error);
GNN_AVAILABLE_IN_ALL
GnnBackend  *gnn_backend_get_by_name          (const char  *name,
                                               GError     **error);
GNN_AVAILABLE_IN_ALL
char       **gnn_backend_list_names           (void);
GNN_AVAILABLE_IN_ALL
char        *gnn_backend_describe_available   (void);
GNN_AVAILABLE_IN_ALL
gboolean     gnn_backend_load_modules_from    (const char  *directory,
                                               GError     **error);
GNN_AVAILABLE_IN_ALL
guint64      gnn_backend_get_kernel_count     (GnnBackend  *self,
                                               GnnBackendOp op);
GNN_AVAILABLE_IN_ALL
void         gnn_backend_reset_kernel_counts  (GnnBackend  *self);

G_END_DECLS
