/* gnn-cpu-math.c: the elementwise math functions (logarithms, trigonometric and hyperbolic
 * functions, erf and the gamma functions, rounding, fmod and its kin, the activations with
 * parameters), one table
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * These ops are each one call of a function of <math.h> (or of gnn-math-private.h, which the
 * op table's formulas share with the reference backend): instead of a loop per op and dtype,
 * each op is a row of unary_math or binary_math giving its function for float and for double,
 * and one loop per arity and dtype calls it. The call per element costs little beside the
 * functions themselves; the cheap ops that the hot paths use (arithmetic, the activations)
 * keep their vectorised loops in gnn-cpu-elementwise.c and gnn-cpu-unary.c.
 */
#include "config.h"

#include <math.h>

#include "gnn-cpu-private.h"
#include "backend/gnn-math-private.h"

/* float forms of the functions that C has in double only: computed in double, rounded once */
static float erfinv_f (float x) { return (float) gnn_math_erfinv (x); }
static float remainder_f (float a, float b) { return (float) gnn_math_remainder (a, b); }
static float floor_divide_f (float a, float b) { return (float) gnn_math_floor_divide (a, b); }
static float xlogy_f (float a, float b) { return (float) gnn_math_xlogy (a, b); }
static float logaddexp_f (float a, float b) { return (float) gnn_math_logaddexp (a, b); }
static float logaddexp2_f (float a, float b) { return (float) gnn_math_logaddexp2 (a, b); }
static float i0_f (float x) { return (float) gnn_math_i0 (x); }
static float i0e_f (float x) { return (float) gnn_math_i0e (x); }
static float i1_f (float x) { return (float) gnn_math_i1 (x); }
static float i1e_f (float x) { return (float) gnn_math_i1e (x); }
static float ndtri_f (float x) { return (float) gnn_math_ndtri (x); }
static float log_ndtr_f (float x) { return (float) gnn_math_log_ndtr (x); }
static float erfcx_f (float x) { return (float) gnn_math_erfcx (x); }
static float entr_f (float x) { return (float) gnn_math_entr (x); }
static float xlog1py_f (float a, float b) { return (float) gnn_math_xlog1py (a, b); }
static float zeta_f (float a, float b) { return (float) gnn_math_hurwitz_zeta (a, b); }
/* sinc in float, as PyTorch computes it (π rounded to float, then sin (πx) / (πx)) */
static float sinc_f (float x) { float px = (float) M_PI * x; return x == 0.0f ? 1.0f : sinf (px) / px; }

static float reciprocal_f (float x) { return 1.0f / x; }
static double reciprocal_d (double x) { return 1.0 / x; }
static float rsqrt_f (float x) { return 1.0f / sqrtf (x); }
static double rsqrt_d (double x) { return 1.0 / sqrt (x); }
static float frac_f (float x) { return x - truncf (x); }
static double frac_d (double x) { return x - trunc (x); }

typedef struct {
  GnnBackendOp op;
  float (*f32) (float);
  double (*f64) (double);
} UnaryMath;

