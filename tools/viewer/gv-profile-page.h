/* gv-profile-page.h: gnn-viewer's Profile page: the time of each module in one step, and the
 * step's ranges as a flame chart
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <adwaita.h>
#include "gv-flame-chart.h"
#include "gv-profile.h"

G_BEGIN_DECLS

#define GV_TYPE_PROFILE_PAGE (gv_profile_page_get_type ())
G_DECLARE_FINAL_TYPE (GvProfilePage, gv_profile_page, GV, PROFILE_PAGE, AdwBin)

/* The profile shown (NULL: none). */
void          gv_profile_page_set_profile (GvProfilePage *self,
                                           GvProfile     *profile);
GvProfile    *gv_profile_page_get_profile (GvProfilePage *self);

/* Shows step @index (from 0) of the trace; FALSE when it has no such step. */
gboolean      gv_profile_page_set_step    (GvProfilePage *self,
                                           guint          index);

/* Says that the next step is being profiled (until a profile is set). */
void          gv_profile_page_set_waiting (GvProfilePage *self,
                                           gboolean       waiting);

/* Selects the row of the module of dotted name @path ("" for the model); the flame chart zooms
 * to its first call. FALSE when the table has no such row. */
gboolean      gv_profile_page_select      (GvProfilePage *self,
                                           const char    *path);
/* (nullable): the row selected */
GvProfileRow *gv_profile_page_get_selected (GvProfilePage *self);

/* (element-type GvProfileRow): the table's rows in the order shown (sorted as its columns say) */
GListModel   *gv_profile_page_get_rows    (GvProfilePage *self);
GvFlameChart *gv_profile_page_get_chart   (GvProfilePage *self);
/* the line above the table: the step's time and where it went */
const char   *gv_profile_page_get_summary (GvProfilePage *self);

G_END_DECLS
