/* gnn-profiler.c: the profiler (torch.profiler)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * One profiler records at a time. Kernel calls reach it through an op observer
 * (gnn-backend-private.h); modules, autograd nodes, optimizers and record_function open and
 * close ranges through gnn-profiler-private.h, each behind one atomic read of
 * gnn_profiler_active. Every thread keeps the stack of the ranges it has open, so that an event's
 * parent is the innermost range open on its own thread when it began. Events are appended under
 * record_lock; only the thread that opened an event writes its end, and the profiler reads them
 * all once it stopped.
 */
#include "config.h"

#include <string.h>
#include <math.h>
#include <time.h>

#include "gnn-profiler-private.h"
#include "core/gnn-error.h"
#include "core/gnn-dtype.h"
#include "backend/gnn-backend.h"
#include "backend/gnn-backend-private.h"

#include <json-glib/json-glib.h>
#include <unistd.h>

typedef struct _EventBlock EventBlock;

struct _GnnProfilerEvent {
  gatomicrefcount ref;
  GnnProfilerEventKind kind;
  const char *name;             /* interned, or owned_name */
  char *owned_name;             /* a user or step range's own copy */
  EventBlock *block;            /* the block it was allocated in */
  guint id;
  gint64 parent_id;             /* -1: none */
  gint64 start_ns, end_ns;      /* absolute CLOCK_MONOTONIC; end 0 while open */
  gint64 child_ns;              /* the durations of its children, summed at stop */
  gint64 device_ns;             /* a kernel's device time; a range's, its kernels' summed */
  gint64 device_start_ns;       /* a kernel's device start, from the profile's start; -1: none */
  guint64 flops;
  char *input_shapes;           /* "[[2, 3], [3, 4]]" or NULL */
  const char *dtype;            /* static, or NULL */
  const char *backend;          /* static while the backend lives, or NULL */
  const char *device;           /* "cpu:0" (interned) or NULL */
  guint thread;
  gint64 origin_ns;             /* the profile's start */
  gint64 self_mem[2];           /* profile_memory: bytes allocated less freed in it, not in a
                                 * child; [0] on the CPU, [1] on a device */
  gint64 mem[2];                /* the same with its children's, summed at stop */
  /* while recording only */
  GnnModule *module;            /* of a module range, not referenced: its forward runs */
  guint device_index;           /* a kernel's device index */
  GnnBackend *mark_backend;     /* a kernel's device timing marks, read at stop */
  guint mark_device;
  gpointer mark_start, mark_end;
  const char *path;             /* of a module range (interned): "" for a root */
};

/* Events are allocated EVENT_BLOCK at a time. A block lives while its profiler keeps its
 * events (one reference, the profiler's) and while any of its events is referenced elsewhere
 * after that: when the profiler drops its events, each one still referenced takes a reference
 * on its block, which its last unref gives back. So recording an event touches no atomic. */
#define EVENT_BLOCK 512

struct _EventBlock {
  gatomicrefcount live;
  guint used;
  GnnProfilerEvent events[EVENT_BLOCK];
};

static void
event_block_release (EventBlock *block)
{
  if (g_atomic_ref_count_dec (&block->live))
    g_free (block);
}

struct _GnnProfiler {
  GObject parent_instance;
  gboolean record_shapes;
  gboolean with_flops;
  gboolean active;               /* started, not stopped */
  gboolean recording;            /* this step records */
  guint observer;
  gboolean has_schedule;
  guint wait, warmup, active_steps, repeat, skip_first;
  guint step_num;
  GnnProfilerAction action;
  gpointer step_range;           /* the open ProfilerStep#N */
  gint64 start_ns;
  gint64 stop_ns;
  GPtrArray *events;            /* of GnnProfilerEvent, in the order they began */
  EventBlock *block;            /* while recording: where the next event goes */
  GPtrArray *blocks;            /* the blocks of the events, one reference each */
  GHashTable *module_names;     /* while recording: GnnModule → ModuleName */
  GArray *device_origins;       /* while recording: DeviceOrigin, one per timed device */
  gboolean has_device_times;    /* some kernel of the last profile has a device time */
  gboolean profile_memory;
  gboolean memory_recorded;     /* the last profile recorded memory */
  GArray *mem_records;          /* of MemRecord, in the order they happened */
  GArray *mem_totals;           /* while recording: MemTotal, one per device */
};

/* one allocation (bytes > 0) or free (bytes < 0) of a storage, profile_memory */
typedef struct {
  gint64 ts_ns;                 /* absolute */
  guint64 addr;
  gint64 bytes;
  gint64 total;                 /* the device's bytes allocated less freed in the profile, after */
  gint64 event_id;              /* the event it counts to; -1: none ("[memory]") */
  guint thread;
  guint device;
  gboolean on_device;           /* not on the CPU (torch's CUDA memory) */
} MemRecord;

typedef struct {
  gboolean on_device;
  guint device;
  gint64 total;
} MemTotal;

/* the first timing mark of a device in a profile, and the host time it was queued at: the
 * device times of its kernels count from there */
typedef struct {
  GnnBackend *backend;
  guint device;
  gpointer mark;
  gint64 host_ns;
} DeviceOrigin;

/* a module range's name as the profile first named it, under its parent range */
typedef struct {
  GType type;
  GnnModule *parent_module;
  const char *parent_path;
  const char *path, *name;      /* interned */
} ModuleName;

