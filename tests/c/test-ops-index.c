/* test-ops-index.c: cat, stack, index_select, gather, one_hot, masks and the scatter ops */
#include "config.h"

#include "gnn-test-util.h"

#define OK(expr) G_STMT_START { (expr); g_assert_no_error (error); } G_STMT_END
#define OK_OR_NULL(expr) G_STMT_START { if ((expr) == NULL) return NULL; } G_STMT_END
#define TENSORS(...) ((GnnTensor *[]) { __VA_ARGS__ })

static void
assert_error (GError **error, gint code, const char *fragment)
{
  g_assert_error (*error, GNN_ERROR, code);
  if (strstr ((*error)->message, fragment) == NULL)
    g_error ("error message '%s' lacks '%s'", (*error)->message, fragment);
  g_clear_error (error);
}

static GnnTensor *
index_tensor (const gint64 *v, gsize n, const gint64 *shape, guint ndim)
{
  g_autoptr(GError) error = NULL;
  GnnTensor *t = gnn_tensor_new_from_int64s (v, n, shape, ndim, &error);
  g_assert_no_error (error);
  return t;
}

#define INDEX(shape, ndim, ...) \
  index_tensor ((const gint64[]) { __VA_ARGS__ }, sizeof ((const gint64[]) { __VA_ARGS__ }) / sizeof (gint64), shape, ndim)

/* (2, 3) = 0 .. 5 */
static GnnTensor *
iota_23 (void)
{
  return gnn_test_tensor_d (GNN_TEST_DATA (0, 1, 2, 3, 4, 5), 6, GNN_TEST_SHAPE (2, 3), 2);
}

/* ---- cat / stack -------------------------------------------------------------------- */

static void
test_cat (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) a = iota_23 ();
  g_autoptr(GnnTensor) b = gnn_test_tensor_d (GNN_TEST_DATA (10, 11, 12), 3, GNN_TEST_SHAPE (1, 3), 2);
  g_autoptr(GnnTensor) c = gnn_test_tensor_d (GNN_TEST_DATA (-1, -2), 2, GNN_TEST_SHAPE (2, 1), 2);
  g_autoptr(GnnTensor) c0 = NULL, c1 = NULL, one = NULL, t = NULL, ct = NULL, i = NULL, ci = NULL;
  g_autoptr(GnnTensor) empty1d = NULL, ce = NULL, z = NULL, cz = NULL;

  OK (c0 = gnn_cat (TENSORS (a, b), 2, 0, &error));
  gnn_test_assert_shape (c0, GNN_TEST_SHAPE (3, 3), 2);
  gnn_test_assert_close (c0, GNN_TEST_DATA (0, 1, 2, 3, 4, 5, 10, 11, 12), 9, 0, 0);
  OK (c1 = gnn_cat (TENSORS (c, a, c), 3, -1, &error));
  gnn_test_assert_shape (c1, GNN_TEST_SHAPE (2, 5), 2);
  gnn_test_assert_close (c1, GNN_TEST_DATA (-1, 0, 1, 2, -1, -2, 3, 4, 5, -2), 10, 0, 0);
  OK (one = gnn_cat (TENSORS (a), 1, 1, &error));
  gnn_test_assert_close (one, GNN_TEST_DATA (0, 1, 2, 3, 4, 5), 6, 0, 0);
  g_assert_false (one == a);
  /* a non-contiguous input */
  OK (t = gnn_tensor_transpose (a, 0, 1, &error));
  OK (ct = gnn_cat (TENSORS (t, t), 2, 1, &error));
  gnn_test_assert_close (ct, GNN_TEST_DATA (0, 3, 0, 3, 1, 4, 1, 4, 2, 5, 2, 5), 12, 0, 0);
  /* dtypes promote: int64 with float64 gives float64 */
  i = INDEX (GNN_TEST_SHAPE (1, 3), 2, 7, 8, 9);
  OK (ci = gnn_cat (TENSORS (i, a), 2, 0, &error));
  g_assert_cmpint (gnn_tensor_get_dtype (ci), ==, GNN_DTYPE_FLOAT64);
  gnn_test_assert_close (ci, GNN_TEST_DATA (7, 8, 9, 0, 1, 2, 3, 4, 5), 9, 0, 0);
  /* one-dimensional empty tensors are skipped, as in PyTorch */
  OK (empty1d = gnn_tensor_new_zeros (GNN_TEST_SHAPE (0), 1, GNN_DTYPE_FLOAT64, NULL, &error));
  OK (ce = gnn_cat (TENSORS (empty1d, a, empty1d), 3, 1, &error));
  gnn_test_assert_shape (ce, GNN_TEST_SHAPE (2, 3), 2);
  gnn_test_assert_close (ce, GNN_TEST_DATA (0, 1, 2, 3, 4, 5), 6, 0, 0);
  /* zero-size dimensions */
  OK (z = gnn_tensor_new_zeros (GNN_TEST_SHAPE (2, 0), 2, GNN_DTYPE_FLOAT64, NULL, &error));
  OK (cz = gnn_cat (TENSORS (z, a, z), 3, 1, &error));
  gnn_test_assert_shape (cz, GNN_TEST_SHAPE (2, 3), 2);
  gnn_test_assert_close (cz, GNN_TEST_DATA (0, 1, 2, 3, 4, 5), 6, 0, 0);
  {
    g_autoptr(GnnTensor) zz = NULL;
    OK (zz = gnn_cat (TENSORS (z, z), 2, 0, &error));
    gnn_test_assert_shape (zz, GNN_TEST_SHAPE (4, 0), 2);
  }
}

static void
test_cat_errors (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) a = iota_23 ();
  g_autoptr(GnnTensor) b = gnn_test_tensor_d (GNN_TEST_DATA (1, 2, 3, 4), 4, GNN_TEST_SHAPE (2, 2), 2);
  g_autoptr(GnnTensor) v = gnn_test_tensor_d (GNN_TEST_DATA (1, 2, 3), 3, GNN_TEST_SHAPE (3), 1);
  g_autoptr(GnnTensor) s = NULL;

  g_assert_null (gnn_cat (NULL, 0, 0, &error));
  assert_error (&error, GNN_ERROR_INVALID_ARGUMENT, "expected a non-empty list of Tensors");
  g_assert_null (gnn_cat (TENSORS (a, b), 2, 0, &error));
  assert_error (&error, GNN_ERROR_SHAPE,
                "Sizes of tensors must match except in dimension 0. Expected size 3 but got size 2 for tensor number 1 in the list.");
  g_assert_null (gnn_cat (TENSORS (a, v), 2, 0, &error));
  assert_error (&error, GNN_ERROR_SHAPE, "Tensors must have same number of dimensions: got 2 and 1");
  OK (s = gnn_tensor_new_scalar (1, GNN_DTYPE_FLOAT64, NULL, &error));
  g_assert_null (gnn_cat (TENSORS (a, s), 2, 0, &error));
  assert_error (&error, GNN_ERROR_SHAPE, "zero-dimensional tensor (at position 1) cannot be concatenated");
  g_assert_null (gnn_cat (TENSORS (a, a), 2, 2, &error));
  assert_error (&error, GNN_ERROR_INDEX, "Dimension out of range (expected to be in range of [-2, 1], but got 2)");
}

