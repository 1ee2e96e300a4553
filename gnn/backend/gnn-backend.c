/* gnn-backend.c: the GnnBackend interface and the backend registry
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <gio/gio.h>
#include <gmodule.h>
#include <stdio.h>
#include <string.h>

#include "gnn-backend-private.h"

/**
 * GnnBackend:
 *
 * A compute backend: it owns the memory of the tensors on its devices and runs their
 * kernels.
 *
 * Backends implement the GIO extension point %GNN_BACKEND_EXTENSION_POINT_NAME. The CPU
 * backend is built in; others are loadable modules found in gnn's backend folder
 * (`$libdir/gnn-1.0/backends`) and in the folders listed in `GNN_BACKEND_PATH`. Each serves a
 * device type ("cpu", "cuda"); when several serve one, the highest priority wins unless the
 * environment variable `GNN_BACKEND` names another. `GNN_BACKEND=help` prints the backends
 * found, and why any module failed to load, to standard error.
 *
 * Kernels are dispatched by [enum@Gnn.BackendOp]; a backend says which it runs with
 * [method@Gnn.Backend.supports_op]. How to write one is in `gnn/gnn-backend-impl.h`.
 */

G_DEFINE_INTERFACE (GnnBackend, gnn_backend, G_TYPE_OBJECT)

/* the op table's answer, for a backend that runs every kernel it promises and no other */
static gboolean
gnn_backend_real_supports_op (GnnBackend  *self,
                              GnnBackendOp op,
                              GnnDtype     dtype)
{
  return gnn_backend_op_supported_with (op, dtype, NULL, 0);
}

static void
gnn_backend_default_init (GnnBackendInterface *iface)
{
  iface->supports_op = gnn_backend_real_supports_op;
}

/**
 * gnn_backend_get_name:
 * @self: a backend
 *
 * Returns the backend's name, such as "cpu", "reference" or "cuda".
 *
 * Returns: the backend's name, such as "cpu", "reference" or "cuda"
 */
const char *
gnn_backend_get_name (GnnBackend *self)
{
  g_return_val_if_fail (GNN_IS_BACKEND (self), NULL);
  return GNN_BACKEND_GET_IFACE (self)->get_name (self);
}

/**
 * gnn_backend_get_device_type:
 * @self: a backend
 *
 * Returns the device type the backend serves, such as "cpu" or "cuda".
 *
 * Returns: the device type the backend serves, such as "cpu" or "cuda"
 */
const char *
gnn_backend_get_device_type (GnnBackend *self)
{
  g_return_val_if_fail (GNN_IS_BACKEND (self), NULL);
  return GNN_BACKEND_GET_IFACE (self)->get_device_type (self);
}

/**
 * gnn_backend_get_device_count:
 * @self: a backend
 *
 * Returns how many devices the backend sees (0 when, say, no GPU is present).
 *
 * Returns: how many devices the backend sees (0 when, say, no GPU is present)
 */
guint
gnn_backend_get_device_count (GnnBackend *self)
{
  g_return_val_if_fail (GNN_IS_BACKEND (self), 0);
  return GNN_BACKEND_GET_IFACE (self)->get_device_count (self);
}

/**
 * gnn_backend_get_device_description:
 * @self: a backend
 * @index: a device index
 *
 * Returns a description of the device, or %NULL for an index past the device count.
 *
 * Returns: (transfer full) (nullable): a description of the device, or %NULL for an index
 *   past the device count
 */
char *
gnn_backend_get_device_description (GnnBackend *self,
                                    guint       index)
{
  g_return_val_if_fail (GNN_IS_BACKEND (self), NULL);
  if (index >= gnn_backend_get_device_count (self))
    return NULL;
  return GNN_BACKEND_GET_IFACE (self)->get_device_description (self, index);
}

/**
 * gnn_backend_get_memory_info:
 * @self: a backend
 * @index: a device index
 * @free_bytes: (out): the free memory
 * @total_bytes: (out): the total memory
 * @error: return location for a #GError
 *
 * Reads the free and total memory of the device at @index.
 *
 * Returns: %TRUE when the memory figures were read
 */
gboolean
gnn_backend_get_memory_info (GnnBackend *self,
                             guint       index,
                             guint64    *free_bytes,
                             guint64    *total_bytes,
                             GError    **error)
{
  guint64 f = 0, t = 0;

  g_return_val_if_fail (GNN_IS_BACKEND (self), FALSE);
  if (index >= gnn_backend_get_device_count (self))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_DEVICE,
                   "%s: no device %u (the backend sees %u)", gnn_backend_get_name (self), index,
                   gnn_backend_get_device_count (self));
      return FALSE;
    }
  if (!GNN_BACKEND_GET_IFACE (self)->get_memory_info (self, index, &f, &t, error))
    return FALSE;
  if (free_bytes)
    *free_bytes = f;
  if (total_bytes)
    *total_bytes = t;
  return TRUE;
}

