/* test-ops-unary.c: elementwise unary ops and activations: values, dtype rules, errors,
 * gradients (at kinks and by finite differences) and in-place modification detection */
#include "config.h"

#include "gnn-test-util.h"

#define SQRT1_2 0.70710678118654752440

/* ---- the ops as test functions ------------------------------------------------------- */

typedef GnnTensor *(*UnaryFunc) (GnnTensor *self, GError **error);

static GnnTensor *call_unary (GnnTensor *x, gpointer data, GError **error) { return ((UnaryFunc) data) (x, error); }
static GnnTensor *call_clamp (GnnTensor *x, gpointer data, GError **error) { return gnn_tensor_clamp (x, -0.5, 0.75, error); }
static GnnTensor *call_clamp_lower (GnnTensor *x, gpointer data, GError **error) { return gnn_tensor_clamp (x, -0.5, NAN, error); }
static GnnTensor *call_clamp_upper (GnnTensor *x, gpointer data, GError **error) { return gnn_tensor_clamp (x, NAN, 0.75, error); }
static GnnTensor *call_clamp_min (GnnTensor *x, gpointer data, GError **error) { return gnn_tensor_clamp_min (x, -0.5, error); }
static GnnTensor *call_clamp_max (GnnTensor *x, gpointer data, GError **error) { return gnn_tensor_clamp_max (x, 0.75, error); }
static GnnTensor *call_clamp_min_nan (GnnTensor *x, gpointer data, GError **error) { return gnn_tensor_clamp_min (x, NAN, error); }
static GnnTensor *call_leaky_relu (GnnTensor *x, gpointer data, GError **error) { return gnn_tensor_leaky_relu (x, 0.1, error); }
static GnnTensor *call_elu (GnnTensor *x, gpointer data, GError **error) { return gnn_tensor_elu (x, 0.7, error); }
static GnnTensor *call_gelu (GnnTensor *x, gpointer data, GError **error) { return gnn_tensor_gelu (x, NULL, error); }
static GnnTensor *call_gelu_tanh (GnnTensor *x, gpointer data, GError **error) { return gnn_tensor_gelu (x, "tanh", error); }

typedef struct {
  const char *name;
  GnnTestFunc fn;
  gpointer data;
  const char *grad_fn;
  double low, high;           /* the gradcheck domain */
} OpCase;

static const OpCase ops[] = {
  { "neg", call_unary, gnn_tensor_neg, "NegBackward0", -2, 2 },
  { "exp", call_unary, gnn_tensor_exp, "ExpBackward0", -2, 2 },
  { "log", call_unary, gnn_tensor_log, "LogBackward0", 0.2, 3 },
  { "sqrt", call_unary, gnn_tensor_sqrt, "SqrtBackward0", 0.2, 3 },
  { "abs", call_unary, gnn_tensor_abs, "AbsBackward0", -2, 2 },
  { "sign", call_unary, gnn_tensor_sign, "SignBackward0", -2, 2 },
  { "clamp", call_clamp, NULL, "ClampBackward1", -2, 2 },
  { "clamp-lower", call_clamp_lower, NULL, "ClampBackward1", -2, 2 },
  { "clamp-upper", call_clamp_upper, NULL, "ClampBackward1", -2, 2 },
  { "clamp_min", call_clamp_min, NULL, "ClampMinBackward0", -2, 2 },
  { "clamp_max", call_clamp_max, NULL, "ClampMaxBackward0", -2, 2 },
  { "relu", call_unary, gnn_tensor_relu, "ReluBackward0", -2, 2 },
  { "leaky_relu", call_leaky_relu, NULL, "LeakyReluBackward0", -2, 2 },
  { "elu", call_elu, NULL, "EluBackward0", -2, 2 },
  { "gelu", call_gelu, NULL, "GeluBackward0", -3, 3 },
  { "gelu-tanh", call_gelu_tanh, NULL, "GeluBackward0", -3, 3 },
  { "silu", call_unary, gnn_tensor_silu, "SiluBackward0", -4, 4 },
  { "sigmoid", call_unary, gnn_tensor_sigmoid, "SigmoidBackward0", -4, 4 },
  { "tanh", call_unary, gnn_tensor_tanh, "TanhBackward0", -3, 3 },
};

/* ---- values ------------------------------------------------------------------------- */

static double gelu_ref (double x) { return 0.5 * x * (1 + erf (x * SQRT1_2)); }
static double gelu_tanh_ref (double x) { return 0.5 * x * (1 + tanh (0.7978845608028654 * (x + 0.044715 * x * x * x))); }
static double sigmoid_ref (double x) { return 1 / (1 + exp (-x)); }

static void
assert_op_values (GnnTestFunc fn, gpointer data, const double *in, const double *want, gsize n)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) x = gnn_test_tensor_d (in, n, GNN_TEST_SHAPE ((gint64) n), 1);
  g_autoptr(GnnTensor) y = fn (x, data, &error);

  g_assert_no_error (error);
  g_assert_cmpint (gnn_tensor_get_dtype (y), ==, GNN_DTYPE_FLOAT64);
  gnn_test_assert_shape (y, GNN_TEST_SHAPE ((gint64) n), 1);
  gnn_test_assert_close (y, want, n, 1e-12, 1e-14);
}

static void
test_values (void)
{
  const double x[] = { -2.0, -0.5, 0.0, 0.25, 1.0, 3.0 };
  double want[6];

#define VALUES(FN, DATA, EXPR)                      \
  for (guint i = 0; i < 6; i++)                     \
    {                                               \
      double v = x[i];                              \
      want[i] = (EXPR);                             \
    }                                               \
  assert_op_values (FN, DATA, x, want, 6)

  VALUES (call_unary, gnn_tensor_neg, -v);
  VALUES (call_unary, gnn_tensor_exp, exp (v));
  VALUES (call_unary, gnn_tensor_abs, fabs (v));
  VALUES (call_unary, gnn_tensor_sign, v > 0 ? 1 : v < 0 ? -1 : 0);
  VALUES (call_unary, gnn_tensor_relu, v > 0 ? v : 0);
  VALUES (call_unary, gnn_tensor_sigmoid, sigmoid_ref (v));
  VALUES (call_unary, gnn_tensor_silu, v * sigmoid_ref (v));
  VALUES (call_unary, gnn_tensor_tanh, tanh (v));
  VALUES (call_clamp, NULL, v < -0.5 ? -0.5 : v > 0.75 ? 0.75 : v);
  VALUES (call_clamp_lower, NULL, v < -0.5 ? -0.5 : v);
  VALUES (call_clamp_upper, NULL, v > 0.75 ? 0.75 : v);
  VALUES (call_clamp_min, NULL, v < -0.5 ? -0.5 : v);
  VALUES (call_clamp_max, NULL, v > 0.75 ? 0.75 : v);
  VALUES (call_leaky_relu, NULL, v > 0 ? v : 0.1 * v);
  VALUES (call_elu, NULL, v > 0 ? v : 0.7 * (exp (v) - 1));
  VALUES (call_gelu, NULL, gelu_ref (v));
  VALUES (call_gelu_tanh, NULL, gelu_tanh_ref (v));
#undef VALUES

  /* by hand */
  assert_op_values (call_clamp, NULL, GNN_TEST_DATA (-3, -0.5, 0.1, 0.75, 9), GNN_TEST_DATA (-0.5, -0.5, 0.1, 0.75, 0.75), 5);
  assert_op_values (call_unary, gnn_tensor_log, GNN_TEST_DATA (1, M_E, 0.5), GNN_TEST_DATA (0, 1, -M_LN2), 3);
  assert_op_values (call_unary, gnn_tensor_sqrt, GNN_TEST_DATA (0, 4, 2.25), GNN_TEST_DATA (0, 2, 1.5), 3);
  assert_op_values (call_unary, gnn_tensor_sigmoid, GNN_TEST_DATA (0, -1000, 1000), GNN_TEST_DATA (0.5, 0, 1), 3);
  assert_op_values (call_gelu, NULL, GNN_TEST_DATA (0, 1, -1), GNN_TEST_DATA (0, 0.8413447460685429, -0.15865525393145707), 3);
  assert_op_values (call_unary, gnn_tensor_log, GNN_TEST_DATA (0, -1), GNN_TEST_DATA (-INFINITY, NAN), 2);
  /* NaN: sign gives 0, the others propagate it */
  assert_op_values (call_unary, gnn_tensor_sign, GNN_TEST_DATA (NAN), GNN_TEST_DATA (0), 1);
  assert_op_values (call_unary, gnn_tensor_relu, GNN_TEST_DATA (NAN), GNN_TEST_DATA (NAN), 1);
  assert_op_values (call_clamp, NULL, GNN_TEST_DATA (NAN), GNN_TEST_DATA (NAN), 1);
}

