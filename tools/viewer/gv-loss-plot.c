/* gv-loss-plot.c: the training loss, raw and smoothed, over the steps
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The raw loss of every step is drawn faint behind its smoothed curve, on axes with round
 * ticks (1, 2 or 5 times a power of ten) labelled in gnn-viewer's number format, in the
 * style's colours (light or dark).
 */
#include "gv-loss-plot.h"
#include "gv-format.h"
#include "gv-plot-util.h"

#include <glib/gi18n.h>
#include <math.h>

#define SMOOTHING 0.9

struct _GvLossPlot
{
  GtkWidget  parent_instance;

  GArray    *losses;
  gint64     planned_steps;
};

G_DEFINE_FINAL_TYPE (GvLossPlot, gv_loss_plot, GTK_TYPE_WIDGET)

double *
gv_loss_plot_smooth (const double *values,
                     guint         n,
                     double        weight)
{
  double *out = g_new (double, MAX (n, 1));
  double avg = 0, correction = 1;

  for (guint i = 0; i < n; i++)
    {
      avg = weight * avg + (1 - weight) * values[i];
      correction *= weight;
      out[i] = avg / (1 - correction);
    }
  return out;
}

static void
draw (GtkWidget *widget,
      cairo_t   *cr,
      int        width,
      int        height)
{
  GvLossPlot *self = GV_LOSS_PLOT (widget);
  const double *values = (const double *) self->losses->data;
  guint n = self->losses->len;
  g_autofree double *smooth = gv_loss_plot_smooth (values, n, SMOOTHING);
  GdkRGBA fg, accent;
  double ymax = 0, xmax, ystep, xstep, left = 0, right = 16, top, bottom, pw, ph;
  int text_h, label_w, decimals;

  gv_plot_get_colors (widget, &fg, &accent);
  gv_plot_text (widget, NULL, "0", 0, 0, 0, 0.85, &text_h);
  for (guint i = 0; i < n; i++)
    if (isfinite (values[i]))
      ymax = MAX (ymax, values[i]);
  ystep = gv_plot_nice_step (ymax > 0 ? ymax : 1, 5);
  ymax = ystep * ceil ((ymax > 0 ? ymax : 1) / ystep);
  xmax = MAX ((double) n, self->planned_steps > 0 ? (double) self->planned_steps : 2.0);
  xstep = MAX (1, gv_plot_nice_step (xmax, 6));

  /* room for the widest y label */
  decimals = gv_format_decimals_for_step (ystep);
  for (double y = 0; y <= ymax + ystep / 2; y += ystep)
    {
      g_autofree char *label = gv_format_fixed (y, decimals);

      label_w = gv_plot_text (widget, NULL, label, 0, 0, 0, 0.85, NULL);
      left = MAX (left, label_w + 12);
    }
  top = text_h + 10;                 /* the y axis title above the plot */
  bottom = 2 * text_h + 14;          /* the x labels and the x axis title */
  pw = width - left - right;
  ph = height - top - bottom;
  if (pw < 20 || ph < 20)
    return;

#define X(step) (left + pw * ((step) - 1) / MAX (xmax - 1, 1))
#define Y(v) (top + ph - ph * (v) / ymax)

  /* grid, ticks and labels */
  cairo_set_line_width (cr, 1);
  for (double y = 0; y <= ymax + ystep / 2; y += ystep)
    {
      g_autofree char *label = gv_format_fixed (y, decimals);
      double py = floor (Y (y)) + 0.5;

      cairo_set_source_rgba (cr, fg.red, fg.green, fg.blue, 0.12);
      cairo_move_to (cr, left, py);
      cairo_line_to (cr, left + pw, py);
      cairo_stroke (cr);
      cairo_set_source_rgba (cr, fg.red, fg.green, fg.blue, 0.75);
      gv_plot_text (widget, cr, label, left - 8, py - text_h / 2.0, 1, 0.85, NULL);
    }
  for (double s = xstep; s <= xmax + xstep / 2; s += xstep)
    {
      g_autofree char *label = gv_format_count ((gint64) s);
      double px = floor (X (s)) + 0.5;

      if (s > xmax)
        break;
      cairo_set_source_rgba (cr, fg.red, fg.green, fg.blue, 0.12);
      cairo_move_to (cr, px, top);
      cairo_line_to (cr, px, top + ph);
      cairo_stroke (cr);
      cairo_set_source_rgba (cr, fg.red, fg.green, fg.blue, 0.75);
      gv_plot_text (widget, cr, label, px, top + ph + 6, 0.5, 0.85, NULL);
    }
  cairo_set_source_rgba (cr, fg.red, fg.green, fg.blue, 0.45);
  cairo_move_to (cr, left + 0.5, top);
  cairo_line_to (cr, left + 0.5, top + ph + 0.5);
  cairo_line_to (cr, left + pw, top + ph + 0.5);
  cairo_stroke (cr);
  cairo_set_source_rgba (cr, fg.red, fg.green, fg.blue, 0.75);
  gv_plot_text (widget, cr, _("step"), left + pw / 2, top + ph + text_h + 10, 0.5, 0.85, NULL);
  gv_plot_text (widget, cr, _("loss (cross-entropy)"), left, 2, 0, 0.85, NULL);

  if (n == 0)
    return;
  cairo_save (cr);
  cairo_rectangle (cr, left, top - 2, pw + 2, ph + 4);
  cairo_clip (cr);
  cairo_set_line_join (cr, CAIRO_LINE_JOIN_ROUND);
  /* the raw loss, faint, then smoothed (a value that is not finite at the top) */
  for (int pass = 0; pass < 2; pass++)
    {
      const double *curve = pass == 0 ? values : smooth;

      if (pass == 1)
        cairo_stroke (cr);
      cairo_set_source_rgba (cr, accent.red, accent.green, accent.blue, pass == 0 ? 0.3 : 1);
      cairo_set_line_width (cr, pass == 0 ? 1 : 2.5);
      for (guint i = 0; i < n; i++)
        (i ? cairo_line_to : cairo_move_to) (cr, X (i + 1.0), Y (isfinite (curve[i]) ? curve[i] : ymax));
    }
  if (n == 1)
    {
      cairo_new_path (cr);
      cairo_arc (cr, X (1.0), Y (smooth[0]), 3, 0, 2 * G_PI);
      cairo_fill (cr);
    }
  cairo_stroke (cr);
  cairo_restore (cr);

  /* the legend, top right: each curve's line as drawn, then its name */
  {
    const char *names[2] = { _("smoothed"), _("raw") };
    const double alpha[2] = { 1, 0.3 }, line_width[2] = { 2.5, 1 };
    double x = left + pw, y = 2 + text_h / 2.0;

    for (int i = 0; i < 2; i++)
      x -= gv_plot_text (widget, NULL, names[i], 0, 0, 0, 0.85, NULL) + 22 + (i ? 14 : 0);
    for (int i = 0; i < 2; i++)
      {
        cairo_set_source_rgba (cr, accent.red, accent.green, accent.blue, alpha[i]);
        cairo_set_line_width (cr, line_width[i]);
        cairo_move_to (cr, x, y);
        cairo_line_to (cr, x + 18, y);
        cairo_stroke (cr);
        cairo_set_source_rgba (cr, fg.red, fg.green, fg.blue, 0.75);
        x += 22 + gv_plot_text (widget, cr, names[i], x + 22, 2, 0, 0.85, NULL) + 14;
      }
  }
#undef X
#undef Y
}