/**
 * gnn_backend_supports_op:
 * @self: a backend
 * @op: a kernel
 * @dtype: the compute dtype
 *
 * Checks whether the backend runs @op on @dtype. Every backend runs the dtypes gnn's op table
 * promises for an op (`gnn/backend/gnn-backend-ops.def`) unless it declares a departure, and
 * may run more.
 *
 * Returns: whether the backend runs @op on @dtype
 */
gboolean
gnn_backend_supports_op (GnnBackend  *self,
                         GnnBackendOp op,
                         GnnDtype     dtype)
{
  g_return_val_if_fail (GNN_IS_BACKEND (self), FALSE);
  return GNN_BACKEND_GET_IFACE (self)->supports_op (self, op, dtype);
}

/**
 * gnn_backend_synchronize:
 * @self: a backend
 * @index: a device index
 * @error: return location for a #GError
 *
 * Waits until the work queued on the device is done (`torch.cuda.synchronize`).
 *
 * Returns: %TRUE on success
 */
gboolean
gnn_backend_synchronize (GnnBackend *self,
                         guint       index,
                         GError    **error)
{
  g_return_val_if_fail (GNN_IS_BACKEND (self), FALSE);
  return GNN_BACKEND_GET_IFACE (self)->synchronize (self, index, error);
}

/* ---- the registry ------------------------------------------------------------------- */

static GMutex registry_lock;
static GPtrArray *entries;         /* GnnBackendEntry, in extension priority order */
static GPtrArray *load_failures;   /* char*: why a module did not load */
static GnnBackendEntry *default_cpu;
static GHashTable *loaded_paths;

static GIOExtensionPoint *
extension_point (void)
{
  static gsize ep;

  if (g_once_init_enter (&ep))
    {
      GIOExtensionPoint *p = g_io_extension_point_register (GNN_BACKEND_EXTENSION_POINT_NAME);
      g_io_extension_point_set_required_type (p, GNN_TYPE_BACKEND);
      g_io_extension_point_implement (GNN_BACKEND_EXTENSION_POINT_NAME, gnn_cpu_backend_get_type (),
                                      "cpu", 0);
      g_once_init_leave (&ep, (gsize) p);
    }
  return (GIOExtensionPoint *) ep;
}

static void
note_failure (const char *fmt, ...) G_GNUC_PRINTF (1, 2);

static void
note_failure (const char *fmt, ...)
{
  va_list ap;

  va_start (ap, fmt);
  g_ptr_array_add (load_failures, g_strdup_vprintf (fmt, ap));
  va_end (ap);
}

/* registry_lock held */
static void
load_module (const char *path)
{
  GModule *module;
  gpointer version_sym = NULL, register_sym = NULL;
  guint version;

  if (g_hash_table_contains (loaded_paths, path))
    return;
  g_hash_table_add (loaded_paths, g_strdup (path));
  module = g_module_open (path, G_MODULE_BIND_LAZY | G_MODULE_BIND_LOCAL);
  if (module == NULL)
    {
      note_failure ("%s: %s", path, g_module_error ());
      return;
    }
  if (!g_module_symbol (module, "gnn_backend_module_api_version", &version_sym) ||
      !g_module_symbol (module, "gnn_backend_module_register", &register_sym))
    {
      note_failure ("%s: not a gnn backend module (it lacks gnn_backend_module_api_version or "
                    "gnn_backend_module_register)", path);
      g_module_close (module);
      return;
    }
  version = *(const guint *) version_sym;
  if (version != GNN_BACKEND_API_VERSION)
    {
      note_failure ("%s: built for backend API version %u, this libgnn has version %u",
                    path, version, GNN_BACKEND_API_VERSION);
      g_module_close (module);
      return;
    }
  g_module_make_resident (module);
  ((GnnBackendModuleRegisterFunc) register_sym) ();
}

/* registry_lock held */
static void
scan_directory (const char *dir)
{
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  const char *name;

  if (d == NULL)
    return;
  while ((name = g_dir_read_name (d)))
    if (g_str_has_suffix (name, "." G_MODULE_SUFFIX))
      g_ptr_array_add (names, g_strdup (name));
  g_ptr_array_sort (names, (GCompareFunc) g_strcmp0);
  /* sorting pointers to strings */
  for (guint i = 0; i < names->len; i++)
    {
      g_autofree char *path = g_build_filename (dir, names->pdata[i], NULL);
      load_module (path);
    }
}

