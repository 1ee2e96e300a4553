/* test-ops-compose.c: the ops composed of other ops (gnn-ops-compose.c): values, gradients
 * (float64 against finite differences) and the errors torch raises */
#include "config.h"

#include "gnn-test-util.h"

#define OK(expr) G_STMT_START { (expr); g_assert_no_error (error); } G_STMT_END

static GnnTensor *
weighted_sum (GnnTensor *t, GError **error)
{
  /* sum (t * (1 + arange)): a gradient landing in the wrong place shows */
  gint64 n = gnn_tensor_get_numel (t);
  g_autoptr(GnnTensor) w = gnn_tensor_new_arange (1, (double) n + 1, 1, GNN_DTYPE_FLOAT64, NULL, error);
  g_autoptr(GnnTensor) ws = w ? gnn_tensor_reshape (w, gnn_tensor_get_shape (t, NULL), gnn_tensor_get_ndim (t),
                                                    error) : NULL;
  g_autoptr(GnnTensor) p = ws ? gnn_tensor_mul (t, ws, error) : NULL;
  return p ? gnn_tensor_sum_all (p, error) : NULL;
}

/* x (2, 3): the stacks of x with its row 0 (1-d) and element 0 (0-d) */
static GnnTensor *
f_stacks (GnnTensor *x, gpointer data, GError **error)
{
  g_autoptr(GnnTensor) r = gnn_tensor_select (x, 0, 0, error);
  g_autoptr(GnnTensor) e = r ? gnn_tensor_select (r, 0, 1, error) : NULL;
  GnnTensor *two[2] = { x, x }, *rows[2] = { x, r }, *flat[2] = { r, e };
  g_autoptr(GnnTensor) h = e ? gnn_hstack (two, 2, error) : NULL;
  g_autoptr(GnnTensor) v = h ? gnn_vstack (rows, 2, error) : NULL;
  g_autoptr(GnnTensor) d = v ? gnn_dstack (two, 2, error) : NULL;
  GnnTensor *cols[2] = { r, r };
  g_autoptr(GnnTensor) c = d ? gnn_column_stack (cols, 2, error) : NULL;
  g_autoptr(GnnTensor) h1 = c ? gnn_hstack (flat, 2, error) : NULL;
  GnnTensor *parts[5] = { h, v, d, c, h1 };
  g_autoptr(GnnTensor) total = NULL;

  if (h1 == NULL)
    return NULL;
  for (guint i = 0; i < 5; i++)
    {
      g_autoptr(GnnTensor) s = weighted_sum (parts[i], error);
      GnnTensor *next;
      if (s == NULL)
        return NULL;
      next = total ? gnn_tensor_add (total, s, 1, error) : g_object_ref (s);
      g_clear_object (&total);
      if ((total = next) == NULL)
        return NULL;
    }
  return g_steal_pointer (&total);
}

