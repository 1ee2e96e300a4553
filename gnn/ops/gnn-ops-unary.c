/* gnn-ops-unary.c: elementwise unary ops and activations
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Dtype rules follow PyTorch 1.13: neg, abs, sign, clamp and relu keep integer dtypes;
 * exp, log, sqrt, sigmoid and tanh turn integer and bool inputs into float32; leaky_relu,
 * elu, gelu and silu accept floating-point tensors only. float16 and bfloat16 compute in
 * float32 and are stored back.
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "gnn-ops-private.h"

typedef enum {
  SAVE_NOTHING,
  SAVE_INPUT,
  SAVE_RESULT,
} SaveWhat;

#define NEEDS(j) (node->edges[(j)].node != NULL)

/* ---- helpers ------------------------------------------------------------------------ */

/* @g as the gradient of input 0: @g's values in the input's dtype (shapes always match). */
static gboolean
set_grad (GnnNode *node, GnnTensor **gi, GnnTensor *g, GError **error)
{
  if (g == NULL)
    return FALSE;
  gi[0] = gnn_tensor_cast (g, node->in_dtype[0], error);
  return gi[0] != NULL;
}

/* @g (transfer full) cast in place of itself to the dtype of input @j */
static gboolean
set_grad_at (GnnNode *node, GnnTensor **gi, guint j, GError **error)
{
  GnnTensor *c = gnn_tensor_cast (gi[j], node->in_dtype[j], error);

  g_clear_object (&gi[j]);
  gi[j] = c;
  return c != NULL;
}

/* leaky_relu, elu, gelu, silu: PyTorch has no integer kernels for them */
static GnnTensor *
not_floating_error (const char *name, GnnTensor *self, GError **error)
{
  g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE,
               "%s: not implemented for %s tensors; expected a floating-point tensor",
               name, gnn_dtype_get_name (gnn_tensor_priv (self)->dtype));
  return NULL;
}

/* When an op on @self records, makes the node with @backward, saving the input or the
 * result and a copy of the kernel parameters @params. */
static void
unary_record (GnnTensor             *self,
              GnnTensor             *out,
              const GnnKernelParams *params,
              const char      *grad_fn,
              GnnBackwardFunc  backward,
              SaveWhat         save)
{
  GnnNode *node = gnn_autograd_record (grad_fn, backward, &self, 1, &out, 1);

  if (node == NULL)
    return;
  if (save == SAVE_INPUT)
    gnn_node_save (node, self);
  else if (save == SAVE_RESULT)
    gnn_node_save (node, out);
  if (params)
    gnn_node_set_ctx (node, g_memdup2 (params, sizeof *params), g_free);
}

/* Runs a unary kernel with the parameters @params, giving @out_dtype (computed in its
 * compute dtype). No autograd. */
static GnnTensor *
unary_forward (const char            *name,
               GnnBackendOp           op,
               GnnTensor             *self,
               GnnDtype               out_dtype,
               const GnnKernelParams *params,
               GError               **error)
{
  return gnn_elementwise (name, op, &self, 1, gnn_compute_dtype (out_dtype), out_dtype, params, error);
}

/* unary_forward, then unary_record. */
static GnnTensor *
unary_op (const char            *name,
          GnnBackendOp           op,
          GnnTensor             *self,
          GnnDtype               out_dtype,
          const GnnKernelParams *params,
          const char            *grad_fn,
          GnnBackwardFunc        backward,
          SaveWhat               save,
          GError               **error)
{
  GnnTensor *out = unary_forward (name, op, self, out_dtype, params, error);

  if (out)
    unary_record (self, out, params, grad_fn, backward, save);
  return out;
}

/* The dtype of exp, log, sqrt, sigmoid, tanh: integers and bool give float32. */
static GnnDtype
float_result (GnnTensor *self)
{
  GnnDtype d = gnn_tensor_priv (self)->dtype;
  return gnn_dtype_is_floating (d) ? d : GNN_DTYPE_FLOAT32;
}

/* ---- backward functions ------------------------------------------------------------- */

/* A fused backward kernel out = K (a, b): a the incoming gradient, b the saved input or
 * result, K linear in a. Under create_graph its application is a node of its own (torch's
 * "...BackwardBackward0"), whose backward is K again for a and a formula in ops for b. */
typedef struct {
  GnnBackendOp op;
  gboolean has_params;
  GnnKernelParams params;
  const char *name;
} FusedCtx;

static gboolean fused_backward_backward (GnnNode *node, GnnTensor **go, GnnTensor **gi, GError **error);

