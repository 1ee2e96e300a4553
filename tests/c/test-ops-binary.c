/* test-ops-binary.c: binary ops, broadcasting, promotion, in-place ops, gradchecks */
#include "config.h"

#include "gnn-test-util.h"

#define OK(expr) G_STMT_START { (expr); g_assert_no_error (error); } G_STMT_END

static void
test_broadcast_values (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) a = gnn_test_tensor_d (GNN_TEST_DATA (1, 2, 3, 4, 5, 6), 6, GNN_TEST_SHAPE (2, 3), 2);
  g_autoptr(GnnTensor) b = gnn_test_tensor_d (GNN_TEST_DATA (10, 20, 30), 3, GNN_TEST_SHAPE (3), 1);
  g_autoptr(GnnTensor) c = gnn_test_tensor_d (GNN_TEST_DATA (2, 4), 2, GNN_TEST_SHAPE (2, 1), 2);
  g_autoptr(GnnTensor) s = NULL, d = NULL, m = NULL, q = NULL, mx = NULL;

  OK (s = gnn_tensor_add (a, b, 0.5, &error));
  gnn_test_assert_close (s, GNN_TEST_DATA (6, 12, 18, 9, 15, 21), 6, 0, 1e-12);
  OK (d = gnn_tensor_sub (a, c, 1.0, &error));
  gnn_test_assert_close (d, GNN_TEST_DATA (-1, 0, 1, 0, 1, 2), 6, 0, 1e-12);
  OK (m = gnn_tensor_mul (c, b, &error));
  gnn_test_assert_shape (m, GNN_TEST_SHAPE (2, 3), 2);
  gnn_test_assert_close (m, GNN_TEST_DATA (20, 40, 60, 40, 80, 120), 6, 0, 1e-12);
  OK (q = gnn_tensor_div (b, c, &error));
  gnn_test_assert_close (q, GNN_TEST_DATA (5, 10, 15, 2.5, 5, 7.5), 6, 0, 1e-12);
  OK (mx = gnn_tensor_maximum (a, c, &error));
  gnn_test_assert_close (mx, GNN_TEST_DATA (2, 2, 3, 4, 5, 6), 6, 0, 0);
}

static void
test_shape_mismatch (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) a = gnn_test_tensor_d (GNN_TEST_DATA (1, 2, 3, 4, 5, 6), 6, GNN_TEST_SHAPE (2, 3), 2);
  g_autoptr(GnnTensor) b = gnn_test_tensor_d (GNN_TEST_DATA (1, 2), 2, GNN_TEST_SHAPE (2), 1);
  GnnTensor *r = gnn_tensor_add (a, b, 1.0, &error);

  g_assert_null (r);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_SHAPE);
  g_assert_nonnull (strstr (error->message, "add"));
  g_assert_nonnull (strstr (error->message, "[2, 3]"));
  g_assert_nonnull (strstr (error->message, "[2]"));
}

static void
test_promotion (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) d = gnn_test_tensor_d (GNN_TEST_DATA (1, 2), 2, GNN_TEST_SHAPE (2), 1);
  g_autoptr(GnnTensor) i = NULL, f = NULL, r1 = NULL, r2 = NULL, r3 = NULL, r4 = NULL, h = NULL, r5 = NULL;

  OK (i = gnn_tensor_to_dtype (d, GNN_DTYPE_INT64, &error));
  OK (f = gnn_tensor_to_dtype (d, GNN_DTYPE_FLOAT32, &error));
  OK (h = gnn_tensor_to_dtype (d, GNN_DTYPE_FLOAT16, &error));
  OK (r1 = gnn_tensor_add (i, i, 1.0, &error));
  g_assert_cmpint (gnn_tensor_get_dtype (r1), ==, GNN_DTYPE_INT64);
  OK (r2 = gnn_tensor_mul (i, f, &error));
  g_assert_cmpint (gnn_tensor_get_dtype (r2), ==, GNN_DTYPE_FLOAT32);
  OK (r3 = gnn_tensor_div (i, i, &error));
  g_assert_cmpint (gnn_tensor_get_dtype (r3), ==, GNN_DTYPE_FLOAT32);
  OK (r4 = gnn_tensor_add (f, d, 1.0, &error));
  g_assert_cmpint (gnn_tensor_get_dtype (r4), ==, GNN_DTYPE_FLOAT64);
  /* half stores, float32 computes */
  OK (r5 = gnn_tensor_mul (h, h, &error));
  g_assert_cmpint (gnn_tensor_get_dtype (r5), ==, GNN_DTYPE_FLOAT16);
  gnn_test_assert_close (r5, GNN_TEST_DATA (1, 4), 2, 0, 0);
  g_assert_cmpint (gnn_dtype_promote (GNN_DTYPE_FLOAT16, GNN_DTYPE_BFLOAT16), ==, GNN_DTYPE_FLOAT32);
  g_assert_cmpint (gnn_dtype_promote (GNN_DTYPE_BOOL, GNN_DTYPE_UINT8), ==, GNN_DTYPE_UINT8);
}

