/* gnn-threads.h: how many threads gnn computes with
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined (GNN_INSIDE) && !defined (GNN_COMPILATION)
#error "Only <gnn/gnn.h> can be included directly."
#endif

#include <glib.h>
#include "../gnn-version-macros.h"

G_BEGIN_DECLS

GNN_AVAILABLE_IN_ALL
void gnn_set_num_threads (int n);
GNN_AVAILABLE_IN_ALL
int  gnn_get_num_threads (void);

G_END_DECLS
