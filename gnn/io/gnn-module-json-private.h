/* gnn-module-json-private.h: the module tree as a JsonNode, for the checkpoint code
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <json-glib/json-glib.h>
#include "gnn-module-json.h"

G_BEGIN_DECLS

JsonNode  *gnn_module_to_json_node        (GnnModule   *self,
                                           GError     **error);
GnnModule *gnn_module_new_from_json_node  (JsonNode    *node,
                                           GError     **error);

GnnModule *gnn_module_new_from_json_node_full (JsonNode  *node,
                                               gboolean   skip_init,
                                               GError   **error);
/* @json parsed; NULL with a GNN_ERROR_FILE_FORMAT error whose message starts with @what */
JsonNode  *gnn_json_parse                     (const char *json,
                                               gssize      length,
                                               const char *what,
                                               GError    **error);

G_END_DECLS
