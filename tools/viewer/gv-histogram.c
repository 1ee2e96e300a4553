/* gv-histogram.c: the distribution of a tensor's values, as bars
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "gv-histogram.h"
#include "gv-format.h"
#include "gv-plot-util.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

struct _GvHistogram
{
  GtkWidget  parent_instance;

  char      *color_name;
  gint64     counts[GV_HISTOGRAM_BINS];
  gint64     n;             /* finite values counted */
  gint64     non_finite;
  double     lo;
  double     hi;
};

G_DEFINE_FINAL_TYPE (GvHistogram, gv_histogram, GTK_TYPE_WIDGET)

void
gv_histogram_set_values (GvHistogram *self,
                         const float *values,
                         gsize        n)
{
  double lo = INFINITY, hi = -INFINITY;

  memset (self->counts, 0, sizeof self->counts);
  self->n = self->non_finite = 0;
  for (gsize i = 0; i < n; i++)
    if (isfinite (values[i]))
      {
        lo = MIN (lo, values[i]);
        hi = MAX (hi, values[i]);
      }
  if (lo > hi)
    lo = hi = 0;
  self->lo = lo;
  self->hi = hi;
  for (gsize i = 0; i < n; i++)
    {
      int bin;

      if (!isfinite (values[i]))
        {
          self->non_finite++;
          continue;
        }
      bin = hi > lo ? (int) ((values[i] - lo) / (hi - lo) * GV_HISTOGRAM_BINS) : GV_HISTOGRAM_BINS / 2;
      self->counts[CLAMP (bin, 0, GV_HISTOGRAM_BINS - 1)]++;
      self->n++;
    }
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

const gint64 *
gv_histogram_get_counts (GvHistogram *self,
                         double      *lo,
                         double      *hi)
{
  *lo = self->lo;
  *hi = self->hi;
  return self->counts;
}

static void
draw (GtkWidget *widget,
      cairo_t   *cr,
      int        width,
      int        height)
{
  GvHistogram *self = GV_HISTOGRAM (widget);
  GdkRGBA fg, accent, bar;
  gint64 top = 1;
  int text_h;
  double ph, bw;

  gv_plot_get_colors (widget, &fg, &accent);
  gv_plot_lookup_color (widget, self->color_name, "#1c71d8", &bar);
  gv_plot_text (widget, NULL, "0", 0, 0, 0, 0.8, &text_h);
  ph = height - text_h - 6;
  if (ph < 8 || width < 20)
    return;
  for (int i = 0; i < GV_HISTOGRAM_BINS; i++)
    top = MAX (top, self->counts[i]);
  bw = (double) width / GV_HISTOGRAM_BINS;
  cairo_set_source_rgba (cr, bar.red, bar.green, bar.blue, 0.85);
  for (int i = 0; i < GV_HISTOGRAM_BINS; i++)
    if (self->counts[i] > 0)
      {
        /* a bin with anything in it is at least a pixel high */
        double h = MAX (1, ph * self->counts[i] / top);

        cairo_rectangle (cr, i * bw + 0.5, ph - h, MAX (bw - 1, 1), h);
      }
  cairo_fill (cr);
  cairo_set_source_rgba (cr, fg.red, fg.green, fg.blue, 0.35);
  cairo_set_line_width (cr, 1);
  cairo_move_to (cr, 0, ph + 0.5);
  cairo_line_to (cr, width, ph + 0.5);
  cairo_stroke (cr);
  if (self->lo < 0 && self->hi > 0)
    {
      /* where zero is */
      double x = floor (width * -self->lo / (self->hi - self->lo)) + 0.5;

      cairo_move_to (cr, x, 0);
      cairo_line_to (cr, x, ph);
      cairo_stroke (cr);
    }
  cairo_set_source_rgba (cr, fg.red, fg.green, fg.blue, 0.75);
  if (self->n > 0)
    {
      g_autofree char *lo = gv_format_value (self->lo);
      g_autofree char *hi = gv_format_value (self->hi);

      gv_plot_text (widget, cr, lo, 0, ph + 3, 0, 0.8, NULL);
      gv_plot_text (widget, cr, hi, width, ph + 3, 1, 0.8, NULL);
    }
  if (self->non_finite > 0)
    {
      g_autofree char *count = gv_format_count (self->non_finite);
      g_autofree char *text = g_strdup_printf (_("%s not finite"), count);

      gv_plot_text (widget, cr, text, width / 2.0, ph + 3, 0.5, 0.8, NULL);
    }
}

static void
gv_histogram_snapshot (GtkWidget   *widget,
                       GtkSnapshot *snapshot)
{
  gv_plot_snapshot (widget, snapshot, draw);
}

static void
gv_histogram_finalize (GObject *object)
{
  g_free (GV_HISTOGRAM (object)->color_name);
  G_OBJECT_CLASS (gv_histogram_parent_class)->finalize (object);
}

static void
gv_histogram_class_init (GvHistogramClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  G_OBJECT_CLASS (klass)->finalize = gv_histogram_finalize;
  widget_class->snapshot = gv_histogram_snapshot;
  gtk_widget_class_set_css_name (widget_class, "histogram");
}

static void
gv_histogram_init (GvHistogram *self)
{
  gtk_widget_set_size_request (GTK_WIDGET (self), 120, 64);
}

GtkWidget *
gv_histogram_new (const char *color_name)
{
  GvHistogram *self = g_object_new (GV_TYPE_HISTOGRAM, NULL);

  self->color_name = g_strdup (color_name);
  return GTK_WIDGET (self);
}
