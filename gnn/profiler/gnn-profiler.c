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
#include <time.h>

#include "gnn-profiler-private.h"
#include "core/gnn-error.h"
#include "core/gnn-dtype.h"
#include "backend/gnn-backend.h"
#include "backend/gnn-backend-private.h"

struct _GnnProfilerEvent {
  gatomicrefcount ref;
  GnnProfilerEventKind kind;
  char *name;
  guint id;
  gint64 parent_id;             /* -1: none */
  gint64 start_ns, end_ns;      /* absolute CLOCK_MONOTONIC; end 0 while open */
  gint64 child_ns;              /* the durations of its children, summed at stop */
  guint64 flops;
  char *input_shapes;           /* "[[2, 3], [3, 4]]" or NULL */
  const char *dtype;            /* static, or NULL */
  const char *backend;          /* static while the backend lives, or NULL */
  char *device;                 /* "cpu:0" or NULL */
  guint thread;
  gint64 origin_ns;             /* the profile's start */
  /* while recording only */
  GnnModule *module;            /* of a module range, not referenced: its forward runs */
  char *path;                   /* of a module range: "" for a root */
};

struct _GnnProfiler {
  GObject parent_instance;
  gboolean record_shapes;
  gboolean with_flops;
  gboolean active;
  guint observer;
  gint64 start_ns;
  gint64 stop_ns;
  GPtrArray *events;            /* of GnnProfilerEvent, in the order they began */
};

enum {
  PROP_0,
  PROP_RECORD_SHAPES,
  PROP_WITH_FLOPS,
  PROP_ACTIVE,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (GnnProfiler, gnn_profiler, G_TYPE_OBJECT)

gint gnn_profiler_active;

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
} ThreadState;

static void
thread_state_free (gpointer data)
{
  ThreadState *ts = data;

  g_ptr_array_unref (ts->stack);
  g_ptr_array_unref (ts->user);
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
  g_free (event->name);
  g_free (event->input_shapes);
  g_free (event->device);
  g_free (event->path);
  g_free (event);
}

/**
 * gnn_profiler_event_get_name:
 * @event: an event
 *
 * The event's name (torch's `FunctionEvent.name`): a kernel's op nick (`gemm`, `add`,
 * `log-softmax`: gnn records the backend kernels, which are finer than torch's `aten::` ops,
 * so their own names are kept), `features.0 (Conv2d)` for a module's forward, the node's name
 * (`MmBackward0`) for its backward, `Optimizer.step#SGD.step` for an optimizer step, a user
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

/* ---- recording ------------------------------------------------------------------------ */

/* the stack of @ts, emptied when it belongs to an older profile */
static GPtrArray *
current_stack (ThreadState *ts)
{
  if (ts->generation != generation)
    {
      g_ptr_array_set_size (ts->stack, 0);
      ts->kernel = NULL;
      ts->generation = generation;
    }
  return ts->stack;
}

/* a new event of the recording profiler @self on the calling thread (takes @name), record_lock
 * held; its parent is the innermost range open on the thread */
static GnnProfilerEvent *
append_event (GnnProfiler *self, ThreadState *ts, GnnProfilerEventKind kind, char *name)
{
  GPtrArray *stack = current_stack (ts);
  GnnProfilerEvent *ev = g_new0 (GnnProfilerEvent, 1);

  g_atomic_ref_count_init (&ev->ref);
  ev->kind = kind;
  ev->name = name;
  ev->id = self->events->len;
  ev->parent_id = stack->len ? (gint64) ((GnnProfilerEvent *) stack->pdata[stack->len - 1])->id : -1;
  ev->thread = ts->tid;
  ev->origin_ns = self->start_ns;
  g_ptr_array_add (self->events, ev);
  ev->start_ns = now_ns ();
  return ev;
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
      GnnProfilerEvent *ev;

      g_mutex_lock (&record_lock);
      if (recording != self)
        {
          g_mutex_unlock (&record_lock);
          return;
        }
      ev = append_event (self, ts, GNN_PROFILER_EVENT_KERNEL,
                         g_strdup (gnn_backend_op_get_nick (args->op)));
      g_mutex_unlock (&record_lock);
      ev->flops = self->with_flops ? event->flops : 0;
      if (self->record_shapes)
        ev->input_shapes = kernel_input_shapes (args);
      ev->dtype = out && (guint) out->dtype < GNN_N_DTYPES ? gnn_dtype_get_name (out->dtype) : NULL;
      ev->backend = gnn_backend_get_name (event->backend);
      ev->device = g_strdup_printf ("%s:%u", event->device_type, event->device);
      ts->kernel = ev;
      /* the time spent above is the profiler's, not the kernel's */
      ev->start_ns = now_ns ();
    }
  else if (ts->kernel != NULL && ts->generation == generation)
    {
      ts->kernel->end_ns = now_ns ();
      ts->kernel = NULL;
    }
}

