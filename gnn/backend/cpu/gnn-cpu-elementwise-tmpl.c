/* gnn-cpu-elementwise-tmpl.c: the arithmetic of gnn-cpu-elementwise.c for one compute dtype
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Included by gnn-cpu-elementwise.c once per compute dtype (float32, float64, int64), with T
 * the element type, NAME (x) the name x for that dtype (x##_f32), INTEGER 1 for int64 and 0
 * otherwise, and M (f) the C math function f for a floating T (powf for float); not compiled
 * on its own. The binary and ternary loops are gnn-cpu-elementwise-loop-tmpl.c with their
 * formulas; all operands share one shape (broadcasting by zero strides).
 */
/* ---- binary arithmetic: out = f (a, b) ---------------------------------------------- */

#define LOOP NAME (add)
#define N_IN 2
#define TO T
#define EXPR a + alpha * b
#include "gnn-cpu-elementwise-loop-tmpl.c"

#define LOOP NAME (sub)
#define N_IN 2
#define TO T
#define EXPR a - alpha * b
#include "gnn-cpu-elementwise-loop-tmpl.c"

#define LOOP NAME (mul)
#define N_IN 2
#define TO T
#define EXPR a * b
#include "gnn-cpu-elementwise-loop-tmpl.c"

#define LOOP NAME (div)
#define N_IN 2
#define TO T
#if INTEGER
#define EXPR idiv (a, b)
#else
#define EXPR a / b
#endif
#include "gnn-cpu-elementwise-loop-tmpl.c"

#define LOOP NAME (pow)
#define N_IN 2
#define TO T
#if INTEGER
#define EXPR ipow (a, b)
#else
#define EXPR M (pow) (a, b)
#endif
#include "gnn-cpu-elementwise-loop-tmpl.c"

/* NaN propagating: a NaN a wins, and a NaN b fails both comparisons */
#define LOOP NAME (maximum)
#define N_IN 2
#define TO T
#if INTEGER
#define EXPR a > b ? a : b
#else
#define EXPR (a > b || a != a) ? a : b
#endif
#include "gnn-cpu-elementwise-loop-tmpl.c"

#define LOOP NAME (minimum)
#define N_IN 2
#define TO T
#if INTEGER
#define EXPR a < b ? a : b
#else
#define EXPR (a < b || a != a) ? a : b
#endif
#include "gnn-cpu-elementwise-loop-tmpl.c"

/* ---- comparisons: out (bool) = a ? b ------------------------------------------------ */

#define LOOP NAME (eq)
#define N_IN 2
#define TO guint8
#define EXPR a == b
#include "gnn-cpu-elementwise-loop-tmpl.c"

#define LOOP NAME (ne)
#define N_IN 2
#define TO guint8
#define EXPR a != b
#include "gnn-cpu-elementwise-loop-tmpl.c"

#define LOOP NAME (lt)
#define N_IN 2
#define TO guint8
#define EXPR a < b
#include "gnn-cpu-elementwise-loop-tmpl.c"

#define LOOP NAME (le)
#define N_IN 2
#define TO guint8
#define EXPR a <= b
#include "gnn-cpu-elementwise-loop-tmpl.c"

#define LOOP NAME (gt)
#define N_IN 2
#define TO guint8
#define EXPR a > b
#include "gnn-cpu-elementwise-loop-tmpl.c"

#define LOOP NAME (ge)
#define N_IN 2
#define TO guint8
#define EXPR a >= b
#include "gnn-cpu-elementwise-loop-tmpl.c"

/* ---- where -------------------------------------------------------------------------- */

/* in0 (bool), in1, in2 and out share one shape: out = in0 ? in1 : in2 */
static void
NAME (where) (char **d, const gint64 *s, gint64 n, const GnnKernelArgs *args)
{
  for (gint64 i = 0; i < n; i++)
    *(T *) (d[0] + i * s[0]) = *(const guint8 *) (d[1] + i * s[1])
                               ? *(const T *) (d[2] + i * s[2])
                               : *(const T *) (d[3] + i * s[3]);
}

/* ---- pow with a scalar exponent ----------------------------------------------------- */

#if !INTEGER
/* out = in0 ^ pow.exponent, with PyTorch's special cases of the exponent */
static void
NAME (pow_scalar) (char **d, const gint64 *s, gint64 n, const GnnKernelArgs *args)
{
  const double e = args->params.pow.exponent;
  for (gint64 i = 0; i < n; i++)
    {
      T x = *(const T *) (d[1] + i * s[1]), r;
      if (e == 2.0) r = x * x;
      else if (e == 3.0) r = x * x * x;
      else if (e == 0.5) r = (T) sqrt (x);
      else if (e == -0.5) r = (T) (1.0 / sqrt (x));
      else if (e == -1.0) r = (T) 1.0 / x;
      else if (e == -2.0) r = (T) 1.0 / (x * x);
      else r = M (pow) (x, (T) e);
      *(T *) (d[0] + i * s[0]) = r;
    }
}
#endif

/* ---- lerp, addcmul, addcdiv: out = f (a, b, c) -------------------------------------- */

#if !INTEGER
/* PyTorch's lerp: start + w * (end - start) for |w| < 0.5, else end - (end - start) * (1 - w) */
#define LOOP NAME (lerp)
#define N_IN 3
#define EXPR (c < (T) 0.5 && c > (T) -0.5) ? a + c * (b - a) : b - (b - a) * ((T) 1 - c)
#include "gnn-cpu-elementwise-loop-tmpl.c"
#endif

#define LOOP NAME (addcmul)
#define N_IN 3
#define EXPR a + v * b * c
#include "gnn-cpu-elementwise-loop-tmpl.c"

#if !INTEGER
/* PyTorch's order: self + value * tensor1 / tensor2 is (value * tensor1) / tensor2 */
#define LOOP NAME (addcdiv)
#define N_IN 3
#define EXPR a + v * b / c
#include "gnn-cpu-elementwise-loop-tmpl.c"
#endif

#undef T
#undef NAME
#undef INTEGER
#undef M
