/* gnn-cpu-foreach-tmpl.c: the lerp loops of gnn-cpu-foreach.c for one dtype
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Included by gnn-cpu-foreach.c once per floating dtype, with T the element type and
 * NAME (x) the name x for that dtype (x##_f32); not compiled on its own.
 */
/* PyTorch's lerp with a scalar weight: start + w * (end - start) when |w| < 0.5, else
 * end - (end - start) * (1 - w). */

/* o and x are (n), contiguous: o = lerp (o, x, weight). The branch is taken once per call,
 * outside the loops. */
GNN_CPU_MULTIVERSION
static void
NAME (lerp_flat) (T *o, const T *x, gint64 n, double weight)
{
  const T w = (T) weight;
  if (w < (T) 0.5 && w > (T) -0.5)
    {
      for (gint64 i = 0; i < n; i++)
        o[i] = o[i] + w * (x[i] - o[i]);
    }
  else
    {
      const T omw = (T) 1 - w;
      for (gint64 i = 0; i < n; i++)
        o[i] = x[i] - (x[i] - o[i]) * omw;
    }
}

/* the strided form, a loop of gnn_cpu_foreach: d[0] out, d[1] the same tensor read, d[2] end,
 * n elements of any strides */
static void
NAME (lerp_strided) (char **d, const gint64 *s, gint64 n, const GnnKernelArgs *args)
{
  const T w = (T) args->params.lerp.weight;
  const gboolean near = w < (T) 0.5 && w > (T) -0.5;
  for (gint64 i = 0; i < n; i++)
    {
      T a = *(const T *) (d[1] + i * s[1]);
      T b = *(const T *) (d[2] + i * s[2]);
      *(T *) (d[0] + i * s[0]) = near ? a + w * (b - a) : b - (b - a) * ((T) 1 - w);
    }
}

#undef T
#undef NAME
