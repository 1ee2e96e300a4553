/* gnn-cpu-attention-tmpl.c: the attention kernels of gnn-cpu-attention.c for one dtype
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Included by gnn-cpu-attention.c once per floating dtype, with T the element type, EXP and
 * LOG its exponential and logarithm, and NAME (x) the name x for that dtype (x##_f32); not
 * compiled on its own. q, k, v, out, the gradients and lse are contiguous (AttnCtx); the mask is
 * read through its strides.
 */

/* a · b over n elements, in ATTN_LANES partial sums (which the compiler keeps in a vector
 * register) added in a fixed order */
static inline T
NAME (dot) (const T *a, const T *b, gint64 n)
{
  T acc[ATTN_LANES] = { 0 }, d = 0;
  const gint64 body = n - n % ATTN_LANES;

  for (gint64 e = 0; e < body; e += ATTN_LANES)
    for (int l = 0; l < ATTN_LANES; l++)
      acc[l] += a[e + l] * b[e + l];
  for (gint64 e = body; e < n; e++)
    d += a[e] * b[e];
  for (int l = 0; l < ATTN_LANES; l++)
    d += acc[l];
  return d;
}

/* q_i · k_j · scale + mask[b, i, j] */
static inline T
NAME (score) (const AttnCtx *ctx, const T *qi, const T *kj, const T *mask_b, gint64 i, gint64 j)
{
  T d = NAME (dot) (qi, kj, ctx->E) * (T) ctx->scale;

  if (mask_b)
    d += mask_b[i * ctx->mask_sl + j * ctx->mask_ss];
  return d;
}

static inline const T *
NAME (mask_of) (const AttnCtx *ctx, gint64 b)
{
  const GnnKernelTensor *m = ctx->args->params.attention.mask;

  return m ? (const T *) m->data + attn_mask_batch_offset (m, b) : NULL;
}

/* ATTENTION: tasks are query rows r = b · L + i; each runs the online softmax over blocks of
 * ATTN_BLOCK keys, keeping the block's scores, the running maximum and sum and the Ev
 * accumulators, never the row of L scores */
GNN_CPU_MULTIVERSION
static void
NAME (attention_rows) (gpointer data, gint64 begin, gint64 end)
{
  const AttnCtx *ctx = data;
  const GnnKernelArgs *args = ctx->args;
  const T *q = args->in[0]->data, *k = args->in[1]->data, *v = args->in[2]->data;
  T *o = args->out->data, *lse = args->out2->data;
  const gint64 L = ctx->L, S = ctx->S, E = ctx->E, Ev = ctx->Ev;
  g_autofree T *acc = g_new (T, MAX (Ev, 1));
  T s[ATTN_BLOCK];

  for (gint64 r = begin; r < end; r++)
    {
      const gint64 b = r / L, i = r % L;
      const T *qi = q + r * E, *kb = k + b * S * E, *vb = v + b * S * Ev;
      const T *mask_b = NAME (mask_of) (ctx, b);
      const gint64 n_keys = ctx->causal ? MIN (S, i + 1) : S;
      T m = -INFINITY, l = 0;
      T *oi = o + r * Ev;

      for (gint64 e = 0; e < Ev; e++)
        acc[e] = 0;
      for (gint64 j0 = 0; j0 < n_keys; j0 += ATTN_BLOCK)
        {
          const gint64 nb = MIN (ATTN_BLOCK, n_keys - j0);
          T bm = -INFINITY, mn, alpha;

          for (gint64 jj = 0; jj < nb; jj++)
            {
              s[jj] = NAME (score) (ctx, qi, kb + (j0 + jj) * E, mask_b, i, j0 + jj);
              if (s[jj] > bm)
                bm = s[jj];
            }
          if (bm == -INFINITY)
            continue;   /* every key of the block masked out (or NaN, which the sum below carries) */
          mn = m > bm ? m : bm;
          alpha = EXP (m - mn);
          l *= alpha;
          for (gint64 e = 0; e < Ev; e++)
            acc[e] *= alpha;
          for (gint64 jj = 0; jj < nb; jj++)
            {
              const T p = EXP (s[jj] - mn);
              const T *vj = vb + (j0 + jj) * Ev;

              l += p;
              for (gint64 e = 0; e < Ev; e++)
                acc[e] += p * vj[e];
            }
          m = mn;
        }
      for (gint64 e = 0; e < Ev; e++)
        oi[e] = acc[e] / l;   /* 0 / 0: NaN for a row with every key masked out, as softmax gives */
      lse[r] = m + LOG (l);
    }
}

