/* test-ops-scan.c: cumsum, cumprod and logcumsumexp; sort, argsort and topk */
#include "config.h"

#include "gnn-test-util.h"

#define OK(expr) G_STMT_START { (expr); g_assert_no_error (error); } G_STMT_END

static void
assert_error (GError **error, gint code, const char *fragment)
{
  g_assert_error (*error, GNN_ERROR, code);
  if (strstr ((*error)->message, fragment) == NULL)
    g_error ("error message '%s' lacks '%s'", (*error)->message, fragment);
  g_clear_error (error);
}

/* x (2, 3) = [[1, 2, 3], [4, -5, 6]] */
static GnnTensor *
small_23 (void)
{
  return gnn_test_tensor_d (GNN_TEST_DATA (1, 2, 3, 4, -5, 6), 6, GNN_TEST_SHAPE (2, 3), 2);
}

static void
test_values (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) x = small_23 ();
  g_autoptr(GnnTensor) s1 = NULL, s0 = NULL, p1 = NULL, l1 = NULL, i = NULL, si = NULL, pi = NULL, b = NULL,
    sb = NULL, scalar = NULL, ss = NULL;

  OK (s1 = gnn_tensor_cumsum (x, 1, &error));
  gnn_test_assert_close (s1, GNN_TEST_DATA (1, 3, 6, 4, -1, 5), 6, 0, 0);
  OK (s0 = gnn_tensor_cumsum (x, -2, &error));
  gnn_test_assert_close (s0, GNN_TEST_DATA (1, 2, 3, 5, -3, 9), 6, 0, 0);
  OK (p1 = gnn_tensor_cumprod (x, -1, &error));
  gnn_test_assert_close (p1, GNN_TEST_DATA (1, 2, 6, 4, -20, -120), 6, 0, 0);
  OK (l1 = gnn_tensor_logcumsumexp (x, 1, &error));
  gnn_test_assert_close (l1, GNN_TEST_DATA (1, log (exp (1) + exp (2)), log (exp (1) + exp (2) + exp (3)),
                                            4, log (exp (4) + exp (-5)), log (exp (4) + exp (-5) + exp (6))),
                         6, 1e-12, 1e-12);
  g_assert_cmpint (gnn_tensor_get_dtype (l1), ==, GNN_DTYPE_FLOAT64);

  /* integers and bool scan as int64 */
  OK (i = gnn_tensor_to_dtype (x, GNN_DTYPE_INT64, &error));
  OK (si = gnn_tensor_cumsum (i, 1, &error));
  g_assert_cmpint (gnn_tensor_get_dtype (si), ==, GNN_DTYPE_INT64);
  gnn_test_assert_close (si, GNN_TEST_DATA (1, 3, 6, 4, -1, 5), 6, 0, 0);
  OK (pi = gnn_tensor_cumprod (i, 0, &error));
  gnn_test_assert_close (pi, GNN_TEST_DATA (1, 2, 3, 4, -10, 18), 6, 0, 0);
  OK (b = gnn_tensor_gt_scalar (x, 1.5, &error));
  OK (sb = gnn_tensor_cumsum (b, 1, &error));
  g_assert_cmpint (gnn_tensor_get_dtype (sb), ==, GNN_DTYPE_INT64);
  gnn_test_assert_close (sb, GNN_TEST_DATA (0, 1, 2, 1, 1, 2), 6, 0, 0);

  /* a 0-d tensor scans along dim 0 or -1 to itself */
  OK (scalar = gnn_tensor_new_scalar (2.5, GNN_DTYPE_FLOAT32, "cpu", &error));
  OK (ss = gnn_tensor_cumprod (scalar, -1, &error));
  g_assert_cmpuint (gnn_tensor_get_ndim (ss), ==, 0);
  gnn_test_assert_close (ss, GNN_TEST_DATA (2.5), 1, 0, 0);
}