static void
entry_free (gpointer data)
{
  GnnBackendEntry *e = data;
  g_object_unref (e->backend);
  g_free (e->name);
  g_free (e->device_type);
  g_free (e);
}

/* registry_lock held: (re)builds entries for extensions not yet instantiated */
static void
sync_entries (void)
{
  GList *exts = g_io_extension_point_get_extensions (extension_point ());

  for (GList *l = exts; l; l = l->next)
    {
      GIOExtension *ext = l->data;
      const char *name = g_io_extension_get_name (ext);
      gboolean have = FALSE;
      GnnBackendEntry *e;
      GnnBackend *backend;

      for (guint i = 0; i < entries->len && !have; i++)
        have = g_str_equal (((GnnBackendEntry *) entries->pdata[i])->name, name);
      if (have)
        continue;
      backend = g_object_new (g_io_extension_get_type (ext), NULL);
      e = g_new0 (GnnBackendEntry, 1);
      e->backend = backend;
      e->funcs = GNN_BACKEND_GET_IFACE (backend)->get_funcs (backend);
      e->name = g_strdup (name);
      e->device_type = g_strdup (gnn_backend_get_device_type (backend));
      g_ptr_array_add (entries, e);
    }
  /* keep extension (priority) order */
  {
    g_autoptr(GPtrArray) sorted = g_ptr_array_new ();
    for (GList *l = exts; l; l = l->next)
      for (guint i = 0; i < entries->len; i++)
        if (g_str_equal (((GnnBackendEntry *) entries->pdata[i])->name, g_io_extension_get_name (l->data)))
          g_ptr_array_add (sorted, entries->pdata[i]);
    for (guint i = 0; i < sorted->len; i++)
      entries->pdata[i] = sorted->pdata[i];
  }
}

static char *failures_text (void);

static void
ensure_registry (void)
{
  static gsize done;

  if (!g_once_init_enter (&done))
    return;

  g_mutex_lock (&registry_lock);
  entries = g_ptr_array_new_with_free_func (entry_free);
  load_failures = g_ptr_array_new_with_free_func (g_free);
  loaded_paths = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  extension_point ();
  {
    const char *path = g_getenv ("GNN_BACKEND_PATH");
    if (path)
      {
        g_auto(GStrv) dirs = g_strsplit (path, G_SEARCHPATH_SEPARATOR_S, -1);
        for (guint i = 0; dirs[i]; i++)
          if (*dirs[i])
            scan_directory (dirs[i]);
      }
    scan_directory (GNN_BACKEND_DIR);
  }
  sync_entries ();
  g_mutex_unlock (&registry_lock);
  g_once_init_leave (&done, 1);

  {
    const char *wanted = g_getenv ("GNN_BACKEND");
    if (g_strcmp0 (wanted, "help") == 0)
      {
        g_autofree char *text = gnn_backend_describe_available ();
        fputs (text, stderr);
      }
    else if (wanted && *wanted)
      {
        g_autoptr(GError) error = NULL;
        if (gnn_backend_get_by_name (wanted, &error) == NULL)
          {
            g_autofree char *why = failures_text ();
            g_printerr ("gnn: GNN_BACKEND=%s names no available backend; using the defaults%s%s\n",
                        wanted, *why ? ". Modules that failed to load:" : "", why);
          }
      }
  }
}

/* The entry serving @device_type: GNN_BACKEND's choice if it serves that type, else the
 * first (highest priority). */
static GnnBackendEntry *
entry_for_type (const char *device_type)
{
  const char *wanted = g_getenv ("GNN_BACKEND");
  GnnBackendEntry *found = NULL;

  ensure_registry ();
  g_mutex_lock (&registry_lock);
  for (guint i = 0; i < entries->len; i++)
    {
      GnnBackendEntry *e = entries->pdata[i];
      if (!g_str_equal (e->device_type, device_type))
        continue;
      if (wanted && g_str_equal (wanted, e->name))
        {
          found = e;
          break;
        }
      if (found == NULL)
        found = e;
    }
  g_mutex_unlock (&registry_lock);
  return found;
}

GnnBackendEntry *
gnn_backend_entry_default_cpu (void)
{
  static gsize cached;

  if (g_once_init_enter (&cached))
    {
      default_cpu = entry_for_type ("cpu");
      g_once_init_leave (&cached, 1);
    }
  return default_cpu;
}

