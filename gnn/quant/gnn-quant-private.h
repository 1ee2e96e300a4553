/* gnn-quant-private.h: helpers shared by the files of gnn/quant
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "gnn-quantized-tensor.h"

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

G_END_DECLS
