/* gnn-prune-private.h: what the pruning methods share (gnn-prune.c)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "gnn-prune.h"
#include "gnn-module-private.h"

G_BEGIN_DECLS

/* torch.Size([2, 3]), as PyTorch prints a shape */
char      *gnn_prune_shape_string         (GnnTensor *t);
/* torch's _validate_pruning_amount_init: FALSE with @error set for an amount below 0, a
 * fraction above 1.0 or a count that is not whole */
gboolean   gnn_prune_validate_amount_init (double     amount,
                                           gboolean   is_count,
                                           GError   **error);
/* torch's _compute_nparams_toprune and _validate_pruning_amount: the number of entries to
 * prune of @tensor_size, or -1 with @error set when it is above @tensor_size */
gint64     gnn_prune_nparams_toprune      (double     amount,
                                           gboolean   is_count,
                                           gint64     tensor_size,
                                           GError   **error);
/* a contiguous copy of @t without autograd */
GnnTensor *gnn_prune_clone                (GnnTensor *t,
                                           GError   **error);
/* @mask with the flat positions @index set to @value */
GnnTensor *gnn_prune_fill_flat            (GnnTensor *mask,
                                           GnnTensor *index,
                                           double     value,
                                           GError   **error);
/* torch's PruningContainer._combine_masks: @method's mask computed among the entries (or
 * slices) @default_mask keeps, by its pruning type */
GnnTensor *gnn_prune_combine_masks        (GnnBasePruningMethod *method,
                                           GnnTensor            *t,
                                           GnnTensor            *default_mask,
                                           GError              **error);

/* The pruning method of @hook when it is a pruning forward pre-hook (borrowed), else NULL. */
GnnBasePruningMethod *gnn_prune_hook_method (GnnModuleHook *hook);
/* Prunes @name of a rebuilt @module by @method again without computing a mask: the parameter
 * becomes `<name>_orig`, the buffer `<name>_mask` holds ones (a state dict then fills both),
 * `<name>` reads as their product and the pruning hook is installed, as after
 * gnn_prune_apply. FALSE with @error set when @name is no parameter of @module or the names
 * are taken. */
gboolean   gnn_prune_restore              (GnnModule            *module,
                                           const char           *name,
                                           GnnBasePruningMethod *method,
                                           GError              **error);

G_END_DECLS
