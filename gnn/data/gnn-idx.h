/* gnn-idx.h: the IDX (MNIST-format) reader
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined (GNN_INSIDE) && !defined (GNN_COMPILATION)
#error "Only <gnn/gnn.h> can be included directly."
#endif

#include <gio/gio.h>
#include "../gnn-version-macros.h"
#include "../core/gnn-tensor.h"

G_BEGIN_DECLS

/**
 * GNN_IDX_MAX_DIMS:
 *
 * The most dimensions an IDX file may declare.
 */
#define GNN_IDX_MAX_DIMS 8

GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_idx_load             (const char    *path,
                                     GError       **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_idx_load_file        (GFile         *file,
                                     GCancellable  *cancellable,
                                     GError       **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_idx_load_from_stream (GInputStream  *stream,
                                     GCancellable  *cancellable,
                                     GError       **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_idx_load_from_bytes  (GBytes        *bytes,
                                     GError       **error);

G_END_DECLS
