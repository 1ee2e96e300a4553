/* gnn-json-scan.c: one pass over a JSON text before json-glib parses it
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * json-glib's parser recurses once per level of nesting, so a text of 100,000 nested arrays
 * overflows the stack, and it keeps the last of two members with one name without a word
 * (json-glib 1.6). Every text from a file passes this scan first. It follows the text's
 * brackets outside string literals (a name holding 200 '[' is only a name), refuses nesting
 * deeper than a bound, and collects the member names of each open object, decoded as
 * json-glib decodes them, to refuse one that comes twice.
 *
 * json-glib also takes what JSON does not have: comments (slash-star), single-quoted strings.
 * Either can hide a bracket or a quote from a scan that does not read them exactly as
 * json-glib does, so the scan refuses them: gnn writes strict JSON (RFC 8259), as the
 * safetensors format requires, and reads only that.
 */
#include "config.h"

#include <string.h>

#include "gnn-json-scan-private.h"
#include "core/gnn-error.h"

typedef struct {
  gboolean    object;
  gboolean    expect_key;   /* in an object, after '{' or ',' */
  gsize       start;        /* the byte of its bracket */
  GHashTable *keys;         /* decoded name → (its byte offset + 1), made at the first name */
} Frame;

static void
frame_clear (Frame *f)
{
  g_clear_pointer (&f->keys, g_hash_table_unref);
}

static int
hex_value (char c)
{
  if (c >= '0' && c <= '9')
    return c - '0';
  if (c >= 'a' && c <= 'f')
    return c - 'a' + 10;
  if (c >= 'A' && c <= 'F')
    return c - 'A' + 10;
  return -1;
}

/* the four hex digits at @p (of @end), or -1 */
static gint32
read_hex4 (const char *p, const char *end)
{
  gint32 v = 0;

  if (end - p < 4)
    return -1;
  for (int i = 0; i < 4; i++)
    {
      int h = hex_value (p[i]);
      if (h < 0)
        return -1;
      v = v * 16 + h;
    }
  return v;
}

/* The string literal from @p (its opening quote) to its closing quote: *@next is the byte
 * after it. When @decoded is given, the literal's value, its escapes decoded. FALSE when
 * the text ends inside it (json-glib then reports the error). */
static gboolean
scan_string (const char *p, const char *end, const char **next, GString *decoded)
{
  for (p++; p < end; p++)
    {
      if (*p == '"')
        {
          *next = p + 1;
          return TRUE;
        }
      if (*p != '\\')
        {
          if (decoded)
            g_string_append_c (decoded, *p);
          continue;
        }
      if (++p == end)
        return FALSE;
      if (decoded == NULL)
        continue;
      switch (*p)
        {
        case 'b': g_string_append_c (decoded, '\b'); break;
        case 'f': g_string_append_c (decoded, '\f'); break;
        case 'n': g_string_append_c (decoded, '\n'); break;
        case 'r': g_string_append_c (decoded, '\r'); break;
        case 't': g_string_append_c (decoded, '\t'); break;
        case 'u':
          {
            gint32 c = read_hex4 (p + 1, end);

            if (c < 0)
              {
                /* not an escape json-glib decodes: the name keeps its text */
                g_string_append (decoded, "\\u");
                break;
              }
            p += 4;
            if (c >= 0xd800 && c < 0xdc00 && end - p > 2 && p[1] == '\\' && p[2] == 'u')
              {
                gint32 low = read_hex4 (p + 3, end);

                if (low >= 0xdc00 && low < 0xe000)
                  {
                    c = 0x10000 + ((c - 0xd800) << 10) + (low - 0xdc00);
                    p += 6;
                  }
              }
            g_string_append_unichar (decoded, (gunichar) c);
            break;
          }
        default:
          /* '"', '\\', '/' and what json-glib keeps as the character itself */
          g_string_append_c (decoded, *p);
          break;
        }
    }
  return FALSE;
}

static gboolean
scan_error (GError **error, const char *what, const char *format, ...) G_GNUC_PRINTF (3, 4);

