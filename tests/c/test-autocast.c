/* test-autocast.c: the thread-local autocast state (enabled, dtype, nesting, cache) and the
 * casts autocast makes: lower precision for the products and convolutions, float32 for the
 * losses and the CPU's float32 list, float64 and integers untouched, the weight-cast cache,
 * gradients in the parameters' float32, and each thread's own state */
#include "config.h"

#include "gnn-test-util.h"

#define OK(expr) G_STMT_START { (expr); g_assert_no_error (error); } G_STMT_END

static void
test_state (void)
{
  g_autoptr(GError) error = NULL;

  g_assert_false (gnn_autocast_is_enabled ("cpu"));
  g_assert_false (gnn_autocast_is_enabled ("cuda"));
  g_assert_false (gnn_autocast_is_enabled ("xpu"));
  g_assert_cmpint (gnn_autocast_get_dtype ("cpu"), ==, GNN_DTYPE_BFLOAT16);
  g_assert_cmpint (gnn_autocast_get_dtype ("cuda"), ==, GNN_DTYPE_FLOAT16);
  g_assert_true (gnn_autocast_is_cache_enabled ());

  g_assert_true (gnn_autocast_set_enabled ("cpu", TRUE, &error));
  g_assert_no_error (error);
  g_assert_true (gnn_autocast_is_enabled ("cpu"));
  g_assert_false (gnn_autocast_is_enabled ("cuda"));
  g_assert_true (gnn_autocast_set_enabled ("cpu", FALSE, &error));

  g_assert_false (gnn_autocast_set_enabled ("xpu", TRUE, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_DEVICE);
  g_assert_nonnull (strstr (error->message, "'xpu'"));
  g_clear_error (&error);

  g_assert_true (gnn_autocast_set_dtype ("cpu", GNN_DTYPE_FLOAT16, &error));
  g_assert_cmpint (gnn_autocast_get_dtype ("cpu"), ==, GNN_DTYPE_FLOAT16);
  g_assert_false (gnn_autocast_set_dtype ("cpu", GNN_DTYPE_FLOAT64, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_DTYPE);
  g_assert_nonnull (strstr (error->message, "float64"));
  g_clear_error (&error);
  g_assert_cmpint (gnn_autocast_get_dtype ("cpu"), ==, GNN_DTYPE_FLOAT16);
  g_assert_true (gnn_autocast_set_dtype ("cpu", GNN_DTYPE_BFLOAT16, &error));

  g_assert_cmpint (gnn_autocast_increment_nesting (), ==, 1);
  g_assert_cmpint (gnn_autocast_increment_nesting (), ==, 2);
  g_assert_cmpint (gnn_autocast_decrement_nesting (), ==, 1);
  g_assert_cmpint (gnn_autocast_decrement_nesting (), ==, 0);
  g_assert_cmpint (gnn_autocast_decrement_nesting (), ==, 0);

  gnn_autocast_set_cache_enabled (FALSE);
  g_assert_false (gnn_autocast_is_cache_enabled ());
  gnn_autocast_set_cache_enabled (TRUE);
}

static void
test_scope (void)
{
  g_autoptr(GError) error = NULL;

  {
    g_autoptr(GnnAutocastScope) outer = gnn_autocast_scope_new ("cpu", GNN_DTYPE_BFLOAT16, TRUE, TRUE, &error);

    g_assert_no_error (error);
    g_assert_true (gnn_autocast_is_enabled ("cpu"));
    {
      g_autoptr(GnnAutocastScope) inner = gnn_autocast_scope_new ("cpu", GNN_DTYPE_FLOAT16, FALSE, FALSE, &error);

      g_assert_no_error (error);
      g_assert_false (gnn_autocast_is_enabled ("cpu"));
      g_assert_cmpint (gnn_autocast_get_dtype ("cpu"), ==, GNN_DTYPE_FLOAT16);
      g_assert_false (gnn_autocast_is_cache_enabled ());
    }
    g_assert_true (gnn_autocast_is_enabled ("cpu"));
    g_assert_cmpint (gnn_autocast_get_dtype ("cpu"), ==, GNN_DTYPE_BFLOAT16);
    g_assert_true (gnn_autocast_is_cache_enabled ());
  }
  g_assert_false (gnn_autocast_is_enabled ("cpu"));
  g_assert_cmpint (gnn_autocast_increment_nesting (), ==, 1);
  g_assert_cmpint (gnn_autocast_decrement_nesting (), ==, 0);

  g_assert_null (gnn_autocast_scope_new ("mps", GNN_DTYPE_BFLOAT16, TRUE, TRUE, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_DEVICE);
  g_clear_error (&error);
  g_assert_null (gnn_autocast_scope_new ("cpu", GNN_DTYPE_INT64, TRUE, TRUE, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_DTYPE);
}

/* float32 normal values (a, b), or (a) when b is 0 */
static GnnTensor *
randn (gint64 a, gint64 b, guint64 seed)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) d = gnn_test_randn ((const gint64[]) { a, b }, b ? 2 : 1, seed);
  GnnTensor *f = gnn_tensor_to_dtype (d, GNN_DTYPE_FLOAT32, &error);

  g_assert_no_error (error);
  return f;
}

static void
test_casts (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) x = randn (4, 3, 1), w = randn (2, 3, 2), b = randn (2, 0, 3);
  g_autoptr(GnnTensor) xd = NULL, wd = NULL, y = NULL, yd = NULL, yi = NULL, loss = NULL, lp = NULL, sm = NULL;
  g_autoptr(GnnTensor) target = NULL, xi = NULL, ref = NULL, xb = NULL, wb = NULL, bb = NULL, ref32 = NULL;
  g_autoptr(GnnAutocastScope) scope = NULL;
  g_autofree double *got = NULL, *want = NULL;
  gsize n = 0;

  OK (xd = gnn_tensor_to_dtype (x, GNN_DTYPE_FLOAT64, &error));
  OK (wd = gnn_tensor_to_dtype (w, GNN_DTYPE_FLOAT64, &error));
  /* the reference: the bfloat16-rounded operands, computed in float32, rounded once */
  OK (xb = gnn_tensor_to_dtype (x, GNN_DTYPE_BFLOAT16, &error));
  OK (wb = gnn_tensor_to_dtype (w, GNN_DTYPE_BFLOAT16, &error));
  OK (bb = gnn_tensor_to_dtype (b, GNN_DTYPE_BFLOAT16, &error));
  OK (ref = gnn_tensor_linear (xb, wb, bb, &error));

  OK (scope = gnn_autocast_scope_new ("cpu", GNN_DTYPE_BFLOAT16, TRUE, TRUE, &error));
  OK (y = gnn_tensor_linear (x, w, b, &error));
  g_assert_cmpint (gnn_tensor_get_dtype (y), ==, GNN_DTYPE_BFLOAT16);
  OK (got = gnn_tensor_to_doubles (y, &n, &error));
  OK (want = gnn_tensor_to_doubles (ref, &n, &error));
  for (gsize i = 0; i < n; i++)
    g_assert_cmpfloat (got[i], ==, want[i]);

  /* float64 keeps its dtype, a float32 operand beside a bfloat16 one is cast too */
  {
    g_autoptr(GnnTensor) wdt = NULL, wt = NULL, mixed = NULL;

    OK (wdt = gnn_tensor_t (wd, &error));
    OK (yd = gnn_tensor_matmul (xd, wdt, &error));
    g_assert_cmpint (gnn_tensor_get_dtype (yd), ==, GNN_DTYPE_FLOAT64);
    OK (wt = gnn_tensor_t (wb, &error));
    OK (mixed = gnn_tensor_matmul (x, wt, &error));
    g_assert_cmpint (gnn_tensor_get_dtype (mixed), ==, GNN_DTYPE_BFLOAT16);
  }

  /* the losses compute in float32, whatever their input */
  OK (target = gnn_tensor_new_from_int64s ((const gint64[]) { 0, 1, 1, 0 }, 4, (const gint64[]) { 4 }, 1, &error));
  OK (loss = gnn_tensor_cross_entropy (y, target, NULL, -100, GNN_REDUCTION_MEAN, 0.0, &error));
  g_assert_cmpint (gnn_tensor_get_dtype (loss), ==, GNN_DTYPE_FLOAT32);
  OK (ref32 = gnn_tensor_to_dtype (y, GNN_DTYPE_FLOAT32, &error));
  g_clear_object (&lp);
  OK (lp = gnn_tensor_cross_entropy (ref32, target, NULL, -100, GNN_REDUCTION_MEAN, 0.0, &error));
  g_assert_cmpfloat (gnn_tensor_item (loss, &error), ==, gnn_tensor_item (lp, &error));
  /* softmax is not on the CPU's lists: it keeps its input's dtype */
  OK (sm = gnn_tensor_softmax (y, 1, &error));
  g_assert_cmpint (gnn_tensor_get_dtype (sm), ==, GNN_DTYPE_BFLOAT16);
  /* integers are never cast */
  OK (xi = gnn_tensor_to_dtype (x, GNN_DTYPE_INT64, &error));
  {
    g_autoptr(GnnTensor) xit = NULL;

    OK (xit = gnn_tensor_t (xi, &error));
    yi = gnn_tensor_matmul (xi, xit, &error);
    /* no int64 product, as in torch's CPU autocast: refused as without autocast */
    g_assert_null (yi);
    g_assert_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED);
    g_clear_error (&error);
  }
}

