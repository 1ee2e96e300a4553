/* gnn-cpu-conv-tmpl.c: the loops of gnn-cpu-conv.c for one dtype
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Included by gnn-cpu-conv.c once per floating dtype, with T the element type and NAME (x)
 * the name x for that dtype (x##_f32); not compiled on its own. Every loop is a task of
 * gnn_parallel_for over the planes or rows of contiguous operands, their geometry in g.
 */
/* in0 is (N, C, D, H, W), out (N, C * kd * kh * kw, OD, OH, OW) (a 2-d call: D = OD = kd = 1):
 * out[n, ((c * kd + kz) * kh + ki) * kw + kj, oz, oy, ox] = in0[n, c, oz * sd - pd + kz * dd,
 * oy * sh - ph + ki * dh, ox * sw - pw + kj * dw], 0 outside in0. Tasks are the
 * N · C · kd · kh · kw (n, row) pairs of out, each OD · OH · OW values. */
static void
NAME (im2col_rows) (gpointer data, gint64 b, gint64 e)
{
  const Geometry *g = data;
  const T *in = g->args->in[0]->data;
  T *out = g->args->out->data;
  gint64 rows = g->C * g->kd * g->kh * g->kw;

  for (gint64 t = b; t < e; t++)
    {
      gint64 n = t / rows, row = t % rows;
      gint64 kj = row % g->kw, ki = (row / g->kw) % g->kh, kz = (row / (g->kw * g->kh)) % g->kd;
      gint64 c = row / (g->kw * g->kh * g->kd);
      const T *volume = in + (n * g->C + c) * g->D * g->H * g->W;
      /* x = ox · sw + off lies inside the row for ox in [ox0, ox1) */
      const gint64 off = kj * g->dw - g->pw;
      const gint64 ox0 = MIN (g->OW, off >= 0 ? 0 : (-off + g->sw - 1) / g->sw);
      const gint64 ox1 = MAX (ox0, MIN (g->OW, g->W - off > 0 ? (g->W - off + g->sw - 1) / g->sw : 0));

      for (gint64 oz = 0; oz < g->OD; oz++)
        {
          gint64 z = oz * g->sd - g->pd + kz * g->dd;
          T *dst = out + (t * g->OD + oz) * g->OH * g->OW;
          const T *plane;

          if (z < 0 || z >= g->D)
            {
              memset (dst, 0, sizeof (T) * g->OH * g->OW);
              continue;
            }
          plane = volume + z * g->H * g->W;
          for (gint64 oy = 0; oy < g->OH; oy++)
            {
              gint64 y = oy * g->sh - g->ph + ki * g->dh;
              T *d = dst + oy * g->OW;
              const T *src;

              if (y < 0 || y >= g->H)
                {
                  memset (d, 0, sizeof (T) * g->OW);
                  continue;
                }
              for (gint64 ox = 0; ox < ox0; ox++)
                d[ox] = (T) 0;
              src = plane + y * g->W + off;
              if (g->sw == 1)
                memcpy (d + ox0, src + ox0, sizeof (T) * (ox1 - ox0));
              else
                for (gint64 ox = ox0; ox < ox1; ox++)
                  d[ox] = src[ox * g->sw];
              for (gint64 ox = ox1; ox < g->OW; ox++)
                d[ox] = (T) 0;
            }
        }
    }
}

/* in0 is (N, C * kd * kh * kw, OD, OH, OW), out (N, C, D, H, W): each out[n, c] volume is the
 * sum of the kd · kh · kw column rows of in0 that im2col reads from it, added in row order.
 * Tasks are the N · C (n, c) volumes (planes, in 2-d). */