static void
test_float32_and_strided (void)
{
  g_autoptr(GError) error = NULL;
  float data[6] = { -1, 2, -3, 4, -5, 6 };
  g_autoptr(GnnTensor) x = gnn_tensor_new_from_floats (data, 6, GNN_TEST_SHAPE (2, 3), 2, &error);
  g_autoptr(GnnTensor) xt = gnn_tensor_transpose (x, 0, 1, &error);
  g_autoptr(GnnTensor) r = NULL, e = NULL, z = NULL, zr = NULL, s = NULL, sr = NULL;

  g_assert_no_error (error);
  g_assert_false (gnn_tensor_is_contiguous (xt));
  r = gnn_tensor_relu (xt, &error);
  g_assert_no_error (error);
  g_assert_cmpint (gnn_tensor_get_dtype (r), ==, GNN_DTYPE_FLOAT32);
  gnn_test_assert_shape (r, GNN_TEST_SHAPE (3, 2), 2);
  gnn_test_assert_close (r, GNN_TEST_DATA (0, 4, 2, 0, 0, 6), 6, 0, 0);
  e = gnn_tensor_exp (xt, &error);
  g_assert_no_error (error);
  gnn_test_assert_close (e, GNN_TEST_DATA (exp (-1), exp (4), exp (2), exp (-5), exp (-3), exp (6)), 6, 1e-6, 0);

  /* zero-size and 0-dim */
  z = gnn_tensor_new_zeros (GNN_TEST_SHAPE (2, 0, 3), 3, GNN_DTYPE_FLOAT32, NULL, &error);
  zr = gnn_tensor_gelu (z, "tanh", &error);
  g_assert_no_error (error);
  gnn_test_assert_shape (zr, GNN_TEST_SHAPE (2, 0, 3), 3);
  s = gnn_tensor_new_scalar (-2, GNN_DTYPE_FLOAT64, NULL, &error);
  sr = gnn_tensor_elu (s, 1.0, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (gnn_tensor_get_ndim (sr), ==, 0);
  g_assert_cmpfloat_with_epsilon (gnn_tensor_item (sr, NULL), exp (-2) - 1, 1e-15);

  g_clear_object (&xt);
  g_clear_object (&r);
  g_clear_object (&e);
  g_assert_finalize_object (g_steal_pointer (&x));
}

/* ---- dtypes ------------------------------------------------------------------------- */

static GnnTensor *
int_tensor (void)
{
  g_autoptr(GError) error = NULL;
  gint64 v[4] = { -3, 0, 2, 5 };
  GnnTensor *t = gnn_tensor_new_from_int64s (v, 4, GNN_TEST_SHAPE (4), 1, &error);
  g_assert_no_error (error);
  return t;
}

static GnnTensor *
typed_tensor (GnnDtype dtype)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) i = int_tensor ();
  GnnTensor *t = gnn_tensor_to_dtype (i, dtype, &error);
  g_assert_no_error (error);
  return t;
}

static void
assert_dtype (GnnTensor *t, GnnDtype dtype, GError *error)
{
  g_assert_no_error (error);
  g_assert_nonnull (t);
  g_assert_cmpint (gnn_tensor_get_dtype (t), ==, dtype);
}

static void
test_dtype_rules (void)
{
  g_autoptr(GnnTensor) i = int_tensor ();
  g_autoptr(GnnTensor) b = typed_tensor (GNN_DTYPE_BOOL);
  g_autoptr(GnnTensor) u = typed_tensor (GNN_DTYPE_UINT8);
  g_autoptr(GnnTensor) h = typed_tensor (GNN_DTYPE_FLOAT16);
  UnaryFunc to_float[] = { gnn_tensor_exp, gnn_tensor_log, gnn_tensor_sqrt, gnn_tensor_sigmoid, gnn_tensor_tanh };
  UnaryFunc keep[] = { gnn_tensor_neg, gnn_tensor_abs, gnn_tensor_sign, gnn_tensor_relu };

  for (guint k = 0; k < G_N_ELEMENTS (to_float); k++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(GnnTensor) a = to_float[k] (i, &error);
      g_autoptr(GnnTensor) c = a ? to_float[k] (b, &error) : NULL;
      g_autoptr(GnnTensor) d = c ? to_float[k] (u, &error) : NULL;
      g_autoptr(GnnTensor) e = d ? to_float[k] (h, &error) : NULL;
      assert_dtype (a, GNN_DTYPE_FLOAT32, error);
      assert_dtype (c, GNN_DTYPE_FLOAT32, error);
      assert_dtype (d, GNN_DTYPE_FLOAT32, error);
      assert_dtype (e, GNN_DTYPE_FLOAT16, error);
    }
  for (guint k = 0; k < G_N_ELEMENTS (keep); k++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(GnnTensor) a = keep[k] (i, &error);
      g_autoptr(GnnTensor) d = a ? keep[k] (u, &error) : NULL;
      g_autoptr(GnnTensor) e = d ? keep[k] (h, &error) : NULL;
      assert_dtype (a, GNN_DTYPE_INT64, error);
      assert_dtype (d, GNN_DTYPE_UINT8, error);
      assert_dtype (e, GNN_DTYPE_FLOAT16, error);
    }

  {
    g_autoptr(GError) error = NULL;
    g_autoptr(GnnTensor) n = gnn_tensor_neg (i, &error);
    g_autoptr(GnnTensor) nu = gnn_tensor_neg (u, &error);
    g_autoptr(GnnTensor) a = gnn_tensor_abs (i, &error);
    g_autoptr(GnnTensor) s = gnn_tensor_sign (i, &error);
    g_autoptr(GnnTensor) sb = gnn_tensor_sign (b, &error);
    g_autoptr(GnnTensor) r = gnn_tensor_relu (i, &error);
    g_autoptr(GnnTensor) e = gnn_tensor_exp (i, &error);
    g_autoptr(GnnTensor) c = gnn_tensor_clamp (i, -1, 3, &error);
    g_autoptr(GnnTensor) cf = gnn_tensor_clamp (i, -1.5, 3, &error);
    g_autoptr(GnnTensor) cb = gnn_tensor_clamp_min (b, 0, &error);
    g_autoptr(GnnTensor) cu = gnn_tensor_clamp_min (u, -1, &error);
    g_autoptr(GnnTensor) ch = gnn_tensor_clamp_max (h, 1.5, &error);

    g_assert_no_error (error);
    gnn_test_assert_close (n, GNN_TEST_DATA (3, 0, -2, -5), 4, 0, 0);
    /* uint8 (253, 0, 2, 5) wraps around */
    gnn_test_assert_close (nu, GNN_TEST_DATA (3, 0, 254, 251), 4, 0, 0);
    gnn_test_assert_close (a, GNN_TEST_DATA (3, 0, 2, 5), 4, 0, 0);
    gnn_test_assert_close (s, GNN_TEST_DATA (-1, 0, 1, 1), 4, 0, 0);
    assert_dtype (sb, GNN_DTYPE_BOOL, NULL);
    gnn_test_assert_close (sb, GNN_TEST_DATA (1, 0, 1, 1), 4, 0, 0);
    gnn_test_assert_close (r, GNN_TEST_DATA (0, 0, 2, 5), 4, 0, 0);
    gnn_test_assert_close (e, GNN_TEST_DATA (exp (-3), 1, exp (2), exp (5)), 4, 1e-6, 0);
    assert_dtype (c, GNN_DTYPE_INT64, NULL);
    gnn_test_assert_close (c, GNN_TEST_DATA (-1, 0, 2, 3), 4, 0, 0);
    assert_dtype (cf, GNN_DTYPE_FLOAT32, NULL);
    gnn_test_assert_close (cf, GNN_TEST_DATA (-1.5, 0, 2, 3), 4, 0, 0);
    assert_dtype (cb, GNN_DTYPE_INT64, NULL);
    /* PyTorch converts -1 to uint8 255 first */
    assert_dtype (cu, GNN_DTYPE_UINT8, NULL);
    gnn_test_assert_close (cu, GNN_TEST_DATA (255, 255, 255, 255), 4, 0, 0);
    assert_dtype (ch, GNN_DTYPE_FLOAT16, NULL);
    gnn_test_assert_close (ch, GNN_TEST_DATA (-3, 0, 1.5, 1.5), 4, 0, 0);
  }
}

