/* gv-flame-chart.c: the ranges of one profiled step on a time axis, one row per depth
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The step fills the width; time runs left to right from the step's start, with round ticks
 * along the top. Each range is a bar in the row of its depth (the threads one band under the
 * other), coloured by its kind (module, kernel, backward, optimizer, a user range or the step),
 * named when it is wide enough. Hovering a bar shows its name, kind, duration and self time.
 */
#include "gv-flame-chart.h"
#include "gv-format.h"
#include "gv-plot-util.h"

#include <glib/gi18n.h>
#include <math.h>

#define ROW_HEIGHT 22
#define ROW_GAP 2
#define SIDE 12

struct _GvFlameChart
{
  GtkWidget  parent_instance;

  GvProfile *profile;
  int        axis_height;
  int        hover;          /* the range under the pointer, -1 for none */
};

G_DEFINE_FINAL_TYPE (GvFlameChart, gv_flame_chart, GTK_TYPE_WIDGET)

char *
gv_format_duration (gint64 ns)
{
  g_autofree char *value = NULL;

  if (ns < 1000)
    return g_strdup_printf (_("%" G_GINT64_FORMAT " ns"), ns);
  if (ns < 1000000)
    return (value = gv_format_value (ns / 1e3), g_strdup_printf (_("%s µs"), value));
  if (ns < 1000000000)
    return (value = gv_format_value (ns / 1e6), g_strdup_printf (_("%s ms"), value));
  return (value = gv_format_value (ns / 1e9), g_strdup_printf (_("%s s"), value));
}

static const char *
category_label (const char *category)
{
  if (g_strcmp0 (category, "module") == 0)
    return _("module forward");
  if (g_strcmp0 (category, "kernel") == 0)
    return _("kernel");
  if (g_strcmp0 (category, "backward") == 0)
    return _("backward");
  if (g_strcmp0 (category, "optimizer") == 0)
    return _("optimizer");
  if (g_strcmp0 (category, "user_annotation") == 0)
    return _("user range");
  if (g_strcmp0 (category, "profiler_step") == 0)
    return _("step");
  return category && *category ? category : _("range");
}

char *
gv_flame_chart_describe (const GvProfileRange *range)
{
  g_autofree char *dur = gv_format_duration (range->duration_ns);
  g_autofree char *self = gv_format_duration (range->self_ns);
  g_autofree char *start = gv_format_duration (range->start_ns);

  /* Translators: a range's name, then its kind, duration, self time and start in the step */
  return g_strdup_printf (_("%s\n%s · %s (self %s) · at %s"), range->name,
                          category_label (range->category), dur, self, start);
}

static void
category_color (GtkWidget  *widget,
                const char *category,
                GdkRGBA    *color)
{
  /* libadwaita's palette, the same in the light and the dark style */
  if (g_strcmp0 (category, "module") == 0)
    gv_plot_lookup_color (widget, "blue_2", "#62a0ea", color);
  else if (g_strcmp0 (category, "kernel") == 0)
    gv_plot_lookup_color (widget, "green_2", "#57e389", color);
  else if (g_strcmp0 (category, "backward") == 0)
    gv_plot_lookup_color (widget, "orange_2", "#ffa348", color);
  else if (g_strcmp0 (category, "optimizer") == 0)
    gv_plot_lookup_color (widget, "purple_2", "#c061cb", color);
  else if (g_strcmp0 (category, "user_annotation") == 0)
    gv_plot_lookup_color (widget, "yellow_2", "#f8e45c", color);
  else
    gv_plot_lookup_color (widget, "light_4", "#c0bfbc", color);
}

static int
axis_height (GvFlameChart *self)
{
  int text_h;

  gv_plot_text (GTK_WIDGET (self), NULL, "0", 0, 0, 0, 0.85, &text_h);
  return text_h + 10;
}

static void
rect_of (const GvProfileRange *r,
         double                top,
         double                pw,
         gint64                step_ns,
         graphene_rect_t      *rect)
{
  graphene_rect_init (rect, SIDE + pw * r->start_ns / step_ns, top + r->row * ROW_HEIGHT,
                      MAX (pw * r->duration_ns / step_ns, 1), ROW_HEIGHT - ROW_GAP);
}

