/* gnn-attention.h: multi-head attention, as torch.nn.MultiheadAttention and
 * torch.nn.functional.multi_head_attention_forward
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
#include "gnn-module.h"

G_BEGIN_DECLS

GNN_AVAILABLE_IN_ALL
GnnTensor *gnn_multi_head_attention_forward (GnnTensor  *query,
                                             GnnTensor  *key,
                                             GnnTensor  *value,
                                             int         embed_dim_to_check,
                                             int         num_heads,
                                             GnnTensor  *in_proj_weight,
                                             GnnTensor  *in_proj_bias,
                                             GnnTensor  *bias_k,
                                             GnnTensor  *bias_v,
                                             gboolean    add_zero_attn,
                                             double      dropout_p,
                                             GnnTensor  *out_proj_weight,
                                             GnnTensor  *out_proj_bias,
                                             gboolean    training,
                                             GnnTensor  *key_padding_mask,
                                             gboolean    need_weights,
                                             GnnTensor  *attn_mask,
                                             GnnTensor  *q_proj_weight,
                                             GnnTensor  *k_proj_weight,
                                             GnnTensor  *v_proj_weight,
                                             gboolean    average_attn_weights,
                                             gboolean    is_causal,
                                             GnnTensor **attn_weights,
                                             GError    **error);

#define GNN_TYPE_NON_DYNAMICALLY_QUANTIZABLE_LINEAR (gnn_non_dynamically_quantizable_linear_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnNonDynamicallyQuantizableLinear, gnn_non_dynamically_quantizable_linear, GNN,
                      NON_DYNAMICALLY_QUANTIZABLE_LINEAR, GnnModule)

#define GNN_TYPE_MULTIHEAD_ATTENTION (gnn_multihead_attention_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnMultiheadAttention, gnn_multihead_attention, GNN, MULTIHEAD_ATTENTION, GnnModule)

GNN_AVAILABLE_IN_ALL
GnnMultiheadAttention *gnn_multihead_attention_new           (int                    embed_dim,
                                                              int                    num_heads,
                                                              GError               **error);
GNN_AVAILABLE_IN_ALL
int                    gnn_multihead_attention_get_embed_dim (GnnMultiheadAttention *self);
GNN_AVAILABLE_IN_ALL
int                    gnn_multihead_attention_get_num_heads (GnnMultiheadAttention *self);

G_END_DECLS