/* ---- errors ------------------------------------------------------------------------- */

static void
assert_fails (GnnTensor *t, GError **error, int code, const char *fragment)
{
  g_assert_null (t);
  g_assert_error (*error, GNN_ERROR, code);
  if (fragment)
    g_assert_nonnull (strstr ((*error)->message, fragment));
  g_clear_error (error);
}

static void
test_errors (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) x = gnn_test_tensor_d (GNN_TEST_DATA (1, 2), 2, GNN_TEST_SHAPE (2), 1);
  g_autoptr(GnnTensor) i = int_tensor ();
  g_autoptr(GnnTensor) b = typed_tensor (GNN_DTYPE_BOOL);
  g_autoptr(GnnTensor) u = typed_tensor (GNN_DTYPE_UINT8);

  assert_fails (gnn_tensor_gelu (x, "sigmoid", &error), &error, GNN_ERROR_INVALID_ARGUMENT,
                "approximate argument must be either none or tanh");
  assert_fails (gnn_tensor_gelu (x, "", &error), &error, GNN_ERROR_INVALID_ARGUMENT, NULL);
  assert_fails (gnn_tensor_gelu (i, NULL, &error), &error, GNN_ERROR_DTYPE, "int64");
  assert_fails (gnn_tensor_silu (i, &error), &error, GNN_ERROR_DTYPE, NULL);
  assert_fails (gnn_tensor_elu (b, 1.0, &error), &error, GNN_ERROR_DTYPE, "bool");
  assert_fails (gnn_tensor_leaky_relu (u, 0.01, &error), &error, GNN_ERROR_DTYPE, "uint8");
  assert_fails (gnn_tensor_neg (b, &error), &error, GNN_ERROR_DTYPE, "logical_not");
  assert_fails (gnn_tensor_abs (b, &error), &error, GNN_ERROR_DTYPE, "bool");
  assert_fails (gnn_tensor_relu (b, &error), &error, GNN_ERROR_DTYPE, "Boolean");
  assert_fails (gnn_tensor_clamp (x, NAN, NAN, &error), &error, GNN_ERROR_INVALID_ARGUMENT,
                "At least one of 'min' or 'max'");
  assert_fails (gnn_tensor_clamp (u, 0, 256, &error), &error, GNN_ERROR_INVALID_ARGUMENT, "uint8");
  assert_fails (gnn_tensor_clamp_min (u, -256, &error), &error, GNN_ERROR_INVALID_ARGUMENT, "overflow");
}

/* ---- gradients ---------------------------------------------------------------------- */

static void
test_grad_fn_names (void)
{
  for (guint k = 0; k < G_N_ELEMENTS (ops); k++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(GnnTensor) x = gnn_test_tensor_d (GNN_TEST_DATA (0.5, 1.5), 2, GNN_TEST_SHAPE (2), 1);
      g_autoptr(GnnTensor) y = NULL;

      gnn_tensor_set_requires_grad (x, TRUE, &error);
      y = ops[k].fn (x, ops[k].data, &error);
      g_assert_no_error (error);
      g_assert_cmpstr (gnn_tensor_get_grad_fn_name (y), ==, ops[k].grad_fn);
      g_clear_object (&y);
      g_assert_finalize_object (g_steal_pointer (&x));
    }
}

static void
test_gradcheck (void)
{
  for (guint k = 0; k < G_N_ELEMENTS (ops); k++)
    {
      double v[12];
      g_autoptr(GnnTensor) x = NULL;

      /* a spread over the domain, kept 0.05 away from the kinks 0, -0.5 and 0.75 */
      for (guint i = 0; i < G_N_ELEMENTS (v); i++)
        {
          v[i] = ops[k].low + (ops[k].high - ops[k].low) * (i + 0.37) / G_N_ELEMENTS (v);
          if (fabs (v[i]) < 0.05 || fabs (v[i] + 0.5) < 0.05 || fabs (v[i] - 0.75) < 0.05)
            v[i] += 0.1;
        }
      g_test_message ("gradcheck %s", ops[k].name);
      x = gnn_test_tensor_d (v, 12, GNN_TEST_SHAPE (3, 4), 2);
      gnn_test_gradcheck (ops[k].fn, ops[k].data, x, 1e-6, 1e-6);
    }
}

/* d/dx sum (fn (x)) at @in, for comparing with PyTorch's values at kinks */
static void
assert_grad_at (GnnTestFunc fn, gpointer data, const double *in, const double *want, gsize n)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) x = gnn_test_tensor_d (in, n, GNN_TEST_SHAPE ((gint64) n), 1);
  g_autoptr(GnnTensor) y = NULL, s = NULL;
  g_autofree double *got = NULL;
  gsize got_n = 0;

  gnn_tensor_set_requires_grad (x, TRUE, &error);
  y = fn (x, data, &error);
  g_assert_no_error (error);
  s = gnn_tensor_sum_all (y, &error);
  g_assert_no_error (error);
  gnn_tensor_backward (s, NULL, FALSE, &error);
  g_assert_no_error (error);
  got = gnn_tensor_to_doubles (gnn_tensor_get_grad (x), &got_n, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (got_n, ==, n);
  for (gsize i = 0; i < n; i++)
    if (isinf (want[i]))
      g_assert_cmpfloat (got[i], ==, want[i]);
    else
      g_assert_cmpfloat_with_epsilon (got[i], want[i], 1e-12);
}

static void
test_kinks (void)
{
  /* values from PyTorch 1.13 */
  assert_grad_at (call_unary, gnn_tensor_relu, GNN_TEST_DATA (-1, 0, 1), GNN_TEST_DATA (0, 0, 1), 3);
  assert_grad_at (call_unary, gnn_tensor_abs, GNN_TEST_DATA (-1, 0, 1), GNN_TEST_DATA (-1, 0, 1), 3);
  assert_grad_at (call_unary, gnn_tensor_sign, GNN_TEST_DATA (-1, 0, 1), GNN_TEST_DATA (0, 0, 0), 3);
  assert_grad_at (call_leaky_relu, NULL, GNN_TEST_DATA (-1, 0, 1), GNN_TEST_DATA (0.1, 0.1, 1), 3);
  assert_grad_at (call_elu, NULL, GNN_TEST_DATA (-1, 0, 1), GNN_TEST_DATA (0.7 * exp (-1), 0.7, 1), 3);
  assert_grad_at (call_gelu, NULL, GNN_TEST_DATA (0), GNN_TEST_DATA (0.5), 1);
  assert_grad_at (call_gelu_tanh, NULL, GNN_TEST_DATA (0), GNN_TEST_DATA (0.5), 1);
  assert_grad_at (call_unary, gnn_tensor_silu, GNN_TEST_DATA (0), GNN_TEST_DATA (0.5), 1);
  /* clamp passes the gradient where min <= x <= max, bounds included */
  assert_grad_at (call_clamp, NULL, GNN_TEST_DATA (-1, -0.5, 0, 0.75, 1), GNN_TEST_DATA (0, 1, 1, 1, 0), 5);
  assert_grad_at (call_clamp_lower, NULL, GNN_TEST_DATA (-1, -0.5, 9), GNN_TEST_DATA (0, 1, 1), 3);
  assert_grad_at (call_clamp_upper, NULL, GNN_TEST_DATA (-9, 0.75, 1), GNN_TEST_DATA (1, 1, 0), 3);
  assert_grad_at (call_clamp_min, NULL, GNN_TEST_DATA (-1, -0.5, 0), GNN_TEST_DATA (0, 1, 1), 3);
  assert_grad_at (call_clamp_max, NULL, GNN_TEST_DATA (0, 0.75, 1), GNN_TEST_DATA (1, 1, 0), 3);
  /* a NaN bound: NaN out, no gradient, still recorded */
  assert_op_values (call_clamp_min_nan, NULL, GNN_TEST_DATA (-1, 0, 2), GNN_TEST_DATA (NAN, NAN, NAN), 3);
  assert_grad_at (call_clamp_min_nan, NULL, GNN_TEST_DATA (-1, 0, 2), GNN_TEST_DATA (0, 0, 0), 3);
  assert_grad_at (call_unary, gnn_tensor_sqrt, GNN_TEST_DATA (0, 1), GNN_TEST_DATA (INFINITY, 0.5), 2);
  assert_grad_at (call_unary, gnn_tensor_log, GNN_TEST_DATA (0, 2), GNN_TEST_DATA (INFINITY, 0.5), 2);
}

