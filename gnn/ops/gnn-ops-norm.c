/* gnn-ops-norm.c: the functional norms (batch, instance, layer and group normalisation), and
 * batch normalisation of a training batch as three backend kernels
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Composed from generic ops, a training step of BatchNorm reads its input about ten times
 * (mean and variance through permuted copies, the normalisation, the affine transform, and
 * as many passes again in backward). The fused form reads it twice forward and three times
 * backward, as PyTorch's native batch norm: BATCH_NORM_STATS gives the per-channel mean and
 * biased variance, CHANNEL_AFFINE applies y = x · a + b with a = weight / √(var + eps) and
 * b = bias - mean · a, and backward reduces Σ g and Σ g · (x - mean) per channel
 * (BATCH_NORM_BACKWARD_REDUCE) before one more CHANNEL_AFFINE gives the input's gradient.
 * The per-channel coefficients are computed with ordinary ops on (C) tensors, on the
 * input's device. Backends without the kernels keep the composed form (gnn-norm.c).
 */
#include "config.h"

#include <string.h>

#include "gnn-ops-private.h"
#include "autograd/graph/gnn-graph-private.h"
#include "backend/gnn-backend-private.h"

#define NEEDS(j) (node->edges[(j)].node != NULL)

typedef struct {
  GnnTensor *mean;     /* (C) */
  GnnTensor *invstd;   /* (C): 1 / √(var + eps) */
  GnnTensor *weight;   /* (C) detached, or NULL */
  gint64 n, c, s;
} BatchNormCtx;

static void
batch_norm_ctx_free (gpointer data)
{
  BatchNormCtx *ctx = data;

  g_clear_object (&ctx->mean);
  g_clear_object (&ctx->invstd);
  g_clear_object (&ctx->weight);
  g_free (ctx);
}

/* Whether the backend of @x has the three kernels for @x's dtype (float32 or float64 only:
 * the half types keep the composed form, which computes in float32). */
gboolean
gnn_batch_norm_fused_available (GnnTensor *x)
{
  GnnTensorPrivate *p = gnn_tensor_priv (x);
  GnnBackend *backend = p->storage->entry->backend;

  if (p->dtype != GNN_DTYPE_FLOAT32 && p->dtype != GNN_DTYPE_FLOAT64)
    return FALSE;
  return gnn_backend_supports_op (backend, GNN_BACKEND_OP_BATCH_NORM_STATS, p->dtype) &&
         gnn_backend_supports_op (backend, GNN_BACKEND_OP_CHANNEL_AFFINE, p->dtype) &&
         gnn_backend_supports_op (backend, GNN_BACKEND_OP_BATCH_NORM_BACKWARD_REDUCE, p->dtype);
}

/* A new (rows, C) tensor whose rows are @parts, on the device of @like. */
static GnnTensor *
stack_rows (GnnTensor *like, GnnTensor **parts, guint rows, gint64 c, GError **error)
{
  gint64 shape[2] = { rows, c };
  g_autoptr(GnnTensor) out = gnn_tensor_new_like (like, gnn_tensor_priv (like)->dtype, 2, shape, error);

  if (out == NULL)
    return NULL;
  for (guint r = 0; r < rows; r++)
    {
      g_autoptr(GnnTensor) row = gnn_tensor_select (out, 0, r, error);

      if (row == NULL || !gnn_tensor_copy_ (row, parts[r], error))
        return NULL;
    }
  return g_steal_pointer (&out);
}

/* A kernel operand: a batch seen as (N, C, S), or per-channel rows (R, C) seen as (1, R, C). */
typedef struct {
  GnnTensor *t;
  gboolean per_channel;
} NormOperand;

/* Runs @op on the batch geometry of @ctx (params.norm: N, C, S) into @out from @n_in inputs. */
static gboolean
run_norm_kernel (GnnBackendOp op, NormOperand out, const NormOperand *in, guint n_in,
                 const BatchNormCtx *ctx, GError **error)
{
  GnnKernelTensor kout, kin[3];
  GnnKernelArgs args = { 0 };

  for (guint k = 0; k <= n_in; k++)
    {
      const NormOperand *o = k < n_in ? &in[k] : &out;
      GnnKernelTensor *kt = k < n_in ? &kin[k] : &kout;

      if (o->per_channel)
        gnn_kernel_tensor_3d (o->t, 1, gnn_tensor_get_numel (o->t) / ctx->c, ctx->c, kt);
      else
        gnn_kernel_tensor_3d (o->t, ctx->n, ctx->c, ctx->s, kt);
      if (k < n_in)
        args.in[k] = kt;
    }
  args.op = op;
  args.out = &kout;
  args.n_in = n_in;
  args.params.norm.batch = ctx->n;
  args.params.norm.channels = ctx->c;
  args.params.norm.spatial = ctx->s;
  return gnn_run_kernel (out.t, &args, error);
}

