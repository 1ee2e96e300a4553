/* fuzz-module-json.c: libFuzzer target for gnn_module_new_from_json
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Any input must give either a module tree, whose JSON rebuilds to the same JSON, or a
 * GNN_ERROR_FILE_FORMAT / GNN_ERROR_INVALID_ARGUMENT error (a module's setup may refuse its
 * properties with its own code): never a crash, a leak or a warning.
 */
#include "config.h"

#include <string.h>

#include "gnn.h"

int LLVMFuzzerTestOneInput (const guint8 *data, size_t size);

/* Layers whose size comes from the input could ask for any amount of memory: inputs that
 * mention a number of more than four digits are skipped. */
static gboolean
too_big (const guint8 *data, size_t size)
{
  guint run = 0;

  for (size_t i = 0; i < size; i++)
    {
      run = (data[i] >= '0' && data[i] <= '9') ? run + 1 : 0;
      if (run > 4)
        return TRUE;
    }
  return FALSE;
}

int
LLVMFuzzerTestOneInput (const guint8 *data,
                        size_t        size)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnModule) m = NULL;
  g_autofree char *json = NULL, *again = NULL;
  g_autoptr(GnnModule) back = NULL;

  if (too_big (data, size) || memchr (data, '\0', size))
    return 0;
  m = gnn_module_new_from_json ((const char *) data, size, &error);
  if (m == NULL)
    {
      g_assert_nonnull (error);
      g_assert_true (error->domain == GNN_ERROR);
      return 0;
    }
  g_assert_no_error (error);
  json = gnn_module_to_json (m, FALSE, &error);
  g_assert_no_error (error);
  back = gnn_module_new_from_json (json, -1, &error);
  g_assert_no_error (error);
  again = gnn_module_to_json (back, FALSE, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (json, ==, again);
  return 0;
}
