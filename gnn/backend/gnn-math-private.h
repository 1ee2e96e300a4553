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

/* the functions that the CUDA kernels share are device functions there too */
#ifdef __CUDACC__
#define GNN_MATH_FN static inline __host__ __device__
#else
#define GNN_MATH_FN static inline
#endif

/* the inverse of erf: an initial estimate from M. Giles' single-precision approximation
 * ("Approximating the erfinv function", 2010), then two Newton steps on erf, whose
 * convergence is quadratic (torch.erfinv, and nn.init.trunc_normal_'s draws) */
GNN_MATH_FN double
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

/* ζ (s, q) over the domain torch.special.zeta gives it: inf at s = 1 and at the poles
 * q = 0, −1, −2, ...; NaN for s < 1, and for q < 0 with s not an integer (q^−s is not real) */
static inline double
gnn_math_hurwitz_zeta (double s, double q)
{
  if (isnan (s) || isnan (q))
    return NAN;
  if (s == 1.0)
    return INFINITY;
  if (s < 1.0)
    return NAN;
  if (q <= 0.0 && q != floor (q) && s != floor (s))
    return NAN;
  return gnn_math_zeta (s, q);
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

/* ---- the special functions of torch.special ----
 *
 * These are also device functions in the CUDA backend's kernels (gnn-cuda-kernels-elementwise.cu),
 * which compute them in double as the CPU does, so that both backends give the same values. */

/* e^-x I_ν(x) for x ≥ 0 and ν 0 or 1: the power series Σ (x/2)^(2k+ν) / (k! (k+ν)!) up to 30,
 * whose terms are all positive; above, Hankel's asymptotic expansion
 * 1/√(2πx) Σ (−1)^k a_k(ν) / x^k, a_k = Π_{j ≤ k} (4ν² − (2j−1)²) / (8j), summed while its
 * terms shrink (at x > 30 the smallest is below 1e-25) */
GNN_MATH_FN double
gnn_math_bessel_ie (int nu, double x)
{
  double term, sum;

  if (isnan (x))
    return x;
  if (x <= 30.0)
    {
      double q = x * x / 4.0;

      term = nu == 0 ? 1.0 : x / 2.0;
      sum = term;
      for (int k = 1; k < 500 && term > sum * 1e-17; k++)
        {
          term *= q / ((double) k * (double) (k + nu));
          sum += term;
        }
      return sum * exp (-x);
    }
  term = sum = 1.0;
  for (int k = 1; k < 100; k++)
    {
      double odd = 2.0 * k - 1.0, next = term * -(4.0 * nu * nu - odd * odd) / (8.0 * k * x);

      if (fabs (next) >= fabs (term) || fabs (next) < 1e-17 * fabs (sum))
        break;
      term = next;
      sum += term;
    }
  return sum / sqrt (2.0 * M_PI * x);
}

/* the modified Bessel function of the first kind of order 0 (torch.i0); even */
GNN_MATH_FN double
gnn_math_i0 (double x)
{
  return gnn_math_bessel_ie (0, fabs (x)) * exp (fabs (x));
}

/* e^-|x| I₀(x), which does not overflow (torch.special.i0e) */
GNN_MATH_FN double
gnn_math_i0e (double x)
{
  return gnn_math_bessel_ie (0, fabs (x));
}

/* the modified Bessel function of the first kind of order 1 (torch.special.i1); odd */
GNN_MATH_FN double
gnn_math_i1 (double x)
{
  return copysign (gnn_math_bessel_ie (1, fabs (x)) * exp (fabs (x)), x);
}

/* e^-|x| I₁(x) (torch.special.i1e) */
GNN_MATH_FN double
gnn_math_i1e (double x)
{
  return copysign (gnn_math_bessel_ie (1, fabs (x)), x);
}

/* e^(x²) erfc (x), the scaled complementary error function (torch.special.erfcx): below 25
 * directly, x² split into a double and its rounding error (fma) so that e^(x²) keeps double
 * accuracy; above, the asymptotic series 1/(x√π) Σ (−1)^k (2k−1)!! / (2x²)^k (its 12th term is
 * below 1e-24 there); for x < 0, 2e^(x²) − erfcx (−x), which overflows below −26.6 as it should */
GNN_MATH_FN double
gnn_math_erfcx (double x)
{
  double hi, lo;

  if (isnan (x))
    return x;
  if (x < 0.0)
    {
      hi = x * x;
      lo = fma (x, x, -hi);
      return 2.0 * exp (hi) * (1.0 + lo) - gnn_math_erfcx (-x);
    }
  if (x < 25.0)
    {
      hi = x * x;
      lo = fma (x, x, -hi);
      return exp (hi) * (1.0 + lo) * erfc (x);
    }
  else
    {
      double r = 1.0 / (2.0 * x * x), t = 1.0, s = 1.0;

      for (int k = 1; k < 12; k++)
        {
          t *= -(2.0 * k - 1.0) * r;
          s += t;
        }
      return s / (x * sqrt (M_PI));
    }
}

/* log of the standard normal CDF (torch.special.log_ndtr), as PyTorch writes it: below −1
 * log (erfcx (−x/√2) / 2) − x²/2, which keeps the far tail finite; above, log1p (−erfc (x/√2) / 2) */
GNN_MATH_FN double
gnn_math_log_ndtr (double x)
{
  double t = x * M_SQRT1_2;

  if (x < -1.0)
    return log (gnn_math_erfcx (-t) / 2.0) - t * t;
  return log1p (-erfc (t) / 2.0);
}

/* the inverse of the standard normal CDF (torch.special.ndtri): −∞ at 0, ∞ at 1, NaN outside
 * [0, 1]; odd about 1/2 (1 − p is exact there). Above 10⁻³ it is −√2 erfinv (1 − 2p); below, a
 * tail estimate (x² ≈ L − log L − log 2π, L = −2 log p) refined by Newton steps on
 * log Φ(x) = log p, whose steps keep their relative accuracy however small p is */
GNN_MATH_FN double
gnn_math_ndtri (double p)
{
  double x, logp, l;

  if (isnan (p) || p < 0.0 || p > 1.0)
    return NAN;
  if (p == 0.0)
    return -INFINITY;
  if (p == 1.0)
    return INFINITY;
  if (p == 0.5)
    return 0.0;
  if (p > 0.5)
    return -gnn_math_ndtri (1.0 - p);
  if (p >= 1e-3)
    return -M_SQRT2 * gnn_math_erfinv (1.0 - 2.0 * p);
  logp = log (p);
  l = -2.0 * logp;
  x = -sqrt (l - log (l) - log (2.0 * M_PI));
  for (int i = 0; i < 20; i++)
    {
      double lp = gnn_math_log_ndtr (x);
      /* (log Φ(x) − log p) Φ(x) / φ(x) */
      double step = (lp - logp) * exp (lp + 0.5 * x * x) * sqrt (2.0 * M_PI);

      x -= step;
      if (fabs (step) <= 1e-16 * fabs (x))
        break;
    }
  return x;
}

/* −x log x for x > 0, 0 at 0, −∞ below (torch.special.entr) */
GNN_MATH_FN double
gnn_math_entr (double x)
{
  if (isnan (x))
    return x;
  if (x > 0.0)
    return -x * log (x);
  return x == 0.0 ? 0.0 : -INFINITY;
}

/* x · log (1 + y), 0 where x is 0 (whatever y is, but NaN), as gnn_math_xlogy
 * (torch.special.xlog1py) */
GNN_MATH_FN double
gnn_math_xlog1py (double x, double y)
{
  if (isnan (y))
    return NAN;
  if (x == 0.0)
    return 0.0;
  return x * log1p (y);
}
