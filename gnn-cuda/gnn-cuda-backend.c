/* gnn-cuda-backend.c: the CUDA backend's host side, a loadable module
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Devices, streams, memory, host↔device copies and cuBLAS; every kernel but GEMM is in the
 * .cu files behind gnn_cuda_kernels_run() (gnn-cuda-private.h).
 *
 * - One stream per device: every kernel, copy and cuBLAS call of a device is queued on it, so
 *   work is ordered and memory freed on the host may be handed out again at once (PyTorch's
 *   caching allocator relies on the same stream order).
 * - Memory comes from a caching allocator: freed blocks are kept in per-size free lists and
 *   reused, so that a training step, which allocates the same sizes every time, calls
 *   cudaMalloc only in its first steps. On an out-of-memory error the cache is released and
 *   the allocation tried again.
 * - Host→device copies go through pinned staging buffers and return without waiting for the
 *   device; device→host copies wait (the caller reads the result).
 * - GEMM is cuBLAS, with TF32 tensor cores only when asked for: the "allow-tf32" property,
 *   whose default is the environment variable GNN_CUDA_ALLOW_TF32=1
 *   (`torch.backends.cuda.matmul.allow_tf32`). cuBLAS (libcublas.so.13) is loaded when the
 *   first device is set up, not when the module is: loading it costs about two seconds and
 *   200 MB, which every gnn program would pay, GPU or not, since the registry loads every
 *   backend module at start-up. It is looked for as the dynamic loader looks for libraries
 *   (LD_LIBRARY_PATH, the system's folders), then in the toolkit the module was built with.
 *
 * Read-only properties count what tests and benchmarks want to see: "host-transfers" (calls
 * of copy_from_host and copy_to_host), "device-allocations" (cudaMalloc calls of the
 * allocator), "allocated-bytes" and "reserved-bytes"; "status" says why no device is seen.
 */
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

#include <gio/gio.h>
#include <gmodule.h>
#include <cuda_runtime_api.h>
#include <cublas_v2.h>

#include "gnn-cuda-private.h"

#define GNN_TYPE_CUDA_BACKEND (gnn_cuda_backend_get_type ())
G_DECLARE_FINAL_TYPE (GnnCudaBackend, gnn_cuda_backend, GNN, CUDA_BACKEND, GObject)

/* pinned host buffers for host↔device copies: two, so that one fills while the other moves */
#define STAGING_BYTES (4u << 20)
#define N_STAGING 2

typedef struct {
  GnnCudaBackend *backend;
  guint index;

  /* set once by device_ensure (init_lock) */
  gboolean ready;
  GError *init_error;
  cudaStream_t stream;
  cublasHandle_t cublas;
  void *cublas_workspace;
  int major, minor, sm_count;

  /* the caching allocator (alloc_lock) */
  GMutex alloc_lock;
  GHashTable *free_blocks;      /* rounded size → GPtrArray of device pointers */
  guint64 allocated_bytes;      /* handed out */
  guint64 reserved_bytes;       /* handed out + cached */
  guint64 device_allocations;   /* cudaMalloc calls */

  /* kernels and cuBLAS (run_lock): the kernels' context and its scratch, the math mode */
  GMutex run_lock;
  GnnCudaContext ctx;
  gboolean tf32_mode;

  /* staging (copy_lock) */
  GMutex copy_lock;
  void *staging[N_STAGING];
  cudaEvent_t staging_done[N_STAGING];
  guint next_staging;
  gboolean staging_failed;

  /* the profiler's timing marks (timing_lock): CUDA events with timing, kept for reuse */
  GMutex timing_lock;
  GPtrArray *timing_events;
} CudaDevice;

struct _GnnCudaBackend
{
  GObject parent_instance;

  GMutex init_lock;
  gboolean counted;
  int n_devices;
  char *status;
  CudaDevice *devices;

  gboolean allow_tf32;
  guint64 host_transfers;
};

