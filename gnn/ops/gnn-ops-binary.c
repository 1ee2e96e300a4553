/* gnn-ops-binary.c: broadcasting binary ops, comparisons, where, and in-place arithmetic
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "gnn-ops-private.h"

typedef struct {
  double alpha;
} AlphaCtx;

/* ---- backward functions ------------------------------------------------------------- */

/* Reduces @g (scaled by @scale unless 1) to input @j's shape and dtype. */
static GnnTensor *
grad_for_input (GnnNode *node, guint j, GnnTensor *g, double scale, GError **error)
{
  g_autoptr(GnnTensor) scaled = NULL;
  g_autoptr(GnnTensor) reduced = NULL;

  scaled = scale == 1.0 ? g_object_ref (g) : gnn_tensor_mul_scalar (g, scale, error);
  if (scaled == NULL)
    return NULL;
  reduced = gnn_sum_to (scaled, node->in_ndim[j], node->in_shape[j], error);
  if (reduced == NULL)
    return NULL;
  return gnn_tensor_cast (reduced, node->in_dtype[j], error);
}

#define NEEDS(j) (node->edges[(j)].node != NULL)

/* out = a + alpha * b:  ga = g,  gb = alpha * g */
static gboolean
add_backward (GnnNode *node, GnnTensor **go, GnnTensor **gi, GError **error)
{
  AlphaCtx *ctx = node->ctx;
  if (go[0] == NULL)
    return TRUE;
  if (NEEDS (0) && !(gi[0] = grad_for_input (node, 0, go[0], 1.0, error)))
    return FALSE;
  if (node->n_inputs > 1 && NEEDS (1) && !(gi[1] = grad_for_input (node, 1, go[0], ctx->alpha, error)))
    return FALSE;
  return TRUE;
}

/* out = a * b:  ga = g * b,  gb = g * a */
static gboolean
mul_backward (GnnNode *node, GnnTensor **go, GnnTensor **gi, GError **error)
{
  GnnTensor *a, *b;
  if (go[0] == NULL)
    return TRUE;
  if (!(a = gnn_node_saved (node, 0, error)) || !(b = gnn_node_saved (node, 1, error)))
    return FALSE;
  if (NEEDS (0))
    {
      g_autoptr(GnnTensor) t = gnn_tensor_mul (go[0], b, error);
      if (!t || !(gi[0] = grad_for_input (node, 0, t, 1.0, error)))
        return FALSE;
    }
  if (NEEDS (1))
    {
      g_autoptr(GnnTensor) t = gnn_tensor_mul (go[0], a, error);
      if (!t || !(gi[1] = grad_for_input (node, 1, t, 1.0, error)))
        return FALSE;
    }
  return TRUE;
}

/* out = a / b:  ga = g / b,  gb = -g * a / b² */
static gboolean
div_backward (GnnNode *node, GnnTensor **go, GnnTensor **gi, GError **error)
{
  GnnTensor *a, *b;
  g_autoptr(GnnTensor) ga = NULL;
  if (go[0] == NULL)
    return TRUE;
  if (!(a = gnn_node_saved (node, 0, error)) || !(b = gnn_node_saved (node, 1, error)))
    return FALSE;
  if (!(ga = gnn_tensor_div (go[0], b, error)))
    return FALSE;
  if (NEEDS (0) && !(gi[0] = grad_for_input (node, 0, ga, 1.0, error)))
    return FALSE;
  if (NEEDS (1))
    {
      g_autoptr(GnnTensor) t1 = gnn_tensor_mul (ga, a, error);
      g_autoptr(GnnTensor) t2 = t1 ? gnn_tensor_div (t1, b, error) : NULL;
      if (!t2 || !(gi[1] = grad_for_input (node, 1, t2, -1.0, error)))
        return FALSE;
    }
  return TRUE;
}

/* out = hypot (a, b):  ga = g * a / out,  gb = g * b / out (PyTorch's formula: NaN where a and b
 * are both 0); out is computed again rather than saved, which would keep it alive from its own
 * node */
static gboolean
hypot_backward (GnnNode *node, GnnTensor **go, GnnTensor **gi, GError **error)
{
  GnnTensor *ab[2];
  g_autoptr(GnnTensor) out = NULL;
  if (go[0] == NULL)
    return TRUE;
  if (!(ab[0] = gnn_node_saved (node, 0, error)) || !(ab[1] = gnn_node_saved (node, 1, error)) ||
      !(out = gnn_tensor_hypot (ab[0], ab[1], error)))
    return FALSE;
  for (guint j = 0; j < 2; j++)
    if (NEEDS (j))
      {
        g_autoptr(GnnTensor) t = gnn_tensor_mul (go[0], ab[j], error);
        g_autoptr(GnnTensor) q = t ? gnn_tensor_div (t, out, error) : NULL;
        if (!q || !(gi[j] = grad_for_input (node, j, q, 1.0, error)))
          return FALSE;
      }
  return TRUE;
}

/* A 0-d zero of @like's dtype on @like's device */
static GnnTensor *
zero_on_device_of (GnnTensor *like, GError **error)
{
  return gnn_tensor_new_zeros_like (like, gnn_tensor_priv (like)->dtype, 0, NULL, error);
}