static void
test_float32_backward (void)
{
  g_autoptr(GError) error = NULL;
  float data[4] = { -1, 0.5, 2, -3 };
  g_autoptr(GnnTensor) x = gnn_tensor_new_from_floats (data, 4, GNN_TEST_SHAPE (2, 2), 2, &error);
  g_autoptr(GnnTensor) xt = NULL, y = NULL, s = NULL;
  GnnTensor *g;

  gnn_tensor_set_requires_grad (x, TRUE, &error);
  xt = gnn_tensor_t (x, &error);
  y = gnn_tensor_tanh (xt, &error);
  s = gnn_tensor_sum_all (y, &error);
  gnn_tensor_backward (s, NULL, FALSE, &error);
  g_assert_no_error (error);
  g = gnn_tensor_get_grad (x);
  g_assert_cmpint (gnn_tensor_get_dtype (g), ==, GNN_DTYPE_FLOAT32);
  gnn_test_assert_close (g, GNN_TEST_DATA (1 - pow (tanh (-1), 2), 1 - pow (tanh (0.5), 2),
                                           1 - pow (tanh (2), 2), 1 - pow (tanh (-3), 2)), 4, 1e-6, 1e-7);
}

/* ---- in-place modification ---------------------------------------------------------- */

static void
assert_backward_fails (GnnTensor *y)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) s = gnn_tensor_sum_all (y, &error);

  g_assert_no_error (error);
  g_assert_false (gnn_tensor_backward (s, NULL, FALSE, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_AUTOGRAD);
  g_assert_nonnull (strstr (error->message, "modified by an inplace operation"));
}

static void
test_inplace_detection (void)
{
  /* ops that save their result: changing the result in place must break backward */
  UnaryFunc save_result[] = { gnn_tensor_exp, gnn_tensor_sqrt, gnn_tensor_relu, gnn_tensor_sigmoid, gnn_tensor_tanh };
  /* ops that save their input: changing the (non-leaf) input in place must break backward */
  UnaryFunc save_input[] = { gnn_tensor_log, gnn_tensor_abs, gnn_tensor_silu };

  for (guint k = 0; k < G_N_ELEMENTS (save_result); k++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(GnnTensor) x = gnn_test_tensor_d (GNN_TEST_DATA (0.5, 1.5), 2, GNN_TEST_SHAPE (2), 1);
      g_autoptr(GnnTensor) y = NULL;

      gnn_tensor_set_requires_grad (x, TRUE, &error);
      y = save_result[k] (x, &error);
      g_assert_no_error (error);
      g_assert_true (gnn_tensor_add_scalar_ (y, 1.0, &error));
      g_assert_no_error (error);
      assert_backward_fails (y);
    }
  for (guint k = 0; k < G_N_ELEMENTS (save_input); k++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(GnnTensor) x = gnn_test_tensor_d (GNN_TEST_DATA (0.5, 1.5), 2, GNN_TEST_SHAPE (2), 1);
      g_autoptr(GnnTensor) h = NULL, y = NULL;

      gnn_tensor_set_requires_grad (x, TRUE, &error);
      h = gnn_tensor_mul_scalar (x, 2.0, &error);
      y = save_input[k] (h, &error);
      g_assert_no_error (error);
      g_assert_true (gnn_tensor_mul_scalar_ (h, 3.0, &error));
      g_assert_no_error (error);
      assert_backward_fails (y);
    }
  {
    /* gelu and clamp save their input too */
    g_autoptr(GError) error = NULL;
    g_autoptr(GnnTensor) x = gnn_test_tensor_d (GNN_TEST_DATA (0.5, 1.5), 2, GNN_TEST_SHAPE (2), 1);
    g_autoptr(GnnTensor) h = NULL, y = NULL, c = NULL;

    gnn_tensor_set_requires_grad (x, TRUE, &error);
    h = gnn_tensor_mul_scalar (x, 2.0, &error);
    y = gnn_tensor_gelu (h, "tanh", &error);
    c = gnn_tensor_clamp (h, 0, 1, &error);
    g_assert_no_error (error);
    g_assert_true (gnn_tensor_add_scalar_ (h, 1.0, &error));
    assert_backward_fails (y);
    assert_backward_fails (c);
  }
  {
    /* neg saves nothing, so it does not care */
    g_autoptr(GError) error = NULL;
    g_autoptr(GnnTensor) x = gnn_test_tensor_d (GNN_TEST_DATA (0.5, 1.5), 2, GNN_TEST_SHAPE (2), 1);
    g_autoptr(GnnTensor) y = NULL, s = NULL;

    gnn_tensor_set_requires_grad (x, TRUE, &error);
    y = gnn_tensor_neg (x, &error);
    g_assert_true (gnn_tensor_add_scalar_ (y, 1.0, &error));
    s = gnn_tensor_sum_all (y, &error);
    g_assert_true (gnn_tensor_backward (s, NULL, FALSE, &error));
    g_assert_no_error (error);
    gnn_test_assert_close (gnn_tensor_get_grad (x), GNN_TEST_DATA (-1, -1), 2, 0, 0);
  }
}

static void
test_parallel (void)
{
  /* enough elements for the CPU backend to split the loop across threads */
  g_autoptr(GError) error = NULL;
  gint64 n = 300000;
  g_autofree double *v = g_new (double, n);
  g_autofree double *want = g_new (double, n);
  g_autoptr(GnnTensor) x = NULL, y = NULL;

  for (gint64 i = 0; i < n; i++)
    {
      v[i] = sin ((double) i) * 3;
      want[i] = gelu_ref (v[i]);
    }
  x = gnn_test_tensor_d (v, n, GNN_TEST_SHAPE (n), 1);
  y = gnn_tensor_gelu (x, NULL, &error);
  g_assert_no_error (error);
  gnn_test_assert_close (y, want, n, 1e-12, 1e-14);
}

/* ---- the math functions (gnn-ops-math.c) ------------------------------------------- */

static GnnTensor *call_polygamma (GnnTensor *x, gpointer data, GError **error) { return gnn_tensor_polygamma (x, GPOINTER_TO_INT (data), error); }
static GnnTensor *call_logit (GnnTensor *x, gpointer data, GError **error) { return gnn_tensor_logit (x, -1.0, error); }
static GnnTensor *call_logit_eps (GnnTensor *x, gpointer data, GError **error) { return gnn_tensor_logit (x, 0.2, error); }
static GnnTensor *call_round_decimals (GnnTensor *x, gpointer data, GError **error) { return gnn_tensor_round_decimals (x, 1, error); }
static GnnTensor *call_mvlgamma (GnnTensor *x, gpointer data, GError **error) { return gnn_tensor_mvlgamma (x, GPOINTER_TO_INT (data), error); }