enum {
  PROP_0,
  PROP_ALLOW_TF32,
  PROP_HOST_TRANSFERS,
  PROP_DEVICE_ALLOCATIONS,
  PROP_ALLOCATED_BYTES,
  PROP_RESERVED_BYTES,
  PROP_STATUS,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

/* ---- cuBLAS, loaded on first use ---------------------------------------------------- */

#ifndef GNN_CUDA_LIBDIR
#define GNN_CUDA_LIBDIR "/usr/local/cuda/lib64"
#endif
#ifndef CUBLAS_SONAME
#define CUBLAS_SONAME "libcublas.so.13"
#endif

static struct {
  __typeof__ (cublasCreate_v2) *create;
  __typeof__ (cublasSetStream_v2) *set_stream;
  __typeof__ (cublasSetMathMode) *set_math_mode;
  __typeof__ (cublasSetWorkspace_v2) *set_workspace;
  __typeof__ (cublasSgemm_v2) *sgemm;
  __typeof__ (cublasDgemm_v2) *dgemm;
  __typeof__ (cublasSgemmStridedBatched) *sgemm_batched;
  __typeof__ (cublasDgemmStridedBatched) *dgemm_batched;
  __typeof__ (cublasGetStatusString) *get_status_string;
} cublas;

static gboolean
load_cublas (GError **error)
{
  static GMutex lock;
  static gboolean loaded;
  static char *failure;
  static const struct { const char *name; gsize offset; } syms[] = {
    { "cublasCreate_v2", G_STRUCT_OFFSET (__typeof__ (cublas), create) },
    { "cublasSetStream_v2", G_STRUCT_OFFSET (__typeof__ (cublas), set_stream) },
    { "cublasSetMathMode", G_STRUCT_OFFSET (__typeof__ (cublas), set_math_mode) },
    { "cublasSetWorkspace_v2", G_STRUCT_OFFSET (__typeof__ (cublas), set_workspace) },
    { "cublasSgemm_v2", G_STRUCT_OFFSET (__typeof__ (cublas), sgemm) },
    { "cublasDgemm_v2", G_STRUCT_OFFSET (__typeof__ (cublas), dgemm) },
    { "cublasSgemmStridedBatched", G_STRUCT_OFFSET (__typeof__ (cublas), sgemm_batched) },
    { "cublasDgemmStridedBatched", G_STRUCT_OFFSET (__typeof__ (cublas), dgemm_batched) },
    { "cublasGetStatusString", G_STRUCT_OFFSET (__typeof__ (cublas), get_status_string) },
  };
  gboolean ok;

  g_mutex_lock (&lock);
  if (!loaded && failure == NULL)
    {
      void *h = dlopen (CUBLAS_SONAME, RTLD_NOW | RTLD_LOCAL);
      char *first = h ? NULL : g_strdup (dlerror ());

      if (h == NULL)
        h = dlopen (GNN_CUDA_LIBDIR "/" CUBLAS_SONAME, RTLD_NOW | RTLD_LOCAL);
      if (h == NULL)
        failure = g_strdup_printf ("cuBLAS could not be loaded: %s (nor from %s); put the folder "
                                   "holding " CUBLAS_SONAME " in LD_LIBRARY_PATH", first,
                                   GNN_CUDA_LIBDIR);
      else
        for (gsize i = 0; i < G_N_ELEMENTS (syms) && failure == NULL; i++)
          {
            void *f = dlsym (h, syms[i].name);
            if (f == NULL)
              failure = g_strdup_printf ("cuBLAS (" CUBLAS_SONAME ") lacks %s", syms[i].name);
            G_STRUCT_MEMBER (void *, &cublas, syms[i].offset) = f;
          }
      /* the handle stays open for the life of the process */
      loaded = failure == NULL;
      g_free (first);
    }
  ok = loaded;
  if (!ok)
    g_set_error (error, GNN_ERROR, GNN_ERROR_BACKEND, "cuda: %s", failure);
  g_mutex_unlock (&lock);
  return ok;
}

/* ---- errors ------------------------------------------------------------------------- */

static gboolean
cuda_failed (cudaError_t   err,
             GError      **error,
             GnnError      code,
             guint         device,
             const char   *what)
{
  if (G_LIKELY (err == cudaSuccess))
    return FALSE;
  g_set_error (error, GNN_ERROR, code, "cuda:%u: %s failed: %s (%s)", device, what,
               cudaGetErrorString (err), cudaGetErrorName (err));
  return TRUE;
}

static gboolean
cublas_failed (cublasStatus_t st,
               GError       **error,
               guint          device,
               const char    *what)
{
  if (G_LIKELY (st == CUBLAS_STATUS_SUCCESS))
    return FALSE;
  g_set_error (error, GNN_ERROR, GNN_ERROR_BACKEND, "cuda:%u: %s failed: %s", device, what,
               cublas.get_status_string (st));
  return TRUE;
}

/* ---- devices ------------------------------------------------------------------------ */

/* The calling thread's current device, as set through here: cudaSetDevice only when it
 * changes (the runtime is this module's own, linked statically). */
static __thread int current_device = -1;

static gboolean
set_device (guint index, GError **error)
{
  if (G_LIKELY (current_device == (int) index))
    return TRUE;
  if (cuda_failed (cudaSetDevice ((int) index), error, GNN_ERROR_DEVICE, index, "cudaSetDevice"))
    return FALSE;
  current_device = (int) index;
  return TRUE;
}

/* counts the devices, once: 0 with a status when there is no driver or no device */
static void
count_devices (GnnCudaBackend *self)
{
  int n = 0;
  cudaError_t err;

  g_mutex_lock (&self->init_lock);
  if (g_atomic_int_get (&self->counted))
    {
      g_mutex_unlock (&self->init_lock);
      return;
    }
  err = cudaGetDeviceCount (&n);
  if (err != cudaSuccess)
    {
      int driver = 0;
      cudaDriverGetVersion (&driver);
      n = 0;
      if (err == cudaErrorNoDevice)
        self->status = g_strdup ("no CUDA device is present (cudaErrorNoDevice)");
      else if (err == cudaErrorInsufficientDriver && driver == 0)
        self->status = g_strdup ("no NVIDIA driver was found (libcuda.so.1 could not be loaded)");
      else
        self->status = g_strdup_printf ("CUDA could not start: %s (%s); driver CUDA version %d.%d, "
                                        "runtime built for %d.%d",
                                        cudaGetErrorString (err), cudaGetErrorName (err),
                                        driver / 1000, (driver % 1000) / 10,
                                        CUDART_VERSION / 1000, (CUDART_VERSION % 1000) / 10);
      cudaGetLastError ();
    }
  else if (n == 0)
    self->status = g_strdup ("no CUDA device is present");
  else
    self->status = g_strdup ("");
  self->devices = g_new0 (CudaDevice, MAX (n, 1));
  for (int i = 0; i < n; i++)
    {
      CudaDevice *d = &self->devices[i];
      d->backend = self;
      d->index = (guint) i;
      g_mutex_init (&d->alloc_lock);
      g_mutex_init (&d->run_lock);
      g_mutex_init (&d->copy_lock);
      g_mutex_init (&d->timing_lock);
      d->free_blocks = g_hash_table_new_full (NULL, NULL, NULL, (GDestroyNotify) g_ptr_array_unref);
    }
  self->n_devices = n;
  g_atomic_int_set (&self->counted, TRUE);
  g_mutex_unlock (&self->init_lock);
}

static void *grow_scratch (gpointer host, size_t nbytes, GError **error);
static gpointer cache_alloc (CudaDevice *d, gsize nbytes, GError **error);
static void cache_free (CudaDevice *d, gpointer ptr, gsize nbytes);

/* Makes device @index ready (context, stream, cuBLAS) on first use; returns it, or NULL with
 * @error set. */
static CudaDevice *
device_get (GnnCudaBackend *self, guint index, GError **error)
{
  CudaDevice *d;

  if (G_UNLIKELY (!g_atomic_int_get (&self->counted)))
    count_devices (self);
  if (G_UNLIKELY (index >= (guint) self->n_devices))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_DEVICE,
                   "cuda:%u is not available: the cuda backend sees %d device%s%s%s", index,
                   self->n_devices, self->n_devices == 1 ? "" : "s",
                   *self->status ? ": " : "", self->status);
      return NULL;
    }
  d = &self->devices[index];
  if (G_LIKELY (g_atomic_int_get (&d->ready)))
    return set_device (index, error) ? d : NULL;

  g_mutex_lock (&self->init_lock);
  if (!d->ready && d->init_error == NULL)
    {
      GError *e = NULL;
      struct cudaDeviceProp prop;
      size_t ws;

      current_device = -1;
      if (!load_cublas (&e) ||
          !set_device (index, &e) ||
          cuda_failed (cudaFree (NULL), &e, GNN_ERROR_DEVICE, index, "creating the CUDA context") ||
          cuda_failed (cudaGetDeviceProperties (&prop, (int) index), &e, GNN_ERROR_DEVICE, index,
                       "cudaGetDeviceProperties") ||
          cuda_failed (cudaStreamCreateWithFlags (&d->stream, cudaStreamNonBlocking), &e,
                       GNN_ERROR_DEVICE, index, "cudaStreamCreate") ||
          cublas_failed (cublas.create (&d->cublas), &e, index, "cublasCreate") ||
          cublas_failed (cublas.set_stream (d->cublas, d->stream), &e, index, "cublasSetStream"))
        d->init_error = e;
      else
        {
          d->major = prop.major;
          d->minor = prop.minor;
          d->sm_count = prop.multiProcessorCount;
          /* cuBLAS's workspace, once, as PyTorch sizes it (Hopper wants more) */
          ws = d->major >= 9 ? (32u << 20) : (4u << 20) + (16u << 10) * 8;
          if (cudaMalloc (&d->cublas_workspace, ws) == cudaSuccess)
            cublas.set_workspace (d->cublas, d->cublas_workspace, ws);
          else
            {
              cudaGetLastError ();
              d->cublas_workspace = NULL;
            }
          d->tf32_mode = FALSE;
          cublas.set_math_mode (d->cublas, CUBLAS_DEFAULT_MATH);
          d->ctx.device = (int) index;
          d->ctx.stream = d->stream;
          d->ctx.sm_count = d->sm_count;
          d->ctx.grow_scratch = grow_scratch;
          d->ctx.host = d;
          g_atomic_int_set (&d->ready, TRUE);
        }
    }
  g_mutex_unlock (&self->init_lock);
  if (d->init_error)
    {
      g_propagate_error (error, g_error_copy (d->init_error));
      return NULL;
    }
  return set_device (index, error) ? d : NULL;
}

