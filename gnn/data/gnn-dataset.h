/* gnn-dataset.h: datasets, transforms and the data loader
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined (GNN_INSIDE) && !defined (GNN_COMPILATION)
#error "Only <gnn/gnn.h> can be included directly."
#endif

#include <gio/gio.h>
#include "../gnn-version-macros.h"
#include "../core/gnn-tensor.h"
#include "gnn-transforms.h"

G_BEGIN_DECLS

/* ---- GnnDataset ---------------------------------------------------------------------- */

#define GNN_TYPE_DATASET (gnn_dataset_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_INTERFACE (GnnDataset, gnn_dataset, GNN, DATASET, GObject)

/**
 * GnnDatasetInterface:
 * @g_iface: the parent interface
 * @get_length: the number of samples (`__len__`)
 * @fill_item: appends the tensors of one sample (`__getitem__`), such as an image and its
 *   label, to @sample
 * @fill_batch: appends the tensors of several samples, each stacked along a new first
 *   dimension, to @batch; %NULL to let the loader stack what @fill_item gives
 *
 * The virtual methods of [iface@Gnn.Dataset]. Python classes implement `do_get_length`
 * and `do_get_item (self, index)` returning a sequence of tensors (the override turns it
 * into `do_fill_item`).
 *
 * A [class@Gnn.DataLoader] with #GnnDataLoader:num-workers calls @fill_item and @fill_batch
 * from its worker threads, several at once (each for other samples): an implementation
 * must allow that, as gnn's datasets do (they only read what they share). Python
 * implementations run one at a time, under the GIL.
 */
struct _GnnDatasetInterface
{
  GTypeInterface g_iface;

  guint       (*get_length) (GnnDataset   *self);
  gboolean    (*fill_item)  (GnnDataset   *self,
                             guint         index,
                             GListStore   *sample,
                             GError      **error);
  gboolean    (*fill_batch) (GnnDataset   *self,
                             const guint  *indices,
                             guint         n_indices,
                             GListStore   *batch,
                             GError      **error);

  /*< private >*/
  gpointer padding[6];
};

GNN_AVAILABLE_IN_ALL
guint      gnn_dataset_get_length (GnnDataset   *self);
GNN_AVAILABLE_IN_ALL
GPtrArray *gnn_dataset_get_item   (GnnDataset   *self,
                                   guint         index,
                                   GError      **error);
GNN_AVAILABLE_IN_ALL
GPtrArray *gnn_dataset_get_batch  (GnnDataset   *self,
                                   const guint  *indices,
                                   guint         n_indices,
                                   GError      **error);

/* ---- GnnTensorDataset ---------------------------------------------------------------- */

#define GNN_TYPE_TENSOR_DATASET (gnn_tensor_dataset_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnTensorDataset, gnn_tensor_dataset, GNN, TENSOR_DATASET, GObject)

GNN_AVAILABLE_IN_ALL
GnnTensorDataset *gnn_tensor_dataset_new        (GnnTensor        **tensors,
                                                 guint              n_tensors,
                                                 GError           **error);
GNN_AVAILABLE_IN_ALL
GnnTensorDataset *gnn_tensor_dataset_new_idx    (const char        *images_path,
                                                 const char        *labels_path,
                                                 GError           **error);
GNN_AVAILABLE_IN_ALL
GnnTensorDataset *gnn_tensor_dataset_new_fashion_mnist (const char *root,
                                                        gboolean    train,
                                                        GError    **error);
GNN_AVAILABLE_IN_ALL
GnnTensor        *gnn_tensor_dataset_get_tensor (GnnTensorDataset  *self,
                                                 guint              index);
GNN_AVAILABLE_IN_ALL
guint             gnn_tensor_dataset_get_n_tensors (GnnTensorDataset *self);

/* ---- GnnSubset ----------------------------------------------------------------------- */

#define GNN_TYPE_SUBSET (gnn_subset_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnSubset, gnn_subset, GNN, SUBSET, GObject)

GNN_AVAILABLE_IN_ALL
GnnSubset  *gnn_subset_new         (GnnDataset   *dataset,
                                    const guint  *indices,
                                    guint         n_indices,
                                    GError      **error);
