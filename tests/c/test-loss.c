/* test-loss.c: the losses, against hand-computed values, by gradcheck, and their errors */
#include "gnn-test-util.h"

static GnnTensor *
vec (const double *data, gint64 n)
{
  return gnn_test_tensor_d (data, n, GNN_TEST_SHAPE (n), 1);
}

static void
assert_scalar (GnnTensor *t, double expected)
{
  g_assert_nonnull (t);
  g_assert_cmpuint (gnn_tensor_get_ndim (t), ==, 0);
  gnn_test_assert_close (t, &expected, 1, 1e-12, 1e-12);
}

static void
test_mse_l1 (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) x = vec (GNN_TEST_DATA (1, 2, 3), 3);
  g_autoptr(GnnTensor) t = vec (GNN_TEST_DATA (0, 4, 3.5), 3);
  g_autoptr(GnnTensor) m = NULL, s = NULL, n = NULL, l = NULL;

  m = gnn_tensor_mse_loss (x, t, GNN_REDUCTION_MEAN, &error);
  g_assert_no_error (error);
  assert_scalar (m, (1 + 4 + 0.25) / 3);
  s = gnn_tensor_mse_loss (x, t, GNN_REDUCTION_SUM, &error);
  assert_scalar (s, 5.25);
  n = gnn_tensor_mse_loss (x, t, GNN_REDUCTION_NONE, &error);
  gnn_test_assert_close (n, GNN_TEST_DATA (1, 4, 0.25), 3, 1e-12, 1e-12);
  l = gnn_tensor_l1_loss (x, t, GNN_REDUCTION_SUM, &error);
  g_assert_no_error (error);
  assert_scalar (l, 3.5);
}

static void
test_smooth_huber (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) x = vec (GNN_TEST_DATA (0, 0, 0), 3);
  g_autoptr(GnnTensor) t = vec (GNN_TEST_DATA (0.5, -2, 4), 3);
  g_autoptr(GnnTensor) s = NULL, h = NULL, z = NULL;

  /* beta 2: 0.5·0.25/2, 2 − 1, 4 − 1 */
  s = gnn_tensor_smooth_l1_loss (x, t, GNN_REDUCTION_NONE, 2.0, &error);
  g_assert_no_error (error);
  gnn_test_assert_close (s, GNN_TEST_DATA (0.0625, 1, 3), 3, 1e-12, 1e-12);
  /* delta 2: 0.5·0.25, 2·(2 − 1), 2·(4 − 1) */
  h = gnn_tensor_huber_loss (x, t, GNN_REDUCTION_NONE, 2.0, &error);
  g_assert_no_error (error);
  gnn_test_assert_close (h, GNN_TEST_DATA (0.125, 2, 6), 3, 1e-12, 1e-12);
  /* beta 0 is the L1 loss */
  z = gnn_tensor_smooth_l1_loss (x, t, GNN_REDUCTION_SUM, 0.0, &error);
  assert_scalar (z, 6.5);
}

static void
test_bce (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) p = vec (GNN_TEST_DATA (0.25, 0.5, 0.0), 3);
  g_autoptr(GnnTensor) t = vec (GNN_TEST_DATA (1, 0, 1), 3);
  g_autoptr(GnnTensor) w = vec (GNN_TEST_DATA (2, 1, 1), 3);
  g_autoptr(GnnTensor) logits = vec (GNN_TEST_DATA (0, 1000, -1000), 3);
  g_autoptr(GnnTensor) pw = vec (GNN_TEST_DATA (3, 1, 1), 3);
  g_autoptr(GnnTensor) b = NULL, bl = NULL;

  /* log clamped at −100 for p = 0 */
  b = gnn_tensor_binary_cross_entropy (p, t, w, GNN_REDUCTION_NONE, &error);
  g_assert_no_error (error);
  gnn_test_assert_close (b, GNN_TEST_DATA (-2 * log (0.25), -log (0.5), 100), 3, 1e-12, 1e-12);
  /* stable for large logits: (0, t=1) log 2 × 3; (1000, t=0) 1000; (−1000, t=1) 1000 */
  bl = gnn_tensor_binary_cross_entropy_with_logits (logits, t, NULL, pw, GNN_REDUCTION_NONE, &error);
  g_assert_no_error (error);
  gnn_test_assert_close (bl, GNN_TEST_DATA (3 * log (2), 1000, 1000), 3, 1e-12, 1e-9);
}

