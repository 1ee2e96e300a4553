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
 *
 * The element type of a [class@Gnn.Tensor]. Values are only ever added.
 */
typedef enum {
  GNN_DTYPE_FLOAT32,
  GNN_DTYPE_FLOAT64,
  GNN_DTYPE_INT64,
  GNN_DTYPE_BOOL,
  GNN_DTYPE_UINT8,
  GNN_DTYPE_FLOAT16,
  GNN_DTYPE_BFLOAT16,
} GnnDtype;

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