static void
test_stack (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) a = iota_23 ();
  g_autoptr(GnnTensor) b = gnn_test_tensor_d (GNN_TEST_DATA (10, 11, 12, 13, 14, 15), 6, GNN_TEST_SHAPE (2, 3), 2);
  g_autoptr(GnnTensor) s0 = NULL, s1 = NULL, s2 = NULL, x = NULL, y = NULL, sc = NULL, bad = NULL;

  OK (s0 = gnn_stack (TENSORS (a, b), 2, 0, &error));
  gnn_test_assert_shape (s0, GNN_TEST_SHAPE (2, 2, 3), 3);
  gnn_test_assert_close (s0, GNN_TEST_DATA (0, 1, 2, 3, 4, 5, 10, 11, 12, 13, 14, 15), 12, 0, 0);
  OK (s1 = gnn_stack (TENSORS (a, b), 2, 1, &error));
  gnn_test_assert_shape (s1, GNN_TEST_SHAPE (2, 2, 3), 3);
  gnn_test_assert_close (s1, GNN_TEST_DATA (0, 1, 2, 10, 11, 12, 3, 4, 5, 13, 14, 15), 12, 0, 0);
  OK (s2 = gnn_stack (TENSORS (a, b), 2, -1, &error));
  gnn_test_assert_shape (s2, GNN_TEST_SHAPE (2, 3, 2), 3);
  gnn_test_assert_close (s2, GNN_TEST_DATA (0, 10, 1, 11, 2, 12, 3, 13, 4, 14, 5, 15), 12, 0, 0);
  /* zero-dimensional tensors stack into a vector */
  OK (x = gnn_tensor_new_scalar (1, GNN_DTYPE_FLOAT32, NULL, &error));
  OK (y = gnn_tensor_new_scalar (2, GNN_DTYPE_FLOAT32, NULL, &error));
  OK (sc = gnn_stack (TENSORS (x, y, x), 3, 0, &error));
  gnn_test_assert_shape (sc, GNN_TEST_SHAPE (3), 1);
  gnn_test_assert_close (sc, GNN_TEST_DATA (1, 2, 1), 3, 0, 0);

  g_assert_null (gnn_stack (NULL, 0, 0, &error));
  assert_error (&error, GNN_ERROR_INVALID_ARGUMENT, "stack expects a non-empty TensorList");
  OK (bad = gnn_tensor_new_zeros (GNN_TEST_SHAPE (2, 4), 2, GNN_DTYPE_FLOAT64, NULL, &error));
  g_assert_null (gnn_stack (TENSORS (a, bad), 2, 0, &error));
  assert_error (&error, GNN_ERROR_SHAPE,
                "stack expects each tensor to be equal size, but got [2, 3] at entry 0 and [2, 4] at entry 1");
  g_assert_null (gnn_stack (TENSORS (a, b), 2, 3, &error));
  assert_error (&error, GNN_ERROR_INDEX, "Dimension out of range (expected to be in range of [-3, 2], but got 3)");
}

/* ---- index_select ------------------------------------------------------------------- */

static void
test_index_select (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) a = iota_23 ();
  g_autoptr(GnnTensor) i1 = INDEX (GNN_TEST_SHAPE (4), 1, 2, 0, 2, 1);
  g_autoptr(GnnTensor) i0 = INDEX (NULL, 0, 1);
  g_autoptr(GnnTensor) r1 = NULL, r0 = NULL, t = NULL, rt = NULL, ints = NULL, ri = NULL;
  g_autoptr(GnnTensor) empty = NULL, re = NULL, s = NULL, rsc = NULL, zero = NULL;

  OK (r1 = gnn_tensor_index_select (a, 1, i1, &error));
  gnn_test_assert_shape (r1, GNN_TEST_SHAPE (2, 4), 2);
  gnn_test_assert_close (r1, GNN_TEST_DATA (2, 0, 2, 1, 5, 3, 5, 4), 8, 0, 0);
  OK (r0 = gnn_tensor_index_select (a, -2, i0, &error));
  gnn_test_assert_shape (r0, GNN_TEST_SHAPE (1, 3), 2);
  gnn_test_assert_close (r0, GNN_TEST_DATA (3, 4, 5), 3, 0, 0);
  /* a non-contiguous input */
  OK (t = gnn_tensor_transpose (a, 0, 1, &error));
  OK (rt = gnn_tensor_index_select (t, 0, i1, &error));
  gnn_test_assert_close (rt, GNN_TEST_DATA (2, 5, 0, 3, 2, 5, 1, 4), 8, 0, 0);
  /* int64 data keeps its dtype */
  ints = INDEX (GNN_TEST_SHAPE (3), 1, 10, 20, 30);
  OK (ri = gnn_tensor_index_select (ints, 0, i1, &error));
  g_assert_cmpint (gnn_tensor_get_dtype (ri), ==, GNN_DTYPE_INT64);
  gnn_test_assert_close (ri, GNN_TEST_DATA (30, 10, 30, 20), 4, 0, 0);
  /* uint8, bool and float16 rows are selected in their own dtype, on every backend */
  for (GnnDtype dt = GNN_DTYPE_BOOL; dt <= GNN_DTYPE_FLOAT16; dt++)
    {
      g_autoptr(GnnTensor) small = NULL, rs = NULL;

      if (dt != GNN_DTYPE_BOOL && dt != GNN_DTYPE_UINT8 && dt != GNN_DTYPE_FLOAT16)
        continue;
      OK (small = gnn_tensor_to_dtype (ints, dt, &error));
      OK (rs = gnn_tensor_index_select (small, 0, i1, &error));
      g_assert_cmpint (gnn_tensor_get_dtype (rs), ==, dt);
      if (dt == GNN_DTYPE_BOOL)
        gnn_test_assert_close (rs, GNN_TEST_DATA (1, 1, 1, 1), 4, 0, 0);
      else
        gnn_test_assert_close (rs, GNN_TEST_DATA (30, 10, 30, 20), 4, 0, 0);
    }
  /* an empty index gives an empty dimension */
  OK (empty = gnn_tensor_new_zeros (GNN_TEST_SHAPE (0), 1, GNN_DTYPE_INT64, NULL, &error));
  OK (re = gnn_tensor_index_select (a, 1, empty, &error));
  gnn_test_assert_shape (re, GNN_TEST_SHAPE (2, 0), 2);
  /* a zero-dimensional input */
  OK (s = gnn_tensor_new_scalar (5, GNN_DTYPE_FLOAT32, NULL, &error));
  zero = INDEX (NULL, 0, 0);
  OK (rsc = gnn_tensor_index_select (s, 0, zero, &error));
  gnn_test_assert_shape (rsc, NULL, 0);
  gnn_test_assert_close (rsc, GNN_TEST_DATA (5), 1, 0, 0);
}