static void
test_cache_and_grads (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) x = randn (5, 3, 4), w = randn (2, 3, 5), y1 = NULL, y2 = NULL, s = NULL, s1 = NULL, s2 = NULL;
  GnnTensor *gw;

  OK (gnn_tensor_set_requires_grad (w, TRUE, &error));
  {
    g_autoptr(GnnAutocastScope) scope = gnn_autocast_scope_new ("cpu", GNN_DTYPE_BFLOAT16, TRUE, TRUE, &error);

    g_assert_no_error (error);
    g_assert_cmpuint (gnn_autocast_get_cache_size (), ==, 0);
    OK (y1 = gnn_tensor_linear (x, w, NULL, &error));
    g_assert_cmpuint (gnn_autocast_get_cache_size (), ==, 1);
    OK (y2 = gnn_tensor_linear (x, w, NULL, &error));
    g_assert_cmpuint (gnn_autocast_get_cache_size (), ==, 1);
    OK (s1 = gnn_tensor_sum_all (y1, &error));
    OK (s2 = gnn_tensor_sum_all (y2, &error));
    OK (s = gnn_tensor_add (s1, s2, 1.0, &error));
  }
  /* the outermost region's end cleared the cache */
  g_assert_cmpuint (gnn_autocast_get_cache_size (), ==, 0);
  OK (gnn_tensor_backward (s, NULL, FALSE, &error));
  gw = gnn_tensor_get_grad (w);
  g_assert_nonnull (gw);
  g_assert_cmpint (gnn_tensor_get_dtype (gw), ==, GNN_DTYPE_FLOAT32);
  {
    /* d/dw Σ (x wᵀ) twice: 2 Σ_n x[n, k] for each row, from bfloat16 sums of bfloat16 x */
    g_autoptr(GnnTensor) xb = NULL, cs = NULL, ones = NULL;
    g_autofree double *got = NULL, *col = NULL;
    gsize n = 0, m = 0;
    int dim0 = 0;

    OK (xb = gnn_tensor_to_dtype (x, GNN_DTYPE_BFLOAT16, &error));
    OK (cs = gnn_tensor_sum (xb, &dim0, 1, FALSE, &error));
    OK (col = gnn_tensor_to_doubles (cs, &m, &error));
    OK (got = gnn_tensor_to_doubles (gw, &n, &error));
    g_assert_cmpuint (n, ==, 6);
    for (gsize i = 0; i < n; i++)
      g_assert_cmpfloat_with_epsilon (got[i], 2 * col[i % 3], 0.02 * fabs (col[i % 3]) + 1e-3);
  }

  /* with the cache off nothing is kept */
  {
    g_autoptr(GnnAutocastScope) scope = gnn_autocast_scope_new ("cpu", GNN_DTYPE_BFLOAT16, TRUE, FALSE, &error);
    g_autoptr(GnnTensor) y3 = NULL;

    g_assert_no_error (error);
    OK (y3 = gnn_tensor_linear (x, w, NULL, &error));
    g_assert_cmpuint (gnn_autocast_get_cache_size (), ==, 0);
  }
}

static gpointer
other_thread (gpointer data)
{
  (void) data;
  /* a new thread starts with autocast off and the default dtypes */
  return GINT_TO_POINTER (!gnn_autocast_is_enabled ("cpu") && gnn_autocast_get_dtype ("cpu") == GNN_DTYPE_BFLOAT16);
}

static void
test_thread_local (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnAutocastScope) scope = gnn_autocast_scope_new ("cpu", GNN_DTYPE_FLOAT16, TRUE, TRUE, &error);
  GThread *t;

  g_assert_no_error (error);
  t = g_thread_new ("autocast", other_thread, NULL);
  g_assert_true (GPOINTER_TO_INT (g_thread_join (t)));
  g_assert_true (gnn_autocast_is_enabled ("cpu"));
}

int
main (int argc, char **argv)
{
  gnn_test_init (&argc, &argv);
  g_test_add_func ("/autocast/state", test_state);
  g_test_add_func ("/autocast/scope", test_scope);
  g_test_add_func ("/autocast/casts", test_casts);
  g_test_add_func ("/autocast/cache-and-grads", test_cache_and_grads);
  g_test_add_func ("/autocast/thread-local", test_thread_local);
  return g_test_run ();
}
