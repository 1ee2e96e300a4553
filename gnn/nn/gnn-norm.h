/* gnn-norm.h: normalisation layers, as torch.nn.BatchNorm1d/2d, LayerNorm and GroupNorm
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined (GNN_INSIDE) && !defined (GNN_COMPILATION)
#error "Only <gnn/gnn.h> can be included directly."
#endif

#include <glib-object.h>
#include "../gnn-version-macros.h"
#include "../core/gnn-dtype.h"
#include "gnn-module.h"

G_BEGIN_DECLS

#define GNN_TYPE_BATCH_NORM (gnn_batch_norm_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_DERIVABLE_TYPE (GnnBatchNorm, gnn_batch_norm, GNN, BATCH_NORM, GnnModule)

/**
 * GnnBatchNormClass:
 * @parent_class: the parent class
 *
 * The class of [class@Gnn.BatchNorm]. A subclass that does not derive from
 * [class@Gnn.BatchNorm1d] or [class@Gnn.BatchNorm2d] accepts inputs of any rank from 2 up.
 */
struct _GnnBatchNormClass
{
  GnnModuleClass parent_class;

  /*< private >*/
  gpointer padding[8];
};

GNN_AVAILABLE_IN_ALL
int       gnn_batch_norm_get_num_features         (GnnBatchNorm *self);
GNN_AVAILABLE_IN_ALL
double    gnn_batch_norm_get_eps                  (GnnBatchNorm *self);
GNN_AVAILABLE_IN_ALL
void      gnn_batch_norm_set_eps                  (GnnBatchNorm *self,
                                                   double        eps);
GNN_AVAILABLE_IN_ALL
double    gnn_batch_norm_get_momentum             (GnnBatchNorm *self);
GNN_AVAILABLE_IN_ALL
void      gnn_batch_norm_set_momentum             (GnnBatchNorm *self,
                                                   double        momentum);
GNN_AVAILABLE_IN_ALL
gboolean  gnn_batch_norm_get_cumulative_average   (GnnBatchNorm *self);
GNN_AVAILABLE_IN_ALL
void      gnn_batch_norm_set_cumulative_average   (GnnBatchNorm *self,
                                                   gboolean      cumulative_average);
GNN_AVAILABLE_IN_ALL
gboolean  gnn_batch_norm_get_affine               (GnnBatchNorm *self);
GNN_AVAILABLE_IN_ALL
gboolean  gnn_batch_norm_get_track_running_stats  (GnnBatchNorm *self);
GNN_AVAILABLE_IN_ALL
gboolean  gnn_batch_norm_reset_running_stats      (GnnBatchNorm *self,
                                                   GError      **error);
GNN_AVAILABLE_IN_ALL
gboolean  gnn_batch_norm_reset_parameters         (GnnBatchNorm *self,
                                                   GError      **error);

#define GNN_TYPE_BATCH_NORM1D (gnn_batch_norm1d_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnBatchNorm1d, gnn_batch_norm1d, GNN, BATCH_NORM1D, GnnBatchNorm)

GNN_AVAILABLE_IN_ALL
GnnBatchNorm1d *gnn_batch_norm1d_new      (int        num_features,
                                           GError   **error);
GNN_AVAILABLE_IN_ALL
GnnBatchNorm1d *gnn_batch_norm1d_new_full (int        num_features,
                                           double     eps,
                                           double     momentum,
                                           gboolean   affine,
                                           gboolean   track_running_stats,
                                           GnnDtype   dtype,
                                           GError   **error);

#define GNN_TYPE_BATCH_NORM2D (gnn_batch_norm2d_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnBatchNorm2d, gnn_batch_norm2d, GNN, BATCH_NORM2D, GnnBatchNorm)

GNN_AVAILABLE_IN_ALL
GnnBatchNorm2d *gnn_batch_norm2d_new      (int        num_features,
                                           GError   **error);
