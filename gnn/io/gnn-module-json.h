/* gnn-module-json.h: the module tree as JSON
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined (GNN_INSIDE) && !defined (GNN_COMPILATION)
#error "Only <gnn/gnn.h> can be included directly."
#endif

#include <glib-object.h>
#include "../gnn-version-macros.h"
#include "../nn/gnn-module.h"

G_BEGIN_DECLS

GNN_AVAILABLE_IN_ALL
char      *gnn_module_to_json             (GnnModule   *self,
                                           gboolean     pretty,
                                           GError     **error);
GNN_AVAILABLE_IN_ALL
GnnModule *gnn_module_new_from_json       (const char  *json,
                                           gssize       length,
                                           GError     **error);

G_END_DECLS
