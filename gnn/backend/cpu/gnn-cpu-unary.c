/* gnn-cpu-unary.c: elementwise unary kernels and activations, with the fused backward
 * kernels of the activations
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Every loop has a contiguous fast path, written so that the compiler can vectorise it,
 * and a strided path. The formulas follow PyTorch 1.13's CPU kernels
 * (aten/src/ATen/native/cpu/{UnaryOpsKernel,Activation}.cpp) so that results agree to
 * the last bits where the math library allows.
 */
#include "config.h"

#include <math.h>

#include "gnn-cpu-private.h"

/* GCC's -O2 vectorises only loops whose trip count is a known multiple of the vector
 * width; allow the cheap cost model (a short scalar epilogue, an overlap check of out and
 * in) for these loops, and let it compute both arms of a select (x > 0 ? x : a x), which
 * -ftrapping-math forbids. Neither changes a result. */
#if defined (__GNUC__) && !defined (__clang__)
#pragma GCC optimize ("vect-cost-model=cheap", "no-trapping-math")
#endif

/* ---- loop shapes -------------------------------------------------------------------- */

/* out = EXPR (x); SETUP declares the loop invariants (parameters from args). */
#define UNARY_LOOP(NAME, T, SETUP, EXPR)                                                  \
GNN_CPU_MULTIVERSION                                                                      \
static void                                                                               \
NAME (char **d, const gint64 *s, gint64 n, const GnnKernelArgs *args)                     \
{                                                                                         \
  SETUP;                                                                                  \
  if (s[0] == sizeof (T) && s[1] == sizeof (T))                                           \
    {                                                                                     \
      T *o = (T *) d[0];                                                                  \
      const T *X = (const T *) d[1];                                                      \
      for (gint64 i = 0; i < n; i++)                                                      \
        {                                                                                 \
          const T x = X[i];                                                               \
          o[i] = (EXPR);                                                                  \
        }                                                                                 \
    }                                                                                     \
  else                                                                                    \
    for (gint64 i = 0; i < n; i++)                                                        \
      {                                                                                   \
        const T x = *(const T *) (d[1] + i * s[1]);                                       \
        *(T *) (d[0] + i * s[0]) = (EXPR);                                                \
      }                                                                                   \
}

/* out = EXPR (g, x): g is in0 (the gradient of the output), x is in1 (the saved input
 * or result, as each kernel documents). */
#define BACKWARD_LOOP(NAME, T, SETUP, EXPR)                                               \
GNN_CPU_MULTIVERSION                                                                      \
static void                                                                               \
NAME (char **d, const gint64 *s, gint64 n, const GnnKernelArgs *args)                     \
{                                                                                         \
  SETUP;                                                                                  \
  if (s[0] == sizeof (T) && s[1] == sizeof (T) && s[2] == sizeof (T))                     \
    {                                                                                     \
      T *o = (T *) d[0];                                                                  \
      const T *G = (const T *) d[1], *X = (const T *) d[2];                               \
      for (gint64 i = 0; i < n; i++)                                                      \
        {                                                                                 \
          const T g = G[i], x = X[i];                                                     \
          o[i] = (EXPR);                                                                  \
        }                                                                                 \
    }                                                                                     \
  else                                                                                    \
    for (gint64 i = 0; i < n; i++)                                                        \
      {                                                                                   \
        const T g = *(const T *) (d[1] + i * s[1]);                                       \
        const T x = *(const T *) (d[2] + i * s[2]);                                       \
        *(T *) (d[0] + i * s[0]) = (EXPR);                                                \
      }                                                                                   \
}

#define NO_SETUP (void) args
#define SETUP_SLOPE(T) const T p0 = (T) args->params.leaky_relu.negative_slope
#define SETUP_ALPHA(T) const T p0 = (T) args->params.elu.alpha

/* ---- math shared by forward and backward -------------------------------------------- */

/* gelu, exact:  x/2 (1 + erf (x / √2)) */
static inline float
gelu_erf_f (float x)
{
  return x * 0.5f * (1.0f + erff (x * (float) M_SQRT1_2));
}