enum {
  PROP_0,
  PROP_RECORD_SHAPES,
  PROP_WITH_FLOPS,
  PROP_ACTIVE,
  PROP_PROFILE_MEMORY,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

enum {
  SIGNAL_TRACE_READY,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (GnnProfiler, gnn_profiler, G_TYPE_OBJECT)


/* the recording profiler, and the generation of the profile it records: a thread's stack from
 * an older one is stale */
static GMutex record_lock;
static GnnProfiler *recording;
static guint generation;
static guint last_thread;

typedef struct {
  guint tid;
  guint generation;
  GPtrArray *stack;             /* open ranges of that generation (not owned) */
  GnnProfilerEvent *kernel;     /* the kernel between its BEFORE and AFTER events */
  GPtrArray *user;              /* per open record_function: its token or NULL */
  const char *device_type;      /* the last kernel's device, and its name */
  guint device_index;
  const char *device_name;
  GnnBackend *timing_backend;   /* the last kernel's backend, its name and its timing marks */
  const char *backend_name;
  GnnBackendInterface *timing;
  struct {                      /* node names as given and interned, by the given pointer */
    const char *given, *interned;
  } node_names[16];
  GArray *pending;              /* profile_memory: the allocations since the thread's last
                                 * kernel or range change, made outside any kernel (guint) */
} ThreadState;

static void
thread_state_free (gpointer data)
{
  ThreadState *ts = data;

  g_ptr_array_unref (ts->stack);
  g_ptr_array_unref (ts->user);
  g_array_unref (ts->pending);
  g_free (ts);
}

static GPrivate thread_state = G_PRIVATE_INIT (thread_state_free);

static ThreadState *
get_thread_state (void)
{
  ThreadState *ts = g_private_get (&thread_state);

  if (G_UNLIKELY (ts == NULL))
    {
      ts = g_new0 (ThreadState, 1);
      ts->tid = g_atomic_int_add (&last_thread, 1) + 1;
      ts->stack = g_ptr_array_new ();
      ts->user = g_ptr_array_new ();
      ts->pending = g_array_new (FALSE, FALSE, sizeof (guint));
      g_private_set (&thread_state, ts);
    }
  return ts;
}

static gint64
now_ns (void)
{
  struct timespec t;

  clock_gettime (CLOCK_MONOTONIC, &t);
  return (gint64) t.tv_sec * G_GINT64_CONSTANT (1000000000) + t.tv_nsec;
}

/* ---- events --------------------------------------------------------------------------- */

G_DEFINE_BOXED_TYPE (GnnProfilerEvent, gnn_profiler_event, gnn_profiler_event_ref, gnn_profiler_event_unref)

/**
 * gnn_profiler_event_ref:
 * @event: an event
 *
 * Takes a reference to @event.
 *
 * Returns: (transfer full): @event
 *
 * Since: 0.1
 */
GnnProfilerEvent *
gnn_profiler_event_ref (GnnProfilerEvent *event)
{
  g_return_val_if_fail (event != NULL, NULL);
  g_atomic_ref_count_inc (&event->ref);
  return event;
}

/**
 * gnn_profiler_event_unref:
 * @event: (transfer full): an event
 *
 * Drops a reference to @event.
 *
 * Since: 0.1
 */
void
gnn_profiler_event_unref (GnnProfilerEvent *event)
{
  g_return_if_fail (event != NULL);
  if (!g_atomic_ref_count_dec (&event->ref))
    return;
  g_free (event->owned_name);
  g_free (event->input_shapes);
  event_block_release (event->block);
}

/**
 * gnn_profiler_event_get_name:
 * @event: an event
 *
 * The event's name (torch's `FunctionEvent.name`): a kernel's op nick (`gemm`, `add`,
 * `log-softmax`: gnn records the backend kernels, which are finer than torch's `aten::` ops,
 * so their own names are kept), `features.0 (Conv2d)` for a module's forward and
 * `features.0 (Conv2d) backward` for its backward, the node's name (`MmBackward0`) for a node's
 * backward, `Optimizer.step#SGD.step` for an optimizer step, a user
 * range's own name, `ProfilerStep#N` for a step of a schedule.
 *
 * Returns: the name
 *
 * Since: 0.1
 */
const char *
gnn_profiler_event_get_name (GnnProfilerEvent *event)
{
  g_return_val_if_fail (event != NULL, NULL);
  return event->name;
}

/**
 * gnn_profiler_event_get_kind:
 * @event: an event
 *
 * What the event records.
 *
 * Returns: the kind
 *
 * Since: 0.1
 */
GnnProfilerEventKind
gnn_profiler_event_get_kind (GnnProfilerEvent *event)
{
  g_return_val_if_fail (event != NULL, GNN_PROFILER_EVENT_KERNEL);
  return event->kind;
}

/**
 * gnn_profiler_event_get_id:
 * @event: an event
 *
 * The event's index in [method@Gnn.Profiler.get_events] (events are in the order they began).
 *
 * Returns: the id
 *
 * Since: 0.1
 */
guint
gnn_profiler_event_get_id (GnnProfilerEvent *event)
{
  g_return_val_if_fail (event != NULL, 0);
  return event->id;
}

/**
 * gnn_profiler_event_get_parent_id:
 * @event: an event
 *
 * The id of the innermost range that was open on the event's thread when it began
 * (torch's `cpu_parent`).
 *
 * Returns: the parent's id, or -1 for a top-level event
 *
 * Since: 0.1
 */
gint64
gnn_profiler_event_get_parent_id (GnnProfilerEvent *event)
{
  g_return_val_if_fail (event != NULL, -1);
  return event->parent_id;
}

/**
 * gnn_profiler_event_get_start_ns:
 * @event: an event
 *
 * When the event began, in nanoseconds after the profiler started (CLOCK_MONOTONIC).
 *
 * Returns: the start
 *
 * Since: 0.1
 */
gint64
gnn_profiler_event_get_start_ns (GnnProfilerEvent *event)
{
  g_return_val_if_fail (event != NULL, 0);
  return event->start_ns - event->origin_ns;
}

/**
 * gnn_profiler_event_get_duration_ns:
 * @event: an event
 *
 * How long the event lasted, in nanoseconds, its children included (torch's `cpu_time_total`);
 * a range still open when the profiler stopped ends then.
 *
 * Returns: the duration
 *
 * Since: 0.1
 */
gint64
gnn_profiler_event_get_duration_ns (GnnProfilerEvent *event)
{
  g_return_val_if_fail (event != NULL, 0);
  return event->end_ns > event->start_ns ? event->end_ns - event->start_ns : 0;
}

/**
 * gnn_profiler_event_get_self_ns:
 * @event: an event
 *
 * The event's duration less its children's (torch's `self_cpu_time_total`).
 *
 * Returns: the self time in nanoseconds
 *
 * Since: 0.1
 */
gint64
gnn_profiler_event_get_self_ns (GnnProfilerEvent *event)
{
  g_return_val_if_fail (event != NULL, 0);
  return MAX (gnn_profiler_event_get_duration_ns (event) - event->child_ns, 0);
}

/**
 * gnn_profiler_event_get_flops:
 * @event: an event
 *
 * A kernel's FLOP count, from the op table's formula (2·m·n·k for a matrix product), when the
 * profiler had [property@Gnn.Profiler:with-flops]; 0 otherwise and for ranges.
 *
 * Returns: the FLOP count
 *
 * Since: 0.1
 */
guint64
gnn_profiler_event_get_flops (GnnProfilerEvent *event)
{
  g_return_val_if_fail (event != NULL, 0);
  return event->flops;
}

/**
 * gnn_profiler_event_get_device_duration_ns:
 * @event: an event
 *
 * The device time of a kernel that ran on a backend that times its device (CUDA: from CUDA
 * events queued around the kernel on the device's stream, read when the profiler stopped);
 * for a range, its kernels' device times summed (torch's `cuda_time_total`). 0 without one.
 *
 * Returns: the device time in nanoseconds
 *
 * Since: 0.1
 */
gint64
gnn_profiler_event_get_device_duration_ns (GnnProfilerEvent *event)
{
  g_return_val_if_fail (event != NULL, 0);
  return event->device_ns;
}

/**
 * gnn_profiler_event_get_self_device_ns:
 * @event: an event
 *
 * A kernel's own device time, as [method@Gnn.ProfilerEvent.get_device_duration_ns]; 0 for a
 * range, whose device work is all its kernels' (torch's `self_cuda_time_total`).
 *
 * Returns: the self device time in nanoseconds
 *
 * Since: 0.1
 */
gint64
gnn_profiler_event_get_self_device_ns (GnnProfilerEvent *event)
{
  g_return_val_if_fail (event != NULL, 0);
  return event->kind == GNN_PROFILER_EVENT_KERNEL ? event->device_ns : 0;
}

/**
 * gnn_profiler_event_get_device_start_ns:
 * @event: an event
 *
 * When a timed kernel began on its device, in nanoseconds after the profiler started: the
 * host time at which the profile queued its first mark on that device, plus the device time
 * from that mark to the kernel's (so a device that was busy then shows its kernels early by
 * as much).
 *
 * Returns: the device start, or -1 when the event has no device time
 *
 * Since: 0.1
 */
gint64
gnn_profiler_event_get_device_start_ns (GnnProfilerEvent *event)
{
  g_return_val_if_fail (event != NULL, -1);
  return event->device_start_ns >= 0 ? event->device_start_ns - event->origin_ns : -1;
}

/**
 * gnn_profiler_event_get_input_shapes:
 * @event: an event
 *
 * A kernel's input shapes as torch prints them (`[[2, 3], [3, 4]]`), when the profiler had
 * [property@Gnn.Profiler:record-shapes].
 *
 * Returns: (nullable): the shapes, or %NULL
 *
 * Since: 0.1
 */
const char *
gnn_profiler_event_get_input_shapes (GnnProfilerEvent *event)
{
  g_return_val_if_fail (event != NULL, NULL);
  return event->input_shapes;
}

/**
 * gnn_profiler_event_get_dtype:
 * @event: an event
 *
 * A kernel's compute dtype ("float32").
 *
 * Returns: (nullable): the dtype's name, or %NULL for a range
 *
 * Since: 0.1
 */
const char *
gnn_profiler_event_get_dtype (GnnProfilerEvent *event)
{
  g_return_val_if_fail (event != NULL, NULL);
  return event->dtype;
}

/**
 * gnn_profiler_event_get_backend:
 * @event: an event
 *
 * The name of the backend that ran a kernel ("cpu", "reference").
 *
 * Returns: (nullable): the backend's name, or %NULL for a range
 *
 * Since: 0.1
 */
const char *
gnn_profiler_event_get_backend (GnnProfilerEvent *event)
{
  g_return_val_if_fail (event != NULL, NULL);
  return event->backend;
}

/**
 * gnn_profiler_event_get_device:
 * @event: an event
 *
 * The device a kernel ran on ("cpu:0", "cuda:1").
 *
 * Returns: (nullable): the device, or %NULL for a range
 *
 * Since: 0.1
 */
const char *
gnn_profiler_event_get_device (GnnProfilerEvent *event)
{
  g_return_val_if_fail (event != NULL, NULL);
  return event->device;
}

/**
 * gnn_profiler_event_get_thread:
 * @event: an event
 *
 * The thread the event ran on: a small number the profiler gives each thread, 1 for the first
 * one it saw (the chrome trace's `tid`).
 *
 * Returns: the thread
 *
 * Since: 0.1
 */
guint
gnn_profiler_event_get_thread (GnnProfilerEvent *event)
{
  g_return_val_if_fail (event != NULL, 0);
  return event->thread;
}

/**
 * gnn_profiler_event_get_cpu_memory_usage:
 * @event: an event
 *
 * With [property@Gnn.Profiler:profile-memory]: the bytes of host (CPU) memory that storages
 * took in the event and its children, less those they gave back (torch's `cpu_memory_usage`).
 * An allocation counts to the kernel running on its thread, else to the innermost range open
 * there; one made outside a kernel (an op allocating its outputs) counts to the next kernel
 * that begins in the same range before a range opens or closes on that thread. So a kernel's
 * bytes are its outputs' and a module's are its kernels' and its own.
 *
 * Returns: the bytes (negative when more was freed than allocated); 0 without profile-memory
 *
 * Since: 0.1
 */
gint64
gnn_profiler_event_get_cpu_memory_usage (GnnProfilerEvent *event)
{
  g_return_val_if_fail (event != NULL, 0);
  return event->mem[0];
}

/**
 * gnn_profiler_event_get_self_cpu_memory_usage:
 * @event: an event
 *
 * As [method@Gnn.ProfilerEvent.get_cpu_memory_usage], less its children's (torch's
 * `self_cpu_memory_usage`).
 *
 * Returns: the bytes
 *
 * Since: 0.1
 */
gint64
gnn_profiler_event_get_self_cpu_memory_usage (GnnProfilerEvent *event)
{
  g_return_val_if_fail (event != NULL, 0);
  return event->self_mem[0];
}

/**
 * gnn_profiler_event_get_cuda_memory_usage:
 * @event: an event
 *
 * As [method@Gnn.ProfilerEvent.get_cpu_memory_usage] for the memory of devices other than
 * the CPU (torch's `cuda_memory_usage`).
 *
 * Returns: the bytes
 *
 * Since: 0.1
 */
gint64
gnn_profiler_event_get_cuda_memory_usage (GnnProfilerEvent *event)
{
  g_return_val_if_fail (event != NULL, 0);
  return event->mem[1];
}

/**
 * gnn_profiler_event_get_self_cuda_memory_usage:
 * @event: an event
 *
 * As [method@Gnn.ProfilerEvent.get_cuda_memory_usage], less its children's (torch's
 * `self_cuda_memory_usage`).
 *
 * Returns: the bytes
 *
 * Since: 0.1
 */
gint64
gnn_profiler_event_get_self_cuda_memory_usage (GnnProfilerEvent *event)
{
  g_return_val_if_fail (event != NULL, 0);
  return event->self_mem[1];
}

/* ---- recording ------------------------------------------------------------------------ */

/* the stack of @ts, emptied when it belongs to an older profile */
static GPtrArray *
current_stack (ThreadState *ts)
{
  if (ts->generation != generation)
    {
      g_ptr_array_set_size (ts->stack, 0);
      g_array_set_size (ts->pending, 0);
      ts->kernel = NULL;
      ts->generation = generation;
    }
  return ts->stack;
}

/* a new event of the recording profiler @self on the calling thread, named @name (interned or
 * static) or @owned_name (taken), record_lock held; its parent is the innermost range open on
 * the thread */
static GnnProfilerEvent *
append_event (GnnProfiler *self, ThreadState *ts, GnnProfilerEventKind kind, const char *name,
              char *owned_name)
{
  GPtrArray *stack = current_stack (ts);
  GnnProfilerEvent *ev;

  if (self->block == NULL || self->block->used == EVENT_BLOCK)
    {
      self->block = g_malloc (sizeof (EventBlock));
      g_atomic_ref_count_init (&self->block->live);
      self->block->used = 0;
      g_ptr_array_add (self->blocks, self->block);
    }
  ev = &self->block->events[self->block->used++];
  /* the fields not named here start at 0 */
  *ev = (GnnProfilerEvent) {
    .kind = kind,
    .name = owned_name ? owned_name : name,
    .owned_name = owned_name,
    .block = self->block,
    .id = self->events->len,
    .parent_id = stack->len ? (gint64) ((GnnProfilerEvent *) stack->pdata[stack->len - 1])->id : -1,
    .device_start_ns = -1,
    .thread = ts->tid,
    .origin_ns = self->start_ns,
  };
  g_atomic_ref_count_init (&ev->ref);
  g_ptr_array_add (self->events, ev);
  /* a kernel's start is taken once its event is filled in */
  if (kind != GNN_PROFILER_EVENT_KERNEL)
    {
      g_array_set_size (ts->pending, 0);
      ev->start_ns = now_ns ();
    }
  return ev;
}

/* drops the profiler's events: an event that only the profiler holds goes with its block; one
 * referenced elsewhere keeps its block alive (see EVENT_BLOCK) */
static void
clear_events (GnnProfiler *self)
{
  for (guint i = 0; i < self->events->len; i++)
    {
      GnnProfilerEvent *ev = self->events->pdata[i];

      if (g_atomic_ref_count_compare (&ev->ref, 1))
        {
          g_free (ev->owned_name);
          g_free (ev->input_shapes);
        }
      else
        {
          g_atomic_ref_count_inc (&ev->block->live);
          gnn_profiler_event_unref (ev);
        }
    }
  g_ptr_array_set_size (self->events, 0);
  g_ptr_array_set_size (self->blocks, 0);
}

static void
append_shape (GString *s, const GnnKernelTensor *t)
{
  g_string_append_c (s, '[');
  for (guint d = 0; d < t->ndim; d++)
    g_string_append_printf (s, d ? ", %" G_GINT64_FORMAT : "%" G_GINT64_FORMAT, t->shape[d]);
  g_string_append_c (s, ']');
}

static char *
kernel_input_shapes (const GnnKernelArgs *args)
{
  GString *s = g_string_new ("[");
  guint n = 0;

  if (args->n_list > 0 && args->list_in)
    for (guint i = 0; i < args->n_list; i++, n++)
      {
        if (n)
          g_string_append (s, ", ");
        append_shape (s, &args->list_in[i]);
      }
  else
    for (guint i = 0; i < args->n_in && i < G_N_ELEMENTS (args->in); i++)
      if (args->in[i])
        {
          if (n++)
            g_string_append (s, ", ");
          append_shape (s, args->in[i]);
        }
  g_string_append_c (s, ']');
  return g_string_free (s, FALSE);
}

/* "cuda:1", interned: the thread remembers the last one it named */
static const char *
device_name (ThreadState *ts, const char *device_type, guint device)
{
  if (ts->device_name == NULL || ts->device_type != device_type || ts->device_index != device)
    {
      char buf[64];

      g_snprintf (buf, sizeof buf, "%s:%u", device_type, device);
      ts->device_name = g_intern_string (buf);
      ts->device_type = device_type;
      ts->device_index = device;
    }
  return ts->device_name;
}

/* @backend's interface when it times its device (gnn-backend-impl.h), else NULL; the thread
 * remembers the last backend it asked */
static GnnBackendInterface *
timing_iface (ThreadState *ts, GnnBackend *backend)
{
  if (ts->timing_backend != backend)
    {
      GnnBackendInterface *iface = GNN_BACKEND_GET_IFACE (backend);

      ts->timing_backend = backend;
      ts->backend_name = gnn_backend_get_name (backend);
      ts->timing = iface->timing_mark_record && iface->timing_mark_elapsed && iface->timing_mark_free
                   ? iface : NULL;
    }
  return ts->timing;
}

/* whether the profile has an origin mark on @device of @backend, queuing one if not
 * (record_lock held) */
static gboolean
ensure_device_origin (GnnProfiler *self, GnnBackendInterface *timing, GnnBackend *backend, guint device)
{
  DeviceOrigin o;

  for (guint i = 0; i < self->device_origins->len; i++)
    {
      DeviceOrigin *d = &g_array_index (self->device_origins, DeviceOrigin, i);
      if (d->backend == backend && d->device == device)
        return TRUE;
    }
  o.backend = backend;
  o.device = device;
  o.host_ns = now_ns ();
  if ((o.mark = timing->timing_mark_record (backend, device)) == NULL)
    return FALSE;
  g_array_append_val (self->device_origins, o);
  return TRUE;
}

static void
observe_kernel (const GnnOpEvent *event,
                gpointer          user_data)
{
  GnnProfiler *self = user_data;
  ThreadState *ts = get_thread_state ();
  const GnnKernelArgs *args = event->args;

  if (event->phase == GNN_OP_EVENT_BEFORE)
    {
      const GnnKernelTensor *out = args->out ? args->out : (args->n_list ? args->list_out : NULL);
      GnnBackendInterface *timing = timing_iface (ts, event->backend);
      GnnProfilerEvent *ev;
      gboolean timed;

      g_mutex_lock (&record_lock);
      if (recording != self)
        {
          g_mutex_unlock (&record_lock);
          return;
        }
      ev = append_event (self, ts, GNN_PROFILER_EVENT_KERNEL, gnn_backend_op_get_nick (args->op), NULL);
      /* what the op allocated for this kernel (its outputs) counts to it */
      if (ts->pending->len > 0)
        {
          for (guint i = 0; i < ts->pending->len; i++)
            {
              MemRecord *r = &g_array_index (self->mem_records, MemRecord, g_array_index (ts->pending, guint, i));
              if (r->event_id == ev->parent_id)
                r->event_id = ev->id;
            }
          g_array_set_size (ts->pending, 0);
        }
      timed = timing && ensure_device_origin (self, timing, event->backend, event->device);
      g_mutex_unlock (&record_lock);
      ev->flops = self->with_flops ? event->flops : 0;
      if (self->record_shapes)
        ev->input_shapes = kernel_input_shapes (args);
      ev->dtype = out && (guint) out->dtype < GNN_N_DTYPES ? gnn_dtype_get_name (out->dtype) : NULL;
      ev->backend = ts->backend_name;
      ev->device = device_name (ts, event->device_type, event->device);
      ev->device_index = event->device;
      ts->kernel = ev;
      /* the device's marks go around the kernel's work on its queue (no waiting: they are
       * read when the profiler stops) */
      if (timed && (ev->mark_start = timing->timing_mark_record (event->backend, event->device)) != NULL)
        {
          ev->mark_backend = event->backend;
          ev->mark_device = event->device;
        }
      /* the time spent above is the profiler's, not the kernel's */
      ev->start_ns = now_ns ();
    }
  else if (ts->kernel != NULL && ts->generation == generation)
    {
      GnnProfilerEvent *ev = ts->kernel;

      ev->end_ns = now_ns ();
      ts->kernel = NULL;
      if (ev->mark_start)
        {
          /* only while the profile records: once it stopped, its marks were read */
          g_mutex_lock (&record_lock);
          if (recording == self && ts->generation == generation)
            ev->mark_end = timing_iface (ts, ev->mark_backend)->timing_mark_record (ev->mark_backend,
                                                                                   ev->mark_device);
          g_mutex_unlock (&record_lock);
        }
    }
}

/* opens a range named @name (interned or static) or @owned_name (taken) */
static gpointer
range_begin_named (GnnProfilerEventKind kind, const char *name, char *owned_name)
{
  ThreadState *ts = get_thread_state ();
  GnnProfilerEvent *ev;

  g_mutex_lock (&record_lock);
  if (recording == NULL)
    {
      g_mutex_unlock (&record_lock);
      g_free (owned_name);
      return NULL;
    }
  ev = append_event (recording, ts, kind, name, owned_name);
  g_ptr_array_add (ts->stack, ev);
  g_mutex_unlock (&record_lock);
  return ev;
}

gpointer
gnn_profiler_range_begin (GnnProfilerEventKind  kind,
                          const char           *name)
{
  return range_begin_named (kind, NULL, g_strdup (name));
}

/* "GnnSGD" → "SGD", as gnn_module_get_name() shortens a module's type name */
static const char *
short_type_name (GObject *object)
{
  const char *name = G_OBJECT_TYPE_NAME (object), *plus = strrchr (name, '+');

  if (plus)
    return plus + 1;
  if (g_str_has_prefix (name, "Gjs_"))
    return name + 4;
  if (g_str_has_prefix (name, "Gnn") && g_ascii_isupper (name[3]))
    return name + 3;
  return name;
}

/* the names of optimizer ranges already made, by type and "what" (record_lock held) */
static struct {
  GType type;
  const char *what, *name;      /* interned */
} optimizer_names[16];
static guint n_optimizer_names;

gpointer
gnn_profiler_optimizer_begin (GObject    *optimizer,
                              const char *what)
{
  GType type = G_OBJECT_TYPE (optimizer);
  const char *name = NULL;

  g_mutex_lock (&record_lock);
  for (guint i = 0; i < n_optimizer_names; i++)
    if (optimizer_names[i].type == type && strcmp (optimizer_names[i].what, what) == 0)
      {
        name = optimizer_names[i].name;
        break;
      }
  g_mutex_unlock (&record_lock);
  if (name == NULL)
    {
      g_autofree char *made = g_strdup_printf ("Optimizer.%s#%s.%s", what, short_type_name (optimizer), what);

      name = g_intern_string (made);
      g_mutex_lock (&record_lock);
      if (n_optimizer_names < G_N_ELEMENTS (optimizer_names))
        {
          optimizer_names[n_optimizer_names].type = type;
          optimizer_names[n_optimizer_names].what = g_intern_string (what);
          optimizer_names[n_optimizer_names].name = name;
          n_optimizer_names++;
        }
      g_mutex_unlock (&record_lock);
    }
  return range_begin_named (GNN_PROFILER_EVENT_OPTIMIZER, name, NULL);
}

/* the name of @module in @parent's tree ("" for @parent itself), or NULL */
static char *
path_in (GnnModule *parent, GnnModule *module)
{
  g_auto(GStrv) names = NULL;
  g_autoptr(GPtrArray) children = gnn_module_named_children (parent, &names);

  for (guint i = 0; i < children->len; i++)
    if (children->pdata[i] == module)
      return g_strdup (names[i]);
  g_clear_pointer (&names, g_strfreev);
  {
    g_autoptr(GPtrArray) all = gnn_module_named_modules (parent, NULL, TRUE, &names);

    for (guint i = 1; i < all->len; i++)
      if (all->pdata[i] == module)
        return g_strdup (names[i]);
  }
  return NULL;
}

gpointer
gnn_profiler_module_begin (GnnModule *module)
{
  ThreadState *ts = get_thread_state ();
  GnnProfilerEvent *parent = NULL, *ev;
  GnnModule *parent_module = NULL;
  const char *parent_path = NULL, *path = NULL, *name = NULL;
  GPtrArray *stack;
  ModuleName *known;

  /* the enclosing module range (only this thread changes its stack), and the name this profile
   * gave @module under it before */
  g_mutex_lock (&record_lock);
  if (recording == NULL)
    {
      g_mutex_unlock (&record_lock);
      return NULL;
    }
  stack = current_stack (ts);
  for (guint i = stack->len; i-- > 0;)
    if (((GnnProfilerEvent *) stack->pdata[i])->kind == GNN_PROFILER_EVENT_MODULE)
      {
        parent = stack->pdata[i];
        parent_module = parent->module;
        parent_path = parent->path;
        break;
      }
  known = g_hash_table_lookup (recording->module_names, module);
  if (known && known->type == G_OBJECT_TYPE (module) && known->parent_module == parent_module &&
      known->parent_path == parent_path)
    {
      path = known->path;
      name = known->name;
    }
  g_mutex_unlock (&record_lock);

  if (name == NULL)
    {
      const char *type = gnn_module_get_name (module);
      g_autofree char *made = NULL;

      if (parent && parent_module != module)
        {
          g_autofree char *rel = path_in (parent_module, module);
          if (rel && parent_path[0])
            {
              g_autofree char *full = g_strconcat (parent_path, ".", rel, NULL);
              path = g_intern_string (full);
            }
          else if (rel)
            path = g_intern_string (rel);
        }
      if (path == NULL)
        path = g_intern_static_string ("");
      made = path[0] ? g_strdup_printf ("%s (%s)", path, type) : g_strdup (type);
      name = g_intern_string (made);
      known = g_new (ModuleName, 1);
      known->type = G_OBJECT_TYPE (module);
      known->parent_module = parent_module;
      known->parent_path = parent_path;
      known->path = path;
      known->name = name;
    }
  else
    known = NULL;

  g_mutex_lock (&record_lock);
  if (recording == NULL)
    {
      g_mutex_unlock (&record_lock);
      g_free (known);
      return NULL;
    }
  if (known)
    g_hash_table_replace (recording->module_names, module, known);
  ev = append_event (recording, ts, GNN_PROFILER_EVENT_MODULE, name, NULL);
  ev->module = module;
  ev->path = path;
  g_ptr_array_add (ts->stack, ev);
  g_mutex_unlock (&record_lock);
  return ev;
}

/* closes @token's range on @ts at @t, record_lock held */
static void
range_end_locked (ThreadState *ts, gpointer token, gint64 t)
{
  GPtrArray *stack = current_stack (ts);

  g_array_set_size (ts->pending, 0);
  for (guint i = stack->len; i-- > 0;)
    if (stack->pdata[i] == token)
      {
        /* ranges left open inside it end with it */
        for (guint j = i; j < stack->len; j++)
          ((GnnProfilerEvent *) stack->pdata[j])->end_ns = t;
        g_ptr_array_set_size (stack, i);
        break;
      }
}

void
gnn_profiler_range_end (gpointer token)
{
  ThreadState *ts;
  gint64 t;

  if (token == NULL)
    return;
  t = now_ns ();
  ts = get_thread_state ();
  g_mutex_lock (&record_lock);
  range_end_locked (ts, token, t);
  g_mutex_unlock (&record_lock);
}

/* ---- modules' backward ranges ---------------------------------------------------------- */

/* A node recorded while a profiler records keeps a tag of the module forward range that was
 * innermost on its thread: the profile's generation in the high half, the range's id + 1 in
 * the low half (0: outside any module). In backward, the engine hands each node's tag to
 * module_backward_enter before the node runs, which makes the module backward ranges open on
 * the backward's thread those of that forward range and of its enclosing module ranges,
 * outermost first: it closes the ranges that are not and opens the missing ones. So a
 * module's backward range holds the nodes its forward recorded (and their kernels and
 * AccumulateGrads), a child module's range lies inside its parent's, and the branches of a
 * graph that the engine interleaves give a module several backward ranges rather than a
 * range holding another module's work. */
typedef struct {
  guint forward_id;             /* of the module forward range */
  GnnProfilerEvent *range;      /* its backward range */
} BackwardRange;

typedef struct {
  guint generation;
  GArray *open;                 /* of BackwardRange, outermost first */
  GArray *chain;                /* scratch: forward ids, innermost first */
} BackwardScope;

/* "<forward name> backward", interned, by the forward name (record_lock held) */
static GHashTable *backward_names;

static guint64
hook_node_scope (void)
{
  ThreadState *ts = get_thread_state ();
  guint64 tag = 0;

  g_mutex_lock (&record_lock);
  if (recording != NULL)
    {
      GPtrArray *stack = current_stack (ts);
      guint id1 = 0;

      for (guint i = stack->len; i-- > 0;)
        if (((GnnProfilerEvent *) stack->pdata[i])->kind == GNN_PROFILER_EVENT_MODULE)
          {
            id1 = ((GnnProfilerEvent *) stack->pdata[i])->id + 1;
            break;
          }
      tag = ((guint64) generation << 32) | id1;
    }
  g_mutex_unlock (&record_lock);
  return tag;
}

static const char *
backward_name (const char *forward_name)
{
  const char *name;

  if (backward_names == NULL)
    backward_names = g_hash_table_new (NULL, NULL);
  name = g_hash_table_lookup (backward_names, forward_name);
  if (name == NULL)
    {
      g_autofree char *made = g_strconcat (forward_name, " backward", NULL);

      name = g_intern_string (made);
      g_hash_table_insert (backward_names, (gpointer) forward_name, (gpointer) name);
    }
  return name;
}

static void
hook_module_backward_enter (gpointer *scope_p,
                            guint64   node_scope)
{
  BackwardScope *scope = *scope_p;
  guint gen = (guint) (node_scope >> 32), id1 = (guint) (node_scope & 0xffffffffu), k = 0;
  ThreadState *ts = get_thread_state ();
  GArray *open, *chain;

  g_mutex_lock (&record_lock);
  /* a node of an earlier profile */
  if (recording == NULL || gen != generation || id1 > recording->events->len)
    {
      g_mutex_unlock (&record_lock);
      return;
    }
  if (scope == NULL)
    {
      scope = g_new0 (BackwardScope, 1);
      scope->open = g_array_new (FALSE, FALSE, sizeof (BackwardRange));
      scope->chain = g_array_new (FALSE, FALSE, sizeof (guint));
      *scope_p = scope;
    }
  open = scope->open;
  chain = scope->chain;
  if (scope->generation != generation)
    {
      g_array_set_size (open, 0);
      scope->generation = generation;
    }
  g_array_set_size (chain, 0);
  for (gint64 id = (gint64) id1 - 1; id >= 0;)
    {
      GnnProfilerEvent *ev = recording->events->pdata[id];

      if (ev->kind == GNN_PROFILER_EVENT_MODULE)
        {
          guint u = (guint) id;
          g_array_append_val (chain, u);
        }
      id = ev->parent_id;
    }
  while (k < open->len && k < chain->len &&
         g_array_index (open, BackwardRange, k).forward_id == g_array_index (chain, guint, chain->len - 1 - k))
    k++;
  if (k < open->len)
    {
      range_end_locked (ts, g_array_index (open, BackwardRange, k).range, now_ns ());
      g_array_set_size (open, k);
    }
  for (; k < chain->len; k++)
    {
      BackwardRange r;
      GnnProfilerEvent *forward;

      r.forward_id = g_array_index (chain, guint, chain->len - 1 - k);
      forward = recording->events->pdata[r.forward_id];
      r.range = append_event (recording, ts, GNN_PROFILER_EVENT_MODULE_BACKWARD, backward_name (forward->name),
                              NULL);
      g_ptr_array_add (ts->stack, r.range);
      g_array_append_val (open, r);
    }
  g_mutex_unlock (&record_lock);
}

static void
hook_module_backward_end (gpointer data)
{
  BackwardScope *scope = data;

  g_mutex_lock (&record_lock);
  if (recording != NULL && scope->generation == generation && scope->open->len > 0)
    range_end_locked (get_thread_state (), g_array_index (scope->open, BackwardRange, 0).range, now_ns ());
  g_mutex_unlock (&record_lock);
  g_array_unref (scope->open);
  g_array_unref (scope->chain);
  g_free (scope);
}

/* the entry points of the call paths below (gnn-profiler-hooks-private.h) */
static gpointer
hook_backward_begin (const char *node_name)
{
  /* node names are the op's backward ("MmBackward0"), few, mostly static: the thread keeps
   * the last ones by pointer (checked by content, should one have been freed) */
  ThreadState *ts = get_thread_state ();
  guint slot = (guint) (((guintptr) node_name >> 3) % G_N_ELEMENTS (ts->node_names));
  const char *name = ts->node_names[slot].interned;

  if (ts->node_names[slot].given != node_name || strcmp (name, node_name) != 0)
    {
      name = g_intern_string (node_name);
      ts->node_names[slot].given = node_name;
      ts->node_names[slot].interned = name;
    }
  return range_begin_named (GNN_PROFILER_EVENT_BACKWARD, name, NULL);
}

static gpointer
hook_module_begin (GObject *module)
{
  return gnn_profiler_module_begin (GNN_MODULE (module));
}

/* An allocation or free of a storage, profile_memory. It counts to the kernel running on the
 * thread, else to the innermost range open on it, else to no event ("[memory]"). An op
 * allocates its outputs before it runs its kernel: so an allocation made outside a kernel
 * counts to the next kernel that begins on the thread while the same range is innermost, if
 * one does before a range opens or closes there. */
static void
hook_memory (gconstpointer data,
             gint64        nbytes,
             const char   *device_type,
             guint         device)
{
  ThreadState *ts = get_thread_state ();
  gint64 t = now_ns ();
  GPtrArray *stack;
  MemRecord r;
  MemTotal *total = NULL;

  g_mutex_lock (&record_lock);
  if (recording == NULL || recording->mem_records == NULL)
    {
      g_mutex_unlock (&record_lock);
      return;
    }
  stack = current_stack (ts);
  r.ts_ns = t;
  r.addr = (guint64) (guintptr) data;
  r.bytes = nbytes;
  r.thread = ts->tid;
  r.device = device;
  r.on_device = g_strcmp0 (device_type, "cpu") != 0;
  r.event_id = ts->kernel ? (gint64) ts->kernel->id
               : stack->len ? (gint64) ((GnnProfilerEvent *) stack->pdata[stack->len - 1])->id : -1;
  for (guint i = 0; i < recording->mem_totals->len; i++)
    {
      MemTotal *m = &g_array_index (recording->mem_totals, MemTotal, i);
      if (m->on_device == r.on_device && m->device == device)
        total = m;
    }
  if (total == NULL)
    {
      MemTotal m = { r.on_device, device, 0 };
      g_array_append_val (recording->mem_totals, m);
      total = &g_array_index (recording->mem_totals, MemTotal, recording->mem_totals->len - 1);
    }
  total->total += nbytes;
  r.total = total->total;
  if (ts->kernel == NULL && nbytes > 0)
    {
      guint index = recording->mem_records->len;
      g_array_append_val (ts->pending, index);
    }
  g_array_append_val (recording->mem_records, r);
  g_mutex_unlock (&record_lock);
}

static const GnnProfilerHooks profiler_hooks = {
  hook_backward_begin,
  gnn_profiler_optimizer_begin,
  hook_module_begin,
  gnn_profiler_range_end,
  hook_node_scope,
  hook_module_backward_enter,
  hook_module_backward_end,
  hook_memory,
};

/**
 * gnn_profiler_record_function_begin:
 * @name: the range's name
 *
 * Opens a user range on the calling thread (torch's `record_function (name)`, entered); the
 * recording profiler, if one is, records it as an event of kind
 * %GNN_PROFILER_EVENT_USER. Close it with [func@Gnn.Profiler.record_function_end] on the same
 * thread; ranges nest. Without a profiler it costs a few instructions.
 *
 * MT safe.
 *
 * Since: 0.1
 */
void
gnn_profiler_record_function_begin (const char *name)
{
  ThreadState *ts;

  g_return_if_fail (name != NULL);
  ts = get_thread_state ();
  g_ptr_array_add (ts->user, GNN_PROFILER_IS_ACTIVE () ? gnn_profiler_range_begin (GNN_PROFILER_EVENT_USER, name) : NULL);
}

/**
 * gnn_profiler_record_function_end:
 * @error: return location for a #GError
 *
 * Closes the innermost user range that [func@Gnn.Profiler.record_function_begin] opened on the
 * calling thread (torch's `record_function`, exited).
 *
 * Returns: %TRUE, or %FALSE with %GNN_ERROR_FAILED when no user range is open on this
 *   thread
 *
 * MT safe.
 *
 * Since: 0.1
 */
gboolean
gnn_profiler_record_function_end (GError **error)
{
  ThreadState *ts = get_thread_state ();
  gpointer token;

  if (ts->user->len == 0)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_FAILED,
                   "record_function: an end without a begin (no user range is open on this thread)");
      return FALSE;
    }
  token = g_ptr_array_steal_index (ts->user, ts->user->len - 1);
  gnn_profiler_range_end (token);
  return TRUE;
}

