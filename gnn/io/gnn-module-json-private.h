/* gnn-module-json-private.h: the module tree as a JsonNode, for the checkpoint code
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <json-glib/json-glib.h>
#include "optim/gnn-optim-private.h"
/* the public headers of io, as gnn.h orders them */
#include "io/gnn-safetensors.h"
#include "io/gnn-module-json.h"
#include "io/gnn-checkpoint.h"

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
/* Sets a GNN_ERROR_FILE_FORMAT error "@head@where: message" and returns FALSE: what the
 * readers of io say when a file is not what its format says. */
gboolean   gnn_file_format_error              (GError    **error,
                                               const char *head,
                                               const char *where,
                                               const char *format,
                                               ...) G_GNUC_PRINTF (4, 5);

G_END_DECLS