static inline double
gelu_erf_d (double x)
{
  return x * 0.5 * (1.0 + erf (x * M_SQRT1_2));
}

/* gelu, tanh approximation:  x/2 (1 + tanh (√(2/π) (x + 0.044715 x³))) */
#define GELU_BETA (M_SQRT2 * M_2_SQRTPI * 0.5)
#define GELU_KAPPA 0.044715

static inline float
gelu_tanh_f (float x)
{
  const float inner = (float) GELU_BETA * (x + (float) GELU_KAPPA * (x * x * x));
  return 0.5f * x * (1.0f + tanhf (inner));
}

static inline double
gelu_tanh_d (double x)
{
  const double inner = GELU_BETA * (x + GELU_KAPPA * (x * x * x));
  return 0.5 * x * (1.0 + tanh (inner));
}

/* gelu' exact:  Φ(x) + x φ(x) */
static inline float
gelu_erf_grad_f (float x)
{
  const float cdf = 0.5f * (1.0f + erff (x * (float) M_SQRT1_2));
  const float pdf = (float) (M_2_SQRTPI * M_SQRT1_2 * 0.5) * expf (x * x * -0.5f);
  return cdf + x * pdf;
}

static inline double
gelu_erf_grad_d (double x)
{
  const double cdf = 0.5 * (1.0 + erf (x * M_SQRT1_2));
  const double pdf = (M_2_SQRTPI * M_SQRT1_2 * 0.5) * exp (x * x * -0.5);
  return cdf + x * pdf;
}

/* gelu' tanh:  (1 + t)/2 + x/2 (1 - t²) β (1 + 3κx²), t = tanh (β (x + κx³)) */
static inline float
gelu_tanh_grad_f (float x)
{
  const float beta = (float) GELU_BETA, kappa = (float) GELU_KAPPA;
  const float x_sq = x * x;
  const float t = tanhf (beta * (x + kappa * (x_sq * x)));
  const float left = 0.5f * x, right = 1.0f + t;
  return 0.5f * right + left * (1.0f - t * t) * beta * (1.0f + 3.0f * kappa * x_sq);
}

static inline double
gelu_tanh_grad_d (double x)
{
  const double beta = GELU_BETA, kappa = GELU_KAPPA;
  const double x_sq = x * x;
  const double t = tanh (beta * (x + kappa * (x_sq * x)));
  const double left = 0.5 * x, right = 1.0 + t;
  return 0.5 * right + left * (1.0 - t * t) * beta * (1.0 + 3.0 * kappa * x_sq);
}

/* silu' = σ(x) (1 + x (1 - σ(x))) */
static inline float
silu_grad_f (float x)
{
  const float sg = 1.0f / (1.0f + expf (-x));
  return sg * (1.0f + x * (1.0f - sg));
}

static inline double
silu_grad_d (double x)
{
  const double sg = 1.0 / (1.0 + exp (-x));
  return sg * (1.0 + x * (1.0 - sg));
}

/* ---- forward loops ------------------------------------------------------------------ */

UNARY_LOOP (neg_f32, float, NO_SETUP, -x)
UNARY_LOOP (neg_f64, double, NO_SETUP, -x)
/* two's complement wrap-around, as PyTorch: computed unsigned to stay defined for INT64_MIN */
UNARY_LOOP (neg_i64, gint64, NO_SETUP, (gint64) (0 - (guint64) x))

UNARY_LOOP (exp_f32, float, NO_SETUP, expf (x))
UNARY_LOOP (exp_f64, double, NO_SETUP, exp (x))
UNARY_LOOP (log_f32, float, NO_SETUP, logf (x))
UNARY_LOOP (log_f64, double, NO_SETUP, log (x))
UNARY_LOOP (sqrt_f32, float, NO_SETUP, sqrtf (x))
UNARY_LOOP (sqrt_f64, double, NO_SETUP, sqrt (x))

