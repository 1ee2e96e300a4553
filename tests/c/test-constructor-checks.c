/* test-constructor-checks.c: hyperparameters refused with a GError by the _new constructors,
 * and by the first use of an object that g_object_new made with them (never a warning and a
 * fallback); sizes whose products overflow int64 refused by the constructors and views */
#include "gnn-test-util.h"

static GnnTensorDataset *
three_rows (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) x = gnn_tensor_new_zeros ((const gint64[]) { 3, 2 }, 2, GNN_DTYPE_FLOAT32, NULL, &error);
  GnnTensorDataset *ds;

  g_assert_no_error (error);
  ds = gnn_tensor_dataset_new (&x, 1, &error);
  g_assert_no_error (error);
  return ds;
}

#define BATCH_SIZE_ERROR "batch_size should be a positive integer value, but got batch_size=0"

static void
test_data_loader_batch_size (void)
{
  g_autoptr(GnnTensorDataset) ds = three_rows ();
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnDataLoader) none = gnn_data_loader_new (GNN_DATASET (ds), 0, FALSE, 0, FALSE, &error);
  g_autoptr(GnnDataLoader) made = NULL;
  g_autoptr(GnnDataLoaderIter) pass = NULL;
  g_autoptr(GPtrArray) batch = NULL;

  g_assert_null (none);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_assert_cmpstr (error->message, ==, BATCH_SIZE_ERROR);
  g_clear_error (&error);

  /* g_object_new takes the value without a warning (fatal here); the first pass and batch fail */
  made = g_object_new (GNN_TYPE_DATA_LOADER, "dataset", ds, "batch-size", 0, NULL);
  g_assert_cmpuint (gnn_data_loader_get_batch_size (made), ==, 0);
  pass = gnn_data_loader_iterate (made);
  batch = gnn_data_loader_iter_next (pass, &error);
  g_assert_null (batch);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_assert_cmpstr (error->message, ==, BATCH_SIZE_ERROR);
  g_clear_error (&error);
  g_assert_null (gnn_data_loader_iter_next (pass, &error));   /* then the pass has ended */
  g_assert_no_error (error);
  g_assert_null (gnn_data_loader_get_batch (made, 0, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_assert_cmpstr (error->message, ==, BATCH_SIZE_ERROR);
}

static void
test_tensor_dataset_without_tensors (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensorDataset) ds = gnn_tensor_dataset_new (NULL, 0, &error);
  g_autoptr(GnnDataLoader) loader = NULL;
  g_autoptr(GnnDataLoaderIter) pass = NULL;

  g_assert_no_error (error);
  g_assert_nonnull (ds);
  g_assert_cmpuint (gnn_dataset_get_length (GNN_DATASET (ds)), ==, 0);
  g_assert_cmpuint (gnn_tensor_dataset_get_n_tensors (ds), ==, 0);
  loader = gnn_data_loader_new (GNN_DATASET (ds), 4, TRUE, 1, FALSE, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (loader)), ==, 0);
  pass = gnn_data_loader_iterate (loader);
  g_assert_null (gnn_data_loader_iter_next (pass, &error));
  g_assert_no_error (error);
}

static void
test_conv2d_negative_channels (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnConv2d) none = gnn_conv2d_new (3, -1, (const gint64[]) { 3, 3 }, NULL, NULL, NULL, 1, TRUE,
                                              GNN_DTYPE_FLOAT32, &error);
  g_autoptr(GnnModule) made = NULL;
  g_autoptr(GnnTensor) x = NULL;
  g_autoptr(GnnArgs) in = NULL, out = NULL;

  g_assert_null (none);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_SHAPE);
  g_assert_nonnull (strstr (error->message, "Trying to create tensor with negative dimension: out_channels=-1"));
  g_clear_error (&error);

  made = g_object_new (GNN_TYPE_CONV2D, "in-channels", 3, "out-channels", -1,
                       "kernel-size", g_variant_new_fixed_array (G_VARIANT_TYPE_INT64, (const gint64[]) { 3, 3 },
                                                                 2, sizeof (gint64)), NULL);
  x = gnn_tensor_new_zeros ((const gint64[]) { 1, 3, 5, 5 }, 4, GNN_DTYPE_FLOAT32, NULL, &error);
  g_assert_no_error (error);
  in = gnn_args_new_tensor (x);
  out = gnn_module_forward (made, in, &error);
  g_assert_null (out);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_SHAPE);
  g_assert_nonnull (strstr (error->message, "Trying to create tensor with negative dimension: out_channels=-1"));
}