static const char *
fused_backward_name (GnnBackendOp op)
{
  switch (op)
    {
    case GNN_BACKEND_OP_RELU_BACKWARD: return "ThresholdBackwardBackward0";
    case GNN_BACKEND_OP_LEAKY_RELU_BACKWARD: return "LeakyReluBackwardBackward0";
    case GNN_BACKEND_OP_ELU_BACKWARD: return "EluBackwardBackward0";
    case GNN_BACKEND_OP_GELU_BACKWARD: return "GeluBackwardBackward0";
    case GNN_BACKEND_OP_SILU_BACKWARD: return "SiluBackwardBackward0";
    case GNN_BACKEND_OP_SIGMOID_BACKWARD: return "SigmoidBackwardBackward0";
    case GNN_BACKEND_OP_TANH_BACKWARD: return "TanhBackwardBackward0";
    default: g_assert_not_reached ();
    }
}

/* K (a, b) in @dtype, recorded (as a node differentiable again) when grad mode is on and
 * a or b requires grad */
static GnnTensor *
fused_apply (const char *name, GnnBackendOp op, const GnnKernelParams *params, GnnTensor *a,
             GnnTensor *b, GnnDtype dtype, GError **error)
{
  GnnTensor *ins[2] = { a, b };
  GnnTensor *out = gnn_elementwise (name, op, ins, 2, gnn_compute_dtype (dtype), dtype, params, error);
  GnnNode *node;

  if (out && (node = gnn_autograd_record (fused_backward_name (op), fused_backward_backward, ins, 2, &out, 1)))
    {
      FusedCtx *ctx = g_new0 (FusedCtx, 1);

      ctx->op = op;
      ctx->has_params = params != NULL;
      if (params)
        ctx->params = *params;
      ctx->name = name;
      gnn_node_save (node, a);
      gnn_node_save (node, b);
      gnn_node_set_ctx (node, ctx, g_free);
    }
  return out;
}

/* ∂K/∂b · a for each kernel, in ops: NULL with no error where it is zero */
static GnnTensor *
fused_second_derivative (const FusedCtx *ctx, GnnTensor *a, GnnTensor *b, gboolean *failed, GError **error)
{
  g_autoptr(GnnTensor) t1 = NULL, t2 = NULL, t3 = NULL, t4 = NULL, t5 = NULL;

  *failed = FALSE;
  switch (ctx->op)
    {
    case GNN_BACKEND_OP_RELU_BACKWARD:
    case GNN_BACKEND_OP_LEAKY_RELU_BACKWARD:
      return NULL;
    case GNN_BACKEND_OP_ELU_BACKWARD:
      /* b <= 0: a α e^b */
      {
        g_autoptr(GnnTensor) mask = NULL, zero = NULL;
        if ((mask = gnn_tensor_le_scalar (b, 0.0, error)) && (t1 = gnn_tensor_exp (b, error)) &&
            (t2 = gnn_tensor_mul (a, t1, error)) &&
            (t3 = gnn_tensor_mul_scalar (t2, ctx->params.elu.alpha, error)) &&
            (zero = gnn_tensor_new_zeros_like (a, gnn_tensor_priv (t3)->dtype, 0, NULL, error)))
          return gnn_where (mask, t3, zero, error);
        break;
      }
    case GNN_BACKEND_OP_SIGMOID_BACKWARD:
      /* a (1 − 2y) */
      if ((t1 = gnn_tensor_mul_scalar (b, -2.0, error)) && (t2 = gnn_tensor_add_scalar (t1, 1.0, error)))
        return gnn_tensor_mul (a, t2, error);
      break;
    case GNN_BACKEND_OP_TANH_BACKWARD:
      /* −2 a y */
      if ((t1 = gnn_tensor_mul (a, b, error)))
        return gnn_tensor_mul_scalar (t1, -2.0, error);
      break;
    case GNN_BACKEND_OP_SILU_BACKWARD:
      /* a σ (1 − σ) (2 + x (1 − 2σ)) */
      {
        g_autoptr(GnnTensor) sg = NULL, one_minus = NULL;
        if ((sg = gnn_tensor_sigmoid (b, error)) && (one_minus = gnn_tensor_rsub_scalar (sg, 1.0, error)) &&
            (t1 = gnn_tensor_mul (sg, one_minus, error)) && (t2 = gnn_tensor_mul_scalar (sg, -2.0, error)) &&
            (t3 = gnn_tensor_add_scalar (t2, 1.0, error)) && (t4 = gnn_tensor_mul (b, t3, error)) &&
            (t5 = gnn_tensor_add_scalar (t4, 2.0, error)))
          {
            g_autoptr(GnnTensor) prod = gnn_tensor_mul (t1, t5, error);
            return prod ? gnn_tensor_mul (a, prod, error) : NULL;
          }
        break;
      }
    case GNN_BACKEND_OP_GELU_BACKWARD:
      if (ctx->params.gelu.approximate != 0)
        {
          g_set_error_literal (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED,
                               "the double backward of gelu with approximate='tanh' is not implemented");
          break;
        }
      /* a φ(x) (2 − x²), φ(x) = e^(−x²/2) / √(2π) */
      {
        g_autoptr(GnnTensor) x2 = NULL;
        if ((x2 = gnn_tensor_mul (b, b, error)) && (t1 = gnn_tensor_mul_scalar (x2, -0.5, error)) &&
            (t2 = gnn_tensor_exp (t1, error)) && (t3 = gnn_tensor_rsub_scalar (x2, 2.0, error)) &&
            (t4 = gnn_tensor_mul (t2, t3, error)) && (t5 = gnn_tensor_mul_scalar (t4, 1.0 / sqrt (2.0 * G_PI), error)))
          return gnn_tensor_mul (a, t5, error);
        break;
      }
    default:
      g_assert_not_reached ();
    }
  *failed = TRUE;
  return NULL;
}

