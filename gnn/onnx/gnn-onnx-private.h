/* gnn-onnx-private.h: what the ONNX writer and reader share
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "core/gnn-dtype.h"

G_BEGIN_DECLS

/* the ONNX element type (TensorProto.DataType) of @dtype, 0 (UNDEFINED) for none: the one
 * table both directions read */
int gnn_onnx_elem_type (GnnDtype dtype);

G_END_DECLS