GNN_AVAILABLE_IN_ALL
GnnBatchNorm2d *gnn_batch_norm2d_new_full (int        num_features,
                                           double     eps,
                                           double     momentum,
                                           gboolean   affine,
                                           gboolean   track_running_stats,
                                           GnnDtype   dtype,
                                           GError   **error);

#define GNN_TYPE_BATCH_NORM3D (gnn_batch_norm3d_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnBatchNorm3d, gnn_batch_norm3d, GNN, BATCH_NORM3D, GnnBatchNorm)

GNN_AVAILABLE_IN_ALL
GnnBatchNorm3d *gnn_batch_norm3d_new      (int        num_features,
                                           GError   **error);
GNN_AVAILABLE_IN_ALL
GnnBatchNorm3d *gnn_batch_norm3d_new_full (int        num_features,
                                           double     eps,
                                           double     momentum,
                                           gboolean   affine,
                                           gboolean   track_running_stats,
                                           GnnDtype   dtype,
                                           GError   **error);

#define GNN_TYPE_LAYER_NORM (gnn_layer_norm_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnLayerNorm, gnn_layer_norm, GNN, LAYER_NORM, GnnModule)

GNN_AVAILABLE_IN_ALL
GnnLayerNorm  *gnn_layer_norm_new                    (const gint64  *normalized_shape,
                                                      guint          n_dims,
                                                      GError       **error);
GNN_AVAILABLE_IN_ALL
GnnLayerNorm  *gnn_layer_norm_new_full               (const gint64  *normalized_shape,
                                                      guint          n_dims,
                                                      double         eps,
                                                      gboolean       elementwise_affine,
                                                      GnnDtype       dtype,
                                                      GError       **error);
GNN_AVAILABLE_IN_ALL
const gint64  *gnn_layer_norm_get_normalized_shape   (GnnLayerNorm  *self,
                                                      guint         *n_dims);
GNN_AVAILABLE_IN_ALL
double         gnn_layer_norm_get_eps                (GnnLayerNorm  *self);
GNN_AVAILABLE_IN_ALL
void           gnn_layer_norm_set_eps                (GnnLayerNorm  *self,
                                                      double         eps);
GNN_AVAILABLE_IN_ALL
gboolean       gnn_layer_norm_get_elementwise_affine (GnnLayerNorm  *self);
GNN_AVAILABLE_IN_ALL
gboolean       gnn_layer_norm_reset_parameters       (GnnLayerNorm  *self,
                                                      GError       **error);

#define GNN_TYPE_GROUP_NORM (gnn_group_norm_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnGroupNorm, gnn_group_norm, GNN, GROUP_NORM, GnnModule)

GNN_AVAILABLE_IN_ALL
GnnGroupNorm *gnn_group_norm_new              (int            num_groups,
                                               int            num_channels,
                                               GError       **error);
GNN_AVAILABLE_IN_ALL
GnnGroupNorm *gnn_group_norm_new_full         (int            num_groups,
                                               int            num_channels,
                                               double         eps,
                                               gboolean       affine,
                                               GnnDtype       dtype,
                                               GError       **error);
GNN_AVAILABLE_IN_ALL
int           gnn_group_norm_get_num_groups   (GnnGroupNorm  *self);
GNN_AVAILABLE_IN_ALL
int           gnn_group_norm_get_num_channels (GnnGroupNorm  *self);
GNN_AVAILABLE_IN_ALL
double        gnn_group_norm_get_eps          (GnnGroupNorm  *self);
GNN_AVAILABLE_IN_ALL
void          gnn_group_norm_set_eps          (GnnGroupNorm  *self,
                                               double         eps);
GNN_AVAILABLE_IN_ALL
gboolean      gnn_group_norm_get_affine       (GnnGroupNorm  *self);
GNN_AVAILABLE_IN_ALL
gboolean      gnn_group_norm_reset_parameters (GnnGroupNorm  *self,
                                               GError       **error);

G_END_DECLS
