/* gnn-cpu-rnn-tmpl.c: the recurrent-cell kernels of gnn-cpu-rnn.c for one dtype
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Included by gnn-cpu-rnn.c once per floating dtype, with T the element type, NAME (x) the
 * name x for that dtype (x##_f32) and M (f) the C math function f for it (expf for float);
 * not compiled on its own. Operands are (B, ·) with contiguous rows (any row stride); tasks are
 * rows of the batch.
 */

static inline T
NAME (sig) (T x)
{
  return (T) 1 / ((T) 1 + M (exp) (-x));
}

/* LSTM_CELL: in0 (B, 4H), in1 c (B, H), out (B, 2H) = [h' | c'] */
GNN_CPU_MULTIVERSION
static void
NAME (lstm_cell) (gpointer data, gint64 b, gint64 e)
{
  const RnnCtx *ctx = data;
  const T *pre = ctx->args->in[0]->data, *c = ctx->args->in[1]->data;
  T *out = ctx->args->out->data;
  const gint64 H = ctx->h;

  for (gint64 r = b; r < e; r++)
    {
      const T *p = pre + r * ctx->rs[0], *cp = c + r * ctx->rs[1];
      T *ho = out + r * ctx->rs[3], *co = ho + H;

      for (gint64 j = 0; j < H; j++)
        {
          T i = NAME (sig) (p[j]), f = NAME (sig) (p[H + j]);
          T g = M (tanh) (p[2 * H + j]), o = NAME (sig) (p[3 * H + j]);
          T cn = f * cp[j] + i * g;

          co[j] = cn;
          ho[j] = o * M (tanh) (cn);
        }
    }
}

/* LSTM_CELL_BACKWARD: in0 (B, 4H), in1 c (B, H), in2 the gradient (B, 2H); out (B, 4H), out2 (B, H) */
GNN_CPU_MULTIVERSION
static void
NAME (lstm_cell_backward) (gpointer data, gint64 b, gint64 e)
{
  const RnnCtx *ctx = data;
  const T *pre = ctx->args->in[0]->data, *c = ctx->args->in[1]->data, *grad = ctx->args->in[2]->data;
  T *dpre = ctx->args->out->data, *dc = ctx->args->out2->data;
  const gint64 H = ctx->h;

  for (gint64 r = b; r < e; r++)
    {
      const T *p = pre + r * ctx->rs[0], *cp = c + r * ctx->rs[1], *dh = grad + r * ctx->rs[2], *dcn = dh + H;
      T *dp = dpre + r * ctx->rs[3], *dcp = dc + r * ctx->rs[4];

      for (gint64 j = 0; j < H; j++)
        {
          T i = NAME (sig) (p[j]), f = NAME (sig) (p[H + j]);
          T g = M (tanh) (p[2 * H + j]), o = NAME (sig) (p[3 * H + j]);
          T cn = f * cp[j] + i * g, tc = M (tanh) (cn);
          T d = dcn[j] + dh[j] * o * ((T) 1 - tc * tc);

          dp[j] = d * g * i * ((T) 1 - i);
          dp[H + j] = d * cp[j] * f * ((T) 1 - f);
          dp[2 * H + j] = d * i * ((T) 1 - g * g);
          dp[3 * H + j] = dh[j] * tc * o * ((T) 1 - o);
          dcp[j] = d * f;
        }
    }
}

/* GRU_CELL: in0 x (B, 3H), in1 hp (B, 3H), in2 h (B, H), out (B, H) */
GNN_CPU_MULTIVERSION
static void
NAME (gru_cell) (gpointer data, gint64 b, gint64 e)
{
  const RnnCtx *ctx = data;
  const T *xp = ctx->args->in[0]->data, *hp = ctx->args->in[1]->data, *h = ctx->args->in[2]->data;
  T *out = ctx->args->out->data;
  const gint64 H = ctx->h;

  for (gint64 r = b; r < e; r++)
    {
      const T *x = xp + r * ctx->rs[0], *s = hp + r * ctx->rs[1], *hr = h + r * ctx->rs[2];
      T *o = out + r * ctx->rs[3];

      for (gint64 j = 0; j < H; j++)
        {
          T rr = NAME (sig) (x[j] + s[j]), z = NAME (sig) (x[H + j] + s[H + j]);
          T n = M (tanh) (x[2 * H + j] + rr * s[2 * H + j]);

          o[j] = ((T) 1 - z) * n + z * hr[j];
        }
    }
}

/* GRU_CELL_BACKWARD: in0 x, in1 hp, in2 (B, 2H) [h | grad]; out (B, 3H), out2 (B, 4H) */
GNN_CPU_MULTIVERSION
static void
NAME (gru_cell_backward) (gpointer data, gint64 b, gint64 e)
{
  const RnnCtx *ctx = data;
  const T *xp = ctx->args->in[0]->data, *hp = ctx->args->in[1]->data, *hg = ctx->args->in[2]->data;
  T *dx = ctx->args->out->data, *ds = ctx->args->out2->data;
  const gint64 H = ctx->h;

  for (gint64 r = b; r < e; r++)
    {
      const T *x = xp + r * ctx->rs[0], *s = hp + r * ctx->rs[1], *hr = hg + r * ctx->rs[2], *dh = hr + H;
      T *gx = dx + r * ctx->rs[3], *gs = ds + r * ctx->rs[4];

      for (gint64 j = 0; j < H; j++)
        {
          T rr = NAME (sig) (x[j] + s[j]), z = NAME (sig) (x[H + j] + s[H + j]);
          T n = M (tanh) (x[2 * H + j] + rr * s[2 * H + j]);
          T dn = dh[j] * ((T) 1 - z) * ((T) 1 - n * n);
          T dz = dh[j] * (hr[j] - n) * z * ((T) 1 - z);
          T dr = dn * s[2 * H + j] * rr * ((T) 1 - rr);

          gx[j] = dr;
          gx[H + j] = dz;
          gx[2 * H + j] = dn;
          gs[j] = dr;
          gs[H + j] = dz;
          gs[2 * H + j] = dn * rr;
          gs[3 * H + j] = dh[j] * z;
        }
    }
}

#undef T
#undef NAME
#undef M
