/* gnn-ops-conv.c: convolution through the backend's im2col, gemm and col2im
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * conv2d (x, w) = w (G, O/G, C/G·kh·kw) · im2col (x) (N, G, C/G·kh·kw, OH·OW), plus the bias.
 * im2col is an op of its own whose backward is col2im, so autograd gives the gradients the
 * usual way: grad input = col2im (Wᵀ · g), grad weight = g · colsᵀ (summed over the batch),
 * grad bias = Σ g.
 */
#include "config.h"

#include <string.h>

#include "gnn-ops-private.h"
#include "gnn-autocast-private.h"

#define NEEDS(j) (node->edges[(j)].node != NULL)

typedef struct {
  gint64 k[2], s[2], p[2], d[2];
} ConvGeometry;

static void
geometry_to_args (const ConvGeometry *g, GnnKernelArgs *args)
{
  GnnKernelWindow *w = &args->params.window;

  for (guint k = 0; k < 2; k++)
    {
      w->kernel[k] = g->k[k];
      w->stride[k] = g->s[k];
      w->padding[k] = g->p[k];
      w->dilation[k] = g->d[k];
    }
}

static void
kernel_4d (GnnTensor *t, GnnKernelTensor *kt)
{
  GnnTensorPrivate *p = gnn_tensor_priv (t);

  kt->data = gnn_tensor_data_ptr (p);
  kt->dtype = p->dtype;
  kt->ndim = 4;
  memcpy (kt->shape, p->shape, sizeof (gint64) * 4);
  gnn_contiguous_strides (4, kt->shape, kt->strides);
}

/* image (N, C, H, W) <-> columns (N, C·kh·kw, OH, OW), no autograd. @src need not be
 * contiguous; the result is. */
static GnnTensor *
run_im2col_col2im (GnnBackendOp op, GnnTensor *src, const gint64 *out_shape, const ConvGeometry *g,
                   GError **error)
{
  GnnTensorPrivate *ps = gnn_tensor_priv (src);
  g_autoptr(GnnTensor) in = gnn_tensor_contiguous_as (src, ps->dtype, error);
  g_autoptr(GnnTensor) out = NULL;
  GnnKernelTensor kin, kout;
  GnnKernelArgs args = { 0 };

  if (in == NULL || !(out = gnn_tensor_new_like (in, ps->dtype, 4, out_shape, error)))
    return NULL;
  kernel_4d (in, &kin);
  kernel_4d (out, &kout);
  args.op = op;
  args.out = &kout;
  args.in[0] = &kin;
  args.n_in = 1;
  geometry_to_args (g, &args);
  if (!gnn_run_kernel (out, &args, error))
    return NULL;
  return g_steal_pointer (&out);
}

static GnnTensor *col2im_op (GnnTensor *cols, const ConvGeometry *g, gint64 c, gint64 oh, gint64 ow,
                             GError **error);

/* im2col and col2im are each other's adjoints: under create_graph each backward is the
 * other op, recorded */
static gboolean
im2col_backward (GnnNode *node, GnnTensor **go, GnnTensor **gi, GError **error)
{
  const ConvGeometry *g = node->ctx;

  if (go[0] == NULL || !NEEDS (0))
    return TRUE;
  if (gnn_is_grad_enabled ())
    gi[0] = col2im_op (go[0], g, node->in_shape[0][1], node->in_shape[0][2], node->in_shape[0][3], error);
  else
    gi[0] = run_im2col_col2im (GNN_BACKEND_OP_COL2IM, go[0], node->in_shape[0], g, error);
  return gi[0] != NULL;
}

/* im2col with autograd: x (N, C, H, W) -> (N, C·kh·kw, oh, ow) */

/* The end of a convolution: the bias added per output channel, the batch dimension of an
 * unbatched input removed. Takes @out_in. */
static GnnTensor *
finish_conv_nd (GnnTensor *out_in, GnnTensor *bias, gint64 O, guint spatial, gboolean batched, GError **error)
{
  g_autoptr(GnnTensor) out = out_in;

  if (bias)
    {
      gint64 sb[4] = { O, 1, 1, 1 };
      g_autoptr(GnnTensor) b3 = gnn_tensor_view (bias, sb, spatial + 1, error);
      g_autoptr(GnnTensor) sum = b3 ? gnn_tensor_add (out, b3, 1.0, error) : NULL;

      if (sum == NULL)
        return NULL;
      g_set_object (&out, sum);
    }
  if (!batched)
    return gnn_tensor_squeeze_dim (out, 0, error);
  return g_steal_pointer (&out);
}

static GnnTensor *
finish_conv (GnnTensor *out_in, GnnTensor *bias, gint64 O, gboolean batched, GError **error)
{
  return finish_conv_nd (out_in, bias, O, 2, batched, error);
}

static GnnTensor *
im2col_op (GnnTensor *x, const ConvGeometry *g, gint64 oh, gint64 ow, GError **error)
{
  GnnTensorPrivate *px = gnn_tensor_priv (x);
  gint64 shape[4] = { px->shape[0], px->shape[1] * g->k[0] * g->k[1], oh, ow };
  GnnTensor *out = run_im2col_col2im (GNN_BACKEND_OP_IM2COL, x, shape, g, error);
  GnnNode *node;

  if (out && (node = gnn_autograd_record ("Im2ColBackward0", im2col_backward, &x, 1, &out, 1)))
    gnn_node_set_ctx (node, g_memdup2 (g, sizeof *g), g_free);
  return out;
}

/* The convolution of a 4-d input; @same pads as PyTorch's padding='same' (extra padding, if
 * odd, at the bottom / right), ignoring @padding. @name prefixes errors. */
GnnTensor *
gnn_conv2d_internal (const char   *name,
                     GnnTensor    *input,
                     GnnTensor    *weight,
                     GnnTensor    *bias,
                     const gint64 *stride,
                     const gint64 *padding,
                     const gint64 *dilation,
                     gint64        groups,
                     gboolean      same,
                     GError      **error)
{
  GnnTensorPrivate *px, *pw;
  ConvGeometry g;
  gint64 N, C, H, W, O, oh, ow, ck;
  g_autoptr(GnnTensor) x = NULL, cols = NULL, cols5 = NULL, w3 = NULL, prod = NULL, out = NULL;
  gboolean batched;

  g_return_val_if_fail (GNN_IS_TENSOR (input) && GNN_IS_TENSOR (weight), NULL);
  g_return_val_if_fail (bias == NULL || GNN_IS_TENSOR (bias), NULL);
  GNN_AUTOCAST_RETURN (GNN_AUTOCAST_OP_CONV, c,
                       gnn_conv2d_internal (name, c[0], c[1], c[2], stride, padding, dilation, groups, same, error),
                       error, input, weight, bias);
  GNN_HALF_RETURN (f, gnn_conv2d_internal (name, f[0], f[1], f[2], stride, padding, dilation, groups, same, error),
                   error, input, weight, bias);

  px = gnn_tensor_priv (input);
  pw = gnn_tensor_priv (weight);
  if (!gnn_check_floating (name, input, error) || !gnn_check_floating (name, weight, error) ||
      !gnn_check_same_device (name, input, weight, error) ||
      (bias && (!gnn_check_floating (name, bias, error) || !gnn_check_same_device (name, input, bias, error))))
    return NULL;
  if (px->dtype != pw->dtype || (bias && gnn_tensor_priv (bias)->dtype != px->dtype))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE,
                   "%s: Input type (%s) and weight type (%s)%s should be the same", name,
                   gnn_dtype_get_name (px->dtype), gnn_dtype_get_name (pw->dtype),
                   bias ? " and bias type" : "");
      return NULL;
    }
  if (groups < 1 || stride[0] < 1 || stride[1] < 1 || dilation[0] < 1 || dilation[1] < 1 ||
      padding[0] < 0 || padding[1] < 0 || (same && (stride[0] != 1 || stride[1] != 1)))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "%s: %s", name, same ? "padding='same' is not supported for strided convolutions"
                   : "groups, stride and dilation must be positive and padding non-negative");
      return NULL;
    }
  if (pw->ndim != 4 || pw->shape[0] % groups != 0)
    {
      g_autofree char *s = gnn_shape_to_string (pw->ndim, pw->shape);
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "%s: expected a 4-d weight (out_channels, in_channels / groups, kH, kW) with "
                   "out_channels divisible by groups=%" G_GINT64_FORMAT ", got shape %s", name, groups, s);
      return NULL;
    }
  batched = px->ndim == 4;
  if ((px->ndim != 3 && px->ndim != 4) || px->shape[px->ndim - 3] != pw->shape[1] * groups)
    {
      g_autofree char *s = gnn_shape_to_string (px->ndim, px->shape);
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "%s: expected a 3-d (C, H, W) or 4-d (N, C, H, W) input with C = %" G_GINT64_FORMAT
                   " channels, got shape %s", name, pw->shape[1] * groups, s);
      return NULL;
    }
  O = pw->shape[0];
  if (bias && (gnn_tensor_priv (bias)->ndim != 1 || gnn_tensor_priv (bias)->shape[0] != O))
    {
      GnnTensorPrivate *pb = gnn_tensor_priv (bias);
      g_autofree char *s = gnn_shape_to_string (pb->ndim, pb->shape);
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "%s: expected a bias of shape (%" G_GINT64_FORMAT "), got shape %s", name, O, s);
      return NULL;
    }

  x = batched ? g_object_ref (input) : gnn_tensor_unsqueeze (input, 0, error);
  if (x == NULL)
    return NULL;
  px = gnn_tensor_priv (x);
  N = px->shape[0]; C = px->shape[1]; H = px->shape[2]; W = px->shape[3];
  for (guint a = 0; a < 2; a++)
    {
      g.k[a] = pw->shape[2 + a];
      g.s[a] = stride[a];
      g.d[a] = dilation[a];
      g.p[a] = same ? g.d[a] * (g.k[a] - 1) / 2 : padding[a];
    }
  if (g.k[0] < 1 || g.k[1] < 1 || g.k[0] > G_MAXINT32 || g.k[1] > G_MAXINT32 || g.s[0] > G_MAXINT32 ||
      g.s[1] > G_MAXINT32 || g.p[0] > G_MAXINT32 || g.p[1] > G_MAXINT32 || g.d[0] > G_MAXINT32 ||
      g.d[1] > G_MAXINT32)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "%s: kernel size, stride, padding and dilation must lie in [1, 2^31) ([0, 2^31) for padding)",
                   name);
      return NULL;
    }
  if (same)
    {
      oh = H;
      ow = W;
    }
  else
    {
      oh = (H + 2 * g.p[0] - g.d[0] * (g.k[0] - 1) - 1) / g.s[0] + 1;
      ow = (W + 2 * g.p[1] - g.d[1] * (g.k[1] - 1) - 1) / g.s[1] + 1;
      if (H + 2 * g.p[0] < g.d[0] * (g.k[0] - 1) + 1 || W + 2 * g.p[1] < g.d[1] * (g.k[1] - 1) + 1)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                       "%s: Calculated padded input size per channel: (%" G_GINT64_FORMAT " x %" G_GINT64_FORMAT
                       "). Kernel size: (%" G_GINT64_FORMAT " x %" G_GINT64_FORMAT
                       "). Kernel size can't be greater than actual input size", name,
                       H + 2 * g.p[0], W + 2 * g.p[1], g.d[0] * (g.k[0] - 1) + 1, g.d[1] * (g.k[1] - 1) + 1);
          return NULL;
        }
    }

  ck = (C / groups) * g.k[0] * g.k[1];
  {
    gint64 s5[4] = { N, groups, ck, oh * ow };
    gint64 sw[3] = { groups, O / groups, ck };
    gint64 so[4] = { N, O, oh, ow };

    if (groups == 1)
      {
        /* one filter matrix for every sample: w (O, ck) · cols[n] (ck, oh·ow) */
        gint64 s3[3] = { N, ck, oh * ow };
        gint64 s2[2] = { O, ck };

        if (!(cols = im2col_op (x, &g, oh, ow, error)) ||
            !(cols5 = gnn_tensor_view (cols, s3, 3, error)) ||
            !(w3 = gnn_tensor_reshape (weight, s2, 2, error)) ||
            !(prod = gnn_matmul_shared_left (w3, cols5, error)) ||
            !(out = gnn_tensor_reshape (prod, so, 4, error)))
          return NULL;
        return finish_conv (g_steal_pointer (&out), bias, O, batched, error);
      }
    if (!(cols = im2col_op (x, &g, oh, ow, error)) ||
        !(cols5 = gnn_tensor_view (cols, s5, 4, error)) ||
        !(w3 = gnn_tensor_reshape (weight, sw, 3, error)) ||
        !(prod = gnn_tensor_matmul (w3, cols5, error)) ||
        !(out = gnn_tensor_reshape (prod, so, 4, error)))
      return NULL;
  }
  return finish_conv (g_steal_pointer (&out), bias, O, batched, error);
}

/**
 * gnn_tensor_conv2d:
 * @input: the input, (N, C, H, W) or unbatched (C, H, W)
 * @weight: the filters, (out_channels, C / @groups, kH, kW)
 * @bias: (nullable): the bias, (out_channels), or %NULL
 * @stride: (array fixed-size=2): the stride along H and W, at least 1
 * @padding: (array fixed-size=2): the zero padding on both sides of H and W, at least 0
 * @dilation: (array fixed-size=2): the spacing of the kernel elements along H and W, at least 1
 * @groups: the number of blocked connections from input to output channels, dividing both
 *   C and out_channels
 * @error: return location for a #GError
 *
 * The 2-d convolution (cross-correlation) of `torch.nn.functional.conv2d`, through the
 * backend's im2col and gemm. Its backward gives the gradients of @input (col2im of Wᵀ·g),
 * @weight (g·colsᵀ) and @bias (Σ g).
 *
 * Returns: (transfer full): the output, (N, out_channels, OH, OW) or (out_channels, OH, OW),
 *   or %NULL with @error set
 */
GnnTensor *
gnn_tensor_conv2d (GnnTensor    *input,
                   GnnTensor    *weight,
                   GnnTensor    *bias,
                   const gint64 *stride,
                   const gint64 *padding,
                   const gint64 *dilation,
                   gint64        groups,
                   GError      **error)
{
  g_return_val_if_fail (stride != NULL && padding != NULL && dilation != NULL, NULL);
  return gnn_conv2d_internal ("conv2d", input, weight, bias, stride, padding, dilation, groups, FALSE, error);
}

