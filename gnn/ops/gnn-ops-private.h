/* gnn-ops-private.h: what the ops share
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "core/gnn-tensor-private.h"
#include "autograd/graph/gnn-graph-private.h"
#include "ops/gnn-ops.h"

G_BEGIN_DECLS

/* Whether two tensors are on one device; an error names the op and both devices. */
gboolean   gnn_check_same_device      (const char   *op,
                                       GnnTensor    *a,
                                       GnnTensor    *b,
                                       GError      **error);
gboolean   gnn_check_floating         (const char   *op,
                                       GnnTensor    *t,
                                       GError      **error);
/* PyTorch's broadcast of two shapes. */
gboolean   gnn_broadcast_shapes       (const char   *op,
                                       guint         na,
                                       const gint64 *sa,
                                       guint         nb,
                                       const gint64 *sb,
                                       guint        *n_out,
                                       gint64       *out,
                                       GError      **error);
/* A kernel view of the contiguous tensor @t as @shape (@ndim sizes, row-major strides). */
void       gnn_kernel_tensor_contiguous (GnnTensor       *t,
                                         guint            ndim,
                                         const gint64    *shape,
                                         GnnKernelTensor *kt);
/* A kernel view of the contiguous tensor @t as [d0, d1, d2]. */
void       gnn_kernel_tensor_3d       (GnnTensor       *t,
                                       gint64           d0,
                                       gint64           d1,
                                       gint64           d2,
                                       GnnKernelTensor *kt);
/* The [outer, size, inner] layout of @ndim / @shape around @dim (a 0-dim tensor is [1, 1, 1]) */
void       gnn_layout_around          (guint         ndim,
                                       const gint64 *shape,
                                       guint         dim,
                                       gint64       *outer,
                                       gint64       *size,
                                       gint64       *inner);
/* The backward of an op that picked input 0's entries along @dim at the int64 index saved
 * first: the gradient added back into zeros of the input's shape at that index. INDEX_ADD:
 * the index holds the picked positions (index_select); SCATTER_ADD: one index per column
 * of the layout around @dim (max and min over a dim). */
/* Runs an indexing kernel on contiguous operands: INDEX_SELECT and GATHER read @in
 * [outer, size, inner] into @out [outer, n_index, inner]; INDEX_ADD, SCATTER_ADD and
 * SCATTER_REDUCE (combining as @reduce, a GnnKernelScatterReduce, says; 0 for the others) write
 * @in [outer, n_index, inner] into @out [outer, size, inner]. The int64 @index holds n_index
 * entries (INDEX_SELECT, INDEX_ADD) or one per element of [outer, n_index, inner]. */
gboolean   gnn_run_index_kernel       (GnnBackendOp  op,
                                       int           reduce,
                                       GnnTensor    *out,
                                       GnnTensor    *in,
                                       GnnTensor    *index,
                                       gint64        outer,
                                       gint64        size,
                                       gint64        inner,
                                       gint64        n_index,
                                       GError      **error);
/* Checks that every entry of @index lies in [0, @size) (in [-@size, @size) where @wraps; on
 * host memory only), naming @op, the offending index, @dim and @size. */
gboolean   gnn_check_index_bounds     (const char   *op,
                                       GnnTensor    *index,
                                       guint         dim,
                                       gint64        size,
                                       gboolean      wraps,
                                       GError      **error);
/* Checks that @index is int64 (or int32 where @int32), naming @op. */
gboolean   gnn_check_index_dtype      (const char   *op,
                                       GnnTensor    *index,
                                       gboolean      int32,
                                       GError      **error);
gboolean   gnn_index_add_backward     (GnnNode      *node,
                                       GnnBackendOp  op,
                                       guint         dim,
                                       GnnTensor   **go,
                                       GnnTensor   **gi,
                                       GError      **error);

/* The dtype kernels compute in for a stored dtype: float16/bfloat16 compute in float32,
 * bool/uint8 in int64. */