/* ---- the profiler --------------------------------------------------------------------- */

static void
gnn_profiler_finalize (GObject *object)
{
  GnnProfiler *self = GNN_PROFILER (object);

  clear_events (self);
  g_clear_pointer (&self->events, g_ptr_array_unref);
  g_clear_pointer (&self->blocks, g_ptr_array_unref);
  g_clear_pointer (&self->mem_records, g_array_unref);
  G_OBJECT_CLASS (gnn_profiler_parent_class)->finalize (object);
}

static void
gnn_profiler_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  GnnProfiler *self = GNN_PROFILER (object);

  switch (prop_id)
    {
    case PROP_RECORD_SHAPES:
      g_value_set_boolean (value, self->record_shapes);
      break;
    case PROP_WITH_FLOPS:
      g_value_set_boolean (value, self->with_flops);
      break;
    case PROP_ACTIVE:
      g_value_set_boolean (value, self->active);
      break;
    case PROP_PROFILE_MEMORY:
      g_value_set_boolean (value, self->profile_memory);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
gnn_profiler_set_property (GObject *object, guint prop_id, const GValue *value, GParamSpec *pspec)
{
  GnnProfiler *self = GNN_PROFILER (object);

  switch (prop_id)
    {
    case PROP_RECORD_SHAPES:
      gnn_profiler_set_record_shapes (self, g_value_get_boolean (value));
      break;
    case PROP_WITH_FLOPS:
      gnn_profiler_set_with_flops (self, g_value_get_boolean (value));
      break;
    case PROP_PROFILE_MEMORY:
      gnn_profiler_set_profile_memory (self, g_value_get_boolean (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
gnn_profiler_class_init (GnnProfilerClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = gnn_profiler_finalize;
  object_class->get_property = gnn_profiler_get_property;
  object_class->set_property = gnn_profiler_set_property;

  /**
   * GnnProfiler:record-shapes:
   *
   * Whether kernel events keep their input shapes (torch's `record_shapes`, default %FALSE).
   *
   * Since: 0.1
   */
  properties[PROP_RECORD_SHAPES] =
    g_param_spec_boolean ("record-shapes", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  /**
   * GnnProfiler:with-flops:
   *
   * Whether kernel events keep their FLOP counts (torch's `with_flops`, default %FALSE).
   *
   * Since: 0.1
   */
  properties[PROP_WITH_FLOPS] =
    g_param_spec_boolean ("with-flops", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  /**
   * GnnProfiler:active:
   *
   * Whether the profiler records: between [method@Gnn.Profiler.start] and
   * [method@Gnn.Profiler.stop].
   *
   * Since: 0.1
   */
  properties[PROP_ACTIVE] =
    g_param_spec_boolean ("active", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  /**
   * GnnProfiler:profile-memory:
   *
   * Whether the profiler records the memory that tensors' storages take and give back
   * (torch's `profile_memory`, default %FALSE): each allocation and free of a backend's
   * storage, counted to an event ([method@Gnn.ProfilerEvent.get_cpu_memory_usage]), shown in
   * [method@Gnn.Profiler.table] and as `[memory]` events in the chrome trace. It applies from
   * the next recording on. Buffers gnn does not own (a tensor over GBytes or a mapped file)
   * are not counted, nor the scratch memory a backend takes inside a kernel.
   *
   * Since: 0.1
   */
  properties[PROP_PROFILE_MEMORY] =
    g_param_spec_boolean ("profile-memory", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * GnnProfiler::trace-ready:
   * @self: the profiler
   *
   * A profile is complete (torch's `on_trace_ready`): at the end of each RECORD_AND_SAVE step
   * of a schedule, and at [method@Gnn.Profiler.stop] when it was recording. Its events, key
   * averages and chrome trace can be read in the handler, which runs on the thread that called
   * [method@Gnn.Profiler.step] or stop.
   *
   * Since: 0.1
   */
  signals[SIGNAL_TRACE_READY] =
    g_signal_new ("trace-ready", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                  NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void
gnn_profiler_init (GnnProfiler *self)
{
  self->events = g_ptr_array_new ();
  self->blocks = g_ptr_array_new_with_free_func ((GDestroyNotify) event_block_release);
}

/**
 * GnnProfiler:
 *
 * The profiler (`torch.profiler.profile`): between [method@Gnn.Profiler.start] and
 * [method@Gnn.Profiler.stop] it records, on every thread, each kernel call (an op observer's
 * view: the op, input shapes, dtype, backend, device, FLOPs), each module's forward as a
 * range named by its path (`features.0 (Conv2d)`) and its backward as a range named after it
 * (`features.0 (Conv2d) backward`), each autograd node's backward (`MmBackward0`), each
 * optimizer step (`Optimizer.step#SGD.step`) and the user ranges of
 * [func@Gnn.Profiler.record_function_begin]. Each event has a start, a duration and a parent
 * range (the innermost one open on its thread), so that self times and nesting follow.
 *
 * A module's backward range holds the backward of the autograd nodes that its forward
 * recorded, with their kernels and the AccumulateGrads they feed, and lies inside the backward
 * range of its parent module, as its forward lies inside the parent's forward. torch's
 * profiler records no such range (its module ranges are forward only, and it links a forward op
 * to its backward by sequence number); gnn names it after the forward with " backward" added,
 * so that key averages keep the two apart and the path still names the module. Where the
 * engine interleaves two branches of the graph, a module gets one range per run of its nodes:
 * a range never holds another module's nodes.
 *
 * A kernel on a backend that times its device (the CUDA backend: CUDA events queued on the
 * device's stream around the kernel) also gets its device time, read once the profiler stops,
 * so that recording never waits for the device: torch's CUDA columns in
 * [method@Gnn.Profiler.table] and device events in the chrome trace.
 *
 * With [property@Gnn.Profiler:profile-memory] it also records each allocation and free of a
 * tensor storage (torch's `profile_memory`), counted to the events
 * ([method@Gnn.ProfilerEvent.get_cpu_memory_usage]); its cost is then a lock per allocation,
 * and none at all without it (one read of a flag).
 *
 * In C a profile is a start/stop pair, with g_autoptr for the profiler; in Python
 * `with torch.profiler.profile (...) as prof:`. One profiler records at a time. While none
 * does, the kernel, module, autograd and optimizer call paths each pay one atomic read.
 *
 * Since: 0.1
 */

/**
 * gnn_profiler_new:
 *
 * A profiler with torch's defaults: no shapes, no FLOPs.
 *
 * Returns: (transfer full): the profiler
 *
 * Since: 0.1
 */
GnnProfiler *
gnn_profiler_new (void)
{
  return g_object_new (GNN_TYPE_PROFILER, NULL);
}

/**
 * gnn_profiler_get_record_shapes:
 * @self: a profiler
 *
 * Whether kernel events keep their input shapes.
 *
 * Returns: [property@Gnn.Profiler:record-shapes]
 *
 * Since: 0.1
 */
gboolean
gnn_profiler_get_record_shapes (GnnProfiler *self)
{
  g_return_val_if_fail (GNN_IS_PROFILER (self), FALSE);
  return self->record_shapes;
}

/**
 * gnn_profiler_set_record_shapes:
 * @self: a profiler
 * @record_shapes: whether to keep input shapes
 *
 * Sets [property@Gnn.Profiler:record-shapes]; it applies to the events recorded from then on.
 *
 * Since: 0.1
 */
void
gnn_profiler_set_record_shapes (GnnProfiler *self,
                                gboolean     record_shapes)
{
  g_return_if_fail (GNN_IS_PROFILER (self));
  record_shapes = !!record_shapes;
  if (self->record_shapes == record_shapes)
    return;
  self->record_shapes = record_shapes;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_RECORD_SHAPES]);
}

/**
 * gnn_profiler_get_with_flops:
 * @self: a profiler
 *
 * Whether kernel events keep their FLOP counts.
 *
 * Returns: [property@Gnn.Profiler:with-flops]
 *
 * Since: 0.1
 */
gboolean
gnn_profiler_get_with_flops (GnnProfiler *self)
{
  g_return_val_if_fail (GNN_IS_PROFILER (self), FALSE);
  return self->with_flops;
}

/**
 * gnn_profiler_set_with_flops:
 * @self: a profiler
 * @with_flops: whether to keep FLOP counts
 *
 * Sets [property@Gnn.Profiler:with-flops]; it applies to the events recorded from then on.
 *
 * Since: 0.1
 */
void
gnn_profiler_set_with_flops (GnnProfiler *self,
                             gboolean     with_flops)
{
  g_return_if_fail (GNN_IS_PROFILER (self));
  with_flops = !!with_flops;
  if (self->with_flops == with_flops)
    return;
  self->with_flops = with_flops;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_WITH_FLOPS]);
}

/**
 * gnn_profiler_get_profile_memory:
 * @self: a profiler
 *
 * Whether the profiler records memory.
 *
 * Returns: [property@Gnn.Profiler:profile-memory]
 *
 * Since: 0.1
 */
gboolean
gnn_profiler_get_profile_memory (GnnProfiler *self)
{
  g_return_val_if_fail (GNN_IS_PROFILER (self), FALSE);
  return self->profile_memory;
}

/**
 * gnn_profiler_set_profile_memory:
 * @self: a profiler
 * @profile_memory: whether to record memory
 *
 * Sets [property@Gnn.Profiler:profile-memory]; it applies from the next recording on.
 *
 * Since: 0.1
 */
void
gnn_profiler_set_profile_memory (GnnProfiler *self,
                                 gboolean     profile_memory)
{
  g_return_if_fail (GNN_IS_PROFILER (self));
  profile_memory = !!profile_memory;
  if (self->profile_memory == profile_memory)
    return;
  self->profile_memory = profile_memory;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PROFILE_MEMORY]);
}

/* begins recording into a fresh list of events */
static gboolean
begin_recording (GnnProfiler *self, GError **error)
{
  g_mutex_lock (&record_lock);
  if (recording != NULL)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_FAILED,
                   recording == self ? "Profiler.start: this profiler is already recording"
                                     : "Profiler.start: another profiler is recording; one records at a time");
      g_mutex_unlock (&record_lock);
      return FALSE;
    }
  clear_events (self);
  self->module_names = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  self->device_origins = g_array_new (FALSE, FALSE, sizeof (DeviceOrigin));
  self->has_device_times = FALSE;
  g_clear_pointer (&self->mem_records, g_array_unref);
  self->memory_recorded = self->profile_memory;
  if (self->profile_memory)
    {
      self->mem_records = g_array_new (FALSE, FALSE, sizeof (MemRecord));
      self->mem_totals = g_array_new (FALSE, FALSE, sizeof (MemTotal));
    }
  recording = g_object_ref (self);
  generation++;
  self->start_ns = now_ns ();
  g_atomic_pointer_set (&gnn_profiler_hooks, &profiler_hooks);
  g_atomic_int_set (&gnn_profiler_active, 1);
  g_atomic_int_set (&gnn_profiler_memory_active, self->profile_memory);
  g_mutex_unlock (&record_lock);
  self->observer = gnn_op_observer_add (observe_kernel, g_object_ref (self), g_object_unref);
  return TRUE;
}

/* the device times of the kernels that have timing marks, from their marks (the first read
 * waits for the device); frees the marks */
static void
read_device_times (GnnProfiler *self)
{
  for (guint i = 0; i < self->events->len; i++)
    {
      GnnProfilerEvent *ev = self->events->pdata[i];
      GnnBackendInterface *timing;
      DeviceOrigin *origin = NULL;
      gint64 dur, offset;

      if (ev->mark_start == NULL)
        continue;
      timing = GNN_BACKEND_GET_IFACE (ev->mark_backend);
      for (guint k = 0; k < self->device_origins->len; k++)
        {
          DeviceOrigin *d = &g_array_index (self->device_origins, DeviceOrigin, k);
          if (d->backend == ev->mark_backend && d->device == ev->mark_device)
            origin = d;
        }
      if (ev->mark_end &&
          timing->timing_mark_elapsed (ev->mark_backend, ev->mark_device, ev->mark_start, ev->mark_end, &dur, NULL))
        {
          ev->device_ns = MAX (dur, 0);
          self->has_device_times = TRUE;
          if (origin &&
              timing->timing_mark_elapsed (ev->mark_backend, ev->mark_device, origin->mark, ev->mark_start,
                                           &offset, NULL))
            ev->device_start_ns = origin->host_ns + MAX (offset, 0);
        }
      timing->timing_mark_free (ev->mark_backend, ev->mark_device, ev->mark_start);
      if (ev->mark_end)
        timing->timing_mark_free (ev->mark_backend, ev->mark_device, ev->mark_end);
      ev->mark_start = ev->mark_end = NULL;
      ev->mark_backend = NULL;
    }
  for (guint k = 0; k < self->device_origins->len; k++)
    {
      DeviceOrigin *d = &g_array_index (self->device_origins, DeviceOrigin, k);
      GNN_BACKEND_GET_IFACE (d->backend)->timing_mark_free (d->backend, d->device, d->mark);
    }
  g_clear_pointer (&self->device_origins, g_array_unref);
}

/* stops recording: closes the ranges left open, sums the children's times */
static void
end_recording (GnnProfiler *self)
{
  GnnProfiler *was;
  gint64 t = now_ns ();

  gnn_op_observer_remove (self->observer);
  self->observer = 0;
  g_mutex_lock (&record_lock);
  was = recording;
  recording = NULL;
  generation++;
  g_atomic_int_set (&gnn_profiler_active, 0);
  g_atomic_int_set (&gnn_profiler_memory_active, 0);
  g_clear_pointer (&self->mem_totals, g_array_unref);
  self->block = NULL;           /* self->blocks keeps it */
  g_clear_pointer (&self->module_names, g_hash_table_unref);
  g_mutex_unlock (&record_lock);
  self->stop_ns = t;
  if (self->device_origins->len > 0)
    read_device_times (self);
  else
    g_clear_pointer (&self->device_origins, g_array_unref);

  /* one pass: each event ends (if still open) before its duration adds to its parent's */
  for (guint i = 0; i < self->events->len; i++)
    {
      GnnProfilerEvent *ev = self->events->pdata[i];
      if (ev->end_ns == 0)
        ev->end_ns = t;
      ev->module = NULL;
      if (ev->parent_id >= 0)
        ((GnnProfilerEvent *) self->events->pdata[ev->parent_id])->child_ns +=
          gnn_profiler_event_get_duration_ns (ev);
    }
  /* each allocation counts to its event, and an event's memory is its own and its children's */
  if (self->mem_records)
    {
      for (guint i = 0; i < self->mem_records->len; i++)
        {
          MemRecord *r = &g_array_index (self->mem_records, MemRecord, i);
          if (r->event_id >= 0)
            ((GnnProfilerEvent *) self->events->pdata[r->event_id])->self_mem[r->on_device] += r->bytes;
        }
      for (guint i = 0; i < self->events->len; i++)
        {
          GnnProfilerEvent *ev = self->events->pdata[i];
          ev->mem[0] = ev->self_mem[0];
          ev->mem[1] = ev->self_mem[1];
        }
      for (guint i = self->events->len; i-- > 0;)
        {
          GnnProfilerEvent *ev = self->events->pdata[i];
          if (ev->parent_id >= 0)
            {
              GnnProfilerEvent *parent = self->events->pdata[ev->parent_id];
              parent->mem[0] += ev->mem[0];
              parent->mem[1] += ev->mem[1];
            }
        }
    }
  /* a range's device time is its kernels': children come after their parents */
  if (self->has_device_times)
    for (guint i = self->events->len; i-- > 0;)
      {
        GnnProfilerEvent *ev = self->events->pdata[i];
        if (ev->parent_id >= 0 && ev->device_ns > 0)
          ((GnnProfilerEvent *) self->events->pdata[ev->parent_id])->device_ns += ev->device_ns;
      }
  g_object_unref (was);
}

static gboolean
action_records (GnnProfilerAction action)
{
  return action == GNN_PROFILER_ACTION_RECORD || action == GNN_PROFILER_ACTION_RECORD_AND_SAVE;
}

static GnnProfilerAction
action_at (GnnProfiler *self, guint step)
{
  if (!self->has_schedule)
    return GNN_PROFILER_ACTION_RECORD;
  return gnn_profiler_schedule_action (self->wait, self->warmup, self->active_steps, self->repeat,
                                       self->skip_first, step);
}

static void
open_step_range (GnnProfiler *self)
{
  g_autofree char *name = g_strdup_printf ("ProfilerStep#%u", self->step_num);

  self->step_range = gnn_profiler_range_begin (GNN_PROFILER_EVENT_STEP, name);
}

/* ends the recording of the current step's profile; @ready: hand it to trace-ready */
static void
finish_profile (GnnProfiler *self, gboolean ready)
{
  gnn_profiler_range_end (g_steal_pointer (&self->step_range));
  end_recording (self);
  self->recording = FALSE;
  if (ready)
    g_signal_emit (self, signals[SIGNAL_TRACE_READY], 0);
}

/**
 * gnn_profiler_scope_start: (skip)
 * @profiler: a profiler
 * @error: return location for a #GError
 *
 * Starts @profiler as [method@Gnn.Profiler.start] does and returns it as a
 * #GnnProfilerScope, for `g_autoptr (GnnProfilerScope)`: gnn_profiler_scope_stop ()
 * stops it when the scope ends. Bindings have their own scopes (Python's `with`).
 *
 * Returns: (transfer full) (nullable): the scope (a new reference to @profiler), or %NULL
 *   with @error set as [method@Gnn.Profiler.start] sets it
 *
 * Since: 0.1
 */
GnnProfilerScope *
gnn_profiler_scope_start (GnnProfiler  *profiler,
                          GError      **error)
{
  g_return_val_if_fail (GNN_IS_PROFILER (profiler), NULL);
  if (!gnn_profiler_start (profiler, error))
    return NULL;
  return g_object_ref (profiler);
}

/**
 * gnn_profiler_scope_stop: (skip)
 * @scope: (transfer full): what gnn_profiler_scope_start () returned
 *
 * Stops the profiler if it is still running and drops the scope's reference.
 *
 * Since: 0.1
 */
void
gnn_profiler_scope_stop (GnnProfilerScope *scope)
{
  g_return_if_fail (GNN_IS_PROFILER (scope));
  if (gnn_profiler_get_active (scope))
    gnn_profiler_stop (scope, NULL);
  g_object_unref (scope);
}

/**
 * gnn_profiler_start:
 * @self: a profiler
 * @error: return location for a #GError
 *
 * Starts the profiler (torch's `profile.start ()`, or entering its `with`) at step 0, dropping
 * the events of an earlier profile. It records at once, or when its schedule
 * ([method@Gnn.Profiler.set_schedule]) says so. While recording, each step is a range
 * `ProfilerStep#N` ([method@Gnn.Profiler.step]), and the profiler holds a reference to itself
 * until [method@Gnn.Profiler.stop].
 *
 * Returns: %TRUE, or %FALSE with %GNN_ERROR_FAILED when this profiler was already started or
 *   another one is recording
 *
 * MT safe.
 *
 * Since: 0.1
 */
gboolean
gnn_profiler_start (GnnProfiler *self,
                    GError     **error)
{
  g_return_val_if_fail (GNN_IS_PROFILER (self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);
  if (self->active)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_FAILED, "Profiler.start: this profiler is already recording");
      return FALSE;
    }
  self->step_num = 0;
  self->action = action_at (self, 0);
  clear_events (self);
  self->has_device_times = FALSE;
  g_clear_pointer (&self->mem_records, g_array_unref);
  self->memory_recorded = FALSE;
  if (action_records (self->action))
    {
      if (!begin_recording (self, error))
        return FALSE;
      self->recording = TRUE;
      open_step_range (self);
    }
  self->active = TRUE;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ACTIVE]);
  return TRUE;
}

/**
 * gnn_profiler_stop:
 * @self: a profiler
 * @error: return location for a #GError
 *
 * Stops the profiler (torch's `profile.stop ()`, or leaving its `with`). Ranges still open
 * end now; a profile being recorded is handed to [signal@Gnn.Profiler::trace-ready]. The
 * events stay until the next start.
 *
 * Returns: %TRUE, or %FALSE with %GNN_ERROR_FAILED when the profiler was not started
 *
 * MT safe.
 *
 * Since: 0.1
 */
gboolean
gnn_profiler_stop (GnnProfiler *self,
                   GError     **error)
{
  g_return_val_if_fail (GNN_IS_PROFILER (self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);
  if (!self->active)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_FAILED,
                   "Profiler.stop: the profiler was not started");
      return FALSE;
    }
  g_object_ref (self);
  self->active = FALSE;
  if (self->recording)
    finish_profile (self, TRUE);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ACTIVE]);
  g_object_unref (self);
  return TRUE;
}

