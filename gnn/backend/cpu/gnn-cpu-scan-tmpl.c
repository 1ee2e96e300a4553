/* gnn-cpu-scan-tmpl.c: the scan kernels of gnn-cpu-scan.c for one dtype
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Included by gnn-cpu-scan.c once per dtype, with T the element type, ACC the accumulator's
 * (double for the floating dtypes, gint64 for int64), FLOATING whether T is one, and NAME (x)
 * the name x for that dtype (x##_f32); not compiled on its own. in0 and out are contiguous
 * (outer, r, inner) (params.reduce); each task scans up to GNN_CPU_COLS columns of one o over r, in
 * index order (from the end with reduce.reverse), so results do not depend on the threads.
 */

/* out[o, k, i] = in0[o, 0, i] ⊕ … ⊕ in0[o, k, i], ⊕ + (CUMSUM), · (CUMPROD) or log_add_exp
 * (LOGCUMSUMEXP, floating dtypes only) */
static void
NAME (scan_cols) (gpointer data, gint64 b, gint64 e)
{
  const GnnCpuColCtx *ctx = data;
  const GnnKernelArgs *args = ctx->args;
  gint64 r = args->params.reduce.reduced, inner = args->params.reduce.inner;
  GnnBackendOp op = args->op;

  for (gint64 t = b; t < e; t++)
    {
      gint64 o, c0, c1;
      ACC acc[GNN_CPU_COLS];
      const T *x;
      T *y;

      gnn_cpu_col_task (ctx, t, &o, &c0, &c1);
      x = (const T *) args->in[0]->data + o * r * inner;
      y = (T *) args->out->data + o * r * inner;
      for (gint64 c = c0; c < c1; c++)
#if FLOATING
        acc[c - c0] = op == GNN_BACKEND_OP_CUMPROD ? 1 : op == GNN_BACKEND_OP_CUMSUM ? 0 : -INFINITY;
#else
        acc[c - c0] = op == GNN_BACKEND_OP_CUMPROD ? 1 : 0;
#endif
      for (gint64 s = 0; s < r; s++)
        {
          gint64 k = args->params.reduce.reverse ? r - 1 - s : s;
          for (gint64 c = c0; c < c1; c++)
            {
              ACC v = x[k * inner + c];
#if FLOATING
              acc[c - c0] = op == GNN_BACKEND_OP_CUMSUM ? acc[c - c0] + v :
                            op == GNN_BACKEND_OP_CUMPROD ? acc[c - c0] * v : log_add_exp (acc[c - c0], v);
#else
              /* wraps around on overflow as PyTorch's int64 does, without undefined behaviour */
              acc[c - c0] = (ACC) (op == GNN_BACKEND_OP_CUMSUM ? (guint64) acc[c - c0] + (guint64) v
                                                               : (guint64) acc[c - c0] * (guint64) v);
#endif
              y[k * inner + c] = (T) acc[c - c0];
            }
        }
    }
}

#undef T
#undef ACC
#undef FLOATING
#undef NAME