GnnBackendEntry *
gnn_backend_entry_lookup (GnnBackend *backend)
{
  GnnBackendEntry *found = NULL;

  ensure_registry ();
  g_mutex_lock (&registry_lock);
  for (guint i = 0; i < entries->len && !found; i++)
    if (((GnnBackendEntry *) entries->pdata[i])->backend == backend)
      found = entries->pdata[i];
  g_mutex_unlock (&registry_lock);
  return found;
}

static char *
failures_text (void)
{
  GString *s = g_string_new (NULL);

  g_mutex_lock (&registry_lock);
  for (guint i = 0; i < load_failures->len; i++)
    g_string_append_printf (s, "\n  %s", (char *) load_failures->pdata[i]);
  g_mutex_unlock (&registry_lock);
  return g_string_free (s, FALSE);
}

/* Why a backend sees no device: its "status" string property (the CUDA backend has one),
 * or NULL when it has none or it is empty */
static char *
backend_status (GnnBackend *backend)
{
  GParamSpec *pspec = g_object_class_find_property (G_OBJECT_GET_CLASS (backend), "status");
  char *status = NULL;

  if (pspec == NULL || pspec->value_type != G_TYPE_STRING)
    return NULL;
  g_object_get (backend, "status", &status, NULL);
  if (status && *status == '\0')
    g_clear_pointer (&status, g_free);
  return status;
}

GnnBackendEntry *
gnn_backend_entry_for_device (const GnnDeviceSpec *device,
                              guint               *out_index,
                              GError             **error)
{
  const char *type = device->type;
  int index = MAX (device->index, 0);
  GnnBackendEntry *e;
  guint count;

  if (g_str_equal (type, "cpu") && index == 0)
    {
      *out_index = 0;
      return gnn_backend_entry_default_cpu ();
    }
  e = entry_for_type (type);
  if (e == NULL)
    {
      g_autofree char *why = failures_text ();
      g_set_error (error, GNN_ERROR, GNN_ERROR_DEVICE,
                   "No backend serves device type '%s'%s%s", type,
                   *why ? "; modules that failed to load:" : " (no backend module for it was found)",
                   why);
      return NULL;
    }
  count = gnn_backend_get_device_count (e->backend);
  if ((guint) index >= count)
    {
      g_autofree char *status = count == 0 ? backend_status (e->backend) : NULL;
      g_set_error (error, GNN_ERROR, GNN_ERROR_DEVICE,
                   "Device %s:%d is not available: the %s backend sees %u device%s%s%s",
                   type, index, e->name, count, count == 1 ? "" : "s", status ? ": " : "",
                   status ? status : "");
      return NULL;
    }
  *out_index = (guint) index;
  return e;
}

/**
 * gnn_backend_get_for_device_type:
 * @device_type: a device type, such as "cpu" or "cuda"
 * @error: return location for a #GError
 *
 * Returns the backend that serves @device_type.
 *
 * Returns: (transfer none): the backend that serves @device_type, or %NULL with @error set
 *
 * MT safe.
 */
GnnBackend *
gnn_backend_get_for_device_type (const char *device_type,
                                 GError    **error)
{
  GnnBackendEntry *e;

  g_return_val_if_fail (device_type != NULL, NULL);
  e = g_str_equal (device_type, "cpu") ? gnn_backend_entry_default_cpu () : entry_for_type (device_type);
  if (e == NULL)
    {
      g_autofree char *why = failures_text ();
      g_set_error (error, GNN_ERROR, GNN_ERROR_DEVICE, "No backend serves device type '%s'%s%s",
                   device_type, *why ? "; modules that failed to load:" : "", why);
      return NULL;
    }
  return e->backend;
}

/**
 * gnn_backend_get_by_name:
 * @name: a backend name, such as "cpu" or "reference"
 * @error: return location for a #GError
 *
 * Returns the backend called @name.
 *
 * Returns: (transfer none): the backend called @name, or %NULL with @error set
 *
 * MT safe.
 */
GnnBackend *
gnn_backend_get_by_name (const char *name,
                         GError    **error)
{
  GnnBackend *found = NULL;

  g_return_val_if_fail (name != NULL, NULL);
  ensure_registry ();
  g_mutex_lock (&registry_lock);
  for (guint i = 0; i < entries->len && !found; i++)
    if (g_str_equal (((GnnBackendEntry *) entries->pdata[i])->name, name))
      found = ((GnnBackendEntry *) entries->pdata[i])->backend;
  g_mutex_unlock (&registry_lock);
  if (found == NULL)
    g_set_error (error, GNN_ERROR, GNN_ERROR_BACKEND, "No backend called '%s'", name);
  return found;
}