/* the backward of K (a, b): K (g, b) for a, g ∂K/∂b for b */
static gboolean
fused_backward_backward (GnnNode *node, GnnTensor **go, GnnTensor **gi, GError **error)
{
  const FusedCtx *ctx = node->ctx;
  GnnTensor *a, *b;

  if (go[0] == NULL)
    return TRUE;
  if (!(a = gnn_node_saved (node, 0, error)) || !(b = gnn_node_saved (node, 1, error)))
    return FALSE;
  if (NEEDS (0) && !(gi[0] = fused_apply (ctx->name, ctx->op, ctx->has_params ? &ctx->params : NULL, go[0], b,
                                          node->in_dtype[0], error)))
    return FALSE;
  if (NEEDS (1))
    {
      g_autoptr(GnnTensor) d = NULL;
      gboolean failed;

      d = fused_second_derivative (ctx, a, b, &failed, error);
      if (failed)
        return FALSE;
      if (d && !(gi[1] = gnn_tensor_mul (go[0], d, error)))
        return FALSE;
      if (gi[1] && !set_grad_at (node, gi, 1, error))
        return FALSE;
    }
  return TRUE;
}

/* Runs the fused backward kernel @op on (grad, saved 0) with the node's parameters. */
static gboolean
fused_backward (GnnNode *node, GnnBackendOp op, GnnTensor **go, GnnTensor **gi, GError **error)
{
  GnnTensor *b;

  if (go[0] == NULL || !NEEDS (0))
    return TRUE;
  if (!(b = gnn_node_saved (node, 0, error)))
    return FALSE;
  gi[0] = fused_apply (gnn_node_get_name (node), op, node->ctx, go[0], b, node->in_dtype[0], error);
  return gi[0] != NULL;
}