/* out = a ^ b:  ga = g * b * a^(b-1),  gb = g * a^b * log a (0 where a == 0 and b >= 0) */
static gboolean
pow_backward (GnnNode *node, GnnTensor **go, GnnTensor **gi, GError **error)
{
  GnnTensor *a, *b;
  if (go[0] == NULL)
    return TRUE;
  if (!(a = gnn_node_saved (node, 0, error)) || !(b = gnn_node_saved (node, 1, error)))
    return FALSE;
  if (NEEDS (0))
    {
      g_autoptr(GnnTensor) bm1 = gnn_tensor_sub_scalar (b, 1.0, error);
      g_autoptr(GnnTensor) p = bm1 ? gnn_tensor_pow (a, bm1, error) : NULL;
      g_autoptr(GnnTensor) t = p ? gnn_tensor_mul (p, b, error) : NULL;
      g_autoptr(GnnTensor) t2 = t ? gnn_tensor_mul (t, go[0], error) : NULL;
      g_autoptr(GnnTensor) zero = t2 ? gnn_tensor_eq_scalar (b, 0.0, error) : NULL;
      g_autoptr(GnnTensor) z = zero ? zero_on_device_of (t2, error) : NULL;
      /* b == 0 gives a zero gradient even where a^(b-1) is infinite */
      g_autoptr(GnnTensor) t3 = z ? gnn_where (zero, z, t2, error) : NULL;
      if (!t3 || !(gi[0] = grad_for_input (node, 0, t3, 1.0, error)))
        return FALSE;
    }
  if (NEEDS (1))
    {
      g_autoptr(GnnTensor) p = gnn_tensor_pow (a, b, error);
      g_autoptr(GnnTensor) l = p ? gnn_tensor_log (a, error) : NULL;
      g_autoptr(GnnTensor) t = l ? gnn_tensor_mul (p, l, error) : NULL;
      g_autoptr(GnnTensor) t2 = t ? gnn_tensor_mul (t, go[0], error) : NULL;
      g_autoptr(GnnTensor) az = t2 ? gnn_tensor_eq_scalar (a, 0.0, error) : NULL;
      g_autoptr(GnnTensor) bp = az ? gnn_tensor_ge_scalar (b, 0.0, error) : NULL;
      g_autoptr(GnnTensor) mask = bp ? gnn_tensor_mul (az, bp, error) : NULL;
      g_autoptr(GnnTensor) z = mask ? zero_on_device_of (t2, error) : NULL;
      g_autoptr(GnnTensor) t3 = z ? gnn_where (mask, z, t2, error) : NULL;
      if (!t3 || !(gi[1] = grad_for_input (node, 1, t3, 1.0, error)))
        return FALSE;
    }
  return TRUE;
}

/* maximum / minimum: the gradient goes to the larger (smaller) input, halved on ties */
static gboolean
minmax_backward (GnnNode *node, GnnTensor **go, GnnTensor **gi, GError **error)
{
  gboolean is_max = GPOINTER_TO_INT (node->ctx);
  GnnTensor *a, *b;
  g_autoptr(GnnTensor) wins = NULL, ties = NULL, half = NULL, zero = NULL;
  g_autoptr(GnnTensor) ga = NULL, gb = NULL, tmp = NULL;

  if (go[0] == NULL)
    return TRUE;
  if (!(a = gnn_node_saved (node, 0, error)) || !(b = gnn_node_saved (node, 1, error)))
    return FALSE;
  if (!(wins = is_max ? gnn_tensor_gt (a, b, error) : gnn_tensor_lt (a, b, error)) ||
      !(ties = gnn_tensor_eq (a, b, error)) ||
      !(half = gnn_tensor_mul_scalar (go[0], 0.5, error)) ||
      !(zero = zero_on_device_of (go[0], error)) ||
      !(tmp = gnn_where (ties, half, zero, error)) ||
      !(ga = gnn_where (wins, go[0], tmp, error)))
    return FALSE;
  g_clear_object (&wins);
  if (!(wins = is_max ? gnn_tensor_lt (a, b, error) : gnn_tensor_gt (a, b, error)) ||
      !(gb = gnn_where (wins, go[0], tmp, error)))
    return FALSE;
  if (NEEDS (0) && !(gi[0] = grad_for_input (node, 0, ga, 1.0, error)))
    return FALSE;
  if (NEEDS (1) && !(gi[1] = grad_for_input (node, 1, gb, 1.0, error)))
    return FALSE;
  return TRUE;
}

/* where (c, a, b):  ga = where (c, g, 0),  gb = where (c, 0, g) */
static gboolean
where_backward (GnnNode *node, GnnTensor **go, GnnTensor **gi, GError **error)
{
  GnnTensor *c;
  g_autoptr(GnnTensor) zero = NULL;
  if (go[0] == NULL)
    return TRUE;
  if (!(c = gnn_node_saved (node, 0, error)) ||
      !(zero = zero_on_device_of (go[0], error)))
    return FALSE;
  if (NEEDS (1))
    {
      g_autoptr(GnnTensor) t = gnn_where (c, go[0], zero, error);
      if (!t || !(gi[1] = grad_for_input (node, 1, t, 1.0, error)))
        return FALSE;
    }
  if (NEEDS (2))
    {
      g_autoptr(GnnTensor) t = gnn_where (c, zero, go[0], error);
      if (!t || !(gi[2] = grad_for_input (node, 2, t, 1.0, error)))
        return FALSE;
    }
  return TRUE;
}

/* out = a ^ e (scalar e):  ga = g * e * a^(e-1) */
static gboolean
pow_scalar_backward (GnnNode *node, GnnTensor **go, GnnTensor **gi, GError **error)
{
  double e = ((AlphaCtx *) node->ctx)->alpha;
  GnnTensor *a;
  g_autoptr(GnnTensor) p = NULL, t = NULL;

  if (go[0] == NULL || !NEEDS (0))
    return TRUE;
  if (!(a = gnn_node_saved (node, 0, error)))
    return FALSE;
  if (e == 0.0)
    return (gi[0] = gnn_tensor_mul_scalar (go[0], 0.0, error)) != NULL;
  if (!(p = gnn_tensor_pow_scalar (a, e - 1.0, error)) || !(t = gnn_tensor_mul (p, go[0], error)))
    return FALSE;
  return (gi[0] = grad_for_input (node, 0, t, e, error)) != NULL;
}

/* ---- the ops ------------------------------------------------------------------------ */

static GnnDtype
arith_compute (GnnDtype result)
{
  return gnn_compute_dtype (result);
}

static GnnTensor *
binary_op (const char *name, const char *backward_name, GnnBackwardFunc backward, GnnBackendOp op,
           GnnTensor *a, GnnTensor *b, double alpha, gboolean true_div, gboolean save, GError **error)
{
  GnnDtype result = gnn_result_dtype (a, b);
  GnnTensor *out;
  GnnTensor *ins[2] = { a, b };
  GnnKernelParams params = { .add = { alpha } };
  GnnNode *node;

  if (true_div && !gnn_dtype_is_floating (result))
    result = GNN_DTYPE_FLOAT32;
  if (result == GNN_DTYPE_BOOL && op != GNN_BACKEND_OP_MUL && op != GNN_BACKEND_OP_MAXIMUM &&
      op != GNN_BACKEND_OP_MINIMUM && op != GNN_BACKEND_OP_ADD)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE,
                   "%s: not supported for bool tensors", name);
      return NULL;
    }
  out = gnn_elementwise (name, op, ins, 2, arith_compute (result), result, &params, error);
  if (out == NULL)
    return NULL;
  node = gnn_autograd_record (backward_name, backward, ins, 2, &out, 1);
  if (node)
    {
      if (save)
        {
          gnn_node_save (node, a);
          gnn_node_save (node, b);
        }
      if (backward == add_backward)
        {
          AlphaCtx *ctx = g_new (AlphaCtx, 1);
          ctx->alpha = op == GNN_BACKEND_OP_SUB ? -alpha : alpha;
          gnn_node_set_ctx (node, ctx, g_free);
        }
      else if (backward == minmax_backward)
        gnn_node_set_ctx (node, GINT_TO_POINTER (op == GNN_BACKEND_OP_MAXIMUM), NULL);
    }
  return out;
}