GNN_AVAILABLE_IN_ALL
GnnDataset *gnn_subset_get_dataset (GnnSubset    *self);
GNN_AVAILABLE_IN_ALL
guint      *gnn_subset_get_indices (GnnSubset    *self,
                                    guint        *n_indices);

/* ---- GnnConcatDataset ---------------------------------------------------------------- */

#define GNN_TYPE_CONCAT_DATASET (gnn_concat_dataset_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnConcatDataset, gnn_concat_dataset, GNN, CONCAT_DATASET, GObject)

GNN_AVAILABLE_IN_ALL
GnnConcatDataset *gnn_concat_dataset_new (GnnDataset **datasets,
                                          guint        n_datasets,
                                          GError     **error);

/* ---- GnnDataLoader ------------------------------------------------------------------- */

#define GNN_TYPE_DATA_LOADER (gnn_data_loader_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnDataLoader, gnn_data_loader, GNN, DATA_LOADER, GObject)

GNN_AVAILABLE_IN_ALL
GnnDataLoader *gnn_data_loader_new           (GnnDataset     *dataset,
                                              guint           batch_size,
                                              gboolean        shuffle,
                                              guint64         seed,
                                              gboolean        drop_last,
                                              GError        **error);
GNN_AVAILABLE_IN_ALL
GnnDataset    *gnn_data_loader_get_dataset   (GnnDataLoader  *self);
GNN_AVAILABLE_IN_ALL
guint          gnn_data_loader_get_batch_size (GnnDataLoader *self);
GNN_AVAILABLE_IN_ALL
guint          gnn_data_loader_get_epoch     (GnnDataLoader  *self);
GNN_AVAILABLE_IN_ALL
void           gnn_data_loader_set_epoch     (GnnDataLoader  *self,
                                              guint           epoch);
GNN_AVAILABLE_IN_ALL
GnnTransform  *gnn_data_loader_get_transform (GnnDataLoader  *self);
GNN_AVAILABLE_IN_ALL
void           gnn_data_loader_set_transform (GnnDataLoader  *self,
                                              GnnTransform   *transform);
GNN_AVAILABLE_IN_ALL
GPtrArray     *gnn_data_loader_get_batch     (GnnDataLoader  *self,
                                              guint           index,
                                              GError        **error);
GNN_AVAILABLE_IN_ALL
guint         *gnn_data_loader_get_indices   (GnnDataLoader  *self,
                                              guint           index,
                                              guint          *n_indices);
GNN_AVAILABLE_IN_ALL
guint          gnn_data_loader_get_num_workers (GnnDataLoader *self);
GNN_AVAILABLE_IN_ALL
void           gnn_data_loader_set_num_workers (GnnDataLoader *self,
                                                guint          num_workers);
GNN_AVAILABLE_IN_ALL
guint          gnn_data_loader_get_prefetch_factor (GnnDataLoader *self);
GNN_AVAILABLE_IN_ALL
void           gnn_data_loader_set_prefetch_factor (GnnDataLoader *self,
                                                    guint          prefetch_factor);
GNN_AVAILABLE_IN_ALL
double         gnn_data_loader_get_timeout   (GnnDataLoader  *self);
GNN_AVAILABLE_IN_ALL
void           gnn_data_loader_set_timeout   (GnnDataLoader  *self,
                                              double          timeout);

/* ---- GnnDataLoaderIter --------------------------------------------------------------- */

#define GNN_TYPE_DATA_LOADER_ITER (gnn_data_loader_iter_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnDataLoaderIter, gnn_data_loader_iter, GNN, DATA_LOADER_ITER, GObject)

GNN_AVAILABLE_IN_ALL
GnnDataLoaderIter *gnn_data_loader_iterate   (GnnDataLoader      *self);
GNN_AVAILABLE_IN_ALL
GPtrArray         *gnn_data_loader_iter_next (GnnDataLoaderIter  *self,
                                              GError            **error);
GNN_AVAILABLE_IN_ALL
void               gnn_data_loader_iter_close (GnnDataLoaderIter *self);

G_END_DECLS
