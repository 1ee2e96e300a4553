/* gnn-optim-private.h: what the optimizers (SGD, Adam, AdamW, RMSprop, Adagrad and those of
 * gnn-optimizers-more.h) share
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "nn/gnn-module-private.h"
/* the public headers of optim, as gnn.h orders them */
#include "optim/gnn-optimizer.h"
#include "optim/gnn-averaged-model.h"
#include "optim/gnn-lr-scheduler.h"
#include "optim/gnn-optimizers-more.h"
#include "nn/gnn-props-private.h"

G_BEGIN_DECLS

/* ---- checking options (PyTorch's ValueErrors) ----------------------------------------- */

/* Whether @group holds @name as something gnn_param_group_get_double reads (a double, an
 * integer or a boolean); an error names the option and the type found. */
gboolean      gnn_optim_check_number    (GnnParamGroup *group,
                                         const char    *name,
                                         GError       **error);
/* The same for a flag read with gnn_param_group_get_boolean. */
gboolean      gnn_optim_check_flag      (GnnParamGroup *group,
                                         const char    *name,
                                         GError       **error);
/* Whether @group holds @name as a "(dd)" pair (Adam's betas, Rprop's etas). */
gboolean      gnn_optim_check_pair      (GnnParamGroup *group,
                                         const char    *name,
                                         GError       **error);
/* Whether @group holds "betas" as a "(dd)" pair. */
gboolean      gnn_optim_check_betas     (GnnParamGroup *group,
                                         GError       **error);
/* The pair under @name (checked with gnn_optim_check_pair); 0, 0 when it is not one. */
void          gnn_optim_get_pair        (GnnParamGroup *group,
                                         const char    *name,
                                         double        *first,
                                         double        *second);
/* PyTorch's checks of lr, eps, betas and weight_decay in Adam.__init__ (Adamax, NAdam and
 * RAdam check the same, in the same order, with the same messages). */
gboolean      gnn_optim_check_adam_values (double       lr,
                                           double       beta1,
                                           double       beta2,
                                           double       eps,
                                           double       weight_decay,
                                           GError     **error);
/* Sets GNN_ERROR_INVALID_ARGUMENT "<what>: <value as Python prints it>" and returns FALSE,
 * as PyTorch's `raise ValueError("Invalid learning rate: {}".format(lr))`. */
gboolean      gnn_optim_invalid         (GError       **error,
                                         const char    *what,
                                         double         value);

/* ---- options as properties (gnn-optimizer.c) ----------------------------------------- */

/* The option properties of an optimizer class: each reads and writes the default of the
 * option of its name (PyTorch's `defaults`), set at construction in the table's order;
 * constructed then checks them as a group (check_group) and adds GnnOptimizer:params. */
void          gnn_optim_class_install_options (GObjectClass  *klass,
                                               GnnProp       *options,
                                               guint          n_options);
/* an option property: a number, a flag, Adam's betas ('(dd)') */
GnnProp       gnn_optim_option_double   (const char    *name,
                                         double         default_value);
GnnProp       gnn_optim_option_boolean  (const char    *name,
                                         gboolean       default_value);
GnnProp       gnn_optim_option_betas    (double         beta1,
                                         double         beta2);
/* an option of any #GVariant type (LBFGS's line_search_fn, 'ms'); @default_value: floating
 * references are sunk */
GnnProp       gnn_optim_option_variant  (const char         *name,
                                         const GVariantType *type,
                                         GVariant           *default_value);
/* a pair of numbers ('(dd)') named @name: Rprop's etas and step_sizes */
GnnProp       gnn_optim_option_pair     (const char    *name,
                                         double         first,
                                         double         second);
/* @params as the value of GnnOptimizer:params: a list of that one group, or NULL */
GListModel   *gnn_optim_params_list     (GnnParamGroup *params);

/* ---- the state of a parameter ---------------------------------------------------------- */

/* The entries that the state of a parameter of @group must hold once it is not empty (a
 * NULL-terminated list, static): gnn_optimizer_load_state_dict refuses a state that holds
 * some of a parameter's entries and lacks one of these, which the optimizer's lazy
 * initialisation would otherwise start afresh (a resume that is no longer exact). */
typedef const char *const *(*GnnOptimStateKeysFunc) (GnnOptimizer  *optimizer,
                                                     GnnParamGroup *group);
