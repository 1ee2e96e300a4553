/* gnn-backend-private.h: the registry's view of a backend
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "core/gnn-device.h"
#include "core/gnn-error.h"
#include "gnn-backend-impl.h"

G_BEGIN_DECLS

typedef struct {
  GnnBackend *backend;
  const GnnBackendFuncs *funcs;
  char *name;
  char *device_type;
  guint64 counts[GNN_BACKEND_OP_N_OPS];
} GnnBackendEntry;

GnnBackendEntry *gnn_backend_entry_for_device  (const GnnDevice *device,
                                                guint           *out_index,
                                                GError         **error);
GnnBackendEntry *gnn_backend_entry_default_cpu (void);
GnnBackendEntry *gnn_backend_entry_lookup      (GnnBackend *backend);

static inline gboolean
gnn_backend_entry_run (GnnBackendEntry     *entry,
                       guint                device,
                       const GnnKernelArgs *args,
                       GError             **error)
{
  entry->counts[args->op]++;
  return entry->funcs->run (entry->backend, device, args, error);
}

/* built-in CPU backend */
GType gnn_cpu_backend_get_type (void);

G_END_DECLS
