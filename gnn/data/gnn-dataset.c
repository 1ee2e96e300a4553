/* gnn-dataset.c: datasets, transforms and the data loader
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <string.h>

#include "core/gnn-philox-private.h"
#include "nn/gnn-props-private.h"
#include "ops/gnn-ops-private.h"
#include "data/gnn-idx.h"
#include "data/gnn-dataset.h"

#include "data/gnn-dataset-private.h"
#include "data/gnn-transforms-private.h"

const char *gnn_fashion_mnist_system_dir = "/usr/share/datasets/fashion-mnist";

/* ---- GnnDataset ---------------------------------------------------------------------- */

/**
 * GnnDataset:
 *
 * A map from sample numbers to samples (`torch.utils.data.Dataset`): each sample is a short
 * list of tensors, such as an image and its label.
 *
 * [class@Gnn.TensorDataset] serves samples out of whole tensors; implement the interface
 * (in any language) for anything else, and give it to a [class@Gnn.DataLoader] for batches.
 */

G_DEFINE_INTERFACE (GnnDataset, gnn_dataset, G_TYPE_OBJECT)

/* the tensors of @store as an array; %NULL with @error when an item is not a tensor */
static GPtrArray *
store_to_array (GListStore *store,
                const char *what,
                GError    **error)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (store));
  GPtrArray *out = g_ptr_array_new_full (n, g_object_unref);

  for (guint i = 0; i < n; i++)
    {
      GObject *item = g_list_model_get_item (G_LIST_MODEL (store), i);

      if (!GNN_IS_TENSOR (item))
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                       "%s: item %u is a %s, not a tensor", what, i,
                       item ? G_OBJECT_TYPE_NAME (item) : "NULL");
          g_clear_object (&item);
          g_ptr_array_unref (out);
          return NULL;
        }
      g_ptr_array_add (out, item);
    }
  return out;
}

static GPtrArray *
call_get_item (GnnDataset *self,
               guint       index,
               GError    **error)
{
  g_autoptr(GListStore) store = g_list_store_new (GNN_TYPE_TENSOR);
  g_autofree char *what = NULL;

  if (!GNN_DATASET_GET_IFACE (self)->fill_item (self, index, store, error))
    {
      if (error && *error == NULL)
        g_set_error (error, GNN_ERROR, GNN_ERROR_FAILED, "%s: get_item (%u) failed",
                     G_OBJECT_TYPE_NAME (self), index);
      return NULL;
    }
  what = g_strdup_printf ("sample %u of %s", index, G_OBJECT_TYPE_NAME (self));
  return store_to_array (store, what, error);
}

/**
 * GnnDatasetInterface::fill_item:
 * @self: a dataset
 * @index: the position of the sample, below the dataset's length
 * @sample: (transfer none): a list store of [class@Gnn.Tensor] to append the sample's
 *   tensors to, such as an image and its label
 * @error: return location for a #GError
 *
 * Appends the tensors of sample @index to @sample (`__getitem__`). Python classes implement
 * `do_get_item (self, index)` returning a sequence of tensors instead.
 *
 * Returns: %TRUE on success, %FALSE with @error set
 */
/**
 * GnnDatasetInterface::fill_batch:
 * @self: a dataset
 * @indices: (array length=n_indices): the positions of the samples
 * @n_indices: the number of samples, at least one
 * @batch: (transfer none): a list store of [class@Gnn.Tensor] to append one tensor per
 *   position of the samples to, each stacked along a new first dimension
 * @error: return location for a #GError
 *
 * Appends the stacked tensors of several samples to @batch. Optional: when %NULL,
 * [method@Gnn.Dataset.get_batch] fetches the samples one by one and stacks them.
 *
 * Returns: %TRUE on success, %FALSE with @error set
 */
static void
gnn_dataset_default_init (GnnDatasetInterface *iface)
{
}

/**
 * gnn_dataset_get_length:
 * @self: a dataset
 *
 * The number of samples (`len(dataset)`).
 *
 * Returns: the number of samples
 */
guint
gnn_dataset_get_length (GnnDataset *self)
{
  g_return_val_if_fail (GNN_IS_DATASET (self), 0);
  return GNN_DATASET_GET_IFACE (self)->get_length (self);
}

/**
 * gnn_dataset_get_item:
 * @self: a dataset
 * @index: the sample's number, below the length
 * @error: return location for a #GError
 *
 * The tensors of one sample (`dataset[index]`).
 *
 * Returns: (transfer container) (element-type Gnn.Tensor): the sample's tensors, or %NULL
 *   with @error set (%GNN_ERROR_INDEX when @index is out of range)
 */
GPtrArray *
gnn_dataset_get_item (GnnDataset *self,
                      guint       index,
                      GError    **error)
{
  guint n;

  g_return_val_if_fail (GNN_IS_DATASET (self), NULL);
  n = gnn_dataset_get_length (self);
  if (index >= n)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INDEX,
                   "sample %u is out of range for a dataset of %u samples", index, n);
      return NULL;
    }
  return call_get_item (self, index, error);
}

/**
 * gnn_dataset_get_batch:
 * @self: a dataset
 * @indices: (array length=n_indices): the samples' numbers
 * @n_indices: the number of samples, at least one
 * @error: return location for a #GError
 *
 * The tensors of several samples, each stacked along a new first dimension (PyTorch's
 * default collate). Datasets that can gather a batch at once (as [class@Gnn.TensorDataset]
 * does) implement `fill_batch`; for others the samples are fetched one by one and stacked.
 *
 * Returns: (transfer container) (element-type Gnn.Tensor): one tensor per position of the
 *   samples, or %NULL with @error set
 */
GPtrArray *
gnn_dataset_get_batch (GnnDataset  *self,
                       const guint *indices,
                       guint        n_indices,
                       GError     **error)
{
  GnnDatasetInterface *iface;
  g_autoptr(GPtrArray) samples = NULL;
  GPtrArray *out;
  guint n, width = 0;

  g_return_val_if_fail (GNN_IS_DATASET (self), NULL);
  g_return_val_if_fail (indices != NULL && n_indices > 0, NULL);
  n = gnn_dataset_get_length (self);
  for (guint i = 0; i < n_indices; i++)
    if (indices[i] >= n)
      {
        g_set_error (error, GNN_ERROR, GNN_ERROR_INDEX,
                     "sample %u is out of range for a dataset of %u samples", indices[i], n);
        return NULL;
      }
  iface = GNN_DATASET_GET_IFACE (self);
  if (iface->fill_batch)
    {
      g_autoptr(GListStore) store = g_list_store_new (GNN_TYPE_TENSOR);

      if (!iface->fill_batch (self, indices, n_indices, store, error))
        {
          if (error && *error == NULL)
            g_set_error (error, GNN_ERROR, GNN_ERROR_FAILED, "%s: get_batch failed",
                         G_OBJECT_TYPE_NAME (self));
          return NULL;
        }
      return store_to_array (store, "a batch", error);
    }

  samples = g_ptr_array_new_with_free_func ((GDestroyNotify) g_ptr_array_unref);
  for (guint i = 0; i < n_indices; i++)
    {
      GPtrArray *s = call_get_item (self, indices[i], error);

      if (s == NULL)
        return NULL;
      if (i == 0)
        width = s->len;
      g_ptr_array_add (samples, s);
      if (s->len != width || width == 0)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                       "sample %u has %u tensors, sample %u has %u: a batch needs samples of one "
                       "form", indices[0], width, indices[i], s->len);
          return NULL;
        }
    }
  out = g_ptr_array_new_with_free_func (g_object_unref);
  for (guint k = 0; k < width; k++)
    {
      g_autofree GnnTensor **column = g_new (GnnTensor *, n_indices);
      GnnTensor *stacked;

      for (guint i = 0; i < n_indices; i++)
        column[i] = g_ptr_array_index ((GPtrArray *) g_ptr_array_index (samples, i), k);
      stacked = gnn_stack (column, n_indices, 0, error);
      if (stacked == NULL)
        {
          g_prefix_error (error, "stacking tensor %u of the samples: ", k);
          g_ptr_array_unref (out);
          return NULL;
        }
      g_ptr_array_add (out, stacked);
    }
  return out;
}

/* ---- GnnTensorDataset ---------------------------------------------------------------- */

/**
 * GnnTensorDataset:
 *
 * A dataset of whole tensors that share their first dimension
 * (`torch.utils.data.TensorDataset`): sample i is the i-th row of each tensor. Batches are
 * gathered with one index-select per tensor, on the tensors' device.
 *
 * #GnnTensorDataset:transform and #GnnTensorDataset:target-transform transform the first
 * and the second tensor of each sample, as a torchvision dataset applies `transform` to the
 * image and `target_transform` to the label; batches are then transformed sample by sample
 * and stacked.
 */
