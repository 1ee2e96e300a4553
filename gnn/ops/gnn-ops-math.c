/* gnn-ops-math.c: the elementwise math functions: logarithms, trigonometric and hyperbolic
 * functions, erf, the gamma functions, rounding, fmod and its kin, logit, and the activations of
 * torch.nn.functional that are one kernel (softplus, hardsigmoid, hardswish, mish, celu, selu,
 * logsigmoid, hardshrink, softshrink, threshold)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Each unary function is a row of unary_math (its kernel, torch's names, what it does with
 * integers), run by one function and differentiated by one backward that writes f' with
 * other ops (so the gradients run on every backend and can be differentiated again). Dtypes
 * as PyTorch 1.13: the float-valued functions give float32 for integer and bool inputs; the
 * rounding functions keep integers (a copy) and refuse bool; frac and the activations refuse both.
 */
#include "config.h"

#include <math.h>

#include "gnn-ops-private.h"
#include "backend/gnn-math-private.h"

#define NEEDS(j) (node->edges[(j)].node != NULL)

typedef enum {
  MATH_FLOAT,      /* integers and bool give float32 */
  MATH_ROUNDING,   /* integers give a copy of themselves; bool is refused */
  MATH_FLOATING,   /* floating dtypes only */
  MATH_ACTIVATION, /* floating dtypes only, the input saved */
} MathKind;

typedef struct {
  GnnBackendOp op;
  const char *name;
  const char *grad_fn;
  MathKind kind;
  gboolean save_result;   /* the backward reads the result rather than the input */
} UnaryMath;

static const UnaryMath unary_math[] = {
  { GNN_BACKEND_OP_RECIPROCAL, "reciprocal", "ReciprocalBackward0", MATH_FLOAT, TRUE },
  { GNN_BACKEND_OP_RSQRT, "rsqrt", "RsqrtBackward0", MATH_FLOAT, TRUE },
  { GNN_BACKEND_OP_LOG1P, "log1p", "Log1PBackward0", MATH_FLOAT, FALSE },
  { GNN_BACKEND_OP_EXPM1, "expm1", "Expm1Backward0", MATH_FLOAT, TRUE },
  { GNN_BACKEND_OP_LOG2, "log2", "Log2Backward0", MATH_FLOAT, FALSE },
  { GNN_BACKEND_OP_LOG10, "log10", "Log10Backward0", MATH_FLOAT, FALSE },
  { GNN_BACKEND_OP_SIN, "sin", "SinBackward0", MATH_FLOAT, FALSE },
  { GNN_BACKEND_OP_COS, "cos", "CosBackward0", MATH_FLOAT, FALSE },
  { GNN_BACKEND_OP_TAN, "tan", "TanBackward0", MATH_FLOAT, TRUE },
  { GNN_BACKEND_OP_ASIN, "asin", "AsinBackward0", MATH_FLOAT, FALSE },
  { GNN_BACKEND_OP_ACOS, "acos", "AcosBackward0", MATH_FLOAT, FALSE },
  { GNN_BACKEND_OP_ATAN, "atan", "AtanBackward0", MATH_FLOAT, FALSE },
  { GNN_BACKEND_OP_SINH, "sinh", "SinhBackward0", MATH_FLOAT, FALSE },
  { GNN_BACKEND_OP_COSH, "cosh", "CoshBackward0", MATH_FLOAT, FALSE },
  { GNN_BACKEND_OP_ASINH, "asinh", "AsinhBackward0", MATH_FLOAT, FALSE },
  { GNN_BACKEND_OP_ACOSH, "acosh", "AcoshBackward0", MATH_FLOAT, FALSE },
  { GNN_BACKEND_OP_ATANH, "atanh", "AtanhBackward0", MATH_FLOAT, FALSE },
  { GNN_BACKEND_OP_ERF, "erf", "ErfBackward0", MATH_FLOAT, FALSE },
  { GNN_BACKEND_OP_ERFC, "erfc", "ErfcBackward0", MATH_FLOAT, FALSE },
  { GNN_BACKEND_OP_ERFINV, "erfinv", "ErfinvBackward0", MATH_FLOAT, TRUE },
  { GNN_BACKEND_OP_LGAMMA, "lgamma", "LgammaBackward0", MATH_FLOAT, FALSE },
  { GNN_BACKEND_OP_POLYGAMMA, "polygamma", "PolygammaBackward0", MATH_FLOAT, FALSE },
  { GNN_BACKEND_OP_EXP2, "exp2", "Exp2Backward0", MATH_FLOAT, TRUE },
  { GNN_BACKEND_OP_SINC, "sinc", "SincBackward0", MATH_FLOAT, FALSE },
  { GNN_BACKEND_OP_I0, "i0", "I0Backward0", MATH_FLOAT, FALSE },
  { GNN_BACKEND_OP_I0E, "special_i0e", "SpecialI0EBackward0", MATH_FLOAT, FALSE },
  { GNN_BACKEND_OP_I1, "special_i1", "SpecialI1Backward0", MATH_FLOAT, FALSE },
  { GNN_BACKEND_OP_I1E, "special_i1e", "SpecialI1EBackward0", MATH_FLOAT, FALSE },
  { GNN_BACKEND_OP_NDTRI, "special_ndtri", "SpecialNdtriBackward0", MATH_FLOAT, TRUE },
  { GNN_BACKEND_OP_LOG_NDTR, "special_log_ndtr", "SpecialLogNdtrBackward0", MATH_FLOAT, FALSE },
  { GNN_BACKEND_OP_ERFCX, "special_erfcx", "SpecialErfcxBackward0", MATH_FLOAT, FALSE },
  { GNN_BACKEND_OP_ENTR, "special_entr", "SpecialEntrBackward0", MATH_FLOAT, FALSE },
  { GNN_BACKEND_OP_FLOOR, "floor", "FloorBackward0", MATH_ROUNDING, FALSE },
  { GNN_BACKEND_OP_CEIL, "ceil", "CeilBackward0", MATH_ROUNDING, FALSE },
  { GNN_BACKEND_OP_ROUND, "round", "RoundBackward0", MATH_ROUNDING, FALSE },
  { GNN_BACKEND_OP_TRUNC, "trunc", "TruncBackward0", MATH_ROUNDING, FALSE },
  { GNN_BACKEND_OP_FRAC, "frac", "FracBackward0", MATH_FLOATING, FALSE },
  { GNN_BACKEND_OP_SOFTPLUS, "softplus", "SoftplusBackward0", MATH_ACTIVATION, FALSE },
  { GNN_BACKEND_OP_HARDSIGMOID, "hardsigmoid", "HardsigmoidBackward0", MATH_ACTIVATION, FALSE },
  { GNN_BACKEND_OP_HARDSWISH, "hardswish", "HardswishBackward0", MATH_ACTIVATION, FALSE },
  { GNN_BACKEND_OP_MISH, "mish", "MishBackward0", MATH_ACTIVATION, FALSE },
  { GNN_BACKEND_OP_CELU, "celu", "CeluBackward0", MATH_ACTIVATION, FALSE },
  { GNN_BACKEND_OP_SELU, "selu", "EluBackward0", MATH_ACTIVATION, FALSE },
  { GNN_BACKEND_OP_LOG_SIGMOID, "log_sigmoid", "LogSigmoidBackward0", MATH_ACTIVATION, FALSE },
  { GNN_BACKEND_OP_HARDSHRINK, "hardshrink", "HardshrinkBackward0", MATH_ACTIVATION, FALSE },
  { GNN_BACKEND_OP_SOFTSHRINK, "softshrink", "SoftshrinkBackward0", MATH_ACTIVATION, FALSE },
  { GNN_BACKEND_OP_THRESHOLD, "threshold", "ThresholdBackward0", MATH_ACTIVATION, FALSE },
};

/* the node's context: the row, and the kernel's parameters (the order of polygamma, those of
 * the activations) */
typedef struct {
  const UnaryMath *math;
  GnnKernelParams params;
} MathCtx;

static const UnaryMath *
find_math (GnnBackendOp op)
{
  for (gsize i = 0; i < G_N_ELEMENTS (unary_math); i++)
    if (unary_math[i].op == op)
      return &unary_math[i];
  g_assert_not_reached ();
}

/* @t (transfer full) summed to input @j's shape and cast to its dtype, as its gradient */
static gboolean
set_input_grad (GnnNode *node, GnnTensor **gi, guint j, GnnTensor *t, GError **error)
{
  g_autoptr(GnnTensor) owned = t;
  g_autoptr(GnnTensor) reduced = NULL;

  if (t == NULL || !(reduced = gnn_sum_to (t, node->in_ndim[j], node->in_shape[j], error)))
    return FALSE;
  gi[j] = gnn_tensor_cast (reduced, node->in_dtype[j], error);
  return gi[j] != NULL;
}

/* inside ? a : b, either NULL for zeros (of g's dtype) */
static GnnTensor *
select_or_zero (GnnTensor *inside, GnnTensor *a, GnnTensor *b, GnnTensor *g, GError **error)
{
  g_autoptr(GnnTensor) zero = NULL;

  if (inside == NULL)
    return NULL;
  if ((a == NULL || b == NULL) && !(zero = gnn_tensor_new_zeros_like (g, gnn_tensor_priv (g)->dtype, 0, NULL, error)))
    return NULL;
  return gnn_where (inside, a ? a : zero, b ? b : zero, error);
}

/* g · f'(x) for the activations, in ops (differentiable again); x the saved input */
static GnnTensor *
activation_grad (const MathCtx *ctx, GnnTensor *g, GnnTensor *x, GError **error)
{
  const GnnKernelParams *p = &ctx->params;
  g_autoptr(GnnTensor) m1 = NULL, m2 = NULL, t1 = NULL, t2 = NULL, t3 = NULL, t4 = NULL;

  switch (ctx->math->op)
    {
    case GNN_BACKEND_OP_SOFTPLUS:     /* g where βx > threshold, else g σ(βx) */
      if ((t1 = gnn_tensor_mul_scalar (x, p->softplus.beta, error)) &&
          (m1 = gnn_tensor_gt_scalar (t1, p->softplus.threshold, error)) && (t2 = gnn_tensor_sigmoid (t1, error)) &&
          (t3 = gnn_tensor_mul (g, t2, error)))
        return select_or_zero (m1, g, t3, g, error);
      return NULL;
    case GNN_BACKEND_OP_HARDSIGMOID:  /* g / 6 on (−3, 3), else 0 */
      if ((m1 = gnn_tensor_gt_scalar (x, -3.0, error)) && (m2 = gnn_tensor_lt_scalar (x, 3.0, error)) &&
          (t1 = gnn_tensor_div_scalar (g, 6.0, error)) && (t2 = select_or_zero (m2, t1, NULL, g, error)))
        return select_or_zero (m1, t2, NULL, g, error);
      return NULL;
    case GNN_BACKEND_OP_HARDSWISH:    /* 0 below −3, g (x/3 + 1/2) up to 3, g above */
      if ((m1 = gnn_tensor_lt_scalar (x, -3.0, error)) && (m2 = gnn_tensor_le_scalar (x, 3.0, error)) &&
          (t1 = gnn_tensor_div_scalar (x, 3.0, error)) && (t2 = gnn_tensor_add_scalar (t1, 0.5, error)) &&
          (t3 = gnn_tensor_mul (g, t2, error)) && (t4 = select_or_zero (m2, t3, g, g, error)))
        return select_or_zero (m1, NULL, t4, g, error);
      return NULL;
    case GNN_BACKEND_OP_MISH:         /* g (tanh sp + x σ(x) (1 − tanh² sp)), sp = softplus (x) */
      {
        g_autoptr(GnnTensor) sp = NULL, tsp = NULL, sg = NULL;
        if ((sp = gnn_tensor_softplus (x, 1.0, 20.0, error)) && (tsp = gnn_tensor_tanh (sp, error)) &&
            (sg = gnn_tensor_sigmoid (x, error)) && (t1 = gnn_tensor_mul (tsp, tsp, error)) &&
            (t2 = gnn_tensor_rsub_scalar (t1, 1.0, error)) && (t3 = gnn_tensor_mul (sg, t2, error)) &&
            (t4 = gnn_tensor_mul (x, t3, error)))
          {
            g_autoptr(GnnTensor) d = gnn_tensor_add (tsp, t4, 1.0, error);
            return d ? gnn_tensor_mul (g, d, error) : NULL;
          }
        return NULL;
      }
    case GNN_BACKEND_OP_CELU:         /* g e^(x/α) where x <= 0, else g */
    case GNN_BACKEND_OP_SELU:         /* λα g e^x where x <= 0, else λ g */
      {
        gboolean celu = ctx->math->op == GNN_BACKEND_OP_CELU;
        g_autoptr(GnnTensor) pos = NULL;
        if ((m1 = gnn_tensor_le_scalar (x, 0.0, error)) &&
            (t1 = celu ? gnn_tensor_div_scalar (x, p->elu.alpha, error) : g_object_ref (x)) &&
            (t2 = gnn_tensor_exp (t1, error)) &&
            (t3 = gnn_tensor_mul_scalar (t2, celu ? 1.0 : GNN_MATH_SELU_SCALE * GNN_MATH_SELU_ALPHA, error)) &&
            (t4 = gnn_tensor_mul (g, t3, error)) &&
            (pos = celu ? g_object_ref (g) : gnn_tensor_mul_scalar (g, GNN_MATH_SELU_SCALE, error)))
          return select_or_zero (m1, t4, pos, g, error);
        return NULL;
      }
    case GNN_BACKEND_OP_LOG_SIGMOID:  /* g σ(−x) */
      if ((t1 = gnn_tensor_neg (x, error)) && (t2 = gnn_tensor_sigmoid (t1, error)))
        return gnn_tensor_mul (g, t2, error);
      return NULL;
    case GNN_BACKEND_OP_HARDSHRINK:   /* 0 on [−λ, λ], else g */
    case GNN_BACKEND_OP_SOFTSHRINK:
      if ((t1 = gnn_tensor_abs (x, error)) && (m1 = gnn_tensor_le_scalar (t1, p->shrink.lambd, error)))
        return select_or_zero (m1, NULL, g, g, error);
      return NULL;
    case GNN_BACKEND_OP_THRESHOLD:    /* 0 where x <= threshold, else g */
      if ((m1 = gnn_tensor_le_scalar (x, p->threshold.threshold, error)))
        return select_or_zero (m1, NULL, g, g, error);
      return NULL;
    default:
      g_assert_not_reached ();
    }
}

