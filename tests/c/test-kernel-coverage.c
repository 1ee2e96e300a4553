/* test-kernel-coverage.c: every public op and creation function, forward and backward, then a
 * check that every kernel of GnnBackendOp was reached on the backend in use
 *
 * Runs on the built-in CPU backend and, as test-kernel-coverage-reference, on the reference
 * one. The values are not checked here (the op tests do that against PyTorch): an op that
 * fails is reported with its error, and every op is tried even when some fail.
 */
#include "config.h"

#include "gnn-test-util.h"

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
};

/* ---- linear algebra ----------------------------------------------------------------- */

FN (op_matmul, gnn_tensor_matmul (x[0], g_autoptr_cleanup_hack (x[1]), e))
