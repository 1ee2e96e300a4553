/* gnn-cpu-norm-tmpl.c: the batch normalisation kernels of gnn-cpu-norm.c for one dtype
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Included by gnn-cpu-norm.c once per floating dtype, with T the element type and NAME (x)
 * the name x for that dtype (x##_f32); not compiled on its own. Operands are contiguous
 * (N, C, S) (params.norm) and per-channel rows (2, C) or (4, C).
 */
/* in0 is (N, C, S), out (2, C): out[0, c] the mean of channel c over N and S, out[1, c] the
 * biased variance; tasks are channels */
GNN_CPU_MULTIVERSION
static void
NAME (stats) (gpointer data, gint64 b, gint64 e)
{
  const NormCtx *ctx = data;
  const T *x = ctx->args->in[0]->data;
  T *out = ctx->args->out->data;
  const gint64 S = ctx->s, C = ctx->c, body = S - S % LANES;
  const double count = (double) (ctx->n * S);

  for (gint64 c = b; c < e; c++)
    {
      double acc[LANES] = { 0 }, tail = 0, mean;

      for (gint64 n = 0; n < ctx->n; n++)
        {
          const T *p = x + (n * C + c) * S;
          for (gint64 k = 0; k < body; k += LANES)
            for (int j = 0; j < LANES; j++)
              acc[j] += (double) p[k + j];
          for (gint64 k = body; k < S; k++)
            tail += (double) p[k];
        }
      mean = (lanes_sum (acc) + tail) / count;
      for (int j = 0; j < LANES; j++)
        acc[j] = 0;
      tail = 0;
      for (gint64 n = 0; n < ctx->n; n++)
        {
          const T *p = x + (n * C + c) * S;
          for (gint64 k = 0; k < body; k += LANES)
            for (int j = 0; j < LANES; j++)
              {
                double d = (double) p[k + j] - mean;
                acc[j] += d * d;
              }
          for (gint64 k = body; k < S; k++)
            {
              double d = (double) p[k] - mean;
              tail += d * d;
            }
        }
      out[c] = (T) mean;
      out[C + c] = (T) ((lanes_sum (acc) + tail) / count);
    }
}

/* in0 (the gradient g) and in1 (the input x) are (N, C, S), in2 (the mean) (C), out (2, C):
 * out[0, c] = Σ g, out[1, c] = Σ g · (x - mean[c]) over channel c; tasks are channels */
GNN_CPU_MULTIVERSION
static void
NAME (backward_reduce) (gpointer data, gint64 b, gint64 e)
{
  const NormCtx *ctx = data;
  const T *g = ctx->args->in[0]->data;
  const T *x = ctx->args->in[1]->data;
  const T *mean = ctx->args->in[2]->data;
  T *out = ctx->args->out->data;
  const gint64 S = ctx->s, C = ctx->c, body = S - S % LANES;

  for (gint64 c = b; c < e; c++)
    {
      double sg[LANES] = { 0 }, sgx[LANES] = { 0 }, tg = 0, tgx = 0;
      const double m = (double) mean[c];

      for (gint64 n = 0; n < ctx->n; n++)
        {
          const T *pg = g + (n * C + c) * S, *px = x + (n * C + c) * S;
          for (gint64 k = 0; k < body; k += LANES)
            for (int j = 0; j < LANES; j++)
              {
                double gv = (double) pg[k + j];
                sg[j] += gv;
                sgx[j] += gv * ((double) px[k + j] - m);
              }
          for (gint64 k = body; k < S; k++)
            {
              double gv = (double) pg[k];
              tg += gv;
              tgx += gv * ((double) px[k] - m);
            }
        }
      out[c] = (T) (lanes_sum (sg) + tg);
      out[C + c] = (T) (lanes_sum (sgx) + tgx);
    }
}

/* in0 and out are (N, C, S), in1 (2, C) or, with in2 (N, C, S), (4, C):
 * out = in0 · in1[0, c] + in1[1, c] (+ (in2 - in1[2, c]) · in1[3, c]); tasks are the N · C planes */
GNN_CPU_MULTIVERSION
static void
NAME (affine) (gpointer data, gint64 b, gint64 e)
{
  const NormCtx *ctx = data;
  const T *x = ctx->args->in[0]->data;
  const T *k = ctx->args->in[1]->data;
  const T *x2 = ctx->args->in[2] ? ctx->args->in[2]->data : NULL;
  T *out = ctx->args->out->data;
  const gint64 S = ctx->s, C = ctx->c;

  for (gint64 plane = b; plane < e; plane++)
    {
      const gint64 c = plane % C;
      const T a = k[c], sh = k[C + c];
      const T *px = x + plane * S;
      T *po = out + plane * S;

      if (x2 == NULL)
        for (gint64 i = 0; i < S; i++)
          po[i] = px[i] * a + sh;
      else
        {
          const T m2 = k[2 * C + c], d = k[3 * C + c];
          const T *p2 = x2 + plane * S;
          for (gint64 i = 0; i < S; i++)
            po[i] = px[i] * a + sh + (p2[i] - m2) * d;
        }
    }
}

#undef T
#undef NAME