/* ζ (s, x) for the exponents s = (2, 3.5, 2.5, 4) along rows: zeta's gradient is for q only */
static GnnTensor *
call_zeta_q (GnnTensor *x, gpointer data, GError **error)
{
  g_autoptr(GnnTensor) s = gnn_test_tensor_d (GNN_TEST_DATA (2, 3.5, 2.5, 4), 4, GNN_TEST_SHAPE (4), 1);
  return gnn_special_zeta (s, x, error);
}

typedef GnnTensor *(*BinaryFunc) (GnnTensor *self, GnnTensor *other, GError **error);

/* a binary function of x and the fixed operand (0.5, 1.5, -1.25, 2) broadcast along rows:
 * data is the function; x is its first operand, or its second for the _b forms */
static GnnTensor *
binary_with (GnnTensor *x, gpointer data, gboolean x_second, GError **error)
{
  g_autoptr(GnnTensor) y = gnn_test_tensor_d (GNN_TEST_DATA (0.5, 1.5, -1.25, 2), 4, GNN_TEST_SHAPE (4), 1);
  return x_second ? ((BinaryFunc) data) (y, x, error) : ((BinaryFunc) data) (x, y, error);
}
static GnnTensor *call_binary_a (GnnTensor *x, gpointer data, GError **error) { return binary_with (x, data, FALSE, error); }
static GnnTensor *call_binary_b (GnnTensor *x, gpointer data, GError **error) { return binary_with (x, data, TRUE, error); }

/* the rows: each is gradchecked and gradgradchecked in float64 */
static const OpCase math_ops[] = {
  { "reciprocal", call_unary, gnn_tensor_reciprocal, "ReciprocalBackward0", 0.5, 2 },
  { "rsqrt", call_unary, gnn_tensor_rsqrt, "RsqrtBackward0", 0.3, 3 },
  { "log1p", call_unary, gnn_tensor_log1p, "Log1PBackward0", -0.5, 2 },
  { "expm1", call_unary, gnn_tensor_expm1, "Expm1Backward0", -2, 2 },
  { "log2", call_unary, gnn_tensor_log2, "Log2Backward0", 0.2, 3 },
  { "log10", call_unary, gnn_tensor_log10, "Log10Backward0", 0.2, 3 },
  { "sin", call_unary, gnn_tensor_sin, "SinBackward0", -3, 3 },
  { "cos", call_unary, gnn_tensor_cos, "CosBackward0", -3, 3 },
  { "tan", call_unary, gnn_tensor_tan, "TanBackward0", -1.2, 1.2 },
  { "asin", call_unary, gnn_tensor_asin, "AsinBackward0", -0.9, 0.9 },
  { "acos", call_unary, gnn_tensor_acos, "AcosBackward0", -0.9, 0.9 },
  { "atan", call_unary, gnn_tensor_atan, "AtanBackward0", -3, 3 },
  { "sinh", call_unary, gnn_tensor_sinh, "SinhBackward0", -2, 2 },
  { "cosh", call_unary, gnn_tensor_cosh, "CoshBackward0", -2, 2 },
  { "asinh", call_unary, gnn_tensor_asinh, "AsinhBackward0", -3, 3 },
  { "acosh", call_unary, gnn_tensor_acosh, "AcoshBackward0", 1.2, 3 },
  { "atanh", call_unary, gnn_tensor_atanh, "AtanhBackward0", -0.9, 0.9 },
  { "erf", call_unary, gnn_tensor_erf, "ErfBackward0", -2, 2 },
  { "erfc", call_unary, gnn_tensor_erfc, "ErfcBackward0", -2, 2 },
  { "erfinv", call_unary, gnn_tensor_erfinv, "ErfinvBackward0", -0.9, 0.9 },
  { "lgamma", call_unary, gnn_tensor_lgamma, "LgammaBackward0", 0.3, 4 },
  { "digamma", call_unary, gnn_tensor_digamma, "DigammaBackward0", 0.3, 4 },
  { "polygamma-1", call_polygamma, GINT_TO_POINTER (1), "PolygammaBackward0", 0.3, 4 },
  { "polygamma-3", call_polygamma, GINT_TO_POINTER (3), "PolygammaBackward0", 0.3, 4 },
  { "floor", call_unary, gnn_tensor_floor, "FloorBackward0", -3, 3 },
  { "ceil", call_unary, gnn_tensor_ceil, "CeilBackward0", -3, 3 },
  { "round", call_unary, gnn_tensor_round, "RoundBackward0", -3, 3 },
  { "round-decimals", call_round_decimals, NULL, "RoundBackward1", -3, 3 },
  { "trunc", call_unary, gnn_tensor_trunc, "TruncBackward0", -3, 3 },
  { "frac", call_unary, gnn_tensor_frac, "FracBackward0", -3, 3 },
  { "logit", call_logit, NULL, "LogitBackward0", 0.05, 0.95 },
  { "logit-eps", call_logit_eps, NULL, "LogitBackward0", 0.05, 0.95 },
  { "square", call_unary, gnn_tensor_square, "PowBackward0", -2, 2 },
  { "atan2", call_binary_a, gnn_tensor_atan2, "Atan2Backward0", -2, 2 },
  { "atan2 (x)", call_binary_b, gnn_tensor_atan2, "Atan2Backward0", -2, 2 },
  { "fmod", call_binary_a, gnn_tensor_fmod, "FmodBackward1", -3, 3 },
  { "fmod (divisor)", call_binary_b, gnn_tensor_fmod, "FmodBackward1", 0.3, 3 },
  { "remainder", call_binary_a, gnn_tensor_remainder, "RemainderBackward1", -3, 3 },
  { "remainder (divisor)", call_binary_b, gnn_tensor_remainder, "RemainderBackward1", 0.3, 3 },
  { "xlogy", call_binary_a, gnn_tensor_xlogy, "XlogyBackward0", -2, 2 },
  { "xlogy (y)", call_binary_b, gnn_tensor_xlogy, "XlogyBackward0", 0.2, 3 },
  { "exp2", call_unary, gnn_tensor_exp2, "Exp2Backward0", -3, 3 },
  { "sinc", call_unary, gnn_tensor_sinc, "SincBackward0", -3, 3 },
  { "i0", call_unary, gnn_tensor_i0, "I0Backward0", -3, 3 },
  { "i0e", call_unary, gnn_special_i0e, "SpecialI0EBackward0", -3, 3 },
  { "i1", call_unary, gnn_special_i1, "SpecialI1Backward0", -3, 3 },
  { "i1e", call_unary, gnn_special_i1e, "SpecialI1EBackward0", -3, 3 },
  { "ndtri", call_unary, gnn_special_ndtri, "SpecialNdtriBackward0", 0.05, 0.95 },
  { "log_ndtr", call_unary, gnn_special_log_ndtr, "SpecialLogNdtrBackward0", -4, 3 },
  { "erfcx", call_unary, gnn_special_erfcx, "SpecialErfcxBackward0", -2, 3 },
  { "entr", call_unary, gnn_special_entr, "SpecialEntrBackward0", 0.1, 3 },
  { "ndtr", call_unary, gnn_special_ndtr, "MulBackward0", -3, 3 },
  { "xlog1py", call_binary_a, gnn_special_xlog1py, "SpecialXlog1PyBackward0", -2, 2 },
  { "xlog1py (y)", call_binary_b, gnn_special_xlog1py, "SpecialXlog1PyBackward0", -0.5, 3 },
  { "zeta (q)", call_zeta_q, NULL, "SpecialZetaBackward0", 0.5, 3 },
  { "mvlgamma-1", call_mvlgamma, GINT_TO_POINTER (1), "MvlgammaBackward0", 0.3, 4 },
  { "mvlgamma-3", call_mvlgamma, GINT_TO_POINTER (3), "MvlgammaBackward0", 1.3, 4 },
  { "deg2rad", call_unary, gnn_tensor_deg2rad, "Deg2RadBackward0", -180, 180 },
  { "rad2deg", call_unary, gnn_tensor_rad2deg, "Rad2DegBackward0", -3, 3 },
  { "copysign", call_binary_a, gnn_tensor_copysign, "CopysignBackward0", -2, 2 },
  { "copysign (sign)", call_binary_b, gnn_tensor_copysign, "CopysignBackward0", -2, 2 },
  { "fmax", call_binary_a, gnn_tensor_fmax, "FmaxBackward0", -2, 2 },
  { "fmax (other)", call_binary_b, gnn_tensor_fmax, "FmaxBackward0", -2, 2 },
  { "fmin", call_binary_a, gnn_tensor_fmin, "FminBackward0", -2, 2 },
  { "fmin (other)", call_binary_b, gnn_tensor_fmin, "FminBackward0", -2, 2 },
  { "logaddexp", call_binary_a, gnn_tensor_logaddexp, "LogaddexpBackward0", -4, 4 },
  { "logaddexp (other)", call_binary_b, gnn_tensor_logaddexp, "LogaddexpBackward0", -4, 4 },
  { "logaddexp2", call_binary_a, gnn_tensor_logaddexp2, "Logaddexp2Backward0", -4, 4 },
  { "logaddexp2 (other)", call_binary_b, gnn_tensor_logaddexp2, "Logaddexp2Backward0", -4, 4 },
  { "ldexp", call_binary_a, gnn_tensor_ldexp, "MulBackward0", -2, 2 },
  { "ldexp (exponent)", call_binary_b, gnn_tensor_ldexp, "MulBackward0", -2, 2 },
  { "float_power", call_binary_a, gnn_tensor_float_power, "PowBackward1", 0.3, 3 },
};