/* A 1-d convolution's input (N, C, L) or (C, L) and weight (3-d) as the 2-d convolution's,
 * with a unit height: @x and @w are new references. @transposed: the weight is
 * (C, out_channels / groups, kW), else (out_channels, C / groups, kW). */
static gboolean
lift_conv1d (const char *name, GnnTensor *input, GnnTensor *weight, gint64 groups, gboolean transposed,
             GnnTensor **x, GnnTensor **w, GError **error)
{
  GnnTensorPrivate *px = gnn_tensor_priv (input), *pw = gnn_tensor_priv (weight);
  gint64 c;

  if (pw->ndim != 3)
    {
      g_autofree char *s = gnn_shape_to_string (pw->ndim, pw->shape);
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE, "%s: expected a 3-d weight %s, got shape %s", name,
                   transposed ? "(in_channels, out_channels / groups, kW)" : "(out_channels, in_channels / groups, kW)",
                   s);
      return FALSE;
    }
  c = transposed ? pw->shape[0] : pw->shape[1] * MAX (groups, 1);
  if ((px->ndim != 2 && px->ndim != 3) || px->shape[px->ndim - 2] != c)
    {
      g_autofree char *s = gnn_shape_to_string (px->ndim, px->shape);
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "%s: expected a 2-d (C, L) or 3-d (N, C, L) input with C = %" G_GINT64_FORMAT
                   " channels, got shape %s", name, c, s);
      return FALSE;
    }
  if (!(*x = gnn_tensor_unsqueeze (input, -2, error)))
    return FALSE;
  if (!(*w = gnn_tensor_unsqueeze (weight, -2, error)))
    {
      g_clear_object (x);
      return FALSE;
    }
  return TRUE;
}

/* conv1d as conv2d on (N, C, 1, L) with a (O, C/g, 1, k) kernel */
GnnTensor *
gnn_conv1d_internal (const char *name,
                     GnnTensor  *input,
                     GnnTensor  *weight,
                     GnnTensor  *bias,
                     gint64      stride,
                     gint64      padding,
                     gint64      dilation,
                     gint64      groups,
                     gboolean    same,
                     GError    **error)
{
  gint64 s2[2] = { 1, stride }, p2[2] = { 0, padding }, d2[2] = { 1, dilation };
  g_autoptr(GnnTensor) x = NULL, w = NULL, y = NULL;

  g_return_val_if_fail (GNN_IS_TENSOR (input) && GNN_IS_TENSOR (weight), NULL);
  if (!lift_conv1d (name, input, weight, groups, FALSE, &x, &w, error) ||
      !(y = gnn_conv2d_internal (name, x, w, bias, s2, p2, d2, groups, same, error)))
    return NULL;
  return gnn_tensor_squeeze_dim (y, -2, error);
}

/**
 * gnn_tensor_conv1d:
 * @input: the input, (N, C, L) or unbatched (C, L)
 * @weight: the filters, (out_channels, C / @groups, kW)
 * @bias: (nullable): the bias, (out_channels), or %NULL
 * @stride: the stride, at least 1
 * @padding: the zero padding on both sides, at least 0
 * @dilation: the spacing of the kernel elements, at least 1
 * @groups: the number of blocked connections from input to output channels
 * @error: return location for a #GError
 *
 * The 1-d convolution of `torch.nn.functional.conv1d`, computed as [method@Gnn.Tensor.conv2d]
 * on the input with a unit height.
 *
 * Returns: (transfer full): the output, (N, out_channels, OL) or (out_channels, OL), or %NULL
 *   with @error set
 */
GnnTensor *
gnn_tensor_conv1d (GnnTensor *input,
                   GnnTensor *weight,
                   GnnTensor *bias,
                   gint64     stride,
                   gint64     padding,
                   gint64     dilation,
                   gint64     groups,
                   GError   **error)
{
  return gnn_conv1d_internal ("conv1d", input, weight, bias, stride, padding, dilation, groups, FALSE, error);
}

/* ---- pooling ------------------------------------------------------------------------- */

typedef struct {
  ConvGeometry g;
  gboolean count_include_pad;
  gint64 divisor_override;
} PoolCtx;

/* PyTorch's pooling_output_shape */
static gint64
pool_output_size (gint64 in, gint64 k, gint64 pad, gint64 stride, gint64 dilation, gboolean ceil_mode)
{
  gint64 num = in + 2 * pad - dilation * (k - 1) - 1 + (ceil_mode ? stride - 1 : 0);
  gint64 out = (num >= 0 ? num / stride : -((-num + stride - 1) / stride)) + 1;

  if (ceil_mode && (out - 1) * stride >= in + pad)
    out--;
  return out;
}

/* Checks a pooling call and fills @g, @x (the 4-d input, a new reference), @oh, @ow */
static gboolean
pool_prepare (const char *name, GnnTensor *input, const gint64 *kernel_size, const gint64 *stride,
              const gint64 *padding, const gint64 *dilation, gboolean ceil_mode, ConvGeometry *g,
              GnnTensor **x, gint64 *oh, gint64 *ow, GError **error)
{
  GnnTensorPrivate *p = gnn_tensor_priv (input);

  if (!gnn_check_floating (name, input, error))
    return FALSE;
  if (p->ndim != 3 && p->ndim != 4)
    {
      g_autofree char *s = gnn_shape_to_string (p->ndim, p->shape);
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "%s: expected a 3-d (C, H, W) or 4-d (N, C, H, W) input, got shape %s", name, s);
      return FALSE;
    }
  for (guint a = 0; a < 2; a++)
    {
      g->k[a] = kernel_size[a];
      g->s[a] = stride ? stride[a] : kernel_size[a];
      g->p[a] = padding ? padding[a] : 0;
      g->d[a] = dilation ? dilation[a] : 1;
      if (g->k[a] < 1 || g->s[a] < 1 || g->d[a] < 1 || g->p[a] < 0 || g->k[a] > G_MAXINT32 ||
          g->s[a] > G_MAXINT32 || g->d[a] > G_MAXINT32)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                       "%s: kernel size, stride and dilation must lie in [1, 2^31), padding must be non-negative", name);
          return FALSE;
        }
      if (g->p[a] > g->k[a] / 2)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                       "%s: pad should be smaller than or equal to half of kernel size, but got padH = %"
                       G_GINT64_FORMAT ", padW = %" G_GINT64_FORMAT ", kH = %" G_GINT64_FORMAT ", kW = %" G_GINT64_FORMAT,
                       name, g->p[0], padding ? padding[1] : 0, g->k[0], kernel_size[1]);
          return FALSE;
        }
    }
  *oh = pool_output_size (p->shape[p->ndim - 2], g->k[0], g->p[0], g->s[0], g->d[0], ceil_mode);
  *ow = pool_output_size (p->shape[p->ndim - 1], g->k[1], g->p[1], g->s[1], g->d[1], ceil_mode);
  if (*oh < 1 || *ow < 1)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "%s: Given input size: (%" G_GINT64_FORMAT "x%" G_GINT64_FORMAT "x%" G_GINT64_FORMAT
                   "). Calculated output size: (%" G_GINT64_FORMAT "x%" G_GINT64_FORMAT "x%" G_GINT64_FORMAT
                   "). Output size is too small", name, p->shape[p->ndim - 3], p->shape[p->ndim - 2],
                   p->shape[p->ndim - 1], p->shape[p->ndim - 3], *oh, *ow);
      return FALSE;
    }
  *x = p->ndim == 4 ? g_object_ref (input) : gnn_tensor_unsqueeze (input, 0, error);
  return *x != NULL;
}

static gboolean
max_pool_backward (GnnNode *node, GnnTensor **go, GnnTensor **gi, GError **error)
{
  GnnTensor *indices;
  g_autoptr(GnnTensor) grad = NULL;
  GnnKernelTensor kg, ki, kout;
  GnnKernelArgs args = { 0 };

  if (go[0] == NULL || !NEEDS (0))
    return TRUE;
  if (!gnn_check_double_backward (node, go, error))
    return FALSE;
  if (!(indices = gnn_node_saved (node, 0, error)) ||
      !(grad = gnn_tensor_contiguous_as (go[0], gnn_tensor_priv (go[0])->dtype, error)) ||
      !(gi[0] = gnn_tensor_new_like (grad, gnn_tensor_priv (grad)->dtype, 4, node->in_shape[0], error)))
    return FALSE;
  kernel_4d (grad, &kg);
  kernel_4d (indices, &ki);
  kernel_4d (gi[0], &kout);
  args.op = GNN_BACKEND_OP_MAX_POOL2D_BACKWARD;
  args.out = &kout;
  args.in[0] = &kg;
  args.in[1] = &ki;
  args.n_in = 2;
  geometry_to_args (node->ctx, &args);
  return gnn_run_kernel (gi[0], &args, error);
}

/**
 * gnn_tensor_max_pool2d:
 * @input: the input, (N, C, H, W) or unbatched (C, H, W)
 * @kernel_size: (array fixed-size=2): the window's height and width, at least 1
 * @stride: (array fixed-size=2) (nullable): the stride along H and W, or %NULL for @kernel_size
 * @padding: (array fixed-size=2) (nullable): the implicit -∞ padding of H and W, at most half
 *   the kernel size, or %NULL for 0
 * @dilation: (array fixed-size=2) (nullable): the spacing of the window's elements, or %NULL for 1
 * @ceil_mode: whether the output size rounds up (PyTorch's `ceil_mode`)
 * @indices: (out) (optional) (transfer full): the index y · W + x of each maximum in its
 *   (H, W) plane, int64, shaped as the output
 * @error: return location for a #GError
 *
 * `torch.nn.functional.max_pool2d`: the maximum over each window, NaN propagating. Its
 * backward sends each gradient to the position of its maximum.
 *
 * Returns: (transfer full): the output, (N, C, OH, OW) or (C, OH, OW), or %NULL with @error set
 */
GnnTensor *
gnn_tensor_max_pool2d (GnnTensor    *input,
                       const gint64 *kernel_size,
                       const gint64 *stride,
                       const gint64 *padding,
                       const gint64 *dilation,
                       gboolean      ceil_mode,
                       GnnTensor   **indices,
                       GError      **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (input) && kernel_size != NULL, NULL);
  return gnn_max_pool2d_internal ("max_pool2d", input, kernel_size, stride, padding, dilation, ceil_mode,
                                  indices, error);
}

GnnTensor *
gnn_max_pool2d_internal (const char   *name,
                         GnnTensor    *input,
                         const gint64 *kernel_size,
                       const gint64 *stride,
                       const gint64 *padding,
                       const gint64 *dilation,
                       gboolean      ceil_mode,
                       GnnTensor   **indices,
                       GError      **error)
{
  ConvGeometry g;
  g_autoptr(GnnTensor) x = NULL, xc = NULL, out = NULL, idx = NULL;
  GnnTensorPrivate *px;
  gint64 oh, ow;
  GnnKernelTensor kin, kout, kidx;
  GnnKernelArgs args = { 0 };
  GnnNode *node;
  gboolean batched;

  g_return_val_if_fail (GNN_IS_TENSOR (input) && kernel_size != NULL, NULL);
  GNN_HALF_RETURN (f,
                   gnn_max_pool2d_internal (name, f[0], kernel_size, stride, padding, dilation, ceil_mode, indices, error),
                   error, input);

  batched = gnn_tensor_priv (input)->ndim == 4;
  if (!pool_prepare (name, input, kernel_size, stride, padding, dilation, ceil_mode, &g, &x, &oh, &ow, error))
    return NULL;
  px = gnn_tensor_priv (x);
  {
    gint64 shape[4] = { px->shape[0], px->shape[1], oh, ow };

    if (!(xc = gnn_tensor_contiguous_as (x, px->dtype, error)) ||
        !(out = gnn_tensor_new_like (xc, px->dtype, 4, shape, error)) ||
        !(idx = gnn_tensor_new_like (xc, GNN_DTYPE_INT64, 4, shape, error)))
      return NULL;
  }
  kernel_4d (xc, &kin);
  kernel_4d (out, &kout);
  kernel_4d (idx, &kidx);
  args.op = GNN_BACKEND_OP_MAX_POOL2D;
  args.out = &kout;
  args.out2 = &kidx;
  args.in[0] = &kin;
  args.n_in = 1;
  geometry_to_args (&g, &args);
  if (!gnn_run_kernel (out, &args, error))
    return NULL;
  if ((node = gnn_autograd_record ("MaxPool2DWithIndicesBackward0", max_pool_backward, &x, 1, &out, 1)))
    {
      gnn_node_save (node, idx);
      gnn_node_set_ctx (node, g_memdup2 (&g, sizeof g), g_free);
    }
  if (!batched)
    {
      g_autoptr(GnnTensor) o3 = gnn_tensor_squeeze_dim (out, 0, error);
      g_autoptr(GnnTensor) i3 = o3 ? gnn_tensor_squeeze_dim (idx, 0, error) : NULL;

      if (i3 == NULL)
        return NULL;
      g_set_object (&out, o3);
      g_set_object (&idx, i3);
    }
  if (indices)
    *indices = g_steal_pointer (&idx);
  return g_steal_pointer (&out);
}

static gboolean
run_avg_pool (GnnBackendOp op, GnnTensor *out, GnnTensor *in, const PoolCtx *c, GError **error)
{
  GnnKernelTensor kin, kout;
  GnnKernelArgs args = { 0 };

  kernel_4d (in, &kin);
  kernel_4d (out, &kout);
  args.op = op;
  args.out = &kout;
  args.in[0] = &kin;
  args.n_in = 1;
  geometry_to_args (&c->g, &args);
  args.params.window.count_include_pad = c->count_include_pad;
  args.params.window.divisor = (double) c->divisor_override;
  return gnn_run_kernel (out, &args, error);
}

static gboolean
avg_pool_backward (GnnNode *node, GnnTensor **go, GnnTensor **gi, GError **error)
{
  g_autoptr(GnnTensor) grad = NULL;

  if (go[0] == NULL || !NEEDS (0))
    return TRUE;
  if (!gnn_check_double_backward (node, go, error))
    return FALSE;
  if (!(grad = gnn_tensor_contiguous_as (go[0], gnn_tensor_priv (go[0])->dtype, error)) ||
      !(gi[0] = gnn_tensor_new_like (grad, gnn_tensor_priv (grad)->dtype, 4, node->in_shape[0], error)))
    return FALSE;
  return run_avg_pool (GNN_BACKEND_OP_AVG_POOL2D_BACKWARD, gi[0], grad, node->ctx, error);
}

