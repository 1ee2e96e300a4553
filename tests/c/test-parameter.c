/* test-parameter.c: GnnParameter and GnnBuffer */
#include "config.h"

#include "gnn-test-util.h"

static void
test_parameter (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) data = gnn_test_tensor_d (GNN_TEST_DATA (1, 2), 2, GNN_TEST_SHAPE (2), 1);
  g_autoptr(GnnTensor) f = gnn_tensor_to_dtype (data, GNN_DTYPE_FLOAT32, &error);
  g_autoptr(GnnParameter) p = gnn_parameter_new (f, TRUE, &error);
  g_autoptr(GnnParameter) q = gnn_parameter_new (f, FALSE, &error);
  g_autoptr(GnnParameter) e = gnn_parameter_new (NULL, TRUE, &error);
  g_autoptr(GnnTensor) i = NULL;
  g_autofree char *s = NULL;
  GnnParameter *bad;

  g_assert_no_error (error);
  g_assert_true (GNN_IS_TENSOR (p));
  g_assert_true (gnn_tensor_get_requires_grad (GNN_TENSOR (p)));
  g_assert_true (gnn_tensor_is_leaf (GNN_TENSOR (p)));
  g_assert_false (gnn_tensor_get_requires_grad (GNN_TENSOR (q)));
  g_assert_true (gnn_tensor_shares_storage (GNN_TENSOR (p), f));
  g_assert_cmpint (gnn_tensor_get_numel (GNN_TENSOR (e)), ==, 0);
  s = gnn_tensor_to_string (GNN_TENSOR (p));
  g_assert_cmpstr (s, ==, "Parameter containing:\ntensor([1., 2.], requires_grad=True)");

  i = gnn_tensor_to_dtype (data, GNN_DTYPE_INT64, &error);
  bad = gnn_parameter_new (i, TRUE, &error);
  g_assert_null (bad);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_DTYPE);
}

static void
test_parameter_trains (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) data = gnn_test_tensor_d (GNN_TEST_DATA (1, -2), 2, GNN_TEST_SHAPE (2), 1);
  g_autoptr(GnnParameter) p = gnn_parameter_new (data, TRUE, &error);
  g_autoptr(GnnTensor) y = NULL, s = NULL;

  y = gnn_tensor_mul (GNN_TENSOR (p), GNN_TENSOR (p), &error);
  s = gnn_tensor_sum_all (y, &error);
  g_assert_true (gnn_tensor_backward (s, NULL, FALSE, &error));
  gnn_test_assert_close (gnn_tensor_get_grad (GNN_TENSOR (p)), GNN_TEST_DATA (2, -4), 2, 0, 0);
  /* an SGD step in place, as an optimizer does, changes the shared data too */
  {
    g_autoptr(GnnNoGradGuard) guard = gnn_no_grad_guard_new ();
    g_assert_true (gnn_tensor_add_ (GNN_TENSOR (p), gnn_tensor_get_grad (GNN_TENSOR (p)), -0.5, &error));
  }
  gnn_test_assert_close (data, GNN_TEST_DATA (0, 0), 2, 0, 0);
}

static void
test_buffer (void)
{
  g_autoptr(GnnTensor) data = gnn_test_tensor_d (GNN_TEST_DATA (3), 1, GNN_TEST_SHAPE (1), 1);
  g_autoptr(GnnBuffer) b = gnn_buffer_new (data, FALSE);
  gboolean persistent = TRUE;

  g_assert_false (gnn_buffer_get_persistent (b));
  g_assert_false (gnn_tensor_get_requires_grad (GNN_TENSOR (b)));
  gnn_buffer_set_persistent (b, TRUE);
  g_object_get (b, "persistent", &persistent, NULL);
  g_assert_true (persistent);
  g_assert_true (gnn_tensor_shares_storage (GNN_TENSOR (b), data));
}

int
main (int argc, char *argv[])
{
  gnn_test_init (&argc, &argv);
  g_test_add_func ("/nn/parameter/basics", test_parameter);
  g_test_add_func ("/nn/parameter/trains", test_parameter_trains);
  g_test_add_func ("/nn/buffer/basics", test_buffer);
  return g_test_run ();
}
