/* gnn-device.h: where a tensor lives
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined (GNN_INSIDE) && !defined (GNN_COMPILATION)
#error "Only <gnn/gnn.h> can be included directly."
#endif

#include <glib-object.h>
#include "../gnn-version-macros.h"

G_BEGIN_DECLS

#define GNN_TYPE_DEVICE (gnn_device_get_type ())

typedef struct _GnnDevice GnnDevice;

GNN_AVAILABLE_IN_ALL
GType        gnn_device_get_type      (void) G_GNUC_CONST;
GNN_AVAILABLE_IN_ALL
GnnDevice   *gnn_device_new           (const char *type,
                                       int         index);
GNN_AVAILABLE_IN_ALL
GnnDevice   *gnn_device_new_parse     (const char *spec,
                                       GError    **error);
GNN_AVAILABLE_IN_ALL
GnnDevice   *gnn_device_ref           (GnnDevice  *self);
GNN_AVAILABLE_IN_ALL
void         gnn_device_unref         (GnnDevice  *self);
GNN_AVAILABLE_IN_ALL
const char  *gnn_device_get_device_type (const GnnDevice *self);
GNN_AVAILABLE_IN_ALL
int          gnn_device_get_index     (const GnnDevice *self);
GNN_AVAILABLE_IN_ALL
char        *gnn_device_to_string     (const GnnDevice *self);
GNN_AVAILABLE_IN_ALL
gboolean     gnn_device_equal         (const GnnDevice *a,
                                       const GnnDevice *b);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (GnnDevice, gnn_device_unref)

G_END_DECLS
