/* test-loss-more.c: the losses of gnn-loss-more.c, against hand-computed values (torch's
 * documented examples where it has them), by gradcheck, as modules, and their errors */
#include <math.h>

#include "gnn-test-util.h"

static GnnTensor *
vec (const double *data, gint64 n)
{
  return gnn_test_tensor_d (data, n, GNN_TEST_SHAPE (n), 1);
}

static GnnTensor *
mat (const double *data, gint64 rows, gint64 cols)
{
  return gnn_test_tensor_d (data, rows * cols, GNN_TEST_SHAPE (rows, cols), 2);
}

static GnnTensor *
ints (const gint64 *data, gint64 n, const gint64 *shape, guint ndim)
{
  return gnn_tensor_new_from_int64s (data, n, shape, ndim, NULL);
}

static void
assert_scalar (GnnTensor *t, double expected, double tol)
{
  g_assert_nonnull (t);
  g_assert_cmpuint (gnn_tensor_get_ndim (t), ==, 0);
  gnn_test_assert_close (t, &expected, 1, tol, tol);
}

static void
test_values (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) x = vec (GNN_TEST_DATA (1, -2, 0), 3);
  g_autoptr(GnnTensor) s = vec (GNN_TEST_DATA (1, 1, -1), 3);
  g_autoptr(GnnTensor) h = vec (GNN_TEST_DATA (0.5, 2, 0.3), 3);
  g_autoptr(GnnTensor) hs = vec (GNN_TEST_DATA (1, -1, -1), 3);
  g_autoptr(GnnTensor) r1 = vec (GNN_TEST_DATA (1, 2), 2);
  g_autoptr(GnnTensor) r2 = vec (GNN_TEST_DATA (2, 1), 2);
  g_autoptr(GnnTensor) ones = vec (GNN_TEST_DATA (1, 1), 2);
  g_autoptr(GnnTensor) c1 = mat (GNN_TEST_DATA (1, 0, 1, 1), 2, 2);
  g_autoptr(GnnTensor) c2 = mat (GNN_TEST_DATA (2, 0, 1, 0), 2, 2);
  g_autoptr(GnnTensor) cy = vec (GNN_TEST_DATA (1, -1), 2);
  g_autoptr(GnnTensor) m = mat (GNN_TEST_DATA (0.1, 0.2, 0.4, 0.8), 1, 4);
  g_autoptr(GnnTensor) my = ints ((const gint64[]) { 3 }, 1, GNN_TEST_SHAPE (1), 1);
  g_autoptr(GnnTensor) mly = ints ((const gint64[]) { 3, 0, -1, 1 }, 4, GNN_TEST_SHAPE (1, 4), 2);
  g_autoptr(GnnTensor) px = vec (GNN_TEST_DATA (0, 1), 2);
  g_autoptr(GnnTensor) pt = vec (GNN_TEST_DATA (3, 1), 2);
  g_autoptr(GnnTensor) gx = vec (GNN_TEST_DATA (1), 1);
  g_autoptr(GnnTensor) gt = vec (GNN_TEST_DATA (2), 1);
  g_autoptr(GnnTensor) gv = vec (GNN_TEST_DATA (0.5), 1);
  g_autoptr(GnnTensor) ta = mat (GNN_TEST_DATA (0, 0), 1, 2);
  g_autoptr(GnnTensor) tp = mat (GNN_TEST_DATA (3, 4), 1, 2);
  g_autoptr(GnnTensor) tn = mat (GNN_TEST_DATA (0, 1), 1, 2);
  g_autoptr(GnnTensor) a = NULL, b = NULL, c = NULL, d = NULL, e = NULL, f = NULL, g = NULL, k = NULL;
  g_autoptr(GnnTensor) l = NULL, n = NULL, o = NULL;

  /* log (1 + exp (−t x)) */
  a = gnn_tensor_soft_margin_loss (x, s, GNN_REDUCTION_NONE, &error);
  g_assert_no_error (error);
  gnn_test_assert_close (a, GNN_TEST_DATA (log1p (exp (-1)), log1p (exp (2)), log (2)), 3, 1e-12, 1e-12);
  /* x where t is 1, max (0, 1 − x) where it is −1 */
  b = gnn_tensor_hinge_embedding_loss (h, hs, 1.0, GNN_REDUCTION_NONE, &error);
  g_assert_no_error (error);
  gnn_test_assert_close (b, GNN_TEST_DATA (0.5, 0, 0.7), 3, 1e-12, 1e-12);
  /* max (0, −t (x1 − x2) + 0.5) */
  c = gnn_tensor_margin_ranking_loss (r1, r2, ones, 0.5, GNN_REDUCTION_NONE, &error);
  g_assert_no_error (error);
  gnn_test_assert_close (c, GNN_TEST_DATA (1.5, 0), 2, 1e-12, 1e-12);
  /* 1 − cos of parallel rows; max (0, cos 45° − 0.2) */
  d = gnn_tensor_cosine_embedding_loss (c1, c2, cy, 0.2, GNN_REDUCTION_NONE, &error);
  g_assert_no_error (error);
  gnn_test_assert_close (d, GNN_TEST_DATA (0, sqrt (0.5) - 0.2), 2, 1e-9, 1e-9);
  /* torch's documented examples: 0.325 and 0.85 */
  e = gnn_tensor_multi_margin_loss (m, my, 1, 1.0, NULL, GNN_REDUCTION_MEAN, &error);
  g_assert_no_error (error);
  assert_scalar (e, 0.325, 1e-12);
  f = gnn_tensor_multilabel_margin_loss (m, mly, GNN_REDUCTION_MEAN, &error);
  g_assert_no_error (error);
  assert_scalar (f, 0.85, 1e-12);
  /* exp (x) − t x, plus Stirling's term where t > 1 */
  g = gnn_tensor_poisson_nll_loss (px, pt, TRUE, TRUE, 1e-8, GNN_REDUCTION_NONE, &error);
  g_assert_no_error (error);
  gnn_test_assert_close (g, GNN_TEST_DATA (1 + 3 * log (3) - 3 + 0.5 * log (2 * G_PI * 3), exp (1) - 1), 2,
                         1e-12, 1e-12);
  /* 0.5 (log v + (x − t)² / v), and the constant */
  k = gnn_tensor_gaussian_nll_loss (gx, gt, gv, FALSE, 1e-6, GNN_REDUCTION_SUM, &error);
  g_assert_no_error (error);
  assert_scalar (k, 0.5 * (log (0.5) + 2), 1e-12);
  l = gnn_tensor_gaussian_nll_loss (gx, gt, gv, TRUE, 1e-6, GNN_REDUCTION_MEAN, &error);
  g_assert_no_error (error);
  assert_scalar (l, 0.5 * (log (0.5) + 2) + 0.5 * log (2 * G_PI), 1e-12);
  /* max (0, 1 + 5 − 1), and with the swap d (p, n) = sqrt (9 + 9) replaces nothing */
  n = gnn_tensor_triplet_margin_loss (ta, tp, tn, 1.0, 2.0, 0.0, FALSE, GNN_REDUCTION_MEAN, &error);
  g_assert_no_error (error);
  assert_scalar (n, 5, 1e-12);
  o = gnn_tensor_triplet_margin_with_distance_loss (ta, tp, tn, NULL, NULL, 1.0, TRUE, GNN_REDUCTION_SUM, &error);
  g_assert_no_error (error);
  assert_scalar (o, 5, 1e-5);   /* the default pairwise distance adds eps 1e-6 */
}

