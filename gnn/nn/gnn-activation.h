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

#define GNN_TYPE_RELU6 (gnn_relu6_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnReLU6, gnn_relu6, GNN, RELU6, GnnModule)

GNN_AVAILABLE_IN_ALL
GnnReLU6 *gnn_relu6_new (void);

#define GNN_TYPE_HARDSIGMOID (gnn_hardsigmoid_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnHardsigmoid, gnn_hardsigmoid, GNN, HARDSIGMOID, GnnModule)

GNN_AVAILABLE_IN_ALL
GnnHardsigmoid *gnn_hardsigmoid_new (void);

#define GNN_TYPE_HARDSWISH (gnn_hardswish_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnHardswish, gnn_hardswish, GNN, HARDSWISH, GnnModule)

GNN_AVAILABLE_IN_ALL
GnnHardswish *gnn_hardswish_new (void);

#define GNN_TYPE_MISH (gnn_mish_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnMish, gnn_mish, GNN, MISH, GnnModule)

GNN_AVAILABLE_IN_ALL
GnnMish *gnn_mish_new (void);

#define GNN_TYPE_SELU (gnn_selu_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnSELU, gnn_selu, GNN, SELU, GnnModule)

GNN_AVAILABLE_IN_ALL
GnnSELU *gnn_selu_new (void);

#define GNN_TYPE_LOG_SIGMOID (gnn_log_sigmoid_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnLogSigmoid, gnn_log_sigmoid, GNN, LOG_SIGMOID, GnnModule)

GNN_AVAILABLE_IN_ALL
GnnLogSigmoid *gnn_log_sigmoid_new (void);

#define GNN_TYPE_TANHSHRINK (gnn_tanhshrink_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnTanhshrink, gnn_tanhshrink, GNN, TANHSHRINK, GnnModule)

GNN_AVAILABLE_IN_ALL
GnnTanhshrink *gnn_tanhshrink_new (void);

#define GNN_TYPE_SOFTMAX2D (gnn_softmax2d_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnSoftmax2d, gnn_softmax2d, GNN, SOFTMAX2D, GnnModule)

GNN_AVAILABLE_IN_ALL
GnnSoftmax2d *gnn_softmax2d_new (void);

#define GNN_TYPE_SOFTPLUS (gnn_softplus_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnSoftplus, gnn_softplus, GNN, SOFTPLUS, GnnModule)

GNN_AVAILABLE_IN_ALL
GnnSoftplus *gnn_softplus_new (double beta, double threshold);

#define GNN_TYPE_HARDTANH (gnn_hardtanh_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnHardtanh, gnn_hardtanh, GNN, HARDTANH, GnnModule)

GNN_AVAILABLE_IN_ALL
GnnHardtanh *gnn_hardtanh_new (double min_val, double max_val);

#define GNN_TYPE_CELU (gnn_celu_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnCELU, gnn_celu, GNN, CELU, GnnModule)

GNN_AVAILABLE_IN_ALL
GnnCELU *gnn_celu_new (double alpha);

#define GNN_TYPE_THRESHOLD (gnn_threshold_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnThreshold, gnn_threshold, GNN, THRESHOLD, GnnModule)

GNN_AVAILABLE_IN_ALL
GnnThreshold *gnn_threshold_new (double threshold, double value);

#define GNN_TYPE_HARDSHRINK (gnn_hardshrink_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnHardshrink, gnn_hardshrink, GNN, HARDSHRINK, GnnModule)

GNN_AVAILABLE_IN_ALL
GnnHardshrink *gnn_hardshrink_new (double lambd);

#define GNN_TYPE_SOFTSHRINK (gnn_softshrink_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnSoftshrink, gnn_softshrink, GNN, SOFTSHRINK, GnnModule)

GNN_AVAILABLE_IN_ALL
GnnSoftshrink *gnn_softshrink_new (double lambd);

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

#define GNN_TYPE_SOFTMIN (gnn_softmin_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnSoftmin, gnn_softmin, GNN, SOFTMIN, GnnModule)

GNN_AVAILABLE_IN_ALL
GnnSoftmin    *gnn_softmin_new                    (int           dim);
GNN_AVAILABLE_IN_ALL
int            gnn_softmin_get_dim                (GnnSoftmin   *self);
GNN_AVAILABLE_IN_ALL
void           gnn_softmin_set_dim                (GnnSoftmin   *self,
                                                   int            dim);

#define GNN_TYPE_GLU (gnn_glu_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnGLU, gnn_glu, GNN, GLU, GnnModule)

GNN_AVAILABLE_IN_ALL
GnnGLU        *gnn_glu_new                        (int           dim);

#define GNN_TYPE_PRELU (gnn_prelu_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnPReLU, gnn_prelu, GNN, PRELU, GnnModule)

GNN_AVAILABLE_IN_ALL
GnnPReLU      *gnn_prelu_new                      (int           num_parameters,
                                                   double        init);

#define GNN_TYPE_RRELU (gnn_rrelu_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnRReLU, gnn_rrelu, GNN, RRELU, GnnModule)

GNN_AVAILABLE_IN_ALL
GnnRReLU      *gnn_rrelu_new                      (double        lower,
                                                   double        upper);

G_END_DECLS
