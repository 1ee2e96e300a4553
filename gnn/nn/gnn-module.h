/* gnn-module.h: the base class of every layer and model
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
#include "gnn-args.h"
#include "gnn-parameter.h"

G_BEGIN_DECLS

#define GNN_TYPE_MODULE (gnn_module_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_DERIVABLE_TYPE (GnnModule, gnn_module, GNN, MODULE, GObject)

/**
 * GnnModuleClass:
 * @parent_class: the parent class
 * @forward: computes the outputs from the inputs (`nn.Module.forward`)
 * @setup: builds the module's parameters, buffers and submodules from its construct
 *   properties; called once, when the module is constructed
 * @extra_repr: the text inside the parentheses of the printed form (`extra_repr`)
 * @get_extra_state: the module's non-tensor state for its state dict (`get_extra_state`);
 *   %NULL (the default) when it has none
 * @set_extra_state: restores what get_extra_state returned (`set_extra_state`)
 *
 * The virtual methods of [class@Gnn.Module]. Python subclasses override `do_forward`,
 * `do_setup`, `do_extra_repr`; gjs subclasses `vfunc_forward` ...; Vala subclasses
 * `forward` ....
 */
struct _GnnModuleClass
{
  GObjectClass parent_class;

  GnnArgs * (*forward)    (GnnModule *self,
                           GnnArgs   *input,
                           GError   **error);
  gboolean  (*setup)      (GnnModule *self,
                           GError   **error);
  char *    (*extra_repr) (GnnModule *self);
  GVariant * (*get_extra_state) (GnnModule *self,
                                 GError   **error);
  gboolean   (*set_extra_state) (GnnModule *self,
                                 GVariant  *state,
                                 GError   **error);

  /*< private >*/
  gpointer padding[10];
};

/**
 * GnnModuleApplyFunc:
 * @module: a module
 * @user_data: the data given to [method@Gnn.Module.apply]
 *
 * A function applied to every module of a tree.
 */
typedef void (*GnnModuleApplyFunc) (GnnModule *module,
                                    gpointer   user_data);

/**
 * GnnForwardPreHookFunc:
 * @module: the module being called
 * @input: the inputs, which the hook may change in place
 * @user_data: the data given at registration
 *
 * A forward pre-hook (`register_forward_pre_hook`). Without `with_kwargs`, @input holds only
 * the positional values. Runs on the calling thread.
 */
typedef void (*GnnForwardPreHookFunc) (GnnModule *module,
                                       GnnArgs   *input,
                                       gpointer   user_data);

/**
 * GnnForwardHookFunc:
 * @module: the module that was called
 * @input: the inputs
 * @output: (nullable): the outputs, which the hook may change in place; %NULL when forward
 *   failed (for hooks registered with `always_call`)
 * @user_data: the data given at registration
 *
 * A forward hook (`register_forward_hook`). Without `with_kwargs`, @input holds only the
 * positional values. Runs on the calling thread.
 */
typedef void (*GnnForwardHookFunc) (GnnModule *module,
                                    GnnArgs   *input,
                                    GnnArgs   *output,
                                    gpointer   user_data);

/**
 * GnnBackwardPreHookFunc:
 * @module: the module
 * @grad_output: the gradients of the module's outputs (a tensor or %NULL each), which the hook
 *   may change in place
 * @user_data: the data given at registration
 *
 * A backward pre-hook (`register_full_backward_pre_hook`), run when the gradients of the
 * module's outputs are known, on the thread that called backward.
 */
typedef void (*GnnBackwardPreHookFunc) (GnnModule *module,
                                        GnnArgs   *grad_output,
                                        gpointer   user_data);

/**
 * GnnBackwardHookFunc:
 * @module: the module
 * @grad_input: the gradients of the module's positional inputs (%NULL for an input that is not
 *   a tensor or needs no gradient), which the hook may change in place
 * @grad_output: the gradients of the module's outputs
 * @user_data: the data given at registration
 *
 * A backward hook (`register_full_backward_hook`), run when the gradients of the module's
 * inputs are known, on the thread that called backward.
 */
typedef void (*GnnBackwardHookFunc) (GnnModule *module,
                                     GnnArgs   *grad_input,
                                     GnnArgs   *grad_output,
                                     gpointer   user_data);

/* creating by type name */
GNN_AVAILABLE_IN_ALL
GnnModule    *gnn_module_new_from_type_name (const char   *type_name,
                                             guint         n_properties,
                                             const char  **names,
                                             const GValue *values,
                                             GError      **error);

GNN_AVAILABLE_IN_ALL
GnnModule    *gnn_module_new_skip_init      (const char   *type_name,
                                             guint         n_properties,
                                             const char  **names,
                                             const GValue *values,
                                             GError      **error);

GNN_AVAILABLE_IN_ALL
GnnModule    *gnn_module_copy               (GnnModule    *self,
                                             GError      **error);

/* calling */
GNN_AVAILABLE_IN_ALL
GnnArgs      *gnn_module_forward            (GnnModule   *self,
                                             GnnArgs     *input,
                                             GError     **error);