#define FUSED_BACKWARD(name, OP)                                                          \
static gboolean                                                                           \
name##_backward (GnnNode *node, GnnTensor **go, GnnTensor **gi, GError **error)           \
{                                                                                         \
  return fused_backward (node, GNN_BACKEND_OP_##OP, go, gi, error);                       \
}

/* relu:  g where result > 0 */
FUSED_BACKWARD (relu, RELU_BACKWARD)
/* leaky_relu:  g where x > 0, else slope * g */
FUSED_BACKWARD (leaky_relu, LEAKY_RELU_BACKWARD)
/* elu:  g where x > 0, else g * alpha * exp (x) */
FUSED_BACKWARD (elu, ELU_BACKWARD)
/* gelu:  g * gelu' (x) */
FUSED_BACKWARD (gelu, GELU_BACKWARD)
/* silu:  g * σ(x) (1 + x (1 − σ(x))) */
FUSED_BACKWARD (silu, SILU_BACKWARD)
/* sigmoid:  g * y (1 − y) */
FUSED_BACKWARD (sigmoid, SIGMOID_BACKWARD)
/* tanh:  g * (1 − y²) */
FUSED_BACKWARD (tanh, TANH_BACKWARD)

/* neg:  −g */
static gboolean
neg_backward (GnnNode *node, GnnTensor **go, GnnTensor **gi, GError **error)
{
  g_autoptr(GnnTensor) t = NULL;

  if (go[0] == NULL || !NEEDS (0))
    return TRUE;
  t = gnn_tensor_neg (go[0], error);
  return set_grad (node, gi, t, error);
}

/* exp:  g * y */
static gboolean
exp_backward (GnnNode *node, GnnTensor **go, GnnTensor **gi, GError **error)
{
  g_autoptr(GnnTensor) t = NULL;
  GnnTensor *y;

  if (go[0] == NULL || !NEEDS (0))
    return TRUE;
  if (!(y = gnn_node_saved (node, 0, error)))
    return FALSE;
  t = gnn_tensor_mul (go[0], y, error);
  return set_grad (node, gi, t, error);
}

/* log:  g / x */
static gboolean
log_backward (GnnNode *node, GnnTensor **go, GnnTensor **gi, GError **error)
{
  g_autoptr(GnnTensor) t = NULL;
  GnnTensor *x;

  if (go[0] == NULL || !NEEDS (0))
    return TRUE;
  if (!(x = gnn_node_saved (node, 0, error)))
    return FALSE;
  t = gnn_tensor_div (go[0], x, error);
  return set_grad (node, gi, t, error);
}

/* sqrt:  g / (2 y) */
static gboolean
sqrt_backward (GnnNode *node, GnnTensor **go, GnnTensor **gi, GError **error)
{
  g_autoptr(GnnTensor) two_y = NULL, t = NULL;
  GnnTensor *y;

  if (go[0] == NULL || !NEEDS (0))
    return TRUE;
  if (!(y = gnn_node_saved (node, 0, error)) || !(two_y = gnn_tensor_mul_scalar (y, 2.0, error)))
    return FALSE;
  t = gnn_tensor_div (go[0], two_y, error);
  return set_grad (node, gi, t, error);
}

/* abs:  g * sign (x), so 0 at x = 0 */
static gboolean
abs_backward (GnnNode *node, GnnTensor **go, GnnTensor **gi, GError **error)
{
  g_autoptr(GnnTensor) sg = NULL, t = NULL;
  GnnTensor *x;

  if (go[0] == NULL || !NEEDS (0))
    return TRUE;
  if (!(x = gnn_node_saved (node, 0, error)) || !(sg = gnn_tensor_sign (x, error)))
    return FALSE;
  t = gnn_tensor_mul (go[0], sg, error);
  return set_grad (node, gi, t, error);
}

/* sign:  0 */
static gboolean
sign_backward (GnnNode *node, GnnTensor **go, GnnTensor **gi, GError **error)
{
  if (go[0] == NULL || !NEEDS (0))
    return TRUE;
  gi[0] = gnn_tensor_new_zeros_like (go[0], node->in_dtype[0], node->in_ndim[0], node->in_shape[0], error);
  return gi[0] != NULL;
}

/* clamp, clamp_min, clamp_max:  g where min <= x <= max (the bounds the op has), else 0 */
static gboolean
clamp_backward (GnnNode *node, GnnTensor **go, GnnTensor **gi, GError **error)
{
  const GnnKernelParams *params = node->ctx;
  const gboolean has[2] = { params->clamp.has_min, params->clamp.has_max };
  g_autoptr(GnnTensor) zero = NULL, t = NULL;
  GnnTensor *x;

  if (go[0] == NULL || !NEEDS (0))
    return TRUE;
  if (!(x = gnn_node_saved (node, 0, error)) ||
      !(zero = gnn_tensor_new_zeros_like (go[0], gnn_tensor_priv (go[0])->dtype, 0, NULL, error)))
    return FALSE;
  t = g_object_ref (go[0]);
  for (guint b = 0; b < 2; b++)
    {
      g_autoptr(GnnTensor) mask = NULL;
      GnnTensor *next;

      if (!has[b])
        continue;
      mask = b == 0 ? gnn_tensor_ge_scalar (x, params->clamp.min, error)
                    : gnn_tensor_le_scalar (x, params->clamp.max, error);
      if (mask == NULL || !(next = gnn_where (mask, t, zero, error)))
        return FALSE;
      g_object_unref (t);
      t = next;
    }
  return set_grad (node, gi, t, error);
}

/* hardtanh:  g strictly between min and max, else 0 (PyTorch's hardtanh_backward) */
static gboolean
hardtanh_backward (GnnNode *node, GnnTensor **go, GnnTensor **gi, GError **error)
{
  const GnnKernelParams *params = node->ctx;
  g_autoptr(GnnTensor) zero = NULL, above = NULL, below = NULL, t = NULL, u = NULL;
  GnnTensor *x;

  if (go[0] == NULL || !NEEDS (0))
    return TRUE;
  if (!(x = gnn_node_saved (node, 0, error)) ||
      !(zero = gnn_tensor_new_zeros_like (go[0], gnn_tensor_priv (go[0])->dtype, 0, NULL, error)) ||
      !(below = gnn_tensor_le_scalar (x, params->clamp.min, error)) ||
      !(above = gnn_tensor_ge_scalar (x, params->clamp.max, error)) ||
      !(t = gnn_where (below, zero, go[0], error)) || !(u = gnn_where (above, zero, t, error)))
    return FALSE;
  return set_grad (node, gi, u, error);
}

/* ---- the ops ------------------------------------------------------------------------ */

/**
 * gnn_tensor_neg:
 * @self: a tensor, not bool
 * @error: return location for a #GError
 *
 * Negates elementwise (`torch.neg`). Integer dtypes are kept (uint8 wraps around);
 * a bool tensor is an error, as in PyTorch.
 *
 * Returns: (transfer full): −@self, or %NULL with @error set
 */
GnnTensor *
gnn_tensor_neg (GnnTensor *self, GError **error)
{
  GnnDtype d;

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  d = gnn_tensor_priv (self)->dtype;
  if (d == GNN_DTYPE_BOOL)
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_DTYPE,
                           "neg: Negation, the `-` operator, on a bool tensor is not supported. "
                           "If you are trying to invert a mask, use the `~` or `logical_not()` "
                           "operator instead.");
      return NULL;
    }
  return unary_op ("neg", GNN_BACKEND_OP_NEG, self, d, NULL, "NegBackward0", neg_backward,
                   SAVE_NOTHING, error);
}