/* g · f'(x) for the row's function, in ops; s is the saved input x or result y */
static GnnTensor *
math_grad (const MathCtx *ctx, GnnTensor *g, GnnTensor *s, GError **error)
{
  g_autoptr(GnnTensor) t1 = NULL, t2 = NULL, t3 = NULL;

  if (ctx->math->kind == MATH_ACTIVATION)
    return activation_grad (ctx, g, s, error);
  switch (ctx->math->op)
    {
    case GNN_BACKEND_OP_RECIPROCAL:   /* -g y² */
      if ((t1 = gnn_tensor_mul (s, s, error)) && (t2 = gnn_tensor_mul (g, t1, error)))
        return gnn_tensor_neg (t2, error);
      return NULL;
    case GNN_BACKEND_OP_RSQRT:        /* -g y³ / 2 */
      if ((t1 = gnn_tensor_pow_scalar (s, 3.0, error)) && (t2 = gnn_tensor_mul_scalar (t1, -0.5, error)))
        return gnn_tensor_mul (g, t2, error);
      return NULL;
    case GNN_BACKEND_OP_LOG1P:        /* g / (1 + x) */
      return (t1 = gnn_tensor_add_scalar (s, 1.0, error)) ? gnn_tensor_div (g, t1, error) : NULL;
    case GNN_BACKEND_OP_EXPM1:        /* g (y + 1) */
      return (t1 = gnn_tensor_add_scalar (s, 1.0, error)) ? gnn_tensor_mul (g, t1, error) : NULL;
    case GNN_BACKEND_OP_LOG2:         /* g / (x ln 2) */
      return (t1 = gnn_tensor_mul_scalar (s, M_LN2, error)) ? gnn_tensor_div (g, t1, error) : NULL;
    case GNN_BACKEND_OP_LOG10:        /* g / (x ln 10) */
      return (t1 = gnn_tensor_mul_scalar (s, M_LN10, error)) ? gnn_tensor_div (g, t1, error) : NULL;
    case GNN_BACKEND_OP_SIN:          /* g cos x */
      return (t1 = gnn_tensor_cos (s, error)) ? gnn_tensor_mul (g, t1, error) : NULL;
    case GNN_BACKEND_OP_COS:          /* g (-sin x) */
      if ((t1 = gnn_tensor_sin (s, error)) && (t2 = gnn_tensor_neg (t1, error)))
        return gnn_tensor_mul (g, t2, error);
      return NULL;
    case GNN_BACKEND_OP_TAN:          /* g (1 + y²) */
      if ((t1 = gnn_tensor_mul (s, s, error)) && (t2 = gnn_tensor_add_scalar (t1, 1.0, error)))
        return gnn_tensor_mul (g, t2, error);
      return NULL;
    case GNN_BACKEND_OP_ASIN:         /* g / √(1 - x²), and its negative for acos */
    case GNN_BACKEND_OP_ACOS:
      if (!(t1 = gnn_tensor_mul (s, s, error)) || !(t2 = gnn_tensor_rsub_scalar (t1, 1.0, error)) ||
          !(t3 = gnn_tensor_rsqrt (t2, error)))
        return NULL;
      if (ctx->math->op == GNN_BACKEND_OP_ACOS)
        {
          g_autoptr(GnnTensor) n = gnn_tensor_neg (t3, error);
          return n ? gnn_tensor_mul (g, n, error) : NULL;
        }
      return gnn_tensor_mul (g, t3, error);
    case GNN_BACKEND_OP_ATAN:         /* g / (1 + x²) */
      if ((t1 = gnn_tensor_mul (s, s, error)) && (t2 = gnn_tensor_add_scalar (t1, 1.0, error)))
        return gnn_tensor_div (g, t2, error);
      return NULL;
    case GNN_BACKEND_OP_SINH:         /* g cosh x */
      return (t1 = gnn_tensor_cosh (s, error)) ? gnn_tensor_mul (g, t1, error) : NULL;
    case GNN_BACKEND_OP_COSH:         /* g sinh x */
      return (t1 = gnn_tensor_sinh (s, error)) ? gnn_tensor_mul (g, t1, error) : NULL;
    case GNN_BACKEND_OP_ASINH:        /* g / √(x² + 1), and g / √(x² - 1) for acosh */
    case GNN_BACKEND_OP_ACOSH:
      if ((t1 = gnn_tensor_mul (s, s, error)) &&
          (t2 = gnn_tensor_add_scalar (t1, ctx->math->op == GNN_BACKEND_OP_ASINH ? 1.0 : -1.0, error)) &&
          (t3 = gnn_tensor_rsqrt (t2, error)))
        return gnn_tensor_mul (g, t3, error);
      return NULL;
    case GNN_BACKEND_OP_ATANH:        /* g / (1 - x²) */
      if ((t1 = gnn_tensor_mul (s, s, error)) && (t2 = gnn_tensor_rsub_scalar (t1, 1.0, error)))
        return gnn_tensor_div (g, t2, error);
      return NULL;
    case GNN_BACKEND_OP_ERF:          /* ± g 2/√π e^(-x²), + for erf and - for erfc */
    case GNN_BACKEND_OP_ERFC:
      if ((t1 = gnn_tensor_mul (s, s, error)) && (t2 = gnn_tensor_mul_scalar (t1, -1.0, error)) &&
          (t3 = gnn_tensor_exp (t2, error)))
        {
          g_autoptr(GnnTensor) k = gnn_tensor_mul_scalar (t3, ctx->math->op == GNN_BACKEND_OP_ERF ? M_2_SQRTPI
                                                                                                    : -M_2_SQRTPI, error);
          return k ? gnn_tensor_mul (g, k, error) : NULL;
        }
      return NULL;
    case GNN_BACKEND_OP_ERFINV:       /* g √π/2 e^(y²) */
      if ((t1 = gnn_tensor_mul (s, s, error)) && (t2 = gnn_tensor_exp (t1, error)) &&
          (t3 = gnn_tensor_mul_scalar (t2, sqrt (G_PI) / 2.0, error)))
        return gnn_tensor_mul (g, t3, error);
      return NULL;
    case GNN_BACKEND_OP_LGAMMA:       /* g ψ(x) */
      return (t1 = gnn_tensor_digamma (s, error)) ? gnn_tensor_mul (g, t1, error) : NULL;
    case GNN_BACKEND_OP_POLYGAMMA:    /* g ψ⁽ⁿ⁺¹⁾(x) */
      return (t1 = gnn_tensor_polygamma (s, ctx->params.polygamma.n + 1, error)) ? gnn_tensor_mul (g, t1, error) : NULL;
    case GNN_BACKEND_OP_FRAC:         /* g */
      return g_object_ref (g);
    case GNN_BACKEND_OP_EXP2:         /* g y ln 2 */
      return (t1 = gnn_tensor_mul_scalar (s, M_LN2, error)) ? gnn_tensor_mul (g, t1, error) : NULL;
    case GNN_BACKEND_OP_SINC:         /* g (πx cos πx − sin πx) / (πx²), 0 at x = 0 (PyTorch's) */
      {
        g_autoptr(GnnTensor) px = NULL, c = NULL, pxc = NULL, sn = NULL, num = NULL, den = NULL, zero = NULL;
        g_autoptr(GnnTensor) at0 = NULL, q = NULL;

        if (!(px = gnn_tensor_mul_scalar (s, M_PI, error)) || !(c = gnn_tensor_cos (px, error)) ||
            !(pxc = gnn_tensor_mul (px, c, error)) || !(sn = gnn_tensor_sin (px, error)) ||
            !(num = gnn_tensor_sub (pxc, sn, 1.0, error)) || !(den = gnn_tensor_mul (px, s, error)) ||
            !(q = gnn_tensor_div (num, den, error)) || !(at0 = gnn_tensor_eq_scalar (s, 0.0, error)) ||
            !(zero = gnn_tensor_new_zeros_like (q, gnn_tensor_priv (q)->dtype, 0, NULL, error)) ||
            !(t1 = gnn_where (at0, zero, q, error)))
          return NULL;
        return gnn_tensor_mul (g, t1, error);
      }
    case GNN_BACKEND_OP_I0:           /* g I₁(x) */
      return (t1 = gnn_special_i1 (s, error)) ? gnn_tensor_mul (g, t1, error) : NULL;
    case GNN_BACKEND_OP_I0E:          /* g (i1e (x) − sgn (x) i0e (x)) */
      if ((t1 = gnn_special_i1e (s, error)) && (t2 = gnn_tensor_sgn (s, error)) &&
          (t3 = gnn_special_i0e (s, error)))
        {
          g_autoptr(GnnTensor) st = gnn_tensor_mul (t2, t3, error);
          g_autoptr(GnnTensor) d = st ? gnn_tensor_sub (t1, st, 1.0, error) : NULL;
          return d ? gnn_tensor_mul (g, d, error) : NULL;
        }
      return NULL;
    case GNN_BACKEND_OP_I1:           /* g (I₀(x) − I₁(x) / x), ½ at x = 0 (PyTorch's) */
    case GNN_BACKEND_OP_I1E:          /* g (i0e (x) − i1e (x) (sgn (x) + 1/x)), ½ at x = 0 */
      {
        gboolean scaled = ctx->math->op == GNN_BACKEND_OP_I1E;
        g_autoptr(GnnTensor) y = NULL, q = NULL, at0 = NULL, zero = NULL, half = NULL, d = NULL;

        if (!(t1 = scaled ? gnn_special_i0e (s, error) : gnn_tensor_i0 (s, error)) ||
            !(y = scaled ? gnn_special_i1e (s, error) : gnn_special_i1 (s, error)))
          return NULL;
        if (scaled)
          {
            g_autoptr(GnnTensor) r = NULL, sg = NULL, k = NULL;
            if (!(r = gnn_tensor_reciprocal (s, error)) || !(sg = gnn_tensor_sgn (s, error)) ||
                !(k = gnn_tensor_add (sg, r, 1.0, error)) || !(q = gnn_tensor_mul (y, k, error)))
              return NULL;
          }
        else if (!(q = gnn_tensor_div (y, s, error)))
          return NULL;
        if (!(t2 = gnn_tensor_sub (t1, q, 1.0, error)) || !(at0 = gnn_tensor_eq_scalar (s, 0.0, error)) ||
            !(zero = gnn_tensor_new_zeros_like (t2, gnn_tensor_priv (t2)->dtype, 0, NULL, error)) ||
            !(half = gnn_tensor_add_scalar (zero, 0.5, error)) || !(d = gnn_where (at0, half, t2, error)))
          return NULL;
        return gnn_tensor_mul (g, d, error);
      }
    case GNN_BACKEND_OP_NDTRI:        /* g √(2π) e^(y²/2) */
      if ((t1 = gnn_tensor_mul (s, s, error)) && (t2 = gnn_tensor_mul_scalar (t1, 0.5, error)) &&
          (t3 = gnn_tensor_exp (t2, error)))
        {
          g_autoptr(GnnTensor) k = gnn_tensor_mul_scalar (t3, sqrt (2.0 * G_PI), error);
          return k ? gnn_tensor_mul (g, k, error) : NULL;
        }
      return NULL;
    case GNN_BACKEND_OP_LOG_NDTR:     /* g e^(−x²/2 − log Φ(x)) / √(2π) */
      {
        g_autoptr(GnnTensor) y = NULL, e = NULL;
        if ((t1 = gnn_tensor_mul (s, s, error)) && (t2 = gnn_tensor_mul_scalar (t1, -0.5, error)) &&
            (y = gnn_special_log_ndtr (s, error)) && (t3 = gnn_tensor_sub (t2, y, 1.0, error)) &&
            (e = gnn_tensor_exp (t3, error)))
          {
            g_autoptr(GnnTensor) k = gnn_tensor_div_scalar (e, sqrt (2.0 * G_PI), error);
            return k ? gnn_tensor_mul (g, k, error) : NULL;
          }
        return NULL;
      }
    case GNN_BACKEND_OP_ERFCX:        /* g (2x erfcx (x) − 2/√π) */
      if ((t1 = gnn_special_erfcx (s, error)) && (t2 = gnn_tensor_mul (s, t1, error)) &&
          (t3 = gnn_tensor_mul_scalar (t2, 2.0, error)))
        {
          g_autoptr(GnnTensor) d = gnn_tensor_add_scalar (t3, -M_2_SQRTPI, error);
          return d ? gnn_tensor_mul (g, d, error) : NULL;
        }
      return NULL;
    case GNN_BACKEND_OP_ENTR:         /* −g (1 + log x) (PyTorch's: +inf at 0, NaN below) */
      if ((t1 = gnn_tensor_log (s, error)) && (t2 = gnn_tensor_add_scalar (t1, 1.0, error)) &&
          (t3 = gnn_tensor_neg (t2, error)))
        return gnn_tensor_mul (g, t3, error);
      return NULL;
    default:                          /* the rounding functions: 0 */
      return gnn_tensor_new_zeros_like (g, gnn_tensor_priv (g)->dtype, gnn_tensor_priv (g)->ndim,
                                        gnn_tensor_priv (g)->shape, error);
    }
}