static const UnaryMath unary_math[] = {
  { GNN_BACKEND_OP_RECIPROCAL, reciprocal_f, reciprocal_d },
  { GNN_BACKEND_OP_RSQRT, rsqrt_f, rsqrt_d },
  { GNN_BACKEND_OP_LOG1P, log1pf, log1p },
  { GNN_BACKEND_OP_EXPM1, expm1f, expm1 },
  { GNN_BACKEND_OP_LOG2, log2f, log2 },
  { GNN_BACKEND_OP_LOG10, log10f, log10 },
  { GNN_BACKEND_OP_SIN, sinf, sin },
  { GNN_BACKEND_OP_COS, cosf, cos },
  { GNN_BACKEND_OP_TAN, tanf, tan },
  { GNN_BACKEND_OP_ASIN, asinf, asin },
  { GNN_BACKEND_OP_ACOS, acosf, acos },
  { GNN_BACKEND_OP_ATAN, atanf, atan },
  { GNN_BACKEND_OP_SINH, sinhf, sinh },
  { GNN_BACKEND_OP_COSH, coshf, cosh },
  { GNN_BACKEND_OP_ASINH, asinhf, asinh },
  { GNN_BACKEND_OP_ACOSH, acoshf, acosh },
  { GNN_BACKEND_OP_ATANH, atanhf, atanh },
  { GNN_BACKEND_OP_ERF, erff, erf },
  { GNN_BACKEND_OP_ERFC, erfcf, erfc },
  { GNN_BACKEND_OP_ERFINV, erfinv_f, gnn_math_erfinv },
  { GNN_BACKEND_OP_LGAMMA, lgammaf, lgamma },
  { GNN_BACKEND_OP_FLOOR, floorf, floor },
  { GNN_BACKEND_OP_CEIL, ceilf, ceil },
  { GNN_BACKEND_OP_ROUND, nearbyintf, nearbyint },
  { GNN_BACKEND_OP_TRUNC, truncf, trunc },
  { GNN_BACKEND_OP_FRAC, frac_f, frac_d },
  { GNN_BACKEND_OP_EXP2, exp2f, exp2 },
  { GNN_BACKEND_OP_SINC, sinc_f, gnn_math_sinc },
  { GNN_BACKEND_OP_I0, i0_f, gnn_math_i0 },
  { GNN_BACKEND_OP_I0E, i0e_f, gnn_math_i0e },
  { GNN_BACKEND_OP_I1, i1_f, gnn_math_i1 },
  { GNN_BACKEND_OP_I1E, i1e_f, gnn_math_i1e },
  { GNN_BACKEND_OP_NDTRI, ndtri_f, gnn_math_ndtri },
  { GNN_BACKEND_OP_LOG_NDTR, log_ndtr_f, gnn_math_log_ndtr },
  { GNN_BACKEND_OP_ERFCX, erfcx_f, gnn_math_erfcx },
  { GNN_BACKEND_OP_ENTR, entr_f, gnn_math_entr },
};

/* The activations (softplus, celu, selu, the shrinks, threshold and their kin): each the function
 * of gnn-math-private.h that its op table formula names, computed in double (float32 rounded once) */
static double softplus_p (double a, const GnnKernelParams *p) { return gnn_math_softplus (a, p->softplus.beta, p->softplus.threshold); }
static double hardsigmoid_p (double a, const GnnKernelParams *p) { return gnn_math_hardsigmoid (a); }
static double hardswish_p (double a, const GnnKernelParams *p) { return gnn_math_hardswish (a); }
static double mish_p (double a, const GnnKernelParams *p) { return gnn_math_mish (a); }
static double celu_p (double a, const GnnKernelParams *p) { return gnn_math_celu (a, p->elu.alpha); }
static double selu_p (double a, const GnnKernelParams *p) { return gnn_math_selu (a); }
static double log_sigmoid_p (double a, const GnnKernelParams *p) { return gnn_math_log_sigmoid (a); }
static double hardshrink_p (double a, const GnnKernelParams *p) { return gnn_math_hardshrink (a, p->shrink.lambd); }
static double softshrink_p (double a, const GnnKernelParams *p) { return gnn_math_softshrink (a, p->shrink.lambd); }
static double threshold_p (double a, const GnnKernelParams *p) { return gnn_math_threshold (a, p->threshold.threshold, p->threshold.value); }

typedef struct {
  GnnBackendOp op;
  double (*f) (double, const GnnKernelParams *);
} ParamMath;

