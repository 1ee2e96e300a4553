/* test-viewer-profile.c: the model of gnn-viewer's Profile page (tools/viewer/gv-profile.c) over
 * real chrome traces written by GnnProfiler: the per-module table, the flame chart's ranges,
 * and the errors of files that are not such traces
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <fcntl.h>
#include <glib/gstdio.h>
#include <gnn/gnn.h>
#include <string.h>
#include <unistd.h>

#include "gv-profile.h"

#define OK(expr) G_STMT_START { (expr); g_assert_no_error (error); } G_STMT_END

static char *tmp_dir;

/* Sequential (Linear (4, 8), ReLU, shared Linear (8, 8), ReLU, the shared Linear again,
 * Linear (8, 3)): the shared one runs twice in a step */
static GnnModule *
small_model (void)
{
  g_autoptr(GError) error = NULL;
  GnnModule *layers[6];
  GnnModule *model;

  OK (layers[0] = GNN_MODULE (gnn_linear_new (4, 8, TRUE, &error)));
  layers[1] = GNN_MODULE (gnn_relu_new ());
  OK (layers[2] = GNN_MODULE (gnn_linear_new (8, 8, TRUE, &error)));
  layers[3] = GNN_MODULE (gnn_relu_new ());
  layers[4] = g_object_ref (layers[2]);
  OK (layers[5] = GNN_MODULE (gnn_linear_new (8, 3, TRUE, &error)));
  model = GNN_MODULE (gnn_sequential_new (layers, 6));
  for (guint i = 0; i < 6; i++)
    g_object_unref (layers[i]);
  return model;
}

/* One profiled training step (forward, backward, SGD) of @model; the profiler, stopped. */
static GnnProfiler *
profile_step (GnnModule *model)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnParamGroup) group = gnn_param_group_new_from_module (model);
  g_autoptr(GnnOptimizer) opt = NULL;
  GnnProfiler *prof = gnn_profiler_new ();
  const gint64 shape[] = { 5, 4 };
  g_autoptr(GnnTensor) x = NULL, y = NULL, loss = NULL;

  OK (opt = GNN_OPTIMIZER (gnn_sgd_new (group, 0.1, 0, 0, 0, FALSE, FALSE, &error)));
  OK (x = gnn_tensor_new_randn (shape, 2, NULL, GNN_DTYPE_FLOAT32, "cpu", &error));
  OK (gnn_profiler_start (prof, &error));
  gnn_optimizer_zero_grad (opt, TRUE);
  OK (y = gnn_module_forward_tensor (model, x, &error));
  OK (loss = gnn_tensor_sum_all (y, &error));
  OK (gnn_tensor_backward (loss, NULL, FALSE, &error));
  OK (gnn_optimizer_step (opt, &error));
  OK (gnn_profiler_stop (prof, &error));
  return prof;
}

static GnnProfilerEvent *
event_of_id (GPtrArray *events,
             gint64     id)
{
  for (guint i = 0; i < events->len; i++)
    if (gnn_profiler_event_get_id (events->pdata[i]) == id)
      return events->pdata[i];
  return NULL;
}

static gboolean
is_module (GnnProfilerEvent *e)
{
  return gnn_profiler_event_get_kind (e) == GNN_PROFILER_EVENT_MODULE;
}

/* the module event @e is directly inside, as the profiler recorded it (NULL: none) */
static GnnProfilerEvent *
enclosing_module (GPtrArray        *events,
                  GnnProfilerEvent *e)
{
  for (GnnProfilerEvent *p = event_of_id (events, gnn_profiler_event_get_parent_id (e)); p;
       p = event_of_id (events, gnn_profiler_event_get_parent_id (p)))
    if (is_module (p))
      return p;
  return NULL;
}

static guint
event_depth (GPtrArray        *events,
             GnnProfilerEvent *e)
{
  guint depth = 0;

  for (GnnProfilerEvent *p = event_of_id (events, gnn_profiler_event_get_parent_id (e)); p;
       p = event_of_id (events, gnn_profiler_event_get_parent_id (p)))
    depth++;
  return depth;
}

static GvProfileRow *
find_row (GvProfile  *profile,
          const char *path)
{
  GListModel *rows = gv_profile_get_rows (profile);

  for (guint i = 0; i < g_list_model_get_n_items (rows); i++)
    {
      g_autoptr(GvProfileRow) row = g_list_model_get_item (rows, i);

      if (g_str_equal (gv_profile_row_get_path (row), path))
        return row;   /* the list holds it */
    }
  return NULL;
}