GnnDtype   gnn_compute_dtype          (GnnDtype dtype);
/* The half dtypes' compute path of the ops whose kernels serve float32 and float64 only
 * (the matrix products, the convolutions, the pools): when every non-NULL operand of @ins has
 * one half dtype (float16 or bfloat16), @f32 receives their float32 copies (through the
 * differentiable conversion, NULL where @ins has NULL), *low that dtype, and 1 is returned;
 * 0 when they do not (nothing is set), -1 with @error set when a copy fails. The caller runs
 * the op on @f32, releases it with gnn_half_operands_clear() and rounds the result once with
 * gnn_half_result(): float32 accumulation rounded once, as PyTorch's CPU kernels compute. */
int        gnn_half_operands          (GnnTensor *const *ins,
                                       guint             n,
                                       GnnTensor       **f32,
                                       GnnDtype         *low,
                                       GError          **error);
void       gnn_half_operands_clear    (GnnTensor       **f32,
                                       guint             n);
/* @result (transfer full, nullable: then %NULL is returned) converted to @low */
GnnTensor *gnn_half_result            (GnnTensor        *result,
                                       GnnDtype          low,
                                       GError          **error);
/* @self on the device of @like: @self itself (a new reference) when it is already there, a
 * copy (as gnn_tensor_to_device) otherwise, without allocating to find out. */
GnnTensor *gnn_tensor_to_device_of    (GnnTensor    *self,
                                       GnnTensor    *like,
                                       GError      **error);
/* where (@mask, @value, @x) with @value a number of @x's dtype (gnn-ops-predicates.c); with
 * autograd through @x. */
GnnTensor *gnn_where_scalar           (GnnTensor    *mask,
                                       double        value,
                                       GnnTensor    *x,
                                       GError      **error);
/* Sums a broadcast gradient back to an input's shape (no history). */
GnnTensor *gnn_sum_to                 (GnnTensor    *grad,
                                       guint         ndim,
                                       const gint64 *shape,
                                       GError      **error);

/* Runs an elementwise kernel on broadcast inputs cast to @compute; the output has the
 * broadcast shape and @out_dtype (converted from @compute when they differ). @params (may be
 * NULL: none) are the op's parameters. No autograd. */
GnnTensor *gnn_elementwise            (const char   *name,
                                       GnnBackendOp  op,
                                       GnnTensor   **inputs,
                                       guint         n_inputs,
                                       GnnDtype      compute,
                                       GnnDtype      out_dtype,
                                       const GnnKernelParams *params,
                                       GError      **error);
/* Runs an elementwise kernel writing into @out, inputs broadcast to @out's shape. No autograd,
 * no version bump. */
gboolean   gnn_elementwise_into       (const char   *name,
                                       GnnBackendOp  op,
                                       GnnTensor    *out,
                                       GnnTensor   **inputs,
                                       guint         n_inputs,
                                       const GnnKernelParams *params,
                                       GError      **error);

/* The output dtype of an op between two tensors: promoted; integer results of an op that
 * always gives floats become float32. */
GnnDtype   gnn_result_dtype           (GnnTensor *a,
                                       GnnTensor *b);

/* Commits an in-place op on @self after its kernel ran (gnn_autograd_commit_inplace with
 * the CopySlices and AsStridedBackward0 formulas of gnn-ops-autograd.c). */
void       gnn_commit_inplace         (GnnTensor *self,
                                       GnnNode   *node);
/* AccumulateGrad's arithmetic: @variable's grad becomes @grad (transfer full) itself when
 * nothing else holds it and it is a plain contiguous tensor of the variable's dtype, else a
 * contiguous copy of it in that dtype; an existing grad gets @grad added. */
/* For the backward formulas that run a kernel gnn has no double backward for: FALSE with a
 * GNN_ERROR_NOT_SUPPORTED naming @node when grad mode is on (create_graph) and the
 * gradient would need to be differentiated (an incoming gradient or a saved tensor has
 * history), rather than a gradient silently without history. */
