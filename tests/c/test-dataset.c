/* test-dataset.c: TensorDataset, the stacking collate of other datasets, Normalize, and the
 * DataLoader's batches, orders and errors */
#include "config.h"

#include "gnn-test-util.h"

#define FASHION_MNIST_DIR "/usr/share/datasets/fashion-mnist"

/* a dataset without get_batch: sample i is (x = [i, 2i], y = i % 3) */
#define TEST_TYPE_PAIRS (test_pairs_get_type ())
G_DECLARE_FINAL_TYPE (TestPairs, test_pairs, TEST, PAIRS, GObject)

struct _TestPairs
{
  GObject parent_instance;
  guint n;
};

static guint
pairs_get_length (GnnDataset *d)
{
  return TEST_PAIRS (d)->n;
}

static gboolean
pairs_get_item (GnnDataset *d, guint index, GListStore *sample, GError **error)
{
  g_autoptr(GnnTensor) x = gnn_tensor_new_from_doubles ((const double[]) { index, 2.0 * index }, 2,
                                                        GNN_TEST_SHAPE (2), 1, error);
  g_autoptr(GnnTensor) y = gnn_tensor_new_from_int64s ((const gint64[]) { index % 3 }, 1, NULL, 0, error);

  g_list_store_append (sample, x);
  g_list_store_append (sample, y);
  return TRUE;
}

static void
pairs_iface_init (GnnDatasetInterface *iface)
{
  iface->get_length = pairs_get_length;
  iface->fill_item = pairs_get_item;
}

G_DEFINE_FINAL_TYPE_WITH_CODE (TestPairs, test_pairs, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (GNN_TYPE_DATASET, pairs_iface_init))

static void test_pairs_class_init (TestPairsClass *klass) {}
static void test_pairs_init (TestPairs *self) { self->n = 7; }

static GnnTensorDataset *
ten_rows (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) x = gnn_tensor_new_arange (0, 20, 1, GNN_DTYPE_FLOAT32, NULL, &error);
  g_autoptr(GnnTensor) x2 = gnn_tensor_reshape (x, GNN_TEST_SHAPE (10, 2), 2, &error);
  g_autoptr(GnnTensor) y = gnn_tensor_new_arange (0, 10, 1, GNN_DTYPE_INT64, NULL, &error);
  GnnTensorDataset *ds = gnn_tensor_dataset_new ((GnnTensor *[]) { x2, y }, 2, &error);

  g_assert_no_error (error);
  return ds;
}

static void
test_tensor_dataset (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensorDataset) ds = ten_rows ();
  g_autoptr(GPtrArray) item = NULL;
  g_autoptr(GPtrArray) batch = NULL;
  g_autoptr(GPtrArray) none = NULL;
  g_autoptr(GnnTensor) a = gnn_tensor_new_zeros (GNN_TEST_SHAPE (3, 2), 2, GNN_DTYPE_FLOAT32, NULL, &error);
  g_autoptr(GnnTensor) b = gnn_tensor_new_zeros (GNN_TEST_SHAPE (4), 1, GNN_DTYPE_FLOAT32, NULL, &error);
  g_autoptr(GnnTensorDataset) bad = NULL;

  g_assert_cmpuint (gnn_dataset_get_length (GNN_DATASET (ds)), ==, 10);
  item = gnn_dataset_get_item (GNN_DATASET (ds), 3, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (item->len, ==, 2);
  gnn_test_assert_close (g_ptr_array_index (item, 0), GNN_TEST_DATA (6, 7), 2, 0, 0);
  g_assert_cmpfloat (gnn_tensor_item (g_ptr_array_index (item, 1), &error), ==, 3);

  batch = gnn_dataset_get_batch (GNN_DATASET (ds), (const guint[]) { 9, 0, 4 }, 3, &error);
  g_assert_no_error (error);
  gnn_test_assert_shape (g_ptr_array_index (batch, 0), GNN_TEST_SHAPE (3, 2), 2);
  gnn_test_assert_close (g_ptr_array_index (batch, 0), GNN_TEST_DATA (18, 19, 0, 1, 8, 9), 6, 0, 0);
  gnn_test_assert_close (g_ptr_array_index (batch, 1), GNN_TEST_DATA (9, 0, 4), 3, 0, 0);
  g_assert_cmpint (gnn_tensor_get_dtype (g_ptr_array_index (batch, 1)), ==, GNN_DTYPE_INT64);

  none = gnn_dataset_get_item (GNN_DATASET (ds), 10, &error);
  g_assert_null (none);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INDEX);
  g_assert_nonnull (strstr (error->message, "sample 10 is out of range for a dataset of 10 samples"));
  g_clear_error (&error);

  bad = gnn_tensor_dataset_new ((GnnTensor *[]) { a, b }, 2, &error);
  g_assert_null (bad);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_SHAPE);
  g_assert_nonnull (strstr (error->message, "tensor 0 has 3 rows, tensor 1 has 4"));
}

