/* gnn-profiler.h: the profiler (torch.profiler): kernel, module, backward, optimizer and user
 * ranges, their key averages, torch's table and a chrome trace
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined (GNN_INSIDE) && !defined (GNN_COMPILATION)
#error "Only <gnn/gnn.h> can be included directly."
#endif

#include <glib-object.h>
#include "../gnn-version-macros.h"

G_BEGIN_DECLS

/**
 * GnnProfilerEventKind:
 * @GNN_PROFILER_EVENT_KERNEL: one kernel call (the op observer's BEFORE to AFTER), named by the
 *   op's nick (`gemm`, `add`)
 * @GNN_PROFILER_EVENT_MODULE: a module's forward, named by its path and type
 *   (`features.0 (Conv2d)`; the root by its type alone)
 * @GNN_PROFILER_EVENT_BACKWARD: one autograd node's backward, named by the node (`MmBackward0`)
 * @GNN_PROFILER_EVENT_OPTIMIZER: an optimizer's step or zero_grad (`Optimizer.step#SGD.step`)
 * @GNN_PROFILER_EVENT_USER: a user range, [func@Gnn.Profiler.record_function_begin]
 * @GNN_PROFILER_EVENT_STEP: one step of a schedule (`ProfilerStep#3`)
 * @GNN_PROFILER_EVENT_MODULE_BACKWARD: a module's backward: the backward of the autograd nodes
 *   its forward recorded, named after that forward (`features.0 (Conv2d) backward`)
 *
 * What a [struct@Gnn.ProfilerEvent] records.
 *
 * Since: 0.1
 */
typedef enum {
  GNN_PROFILER_EVENT_KERNEL,
  GNN_PROFILER_EVENT_MODULE,
  GNN_PROFILER_EVENT_BACKWARD,
  GNN_PROFILER_EVENT_OPTIMIZER,
  GNN_PROFILER_EVENT_USER,
  GNN_PROFILER_EVENT_STEP,
  GNN_PROFILER_EVENT_MODULE_BACKWARD,
} GnnProfilerEventKind;

/**
 * GnnProfilerAction:
 * @GNN_PROFILER_ACTION_NONE: the step is not recorded
 * @GNN_PROFILER_ACTION_WARMUP: the step warms up: not recorded (torch records and drops it)
 * @GNN_PROFILER_ACTION_RECORD: the step is recorded
 * @GNN_PROFILER_ACTION_RECORD_AND_SAVE: the step is recorded, the last of its cycle: the
 *   profile is handed to [signal@Gnn.Profiler::trace-ready] when it ends
 *
 * What a schedule does at a step (torch's `ProfilerAction`).
 *
 * Since: 0.1
 */
typedef enum {
  GNN_PROFILER_ACTION_NONE,
  GNN_PROFILER_ACTION_WARMUP,
  GNN_PROFILER_ACTION_RECORD,
  GNN_PROFILER_ACTION_RECORD_AND_SAVE,
} GnnProfilerAction;

/* ---- one event ---------------------------------------------------------------------- */

/**
 * GnnProfilerEvent:
 *
 * One recorded range (torch's `FunctionEvent`): a kernel call, a module's forward, a node's
 * backward, an optimizer step or a user range, with its start and duration in nanoseconds
 * from the profile's start (CLOCK_MONOTONIC), its parent range on the same thread, and for a
 * kernel the input shapes, dtype, backend, device and FLOP count, and its device time when
 * its backend times its device (CUDA). Reference counted and immutable once the profiler
 * stopped.
 *
 * Since: 0.1
 */
typedef struct _GnnProfilerEvent GnnProfilerEvent;