/* The table of @profile against the profiler's own events: a row per module of the model
 * (named_modules: the shared Linear once), its calls, total and self times summed here from
 * the events, and its share of the step. */
static void
check_table (GvProfile *profile,
             GnnModule *model,
             GPtrArray *events)
{
  g_auto(GStrv) names = NULL;
  g_autoptr(GPtrArray) modules = gnn_module_named_modules (model, NULL, TRUE, &names);
  GnnProfilerEvent *step = NULL;
  GListModel *rows = gv_profile_get_rows (profile);

  for (guint i = 0; i < events->len; i++)
    if (gnn_profiler_event_get_kind (events->pdata[i]) == GNN_PROFILER_EVENT_STEP)
      step = events->pdata[i];
  g_assert_nonnull (step);
  g_assert_cmpint (gv_profile_get_step_ns (profile), ==, gnn_profiler_event_get_duration_ns (step));
  g_assert_cmpuint (gv_profile_get_n_steps (profile), ==, 1);
  g_assert_cmpuint (g_list_model_get_n_items (rows), ==, modules->len);

  for (guint m = 0; m < modules->len; m++)
    {
      const char *path = names[m];
      GvProfileRow *row = find_row (profile, path);
      guint calls = 0;
      gint64 total = 0, inner = 0;

      g_assert_nonnull (row);
      g_assert_cmpstr (gv_profile_row_get_type_name (row), ==, gnn_module_get_name (modules->pdata[m]));
      for (guint i = 0; i < events->len; i++)
        {
          GnnProfilerEvent *e = events->pdata[i];
          g_autofree char *want = path[0] ? g_strdup_printf ("%s (%s)", path, gnn_module_get_name (modules->pdata[m]))
                                          : g_strdup (gnn_module_get_name (modules->pdata[m]));
          GnnProfilerEvent *outer;

          if (is_module (e) && g_str_equal (gnn_profiler_event_get_name (e), want))
            {
              calls++;
              total += gnn_profiler_event_get_duration_ns (e);
            }
          /* a module event directly inside one of this module's calls */
          if (is_module (e) && (outer = enclosing_module (events, e)) != NULL &&
              g_str_equal (gnn_profiler_event_get_name (outer), want))
            inner += gnn_profiler_event_get_duration_ns (e);
        }
      g_assert_cmpuint (gv_profile_row_get_calls (row), ==, calls);
      g_assert_cmpint (gv_profile_row_get_total_ns (row), ==, total);
      g_assert_cmpint (gv_profile_row_get_self_ns (row), ==, total - inner);
      g_assert_cmpfloat_with_epsilon (gv_profile_row_get_percent (row),
                                      100.0 * total / gnn_profiler_event_get_duration_ns (step), 1e-9);
      /* the shared Linear ran twice; the model's self time leaves out its layers' */
      if (g_str_equal (path, "2"))
        g_assert_cmpuint (calls, ==, 2);
      else
        g_assert_cmpuint (calls, ==, 1);
      if (path[0] == '\0')
        g_assert_cmpint (inner, >, 0);
    }
}

/* The flame chart's ranges: every event of the step, each in the row of its depth (one thread),
 * inside its parent in time, by row then start, with its self time. */
