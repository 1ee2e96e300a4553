/* gnn-cpu-backend.c: the built-in CPU backend
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "gnn-cpu-private.h"

#define GNN_TYPE_CPU_BACKEND (gnn_cpu_backend_get_type ())
G_DECLARE_FINAL_TYPE (GnnCpuBackend, gnn_cpu_backend, GNN, CPU_BACKEND, GObject)

struct _GnnCpuBackend
{
  GObject parent_instance;
};

static GnnCpuKernel kernels[GNN_BACKEND_OP_N_OPS];

gboolean
gnn_cpu_unsupported (const GnnKernelArgs *args, GError **error)
{
  return gnn_backend_op_set_unsupported (error, "cpu", args->op,
                                         args->out ? args->out->dtype
                                         : args->n_list ? args->list_out[0].dtype : GNN_DTYPE_FLOAT32);
}

/* Large blocks are kept when freed and handed out again for the same size, as the CUDA
 * backend's caching allocator does: a training step allocates the same large temporaries
 * (im2col columns, activations, gradients) every time, and returning them to the system
 * (malloc maps blocks over its mmap threshold afresh) costs a page fault per 4 KiB touched.
 * GNN_CPU_CACHE=0 turns the cache off (the valgrind test setup does, so that a use after free
 * stays visible). */
#define CACHE_MIN_BYTES (64 * 1024)
#define CACHE_GRANULE (16 * 1024)
#define CACHE_MAX_BYTES ((gsize) 1 << 30)

static GMutex cache_lock;
static GHashTable *cache;      /* rounded size -> GSList of free blocks */
static gsize cache_bytes;
static int cache_enabled = -1;

static gboolean
cache_on (void)
{
  if (G_UNLIKELY (cache_enabled < 0))
    {
      const char *v = g_getenv ("GNN_CPU_CACHE");
      cache_enabled = !(v && strcmp (v, "0") == 0);
    }
  return cache_enabled;
}

static gpointer
cpu_alloc (GnnBackend *backend, guint device, gsize nbytes, GError **error)
{
  gpointer p = NULL;
  gsize size = (MAX (nbytes, 1) + 63) & ~(gsize) 63;

  /* small tensors: malloc's 16-byte alignment is enough and posix_memalign costs ~10x more */
  if (size <= 1024)
    {
      p = malloc (size);
      if (p)
        return p;
    }
  else
    {
      if (size >= CACHE_MIN_BYTES && cache_on ())
        {
          GSList *blocks;

          size = (size + CACHE_GRANULE - 1) & ~(gsize) (CACHE_GRANULE - 1);
          g_mutex_lock (&cache_lock);
          if (cache && (blocks = g_hash_table_lookup (cache, GSIZE_TO_POINTER (size))) != NULL)
            {
              p = blocks->data;
              g_hash_table_insert (cache, GSIZE_TO_POINTER (size), g_slist_delete_link (blocks, blocks));
              cache_bytes -= size;
            }
          g_mutex_unlock (&cache_lock);
          if (p)
            return p;
        }
      if (posix_memalign (&p, 64, size) == 0)
        return p;
    }
  g_set_error (error, GNN_ERROR, GNN_ERROR_OUT_OF_MEMORY,
               "cpu: could not allocate %" G_GSIZE_FORMAT " bytes", nbytes);
  return NULL;
}

static void
cpu_free (GnnBackend *backend, guint device, gpointer ptr, gsize nbytes)
{
  gsize size = (MAX (nbytes, 1) + 63) & ~(gsize) 63;

  if (size >= CACHE_MIN_BYTES && cache_on ())
    {
      gboolean kept = FALSE;

      size = (size + CACHE_GRANULE - 1) & ~(gsize) (CACHE_GRANULE - 1);
      g_mutex_lock (&cache_lock);
      if (cache_bytes + size <= CACHE_MAX_BYTES)
        {
          GSList *blocks;

          if (cache == NULL)
            cache = g_hash_table_new (g_direct_hash, g_direct_equal);
          blocks = g_hash_table_lookup (cache, GSIZE_TO_POINTER (size));
          g_hash_table_insert (cache, GSIZE_TO_POINTER (size), g_slist_prepend (blocks, ptr));
          cache_bytes += size;
          kept = TRUE;
        }
      g_mutex_unlock (&cache_lock);
      if (kept)
        return;
    }
  free (ptr);
}