/**
 * gnn_tensor_add:
 * @self: a tensor
 * @other: the tensor to add, broadcast against @self
 * @alpha: the multiplier of @other
 * @error: return location for a #GError
 *
 * Computes @self + @alpha × @other (`torch.add (self, other, alpha=alpha)`), broadcasting and
 * promoting dtypes as PyTorch does.
 *
 * Returns: (transfer full): the sum, or %NULL with @error set
 */
GnnTensor *
gnn_tensor_add (GnnTensor *self, GnnTensor *other, double alpha, GError **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self) && GNN_IS_TENSOR (other), NULL);
  return binary_op ("add", "AddBackward0", add_backward, GNN_BACKEND_OP_ADD, self, other, alpha,
                    FALSE, FALSE, error);
}

/**
 * gnn_tensor_sub:
 * @self: a tensor
 * @other: the tensor to subtract, broadcast against @self
 * @alpha: the multiplier of @other
 * @error: return location for a #GError
 *
 * Computes @self − @alpha × @other (`torch.sub`).
 *
 * Returns: (transfer full): the difference, or %NULL with @error set
 */
GnnTensor *
gnn_tensor_sub (GnnTensor *self, GnnTensor *other, double alpha, GError **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self) && GNN_IS_TENSOR (other), NULL);
  return binary_op ("sub", "SubBackward0", add_backward, GNN_BACKEND_OP_SUB, self, other, alpha,
                    FALSE, FALSE, error);
}

/**
 * gnn_tensor_mul:
 * @self: a tensor
 * @other: a tensor broadcast against @self
 * @error: return location for a #GError
 *
 * Multiplies elementwise (`torch.mul`).
 *
 * Returns: (transfer full): the product, or %NULL with @error set
 */
GnnTensor *
gnn_tensor_mul (GnnTensor *self, GnnTensor *other, GError **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self) && GNN_IS_TENSOR (other), NULL);
  return binary_op ("mul", "MulBackward0", mul_backward, GNN_BACKEND_OP_MUL, self, other, 1.0,
                    FALSE, TRUE, error);
}

/**
 * gnn_tensor_div:
 * @self: a tensor
 * @other: a tensor broadcast against @self
 * @error: return location for a #GError
 *
 * Divides elementwise (`torch.div`, true division: integer inputs give float32).
 *
 * Returns: (transfer full): the quotient, or %NULL with @error set
 */
GnnTensor *
gnn_tensor_div (GnnTensor *self, GnnTensor *other, GError **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self) && GNN_IS_TENSOR (other), NULL);
  return binary_op ("div", "DivBackward0", div_backward, GNN_BACKEND_OP_DIV, self, other, 1.0,
                    TRUE, TRUE, error);
}

/**
 * gnn_tensor_pow:
 * @self: the base
 * @exponent: the exponent, broadcast against @self
 * @error: return location for a #GError
 *
 * Raises elementwise (`torch.pow`).
 *
 * Returns: (transfer full): the power, or %NULL with @error set
 */
GnnTensor *
gnn_tensor_pow (GnnTensor *self, GnnTensor *exponent, GError **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self) && GNN_IS_TENSOR (exponent), NULL);
  return binary_op ("pow", "PowBackward1", pow_backward, GNN_BACKEND_OP_POW, self, exponent, 1.0,
                    FALSE, TRUE, error);
}

/**
 * gnn_tensor_maximum:
 * @self: a tensor
 * @other: a tensor broadcast against @self
 * @error: return location for a #GError
 *
 * The elementwise maximum, propagating NaN (`torch.maximum`). On ties the gradient is shared.
 *
 * Returns: (transfer full): the maximum, or %NULL with @error set
 */
GnnTensor *
gnn_tensor_maximum (GnnTensor *self, GnnTensor *other, GError **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self) && GNN_IS_TENSOR (other), NULL);
  return binary_op ("maximum", "MaximumBackward0", minmax_backward, GNN_BACKEND_OP_MAXIMUM, self,
                    other, 1.0, FALSE, TRUE, error);
}

/**
 * gnn_tensor_minimum:
 * @self: a tensor
 * @other: a tensor broadcast against @self
 * @error: return location for a #GError
 *
 * The elementwise minimum, propagating NaN (`torch.minimum`). On ties the gradient is shared.
 *
 * Returns: (transfer full): the minimum, or %NULL with @error set
 */
GnnTensor *
gnn_tensor_minimum (GnnTensor *self, GnnTensor *other, GError **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self) && GNN_IS_TENSOR (other), NULL);
  return binary_op ("minimum", "MinimumBackward0", minmax_backward, GNN_BACKEND_OP_MINIMUM, self,
                    other, 1.0, FALSE, TRUE, error);
}

/**
 * gnn_tensor_hypot:
 * @self: a tensor
 * @other: a tensor broadcast against @self
 * @error: return location for a #GError
 *
 * The elementwise length of the hypotenuse, √(@self² + @other²), computed without undue
 * overflow or underflow (`torch.hypot`). The inputs must be floating-point, as in PyTorch.
 *
 * Returns: (transfer full): the hypotenuse, or %NULL with @error set
 */
GnnTensor *
gnn_tensor_hypot (GnnTensor *self, GnnTensor *other, GError **error)
{
  GnnDtype result;

  g_return_val_if_fail (GNN_IS_TENSOR (self) && GNN_IS_TENSOR (other), NULL);
  result = gnn_result_dtype (self, other);
  if (!gnn_dtype_is_floating (result))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE,
                   "hypot: expected floating-point tensors, got %s and %s",
                   gnn_dtype_get_name (gnn_tensor_priv (self)->dtype),
                   gnn_dtype_get_name (gnn_tensor_priv (other)->dtype));
      return NULL;
    }
  return binary_op ("hypot", "HypotBackward0", hypot_backward, GNN_BACKEND_OP_HYPOT, self, other,
                    1.0, FALSE, TRUE, error);
}