static void
test_nll_ce (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) x = gnn_test_tensor_d (GNN_TEST_DATA (-1, -2, -3, -4, -5, -6), 6,
                                              GNN_TEST_SHAPE (2, 3), 2);
  g_autoptr(GnnTensor) t = gnn_tensor_new_from_int64s ((const gint64[]) { 2, 0 }, 2,
                                                       GNN_TEST_SHAPE (2), 1, NULL);
  g_autoptr(GnnTensor) ti = gnn_tensor_new_from_int64s ((const gint64[]) { 2, -100 }, 2,
                                                        GNN_TEST_SHAPE (2), 1, NULL);
  g_autoptr(GnnTensor) w = vec (GNN_TEST_DATA (1, 2, 3), 3);
  g_autoptr(GnnTensor) u = gnn_test_tensor_d (GNN_TEST_DATA (0, 0, 0), 3, GNN_TEST_SHAPE (1, 3), 2);
  g_autoptr(GnnTensor) t0 = gnn_tensor_new_from_int64s ((const gint64[]) { 1 }, 1,
                                                        GNN_TEST_SHAPE (1), 1, NULL);
  g_autoptr(GnnTensor) a = NULL, b = NULL, c = NULL, d = NULL, e = NULL;

  a = gnn_tensor_nll_loss (x, t, NULL, -100, GNN_REDUCTION_MEAN, &error);
  g_assert_no_error (error);
  assert_scalar (a, (3 + 4) / 2.0);
  /* weighted mean divides by the weights of the targets: (3·3 + 1·4) / 4 */
  b = gnn_tensor_nll_loss (x, t, w, -100, GNN_REDUCTION_MEAN, &error);
  assert_scalar (b, 13.0 / 4);
  c = gnn_tensor_nll_loss (x, ti, w, -100, GNN_REDUCTION_MEAN, &error);
  assert_scalar (c, 3.0);
  /* uniform logits: log 3, whatever the smoothing */
  d = gnn_tensor_cross_entropy (u, t0, NULL, -100, GNN_REDUCTION_MEAN, 0.0, &error);
  g_assert_no_error (error);
  assert_scalar (d, log (3));
  e = gnn_tensor_cross_entropy (u, t0, NULL, -100, GNN_REDUCTION_SUM, 0.3, &error);
  g_assert_no_error (error);
  assert_scalar (e, log (3));
}

static void
test_kl (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) x = gnn_test_tensor_d (GNN_TEST_DATA (log (0.5), log (0.5), log (0.25), log (0.75)),
                                              4, GNN_TEST_SHAPE (2, 2), 2);
  g_autoptr(GnnTensor) t = gnn_test_tensor_d (GNN_TEST_DATA (0.25, 0.75, 0, 1), 4,
                                              GNN_TEST_SHAPE (2, 2), 2);
  g_autoptr(GnnTensor) k = NULL, km = NULL;
  double row0 = 0.25 * log (0.25 / 0.5) + 0.75 * log (0.75 / 0.5);
  double row1 = log (1 / 0.75);

  k = gnn_tensor_kl_div (x, t, GNN_REDUCTION_BATCHMEAN, FALSE, &error);
  g_assert_no_error (error);
  assert_scalar (k, (row0 + row1) / 2);
  km = gnn_tensor_kl_div (x, t, GNN_REDUCTION_MEAN, FALSE, &error);
  assert_scalar (km, (row0 + row1) / 4);
}

/* ---- gradcheck ------------------------------------------------------------------------- */

typedef struct {
  int which;
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
    case 0: return gnn_tensor_mse_loss (x, c->target, c->reduction, error);
    case 1: return gnn_tensor_l1_loss (x, c->target, c->reduction, error);
    case 2: return gnn_tensor_smooth_l1_loss (x, c->target, c->reduction, 0.7, error);
    case 3: return gnn_tensor_huber_loss (x, c->target, c->reduction, 0.7, error);
    case 4:
      {
        g_autoptr(GnnTensor) p = gnn_tensor_sigmoid (x, error);
        return p ? gnn_tensor_binary_cross_entropy (p, c->target, c->weight, c->reduction, error) : NULL;
      }
    case 5: return gnn_tensor_binary_cross_entropy_with_logits (x, c->target, c->weight, c->weight,
                                                                c->reduction, error);
    case 6: return gnn_tensor_kl_div (x, c->target, c->reduction, FALSE, error);
    case 7: return gnn_tensor_kl_div (x, c->target, c->reduction, TRUE, error);
    default: g_assert_not_reached ();
    }
}

static GnnTensor *
class_loss_of (GnnTensor *x, gpointer data, GError **error)
{
  Case *c = data;

  if (c->which == 0)
    {
      g_autoptr(GnnTensor) lp = gnn_tensor_log_softmax (x, 1, error);
      return lp ? gnn_tensor_nll_loss (lp, c->target, c->weight, 1, c->reduction, error) : NULL;
    }
  if (c->which == 1)
    return gnn_tensor_cross_entropy (x, c->target, c->weight, 1, c->reduction, 0.2, error);
  return gnn_tensor_cross_entropy (x, c->target, c->weight, -100, c->reduction, 0.1, error);
}