static gboolean
math_backward (GnnNode *node, GnnTensor **go, GnnTensor **gi, GError **error)
{
  const MathCtx *ctx = node->ctx;
  GnnTensor *s = NULL;

  if (go[0] == NULL || !NEEDS (0))
    return TRUE;
  if (node->n_saved > 0 && !(s = gnn_node_saved (node, 0, error)))
    return FALSE;
  return set_input_grad (node, gi, 0, math_grad (ctx, go[0], s, error), error);
}

/* Runs the row of @op with the kernel parameters @params on @self and records its node, named
 * @grad_fn (NULL: the row's name). */
static GnnTensor *
math_unary_params (GnnBackendOp op, const GnnKernelParams *params, const char *grad_fn, GnnTensor *self,
                   GError **error)
{
  const UnaryMath *math = find_math (op);
  GnnDtype d = gnn_tensor_priv (self)->dtype, out_dtype = d;
  GnnTensor *out;
  GnnNode *node;

  if (!gnn_dtype_is_floating (d))
    {
      if (math->kind == MATH_FLOAT)
        out_dtype = GNN_DTYPE_FLOAT32;
      else if (math->kind == MATH_ROUNDING && d != GNN_DTYPE_BOOL)
        return gnn_tensor_clone (self, error);
      else
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE,
                       "%s: not implemented for %s tensors; expected a floating-point%s tensor",
                       math->name, gnn_dtype_get_name (d), math->kind == MATH_ROUNDING ? " or integer" : "");
          return NULL;
        }
    }
  out = gnn_elementwise (math->name, op, &self, 1, gnn_compute_dtype (out_dtype), out_dtype, params, error);
  if (out && (node = gnn_autograd_record (grad_fn ? grad_fn : math->grad_fn, math_backward, &self, 1, &out, 1)))
    {
      MathCtx *ctx = g_new (MathCtx, 1);

      ctx->math = math;
      ctx->params = *params;
      if (math->kind == MATH_FLOAT || math->kind == MATH_ACTIVATION)
        gnn_node_save (node, math->save_result ? out : self);
      gnn_node_set_ctx (node, ctx, g_free);
    }
  return out;
}

/* the row of @op (the polygamma of order @n) on @self, its node named @grad_fn (NULL: the row's) */
static GnnTensor *
math_unary_named (GnnBackendOp op, int n, const char *grad_fn, GnnTensor *self, GError **error)
{
  GnnKernelParams params = { .polygamma = { n } };

  return math_unary_params (op, &params, grad_fn, self, error);
}

static GnnTensor *
math_unary (GnnBackendOp op, int n, GnnTensor *self, GError **error)
{
  return math_unary_named (op, n, NULL, self, error);
}