/**
 * gnn_tensor_avg_pool2d:
 * @input: the input, (N, C, H, W) or unbatched (C, H, W)
 * @kernel_size: (array fixed-size=2): the window's height and width, at least 1
 * @stride: (array fixed-size=2) (nullable): the stride along H and W, or %NULL for @kernel_size
 * @padding: (array fixed-size=2) (nullable): the implicit zero padding of H and W, at most
 *   half the kernel size, or %NULL for 0
 * @ceil_mode: whether the output size rounds up (PyTorch's `ceil_mode`)
 * @count_include_pad: whether the padding counts in the divisor
 * @divisor_override: the divisor of every window when not 0 (negative too, as torch takes
 *   it); 0 for none
 * @error: return location for a #GError
 *
 * `torch.nn.functional.avg_pool2d`: the mean of each window, with PyTorch's divisor rules.
 *
 * Returns: (transfer full): the output, (N, C, OH, OW) or (C, OH, OW), or %NULL with @error set
 */
GnnTensor *
gnn_tensor_avg_pool2d (GnnTensor    *input,
                       const gint64 *kernel_size,
                       const gint64 *stride,
                       const gint64 *padding,
                       gboolean      ceil_mode,
                       gboolean      count_include_pad,
                       gint64        divisor_override,
                       GError      **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (input) && kernel_size != NULL, NULL);
  return gnn_avg_pool2d_internal ("avg_pool2d", input, kernel_size, stride, padding, ceil_mode,
                                  count_include_pad, divisor_override, error);
}

GnnTensor *
gnn_avg_pool2d_internal (const char   *name,
                         GnnTensor    *input,
                         const gint64 *kernel_size,
                       const gint64 *stride,
                       const gint64 *padding,
                       gboolean      ceil_mode,
                       gboolean      count_include_pad,
                       gint64        divisor_override,
                       GError      **error)
{
  PoolCtx c = { { { 0 } }, count_include_pad, divisor_override };
  g_autoptr(GnnTensor) x = NULL, xc = NULL, out = NULL;
  GnnTensorPrivate *px;
  gint64 oh, ow;
  GnnNode *node;
  gboolean batched;

  g_return_val_if_fail (GNN_IS_TENSOR (input) && kernel_size != NULL, NULL);
  GNN_HALF_RETURN (f,
                   gnn_avg_pool2d_internal (name, f[0], kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override, error),
                   error, input);

  batched = gnn_tensor_priv (input)->ndim == 4;
  if (!pool_prepare (name, input, kernel_size, stride, padding, NULL, ceil_mode, &c.g, &x, &oh, &ow, error))
    return NULL;
  px = gnn_tensor_priv (x);
  {
    gint64 shape[4] = { px->shape[0], px->shape[1], oh, ow };

    if (!(xc = gnn_tensor_contiguous_as (x, px->dtype, error)) ||
        !(out = gnn_tensor_new_like (xc, px->dtype, 4, shape, error)) ||
        !run_avg_pool (GNN_BACKEND_OP_AVG_POOL2D, out, xc, &c, error))
      return NULL;
  }
  if ((node = gnn_autograd_record ("AvgPool2DBackward0", avg_pool_backward, &x, 1, &out, 1)))
    gnn_node_set_ctx (node, g_memdup2 (&c, sizeof c), g_free);
  if (!batched)
    return gnn_tensor_squeeze_dim (out, 0, error);
  return g_steal_pointer (&out);
}

/* ---- adaptive average pooling -------------------------------------------------------- */

static gboolean
run_adaptive (GnnBackendOp op, GnnTensor *out, GnnTensor *in, GError **error)
{
  GnnKernelTensor kin, kout;
  GnnKernelArgs args = { 0 };

  /* an output size of 0 (torch gives an empty tensor) or an empty batch: nothing to compute,
   * and the gradient of an empty output is zero */
  if (gnn_tensor_get_numel (out) == 0)
    return TRUE;
  if (gnn_tensor_get_numel (in) == 0)
    return gnn_tensor_fill_kernel (out, 0.0, error);
  kernel_4d (in, &kin);
  kernel_4d (out, &kout);
  args.op = op;
  args.out = &kout;
  args.in[0] = &kin;
  args.n_in = 1;
  return gnn_run_kernel (out, &args, error);
}

static gboolean
adaptive_avg_pool_backward (GnnNode *node, GnnTensor **go, GnnTensor **gi, GError **error)
{
  g_autoptr(GnnTensor) grad = NULL;

  GnnTensorPrivate *pg;

  if (go[0] == NULL || !NEEDS (0))
    return TRUE;
  if (!gnn_check_double_backward (node, go, error))
    return FALSE;
  pg = gnn_tensor_priv (go[0]);
  for (guint d = 1; d < pg->ndim; d++)
    if (pg->shape[d] == 0)
      {
        /* torch's backward refuses an output of size 0 (the forward gives it) */
        g_autofree char *s = gnn_shape_to_string (pg->ndim, pg->shape);
        g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                     "adaptive_avg_pool2d_backward(): Expected grad_output to have non-zero size for non-batch "
                     "dimensions, but grad_output has sizes %s with dimension %u being empty", s, d);
        return FALSE;
      }
  if (!(grad = gnn_tensor_contiguous_as (go[0], pg->dtype, error)) ||
      !(gi[0] = gnn_tensor_new_like (grad, gnn_tensor_priv (grad)->dtype, 4, node->in_shape[0], error)))
    return FALSE;
  return run_adaptive (GNN_BACKEND_OP_ADAPTIVE_AVG_POOL2D_BACKWARD, gi[0], grad, error);
}

GnnTensor *
gnn_adaptive_avg_pool2d_internal (const char   *name,
                                  GnnTensor    *input,
                                  const gint64 *output_size,
                                  GError      **error)
{
  GnnTensorPrivate *p = gnn_tensor_priv (input);
  g_autoptr(GnnTensor) x = NULL, xc = NULL, out = NULL;
  gint64 shape[4];
  gboolean batched = p->ndim == 4;

  GNN_HALF_RETURN (f, gnn_adaptive_avg_pool2d_internal (name, f[0], output_size, error), error, input);

  if (!gnn_check_floating (name, input, error))
    return NULL;
  if ((p->ndim != 3 && p->ndim != 4) || p->shape[p->ndim - 1] == 0 || p->shape[p->ndim - 2] == 0)
    {
      g_autofree char *s = gnn_shape_to_string (p->ndim, p->shape);
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "%s: expected a 3-d (C, H, W) or 4-d (N, C, H, W) input with non-zero H and W, got shape %s",
                   name, s);
      return NULL;
    }
  if (!(x = batched ? g_object_ref (input) : gnn_tensor_unsqueeze (input, 0, error)))
    return NULL;
  p = gnn_tensor_priv (x);
  shape[0] = p->shape[0];
  shape[1] = p->shape[1];
  shape[2] = output_size[0] < 0 ? p->shape[2] : output_size[0];
  shape[3] = output_size[1] < 0 ? p->shape[3] : output_size[1];
  if (!(xc = gnn_tensor_contiguous_as (x, p->dtype, error)) ||
      !(out = gnn_tensor_new_like (xc, p->dtype, 4, shape, error)) ||
      !run_adaptive (GNN_BACKEND_OP_ADAPTIVE_AVG_POOL2D, out, xc, error))
    return NULL;
  gnn_autograd_record ("AdaptiveAvgPool2DBackward0", adaptive_avg_pool_backward, &x, 1, &out, 1);
  if (!batched)
    return gnn_tensor_squeeze_dim (out, 0, error);
  return g_steal_pointer (&out);
}

/**
 * gnn_tensor_adaptive_avg_pool2d:
 * @input: the input, (N, C, H, W) or unbatched (C, H, W)
 * @output_size: (array fixed-size=2): the output's height and width; a negative value keeps
 *   the input's size (PyTorch's None)
 * @error: return location for a #GError
 *
 * `torch.nn.functional.adaptive_avg_pool2d`: output element (oy, ox) is the mean over rows
 * [⌊oy·H/OH⌋, ⌈(oy+1)·H/OH⌉) and the columns alike.
 *
 * Returns: (transfer full): the output, (N, C, OH, OW) or (C, OH, OW), or %NULL with @error set
 */
GnnTensor *
gnn_tensor_adaptive_avg_pool2d (GnnTensor    *input,
                                const gint64 *output_size,
                                GError      **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (input) && output_size != NULL, NULL);
  return gnn_adaptive_avg_pool2d_internal ("adaptive_avg_pool2d", input, output_size, error);
}

/* ---- transposed convolution ------------------------------------------------------------ */

static gboolean
col2im_backward (GnnNode *node, GnnTensor **go, GnnTensor **gi, GError **error)
{
  if (go[0] == NULL || !NEEDS (0))
    return TRUE;
  if (gnn_is_grad_enabled ())
    gi[0] = im2col_op (go[0], node->ctx, node->in_shape[0][2], node->in_shape[0][3], error);
  else
    gi[0] = run_im2col_col2im (GNN_BACKEND_OP_IM2COL, go[0], node->in_shape[0], node->ctx, error);
  return gi[0] != NULL;
}

/* col2im with autograd: cols (N, C·kh·kw, h, w) -> (N, C, oh, ow) */
static GnnTensor *
col2im_op (GnnTensor *cols, const ConvGeometry *g, gint64 c, gint64 oh, gint64 ow, GError **error)
{
  GnnTensorPrivate *p = gnn_tensor_priv (cols);
  gint64 shape[4] = { p->shape[0], c, oh, ow };
  GnnTensor *out = run_im2col_col2im (GNN_BACKEND_OP_COL2IM, cols, shape, g, error);
  GnnNode *node;

  if (out && (node = gnn_autograd_record ("Col2ImBackward0", col2im_backward, &cols, 1, &out, 1)))
    gnn_node_set_ctx (node, g_memdup2 (g, sizeof *g), g_free);
  return out;
}

GnnTensor *
gnn_conv_transpose2d_internal (const char   *name,
                               GnnTensor    *input,
                               GnnTensor    *weight,
                               GnnTensor    *bias,
                               const gint64 *stride,
                               const gint64 *padding,
                               const gint64 *output_padding,
                               gint64        groups,
                               const gint64 *dilation,
                               GError      **error)
{
  GnnTensorPrivate *px, *pw;
  ConvGeometry g;
  gint64 N, C, H, W, O, oh, ow, K;
  g_autoptr(GnnTensor) x = NULL, x4 = NULL, w3 = NULL, wt = NULL, prod = NULL, cols = NULL, out = NULL;
  gboolean batched;

  g_return_val_if_fail (GNN_IS_TENSOR (input) && GNN_IS_TENSOR (weight), NULL);
  g_return_val_if_fail (bias == NULL || GNN_IS_TENSOR (bias), NULL);
  GNN_AUTOCAST_RETURN (GNN_AUTOCAST_OP_CONV_TRANSPOSE, c,
                       gnn_conv_transpose2d_internal (name, c[0], c[1], c[2], stride, padding, output_padding, groups, dilation, error),
                       error, input, weight, bias);
  GNN_HALF_RETURN (f,
                   gnn_conv_transpose2d_internal (name, f[0], f[1], f[2], stride, padding, output_padding, groups, dilation, error),
                   error, input, weight, bias);

  px = gnn_tensor_priv (input);
  pw = gnn_tensor_priv (weight);
  if (!gnn_check_floating (name, input, error) || !gnn_check_floating (name, weight, error) ||
      !gnn_check_same_device (name, input, weight, error) ||
      (bias && (!gnn_check_floating (name, bias, error) || !gnn_check_same_device (name, input, bias, error))))
    return NULL;
  if (px->dtype != pw->dtype || (bias && gnn_tensor_priv (bias)->dtype != px->dtype))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE,
                   "%s: Input type (%s) and weight type (%s)%s should be the same", name,
                   gnn_dtype_get_name (px->dtype), gnn_dtype_get_name (pw->dtype),
                   bias ? " and bias type" : "");
      return NULL;
    }
  for (guint a = 0; a < 2; a++)
    if (stride[a] < 1 || stride[a] > G_MAXINT32 || dilation[a] < 1 || dilation[a] > G_MAXINT32 ||
        padding[a] < 0 || padding[a] > G_MAXINT32 || output_padding[a] < 0 || groups < 1 ||
        (output_padding[a] >= stride[a] && output_padding[a] >= dilation[a]))
      {
        g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                     "%s: groups, stride and dilation must be positive, padding non-negative, and output "
                     "padding must be smaller than either stride or dilation", name);
        return NULL;
      }
  if (pw->ndim != 4 || pw->shape[0] % groups != 0 || pw->shape[2] > G_MAXINT32 || pw->shape[3] > G_MAXINT32)
    {
      g_autofree char *s = gnn_shape_to_string (pw->ndim, pw->shape);
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "%s: expected a 4-d weight (in_channels, out_channels / groups, kH, kW) with in_channels "
                   "divisible by groups=%" G_GINT64_FORMAT ", got shape %s", name, groups, s);
      return NULL;
    }
  batched = px->ndim == 4;
  if ((px->ndim != 3 && px->ndim != 4) || px->shape[px->ndim - 3] != pw->shape[0])
    {
      g_autofree char *s = gnn_shape_to_string (px->ndim, px->shape);
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "%s: expected a 3-d (C, H, W) or 4-d (N, C, H, W) input with C = %" G_GINT64_FORMAT
                   " channels, got shape %s", name, pw->shape[0], s);
      return NULL;
    }
  O = pw->shape[1] * groups;
  if (bias && (gnn_tensor_priv (bias)->ndim != 1 || gnn_tensor_priv (bias)->shape[0] != O))
    {
      GnnTensorPrivate *pb = gnn_tensor_priv (bias);
      g_autofree char *s = gnn_shape_to_string (pb->ndim, pb->shape);
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "%s: expected a bias of shape (%" G_GINT64_FORMAT "), got shape %s", name, O, s);
      return NULL;
    }
  x = batched ? g_object_ref (input) : gnn_tensor_unsqueeze (input, 0, error);
  if (x == NULL)
    return NULL;
  px = gnn_tensor_priv (x);
  N = px->shape[0]; C = px->shape[1]; H = px->shape[2]; W = px->shape[3];
  for (guint a = 0; a < 2; a++)
    {
      g.k[a] = pw->shape[2 + a];
      g.s[a] = stride[a];
      g.p[a] = padding[a];
      g.d[a] = dilation[a];
    }
  oh = (H - 1) * g.s[0] - 2 * g.p[0] + g.d[0] * (g.k[0] - 1) + output_padding[0] + 1;
  ow = (W - 1) * g.s[1] - 2 * g.p[1] + g.d[1] * (g.k[1] - 1) + output_padding[1] + 1;
  if (oh < 1 || ow < 1)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "%s: the output size (%" G_GINT64_FORMAT " x %" G_GINT64_FORMAT ") is too small for input "
                   "size (%" G_GINT64_FORMAT " x %" G_GINT64_FORMAT ")", name, oh, ow, H, W);
      return NULL;
    }
  K = (O / groups) * g.k[0] * g.k[1];
  {
    gint64 sx[4] = { N, groups, C / groups, H * W };
    gint64 sw[3] = { groups, C / groups, K };
    gint64 sc[4] = { N, O * g.k[0] * g.k[1], H, W };

    /* cols (N, G, K, HW) = Wᵀ (G, K, C/G) · x (N, G, C/G, HW), then col2im */
    if (!(x4 = gnn_tensor_reshape (x, sx, 4, error)) ||
        !(w3 = gnn_tensor_reshape (weight, sw, 3, error)) ||
        !(wt = gnn_tensor_transpose (w3, 1, 2, error)) ||
        !(prod = gnn_tensor_matmul (wt, x4, error)) ||
        !(cols = gnn_tensor_reshape (prod, sc, 4, error)) ||
        !(out = col2im_op (cols, &g, O, oh, ow, error)))
      return NULL;
  }
  return finish_conv (g_steal_pointer (&out), bias, O, batched, error);
}

