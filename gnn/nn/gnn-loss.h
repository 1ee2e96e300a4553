/* gnn-loss.h: loss functions, as torch.nn.functional's and torch.nn's losses
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

/**
 * GnnReduction:
 * @GNN_REDUCTION_NONE: no reduction: the loss of every element (`reduction='none'`)
 * @GNN_REDUCTION_MEAN: the mean of the losses (`reduction='mean'`), PyTorch's default;
 *   weighted losses divide by the sum of the weights used
 * @GNN_REDUCTION_SUM: the sum of the losses (`reduction='sum'`)
 * @GNN_REDUCTION_BATCHMEAN: the sum divided by the batch size (`reduction='batchmean'`);
 *   only [method@Gnn.Tensor.kl_div] and [class@Gnn.KLDivLoss] accept it
 *
 * How a loss reduces the losses of the elements to its result.
 *
 * Since: 0.1
 */
typedef enum {
  GNN_REDUCTION_NONE,
  GNN_REDUCTION_MEAN,
  GNN_REDUCTION_SUM,
  GNN_REDUCTION_BATCHMEAN,
} GnnReduction;

/* functional forms (torch.nn.functional) */
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_mse_loss                         (GnnTensor    *input,
                                                        GnnTensor    *target,
                                                        GnnReduction  reduction,
                                                        GError      **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_l1_loss                          (GnnTensor    *input,
                                                        GnnTensor    *target,
                                                        GnnReduction  reduction,
                                                        GError      **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_smooth_l1_loss                   (GnnTensor    *input,
                                                        GnnTensor    *target,
                                                        GnnReduction  reduction,
                                                        double        beta,
                                                        GError      **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_huber_loss                       (GnnTensor    *input,
                                                        GnnTensor    *target,
                                                        GnnReduction  reduction,
                                                        double        delta,
                                                        GError      **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_binary_cross_entropy             (GnnTensor    *input,
                                                        GnnTensor    *target,
                                                        GnnTensor    *weight,
                                                        GnnReduction  reduction,
                                                        GError      **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_binary_cross_entropy_with_logits (GnnTensor    *input,
                                                        GnnTensor    *target,
                                                        GnnTensor    *weight,
                                                        GnnTensor    *pos_weight,
                                                        GnnReduction  reduction,
                                                        GError      **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_nll_loss                         (GnnTensor    *input,
                                                        GnnTensor    *target,
                                                        GnnTensor    *weight,
                                                        gint64        ignore_index,
                                                        GnnReduction  reduction,
                                                        GError      **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_cross_entropy                    (GnnTensor    *input,
                                                        GnnTensor    *target,
                                                        GnnTensor    *weight,
                                                        gint64        ignore_index,
                                                        GnnReduction  reduction,
                                                        double        label_smoothing,
                                                        GError      **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_kl_div                           (GnnTensor    *input,
                                                        GnnTensor    *target,
                                                        GnnReduction  reduction,
                                                        gboolean      log_target,
                                                        GError      **error);

/* the base class of the loss modules (torch.nn.modules.loss._Loss) */
#define GNN_TYPE_LOSS (gnn_loss_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_DERIVABLE_TYPE (GnnLoss, gnn_loss, GNN, LOSS, GnnModule)

/**
 * GnnLossClass:
 * @parent_class: the parent class
 *
 * The class of [class@Gnn.Loss]; it adds no virtual methods.
 */
struct _GnnLossClass
{
  GnnModuleClass parent_class;

  /*< private >*/
  gpointer padding[4];
};

GNN_AVAILABLE_IN_ALL
GnnReduction gnn_loss_get_reduction (GnnLoss      *self);
GNN_AVAILABLE_IN_ALL
void         gnn_loss_set_reduction (GnnLoss      *self,
                                     GnnReduction  reduction);

#define GNN_TYPE_MSE_LOSS (gnn_mse_loss_get_type ())
GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnMSELoss, gnn_mse_loss, GNN, MSE_LOSS, GnnLoss)
GNN_AVAILABLE_IN_ALL
GnnMSELoss *gnn_mse_loss_new (GnnReduction reduction);

#define GNN_TYPE_L1_LOSS (gnn_l1_loss_get_type ())
GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnL1Loss, gnn_l1_loss, GNN, L1_LOSS, GnnLoss)
GNN_AVAILABLE_IN_ALL
GnnL1Loss *gnn_l1_loss_new (GnnReduction reduction);

#define GNN_TYPE_SMOOTH_L1_LOSS (gnn_smooth_l1_loss_get_type ())
GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnSmoothL1Loss, gnn_smooth_l1_loss, GNN, SMOOTH_L1_LOSS, GnnLoss)
GNN_AVAILABLE_IN_ALL
GnnSmoothL1Loss *gnn_smooth_l1_loss_new      (GnnReduction     reduction,
                                              double           beta);
GNN_AVAILABLE_IN_ALL
double           gnn_smooth_l1_loss_get_beta (GnnSmoothL1Loss *self);
GNN_AVAILABLE_IN_ALL
void             gnn_smooth_l1_loss_set_beta (GnnSmoothL1Loss *self,
                                              double           beta);

#define GNN_TYPE_HUBER_LOSS (gnn_huber_loss_get_type ())
GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnHuberLoss, gnn_huber_loss, GNN, HUBER_LOSS, GnnLoss)
GNN_AVAILABLE_IN_ALL
GnnHuberLoss *gnn_huber_loss_new       (GnnReduction  reduction,
                                        double        delta);
GNN_AVAILABLE_IN_ALL
double        gnn_huber_loss_get_delta (GnnHuberLoss *self);
GNN_AVAILABLE_IN_ALL
void          gnn_huber_loss_set_delta (GnnHuberLoss *self,
                                        double        delta);

#define GNN_TYPE_BCE_LOSS (gnn_bce_loss_get_type ())
GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnBCELoss, gnn_bce_loss, GNN, BCE_LOSS, GnnLoss)
GNN_AVAILABLE_IN_ALL
GnnBCELoss *gnn_bce_loss_new        (GnnTensor   *weight,
                                     GnnReduction reduction);
GNN_AVAILABLE_IN_ALL
GnnTensor  *gnn_bce_loss_get_weight (GnnBCELoss  *self);

#define GNN_TYPE_BCE_WITH_LOGITS_LOSS (gnn_bce_with_logits_loss_get_type ())
GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnBCEWithLogitsLoss, gnn_bce_with_logits_loss, GNN, BCE_WITH_LOGITS_LOSS, GnnLoss)
GNN_AVAILABLE_IN_ALL
GnnBCEWithLogitsLoss *gnn_bce_with_logits_loss_new            (GnnTensor            *weight,
                                                               GnnReduction          reduction,
                                                               GnnTensor            *pos_weight);
GNN_AVAILABLE_IN_ALL
GnnTensor            *gnn_bce_with_logits_loss_get_weight     (GnnBCEWithLogitsLoss *self);
GNN_AVAILABLE_IN_ALL
GnnTensor            *gnn_bce_with_logits_loss_get_pos_weight (GnnBCEWithLogitsLoss *self);

#define GNN_TYPE_NLL_LOSS (gnn_nll_loss_get_type ())
GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnNLLLoss, gnn_nll_loss, GNN, NLL_LOSS, GnnLoss)
GNN_AVAILABLE_IN_ALL
GnnNLLLoss *gnn_nll_loss_new              (GnnTensor    *weight,
                                           gint64        ignore_index,
                                           GnnReduction  reduction);
GNN_AVAILABLE_IN_ALL
GnnTensor  *gnn_nll_loss_get_weight       (GnnNLLLoss   *self);
GNN_AVAILABLE_IN_ALL
gint64      gnn_nll_loss_get_ignore_index (GnnNLLLoss   *self);
GNN_AVAILABLE_IN_ALL
void        gnn_nll_loss_set_ignore_index (GnnNLLLoss   *self,
                                           gint64        ignore_index);

#define GNN_TYPE_CROSS_ENTROPY_LOSS (gnn_cross_entropy_loss_get_type ())
GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnCrossEntropyLoss, gnn_cross_entropy_loss, GNN, CROSS_ENTROPY_LOSS, GnnLoss)
GNN_AVAILABLE_IN_ALL
GnnCrossEntropyLoss *gnn_cross_entropy_loss_new                 (GnnTensor           *weight,
                                                                 gint64               ignore_index,
                                                                 GnnReduction         reduction,
                                                                 double               label_smoothing);
