/* gnn-transforms.h: sample transforms (torchvision.transforms)
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
#include "../core/gnn-generator.h"

G_BEGIN_DECLS

/* ---- GnnTransform -------------------------------------------------------------------- */

#define GNN_TYPE_TRANSFORM (gnn_transform_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_INTERFACE (GnnTransform, gnn_transform, GNN, TRANSFORM, GObject)

/**
 * GnnTransformInterface:
 * @g_iface: the parent interface
 * @apply: makes a new tensor out of a sample (`transform(sample)`)
 *
 * The virtual methods of [iface@Gnn.Transform]. Python classes implement
 * `do_apply (self, sample)` returning a tensor.
 *
 * The transforms of a dataset or loader with #GnnDataLoader:num-workers are applied from
 * the loader's worker threads, several at once: @apply must allow that, as gnn's transforms
 * do.
 */
struct _GnnTransformInterface
{
  GTypeInterface g_iface;

  GnnTensor * (*apply) (GnnTransform  *self,
                        GnnTensor     *sample,
                        GError       **error);

  /*< private >*/
  gpointer padding[4];
};

GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_transform_apply (GnnTransform  *self,
                                GnnTensor     *sample,
                                GError       **error);

/* ---- GnnToTensor --------------------------------------------------------------------- */

#define GNN_TYPE_TO_TENSOR (gnn_to_tensor_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnToTensor, gnn_to_tensor, GNN, TO_TENSOR, GObject)

GNN_AVAILABLE_IN_ALL
GnnToTensor *gnn_to_tensor_new (void);

/* ---- GnnNormalize -------------------------------------------------------------------- */

#define GNN_TYPE_NORMALIZE (gnn_normalize_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnNormalize, gnn_normalize, GNN, NORMALIZE, GObject)

GNN_AVAILABLE_IN_ALL
GnnNormalize *gnn_normalize_new   (const double  *mean,
                                   const double  *std,
                                   guint          n_channels,
                                   double         scale,
                                   GError       **error);
GNN_AVAILABLE_IN_ALL
GnnTensor    *gnn_normalize_apply (GnnNormalize  *self,
                                   GnnTensor     *images,
                                   GError       **error);

/* ---- GnnCompose ---------------------------------------------------------------------- */

#define GNN_TYPE_COMPOSE (gnn_compose_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnCompose, gnn_compose, GNN, COMPOSE, GObject)

GNN_AVAILABLE_IN_ALL
GnnCompose   *gnn_compose_new            (GnnTransform **transforms,
                                          guint          n_transforms);
GNN_AVAILABLE_IN_ALL
guint         gnn_compose_get_n_transforms (GnnCompose  *self);
GNN_AVAILABLE_IN_ALL
GnnTransform *gnn_compose_get_transform  (GnnCompose    *self,
                                          guint          index);

/* ---- GnnRandomCrop ------------------------------------------------------------------- */

#define GNN_TYPE_RANDOM_CROP (gnn_random_crop_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnRandomCrop, gnn_random_crop, GNN, RANDOM_CROP, GObject)

GNN_AVAILABLE_IN_ALL
GnnRandomCrop *gnn_random_crop_new (gint64         height,
                                    gint64         width,
                                    const gint64  *padding,
                                    guint          n_padding,
                                    gboolean       pad_if_needed,
                                    double         fill,
                                    const char    *padding_mode,
                                    GnnGenerator  *generator,
                                    GError       **error);

/* ---- GnnRandomHorizontalFlip --------------------------------------------------------- */

#define GNN_TYPE_RANDOM_HORIZONTAL_FLIP (gnn_random_horizontal_flip_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnRandomHorizontalFlip, gnn_random_horizontal_flip, GNN,
                      RANDOM_HORIZONTAL_FLIP, GObject)

GNN_AVAILABLE_IN_ALL
GnnRandomHorizontalFlip *gnn_random_horizontal_flip_new (double         p,
                                                         GnnGenerator  *generator,
                                                         GError       **error);

G_END_DECLS