static void
test_comparisons_and_where (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) a = gnn_test_tensor_d (GNN_TEST_DATA (1, 5, 3), 3, GNN_TEST_SHAPE (3), 1);
  g_autoptr(GnnTensor) b = gnn_test_tensor_d (GNN_TEST_DATA (2, 5, 1), 3, GNN_TEST_SHAPE (3), 1);
  g_autoptr(GnnTensor) lt = NULL, ge = NULL, w = NULL;

  OK (lt = gnn_tensor_lt (a, b, &error));
  g_assert_cmpint (gnn_tensor_get_dtype (lt), ==, GNN_DTYPE_BOOL);
  gnn_test_assert_close (lt, GNN_TEST_DATA (1, 0, 0), 3, 0, 0);
  OK (ge = gnn_tensor_ge_scalar (a, 3, &error));
  gnn_test_assert_close (ge, GNN_TEST_DATA (0, 1, 1), 3, 0, 0);
  OK (w = gnn_where (lt, a, b, &error));
  gnn_test_assert_close (w, GNN_TEST_DATA (1, 5, 1), 3, 0, 0);
}

static void
test_inplace_ops (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) a = gnn_test_tensor_d (GNN_TEST_DATA (1, 2, 3), 3, GNN_TEST_SHAPE (3), 1);
  g_autoptr(GnnTensor) b = gnn_test_tensor_d (GNN_TEST_DATA (4, 5, 6), 3, GNN_TEST_SHAPE (3), 1);
  g_autoptr(GnnTensor) c = gnn_test_tensor_d (GNN_TEST_DATA (2, 2, 2), 3, GNN_TEST_SHAPE (3), 1);
  g_autoptr(GnnTensor) wide = gnn_test_tensor_d (GNN_TEST_DATA (1, 2, 3, 4, 5, 6), 6, GNN_TEST_SHAPE (2, 3), 2);

  OK (gnn_tensor_add_ (a, b, 2, &error));
  gnn_test_assert_close (a, GNN_TEST_DATA (9, 12, 15), 3, 0, 0);
  OK (gnn_tensor_addcmul_ (a, b, c, 0.5, &error));
  gnn_test_assert_close (a, GNN_TEST_DATA (13, 17, 21), 3, 0, 0);
  OK (gnn_tensor_addcdiv_ (a, b, c, 1, &error));
  gnn_test_assert_close (a, GNN_TEST_DATA (15, 19.5, 24), 3, 0, 0);
  OK (gnn_tensor_lerp_ (a, b, 0.5, &error));
  gnn_test_assert_close (a, GNN_TEST_DATA (9.5, 12.25, 15), 3, 0, 0);
  OK (gnn_tensor_copy_ (a, c, &error));
  gnn_test_assert_close (a, GNN_TEST_DATA (2, 2, 2), 3, 0, 0);
  OK (gnn_tensor_zero_ (a, &error));
  gnn_test_assert_close (a, GNN_TEST_DATA (0, 0, 0), 3, 0, 0);
  g_assert_cmpuint (gnn_tensor_get_version (a), ==, 6);

  /* the output shape cannot grow */
  g_assert_false (gnn_tensor_add_ (a, wide, 1, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_SHAPE);
  g_clear_error (&error);
  /* an in-place op through a view writes the base */
  {
    g_autoptr(GnnTensor) row = NULL;
    OK (row = gnn_tensor_select (wide, 0, 1, &error));
    OK (gnn_tensor_mul_scalar_ (row, 10, &error));
    gnn_test_assert_close (wide, GNN_TEST_DATA (1, 2, 3, 40, 50, 60), 6, 0, 0);
  }
}

