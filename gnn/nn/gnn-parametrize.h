/* gnn-parametrize.h: parametrizations of a module's tensors, as torch.nn.utils.parametrize
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
#include "gnn-module.h"

G_BEGIN_DECLS

/**
 * GnnRightInverseFunc:
 * @parametrization: the parametrization
 * @value: the tensor to invert
 * @out: where the function puts the result: one tensor, or several (a sequence) with the
 *   keyword value `sequence` set to %TRUE (so that a sequence of one tensor stays one)
 * @user_data: the data given to [func@Gnn.parametrization_set_right_inverse]
 * @error: return location for a #GError
 *
 * A parametrization's `right_inverse`: a value whose forward gives back @value. Failing with
 * %GNN_ERROR_NOT_SUPPORTED is Python's `NotImplementedError`: at registration the tensor is
 * then kept as it is.
 *
 * Returns: %TRUE on success
 *
 * Since: 0.1
 */
typedef gboolean (*GnnRightInverseFunc) (GnnModule  *parametrization,
                                         GnnTensor  *value,
                                         GnnArgs    *out,
                                         gpointer    user_data,
                                         GError    **error);

#define GNN_TYPE_PARAMETRIZATION_LIST (gnn_parametrization_list_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnParametrizationList, gnn_parametrization_list, GNN,
                      PARAMETRIZATION_LIST, GnnModule)

GNN_AVAILABLE_IN_ALL
guint      gnn_parametrization_list_get_length    (GnnParametrizationList *self);
GNN_AVAILABLE_IN_ALL
GnnModule *gnn_parametrization_list_get           (GnnParametrizationList *self,
                                                   int                     index,
                                                   GError                **error);
GNN_AVAILABLE_IN_ALL
gboolean   gnn_parametrization_list_get_unsafe    (GnnParametrizationList *self);
GNN_AVAILABLE_IN_ALL
guint      gnn_parametrization_list_get_n_tensors (GnnParametrizationList *self);
GNN_AVAILABLE_IN_ALL
gboolean   gnn_parametrization_list_get_is_tensor (GnnParametrizationList *self);
GNN_AVAILABLE_IN_ALL
gboolean   gnn_parametrization_list_right_inverse (GnnParametrizationList *self,
                                                   GnnTensor              *value,
                                                   GError                **error);

GNN_AVAILABLE_IN_ALL
void       gnn_parametrization_set_right_inverse  (GnnModule             *parametrization,
                                                   GnnRightInverseFunc    func,
                                                   gpointer               user_data,
                                                   GDestroyNotify         destroy);
GNN_AVAILABLE_IN_ALL
gboolean   gnn_parametrization_has_right_inverse  (GnnModule             *parametrization);

GNN_AVAILABLE_IN_ALL
gboolean   gnn_register_parametrization           (GnnModule             *module,
                                                   const char            *tensor_name,
                                                   GnnModule             *parametrization,
                                                   gboolean               unsafe,
                                                   GError               **error);
GNN_AVAILABLE_IN_ALL
gboolean   gnn_is_parametrized                    (GnnModule             *module,
                                                   const char            *tensor_name);
GNN_AVAILABLE_IN_ALL
gboolean   gnn_remove_parametrizations            (GnnModule             *module,
                                                   const char            *tensor_name,
                                                   gboolean               leave_parametrized,
                                                   GError               **error);
GNN_AVAILABLE_IN_ALL
gboolean   gnn_parametrize_set_tensor             (GnnModule             *module,
                                                   const char            *tensor_name,
                                                   GnnTensor             *value,
                                                   GError               **error);
GNN_AVAILABLE_IN_ALL
void       gnn_parametrize_cached_enter           (void);
GNN_AVAILABLE_IN_ALL
void       gnn_parametrize_cached_leave           (void);
GNN_AVAILABLE_IN_ALL
gboolean   gnn_transfer_parametrizations_and_params (GnnModule           *from_module,
                                                     GnnModule           *to_module,
                                                     const char          *tensor_name,
                                                     GError             **error);
GNN_AVAILABLE_IN_ALL
GType      gnn_type_before_parametrizations       (GnnModule             *module);

#define GNN_TYPE_SPECTRAL_NORM (gnn_spectral_norm_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnSpectralNorm, gnn_spectral_norm, GNN, SPECTRAL_NORM, GnnModule)

GNN_AVAILABLE_IN_ALL
GnnSpectralNorm *gnn_spectral_norm_new     (GnnTensor  *weight,
                                            int         n_power_iterations,
                                            int         dim,
                                            double      eps,
                                            GError    **error);
GNN_AVAILABLE_IN_ALL
gboolean         gnn_spectral_norm         (GnnModule  *module,
                                            const char *name,
                                            int         n_power_iterations,
                                            double      eps,
                                            int         dim,
                                            GError    **error);
GNN_AVAILABLE_IN_ALL
int              gnn_spectral_norm_default_dim (GnnModule *module);

#define GNN_TYPE_ORTHOGONAL (gnn_orthogonal_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnOrthogonal, gnn_orthogonal, GNN, ORTHOGONAL, GnnModule)

GNN_AVAILABLE_IN_ALL
GnnOrthogonal *gnn_orthogonal_new (GnnTensor  *weight,
                                   const char *orthogonal_map,
                                   gboolean    use_trivialization,
                                   GError    **error);
GNN_AVAILABLE_IN_ALL
gboolean       gnn_orthogonal     (GnnModule  *module,
                                   const char *name,
                                   const char *orthogonal_map,
                                   gboolean    use_trivialization,
                                   GError    **error);

GNN_AVAILABLE_IN_ALL
gboolean       gnn_weight_norm        (GnnModule  *module,
                                       const char *name,
                                       int         dim,
                                       GError    **error);
GNN_AVAILABLE_IN_ALL
gboolean       gnn_remove_weight_norm (GnnModule  *module,
                                       const char *name,
                                       GError    **error);

GNN_AVAILABLE_IN_ALL
gboolean       gnn_spectral_norm_hook   (GnnModule  *module,
                                         const char *name,
                                         int         n_power_iterations,
                                         double      eps,
                                         int         dim,
                                         GError    **error);
GNN_AVAILABLE_IN_ALL
gboolean       gnn_remove_spectral_norm (GnnModule  *module,
                                         const char *name,
                                         GError    **error);

#define GNN_TYPE_WEIGHT_NORM (gnn_weight_norm_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnWeightNorm, gnn_weight_norm, GNN, WEIGHT_NORM, GnnModule)

GNN_AVAILABLE_IN_ALL
GnnWeightNorm *gnn_weight_norm_new              (int         dim);
GNN_AVAILABLE_IN_ALL
int            gnn_weight_norm_get_dim          (GnnWeightNorm *self);
GNN_AVAILABLE_IN_ALL
gboolean       gnn_parametrizations_weight_norm (GnnModule  *module,
                                                 const char *name,
                                                 int         dim,
                                                 GError    **error);

G_END_DECLS