/**
 * gnn_tensor_exp:
 * @self: a tensor
 * @error: return location for a #GError
 *
 * The exponential, elementwise (`torch.exp`). Integer and bool inputs give float32.
 *
 * Returns: (transfer full): e^@self, or %NULL with @error set
 */
GnnTensor *
gnn_tensor_exp (GnnTensor *self, GError **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  return unary_op ("exp", GNN_BACKEND_OP_EXP, self, float_result (self), NULL, "ExpBackward0",
                   exp_backward, SAVE_RESULT, error);
}

/**
 * gnn_tensor_log:
 * @self: a tensor
 * @error: return location for a #GError
 *
 * The natural logarithm, elementwise (`torch.log`): −inf at 0, NaN below. Integer and bool
 * inputs give float32.
 *
 * Returns: (transfer full): ln @self, or %NULL with @error set
 */
GnnTensor *
gnn_tensor_log (GnnTensor *self, GError **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  return unary_op ("log", GNN_BACKEND_OP_LOG, self, float_result (self), NULL, "LogBackward0",
                   log_backward, SAVE_INPUT, error);
}

/**
 * gnn_tensor_sqrt:
 * @self: a tensor
 * @error: return location for a #GError
 *
 * The square root, elementwise (`torch.sqrt`): NaN below 0. Integer and bool inputs give
 * float32. The gradient at 0 is infinite, as in PyTorch.
 *
 * Returns: (transfer full): √@self, or %NULL with @error set
 */
GnnTensor *
gnn_tensor_sqrt (GnnTensor *self, GError **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  return unary_op ("sqrt", GNN_BACKEND_OP_SQRT, self, float_result (self), NULL, "SqrtBackward0",
                   sqrt_backward, SAVE_RESULT, error);
}

/**
 * gnn_tensor_sqrt_:
 * @self: a floating-point tensor, changed in place
 * @error: return location for a #GError
 *
 * The square root in place (`Tensor.sqrt_`): NaN below 0. As optimizers use it, it records
 * no gradient: with grad mode on and @self requiring grad it fails
 * (%GNN_ERROR_NOT_SUPPORTED); run it under a no-grad guard.
 *
 * Returns: %TRUE on success; %FALSE with @error set
 */
gboolean
gnn_tensor_sqrt_ (GnnTensor *self, GError **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), FALSE);
  if (!gnn_check_floating ("sqrt_", self, error))
    return FALSE;
  if (gnn_autograd_needed (&self, 1))
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED,
                           "sqrt_: gradients through sqrt_ are not supported; run it with grad mode off");
      return FALSE;
    }
  if (!gnn_autograd_check_inplace (self, error) ||
      !gnn_elementwise_into ("sqrt_", GNN_BACKEND_OP_SQRT, self, &self, 1, NULL, error))
    return FALSE;
  gnn_commit_inplace (self, NULL);
  return TRUE;
}

/**
 * gnn_tensor_abs:
 * @self: a tensor, not bool
 * @error: return location for a #GError
 *
 * The absolute value, elementwise (`torch.abs`). Integer dtypes are kept. The gradient at
 * 0 is 0.
 *
 * Returns: (transfer full): |@self|, or %NULL with @error set
 */
GnnTensor *
gnn_tensor_abs (GnnTensor *self, GError **error)
{
  GnnDtype d;

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  d = gnn_tensor_priv (self)->dtype;
  if (d == GNN_DTYPE_BOOL)
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_DTYPE,
                           "abs: not implemented for bool tensors");
      return NULL;
    }
  return unary_op ("abs", GNN_BACKEND_OP_ABS, self, d, NULL, "AbsBackward0", abs_backward,
                   SAVE_INPUT, error);
}

