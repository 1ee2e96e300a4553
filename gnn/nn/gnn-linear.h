/* gnn-linear.h: the fully connected layer, as torch.nn.Linear
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined (GNN_INSIDE) && !defined (GNN_COMPILATION)
#error "Only <gnn/gnn.h> can be included directly."
#endif

#include <glib-object.h>
#include "../gnn-version-macros.h"
#include "../core/gnn-dtype.h"
#include "gnn-module.h"

G_BEGIN_DECLS

#define GNN_TYPE_LINEAR (gnn_linear_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnLinear, gnn_linear, GNN, LINEAR, GnnModule)

GNN_AVAILABLE_IN_ALL
GnnLinear *gnn_linear_new              (int         in_features,
                                        int         out_features,
                                        gboolean    bias,
                                        GError    **error);
GNN_AVAILABLE_IN_ALL
GnnLinear *gnn_linear_new_with_dtype   (int         in_features,
                                        int         out_features,
                                        gboolean    bias,
                                        GnnDtype    dtype,
                                        GError    **error);
GNN_AVAILABLE_IN_ALL
int        gnn_linear_get_in_features  (GnnLinear  *self);
GNN_AVAILABLE_IN_ALL
int        gnn_linear_get_out_features (GnnLinear  *self);
GNN_AVAILABLE_IN_ALL
gboolean   gnn_linear_get_bias         (GnnLinear  *self);
GNN_AVAILABLE_IN_ALL
GnnDtype   gnn_linear_get_dtype        (GnnLinear  *self);
GNN_AVAILABLE_IN_ALL
gboolean   gnn_linear_reset_parameters (GnnLinear  *self,
                                        GError    **error);

G_END_DECLS