struct _GnnTensorDataset
{
  GObject parent_instance;

  GPtrArray *tensors;
  guint length;
  GnnTransform *transform;
  GnnTransform *target_transform;
};

enum {
  TD_PROP_0,
  TD_PROP_TRANSFORM,
  TD_PROP_TARGET_TRANSFORM,
  TD_N_PROPS
};

static GnnProp td_props[TD_N_PROPS];

static void gnn_tensor_dataset_iface_init (GnnDatasetInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (GnnTensorDataset, gnn_tensor_dataset, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (GNN_TYPE_DATASET, gnn_tensor_dataset_iface_init))

static void
gnn_tensor_dataset_finalize (GObject *object)
{
  GnnTensorDataset *self = GNN_TENSOR_DATASET (object);

  gnn_props_clear (self);
  g_ptr_array_unref (self->tensors);
  G_OBJECT_CLASS (gnn_tensor_dataset_parent_class)->finalize (object);
}

static void
gnn_tensor_dataset_class_init (GnnTensorDatasetClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = gnn_tensor_dataset_finalize;

  /**
   * GnnTensorDataset:transform:
   *
   * A transform of the first tensor of each sample (the image), or %NULL
   * (`transform=` of torchvision's datasets).
   *
   * Since: 0.1
   */
  td_props[TD_PROP_TRANSFORM] = (GnnProp) {
    g_param_spec_object ("transform", NULL, NULL, GNN_TYPE_TRANSFORM, GNN_PARAM_RW),
    G_STRUCT_OFFSET (GnnTensorDataset, transform) };
  /**
   * GnnTensorDataset:target-transform:
   *
   * A transform of the second tensor of each sample (the label), or %NULL
   * (`target_transform=` of torchvision's datasets).
   *
   * Since: 0.1
   */
  td_props[TD_PROP_TARGET_TRANSFORM] = (GnnProp) {
    g_param_spec_object ("target-transform", NULL, NULL, GNN_TYPE_TRANSFORM, GNN_PARAM_RW),
    G_STRUCT_OFFSET (GnnTensorDataset, target_transform) };
  gnn_props_install (object_class, td_props, TD_N_PROPS);
}

static void
gnn_tensor_dataset_init (GnnTensorDataset *self)
{
  self->tensors = g_ptr_array_new_with_free_func (g_object_unref);
}

/* the transform of tensor @k of each sample, or NULL */
static GnnTransform *
tensor_dataset_transform_of (GnnTensorDataset *self,
                             guint             k)
{
  return k == 0 ? self->transform : k == 1 ? self->target_transform : NULL;
}

/* row @index of tensor @k, through its transform */
static GnnTensor *
tensor_dataset_row (GnnTensorDataset *self,
                    guint             k,
                    guint             index,
                    GError          **error)
{
  GnnTransform *transform = tensor_dataset_transform_of (self, k);
  g_autoptr(GnnTensor) row = gnn_tensor_select (g_ptr_array_index (self->tensors, k), 0, index, error);
  GnnTensor *out;

  if (row == NULL || transform == NULL)
    return g_steal_pointer (&row);
  out = gnn_transform_apply (transform, row, error);
  if (out == NULL)
    g_prefix_error (error, "the %s of sample %u: ", k == 0 ? "transform" : "target transform", index);
  return out;
}

static guint
tensor_dataset_get_length (GnnDataset *dataset)
{
  return GNN_TENSOR_DATASET (dataset)->length;
}

static gboolean
tensor_dataset_get_item (GnnDataset *dataset,
                         guint       index,
                         GListStore *sample,
                         GError    **error)
{
  GnnTensorDataset *self = GNN_TENSOR_DATASET (dataset);

  for (guint k = 0; k < self->tensors->len; k++)
    {
      g_autoptr(GnnTensor) row = tensor_dataset_row (self, k, index, error);

      if (row == NULL)
        return FALSE;
      g_list_store_append (sample, row);
    }
  return TRUE;
}

/* the rows @indices of tensor @k, each through its transform, stacked */
static GnnTensor *
tensor_dataset_transformed_rows (GnnTensorDataset *self,
                                 guint             k,
                                 const guint      *indices,
                                 guint             n_indices,
                                 GError          **error)
{
  g_autoptr(GPtrArray) rows = g_ptr_array_new_full (n_indices, g_object_unref);
  GnnTensor *stacked;

  for (guint i = 0; i < n_indices; i++)
    {
      GnnTensor *row = tensor_dataset_row (self, k, indices[i], error);

      if (row == NULL)
        return NULL;
      g_ptr_array_add (rows, row);
    }
  stacked = gnn_stack ((GnnTensor **) rows->pdata, n_indices, 0, error);
  if (stacked == NULL)
    g_prefix_error (error, "stacking the transformed tensor %u of the samples: ", k);
  return stacked;
}

static gboolean
tensor_dataset_get_batch (GnnDataset  *dataset,
                          const guint *indices,
                          guint        n_indices,
                          GListStore  *batch,
                          GError     **error)
{
  GnnTensorDataset *self = GNN_TENSOR_DATASET (dataset);
  g_autofree gint64 *idx = g_new (gint64, n_indices);
  g_autoptr(GnnTensor) index = NULL;
  gint64 n = n_indices;

  for (guint i = 0; i < n_indices; i++)
    idx[i] = indices[i];
  index = gnn_tensor_new_from_int64s (idx, n_indices, &n, 1, error);
  if (index == NULL)
    return FALSE;
  for (guint k = 0; k < self->tensors->len; k++)
    {
      GnnTensor *t = g_ptr_array_index (self->tensors, k);
      g_autoptr(GnnTensor) on_device = NULL;
      g_autoptr(GnnTensor) rows = NULL;

      if (tensor_dataset_transform_of (self, k))
        rows = tensor_dataset_transformed_rows (self, k, indices, n_indices, error);
      else if ((on_device = gnn_tensor_to_device_of (index, t, error)))
        rows = gnn_tensor_index_select (t, 0, on_device, error);
      if (rows == NULL)
        return FALSE;
      g_list_store_append (batch, rows);
    }
  return TRUE;
}

static void
gnn_tensor_dataset_iface_init (GnnDatasetInterface *iface)
{
  iface->get_length = tensor_dataset_get_length;
  iface->fill_item = tensor_dataset_get_item;
  iface->fill_batch = tensor_dataset_get_batch;
}

/**
 * gnn_tensor_dataset_new:
 * @tensors: (array length=n_tensors) (nullable): the tensors, each with at least one
 *   dimension, all of the same size in the first
 * @n_tensors: the number of tensors; 0 gives an empty dataset
 * @error: return location for a #GError
 *
 * Creates a dataset whose sample i is the i-th row of each tensor
 * (`TensorDataset(*tensors)`). The tensors are kept, not copied. torch accepts
 * `TensorDataset()` without tensors too (its `len` then fails); here that dataset has
 * length 0.
 *
 * Returns: (transfer full): a new dataset, or %NULL with @error set (%GNN_ERROR_SHAPE) when
 *   the first sizes differ
 */
GnnTensorDataset *
gnn_tensor_dataset_new (GnnTensor **tensors,
                        guint       n_tensors,
                        GError    **error)
{
  GnnTensorDataset *self;
  gint64 n = -1;

  g_return_val_if_fail (tensors != NULL || n_tensors == 0, NULL);
  for (guint k = 0; k < n_tensors; k++)
    {
      gint64 rows;

      g_return_val_if_fail (GNN_IS_TENSOR (tensors[k]), NULL);
      if (gnn_tensor_get_ndim (tensors[k]) == 0)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                       "tensor %u of a TensorDataset is 0-dimensional: it needs a first dimension", k);
          return NULL;
        }
      rows = gnn_tensor_get_shape (tensors[k], NULL)[0];
      if (n >= 0 && rows != n)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                       "Size mismatch between tensors: tensor 0 has %" G_GINT64_FORMAT " rows, tensor %u has %"
                       G_GINT64_FORMAT, n, k, rows);
          return NULL;
        }
      n = rows;
    }
  if (n > G_MAXUINT)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE, "%" G_GINT64_FORMAT " samples are too many for a "
                   "dataset (at most %u)", n, G_MAXUINT);
      return NULL;
    }
  self = g_object_new (GNN_TYPE_TENSOR_DATASET, NULL);
  for (guint k = 0; k < n_tensors; k++)
    g_ptr_array_add (self->tensors, g_object_ref (tensors[k]));
  self->length = MAX (n, 0);
  return self;
}

