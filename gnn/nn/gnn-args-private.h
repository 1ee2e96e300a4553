/* gnn-args-private.h
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "nn/gnn-args.h"

G_BEGIN_DECLS

gboolean  gnn_args_has_any_kwarg    (GnnArgs *self);
/* a new GnnArgs with the positional values only */
GnnArgs  *gnn_args_copy_positional  (GnnArgs *self);
/* replaces @self's positional values by @from's, keeping @self's keyword values */
void      gnn_args_take_positional  (GnnArgs *self,
                                     GnnArgs *from);
/* a new GnnArgs holding @t alone, taking its reference; %NULL for %NULL (a failed op) */
GnnArgs  *gnn_args_take_tensor      (GnnTensor *t);
/* gnn_args_take_tensor (@t), or for %NULL (a failed op) %NULL with @name prefixing the error */
GnnArgs  *gnn_args_take_tensor_or_prefix (GnnTensor  *t,
                                          const char *name,
                                          GError    **error);
/* the first positional value, which must be a tensor; @name prefixes the error */
GnnTensor *gnn_args_first_tensor    (GnnArgs    *input,
                                     const char *name,
                                     GError    **error);

G_END_DECLS
