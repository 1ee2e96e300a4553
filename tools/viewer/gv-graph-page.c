/* gv-graph-page.c: gnn-viewer's Graph page
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "gv-graph-page.h"
#include "gv-format.h"

#include <glib/gi18n.h>

struct _GvGraphPage
{
  AdwBin             parent_instance;

  GtkStack          *stack;
  GtkLabel          *summary;
  GtkScrolledWindow *scroller;
  GvGraphView       *view;
  GtkLabel          *node_title;
  GtkLabel          *node_tensors;
  guint              scroll_idle;
  double             scroll_to;     /* where the node clicked is, to scroll there once laid out; -1: nowhere */
};

G_DEFINE_FINAL_TYPE (GvGraphPage, gv_graph_page, ADW_TYPE_BIN)

/* the title of the selected node's pane and its tensors, one "name  shape" line each */
static void
update_details (GvGraphPage *self)
{
  GvGraph *graph = gv_graph_view_get_graph (self->view);
  int selected = gv_graph_view_get_selected (self->view);
  g_autoptr(GString) text = g_string_new (NULL);
  g_autofree char *title = NULL;
  GvGraphNode *node;

  if (graph == NULL || selected < 0)
    {
      gtk_label_set_text (self->node_title, _("Click a node to see its tensors"));
      gtk_label_set_text (self->node_tensors, "");
      return;
    }
  node = gv_graph_get_node (graph, selected);
  title = g_strdup_printf ("%s — %s", node->op, node->name);
  gtk_label_set_text (self->node_title, title);
  /* the values it takes and makes, each with its shape and dtype where known */
  for (guint pass = 0; pass < 2; pass++)
    {
      const char *direction = pass == 0 ? "input" : "output";
      gboolean headed = FALSE;

      for (guint i = 0; i < node->values->len; i++)
        {
          g_auto(GStrv) cols = g_strsplit (node->values->pdata[i], "\t", 4);

          if (g_strv_length (cols) < 4 || !g_str_equal (cols[0], direction))
            continue;
          if (!headed)
            g_string_append (text, pass == 0 ? _("Inputs\n") : _("Outputs\n"));
          headed = TRUE;
          g_string_append_printf (text, "%s\n  %s%s%s\n", cols[1], *cols[2] ? cols[2] : _("shape unknown"),
                                  *cols[3] ? " " : "", cols[3]);
        }
    }
  if (node->values->len == 0 && node->shape)
    g_string_append_printf (text, _("shape %s\n"), node->shape);
  if (node->n_params > 0)
    {
      g_autofree char *count = gv_format_count (node->n_params);

      g_string_append_printf (text, g_dngettext (NULL, "%s parameter\n", "%s parameters\n", (gulong) node->n_params),
                              count);
    }
  for (guint i = 0; i < node->tensors->len; i++)
    {
      g_auto(GStrv) cols = g_strsplit (node->tensors->pdata[i], "\t", 2);

      g_string_append_printf (text, "%s\n  %s\n", cols[0], cols[1] ? cols[1] : "");
    }
  if (node->tensors->len == 0)
    g_string_append (text, _("No tensors of its own"));
  else if (text->len > 0)
    g_string_truncate (text, text->len - 1);
  gtk_label_set_text (self->node_tensors, text->str);
}

void
gv_graph_page_set_graph (GvGraphPage *self,
                         GvGraph     *graph)
{
  g_autofree char *summary = NULL;

  gv_graph_view_set_graph (self->view, graph);
  gtk_stack_set_visible_child_name (self->stack, graph ? "graph" : "empty");
  if (graph)
    {
      g_autofree char *count = gv_format_count (gv_graph_get_n_params (graph));

      summary = g_strdup_printf (_("%s · %u nodes · %u edges · %u layers · %s parameters"),
                                 gv_graph_get_source (graph), gv_graph_get_n_nodes (graph),
                                 gv_graph_get_n_edges (graph), gv_graph_get_n_layers (graph), count);
    }
  gtk_label_set_text (self->summary, summary ? summary : "");
  update_details (self);
}

GvGraph *
gv_graph_page_get_graph (GvGraphPage *self)
{
  return gv_graph_view_get_graph (self->view);
}

GvGraphView *
gv_graph_page_get_view (GvGraphPage *self)
{
  return self->view;
}

