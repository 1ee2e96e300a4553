/* fake-cuda-backend.c: a stand-in for the CUDA backend on machines without a GPU
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * A test-only backend module serving the "cuda" device type with two devices whose memory
 * the host cannot read: allocations are host memory, but the pointers handed out are moved
 * by FAKE_OFFSET into the non-canonical half of the address space, so that any place in gnn
 * that dereferences device memory instead of going through copy_to_host / copy_from_host
 * crashes at once. Kernels translate the pointers back and run the built-in CPU kernels.
 * It has the real CUDA backend's test-facing properties ("host-transfers",
 * "device-allocations", "allow-tf32", "status") and a caching allocator, so that
 * tests/c/test-cuda.c runs the same checks here as on a GPU (numbers aside).
 *
 * Each device has a fake clock for the profiler's device times (the timing marks of
 * gnn-backend-impl.h): it stands still but in kernels, each of which advances it by
 * FAKE_KERNEL_NS (op), so that the times a profile reads are known in advance.
 */
#include <stdlib.h>
#include <string.h>

#include <gio/gio.h>
#include <gmodule.h>

#include <gnn/gnn.h>
#include <gnn/backend/gnn-backend-impl.h>

/* adds 2^62: a user-space address becomes non-canonical, and faults when dereferenced */
#define FAKE_OFFSET ((guintptr) 1 << 62)
#define N_FAKE_DEVICES 2

/* the fake device time of one kernel: 1 µs, plus 0.1 µs for each step of the op's number mod 7 */
#define FAKE_KERNEL_NS(op) (1000 + 100 * ((guint) (op) % 7))

#define GNN_TYPE_FAKE_CUDA_BACKEND (gnn_fake_cuda_backend_get_type ())
G_DECLARE_FINAL_TYPE (GnnFakeCudaBackend, gnn_fake_cuda_backend, GNN, FAKE_CUDA_BACKEND, GObject)

struct _GnnFakeCudaBackend
{
  GObject parent_instance;
  GMutex lock;
  GHashTable *free_blocks[N_FAKE_DEVICES];   /* nbytes → GPtrArray of real pointers */
  GPtrArray *blocks;                         /* every real pointer, so valgrind sees them */
  guint64 host_transfers;
  guint64 device_allocations;
  gboolean allow_tf32;
  guint64 clock_ns[N_FAKE_DEVICES];          /* the fake device clocks (lock) */
};

/* a timing mark: the clock of its device when it was queued */
typedef struct {
  guint64 clock_ns;
} FakeMark;