static void
test_stacking_collate (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TestPairs) ds = g_object_new (TEST_TYPE_PAIRS, NULL);
  g_autoptr(GnnDataLoader) loader = gnn_data_loader_new (GNN_DATASET (ds), 3, FALSE, 0, FALSE, NULL);
  g_autoptr(GPtrArray) last = NULL;
  g_autoptr(GListStore) first = NULL;

  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (loader)), ==, 3);
  first = g_list_model_get_item (G_LIST_MODEL (loader), 0);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (first)), ==, 2);
  {
    g_autoptr(GnnTensor) x = g_list_model_get_item (G_LIST_MODEL (first), 0);
    g_autoptr(GnnTensor) y = g_list_model_get_item (G_LIST_MODEL (first), 1);

    gnn_test_assert_close (x, GNN_TEST_DATA (0, 0, 1, 2, 2, 4), 6, 0, 0);
    gnn_test_assert_close (y, GNN_TEST_DATA (0, 1, 2), 3, 0, 0);
  }
  last = gnn_data_loader_get_batch (loader, 2, &error);
  g_assert_no_error (error);
  gnn_test_assert_shape (g_ptr_array_index (last, 0), GNN_TEST_SHAPE (1, 2), 2);
  gnn_test_assert_close (g_ptr_array_index (last, 1), GNN_TEST_DATA (0), 1, 0, 0);   /* 6 % 3 */
  g_assert_null (gnn_data_loader_get_batch (loader, 3, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INDEX);
  g_assert_null (g_list_model_get_item (G_LIST_MODEL (loader), 3));
}

static void
assert_permutation (const guint *order, guint n)
{
  g_autofree gboolean *seen = g_new0 (gboolean, n);

  for (guint i = 0; i < n; i++)
    {
      g_assert_cmpuint (order[i], <, n);
      g_assert_false (seen[order[i]]);
      seen[order[i]] = TRUE;
    }
}

static guint *
epoch_order (GnnDataLoader *loader, guint *n_out)
{
  guint n_batches = g_list_model_get_n_items (G_LIST_MODEL (loader)), n = 0;
  guint *order = g_new (guint, 1000);

  for (guint b = 0; b < n_batches; b++)
    {
      guint k;
      g_autofree guint *idx = gnn_data_loader_get_indices (loader, b, &k);

      memcpy (order + n, idx, k * sizeof (guint));
      n += k;
    }
  *n_out = n;
  return order;
}

static void
test_shuffle (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) x = gnn_tensor_new_arange (0, 100, 1, GNN_DTYPE_FLOAT32, NULL, &error);
  g_autoptr(GnnTensorDataset) ds = gnn_tensor_dataset_new (&x, 1, &error);
  g_autoptr(GnnDataLoader) a = gnn_data_loader_new (GNN_DATASET (ds), 8, TRUE, 42, FALSE, NULL);
  g_autoptr(GnnDataLoader) b = gnn_data_loader_new (GNN_DATASET (ds), 8, TRUE, 42, FALSE, NULL);
  g_autoptr(GnnDataLoader) c = gnn_data_loader_new (GNN_DATASET (ds), 8, TRUE, 43, FALSE, NULL);
  g_autoptr(GnnDataLoader) d = gnn_data_loader_new (GNN_DATASET (ds), 8, TRUE, 42, TRUE, NULL);
  g_autofree guint *oa = NULL, *ob = NULL, *oc = NULL, *oa1 = NULL, *od = NULL;
  guint na, nb, nc, na1, nd, fixed = 0;

  oa = epoch_order (a, &na);
  ob = epoch_order (b, &nb);
  oc = epoch_order (c, &nc);
  g_assert_cmpuint (na, ==, 100);
  assert_permutation (oa, na);
  assert_permutation (oc, nc);
  g_assert_cmpmem (oa, na * sizeof (guint), ob, nb * sizeof (guint));   /* same seed, same order */
  g_assert_true (memcmp (oa, oc, 100 * sizeof (guint)) != 0);            /* another seed */
  for (guint i = 0; i < 100; i++)
    fixed += oa[i] == i;
  g_assert_cmpuint (fixed, <, 10);                                       /* really shuffled */

  gnn_data_loader_set_epoch (a, 1);
  oa1 = epoch_order (a, &na1);
  assert_permutation (oa1, na1);
  g_assert_true (memcmp (oa, oa1, 100 * sizeof (guint)) != 0);           /* another epoch */
  gnn_data_loader_set_epoch (a, 0);
  g_free (oa1);
  oa1 = epoch_order (a, &na1);
  g_assert_cmpmem (oa, 100 * sizeof (guint), oa1, na1 * sizeof (guint)); /* replayable */

  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (d)), ==, 12); /* drop_last: 100 / 8 */
  od = epoch_order (d, &nd);
  g_assert_cmpuint (nd, ==, 96);
  g_assert_cmpmem (oa, 96 * sizeof (guint), od, 96 * sizeof (guint));
}

