/* gnn-loss-more.h: the margin, embedding, multi-label and likelihood losses of torch.nn
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
#include "gnn-loss.h"

G_BEGIN_DECLS

/**
 * GnnDistanceFunc:
 * @x1: the first tensor
 * @x2: the second tensor
 * @user_data: the data given with the function
 *
 * A distance between the rows of @x1 and @x2, as the `distance_function` of
 * `torch.nn.TripletMarginWithDistanceLoss` computes it.
 *
 * Returns: (transfer full) (nullable): the distances, or %NULL when it failed
 *
 * Since: 0.1
 */
typedef GnnTensor *(*GnnDistanceFunc) (GnnTensor *x1,
                                       GnnTensor *x2,
                                       gpointer   user_data);

/* functional forms (torch.nn.functional) */
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_cosine_embedding_loss        (GnnTensor       *input1,
                                                    GnnTensor       *input2,
                                                    GnnTensor       *target,
                                                    double           margin,
                                                    GnnReduction     reduction,
                                                    GError         **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_gaussian_nll_loss            (GnnTensor       *input,
                                                    GnnTensor       *target,
                                                    GnnTensor       *var,
                                                    gboolean         full,
                                                    double           eps,
                                                    GnnReduction     reduction,
                                                    GError         **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_hinge_embedding_loss         (GnnTensor       *input,
                                                    GnnTensor       *target,
                                                    double           margin,
                                                    GnnReduction     reduction,
                                                    GError         **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_margin_ranking_loss          (GnnTensor       *input1,
                                                    GnnTensor       *input2,
                                                    GnnTensor       *target,
                                                    double           margin,
                                                    GnnReduction     reduction,
                                                    GError         **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_multilabel_margin_loss       (GnnTensor       *input,
                                                    GnnTensor       *target,
                                                    GnnReduction     reduction,
                                                    GError         **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_multilabel_soft_margin_loss  (GnnTensor       *input,
                                                    GnnTensor       *target,
                                                    GnnTensor       *weight,
                                                    GnnReduction     reduction,
                                                    GError         **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_multi_margin_loss            (GnnTensor       *input,
                                                    GnnTensor       *target,
                                                    int              p,
                                                    double           margin,
                                                    GnnTensor       *weight,
                                                    GnnReduction     reduction,
                                                    GError         **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_poisson_nll_loss             (GnnTensor       *input,
                                                    GnnTensor       *target,
                                                    gboolean         log_input,
                                                    gboolean         full,
                                                    double           eps,
                                                    GnnReduction     reduction,
                                                    GError         **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_soft_margin_loss             (GnnTensor       *input,
                                                    GnnTensor       *target,
                                                    GnnReduction     reduction,
                                                    GError         **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_triplet_margin_loss          (GnnTensor       *anchor,
                                                    GnnTensor       *positive,
                                                    GnnTensor       *negative,
                                                    double           margin,
                                                    double           p,
                                                    double           eps,
                                                    gboolean         swap,
                                                    GnnReduction     reduction,
                                                    GError         **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_triplet_margin_with_distance_loss (GnnTensor       *anchor,
                                                         GnnTensor       *positive,
                                                         GnnTensor       *negative,
                                                         GnnDistanceFunc  distance_function,
                                                         gpointer         user_data,
                                                         double           margin,
                                                         gboolean         swap,
                                                         GnnReduction     reduction,
                                                         GError         **error);

/* modules (torch.nn) */
#define GNN_TYPE_COSINE_EMBEDDING_LOSS (gnn_cosine_embedding_loss_get_type ())
GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnCosineEmbeddingLoss, gnn_cosine_embedding_loss, GNN, COSINE_EMBEDDING_LOSS, GnnLoss)
GNN_AVAILABLE_IN_ALL
GnnCosineEmbeddingLoss *gnn_cosine_embedding_loss_new (double margin, GnnReduction reduction);

#define GNN_TYPE_GAUSSIAN_NLL_LOSS (gnn_gaussian_nll_loss_get_type ())
GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnGaussianNLLLoss, gnn_gaussian_nll_loss, GNN, GAUSSIAN_NLL_LOSS, GnnLoss)
GNN_AVAILABLE_IN_ALL
GnnGaussianNLLLoss *gnn_gaussian_nll_loss_new (gboolean full, double eps, GnnReduction reduction);

#define GNN_TYPE_HINGE_EMBEDDING_LOSS (gnn_hinge_embedding_loss_get_type ())
GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnHingeEmbeddingLoss, gnn_hinge_embedding_loss, GNN, HINGE_EMBEDDING_LOSS, GnnLoss)
GNN_AVAILABLE_IN_ALL
GnnHingeEmbeddingLoss *gnn_hinge_embedding_loss_new (double margin, GnnReduction reduction);

#define GNN_TYPE_MARGIN_RANKING_LOSS (gnn_margin_ranking_loss_get_type ())
GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnMarginRankingLoss, gnn_margin_ranking_loss, GNN, MARGIN_RANKING_LOSS, GnnLoss)
GNN_AVAILABLE_IN_ALL
GnnMarginRankingLoss *gnn_margin_ranking_loss_new (double margin, GnnReduction reduction);

#define GNN_TYPE_MULTI_LABEL_MARGIN_LOSS (gnn_multi_label_margin_loss_get_type ())
GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnMultiLabelMarginLoss, gnn_multi_label_margin_loss, GNN, MULTI_LABEL_MARGIN_LOSS, GnnLoss)
GNN_AVAILABLE_IN_ALL
GnnMultiLabelMarginLoss *gnn_multi_label_margin_loss_new (GnnReduction reduction);

#define GNN_TYPE_MULTI_LABEL_SOFT_MARGIN_LOSS (gnn_multi_label_soft_margin_loss_get_type ())
GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnMultiLabelSoftMarginLoss, gnn_multi_label_soft_margin_loss, GNN, MULTI_LABEL_SOFT_MARGIN_LOSS, GnnLoss)
GNN_AVAILABLE_IN_ALL
GnnMultiLabelSoftMarginLoss *gnn_multi_label_soft_margin_loss_new (GnnTensor *weight, GnnReduction reduction);

#define GNN_TYPE_MULTI_MARGIN_LOSS (gnn_multi_margin_loss_get_type ())
GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnMultiMarginLoss, gnn_multi_margin_loss, GNN, MULTI_MARGIN_LOSS, GnnLoss)
GNN_AVAILABLE_IN_ALL
GnnMultiMarginLoss *gnn_multi_margin_loss_new (int p, double margin, GnnTensor *weight, GnnReduction reduction);

#define GNN_TYPE_POISSON_NLL_LOSS (gnn_poisson_nll_loss_get_type ())
GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnPoissonNLLLoss, gnn_poisson_nll_loss, GNN, POISSON_NLL_LOSS, GnnLoss)
GNN_AVAILABLE_IN_ALL
GnnPoissonNLLLoss *gnn_poisson_nll_loss_new (gboolean log_input, gboolean full, double eps, GnnReduction reduction);

#define GNN_TYPE_SOFT_MARGIN_LOSS (gnn_soft_margin_loss_get_type ())
GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnSoftMarginLoss, gnn_soft_margin_loss, GNN, SOFT_MARGIN_LOSS, GnnLoss)
GNN_AVAILABLE_IN_ALL
GnnSoftMarginLoss *gnn_soft_margin_loss_new (GnnReduction reduction);

#define GNN_TYPE_TRIPLET_MARGIN_LOSS (gnn_triplet_margin_loss_get_type ())
GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnTripletMarginLoss, gnn_triplet_margin_loss, GNN, TRIPLET_MARGIN_LOSS, GnnLoss)
GNN_AVAILABLE_IN_ALL
GnnTripletMarginLoss *gnn_triplet_margin_loss_new (double margin, double p, double eps, gboolean swap,
                                                   GnnReduction reduction);

