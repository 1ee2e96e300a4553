/* gnn-cuda-kernels-conv.cu: im2col and col2im, the data movement of convolution, and 2-d
 * max, average and adaptive average pooling with their backward kernels
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Operands are contiguous, (N, C, H, W) images, (N, C · kh · kw, OH, OW) columns and
 * (N, C, OH, OW) pooled planes, as the CPU backend takes them. Every kernel gives one thread
 * to each element it writes, so nothing is zeroed first and nothing is added atomically:
 * col2im and the pooling backward kernels gather, for each image element, the entries that
 * reach it, in the order in which the CPU backend adds them (column rows in order for col2im,
 * pooled elements in row-major order for the pooling kernels), in the operand type, which
 * gives the CPU's results bit for bit. Forward average pooling sums in double as the CPU does.
 *
 * MAX_POOL2D_BACKWARD adds each gradient to the element its index names when that element
 * lies in the gradient's window, which every index MAX_POOL2D gives does, or when the index
 * is 0 and some window holds no position of the plane (MAX_POOL2D gives such a window index
 * 0). Any other index (one outside its window, or outside the plane) is dropped, where the CPU
 * backend adds at any index in the plane and reports one outside the plane as an error.
 */
#include "gnn-cuda-kernels.cuh"

namespace gnn_cuda {
namespace {

#define CONV_THREADS 256

struct Geometry {
  i64 N, C, H, W, OH, OW;
  i64 kh, kw, sh, sw, ph, pw, dh, dw;
  int small;          /* every decomposed index is below 2^31 */
  int has_empty;      /* max pooling: some window holds no position of the plane */
  IntDiv dW, dH, dOW, dOH, dkw, dkh;
};

__device__ __forceinline__ i64
divide (const IntDiv &d, i64 n, i64 divisor, int small)
{
  return small ? (i64) d.div ((unsigned) n) : n / divisor;
}

/* l = (plane · A + a) · B + b for the (A, B) = (H, W) or (OH, OW) plane of the element */
__device__ __forceinline__ void
split_plane (const Geometry &g, i64 l, const IntDiv &dA, i64 A, const IntDiv &dB, i64 B,
             i64 &plane, i64 &a, i64 &b)
{
  i64 t = divide (dB, l, B, g.small);
  b = l - t * B;
  plane = divide (dA, t, A, g.small);
  a = t - plane * A;
}

/* IM2COL: out[n, (c kh + ki) kw + kj, oy, ox] = in0[n, c, oy sh - ph + ki dh, ox sw - pw + kj dw] */
template <class T>
__global__ void __launch_bounds__ (CONV_THREADS)
im2col_kernel (const T *in, T *out, Geometry g, i64 total)
{
  for (i64 l = (i64) blockIdx.x * blockDim.x + threadIdx.x; l < total; l += (i64) gridDim.x * blockDim.x)
    {
      i64 nrow, oy, ox;
      split_plane (g, l, g.dOH, g.OH, g.dOW, g.OW, nrow, oy, ox);
      /* nrow = n · C kh kw + (c kh + ki) kw + kj = ((n C + c) kh + ki) kw + kj */
      const i64 t = divide (g.dkw, nrow, g.kw, g.small);
      const i64 kj = nrow - t * g.kw;
      const i64 plane = divide (g.dkh, t, g.kh, g.small);
      const i64 ki = t - plane * g.kh;
      const i64 y = oy * g.sh - g.ph + ki * g.dh, x = ox * g.sw - g.pw + kj * g.dw;

      out[l] = (y >= 0 && y < g.H && x >= 0 && x < g.W) ? in[(plane * g.H + y) * g.W + x] : (T) 0;
    }
}

/* COL2IM: out[n, c, y, x] = the sum of the column entries im2col reads from (y, x), column
 * rows (ki, kj) in order */
template <class T>
__global__ void __launch_bounds__ (CONV_THREADS)
col2im_kernel (const T *in, T *out, Geometry g, i64 total)
{
  for (i64 l = (i64) blockIdx.x * blockDim.x + threadIdx.x; l < total; l += (i64) gridDim.x * blockDim.x)
    {
      i64 plane, y, x;
      T acc = (T) 0;

      split_plane (g, l, g.dH, g.H, g.dW, g.W, plane, y, x);
      const T *cols = in + plane * g.kh * g.kw * g.OH * g.OW;
      for (i64 ki = 0; ki < g.kh; ki++)
        {
          const i64 ty = y + g.ph - ki * g.dh;
          if (ty < 0)
            break;
          const i64 oy = ty / g.sh;
          if (oy * g.sh != ty || oy >= g.OH)
            continue;
          for (i64 kj = 0; kj < g.kw; kj++)
            {
              const i64 tx = x + g.pw - kj * g.dw;
              if (tx < 0)
                break;
              const i64 ox = tx / g.sw;
              if (ox * g.sw != tx || ox >= g.OW)
                continue;
              acc += cols[((ki * g.kw + kj) * g.OH + oy) * g.OW + ox];
            }
        }
      out[l] = acc;
    }
}

/* MAX_POOL2D: the max over the window's positions inside the plane, NaN propagating, and its
 * index y W + x (the first on ties, the last NaN) */
template <class T>
__global__ void __launch_bounds__ (CONV_THREADS)
max_pool_kernel (const T *in, T *out, i64 *out_idx, Geometry g, i64 total)
{
  for (i64 l = (i64) blockIdx.x * blockDim.x + threadIdx.x; l < total; l += (i64) gridDim.x * blockDim.x)
    {
      i64 plane, oy, ox;
      T best = (T) -INFINITY;
      i64 best_at = -1;

      split_plane (g, l, g.dOH, g.OH, g.dOW, g.OW, plane, oy, ox);
      const T *p = in + plane * g.H * g.W;
      for (i64 ki = 0; ki < g.kh; ki++)
        {
          const i64 y = oy * g.sh - g.ph + ki * g.dh;
          if (y < 0 || y >= g.H)
            continue;
          for (i64 kj = 0; kj < g.kw; kj++)
            {
              const i64 x = ox * g.sw - g.pw + kj * g.dw;
              if (x < 0 || x >= g.W)
                continue;
              const T v = p[y * g.W + x];
              if (best_at < 0 || v > best || v != v)
                {
                  best = v;
                  best_at = y * g.W + x;
                }
            }
        }
      out[l] = best;
      out_idx[l] = best_at > 0 ? best_at : 0;
    }
}

/* MAX_POOL2D_BACKWARD: out[n, c, y, x] = Σ grad over the windows that hold (y, x) and whose
 * index names it, windows in row-major order (ki descending walks oy ascending) */
template <class T>
__global__ void __launch_bounds__ (CONV_THREADS)
max_pool_backward_kernel (const T *grad, const i64 *idx, T *out, Geometry g, i64 total)
{
  for (i64 l = (i64) blockIdx.x * blockDim.x + threadIdx.x; l < total; l += (i64) gridDim.x * blockDim.x)
    {
      i64 plane, y, x;
      T acc = (T) 0;

      split_plane (g, l, g.dH, g.H, g.dW, g.W, plane, y, x);
      const i64 at = y * g.W + x;
      const i64 base = plane * g.OH * g.OW;
      if (at == 0 && g.has_empty)
        {
          /* MAX_POOL2D gives index 0 to a window that holds no position, which need not hold
           * (0, 0): the first element takes every gradient whose index is 0 */
          for (i64 k = base; k < base + g.OH * g.OW; k++)
            if (idx[k] == 0)
              acc += grad[k];
          out[l] = acc;
          continue;
        }
      for (i64 ki = g.kh - 1; ki >= 0; ki--)
        {
          const i64 ty = y + g.ph - ki * g.dh;
          if (ty < 0)
            continue;
          const i64 oy = ty / g.sh;
          if (oy * g.sh != ty || oy >= g.OH)
            continue;
          for (i64 kj = g.kw - 1; kj >= 0; kj--)
            {
              const i64 tx = x + g.pw - kj * g.dw;
              if (tx < 0)
                continue;
              const i64 ox = tx / g.sw;
              if (ox * g.sw != tx || ox >= g.OW)
                continue;
              const i64 k = base + oy * g.OW + ox;
              if (idx[k] == at)
                acc += grad[k];
            }
        }
      out[l] = acc;
    }
}

/* the divisor of AVG_POOL2D for the window at (oy, ox), or 0 for a window wholly outside */
__device__ __forceinline__ double
avg_divisor (const Geometry &g, i64 oy, i64 ox, double override, int count_pad,
             i64 &y0, i64 &y1, i64 &x0, i64 &x1)
{
  y0 = oy * g.sh - g.ph;
  x0 = ox * g.sw - g.pw;
  y1 = min (y0 + g.kh, g.H + g.ph);
  x1 = min (x0 + g.kw, g.W + g.pw);
  const i64 pool_size = (y1 - y0) * (x1 - x0);
  y0 = max (y0, (i64) 0);
  x0 = max (x0, (i64) 0);
  y1 = min (y1, g.H);
  x1 = min (x1, g.W);
  if (y0 >= y1 || x0 >= x1)
    return 0;
  return override != 0 ? override : count_pad ? (double) pool_size : (double) ((y1 - y0) * (x1 - x0));
}

template <class T>
__global__ void __launch_bounds__ (CONV_THREADS)
avg_pool_kernel (const T *in, T *out, Geometry g, double override, int count_pad, i64 total)
{
  for (i64 l = (i64) blockIdx.x * blockDim.x + threadIdx.x; l < total; l += (i64) gridDim.x * blockDim.x)
    {
      i64 plane, oy, ox, y0, y1, x0, x1;
      double sum = 0;

      split_plane (g, l, g.dOH, g.OH, g.dOW, g.OW, plane, oy, ox);
      const double divisor = avg_divisor (g, oy, ox, override, count_pad, y0, y1, x0, x1);
      if (divisor == 0)
        {
          out[l] = (T) 0;
          continue;
        }
      const T *p = in + plane * g.H * g.W;
      for (i64 y = y0; y < y1; y++)
        for (i64 x = x0; x < x1; x++)
          sum = __dadd_rn (sum, (double) p[y * g.W + x]);
      out[l] = (T) __ddiv_rn (sum, divisor);
    }
}

/* AVG_POOL2D_BACKWARD: out[n, c, y, x] = Σ (T) (grad / divisor) over the windows holding
 * (y, x), in row-major order */
template <class T>
__global__ void __launch_bounds__ (CONV_THREADS)
avg_pool_backward_kernel (const T *grad, T *out, Geometry g, double override, int count_pad, i64 total)
{
  for (i64 l = (i64) blockIdx.x * blockDim.x + threadIdx.x; l < total; l += (i64) gridDim.x * blockDim.x)
    {
      i64 plane, y, x;
      T acc = (T) 0;

      split_plane (g, l, g.dH, g.H, g.dW, g.W, plane, y, x);
      const T *gp = grad + plane * g.OH * g.OW;
      /* windows oy with oy sh - ph <= y < oy sh - ph + kh */
      const i64 ny = y + g.ph - g.kh + 1, nx = x + g.pw - g.kw + 1;
      const i64 oy0 = ny > 0 ? (ny + g.sh - 1) / g.sh : 0, oy1 = min ((y + g.ph) / g.sh, g.OH - 1);
      const i64 ox0 = nx > 0 ? (nx + g.sw - 1) / g.sw : 0, ox1 = min ((x + g.pw) / g.sw, g.OW - 1);
      for (i64 oy = oy0; oy <= oy1; oy++)
        for (i64 ox = ox0; ox <= ox1; ox++)
          {
            i64 y0, y1, x0, x1;
            const double divisor = avg_divisor (g, oy, ox, override, count_pad, y0, y1, x0, x1);
            if (divisor == 0 || y < y0 || y >= y1 || x < x0 || x >= x1)
              continue;
            acc += (T) __ddiv_rn ((double) gp[oy * g.OW + ox], divisor);
          }
      out[l] = acc;
    }
}

/* adaptive windows [⌊o I / O⌋, ⌈(o + 1) I / O⌉) */
__device__ __forceinline__ i64 win_start (i64 o, i64 in, i64 on) { return o * in / on; }
__device__ __forceinline__ i64 win_end (i64 o, i64 in, i64 on) { return ((o + 1) * in + on - 1) / on; }

template <class T>
__global__ void __launch_bounds__ (CONV_THREADS)
adaptive_pool_kernel (const T *in, T *out, Geometry g, i64 total)
{
  for (i64 l = (i64) blockIdx.x * blockDim.x + threadIdx.x; l < total; l += (i64) gridDim.x * blockDim.x)
    {
      i64 plane, oy, ox;
      double sum = 0;

      split_plane (g, l, g.dOH, g.OH, g.dOW, g.OW, plane, oy, ox);
      const i64 y0 = win_start (oy, g.H, g.OH), y1 = win_end (oy, g.H, g.OH);
      const i64 x0 = win_start (ox, g.W, g.OW), x1 = win_end (ox, g.W, g.OW);
      const T *p = in + plane * g.H * g.W;
      for (i64 y = y0; y < y1; y++)
        for (i64 x = x0; x < x1; x++)
          sum = __dadd_rn (sum, (double) p[y * g.W + x]);
      out[l] = (T) __ddiv_rn (sum, (double) ((y1 - y0) * (x1 - x0)));
    }
}

template <class T>
__global__ void __launch_bounds__ (CONV_THREADS)
adaptive_pool_backward_kernel (const T *grad, T *out, Geometry g, i64 total)
{
  for (i64 l = (i64) blockIdx.x * blockDim.x + threadIdx.x; l < total; l += (i64) gridDim.x * blockDim.x)
    {
      i64 plane, y, x;
      T acc = (T) 0;

      split_plane (g, l, g.dH, g.H, g.dW, g.W, plane, y, x);
      const T *gp = grad + plane * g.OH * g.OW;
      /* the windows holding y are oy in [⌊y OH / H⌋, ⌈(y + 1) OH / H⌉) */
      const i64 oy0 = y * g.OH / g.H, oy1 = min ((i64) (((y + 1) * g.OH + g.H - 1) / g.H), g.OH);
      const i64 ox0 = x * g.OW / g.W, ox1 = min ((i64) (((x + 1) * g.OW + g.W - 1) / g.W), g.OW);
      for (i64 oy = oy0; oy < oy1; oy++)
        {
          const i64 y0 = win_start (oy, g.H, g.OH), y1 = win_end (oy, g.H, g.OH);
          if (y < y0 || y >= y1)
            continue;
          for (i64 ox = ox0; ox < ox1; ox++)
            {
              const i64 x0 = win_start (ox, g.W, g.OW), x1 = win_end (ox, g.W, g.OW);
              if (x < x0 || x >= x1)
                continue;
              acc += (T) __ddiv_rn ((double) gp[oy * g.OW + ox], (double) ((y1 - y0) * (x1 - x0)));
            }
        }
      out[l] = acc;
    }
}

/* whether every window o < on of a pooling dimension (start o s - p, k positions d apart)
 * holds at least one position of [0, size) */
bool
every_window_inside (i64 on, i64 s, i64 p, i64 k, i64 d, i64 size)
{
  for (i64 o = 0; o < on; o++)
    {
      const i64 start = o * s - p;
      const i64 first = start >= 0 ? 0 : (-start + d - 1) / d;   /* the first k with a position >= 0 */
      if (first >= k || start + first * d >= size)
        return false;
    }
  return true;
}

gboolean
check_4d (const GnnKernelArgs *args, const GnnKernelTensor *t, const char *name, GnnDtype dtype, GError **error)
{
  if (t->dtype != dtype)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED, "The cuda backend has no %s kernel for %s of "
                   "dtype %s (expected %s)", op_name (args->op), name, gnn_dtype_get_name (t->dtype),
                   gnn_dtype_get_name (dtype));
      return FALSE;
    }
  if (t->ndim != 4)
    return fail (error, GNN_ERROR_INVALID_ARGUMENT, args->op, "%s must be 4-d, got %u-d", name, t->ndim);
  if (!is_contiguous (t))
    return fail (error, GNN_ERROR_NOT_SUPPORTED, args->op, "%s must be contiguous", name);
  return TRUE;
}