gboolean
gv_flame_chart_range_rect (GvFlameChart    *self,
                           guint            index,
                           graphene_rect_t *rect)
{
  double pw = gtk_widget_get_width (GTK_WIDGET (self)) - 2 * SIDE;

  if (self->profile == NULL || index >= gv_profile_get_ranges (self->profile)->len || pw < 10)
    return FALSE;
  rect_of (&g_array_index (gv_profile_get_ranges (self->profile), GvProfileRange, index),
           axis_height (self), pw, MAX (gv_profile_get_step_ns (self->profile), 1), rect);
  return TRUE;
}

static int
index_at (GvFlameChart *self,
          double        x,
          double        y)
{
  double pw = gtk_widget_get_width (GTK_WIDGET (self)) - 2 * SIDE, top;
  gint64 step_ns;
  GArray *ranges;
  int best = -1;

  if (self->profile == NULL || pw < 10)
    return -1;
  ranges = gv_profile_get_ranges (self->profile);
  step_ns = MAX (gv_profile_get_step_ns (self->profile), 1);
  top = axis_height (self);
  for (guint i = 0; i < ranges->len; i++)
    {
      graphene_rect_t rect;

      rect_of (&g_array_index (ranges, GvProfileRange, i), top, pw, step_ns, &rect);
      if (y < rect.origin.y || y >= rect.origin.y + rect.size.height)
        continue;
      /* a bar narrower than a pixel is hit within half a pixel either side of it */
      if (x >= rect.origin.x - 0.5 && x < rect.origin.x + rect.size.width + 0.5)
        {
          best = (int) i;
          if (x >= rect.origin.x && x < rect.origin.x + rect.size.width)
            break;
        }
    }
  return best;
}

GvProfileRange *
gv_flame_chart_range_at (GvFlameChart *self,
                         double        x,
                         double        y)
{
  int i = index_at (self, x, y);

  return i < 0 ? NULL : &g_array_index (gv_profile_get_ranges (self->profile), GvProfileRange, i);
}

static void
draw (GtkWidget *widget,
      cairo_t   *cr,
      int        width,
      int        height)
{
  GvFlameChart *self = GV_FLAME_CHART (widget);
  GArray *ranges;
  GdkRGBA fg, accent, dark;
  double pw = width - 2 * SIDE, step, top;
  gint64 step_ns;
  int decimals;

  if (self->profile == NULL || pw < 10)
    return;
  ranges = gv_profile_get_ranges (self->profile);
  step_ns = MAX (gv_profile_get_step_ns (self->profile), 1);
  gv_plot_get_colors (widget, &fg, &accent);
  gdk_rgba_parse (&dark, "#241f31");
  top = axis_height (self);

  /* the time axis, in milliseconds */
  step = gv_plot_nice_step (step_ns / 1e6, 8);
  decimals = gv_format_decimals_for_step (step);
  cairo_set_line_width (cr, 1);
  for (double t = 0; t <= step_ns / 1e6 + step / 2; t += step)
    {
      g_autofree char *label = gv_format_fixed (t, decimals);
      g_autofree char *text = g_strdup_printf (_("%s ms"), label);
      double px = floor (SIDE + pw * t * 1e6 / step_ns) + 0.5;

      if (px > SIDE + pw + 1)
        break;
      cairo_set_source_rgba (cr, fg.red, fg.green, fg.blue, 0.12);
      cairo_move_to (cr, px, top - 4);
      cairo_line_to (cr, px, height);
      cairo_stroke (cr);
      cairo_set_source_rgba (cr, fg.red, fg.green, fg.blue, 0.75);
      gv_plot_text (widget, cr, text, px, 2, t == 0 ? 0 : px + 40 > width ? 1 : 0.5, 0.85, NULL);
    }

  for (guint i = 0; i < ranges->len; i++)
    {
      GvProfileRange *r = &g_array_index (ranges, GvProfileRange, i);
      graphene_rect_t rect;
      GdkRGBA color;

      rect_of (r, top, pw, step_ns, &rect);
      category_color (widget, r->category, &color);
      cairo_set_source_rgba (cr, color.red, color.green, color.blue, (int) i == self->hover ? 1 : 0.85);
      cairo_rectangle (cr, rect.origin.x, rect.origin.y, rect.size.width, rect.size.height);
      cairo_fill (cr);
      if ((int) i == self->hover)
        {
          cairo_set_source_rgba (cr, fg.red, fg.green, fg.blue, 0.9);
          cairo_rectangle (cr, rect.origin.x + 0.5, rect.origin.y + 0.5, MAX (rect.size.width - 1, 1),
                           rect.size.height - 1);
          cairo_stroke (cr);
        }
      if (rect.size.width > 24)
        {
          PangoLayout *layout = gtk_widget_create_pango_layout (widget, r->name);
          int text_h;

          pango_layout_set_width (layout, (int) ((rect.size.width - 6) * PANGO_SCALE));
          pango_layout_set_ellipsize (layout, PANGO_ELLIPSIZE_END);
          pango_layout_get_pixel_size (layout, NULL, &text_h);
          cairo_set_source_rgba (cr, dark.red, dark.green, dark.blue, 1);
          cairo_move_to (cr, rect.origin.x + 3, rect.origin.y + (rect.size.height - text_h) / 2);
          pango_cairo_show_layout (cr, layout);
          g_object_unref (layout);
        }
    }
}

