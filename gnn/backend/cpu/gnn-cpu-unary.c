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

/* ---- the loops ---------------------------------------------------------------------- */

/* The op's parameters, SETUP of the loops that read one (gnn-cpu-unary-loop-tmpl.c) */
#define NO_SETUP (void) args
#define SETUP_SLOPE(T) const T p0 = (T) args->params.leaky_relu.negative_slope
#define SETUP_ALPHA(T) const T p0 = (T) args->params.elu.alpha
/* clamp: lo and hi, the bounds of params.clamp that are set (converted by CONV), MIN and MAX
 * for the others */
#define CLAMP_BOUND(CONV, which, other) (args->params.clamp.has_##which ? CONV (args->params.clamp.which) : (other))
#define SETUP_CLAMP(T, CONV, MIN, MAX) const T lo = CLAMP_BOUND (CONV, min, MIN), hi = CLAMP_BOUND (CONV, max, MAX)

#define GELU_BETA (M_SQRT2 * M_2_SQRTPI * 0.5)
#define GELU_KAPPA 0.044715

/* the loops of each floating dtype, neg_f32 to tanh_backward_f64 */
#define T float
#define NAME(x) x##_f32
#define M(fn) fn##f
#include "gnn-cpu-unary-tmpl.c"
#define T double
#define NAME(x) x##_f64
#define M(fn) fn
#include "gnn-cpu-unary-tmpl.c"

/* int64: the ops of the table that are defined on integers */
#define T gint64

/* two's complement wrap-around, as PyTorch: computed unsigned to stay defined for INT64_MIN */
#define LOOP neg_i64
#define N_IN 1
#define SETUP NO_SETUP
#define EXPR (gint64) (0 - (guint64) x)
#include "gnn-cpu-unary-loop-tmpl.c"

#define LOOP abs_i64
#define N_IN 1
#define SETUP NO_SETUP
#define EXPR x < 0 ? (gint64) (0 - (guint64) x) : x
#include "gnn-cpu-unary-loop-tmpl.c"

#define LOOP sign_i64
#define N_IN 1
#define SETUP NO_SETUP
#define EXPR (gint64) ((x > 0) - (x < 0))
#include "gnn-cpu-unary-loop-tmpl.c"

#define LOOP relu_i64
#define N_IN 1
#define SETUP NO_SETUP
#define EXPR x < 0 ? 0 : x
#include "gnn-cpu-unary-loop-tmpl.c"

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

static inline gint64
clamp_between_i64 (gint64 x, gint64 lo, gint64 hi)
{
  const gint64 v = x < lo ? lo : x;
  return v > hi ? hi : v;
}

#define LOOP clamp_i64
#define N_IN 1
#define SETUP SETUP_CLAMP (gint64, bound_i64, G_MININT64, G_MAXINT64)
#define EXPR clamp_between_i64 (x, lo, hi)
#include "gnn-cpu-unary-loop-tmpl.c"
#undef T

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
