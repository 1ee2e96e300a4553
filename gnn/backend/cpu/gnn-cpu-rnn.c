/* gnn-cpu-rnn.c: the recurrent-cell kernels of the CPU backend
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * LSTM_CELL, GRU_CELL and their backwards: one pass over a step's gates, row by row of the
 * batch, on contiguous operands (the op table gives the layouts).
 */
#include "config.h"

#include <math.h>

#include "gnn-cpu-private.h"

typedef struct {
  const GnnKernelArgs *args;
  gint64 h;
} RnnCtx;

#define T float
#define NAME(x) x##_f32
#define M(fn) fn##f
#include "gnn-cpu-rnn-tmpl.c"
#define T double
#define NAME(x) x##_f64
#define M(fn) fn
#include "gnn-cpu-rnn-tmpl.c"

static gboolean
contiguous (const GnnKernelTensor *t)
{
  gint64 expect = 1;

  for (guint d = t->ndim; d-- > 0;)
    {
      if (t->shape[d] != 1 && t->strides[d] != expect)
        return FALSE;
      expect *= t->shape[d];
    }
  return TRUE;
}

static gboolean
k_rnn_cell (const GnnKernelArgs *args, GError **error)
{
  GnnDtype dt = args->out->dtype;
  gboolean f32 = dt == GNN_DTYPE_FLOAT32;
  gboolean lstm = args->op == GNN_BACKEND_OP_LSTM_CELL || args->op == GNN_BACKEND_OP_LSTM_CELL_BACKWARD;
  GnnParallelFunc fn;
  RnnCtx ctx = { args, 0 };
  gint64 rows;

  if (dt != GNN_DTYPE_FLOAT32 && dt != GNN_DTYPE_FLOAT64)
    return gnn_cpu_unsupported (args, error);
  if (!contiguous (args->out) || (args->out2 && !contiguous (args->out2)))
    return gnn_cpu_unsupported (args, error);
  for (guint k = 0; k < args->n_in; k++)
    if (args->in[k] == NULL || args->in[k]->dtype != dt || !contiguous (args->in[k]))
      return gnn_cpu_unsupported (args, error);
  rows = args->in[0]->shape[0];
  ctx.h = lstm ? args->in[0]->shape[1] / 4 : args->in[0]->shape[1] / 3;
  switch (args->op)
    {
    case GNN_BACKEND_OP_LSTM_CELL:
      fn = f32 ? lstm_cell_f32 : lstm_cell_f64;
      break;
    case GNN_BACKEND_OP_LSTM_CELL_BACKWARD:
      fn = f32 ? lstm_cell_backward_f32 : lstm_cell_backward_f64;
      break;
    case GNN_BACKEND_OP_GRU_CELL:
      fn = f32 ? gru_cell_f32 : gru_cell_f64;
      break;
    default:
      fn = f32 ? gru_cell_backward_f32 : gru_cell_backward_f64;
      break;
    }
  gnn_parallel_for (rows, MAX (1, GNN_CPU_GRAIN / MAX (ctx.h * 8, 1)), fn, &ctx);
  return TRUE;
}

void
gnn_cpu_register_rnn (GnnCpuKernel *table)
{
  table[GNN_BACKEND_OP_LSTM_CELL] = k_rnn_cell;
  table[GNN_BACKEND_OP_LSTM_CELL_BACKWARD] = k_rnn_cell;
  table[GNN_BACKEND_OP_GRU_CELL] = k_rnn_cell;
  table[GNN_BACKEND_OP_GRU_CELL_BACKWARD] = k_rnn_cell;
}
