/* gnn-reference-private.h: what the reference backend's files share
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gnn/gnn.h>
#include <gnn/backend/gnn-backend-impl.h>

G_BEGIN_DECLS

/* Whether the reference backend runs @op with @dtype as its compute dtype (read from the
 * operand the op table names): the table's dtypes and the reference's departures. */
gboolean gnn_reference_supports (GnnBackendOp op,
                                 GnnDtype     dtype);

/* Runs one kernel: checks the operands against the op's layout, then loops. */
gboolean gnn_reference_run_kernel (const GnnKernelArgs *args,
                                   GError             **error);

G_END_DECLS
