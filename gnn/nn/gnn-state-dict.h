/* gnn-state-dict.h: the state of a module tree, as an ordered map of named tensors
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined (GNN_INSIDE) && !defined (GNN_COMPILATION)
#error "Only <gnn/gnn.h> can be included directly."
#endif

#include <glib-object.h>
#include "../gnn-version-macros.h"
#include "../core/gnn-tensor.h"
#include "gnn-module.h"

G_BEGIN_DECLS

#define GNN_TYPE_STATE_DICT (gnn_state_dict_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnStateDict, gnn_state_dict, GNN, STATE_DICT, GObject)

GNN_AVAILABLE_IN_ALL
GnnStateDict *gnn_state_dict_new        (void);
GNN_AVAILABLE_IN_ALL
void          gnn_state_dict_set_tensor (GnnStateDict *self,
                                         const char   *key,
                                         GnnTensor    *tensor);
GNN_AVAILABLE_IN_ALL
GnnTensor    *gnn_state_dict_get_tensor (GnnStateDict *self,
                                         const char   *key,
                                         GError      **error);
GNN_AVAILABLE_IN_ALL
void          gnn_state_dict_set_value  (GnnStateDict *self,
                                         const char   *key,
                                         const GValue *value);
GNN_AVAILABLE_IN_ALL
gboolean      gnn_state_dict_get_value  (GnnStateDict *self,
                                         const char   *key,
                                         GValue       *value,
                                         GError      **error);
GNN_AVAILABLE_IN_ALL
gboolean      gnn_state_dict_contains   (GnnStateDict *self,
                                         const char   *key);
GNN_AVAILABLE_IN_ALL
gboolean      gnn_state_dict_remove     (GnnStateDict *self,
                                         const char   *key);
GNN_AVAILABLE_IN_ALL
char        **gnn_state_dict_get_keys   (GnnStateDict *self);
GNN_AVAILABLE_IN_ALL
guint         gnn_state_dict_get_length (GnnStateDict *self);

/* the state of a module tree */
GNN_AVAILABLE_IN_ALL
GnnStateDict *gnn_module_state_dict      (GnnModule     *self,
                                          const char    *prefix,
                                          gboolean       keep_vars,
                                          GError       **error);
GNN_AVAILABLE_IN_ALL
gboolean      gnn_module_load_state_dict (GnnModule     *self,
                                          GnnStateDict  *state,
                                          gboolean       strict,
                                          gboolean       assign,
                                          char        ***missing_keys,
                                          char        ***unexpected_keys,
                                          GError       **error);

G_END_DECLS