/* out (shaped as @shape) = x · k[0] + k[1] (+ (x2 - k[2]) · k[3]) per channel */
static GnnTensor *
channel_affine (GnnTensor *x, GnnTensor *coef, GnnTensor *x2, const BatchNormCtx *ctx,
                guint ndim, const gint64 *shape, GError **error)
{
  NormOperand in[3] = { { x, FALSE }, { coef, TRUE }, { x2, FALSE } };
  g_autoptr(GnnTensor) out = gnn_tensor_new_like (x, gnn_tensor_priv (x)->dtype, ndim, shape, error);

  if (out == NULL ||
      !run_norm_kernel (GNN_BACKEND_OP_CHANNEL_AFFINE, (NormOperand) { out, FALSE }, in, x2 ? 3 : 2, ctx, error))
    return NULL;
  return g_steal_pointer (&out);
}

/* (2, C) per-channel sums: BATCH_NORM_STATS of x, or BATCH_NORM_BACKWARD_REDUCE of g, x, mean */
static GnnTensor *
channel_sums (GnnBackendOp op, GnnTensor *x, GnnTensor *g, GnnTensor *mean, const BatchNormCtx *ctx,
              GError **error)
{
  gint64 shape[2] = { 2, ctx->c };
  NormOperand stats_in[1] = { { x, FALSE } };
  NormOperand reduce_in[3] = { { g, FALSE }, { x, FALSE }, { mean, TRUE } };
  g_autoptr(GnnTensor) out = gnn_tensor_new_like (x, gnn_tensor_priv (x)->dtype, 2, shape, error);

  if (out == NULL ||
      !run_norm_kernel (op, (NormOperand) { out, TRUE }, g ? reduce_in : stats_in, g ? 3 : 1, ctx, error))
    return NULL;
  return g_steal_pointer (&out);
}

/* dx = a · (g - Σg / m) - a · invstd² · Σg(x - mean) / m · (x - mean), a = weight · invstd;
 * dweight = Σg(x - mean) · invstd; dbias = Σg */
static gboolean
batch_norm_backward (GnnNode *node, GnnTensor **go, GnnTensor **gi, GError **error)
{
  BatchNormCtx *ctx = node->ctx;
  GnnTensor *x;
  g_autoptr(GnnTensor) g = NULL, sums = NULL, sum_g = NULL, sum_gx = NULL;
  double m = (double) (ctx->n * ctx->s);

  if (go[0] == NULL)
    return TRUE;
  if (!gnn_check_double_backward (node, go, error))
    return FALSE;
  if (!(x = gnn_node_saved (node, 0, error)) ||
      !(g = gnn_tensor_contiguous_as (go[0], gnn_tensor_priv (x)->dtype, error)) ||
      !(sums = channel_sums (GNN_BACKEND_OP_BATCH_NORM_BACKWARD_REDUCE, x, g, ctx->mean, ctx, error)) ||
      !(sum_g = gnn_tensor_select (sums, 0, 0, error)) ||
      !(sum_gx = gnn_tensor_select (sums, 0, 1, error)))
    return FALSE;
  if (node->n_inputs > 1 && NEEDS (1) && !(gi[1] = gnn_tensor_mul (sum_gx, ctx->invstd, error)))
    return FALSE;
  if (node->n_inputs > 2 && NEEDS (2) && !(gi[2] = gnn_tensor_clone_contiguous (sum_g, gnn_tensor_priv (sum_g)->dtype, error)))
    return FALSE;
  if (NEEDS (0))
    {
      g_autoptr(GnnTensor) a = NULL, b = NULL, d = NULL, inv2 = NULL, t = NULL, coef = NULL;
      GnnTensor *parts[4];

      a = ctx->weight ? gnn_tensor_mul (ctx->weight, ctx->invstd, error) : g_object_ref (ctx->invstd);
      if (a == NULL ||
          !(t = gnn_tensor_mul (a, sum_g, error)) ||
          !(b = gnn_tensor_mul_scalar (t, -1.0 / m, error)) ||
          !(inv2 = gnn_tensor_mul (ctx->invstd, ctx->invstd, error)))
        return FALSE;
      g_clear_object (&t);
      if (!(t = gnn_tensor_mul (a, inv2, error)))
        return FALSE;
      g_clear_object (&inv2);
      if (!(inv2 = gnn_tensor_mul (t, sum_gx, error)) ||
          !(d = gnn_tensor_mul_scalar (inv2, -1.0 / m, error)))
        return FALSE;
      parts[0] = a;
      parts[1] = b;
      parts[2] = ctx->mean;
      parts[3] = d;
      if (!(coef = stack_rows (x, parts, 4, ctx->c, error)) ||
          !(gi[0] = channel_affine (g, coef, x, ctx, node->in_ndim[0], node->in_shape[0], error)))
        return FALSE;
    }
  return TRUE;
}