static void
gv_loss_plot_snapshot (GtkWidget   *widget,
                       GtkSnapshot *snapshot)
{
  gv_plot_snapshot (widget, snapshot, draw);
}

static void
gv_loss_plot_finalize (GObject *object)
{
  GvLossPlot *self = GV_LOSS_PLOT (object);

  g_clear_pointer (&self->losses, g_array_unref);
  G_OBJECT_CLASS (gv_loss_plot_parent_class)->finalize (object);
}

static void
gv_loss_plot_class_init (GvLossPlotClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  G_OBJECT_CLASS (klass)->finalize = gv_loss_plot_finalize;
  widget_class->snapshot = gv_loss_plot_snapshot;
  gtk_widget_class_set_css_name (widget_class, "lossplot");
}

static void
gv_loss_plot_init (GvLossPlot *self)
{
  gtk_widget_set_size_request (GTK_WIDGET (self), 240, 160);
  self->losses = g_array_new (FALSE, FALSE, sizeof (double));
}

GtkWidget *
gv_loss_plot_new (void)
{
  return g_object_new (GV_TYPE_LOSS_PLOT, NULL);
}

void
gv_loss_plot_set_losses (GvLossPlot *self,
                         GArray     *losses,
                         gint64      planned_steps)
{
  g_clear_pointer (&self->losses, g_array_unref);
  self->losses = g_array_ref (losses);
  self->planned_steps = planned_steps;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}
