/* gnn-averaged-model.h: weight averaging (SWA, EMA), as torch.optim.swa_utils
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined (GNN_INSIDE) && !defined (GNN_COMPILATION)
#error "Only <gnn/gnn.h> can be included directly."
#endif

#include <gio/gio.h>
#include "../gnn-version-macros.h"
#include "../core/gnn-tensor.h"
#include "../nn/gnn-module.h"

G_BEGIN_DECLS

/**
 * GnnAvgFunc:
 * @averaged: the averaged value (of the [class@Gnn.AveragedModel]), detached from autograd
 * @current: the current value (of the model), on the same device
 * @n_averaged: the number of models averaged so far, an int64 scalar tensor on the same device
 * @user_data: (closure): the data given with the function
 *
 * An averaging function for one tensor (`avg_fn`): returns the new averaged value, which the
 * caller copies into @averaged. Runs on the thread that called
 * [method@Gnn.AveragedModel.update_parameters], with grad mode off.
 *
 * Returns: (transfer full) (nullable): the new averaged value, of @averaged's shape; %NULL
 *   makes the update fail
 */
typedef GnnTensor * (*GnnAvgFunc) (GnnTensor *averaged,
                                   GnnTensor *current,
                                   GnnTensor *n_averaged,
                                   gpointer   user_data);

/**
 * GnnMultiAvgFunc:
 * @averaged: (array length=n): the averaged values, to update in place, detached from autograd
 * @current: (array length=n): the current values, one for each of @averaged, on the same
 *   device and of the same dtype
 * @n: the number of tensors in each list
 * @n_averaged: the number of models averaged so far, an int64 scalar tensor on the same device
 * @user_data: (closure): the data given with the function
 * @error: return location for a #GError
 *
 * An averaging function for a list of tensors (`multi_avg_fn`), called once for each device
 * and dtype of the tensors: it updates @averaged in place. Runs on the thread that called
 * [method@Gnn.AveragedModel.update_parameters], with grad mode off.
 *
 * Returns: %TRUE on success, %FALSE with @error set
 */
typedef gboolean (*GnnMultiAvgFunc) (GnnTensor **averaged,
                                     GnnTensor **current,
                                     guint       n,
                                     GnnTensor  *n_averaged,
                                     gpointer    user_data,
                                     GError    **error);

#define GNN_TYPE_AVERAGE_FUNCTION (gnn_average_function_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnAverageFunction, gnn_average_function, GNN, AVERAGE_FUNCTION, GObject)

GNN_AVAILABLE_IN_ALL
GnnAverageFunction *gnn_average_function_new_ema            (double              decay,
                                                             GError            **error);
GNN_AVAILABLE_IN_ALL
GnnAverageFunction *gnn_average_function_new_ema_multi      (double              decay,
                                                             GError            **error);
GNN_AVAILABLE_IN_ALL
GnnAverageFunction *gnn_average_function_new_swa            (void);
GNN_AVAILABLE_IN_ALL
GnnAverageFunction *gnn_average_function_new_swa_multi      (void);
GNN_AVAILABLE_IN_ALL
GnnAverageFunction *gnn_average_function_new_callback       (GnnAvgFunc          func,
                                                             gpointer            user_data,
                                                             GDestroyNotify      destroy);
GNN_AVAILABLE_IN_ALL
GnnAverageFunction *gnn_average_function_new_multi_callback (GnnMultiAvgFunc     func,
                                                             gpointer            user_data,
                                                             GDestroyNotify      destroy);
GNN_AVAILABLE_IN_ALL
gboolean            gnn_average_function_get_multi          (GnnAverageFunction *self);
GNN_AVAILABLE_IN_ALL
double              gnn_average_function_get_decay          (GnnAverageFunction *self);
GNN_AVAILABLE_IN_ALL
gboolean            gnn_average_function_apply              (GnnAverageFunction *self,
                                                             GnnTensor         **averaged,
                                                             GnnTensor         **current,
                                                             guint               n,
                                                             GnnTensor          *n_averaged,
                                                             GError            **error);

#define GNN_TYPE_AVERAGED_MODEL (gnn_averaged_model_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnAveragedModel, gnn_averaged_model, GNN, AVERAGED_MODEL, GnnModule)

GNN_AVAILABLE_IN_ALL
GnnAveragedModel   *gnn_averaged_model_new               (GnnModule          *model,
                                                          const char         *device,
                                                          GnnAverageFunction *avg_fn,
                                                          GnnAverageFunction *multi_avg_fn,
                                                          gboolean            use_buffers,
                                                          GError            **error);
GNN_AVAILABLE_IN_ALL
gboolean            gnn_averaged_model_update_parameters (GnnAveragedModel   *self,
                                                          GnnModule          *model,
                                                          GError            **error);
GNN_AVAILABLE_IN_ALL
GnnModule          *gnn_averaged_model_get_module        (GnnAveragedModel   *self);
GNN_AVAILABLE_IN_ALL
gint64              gnn_averaged_model_get_n_averaged    (GnnAveragedModel   *self);
GNN_AVAILABLE_IN_ALL
GnnAverageFunction *gnn_averaged_model_get_avg_fn        (GnnAveragedModel   *self);
GNN_AVAILABLE_IN_ALL
GnnAverageFunction *gnn_averaged_model_get_multi_avg_fn  (GnnAveragedModel   *self);
GNN_AVAILABLE_IN_ALL
gboolean            gnn_averaged_model_get_use_buffers   (GnnAveragedModel   *self);
GNN_AVAILABLE_IN_ALL
void                gnn_averaged_model_set_use_buffers   (GnnAveragedModel   *self,
                                                          gboolean            use_buffers);

GNN_AVAILABLE_IN_ALL
gboolean            gnn_update_bn                        (GListModel         *loader,
                                                          GnnModule          *model,
                                                          const char         *device,
                                                          GError            **error);

G_END_DECLS
