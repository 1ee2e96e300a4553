/* gnn-backend.h: the compute backend interface
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
/* GnnBackendOp, written at build time from the op table gnn-backend-ops.def */
#include "gnn-backend-ops.h"

G_BEGIN_DECLS

/**
 * GNN_BACKEND_API_VERSION:
 *
 * The version of the backend module interface. A loadable backend module exports
 * `gnn_backend_module_api_version` with the value it was built against; the registry
 * refuses a module whose value differs. It is 1000 times the version of the interface and
 * of `GnnKernelArgs`, plus the number of ops, so that a module built before an op was
 * added is refused too (it would be asked about an op it does not know).
 */
#define GNN_BACKEND_API_VERSION (4 * 1000 + GNN_BACKEND_OP_N_OPS)

/**
 * GNN_BACKEND_EXTENSION_POINT_NAME:
 *
 * The name of the GIO extension point that backends implement.
 */
#define GNN_BACKEND_EXTENSION_POINT_NAME "gnn-backend"

#define GNN_TYPE_BACKEND_OP (gnn_backend_op_get_type ())
GNN_AVAILABLE_IN_ALL
GType gnn_backend_op_get_type (void) G_GNUC_CONST;

#define GNN_TYPE_BACKEND (gnn_backend_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_INTERFACE (GnnBackend, gnn_backend, GNN, BACKEND, GObject)

GNN_AVAILABLE_IN_ALL
const char  *gnn_backend_get_name             (GnnBackend  *self);
GNN_AVAILABLE_IN_ALL
const char  *gnn_backend_get_device_type      (GnnBackend  *self);
GNN_AVAILABLE_IN_ALL
guint        gnn_backend_get_device_count     (GnnBackend  *self);
GNN_AVAILABLE_IN_ALL
char        *gnn_backend_get_device_description (GnnBackend *self,
                                                 guint       index);
GNN_AVAILABLE_IN_ALL
gboolean     gnn_backend_get_memory_info      (GnnBackend  *self,
                                               guint        index,
                                               guint64     *free_bytes,
                                               guint64     *total_bytes,
                                               GError     **error);
GNN_AVAILABLE_IN_ALL
gboolean     gnn_backend_supports_op          (GnnBackend  *self,
                                               GnnBackendOp op,
                                               GnnDtype     dtype);
GNN_AVAILABLE_IN_ALL
gboolean     gnn_backend_synchronize          (GnnBackend  *self,
                                               guint        index,
                                               GError     **error);

GNN_AVAILABLE_IN_ALL
GnnBackend  *gnn_backend_get_for_device_type  (const char  *device_type,
                                               GError     **error);
GNN_AVAILABLE_IN_ALL
GnnBackend  *gnn_backend_get_by_name          (const char  *name,
                                               GError     **error);
GNN_AVAILABLE_IN_ALL
char       **gnn_backend_list_names           (void);
GNN_AVAILABLE_IN_ALL
char        *gnn_backend_describe_available   (void);
GNN_AVAILABLE_IN_ALL
gboolean     gnn_backend_load_modules_from    (const char  *directory,
                                               GError     **error);
GNN_AVAILABLE_IN_ALL
guint64      gnn_backend_get_kernel_count     (GnnBackend  *self,
                                               GnnBackendOp op);
GNN_AVAILABLE_IN_ALL
void         gnn_backend_reset_kernel_counts  (GnnBackend  *self);

G_END_DECLS
