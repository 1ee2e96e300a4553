/* test-ops-search.c: unique, unique_consecutive, bincount, histc, histogram, searchsorted,
 * bucketize, isin, frexp, quantile and nanquantile */
#include "config.h"

#include <math.h>
#include <string.h>

#include "gnn-test-util.h"

#define OK(expr) G_STMT_START { (expr); g_assert_no_error (error); } G_STMT_END

static GnnTensor *
ints (const gint64 *data, gsize n, const gint64 *shape, guint ndim)
{
  g_autoptr(GError) error = NULL;
  GnnTensor *t = gnn_tensor_new_from_int64s (data, n, shape, ndim, &error);

  g_assert_no_error (error);
  return t;
}

#define INTS(...) ((const gint64[]) { __VA_ARGS__ })

static void
test_unique (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) x = gnn_test_tensor_d (GNN_TEST_DATA (3, 1, 2, NAN, 1, 3), 6, GNN_TEST_SHAPE (2, 3), 2);
  g_autoptr(GnnTensor) u = NULL, inv = NULL, cnt = NULL, c = NULL, ci = NULL, cc = NULL, r = NULL, ri = NULL,
    rc = NULL, m = NULL, e = NULL, ei = NULL, ec = NULL, empty = NULL;
  g_autoptr(GnnTensor) rows = ints (INTS (1, 2, 1, 2, 0, 5, 1, 2), 8, GNN_TEST_SHAPE (4, 2), 2);

  OK (u = gnn_tensor_unique (x, TRUE, &inv, &cnt, &error));
  gnn_test_assert_shape (u, GNN_TEST_SHAPE (4), 1);
  gnn_test_assert_close (u, GNN_TEST_DATA (1, 2, 3, NAN), 4, 0, 0);
  gnn_test_assert_shape (inv, GNN_TEST_SHAPE (2, 3), 2);
  gnn_test_assert_close (inv, GNN_TEST_DATA (2, 0, 1, 3, 0, 2), 6, 0, 0);
  gnn_test_assert_close (cnt, GNN_TEST_DATA (2, 1, 2, 1), 4, 0, 0);
  g_assert_cmpint (gnn_tensor_get_dtype (inv), ==, GNN_DTYPE_INT64);

  OK (c = gnn_tensor_unique_consecutive (rows, &ci, &cc, &error));
  gnn_test_assert_close (c, GNN_TEST_DATA (1, 2, 1, 2, 0, 5, 1, 2), 8, 0, 0);
  OK (r = gnn_tensor_unique_dim (rows, 0, TRUE, &ri, &rc, &error));
  gnn_test_assert_shape (r, GNN_TEST_SHAPE (2, 2), 2);
  gnn_test_assert_close (r, GNN_TEST_DATA (0, 5, 1, 2), 4, 0, 0);
  gnn_test_assert_close (ri, GNN_TEST_DATA (1, 1, 0, 1), 4, 0, 0);
  gnn_test_assert_close (rc, GNN_TEST_DATA (1, 3), 2, 0, 0);
  g_clear_object (&r);
  g_clear_object (&ri);
  g_clear_object (&rc);
  OK (r = gnn_tensor_unique_consecutive_dim (rows, 0, &ri, &rc, &error));
  gnn_test_assert_close (r, GNN_TEST_DATA (1, 2, 0, 5, 1, 2), 6, 0, 0);
  gnn_test_assert_close (ri, GNN_TEST_DATA (0, 0, 1, 2), 4, 0, 0);
  gnn_test_assert_close (rc, GNN_TEST_DATA (2, 1, 1), 3, 0, 0);
  OK (m = gnn_tensor_unique_dim (rows, -1, TRUE, NULL, NULL, &error));
  gnn_test_assert_shape (m, GNN_TEST_SHAPE (4, 2), 2);

  empty = gnn_test_tensor_d (NULL, 0, GNN_TEST_SHAPE (0), 1);
  OK (e = gnn_tensor_unique (empty, TRUE, &ei, &ec, &error));
  gnn_test_assert_shape (e, GNN_TEST_SHAPE (0), 1);
  gnn_test_assert_shape (ec, GNN_TEST_SHAPE (0), 1);
}

static void
test_unique_grad (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) x = gnn_test_tensor_d (GNN_TEST_DATA (2, 1, 2), 3, GNN_TEST_SHAPE (3), 1);
  g_autoptr(GnnTensor) u = NULL, s = NULL;

  OK (gnn_tensor_set_requires_grad (x, TRUE, &error));
  OK (u = gnn_tensor_unique (x, TRUE, NULL, NULL, &error));
  g_assert_true (gnn_tensor_get_requires_grad (u));
  OK (s = gnn_tensor_sum (u, NULL, 0, FALSE, &error));
  g_assert_false (gnn_tensor_backward (s, NULL, FALSE, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED);
  g_assert_nonnull (strstr (error->message, "_unique2"));
}