/* A zero-dimensional tensor for a Python-style scalar operand: it takes @self's dtype when
 * that is floating, float32 for a fractional value with an integer tensor, else int64. */
static GnnTensor *
wrap_scalar (GnnTensor *self, double value, GError **error)
{
  GnnDtype d = gnn_tensor_priv (self)->dtype;
  GnnStorage *st = gnn_tensor_priv (self)->storage;
  GnnTensor *t;

  if (!gnn_dtype_is_floating (d))
    d = (value != nearbyint (value) || !isfinite (value)) ? GNN_DTYPE_FLOAT32
        : (d == GNN_DTYPE_BOOL || d == GNN_DTYPE_UINT8) ? d : GNN_DTYPE_INT64;
  t = gnn_tensor_new_on (st->entry, st->device, d, 0, NULL, error);
  if (t == NULL)
    return NULL;
  if (!gnn_tensor_fill_ (t, value, error))
    g_clear_object (&t);
  return t;
}

#define SCALAR_OP(fname, expr, doc)                                                   \
GnnTensor *                                                                           \
fname (GnnTensor *self, double other, GError **error)                                 \
{                                                                                     \
  g_autoptr(GnnTensor) s = NULL;                                                      \
  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);                                  \
  if (!(s = wrap_scalar (self, other, error)))                                        \
    return NULL;                                                                      \
  return expr;                                                                        \
}

/**
 * gnn_tensor_add_scalar:
 * @self: a tensor
 * @other: a number
 * @error: return location for a #GError
 *
 * Computes @self + @other.
 *
 * Returns: (transfer full): the sum, or %NULL with @error set
 */
SCALAR_OP (gnn_tensor_add_scalar, gnn_tensor_add (self, s, 1.0, error), "")

/**
 * gnn_tensor_sub_scalar:
 * @self: a tensor
 * @other: a number
 * @error: return location for a #GError
 *
 * Computes @self − @other.
 *
 * Returns: (transfer full): the difference, or %NULL with @error set
 */
SCALAR_OP (gnn_tensor_sub_scalar, gnn_tensor_sub (self, s, 1.0, error), "")

/**
 * gnn_tensor_rsub_scalar:
 * @self: a tensor
 * @other: a number
 * @error: return location for a #GError
 *
 * Computes @other − @self (Python's `other - self`).
 *
 * Returns: (transfer full): the difference, or %NULL with @error set
 */
SCALAR_OP (gnn_tensor_rsub_scalar, gnn_tensor_sub (s, self, 1.0, error), "")

/**
 * gnn_tensor_mul_scalar:
 * @self: a tensor
 * @other: a number
 * @error: return location for a #GError
 *
 * Computes @self × @other.
 *
 * Returns: (transfer full): the product, or %NULL with @error set
 */
SCALAR_OP (gnn_tensor_mul_scalar, gnn_tensor_mul (self, s, error), "")

/**
 * gnn_tensor_div_scalar:
 * @self: a tensor
 * @other: a number
 * @error: return location for a #GError
 *
 * Computes @self / @other.
 *
 * Returns: (transfer full): the quotient, or %NULL with @error set
 */
SCALAR_OP (gnn_tensor_div_scalar, gnn_tensor_div (self, s, error), "")

/**
 * gnn_tensor_rdiv_scalar:
 * @self: a tensor
 * @other: a number
 * @error: return location for a #GError
 *
 * Computes @other / @self (Python's `other / self`).
 *
 * Returns: (transfer full): the quotient, or %NULL with @error set
 */
SCALAR_OP (gnn_tensor_rdiv_scalar, gnn_tensor_div (s, self, error), "")

/**
 * gnn_tensor_pow_scalar:
 * @self: the base
 * @exponent: the exponent
 * @error: return location for a #GError
 *
 * Raises every element to @exponent (`torch.pow (self, exponent)`).
 *
 * Returns: (transfer full): the power, or %NULL with @error set
 */
GnnTensor *
gnn_tensor_pow_scalar (GnnTensor *self, double exponent, GError **error)
{
  GnnDtype d;
  GnnKernelParams params = { .pow = { exponent } };
  GnnTensor *out;
  GnnNode *node;

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  d = gnn_tensor_priv (self)->dtype;
  if (!gnn_dtype_is_floating (d) && exponent != nearbyint (exponent))
    d = GNN_DTYPE_FLOAT32;
  else if (!gnn_dtype_is_floating (d))
    d = GNN_DTYPE_INT64;
  out = gnn_elementwise ("pow", GNN_BACKEND_OP_POW_SCALAR, &self, 1, gnn_compute_dtype (d), d, &params, error);
  if (out && (node = gnn_autograd_record ("PowBackward0", pow_scalar_backward, &self, 1, &out, 1)))
    {
      AlphaCtx *ctx = g_new (AlphaCtx, 1);
      ctx->alpha = exponent;
      gnn_node_set_ctx (node, ctx, g_free);
      gnn_node_save (node, self);
    }
  return out;
}

/* ---- comparisons and where ---------------------------------------------------------- */

static GnnTensor *
compare (const char *name, GnnBackendOp op, GnnTensor *a, GnnTensor *b, GError **error)
{
  GnnTensor *ins[2] = { a, b };
  return gnn_elementwise (name, op, ins, 2, gnn_compute_dtype (gnn_result_dtype (a, b)),
                          GNN_DTYPE_BOOL, NULL, error);
}