template <class T>
gboolean
launch (GnnCudaContext *ctx, const GnnKernelArgs *args, Geometry &g, GError **error)
{
  const GnnBackendOp op = args->op;
  const T *in0 = (const T *) args->in[0]->data;
  T *out = (T *) args->out->data;
  const bool writes_image = op == GNN_BACKEND_OP_COL2IM || op == GNN_BACKEND_OP_MAX_POOL2D_BACKWARD ||
                            op == GNN_BACKEND_OP_AVG_POOL2D_BACKWARD ||
                            op == GNN_BACKEND_OP_ADAPTIVE_AVG_POOL2D_BACKWARD;
  const i64 total = writes_image ? g.N * g.C * g.H * g.W
                    : op == GNN_BACKEND_OP_IM2COL ? g.N * g.C * g.kh * g.kw * g.OH * g.OW
                    : g.N * g.C * g.OH * g.OW;
  const double override = args->params.window.divisor;
  const int count_pad = args->params.window.count_include_pad != 0;
  unsigned blocks;

  if (total == 0)
    return TRUE;
  g.small = total < ((i64) 1 << 31);
  g.dW.init ((u64) MAX (g.W, 1));
  g.dH.init ((u64) MAX (g.H, 1));
  g.dOW.init ((u64) MAX (g.OW, 1));
  g.dOH.init ((u64) MAX (g.OH, 1));
  g.dkw.init ((u64) g.kw);
  g.dkh.init ((u64) g.kh);
  blocks = grid_blocks (ctx, total, CONV_THREADS);

  switch (op)
    {
    case GNN_BACKEND_OP_IM2COL:
      im2col_kernel<T><<<blocks, CONV_THREADS, 0, ctx->stream>>> (in0, out, g, total);
      break;
    case GNN_BACKEND_OP_COL2IM:
      col2im_kernel<T><<<blocks, CONV_THREADS, 0, ctx->stream>>> (in0, out, g, total);
      break;
    case GNN_BACKEND_OP_MAX_POOL2D:
      max_pool_kernel<T><<<blocks, CONV_THREADS, 0, ctx->stream>>> (in0, out, (i64 *) args->out2->data, g, total);
      break;
    case GNN_BACKEND_OP_MAX_POOL2D_BACKWARD:
      max_pool_backward_kernel<T><<<blocks, CONV_THREADS, 0, ctx->stream>>> (in0, (const i64 *) args->in[1]->data,
                                                                               out, g, total);
      break;
    case GNN_BACKEND_OP_AVG_POOL2D:
      avg_pool_kernel<T><<<blocks, CONV_THREADS, 0, ctx->stream>>> (in0, out, g, override, count_pad, total);
      break;
    case GNN_BACKEND_OP_AVG_POOL2D_BACKWARD:
      avg_pool_backward_kernel<T><<<blocks, CONV_THREADS, 0, ctx->stream>>> (in0, out, g, override, count_pad, total);
      break;
    case GNN_BACKEND_OP_ADAPTIVE_AVG_POOL2D:
      adaptive_pool_kernel<T><<<blocks, CONV_THREADS, 0, ctx->stream>>> (in0, out, g, total);
      break;
    default:
      adaptive_pool_backward_kernel<T><<<blocks, CONV_THREADS, 0, ctx->stream>>> (in0, out, g, total);
      break;
    }
  return check_launch (op, error);
}

} /* anonymous namespace */

