/* fuzz-chrome-trace.c: libFuzzer target for gnn-viewer's chrome trace loader
 * (tools/viewer/gv-profile.c, gv_profile_new_from_data)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Any input must give either a profile whose every step can be shown, with sane rows and
 * ranges, or a GNN_ERROR_FILE_FORMAT error: never a crash, a leak or a warning.
 */
#include "config.h"

#include <string.h>

#include "gnn.h"
#include "gv-profile.h"

int LLVMFuzzerTestOneInput (const guint8 *data, size_t size);

static void
check_step (GvProfile *profile)
{
  GListModel *rows = gv_profile_get_rows (profile);
  GArray *ranges = gv_profile_get_ranges (profile);
  gint64 step_ns = gv_profile_get_step_ns (profile);

  g_assert_cmpint (step_ns, >=, 0);
  for (guint i = 0; i < g_list_model_get_n_items (rows); i++)
    {
      g_autoptr(GvProfileRow) row = g_list_model_get_item (rows, i);
      g_autofree char *line = gv_profile_row_dump (row);

      g_assert_nonnull (strchr (line, '\t'));
      g_assert_cmpuint (gv_profile_row_get_calls (row), >=, 1);
      g_assert_cmpint (gv_profile_row_get_self_ns (row), >=, 0);
      g_assert_cmpint (gv_profile_row_get_self_ns (row), <=, gv_profile_row_get_total_ns (row));
      g_assert_true (gv_profile_row_get_percent (row) >= 0);
    }
  for (guint i = 0; i < ranges->len; i++)
    {
      GvProfileRange *r = &g_array_index (ranges, GvProfileRange, i);

      g_assert_cmpuint (r->row, <, gv_profile_get_n_chart_rows (profile));
      g_assert_cmpuint (r->depth, <=, r->row);
      g_assert_cmpint (r->start_ns, >=, 0);
      g_assert_cmpint (r->start_ns + r->duration_ns, <=, step_ns);
      g_assert_cmpint (r->self_ns, >=, 0);
      g_assert_cmpint (r->self_ns, <=, r->duration_ns);
      if (i > 0)
        g_assert_cmpuint (g_array_index (ranges, GvProfileRange, i - 1).row, <=, r->row);
    }
}

int
LLVMFuzzerTestOneInput (const guint8 *data,
                        size_t        size)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GvProfile) profile = gv_profile_new_from_data ((const char *) data, size, "fuzz.json", &error);

  if (profile == NULL)
    {
      g_assert_error (error, GNN_ERROR, GNN_ERROR_FILE_FORMAT);
      return 0;
    }
  g_assert_no_error (error);
  for (guint k = 0; k < MAX (gv_profile_get_n_steps (profile), 1); k++)
    {
      g_assert_true (gv_profile_set_step (profile, k));
      check_step (profile);
    }
  g_assert_false (gv_profile_set_step (profile, MAX (gv_profile_get_n_steps (profile), 1)));
  return 0;
}
