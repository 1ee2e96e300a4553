/* gnn-cpu-unary-tmpl.c: the unary kernels and activations of gnn-cpu-unary.c for one
 * floating dtype
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Included by gnn-cpu-unary.c once per floating dtype, with T the element type, NAME (x) the
 * name x for that dtype (x##_f32) and M (f) the C math function f for it (expf for float);
 * not compiled on its own. Each loop is gnn-cpu-unary-loop-tmpl.c with its formula: out and
 * x = in0 shaped alike, and for the backward kernels g = in0, x = in1.
 */
/* ---- math shared by forward and backward -------------------------------------------- */

/* gelu, exact:  x/2 (1 + erf (x / √2)) */
static inline T
NAME (gelu_erf_of) (T x)
{
  return x * (T) 0.5 * ((T) 1 + M (erf) (x * (T) M_SQRT1_2));
}

/* gelu, tanh approximation:  x/2 (1 + tanh (√(2/π) (x + 0.044715 x³))) */
static inline T
NAME (gelu_tanh_of) (T x)
{
  const T inner = (T) GELU_BETA * (x + (T) GELU_KAPPA * (x * x * x));
  return (T) 0.5 * x * ((T) 1 + M (tanh) (inner));
}

/* gelu' exact:  Φ(x) + x φ(x) */
static inline T
NAME (gelu_erf_grad) (T x)
{
  const T cdf = (T) 0.5 * ((T) 1 + M (erf) (x * (T) M_SQRT1_2));
  const T pdf = (T) (M_2_SQRTPI * M_SQRT1_2 * 0.5) * M (exp) (x * x * (T) -0.5);
  return cdf + x * pdf;
}

/* gelu' tanh:  (1 + t)/2 + x/2 (1 - t²) β (1 + 3κx²), t = tanh (β (x + κx³)) */
static inline T
NAME (gelu_tanh_grad) (T x)
{
  const T beta = (T) GELU_BETA, kappa = (T) GELU_KAPPA;
  const T x_sq = x * x;
  const T t = M (tanh) (beta * (x + kappa * (x_sq * x)));
  const T left = (T) 0.5 * x, right = (T) 1 + t;
  return (T) 0.5 * right + left * ((T) 1 - t * t) * beta * ((T) 1 + (T) 3 * kappa * x_sq);
}

/* silu' = σ(x) (1 + x (1 - σ(x))) */
static inline T
NAME (silu_grad) (T x)
{
  const T sg = (T) 1 / ((T) 1 + M (exp) (-x));
  return sg * ((T) 1 + x * ((T) 1 - sg));
}

/* clamp: a NaN input stays NaN; min is applied first, so min > max gives max. (A NaN bound
 * is ignored here; the op gives NaN everywhere for one, as PyTorch does.) */
static inline T
NAME (clamp_between) (T x, T lo, T hi)
{
  const T v = x < lo ? lo : x;
  return v > hi ? hi : v;
}

/* ---- forward loops: out = f (x) ----------------------------------------------------- */

#define LOOP NAME (neg)
#define N_IN 1
#define SETUP NO_SETUP
#define EXPR -x
#include "gnn-cpu-unary-loop-tmpl.c"

#define LOOP NAME (exp)
#define N_IN 1
#define SETUP NO_SETUP
#define EXPR M (exp) (x)
#include "gnn-cpu-unary-loop-tmpl.c"

#define LOOP NAME (log)
#define N_IN 1
#define SETUP NO_SETUP
#define EXPR M (log) (x)
#include "gnn-cpu-unary-loop-tmpl.c"

#define LOOP NAME (sqrt)
#define N_IN 1
#define SETUP NO_SETUP
#define EXPR M (sqrt) (x)
#include "gnn-cpu-unary-loop-tmpl.c"

#define LOOP NAME (abs)
#define N_IN 1
#define SETUP NO_SETUP
#define EXPR M (fabs) (x)
#include "gnn-cpu-unary-loop-tmpl.c"

/* sign (NaN) = 0, as PyTorch's (0 < x) - (x < 0) */
#define LOOP NAME (sign)
#define N_IN 1
#define SETUP NO_SETUP
#define EXPR x > (T) 0 ? (T) 1 : (x < (T) 0 ? (T) -1 : (T) 0)
#include "gnn-cpu-unary-loop-tmpl.c"