/* ATTENTION_BACKWARD, first pass: tasks are query rows; delta_i = dO_i · O_i, and
 * dq_i = scale · Σ_j p_ij (dO_i · v_j - delta_i) k_j with p_ij = exp (s_ij - lse_i) */
GNN_CPU_MULTIVERSION
static void
NAME (attention_backward_rows) (gpointer data, gint64 begin, gint64 end)
{
  const AttnCtx *ctx = data;
  const GnnKernelArgs *args = ctx->args;
  const GnnKernelAttention *at = &args->params.attention;
  const T *dout = args->in[0]->data, *q = args->in[1]->data, *k = args->in[2]->data;
  const T *v = at->v->data, *o = at->o->data, *lse = at->lse->data;
  T *dq = args->out->data, *delta = ctx->delta;
  const gint64 L = ctx->L, S = ctx->S, E = ctx->E, Ev = ctx->Ev;

  for (gint64 r = begin; r < end; r++)
    {
      const gint64 b = r / L, i = r % L;
      const T *qi = q + r * E, *doi = dout + r * Ev, *oi = o + r * Ev;
      const T *kb = k + b * S * E, *vb = v + b * S * Ev;
      const T *mask_b = NAME (mask_of) (ctx, b);
      const gint64 n_keys = ctx->causal ? MIN (S, i + 1) : S;
      T *dqi = dq + r * E, d = 0;

      d = NAME (dot) (doi, oi, Ev);
      delta[r] = d;
      for (gint64 e = 0; e < E; e++)
        dqi[e] = 0;
      for (gint64 j = 0; j < n_keys; j++)
        {
          const T *kj = kb + j * E, *vj = vb + j * Ev;
          const T p = EXP (NAME (score) (ctx, qi, kj, mask_b, i, j) - lse[r]);
          const T ds = p * (NAME (dot) (doi, vj, Ev) - d) * (T) ctx->scale;

          for (gint64 e = 0; e < E; e++)
            dqi[e] += ds * kj[e];
        }
    }
}

/* ATTENTION_BACKWARD, second pass: tasks are key rows t = b · S + j; dv_j = Σ_i p_ij dO_i and
 * dk_j = scale · Σ_i p_ij (dO_i · v_j - delta_i) q_i */
GNN_CPU_MULTIVERSION
static void
NAME (attention_backward_keys) (gpointer data, gint64 begin, gint64 end)
{
  const AttnCtx *ctx = data;
  const GnnKernelArgs *args = ctx->args;
  const GnnKernelAttention *at = &args->params.attention;
  const T *dout = args->in[0]->data, *q = args->in[1]->data, *k = args->in[2]->data;
  const T *v = at->v->data, *lse = at->lse->data, *delta = ctx->delta;
  T *dk = args->out2->data, *dv = at->dv->data;
  const gint64 L = ctx->L, S = ctx->S, E = ctx->E, Ev = ctx->Ev;

  for (gint64 t = begin; t < end; t++)
    {
      const gint64 b = t / S, j = t % S;
      const T *kj = k + t * E, *vj = v + t * Ev;
      const T *qb = q + b * L * E, *dob = dout + b * L * Ev;
      const T *mask_b = NAME (mask_of) (ctx, b);
      T *dkj = dk + t * E, *dvj = dv + t * Ev;

      for (gint64 e = 0; e < E; e++)
        dkj[e] = 0;
      for (gint64 e = 0; e < Ev; e++)
        dvj[e] = 0;
      for (gint64 i = ctx->causal ? j : 0; i < L; i++)
        {
          const T *qi = qb + i * E, *doi = dob + i * Ev;
          const T p = EXP (NAME (score) (ctx, qi, kj, mask_b, i, j) - lse[b * L + i]);
          const T ds = p * (NAME (dot) (doi, vj, Ev) - delta[b * L + i]) * (T) ctx->scale;

          for (gint64 e = 0; e < Ev; e++)
            dvj[e] += p * doi[e];
          for (gint64 e = 0; e < E; e++)
            dkj[e] += ds * qi[e];
        }
    }
}

#undef T
#undef EXP
#undef LOG
#undef NAME