/**
 * gnn_tensor_sign:
 * @self: a tensor
 * @error: return location for a #GError
 *
 * The sign, elementwise (`torch.sign`): −1, 0 or 1, and 0 for NaN. The dtype is kept
 * (a bool tensor gives itself). The gradient is zero.
 *
 * Returns: (transfer full): sign (@self), or %NULL with @error set
 */
GnnTensor *
gnn_tensor_sign (GnnTensor *self, GError **error)
{
  GnnDtype d;

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  d = gnn_tensor_priv (self)->dtype;
  if (d == GNN_DTYPE_BOOL)
    return gnn_tensor_clone_contiguous (self, d, error);
  return unary_op ("sign", GNN_BACKEND_OP_SIGN, self, d, NULL, "SignBackward0", sign_backward,
                   SAVE_NOTHING, error);
}

/**
 * gnn_tensor_sgn:
 * @self: a tensor
 * @error: return location for a #GError
 *
 * The sign of each element (`torch.sgn`, which for complex numbers is z / |z|): for gnn's real
 * dtypes the same values as [method@Gnn.Tensor.sign], recorded as SgnBackward0. Its gradient
 * is zero.
 *
 * Returns: (transfer full): sgn (@self), or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_sgn (GnnTensor *self, GError **error)
{
  GnnDtype d;

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  d = gnn_tensor_priv (self)->dtype;
  if (d == GNN_DTYPE_BOOL)
    return gnn_tensor_clone_contiguous (self, d, error);
  return unary_op ("sgn", GNN_BACKEND_OP_SIGN, self, d, NULL, "SgnBackward0", sign_backward, SAVE_NOTHING, error);
}

static gboolean
is_integral (double v)
{
  return isfinite (v) && v == nearbyint (v);
}

/* clamp on @self with the bounds that @has (bit 0 min, bit 1 max) says: PyTorch's dtype
 * rules for a tensor and Python-number bounds (a fractional bound on an integer tensor
 * gives float32, integral bounds on bool give int64). */
static GnnTensor *
clamp_op (const char *name, const char *grad_fn, GnnBackwardFunc backward, GnnTensor *self, double min,
          double max, gint64 has, GError **error)
{
  GnnDtype d = gnn_tensor_priv (self)->dtype;
  GnnKernelParams params = { .clamp = { min, max, (has & 1) != 0, (has & 2) != 0 } };
  GnnKernelParams kernel_params;
  GnnTensor *out;

  if (!gnn_dtype_is_floating (d))
    {
      gboolean integral = (!(has & 1) || is_integral (min)) && (!(has & 2) || is_integral (max));

      if (!integral)
        d = GNN_DTYPE_FLOAT32;
      else if (d == GNN_DTYPE_BOOL)
        d = GNN_DTYPE_INT64;
      else if (d == GNN_DTYPE_UINT8)
        /* PyTorch converts the bounds to uint8 first: -255..255 pass, negatives wrap */
        for (guint b = 0; b < 2; b++)
          {
            double *v = b == 0 ? &params.clamp.min : &params.clamp.max;
            if (!(has & (1 << b)))
              continue;
            if (*v < -255 || *v > 255)
              {
                g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                             "%s: value %.17g cannot be converted to type uint8 without overflow",
                             name, *v);
                return NULL;
              }
            if (*v < 0)
              *v += 256;
          }
    }
  kernel_params = params;
  /* A NaN bound (from clamp_min or clamp_max) makes every element NaN, as in PyTorch, and
   * the gradient zero (x >= NaN is false). Kernels only see the other bounds. */
  kernel_params.clamp.has_min = params.clamp.has_min && !isnan (min);
  kernel_params.clamp.has_max = params.clamp.has_max && !isnan (max);
  out = unary_forward (name, GNN_BACKEND_OP_CLAMP, self, d, &kernel_params, error);
  if (out && (kernel_params.clamp.has_min != params.clamp.has_min ||
              kernel_params.clamp.has_max != params.clamp.has_max) && gnn_tensor_get_numel (out) > 0 &&
      !gnn_tensor_fill_kernel (out, NAN, error))
    g_clear_object (&out);
  if (out)
    unary_record (self, out, &params, grad_fn, backward, SAVE_INPUT);
  return out;
}

/**
 * gnn_tensor_clamp:
 * @self: a tensor
 * @min: the lower bound, or NaN for none
 * @max: the upper bound, or NaN for none
 * @error: return location for a #GError
 *
 * Limits every element to [@min, @max] (`torch.clamp (self, min, max)`); NaN stands for
 * Python's `None`, and at least one bound must be given. When @min > @max every element
 * becomes @max. NaN elements stay NaN. A fractional bound on an integer tensor gives
 * float32, as a Python float does in PyTorch; integral bounds keep integer dtypes (bool
 * becomes int64). On uint8 the bounds are converted to uint8 first, as PyTorch does:
 * −255 to 255 are accepted and negative ones wrap around (−1 is 255). The gradient passes
 * where @min <= @self <= @max.
 *
 * Returns: (transfer full): the clamped tensor, or %NULL with @error set
 */
