/* gnn-checkpoint-private.h: loading a checkpoint from memory
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "gnn-checkpoint.h"

G_BEGIN_DECLS

/* gnn_checkpoint_load() of the file's bytes (read from @path when @bytes is %NULL); @path
 * names the file in errors. */
gboolean gnn_checkpoint_load_from_bytes (GnnCheckpoint *self,
                                         GBytes        *bytes,
                                         const char    *path,
                                         GError       **error);

G_END_DECLS
