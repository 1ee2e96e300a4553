/* gv-histogram.h: the distribution of a tensor's values, as bars
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define GV_TYPE_HISTOGRAM (gv_histogram_get_type ())
G_DECLARE_FINAL_TYPE (GvHistogram, gv_histogram, GV, HISTOGRAM, GtkWidget)

#define GV_HISTOGRAM_BINS 32

/* @color_name: the style's colour of the bars ("accent_color", "warning_color"...) */
GtkWidget *gv_histogram_new        (const char   *color_name);

/* Counts @values (@n of them; the non-finite ones apart) into GV_HISTOGRAM_BINS equal bins
 * from their smallest to their largest, and draws them. */
void       gv_histogram_set_values (GvHistogram  *self,
                                    const float  *values,
                                    gsize         n);

/* the counts drawn, GV_HISTOGRAM_BINS of them, and the range they cover */
const gint64 *gv_histogram_get_counts (GvHistogram *self,
                                       double      *lo,
                                       double      *hi);

G_END_DECLS