/* Batch normalisation of @input (N, C, ...) with its own statistics, as
 * `torch.batch_norm (training=True)`; @mean_out and @var_out get the batch's mean and biased
 * variance per channel, (C), without history, for the running statistics. @weight and
 * @bias ((C) or %NULL) must have @input's dtype and device. Call only when
 * gnn_batch_norm_fused_available (@input). */
GnnTensor *
gnn_batch_norm_train_fused (GnnTensor  *input,
                            GnnTensor  *weight,
                            GnnTensor  *bias,
                            double      eps,
                            GnnTensor **mean_out,
                            GnnTensor **var_out,
                            GError    **error)
{
  GnnTensorPrivate *p = gnn_tensor_priv (input);
  g_autoptr(GnnTensor) x = NULL, stats = NULL, mean = NULL, var = NULL, invstd = NULL, a = NULL,
    b = NULL, t = NULL, coef = NULL, y = NULL, w = NULL;
  GnnTensor *parts[2];
  GnnTensor *inputs[3] = { input, weight, bias };
  BatchNormCtx ctx = { 0 };
  GnnNode *node;

  ctx.n = p->shape[0];
  ctx.c = p->shape[1];
  ctx.s = 1;
  for (guint d = 2; d < p->ndim; d++)
    ctx.s *= p->shape[d];

  {
    g_autoptr(GnnNoGradGuard) guard = gnn_no_grad_guard_new ();

    if (!(x = gnn_tensor_contiguous_as (input, p->dtype, error)) ||
        !(stats = channel_sums (GNN_BACKEND_OP_BATCH_NORM_STATS, x, NULL, NULL, &ctx, error)) ||
        !(mean = gnn_tensor_select (stats, 0, 0, error)) ||
        !(var = gnn_tensor_select (stats, 0, 1, error)) ||
        !(t = gnn_tensor_add_scalar (var, eps, error)) ||
        !(invstd = gnn_tensor_pow_scalar (t, -0.5, error)))
      return NULL;
    g_clear_object (&t);
    if (weight)
      {
        if (!(w = gnn_tensor_detach (weight)) || !(a = gnn_tensor_mul (w, invstd, error)))
          return NULL;
      }
    else
      a = g_object_ref (invstd);
    if (!(t = gnn_tensor_mul (mean, a, error)))
      return NULL;
    b = bias ? gnn_tensor_sub (bias, t, 1.0, error) : gnn_tensor_neg (t, error);
    if (b == NULL)
      return NULL;
    parts[0] = a;
    parts[1] = b;
    if (!(coef = stack_rows (x, parts, 2, ctx.c, error)) ||
        !(y = channel_affine (x, coef, NULL, &ctx, p->ndim, p->shape, error)))
      return NULL;
  }

  if ((node = gnn_autograd_record ("NativeBatchNormBackward0", batch_norm_backward, inputs,
                                   bias ? 3 : weight ? 2 : 1, &y, 1)))
    {
      BatchNormCtx *saved = g_memdup2 (&ctx, sizeof ctx);

      saved->mean = g_object_ref (mean);
      saved->invstd = g_object_ref (invstd);
      saved->weight = w ? g_object_ref (w) : NULL;
      gnn_node_save (node, x);
      gnn_node_set_ctx (node, saved, batch_norm_ctx_free);
    }
  if (mean_out)
    *mean_out = g_steal_pointer (&mean);
  if (var_out)
    *var_out = g_steal_pointer (&var);
  return g_steal_pointer (&y);
}