GnnTensor *
gnn_tensor_clamp (GnnTensor *self, double min, double max, GError **error)
{
  gint64 has = (isnan (min) ? 0 : 1) | (isnan (max) ? 0 : 2);

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  if (has == 0)
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                           "clamp: At least one of 'min' or 'max' must not be None");
      return NULL;
    }
  return clamp_op ("clamp", "ClampBackward1", clamp_backward, self, isnan (min) ? 0.0 : min, isnan (max) ? 0.0 : max,
                   has, error);
}

/**
 * gnn_tensor_clamp_min:
 * @self: a tensor
 * @min: the lower bound
 * @error: return location for a #GError
 *
 * Limits every element to at least @min (`torch.clamp_min`). A NaN bound makes every
 * element NaN, as in PyTorch. Dtypes follow [method@Gnn.Tensor.clamp]; the gradient passes
 * where @self >= @min.
 *
 * Returns: (transfer full): the clamped tensor, or %NULL with @error set
 */
GnnTensor *
gnn_tensor_clamp_min (GnnTensor *self, double min, GError **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  return clamp_op ("clamp_min", "ClampMinBackward0", clamp_backward, self, min, 0.0, 1, error);
}

/**
 * gnn_tensor_clamp_max:
 * @self: a tensor
 * @max: the upper bound
 * @error: return location for a #GError
 *
 * Limits every element to at most @max (`torch.clamp_max`). A NaN bound makes every
 * element NaN, as in PyTorch. Dtypes follow [method@Gnn.Tensor.clamp]; the gradient passes
 * where @self <= @max.
 *
 * Returns: (transfer full): the clamped tensor, or %NULL with @error set
 */
GnnTensor *
gnn_tensor_clamp_max (GnnTensor *self, double max, GError **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  return clamp_op ("clamp_max", "ClampMaxBackward0", clamp_backward, self, 0.0, max, 2, error);
}

/**
 * gnn_tensor_hardtanh:
 * @self: a tensor, not bool
 * @min_val: the lower bound (PyTorch's default is −1)
 * @max_val: the upper bound (PyTorch's default is 1)
 * @error: return location for a #GError
 *
 * @self limited to [@min_val, @max_val] (`torch.nn.functional.hardtanh`; relu6 is
 * hardtanh (0, 6)). The values and dtypes are those of [method@Gnn.Tensor.clamp]; the
 * gradient passes strictly between the bounds only, as PyTorch's (0 at the bounds themselves).
 *
 * Returns: (transfer full): hardtanh (@self), or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_hardtanh (GnnTensor *self, double min_val, double max_val, GError **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  if (gnn_tensor_priv (self)->dtype == GNN_DTYPE_BOOL)
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_DTYPE,
                           "hardtanh: not implemented for bool tensors");
      return NULL;
    }
  return clamp_op ("hardtanh", "HardtanhBackward0", hardtanh_backward, self, min_val, max_val, 3, error);
}

/**
 * gnn_tensor_relu:
 * @self: a tensor, not bool
 * @error: return location for a #GError
 *
 * The rectified linear unit max (@self, 0), elementwise (`torch.relu`). Integer dtypes
 * are kept; NaN stays NaN. The gradient at 0 is 0.
 *
 * Returns: (transfer full): relu (@self), or %NULL with @error set
 */
GnnTensor *
gnn_tensor_relu (GnnTensor *self, GError **error)
{
  GnnDtype d;

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  d = gnn_tensor_priv (self)->dtype;
  if (d == GNN_DTYPE_BOOL)
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_DTYPE,
                           "relu: Boolean inputs not supported for relu");
      return NULL;
    }
  return unary_op ("relu", GNN_BACKEND_OP_RELU, self, d, NULL, "ReluBackward0", relu_backward,
                   SAVE_RESULT, error);
}

/**
 * gnn_tensor_leaky_relu:
 * @self: a floating-point tensor
 * @negative_slope: the slope for negative inputs (PyTorch's default is 0.01)
 * @error: return location for a #GError
 *
 * @self where positive, @negative_slope × @self elsewhere
 * (`torch.nn.functional.leaky_relu`). The gradient at 0 is @negative_slope.
 *
 * Returns: (transfer full): leaky_relu (@self), or %NULL with @error set
 */