/**
 * gnn_backend_list_names:
 *
 * Returns the names of the available backends, in priority order.
 *
 * Returns: (transfer full) (array zero-terminated=1): the names of the available backends,
 *   in priority order
 *
 * MT safe.
 */
char **
gnn_backend_list_names (void)
{
  GStrvBuilder *b = g_strv_builder_new ();
  char **out;

  ensure_registry ();
  g_mutex_lock (&registry_lock);
  for (guint i = 0; i < entries->len; i++)
    g_strv_builder_add (b, ((GnnBackendEntry *) entries->pdata[i])->name);
  g_mutex_unlock (&registry_lock);
  out = g_strv_builder_end (b);
  g_strv_builder_unref (b);
  return out;
}

/**
 * gnn_backend_describe_available:
 *
 * The text `GNN_BACKEND=help` prints: every backend with its device type and devices, which
 * one serves each device type, and why any module failed to load.
 *
 * Returns: (transfer full): the description
 *
 * MT safe.
 */
char *
gnn_backend_describe_available (void)
{
  GString *s = g_string_new ("gnn backends (choose one for its device type with GNN_BACKEND=name):\n");
  g_autoptr(GPtrArray) list = g_ptr_array_new ();
  g_autofree char *why = NULL;

  ensure_registry ();
  g_mutex_lock (&registry_lock);
  for (guint i = 0; i < entries->len; i++)
    g_ptr_array_add (list, entries->pdata[i]);
  g_mutex_unlock (&registry_lock);
  for (guint i = 0; i < list->len; i++)
    {
      GnnBackendEntry *e = list->pdata[i];
      guint n = gnn_backend_get_device_count (e->backend);
      gboolean is_default = entry_for_type (e->device_type) == e;

      g_string_append_printf (s, "  %-10s device type '%s', %u device%s%s\n", e->name, e->device_type,
                              n, n == 1 ? "" : "s", is_default ? " (in use)" : "");
      for (guint d = 0; d < n; d++)
        {
          g_autofree char *desc = gnn_backend_get_device_description (e->backend, d);
          g_string_append_printf (s, "      %s:%u  %s\n", e->device_type, d, desc ? desc : "");
        }
      if (n == 0)
        {
          g_autofree char *status = backend_status (e->backend);
          if (status)
            g_string_append_printf (s, "      (%s)\n", status);
        }
    }
  why = failures_text ();
  if (*why)
    g_string_append_printf (s, "modules that failed to load:%s\n", why);
  return g_string_free (s, FALSE);
}

/**
 * gnn_backend_load_modules_from:
 * @directory: a folder of backend modules
 * @error: return location for a #GError
 *
 * Loads the backend modules in @directory, as if it were listed in `GNN_BACKEND_PATH`.
 * Backends already chosen for a device type stay chosen.
 *
 * Returns: %TRUE when the folder was read; modules that fail to load are reported by
 *   [func@Gnn.Backend.describe_available], not here
 *
 * MT safe.
 */
gboolean
gnn_backend_load_modules_from (const char *directory,
                               GError    **error)
{
  g_return_val_if_fail (directory != NULL, FALSE);
  if (!g_file_test (directory, G_FILE_TEST_IS_DIR))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_BACKEND, "'%s' is not a folder", directory);
      return FALSE;
    }
  ensure_registry ();
  g_mutex_lock (&registry_lock);
  scan_directory (directory);
  sync_entries ();
  g_mutex_unlock (&registry_lock);
  return TRUE;
}

/**
 * gnn_backend_get_kernel_count:
 * @self: a backend
 * @op: a kernel
 *
 * How often @op was dispatched to this backend since start-up or the last
 * [method@Gnn.Backend.reset_kernel_counts]. Tests use it to check that every kernel was
 * reached. Counts are not exact when several threads dispatch at once.
 *
 * Returns: the count
 */
guint64
gnn_backend_get_kernel_count (GnnBackend  *self,
                              GnnBackendOp op)
{
  GnnBackendEntry *e;

  g_return_val_if_fail (GNN_IS_BACKEND (self), 0);
  g_return_val_if_fail (op < GNN_BACKEND_OP_N_OPS, 0);
  e = gnn_backend_entry_lookup (self);
  return e ? e->counts[op] : 0;
}

/**
 * gnn_backend_reset_kernel_counts:
 * @self: a backend
 *
 * Sets every kernel count of the backend to zero.
 */
void
gnn_backend_reset_kernel_counts (GnnBackend *self)
{
  GnnBackendEntry *e;

  g_return_if_fail (GNN_IS_BACKEND (self));
  e = gnn_backend_entry_lookup (self);
  if (e)
    memset (e->counts, 0, sizeof (e->counts));
}