/**
 * gnn_profiler_schedule_action:
 * @wait: the steps to skip at the start of each cycle
 * @warmup: the steps to warm up for, after those
 * @active: the steps to record, after those (at least 1)
 * @repeat: the cycles to run; 0 for no end
 * @skip_first: the steps to skip before the first cycle
 * @step: a step
 *
 * What torch's `schedule (wait=, warmup=, active=, repeat=, skip_first=)` does at @step: after
 * @skip_first steps, cycles of @wait + @warmup + @active steps, the last step of each
 * RECORD_AND_SAVE, and nothing once @repeat cycles ran.
 *
 * Returns: the action
 *
 * Since: 0.1
 */
GnnProfilerAction
gnn_profiler_schedule_action (guint wait,
                              guint warmup,
                              guint active,
                              guint repeat,
                              guint skip_first,
                              guint step)
{
  guint cycle = wait + warmup + active, mod;

  g_return_val_if_fail (active > 0, GNN_PROFILER_ACTION_NONE);
  if (step < skip_first)
    return GNN_PROFILER_ACTION_NONE;
  step -= skip_first;
  if (repeat > 0 && step / cycle >= repeat)
    return GNN_PROFILER_ACTION_NONE;
  mod = step % cycle;
  if (mod < wait)
    return GNN_PROFILER_ACTION_NONE;
  if (mod < wait + warmup)
    return GNN_PROFILER_ACTION_WARMUP;
  return mod < cycle - 1 ? GNN_PROFILER_ACTION_RECORD : GNN_PROFILER_ACTION_RECORD_AND_SAVE;
}