/* ---- the functional norms: what the layers of gnn-norm.c run ---------------------------- */

/* (@x - @mean) / √(@var + @eps) */
static GnnTensor *
normalize (GnnTensor *x,
           GnnTensor *mean,
           GnnTensor *var,
           double     eps,
           GError   **error)
{
  g_autoptr(GnnTensor) centered = NULL, shifted = NULL, std = NULL;

  if (!(centered = gnn_tensor_sub (x, mean, 1.0, error)) ||
      !(shifted = gnn_tensor_add_scalar (var, eps, error)) ||
      !(std = gnn_tensor_sqrt (shifted, error)))
    return NULL;
  return gnn_tensor_div (centered, std, error);
}

/* @y · @weight + @bias (either may be NULL), the parameters seen with @shape (NULL: as they
 * are); consumes @y */
static GnnTensor *
affine (GnnTensor    *y,
        GnnTensor    *weight,
        GnnTensor    *bias,
        const gint64 *shape,
        guint         ndim,
        GError      **error)
{
  g_autoptr(GnnTensor) out = y;
  GnnTensor *params[2] = { weight, bias };

  for (guint k = 0; k < 2; k++)
    {
      g_autoptr(GnnTensor) v = NULL;
      GnnTensor *next;

      if (params[k] == NULL)
        continue;
      v = shape ? gnn_tensor_reshape (params[k], shape, ndim, error) : g_object_ref (params[k]);
      if (v == NULL)
        return NULL;
      next = k == 0 ? gnn_tensor_mul (out, v, error) : gnn_tensor_add (out, v, 1.0, error);
      if (next == NULL)
        return NULL;
      g_object_unref (out);
      out = next;
    }
  return g_steal_pointer (&out);
}

/* whether @t (a per-channel tensor or NULL) is a vector of @c elements; sets torch's error
 * ("running_mean should contain 4 elements not 3") otherwise */
static gboolean
check_per_channel (const char *op,
                   const char *name,
                   GnnTensor  *t,
                   gint64      c,
                   GError    **error)
{
  if (t == NULL || gnn_tensor_get_numel (t) == c)
    return TRUE;
  g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE, "%s: %s should contain %" G_GINT64_FORMAT
               " elements not %" G_GINT64_FORMAT, op, name, c, gnn_tensor_get_numel (t));
  return FALSE;
}

/* whether @t (a per-channel tensor or NULL) has @input's dtype: torch 1.13 refuses a float64
 * input with float32 parameters ("mixed dtype (CPU)"; it mixes only a bfloat16 input with
 * float32 parameters, which gnn_tensor_batch_norm computes in float32 before this check)
 * instead of computing in one of them */
static gboolean
check_same_dtype (const char *op,
                  GnnTensor  *input,
                  const char *name,
                  GnnTensor  *t,
                  GError    **error)
{
  if (t == NULL || gnn_tensor_get_dtype (t) == gnn_tensor_get_dtype (input))
    return TRUE;
  g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE, "%s: mixed dtype: expected %s to have the input's dtype %s, "
               "got %s", op, name, gnn_dtype_get_name (gnn_tensor_get_dtype (input)),
               gnn_dtype_get_name (gnn_tensor_get_dtype (t)));
  return FALSE;
}

/* whether the fused training kernels can take @x with @weight and @bias: they exist for x's
 * dtype, and the affine parameters (if any) are vectors of x's dtype on x's device */
static gboolean
batch_norm_fused_usable (GnnTensor *x,
                         GnnTensor *weight,
                         GnnTensor *bias)
{
  GnnTensorPrivate *px = gnn_tensor_priv (x);
  GnnTensor *params[2] = { weight, bias };

  if (!gnn_batch_norm_fused_available (x))
    return FALSE;
  for (guint k = 0; k < 2; k++)
    if (params[k])
      {
        GnnTensorPrivate *pp = gnn_tensor_priv (params[k]);

        if (pp->dtype != px->dtype || pp->ndim != 1 || pp->storage->entry != px->storage->entry ||
            pp->storage->device != px->storage->device)
          return FALSE;
      }
  return TRUE;
}

