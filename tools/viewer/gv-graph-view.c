/* gv-graph-view.c: the Graph page's drawing widget
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "gv-graph-view.h"
#include "gv-format.h"
#include "gv-plot-util.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

struct _GvGraphView
{
  GtkWidget  parent_instance;
  GvGraph   *graph;
  int        selected;
};

enum { PROP_0, PROP_SELECTED, N_PROPS };
static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (GvGraphView, gv_graph_view, GTK_TYPE_WIDGET)

/* the layout is drawn at its size, centred when the widget is wider */
static double
offset_x (GvGraphView *self)
{
  double w, h;

  gv_graph_get_size (self->graph, &w, &h);
  return MAX (0, floor ((gtk_widget_get_width (GTK_WIDGET (self)) - w) / 2));
}

gboolean
gv_graph_view_node_rect (GvGraphView     *self,
                         guint            index,
                         graphene_rect_t *rect)
{
  GvGraphNode *node;

  if (self->graph == NULL || index >= gv_graph_get_n_nodes (self->graph))
    return FALSE;
  node = gv_graph_get_node (self->graph, index);
  graphene_rect_init (rect, node->x + offset_x (self), node->y, GV_GRAPH_NODE_WIDTH, GV_GRAPH_NODE_HEIGHT);
  return TRUE;
}

static void
node_color (GvGraphNode *node,
            GdkRGBA     *color)
{
  /* by kind: inputs and outputs, convolutions and linear maps, normalizations, activations,
   * pooling and reshapes, the rest */
  const char *op = node->op;
  const char *hex = "#deddda";

  if (g_str_equal (op, "Input") || g_str_equal (op, "Output"))
    hex = "#c0bfbc";
  else if (strstr (op, "Conv") || g_str_equal (op, "Gemm") || g_str_equal (op, "MatMul") || strstr (op, "Linear"))
    hex = "#99c1f1";
  else if (strstr (op, "Norm"))
    hex = "#f9f06b";
  else if (strstr (op, "Relu") || strstr (op, "ReLU") || strstr (op, "Sigmoid") || strstr (op, "Tanh") ||
           strstr (op, "Gelu") || strstr (op, "GELU") || strstr (op, "Softmax"))
    hex = "#8ff0a4";
  else if (strstr (op, "Pool") || strstr (op, "Flatten") || strstr (op, "Reshape") || strstr (op, "Dropout"))
    hex = "#ffbe6f";
  else if (g_str_equal (op, "Add") || g_str_equal (op, "Mul") || g_str_equal (op, "Concat"))
    hex = "#dc8add";
  gdk_rgba_parse (color, hex);
}

static void
show_line (GtkWidget  *widget,
           cairo_t    *cr,
           const char *text,
           gboolean    bold,
           double      x,
           double      y,
           double      width)
{
  PangoLayout *layout = gtk_widget_create_pango_layout (widget, text);
  int w, h;

  if (bold)
    {
      PangoAttrList *attrs = pango_attr_list_new ();

      pango_attr_list_insert (attrs, pango_attr_weight_new (PANGO_WEIGHT_BOLD));
      pango_layout_set_attributes (layout, attrs);
      pango_attr_list_unref (attrs);
    }
  pango_layout_set_width (layout, (int) (width * PANGO_SCALE));
  pango_layout_set_ellipsize (layout, PANGO_ELLIPSIZE_MIDDLE);
  pango_layout_get_pixel_size (layout, &w, &h);
  cairo_move_to (cr, x + (width - w) / 2, y);
  pango_cairo_show_layout (cr, layout);
  g_object_unref (layout);
}

