/* test-distance.c: cosine_similarity, pairwise_distance and pdist: values, gradcheck, errors */
#include "gnn-test-util.h"

typedef struct {
  int which;
  GnnTensor *other;
  double eps;
} Case;

static GnnTensor *
sum_of (GnnTensor *t, GError **error)
{
  g_autoptr(GnnTensor) owned = t;

  return t ? gnn_tensor_sum_all (t, error) : NULL;
}

static GnnTensor *
dist_of (GnnTensor *x, gpointer data, GError **error)
{
  Case *c = data;

  switch (c->which)
    {
    case 0: return sum_of (gnn_tensor_cosine_similarity (x, c->other, 1, c->eps, error), error);
    case 1: return sum_of (gnn_tensor_cosine_similarity (c->other, x, 0, c->eps, error), error);
    case 2: return sum_of (gnn_tensor_pairwise_distance (x, c->other, 2.0, c->eps, FALSE, error), error);
    case 3: return sum_of (gnn_tensor_pairwise_distance (x, c->other, 3.0, c->eps, TRUE, error), error);
    case 4: return sum_of (gnn_tensor_pdist (x, 2.0, error), error);
    case 5: return sum_of (gnn_tensor_pdist (x, 1.5, error), error);
    default: g_assert_not_reached ();
    }
}

static void
test_values (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) a = gnn_test_tensor_d (GNN_TEST_DATA (3, 4, 1, 0), 4, GNN_TEST_SHAPE (2, 2), 2);
  g_autoptr(GnnTensor) b = gnn_test_tensor_d (GNN_TEST_DATA (4, 3, 0, 2), 4, GNN_TEST_SHAPE (2, 2), 2);
  g_autoptr(GnnTensor) c = NULL, d = NULL, p = NULL;

  c = gnn_tensor_cosine_similarity (a, b, 1, 1e-8, &error);
  g_assert_no_error (error);
  gnn_test_assert_close (c, GNN_TEST_DATA (24.0 / 25.0, 0), 2, 1e-12, 1e-12);
  d = gnn_tensor_pairwise_distance (a, b, 1.0, 0.0, FALSE, &error);
  g_assert_no_error (error);
  gnn_test_assert_close (d, GNN_TEST_DATA (2, 3), 2, 1e-12, 1e-12);
  /* rows (3, 4) and (1, 0): √(4 + 16) */
  p = gnn_tensor_pdist (a, 2.0, &error);
  g_assert_no_error (error);
  gnn_test_assert_shape (p, GNN_TEST_SHAPE (1), 1);
  gnn_test_assert_close (p, GNN_TEST_DATA (sqrt (20.0)), 1, 1e-12, 1e-12);
}

static void
test_gradcheck (void)
{
  g_autoptr(GnnTensor) x = gnn_test_tensor_d (GNN_TEST_DATA (0.3, -1.2, 0.9, 2.1, -0.4, 0.05), 6,
                                              GNN_TEST_SHAPE (3, 2), 2);
  g_autoptr(GnnTensor) y = gnn_test_tensor_d (GNN_TEST_DATA (0.1, 0.2, -0.7, 1.0, 0.35, 0.6), 6,
                                              GNN_TEST_SHAPE (3, 2), 2);

  for (int which = 0; which < 6; which++)
    {
      Case c = { which, y, which < 2 ? 1e-8 : 1e-6 };

      gnn_test_gradcheck (dist_of, &c, x, 1e-6, 1e-6);
    }
  /* (a norm below eps is not gradchecked: as in PyTorch the clamp is outside autograd, so the
   * gradient is deliberately not the finite difference there; test_loss_more.py compares it
   * with torch's) */
}

