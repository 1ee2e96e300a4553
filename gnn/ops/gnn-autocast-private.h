/* gnn-autocast-private.h: the ops' side of autocast
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "gnn-autocast.h"
#include "../core/gnn-tensor.h"

G_BEGIN_DECLS

/* The ops that autocast changes, each with its policy per device type in gnn-autocast.c
 * (torch 1.13's lists: lower precision, float32, promote to the widest input). */
typedef enum {
  GNN_AUTOCAST_OP_MATMUL,          /* matmul, mm */
  GNN_AUTOCAST_OP_ADDMM,           /* bmm, addmm, baddbmm, addbmm */
  GNN_AUTOCAST_OP_LINEAR,
  GNN_AUTOCAST_OP_CONV,            /* conv1d, conv2d, conv3d */
  GNN_AUTOCAST_OP_CONV_TRANSPOSE,  /* conv_transpose1d, 2d, 3d */
  GNN_AUTOCAST_OP_MV,
  GNN_AUTOCAST_OP_DOT,
  GNN_AUTOCAST_OP_POOL3D,          /* max_pool3d, avg_pool3d, adaptive_avg_pool3d, adaptive_max_pool3d */
  GNN_AUTOCAST_OP_LOSS,            /* the losses of torch's float32 lists */
  GNN_AUTOCAST_OP_BINARY_CROSS_ENTROPY,
  GNN_AUTOCAST_OP_SOFTMAX,         /* softmax, log_softmax */
  GNN_AUTOCAST_OP_COUNT
} GnnAutocastOp;

/* When autocast is on for the device type of @ins' first tensor and @op has a policy there:
 * @cast receives the operands cast as the policy says (a new reference to the operand itself
 * where it keeps its dtype, NULL where @ins has NULL), autocast is excluded until
 * gnn_autocast_operands_clear(), and 1 is returned; 0 when autocast does not apply (nothing is
 * set); -1 with @error set when a cast fails or the op is refused under autocast. After a
 * nonzero return the caller runs the op on @cast (when 1) and calls
 * gnn_autocast_operands_clear(). */
int      gnn_autocast_operands        (GnnAutocastOp     op,
                                       GnnTensor *const *ins,
                                       guint             n,
                                       GnnTensor       **cast,
                                       GError          **error);
/* whether autocast may apply on this thread now (on for some device type, not excluded) */
gboolean gnn_autocast_active          (void);
void     gnn_autocast_operands_clear  (GnnTensor       **cast,
                                       guint             n);
/* autocast off on this thread while the backward pass runs: backward ops keep the dtypes
 * autocast chose for their forward ops */
void     gnn_autocast_exclude_push    (void);
void     gnn_autocast_exclude_pop     (void);

G_END_DECLS
