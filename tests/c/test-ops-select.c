/* test-ops-select.c: repeat, tile, repeat_interleave, take, take_along_dim, masked_select,
 * masked_scatter, nonzero: float64 gradchecks and bad input errors */
#include "config.h"

#include "gnn-test-util.h"

#define OK_OR_NULL(expr) G_STMT_START { if ((expr) == NULL) return NULL; } G_STMT_END

enum { SEL_REPEAT, SEL_TILE, SEL_INTERLEAVE, SEL_TAKE, SEL_ALONG, SEL_MSELECT, SEL_MSCATTER, SEL_N };

/* x (2, 3) through one op, then a weighted sum so that every output position counts */
static GnnTensor *
f_select (GnnTensor *x, gpointer data, GError **error)
{
  g_autoptr(GnnTensor) y = NULL, w = NULL, yw = NULL, idx = NULL, m = NULL, mask = NULL, src = NULL;

  switch (GPOINTER_TO_INT (data))
    {
    case SEL_REPEAT:
      OK_OR_NULL (y = gnn_tensor_repeat (x, GNN_TEST_SHAPE (2, 1, 2), 3, error));
      break;
    case SEL_TILE:
      OK_OR_NULL (y = gnn_tensor_tile (x, GNN_TEST_SHAPE (3), 1, error));
      break;
    case SEL_INTERLEAVE:
      OK_OR_NULL (idx = gnn_tensor_new_from_int64s ((const gint64[]) { 2, 0, 1 }, 3, GNN_TEST_SHAPE (3), 1, error));
      OK_OR_NULL (y = gnn_tensor_repeat_interleave (x, idx, 1, FALSE, -1, error));
      break;
    case SEL_TAKE:
      OK_OR_NULL (idx = gnn_tensor_new_from_int64s ((const gint64[]) { 0, -1, 4, 4 }, 4, GNN_TEST_SHAPE (2, 2), 2,
                                                    error));
      OK_OR_NULL (y = gnn_tensor_take (x, idx, error));
      break;
    case SEL_ALONG:
      OK_OR_NULL (idx = gnn_tensor_new_from_int64s ((const gint64[]) { 2, 0 }, 2, GNN_TEST_SHAPE (1, 2), 2, error));
      OK_OR_NULL (y = gnn_tensor_take_along_dim (x, idx, 1, FALSE, error));
      break;
    case SEL_MSELECT:
    case SEL_MSCATTER:
      OK_OR_NULL (m = gnn_tensor_new_from_int64s ((const gint64[]) { 1, 0, 1 }, 3, GNN_TEST_SHAPE (3), 1, error));
      OK_OR_NULL (mask = gnn_tensor_ne_scalar (m, 0, error));
      if (GPOINTER_TO_INT (data) == SEL_MSELECT)
        OK_OR_NULL (y = gnn_tensor_masked_select (x, mask, error));
      else
        {
          OK_OR_NULL (src = gnn_tensor_mul_scalar (x, 3.0, error));
          OK_OR_NULL (y = gnn_tensor_masked_scatter (x, mask, src, error));
        }
      break;
    default:
      g_assert_not_reached ();
    }
  OK_OR_NULL (w = gnn_tensor_cos (y, error));
  OK_OR_NULL (yw = gnn_tensor_mul (y, w, error));
  return gnn_tensor_sum_all (yw, error);
}

static void
test_gradcheck (void)
{
  for (int which = 0; which < SEL_N; which++)
    {
      double v[6];
      g_autoptr(GnnTensor) x = NULL;

      for (int i = 0; i < 6; i++)
        v[i] = cos (0.7 * i) + 0.1 * i;
      x = gnn_test_tensor_d (v, 6, GNN_TEST_SHAPE (2, 3), 2);
      gnn_test_gradcheck (f_select, GINT_TO_POINTER (which), x, 1e-6, 1e-7);
    }
}

static void
assert_error (GError **error, gint code, const char *fragment)
{
  g_assert_error (*error, GNN_ERROR, code);
  if (strstr ((*error)->message, fragment) == NULL)
    g_error ("error message '%s' lacks '%s'", (*error)->message, fragment);
  g_clear_error (error);
}

static void
test_errors (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) x = gnn_test_tensor_d (GNN_TEST_DATA (0, 1, 2, 3, 4, 5), 6, GNN_TEST_SHAPE (2, 3), 2);
  g_autoptr(GnnTensor) neg = gnn_tensor_new_from_int64s ((const gint64[]) { 1, -1 }, 2, GNN_TEST_SHAPE (2), 1, &error);
  g_autoptr(GnnTensor) far = gnn_tensor_new_from_int64s ((const gint64[]) { 6 }, 1, GNN_TEST_SHAPE (1), 1, &error);
  g_autoptr(GnnTensor) nz = NULL;
  g_autofree gint64 *coords = NULL;

  g_assert_no_error (error);
  g_assert_null (gnn_tensor_repeat (x, GNN_TEST_SHAPE (2), 1, &error));
  assert_error (&error, GNN_ERROR_SHAPE, "can not be smaller than number of dimensions");
  g_assert_null (gnn_tensor_repeat (x, GNN_TEST_SHAPE (1, -2), 2, &error));
  assert_error (&error, GNN_ERROR_SHAPE, "negative dimension");
  g_assert_null (gnn_tensor_repeat_interleave (x, neg, 0, FALSE, -1, &error));
  assert_error (&error, GNN_ERROR_INVALID_ARGUMENT, "repeats can not be negative");
  g_assert_null (gnn_tensor_repeat_interleave_int (x, 2, 0, FALSE, 5, &error));
  assert_error (&error, GNN_ERROR_SHAPE, "allocated size does not match required size");
  g_assert_null (gnn_tensor_repeat_interleave (x, x, 0, FALSE, -1, &error));
  assert_error (&error, GNN_ERROR_DTYPE, "int64 or int32");
  g_assert_null (gnn_tensor_take (x, far, &error));
  assert_error (&error, GNN_ERROR_INDEX, "tried to access index 6 on a tensor of 6 elements");
  g_assert_null (gnn_tensor_take_along_dim (x, far, 0, FALSE, &error));
  assert_error (&error, GNN_ERROR_SHAPE, "same number of dimensions");
  g_assert_null (gnn_tensor_masked_select (x, x, &error));
  assert_error (&error, GNN_ERROR_DTYPE, "expected BoolTensor or ByteTensor for mask");

  nz = gnn_tensor_nonzero (x, &error);
  g_assert_no_error (error);
  gnn_test_assert_shape (nz, GNN_TEST_SHAPE (5, 2), 2);
  coords = gnn_tensor_to_int64s (nz, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpint (coords[0], ==, 0);
  g_assert_cmpint (coords[1], ==, 1);
  g_assert_cmpint (coords[8], ==, 1);
  g_assert_cmpint (coords[9], ==, 2);
}

int
main (int argc, char *argv[])
{
  gnn_test_init (&argc, &argv);
  g_test_add_func ("/ops/select/gradcheck", test_gradcheck);
  g_test_add_func ("/ops/select/errors", test_errors);
  return g_test_run ();
}