static void
test_stacks (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) x = gnn_test_tensor_d (GNN_TEST_DATA (0, 1, 2, 3, 4, 5), 6, GNN_TEST_SHAPE (2, 3), 2);
  g_autoptr(GnnTensor) r = NULL, s = NULL, h = NULL, v = NULL, d = NULL, c = NULL, a1 = NULL, a2 = NULL, a3 = NULL;
  g_autoptr(GnnTensor) a3s = NULL;

  OK (r = gnn_tensor_select (x, 0, 1, &error));
  OK (s = gnn_tensor_select (r, 0, 2, &error));
  OK (h = gnn_hstack ((GnnTensor *[]) { r, s, r }, 3, &error));
  gnn_test_assert_shape (h, GNN_TEST_SHAPE (7), 1);
  gnn_test_assert_close (h, GNN_TEST_DATA (3, 4, 5, 5, 3, 4, 5), 7, 0, 0);
  OK (v = gnn_vstack ((GnnTensor *[]) { x, r }, 2, &error));
  gnn_test_assert_shape (v, GNN_TEST_SHAPE (3, 3), 2);
  gnn_test_assert_close (v, GNN_TEST_DATA (0, 1, 2, 3, 4, 5, 3, 4, 5), 9, 0, 0);
  OK (d = gnn_dstack ((GnnTensor *[]) { r, r }, 2, &error));
  gnn_test_assert_shape (d, GNN_TEST_SHAPE (1, 3, 2), 3);
  gnn_test_assert_close (d, GNN_TEST_DATA (3, 3, 4, 4, 5, 5), 6, 0, 0);
  OK (c = gnn_column_stack ((GnnTensor *[]) { r, r }, 2, &error));
  gnn_test_assert_shape (c, GNN_TEST_SHAPE (3, 2), 2);
  gnn_test_assert_close (c, GNN_TEST_DATA (3, 3, 4, 4, 5, 5), 6, 0, 0);
  OK (a1 = gnn_tensor_atleast_1d (s, &error));
  gnn_test_assert_shape (a1, GNN_TEST_SHAPE (1), 1);
  OK (a2 = gnn_tensor_atleast_2d (r, &error));
  gnn_test_assert_shape (a2, GNN_TEST_SHAPE (1, 3), 2);
  OK (a3 = gnn_tensor_atleast_3d (x, &error));
  gnn_test_assert_shape (a3, GNN_TEST_SHAPE (2, 3, 1), 3);
  OK (a3s = gnn_tensor_atleast_3d (a3, &error));
  g_assert_true (a3s == a3);
  gnn_test_gradcheck (f_stacks, NULL, x, 1e-6, 1e-6);

  g_assert_null (gnn_hstack (NULL, 0, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "hstack expects a non-empty TensorList"));
  g_clear_error (&error);
  /* vstack of (2, 3) and (2): the column counts differ */
  {
    g_autoptr(GnnTensor) n = gnn_tensor_narrow (r, 0, 0, 2, &error);
    g_assert_null (gnn_vstack ((GnnTensor *[]) { x, n }, 2, &error));
    g_assert_error (error, GNN_ERROR, GNN_ERROR_SHAPE);
    g_clear_error (&error);
  }
}

/* x (2, 4, 2): hsplit, vsplit and dsplit pieces, weighted differently */
static GnnTensor *
f_splits (GnnTensor *x, gpointer data, GError **error)
{
  g_autoptr(GPtrArray) h = gnn_tensor_hsplit (x, 2, error);
  g_autoptr(GPtrArray) hi = h ? gnn_tensor_hsplit_indices (x, GNN_TEST_SHAPE (1, 3), 2, error) : NULL;
  g_autoptr(GPtrArray) v = hi ? gnn_tensor_vsplit (x, 2, error) : NULL;
  g_autoptr(GPtrArray) di = v ? gnn_tensor_dsplit_indices (x, GNN_TEST_SHAPE (1), 1, error) : NULL;
  g_autoptr(GnnTensor) a = NULL, b = NULL, c = NULL, d = NULL, ab = NULL, cd = NULL;

  if (di == NULL ||
      !(a = weighted_sum (g_ptr_array_index (h, 1), error)) ||
      !(b = weighted_sum (g_ptr_array_index (hi, 1), error)) ||
      !(c = gnn_tensor_sum_all (g_ptr_array_index (v, 0), error)) ||
      !(d = weighted_sum (g_ptr_array_index (di, 1), error)) ||
      !(ab = gnn_tensor_add (a, b, 1, error)) || !(cd = gnn_tensor_add (c, d, 1, error)))
    return NULL;
  return gnn_tensor_add (ab, cd, 1, error);
}