/**
 * gnn_tensor_conv_transpose2d:
 * @input: the input, (N, C_in, H, W) or unbatched (C_in, H, W)
 * @weight: the filters, (C_in, out_channels / @groups, kH, kW)
 * @bias: (nullable): the bias, (out_channels), or %NULL
 * @stride: (array fixed-size=2): the stride along H and W, at least 1
 * @padding: (array fixed-size=2): the implicit padding removed from both sides, at least 0
 * @output_padding: (array fixed-size=2): the size added to one side of the output, smaller
 *   than the stride or the dilation
 * @groups: the number of blocked connections, dividing C_in and out_channels
 * @dilation: (array fixed-size=2): the spacing of the kernel elements, at least 1
 * @error: return location for a #GError
 *
 * The transposed 2-d convolution of `torch.nn.functional.conv_transpose2d` (the gradient of
 * conv2d with respect to its input), through the backend's gemm and col2im; its backward goes
 * through im2col. The output is (N, out_channels, OH, OW) with
 * OH = (H − 1)·stride − 2·padding + dilation·(kH − 1) + output_padding + 1, and OW alike.
 *
 * Returns: (transfer full): the output, or %NULL with @error set
 */
GnnTensor *
gnn_tensor_conv_transpose2d (GnnTensor    *input,
                             GnnTensor    *weight,
                             GnnTensor    *bias,
                             const gint64 *stride,
                             const gint64 *padding,
                             const gint64 *output_padding,
                             gint64        groups,
                             const gint64 *dilation,
                             GError      **error)
{
  g_return_val_if_fail (stride != NULL && padding != NULL && output_padding != NULL && dilation != NULL, NULL);
  return gnn_conv_transpose2d_internal ("conv_transpose2d", input, weight, bias, stride, padding, output_padding,
                                        groups, dilation, error);
}

/* ---- 1-d forms: the 2-d kernels on a unit height ---------------------------------------- */

GnnTensor *
gnn_conv_transpose1d_internal (const char *name,
                               GnnTensor  *input,
                               GnnTensor  *weight,
                               GnnTensor  *bias,
                               gint64      stride,
                               gint64      padding,
                               gint64      output_padding,
                               gint64      groups,
                               gint64      dilation,
                               GError    **error)
{
  gint64 s2[2] = { 1, stride }, p2[2] = { 0, padding }, o2[2] = { 0, output_padding }, d2[2] = { 1, dilation };
  g_autoptr(GnnTensor) x = NULL, w = NULL, y = NULL;

  g_return_val_if_fail (GNN_IS_TENSOR (input) && GNN_IS_TENSOR (weight), NULL);
  if (!lift_conv1d (name, input, weight, groups, TRUE, &x, &w, error) ||
      !(y = gnn_conv_transpose2d_internal (name, x, w, bias, s2, p2, o2, groups, d2, error)))
    return NULL;
  return gnn_tensor_squeeze_dim (y, -2, error);
}

/**
 * gnn_tensor_conv_transpose1d:
 * @input: the input, (N, C_in, L) or unbatched (C_in, L)
 * @weight: the filters, (C_in, out_channels / @groups, kW)
 * @bias: (nullable): the bias, (out_channels), or %NULL
 * @stride: the stride, at least 1
 * @padding: the implicit padding removed from both sides, at least 0
 * @output_padding: the size added to one side of the output, smaller than the stride or
 *   the dilation
 * @groups: the number of blocked connections, dividing C_in and out_channels
 * @dilation: the spacing of the kernel elements, at least 1
 * @error: return location for a #GError
 *
 * The transposed 1-d convolution of `torch.nn.functional.conv_transpose1d`, computed as
 * [method@Gnn.Tensor.conv_transpose2d] on the input with a unit height. The output length is
 * (L − 1)·stride − 2·padding + dilation·(kW − 1) + output_padding + 1.
 *
 * Returns: (transfer full): the output, (N, out_channels, OL) or (out_channels, OL), or %NULL
 *   with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_conv_transpose1d (GnnTensor *input,
                             GnnTensor *weight,
                             GnnTensor *bias,
                             gint64     stride,
                             gint64     padding,
                             gint64     output_padding,
                             gint64     groups,
                             gint64     dilation,
                             GError   **error)
{
  return gnn_conv_transpose1d_internal ("conv_transpose1d", input, weight, bias, stride, padding, output_padding,
                                        groups, dilation, error);
}

/* A pooling input (N, C, L) or (C, L) as (N, C, 1, L) or (C, 1, L), a new reference, after
 * torch's 1-d checks of the rank and (with @padding non-negative) of the padding */
static GnnTensor *
lift_pool1d (const char *name, GnnTensor *input, gint64 kernel_size, gint64 padding, GError **error)
{
  GnnTensorPrivate *p = gnn_tensor_priv (input);

  if (p->ndim != 2 && p->ndim != 3)
    {
      g_autofree char *s = gnn_shape_to_string (p->ndim, p->shape);
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "%s: expected a 2-d (C, L) or 3-d (N, C, L) input, got shape %s", name, s);
      return NULL;
    }
  if (padding > 0 && kernel_size > 0 && padding > kernel_size / 2)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "%s: pad should be at most half of kernel size, but got pad=%" G_GINT64_FORMAT
                   " and kernel_size=%" G_GINT64_FORMAT, name, padding, kernel_size);
      return NULL;
    }
  return gnn_tensor_unsqueeze (input, -2, error);
}

GnnTensor *
gnn_max_pool1d_internal (const char *name,
                         GnnTensor  *input,
                         gint64      kernel_size,
                         gint64      stride,
                         gint64      padding,
                         gint64      dilation,
                         gboolean    ceil_mode,
                         GnnTensor **indices,
                         GError    **error)
{
  gint64 k2[2] = { 1, kernel_size }, s2[2] = { 1, stride }, p2[2] = { 0, padding }, d2[2] = { 1, dilation };
  g_autoptr(GnnTensor) x = NULL, y = NULL, idx = NULL, out = NULL;

  g_return_val_if_fail (GNN_IS_TENSOR (input), NULL);
  if (!(x = lift_pool1d (name, input, kernel_size, padding, error)) ||
      !(y = gnn_max_pool2d_internal (name, x, k2, s2, p2, d2, ceil_mode, indices ? &idx : NULL, error)) ||
      !(out = gnn_tensor_squeeze_dim (y, -2, error)))
    return NULL;
  if (indices && !(*indices = gnn_tensor_squeeze_dim (idx, -2, error)))
    return NULL;
  return g_steal_pointer (&out);
}

/**
 * gnn_tensor_max_pool1d:
 * @input: the input, (N, C, L) or unbatched (C, L)
 * @kernel_size: the window's length, at least 1
 * @stride: the stride, at least 1, or 0 for @kernel_size (PyTorch's None)
 * @padding: the implicit -∞ padding on both sides, at most half the kernel size
 * @dilation: the spacing of the window's elements, at least 1
 * @ceil_mode: whether the output size rounds up (PyTorch's `ceil_mode`)
 * @indices: (out) (optional) (transfer full): the position along L of each maximum, int64,
 *   shaped as the output
 * @error: return location for a #GError
 *
 * `torch.nn.functional.max_pool1d`: the maximum over each window, NaN propagating, computed
 * as [method@Gnn.Tensor.max_pool2d] on the input with a unit height.
 *
 * Returns: (transfer full): the output, (N, C, OL) or (C, OL), or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_max_pool1d (GnnTensor  *input,
                       gint64      kernel_size,
                       gint64      stride,
                       gint64      padding,
                       gint64      dilation,
                       gboolean    ceil_mode,
                       GnnTensor **indices,
                       GError    **error)
{
  return gnn_max_pool1d_internal ("max_pool1d", input, kernel_size, stride ? stride : kernel_size, padding,
                                  dilation, ceil_mode, indices, error);
}

GnnTensor *
gnn_avg_pool1d_internal (const char *name,
                         GnnTensor  *input,
                         gint64      kernel_size,
                         gint64      stride,
                         gint64      padding,
                         gboolean    ceil_mode,
                         gboolean    count_include_pad,
                         GError    **error)
{
  gint64 k2[2] = { 1, kernel_size }, s2[2] = { 1, stride }, p2[2] = { 0, padding };
  g_autoptr(GnnTensor) x = NULL, y = NULL;

  g_return_val_if_fail (GNN_IS_TENSOR (input), NULL);
  if (!(x = lift_pool1d (name, input, kernel_size, padding, error)) ||
      !(y = gnn_avg_pool2d_internal (name, x, k2, s2, p2, ceil_mode, count_include_pad, 0, error)))
    return NULL;
  return gnn_tensor_squeeze_dim (y, -2, error);
}

/**
 * gnn_tensor_avg_pool1d:
 * @input: the input, (N, C, L) or unbatched (C, L)
 * @kernel_size: the window's length, at least 1
 * @stride: the stride, at least 1, or 0 for @kernel_size (PyTorch's None)
 * @padding: the implicit zero padding on both sides, at most half the kernel size
 * @ceil_mode: whether the output size rounds up (PyTorch's `ceil_mode`)
 * @count_include_pad: whether the padding counts in the divisor
 * @error: return location for a #GError
 *
 * `torch.nn.functional.avg_pool1d`: the mean of each window, computed as
 * [method@Gnn.Tensor.avg_pool2d] on the input with a unit height.
 *
 * Returns: (transfer full): the output, (N, C, OL) or (C, OL), or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_avg_pool1d (GnnTensor *input,
                       gint64     kernel_size,
                       gint64     stride,
                       gint64     padding,
                       gboolean   ceil_mode,
                       gboolean   count_include_pad,
                       GError   **error)
{
  return gnn_avg_pool1d_internal ("avg_pool1d", input, kernel_size, stride ? stride : kernel_size, padding,
                                  ceil_mode, count_include_pad, error);
}

GnnTensor *
gnn_adaptive_avg_pool1d_internal (const char *name,
                                  GnnTensor  *input,
                                  gint64      output_size,
                                  GError    **error)
{
  gint64 size2[2] = { 1, output_size };
  g_autoptr(GnnTensor) x = NULL, y = NULL;

  g_return_val_if_fail (GNN_IS_TENSOR (input), NULL);
  if (output_size < 0)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "%s: output_size must be non-negative, got %" G_GINT64_FORMAT, name, output_size);
      return NULL;
    }
  if (!(x = lift_pool1d (name, input, 0, 0, error)) ||
      !(y = gnn_adaptive_avg_pool2d_internal (name, x, size2, error)))
    return NULL;
  return gnn_tensor_squeeze_dim (y, -2, error);
}

/**
 * gnn_tensor_adaptive_avg_pool1d:
 * @input: the input, (N, C, L) or unbatched (C, L)
 * @output_size: the output's length, at least 0
 * @error: return location for a #GError
 *
 * `torch.nn.functional.adaptive_avg_pool1d`: output element o is the mean over
 * [⌊o·L/OL⌋, ⌈(o+1)·L/OL⌉), computed as [method@Gnn.Tensor.adaptive_avg_pool2d] on the input
 * with a unit height.
 *
 * Returns: (transfer full): the output, (N, C, OL) or (C, OL), or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_adaptive_avg_pool1d (GnnTensor *input,
                                gint64     output_size,
                                GError   **error)
{
  return gnn_adaptive_avg_pool1d_internal ("adaptive_avg_pool1d", input, output_size, error);
}

/* ---- power-average pooling ------------------------------------------------------------- */

/* torch's lp_pool1d / lp_pool2d, composed: f = avg_pool (x^p) over the window (no padding),
 * then (sign (f) · relu (|f|) · window size)^(1/p). @nd is 1 or 2; @stride NULL is the kernel. */
GnnTensor *
gnn_lp_pool_internal (const char   *name,
                      GnnTensor    *input,
                      double        norm_type,
                      guint         nd,
                      const gint64 *kernel_size,
                      const gint64 *stride,
                      gboolean      ceil_mode,
                      GError      **error)
{
  g_autoptr(GnnTensor) xp = NULL, f = NULL, sg = NULL, ab = NULL, rl = NULL, prod = NULL, scaled = NULL;
  gint64 zero[2] = { 0, 0 }, window = kernel_size[0] * (nd == 2 ? kernel_size[1] : 1);

  g_return_val_if_fail (GNN_IS_TENSOR (input) && kernel_size != NULL, NULL);
  if (!gnn_check_floating (name, input, error))
    return NULL;
  if (norm_type == 0)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT, "%s: norm_type must not be 0", name);
      return NULL;
    }
  if (!(xp = gnn_tensor_pow_scalar (input, norm_type, error)))
    return NULL;
  if (nd == 1)
    f = gnn_avg_pool1d_internal (name, xp, kernel_size[0], stride ? stride[0] : kernel_size[0], 0, ceil_mode, TRUE,
                                 error);
  else
    f = gnn_avg_pool2d_internal (name, xp, kernel_size, stride, zero, ceil_mode, TRUE, 0, error);
  if (f == NULL ||
      !(sg = gnn_tensor_sign (f, error)) ||
      !(ab = gnn_tensor_abs (f, error)) ||
      !(rl = gnn_tensor_relu (ab, error)) ||
      !(prod = gnn_tensor_mul (sg, rl, error)) ||
      !(scaled = gnn_tensor_mul_scalar (prod, (double) window, error)))
    return NULL;
  return gnn_tensor_pow_scalar (scaled, 1.0 / norm_type, error);
}

