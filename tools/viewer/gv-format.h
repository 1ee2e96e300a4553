/* gv-format.h: how gnn-viewer writes numbers, everywhere the same
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* A count with its digits grouped by thousands: the locale's separator, or where the locale
 * has none (C, POSIX) a narrow no-break space, as SI writes it ("421 834"). */
char *gv_format_count (gint64 n);

/* A real number with 4 significant digits in the locale's decimal notation: fixed point from
 * 0.001 to 99,999 ("0.2861", "-12.34", "1 234"), a power of ten beyond ("1.234×10⁻⁵"); "0"
 * for zero, "NaN", "∞" and "−∞" as themselves. The minus sign is U+2212. */
char *gv_format_value (double x);

/* @x with @decimals digits after the decimal sign (the locale's) and its whole part grouped
 * as gv_format_count does: axis ticks, where every label has the same number of decimals. */
char *gv_format_fixed (double x,
                       int    decimals);

/* The decimals that ticks @step apart need ("0.5" for 0.5, "2" for 2). */
int   gv_format_decimals_for_step (double step);

/* A shape as "32 × 1 × 3 × 3" ("scalar" for 0 dimensions). */
char *gv_format_shape (const gint64 *shape,
                       guint         ndim);

G_END_DECLS
