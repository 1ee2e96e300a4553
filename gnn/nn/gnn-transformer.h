/* gnn-transformer.h: the Transformer layers, as torch.nn.TransformerEncoderLayer,
 * TransformerEncoder, TransformerDecoderLayer, TransformerDecoder and Transformer
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
GnnTensor *gnn_transformer_generate_square_subsequent_mask (gint64       sz,
                                                            GnnDtype     dtype,
                                                            const char  *device,
                                                            GError     **error);

#define GNN_TYPE_TRANSFORMER_ENCODER_LAYER (gnn_transformer_encoder_layer_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnTransformerEncoderLayer, gnn_transformer_encoder_layer, GNN, TRANSFORMER_ENCODER_LAYER,
                      GnnModule)

GNN_AVAILABLE_IN_ALL
GnnTransformerEncoderLayer *gnn_transformer_encoder_layer_new (int      d_model,
                                                               int      nhead,
                                                               GError **error);

#define GNN_TYPE_TRANSFORMER_ENCODER (gnn_transformer_encoder_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnTransformerEncoder, gnn_transformer_encoder, GNN, TRANSFORMER_ENCODER, GnnModule)

GNN_AVAILABLE_IN_ALL
GnnTransformerEncoder *gnn_transformer_encoder_new (GnnModule  *encoder_layer,
                                                    int         num_layers,
                                                    GnnModule  *norm,
                                                    GError    **error);

#define GNN_TYPE_TRANSFORMER_DECODER_LAYER (gnn_transformer_decoder_layer_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnTransformerDecoderLayer, gnn_transformer_decoder_layer, GNN, TRANSFORMER_DECODER_LAYER,
                      GnnModule)

GNN_AVAILABLE_IN_ALL
GnnTransformerDecoderLayer *gnn_transformer_decoder_layer_new (int      d_model,
                                                               int      nhead,
                                                               GError **error);

#define GNN_TYPE_TRANSFORMER_DECODER (gnn_transformer_decoder_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnTransformerDecoder, gnn_transformer_decoder, GNN, TRANSFORMER_DECODER, GnnModule)

GNN_AVAILABLE_IN_ALL
GnnTransformerDecoder *gnn_transformer_decoder_new (GnnModule  *decoder_layer,
                                                    int         num_layers,
                                                    GnnModule  *norm,
                                                    GError    **error);

#define GNN_TYPE_TRANSFORMER (gnn_transformer_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnTransformer, gnn_transformer, GNN, TRANSFORMER, GnnModule)

GNN_AVAILABLE_IN_ALL
GnnTransformer *gnn_transformer_new (int      d_model,
                                     int      nhead,
                                     GError **error);

G_END_DECLS