static void
NAME (col2im_planes) (gpointer data, gint64 b, gint64 e)
{
  const Geometry *g = data;
  const T *in = g->args->in[0]->data;
  T *out = g->args->out->data;
  gint64 k = g->kd * g->kh * g->kw, image = g->D * g->H * g->W;

  for (gint64 t = b; t < e; t++)
    {
      T *volume = out + t * image;

      memset (volume, 0, sizeof (T) * image);
      for (gint64 r = 0; r < k; r++)
        {
          gint64 kz = r / (g->kh * g->kw), ki = (r / g->kw) % g->kh, kj = r % g->kw;
          /* x = ox · sw + off lies inside the row for ox in [ox0, ox1), as in im2col */
          const gint64 off = kj * g->dw - g->pw;
          const gint64 ox0 = MIN (g->OW, off >= 0 ? 0 : (-off + g->sw - 1) / g->sw);
          const gint64 ox1 = MAX (ox0, MIN (g->OW, g->W - off > 0 ? (g->W - off + g->sw - 1) / g->sw : 0));

          for (gint64 oz = 0; oz < g->OD; oz++)
            {
              gint64 z = oz * g->sd - g->pd + kz * g->dd;
              const T *src = in + ((t * k + r) * g->OD + oz) * g->OH * g->OW;
              T *plane;

              if (z < 0 || z >= g->D)
                continue;
              plane = volume + z * g->H * g->W;
              for (gint64 oy = 0; oy < g->OH; oy++)
                {
                  gint64 y = oy * g->sh - g->ph + ki * g->dh;
                  T *row;
                  const T *s;

                  if (y < 0 || y >= g->H)
                    continue;
                  row = plane + y * g->W + off;
                  s = src + oy * g->OW;
                  if (g->sw == 1)
                    for (gint64 ox = ox0; ox < ox1; ox++)
                      row[ox] += s[ox];
                  else
                    for (gint64 ox = ox0; ox < ox1; ox++)
                      row[ox * g->sw] += s[ox];
                }
            }
        }
    }
}

/* ---- pooling ------------------------------------------------------------------------ */

/* in0 is (N, C, D, H, W), out and out2 (N, C, OD, OH, OW) (a 2-d call: D = OD = kd = 1): out
 * the maximum over each window (NaN wins), out2 its index (z · H + y) · W + x in the volume, the
 * first one on ties. Tasks are the N · C volumes. */
