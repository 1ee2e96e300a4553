/* gnn-packed-sequence.h: packed variable-length sequences, as torch.nn.utils.rnn
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

G_BEGIN_DECLS

#define GNN_TYPE_PACKED_SEQUENCE (gnn_packed_sequence_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnPackedSequence, gnn_packed_sequence, GNN, PACKED_SEQUENCE, GObject)

GNN_AVAILABLE_IN_ALL
GnnPackedSequence *gnn_packed_sequence_new                  (GnnTensor          *data,
                                                             GnnTensor          *batch_sizes,
                                                             GnnTensor          *sorted_indices,
                                                             GnnTensor          *unsorted_indices,
                                                             GError            **error);
GNN_AVAILABLE_IN_ALL
GnnTensor         *gnn_packed_sequence_get_data             (GnnPackedSequence  *self);
GNN_AVAILABLE_IN_ALL
GnnTensor         *gnn_packed_sequence_get_batch_sizes      (GnnPackedSequence  *self);
GNN_AVAILABLE_IN_ALL
GnnTensor         *gnn_packed_sequence_get_sorted_indices   (GnnPackedSequence  *self);
GNN_AVAILABLE_IN_ALL
GnnTensor         *gnn_packed_sequence_get_unsorted_indices (GnnPackedSequence  *self);

GNN_AVAILABLE_IN_ALL
GnnPackedSequence *gnn_pack_padded_sequence                 (GnnTensor          *input,
                                                             GnnTensor          *lengths,
                                                             gboolean            batch_first,
                                                             gboolean            enforce_sorted,
                                                             GError            **error);
GNN_AVAILABLE_IN_ALL
GnnTensor         *gnn_pad_packed_sequence                  (GnnPackedSequence  *sequence,
                                                             gboolean            batch_first,
                                                             double              padding_value,
                                                             gint64              total_length,
                                                             GnnTensor         **lengths,
                                                             GError            **error);
GNN_AVAILABLE_IN_ALL
GnnTensor         *gnn_pad_sequence                         (GnnTensor         **sequences,
                                                             guint               n_sequences,
                                                             gboolean            batch_first,
                                                             double              padding_value,
                                                             GError            **error);
GNN_AVAILABLE_IN_ALL
GnnPackedSequence *gnn_pack_sequence                        (GnnTensor         **sequences,
                                                             guint               n_sequences,
                                                             gboolean            enforce_sorted,
                                                             GError            **error);
GNN_AVAILABLE_IN_ALL
GPtrArray         *gnn_unpad_sequence                       (GnnTensor          *padded,
                                                             GnnTensor          *lengths,
                                                             gboolean            batch_first,
                                                             GError            **error);
GNN_AVAILABLE_IN_ALL
GPtrArray         *gnn_unpack_sequence                      (GnnPackedSequence  *sequence,
                                                             GError            **error);

G_END_DECLS