/* ---- the caching allocator ---------------------------------------------------------- */

/* The size class of a request: 512-byte steps up to 1 MiB, then steps of an eighth of the
 * power of two below the size (at most 12.5% unused). */
static gsize
round_size (gsize nbytes)
{
  gsize g = 512;

  nbytes = MAX (nbytes, 1);
  if (nbytes > (1u << 20))
    g = (gsize) 1 << (g_bit_storage (nbytes) - 1 - 3);
  return (nbytes + g - 1) / g * g;
}

/* alloc_lock held: hands every cached block back to CUDA */
static void
release_cache_locked (CudaDevice *d)
{
  GHashTableIter it;
  gpointer key, value;

  /* cudaFree waits for the device, so blocks still read by queued kernels are safe */
  g_hash_table_iter_init (&it, d->free_blocks);
  while (g_hash_table_iter_next (&it, &key, &value))
    {
      GPtrArray *list = value;
      for (guint i = 0; i < list->len; i++)
        {
          cudaFree (list->pdata[i]);
          d->reserved_bytes -= GPOINTER_TO_SIZE (key);
        }
      g_ptr_array_set_size (list, 0);
    }
}

static gpointer
cache_alloc (CudaDevice *d, gsize nbytes, GError **error)
{
  gsize size = round_size (nbytes);
  GPtrArray *list;
  gpointer p = NULL;
  cudaError_t err;

  g_mutex_lock (&d->alloc_lock);
  list = g_hash_table_lookup (d->free_blocks, GSIZE_TO_POINTER (size));
  if (list && list->len > 0)
    {
      p = g_ptr_array_steal_index_fast (list, list->len - 1);
      d->allocated_bytes += size;
      g_mutex_unlock (&d->alloc_lock);
      return p;
    }
  err = cudaMalloc (&p, size);
  if (err == cudaErrorMemoryAllocation)
    {
      cudaGetLastError ();
      release_cache_locked (d);
      err = cudaMalloc (&p, size);
    }
  if (err != cudaSuccess)
    {
      size_t free_b = 0, total_b = 0;
      cudaGetLastError ();
      cudaMemGetInfo (&free_b, &total_b);
      if (err == cudaErrorMemoryAllocation)
        g_set_error (error, GNN_ERROR, GNN_ERROR_OUT_OF_MEMORY,
                     "cuda:%u: out of memory allocating %.1f MiB (%.1f MiB in use by gnn, %.1f MiB "
                     "free of %.1f MiB)", d->index, size / 1048576.0, d->allocated_bytes / 1048576.0,
                     free_b / 1048576.0, total_b / 1048576.0);
      else
        cuda_failed (err, error, GNN_ERROR_BACKEND, d->index, "cudaMalloc");
      g_mutex_unlock (&d->alloc_lock);
      return NULL;
    }
  d->device_allocations++;
  d->allocated_bytes += size;
  d->reserved_bytes += size;
  g_mutex_unlock (&d->alloc_lock);
  return p;
}

static void
cache_free (CudaDevice *d, gpointer ptr, gsize nbytes)
{
  gsize size = round_size (nbytes);
  GPtrArray *list;

  if (ptr == NULL)
    return;
  g_mutex_lock (&d->alloc_lock);
  list = g_hash_table_lookup (d->free_blocks, GSIZE_TO_POINTER (size));
  if (list == NULL)
    {
      list = g_ptr_array_new ();
      g_hash_table_insert (d->free_blocks, GSIZE_TO_POINTER (size), list);
    }
  g_ptr_array_add (list, ptr);
  d->allocated_bytes -= size;
  g_mutex_unlock (&d->alloc_lock);
}

/* the kernels' scratch: replaced by a larger block when a kernel asks (run_lock held) */
static void *
grow_scratch (gpointer host, size_t nbytes, GError **error)
{
  CudaDevice *d = host;
  gsize size;
  gpointer p;

  if (nbytes <= d->ctx.scratch_bytes && d->ctx.scratch != NULL)
    return d->ctx.scratch;
  size = MAX ((gsize) 1 << g_bit_storage (MAX (nbytes, 4096) - 1), 4096);
  p = cache_alloc (d, size, error);
  if (p == NULL)
    return NULL;
  /* stream order: kernels queued with the old block run before anything reuses it */
  cache_free (d, d->ctx.scratch, d->ctx.scratch_bytes);
  d->ctx.scratch = p;
  d->ctx.scratch_bytes = size;
  return p;
}

/* ---- GnnBackendFuncs ---------------------------------------------------------------- */

static gpointer
cuda_alloc (GnnBackend *backend, guint device, gsize nbytes, GError **error)
{
  CudaDevice *d = device_get (GNN_CUDA_BACKEND (backend), device, error);

  return d ? cache_alloc (d, nbytes, error) : NULL;
}

