/* gnn-layers.h: simple layers, as torch.nn.Identity, Flatten, Unflatten, Dropout,
 * Dropout2d, Embedding and Bilinear
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined (GNN_INSIDE) && !defined (GNN_COMPILATION)
#error "Only <gnn/gnn.h> can be included directly."
#endif

#include <glib-object.h>
#include "../gnn-version-macros.h"
#include "gnn-module.h"

G_BEGIN_DECLS

#define GNN_TYPE_IDENTITY (gnn_identity_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnIdentity, gnn_identity, GNN, IDENTITY, GnnModule)

GNN_AVAILABLE_IN_ALL
GnnIdentity  *gnn_identity_new                (void);

#define GNN_TYPE_FLATTEN (gnn_flatten_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnFlatten, gnn_flatten, GNN, FLATTEN, GnnModule)

GNN_AVAILABLE_IN_ALL
GnnFlatten   *gnn_flatten_new                 (int           start_dim,
                                               int           end_dim);

#define GNN_TYPE_UNFLATTEN (gnn_unflatten_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnUnflatten, gnn_unflatten, GNN, UNFLATTEN, GnnModule)

GNN_AVAILABLE_IN_ALL
GnnUnflatten *gnn_unflatten_new               (int           dim,
                                               const gint64 *unflattened_size,
                                               gsize         n_sizes);
GNN_AVAILABLE_IN_ALL
const gint64 *gnn_unflatten_get_unflattened_size (GnnUnflatten *self,
                                                  gsize        *n_sizes);

#define GNN_TYPE_DROPOUT (gnn_dropout_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnDropout, gnn_dropout, GNN, DROPOUT, GnnModule)

GNN_AVAILABLE_IN_ALL
GnnDropout   *gnn_dropout_new                 (double        p,
                                               GError      **error);
GNN_AVAILABLE_IN_ALL
double        gnn_dropout_get_p               (GnnDropout   *self);
GNN_AVAILABLE_IN_ALL
void          gnn_dropout_set_p               (GnnDropout   *self,
                                               double        p);

#define GNN_TYPE_DROPOUT2D (gnn_dropout2d_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnDropout2d, gnn_dropout2d, GNN, DROPOUT2D, GnnModule)

GNN_AVAILABLE_IN_ALL
GnnDropout2d *gnn_dropout2d_new               (double        p,
                                               GError      **error);
GNN_AVAILABLE_IN_ALL
double        gnn_dropout2d_get_p             (GnnDropout2d *self);
GNN_AVAILABLE_IN_ALL
void          gnn_dropout2d_set_p             (GnnDropout2d *self,
                                               double        p);

#define GNN_TYPE_DROPOUT1D (gnn_dropout1d_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnDropout1d, gnn_dropout1d, GNN, DROPOUT1D, GnnModule)

GNN_AVAILABLE_IN_ALL
GnnDropout1d *gnn_dropout1d_new               (double        p,
                                               GError      **error);
GNN_AVAILABLE_IN_ALL
double        gnn_dropout1d_get_p             (GnnDropout1d *self);
GNN_AVAILABLE_IN_ALL
void          gnn_dropout1d_set_p             (GnnDropout1d *self,
                                               double        p);

#define GNN_TYPE_DROPOUT3D (gnn_dropout3d_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnDropout3d, gnn_dropout3d, GNN, DROPOUT3D, GnnModule)

GNN_AVAILABLE_IN_ALL
GnnDropout3d *gnn_dropout3d_new               (double        p,
                                               GError      **error);
GNN_AVAILABLE_IN_ALL
double        gnn_dropout3d_get_p             (GnnDropout3d *self);
GNN_AVAILABLE_IN_ALL
void          gnn_dropout3d_set_p             (GnnDropout3d *self,
                                               double        p);

/**
 * GNN_EMBEDDING_NO_PADDING:
 *
 * The value of [property@Gnn.Embedding:padding-idx] that stands for PyTorch's
 * `padding_idx=None`: no row is a padding row.
 *
 * Since: 0.1
 */
#define GNN_EMBEDDING_NO_PADDING (-2147483647 - 1)

#define GNN_TYPE_EMBEDDING (gnn_embedding_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnEmbedding, gnn_embedding, GNN, EMBEDDING, GnnModule)

GNN_AVAILABLE_IN_ALL
GnnEmbedding *gnn_embedding_new               (gint64        num_embeddings,
                                               gint64        embedding_dim,
                                               gint64        padding_idx,
                                               GnnDtype      dtype,
                                               GError      **error);
GNN_AVAILABLE_IN_ALL
gint64        gnn_embedding_get_num_embeddings (GnnEmbedding *self);
GNN_AVAILABLE_IN_ALL
gint64        gnn_embedding_get_embedding_dim  (GnnEmbedding *self);
GNN_AVAILABLE_IN_ALL
gint64        gnn_embedding_get_padding_idx    (GnnEmbedding *self);

#define GNN_TYPE_BILINEAR (gnn_bilinear_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnBilinear, gnn_bilinear, GNN, BILINEAR, GnnModule)

GNN_AVAILABLE_IN_ALL
GnnBilinear  *gnn_bilinear_new                (int           in1_features,
                                               int           in2_features,
                                               int           out_features,
                                               gboolean      bias,
                                               GnnDtype      dtype,
                                               GError      **error);

/* the functional forms of Dropout, Dropout2d and Embedding */
GNN_AVAILABLE_IN_ALL
GnnTensor    *gnn_tensor_dropout              (GnnTensor    *self,
                                               double        p,
                                               gboolean      training,
                                               GError      **error);
GNN_AVAILABLE_IN_ALL
GnnTensor    *gnn_tensor_dropout2d            (GnnTensor    *self,
                                               double        p,
                                               gboolean      training,
                                               GError      **error);
GNN_AVAILABLE_IN_ALL
GnnTensor    *gnn_tensor_dropout1d            (GnnTensor    *self,
                                               double        p,
                                               gboolean      training,
                                               GError      **error);
GNN_AVAILABLE_IN_ALL
GnnTensor    *gnn_tensor_dropout3d            (GnnTensor    *self,
                                               double        p,
                                               gboolean      training,
                                               GError      **error);
GNN_AVAILABLE_IN_ALL
GnnTensor    *gnn_tensor_embedding            (GnnTensor    *input,
                                               GnnTensor    *weight,
                                               gint64        padding_idx,
                                               GError      **error);

G_END_DECLS
