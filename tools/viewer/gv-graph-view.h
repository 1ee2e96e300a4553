/* gv-graph-view.h: the Graph page's drawing: a GvGraph's nodes where its layout puts them,
 * the edges as curves from a node's bottom to its users' tops, a click selects a node
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gtk/gtk.h>
#include "gv-graph.h"

G_BEGIN_DECLS

#define GV_TYPE_GRAPH_VIEW (gv_graph_view_get_type ())
G_DECLARE_FINAL_TYPE (GvGraphView, gv_graph_view, GV, GRAPH_VIEW, GtkWidget)

GtkWidget *gv_graph_view_new          (void);
void       gv_graph_view_set_graph    (GvGraphView *self,
                                       GvGraph     *graph);
GvGraph   *gv_graph_view_get_graph    (GvGraphView *self);
/* the node selected (-1: none); "notify::selected" when it changes */
int        gv_graph_view_get_selected (GvGraphView *self);
void       gv_graph_view_set_selected (GvGraphView *self,
                                       int          index);
/* what a click at (@x, @y) of the widget does: selects the node drawn there (or none) */
int        gv_graph_view_click        (GvGraphView *self,
                                       double       x,
                                       double       y);
/* where the node is drawn in the widget */
gboolean   gv_graph_view_node_rect    (GvGraphView     *self,
                                       guint            index,
                                       graphene_rect_t *rect);

G_END_DECLS