static void
test_gradcheck (void)
{
  g_autoptr(GnnTensor) x = gnn_test_tensor_d (GNN_TEST_DATA (0.3, -1.2, 0.9, 2.1, -0.4, 0.05), 6,
                                              GNN_TEST_SHAPE (2, 3), 2);
  g_autoptr(GnnTensor) t = gnn_test_tensor_d (GNN_TEST_DATA (0.1, 0.2, 0.7, 1.0, 0.35, 0.6), 6,
                                              GNN_TEST_SHAPE (2, 3), 2);
  g_autoptr(GnnTensor) w = gnn_test_tensor_d (GNN_TEST_DATA (0.5, 2.0, 1.5), 3, GNN_TEST_SHAPE (3), 1);
  g_autoptr(GnnTensor) x3 = gnn_test_tensor_d (GNN_TEST_DATA (0.3, -1.2, 0.9, 2.1, -0.4, 0.05,
                                                              1.1, 0.2, -0.6, -1.5, 0.8, 0.4),
                                               12, GNN_TEST_SHAPE (2, 3, 2), 3);
  g_autoptr(GnnTensor) c3 = gnn_tensor_new_from_int64s ((const gint64[]) { 2, 1, 0, 2 }, 4,
                                                        GNN_TEST_SHAPE (2, 2), 2, NULL);
  g_autoptr(GnnTensor) p3 = gnn_test_tensor_d (GNN_TEST_DATA (0.2, 0.5, 0.3, 0.1, 0.5, 0.4,
                                                              0.6, 0.1, 0.1, 0.3, 0.3, 0.6),
                                               12, GNN_TEST_SHAPE (2, 3, 2), 3);
  GnnReduction reductions[] = { GNN_REDUCTION_NONE, GNN_REDUCTION_MEAN, GNN_REDUCTION_SUM };

  for (guint r = 0; r < G_N_ELEMENTS (reductions); r++)
    {
      for (int which = 0; which < 8; which++)
        {
          Case c = { which, t, (which == 4 || which == 5) ? w : NULL, reductions[r] };

          if (reductions[r] == GNN_REDUCTION_NONE)
            continue; /* gradcheck wants a scalar */
          gnn_test_gradcheck (loss_of, &c, x, 1e-6, 1e-6);
        }
      for (int which = 0; which < 3; which++)
        {
          Case c = { which, which == 2 ? p3 : c3, w, reductions[r] };

          if (reductions[r] == GNN_REDUCTION_NONE)
            continue;
          gnn_test_gradcheck (class_loss_of, &c, x3, 1e-6, 1e-6);
        }
    }
}

/* ---- modules and errors ---------------------------------------------------------------- */

static void
test_modules (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) x = vec (GNN_TEST_DATA (1, 2, 3), 3);
  g_autoptr(GnnTensor) t = vec (GNN_TEST_DATA (0, 4, 3.5), 3);
  g_autoptr(GnnTensor) w = vec (GNN_TEST_DATA (1, 2, 3), 3);
  g_autoptr(GnnMSELoss) mse = gnn_mse_loss_new (GNN_REDUCTION_SUM);
  g_autoptr(GnnCrossEntropyLoss) ce = gnn_cross_entropy_loss_new (w, 1, GNN_REDUCTION_MEAN, 0.25);
  g_autoptr(GnnKLDivLoss) kl = gnn_kl_div_loss_new (GNN_REDUCTION_BATCHMEAN, TRUE);
  g_autoptr(GnnArgs) args = gnn_args_new ();
  g_autoptr(GnnArgs) out = NULL;
  g_autofree char *repr = NULL;
  GnnTensor *y;
  GnnReduction red;

  gnn_args_add_tensor (args, x);
  gnn_args_add_tensor (args, t);
  out = gnn_module_forward (GNN_MODULE (mse), args, &error);
  g_assert_no_error (error);
  y = gnn_args_get_tensor (out, 0, &error);
  assert_scalar (y, 5.25);

  g_object_get (mse, "reduction", &red, NULL);
  g_assert_cmpint (red, ==, GNN_REDUCTION_SUM);
  gnn_loss_set_reduction (GNN_LOSS (mse), GNN_REDUCTION_MEAN);
  g_assert_cmpint (gnn_loss_get_reduction (GNN_LOSS (mse)), ==, GNN_REDUCTION_MEAN);

  g_assert_true (gnn_cross_entropy_loss_get_weight (ce) != NULL);
  g_assert_true (gnn_module_get_buffer (GNN_MODULE (ce), "weight", NULL) ==
                 gnn_cross_entropy_loss_get_weight (ce));
  g_assert_cmpint (gnn_cross_entropy_loss_get_ignore_index (ce), ==, 1);
  g_assert_cmpfloat (gnn_cross_entropy_loss_get_label_smoothing (ce), ==, 0.25);
  g_assert_true (gnn_kl_div_loss_get_log_target (kl));

  repr = gnn_module_extra_repr (GNN_MODULE (ce));
  g_assert_cmpstr (repr, ==, "");
}

