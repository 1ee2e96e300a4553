/* gnn-device.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"
#include "gnn-device.h"
#include "gnn-error.h"

#include <stdlib.h>
#include <errno.h>

/**
 * GnnDevice:
 *
 * A device: a type ("cpu", "cuda") and an optional index, as `torch.device`.
 *
 * Devices are immutable and reference counted. Parse one from a string with
 * [ctor@Gnn.Device.new_parse] ("cpu", "cuda", "cuda:1").
 */
struct _GnnDevice
{
  gatomicrefcount ref_count;
  char *type;
  int index;
};

G_DEFINE_BOXED_TYPE (GnnDevice, gnn_device, gnn_device_ref, gnn_device_unref)

/**
 * gnn_device_new:
 * @type: the device type, such as "cpu" or "cuda"
 * @index: the device index, or -1 for none (the current device of that type)
 *
 * Creates a device value. The type is not checked against the available backends:
 * that happens when a tensor is placed on it.
 *
 * Returns: (transfer full): a new device
 *
 * MT safe.
 */
GnnDevice *
gnn_device_new (const char *type,
                int         index)
{
  GnnDevice *self;

  g_return_val_if_fail (type != NULL && *type != '\0', NULL);
  g_return_val_if_fail (index >= -1, NULL);

  self = g_new0 (GnnDevice, 1);
  g_atomic_ref_count_init (&self->ref_count);
  self->type = g_strdup (type);
  self->index = index;
  return self;
}

/**
 * gnn_device_new_parse:
 * @spec: a device string such as "cpu", "cuda" or "cuda:1"
 * @error: return location for a #GError
 *
 * Parses a device string as `torch.device (spec)` does.
 *
 * Returns: (transfer full) (nullable): a new device, or %NULL with @error set
 *
 * MT safe.
 */
GnnDevice *
gnn_device_new_parse (const char *spec,
                      GError    **error)
{
  const char *colon;
  g_autofree char *type = NULL;
  int index = -1;

  g_return_val_if_fail (spec != NULL, NULL);

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
  return gnn_device_new (type, index);

bad:
  g_set_error (error, GNN_ERROR, GNN_ERROR_DEVICE,
               "Invalid device string '%s': expected a type with an optional index, such as 'cpu' or 'cuda:1'",
               spec);
  return NULL;
}

/**
 * gnn_device_ref:
 * @self: a device
 *
 * Takes a reference on @self.
 *
 * Returns: (transfer full): @self with one more reference
 *
 * MT safe.
 */
GnnDevice *
gnn_device_ref (GnnDevice *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_atomic_ref_count_inc (&self->ref_count);
  return self;
}

/**
 * gnn_device_unref:
 * @self: (transfer full): a device
 *
 * Drops a reference, freeing the device when it was the last.
 *
 * MT safe.
 */
void
gnn_device_unref (GnnDevice *self)
{
  g_return_if_fail (self != NULL);
  if (g_atomic_ref_count_dec (&self->ref_count))
    {
      g_free (self->type);
      g_free (self);
    }
}

/**
 * gnn_device_get_device_type:
 * @self: a device
 *
 * Returns the device type, such as "cpu" (`torch.device.type`).
 *
 * Returns: the device type, such as "cpu" (`torch.device.type`)
 *
 * MT safe.
 */
const char *
gnn_device_get_device_type (const GnnDevice *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->type;
}

/**
 * gnn_device_get_index:
 * @self: a device
 *
 * Returns the device index, or -1 when none was given (`torch.device.index` is None).
 *
 * Returns: the device index, or -1 when none was given (`torch.device.index` is None)
 *
 * MT safe.
 */
int
gnn_device_get_index (const GnnDevice *self)
{
  g_return_val_if_fail (self != NULL, -1);
  return self->index;
}

/**
 * gnn_device_to_string:
 * @self: a device
 *
 * Formats the device as PyTorch prints it, "cpu" or "cuda:1".
 *
 * Returns: (transfer full): the device as PyTorch prints it, "cpu" or "cuda:1"
 *
 * MT safe.
 */
char *
gnn_device_to_string (const GnnDevice *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  if (self->index < 0)
    return g_strdup (self->type);
  return g_strdup_printf ("%s:%d", self->type, self->index);
}

/**
 * gnn_device_equal:
 * @a: a device
 * @b: another device
 *
 * Devices are equal when type and index are, where no index on a "cpu" device equals index 0.
 *
 * Returns: whether @a and @b name the same device
 *
 * MT safe.
 */
gboolean
gnn_device_equal (const GnnDevice *a,
                  const GnnDevice *b)
{
  g_return_val_if_fail (a != NULL && b != NULL, FALSE);
  return g_str_equal (a->type, b->type) && MAX (a->index, 0) == MAX (b->index, 0);
}