GNN_AVAILABLE_IN_ALL
GnnTensor           *gnn_cross_entropy_loss_get_weight          (GnnCrossEntropyLoss *self);
GNN_AVAILABLE_IN_ALL
gint64               gnn_cross_entropy_loss_get_ignore_index    (GnnCrossEntropyLoss *self);
GNN_AVAILABLE_IN_ALL
void                 gnn_cross_entropy_loss_set_ignore_index    (GnnCrossEntropyLoss *self,
                                                                 gint64               ignore_index);
GNN_AVAILABLE_IN_ALL
double               gnn_cross_entropy_loss_get_label_smoothing (GnnCrossEntropyLoss *self);
GNN_AVAILABLE_IN_ALL
void                 gnn_cross_entropy_loss_set_label_smoothing (GnnCrossEntropyLoss *self,
                                                                 double               label_smoothing);

#define GNN_TYPE_KL_DIV_LOSS (gnn_kl_div_loss_get_type ())
GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnKLDivLoss, gnn_kl_div_loss, GNN, KL_DIV_LOSS, GnnLoss)
GNN_AVAILABLE_IN_ALL
GnnKLDivLoss *gnn_kl_div_loss_new            (GnnReduction  reduction,
                                              gboolean      log_target);
GNN_AVAILABLE_IN_ALL
gboolean      gnn_kl_div_loss_get_log_target (GnnKLDivLoss *self);
GNN_AVAILABLE_IN_ALL
void          gnn_kl_div_loss_set_log_target (GnnKLDivLoss *self,
                                              gboolean      log_target);

G_END_DECLS