/**
 * gnn_profiler_set_schedule:
 * @self: a profiler
 * @wait: the steps to skip at the start of each cycle
 * @warmup: the steps to warm up for (not recorded)
 * @active: the steps to record (at least 1)
 * @repeat: the cycles to run; 0 for no end
 * @skip_first: the steps to skip before the first cycle
 * @error: return location for a #GError
 *
 * Gives the profiler torch's `schedule`, as [func@Gnn.Profiler.schedule_action] describes:
 * it records only the active steps of each cycle, and hands each cycle's profile to
 * [signal@Gnn.Profiler::trace-ready] at its end. Without one, a started profiler records
 * every step.
 *
 * Returns: %TRUE, or %FALSE with %GNN_ERROR_INVALID_ARGUMENT when @active is 0, or
 *   %GNN_ERROR_FAILED while the profiler is started
 *
 * Since: 0.1
 */
gboolean
gnn_profiler_set_schedule (GnnProfiler *self,
                           guint        wait,
                           guint        warmup,
                           guint        active,
                           guint        repeat,
                           guint        skip_first,
                           GError     **error)
{
  g_return_val_if_fail (GNN_IS_PROFILER (self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);
  if (active == 0)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "Invalid profiler schedule arguments: active must be at least 1, not 0");
      return FALSE;
    }
  if (self->active)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_FAILED,
                   "Profiler.set_schedule: the profiler is started; set its schedule before start");
      return FALSE;
    }
  self->has_schedule = TRUE;
  self->wait = wait;
  self->warmup = warmup;
  self->active_steps = active;
  self->repeat = repeat;
  self->skip_first = skip_first;
  return TRUE;
}

