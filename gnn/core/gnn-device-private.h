/* gnn-device-private.h: device strings, parsed
 *
 * Devices are strings in the public API ("cpu", "cuda", "cuda:1", as torch.device prints
 * them); this is their parsed form, for the backend registry and the tensors.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct
{
  const char *type;   /* interned: "cpu", "cuda", ... */
  int index;          /* -1 when the string gave none (the current device of that type) */
} GnnDeviceSpec;

/* Parses @spec as torch.device (spec) does; FALSE with a GNN_ERROR_DEVICE naming what was
 * expected. The type is not checked against the backends: that happens on placement. */
gboolean    gnn_device_parse (const char    *spec,
                              GnnDeviceSpec *out,
                              GError       **error);
/* The canonical string of a device, interned: "cpu" (whatever the index) or "cuda:1" (type and
 * index; -1 gives the bare type). */
const char *gnn_device_name  (const char    *type,
                              int            index);

G_END_DECLS
