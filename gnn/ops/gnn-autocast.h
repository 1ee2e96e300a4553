/* gnn-autocast.h: automatic mixed precision (torch.autocast), its thread-local state
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined (GNN_INSIDE) && !defined (GNN_COMPILATION)
#error "Only <gnn/gnn.h> can be included directly."
#endif

#include <glib-object.h>
#include "../gnn-version-macros.h"
#include "../core/gnn-dtype.h"

G_BEGIN_DECLS

GNN_AVAILABLE_IN_ALL
gboolean gnn_autocast_is_enabled         (const char *device_type);
GNN_AVAILABLE_IN_ALL
gboolean gnn_autocast_set_enabled        (const char *device_type,
                                          gboolean    enabled,
                                          GError    **error);
GNN_AVAILABLE_IN_ALL
GnnDtype gnn_autocast_get_dtype          (const char *device_type);
GNN_AVAILABLE_IN_ALL
gboolean gnn_autocast_set_dtype          (const char *device_type,
                                          GnnDtype    dtype,
                                          GError    **error);
GNN_AVAILABLE_IN_ALL
int      gnn_autocast_increment_nesting  (void);
GNN_AVAILABLE_IN_ALL
int      gnn_autocast_decrement_nesting  (void);
GNN_AVAILABLE_IN_ALL
void     gnn_autocast_clear_cache        (void);
GNN_AVAILABLE_IN_ALL
gboolean gnn_autocast_is_cache_enabled   (void);
GNN_AVAILABLE_IN_ALL
void     gnn_autocast_set_cache_enabled  (gboolean    enabled);
GNN_AVAILABLE_IN_ALL
guint    gnn_autocast_get_cache_size     (void);

/**
 * GnnAutocastScope:
 *
 * A region of automatic mixed precision for one device type (`torch.autocast` as a C guard):
 * gnn_autocast_scope_new() saves the device type's state, sets the new one and increments the
 * nesting; gnn_autocast_scope_free() restores the saved state and decrements the nesting,
 * clearing the cast cache when the outermost region ends. Scopes must end in the reverse order
 * they began, on the thread that began them. In C, `g_autoptr (GnnAutocastScope)` ends one at
 * the end of a block.
 *
 * Since: 0.1
 */
typedef struct _GnnAutocastScope GnnAutocastScope;

GNN_AVAILABLE_IN_ALL
GType             gnn_autocast_scope_get_type (void) G_GNUC_CONST;
GNN_AVAILABLE_IN_ALL
GnnAutocastScope *gnn_autocast_scope_new      (const char       *device_type,
                                               GnnDtype          dtype,
                                               gboolean          enabled,
                                               gboolean          cache_enabled,
                                               GError          **error);
GNN_AVAILABLE_IN_ALL
void              gnn_autocast_scope_free     (GnnAutocastScope *scope);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (GnnAutocastScope, gnn_autocast_scope_free)

G_END_DECLS