GNN_AVAILABLE_IN_ALL
GnnTensor    *gnn_module_forward_tensor     (GnnModule   *self,
                                             GnnTensor   *input,
                                             GError     **error);
GNN_AVAILABLE_IN_ALL
gboolean      gnn_module_setup              (GnnModule   *self,
                                             GError     **error);
GNN_AVAILABLE_IN_ALL
char         *gnn_module_extra_repr         (GnnModule   *self);
GNN_AVAILABLE_IN_ALL
GVariant     *gnn_module_get_extra_state    (GnnModule   *self,
                                             GError     **error);
GNN_AVAILABLE_IN_ALL
gboolean      gnn_module_set_extra_state    (GnnModule   *self,
                                             GVariant    *state,
                                             GError     **error);
GNN_AVAILABLE_IN_ALL
gboolean      gnn_module_has_extra_state    (GnnModule   *self);

/* hooks */
GNN_AVAILABLE_IN_ALL
guint         gnn_module_register_forward_pre_hook (GnnModule             *self,
                                                    GnnForwardPreHookFunc  func,
                                                    gpointer               user_data,
                                                    GDestroyNotify         destroy,
                                                    gboolean               prepend,
                                                    gboolean               with_kwargs);
GNN_AVAILABLE_IN_ALL
guint         gnn_module_register_forward_hook     (GnnModule          *self,
                                                    GnnForwardHookFunc  func,
                                                    gpointer            user_data,
                                                    GDestroyNotify      destroy,
                                                    gboolean            prepend,
                                                    gboolean            with_kwargs,
                                                    gboolean            always_call);
GNN_AVAILABLE_IN_ALL
guint         gnn_module_register_full_backward_pre_hook (GnnModule              *self,
                                                          GnnBackwardPreHookFunc  func,
                                                          gpointer                user_data,
                                                          GDestroyNotify          destroy,
                                                          gboolean                prepend);
GNN_AVAILABLE_IN_ALL
guint         gnn_module_register_full_backward_hook     (GnnModule              *self,
                                                          GnnBackwardHookFunc     func,
                                                          gpointer                user_data,
                                                          GDestroyNotify          destroy,
                                                          gboolean                prepend);
GNN_AVAILABLE_IN_ALL
guint         gnn_module_add_forward_pre_hook      (GnnModule             *self,
                                                    GnnForwardPreHookFunc  func,
                                                    gpointer               user_data,
                                                    GDestroyNotify         destroy);
GNN_AVAILABLE_IN_ALL
guint         gnn_module_add_forward_hook          (GnnModule          *self,
                                                    GnnForwardHookFunc  func,
                                                    gpointer            user_data,
                                                    GDestroyNotify      destroy);
GNN_AVAILABLE_IN_ALL
guint         gnn_module_add_full_backward_pre_hook (GnnModule              *self,
                                                     GnnBackwardPreHookFunc  func,
                                                     gpointer                user_data,
                                                     GDestroyNotify          destroy);
GNN_AVAILABLE_IN_ALL
guint         gnn_module_add_full_backward_hook     (GnnModule              *self,
                                                     GnnBackwardHookFunc     func,
                                                     gpointer                user_data,
                                                     GDestroyNotify          destroy);
GNN_AVAILABLE_IN_ALL
gboolean      gnn_module_remove_hook               (GnnModule          *self,
                                                    guint               handle);
GNN_AVAILABLE_IN_ALL
guint         gnn_register_module_forward_pre_hook (GnnForwardPreHookFunc func,
                                                    gpointer              user_data,
                                                    GDestroyNotify        destroy);
GNN_AVAILABLE_IN_ALL
guint         gnn_register_module_forward_hook     (GnnForwardHookFunc  func,
                                                    gpointer            user_data,
                                                    GDestroyNotify      destroy,
                                                    gboolean            always_call);
GNN_AVAILABLE_IN_ALL
guint         gnn_register_module_full_backward_pre_hook (GnnBackwardPreHookFunc func,
                                                          gpointer               user_data,
                                                          GDestroyNotify         destroy);
GNN_AVAILABLE_IN_ALL
guint         gnn_register_module_full_backward_hook     (GnnBackwardHookFunc func,
                                                          gpointer            user_data,
                                                          GDestroyNotify      destroy);
GNN_AVAILABLE_IN_ALL
gboolean      gnn_remove_module_hook               (guint               handle);

/* registration */
GNN_AVAILABLE_IN_ALL
gboolean      gnn_module_register_parameter (GnnModule    *self,
                                             const char   *name,
                                             GnnParameter *parameter,
                                             GError      **error);
GNN_AVAILABLE_IN_ALL
gboolean      gnn_module_register_buffer    (GnnModule   *self,
                                             const char  *name,
                                             GnnTensor   *tensor,
                                             gboolean     persistent,
                                             GError     **error);
GNN_AVAILABLE_IN_ALL
gboolean      gnn_module_is_buffer_persistent (GnnModule *self,
                                               const char *name);
GNN_AVAILABLE_IN_ALL
gboolean      gnn_module_register_module    (GnnModule   *self,
                                             const char  *name,
                                             GnnModule   *module,
                                             GError     **error);