/* ---- gradcheck ------------------------------------------------------------------------- */

typedef struct {
  int which;
  GnnTensor *other;
  GnnTensor *target;
  GnnTensor *weight;
  GnnReduction reduction;
} Case;

static GnnTensor *
loss_of (GnnTensor *x, gpointer data, GError **error)
{
  Case *c = data;

  switch (c->which)
    {
    case 0: return gnn_tensor_soft_margin_loss (x, c->target, c->reduction, error);
    case 1: return gnn_tensor_hinge_embedding_loss (x, c->target, 0.8, c->reduction, error);
    case 2: return gnn_tensor_margin_ranking_loss (x, c->other, c->target, 0.3, c->reduction, error);
    case 3: return gnn_tensor_cosine_embedding_loss (x, c->other, c->target, 0.1, c->reduction, error);
    case 4: return gnn_tensor_multilabel_soft_margin_loss (x, c->other, c->weight, c->reduction, error);
    case 5: return gnn_tensor_poisson_nll_loss (x, c->other, TRUE, TRUE, 1e-8, c->reduction, error);
    case 6: return gnn_tensor_gaussian_nll_loss (x, c->other, c->weight, TRUE, 1e-6, c->reduction, error);
    case 7: return gnn_tensor_triplet_margin_loss (x, c->other, c->target, 1.5, 2.0, 1e-6, TRUE, c->reduction,
                                                   error);
    case 8: return gnn_tensor_triplet_margin_loss (x, c->other, c->target, 1.5, 3.0, 1e-6, FALSE, c->reduction,
                                                   error);
    default: g_assert_not_reached ();
    }
}

