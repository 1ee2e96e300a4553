/* gnn-cpu-rnn-tmpl.c: the recurrent-cell kernels of gnn-cpu-rnn.c for one dtype
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Included by gnn-cpu-rnn.c once per floating dtype, with T the element type, NAME (x) the
 * name x for that dtype (x##_f32) and M (f) the C math function f for it (expf for float);
 * not compiled on its own. Operands are (B, ·) with contiguous rows (any row stride); tasks are
 * rows of the batch. A kernel's outputs overlap none of its operands (the layer keeps each
 * in a buffer or slot of its own).
 */

#ifdef FAST_FLOAT
/* float: the vectorisable forms of gnn-cpu-fastmath.h (a few ulps from libm) */
#define SIG(x) gnn_cpu_sigmoidf (x)
#define TANH(x) gnn_cpu_tanhf (x)
#else
static inline T
NAME (sig) (T x)
{
  return (T) 1 / ((T) 1 + M (exp) (-x));
}
#define SIG(x) NAME (sig) (x)
#define TANH(x) M (tanh) (x)
#endif

/* The rows' loops are functions of restrict parameters, inlined: GCC honours restrict there
 * (it ignores it on local pointers), so the loops vectorise without run-time alias checks. */
#define ROW static inline __attribute__ ((always_inline)) void

ROW
NAME (lstm_row) (const T *restrict p, const T *restrict cp, T *restrict ho, T *restrict co, gint64 H)
{
  for (gint64 j = 0; j < H; j++)
    {
      T i = SIG (p[j]), f = SIG (p[H + j]);
      T g = TANH (p[2 * H + j]), o = SIG (p[3 * H + j]);
      T cn = f * cp[j] + i * g;

      co[j] = cn;
      ho[j] = o * TANH (cn);
    }
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
    NAME (lstm_row) (pre + r * ctx->rs[0], c + r * ctx->rs[1], out + r * ctx->rs[3], out + r * ctx->rs[3] + H, H);
}

ROW
NAME (lstm_backward_row) (const T *restrict p, const T *restrict cp, const T *restrict dh, const T *restrict dcn,
                          T *restrict dp, T *restrict dcp, gint64 H)
{
  for (gint64 j = 0; j < H; j++)
    {
      T i = SIG (p[j]), f = SIG (p[H + j]);
      T g = TANH (p[2 * H + j]), o = SIG (p[3 * H + j]);
      T cn = f * cp[j] + i * g, tc = TANH (cn);
      T d = dcn[j] + dh[j] * o * ((T) 1 - tc * tc);

      dp[j] = d * g * i * ((T) 1 - i);
      dp[H + j] = d * cp[j] * f * ((T) 1 - f);
      dp[2 * H + j] = d * i * ((T) 1 - g * g);
      dp[3 * H + j] = dh[j] * tc * o * ((T) 1 - o);
      dcp[j] = d * f;
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
      const T *dh = grad + r * ctx->rs[2];

      NAME (lstm_backward_row) (pre + r * ctx->rs[0], c + r * ctx->rs[1], dh, dh + H, dpre + r * ctx->rs[3],
                                dc + r * ctx->rs[4], H);
    }
}

ROW
NAME (gru_row) (const T *restrict x, const T *restrict s, const T *restrict hr, T *restrict o, gint64 H)
{
  for (gint64 j = 0; j < H; j++)
    {
      T rr = SIG (x[j] + s[j]), z = SIG (x[H + j] + s[H + j]);
      T n = TANH (x[2 * H + j] + rr * s[2 * H + j]);

      o[j] = ((T) 1 - z) * n + z * hr[j];
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
    NAME (gru_row) (xp + r * ctx->rs[0], hp + r * ctx->rs[1], h + r * ctx->rs[2], out + r * ctx->rs[3], H);
}

ROW
NAME (gru_backward_row) (const T *restrict x, const T *restrict s, const T *restrict hr, const T *restrict dh,
                         T *restrict gx, T *restrict gs, gint64 H)
{
  for (gint64 j = 0; j < H; j++)
    {
      T rr = SIG (x[j] + s[j]), z = SIG (x[H + j] + s[H + j]);
      T n = TANH (x[2 * H + j] + rr * s[2 * H + j]);
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
      const T *hr = hg + r * ctx->rs[2];

      NAME (gru_backward_row) (xp + r * ctx->rs[0], hp + r * ctx->rs[1], hr, hr + H, dx + r * ctx->rs[3],
                               ds + r * ctx->rs[4], H);
    }
}

#undef ROW
#undef SIG
#undef TANH
#undef FAST_FLOAT
#undef T
#undef NAME
#undef M