/* gnn_tensor_write_back_: torch's in-place write of an out-of-place result */
static void
test_write_back (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) x = gnn_test_tensor_d (GNN_TEST_DATA (0.5, 1, 2), 3, GNN_TEST_SHAPE (3), 1);
  g_autoptr(GnnTensor) wide = gnn_test_tensor_d (GNN_TEST_DATA (1, 2, 3, 4, 5, 6), 6, GNN_TEST_SHAPE (2, 3), 2);
  g_autoptr(GnnTensor) y = NULL, copy = NULL, s = NULL, loss = NULL, as_int = NULL, as_bool = NULL;
  guint64 version;
  GnnTensor *grad;

  OK (gnn_tensor_set_requires_grad (x, TRUE, &error));
  OK (y = gnn_tensor_mul_scalar (x, 1.0, &error));
  /* y.sin_ (): sin of a clone of y, written back */
  OK (copy = gnn_tensor_clone (y, &error));
  OK (s = gnn_tensor_sin (copy, &error));
  version = gnn_tensor_get_version (y);
  OK (gnn_tensor_write_back_ (y, s, &error));
  g_assert_cmpuint (gnn_tensor_get_version (y), ==, version + 1);
  gnn_test_assert_close (y, GNN_TEST_DATA (sin (0.5), sin (1.0), sin (2.0)), 3, 0, 1e-15);
  OK (loss = gnn_tensor_sum_all (y, &error));
  OK (gnn_tensor_backward (loss, NULL, FALSE, &error));
  grad = gnn_tensor_get_grad (x);
  gnn_test_assert_close (grad, GNN_TEST_DATA (cos (0.5), cos (1.0), cos (2.0)), 3, 0, 1e-15);

  /* a leaf that requires grad is refused */
  g_assert_false (gnn_tensor_write_back_ (x, s, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_AUTOGRAD);
  g_clear_error (&error);
  /* the result keeps the tensor's shape */
  g_assert_false (gnn_tensor_write_back_ (y, wide, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_SHAPE);
  g_assert_cmpstr (error->message, ==, "output with shape [3] doesn't match the broadcast shape [2, 3]");
  g_clear_error (&error);
  /* torch's casting rule: no floating result into an integral tensor, nothing but bool into bool */
  OK (as_int = gnn_tensor_to_dtype (s, GNN_DTYPE_INT64, &error));
  g_assert_false (gnn_tensor_write_back_ (as_int, s, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_DTYPE);
  g_assert_cmpstr (error->message, ==, "result type Double can't be cast to the desired output type Long");
  g_clear_error (&error);
  OK (as_bool = gnn_tensor_to_dtype (s, GNN_DTYPE_BOOL, &error));
  g_assert_false (gnn_tensor_write_back_ (as_bool, as_int, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_DTYPE);
  g_clear_error (&error);
  OK (gnn_tensor_write_back_ (as_int, as_bool, &error));
  gnn_test_assert_close (as_int, GNN_TEST_DATA (1, 1, 1), 3, 0, 0);
}

static GnnTensor *
f_add (GnnTensor *x, gpointer data, GError **error)
{
  g_autoptr(GnnTensor) y = gnn_test_tensor_d (GNN_TEST_DATA (0.3, -1.2, 2.0), 3, GNN_TEST_SHAPE (3), 1);
  return gnn_tensor_add (x, y, -1.5, error);
}

static GnnTensor *
f_mul_self (GnnTensor *x, gpointer data, GError **error)
{
  g_autoptr(GnnTensor) t = gnn_tensor_t (x, error);
  return t ? gnn_tensor_mul (x, t, error) : NULL;   /* (3,3) * its transpose */
}

static GnnTensor *
f_div (GnnTensor *x, gpointer data, GError **error)
{
  g_autoptr(GnnTensor) y = gnn_tensor_add_scalar (x, 3.0, error);
  return y ? gnn_tensor_div (x, y, error) : NULL;
}

static GnnTensor *
f_broadcast (GnnTensor *x, gpointer data, GError **error)
{
  /* x (3, 3): a row times a column, both slices of x */
  g_autoptr(GnnTensor) r = gnn_tensor_narrow (x, 0, 0, 1, error);
  g_autoptr(GnnTensor) c = r ? gnn_tensor_narrow (x, 1, 2, 1, error) : NULL;
  g_autoptr(GnnTensor) p = c ? gnn_tensor_mul (r, c, error) : NULL;
  return p ? gnn_tensor_sub (p, x, 0.5, error) : NULL;
}

static GnnTensor *
f_pow_scalar (GnnTensor *x, gpointer data, GError **error)
{
  g_autoptr(GnnTensor) y = gnn_tensor_mul (x, x, error);
  g_autoptr(GnnTensor) z = y ? gnn_tensor_add_scalar (y, 1.0, error) : NULL;
  return z ? gnn_tensor_pow_scalar (z, *(double *) data, error) : NULL;
}

static GnnTensor *
f_minmax (GnnTensor *x, gpointer data, GError **error)
{
  g_autoptr(GnnTensor) y = gnn_test_tensor_d (GNN_TEST_DATA (0.1, 0.1, 0.1), 3, GNN_TEST_SHAPE (3), 1);
  g_autoptr(GnnTensor) a = gnn_tensor_maximum (x, y, error);
  g_autoptr(GnnTensor) b = a ? gnn_tensor_minimum (x, y, error) : NULL;
  return b ? gnn_tensor_mul (a, b, error) : NULL;
}

static GnnTensor *
f_where (GnnTensor *x, gpointer data, GError **error)
{
  g_autoptr(GnnTensor) m = gnn_tensor_gt_scalar (x, 0.0, error);
  g_autoptr(GnnTensor) s = m ? gnn_tensor_mul (x, x, error) : NULL;
  return s ? gnn_where (m, s, x, error) : NULL;
}

static void
test_gradcheck (void)
{
  g_autoptr(GnnTensor) x = gnn_test_tensor_d (GNN_TEST_DATA (0.5, -1.25, 2.0, 0.75, 1.5, -0.3, 2.2, -1.7, 0.9),
                                              9, GNN_TEST_SHAPE (3, 3), 2);
  g_autoptr(GnnTensor) v = gnn_test_tensor_d (GNN_TEST_DATA (0.5, -1.25, 2.0), 3, GNN_TEST_SHAPE (3), 1);
  g_autoptr(GnnTensor) p = gnn_test_tensor_d (GNN_TEST_DATA (0.5, 1.25, 2.0), 3, GNN_TEST_SHAPE (3), 1);
  double exps[] = { 2.0, 3.0, 0.5, -1.0, 1.7 };

  gnn_test_gradcheck (f_add, NULL, v, 1e-6, 1e-6);
  gnn_test_gradcheck (f_mul_self, NULL, x, 1e-6, 1e-6);
  gnn_test_gradcheck (f_div, NULL, p, 1e-6, 1e-6);
  gnn_test_gradcheck (f_broadcast, NULL, x, 1e-6, 1e-6);
  for (guint i = 0; i < G_N_ELEMENTS (exps); i++)
    gnn_test_gradcheck (f_pow_scalar, &exps[i], v, 1e-6, 1e-6);
  gnn_test_gradcheck (f_minmax, NULL, v, 1e-6, 1e-6);
  gnn_test_gradcheck (f_where, NULL, v, 1e-6, 1e-6);
}

/* hypot of x and a broadcast row of x, both through the gradient */
static GnnTensor *
f_hypot (GnnTensor *x, gpointer data, GError **error)
{
  g_autoptr(GnnTensor) r = gnn_tensor_narrow (x, 0, 1, 1, error);
  return r ? gnn_tensor_hypot (x, r, error) : NULL;
}

static void
test_hypot (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) x = gnn_test_tensor_d (GNN_TEST_DATA (0.5, -1.25, 2.0, 0.75, 1.5, -0.3, 2.2, -1.7, 0.9),
                                              9, GNN_TEST_SHAPE (3, 3), 2);
  g_autoptr(GnnTensor) a = gnn_test_tensor_d (GNN_TEST_DATA (3.0, -5.0, 1e300, 0.0), 4, GNN_TEST_SHAPE (4), 1);
  g_autoptr(GnnTensor) b = gnn_test_tensor_d (GNN_TEST_DATA (4.0, 12.0, 1e300, -0.0), 4, GNN_TEST_SHAPE (4), 1);
  g_autoptr(GnnTensor) h = gnn_tensor_hypot (a, b, &error);
  g_autoptr(GnnTensor) i = NULL;
  g_autoptr(GnnTensor) bad = NULL;

  g_assert_no_error (error);
  /* exact, and 1e300 · √2 rather than the overflow of the naive formula */
  gnn_test_assert_close (h, GNN_TEST_DATA (5.0, 13.0, hypot (1e300, 1e300), 0.0), 4, 0, 0);
  g_assert_true (isfinite (hypot (1e300, 1e300)));

  i = gnn_tensor_new_from_int64s ((gint64[]) { 3, 4 }, 2, (gint64[]) { 2 }, 1, &error);
  g_assert_no_error (error);
  bad = gnn_tensor_hypot (i, i, &error);
  g_assert_null (bad);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_DTYPE);
  g_assert_nonnull (strstr (error->message, "expected floating-point tensors, got int64"));

  gnn_test_gradcheck (f_hypot, NULL, x, 1e-6, 1e-6);
}

int
main (int argc, char *argv[])
{
  gnn_test_init (&argc, &argv);
  g_test_add_func ("/ops/binary/broadcast-values", test_broadcast_values);
  g_test_add_func ("/ops/binary/shape-mismatch", test_shape_mismatch);
  g_test_add_func ("/ops/binary/promotion", test_promotion);
  g_test_add_func ("/ops/binary/comparisons-where", test_comparisons_and_where);
  g_test_add_func ("/ops/binary/inplace", test_inplace_ops);
  g_test_add_func ("/ops/binary/gradcheck", test_gradcheck);
  g_test_add_func ("/ops/binary/write-back", test_write_back);
  g_test_add_func ("/ops/binary/hypot", test_hypot);
  return g_test_run ();
}
