/* gnn-ops.h: the functional API, each op with its backward
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

/* elementwise binary, broadcasting, with PyTorch's type promotion */
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_add          (GnnTensor *self, GnnTensor *other, double alpha, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_sub          (GnnTensor *self, GnnTensor *other, double alpha, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_mul          (GnnTensor *self, GnnTensor *other, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_div          (GnnTensor *self, GnnTensor *other, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_pow          (GnnTensor *self, GnnTensor *exponent, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_maximum      (GnnTensor *self, GnnTensor *other, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_minimum      (GnnTensor *self, GnnTensor *other, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_hypot        (GnnTensor *self, GnnTensor *other, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_add_scalar   (GnnTensor *self, double other, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_sub_scalar   (GnnTensor *self, double other, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_rsub_scalar  (GnnTensor *self, double other, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_mul_scalar   (GnnTensor *self, double other, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_div_scalar   (GnnTensor *self, double other, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_rdiv_scalar  (GnnTensor *self, double other, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_pow_scalar   (GnnTensor *self, double exponent, GError **error);

/* comparisons: bool masks */
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_eq           (GnnTensor *self, GnnTensor *other, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_ne           (GnnTensor *self, GnnTensor *other, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_lt           (GnnTensor *self, GnnTensor *other, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_le           (GnnTensor *self, GnnTensor *other, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_gt           (GnnTensor *self, GnnTensor *other, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_ge           (GnnTensor *self, GnnTensor *other, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_eq_scalar    (GnnTensor *self, double other, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_ne_scalar    (GnnTensor *self, double other, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_lt_scalar    (GnnTensor *self, double other, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_le_scalar    (GnnTensor *self, double other, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_gt_scalar    (GnnTensor *self, double other, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_ge_scalar    (GnnTensor *self, double other, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_where               (GnnTensor *condition, GnnTensor *input, GnnTensor *other, GError **error);

/* elementwise unary and activations */
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_neg          (GnnTensor *self, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_exp          (GnnTensor *self, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_log          (GnnTensor *self, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_sqrt         (GnnTensor *self, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_abs          (GnnTensor *self, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_sign         (GnnTensor *self, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_clamp        (GnnTensor *self, double min, double max, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_clamp_min    (GnnTensor *self, double min, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_clamp_max    (GnnTensor *self, double max, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_hardtanh     (GnnTensor *self, double min_val, double max_val, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_relu         (GnnTensor *self, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_leaky_relu   (GnnTensor *self, double negative_slope, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_elu          (GnnTensor *self, double alpha, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_gelu         (GnnTensor *self, const char *approximate, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_silu         (GnnTensor *self, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_sigmoid      (GnnTensor *self, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_tanh         (GnnTensor *self, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_softmax      (GnnTensor *self, int dim, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_log_softmax  (GnnTensor *self, int dim, GError **error);

/* linear algebra */
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_matmul       (GnnTensor *self, GnnTensor *other, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_linear       (GnnTensor *self, GnnTensor *weight, GnnTensor *bias, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_bmm          (GnnTensor *self, GnnTensor *mat2, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_addmm        (GnnTensor *self, GnnTensor *mat1, GnnTensor *mat2, double beta, double alpha,
                                    GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_baddbmm      (GnnTensor *self, GnnTensor *batch1, GnnTensor *batch2, double beta,
                                    double alpha, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_addbmm       (GnnTensor *self, GnnTensor *batch1, GnnTensor *batch2, double beta,
                                    double alpha, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_mv           (GnnTensor *self, GnnTensor *vec, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_dot          (GnnTensor *self, GnnTensor *other, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_outer        (GnnTensor *self, GnnTensor *vec2, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_einsum              (const char *equation, GnnTensor **operands, guint n_operands,
                                    GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensordot           (GnnTensor *self, GnnTensor *other, const int *dims_self, guint n_self,
                                    const int *dims_other, guint n_other, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_kron         (GnnTensor *self, GnnTensor *other, GError **error);

/* convolution */
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_conv2d       (GnnTensor *input, GnnTensor *weight, GnnTensor *bias, const gint64 *stride,
                                    const gint64 *padding, const gint64 *dilation, gint64 groups, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_conv1d       (GnnTensor *input, GnnTensor *weight, GnnTensor *bias, gint64 stride,
                                    gint64 padding, gint64 dilation, gint64 groups, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_conv_transpose2d (GnnTensor *input, GnnTensor *weight, GnnTensor *bias, const gint64 *stride,
                                        const gint64 *padding, const gint64 *output_padding, gint64 groups,
                                        const gint64 *dilation, GError **error);

/* pooling */
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_max_pool2d   (GnnTensor *input, const gint64 *kernel_size, const gint64 *stride,
                                    const gint64 *padding, const gint64 *dilation, gboolean ceil_mode,
                                    GnnTensor **indices, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_avg_pool2d   (GnnTensor *input, const gint64 *kernel_size, const gint64 *stride,
                                    const gint64 *padding, gboolean ceil_mode, gboolean count_include_pad,
                                    gint64 divisor_override, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_adaptive_avg_pool2d (GnnTensor *input, const gint64 *output_size, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_conv_transpose1d (GnnTensor *input, GnnTensor *weight, GnnTensor *bias, gint64 stride,
                                        gint64 padding, gint64 output_padding, gint64 groups, gint64 dilation,
                                        GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_max_pool1d   (GnnTensor *input, gint64 kernel_size, gint64 stride, gint64 padding,
                                    gint64 dilation, gboolean ceil_mode, GnnTensor **indices, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_avg_pool1d   (GnnTensor *input, gint64 kernel_size, gint64 stride, gint64 padding,
                                    gboolean ceil_mode, gboolean count_include_pad, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_adaptive_avg_pool1d (GnnTensor *input, gint64 output_size, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_lp_pool1d    (GnnTensor *input, double norm_type, gint64 kernel_size, gint64 stride,
                                    gboolean ceil_mode, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_lp_pool2d    (GnnTensor *input, double norm_type, const gint64 *kernel_size,
                                    const gint64 *stride, gboolean ceil_mode, GError **error);

/* 3-d convolution and pooling */
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_conv3d       (GnnTensor *input, GnnTensor *weight, GnnTensor *bias, const gint64 *stride,
                                    const gint64 *padding, const gint64 *dilation, gint64 groups, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_conv_transpose3d (GnnTensor *input, GnnTensor *weight, GnnTensor *bias, const gint64 *stride,
                                        const gint64 *padding, const gint64 *output_padding, gint64 groups,
                                        const gint64 *dilation, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_max_pool3d   (GnnTensor *input, const gint64 *kernel_size, const gint64 *stride,
                                    const gint64 *padding, const gint64 *dilation, gboolean ceil_mode,
                                    GnnTensor **indices, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_avg_pool3d   (GnnTensor *input, const gint64 *kernel_size, const gint64 *stride,
                                    const gint64 *padding, gboolean ceil_mode, gboolean count_include_pad,
                                    gint64 divisor_override, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_adaptive_avg_pool3d (GnnTensor *input, const gint64 *output_size, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_adaptive_max_pool3d (GnnTensor *input, const gint64 *output_size, GnnTensor **indices,
                                          GError **error);

/* reductions */
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_sum          (GnnTensor *self, const int *dims, guint n_dims, gboolean keepdim, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_sum_all      (GnnTensor *self, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_mean         (GnnTensor *self, const int *dims, guint n_dims, gboolean keepdim, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_mean_all     (GnnTensor *self, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_var          (GnnTensor *self, const int *dims, guint n_dims, double correction, gboolean keepdim, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_var_all      (GnnTensor *self, double correction, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_max_dim      (GnnTensor *self, int dim, gboolean keepdim, GnnTensor **indices, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_min_dim      (GnnTensor *self, int dim, gboolean keepdim, GnnTensor **indices, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_max_all      (GnnTensor *self, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_min_all      (GnnTensor *self, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_amax         (GnnTensor *self, const int *dims, guint n_dims, gboolean keepdim, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_amin         (GnnTensor *self, const int *dims, guint n_dims, gboolean keepdim, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_argmax       (GnnTensor *self, int dim, gboolean keepdim, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_argmax_all   (GnnTensor *self, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_argmin       (GnnTensor *self, int dim, gboolean keepdim, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_logsumexp    (GnnTensor *self, const int *dims, guint n_dims, gboolean keepdim, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_prod         (GnnTensor *self, int dim, gboolean keepdim, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_prod_all     (GnnTensor *self, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_all          (GnnTensor *self, const int *dims, guint n_dims, gboolean keepdim, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_any          (GnnTensor *self, const int *dims, guint n_dims, gboolean keepdim, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_count_nonzero (GnnTensor *self, const int *dims, guint n_dims, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_nansum       (GnnTensor *self, const int *dims, guint n_dims, gboolean keepdim, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_nanmean      (GnnTensor *self, const int *dims, guint n_dims, gboolean keepdim, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_var_mean     (GnnTensor *self, const int *dims, guint n_dims, double correction,
                                    gboolean keepdim, GnnTensor **mean, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_std_mean     (GnnTensor *self, const int *dims, guint n_dims, double correction,
                                    gboolean keepdim, GnnTensor **mean, GError **error);

/* norms and distances */
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_linalg_vector_norm  (GnnTensor *self, double ord, const int *dims, guint n_dims, gboolean keepdim,
                                    GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_norm         (GnnTensor *self, double p, const int *dims, guint n_dims, gboolean keepdim,
                                    GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_linalg_matrix_norm  (GnnTensor *self, double ord, int dim0, int dim1, gboolean keepdim,
                                    GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_linalg_matrix_norm_str (GnnTensor *self, const char *ord, int dim0, int dim1, gboolean keepdim,
                                       GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_normalize    (GnnTensor *self, double p, int dim, double eps, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_dist         (GnnTensor *self, GnnTensor *other, double p, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_cdist        (GnnTensor *x1, GnnTensor *x2, double p, GError **error);

/* scans */
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_cumsum       (GnnTensor *self, int dim, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_cumprod      (GnnTensor *self, int dim, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_logcumsumexp (GnnTensor *self, int dim, GError **error);

/* sorting */
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_sort         (GnnTensor *self, int dim, gboolean descending, gboolean stable,
                                    GnnTensor **indices, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_argsort      (GnnTensor *self, int dim, gboolean descending, gboolean stable,
                                    GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_topk         (GnnTensor *self, gint64 k, int dim, gboolean largest, gboolean sorted,
                                    GnnTensor **indices, GError **error);

/* sampling */
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_multinomial  (GnnTensor *self, gint64 num_samples, gboolean replacement,
                                    GnnGenerator *generator, GError **error);

/* views and shapes */
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_view         (GnnTensor *self, const gint64 *shape, guint ndim, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_reshape      (GnnTensor *self, const gint64 *shape, guint ndim, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_transpose    (GnnTensor *self, int dim0, int dim1, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_t            (GnnTensor *self, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_permute      (GnnTensor *self, const int *dims, guint n_dims, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_narrow       (GnnTensor *self, int dim, gint64 start, gint64 length, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_select       (GnnTensor *self, int dim, gint64 index, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_slice        (GnnTensor *self, int dim, gint64 start, gint64 end, gint64 step, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_expand       (GnnTensor *self, const gint64 *shape, guint ndim, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_unsqueeze    (GnnTensor *self, int dim, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_squeeze      (GnnTensor *self, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_squeeze_dim  (GnnTensor *self, int dim, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_flatten      (GnnTensor *self, int start_dim, int end_dim, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_contiguous   (GnnTensor *self, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_clone        (GnnTensor *self, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_to_dtype     (GnnTensor *self, GnnDtype dtype, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_to_device    (GnnTensor *self, const char *device, GError **error);
GNN_AVAILABLE_IN_ALL
GPtrArray *gnn_tensor_split        (GnnTensor *self, gint64 split_size, int dim, GError **error);
GNN_AVAILABLE_IN_ALL
GPtrArray *gnn_tensor_split_with_sizes (GnnTensor *self, const gint64 *sizes, guint n_sizes, int dim, GError **error);
GNN_AVAILABLE_IN_ALL
GPtrArray *gnn_tensor_chunk        (GnnTensor *self, gint64 chunks, int dim, GError **error);
GNN_AVAILABLE_IN_ALL
GPtrArray *gnn_tensor_tensor_split (GnnTensor *self, gint64 sections, int dim, GError **error);
GNN_AVAILABLE_IN_ALL
GPtrArray *gnn_tensor_tensor_split_indices (GnnTensor *self, const gint64 *indices, guint n_indices, int dim,
                                            GError **error);
GNN_AVAILABLE_IN_ALL
GPtrArray *gnn_tensor_unbind       (GnnTensor *self, int dim, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_movedim      (GnnTensor *self, const int *source, guint n_source, const int *destination,
                                    guint n_destination, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_expand_as    (GnnTensor *self, GnnTensor *other, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_diagonal     (GnnTensor *self, gint64 offset, int dim1, int dim2, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_pad          (GnnTensor *self, const gint64 *pad, guint n_pad, const char *mode, double value,
                                    GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_flip         (GnnTensor *self, const int *dims, guint n_dims, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_roll         (GnnTensor *self, const gint64 *shifts, guint n_shifts, const int *dims,
                                    guint n_dims, GError **error);

/* joining and indexing */
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_cat                 (GnnTensor **tensors, guint n_tensors, int dim, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_stack               (GnnTensor **tensors, guint n_tensors, int dim, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_index_select (GnnTensor *self, int dim, GnnTensor *index, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_gather       (GnnTensor *self, int dim, GnnTensor *index, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_one_hot      (GnnTensor *self, gint64 num_classes, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_masked_fill  (GnnTensor *self, GnnTensor *mask, double value, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_masked_fill_tensor (GnnTensor *self, GnnTensor *mask, GnnTensor *value, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_tril         (GnnTensor *self, gint64 diagonal, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_triu         (GnnTensor *self, gint64 diagonal, GError **error);

/* scattering (gnn-ops-scatter.c) */
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_scatter      (GnnTensor *self, int dim, GnnTensor *index, GnnTensor *src, const char *reduce,
                                    GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_scatter_value (GnnTensor *self, int dim, GnnTensor *index, double value, const char *reduce,
                                     GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_scatter_add  (GnnTensor *self, int dim, GnnTensor *index, GnnTensor *src, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_scatter_reduce (GnnTensor *self, int dim, GnnTensor *index, GnnTensor *src,
                                      const char *reduce, gboolean include_self, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_index_copy   (GnnTensor *self, int dim, GnnTensor *index, GnnTensor *source, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_index_fill   (GnnTensor *self, int dim, GnnTensor *index, double value, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_index_fill_tensor (GnnTensor *self, int dim, GnnTensor *index, GnnTensor *value,
                                         GError **error);

/* in place */
GNN_AVAILABLE_IN_ALL
gboolean   gnn_tensor_add_         (GnnTensor *self, GnnTensor *other, double alpha, GError **error);
GNN_AVAILABLE_IN_ALL
gboolean   gnn_tensor_sub_         (GnnTensor *self, GnnTensor *other, double alpha, GError **error);
GNN_AVAILABLE_IN_ALL
gboolean   gnn_tensor_mul_         (GnnTensor *self, GnnTensor *other, GError **error);
GNN_AVAILABLE_IN_ALL
gboolean   gnn_tensor_div_         (GnnTensor *self, GnnTensor *other, GError **error);
GNN_AVAILABLE_IN_ALL
gboolean   gnn_tensor_add_scalar_  (GnnTensor *self, double other, GError **error);
GNN_AVAILABLE_IN_ALL
gboolean   gnn_tensor_mul_scalar_  (GnnTensor *self, double other, GError **error);
GNN_AVAILABLE_IN_ALL
gboolean   gnn_tensor_div_scalar_  (GnnTensor *self, double other, GError **error);
GNN_AVAILABLE_IN_ALL
gboolean   gnn_tensor_sqrt_        (GnnTensor *self, GError **error);
GNN_AVAILABLE_IN_ALL
gboolean   gnn_tensor_maximum_     (GnnTensor *self, GnnTensor *other, GError **error);
GNN_AVAILABLE_IN_ALL
gboolean   gnn_tensor_lerp_        (GnnTensor *self, GnnTensor *end, double weight, GError **error);
GNN_AVAILABLE_IN_ALL
gboolean   gnn_tensor_addcmul_     (GnnTensor *self, GnnTensor *tensor1, GnnTensor *tensor2, double value, GError **error);
GNN_AVAILABLE_IN_ALL
gboolean   gnn_tensor_addcdiv_     (GnnTensor *self, GnnTensor *tensor1, GnnTensor *tensor2, double value, GError **error);
GNN_AVAILABLE_IN_ALL
gboolean   gnn_tensor_copy_        (GnnTensor *self, GnnTensor *src, GError **error);
GNN_AVAILABLE_IN_ALL
gboolean   gnn_tensor_fill_        (GnnTensor *self, double value, GError **error);
GNN_AVAILABLE_IN_ALL
gboolean   gnn_tensor_zero_        (GnnTensor *self, GError **error);

/* multi-tensor (torch._foreach_*) */
GNN_AVAILABLE_IN_ALL
gboolean   gnn_foreach_lerp_       (GnnTensor **self, GnnTensor **end, guint n, double weight, GError **error);

/* the elementwise math functions (gnn-ops-math.c) */
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_reciprocal     (GnnTensor *self, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_rsqrt          (GnnTensor *self, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_log1p          (GnnTensor *self, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_expm1          (GnnTensor *self, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_log2           (GnnTensor *self, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_log10          (GnnTensor *self, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_sin            (GnnTensor *self, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_cos            (GnnTensor *self, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_tan            (GnnTensor *self, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_asin           (GnnTensor *self, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_acos           (GnnTensor *self, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_atan           (GnnTensor *self, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_sinh           (GnnTensor *self, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_cosh           (GnnTensor *self, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_asinh          (GnnTensor *self, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_acosh          (GnnTensor *self, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_atanh          (GnnTensor *self, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_erf            (GnnTensor *self, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_erfc           (GnnTensor *self, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_erfinv         (GnnTensor *self, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_lgamma         (GnnTensor *self, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_floor          (GnnTensor *self, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_ceil           (GnnTensor *self, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_round          (GnnTensor *self, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_trunc          (GnnTensor *self, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_frac           (GnnTensor *self, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_digamma        (GnnTensor *self, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_square         (GnnTensor *self, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_polygamma    (GnnTensor *self, int n, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_round_decimals (GnnTensor *self, int decimals, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_logit        (GnnTensor *self, double eps, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_softplus     (GnnTensor *self, double beta, double threshold, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_hardsigmoid  (GnnTensor *self, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_hardswish    (GnnTensor *self, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_mish         (GnnTensor *self, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_celu         (GnnTensor *self, double alpha, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_selu         (GnnTensor *self, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_logsigmoid   (GnnTensor *self, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_hardshrink   (GnnTensor *self, double lambd, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_softshrink   (GnnTensor *self, double lambd, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_threshold    (GnnTensor *self, double threshold, double value, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_glu          (GnnTensor *self, int dim, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_prelu        (GnnTensor *self, GnnTensor *weight, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_rrelu        (GnnTensor *self, double lower, double upper, gboolean training,
                                    GnnGenerator *generator, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_atan2          (GnnTensor *self, GnnTensor *other, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_fmod           (GnnTensor *self, GnnTensor *other, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_remainder      (GnnTensor *self, GnnTensor *other, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_floor_divide   (GnnTensor *self, GnnTensor *other, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_xlogy          (GnnTensor *self, GnnTensor *other, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_copysign       (GnnTensor *self, GnnTensor *other, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_fmax           (GnnTensor *self, GnnTensor *other, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_fmin           (GnnTensor *self, GnnTensor *other, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_logaddexp      (GnnTensor *self, GnnTensor *other, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_logaddexp2     (GnnTensor *self, GnnTensor *other, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_nextafter      (GnnTensor *self, GnnTensor *other, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_heaviside      (GnnTensor *self, GnnTensor *values, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_float_power    (GnnTensor *self, GnnTensor *exponent, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_ldexp          (GnnTensor *self, GnnTensor *other, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_exp2           (GnnTensor *self, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_sinc           (GnnTensor *self, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_deg2rad        (GnnTensor *self, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_rad2deg        (GnnTensor *self, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_signbit        (GnnTensor *self, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_sgn            (GnnTensor *self, GError **error);

/* the special functions (torch.special) */
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_i0             (GnnTensor *self, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_special_i0e           (GnnTensor *input, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_special_i1            (GnnTensor *input, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_special_i1e           (GnnTensor *input, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_special_ndtr          (GnnTensor *input, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_special_ndtri         (GnnTensor *input, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_special_log_ndtr      (GnnTensor *input, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_special_erfcx         (GnnTensor *input, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_special_entr          (GnnTensor *input, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_special_xlog1py       (GnnTensor *input, GnnTensor *other, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_special_zeta          (GnnTensor *input, GnnTensor *other, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_mvlgamma       (GnnTensor *self, int p, GError **error);

/* diagonals, quarter turns, differences, triangles (gnn-ops-diag.c) */
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_diag_embed     (GnnTensor *self, gint64 offset, int dim1, int dim2, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_diag           (GnnTensor *self, gint64 diagonal, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_diagflat       (GnnTensor *self, gint64 offset, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_trace          (GnnTensor *self, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_rot90          (GnnTensor *self, int k, const int *dims, guint n_dims, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_diff           (GnnTensor *self, int n, int dim, GnnTensor *prepend, GnnTensor *append,
                                      GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tril_indices          (gint64 row, gint64 col, gint64 offset, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_triu_indices          (gint64 row, gint64 col, gint64 offset, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_block_diag            (GnnTensor **tensors, guint n_tensors, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_cartesian_prod        (GnnTensor **tensors, guint n_tensors, GError **error);

/* numerical compositions (gnn-ops-numeric.c) */
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_cov            (GnnTensor *self, gint64 correction, GnnTensor *fweights, GnnTensor *aweights,
                                      GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_corrcoef       (GnnTensor *self, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_inner          (GnnTensor *self, GnnTensor *other, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_vander         (GnnTensor *self, gint64 n, gboolean increasing, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_trapezoid      (GnnTensor *self, GnnTensor *x, double dx, int dim, GError **error);

/* linear algebra through LAPACK (torch.linalg) */
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_linalg_solve        (GnnTensor *A, GnnTensor *B, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_linalg_inv          (GnnTensor *A, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_linalg_det          (GnnTensor *A, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_linalg_slogdet      (GnnTensor *A, GnnTensor **logabsdet, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_linalg_matrix_exp   (GnnTensor *A, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_linalg_householder_product (GnnTensor *A, GnnTensor *tau, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_linalg_cholesky     (GnnTensor *A, gboolean upper, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_linalg_qr           (GnnTensor *A, const char *mode, GnnTensor **R, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_linalg_eigh         (GnnTensor *A, gboolean upper, GnnTensor **eigenvectors, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_linalg_eigvalsh     (GnnTensor *A, gboolean upper, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_linalg_svd          (GnnTensor *A, gboolean full_matrices, GnnTensor **S, GnnTensor **Vh,
                                    GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_linalg_svdvals      (GnnTensor *A, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_linalg_lu_factor_ex (GnnTensor *A, GnnTensor **pivots, GnnTensor **info, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_linalg_solve_triangular (GnnTensor *A, GnnTensor *B, gboolean upper, gboolean unitriangular,
                                        GError **error);

/* the functional norms (torch.nn.functional.batch_norm, ...): what the norm layers run */
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_batch_norm   (GnnTensor *self, GnnTensor *running_mean, GnnTensor *running_var,
                                    GnnTensor *weight, GnnTensor *bias, gboolean training, double momentum,
                                    double eps, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_instance_norm (GnnTensor *self, GnnTensor *running_mean, GnnTensor *running_var,
                                     GnnTensor *weight, GnnTensor *bias, gboolean use_input_stats,
                                     double momentum, double eps, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_layer_norm   (GnnTensor *self, const gint64 *normalized_shape, guint n_dims,
                                    GnnTensor *weight, GnnTensor *bias, double eps, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_group_norm   (GnnTensor *self, gint64 num_groups, GnnTensor *weight, GnnTensor *bias,
                                    double eps, GError **error);

/* the floating-point predicates (gnn-ops-predicates.c) */
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_isnan        (GnnTensor *self, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_isinf        (GnnTensor *self, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_isposinf     (GnnTensor *self, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_isneginf     (GnnTensor *self, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_isfinite     (GnnTensor *self, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_isreal       (GnnTensor *self, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_nan_to_num   (GnnTensor *self, double nan, double posinf, double neginf, GError **error);

/* attention (torch.nn.functional.scaled_dot_product_attention) */
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_scaled_dot_product_attention (GnnTensor *query, GnnTensor *key, GnnTensor *value,
                                             GnnTensor *attn_mask, double dropout_p, gboolean is_causal,
                                             double scale, GError **error);

/* bitwise, integer and logical ops (gnn-ops-bitwise.c) */
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_bitwise_and         (GnnTensor *self, GnnTensor *other, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_bitwise_or          (GnnTensor *self, GnnTensor *other, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_bitwise_xor         (GnnTensor *self, GnnTensor *other, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_bitwise_not         (GnnTensor *self, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_bitwise_left_shift  (GnnTensor *self, GnnTensor *other, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_bitwise_right_shift (GnnTensor *self, GnnTensor *other, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_gcd                 (GnnTensor *self, GnnTensor *other, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_lcm                 (GnnTensor *self, GnnTensor *other, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_logical_and         (GnnTensor *self, GnnTensor *other, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_logical_or          (GnnTensor *self, GnnTensor *other, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_logical_xor         (GnnTensor *self, GnnTensor *other, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_logical_not         (GnnTensor *self, GError **error);
/* order statistics along one dimension (gnn-ops-order.c) */
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_kthvalue     (GnnTensor *self, gint64 k, int dim, gboolean keepdim, GnnTensor **indices,
                                    GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_median       (GnnTensor *self, int dim, gboolean keepdim, GnnTensor **indices, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_median_all   (GnnTensor *self, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_nanmedian    (GnnTensor *self, int dim, gboolean keepdim, GnnTensor **indices,
                                    GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_nanmedian_all (GnnTensor *self, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_mode         (GnnTensor *self, int dim, gboolean keepdim, GnnTensor **indices, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_cummax       (GnnTensor *self, int dim, GnnTensor **indices, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_cummin       (GnnTensor *self, int dim, GnnTensor **indices, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_aminmax      (GnnTensor *self, const int *dims, guint n_dims, gboolean keepdim,
                                    GnnTensor **max, GError **error);
/* repeating, taking and selecting with masks (gnn-ops-select.c) */
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_repeat       (GnnTensor *self, const gint64 *repeats, guint n_repeats, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_tile         (GnnTensor *self, const gint64 *dims, guint n_dims, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_repeat_interleave (GnnTensor *self, GnnTensor *repeats, int dim, gboolean flatten,
                                         gint64 output_size, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_repeat_interleave_int (GnnTensor *self, gint64 repeats, int dim, gboolean flatten,
                                             gint64 output_size, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_repeat_interleave_counts (GnnTensor *repeats, gint64 output_size, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_take         (GnnTensor *self, GnnTensor *index, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_take_along_dim (GnnTensor *self, GnnTensor *indices, int dim, gboolean flatten,
                                      GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_masked_select (GnnTensor *self, GnnTensor *mask, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_masked_scatter (GnnTensor *self, GnnTensor *mask, GnnTensor *source, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_nonzero      (GnnTensor *self, GError **error);
GNN_AVAILABLE_IN_ALL
GPtrArray *gnn_tensor_nonzero_tuple (GnnTensor *self, GError **error);
/* resampling (torch.nn.functional.interpolate) */
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_interpolate  (GnnTensor *input, const gint64 *size, guint n_size, const double *scale_factor,
                                    guint n_scale_factor, const char *mode, gboolean align_corners,
                                    gboolean recompute_scale_factor, gboolean antialias, GError **error);
/* stacking, splitting, grids and broadcasting composed of other ops (gnn-ops-compose.c) */
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_atleast_1d   (GnnTensor *self, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_atleast_2d   (GnnTensor *self, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_atleast_3d   (GnnTensor *self, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_hstack              (GnnTensor **tensors, guint n_tensors, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_vstack              (GnnTensor **tensors, guint n_tensors, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_dstack              (GnnTensor **tensors, guint n_tensors, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_column_stack        (GnnTensor **tensors, guint n_tensors, GError **error);
GNN_AVAILABLE_IN_ALL
GPtrArray *gnn_tensor_hsplit       (GnnTensor *self, gint64 sections, GError **error);
GNN_AVAILABLE_IN_ALL
GPtrArray *gnn_tensor_hsplit_indices (GnnTensor *self, const gint64 *indices, guint n_indices, GError **error);
GNN_AVAILABLE_IN_ALL
GPtrArray *gnn_tensor_vsplit       (GnnTensor *self, gint64 sections, GError **error);
GNN_AVAILABLE_IN_ALL
GPtrArray *gnn_tensor_vsplit_indices (GnnTensor *self, const gint64 *indices, guint n_indices, GError **error);
GNN_AVAILABLE_IN_ALL
GPtrArray *gnn_tensor_dsplit       (GnnTensor *self, gint64 sections, GError **error);
GNN_AVAILABLE_IN_ALL
GPtrArray *gnn_tensor_dsplit_indices (GnnTensor *self, const gint64 *indices, guint n_indices, GError **error);
GNN_AVAILABLE_IN_ALL
GPtrArray *gnn_meshgrid            (GnnTensor **tensors, guint n_tensors, const char *indexing, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_broadcast_to (GnnTensor *self, const gint64 *shape, guint ndim, GError **error);
GNN_AVAILABLE_IN_ALL
GPtrArray *gnn_broadcast_tensors   (GnnTensor **tensors, guint n_tensors, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_unflatten    (GnnTensor *self, int dim, const gint64 *sizes, guint n_sizes, GError **error);

/* closeness (gnn-ops-predicates.c) */
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_isclose      (GnnTensor *self, GnnTensor *other, double rtol, double atol,
                                    gboolean equal_nan, GError **error);
GNN_AVAILABLE_IN_ALL
gboolean   gnn_tensor_allclose     (GnnTensor *self, GnnTensor *other, double rtol, double atol,
                                    gboolean equal_nan, GError **error);
GNN_AVAILABLE_IN_ALL
gboolean   gnn_tensor_equal        (GnnTensor *self, GnnTensor *other, GError **error);


/* torch's in-place write of an out-of-place result (gnn-ops-binary.c) */
GNN_AVAILABLE_IN_ALL
gboolean   gnn_tensor_write_back_  (GnnTensor *self, GnnTensor *result, GError **error);
/* unfold and fold (gnn-ops-conv.c): im2col and col2im with autograd */
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_im2col       (GnnTensor *self, const gint64 *kernel_size, const gint64 *dilation,
                                    const gint64 *padding, const gint64 *stride, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_col2im       (GnnTensor *self, const gint64 *output_size, const gint64 *kernel_size,
                                    const gint64 *dilation, const gint64 *padding, const gint64 *stride,
                                    GError **error);
/* the connectionist temporal classification loss, unreduced (gnn-ops-ctc.c) */
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_ctc_loss_nll (GnnTensor *log_probs, GnnTensor *targets, const gint64 *input_lengths,
                                    guint n_input_lengths, const gint64 *target_lengths, guint n_target_lengths,
                                    gint64 blank, gboolean zero_infinity, GError **error);

/* views of any geometry: sliding windows and as_strided (gnn-ops-shape.c) */
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_unfold       (GnnTensor *self, int dim, gint64 size, gint64 step, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_as_strided   (GnnTensor *self, const gint64 *size, guint n_size, const gint64 *stride,
                                    guint n_stride, gint64 storage_offset, GError **error);

/* unique, bincount, histograms, searchsorted, frexp, isin, quantile (gnn-ops-search.c) */
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_unique       (GnnTensor *self, gboolean sorted, GnnTensor **inverse, GnnTensor **counts,
                                    GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_unique_dim   (GnnTensor *self, int dim, gboolean sorted, GnnTensor **inverse,
                                    GnnTensor **counts, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_unique_consecutive (GnnTensor *self, GnnTensor **inverse, GnnTensor **counts, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_unique_consecutive_dim (GnnTensor *self, int dim, GnnTensor **inverse, GnnTensor **counts,
                                              GError **error);

GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_bincount     (GnnTensor *self, GnnTensor *weights, gint64 minlength, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_histc        (GnnTensor *self, gint64 bins, double min, double max, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_histogram    (GnnTensor *self, gint64 bins, gboolean has_range, double range_min,
                                    double range_max, GnnTensor *weight, gboolean density, GnnTensor **bin_edges,
                                    GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_histogram_bins (GnnTensor *self, GnnTensor *bins, GnnTensor *weight, gboolean density,
                                      GnnTensor **bin_edges, GError **error);

GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_searchsorted (GnnTensor *sorted_sequence, GnnTensor *values, gboolean out_int32,
                                    gboolean right, GnnTensor *sorter, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_bucketize    (GnnTensor *self, GnnTensor *boundaries, gboolean out_int32, gboolean right,
                                    GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_isin         (GnnTensor *self, GnnTensor *test_elements, gboolean assume_unique,
                                    gboolean invert, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_frexp        (GnnTensor *self, GnnTensor **exponent, GError **error);

GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_quantile     (GnnTensor *self, GnnTensor *q, gboolean has_dim, int dim, gboolean keepdim,
                                    const char *interpolation, GError **error);
GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_tensor_nanquantile  (GnnTensor *self, GnnTensor *q, gboolean has_dim, int dim, gboolean keepdim,
                                    const char *interpolation, GError **error);

G_END_DECLS
