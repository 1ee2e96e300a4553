/* test-transforms.c: the sample transforms (ToTensor, Normalize, Compose, RandomCrop,
 * RandomHorizontalFlip), TensorDataset's per-sample transforms and the Fashion-MNIST lookup */
#include "config.h"

#include <glib/gstdio.h>

#include "gnn-test-util.h"
#include "data/gnn-dataset-private.h"

#define FASHION_MNIST_DIR "/usr/share/datasets/fashion-mnist"

/* a uint8 tensor of @shape holding 0, 1, 2, ... */
static GnnTensor *
counting_bytes (const gint64 *shape,
                guint         ndim)
{
  g_autoptr(GError) error = NULL;
  gint64 n = 1;
  g_autoptr(GnnTensor) a = NULL;
  g_autoptr(GnnTensor) r = NULL;
  GnnTensor *out;

  for (guint d = 0; d < ndim; d++)
    n *= shape[d];
  a = gnn_tensor_new_arange (0, n, 1, GNN_DTYPE_FLOAT64, NULL, &error);
  r = gnn_tensor_reshape (a, shape, ndim, &error);
  out = gnn_tensor_to_dtype (r, GNN_DTYPE_UINT8, &error);
  g_assert_no_error (error);
  return out;
}

static void
test_to_tensor (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnToTensor) to_tensor = gnn_to_tensor_new ();
  g_autoptr(GnnTensor) hw = counting_bytes (GNN_TEST_SHAPE (2, 3), 2);
  g_autoptr(GnnTensor) hwc = counting_bytes (GNN_TEST_SHAPE (2, 3, 2), 3);
  g_autoptr(GnnTensor) flat = counting_bytes (GNN_TEST_SHAPE (6), 1);
  g_autoptr(GnnTensor) f = NULL;
  g_autoptr(GnnTensor) a = NULL, b = NULL, c = NULL, d = NULL;

  a = gnn_transform_apply (GNN_TRANSFORM (to_tensor), hw, &error);
  g_assert_no_error (error);
  gnn_test_assert_shape (a, GNN_TEST_SHAPE (1, 2, 3), 3);
  g_assert_cmpint (gnn_tensor_get_dtype (a), ==, GNN_DTYPE_FLOAT32);
  gnn_test_assert_close (a, GNN_TEST_DATA (0, 1 / 255., 2 / 255., 3 / 255., 4 / 255., 5 / 255.), 6, 1e-6, 1e-7);
  /* (H, W, C) becomes (C, H, W): channel 0 is the even bytes */
  b = gnn_transform_apply (GNN_TRANSFORM (to_tensor), hwc, &error);
  g_assert_no_error (error);
  gnn_test_assert_shape (b, GNN_TEST_SHAPE (2, 2, 3), 3);
  g_assert_true (gnn_tensor_is_contiguous (b));
  gnn_test_assert_close (b, GNN_TEST_DATA (0, 2 / 255., 4 / 255., 6 / 255., 8 / 255., 10 / 255.,
                                           1 / 255., 3 / 255., 5 / 255., 7 / 255., 9 / 255., 11 / 255.),
                         12, 1e-6, 1e-7);
  /* other dtypes keep their dtype and values, as ToTensor of a NumPy array */
  f = gnn_tensor_to_dtype (hwc, GNN_DTYPE_FLOAT64, &error);
  c = gnn_transform_apply (GNN_TRANSFORM (to_tensor), f, &error);
  g_assert_no_error (error);
  g_assert_cmpint (gnn_tensor_get_dtype (c), ==, GNN_DTYPE_FLOAT64);
  gnn_test_assert_close (c, GNN_TEST_DATA (0, 2, 4, 6, 8, 10, 1, 3, 5, 7, 9, 11), 12, 0, 0);
  d = gnn_transform_apply (GNN_TRANSFORM (to_tensor), flat, &error);
  g_assert_null (d);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_SHAPE);
  g_assert_nonnull (strstr (error->message, "Got 1 dimensions"));
}