static const ParamMath param_math[] = {
  { GNN_BACKEND_OP_SOFTPLUS, softplus_p },
  { GNN_BACKEND_OP_HARDSIGMOID, hardsigmoid_p },
  { GNN_BACKEND_OP_HARDSWISH, hardswish_p },
  { GNN_BACKEND_OP_MISH, mish_p },
  { GNN_BACKEND_OP_CELU, celu_p },
  { GNN_BACKEND_OP_SELU, selu_p },
  { GNN_BACKEND_OP_LOG_SIGMOID, log_sigmoid_p },
  { GNN_BACKEND_OP_HARDSHRINK, hardshrink_p },
  { GNN_BACKEND_OP_SOFTSHRINK, softshrink_p },
  { GNN_BACKEND_OP_THRESHOLD, threshold_p },
};

static const ParamMath *
find_param (GnnBackendOp op)
{
  for (gsize i = 0; i < G_N_ELEMENTS (param_math); i++)
    if (param_math[i].op == op)
      return &param_math[i];
  return NULL;
}

/* a % b truncating (fmod), Python's a % b and a // b for int64, b != 0; INT64_MIN by -1 wraps */
static gint64
fmod_i (gint64 a, gint64 b)
{
  return b == -1 ? 0 : a % b;
}

static gint64
remainder_i (gint64 a, gint64 b)
{
  gint64 r = fmod_i (a, b);
  return (r != 0 && ((r < 0) != (b < 0))) ? r + b : r;
}

static gint64
floor_divide_i (gint64 a, gint64 b)
{
  gint64 r = fmod_i (a, b), q = b == -1 ? (gint64) (0 - (guint64) a) : a / b;
  return (r != 0 && ((r < 0) != (b < 0))) ? q - 1 : q;
}

static gint64 fmax_i (gint64 a, gint64 b) { return a > b ? a : b; }
static gint64 fmin_i (gint64 a, gint64 b) { return a < b ? a : b; }
/* 0 below 0, b at 0, 1 above (and 0 for a NaN a, as PyTorch's a == 0 ? b : a > 0) */
static float heaviside_f (float a, float b) { return a == 0.0f ? b : (float) (a > 0.0f); }
static double heaviside_d (double a, double b) { return a == 0.0 ? b : (double) (a > 0.0); }
static gint64 heaviside_i (gint64 a, gint64 b) { return a == 0 ? b : a > 0; }

typedef struct {
  GnnBackendOp op;
  float (*f32) (float, float);
  double (*f64) (double, double);
  gint64 (*i64) (gint64, gint64);   /* NULL: floating dtypes only */
} BinaryMath;

static const BinaryMath binary_math[] = {
  { GNN_BACKEND_OP_ATAN2, atan2f, atan2, NULL },
  { GNN_BACKEND_OP_FMOD, fmodf, fmod, fmod_i },
  { GNN_BACKEND_OP_REMAINDER, remainder_f, gnn_math_remainder, remainder_i },
  { GNN_BACKEND_OP_FLOOR_DIVIDE, floor_divide_f, gnn_math_floor_divide, floor_divide_i },
  { GNN_BACKEND_OP_XLOGY, xlogy_f, gnn_math_xlogy, NULL },
  { GNN_BACKEND_OP_COPYSIGN, copysignf, copysign, NULL },
  { GNN_BACKEND_OP_FMAX, fmaxf, fmax, fmax_i },
  { GNN_BACKEND_OP_FMIN, fminf, fmin, fmin_i },
  { GNN_BACKEND_OP_LOGADDEXP, logaddexp_f, gnn_math_logaddexp, NULL },
  { GNN_BACKEND_OP_LOGADDEXP2, logaddexp2_f, gnn_math_logaddexp2, NULL },
  { GNN_BACKEND_OP_NEXTAFTER, nextafterf, nextafter, NULL },
  { GNN_BACKEND_OP_HEAVISIDE, heaviside_f, heaviside_d, heaviside_i },
  { GNN_BACKEND_OP_XLOG1PY, xlog1py_f, gnn_math_xlog1py, NULL },
  { GNN_BACKEND_OP_ZETA, zeta_f, gnn_math_hurwitz_zeta, NULL },
};

