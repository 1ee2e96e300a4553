/* fuzz-idx.c: libFuzzer target for the IDX reader
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Any input must give either a tensor or a GNN_ERROR_FILE_FORMAT error: never a crash, a
 * read past the buffer, a leak, or another error.
 */
#include "config.h"

#include "gnn.h"

int LLVMFuzzerTestOneInput (const guint8 *data, size_t size);

int
LLVMFuzzerTestOneInput (const guint8 *data,
                        size_t        size)
{
  g_autoptr(GBytes) bytes = g_bytes_new_static (data, size);
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) t = gnn_idx_load_from_bytes (bytes, &error);

  if (t == NULL)
    g_assert_error (error, GNN_ERROR, GNN_ERROR_FILE_FORMAT);
  else
    {
      g_assert_no_error (error);
      g_assert_cmpuint (gnn_tensor_get_ndim (t), >=, 1);
      g_assert_cmpuint (gnn_tensor_get_ndim (t), <=, 8);
    }
  return 0;
}
