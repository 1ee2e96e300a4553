/* gnn-cpu-fastmath.h: branch-free float exp, tanh and sigmoid that GCC vectorises
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * libm's expf and tanhf are calls that keep a loop scalar. These are straight-line float code
 * (selects, no branches, no tables) so that a loop over them vectorises; test-rnn's
 * /rnn/fastmath sweeps them against libm (within a few ulps where the result is a normal float;
 * below FLT_MIN an absolute error under FLT_MIN; NaN propagates; ±inf saturates).
 */
#pragma once

#include <math.h>
#include <stdint.h>
#include <string.h>

/* e^x for x in [-87.6, 88] (clamped to it; NaN becomes the low end): 2^n · p (r), x = n ln 2 + r,
 * |r| <= ln 2 / 2, p the Taylor polynomial of degree 7 (its error is under 2^-27) */
static inline float
gnn_cpu_expf_clamped (float x)
{
  const float shift = 12582912.0f;   /* 1.5 · 2^23: adding it rounds to an integer */
  float lo = x > -87.6f ? x : -87.6f;   /* NaN fails the test: no NaN reaches the int conversion */
  float xc = lo < 88.0f ? lo : 88.0f;
  float t = xc * 1.44269504088896341f + shift;
  float n = t - shift;
  float r = (xc - n * 0.693145751953125f) - n * 1.428606765330187e-06f;
  float p = 1.0f / 5040.0f;
  int32_t e;
  float scale;

  p = p * r + 1.0f / 720.0f;
  p = p * r + 1.0f / 120.0f;
  p = p * r + 1.0f / 24.0f;
  p = p * r + 1.0f / 6.0f;
  p = p * r + 0.5f;
  p = p * r + 1.0f;
  p = p * r + 1.0f;
  e = ((int32_t) n + 127) << 23;
  memcpy (&scale, &e, sizeof scale);
  return p * scale;
}

/* 1 / (1 + e^-x), as e^x / (1 + e^x) for x < 0 so that it keeps its precision down to FLT_MIN */
static inline float
gnn_cpu_sigmoidf (float x)
{
  float e = gnn_cpu_expf_clamped (-fabsf (x));
  float s = (x < 0.0f ? e : 1.0f) / (1.0f + e);

  return x != x ? x : s;
}

/* tanh: an odd Taylor polynomial below |x| = 0.55 (its error is under 2^-25 relative), else
 * 1 - 2 / (e^2|x| + 1), with the sign of x */
static inline float
gnn_cpu_tanhf (float x)
{
  float a = fabsf (x), a2 = a * a;
  float p = -0.00023912911424355248f;
  float e = gnn_cpu_expf_clamped (2.0f * a);
  float big = 1.0f - 2.0f / (e + 1.0f);
  float r;

  p = p * a2 + 0.000590027440945586f;
  p = p * a2 - 0.0014558343870513183f;
  p = p * a2 + 0.003592128036572481f;
  p = p * a2 - 0.008863235529902197f;
  p = p * a2 + 0.021869488536155203f;
  p = p * a2 - 0.05396825396825397f;
  p = p * a2 + 0.13333333333333333f;
  p = p * a2 - 0.3333333333333333f;
  p = a + a * (a2 * p);
  r = copysignf (a < 0.55f ? p : big, x);
  return x != x ? x : r;
}