static const UnaryMath *
find_unary (GnnBackendOp op)
{
  for (gsize i = 0; i < G_N_ELEMENTS (unary_math); i++)
    if (unary_math[i].op == op)
      return &unary_math[i];
  g_assert_not_reached ();
}

static const BinaryMath *
find_binary (GnnBackendOp op)
{
  for (gsize i = 0; i < G_N_ELEMENTS (binary_math); i++)
    if (binary_math[i].op == op)
      return &binary_math[i];
  g_assert_not_reached ();
}

/* unary_loop_f32, binary_loop_f32, polygamma_loop_f32, param_loop_f32 and their f64 forms */
#define T float
#define NAME(x) x##_f32
#define FN f32
#include "gnn-cpu-math-tmpl.c"
#define T double
#define NAME(x) x##_f64
#define FN f64
#include "gnn-cpu-math-tmpl.c"

/* the int64 binary loop, after k_math has checked the divisors */
static void
binary_loop_i64 (char **d, const gint64 *s, gint64 n, const GnnKernelArgs *args)
{
  gint64 (*f) (gint64, gint64) = find_binary (args->op)->i64;

  for (gint64 i = 0; i < n; i++)
    *(gint64 *) (d[0] + i * s[0]) = f (*(const gint64 *) (d[1] + i * s[1]), *(const gint64 *) (d[2] + i * s[2]));
}

static gboolean
k_math (const GnnKernelArgs *args, GError **error)
{
  GnnDtype dtype = args->out->dtype;
  guint n_in = gnn_backend_op_get_info (args->op)->n_in;
  gboolean f32 = dtype == GNN_DTYPE_FLOAT32;

  if (args->n_in != n_in)
    return gnn_cpu_unsupported (args, error);
  for (guint k = 0; k < n_in; k++)
    if (args->in[k]->dtype != dtype)
      return gnn_cpu_unsupported (args, error);
  if (dtype == GNN_DTYPE_INT64 && n_in == 2 && find_binary (args->op)->i64)
    {
      gboolean divides = args->op == GNN_BACKEND_OP_FMOD || args->op == GNN_BACKEND_OP_REMAINDER ||
                         args->op == GNN_BACKEND_OP_FLOOR_DIVIDE;

      if (divides && gnn_cpu_has_zero_i64 (args->in[1]))
        {
          /* PyTorch's ZeroDivisionError */
          g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                       "cpu %s kernel: ZeroDivisionError (an integer division by zero)", gnn_backend_op_get_nick (args->op));
          return FALSE;
        }
      gnn_cpu_foreach (args, binary_loop_i64);
      return TRUE;
    }
  if (!f32 && dtype != GNN_DTYPE_FLOAT64)
    return gnn_cpu_unsupported (args, error);
  if (args->op == GNN_BACKEND_OP_POLYGAMMA)
    gnn_cpu_foreach (args, f32 ? polygamma_loop_f32 : polygamma_loop_f64);
  else if (find_param (args->op))
    gnn_cpu_foreach (args, f32 ? param_loop_f32 : param_loop_f64);
  else if (n_in == 1)
    gnn_cpu_foreach (args, f32 ? unary_loop_f32 : unary_loop_f64);
  else
    gnn_cpu_foreach (args, f32 ? binary_loop_f32 : binary_loop_f64);
  return TRUE;
}

void
gnn_cpu_register_math (GnnCpuKernel *table)
{
  for (gsize i = 0; i < G_N_ELEMENTS (unary_math); i++)
    table[unary_math[i].op] = k_math;
  for (gsize i = 0; i < G_N_ELEMENTS (binary_math); i++)
    table[binary_math[i].op] = k_math;
  for (gsize i = 0; i < G_N_ELEMENTS (param_math); i++)
    table[param_math[i].op] = k_math;
  table[GNN_BACKEND_OP_POLYGAMMA] = k_math;
}