static void
test_unique_errors (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) x = gnn_test_tensor_d (GNN_TEST_DATA (1), 1, NULL, 0);
  g_autoptr(GnnTensor) flat0 = gnn_test_tensor_d (NULL, 0, GNN_TEST_SHAPE (2, 0), 2);

  g_assert_null (gnn_tensor_unique_dim (x, 0, TRUE, NULL, NULL, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INDEX);
  g_clear_error (&error);
  g_assert_null (gnn_tensor_unique_dim (flat0, 0, TRUE, NULL, NULL, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_SHAPE);
  g_clear_error (&error);
  g_assert_null (gnn_tensor_unique_dim (flat0, 2, TRUE, NULL, NULL, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INDEX);
  g_clear_error (&error);
}

static void
test_bincount (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) x = ints (INTS (1, 3, 1, 0), 4, GNN_TEST_SHAPE (4), 1);
  g_autoptr(GnnTensor) w = gnn_test_tensor_d (GNN_TEST_DATA (0.5, 1, 2, 4), 4, GNN_TEST_SHAPE (4), 1);
  g_autoptr(GnnTensor) wf = NULL, c = NULL, cw = NULL, cf = NULL, cm = NULL, neg = NULL, fl = NULL, bad = NULL;

  OK (c = gnn_tensor_bincount (x, NULL, 0, &error));
  g_assert_cmpint (gnn_tensor_get_dtype (c), ==, GNN_DTYPE_INT64);
  gnn_test_assert_close (c, GNN_TEST_DATA (1, 2, 0, 1), 4, 0, 0);
  OK (cw = gnn_tensor_bincount (x, w, 6, &error));
  g_assert_cmpint (gnn_tensor_get_dtype (cw), ==, GNN_DTYPE_FLOAT64);
  gnn_test_assert_close (cw, GNN_TEST_DATA (4, 2.5, 0, 1, 0, 0), 6, 0, 0);
  OK (wf = gnn_tensor_to_dtype (w, GNN_DTYPE_FLOAT32, &error));
  OK (cf = gnn_tensor_bincount (x, wf, 0, &error));
  g_assert_cmpint (gnn_tensor_get_dtype (cf), ==, GNN_DTYPE_FLOAT32);

  neg = ints (INTS (1, -2), 2, GNN_TEST_SHAPE (2), 1);
  g_assert_null (gnn_tensor_bincount (neg, NULL, 0, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  g_assert_null (gnn_tensor_bincount (w, NULL, 0, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_DTYPE);
  g_clear_error (&error);
  bad = ints (INTS (1, 2, 3, 4), 4, GNN_TEST_SHAPE (2, 2), 2);
  g_assert_null (gnn_tensor_bincount (bad, NULL, 0, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_SHAPE);
  g_clear_error (&error);
  g_assert_null (gnn_tensor_bincount (x, NULL, -1, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  g_assert_null (gnn_tensor_bincount (neg, w, 0, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_SHAPE);
  g_clear_error (&error);
}

static void
test_histograms (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) x = gnn_test_tensor_d (GNN_TEST_DATA (0, 1, 2, 3, 3.5, NAN), 6, GNN_TEST_SHAPE (6), 1);
  g_autoptr(GnnTensor) y = gnn_test_tensor_d (GNN_TEST_DATA (1, 2, 1), 3, GNN_TEST_SHAPE (3), 1);
  g_autoptr(GnnTensor) w = gnn_test_tensor_d (GNN_TEST_DATA (1, 2, 4), 3, GNN_TEST_SHAPE (3), 1);
  g_autoptr(GnnTensor) edges_in = gnn_test_tensor_d (GNN_TEST_DATA (0, 1, 5), 3, GNN_TEST_SHAPE (3), 1);
  g_autoptr(GnnTensor) h = NULL, hg = NULL, e = NULL, hb = NULL, eb = NULL, n = NULL;

  OK (h = gnn_tensor_histc (x, 3, 1, 3, &error));
  gnn_test_assert_close (h, GNN_TEST_DATA (1, 1, 1), 3, 0, 0);
  OK (hg = gnn_tensor_histogram (y, 4, TRUE, 0, 3, w, FALSE, &e, &error));
  gnn_test_assert_close (hg, GNN_TEST_DATA (0, 5, 2, 0), 4, 0, 0);
  gnn_test_assert_close (e, GNN_TEST_DATA (0, 0.75, 1.5, 2.25, 3), 5, 0, 0);
  OK (hb = gnn_tensor_histogram_bins (y, edges_in, NULL, TRUE, &eb, &error));
  gnn_test_assert_close (hb, GNN_TEST_DATA (0, 0.25), 2, 0, 0);

  g_assert_null (gnn_tensor_histc (x, 0, 0, 0, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  g_assert_null (gnn_tensor_histc (x, 4, 2, 1, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  g_assert_null (gnn_tensor_histc (x, 4, 0, 0, &error));   /* the data's range holds NaN */
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  n = ints (INTS (1, 2), 2, GNN_TEST_SHAPE (2), 1);
  g_assert_null (gnn_tensor_histc (n, 4, 0, 0, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_DTYPE);
  g_clear_error (&error);
  g_assert_null (gnn_tensor_histogram (y, 3, TRUE, 2, 1, NULL, FALSE, NULL, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  g_assert_null (gnn_tensor_histogram (y, 3, FALSE, 0, 0, x, FALSE, NULL, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_SHAPE);
  g_clear_error (&error);
}

static void
test_searchsorted (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) b = gnn_test_tensor_d (GNN_TEST_DATA (1, 3, 3, 5), 4, GNN_TEST_SHAPE (4), 1);
  g_autoptr(GnnTensor) v = gnn_test_tensor_d (GNN_TEST_DATA (0, 3, 6, NAN), 4, GNN_TEST_SHAPE (2, 2), 2);
  g_autoptr(GnnTensor) b2 = gnn_test_tensor_d (GNN_TEST_DATA (1, 2, 3, 4, 5, 6), 6, GNN_TEST_SHAPE (2, 3), 2);
  g_autoptr(GnnTensor) v2 = gnn_test_tensor_d (GNN_TEST_DATA (2, 5), 2, GNN_TEST_SHAPE (2, 1), 2);
  g_autoptr(GnnTensor) l = NULL, r = NULL, n = NULL, in = NULL, ni = NULL, bad = NULL;

  OK (l = gnn_tensor_searchsorted (b, v, FALSE, FALSE, NULL, &error));
  gnn_test_assert_close (l, GNN_TEST_DATA (0, 1, 4, 4), 4, 0, 0);
  OK (r = gnn_tensor_bucketize (v, b, TRUE, TRUE, &error));
  g_assert_cmpint (gnn_tensor_get_dtype (r), ==, GNN_DTYPE_INT32);
  gnn_test_assert_close (r, GNN_TEST_DATA (0, 3, 4, 4), 4, 0, 0);
  OK (n = gnn_tensor_searchsorted (b2, v2, FALSE, FALSE, NULL, &error));
  gnn_test_assert_close (n, GNN_TEST_DATA (1, 1), 2, 0, 0);
  OK (in = gnn_tensor_isin (v, b, FALSE, FALSE, &error));
  g_assert_cmpint (gnn_tensor_get_dtype (in), ==, GNN_DTYPE_BOOL);
  gnn_test_assert_close (in, GNN_TEST_DATA (0, 1, 0, 0), 4, 0, 0);
  OK (ni = gnn_tensor_isin (v, b, TRUE, TRUE, &error));
  gnn_test_assert_close (ni, GNN_TEST_DATA (1, 0, 1, 1), 4, 0, 0);

  g_assert_null (gnn_tensor_searchsorted (b2, b, FALSE, FALSE, NULL, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_SHAPE);
  g_clear_error (&error);
  g_assert_null (gnn_tensor_bucketize (v, b2, FALSE, FALSE, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_SHAPE);
  g_clear_error (&error);
  g_assert_null (gnn_tensor_searchsorted (b, v, FALSE, FALSE, b, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_DTYPE);
  g_clear_error (&error);
  bad = ints (INTS (0, 1, 2, 4), 4, GNN_TEST_SHAPE (4), 1);
  g_assert_null (gnn_tensor_searchsorted (b, v, FALSE, FALSE, bad, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INDEX);
  g_clear_error (&error);
}

static GnnTensor *
mantissa_fn (GnnTensor *x, gpointer data, GError **error)
{
  return gnn_tensor_frexp (x, NULL, error);
}

static void
test_frexp (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) x = gnn_test_tensor_d (GNN_TEST_DATA (8, -3, 0, 0.3, INFINITY, NAN), 6, GNN_TEST_SHAPE (6), 1);
  g_autoptr(GnnTensor) g = gnn_test_tensor_d (GNN_TEST_DATA (0.3, -1.7, 5.5), 3, GNN_TEST_SHAPE (3), 1);
  g_autoptr(GnnTensor) m = NULL, e = NULL, i = NULL;

  OK (m = gnn_tensor_frexp (x, &e, &error));
  g_assert_cmpint (gnn_tensor_get_dtype (e), ==, GNN_DTYPE_INT32);
  gnn_test_assert_close (m, GNN_TEST_DATA (0.5, -0.75, 0, 0.6, INFINITY, NAN), 6, 0, 0);
  gnn_test_assert_close (e, GNN_TEST_DATA (4, 2, 0, -1, 0, 0), 6, 0, 0);
  gnn_test_gradcheck (mantissa_fn, NULL, g, 1e-6, 1e-6);
  i = ints (INTS (1), 1, GNN_TEST_SHAPE (1), 1);
  g_assert_null (gnn_tensor_frexp (i, NULL, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_DTYPE);
  g_clear_error (&error);
}

static GnnTensor *
quantile_fn (GnnTensor *x, gpointer data, GError **error)
{
  g_autoptr(GnnTensor) q = gnn_test_tensor_d (GNN_TEST_DATA (0.1, 0.5, 0.8), 3, GNN_TEST_SHAPE (3), 1);

  return gnn_tensor_quantile (x, q, TRUE, GPOINTER_TO_INT (data), FALSE, "linear", error);
}

static GnnTensor *
nanquantile_fn (GnnTensor *x, gpointer data, GError **error)
{
  g_autoptr(GnnTensor) q = gnn_test_tensor_d (GNN_TEST_DATA (0.3), 1, NULL, 0);

  return gnn_tensor_nanquantile (x, q, FALSE, 0, TRUE, "midpoint", error);
}

static void
test_quantile (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) x = gnn_test_tensor_d (GNN_TEST_DATA (0.3, -1.2, 2.5, 0.7, 1.9, -0.4), 6,
                                              GNN_TEST_SHAPE (2, 3), 2);
  g_autoptr(GnnTensor) y = gnn_test_tensor_d (GNN_TEST_DATA (1, 2, 3, 4, NAN, 5), 6, GNN_TEST_SHAPE (2, 3), 2);
  g_autoptr(GnnTensor) q = gnn_test_tensor_d (GNN_TEST_DATA (0.5), 1, NULL, 0);
  g_autoptr(GnnTensor) qbad = gnn_test_tensor_d (GNN_TEST_DATA (1.5), 1, NULL, 0);
  g_autoptr(GnnTensor) a = NULL, b = NULL, c = NULL, qf = NULL, empty = NULL;

  OK (a = gnn_tensor_quantile (x, q, TRUE, 1, FALSE, "linear", &error));
  gnn_test_assert_close (a, GNN_TEST_DATA (0.3, 0.7), 2, 1e-12, 0);
  OK (b = gnn_tensor_quantile (y, q, TRUE, 1, TRUE, "lower", &error));
  gnn_test_assert_shape (b, GNN_TEST_SHAPE (2, 1), 2);
  gnn_test_assert_close (b, GNN_TEST_DATA (2, NAN), 2, 0, 0);
  OK (c = gnn_tensor_nanquantile (y, q, TRUE, 1, FALSE, "linear", &error));
  gnn_test_assert_close (c, GNN_TEST_DATA (2, 4.5), 2, 1e-12, 0);
  gnn_test_gradcheck (quantile_fn, GINT_TO_POINTER (1), x, 1e-6, 1e-6);
  gnn_test_gradcheck (quantile_fn, GINT_TO_POINTER (0), x, 1e-6, 1e-6);
  gnn_test_gradcheck (nanquantile_fn, NULL, x, 1e-6, 1e-6);

  g_assert_null (gnn_tensor_quantile (x, qbad, FALSE, 0, FALSE, "linear", &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  g_assert_null (gnn_tensor_quantile (x, q, FALSE, 0, FALSE, "cubic", &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  OK (qf = gnn_tensor_to_dtype (q, GNN_DTYPE_FLOAT32, &error));
  g_assert_null (gnn_tensor_quantile (x, qf, FALSE, 0, FALSE, "linear", &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_DTYPE);
  g_clear_error (&error);
  empty = gnn_test_tensor_d (NULL, 0, GNN_TEST_SHAPE (0), 1);
  g_assert_null (gnn_tensor_quantile (empty, q, FALSE, 0, FALSE, "linear", &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_SHAPE);
  g_clear_error (&error);
  g_assert_null (gnn_tensor_quantile (x, q, TRUE, 2, FALSE, "linear", &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INDEX);
  g_clear_error (&error);
}

int
main (int argc, char **argv)
{
  gnn_test_init (&argc, &argv);
  g_test_add_func ("/ops-search/unique", test_unique);
  g_test_add_func ("/ops-search/unique-grad", test_unique_grad);
  g_test_add_func ("/ops-search/unique-errors", test_unique_errors);
  g_test_add_func ("/ops-search/bincount", test_bincount);
  g_test_add_func ("/ops-search/histograms", test_histograms);
  g_test_add_func ("/ops-search/searchsorted", test_searchsorted);
  g_test_add_func ("/ops-search/frexp", test_frexp);
  g_test_add_func ("/ops-search/quantile", test_quantile);
  return g_test_run ();
}
