/* gnn-activation.h: activation layers, as torch.nn.ReLU and torch.nn.LeakyReLU
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

G_END_DECLS