static void
check_chart (GvProfile *profile,
             GPtrArray *events)
{
  GArray *ranges = gv_profile_get_ranges (profile);
  guint max_depth = 0, kernels = 0;
  gint64 step_start = 0;

  g_assert_cmpuint (ranges->len, ==, events->len);
  for (guint i = 0; i < events->len; i++)
    if (gnn_profiler_event_get_kind (events->pdata[i]) == GNN_PROFILER_EVENT_STEP)
      step_start = gnn_profiler_event_get_start_ns (events->pdata[i]);
  for (guint i = 0; i < events->len; i++)
    {
      GnnProfilerEvent *e = events->pdata[i];
      GnnProfilerEvent *parent = event_of_id (events, gnn_profiler_event_get_parent_id (e));
      guint depth = event_depth (events, e);
      gboolean found = FALSE;
      gint64 children = 0;

      max_depth = MAX (max_depth, depth);
      if (gnn_profiler_event_get_kind (e) == GNN_PROFILER_EVENT_KERNEL)
        kernels++;
      for (guint j = 0; j < events->len; j++)
        if (gnn_profiler_event_get_parent_id (events->pdata[j]) == gnn_profiler_event_get_id (e))
          children += gnn_profiler_event_get_duration_ns (events->pdata[j]);
      for (guint k = 0; k < ranges->len && !found; k++)
        {
          GvProfileRange *r = &g_array_index (ranges, GvProfileRange, k);

          if (g_str_equal (r->name, gnn_profiler_event_get_name (e)) &&
              r->start_ns == gnn_profiler_event_get_start_ns (e) - step_start &&
              r->duration_ns == gnn_profiler_event_get_duration_ns (e))
            {
              found = TRUE;
              g_assert_cmpuint (r->depth, ==, depth);
              g_assert_cmpuint (r->row, ==, depth);
              g_assert_cmpint (r->self_ns, ==, MAX (0, gnn_profiler_event_get_duration_ns (e) - children));
              if (parent)
                {
                  g_assert_cmpint (r->start_ns, >=, gnn_profiler_event_get_start_ns (parent) - step_start);
                  g_assert_cmpint (r->start_ns + r->duration_ns, <=,
                                   gnn_profiler_event_get_start_ns (parent) - step_start +
                                   gnn_profiler_event_get_duration_ns (parent));
                }
            }
        }
      g_assert_true (found);
    }
  g_assert_cmpuint (max_depth, >=, 3);   /* the step, the model, a layer, its kernels */
  g_assert_cmpuint (gv_profile_get_n_chart_rows (profile), ==, max_depth + 1);
  g_assert_cmpuint (gv_profile_get_n_kernels (profile), ==, kernels);
  for (guint k = 1; k < ranges->len; k++)
    {
      GvProfileRange *a = &g_array_index (ranges, GvProfileRange, k - 1);
      GvProfileRange *b = &g_array_index (ranges, GvProfileRange, k);

      g_assert_true (a->row < b->row || (a->row == b->row && a->start_ns <= b->start_ns));
    }
  g_assert_cmpint (gv_profile_get_category_ns (profile, "module"), >, 0);
  g_assert_cmpint (gv_profile_get_category_ns (profile, "backward"), >, 0);
  g_assert_cmpint (gv_profile_get_category_ns (profile, "optimizer"), >, 0);
}

static void
test_trace (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnModule) model = small_model ();
  g_autoptr(GnnProfiler) prof = profile_step (model);
  g_autoptr(GPtrArray) events = gnn_profiler_get_events (prof);
  g_autofree char *path = g_build_filename (tmp_dir, "step.json", NULL);
  g_autoptr(GvProfile) from_file = NULL;
  g_autoptr(GvProfile) live = NULL;

  OK (gnn_profiler_export_chrome_trace (prof, path, &error));
  g_assert_true (gv_profile_sniff_file (path));
  OK (from_file = gv_profile_new_from_file (path, &error));
  g_assert_cmpstr (gv_profile_get_label (from_file), ==, path);
  check_table (from_file, model, events);
  check_chart (from_file, events);

  /* the profiler's events straight, as a live step gives them: the same */
  live = gv_profile_new_from_events (events, "live");
  check_table (live, model, events);
  check_chart (live, events);
}

/* A trace without ids (another writer's): ranges nest by time on their thread. Two steps: the
 * first is shown. */
