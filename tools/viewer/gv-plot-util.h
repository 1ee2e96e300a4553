/* gv-plot-util.h: what gnn-viewer's plots share: colours from the style, text, axis ticks
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* the widget's text colour and the style's accent colour (libadwaita's @accent_color),
 * following the light or dark style */
void   gv_plot_get_colors   (GtkWidget  *widget,
                             GdkRGBA    *foreground,
                             GdkRGBA    *accent);

/* a named colour of the style sheet (@warning_color...), @fallback when it has none */
void   gv_plot_lookup_color (GtkWidget  *widget,
                             const char *name,
                             const char *fallback,
                             GdkRGBA    *color);

/* @text in the widget's font, scaled by @scale (1.0: the body text), drawn with its top left
 * corner at (@x, @y) when @align is 0, its top centre when 0.5, its top right when 1; the
 * width drawn, or only measured when @cr is NULL; its height in @height (nullable) */
int    gv_plot_text         (GtkWidget  *widget,
                             cairo_t    *cr,
                             const char *text,
                             double      x,
                             double      y,
                             double      align,
                             double      scale,
                             int        *height);

/* draws a plot: @widget's content, @width × @height, into @cr */
typedef void (*GvPlotDrawFunc) (GtkWidget *widget,
                                cairo_t   *cr,
                                int        width,
                                int        height);

/* GtkWidget::snapshot of a plot drawn with cairo by @draw */
void   gv_plot_snapshot     (GtkWidget      *widget,
                             GtkSnapshot    *snapshot,
                             GvPlotDrawFunc  draw);

/* A "nice" step (1, 2 or 5 times a power of ten) that cuts @range into about @n parts. */
double gv_plot_nice_step    (double      range,
                             int         n);

G_END_DECLS