UNARY_LOOP (abs_f32, float, NO_SETUP, fabsf (x))
UNARY_LOOP (abs_f64, double, NO_SETUP, fabs (x))
UNARY_LOOP (abs_i64, gint64, NO_SETUP, x < 0 ? (gint64) (0 - (guint64) x) : x)

/* sign (NaN) = 0, as PyTorch's (0 < x) - (x < 0) */
UNARY_LOOP (sign_f32, float, NO_SETUP, x > 0.0f ? 1.0f : (x < 0.0f ? -1.0f : 0.0f))
UNARY_LOOP (sign_f64, double, NO_SETUP, x > 0.0 ? 1.0 : (x < 0.0 ? -1.0 : 0.0))
UNARY_LOOP (sign_i64, gint64, NO_SETUP, (gint64) ((x > 0) - (x < 0)))

/* max (x, 0), NaN propagating */
UNARY_LOOP (relu_f32, float, NO_SETUP, x < 0.0f ? 0.0f : x)
UNARY_LOOP (relu_f64, double, NO_SETUP, x < 0.0 ? 0.0 : x)
UNARY_LOOP (relu_i64, gint64, NO_SETUP, x < 0 ? 0 : x)

UNARY_LOOP (leaky_relu_f32, float, SETUP_SLOPE (float), x > 0.0f ? x : x * p0)
UNARY_LOOP (leaky_relu_f64, double, SETUP_SLOPE (double), x > 0.0 ? x : x * p0)

/* PyTorch 1.13 computes exp (x) - 1 here, not expm1 */
UNARY_LOOP (elu_f32, float, SETUP_ALPHA (float), x > 0.0f ? x : (expf (x) - 1.0f) * p0)
UNARY_LOOP (elu_f64, double, SETUP_ALPHA (double), x > 0.0 ? x : (exp (x) - 1.0) * p0)

UNARY_LOOP (gelu_erf_f32, float, NO_SETUP, gelu_erf_f (x))
UNARY_LOOP (gelu_erf_f64, double, NO_SETUP, gelu_erf_d (x))
UNARY_LOOP (gelu_tanh_f32, float, NO_SETUP, gelu_tanh_f (x))
UNARY_LOOP (gelu_tanh_f64, double, NO_SETUP, gelu_tanh_d (x))

UNARY_LOOP (silu_f32, float, NO_SETUP, x / (1.0f + expf (-x)))
UNARY_LOOP (silu_f64, double, NO_SETUP, x / (1.0 + exp (-x)))
UNARY_LOOP (sigmoid_f32, float, NO_SETUP, 1.0f / (1.0f + expf (-x)))
UNARY_LOOP (sigmoid_f64, double, NO_SETUP, 1.0 / (1.0 + exp (-x)))
UNARY_LOOP (tanh_f32, float, NO_SETUP, tanhf (x))
UNARY_LOOP (tanh_f64, double, NO_SETUP, tanh (x))

/* clamp: the bounds of params.clamp that are set.
 * A NaN input stays NaN; min is applied first, so min > max gives max. (A NaN bound is
 * ignored here; the op gives NaN everywhere for one, as PyTorch does.) */
#define CLAMP_SETUP_F(T, INF)                                                             \
  const T lo = args->params.clamp.has_min ? (T) args->params.clamp.min : -(T) INF;        \
  const T hi = args->params.clamp.has_max ? (T) args->params.clamp.max : (T) INF

#define CLAMP_FUNC(NAME, T)                                                               \
static inline T                                                                           \
NAME (T x, T lo, T hi)                                                                    \
{                                                                                         \
  const T v = x < lo ? lo : x;                                                            \
  return v > hi ? hi : v;                                                                 \
}
CLAMP_FUNC (clamp_f, float)
CLAMP_FUNC (clamp_d, double)
CLAMP_FUNC (clamp_l, gint64)

UNARY_LOOP (clamp_f32, float, CLAMP_SETUP_F (float, INFINITY), clamp_f (x, lo, hi))
UNARY_LOOP (clamp_f64, double, CLAMP_SETUP_F (double, INFINITY), clamp_d (x, lo, hi))