static void
test_compose (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnToTensor) to_tensor = gnn_to_tensor_new ();
  g_autoptr(GnnNormalize) norm = gnn_normalize_new (GNN_TEST_DATA (0.5), GNN_TEST_DATA (0.25), 1, 1, &error);
  g_autoptr(GnnCompose) both = gnn_compose_new ((GnnTransform *[]) { GNN_TRANSFORM (to_tensor), GNN_TRANSFORM (norm) }, 2);
  g_autoptr(GnnCompose) none = gnn_compose_new (NULL, 0);
  g_autoptr(GnnTensor) img = NULL;
  g_autoptr(GnnTensor) x = NULL;
  g_autoptr(GnnTensor) same = NULL;
  g_autoptr(GnnTensor) bytes = counting_bytes (GNN_TEST_SHAPE (1, 2), 2);
  g_autoptr(GnnTensor) two = gnn_tensor_new_full (GNN_TEST_SHAPE (2, 1, 1), 3, 255, GNN_DTYPE_FLOAT32, NULL, &error);
  g_autoptr(GnnCompose) bad = NULL;
  g_autoptr(GnnNormalize) three = gnn_normalize_new (GNN_TEST_DATA (0, 0, 0), GNN_TEST_DATA (1, 1, 1), 3, 1, &error);

  g_assert_no_error (error);
  g_assert_cmpuint (gnn_compose_get_n_transforms (both), ==, 2);
  g_assert_true (gnn_compose_get_transform (both, 1) == GNN_TRANSFORM (norm));
  img = g_object_ref (bytes);
  x = gnn_transform_apply (GNN_TRANSFORM (both), img, &error);
  g_assert_no_error (error);
  gnn_test_assert_shape (x, GNN_TEST_SHAPE (1, 1, 2), 3);
  gnn_test_assert_close (x, GNN_TEST_DATA (-2, (1 / 255. - 0.5) / 0.25), 2, 1e-6, 1e-6);
  same = gnn_transform_apply (GNN_TRANSFORM (none), img, &error);
  g_assert_true (same == img);
  /* an error names the transform that failed */
  bad = gnn_compose_new ((GnnTransform *[]) { GNN_TRANSFORM (norm), GNN_TRANSFORM (three) }, 2);
  g_assert_null (gnn_transform_apply (GNN_TRANSFORM (bad), two, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_SHAPE);
  g_assert_nonnull (strstr (error->message, "transform 1 of Compose (GnnNormalize)"));
}

/* the padded image is the whole window: the four modes against NumPy's np.pad of the same
 * (3, 4) image with 2 rows above and below, 1 column left and 2 right */
static void
test_random_crop_padding (void)
{
  static const struct {
    const char *mode;
    double expected[49];
  } cases[] = {
    { "constant", { 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 0, 1, 2, 3, 9, 9, 9, 4, 5, 6, 7, 9, 9,
                    9, 8, 9, 10, 11, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9 } },
    { "edge", { 0, 0, 1, 2, 3, 3, 3, 0, 0, 1, 2, 3, 3, 3, 0, 0, 1, 2, 3, 3, 3, 4, 4, 5, 6, 7, 7, 7, 8, 8,
                9, 10, 11, 11, 11, 8, 8, 9, 10, 11, 11, 11, 8, 8, 9, 10, 11, 11, 11 } },
    { "reflect", { 9, 8, 9, 10, 11, 10, 9, 5, 4, 5, 6, 7, 6, 5, 1, 0, 1, 2, 3, 2, 1, 5, 4, 5, 6, 7, 6, 5,
                   9, 8, 9, 10, 11, 10, 9, 5, 4, 5, 6, 7, 6, 5, 1, 0, 1, 2, 3, 2, 1 } },
    { "symmetric", { 4, 4, 5, 6, 7, 7, 6, 0, 0, 1, 2, 3, 3, 2, 0, 0, 1, 2, 3, 3, 2, 4, 4, 5, 6, 7, 7, 6,
                     8, 8, 9, 10, 11, 11, 10, 8, 8, 9, 10, 11, 11, 10, 4, 4, 5, 6, 7, 7, 6 } },
  };
  g_autoptr(GnnTensor) img = counting_bytes (GNN_TEST_SHAPE (1, 3, 4), 3);

  for (guint k = 0; k < G_N_ELEMENTS (cases); k++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(GnnRandomCrop) crop = gnn_random_crop_new (7, 7, GNN_TEST_SHAPE (1, 2, 2, 2), 4, FALSE, 9,
                                                           cases[k].mode, NULL, &error);
      g_autoptr(GnnTensor) out = NULL;

      g_assert_no_error (error);
      out = gnn_transform_apply (GNN_TRANSFORM (crop), img, &error);
      g_assert_no_error (error);
      g_test_message ("padding mode %s", cases[k].mode);
      g_assert_cmpint (gnn_tensor_get_dtype (out), ==, GNN_DTYPE_UINT8);
      gnn_test_assert_shape (out, GNN_TEST_SHAPE (1, 7, 7), 3);
      gnn_test_assert_close (out, cases[k].expected, 49, 0, 0);
    }
}