GNN_CPU_MULTIVERSION
static void
NAME (max_pool_planes) (gpointer data, gint64 b, gint64 e)
{
  const Geometry *g = data;
  const T *in = g->args->in[0]->data;
  T *out = g->args->out->data;
  gint64 *idx = g->args->out2->data;

  /* 2×2 windows, stride 2, inside the plane (the common case): the four values in scan
   * order, as the general loop below compares them */
  if (g->D == 1 && g->OD == 1 && g->kd == 1 && g->pd == 0 &&
      g->kh == 2 && g->kw == 2 && g->sh == 2 && g->sw == 2 && g->ph == 0 && g->pw == 0 &&
      g->dh == 1 && g->dw == 1 && 2 * g->OH <= g->H && 2 * g->OW <= g->W)
    {
      const gint64 H = g->H, W = g->W, OH = g->OH, OW = g->OW;
      for (gint64 t = b; t < e; t++)
        {
          const T *restrict plane = in + t * H * W;
          T *restrict o = out + t * OH * OW;
          gint64 *restrict oi = idx + t * OH * OW;

          for (gint64 oy = 0; oy < OH; oy++)
            {
              const gint64 r0 = 2 * oy * W, r1 = r0 + W;
              const T *restrict p0 = plane + r0, *restrict p1 = plane + r1;
              for (gint64 ox = 0; ox < OW; ox++)
                {
                  /* without branches (selects): the maxima are data-dependent */
                  const T a = p0[2 * ox], b1 = p0[2 * ox + 1], c = p1[2 * ox], d = p1[2 * ox + 1];
                  T best = a;
                  gint64 at = r0 + 2 * ox;
                  int take = (b1 > best) | (b1 != b1);
                  best = take ? b1 : best;
                  at = take ? r0 + 2 * ox + 1 : at;
                  take = (c > best) | (c != c);
                  best = take ? c : best;
                  at = take ? r1 + 2 * ox : at;
                  take = (d > best) | (d != d);
                  best = take ? d : best;
                  at = take ? r1 + 2 * ox + 1 : at;
                  o[oy * OW + ox] = best;
                  oi[oy * OW + ox] = at;
                }
            }
        }
      return;
    }
  for (gint64 t = b; t < e; t++)
    {
      const T *volume = in + t * g->D * g->H * g->W;

      for (gint64 oz = 0; oz < g->OD; oz++)
        for (gint64 oy = 0; oy < g->OH; oy++)
          for (gint64 ox = 0; ox < g->OW; ox++)
            {
              T best = (T) -INFINITY;
              gint64 best_at = -1, l = ((t * g->OD + oz) * g->OH + oy) * g->OW + ox;

              for (gint64 kz = 0; kz < g->kd; kz++)
                {
                  gint64 z = oz * g->sd - g->pd + kz * g->dd;
                  if (z < 0 || z >= g->D)
                    continue;
                  for (gint64 ki = 0; ki < g->kh; ki++)
                    {
                      gint64 y = oy * g->sh - g->ph + ki * g->dh;
                      if (y < 0 || y >= g->H)
                        continue;
                      for (gint64 kj = 0; kj < g->kw; kj++)
                        {
                          gint64 x = ox * g->sw - g->pw + kj * g->dw, at;
                          T v;
                          if (x < 0 || x >= g->W)
                            continue;
                          at = (z * g->H + y) * g->W + x;
                          v = volume[at];
                          if (best_at < 0 || v > best || isnan (v))
                            {
                              best = v;
                              best_at = at;
                            }
                        }
                    }
                }
              out[l] = best;
              idx[l] = MAX (best_at, 0);
            }
    }
}

/* in0 (the gradient) and in1 (the indices of MAX_POOL2D / 3D) are (N, C, [OD,] OH, OW), out
 * (N, C, [D,] H, W): out[n, c, in1[n, c, ·]] += in0[n, c, ·], volumes zeroed first. Tasks are
 * volumes (planes, in 2-d). */
static void
NAME (max_pool_backward_planes) (gpointer data, gint64 b, gint64 e)
{
  const Geometry *g = data;
  const T *gin = g->args->in[0]->data;
  const gint64 *idx = g->args->in[1]->data;
  T *out = g->args->out->data;

  const gint64 image = g->D * g->H * g->W, pooled = g->OD * g->OH * g->OW;

  for (gint64 t = b; t < e; t++)
    {
      T *volume = out + t * image;
      memset (volume, 0, sizeof (T) * image);
      for (gint64 l = t * pooled; l < (t + 1) * pooled; l++)
        volume[idx[l]] += gin[l];
    }
}

/* Adds @share to every element of the box [z0, z1) × [y0, y1) × [x0, x1) of @volume, a
 * (D, H, W) block laid out by @g */
static inline void
NAME (box_spread) (const Geometry *g, T *volume, gint64 z0, gint64 z1, gint64 y0, gint64 y1,
                   gint64 x0, gint64 x1, T share)
{
  const gint64 HW = g->H * g->W;

  for (gint64 z = z0; z < z1; z++)
    for (gint64 y = y0; y < y1; y++)
      for (gint64 x = x0; x < x1; x++)
        volume[z * HW + y * g->W + x] += share;
}

/* The sum, in double, of the box [z0, z1) × [y0, y1) × [x0, x1) of @volume */
static inline double
NAME (box_sum) (const Geometry *g, const T *volume, gint64 z0, gint64 z1, gint64 y0, gint64 y1,
                gint64 x0, gint64 x1)
{
  const gint64 HW = g->H * g->W;
  double sum = 0;

  for (gint64 z = z0; z < z1; z++)
    for (gint64 y = y0; y < y1; y++)
      for (gint64 x = x0; x < x1; x++)
        sum += volume[z * HW + y * g->W + x];
  return sum;
}

