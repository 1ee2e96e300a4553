/* test-kernel-coverage.c: every public op and creation function, forward and backward, then a
 * check that every kernel of GnnBackendOp was reached on the backend in use
 *
 * Runs on the built-in CPU backend and, as test-kernel-coverage-reference, on the reference
 * one. The values are not checked here (the op tests do that against PyTorch): an op that
 * fails is reported with its error, and every op is tried even when some fail.
 */
#include "config.h"

#include "gnn-test-util.h"
#include "ops/gnn-ops-private.h"

typedef GnnTensor *(*OpFunc) (GnnTensor **x, GError **error);

typedef struct {
  const char *name;
  OpFunc func;
  guint n_in;          /* float64 leaves of shape (3, 4) handed to func */
  double lo, hi;       /* the range of their values */
  gboolean backward;   /* backward through the result, expecting a gradient for every leaf */
} OpCase;

static GnnBackend *
backend_in_use (void)
{
  return gnn_backend_get_for_device_type ("cpu", NULL);
}

/* A (3, 4) float64 tensor of values in [lo, hi], different for each @seed. */
static GnnTensor *
make_input (double lo, double hi, guint seed, gboolean requires_grad)
{
  g_autoptr(GRand) rng = g_rand_new_with_seed (1000 + seed);
  double v[12];
  GnnTensor *t;

  for (guint i = 0; i < 12; i++)
    v[i] = lo + (hi - lo) * g_rand_double (rng);
  t = gnn_test_tensor_d (v, 12, GNN_TEST_SHAPE (3, 4), 2);
  if (requires_grad)
    gnn_tensor_set_requires_grad (t, TRUE, NULL);
  return t;
}

/* Runs one case; failures are appended to @failures. */
static void
run_case (const OpCase *c, GString *failures)
{
  g_autoptr(GError) error = NULL;
  GnnTensor *x[3] = { NULL, NULL, NULL };
  g_autoptr(GnnTensor) y = NULL, yd = NULL, w = NULL, p = NULL, s = NULL;

  for (guint k = 0; k < c->n_in; k++)
    x[k] = make_input (c->lo, c->hi, k, c->backward);
  y = c->func (x, &error);
  if (y == NULL)
    {
      g_string_append_printf (failures, "\n  %s: %s", c->name, error ? error->message : "NULL without an error");
      goto out;
    }
  if (c->backward)
    {
      /* a weighted sum, so that the gradient flowing back is not all ones */
      guint nd;
      const gint64 *shape = gnn_tensor_get_shape (y, &nd);
      gint64 n = gnn_tensor_get_numel (y);
      g_autofree double *wv = g_new (double, MAX (n, 1));

      for (gint64 i = 0; i < n; i++)
        wv[i] = 1.0 + 0.5 * sin (1.7 * (double) i + 0.3);
      w = gnn_tensor_new_from_doubles (wv, n, shape, nd, &error);
      if (w && (yd = gnn_tensor_to_dtype (y, GNN_DTYPE_FLOAT64, &error)) &&
          (p = gnn_tensor_mul (yd, w, &error)) && (s = gnn_tensor_sum_all (p, &error)) &&
          gnn_tensor_backward (s, NULL, FALSE, &error))
        {
          for (guint k = 0; k < c->n_in; k++)
            if (gnn_tensor_get_grad (x[k]) == NULL)
              g_string_append_printf (failures, "\n  %s: backward left input %u without a gradient", c->name, k);
        }
      else
        g_string_append_printf (failures, "\n  %s (backward): %s", c->name,
                                error ? error->message : "failed without an error");
    }

out:
  for (guint k = 0; k < c->n_in; k++)
    g_clear_object (&x[k]);
}

static void
run_cases (const OpCase *cases, guint n_cases)
{
  g_autoptr(GString) failures = g_string_new (NULL);

  for (guint i = 0; i < n_cases; i++)
    run_case (&cases[i], failures);
  if (failures->len)
    g_test_fail_printf ("ops that failed:%s", failures->str);
}

#define FN(name, expr) \
  static GnnTensor *name (GnnTensor **x, GError **e) { return (expr); }

/* ---- elementwise -------------------------------------------------------------------- */

FN (op_add, gnn_tensor_add (x[0], x[1], 0.5, e))
FN (op_sub, gnn_tensor_sub (x[0], x[1], 2.0, e))
FN (op_mul, gnn_tensor_mul (x[0], x[1], e))
FN (op_div, gnn_tensor_div (x[0], x[1], e))
FN (op_pow, gnn_tensor_pow (x[0], x[1], e))
FN (op_maximum, gnn_tensor_maximum (x[0], x[1], e))
FN (op_minimum, gnn_tensor_minimum (x[0], x[1], e))
FN (op_hypot, gnn_tensor_hypot (x[0], x[1], e))
FN (op_reciprocal, gnn_tensor_reciprocal (x[0], e))
FN (op_rsqrt, gnn_tensor_rsqrt (x[0], e))
FN (op_log1p, gnn_tensor_log1p (x[0], e))
FN (op_expm1, gnn_tensor_expm1 (x[0], e))
FN (op_log2, gnn_tensor_log2 (x[0], e))
FN (op_log10, gnn_tensor_log10 (x[0], e))
FN (op_sin, gnn_tensor_sin (x[0], e))
FN (op_cos, gnn_tensor_cos (x[0], e))
FN (op_tan, gnn_tensor_tan (x[0], e))
FN (op_asin, gnn_tensor_asin (x[0], e))
FN (op_acos, gnn_tensor_acos (x[0], e))
FN (op_atan, gnn_tensor_atan (x[0], e))
FN (op_sinh, gnn_tensor_sinh (x[0], e))
FN (op_cosh, gnn_tensor_cosh (x[0], e))
FN (op_asinh, gnn_tensor_asinh (x[0], e))
FN (op_acosh, gnn_tensor_acosh (x[0], e))
FN (op_atanh, gnn_tensor_atanh (x[0], e))
FN (op_erf, gnn_tensor_erf (x[0], e))
FN (op_erfc, gnn_tensor_erfc (x[0], e))
FN (op_erfinv, gnn_tensor_erfinv (x[0], e))
FN (op_lgamma, gnn_tensor_lgamma (x[0], e))
FN (op_floor, gnn_tensor_floor (x[0], e))
FN (op_ceil, gnn_tensor_ceil (x[0], e))
FN (op_round, gnn_tensor_round (x[0], e))
FN (op_trunc, gnn_tensor_trunc (x[0], e))
FN (op_frac, gnn_tensor_frac (x[0], e))
FN (op_digamma, gnn_tensor_digamma (x[0], e))
FN (op_atan2, gnn_tensor_atan2 (x[0], x[1], e))
FN (op_fmod, gnn_tensor_fmod (x[0], x[1], e))
FN (op_remainder, gnn_tensor_remainder (x[0], x[1], e))
FN (op_floor_divide, gnn_tensor_floor_divide (x[0], x[1], e))
FN (op_xlogy, gnn_tensor_xlogy (x[0], x[1], e))
FN (op_exp2, gnn_tensor_exp2 (x[0], e))
FN (op_sinc, gnn_tensor_sinc (x[0], e))
FN (op_i0, gnn_tensor_i0 (x[0], e))
FN (op_i0e, gnn_special_i0e (x[0], e))
FN (op_i1, gnn_special_i1 (x[0], e))
FN (op_i1e, gnn_special_i1e (x[0], e))
FN (op_ndtri, gnn_special_ndtri (x[0], e))
FN (op_log_ndtr, gnn_special_log_ndtr (x[0], e))
FN (op_erfcx, gnn_special_erfcx (x[0], e))
FN (op_entr, gnn_special_entr (x[0], e))
FN (op_xlog1py, gnn_special_xlog1py (x[0], x[1], e))
FN (op_zeta, gnn_special_zeta (x[0], x[1], e))
FN (op_copysign, gnn_tensor_copysign (x[0], x[1], e))
FN (op_fmax, gnn_tensor_fmax (x[0], x[1], e))
FN (op_fmin, gnn_tensor_fmin (x[0], x[1], e))
FN (op_logaddexp, gnn_tensor_logaddexp (x[0], x[1], e))
FN (op_logaddexp2, gnn_tensor_logaddexp2 (x[0], x[1], e))
FN (op_nextafter, gnn_tensor_nextafter (x[0], x[1], e))
FN (op_heaviside, gnn_tensor_heaviside (x[0], x[1], e))