gboolean   gnn_check_double_backward  (GnnNode    *node,
                                       GnnTensor **grad_outputs,
                                       GError    **error);
gboolean   gnn_accumulate_grad        (GnnTensor *variable,
                                       GnnTensor *grad,
                                       GError   **error);

/* Convolution with @name prefixing errors; @same pads as PyTorch's padding='same' (stride 1,
 * the odd extra at the end), ignoring @padding. 4-d / 3-d input for 2-d, 3-d / 2-d for 1-d. */
/* @w (m, k) · @x[i] (k, n) for each i of @x (N, k, n), with autograd (gnn-ops-linalg.c) */
GnnTensor *gnn_matmul_shared_left     (GnnTensor    *w,
                                       GnnTensor    *x,
                                       GError      **error);
GnnTensor *gnn_conv2d_internal        (const char   *name,
                                       GnnTensor    *input,
                                       GnnTensor    *weight,
                                       GnnTensor    *bias,
                                       const gint64 *stride,
                                       const gint64 *padding,
                                       const gint64 *dilation,
                                       gint64        groups,
                                       gboolean      same,
                                       GError      **error);
GnnTensor *gnn_max_pool2d_internal    (const char *name, GnnTensor *input, const gint64 *kernel_size,
                                       const gint64 *stride, const gint64 *padding, const gint64 *dilation,
                                       gboolean ceil_mode, GnnTensor **indices, GError **error);
GnnTensor *gnn_avg_pool2d_internal    (const char *name, GnnTensor *input, const gint64 *kernel_size,
                                       const gint64 *stride, const gint64 *padding, gboolean ceil_mode,
                                       gboolean count_include_pad, gint64 divisor_override, GError **error);
GnnTensor *gnn_adaptive_avg_pool2d_internal (const char *name, GnnTensor *input, const gint64 *output_size,
                                             GError **error);
GnnTensor *gnn_conv_transpose2d_internal (const char *name, GnnTensor *input, GnnTensor *weight, GnnTensor *bias,
                                          const gint64 *stride, const gint64 *padding,
                                          const gint64 *output_padding, gint64 groups,
                                          const gint64 *dilation, GError **error);
GnnTensor *gnn_conv1d_internal        (const char   *name,
                                       GnnTensor    *input,
                                       GnnTensor    *weight,
                                       GnnTensor    *bias,
                                       gint64        stride,
                                       gint64        padding,
                                       gint64        dilation,
                                       gint64        groups,
                                       gboolean      same,
                                       GError      **error);
/* the 1-d forms, on the 2-d kernels with a unit height */
GnnTensor *gnn_conv_transpose1d_internal (const char *name, GnnTensor *input, GnnTensor *weight, GnnTensor *bias,
                                          gint64 stride, gint64 padding, gint64 output_padding, gint64 groups,
                                          gint64 dilation, GError **error);
GnnTensor *gnn_max_pool1d_internal    (const char *name, GnnTensor *input, gint64 kernel_size, gint64 stride,
                                       gint64 padding, gint64 dilation, gboolean ceil_mode, GnnTensor **indices,
                                       GError **error);
GnnTensor *gnn_avg_pool1d_internal    (const char *name, GnnTensor *input, gint64 kernel_size, gint64 stride,
                                       gint64 padding, gboolean ceil_mode, gboolean count_include_pad,
                                       GError **error);
GnnTensor *gnn_adaptive_avg_pool1d_internal (const char *name, GnnTensor *input, gint64 output_size,
                                             GError **error);
/* lp_pool1d (@nd 1) and lp_pool2d (@nd 2); @stride NULL for the kernel size */
GnnTensor *gnn_lp_pool_internal       (const char *name, GnnTensor *input, double norm_type, guint nd,
                                       const gint64 *kernel_size, const gint64 *stride, gboolean ceil_mode,
                                       GError **error);