/* The images (N, H, W) and int64 labels (N) of an IDX pair; FALSE with @error set. */
static gboolean
load_idx_pair (const char *images_path,
               const char *labels_path,
               GnnTensor **images,
               GnnTensor **labels,
               GError    **error)
{
  g_autoptr(GnnTensor) im = gnn_idx_load (images_path, error);
  g_autoptr(GnnTensor) lb = im ? gnn_idx_load (labels_path, error) : NULL;
  guint ndim;

  if (lb == NULL)
    return FALSE;
  gnn_tensor_get_shape (im, &ndim);
  if (ndim != 3 || gnn_tensor_get_ndim (lb) != 1)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "expected images (N, H, W) and labels (N), found %u and %u dimensions", ndim,
                   gnn_tensor_get_ndim (lb));
      return FALSE;
    }
  *labels = gnn_tensor_to_dtype (lb, GNN_DTYPE_INT64, error);
  if (*labels == NULL)
    return FALSE;
  *images = g_steal_pointer (&im);
  return TRUE;
}

/**
 * gnn_tensor_dataset_new_idx:
 * @images_path: (type filename): an IDX file of images (N, H, W), gzipped or not
 * @labels_path: (type filename): an IDX file of N labels
 * @error: return location for a #GError
 *
 * A dataset of images and labels in the MNIST format, such as Fashion-MNIST's
 * `train-images-idx3-ubyte.gz` and `train-labels-idx1-ubyte.gz`: the images as a uint8 tensor
 * (N, 1, H, W), the labels as int64 (N). Give the loader a [class@Gnn.Normalize] to turn the
 * images into normalized floats batch by batch.
 *
 * Returns: (transfer full): a new dataset, or %NULL with @error set (as [func@Gnn.idx_load],
 *   or %GNN_ERROR_SHAPE when the files do not match)
 */
GnnTensorDataset *
gnn_tensor_dataset_new_idx (const char *images_path,
                            const char *labels_path,
                            GError    **error)
{
  g_autoptr(GnnTensor) images = NULL;
  g_autoptr(GnnTensor) labels = NULL;
  g_autoptr(GnnTensor) images4 = NULL;
  const gint64 *shape;

  g_return_val_if_fail (images_path != NULL && labels_path != NULL, NULL);
  if (!load_idx_pair (images_path, labels_path, &images, &labels, error))
    return NULL;
  shape = gnn_tensor_get_shape (images, NULL);
  images4 = gnn_tensor_reshape (images, (const gint64[]) { shape[0], 1, shape[1], shape[2] }, 4, error);
  if (images4 == NULL)
    return NULL;
  return gnn_tensor_dataset_new ((GnnTensor *[]) { images4, labels }, 2, error);
}

/* the path of @name in @dir, gzipped or not, or NULL; each path tried is added to @tried */
static char *
find_idx_file (const char *dir,
               const char *name,
               GString    *tried)
{
  const char *suffixes[] = { "", ".gz" };

  for (guint k = 0; k < G_N_ELEMENTS (suffixes); k++)
    {
      g_autofree char *base = g_strconcat (name, suffixes[k], NULL);
      char *path = g_build_filename (dir, base, NULL);

      if (g_file_test (path, G_FILE_TEST_IS_REGULAR))
        return path;
      g_string_append_printf (tried, "\n  %s", path);
      g_free (path);
    }
  return NULL;
}

/**
 * gnn_tensor_dataset_new_fashion_mnist:
 * @root: (type filename) (nullable): the folder torchvision's `FashionMNIST(root)` reads,
 *   or %NULL for the system's copy only
 * @train: %TRUE for the 60 000 training samples, %FALSE for the 10 000 test samples
 * @error: return location for a #GError
 *
 * Fashion-MNIST as torchvision's `datasets.FashionMNIST(root, train)` has it, read from disk
 * only (gnn never downloads): the files `train-images-idx3-ubyte` and
 * `train-labels-idx1-ubyte` (`t10k-` for the test split), gzipped or not, are looked for in
 * `root/FashionMNIST/raw/` (torchvision's layout), then in
 * `/usr/share/datasets/fashion-mnist/` (where Debian's dataset-fashion-mnist package puts
 * them).
 *
 * Sample i is the image as a uint8 tensor (28, 28), as the array behind torchvision's PIL
 * image, and its label as a 0-dimensional int64 tensor; a [class@Gnn.ToTensor] as
 * #GnnTensorDataset:transform makes the float (1, 28, 28) image of `transform=ToTensor()`.
 *
 * The environment variable `GNN_FASHION_MNIST_LIMIT=N` keeps only the first N samples of
 * each split, for tests and quick runs.
 *
 * Returns: (transfer full): a new dataset, or %NULL with @error set: %G_IO_ERROR_NOT_FOUND,
 *   listing every path tried, when neither folder has both files; the errors of
 *   [func@Gnn.idx_load] for a file that is not IDX
 */
GnnTensorDataset *
gnn_tensor_dataset_new_fashion_mnist (const char *root,
                                      gboolean    train,
                                      GError    **error)
{
  const char *split = train ? "train" : "t10k";
  g_autofree char *images_name = g_strconcat (split, "-images-idx3-ubyte", NULL);
  g_autofree char *labels_name = g_strconcat (split, "-labels-idx1-ubyte", NULL);
  g_autofree char *root_dir = root ? g_build_filename (root, "FashionMNIST", "raw", NULL) : NULL;
  const char *dirs[] = { root_dir, gnn_fashion_mnist_system_dir };
  g_autoptr(GString) tried = g_string_new (NULL);
  g_autoptr(GnnTensor) images = NULL;
  g_autoptr(GnnTensor) labels = NULL;
  const char *limit_env = g_getenv ("GNN_FASHION_MNIST_LIMIT");

  for (guint d = 0; d < G_N_ELEMENTS (dirs) && images == NULL; d++)
    {
      g_autofree char *images_path = NULL;
      g_autofree char *labels_path = NULL;

      if (dirs[d] == NULL)
        continue;
      images_path = find_idx_file (dirs[d], images_name, tried);
      labels_path = find_idx_file (dirs[d], labels_name, tried);
      if (images_path && labels_path &&
          !load_idx_pair (images_path, labels_path, &images, &labels, error))
        return NULL;
    }
  if (images == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                   "Fashion-MNIST (%s split) not found: gnn does not download it; put torchvision's "
                   "files in ROOT/FashionMNIST/raw or install Debian's dataset-fashion-mnist. Looked "
                   "for:%s", train ? "train" : "test", tried->str);
      return NULL;
    }
  if (limit_env != NULL)
    {
      guint64 limit = g_ascii_strtoull (limit_env, NULL, 10);
      gint64 n = gnn_tensor_get_shape (images, NULL)[0];

      if (limit > 0 && (gint64) limit < n)
        {
          GnnTensor *im = gnn_tensor_narrow (images, 0, 0, limit, error);
          GnnTensor *lb = im ? gnn_tensor_narrow (labels, 0, 0, limit, error) : NULL;

          g_clear_object (&images);
          g_clear_object (&labels);
          images = im;
          labels = lb;
          if (labels == NULL)
            return NULL;
        }
    }
  return gnn_tensor_dataset_new ((GnnTensor *[]) { images, labels }, 2, error);
}

/**
 * gnn_tensor_dataset_get_tensor:
 * @self: a tensor dataset
 * @index: which tensor
 *
 * One of the dataset's tensors (`dataset.tensors[index]`).
 *
 * Returns: (transfer none): the tensor
 */
GnnTensor *
gnn_tensor_dataset_get_tensor (GnnTensorDataset *self,
                               guint             index)
{
  g_return_val_if_fail (GNN_IS_TENSOR_DATASET (self), NULL);
  g_return_val_if_fail (index < self->tensors->len, NULL);
  return g_ptr_array_index (self->tensors, index);
}

/**
 * gnn_tensor_dataset_get_n_tensors:
 * @self: a tensor dataset
 *
 * The number of tensors in each sample.
 *
 * Returns: the number of tensors
 */
guint
gnn_tensor_dataset_get_n_tensors (GnnTensorDataset *self)
{
  g_return_val_if_fail (GNN_IS_TENSOR_DATASET (self), 0);
  return self->tensors->len;
}

/* ---- GnnSubset ----------------------------------------------------------------------- */

/* appends the tensors of @tensors to @store */
static void
append_all (GListStore *store,
            GPtrArray  *tensors)
{
  for (guint i = 0; i < tensors->len; i++)
    g_list_store_append (store, g_ptr_array_index (tensors, i));
}

/**
 * GnnSubset:
 *
 * The samples of a dataset at given positions, in that order (`torch.utils.data.Subset`):
 * sample i is sample `indices[i]` of the dataset. Batches are the dataset's batches of the
 * mapped positions, so a subset of a [class@Gnn.TensorDataset] is gathered at once.
 */
