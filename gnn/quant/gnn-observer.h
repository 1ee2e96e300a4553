/* gnn-observer.h: observers that choose quantization parameters, as torch.ao.quantization's
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined (GNN_INSIDE) && !defined (GNN_COMPILATION)
#error "Only <gnn/gnn.h> can be included directly."
#endif

#include <glib-object.h>
#include "../gnn-version-macros.h"
#include "../nn/gnn-module.h"
#include "gnn-quantized-tensor.h"

G_BEGIN_DECLS

#define GNN_TYPE_MIN_MAX_OBSERVER (gnn_min_max_observer_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_DERIVABLE_TYPE (GnnMinMaxObserver, gnn_min_max_observer, GNN, MIN_MAX_OBSERVER, GnnModule)

/**
 * GnnMinMaxObserverClass:
 * @parent_class: the module class
 *
 * The class of [class@Gnn.MinMaxObserver]. Its virtual methods are [class@Gnn.Module]'s.
 *
 * Since: 0.1
 */
struct _GnnMinMaxObserverClass
{
  GnnModuleClass parent_class;

  /*< private >*/
  gpointer padding[8];
};

#define GNN_TYPE_MOVING_AVERAGE_MIN_MAX_OBSERVER (gnn_moving_average_min_max_observer_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnMovingAverageMinMaxObserver, gnn_moving_average_min_max_observer, GNN,
                      MOVING_AVERAGE_MIN_MAX_OBSERVER, GnnMinMaxObserver)

GNN_AVAILABLE_IN_ALL
GnnMinMaxObserver *gnn_min_max_observer_new               (GnnQDtype           dtype,
                                                           GnnQScheme          qscheme,
                                                           gboolean            reduce_range,
                                                           GError            **error);
GNN_AVAILABLE_IN_ALL
gboolean           gnn_min_max_observer_observe           (GnnMinMaxObserver  *self,
                                                           GnnTensor          *input,
                                                           GError            **error);
GNN_AVAILABLE_IN_ALL
gboolean           gnn_min_max_observer_calculate_qparams (GnnMinMaxObserver  *self,
                                                           double             *scale,
                                                           gint64             *zero_point,
                                                           GError            **error);
GNN_AVAILABLE_IN_ALL
void               gnn_min_max_observer_get_range         (GnnMinMaxObserver  *self,
                                                           gint64             *quant_min,
                                                           gint64             *quant_max);
GNN_AVAILABLE_IN_ALL
gboolean           gnn_min_max_observer_get_min_max       (GnnMinMaxObserver  *self,
                                                           float              *min_val,
                                                           float              *max_val,
                                                           GError            **error);
GNN_AVAILABLE_IN_ALL
gboolean           gnn_min_max_observer_reset_min_max_vals (GnnMinMaxObserver *self,
                                                            GError           **error);

GNN_AVAILABLE_IN_ALL
GnnMovingAverageMinMaxObserver *gnn_moving_average_min_max_observer_new (double      averaging_constant,
                                                                         GnnQDtype   dtype,
                                                                         GnnQScheme  qscheme,
                                                                         gboolean    reduce_range,
                                                                         GError    **error);

#define GNN_TYPE_PER_CHANNEL_MIN_MAX_OBSERVER (gnn_per_channel_min_max_observer_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnPerChannelMinMaxObserver, gnn_per_channel_min_max_observer, GNN,
                      PER_CHANNEL_MIN_MAX_OBSERVER, GnnMinMaxObserver)

GNN_AVAILABLE_IN_ALL
GnnPerChannelMinMaxObserver *gnn_per_channel_min_max_observer_new (int         ch_axis,
                                                                   GnnQDtype   dtype,
                                                                   GnnQScheme  qscheme,
                                                                   gboolean    reduce_range,
                                                                   GError    **error);
GNN_AVAILABLE_IN_ALL
gboolean gnn_per_channel_min_max_observer_calculate_qparams (GnnPerChannelMinMaxObserver *self,
                                                             GnnTensor                  **scales,
                                                             GnnTensor                  **zero_points,
                                                             GError                     **error);

#define GNN_TYPE_HISTOGRAM_OBSERVER (gnn_histogram_observer_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnHistogramObserver, gnn_histogram_observer, GNN, HISTOGRAM_OBSERVER,
                      GnnMinMaxObserver)

GNN_AVAILABLE_IN_ALL
GnnHistogramObserver *gnn_histogram_observer_new (int         bins,
                                                  int         upsample_rate,
                                                  GnnQDtype   dtype,
                                                  GnnQScheme  qscheme,
                                                  gboolean    reduce_range,
                                                  GError    **error);

G_END_DECLS