/* the values near a point where fmod, remainder, the rounding functions (and the logit's
 * clamp) jump are moved off it, so that finite differences do not straddle a jump */
static gboolean
near_jump (const char *name, double v)
{
  if (g_str_has_prefix (name, "logit-eps"))
    return fabs (v - 0.2) < 0.02 || fabs (v - 0.8) < 0.02;
  if (g_str_has_prefix (name, "round"))
    v += 0.5;
  for (double k = -8; k <= 8; k += 0.25)   /* the multiples of the divisors 0.5, 1.5, 1.25, 2 */
    if (fabs (v - k) < 0.02)
      return TRUE;
  return FALSE;
}

static void
test_math_gradcheck (void)
{
  for (guint k = 0; k < G_N_ELEMENTS (math_ops); k++)
    {
      double v[12];
      g_autoptr(GError) error = NULL;
      g_autoptr(GnnTensor) x = NULL, y = NULL;

      for (guint i = 0; i < G_N_ELEMENTS (v); i++)
        {
          v[i] = math_ops[k].low + (math_ops[k].high - math_ops[k].low) * (i + 0.37) / G_N_ELEMENTS (v);
          while (near_jump (math_ops[k].name, v[i]) && !g_str_has_prefix (math_ops[k].name, "logit-"))
            v[i] += 0.03;
          if (near_jump (math_ops[k].name, v[i]))
            v[i] += 0.05;
        }
      g_test_message ("gradcheck %s", math_ops[k].name);
      x = gnn_test_tensor_d (v, 12, GNN_TEST_SHAPE (3, 4), 2);
      gnn_tensor_set_requires_grad (x, TRUE, &error);
      g_assert_no_error (error);
      y = math_ops[k].fn (x, math_ops[k].data, &error);
      g_assert_no_error (error);
      g_assert_cmpstr (gnn_tensor_get_grad_fn_name (y), ==, math_ops[k].grad_fn);
      g_clear_object (&y);
      gnn_tensor_set_requires_grad (x, FALSE, &error);
      gnn_test_gradcheck (math_ops[k].fn, math_ops[k].data, x, 1e-6, 1e-6);
      /* a gradient that does not depend on x (the rounding functions', frac's, fmod's and
       * remainder's for either operand, xlogy's and ldexp's for x, the scalings', copysign's, fmax's and
       * fmin's) has no second derivative to check */
      if (!g_strv_contains ((const char *const[]) { "floor", "ceil", "round", "round-decimals", "trunc", "frac",
                                                    "fmod", "fmod (divisor)", "remainder", "remainder (divisor)", "xlogy", "xlog1py",
                                                    "deg2rad", "rad2deg", "copysign", "copysign (sign)", "fmax",
                                                    "fmax (other)", "fmin", "fmin (other)", "ldexp", NULL }, math_ops[k].name))
        gnn_test_gradgradcheck (math_ops[k].fn, math_ops[k].data, x, 1e-6, 1e-5);
    }
}