struct _GnnSubset
{
  GObject parent_instance;

  GnnDataset *dataset;
  guint *indices;
  guint n_indices;
};

static void gnn_subset_iface_init (GnnDatasetInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (GnnSubset, gnn_subset, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (GNN_TYPE_DATASET, gnn_subset_iface_init))

static void
gnn_subset_finalize (GObject *object)
{
  GnnSubset *self = GNN_SUBSET (object);

  g_clear_object (&self->dataset);
  g_free (self->indices);
  G_OBJECT_CLASS (gnn_subset_parent_class)->finalize (object);
}

static void
gnn_subset_class_init (GnnSubsetClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = gnn_subset_finalize;
}

static void gnn_subset_init (GnnSubset *self) {}

static guint
subset_get_length (GnnDataset *dataset)
{
  return GNN_SUBSET (dataset)->n_indices;
}

static gboolean
subset_fill_item (GnnDataset *dataset,
                  guint       index,
                  GListStore *sample,
                  GError    **error)
{
  GnnSubset *self = GNN_SUBSET (dataset);
  g_autoptr(GPtrArray) item = gnn_dataset_get_item (self->dataset, self->indices[index], error);

  if (item == NULL)
    return FALSE;
  append_all (sample, item);
  return TRUE;
}

static gboolean
subset_fill_batch (GnnDataset  *dataset,
                   const guint *indices,
                   guint        n_indices,
                   GListStore  *batch,
                   GError     **error)
{
  GnnSubset *self = GNN_SUBSET (dataset);
  g_autofree guint *mapped = g_new (guint, n_indices);
  g_autoptr(GPtrArray) tensors = NULL;

  for (guint i = 0; i < n_indices; i++)
    mapped[i] = self->indices[indices[i]];
  tensors = gnn_dataset_get_batch (self->dataset, mapped, n_indices, error);
  if (tensors == NULL)
    return FALSE;
  append_all (batch, tensors);
  return TRUE;
}

static void
gnn_subset_iface_init (GnnDatasetInterface *iface)
{
  iface->get_length = subset_get_length;
  iface->fill_item = subset_fill_item;
  iface->fill_batch = subset_fill_batch;
}

/**
 * gnn_subset_new:
 * @dataset: the dataset
 * @indices: (array length=n_indices) (nullable): the positions of the samples in @dataset,
 *   each below its length; they may repeat
 * @n_indices: the number of positions
 * @error: return location for a #GError
 *
 * Creates the subset (`Subset(dataset, indices)`); the positions are copied.
 *
 * Returns: (transfer full): a new subset, or %NULL with @error set (%GNN_ERROR_INDEX when a
 *   position is out of range)
 */
GnnSubset *
gnn_subset_new (GnnDataset  *dataset,
                const guint *indices,
                guint        n_indices,
                GError     **error)
{
  GnnSubset *self;
  guint n;

  g_return_val_if_fail (GNN_IS_DATASET (dataset), NULL);
  g_return_val_if_fail (indices != NULL || n_indices == 0, NULL);
  n = gnn_dataset_get_length (dataset);
  for (guint i = 0; i < n_indices; i++)
    if (indices[i] >= n)
      {
        g_set_error (error, GNN_ERROR, GNN_ERROR_INDEX,
                     "Subset: index %u (position %u) is out of range for a dataset of %u samples",
                     indices[i], i, n);
        return NULL;
      }
  self = g_object_new (GNN_TYPE_SUBSET, NULL);
  self->dataset = g_object_ref (dataset);
  self->indices = g_memdup2 (indices, MAX (n_indices, 1) * sizeof (guint));
  self->n_indices = n_indices;
  return self;
}

/**
 * gnn_subset_get_dataset:
 * @self: a subset
 *
 * The dataset the samples come from (`subset.dataset`).
 *
 * Returns: (transfer none): the dataset
 */
GnnDataset *
gnn_subset_get_dataset (GnnSubset *self)
{
  g_return_val_if_fail (GNN_IS_SUBSET (self), NULL);
  return self->dataset;
}

/**
 * gnn_subset_get_indices:
 * @self: a subset
 * @n_indices: (out): the number of positions
 *
 * The positions of the samples in the dataset (`subset.indices`).
 *
 * Returns: (transfer none) (array length=n_indices): the positions
 */
guint *
gnn_subset_get_indices (GnnSubset *self,
                        guint     *n_indices)
{
  g_return_val_if_fail (GNN_IS_SUBSET (self), NULL);
  g_return_val_if_fail (n_indices != NULL, NULL);
  *n_indices = self->n_indices;
  return self->indices;
}

/* ---- GnnConcatDataset ---------------------------------------------------------------- */

/**
 * GnnConcatDataset:
 *
 * The samples of several datasets one after the other (`torch.utils.data.ConcatDataset`).
 * Batches are stacked from the samples, which may come from different datasets.
 */
struct _GnnConcatDataset
{
  GObject parent_instance;

  GPtrArray *datasets;
  guint *ends;   /* ends[k]: the number of samples of datasets 0 to k (cumulative_sizes) */
};

static void gnn_concat_dataset_iface_init (GnnDatasetInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (GnnConcatDataset, gnn_concat_dataset, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (GNN_TYPE_DATASET, gnn_concat_dataset_iface_init))

static void
gnn_concat_dataset_finalize (GObject *object)
{
  GnnConcatDataset *self = GNN_CONCAT_DATASET (object);

  g_ptr_array_unref (self->datasets);
  g_free (self->ends);
  G_OBJECT_CLASS (gnn_concat_dataset_parent_class)->finalize (object);
}

static void
gnn_concat_dataset_class_init (GnnConcatDatasetClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = gnn_concat_dataset_finalize;
}

static void
gnn_concat_dataset_init (GnnConcatDataset *self)
{
  self->datasets = g_ptr_array_new_with_free_func (g_object_unref);
}

static guint
concat_get_length (GnnDataset *dataset)
{
  GnnConcatDataset *self = GNN_CONCAT_DATASET (dataset);

  return self->ends[self->datasets->len - 1];
}

static gboolean
concat_fill_item (GnnDataset *dataset,
                  guint       index,
                  GListStore *sample,
                  GError    **error)
{
  GnnConcatDataset *self = GNN_CONCAT_DATASET (dataset);
  guint lo = 0, hi = self->datasets->len - 1;
  g_autoptr(GPtrArray) item = NULL;

  /* the first dataset whose end is past @index (bisect_right of the cumulative sizes) */
  while (lo < hi)
    {
      guint mid = (lo + hi) / 2;

      if (self->ends[mid] > index)
        hi = mid;
      else
        lo = mid + 1;
    }
  item = gnn_dataset_get_item (g_ptr_array_index (self->datasets, lo),
                               index - (lo > 0 ? self->ends[lo - 1] : 0), error);
  if (item == NULL)
    return FALSE;
  append_all (sample, item);
  return TRUE;
}

static void
gnn_concat_dataset_iface_init (GnnDatasetInterface *iface)
{
  iface->get_length = concat_get_length;
  iface->fill_item = concat_fill_item;
}

/**
 * gnn_concat_dataset_new:
 * @datasets: (array length=n_datasets): the datasets, at least one
 * @n_datasets: the number of datasets
 * @error: return location for a #GError
 *
 * Creates the concatenation (`ConcatDataset(datasets)`).
 *
 * Returns: (transfer full): a new dataset, or %NULL with @error set
 *   (%GNN_ERROR_INVALID_ARGUMENT for no datasets or more than %G_MAXUINT samples)
 */
GnnConcatDataset *
gnn_concat_dataset_new (GnnDataset **datasets,
                        guint        n_datasets,
                        GError     **error)
{
  GnnConcatDataset *self;
  guint64 total = 0;

  g_return_val_if_fail (datasets != NULL || n_datasets == 0, NULL);
  for (guint k = 0; k < n_datasets; k++)
    g_return_val_if_fail (GNN_IS_DATASET (datasets[k]), NULL);
  if (n_datasets == 0)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "ConcatDataset: datasets should not be an empty iterable");
      return NULL;
    }
  self = g_object_new (GNN_TYPE_CONCAT_DATASET, NULL);
  self->ends = g_new (guint, n_datasets);
  for (guint k = 0; k < n_datasets; k++)
    {
      total += gnn_dataset_get_length (datasets[k]);
      if (total > G_MAXUINT)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                       "ConcatDataset: %" G_GUINT64_FORMAT " samples are too many (at most %u)",
                       total, G_MAXUINT);
          g_object_unref (self);
          return NULL;
        }
      self->ends[k] = total;
      g_ptr_array_add (self->datasets, g_object_ref (datasets[k]));
    }
  return self;
}