/**
 * gnn_profiler_step:
 * @self: a profiler
 * @error: return location for a #GError
 *
 * Signals that the next step begins (torch's `prof.step ()`): ends the range of the current
 * step, moves on by the schedule (ending a profile and emitting
 * [signal@Gnn.Profiler::trace-ready] after a RECORD_AND_SAVE step, starting one before a
 * recorded step) and opens `ProfilerStep#N` for the new step when it records.
 *
 * Returns: %TRUE, or %FALSE with %GNN_ERROR_FAILED when the profiler was not started, or
 *   another profiler records when this one's schedule would start
 *
 * Since: 0.1
 */
gboolean
gnn_profiler_step (GnnProfiler *self,
                   GError     **error)
{
  GnnProfilerAction prev;

  g_return_val_if_fail (GNN_IS_PROFILER (self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);
  if (!self->active)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_FAILED, "Profiler.step: the profiler was not started");
      return FALSE;
    }
  prev = self->action;
  self->step_num++;
  self->action = action_at (self, self->step_num);
  if (self->recording)
    {
      gnn_profiler_range_end (g_steal_pointer (&self->step_range));
      if (prev == GNN_PROFILER_ACTION_RECORD_AND_SAVE || !action_records (self->action))
        finish_profile (self, prev == GNN_PROFILER_ACTION_RECORD_AND_SAVE);
    }
  if (action_records (self->action) && !self->recording)
    {
      clear_events (self);
      if (!begin_recording (self, error))
        return FALSE;
      self->recording = TRUE;
    }
  if (self->recording)
    open_step_range (self);
  return TRUE;
}

/**
 * gnn_profiler_get_step_num:
 * @self: a profiler
 *
 * The current step: 0 at start, one more at each [method@Gnn.Profiler.step] (torch's
 * `step_num`).
 *
 * Returns: the step
 *
 * Since: 0.1
 */
guint
gnn_profiler_get_step_num (GnnProfiler *self)
{
  g_return_val_if_fail (GNN_IS_PROFILER (self), 0);
  return self->step_num;
}

/**
 * gnn_profiler_get_active:
 * @self: a profiler
 *
 * Whether the profiler was started and not stopped.
 *
 * Returns: [property@Gnn.Profiler:active]
 *
 * Since: 0.1
 */
gboolean
gnn_profiler_get_active (GnnProfiler *self)
{
  g_return_val_if_fail (GNN_IS_PROFILER (self), FALSE);
  return self->active;
}

/**
 * gnn_profiler_get_events:
 * @self: a profiler
 *
 * The events of the last profile, in the order they began (torch's `prof.events ()`); empty
 * while the profiler records (they can be read in a [signal@Gnn.Profiler::trace-ready]
 * handler).
 *
 * Returns: (transfer container) (element-type Gnn.ProfilerEvent): the events
 *
 * Since: 0.1
 */
GPtrArray *
gnn_profiler_get_events (GnnProfiler *self)
{
  GPtrArray *events;

  g_return_val_if_fail (GNN_IS_PROFILER (self), NULL);
  events = g_ptr_array_new_full (self->events->len, (GDestroyNotify) gnn_profiler_event_unref);
  if (!self->recording)
    for (guint i = 0; i < self->events->len; i++)
      g_ptr_array_add (events, gnn_profiler_event_ref (self->events->pdata[i]));
  return events;
}

/* ---- key averages and the table ----------------------------------------------------- */

struct _GnnProfilerAverage {
  gatomicrefcount ref;
  char *key;
  char *input_shapes;           /* only when grouped by them */
  guint count;
  gint64 total_ns, self_ns;
  gint64 device_ns, self_device_ns;
  guint64 flops;
  gint64 mem[2], self_mem[2];   /* [0] the CPU's, [1] devices' */
};

G_DEFINE_BOXED_TYPE (GnnProfilerAverage, gnn_profiler_average, gnn_profiler_average_ref, gnn_profiler_average_unref)

/**
 * gnn_profiler_average_ref:
 * @average: an average
 *
 * Takes a reference to @average.
 *
 * Returns: (transfer full): @average
 *
 * Since: 0.1
 */
GnnProfilerAverage *
gnn_profiler_average_ref (GnnProfilerAverage *average)
{
  g_return_val_if_fail (average != NULL, NULL);
  g_atomic_ref_count_inc (&average->ref);
  return average;
}

/**
 * gnn_profiler_average_unref:
 * @average: (transfer full): an average
 *
 * Drops a reference to @average.
 *
 * Since: 0.1
 */
void
gnn_profiler_average_unref (GnnProfilerAverage *average)
{
  g_return_if_fail (average != NULL);
  if (!g_atomic_ref_count_dec (&average->ref))
    return;
  g_free (average->key);
  g_free (average->input_shapes);
  g_free (average);
}

/**
 * gnn_profiler_average_get_key:
 * @average: an average
 *
 * The events' name (torch's `key`).
 *
 * Returns: the key
 *
 * Since: 0.1
 */
const char *
gnn_profiler_average_get_key (GnnProfilerAverage *average)
{
  g_return_val_if_fail (average != NULL, NULL);
  return average->key;
}

/**
 * gnn_profiler_average_get_input_shapes:
 * @average: an average
 *
 * The events' input shapes when the averages were grouped by them (`[[5, 4], [4, 8]]`, `[]`
 * for a range).
 *
 * Returns: (nullable): the shapes, or %NULL when not grouped by shape
 *
 * Since: 0.1
 */
const char *
gnn_profiler_average_get_input_shapes (GnnProfilerAverage *average)
{
  g_return_val_if_fail (average != NULL, NULL);
  return average->input_shapes;
}

/**
 * gnn_profiler_average_get_count:
 * @average: an average
 *
 * How many events have the key (torch's `count`).
 *
 * Returns: the count
 *
 * Since: 0.1
 */
guint
gnn_profiler_average_get_count (GnnProfilerAverage *average)
{
  g_return_val_if_fail (average != NULL, 0);
  return average->count;
}

/**
 * gnn_profiler_average_get_cpu_time_total:
 * @average: an average
 *
 * The events' durations summed, in microseconds (torch's `cpu_time_total`).
 *
 * Returns: the total time
 *
 * Since: 0.1
 */
double
gnn_profiler_average_get_cpu_time_total (GnnProfilerAverage *average)
{
  g_return_val_if_fail (average != NULL, 0);
  return average->total_ns / 1000.0;
}

/**
 * gnn_profiler_average_get_self_cpu_time_total:
 * @average: an average
 *
 * The events' self times (duration less the children's) summed, in microseconds (torch's
 * `self_cpu_time_total`).
 *
 * Returns: the self time
 *
 * Since: 0.1
 */
double
gnn_profiler_average_get_self_cpu_time_total (GnnProfilerAverage *average)
{
  g_return_val_if_fail (average != NULL, 0);
  return average->self_ns / 1000.0;
}

/**
 * gnn_profiler_average_get_cpu_time:
 * @average: an average
 *
 * The mean duration, in microseconds (torch's `cpu_time`, "CPU time avg").
 *
 * Returns: the total time over the count
 *
 * Since: 0.1
 */
double
gnn_profiler_average_get_cpu_time (GnnProfilerAverage *average)
{
  g_return_val_if_fail (average != NULL, 0);
  return average->count ? average->total_ns / 1000.0 / average->count : 0;
}

/**
 * gnn_profiler_average_get_cuda_time_total:
 * @average: an average
 *
 * The events' device times ([method@Gnn.ProfilerEvent.get_device_duration_ns]) summed, in
 * microseconds (torch's `cuda_time_total`); 0 when no kernel of theirs was timed on a device.
 *
 * Returns: the total device time
 *
 * Since: 0.1
 */
double
gnn_profiler_average_get_cuda_time_total (GnnProfilerAverage *average)
{
  g_return_val_if_fail (average != NULL, 0);
  return average->device_ns / 1000.0;
}

/**
 * gnn_profiler_average_get_self_cuda_time_total:
 * @average: an average
 *
 * The events' self device times ([method@Gnn.ProfilerEvent.get_self_device_ns]) summed, in
 * microseconds (torch's `self_cuda_time_total`).
 *
 * Returns: the self device time
 *
 * Since: 0.1
 */
double
gnn_profiler_average_get_self_cuda_time_total (GnnProfilerAverage *average)
{
  g_return_val_if_fail (average != NULL, 0);
  return average->self_device_ns / 1000.0;
}

/**
 * gnn_profiler_average_get_cuda_time:
 * @average: an average
 *
 * The mean device time, in microseconds (torch's `cuda_time`, "CUDA time avg").
 *
 * Returns: the total device time over the count
 *
 * Since: 0.1
 */
double
gnn_profiler_average_get_cuda_time (GnnProfilerAverage *average)
{
  g_return_val_if_fail (average != NULL, 0);
  return average->count ? average->device_ns / 1000.0 / average->count : 0;
}

/**
 * gnn_profiler_average_get_flops:
 * @average: an average
 *
 * The events' FLOPs summed (torch's `flops`).
 *
 * Returns: the FLOP count
 *
 * Since: 0.1
 */
guint64
gnn_profiler_average_get_flops (GnnProfilerAverage *average)
{
  g_return_val_if_fail (average != NULL, 0);
  return average->flops;
}

/**
 * gnn_profiler_average_get_cpu_memory_usage:
 * @average: an average
 *
 * The events' [method@Gnn.ProfilerEvent.get_cpu_memory_usage] summed, in bytes (torch's
 * `cpu_memory_usage`, "CPU Mem").
 *
 * Returns: the bytes
 *
 * Since: 0.1
 */
gint64
gnn_profiler_average_get_cpu_memory_usage (GnnProfilerAverage *average)
{
  g_return_val_if_fail (average != NULL, 0);
  return average->mem[0];
}

/**
 * gnn_profiler_average_get_self_cpu_memory_usage:
 * @average: an average
 *
 * The events' [method@Gnn.ProfilerEvent.get_self_cpu_memory_usage] summed, in bytes (torch's
 * `self_cpu_memory_usage`, "Self CPU Mem").
 *
 * Returns: the bytes
 *
 * Since: 0.1
 */
gint64
gnn_profiler_average_get_self_cpu_memory_usage (GnnProfilerAverage *average)
{
  g_return_val_if_fail (average != NULL, 0);
  return average->self_mem[0];
}

/**
 * gnn_profiler_average_get_cuda_memory_usage:
 * @average: an average
 *
 * The events' [method@Gnn.ProfilerEvent.get_cuda_memory_usage] summed, in bytes (torch's
 * `cuda_memory_usage`, "CUDA Mem").
 *
 * Returns: the bytes
 *
 * Since: 0.1
 */
gint64
gnn_profiler_average_get_cuda_memory_usage (GnnProfilerAverage *average)
{
  g_return_val_if_fail (average != NULL, 0);
  return average->mem[1];
}

/**
 * gnn_profiler_average_get_self_cuda_memory_usage:
 * @average: an average
 *
 * The events' [method@Gnn.ProfilerEvent.get_self_cuda_memory_usage] summed, in bytes
 * (torch's `self_cuda_memory_usage`, "Self CUDA Mem").
 *
 * Returns: the bytes
 *
 * Since: 0.1
 */
gint64
gnn_profiler_average_get_self_cuda_memory_usage (GnnProfilerAverage *average)
{
  g_return_val_if_fail (average != NULL, 0);
  return average->self_mem[1];
}

/**
 * gnn_profiler_key_averages:
 * @self: a profiler
 * @group_by_input_shape: whether events of one name with different input shapes average apart
 *
 * The events of the last profile averaged by name (torch's `prof.key_averages ()`), or by name
 * and input shapes (which needs [property@Gnn.Profiler:record-shapes] to tell them apart), in
 * the order each key first began. Empty while the profiler records. With
 * [property@Gnn.Profiler:profile-memory], the allocations and frees that counted to no event
 * (made while no range was open on their thread) come last, as torch's `[memory]` key: one
 * count each.
 *
 * Returns: (transfer container) (element-type Gnn.ProfilerAverage): the averages
 *
 * Since: 0.1
 */
