/* gnn-prune.h: pruning of a module's tensors by masks, as torch.nn.utils.prune
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

#define GNN_TYPE_BASE_PRUNING_METHOD (gnn_base_pruning_method_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_DERIVABLE_TYPE (GnnBasePruningMethod, gnn_base_pruning_method, GNN, BASE_PRUNING_METHOD, GObject)

/**
 * GnnBasePruningMethodClass:
 * @parent_class: the parent class
 * @compute_mask: the mask for a tensor @t given the mask @default_mask of what is already
 *   pruned (`compute_mask (t, default_mask)`); a new tensor of @t's shape, or %NULL with the
 *   error set. Python subclasses override `compute_mask` (or `do_compute_mask`), gjs ones
 *   `vfunc_compute_mask`.
 *
 * The virtual methods of [class@Gnn.BasePruningMethod].
 */
struct _GnnBasePruningMethodClass
{
  GObjectClass parent_class;

  GnnTensor * (*compute_mask) (GnnBasePruningMethod *self,
                               GnnTensor            *t,
                               GnnTensor            *default_mask,
                               GError              **error);

  /*< private >*/
  gpointer padding[8];
};

#define GNN_TYPE_PRUNING_CONTAINER (gnn_pruning_container_get_type ())
GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnPruningContainer, gnn_pruning_container, GNN, PRUNING_CONTAINER, GnnBasePruningMethod)

#define GNN_TYPE_PRUNING_IDENTITY (gnn_pruning_identity_get_type ())
GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnPruningIdentity, gnn_pruning_identity, GNN, PRUNING_IDENTITY, GnnBasePruningMethod)

#define GNN_TYPE_RANDOM_UNSTRUCTURED (gnn_random_unstructured_get_type ())
GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnRandomUnstructured, gnn_random_unstructured, GNN, RANDOM_UNSTRUCTURED,
                      GnnBasePruningMethod)

#define GNN_TYPE_L1_UNSTRUCTURED (gnn_l1_unstructured_get_type ())
GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnL1Unstructured, gnn_l1_unstructured, GNN, L1_UNSTRUCTURED, GnnBasePruningMethod)

#define GNN_TYPE_RANDOM_STRUCTURED (gnn_random_structured_get_type ())
GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnRandomStructured, gnn_random_structured, GNN, RANDOM_STRUCTURED, GnnBasePruningMethod)

#define GNN_TYPE_LN_STRUCTURED (gnn_ln_structured_get_type ())
GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnLnStructured, gnn_ln_structured, GNN, LN_STRUCTURED, GnnBasePruningMethod)

#define GNN_TYPE_CUSTOM_FROM_MASK (gnn_custom_from_mask_get_type ())
GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnCustomFromMask, gnn_custom_from_mask, GNN, CUSTOM_FROM_MASK, GnnBasePruningMethod)

/* the method */
GNN_AVAILABLE_IN_ALL
GnnTensor  *gnn_base_pruning_method_compute_mask    (GnnBasePruningMethod *self,
                                                     GnnTensor            *t,
                                                     GnnTensor            *default_mask,
                                                     GError              **error);
GNN_AVAILABLE_IN_ALL
GnnTensor  *gnn_base_pruning_method_apply_mask      (GnnBasePruningMethod *self,
                                                     GnnModule            *module,
                                                     GError              **error);
GNN_AVAILABLE_IN_ALL
GnnTensor  *gnn_base_pruning_method_prune           (GnnBasePruningMethod *self,
                                                     GnnTensor            *t,
                                                     GnnTensor            *default_mask,
                                                     GnnTensor            *importance_scores,
                                                     GError              **error);
GNN_AVAILABLE_IN_ALL
gboolean    gnn_base_pruning_method_remove          (GnnBasePruningMethod *self,
                                                     GnnModule            *module,
                                                     GError              **error);
GNN_AVAILABLE_IN_ALL
const char *gnn_base_pruning_method_get_pruning_type (GnnBasePruningMethod *self);
GNN_AVAILABLE_IN_ALL
const char *gnn_base_pruning_method_get_tensor_name (GnnBasePruningMethod *self);
GNN_AVAILABLE_IN_ALL
void        gnn_base_pruning_method_set_tensor_name (GnnBasePruningMethod *self,
                                                     const char           *name);
GNN_AVAILABLE_IN_ALL
int         gnn_base_pruning_method_get_dim         (GnnBasePruningMethod *self);
GNN_AVAILABLE_IN_ALL
double      gnn_base_pruning_method_get_amount      (GnnBasePruningMethod *self,
                                                     gboolean             *amount_is_count);