/* ---- GnnDataLoader ------------------------------------------------------------------- */

/**
 * GnnDataLoader:
 *
 * Batches of a dataset (`torch.utils.data.DataLoader`), as a [iface@Gio.ListModel]: item i
 * is batch i of the current epoch, a [class@Gio.ListStore] of tensors (the dataset's tensors
 * stacked along a new first dimension, the first one passed through the transform when
 * there is one). Iterate it as any list model, or with [method@Gnn.DataLoader.get_batch],
 * which reports errors. In Python, `for images, labels in loader:`.
 *
 * With #GnnDataLoader:shuffle the samples are visited in a random order drawn from
 * #GnnDataLoader:seed and #GnnDataLoader:epoch alone (Philox counters), so an epoch can be
 * replayed, or resumed at any batch, exactly: set the epoch before each pass, as PyTorch's
 * `DistributedSampler.set_epoch`. The order differs from PyTorch's `randperm`. The random
 * transforms that make a batch (#GnnTensorDataset:transform, #GnnDataLoader:transform) draw
 * from a stream of that batch's own, made of the seed, the epoch and the batch's number, so
 * that a batch too is the same each time it is made.
 *
 * [method@Gnn.DataLoader.iterate] makes a pass over the epoch: with #GnnDataLoader:num-workers
 * above 0, worker threads prepare the next batches while the caller uses the current one
 * (`num_workers` of PyTorch, with threads instead of processes), and the batches are the
 * same, bit for bit and in the same order, as with none.
 *
 * With workers, the dataset's `fill_item` or `fill_batch` and the transforms run on several
 * threads at once, each on its own batch: a dataset or transform implementation must allow
 * that (read what it shares, keep anything it writes per call, or lock). gnn's datasets and
 * transforms do; a dataset or transform written in Python runs in the worker with the GIL
 * held, so that only one of them runs Python at a time.
 */
struct _GnnDataLoader
{
  GObject parent_instance;

  GnnDataset *dataset;
  guint batch_size;
  gboolean shuffle;
  guint64 seed;
  gboolean drop_last;
  guint epoch;
  GnnTransform *transform;
  guint num_workers;
  guint prefetch_factor;
  double timeout;
  guint *order;         /* the sample order of the current epoch, or NULL before first use */
  guint order_len;
};

enum {
  PROP_0,
  PROP_DATASET,
  PROP_BATCH_SIZE,
  PROP_SHUFFLE,
  PROP_SEED,
  PROP_DROP_LAST,
  PROP_EPOCH,
  PROP_TRANSFORM,
  PROP_NUM_WORKERS,
  PROP_PREFETCH_FACTOR,
  PROP_TIMEOUT,
  PROP_ITEM_TYPE,
  PROP_N_ITEMS,
  N_PROPS
};

static GnnProp props[N_PROPS];

static void gnn_data_loader_list_model_init (GListModelInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (GnnDataLoader, gnn_data_loader, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL, gnn_data_loader_list_model_init))

static guint
loader_n_batches (GnnDataLoader *self)
{
  guint n = self->dataset ? gnn_dataset_get_length (self->dataset) : 0;

  if (self->batch_size == 0)
    return 0;
  return self->drop_last ? n / self->batch_size : (n + self->batch_size - 1) / self->batch_size;
}

/* The order of the samples in this epoch: a Fisher-Yates shuffle driven by Philox with the
 * seed as key and (epoch, draw) as counter. */
static void
ensure_order (GnnDataLoader *self)
{
  guint n = gnn_dataset_get_length (self->dataset);

  if (self->order && self->order_len == n)
    return;
  g_free (self->order);
  self->order = g_new (guint, MAX (n, 1));
  self->order_len = n;
  for (guint i = 0; i < n; i++)
    self->order[i] = i;
  if (!self->shuffle)
    return;
  for (guint i = n; i > 1; i--)
    {
      guint64 j = gnn_philox_swap_index (((guint64) self->epoch << 32) | (i - 1), self->seed, i);
      guint tmp;

      tmp = self->order[i - 1];
      self->order[i - 1] = self->order[j];
      self->order[j] = tmp;
    }
}

static GType
loader_get_item_type (GListModel *model)
{
  return G_TYPE_LIST_STORE;
}

static guint
loader_get_n_items (GListModel *model)
{
  return loader_n_batches (GNN_DATA_LOADER (model));
}

static gpointer
loader_get_item (GListModel *model,
                 guint       position)
{
  GnnDataLoader *self = GNN_DATA_LOADER (model);
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) batch = NULL;
  GListStore *store;

  if (position >= loader_n_batches (self))
    return NULL;
  batch = gnn_data_loader_get_batch (self, position, &error);
  if (batch == NULL)
    {
      g_warning ("GnnDataLoader: batch %u: %s", position, error->message);
      return NULL;
    }
  store = g_list_store_new (GNN_TYPE_TENSOR);
  for (guint i = 0; i < batch->len; i++)
    g_list_store_append (store, g_ptr_array_index (batch, i));
  return store;
}

static void
gnn_data_loader_list_model_init (GListModelInterface *iface)
{
  iface->get_item_type = loader_get_item_type;
  iface->get_n_items = loader_get_n_items;
  iface->get_item = loader_get_item;
}

static void
gnn_data_loader_finalize (GObject *object)
{
  GnnDataLoader *self = GNN_DATA_LOADER (object);

  gnn_props_clear (self);
  g_free (self->order);
  G_OBJECT_CLASS (gnn_data_loader_parent_class)->finalize (object);
}

static void
loader_set_epoch (GObject      *object,
                  GParamSpec   *pspec,
                  const GValue *value)
{
  gnn_data_loader_set_epoch (GNN_DATA_LOADER (object), g_value_get_uint (value));
}

static void
loader_get_item_type_prop (GObject    *object,
                           GParamSpec *pspec,
                           GValue     *value)
{
  g_value_set_gtype (value, G_TYPE_LIST_STORE);
}

static void
loader_get_n_items_prop (GObject    *object,
                         GParamSpec *pspec,
                         GValue     *value)
{
  g_value_set_uint (value, loader_n_batches (GNN_DATA_LOADER (object)));
}

/* 0 is refused with torch's words; the pspec takes it, so that g_object_new does not only warn
 * and keep the default: gnn_data_loader_new reports it, and so do a pass and get_batch of a
 * loader made with g_object_new */
static gboolean
check_batch_size (GParamSpec *pspec, const GValue *value, GError **error)
{
  if (g_value_get_uint (value) > 0)
    return TRUE;
  g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
               "batch_size should be a positive integer value, but got batch_size=%u", g_value_get_uint (value));
  return FALSE;
}