/* the 3-d forms, on the vol2col / col2vol and 3-d pooling kernels (a 5-d or unbatched 4-d input) */
GnnTensor *gnn_conv3d_internal        (const char *name, GnnTensor *input, GnnTensor *weight, GnnTensor *bias,
                                       const gint64 *stride, const gint64 *padding, const gint64 *dilation,
                                       gint64 groups, gboolean same, GError **error);
GnnTensor *gnn_conv_transpose3d_internal (const char *name, GnnTensor *input, GnnTensor *weight, GnnTensor *bias,
                                          const gint64 *stride, const gint64 *padding,
                                          const gint64 *output_padding, gint64 groups,
                                          const gint64 *dilation, GError **error);
GnnTensor *gnn_max_pool3d_internal    (const char *name, GnnTensor *input, const gint64 *kernel_size,
                                       const gint64 *stride, const gint64 *padding, const gint64 *dilation,
                                       gboolean ceil_mode, GnnTensor **indices, GError **error);
GnnTensor *gnn_avg_pool3d_internal    (const char *name, GnnTensor *input, const gint64 *kernel_size,
                                       const gint64 *stride, const gint64 *padding, gboolean ceil_mode,
                                       gboolean count_include_pad, gint64 divisor_override, GError **error);
GnnTensor *gnn_adaptive_avg_pool3d_internal (const char *name, GnnTensor *input, const gint64 *output_size,
                                             GError **error);
GnnTensor *gnn_adaptive_max_pool3d_internal (const char *name, GnnTensor *input, const gint64 *output_size,
                                             GnnTensor **indices, GError **error);

/* Batch normalisation of a training batch through the backend's fused kernels
 * (gnn-ops-norm.c); available for float32 and float64 on backends that have them. */
gboolean   gnn_batch_norm_fused_available (GnnTensor  *x);
GnnTensor *gnn_batch_norm_train_fused     (GnnTensor  *input,
                                           GnnTensor  *weight,
                                           GnnTensor  *bias,
                                           double      eps,
                                           GnnTensor **mean_out,
                                           GnnTensor **var_out,
                                           GError    **error);

/* out = alpha · a · b + beta · out into an existing (possibly row-strided) @out, no autograd
 * (gnn-ops-linalg.c) */
gboolean   gnn_gemm_into                  (GnnTensor  *out,
                                           GnnTensor  *a,
                                           GnnTensor  *b,
                                           double      alpha,
                                           double      beta,
                                           GError    **error);
/* one direction of an LSTM or GRU layer as one op (gnn-ops-rnn.c) */
gboolean   gnn_rnn_layer_fused_available  (GnnTensor  *x);
GnnTensor *gnn_rnn_layer_fused            (gboolean    lstm,
                                           gboolean    reverse,
                                           GnnTensor  *xp,
                                           GnnTensor  *w_hh,
                                           GnnTensor  *b_hh,
                                           GnnTensor  *h0,
                                           GnnTensor  *c0,
                                           GnnTensor **h_n,
                                           GnnTensor **c_n,
                                           GError    **error);
/* The differentiable backward of gnn_rnn_layer_fused under create_graph: from its inputs
 * @in (xp, w_hh, b_hh, h0, c0; b_hh and c0 may be NULL), as aliases carrying their history,
 * and the gradients @go of (y, h_n, c_n) (entries may be NULL), set @gi[j] (transfer full)
 * for each j with @needs[j], by recomputing the layer with composed ops. nn/ provides it. */
typedef gboolean (*GnnRnnLayerRecomputeFunc) (gboolean         lstm,
                                              gboolean         reverse,
                                              GnnTensor      **in,
                                              GnnTensor      **go,
                                              const gboolean  *needs,
                                              GnnTensor      **gi,
                                              GError         **error);
void       gnn_rnn_layer_set_recompute    (GnnRnnLayerRecomputeFunc func);

G_END_DECLS
