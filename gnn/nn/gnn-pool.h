/* gnn-pool.h: pooling layers, as torch.nn.MaxPool1d/2d, AvgPool1d/2d and AdaptiveAvgPool1d/2d
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

#define GNN_TYPE_MAX_POOL2D (gnn_max_pool2d_get_type ())
GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnMaxPool2d, gnn_max_pool2d, GNN, MAX_POOL2D, GnnModule)

#define GNN_TYPE_AVG_POOL2D (gnn_avg_pool2d_get_type ())
GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnAvgPool2d, gnn_avg_pool2d, GNN, AVG_POOL2D, GnnModule)

#define GNN_TYPE_ADAPTIVE_AVG_POOL2D (gnn_adaptive_avg_pool2d_get_type ())
GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnAdaptiveAvgPool2d, gnn_adaptive_avg_pool2d, GNN, ADAPTIVE_AVG_POOL2D, GnnModule)

#define GNN_TYPE_MAX_POOL1D (gnn_max_pool1d_get_type ())
GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnMaxPool1d, gnn_max_pool1d, GNN, MAX_POOL1D, GnnModule)

#define GNN_TYPE_AVG_POOL1D (gnn_avg_pool1d_get_type ())
GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnAvgPool1d, gnn_avg_pool1d, GNN, AVG_POOL1D, GnnModule)

#define GNN_TYPE_ADAPTIVE_AVG_POOL1D (gnn_adaptive_avg_pool1d_get_type ())
GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnAdaptiveAvgPool1d, gnn_adaptive_avg_pool1d, GNN, ADAPTIVE_AVG_POOL1D, GnnModule)

GNN_AVAILABLE_IN_ALL
GnnMaxPool1d *gnn_max_pool1d_new (gint64 kernel_size, gint64 stride, gint64 padding, gint64 dilation,
                                  gboolean ceil_mode);
GNN_AVAILABLE_IN_ALL
GnnAvgPool1d *gnn_avg_pool1d_new (gint64 kernel_size, gint64 stride, gint64 padding, gboolean ceil_mode,
                                  gboolean count_include_pad);
GNN_AVAILABLE_IN_ALL
GnnAdaptiveAvgPool1d *gnn_adaptive_avg_pool1d_new (gint64 output_size);
GNN_AVAILABLE_IN_ALL
GnnAdaptiveAvgPool2d *gnn_adaptive_avg_pool2d_new (const gint64 *output_size);
GNN_AVAILABLE_IN_ALL
GnnMaxPool2d *gnn_max_pool2d_new (const gint64 *kernel_size,
                                  const gint64 *stride,
                                  const gint64 *padding,
                                  const gint64 *dilation,
                                  gboolean      ceil_mode);
GNN_AVAILABLE_IN_ALL
GnnAvgPool2d *gnn_avg_pool2d_new (const gint64 *kernel_size,
                                  const gint64 *stride,
                                  const gint64 *padding,
                                  gboolean      ceil_mode,
                                  gboolean      count_include_pad,
                                  gint64        divisor_override);

#define GNN_TYPE_MAX_POOL3D (gnn_max_pool3d_get_type ())
GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnMaxPool3d, gnn_max_pool3d, GNN, MAX_POOL3D, GnnModule)

#define GNN_TYPE_AVG_POOL3D (gnn_avg_pool3d_get_type ())
GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnAvgPool3d, gnn_avg_pool3d, GNN, AVG_POOL3D, GnnModule)

#define GNN_TYPE_ADAPTIVE_AVG_POOL3D (gnn_adaptive_avg_pool3d_get_type ())
GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnAdaptiveAvgPool3d, gnn_adaptive_avg_pool3d, GNN, ADAPTIVE_AVG_POOL3D, GnnModule)

GNN_AVAILABLE_IN_ALL
GnnMaxPool3d         *gnn_max_pool3d_new          (const gint64 *kernel_size,
                                                   const gint64 *stride,
                                                   const gint64 *padding,
                                                   const gint64 *dilation,
                                                   gboolean      ceil_mode);
GNN_AVAILABLE_IN_ALL
GnnAvgPool3d         *gnn_avg_pool3d_new          (const gint64 *kernel_size,
                                                   const gint64 *stride,
                                                   const gint64 *padding,
                                                   gboolean      ceil_mode,
                                                   gboolean      count_include_pad,
                                                   gint64        divisor_override);
GNN_AVAILABLE_IN_ALL
GnnAdaptiveAvgPool3d *gnn_adaptive_avg_pool3d_new (const gint64 *output_size);

#define GNN_TYPE_ADAPTIVE_MAX_POOL3D (gnn_adaptive_max_pool3d_get_type ())
GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnAdaptiveMaxPool3d, gnn_adaptive_max_pool3d, GNN, ADAPTIVE_MAX_POOL3D, GnnModule)

GNN_AVAILABLE_IN_ALL
GnnAdaptiveMaxPool3d *gnn_adaptive_max_pool3d_new (const gint64 *output_size,
                                                   gboolean      return_indices);

G_END_DECLS
