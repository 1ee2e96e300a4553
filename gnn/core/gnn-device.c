/* gnn-device.c: device strings, parsed
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"
#include "gnn-device-private.h"
#include "gnn-error.h"

#include <errno.h>
#include <string.h>

gboolean
gnn_device_parse (const char    *spec,
                  GnnDeviceSpec *out,
                  GError       **error)
{
  const char *colon;
  g_autofree char *type = NULL;
  int index = -1;

  g_return_val_if_fail (spec != NULL, FALSE);
  g_return_val_if_fail (out != NULL, FALSE);

  colon = strchr (spec, ':');
  type = colon ? g_strndup (spec, colon - spec) : g_strdup (spec);
  if (*type == '\0')
    goto bad;
  for (const char *p = type; *p; p++)
    if (!g_ascii_isalnum (*p) && *p != '_')
      goto bad;
  if (colon)
    {
      char *end = NULL;
      gint64 v;

      errno = 0;
      if (!g_ascii_isdigit (colon[1]))
        goto bad;
      v = g_ascii_strtoll (colon + 1, &end, 10);
      if (errno != 0 || *end != '\0' || v < 0 || v > G_MAXINT)
        goto bad;
      index = (int) v;
    }
  out->type = g_intern_string (type);
  out->index = index;
  return TRUE;

bad:
  g_set_error (error, GNN_ERROR, GNN_ERROR_DEVICE,
               "Invalid device string '%s': expected a type with an optional index, such as 'cpu' or 'cuda:1'",
               spec);
  return FALSE;
}

const char *
gnn_device_name (const char *type,
                 int         index)
{
  g_autofree char *name = NULL;

  g_return_val_if_fail (type != NULL, NULL);
  if (index < 0 || g_str_equal (type, "cpu"))
    return g_intern_string (type);
  name = g_strdup_printf ("%s:%d", type, index);
  return g_intern_string (name);
}
