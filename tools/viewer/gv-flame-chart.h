/* gv-flame-chart.h: the ranges of one profiled step on a time axis, one row per depth
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gtk/gtk.h>
#include "gv-profile.h"

G_BEGIN_DECLS

#define GV_TYPE_FLAME_CHART (gv_flame_chart_get_type ())
G_DECLARE_FINAL_TYPE (GvFlameChart, gv_flame_chart, GV, FLAME_CHART, GtkWidget)

GtkWidget      *gv_flame_chart_new         (void);

/* The step drawn (NULL: none); set again after the profile changed its step. */
void            gv_flame_chart_set_profile (GvFlameChart *self,
                                            GvProfile    *profile);

/* the margin left and right of the time axis, in pixels */
#define GV_FLAME_CHART_SIDE 12

/* The time shown: from @start_ns (from the step's start) across @span_ns, kept inside the
 * step (a span of the step or more: the whole step). Scrolling, dragging and double clicks
 * change it; a new profile shows the whole step. */
void            gv_flame_chart_set_view    (GvFlameChart *self,
                                            double        start_ns,
                                            double        span_ns);
void            gv_flame_chart_get_view    (GvFlameChart *self,
                                            double       *start_ns,
                                            double       *span_ns);

/* Zooms to the first range named @name, as double-clicking it does; FALSE when none is. */
gboolean        gv_flame_chart_zoom_to     (GvFlameChart *self,
                                            const char   *name);

/* The range drawn at (@x, @y) of the widget, or NULL: what hovering shows. */
GvProfileRange *gv_flame_chart_range_at    (GvFlameChart *self,
                                            double        x,
                                            double        y);
/* where the range @index of the profile's ranges is drawn (FALSE: no profile, no room) */
gboolean        gv_flame_chart_range_rect  (GvFlameChart *self,
                                            guint         index,
                                            graphene_rect_t *rect);
/* the tooltip of @range: its name, kind, duration and self time */
char           *gv_flame_chart_describe    (const GvProfileRange *range);

/* @ns as "812 ns", "12.34 µs", "1.234 ms", "2.5 s" */
char           *gv_format_duration         (gint64        ns);

G_END_DECLS