static void
cuda_free (GnnBackend *backend, guint device, gpointer ptr, gsize nbytes)
{
  GnnCudaBackend *self = GNN_CUDA_BACKEND (backend);

  if (ptr && device < (guint) self->n_devices)
    cache_free (&self->devices[device], ptr, nbytes);
}

/* copy_lock held: the staging buffers, allocated on first use; FALSE when pinned memory
 * is not available (copies then go straight from pageable memory) */
static gboolean
staging_ready (CudaDevice *d)
{
  if (d->staging[0] != NULL)
    return TRUE;
  if (d->staging_failed)
    return FALSE;
  for (guint i = 0; i < N_STAGING; i++)
    if (cudaHostAlloc (&d->staging[i], STAGING_BYTES, cudaHostAllocDefault) != cudaSuccess ||
        cudaEventCreateWithFlags (&d->staging_done[i], cudaEventDisableTiming) != cudaSuccess)
      {
        cudaGetLastError ();
        for (guint j = 0; j <= i; j++)
          {
            if (d->staging[j])
              cudaFreeHost (d->staging[j]);
            d->staging[j] = NULL;
          }
        d->staging_failed = TRUE;
        return FALSE;
      }
  return TRUE;
}

static gboolean
cuda_copy_from_host (GnnBackend   *backend,
                     guint         device,
                     gpointer      dst,
                     gconstpointer src,
                     gsize         nbytes,
                     GError      **error)
{
  GnnCudaBackend *self = GNN_CUDA_BACKEND (backend);
  CudaDevice *d = device_get (self, device, error);
  gboolean ok = TRUE;

  if (d == NULL)
    return FALSE;
  if (nbytes == 0)
    return TRUE;
  __atomic_fetch_add (&self->host_transfers, 1, __ATOMIC_RELAXED);
  g_mutex_lock (&d->copy_lock);
  if (!staging_ready (d))
    {
      /* pageable memory: cudaMemcpy returns once the source has been read */
      ok = !cuda_failed (cudaMemcpyAsync (dst, src, nbytes, cudaMemcpyHostToDevice, d->stream), error,
                         GNN_ERROR_BACKEND, device, "host-to-device copy") &&
           !cuda_failed (cudaStreamSynchronize (d->stream), error, GNN_ERROR_BACKEND, device,
                         "host-to-device copy");
      g_mutex_unlock (&d->copy_lock);
      return ok;
    }
  /* each chunk goes through the next staging buffer once the copy out of it is done; the
   * last copies are still in flight on return, in stream order before later kernels */
  for (gsize off = 0; off < nbytes && ok; off += STAGING_BYTES)
    {
      gsize n = MIN (STAGING_BYTES, nbytes - off);
      guint s = d->next_staging;

      d->next_staging = (s + 1) % N_STAGING;
      ok = !cuda_failed (cudaEventSynchronize (d->staging_done[s]), error, GNN_ERROR_BACKEND, device,
                         "host-to-device copy");
      if (!ok)
        break;
      memcpy (d->staging[s], (const char *) src + off, n);
      ok = !cuda_failed (cudaMemcpyAsync ((char *) dst + off, d->staging[s], n, cudaMemcpyHostToDevice,
                                          d->stream), error, GNN_ERROR_BACKEND, device, "host-to-device copy") &&
           !cuda_failed (cudaEventRecord (d->staging_done[s], d->stream), error, GNN_ERROR_BACKEND, device,
                         "host-to-device copy");
    }
  g_mutex_unlock (&d->copy_lock);
  return ok;
}

static gboolean
cuda_copy_to_host (GnnBackend   *backend,
                   guint         device,
                   gpointer      dst,
                   gconstpointer src,
                   gsize         nbytes,
                   GError      **error)
{
  GnnCudaBackend *self = GNN_CUDA_BACKEND (backend);
  CudaDevice *d = device_get (self, device, error);
  gboolean ok = TRUE;
  gsize n_chunks;

  if (d == NULL)
    return FALSE;
  if (nbytes == 0)
    return TRUE;
  __atomic_fetch_add (&self->host_transfers, 1, __ATOMIC_RELAXED);
  g_mutex_lock (&d->copy_lock);
  if (!staging_ready (d))
    {
      ok = !cuda_failed (cudaMemcpyAsync (dst, src, nbytes, cudaMemcpyDeviceToHost, d->stream), error,
                         GNN_ERROR_BACKEND, device, "device-to-host copy") &&
           !cuda_failed (cudaStreamSynchronize (d->stream), error, GNN_ERROR_BACKEND, device,
                         "device-to-host copy (an earlier kernel may have failed)");
      g_mutex_unlock (&d->copy_lock);
      return ok;
    }
  /* double-buffered: chunk i + 1 moves while chunk i is copied out of its staging buffer */
  n_chunks = (nbytes + STAGING_BYTES - 1) / STAGING_BYTES;
  for (gsize i = 0; i <= n_chunks && ok; i++)
    {
      if (i < n_chunks)
        {
          gsize off = i * STAGING_BYTES, n = MIN (STAGING_BYTES, nbytes - off);
          guint s = i % N_STAGING;
          ok = !cuda_failed (cudaMemcpyAsync (d->staging[s], (const char *) src + off, n,
                                              cudaMemcpyDeviceToHost, d->stream), error,
                             GNN_ERROR_BACKEND, device, "device-to-host copy") &&
               !cuda_failed (cudaEventRecord (d->staging_done[s], d->stream), error, GNN_ERROR_BACKEND,
                             device, "device-to-host copy");
        }
      if (ok && i > 0)
        {
          gsize off = (i - 1) * STAGING_BYTES, n = MIN (STAGING_BYTES, nbytes - off);
          guint s = (i - 1) % N_STAGING;
          ok = !cuda_failed (cudaEventSynchronize (d->staging_done[s]), error, GNN_ERROR_BACKEND, device,
                             "device-to-host copy (an earlier kernel may have failed)");
          if (ok)
            memcpy ((char *) dst + off, d->staging[s], n);
        }
    }
  /* the staging buffers are idle again: start host-to-device copies at the first one */
  d->next_staging = 0;
  g_mutex_unlock (&d->copy_lock);
  return ok;
}

static gboolean
cuda_copy_device (GnnBackend   *backend,
                  guint         device,
                  gpointer      dst,
                  gconstpointer src,
                  gsize         nbytes,
                  GError      **error)
{
  CudaDevice *d = device_get (GNN_CUDA_BACKEND (backend), device, error);

  if (d == NULL)
    return FALSE;
  if (nbytes == 0 || dst == src)
    return TRUE;
  return !cuda_failed (cudaMemcpyAsync (dst, src, nbytes, cudaMemcpyDeviceToDevice, d->stream), error,
                       GNN_ERROR_BACKEND, device, "device-to-device copy");
}