/* Sets the state entries that the optimizers of @type need (for its class_init). */
void          gnn_optim_class_set_state_keys (gpointer               klass,
                                              GnnOptimStateKeysFunc  func);
/* The same where every group needs the same entries: @keys, NULL-terminated and static. */
void          gnn_optim_class_set_fixed_state_keys (gpointer            klass,
                                                    const char *const  *keys);

/* The "step" of @state as a double: a double, an integer, or a one-element tensor (as
 * PyTorch saves it); 0 when absent. */
double        gnn_optim_get_step        (GnnStateDict  *state);
/* The number under @key, read as gnn_optim_get_step reads "step"; @missing when absent
 * (NAdam's mu_product, ASGD's eta and mu, which PyTorch keeps as 0-d tensors). */
double        gnn_optim_get_number      (GnnStateDict  *state,
                                         const char    *key,
                                         double         missing);
/* Stores @value under @key as a double. */
void          gnn_optim_set_number      (GnnStateDict  *state,
                                         const char    *key,
                                         double         value);
/* Stores "step" as a double. */
void          gnn_optim_set_step        (GnnStateDict  *state,
                                         double         step);
/* The state of @param in @optimizer, given "step" 0 first when empty (PyTorch's lazy
 * initialisation puts it before the tensors) (transfer none). */
GnnStateDict *gnn_optim_param_state     (GnnOptimizer  *optimizer,
                                         GnnTensor     *param);
/* Adds 1 to the "step" of @state and returns the new count. */
double        gnn_optim_count_step      (GnnStateDict  *state);
/* The tensor under @key, or NULL (transfer none). */
GnnTensor    *gnn_optim_state_tensor    (GnnStateDict  *state,
                                         const char    *key);
/* A new tensor shaped as @param, on its device and of its dtype, filled with @value, stored
 * under @key (transfer none: the state holds it). */
GnnTensor    *gnn_optim_state_new_full  (GnnStateDict  *state,
                                         const char    *key,
                                         GnnTensor     *param,
                                         double         value,
                                         GError       **error);
/* The tensor under @key, created as with gnn_optim_state_new_full when missing (PyTorch's
 * lazy initialisation); NULL with @error set on failure (transfer none). */
GnnTensor    *gnn_optim_state_ensure    (GnnStateDict  *state,
                                         const char    *key,
                                         GnnTensor     *param,
                                         double         value,
                                         GError       **error);

/* ---- the update --------------------------------------------------------------------- */

/* A 0-d tensor holding a number an update multiplies or adds by (beta1, eps ...), kept by
 * the optimizer between steps: the in-place ops given it compute exactly as their *_scalar_
 * forms (which wrap the number in a 0-d tensor of the tensor's dtype), without creating a
 * tensor per call. */
typedef struct {
  GnnTensor *tensor;
  double value;
} GnnOptimScalar;

/* @value as a 0-d tensor of @like's dtype on @like's device, @slot's tensor when it fits
 * (refilled when the value changed), else a new one kept in @slot (transfer none). */
GnnTensor    *gnn_optim_scalar          (GnnOptimScalar *slot,
                                         GnnTensor      *like,
                                         double          value,
                                         GError        **error);
void          gnn_optim_scalars_clear   (GnnOptimScalar *slots,
                                         guint           n_slots);
/* For the class_init of a final optimizer deriving from GnnOptimizer directly: its
 * instances hold @n_scalars GnnOptimScalar slots at @offset (G_STRUCT_OFFSET), which its
 * finalize (set here) clears before chaining up. */
void          gnn_optim_class_set_scalars (gpointer      klass,
                                           gsize         offset,
                                           guint         n_scalars);

/* The gradient the update uses, PyTorch's
 *   grad = grad if not maximize else -grad
 *   if weight_decay != 0: grad = grad.add(param, alpha=weight_decay)
 * a new reference to @grad itself when neither applies; *owned tells whether the result is a
 * new tensor that the update may change in place. */
GnnTensor    *gnn_optim_grad            (GnnTensor     *param,
                                         GnnTensor     *grad,
                                         gboolean       maximize,
                                         double         weight_decay,
                                         gboolean      *owned,
                                         GError       **error);

G_END_DECLS