/**
 * gnn_tensor_lp_pool1d:
 * @input: the input, (N, C, L) or unbatched (C, L)
 * @norm_type: the power p, not 0
 * @kernel_size: the window's length, at least 1
 * @stride: the stride, at least 1, or 0 for @kernel_size (PyTorch's None)
 * @ceil_mode: whether the output size rounds up (PyTorch's `ceil_mode`)
 * @error: return location for a #GError
 *
 * `torch.nn.functional.lp_pool1d`: the p-norm of each window, (Σ x^p)^(1/p), computed as
 * torch computes it from [method@Gnn.Tensor.avg_pool1d] of x^p (no padding).
 *
 * Returns: (transfer full): the output, (N, C, OL) or (C, OL), or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_lp_pool1d (GnnTensor *input,
                      double     norm_type,
                      gint64     kernel_size,
                      gint64     stride,
                      gboolean   ceil_mode,
                      GError   **error)
{
  return gnn_lp_pool_internal ("lp_pool1d", input, norm_type, 1, &kernel_size, stride ? &stride : NULL,
                               ceil_mode, error);
}

/**
 * gnn_tensor_lp_pool2d:
 * @input: the input, (N, C, H, W) or unbatched (C, H, W)
 * @norm_type: the power p, not 0
 * @kernel_size: (array fixed-size=2): the window's height and width, at least 1
 * @stride: (array fixed-size=2) (nullable): the stride along H and W, or %NULL for @kernel_size
 * @ceil_mode: whether the output size rounds up (PyTorch's `ceil_mode`)
 * @error: return location for a #GError
 *
 * `torch.nn.functional.lp_pool2d`: the p-norm of each window, (Σ x^p)^(1/p), computed as
 * torch computes it from [method@Gnn.Tensor.avg_pool2d] of x^p (no padding).
 *
 * Returns: (transfer full): the output, (N, C, OH, OW) or (C, OH, OW), or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_lp_pool2d (GnnTensor    *input,
                      double        norm_type,
                      const gint64 *kernel_size,
                      const gint64 *stride,
                      gboolean      ceil_mode,
                      GError      **error)
{
  g_return_val_if_fail (kernel_size != NULL, NULL);
  return gnn_lp_pool_internal ("lp_pool2d", input, norm_type, 2, kernel_size, stride, ceil_mode, error);
}

/* ---- 3-d forms: the vol2col / col2vol and 3-d pooling kernels ---------------------------
 *
 * conv3d (x, w) = w (G, O/G, C/G·kd·kh·kw) · vol2col (x) (N, G, C/G·kd·kh·kw, OD·OH·OW), as conv2d
 * with a depth; its transpose goes through col2vol. The kernels take params.volume, triples in
 * (D, H, W) order. A backend that declares no 3-d kernel (CUDA today) runs them on the CPU
 * backend, through a copy to the host and back. */

typedef struct {
  gint64 k[3], s[3], p[3], d[3];
  gboolean count_include_pad;
  gint64 divisor_override;
} VolumeGeometry;

static void
volume_to_args (const VolumeGeometry *g, GnnKernelArgs *args)
{
  GnnKernelVolume *v = &args->params.volume;

  for (guint a = 0; a < 3; a++)
    {
      v->kernel[a] = g->k[a];
      v->stride[a] = g->s[a];
      v->padding[a] = g->p[a];
      v->dilation[a] = g->d[a];
    }
  v->divisor = (double) g->divisor_override;
  v->count_include_pad = g->count_include_pad;
}

/* @t, contiguous, as a kernel operand */
static void
kernel_contiguous (GnnTensor *t, GnnKernelTensor *kt)
{
  GnnTensorPrivate *p = gnn_tensor_priv (t);

  kt->data = gnn_tensor_data_ptr (p);
  kt->dtype = p->dtype;
  kt->ndim = p->ndim;
  memcpy (kt->shape, p->shape, sizeof (gint64) * p->ndim);
  gnn_contiguous_strides (p->ndim, kt->shape, kt->strides);
}

/* Runs the 3-d kernel @op on @in0 (and @in1: MAX_POOL3D_BACKWARD's indices), no autograd: a new
 * contiguous 5-d result of shape @out_shape and @in0's dtype, and for MAX_POOL3D its int64
 * indices in @out2. The operands need not be contiguous. */
static GnnTensor *
run_volume (GnnBackendOp op, GnnTensor *in0, GnnTensor *in1, const gint64 *out_shape, const VolumeGeometry *g,
            GnnTensor **out2, GError **error)
{
  GnnTensorPrivate *p = gnn_tensor_priv (in0);
  g_autoptr(GnnTensor) a = NULL, b = NULL, out = NULL, idx = NULL;
  GnnKernelTensor ka, kb, kout, kidx;
  GnnKernelArgs args = { 0 };

  if (!gnn_backend_supports_op (p->storage->entry->backend, op, p->dtype) &&
      !g_str_equal (gnn_tensor_get_device (in0), "cpu"))
    {
      const char *device = gnn_tensor_get_device (in0);
      gboolean prev = gnn_set_grad_enabled (FALSE);
      g_autoptr(GnnTensor) ha = gnn_tensor_to_device (in0, "cpu", error);
      g_autoptr(GnnTensor) hb = ha && in1 ? gnn_tensor_to_device (in1, "cpu", error) : NULL;
      g_autoptr(GnnTensor) hout = NULL, hidx = NULL;
      GnnTensor *result = NULL;

      if (ha && (in1 == NULL || hb) && (hout = run_volume (op, ha, hb, out_shape, g, out2 ? &hidx : NULL, error)))
        {
          result = gnn_tensor_to_device (hout, device, error);
          if (result && out2 && !(*out2 = gnn_tensor_to_device (hidx, device, error)))
            g_clear_object (&result);
        }
      gnn_set_grad_enabled (prev);
      return result;
    }
  if (!(a = gnn_tensor_contiguous_as (in0, p->dtype, error)) ||
      (in1 && !(b = gnn_tensor_contiguous_as (in1, gnn_tensor_priv (in1)->dtype, error))) ||
      !(out = gnn_tensor_new_like (a, p->dtype, 5, out_shape, error)) ||
      (out2 && !(idx = gnn_tensor_new_like (a, GNN_DTYPE_INT64, 5, out_shape, error))))
    return NULL;
  /* an empty output: nothing to compute; an empty input (an empty gradient): zeros */
  if (gnn_tensor_get_numel (out) > 0)
    {
      if (gnn_tensor_get_numel (a) == 0)
        {
          if (!gnn_tensor_fill_kernel (out, 0.0, error) || (idx && !gnn_tensor_fill_kernel (idx, 0.0, error)))
            return NULL;
        }
      else
        {
          kernel_contiguous (a, &ka);
          kernel_contiguous (out, &kout);
          args.op = op;
          args.out = &kout;
          args.in[0] = &ka;
          args.n_in = 1;
          if (b)
            {
              kernel_contiguous (b, &kb);
              args.in[1] = &kb;
              args.n_in = 2;
            }
          if (idx)
            {
              kernel_contiguous (idx, &kidx);
              args.out2 = &kidx;
            }
          if (g)
            volume_to_args (g, &args);
          if (!gnn_run_kernel (out, &args, error))
            return NULL;
        }
    }
  if (out2)
    *out2 = g_steal_pointer (&idx);
  return g_steal_pointer (&out);
}

static GnnTensor *col2vol_op (GnnTensor *cols, const VolumeGeometry *g, const gint64 *image_shape, GError **error);
static GnnTensor *vol2col_op (GnnTensor *x, const VolumeGeometry *g, const gint64 *out_spatial, GError **error);

/* vol2col and col2vol are each other's adjoints, as im2col and col2im */
static gboolean
vol2col_backward (GnnNode *node, GnnTensor **go, GnnTensor **gi, GError **error)
{
  if (go[0] == NULL || !NEEDS (0))
    return TRUE;
  if (gnn_is_grad_enabled ())
    gi[0] = col2vol_op (go[0], node->ctx, node->in_shape[0], error);
  else
    gi[0] = run_volume (GNN_BACKEND_OP_COL2VOL, go[0], NULL, node->in_shape[0], node->ctx, NULL, error);
  return gi[0] != NULL;
}

static gboolean
col2vol_backward (GnnNode *node, GnnTensor **go, GnnTensor **gi, GError **error)
{
  if (go[0] == NULL || !NEEDS (0))
    return TRUE;
  if (gnn_is_grad_enabled ())
    gi[0] = vol2col_op (go[0], node->ctx, node->in_shape[0] + 2, error);
  else
    gi[0] = run_volume (GNN_BACKEND_OP_VOL2COL, go[0], NULL, node->in_shape[0], node->ctx, NULL, error);
  return gi[0] != NULL;
}

/* vol2col with autograd: x (N, C, D, H, W) -> (N, C·kd·kh·kw, OD, OH, OW) */
static GnnTensor *
vol2col_op (GnnTensor *x, const VolumeGeometry *g, const gint64 *out_spatial, GError **error)
{
  GnnTensorPrivate *px = gnn_tensor_priv (x);
  gint64 shape[5] = { px->shape[0], px->shape[1] * g->k[0] * g->k[1] * g->k[2], out_spatial[0], out_spatial[1],
                      out_spatial[2] };
  GnnTensor *out = run_volume (GNN_BACKEND_OP_VOL2COL, x, NULL, shape, g, NULL, error);
  GnnNode *node;

  if (out && (node = gnn_autograd_record ("Vol2ColBackward0", vol2col_backward, &x, 1, &out, 1)))
    gnn_node_set_ctx (node, g_memdup2 (g, sizeof *g), g_free);
  return out;
}

/* col2vol with autograd: cols (N, C·kd·kh·kw, d, h, w) -> @image_shape (N, C, D, H, W) */
static GnnTensor *
col2vol_op (GnnTensor *cols, const VolumeGeometry *g, const gint64 *image_shape, GError **error)
{
  GnnTensor *out = run_volume (GNN_BACKEND_OP_COL2VOL, cols, NULL, image_shape, g, NULL, error);
  GnnNode *node;

  if (out && (node = gnn_autograd_record ("Col2VolBackward0", col2vol_backward, &cols, 1, &out, 1)))
    gnn_node_set_ctx (node, g_memdup2 (g, sizeof *g), g_free);
  return out;
}

/* The checks conv3d and conv_transpose3d share: dtypes, devices, a 5-d weight, a 4-d or 5-d
 * input with @C channels, a bias of @O elements. */
static gboolean
check_conv3d_operands (const char *name, GnnTensor *input, GnnTensor *weight, GnnTensor *bias, gint64 groups,
                       gboolean transposed, GError **error)
{
  GnnTensorPrivate *px = gnn_tensor_priv (input), *pw = gnn_tensor_priv (weight);
  gint64 C, O;

  if (!gnn_check_floating (name, input, error) || !gnn_check_floating (name, weight, error) ||
      !gnn_check_same_device (name, input, weight, error) ||
      (bias && (!gnn_check_floating (name, bias, error) || !gnn_check_same_device (name, input, bias, error))))
    return FALSE;
  if (px->dtype != pw->dtype || (bias && gnn_tensor_priv (bias)->dtype != px->dtype))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE,
                   "%s: Input type (%s) and weight type (%s)%s should be the same", name,
                   gnn_dtype_get_name (px->dtype), gnn_dtype_get_name (pw->dtype),
                   bias ? " and bias type" : "");
      return FALSE;
    }
  if (groups < 1)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "%s: expected groups to be positive, got %" G_GINT64_FORMAT, name, groups);
      return FALSE;
    }
  if (pw->ndim != 5 || pw->shape[0] % groups != 0 || pw->shape[2] < 1 || pw->shape[3] < 1 || pw->shape[4] < 1 ||
      pw->shape[2] > G_MAXINT32 || pw->shape[3] > G_MAXINT32 || pw->shape[4] > G_MAXINT32)
    {
      g_autofree char *s = gnn_shape_to_string (pw->ndim, pw->shape);
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   transposed ? "%s: expected a 5-d weight (in_channels, out_channels / groups, kD, kH, kW) with "
                                "in_channels divisible by groups=%" G_GINT64_FORMAT ", got shape %s"
                              : "%s: expected a 5-d weight (out_channels, in_channels / groups, kD, kH, kW) with "
                                "out_channels divisible by groups=%" G_GINT64_FORMAT ", got shape %s",
                   name, groups, s);
      return FALSE;
    }
  C = transposed ? pw->shape[0] : pw->shape[1] * groups;
  O = transposed ? pw->shape[1] * groups : pw->shape[0];
  if ((px->ndim != 4 && px->ndim != 5) || px->shape[px->ndim - 4] != C)
    {
      g_autofree char *s = gnn_shape_to_string (px->ndim, px->shape);
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "%s: expected a 4-d (C, D, H, W) or 5-d (N, C, D, H, W) input with C = %" G_GINT64_FORMAT
                   " channels, got shape %s", name, C, s);
      return FALSE;
    }
  if (bias && (gnn_tensor_priv (bias)->ndim != 1 || gnn_tensor_priv (bias)->shape[0] != O))
    {
      GnnTensorPrivate *pb = gnn_tensor_priv (bias);
      g_autofree char *s = gnn_shape_to_string (pb->ndim, pb->shape);
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "%s: expected a bias of shape (%" G_GINT64_FORMAT "), got shape %s", name, O, s);
      return FALSE;
    }
  return TRUE;
}

/* The set-up conv3d and conv_transpose3d share once their operands are checked: the 5-d
 * input (a new reference; @batched says whether @input already was), its spatial sizes @I,
 * and @g's kernel size (from @weight), stride, padding and dilation. */
static GnnTensor *
conv3d_setup (GnnTensor *input, GnnTensor *weight, const gint64 *stride, const gint64 *padding,
              const gint64 *dilation, VolumeGeometry *g, gint64 I[3], gboolean *batched, GError **error)
{
  GnnTensorPrivate *pw = gnn_tensor_priv (weight), *px;
  GnnTensor *x;

  *batched = gnn_tensor_priv (input)->ndim == 5;
  if (!(x = *batched ? g_object_ref (input) : gnn_tensor_unsqueeze (input, 0, error)))
    return NULL;
  px = gnn_tensor_priv (x);
  for (guint a = 0; a < 3; a++)
    {
      I[a] = px->shape[2 + a];
      g->k[a] = pw->shape[2 + a];
      g->s[a] = stride[a];
      g->p[a] = padding[a];
      g->d[a] = dilation[a];
    }
  return x;
}

