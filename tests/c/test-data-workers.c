/* test-data-workers.c: passes over a DataLoader with worker threads: the same batches as
 * without, random transforms and shuffle included; errors at their batch; early ends; the
 * properties */
#include "config.h"

#include "gnn-test-util.h"

/* A dataset without fill_batch: sample i is (x = [i, i + 0.5], y = i); fill_item fails at
 * sample fail_at (when below n), sleeps sleep_us first, and counts its calls. */
#define TEST_TYPE_COUNTING (test_counting_get_type ())
G_DECLARE_FINAL_TYPE (TestCounting, test_counting, TEST, COUNTING, GObject)

struct _TestCounting
{
  GObject parent_instance;
  guint n;
  guint fail_at;
  gulong sleep_us;
  gint calls;
};

static guint
counting_get_length (GnnDataset *d)
{
  return TEST_COUNTING (d)->n;
}

static gboolean
counting_fill_item (GnnDataset *d, guint index, GListStore *sample, GError **error)
{
  TestCounting *self = TEST_COUNTING (d);
  g_autoptr(GnnTensor) x = NULL;
  g_autoptr(GnnTensor) y = NULL;

  g_atomic_int_inc (&self->calls);
  if (self->sleep_us)
    g_usleep (self->sleep_us);
  if (index == self->fail_at)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT, "sample %u is broken", index);
      return FALSE;
    }
  x = gnn_tensor_new_from_doubles ((const double[]) { index, index + 0.5 }, 2, GNN_TEST_SHAPE (2), 1, error);
  y = gnn_tensor_new_from_int64s ((const gint64[]) { index }, 1, NULL, 0, error);
  g_list_store_append (sample, x);
  g_list_store_append (sample, y);
  return TRUE;
}

static void
counting_iface_init (GnnDatasetInterface *iface)
{
  iface->get_length = counting_get_length;
  iface->fill_item = counting_fill_item;
}

G_DEFINE_FINAL_TYPE_WITH_CODE (TestCounting, test_counting, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (GNN_TYPE_DATASET, counting_iface_init))

static void test_counting_class_init (TestCountingClass *klass) {}
static void test_counting_init (TestCounting *self) { self->n = 20; self->fail_at = G_MAXUINT; }

/* 50 images 1x6x6 (uint8) and their labels, each image through RandomCrop(6, padding=2)
 * and RandomHorizontalFlip */
static GnnTensorDataset *
random_images (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) flat = gnn_tensor_new_arange (0, 50 * 36, 1, GNN_DTYPE_FLOAT32, NULL, &error);
  g_autoptr(GnnTensor) images = gnn_tensor_reshape (flat, GNN_TEST_SHAPE (50, 1, 6, 6), 4, &error);
  g_autoptr(GnnTensor) labels = gnn_tensor_new_arange (0, 50, 1, GNN_DTYPE_INT64, NULL, &error);
  g_autoptr(GnnRandomCrop) crop = gnn_random_crop_new (6, 6, (const gint64[]) { 2 }, 1, FALSE, 0,
                                                      "constant", NULL, &error);
  g_autoptr(GnnRandomHorizontalFlip) flip = gnn_random_horizontal_flip_new (0.5, NULL, &error);
  g_autoptr(GnnCompose) both = gnn_compose_new ((GnnTransform *[]) { GNN_TRANSFORM (crop),
                                                                      GNN_TRANSFORM (flip) }, 2);
  GnnTensorDataset *ds = gnn_tensor_dataset_new ((GnnTensor *[]) { images, labels }, 2, &error);

  g_assert_no_error (error);
  g_object_set (ds, "transform", both, NULL);
  return ds;
}

/* the bytes of every tensor of every batch of one pass, in order */
static GByteArray *
pass_bytes (GnnDataLoader *loader)
{
  g_autoptr(GnnDataLoaderIter) it = gnn_data_loader_iterate (loader);
  g_autoptr(GError) error = NULL;
  GByteArray *out = g_byte_array_new ();
  GPtrArray *batch;
  guint n = 0;

  while ((batch = gnn_data_loader_iter_next (it, &error)))
    {
      for (guint k = 0; k < batch->len; k++)
        {
          g_autoptr(GBytes) bytes = gnn_tensor_get_bytes (g_ptr_array_index (batch, k), &error);
          gsize size;
          const guint8 *data = g_bytes_get_data (bytes, &size);

          g_assert_no_error (error);
          g_byte_array_append (out, data, size);
        }
      g_ptr_array_unref (batch);
      n++;
    }
  g_assert_no_error (error);
  g_assert_cmpuint (n, ==, g_list_model_get_n_items (G_LIST_MODEL (loader)));
  g_assert_null (gnn_data_loader_iter_next (it, &error));   /* and stays at the end */
  g_assert_no_error (error);
  return out;
}