static void
draw (GtkWidget *widget,
      cairo_t   *cr,
      int        width,
      int        height)
{
  GvGraphView *self = GV_GRAPH_VIEW (widget);
  GdkRGBA fg, accent, dark;
  double ox;
  guint n;

  if (self->graph == NULL)
    return;
  n = gv_graph_get_n_nodes (self->graph);
  ox = offset_x (self);
  gv_plot_get_colors (widget, &fg, &accent);
  gdk_rgba_parse (&dark, "#241f31");

  /* the edges under the nodes */
  cairo_set_line_width (cr, 1.5);
  cairo_set_source_rgba (cr, fg.red, fg.green, fg.blue, 0.55);
  for (guint i = 0; i < n; i++)
    {
      GvGraphNode *node = gv_graph_get_node (self->graph, i);
      double x1 = ox + node->x + GV_GRAPH_NODE_WIDTH / 2, y1 = node->y;

      for (guint j = 0; j < node->inputs->len; j++)
        {
          GvGraphNode *in = gv_graph_get_node (self->graph, g_array_index (node->inputs, guint, j));
          double x0 = ox + in->x + GV_GRAPH_NODE_WIDTH / 2, y0 = in->y + GV_GRAPH_NODE_HEIGHT;
          double bend = MAX ((y1 - y0) / 2, 20);

          /* an edge that skips layers runs down the right of the nodes between, then in */
          if (node->layer > in->layer + 1)
            {
              double side = MAX (x0, x1) + GV_GRAPH_NODE_WIDTH / 2 + 16;
              double ya = y0 + 20, yb = y1 - 20;

              for (guint k = 0; k < n; k++)
                {
                  GvGraphNode *m = gv_graph_get_node (self->graph, k);

                  if (m->layer > in->layer && m->layer < node->layer)
                    side = MAX (side, ox + m->x + GV_GRAPH_NODE_WIDTH + 16);
                }
              cairo_move_to (cr, x0, y0);
              cairo_curve_to (cr, x0, ya, side, y0, side, ya + 10);
              cairo_line_to (cr, side, yb - 10);
              cairo_curve_to (cr, side, y1, x1 + GV_GRAPH_NODE_WIDTH / 4, yb, x1 + GV_GRAPH_NODE_WIDTH / 4, y1);
              x1 += GV_GRAPH_NODE_WIDTH / 4;
            }
          else
            {
              cairo_move_to (cr, x0, y0);
              cairo_curve_to (cr, x0, y0 + bend, x1, y1 - bend, x1, y1);
            }
          cairo_stroke (cr);
          /* the arrowhead */
          cairo_move_to (cr, x1, y1);
          cairo_rel_line_to (cr, -4, -7);
          cairo_rel_line_to (cr, 8, 0);
          cairo_close_path (cr);
          cairo_fill (cr);
        }
    }

  for (guint i = 0; i < n; i++)
    {
      GvGraphNode *node = gv_graph_get_node (self->graph, i);
      double x = ox + node->x, y = node->y, w = GV_GRAPH_NODE_WIDTH, h = GV_GRAPH_NODE_HEIGHT, r = 8;
      g_autofree char *third = NULL;
      GdkRGBA color;

      node_color (node, &color);
      cairo_new_sub_path (cr);
      cairo_arc (cr, x + w - r, y + r, r, -G_PI / 2, 0);
      cairo_arc (cr, x + w - r, y + h - r, r, 0, G_PI / 2);
      cairo_arc (cr, x + r, y + h - r, r, G_PI / 2, G_PI);
      cairo_arc (cr, x + r, y + r, r, G_PI, 3 * G_PI / 2);
      cairo_close_path (cr);
      gdk_cairo_set_source_rgba (cr, &color);
      cairo_fill_preserve (cr);
      if ((int) i == self->selected)
        {
          cairo_set_line_width (cr, 3);
          gdk_cairo_set_source_rgba (cr, &accent);
        }
      else
        {
          cairo_set_line_width (cr, 1);
          cairo_set_source_rgba (cr, dark.red, dark.green, dark.blue, 0.35);
        }
      cairo_stroke (cr);

      cairo_set_source_rgba (cr, dark.red, dark.green, dark.blue, 1);
      show_line (widget, cr, node->op, TRUE, x + 6, y + 4, w - 12);
      show_line (widget, cr, node->name, FALSE, x + 6, y + 23, w - 12);
      if (node->shape && node->n_params > 0)
        {
          g_autofree char *count = gv_format_count (node->n_params);

          /* TRANSLATORS: a node's shape and its parameter count, as "[1, 64, 32, 32] · 9.4K" */
          third = g_strdup_printf (_("%s · %s"), node->shape, count);
        }
      else if (node->shape)
        third = g_strdup (node->shape);
      else if (node->n_params > 0)
        {
          g_autofree char *count = gv_format_count (node->n_params);

          third = g_strdup_printf (g_dngettext (NULL, "%s parameter", "%s parameters", (gulong) node->n_params), count);
        }
      if (third)
        {
          cairo_set_source_rgba (cr, dark.red, dark.green, dark.blue, 0.7);
          show_line (widget, cr, third, FALSE, x + 6, y + 42, w - 12);
        }
    }
}