enum {
  PROP_0,
  PROP_ALLOW_TF32,
  PROP_HOST_TRANSFERS,
  PROP_DEVICE_ALLOCATIONS,
  PROP_STATUS,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static inline gpointer
real_ptr (gconstpointer fake)
{
  return fake ? (gpointer) ((guintptr) fake - FAKE_OFFSET) : NULL;
}

static GnnBackend *
cpu_backend (void)
{
  static GnnBackend *cpu;

  if (g_once_init_enter (&cpu))
    g_once_init_leave (&cpu, gnn_backend_get_by_name ("cpu", NULL));
  return cpu;
}

static const GnnBackendFuncs *
cpu_funcs (void)
{
  GnnBackend *cpu = cpu_backend ();
  return GNN_BACKEND_GET_IFACE (cpu)->get_funcs (cpu);
}

static gpointer
fake_alloc (GnnBackend *backend, guint device, gsize nbytes, GError **error)
{
  GnnFakeCudaBackend *self = GNN_FAKE_CUDA_BACKEND (backend);
  GPtrArray *list;
  gpointer p;

  g_mutex_lock (&self->lock);
  list = g_hash_table_lookup (self->free_blocks[device], GSIZE_TO_POINTER (nbytes));
  if (list && list->len > 0)
    {
      p = g_ptr_array_steal_index_fast (list, list->len - 1);
      g_mutex_unlock (&self->lock);
      return (gpointer) ((guintptr) p + FAKE_OFFSET);
    }
  p = g_try_malloc (MAX (nbytes, 1));
  if (p == NULL)
    {
      g_mutex_unlock (&self->lock);
      g_set_error (error, GNN_ERROR, GNN_ERROR_OUT_OF_MEMORY, "fake cuda: out of memory");
      return NULL;
    }
  self->device_allocations++;
  g_ptr_array_add (self->blocks, p);
  g_mutex_unlock (&self->lock);
  return (gpointer) ((guintptr) p + FAKE_OFFSET);
}

static void
fake_free (GnnBackend *backend, guint device, gpointer ptr, gsize nbytes)
{
  GnnFakeCudaBackend *self = GNN_FAKE_CUDA_BACKEND (backend);
  GPtrArray *list;

  g_mutex_lock (&self->lock);
  list = g_hash_table_lookup (self->free_blocks[device], GSIZE_TO_POINTER (nbytes));
  if (list == NULL)
    {
      list = g_ptr_array_new ();
      g_hash_table_insert (self->free_blocks[device], GSIZE_TO_POINTER (nbytes), list);
    }
  g_ptr_array_add (list, real_ptr (ptr));
  g_mutex_unlock (&self->lock);
}

static gboolean
fake_copy_from_host (GnnBackend *backend, guint device, gpointer dst, gconstpointer src, gsize nbytes,
                     GError **error)
{
  __atomic_fetch_add (&GNN_FAKE_CUDA_BACKEND (backend)->host_transfers, 1, __ATOMIC_RELAXED);
  memmove (real_ptr (dst), src, nbytes);
  return TRUE;
}

static gboolean
fake_copy_to_host (GnnBackend *backend, guint device, gpointer dst, gconstpointer src, gsize nbytes,
                   GError **error)
{
  __atomic_fetch_add (&GNN_FAKE_CUDA_BACKEND (backend)->host_transfers, 1, __ATOMIC_RELAXED);
  memmove (dst, real_ptr (src), nbytes);
  return TRUE;
}

static gboolean
fake_copy_device (GnnBackend *backend, guint device, gpointer dst, gconstpointer src, gsize nbytes,
                  GError **error)
{
  memmove (real_ptr (dst), real_ptr (src), nbytes);
  return TRUE;
}

static gboolean
fake_run (GnnBackend *backend, guint device, const GnnKernelArgs *args, GError **error)
{
  GnnKernelArgs a = *args;
  GnnKernelTensor out, out2, in[3], side[5];
  g_autofree GnnKernelTensor *lo = NULL, *li = NULL;

  if (args->out)
    {
      out = *args->out;
      out.data = real_ptr (out.data);
      a.out = &out;
    }
  if (args->out2)
    {
      out2 = *args->out2;
      out2.data = real_ptr (out2.data);
      a.out2 = &out2;
    }
  for (guint k = 0; k < 3; k++)
    if (args->in[k])
      {
        in[k] = *args->in[k];
        in[k].data = real_ptr (in[k].data);
        a.in[k] = &in[k];
      }
  if (args->n_list > 0)
    {
      lo = g_new (GnnKernelTensor, args->n_list);
      li = g_new (GnnKernelTensor, args->n_list);
      for (guint j = 0; j < args->n_list; j++)
        {
          lo[j] = args->list_out[j];
          lo[j].data = real_ptr (lo[j].data);
          li[j] = args->list_in[j];
          li[j].data = real_ptr (li[j].data);
        }
      a.list_out = lo;
      a.list_in = li;
    }
  if (args->op == GNN_BACKEND_OP_ATTENTION || args->op == GNN_BACKEND_OP_ATTENTION_BACKWARD)
    {
      /* the attention kernels' operands beyond in, out and out2 */
      GnnKernelAttention *at = &a.params.attention;
      const GnnKernelTensor **ops[4] = { &at->mask, &at->v, &at->o, &at->lse };

      for (guint k = 0; k < 4; k++)
        if (*ops[k])
          {
            side[k] = **ops[k];
            side[k].data = real_ptr (side[k].data);
            *ops[k] = &side[k];
          }
      if (at->dv)
        {
          side[4] = *at->dv;
          side[4].data = real_ptr (side[4].data);
          at->dv = &side[4];
        }
    }
  {
    GnnFakeCudaBackend *self = GNN_FAKE_CUDA_BACKEND (backend);

    g_mutex_lock (&self->lock);
    self->clock_ns[device % N_FAKE_DEVICES] += FAKE_KERNEL_NS (args->op);
    g_mutex_unlock (&self->lock);
  }
  return cpu_funcs ()->run (cpu_backend (), 0, &a, error);
}

static const GnnBackendFuncs fake_funcs = {
  .alloc = fake_alloc,
  .free = fake_free,
  .copy_from_host = fake_copy_from_host,
  .copy_to_host = fake_copy_to_host,
  .copy_device = fake_copy_device,
  .run = fake_run,
  .is_host = FALSE,
};

static const char *
fake_get_name (GnnBackend *self)
{
  return "fakecuda";
}

static const char *
fake_get_device_type (GnnBackend *self)
{
  return "cuda";
}

static guint
fake_get_device_count (GnnBackend *self)
{
  return N_FAKE_DEVICES;
}

static char *
fake_get_device_description (GnnBackend *self, guint index)
{
  return g_strdup ("fake CUDA device for tests: host memory behind unreadable pointers, CPU kernels");
}

static gboolean
fake_get_memory_info (GnnBackend *self, guint index, guint64 *free_bytes, guint64 *total_bytes, GError **error)
{
  *free_bytes = G_GUINT64_CONSTANT (1) << 30;
  *total_bytes = G_GUINT64_CONSTANT (2) << 30;
  return TRUE;
}

static gboolean
fake_supports_op (GnnBackend *self, GnnBackendOp op, GnnDtype dtype)
{
  return gnn_backend_supports_op (cpu_backend (), op, dtype);
}

static gboolean
fake_synchronize (GnnBackend *self, guint index, GError **error)
{
  return TRUE;
}

static const GnnBackendFuncs *
fake_get_funcs (GnnBackend *self)
{
  return &fake_funcs;
}

static gpointer
fake_timing_mark_record (GnnBackend *backend, guint index)
{
  GnnFakeCudaBackend *self = GNN_FAKE_CUDA_BACKEND (backend);
  FakeMark *mark;

  if (index >= N_FAKE_DEVICES)
    return NULL;
  mark = g_new (FakeMark, 1);
  g_mutex_lock (&self->lock);
  mark->clock_ns = self->clock_ns[index];
  g_mutex_unlock (&self->lock);
  return mark;
}

static gboolean
fake_timing_mark_elapsed (GnnBackend *backend, guint index, gpointer from, gpointer to, gint64 *elapsed_ns,
                          GError **error)
{
  *elapsed_ns = (gint64) (((FakeMark *) to)->clock_ns - ((FakeMark *) from)->clock_ns);
  return TRUE;
}

static void
fake_timing_mark_free (GnnBackend *backend, guint index, gpointer mark)
{
  g_free (mark);
}

static void
gnn_fake_cuda_backend_iface_init (GnnBackendInterface *iface)
{
  iface->get_name = fake_get_name;
  iface->get_device_type = fake_get_device_type;
  iface->get_device_count = fake_get_device_count;
  iface->get_device_description = fake_get_device_description;
  iface->get_memory_info = fake_get_memory_info;
  iface->supports_op = fake_supports_op;
  iface->synchronize = fake_synchronize;
  iface->get_funcs = fake_get_funcs;
  iface->timing_mark_record = fake_timing_mark_record;
  iface->timing_mark_elapsed = fake_timing_mark_elapsed;
  iface->timing_mark_free = fake_timing_mark_free;
}

G_DEFINE_FINAL_TYPE_WITH_CODE (GnnFakeCudaBackend, gnn_fake_cuda_backend, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (GNN_TYPE_BACKEND, gnn_fake_cuda_backend_iface_init))

static void
gnn_fake_cuda_backend_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  GnnFakeCudaBackend *self = GNN_FAKE_CUDA_BACKEND (object);