/* the bitwise and integer ops, on int64 copies of the inputs */
static GnnTensor *
op_bitwise_int (GnnTensor **x, GError **e)
{
  g_autoptr(GnnTensor) a = gnn_tensor_to_dtype (x[0], GNN_DTYPE_INT64, e);
  g_autoptr(GnnTensor) b = a ? gnn_tensor_to_dtype (x[1], GNN_DTYPE_INT64, e) : NULL;
  g_autoptr(GnnTensor) r1 = b ? gnn_tensor_bitwise_and (a, b, e) : NULL;
  g_autoptr(GnnTensor) r2 = r1 ? gnn_tensor_bitwise_or (r1, b, e) : NULL;
  g_autoptr(GnnTensor) r3 = r2 ? gnn_tensor_bitwise_xor (r2, a, e) : NULL;
  g_autoptr(GnnTensor) r4 = r3 ? gnn_tensor_bitwise_not (r3, e) : NULL;
  g_autoptr(GnnTensor) r5 = r4 ? gnn_tensor_bitwise_left_shift (r4, b, e) : NULL;
  g_autoptr(GnnTensor) r6 = r5 ? gnn_tensor_bitwise_right_shift (r5, b, e) : NULL;
  g_autoptr(GnnTensor) r7 = r6 ? gnn_tensor_gcd (r6, a, e) : NULL;
  return r7 ? gnn_tensor_lcm (r7, b, e) : NULL;
}
FN (op_add_scalar, gnn_tensor_add_scalar (x[0], 1.5, e))
FN (op_sub_scalar, gnn_tensor_sub_scalar (x[0], 1.5, e))
FN (op_rsub_scalar, gnn_tensor_rsub_scalar (x[0], 1.5, e))
FN (op_mul_scalar, gnn_tensor_mul_scalar (x[0], 1.5, e))
FN (op_div_scalar, gnn_tensor_div_scalar (x[0], 1.5, e))
FN (op_rdiv_scalar, gnn_tensor_rdiv_scalar (x[0], 1.5, e))
FN (op_pow_scalar, gnn_tensor_pow_scalar (x[0], 2.5, e))
FN (op_eq, gnn_tensor_eq (x[0], x[1], e))
FN (op_ne, gnn_tensor_ne (x[0], x[1], e))
FN (op_lt, gnn_tensor_lt (x[0], x[1], e))
FN (op_le, gnn_tensor_le (x[0], x[1], e))
FN (op_gt, gnn_tensor_gt (x[0], x[1], e))
FN (op_ge, gnn_tensor_ge (x[0], x[1], e))
FN (op_eq_scalar, gnn_tensor_eq_scalar (x[0], 0.5, e))
FN (op_ne_scalar, gnn_tensor_ne_scalar (x[0], 0.5, e))
FN (op_lt_scalar, gnn_tensor_lt_scalar (x[0], 0.5, e))
FN (op_le_scalar, gnn_tensor_le_scalar (x[0], 0.5, e))
FN (op_gt_scalar, gnn_tensor_gt_scalar (x[0], 0.5, e))
FN (op_ge_scalar, gnn_tensor_ge_scalar (x[0], 0.5, e))

/* broadcasting: a row against the matrix; backward sums the row's gradient */
static GnnTensor *
op_add_broadcast (GnnTensor **x, GError **e)
{
  g_autoptr(GnnTensor) row = gnn_tensor_select (x[1], 0, 1, e);
  return row ? gnn_tensor_add (x[0], row, 1.0, e) : NULL;
}

/* a transposed operand */
static GnnTensor *
op_mul_strided (GnnTensor **x, GError **e)
{
  g_autoptr(GnnTensor) a = gnn_tensor_reshape (x[0], GNN_TEST_SHAPE (4, 3), 2, e);
  g_autoptr(GnnTensor) at = a ? gnn_tensor_t (a, e) : NULL;
  return at ? gnn_tensor_mul (at, x[1], e) : NULL;
}

static GnnTensor *
op_where (GnnTensor **x, GError **e)
{
  g_autoptr(GnnTensor) cond = gnn_tensor_gt (x[0], x[1], e);
  return cond ? gnn_where (cond, x[0], x[1], e) : NULL;
}

static const OpCase elementwise_cases[] = {
  { "add", op_add, 2, -2, 2, TRUE },
  { "sub", op_sub, 2, -2, 2, TRUE },
  { "mul", op_mul, 2, -2, 2, TRUE },
  { "div", op_div, 2, 0.5, 2, TRUE },
  { "pow", op_pow, 2, 0.5, 2, TRUE },
  { "maximum", op_maximum, 2, -2, 2, TRUE },
  { "minimum", op_minimum, 2, -2, 2, TRUE },
  { "hypot", op_hypot, 2, -2, 2, TRUE },
  { "reciprocal", op_reciprocal, 1, 0.5, 2, TRUE },
  { "rsqrt", op_rsqrt, 1, 0.2, 3, TRUE },
  { "log1p", op_log1p, 1, -0.5, 2, TRUE },
  { "expm1", op_expm1, 1, -2, 2, TRUE },
  { "log2", op_log2, 1, 0.1, 3, TRUE },
  { "log10", op_log10, 1, 0.1, 3, TRUE },
  { "sin", op_sin, 1, -3, 3, TRUE },
  { "cos", op_cos, 1, -3, 3, TRUE },
  { "tan", op_tan, 1, -1.2, 1.2, TRUE },
  { "asin", op_asin, 1, -0.9, 0.9, TRUE },
  { "acos", op_acos, 1, -0.9, 0.9, TRUE },
  { "atan", op_atan, 1, -3, 3, TRUE },
  { "sinh", op_sinh, 1, -2, 2, TRUE },
  { "cosh", op_cosh, 1, -2, 2, TRUE },
  { "asinh", op_asinh, 1, -3, 3, TRUE },
  { "acosh", op_acosh, 1, 1.1, 3, TRUE },
  { "atanh", op_atanh, 1, -0.9, 0.9, TRUE },
  { "erf", op_erf, 1, -2, 2, TRUE },
  { "erfc", op_erfc, 1, -2, 2, TRUE },
  { "erfinv", op_erfinv, 1, -0.9, 0.9, TRUE },
  { "lgamma", op_lgamma, 1, 0.2, 4, TRUE },
  { "floor", op_floor, 1, -3, 3, TRUE },
  { "ceil", op_ceil, 1, -3, 3, TRUE },
  { "round", op_round, 1, -3, 3, TRUE },
  { "trunc", op_trunc, 1, -3, 3, TRUE },
  { "frac", op_frac, 1, -3, 3, TRUE },
  { "digamma", op_digamma, 1, 0.2, 4, TRUE },
  { "atan2", op_atan2, 2, -2, 2, TRUE },
  { "fmod", op_fmod, 2, 0.5, 3, TRUE },
  { "remainder", op_remainder, 2, -3, 3, TRUE },
  { "floor_divide", op_floor_divide, 2, -3, 3, FALSE },
  { "xlogy", op_xlogy, 2, 0.1, 2, TRUE },
  { "exp2", op_exp2, 1, -3, 3, TRUE },
  { "sinc", op_sinc, 1, -3, 3, TRUE },
  { "i0", op_i0, 1, -3, 3, TRUE },
  { "i0e", op_i0e, 1, -3, 3, TRUE },
  { "i1", op_i1, 1, -3, 3, TRUE },
  { "i1e", op_i1e, 1, -3, 3, TRUE },
  { "ndtri", op_ndtri, 1, 0.05, 0.95, TRUE },
  { "log_ndtr", op_log_ndtr, 1, -3, 3, TRUE },
  { "erfcx", op_erfcx, 1, -2, 3, TRUE },
  { "entr", op_entr, 1, 0.1, 3, TRUE },
  { "xlog1py", op_xlog1py, 2, 0.1, 2, TRUE },
  { "zeta", op_zeta, 2, 1.5, 3, FALSE },
  { "copysign", op_copysign, 2, -2, 2, TRUE },
  { "fmax", op_fmax, 2, -2, 2, TRUE },
  { "fmin", op_fmin, 2, -2, 2, TRUE },
  { "logaddexp", op_logaddexp, 2, -5, 5, TRUE },
  { "logaddexp2", op_logaddexp2, 2, -5, 5, TRUE },
  { "nextafter", op_nextafter, 2, -2, 2, FALSE },
  { "heaviside", op_heaviside, 2, -2, 2, FALSE },
  { "bitwise and integer ops (int64)", op_bitwise_int, 2, -9, 9, FALSE },
  { "add_scalar", op_add_scalar, 1, -2, 2, TRUE },
  { "sub_scalar", op_sub_scalar, 1, -2, 2, TRUE },
  { "rsub_scalar", op_rsub_scalar, 1, -2, 2, TRUE },
  { "mul_scalar", op_mul_scalar, 1, -2, 2, TRUE },
  { "div_scalar", op_div_scalar, 1, -2, 2, TRUE },
  { "rdiv_scalar", op_rdiv_scalar, 1, 0.5, 2, TRUE },
  { "pow_scalar", op_pow_scalar, 1, 0.5, 2, TRUE },
  { "add (broadcast)", op_add_broadcast, 2, -2, 2, TRUE },
  { "mul (transposed)", op_mul_strided, 2, -2, 2, TRUE },
  { "eq", op_eq, 2, -2, 2, FALSE },
  { "ne", op_ne, 2, -2, 2, FALSE },
  { "lt", op_lt, 2, -2, 2, FALSE },
  { "le", op_le, 2, -2, 2, FALSE },
  { "gt", op_gt, 2, -2, 2, FALSE },
  { "ge", op_ge, 2, -2, 2, FALSE },
  { "eq_scalar", op_eq_scalar, 1, -2, 2, FALSE },
  { "ne_scalar", op_ne_scalar, 1, -2, 2, FALSE },
  { "lt_scalar", op_lt_scalar, 1, -2, 2, FALSE },
  { "le_scalar", op_le_scalar, 1, -2, 2, FALSE },
  { "gt_scalar", op_gt_scalar, 1, -2, 2, FALSE },
  { "ge_scalar", op_ge_scalar, 1, -2, 2, FALSE },
  { "where", op_where, 2, -2, 2, TRUE },
};

