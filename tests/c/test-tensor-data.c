/* test-tensor-data.c: tensors over memory the caller owns (gnn_tensor_new_from_data) and the
 * host address of a tensor's elements (gnn_tensor_get_data_address), as numpy uses them
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "gnn-test-util.h"

static void
test_contiguous (void)
{
  float data[6] = { 1, 2, 3, 4, 5, 6 };
  GObject *owner = g_object_new (G_TYPE_OBJECT, NULL);
  g_autoptr(GError) error = NULL;
  GnnTensor *t, *row;

  g_object_add_weak_pointer (owner, (gpointer *) &owner);
  t = gnn_tensor_new_from_data ((guint64) (guintptr) data, GNN_DTYPE_FLOAT32, GNN_TEST_SHAPE (2, 3), 2,
                                NULL, 0, owner, &error);
  g_object_unref (owner);   /* the storage holds it now */
  g_assert_no_error (error);
  gnn_test_assert_shape (t, GNN_TEST_SHAPE (2, 3), 2);
  g_assert_true (gnn_tensor_is_contiguous (t));
  g_assert_cmpuint (gnn_tensor_get_data_address (t, &error), ==, (guint64) (guintptr) data);
  g_assert_no_error (error);
  gnn_test_assert_close (t, GNN_TEST_DATA (1, 2, 3, 4, 5, 6), 6, 0, 0);

  /* in-place ops write the caller's memory; a view's address is offset into it */
  g_assert_true (gnn_tensor_mul_scalar_ (t, 2.0, &error));
  g_assert_no_error (error);
  g_assert_cmpfloat (data[5], ==, 12.0f);
  row = gnn_tensor_select (t, 0, 1, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (gnn_tensor_get_data_address (row, NULL), ==, (guint64) (guintptr) (data + 3));

  /* the owner goes when the last tensor using the memory goes */
  g_object_unref (t);
  g_assert_nonnull (owner);
  data[4] = -1;
  gnn_test_assert_close (row, GNN_TEST_DATA (8, -1, 12), 3, 0, 0);
  g_object_unref (row);
  g_assert_null (owner);
}

static void
test_strided (void)
{
  double data[6] = { 1, 2, 3, 4, 5, 6 };
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) t = NULL;
  g_autoptr(GnnTensor) sum = NULL;
  guint ndim;
  const gint64 *strides;

  /* the transpose of a 2x3 row-major block, without an owner */
  t = gnn_tensor_new_from_data ((guint64) (guintptr) data, GNN_DTYPE_FLOAT64, GNN_TEST_SHAPE (3, 2), 2,
                                GNN_TEST_SHAPE (1, 3), 2, NULL, &error);
  g_assert_no_error (error);
  strides = gnn_tensor_get_strides (t, &ndim);
  g_assert_cmpuint (ndim, ==, 2);
  g_assert_cmpint (strides[0], ==, 1);
  g_assert_cmpint (strides[1], ==, 3);
  g_assert_false (gnn_tensor_is_contiguous (t));
  gnn_test_assert_close (t, GNN_TEST_DATA (1, 4, 2, 5, 3, 6), 6, 0, 0);
  sum = gnn_tensor_sum_all (t, &error);
  g_assert_no_error (error);
  g_assert_cmpfloat (gnn_tensor_item (sum, NULL), ==, 21.0);
}

