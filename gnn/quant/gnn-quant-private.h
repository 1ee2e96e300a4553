/* gnn-quant-private.h: helpers shared by the files of gnn/quant
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "gnn-quantized-tensor.h"
#include "gnn-packed-params.h"

G_BEGIN_DECLS

/* the plain dtype that stores the integers of @dtype */
GnnDtype gnn_qdtype_storage        (GnnQDtype   dtype);
gboolean gnn_quant_check_qdtype    (const char *op,
                                    GnnQDtype   dtype,
                                    GError    **error);
/* a finite scale > 0 and a zero point in the range of @dtype, else an error prefixed by @op */
gboolean gnn_quant_check_params    (const char *op,
                                    double      scale,
                                    gint64      zero_point,
                                    GnnQDtype   dtype,
                                    GError    **error);
/* clamp (zero_point + nearbyint (value × inv_scale), qmin, qmax), the product in float32 */
gint64   gnn_quant_quantize_value  (float       value,
                                    float       inv_scale,
                                    gint64      zero_point,
                                    gint64      qmin,
                                    gint64      qmax);

/* observers (gnn-observer.c, gnn-observer-more.c) */
#include "gnn-observer.h"
const char *gnn_observer_type_label (GnnMinMaxObserver *self);
/* for a subclass's instance init: its default scheme */
void        gnn_observer_set_default_qscheme (GnnMinMaxObserver *self,
                                              GnnQScheme         qscheme);
/* UniformQuantizationObserverBase._calculate_qparams for one (min, max), in float32 */
void        gnn_observer_qparams    (GnnMinMaxObserver *self,
                                     float              mn,
                                     float              mx,
                                     float              eps,
                                     float             *scale,
                                     gint64            *zero_point);
gboolean    gnn_per_channel_observe (GnnMinMaxObserver *self,
                                     GnnTensor         *input,
                                     GError           **error);
gboolean    gnn_histogram_observe   (GnnMinMaxObserver *self,
                                     GnnTensor         *input,
                                     GError           **error);
/* HistogramObserver._non_linear_param_search: the min and max to compute the parameters from */
gboolean    gnn_histogram_search    (GnnMinMaxObserver *self,
                                     float             *mn,
                                     float             *mx,
                                     GError           **error);

/* a quantized Linear's weight and bias as its forward reads them (gnn-packed-params.c) */
typedef struct {
  gint64  in, out;
  GBytes *wbytes;        /* int8 (out, in) */
  double *scales;        /* n_scales: 1 per tensor, out per channel */
  gint64 *zero_points;
  gint64  n_scales;
  float  *bias;          /* out, or NULL */
} GnnQLinearWeights;

gboolean gnn_qlinear_weights_read  (GnnLinearPackedParams   *self,
                                    GnnQLinearWeights       *w,
                                    GError                 **error);
void     gnn_qlinear_weights_clear (GnnQLinearWeights       *w);
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (GnnQLinearWeights, gnn_qlinear_weights_clear)

/* acc (M, out) = (xq - xzp) (M, in) · (wq - wzp)ᵀ, exactly in int32 */
gboolean gnn_qlinear_accumulate    (gint32                  *acc,
                                    const guint8            *xq,
                                    gint32                   xzp,
                                    const GnnQLinearWeights *w,
                                    gint64                   M,
                                    GError                 **error);

G_END_DECLS