/* ---- unary ops and activations ------------------------------------------------------ */

FN (op_neg, gnn_tensor_neg (x[0], e))
FN (op_exp, gnn_tensor_exp (x[0], e))
FN (op_log, gnn_tensor_log (x[0], e))
FN (op_sqrt, gnn_tensor_sqrt (x[0], e))
FN (op_abs, gnn_tensor_abs (x[0], e))
FN (op_sign, gnn_tensor_sign (x[0], e))
FN (op_clamp, gnn_tensor_clamp (x[0], -0.5, 0.5, e))
FN (op_clamp_min, gnn_tensor_clamp_min (x[0], -0.5, e))
FN (op_clamp_max, gnn_tensor_clamp_max (x[0], 0.5, e))
FN (op_relu, gnn_tensor_relu (x[0], e))
FN (op_leaky_relu, gnn_tensor_leaky_relu (x[0], 0.1, e))
FN (op_elu, gnn_tensor_elu (x[0], 1.0, e))
FN (op_gelu, gnn_tensor_gelu (x[0], "none", e))
FN (op_gelu_tanh, gnn_tensor_gelu (x[0], "tanh", e))
FN (op_silu, gnn_tensor_silu (x[0], e))
FN (op_sigmoid, gnn_tensor_sigmoid (x[0], e))
FN (op_tanh, gnn_tensor_tanh (x[0], e))
FN (op_softmax, gnn_tensor_softmax (x[0], 1, e))
FN (op_softmax0, gnn_tensor_softmax (x[0], 0, e))
FN (op_log_softmax, gnn_tensor_log_softmax (x[0], -1, e))
FN (op_log_softmax0, gnn_tensor_log_softmax (x[0], 0, e))
FN (op_softplus, gnn_tensor_softplus (x[0], 1.0, 20.0, e))
FN (op_hardsigmoid, gnn_tensor_hardsigmoid (x[0], e))
FN (op_hardswish, gnn_tensor_hardswish (x[0], e))
FN (op_mish, gnn_tensor_mish (x[0], e))
FN (op_celu, gnn_tensor_celu (x[0], 1.0, e))
FN (op_selu, gnn_tensor_selu (x[0], e))
FN (op_logsigmoid, gnn_tensor_logsigmoid (x[0], e))
FN (op_hardshrink, gnn_tensor_hardshrink (x[0], 0.5, e))
FN (op_softshrink, gnn_tensor_softshrink (x[0], 0.5, e))
FN (op_threshold, gnn_tensor_threshold (x[0], 0.1, 20.0, e))
FN (op_hardtanh, gnn_tensor_hardtanh (x[0], -0.5, 0.5, e))

static const OpCase unary_cases[] = {
  { "neg", op_neg, 1, -2, 2, TRUE },
  { "exp", op_exp, 1, -2, 2, TRUE },
  { "log", op_log, 1, 0.5, 3, TRUE },
  { "sqrt", op_sqrt, 1, 0.5, 3, TRUE },
  { "abs", op_abs, 1, -2, 2, TRUE },
  { "sign", op_sign, 1, -2, 2, TRUE },
  { "clamp", op_clamp, 1, -2, 2, TRUE },
  { "clamp_min", op_clamp_min, 1, -2, 2, TRUE },
  { "clamp_max", op_clamp_max, 1, -2, 2, TRUE },
  { "relu", op_relu, 1, -2, 2, TRUE },
  { "leaky_relu", op_leaky_relu, 1, -2, 2, TRUE },
  { "elu", op_elu, 1, -2, 2, TRUE },
  { "gelu", op_gelu, 1, -2, 2, TRUE },
  { "gelu (tanh)", op_gelu_tanh, 1, -2, 2, TRUE },
  { "silu", op_silu, 1, -2, 2, TRUE },
  { "sigmoid", op_sigmoid, 1, -2, 2, TRUE },
  { "tanh", op_tanh, 1, -2, 2, TRUE },
  { "softmax", op_softmax, 1, -2, 2, TRUE },
  { "softmax (dim 0)", op_softmax0, 1, -2, 2, TRUE },
  { "log_softmax", op_log_softmax, 1, -2, 2, TRUE },
  { "log_softmax (dim 0)", op_log_softmax0, 1, -2, 2, TRUE },
  { "softplus", op_softplus, 1, -2, 2, TRUE },
  { "hardsigmoid", op_hardsigmoid, 1, -2, 2, TRUE },
  { "hardswish", op_hardswish, 1, -2, 2, TRUE },
  { "mish", op_mish, 1, -2, 2, TRUE },
  { "celu", op_celu, 1, -2, 2, TRUE },
  { "selu", op_selu, 1, -2, 2, TRUE },
  { "logsigmoid", op_logsigmoid, 1, -2, 2, TRUE },
  { "hardshrink", op_hardshrink, 1, -2, 2, TRUE },
  { "softshrink", op_softshrink, 1, -2, 2, TRUE },
  { "threshold", op_threshold, 1, -2, 2, TRUE },
  { "hardtanh", op_hardtanh, 1, -2, 2, TRUE },
};

/* ---- linear algebra ----------------------------------------------------------------- */

/* (3, 4) · (3, 4)ᵀ: the second operand transposed, as a view */
static GnnTensor *
op_matmul (GnnTensor **x, GError **e)
{
  g_autoptr(GnnTensor) bt = gnn_tensor_t (x[1], e);
  return bt ? gnn_tensor_matmul (x[0], bt, e) : NULL;
}

/* batched: (2, 3, 2) · (2, 2, 3) from the two inputs */
static GnnTensor *
op_matmul_batched (GnnTensor **x, GError **e)
{
  g_autoptr(GnnTensor) a = gnn_tensor_reshape (x[0], GNN_TEST_SHAPE (2, 3, 2), 3, e);
  g_autoptr(GnnTensor) b = a ? gnn_tensor_reshape (x[1], GNN_TEST_SHAPE (2, 2, 3), 3, e) : NULL;
  return b ? gnn_tensor_matmul (a, b, e) : NULL;
}

/* a batch against one matrix, broadcast: (2, 3, 2) · (2, 4) */
static GnnTensor *
op_matmul_broadcast (GnnTensor **x, GError **e)
{
  g_autoptr(GnnTensor) a = gnn_tensor_reshape (x[0], GNN_TEST_SHAPE (2, 3, 2), 3, e);
  g_autoptr(GnnTensor) b = a ? gnn_tensor_reshape (x[1], GNN_TEST_SHAPE (6, 2), 2, e) : NULL;
  g_autoptr(GnnTensor) b2 = b ? gnn_tensor_narrow (b, 0, 0, 2, e) : NULL;
  return b2 ? gnn_tensor_matmul (a, b2, e) : NULL;
}