static void
test_nesting_by_time (void)
{
  g_autoptr(GError) error = NULL;
  const char *text =
    "{\"traceEvents\": ["
    "{\"name\": \"ProfilerStep#1\", \"ph\": \"X\", \"cat\": \"profiler_step\", \"ts\": 100, \"dur\": 50, \"tid\": 7},"
    "{\"name\": \"ProfilerStep#2\", \"ph\": \"X\", \"cat\": \"profiler_step\", \"ts\": 150, \"dur\": 50, \"tid\": 7},"
    "{\"name\": \"m\", \"ph\": \"M\"},"
    "{\"name\": \"1 (ReLU)\", \"ph\": \"X\", \"cat\": \"module\", \"ts\": 120, \"dur\": 10, \"tid\": 7},"
    "{\"name\": \"Net\", \"ph\": \"X\", \"cat\": \"module\", \"ts\": 101, \"dur\": 40, \"tid\": 7},"
    "{\"name\": \"0 (Linear)\", \"ph\": \"X\", \"cat\": \"module\", \"ts\": 102, \"dur\": 15, \"tid\": 7},"
    "{\"name\": \"gemm\", \"ph\": \"X\", \"cat\": \"kernel\", \"ts\": 103, \"dur\": 12, \"tid\": 7},"
    "{\"name\": \"worker\", \"ph\": \"X\", \"cat\": \"user_annotation\", \"ts\": 110, \"dur\": 5, \"tid\": 9},"
    "{\"name\": \"Net\", \"ph\": \"X\", \"cat\": \"module\", \"ts\": 151, \"dur\": 40, \"tid\": 7}"
    "]}";
  g_autoptr(GvProfile) profile = NULL;
  GArray *ranges;
  GvProfileRow *row;

  OK (profile = gv_profile_new_from_data (text, strlen (text), "t.json", &error));
  g_assert_cmpuint (gv_profile_get_n_steps (profile), ==, 2);
  g_assert_cmpint (gv_profile_get_step_ns (profile), ==, 50000);
  ranges = gv_profile_get_ranges (profile);
  g_assert_cmpuint (ranges->len, ==, 6);   /* the first step's, of both threads */
  /* thread 7: the step, Net, its two layers, gemm (rows 0-3); thread 9 below them (row 4) */
  g_assert_cmpuint (gv_profile_get_n_chart_rows (profile), ==, 5);
  for (guint i = 0; i < ranges->len; i++)
    {
      GvProfileRange *r = &g_array_index (ranges, GvProfileRange, i);
      const char *names[] = { "ProfilerStep#1", "Net", "0 (Linear)", "1 (ReLU)", "gemm", "worker" };
      const guint rows[] = { 0, 1, 2, 2, 3, 4 };
      const guint depths[] = { 0, 1, 2, 2, 3, 0 };

      g_assert_cmpstr (r->name, ==, names[i]);
      g_assert_cmpuint (r->row, ==, rows[i]);
      g_assert_cmpuint (r->depth, ==, depths[i]);
    }
  g_assert_cmpint (g_array_index (ranges, GvProfileRange, 1).self_ns, ==, 15000);  /* 40 - 15 - 10 µs */
  g_assert_cmpuint (g_list_model_get_n_items (gv_profile_get_rows (profile)), ==, 3);
  row = find_row (profile, "");
  g_assert_cmpstr (gv_profile_row_get_type_name (row), ==, "Net");
  g_assert_cmpuint (gv_profile_row_get_calls (row), ==, 1);
  g_assert_cmpint (gv_profile_row_get_total_ns (row), ==, 40000);
  g_assert_cmpint (gv_profile_row_get_self_ns (row), ==, 15000);
  g_assert_cmpfloat_with_epsilon (gv_profile_row_get_percent (row), 80.0, 1e-9);
  row = find_row (profile, "0");
  g_assert_cmpstr (gv_profile_row_get_type_name (row), ==, "Linear");
  g_assert_cmpint (gv_profile_row_get_self_ns (row), ==, 15000);   /* its kernel is its own */

  /* the second step instead: its two ranges, its model alone */
  g_assert_cmpuint (gv_profile_get_step (profile), ==, 0);
  g_assert_true (gv_profile_set_step (profile, 1));
  g_assert_cmpuint (gv_profile_get_step (profile), ==, 1);
  g_assert_cmpint (gv_profile_get_step_ns (profile), ==, 50000);
  g_assert_cmpuint (ranges->len, ==, 2);
  g_assert_cmpstr (g_array_index (ranges, GvProfileRange, 0).name, ==, "ProfilerStep#2");
  g_assert_cmpint (g_array_index (ranges, GvProfileRange, 1).start_ns, ==, 1000);
  g_assert_cmpuint (gv_profile_get_n_chart_rows (profile), ==, 2);
  g_assert_cmpuint (g_list_model_get_n_items (gv_profile_get_rows (profile)), ==, 1);
  row = find_row (profile, "");
  g_assert_cmpint (gv_profile_row_get_self_ns (row), ==, 40000);
  g_assert_cmpint (gv_profile_get_category_ns (profile, "kernel"), ==, 0);
  g_assert_false (gv_profile_set_step (profile, 2));
  g_assert_cmpuint (gv_profile_get_step (profile), ==, 1);
}

