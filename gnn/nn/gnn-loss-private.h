/* gnn-loss-private.h: what the files of the losses share
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "gnn-loss.h"
#include "gnn-props-private.h"

G_BEGIN_DECLS

/* none, mean or sum (batchmean is KLDivLoss's only): "%d is not a valid value for reduction" */
gboolean   gnn_loss_check_reduction   (GnnReduction  reduction,
                                       GError      **error);
/* "expected a floating-point @what, got int64" */
gboolean   gnn_loss_check_floating    (GnnTensor    *t,
                                       const char   *what,
                                       GError      **error);
/* @loss (transfer full) reduced to none, mean or sum; %NULL in, %NULL out */
GnnTensor *gnn_loss_reduce            (GnnTensor    *loss,
                                       GnnReduction  reduction,
                                       GError      **error);
/* @result, or %NULL with @error prefixed by "@name: " */
GnnTensor *gnn_loss_named             (GnnTensor    *result,
                                       const char   *name,
                                       GError      **error);
/* the getter of a weight property: the buffer of the property's name, or %NULL */
void       gnn_loss_weight_buffer_get (GObject      *object,
                                       GParamSpec   *pspec,
                                       GValue       *value);

/* the construct-time tensor of a weight property, registered as a buffer in setup */
#define GNN_LOSS_WEIGHT_PROP(TypeName, member, name)                                          \
  (GnnProp) { g_param_spec_object (name, NULL, NULL, GNN_TYPE_TENSOR,                         \
                                   GNN_PARAM_RW | G_PARAM_CONSTRUCT_ONLY),                    \
              G_STRUCT_OFFSET (TypeName, member), NULL, gnn_loss_weight_buffer_get }

/* a read-write construct property of a boolean or double member */
#define GNN_LOSS_BOOLEAN_PROP(TypeName, member, name, default_value)                          \
  (GnnProp) { g_param_spec_boolean (name, NULL, NULL, default_value,                          \
                                    GNN_PARAM_RW | G_PARAM_CONSTRUCT),                        \
              G_STRUCT_OFFSET (TypeName, member) }
#define GNN_LOSS_DOUBLE_PROP(TypeName, member, name, default_value)                           \
  (GnnProp) { gnn_param_spec_double (name, default_value, GNN_PARAM_RW | G_PARAM_CONSTRUCT),  \
              G_STRUCT_OFFSET (TypeName, member) }

G_END_DECLS