#define COMPARE_OPS(name, OP)                                                          \
GnnTensor *                                                                           \
gnn_tensor_##name (GnnTensor *self, GnnTensor *other, GError **error)                 \
{                                                                                     \
  g_return_val_if_fail (GNN_IS_TENSOR (self) && GNN_IS_TENSOR (other), NULL);         \
  return compare (#name, GNN_BACKEND_OP_##OP, self, other, error);                    \
}                                                                                     \
GnnTensor *                                                                           \
gnn_tensor_##name##_scalar (GnnTensor *self, double other, GError **error)            \
{                                                                                     \
  g_autoptr(GnnTensor) s = NULL;                                                      \
  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);                                  \
  if (!(s = wrap_scalar (self, other, error)))                                        \
    return NULL;                                                                      \
  return compare (#name, GNN_BACKEND_OP_##OP, self, s, error);                        \
}

/**
 * gnn_tensor_eq:
 * @self: a tensor
 * @other: a tensor broadcast against @self
 * @error: return location for a #GError
 *
 * Compares @self with another tensor, broadcasting the two, element by element (`torch.eq`,
 * `==`).
 *
 * Returns: (transfer full): a bool mask of @self == @other, or %NULL with @error set
 */
/**
 * gnn_tensor_eq_scalar:
 * @self: a tensor
 * @other: a number
 * @error: return location for a #GError
 *
 * Compares @self with a number, element by element (`torch.eq`, `==`).
 *
 * Returns: (transfer full): a bool mask of @self == @other, or %NULL with @error set
 */
COMPARE_OPS (eq, EQ)
/**
 * gnn_tensor_ne:
 * @self: a tensor
 * @other: a tensor broadcast against @self
 * @error: return location for a #GError
 *
 * Compares @self with another tensor, broadcasting the two, element by element (`torch.ne`,
 * `!=`).
 *
 * Returns: (transfer full): a bool mask of @self != @other, or %NULL with @error set
 */
/**
 * gnn_tensor_ne_scalar:
 * @self: a tensor
 * @other: a number
 * @error: return location for a #GError
 *
 * Compares @self with a number, element by element (`torch.ne`, `!=`).
 *
 * Returns: (transfer full): a bool mask of @self != @other, or %NULL with @error set
 */
COMPARE_OPS (ne, NE)
/**
 * gnn_tensor_lt:
 * @self: a tensor
 * @other: a tensor broadcast against @self
 * @error: return location for a #GError
 *
 * Compares @self with another tensor, broadcasting the two, element by element (`torch.lt`,
 * `<`).
 *
 * Returns: (transfer full): a bool mask of @self < @other, or %NULL with @error set
 */
/**
 * gnn_tensor_lt_scalar:
 * @self: a tensor
 * @other: a number
 * @error: return location for a #GError
 *
 * Compares @self with a number, element by element (`torch.lt`, `<`).
 *
 * Returns: (transfer full): a bool mask of @self < @other, or %NULL with @error set
 */
COMPARE_OPS (lt, LT)
/**
 * gnn_tensor_le:
 * @self: a tensor
 * @other: a tensor broadcast against @self
 * @error: return location for a #GError
 *
 * Compares @self with another tensor, broadcasting the two, element by element (`torch.le`,
 * `<=`).
 *
 * Returns: (transfer full): a bool mask of @self <= @other, or %NULL with @error set
 */
/**
 * gnn_tensor_le_scalar:
 * @self: a tensor
 * @other: a number
 * @error: return location for a #GError
 *
 * Compares @self with a number, element by element (`torch.le`, `<=`).
 *
 * Returns: (transfer full): a bool mask of @self <= @other, or %NULL with @error set
 */
COMPARE_OPS (le, LE)
/**
 * gnn_tensor_gt:
 * @self: a tensor
 * @other: a tensor broadcast against @self
 * @error: return location for a #GError
 *
 * Compares @self with another tensor, broadcasting the two, element by element (`torch.gt`,
 * `>`).
 *
 * Returns: (transfer full): a bool mask of @self > @other, or %NULL with @error set
 */
/**
 * gnn_tensor_gt_scalar:
 * @self: a tensor
 * @other: a number
 * @error: return location for a #GError
 *
 * Compares @self with a number, element by element (`torch.gt`, `>`).
 *
 * Returns: (transfer full): a bool mask of @self > @other, or %NULL with @error set
 */
COMPARE_OPS (gt, GT)
/**
 * gnn_tensor_ge:
 * @self: a tensor
 * @other: a tensor broadcast against @self
 * @error: return location for a #GError
 *
 * Compares @self with another tensor, broadcasting the two, element by element (`torch.ge`,
 * `>=`).
 *
 * Returns: (transfer full): a bool mask of @self >= @other, or %NULL with @error set
 */
/**
 * gnn_tensor_ge_scalar:
 * @self: a tensor
 * @other: a number
 * @error: return location for a #GError
 *
 * Compares @self with a number, element by element (`torch.ge`, `>=`).
 *
 * Returns: (transfer full): a bool mask of @self >= @other, or %NULL with @error set
 */
COMPARE_OPS (ge, GE)

/**
 * gnn_where:
 * @condition: a bool mask
 * @input: the values where @condition is true
 * @other: the values where @condition is false
 * @error: return location for a #GError
 *
 * Chooses elementwise (`torch.where (condition, input, other)`); all three broadcast.
 *
 * Returns: (transfer full): the chosen values, or %NULL with @error set
 */
GnnTensor *
gnn_where (GnnTensor *condition, GnnTensor *input, GnnTensor *other, GError **error)
{
  GnnTensor *ins[3] = { condition, input, other };
  GnnDtype result;
  GnnTensor *out;
  GnnNode *node;

  g_return_val_if_fail (GNN_IS_TENSOR (condition) && GNN_IS_TENSOR (input) && GNN_IS_TENSOR (other), NULL);
  if (gnn_tensor_priv (condition)->dtype != GNN_DTYPE_BOOL)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE,
                   "where: expected a bool condition, got %s",
                   gnn_dtype_get_name (gnn_tensor_priv (condition)->dtype));
      return NULL;
    }
  result = gnn_result_dtype (input, other);
  out = gnn_elementwise ("where", GNN_BACKEND_OP_WHERE, ins, 3, gnn_compute_dtype (result), result,
                         NULL, error);
  if (out && (node = gnn_autograd_record ("WhereBackward0", where_backward, ins, 3, &out, 1)))
    gnn_node_save (node, condition);
  return out;
}

/* ---- in place ----------------------------------------------------------------------- */

static gboolean
check_inplace_dtype (const char *name, GnnTensor *self, GnnTensor *other, GError **error)
{
  GnnDtype sd = gnn_tensor_priv (self)->dtype;
  GnnDtype r = gnn_result_dtype (self, other);

  if (gnn_dtype_is_floating (r) && !gnn_dtype_is_floating (sd))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE,
                   "%s: result type %s can't be cast to the desired output type %s",
                   name, gnn_dtype_get_name (r), gnn_dtype_get_name (sd));
      return FALSE;
    }
  return TRUE;
}