gpointer
gnn_profiler_range_begin (GnnProfilerEventKind  kind,
                          const char           *name)
{
  ThreadState *ts = get_thread_state ();
  GnnProfilerEvent *ev;

  g_mutex_lock (&record_lock);
  if (recording == NULL)
    {
      g_mutex_unlock (&record_lock);
      return NULL;
    }
  ev = append_event (recording, ts, kind, g_strdup (name));
  g_ptr_array_add (ts->stack, ev);
  g_mutex_unlock (&record_lock);
  return ev;
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

gpointer
gnn_profiler_optimizer_begin (GObject    *optimizer,
                              const char *what)
{
  g_autofree char *name = g_strdup_printf ("Optimizer.%s#%s.%s", what, short_type_name (optimizer), what);

  return gnn_profiler_range_begin (GNN_PROFILER_EVENT_OPTIMIZER, name);
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
  GPtrArray *stack;
  char *path = NULL, *name;
  const char *type = gnn_module_get_name (module);

  /* the enclosing module range: only this thread changes its stack */
  g_mutex_lock (&record_lock);
  stack = current_stack (ts);
  for (guint i = stack->len; i-- > 0;)
    if (((GnnProfilerEvent *) stack->pdata[i])->kind == GNN_PROFILER_EVENT_MODULE)
      {
        parent = stack->pdata[i];
        break;
      }
  g_mutex_unlock (&record_lock);
  if (parent && parent->module != module)
    {
      g_autofree char *rel = path_in (parent->module, module);
      if (rel && parent->path[0])
        path = g_strconcat (parent->path, ".", rel, NULL);
      else
        path = g_steal_pointer (&rel);
    }
  if (path == NULL)
    path = g_strdup ("");
  name = path[0] ? g_strdup_printf ("%s (%s)", path, type) : g_strdup (type);

  g_mutex_lock (&record_lock);
  if (recording == NULL)
    {
      g_mutex_unlock (&record_lock);
      g_free (name);
      g_free (path);
      return NULL;
    }
  ev = append_event (recording, ts, GNN_PROFILER_EVENT_MODULE, name);
  ev->module = module;
  ev->path = path;
  g_ptr_array_add (ts->stack, ev);
  g_mutex_unlock (&record_lock);
  return ev;
}

void
gnn_profiler_range_end (gpointer token)
{
  ThreadState *ts;
  GPtrArray *stack;
  gint64 t;

  if (token == NULL)
    return;
  t = now_ns ();
  ts = get_thread_state ();
  g_mutex_lock (&record_lock);
  stack = current_stack (ts);
  for (guint i = stack->len; i-- > 0;)
    if (stack->pdata[i] == token)
      {
        /* ranges left open inside it end with it */
        for (guint j = i; j < stack->len; j++)
          ((GnnProfilerEvent *) stack->pdata[j])->end_ns = t;
        g_ptr_array_set_size (stack, i);
        break;
      }
  g_mutex_unlock (&record_lock);
}

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

  g_clear_pointer (&self->events, g_ptr_array_unref);
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
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
gnn_profiler_init (GnnProfiler *self)
{
  self->events = g_ptr_array_new_with_free_func ((GDestroyNotify) gnn_profiler_event_unref);
}

/**
 * GnnProfiler:
 *
 * The profiler (`torch.profiler.profile`): between [method@Gnn.Profiler.start] and
 * [method@Gnn.Profiler.stop] it records, on every thread, each kernel call (an op observer's
 * view: the op, input shapes, dtype, backend, device, FLOPs), each module's forward as a
 * range named by its path (`features.0 (Conv2d)`), each autograd node's backward
 * (`MmBackward0`), each optimizer step (`Optimizer.step#SGD.step`) and the user ranges of
 * [func@Gnn.Profiler.record_function_begin]. Each event has a start, a duration and a parent
 * range (the innermost one open on its thread), so that self times and nesting follow.
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
  g_ptr_array_set_size (self->events, 0);
  recording = g_object_ref (self);
  generation++;
  self->start_ns = now_ns ();
  g_atomic_int_set (&gnn_profiler_active, 1);
  g_mutex_unlock (&record_lock);
  self->observer = gnn_op_observer_add (observe_kernel, g_object_ref (self), g_object_unref);
  return TRUE;
}

/* stops recording: closes the ranges left open, sums the children's times */
static void
end_recording (GnnProfiler *self)
{
  g_autofree gint64 *child = NULL;
  GnnProfiler *was;
  gint64 t = now_ns ();

  gnn_op_observer_remove (self->observer);
  self->observer = 0;
  g_mutex_lock (&record_lock);
  was = recording;
  recording = NULL;
  generation++;
  g_atomic_int_set (&gnn_profiler_active, 0);
  g_mutex_unlock (&record_lock);
  self->stop_ns = t;

  for (guint i = 0; i < self->events->len; i++)
    {
      GnnProfilerEvent *ev = self->events->pdata[i];
      if (ev->end_ns == 0)
        ev->end_ns = t;
      ev->module = NULL;
      ev->child_ns = 0;
    }
  for (guint i = 0; i < self->events->len; i++)
    {
      GnnProfilerEvent *ev = self->events->pdata[i];
      if (ev->parent_id >= 0)
        ((GnnProfilerEvent *) self->events->pdata[ev->parent_id])->child_ns +=
          gnn_profiler_event_get_duration_ns (ev);
    }
  g_object_unref (was);
}

/**
 * gnn_profiler_start:
 * @self: a profiler
 * @error: return location for a #GError
 *
 * Starts recording (torch's `profile.start ()`, or entering its `with`), dropping the events
 * of an earlier profile. A recording profiler holds a reference to itself until
 * [method@Gnn.Profiler.stop].
 *
 * Returns: %TRUE, or %FALSE with %GNN_ERROR_FAILED when this or another profiler is
 *   already recording
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
  if (!begin_recording (self, error))
    return FALSE;
  self->active = TRUE;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ACTIVE]);
  return TRUE;
}

/**
 * gnn_profiler_stop:
 * @self: a profiler
 * @error: return location for a #GError
 *
 * Stops recording (torch's `profile.stop ()`, or leaving its `with`). Ranges still open end
 * now. The events stay until the next start.
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
  self->active = FALSE;
  g_object_ref (self);
  end_recording (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ACTIVE]);
  g_object_unref (self);
  return TRUE;
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
 * while the profiler records.
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
  if (!self->active)
    for (guint i = 0; i < self->events->len; i++)
      g_ptr_array_add (events, gnn_profiler_event_ref (self->events->pdata[i]));
  return events;
}