/* The convolution of a 5-d input; @same pads as PyTorch's padding='same' (extra padding, if
 * odd, at the end of each dimension), ignoring @padding. @name prefixes errors. */
GnnTensor *
gnn_conv3d_internal (const char   *name,
                     GnnTensor    *input,
                     GnnTensor    *weight,
                     GnnTensor    *bias,
                     const gint64 *stride,
                     const gint64 *padding,
                     const gint64 *dilation,
                     gint64        groups,
                     gboolean      same,
                     GError      **error)
{
  GnnTensorPrivate *px, *pw;
  VolumeGeometry g = { { 0 } };
  gint64 N, C, O, I[3], out_sp[3], ck, L;
  g_autoptr(GnnTensor) x = NULL, cols = NULL, cols3 = NULL, w3 = NULL, prod = NULL, out = NULL;
  gboolean batched;

  g_return_val_if_fail (GNN_IS_TENSOR (input) && GNN_IS_TENSOR (weight), NULL);
  g_return_val_if_fail (bias == NULL || GNN_IS_TENSOR (bias), NULL);
  GNN_AUTOCAST_RETURN (GNN_AUTOCAST_OP_CONV, c,
                       gnn_conv3d_internal (name, c[0], c[1], c[2], stride, padding, dilation, groups, same, error),
                       error, input, weight, bias);
  GNN_HALF_RETURN (f, gnn_conv3d_internal (name, f[0], f[1], f[2], stride, padding, dilation, groups, same, error),
                   error, input, weight, bias);

  if (!check_conv3d_operands (name, input, weight, bias, groups, FALSE, error))
    return NULL;
  for (guint a = 0; a < 3; a++)
    if (stride[a] < 1 || stride[a] > G_MAXINT32 || dilation[a] < 1 || dilation[a] > G_MAXINT32 ||
        padding[a] < 0 || padding[a] > G_MAXINT32 || (same && stride[a] != 1))
      {
        g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                     "%s: %s", name, same ? "padding='same' is not supported for strided convolutions"
                     : "stride and dilation must lie in [1, 2^31) and padding in [0, 2^31)");
        return NULL;
      }
  if (!(x = conv3d_setup (input, weight, stride, padding, dilation, &g, I, &batched, error)))
    return NULL;
  px = gnn_tensor_priv (x);
  pw = gnn_tensor_priv (weight);
  N = px->shape[0]; C = px->shape[1]; O = pw->shape[0];
  if (same)
    for (guint a = 0; a < 3; a++)
      g.p[a] = g.d[a] * (g.k[a] - 1) / 2;
  for (guint a = 0; a < 3; a++)
    {
      if (!same && I[a] + 2 * g.p[a] < g.d[a] * (g.k[a] - 1) + 1)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                       "%s: Calculated padded input size per channel: (%" G_GINT64_FORMAT " x %" G_GINT64_FORMAT
                       " x %" G_GINT64_FORMAT "). Kernel size: (%" G_GINT64_FORMAT " x %" G_GINT64_FORMAT " x %"
                       G_GINT64_FORMAT "). Kernel size can't be greater than actual input size", name,
                       I[0] + 2 * g.p[0], I[1] + 2 * g.p[1], I[2] + 2 * g.p[2], g.d[0] * (g.k[0] - 1) + 1,
                       g.d[1] * (g.k[1] - 1) + 1, g.d[2] * (g.k[2] - 1) + 1);
          return NULL;
        }
      out_sp[a] = same ? I[a] : (I[a] + 2 * g.p[a] - g.d[a] * (g.k[a] - 1) - 1) / g.s[a] + 1;
    }
  ck = (C / groups) * g.k[0] * g.k[1] * g.k[2];
  L = out_sp[0] * out_sp[1] * out_sp[2];
  {
    gint64 so[5] = { N, O, out_sp[0], out_sp[1], out_sp[2] };

    if (!(cols = vol2col_op (x, &g, out_sp, error)))
      return NULL;
    if (groups == 1)
      {
        /* one filter matrix for every sample: w (O, ck) · cols[n] (ck, L) */
        gint64 s3[3] = { N, ck, L }, s2[2] = { O, ck };

        if (!(cols3 = gnn_tensor_view (cols, s3, 3, error)) ||
            !(w3 = gnn_tensor_reshape (weight, s2, 2, error)) ||
            !(prod = gnn_matmul_shared_left (w3, cols3, error)))
          return NULL;
      }
    else
      {
        gint64 s4[4] = { N, groups, ck, L }, sw[3] = { groups, O / groups, ck };

        if (!(cols3 = gnn_tensor_view (cols, s4, 4, error)) ||
            !(w3 = gnn_tensor_reshape (weight, sw, 3, error)) ||
            !(prod = gnn_tensor_matmul (w3, cols3, error)))
          return NULL;
      }
    if (!(out = gnn_tensor_reshape (prod, so, 5, error)))
      return NULL;
  }
  return finish_conv_nd (g_steal_pointer (&out), bias, O, 3, batched, error);
}

/**
 * gnn_tensor_conv3d:
 * @input: the input, (N, C, D, H, W) or unbatched (C, D, H, W)
 * @weight: the filters, (out_channels, C / @groups, kD, kH, kW)
 * @bias: (nullable): the bias, (out_channels), or %NULL
 * @stride: (array fixed-size=3): the stride along D, H and W, at least 1
 * @padding: (array fixed-size=3): the zero padding on both sides of D, H and W, at least 0
 * @dilation: (array fixed-size=3): the spacing of the kernel elements along D, H and W, at least 1
 * @groups: the number of blocked connections from input to output channels, dividing both
 *   C and out_channels
 * @error: return location for a #GError
 *
 * The 3-d convolution (cross-correlation) of `torch.nn.functional.conv3d`, through the
 * backend's vol2col and gemm. Its backward gives the gradients of @input (col2vol of Wᵀ·g),
 * @weight (g·colsᵀ) and @bias (Σ g).
 *
 * Returns: (transfer full): the output, (N, out_channels, OD, OH, OW) or unbatched, or %NULL
 *   with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_conv3d (GnnTensor    *input,
                   GnnTensor    *weight,
                   GnnTensor    *bias,
                   const gint64 *stride,
                   const gint64 *padding,
                   const gint64 *dilation,
                   gint64        groups,
                   GError      **error)
{
  g_return_val_if_fail (stride != NULL && padding != NULL && dilation != NULL, NULL);
  return gnn_conv3d_internal ("conv3d", input, weight, bias, stride, padding, dilation, groups, FALSE, error);
}

GnnTensor *
gnn_conv_transpose3d_internal (const char   *name,
                               GnnTensor    *input,
                               GnnTensor    *weight,
                               GnnTensor    *bias,
                               const gint64 *stride,
                               const gint64 *padding,
                               const gint64 *output_padding,
                               gint64        groups,
                               const gint64 *dilation,
                               GError      **error)
{
  GnnTensorPrivate *px, *pw;
  VolumeGeometry g = { { 0 } };
  gint64 N, C, O, I[3], K, L;
  gint64 image[5];
  g_autoptr(GnnTensor) x = NULL, x4 = NULL, w3 = NULL, wt = NULL, prod = NULL, cols = NULL, out = NULL;
  gboolean batched;

  g_return_val_if_fail (GNN_IS_TENSOR (input) && GNN_IS_TENSOR (weight), NULL);
  g_return_val_if_fail (bias == NULL || GNN_IS_TENSOR (bias), NULL);
  GNN_AUTOCAST_RETURN (GNN_AUTOCAST_OP_CONV_TRANSPOSE, c,
                       gnn_conv_transpose3d_internal (name, c[0], c[1], c[2], stride, padding, output_padding, groups, dilation, error),
                       error, input, weight, bias);
  GNN_HALF_RETURN (f,
                   gnn_conv_transpose3d_internal (name, f[0], f[1], f[2], stride, padding, output_padding, groups, dilation, error),
                   error, input, weight, bias);

  if (!check_conv3d_operands (name, input, weight, bias, groups, TRUE, error))
    return NULL;
  for (guint a = 0; a < 3; a++)
    if (stride[a] < 1 || stride[a] > G_MAXINT32 || dilation[a] < 1 || dilation[a] > G_MAXINT32 ||
        padding[a] < 0 || padding[a] > G_MAXINT32 || output_padding[a] < 0 ||
        (output_padding[a] >= stride[a] && output_padding[a] >= dilation[a]))
      {
        g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                     "%s: stride and dilation must be positive, padding non-negative, and output padding must "
                     "be smaller than either stride or dilation, got output_padding %" G_GINT64_FORMAT
                     " with stride %" G_GINT64_FORMAT " and dilation %" G_GINT64_FORMAT,
                     name, output_padding[a], stride[a], dilation[a]);
        return NULL;
      }
  if (!(x = conv3d_setup (input, weight, stride, padding, dilation, &g, I, &batched, error)))
    return NULL;
  px = gnn_tensor_priv (x);
  pw = gnn_tensor_priv (weight);
  N = px->shape[0]; C = px->shape[1]; O = pw->shape[1] * groups;
  image[0] = N;
  image[1] = O;
  for (guint a = 0; a < 3; a++)
    image[2 + a] = (I[a] - 1) * g.s[a] - 2 * g.p[a] + g.d[a] * (g.k[a] - 1) + output_padding[a] + 1;
  if (image[2] < 1 || image[3] < 1 || image[4] < 1)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "%s: the output size (%" G_GINT64_FORMAT " x %" G_GINT64_FORMAT " x %" G_GINT64_FORMAT
                   ") is too small for input size (%" G_GINT64_FORMAT " x %" G_GINT64_FORMAT " x %" G_GINT64_FORMAT
                   ")", name, image[2], image[3], image[4], I[0], I[1], I[2]);
      return NULL;
    }
  K = (O / groups) * g.k[0] * g.k[1] * g.k[2];
  L = I[0] * I[1] * I[2];
  {
    gint64 sx[4] = { N, groups, C / groups, L };
    gint64 sw[3] = { groups, C / groups, K };
    gint64 sc[5] = { N, O * g.k[0] * g.k[1] * g.k[2], I[0], I[1], I[2] };

    /* cols (N, G, K, DHW) = Wᵀ (G, K, C/G) · x (N, G, C/G, DHW), then col2vol */
    if (!(x4 = gnn_tensor_reshape (x, sx, 4, error)) ||
        !(w3 = gnn_tensor_reshape (weight, sw, 3, error)) ||
        !(wt = gnn_tensor_transpose (w3, 1, 2, error)) ||
        !(prod = gnn_tensor_matmul (wt, x4, error)) ||
        !(cols = gnn_tensor_reshape (prod, sc, 5, error)) ||
        !(out = col2vol_op (cols, &g, image, error)))
      return NULL;
  }
  return finish_conv_nd (g_steal_pointer (&out), bias, O, 3, batched, error);
}

/**
 * gnn_tensor_conv_transpose3d:
 * @input: the input, (N, C_in, D, H, W) or unbatched (C_in, D, H, W)
 * @weight: the filters, (C_in, out_channels / @groups, kD, kH, kW)
 * @bias: (nullable): the bias, (out_channels), or %NULL
 * @stride: (array fixed-size=3): the stride along D, H and W, at least 1
 * @padding: (array fixed-size=3): the implicit padding removed from both sides, at least 0
 * @output_padding: (array fixed-size=3): the size added to one side of the output, smaller
 *   than the stride or the dilation
 * @groups: the number of blocked connections, dividing C_in and out_channels
 * @dilation: (array fixed-size=3): the spacing of the kernel elements, at least 1
 * @error: return location for a #GError
 *
 * The transposed 3-d convolution of `torch.nn.functional.conv_transpose3d` (the gradient of
 * conv3d with respect to its input), through the backend's gemm and col2vol; its backward goes
 * through vol2col. The output is (N, out_channels, OD, OH, OW) with
 * OD = (D − 1)·stride − 2·padding + dilation·(kD − 1) + output_padding + 1, and OH, OW alike.
 *
 * Returns: (transfer full): the output, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_conv_transpose3d (GnnTensor    *input,
                             GnnTensor    *weight,
                             GnnTensor    *bias,
                             const gint64 *stride,
                             const gint64 *padding,
                             const gint64 *output_padding,
                             gint64        groups,
                             const gint64 *dilation,
                             GError      **error)
{
  g_return_val_if_fail (stride != NULL && padding != NULL && output_padding != NULL && dilation != NULL, NULL);
  return gnn_conv_transpose3d_internal ("conv_transpose3d", input, weight, bias, stride, padding, output_padding,
                                        groups, dilation, error);
}

/* ---- 3-d pooling ------------------------------------------------------------------------ */

/* Checks a 3-d pooling call and fills @g, @x (the 5-d input, a new reference) and @out_sp */
static gboolean
pool3d_prepare (const char *name, GnnTensor *input, const gint64 *kernel_size, const gint64 *stride,
                const gint64 *padding, const gint64 *dilation, gboolean ceil_mode, VolumeGeometry *g,
                GnnTensor **x, gint64 *out_sp, GError **error)
{
  GnnTensorPrivate *p = gnn_tensor_priv (input);

  if (!gnn_check_floating (name, input, error))
    return FALSE;
  if (p->ndim != 4 && p->ndim != 5)
    {
      g_autofree char *s = gnn_shape_to_string (p->ndim, p->shape);
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "%s: expected a 4-d (C, D, H, W) or 5-d (N, C, D, H, W) input, got shape %s", name, s);
      return FALSE;
    }
  for (guint a = 0; a < 3; a++)
    {
      g->k[a] = kernel_size[a];
      g->s[a] = stride ? stride[a] : kernel_size[a];
      g->p[a] = padding ? padding[a] : 0;
      g->d[a] = dilation ? dilation[a] : 1;
      if (g->k[a] < 1 || g->s[a] < 1 || g->d[a] < 1 || g->p[a] < 0 || g->k[a] > G_MAXINT32 ||
          g->s[a] > G_MAXINT32 || g->d[a] > G_MAXINT32)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                       "%s: kernel size, stride and dilation must lie in [1, 2^31), padding must be non-negative, "
                       "got kernel size %" G_GINT64_FORMAT ", stride %" G_GINT64_FORMAT ", padding %" G_GINT64_FORMAT
                       ", dilation %" G_GINT64_FORMAT, name, g->k[a], g->s[a], g->p[a], g->d[a]);
          return FALSE;
        }
      if (g->p[a] > g->k[a] / 2)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                       "%s: pad should be smaller than or equal to half of kernel size, but got padding %"
                       G_GINT64_FORMAT " for kernel size %" G_GINT64_FORMAT, name, g->p[a], g->k[a]);
          return FALSE;
        }
    }
  for (guint a = 0; a < 3; a++)
    out_sp[a] = pool_output_size (p->shape[p->ndim - 3 + a], g->k[a], g->p[a], g->s[a], g->d[a], ceil_mode);
  if (out_sp[0] < 1 || out_sp[1] < 1 || out_sp[2] < 1)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "%s: Given input size: (%" G_GINT64_FORMAT "x%" G_GINT64_FORMAT "x%" G_GINT64_FORMAT "x%"
                   G_GINT64_FORMAT "). Calculated output size: (%" G_GINT64_FORMAT "x%" G_GINT64_FORMAT "x%"
                   G_GINT64_FORMAT "x%" G_GINT64_FORMAT "). Output size is too small", name, p->shape[p->ndim - 4],
                   p->shape[p->ndim - 3], p->shape[p->ndim - 2], p->shape[p->ndim - 1], p->shape[p->ndim - 4],
                   out_sp[0], out_sp[1], out_sp[2]);
      return FALSE;
    }
  *x = p->ndim == 5 ? g_object_ref (input) : gnn_tensor_unsqueeze (input, 0, error);
  return *x != NULL;
}