/* ---- GEMM through cuBLAS ------------------------------------------------------------ */

/* How a (rows, cols) matrix view with strides (rs, cs) maps onto BLAS: row-major with a
 * leading dimension, transposed or not (as gnn-cpu-gemm.c). */
static gboolean
blas_layout (gint64 rows, gint64 cols, gint64 rs, gint64 cs, gboolean *trans, gint64 *ld)
{
  if ((cs == 1 || cols <= 1) && rs >= MAX (cols, 1))
    {
      *trans = FALSE;
      *ld = MAX (rs, 1);
      return TRUE;
    }
  if ((rs == 1 || rows <= 1) && cs >= MAX (rows, 1))
    {
      *trans = TRUE;
      *ld = MAX (cs, 1);
      return TRUE;
    }
  return FALSE;
}

/* One cuBLAS call for out[b] (m, n) = A[b] (m, k) · B[b] (k, n), each operand in a BLAS
 * layout (blas_layout: transposed or not, with a leading dimension). */
typedef struct {
  cublasOperation_t opa, opb;
  gint64 m, n, k;
  const void *pa, *pb;
  gint64 lda, ldb;
  gint64 sa, sb;      /* batch strides */
} GemmPlan;

static void
gemm_plan (const GnnKernelTensor *a, gboolean ta, gint64 lda,
           const GnnKernelTensor *b, gboolean tb, gint64 ldb,
           gboolean tc, gint64 m, gint64 n, gint64 k, GemmPlan *p)
{
  /* cuBLAS is column-major: a row-major (r, c) matrix with leading dimension ld is, to cuBLAS,
   * its (c, r) transpose. A row-major C = A·B is computed as Cᵀ = Bᵀ·Aᵀ, B first; a C stored
   * transposed (column-major) is C = A·B as it stands, each operand's flag inverted. */
  p->k = k;
  if (!tc)
    {
      p->opa = tb ? CUBLAS_OP_T : CUBLAS_OP_N;
      p->opb = ta ? CUBLAS_OP_T : CUBLAS_OP_N;
      p->m = n;
      p->n = m;
      p->pa = b->data;
      p->lda = ldb;
      p->sa = b->strides[0];
      p->pb = a->data;
      p->ldb = lda;
      p->sb = a->strides[0];
    }
  else
    {
      p->opa = ta ? CUBLAS_OP_N : CUBLAS_OP_T;
      p->opb = tb ? CUBLAS_OP_N : CUBLAS_OP_T;
      p->m = m;
      p->n = n;
      p->pa = a->data;
      p->lda = lda;
      p->sa = a->strides[0];
      p->pb = b->data;
      p->ldb = ldb;
      p->sb = b->strides[0];
    }
}

/* run_lock held: a contiguous copy of the (batch, rows, cols) view @t in a new block of
 * @tmp_bytes bytes, through the COPY kernel; @t's view is rewritten to describe the copy.
 * @fill: whether the values are needed (an output read with beta ≠ 0, or an input). */
static gboolean
gemm_contiguous (CudaDevice *d, GnnKernelTensor *t, gboolean fill, gpointer *tmp, gsize *tmp_bytes,
                 GError **error)
{
  GnnKernelTensor c = *t;
  gsize es = gnn_dtype_get_size (t->dtype);

  *tmp_bytes = (gsize) (t->shape[0] * t->shape[1] * t->shape[2]) * es;
  *tmp = cache_alloc (d, *tmp_bytes, error);
  if (*tmp == NULL)
    return FALSE;
  c.data = *tmp;
  c.strides[2] = 1;
  c.strides[1] = t->shape[2];
  c.strides[0] = t->shape[1] * t->shape[2];
  if (fill)
    {
      GnnKernelArgs args = { 0 };
      args.op = GNN_BACKEND_OP_COPY;
      args.out = &c;
      args.in[0] = t;
      args.n_in = 1;
      if (!gnn_cuda_kernels_run (&d->ctx, &args, error))
        return FALSE;
    }
  *t = c;
  return TRUE;
}