static void
test_scalar_and_empty (void)
{
  gint64 value = 42;
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) s = NULL;
  g_autoptr(GnnTensor) e = NULL;

  s = gnn_tensor_new_from_data ((guint64) (guintptr) &value, GNN_DTYPE_INT64, NULL, 0, NULL, 0,
                                NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (gnn_tensor_get_ndim (s), ==, 0);
  g_assert_cmpfloat (gnn_tensor_item (s, NULL), ==, 42.0);
  /* no element: no memory is read, and address 0 is fine */
  e = gnn_tensor_new_from_data (0, GNN_DTYPE_FLOAT32, GNN_TEST_SHAPE (0, 4), 2, NULL, 0,
                                NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpint (gnn_tensor_get_numel (e), ==, 0);
}

static void
test_errors (void)
{
  float data[4] = { 0 };
  g_autoptr(GObject) owner = g_object_new (G_TYPE_OBJECT, NULL);
  struct {
    guint64 address;
    const gint64 *strides;
    guint n_strides;
    const gint64 *shape;
    guint ndim;
    int code;
    const char *message;
  } cases[] = {
    { (guint64) (guintptr) data + 1, NULL, 0, GNN_TEST_SHAPE (2), 1, GNN_ERROR_INVALID_ARGUMENT,
      "Expected an address aligned to 4 bytes for float32" },
    { (guint64) (guintptr) data, GNN_TEST_SHAPE (-1), 1, GNN_TEST_SHAPE (2), 1, GNN_ERROR_INVALID_ARGUMENT,
      "Expected non-negative strides, got -1 for dimension 0" },
    { (guint64) (guintptr) data, GNN_TEST_SHAPE (1), 1, GNN_TEST_SHAPE (2, 2), 2, GNN_ERROR_SHAPE,
      "Expected 2 strides for a tensor of 2 dimensions, got 1" },
    { (guint64) (guintptr) data, NULL, 0, GNN_TEST_SHAPE (-2), 1, GNN_ERROR_SHAPE,
      "Invalid size -2 for dimension 0" },
    { 0, NULL, 0, GNN_TEST_SHAPE (2), 1, GNN_ERROR_INVALID_ARGUMENT,
      "Expected the address of 2 elements, got 0" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GError) error = NULL;
      GnnTensor *t = gnn_tensor_new_from_data (cases[i].address, GNN_DTYPE_FLOAT32, cases[i].shape,
                                               cases[i].ndim, cases[i].strides, cases[i].n_strides,
                                               owner, &error);
      g_assert_null (t);
      g_assert_error (error, GNN_ERROR, cases[i].code);
      g_assert_true (g_str_has_prefix (error->message, cases[i].message));
      /* no reference to the owner is kept on failure */
      g_assert_cmpuint (owner->ref_count, ==, 1);
    }
}

static void
test_address_of_views (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) t = gnn_tensor_new_arange (0, 12, 1, GNN_DTYPE_FLOAT64, NULL, &error);
  g_autoptr(GnnTensor) m = NULL;
  g_autoptr(GnnTensor) v = NULL;
  guint64 base;
  const double *p;

  g_assert_no_error (error);
  m = gnn_tensor_view (t, GNN_TEST_SHAPE (3, 4), 2, &error);
  g_assert_no_error (error);
  v = gnn_tensor_slice (m, 1, 1, 4, 2, &error);   /* m[:, 1:4:2] */
  g_assert_no_error (error);
  base = gnn_tensor_get_data_address (t, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (base, !=, 0);
  g_assert_cmpuint (gnn_tensor_get_data_address (v, NULL), ==, base + sizeof (double));
  p = (const double *) (guintptr) gnn_tensor_get_data_address (v, NULL);
  g_assert_cmpfloat (p[0], ==, 1.0);
  g_assert_cmpfloat (p[2], ==, 3.0);
  g_assert_cmpfloat (p[4], ==, 5.0);
}

int
main (int argc, char **argv)
{
  gnn_test_init (&argc, &argv);
  g_test_add_func ("/tensor/from-data/contiguous", test_contiguous);
  g_test_add_func ("/tensor/from-data/strided", test_strided);
  g_test_add_func ("/tensor/from-data/scalar-and-empty", test_scalar_and_empty);
  g_test_add_func ("/tensor/from-data/errors", test_errors);
  g_test_add_func ("/tensor/data-address/views", test_address_of_views);
  return g_test_run ();
}
