/* gnn-int-math-private.h: the integer functions of the bitwise and integer ops (bitwise shifts,
 * gcd, lcm), shared by the CPU and reference backends so that both give PyTorch's values
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* a << b as PyTorch's CPU kernel: 0 for a shift that is negative or not under the width */
static inline gint64
gnn_int_left_shift (gint64 a, gint64 b)
{
  return (b < 0 || b >= 64) ? 0 : (gint64) ((guint64) a << b);
}

/* a >> b, arithmetic, as PyTorch's CPU kernel: the sign (0 or -1) for a shift that is negative
 * or not under the width */
static inline gint64
gnn_int_right_shift (gint64 a, gint64 b)
{
  return (b < 0 || b >= 64) ? (a < 0 ? -1 : 0) : a >> b;
}

/* the greatest common divisor of |a| and |b| (Euclid), 0 for gcd (0, 0) */
static inline gint64
gnn_int_gcd (gint64 a, gint64 b)
{
  guint64 x = a < 0 ? 0 - (guint64) a : (guint64) a, y = b < 0 ? 0 - (guint64) b : (guint64) b;

  while (x != 0)
    {
      guint64 t = x;
      x = y % x;
      y = t;
    }
  return (gint64) y;
}

/* |a / gcd (a, b) · b|, 0 where a or b is 0 (as PyTorch, wrapping on overflow) */
static inline gint64
gnn_int_lcm (gint64 a, gint64 b)
{
  gint64 g = gnn_int_gcd (a, b), r;

  if (g == 0)
    return 0;
  r = (gint64) ((guint64) (a / g) * (guint64) b);
  return r < 0 ? (gint64) (0 - (guint64) r) : r;
}

G_END_DECLS