static void
gv_flame_chart_snapshot (GtkWidget   *widget,
                         GtkSnapshot *snapshot)
{
  gv_plot_snapshot (widget, snapshot, draw);
}

static void
gv_flame_chart_measure (GtkWidget      *widget,
                        GtkOrientation  orientation,
                        int             for_size,
                        int            *minimum,
                        int            *natural,
                        int            *minimum_baseline,
                        int            *natural_baseline)
{
  GvFlameChart *self = GV_FLAME_CHART (widget);

  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    *minimum = *natural = 240;
  else
    *minimum = *natural = axis_height (self) +
                          (self->profile ? gv_profile_get_n_chart_rows (self->profile) : 0) * ROW_HEIGHT + 4;
}

static gboolean
on_query_tooltip (GtkWidget  *widget,
                  int         x,
                  int         y,
                  gboolean    keyboard,
                  GtkTooltip *tooltip,
                  gpointer    data)
{
  GvProfileRange *r = gv_flame_chart_range_at (GV_FLAME_CHART (widget), x, y);
  g_autofree char *text = NULL;

  if (r == NULL)
    return FALSE;
  text = gv_flame_chart_describe (r);
  gtk_tooltip_set_text (tooltip, text);
  return TRUE;
}

static void
set_hover (GvFlameChart *self,
           int           hover)
{
  if (self->hover == hover)
    return;
  self->hover = hover;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
on_motion (GtkEventControllerMotion *motion,
           double                    x,
           double                    y,
           GvFlameChart             *self)
{
  set_hover (self, index_at (self, x, y));
}

static void
on_leave (GtkEventControllerMotion *motion,
          GvFlameChart             *self)
{
  set_hover (self, -1);
}

static void
gv_flame_chart_dispose (GObject *object)
{
  g_clear_object (&GV_FLAME_CHART (object)->profile);
  G_OBJECT_CLASS (gv_flame_chart_parent_class)->dispose (object);
}

static void
gv_flame_chart_class_init (GvFlameChartClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  G_OBJECT_CLASS (klass)->dispose = gv_flame_chart_dispose;
  widget_class->snapshot = gv_flame_chart_snapshot;
  widget_class->measure = gv_flame_chart_measure;
  gtk_widget_class_set_css_name (widget_class, "flamechart");
}

static void
gv_flame_chart_init (GvFlameChart *self)
{
  GtkEventController *motion = gtk_event_controller_motion_new ();

  self->hover = -1;
  g_signal_connect (motion, "motion", G_CALLBACK (on_motion), self);
  g_signal_connect (motion, "leave", G_CALLBACK (on_leave), self);
  gtk_widget_add_controller (GTK_WIDGET (self), motion);
  gtk_widget_set_has_tooltip (GTK_WIDGET (self), TRUE);
  g_signal_connect (self, "query-tooltip", G_CALLBACK (on_query_tooltip), NULL);
}

GtkWidget *
gv_flame_chart_new (void)
{
  return g_object_new (GV_TYPE_FLAME_CHART, NULL);
}

void
gv_flame_chart_set_profile (GvFlameChart *self,
                            GvProfile    *profile)
{
  /* the same profile may show another step now */
  g_set_object (&self->profile, profile);
  self->hover = -1;
  gtk_widget_queue_resize (GTK_WIDGET (self));
}