static GnnTensor *
class_loss_of (GnnTensor *x, gpointer data, GError **error)
{
  Case *c = data;

  if (c->which == 0)
    return gnn_tensor_multi_margin_loss (x, c->target, 1, 0.9, NULL, c->reduction, error);
  if (c->which == 1)
    return gnn_tensor_multi_margin_loss (x, c->target, 2, 1.2, c->weight, c->reduction, error);
  return gnn_tensor_multilabel_margin_loss (x, c->other, c->reduction, error);
}

static void
test_gradcheck (void)
{
  g_autoptr(GnnTensor) x = mat (GNN_TEST_DATA (0.3, -1.2, 0.9, 2.1, -0.4, 0.05), 2, 3);
  g_autoptr(GnnTensor) y = mat (GNN_TEST_DATA (1.1, 0.2, -0.6, -1.5, 0.8, 0.4), 2, 3);
  g_autoptr(GnnTensor) z = mat (GNN_TEST_DATA (-0.7, 0.5, 1.3, 0.6, -1.1, 0.9), 2, 3);
  g_autoptr(GnnTensor) pm = mat (GNN_TEST_DATA (1, -1, 1, -1, -1, 1), 2, 3);
  g_autoptr(GnnTensor) pm2 = vec (GNN_TEST_DATA (1, -1), 2);
  g_autoptr(GnnTensor) hot = mat (GNN_TEST_DATA (1, 0, 1, 0, 0, 1), 2, 3);
  g_autoptr(GnnTensor) counts = mat (GNN_TEST_DATA (0, 2, 5, 1, 3, 0), 2, 3);
  g_autoptr(GnnTensor) var = mat (GNN_TEST_DATA (0.5, 1.5, 0.2, 0.9, 2.0, 0.7), 2, 3);
  g_autoptr(GnnTensor) w = vec (GNN_TEST_DATA (0.5, 2.0, 1.5), 3);
  g_autoptr(GnnTensor) cls = ints ((const gint64[]) { 2, 0 }, 2, GNN_TEST_SHAPE (2), 1);
  g_autoptr(GnnTensor) labels = ints ((const gint64[]) { 1, -1, 0, 2, 0, -1 }, 6, GNN_TEST_SHAPE (2, 3), 2);
  GnnReduction reductions[] = { GNN_REDUCTION_MEAN, GNN_REDUCTION_SUM };

  for (guint r = 0; r < G_N_ELEMENTS (reductions); r++)
    {
      Case cases[] = {
        { 0, NULL, pm, NULL, reductions[r] },
        { 1, NULL, pm, NULL, reductions[r] },
        { 2, y, pm, NULL, reductions[r] },
        { 3, y, pm2, NULL, reductions[r] },
        { 4, hot, NULL, w, reductions[r] },
        { 5, counts, NULL, NULL, reductions[r] },
        { 6, y, NULL, var, reductions[r] },
        { 7, y, z, NULL, reductions[r] },
        { 8, y, z, NULL, reductions[r] },
      };

      for (guint k = 0; k < G_N_ELEMENTS (cases); k++)
        gnn_test_gradcheck (loss_of, &cases[k], x, 1e-6, 1e-6);
      for (int which = 0; which < 3; which++)
        {
          Case c = { which, labels, cls, w, reductions[r] };

          gnn_test_gradcheck (class_loss_of, &c, x, 1e-6, 1e-6);
        }
    }
}

/* ---- modules --------------------------------------------------------------------------- */