static void
test_same_batches (void)
{
  g_autoptr(GnnTensorDataset) ds = random_images ();
  g_autoptr(GByteArray) first = NULL;
  g_autoptr(GByteArray) second = NULL;
  GByteArray **expected[2] = { &first, &second };
  const guint workers[] = { 0, 1, 3 }, prefetch[] = { 2, 1, 2 };

  for (guint epoch = 0; epoch < 2; epoch++)
    for (guint w = 0; w < G_N_ELEMENTS (workers); w++)
      {
        g_autoptr(GnnDataLoader) loader = g_object_new (GNN_TYPE_DATA_LOADER, "dataset", ds,
                                                        "batch-size", 4, "shuffle", TRUE, "seed", 7,
                                                        "num-workers", workers[w],
                                                        "prefetch-factor", prefetch[w], NULL);
        g_autoptr(GByteArray) got = NULL;

        gnn_data_loader_set_epoch (loader, epoch);
        got = pass_bytes (loader);
        if (*expected[epoch] == NULL)
          *expected[epoch] = g_steal_pointer (&got);
        else
          g_assert_cmpmem (got->data, got->len, (*expected[epoch])->data, (*expected[epoch])->len);
      }
  /* the epochs differ (order and draws), and random access gives the pass's batches */
  g_assert_cmpuint (first->len, ==, second->len);
  g_assert_true (memcmp (first->data, second->data, first->len) != 0);
  {
    g_autoptr(GnnDataLoader) loader = gnn_data_loader_new (GNN_DATASET (ds), 4, TRUE, 7, FALSE, NULL);
    g_autoptr(GError) error = NULL;
    g_autoptr(GByteArray) random_access = g_byte_array_new ();

    for (gint b = 12; b >= 0; b--)   /* backwards: the draws do not depend on the order */
      {
        g_autoptr(GPtrArray) batch = gnn_data_loader_get_batch (loader, b, &error);
        g_autoptr(GBytes) x = gnn_tensor_get_bytes (g_ptr_array_index (batch, 0), &error);
        gsize size;
        const guint8 *data = g_bytes_get_data (x, &size);

        g_assert_no_error (error);
        g_byte_array_prepend (random_access, data, size);
      }
    /* the images of the pass: batches of 4 (the last of 2) images then labels */
    {
      g_autoptr(GByteArray) images = g_byte_array_new ();
      gsize at = 0;

      for (guint b = 0; b < 13; b++)
        {
          guint rows = b < 12 ? 4 : 2;

          g_byte_array_append (images, first->data + at, rows * 36 * 4);
          at += rows * 36 * 4 + rows * 8;
        }
      g_assert_cmpuint (at, ==, first->len);
      g_assert_cmpmem (random_access->data, random_access->len, images->data, images->len);
    }
  }
}

/* the crops really vary: among the 50 images of a pass, several windows and flips */
static void
test_draws_vary (void)
{
  g_autoptr(GnnTensorDataset) ds = random_images ();
  g_autoptr(GnnDataLoader) loader = g_object_new (GNN_TYPE_DATA_LOADER, "dataset", ds,
                                                  "batch-size", 50, "num-workers", 2, NULL);
  g_autoptr(GnnDataLoaderIter) it = gnn_data_loader_iterate (loader);
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) batch = gnn_data_loader_iter_next (it, &error);
  g_autoptr(GBytes) bytes = gnn_tensor_get_bytes (g_ptr_array_index (batch, 0), &error);
  const float *x = g_bytes_get_data (bytes, NULL);
  g_autoptr(GHashTable) shifts = g_hash_table_new (NULL, NULL);

  g_assert_no_error (error);
  for (guint i = 0; i < 50; i++)
    {
      /* the first nonzero pixel tells the window and the flip apart */
      guint k = 0;

      while (k < 36 && x[i * 36 + k] == 0)
        k++;
      g_hash_table_add (shifts, GUINT_TO_POINTER (k * 10000 + (k < 36 ? (guint) x[i * 36 + k] - i * 36 : 0)));
    }
  g_assert_cmpuint (g_hash_table_size (shifts), >, 5);
}

static void
test_error_at_its_batch (void)
{
  for (guint workers = 0; workers <= 2; workers++)
    {
      g_autoptr(TestCounting) ds = g_object_new (TEST_TYPE_COUNTING, NULL);
      g_autoptr(GnnDataLoader) loader = NULL;
      g_autoptr(GnnDataLoaderIter) it = NULL;
      g_autoptr(GError) error = NULL;
      guint got = 0;
      GPtrArray *batch;

      ds->fail_at = 10;   /* in batch 3 of 3 samples each */
      loader = g_object_new (GNN_TYPE_DATA_LOADER, "dataset", ds, "batch-size", 3,
                             "num-workers", workers, NULL);
      it = gnn_data_loader_iterate (loader);
      while ((batch = gnn_data_loader_iter_next (it, &error)))
        {
          gnn_test_assert_close (g_ptr_array_index (batch, 1), GNN_TEST_DATA (3 * got, 3 * got + 1,
                                                                              3 * got + 2), 3, 0, 0);
          g_ptr_array_unref (batch);
          got++;
        }
      g_assert_cmpuint (got, ==, 3);
      g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
      g_assert_nonnull (strstr (error->message, "sample 10 is broken"));
      g_clear_error (&error);
      g_assert_null (gnn_data_loader_iter_next (it, &error));   /* the pass has ended */
      g_assert_no_error (error);
      g_assert_finalize_object (g_steal_pointer (&it));
    }
}

