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

/* The opening of an op that autocast changes: when gnn_autocast_operands() applies to the
 * operands (the trailing arguments), returns @call, the op run again on the cast operands
 * (named @cast[0], @cast[1], ... in it; NULL when the cast fails), after
 * gnn_autocast_operands_clear(); otherwise goes on. */
#define GNN_AUTOCAST_RETURN(op, cast, call, error, ...)                                        \
  G_STMT_START {                                                                              \
    GnnTensor *const gnn_ac_in_[] = { __VA_ARGS__ };                                          \
    GnnTensor *cast[G_N_ELEMENTS (gnn_ac_in_)];                                               \
    int gnn_ac_ = gnn_autocast_operands ((op), gnn_ac_in_, G_N_ELEMENTS (gnn_ac_in_), cast, (error)); \
                                                                                              \
    if (gnn_ac_ != 0)                                                                         \
      {                                                                                       \
        GnnTensor *gnn_ac_r_ = gnn_ac_ < 0 ? NULL : (call);                                   \
                                                                                              \
        gnn_autocast_operands_clear (cast, G_N_ELEMENTS (gnn_ac_in_));                        \
        return gnn_ac_r_;                                                                     \
      }                                                                                       \
  } G_STMT_END

/* The same for the half-precision operands of gnn-ops-private.h's gnn_half_operands(): when
 * it applies, returns gnn_half_result() of @call run on the float32 operands @cast[0], ... */
#define GNN_HALF_RETURN(cast, call, error, ...)                                                \
  G_STMT_START {                                                                              \
    GnnTensor *const gnn_half_in_[] = { __VA_ARGS__ };                                        \
    GnnTensor *cast[G_N_ELEMENTS (gnn_half_in_)];                                             \
    GnnDtype gnn_half_low_;                                                                   \
    int gnn_half_ = gnn_half_operands (gnn_half_in_, G_N_ELEMENTS (gnn_half_in_), cast, &gnn_half_low_, (error)); \
                                                                                              \
    if (gnn_half_ != 0)                                                                       \
      {                                                                                       \
        GnnTensor *gnn_half_r_ = gnn_half_ < 0 ? NULL : (call);                               \
                                                                                              \
        gnn_half_operands_clear (cast, G_N_ELEMENTS (gnn_half_in_));                          \
        return gnn_half_result (gnn_half_r_, gnn_half_low_, (error));                         \
      }                                                                                       \
  } G_STMT_END

G_END_DECLS
