/* gnn-dtype.h: element types of tensors
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined (GNN_INSIDE) && !defined (GNN_COMPILATION)
#error "Only <gnn/gnn.h> can be included directly."
#endif

#include <glib.h>
#include "../gnn-version-macros.h"

G_BEGIN_DECLS

/**
 * GnnDtype:
 * @GNN_DTYPE_FLOAT32: 32-bit IEEE float (`torch.float32`), the default
 * @GNN_DTYPE_FLOAT64: 64-bit IEEE float (`torch.float64`)
 * @GNN_DTYPE_INT64: 64-bit signed integer (`torch.int64`): labels, indices, counters
 * @GNN_DTYPE_BOOL: boolean stored as one byte (`torch.bool`): masks
 * @GNN_DTYPE_UINT8: unsigned byte (`torch.uint8`): image data
 * @GNN_DTYPE_FLOAT16: IEEE half (`torch.float16`); storage and conversion, arithmetic in float32
 * @GNN_DTYPE_BFLOAT16: brain float (`torch.bfloat16`); storage and conversion, arithmetic in float32
 * @GNN_DTYPE_INT32: 32-bit signed integer (`torch.int32`, `torch.int`); arithmetic in int64,
 *   wrapped back to 32 bits as PyTorch's results are
 * @GNN_DTYPE_INT16: 16-bit signed integer (`torch.int16`, `torch.short`); arithmetic in int64,
 *   wrapped back to 16 bits
 * @GNN_DTYPE_INT8: 8-bit signed integer (`torch.int8`): quantized data; arithmetic in int64,
 *   wrapped back to 8 bits, so that int8 127 + 1 is -128
 *
 * The element type of a [class@Gnn.Tensor]. Values are only ever added.
 *
 * Since: 0.1
 */
typedef enum {
  GNN_DTYPE_FLOAT32,
  GNN_DTYPE_FLOAT64,
  GNN_DTYPE_INT64,
  GNN_DTYPE_BOOL,
  GNN_DTYPE_UINT8,
  GNN_DTYPE_FLOAT16,
  GNN_DTYPE_BFLOAT16,
  GNN_DTYPE_INT32,
  GNN_DTYPE_INT16,
  GNN_DTYPE_INT8,
} GnnDtype;

/**
 * GNN_N_DTYPES:
 *
 * The number of values of [enum@Gnn.Dtype], one more than the last.
 *
 * Since: 0.1
 */
#define GNN_N_DTYPES (GNN_DTYPE_INT8 + 1)

GNN_AVAILABLE_IN_ALL
gsize        gnn_dtype_get_size        (GnnDtype dtype);
GNN_AVAILABLE_IN_ALL
const char  *gnn_dtype_get_name        (GnnDtype dtype);
GNN_AVAILABLE_IN_ALL
gboolean     gnn_dtype_is_floating     (GnnDtype dtype);
GNN_AVAILABLE_IN_ALL
gboolean     gnn_dtype_from_name       (const char *name,
                                        GnnDtype   *out_dtype,
                                        GError    **error);
GNN_AVAILABLE_IN_ALL
GnnDtype     gnn_dtype_promote         (GnnDtype a,
                                        GnnDtype b);

G_END_DECLS