/* run_lock held: out[b] (m, n) = alpha * A[b] (m, k) · B[b] (k, n) + beta * out[b] */
static gboolean
cuda_gemm (GnnCudaBackend *self, CudaDevice *d, const GnnKernelArgs *args, GError **error)
{
  GnnKernelTensor a, b, c;
  gint64 batch, m, n, k, lda, ldb, ldc;
  gboolean ta, tb, tc;
  gpointer tmp[3] = { NULL, NULL, NULL };
  gsize tmp_bytes[3] = { 0, 0, 0 };
  cublasStatus_t st;
  gboolean ok = FALSE;

  if (args->n_in < 2 || args->in[0] == NULL || args->in[1] == NULL || args->out == NULL)
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT, "cuda gemm: expected two inputs and an output");
      return FALSE;
    }
  a = *args->in[0];
  b = *args->in[1];
  c = *args->out;
  if (a.ndim != 3 || b.ndim != 3 || c.ndim != 3 || a.dtype != c.dtype || b.dtype != c.dtype ||
      (c.dtype != GNN_DTYPE_FLOAT32 && c.dtype != GNN_DTYPE_FLOAT64))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED,
                   "The cuda backend has no gemm kernel for dtype %s and %u-d operands "
                   "(expected float32 or float64 3-d views)", gnn_dtype_get_name (c.dtype), c.ndim);
      return FALSE;
    }
  batch = c.shape[0];
  m = c.shape[1];
  n = c.shape[2];
  k = a.shape[2];
  if (a.shape[0] != batch || b.shape[0] != batch || a.shape[1] != m || b.shape[1] != k || b.shape[2] != n)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "cuda gemm: operand shapes (%" G_GINT64_FORMAT ", %" G_GINT64_FORMAT ", %" G_GINT64_FORMAT
                   ") · (%" G_GINT64_FORMAT ", %" G_GINT64_FORMAT ", %" G_GINT64_FORMAT ") do not give (%"
                   G_GINT64_FORMAT ", %" G_GINT64_FORMAT ", %" G_GINT64_FORMAT ")",
                   a.shape[0], a.shape[1], a.shape[2], b.shape[0], b.shape[1], b.shape[2], batch, m, n);
      return FALSE;
    }
  if (batch == 0 || m == 0 || n == 0)
    return TRUE;
  if (MAX (MAX (m, n), MAX (k, batch)) > G_MAXINT)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED,
                   "cuda gemm: sizes above %d are not supported", G_MAXINT);
      return FALSE;
    }

  /* views BLAS cannot read go through contiguous copies (the output is copied back) */
  if (!blas_layout (m, k, a.strides[1], a.strides[2], &ta, &lda) &&
      (!gemm_contiguous (d, &a, TRUE, &tmp[0], &tmp_bytes[0], error) ||
       !blas_layout (m, k, a.strides[1], a.strides[2], &ta, &lda)))
    goto out;
  if (!blas_layout (k, n, b.strides[1], b.strides[2], &tb, &ldb) &&
      (!gemm_contiguous (d, &b, TRUE, &tmp[1], &tmp_bytes[1], error) ||
       !blas_layout (k, n, b.strides[1], b.strides[2], &tb, &ldb)))
    goto out;
  if ((!blas_layout (m, n, c.strides[1], c.strides[2], &tc, &ldc) || c.strides[0] == 0) &&
      (!gemm_contiguous (d, &c, args->params.gemm.beta != 0, &tmp[2], &tmp_bytes[2], error) ||
       !blas_layout (m, n, c.strides[1], c.strides[2], &tc, &ldc)))
    goto out;

  if (k == 0 && args->params.gemm.beta == 0)
    {
      /* nothing to multiply: out = 0 */
      GnnKernelArgs fill = { 0 };
      fill.op = GNN_BACKEND_OP_FILL;
      fill.out = &c;
      if (!gnn_cuda_kernels_run (&d->ctx, &fill, error))
        goto out;
    }
  else if (k == 0 && args->params.gemm.beta == 1)
    ;
  else
    {
      gboolean want_tf32 = g_atomic_int_get (&self->allow_tf32);
      GemmPlan plan;

      if (want_tf32 != d->tf32_mode)
        {
          if (cublas_failed (cublas.set_math_mode (d->cublas, want_tf32 ? CUBLAS_TF32_TENSOR_OP_MATH
                                                                      : CUBLAS_DEFAULT_MATH),
                             error, d->index, "cublasSetMathMode"))
            goto out;
          d->tf32_mode = want_tf32;
        }
      gemm_plan (&a, ta, lda, &b, tb, ldb, tc, m, n, k, &plan);
      if (c.dtype == GNN_DTYPE_FLOAT32)
        {
          float alpha = (float) args->params.gemm.alpha, beta = (float) args->params.gemm.beta;
          if (batch == 1)
            st = cublas.sgemm (d->cublas, plan.opa, plan.opb, (int) plan.m, (int) plan.n, (int) plan.k, &alpha,
                              plan.pa, (int) plan.lda, plan.pb, (int) plan.ldb, &beta, c.data, (int) ldc);
          else
            st = cublas.sgemm_batched (d->cublas, plan.opa, plan.opb, (int) plan.m, (int) plan.n,
                                            (int) plan.k, &alpha, plan.pa, (int) plan.lda, plan.sa, plan.pb,
                                            (int) plan.ldb, plan.sb, &beta, c.data, (int) ldc, c.strides[0],
                                            (int) batch);
        }
      else
        {
          double alpha = args->params.gemm.alpha, beta = args->params.gemm.beta;
          if (batch == 1)
            st = cublas.dgemm (d->cublas, plan.opa, plan.opb, (int) plan.m, (int) plan.n, (int) plan.k, &alpha,
                              plan.pa, (int) plan.lda, plan.pb, (int) plan.ldb, &beta, c.data, (int) ldc);
          else
            st = cublas.dgemm_batched (d->cublas, plan.opa, plan.opb, (int) plan.m, (int) plan.n,
                                            (int) plan.k, &alpha, plan.pa, (int) plan.lda, plan.sa, plan.pb,
                                            (int) plan.ldb, plan.sb, &beta, c.data, (int) ldc, c.strides[0],
                                            (int) batch);
        }
      if (cublas_failed (st, error, d->index, "gemm (cuBLAS)"))
        goto out;
    }

  if (tmp[2] != NULL)
    {
      /* back into the caller's view */
      GnnKernelArgs back = { 0 };
      back.op = GNN_BACKEND_OP_COPY;
      back.out = args->out;
      back.in[0] = &c;
      back.n_in = 1;
      if (!gnn_cuda_kernels_run (&d->ctx, &back, error))
        goto out;
    }
  ok = TRUE;

out:
  /* stream order keeps the temporaries alive until the kernels that read them have run */
  for (guint i = 0; i < 3; i++)
    cache_free (d, tmp[i], tmp_bytes[i]);
  return ok;
}

static gboolean
cuda_run (GnnBackend          *backend,
          guint                device,
          const GnnKernelArgs *args,
          GError             **error)
{
  GnnCudaBackend *self = GNN_CUDA_BACKEND (backend);
  CudaDevice *d = device_get (self, device, error);
  gboolean ok;

  if (d == NULL)
    return FALSE;
  g_mutex_lock (&d->run_lock);
  if (args->op == GNN_BACKEND_OP_GEMM)
    ok = cuda_gemm (self, d, args, error);
  else
    ok = gnn_cuda_kernels_run (&d->ctx, args, error);
  g_mutex_unlock (&d->run_lock);
  return ok;
}

static const GnnBackendFuncs cuda_funcs = {
  .alloc = cuda_alloc,
  .free = cuda_free,
  .copy_from_host = cuda_copy_from_host,
  .copy_to_host = cuda_copy_to_host,
  .copy_device = cuda_copy_device,
  .run = cuda_run,
  .is_host = FALSE,
};

/* ---- GnnBackend --------------------------------------------------------------------- */

static const char *
cuda_get_name (GnnBackend *backend)
{
  return "cuda";
}

static const char *
cuda_get_device_type (GnnBackend *backend)
{
  return "cuda";
}

static guint
cuda_get_device_count (GnnBackend *backend)
{
  GnnCudaBackend *self = GNN_CUDA_BACKEND (backend);

  if (!g_atomic_int_get (&self->counted))
    count_devices (self);
  return (guint) self->n_devices;
}