static void
test_index_select_errors (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) a = iota_23 ();
  g_autoptr(GnnTensor) big = INDEX (GNN_TEST_SHAPE (3), 1, 0, 5, 1);
  g_autoptr(GnnTensor) neg = INDEX (GNN_TEST_SHAPE (2), 1, 0, -1);
  g_autoptr(GnnTensor) mat = INDEX (GNN_TEST_SHAPE (1, 1), 2, 0);
  g_autoptr(GnnTensor) fl = gnn_test_tensor_d (GNN_TEST_DATA (0), 1, GNN_TEST_SHAPE (1), 1);
  g_autoptr(GnnTensor) ok = INDEX (GNN_TEST_SHAPE (1), 1, 0);

  g_assert_null (gnn_tensor_index_select (a, 1, big, &error));
  assert_error (&error, GNN_ERROR_INDEX, "index_select(): index 5 is out of bounds for dimension 1 with size 3");
  g_assert_null (gnn_tensor_index_select (a, 0, neg, &error));
  assert_error (&error, GNN_ERROR_INDEX, "index -1 is out of bounds for dimension 0 with size 2");
  g_assert_null (gnn_tensor_index_select (a, 0, mat, &error));
  assert_error (&error, GNN_ERROR_SHAPE, "Index is supposed to be a vector");
  g_assert_null (gnn_tensor_index_select (a, 0, fl, &error));
  assert_error (&error, GNN_ERROR_DTYPE, "index_select(): Expected dtype int32 or int64 for index, got float64");
  g_assert_null (gnn_tensor_index_select (a, 2, ok, &error));
  assert_error (&error, GNN_ERROR_INDEX, "Dimension out of range");
}

/* ---- gather ------------------------------------------------------------------------- */

static void
test_gather (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) a = iota_23 ();
  g_autoptr(GnnTensor) i1 = INDEX (GNN_TEST_SHAPE (2, 4), 2, 2, 0, 0, 1, 1, 1, 2, 0);
  g_autoptr(GnnTensor) i0 = INDEX (GNN_TEST_SHAPE (3, 2), 2, 1, 0, 0, 0, 1, 1);
  g_autoptr(GnnTensor) small = INDEX (GNN_TEST_SHAPE (1, 1), 2, 1);
  g_autoptr(GnnTensor) r1 = NULL, r0 = NULL, rs = NULL, t = NULL, rt = NULL, e = NULL, re = NULL;

  /* along dim 1: out[i][j] = a[i][index[i][j]] */
  OK (r1 = gnn_tensor_gather (a, 1, i1, &error));
  gnn_test_assert_shape (r1, GNN_TEST_SHAPE (2, 4), 2);
  gnn_test_assert_close (r1, GNN_TEST_DATA (2, 0, 0, 1, 4, 4, 5, 3), 8, 0, 0);
  /* along dim 0, an index longer than the input along dim and narrower elsewhere */
  OK (r0 = gnn_tensor_gather (a, 0, i0, &error));
  gnn_test_assert_shape (r0, GNN_TEST_SHAPE (3, 2), 2);
  gnn_test_assert_close (r0, GNN_TEST_DATA (3, 1, 0, 1, 3, 4), 6, 0, 0);
  OK (rs = gnn_tensor_gather (a, 0, small, &error));
  gnn_test_assert_close (rs, GNN_TEST_DATA (3), 1, 0, 0);
  /* non-contiguous input: t = a^T (3, 2) */
  OK (t = gnn_tensor_transpose (a, 0, 1, &error));
  OK (rt = gnn_tensor_gather (t, 1, i0, &error));
  gnn_test_assert_close (rt, GNN_TEST_DATA (3, 0, 1, 1, 5, 5), 6, 0, 0);
  /* an empty index */
  OK (e = gnn_tensor_new_zeros (GNN_TEST_SHAPE (2, 0), 2, GNN_DTYPE_INT64, NULL, &error));
  OK (re = gnn_tensor_gather (a, 1, e, &error));
  gnn_test_assert_shape (re, GNN_TEST_SHAPE (2, 0), 2);
}

static void
test_gather_errors (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) a = iota_23 ();
  g_autoptr(GnnTensor) big = INDEX (GNN_TEST_SHAPE (1, 2), 2, 0, 5);
  g_autoptr(GnnTensor) neg = INDEX (GNN_TEST_SHAPE (1, 2), 2, -1, 0);
  g_autoptr(GnnTensor) vec = INDEX (GNN_TEST_SHAPE (2), 1, 0, 0);
  g_autoptr(GnnTensor) wide = INDEX (GNN_TEST_SHAPE (3, 1), 2, 0, 0, 0);
  g_autoptr(GnnTensor) fl = gnn_test_tensor_d (GNN_TEST_DATA (0), 1, GNN_TEST_SHAPE (1, 1), 2);

  g_assert_null (gnn_tensor_gather (a, 1, big, &error));
  assert_error (&error, GNN_ERROR_INDEX, "index 5 is out of bounds for dimension 1 with size 3");
  g_assert_null (gnn_tensor_gather (a, 0, neg, &error));
  assert_error (&error, GNN_ERROR_INDEX, "index -1 is out of bounds for dimension 0 with size 2");
  g_assert_null (gnn_tensor_gather (a, 1, vec, &error));
  assert_error (&error, GNN_ERROR_SHAPE, "Index tensor must have the same number of dimensions as input tensor");
  g_assert_null (gnn_tensor_gather (a, 1, wide, &error));
  assert_error (&error, GNN_ERROR_SHAPE,
                "Size does not match at dimension 0 expected index [3, 1] to be smaller than self [2, 3] apart from dimension 1");
  g_assert_null (gnn_tensor_gather (a, 1, fl, &error));
  assert_error (&error, GNN_ERROR_DTYPE, "gather(): Expected dtype int64 for index");
  g_assert_null (gnn_tensor_gather (a, -3, big, &error));
  assert_error (&error, GNN_ERROR_INDEX, "Dimension out of range");
}