static void
gv_graph_view_snapshot (GtkWidget   *widget,
                        GtkSnapshot *snapshot)
{
  gv_plot_snapshot (widget, snapshot, draw);
}

static void
gv_graph_view_measure (GtkWidget      *widget,
                       GtkOrientation  orientation,
                       int             for_size,
                       int            *minimum,
                       int            *natural,
                       int            *minimum_baseline,
                       int            *natural_baseline)
{
  GvGraphView *self = GV_GRAPH_VIEW (widget);
  double w = 0, h = 0;

  if (self->graph)
    gv_graph_get_size (self->graph, &w, &h);
  *minimum = *natural = (int) ceil (orientation == GTK_ORIENTATION_HORIZONTAL ? w : h);
}

void
gv_graph_view_set_selected (GvGraphView *self,
                            int          index)
{
  if (self->graph == NULL || index >= (int) gv_graph_get_n_nodes (self->graph))
    index = -1;
  if (index == self->selected)
    return;
  self->selected = index;
  gtk_widget_queue_draw (GTK_WIDGET (self));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SELECTED]);
}

int
gv_graph_view_get_selected (GvGraphView *self)
{
  return self->selected;
}

int
gv_graph_view_click (GvGraphView *self,
                     double       x,
                     double       y)
{
  int hit = self->graph ? gv_graph_node_at (self->graph, x - offset_x (self), y) : -1;

  gv_graph_view_set_selected (self, hit);
  return hit;
}

static void
on_pressed (GtkGestureClick *gesture,
            int              n_press,
            double           x,
            double           y,
            GvGraphView     *self)
{
  gv_graph_view_click (self, x, y);
}

void
gv_graph_view_set_graph (GvGraphView *self,
                         GvGraph     *graph)
{
  if (!g_set_object (&self->graph, graph))
    return;
  self->selected = -1;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SELECTED]);
  gtk_widget_queue_resize (GTK_WIDGET (self));
}

GvGraph *
gv_graph_view_get_graph (GvGraphView *self)
{
  return self->graph;
}

static void
gv_graph_view_get_property (GObject    *object,
                            guint       prop_id,
                            GValue     *value,
                            GParamSpec *pspec)
{
  switch (prop_id)
    {
    case PROP_SELECTED:
      g_value_set_int (value, GV_GRAPH_VIEW (object)->selected);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
gv_graph_view_dispose (GObject *object)
{
  g_clear_object (&GV_GRAPH_VIEW (object)->graph);
  G_OBJECT_CLASS (gv_graph_view_parent_class)->dispose (object);
}

static void
gv_graph_view_class_init (GvGraphViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->get_property = gv_graph_view_get_property;
  object_class->dispose = gv_graph_view_dispose;
  widget_class->snapshot = gv_graph_view_snapshot;
  widget_class->measure = gv_graph_view_measure;
  gtk_widget_class_set_css_name (widget_class, "graphview");
  properties[PROP_SELECTED] = g_param_spec_int ("selected", NULL, NULL, -1, G_MAXINT, -1,
                                                G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
gv_graph_view_init (GvGraphView *self)
{
  GtkGesture *click = gtk_gesture_click_new ();

  self->selected = -1;
  g_signal_connect (click, "pressed", G_CALLBACK (on_pressed), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (click));
}

GtkWidget *
gv_graph_view_new (void)
{
  return g_object_new (GV_TYPE_GRAPH_VIEW, NULL);
}