/**
 * gnn_tensor_batch_norm:
 * @self: the input, (N, C, ...)
 * @running_mean: (nullable): the running mean, (C), updated in place when @training
 * @running_var: (nullable): the running variance, (C), updated in place when @training
 * @weight: (nullable): the scale, (C), or %NULL for none
 * @bias: (nullable): the shift, (C), or %NULL for none
 * @training: whether to normalise with the batch's statistics (and move the running ones)
 * @momentum: the weight of the batch's statistics in the running ones
 * @eps: added to the variance before its square root
 * @error: return location for a #GError
 *
 * Batch normalisation over dimension 1, as `torch.nn.functional.batch_norm`:
 * y = (x - mean) / √(var + eps) · weight + bias per channel. With @training the mean and the
 * biased variance of the batch are used, and the running statistics (when both are given)
 * become (1 - @momentum) · running + @momentum · batch, with the batch's unbiased variance;
 * otherwise the running statistics are used, and both must be given. The training form runs
 * on the backend's fused batch norm kernels where it has them. This is what
 * [class@Gnn.BatchNorm] runs.
 *
 * Returns: (transfer full): the normalised input, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_batch_norm (GnnTensor *self,
                       GnnTensor *running_mean,
                       GnnTensor *running_var,
                       GnnTensor *weight,
                       GnnTensor *bias,
                       gboolean   training,
                       double     momentum,
                       double     eps,
                       GError   **error)
{
  g_autoptr(GnnTensor) mean = NULL, var = NULL, y = NULL;
  gint64 stat_shape[GNN_MAX_DIMS];
  int dims[GNN_MAX_DIMS];
  guint ndim, n_dims = 0;
  const gint64 *shape;
  gint64 count;

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  /* a half input with float32 parameters and statistics (torch's mixed-dtype batch norm, what
   * autocast leaves after a lower-precision convolution): computed in float32, the running
   * statistics updated in float32, the output rounded once to the input's dtype */
  {
    GnnDtype d = gnn_tensor_get_dtype (self);
    GnnTensor *params[4] = { running_mean, running_var, weight, bias };
    gboolean mixed = d == GNN_DTYPE_FLOAT16 || d == GNN_DTYPE_BFLOAT16, any = FALSE;

    for (guint k = 0; mixed && k < 4; k++)
      if (params[k])
        {
          mixed = gnn_tensor_get_dtype (params[k]) == GNN_DTYPE_FLOAT32;
          any = TRUE;
        }
    if (mixed && any)
      {
        g_autoptr(GnnTensor) xf = gnn_tensor_to_dtype (self, GNN_DTYPE_FLOAT32, error);
        GnnTensor *r = xf ? gnn_tensor_batch_norm (xf, running_mean, running_var, weight, bias, training,
                                                   momentum, eps, error) : NULL;

        return gnn_half_result (r, d, error);
      }
  }
  shape = gnn_tensor_get_shape (self, &ndim);
  if (ndim < 2)
    {
      g_autofree char *s = gnn_shape_to_string (ndim, shape);

      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "batch_norm: expected an input of at least 2 dimensions (N, C, *), got shape %s", s);
      return NULL;
    }
  if (!check_per_channel ("batch_norm", "running_mean", running_mean, shape[1], error) ||
      !check_per_channel ("batch_norm", "running_var", running_var, shape[1], error) ||
      !check_per_channel ("batch_norm", "weight", weight, shape[1], error) ||
      !check_per_channel ("batch_norm", "bias", bias, shape[1], error) ||
      !check_same_dtype ("batch_norm", self, "running_mean", running_mean, error) ||
      !check_same_dtype ("batch_norm", self, "running_var", running_var, error) ||
      !check_same_dtype ("batch_norm", self, "weight", weight, error) ||
      !check_same_dtype ("batch_norm", self, "bias", bias, error))
    return NULL;
  for (guint i = 0; i < ndim; i++)
    {
      stat_shape[i] = i == 1 ? shape[1] : 1;
      if (i != 1)
        dims[n_dims++] = i;
    }

  if (!training)
    {
      if (running_mean == NULL || running_var == NULL)
        {
          g_set_error_literal (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                               "batch_norm: running_mean and running_var must be defined in evaluation mode");
          return NULL;
        }
      if (!(mean = gnn_tensor_reshape (running_mean, stat_shape, ndim, error)) ||
          !(var = gnn_tensor_reshape (running_var, stat_shape, ndim, error)) ||
          !(y = normalize (self, mean, var, eps, error)))
        return NULL;
      return affine (g_steal_pointer (&y), weight, bias, stat_shape, ndim, error);
    }

  count = shape[1] ? gnn_tensor_get_numel (self) / shape[1] : 0;
  if (count <= 1)
    {
      g_autofree char *s = gnn_shape_to_string (ndim, shape);

      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "batch_norm: Expected more than 1 value per channel when training, got input size %s", s);
      return NULL;
    }
  if (batch_norm_fused_usable (self, weight, bias))
    {
      y = gnn_batch_norm_train_fused (self, weight, bias, eps, &mean, &var, error);
      if (y == NULL)
        return NULL;
    }
  else
    {
      if (!(mean = gnn_tensor_mean (self, dims, n_dims, TRUE, error)) ||
          !(var = gnn_tensor_var (self, dims, n_dims, 0.0, TRUE, error)) ||
          !(y = normalize (self, mean, var, eps, error)) ||
          !(y = affine (y, weight, bias, stat_shape, ndim, error)))
        return NULL;
    }
  if (running_mean && running_var)
    {
      g_autoptr(GnnNoGradGuard) guard = gnn_no_grad_guard_new ();
      g_autoptr(GnnTensor) m = NULL, v = NULL, uv = NULL;
      gint64 c = shape[1];

      if (!(m = gnn_tensor_reshape (mean, &c, 1, error)) ||
          !(v = gnn_tensor_reshape (var, &c, 1, error)) ||
          !(uv = gnn_tensor_mul_scalar (v, (double) count / (double) (count - 1), error)) ||
          !gnn_tensor_lerp_ (running_mean, m, momentum, error) ||
          !gnn_tensor_lerp_ (running_var, uv, momentum, error))
        return NULL;
    }
  return g_steal_pointer (&y);
}