/* ---- one_hot ------------------------------------------------------------------------ */

static void
test_one_hot (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) i = INDEX (GNN_TEST_SHAPE (3), 1, 0, 2, 1);
  g_autoptr(GnnTensor) m = INDEX (GNN_TEST_SHAPE (2, 2), 2, 3, 0, 1, 3);
  g_autoptr(GnnTensor) s = INDEX (NULL, 0, 2);
  g_autoptr(GnnTensor) o = NULL, oi = NULL, om = NULL, os = NULL, e = NULL, oe = NULL;
  g_autoptr(GnnTensor) neg = INDEX (GNN_TEST_SHAPE (2), 1, 0, -1);
  g_autoptr(GnnTensor) fl = gnn_test_tensor_d (GNN_TEST_DATA (0), 1, GNN_TEST_SHAPE (1), 1);

  OK (o = gnn_tensor_one_hot (i, 4, &error));
  g_assert_cmpint (gnn_tensor_get_dtype (o), ==, GNN_DTYPE_INT64);
  gnn_test_assert_shape (o, GNN_TEST_SHAPE (3, 4), 2);
  gnn_test_assert_close (o, GNN_TEST_DATA (1, 0, 0, 0, 0, 0, 1, 0, 0, 1, 0, 0), 12, 0, 0);
  OK (oi = gnn_tensor_one_hot (i, -1, &error));
  gnn_test_assert_shape (oi, GNN_TEST_SHAPE (3, 3), 2);
  gnn_test_assert_close (oi, GNN_TEST_DATA (1, 0, 0, 0, 0, 1, 0, 1, 0), 9, 0, 0);
  OK (om = gnn_tensor_one_hot (m, -1, &error));
  gnn_test_assert_shape (om, GNN_TEST_SHAPE (2, 2, 4), 3);
  gnn_test_assert_close (om, GNN_TEST_DATA (0, 0, 0, 1, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1), 16, 0, 0);
  OK (os = gnn_tensor_one_hot (s, 3, &error));
  gnn_test_assert_shape (os, GNN_TEST_SHAPE (3), 1);
  gnn_test_assert_close (os, GNN_TEST_DATA (0, 0, 1), 3, 0, 0);
  OK (e = gnn_tensor_new_zeros (GNN_TEST_SHAPE (0), 1, GNN_DTYPE_INT64, NULL, &error));
  OK (oe = gnn_tensor_one_hot (e, 5, &error));
  gnn_test_assert_shape (oe, GNN_TEST_SHAPE (0, 5), 2);

  g_assert_null (gnn_tensor_one_hot (e, -1, &error));
  assert_error (&error, GNN_ERROR_INVALID_ARGUMENT, "Can not infer total number of classes from empty tensor.");
  g_assert_null (gnn_tensor_one_hot (neg, 3, &error));
  assert_error (&error, GNN_ERROR_INDEX, "Class values must be non-negative, got -1");
  g_assert_null (gnn_tensor_one_hot (i, 2, &error));
  assert_error (&error, GNN_ERROR_INDEX, "Class values must be smaller than num_classes, got 2 with num_classes 2");
  g_assert_null (gnn_tensor_one_hot (fl, 2, &error));
  assert_error (&error, GNN_ERROR_DTYPE, "one_hot is only applicable to index tensor");
}

/* ---- autograd ----------------------------------------------------------------------- */

static void
test_grad_fn_names (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) a = iota_23 ();
  g_autoptr(GnnTensor) idx = INDEX (GNN_TEST_SHAPE (1), 1, 0);
  g_autoptr(GnnTensor) gidx = INDEX (GNN_TEST_SHAPE (1, 1), 2, 0);
  g_autoptr(GnnTensor) c = NULL, s = NULL, is = NULL, g = NULL, cc = NULL;

  OK (cc = gnn_cat (TENSORS (a, a), 2, 0, &error));
  g_assert_cmpstr (gnn_tensor_get_grad_fn_name (cc), ==, NULL);
  gnn_tensor_set_requires_grad (a, TRUE, &error);
  OK (c = gnn_cat (TENSORS (a, a), 2, 0, &error));
  g_assert_cmpstr (gnn_tensor_get_grad_fn_name (c), ==, "CatBackward0");
  OK (s = gnn_stack (TENSORS (a, a), 2, 0, &error));
  g_assert_cmpstr (gnn_tensor_get_grad_fn_name (s), ==, "StackBackward0");
  OK (is = gnn_tensor_index_select (a, 0, idx, &error));
  g_assert_cmpstr (gnn_tensor_get_grad_fn_name (is), ==, "IndexSelectBackward0");
  OK (g = gnn_tensor_gather (a, 0, gidx, &error));
  g_assert_cmpstr (gnn_tensor_get_grad_fn_name (g), ==, "GatherBackward0");
}

/* cat of a differentiable and a constant tensor: only the first gets a gradient */
static void
test_cat_partial_grad (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) a = iota_23 ();
  g_autoptr(GnnTensor) b = iota_23 ();
  g_autoptr(GnnTensor) f = NULL, c = NULL, w = NULL, p = NULL, s = NULL;

  gnn_tensor_set_requires_grad (a, TRUE, &error);
  /* a float32 input joins a float64 one: its gradient comes back as float32 */
  OK (f = gnn_tensor_to_dtype (b, GNN_DTYPE_FLOAT32, &error));
  gnn_tensor_set_requires_grad (f, TRUE, &error);
  OK (c = gnn_cat (TENSORS (f, a), 2, 1, &error));
  w = gnn_test_tensor_d (GNN_TEST_DATA (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12), 12, GNN_TEST_SHAPE (2, 6), 2);
  OK (p = gnn_tensor_mul (c, w, &error));
  OK (s = gnn_tensor_sum_all (p, &error));
  OK (gnn_tensor_backward (s, NULL, FALSE, &error));
  gnn_test_assert_close (gnn_tensor_get_grad (f), GNN_TEST_DATA (1, 2, 3, 7, 8, 9), 6, 0, 0);
  g_assert_cmpint (gnn_tensor_get_dtype (gnn_tensor_get_grad (f)), ==, GNN_DTYPE_FLOAT32);
  gnn_test_assert_close (gnn_tensor_get_grad (a), GNN_TEST_DATA (4, 5, 6, 10, 11, 12), 6, 0, 0);
  g_assert_null (gnn_tensor_get_grad (b));
}

typedef enum { GC_CAT, GC_CAT_SELF, GC_STACK, GC_INDEX_SELECT, GC_GATHER, GC_GATHER_SMALL } GradCase;