/* logcumsumexp does not overflow and propagates NaN, as torch */
static void
test_logcumsumexp_special (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) big = gnn_test_tensor_d (GNN_TEST_DATA (1000, 1000, -INFINITY, 999), 4, GNN_TEST_SHAPE (4), 1);
  g_autoptr(GnnTensor) special = gnn_test_tensor_d (GNN_TEST_DATA (-INFINITY, 1, NAN, 2, INFINITY), 5,
                                                    GNN_TEST_SHAPE (5), 1);
  g_autoptr(GnnTensor) lb = NULL, ls = NULL;
  g_autofree double *v = NULL;

  OK (lb = gnn_tensor_logcumsumexp (big, 0, &error));
  gnn_test_assert_close (lb, GNN_TEST_DATA (1000, 1000 + log (2), 1000 + log (2),
                                            1000 + log (2 + exp (-1))), 4, 1e-12, 0);
  OK (ls = gnn_tensor_logcumsumexp (special, 0, &error));
  OK (v = gnn_tensor_to_doubles (ls, NULL, &error));
  g_assert_true (isinf (v[0]) && v[0] < 0);
  g_assert_cmpfloat (v[1], ==, 1);
  g_assert_true (isnan (v[2]) && isnan (v[3]) && isnan (v[4]));
}

/* the gradient of Σ cumprod (x) with zeros in x, as torch computes it: [1, 8, 0, 0, 0] and
 * [1, 38, 0, 0, 0] (no division by the zeros) */
static void
test_cumprod_zeros_backward (void)
{
  const double inputs[2][5] = { { 2, 0, 3, 0, 4 }, { 2, 0, 3, 1, 4 } };
  const double grads[2][5] = { { 1, 8, 0, 0, 0 }, { 1, 38, 0, 0, 0 } };

  for (guint k = 0; k < 2; k++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(GnnTensor) x = gnn_test_tensor_d (inputs[k], 5, GNN_TEST_SHAPE (5), 1);
      g_autoptr(GnnTensor) y = NULL, s = NULL;

      OK (gnn_tensor_set_requires_grad (x, TRUE, &error));
      OK (y = gnn_tensor_cumprod (x, 0, &error));
      g_assert_cmpstr (gnn_tensor_get_grad_fn_name (y), ==, "CumprodBackward0");
      OK (s = gnn_tensor_sum_all (y, &error));
      OK (gnn_tensor_backward (s, NULL, FALSE, &error));
      gnn_test_assert_close (gnn_tensor_get_grad (x), grads[k], 5, 0, 0);
    }
}

typedef struct {
  int op;    /* 0 cumsum, 1 cumprod, 2 logcumsumexp */
  int dim;
  gboolean transposed;   /* scan a transposed view of the input */
} ScanCase;

/* the scan of (a transposed view of) x, times signs, so that the gradient flowing into the
 * scan has both signs (logcumsumexp's backward treats them apart) */
static GnnTensor *
f_scan (GnnTensor *x, gpointer data, GError **error)
{
  const ScanCase *c = data;
  g_autoptr(GnnTensor) t = c->transposed ? gnn_tensor_transpose (x, 0, 2, error) : g_object_ref (x);
  g_autoptr(GnnTensor) y = NULL, signs = NULL;
  const gint64 *shape;
  guint ndim;
  double w[24];

  if (t == NULL)
    return NULL;
  switch (c->op)
    {
    case 0:  y = gnn_tensor_cumsum (t, c->dim, error); break;
    case 1:  y = gnn_tensor_cumprod (t, c->dim, error); break;
    default: y = gnn_tensor_logcumsumexp (t, c->dim, error); break;
    }
  if (y == NULL)
    return NULL;
  for (int i = 0; i < 24; i++)
    w[i] = i % 3 == 1 ? -1 : 1;
  shape = gnn_tensor_get_shape (y, &ndim);
  signs = gnn_test_tensor_d (w, 24, shape, ndim);
  return gnn_tensor_mul (y, signs, error);
}

static void
test_gradcheck (void)
{
  const ScanCase cases[] = {
    { 0, 0, FALSE }, { 0, 1, FALSE }, { 0, -1, TRUE },
    { 1, 0, FALSE }, { 1, 1, TRUE }, { 1, 2, FALSE },
    { 2, 0, TRUE }, { 2, 1, FALSE }, { 2, -1, FALSE },
  };
  double v[24];

  for (int i = 0; i < 24; i++)
    v[i] = sin (1.3 * i + 0.2) * 2 + 0.01 * i;
  v[5] = v[14] = v[15] = 0;   /* zeros for cumprod: one alone in its row, two in a row */
  for (guint k = 0; k < G_N_ELEMENTS (cases); k++)
    {
      g_autoptr(GnnTensor) x = gnn_test_tensor_d (v, 24, GNN_TEST_SHAPE (2, 3, 4), 3);
      gnn_test_gradcheck (f_scan, (gpointer) &cases[k], x, 1e-6, 1e-6);
    }
}

