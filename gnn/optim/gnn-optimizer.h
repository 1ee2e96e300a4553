/* gnn-optimizer.h: parameter groups, the base class of every optimizer, and SGD, Adam,
 * AdamW, RMSprop and Adagrad (torch.optim)
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
#include "../nn/gnn-module.h"
#include "../nn/gnn-state-dict.h"

G_BEGIN_DECLS

#define GNN_TYPE_PARAM_GROUP (gnn_param_group_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnParamGroup, gnn_param_group, GNN, PARAM_GROUP, GObject)

GNN_AVAILABLE_IN_ALL
GnnParamGroup *gnn_param_group_new             (GnnTensor     **params,
                                                guint           n_params);
GNN_AVAILABLE_IN_ALL
GnnParamGroup *gnn_param_group_new_from_module (GnnModule      *module);
GNN_AVAILABLE_IN_ALL
guint          gnn_param_group_get_n_params    (GnnParamGroup  *self);
GNN_AVAILABLE_IN_ALL
GnnTensor     *gnn_param_group_get_param       (GnnParamGroup  *self,
                                                guint           index);
GNN_AVAILABLE_IN_ALL
GPtrArray     *gnn_param_group_get_params      (GnnParamGroup  *self);
GNN_AVAILABLE_IN_ALL
gboolean       gnn_param_group_has_option      (GnnParamGroup  *self,
                                                const char     *name);
GNN_AVAILABLE_IN_ALL
GVariant      *gnn_param_group_get_option      (GnnParamGroup  *self,
                                                const char     *name);
GNN_AVAILABLE_IN_ALL
void           gnn_param_group_set_option      (GnnParamGroup  *self,
                                                const char     *name,
                                                GVariant       *value);
GNN_AVAILABLE_IN_ALL
double         gnn_param_group_get_double      (GnnParamGroup  *self,
                                                const char     *name);
GNN_AVAILABLE_IN_ALL
void           gnn_param_group_set_double      (GnnParamGroup  *self,
                                                const char     *name,
                                                double          value);
GNN_AVAILABLE_IN_ALL
gboolean       gnn_param_group_get_boolean     (GnnParamGroup  *self,
                                                const char     *name);
GNN_AVAILABLE_IN_ALL
void           gnn_param_group_set_boolean     (GnnParamGroup  *self,
                                                const char     *name,
                                                gboolean        value);
GNN_AVAILABLE_IN_ALL
char         **gnn_param_group_list_options    (GnnParamGroup  *self);

#define GNN_TYPE_OPTIMIZER (gnn_optimizer_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_DERIVABLE_TYPE (GnnOptimizer, gnn_optimizer, GNN, OPTIMIZER, GObject)

/**
 * GnnOptimizerClass:
 * @parent_class: the parent class
 * @step: updates every parameter of every group from its gradient (`Optimizer.step`); runs
 *   with gradient recording off. Parameters without a gradient are skipped.
 * @check_group: validates the options of a group about to be added, after the defaults
 *   were filled in (`ValueError` in PyTorch); %NULL accepts every group
 *
 * The virtual methods of [class@Gnn.Optimizer]. Python subclasses override `do_step`, gjs
 * subclasses `vfunc_step`, Vala subclasses `step`.
 */
struct _GnnOptimizerClass
{
  GObjectClass parent_class;

  gboolean (*step)        (GnnOptimizer  *self,
                           GError       **error);
  gboolean (*check_group) (GnnOptimizer  *self,
                           GnnParamGroup *group,
                           GError       **error);

  /*< private >*/
  gpointer padding[8];
};

GNN_AVAILABLE_IN_ALL
gboolean       gnn_optimizer_step               (GnnOptimizer   *self,
                                                 GError        **error);
GNN_AVAILABLE_IN_ALL
void           gnn_optimizer_zero_grad          (GnnOptimizer   *self,
                                                 gboolean        set_to_none);
GNN_AVAILABLE_IN_ALL
gboolean       gnn_optimizer_add_param_group    (GnnOptimizer   *self,
                                                 GnnParamGroup  *group,
                                                 GError        **error);