GnnTensor *
gnn_tensor_leaky_relu (GnnTensor *self, double negative_slope, GError **error)
{
  GnnKernelParams params = { .leaky_relu = { negative_slope } };

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  if (!gnn_dtype_is_floating (gnn_tensor_priv (self)->dtype))
    return not_floating_error ("leaky_relu", self, error);
  return unary_op ("leaky_relu", GNN_BACKEND_OP_LEAKY_RELU, self, gnn_tensor_priv (self)->dtype,
                   &params, "LeakyReluBackward0", leaky_relu_backward, SAVE_INPUT, error);
}

/**
 * gnn_tensor_elu:
 * @self: a floating-point tensor
 * @alpha: the scale of the negative part (PyTorch's default is 1.0)
 * @error: return location for a #GError
 *
 * The exponential linear unit: @self where positive, @alpha × (e^@self − 1) elsewhere
 * (`torch.nn.functional.elu`). The gradient at 0 is @alpha.
 *
 * Returns: (transfer full): elu (@self), or %NULL with @error set
 */
GnnTensor *
gnn_tensor_elu (GnnTensor *self, double alpha, GError **error)
{
  GnnKernelParams params = { .elu = { alpha } };

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  if (!gnn_dtype_is_floating (gnn_tensor_priv (self)->dtype))
    return not_floating_error ("elu", self, error);
  return unary_op ("elu", GNN_BACKEND_OP_ELU, self, gnn_tensor_priv (self)->dtype, &params,
                   "EluBackward0", elu_backward, SAVE_INPUT, error);
}

/**
 * gnn_tensor_gelu:
 * @self: a floating-point tensor
 * @approximate: (nullable): %NULL or "none" for the exact form, "tanh" for the tanh
 *   approximation
 * @error: return location for a #GError
 *
 * The Gaussian error linear unit (`torch.nn.functional.gelu`): @self × Φ(@self) with Φ the
 * standard normal distribution function, or, with "tanh",
 * @self / 2 × (1 + tanh (√(2/π) (@self + 0.044715 @self³))).
 *
 * Returns: (transfer full): gelu (@self), or %NULL with @error set
 */
GnnTensor *
gnn_tensor_gelu (GnnTensor *self, const char *approximate, GError **error)
{
  GnnKernelParams params = { .gelu = { 0 } };

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  if (approximate == NULL || strcmp (approximate, "none") == 0)
    params.gelu.approximate = 0;
  else if (strcmp (approximate, "tanh") == 0)
    params.gelu.approximate = 1;
  else
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "gelu: approximate argument must be either none or tanh, got '%s'", approximate);
      return NULL;
    }
  if (!gnn_dtype_is_floating (gnn_tensor_priv (self)->dtype))
    return not_floating_error ("gelu", self, error);
  return unary_op ("gelu", GNN_BACKEND_OP_GELU, self, gnn_tensor_priv (self)->dtype, &params,
                   "GeluBackward0", gelu_backward, SAVE_INPUT, error);
}

/**
 * gnn_tensor_silu:
 * @self: a floating-point tensor
 * @error: return location for a #GError
 *
 * The sigmoid linear unit @self × σ(@self), also called swish
 * (`torch.nn.functional.silu`).
 *
 * Returns: (transfer full): silu (@self), or %NULL with @error set
 */
GnnTensor *
gnn_tensor_silu (GnnTensor *self, GError **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  if (!gnn_dtype_is_floating (gnn_tensor_priv (self)->dtype))
    return not_floating_error ("silu", self, error);
  return unary_op ("silu", GNN_BACKEND_OP_SILU, self, gnn_tensor_priv (self)->dtype, NULL,
                   "SiluBackward0", silu_backward, SAVE_INPUT, error);
}

/**
 * gnn_tensor_sigmoid:
 * @self: a tensor
 * @error: return location for a #GError
 *
 * The logistic function 1 / (1 + e^−@self), elementwise (`torch.sigmoid`). Integer and
 * bool inputs give float32.
 *
 * Returns: (transfer full): σ(@self), or %NULL with @error set
 */
GnnTensor *
gnn_tensor_sigmoid (GnnTensor *self, GError **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  return unary_op ("sigmoid", GNN_BACKEND_OP_SIGMOID, self, float_result (self), NULL,
                   "SigmoidBackward0", sigmoid_backward, SAVE_RESULT, error);
}

/**
 * gnn_tensor_tanh:
 * @self: a tensor
 * @error: return location for a #GError
 *
 * The hyperbolic tangent, elementwise (`torch.tanh`). Integer and bool inputs give float32.
 *
 * Returns: (transfer full): tanh (@self), or %NULL with @error set
 */
GnnTensor *
gnn_tensor_tanh (GnnTensor *self, GError **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  return unary_op ("tanh", GNN_BACKEND_OP_TANH, self, float_result (self), NULL, "TanhBackward0",
                   tanh_backward, SAVE_RESULT, error);
}
