/* gnn-grad-mode.h: grad mode (the autograd graph records only when it is on), anomaly mode,
 * and the graph behind a tensor (grad_fn, next_functions)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined (GNN_INSIDE) && !defined (GNN_COMPILATION)
#error "Only <gnn/gnn.h> can be included directly."
#endif

#include <glib-object.h>
#include "../../gnn-version-macros.h"
#include "../../core/gnn-node.h"
#include "../../core/gnn-tensor.h"

G_BEGIN_DECLS

GNN_AVAILABLE_IN_ALL
gboolean gnn_is_grad_enabled  (void);
GNN_AVAILABLE_IN_ALL
gboolean gnn_set_grad_enabled (gboolean enabled);
GNN_AVAILABLE_IN_ALL
gboolean gnn_is_inference_mode_enabled  (void);
GNN_AVAILABLE_IN_ALL
gboolean gnn_set_inference_mode_enabled (gboolean  enabled,
                                         gboolean *grad_enabled);

/**
 * GnnNoGradGuard: (skip)
 *
 * A scope in which operations record no autograd graph, as `with torch.no_grad ():`.
 * In C, `g_autoptr(GnnNoGradGuard) guard = gnn_no_grad_guard_new ();` ends the scope when
 * the variable goes out of scope. Grad mode is per thread.
 */
typedef struct _GnnNoGradGuard GnnNoGradGuard;

GNN_AVAILABLE_IN_ALL
GnnNoGradGuard *gnn_no_grad_guard_new  (void);
GNN_AVAILABLE_IN_ALL
void            gnn_no_grad_guard_free (GnnNoGradGuard *guard);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (GnnNoGradGuard, gnn_no_grad_guard_free)

/* the graph behind a tensor */
GNN_AVAILABLE_IN_ALL
GnnNode   *gnn_tensor_get_grad_fn        (GnnTensor *self);
GNN_AVAILABLE_IN_ALL
guint      gnn_node_get_n_next_functions (GnnNode   *node);
GNN_AVAILABLE_IN_ALL
GnnNode   *gnn_node_get_next_function    (GnnNode   *node,
                                          guint      index,
                                          guint     *input_nr);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_node_get_variable         (GnnNode   *node);

/**
 * GnnAnomalyTraceFunc:
 * @user_data: the data given to [func@Gnn.autograd_set_anomaly_trace_func]
 *
 * Describes where the program is when anomaly detection records a node (a traceback).
 *
 * Returns: (transfer full): the description, a newly allocated string
 *
 * Since: 0.1
 */
typedef char *(*GnnAnomalyTraceFunc) (gpointer user_data);

GNN_AVAILABLE_IN_ALL
void     gnn_autograd_set_anomaly_enabled          (gboolean            enabled,
                                                    gboolean            check_nan);
GNN_AVAILABLE_IN_ALL
gboolean gnn_autograd_is_anomaly_enabled           (void);
GNN_AVAILABLE_IN_ALL
gboolean gnn_autograd_is_anomaly_check_nan_enabled (void);
GNN_AVAILABLE_IN_ALL
void     gnn_autograd_set_anomaly_trace_func       (GnnAnomalyTraceFunc func,
                                                    gpointer            user_data,
                                                    GDestroyNotify      notify);

G_END_DECLS
