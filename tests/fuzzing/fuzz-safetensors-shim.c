/* fuzz-safetensors-shim.c: what the safetensors loader takes from libgnn's private API, for
 * the fuzz target, which compiles the loader itself and links the shared library (where
 * private symbols are hidden). The shim copies instead of wrapping: the parsing under test
 * is the same.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include "gnn.h"
#include "core/gnn-tensor-private.h"

GnnTensor *
gnn_tensor_new_wrap_bytes (GBytes       *bytes,
                           GnnDtype      dtype,
                           guint         ndim,
                           const gint64 *shape,
                           GError      **error)
{
  return gnn_tensor_new_from_bytes (bytes, dtype, shape, ndim, NULL, error);
}
