/* test-ops-bitwise.c: the bitwise, integer and logical ops: values, result dtypes, bad inputs
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"
#include "gnn-test-util.h"

static void
test_values (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) a = gnn_tensor_new_from_int64s ((gint64[]) { 12, -6, 5, 0 }, 4, (gint64[]) { 4 }, 1, &error);
  g_autoptr(GnnTensor) b = gnn_tensor_new_from_int64s ((gint64[]) { 10, 4, 3, 0 }, 4, (gint64[]) { 4 }, 1, &error);
  g_autoptr(GnnTensor) g = gnn_tensor_gcd (a, b, &error);
  g_autoptr(GnnTensor) l = gnn_tensor_lcm (a, b, &error);
  g_autoptr(GnnTensor) x = gnn_tensor_bitwise_xor (a, b, &error);
  g_autoptr(GnnTensor) n = gnn_tensor_bitwise_not (a, &error);
  g_autoptr(GnnTensor) s = gnn_tensor_bitwise_right_shift (a, b, &error);
  g_autoptr(GnnTensor) la = gnn_tensor_logical_and (a, b, &error);
  g_autofree gint64 *gv = NULL, *lv = NULL, *xv = NULL, *nv = NULL, *sv = NULL;
  g_autofree double *lav = NULL;

  g_assert_no_error (error);
  gv = gnn_tensor_to_int64s (g, NULL, &error);
  lv = gnn_tensor_to_int64s (l, NULL, &error);
  xv = gnn_tensor_to_int64s (x, NULL, &error);
  nv = gnn_tensor_to_int64s (n, NULL, &error);
  sv = gnn_tensor_to_int64s (s, NULL, &error);
  lav = gnn_tensor_to_doubles (la, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpint (gv[0], ==, 2); g_assert_cmpint (gv[1], ==, 2); g_assert_cmpint (gv[2], ==, 1); g_assert_cmpint (gv[3], ==, 0);
  g_assert_cmpint (lv[0], ==, 60); g_assert_cmpint (lv[1], ==, 12); g_assert_cmpint (lv[2], ==, 15); g_assert_cmpint (lv[3], ==, 0);
  g_assert_cmpint (xv[0], ==, 6); g_assert_cmpint (xv[1], ==, -6 ^ 4);
  g_assert_cmpint (nv[0], ==, -13); g_assert_cmpint (nv[3], ==, -1);
  g_assert_cmpint (sv[0], ==, 0); g_assert_cmpint (sv[1], ==, -1); g_assert_cmpint (sv[3], ==, 0);
  g_assert_cmpint (gnn_tensor_get_dtype (la), ==, GNN_DTYPE_BOOL);
  g_assert_cmpfloat (lav[0], ==, 1.0); g_assert_cmpfloat (lav[3], ==, 0.0);
}

static void
test_bad_inputs (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) f = gnn_tensor_new_from_doubles ((double[]) { 1, 2 }, 2, (gint64[]) { 2 }, 1, &error);
  g_autoptr(GnnTensor) i = gnn_tensor_new_from_int64s ((gint64[]) { 1, 2 }, 2, (gint64[]) { 2 }, 1, &error);
  g_autoptr(GnnTensor) t = NULL;
  g_autoptr(GnnTensor) wrong = gnn_tensor_new_from_int64s ((gint64[]) { 1, 2, 3 }, 3, (gint64[]) { 3 }, 1, &error);

  g_assert_no_error (error);
  t = gnn_tensor_ne_scalar (i, 1.0, &error);
  g_assert_no_error (error);
  g_assert_null (gnn_tensor_bitwise_and (f, i, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_DTYPE);
  g_assert_nonnull (strstr (error->message, "got float64 and int64"));
  g_clear_error (&error);
  g_assert_null (gnn_tensor_bitwise_not (f, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_DTYPE);
  g_clear_error (&error);
  g_assert_null (gnn_tensor_gcd (t, t, &error));   /* bool: integers only, as in PyTorch */
  g_assert_error (error, GNN_ERROR, GNN_ERROR_DTYPE);
  g_clear_error (&error);
  g_assert_null (gnn_tensor_bitwise_left_shift (i, wrong, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_SHAPE);
  g_clear_error (&error);
  g_assert_null (gnn_tensor_logical_or (f, wrong, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_SHAPE);
}

int
main (int argc, char *argv[])
{
  gnn_test_init (&argc, &argv);
  g_test_add_func ("/ops/bitwise/values", test_values);
  g_test_add_func ("/ops/bitwise/bad-inputs", test_bad_inputs);
  return g_test_run ();
}
