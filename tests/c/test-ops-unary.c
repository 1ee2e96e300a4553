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
  return g_test_run ();
}