/**
 * gnn_tensor_reciprocal:
 * @self: a tensor
 * @error: return location for a #GError
 *
 * 1 / @self, elementwise (`torch.reciprocal`): ±inf at ±0. Integer and bool inputs give float32.
 *
 * Returns: (transfer full): 1 / @self, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_reciprocal (GnnTensor *self, GError **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  return math_unary (GNN_BACKEND_OP_RECIPROCAL, 0, self, error);
}

/**
 * gnn_tensor_rsqrt:
 * @self: a tensor
 * @error: return location for a #GError
 *
 * 1 / √@self, elementwise (`torch.rsqrt`): inf at 0, NaN below. Integer and bool inputs give float32.
 *
 * Returns: (transfer full): 1 / √@self, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_rsqrt (GnnTensor *self, GError **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  return math_unary (GNN_BACKEND_OP_RSQRT, 0, self, error);
}

/**
 * gnn_tensor_log1p:
 * @self: a tensor
 * @error: return location for a #GError
 *
 * log (1 + @self), elementwise (`torch.log1p`), exact for small @self. Integer and bool inputs give float32.
 *
 * Returns: (transfer full): log (1 + @self), or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_log1p (GnnTensor *self, GError **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  return math_unary (GNN_BACKEND_OP_LOG1P, 0, self, error);
}

/**
 * gnn_tensor_expm1:
 * @self: a tensor
 * @error: return location for a #GError
 *
 * e^@self − 1, elementwise (`torch.expm1`), exact for small @self. Integer and bool inputs give float32.
 *
 * Returns: (transfer full): e^@self − 1, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_expm1 (GnnTensor *self, GError **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  return math_unary (GNN_BACKEND_OP_EXPM1, 0, self, error);
}

/**
 * gnn_tensor_log2:
 * @self: a tensor
 * @error: return location for a #GError
 *
 * The base-2 logarithm, elementwise (`torch.log2`). Integer and bool inputs give float32.
 *
 * Returns: (transfer full): log₂ @self, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_log2 (GnnTensor *self, GError **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  return math_unary (GNN_BACKEND_OP_LOG2, 0, self, error);
}

/**
 * gnn_tensor_exp2:
 * @self: a tensor
 * @error: return location for a #GError
 *
 * 2^@self, elementwise (`torch.exp2`, `torch.special.exp2`). Integer and bool inputs give float32.
 *
 * Returns: (transfer full): 2^@self, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_exp2 (GnnTensor *self, GError **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  return math_unary (GNN_BACKEND_OP_EXP2, 0, self, error);
}

/**
 * gnn_tensor_sinc:
 * @self: a tensor
 * @error: return location for a #GError
 *
 * The normalized sinc function sin (π@self) / (π@self), 1 at 0, elementwise (`torch.sinc`,
 * `torch.special.sinc`). Integer and bool inputs give float32.
 *
 * Returns: (transfer full): sinc (@self), or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_sinc (GnnTensor *self, GError **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  return math_unary (GNN_BACKEND_OP_SINC, 0, self, error);
}

/**
 * gnn_tensor_i0:
 * @self: a tensor
 * @error: return location for a #GError
 *
 * The modified Bessel function of the first kind of order 0, I₀(@self), elementwise (`torch.i0`), `torch.special.i0`; even, and infinite beyond about 88 in float32 as in PyTorch. Integer and bool inputs give float32.
 *
 * Returns: (transfer full): I₀(@self), or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_i0 (GnnTensor *self, GError **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  return math_unary (GNN_BACKEND_OP_I0, 0, self, error);
}

/**
 * gnn_special_i0e:
 * @input: a tensor
 * @error: return location for a #GError
 *
 * The exponentially scaled modified Bessel function e^−|@input| I₀(@input), elementwise (`torch.special.i0e`); it does not overflow. Integer and bool inputs give float32.
 *
 * Returns: (transfer full): e^−|@input| I₀(@input), or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_special_i0e (GnnTensor *input, GError **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (input), NULL);
  return math_unary (GNN_BACKEND_OP_I0E, 0, input, error);
}

/**
 * gnn_special_i1:
 * @input: a tensor
 * @error: return location for a #GError
 *
 * The modified Bessel function of the first kind of order 1, I₁(@input), elementwise (`torch.special.i1`); odd. Integer and bool inputs give float32.
 *
 * Returns: (transfer full): I₁(@input), or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_special_i1 (GnnTensor *input, GError **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (input), NULL);
  return math_unary (GNN_BACKEND_OP_I1, 0, input, error);
}

/**
 * gnn_special_i1e:
 * @input: a tensor
 * @error: return location for a #GError
 *
 * The exponentially scaled modified Bessel function e^−|@input| I₁(@input), elementwise (`torch.special.i1e`). Integer and bool inputs give float32.
 *
 * Returns: (transfer full): e^−|@input| I₁(@input), or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_special_i1e (GnnTensor *input, GError **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (input), NULL);
  return math_unary (GNN_BACKEND_OP_I1E, 0, input, error);
}

/**
 * gnn_special_ndtri:
 * @input: a tensor
 * @error: return location for a #GError
 *
 * The inverse Φ⁻¹(@input) of the standard normal CDF (the quantile function), elementwise (`torch.special.ndtri`): −inf at 0, inf at 1 and NaN outside [0, 1]. Integer and bool inputs give float32.
 *
 * Returns: (transfer full): Φ⁻¹(@input), or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_special_ndtri (GnnTensor *input, GError **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (input), NULL);
  return math_unary (GNN_BACKEND_OP_NDTRI, 0, input, error);
}

/**
 * gnn_special_log_ndtr:
 * @input: a tensor
 * @error: return location for a #GError
 *
 * The log of the standard normal CDF, log Φ(@input), elementwise (`torch.special.log_ndtr`); finite far into the lower tail, where log (ndtr (x)) would be −inf. Integer and bool inputs give float32.
 *
 * Returns: (transfer full): log Φ(@input), or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_special_log_ndtr (GnnTensor *input, GError **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (input), NULL);
  return math_unary (GNN_BACKEND_OP_LOG_NDTR, 0, input, error);
}

/**
 * gnn_special_erfcx:
 * @input: a tensor
 * @error: return location for a #GError
 *
 * The scaled complementary error function e^(@input²) erfc (@input), elementwise (`torch.special.erfcx`); finite for large @input, where e^(x²) overflows. Integer and bool inputs give float32.
 *
 * Returns: (transfer full): erfcx (@input), or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_special_erfcx (GnnTensor *input, GError **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (input), NULL);
  return math_unary (GNN_BACKEND_OP_ERFCX, 0, input, error);
}

/**
 * gnn_special_entr:
 * @input: a tensor
 * @error: return location for a #GError
 *
 * The elementwise entropy −@input log @input where @input > 0, 0 at 0 and −inf below, elementwise (`torch.special.entr`). Integer and bool inputs give float32.
 *
 * Returns: (transfer full): entr (@input), or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_special_entr (GnnTensor *input, GError **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (input), NULL);
  return math_unary (GNN_BACKEND_OP_ENTR, 0, input, error);
}

/**
 * gnn_special_ndtr:
 * @input: a tensor
 * @error: return location for a #GError
 *
 * The standard normal CDF Φ(@input) = (1 + erf (@input / √2)) / 2, elementwise
 * (`torch.special.ndtr`), written with erf as PyTorch writes it (its gradient is that of the
 * composition). Integer and bool inputs give float32.
 *
 * Returns: (transfer full): Φ(@input), or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_special_ndtr (GnnTensor *input, GError **error)
{
  g_autoptr(GnnTensor) scaled = NULL, e = NULL, sum = NULL;
  g_autoptr(GnnTensor) f = NULL;

  g_return_val_if_fail (GNN_IS_TENSOR (input), NULL);
  if (!gnn_dtype_is_floating (gnn_tensor_priv (input)->dtype) && !(f = gnn_tensor_cast (input, GNN_DTYPE_FLOAT32, error)))
    return NULL;
  if (!(scaled = gnn_tensor_mul_scalar (f ? f : input, M_SQRT1_2, error)) || !(e = gnn_tensor_erf (scaled, error)) ||
      !(sum = gnn_tensor_add_scalar (e, 1.0, error)))
    return NULL;
  return gnn_tensor_mul_scalar (sum, 0.5, error);
}

/**
 * gnn_tensor_log10:
 * @self: a tensor
 * @error: return location for a #GError
 *
 * The base-10 logarithm, elementwise (`torch.log10`). Integer and bool inputs give float32.
 *
 * Returns: (transfer full): log₁₀ @self, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_log10 (GnnTensor *self, GError **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  return math_unary (GNN_BACKEND_OP_LOG10, 0, self, error);
}

/**
 * gnn_tensor_sin:
 * @self: a tensor
 * @error: return location for a #GError
 *
 * The sine, elementwise (`torch.sin`), of angles in radians. Integer and bool inputs give float32.
 *
 * Returns: (transfer full): sin @self, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_sin (GnnTensor *self, GError **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  return math_unary (GNN_BACKEND_OP_SIN, 0, self, error);
}

/**
 * gnn_tensor_cos:
 * @self: a tensor
 * @error: return location for a #GError
 *
 * The cosine, elementwise (`torch.cos`), of angles in radians. Integer and bool inputs give float32.
 *
 * Returns: (transfer full): cos @self, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_cos (GnnTensor *self, GError **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  return math_unary (GNN_BACKEND_OP_COS, 0, self, error);
}

/**
 * gnn_tensor_tan:
 * @self: a tensor
 * @error: return location for a #GError
 *
 * The tangent, elementwise (`torch.tan`), of angles in radians. Integer and bool inputs give float32.
 *
 * Returns: (transfer full): tan @self, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_tan (GnnTensor *self, GError **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  return math_unary (GNN_BACKEND_OP_TAN, 0, self, error);
}

/**
 * gnn_tensor_asin:
 * @self: a tensor
 * @error: return location for a #GError
 *
 * The arcsine, elementwise (`torch.asin`): NaN outside [−1, 1]. Integer and bool inputs give float32.
 *
 * Returns: (transfer full): asin @self, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_asin (GnnTensor *self, GError **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  return math_unary (GNN_BACKEND_OP_ASIN, 0, self, error);
}

/**
 * gnn_tensor_acos:
 * @self: a tensor
 * @error: return location for a #GError
 *
 * The arccosine, elementwise (`torch.acos`): NaN outside [−1, 1]. Integer and bool inputs give float32.
 *
 * Returns: (transfer full): acos @self, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_acos (GnnTensor *self, GError **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  return math_unary (GNN_BACKEND_OP_ACOS, 0, self, error);
}

/**
 * gnn_tensor_atan:
 * @self: a tensor
 * @error: return location for a #GError
 *
 * The arctangent, elementwise (`torch.atan`). Integer and bool inputs give float32.
 *
 * Returns: (transfer full): atan @self, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_atan (GnnTensor *self, GError **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  return math_unary (GNN_BACKEND_OP_ATAN, 0, self, error);
}

/**
 * gnn_tensor_sinh:
 * @self: a tensor
 * @error: return location for a #GError
 *
 * The hyperbolic sine, elementwise (`torch.sinh`). Integer and bool inputs give float32.
 *
 * Returns: (transfer full): sinh @self, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_sinh (GnnTensor *self, GError **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  return math_unary (GNN_BACKEND_OP_SINH, 0, self, error);
}

/**
 * gnn_tensor_cosh:
 * @self: a tensor
 * @error: return location for a #GError
 *
 * The hyperbolic cosine, elementwise (`torch.cosh`). Integer and bool inputs give float32.
 *
 * Returns: (transfer full): cosh @self, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_cosh (GnnTensor *self, GError **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  return math_unary (GNN_BACKEND_OP_COSH, 0, self, error);
}

/**
 * gnn_tensor_asinh:
 * @self: a tensor
 * @error: return location for a #GError
 *
 * The inverse hyperbolic sine, elementwise (`torch.asinh`). Integer and bool inputs give float32.
 *
 * Returns: (transfer full): asinh @self, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_asinh (GnnTensor *self, GError **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  return math_unary (GNN_BACKEND_OP_ASINH, 0, self, error);
}

/**
 * gnn_tensor_acosh:
 * @self: a tensor
 * @error: return location for a #GError
 *
 * The inverse hyperbolic cosine, elementwise (`torch.acosh`): NaN below 1. Integer and bool inputs give float32.
 *
 * Returns: (transfer full): acosh @self, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_acosh (GnnTensor *self, GError **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  return math_unary (GNN_BACKEND_OP_ACOSH, 0, self, error);
}

/**
 * gnn_tensor_atanh:
 * @self: a tensor
 * @error: return location for a #GError
 *
 * The inverse hyperbolic tangent, elementwise (`torch.atanh`): ±inf at ±1, NaN beyond. Integer and bool inputs give float32.
 *
 * Returns: (transfer full): atanh @self, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_atanh (GnnTensor *self, GError **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  return math_unary (GNN_BACKEND_OP_ATANH, 0, self, error);
}

/**
 * gnn_tensor_erf:
 * @self: a tensor
 * @error: return location for a #GError
 *
 * The error function, elementwise (`torch.erf`). Integer and bool inputs give float32.
 *
 * Returns: (transfer full): erf @self, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_erf (GnnTensor *self, GError **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  return math_unary (GNN_BACKEND_OP_ERF, 0, self, error);
}

/**
 * gnn_tensor_erfc:
 * @self: a tensor
 * @error: return location for a #GError
 *
 * The complementary error function 1 − erf, elementwise (`torch.erfc`), exact in the tails. Integer and bool inputs give float32.
 *
 * Returns: (transfer full): erfc @self, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_erfc (GnnTensor *self, GError **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  return math_unary (GNN_BACKEND_OP_ERFC, 0, self, error);
}

/**
 * gnn_tensor_erfinv:
 * @self: a tensor
 * @error: return location for a #GError
 *
 * The inverse of erf, elementwise (`torch.erfinv`): ±inf at ±1, NaN outside [−1, 1]. Integer and bool inputs give float32.
 *
 * Returns: (transfer full): erf⁻¹ @self, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_erfinv (GnnTensor *self, GError **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  return math_unary (GNN_BACKEND_OP_ERFINV, 0, self, error);
}

/**
 * gnn_tensor_lgamma:
 * @self: a tensor
 * @error: return location for a #GError
 *
 * log |Γ(@self)|, elementwise (`torch.lgamma`): inf at 0 and the negative integers. Integer and bool inputs give float32.
 *
 * Returns: (transfer full): log |Γ(@self)|, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_lgamma (GnnTensor *self, GError **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  return math_unary (GNN_BACKEND_OP_LGAMMA, 0, self, error);
}

/**
 * gnn_tensor_floor:
 * @self: a tensor, not bool
 * @error: return location for a #GError
 *
 * Rounds down, elementwise (`torch.floor`). Integer inputs are kept (a copy), as in PyTorch; the gradient is 0.
 *
 * Returns: (transfer full): ⌊@self⌋, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_floor (GnnTensor *self, GError **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  return math_unary (GNN_BACKEND_OP_FLOOR, 0, self, error);
}

/**
 * gnn_tensor_ceil:
 * @self: a tensor, not bool
 * @error: return location for a #GError
 *
 * Rounds up, elementwise (`torch.ceil`). Integer inputs are kept (a copy), as in PyTorch; the gradient is 0.
 *
 * Returns: (transfer full): ⌈@self⌉, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_ceil (GnnTensor *self, GError **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  return math_unary (GNN_BACKEND_OP_CEIL, 0, self, error);
}

/**
 * gnn_tensor_round:
 * @self: a tensor, not bool
 * @error: return location for a #GError
 *
 * Rounds to the nearest integer, halves to even, elementwise (`torch.round`). Integer inputs are kept (a copy), as in PyTorch; the gradient is 0.
 *
 * Returns: (transfer full): @self rounded, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_round (GnnTensor *self, GError **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  return math_unary (GNN_BACKEND_OP_ROUND, 0, self, error);
}

/**
 * gnn_tensor_trunc:
 * @self: a tensor, not bool
 * @error: return location for a #GError
 *
 * Rounds toward zero, elementwise (`torch.trunc`, `torch.fix`). Integer inputs are kept (a copy), as in PyTorch; the gradient is 0.
 *
 * Returns: (transfer full): @self truncated, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_trunc (GnnTensor *self, GError **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  return math_unary (GNN_BACKEND_OP_TRUNC, 0, self, error);
}

/**
 * gnn_tensor_frac:
 * @self: a floating-point tensor
 * @error: return location for a #GError
 *
 * The fractional part @self − trunc (@self), elementwise (`torch.frac`), with @self's sign.
 * Integer and bool tensors are an error, as in PyTorch.
 *
 * Returns: (transfer full): the fractional part of @self, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_frac (GnnTensor *self, GError **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  return math_unary (GNN_BACKEND_OP_FRAC, 0, self, error);
}

/**
 * gnn_tensor_polygamma:
 * @self: a tensor
 * @n: the order of the derivative of the digamma function, ≥ 0
 * @error: return location for a #GError
 *
 * The polygamma function ψ⁽ⁿ⁾, the n-th derivative of the digamma function, elementwise
 * (`torch.polygamma (n, self)`); @n = 0 is the digamma function. Integer and bool inputs
 * give float32. A negative @n is an error.
 *
 * Returns: (transfer full): ψ⁽ⁿ⁾(@self), or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_polygamma (GnnTensor *self, int n, GError **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  if (n < 0)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "polygamma(n, x) does not support negative n, got n = %d", n);
      return NULL;
    }
  return math_unary (GNN_BACKEND_OP_POLYGAMMA, n, self, error);
}

/**
 * gnn_tensor_digamma:
 * @self: a tensor
 * @error: return location for a #GError
 *
 * The digamma function ψ = Γ′/Γ, elementwise (`torch.digamma`): −inf at +0, +inf at −0, NaN
 * at the negative integers, as PyTorch. Integer and bool inputs give float32.
 *
 * Returns: (transfer full): ψ(@self), or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_digamma (GnnTensor *self, GError **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  /* torch names the node of digamma after it, that of polygamma (0, x) PolygammaBackward0 */
  return math_unary_named (GNN_BACKEND_OP_POLYGAMMA, 0, "DigammaBackward0", self, error);
}

/* the backward of round with decimals and of floor_divide's integer-valued result: 0 */
static gboolean
zero_backward (GnnNode *node, GnnTensor **go, GnnTensor **gi, GError **error)
{
  if (go[0] == NULL || !NEEDS (0))
    return TRUE;
  gi[0] = gnn_tensor_new_zeros_like (go[0], node->in_dtype[0], node->in_ndim[0], node->in_shape[0], error);
  return gi[0] != NULL;
}

/**
 * gnn_tensor_round_decimals:
 * @self: a tensor, not bool
 * @decimals: the number of decimal places to round to; negative rounds to the left of the
 *   decimal point
 * @error: return location for a #GError
 *
 * Rounds to @decimals decimal places, halves to even (`torch.round (self, decimals=)`), as
 * PyTorch computes it: the nearest integer to @self · 10^@decimals, divided by 10^@decimals
 * (for a negative @decimals, of @self / 10^−@decimals, multiplied back). With @decimals 0 it
 * is [method@Gnn.Tensor.round]; integer tensors take only 0, as in PyTorch.
 *
 * Returns: (transfer full): @self rounded, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_round_decimals (GnnTensor *self, int decimals, GError **error)
{
  GnnDtype d;
  double ten_pow;
  GnnTensor *out;

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  if (decimals == 0)
    return gnn_tensor_round (self, error);
  d = gnn_tensor_priv (self)->dtype;
  if (!gnn_dtype_is_floating (d))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE,
                   "round: decimals = %d is not implemented for %s tensors; expected a floating-point tensor",
                   decimals, gnn_dtype_get_name (d));
      return NULL;
    }
  ten_pow = pow (10.0, abs (decimals));
  {
    g_autoptr(GnnNoGradGuard) guard = gnn_no_grad_guard_new ();
    g_autoptr(GnnTensor) scaled = decimals > 0 ? gnn_tensor_mul_scalar (self, ten_pow, error)
                                               : gnn_tensor_div_scalar (self, ten_pow, error);
    g_autoptr(GnnTensor) rounded = scaled ? gnn_tensor_round (scaled, error) : NULL;

    if (rounded == NULL)
      return NULL;
    out = decimals > 0 ? gnn_tensor_div_scalar (rounded, ten_pow, error) : gnn_tensor_mul_scalar (rounded, ten_pow, error);
  }
  if (out)
    gnn_autograd_record ("RoundBackward1", zero_backward, &self, 1, &out, 1);
  return out;
}

/* logit: g / (x (1 − x)), 0 outside [eps, 1 − eps] when eps ≥ 0 */
static gboolean
logit_backward (GnnNode *node, GnnTensor **go, GnnTensor **gi, GError **error)
{
  const double eps = *(const double *) node->ctx;
  g_autoptr(GnnTensor) t1 = NULL, t2 = NULL, q = NULL;
  GnnTensor *x;

  if (go[0] == NULL || !NEEDS (0))
    return TRUE;
  if (!(x = gnn_node_saved (node, 0, error)) || !(t1 = gnn_tensor_rsub_scalar (x, 1.0, error)) ||
      !(t2 = gnn_tensor_mul (x, t1, error)) || !(q = gnn_tensor_div (go[0], t2, error)))
    return FALSE;
  if (eps >= 0)
    {
      g_autoptr(GnnTensor) lo = gnn_tensor_lt_scalar (x, eps, error);
      g_autoptr(GnnTensor) hi = lo ? gnn_tensor_gt_scalar (x, 1.0 - eps, error) : NULL;
      g_autoptr(GnnTensor) zero = hi ? gnn_tensor_new_zeros_like (q, gnn_tensor_priv (q)->dtype, 0, NULL, error) : NULL;
      g_autoptr(GnnTensor) w1 = zero ? gnn_where (lo, zero, q, error) : NULL;

      if (w1 == NULL)
        return FALSE;
      g_object_unref (q);
      if (!(q = gnn_where (hi, zero, w1, error)))
        return FALSE;
    }
  return set_input_grad (node, gi, 0, g_steal_pointer (&q), error);
}