static gboolean
scan_error (GError **error, const char *what, const char *format, ...)
{
  va_list args;
  g_autofree char *msg = NULL;

  va_start (args, format);
  msg = g_strdup_vprintf (format, args);
  va_end (args);
  g_set_error (error, GNN_ERROR, GNN_ERROR_FILE_FORMAT, "%s: %s", what, msg);
  return FALSE;
}

/*
 * gnn_json_scan:
 * @text: JSON text, not necessarily NUL-terminated
 * @length: its length in bytes
 * @max_depth: the deepest nesting of arrays and objects allowed (1: one array or object)
 * @what: the start of an error's message (the file, the format)
 * @error: return location for a #GError
 *
 * Checks @text before it reaches json-glib: nesting at most @max_depth deep, no member name
 * twice in one object, no comment and no single-quoted string outside string literals.
 * Other faults (a missing comma, an unclosed bracket) are json-glib's to report: the scan
 * passes them.
 *
 * Returns: %TRUE, or %FALSE with a %GNN_ERROR_FILE_FORMAT error naming the depth or the
 *   name and the byte offset
 */
gboolean
gnn_json_scan (const char *text,
               gsize       length,
               guint       max_depth,
               const char *what,
               GError    **error)
{
  const char *p = text, *end = text + length;
  g_autoptr(GArray) stack = g_array_new (FALSE, TRUE, sizeof (Frame));
  g_autoptr(GString) key = g_string_new (NULL);

  g_array_set_clear_func (stack, (GDestroyNotify) frame_clear);
  while (p < end)
    {
      Frame *top = stack->len ? &g_array_index (stack, Frame, stack->len - 1) : NULL;

      switch (*p)
        {
        case '[':
        case '{':
          {
            Frame f = { *p == '{', *p == '{', (gsize) (p - text), NULL };

            if (stack->len >= max_depth)
              return scan_error (error, what, "nesting deeper than %u levels: the '%c' at byte %"
                                 G_GSIZE_FORMAT " opens level %u", max_depth, *p,
                                 (gsize) (p - text), stack->len + 1);
            g_array_append_val (stack, f);
            p++;
            break;
          }
        case ']':
        case '}':
          /* a bracket that closes nothing, or the wrong kind: json-glib reports it */
          if (top == NULL || top->object != (*p == '}'))
            return TRUE;
          g_array_set_size (stack, stack->len - 1);
          p++;
          break;
        case ',':
          if (top && top->object)
            top->expect_key = TRUE;
          p++;
          break;
        case ':':
          if (top && top->object)
            top->expect_key = FALSE;
          p++;
          break;
        case '"':
          {
            gboolean is_key = top && top->object && top->expect_key;
            gsize at = (gsize) (p - text);

            g_string_truncate (key, 0);
            if (!scan_string (p, end, &p, is_key ? key : NULL))
              return TRUE;
            if (is_key)
              {
                gpointer first;

                top->expect_key = FALSE;
                if (top->keys == NULL)
                  top->keys = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
                if (g_hash_table_lookup_extended (top->keys, key->str, NULL, &first))
                  {
                    char high[128];
                    g_autofree char *shown = NULL;

                    /* the name as JSON writes it, UTF-8 left as it is */
                    for (int i = 0; i < 127; i++)
                      high[i] = (char) (0x80 + i);
                    high[127] = '\0';
                    shown = g_strescape (key->str, high);

                    return scan_error (error, what, "the name \"%s\" comes twice in the object that "
                                       "starts at byte %" G_GSIZE_FORMAT ": at byte %" G_GSIZE_FORMAT
                                       " and at byte %" G_GSIZE_FORMAT " (one name, one member)",
                                       shown, top->start, GPOINTER_TO_SIZE (first) - 1, at);
                  }
                g_hash_table_insert (top->keys, g_strdup (key->str), GSIZE_TO_POINTER (at + 1));
              }
            break;
          }
        case '\'':
          return scan_error (error, what, "expected JSON, found a single-quoted string at byte %"
                             G_GSIZE_FORMAT " (JSON strings take double quotes)", (gsize) (p - text));
        case '/':
          return scan_error (error, what, "expected JSON, found '/' at byte %" G_GSIZE_FORMAT
                             " (JSON has no comments)", (gsize) (p - text));
        default:
          p++;
          break;
        }
    }
  return TRUE;
}