/* vector · matrix */
static GnnTensor *
op_matmul_vector (GnnTensor **x, GError **e)
{
  g_autoptr(GnnTensor) v = gnn_tensor_select (x[0], 1, 2, e);
  return v ? gnn_tensor_matmul (v, x[1], e) : NULL;
}

/* linear (x, weight, bias): (3, 4) · (4, 4)ᵀ... weight (2, 4) from x[1], bias from x[2] */
static GnnTensor *
op_linear (GnnTensor **x, GError **e)
{
  g_autoptr(GnnTensor) weight = gnn_tensor_narrow (x[1], 0, 0, 2, e);
  g_autoptr(GnnTensor) b = weight ? gnn_tensor_select (x[2], 0, 0, e) : NULL;
  g_autoptr(GnnTensor) bias = b ? gnn_tensor_narrow (b, 0, 0, 2, e) : NULL;
  return bias ? gnn_tensor_linear (x[0], weight, bias, e) : NULL;
}

static GnnTensor *
op_linear_no_bias (GnnTensor **x, GError **e)
{
  return gnn_tensor_linear (x[0], x[1], NULL, e);
}

static const OpCase linalg_cases[] = {
  { "matmul", op_matmul, 2, -2, 2, TRUE },
  { "matmul (batched)", op_matmul_batched, 2, -2, 2, TRUE },
  { "matmul (broadcast)", op_matmul_broadcast, 2, -2, 2, TRUE },
  { "matmul (vector)", op_matmul_vector, 2, -2, 2, TRUE },
  { "linear", op_linear, 3, -2, 2, TRUE },
  { "linear (no bias)", op_linear_no_bias, 2, -2, 2, TRUE },
};

/* ---- reductions --------------------------------------------------------------------- */

static const int dim0[] = { 0 }, dim1[] = { 1 }, dims01[] = { 0, 1 };

FN (op_sum, gnn_tensor_sum (x[0], dim1, 1, FALSE, e))
FN (op_sum_keep, gnn_tensor_sum (x[0], dim0, 1, TRUE, e))
FN (op_sum_both, gnn_tensor_sum (x[0], dims01, 2, FALSE, e))
FN (op_sum_all, gnn_tensor_sum_all (x[0], e))
FN (op_mean, gnn_tensor_mean (x[0], dim0, 1, TRUE, e))
FN (op_mean_all, gnn_tensor_mean_all (x[0], e))
FN (op_var, gnn_tensor_var (x[0], dim1, 1, 1.0, FALSE, e))
FN (op_var_dim0, gnn_tensor_var (x[0], dim0, 1, 0.0, TRUE, e))
FN (op_var_all, gnn_tensor_var_all (x[0], 1.0, e))

/* batch normalisation of a training batch (3 samples, 4 channels) through the fused kernels,
 * the weight and the bias rows of the other leaves */
static GnnTensor *
op_batch_norm (GnnTensor **x, GError **e)
{
  g_autoptr(GnnTensor) w = gnn_tensor_select (x[1], 0, 0, e);
  g_autoptr(GnnTensor) b = w ? gnn_tensor_select (x[2], 0, 1, e) : NULL;

  if (b == NULL)
    return NULL;
  if (!gnn_batch_norm_fused_available (x[0]))
    {
      g_set_error (e, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED, "no fused batch norm kernels");
      return NULL;
    }
  return gnn_batch_norm_train_fused (x[0], w, b, 1e-5, NULL, NULL, e);
}
/* one LSTM or GRU layer direction as one op (3 steps, batch 1, hidden size 1) through the
 * cell kernels: the projected input from x[0], W_hh from x[1], the initial states from x[2] */
static GnnTensor *
op_rnn_layer (GnnTensor **x, gboolean lstm, GError **e)
{
  gint64 shape[3] = { 3, 1, lstm ? 4 : 3 };
  g_autoptr(GnnTensor) cols = gnn_tensor_narrow (x[0], 1, 0, lstm ? 4 : 3, e);
  g_autoptr(GnnTensor) xp = cols ? gnn_tensor_reshape (cols, shape, 3, e) : NULL;
  g_autoptr(GnnTensor) wt = xp ? gnn_tensor_t (x[1], e) : NULL;
  g_autoptr(GnnTensor) w = wt ? gnn_tensor_narrow (wt, 0, 0, lstm ? 4 : 3, e) : NULL;
  g_autoptr(GnnTensor) w1 = w ? gnn_tensor_narrow (w, 1, 0, 1, e) : NULL;
  g_autoptr(GnnTensor) h0 = w1 ? gnn_tensor_narrow (x[2], 0, 0, 1, e) : NULL;
  g_autoptr(GnnTensor) h1 = h0 ? gnn_tensor_narrow (h0, 1, 0, 1, e) : NULL;
  g_autoptr(GnnTensor) c1 = h1 ? gnn_tensor_narrow (h0, 1, 1, 1, e) : NULL;
  g_autoptr(GnnTensor) hn = NULL, cn = NULL;

  if (c1 == NULL)
    return NULL;
  if (!gnn_rnn_layer_fused_available (xp))
    {
      g_set_error (e, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED, "no fused recurrent-cell kernels");
      return NULL;
    }
  return gnn_rnn_layer_fused (lstm, FALSE, xp, w1, NULL, h1, lstm ? c1 : NULL, &hn, lstm ? &cn : NULL, e);
}
FN (op_lstm_layer, op_rnn_layer (x, TRUE, e))
FN (op_gru_layer, op_rnn_layer (x, FALSE, e))
/* attention of 3 queries over 3 keys of size 4 through the fused kernels, and its causal form */
FN (op_sdpa, gnn_scaled_dot_product_attention (x[0], x[1], x[2], NULL, 0.0, FALSE, 0.0, e))
FN (op_sdpa_causal, gnn_scaled_dot_product_attention (x[0], x[1], x[2], NULL, 0.0, TRUE, 0.3, e))
FN (op_max_all, gnn_tensor_max_all (x[0], e))
FN (op_min_all, gnn_tensor_min_all (x[0], e))
FN (op_argmax, gnn_tensor_argmax (x[0], 1, FALSE, e))
FN (op_argmax_all, gnn_tensor_argmax_all (x[0], e))
FN (op_argmin, gnn_tensor_argmin (x[0], 0, TRUE, e))

static GnnTensor *
op_max_dim (GnnTensor **x, GError **e)
{
  g_autoptr(GnnTensor) indices = NULL;
  GnnTensor *values = gnn_tensor_max_dim (x[0], 1, FALSE, &indices, e);

  if (values && indices == NULL)
    {
      g_set_error_literal (e, GNN_ERROR, GNN_ERROR_FAILED, "max_dim gave no indices");
      g_clear_object (&values);
    }
  return values;
}

static GnnTensor *
op_min_dim (GnnTensor **x, GError **e)
{
  g_autoptr(GnnTensor) indices = NULL;
  GnnTensor *values = gnn_tensor_min_dim (x[0], 0, TRUE, &indices, e);

  if (values && indices == NULL)
    {
      g_set_error_literal (e, GNN_ERROR, GNN_ERROR_FAILED, "min_dim gave no indices");
      g_clear_object (&values);
    }
  return values;
}

/* an integer reduction */
static GnnTensor *
op_sum_int (GnnTensor **x, GError **e)
{
  g_autoptr(GnnTensor) i = gnn_tensor_to_dtype (x[0], GNN_DTYPE_INT64, e);
  return i ? gnn_tensor_sum (i, dim1, 1, FALSE, e) : NULL;
}

static GnnTensor *
op_max_int (GnnTensor **x, GError **e)
{
  g_autoptr(GnnTensor) i = gnn_tensor_to_dtype (x[0], GNN_DTYPE_INT64, e);
  return i ? gnn_tensor_max_dim (i, 0, FALSE, NULL, e) : NULL;
}

