/* gnn-reference-backend.c: the plain-C reference backend, a loadable module
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * A second backend for the "cpu" device type, written to be obviously correct rather than
 * fast: one thread, no BLAS, every kernel a simple loop (gnn-reference-kernels.c). It is the
 * yardstick other backends are tested against, and a worked example of a backend module.
 * Its priority (-10) is below the built-in CPU backend's (0), so it only serves tensors when
 * chosen with `GNN_BACKEND=reference`.
 */
#include <unistd.h>
#include <string.h>

#include <gio/gio.h>
#include <gmodule.h>

#include "gnn-reference-private.h"

#define GNN_TYPE_REFERENCE_BACKEND (gnn_reference_backend_get_type ())
G_DECLARE_FINAL_TYPE (GnnReferenceBackend, gnn_reference_backend, GNN, REFERENCE_BACKEND, GObject)

struct _GnnReferenceBackend
{
  GObject parent_instance;
};

/* ---- memory: host memory, like the built-in CPU backend ----------------------------- */

static gpointer
ref_alloc (GnnBackend *backend,
           guint       device,
           gsize       nbytes,
           GError    **error)
{
  gpointer p = g_try_malloc (MAX (nbytes, 1));

  if (p == NULL)
    g_set_error (error, GNN_ERROR, GNN_ERROR_OUT_OF_MEMORY,
                 "reference: could not allocate %" G_GSIZE_FORMAT " bytes", nbytes);
  return p;
}

static void
ref_free (GnnBackend *backend,
          guint       device,
          gpointer    ptr,
          gsize       nbytes)
{
  g_free (ptr);
}

static gboolean
ref_copy (GnnBackend   *backend,
          guint         device,
          gpointer      dst,
          gconstpointer src,
          gsize         nbytes,
          GError      **error)
{
  memmove (dst, src, nbytes);
  return TRUE;
}

static gboolean
ref_run (GnnBackend          *backend,
         guint                device,
         const GnnKernelArgs *args,
         GError             **error)
{
  return gnn_reference_run_kernel (args, error);
}

static const GnnBackendFuncs ref_funcs = {
  .alloc = ref_alloc,
  .free = ref_free,
  .copy_from_host = ref_copy,
  .copy_to_host = ref_copy,
  .copy_device = ref_copy,
  .run = ref_run,
  .is_host = TRUE,
};

/* ---- GnnBackend --------------------------------------------------------------------- */

static const char *
ref_get_name (GnnBackend *self)
{
  return "reference";
}

static const char *
ref_get_device_type (GnnBackend *self)
{
  return "cpu";
}

static guint
ref_get_device_count (GnnBackend *self)
{
  return 1;
}

static char *
ref_get_device_description (GnnBackend *self,
                            guint       index)
{
  return g_strdup ("CPU, plain-C reference kernels (one thread, no BLAS)");
}

static gboolean
ref_get_memory_info (GnnBackend *self,
                     guint       index,
                     guint64    *free_bytes,
                     guint64    *total_bytes,
                     GError    **error)
{
  long page = sysconf (_SC_PAGESIZE);
  long total = sysconf (_SC_PHYS_PAGES);
  long avail = sysconf (_SC_AVPHYS_PAGES);

  if (page <= 0 || total <= 0 || avail < 0)
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED,
                           "reference: memory information is not available on this system");
      return FALSE;
    }
  *free_bytes = (guint64) avail * (guint64) page;
  *total_bytes = (guint64) total * (guint64) page;
  return TRUE;
}

static gboolean
ref_supports_op (GnnBackend  *self,
                 GnnBackendOp op,
                 GnnDtype     dtype)
{
  return gnn_reference_supports (op, dtype);
}

static gboolean
ref_synchronize (GnnBackend *self,
                 guint       index,
                 GError    **error)
{
  /* kernels run to completion on the calling thread */
  return TRUE;
}

static const GnnBackendFuncs *
ref_get_funcs (GnnBackend *self)
{
  return &ref_funcs;
}

static void
gnn_reference_backend_iface_init (GnnBackendInterface *iface)
{
  iface->get_name = ref_get_name;
  iface->get_device_type = ref_get_device_type;
  iface->get_device_count = ref_get_device_count;
  iface->get_device_description = ref_get_device_description;
  iface->get_memory_info = ref_get_memory_info;
  iface->supports_op = ref_supports_op;
  iface->synchronize = ref_synchronize;
  iface->get_funcs = ref_get_funcs;
}

G_DEFINE_FINAL_TYPE_WITH_CODE (GnnReferenceBackend, gnn_reference_backend, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (GNN_TYPE_BACKEND, gnn_reference_backend_iface_init))

static void
gnn_reference_backend_class_init (GnnReferenceBackendClass *klass)
{
}

static void
gnn_reference_backend_init (GnnReferenceBackend *self)
{
}

/* ---- the module's entry points ------------------------------------------------------ */

/**
 * gnn_backend_module_api_version:
 *
 * The backend API version this module was built against, checked by gnn's registry before
 * it calls `gnn_backend_module_register ()`.
 */
G_MODULE_EXPORT const guint gnn_backend_module_api_version = GNN_BACKEND_API_VERSION;

/**
 * gnn_backend_module_register:
 *
 * Registers the reference backend's type and implements the extension point
 * %GNN_BACKEND_EXTENSION_POINT_NAME as "reference", priority -10: below the built-in CPU
 * backend, so that it serves the "cpu" device only when `GNN_BACKEND=reference` asks for it.
 *
 * Called once by gnn's registry, which keeps the module resident, so the type is registered
 * statically.
 */
G_MODULE_EXPORT void gnn_backend_module_register (void);

void
gnn_backend_module_register (void)
{
  g_io_extension_point_implement (GNN_BACKEND_EXTENSION_POINT_NAME, GNN_TYPE_REFERENCE_BACKEND,
                                  "reference", -10);
}