static GnnTensor *
f_index (GnnTensor *x, gpointer data, GError **error)
{
  GradCase which = GPOINTER_TO_INT (data);

  switch (which)
    {
    case GC_CAT:
      {
        g_autoptr(GnnTensor) k = gnn_tensor_new_ones (GNN_TEST_SHAPE (2, 4, 2), 3, GNN_DTYPE_FLOAT64, NULL, error);
        g_autoptr(GnnTensor) t = gnn_tensor_transpose (x, 1, 2, error);
        return gnn_cat (TENSORS (k, t, k), 3, 2, error);
      }
    case GC_CAT_SELF:
      {
        g_autoptr(GnnTensor) sq = gnn_tensor_mul (x, x, error);
        return gnn_cat (TENSORS (x, sq, x), 3, 0, error);
      }
    case GC_STACK:
      {
        g_autoptr(GnnTensor) sq = gnn_tensor_mul (x, x, error);
        return gnn_stack (TENSORS (sq, x), 2, 1, error);
      }
    case GC_INDEX_SELECT:
      {
        /* repeated indices add up */
        g_autoptr(GnnTensor) idx = INDEX (GNN_TEST_SHAPE (5), 1, 3, 0, 3, 3, 1);
        return gnn_tensor_index_select (x, 2, idx, error);
      }
    case GC_GATHER:
      {
        g_autoptr(GnnTensor) idx = INDEX (GNN_TEST_SHAPE (2, 4, 4), 3,
                                          0, 1, 2, 2, 1, 1, 0, 2, 2, 2, 2, 0, 1, 0, 1, 2,
                                          2, 0, 1, 1, 0, 0, 0, 2, 1, 2, 1, 0, 2, 2, 1, 1);
        return gnn_tensor_gather (x, 1, idx, error);
      }
    default:
      {
        /* an index smaller than the input: the rest gets zero gradient */
        g_autoptr(GnnTensor) idx = INDEX (GNN_TEST_SHAPE (1, 2, 3), 3, 3, 3, 0, 1, 2, 3);
        return gnn_tensor_gather (x, 2, idx, error);
      }
    }
}

static void
test_gradcheck (void)
{
  for (int which = GC_CAT; which <= GC_GATHER_SMALL; which++)
    {
      double v[24];
      g_autoptr(GnnTensor) x = NULL;

      for (int i = 0; i < 24; i++)
        v[i] = cos (0.7 * i) + 0.1 * i;
      x = gnn_test_tensor_d (v, 24, GNN_TEST_SHAPE (2, 3, 4), 3);
      gnn_test_gradcheck (f_index, GINT_TO_POINTER (which), x, 1e-6, 1e-7);
    }
}

/* ---- masks: masked_fill, tril, triu ------------------------------------------------- */

/* x (2, 3, 4): masked_fill with a broadcast mask, tril and triu of the batch */
static GnnTensor *
f_masks (GnnTensor *x, gpointer data, GError **error)
{
  g_autoptr(GnnTensor) m = NULL, mask = NULL, a = NULL, b = NULL, c = NULL, ab = NULL;

  OK_OR_NULL (m = gnn_tensor_new_from_int64s ((const gint64[]) { 1, 0, 0, 1, 0, 1, 1, 0, 0, 0, 1, 1 }, 12,
                                              GNN_TEST_SHAPE (3, 4), 2, error));
  OK_OR_NULL (mask = gnn_tensor_ne_scalar (m, 0, error));
  OK_OR_NULL (a = gnn_tensor_masked_fill (x, mask, 2.5, error));
  OK_OR_NULL (b = gnn_tensor_tril (x, -1, error));
  OK_OR_NULL (c = gnn_tensor_triu (x, 1, error));
  OK_OR_NULL (ab = gnn_tensor_mul (a, b, error));
  return gnn_tensor_add (ab, c, 2, error);
}

static void
test_masks (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) x = iota_23 ();
  g_autoptr(GnnTensor) m = INDEX (GNN_TEST_SHAPE (3), 1, 1, 0, 1);
  g_autoptr(GnnTensor) mask = NULL, lo = NULL, up = NULL, f = NULL, v = NULL, ft = NULL, s = NULL;
  double w[24];

  OK (mask = gnn_tensor_gt_scalar (m, 0, &error));
  OK (f = gnn_tensor_masked_fill (x, mask, -1, &error));
  gnn_test_assert_close (f, GNN_TEST_DATA (-1, 1, -1, -1, 4, -1), 6, 0, 0);
  OK (lo = gnn_tensor_tril (x, 0, &error));
  gnn_test_assert_close (lo, GNN_TEST_DATA (0, 0, 0, 3, 4, 0), 6, 0, 0);
  OK (up = gnn_tensor_triu (x, 1, &error));
  gnn_test_assert_close (up, GNN_TEST_DATA (0, 1, 2, 0, 0, 5), 6, 0, 0);
  /* the value as a tensor gets the sum of the gradient where the mask is true */
  v = gnn_test_tensor_d (GNN_TEST_DATA (7), 1, NULL, 0);
  gnn_tensor_set_requires_grad (v, TRUE, NULL);
  OK (ft = gnn_tensor_masked_fill_tensor (x, mask, v, &error));
  gnn_test_assert_close (ft, GNN_TEST_DATA (7, 1, 7, 7, 4, 7), 6, 0, 0);
  OK (s = gnn_tensor_sum_all (ft, &error));
  OK (gnn_tensor_backward (s, NULL, FALSE, &error));
  gnn_test_assert_close (gnn_tensor_get_grad (v), GNN_TEST_DATA (4), 1, 0, 0);
  for (int i = 0; i < 24; i++)
    w[i] = sin (0.9 * i) + 0.2 * i;
  {
    g_autoptr(GnnTensor) x3 = gnn_test_tensor_d (w, 24, GNN_TEST_SHAPE (2, 3, 4), 3);
    gnn_test_gradcheck (f_masks, NULL, x3, 1e-6, 1e-7);
  }
}