static char *
cuda_get_device_description (GnnBackend *backend,
                             guint       index)
{
  struct cudaDeviceProp prop;
  int runtime = 0, driver = 0;
  cudaError_t err;

  err = cudaGetDeviceProperties (&prop, (int) index);
  if (err != cudaSuccess)
    {
      cudaGetLastError ();
      return g_strdup_printf ("(unreadable: %s)", cudaGetErrorString (err));
    }
  cudaRuntimeGetVersion (&runtime);
  cudaDriverGetVersion (&driver);
  return g_strdup_printf ("%s, compute capability %d.%d, %d SMs, %.1f GiB, driver CUDA %d.%d, "
                          "runtime %d.%d, cuBLAS gemm",
                          prop.name, prop.major, prop.minor, prop.multiProcessorCount,
                          prop.totalGlobalMem / (1024.0 * 1024.0 * 1024.0),
                          driver / 1000, (driver % 1000) / 10, runtime / 1000, (runtime % 1000) / 10);
}

static gboolean
cuda_get_memory_info (GnnBackend *backend,
                      guint       index,
                      guint64    *free_bytes,
                      guint64    *total_bytes,
                      GError    **error)
{
  size_t f = 0, t = 0;

  if (device_get (GNN_CUDA_BACKEND (backend), index, error) == NULL ||
      cuda_failed (cudaMemGetInfo (&f, &t), error, GNN_ERROR_BACKEND, index, "cudaMemGetInfo"))
    return FALSE;
  *free_bytes = f;
  *total_bytes = t;
  return TRUE;
}

static gboolean
cuda_supports_op (GnnBackend  *backend,
                  GnnBackendOp op,
                  GnnDtype     dtype)
{
  /* GEMM is cuBLAS, float32 and float64 as the op table says; the .cu kernels say for the rest */
  if (op == GNN_BACKEND_OP_GEMM)
    return gnn_backend_op_supported_with (op, dtype, NULL, 0);
  return gnn_cuda_kernels_supports (op, dtype);
}

static gboolean
cuda_synchronize (GnnBackend *backend,
                  guint       index,
                  GError    **error)
{
  CudaDevice *d = device_get (GNN_CUDA_BACKEND (backend), index, error);

  if (d == NULL)
    return FALSE;
  return !cuda_failed (cudaStreamSynchronize (d->stream), error, GNN_ERROR_BACKEND, index,
                       "synchronize (an earlier kernel may have failed)");
}

static const GnnBackendFuncs *
cuda_get_funcs (GnnBackend *backend)
{
  return &cuda_funcs;
}

/* ---- the profiler's device times: CUDA events on the device's stream ---------------- */

/* A mark is a cudaEvent_t (with timing) recorded on the stream, in order with the kernels
 * queued there; recording does not wait. Freed events are kept for the next marks, as
 * creating one costs more than recording it. */
static gpointer
cuda_timing_mark_record (GnnBackend *backend,
                         guint       index)
{
  CudaDevice *d = device_get (GNN_CUDA_BACKEND (backend), index, NULL);
  cudaEvent_t ev = NULL;

  if (d == NULL)
    return NULL;
  g_mutex_lock (&d->timing_lock);
  if (d->timing_events && d->timing_events->len > 0)
    ev = g_ptr_array_steal_index_fast (d->timing_events, d->timing_events->len - 1);
  g_mutex_unlock (&d->timing_lock);
  if (ev == NULL && cudaEventCreateWithFlags (&ev, cudaEventDefault) != cudaSuccess)
    {
      cudaGetLastError ();
      return NULL;
    }
  if (cudaEventRecord (ev, d->stream) != cudaSuccess)
    {
      cudaGetLastError ();
      cudaEventDestroy (ev);
      return NULL;
    }
  return ev;
}

static gboolean
cuda_timing_mark_elapsed (GnnBackend *backend,
                          guint       index,
                          gpointer    from,
                          gpointer    to,
                          gint64     *elapsed_ns,
                          GError    **error)
{
  float ms = 0;

  if (!set_device (index, error) ||
      cuda_failed (cudaEventSynchronize ((cudaEvent_t) to), error, GNN_ERROR_BACKEND, index,
                   "waiting for a timing event") ||
      cuda_failed (cudaEventElapsedTime (&ms, (cudaEvent_t) from, (cudaEvent_t) to), error,
                   GNN_ERROR_BACKEND, index, "cudaEventElapsedTime"))
    return FALSE;
  *elapsed_ns = (gint64) ((double) ms * 1e6 + 0.5);
  return TRUE;
}

static void
cuda_timing_mark_free (GnnBackend *backend,
                       guint       index,
                       gpointer    mark)
{
  GnnCudaBackend *self = GNN_CUDA_BACKEND (backend);
  CudaDevice *d;

  if (mark == NULL || index >= (guint) self->n_devices)
    return;
  d = &self->devices[index];
  g_mutex_lock (&d->timing_lock);
  if (d->timing_events == NULL)
    d->timing_events = g_ptr_array_new ();
  g_ptr_array_add (d->timing_events, mark);
  g_mutex_unlock (&d->timing_lock);
}

static void
gnn_cuda_backend_iface_init (GnnBackendInterface *iface)
{
  iface->get_name = cuda_get_name;
  iface->get_device_type = cuda_get_device_type;
  iface->get_device_count = cuda_get_device_count;
  iface->get_device_description = cuda_get_device_description;
  iface->get_memory_info = cuda_get_memory_info;
  iface->supports_op = cuda_supports_op;
  iface->synchronize = cuda_synchronize;
  iface->get_funcs = cuda_get_funcs;
  iface->timing_mark_record = cuda_timing_mark_record;
  iface->timing_mark_elapsed = cuda_timing_mark_elapsed;
  iface->timing_mark_free = cuda_timing_mark_free;
}

G_DEFINE_FINAL_TYPE_WITH_CODE (GnnCudaBackend, gnn_cuda_backend, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (GNN_TYPE_BACKEND, gnn_cuda_backend_iface_init))

/* the sum of a per-device counter (each read under its device's lock) */
static guint64
sum_devices (GnnCudaBackend *self, gsize member_offset)
{
  guint64 total = 0;

  if (!g_atomic_int_get (&self->counted))
    return 0;
  for (int i = 0; i < self->n_devices; i++)
    {
      CudaDevice *d = &self->devices[i];
      g_mutex_lock (&d->alloc_lock);
      total += G_STRUCT_MEMBER (guint64, d, member_offset);
      g_mutex_unlock (&d->alloc_lock);
    }
  return total;
}