#define GNN_TYPE_TRIPLET_MARGIN_WITH_DISTANCE_LOSS (gnn_triplet_margin_with_distance_loss_get_type ())
GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnTripletMarginWithDistanceLoss, gnn_triplet_margin_with_distance_loss, GNN,
                      TRIPLET_MARGIN_WITH_DISTANCE_LOSS, GnnLoss)
GNN_AVAILABLE_IN_ALL
GnnTripletMarginWithDistanceLoss *gnn_triplet_margin_with_distance_loss_new (double margin, gboolean swap,
                                                                             GnnReduction reduction);
GNN_AVAILABLE_IN_ALL
void gnn_triplet_margin_with_distance_loss_set_distance_function (GnnTripletMarginWithDistanceLoss *self,
                                                                  GnnDistanceFunc                   func,
                                                                  gpointer                          user_data,
                                                                  GDestroyNotify                    destroy);

GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_ctc_loss (GnnTensor    *log_probs,
                                GnnTensor    *targets,
                                const gint64 *input_lengths,
                                guint         n_input_lengths,
                                const gint64 *target_lengths,
                                guint         n_target_lengths,
                                gint64        blank,
                                GnnReduction  reduction,
                                gboolean      zero_infinity,
                                GError      **error);

#define GNN_TYPE_CTC_LOSS (gnn_ctc_loss_get_type ())
GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnCTCLoss, gnn_ctc_loss, GNN, CTC_LOSS, GnnLoss)
GNN_AVAILABLE_IN_ALL
GnnCTCLoss *gnn_ctc_loss_new (gint64 blank, GnnReduction reduction, gboolean zero_infinity);

G_END_DECLS
