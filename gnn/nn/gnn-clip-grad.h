/* gnn-clip-grad.h: gradient clipping and flattening of parameters, as torch.nn.utils
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

GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_clip_grad_norm_         (GnnTensor **parameters,
                                        guint       n_parameters,
                                        double      max_norm,
                                        double      norm_type,
                                        gboolean    error_if_nonfinite,
                                        GError    **error);
GNN_AVAILABLE_IN_ALL
gboolean   gnn_clip_grad_value_        (GnnTensor **parameters,
                                        guint       n_parameters,
                                        double      clip_value,
                                        GError    **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_parameters_to_vector    (GnnTensor **parameters,
                                        guint       n_parameters,
                                        GError    **error);
GNN_AVAILABLE_IN_ALL
gboolean   gnn_vector_to_parameters    (GnnTensor  *vec,
                                        GnnTensor **parameters,
                                        guint       n_parameters,
                                        GError    **error);

G_END_DECLS