static void
gnn_data_loader_class_init (GnnDataLoaderClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = gnn_data_loader_finalize;

  /**
   * GnnDataLoader:dataset:
   *
   * The dataset the batches come from.
   */
  props[PROP_DATASET] = (GnnProp) {
    g_param_spec_object ("dataset", NULL, NULL, GNN_TYPE_DATASET,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS),
    G_STRUCT_OFFSET (GnnDataLoader, dataset) };
  /**
   * GnnDataLoader:batch-size:
   *
   * The number of samples per batch (the last one may be smaller unless
   * #GnnDataLoader:drop-last).
   */
  props[PROP_BATCH_SIZE] = (GnnProp) {
    g_param_spec_uint ("batch-size", NULL, NULL, 0, G_MAXUINT, 1,
                       G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS),
    G_STRUCT_OFFSET (GnnDataLoader, batch_size), check_batch_size };
  /**
   * GnnDataLoader:shuffle:
   *
   * Whether each epoch visits the samples in a random order.
   */
  props[PROP_SHUFFLE] = (GnnProp) {
    g_param_spec_boolean ("shuffle", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS),
    G_STRUCT_OFFSET (GnnDataLoader, shuffle) };
  /**
   * GnnDataLoader:seed:
   *
   * The seed of the shuffled orders.
   */
  props[PROP_SEED] = (GnnProp) {
    g_param_spec_uint64 ("seed", NULL, NULL, 0, G_MAXUINT64, 0,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS),
    G_STRUCT_OFFSET (GnnDataLoader, seed) };
  /**
   * GnnDataLoader:drop-last:
   *
   * Whether to leave out the last batch when it would be smaller than the others.
   */
  props[PROP_DROP_LAST] = (GnnProp) {
    g_param_spec_boolean ("drop-last", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS),
    G_STRUCT_OFFSET (GnnDataLoader, drop_last) };
  /**
   * GnnDataLoader:epoch:
   *
   * The epoch whose order the batches follow; with #GnnDataLoader:shuffle, each epoch has
   * its own order.
   */
  props[PROP_EPOCH] = (GnnProp) {
    g_param_spec_uint ("epoch", NULL, NULL, 0, G_MAXUINT, 0,
                       G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY),
    G_STRUCT_OFFSET (GnnDataLoader, epoch), NULL, NULL, loader_set_epoch };
  /**
   * GnnDataLoader:transform:
   *
   * A transform applied to the first tensor of each batch (the input), or %NULL: a
   * [class@Gnn.Normalize] turns a batch of byte images into normalized floats at once. A
   * transform of each sample, as torchvision datasets apply theirs, belongs to the dataset
   * (#GnnTensorDataset:transform).
   */
  props[PROP_TRANSFORM] = (GnnProp) {
    g_param_spec_object ("transform", NULL, NULL, GNN_TYPE_TRANSFORM,
                         G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY),
    G_STRUCT_OFFSET (GnnDataLoader, transform) };
  /**
   * GnnDataLoader:num-workers:
   *
   * The number of worker threads that prepare batches ahead of a pass of
   * [method@Gnn.DataLoader.iterate] (`num_workers`): 0 makes each batch on the calling thread
   * when it is asked for. The batches are the same either way.
   *
   * Since: 0.1
   */
  props[PROP_NUM_WORKERS] = (GnnProp) {
    g_param_spec_uint ("num-workers", NULL, NULL, 0, G_MAXUINT16, 0, GNN_PARAM_RW),
    G_STRUCT_OFFSET (GnnDataLoader, num_workers) };
  /**
   * GnnDataLoader:prefetch-factor:
   *
   * How many batches each worker may have ready ahead of the caller (`prefetch_factor`):
   * a pass holds at most #GnnDataLoader:num-workers times this many batches at once.
   *
   * Since: 0.1
   */
  props[PROP_PREFETCH_FACTOR] = (GnnProp) {
    g_param_spec_uint ("prefetch-factor", NULL, NULL, 1, G_MAXUINT16, 2, GNN_PARAM_RW),
    G_STRUCT_OFFSET (GnnDataLoader, prefetch_factor) };
  /**
   * GnnDataLoader:timeout:
   *
   * With workers, how many seconds [method@Gnn.DataLoaderIter.next] waits for a batch before
   * it fails (`timeout`); 0 waits as long as it takes.
   *
   * Since: 0.1
   */
  props[PROP_TIMEOUT] = (GnnProp) {
    g_param_spec_double ("timeout", NULL, NULL, 0.0, G_MAXDOUBLE, 0.0, GNN_PARAM_RW),
    G_STRUCT_OFFSET (GnnDataLoader, timeout) };
  /**
   * GnnDataLoader:item-type:
   *
   * The type of the items: #GListStore (of tensors).
   */
  props[PROP_ITEM_TYPE] = (GnnProp) {
    g_param_spec_gtype ("item-type", NULL, NULL, G_TYPE_OBJECT,
                        G_PARAM_READABLE | G_PARAM_STATIC_STRINGS),
    GNN_PROP_NO_MEMBER, NULL, loader_get_item_type_prop };
  /**
   * GnnDataLoader:n-items:
   *
   * The number of batches per epoch.
   */
  props[PROP_N_ITEMS] = (GnnProp) {
    g_param_spec_uint ("n-items", NULL, NULL, 0, G_MAXUINT, 0,
                       G_PARAM_READABLE | G_PARAM_STATIC_STRINGS),
    GNN_PROP_NO_MEMBER, NULL, loader_get_n_items_prop };
  gnn_props_install (object_class, props, N_PROPS);
}

static void
gnn_data_loader_init (GnnDataLoader *self)
{
  self->batch_size = 1;
  self->prefetch_factor = 2;
}

/**
 * gnn_data_loader_new:
 * @dataset: the dataset
 * @batch_size: the number of samples per batch, at least 1
 * @shuffle: whether each epoch visits the samples in a random order
 * @seed: the seed of the random orders
 * @drop_last: whether to leave out a last, smaller batch
 * @error: return location for a #GError
 *
 * Creates a loader (`DataLoader(dataset, batch_size, shuffle, drop_last)`) at epoch 0.
 * A @batch_size of 0 is an error (%GNN_ERROR_INVALID_ARGUMENT, torch's "batch_size should
 * be a positive integer value"); a loader made with g_object_new() and such a value reports
 * the same error from its first pass and from [method@Gnn.DataLoader.get_batch].
 *
 * Returns: (transfer full): a new loader, or %NULL with @error set
 */
GnnDataLoader *
gnn_data_loader_new (GnnDataset *dataset,
                     guint       batch_size,
                     gboolean    shuffle,
                     guint64     seed,
                     gboolean    drop_last,
                     GError    **error)
{
  g_autoptr(GnnDataLoader) self = NULL;

  g_return_val_if_fail (GNN_IS_DATASET (dataset), NULL);
  self = g_object_new (GNN_TYPE_DATA_LOADER, "dataset", dataset, "batch-size", batch_size,
                       "shuffle", shuffle, "seed", seed, "drop-last", drop_last, NULL);
  if (!gnn_props_check (self, error))
    return NULL;
  return g_steal_pointer (&self);
}

/**
 * gnn_data_loader_get_dataset:
 * @self: a loader
 *
 * The dataset.
 *
 * Returns: (transfer none): the dataset
 */
GnnDataset *
gnn_data_loader_get_dataset (GnnDataLoader *self)
{
  g_return_val_if_fail (GNN_IS_DATA_LOADER (self), NULL);
  return self->dataset;
}

/**
 * gnn_data_loader_get_batch_size:
 * @self: a loader
 *
 * The number of samples per batch.
 *
 * Returns: the batch size
 */
guint
gnn_data_loader_get_batch_size (GnnDataLoader *self)
{
  g_return_val_if_fail (GNN_IS_DATA_LOADER (self), 0);
  return self->batch_size;
}

/**
 * gnn_data_loader_get_epoch:
 * @self: a loader
 *
 * The epoch whose order the batches follow.
 *
 * Returns: the epoch
 */
guint
gnn_data_loader_get_epoch (GnnDataLoader *self)
{
  g_return_val_if_fail (GNN_IS_DATA_LOADER (self), 0);
  return self->epoch;
}

/**
 * gnn_data_loader_set_epoch:
 * @self: a loader
 * @epoch: the epoch
 *
 * Chooses the epoch whose order the batches follow. With #GnnDataLoader:shuffle, the
 * batches change; the list model then reports all its items changed.
 */
void
gnn_data_loader_set_epoch (GnnDataLoader *self,
                           guint          epoch)
{
  guint n;

  g_return_if_fail (GNN_IS_DATA_LOADER (self));
  if (self->epoch == epoch)
    return;
  self->epoch = epoch;
  g_clear_pointer (&self->order, g_free);
  g_object_notify_by_pspec (G_OBJECT (self), props[PROP_EPOCH].pspec);
  n = loader_n_batches (self);
  if (self->shuffle && n > 0)
    g_list_model_items_changed (G_LIST_MODEL (self), 0, n, n);
}

/**
 * gnn_data_loader_get_transform:
 * @self: a loader
 *
 * The transform applied to the inputs.
 *
 * Returns: (transfer none) (nullable): the transform, or %NULL
 */
GnnTransform *
gnn_data_loader_get_transform (GnnDataLoader *self)
{
  g_return_val_if_fail (GNN_IS_DATA_LOADER (self), NULL);
  return self->transform;
}

/**
 * gnn_data_loader_set_transform:
 * @self: a loader
 * @transform: (nullable): the transform for the first tensor of each batch, or %NULL
 *
 * Sets the transform applied to the inputs of each batch.
 */
void
gnn_data_loader_set_transform (GnnDataLoader *self,
                               GnnTransform  *transform)
{
  g_return_if_fail (GNN_IS_DATA_LOADER (self));
  g_return_if_fail (transform == NULL || GNN_IS_TRANSFORM (transform));
  gnn_prop_set (self, &props[PROP_TRANSFORM], transform);
}

/**
 * gnn_data_loader_get_indices:
 * @self: a loader
 * @index: the batch's number in the epoch
 * @n_indices: (out): the number of samples in the batch
 *
 * The numbers of the samples that make batch @index of the current epoch.
 *
 * Returns: (transfer full) (array length=n_indices) (nullable): the sample numbers, or
 *   %NULL when @index is past the last batch
 */