/* @t (C) repeated @n times, (n · C), or NULL for NULL; a new tensor (a copy) */
static gboolean
repeat_channels (GnnTensor  *t,
                 gint64      n,
                 GnnTensor **out,
                 GError    **error)
{
  g_autoptr(GnnTensor) vec = NULL, row = NULL, wide = NULL, dense = NULL;
  gint64 c, shape[2], flat;

  *out = NULL;
  if (t == NULL)
    return TRUE;
  c = gnn_tensor_get_numel (t);
  shape[0] = n;
  shape[1] = c;
  flat = n * c;
  if (!(vec = gnn_tensor_reshape (t, &shape[1], 1, error)) ||
      !(row = gnn_tensor_unsqueeze (vec, 0, error)) ||
      !(wide = gnn_tensor_expand (row, shape, 2, error)) ||
      !(dense = gnn_tensor_contiguous (wide, error)))
    return FALSE;
  *out = gnn_tensor_reshape (dense, &flat, 1, error);
  return *out != NULL;
}

/**
 * gnn_tensor_instance_norm:
 * @self: the input, (N, C, ...)
 * @running_mean: (nullable): the running mean, (C), updated in place when @use_input_stats
 * @running_var: (nullable): the running variance, (C), updated in place when @use_input_stats
 * @weight: (nullable): the scale, (C), or %NULL for none
 * @bias: (nullable): the shift, (C), or %NULL for none
 * @use_input_stats: whether to normalise each instance with its own statistics
 * @momentum: the weight of the instances' statistics in the running ones
 * @eps: added to the variance before its square root
 * @error: return location for a #GError
 *
 * Instance normalisation, as `torch.nn.functional.instance_norm`: each (sample, channel)
 * plane normalised over its own elements, then y · weight + bias per channel. It is
 * [method@Gnn.Tensor.batch_norm] of the input seen as (1, N · C, ...), as torch computes it:
 * the running statistics (when given) move towards the mean over the samples of the
 * instances' statistics; without @use_input_stats they are used instead.
 *
 * Returns: (transfer full): the normalised input, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_instance_norm (GnnTensor *self,
                          GnnTensor *running_mean,
                          GnnTensor *running_var,
                          GnnTensor *weight,
                          GnnTensor *bias,
                          gboolean   use_input_stats,
                          double     momentum,
                          double     eps,
                          GError   **error)
{
  g_autoptr(GnnTensor) x = NULL, w = NULL, b = NULL, rm = NULL, rv = NULL, y = NULL;
  gint64 shape2[GNN_MAX_DIMS];
  const gint64 *shape;
  guint ndim;

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  shape = gnn_tensor_get_shape (self, &ndim);
  if (ndim < 2)
    {
      g_autofree char *s = gnn_shape_to_string (ndim, shape);

      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "instance_norm: expected an input of at least 2 dimensions (N, C, *), got shape %s", s);
      return NULL;
    }
  if (use_input_stats && gnn_tensor_get_numel (self) / MAX (shape[0] * shape[1], 1) <= 1)
    {
      g_autofree char *s = gnn_shape_to_string (ndim, shape);

      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "instance_norm: Expected more than 1 spatial element when training, got input size %s", s);
      return NULL;
    }
  if (!check_per_channel ("instance_norm", "running_mean", running_mean, shape[1], error) ||
      !check_per_channel ("instance_norm", "running_var", running_var, shape[1], error) ||
      !check_per_channel ("instance_norm", "weight", weight, shape[1], error) ||
      !check_per_channel ("instance_norm", "bias", bias, shape[1], error))
    return NULL;
  shape2[0] = 1;
  shape2[1] = shape[0] * shape[1];
  memcpy (shape2 + 2, shape + 2, (ndim - 2) * sizeof (gint64));
  if (!(x = gnn_tensor_reshape (self, shape2, ndim, error)) ||
      !repeat_channels (weight, shape[0], &w, error) ||
      !repeat_channels (bias, shape[0], &b, error))
    return NULL;
  {
    g_autoptr(GnnNoGradGuard) guard = gnn_no_grad_guard_new ();

    if (!repeat_channels (running_mean, shape[0], &rm, error) ||
        !repeat_channels (running_var, shape[0], &rv, error))
      return NULL;
  }
  if (!(y = gnn_tensor_batch_norm (x, rm, rv, w, b, use_input_stats, momentum, eps, error)))
    {
      g_prefix_error (error, "instance_norm: ");
      return NULL;
    }
  if (use_input_stats && running_mean && running_var)
    {
      g_autoptr(GnnNoGradGuard) guard = gnn_no_grad_guard_new ();
      GnnTensor *runs[2] = { running_mean, running_var }, *repeated[2] = { rm, rv };
      gint64 nc[2] = { shape[0], shape[1] };
      int dim0 = 0;

      for (guint k = 0; k < 2; k++)
        {
          g_autoptr(GnnTensor) per_sample = NULL, avg = NULL;

          if (!(per_sample = gnn_tensor_reshape (repeated[k], nc, 2, error)) ||
              !(avg = gnn_tensor_mean (per_sample, &dim0, 1, FALSE, error)) ||
              !gnn_tensor_copy_ (runs[k], avg, error))
            return NULL;
        }
    }
  return gnn_tensor_reshape (y, shape, ndim, error);
}

/**
 * gnn_tensor_layer_norm:
 * @self: the input, (*, normalized_shape...)
 * @normalized_shape: (array length=n_dims): the trailing dimensions normalised over
 * @n_dims: the length of @normalized_shape, at least 1
 * @weight: (nullable): the scale, of shape @normalized_shape, or %NULL for none
 * @bias: (nullable): the shift, of shape @normalized_shape, or %NULL for none
 * @eps: added to the variance before its square root
 * @error: return location for a #GError
 *
 * Layer normalisation, as `torch.nn.functional.layer_norm`: the input normalised over its
 * last @n_dims dimensions with their mean and biased variance, then y · weight + bias
 * elementwise. This is what [class@Gnn.LayerNorm] runs.
 *
 * Returns: (transfer full): the normalised input, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_layer_norm (GnnTensor    *self,
                       const gint64 *normalized_shape,
                       guint         n_dims,
                       GnnTensor    *weight,
                       GnnTensor    *bias,
                       double        eps,
                       GError      **error)
{
  g_autoptr(GnnTensor) mean = NULL, var = NULL, y = NULL;
  GnnTensor *params[2] = { weight, bias };
  const char *names[2] = { "weight", "bias" };
  int dims[GNN_MAX_DIMS];
  const gint64 *shape;
  guint ndim;

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  g_return_val_if_fail (normalized_shape != NULL || n_dims == 0, NULL);
  shape = gnn_tensor_get_shape (self, &ndim);
  if (n_dims == 0 || n_dims > GNN_MAX_DIMS || ndim < n_dims ||
      memcmp (shape + ndim - n_dims, normalized_shape, n_dims * sizeof (gint64)) != 0)
    {
      g_autofree char *want = gnn_shape_to_string (n_dims, normalized_shape);
      g_autofree char *got = gnn_shape_to_string (ndim, shape);

      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "layer_norm: Given normalized_shape=%s, expected input with shape [*, %s, but got input of size%s",
                   want, n_dims ? want + 1 : "]", got);
      return NULL;
    }
  for (guint k = 0; k < 2; k++)
    {
      guint pn;
      const gint64 *ps;

      if (params[k] == NULL)
        continue;
      ps = gnn_tensor_get_shape (params[k], &pn);
      if (pn != n_dims || memcmp (ps, normalized_shape, n_dims * sizeof (gint64)) != 0)
        {
          g_autofree char *want = gnn_shape_to_string (n_dims, normalized_shape);
          g_autofree char *got = gnn_shape_to_string (pn, ps);

          g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                       "layer_norm: Expected %s to be of same shape as normalized_shape, but got %s of shape %s "
                       "and normalized_shape = %s", names[k], names[k], got, want);
          return NULL;
        }
    }
  for (guint i = 0; i < n_dims; i++)
    dims[i] = ndim - n_dims + i;
  if (!(mean = gnn_tensor_mean (self, dims, n_dims, TRUE, error)) ||
      !(var = gnn_tensor_var (self, dims, n_dims, 0.0, TRUE, error)) ||
      !(y = normalize (self, mean, var, eps, error)))
    return NULL;
  return affine (g_steal_pointer (&y), weight, bias, NULL, 0, error);
}

/**
 * gnn_tensor_group_norm:
 * @self: the input, (N, C, ...)
 * @num_groups: the number of groups the channels are split into; it divides C
 * @weight: (nullable): the scale, (C), or %NULL for none
 * @bias: (nullable): the shift, (C), or %NULL for none
 * @eps: added to the variance before its square root
 * @error: return location for a #GError
 *
 * Group normalisation, as `torch.nn.functional.group_norm`: the channels of each sample
 * split into @num_groups groups, each normalised over its channels and spatial elements with
 * their mean and biased variance, then y · weight + bias per channel. This is what
 * [class@Gnn.GroupNorm] runs.
 *
 * Returns: (transfer full): the normalised input, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_group_norm (GnnTensor *self,
                       gint64     num_groups,
                       GnnTensor *weight,
                       GnnTensor *bias,
                       double     eps,
                       GError   **error)
{
  g_autoptr(GnnTensor) grouped = NULL, mean = NULL, var = NULL, normed = NULL, y = NULL;
  gint64 gshape[3], stat_shape[GNN_MAX_DIMS];
  const gint64 *shape;
  int dim2 = 2;
  guint ndim;

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  shape = gnn_tensor_get_shape (self, &ndim);
  if (ndim < 2)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "group_norm: Expected at least 2 dimensions for input tensor but received %u", ndim);
      return NULL;
    }
  if (num_groups <= 0 || shape[1] % num_groups != 0)
    {
      g_autofree char *s = gnn_shape_to_string (ndim, shape);

      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "group_norm: Expected number of channels in input to be divisible by num_groups, "
                   "but got input of shape %s and num_groups=%" G_GINT64_FORMAT, s, num_groups);
      return NULL;
    }
  if (!check_per_channel ("group_norm", "weight", weight, shape[1], error) ||
      !check_per_channel ("group_norm", "bias", bias, shape[1], error))
    return NULL;
  gshape[0] = shape[0];
  gshape[1] = num_groups;
  gshape[2] = shape[1] / num_groups;
  for (guint i = 2; i < ndim; i++)
    gshape[2] *= shape[i];
  for (guint i = 0; i < ndim; i++)
    stat_shape[i] = i == 1 ? shape[1] : 1;
  if (!(grouped = gnn_tensor_reshape (self, gshape, 3, error)) ||
      !(mean = gnn_tensor_mean (grouped, &dim2, 1, TRUE, error)) ||
      !(var = gnn_tensor_var (grouped, &dim2, 1, 0.0, TRUE, error)) ||
      !(normed = normalize (grouped, mean, var, eps, error)) ||
      !(y = gnn_tensor_reshape (normed, shape, ndim, error)))
    return NULL;
  return affine (g_steal_pointer (&y), weight, bias, stat_shape, ndim, error);
}
