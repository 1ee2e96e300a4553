/* gnn-ops-bitwise.c: the bitwise ops (bitwise_and, bitwise_or, bitwise_xor, bitwise_not,
 * bitwise_left_shift, bitwise_right_shift), gcd and lcm on integer and bool tensors, and the
 * logical ops (logical_and, logical_or, logical_xor, logical_not) of any dtype, written with them
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * None of these ops has a gradient (PyTorch defines none: their results are integers or bools),
 * so none records an autograd node. The kernels compute in int64; the results take the promoted
 * dtype of the operands (bool for two bools), as in PyTorch.
 */
#include "config.h"

#include "gnn-ops-private.h"

/* Whether @d is an integer dtype, or bool when @bool_ok. */
static gboolean
is_integral (GnnDtype d, gboolean bool_ok)
{
  return (d == GNN_DTYPE_BOOL) ? bool_ok : !gnn_dtype_is_floating (d);
}

static GnnTensor *
integer_binary (const char *name, GnnBackendOp op, gboolean bool_ok, GnnTensor *a, GnnTensor *b,
                GError **error)
{
  GnnTensor *ins[2] = { a, b };
  GnnDtype da = gnn_tensor_priv (a)->dtype, db = gnn_tensor_priv (b)->dtype;

  if (!is_integral (da, bool_ok) || !is_integral (db, bool_ok))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE,
                   "%s: expected integer%s tensors, got %s and %s", name, bool_ok ? " or bool" : "",
                   gnn_dtype_get_name (da), gnn_dtype_get_name (db));
      return NULL;
    }
  return gnn_elementwise (name, op, ins, 2, GNN_DTYPE_INT64, gnn_result_dtype (a, b), NULL, error);
}

/**
 * gnn_tensor_bitwise_and:
 * @self: an integer or bool tensor
 * @other: an integer or bool tensor broadcast against @self
 * @error: return location for a #GError
 *
 * The bitwise AND of @self and @other, broadcasting (`torch.bitwise_and`, `&`); for bool
 * tensors the logical AND. Floating-point operands are a %GNN_ERROR_DTYPE error.
 *
 * Returns: (transfer full): the result, of the promoted dtype, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_bitwise_and (GnnTensor *self, GnnTensor *other, GError **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self) && GNN_IS_TENSOR (other), NULL);
  return integer_binary ("bitwise_and", GNN_BACKEND_OP_BITWISE_AND, TRUE, self, other, error);
}

/**
 * gnn_tensor_bitwise_or:
 * @self: an integer or bool tensor
 * @other: an integer or bool tensor broadcast against @self
 * @error: return location for a #GError
 *
 * The bitwise OR of @self and @other, broadcasting (`torch.bitwise_or`, `|`); for bool tensors
 * the logical OR. Floating-point operands are a %GNN_ERROR_DTYPE error.
 *
 * Returns: (transfer full): the result, of the promoted dtype, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_bitwise_or (GnnTensor *self, GnnTensor *other, GError **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self) && GNN_IS_TENSOR (other), NULL);
  return integer_binary ("bitwise_or", GNN_BACKEND_OP_BITWISE_OR, TRUE, self, other, error);
}

/**
 * gnn_tensor_bitwise_xor:
 * @self: an integer or bool tensor
 * @other: an integer or bool tensor broadcast against @self
 * @error: return location for a #GError
 *
 * The bitwise exclusive OR of @self and @other, broadcasting (`torch.bitwise_xor`, `^`); for
 * bool tensors the logical XOR. Floating-point operands are a %GNN_ERROR_DTYPE error.
 *
 * Returns: (transfer full): the result, of the promoted dtype, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_bitwise_xor (GnnTensor *self, GnnTensor *other, GError **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self) && GNN_IS_TENSOR (other), NULL);
  return integer_binary ("bitwise_xor", GNN_BACKEND_OP_BITWISE_XOR, TRUE, self, other, error);
}

/**
 * gnn_tensor_bitwise_left_shift:
 * @self: an integer tensor
 * @other: an integer tensor broadcast against @self: the shift of each element
 * @error: return location for a #GError
 *
 * Shifts the bits of @self left by @other (`torch.bitwise_left_shift`, `<<`); a shift that is
 * negative or at least the width of the dtype gives 0, as PyTorch's CPU kernel. Bool and
 * floating-point operands are a %GNN_ERROR_DTYPE error.
 *
 * Returns: (transfer full): the result, of the promoted dtype, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_bitwise_left_shift (GnnTensor *self, GnnTensor *other, GError **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self) && GNN_IS_TENSOR (other), NULL);
  return integer_binary ("bitwise_left_shift", GNN_BACKEND_OP_BITWISE_LEFT_SHIFT, FALSE, self, other,
                         error);
}

/**
 * gnn_tensor_bitwise_right_shift:
 * @self: an integer tensor
 * @other: an integer tensor broadcast against @self: the shift of each element
 * @error: return location for a #GError
 *
 * Shifts the bits of @self right by @other, arithmetically (`torch.bitwise_right_shift`,
 * `>>`); a shift that is negative or at least the width of the dtype gives the sign (0 or -1).
 * Bool and floating-point operands are a %GNN_ERROR_DTYPE error.
 *
 * Returns: (transfer full): the result, of the promoted dtype, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_bitwise_right_shift (GnnTensor *self, GnnTensor *other, GError **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self) && GNN_IS_TENSOR (other), NULL);
  return integer_binary ("bitwise_right_shift", GNN_BACKEND_OP_BITWISE_RIGHT_SHIFT, FALSE, self, other,
                         error);
}

/**
 * gnn_tensor_gcd:
 * @self: an integer tensor
 * @other: an integer tensor broadcast against @self
 * @error: return location for a #GError
 *
 * The greatest common divisor of the absolute values of @self and @other (`torch.gcd`);
 * gcd (0, 0) is 0. Bool and floating-point operands are a %GNN_ERROR_DTYPE error.
 *
 * Returns: (transfer full): the result, of the promoted dtype, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_gcd (GnnTensor *self, GnnTensor *other, GError **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self) && GNN_IS_TENSOR (other), NULL);
  return integer_binary ("gcd", GNN_BACKEND_OP_GCD, FALSE, self, other, error);
}

/**
 * gnn_tensor_lcm:
 * @self: an integer tensor
 * @other: an integer tensor broadcast against @self
 * @error: return location for a #GError
 *
 * The least common multiple of the absolute values of @self and @other (`torch.lcm`); 0 where
 * either is 0. Bool and floating-point operands are a %GNN_ERROR_DTYPE error.
 *
 * Returns: (transfer full): the result, of the promoted dtype, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_lcm (GnnTensor *self, GnnTensor *other, GError **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self) && GNN_IS_TENSOR (other), NULL);
  return integer_binary ("lcm", GNN_BACKEND_OP_LCM, FALSE, self, other, error);
}

/**
 * gnn_tensor_bitwise_not:
 * @self: an integer or bool tensor
 * @error: return location for a #GError
 *
 * The bitwise NOT of @self (`torch.bitwise_not`, `~`); for a bool tensor the logical NOT. A
 * floating-point tensor is a %GNN_ERROR_DTYPE error.
 *
 * Returns: (transfer full): the result, of @self's dtype, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_bitwise_not (GnnTensor *self, GError **error)
{
  GnnDtype d;

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  d = gnn_tensor_priv (self)->dtype;
  if (!is_integral (d, TRUE))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE,
                   "bitwise_not: expected an integer or bool tensor, got %s", gnn_dtype_get_name (d));
      return NULL;
    }
  if (d == GNN_DTYPE_BOOL)
    return gnn_tensor_eq_scalar (self, 0.0, error);
  return gnn_elementwise ("bitwise_not", GNN_BACKEND_OP_BITWISE_NOT, &self, 1, GNN_DTYPE_INT64, d, NULL,
                          error);
}

/* ---- the logical ops: bool out, any dtype in ------------------------------------------ */