static void
test_masks_errors (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) x = iota_23 ();
  g_autoptr(GnnTensor) fmask = gnn_test_tensor_d (GNN_TEST_DATA (1, 0, 1), 3, GNN_TEST_SHAPE (3), 1);
  g_autoptr(GnnTensor) two = INDEX (GNN_TEST_SHAPE (3), 1, 2, 0, 1);
  g_autoptr(GnnTensor) wide = INDEX (GNN_TEST_SHAPE (4), 1, 1, 0, 1, 0);
  g_autoptr(GnnTensor) bmask = NULL;
  g_autoptr(GnnTensor) vec = gnn_test_tensor_d (GNN_TEST_DATA (1, 2), 2, GNN_TEST_SHAPE (2), 1);

  g_assert_null (gnn_tensor_masked_fill (x, fmask, 0, &error));
  assert_error (&error, GNN_ERROR_DTYPE, "boolean masks");
  g_assert_null (gnn_tensor_masked_fill (x, two, 0, &error));
  assert_error (&error, GNN_ERROR_INVALID_ARGUMENT, "0 and 1 values only");
  OK (bmask = gnn_tensor_ne_scalar (wide, 0, &error));
  g_assert_null (gnn_tensor_masked_fill (x, bmask, 0, &error));
  assert_error (&error, GNN_ERROR_SHAPE, "");
  g_assert_null (gnn_tensor_masked_fill_tensor (x, bmask, vec, &error));
  assert_error (&error, GNN_ERROR_SHAPE, "0-dimensional value tensor");
  g_assert_null (gnn_tensor_tril (vec, 0, &error));
  assert_error (&error, GNN_ERROR_INDEX, "Dimension out of range");
  g_assert_null (gnn_tensor_triu (vec, 0, &error));
  assert_error (&error, GNN_ERROR_INDEX, "triu");
}

/* a larger input, to take the kernels' parallel paths, gives the same bits on 1 or 4 threads */
static void
test_large_thread_independent (void)
{
  g_autoptr(GError) error = NULL;
  const gint64 rows = 400, cols = 300;
  g_autofree double *v = g_new (double, rows * cols);
  g_autofree gint64 *iv = g_new (gint64, rows * cols);
  g_autoptr(GnnTensor) x = NULL, idx = NULL, sel = NULL;
  double *first[2] = { NULL, NULL };
  int saved = gnn_get_num_threads ();

  for (gint64 i = 0; i < rows * cols; i++)
    {
      v[i] = sin (0.01 * (double) i);
      iv[i] = (i * 7919) % rows;
    }
  OK (x = gnn_tensor_new_from_doubles (v, rows * cols, GNN_TEST_SHAPE (rows, cols), 2, &error));
  OK (idx = gnn_tensor_new_from_int64s (iv, rows * cols, GNN_TEST_SHAPE (rows, cols), 2, &error));
  OK (sel = gnn_tensor_new_from_int64s (iv, rows, GNN_TEST_SHAPE (rows), 1, &error));
  gnn_tensor_set_requires_grad (x, TRUE, &error);
  for (int threads = 1; threads <= 4; threads += 3)
    {
      g_autoptr(GnnTensor) g = NULL, s = NULL, t = NULL, u = NULL;
      gnn_set_num_threads (threads);
      gnn_tensor_set_grad (x, NULL, &error);
      OK (g = gnn_tensor_gather (x, 0, idx, &error));
      OK (s = gnn_tensor_index_select (x, 0, sel, &error));
      OK (t = gnn_tensor_mul (g, s, &error));
      OK (u = gnn_tensor_sum_all (t, &error));
      OK (gnn_tensor_backward (u, NULL, FALSE, &error));
      {
        GnnTensor *outs[2] = { g, gnn_tensor_get_grad (x) };
        for (int k = 0; k < 2; k++)
          {
            gsize m;
            double *got = gnn_tensor_to_doubles (outs[k], &m, &error);
            g_assert_no_error (error);
            if (first[k] == NULL)
              first[k] = got;
            else
              {
                g_assert_cmpmem (first[k], m * sizeof (double), got, m * sizeof (double));
                g_free (got);
              }
          }
      }
    }
  /* spot check: out[i][j] = x[idx[i][j]][j] */
  {
    g_autofree double *g = NULL;
    g_autoptr(GnnTensor) gg = NULL;
    gsize m;
    OK (gg = gnn_tensor_gather (x, 0, idx, &error));
    g = gnn_tensor_to_doubles (gg, &m, &error);
    for (gint64 k = 0; k < rows * cols; k += 997)
      g_assert_cmpfloat (g[k], ==, v[iv[k] * cols + k % cols]);
  }
  gnn_set_num_threads (saved);
  g_free (first[0]);
  g_free (first[1]);
}

/* ---- scatter, scatter_add, scatter_reduce ------------------------------------------- */

static void
test_scatter (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) a = iota_23 ();
  g_autoptr(GnnTensor) src = gnn_test_tensor_d (GNN_TEST_DATA (10, 20, 30, 40), 4, GNN_TEST_SHAPE (2, 2), 2);
  /* dim 1, rows of two: row 0 writes 10 at 2 and 20 at 0; row 1 writes 30 and 40 at 1 */
  g_autoptr(GnnTensor) idx = INDEX (GNN_TEST_SHAPE (2, 2), 2, 2, 0, 1, 1);
  g_autoptr(GnnTensor) idx0 = INDEX (GNN_TEST_SHAPE (1, 2), 2, 1, 0);
  g_autoptr(GnnTensor) s = NULL, v = NULL, add = NULL, mean = NULL, amax = NULL, prod = NULL, part = NULL;

  OK (s = gnn_tensor_scatter (a, 1, idx, src, NULL, &error));
  gnn_test_assert_close (s, GNN_TEST_DATA (20, 1, 10, 3, 40, 5), 6, 0, 0);   /* the last of 30, 40 stays */
  OK (v = gnn_tensor_scatter_value (a, 0, idx0, -1, NULL, &error));
  gnn_test_assert_close (v, GNN_TEST_DATA (0, -1, 2, -1, 4, 5), 6, 0, 0);
  OK (add = gnn_tensor_scatter_add (a, 1, idx, src, &error));
  gnn_test_assert_close (add, GNN_TEST_DATA (20, 1, 12, 3, 74, 5), 6, 0, 0);
  OK (mean = gnn_tensor_scatter_reduce (a, 1, idx, src, "mean", FALSE, &error));
  gnn_test_assert_close (mean, GNN_TEST_DATA (20, 1, 10, 3, 35, 5), 6, 0, 0);
  OK (amax = gnn_tensor_scatter_reduce (a, 1, idx, src, "amax", TRUE, &error));
  gnn_test_assert_close (amax, GNN_TEST_DATA (20, 1, 10, 3, 40, 5), 6, 0, 0);
  OK (prod = gnn_tensor_scatter_reduce (a, 1, idx, src, "prod", TRUE, &error));
  gnn_test_assert_close (prod, GNN_TEST_DATA (0, 1, 20, 3, 4 * 30 * 40, 5), 6, 0, 0);
  /* an index covering part of self: the rest is kept */
  OK (part = gnn_tensor_scatter_add (a, 1, idx0, src, &error));
  gnn_test_assert_close (part, GNN_TEST_DATA (20, 11, 2, 3, 4, 5), 6, 0, 0);
  g_assert_cmpstr (gnn_tensor_get_grad_fn_name (s), ==, NULL);
}