/* the scans and sorts, and cumsum, cumprod and sort of int64 */
FN (op_cumsum, gnn_tensor_cumsum (x[0], 1, e))
FN (op_cumprod, gnn_tensor_cumprod (x[0], 0, e))
FN (op_logcumsumexp, gnn_tensor_logcumsumexp (x[0], -1, e))
FN (op_sort, gnn_tensor_sort (x[0], 1, TRUE, TRUE, NULL, e))
FN (op_topk, gnn_tensor_topk (x[0], 2, 0, FALSE, TRUE, NULL, e))

static GnnTensor *
op_cumsum_cumprod_int (GnnTensor **x, GError **e)
{
  g_autoptr(GnnTensor) i = gnn_tensor_to_dtype (x[0], GNN_DTYPE_INT64, e);
  g_autoptr(GnnTensor) s = i ? gnn_tensor_cumsum (i, 0, e) : NULL;
  g_autoptr(GnnTensor) p = s ? gnn_tensor_cumprod (s, 1, e) : NULL;
  return p ? gnn_tensor_sort (p, 0, FALSE, TRUE, NULL, e) : NULL;
}

static const OpCase reduce_cases[] = {
  { "sum", op_sum, 1, -2, 2, TRUE },
  { "sum (keepdim)", op_sum_keep, 1, -2, 2, TRUE },
  { "sum (both dims)", op_sum_both, 1, -2, 2, TRUE },
  { "sum_all", op_sum_all, 1, -2, 2, TRUE },
  { "mean", op_mean, 1, -2, 2, TRUE },
  { "mean_all", op_mean_all, 1, -2, 2, TRUE },
  { "var", op_var, 1, -2, 2, TRUE },
  { "var (dim 0)", op_var_dim0, 1, -2, 2, TRUE },
  { "var_all", op_var_all, 1, -2, 2, TRUE },
  { "batch_norm (training)", op_batch_norm, 3, -2, 2, TRUE },
  { "scaled_dot_product_attention", op_sdpa, 3, -2, 2, TRUE },
  { "scaled_dot_product_attention (causal)", op_sdpa_causal, 3, -2, 2, TRUE },
  { "LSTM layer (fused)", op_lstm_layer, 3, -2, 2, TRUE },
  { "GRU layer (fused)", op_gru_layer, 3, -2, 2, TRUE },
  { "max_dim", op_max_dim, 1, -2, 2, TRUE },
  { "min_dim", op_min_dim, 1, -2, 2, TRUE },
  { "max_all", op_max_all, 1, -2, 2, TRUE },
  { "min_all", op_min_all, 1, -2, 2, TRUE },
  { "argmax", op_argmax, 1, -2, 2, FALSE },
  { "argmax_all", op_argmax_all, 1, -2, 2, FALSE },
  { "argmin", op_argmin, 1, -2, 2, FALSE },
  { "sum (int64)", op_sum_int, 1, -9, 9, FALSE },
  { "max_dim (int64)", op_max_int, 1, -9, 9, FALSE },
  { "cumsum", op_cumsum, 1, -2, 2, TRUE },
  { "cumprod", op_cumprod, 1, -2, 2, TRUE },
  { "logcumsumexp", op_logcumsumexp, 1, -2, 2, TRUE },
  { "sort", op_sort, 1, -2, 2, TRUE },
  { "topk", op_topk, 1, -2, 2, TRUE },
  { "cumsum, cumprod, sort (int64)", op_cumsum_cumprod_int, 1, -3, 3, FALSE },
};

/* ---- views, shapes, joining and indexing -------------------------------------------- */

FN (op_view, gnn_tensor_view (x[0], GNN_TEST_SHAPE (2, 6), 2, e))
FN (op_transpose, gnn_tensor_transpose (x[0], 0, 1, e))
FN (op_t, gnn_tensor_t (x[0], e))
FN (op_narrow, gnn_tensor_narrow (x[0], 1, 1, 2, e))
FN (op_select, gnn_tensor_select (x[0], 0, 2, e))
FN (op_slice, gnn_tensor_slice (x[0], 1, 0, 4, 2, e))
FN (op_unsqueeze, gnn_tensor_unsqueeze (x[0], 1, e))
FN (op_flatten, gnn_tensor_flatten (x[0], 0, -1, e))
FN (op_clone, gnn_tensor_clone (x[0], e))
FN (op_to_f32, gnn_tensor_to_dtype (x[0], GNN_DTYPE_FLOAT32, e))
FN (op_to_cpu, gnn_tensor_to_device (x[0], "cpu", e))

static GnnTensor *
op_permute (GnnTensor **x, GError **e)
{
  const int perm[] = { 1, 0 };
  return gnn_tensor_permute (x[0], perm, 2, e);
}

/* reshape of a transposed view copies */
static GnnTensor *
op_reshape (GnnTensor **x, GError **e)
{
  g_autoptr(GnnTensor) t = gnn_tensor_t (x[0], e);
  return t ? gnn_tensor_reshape (t, GNN_TEST_SHAPE (12), 1, e) : NULL;
}

static GnnTensor *
op_contiguous (GnnTensor **x, GError **e)
{
  g_autoptr(GnnTensor) t = gnn_tensor_t (x[0], e);
  return t ? gnn_tensor_contiguous (t, e) : NULL;
}

static GnnTensor *
op_expand (GnnTensor **x, GError **e)
{
  g_autoptr(GnnTensor) u = gnn_tensor_unsqueeze (x[0], 0, e);
  return u ? gnn_tensor_expand (u, GNN_TEST_SHAPE (2, 3, 4), 3, e) : NULL;
}

static GnnTensor *
op_squeeze (GnnTensor **x, GError **e)
{
  g_autoptr(GnnTensor) u = gnn_tensor_unsqueeze (x[0], 0, e);
  return u ? gnn_tensor_squeeze (u, e) : NULL;
}

static GnnTensor *
op_squeeze_dim (GnnTensor **x, GError **e)
{
  g_autoptr(GnnTensor) u = gnn_tensor_unsqueeze (x[0], 2, e);
  return u ? gnn_tensor_squeeze_dim (u, 2, e) : NULL;
}

/* float64 → float16 → bfloat16 → float64, gradients flowing back through each conversion */
static GnnTensor *
op_to_half (GnnTensor **x, GError **e)
{
  g_autoptr(GnnTensor) h = gnn_tensor_to_dtype (x[0], GNN_DTYPE_FLOAT16, e);
  g_autoptr(GnnTensor) b = h ? gnn_tensor_to_dtype (h, GNN_DTYPE_BFLOAT16, e) : NULL;
  return b ? gnn_tensor_to_dtype (b, GNN_DTYPE_FLOAT64, e) : NULL;
}

static GnnTensor *
op_cat (GnnTensor **x, GError **e)
{
  return gnn_cat (x, 2, 0, e);
}

static GnnTensor *
op_stack (GnnTensor **x, GError **e)
{
  return gnn_stack (x, 2, 1, e);
}

/* index_select with repeated indices; backward adds them up (index_add) */
static GnnTensor *
op_index_select (GnnTensor **x, GError **e)
{
  const gint64 idx[] = { 3, 0, 3, 1, 3 };
  g_autoptr(GnnTensor) index = gnn_tensor_new_from_int64s (idx, 5, GNN_TEST_SHAPE (5), 1, e);
  return index ? gnn_tensor_index_select (x[0], 1, index, e) : NULL;
}

static GnnTensor *
op_index_select_rows (GnnTensor **x, GError **e)
{
  const gint64 idx[] = { 2, 2, 0 };
  g_autoptr(GnnTensor) index = gnn_tensor_new_from_int64s (idx, 3, GNN_TEST_SHAPE (3), 1, e);
  return index ? gnn_tensor_index_select (x[0], 0, index, e) : NULL;
}

/* gather along dim 1; backward scatters and adds (scatter_add) */
static GnnTensor *
op_gather (GnnTensor **x, GError **e)
{
  const gint64 idx[] = { 0, 3, 3, 1, 2, 2, 0, 0, 1 };
  g_autoptr(GnnTensor) index = gnn_tensor_new_from_int64s (idx, 9, GNN_TEST_SHAPE (3, 3), 2, e);
  return index ? gnn_tensor_gather (x[0], 1, index, e) : NULL;
}

static GnnTensor *
op_gather_dim0 (GnnTensor **x, GError **e)
{
  const gint64 idx[] = { 2, 0, 1, 1, 0, 0, 2, 2 };
  g_autoptr(GnnTensor) index = gnn_tensor_new_from_int64s (idx, 8, GNN_TEST_SHAPE (2, 4), 2, e);
  return index ? gnn_tensor_gather (x[0], 0, index, e) : NULL;
}

