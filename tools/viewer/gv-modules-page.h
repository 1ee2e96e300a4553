/* gv-modules-page.h: gnn-viewer's Modules page: the module tree as named_modules lists it,
 * with the statistics of every module's output and gradient, and the selected module's
 * details beside it
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <adwaita.h>
#include "gv-module-details.h"
#include "gv-node.h"
#include "gv-trainer.h"

G_BEGIN_DECLS

#define GV_TYPE_MODULES_PAGE (gv_modules_page_get_type ())
G_DECLARE_FINAL_TYPE (GvModulesPage, gv_modules_page, GV, MODULES_PAGE, AdwBin)

/* The trainer whose steps the page waits for before it reads parameters. */
void        gv_modules_page_set_trainer  (GvModulesPage *self,
                                          GvTrainer     *trainer);

/* Shows the tree of @nodes (gv_node_build_tree; NULL: no model). */
void        gv_modules_page_set_nodes    (GvModulesPage *self,
                                          GPtrArray     *nodes);

/* The rows of the column view (GtkTreeListRow of GvNode), as shown. */
GListModel *gv_modules_page_get_rows     (GvModulesPage *self);

/* Selects the module of dotted name @name (expanding its parents); FALSE when there is none. */
gboolean    gv_modules_page_select       (GvModulesPage *self,
                                          const char    *name);

/* the line under the tree: which model, how big */
void        gv_modules_page_set_summary  (GvModulesPage *self,
                                          const char    *text);

GvModuleDetails *gv_modules_page_get_details (GvModulesPage *self);

/* The zeros and entries of @node's module's own parameters, as the Sparsity column shows them
 * (counted when the model was shown, and between training steps); FALSE when it has none. */
gboolean    gv_modules_page_get_sparsity (GvModulesPage *self,
                                          GvNode        *node,
                                          gint64        *zeros,
                                          gint64        *numel);

/* The Sparsity column's text for @node: a percentage, "" when the module has no parameters. */
char       *gv_modules_page_get_sparsity_text (GvModulesPage *self,
                                               GvNode        *node);

G_END_DECLS