static void
test_splits (void)
{
  g_autoptr(GError) error = NULL;
  double vals[16];
  g_autoptr(GnnTensor) x = NULL, v1 = NULL, s = NULL;
  g_autoptr(GPtrArray) h = NULL, hi = NULL, v = NULL, d = NULL, h1 = NULL;

  for (int i = 0; i < 16; i++)
    vals[i] = i;
  x = gnn_test_tensor_d (vals, 16, GNN_TEST_SHAPE (2, 4, 2), 3);
  OK (h = gnn_tensor_hsplit (x, 2, &error));
  g_assert_cmpuint (h->len, ==, 2);
  gnn_test_assert_shape (g_ptr_array_index (h, 1), GNN_TEST_SHAPE (2, 2, 2), 3);
  g_assert_true (gnn_tensor_get_base (g_ptr_array_index (h, 1)) == x);
  OK (hi = gnn_tensor_hsplit_indices (x, GNN_TEST_SHAPE (1, 3), 2, &error));
  g_assert_cmpuint (hi->len, ==, 3);
  gnn_test_assert_shape (g_ptr_array_index (hi, 1), GNN_TEST_SHAPE (2, 2, 2), 3);
  OK (v = gnn_tensor_vsplit (x, 2, &error));
  gnn_test_assert_close (g_ptr_array_index (v, 1), vals + 8, 8, 0, 0);
  OK (d = gnn_tensor_dsplit (x, 2, &error));
  gnn_test_assert_shape (g_ptr_array_index (d, 0), GNN_TEST_SHAPE (2, 4, 1), 3);
  /* a 1-d tensor is split along dim 0 by hsplit */
  OK (v1 = gnn_tensor_reshape (x, GNN_TEST_SHAPE (16), 1, &error));
  OK (h1 = gnn_tensor_hsplit (v1, 4, &error));
  gnn_test_assert_close (g_ptr_array_index (h1, 3), GNN_TEST_DATA (12, 13, 14, 15), 4, 0, 0);
  gnn_test_gradcheck (f_splits, NULL, x, 1e-6, 1e-6);

  g_assert_null (gnn_tensor_hsplit (x, 3, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "size of the dimension 4 is not divisible by the split_size 3"));
  g_clear_error (&error);
  g_assert_null (gnn_tensor_hsplit (x, 0, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  g_assert_null (gnn_tensor_vsplit (v1, 2, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_SHAPE);
  g_assert_nonnull (strstr (error->message, "at least 2 dimension, but got a tensor with 1 dimensions"));
  g_clear_error (&error);
  OK (s = gnn_tensor_select (v1, 0, 0, &error));
  g_assert_null (gnn_tensor_hsplit_indices (s, GNN_TEST_SHAPE (1), 1, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_SHAPE);
  g_clear_error (&error);
  g_assert_null (gnn_tensor_dsplit_indices (v1, GNN_TEST_SHAPE (1), 1, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_SHAPE);
}

/* x (5): grids of x[0:2] and x[2:5], 'ij' and 'xy', and broadcast views */
static GnnTensor *
f_grids (GnnTensor *x, gpointer data, GError **error)
{
  g_autoptr(GnnTensor) a = gnn_tensor_narrow (x, 0, 0, 2, error);
  g_autoptr(GnnTensor) b = a ? gnn_tensor_narrow (x, 0, 2, 3, error) : NULL;
  GnnTensor *ab[2] = { a, b };
  g_autoptr(GPtrArray) ij = b ? gnn_meshgrid (ab, 2, "ij", error) : NULL;
  g_autoptr(GPtrArray) xy = ij ? gnn_meshgrid (ab, 2, "xy", error) : NULL;
  g_autoptr(GPtrArray) bt = NULL;
  g_autoptr(GnnTensor) ac = NULL, bb = NULL, p = NULL, q = NULL, r = NULL, s = NULL, t = NULL, u = NULL;

  if (xy == NULL || !(ac = gnn_tensor_unsqueeze (a, 1, error)) ||
      !(bt = gnn_broadcast_tensors ((GnnTensor *[]) { ac, b }, 2, error)) ||
      !(bb = gnn_tensor_broadcast_to (b, GNN_TEST_SHAPE (4, 3), 2, error)) ||
      !(p = gnn_tensor_mul (g_ptr_array_index (ij, 0), g_ptr_array_index (ij, 1), error)) ||
      !(q = weighted_sum (p, error)) || !(r = weighted_sum (g_ptr_array_index (xy, 0), error)) ||
      !(s = gnn_tensor_mul (g_ptr_array_index (bt, 0), g_ptr_array_index (bt, 1), error)) ||
      !(t = weighted_sum (s, error)) || !(u = weighted_sum (bb, error)))
    return NULL;
  {
    g_autoptr(GnnTensor) qr = gnn_tensor_add (q, r, 1, error);
    g_autoptr(GnnTensor) tu = qr ? gnn_tensor_add (t, u, 1, error) : NULL;
    return tu ? gnn_tensor_add (qr, tu, 1, error) : NULL;
  }
}

static void
test_grids (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) x = gnn_test_tensor_d (GNN_TEST_DATA (1, 2, 3, 4, 5), 5, GNN_TEST_SHAPE (5), 1);
  g_autoptr(GnnTensor) a = NULL, b = NULL, s = NULL, m = NULL, i = NULL, bt = NULL;
  g_autoptr(GPtrArray) ij = NULL, xy = NULL, one = NULL, bs = NULL;

  OK (a = gnn_tensor_narrow (x, 0, 0, 2, &error));
  OK (b = gnn_tensor_narrow (x, 0, 2, 3, &error));
  OK (s = gnn_tensor_select (x, 0, 4, &error));
  OK (ij = gnn_meshgrid ((GnnTensor *[]) { a, b, s }, 3, NULL, &error));
  g_assert_cmpuint (ij->len, ==, 3);
  gnn_test_assert_shape (g_ptr_array_index (ij, 0), GNN_TEST_SHAPE (2, 3, 1), 3);
  gnn_test_assert_close (g_ptr_array_index (ij, 1), GNN_TEST_DATA (3, 4, 5, 3, 4, 5), 6, 0, 0);
  OK (xy = gnn_meshgrid ((GnnTensor *[]) { a, b }, 2, "xy", &error));
  gnn_test_assert_shape (g_ptr_array_index (xy, 0), GNN_TEST_SHAPE (3, 2), 2);
  gnn_test_assert_close (g_ptr_array_index (xy, 0), GNN_TEST_DATA (1, 2, 1, 2, 1, 2), 6, 0, 0);
  gnn_test_assert_close (g_ptr_array_index (xy, 1), GNN_TEST_DATA (3, 3, 4, 4, 5, 5), 6, 0, 0);
  OK (one = gnn_meshgrid ((GnnTensor *[]) { b }, 1, "xy", &error));
  gnn_test_assert_shape (g_ptr_array_index (one, 0), GNN_TEST_SHAPE (3), 1);
  OK (i = gnn_tensor_unsqueeze (a, 1, &error));
  OK (bs = gnn_broadcast_tensors ((GnnTensor *[]) { i, b, s }, 3, &error));
  gnn_test_assert_shape (g_ptr_array_index (bs, 2), GNN_TEST_SHAPE (2, 3), 2);
  gnn_test_assert_close (g_ptr_array_index (bs, 0), GNN_TEST_DATA (1, 1, 1, 2, 2, 2), 6, 0, 0);
  OK (bt = gnn_tensor_broadcast_to (b, GNN_TEST_SHAPE (2, -1), 2, &error));
  gnn_test_assert_shape (bt, GNN_TEST_SHAPE (2, 3), 2);
  gnn_test_gradcheck (f_grids, NULL, x, 1e-6, 1e-6);

  g_assert_null (gnn_meshgrid ((GnnTensor *[]) { a }, 1, "ab", &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "indexing must be one of \"xy\" or \"ij\", but received: ab"));
  g_clear_error (&error);
  g_assert_null (gnn_meshgrid (NULL, 0, "ij", &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  OK (m = gnn_tensor_reshape (x, GNN_TEST_SHAPE (5, 1), 2, &error));
  g_assert_null (gnn_meshgrid ((GnnTensor *[]) { a, m }, 2, "ij", &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_SHAPE);
  g_assert_nonnull (strstr (error->message, "Expected 0D or 1D tensor"));
  g_clear_error (&error);
  {
    g_autoptr(GnnTensor) f = gnn_tensor_to_dtype (a, GNN_DTYPE_FLOAT32, &error);
    g_assert_null (gnn_meshgrid ((GnnTensor *[]) { a, f }, 2, "ij", &error));
    g_assert_error (error, GNN_ERROR, GNN_ERROR_DTYPE);
    g_clear_error (&error);
  }
  g_assert_null (gnn_broadcast_tensors ((GnnTensor *[]) { a, b }, 2, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_SHAPE);
  g_clear_error (&error);
  g_assert_null (gnn_tensor_broadcast_to (b, GNN_TEST_SHAPE (2, 2), 2, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_SHAPE);
}

static GnnTensor *
f_unflatten (GnnTensor *x, gpointer data, GError **error)
{
  g_autoptr(GnnTensor) u = gnn_tensor_unflatten (x, -1, GNN_TEST_SHAPE (2, -1), 2, error);
  g_autoptr(GnnTensor) sq = u ? gnn_tensor_mul (u, u, error) : NULL;
  return sq ? weighted_sum (sq, error) : NULL;
}

static void
test_unflatten (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) x = gnn_test_tensor_d (GNN_TEST_DATA (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11), 12,
                                              GNN_TEST_SHAPE (2, 6), 2);
  g_autoptr(GnnTensor) u = NULL, z = NULL, t = NULL, tu = NULL;

  OK (u = gnn_tensor_unflatten (x, 1, GNN_TEST_SHAPE (3, 2), 2, &error));
  gnn_test_assert_shape (u, GNN_TEST_SHAPE (2, 3, 2), 3);
  g_assert_true (gnn_tensor_shares_storage (u, x));
  OK (z = gnn_tensor_unflatten (x, 0, GNN_TEST_SHAPE (-1, 1, 1), 3, &error));
  gnn_test_assert_shape (z, GNN_TEST_SHAPE (2, 1, 1, 6), 4);
  /* a transposed (non-contiguous) input still unflattens as a view */
  OK (t = gnn_tensor_t (x, &error));
  OK (tu = gnn_tensor_unflatten (t, 0, GNN_TEST_SHAPE (2, 3), 2, &error));
  gnn_test_assert_shape (tu, GNN_TEST_SHAPE (2, 3, 2), 3);
  gnn_test_assert_close (tu, GNN_TEST_DATA (0, 6, 1, 7, 2, 8, 3, 9, 4, 10, 5, 11), 12, 0, 0);
  gnn_test_gradcheck (f_unflatten, NULL, x, 1e-6, 1e-6);

  g_assert_null (gnn_tensor_unflatten (x, 1, GNN_TEST_SHAPE (4, 2), 2, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_SHAPE);
  g_assert_nonnull (strstr (error->message, "Provided sizes [4, 2] don't multiply up to the size of dim 1 (6)"));
  g_clear_error (&error);
  g_assert_null (gnn_tensor_unflatten (x, 1, GNN_TEST_SHAPE (-1, -1), 2, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "only one dimension can be inferred"));
  g_clear_error (&error);
  g_assert_null (gnn_tensor_unflatten (x, 1, NULL, 0, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  g_assert_null (gnn_tensor_unflatten (x, 2, GNN_TEST_SHAPE (1), 1, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INDEX);
  g_clear_error (&error);
  g_assert_null (gnn_tensor_unflatten (x, 1, GNN_TEST_SHAPE (-1, 4), 2, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_SHAPE);
}

int
main (int argc, char **argv)
{
  gnn_test_init (&argc, &argv);
  g_test_add_func ("/ops-compose/stacks", test_stacks);
  g_test_add_func ("/ops-compose/splits", test_splits);
  g_test_add_func ("/ops-compose/grids", test_grids);
  g_test_add_func ("/ops-compose/unflatten", test_unflatten);
  return g_test_run ();
}