GPtrArray *
gnn_profiler_key_averages (GnnProfiler *self,
                           gboolean     group_by_input_shape)
{
  g_autoptr(GHashTable) by_key = NULL;
  GPtrArray *out;

  g_return_val_if_fail (GNN_IS_PROFILER (self), NULL);
  out = g_ptr_array_new_with_free_func ((GDestroyNotify) gnn_profiler_average_unref);
  if (self->recording)
    return out;
  by_key = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  for (guint i = 0; i < self->events->len; i++)
    {
      GnnProfilerEvent *ev = self->events->pdata[i];
      const char *shapes = ev->input_shapes ? ev->input_shapes : "[]";
      g_autofree char *key = group_by_input_shape ? g_strconcat (ev->name, "\n", shapes, NULL)
                                                  : g_strdup (ev->name);
      GnnProfilerAverage *avg = g_hash_table_lookup (by_key, key);

      if (avg == NULL)
        {
          avg = g_new0 (GnnProfilerAverage, 1);
          g_atomic_ref_count_init (&avg->ref);
          avg->key = g_strdup (ev->name);
          avg->input_shapes = group_by_input_shape ? g_strdup (shapes) : NULL;
          g_ptr_array_add (out, avg);
          g_hash_table_insert (by_key, g_steal_pointer (&key), avg);
        }
      avg->count++;
      avg->total_ns += gnn_profiler_event_get_duration_ns (ev);
      avg->self_ns += gnn_profiler_event_get_self_ns (ev);
      avg->flops += ev->flops;
      avg->device_ns += gnn_profiler_event_get_device_duration_ns (ev);
      avg->self_device_ns += gnn_profiler_event_get_self_device_ns (ev);
      for (guint d = 0; d < 2; d++)
        {
          avg->mem[d] += ev->mem[d];
          avg->self_mem[d] += ev->self_mem[d];
        }
    }
  if (self->mem_records)
    {
      GnnProfilerAverage *avg = NULL;

      for (guint i = 0; i < self->mem_records->len; i++)
        {
          MemRecord *r = &g_array_index (self->mem_records, MemRecord, i);

          if (r->event_id >= 0)
            continue;
          if (avg == NULL)
            {
              avg = g_new0 (GnnProfilerAverage, 1);
              g_atomic_ref_count_init (&avg->ref);
              avg->key = g_strdup ("[memory]");
              avg->input_shapes = group_by_input_shape ? g_strdup ("[]") : NULL;
              g_ptr_array_add (out, avg);
            }
          avg->count++;
          avg->mem[r->on_device] += r->bytes;
          avg->self_mem[r->on_device] += r->bytes;
        }
    }
  return out;
}

/* torch's _format_time and _format_time_share */
static char *
format_time (double us)
{
  if (us >= 1e6)
    return g_strdup_printf ("%.3fs", us / 1e6);
  if (us >= 1e3)
    return g_strdup_printf ("%.3fms", us / 1e3);
  return g_strdup_printf ("%.3fus", us);
}

static char *
format_share (double us, double total_us)
{
  if (total_us == 0)
    return g_strdup ("NaN");
  return g_strdup_printf ("%.2f%%", us * 100.0 / total_us);
}

typedef double (*AverageField) (GnnProfilerAverage *average);

static double
field_count (GnnProfilerAverage *a)
{
  return a->count;
}

static double
field_flops (GnnProfilerAverage *a)
{
  return (double) a->flops;
}

static double
field_cpu_memory (GnnProfilerAverage *a)
{
  return (double) a->mem[0];
}

static double
field_self_cpu_memory (GnnProfilerAverage *a)
{
  return (double) a->self_mem[0];
}

static double
field_cuda_memory (GnnProfilerAverage *a)
{
  return (double) a->mem[1];
}

static double
field_self_cuda_memory (GnnProfilerAverage *a)
{
  return (double) a->self_mem[1];
}

/* torch's _format_memory */
static char *
format_memory (gint64 nbytes)
{
  const double kb = 1024, mb = 1024 * kb, gb = 1024 * mb;
  double a = fabs ((double) nbytes);

  if (a >= gb)
    return g_strdup_printf ("%.2f Gb", nbytes / gb);
  if (a >= mb)
    return g_strdup_printf ("%.2f Mb", nbytes / mb);
  if (a >= kb)
    return g_strdup_printf ("%.2f Kb", nbytes / kb);
  return g_strdup_printf ("%" G_GINT64_FORMAT " b", nbytes);
}

static const struct {
  const char *name;
  AverageField get;
} sort_keys[] = {
  { "self_cpu_time_total", gnn_profiler_average_get_self_cpu_time_total },
  { "cpu_time_total", gnn_profiler_average_get_cpu_time_total },
  { "cpu_time", gnn_profiler_average_get_cpu_time },
  { "count", field_count },
  { "flops", field_flops },
  { "self_cuda_time_total", gnn_profiler_average_get_self_cuda_time_total },
  { "cuda_time_total", gnn_profiler_average_get_cuda_time_total },
  { "cuda_time", gnn_profiler_average_get_cuda_time },
  { "cpu_memory_usage", field_cpu_memory },
  { "self_cpu_memory_usage", field_self_cpu_memory },
  { "cuda_memory_usage", field_cuda_memory },
  { "self_cuda_memory_usage", field_self_cuda_memory },
};

static gint
compare_descending (gconstpointer a, gconstpointer b, gpointer user_data)
{
  AverageField get = (AverageField) user_data;
  double x = get (*(GnnProfilerAverage **) a), y = get (*(GnnProfilerAverage **) b);

  return x > y ? -1 : x < y ? 1 : 0;
}

/* one row: each cell right-aligned in its width, two spaces after each (torch's row_format) */
static void
append_row (GString *s, const char *const *cells, const int *widths, guint n)
{
  for (guint i = 0; i < n; i++)
    g_string_append_printf (s, "%*s  ", widths[i], cells[i]);
  g_string_append_c (s, '\n');
}

static void
append_separator (GString *s, const int *widths, guint n)
{
  for (guint i = 0; i < n; i++)
    {
      for (int k = 0; k < widths[i]; k++)
        g_string_append_c (s, '-');
      g_string_append (s, "  ");
    }
  g_string_append_c (s, '\n');
}

/**
 * gnn_profiler_table:
 * @self: a profiler
 * @group_by_input_shape: average by name and input shapes, as [method@Gnn.Profiler.key_averages]
 * @sort_by: (nullable): the field to sort by, largest first: "self_cpu_time_total",
 *   "cpu_time_total", "cpu_time", "count", "flops", "self_cuda_time_total", "cuda_time_total",
 *   "cuda_time", "cpu_memory_usage", "self_cpu_memory_usage", "cuda_memory_usage" or
 *   "self_cuda_memory_usage"; %NULL keeps the order the keys first began
 * @row_limit: the most rows to print; negative for all
 * @error: return location for a #GError
 *
 * The key averages as torch prints them (`prof.key_averages ().table (sort_by=...,
 * row_limit=...)`): the columns Name, Self CPU %, Self CPU, CPU total %, CPU total, CPU time
 * avg, then Self CUDA, Self CUDA %, CUDA total and CUDA time avg when some kernel has a device
 * time ([method@Gnn.ProfilerEvent.get_device_duration_ns]), CPU Mem and Self CPU Mem when the
 * profile recorded memory ([property@Gnn.Profiler:profile-memory]; torch's sizes: `3.91 Kb`),
 * and CUDA Mem and Self CUDA Mem when some key took device memory of its own, # of Calls, then Input Shapes when
 * grouped by them and a Total FLOPs column (scaled as torch scales it: KFLOPs, MFLOPs, ...)
 * when FLOPs were recorded, and the line "Self CPU time total: ..." (and "Self CUDA time
 * total: ..." with device times). Percentages are of the self times of every key summed.
 *
 * Returns: (transfer full): the table, or %NULL with %GNN_ERROR_INVALID_ARGUMENT for an
 *   unknown @sort_by
 *
 * Since: 0.1
 */
char *
gnn_profiler_table (GnnProfiler *self,
                    gboolean     group_by_input_shape,
                    const char  *sort_by,
                    int          row_limit,
                    GError     **error)
{
  static const char *const headers[] = {
    "Name", "Self CPU %", "Self CPU", "CPU total %", "CPU total", "CPU time avg",
  };
  static const char *const cuda_headers[] = {
    "Self CUDA", "Self CUDA %", "CUDA total", "CUDA time avg",
  };
  g_autoptr(GPtrArray) avgs = NULL;
  AverageField sort_get = NULL;
  gboolean has_shapes = FALSE, has_flops = FALSE;
  static const char *const memory_headers[] = {
    "CPU Mem", "Self CPU Mem", "CUDA Mem", "Self CUDA Mem",
  };
  int widths[24];
  const char *cells[24];
  gboolean has_cuda = self->has_device_times;
  gboolean has_memory = self->memory_recorded && !self->recording, has_cuda_memory = FALSE;
  guint n_memory = 0;
  guint n_cols;
  int name_width = 0, shapes_width = 0;
  double sum_self = 0, sum_self_cuda = 0, flops_scale = 1;
  const char *flops_header = NULL;
  g_autofree char *flops_title = NULL;
  g_autofree char *total = NULL;
  guint64 min_flops = 0;
  GString *s;

  g_return_val_if_fail (GNN_IS_PROFILER (self), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);
  if (sort_by)
    {
      for (guint i = 0; i < G_N_ELEMENTS (sort_keys); i++)
        if (g_str_equal (sort_by, sort_keys[i].name))
          sort_get = sort_keys[i].get;
      if (sort_get == NULL)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                       "table: sort_by must be one of self_cpu_time_total, cpu_time_total, cpu_time, "
                       "count, flops, self_cuda_time_total, cuda_time_total, cuda_time, cpu_memory_usage, "
                       "self_cpu_memory_usage, cuda_memory_usage, self_cuda_memory_usage, not \"%s\"", sort_by);
          return NULL;
        }
    }
  avgs = gnn_profiler_key_averages (self, group_by_input_shape);
  if (avgs->len == 0)
    return g_strdup ("");
  /* torch: the CUDA memory columns when some key has some self CUDA memory */
  for (guint i = 0; has_memory && i < avgs->len; i++)
    has_cuda_memory |= ((GnnProfilerAverage *) avgs->pdata[i])->self_mem[1] > 0;
  n_memory = has_memory ? (has_cuda_memory ? 4 : 2) : 0;
  n_cols = G_N_ELEMENTS (headers) + (has_cuda ? G_N_ELEMENTS (cuda_headers) : 0) + n_memory + 1;
  if (sort_get)
    g_ptr_array_sort_with_data (avgs, compare_descending, sort_get);

  for (guint i = 0; i < avgs->len; i++)
    {
      GnnProfilerAverage *a = avgs->pdata[i];
      name_width = MAX (name_width, (int) g_utf8_strlen (a->key, -1) + 4);
      if (a->input_shapes)
        {
          shapes_width = MAX (shapes_width, (int) strlen (a->input_shapes) + 4);
          has_shapes |= !g_str_equal (a->input_shapes, "[]");
        }
      sum_self += gnn_profiler_average_get_self_cpu_time_total (a);
      sum_self_cuda += gnn_profiler_average_get_self_cuda_time_total (a);
      if (a->flops > 0 && (min_flops == 0 || a->flops < min_flops))
        min_flops = a->flops;
    }
  name_width = MIN (name_width, 55);
  shapes_width = MIN (shapes_width, 80);
  widths[0] = name_width;
  for (guint i = 1; i < n_cols; i++)
    widths[i] = 12;
  if (has_shapes)
    widths[n_cols++] = shapes_width;
  if (self->with_flops && min_flops > 0)
    {
      static const char *const units[] = { "FLOPs", "KFLOPs", "MFLOPs", "GFLOPs", "TFLOPs", "PFLOPs" };
      double lg = CLAMP (log10 ((double) min_flops) / 3, 0, G_N_ELEMENTS (units) - 1);
      int level = (int) floor (lg);

      flops_scale = pow (10, level * -3.0);
      flops_header = units[level];
      flops_title = g_strdup_printf ("Total %s", flops_header);
      has_flops = TRUE;
      widths[n_cols++] = 12;
    }

  s = g_string_new (NULL);
  append_separator (s, widths, n_cols);
  {
    guint c = 0;
    for (guint i = 0; i < G_N_ELEMENTS (headers); i++)
      cells[c++] = headers[i];
    if (has_cuda)
      for (guint i = 0; i < G_N_ELEMENTS (cuda_headers); i++)
        cells[c++] = cuda_headers[i];
    for (guint i = 0; i < n_memory; i++)
      cells[c++] = memory_headers[i];
    cells[c++] = "# of Calls";
    if (has_shapes)
      cells[c++] = "Input Shapes";
    if (has_flops)
      cells[c++] = flops_title;
    append_row (s, cells, widths, n_cols);
  }
  append_separator (s, widths, n_cols);
  for (guint i = 0; i < avgs->len && (row_limit < 0 || (int) i < row_limit); i++)
    {
      GnnProfilerAverage *a = avgs->pdata[i];
      g_autofree char *name = NULL, *self_share = NULL, *self_time = NULL, *total_share = NULL;
      g_autofree char *total_time = NULL, *avg_time = NULL, *count = NULL, *shapes = NULL, *flops = NULL;
      g_autofree char *self_cuda = NULL, *self_cuda_share = NULL, *cuda_total = NULL, *cuda_avg = NULL;
      char *mem[4] = { NULL, NULL, NULL, NULL };
      guint c = 0;

      if ((int) g_utf8_strlen (a->key, -1) >= 55 - 3)
        {
          g_autofree char *head = g_utf8_substring (a->key, 0, 55 - 3);
          name = g_strconcat (head, "...", NULL);
        }
      else
        name = g_strdup (a->key);
      self_share = format_share (gnn_profiler_average_get_self_cpu_time_total (a), sum_self);
      self_time = format_time (gnn_profiler_average_get_self_cpu_time_total (a));
      total_share = format_share (gnn_profiler_average_get_cpu_time_total (a), sum_self);
      total_time = format_time (gnn_profiler_average_get_cpu_time_total (a));
      avg_time = format_time (gnn_profiler_average_get_cpu_time (a));
      count = g_strdup_printf ("%u", a->count);
      cells[c++] = name;
      cells[c++] = self_share;
      cells[c++] = self_time;
      cells[c++] = total_share;
      cells[c++] = total_time;
      cells[c++] = avg_time;
      if (has_cuda)
        {
          self_cuda = format_time (gnn_profiler_average_get_self_cuda_time_total (a));
          self_cuda_share = format_share (gnn_profiler_average_get_self_cuda_time_total (a), sum_self_cuda);
          cuda_total = format_time (gnn_profiler_average_get_cuda_time_total (a));
          cuda_avg = format_time (gnn_profiler_average_get_cuda_time (a));
          cells[c++] = self_cuda;
          cells[c++] = self_cuda_share;
          cells[c++] = cuda_total;
          cells[c++] = cuda_avg;
        }
      if (n_memory)
        {
          mem[0] = format_memory (a->mem[0]);
          mem[1] = format_memory (a->self_mem[0]);
          mem[2] = format_memory (a->mem[1]);
          mem[3] = format_memory (a->self_mem[1]);
          for (guint k = 0; k < n_memory; k++)
            cells[c++] = mem[k];
        }
      cells[c++] = count;
      if (has_shapes)
        {
          shapes = g_strndup (a->input_shapes ? a->input_shapes : "[]", shapes_width);
          cells[c++] = shapes;
        }
      if (has_flops)
        {
          flops = a->flops > 0 ? g_strdup_printf ("%8.3f", a->flops * flops_scale) : g_strdup ("--");
          cells[c++] = flops;
        }
      append_row (s, cells, widths, n_cols);
      for (guint k = 0; k < G_N_ELEMENTS (mem); k++)
        g_free (mem[k]);
    }
  append_separator (s, widths, n_cols);
  total = format_time (sum_self);
  g_string_append_printf (s, "Self CPU time total: %s\n", total);
  if (has_cuda)
    {
      g_autofree char *cuda = format_time (sum_self_cuda);
      g_string_append_printf (s, "Self CUDA time total: %s\n", cuda);
    }
  return g_string_free (s, FALSE);
}