/* the special points and dtypes, against PyTorch 1.13's values */
static void
test_math_values (void)
{
  const double nan = NAN, inf = INFINITY;
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) x = gnn_test_tensor_d (GNN_TEST_DATA (1.5, 1.0, -1.0, 0.3), 4, GNN_TEST_SHAPE (4), 1);
  g_autoptr(GnnTensor) z = gnn_test_tensor_d (GNN_TEST_DATA (0.0, -0.0, -1.0, -1.5, 2.5), 5, GNN_TEST_SHAPE (5), 1);
  g_autoptr(GnnTensor) w = gnn_test_tensor_d (GNN_TEST_DATA (0.5, -1.5, 3.0), 3, GNN_TEST_SHAPE (3), 1);
  g_autoptr(GnnTensor) a = gnn_test_tensor_d (GNN_TEST_DATA (-7, 7, -7.5, 5.5, 0), 5, GNN_TEST_SHAPE (5), 1);
  g_autoptr(GnnTensor) b = gnn_test_tensor_d (GNN_TEST_DATA (2, -2, 2, -1.5, 3), 5, GNN_TEST_SHAPE (5), 1);
  g_autoptr(GnnTensor) r = gnn_test_tensor_d (GNN_TEST_DATA (0.5, 1.5, 2.5, -0.5, 1234.5678), 5, GNN_TEST_SHAPE (5), 1);
  g_autoptr(GnnTensor) e = NULL, d = NULL, p = NULL, f = NULL, m = NULL, q = NULL, n = NULL, rd = NULL, rn = NULL;
  g_autoptr(GnnTensor) ai = NULL, bi = NULL, fi = NULL, mi = NULL, qi = NULL, s = NULL, xl = NULL;
  g_autoptr(GnnTensor) zero = gnn_test_tensor_d (GNN_TEST_DATA (0.0, 0.0, 1.0), 3, GNN_TEST_SHAPE (3), 1);
  g_autoptr(GnnTensor) ylog = gnn_test_tensor_d (GNN_TEST_DATA (0.0, nan, 2.0), 3, GNN_TEST_SHAPE (3), 1);

  e = gnn_tensor_erfinv (x, &error);
  g_assert_no_error (error);
  gnn_test_assert_close (e, GNN_TEST_DATA (nan, inf, -inf, 0.27246271472675443), 4, 1e-14, 1e-14);
  d = gnn_tensor_digamma (z, &error);
  g_assert_no_error (error);
  gnn_test_assert_close (d, GNN_TEST_DATA (-inf, inf, nan, 0.70315664064524319, 0.70315664064524319), 5, 1e-13, 1e-13);
  p = gnn_tensor_polygamma (w, 2, &error);
  g_assert_no_error (error);
  gnn_test_assert_close (p, GNN_TEST_DATA (-16.828796644234319, -0.23620405164171919, -0.15411380631918858), 3, 1e-12, 1e-12);
  f = gnn_tensor_fmod (a, b, &error);
  m = f ? gnn_tensor_remainder (a, b, &error) : NULL;
  q = m ? gnn_tensor_floor_divide (a, b, &error) : NULL;
  g_assert_no_error (error);
  gnn_test_assert_close (f, GNN_TEST_DATA (-1, 1, -1.5, 1, 0), 5, 0, 0);
  gnn_test_assert_close (m, GNN_TEST_DATA (1, -1, 0.5, -0.5, 0), 5, 0, 0);
  gnn_test_assert_close (q, GNN_TEST_DATA (-4, -4, -4, -4, 0), 5, 0, 0);
  /* integers: kept, floor rounding for remainder and floor_divide, a zero divisor an error */
  ai = gnn_tensor_to_dtype (a, GNN_DTYPE_INT64, &error);
  bi = ai ? gnn_tensor_to_dtype (b, GNN_DTYPE_INT64, &error) : NULL;   /* -1.5 truncates to -1 */
  fi = bi ? gnn_tensor_fmod (ai, bi, &error) : NULL;
  mi = fi ? gnn_tensor_remainder (ai, bi, &error) : NULL;
  qi = mi ? gnn_tensor_floor_divide (ai, bi, &error) : NULL;
  g_assert_no_error (error);
  g_assert_cmpint (gnn_tensor_get_dtype (qi), ==, GNN_DTYPE_INT64);
  gnn_test_assert_close (fi, GNN_TEST_DATA (-1, 1, -1, 0, 0), 5, 0, 0);
  gnn_test_assert_close (mi, GNN_TEST_DATA (1, -1, 1, 0, 0), 5, 0, 0);
  gnn_test_assert_close (qi, GNN_TEST_DATA (-4, -4, -4, -5, 0), 5, 0, 0);
  g_assert_null (gnn_tensor_fmod (bi, ai, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  /* rounding halves to even, and to decimals */
  n = gnn_tensor_round (r, &error);
  rd = n ? gnn_tensor_round_decimals (r, 1, &error) : NULL;
  rn = rd ? gnn_tensor_round_decimals (r, -2, &error) : NULL;
  g_assert_no_error (error);
  gnn_test_assert_close (n, GNN_TEST_DATA (0, 2, 2, -0, 1235), 5, 0, 0);
  gnn_test_assert_close (rd, GNN_TEST_DATA (0.5, 1.5, 2.5, -0.5, 1234.6), 5, 1e-15, 0);
  gnn_test_assert_close (rn, GNN_TEST_DATA (0, 0, 0, -0, 1200), 5, 0, 0);
  /* xlogy: 0 · log 0 is 0, NaN stays NaN */
  xl = gnn_tensor_xlogy (zero, ylog, &error);
  g_assert_no_error (error);
  gnn_test_assert_close (xl, GNN_TEST_DATA (0, nan, log (2.0)), 3, 1e-15, 0);
  /* dtype rules: float-valued functions give float32 for integers, rounding keeps them */
  s = gnn_tensor_sin (ai, &error);
  g_assert_no_error (error);
  g_assert_cmpint (gnn_tensor_get_dtype (s), ==, GNN_DTYPE_FLOAT32);
  g_clear_object (&s);
  s = gnn_tensor_floor (ai, &error);
  g_assert_no_error (error);
  g_assert_cmpint (gnn_tensor_get_dtype (s), ==, GNN_DTYPE_INT64);
  g_assert_null (gnn_tensor_frac (ai, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_DTYPE);
  g_assert_true (strstr (error->message, "frac") && strstr (error->message, "int64"));
  g_clear_error (&error);
  g_assert_null (gnn_tensor_polygamma (w, -1, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
}

/* ---- the activations of torch.nn.functional ------------------------------------------ */

static GnnTensor *call_softplus (GnnTensor *x, gpointer data, GError **error) { return gnn_tensor_softplus (x, 2.0, 4.0, error); }
static GnnTensor *call_celu (GnnTensor *x, gpointer data, GError **error) { return gnn_tensor_celu (x, 0.7, error); }
static GnnTensor *call_hardshrink (GnnTensor *x, gpointer data, GError **error) { return gnn_tensor_hardshrink (x, 0.5, error); }
static GnnTensor *call_softshrink (GnnTensor *x, gpointer data, GError **error) { return gnn_tensor_softshrink (x, 0.5, error); }
static GnnTensor *call_threshold (GnnTensor *x, gpointer data, GError **error) { return gnn_tensor_threshold (x, 0.25, -7.0, error); }
static GnnTensor *call_hardtanh (GnnTensor *x, gpointer data, GError **error) { return gnn_tensor_hardtanh (x, -0.5, 2.0, error); }
static GnnTensor *call_glu (GnnTensor *x, gpointer data, GError **error) { return gnn_tensor_glu (x, GPOINTER_TO_INT (data), error); }

/* the rows, gradchecked and (but for the piecewise linear ones) gradgradchecked in float64
 * away from their kinks (−3, 3, ±0.5, 0.25, 0, 2) */
static const OpCase activation_ops[] = {
  { "softplus", call_softplus, NULL, "SoftplusBackward0", -4, 4 },
  { "hardsigmoid", call_unary, gnn_tensor_hardsigmoid, "HardsigmoidBackward0", -4, 4 },
  { "hardswish", call_unary, gnn_tensor_hardswish, "HardswishBackward0", -4, 4 },
  { "mish", call_unary, gnn_tensor_mish, "MishBackward0", -3, 3 },
  { "celu", call_celu, NULL, "CeluBackward0", -2, 2 },
  { "selu", call_unary, gnn_tensor_selu, "EluBackward0", -2, 2 },
  { "logsigmoid", call_unary, gnn_tensor_logsigmoid, "LogSigmoidBackward0", -4, 4 },
  { "hardshrink", call_hardshrink, NULL, "HardshrinkBackward0", -2, 2 },
  { "softshrink", call_softshrink, NULL, "SoftshrinkBackward0", -2, 2 },
  { "threshold", call_threshold, NULL, "ThresholdBackward0", -2, 2 },
  { "hardtanh", call_hardtanh, NULL, "HardtanhBackward0", -2, 3 },
  { "glu", call_glu, GINT_TO_POINTER (-1), "MulBackward0", -2, 2 },
  { "glu (dim 1)", call_glu, GINT_TO_POINTER (1), "MulBackward0", -2, 2 },
};

static gboolean
near_kink (double v)
{
  const double kinks[] = { -3, 3, -0.5, 0.5, 0.25, 0, 2, 1.0 };   /* softplus: 2x = 4 at x = 2 */

  for (guint i = 0; i < G_N_ELEMENTS (kinks); i++)
    if (fabs (v - kinks[i]) < 0.02)
      return TRUE;
  return FALSE;
}

static void
test_activation_gradcheck (void)
{
  for (guint k = 0; k < G_N_ELEMENTS (activation_ops); k++)
    {
      const OpCase *c = &activation_ops[k];
      double v[12];
      g_autoptr(GError) error = NULL;
      g_autoptr(GnnTensor) x = NULL, y = NULL;

      for (guint i = 0; i < G_N_ELEMENTS (v); i++)
        for (v[i] = c->low + (c->high - c->low) * (i + 0.37) / G_N_ELEMENTS (v); near_kink (v[i]);)
          v[i] += 0.03;
      g_test_message ("gradcheck %s", c->name);
      x = gnn_test_tensor_d (v, 12, GNN_TEST_SHAPE (3, 4), 2);
      gnn_tensor_set_requires_grad (x, TRUE, &error);
      g_assert_no_error (error);
      y = c->fn (x, c->data, &error);
      g_assert_no_error (error);
      g_assert_cmpstr (gnn_tensor_get_grad_fn_name (y), ==, c->grad_fn);
      g_clear_object (&y);
      gnn_tensor_set_requires_grad (x, FALSE, &error);
      gnn_test_gradcheck (c->fn, c->data, x, 1e-6, 1e-6);
      if (!g_strv_contains ((const char *const[]) { "hardsigmoid", "hardshrink", "softshrink", "threshold",
                                                    "hardtanh", NULL }, c->name))
        gnn_test_gradgradcheck (c->fn, c->data, x, 1e-6, 1e-5);
    }
}

/* values at the special points (the kinks, large inputs, NaN) against PyTorch 1.13 in float64,
 * the gradients at the kinks, and the errors */
static void
test_activation_values (void)
{
  static const double in[] = { -4, -3, -1, -0.5, 0, 0.25, 0.5, 2, 3, 25, NAN };
  static const struct { GnnTestFunc fn; gpointer data; double want[11]; } rows[] = {
    { call_softplus, NULL, { 0.00016770318644788442, 0.0012378425688652247, 0.06346400552148625, 0.15663084375911143,
                             0.34657359027997264, 0.48703849209005334, 0.6566308437591114, 2.0090749639589047, 3, 25, NAN } },
    { call_unary, gnn_tensor_hardsigmoid, { 0, 0, 0.3333333333333333, 0.4166666666666667, 0.5, 0.5416666666666666,
                                            0.5833333333333334, 0.8333333333333334, 1, 1, NAN } },
    { call_unary, gnn_tensor_hardswish, { -0.0, -0.0, -0.3333333333333333, -0.20833333333333334, 0, 0.13541666666666666,
                                          0.2916666666666667, 1.6666666666666667, 3, 25, NAN } },
    { call_unary, gnn_tensor_mish, { -0.07259174079202535, -0.1456474612756246, -0.30340146137410895, -0.22074377465173, 0,
                                     0.1695724096638176, 0.37524521130489513, 1.9439589595339946, 2.9865350049679575, 25, NAN } },
    { call_celu, NULL, { -0.6976910459708426, -0.6903653492868647, -0.532244274490757, -0.35732083831013284, 0, 0.25, 0.5,
                         2, 3, 25, NAN } },
    { call_unary, gnn_tensor_selu, { -1.7258986281898945, -1.6705687287671118, -1.1113307378125625, -0.6917581878028713, 0,
                                     0.2626752468388701, 0.5253504936777402, 2.101401974710961, 3.1521029620664414,
                                     26.26752468388701, NAN } },
    { call_unary, gnn_tensor_logsigmoid, { -4.0181499279178094, -3.048587351573742, -1.3132616875182228, -0.9740769841801067,
                                           -0.6931471805599453, -0.5759394198788436, -0.4740769841801067, -0.1269280110429725,
                                           -0.04858735157374206, -1.3887943864867583e-11, NAN } },
    { call_hardshrink, NULL, { -4, -3, -1, 0, 0, 0, 0, 2, 3, 25, NAN } },
    { call_softshrink, NULL, { -3.5, -2.5, -0.5, 0, 0, 0, 0, 1.5, 2.5, 24.5, 0 } },
    { call_threshold, NULL, { -7, -7, -7, -7, -7, -7, 0.5, 2, 3, 25, NAN } },
    { call_hardtanh, NULL, { -0.5, -0.5, -0.5, -0.5, 0, 0.25, 0.5, 2, 2, 2, NAN } },
  };
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) x = gnn_test_tensor_d (in, 11, GNN_TEST_SHAPE (11), 1);
  g_autoptr(GnnTensor) xf = gnn_tensor_to_dtype (x, GNN_DTYPE_FLOAT32, &error);
  g_autoptr(GnnTensor) xi = gnn_tensor_to_dtype (x, GNN_DTYPE_INT64, &error);
  g_autoptr(GnnTensor) k = gnn_test_tensor_d (GNN_TEST_DATA (-0.5, 2.0, 1.0), 3, GNN_TEST_SHAPE (3), 1);
  g_autoptr(GnnTensor) y = NULL, s = NULL;

  g_assert_no_error (error);
  for (guint r = 0; r < G_N_ELEMENTS (rows); r++)
    {
      g_autoptr(GnnTensor) yd = rows[r].fn (x, rows[r].data, &error);
      g_autoptr(GnnTensor) yf = yd ? rows[r].fn (xf, rows[r].data, &error) : NULL;

      g_assert_no_error (error);
      gnn_test_assert_close (yd, rows[r].want, 11, 1e-14, 1e-15);
      g_assert_cmpint (gnn_tensor_get_dtype (yf), ==, GNN_DTYPE_FLOAT32);
      gnn_test_assert_close (yf, rows[r].want, 11, 1e-6, 1e-7);
    }
  /* hardtanh's gradient is 0 at its bounds (clamp's passes there) */
  gnn_tensor_set_requires_grad (k, TRUE, &error);
  y = gnn_tensor_hardtanh (k, -0.5, 2.0, &error);
  s = y ? gnn_tensor_sum_all (y, &error) : NULL;
  g_assert_true (s && gnn_tensor_backward (s, NULL, FALSE, &error));
  g_assert_no_error (error);
  gnn_test_assert_close (gnn_tensor_get_grad (k), GNN_TEST_DATA (0, 0, 1), 3, 0, 0);
  /* integers: refused as PyTorch refuses them, but hardtanh, which keeps them */
  g_assert_null (gnn_tensor_softplus (xi, 1.0, 20.0, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_DTYPE);
  g_assert_true (strstr (error->message, "softplus") && strstr (error->message, "int64"));
  g_clear_error (&error);
  g_clear_object (&y);
  y = gnn_tensor_hardtanh (xi, -1.0, 2.0, &error);
  g_assert_no_error (error);
  g_assert_cmpint (gnn_tensor_get_dtype (y), ==, GNN_DTYPE_INT64);
  g_assert_null (gnn_tensor_softshrink (x, -0.5, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_assert_true (strstr (error->message, "lambda must be greater or equal to 0") != NULL);
  g_clear_error (&error);
  g_assert_null (gnn_tensor_celu (x, 0.0, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_assert_true (strstr (error->message, "alpha cannot be 0") != NULL);
  g_clear_error (&error);
  /* glu halves its dimension, which must be even: x has 11 elements */
  g_assert_null (gnn_tensor_glu (x, 0, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_SHAPE);
  g_assert_true (strstr (error->message, "Halving dimension must be even") != NULL);
  g_clear_error (&error);
}

/* floor_divide has no derivative, as in PyTorch 1.13: differentiating it is an error */
static void
test_floor_divide_no_grad (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) a = gnn_test_tensor_d (GNN_TEST_DATA (-7, 7), 2, GNN_TEST_SHAPE (2), 1);
  g_autoptr(GnnTensor) b = gnn_test_tensor_d (GNN_TEST_DATA (2, 3), 2, GNN_TEST_SHAPE (2), 1);
  g_autoptr(GnnTensor) q = NULL, s = NULL;

  gnn_tensor_set_requires_grad (a, TRUE, &error);
  q = gnn_tensor_floor_divide (a, b, &error);
  s = q ? gnn_tensor_sum_all (q, &error) : NULL;
  g_assert_no_error (error);
  g_assert_cmpstr (gnn_tensor_get_grad_fn_name (q), ==, "NotImplemented");
  g_assert_false (gnn_tensor_backward (s, NULL, FALSE, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED);
  g_assert_true (strstr (error->message, "floor_divide") != NULL);
}

int
main (int argc, char **argv)
{
  gnn_test_init (&argc, &argv);
  g_test_add_func ("/ops/unary/values", test_values);
  g_test_add_func ("/ops/unary/float32-strided", test_float32_and_strided);
  g_test_add_func ("/ops/unary/dtype-rules", test_dtype_rules);
  g_test_add_func ("/ops/unary/errors", test_errors);
  g_test_add_func ("/ops/unary/grad-fn-names", test_grad_fn_names);
  g_test_add_func ("/ops/unary/gradcheck", test_gradcheck);
  g_test_add_func ("/ops/unary/kinks", test_kinks);
  g_test_add_func ("/ops/unary/float32-backward", test_float32_backward);
  g_test_add_func ("/ops/unary/inplace-detection", test_inplace_detection);
  g_test_add_func ("/ops/unary/parallel", test_parallel);
  g_test_add_func ("/ops/unary/math-gradcheck", test_math_gradcheck);
  g_test_add_func ("/ops/unary/math-values", test_math_values);
  g_test_add_func ("/ops/unary/floor-divide-no-grad", test_floor_divide_no_grad);
  g_test_add_func ("/ops/unary/activation-gradcheck", test_activation_gradcheck);
  g_test_add_func ("/ops/unary/activation-values", test_activation_values);
  return g_test_run ();
}