static void
test_errors (void)
{
  g_autoptr(GnnTensor) a = gnn_test_tensor_d (GNN_TEST_DATA (1, 2, 3, 4, 5, 6), 6, GNN_TEST_SHAPE (2, 3), 2);
  g_autoptr(GnnTensor) b = gnn_test_tensor_d (GNN_TEST_DATA (1, 2, 3, 4, 5, 6), 6, GNN_TEST_SHAPE (3, 2), 2);
  g_autoptr(GnnTensor) a3 = gnn_test_tensor_d (GNN_TEST_DATA (1, 2, 3, 4, 5, 6), 6, GNN_TEST_SHAPE (1, 2, 3), 3);
  g_autoptr(GnnTensor) ints = gnn_tensor_new_from_int64s ((const gint64[]) { 1, 2 }, 2, GNN_TEST_SHAPE (1, 2), 2, NULL);
  GError *error = NULL;

  g_assert_null (gnn_tensor_cosine_similarity (a, b, 1, 1e-8, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_SHAPE);
  g_clear_error (&error);
  g_assert_null (gnn_tensor_cosine_similarity (a, a, 2, 1e-8, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INDEX);
  g_clear_error (&error);
  g_assert_null (gnn_tensor_pairwise_distance (a, b, 2.0, 1e-6, FALSE, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_SHAPE);
  g_clear_error (&error);
  g_assert_null (gnn_tensor_pairwise_distance (a, a, -1.0, 1e-6, FALSE, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  g_assert_null (gnn_tensor_pdist (a3, 2.0, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_SHAPE);
  g_assert_nonnull (strstr (error->message, "2D"));
  g_clear_error (&error);
  g_assert_null (gnn_tensor_pdist (a, -2.0, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  g_assert_null (gnn_tensor_pdist (ints, 2.0, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_DTYPE);
  g_clear_error (&error);
}

static void
test_modules (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) a = gnn_test_tensor_d (GNN_TEST_DATA (3, 4), 2, GNN_TEST_SHAPE (1, 2), 2);
  g_autoptr(GnnTensor) b = gnn_test_tensor_d (GNN_TEST_DATA (4, 3), 2, GNN_TEST_SHAPE (1, 2), 2);
  g_autoptr(GnnCosineSimilarity) cs = gnn_cosine_similarity_new (1, 1e-8);
  g_autoptr(GnnPairwiseDistance) pd = gnn_pairwise_distance_new (1.0, 0.0, TRUE);
  g_autoptr(GnnArgs) args = gnn_args_new ();
  g_autoptr(GnnArgs) out1 = NULL, out2 = NULL;

  g_assert_cmpint (gnn_cosine_similarity_get_dim (cs), ==, 1);
  g_assert_cmpfloat (gnn_cosine_similarity_get_eps (cs), ==, 1e-8);
  g_assert_cmpfloat (gnn_pairwise_distance_get_p (pd), ==, 1.0);
  g_assert_cmpfloat (gnn_pairwise_distance_get_eps (pd), ==, 0.0);
  g_assert_true (gnn_pairwise_distance_get_keepdim (pd));
  gnn_args_add_tensor (args, a);
  gnn_args_add_tensor (args, b);
  out1 = gnn_module_forward (GNN_MODULE (cs), args, &error);
  g_assert_no_error (error);
  gnn_test_assert_close (gnn_args_get_tensor (out1, 0, NULL), GNN_TEST_DATA (24.0 / 25.0), 1, 1e-12, 1e-12);
  out2 = gnn_module_forward (GNN_MODULE (pd), args, &error);
  g_assert_no_error (error);
  gnn_test_assert_shape (gnn_args_get_tensor (out2, 0, NULL), GNN_TEST_SHAPE (1, 1), 2);
  gnn_test_assert_close (gnn_args_get_tensor (out2, 0, NULL), GNN_TEST_DATA (2), 1, 1e-12, 1e-12);
}

int
main (int argc, char **argv)
{
  gnn_test_init (&argc, &argv);
  g_test_add_func ("/distance/values", test_values);
  g_test_add_func ("/distance/gradcheck", test_gradcheck);
  g_test_add_func ("/distance/errors", test_errors);
  g_test_add_func ("/distance/modules", test_modules);
  return g_test_run ();
}