/* the truth of every element: x != 0 (NaN is true), bool */
static GnnTensor *
truth (GnnTensor *x, GError **error)
{
  if (gnn_tensor_priv (x)->dtype == GNN_DTYPE_BOOL)
    return g_object_ref (x);
  return gnn_tensor_ne_scalar (x, 0.0, error);
}

static GnnTensor *
logical_binary (const char *name, GnnBackendOp op, GnnTensor *a, GnnTensor *b, GError **error)
{
  g_autoptr(GnnTensor) ta = NULL, tb = NULL;

  if (!gnn_check_same_device (name, a, b, error) ||
      !(ta = truth (a, error)) || !(tb = truth (b, error)))
    return NULL;
  return integer_binary (name, op, TRUE, ta, tb, error);
}

/**
 * gnn_tensor_logical_and:
 * @self: a tensor of any dtype
 * @other: a tensor of any dtype broadcast against @self
 * @error: return location for a #GError
 *
 * Where both @self and @other are nonzero (`torch.logical_and`); NaN counts as nonzero.
 *
 * Returns: (transfer full): a bool tensor, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_logical_and (GnnTensor *self, GnnTensor *other, GError **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self) && GNN_IS_TENSOR (other), NULL);
  return logical_binary ("logical_and", GNN_BACKEND_OP_BITWISE_AND, self, other, error);
}

/**
 * gnn_tensor_logical_or:
 * @self: a tensor of any dtype
 * @other: a tensor of any dtype broadcast against @self
 * @error: return location for a #GError
 *
 * Where @self or @other is nonzero (`torch.logical_or`); NaN counts as nonzero.
 *
 * Returns: (transfer full): a bool tensor, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_logical_or (GnnTensor *self, GnnTensor *other, GError **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self) && GNN_IS_TENSOR (other), NULL);
  return logical_binary ("logical_or", GNN_BACKEND_OP_BITWISE_OR, self, other, error);
}

/**
 * gnn_tensor_logical_xor:
 * @self: a tensor of any dtype
 * @other: a tensor of any dtype broadcast against @self
 * @error: return location for a #GError
 *
 * Where exactly one of @self and @other is nonzero (`torch.logical_xor`); NaN counts as
 * nonzero.
 *
 * Returns: (transfer full): a bool tensor, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_logical_xor (GnnTensor *self, GnnTensor *other, GError **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self) && GNN_IS_TENSOR (other), NULL);
  return logical_binary ("logical_xor", GNN_BACKEND_OP_BITWISE_XOR, self, other, error);
}

/**
 * gnn_tensor_logical_not:
 * @self: a tensor of any dtype
 * @error: return location for a #GError
 *
 * Where @self is zero (`torch.logical_not`); NaN counts as nonzero.
 *
 * Returns: (transfer full): a bool tensor, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_logical_not (GnnTensor *self, GError **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  return gnn_tensor_eq_scalar (self, 0.0, error);
}