const char *
gv_graph_page_get_summary (GvGraphPage *self)
{
  return gtk_label_get_text (self->summary);
}

char *
gv_graph_page_dump_details (GvGraphPage *self)
{
  GvGraph *graph = gv_graph_view_get_graph (self->view);
  int selected = gv_graph_view_get_selected (self->view);
  GString *out;
  GvGraphNode *node;

  if (graph == NULL || selected < 0)
    return NULL;
  node = gv_graph_get_node (graph, selected);
  out = g_string_new (NULL);
  g_string_append_printf (out, "selected\t%s\t%s\t%s\n", node->name, gtk_label_get_text (self->node_title),
                          gtk_label_get_text (self->node_tensors)[0] ? "shown" : "empty");
  for (guint i = 0; i < node->tensors->len; i++)
    g_string_append_printf (out, "tensor\t%s\n", (char *) node->tensors->pdata[i]);
  for (guint i = 0; i < node->values->len; i++)
    g_string_append_printf (out, "value\t%s\n", (char *) node->values->pdata[i]);
  return g_string_free (out, FALSE);
}

static gboolean
scroll_now (gpointer data)
{
  GvGraphPage *self = data;
  GtkAdjustment *vadj = gtk_scrolled_window_get_vadjustment (self->scroller);
  double page = gtk_adjustment_get_page_size (vadj), want;

  self->scroll_idle = 0;
  if (self->scroll_to < 0 || page <= 0)
    return G_SOURCE_REMOVE;
  want = MAX (0, self->scroll_to - page / 3);
  gtk_adjustment_set_value (vadj, want);
  /* until the page is laid out, the adjustment is too short to get there: again when it changes */
  if (gtk_adjustment_get_value (vadj) >= want - 0.5)
    self->scroll_to = -1;
  return G_SOURCE_REMOVE;
}

/* once the scrolled window has laid the graph out (its adjustment changed), after that layout */
static void
scroll (GvGraphPage *self)
{
  if (self->scroll_to >= 0 && self->scroll_idle == 0)
    self->scroll_idle = g_idle_add (scroll_now, self);
}

gboolean
gv_graph_page_click_node (GvGraphPage *self,
                          const char  *name)
{
  GvGraph *graph = gv_graph_view_get_graph (self->view);
  int index = graph ? gv_graph_find_node (graph, name) : -1;
  graphene_rect_t rect;

  if (index < 0 || !gv_graph_view_node_rect (self->view, index, &rect))
    return FALSE;
  /* into view, a third down, as a user scrolls to it first (once the page is laid out) */
  self->scroll_to = rect.origin.y;
  scroll (self);
  return gv_graph_view_click (self->view, rect.origin.x + rect.size.width / 2,
                              rect.origin.y + rect.size.height / 2) == index;
}

static void
gv_graph_page_dispose (GObject *object)
{
  g_clear_handle_id (&GV_GRAPH_PAGE (object)->scroll_idle, g_source_remove);
  gtk_widget_dispose_template (GTK_WIDGET (object), GV_TYPE_GRAPH_PAGE);
  G_OBJECT_CLASS (gv_graph_page_parent_class)->dispose (object);
}

static void
gv_graph_page_class_init (GvGraphPageClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  G_OBJECT_CLASS (klass)->dispose = gv_graph_page_dispose;
  g_type_ensure (GV_TYPE_GRAPH_VIEW);
  gtk_widget_class_set_template_from_resource (widget_class, "/org/gnn/Viewer/gv-graph-page.ui");
  gtk_widget_class_bind_template_child (widget_class, GvGraphPage, stack);
  gtk_widget_class_bind_template_child (widget_class, GvGraphPage, summary);
  gtk_widget_class_bind_template_child (widget_class, GvGraphPage, scroller);
  gtk_widget_class_bind_template_child (widget_class, GvGraphPage, view);
  gtk_widget_class_bind_template_child (widget_class, GvGraphPage, node_title);
  gtk_widget_class_bind_template_child (widget_class, GvGraphPage, node_tensors);
}

static void
gv_graph_page_init (GvGraphPage *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  self->scroll_to = -1;
  g_signal_connect_swapped (self->view, "notify::selected", G_CALLBACK (update_details), self);
  g_signal_connect_swapped (gtk_scrolled_window_get_vadjustment (self->scroller), "changed",
                            G_CALLBACK (scroll), self);
}