/**
 * gnn_tensor_logit:
 * @self: a tensor
 * @eps: the clamp bound: @self is clamped to [@eps, 1 − @eps] first; negative for none
 *   (PyTorch's `eps=None`)
 * @error: return location for a #GError
 *
 * The logit log (p / (1 − p)), the inverse of the sigmoid, elementwise (`torch.logit`):
 * ±inf at 1 and 0 and NaN outside [0, 1] without clamping. The gradient is 0 where @self
 * lies outside [@eps, 1 − @eps]. Integer and bool inputs give float32.
 *
 * Returns: (transfer full): logit (@self), or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_logit (GnnTensor *self, double eps, GError **error)
{
  g_autoptr(GnnTensor) x = NULL;
  GnnTensor *out;
  GnnNode *node;
  GnnDtype d;

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  d = gnn_tensor_priv (self)->dtype;
  {
    g_autoptr(GnnNoGradGuard) guard = gnn_no_grad_guard_new ();
    g_autoptr(GnnTensor) clamped = NULL, one_minus = NULL, ratio = NULL;

    x = gnn_dtype_is_floating (d) ? g_object_ref (self) : gnn_tensor_to_dtype (self, GNN_DTYPE_FLOAT32, error);
    if (x == NULL)
      return NULL;
    clamped = eps >= 0 ? gnn_tensor_clamp (x, eps, 1.0 - eps, error) : g_object_ref (x);
    if (!clamped || !(one_minus = gnn_tensor_rsub_scalar (clamped, 1.0, error)) ||
        !(ratio = gnn_tensor_div (clamped, one_minus, error)) || !(out = gnn_tensor_log (ratio, error)))
      return NULL;
  }
  if ((node = gnn_autograd_record ("LogitBackward0", logit_backward, &self, 1, &out, 1)))
    {
      gnn_node_save (node, self);
      gnn_node_set_ctx (node, g_memdup2 (&eps, sizeof eps), g_free);
    }
  return out;
}

/**
 * gnn_tensor_square:
 * @self: a tensor
 * @error: return location for a #GError
 *
 * @self², elementwise (`torch.square`, which is `torch.pow (self, 2)`): integer dtypes are
 * kept.
 *
 * Returns: (transfer full): @self · @self, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_square (GnnTensor *self, GError **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  return gnn_tensor_pow_scalar (self, 2.0, error);
}

/* ---- binary functions -------------------------------------------------------------- */

/* atan2:  g b / (a² + b²),  −g a / (a² + b²) */
static gboolean
atan2_backward (GnnNode *node, GnnTensor **go, GnnTensor **gi, GError **error)
{
  g_autoptr(GnnTensor) a2 = NULL, b2 = NULL, den = NULL, q = NULL;
  GnnTensor *ab[2];

  if (go[0] == NULL)
    return TRUE;
  if (!(ab[0] = gnn_node_saved (node, 0, error)) || !(ab[1] = gnn_node_saved (node, 1, error)) ||
      !(a2 = gnn_tensor_mul (ab[0], ab[0], error)) || !(b2 = gnn_tensor_mul (ab[1], ab[1], error)) ||
      !(den = gnn_tensor_add (a2, b2, 1.0, error)) || !(q = gnn_tensor_div (go[0], den, error)))
    return FALSE;
  if (NEEDS (0) && !set_input_grad (node, gi, 0, gnn_tensor_mul (q, ab[1], error), error))
    return FALSE;
  if (NEEDS (1))
    {
      g_autoptr(GnnTensor) t = gnn_tensor_mul (q, ab[0], error);
      if (!t || !set_input_grad (node, gi, 1, gnn_tensor_neg (t, error), error))
        return FALSE;
    }
  return TRUE;
}

/* fmod and remainder:  g,  −g · (a / b rounded toward zero for fmod, toward −inf for remainder) */
static gboolean
fmod_backward (GnnNode *node, GnnTensor **go, GnnTensor **gi, GError **error)
{
  const gboolean floor_mode = GPOINTER_TO_INT (node->ctx);

  if (go[0] == NULL)
    return TRUE;
  if (NEEDS (0) && !set_input_grad (node, gi, 0, g_object_ref (go[0]), error))
    return FALSE;
  if (NEEDS (1))
    {
      g_autoptr(GnnTensor) q = NULL, rq = NULL, t = NULL;
      GnnTensor *a, *b;

      if (!(a = gnn_node_saved (node, 0, error)) || !(b = gnn_node_saved (node, 1, error)))
        return FALSE;
      {
        /* the rounded quotient is piecewise constant: no history, its derivative is 0 */
        g_autoptr(GnnNoGradGuard) guard = gnn_no_grad_guard_new ();

        if (floor_mode)
          rq = gnn_tensor_floor_divide (a, b, error);
        else if ((q = gnn_tensor_div (a, b, error)))
          rq = gnn_tensor_trunc (q, error);
      }
      if (!rq || !(t = gnn_tensor_mul (go[0], rq, error)) ||
          !set_input_grad (node, gi, 1, gnn_tensor_neg (t, error), error))
        return FALSE;
    }
  return TRUE;
}

/* xlogy and xlog1py, x log (y + c) for c = 0 or 1 (the node's ctx):
 *   x: the function of (g, y), 0 where x = 0 and y + c ≤ 0;  y: g x / (y + c) (PyTorch's) */
static gboolean
xlog_backward (GnnNode *node, GnnTensor **go, GnnTensor **gi, GError **error)
{
  gboolean plus_one = GPOINTER_TO_INT (node->ctx);
  GnnTensor *a, *b;

  if (go[0] == NULL)
    return TRUE;
  if (!(a = gnn_node_saved (node, 0, error)) || !(b = gnn_node_saved (node, 1, error)))
    return FALSE;
  if (NEEDS (0))
    {
      g_autoptr(GnnTensor) t = NULL, za = NULL, nb = NULL, both = NULL, zero = NULL;

      if (!(t = plus_one ? gnn_special_xlog1py (go[0], b, error) : gnn_tensor_xlogy (go[0], b, error)) ||
          !(za = gnn_tensor_eq_scalar (a, 0.0, error)) ||
          !(nb = gnn_tensor_le_scalar (b, plus_one ? -1.0 : 0.0, error)) || !(both = gnn_tensor_mul (za, nb, error)) ||
          !(zero = gnn_tensor_new_zeros_like (t, gnn_tensor_priv (t)->dtype, 0, NULL, error)) ||
          !set_input_grad (node, gi, 0, gnn_where (both, zero, t, error), error))
        return FALSE;
    }
  if (NEEDS (1))
    {
      g_autoptr(GnnTensor) t = NULL, shifted = NULL;

      if (!(t = gnn_tensor_mul (go[0], a, error)) ||
          !(shifted = plus_one ? gnn_tensor_add_scalar (b, 1.0, error) : g_object_ref (b)) ||
          !set_input_grad (node, gi, 1, gnn_tensor_div (t, shifted, error), error))
        return FALSE;
    }
  return TRUE;
}

/* zeta: PyTorch 1.13 has no derivative for s (an error when it is needed); for q,
 * −g s ζ (s + 1, q) */
static gboolean
zeta_backward (GnnNode *node, GnnTensor **go, GnnTensor **gi, GError **error)
{
  GnnTensor *s, *q;

  if (go[0] == NULL)
    return TRUE;
  if (NEEDS (0))
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED, "the derivative for 'zeta' is not implemented.");
      return FALSE;
    }
  if (!(s = gnn_node_saved (node, 0, error)) || !(q = gnn_node_saved (node, 1, error)))
    return FALSE;
  if (NEEDS (1))
    {
      g_autoptr(GnnTensor) s1 = NULL, z = NULL, t = NULL, ng = NULL;

      if (!(s1 = gnn_tensor_add_scalar (s, 1.0, error)) || !(z = gnn_special_zeta (s1, q, error)) ||
          !(t = gnn_tensor_mul (z, s, error)) || !(ng = gnn_tensor_neg (go[0], error)) ||
          !set_input_grad (node, gi, 1, gnn_tensor_mul (ng, t, error), error))
        return FALSE;
    }
  return TRUE;
}

/* floor_divide: PyTorch 1.13 has no derivative for it (its grad_fn is NotImplemented) */
static gboolean
floor_divide_backward (GnnNode *node, GnnTensor **go, GnnTensor **gi, GError **error)
{
  g_set_error_literal (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED,
                       "the derivative for 'floor_divide' is not implemented");
  return FALSE;
}

/* The dtypes a binary math function takes, and what it makes of integers */
typedef enum {
  MATH2_NUMBER,    /* integers kept, bool refused */
  MATH2_FLOAT,     /* integers and bool give float32 */
  MATH2_FLOATING,  /* floating-point operands only (at least one of them) */
  MATH2_ALL,       /* integers and bool kept */
} Math2Kind;

/* Runs the binary kernel @op on @a and @b broadcast, in their promoted dtype as @kind says, and
 * records its node. */
static GnnTensor *
math_binary (const char *name, const char *grad_fn, GnnBackwardFunc backward, gpointer ctx, GnnBackendOp op,
             Math2Kind kind, GnnTensor *a, GnnTensor *b, GError **error)
{
  GnnDtype result = gnn_result_dtype (a, b);
  GnnTensor *ins[2] = { a, b };
  GnnTensor *out;
  GnnNode *node;

  if (kind == MATH2_FLOAT && !gnn_dtype_is_floating (result))
    result = GNN_DTYPE_FLOAT32;
  if (kind == MATH2_FLOATING && !gnn_dtype_is_floating (result))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE,
                   "%s: not implemented for %s tensors; expected a floating-point tensor, got %s and %s", name,
                   gnn_dtype_get_name (result), gnn_dtype_get_name (gnn_tensor_priv (a)->dtype),
                   gnn_dtype_get_name (gnn_tensor_priv (b)->dtype));
      return NULL;
    }
  if (result == GNN_DTYPE_BOOL && kind != MATH2_ALL)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE,
                   "%s: not implemented for bool tensors; expected numbers, got %s and %s", name,
                   gnn_dtype_get_name (gnn_tensor_priv (a)->dtype), gnn_dtype_get_name (gnn_tensor_priv (b)->dtype));
      return NULL;
    }
  out = gnn_elementwise (name, op, ins, 2, gnn_compute_dtype (result), result, NULL, error);
  if (out && (node = gnn_autograd_record (grad_fn, backward, ins, 2, &out, 1)))
    {
      gnn_node_save (node, a);
      gnn_node_save (node, b);
      gnn_node_set_ctx (node, ctx, NULL);
    }
  return out;
}