static void
test_early_end (void)
{
  g_autoptr(TestCounting) ds = g_object_new (TEST_TYPE_COUNTING, NULL);
  g_autoptr(GnnDataLoader) loader = g_object_new (GNN_TYPE_DATA_LOADER, "dataset", ds, "batch-size", 1,
                                                  "num-workers", 2, "prefetch-factor", 1, NULL);
  g_autoptr(GError) error = NULL;
  GnnDataLoaderIter *it;
  GPtrArray *batch;

  ds->sleep_us = 2000;
  it = gnn_data_loader_iterate (loader);
  batch = gnn_data_loader_iter_next (it, &error);
  g_assert_no_error (error);
  g_ptr_array_unref (batch);
  g_assert_finalize_object (it);   /* joins the workers, frees what they made ahead */
  /* at most 2 x 1 batches in flight beyond the one handed out */
  g_assert_cmpint (g_atomic_int_get (&ds->calls), <=, 3);

  /* close, then drop */
  it = gnn_data_loader_iterate (loader);
  gnn_data_loader_iter_close (it);
  g_assert_null (gnn_data_loader_iter_next (it, &error));
  g_assert_no_error (error);
  g_assert_finalize_object (it);
  /* a pass never started */
  g_assert_finalize_object (gnn_data_loader_iterate (loader));
  /* a pass made without a loader has no batches */
  it = g_object_new (GNN_TYPE_DATA_LOADER_ITER, NULL);
  g_assert_null (gnn_data_loader_iter_next (it, &error));
  g_assert_no_error (error);
  g_assert_finalize_object (it);
}

static void
test_timeout (void)
{
  g_autoptr(TestCounting) ds = g_object_new (TEST_TYPE_COUNTING, NULL);
  g_autoptr(GnnDataLoader) loader = g_object_new (GNN_TYPE_DATA_LOADER, "dataset", ds, "batch-size", 2,
                                                  "num-workers", 1, "timeout", 0.02, NULL);
  g_autoptr(GnnDataLoaderIter) it = NULL;
  g_autoptr(GError) error = NULL;

  ds->sleep_us = 200000;
  it = gnn_data_loader_iterate (loader);
  g_assert_null (gnn_data_loader_iter_next (it, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_FAILED);
  g_assert_nonnull (strstr (error->message, "DataLoader timed out after 0.02 seconds"));
}

static void
test_properties (void)
{
  g_autoptr(TestCounting) ds = g_object_new (TEST_TYPE_COUNTING, NULL);
  g_autoptr(GnnDataLoader) plain = gnn_data_loader_new (GNN_DATASET (ds), 4, FALSE, 0, FALSE, NULL);
  g_autoptr(GnnDataLoader) loader = g_object_new (GNN_TYPE_DATA_LOADER, "dataset", ds, "batch-size", 4,
                                                  "num-workers", 3, "prefetch-factor", 5,
                                                  "timeout", 1.5, NULL);
  guint workers, prefetch;
  double timeout;

  g_assert_cmpuint (gnn_data_loader_get_num_workers (plain), ==, 0);
  g_assert_cmpuint (gnn_data_loader_get_prefetch_factor (plain), ==, 2);   /* torch's default */
  g_assert_cmpfloat (gnn_data_loader_get_timeout (plain), ==, 0.0);
  g_assert_cmpuint (gnn_data_loader_get_num_workers (loader), ==, 3);
  g_assert_cmpuint (gnn_data_loader_get_prefetch_factor (loader), ==, 5);
  g_assert_cmpfloat (gnn_data_loader_get_timeout (loader), ==, 1.5);
  gnn_data_loader_set_num_workers (loader, 1);
  gnn_data_loader_set_prefetch_factor (loader, 4);
  gnn_data_loader_set_timeout (loader, 0.0);
  g_object_get (loader, "num-workers", &workers, "prefetch-factor", &prefetch, "timeout", &timeout, NULL);
  g_assert_cmpuint (workers, ==, 1);
  g_assert_cmpuint (prefetch, ==, 4);
  g_assert_cmpfloat (timeout, ==, 0.0);
}

int
main (int argc, char **argv)
{
  gnn_test_init (&argc, &argv);
  g_test_add_func ("/data-workers/same-batches", test_same_batches);
  g_test_add_func ("/data-workers/draws-vary", test_draws_vary);
  g_test_add_func ("/data-workers/error-at-its-batch", test_error_at_its_batch);
  g_test_add_func ("/data-workers/early-end", test_early_end);
  g_test_add_func ("/data-workers/timeout", test_timeout);
  g_test_add_func ("/data-workers/properties", test_properties);
  return g_test_run ();
}
