/* test-viewer-format.c: gnn-viewer's number formats (tools/viewer/gv-format.c)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <glib.h>
#include <locale.h>
#include <math.h>

#include "gv-format.h"

#define NNBSP "\xe2\x80\xaf"
#define MINUS "\xe2\x88\x92"

static void
check (char       *got,
       const char *want)
{
  g_assert_cmpstr (got, ==, want);
  g_free (got);
}

/* in the C locale (no grouping of its own): narrow no-break spaces between thousands */
static void
test_count (void)
{
  check (gv_format_count (0), "0");
  check (gv_format_count (999), "999");
  check (gv_format_count (1000), "1" NNBSP "000");
  check (gv_format_count (421834), "421" NNBSP "834");
  check (gv_format_count (-1234567), MINUS "1" NNBSP "234" NNBSP "567");
  check (gv_format_count (G_MININT64), MINUS "9" NNBSP "223" NNBSP "372" NNBSP "036" NNBSP "854"
                                       NNBSP "775" NNBSP "808");
}

/* four significant digits, fixed point in [0.001, 99 999], a power of ten beyond */
static void
test_value (void)
{
  check (gv_format_value (0), "0");
  check (gv_format_value (0.28601), "0.2860");
  check (gv_format_value (-12.3449), MINUS "12.34");
  check (gv_format_value (2.302585), "2.303");
  check (gv_format_value (1234.4), "1" NNBSP "234");
  check (gv_format_value (0.001), "0.001000");
  check (gv_format_value (1.234e-5), "1.234\xc3\x97" "10\xe2\x81\xbb\xe2\x81\xb5");
  check (gv_format_value (-6.02e23), MINUS "6.020\xc3\x97" "10\xc2\xb2\xc2\xb3");
  check (gv_format_value (NAN), "NaN");
  check (gv_format_value (-INFINITY), MINUS "\xe2\x88\x9e");
}

static void
test_shape (void)
{
  const gint64 shape[] = { 32, 1, 3, 3 };

  check (gv_format_shape (shape, 4), "32 \xc3\x97 1 \xc3\x97 3 \xc3\x97 3");
  check (gv_format_shape (shape, 1), "32");
}

int
main (int    argc,
      char **argv)
{
  setlocale (LC_ALL, "C");
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/viewer/format/count", test_count);
  g_test_add_func ("/viewer/format/value", test_value);
  g_test_add_func ("/viewer/format/shape", test_shape);
  return g_test_run ();
}