guint *
gnn_data_loader_get_indices (GnnDataLoader *self,
                             guint          index,
                             guint         *n_indices)
{
  guint n, start, count;

  g_return_val_if_fail (GNN_IS_DATA_LOADER (self), NULL);
  g_return_val_if_fail (n_indices != NULL, NULL);
  *n_indices = 0;
  if (index >= loader_n_batches (self))
    return NULL;
  ensure_order (self);
  n = self->order_len;
  start = index * self->batch_size;
  count = MIN (self->batch_size, n - start);
  *n_indices = count;
  return g_memdup2 (self->order + start, count * sizeof (guint));
}

/* The key of batch @index's draws: Philox of (epoch, batch) under the seed, in a stream apart
 * from the shuffle's (whose counters are (epoch, draw) under the seed itself). */
#define DRAW_STREAM G_GUINT64_CONSTANT (0xD1B54A32D192ED03)

/* Batch @index of @epoch of the samples @indices: the dataset's tensors, the first through
 * @transform, all in a draw scope of their own. MT safe when the dataset and transform are. */
static GPtrArray *
make_batch (GnnDataset   *dataset,
            GnnTransform *transform,
            guint64       seed,
            guint         epoch,
            guint         index,
            const guint  *indices,
            guint         n_indices,
            GError      **error)
{
  guint32 w[4];
  GnnDrawScope scope, *previous;
  GPtrArray *batch;

  gnn_philox4x32 (((guint64) epoch << 32) | index, seed ^ DRAW_STREAM, w);
  scope.key = ((guint64) w[0] << 32) | w[1];
  scope.counter = 0;
  previous = gnn_draw_scope_swap (&scope);
  batch = gnn_dataset_get_batch (dataset, indices, n_indices, error);
  if (batch && transform && batch->len > 0)
    {
      GnnTensor *x = gnn_transform_apply (transform, g_ptr_array_index (batch, 0), error);

      if (x == NULL)
        g_clear_pointer (&batch, g_ptr_array_unref);
      else
        {
          g_object_unref (g_ptr_array_index (batch, 0));
          batch->pdata[0] = x;
        }
    }
  gnn_draw_scope_swap (previous);
  return batch;
}

/**
 * gnn_data_loader_get_batch:
 * @self: a loader
 * @index: the batch's number in the epoch
 * @error: return location for a #GError
 *
 * Batch @index of the current epoch: the dataset's tensors for those samples, stacked,
 * the first passed through the transform.
 *
 * Returns: (transfer container) (element-type Gnn.Tensor): the batch, or %NULL with @error
 *   set (%GNN_ERROR_INDEX past the last batch, or what the dataset or transform reported)
 */
GPtrArray *
gnn_data_loader_get_batch (GnnDataLoader *self,
                           guint          index,
                           GError       **error)
{
  g_autofree guint *indices = NULL;
  guint n;

  g_return_val_if_fail (GNN_IS_DATA_LOADER (self), NULL);
  if (!gnn_props_check (self, error))
    return NULL;
  indices = gnn_data_loader_get_indices (self, index, &n);
  if (indices == NULL)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INDEX, "batch %u is out of range: the loader has %u "
                   "batches", index, loader_n_batches (self));
      return NULL;
    }
  return make_batch (self->dataset, self->transform, self->seed, self->epoch, index, indices, n, error);
}

/**
 * gnn_data_loader_get_num_workers:
 * @self: a loader
 *
 * Gets #GnnDataLoader:num-workers.
 *
 * Returns: the number of worker threads of a pass
 *
 * Since: 0.1
 */
guint
gnn_data_loader_get_num_workers (GnnDataLoader *self)
{
  g_return_val_if_fail (GNN_IS_DATA_LOADER (self), 0);
  return self->num_workers;
}

/**
 * gnn_data_loader_set_num_workers:
 * @self: a loader
 * @num_workers: the number of worker threads, 0 for none
 *
 * Sets #GnnDataLoader:num-workers; the passes started afterwards use it.
 *
 * Since: 0.1
 */
void
gnn_data_loader_set_num_workers (GnnDataLoader *self,
                                 guint          num_workers)
{
  g_return_if_fail (GNN_IS_DATA_LOADER (self));
  g_return_if_fail (num_workers <= G_MAXUINT16);
  gnn_prop_set (self, &props[PROP_NUM_WORKERS], num_workers);
}

/**
 * gnn_data_loader_get_prefetch_factor:
 * @self: a loader
 *
 * Gets #GnnDataLoader:prefetch-factor.
 *
 * Returns: the number of batches each worker may have ready ahead
 *
 * Since: 0.1
 */
guint
gnn_data_loader_get_prefetch_factor (GnnDataLoader *self)
{
  g_return_val_if_fail (GNN_IS_DATA_LOADER (self), 0);
  return self->prefetch_factor;
}

/**
 * gnn_data_loader_set_prefetch_factor:
 * @self: a loader
 * @prefetch_factor: the number of batches each worker may have ready ahead, at least 1
 *
 * Sets #GnnDataLoader:prefetch-factor; the passes started afterwards use it.
 *
 * Since: 0.1
 */
void
gnn_data_loader_set_prefetch_factor (GnnDataLoader *self,
                                     guint          prefetch_factor)
{
  g_return_if_fail (GNN_IS_DATA_LOADER (self));
  g_return_if_fail (prefetch_factor >= 1 && prefetch_factor <= G_MAXUINT16);
  gnn_prop_set (self, &props[PROP_PREFETCH_FACTOR], prefetch_factor);
}

/**
 * gnn_data_loader_get_timeout:
 * @self: a loader
 *
 * Gets #GnnDataLoader:timeout.
 *
 * Returns: the seconds a pass with workers waits for a batch, 0 for no limit
 *
 * Since: 0.1
 */
double
gnn_data_loader_get_timeout (GnnDataLoader *self)
{
  g_return_val_if_fail (GNN_IS_DATA_LOADER (self), 0.0);
  return self->timeout;
}

/**
 * gnn_data_loader_set_timeout:
 * @self: a loader
 * @timeout: the seconds a pass with workers waits for a batch, 0 for no limit
 *
 * Sets #GnnDataLoader:timeout; the passes started afterwards use it.
 *
 * Since: 0.1
 */
void
gnn_data_loader_set_timeout (GnnDataLoader *self,
                             double         timeout)
{
  g_return_if_fail (GNN_IS_DATA_LOADER (self));
  g_return_if_fail (timeout >= 0.0);
  gnn_prop_set (self, &props[PROP_TIMEOUT], timeout);
}

/* ---- GnnDataLoaderIter --------------------------------------------------------------- */

/**
 * GnnDataLoaderIter:
 *
 * One pass over the batches of a [class@Gnn.DataLoader]'s epoch (what `iter(loader)` gives
 * in PyTorch), made by [method@Gnn.DataLoader.iterate]: [method@Gnn.DataLoaderIter.next]
 * hands out the batches in order, then %NULL.
 *
 * With #GnnDataLoader:num-workers above 0, that many threads make the batches ahead, at most
 * #GnnDataLoader:num-workers × #GnnDataLoader:prefetch-factor batches at a time, and the
 * pass hands them out strictly in order. A batch that fails reaches the caller as the
 * error, at its place; the pass then stops. Dropping the pass early (the last reference, or
 * [method@Gnn.DataLoaderIter.close]) waits for the batches being made and frees the rest.
 *
 * A pass takes the loader's order, dataset, transform and settings when it starts: changing
 * the loader (its epoch, say) changes the passes started afterwards. One thread at a time
 * uses a pass.
 */

typedef struct
{
  gboolean ready;
  GPtrArray *batch;
  GError *error;
} Slot;

struct _GnnDataLoaderIter
{
  GObject parent_instance;

  GnnDataset *dataset;
  GnnTransform *transform;
  guint64 seed;
  guint epoch;
  guint *order;            /* the samples of the pass, batch after batch */
  guint n_samples;
  guint batch_size;
  guint n_batches;
  gint64 timeout_us;       /* 0: none */

  guint position;          /* the next batch to hand out */
  gboolean finished;       /* handed out the last batch or an error, or closed */
  GError *invalid;         /* the loader's hyperparameters are refused: the first next's error */

  /* the workers: the members below the lock are the lock's */
  GPtrArray *threads;      /* (element-type GThread) */
  GMutex lock;
  GCond cond;
  guint window;            /* batches in flight at most: slot b % window holds batch b */
  Slot *slots;
  guint next_claim;        /* the next batch for a worker to make */
  guint consumed;          /* the batches handed out (position, as the workers see it) */
  gboolean stopping;
};

G_DEFINE_FINAL_TYPE (GnnDataLoaderIter, gnn_data_loader_iter, G_TYPE_OBJECT)