static GnnTensor *
forward (gpointer module, GnnTensor *a, GnnTensor *b, GnnTensor *c)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnArgs) args = gnn_args_new ();
  g_autoptr(GnnArgs) out = NULL;
  GnnTensor *y;

  gnn_args_add_tensor (args, a);
  gnn_args_add_tensor (args, b);
  if (c != NULL)
    gnn_args_add_tensor (args, c);
  out = gnn_module_forward (GNN_MODULE (module), args, &error);
  g_assert_no_error (error);
  y = gnn_args_get_tensor (out, 0, &error);
  g_assert_no_error (error);
  return g_object_ref (y);
}

static int destroyed;

static GnnTensor *
manhattan (GnnTensor *x1, GnnTensor *x2, gpointer user_data)
{
  int dim = 1;
  g_autoptr(GnnTensor) d = gnn_tensor_sub (x1, x2, 1.0, NULL);
  g_autoptr(GnnTensor) a = d ? gnn_tensor_abs (d, NULL) : NULL;

  (*(int *) user_data)++;
  return a ? gnn_tensor_sum (a, &dim, 1, FALSE, NULL) : NULL;
}

static GnnTensor *
no_distance (GnnTensor *x1, GnnTensor *x2, gpointer user_data)
{
  return NULL;
}

static void
count_destroy (gpointer data)
{
  destroyed++;
}

static void
test_modules (void)
{
  g_autoptr(GnnTensor) m = mat (GNN_TEST_DATA (0.1, 0.2, 0.4, 0.8), 1, 4);
  g_autoptr(GnnTensor) my = ints ((const gint64[]) { 3 }, 1, GNN_TEST_SHAPE (1), 1);
  g_autoptr(GnnTensor) w = vec (GNN_TEST_DATA (1, 1, 1, 2), 4);
  g_autoptr(GnnTensor) ta = mat (GNN_TEST_DATA (0, 0), 1, 2);
  g_autoptr(GnnTensor) tp = mat (GNN_TEST_DATA (3, 4), 1, 2);
  g_autoptr(GnnTensor) tn = mat (GNN_TEST_DATA (0, 1), 1, 2);
  g_autoptr(GnnTensor) a = NULL, b = NULL, c = NULL, d = NULL;
  GnnMultiMarginLoss *mm = gnn_multi_margin_loss_new (1, 1.0, w, GNN_REDUCTION_SUM);
  GnnTripletMarginLoss *tl = gnn_triplet_margin_loss_new (1.0, 2.0, 0.0, FALSE, GNN_REDUCTION_MEAN);
  GnnTripletMarginWithDistanceLoss *twd = gnn_triplet_margin_with_distance_loss_new (1.0, FALSE,
                                                                                     GNN_REDUCTION_MEAN);
  g_autoptr(GError) error = NULL;
  int calls = 0;
  int p;

  /* the weight of class 3 doubles torch's example: 2 × 0.325; the buffer is the weight */
  a = forward (mm, m, my, NULL);
  assert_scalar (a, 0.65, 1e-12);
  g_assert_true (gnn_module_get_buffer (GNN_MODULE (mm), "weight", NULL) != NULL);
  g_object_get (mm, "p", &p, NULL);
  g_assert_cmpint (p, ==, 1);

  b = forward (tl, ta, tp, tn);
  assert_scalar (b, 5, 1e-12);

  /* the default distance is the child distance_function, a PairwiseDistance */
  g_assert_true (GNN_IS_PAIRWISE_DISTANCE (gnn_module_get_submodule (GNN_MODULE (twd), "distance_function", NULL)));
  c = forward (twd, ta, tp, tn);
  assert_scalar (c, 5, 1e-5);
  /* a function replaces it: |3| + |4| − (0 + 1) + 1 */
  gnn_triplet_margin_with_distance_loss_set_distance_function (twd, manhattan, &calls, count_destroy);
  g_assert_null (gnn_module_get_submodule (GNN_MODULE (twd), "distance_function", NULL));
  d = forward (twd, ta, tp, tn);
  assert_scalar (d, 7, 1e-12);
  g_assert_cmpint (calls, ==, 2);
  /* a function that gives no tensor is an error, and the previous data is freed */
  gnn_triplet_margin_with_distance_loss_set_distance_function (twd, no_distance, NULL, NULL);
  g_assert_cmpint (destroyed, ==, 1);
  {
    g_autoptr(GnnArgs) args = gnn_args_new ();
    g_autoptr(GnnArgs) out = NULL;

    gnn_args_add_tensor (args, ta);
    gnn_args_add_tensor (args, tp);
    gnn_args_add_tensor (args, tn);
    out = gnn_module_forward (GNN_MODULE (twd), args, &error);
    g_assert_null (out);
    g_assert_error (error, GNN_ERROR, GNN_ERROR_FAILED);
    g_assert_nonnull (strstr (error->message, "TripletMarginWithDistanceLoss"));
    g_clear_error (&error);

    /* two inputs where three are expected */
    gnn_args_clear_values (args);
    gnn_args_add_tensor (args, ta);
    gnn_args_add_tensor (args, tp);
    out = gnn_module_forward (GNN_MODULE (tl), args, &error);
    g_assert_null (out);
    g_assert_nonnull (error);
    g_assert_nonnull (strstr (error->message, "(anchor, positive, negative)"));
  }
  /* NULL gives the child back */
  gnn_triplet_margin_with_distance_loss_set_distance_function (twd, NULL, NULL, NULL);
  g_assert_true (GNN_IS_PAIRWISE_DISTANCE (gnn_module_get_submodule (GNN_MODULE (twd), "distance_function", NULL)));
  gnn_triplet_margin_with_distance_loss_set_distance_function (twd, manhattan, &calls, count_destroy);

  g_assert_finalize_object (mm);
  g_assert_finalize_object (tl);
  g_assert_finalize_object (twd);
  g_assert_cmpint (destroyed, ==, 2);   /* finalize freed the last data */
}