static gboolean
max_pool3d_backward (GnnNode *node, GnnTensor **go, GnnTensor **gi, GError **error)
{
  GnnTensor *indices;

  if (go[0] == NULL || !NEEDS (0))
    return TRUE;
  if (!gnn_check_double_backward (node, go, error) || !(indices = gnn_node_saved (node, 0, error)))
    return FALSE;
  gi[0] = run_volume (GNN_BACKEND_OP_MAX_POOL3D_BACKWARD, go[0], indices, node->in_shape[0], node->ctx, NULL, error);
  return gi[0] != NULL;
}

/* the end of a pooling: the batch dimension of an unbatched input removed. Takes @out_in. */
static GnnTensor *
unbatch (GnnTensor *out_in, gboolean batched, GError **error)
{
  g_autoptr(GnnTensor) out = out_in;

  if (!batched)
    return gnn_tensor_squeeze_dim (out, 0, error);
  return g_steal_pointer (&out);
}

GnnTensor *
gnn_max_pool3d_internal (const char   *name,
                         GnnTensor    *input,
                         const gint64 *kernel_size,
                         const gint64 *stride,
                         const gint64 *padding,
                         const gint64 *dilation,
                         gboolean      ceil_mode,
                         GnnTensor   **indices,
                         GError      **error)
{
  VolumeGeometry g = { { 0 } };
  g_autoptr(GnnTensor) x = NULL, out = NULL, idx = NULL;
  GnnTensorPrivate *px;
  gint64 out_sp[3];
  GnnNode *node;
  gboolean batched;

  g_return_val_if_fail (GNN_IS_TENSOR (input) && kernel_size != NULL, NULL);
  GNN_AUTOCAST_RETURN (GNN_AUTOCAST_OP_POOL3D, c,
                       gnn_max_pool3d_internal (name, c[0], kernel_size, stride, padding, dilation, ceil_mode, indices, error),
                       error, input);
  GNN_HALF_RETURN (f,
                   gnn_max_pool3d_internal (name, f[0], kernel_size, stride, padding, dilation, ceil_mode, indices, error),
                   error, input);

  batched = gnn_tensor_priv (input)->ndim == 5;
  if (!pool3d_prepare (name, input, kernel_size, stride, padding, dilation, ceil_mode, &g, &x, out_sp, error))
    return NULL;
  px = gnn_tensor_priv (x);
  {
    gint64 shape[5] = { px->shape[0], px->shape[1], out_sp[0], out_sp[1], out_sp[2] };

    if (!(out = run_volume (GNN_BACKEND_OP_MAX_POOL3D, x, NULL, shape, &g, &idx, error)))
      return NULL;
  }
  if ((node = gnn_autograd_record ("MaxPool3DWithIndicesBackward0", max_pool3d_backward, &x, 1, &out, 1)))
    {
      gnn_node_save (node, idx);
      gnn_node_set_ctx (node, g_memdup2 (&g, sizeof g), g_free);
    }
  if (!(out = unbatch (g_steal_pointer (&out), batched, error)) ||
      !(idx = unbatch (g_steal_pointer (&idx), batched, error)))
    return NULL;
  if (indices)
    *indices = g_steal_pointer (&idx);
  return g_steal_pointer (&out);
}

/**
 * gnn_tensor_max_pool3d:
 * @input: the input, (N, C, D, H, W) or unbatched (C, D, H, W)
 * @kernel_size: (array fixed-size=3): the window's depth, height and width, at least 1
 * @stride: (array fixed-size=3) (nullable): the stride along D, H and W, or %NULL for @kernel_size
 * @padding: (array fixed-size=3) (nullable): the implicit -∞ padding of D, H and W, at most half
 *   the kernel size, or %NULL for 0
 * @dilation: (array fixed-size=3) (nullable): the spacing of the window's elements, or %NULL for 1
 * @ceil_mode: whether the output size rounds up (PyTorch's `ceil_mode`)
 * @indices: (out) (optional) (transfer full): the index (z · H + y) · W + x of each maximum in
 *   its (D, H, W) volume, int64, shaped as the output
 * @error: return location for a #GError
 *
 * `torch.nn.functional.max_pool3d`: the maximum over each window, NaN propagating. Its
 * backward sends each gradient to the position of its maximum.
 *
 * Returns: (transfer full): the output, (N, C, OD, OH, OW) or (C, OD, OH, OW), or %NULL with
 *   @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_max_pool3d (GnnTensor    *input,
                       const gint64 *kernel_size,
                       const gint64 *stride,
                       const gint64 *padding,
                       const gint64 *dilation,
                       gboolean      ceil_mode,
                       GnnTensor   **indices,
                       GError      **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (input) && kernel_size != NULL, NULL);
  return gnn_max_pool3d_internal ("max_pool3d", input, kernel_size, stride, padding, dilation, ceil_mode,
                                  indices, error);
}

static gboolean
avg_pool3d_backward (GnnNode *node, GnnTensor **go, GnnTensor **gi, GError **error)
{
  if (go[0] == NULL || !NEEDS (0))
    return TRUE;
  if (!gnn_check_double_backward (node, go, error))
    return FALSE;
  gi[0] = run_volume (GNN_BACKEND_OP_AVG_POOL3D_BACKWARD, go[0], NULL, node->in_shape[0], node->ctx, NULL, error);
  return gi[0] != NULL;
}

GnnTensor *
gnn_avg_pool3d_internal (const char   *name,
                         GnnTensor    *input,
                         const gint64 *kernel_size,
                         const gint64 *stride,
                         const gint64 *padding,
                         gboolean      ceil_mode,
                         gboolean      count_include_pad,
                         gint64        divisor_override,
                         GError      **error)
{
  VolumeGeometry g = { { 0 } };
  g_autoptr(GnnTensor) x = NULL, out = NULL;
  GnnTensorPrivate *px;
  gint64 out_sp[3];
  GnnNode *node;
  gboolean batched;

  g_return_val_if_fail (GNN_IS_TENSOR (input) && kernel_size != NULL, NULL);
  GNN_AUTOCAST_RETURN (GNN_AUTOCAST_OP_POOL3D, c,
                       gnn_avg_pool3d_internal (name, c[0], kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override, error),
                       error, input);
  GNN_HALF_RETURN (f,
                   gnn_avg_pool3d_internal (name, f[0], kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override, error),
                   error, input);

  batched = gnn_tensor_priv (input)->ndim == 5;
  if (!pool3d_prepare (name, input, kernel_size, stride, padding, NULL, ceil_mode, &g, &x, out_sp, error))
    return NULL;
  g.count_include_pad = count_include_pad;
  g.divisor_override = divisor_override;
  px = gnn_tensor_priv (x);
  {
    gint64 shape[5] = { px->shape[0], px->shape[1], out_sp[0], out_sp[1], out_sp[2] };

    if (!(out = run_volume (GNN_BACKEND_OP_AVG_POOL3D, x, NULL, shape, &g, NULL, error)))
      return NULL;
  }
  if ((node = gnn_autograd_record ("AvgPool3DBackward0", avg_pool3d_backward, &x, 1, &out, 1)))
    gnn_node_set_ctx (node, g_memdup2 (&g, sizeof g), g_free);
  return unbatch (g_steal_pointer (&out), batched, error);
}

/**
 * gnn_tensor_avg_pool3d:
 * @input: the input, (N, C, D, H, W) or unbatched (C, D, H, W)
 * @kernel_size: (array fixed-size=3): the window's depth, height and width, at least 1
 * @stride: (array fixed-size=3) (nullable): the stride along D, H and W, or %NULL for @kernel_size
 * @padding: (array fixed-size=3) (nullable): the implicit zero padding of D, H and W, at most
 *   half the kernel size, or %NULL for 0
 * @ceil_mode: whether the output size rounds up (PyTorch's `ceil_mode`)
 * @count_include_pad: whether the padding counts in the divisor
 * @divisor_override: the divisor of every window when not 0 (negative too, as torch takes
 *   it); 0 for none
 * @error: return location for a #GError
 *
 * `torch.nn.functional.avg_pool3d`: the mean of each window, with PyTorch's divisor rules.
 *
 * Returns: (transfer full): the output, (N, C, OD, OH, OW) or (C, OD, OH, OW), or %NULL with
 *   @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_avg_pool3d (GnnTensor    *input,
                       const gint64 *kernel_size,
                       const gint64 *stride,
                       const gint64 *padding,
                       gboolean      ceil_mode,
                       gboolean      count_include_pad,
                       gint64        divisor_override,
                       GError      **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (input) && kernel_size != NULL, NULL);
  return gnn_avg_pool3d_internal ("avg_pool3d", input, kernel_size, stride, padding, ceil_mode,
                                  count_include_pad, divisor_override, error);
}

static gboolean
adaptive_avg_pool3d_backward (GnnNode *node, GnnTensor **go, GnnTensor **gi, GError **error)
{
  GnnTensorPrivate *pg;

  if (go[0] == NULL || !NEEDS (0))
    return TRUE;
  if (!gnn_check_double_backward (node, go, error))
    return FALSE;
  pg = gnn_tensor_priv (go[0]);
  for (guint d = 1; d < pg->ndim; d++)
    if (pg->shape[d] == 0)
      {
        /* torch's backward refuses an output of size 0 (the forward gives it) */
        g_autofree char *s = gnn_shape_to_string (pg->ndim, pg->shape);
        g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                     "adaptive_avg_pool3d_backward(): Expected grad_output to have non-zero size for non-batch "
                     "dimensions, but grad_output has sizes %s with dimension %u being empty", s, d);
        return FALSE;
      }
  gi[0] = run_volume (GNN_BACKEND_OP_ADAPTIVE_AVG_POOL3D_BACKWARD, go[0], NULL, node->in_shape[0], NULL, NULL, error);
  return gi[0] != NULL;
}

GnnTensor *
gnn_adaptive_avg_pool3d_internal (const char   *name,
                                  GnnTensor    *input,
                                  const gint64 *output_size,
                                  GError      **error)
{
  GnnTensorPrivate *p = gnn_tensor_priv (input);
  g_autoptr(GnnTensor) x = NULL, out = NULL;
  gint64 shape[5];
  gboolean batched = p->ndim == 5;

  GNN_AUTOCAST_RETURN (GNN_AUTOCAST_OP_POOL3D, c, gnn_adaptive_avg_pool3d_internal (name, c[0], output_size, error),
                       error, input);
  GNN_HALF_RETURN (f, gnn_adaptive_avg_pool3d_internal (name, f[0], output_size, error), error, input);

  if (!gnn_check_floating (name, input, error))
    return NULL;
  if ((p->ndim != 4 && p->ndim != 5) || p->shape[p->ndim - 1] == 0 || p->shape[p->ndim - 2] == 0 ||
      p->shape[p->ndim - 3] == 0)
    {
      g_autofree char *s = gnn_shape_to_string (p->ndim, p->shape);
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "%s: expected a 4-d (C, D, H, W) or 5-d (N, C, D, H, W) input with non-zero D, H and W, got "
                   "shape %s", name, s);
      return NULL;
    }
  if (!(x = batched ? g_object_ref (input) : gnn_tensor_unsqueeze (input, 0, error)))
    return NULL;
  p = gnn_tensor_priv (x);
  shape[0] = p->shape[0];
  shape[1] = p->shape[1];
  for (guint a = 0; a < 3; a++)
    shape[2 + a] = output_size[a] < 0 ? p->shape[2 + a] : output_size[a];
  if (!(out = run_volume (GNN_BACKEND_OP_ADAPTIVE_AVG_POOL3D, x, NULL, shape, NULL, NULL, error)))
    return NULL;
  gnn_autograd_record ("AdaptiveAvgPool3DBackward0", adaptive_avg_pool3d_backward, &x, 1, &out, 1);
  return unbatch (g_steal_pointer (&out), batched, error);
}

/**
 * gnn_tensor_adaptive_avg_pool3d:
 * @input: the input, (N, C, D, H, W) or unbatched (C, D, H, W)
 * @output_size: (array fixed-size=3): the output's depth, height and width; a negative value
 *   keeps the input's size (PyTorch's None)
 * @error: return location for a #GError
 *
 * `torch.nn.functional.adaptive_avg_pool3d`: output element (oz, oy, ox) is the mean over
 * depths [⌊oz·D/OD⌋, ⌈(oz+1)·D/OD⌉) and the rows and columns alike.
 *
 * Returns: (transfer full): the output, (N, C, OD, OH, OW) or (C, OD, OH, OW), or %NULL with
 *   @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_adaptive_avg_pool3d (GnnTensor    *input,
                                const gint64 *output_size,
                                GError      **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (input) && output_size != NULL, NULL);
  return gnn_adaptive_avg_pool3d_internal ("adaptive_avg_pool3d", input, output_size, error);
}

/* the backward of adaptive_max_pool3d: each gradient added at its maximum's index, the
 * MAX_POOL3D_BACKWARD kernel (whose window, a unit one here, it does not read) */
