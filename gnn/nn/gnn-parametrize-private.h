/* gnn-parametrize-private.h: what the module JSON needs of parametrizations and of the
 * hook-based norms (gnn-parametrize.c)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "gnn-parametrize.h"
#include "gnn-module-private.h"

G_BEGIN_DECLS

/* Makes @tensor_name of @module parametrized again from what a rebuilt tree holds: the
 * ParametrizationList `parametrizations.<tensor_name>` (its originals and its chain, read
 * from a file) becomes the tensor's, which then reads as the chain's output, as after
 * gnn_register_parametrization, without running any right inverse. @setup_tensor is the
 * tensor the module's setup made under that name (NULL when none): without @unsafe, a single
 * original must have its shape and dtype. A chain that is one GnnWeightNorm on `original0`
 * and `original1` also gets the load hook of gnn_parametrizations_weight_norm. FALSE with a
 * GNN_ERROR_FILE_FORMAT error naming the key when the list is missing, has no chain, lacks
 * an original or does not fit. With @fresh (a rebuild whose weights are not loaded from a
 * file) the chain starts as registration leaves it: the originals from the setup's tensor
 * through the right inverses, the spectral norms' `_u` and `_v` drawn and iterated. */
gboolean gnn_parametrize_restore            (GnnModule   *module,
                                             const char  *tensor_name,
                                             GnnTensor   *setup_tensor,
                                             gboolean     unsafe,
                                             gboolean     fresh,
                                             GError     **error);

/* The settings of @hook when it is the forward pre-hook of a hook-based norm: its kind
 * ("weight_norm" or "spectral_norm", static), the weight's name (borrowed) and the settings
 * (@n_power_iterations and @eps only for spectral_norm). FALSE for any other hook. */
gboolean gnn_weight_hook_describe           (GnnModuleHook *hook,
                                             const char   **kind,
                                             const char   **name,
                                             int           *dim,
                                             int           *n_power_iterations,
                                             double        *eps);

/* The hook-based norms again on a rebuilt module, whose tensors a state dict then fills:
 * the parameter @name is replaced as gnn_weight_norm / gnn_spectral_norm_hook do, with the
 * new tensors holding zeros (no random numbers spent, no values read); with @fresh the
 * spectral norm's `_u` and `_v` are drawn as gnn_spectral_norm_hook draws them. */
gboolean gnn_weight_norm_restore            (GnnModule   *module,
                                             const char  *name,
                                             int          dim,
                                             GError     **error);
gboolean gnn_spectral_norm_hook_restore     (GnnModule   *module,
                                             const char  *name,
                                             int          n_power_iterations,
                                             double       eps,
                                             int          dim,
                                             gboolean     fresh,
                                             GError     **error);

G_END_DECLS
