/* gv-module-details.h: the pane beside the module tree: the selected module's parameters,
 * their shapes and the histograms of their values and gradients
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <adwaita.h>
#include "gv-node.h"

G_BEGIN_DECLS

#define GV_TYPE_MODULE_DETAILS (gv_module_details_get_type ())
G_DECLARE_FINAL_TYPE (GvModuleDetails, gv_module_details, GV, MODULE_DETAILS, AdwBin)

/* Shows @node (NULL: none selected). Reads its parameters: call it only while no training
 * step runs. */
void gv_module_details_set_node (GvModuleDetails *self,
                                 GvNode          *node);
GvNode *gv_module_details_get_node (GvModuleDetails *self);

/* Reads the parameters and gradients again (after a training step). */
void gv_module_details_refresh  (GvModuleDetails *self);

/* For tests: the parameters shown, as "name<TAB>shape<TAB>count<TAB>value bins<TAB>grad bins"
 * lines (the bins' counts comma-separated, empty when there is no gradient). */
char *gv_module_details_dump    (GvModuleDetails *self);

G_END_DECLS
