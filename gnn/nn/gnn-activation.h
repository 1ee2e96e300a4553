/* gnn-activation.h: activation layers, as torch.nn.ReLU, LeakyReLU, ELU, GELU, SiLU,
 * Sigmoid, Tanh, Softmax and LogSoftmax
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

#define GNN_TYPE_RELU (gnn_relu_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnReLU, gnn_relu, GNN, RELU, GnnModule)

GNN_AVAILABLE_IN_ALL
GnnReLU      *gnn_relu_new                        (void);

#define GNN_TYPE_LEAKY_RELU (gnn_leaky_relu_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnLeakyReLU, gnn_leaky_relu, GNN, LEAKY_RELU, GnnModule)

GNN_AVAILABLE_IN_ALL
GnnLeakyReLU *gnn_leaky_relu_new                  (double        negative_slope);
GNN_AVAILABLE_IN_ALL
double        gnn_leaky_relu_get_negative_slope   (GnnLeakyReLU *self);
GNN_AVAILABLE_IN_ALL
void          gnn_leaky_relu_set_negative_slope   (GnnLeakyReLU *self,
                                                   double        negative_slope);

#define GNN_TYPE_ELU (gnn_elu_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnELU, gnn_elu, GNN, ELU, GnnModule)

GNN_AVAILABLE_IN_ALL
GnnELU       *gnn_elu_new                         (double        alpha);
GNN_AVAILABLE_IN_ALL
double        gnn_elu_get_alpha                   (GnnELU       *self);
GNN_AVAILABLE_IN_ALL
void          gnn_elu_set_alpha                   (GnnELU       *self,
                                                   double        alpha);

#define GNN_TYPE_GELU (gnn_gelu_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnGELU, gnn_gelu, GNN, GELU, GnnModule)

GNN_AVAILABLE_IN_ALL
GnnGELU      *gnn_gelu_new                        (const char   *approximate);
GNN_AVAILABLE_IN_ALL
const char   *gnn_gelu_get_approximate            (GnnGELU      *self);
GNN_AVAILABLE_IN_ALL
void          gnn_gelu_set_approximate            (GnnGELU      *self,
                                                   const char   *approximate);

#define GNN_TYPE_SILU (gnn_silu_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnSiLU, gnn_silu, GNN, SILU, GnnModule)

GNN_AVAILABLE_IN_ALL
GnnSiLU      *gnn_silu_new                        (void);

#define GNN_TYPE_SIGMOID (gnn_sigmoid_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnSigmoid, gnn_sigmoid, GNN, SIGMOID, GnnModule)

GNN_AVAILABLE_IN_ALL
GnnSigmoid   *gnn_sigmoid_new                     (void);

#define GNN_TYPE_TANH (gnn_tanh_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnTanh, gnn_tanh, GNN, TANH, GnnModule)

GNN_AVAILABLE_IN_ALL
GnnTanh      *gnn_tanh_new                        (void);

#define GNN_TYPE_SOFTSIGN (gnn_softsign_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnSoftsign, gnn_softsign, GNN, SOFTSIGN, GnnModule)

GNN_AVAILABLE_IN_ALL
GnnSoftsign  *gnn_softsign_new                    (void);

/**
 * GNN_SOFTMAX_DIM_NONE:
 *
 * The value of [property@Gnn.Softmax:dim] and [property@Gnn.LogSoftmax:dim] that stands for
 * PyTorch's `dim=None`: the dimension is chosen from the input's number of dimensions.
 *
 * Since: 0.1
 */
#define GNN_SOFTMAX_DIM_NONE (-2147483647 - 1)

#define GNN_TYPE_SOFTMAX (gnn_softmax_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnSoftmax, gnn_softmax, GNN, SOFTMAX, GnnModule)

GNN_AVAILABLE_IN_ALL
GnnSoftmax   *gnn_softmax_new                     (int           dim);
GNN_AVAILABLE_IN_ALL
int           gnn_softmax_get_dim                 (GnnSoftmax   *self);
GNN_AVAILABLE_IN_ALL
void          gnn_softmax_set_dim                 (GnnSoftmax   *self,
                                                   int           dim);

#define GNN_TYPE_LOG_SOFTMAX (gnn_log_softmax_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnLogSoftmax, gnn_log_softmax, GNN, LOG_SOFTMAX, GnnModule)

GNN_AVAILABLE_IN_ALL
GnnLogSoftmax *gnn_log_softmax_new                (int           dim);
GNN_AVAILABLE_IN_ALL
int            gnn_log_softmax_get_dim            (GnnLogSoftmax *self);
GNN_AVAILABLE_IN_ALL
void           gnn_log_softmax_set_dim            (GnnLogSoftmax *self,
                                                   int            dim);

G_END_DECLS
