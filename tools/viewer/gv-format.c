/* gv-format.c: how gnn-viewer writes numbers, everywhere the same
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "gv-format.h"

#include <glib/gi18n.h>
#include <locale.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MINUS "\xe2\x88\x92"            /* U+2212 MINUS SIGN */
#define NARROW_NBSP "\xe2\x80\xaf"      /* U+202F NARROW NO-BREAK SPACE */

static const char *
thousands_separator (void)
{
  const char *sep = localeconv ()->thousands_sep;

  return sep && *sep ? sep : NARROW_NBSP;
}

/* @digits (ASCII, no sign) grouped by thousands into @out */
static void
append_grouped (GString    *out,
                const char *digits)
{
  gsize len = strlen (digits);
  const char *sep = thousands_separator ();

  for (gsize i = 0; i < len; i++)
    {
      if (i > 0 && (len - i) % 3 == 0)
        g_string_append (out, sep);
      g_string_append_c (out, digits[i]);
    }
}

char *
gv_format_count (gint64 n)
{
  GString *out = g_string_new (NULL);
  char digits[32];

  if (n < 0)
    g_string_append (out, MINUS);
  /* the magnitude as unsigned: -G_MININT64 does not fit */
  g_snprintf (digits, sizeof digits, "%" G_GUINT64_FORMAT, n < 0 ? -(guint64) n : (guint64) n);
  append_grouped (out, digits);
  return g_string_free (out, FALSE);
}

/* "1234.5" (the C locale's digits) to the locale's notation, with grouping */
static void
append_fixed (GString    *out,
              const char *ascii)
{
  const char *dot = strchr (ascii, '.');
  g_autofree char *whole = dot ? g_strndup (ascii, dot - ascii) : g_strdup (ascii);
  const char *point = localeconv ()->decimal_point;

  append_grouped (out, whole);
  if (dot)
    {
      g_string_append (out, point && *point ? point : ".");
      g_string_append (out, dot + 1);
    }
}

char *
gv_format_value (double x)
{
  static const char *const superscripts[] = {
    "\xe2\x81\xb0", "\xc2\xb9", "\xc2\xb2", "\xc2\xb3", "\xe2\x81\xb4",
    "\xe2\x81\xb5", "\xe2\x81\xb6", "\xe2\x81\xb7", "\xe2\x81\xb8", "\xe2\x81\xb9",
  };
  GString *out = g_string_new (NULL);
  char buf[64];
  double mag = fabs (x);

  if (isnan (x))
    return g_string_free (g_string_append (out, "NaN"), FALSE);
  if (isinf (x))
    return g_string_free (g_string_append (out, x < 0 ? MINUS "\xe2\x88\x9e" : "\xe2\x88\x9e"), FALSE);
  if (x == 0)
    return g_string_free (g_string_append (out, "0"), FALSE);
  if (x < 0)
    g_string_append (out, MINUS);
  if (mag >= 1e-3 && mag < 99999.5)
    {
      /* 4 significant digits, trailing zeros kept so a column reads evenly */
      static const char *const formats[] = { "%.0f", "%.1f", "%.2f", "%.3f", "%.4f", "%.5f", "%.6f" };
      int exponent = (int) floor (log10 (mag));

      g_ascii_formatd (buf, sizeof buf, formats[CLAMP (3 - exponent, 0, 6)], mag);
      append_fixed (out, buf);
    }
  else
    {
      char *e;
      int exponent;
      char digits[16];

      g_ascii_formatd (buf, sizeof buf, "%.3e", mag);
      e = strchr (buf, 'e');
      *e = '\0';
      exponent = atoi (e + 1);
      append_fixed (out, buf);
      g_string_append (out, "\xc3\x97" "10");   /* × */
      if (exponent < 0)
        g_string_append (out, "\xe2\x81\xbb");  /* superscript minus */
      g_snprintf (digits, sizeof digits, "%d", ABS (exponent));
      for (const char *d = digits; *d; d++)
        g_string_append (out, superscripts[*d - '0']);
    }
  return g_string_free (out, FALSE);
}

char *
gv_format_fixed (double x,
                 int    decimals)
{
  static const char *const formats[] = { "%.0f", "%.1f", "%.2f", "%.3f", "%.4f", "%.5f", "%.6f" };
  GString *out = g_string_new (NULL);
  char buf[G_ASCII_DTOSTR_BUF_SIZE + 32];

  if (!isfinite (x))
    {
      g_string_free (out, TRUE);
      return gv_format_value (x);
    }
  g_ascii_formatd (buf, sizeof buf, formats[CLAMP (decimals, 0, 6)], fabs (x));
  /* no "−0.0" */
  if (x < 0 && strspn (buf, "0.") != strlen (buf))
    g_string_append (out, MINUS);
  append_fixed (out, buf);
  return g_string_free (out, FALSE);
}

int
gv_format_decimals_for_step (double step)
{
  if (!(step > 0) || !isfinite (step))
    return 0;
  /* a step such as 0.25 needs 2; 1e-3 * 5 needs 3 */
  for (int d = 0; d < 6; d++)
    if (fabs (step * pow (10, d) - round (step * pow (10, d))) < 1e-6 * step * pow (10, d))
      return d;
  return 6;
}

char *
gv_format_shape (const gint64 *shape,
                 guint         ndim)
{
  GString *out = g_string_new (NULL);

  if (ndim == 0)
    return g_string_free (g_string_append (out, _("scalar")), FALSE);
  for (guint i = 0; i < ndim; i++)
    g_string_append_printf (out, "%s%" G_GINT64_FORMAT, i ? " \xc3\x97 " : "", shape[i]);
  return g_string_free (out, FALSE);
}