  switch (prop_id)
    {
    case PROP_ALLOW_TF32:
      g_value_set_boolean (value, self->allow_tf32);
      break;
    case PROP_HOST_TRANSFERS:
      g_value_set_uint64 (value, __atomic_load_n (&self->host_transfers, __ATOMIC_RELAXED));
      break;
    case PROP_DEVICE_ALLOCATIONS:
      g_mutex_lock (&self->lock);
      g_value_set_uint64 (value, self->device_allocations);
      g_mutex_unlock (&self->lock);
      break;
    case PROP_STATUS:
      g_value_set_string (value, "");
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
gnn_fake_cuda_backend_set_property (GObject *object, guint prop_id, const GValue *value, GParamSpec *pspec)
{
  GnnFakeCudaBackend *self = GNN_FAKE_CUDA_BACKEND (object);

  switch (prop_id)
    {
    case PROP_ALLOW_TF32:
      if (self->allow_tf32 != g_value_get_boolean (value))
        {
          self->allow_tf32 = g_value_get_boolean (value);
          g_object_notify_by_pspec (object, pspec);
        }
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
gnn_fake_cuda_backend_class_init (GnnFakeCudaBackendClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->get_property = gnn_fake_cuda_backend_get_property;
  object_class->set_property = gnn_fake_cuda_backend_set_property;
  properties[PROP_ALLOW_TF32] =
    g_param_spec_boolean ("allow-tf32", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_HOST_TRANSFERS] =
    g_param_spec_uint64 ("host-transfers", NULL, NULL, 0, G_MAXUINT64, 0, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_DEVICE_ALLOCATIONS] =
    g_param_spec_uint64 ("device-allocations", NULL, NULL, 0, G_MAXUINT64, 0, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_STATUS] =
    g_param_spec_string ("status", NULL, NULL, "", G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
gnn_fake_cuda_backend_init (GnnFakeCudaBackend *self)
{
  g_mutex_init (&self->lock);
  self->blocks = g_ptr_array_new ();
  for (guint i = 0; i < N_FAKE_DEVICES; i++)
    self->free_blocks[i] = g_hash_table_new_full (NULL, NULL, NULL, (GDestroyNotify) g_ptr_array_unref);
}

G_MODULE_EXPORT const guint gnn_backend_module_api_version = GNN_BACKEND_API_VERSION;
G_MODULE_EXPORT void gnn_backend_module_register (void);

void
gnn_backend_module_register (void)
{
  g_io_extension_point_implement (GNN_BACKEND_EXTENSION_POINT_NAME, GNN_TYPE_FAKE_CUDA_BACKEND, "fakecuda", 5);
}
