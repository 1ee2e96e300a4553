/* gv-graph-page.h: gnn-viewer's Graph page: a network's graph laid out top to bottom (an
 * ONNX file opened, or the model shown), and the selected node's tensors beside it
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <adwaita.h>
#include "gv-graph.h"
#include "gv-graph-view.h"

G_BEGIN_DECLS

#define GV_TYPE_GRAPH_PAGE (gv_graph_page_get_type ())
G_DECLARE_FINAL_TYPE (GvGraphPage, gv_graph_page, GV, GRAPH_PAGE, AdwBin)

/* Shows @graph (NULL: none). */
void         gv_graph_page_set_graph   (GvGraphPage *self,
                                        GvGraph     *graph);
GvGraph     *gv_graph_page_get_graph   (GvGraphPage *self);
GvGraphView *gv_graph_page_get_view    (GvGraphPage *self);
/* the line above the graph */
const char  *gv_graph_page_get_summary (GvGraphPage *self);
/* what the side pane shows for the node selected: its title and a "name<TAB>shape" line per
 * tensor, as text; NULL when none is selected */
char        *gv_graph_page_dump_details (GvGraphPage *self);
/* clicks the middle of the node named @name, as a pointer would; FALSE when there is none */
gboolean     gv_graph_page_click_node  (GvGraphPage *self,
                                        const char  *name);

G_END_DECLS