/**
 * gnn_tensor_atan2:
 * @self: the y coordinates
 * @other: the x coordinates, broadcast against @self
 * @error: return location for a #GError
 *
 * The angle of the point (@other, @self) in (−π, π], elementwise (`torch.atan2`,
 * `torch.arctan2`). Integer and bool inputs give float32.
 *
 * Returns: (transfer full): atan2 (@self, @other), or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_atan2 (GnnTensor *self, GnnTensor *other, GError **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self) && GNN_IS_TENSOR (other), NULL);
  return math_binary ("atan2", "Atan2Backward0", atan2_backward, NULL, GNN_BACKEND_OP_ATAN2, MATH2_FLOAT, self, other, error);
}

/**
 * gnn_tensor_fmod:
 * @self: the dividend
 * @other: the divisor, broadcast against @self
 * @error: return location for a #GError
 *
 * The remainder of the division rounded toward zero, with the sign of @self, elementwise
 * (`torch.fmod`, C's fmod). Integer dtypes are kept; an integer zero divisor is an error
 * (PyTorch's ZeroDivisionError), a floating-point one gives NaN.
 *
 * Returns: (transfer full): fmod (@self, @other), or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_fmod (GnnTensor *self, GnnTensor *other, GError **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self) && GNN_IS_TENSOR (other), NULL);
  return math_binary ("fmod", "FmodBackward1", fmod_backward, GINT_TO_POINTER (FALSE), GNN_BACKEND_OP_FMOD,
                      MATH2_NUMBER, self, other, error);
}

/**
 * gnn_tensor_remainder:
 * @self: the dividend
 * @other: the divisor, broadcast against @self
 * @error: return location for a #GError
 *
 * The remainder of the division rounded toward −inf, with the sign of @other (Python's %),
 * elementwise (`torch.remainder`, `Tensor.__mod__`). Integer dtypes are kept; zero divisors
 * as [method@Gnn.Tensor.fmod].
 *
 * Returns: (transfer full): @self mod @other, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_remainder (GnnTensor *self, GnnTensor *other, GError **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self) && GNN_IS_TENSOR (other), NULL);
  return math_binary ("remainder", "RemainderBackward1", fmod_backward, GINT_TO_POINTER (TRUE),
                      GNN_BACKEND_OP_REMAINDER, MATH2_NUMBER, self, other, error);
}

/**
 * gnn_tensor_floor_divide:
 * @self: the dividend
 * @other: the divisor, broadcast against @self
 * @error: return location for a #GError
 *
 * The quotient rounded toward −inf, elementwise (`torch.floor_divide`, Python's //; since
 * PyTorch 1.13 it floors rather than truncates), the same as `torch.div (rounding_mode='floor')`.
 * Integer dtypes are kept; zero divisors as [method@Gnn.Tensor.fmod] (a floating-point one
 * gives ±inf or NaN). It has no gradient, as in PyTorch: differentiating it is an error.
 *
 * Returns: (transfer full): ⌊@self / @other⌋, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_floor_divide (GnnTensor *self, GnnTensor *other, GError **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self) && GNN_IS_TENSOR (other), NULL);
  return math_binary ("floor_divide", "NotImplemented", floor_divide_backward, NULL, GNN_BACKEND_OP_FLOOR_DIVIDE,
                      MATH2_NUMBER, self, other, error);
}

/**
 * gnn_tensor_xlogy:
 * @self: the factor x
 * @other: the argument y of the logarithm, broadcast against @self
 * @error: return location for a #GError
 *
 * x · log (y), elementwise (`torch.xlogy`), 0 where x is 0 unless y is NaN (so that
 * 0 · log 0 is 0, as entropies need). Integer and bool inputs give float32.
 *
 * Returns: (transfer full): @self · log (@other), or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_xlogy (GnnTensor *self, GnnTensor *other, GError **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self) && GNN_IS_TENSOR (other), NULL);
  return math_binary ("xlogy", "XlogyBackward0", xlog_backward, GINT_TO_POINTER (FALSE), GNN_BACKEND_OP_XLOGY, MATH2_FLOAT, self, other, error);
}

/**
 * gnn_special_xlog1py:
 * @input: the factor x
 * @other: the argument y of log (1 + y), broadcast against @input
 * @error: return location for a #GError
 *
 * x · log (1 + y), elementwise (`torch.special.xlog1py`), 0 where x is 0 unless y is NaN, as
 * [method@Gnn.Tensor.xlogy]. Integer and bool inputs give float32.
 *
 * Returns: (transfer full): @input · log (1 + @other), or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_special_xlog1py (GnnTensor *input, GnnTensor *other, GError **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (input) && GNN_IS_TENSOR (other), NULL);
  return math_binary ("special_xlog1py", "SpecialXlog1PyBackward0", xlog_backward, GINT_TO_POINTER (TRUE), GNN_BACKEND_OP_XLOG1PY,
                      MATH2_FLOAT, input, other, error);
}

/**
 * gnn_special_zeta:
 * @input: the exponent s
 * @other: the shift q, broadcast against @input
 * @error: return location for a #GError
 *
 * The Hurwitz zeta function ζ (s, q) = Σ_k (q + k)^−s, elementwise (`torch.special.zeta`): inf
 * at s = 1 and where q is 0 or a negative integer, NaN for s < 1. As in PyTorch, it has a
 * gradient for q only: a backward that needs the one for s is an error. Integer and bool
 * inputs give float32.
 *
 * Returns: (transfer full): ζ (@input, @other), or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_special_zeta (GnnTensor *input, GnnTensor *other, GError **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (input) && GNN_IS_TENSOR (other), NULL);
  return math_binary ("special_zeta", "SpecialZetaBackward0", zeta_backward, NULL, GNN_BACKEND_OP_ZETA,
                      MATH2_FLOAT, input, other, error);
}

/* Σ_{j < p} f (x − j/2) for f lgamma (the multivariate log-gamma's sum) or digamma (its
 * derivative), in ops */
static GnnTensor *
mvlgamma_sum (GnnTensor *x, int p, gboolean derivative, GError **error)
{
  g_autoptr(GnnTensor) sum = NULL;

  for (int j = 0; j < p; j++)
    {
      g_autoptr(GnnTensor) shifted = gnn_tensor_add_scalar (x, -0.5 * j, error);
      g_autoptr(GnnTensor) f = NULL;

      if (!shifted || !(f = derivative ? gnn_tensor_digamma (shifted, error) : gnn_tensor_lgamma (shifted, error)))
        return NULL;
      if (sum == NULL)
        sum = g_steal_pointer (&f);
      else
        {
          GnnTensor *next = gnn_tensor_add (sum, f, 1.0, error);
          if (next == NULL)
            return NULL;
          g_object_unref (sum);
          sum = next;
        }
    }
  return g_steal_pointer (&sum);
}

/* mvlgamma: g Σ_j ψ(x − j/2), differentiable again */
static gboolean
mvlgamma_backward (GnnNode *node, GnnTensor **go, GnnTensor **gi, GError **error)
{
  g_autoptr(GnnTensor) d = NULL;
  GnnTensor *x;

  if (go[0] == NULL || !NEEDS (0))
    return TRUE;
  if (!(x = gnn_node_saved (node, 0, error)) || !(d = mvlgamma_sum (x, GPOINTER_TO_INT (node->ctx), TRUE, error)))
    return FALSE;
  return set_input_grad (node, gi, 0, gnn_tensor_mul (go[0], d, error), error);
}

/**
 * gnn_tensor_mvlgamma:
 * @self: a tensor
 * @p: the dimension, at least 1
 * @error: return location for a #GError
 *
 * The multivariate log-gamma function of dimension @p, elementwise (`torch.mvlgamma`,
 * `torch.special.multigammaln`): p (p − 1)/4 · log π + Σ_{j < p} lgamma (@self − j/2). As in
 * PyTorch 1.13, elements at or below (p − 1)/2 are not refused (the sum is inf or NaN there).
 * Integer and bool inputs give float32.
 *
 * Returns: (transfer full): the multivariate log-gamma of @self, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_mvlgamma (GnnTensor *self, int p, GError **error)
{
  g_autoptr(GnnTensor) f = NULL;
  GnnTensor *x, *out = NULL;
  GnnNode *node;

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  if (p < 1)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT, "mvlgamma: p has to be greater than or equal to 1, got %d", p);
      return NULL;
    }
  x = self;
  if (!gnn_dtype_is_floating (gnn_tensor_priv (self)->dtype))
    {
      if (!(f = gnn_tensor_cast (self, GNN_DTYPE_FLOAT32, error)))
        return NULL;
      x = f;
    }
  {
    g_autoptr(GnnNoGradGuard) guard = gnn_no_grad_guard_new ();
    g_autoptr(GnnTensor) sum = mvlgamma_sum (x, p, FALSE, error);

    if (sum == NULL)
      return NULL;
    out = gnn_tensor_add_scalar (sum, p * (p - 1) * log (G_PI) / 4.0, error);
  }
  if (out && (node = gnn_autograd_record ("MvlgammaBackward0", mvlgamma_backward, &self, 1, &out, 1)))
    {
      gnn_node_save (node, x);
      gnn_node_set_ctx (node, GINT_TO_POINTER (p), NULL);
    }
  return out;
}

/* ---- more binary functions: copysign, fmax, fmin, logaddexp(2), nextafter, heaviside ---- */

/* copysign:  g · copysign (a, b) / a, 0 where a = 0;  0 for b (PyTorch's) */
static gboolean
copysign_backward (GnnNode *node, GnnTensor **go, GnnTensor **gi, GError **error)
{
  GnnTensor *a, *b;

  if (go[0] == NULL)
    return TRUE;
  if (!(a = gnn_node_saved (node, 0, error)) || !(b = gnn_node_saved (node, 1, error)))
    return FALSE;
  if (NEEDS (0))
    {
      g_autoptr(GnnTensor) r = NULL, ratio = NULL, at0 = NULL, zero = NULL, masked = NULL;

      if (!(r = gnn_tensor_copysign (a, b, error)) || !(ratio = gnn_tensor_div (r, a, error)) ||
          !(at0 = gnn_tensor_eq_scalar (a, 0.0, error)) ||
          !(zero = gnn_tensor_new_zeros_like (ratio, gnn_tensor_priv (ratio)->dtype, 0, NULL, error)) ||
          !(masked = gnn_where (at0, zero, ratio, error)) ||
          !set_input_grad (node, gi, 0, gnn_tensor_mul (go[0], masked, error), error))
        return FALSE;
    }
  /* zeros, not None, for the signs, as PyTorch gives */
  if (NEEDS (1) &&
      !(gi[1] = gnn_tensor_new_zeros_like (go[0], node->in_dtype[1], node->in_ndim[1], node->in_shape[1], error)))
    return FALSE;
  return TRUE;
}

/* fmax and fmin: the gradient goes to a where a ≥ b (a ≤ b for fmin) or b is NaN, to b
 * elsewhere (PyTorch's) */
static gboolean
fmax_fmin_backward (GnnNode *node, GnnTensor **go, GnnTensor **gi, GError **error)
{
  gboolean is_min = GPOINTER_TO_INT (node->ctx);
  g_autoptr(GnnTensor) cmp = NULL, bnan = NULL, to_a = NULL;
  GnnTensor *a, *b;

  if (go[0] == NULL)
    return TRUE;
  if (!(a = gnn_node_saved (node, 0, error)) || !(b = gnn_node_saved (node, 1, error)) ||
      !(cmp = is_min ? gnn_tensor_le (a, b, error) : gnn_tensor_ge (a, b, error)) ||
      !(bnan = gnn_tensor_isnan (b, error)) || !(to_a = gnn_tensor_logical_or (cmp, bnan, error)))
    return FALSE;
  if (NEEDS (0) && !set_input_grad (node, gi, 0, select_or_zero (to_a, go[0], NULL, go[0], error), error))
    return FALSE;
  if (NEEDS (1) && !set_input_grad (node, gi, 1, select_or_zero (to_a, NULL, go[0], go[0], error), error))
    return FALSE;
  return TRUE;
}

/* logaddexp:  g / (1 + e^(b − a)) and g / (1 + e^(a − b)); logaddexp2 with 2^ for e^ */
static gboolean
logaddexp_backward (GnnNode *node, GnnTensor **go, GnnTensor **gi, GError **error)
{
  gboolean base2 = GPOINTER_TO_INT (node->ctx);
  GnnTensor *ab[2];

  if (go[0] == NULL)
    return TRUE;
  if (!(ab[0] = gnn_node_saved (node, 0, error)) || !(ab[1] = gnn_node_saved (node, 1, error)))
    return FALSE;
  for (guint j = 0; j < 2; j++)
    if (NEEDS (j))
      {
        g_autoptr(GnnTensor) d = gnn_tensor_sub (ab[1 - j], ab[j], 1.0, error);
        g_autoptr(GnnTensor) e = d ? (base2 ? gnn_tensor_exp2 (d, error) : gnn_tensor_exp (d, error)) : NULL;
        g_autoptr(GnnTensor) den = e ? gnn_tensor_add_scalar (e, 1.0, error) : NULL;

        if (!den || !set_input_grad (node, gi, j, gnn_tensor_div (go[0], den, error), error))
          return FALSE;
      }
  return TRUE;
}

