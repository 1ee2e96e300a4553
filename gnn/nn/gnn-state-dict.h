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

#define GNN_TYPE_INCOMPATIBLE_KEYS (gnn_incompatible_keys_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnIncompatibleKeys, gnn_incompatible_keys, GNN, INCOMPATIBLE_KEYS, GObject)

GNN_AVAILABLE_IN_ALL
char   **gnn_incompatible_keys_get_missing_keys       (GnnIncompatibleKeys *self);
GNN_AVAILABLE_IN_ALL
char   **gnn_incompatible_keys_get_unexpected_keys    (GnnIncompatibleKeys *self);
GNN_AVAILABLE_IN_ALL
void     gnn_incompatible_keys_set_missing_keys       (GnnIncompatibleKeys *self,
                                                       const char * const  *keys);
GNN_AVAILABLE_IN_ALL
void     gnn_incompatible_keys_set_unexpected_keys    (GnnIncompatibleKeys *self,
                                                       const char * const  *keys);
GNN_AVAILABLE_IN_ALL
gboolean gnn_incompatible_keys_remove_missing_key     (GnnIncompatibleKeys *self,
                                                       const char          *key);
GNN_AVAILABLE_IN_ALL
gboolean gnn_incompatible_keys_remove_unexpected_key  (GnnIncompatibleKeys *self,
                                                       const char          *key);

/**
 * GnnStateDictPreHookFunc:
 * @module: the module about to save its state
 * @prefix: the prefix of the module's keys, ending with a dot ("block.") or empty
 * @keep_vars: the @keep_vars given to [method@Gnn.Module.state_dict]
 * @user_data: the data given at registration
 *
 * A state-dict pre-hook (`register_state_dict_pre_hook`), called before the module saves
 * its own entries.
 */
typedef void (*GnnStateDictPreHookFunc) (GnnModule  *module,
                                         const char *prefix,
                                         gboolean    keep_vars,
                                         gpointer    user_data);

/**
 * GnnStateDictPostHookFunc:
 * @module: the module that saved its state
 * @state: the state dict being built, which the hook may edit in place
 * @prefix: the prefix of the module's keys, ending with a dot ("block.") or empty
 * @user_data: the data given at registration
 *
 * A state-dict post-hook (`register_state_dict_post_hook`), called after the module and its
 * submodules saved their entries.
 */
typedef void (*GnnStateDictPostHookFunc) (GnnModule    *module,
                                          GnnStateDict *state,
                                          const char   *prefix,
                                          gpointer      user_data);

/**
 * GnnLoadStateDictPreHookFunc:
 * @module: the module about to load its state
 * @state: the part of the state dict this module loads from (a copy of the caller's), which
 *   the hook may edit in place
 * @prefix: the prefix of the module's keys, ending with a dot ("block.") or empty
 * @strict: the @strict given to [method@Gnn.Module.load_state_dict]
 * @user_data: the data given at registration
 *
 * A load-state-dict pre-hook (`register_load_state_dict_pre_hook`), called before the module
 * looks up its own entries.
 */
typedef void (*GnnLoadStateDictPreHookFunc) (GnnModule    *module,
                                             GnnStateDict *state,
                                             const char   *prefix,
                                             gboolean      strict,
                                             gpointer      user_data);

/**
 * GnnLoadStateDictPostHookFunc:
 * @module: the module that loaded its state
 * @keys: the missing and unexpected keys of the whole load, which the hook may edit
 * @user_data: the data given at registration
 *
 * A load-state-dict post-hook (`register_load_state_dict_post_hook`). A strict load checks
 * the keys after every post-hook ran, so a hook that removes keys can let it succeed.
 */
typedef void (*GnnLoadStateDictPostHookFunc) (GnnModule           *module,
                                              GnnIncompatibleKeys *keys,
                                              gpointer             user_data);

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


/* hooks */
GNN_AVAILABLE_IN_ALL
guint         gnn_module_register_state_dict_pre_hook       (GnnModule                    *self,
                                                             GnnStateDictPreHookFunc       func,
                                                             gpointer                      user_data,
                                                             GDestroyNotify                destroy);
GNN_AVAILABLE_IN_ALL
guint         gnn_module_register_state_dict_post_hook      (GnnModule                    *self,
                                                             GnnStateDictPostHookFunc      func,
                                                             gpointer                      user_data,
                                                             GDestroyNotify                destroy);
GNN_AVAILABLE_IN_ALL
guint         gnn_module_register_load_state_dict_pre_hook  (GnnModule                    *self,
                                                             GnnLoadStateDictPreHookFunc   func,
                                                             gpointer                      user_data,
                                                             GDestroyNotify                destroy);
GNN_AVAILABLE_IN_ALL
guint         gnn_module_register_load_state_dict_post_hook (GnnModule                    *self,
                                                             GnnLoadStateDictPostHookFunc  func,
                                                             gpointer                      user_data,
                                                             GDestroyNotify                destroy);
GNN_AVAILABLE_IN_ALL
gboolean      gnn_module_remove_state_dict_hook             (GnnModule                    *self,
                                                             guint                         handle);

G_END_DECLS