#define GNN_TYPE_PROFILER_EVENT (gnn_profiler_event_get_type ())
GNN_AVAILABLE_IN_ALL
GType                 gnn_profiler_event_get_type        (void) G_GNUC_CONST;
GNN_AVAILABLE_IN_ALL
GnnProfilerEvent     *gnn_profiler_event_ref             (GnnProfilerEvent *event);
GNN_AVAILABLE_IN_ALL
void                  gnn_profiler_event_unref           (GnnProfilerEvent *event);
GNN_AVAILABLE_IN_ALL
const char           *gnn_profiler_event_get_name        (GnnProfilerEvent *event);
GNN_AVAILABLE_IN_ALL
GnnProfilerEventKind  gnn_profiler_event_get_kind        (GnnProfilerEvent *event);
GNN_AVAILABLE_IN_ALL
guint                 gnn_profiler_event_get_id          (GnnProfilerEvent *event);
GNN_AVAILABLE_IN_ALL
gint64                gnn_profiler_event_get_parent_id   (GnnProfilerEvent *event);
GNN_AVAILABLE_IN_ALL
gint64                gnn_profiler_event_get_start_ns    (GnnProfilerEvent *event);
GNN_AVAILABLE_IN_ALL
gint64                gnn_profiler_event_get_duration_ns (GnnProfilerEvent *event);
GNN_AVAILABLE_IN_ALL
gint64                gnn_profiler_event_get_self_ns     (GnnProfilerEvent *event);
GNN_AVAILABLE_IN_ALL
guint64               gnn_profiler_event_get_flops       (GnnProfilerEvent *event);
GNN_AVAILABLE_IN_ALL
gint64                gnn_profiler_event_get_device_duration_ns (GnnProfilerEvent *event);
GNN_AVAILABLE_IN_ALL
gint64                gnn_profiler_event_get_self_device_ns (GnnProfilerEvent *event);
GNN_AVAILABLE_IN_ALL
gint64                gnn_profiler_event_get_device_start_ns (GnnProfilerEvent *event);
GNN_AVAILABLE_IN_ALL
const char           *gnn_profiler_event_get_input_shapes (GnnProfilerEvent *event);
GNN_AVAILABLE_IN_ALL
const char           *gnn_profiler_event_get_dtype       (GnnProfilerEvent *event);
GNN_AVAILABLE_IN_ALL
const char           *gnn_profiler_event_get_backend     (GnnProfilerEvent *event);
GNN_AVAILABLE_IN_ALL
const char           *gnn_profiler_event_get_device      (GnnProfilerEvent *event);
GNN_AVAILABLE_IN_ALL
guint                 gnn_profiler_event_get_thread      (GnnProfilerEvent *event);
GNN_AVAILABLE_IN_ALL
gint64                gnn_profiler_event_get_cpu_memory_usage      (GnnProfilerEvent *event);
GNN_AVAILABLE_IN_ALL
gint64                gnn_profiler_event_get_self_cpu_memory_usage (GnnProfilerEvent *event);
GNN_AVAILABLE_IN_ALL
gint64                gnn_profiler_event_get_cuda_memory_usage     (GnnProfilerEvent *event);
GNN_AVAILABLE_IN_ALL
gint64                gnn_profiler_event_get_self_cuda_memory_usage (GnnProfilerEvent *event);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (GnnProfilerEvent, gnn_profiler_event_unref)

/* ---- the profiler ------------------------------------------------------------------- */

#define GNN_TYPE_PROFILER (gnn_profiler_get_type ())
GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnProfiler, gnn_profiler, GNN, PROFILER, GObject)

GNN_AVAILABLE_IN_ALL
GnnProfiler *gnn_profiler_new                (void);
GNN_AVAILABLE_IN_ALL
gboolean     gnn_profiler_get_record_shapes  (GnnProfiler  *self);
GNN_AVAILABLE_IN_ALL
void         gnn_profiler_set_record_shapes  (GnnProfiler  *self,
                                              gboolean      record_shapes);
GNN_AVAILABLE_IN_ALL
gboolean     gnn_profiler_get_with_flops     (GnnProfiler  *self);
GNN_AVAILABLE_IN_ALL
void         gnn_profiler_set_with_flops     (GnnProfiler  *self,
                                              gboolean      with_flops);
GNN_AVAILABLE_IN_ALL
gboolean     gnn_profiler_get_profile_memory (GnnProfiler  *self);
GNN_AVAILABLE_IN_ALL
void         gnn_profiler_set_profile_memory (GnnProfiler  *self,
                                              gboolean      profile_memory);
GNN_AVAILABLE_IN_ALL
gboolean     gnn_profiler_start              (GnnProfiler  *self,
                                              GError      **error);
GNN_AVAILABLE_IN_ALL
gboolean     gnn_profiler_stop               (GnnProfiler  *self,
                                              GError      **error);

/**
 * GnnProfilerScope: (skip)
 *
 * A started profiler that stops when the variable holding it goes out of scope: the C form
 * of Python's `with gnn.profiler.profile () as prof:`.
 *
 * |[<!-- language="C" -->
 * {
 *   g_autoptr(GnnProfilerScope) scope = gnn_profiler_scope_start (prof, &error);
 *
 *   if (scope == NULL)
 *     return FALSE;
 *   ...   // recorded
 * }       // stopped here, on every way out of the block
 * ]|
 *
 * Since: 0.1
 */
typedef GnnProfiler GnnProfilerScope;

GNN_AVAILABLE_IN_ALL
GnnProfilerScope *gnn_profiler_scope_start (GnnProfiler  *profiler,
                                            GError      **error);
GNN_AVAILABLE_IN_ALL
void              gnn_profiler_scope_stop  (GnnProfilerScope *scope);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (GnnProfilerScope, gnn_profiler_scope_stop)
GNN_AVAILABLE_IN_ALL
gboolean     gnn_profiler_get_active         (GnnProfiler  *self);
GNN_AVAILABLE_IN_ALL
GPtrArray   *gnn_profiler_get_events         (GnnProfiler  *self);