GNN_AVAILABLE_IN_ALL
gboolean      gnn_module_remove             (GnnModule   *self,
                                             const char  *name);

/* lookup */
GNN_AVAILABLE_IN_ALL
GnnModule    *gnn_module_get_submodule      (GnnModule   *self,
                                             const char  *target,
                                             GError     **error);
GNN_AVAILABLE_IN_ALL
gboolean      gnn_module_set_submodule      (GnnModule   *self,
                                             const char  *target,
                                             GnnModule   *module,
                                             GError     **error);
GNN_AVAILABLE_IN_ALL
GnnParameter *gnn_module_get_parameter      (GnnModule   *self,
                                             const char  *target,
                                             GError     **error);
GNN_AVAILABLE_IN_ALL
GnnTensor    *gnn_module_get_buffer         (GnnModule   *self,
                                             const char  *target,
                                             GError     **error);
GNN_AVAILABLE_IN_ALL
GnnTensor    *gnn_module_get_tensor         (GnnModule   *self,
                                             const char  *target,
                                             GError     **error);
GNN_AVAILABLE_IN_ALL
gboolean      gnn_module_set_tensor_attribute (GnnModule  *self,
                                             const char  *name,
                                             GnnTensor   *tensor,
                                             GError     **error);
GNN_AVAILABLE_IN_ALL
char        **gnn_module_list_tensor_attributes (GnnModule *self);

/* traversal */
GNN_AVAILABLE_IN_ALL
GPtrArray    *gnn_module_named_parameters   (GnnModule   *self,
                                             const char  *prefix,
                                             gboolean     recurse,
                                             gboolean     remove_duplicate,
                                             char      ***names);
GNN_AVAILABLE_IN_ALL
GPtrArray    *gnn_module_parameters         (GnnModule   *self,
                                             gboolean     recurse);
GNN_AVAILABLE_IN_ALL
GPtrArray    *gnn_module_named_buffers      (GnnModule   *self,
                                             const char  *prefix,
                                             gboolean     recurse,
                                             gboolean     remove_duplicate,
                                             char      ***names);
GNN_AVAILABLE_IN_ALL
GPtrArray    *gnn_module_buffers            (GnnModule   *self,
                                             gboolean     recurse);
GNN_AVAILABLE_IN_ALL
GPtrArray    *gnn_module_named_children     (GnnModule   *self,
                                             char      ***names);
GNN_AVAILABLE_IN_ALL
GPtrArray    *gnn_module_children           (GnnModule   *self);
GNN_AVAILABLE_IN_ALL
GPtrArray    *gnn_module_named_modules      (GnnModule   *self,
                                             const char  *prefix,
                                             gboolean     remove_duplicate,
                                             char      ***names);
GNN_AVAILABLE_IN_ALL
GPtrArray    *gnn_module_modules            (GnnModule   *self);
GNN_AVAILABLE_IN_ALL
GnnModule    *gnn_module_apply              (GnnModule   *self,
                                             GnnModuleApplyFunc func,
                                             gpointer     user_data);

/* state of the whole tree */
GNN_AVAILABLE_IN_ALL
gboolean      gnn_module_get_training       (GnnModule   *self);
GNN_AVAILABLE_IN_ALL
void          gnn_module_set_training       (GnnModule   *self,
                                             gboolean     training);
GNN_AVAILABLE_IN_ALL
GnnModule    *gnn_module_train              (GnnModule   *self,
                                             gboolean     mode);
GNN_AVAILABLE_IN_ALL
GnnModule    *gnn_module_eval               (GnnModule   *self);
GNN_AVAILABLE_IN_ALL
gboolean      gnn_module_zero_grad          (GnnModule   *self,
                                             gboolean     set_to_none,
                                             GError     **error);
GNN_AVAILABLE_IN_ALL
GnnModule    *gnn_module_requires_grad_     (GnnModule   *self,
                                             gboolean     requires_grad,
                                             GError     **error);
GNN_AVAILABLE_IN_ALL
char         *gnn_module_get_device         (GnnModule   *self);
GNN_AVAILABLE_IN_ALL
GnnModule    *gnn_module_to_device          (GnnModule   *self,
                                             const char  *device,
                                             GError     **error);
GNN_AVAILABLE_IN_ALL
GnnModule    *gnn_module_to_dtype           (GnnModule   *self,
                                             GnnDtype     dtype,
                                             GError     **error);
GNN_AVAILABLE_IN_ALL
GnnModule    *gnn_module_to_tensor          (GnnModule   *self,
                                             GnnTensor   *other,
                                             GError     **error);
GNN_AVAILABLE_IN_ALL
GnnModule    *gnn_module_to_empty           (GnnModule   *self,
                                             const char  *device,
                                             gboolean     recurse,
                                             GError     **error);
GNN_AVAILABLE_IN_ALL
char         *gnn_module_to_string          (GnnModule   *self);
GNN_AVAILABLE_IN_ALL
const char   *gnn_module_get_name           (GnnModule   *self);

G_END_DECLS