/* nextafter and heaviside: PyTorch 1.13 has no derivative for them; the message is its */
static gboolean
no_derivative_backward (GnnNode *node, GnnTensor **go, GnnTensor **gi, GError **error)
{
  g_set_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED, "%s", (const char *) node->ctx);
  return FALSE;
}

/**
 * gnn_tensor_copysign:
 * @self: the magnitudes
 * @other: the signs, broadcast against @self
 * @error: return location for a #GError
 *
 * |@self| with the sign of @other, elementwise (`torch.copysign`): the sign of −0.0 and of a
 * NaN count, as in C's copysign. Integer and bool inputs give float32. The gradient for
 * @other is zero.
 *
 * Returns: (transfer full): copysign (@self, @other), or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_copysign (GnnTensor *self, GnnTensor *other, GError **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self) && GNN_IS_TENSOR (other), NULL);
  return math_binary ("copysign", "CopysignBackward0", copysign_backward, NULL, GNN_BACKEND_OP_COPYSIGN,
                      MATH2_FLOAT, self, other, error);
}

/**
 * gnn_tensor_fmax:
 * @self: a tensor
 * @other: a tensor, broadcast against @self
 * @error: return location for a #GError
 *
 * The larger of @self and @other, elementwise, a NaN ignored where the other operand is a
 * number (`torch.fmax`, C's fmax; [method@Gnn.Tensor.maximum] propagates NaN instead). Integer
 * and bool dtypes are kept.
 *
 * Returns: (transfer full): fmax (@self, @other), or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_fmax (GnnTensor *self, GnnTensor *other, GError **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self) && GNN_IS_TENSOR (other), NULL);
  return math_binary ("fmax", "FmaxBackward0", fmax_fmin_backward, GINT_TO_POINTER (FALSE), GNN_BACKEND_OP_FMAX,
                      MATH2_ALL, self, other, error);
}

/**
 * gnn_tensor_fmin:
 * @self: a tensor
 * @other: a tensor, broadcast against @self
 * @error: return location for a #GError
 *
 * The smaller of @self and @other, elementwise, a NaN ignored where the other operand is a
 * number (`torch.fmin`, C's fmin; [method@Gnn.Tensor.minimum] propagates NaN instead). Integer
 * and bool dtypes are kept.
 *
 * Returns: (transfer full): fmin (@self, @other), or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_fmin (GnnTensor *self, GnnTensor *other, GError **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self) && GNN_IS_TENSOR (other), NULL);
  return math_binary ("fmin", "FminBackward0", fmax_fmin_backward, GINT_TO_POINTER (TRUE), GNN_BACKEND_OP_FMIN,
                      MATH2_ALL, self, other, error);
}

/**
 * gnn_tensor_logaddexp:
 * @self: a tensor
 * @other: a tensor, broadcast against @self
 * @error: return location for a #GError
 *
 * log (e^@self + e^@other), elementwise, without overflow (`torch.logaddexp`). The operands
 * must be floating-point, as in PyTorch.
 *
 * Returns: (transfer full): logaddexp (@self, @other), or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_logaddexp (GnnTensor *self, GnnTensor *other, GError **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self) && GNN_IS_TENSOR (other), NULL);
  return math_binary ("logaddexp", "LogaddexpBackward0", logaddexp_backward, GINT_TO_POINTER (FALSE),
                      GNN_BACKEND_OP_LOGADDEXP, MATH2_FLOATING, self, other, error);
}

/**
 * gnn_tensor_logaddexp2:
 * @self: a tensor
 * @other: a tensor, broadcast against @self
 * @error: return location for a #GError
 *
 * log₂ (2^@self + 2^@other), elementwise, without overflow (`torch.logaddexp2`). The operands
 * must be floating-point, as in PyTorch.
 *
 * Returns: (transfer full): logaddexp2 (@self, @other), or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_logaddexp2 (GnnTensor *self, GnnTensor *other, GError **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self) && GNN_IS_TENSOR (other), NULL);
  return math_binary ("logaddexp2", "Logaddexp2Backward0", logaddexp_backward, GINT_TO_POINTER (TRUE),
                      GNN_BACKEND_OP_LOGADDEXP2, MATH2_FLOATING, self, other, error);
}

/**
 * gnn_tensor_nextafter:
 * @self: the starting values
 * @other: the directions, broadcast against @self
 * @error: return location for a #GError
 *
 * The next value after @self toward @other that the result's dtype represents, elementwise
 * (`torch.nextafter`): float32 steps for float32 operands. The operands must be floating-point;
 * it has no derivative, as in PyTorch.
 *
 * Returns: (transfer full): nextafter (@self, @other), or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_nextafter (GnnTensor *self, GnnTensor *other, GError **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self) && GNN_IS_TENSOR (other), NULL);
  return math_binary ("nextafter", "NextafterBackward0", no_derivative_backward,
                      (gpointer) "the derivative for 'nextafter' is not implemented.", GNN_BACKEND_OP_NEXTAFTER,
                      MATH2_FLOATING, self, other, error);
}

/**
 * gnn_tensor_heaviside:
 * @self: a tensor
 * @values: the values where @self is 0, of @self's dtype, broadcast against it
 * @error: return location for a #GError
 *
 * The Heaviside step function, elementwise (`torch.heaviside`): 0 where @self < 0, @values
 * where @self is 0, 1 where @self > 0 (and 0 where @self is NaN, as in PyTorch). Both
 * operands must have the same dtype, as in PyTorch; it has no derivative.
 *
 * Returns: (transfer full): heaviside (@self, @values), or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_heaviside (GnnTensor *self, GnnTensor *values, GError **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self) && GNN_IS_TENSOR (values), NULL);
  if (gnn_tensor_priv (self)->dtype != gnn_tensor_priv (values)->dtype)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE,
                   "heaviside is not yet implemented for tensors with different dtypes; expected values "
                   "of %s, got %s", gnn_dtype_get_name (gnn_tensor_priv (self)->dtype),
                   gnn_dtype_get_name (gnn_tensor_priv (values)->dtype));
      return NULL;
    }
  return math_binary ("heaviside", "NotImplemented", no_derivative_backward,
                      (gpointer) "derivative for aten::heaviside is not implemented", GNN_BACKEND_OP_HEAVISIDE,
                      MATH2_ALL, self, values, error);
}

/* ---- functions of the functions above: deg2rad, rad2deg, signbit, float_power, ldexp ---- */

/* g · k, k the node's scale */
static gboolean
scale_backward (GnnNode *node, GnnTensor **go, GnnTensor **gi, GError **error)
{
  if (go[0] == NULL || !NEEDS (0))
    return TRUE;
  return set_input_grad (node, gi, 0, gnn_tensor_mul_scalar (go[0], *(const double *) node->ctx, error), error);
}

/* @self · @k, integers and bool as float32, recorded as one node named @grad_fn */
static GnnTensor *
scaled (const char *grad_fn, GnnTensor *self, double k, GError **error)
{
  GnnDtype d = gnn_tensor_priv (self)->dtype;
  g_autoptr(GnnTensor) x = NULL;
  GnnTensor *out;
  GnnNode *node;

  x = gnn_dtype_is_floating (d) ? g_object_ref (self) : gnn_tensor_cast (self, GNN_DTYPE_FLOAT32, error);
  if (x == NULL)
    return NULL;
  {
    g_autoptr(GnnNoGradGuard) guard = gnn_no_grad_guard_new ();
    out = gnn_tensor_mul_scalar (x, k, error);
  }
  if (out && (node = gnn_autograd_record (grad_fn, scale_backward, &self, 1, &out, 1)))
    {
      double *ctx = g_new (double, 1);

      *ctx = k;
      gnn_node_set_ctx (node, ctx, g_free);
    }
  return out;
}

/**
 * gnn_tensor_deg2rad:
 * @self: angles in degrees
 * @error: return location for a #GError
 *
 * @self converted from degrees to radians, @self · π / 180 (`torch.deg2rad`). Integer and bool
 * inputs give float32.
 *
 * Returns: (transfer full): the angles in radians, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_deg2rad (GnnTensor *self, GError **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  return scaled ("Deg2RadBackward0", self, M_PI / 180.0, error);
}

/**
 * gnn_tensor_rad2deg:
 * @self: angles in radians
 * @error: return location for a #GError
 *
 * @self converted from radians to degrees, @self · 180 / π (`torch.rad2deg`). Integer and bool
 * inputs give float32.
 *
 * Returns: (transfer full): the angles in degrees, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_rad2deg (GnnTensor *self, GError **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  return scaled ("Rad2DegBackward0", self, 180.0 / M_PI, error);
}

/**
 * gnn_tensor_signbit:
 * @self: a tensor
 * @error: return location for a #GError
 *
 * Whether the sign bit of each element is set (`torch.signbit`): true for negative numbers
 * and −0.0 (and a NaN with its sign bit set), false for bool tensors.
 *
 * Returns: (transfer full): a bool tensor of @self's shape, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_signbit (GnnTensor *self, GError **error)
{
  GnnTensorPrivate *p;
  g_autoptr(GnnNoGradGuard) guard = gnn_no_grad_guard_new ();
  g_autoptr(GnnTensor) one = NULL, signs = NULL;

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  p = gnn_tensor_priv (self);
  if (p->dtype == GNN_DTYPE_BOOL)
    return gnn_tensor_new_zeros_like (self, GNN_DTYPE_BOOL, p->ndim, p->shape, error);
  if (!gnn_dtype_is_floating (p->dtype))
    return gnn_tensor_lt_scalar (self, 0.0, error);
  /* copysign (1, x) is −1 exactly where x's sign bit is set, −0.0 and signed NaNs included */
  if (!(one = gnn_tensor_new_full (NULL, 0, 1.0, p->dtype, gnn_tensor_get_device (self), error)) ||
      !(signs = gnn_tensor_copysign (one, self, error)))
    return NULL;
  return gnn_tensor_lt_scalar (signs, 0.0, error);
}

/**
 * gnn_tensor_float_power:
 * @self: the bases
 * @exponent: the exponents, broadcast against @self
 * @error: return location for a #GError
 *
 * @self ^ @exponent computed in float64, whatever the operands' dtypes (`torch.float_power`):
 * both are cast to float64 first, so the result is float64.
 *
 * Returns: (transfer full): the float64 powers, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_float_power (GnnTensor *self, GnnTensor *exponent, GError **error)
{
  g_autoptr(GnnTensor) a = NULL, b = NULL;

  g_return_val_if_fail (GNN_IS_TENSOR (self) && GNN_IS_TENSOR (exponent), NULL);
  if (!(a = gnn_tensor_to_dtype (self, GNN_DTYPE_FLOAT64, error)) ||
      !(b = gnn_tensor_to_dtype (exponent, GNN_DTYPE_FLOAT64, error)))
    return NULL;
  return gnn_tensor_pow (a, b, error);
}

/**
 * gnn_tensor_ldexp:
 * @self: the mantissas
 * @other: the exponents, broadcast against @self
 * @error: return location for a #GError
 *
 * @self · 2^@other, elementwise (`torch.ldexp`, which PyTorch computes as this product too).
 * Integer operands give float32.
 *
 * Returns: (transfer full): @self · 2^@other, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_ldexp (GnnTensor *self, GnnTensor *other, GError **error)
{
  g_autoptr(GnnTensor) p = NULL;

  g_return_val_if_fail (GNN_IS_TENSOR (self) && GNN_IS_TENSOR (other), NULL);
  if (!(p = gnn_tensor_exp2 (other, error)))
    return NULL;
  return gnn_tensor_mul (self, p, error);
}

/* ---- the activations of one kernel ---------------------------------------------------- */