static void
test_normalize (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) img = gnn_tensor_new_from_doubles (GNN_TEST_DATA (0, 51, 255, 102, 0, 255, 51, 102),
                                                          8, GNN_TEST_SHAPE (2, 2, 1, 2), 4, &error);
  g_autoptr(GnnTensor) img8 = gnn_tensor_to_dtype (img, GNN_DTYPE_UINT8, &error);
  g_autoptr(GnnNormalize) one = gnn_normalize_new ((const double[]) { 0.5 }, (const double[]) { 0.25 }, 1, 1 / 255.0, &error);
  g_autoptr(GnnNormalize) two = gnn_normalize_new ((const double[]) { 0, 1 }, (const double[]) { 1, 0.5 }, 2, 1 / 255.0, &error);
  g_autoptr(GnnNormalize) three = gnn_normalize_new ((const double[]) { 0, 0, 0 }, (const double[]) { 1, 1, 1 }, 3, 1, &error);
  g_autoptr(GnnNormalize) bad = NULL;
  g_autoptr(GnnTensor) a = NULL, b = NULL, c = NULL;

  g_assert_no_error (error);
  a = gnn_normalize_apply (one, img8, &error);
  g_assert_no_error (error);
  g_assert_cmpint (gnn_tensor_get_dtype (a), ==, GNN_DTYPE_FLOAT32);
  gnn_test_assert_close (a, GNN_TEST_DATA (-2, -1.2, 2, -0.4, -2, 2, -1.2, -0.4), 8, 1e-6, 1e-6);
  b = gnn_normalize_apply (two, img8, &error);
  g_assert_no_error (error);
  gnn_test_assert_close (b, GNN_TEST_DATA (0, 0.2, 0, -1.2, 0, 1, -1.6, -1.2), 8, 1e-6, 1e-6);
  c = gnn_normalize_apply (three, img8, &error);
  g_assert_null (c);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_SHAPE);
  g_clear_error (&error);
  bad = gnn_normalize_new ((const double[]) { 0 }, (const double[]) { 0 }, 1, 1, &error);
  g_assert_null (bad);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
}

static void
test_fashion_mnist (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensorDataset) ds = NULL;
  g_autoptr(GnnDataLoader) loader = NULL;
  g_autoptr(GnnNormalize) norm = NULL;
  g_autoptr(GPtrArray) batch = NULL;
  g_autoptr(GnnTensorDataset) missing = NULL;

  if (!g_file_test (FASHION_MNIST_DIR "/t10k-images-idx3-ubyte.gz", G_FILE_TEST_EXISTS))
    {
      g_test_skip ("Fashion-MNIST is not installed (Debian's dataset-fashion-mnist)");
      return;
    }
  ds = gnn_tensor_dataset_new_idx (FASHION_MNIST_DIR "/t10k-images-idx3-ubyte.gz",
                                   FASHION_MNIST_DIR "/t10k-labels-idx1-ubyte.gz", &error);
  g_assert_no_error (error);
  g_assert_cmpuint (gnn_dataset_get_length (GNN_DATASET (ds)), ==, 10000);
  loader = gnn_data_loader_new (GNN_DATASET (ds), 64, TRUE, 1, FALSE, NULL);
  norm = gnn_normalize_new ((const double[]) { 0.2860 }, (const double[]) { 0.3530 }, 1, 1 / 255.0, &error);
  gnn_data_loader_set_transform (loader, GNN_TRANSFORM (norm));
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (loader)), ==, 157);
  batch = gnn_data_loader_get_batch (loader, 156, &error);
  g_assert_no_error (error);
  gnn_test_assert_shape (g_ptr_array_index (batch, 0), GNN_TEST_SHAPE (16, 1, 28, 28), 4);
  g_assert_cmpint (gnn_tensor_get_dtype (g_ptr_array_index (batch, 0)), ==, GNN_DTYPE_FLOAT32);
  gnn_test_assert_shape (g_ptr_array_index (batch, 1), GNN_TEST_SHAPE (16), 1);

  missing = gnn_tensor_dataset_new_idx (FASHION_MNIST_DIR "/nope.gz", FASHION_MNIST_DIR "/nope2.gz", &error);
  g_assert_null (missing);
  g_assert_nonnull (error);
}

