/* gnn-ops-unary.c: elementwise unary ops and activations
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include "gnn-ops-private.h"

/* TODO(unary helper) */
#define STUB(decl) decl { g_set_error_literal (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED, "not implemented yet"); return NULL; }
/**
 * gnn_tensor_neg: (skip)
 * @self: placeholder
 * @error: placeholder
 *
 * Not implemented yet.
 *
 * Returns: (transfer full): nothing
 */
STUB (GnnTensor *gnn_tensor_neg (GnnTensor *self, GError **error))
/**
 * gnn_tensor_exp: (skip)
 * @self: placeholder
 * @error: placeholder
 *
 * Not implemented yet.
 *
 * Returns: (transfer full): nothing
 */
STUB (GnnTensor *gnn_tensor_exp (GnnTensor *self, GError **error))
/**
 * gnn_tensor_log: (skip)
 * @self: placeholder
 * @error: placeholder
 *
 * Not implemented yet.
 *
 * Returns: (transfer full): nothing
 */
STUB (GnnTensor *gnn_tensor_log (GnnTensor *self, GError **error))
/**
 * gnn_tensor_sqrt: (skip)
 * @self: placeholder
 * @error: placeholder
 *
 * Not implemented yet.
 *
 * Returns: (transfer full): nothing
 */
STUB (GnnTensor *gnn_tensor_sqrt (GnnTensor *self, GError **error))
/**
 * gnn_tensor_abs: (skip)
 * @self: placeholder
 * @error: placeholder
 *
 * Not implemented yet.
 *
 * Returns: (transfer full): nothing
 */
STUB (GnnTensor *gnn_tensor_abs (GnnTensor *self, GError **error))
/**
 * gnn_tensor_sign: (skip)
 * @self: placeholder
 * @error: placeholder
 *
 * Not implemented yet.
 *
 * Returns: (transfer full): nothing
 */
STUB (GnnTensor *gnn_tensor_sign (GnnTensor *self, GError **error))
/**
 * gnn_tensor_clamp: (skip)
 * @self: placeholder
 * @min: placeholder
 * @max: placeholder
 * @error: placeholder
 *
 * Not implemented yet.
 *
 * Returns: (transfer full): nothing
 */
STUB (GnnTensor *gnn_tensor_clamp (GnnTensor *self, double min, double max, GError **error))
/**
 * gnn_tensor_clamp_min: (skip)
 * @self: placeholder
 * @min: placeholder
 * @error: placeholder
 *
 * Not implemented yet.
 *
 * Returns: (transfer full): nothing
 */
STUB (GnnTensor *gnn_tensor_clamp_min (GnnTensor *self, double min, GError **error))
/**
 * gnn_tensor_clamp_max: (skip)
 * @self: placeholder
 * @max: placeholder
 * @error: placeholder
 *
 * Not implemented yet.
 *
 * Returns: (transfer full): nothing
 */
STUB (GnnTensor *gnn_tensor_clamp_max (GnnTensor *self, double max, GError **error))
/**
 * gnn_tensor_relu: (skip)
 * @self: placeholder
 * @error: placeholder
 *
 * Not implemented yet.
 *
 * Returns: (transfer full): nothing
 */
STUB (GnnTensor *gnn_tensor_relu (GnnTensor *self, GError **error))
/**
 * gnn_tensor_leaky_relu: (skip)
 * @self: placeholder
 * @negative_slope: placeholder
 * @error: placeholder
 *
 * Not implemented yet.
 *
 * Returns: (transfer full): nothing
 */
STUB (GnnTensor *gnn_tensor_leaky_relu (GnnTensor *self, double negative_slope, GError **error))
/**
 * gnn_tensor_elu: (skip)
 * @self: placeholder
 * @alpha: placeholder
 * @error: placeholder
 *
 * Not implemented yet.
 *
 * Returns: (transfer full): nothing
 */
STUB (GnnTensor *gnn_tensor_elu (GnnTensor *self, double alpha, GError **error))
/**
 * gnn_tensor_gelu: (skip)
 * @self: placeholder
 * @approximate: placeholder
 * @error: placeholder
 *
 * Not implemented yet.
 *
 * Returns: (transfer full): nothing
 */
STUB (GnnTensor *gnn_tensor_gelu (GnnTensor *self, const char *approximate, GError **error))
/**
 * gnn_tensor_silu: (skip)
 * @self: placeholder
 * @error: placeholder
 *
 * Not implemented yet.
 *
 * Returns: (transfer full): nothing
 */
STUB (GnnTensor *gnn_tensor_silu (GnnTensor *self, GError **error))
/**
 * gnn_tensor_sigmoid: (skip)
 * @self: placeholder
 * @error: placeholder
 *
 * Not implemented yet.
 *
 * Returns: (transfer full): nothing
 */
STUB (GnnTensor *gnn_tensor_sigmoid (GnnTensor *self, GError **error))
/**
 * gnn_tensor_tanh: (skip)
 * @self: placeholder
 * @error: placeholder
 *
 * Not implemented yet.
 *
 * Returns: (transfer full): nothing
 */
STUB (GnnTensor *gnn_tensor_tanh (GnnTensor *self, GError **error))