static void
gnn_cuda_backend_get_property (GObject    *object,
                               guint       prop_id,
                               GValue     *value,
                               GParamSpec *pspec)
{
  GnnCudaBackend *self = GNN_CUDA_BACKEND (object);

  switch (prop_id)
    {
    case PROP_ALLOW_TF32:
      g_value_set_boolean (value, g_atomic_int_get (&self->allow_tf32));
      break;
    case PROP_HOST_TRANSFERS:
      g_value_set_uint64 (value, __atomic_load_n (&self->host_transfers, __ATOMIC_RELAXED));
      break;
    case PROP_DEVICE_ALLOCATIONS:
      g_value_set_uint64 (value, sum_devices (self, G_STRUCT_OFFSET (CudaDevice, device_allocations)));
      break;
    case PROP_ALLOCATED_BYTES:
      g_value_set_uint64 (value, sum_devices (self, G_STRUCT_OFFSET (CudaDevice, allocated_bytes)));
      break;
    case PROP_RESERVED_BYTES:
      g_value_set_uint64 (value, sum_devices (self, G_STRUCT_OFFSET (CudaDevice, reserved_bytes)));
      break;
    case PROP_STATUS:
      if (!g_atomic_int_get (&self->counted))
        count_devices (self);
      g_value_set_string (value, self->status);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
gnn_cuda_backend_set_property (GObject      *object,
                               guint         prop_id,
                               const GValue *value,
                               GParamSpec   *pspec)
{
  GnnCudaBackend *self = GNN_CUDA_BACKEND (object);

  switch (prop_id)
    {
    case PROP_ALLOW_TF32:
      {
        gboolean v = g_value_get_boolean (value);
        if (g_atomic_int_get (&self->allow_tf32) == v)
          return;
        g_atomic_int_set (&self->allow_tf32, v);
        g_object_notify_by_pspec (object, pspec);
      }
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
gnn_cuda_backend_finalize (GObject *object)
{
  GnnCudaBackend *self = GNN_CUDA_BACKEND (object);

  /* the registry keeps backends for the life of the process; at exit the driver frees the
   * device memory, so only host-side bookkeeping goes here */
  for (int i = 0; g_atomic_int_get (&self->counted) && i < self->n_devices; i++)
    {
      CudaDevice *d = &self->devices[i];
      g_clear_pointer (&d->free_blocks, g_hash_table_unref);
      g_clear_error (&d->init_error);
      g_mutex_clear (&d->alloc_lock);
      g_mutex_clear (&d->run_lock);
      g_mutex_clear (&d->copy_lock);
      g_mutex_clear (&d->timing_lock);
      /* the events themselves go with the context, as the device memory does */
      g_clear_pointer (&d->timing_events, g_ptr_array_unref);
    }
  g_free (self->devices);
  g_free (self->status);
  g_mutex_clear (&self->init_lock);
  G_OBJECT_CLASS (gnn_cuda_backend_parent_class)->finalize (object);
}

static void
gnn_cuda_backend_class_init (GnnCudaBackendClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->get_property = gnn_cuda_backend_get_property;
  object_class->set_property = gnn_cuda_backend_set_property;
  object_class->finalize = gnn_cuda_backend_finalize;

  /**
   * GnnCudaBackend:allow-tf32:
   *
   * Whether float32 gemm may use TF32 tensor cores (`torch.backends.cuda.matmul.allow_tf32`):
   * faster, with a 10-bit mantissa in the products. The default is the environment variable
   * `GNN_CUDA_ALLOW_TF32=1`, else %FALSE.
   */
  properties[PROP_ALLOW_TF32] =
    g_param_spec_boolean ("allow-tf32", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  /**
   * GnnCudaBackend:host-transfers:
   *
   * How many host↔device copies (copy_from_host and copy_to_host calls) the backend made.
   */
  properties[PROP_HOST_TRANSFERS] =
    g_param_spec_uint64 ("host-transfers", NULL, NULL, 0, G_MAXUINT64, 0,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  /**
   * GnnCudaBackend:device-allocations:
   *
   * How many times the caching allocator called cudaMalloc, over all devices.
   */
  properties[PROP_DEVICE_ALLOCATIONS] =
    g_param_spec_uint64 ("device-allocations", NULL, NULL, 0, G_MAXUINT64, 0,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  /**
   * GnnCudaBackend:allocated-bytes:
   *
   * Device memory handed out to tensors, over all devices (`torch.cuda.memory_allocated`).
   */
  properties[PROP_ALLOCATED_BYTES] =
    g_param_spec_uint64 ("allocated-bytes", NULL, NULL, 0, G_MAXUINT64, 0,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  /**
   * GnnCudaBackend:reserved-bytes:
   *
   * Device memory the allocator holds, in use or cached (`torch.cuda.memory_reserved`).
   */
  properties[PROP_RESERVED_BYTES] =
    g_param_spec_uint64 ("reserved-bytes", NULL, NULL, 0, G_MAXUINT64, 0,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  /**
   * GnnCudaBackend:status:
   *
   * Why the backend sees no device ("no NVIDIA driver was found", ...); empty when it sees one.
   */
  properties[PROP_STATUS] =
    g_param_spec_string ("status", NULL, NULL, "",
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
gnn_cuda_backend_init (GnnCudaBackend *self)
{
  g_mutex_init (&self->init_lock);
  self->allow_tf32 = g_strcmp0 (g_getenv ("GNN_CUDA_ALLOW_TF32"), "1") == 0;
}

#if !GNN_CUDA_HAVE_KERNELS
/* built without the .cu kernels: only GEMM exists, every other op is refused */
gboolean
gnn_cuda_kernels_supports (GnnBackendOp op,
                           GnnDtype     dtype)
{
  return FALSE;
}

gboolean
gnn_cuda_kernels_run (GnnCudaContext      *ctx,
                      const GnnKernelArgs *args,
                      GError             **error)
{
  g_set_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED,
               "The cuda backend was built without its kernels: no %s kernel",
               gnn_backend_op_get_nick (args->op));
  return FALSE;
}
#endif

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
 * Registers the CUDA backend's type and implements the extension point
 * %GNN_BACKEND_EXTENSION_POINT_NAME as "cuda", priority 10: the backend of the "cuda"
 * device type. Devices are looked for on first use, so loading the module costs nothing on
 * a machine without a GPU.
 */
G_MODULE_EXPORT void gnn_backend_module_register (void);

void
gnn_backend_module_register (void)
{
  g_io_extension_point_implement (GNN_BACKEND_EXTENSION_POINT_NAME, GNN_TYPE_CUDA_BACKEND, "cuda", 10);
}
