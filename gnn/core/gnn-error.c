/* gnn-error.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"
#include "gnn-error.h"

/**
 * gnn_error_quark:
 *
 * The error domain of gnn: the quark of [error@Gnn.Error] (`GNN_ERROR`).
 *
 * Returns: the quark of the `gnn-error-quark` domain
 *
 * MT safe.
 */
G_DEFINE_QUARK (gnn-error-quark, gnn_error)