static void
test_binary_cross_entropy_range (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) x = gnn_tensor_new_from_doubles ((const double[]) { 0.5, 1.5 }, 2, (const gint64[]) { 2 }, 1,
                                                         &error);
  g_autoptr(GnnTensor) nan = gnn_tensor_new_from_doubles ((const double[]) { NAN, 0.5 }, 2, (const gint64[]) { 2 },
                                                           1, &error);
  g_autoptr(GnnTensor) t = gnn_tensor_new_from_doubles ((const double[]) { 1, 0 }, 2, (const gint64[]) { 2 }, 1,
                                                         &error);
  g_autoptr(GnnTensor) loss = NULL;

  g_assert_no_error (error);
  loss = gnn_tensor_binary_cross_entropy (x, t, NULL, GNN_REDUCTION_MEAN, &error);
  g_assert_null (loss);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "all elements of input should be between 0 and 1"));
  g_clear_error (&error);
  loss = gnn_tensor_binary_cross_entropy (nan, t, NULL, GNN_REDUCTION_SUM, &error);
  g_assert_null (loss);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
}

static void
test_size_overflow (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) t = gnn_tensor_new_zeros ((const gint64[]) { (G_GINT64_CONSTANT (1) << 62) + 1 }, 1,
                                                 GNN_DTYPE_FLOAT32, NULL, &error);
  g_autoptr(GnnTensor) four = NULL, r = NULL, one = NULL, e = NULL, scalar = NULL;

  g_assert_null (t);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_SHAPE);
  g_assert_cmpstr (error->message, ==, "Storage size calculation overflowed with sizes=[4611686018427387905] "
                   "(its elements of 4 bytes overflow int64)");
  g_clear_error (&error);

  t = gnn_tensor_new_empty ((const gint64[]) { G_GINT64_CONSTANT (1) << 32, G_GINT64_CONSTANT (1) << 32 }, 2,
                            GNN_DTYPE_UINT8, NULL, &error);
  g_assert_null (t);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_SHAPE);
  g_clear_error (&error);

  four = gnn_tensor_new_zeros ((const gint64[]) { 4 }, 1, GNN_DTYPE_FLOAT32, NULL, &error);
  g_assert_no_error (error);
  r = gnn_tensor_reshape (four, (const gint64[]) { (G_GINT64_CONSTANT (1) << 62) + 1, 4 }, 2, &error);
  g_assert_null (r);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_SHAPE);
  g_assert_nonnull (strstr (error->message, "overflow int64"));
  g_clear_error (&error);

  one = gnn_tensor_new_zeros ((const gint64[]) { 1 }, 1, GNN_DTYPE_FLOAT32, NULL, &error);
  g_assert_no_error (error);
  e = gnn_tensor_expand (one, (const gint64[]) { G_GINT64_CONSTANT (1) << 32, G_GINT64_CONSTANT (1) << 32 }, 2, &error);
  g_assert_null (e);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_SHAPE);
  g_assert_nonnull (strstr (error->message, "numel: integer multiplication overflow"));
  g_clear_error (&error);

  /* a 0-d shape may come as NULL */
  scalar = gnn_tensor_new_zeros (NULL, 0, GNN_DTYPE_FLOAT64, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpint (gnn_tensor_get_numel (scalar), ==, 1);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/constructor-checks/data-loader-batch-size", test_data_loader_batch_size);
  g_test_add_func ("/constructor-checks/tensor-dataset-without-tensors", test_tensor_dataset_without_tensors);
  g_test_add_func ("/constructor-checks/conv2d-negative-channels", test_conv2d_negative_channels);
  g_test_add_func ("/constructor-checks/binary-cross-entropy-range", test_binary_cross_entropy_range);
  g_test_add_func ("/constructor-checks/size-overflow", test_size_overflow);
  return g_test_run ();
}