static void
test_scatter_errors (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) a = iota_23 ();
  g_autoptr(GnnTensor) src = gnn_test_tensor_d (GNN_TEST_DATA (10, 20), 2, GNN_TEST_SHAPE (1, 2), 2);
  g_autoptr(GnnTensor) big = INDEX (GNN_TEST_SHAPE (1, 2), 2, 0, 3);
  g_autoptr(GnnTensor) neg = INDEX (GNN_TEST_SHAPE (1, 2), 2, -3, 0);
  g_autoptr(GnnTensor) wide = INDEX (GNN_TEST_SHAPE (1, 3), 2, 0, 0, 0);
  g_autoptr(GnnTensor) vec = INDEX (GNN_TEST_SHAPE (2), 1, 0, 0);
  g_autoptr(GnnTensor) ok = INDEX (GNN_TEST_SHAPE (1, 2), 2, 0, 1);
  g_autoptr(GnnTensor) fl = gnn_tensor_to_dtype (src, GNN_DTYPE_FLOAT32, &error);

  /* never a write out of bounds: each is refused before any kernel runs (valgrind checks) */
  g_assert_null (gnn_tensor_scatter (a, 1, big, src, NULL, &error));
  assert_error (&error, GNN_ERROR_INDEX, "scatter(): index 3 is out of bounds for dimension 1 with size 3");
  g_assert_null (gnn_tensor_scatter_add (a, 0, neg, src, &error));
  assert_error (&error, GNN_ERROR_INDEX, "scatter_add(): index -3 is out of bounds for dimension 0 with size 2");
  g_assert_null (gnn_tensor_scatter_reduce (a, 1, big, src, "amax", FALSE, &error));
  assert_error (&error, GNN_ERROR_INDEX, "scatter_reduce(): index 3 is out of bounds for dimension 1 with size 3");
  g_assert_null (gnn_tensor_scatter_value (a, 0, big, 1, NULL, &error));
  assert_error (&error, GNN_ERROR_INDEX, "scatter(): index 3 is out of bounds for dimension 0 with size 2");
  g_assert_null (gnn_tensor_scatter (a, 1, wide, src, NULL, &error));
  assert_error (&error, GNN_ERROR_SHAPE, "Expected index [1, 3] to be smaller than self [2, 3] apart from "
                "dimension 1 and to be smaller size than src [1, 2]");
  g_assert_null (gnn_tensor_scatter (a, 1, vec, src, NULL, &error));
  assert_error (&error, GNN_ERROR_SHAPE, "same number of dimensions as self tensor");
  g_assert_null (gnn_tensor_scatter (a, 1, ok, fl, NULL, &error));
  assert_error (&error, GNN_ERROR_DTYPE, "Expected self.dtype to be equal to src.dtype (got float64 and float32)");
  g_assert_null (gnn_tensor_scatter (a, 1, ok, src, "sum", &error));
  assert_error (&error, GNN_ERROR_INVALID_ARGUMENT, "reduce argument must be either add or multiply");
  g_assert_null (gnn_tensor_scatter_reduce (a, 1, ok, src, "max", TRUE, &error));
  assert_error (&error, GNN_ERROR_INVALID_ARGUMENT, "must be either sum, prod, mean, amax or amin, got 'max'");
}

static void
test_index_copy_fill (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) a = iota_23 ();
  g_autoptr(GnnTensor) src = gnn_test_tensor_d (GNN_TEST_DATA (10, 20, 30, 40), 4, GNN_TEST_SHAPE (2, 2), 2);
  g_autoptr(GnnTensor) pos = INDEX (GNN_TEST_SHAPE (2), 1, 2, 0);
  g_autoptr(GnnTensor) neg = INDEX (GNN_TEST_SHAPE (1), 1, -1);
  g_autoptr(GnnTensor) big = INDEX (GNN_TEST_SHAPE (2), 1, 0, 3);
  g_autoptr(GnnTensor) low = INDEX (GNN_TEST_SHAPE (1), 1, -4);
  g_autoptr(GnnTensor) c = NULL, f = NULL;

  OK (c = gnn_tensor_index_copy (a, 1, pos, src, &error));
  gnn_test_assert_close (c, GNN_TEST_DATA (20, 1, 10, 40, 4, 30), 6, 0, 0);
  OK (f = gnn_tensor_index_fill (a, 1, neg, -1, &error));
  gnn_test_assert_close (f, GNN_TEST_DATA (0, 1, -1, 3, 4, -1), 6, 0, 0);
  /* never a write out of bounds */
  g_assert_null (gnn_tensor_index_copy (a, 1, big, src, &error));
  assert_error (&error, GNN_ERROR_INDEX, "index_copy_(): index 3 is out of bounds for dimension 1 with size 3");
  g_assert_null (gnn_tensor_index_copy (a, 1, neg, src, &error));
  assert_error (&error, GNN_ERROR_INDEX, "index_copy_(): index -1 is out of bounds for dimension 1 with size 3");
  g_assert_null (gnn_tensor_index_copy (a, 0, pos, src, &error));
  assert_error (&error, GNN_ERROR_INDEX, "index_copy_(): index 2 is out of bounds for dimension 0 with size 2");
  g_assert_null (gnn_tensor_index_fill (a, 1, low, 0, &error));
  assert_error (&error, GNN_ERROR_INDEX, "index_fill_(): index -4 is out of bounds for dimension 1 with size 3");
  g_assert_null (gnn_tensor_index_fill (a, 0, big, 0, &error));
  assert_error (&error, GNN_ERROR_INDEX, "index_fill_(): index 3 is out of bounds for dimension 0 with size 2");
  g_assert_null (gnn_tensor_index_fill_tensor (a, 0, neg, src, &error));
  assert_error (&error, GNN_ERROR_SHAPE, "0-dimensional value tensor");
}

/* the reduce= forms of scatter have no derivative, as in torch: backward says so */
static void
test_scatter_reduce_form_no_grad (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) a = iota_23 ();
  g_autoptr(GnnTensor) ok = INDEX (GNN_TEST_SHAPE (1, 2), 2, 0, 1);
  g_autoptr(GnnTensor) y = NULL, loss = NULL;

  OK (gnn_tensor_set_requires_grad (a, TRUE, &error));
  OK (y = gnn_tensor_scatter_value (a, 1, ok, 2, "multiply", &error));
  g_assert_cmpstr (gnn_tensor_get_grad_fn_name (y), ==, "NotImplemented");
  OK (loss = gnn_tensor_sum_all (y, &error));
  g_assert_false (gnn_tensor_backward (loss, NULL, FALSE, &error));
  assert_error (&error, GNN_ERROR_NOT_SUPPORTED, "derivative for aten::scatter is not implemented");
}