/* Subset maps positions and gathers through the dataset's batches; ConcatDataset finds
 * each sample's dataset, as torch's cumulative sizes do */
static void
test_subset_concat (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensorDataset) ten = ten_rows ();
  g_autoptr(TestPairs) pairs = g_object_new (TEST_TYPE_PAIRS, NULL);
  g_autoptr(GnnSubset) sub = gnn_subset_new (GNN_DATASET (ten), (const guint[]) { 9, 2, 2, 5 }, 4, &error);
  g_autoptr(GnnSubset) bad = NULL;
  g_autoptr(GnnConcatDataset) cat = NULL;
  g_autoptr(GnnConcatDataset) none = NULL;
  g_autoptr(GPtrArray) item = NULL;
  g_autoptr(GPtrArray) batch = NULL;
  g_autoptr(GPtrArray) mixed = NULL;
  guint n;

  g_assert_no_error (error);
  g_assert_cmpuint (gnn_dataset_get_length (GNN_DATASET (sub)), ==, 4);
  g_assert_true (gnn_subset_get_dataset (sub) == GNN_DATASET (ten));
  g_assert_cmpuint (gnn_subset_get_indices (sub, &n)[3], ==, 5);
  g_assert_cmpuint (n, ==, 4);
  item = gnn_dataset_get_item (GNN_DATASET (sub), 0, &error);
  g_assert_no_error (error);
  gnn_test_assert_close (g_ptr_array_index (item, 0), GNN_TEST_DATA (18, 19), 2, 0, 0);
  batch = gnn_dataset_get_batch (GNN_DATASET (sub), (const guint[]) { 3, 1, 0 }, 3, &error);
  g_assert_no_error (error);
  gnn_test_assert_close (g_ptr_array_index (batch, 0), GNN_TEST_DATA (10, 11, 4, 5, 18, 19), 6, 0, 0);
  gnn_test_assert_close (g_ptr_array_index (batch, 1), GNN_TEST_DATA (5, 2, 9), 3, 0, 0);
  bad = gnn_subset_new (GNN_DATASET (ten), (const guint[]) { 1, 10 }, 2, &error);
  g_assert_null (bad);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INDEX);
  g_clear_error (&error);

  /* 4 samples of the subset, then the 7 pairs (x = [i, 2i], y = i % 3) */
  cat = gnn_concat_dataset_new ((GnnDataset *[]) { GNN_DATASET (sub), GNN_DATASET (pairs) }, 2, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (gnn_dataset_get_length (GNN_DATASET (cat)), ==, 11);
  g_clear_pointer (&item, g_ptr_array_unref);
  item = gnn_dataset_get_item (GNN_DATASET (cat), 4, &error);
  g_assert_no_error (error);
  gnn_test_assert_close (g_ptr_array_index (item, 0), GNN_TEST_DATA (0, 0), 2, 0, 0);
  g_clear_pointer (&item, g_ptr_array_unref);
  item = gnn_dataset_get_item (GNN_DATASET (cat), 10, &error);
  gnn_test_assert_close (g_ptr_array_index (item, 0), GNN_TEST_DATA (6, 12), 2, 0, 0);
  g_clear_pointer (&item, g_ptr_array_unref);
  item = gnn_dataset_get_item (GNN_DATASET (cat), 3, &error);
  gnn_test_assert_close (g_ptr_array_index (item, 0), GNN_TEST_DATA (10, 11), 2, 0, 0);
  g_assert_null (gnn_dataset_get_item (GNN_DATASET (cat), 11, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INDEX);
  g_clear_error (&error);
  /* a batch across both: float32 rows of the subset and float64 pairs do not stack as one
   * dtype, so take the pairs alone */
  mixed = gnn_dataset_get_batch (GNN_DATASET (cat), (const guint[]) { 9, 5 }, 2, &error);
  g_assert_no_error (error);
  gnn_test_assert_close (g_ptr_array_index (mixed, 0), GNN_TEST_DATA (5, 10, 1, 2), 4, 0, 0);
  none = gnn_concat_dataset_new (NULL, 0, &error);
  g_assert_null (none);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
}

int
main (int argc, char **argv)
{
  gnn_test_init (&argc, &argv);
  g_test_add_func ("/data/tensor-dataset", test_tensor_dataset);
  g_test_add_func ("/data/stacking-collate", test_stacking_collate);
  g_test_add_func ("/data/shuffle", test_shuffle);
  g_test_add_func ("/data/normalize", test_normalize);
  g_test_add_func ("/data/fashion-mnist", test_fashion_mnist);
  g_test_add_func ("/data/subset-concat", test_subset_concat);
  return g_test_run ();
}
