/* gnn-ops-index.c: joining and indexing
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include "gnn-ops-private.h"

/* TODO(index helper) */
#define STUB(decl) decl { g_set_error_literal (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED, "not implemented yet"); return NULL; }
/**
 * gnn_cat: (skip)
 * @tensors: placeholder
 * @n_tensors: placeholder
 * @dim: placeholder
 * @error: placeholder
 *
 * Not implemented yet.
 *
 * Returns: (transfer full): nothing
 */
STUB (GnnTensor *gnn_cat (GnnTensor **tensors, guint n_tensors, int dim, GError **error))
/**
 * gnn_stack: (skip)
 * @tensors: placeholder
 * @n_tensors: placeholder
 * @dim: placeholder
 * @error: placeholder
 *
 * Not implemented yet.
 *
 * Returns: (transfer full): nothing
 */
STUB (GnnTensor *gnn_stack (GnnTensor **tensors, guint n_tensors, int dim, GError **error))
/**
 * gnn_tensor_index_select: (skip)
 * @self: placeholder
 * @dim: placeholder
 * @index: placeholder
 * @error: placeholder
 *
 * Not implemented yet.
 *
 * Returns: (transfer full): nothing
 */
STUB (GnnTensor *gnn_tensor_index_select (GnnTensor *self, int dim, GnnTensor *index, GError **error))
/**
 * gnn_tensor_gather: (skip)
 * @self: placeholder
 * @dim: placeholder
 * @index: placeholder
 * @error: placeholder
 *
 * Not implemented yet.
 *
 * Returns: (transfer full): nothing
 */
STUB (GnnTensor *gnn_tensor_gather (GnnTensor *self, int dim, GnnTensor *index, GError **error))
/**
 * gnn_tensor_one_hot: (skip)
 * @self: placeholder
 * @num_classes: placeholder
 * @error: placeholder
 *
 * Not implemented yet.
 *
 * Returns: (transfer full): nothing
 */
STUB (GnnTensor *gnn_tensor_one_hot (GnnTensor *self, gint64 num_classes, GError **error))
