/* gnn-math-private.h: the special functions of the op table's formulas that <math.h> lacks
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The GNN_BACKEND_OP_FLOAT rows of gnn-backend-ops.def name these, so the reference backend
 * (which computes with the table's formulas) and the CPU backend share one definition. They
 * compute in double; each follows the definition PyTorch 1.13 documents for the op, at its
 * special points (poles, the ends of the domain, NaN).
 */
#pragma once

#include <float.h>
#include <math.h>

/* the inverse of erf: an initial estimate from M. Giles' single-precision approximation
 * ("Approximating the erfinv function", 2010), then two Newton steps on erf, whose
 * convergence is quadratic (torch.erfinv, and nn.init.trunc_normal_'s draws) */
static inline double
gnn_math_erfinv (double y)
{
  double w, p, x;

  if (isnan (y) || y < -1.0 || y > 1.0)
    return NAN;
  if (y == 1.0 || y == -1.0)
    return copysign (INFINITY, y);
  w = -log ((1.0 - y) * (1.0 + y));
  if (w < 5.0)
    {
      w -= 2.5;
      p = 2.81022636e-08;
      p = 3.43273939e-07 + p * w;
      p = -3.5233877e-06 + p * w;
      p = -4.39150654e-06 + p * w;
      p = 0.00021858087 + p * w;
      p = -0.00125372503 + p * w;
      p = -0.00417768164 + p * w;
      p = 0.246640727 + p * w;
      p = 1.50140941 + p * w;
    }
  else
    {
      w = sqrt (w) - 3.0;
      p = -0.000200214257;
      p = 0.000100950558 + p * w;
      p = 0.00134934322 + p * w;
      p = -0.00367342844 + p * w;
      p = 0.00573950773 + p * w;
      p = -0.0076224613 + p * w;
      p = 0.00943887047 + p * w;
      p = 1.00167406 + p * w;
      p = 2.83297682 + p * w;
    }
  x = p * y;
  for (int i = 0; i < 2; i++)
    {
      double slope = M_2_SQRTPI * exp (-x * x);

      if (slope == 0.0)
        break;
      x -= (erf (x) - y) / slope;
    }
  return x;
}

/* ψ (x) = Γ'(x) / Γ(x): ∓inf at ±0 and NaN at the negative integers (PyTorch's and SciPy's
 * convention), the reflection ψ (1 - x) - π / tan (π x) below 0, the recurrence
 * ψ (x) = ψ (x + 1) - 1 / x up to 10 and the asymptotic series (Bernoulli numbers) beyond */
static inline double
gnn_math_digamma (double x)
{
  double result = 0.0, z;

  if (x == 0.0)
    return copysign (INFINITY, -x);
  if (x < 0.0)
    {
      if (x == trunc (x))
        return NAN;
      return gnn_math_digamma (1.0 - x) - M_PI / tan (M_PI * x);
    }
  if (isinf (x) || isnan (x))
    return x;
  while (x < 10.0)
    {
      result -= 1.0 / x;
      x += 1.0;
    }
  z = 1.0 / (x * x);
  return result + log (x) - 0.5 / x -
         z * (1.0 / 12 - z * (1.0 / 120 - z * (1.0 / 252 - z * (1.0 / 240 - z * (1.0 / 132 -
         z * (691.0 / 32760 - z / 12))))));
}

/* the Hurwitz zeta function ζ (s, q) = Σ_k (q + k)^-s for s > 1, by Euler-Maclaurin
 * summation: the terms up to q + N ≥ 9 (and at least 9 of them), the integral of the rest,
 * and its Bernoulli corrections (divisors (2j)! / B_2j); inf at the poles q = 0, -1, -2, ... */
static inline double
gnn_math_zeta (double s, double q)
{
  static const double divisors[] = {
    12.0, -720.0, 30240.0, -1209600.0, 47900160.0, -1.8924375803183791606e9, 7.47242496e10,
    -2.950130727918164224e12, 1.1646782814350067249e14, -4.5979787224074726105e15,
    1.8152105401943546773e17, -7.1661652561756670113e18,
  };
  double sum, a, b = 0.0, w, k = 0.0;

  if (q <= 0.0 && q == floor (q))
    return INFINITY;
  sum = pow (q, -s);
  a = q;
  for (int i = 0; i < 9 || a <= 9.0; i++)
    {
      a += 1.0;
      b = pow (a, -s);
      sum += b;
      if (fabs (b / sum) < DBL_EPSILON)
        return sum;
    }
  w = a;
  sum += b * w / (s - 1.0) - 0.5 * b;
  a = 1.0;
  for (unsigned i = 0; i < sizeof divisors / sizeof divisors[0]; i++)
    {
      double t;

      a *= s + k;
      b /= w;
      t = a * b / divisors[i];
      sum += t;
      if (fabs (t / sum) < DBL_EPSILON)
        break;
      k += 1.0;
      a *= s + k;
      b /= w;
      k += 1.0;
    }
  return sum;
}

/* ψ⁽ⁿ⁾(x): the digamma function for n = 0, else (-1)^(n+1) n! ζ (n + 1, x) */
static inline double
gnn_math_polygamma (int n, double x)
{
  if (n == 0)
    return gnn_math_digamma (x);
  return (n % 2 == 1 ? 1.0 : -1.0) * exp (lgamma (n + 1.0)) * gnn_math_zeta (n + 1.0, x);
}

