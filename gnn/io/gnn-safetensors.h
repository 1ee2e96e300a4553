/* gnn-safetensors.h: reading and writing state dicts in the safetensors format
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined (GNN_INSIDE) && !defined (GNN_COMPILATION)
#error "Only <gnn/gnn.h> can be included directly."
#endif

#include <gio/gio.h>
#include "../gnn-version-macros.h"
#include "../nn/gnn-state-dict.h"

G_BEGIN_DECLS

/**
 * GNN_SAFETENSORS_MAX_HEADER:
 *
 * The largest JSON header a safetensors file may have, in bytes (100 MB, as the format's
 * reference implementation allows); a file declaring a larger one is refused.
 */
#define GNN_SAFETENSORS_MAX_HEADER 100000000

GNN_AVAILABLE_IN_ALL
GBytes       *gnn_safetensors_save_to_bytes   (GnnStateDict  *state,
                                               GHashTable    *metadata,
                                               GError       **error);
GNN_AVAILABLE_IN_ALL
gboolean      gnn_safetensors_save            (GnnStateDict  *state,
                                               GHashTable    *metadata,
                                               const char    *path,
                                               GError       **error);
GNN_AVAILABLE_IN_ALL
GnnStateDict *gnn_safetensors_load_from_bytes (GBytes        *bytes,
                                               GHashTable   **metadata,
                                               GError       **error);
GNN_AVAILABLE_IN_ALL
GnnStateDict *gnn_safetensors_load            (const char    *path,
                                               GHashTable   **metadata,
                                               GError       **error);

G_END_DECLS
