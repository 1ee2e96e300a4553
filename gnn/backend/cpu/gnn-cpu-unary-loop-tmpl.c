/* gnn-cpu-unary-loop-tmpl.c: one loop of gnn-cpu-unary.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Included once per loop, with
 *   LOOP    the loop's name (neg_f32)
 *   T       the element type of every operand
 *   N_IN    1: out = EXPR of x = in0; 2: out = EXPR of g = in0 (the gradient of the output)
 *           and x = in1 (the saved input or result, as each kernel documents)
 *   SETUP   a declaration of the loop invariants, the op's parameters from args (or
 *           (void) args)
 *   EXPR    the value of one element of out
 * It undefines LOOP, N_IN, SETUP and EXPR (not T); not compiled on its own.
 *
 * The loop runs over n elements of out and the inputs (a run of gnn_cpu_foreach): d[k] points
 * at operand k's first element, s[k] is its stride in bytes. Contiguous operands take a fast
 * path written so that the compiler vectorises it; others the strided one.
 */
GNN_CPU_MULTIVERSION
static void
LOOP (char **d, const gint64 *s, gint64 n, const GnnKernelArgs *args)
{
  SETUP;
#if N_IN == 1
  if (s[0] == sizeof (T) && s[1] == sizeof (T))
    {
      T *o = (T *) d[0];
      const T *X = (const T *) d[1];
      for (gint64 i = 0; i < n; i++)
        {
          const T x = X[i];
          o[i] = (EXPR);
        }
    }
  else
    for (gint64 i = 0; i < n; i++)
      {
        const T x = *(const T *) (d[1] + i * s[1]);
        *(T *) (d[0] + i * s[0]) = (EXPR);
      }
#else
  if (s[0] == sizeof (T) && s[1] == sizeof (T) && s[2] == sizeof (T))
    {
      T *o = (T *) d[0];
      const T *G = (const T *) d[1], *X = (const T *) d[2];
      for (gint64 i = 0; i < n; i++)
        {
          const T g = G[i], x = X[i];
          o[i] = (EXPR);
        }
    }
  else
    for (gint64 i = 0; i < n; i++)
      {
        const T g = *(const T *) (d[1] + i * s[1]);
        const T x = *(const T *) (d[2] + i * s[2]);
        *(T *) (d[0] + i * s[0]) = (EXPR);
      }
#endif
}

#undef LOOP
#undef N_IN
#undef SETUP
#undef EXPR
