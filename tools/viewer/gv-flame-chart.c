/* gv-flame-chart.c: the ranges of one profiled step on a time axis, one row per depth
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The step fills the width; time runs left to right from the step's start, with round ticks
 * along the top. Each range is a bar in the row of its depth (the threads one band under the
 * other), coloured by its kind (module, kernel, backward, optimizer, a user range or the step),
 * named when it is wide enough. Hovering a bar shows its name, kind, duration and self time.
 * Ctrl+scroll zooms in and out around the pointer, a horizontal scroll (or Shift+scroll) and a
 * drag move along the time axis, a double click on a bar zooms to it and one elsewhere shows
 * the whole step again. From the keyboard: + and − zoom, the arrows move, 0 shows the whole step.
 */
#include "gv-flame-chart.h"
#include "gv-format.h"
#include "gv-plot-util.h"

#include <glib/gi18n.h>
#include <math.h>

#define ROW_HEIGHT 22
#define ROW_GAP 2
#define SIDE GV_FLAME_CHART_SIDE

struct _GvFlameChart
{
  GtkWidget  parent_instance;

  GvProfile *profile;
  int        axis_height;
  int        hover;          /* the range under the pointer, -1 for none */
  double     view_start;     /* the time at the left edge, ns from the step's start */
  double     view_span;      /* the time across the width, ns; 0: the whole step */
  double     pointer_x;
  double     drag_start;     /* view_start when a drag began */
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
  if (g_strcmp0 (category, "module_backward") == 0)
    return _("module backward");
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
  else if (g_strcmp0 (category, "module_backward") == 0)
    gv_plot_lookup_color (widget, "blue_4", "#1c71d8", color);
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

/* the time shown: from *@start across *@span ns */
static void
get_view (GvFlameChart *self,
          double       *start,
          double       *span)
{
  double step_ns = self->profile ? MAX (gv_profile_get_step_ns (self->profile), 1) : 1;

  if (self->view_span <= 0 || self->view_span >= step_ns)
    {
      *start = 0;
      *span = step_ns;
      return;
    }
  *span = self->view_span;
  *start = CLAMP (self->view_start, 0, step_ns - self->view_span);
}

static void
rect_of (const GvProfileRange *r,
         double                top,
         double                pw,
         double                v0,
         double                span,
         graphene_rect_t      *rect)
{
  graphene_rect_init (rect, SIDE + pw * (r->start_ns - v0) / span, top + r->row * ROW_HEIGHT,
                      MAX (pw * r->duration_ns / span, 1), ROW_HEIGHT - ROW_GAP);
}

gboolean
gv_flame_chart_range_rect (GvFlameChart    *self,
                           guint            index,
                           graphene_rect_t *rect)
{
  double pw = gtk_widget_get_width (GTK_WIDGET (self)) - 2 * SIDE, v0, span;

  if (self->profile == NULL || index >= gv_profile_get_ranges (self->profile)->len || pw < 10)
    return FALSE;
  get_view (self, &v0, &span);
  rect_of (&g_array_index (gv_profile_get_ranges (self->profile), GvProfileRange, index),
           axis_height (self), pw, v0, span, rect);
  return TRUE;
}

static int
index_at (GvFlameChart *self,
          double        x,
          double        y)
{
  double pw = gtk_widget_get_width (GTK_WIDGET (self)) - 2 * SIDE, top, v0, span;
  GArray *ranges;
  int best = -1;

  if (self->profile == NULL || pw < 10 || x < SIDE || x > SIDE + pw)
    return -1;
  ranges = gv_profile_get_ranges (self->profile);
  get_view (self, &v0, &span);
  top = axis_height (self);
  for (guint i = 0; i < ranges->len; i++)
    {
      graphene_rect_t rect;

      rect_of (&g_array_index (ranges, GvProfileRange, i), top, pw, v0, span, &rect);
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
  double pw = width - 2 * SIDE, step, top, v0, span;
  int decimals;

  if (self->profile == NULL || pw < 10)
    return;
  ranges = gv_profile_get_ranges (self->profile);
  get_view (self, &v0, &span);
  gv_plot_get_colors (widget, &fg, &accent);
  gdk_rgba_parse (&dark, "#241f31");
  top = axis_height (self);

  /* the time axis, in milliseconds from the step's start */
  step = gv_plot_nice_step (span / 1e6, 8);
  decimals = gv_format_decimals_for_step (step);
  cairo_set_line_width (cr, 1);
  for (double t = ceil (v0 / 1e6 / step) * step; t <= (v0 + span) / 1e6 + step / 2; t += step)
    {
      g_autofree char *label = gv_format_fixed (t, decimals);
      g_autofree char *text = g_strdup_printf (_("%s ms"), label);
      double px = floor (SIDE + pw * (t * 1e6 - v0) / span) + 0.5;

      if (px > SIDE + pw + 1)
        break;
      cairo_set_source_rgba (cr, fg.red, fg.green, fg.blue, 0.12);
      cairo_move_to (cr, px, top - 4);
      cairo_line_to (cr, px, height);
      cairo_stroke (cr);
      cairo_set_source_rgba (cr, fg.red, fg.green, fg.blue, 0.75);
      gv_plot_text (widget, cr, text, px, 2, px < SIDE + 40 ? 0 : px + 40 > width ? 1 : 0.5, 0.85, NULL);
    }

  cairo_save (cr);
  cairo_rectangle (cr, SIDE, top, pw, height - top);
  cairo_clip (cr);
  for (guint i = 0; i < ranges->len; i++)
    {
      GvProfileRange *r = &g_array_index (ranges, GvProfileRange, i);
      graphene_rect_t rect;
      GdkRGBA color;

      rect_of (r, top, pw, v0, span, &rect);
      if (rect.origin.x > SIDE + pw || rect.origin.x + rect.size.width < SIDE)
        continue;
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
      {
        /* the name in the part of the bar in view */
        double x0 = MAX (rect.origin.x, SIDE), x1 = MIN (rect.origin.x + rect.size.width, SIDE + pw);

        if (x1 - x0 > 24)
          {
            PangoLayout *layout = gtk_widget_create_pango_layout (widget, r->name);
            int text_h;

            pango_layout_set_width (layout, (int) ((x1 - x0 - 6) * PANGO_SCALE));
            pango_layout_set_ellipsize (layout, PANGO_ELLIPSIZE_END);
            pango_layout_get_pixel_size (layout, NULL, &text_h);
            cairo_set_source_rgba (cr, dark.red, dark.green, dark.blue, 1);
            cairo_move_to (cr, x0 + 3, rect.origin.y + (rect.size.height - text_h) / 2);
            pango_cairo_show_layout (cr, layout);
            g_object_unref (layout);
          }
      }
    }
  cairo_restore (cr);
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
  self->pointer_x = x;
  set_hover (self, index_at (self, x, y));
}

void
gv_flame_chart_set_view (GvFlameChart *self,
                         double        start_ns,
                         double        span_ns)
{
  double step_ns = self->profile ? MAX (gv_profile_get_step_ns (self->profile), 1) : 1;

  /* no closer than 100 ns across the width */
  span_ns = CLAMP (span_ns, MIN (100, step_ns), step_ns);
  self->view_span = span_ns >= step_ns ? 0 : span_ns;
  self->view_start = CLAMP (start_ns, 0, step_ns - span_ns);
  set_hover (self, -1);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
gv_flame_chart_get_view (GvFlameChart *self,
                         double       *start_ns,
                         double       *span_ns)
{
  get_view (self, start_ns, span_ns);
}

static gboolean
on_scroll (GtkEventControllerScroll *scroll,
           double                    dx,
           double                    dy,
           GvFlameChart             *self)
{
  GdkModifierType mods = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (scroll));
  double pw = gtk_widget_get_width (GTK_WIDGET (self)) - 2 * SIDE, v0, span;

  if (self->profile == NULL || pw < 10)
    return FALSE;
  get_view (self, &v0, &span);
  if (mods & GDK_CONTROL_MASK)
    {
      /* the time under the pointer stays under it */
      double at = v0 + span * CLAMP ((self->pointer_x - SIDE) / pw, 0, 1);
      double new_span = span * pow (1.25, dy);

      gv_flame_chart_set_view (self, at - new_span * (at - v0) / span, new_span);
      return TRUE;
    }
  if (mods & GDK_SHIFT_MASK && dx == 0)
    dx = dy;
  if (dx != 0)
    {
      gv_flame_chart_set_view (self, v0 + dx * span / 10, span);
      return TRUE;
    }
  return FALSE;   /* the page scrolls */
}

static gboolean
on_key_pressed (GtkEventControllerKey *key,
                guint                  keyval,
                guint                  keycode,
                GdkModifierType        state,
                GvFlameChart          *self)
{
  double v0, span;

  get_view (self, &v0, &span);
  switch (keyval)
    {
    case GDK_KEY_plus:
    case GDK_KEY_equal:
    case GDK_KEY_KP_Add:
      gv_flame_chart_set_view (self, v0 + span * 0.1, span * 0.8);
      return TRUE;
    case GDK_KEY_minus:
    case GDK_KEY_KP_Subtract:
      gv_flame_chart_set_view (self, v0 - span * 0.125, span * 1.25);
      return TRUE;
    case GDK_KEY_Left:
      gv_flame_chart_set_view (self, v0 - span / 10, span);
      return TRUE;
    case GDK_KEY_Right:
      gv_flame_chart_set_view (self, v0 + span / 10, span);
      return TRUE;
    case GDK_KEY_0:
    case GDK_KEY_KP_0:
    case GDK_KEY_Home:
      gv_flame_chart_set_view (self, 0, G_MAXDOUBLE);
      return TRUE;
    default:
      return FALSE;
    }
}

static void
on_drag_begin (GtkGestureDrag *drag,
               double          x,
               double          y,
               GvFlameChart   *self)
{
  double span;

  get_view (self, &self->drag_start, &span);
}

static void
on_drag_update (GtkGestureDrag *drag,
                double          dx,
                double          dy,
                GvFlameChart   *self)
{
  double pw = gtk_widget_get_width (GTK_WIDGET (self)) - 2 * SIDE, v0, span;

  get_view (self, &v0, &span);
  if (pw >= 10 && span < (self->profile ? gv_profile_get_step_ns (self->profile) : 0))
    gv_flame_chart_set_view (self, self->drag_start - dx * span / pw, span);
}

static void
zoom_to (GvFlameChart         *self,
         const GvProfileRange *r)
{
  gv_flame_chart_set_view (self, r->start_ns - r->duration_ns * 0.02, r->duration_ns * 1.04);
}

gboolean
gv_flame_chart_zoom_to (GvFlameChart *self,
                        const char   *name)
{
  GArray *ranges = self->profile ? gv_profile_get_ranges (self->profile) : NULL;
  GvProfileRange *first = NULL;

  for (guint i = 0; ranges && i < ranges->len; i++)
    {
      GvProfileRange *r = &g_array_index (ranges, GvProfileRange, i);

      if (g_str_equal (r->name, name) && (first == NULL || r->start_ns < first->start_ns))
        first = r;
    }
  if (first)
    zoom_to (self, first);
  return first != NULL;
}

static void
on_pressed (GtkGestureClick *click,
            int              n_press,
            double           x,
            double           y,
            GvFlameChart    *self)
{
  GvProfileRange *r;

  gtk_widget_grab_focus (GTK_WIDGET (self));   /* for the keys */
  if (n_press != 2)
    return;
  r = gv_flame_chart_range_at (self, x, y);
  if (r)
    zoom_to (self, r);
  else
    gv_flame_chart_set_view (self, 0, G_MAXDOUBLE);
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
  GtkEventController *scroll, *key;
  GtkGesture *drag, *click;

  self->hover = -1;
  g_signal_connect (motion, "motion", G_CALLBACK (on_motion), self);
  g_signal_connect (motion, "leave", G_CALLBACK (on_leave), self);
  gtk_widget_add_controller (GTK_WIDGET (self), motion);
  scroll = gtk_event_controller_scroll_new (GTK_EVENT_CONTROLLER_SCROLL_BOTH_AXES);
  g_signal_connect (scroll, "scroll", G_CALLBACK (on_scroll), self);
  gtk_widget_add_controller (GTK_WIDGET (self), scroll);
  drag = gtk_gesture_drag_new ();
  g_signal_connect (drag, "drag-begin", G_CALLBACK (on_drag_begin), self);
  g_signal_connect (drag, "drag-update", G_CALLBACK (on_drag_update), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (drag));
  key = gtk_event_controller_key_new ();
  g_signal_connect (key, "key-pressed", G_CALLBACK (on_key_pressed), self);
  gtk_widget_add_controller (GTK_WIDGET (self), key);
  gtk_widget_set_focusable (GTK_WIDGET (self), TRUE);
  click = gtk_gesture_click_new ();
  g_signal_connect (click, "pressed", G_CALLBACK (on_pressed), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (click));
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
  self->view_start = self->view_span = 0;
  gtk_widget_queue_resize (GTK_WIDGET (self));
}
