/* gnn-distance.h: the distance functions of torch.nn (CosineSimilarity, PairwiseDistance, pdist)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined (GNN_INSIDE) && !defined (GNN_COMPILATION)
#error "Only <gnn/gnn.h> can be included directly."
#endif

#include <glib-object.h>
#include "../gnn-version-macros.h"
#include "../core/gnn-tensor.h"
#include "gnn-module.h"

G_BEGIN_DECLS

/* functional forms (torch.nn.functional) */
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_cosine_similarity (GnnTensor  *x1,
                                         GnnTensor  *x2,
                                         int         dim,
                                         double      eps,
                                         GError    **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_pairwise_distance (GnnTensor  *x1,
                                         GnnTensor  *x2,
                                         double      p,
                                         double      eps,
                                         gboolean    keepdim,
                                         GError    **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_pdist             (GnnTensor  *input,
                                         double      p,
                                         GError    **error);

#define GNN_TYPE_COSINE_SIMILARITY (gnn_cosine_similarity_get_type ())
GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnCosineSimilarity, gnn_cosine_similarity, GNN, COSINE_SIMILARITY, GnnModule)
GNN_AVAILABLE_IN_ALL
GnnCosineSimilarity *gnn_cosine_similarity_new     (int                  dim,
                                                    double               eps);
GNN_AVAILABLE_IN_ALL
int                  gnn_cosine_similarity_get_dim (GnnCosineSimilarity *self);
GNN_AVAILABLE_IN_ALL
double               gnn_cosine_similarity_get_eps (GnnCosineSimilarity *self);

#define GNN_TYPE_PAIRWISE_DISTANCE (gnn_pairwise_distance_get_type ())
GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnPairwiseDistance, gnn_pairwise_distance, GNN, PAIRWISE_DISTANCE, GnnModule)
GNN_AVAILABLE_IN_ALL
GnnPairwiseDistance *gnn_pairwise_distance_new         (double               p,
                                                        double               eps,
                                                        gboolean             keepdim);
GNN_AVAILABLE_IN_ALL
double               gnn_pairwise_distance_get_p       (GnnPairwiseDistance *self);
GNN_AVAILABLE_IN_ALL
double               gnn_pairwise_distance_get_eps     (GnnPairwiseDistance *self);
GNN_AVAILABLE_IN_ALL
gboolean             gnn_pairwise_distance_get_keepdim (GnnPairwiseDistance *self);

G_END_DECLS
