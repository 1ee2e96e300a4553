/* gnn-conv.h: convolution layers, as torch.nn.Conv1d, Conv2d, Conv3d, ConvTranspose1d, ConvTranspose2d
 * and ConvTranspose3d
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

#define GNN_TYPE_CONV1D (gnn_conv1d_get_type ())
GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnConv1d, gnn_conv1d, GNN, CONV1D, GnnModule)

#define GNN_TYPE_CONV2D (gnn_conv2d_get_type ())
GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnConv2d, gnn_conv2d, GNN, CONV2D, GnnModule)

#define GNN_TYPE_CONV_TRANSPOSE2D (gnn_conv_transpose2d_get_type ())
GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnConvTranspose2d, gnn_conv_transpose2d, GNN, CONV_TRANSPOSE2D, GnnModule)

#define GNN_TYPE_CONV_TRANSPOSE1D (gnn_conv_transpose1d_get_type ())
GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnConvTranspose1d, gnn_conv_transpose1d, GNN, CONV_TRANSPOSE1D, GnnModule)

GNN_AVAILABLE_IN_ALL
GnnConvTranspose1d *gnn_conv_transpose1d_new (int           in_channels,
                                              int           out_channels,
                                              gint64        kernel_size,
                                              gint64        stride,
                                              gint64        padding,
                                              gint64        output_padding,
                                              int           groups,
                                              gboolean      bias,
                                              gint64        dilation,
                                              GnnDtype      dtype,
                                              GError      **error);
GNN_AVAILABLE_IN_ALL
GnnConvTranspose2d *gnn_conv_transpose2d_new (int           in_channels,
                                              int           out_channels,
                                              const gint64 *kernel_size,
                                              const gint64 *stride,
                                              const gint64 *padding,
                                              const gint64 *output_padding,
                                              int           groups,
                                              gboolean      bias,
                                              const gint64 *dilation,
                                              GnnDtype      dtype,
                                              GError      **error);
GNN_AVAILABLE_IN_ALL
GnnConv1d *gnn_conv1d_new (int        in_channels,
                           int        out_channels,
                           gint64     kernel_size,
                           gint64     stride,
                           gint64     padding,
                           gint64     dilation,
                           int        groups,
                           gboolean   bias,
                           GnnDtype   dtype,
                           GError   **error);
GNN_AVAILABLE_IN_ALL
GnnConv2d *gnn_conv2d_new (int           in_channels,
                           int           out_channels,
                           const gint64 *kernel_size,
                           const gint64 *stride,
                           const gint64 *padding,
                           const gint64 *dilation,
                           int           groups,
                           gboolean      bias,
                           GnnDtype      dtype,
                           GError      **error);

#define GNN_TYPE_CONV3D (gnn_conv3d_get_type ())
GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnConv3d, gnn_conv3d, GNN, CONV3D, GnnModule)

#define GNN_TYPE_CONV_TRANSPOSE3D (gnn_conv_transpose3d_get_type ())
GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnConvTranspose3d, gnn_conv_transpose3d, GNN, CONV_TRANSPOSE3D, GnnModule)

GNN_AVAILABLE_IN_ALL
GnnConv3d *gnn_conv3d_new (int           in_channels,
                           int           out_channels,
                           const gint64 *kernel_size,
                           const gint64 *stride,
                           const gint64 *padding,
                           const gint64 *dilation,
                           int           groups,
                           gboolean      bias,
                           GnnDtype      dtype,
                           GError      **error);
GNN_AVAILABLE_IN_ALL
GnnConvTranspose3d *gnn_conv_transpose3d_new (int           in_channels,
                                              int           out_channels,
                                              const gint64 *kernel_size,
                                              const gint64 *stride,
                                              const gint64 *padding,
                                              const gint64 *output_padding,
                                              int           groups,
                                              gboolean      bias,
                                              const gint64 *dilation,
                                              GnnDtype      dtype,
                                              GError      **error);

G_END_DECLS