static GPtrArray *
iter_make (GnnDataLoaderIter *self,
           guint              index,
           GError           **error)
{
  guint start = index * self->batch_size;
  guint n = MIN (self->batch_size, self->n_samples - start);

  return make_batch (self->dataset, self->transform, self->seed, self->epoch, index,
                     self->order + start, n, error);
}

static gpointer
iter_worker (gpointer data)
{
  GnnDataLoaderIter *self = data;

  g_mutex_lock (&self->lock);
  for (;;)
    {
      GError *error = NULL;
      GPtrArray *batch;
      Slot *slot;
      guint index;

      while (!self->stopping && self->next_claim < self->n_batches
             && self->next_claim >= self->consumed + self->window)
        g_cond_wait (&self->cond, &self->lock);
      if (self->stopping || self->next_claim >= self->n_batches)
        break;
      index = self->next_claim++;
      g_mutex_unlock (&self->lock);

      batch = iter_make (self, index, &error);

      g_mutex_lock (&self->lock);
      slot = &self->slots[index % self->window];
      slot->batch = batch;
      slot->error = error;
      slot->ready = TRUE;
      g_cond_broadcast (&self->cond);
    }
  g_mutex_unlock (&self->lock);
  return NULL;
}

static void
slot_clear (Slot *slot)
{
  g_clear_pointer (&slot->batch, g_ptr_array_unref);
  g_clear_error (&slot->error);
  slot->ready = FALSE;
}

/**
 * gnn_data_loader_iter_close:
 * @self: a pass
 *
 * Ends the pass: the workers finish the batches they are making and stop, and the batches
 * made ahead are freed; [method@Gnn.DataLoaderIter.next] then returns %NULL. Dropping the
 * last reference does the same; call this to end a pass early where the reference may live
 * on (a garbage-collected binding).
 *
 * Since: 0.1
 */
void
gnn_data_loader_iter_close (GnnDataLoaderIter *self)
{
  g_return_if_fail (GNN_IS_DATA_LOADER_ITER (self));
  self->finished = TRUE;
  if (self->threads == NULL)
    return;
  g_mutex_lock (&self->lock);
  self->stopping = TRUE;
  g_cond_broadcast (&self->cond);
  g_mutex_unlock (&self->lock);
  for (guint i = 0; i < self->threads->len; i++)
    g_thread_join (g_ptr_array_index (self->threads, i));
  g_clear_pointer (&self->threads, g_ptr_array_unref);
  for (guint i = 0; i < self->window; i++)
    slot_clear (&self->slots[i]);
}

static void
gnn_data_loader_iter_dispose (GObject *object)
{
  gnn_data_loader_iter_close (GNN_DATA_LOADER_ITER (object));
  g_clear_object (&GNN_DATA_LOADER_ITER (object)->dataset);
  g_clear_object (&GNN_DATA_LOADER_ITER (object)->transform);
  G_OBJECT_CLASS (gnn_data_loader_iter_parent_class)->dispose (object);
}

static void
gnn_data_loader_iter_finalize (GObject *object)
{
  GnnDataLoaderIter *self = GNN_DATA_LOADER_ITER (object);

  g_free (self->slots);
  g_free (self->order);
  g_clear_error (&self->invalid);
  g_mutex_clear (&self->lock);
  g_cond_clear (&self->cond);
  G_OBJECT_CLASS (gnn_data_loader_iter_parent_class)->finalize (object);
}

static void
gnn_data_loader_iter_class_init (GnnDataLoaderIterClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = gnn_data_loader_iter_dispose;
  object_class->finalize = gnn_data_loader_iter_finalize;
}

static void
gnn_data_loader_iter_init (GnnDataLoaderIter *self)
{
  self->finished = TRUE;   /* a pass made by g_object_new alone has no batches */
  g_mutex_init (&self->lock);
  g_cond_init (&self->cond);
}

/**
 * gnn_data_loader_iterate:
 * @self: a loader
 *
 * Starts a pass over the batches of the current epoch (`iter(loader)`), with
 * #GnnDataLoader:num-workers worker threads making them ahead (none: each is made when
 * [method@Gnn.DataLoaderIter.next] asks for it). The pass gives the batches
 * [method@Gnn.DataLoader.get_batch] gives, in order.
 *
 * Returns: (transfer full): the pass
 *
 * Since: 0.1
 */
GnnDataLoaderIter *
gnn_data_loader_iterate (GnnDataLoader *self)
{
  GnnDataLoaderIter *iter;
  guint n_workers;

  g_return_val_if_fail (GNN_IS_DATA_LOADER (self), NULL);
  iter = g_object_new (GNN_TYPE_DATA_LOADER_ITER, NULL);
  if (!gnn_props_check (self, &iter->invalid))
    return iter;
  iter->n_batches = loader_n_batches (self);
  iter->finished = iter->n_batches == 0;
  if (iter->finished)
    return iter;
  ensure_order (self);
  iter->dataset = g_object_ref (self->dataset);
  iter->transform = self->transform ? g_object_ref (self->transform) : NULL;
  iter->seed = self->seed;
  iter->epoch = self->epoch;
  iter->batch_size = self->batch_size;
  iter->n_samples = MIN (self->order_len, iter->n_batches * self->batch_size);
  iter->order = g_memdup2 (self->order, MAX (iter->n_samples, 1) * sizeof (guint));
  iter->timeout_us = (gint64) (self->timeout * G_USEC_PER_SEC);
  n_workers = MIN (self->num_workers, iter->n_batches);
  if (n_workers == 0)
    return iter;
  iter->window = MIN ((guint64) n_workers * self->prefetch_factor, iter->n_batches);
  iter->slots = g_new0 (Slot, iter->window);
  iter->threads = g_ptr_array_new ();
  for (guint i = 0; i < n_workers; i++)
    {
      g_autofree char *name = g_strdup_printf ("gnn-loader-%u", i);

      g_ptr_array_add (iter->threads, g_thread_new (name, iter_worker, iter));
    }
  return iter;
}

/**
 * gnn_data_loader_iter_next:
 * @self: a pass
 * @error: return location for a #GError
 *
 * The next batch of the pass (`next(it)`): a batch as [method@Gnn.DataLoader.get_batch]
 * gives it, or %NULL without an error after the last one. When a batch fails (the dataset
 * or a transform reports an error, on whatever thread made it), its error comes at the
 * batch's place and the pass ends. A batch has at least one tensor, so a binding that turns
 * the %NULL array into an empty one (PyGObject does) reads the end as an empty batch.
 *
 * Returns: (transfer container) (element-type Gnn.Tensor) (nullable): the batch, or %NULL at
 *   the end of the pass, or %NULL with @error set (what the dataset or a transform reported,
 *   or %GNN_ERROR_FAILED when #GnnDataLoader:timeout passed without the batch)
 *
 * Since: 0.1
 */
GPtrArray *
gnn_data_loader_iter_next (GnnDataLoaderIter *self,
                           GError           **error)
{
  GError *failure = NULL;
  GPtrArray *batch;
  Slot *slot;

  g_return_val_if_fail (GNN_IS_DATA_LOADER_ITER (self), NULL);
  if (self->invalid)
    {
      self->finished = TRUE;
      g_propagate_error (error, g_steal_pointer (&self->invalid));
      return NULL;
    }
  if (self->finished)
    return NULL;
  if (self->threads == NULL)
    batch = iter_make (self, self->position, &failure);
  else
    {
      gint64 deadline = self->timeout_us > 0 ? g_get_monotonic_time () + self->timeout_us : 0;

      g_mutex_lock (&self->lock);
      slot = &self->slots[self->position % self->window];
      while (!slot->ready)
        if (deadline == 0)
          g_cond_wait (&self->cond, &self->lock);
        else if (!g_cond_wait_until (&self->cond, &self->lock, deadline) && !slot->ready)
          {
            g_mutex_unlock (&self->lock);
            gnn_data_loader_iter_close (self);
            g_set_error (error, GNN_ERROR, GNN_ERROR_FAILED, "DataLoader timed out after %g seconds",
                         self->timeout_us / (double) G_USEC_PER_SEC);
            return NULL;
          }
      batch = g_steal_pointer (&slot->batch);
      failure = g_steal_pointer (&slot->error);
      slot->ready = FALSE;
      self->consumed++;
      g_cond_broadcast (&self->cond);
      g_mutex_unlock (&self->lock);
    }
  self->position++;
  if (batch == NULL)
    {
      gnn_data_loader_iter_close (self);
      if (failure == NULL)
        g_set_error (&failure, GNN_ERROR, GNN_ERROR_FAILED, "batch %u failed", self->position - 1);
      g_propagate_error (error, failure);
      return NULL;
    }
  if (self->position == self->n_batches)
    gnn_data_loader_iter_close (self);
  return batch;
}
