/* gnn-cpu-rnn.c: the recurrent-cell kernels of the CPU backend
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * LSTM_CELL, GRU_CELL and their backwards: one pass over a step's gates, row by row of the
 * batch, on (B, ·) operands whose rows are contiguous (the op table gives the layouts). The
 * float kernels use gnn-cpu-fastmath.h's tanh and sigmoid (a few ulps from libm's) so that
 * their loops vectorise; the double ones call libm.
 */
#include "config.h"

#include <math.h>

#include "gnn-cpu-private.h"
#include "gnn-cpu-fastmath.h"

typedef struct {
  const GnnKernelArgs *args;
  gint64 h;
  gint64 rs[5];   /* the row strides of in0 .. in2, out, out2 */
} RnnCtx;

#define T float
#define NAME(x) x##_f32
#define M(fn) fn##f
#define FAST_FLOAT
#include "gnn-cpu-rnn-tmpl.c"
#define T double
#define NAME(x) x##_f64
#define M(fn) fn
#include "gnn-cpu-rnn-tmpl.c"

/* a (rows, cols) operand whose rows are contiguous: its row stride in *@rs */
static gboolean
rows_contiguous (const GnnKernelTensor *t, gint64 *rs)
{
  if (t->ndim != 2 || (t->shape[1] > 1 && t->strides[1] != 1))
    return FALSE;
  *rs = t->strides[0];
  return TRUE;
}

static gboolean
k_rnn_cell (const GnnKernelArgs *args, GError **error)
{
  GnnDtype dt = args->out->dtype;
  gboolean f32 = dt == GNN_DTYPE_FLOAT32;
  gboolean lstm = args->op == GNN_BACKEND_OP_LSTM_CELL || args->op == GNN_BACKEND_OP_LSTM_CELL_BACKWARD;
  GnnParallelFunc fn;
  RnnCtx ctx = { args, 0, { 0 } };
  gint64 rows;

  if (dt != GNN_DTYPE_FLOAT32 && dt != GNN_DTYPE_FLOAT64)
    return gnn_cpu_unsupported (args, error);
  if (!rows_contiguous (args->out, &ctx.rs[3]) || (args->out2 && !rows_contiguous (args->out2, &ctx.rs[4])))
    return gnn_cpu_unsupported (args, error);
  for (guint k = 0; k < args->n_in; k++)
    if (args->in[k] == NULL || args->in[k]->dtype != dt || !rows_contiguous (args->in[k], &ctx.rs[k]))
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
