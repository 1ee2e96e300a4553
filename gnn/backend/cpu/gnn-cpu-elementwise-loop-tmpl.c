/* gnn-cpu-elementwise-loop-tmpl.c: one loop of gnn-cpu-elementwise.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Included once per loop, with
 *   LOOP    the loop's name (add_f32)
 *   T       the element type of the inputs
 *   N_IN    2: out = EXPR of a = in0 and b = in1, out of type TO (T, or guint8 for a
 *           comparison) and alpha = params.add.alpha as a T;
 *           3: out = EXPR of a = in0, b = in1 and c = in2, out of type T and
 *           v = params.addc.value as a T
 *   EXPR    the value of one element of out
 * It undefines LOOP, N_IN, TO and EXPR (not T); not compiled on its own.
 *
 * The loop runs over n elements of out and the inputs (a run of gnn_cpu_foreach): d[k] points
 * at operand k's first element (out first), s[k] is its stride in bytes. A binary loop has a
 * contiguous fast path and one for a broadcast scalar b, which the compiler vectorises.
 */
GNN_CPU_MULTIVERSION
static void
LOOP (char **d, const gint64 *s, gint64 n, const GnnKernelArgs *args)
{
#if N_IN == 2
  const T alpha = (T) args->params.add.alpha;
  const char *pa = d[1], *pb = d[2];
  (void) alpha;
  if (s[0] == sizeof (TO) && s[1] == sizeof (T) && s[2] == sizeof (T))
    {
      TO *o = (TO *) d[0];
      const T *A = (const T *) pa, *B = (const T *) pb;
      for (gint64 i = 0; i < n; i++)
        { T a = A[i], b = B[i]; o[i] = (TO) (EXPR); }
    }
  else if (s[0] == sizeof (TO) && s[1] == sizeof (T) && s[2] == 0)
    {
      TO *o = (TO *) d[0];
      const T *A = (const T *) pa;
      const T b = *(const T *) pb;
      for (gint64 i = 0; i < n; i++)
        { T a = A[i]; o[i] = (TO) (EXPR); }
    }
  else
    for (gint64 i = 0; i < n; i++)
      {
        T a = *(const T *) (pa + i * s[1]), b = *(const T *) (pb + i * s[2]);
        *(TO *) (d[0] + i * s[0]) = (TO) (EXPR);
      }
#else
  const T v = (T) args->params.addc.value;
  (void) v;
  for (gint64 i = 0; i < n; i++)
    {
      T a = *(const T *) (d[1] + i * s[1]);
      T b = *(const T *) (d[2] + i * s[2]);
      T c = *(const T *) (d[3] + i * s[3]);
      *(T *) (d[0] + i * s[0]) = (EXPR);
    }
#endif
}

#undef LOOP
#undef N_IN
#undef TO
#undef EXPR
