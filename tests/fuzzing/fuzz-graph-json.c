/* fuzz-graph-json.c: libFuzzer target for gnn_graph_new_from_json
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Any input must give either a graph, whose JSON reads back to a graph writing the same
 * JSON, or a GNN_ERROR_FILE_FORMAT error: never a crash, a leak or a warning.
 */
#include "config.h"

#include <string.h>

#include "gnn.h"

int LLVMFuzzerTestOneInput (const guint8 *data, size_t size);

int
LLVMFuzzerTestOneInput (const guint8 *data,
                        size_t        size)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnGraph) g = NULL;
  g_autoptr(GnnGraph) back = NULL;
  g_autofree char *json = NULL, *again = NULL;

  if (memchr (data, '\0', size))
    return 0;
  g = gnn_graph_new_from_json ((const char *) data, size, &error);
  if (g == NULL)
    {
      g_assert_error (error, GNN_ERROR, GNN_ERROR_FILE_FORMAT);
      return 0;
    }
  g_assert_no_error (error);
  json = gnn_graph_to_json (g, FALSE, &error);
  g_assert_no_error (error);
  back = gnn_graph_new_from_json (json, -1, &error);
  g_assert_no_error (error);
  again = gnn_graph_to_json (back, FALSE, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (json, ==, again);
  return 0;
}