static void
check_bad (const char *text,
           gssize      length,
           const char *found)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GvProfile) profile = gv_profile_new_from_data (text, length < 0 ? strlen (text) : (gsize) length,
                                                           "bad.json", &error);

  g_assert_null (profile);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_FILE_FORMAT);
  if (g_test_verbose ())
    g_printerr ("%s\n", error->message);
  g_assert_true (g_str_has_prefix (error->message, "bad.json: "));
  g_assert_nonnull (strstr (error->message, found));
}

static void
test_bad_data (void)
{
  g_autoptr(GString) nested = g_string_new ("{\"traceEvents\": ");

  for (int i = 0; i < 100; i++)
    g_string_append_c (nested, '[');
  for (int i = 0; i < 100; i++)
    g_string_append_c (nested, ']');
  g_string_append_c (nested, '}');

  check_bad ("", 0, "expected a chrome trace ({\"traceEvents\": [...]}), found an empty file");
  check_bad ("{\"traceEvents\": [{\"name\": \"a\", \"ph\": \"X\", \"ts\": 1, \"du", -1,
             "expected a chrome trace ({\"traceEvents\": [...]}), found JSON that does not parse");
  check_bad ("[1, 2]", -1, "expected a chrome trace ({\"traceEvents\": [...]}), found an array");
  check_bad ("{\"type\": \"GnnLinear\", \"children\": []}", -1,
             "expected a chrome trace ({\"traceEvents\": [...]}), found an object without \"traceEvents\"");
  check_bad ("{\"traceEvents\": 3}", -1, "expected \"traceEvents\" to be an array of events, found a number");
  check_bad ("{\"traceEvents\": [3]}", -1, "traceEvents[0]: expected an event (an object), found a number");
  check_bad ("{\"traceEvents\": [{\"ph\": \"X\", \"ts\": 1, \"dur\": 1}]}", -1,
             "traceEvents[0]: expected a string for \"name\", found no such member");
  check_bad ("{\"traceEvents\": [{\"ph\": \"X\", \"name\": \"a\", \"ts\": \"soon\", \"dur\": 1}]}", -1,
             "traceEvents[0]: expected a number for \"ts\", found a string");
  check_bad ("{\"traceEvents\": [{\"ph\": \"X\", \"name\": \"a\", \"ts\": 1, \"dur\": -4}]}", -1,
             "expected \"dur\" and \"tid\" ≥ 0, found -4 and 0");
  check_bad ("{\"traceEvents\": [{\"ph\": \"X\", \"name\": \"a\", \"ts\": 1e300, \"dur\": 1}]}", -1,
             "expected \"ts\" within ±10¹⁵ µs");
  check_bad ("{\"traceEvents\": [{\"ph\": \"B\", \"name\": \"a\", \"ts\": 1}]}", -1,
             "expected complete (\"ph\": \"X\") events in \"traceEvents\", found none among its 1 events");
  check_bad ("{\"traceEvents\": [{\"ph\": \"X\", \"name\": \"a\", \"ts\": 1, \"dur\": 1, \"args\": {\"id\": 1, \"parent\": 2}},"
             "{\"ph\": \"X\", \"name\": \"b\", \"ts\": 1, \"dur\": 1, \"args\": {\"id\": 2, \"parent\": 1}}]}", -1,
             "expected parents that nest, found a cycle of parent ids");
  check_bad ("{\"traceEvents\": [{\"ph\": \"X\", \"name\": \"a\", \"ts\": 1, \"dur\": 1, \"args\": {\"id\": 1}},"
             "{\"ph\": \"X\", \"name\": \"b\", \"ts\": 1, \"dur\": 1, \"args\": {\"id\": 1}}]}", -1,
             "traceEvents[1]: expected ids that differ, found the id 1 twice");
  /* ranges nested 257 deep: refused; 256 deep, shown */
  for (int n = 257; n <= 258; n++)
    {
      g_autoptr(GString) chain = g_string_new ("{\"traceEvents\": [");
      g_autoptr(GError) error = NULL;
      g_autoptr(GvProfile) profile = NULL;

      for (int i = 0; i < n; i++)
        g_string_append_printf (chain, "%s{\"ph\": \"X\", \"name\": \"r%d\", \"ts\": %d, \"dur\": %d, "
                                "\"args\": {\"id\": %d, \"parent\": %d}}", i ? ", " : "", i, i, 2 * (n - i), i, i - 1);
      g_string_append (chain, "]}");
      profile = gv_profile_new_from_data (chain->str, chain->len, "chain.json", &error);
      if (n == 257)
        {
          g_assert_no_error (error);
          g_assert_cmpuint (gv_profile_get_n_chart_rows (profile), ==, 257);
        }
      else
        {
          g_assert_null (profile);
          g_assert_error (error, GNN_ERROR, GNN_ERROR_FILE_FORMAT);
          g_assert_nonnull (strstr (error->message, "expected ranges nested at most 256 deep, found 257"));
        }
    }
  /* gnn's check of untrusted JSON: nesting, a name given twice */
  check_bad (nested->str, -1, "nesting deeper than 32 levels");
  check_bad ("{\"traceEvents\": [], \"traceEvents\": []}", -1, "traceEvents");
  check_bad ("\x89PNG\r\n\x1a\n\0\0\0", 11, "expected a chrome trace");
}