/* scatter_reduce along dim 0 (SCATTER_REDUCE); backward gathers and scatters back */
static GnnTensor *
op_scatter_reduce (GnnTensor **x, GError **e)
{
  const gint64 idx[] = { 2, 0, 1, 1, 0, 0, 2, 2, 1, 1, 0, 2 };
  g_autoptr(GnnTensor) index = gnn_tensor_new_from_int64s (idx, 12, GNN_TEST_SHAPE (3, 4), 2, e);
  return index ? gnn_tensor_scatter_reduce (x[0], 0, index, x[1], "amax", TRUE, e) : NULL;
}

static GnnTensor *
op_one_hot (GnnTensor **x, GError **e)
{
  g_autoptr(GnnTensor) labels = gnn_tensor_argmax (x[0], 1, FALSE, e);
  return labels ? gnn_tensor_one_hot (labels, 4, e) : NULL;
}

/* im2col / col2im: a (1, 1, 3, 4) image and a (1, 1, 3, 4) kernel with padding, stride and
 * dilation; conv1d through the same kernels */
static GnnTensor *
op_conv2d (GnnTensor **x, GError **e)
{
  const gint64 stride[2] = { 1, 2 }, padding[2] = { 1, 2 }, dilation[2] = { 1, 1 };
  g_autoptr(GnnTensor) img = gnn_tensor_view (x[0], GNN_TEST_SHAPE (1, 1, 3, 4), 4, e);
  g_autoptr(GnnTensor) w = img ? gnn_tensor_view (x[1], GNN_TEST_SHAPE (1, 1, 3, 4), 4, e) : NULL;
  return w ? gnn_tensor_conv2d (img, w, NULL, stride, padding, dilation, 1, e) : NULL;
}

static GnnTensor *
op_conv_transpose2d (GnnTensor **x, GError **e)
{
  const gint64 stride[2] = { 2, 1 }, padding[2] = { 0, 1 }, output_padding[2] = { 1, 0 }, dilation[2] = { 1, 1 };
  g_autoptr(GnnTensor) img = gnn_tensor_view (x[0], GNN_TEST_SHAPE (1, 2, 2, 3), 4, e);
  g_autoptr(GnnTensor) w = img ? gnn_tensor_view (x[1], GNN_TEST_SHAPE (2, 3, 1, 2), 4, e) : NULL;
  return w ? gnn_tensor_conv_transpose2d (img, w, NULL, stride, padding, output_padding, 1, dilation, e) : NULL;
}

static GnnTensor *
op_conv1d (GnnTensor **x, GError **e)
{
  g_autoptr(GnnTensor) w = gnn_tensor_view (x[1], GNN_TEST_SHAPE (2, 3, 2), 3, e);
  return w ? gnn_tensor_conv1d (x[0], w, NULL, 1, 1, 2, 1, e) : NULL;
}

/* max / avg pooling of a (1, 3, 4) image, with padding and ceil_mode */
static GnnTensor *
op_max_pool2d (GnnTensor **x, GError **e)
{
  const gint64 k[2] = { 2, 2 }, s[2] = { 1, 2 }, p[2] = { 1, 1 };
  g_autoptr(GnnTensor) img = gnn_tensor_view (x[0], GNN_TEST_SHAPE (1, 3, 4), 3, e);
  g_autoptr(GnnTensor) idx = NULL;
  return img ? gnn_tensor_max_pool2d (img, k, s, p, NULL, TRUE, &idx, e) : NULL;
}

static GnnTensor *
op_avg_pool2d (GnnTensor **x, GError **e)
{
  const gint64 k[2] = { 2, 3 }, p[2] = { 1, 1 };
  g_autoptr(GnnTensor) img = gnn_tensor_view (x[0], GNN_TEST_SHAPE (1, 3, 4), 3, e);
  return img ? gnn_tensor_avg_pool2d (img, k, NULL, p, TRUE, FALSE, 0, e) : NULL;
}

static GnnTensor *
op_adaptive_avg_pool2d (GnnTensor **x, GError **e)
{
  const gint64 size[2] = { 2, 3 };
  g_autoptr(GnnTensor) img = gnn_tensor_view (x[0], GNN_TEST_SHAPE (1, 3, 4), 3, e);
  return img ? gnn_tensor_adaptive_avg_pool2d (img, size, e) : NULL;
}

/* vol2col / col2vol: a (1, 1, 2, 2, 3) volume and kernel with padding and stride, and the 3-d
 * pools of an unbatched (1, 2, 2, 3) volume, with padding and ceil_mode */
static GnnTensor *
op_conv3d (GnnTensor **x, GError **e)
{
  const gint64 stride[3] = { 1, 1, 2 }, padding[3] = { 1, 1, 1 }, dilation[3] = { 1, 1, 1 };
  g_autoptr(GnnTensor) vol = gnn_tensor_view (x[0], GNN_TEST_SHAPE (1, 1, 2, 2, 3), 5, e);
  g_autoptr(GnnTensor) w = vol ? gnn_tensor_view (x[1], GNN_TEST_SHAPE (1, 1, 2, 2, 3), 5, e) : NULL;
  return w ? gnn_tensor_conv3d (vol, w, NULL, stride, padding, dilation, 1, e) : NULL;
}

static GnnTensor *
op_conv_transpose3d (GnnTensor **x, GError **e)
{
  const gint64 stride[3] = { 2, 1, 1 }, padding[3] = { 0, 1, 0 }, output_padding[3] = { 1, 0, 0 };
  const gint64 dilation[3] = { 1, 1, 1 };
  g_autoptr(GnnTensor) vol = gnn_tensor_view (x[0], GNN_TEST_SHAPE (1, 2, 1, 2, 3), 5, e);
  g_autoptr(GnnTensor) w = vol ? gnn_tensor_view (x[1], GNN_TEST_SHAPE (2, 1, 1, 2, 3), 5, e) : NULL;
  return w ? gnn_tensor_conv_transpose3d (vol, w, NULL, stride, padding, output_padding, 1, dilation, e) : NULL;
}

static GnnTensor *
op_max_pool3d (GnnTensor **x, GError **e)
{
  const gint64 k[3] = { 2, 2, 2 }, s[3] = { 1, 1, 2 }, p[3] = { 1, 1, 1 };
  g_autoptr(GnnTensor) vol = gnn_tensor_view (x[0], GNN_TEST_SHAPE (1, 2, 2, 3), 4, e);
  g_autoptr(GnnTensor) idx = NULL;
  return vol ? gnn_tensor_max_pool3d (vol, k, s, p, NULL, TRUE, &idx, e) : NULL;
}

static GnnTensor *
op_avg_pool3d (GnnTensor **x, GError **e)
{
  const gint64 k[3] = { 2, 2, 3 }, p[3] = { 1, 1, 1 };
  g_autoptr(GnnTensor) vol = gnn_tensor_view (x[0], GNN_TEST_SHAPE (1, 2, 2, 3), 4, e);
  return vol ? gnn_tensor_avg_pool3d (vol, k, NULL, p, TRUE, FALSE, 0, e) : NULL;
}

static GnnTensor *
op_adaptive_avg_pool3d (GnnTensor **x, GError **e)
{
  const gint64 size[3] = { 2, 3, 2 };
  g_autoptr(GnnTensor) vol = gnn_tensor_view (x[0], GNN_TEST_SHAPE (1, 2, 2, 3), 4, e);
  return vol ? gnn_tensor_adaptive_avg_pool3d (vol, size, e) : NULL;
}

static GnnTensor *
op_adaptive_max_pool3d (GnnTensor **x, GError **e)
{
  const gint64 size[3] = { 1, 2, 2 };
  g_autoptr(GnnTensor) vol = gnn_tensor_view (x[0], GNN_TEST_SHAPE (1, 2, 2, 3), 4, e);
  g_autoptr(GnnTensor) idx = NULL;
  return vol ? gnn_tensor_adaptive_max_pool3d (vol, size, &idx, e) : NULL;
}