static gboolean
inplace_op (const char *name, const char *backward_name, GnnBackwardFunc backward, GnnBackendOp op,
            GnnTensor *self, GnnTensor **ins, guint n_ins, const GnnKernelParams *params, gboolean save,
            gpointer ctx, GDestroyNotify ctx_free, GError **error)
{
  GnnNode *node;
  gboolean allowed = TRUE;

  for (guint k = 1; k < n_ins && allowed; k++)
    allowed = check_inplace_dtype (name, self, ins[k], error);
  if (!allowed || !gnn_autograd_check_inplace (self, error))
    {
      if (ctx && ctx_free)
        ctx_free (ctx);
      return FALSE;
    }
  node = backward ? gnn_autograd_prepare_inplace (backward_name, backward, ins, n_ins) : NULL;
  if (node)
    {
      /* backward needs the value self had before the op: save a copy of it, as PyTorch
       * saves original_self, recorded as a clone of self's old history so that a double
       * backward (create_graph) differentiates through it; the other inputs are saved as
       * they are */
      if (save)
        for (guint k = 0; k < n_ins; k++)
          {
            if (k == 0)
              {
                g_autoptr(GnnTensor) original = gnn_tensor_clone (self, error);
                if (original == NULL)
                  {
                    gnn_node_unref (node);
                    if (ctx && ctx_free)
                      ctx_free (ctx);
                    return FALSE;
                  }
                gnn_node_save (node, original);
              }
            else
              gnn_node_save (node, ins[k]);
          }
      gnn_node_set_ctx (node, ctx, ctx_free);
      ctx = NULL;
    }
  if (!gnn_elementwise_into (name, op, self, ins, n_ins, params, error))
    {
      if (node)
        gnn_node_unref (node);
      if (ctx && ctx_free)
        ctx_free (ctx);
      return FALSE;
    }
  if (ctx && ctx_free)
    ctx_free (ctx);
  gnn_commit_inplace (self, node);
  return TRUE;
}

/**
 * gnn_tensor_add_:
 * @self: the tensor to change
 * @other: the tensor to add, broadcast to @self's shape
 * @alpha: the multiplier of @other
 * @error: return location for a #GError
 *
 * Adds in place: @self += @alpha × @other (`Tensor.add_`).
 *
 * Returns: %TRUE on success
 */
gboolean
gnn_tensor_add_ (GnnTensor *self, GnnTensor *other, double alpha, GError **error)
{
  GnnTensor *ins[2] = { self, other };
  GnnKernelParams params = { .add = { alpha } };
  AlphaCtx *ctx = g_new (AlphaCtx, 1);

  g_return_val_if_fail (GNN_IS_TENSOR (self) && GNN_IS_TENSOR (other), FALSE);
  ctx->alpha = alpha;
  return inplace_op ("add_", "AddBackward0", add_backward, GNN_BACKEND_OP_ADD, self, ins, 2, &params,
                     FALSE, ctx, g_free, error);
}

/**
 * gnn_tensor_sub_:
 * @self: the tensor to change
 * @other: the tensor to subtract, broadcast to @self's shape
 * @alpha: the multiplier of @other
 * @error: return location for a #GError
 *
 * Subtracts in place: @self −= @alpha × @other (`Tensor.sub_`).
 *
 * Returns: %TRUE on success
 */
gboolean
gnn_tensor_sub_ (GnnTensor *self, GnnTensor *other, double alpha, GError **error)
{
  GnnTensor *ins[2] = { self, other };
  GnnKernelParams params = { .add = { alpha } };
  AlphaCtx *ctx = g_new (AlphaCtx, 1);

  g_return_val_if_fail (GNN_IS_TENSOR (self) && GNN_IS_TENSOR (other), FALSE);
  ctx->alpha = -alpha;
  return inplace_op ("sub_", "SubBackward0", add_backward, GNN_BACKEND_OP_SUB, self, ins, 2, &params,
                     FALSE, ctx, g_free, error);
}

/**
 * gnn_tensor_mul_:
 * @self: the tensor to change
 * @other: a tensor broadcast to @self's shape
 * @error: return location for a #GError
 *
 * Multiplies in place (`Tensor.mul_`).
 *
 * Returns: %TRUE on success
 */
gboolean
gnn_tensor_mul_ (GnnTensor *self, GnnTensor *other, GError **error)
{
  GnnTensor *ins[2] = { self, other };

  g_return_val_if_fail (GNN_IS_TENSOR (self) && GNN_IS_TENSOR (other), FALSE);
  return inplace_op ("mul_", "MulBackward0", mul_backward, GNN_BACKEND_OP_MUL, self, ins, 2, NULL,
                     TRUE, NULL, NULL, error);
}

/**
 * gnn_tensor_div_:
 * @self: the tensor to change
 * @other: a tensor broadcast to @self's shape
 * @error: return location for a #GError
 *
 * Divides in place (`Tensor.div_`).
 *
 * Returns: %TRUE on success
 */
gboolean
gnn_tensor_div_ (GnnTensor *self, GnnTensor *other, GError **error)
{
  GnnTensor *ins[2] = { self, other };

  g_return_val_if_fail (GNN_IS_TENSOR (self) && GNN_IS_TENSOR (other), FALSE);
  if (!gnn_dtype_is_floating (gnn_tensor_priv (self)->dtype))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE,
                   "div_: result type float32 can't be cast to the desired output type %s",
                   gnn_dtype_get_name (gnn_tensor_priv (self)->dtype));
      return FALSE;
    }
  return inplace_op ("div_", "DivBackward0", div_backward, GNN_BACKEND_OP_DIV, self, ins, 2, NULL,
                     TRUE, NULL, NULL, error);
}

/**
 * gnn_tensor_add_scalar_:
 * @self: the tensor to change
 * @other: a number
 * @error: return location for a #GError
 *
 * Adds @other to every element in place.
 *
 * Returns: %TRUE on success
 */
gboolean
gnn_tensor_add_scalar_ (GnnTensor *self, double other, GError **error)
{
  g_autoptr(GnnTensor) s = NULL;

  g_return_val_if_fail (GNN_IS_TENSOR (self), FALSE);
  if (!(s = wrap_scalar (self, other, error)))
    return FALSE;
  return gnn_tensor_add_ (self, s, 1.0, error);
}

/**
 * gnn_tensor_mul_scalar_:
 * @self: the tensor to change
 * @other: a number
 * @error: return location for a #GError
 *
 * Multiplies every element by @other in place.
 *
 * Returns: %TRUE on success
 */
gboolean
gnn_tensor_mul_scalar_ (GnnTensor *self, double other, GError **error)
{
  g_autoptr(GnnTensor) s = NULL;

  g_return_val_if_fail (GNN_IS_TENSOR (self), FALSE);
  if (!(s = wrap_scalar (self, other, error)))
    return FALSE;
  return gnn_tensor_mul_ (self, s, error);
}