static void
test_errors (void)
{
  g_autoptr(GnnTensor) x = vec (GNN_TEST_DATA (1, 2, 3), 3);
  g_autoptr(GnnTensor) t2 = vec (GNN_TEST_DATA (1, 2), 2);
  g_autoptr(GnnTensor) tf = gnn_tensor_new_zeros (GNN_TEST_SHAPE (3), 1, GNN_DTYPE_FLOAT32, NULL, NULL);
  g_autoptr(GnnTensor) x2 = gnn_tensor_new_zeros (GNN_TEST_SHAPE (2, 3), 2, GNN_DTYPE_FLOAT64, NULL, NULL);
  g_autoptr(GnnTensor) c = gnn_tensor_new_from_int64s ((const gint64[]) { 0, 3 }, 2,
                                                       GNN_TEST_SHAPE (2), 1, NULL);
  g_autoptr(GnnTensor) c3 = gnn_tensor_new_from_int64s ((const gint64[]) { 0, 1, 2 }, 3,
                                                        GNN_TEST_SHAPE (3), 1, NULL);
  g_autoptr(GnnTensor) w2 = vec (GNN_TEST_DATA (1, 2), 2);
  GError *error = NULL;
  GnnTensor *r;

  r = gnn_tensor_mse_loss (x, t2, GNN_REDUCTION_MEAN, &error);
  g_assert_null (r);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_SHAPE);
  g_assert_nonnull (strstr (error->message, "MSELoss"));
  g_assert_nonnull (strstr (error->message, "[3]"));
  g_assert_nonnull (strstr (error->message, "[2]"));
  g_clear_error (&error);

  r = gnn_tensor_l1_loss (x, tf, GNN_REDUCTION_MEAN, &error);
  g_assert_null (r);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_DTYPE);
  g_clear_error (&error);

  r = gnn_tensor_huber_loss (x, x, GNN_REDUCTION_BATCHMEAN, 1.0, &error);
  g_assert_null (r);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);

  /* class index out of range */
  r = gnn_tensor_nll_loss (x2, c, NULL, -100, GNN_REDUCTION_MEAN, &error);
  g_assert_null (r);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INDEX);
  g_assert_nonnull (strstr (error->message, "NLLLoss"));
  g_clear_error (&error);

  /* wrong batch size */
  r = gnn_tensor_cross_entropy (x2, c3, NULL, -100, GNN_REDUCTION_MEAN, 0.0, &error);
  g_assert_null (r);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_SHAPE);
  g_assert_nonnull (strstr (error->message, "CrossEntropyLoss"));
  g_assert_nonnull (strstr (error->message, "[2, 3]"));
  g_clear_error (&error);

  /* weight of the wrong size */
  r = gnn_tensor_nll_loss (x2, c3, w2, -100, GNN_REDUCTION_MEAN, &error);
  g_assert_null (r);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_SHAPE);
  g_clear_error (&error);

  /* float targets of the wrong shape, ignore_index with probabilities, bad smoothing */
  r = gnn_tensor_cross_entropy (x2, x, NULL, -100, GNN_REDUCTION_MEAN, 0.0, &error);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_SHAPE);
  g_clear_error (&error);
  r = gnn_tensor_cross_entropy (x2, x2, NULL, 0, GNN_REDUCTION_MEAN, 0.0, &error);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  r = gnn_tensor_cross_entropy (x2, x2, NULL, -100, GNN_REDUCTION_MEAN, 1.5, &error);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  g_assert_null (r);
}

int
main (int argc, char *argv[])
{
  gnn_test_init (&argc, &argv);
  g_test_add_func ("/loss/mse-l1", test_mse_l1);
  g_test_add_func ("/loss/smooth-huber", test_smooth_huber);
  g_test_add_func ("/loss/bce", test_bce);
  g_test_add_func ("/loss/nll-ce", test_nll_ce);
  g_test_add_func ("/loss/kl", test_kl);
  g_test_add_func ("/loss/gradcheck", test_gradcheck);
  g_test_add_func ("/loss/modules", test_modules);
  g_test_add_func ("/loss/errors", test_errors);
  return g_test_run ();
}