/**
 * gnn_tensor_softplus:
 * @self: a floating-point tensor
 * @beta: the sharpness β (PyTorch's default is 1)
 * @threshold: above which β·@self the result is @self itself (PyTorch's default is 20)
 * @error: return location for a #GError
 *
 * The softplus function log (1 + e^(β·@self)) / β, elementwise
 * (`torch.nn.functional.softplus`), @self itself where β·@self > @threshold, for numerical
 * stability.
 *
 * Returns: (transfer full): softplus (@self), or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_softplus (GnnTensor *self, double beta, double threshold, GError **error)
{
  GnnKernelParams params = { .softplus = { beta, threshold } };

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  return math_unary_params (GNN_BACKEND_OP_SOFTPLUS, &params, NULL, self, error);
}

/**
 * gnn_tensor_hardsigmoid:
 * @self: a floating-point tensor
 * @error: return location for a #GError
 *
 * The piecewise linear sigmoid min (max (@self + 3, 0), 6) / 6, elementwise
 * (`torch.nn.functional.hardsigmoid`). The gradient is 1/6 on (−3, 3) and 0 elsewhere.
 *
 * Returns: (transfer full): hardsigmoid (@self), or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_hardsigmoid (GnnTensor *self, GError **error)
{
  GnnKernelParams params = { 0 };

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  return math_unary_params (GNN_BACKEND_OP_HARDSIGMOID, &params, NULL, self, error);
}

/**
 * gnn_tensor_hardswish:
 * @self: a floating-point tensor
 * @error: return location for a #GError
 *
 * @self · min (max (@self + 3, 0), 6) / 6, elementwise (`torch.nn.functional.hardswish`,
 * from MobileNetV3).
 *
 * Returns: (transfer full): hardswish (@self), or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_hardswish (GnnTensor *self, GError **error)
{
  GnnKernelParams params = { 0 };

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  return math_unary_params (GNN_BACKEND_OP_HARDSWISH, &params, NULL, self, error);
}

/**
 * gnn_tensor_mish:
 * @self: a floating-point tensor
 * @error: return location for a #GError
 *
 * @self · tanh (softplus (@self)), elementwise (`torch.nn.functional.mish`).
 *
 * Returns: (transfer full): mish (@self), or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_mish (GnnTensor *self, GError **error)
{
  GnnKernelParams params = { 0 };

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  return math_unary_params (GNN_BACKEND_OP_MISH, &params, NULL, self, error);
}

/**
 * gnn_tensor_celu:
 * @self: a floating-point tensor
 * @alpha: the α of the negative part, not 0 (PyTorch's default is 1)
 * @error: return location for a #GError
 *
 * The continuously differentiable exponential linear unit
 * max (0, @self) + min (0, α (e^(@self/α) − 1)), elementwise (`torch.nn.functional.celu`).
 * An @alpha of 0 is an error, as in PyTorch.
 *
 * Returns: (transfer full): celu (@self), or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_celu (GnnTensor *self, double alpha, GError **error)
{
  GnnKernelParams params = { .elu = { alpha } };

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  if (alpha == 0.0)
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                           "celu: ZeroDivisionError: alpha cannot be 0 for CELU");
      return NULL;
    }
  return math_unary_params (GNN_BACKEND_OP_CELU, &params, NULL, self, error);
}

/**
 * gnn_tensor_selu:
 * @self: a floating-point tensor
 * @error: return location for a #GError
 *
 * The scaled exponential linear unit λ (max (0, @self) + min (0, α (e^@self − 1))), with
 * α ≈ 1.6733 and λ ≈ 1.0507, elementwise (`torch.nn.functional.selu`). Its node is named
 * "EluBackward0", as PyTorch's.
 *
 * Returns: (transfer full): selu (@self), or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_selu (GnnTensor *self, GError **error)
{
  GnnKernelParams params = { 0 };

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  return math_unary_params (GNN_BACKEND_OP_SELU, &params, NULL, self, error);
}

/**
 * gnn_tensor_logsigmoid:
 * @self: a floating-point tensor
 * @error: return location for a #GError
 *
 * log (1 / (1 + e^−@self)), elementwise (`torch.nn.functional.logsigmoid`), computed as
 * min (@self, 0) − log (1 + e^−|@self|) so that it does not overflow.
 *
 * Returns: (transfer full): log σ (@self), or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_logsigmoid (GnnTensor *self, GError **error)
{
  GnnKernelParams params = { 0 };

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  return math_unary_params (GNN_BACKEND_OP_LOG_SIGMOID, &params, NULL, self, error);
}

/* hardshrink and softshrink */
static GnnTensor *
shrink (GnnBackendOp op, GnnTensor *self, double lambd, GError **error)
{
  GnnKernelParams params = { .shrink = { lambd } };

  if (op == GNN_BACKEND_OP_SOFTSHRINK && !(lambd >= 0))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "softshrink: lambda must be greater or equal to 0, but found to be %g.", lambd);
      return NULL;
    }
  return math_unary_params (op, &params, NULL, self, error);
}

/**
 * gnn_tensor_hardshrink:
 * @self: a floating-point tensor
 * @lambd: the half-width λ of the band set to zero (PyTorch's default is 0.5)
 * @error: return location for a #GError
 *
 * 0 where −λ ≤ @self ≤ λ, @self elsewhere (`torch.nn.functional.hardshrink`).
 *
 * Returns: (transfer full): hardshrink (@self), or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_hardshrink (GnnTensor *self, double lambd, GError **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  return shrink (GNN_BACKEND_OP_HARDSHRINK, self, lambd, error);
}

/**
 * gnn_tensor_softshrink:
 * @self: a floating-point tensor
 * @lambd: the half-width λ ≥ 0 of the band set to zero (PyTorch's default is 0.5)
 * @error: return location for a #GError
 *
 * @self shrunk toward 0 by λ: @self − λ above λ, @self + λ below −λ, 0 between
 * (`torch.nn.functional.softshrink`). A negative @lambd is an error, as in PyTorch.
 *
 * Returns: (transfer full): softshrink (@self), or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_softshrink (GnnTensor *self, double lambd, GError **error)
{
  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  return shrink (GNN_BACKEND_OP_SOFTSHRINK, self, lambd, error);
}

/**
 * gnn_tensor_threshold:
 * @self: a floating-point tensor
 * @threshold: the value at or below which elements are replaced
 * @value: what replaces them
 * @error: return location for a #GError
 *
 * @value where @self ≤ @threshold, @self elsewhere (`torch.nn.functional.threshold`); NaN
 * stays NaN. The gradient is 0 where @self ≤ @threshold. Integer tensors are refused here
 * (PyTorch accepts them).
 *
 * Returns: (transfer full): threshold (@self), or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_threshold (GnnTensor *self, double threshold, double value, GError **error)
{
  GnnKernelParams params = { .threshold = { threshold, value } };

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  return math_unary_params (GNN_BACKEND_OP_THRESHOLD, &params, NULL, self, error);
}

/* glu, prelu, rrelu: PyTorch has no integer kernels for them */
static gboolean
activation_floating (const char *name, GnnTensorPrivate *p, GError **error)
{
  if (gnn_dtype_is_floating (p->dtype))
    return TRUE;
  g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE, "%s: not implemented for %s tensors; expected a floating-point tensor",
               name, gnn_dtype_get_name (p->dtype));
  return FALSE;
}

/**
 * gnn_tensor_glu:
 * @self: a floating-point tensor of at least one dimension
 * @dim: the dimension to halve; negative values count from the end (PyTorch's default is −1)
 * @error: return location for a #GError
 *
 * The gated linear unit a ⊗ σ(b), a and b the two halves of @self along @dim
 * (`torch.nn.functional.glu`). The size of @dim must be even. It is composed of chunk, sigmoid
 * and mul, so its node is MulBackward0 where PyTorch's is GluBackward0; the values and
 * gradients are the same.
 *
 * Returns: (transfer full): glu (@self), or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_glu (GnnTensor *self, int dim, GError **error)
{
  g_autoptr(GPtrArray) halves = NULL;
  g_autoptr(GnnTensor) gate = NULL;
  GnnTensorPrivate *p;
  int d;

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  p = gnn_tensor_priv (self);
  if (p->ndim == 0)
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_SHAPE,
                           "glu: glu does not support scalars because halving size must be even");
      return NULL;
    }
  if (!activation_floating ("glu", p, error))
    return NULL;
  d = dim < 0 ? dim + (int) p->ndim : dim;
  if (d < 0 || d >= (int) p->ndim)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INDEX,
                   "glu: Dimension out of range (expected to be in range of [%d, %d], but got %d)",
                   -(int) p->ndim, (int) p->ndim - 1, dim);
      return NULL;
    }
  if (p->shape[d] % 2 != 0)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "glu: Halving dimension must be even, but dimension %d is size %" G_GINT64_FORMAT, d, p->shape[d]);
      return NULL;
    }
  if (!(halves = gnn_tensor_chunk (self, 2, d, error)) || !(gate = gnn_tensor_sigmoid (halves->pdata[1], error)))
    return NULL;
  return gnn_tensor_mul (halves->pdata[0], gate, error);
}

/**
 * gnn_tensor_prelu:
 * @self: a floating-point tensor
 * @weight: the slopes for negative inputs: one, or one per channel (the size of @self's
 *   dimension 1)
 * @error: return location for a #GError
 *
 * The parametric rectified linear unit (`torch.nn.functional.prelu`): @self where positive,
 * @weight × @self elsewhere, the slope of channel c applied along @self's dimension 1. Any
 * other number of slopes is an error naming both counts, as in PyTorch. It is composed of gt,
 * mul and where, so its node is WhereBackward0 where PyTorch's is PreluBackward0; the values
 * and the gradients of both operands are the same.
 *
 * Returns: (transfer full): prelu (@self, @weight), or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_prelu (GnnTensor *self, GnnTensor *weight, GError **error)
{
  g_autoptr(GnnTensor) w = NULL, wx = NULL, positive = NULL;
  gint64 shape[GNN_MAX_DIMS], channels, n;
  GnnTensorPrivate *p;
  guint ndim = 1;

  g_return_val_if_fail (GNN_IS_TENSOR (self) && GNN_IS_TENSOR (weight), NULL);
  p = gnn_tensor_priv (self);
  if (!activation_floating ("prelu", p, error))
    return NULL;
  channels = p->ndim >= 2 ? p->shape[1] : 1;
  n = gnn_tensor_get_numel (weight);
  if (n != 1 && n != channels)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "prelu: Mismatch of parameter numbers and input channel size. Found parameter numbers = %"
                   G_GINT64_FORMAT " and channel size = %" G_GINT64_FORMAT ".", n, channels);
      return NULL;
    }
  /* (C, 1, ..., 1): the slopes along dimension 1, broadcast over the batch and the rest */
  shape[0] = n;
  if (n != 1)
    for (ndim = 1; ndim + 1 < p->ndim; ndim++)
      shape[ndim] = 1;
  if (!(w = gnn_tensor_reshape (weight, shape, ndim, error)) || !(wx = gnn_tensor_mul (w, self, error)) ||
      !(positive = gnn_tensor_gt_scalar (self, 0.0, error)))
    return NULL;
  return gnn_where (positive, self, wx, error);
}

/**
 * gnn_tensor_rrelu:
 * @self: a floating-point tensor
 * @lower: the lower bound of the random slopes (PyTorch's default is 1/8)
 * @upper: the upper bound of the random slopes (PyTorch's default is 1/3)
 * @training: whether to draw the slopes (training) or use their mean (evaluation)
 * @generator: (nullable): the generator of the slopes; %NULL for the default one
 * @error: return location for a #GError
 *
 * The randomized leaky rectified linear unit (`torch.nn.functional.rrelu`): @self where
 * positive, a × @self where @self ≤ 0, a drawn uniformly from [@lower, @upper) for each
 * element when @training, (@lower + @upper) / 2 otherwise. The gradient is the slope each
 * element got. @lower > @upper is an error, as in PyTorch. The slopes come from gnn's
 * generator, so they are not PyTorch's draws; in evaluation the node is LeakyReluBackward0
 * (PyTorch's RreluWithNoiseBackward0), in training MulBackward0.
 *
 * Returns: (transfer full): rrelu (@self), or %NULL with @error set
 *
 * Since: 0.1
 */
GnnTensor *
gnn_tensor_rrelu (GnnTensor *self, double lower, double upper, gboolean training, GnnGenerator *generator,
                  GError **error)
{
  g_autoptr(GnnTensor) u = NULL, a = NULL, r = NULL, slopes = NULL, one = NULL, negative = NULL;
  GnnTensorPrivate *p;

  g_return_val_if_fail (GNN_IS_TENSOR (self), NULL);
  g_return_val_if_fail (generator == NULL || GNN_IS_GENERATOR (generator), NULL);
  p = gnn_tensor_priv (self);
  if (!activation_floating ("rrelu", p, error))
    return NULL;
  if (!(lower <= upper))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "rrelu: Lower bound should be less than or equal to the upper bound, got lower=%g and upper=%g",
                   lower, upper);
      return NULL;
    }
  if (!training)
    return gnn_tensor_leaky_relu (self, (lower + upper) / 2.0, error);
  /* the slope of each element: uniform in [lower, upper) where self <= 0, 1 elsewhere */
  if (!(u = gnn_tensor_new_rand (p->shape, p->ndim, generator, p->dtype, gnn_tensor_get_device (self), error)) ||
      !(a = gnn_tensor_mul_scalar (u, upper - lower, error)) || !(r = gnn_tensor_add_scalar (a, lower, error)) ||
      !(one = gnn_tensor_new_full (NULL, 0, 1.0, p->dtype, gnn_tensor_get_device (self), error)) ||
      !(negative = gnn_tensor_le_scalar (self, 0.0, error)) || !(slopes = gnn_where (negative, r, one, error)))
    return NULL;
  return gnn_tensor_mul (self, slopes, error);
}