/* ---- averages over the events of one name ----------------------------------------- */

/**
 * GnnProfilerAverage:
 *
 * The events of one key averaged (torch's `FunctionEventAvg`): their name (and input shapes,
 * when grouped by them), how many there were, their total and self times (on the host and on
 * the device) and FLOPs.
 *
 * Since: 0.1
 */
typedef struct _GnnProfilerAverage GnnProfilerAverage;

#define GNN_TYPE_PROFILER_AVERAGE (gnn_profiler_average_get_type ())
GNN_AVAILABLE_IN_ALL
GType               gnn_profiler_average_get_type                (void) G_GNUC_CONST;
GNN_AVAILABLE_IN_ALL
GnnProfilerAverage *gnn_profiler_average_ref                     (GnnProfilerAverage *average);
GNN_AVAILABLE_IN_ALL
void                gnn_profiler_average_unref                   (GnnProfilerAverage *average);
GNN_AVAILABLE_IN_ALL
const char         *gnn_profiler_average_get_key                 (GnnProfilerAverage *average);
GNN_AVAILABLE_IN_ALL
const char         *gnn_profiler_average_get_input_shapes        (GnnProfilerAverage *average);
GNN_AVAILABLE_IN_ALL
guint               gnn_profiler_average_get_count               (GnnProfilerAverage *average);
GNN_AVAILABLE_IN_ALL
double              gnn_profiler_average_get_cpu_time_total      (GnnProfilerAverage *average);
GNN_AVAILABLE_IN_ALL
double              gnn_profiler_average_get_self_cpu_time_total (GnnProfilerAverage *average);
GNN_AVAILABLE_IN_ALL
double              gnn_profiler_average_get_cpu_time            (GnnProfilerAverage *average);
GNN_AVAILABLE_IN_ALL
double              gnn_profiler_average_get_cuda_time_total     (GnnProfilerAverage *average);
GNN_AVAILABLE_IN_ALL
double              gnn_profiler_average_get_self_cuda_time_total (GnnProfilerAverage *average);
GNN_AVAILABLE_IN_ALL
double              gnn_profiler_average_get_cuda_time           (GnnProfilerAverage *average);
GNN_AVAILABLE_IN_ALL
guint64             gnn_profiler_average_get_flops               (GnnProfilerAverage *average);
GNN_AVAILABLE_IN_ALL
gint64              gnn_profiler_average_get_cpu_memory_usage    (GnnProfilerAverage *average);
GNN_AVAILABLE_IN_ALL
gint64              gnn_profiler_average_get_self_cpu_memory_usage (GnnProfilerAverage *average);
GNN_AVAILABLE_IN_ALL
gint64              gnn_profiler_average_get_cuda_memory_usage   (GnnProfilerAverage *average);
GNN_AVAILABLE_IN_ALL
gint64              gnn_profiler_average_get_self_cuda_memory_usage (GnnProfilerAverage *average);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (GnnProfilerAverage, gnn_profiler_average_unref)

GNN_AVAILABLE_IN_ALL
GPtrArray   *gnn_profiler_key_averages       (GnnProfiler  *self,
                                              gboolean      group_by_input_shape);
GNN_AVAILABLE_IN_ALL
char        *gnn_profiler_table              (GnnProfiler  *self,
                                              gboolean      group_by_input_shape,
                                              const char   *sort_by,
                                              int           row_limit,
                                              GError      **error);

GNN_AVAILABLE_IN_ALL
gboolean     gnn_profiler_export_chrome_trace (GnnProfiler *self,
                                               const char  *path,
                                               GError     **error);

GNN_AVAILABLE_IN_ALL
GnnProfilerAction gnn_profiler_schedule_action (guint      wait,
                                                guint      warmup,
                                                guint      active,
                                                guint      repeat,
                                                guint      skip_first,
                                                guint      step);
GNN_AVAILABLE_IN_ALL
gboolean     gnn_profiler_set_schedule       (GnnProfiler  *self,
                                              guint         wait,
                                              guint         warmup,
                                              guint         active,
                                              guint         repeat,
                                              guint         skip_first,
                                              GError      **error);
GNN_AVAILABLE_IN_ALL
gboolean     gnn_profiler_step               (GnnProfiler  *self,
                                              GError      **error);
GNN_AVAILABLE_IN_ALL
guint        gnn_profiler_get_step_num       (GnnProfiler  *self);

GNN_AVAILABLE_IN_ALL
void         gnn_profiler_record_function_begin (const char *name);
GNN_AVAILABLE_IN_ALL
gboolean     gnn_profiler_record_function_end   (GError   **error);

G_END_DECLS
