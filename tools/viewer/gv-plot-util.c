/* gv-plot-util.c: what gnn-viewer's plots share: colours from the style, text, axis ticks
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "gv-plot-util.h"

#include <math.h>

G_GNUC_BEGIN_IGNORE_DEPRECATIONS   /* GtkStyleContext: GTK 4.8 has nothing else */

void
gv_plot_lookup_color (GtkWidget  *widget,
                      const char *name,
                      const char *fallback,
                      GdkRGBA    *color)
{
  if (!gtk_style_context_lookup_color (gtk_widget_get_style_context (widget), name, color))
    gdk_rgba_parse (color, fallback);
}

void
gv_plot_get_colors (GtkWidget *widget,
                    GdkRGBA   *foreground,
                    GdkRGBA   *accent)
{
  gtk_style_context_get_color (gtk_widget_get_style_context (widget), foreground);
  gv_plot_lookup_color (widget, "accent_color", "#1c71d8", accent);
}

G_GNUC_END_IGNORE_DEPRECATIONS

int
gv_plot_text (GtkWidget  *widget,
              cairo_t    *cr,
              const char *text,
              double      x,
              double      y,
              double      align,
              double      scale,
              int        *height_out)
{
  PangoLayout *layout = gtk_widget_create_pango_layout (widget, text);
  int width, height;

  if (scale != 1.0)
    {
      PangoFontDescription *font = pango_font_description_copy (
        pango_context_get_font_description (pango_layout_get_context (layout)));

      pango_font_description_set_size (font, (int) (pango_font_description_get_size (font) * scale));
      pango_layout_set_font_description (layout, font);
      pango_font_description_free (font);
    }
  pango_layout_get_pixel_size (layout, &width, &height);
  if (height_out)
    *height_out = height;
  if (cr)
    {
      cairo_move_to (cr, x - align * width, y);
      pango_cairo_show_layout (cr, layout);
    }
  g_object_unref (layout);
  return width;
}

double
gv_plot_nice_step (double range,
                   int    n)
{
  double raw = range / MAX (n, 1);
  double power, fraction;

  if (!(raw > 0) || !isfinite (raw))
    return 1;
  power = pow (10, floor (log10 (raw)));
  fraction = raw / power;
  return (fraction <= 1 ? 1 : fraction <= 2 ? 2 : fraction <= 5 ? 5 : 10) * power;
}

void
gv_plot_snapshot (GtkWidget      *widget,
                  GtkSnapshot    *snapshot,
                  GvPlotDrawFunc  draw)
{
  int width = gtk_widget_get_width (widget), height = gtk_widget_get_height (widget);
  cairo_t *cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, width, height));

  draw (widget, cr, width, height);
  cairo_destroy (cr);
}