/* ---- errors ---------------------------------------------------------------------------- */

static void
expect_error (GnnTensor *r, GError **error, int code, const char *words1, const char *words2)
{
  g_assert_null (r);
  g_assert_error (*error, GNN_ERROR, code);
  g_assert_nonnull (strstr ((*error)->message, words1));
  if (words2 != NULL)
    g_assert_nonnull (strstr ((*error)->message, words2));
  g_clear_error (error);
}

static void
test_errors (void)
{
  g_autoptr(GnnTensor) x = mat (GNN_TEST_DATA (1, 2, 3, 4, 5, 6), 2, 3);
  g_autoptr(GnnTensor) v3 = vec (GNN_TEST_DATA (1, 2, 3), 3);
  g_autoptr(GnnTensor) v5 = vec (GNN_TEST_DATA (1, 2, 3, 4, 5), 5);
  g_autoptr(GnnTensor) neg = mat (GNN_TEST_DATA (1, -2, 3, 4, 5, 6), 2, 3);
  g_autoptr(GnnTensor) cls = ints ((const gint64[]) { 0, 3 }, 2, GNN_TEST_SHAPE (2), 1);
  g_autoptr(GnnTensor) cls3 = ints ((const gint64[]) { 0, 1, 2 }, 3, GNN_TEST_SHAPE (3), 1);
  g_autoptr(GnnTensor) labels = ints ((const gint64[]) { 1, -1, 0, 2, 5, -1 }, 6, GNN_TEST_SHAPE (2, 3), 2);
  g_autoptr(GnnTensor) cube = gnn_tensor_new_zeros (GNN_TEST_SHAPE (2, 3, 1), 3, GNN_DTYPE_FLOAT64, NULL, NULL);
  g_autoptr(GnnMultiMarginLoss) bad_p = NULL;
  GError *error = NULL;

  expect_error (gnn_tensor_cosine_embedding_loss (x, x, x, 0, GNN_REDUCTION_MEAN, &error), &error,
                GNN_ERROR_SHAPE, "CosineEmbeddingLoss: 0D or 1D target", "[2, 3]");
  expect_error (gnn_tensor_cosine_embedding_loss (v3, v3, v3, 0, GNN_REDUCTION_MEAN, &error), &error,
                GNN_ERROR_SHAPE, "1D target tensor expects 2D input tensors", "[3] and [3]");
  expect_error (gnn_tensor_margin_ranking_loss (x, x, v3, 0, GNN_REDUCTION_MEAN, &error), &error,
                GNN_ERROR_SHAPE, "MarginRankingLoss: All input tensors should have same dimension", "target: [3]");
  expect_error (gnn_tensor_gaussian_nll_loss (x, x, v5, FALSE, 1e-6, GNN_REDUCTION_MEAN, &error), &error,
                GNN_ERROR_INVALID_ARGUMENT, "var is of incorrect size", "got [5]");
  expect_error (gnn_tensor_gaussian_nll_loss (x, x, neg, FALSE, 1e-6, GNN_REDUCTION_MEAN, &error), &error,
                GNN_ERROR_INVALID_ARGUMENT, "var has negative entry/entries", NULL);
  expect_error (gnn_tensor_multi_margin_loss (x, cls, 1, 1.0, NULL, GNN_REDUCTION_MEAN, &error), &error,
                GNN_ERROR_INDEX, "MultiMarginLoss: target out of range", "[0, 3]");
  expect_error (gnn_tensor_multi_margin_loss (x, cls3, 1, 1.0, NULL, GNN_REDUCTION_MEAN, &error), &error,
                GNN_ERROR_SHAPE, "inconsistent target size, expected 2", "[3]");
  expect_error (gnn_tensor_multi_margin_loss (x, cls, 3, 1.0, NULL, GNN_REDUCTION_MEAN, &error), &error,
                GNN_ERROR_INVALID_ARGUMENT, "only p == 1 and p == 2 supported", NULL);
  expect_error (gnn_tensor_multi_margin_loss (x, cls, 1, 1.0, x, GNN_REDUCTION_MEAN, &error), &error,
                GNN_ERROR_INVALID_ARGUMENT, "weight must be one-dimensional", "[2, 3]");
  expect_error (gnn_tensor_multi_margin_loss (x, x, 1, 1.0, NULL, GNN_REDUCTION_MEAN, &error), &error,
                GNN_ERROR_DTYPE, "int64", NULL);
  expect_error (gnn_tensor_multi_margin_loss (cube, cls, 1, 1.0, NULL, GNN_REDUCTION_MEAN, &error), &error,
                GNN_ERROR_SHAPE, "Expected non-empty vector or matrix", "[2, 3, 1]");
  expect_error (gnn_tensor_multilabel_margin_loss (x, labels, GNN_REDUCTION_MEAN, &error), &error,
                GNN_ERROR_INDEX, "MultiLabelMarginLoss: target out of range", "[-1, 3)");
  expect_error (gnn_tensor_multilabel_margin_loss (x, cls, GNN_REDUCTION_MEAN, &error), &error,
                GNN_ERROR_SHAPE, "inconsistent size [2] for target", "[2, 3]");
  expect_error (gnn_tensor_triplet_margin_loss (x, x, v3, 1, 2, 1e-6, FALSE, GNN_REDUCTION_MEAN, &error), &error,
                GNN_ERROR_SHAPE, "All inputs should have same dimension but got 2D, 2D and 1D inputs.", NULL);
  expect_error (gnn_tensor_soft_margin_loss (x, x, GNN_REDUCTION_BATCHMEAN, &error), &error,
                GNN_ERROR_INVALID_ARGUMENT, "SoftMarginLoss: 3 is not a valid value for reduction", NULL);

  /* a p other than 1 or 2 fails at setup, as torch's constructor */
  bad_p = g_object_new (GNN_TYPE_MULTI_MARGIN_LOSS, "p", 3, NULL);
  g_assert_false (gnn_module_setup (GNN_MODULE (bad_p), &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "only p == 1 and p == 2 supported"));
  g_clear_error (&error);
}