/* ---- the chrome trace ------------------------------------------------------------------ */

static const char *
event_category (GnnProfilerEventKind kind)
{
  switch (kind)
    {
    case GNN_PROFILER_EVENT_KERNEL:
      return "kernel";
    case GNN_PROFILER_EVENT_MODULE:
      return "module";
    case GNN_PROFILER_EVENT_BACKWARD:
      return "backward";
    case GNN_PROFILER_EVENT_OPTIMIZER:
      return "optimizer";
    case GNN_PROFILER_EVENT_USER:
      return "user_annotation";
    case GNN_PROFILER_EVENT_STEP:
      return "profiler_step";
    case GNN_PROFILER_EVENT_MODULE_BACKWARD:
      return "module_backward";
    default:
      return "unknown";
    }
}

/* the trace as text: {"traceEvents": [...]} of "X" (complete) events, times in microseconds */
static char *
chrome_trace_text (GnnProfiler *self)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();
  g_autoptr(JsonGenerator) gen = json_generator_new ();
  g_autoptr(JsonNode) root = NULL;
  gint64 pid = (gint64) getpid ();

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "traceEvents");
  json_builder_begin_array (b);
  for (guint i = 0; i < self->events->len; i++)
    {
      GnnProfilerEvent *ev = self->events->pdata[i];

      json_builder_begin_object (b);
      json_builder_set_member_name (b, "name");
      json_builder_add_string_value (b, ev->name);
      json_builder_set_member_name (b, "ph");
      json_builder_add_string_value (b, "X");
      json_builder_set_member_name (b, "cat");
      json_builder_add_string_value (b, event_category (ev->kind));
      json_builder_set_member_name (b, "ts");
      json_builder_add_double_value (b, gnn_profiler_event_get_start_ns (ev) / 1000.0);
      json_builder_set_member_name (b, "dur");
      json_builder_add_double_value (b, gnn_profiler_event_get_duration_ns (ev) / 1000.0);
      json_builder_set_member_name (b, "pid");
      json_builder_add_int_value (b, pid);
      json_builder_set_member_name (b, "tid");
      json_builder_add_int_value (b, ev->thread);
      json_builder_set_member_name (b, "args");
      json_builder_begin_object (b);
      if (ev->input_shapes)
        {
          JsonNode *dims = json_from_string (ev->input_shapes, NULL);
          if (dims)
            {
              json_builder_set_member_name (b, "Input Dims");
              json_builder_add_value (b, dims);
            }
        }
      if (ev->kind == GNN_PROFILER_EVENT_KERNEL)
        {
          json_builder_set_member_name (b, "flops");
          json_builder_add_int_value (b, (gint64) ev->flops);
          if (ev->dtype)
            {
              json_builder_set_member_name (b, "dtype");
              json_builder_add_string_value (b, ev->dtype);
            }
          if (ev->backend)
            {
              json_builder_set_member_name (b, "backend");
              json_builder_add_string_value (b, ev->backend);
            }
          if (ev->device)
            {
              json_builder_set_member_name (b, "device");
              json_builder_add_string_value (b, ev->device);
            }
        }
      json_builder_set_member_name (b, "id");
      json_builder_add_int_value (b, ev->id);
      if (ev->parent_id >= 0)
        {
          json_builder_set_member_name (b, "parent");
          json_builder_add_int_value (b, ev->parent_id);
        }
      json_builder_end_object (b);
      json_builder_end_object (b);
    }
  /* the timed kernels again on their devices: a process per device (pid its index, as
   * Kineto's traces have it), its queue the thread 0 */
  {
    g_autoptr(GHashTable) devices = g_hash_table_new (g_str_hash, g_str_equal);

    for (guint i = 0; i < self->events->len; i++)
      {
        GnnProfilerEvent *ev = self->events->pdata[i];

        if (ev->kind != GNN_PROFILER_EVENT_KERNEL || ev->device_start_ns < 0 || ev->device == NULL)
          continue;
        if (!g_hash_table_contains (devices, ev->device))
          {
            g_hash_table_add (devices, (gpointer) ev->device);
            json_builder_begin_object (b);
            json_builder_set_member_name (b, "name");
            json_builder_add_string_value (b, "process_name");
            json_builder_set_member_name (b, "ph");
            json_builder_add_string_value (b, "M");
            json_builder_set_member_name (b, "pid");
            json_builder_add_int_value (b, ev->device_index);
            json_builder_set_member_name (b, "tid");
            json_builder_add_int_value (b, 0);
            json_builder_set_member_name (b, "args");
            json_builder_begin_object (b);
            json_builder_set_member_name (b, "name");
            json_builder_add_string_value (b, ev->device);
            json_builder_end_object (b);
            json_builder_end_object (b);
          }
        json_builder_begin_object (b);
        json_builder_set_member_name (b, "name");
        json_builder_add_string_value (b, ev->name);
        json_builder_set_member_name (b, "ph");
        json_builder_add_string_value (b, "X");
        json_builder_set_member_name (b, "cat");
        json_builder_add_string_value (b, "device_kernel");
        json_builder_set_member_name (b, "ts");
        json_builder_add_double_value (b, gnn_profiler_event_get_device_start_ns (ev) / 1000.0);
        json_builder_set_member_name (b, "dur");
        json_builder_add_double_value (b, ev->device_ns / 1000.0);
        json_builder_set_member_name (b, "pid");
        json_builder_add_int_value (b, ev->device_index);
        json_builder_set_member_name (b, "tid");
        json_builder_add_int_value (b, 0);
        json_builder_set_member_name (b, "args");
        json_builder_begin_object (b);
        json_builder_set_member_name (b, "device");
        json_builder_add_string_value (b, ev->device);
        /* the host-side kernel event it belongs to */
        json_builder_set_member_name (b, "correlation");
        json_builder_add_int_value (b, ev->id);
        json_builder_end_object (b);
        json_builder_end_object (b);
      }
  }
  /* profile_memory: each allocation and free as Kineto writes them, an instant event on its
   * thread */
  for (guint i = 0; self->mem_records && i < self->mem_records->len; i++)
    {
      MemRecord *r = &g_array_index (self->mem_records, MemRecord, i);

      json_builder_begin_object (b);
      json_builder_set_member_name (b, "name");
      json_builder_add_string_value (b, "[memory]");
      json_builder_set_member_name (b, "ph");
      json_builder_add_string_value (b, "i");
      json_builder_set_member_name (b, "cat");
      json_builder_add_string_value (b, "cpu_instant_event");
      json_builder_set_member_name (b, "s");
      json_builder_add_string_value (b, "t");
      json_builder_set_member_name (b, "ts");
      json_builder_add_double_value (b, (r->ts_ns - self->start_ns) / 1000.0);
      json_builder_set_member_name (b, "pid");
      json_builder_add_int_value (b, pid);
      json_builder_set_member_name (b, "tid");
      json_builder_add_int_value (b, r->thread);
      json_builder_set_member_name (b, "args");
      json_builder_begin_object (b);
      json_builder_set_member_name (b, "Device Type");
      json_builder_add_int_value (b, r->on_device ? 1 : 0);
      json_builder_set_member_name (b, "Device Id");
      json_builder_add_int_value (b, r->on_device ? (gint64) r->device : -1);
      json_builder_set_member_name (b, "Addr");
      json_builder_add_int_value (b, (gint64) r->addr);
      json_builder_set_member_name (b, "Bytes");
      json_builder_add_int_value (b, r->bytes);
      json_builder_set_member_name (b, "Total Allocated");
      json_builder_add_int_value (b, r->total);
      json_builder_end_object (b);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  json_builder_set_member_name (b, "displayTimeUnit");
  json_builder_add_string_value (b, "ms");
  json_builder_end_object (b);
  root = json_builder_get_root (b);
  json_generator_set_root (gen, root);
  return json_generator_to_data (gen, NULL);
}

/**
 * gnn_profiler_export_chrome_trace:
 * @self: a profiler
 * @path: (type filename): the file to write
 * @error: return location for a #GError
 *
 * Writes the last profile as a Chrome trace (`prof.export_chrome_trace (path)`), which
 * Perfetto and `chrome://tracing` read: `{"traceEvents": [...]}` with one complete ("X") event
 * per recorded event, `ts` (from the profiler's start) and `dur` in microseconds, `pid` the
 * process, `tid` the event's thread, `cat` its kind ("kernel", "module", "backward",
 * "optimizer", "user_annotation", "profiler_step", "module_backward") and `args` its input shapes
 * ("Input Dims"), FLOPs, dtype, backend and device, its id and its parent's. Kernels with a
 * device time ([method@Gnn.ProfilerEvent.get_device_duration_ns]) appear once more as device
 * events: `cat` "device_kernel", `pid` the device's index (named by a "process_name"
 * metadata event, "cuda:0"), `tid` 0, `ts` the device start, `dur` the device time, and
 * `args.correlation` the id of the host-side kernel event. With
 * [property@Gnn.Profiler:profile-memory], each allocation and free of a storage is an instant
 * event as Kineto writes them: `name` "[memory]", `ph` "i", `cat` "cpu_instant_event", `s`
 * "t", on its thread, `args` its "Device Type" (0 the CPU, 1 a device), "Device Id" (-1 on the
 * CPU), "Addr", "Bytes" (negative for a free) and "Total Allocated" (the device's bytes
 * allocated less freed since the profile began). The file is replaced atomically: a
 * failed write leaves an existing file as it was.
 *
 * Returns: %TRUE, or %FALSE with @error set: %GNN_ERROR_FAILED while the profiler records, a
 *   #GFileError naming @path when it cannot be written
 *
 * Since: 0.1
 */
gboolean
gnn_profiler_export_chrome_trace (GnnProfiler *self,
                                  const char  *path,
                                  GError     **error)
{
  g_autofree char *text = NULL;
  GError *local = NULL;

  g_return_val_if_fail (GNN_IS_PROFILER (self), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);
  if (self->recording)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_FAILED,
                   "export_chrome_trace: the profiler is still recording; stop it first");
      return FALSE;
    }
  text = chrome_trace_text (self);
  if (!g_file_set_contents_full (path, text, -1, G_FILE_SET_CONTENTS_CONSISTENT, 0644, &local))
    {
      g_set_error (error, local->domain, local->code, "Could not write the chrome trace to %s: %s",
                   path, local->message);
      g_error_free (local);
      return FALSE;
    }
  return TRUE;
}