typedef enum {
  SC_SCATTER, SC_SCATTER_VALUE, SC_ADD, SC_SUM, SC_PROD, SC_MEAN, SC_AMAX, SC_AMIN,
  SC_PROD_EXCLUDE, SC_MEAN_EXCLUDE, SC_AMAX_EXCLUDE, SC_INDEX_COPY, SC_INDEX_FILL, SC_N
} ScatterCase;

/* x (2, 3, 4) as self and, squared, as src, along dim 1: an index (2, 2, 4) with distinct
 * places per column for scatter, one (2, 3, 3) with repeats for the reductions */
static GnnTensor *
f_scatter (GnnTensor *x, gpointer data, GError **error)
{
  static const char *const reduce[] = { NULL, NULL, NULL, "sum", "prod", "mean", "amax", "amin", "prod", "mean", "amax",
                                        NULL, NULL };
  g_autoptr(GnnTensor) slices = INDEX (GNN_TEST_SHAPE (2), 1, 2, -3);
  ScatterCase which = GPOINTER_TO_INT (data);
  g_autoptr(GnnTensor) sq = NULL;
  g_autoptr(GnnTensor) once = INDEX (GNN_TEST_SHAPE (2, 2, 4), 3,
                                     0, 1, 2, 2, 1, 2, 0, 0,
                                     2, 0, 1, 1, 0, 1, 2, 0);
  g_autoptr(GnnTensor) reps = INDEX (GNN_TEST_SHAPE (2, 3, 3), 3,
                                     0, 1, 1, 0, 2, 1, 0, 2, 1,
                                     2, 2, 0, 1, 2, 0, 2, 2, 2);

  g_autoptr(GnnTensor) src = NULL;

  /* src of the index's shape (torch's gradient of src needs it) */
  OK_OR_NULL (sq = gnn_tensor_mul (x, x, error));
  if (which == SC_SCATTER)
    OK_OR_NULL (src = gnn_tensor_narrow (sq, 1, 0, 2, error));
  else
    OK_OR_NULL (src = gnn_tensor_narrow (sq, 2, 1, 3, error));
  switch (which)
    {
    case SC_SCATTER: return gnn_tensor_scatter (x, 1, once, src, NULL, error);
    case SC_SCATTER_VALUE: return gnn_tensor_scatter_value (x, -2, once, 0.5, NULL, error);
    case SC_ADD: return gnn_tensor_scatter_add (x, 1, reps, src, error);
    case SC_INDEX_COPY:
      {
        g_autoptr(GnnTensor) pos = INDEX (GNN_TEST_SHAPE (2), 1, 2, 0);
        g_autoptr(GnnTensor) rows = NULL;
        OK_OR_NULL (rows = gnn_tensor_narrow (sq, 1, 1, 2, error));
        return gnn_tensor_index_copy (x, 1, pos, rows, error);
      }
    case SC_INDEX_FILL: return gnn_tensor_index_fill (sq, 2, slices, -0.5, error);
    default: return gnn_tensor_scatter_reduce (x, 1, reps, src, reduce[which], which < SC_PROD_EXCLUDE, error);
    }
}

static void
test_scatter_gradcheck (void)
{
  for (int which = 0; which < SC_N; which++)
    {
      double v[24];
      g_autoptr(GnnTensor) x = NULL;

      for (int i = 0; i < 24; i++)
        v[i] = 0.6 + cos (0.7 * i) * 0.3 + 0.05 * i;   /* distinct, no zeros, no ties with squares */
      x = gnn_test_tensor_d (v, 24, GNN_TEST_SHAPE (2, 3, 4), 3);
      gnn_test_gradcheck (f_scatter, GINT_TO_POINTER (which), x, 1e-6, 1e-7);
      /* scatter of a value is linear in x: its gradient has no history to check */
      if (which != SC_SCATTER_VALUE)
        gnn_test_gradgradcheck (f_scatter, GINT_TO_POINTER (which), x, 1e-6, 1e-6);
    }
}

/* the squares of x (2, 3, 4) gathered along dim 2 by an index (1, 2, 3) */
static GnnTensor *
f_gather_squares (GnnTensor *x, gpointer data, GError **error)
{
  g_autoptr(GnnTensor) idx = INDEX (GNN_TEST_SHAPE (1, 2, 3), 3, 3, 3, 0, 1, 2, 3);
  g_autoptr(GnnTensor) sq = gnn_tensor_mul (x, x, error);

  return sq ? gnn_tensor_gather (sq, 2, idx, error) : NULL;
}

/* gather's gradient is scatter_add's, so it has a second derivative now */
static void
test_gather_gradgrad (void)
{
  double v[24];
  g_autoptr(GnnTensor) x = NULL;

  for (int i = 0; i < 24; i++)
    v[i] = cos (0.7 * i) + 0.1 * i;
  x = gnn_test_tensor_d (v, 24, GNN_TEST_SHAPE (2, 3, 4), 3);
  gnn_test_gradgradcheck (f_gather_squares, NULL, x, 1e-6, 1e-6);
}

int
main (int argc, char *argv[])
{
  gnn_test_init (&argc, &argv);
  g_test_add_func ("/ops/index/cat", test_cat);
  g_test_add_func ("/ops/index/cat-errors", test_cat_errors);
  g_test_add_func ("/ops/index/stack", test_stack);
  g_test_add_func ("/ops/index/index-select", test_index_select);
  g_test_add_func ("/ops/index/index-select-errors", test_index_select_errors);
  g_test_add_func ("/ops/index/gather", test_gather);
  g_test_add_func ("/ops/index/gather-errors", test_gather_errors);
  g_test_add_func ("/ops/index/one-hot", test_one_hot);
  g_test_add_func ("/ops/index/grad-fn-names", test_grad_fn_names);
  g_test_add_func ("/ops/index/cat-partial-grad", test_cat_partial_grad);
  g_test_add_func ("/ops/index/gradcheck", test_gradcheck);
  g_test_add_func ("/ops/index/large-thread-independent", test_large_thread_independent);
  g_test_add_func ("/ops/index/masks", test_masks);
  g_test_add_func ("/ops/index/masks-errors", test_masks_errors);
  g_test_add_func ("/ops/index/scatter", test_scatter);
  g_test_add_func ("/ops/index/scatter-errors", test_scatter_errors);
  g_test_add_func ("/ops/index/scatter-reduce-form-no-grad", test_scatter_reduce_form_no_grad);
  g_test_add_func ("/ops/index/index-copy-fill", test_index_copy_fill);
  g_test_add_func ("/ops/index/scatter-gradcheck", test_scatter_gradcheck);
  g_test_add_func ("/ops/index/gather-gradgrad", test_gather_gradgrad);
  return g_test_run ();
}
