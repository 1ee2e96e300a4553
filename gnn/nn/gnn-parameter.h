/* gnn-parameter.h: tensors that are module parameters and buffers
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

G_BEGIN_DECLS

#define GNN_TYPE_PARAMETER (gnn_parameter_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnParameter, gnn_parameter, GNN, PARAMETER, GnnTensor)

GNN_AVAILABLE_IN_ALL
GnnParameter *gnn_parameter_new (GnnTensor *data,
                                 gboolean   requires_grad,
                                 GError   **error);

#define GNN_TYPE_BUFFER (gnn_buffer_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnBuffer, gnn_buffer, GNN, BUFFER, GnnTensor)

GNN_AVAILABLE_IN_ALL
GnnBuffer    *gnn_buffer_new            (GnnTensor *data,
                                         gboolean   persistent);
GNN_AVAILABLE_IN_ALL
gboolean      gnn_buffer_get_persistent (GnnBuffer *self);
GNN_AVAILABLE_IN_ALL
void          gnn_buffer_set_persistent (GnnBuffer *self,
                                         gboolean   persistent);

G_END_DECLS
