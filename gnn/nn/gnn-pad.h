/* gnn-pad.h: the padding layers, as torch.nn.ConstantPad1d/2d/3d, ZeroPad2d,
 * ReflectionPad1d/2d/3d and ReplicationPad1d/2d/3d
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

#define GNN_TYPE_CONSTANT_PAD1D (gnn_constant_pad1d_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnConstantPad1d, gnn_constant_pad1d, GNN, CONSTANT_PAD1D, GnnModule)

GNN_AVAILABLE_IN_ALL
GnnConstantPad1d *gnn_constant_pad1d_new (const gint64 *padding,
                                         gsize         n_padding,
                                         double        value);

#define GNN_TYPE_CONSTANT_PAD2D (gnn_constant_pad2d_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnConstantPad2d, gnn_constant_pad2d, GNN, CONSTANT_PAD2D, GnnModule)

GNN_AVAILABLE_IN_ALL
GnnConstantPad2d *gnn_constant_pad2d_new (const gint64 *padding,
                                         gsize         n_padding,
                                         double        value);

#define GNN_TYPE_CONSTANT_PAD3D (gnn_constant_pad3d_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnConstantPad3d, gnn_constant_pad3d, GNN, CONSTANT_PAD3D, GnnModule)

GNN_AVAILABLE_IN_ALL
GnnConstantPad3d *gnn_constant_pad3d_new (const gint64 *padding,
                                         gsize         n_padding,
                                         double        value);

#define GNN_TYPE_ZERO_PAD2D (gnn_zero_pad2d_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnZeroPad2d, gnn_zero_pad2d, GNN, ZERO_PAD2D, GnnModule)

GNN_AVAILABLE_IN_ALL
GnnZeroPad2d *gnn_zero_pad2d_new (const gint64 *padding,
                                 gsize         n_padding);

#define GNN_TYPE_REFLECTION_PAD1D (gnn_reflection_pad1d_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnReflectionPad1d, gnn_reflection_pad1d, GNN, REFLECTION_PAD1D, GnnModule)

GNN_AVAILABLE_IN_ALL
GnnReflectionPad1d *gnn_reflection_pad1d_new (const gint64 *padding,
                                             gsize         n_padding);

#define GNN_TYPE_REFLECTION_PAD2D (gnn_reflection_pad2d_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnReflectionPad2d, gnn_reflection_pad2d, GNN, REFLECTION_PAD2D, GnnModule)

GNN_AVAILABLE_IN_ALL
GnnReflectionPad2d *gnn_reflection_pad2d_new (const gint64 *padding,
                                             gsize         n_padding);

#define GNN_TYPE_REFLECTION_PAD3D (gnn_reflection_pad3d_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnReflectionPad3d, gnn_reflection_pad3d, GNN, REFLECTION_PAD3D, GnnModule)

GNN_AVAILABLE_IN_ALL
GnnReflectionPad3d *gnn_reflection_pad3d_new (const gint64 *padding,
                                             gsize         n_padding);

#define GNN_TYPE_REPLICATION_PAD1D (gnn_replication_pad1d_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnReplicationPad1d, gnn_replication_pad1d, GNN, REPLICATION_PAD1D, GnnModule)

GNN_AVAILABLE_IN_ALL
GnnReplicationPad1d *gnn_replication_pad1d_new (const gint64 *padding,
                                               gsize         n_padding);

#define GNN_TYPE_REPLICATION_PAD2D (gnn_replication_pad2d_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnReplicationPad2d, gnn_replication_pad2d, GNN, REPLICATION_PAD2D, GnnModule)

GNN_AVAILABLE_IN_ALL
GnnReplicationPad2d *gnn_replication_pad2d_new (const gint64 *padding,
                                               gsize         n_padding);

#define GNN_TYPE_REPLICATION_PAD3D (gnn_replication_pad3d_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnReplicationPad3d, gnn_replication_pad3d, GNN, REPLICATION_PAD3D, GnnModule)

GNN_AVAILABLE_IN_ALL
GnnReplicationPad3d *gnn_replication_pad3d_new (const gint64 *padding,
                                               gsize         n_padding);

G_END_DECLS