/* what File ▸ Open takes for a chrome trace: an object with "traceEvents" near its start */
static void
test_sniff (void)
{
  const struct { const char *text; gboolean trace; } cases[] = {
    { "{\"traceEvents\": []}", TRUE },
    { "  \n{ \"traceEvents\":[", TRUE },
    { "{\"schemaVersion\": 1, \"deviceProperties\": [], \"traceEvents\": []}", TRUE },
    { "{\"type\": \"GnnLinear\", \"properties\": {}, \"children\": []}", FALSE },
    { "[{\"traceEvents\": []}]", FALSE },
    { "", FALSE },
  };
  g_autofree char *path = g_build_filename (tmp_dir, "sniff.json", NULL);

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_assert_true (g_file_set_contents (path, cases[i].text, -1, NULL));
      g_assert_cmpint (gv_profile_sniff_file (path), ==, cases[i].trace);
    }
  g_unlink (path);
}

static void
test_bad_files (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *missing = g_build_filename (tmp_dir, "missing.json", NULL);
  g_autofree char *huge = g_build_filename (tmp_dir, "huge.json", NULL);
  g_autoptr(GvProfile) profile = NULL;
  int fd;

  profile = gv_profile_new_from_file (missing, &error);
  g_assert_null (profile);
  g_assert_error (error, G_FILE_ERROR, G_FILE_ERROR_NOENT);
  g_assert_nonnull (strstr (error->message, missing));
  g_clear_error (&error);
  g_assert_false (gv_profile_sniff_file (missing));

  profile = gv_profile_new_from_file (tmp_dir, &error);
  g_assert_null (profile);
  g_assert_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL);
  g_assert_nonnull (strstr (error->message, "expected a chrome trace file, found a folder"));
  g_clear_error (&error);

  /* larger than the bound: refused before it is read (a sparse file) */
  fd = g_open (huge, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  g_assert_cmpint (fd, >=, 0);
  g_assert_cmpint (write (fd, "{\"traceEvents\": [", 17), ==, 17);
  g_assert_cmpint (ftruncate (fd, (off_t) GV_PROFILE_MAX_FILE_SIZE + 1), ==, 0);
  close (fd);
  g_assert_true (gv_profile_sniff_file (huge));
  profile = gv_profile_new_from_file (huge, &error);
  g_assert_null (profile);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_FILE_FORMAT);
  g_assert_nonnull (strstr (error->message, "expected a chrome trace of at most 256 MiB, found 268435457 bytes"));
  g_unlink (huge);
}

int
main (int argc, char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);
  gnn_manual_seed (3);
  tmp_dir = g_dir_make_tmp ("gv-profile-XXXXXX", NULL);
  g_test_add_func ("/viewer-profile/trace", test_trace);
  g_test_add_func ("/viewer-profile/nesting-by-time", test_nesting_by_time);
  g_test_add_func ("/viewer-profile/bad-data", test_bad_data);
  g_test_add_func ("/viewer-profile/bad-files", test_bad_files);
  g_test_add_func ("/viewer-profile/sniff", test_sniff);
  status = g_test_run ();
  {
    g_autofree char *step = g_build_filename (tmp_dir, "step.json", NULL);

    g_unlink (step);
    g_rmdir (tmp_dir);
  }
  g_free (tmp_dir);
  return status;
}