/* a bound saturated into the int64 range (the op passes integral bounds for int64) */
static inline gint64
bound_i64 (double v)
{
  if (v >= 9223372036854775807.0)
    return G_MAXINT64;
  if (v <= -9223372036854775808.0)
    return G_MININT64;
  return (gint64) v;
}

#define CLAMP_SETUP_I                                                                     \
  const gint64 lo = args->params.clamp.has_min ? bound_i64 (args->params.clamp.min) : G_MININT64; \
  const gint64 hi = args->params.clamp.has_max ? bound_i64 (args->params.clamp.max) : G_MAXINT64

UNARY_LOOP (clamp_i64, gint64, CLAMP_SETUP_I, clamp_l (x, lo, hi))

/* ---- backward loops ----------------------------------------------------------------- */

/* relu: in1 is the input or the result (both are > 0 at the same places) */
BACKWARD_LOOP (relu_backward_f32, float, NO_SETUP, x <= 0.0f ? 0.0f : g)
BACKWARD_LOOP (relu_backward_f64, double, NO_SETUP, x <= 0.0 ? 0.0 : g)
BACKWARD_LOOP (leaky_relu_backward_f32, float, SETUP_SLOPE (float), x > 0.0f ? g : g * p0)
BACKWARD_LOOP (leaky_relu_backward_f64, double, SETUP_SLOPE (double), x > 0.0 ? g : g * p0)
BACKWARD_LOOP (elu_backward_f32, float, SETUP_ALPHA (float), x <= 0.0f ? g * p0 * expf (x) : g)
BACKWARD_LOOP (elu_backward_f64, double, SETUP_ALPHA (double), x <= 0.0 ? g * p0 * exp (x) : g)
BACKWARD_LOOP (gelu_erf_backward_f32, float, NO_SETUP, g * gelu_erf_grad_f (x))
BACKWARD_LOOP (gelu_erf_backward_f64, double, NO_SETUP, g * gelu_erf_grad_d (x))
BACKWARD_LOOP (gelu_tanh_backward_f32, float, NO_SETUP, g * gelu_tanh_grad_f (x))
BACKWARD_LOOP (gelu_tanh_backward_f64, double, NO_SETUP, g * gelu_tanh_grad_d (x))
BACKWARD_LOOP (silu_backward_f32, float, NO_SETUP, g * silu_grad_f (x))
BACKWARD_LOOP (silu_backward_f64, double, NO_SETUP, g * silu_grad_d (x))
/* sigmoid and tanh: in1 is the result y */
BACKWARD_LOOP (sigmoid_backward_f32, float, NO_SETUP, g * (1.0f - x) * x)
BACKWARD_LOOP (sigmoid_backward_f64, double, NO_SETUP, g * (1.0 - x) * x)
BACKWARD_LOOP (tanh_backward_f32, float, NO_SETUP, g * (1.0f - x * x))
BACKWARD_LOOP (tanh_backward_f64, double, NO_SETUP, g * (1.0 - x * x))

/* ---- dispatch ----------------------------------------------------------------------- */

typedef struct {
  GnnBackendOp op;
  guint n_in;
  GnnCpuLoop f32, f64, i64;
} LoopSet;

