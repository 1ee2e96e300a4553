/* gnn-cpu-index-tmpl.c: the accumulating kernels of gnn-cpu-index.c for one dtype
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Included by gnn-cpu-index.c once per dtype, with T the element type, NAME (x) the name x
 * for that dtype (x##_f32) and IS_NAN (x) whether a value is a NaN; not compiled on its own.
 * Operands are contiguous (params.index: outer, size, inner, index_size); task t covers the columns [c0, c1) of one o, and adds in
 * index order, so that results do not depend on the thread count.
 */
/* in0 is (outer, J, inner), in1 (J), out (outer, size, inner): out[o, in1[j], i] += in0[o, j, i] */
static void
NAME (index_add_cols) (gpointer data, gint64 b, gint64 e)
{
  const IndexCtx *ctx = data;
  const GnnKernelArgs *args = ctx->args;
  gint64 src = args->params.index.size, inner = args->params.index.inner, J = ctx->n_index;
  const gint64 *idx = args->in[1]->data;

  for (gint64 t = b; t < e; t++)
    {
      gint64 o = t / ctx->n_col_blocks, c0 = (t % ctx->n_col_blocks) * COLS;
      gint64 c1 = MIN (inner, c0 + COLS);
      const T *in = (const T *) args->in[0]->data + o * J * inner;
      T *out = (T *) args->out->data + o * src * inner;
      for (gint64 j = 0; j < J; j++)
        {
          T *dst = out + idx[j] * inner;
          const T *s = in + j * inner;
          for (gint64 c = c0; c < c1; c++)
            dst[c] += s[c];
        }
    }
}

/* in0 and in1 are (outer, index_size, inner), out (outer, size, inner):
 * out[o, in1[o, j, i], i] += in0[o, j, i] */
static void
NAME (scatter_add_cols) (gpointer data, gint64 b, gint64 e)
{
  const IndexCtx *ctx = data;
  const GnnKernelArgs *args = ctx->args;
  gint64 src = args->params.index.size, inner = args->params.index.inner, J = args->params.index.index_size;

  for (gint64 t = b; t < e; t++)
    {
      gint64 o = t / ctx->n_col_blocks, c0 = (t % ctx->n_col_blocks) * COLS;
      gint64 c1 = MIN (inner, c0 + COLS);
      const T *in = (const T *) args->in[0]->data + o * J * inner;
      const gint64 *idx = (const gint64 *) args->in[1]->data + o * J * inner;
      T *out = (T *) args->out->data + o * src * inner;
      for (gint64 j = 0; j < J; j++)
        for (gint64 c = c0; c < c1; c++)
          out[idx[j * inner + c] * inner + c] += in[j * inner + c];
    }
}

/* as scatter_add_cols, with the value replacing, or combined by product, maximum or minimum
 * with, the one in place (params.index.reduce); a NaN value wins */
static void
NAME (scatter_reduce_cols) (gpointer data, gint64 b, gint64 e)
{
  const IndexCtx *ctx = data;
  const GnnKernelArgs *args = ctx->args;
  gint64 src = args->params.index.size, inner = args->params.index.inner, J = args->params.index.index_size;
  int reduce = args->params.index.reduce;

  for (gint64 t = b; t < e; t++)
    {
      gint64 o = t / ctx->n_col_blocks, c0 = (t % ctx->n_col_blocks) * COLS;
      gint64 c1 = MIN (inner, c0 + COLS);
      const T *in = (const T *) args->in[0]->data + o * J * inner;
      const gint64 *idx = (const gint64 *) args->in[1]->data + o * J * inner;
      T *out = (T *) args->out->data + o * src * inner;
      for (gint64 j = 0; j < J; j++)
        for (gint64 c = c0; c < c1; c++)
          {
            T *d = &out[idx[j * inner + c] * inner + c];
            T s = in[j * inner + c];

            switch (reduce)
              {
              case GNN_KERNEL_SCATTER_PROD: *d *= s; break;
              case GNN_KERNEL_SCATTER_AMAX: if (s > *d || IS_NAN (s)) *d = s; break;
              case GNN_KERNEL_SCATTER_AMIN: if (s < *d || IS_NAN (s)) *d = s; break;
              default: *d = s; break;
              }
          }
    }
}

#undef T
#undef NAME
#undef IS_NAN
