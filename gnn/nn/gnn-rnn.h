/* gnn-rnn.h: recurrent layers and cells, as torch.nn.RNN, LSTM, GRU, RNNCell, LSTMCell and GRUCell
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

#define GNN_TYPE_RNN_BASE (gnn_rnn_base_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_DERIVABLE_TYPE (GnnRNNBase, gnn_rnn_base, GNN, RNN_BASE, GnnModule)

/**
 * GnnRNNBaseClass:
 * @parent_class: the parent class
 *
 * The class of [class@Gnn.RNNBase].
 */
struct _GnnRNNBaseClass
{
  GnnModuleClass parent_class;

  /*< private >*/
  gpointer padding[8];
};

GNN_AVAILABLE_IN_ALL
int       gnn_rnn_base_get_input_size     (GnnRNNBase *self);
GNN_AVAILABLE_IN_ALL
int       gnn_rnn_base_get_hidden_size    (GnnRNNBase *self);
GNN_AVAILABLE_IN_ALL
int       gnn_rnn_base_get_num_layers     (GnnRNNBase *self);
GNN_AVAILABLE_IN_ALL
gboolean  gnn_rnn_base_get_bidirectional  (GnnRNNBase *self);
GNN_AVAILABLE_IN_ALL
gboolean  gnn_rnn_base_get_batch_first    (GnnRNNBase *self);
GNN_AVAILABLE_IN_ALL
int       gnn_rnn_base_get_proj_size      (GnnRNNBase *self);
GNN_AVAILABLE_IN_ALL
void      gnn_rnn_base_flatten_parameters (GnnRNNBase *self);

#define GNN_TYPE_RNN (gnn_rnn_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnRNN, gnn_rnn, GNN, RNN, GnnRNNBase)

GNN_AVAILABLE_IN_ALL
GnnRNN   *gnn_rnn_new  (int input_size, int hidden_size, int num_layers, GError **error);

#define GNN_TYPE_LSTM (gnn_lstm_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnLSTM, gnn_lstm, GNN, LSTM, GnnRNNBase)

GNN_AVAILABLE_IN_ALL
GnnLSTM  *gnn_lstm_new (int input_size, int hidden_size, int num_layers, GError **error);

#define GNN_TYPE_GRU (gnn_gru_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnGRU, gnn_gru, GNN, GRU, GnnRNNBase)

GNN_AVAILABLE_IN_ALL
GnnGRU   *gnn_gru_new  (int input_size, int hidden_size, int num_layers, GError **error);

#define GNN_TYPE_RNN_CELL_BASE (gnn_rnn_cell_base_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_DERIVABLE_TYPE (GnnRNNCellBase, gnn_rnn_cell_base, GNN, RNN_CELL_BASE, GnnModule)

/**
 * GnnRNNCellBaseClass:
 * @parent_class: the parent class
 *
 * The class of [class@Gnn.RNNCellBase].
 */
struct _GnnRNNCellBaseClass
{
  GnnModuleClass parent_class;

  /*< private >*/
  gpointer padding[8];
};

GNN_AVAILABLE_IN_ALL
int       gnn_rnn_cell_base_get_input_size  (GnnRNNCellBase *self);
GNN_AVAILABLE_IN_ALL
int       gnn_rnn_cell_base_get_hidden_size (GnnRNNCellBase *self);
GNN_AVAILABLE_IN_ALL
gboolean  gnn_rnn_cell_base_get_bias        (GnnRNNCellBase *self);

#define GNN_TYPE_RNN_CELL (gnn_rnn_cell_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnRNNCell, gnn_rnn_cell, GNN, RNN_CELL, GnnRNNCellBase)

GNN_AVAILABLE_IN_ALL
GnnRNNCell  *gnn_rnn_cell_new  (int input_size, int hidden_size, GError **error);

#define GNN_TYPE_LSTM_CELL (gnn_lstm_cell_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnLSTMCell, gnn_lstm_cell, GNN, LSTM_CELL, GnnRNNCellBase)

GNN_AVAILABLE_IN_ALL
GnnLSTMCell *gnn_lstm_cell_new (int input_size, int hidden_size, GError **error);

#define GNN_TYPE_GRU_CELL (gnn_gru_cell_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnGRUCell, gnn_gru_cell, GNN, GRU_CELL, GnnRNNCellBase)

GNN_AVAILABLE_IN_ALL
GnnGRUCell  *gnn_gru_cell_new  (int input_size, int hidden_size, GError **error);

G_END_DECLS