/**
 * gnn_tensor_div_scalar_:
 * @self: the tensor to change, floating point
 * @other: a number
 * @error: return location for a #GError
 *
 * Divides every element by @other in place (`Tensor.div_` with a number), with the same
 * rounding as [method@Gnn.Tensor.div_scalar].
 *
 * Returns: %TRUE on success
 */
gboolean
gnn_tensor_div_scalar_ (GnnTensor *self, double other, GError **error)
{
  g_autoptr(GnnTensor) s = NULL;

  g_return_val_if_fail (GNN_IS_TENSOR (self), FALSE);
  if (!gnn_dtype_is_floating (gnn_tensor_priv (self)->dtype))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE,
                   "div_: result type float32 can't be cast to the desired output type %s",
                   gnn_dtype_get_name (gnn_tensor_priv (self)->dtype));
      return FALSE;
    }
  if (!(s = wrap_scalar (self, other, error)))
    return FALSE;
  return gnn_tensor_div_ (self, s, error);
}

/**
 * gnn_tensor_maximum_:
 * @self: the tensor to change
 * @other: a tensor broadcast to @self's shape
 * @error: return location for a #GError
 *
 * The elementwise maximum in place, propagating NaN (`torch.maximum (self, other,
 * out=self)`), as Adam's AMSGrad keeps its running maximum.
 *
 * Returns: %TRUE on success
 */
gboolean
gnn_tensor_maximum_ (GnnTensor *self, GnnTensor *other, GError **error)
{
  GnnTensor *ins[2] = { self, other };

  g_return_val_if_fail (GNN_IS_TENSOR (self) && GNN_IS_TENSOR (other), FALSE);
  return inplace_op ("maximum_", "MaximumBackward0", minmax_backward, GNN_BACKEND_OP_MAXIMUM, self,
                     ins, 2, NULL, TRUE, GINT_TO_POINTER (1), NULL, error);
}

/**
 * gnn_tensor_lerp_:
 * @self: the start, changed in place
 * @end: the end, broadcast to @self's shape
 * @weight: the interpolation weight
 * @error: return location for a #GError
 *
 * Interpolates in place: @self += @weight × (@end − @self) (`Tensor.lerp_`). This is the
 * update of an exponential moving average. It records no gradient.
 *
 * Returns: %TRUE on success
 */
gboolean
gnn_tensor_lerp_ (GnnTensor *self, GnnTensor *end, double weight, GError **error)
{
  g_autoptr(GnnTensor) w = NULL;
  GnnTensor *ins[3] = { self, end, NULL };

  g_return_val_if_fail (GNN_IS_TENSOR (self) && GNN_IS_TENSOR (end), FALSE);
  if (!gnn_check_floating ("lerp_", self, error))
    return FALSE;
  if (gnn_autograd_needed (ins, 2))
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED,
                           "lerp_: gradients through lerp_ are not supported; run it with grad mode off");
      return FALSE;
    }
  if (!(w = wrap_scalar (self, weight, error)))
    return FALSE;
  ins[2] = w;
  return inplace_op ("lerp_", NULL, NULL, GNN_BACKEND_OP_LERP, self, ins, 3, NULL, FALSE, NULL,
                     NULL, error);
}

static gboolean
addc_op (const char *name, GnnBackendOp op, GnnTensor *self, GnnTensor *t1, GnnTensor *t2,
         double value, GError **error)
{
  GnnTensor *ins[3] = { self, t1, t2 };
  GnnKernelParams params = { .addc = { value } };

  if (gnn_autograd_needed (ins, 3))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED,
                   "%s: gradients through %s are not supported; run it with grad mode off", name, name);
      return FALSE;
    }
  return inplace_op (name, NULL, NULL, op, self, ins, 3, &params, FALSE, NULL, NULL, error);
}

/**
 * gnn_tensor_addcmul_:
 * @self: the tensor to change
 * @tensor1: a tensor broadcast to @self's shape
 * @tensor2: a tensor broadcast to @self's shape
 * @value: the multiplier
 * @error: return location for a #GError
 *
 * Computes @self += @value × @tensor1 × @tensor2 in place (`Tensor.addcmul_`), as optimizers
 * do. It records no gradient.
 *
 * Returns: %TRUE on success
 */
gboolean
gnn_tensor_addcmul_ (GnnTensor *self, GnnTensor *tensor1, GnnTensor *tensor2, double value, GError **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self) && GNN_IS_TENSOR (tensor1) && GNN_IS_TENSOR (tensor2), FALSE);
  return addc_op ("addcmul_", GNN_BACKEND_OP_ADDCMUL, self, tensor1, tensor2, value, error);
}

/**
 * gnn_tensor_addcdiv_:
 * @self: the tensor to change
 * @tensor1: a tensor broadcast to @self's shape
 * @tensor2: a tensor broadcast to @self's shape
 * @value: the multiplier
 * @error: return location for a #GError
 *
 * Computes @self += @value × @tensor1 / @tensor2 in place (`Tensor.addcdiv_`), as optimizers
 * do. It records no gradient.
 *
 * Returns: %TRUE on success
 */
gboolean
gnn_tensor_addcdiv_ (GnnTensor *self, GnnTensor *tensor1, GnnTensor *tensor2, double value, GError **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self) && GNN_IS_TENSOR (tensor1) && GNN_IS_TENSOR (tensor2), FALSE);
  if (!gnn_check_floating ("addcdiv_", self, error))
    return FALSE;
  return addc_op ("addcdiv_", GNN_BACKEND_OP_ADDCDIV, self, tensor1, tensor2, value, error);
}

/* copy_: the gradient flows to the source, reduced to its shape; the overwritten values
 * get zeros, as PyTorch's CopyBackwards gives */
static gboolean
copy_backward (GnnNode *node, GnnTensor **go, GnnTensor **gi, GError **error)
{
  if (go[0] == NULL)
    return TRUE;
  if (NEEDS (0))
    {
      gi[0] = gnn_tensor_new_like (go[0], node->in_dtype[0], node->in_ndim[0], node->in_shape[0], error);
      if (gi[0] == NULL || !gnn_tensor_zero_ (gi[0], error))
        return FALSE;
    }
  if (NEEDS (1) && !(gi[1] = grad_for_input (node, 1, go[0], 1.0, error)))
    return FALSE;
  return TRUE;
}

