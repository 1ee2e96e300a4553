/* gnn-cpu-math-tmpl.c: the loops of gnn-cpu-math.c for one floating dtype
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Included by gnn-cpu-math.c once per floating dtype, with T the element type, NAME (x) the
 * name x for that dtype (x##_f32) and FN the member of the op's table entry holding its
 * function for T; not compiled on its own. Each loop runs over n elements of out and the
 * inputs (a run of gnn_cpu_foreach): d[k] points at operand k's first element (out first),
 * s[k] is its stride in bytes.
 */

/* out = f (in0), f the op's function in unary_math */
static void
NAME (unary_loop) (char **d, const gint64 *s, gint64 n, const GnnKernelArgs *args)
{
  T (*f) (T) = find_unary (args->op)->FN;

  for (gint64 i = 0; i < n; i++)
    *(T *) (d[0] + i * s[0]) = f (*(const T *) (d[1] + i * s[1]));
}

/* out = f (in0, in1), f the op's function in binary_math */
static void
NAME (binary_loop) (char **d, const gint64 *s, gint64 n, const GnnKernelArgs *args)
{
  T (*f) (T, T) = find_binary (args->op)->FN;

  for (gint64 i = 0; i < n; i++)
    *(T *) (d[0] + i * s[0]) = f (*(const T *) (d[1] + i * s[1]), *(const T *) (d[2] + i * s[2]));
}

/* out = ψ⁽ⁿ⁾(in0), n = params.polygamma.n, in double */
static void
NAME (polygamma_loop) (char **d, const gint64 *s, gint64 n, const GnnKernelArgs *args)
{
  const int order = args->params.polygamma.n;

  for (gint64 i = 0; i < n; i++)
    *(T *) (d[0] + i * s[0]) = (T) gnn_math_polygamma (order, *(const T *) (d[1] + i * s[1]));
}

/* out = f (in0, params), f the op's function in param_math, in double */
static void
NAME (param_loop) (char **d, const gint64 *s, gint64 n, const GnnKernelArgs *args)
{
  double (*f) (double, const GnnKernelParams *) = find_param (args->op)->f;

  for (gint64 i = 0; i < n; i++)
    *(T *) (d[0] + i * s[0]) = (T) f (*(const T *) (d[1] + i * s[1]), &args->params);
}

#undef T
#undef NAME
#undef FN