static const OpCase shape_cases[] = {
  { "view", op_view, 1, -2, 2, TRUE },
  { "reshape", op_reshape, 1, -2, 2, TRUE },
  { "transpose", op_transpose, 1, -2, 2, TRUE },
  { "t", op_t, 1, -2, 2, TRUE },
  { "permute", op_permute, 1, -2, 2, TRUE },
  { "narrow", op_narrow, 1, -2, 2, TRUE },
  { "select", op_select, 1, -2, 2, TRUE },
  { "slice", op_slice, 1, -2, 2, TRUE },
  { "expand", op_expand, 1, -2, 2, TRUE },
  { "unsqueeze", op_unsqueeze, 1, -2, 2, TRUE },
  { "squeeze", op_squeeze, 1, -2, 2, TRUE },
  { "squeeze_dim", op_squeeze_dim, 1, -2, 2, TRUE },
  { "flatten", op_flatten, 1, -2, 2, TRUE },
  { "contiguous", op_contiguous, 1, -2, 2, TRUE },
  { "clone", op_clone, 1, -2, 2, TRUE },
  { "to_dtype", op_to_f32, 1, -2, 2, TRUE },
  { "to_dtype (float16, bfloat16)", op_to_half, 1, -2, 2, TRUE },
  { "to_device", op_to_cpu, 1, -2, 2, TRUE },
  { "cat", op_cat, 2, -2, 2, TRUE },
  { "stack", op_stack, 2, -2, 2, TRUE },
  { "index_select", op_index_select, 1, -2, 2, TRUE },
  { "index_select (dim 0)", op_index_select_rows, 1, -2, 2, TRUE },
  { "gather", op_gather, 1, -2, 2, TRUE },
  { "gather (dim 0)", op_gather_dim0, 1, -2, 2, TRUE },
  { "one_hot", op_one_hot, 1, -2, 2, FALSE },
  { "scatter_reduce", op_scatter_reduce, 2, -2, 2, TRUE },
  { "conv2d", op_conv2d, 2, -2, 2, TRUE },
  { "conv1d", op_conv1d, 2, -2, 2, TRUE },
  { "conv_transpose2d", op_conv_transpose2d, 2, -2, 2, TRUE },
  { "max_pool2d", op_max_pool2d, 1, -2, 2, TRUE },
  { "avg_pool2d", op_avg_pool2d, 1, -2, 2, TRUE },
  { "adaptive_avg_pool2d", op_adaptive_avg_pool2d, 1, -2, 2, TRUE },
  { "conv3d", op_conv3d, 2, -2, 2, TRUE },
  { "conv_transpose3d", op_conv_transpose3d, 2, -2, 2, TRUE },
  { "max_pool3d", op_max_pool3d, 1, -2, 2, TRUE },
  { "avg_pool3d", op_avg_pool3d, 1, -2, 2, TRUE },
  { "adaptive_avg_pool3d", op_adaptive_avg_pool3d, 1, -2, 2, TRUE },
  { "adaptive_max_pool3d", op_adaptive_max_pool3d, 1, -2, 2, TRUE },
};

/* ---- in place ----------------------------------------------------------------------- */

/* x[0] cloned (so that it may change), changed by @expr on `c`, returned */
#define INPLACE(name, expr)                                                  \
  static GnnTensor *name (GnnTensor **x, GError **e)                         \
  {                                                                          \
    GnnTensor *c = gnn_tensor_clone (x[0], e);                               \
    if (c && !(expr))                                                        \
      g_clear_object (&c);                                                   \
    return c;                                                                \
  }

INPLACE (op_add_, gnn_tensor_add_ (c, x[1], 0.5, e))
INPLACE (op_sub_, gnn_tensor_sub_ (c, x[1], 0.5, e))
INPLACE (op_mul_, gnn_tensor_mul_ (c, x[1], e))
INPLACE (op_div_, gnn_tensor_div_ (c, x[1], e))
INPLACE (op_add_scalar_, gnn_tensor_add_scalar_ (c, 2.0, e))
INPLACE (op_mul_scalar_, gnn_tensor_mul_scalar_ (c, 2.0, e))
INPLACE (op_fill_, gnn_tensor_fill_ (c, 3.0, e))
INPLACE (op_zero_, gnn_tensor_zero_ (c, e))

/* the optimizer helpers: no autograd, as in an optimizer step */
#define INPLACE_NO_GRAD(name, expr)                                          \
  static GnnTensor *name (GnnTensor **x, GError **e)                         \
  {                                                                          \
    g_autoptr(GnnNoGradGuard) guard = gnn_no_grad_guard_new ();              \
    GnnTensor *c = gnn_tensor_clone (x[0], e);                               \
    if (c && !(expr))                                                        \
      g_clear_object (&c);                                                   \
    return c;                                                                \
  }

INPLACE_NO_GRAD (op_lerp_, gnn_tensor_lerp_ (c, x[1], 0.3, e))
INPLACE_NO_GRAD (op_lerp_far_, gnn_tensor_lerp_ (c, x[1], 0.9, e))
INPLACE_NO_GRAD (op_addcmul_, gnn_tensor_addcmul_ (c, x[1], x[2], 0.5, e))
INPLACE_NO_GRAD (op_addcdiv_, gnn_tensor_addcdiv_ (c, x[1], x[2], -0.5, e))

/* two tensors in one multi-tensor call: a contiguous one and a transposed view */
static GnnTensor *
op_foreach_lerp_ (GnnTensor **x, GError **e)
{
  g_autoptr(GnnNoGradGuard) guard = gnn_no_grad_guard_new ();
  GnnTensor *c = gnn_tensor_clone (x[0], e);
  g_autoptr(GnnTensor) d = c ? gnn_tensor_clone (x[1], e) : NULL;
  g_autoptr(GnnTensor) dt = d ? gnn_tensor_t (d, e) : NULL;
  g_autoptr(GnnTensor) x0t = dt ? gnn_tensor_t (x[0], e) : NULL;
  GnnTensor *selves[2] = { c, dt }, *ends[2] = { x[1], x0t };

  if (x0t == NULL || !gnn_foreach_lerp_ (selves, ends, 2, 0.3, e))
    g_clear_object (&c);
  return c;
}

/* copy_ into a tensor without history: the gradient flows to the source */
static GnnTensor *
op_copy_ (GnnTensor **x, GError **e)
{
  GnnTensor *c = gnn_tensor_new_zeros (GNN_TEST_SHAPE (3, 4), 2, GNN_DTYPE_FLOAT32, NULL, e);

  if (c && !gnn_tensor_copy_ (c, x[0], e))
    g_clear_object (&c);
  return c;
}

static const OpCase inplace_cases[] = {
  { "add_", op_add_, 2, -2, 2, TRUE },
  { "sub_", op_sub_, 2, -2, 2, TRUE },
  { "mul_", op_mul_, 2, -2, 2, TRUE },
  { "div_", op_div_, 2, 0.5, 2, TRUE },
  { "add_scalar_", op_add_scalar_, 1, -2, 2, TRUE },
  { "mul_scalar_", op_mul_scalar_, 1, -2, 2, TRUE },
  { "copy_", op_copy_, 1, -2, 2, TRUE },
  { "fill_", op_fill_, 1, -2, 2, FALSE },
  { "zero_", op_zero_, 1, -2, 2, FALSE },
  { "lerp_", op_lerp_, 2, -2, 2, FALSE },
  { "lerp_ (weight ≥ 0.5)", op_lerp_far_, 2, -2, 2, FALSE },
  { "addcmul_", op_addcmul_, 3, -2, 2, FALSE },
  { "addcdiv_", op_addcdiv_, 3, 0.5, 2, FALSE },
  { "_foreach_lerp_", op_foreach_lerp_, 2, -2, 2, FALSE },
};

/* ---- creation and data access, in every dtype --------------------------------------- */

static void
check_created (GString *failures, const char *what, GnnTensor *t, GError *error)
{
  if (t == NULL)
    g_string_append_printf (failures, "\n  %s: %s", what, error ? error->message : "NULL without an error");
  g_clear_object (&t);
}