/* forward: in0 is (N, C, D, H, W), out (N, C, OD, OH, OW), the mean of each window; backward:
 * in0 is (N, C, OD, OH, OW), out (N, C, D, H, W), each gradient shared over its window (a 2-d
 * call: D = OD = kd = 1). The divisor is divisor_override, or the window's size within the
 * padded or the real volume. Tasks are volumes. */
static void
NAME (avg_pool_planes) (gpointer data, gint64 b, gint64 e)
{
  const Geometry *g = data;
  gboolean backward = g->args->op == GNN_BACKEND_OP_AVG_POOL2D_BACKWARD ||
                      g->args->op == GNN_BACKEND_OP_AVG_POOL3D_BACKWARD;
  gboolean three = g->args->op == GNN_BACKEND_OP_AVG_POOL3D || g->args->op == GNN_BACKEND_OP_AVG_POOL3D_BACKWARD;
  double divisor_override = three ? g->args->params.volume.divisor : g->args->params.window.divisor;
  gboolean count_include_pad = three ? g->args->params.volume.count_include_pad
                                     : g->args->params.window.count_include_pad;
  const T *pooled_in = g->args->in[0]->data;
  T *pooled_out = g->args->out->data;
  const gint64 image = g->D * g->H * g->W;

  for (gint64 t = b; t < e; t++)
    {
      T *image_out = pooled_out + t * image;
      const T *image_in = pooled_in + t * image;

      if (backward)
        memset (image_out, 0, sizeof (T) * image);
      for (gint64 oz = 0; oz < g->OD; oz++)
        for (gint64 oy = 0; oy < g->OH; oy++)
          for (gint64 ox = 0; ox < g->OW; ox++)
            {
              gint64 l = ((t * g->OD + oz) * g->OH + oy) * g->OW + ox;
              gint64 z0 = oz * g->sd - g->pd, y0 = oy * g->sh - g->ph, x0 = ox * g->sw - g->pw;
              gint64 z1 = MIN (z0 + g->kd, g->D + g->pd), y1 = MIN (y0 + g->kh, g->H + g->ph);
              gint64 x1 = MIN (x0 + g->kw, g->W + g->pw);
              gint64 pool_size = (z1 - z0) * (y1 - y0) * (x1 - x0);
              double divisor;

              z0 = MAX (z0, 0); y0 = MAX (y0, 0); x0 = MAX (x0, 0);
              z1 = MIN (z1, g->D); y1 = MIN (y1, g->H); x1 = MIN (x1, g->W);
              if (z0 >= z1 || y0 >= y1 || x0 >= x1)
                {
                  if (!backward)
                    pooled_out[l] = 0;
                  continue;
                }
              divisor = divisor_override != 0 ? divisor_override :
                        count_include_pad ? (double) pool_size
                                          : (double) ((z1 - z0) * (y1 - y0) * (x1 - x0));
              if (backward)
                NAME (box_spread) (g, image_out, z0, z1, y0, y1, x0, x1, (T) (pooled_in[l] / divisor));
              else
                pooled_out[l] = (T) (NAME (box_sum) (g, image_in, z0, z1, y0, y1, x0, x1) / divisor);
            }
    }
}

/* The window of the adaptive output (oz, oy, ox): the depths [⌊oz · D / OD⌋,
 * ⌈(oz + 1) · D / OD⌉), the rows and the columns likewise */
static inline void
NAME (adaptive_box) (const Geometry *g, gint64 oz, gint64 oy, gint64 ox, gint64 *z0, gint64 *z1,
                     gint64 *y0, gint64 *y1, gint64 *x0, gint64 *x1)
{
  *z0 = oz * g->D / g->OD; *z1 = ((oz + 1) * g->D + g->OD - 1) / g->OD;
  *y0 = oy * g->H / g->OH; *y1 = ((oy + 1) * g->H + g->OH - 1) / g->OH;
  *x0 = ox * g->W / g->OW; *x1 = ((ox + 1) * g->W + g->OW - 1) / g->OW;
}