static void
test_random_crop_window (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) img = counting_bytes (GNN_TEST_SHAPE (2, 4, 4), 3);
  g_autoptr(GnnGenerator) gen = gnn_generator_new (7);
  g_autoptr(GnnRandomCrop) crop = gnn_random_crop_new (2, 3, NULL, 0, FALSE, 0, NULL, gen, &error);
  g_autoptr(GnnRandomCrop) needed = gnn_random_crop_new (6, 5, GNN_TEST_SHAPE (0), 1, TRUE, 0, "constant", NULL, &error);
  g_autoptr(GnnRandomCrop) big = gnn_random_crop_new (5, 5, NULL, 0, FALSE, 0, NULL, NULL, &error);
  g_autoptr(GnnTensor) padded = NULL;
  gint64 first[20];
  gboolean seen[6] = { FALSE, };
  guint distinct = 0;

  g_assert_no_error (error);
  for (guint round = 0; round < 2; round++)
    {
      gnn_generator_manual_seed (gen, 7);
      for (guint t = 0; t < 20; t++)
        {
          g_autoptr(GnnTensor) out = gnn_transform_apply (GNN_TRANSFORM (crop), img, &error);
          g_autofree double *v = NULL;
          gint64 i, j;

          g_assert_no_error (error);
          gnn_test_assert_shape (out, GNN_TEST_SHAPE (2, 2, 3), 3);
          v = gnn_tensor_to_doubles (out, NULL, &error);
          /* a window of the image: row i, column j of both channels */
          i = (gint64) v[0] / 4;
          j = (gint64) v[0] % 4;
          g_assert_cmpint (i, <=, 2);
          g_assert_cmpint (j, <=, 1);
          for (guint c = 0; c < 2; c++)
            for (guint r = 0; r < 2; r++)
              for (guint q = 0; q < 3; q++)
                g_assert_cmpfloat (v[c * 6 + r * 3 + q], ==, c * 16 + (i + r) * 4 + j + q);
          if (round == 0)
            {
              first[t] = i * 2 + j;
              if (!seen[first[t]])
                distinct++;
              seen[first[t]] = TRUE;
            }
          else
            g_assert_cmpint (first[t], ==, i * 2 + j);   /* the same seed, the same windows */
        }
    }
  g_assert_cmpuint (distinct, >=, 4);

  /* pad_if_needed pads each side of a short dimension by the difference, as torchvision */
  padded = gnn_transform_apply (GNN_TRANSFORM (needed), img, &error);
  g_assert_no_error (error);
  gnn_test_assert_shape (padded, GNN_TEST_SHAPE (2, 6, 5), 3);
  g_assert_null (gnn_transform_apply (GNN_TRANSFORM (big), img, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "Required crop size (5, 5) is larger than input image size (4, 4)"));
  g_clear_error (&error);

  g_assert_null (gnn_random_crop_new (2, 2, NULL, 0, FALSE, 0, "wrap", NULL, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "\"wrap\""));
  g_clear_error (&error);
  g_assert_null (gnn_random_crop_new (2, 2, GNN_TEST_SHAPE (1, 2, 3), 3, FALSE, 0, NULL, NULL, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "not a 3 element tuple"));
  g_clear_error (&error);
  g_assert_null (gnn_random_crop_new (0, 2, NULL, 0, FALSE, 0, NULL, NULL, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
}

static void
test_random_horizontal_flip (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) img = counting_bytes (GNN_TEST_SHAPE (1, 2, 3), 3);
  g_autoptr(GnnGenerator) gen = gnn_generator_new (3);
  g_autoptr(GnnRandomHorizontalFlip) always = gnn_random_horizontal_flip_new (1, NULL, &error);
  g_autoptr(GnnRandomHorizontalFlip) never = gnn_random_horizontal_flip_new (0, NULL, &error);
  g_autoptr(GnnRandomHorizontalFlip) half = gnn_random_horizontal_flip_new (0.5, gen, &error);
  g_autoptr(GnnTensor) flipped = NULL;
  g_autoptr(GnnTensor) kept = NULL;
  gboolean first[32];
  guint n_flipped = 0;

  g_assert_no_error (error);
  flipped = gnn_transform_apply (GNN_TRANSFORM (always), img, &error);
  g_assert_no_error (error);
  gnn_test_assert_close (flipped, GNN_TEST_DATA (2, 1, 0, 5, 4, 3), 6, 0, 0);
  kept = gnn_transform_apply (GNN_TRANSFORM (never), img, &error);
  g_assert_true (kept == img);
  for (guint round = 0; round < 2; round++)
    {
      gnn_generator_manual_seed (gen, 3);
      for (guint t = 0; t < G_N_ELEMENTS (first); t++)
        {
          g_autoptr(GnnTensor) out = gnn_transform_apply (GNN_TRANSFORM (half), img, &error);
          gboolean was_flipped = out != img;

          g_assert_no_error (error);
          if (round == 0)
            {
              first[t] = was_flipped;
              n_flipped += was_flipped;
            }
          else
            g_assert_cmpint (first[t], ==, was_flipped);
        }
    }
  g_assert_cmpuint (n_flipped, >, 4);
  g_assert_cmpuint (n_flipped, <, 28);
  g_assert_null (gnn_random_horizontal_flip_new (1.5, NULL, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
}

/* the dataset's transforms run on each sample; batches stack the transformed samples */
static void
test_dataset_transform (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) images = counting_bytes (GNN_TEST_SHAPE (5, 2, 3), 3);
  g_autoptr(GnnTensor) labels = gnn_tensor_new_arange (0, 5, 1, GNN_DTYPE_INT64, NULL, &error);
  g_autoptr(GnnTensorDataset) ds = gnn_tensor_dataset_new ((GnnTensor *[]) { images, labels }, 2, &error);
  g_autoptr(GnnToTensor) to_tensor = gnn_to_tensor_new ();
  g_autoptr(GnnRandomHorizontalFlip) flip = gnn_random_horizontal_flip_new (1, NULL, &error);
  g_autoptr(GnnNormalize) plus = gnn_normalize_new (GNN_TEST_DATA (-10), GNN_TEST_DATA (1), 1, 1, &error);
  g_autoptr(GnnCompose) both = gnn_compose_new ((GnnTransform *[]) { GNN_TRANSFORM (flip), GNN_TRANSFORM (to_tensor) }, 2);
  g_autoptr(GPtrArray) item = NULL;
  g_autoptr(GPtrArray) batch = NULL;
  g_autoptr(GnnDataLoader) loader = NULL;
  g_autoptr(GPtrArray) loaded = NULL;
  g_autoptr(GnnTransform) got = NULL;

  g_assert_no_error (error);
  g_object_set (ds, "transform", both, "target-transform", plus, NULL);
  g_object_get (ds, "transform", &got, NULL);
  g_assert_true (got == GNN_TRANSFORM (both));
  item = gnn_dataset_get_item (GNN_DATASET (ds), 1, &error);
  g_assert_no_error (error);
  gnn_test_assert_shape (g_ptr_array_index (item, 0), GNN_TEST_SHAPE (1, 2, 3), 3);
  gnn_test_assert_close (g_ptr_array_index (item, 0),
                         GNN_TEST_DATA (8 / 255., 7 / 255., 6 / 255., 11 / 255., 10 / 255., 9 / 255.), 6, 1e-6, 1e-7);
  gnn_test_assert_close (g_ptr_array_index (item, 1), GNN_TEST_DATA (11), 1, 0, 0);
  batch = gnn_dataset_get_batch (GNN_DATASET (ds), (const guint[]) { 4, 1 }, 2, &error);
  g_assert_no_error (error);
  gnn_test_assert_shape (g_ptr_array_index (batch, 0), GNN_TEST_SHAPE (2, 1, 2, 3), 4);
  gnn_test_assert_close (g_ptr_array_index (batch, 0),
                         GNN_TEST_DATA (26 / 255., 25 / 255., 24 / 255., 29 / 255., 28 / 255., 27 / 255.,
                                        8 / 255., 7 / 255., 6 / 255., 11 / 255., 10 / 255., 9 / 255.),
                         12, 1e-6, 1e-7);
  gnn_test_assert_close (g_ptr_array_index (batch, 1), GNN_TEST_DATA (14, 11), 2, 0, 0);
  /* the loader's batch transform still runs after the dataset's */
  loader = gnn_data_loader_new (GNN_DATASET (ds), 5, FALSE, 0, FALSE, NULL);
  gnn_data_loader_set_transform (loader, GNN_TRANSFORM (plus));
  g_assert_true (gnn_data_loader_get_transform (loader) == GNN_TRANSFORM (plus));
  loaded = gnn_data_loader_get_batch (loader, 0, &error);
  g_assert_no_error (error);
  gnn_test_assert_shape (g_ptr_array_index (loaded, 0), GNN_TEST_SHAPE (5, 1, 2, 3), 4);
  {
    g_autofree double *v = gnn_tensor_to_doubles (g_ptr_array_index (loaded, 0), NULL, &error);

    g_assert_cmpfloat_with_epsilon (v[0], 10 + 2 / 255., 1e-5);   /* sample 0, flipped, plus 10 */
    g_assert_cmpfloat_with_epsilon (v[29], 10 + 27 / 255., 1e-5);
  }
  /* a transform's error names the sample */
  {
    g_autoptr(GnnNormalize) three = gnn_normalize_new (GNN_TEST_DATA (0, 0, 0), GNN_TEST_DATA (1, 1, 1), 3, 1, &error);
    g_autoptr(GPtrArray) none = NULL;

    g_object_set (ds, "transform", three, NULL);
    none = gnn_dataset_get_batch (GNN_DATASET (ds), (const guint[]) { 3 }, 1, &error);
    g_assert_null (none);
    g_assert_error (error, GNN_ERROR, GNN_ERROR_SHAPE);
    g_assert_nonnull (strstr (error->message, "the transform of sample 3"));
  }
}

static void
link_into (const char *dir,
           const char *name)
{
  g_autofree char *src = g_build_filename (FASHION_MNIST_DIR, name, NULL);
  g_autofree char *dst = g_build_filename (dir, name, NULL);

  g_assert_cmpint (symlink (src, dst), ==, 0);
}

static void
test_fashion_mnist_lookup (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *root = NULL;
  g_autofree char *raw = NULL;
  g_autoptr(GnnTensorDataset) from_root = NULL;
  g_autoptr(GnnTensorDataset) from_system = NULL;
  g_autoptr(GnnTensorDataset) reference = NULL;
  g_autoptr(GnnTensorDataset) missing = NULL;
  g_autoptr(GPtrArray) item = NULL;
  g_autoptr(GPtrArray) want = NULL;
  const char *saved = gnn_fashion_mnist_system_dir;

  if (!g_file_test (FASHION_MNIST_DIR "/t10k-images-idx3-ubyte.gz", G_FILE_TEST_EXISTS))
    {
      g_test_skip ("Fashion-MNIST is not installed (Debian's dataset-fashion-mnist)");
      return;
    }
  root = g_dir_make_tmp ("gnn-fmnist-XXXXXX", &error);
  g_assert_no_error (error);
  raw = g_build_filename (root, "FashionMNIST", "raw", NULL);
  g_assert_cmpint (g_mkdir_with_parents (raw, 0700), ==, 0);
  link_into (raw, "t10k-images-idx3-ubyte.gz");
  link_into (raw, "t10k-labels-idx1-ubyte.gz");

  g_setenv ("GNN_FASHION_MNIST_LIMIT", "100", TRUE);
  /* the system folder is not looked at when the root has the split */
  gnn_fashion_mnist_system_dir = "/nonexistent/fashion-mnist";
  from_root = gnn_tensor_dataset_new_fashion_mnist (root, FALSE, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (gnn_dataset_get_length (GNN_DATASET (from_root)), ==, 100);
  item = gnn_dataset_get_item (GNN_DATASET (from_root), 7, &error);
  g_assert_no_error (error);
  gnn_test_assert_shape (g_ptr_array_index (item, 0), GNN_TEST_SHAPE (28, 28), 2);
  g_assert_cmpint (gnn_tensor_get_dtype (g_ptr_array_index (item, 0)), ==, GNN_DTYPE_UINT8);
  g_assert_cmpint (gnn_tensor_get_ndim (g_ptr_array_index (item, 1)), ==, 0);
  g_assert_cmpint (gnn_tensor_get_dtype (g_ptr_array_index (item, 1)), ==, GNN_DTYPE_INT64);
  reference = gnn_tensor_dataset_new_idx (FASHION_MNIST_DIR "/t10k-images-idx3-ubyte.gz",
                                          FASHION_MNIST_DIR "/t10k-labels-idx1-ubyte.gz", &error);
  g_assert_no_error (error);
  want = gnn_dataset_get_item (GNN_DATASET (reference), 7, &error);
  {
    g_autofree double *a = gnn_tensor_to_doubles (g_ptr_array_index (item, 0), NULL, &error);
    g_autofree double *b = gnn_tensor_to_doubles (g_ptr_array_index (want, 0), NULL, &error);

    g_assert_cmpmem (a, 784 * sizeof (double), b, 784 * sizeof (double));
    gnn_test_assert_close (g_ptr_array_index (item, 1), (double[]) {
                             gnn_tensor_item (g_ptr_array_index (want, 1), NULL) }, 1, 0, 0);
  }

  /* the train split is not in the root, nor in the (moved) system folder: every path tried */
  missing = gnn_tensor_dataset_new_fashion_mnist (root, TRUE, &error);
  g_assert_null (missing);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
  g_assert_nonnull (strstr (error->message, "FashionMNIST/raw/train-images-idx3-ubyte.gz"));
  g_assert_nonnull (strstr (error->message, "FashionMNIST/raw/train-labels-idx1-ubyte\n"));
  g_assert_nonnull (strstr (error->message, "/nonexistent/fashion-mnist/train-images-idx3-ubyte\n"));
  g_assert_nonnull (strstr (error->message, "/nonexistent/fashion-mnist/train-labels-idx1-ubyte.gz"));
  g_assert_nonnull (strstr (error->message, "does not download"));
  g_clear_error (&error);

  /* the system folder after the root */
  gnn_fashion_mnist_system_dir = saved;
  from_system = gnn_tensor_dataset_new_fashion_mnist (NULL, TRUE, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (gnn_dataset_get_length (GNN_DATASET (from_system)), ==, 100);
  g_unsetenv ("GNN_FASHION_MNIST_LIMIT");

  {
    g_autofree char *a = g_build_filename (raw, "t10k-images-idx3-ubyte.gz", NULL);
    g_autofree char *b = g_build_filename (raw, "t10k-labels-idx1-ubyte.gz", NULL);
    g_autofree char *c = g_build_filename (root, "FashionMNIST", NULL);

    g_unlink (a);
    g_unlink (b);
    g_rmdir (raw);
    g_rmdir (c);
    g_rmdir (root);
  }
}

int
main (int argc, char **argv)
{
  gnn_test_init (&argc, &argv);
  g_test_add_func ("/data/transforms/to-tensor", test_to_tensor);
  g_test_add_func ("/data/transforms/compose", test_compose);
  g_test_add_func ("/data/transforms/random-crop-padding", test_random_crop_padding);
  g_test_add_func ("/data/transforms/random-crop-window", test_random_crop_window);
  g_test_add_func ("/data/transforms/random-horizontal-flip", test_random_horizontal_flip);
  g_test_add_func ("/data/transforms/dataset-transform", test_dataset_transform);
  g_test_add_func ("/data/fashion-mnist/lookup", test_fashion_mnist_lookup);
  return g_test_run ();
}