/**
 * gnn_tensor_copy_:
 * @self: the tensor to change
 * @src: the values, broadcast to @self's shape, of any dtype and on the same device
 * @error: return location for a #GError
 *
 * Copies @src into @self, converting the dtype (`Tensor.copy_`).
 *
 * Returns: %TRUE on success
 */
gboolean
gnn_tensor_copy_ (GnnTensor *self, GnnTensor *src, GError **error)
{
  GnnTensor *ins[2] = { self, src };
  GnnTensorPrivate *p;
  GnnNode *node;
  gint64 bshape[GNN_MAX_DIMS];
  guint bnd;

  g_return_val_if_fail (GNN_IS_TENSOR (self) && GNN_IS_TENSOR (src), FALSE);
  p = gnn_tensor_priv (self);
  if (!gnn_check_same_device ("copy_", self, src, error) ||
      !gnn_broadcast_shapes ("copy_", p->ndim, p->shape, gnn_tensor_priv (src)->ndim,
                             gnn_tensor_priv (src)->shape, &bnd, bshape, error))
    return FALSE;
  if (bnd != p->ndim || memcmp (bshape, p->shape, sizeof (gint64) * bnd) != 0)
    {
      g_autofree char *a = gnn_shape_to_string (p->ndim, p->shape);
      g_autofree char *b = gnn_shape_to_string (gnn_tensor_priv (src)->ndim, gnn_tensor_priv (src)->shape);
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "copy_: source of shape %s cannot be broadcast to destination shape %s", b, a);
      return FALSE;
    }
  if (!gnn_autograd_check_inplace (self, error))
    return FALSE;
  node = gnn_autograd_prepare_inplace ("CopyBackwards", copy_backward, ins, 2);
  if (!gnn_tensor_copy_into (self, src, error))
    {
      if (node)
        gnn_node_unref (node);
      return FALSE;
    }
  gnn_commit_inplace (self, node);
  return TRUE;
}

/* torch's names of the dtypes, as its casting messages spell them */
static const char *
torch_type_name (GnnDtype dtype)
{
  switch (dtype)
    {
    case GNN_DTYPE_FLOAT32: return "Float";
    case GNN_DTYPE_FLOAT64: return "Double";
    case GNN_DTYPE_FLOAT16: return "Half";
    case GNN_DTYPE_BFLOAT16: return "BFloat16";
    case GNN_DTYPE_INT64: return "Long";
    case GNN_DTYPE_INT32: return "Int";
    case GNN_DTYPE_INT16: return "Short";
    case GNN_DTYPE_INT8: return "Char";
    case GNN_DTYPE_UINT8: return "Byte";
    case GNN_DTYPE_BOOL: return "Bool";
    default: return gnn_dtype_get_name (dtype);
    }
}

/**
 * gnn_tensor_write_back_:
 * @self: the tensor to change
 * @result: the values an op computed out of place from @self, of @self's shape
 * @error: return location for a #GError
 *
 * Writes @result into @self as PyTorch's in-place ops write their result: `x.sin_ ()` is
 * `write_back_ (x, sin (x))`. @result must have @self's shape, and its dtype must cast to
 * @self's as `torch.can_cast` allows (no floating-point result into an integral or bool
 * tensor, no integral result into a bool tensor). The write is [method@Gnn.Tensor.copy_]:
 * it bumps the version counter, refuses a leaf that requires grad while grad mode is on, and
 * rebases @self's history (a view's base's, as PyTorch's CopySlices), so gradients flow
 * through @result's graph into @self's old history.
 *
 * When autograd records, compute @result from a clone of @self
 * ([method@Gnn.Tensor.clone]): an op whose backward saved @self itself would find it
 * changed, and its backward fails.
 *
 * Returns: %TRUE on success
 *
 * Since: 0.1
 */
gboolean
gnn_tensor_write_back_ (GnnTensor *self, GnnTensor *result, GError **error)
{
  GnnTensorPrivate *p, *r;

  g_return_val_if_fail (GNN_IS_TENSOR (self) && GNN_IS_TENSOR (result), FALSE);
  p = gnn_tensor_priv (self);
  r = gnn_tensor_priv (result);
  if (r->ndim != p->ndim || memcmp (r->shape, p->shape, sizeof (gint64) * p->ndim) != 0)
    {
      g_autofree char *a = gnn_shape_to_string (p->ndim, p->shape);
      g_autofree char *b = gnn_shape_to_string (r->ndim, r->shape);
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "output with shape %s doesn't match the broadcast shape %s", a, b);
      return FALSE;
    }
  if ((gnn_dtype_is_floating (r->dtype) && !gnn_dtype_is_floating (p->dtype)) ||
      (p->dtype == GNN_DTYPE_BOOL && r->dtype != GNN_DTYPE_BOOL))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE,
                   "result type %s can't be cast to the desired output type %s",
                   torch_type_name (r->dtype), torch_type_name (p->dtype));
      return FALSE;
    }
  return gnn_tensor_copy_ (self, result, error);
}

/* fill_: constants have no gradient */
static gboolean
fill_backward (GnnNode *node, GnnTensor **go, GnnTensor **gi, GError **error)
{
  return TRUE;
}

static gboolean
fill_impl (const char *grad_name, GnnTensor *self, double value, GError **error)
{
  GnnNode *node;

  if (!gnn_autograd_check_inplace (self, error))
    return FALSE;
  if (gnn_tensor_get_numel (self) > 0 && !gnn_tensor_fill_kernel (self, value, error))
    return FALSE;
  /* the values no longer depend on the old ones: the history gets a zero gradient */
  node = gnn_autograd_prepare_inplace (grad_name, fill_backward, &self, 1);
  gnn_commit_inplace (self, node);
  return TRUE;
}

/**
 * gnn_tensor_fill_:
 * @self: the tensor to change
 * @value: the value
 * @error: return location for a #GError
 *
 * Sets every element to @value (`Tensor.fill_`).
 *
 * Returns: %TRUE on success
 */
gboolean
gnn_tensor_fill_ (GnnTensor *self, double value, GError **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), FALSE);
  return fill_impl ("FillBackward2", self, value, error);
}

/**
 * gnn_tensor_zero_:
 * @self: the tensor to change
 * @error: return location for a #GError
 *
 * Sets every element to zero (`Tensor.zero_`).
 *
 * Returns: %TRUE on success
 */
gboolean
gnn_tensor_zero_ (GnnTensor *self, GError **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), FALSE);
  return fill_impl ("ZeroBackward0", self, 0.0, error);
}