/* Python's a % b: fmod moved by b when the signs differ, so the result has b's sign */
static inline double
gnn_math_remainder (double a, double b)
{
  double r = fmod (a, b);

  if (r != 0.0 && ((b < 0.0) != (r < 0.0)))
    r += b;
  return r;
}

/* a / b rounded toward -inf as PyTorch's div_floor computes it: from fmod, so that the
 * quotient is exact where a / b is not (a zero divisor gives IEEE's a / b) */
static inline double
gnn_math_floor_divide (double a, double b)
{
  double mod, div, floordiv;

  if (b == 0.0)
    return a / b;
  mod = fmod (a, b);
  div = (a - mod) / b;
  if (mod != 0.0 && ((b < 0.0) != (mod < 0.0)))
    div -= 1.0;
  if (div == 0.0)
    return copysign (0.0, a / b);
  floordiv = floor (div);
  if (div - floordiv > 0.5)
    floordiv += 1.0;
  return floordiv;
}

/* x · log (y), 0 where x is 0 (whatever y is, but NaN) */
static inline double
gnn_math_xlogy (double x, double y)
{
  if (isnan (y))
    return NAN;
  if (x == 0.0)
    return 0.0;
  return x * log (y);
}

/* sin (πx) / (πx), 1 at 0 (torch.sinc, the normalized sinc) */
static inline double
gnn_math_sinc (double x)
{
  double px;

  if (x == 0.0)
    return 1.0;
  px = M_PI * x;
  return sin (px) / px;
}

/* log (e^a + e^b), from the larger: max + log1p (e^-|a - b|); a where a and b are the same
 * infinity (whose difference is NaN), as torch.logaddexp */
static inline double
gnn_math_logaddexp (double a, double b)
{
  double m;

  if (isinf (a) && a == b)
    return a;
  m = a > b ? a : b;
  if (isnan (a) || isnan (b))
    return NAN;
  return m + log1p (exp (-fabs (a - b)));
}

/* log2 (2^a + 2^b), as gnn_math_logaddexp in base 2 (torch.logaddexp2) */
static inline double
gnn_math_logaddexp2 (double a, double b)
{
  double m;

  if (isinf (a) && a == b)
    return a;
  m = a > b ? a : b;
  if (isnan (a) || isnan (b))
    return NAN;
  return m + log1p (exp2 (-fabs (a - b))) / M_LN2;
}

/* SELU's constants (Klambauer et al., "Self-Normalizing Neural Networks", 2017), as torch.selu */
#define GNN_MATH_SELU_ALPHA 1.6732632423543772848170429916717
#define GNN_MATH_SELU_SCALE 1.0507009873554804934193349852946

/* softplus (a) = log (1 + e^(βa)) / β, a itself where βa > threshold (torch.nn.functional.softplus) */
static inline double
gnn_math_softplus (double a, double beta, double threshold)
{
  return a * beta > threshold ? a : log1p (exp (a * beta)) / beta;
}

/* min (max (a + 3, 0), 6) / 6, a NaN passing through (torch.nn.functional.hardsigmoid) */
static inline double
gnn_math_hardsigmoid (double a)
{
  double t = a + 3.0;

  t = t < 0.0 ? 0.0 : t;
  t = t > 6.0 ? 6.0 : t;
  return t / 6.0;
}

/* a · hardsigmoid (a) (torch.nn.functional.hardswish) */
static inline double
gnn_math_hardswish (double a)
{
  return a * gnn_math_hardsigmoid (a);
}

/* a · tanh (softplus (a)) (torch.nn.functional.mish) */
static inline double
gnn_math_mish (double a)
{
  return a * tanh (log1p (exp (a)));
}

/* a where positive, α (e^(a/α) − 1) elsewhere (torch.nn.functional.celu) */
static inline double
gnn_math_celu (double a, double alpha)
{
  return a > 0 ? a : alpha * expm1 (a / alpha);
}

/* λ a where positive, λ α (e^a − 1) elsewhere (torch.nn.functional.selu) */
static inline double
gnn_math_selu (double a)
{
  return GNN_MATH_SELU_SCALE * (a > 0 ? a : GNN_MATH_SELU_ALPHA * expm1 (a));
}

/* log σ (a) = min (a, 0) − log (1 + e^−|a|), without overflow (torch.nn.functional.logsigmoid) */
static inline double
gnn_math_log_sigmoid (double a)
{
  return (a < 0 ? a : 0.0) - log1p (exp (-fabs (a)));
}

/* 0 on [−λ, λ], a elsewhere (torch.nn.functional.hardshrink) */
static inline double
gnn_math_hardshrink (double a, double lambd)
{
  return a >= -lambd && a <= lambd ? 0.0 : a;
}

/* a shrunk toward 0 by λ, 0 on [−λ, λ] (torch.nn.functional.softshrink; NaN gives 0 as there) */
static inline double
gnn_math_softshrink (double a, double lambd)
{
  return a > lambd ? a - lambd : a < -lambd ? a + lambd : 0.0;
}

/* value where a <= threshold, a elsewhere (torch.nn.functional.threshold) */
static inline double
gnn_math_threshold (double a, double threshold, double value)
{
  return a <= threshold ? value : a;
}