static const LoopSet unary_sets[] = {
  { GNN_BACKEND_OP_NEG, 1, neg_f32, neg_f64, neg_i64 },
  { GNN_BACKEND_OP_EXP, 1, exp_f32, exp_f64, NULL },
  { GNN_BACKEND_OP_LOG, 1, log_f32, log_f64, NULL },
  { GNN_BACKEND_OP_SQRT, 1, sqrt_f32, sqrt_f64, NULL },
  { GNN_BACKEND_OP_ABS, 1, abs_f32, abs_f64, abs_i64 },
  { GNN_BACKEND_OP_SIGN, 1, sign_f32, sign_f64, sign_i64 },
  { GNN_BACKEND_OP_CLAMP, 1, clamp_f32, clamp_f64, clamp_i64 },
  { GNN_BACKEND_OP_RELU, 1, relu_f32, relu_f64, relu_i64 },
  { GNN_BACKEND_OP_LEAKY_RELU, 1, leaky_relu_f32, leaky_relu_f64, NULL },
  { GNN_BACKEND_OP_ELU, 1, elu_f32, elu_f64, NULL },
  { GNN_BACKEND_OP_GELU, 1, gelu_erf_f32, gelu_erf_f64, NULL },
  { GNN_BACKEND_OP_SILU, 1, silu_f32, silu_f64, NULL },
  { GNN_BACKEND_OP_SIGMOID, 1, sigmoid_f32, sigmoid_f64, NULL },
  { GNN_BACKEND_OP_TANH, 1, tanh_f32, tanh_f64, NULL },
  { GNN_BACKEND_OP_RELU_BACKWARD, 2, relu_backward_f32, relu_backward_f64, NULL },
  { GNN_BACKEND_OP_LEAKY_RELU_BACKWARD, 2, leaky_relu_backward_f32, leaky_relu_backward_f64, NULL },
  { GNN_BACKEND_OP_ELU_BACKWARD, 2, elu_backward_f32, elu_backward_f64, NULL },
  { GNN_BACKEND_OP_GELU_BACKWARD, 2, gelu_erf_backward_f32, gelu_erf_backward_f64, NULL },
  { GNN_BACKEND_OP_SILU_BACKWARD, 2, silu_backward_f32, silu_backward_f64, NULL },
  { GNN_BACKEND_OP_SIGMOID_BACKWARD, 2, sigmoid_backward_f32, sigmoid_backward_f64, NULL },
  { GNN_BACKEND_OP_TANH_BACKWARD, 2, tanh_backward_f32, tanh_backward_f64, NULL },
};

/* the loops that differ from the table by a parameter */
static GnnCpuLoop
variant (const GnnKernelArgs *args, GnnCpuLoop loop)
{
  gboolean f32 = args->out->dtype == GNN_DTYPE_FLOAT32;

  switch (args->op)
    {
    case GNN_BACKEND_OP_GELU:
      if (args->params.gelu.approximate == 1)
        return f32 ? gelu_tanh_f32 : gelu_tanh_f64;
      break;
    case GNN_BACKEND_OP_GELU_BACKWARD:
      if (args->params.gelu.approximate == 1)
        return f32 ? gelu_tanh_backward_f32 : gelu_tanh_backward_f64;
      break;
    default:
      break;
    }
  return loop;
}

static gboolean
k_unary (const GnnKernelArgs *args, GError **error)
{
  GnnDtype dtype = args->out->dtype;
  const LoopSet *set = NULL;
  GnnCpuLoop loop = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (unary_sets); i++)
    if (unary_sets[i].op == args->op)
      {
        set = &unary_sets[i];
        break;
      }
  if (set == NULL || args->n_in != set->n_in)
    return gnn_cpu_unsupported (args, error);
  for (guint k = 0; k < args->n_in; k++)
    if (args->in[k]->dtype != dtype)
      return gnn_cpu_unsupported (args, error);
  if ((args->op == GNN_BACKEND_OP_GELU || args->op == GNN_BACKEND_OP_GELU_BACKWARD) &&
      args->params.gelu.approximate != 0 && args->params.gelu.approximate != 1)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "cpu: gelu kernel: unknown approximation %d", args->params.gelu.approximate);
      return FALSE;
    }
  switch (dtype)
    {
    case GNN_DTYPE_FLOAT32: loop = set->f32; break;
    case GNN_DTYPE_FLOAT64: loop = set->f64; break;
    case GNN_DTYPE_INT64: loop = set->i64; break;
    default: break;
    }
  if (loop == NULL)
    return gnn_cpu_unsupported (args, error);
  gnn_cpu_foreach (args, variant (args, loop));
  return TRUE;
}

void
gnn_cpu_register_unary (GnnCpuKernel *table)
{
  for (guint i = 0; i < G_N_ELEMENTS (unary_sets); i++)
    table[unary_sets[i].op] = k_unary;
}