GNN_AVAILABLE_IN_ALL
guint          gnn_optimizer_get_n_param_groups (GnnOptimizer   *self);
GNN_AVAILABLE_IN_ALL
GnnParamGroup *gnn_optimizer_get_param_group    (GnnOptimizer   *self,
                                                 guint           index);
GNN_AVAILABLE_IN_ALL
GPtrArray     *gnn_optimizer_get_param_groups   (GnnOptimizer   *self);
GNN_AVAILABLE_IN_ALL
void           gnn_optimizer_set_default        (GnnOptimizer   *self,
                                                 const char     *name,
                                                 GVariant       *value);
GNN_AVAILABLE_IN_ALL
GVariant      *gnn_optimizer_get_default        (GnnOptimizer   *self,
                                                 const char     *name);
GNN_AVAILABLE_IN_ALL
GnnStateDict  *gnn_optimizer_get_state          (GnnOptimizer   *self,
                                                 GnnTensor      *param);
GNN_AVAILABLE_IN_ALL
gboolean       gnn_optimizer_has_state          (GnnOptimizer   *self,
                                                 GnnTensor      *param);
GNN_AVAILABLE_IN_ALL
GnnStateDict  *gnn_optimizer_state_dict         (GnnOptimizer   *self);
GNN_AVAILABLE_IN_ALL
gboolean       gnn_optimizer_load_state_dict    (GnnOptimizer   *self,
                                                 GnnStateDict   *state,
                                                 GError        **error);

/* ---- SGD ----------------------------------------------------------------------------- */

#define GNN_TYPE_SGD (gnn_sgd_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnSGD, gnn_sgd, GNN, SGD, GnnOptimizer)

GNN_AVAILABLE_IN_ALL
GnnSGD *gnn_sgd_new (GnnParamGroup  *params,
                     double          lr,
                     double          momentum,
                     double          dampening,
                     double          weight_decay,
                     gboolean        nesterov,
                     gboolean        maximize,
                     GError        **error);

/* ---- Adam and AdamW ------------------------------------------------------------------ */

#define GNN_TYPE_ADAM (gnn_adam_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnAdam, gnn_adam, GNN, ADAM, GnnOptimizer)

GNN_AVAILABLE_IN_ALL
GnnAdam *gnn_adam_new  (GnnParamGroup  *params,
                        double          lr,
                        double          beta1,
                        double          beta2,
                        double          eps,
                        double          weight_decay,
                        gboolean        amsgrad,
                        gboolean        maximize,
                        GError        **error);

#define GNN_TYPE_ADAMW (gnn_adamw_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnAdamW, gnn_adamw, GNN, ADAMW, GnnOptimizer)

GNN_AVAILABLE_IN_ALL
GnnAdamW *gnn_adamw_new (GnnParamGroup  *params,
                         double          lr,
                         double          beta1,
                         double          beta2,
                         double          eps,
                         double          weight_decay,
                         gboolean        amsgrad,
                         gboolean        maximize,
                         GError        **error);

/* ---- RMSprop ------------------------------------------------------------------------- */

#define GNN_TYPE_RMSPROP (gnn_rmsprop_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnRMSprop, gnn_rmsprop, GNN, RMSPROP, GnnOptimizer)

GNN_AVAILABLE_IN_ALL
GnnRMSprop *gnn_rmsprop_new (GnnParamGroup  *params,
                             double          lr,
                             double          alpha,
                             double          eps,
                             double          weight_decay,
                             double          momentum,
                             gboolean        centered,
                             gboolean        maximize,
                             GError        **error);

/* ---- Adagrad ------------------------------------------------------------------------- */

#define GNN_TYPE_ADAGRAD (gnn_adagrad_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnAdagrad, gnn_adagrad, GNN, ADAGRAD, GnnOptimizer)

GNN_AVAILABLE_IN_ALL
GnnAdagrad *gnn_adagrad_new (GnnParamGroup  *params,
                             double          lr,
                             double          lr_decay,
                             double          weight_decay,
                             double          initial_accumulator_value,
                             double          eps,
                             gboolean        maximize,
                             GError        **error);

G_END_DECLS