static void
test_grad_fn_names (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) x = small_23 ();
  g_autoptr(GnnTensor) s = NULL, l = NULL, i = NULL, si = NULL;

  OK (gnn_tensor_set_requires_grad (x, TRUE, &error));
  OK (s = gnn_tensor_cumsum (x, 0, &error));
  g_assert_cmpstr (gnn_tensor_get_grad_fn_name (s), ==, "CumsumBackward0");
  OK (l = gnn_tensor_logcumsumexp (x, 0, &error));
  g_assert_cmpstr (gnn_tensor_get_grad_fn_name (l), ==, "LogcumsumexpBackward0");
  OK (i = gnn_tensor_to_dtype (x, GNN_DTYPE_INT64, &error));
  OK (si = gnn_tensor_cumsum (i, 0, &error));
  g_assert_null (gnn_tensor_get_grad_fn_name (si));
}

static void
test_errors (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) x = small_23 ();
  g_autoptr(GnnTensor) i = NULL;

  g_assert_null (gnn_tensor_cumsum (x, 2, &error));
  assert_error (&error, GNN_ERROR_INDEX, "cumsum: Dimension out of range (expected to be in range of [-2, 1], but got 2)");
  g_assert_null (gnn_tensor_cumprod (x, -3, &error));
  assert_error (&error, GNN_ERROR_INDEX, "cumprod: Dimension out of range");
  g_assert_null (gnn_tensor_logcumsumexp (x, 5, &error));
  assert_error (&error, GNN_ERROR_INDEX, "logcumsumexp: Dimension out of range");
  OK (i = gnn_tensor_to_dtype (x, GNN_DTYPE_INT64, &error));
  g_assert_null (gnn_tensor_logcumsumexp (i, 0, &error));
  assert_error (&error, GNN_ERROR_DTYPE, "logcumsumexp: expected a floating-point tensor, got int64");
}

/* ties keep their order (ascending and descending), NaN sorts as the largest value */
static void
test_sort_values (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) x = gnn_test_tensor_d (GNN_TEST_DATA (2, 1, NAN, 2, 1, NAN, 3), 7, GNN_TEST_SHAPE (7), 1);
  g_autoptr(GnnTensor) up = NULL, up_i = NULL, down = NULL, down_i = NULL, arg = NULL, i = NULL, si = NULL,
    top = NULL, top_i = NULL;
  g_autofree double *u = NULL, *d = NULL;

  OK (up = gnn_tensor_sort (x, 0, FALSE, TRUE, &up_i, &error));
  OK (u = gnn_tensor_to_doubles (up, NULL, &error));
  gnn_test_assert_close (up_i, GNN_TEST_DATA (1, 4, 0, 3, 6, 2, 5), 7, 0, 0);
  g_assert_true (u[0] == 1 && u[1] == 1 && u[2] == 2 && u[3] == 2 && u[4] == 3 && isnan (u[5]) && isnan (u[6]));
  OK (down = gnn_tensor_sort (x, -1, TRUE, TRUE, &down_i, &error));
  OK (d = gnn_tensor_to_doubles (down, NULL, &error));
  gnn_test_assert_close (down_i, GNN_TEST_DATA (2, 5, 6, 0, 3, 1, 4), 7, 0, 0);
  g_assert_true (isnan (d[0]) && isnan (d[1]) && d[2] == 3 && d[6] == 1);
  OK (arg = gnn_tensor_argsort (x, 0, FALSE, TRUE, &error));
  g_assert_cmpint (gnn_tensor_get_dtype (arg), ==, GNN_DTYPE_INT64);
  gnn_test_assert_close (arg, GNN_TEST_DATA (1, 4, 0, 3, 6, 2, 5), 7, 0, 0);
  OK (top = gnn_tensor_topk (x, 3, 0, FALSE, TRUE, &top_i, &error));
  gnn_test_assert_close (top, GNN_TEST_DATA (1, 1, 2), 3, 0, 0);
  gnn_test_assert_close (top_i, GNN_TEST_DATA (1, 4, 0), 3, 0, 0);

  /* int64 keeps its dtype */
  OK (i = gnn_tensor_new_from_int64s ((gint64[]) { 5, -2, 7, -2 }, 4, GNN_TEST_SHAPE (2, 2), 2, &error));
  OK (si = gnn_tensor_sort (i, 0, TRUE, TRUE, NULL, &error));
  g_assert_cmpint (gnn_tensor_get_dtype (si), ==, GNN_DTYPE_INT64);
  gnn_test_assert_close (si, GNN_TEST_DATA (7, -2, 5, -2), 4, 0, 0);
}

