/* gv-profile.h: one step of a profile, as gnn-viewer's Profile page shows it: the time of each
 * module and the nested ranges of the step
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gnn/gnn.h>

G_BEGIN_DECLS

/* A chrome trace larger than this is refused before it is read. */
#define GV_PROFILE_MAX_FILE_SIZE (256 * 1024 * 1024)
/* The deepest nesting a chrome trace may have: gnn writes 5 levels (the trace, its event list,
 * an event, its args, an input's dims). */
#define GV_PROFILE_MAX_JSON_DEPTH 32
/* The deepest nesting of ranges a trace may have (a range inside 256 others). */
#define GV_PROFILE_MAX_NESTING 256

/* One range of the step, as the flame chart draws it. */
typedef struct
{
  char   *name;
  char   *category;     /* the trace's "cat": "module", "kernel", "backward", ... */
  gint64  start_ns;     /* from the step's start */
  gint64  duration_ns;
  gint64  self_ns;      /* the duration less that of the ranges directly inside it */
  guint   thread;
  guint   depth;        /* 0: a range inside no other range of the step */
  guint   row;          /* the flame chart's row: the threads one under the other */
} GvProfileRange;

#define GV_TYPE_PROFILE_ROW (gv_profile_row_get_type ())
G_DECLARE_FINAL_TYPE (GvProfileRow, gv_profile_row, GV, PROFILE_ROW, GObject)

/* A module's line in the table: its path ("" for the model) and PyTorch type, how often its
 * forward ran in the step, the time in it (total) and in it outside its child modules (self,
 * its own kernels included), in nanoseconds, and its total as a percentage of the step. The
 * properties "path", "module-type", "calls", "total", "self" and "percent" hold the same. */
const char *gv_profile_row_get_path     (GvProfileRow *self);
const char *gv_profile_row_get_type_name (GvProfileRow *self);
guint       gv_profile_row_get_calls    (GvProfileRow *self);
gint64      gv_profile_row_get_total_ns (GvProfileRow *self);
gint64      gv_profile_row_get_self_ns  (GvProfileRow *self);
double      gv_profile_row_get_percent  (GvProfileRow *self);

#define GV_TYPE_PROFILE (gv_profile_get_type ())
G_DECLARE_FINAL_TYPE (GvProfile, gv_profile, GV, PROFILE, GObject)

/* Whether the file at @path looks like a chrome trace: an object with "traceEvents" in its
 * first 4 KiB (gnn's starts {"traceEvents": ...}). File ▸ Open takes it for one. */
gboolean    gv_profile_sniff_file       (const char   *path);

/* A chrome trace ({"traceEvents": [...]}, as GnnProfiler's export_chrome_trace writes it):
 * one step ("ProfilerStep#N") at a time, or all of it when it has none. The text passes
 * gnn's check of untrusted JSON first (nesting, names given twice). Errors name the file
 * (@what), what was expected and what was found. */
GvProfile  *gv_profile_new_from_file    (const char   *path,
                                         GError      **error);
GvProfile  *gv_profile_new_from_data    (const char   *text,
                                         gsize         length,
                                         const char   *what,
                                         GError      **error);

/* The events a profiler recorded (GnnProfilerEvent), shown under @label. */
GvProfile  *gv_profile_new_from_events  (GPtrArray    *events,
                                         const char   *label);

const char *gv_profile_get_label        (GvProfile    *self);
/* the step's duration, in nanoseconds */
gint64      gv_profile_get_step_ns      (GvProfile    *self);
/* the steps the trace holds ("ProfilerStep#N" ranges), the first shown at first */
guint       gv_profile_get_n_steps      (GvProfile    *self);
/* Shows step @index (from 0) instead: the rows and ranges change in place. FALSE when the
 * trace has no such step. */
gboolean    gv_profile_set_step         (GvProfile    *self,
                                         guint         index);
guint       gv_profile_get_step         (GvProfile    *self);
/* The time in each kind of range outside ranges of that kind: @category is the trace's "cat"
 * ("module": the forward, "backward", "optimizer", "kernel"). */
gint64      gv_profile_get_category_ns  (GvProfile    *self,
                                         const char   *category);
/* the kernel calls of the step */
guint       gv_profile_get_n_kernels    (GvProfile    *self);

/* (element-type GvProfileRow): the modules, in the order their forward first ran */
GListModel *gv_profile_get_rows         (GvProfile    *self);
/* (element-type GvProfileRange): the step's ranges by row, then start */
GArray     *gv_profile_get_ranges       (GvProfile    *self);
guint       gv_profile_get_n_chart_rows (GvProfile    *self);

/* "name<TAB>type<TAB>calls<TAB>total_ns<TAB>self_ns<TAB>percent" for @row (no newline) */
char       *gv_profile_row_dump         (GvProfileRow *row);

G_END_DECLS
