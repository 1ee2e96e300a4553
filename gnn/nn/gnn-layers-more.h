/* gnn-layers-more.h: more torch.nn layers and their functional forms: PixelShuffle,
 * PixelUnshuffle, ChannelShuffle, Fold, Unfold, InstanceNorm1d/2d/3d, LPPool1d/2d,
 * LocalResponseNorm, Upsample, UpsamplingNearest2d, UpsamplingBilinear2d, AdaptiveMaxPool1d/2d,
 * MaxUnpool1d/2d, AlphaDropout, FeatureAlphaDropout, EmbeddingBag
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined (GNN_INSIDE) && !defined (GNN_COMPILATION)
#error "Only <gnn/gnn.h> can be included directly."
#endif

#include <glib-object.h>
#include "../gnn-version-macros.h"
#include "gnn-module.h"

G_BEGIN_DECLS

/* ---- shuffles ---- */

GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_pixel_shuffle   (GnnTensor *self,
                                       gint64     upscale_factor,
                                       GError   **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_pixel_unshuffle (GnnTensor *self,
                                       gint64     downscale_factor,
                                       GError   **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_channel_shuffle (GnnTensor *self,
                                       gint64     groups,
                                       GError   **error);

#define GNN_TYPE_PIXEL_SHUFFLE (gnn_pixel_shuffle_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnPixelShuffle, gnn_pixel_shuffle, GNN, PIXEL_SHUFFLE, GnnModule)

GNN_AVAILABLE_IN_ALL
GnnPixelShuffle *gnn_pixel_shuffle_new (int upscale_factor);

#define GNN_TYPE_PIXEL_UNSHUFFLE (gnn_pixel_unshuffle_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnPixelUnshuffle, gnn_pixel_unshuffle, GNN, PIXEL_UNSHUFFLE, GnnModule)

GNN_AVAILABLE_IN_ALL
GnnPixelUnshuffle *gnn_pixel_unshuffle_new (int downscale_factor);

#define GNN_TYPE_CHANNEL_SHUFFLE (gnn_channel_shuffle_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnChannelShuffle, gnn_channel_shuffle, GNN, CHANNEL_SHUFFLE, GnnModule)

GNN_AVAILABLE_IN_ALL
GnnChannelShuffle *gnn_channel_shuffle_new (int groups);

/* ---- fold and unfold ---- */

#define GNN_TYPE_UNFOLD (gnn_unfold_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnUnfold, gnn_unfold, GNN, UNFOLD, GnnModule)

GNN_AVAILABLE_IN_ALL
GnnUnfold *gnn_unfold_new (const gint64 *kernel_size,
                           const gint64 *dilation,
                           const gint64 *padding,
                           const gint64 *stride);

#define GNN_TYPE_FOLD (gnn_fold_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnFold, gnn_fold, GNN, FOLD, GnnModule)

GNN_AVAILABLE_IN_ALL
GnnFold *gnn_fold_new (const gint64 *output_size,
                       const gint64 *kernel_size,
                       const gint64 *dilation,
                       const gint64 *padding,
                       const gint64 *stride);

/* ---- instance normalisation ---- */

#define GNN_TYPE_INSTANCE_NORM (gnn_instance_norm_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_DERIVABLE_TYPE (GnnInstanceNorm, gnn_instance_norm, GNN, INSTANCE_NORM, GnnModule)

/**
 * GnnInstanceNormClass:
 * @parent_class: the parent class
 *
 * The class of [class@Gnn.InstanceNorm].
 *
 * Since: 0.1
 */
struct _GnnInstanceNormClass
{
  GnnModuleClass parent_class;

  /*< private >*/
  gpointer padding[4];
};

#define GNN_TYPE_INSTANCE_NORM1D (gnn_instance_norm1d_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnInstanceNorm1d, gnn_instance_norm1d, GNN, INSTANCE_NORM1D, GnnInstanceNorm)

GNN_AVAILABLE_IN_ALL
GnnInstanceNorm1d *gnn_instance_norm1d_new (int        num_features,
                                            double     eps,
                                            double     momentum,
                                            gboolean   affine,
                                            gboolean   track_running_stats,
                                            GnnDtype   dtype,
                                            GError   **error);

#define GNN_TYPE_INSTANCE_NORM2D (gnn_instance_norm2d_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnInstanceNorm2d, gnn_instance_norm2d, GNN, INSTANCE_NORM2D, GnnInstanceNorm)

GNN_AVAILABLE_IN_ALL
GnnInstanceNorm2d *gnn_instance_norm2d_new (int        num_features,
                                            double     eps,
                                            double     momentum,
                                            gboolean   affine,
                                            gboolean   track_running_stats,
                                            GnnDtype   dtype,
                                            GError   **error);

#define GNN_TYPE_INSTANCE_NORM3D (gnn_instance_norm3d_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnInstanceNorm3d, gnn_instance_norm3d, GNN, INSTANCE_NORM3D, GnnInstanceNorm)

GNN_AVAILABLE_IN_ALL
GnnInstanceNorm3d *gnn_instance_norm3d_new (int        num_features,
                                            double     eps,
                                            double     momentum,
                                            gboolean   affine,
                                            gboolean   track_running_stats,
                                            GnnDtype   dtype,
                                            GError   **error);

/* ---- LPPool1d/2d, LocalResponseNorm ---- */

#define GNN_TYPE_LP_POOL1D (gnn_lp_pool1d_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnLPPool1d, gnn_lp_pool1d, GNN, LP_POOL1D, GnnModule)

GNN_AVAILABLE_IN_ALL
GnnLPPool1d *gnn_lp_pool1d_new (double  norm_type,
                                gint64  kernel_size,
                                gint64  stride);

#define GNN_TYPE_LP_POOL2D (gnn_lp_pool2d_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnLPPool2d, gnn_lp_pool2d, GNN, LP_POOL2D, GnnModule)

GNN_AVAILABLE_IN_ALL
GnnLPPool2d *gnn_lp_pool2d_new (double        norm_type,
                                const gint64 *kernel_size,
                                const gint64 *stride);

GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_local_response_norm (GnnTensor *self,
                                           gint64     size,
                                           double     alpha,
                                           double     beta,
                                           double     k,
                                           GError   **error);

#define GNN_TYPE_LOCAL_RESPONSE_NORM (gnn_local_response_norm_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnLocalResponseNorm, gnn_local_response_norm, GNN, LOCAL_RESPONSE_NORM, GnnModule)

GNN_AVAILABLE_IN_ALL
GnnLocalResponseNorm *gnn_local_response_norm_new (int    size,
                                                   double alpha,
                                                   double beta,
                                                   double k);

/* ---- upsampling ---- */

#define GNN_TYPE_UPSAMPLE (gnn_upsample_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnUpsample, gnn_upsample, GNN, UPSAMPLE, GnnModule)

GNN_AVAILABLE_IN_ALL
GnnUpsample *gnn_upsample_new (const gint64 *size,
                               gsize         n_size,
                               const double *scale_factor,
                               gsize         n_scale_factor,
                               const char   *mode,
                               gboolean      align_corners);

#define GNN_TYPE_UPSAMPLING_NEAREST2D (gnn_upsampling_nearest2d_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnUpsamplingNearest2d, gnn_upsampling_nearest2d, GNN, UPSAMPLING_NEAREST2D, GnnModule)

GNN_AVAILABLE_IN_ALL
GnnUpsamplingNearest2d *gnn_upsampling_nearest2d_new (const gint64 *size,
                                                      gsize         n_size,
                                                      const double *scale_factor,
                                                      gsize         n_scale_factor);

#define GNN_TYPE_UPSAMPLING_BILINEAR2D (gnn_upsampling_bilinear2d_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnUpsamplingBilinear2d, gnn_upsampling_bilinear2d, GNN, UPSAMPLING_BILINEAR2D, GnnModule)

GNN_AVAILABLE_IN_ALL
GnnUpsamplingBilinear2d *gnn_upsampling_bilinear2d_new (const gint64 *size,
                                                        gsize         n_size,
                                                        const double *scale_factor,
                                                        gsize         n_scale_factor);

/* ---- adaptive max pooling, max unpooling ---- */

GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_adaptive_max_pool1d (GnnTensor  *self,
                                           gint64      output_size,
                                           GnnTensor **indices,
                                           GError    **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_adaptive_max_pool2d (GnnTensor    *self,
                                           const gint64 *output_size,
                                           GnnTensor   **indices,
                                           GError      **error);

#define GNN_TYPE_ADAPTIVE_MAX_POOL1D (gnn_adaptive_max_pool1d_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnAdaptiveMaxPool1d, gnn_adaptive_max_pool1d, GNN, ADAPTIVE_MAX_POOL1D, GnnModule)

GNN_AVAILABLE_IN_ALL
GnnAdaptiveMaxPool1d *gnn_adaptive_max_pool1d_new (gint64   output_size,
                                                   gboolean return_indices);

#define GNN_TYPE_ADAPTIVE_MAX_POOL2D (gnn_adaptive_max_pool2d_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnAdaptiveMaxPool2d, gnn_adaptive_max_pool2d, GNN, ADAPTIVE_MAX_POOL2D, GnnModule)

GNN_AVAILABLE_IN_ALL
GnnAdaptiveMaxPool2d *gnn_adaptive_max_pool2d_new (const gint64 *output_size,
                                                   gboolean      return_indices);

GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_max_unpool2d (GnnTensor    *self,
                                    GnnTensor    *indices,
                                    const gint64 *output_size,
                                    GError      **error);

#define GNN_TYPE_MAX_UNPOOL1D (gnn_max_unpool1d_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnMaxUnpool1d, gnn_max_unpool1d, GNN, MAX_UNPOOL1D, GnnModule)

GNN_AVAILABLE_IN_ALL
GnnMaxUnpool1d *gnn_max_unpool1d_new (gint64 kernel_size,
                                      gint64 stride,
                                      gint64 padding);

#define GNN_TYPE_MAX_UNPOOL2D (gnn_max_unpool2d_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnMaxUnpool2d, gnn_max_unpool2d, GNN, MAX_UNPOOL2D, GnnModule)

GNN_AVAILABLE_IN_ALL
GnnMaxUnpool2d *gnn_max_unpool2d_new (const gint64 *kernel_size,
                                      const gint64 *stride,
                                      const gint64 *padding);

/* ---- alpha dropout ---- */

GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_alpha_dropout         (GnnTensor *self,
                                             double     p,
                                             gboolean   training,
                                             GError   **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_feature_alpha_dropout (GnnTensor *self,
                                             double     p,
                                             gboolean   training,
                                             GError   **error);

#define GNN_TYPE_ALPHA_DROPOUT (gnn_alpha_dropout_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnAlphaDropout, gnn_alpha_dropout, GNN, ALPHA_DROPOUT, GnnModule)

GNN_AVAILABLE_IN_ALL
GnnAlphaDropout *gnn_alpha_dropout_new (double p);

#define GNN_TYPE_FEATURE_ALPHA_DROPOUT (gnn_feature_alpha_dropout_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnFeatureAlphaDropout, gnn_feature_alpha_dropout, GNN, FEATURE_ALPHA_DROPOUT, GnnModule)

GNN_AVAILABLE_IN_ALL
GnnFeatureAlphaDropout *gnn_feature_alpha_dropout_new (double p);

/* ---- EmbeddingBag ---- */

GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_embedding_bag (GnnTensor  *input,
                                     GnnTensor  *weight,
                                     GnnTensor  *offsets,
                                     const char *mode,
                                     GnnTensor  *per_sample_weights,
                                     gboolean    include_last_offset,
                                     gint64      padding_idx,
                                     GError    **error);

#define GNN_TYPE_EMBEDDING_BAG (gnn_embedding_bag_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnEmbeddingBag, gnn_embedding_bag, GNN, EMBEDDING_BAG, GnnModule)

GNN_AVAILABLE_IN_ALL
GnnEmbeddingBag *gnn_embedding_bag_new (gint64       num_embeddings,
                                        gint64       embedding_dim,
                                        const char  *mode,
                                        gboolean     include_last_offset,
                                        gint64       padding_idx,
                                        GnnDtype     dtype,
                                        GError     **error);

G_END_DECLS