static void
exercise_creation (GString *failures)
{
  const gint64 shape[] = { 2, 3 };

  for (GnnDtype d = GNN_DTYPE_FLOAT32; d <= GNN_DTYPE_BFLOAT16; d++)
    {
      g_autoptr(GError) error = NULL;
      g_autofree char *what = NULL;
      GnnTensor *t;

#define CREATED(name, expr)                                                       \
      G_STMT_START {                                                              \
        g_free (what);                                                            \
        what = g_strdup_printf ("%s (%s)", name, gnn_dtype_get_name (d));         \
        t = (expr);                                                               \
        check_created (failures, what, t, error);                                 \
        g_clear_error (&error);                                                   \
      } G_STMT_END

      CREATED ("empty", gnn_tensor_new_empty (shape, 2, d, NULL, &error));
      CREATED ("zeros", gnn_tensor_new_zeros (shape, 2, d, "cpu", &error));
      CREATED ("ones", gnn_tensor_new_ones (shape, 2, d, NULL, &error));
      CREATED ("full", gnn_tensor_new_full (shape, 2, 2.5, d, NULL, &error));
      CREATED ("scalar", gnn_tensor_new_scalar (1.0, d, NULL, &error));
      CREATED ("eye", gnn_tensor_new_eye (3, 4, d, NULL, &error));
      if (d != GNN_DTYPE_BOOL)
        CREATED ("arange", gnn_tensor_new_arange (0, 5, 1, d, NULL, &error));
      if (gnn_dtype_is_floating (d))
        {
          CREATED ("rand", gnn_tensor_new_rand (shape, 2, NULL, d, NULL, &error));
          CREATED ("randn", gnn_tensor_new_randn (shape, 2, NULL, d, NULL, &error));
        }

      /* every dtype converted to every other, from a strided view */
      {
        g_autoptr(GnnTensor) src = gnn_tensor_new_arange (-3, 3, 1, GNN_DTYPE_FLOAT64, NULL, &error);
        g_autoptr(GnnTensor) m = src ? gnn_tensor_view (src, shape, 2, &error) : NULL;
        g_autoptr(GnnTensor) mt = m ? gnn_tensor_t (m, &error) : NULL;
        g_autoptr(GnnTensor) conv = mt ? gnn_tensor_to_dtype (mt, d, &error) : NULL;

        for (GnnDtype d2 = GNN_DTYPE_FLOAT32; conv && d2 <= GNN_DTYPE_BFLOAT16; d2++)
          {
            g_autoptr(GnnTensor) ct = gnn_tensor_t (conv, &error);
            g_autofree char *name = g_strdup_printf ("to_dtype %s", gnn_dtype_get_name (d2));
            CREATED (name, ct ? gnn_tensor_to_dtype (ct, d2, &error) : NULL);
          }
        if (conv)
          {
            g_autofree char *s = gnn_tensor_to_string (conv);
            g_autofree double *v = gnn_tensor_to_doubles (conv, NULL, &error);
            if (v == NULL)
              g_string_append_printf (failures, "\n  to_doubles (%s): %s", gnn_dtype_get_name (d),
                                      error ? error->message : "failed");
            g_clear_error (&error);
          }
        else
          {
            g_string_append_printf (failures, "\n  to_dtype (%s): %s", gnn_dtype_get_name (d),
                                    error ? error->message : "failed");
            g_clear_error (&error);
          }
      }
#undef CREATED
    }

  {
    g_autoptr(GError) error = NULL;
    const float f[] = { 1, 2, 3, 4, 5, 6 };
    const double dv[] = { 1, 2, 3, 4, 5, 6 };
    const gint64 iv[] = { 1, 2, 3, 4, 5, 6 };
    g_autoptr(GBytes) bytes = g_bytes_new (f, sizeof f);
    g_autoptr(GnnTensor) a = gnn_tensor_new_from_floats (f, 6, shape, 2, &error);
    g_autoptr(GnnTensor) b = gnn_tensor_new_from_doubles (dv, 6, shape, 2, &error);
    g_autoptr(GnnTensor) c = gnn_tensor_new_from_int64s (iv, 6, shape, 2, &error);
    g_autoptr(GnnTensor) d = gnn_tensor_new_from_bytes (bytes, GNN_DTYPE_FLOAT32, shape, 2, NULL, &error);
    g_autoptr(GnnTensor) r = gnn_tensor_new_randint (-4, 4, shape, 2, NULL, NULL, &error);
    g_autoptr(GnnTensor) at = NULL;
    g_autoptr(GBytes) out = NULL;
    g_autofree float *fo = NULL;
    g_autofree gint64 *io = NULL;
    gsize n;

    if (!a || !b || !c || !d || !r)
      {
        g_string_append_printf (failures, "\n  from data: %s", error ? error->message : "failed");
        return;
      }
    /* reading a strided view out copies it */
    at = gnn_tensor_t (a, &error);
    out = at ? gnn_tensor_get_bytes (at, &error) : NULL;
    fo = at ? gnn_tensor_to_floats (at, &n, &error) : NULL;
    io = gnn_tensor_to_int64s (c, &n, &error);
    if (!out || !fo || !io || !gnn_tensor_set_data (b, c, &error))
      g_string_append_printf (failures, "\n  data access: %s", error ? error->message : "failed");
    g_clear_error (&error);
    {
      g_autoptr(GnnTensor) one = gnn_tensor_select (r, 0, 1, &error);
      g_autoptr(GnnTensor) item = one ? gnn_tensor_select (one, 0, 2, &error) : NULL;

      if (item)
        gnn_tensor_item (item, &error);
      if (error)
        g_string_append_printf (failures, "\n  item: %s", error->message);
    }
  }
}

/* ---- the tests ---------------------------------------------------------------------- */

enum { GROUP_CREATION, GROUP_ELEMENTWISE, GROUP_UNARY, GROUP_LINALG, GROUP_REDUCE, GROUP_SHAPE,
       GROUP_INPLACE, N_GROUPS };
static gboolean group_ran[N_GROUPS];

static void
run_group (guint group)
{
  group_ran[group] = TRUE;
  switch (group)
    {
    case GROUP_CREATION:
      {
        g_autoptr(GString) failures = g_string_new (NULL);
        exercise_creation (failures);
        if (failures->len)
          g_test_fail_printf ("creation that failed:%s", failures->str);
      }
      break;
    case GROUP_ELEMENTWISE:
      run_cases (elementwise_cases, G_N_ELEMENTS (elementwise_cases));
      break;
    case GROUP_UNARY:
      run_cases (unary_cases, G_N_ELEMENTS (unary_cases));
      break;
    case GROUP_LINALG:
      run_cases (linalg_cases, G_N_ELEMENTS (linalg_cases));
      break;
    case GROUP_REDUCE:
      run_cases (reduce_cases, G_N_ELEMENTS (reduce_cases));
      break;
    case GROUP_SHAPE:
      run_cases (shape_cases, G_N_ELEMENTS (shape_cases));
      break;
    case GROUP_INPLACE:
      run_cases (inplace_cases, G_N_ELEMENTS (inplace_cases));
      break;
    }
}

static void
test_group (gconstpointer data)
{
  run_group (GPOINTER_TO_UINT (data));
}

/* Every kernel of the interface was dispatched to the backend in use at least once. */
static void
test_every_kernel (void)
{
  GnnBackend *backend = backend_in_use ();
  g_autoptr(GEnumClass) klass = g_type_class_ref (GNN_TYPE_BACKEND_OP);
  g_autoptr(GString) missing = g_string_new (NULL);

  /* when run alone (-p), exercise everything first */
  for (guint g = 0; g < N_GROUPS; g++)
    if (!group_ran[g])
      run_group (g);

  for (int op = 0; op < GNN_BACKEND_OP_N_OPS; op++)
    if (gnn_backend_get_kernel_count (backend, op) == 0)
      {
        GEnumValue *v = g_enum_get_value (klass, op);
        g_string_append_printf (missing, " %s", v ? v->value_nick : "?");
      }
  if (missing->len)
    g_test_fail_printf ("kernels the public ops never reached on the %s backend:%s",
                        gnn_backend_get_name (backend), missing->str);
}

int
main (int argc, char *argv[])
{
  static const char *group_paths[N_GROUPS] = {
    "/kernel-coverage/creation", "/kernel-coverage/elementwise", "/kernel-coverage/unary",
    "/kernel-coverage/linalg", "/kernel-coverage/reduce", "/kernel-coverage/shape",
    "/kernel-coverage/inplace",
  };

  gnn_test_init (&argc, &argv);
  /* a failing group is reported and the others still run, so that the last test can list
   * every kernel that was not reached */
  g_test_set_nonfatal_assertions ();
  gnn_backend_reset_kernel_counts (backend_in_use ());

  for (guint g = 0; g < N_GROUPS; g++)
    g_test_add_data_func (group_paths[g], GUINT_TO_POINTER (g), test_group);
  g_test_add_func ("/kernel-coverage/every-kernel", test_every_kernel);

  return g_test_run ();
}