typedef struct {
  int dim;
  gboolean descending;
  gint64 k;   /* topk when > 0 */
} SortCase;

static GnnTensor *
f_sort (GnnTensor *x, gpointer data, GError **error)
{
  const SortCase *c = data;
  return c->k > 0 ? gnn_tensor_topk (x, c->k, c->dim, c->descending, TRUE, NULL, error)
                  : gnn_tensor_sort (x, c->dim, c->descending, TRUE, NULL, error);
}

static void
test_sort_gradcheck (void)
{
  const SortCase cases[] = { { 0, FALSE, 0 }, { 1, TRUE, 0 }, { -1, FALSE, 0 }, { 1, TRUE, 2 }, { 2, FALSE, 3 } };
  double v[24];

  for (int i = 0; i < 24; i++)
    v[i] = sin (1.3 * i + 0.2) * 2 + 0.01 * i;   /* distinct, so that the order is fixed near x */
  for (guint k = 0; k < G_N_ELEMENTS (cases); k++)
    {
      g_autoptr(GnnTensor) x = gnn_test_tensor_d (v, 24, GNN_TEST_SHAPE (2, 3, 4), 3);
      gnn_test_gradcheck (f_sort, (gpointer) &cases[k], x, 1e-6, 1e-6);
    }
}

static void
test_sort_errors (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) x = small_23 ();
  g_autoptr(GnnTensor) s = NULL, t = NULL;

  g_assert_null (gnn_tensor_sort (x, 2, FALSE, FALSE, NULL, &error));
  assert_error (&error, GNN_ERROR_INDEX, "sort: Dimension out of range");
  g_assert_null (gnn_tensor_topk (x, 4, 1, TRUE, TRUE, NULL, &error));
  assert_error (&error, GNN_ERROR_SHAPE, "topk: selected index k out of range: k is 4 but dim 1 has size 3");
  g_assert_null (gnn_tensor_topk (x, -1, 1, TRUE, TRUE, NULL, &error));
  assert_error (&error, GNN_ERROR_SHAPE, "topk: selected index k out of range");
  OK (gnn_tensor_set_requires_grad (x, TRUE, &error));
  OK (s = gnn_tensor_sort (x, 0, FALSE, FALSE, NULL, &error));
  g_assert_cmpstr (gnn_tensor_get_grad_fn_name (s), ==, "SortBackward0");
  OK (t = gnn_tensor_topk (x, 1, 0, TRUE, TRUE, NULL, &error));
  g_assert_cmpstr (gnn_tensor_get_grad_fn_name (t), ==, "TopkBackward0");
}

int
main (int argc, char **argv)
{
  gnn_test_init (&argc, &argv);
  g_test_add_func ("/ops/scan/values", test_values);
  g_test_add_func ("/ops/scan/logcumsumexp-special", test_logcumsumexp_special);
  g_test_add_func ("/ops/scan/cumprod-zeros-backward", test_cumprod_zeros_backward);
  g_test_add_func ("/ops/scan/gradcheck", test_gradcheck);
  g_test_add_func ("/ops/scan/grad-fn-names", test_grad_fn_names);
  g_test_add_func ("/ops/scan/errors", test_errors);
  g_test_add_func ("/ops/sort/values", test_sort_values);
  g_test_add_func ("/ops/sort/gradcheck", test_sort_gradcheck);
  g_test_add_func ("/ops/sort/errors", test_sort_errors);
  return g_test_run ();
}