/* forward: in0 is (N, C, D, H, W), out (N, C, OD, OH, OW), out[n, c, oz, oy, ox] the mean of
 * the depths [⌊oz · D / OD⌋, ⌈(oz + 1) · D / OD⌉) and the rows and the columns likewise (a 2-d
 * call: D = OD = 1); backward: the adjoint, from (N, C, OD, OH, OW) into a zeroed
 * (N, C, D, H, W). Tasks are volumes. */
static void
NAME (adaptive_planes) (gpointer data, gint64 b, gint64 e)
{
  const Geometry *g = data;
  gboolean backward = g->args->op == GNN_BACKEND_OP_ADAPTIVE_AVG_POOL2D_BACKWARD ||
                      g->args->op == GNN_BACKEND_OP_ADAPTIVE_AVG_POOL3D_BACKWARD;
  const T *in = g->args->in[0]->data;
  T *out = g->args->out->data;
  const gint64 image = g->D * g->H * g->W;

  for (gint64 t = b; t < e; t++)
    {
      if (backward)
        memset (out + t * image, 0, sizeof (T) * image);
      for (gint64 oz = 0; oz < g->OD; oz++)
        for (gint64 oy = 0; oy < g->OH; oy++)
          for (gint64 ox = 0; ox < g->OW; ox++)
            {
              gint64 z0, z1, y0, y1, x0, x1;
              gint64 l = ((t * g->OD + oz) * g->OH + oy) * g->OW + ox;
              double area;

              NAME (adaptive_box) (g, oz, oy, ox, &z0, &z1, &y0, &y1, &x0, &x1);
              area = (double) ((z1 - z0) * (y1 - y0) * (x1 - x0));

              if (backward)
                NAME (box_spread) (g, out + t * image, z0, z1, y0, y1, x0, x1, (T) (in[l] / area));
              else
                out[l] = (T) (NAME (box_sum) (g, in + t * image, z0, z1, y0, y1, x0, x1) / area);
            }
    }
}

/* in0 is (N, C, D, H, W), out and out2 (N, C, OD, OH, OW): out the maximum over the window of
 * adaptive_planes (NaN wins), out2 its index (z · H + y) · W + x in the volume, the first one on
 * ties. Tasks are volumes. */
static void
NAME (adaptive_max_planes) (gpointer data, gint64 b, gint64 e)
{
  const Geometry *g = data;
  const T *in = g->args->in[0]->data;
  T *out = g->args->out->data;
  gint64 *idx = g->args->out2->data;
  const gint64 image = g->D * g->H * g->W;

  for (gint64 t = b; t < e; t++)
    {
      const T *volume = in + t * image;

      for (gint64 oz = 0; oz < g->OD; oz++)
        for (gint64 oy = 0; oy < g->OH; oy++)
          for (gint64 ox = 0; ox < g->OW; ox++)
            {
              gint64 z0, z1, y0, y1, x0, x1;
              gint64 l = ((t * g->OD + oz) * g->OH + oy) * g->OW + ox, best_at = -1;
              T best = (T) -INFINITY;

              NAME (adaptive_box) (g, oz, oy, ox, &z0, &z1, &y0, &y1, &x0, &x1);
              for (gint64 z = z0; z < z1; z++)
                for (gint64 y = y0; y < y1; y++)
                  for (gint64 x = x0; x < x1; x++)
                    {
                      gint64 at = (z * g->H + y) * g->W + x;
                      T v = volume[at];
                      if (best_at < 0 || v > best || isnan (v))
                        {
                          best = v;
                          best_at = at;
                        }
                    }
              out[l] = best;
              idx[l] = MAX (best_at, 0);
            }
    }
}

#undef T
#undef NAME