/* max (x, 0), NaN propagating */
#define LOOP NAME (relu)
#define N_IN 1
#define SETUP NO_SETUP
#define EXPR x < (T) 0 ? (T) 0 : x
#include "gnn-cpu-unary-loop-tmpl.c"

#define LOOP NAME (leaky_relu)
#define N_IN 1
#define SETUP SETUP_SLOPE (T)
#define EXPR x > (T) 0 ? x : x * p0
#include "gnn-cpu-unary-loop-tmpl.c"

/* PyTorch 1.13 computes exp (x) - 1 here, not expm1 */
#define LOOP NAME (elu)
#define N_IN 1
#define SETUP SETUP_ALPHA (T)
#define EXPR x > (T) 0 ? x : (M (exp) (x) - (T) 1) * p0
#include "gnn-cpu-unary-loop-tmpl.c"

#define LOOP NAME (gelu_erf)
#define N_IN 1
#define SETUP NO_SETUP
#define EXPR NAME (gelu_erf_of) (x)
#include "gnn-cpu-unary-loop-tmpl.c"

#define LOOP NAME (gelu_tanh)
#define N_IN 1
#define SETUP NO_SETUP
#define EXPR NAME (gelu_tanh_of) (x)
#include "gnn-cpu-unary-loop-tmpl.c"

#define LOOP NAME (silu)
#define N_IN 1
#define SETUP NO_SETUP
#define EXPR x / ((T) 1 + M (exp) (-x))
#include "gnn-cpu-unary-loop-tmpl.c"

#define LOOP NAME (sigmoid)
#define N_IN 1
#define SETUP NO_SETUP
#define EXPR (T) 1 / ((T) 1 + M (exp) (-x))
#include "gnn-cpu-unary-loop-tmpl.c"

#define LOOP NAME (tanh)
#define N_IN 1
#define SETUP NO_SETUP
#define EXPR M (tanh) (x)
#include "gnn-cpu-unary-loop-tmpl.c"

#define LOOP NAME (clamp)
#define N_IN 1
#define SETUP SETUP_CLAMP (T, (T), -(T) INFINITY, (T) INFINITY)
#define EXPR NAME (clamp_between) (x, lo, hi)
#include "gnn-cpu-unary-loop-tmpl.c"

/* ---- backward loops: out = g · f' (x) ----------------------------------------------- */

/* relu: in1 is the input or the result (both are > 0 at the same places) */
#define LOOP NAME (relu_backward)
#define N_IN 2
#define SETUP NO_SETUP
#define EXPR x <= (T) 0 ? (T) 0 : g
#include "gnn-cpu-unary-loop-tmpl.c"

#define LOOP NAME (leaky_relu_backward)
#define N_IN 2
#define SETUP SETUP_SLOPE (T)
#define EXPR x > (T) 0 ? g : g * p0
#include "gnn-cpu-unary-loop-tmpl.c"

#define LOOP NAME (elu_backward)
#define N_IN 2
#define SETUP SETUP_ALPHA (T)
#define EXPR x <= (T) 0 ? g * p0 * M (exp) (x) : g
#include "gnn-cpu-unary-loop-tmpl.c"

#define LOOP NAME (gelu_erf_backward)
#define N_IN 2
#define SETUP NO_SETUP
#define EXPR g * NAME (gelu_erf_grad) (x)
#include "gnn-cpu-unary-loop-tmpl.c"

#define LOOP NAME (gelu_tanh_backward)
#define N_IN 2
#define SETUP NO_SETUP
#define EXPR g * NAME (gelu_tanh_grad) (x)
#include "gnn-cpu-unary-loop-tmpl.c"

#define LOOP NAME (silu_backward)
#define N_IN 2
#define SETUP NO_SETUP
#define EXPR g * NAME (silu_grad) (x)
#include "gnn-cpu-unary-loop-tmpl.c"

/* sigmoid and tanh: in1 is the result y */
#define LOOP NAME (sigmoid_backward)
#define N_IN 2
#define SETUP NO_SETUP
#define EXPR g * ((T) 1 - x) * x
#include "gnn-cpu-unary-loop-tmpl.c"

#define LOOP NAME (tanh_backward)
#define N_IN 2
#define SETUP NO_SETUP
#define EXPR g * ((T) 1 - x * x)
#include "gnn-cpu-unary-loop-tmpl.c"

#undef T
#undef NAME
#undef M