/* the methods of torch.nn.utils.prune */
GNN_AVAILABLE_IN_ALL
GnnPruningContainer  *gnn_pruning_container_new       (void);
GNN_AVAILABLE_IN_ALL
gboolean              gnn_pruning_container_add_pruning_method (GnnPruningContainer  *self,
                                                                GnnBasePruningMethod *method,
                                                                GError              **error);
GNN_AVAILABLE_IN_ALL
guint                 gnn_pruning_container_get_n_methods (GnnPruningContainer *self);
GNN_AVAILABLE_IN_ALL
GnnBasePruningMethod *gnn_pruning_container_get_method    (GnnPruningContainer *self,
                                                           guint                index);
GNN_AVAILABLE_IN_ALL
GnnPruningIdentity   *gnn_pruning_identity_new        (void);
GNN_AVAILABLE_IN_ALL
GnnRandomUnstructured *gnn_random_unstructured_new    (double    amount,
                                                       gboolean  amount_is_count,
                                                       GError  **error);
GNN_AVAILABLE_IN_ALL
GnnL1Unstructured    *gnn_l1_unstructured_new         (double    amount,
                                                       gboolean  amount_is_count,
                                                       GError  **error);
GNN_AVAILABLE_IN_ALL
GnnCustomFromMask    *gnn_custom_from_mask_new        (GnnTensor *mask);

/* applying them to a module */
GNN_AVAILABLE_IN_ALL
GnnBasePruningMethod *gnn_prune_apply                 (GnnModule            *module,
                                                       const char           *name,
                                                       GnnBasePruningMethod *method,
                                                       GnnTensor            *importance_scores,
                                                       GError              **error);
GNN_AVAILABLE_IN_ALL
gboolean              gnn_prune_identity              (GnnModule  *module,
                                                       const char *name,
                                                       GError    **error);
GNN_AVAILABLE_IN_ALL
gboolean              gnn_prune_random_unstructured   (GnnModule  *module,
                                                       const char *name,
                                                       double      amount,
                                                       gboolean    amount_is_count,
                                                       GError    **error);
GNN_AVAILABLE_IN_ALL
gboolean              gnn_prune_l1_unstructured       (GnnModule  *module,
                                                       const char *name,
                                                       double      amount,
                                                       gboolean    amount_is_count,
                                                       GnnTensor  *importance_scores,
                                                       GError    **error);
GNN_AVAILABLE_IN_ALL
gboolean              gnn_prune_custom_from_mask      (GnnModule  *module,
                                                       const char *name,
                                                       GnnTensor  *mask,
                                                       GError    **error);
GNN_AVAILABLE_IN_ALL
gboolean              gnn_prune_remove                (GnnModule  *module,
                                                       const char *name,
                                                       GError    **error);
GNN_AVAILABLE_IN_ALL
gboolean              gnn_prune_is_pruned             (GnnModule  *module);
GNN_AVAILABLE_IN_ALL
GnnBasePruningMethod *gnn_prune_get_method            (GnnModule  *module,
                                                       const char *name);

/* structured and global (gnn-prune-structured.c) */
GNN_AVAILABLE_IN_ALL
GnnRandomStructured  *gnn_random_structured_new       (double    amount,
                                                       gboolean  amount_is_count,
                                                       int       dim,
                                                       GError  **error);
GNN_AVAILABLE_IN_ALL
GnnLnStructured      *gnn_ln_structured_new           (double    amount,
                                                       gboolean  amount_is_count,
                                                       double    n,
                                                       int       dim,
                                                       GError  **error);
GNN_AVAILABLE_IN_ALL
double                gnn_ln_structured_get_n         (GnnLnStructured *self);
GNN_AVAILABLE_IN_ALL
gboolean              gnn_prune_random_structured     (GnnModule  *module,
                                                       const char *name,
                                                       double      amount,
                                                       gboolean    amount_is_count,
                                                       int         dim,
                                                       GError    **error);
GNN_AVAILABLE_IN_ALL
gboolean              gnn_prune_ln_structured         (GnnModule  *module,
                                                       const char *name,
                                                       double      amount,
                                                       gboolean    amount_is_count,
                                                       double      n,
                                                       int         dim,
                                                       GnnTensor  *importance_scores,
                                                       GError    **error);
GNN_AVAILABLE_IN_ALL
gboolean              gnn_prune_global_unstructured   (GnnModule            **modules,
                                                       const char           **names,
                                                       guint                  n_parameters,
                                                       GnnBasePruningMethod  *method,
                                                       GnnTensor            **importance_scores,
                                                       GError               **error);

G_END_DECLS