gboolean
run_conv (GnnCudaContext *ctx, const GnnKernelArgs *args, GError **error)
{
  const GnnBackendOp op = args->op;
  const GnnDtype dt = args->in[0]->dtype;
  const bool to_image = op == GNN_BACKEND_OP_COL2IM || op == GNN_BACKEND_OP_MAX_POOL2D_BACKWARD ||
                        op == GNN_BACKEND_OP_AVG_POOL2D_BACKWARD || op == GNN_BACKEND_OP_ADAPTIVE_AVG_POOL2D_BACKWARD;
  const bool adaptive = op == GNN_BACKEND_OP_ADAPTIVE_AVG_POOL2D || op == GNN_BACKEND_OP_ADAPTIVE_AVG_POOL2D_BACKWARD;
  const bool is_max = op == GNN_BACKEND_OP_MAX_POOL2D || op == GNN_BACKEND_OP_MAX_POOL2D_BACKWARD;
  const bool is_cols = op == GNN_BACKEND_OP_IM2COL || op == GNN_BACKEND_OP_COL2IM;
  const GnnKernelTensor *image = to_image ? args->out : args->in[0];
  const GnnKernelTensor *other = to_image ? args->in[0] : args->out;
  const GnnKernelWindow *w = &args->params.window;
  Geometry g;

  memset (&g, 0, sizeof g);
  if (!check_4d (args, args->in[0], "in0", dt, error) || !check_4d (args, args->out, "out", dt, error))
    return FALSE;
  g.N = image->shape[0];
  g.C = image->shape[1];
  g.H = image->shape[2];
  g.W = image->shape[3];
  g.OH = other->shape[2];
  g.OW = other->shape[3];
  if (adaptive)
    {
      g.kh = g.kw = g.sh = g.sw = g.dh = g.dw = 1;
      if (other->shape[0] != g.N || other->shape[1] != g.C)
        return fail (error, GNN_ERROR_INVALID_ARGUMENT, op, "the image and the pooled operand must have the same N and C");
      if (dt == GNN_DTYPE_FLOAT32)
        return launch<float> (ctx, args, g, error);
      return launch<double> (ctx, args, g, error);
    }
  g.kh = w->kernel[0]; g.kw = w->kernel[1]; g.sh = w->stride[0]; g.sw = w->stride[1];
  g.ph = w->padding[0]; g.pw = w->padding[1];
  g.dh = is_cols || is_max ? w->dilation[0] : 1;
  g.dw = is_cols || is_max ? w->dilation[1] : 1;
  if (g.kh < 1 || g.kw < 1 || g.sh < 1 || g.sw < 1 || g.dh < 1 || g.dw < 1)
    return fail (error, GNN_ERROR_INVALID_ARGUMENT, op, "kernel size, stride and dilation must be at least 1");
  if (is_cols ? (other->shape[0] != g.N || other->shape[1] != g.C * g.kh * g.kw)
              : (other->shape[0] != g.N || other->shape[1] != g.C))
    return fail (error, GNN_ERROR_INVALID_ARGUMENT, op, "the operands do not match the geometry of params.window");
  if (op == GNN_BACKEND_OP_MAX_POOL2D)
    {
      if (args->out2 == NULL)
        return fail (error, GNN_ERROR_INVALID_ARGUMENT, op, "out2 must hold the int64 indices");
      if (!check_4d (args, args->out2, "out2", GNN_DTYPE_INT64, error))
        return FALSE;
      if (numel (args->out2) != numel (args->out))
        return fail (error, GNN_ERROR_INVALID_ARGUMENT, op, "out2 must be shaped as out");
    }
  if (op == GNN_BACKEND_OP_MAX_POOL2D_BACKWARD)
    {
      if (!check_4d (args, args->in[1], "in1", GNN_DTYPE_INT64, error))
        return FALSE;
      if (numel (args->in[1]) != numel (args->in[0]))
        return fail (error, GNN_ERROR_INVALID_ARGUMENT, op, "in1 must be shaped as in0");
      g.has_empty = !every_window_inside (g.OH, g.sh, g.ph, g.kh, g.dh, g.H) ||
                    !every_window_inside (g.OW, g.sw, g.pw, g.kw, g.dw, g.W);
    }
  if (dt == GNN_DTYPE_FLOAT32)
    return launch<float> (ctx, args, g, error);
  return launch<double> (ctx, args, g, error);
}

} /* namespace gnn_cuda */