static gboolean
adaptive_max_pool3d_backward (GnnNode *node, GnnTensor **go, GnnTensor **gi, GError **error)
{
  static const VolumeGeometry unit = { { 1, 1, 1 }, { 1, 1, 1 }, { 0, 0, 0 }, { 1, 1, 1 }, FALSE, 0 };
  GnnTensor *indices;

  if (go[0] == NULL || !NEEDS (0))
    return TRUE;
  if (!gnn_check_double_backward (node, go, error) || !(indices = gnn_node_saved (node, 0, error)))
    return FALSE;
  gi[0] = run_volume (GNN_BACKEND_OP_MAX_POOL3D_BACKWARD, go[0], indices, node->in_shape[0], &unit, NULL, error);
  return gi[0] != NULL;
}

GnnTensor *
gnn_adaptive_max_pool3d_internal (const char   *name,
                                  GnnTensor    *input,
                                  const gint64 *output_size,
                                  GnnTensor   **indices,
                                  GError      **error)
{
  GnnTensorPrivate *p = gnn_tensor_priv (input);
  g_autoptr(GnnTensor) x = NULL, out = NULL, idx = NULL;
  gint64 shape[5];
  gboolean batched = p->ndim == 5;
  GnnNode *node;

  GNN_AUTOCAST_RETURN (GNN_AUTOCAST_OP_POOL3D, c,
                       gnn_adaptive_max_pool3d_internal (name, c[0], output_size, indices, error),
                       error, input);
  GNN_HALF_RETURN (f, gnn_adaptive_max_pool3d_internal (name, f[0], output_size, indices, error), error, input);

  if (!gnn_check_floating (name, input, error))
    return NULL;
  if ((p->ndim != 4 && p->ndim != 5) || p->shape[p->ndim - 1] == 0 || p->shape[p->ndim - 2] == 0 ||
      p->shape[p->ndim - 3] == 0)
    {
      g_autofree char *s = gnn_shape_to_string (p->ndim, p->shape);
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "%s: expected a 4-d (C, D, H, W) or 5-d (N, C, D, H, W) input with non-zero D, H and W, got "
                   "shape %s", name, s);
      return NULL;
    }
  if (!(x = batched ? g_object_ref (input) : gnn_tensor_unsqueeze (input, 0, error)))
    return NULL;
  p = gnn_tensor_priv (x);
  shape[0] = p->shape[0];
  shape[1] = p->shape[1];
  for (guint a = 0; a < 3; a++)
    {
      shape[2 + a] = output_size[a] < 0 ? p->shape[2 + a] : output_size[a];
      if (shape[2 + a] == 0)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                       "%s: expected an output size of at least 1 in each dimension, got %" G_GINT64_FORMAT
                       " in dimension %u", name, shape[2 + a], a);
          return NULL;
        }
    }
  if (!(out = run_volume (GNN_BACKEND_OP_ADAPTIVE_MAX_POOL3D, x, NULL, shape, NULL, &idx, error)))
    return NULL;
  if ((node = gnn_autograd_record ("AdaptiveMaxPool3DBackward0", adaptive_max_pool3d_backward, &x, 1, &out, 1)))
    gnn_node_save (node, idx);
  if (!(out = unbatch (g_steal_pointer (&out), batched, error)) ||
      !(idx = unbatch (g_steal_pointer (&idx), batched, error)))
    return NULL;
  if (indices)
    *indices = g_steal_pointer (&idx);
  return g_steal_pointer (&out);
}

/**
 * gnn_tensor_adaptive_max_pool3d:
 * @input: the input, (N, C, D, H, W) or unbatched (C, D, H, W)
 * @output_size: (array fixed-size=3): the output's depth, height and width, at least 1; a
 *   negative value keeps the input's size (PyTorch's None)
 * @indices: (out) (optional) (transfer full): the index (z · H + y) · W + x of each maximum in
 *   its (D, H, W) volume, int64, shaped as the output
 * @error: return location for a #GError
 *
 * `torch.nn.functional.adaptive_max_pool3d`: output element (oz, oy, ox) is the maximum over
 * the window of [method@Gnn.Tensor.adaptive_avg_pool3d], NaN propagating. Its backward sends
 * each gradient to the position of its maximum.
 *
 * Returns: (transfer full): the output, (N, C, OD, OH, OW) or (C, OD, OH, OW), or %NULL with
 *   @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_adaptive_max_pool3d (GnnTensor    *input,
                                const gint64 *output_size,
                                GnnTensor   **indices,
                                GError      **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (input) && output_size != NULL, NULL);
  return gnn_adaptive_max_pool3d_internal ("adaptive_max_pool3d", input, output_size, indices, error);
}

/* ---- unfold and fold (torch.nn.functional.unfold / fold): im2col and col2im alone ------- */

/* the geometry of unfold / fold from their four pairs; FALSE with @error set when a size is
 * out of range */
static gboolean
sliding_geometry (const char *name, const gint64 *kernel_size, const gint64 *dilation, const gint64 *padding,
                  const gint64 *stride, ConvGeometry *g, GError **error)
{
  for (guint a = 0; a < 2; a++)
    {
      if (kernel_size[a] < 1 || dilation[a] < 1 || stride[a] < 1 || padding[a] < 0 ||
          kernel_size[a] > G_MAXINT32 || dilation[a] > G_MAXINT32 || stride[a] > G_MAXINT32 ||
          padding[a] > G_MAXINT32)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                       "%s: kernel_size, dilation and stride must lie in [1, 2^31) and padding in [0, 2^31), "
                       "got kernel_size=(%" G_GINT64_FORMAT ", %" G_GINT64_FORMAT "), dilation=(%" G_GINT64_FORMAT
                       ", %" G_GINT64_FORMAT "), padding=(%" G_GINT64_FORMAT ", %" G_GINT64_FORMAT "), stride=(%"
                       G_GINT64_FORMAT ", %" G_GINT64_FORMAT ")", name, kernel_size[0], kernel_size[1],
                       dilation[0], dilation[1], padding[0], padding[1], stride[0], stride[1]);
          return FALSE;
        }
      g->k[a] = kernel_size[a];
      g->d[a] = dilation[a];
      g->p[a] = padding[a];
      g->s[a] = stride[a];
    }
  return TRUE;
}

/* the number of blocks along one axis of size @n, or 0 when there is none */
static gint64
sliding_blocks (const ConvGeometry *g, guint a, gint64 n)
{
  gint64 span = g->d[a] * (g->k[a] - 1) + 1;

  if (n + 2 * g->p[a] < span)
    return 0;
  return (n + 2 * g->p[a] - span) / g->s[a] + 1;
}

/**
 * gnn_tensor_im2col:
 * @self: the input, (N, C, H, W) or unbatched (C, H, W)
 * @kernel_size: (array fixed-size=2): the block size (kh, kw), each at least 1
 * @dilation: (array fixed-size=2): the spacing of the block's elements, each at least 1
 * @padding: (array fixed-size=2): the zeros added on both sides of H and W, each at least 0
 * @stride: (array fixed-size=2): the step between blocks, each at least 1
 * @error: return location for a #GError
 *
 * `torch.nn.functional.unfold`: the sliding blocks of the input as columns, output
 * (N, C·kh·kw, L) where L = OH·OW is the number of blocks, row (c·kh + i)·kw + j holding
 * element (i, j) of each block of channel c. Its gradient is [method@Gnn.Tensor.col2im] of
 * the output's gradient. This is what [class@Gnn.Unfold] runs.
 *
 * Returns: (transfer full): the columns, (N, C·kh·kw, L) or (C·kh·kw, L), or %NULL with
 *   @error set (a non-floating or non-3-d/4-d input, sizes out of range, no block)
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_im2col (GnnTensor    *self,
                   const gint64 *kernel_size,
                   const gint64 *dilation,
                   const gint64 *padding,
                   const gint64 *stride,
                   GError      **error)
{
  const char *name = "unfold";
  GnnTensorPrivate *px;
  ConvGeometry g;
  gint64 oh, ow;
  gboolean batched;
  g_autoptr(GnnTensor) x = NULL, cols = NULL;

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  g_return_val_if_fail (kernel_size && dilation && padding && stride, NULL);
  px = gnn_tensor_priv (self);
  if (!gnn_check_floating (name, self, error) ||
      !sliding_geometry (name, kernel_size, dilation, padding, stride, &g, error))
    return NULL;
  if (px->ndim != 3 && px->ndim != 4)
    {
      g_autofree char *s = gnn_shape_to_string (px->ndim, px->shape);
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "%s: expected a 3-d (C, H, W) or 4-d (N, C, H, W) input, got shape %s", name, s);
      return NULL;
    }
  batched = px->ndim == 4;
  x = batched ? g_object_ref (self) : gnn_tensor_unsqueeze (self, 0, error);
  if (x == NULL)
    return NULL;
  px = gnn_tensor_priv (x);
  oh = sliding_blocks (&g, 0, px->shape[2]);
  ow = sliding_blocks (&g, 1, px->shape[3]);
  if (oh < 1 || ow < 1)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "%s: Given input with spatial size (%" G_GINT64_FORMAT ", %" G_GINT64_FORMAT "), kernel_size=(%"
                   G_GINT64_FORMAT ", %" G_GINT64_FORMAT "), dilation=(%" G_GINT64_FORMAT ", %" G_GINT64_FORMAT
                   "), padding=(%" G_GINT64_FORMAT ", %" G_GINT64_FORMAT "), calculated shape of the array of "
                   "sliding blocks as (%" G_GINT64_FORMAT ", %" G_GINT64_FORMAT "), but its components must be at "
                   "least one.", name, px->shape[2], px->shape[3], g.k[0], g.k[1], g.d[0], g.d[1], g.p[0], g.p[1],
                   oh, ow);
      return NULL;
    }
  if (!(cols = im2col_op (x, &g, oh, ow, error)))
    return NULL;
  {
    gint64 s3[3] = { px->shape[0], px->shape[1] * g.k[0] * g.k[1], oh * ow };

    return gnn_tensor_reshape (cols, batched ? s3 : s3 + 1, batched ? 3 : 2, error);
  }
}

/**
 * gnn_tensor_col2im:
 * @self: the columns, (N, C·kh·kw, L) or unbatched (C·kh·kw, L)
 * @output_size: (array fixed-size=2): the spatial size (H, W) of the output
 * @kernel_size: (array fixed-size=2): the block size (kh, kw), each at least 1
 * @dilation: (array fixed-size=2): the spacing of the block's elements, each at least 1
 * @padding: (array fixed-size=2): the zeros added on both sides of H and W, each at least 0
 * @stride: (array fixed-size=2): the step between blocks, each at least 1
 * @error: return location for a #GError
 *
 * `torch.nn.functional.fold`, the adjoint of [method@Gnn.Tensor.im2col]: each column is a
 * block, added into the output (N, C, H, W) where its elements lie (overlapping blocks sum).
 * L must be the number of blocks of (H, W). This is what [class@Gnn.Fold] runs.
 *
 * Returns: (transfer full): the output, (N, C, H, W) or (C, H, W), or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_col2im (GnnTensor    *self,
                   const gint64 *output_size,
                   const gint64 *kernel_size,
                   const gint64 *dilation,
                   const gint64 *padding,
                   const gint64 *stride,
                   GError      **error)
{
  const char *name = "fold";
  GnnTensorPrivate *px;
  ConvGeometry g;
  gint64 oh, ow, kk, C;
  gboolean batched;
  g_autoptr(GnnTensor) x = NULL, cols = NULL, out = NULL;

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  g_return_val_if_fail (output_size && kernel_size && dilation && padding && stride, NULL);
  px = gnn_tensor_priv (self);
  if (!gnn_check_floating (name, self, error) ||
      !sliding_geometry (name, kernel_size, dilation, padding, stride, &g, error))
    return NULL;
  if (px->ndim != 2 && px->ndim != 3)
    {
      g_autofree char *s = gnn_shape_to_string (px->ndim, px->shape);
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "%s: expected a 2-d (C·kh·kw, L) or 3-d (N, C·kh·kw, L) input, got shape %s", name, s);
      return NULL;
    }
  if (output_size[0] < 1 || output_size[1] < 1)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "%s: output_size must be positive, got (%" G_GINT64_FORMAT ", %" G_GINT64_FORMAT ")", name,
                   output_size[0], output_size[1]);
      return NULL;
    }
  batched = px->ndim == 3;
  x = batched ? g_object_ref (self) : gnn_tensor_unsqueeze (self, 0, error);
  if (x == NULL)
    return NULL;
  px = gnn_tensor_priv (x);
  kk = g.k[0] * g.k[1];
  if (px->shape[1] % kk != 0)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "%s: Expected size of input's dimension 1 to be divisible by the product of kernel_size, but got "
                   "input.size(1)=%" G_GINT64_FORMAT " and kernel_size=(%" G_GINT64_FORMAT ", %" G_GINT64_FORMAT ").",
                   name, px->shape[1], g.k[0], g.k[1]);
      return NULL;
    }
  oh = sliding_blocks (&g, 0, output_size[0]);
  ow = sliding_blocks (&g, 1, output_size[1]);
  if (oh < 1 || ow < 1 || px->shape[2] != oh * ow)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "%s: Given output_size=(%" G_GINT64_FORMAT ", %" G_GINT64_FORMAT "), kernel_size=(%" G_GINT64_FORMAT
                   ", %" G_GINT64_FORMAT "), dilation=(%" G_GINT64_FORMAT ", %" G_GINT64_FORMAT "), padding=(%"
                   G_GINT64_FORMAT ", %" G_GINT64_FORMAT "), stride=(%" G_GINT64_FORMAT ", %" G_GINT64_FORMAT
                   "), expected size of input's dimension %d to match the calculated number of sliding blocks %"
                   G_GINT64_FORMAT " * %" G_GINT64_FORMAT " = %" G_GINT64_FORMAT ", but got input.size(%d)=%"
                   G_GINT64_FORMAT ".", name, output_size[0], output_size[1], g.k[0], g.k[1], g.d[0], g.d[1],
                   g.p[0], g.p[1], g.s[0], g.s[1], batched ? 2 : 1, oh, ow, oh * ow, batched ? 2 : 1,
                   px->shape[2]);
      return NULL;
    }
  C = px->shape[1] / kk;
  {
    gint64 s4[4] = { px->shape[0], px->shape[1], oh, ow };

    if (!(cols = gnn_tensor_reshape (x, s4, 4, error)) ||
        !(out = col2im_op (cols, &g, C, output_size[0], output_size[1], error)))
      return NULL;
  }
  return batched ? g_steal_pointer (&out) : gnn_tensor_squeeze_dim (out, 0, error);
}
