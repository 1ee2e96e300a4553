/* gnn-error.h: the GNN_ERROR domain
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

/**
 * GNN_ERROR:
 *
 * The error domain of gnn. Errors in this domain are from the [error@Gnn.Error] enumeration.
 */
#define GNN_ERROR (gnn_error_quark ())

/**
 * GnnError:
 * @GNN_ERROR_FAILED: a failure that fits no other code. Since: 0.1
 * @GNN_ERROR_SHAPE: a tensor has the wrong shape, or shapes do not broadcast. Since: 0.1
 * @GNN_ERROR_DTYPE: a tensor has a dtype the operation does not accept. Since: 0.1
 * @GNN_ERROR_DEVICE: tensors sit on different devices, or a device is unknown or absent. Since: 0.1
 * @GNN_ERROR_AUTOGRAD: the autograd graph cannot be walked as asked (backward twice, a tensor
 *   saved for backward was modified in place, a leaf requiring grad was modified in place). Since: 0.1
 * @GNN_ERROR_INDEX: an index or a dimension is out of range. Since: 0.1
 * @GNN_ERROR_INVALID_ARGUMENT: an argument has a value the operation does not accept. Since: 0.1
 * @GNN_ERROR_NOT_SUPPORTED: the backend cannot run this operation on this dtype. Since: 0.1
 * @GNN_ERROR_OUT_OF_MEMORY: a backend could not allocate memory. Since: 0.1
 * @GNN_ERROR_BACKEND: a backend module could not be loaded, or a backend failed. Since: 0.1
 * @GNN_ERROR_FILE_FORMAT: a file is truncated, corrupt or not of the expected format. Since: 0.1
 * @GNN_ERROR_LINALG: a linear-algebra routine failed on the values of its input (a singular
 *   matrix, one that is not positive-definite, an iteration that did not converge): what
 *   torch raises as `torch.linalg.LinAlgError`. Since: 0.1
 *
 * Error codes of the `GNN_ERROR` domain. Codes are only ever added.
 */
typedef enum {
  GNN_ERROR_FAILED,
  GNN_ERROR_SHAPE,
  GNN_ERROR_DTYPE,
  GNN_ERROR_DEVICE,
  GNN_ERROR_AUTOGRAD,
  GNN_ERROR_INDEX,
  GNN_ERROR_INVALID_ARGUMENT,
  GNN_ERROR_NOT_SUPPORTED,
  GNN_ERROR_OUT_OF_MEMORY,
  GNN_ERROR_BACKEND,
  GNN_ERROR_FILE_FORMAT,
  GNN_ERROR_LINALG,
} GnnError;

GNN_AVAILABLE_IN_ALL
GQuark gnn_error_quark (void);

G_END_DECLS
