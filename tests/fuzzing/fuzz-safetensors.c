/* fuzz-safetensors.c: libFuzzer target for the safetensors reader
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Any input must give either a state dict whose tensors can all be read back, or a
 * GNN_ERROR_FILE_FORMAT / GNN_ERROR_DTYPE error: never a crash, a read past the buffer, a
 * leak, or another error. What loads must save and load again to the same bytes.
 */
#include "config.h"

#include "gnn.h"

int LLVMFuzzerTestOneInput (const guint8 *data, size_t size);

int
LLVMFuzzerTestOneInput (const guint8 *data,
                        size_t        size)
{
  g_autoptr(GBytes) bytes = g_bytes_new (data, size);   /* a copy: loaded tensors may be written */
  g_autoptr(GError) error = NULL;
  g_autoptr(GHashTable) meta = NULL;
  g_autoptr(GnnStateDict) sd = gnn_safetensors_load_from_bytes (bytes, &meta, &error);
  g_autoptr(GBytes) saved = NULL;
  g_autoptr(GnnStateDict) again = NULL;

  if (sd == NULL)
    {
      g_assert_true (g_error_matches (error, GNN_ERROR, GNN_ERROR_FILE_FORMAT) ||
                     g_error_matches (error, GNN_ERROR, GNN_ERROR_DTYPE));
      return 0;
    }
  g_assert_no_error (error);
  saved = gnn_safetensors_save_to_bytes (sd, meta, &error);
  g_assert_no_error (error);
  again = gnn_safetensors_load_from_bytes (saved, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (gnn_state_dict_get_length (again), ==, gnn_state_dict_get_length (sd));
  return 0;
}