static gboolean
cpu_copy (GnnBackend *backend, guint device, gpointer dst, gconstpointer src, gsize nbytes, GError **error)
{
  memcpy (dst, src, nbytes);
  return TRUE;
}

static gboolean
cpu_run (GnnBackend *backend, guint device, const GnnKernelArgs *args, GError **error)
{
  GnnCpuKernel k = kernels[args->op];

  if (G_UNLIKELY (k == NULL))
    return gnn_cpu_unsupported (args, error);
  return k (args, error);
}

static const GnnBackendFuncs cpu_funcs = {
  .alloc = cpu_alloc,
  .free = cpu_free,
  .copy_from_host = cpu_copy,
  .copy_to_host = cpu_copy,
  .copy_device = cpu_copy,
  .run = cpu_run,
  .is_host = TRUE,
};

static const char *
cpu_get_name (GnnBackend *self)
{
  return "cpu";
}

static guint
cpu_get_device_count (GnnBackend *self)
{
  return 1;
}

static char *
cpu_get_device_description (GnnBackend *self, guint index)
{
  return g_strdup_printf ("CPU, %u processors, %d gnn threads, OpenBLAS gemm",
                          g_get_num_processors (), gnn_get_num_threads ());
}

static gboolean
cpu_get_memory_info (GnnBackend *self, guint index, guint64 *free_bytes, guint64 *total_bytes, GError **error)
{
  g_autofree char *contents = NULL;
  guint64 total = 0, avail = 0;

  if (g_file_get_contents ("/proc/meminfo", &contents, NULL, NULL))
    {
      const char *t = strstr (contents, "MemTotal:");
      const char *a = strstr (contents, "MemAvailable:");
      if (t)
        total = g_ascii_strtoull (t + 9, NULL, 10) * 1024;
      if (a)
        avail = g_ascii_strtoull (a + 13, NULL, 10) * 1024;
    }
  if (total == 0)
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED,
                           "cpu: memory information is not available on this system");
      return FALSE;
    }
  *free_bytes = avail;
  *total_bytes = total;
  return TRUE;
}

/* Where the CPU kernels differ from the op table. */
static const GnnBackendOpDeparture cpu_departures[] = {
  /* rows are moved as bytes, whatever their dtype: the ops select a uint8 dataset's images
   * without converting the whole dataset first */
  { GNN_BACKEND_OP_INDEX_SELECT, GNN_DTYPES_ALL, 0 },
};

static gboolean
cpu_supports_op (GnnBackend *self, GnnBackendOp op, GnnDtype dtype)
{
  return gnn_backend_op_supported_with (op, dtype, cpu_departures, G_N_ELEMENTS (cpu_departures));
}

static gboolean
cpu_synchronize (GnnBackend *self, guint index, GError **error)
{
  return TRUE;
}

static const GnnBackendFuncs *
cpu_get_funcs (GnnBackend *self)
{
  return &cpu_funcs;
}

static const char *
cpu_get_device_type (GnnBackend *self)
{
  return "cpu";
}

static void
gnn_cpu_backend_iface_init (GnnBackendInterface *iface)
{
  iface->get_name = cpu_get_name;
  iface->get_device_type = cpu_get_device_type;
  iface->get_device_count = cpu_get_device_count;
  iface->get_device_description = cpu_get_device_description;
  iface->get_memory_info = cpu_get_memory_info;
  iface->supports_op = cpu_supports_op;
  iface->synchronize = cpu_synchronize;
  iface->get_funcs = cpu_get_funcs;
}

G_DEFINE_FINAL_TYPE_WITH_CODE (GnnCpuBackend, gnn_cpu_backend, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (GNN_TYPE_BACKEND, gnn_cpu_backend_iface_init))

static void
gnn_cpu_backend_class_init (GnnCpuBackendClass *klass)
{
  gnn_cpu_register_elementwise (kernels);
  gnn_cpu_register_unary (kernels);
  gnn_cpu_register_reduce (kernels);
  gnn_cpu_register_index (kernels);
  gnn_cpu_register_gemm (kernels);
  gnn_cpu_register_conv (kernels);
  gnn_cpu_register_foreach (kernels);
  gnn_cpu_register_norm (kernels);
  gnn_cpu_register_scan (kernels);
  gnn_cpu_register_sort (kernels);
  gnn_cpu_register_math (kernels);
  gnn_cpu_register_attention (kernels);
  gnn_cpu_register_bitwise (kernels);
  gnn_cpu_register_rnn (kernels);
}

static void
gnn_cpu_backend_init (GnnCpuBackend *self)
{
}