/* ---- CTCLoss --------------------------------------------------------------------------- */

static GnnTensor *
ctc_of (GnnTensor *x, gpointer data, GError **error)
{
  GnnTensor *targets = data;
  g_autoptr(GnnTensor) lp = gnn_tensor_log_softmax (x, 2, error);

  /* PyTorch's CTC gradient is that of the logits under log_softmax: check it through one */
  return lp ? gnn_tensor_ctc_loss (lp, targets, (const gint64[]) { 3, 2 }, 2, (const gint64[]) { 2, 1 }, 2, 0,
                                   GNN_REDUCTION_MEAN, FALSE, error) : NULL;
}

static void
test_ctc (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) half = gnn_test_tensor_d (GNN_TEST_DATA (log (0.5), log (0.5), log (0.5), log (0.5)), 4,
                                                 GNN_TEST_SHAPE (2, 1, 2), 3);
  g_autoptr(GnnTensor) one = ints ((const gint64[]) { 1 }, 1, GNN_TEST_SHAPE (1, 1), 2);
  g_autoptr(GnnTensor) x = gnn_test_tensor_d (GNN_TEST_DATA (0.3, -1.2, 0.9, 2.1, -0.4, 0.05, 1.1, 0.2, -0.6,
                                                             -1.5, 0.8, 0.4, 0.7, -0.3, 0.2, 0.0, 1.4, -0.9),
                                              18, GNN_TEST_SHAPE (3, 2, 3), 3);
  g_autoptr(GnnTensor) targets = ints ((const gint64[]) { 1, 2, 2, 0 }, 4, GNN_TEST_SHAPE (2, 2), 2);
  g_autoptr(GnnTensor) a = NULL, b = NULL, c = NULL, d = NULL;
  GnnCTCLoss *module = gnn_ctc_loss_new (0, GNN_REDUCTION_SUM, FALSE);
  GError *local = NULL;

  /* two steps of p = 1/2 emit the label 1 by 1 b, b 1 and 1 1: P = 3/4 */
  a = gnn_tensor_ctc_loss_nll (half, one, (const gint64[]) { 2 }, 1, (const gint64[]) { 1 }, 1, 0, FALSE, &error);
  g_assert_no_error (error);
  gnn_test_assert_close (a, GNN_TEST_DATA (-log (0.75)), 1, 1e-12, 1e-12);
  /* an empty target: only blanks, P = 1/4 */
  b = gnn_tensor_ctc_loss_nll (half, one, (const gint64[]) { 2 }, 1, (const gint64[]) { 0 }, 1, 0, FALSE, &error);
  g_assert_no_error (error);
  gnn_test_assert_close (b, GNN_TEST_DATA (-log (0.25)), 1, 1e-12, 1e-12);
  /* one step cannot emit two labels: infinite, or 0 with zero_infinity */
  c = gnn_tensor_ctc_loss_nll (half, targets, (const gint64[]) { 1 }, 1, (const gint64[]) { 2 }, 1, 0, TRUE,
                               &local);
  g_assert_null (c);
  g_assert_error (local, GNN_ERROR, GNN_ERROR_SHAPE);   /* (2, 2) targets for a batch of 1 */
  g_clear_error (&local);
  gnn_test_gradcheck (ctc_of, targets, x, 1e-6, 1e-6);

  {
    g_autoptr(GnnArgs) args = gnn_args_new ();
    g_autoptr(GnnArgs) out = NULL;
    g_autoptr(GnnTensor) il = ints ((const gint64[]) { 2 }, 1, GNN_TEST_SHAPE (1), 1);
    g_autoptr(GnnTensor) tl = ints ((const gint64[]) { 1 }, 1, GNN_TEST_SHAPE (1), 1);

    gnn_args_add_tensor (args, half);
    gnn_args_add_tensor (args, one);
    gnn_args_add_tensor (args, il);
    gnn_args_add_tensor (args, tl);
    out = gnn_module_forward (GNN_MODULE (module), args, &error);
    g_assert_no_error (error);
    d = g_object_ref (gnn_args_get_tensor (out, 0, &error));
    assert_scalar (d, -log (0.75), 1e-12);
  }
  expect_error (gnn_tensor_ctc_loss_nll (half, one, (const gint64[]) { 3 }, 1, (const gint64[]) { 1 }, 1, 0, FALSE,
                                         &local), &local, GNN_ERROR_SHAPE,
                "Expected input_lengths to have value at most 2", "got value 3");
  expect_error (gnn_tensor_ctc_loss_nll (half, one, (const gint64[]) { 2 }, 1, (const gint64[]) { 1 }, 1, 5, FALSE,
                                         &local), &local, GNN_ERROR_INDEX, "blank must be in label range", NULL);
  g_assert_finalize_object (module);
}

int
main (int argc, char *argv[])
{
  gnn_test_init (&argc, &argv);
  g_test_add_func ("/loss-more/values", test_values);
  g_test_add_func ("/loss-more/gradcheck", test_gradcheck);
  g_test_add_func ("/loss-more/modules", test_modules);
  g_test_add_func ("/loss-more/errors", test_errors);
  g_test_add_func ("/loss-more/ctc", test_ctc);
  return g_test_run ();
}
