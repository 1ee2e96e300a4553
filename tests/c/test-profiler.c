/* test-profiler.c: GnnProfiler (torch.profiler) over a small model's forward, backward and SGD
 * step: the events, their nesting in time, the module paths, the kernel counts and FLOPs, and
 * the errors of a misused profiler
 */
#include "config.h"

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <unistd.h>

#include "gnn-test-util.h"

#define OK(expr) G_STMT_START { (expr); g_assert_no_error (error); } G_STMT_END
#define F32 GNN_DTYPE_FLOAT32

/* Sequential (Linear (4, 8), ReLU, Linear (8, 3)) on a (5, 4) input */
static GnnModule *
small_model (void)
{
  g_autoptr(GError) error = NULL;
  GnnModule *layers[3];
  GnnModule *model;

  OK (layers[0] = GNN_MODULE (gnn_linear_new (4, 8, TRUE, &error)));
  layers[1] = GNN_MODULE (gnn_relu_new ());
  OK (layers[2] = GNN_MODULE (gnn_linear_new (8, 3, TRUE, &error)));
  model = GNN_MODULE (gnn_sequential_new (layers, 3));
  for (guint i = 0; i < 3; i++)
    g_object_unref (layers[i]);
  return model;
}

/* one training step: forward inside a user range, backward, SGD step */
static void
train_step (GnnModule *model, GnnOptimizer *opt)
{
  g_autoptr(GError) error = NULL;
  const gint64 shape[] = { 5, 4 };
  g_autoptr(GnnTensor) x = NULL, y = NULL, loss = NULL;

  OK (x = gnn_tensor_new_randn (shape, 2, NULL, F32, "cpu", &error));
  gnn_optimizer_zero_grad (opt, TRUE);
  gnn_profiler_record_function_begin ("forward-pass");
  OK (y = gnn_module_forward_tensor (model, x, &error));
  OK (loss = gnn_tensor_sum_all (y, &error));
  OK (gnn_profiler_record_function_end (&error));
  OK (gnn_tensor_backward (loss, NULL, FALSE, &error));
  OK (gnn_optimizer_step (opt, &error));
}

static GnnProfilerEvent *
event_at (GPtrArray *events, gint64 id)
{
  g_assert_cmpint (id, >=, 0);
  g_assert_cmpint (id, <, events->len);
  return events->pdata[id];
}

static GnnProfilerEvent *
find_named (GPtrArray *events, const char *name)
{
  for (guint i = 0; i < events->len; i++)
    if (g_str_equal (gnn_profiler_event_get_name (events->pdata[i]), name))
      return events->pdata[i];
  return NULL;
}

static guint
count_named (GPtrArray *events, const char *name)
{
  guint n = 0;

  for (guint i = 0; i < events->len; i++)
    n += g_str_equal (gnn_profiler_event_get_name (events->pdata[i]), name);
  return n;
}

/* whether @ancestor is @ev's parent, grandparent, ... */
static gboolean
is_inside (GPtrArray *events, GnnProfilerEvent *ev, GnnProfilerEvent *ancestor)
{
  gint64 p = gnn_profiler_event_get_parent_id (ev);

  while (p >= 0)
    {
      GnnProfilerEvent *e = event_at (events, p);
      if (e == ancestor)
        return TRUE;
      p = gnn_profiler_event_get_parent_id (e);
    }
  return FALSE;
}

/* the kernels named @name inside @range */
static guint
count_inside (GPtrArray *events, GnnProfilerEvent *range, const char *name)
{
  guint n = 0;

  for (guint i = 0; i < events->len; i++)
    if (gnn_profiler_event_get_kind (events->pdata[i]) == GNN_PROFILER_EVENT_KERNEL &&
        g_str_equal (gnn_profiler_event_get_name (events->pdata[i]), name) &&
        is_inside (events, events->pdata[i], range))
      n++;
  return n;
}

static void
test_training_step (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnModule) model = small_model ();
  g_autoptr(GnnParamGroup) group = gnn_param_group_new_from_module (model);
  g_autoptr(GnnOptimizer) opt = NULL;
  g_autoptr(GnnProfiler) prof = gnn_profiler_new ();
  g_autoptr(GPtrArray) events = NULL;
  GnnProfilerEvent *root, *first, *second, *relu, *user, *step, *zero;
  guint n_kernels = 0, n_backward = 0;

  OK (opt = GNN_OPTIMIZER (gnn_sgd_new (group, 0.1, 0, 0, 0, FALSE, FALSE, &error)));
  gnn_profiler_set_record_shapes (prof, TRUE);
  gnn_profiler_set_with_flops (prof, TRUE);
  g_assert_false (gnn_profiler_get_active (prof));
  OK (gnn_profiler_start (prof, &error));
  g_assert_true (gnn_profiler_get_active (prof));
  train_step (model, opt);
  /* nothing to read while recording */
  events = gnn_profiler_get_events (prof);
  g_assert_cmpuint (events->len, ==, 0);
  g_clear_pointer (&events, g_ptr_array_unref);
  OK (gnn_profiler_stop (prof, &error));
  g_assert_false (gnn_profiler_get_active (prof));
  events = gnn_profiler_get_events (prof);
  g_assert_cmpuint (events->len, >, 10);

  /* module ranges by path and type, the root by its type */
  root = find_named (events, "Sequential");
  first = find_named (events, "0 (Linear)");
  relu = find_named (events, "1 (ReLU)");
  second = find_named (events, "2 (Linear)");
  user = find_named (events, "forward-pass");
  step = find_named (events, "Optimizer.step#SGD.step");
  zero = find_named (events, "Optimizer.zero_grad#SGD.zero_grad");
  g_assert_nonnull (root);
  g_assert_nonnull (first);
  g_assert_nonnull (relu);
  g_assert_nonnull (second);
  g_assert_nonnull (user);
  g_assert_nonnull (step);
  g_assert_nonnull (zero);
  g_assert_cmpint (gnn_profiler_event_get_kind (root), ==, GNN_PROFILER_EVENT_MODULE);
  g_assert_cmpint (gnn_profiler_event_get_kind (user), ==, GNN_PROFILER_EVENT_USER);
  g_assert_cmpint (gnn_profiler_event_get_kind (step), ==, GNN_PROFILER_EVENT_OPTIMIZER);
  g_assert_cmpint (gnn_profiler_event_get_parent_id (root), ==, gnn_profiler_event_get_id (user));
  g_assert_cmpint (gnn_profiler_event_get_parent_id (first), ==, gnn_profiler_event_get_id (root));
  g_assert_cmpint (gnn_profiler_event_get_parent_id (second), ==, gnn_profiler_event_get_id (root));
  /* the whole profile lies in the range of its step */
  {
    GnnProfilerEvent *profiler_step = find_named (events, "ProfilerStep#0");
    g_assert_nonnull (profiler_step);
    g_assert_cmpint (gnn_profiler_event_get_id (profiler_step), ==, 0);
    g_assert_cmpint (gnn_profiler_event_get_kind (profiler_step), ==, GNN_PROFILER_EVENT_STEP);
    g_assert_cmpint (gnn_profiler_event_get_parent_id (profiler_step), ==, -1);
    g_assert_cmpint (gnn_profiler_event_get_parent_id (user), ==, 0);
    g_assert_cmpint (gnn_profiler_event_get_parent_id (step), ==, 0);
  }
  g_assert_cmpuint (count_named (events, "0 (Linear)"), ==, 1);

  /* one matrix product per Linear forward, with its FLOPs: 2 · m · n · k */
  g_assert_cmpuint (count_inside (events, first, "gemm"), ==, 1);
  g_assert_cmpuint (count_inside (events, second, "gemm"), ==, 1);
  g_assert_cmpuint (count_inside (events, root, "gemm"), ==, 2);
  g_assert_cmpuint (count_inside (events, relu, "gemm"), ==, 0);
  for (guint i = 0; i < events->len; i++)
    {
      GnnProfilerEvent *ev = events->pdata[i];
      if (g_str_equal (gnn_profiler_event_get_name (ev), "gemm") && is_inside (events, ev, first))
        {
          g_assert_cmpuint (gnn_profiler_event_get_flops (ev), ==, 2 * 5 * 8 * 4);
          g_assert_cmpstr (gnn_profiler_event_get_dtype (ev), ==, "float32");
          g_assert_cmpstr (gnn_profiler_event_get_device (ev), ==, "cpu:0");
          g_assert_nonnull (gnn_profiler_event_get_backend (ev));
          g_assert_nonnull (gnn_profiler_event_get_input_shapes (ev));
          g_assert_true (g_str_has_prefix (gnn_profiler_event_get_input_shapes (ev), "[["));
        }
      if (g_str_equal (gnn_profiler_event_get_name (ev), "gemm") && is_inside (events, ev, second))
        g_assert_cmpuint (gnn_profiler_event_get_flops (ev), ==, 2 * 5 * 3 * 8);
    }
  /* the optimizer's update runs kernels inside its range */
  {
    guint inside_step = 0;
    for (guint i = 0; i < events->len; i++)
      if (gnn_profiler_event_get_kind (events->pdata[i]) == GNN_PROFILER_EVENT_KERNEL &&
          is_inside (events, events->pdata[i], step))
        inside_step++;
    g_assert_cmpuint (inside_step, >, 0);
  }

  /* every child lies inside its parent in time, on its thread; self ≤ total */
  for (guint i = 0; i < events->len; i++)
    {
      GnnProfilerEvent *ev = events->pdata[i];
      gint64 p = gnn_profiler_event_get_parent_id (ev);
      gint64 start = gnn_profiler_event_get_start_ns (ev);
      gint64 end = start + gnn_profiler_event_get_duration_ns (ev);

      g_assert_cmpuint (gnn_profiler_event_get_id (ev), ==, i);
      g_assert_cmpint (start, >=, 0);
      g_assert_cmpint (gnn_profiler_event_get_self_ns (ev), <=, gnn_profiler_event_get_duration_ns (ev));
      g_assert_cmpint (gnn_profiler_event_get_self_ns (ev), >=, 0);
      g_assert_cmpuint (gnn_profiler_event_get_thread (ev), >, 0);
      if (gnn_profiler_event_get_kind (ev) == GNN_PROFILER_EVENT_KERNEL)
        {
          n_kernels++;
          g_assert_cmpint (gnn_profiler_event_get_self_ns (ev), ==, gnn_profiler_event_get_duration_ns (ev));
        }
      else
        {
          g_assert_cmpuint (gnn_profiler_event_get_flops (ev), ==, 0);
          g_assert_null (gnn_profiler_event_get_input_shapes (ev));
        }
      if (gnn_profiler_event_get_kind (ev) == GNN_PROFILER_EVENT_BACKWARD)
        n_backward++;
      if (p >= 0)
        {
          GnnProfilerEvent *parent = event_at (events, p);
          gint64 pstart = gnn_profiler_event_get_start_ns (parent);

          g_assert_cmpint (p, <, i);
          g_assert_cmpint (gnn_profiler_event_get_kind (parent), !=, GNN_PROFILER_EVENT_KERNEL);
          g_assert_cmpuint (gnn_profiler_event_get_thread (parent), ==, gnn_profiler_event_get_thread (ev));
          g_assert_cmpint (start, >=, pstart);
          g_assert_cmpint (end, <=, pstart + gnn_profiler_event_get_duration_ns (parent));
        }
    }
  g_assert_cmpuint (n_kernels, >, 0);
  /* backward: the nodes of both Linears, the ReLU, the sum and the four AccumulateGrads */
  g_assert_cmpuint (n_backward, >=, 8);
  g_assert_cmpuint (count_named (events, "AccumulateGrad"), ==, 4);
  g_assert_nonnull (find_named (events, "SumBackward0"));
  /* the backward of a Linear's product runs matrix products inside its range */
  for (guint i = 0; i < events->len; i++)
    {
      GnnProfilerEvent *ev = events->pdata[i];
      if (gnn_profiler_event_get_kind (ev) == GNN_PROFILER_EVENT_BACKWARD &&
          g_str_equal (gnn_profiler_event_get_name (ev), "AccumulateGrad"))
        g_assert_cmpuint (count_inside (events, ev, "gemm"), ==, 0);
    }

  /* a module's self time is its total less its children's */
  {
    gint64 children = 0;
    for (guint i = 0; i < events->len; i++)
      if (gnn_profiler_event_get_parent_id (events->pdata[i]) == gnn_profiler_event_get_id (root))
        children += gnn_profiler_event_get_duration_ns (events->pdata[i]);
    g_assert_cmpint (gnn_profiler_event_get_self_ns (root), ==,
                     gnn_profiler_event_get_duration_ns (root) - children);
  }

  /* stopped: nothing more is recorded */
  {
    guint n = events->len;
    g_autoptr(GPtrArray) again = NULL;

    train_step (model, opt);
    again = gnn_profiler_get_events (prof);
    g_assert_cmpuint (again->len, ==, n);
  }

  /* a second profile starts afresh */
  OK (gnn_profiler_start (prof, &error));
  OK (gnn_profiler_stop (prof, &error));
  {
    g_autoptr(GPtrArray) again = gnn_profiler_get_events (prof);
    g_assert_cmpuint (again->len, ==, 1);
    g_assert_cmpstr (gnn_profiler_event_get_name (again->pdata[0]), ==, "ProfilerStep#0");
  }
  g_clear_pointer (&events, g_ptr_array_unref);
  g_clear_object (&opt);
  g_clear_object (&group);
  g_assert_finalize_object (g_steal_pointer (&prof));
  g_assert_finalize_object (g_steal_pointer (&model));
}

/* without record_shapes and with_flops (torch's defaults) kernels keep neither */
static void
test_defaults (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnModule) model = small_model ();
  g_autoptr(GnnProfiler) prof = gnn_profiler_new ();
  g_autoptr(GPtrArray) events = NULL;
  const gint64 shape[] = { 2, 4 };
  g_autoptr(GnnTensor) x = NULL, y = NULL;
  guint gemms = 0;

  g_assert_false (gnn_profiler_get_record_shapes (prof));
  g_assert_false (gnn_profiler_get_with_flops (prof));
  OK (x = gnn_tensor_new_randn (shape, 2, NULL, F32, "cpu", &error));
  OK (gnn_profiler_start (prof, &error));
  OK (y = gnn_module_forward_tensor (model, x, &error));
  OK (gnn_profiler_stop (prof, &error));
  events = gnn_profiler_get_events (prof);
  for (guint i = 0; i < events->len; i++)
    {
      GnnProfilerEvent *ev = events->pdata[i];
      g_assert_null (gnn_profiler_event_get_input_shapes (ev));
      g_assert_cmpuint (gnn_profiler_event_get_flops (ev), ==, 0);
      gemms += g_str_equal (gnn_profiler_event_get_name (ev), "gemm");
    }
  g_assert_cmpuint (gemms, ==, 2);
  /* the events outlive the profiler */
  g_assert_finalize_object (g_steal_pointer (&prof));
  g_assert_cmpstr (gnn_profiler_event_get_name (events->pdata[1]), ==, "Sequential");
}

/* the C scope: g_autoptr (GnnProfilerScope) stops the profiler on leaving the block, also
 * when the block is left early; a second scope while one records is refused */
static gboolean
profile_in_scope (GnnProfiler *prof,
                  GnnModule   *model,
                  GnnTensor   *x,
                  gboolean     leave_early)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnProfilerScope) scope = gnn_profiler_scope_start (prof, &error);
  g_autoptr(GnnProfiler) other = gnn_profiler_new ();
  g_autoptr(GnnTensor) y = NULL;

  g_assert_no_error (error);
  g_assert_true (gnn_profiler_get_active (prof));
  g_assert_null (gnn_profiler_scope_start (other, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_FAILED);
  g_clear_error (&error);
  OK (y = gnn_module_forward_tensor (model, x, &error));
  if (leave_early)
    return TRUE;
  OK (gnn_profiler_stop (prof, &error));   /* stopped by hand: the scope's end does nothing more */
  return FALSE;
}

static void
test_scope (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnModule) model = small_model ();
  g_autoptr(GnnProfiler) prof = gnn_profiler_new ();
  const gint64 shape[] = { 2, 4 };
  g_autoptr(GnnTensor) x = NULL;

  OK (x = gnn_tensor_new_randn (shape, 2, NULL, F32, "cpu", &error));
  for (int early = 0; early < 2; early++)
    {
      g_autoptr(GPtrArray) events = NULL;

      profile_in_scope (prof, model, x, early);
      g_assert_false (gnn_profiler_get_active (prof));
      events = gnn_profiler_get_events (prof);
      g_assert_cmpuint (events->len, >, 2);
    }
  g_assert_finalize_object (g_steal_pointer (&prof));
}

/* a range left open at stop ends then; a module called from outside any model is a root */
static void
test_open_ranges (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnProfiler) prof = gnn_profiler_new ();
  g_autoptr(GnnModule) relu = GNN_MODULE (gnn_relu_new ());
  g_autoptr(GPtrArray) events = NULL;
  const gint64 shape[] = { 3 };
  g_autoptr(GnnTensor) x = NULL, y = NULL;
  GnnProfilerEvent *outer, *inner, *m;

  OK (x = gnn_tensor_new_randn (shape, 1, NULL, F32, "cpu", &error));
  OK (gnn_profiler_start (prof, &error));
  gnn_profiler_record_function_begin ("outer");
  gnn_profiler_record_function_begin ("inner");
  OK (y = gnn_module_forward_tensor (relu, x, &error));
  OK (gnn_profiler_record_function_end (&error));
  OK (gnn_profiler_stop (prof, &error));
  /* "outer" is still open on the thread's record_function stack */
  OK (gnn_profiler_record_function_end (&error));
  events = gnn_profiler_get_events (prof);
  outer = find_named (events, "outer");
  inner = find_named (events, "inner");
  m = find_named (events, "ReLU");
  g_assert_nonnull (outer);
  g_assert_nonnull (inner);
  g_assert_nonnull (m);
  g_assert_cmpint (gnn_profiler_event_get_parent_id (inner), ==, gnn_profiler_event_get_id (outer));
  g_assert_cmpint (gnn_profiler_event_get_parent_id (m), ==, gnn_profiler_event_get_id (inner));
  g_assert_cmpint (gnn_profiler_event_get_start_ns (outer) + gnn_profiler_event_get_duration_ns (outer), >=,
                   gnn_profiler_event_get_start_ns (inner) + gnn_profiler_event_get_duration_ns (inner));
  /* record_function without a profiler nests and pairs all the same */
  gnn_profiler_record_function_begin ("unprofiled");
  OK (gnn_profiler_record_function_end (&error));
}

static void
test_errors (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnProfiler) prof = gnn_profiler_new ();
  g_autoptr(GnnProfiler) other = gnn_profiler_new ();

  /* stop without start */
  g_assert_false (gnn_profiler_stop (prof, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_FAILED);
  g_assert_nonnull (strstr (error->message, "not started"));
  g_clear_error (&error);

  /* start twice, and a second profiler while one records */
  OK (gnn_profiler_start (prof, &error));
  g_assert_false (gnn_profiler_start (prof, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_FAILED);
  g_assert_nonnull (strstr (error->message, "already recording"));
  g_clear_error (&error);
  g_assert_false (gnn_profiler_start (other, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_FAILED);
  g_assert_nonnull (strstr (error->message, "another profiler"));
  g_clear_error (&error);
  g_assert_true (gnn_profiler_get_active (prof));
  g_assert_false (gnn_profiler_get_active (other));
  OK (gnn_profiler_stop (prof, &error));
  g_assert_false (gnn_profiler_stop (prof, &error));
  g_clear_error (&error);
  /* the other one may record now */
  OK (gnn_profiler_start (other, &error));
  OK (gnn_profiler_stop (other, &error));

  /* record_function end without begin */
  g_assert_false (gnn_profiler_record_function_end (&error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_FAILED);
  g_assert_nonnull (strstr (error->message, "without a begin"));
  g_clear_error (&error);
  g_assert_finalize_object (g_steal_pointer (&prof));
  g_assert_finalize_object (g_steal_pointer (&other));
}

/* key averages: one per name (or name and shapes), the counts and times of its events */
static void
test_key_averages (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnModule) model = small_model ();
  g_autoptr(GnnParamGroup) group = gnn_param_group_new_from_module (model);
  g_autoptr(GnnOptimizer) opt = NULL;
  g_autoptr(GnnProfiler) prof = gnn_profiler_new ();
  g_autoptr(GPtrArray) events = NULL, avgs = NULL, by_shape = NULL;
  guint gemm_events = 0, gemm_rows = 0, total_count = 0;
  gint64 gemm_ns = 0;
  GnnProfilerAverage *gemm = NULL;

  OK (opt = GNN_OPTIMIZER (gnn_sgd_new (group, 0.1, 0, 0, 0, FALSE, FALSE, &error)));
  gnn_profiler_set_record_shapes (prof, TRUE);
  gnn_profiler_set_with_flops (prof, TRUE);
  OK (gnn_profiler_start (prof, &error));
  /* nothing to average while recording */
  avgs = gnn_profiler_key_averages (prof, FALSE);
  g_assert_cmpuint (avgs->len, ==, 0);
  g_clear_pointer (&avgs, g_ptr_array_unref);
  train_step (model, opt);
  train_step (model, opt);
  OK (gnn_profiler_stop (prof, &error));

  events = gnn_profiler_get_events (prof);
  for (guint i = 0; i < events->len; i++)
    if (g_str_equal (gnn_profiler_event_get_name (events->pdata[i]), "gemm"))
      {
        gemm_events++;
        gemm_ns += gnn_profiler_event_get_duration_ns (events->pdata[i]);
      }
  avgs = gnn_profiler_key_averages (prof, FALSE);
  for (guint i = 0; i < avgs->len; i++)
    {
      GnnProfilerAverage *a = avgs->pdata[i];

      g_assert_null (gnn_profiler_average_get_input_shapes (a));
      g_assert_cmpfloat (gnn_profiler_average_get_self_cpu_time_total (a), <=,
                         gnn_profiler_average_get_cpu_time_total (a));
      g_assert_cmpfloat_with_epsilon (gnn_profiler_average_get_cpu_time (a) * gnn_profiler_average_get_count (a),
                                      gnn_profiler_average_get_cpu_time_total (a), 1e-6);
      total_count += gnn_profiler_average_get_count (a);
      /* keys are unique */
      for (guint j = 0; j < i; j++)
        g_assert_cmpstr (gnn_profiler_average_get_key (a), !=, gnn_profiler_average_get_key (avgs->pdata[j]));
      if (g_str_equal (gnn_profiler_average_get_key (a), "gemm"))
        gemm = a;
    }
  g_assert_cmpuint (total_count, ==, events->len);
  g_assert_nonnull (gemm);
  g_assert_cmpuint (gnn_profiler_average_get_count (gemm), ==, gemm_events);
  g_assert_cmpfloat_with_epsilon (gnn_profiler_average_get_cpu_time_total (gemm), gemm_ns / 1000.0, 1e-6);
  /* two steps: each Linear's forward product twice, and their backward ones */
  g_assert_cmpuint (gemm_events, >=, 4);
  g_assert_cmpuint (gnn_profiler_average_get_flops (gemm), >=, 2 * (2 * 5 * 8 * 4 + 2 * 5 * 3 * 8));
  {
    GnnProfilerAverage *root = NULL;
    for (guint i = 0; i < avgs->len; i++)
      if (g_str_equal (gnn_profiler_average_get_key (avgs->pdata[i]), "0 (Linear)"))
        root = avgs->pdata[i];
    g_assert_nonnull (root);
    g_assert_cmpuint (gnn_profiler_average_get_count (root), ==, 2);
  }

  /* by input shape: the two Linears' forward products average apart */
  by_shape = gnn_profiler_key_averages (prof, TRUE);
  g_assert_cmpuint (by_shape->len, >, avgs->len);
  for (guint i = 0; i < by_shape->len; i++)
    {
      GnnProfilerAverage *a = by_shape->pdata[i];
      g_assert_nonnull (gnn_profiler_average_get_input_shapes (a));
      if (g_str_equal (gnn_profiler_average_get_key (a), "gemm"))
        gemm_rows++;
    }
  g_assert_cmpuint (gemm_rows, >=, 2);
}

static guint
count_lines (const char *text)
{
  guint n = 0;

  for (const char *p = text; *p; p++)
    n += *p == '\n';
  return n;
}

static void
test_table (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnModule) model = small_model ();
  g_autoptr(GnnParamGroup) group = gnn_param_group_new_from_module (model);
  g_autoptr(GnnOptimizer) opt = NULL;
  g_autoptr(GnnProfiler) prof = gnn_profiler_new ();
  g_autoptr(GPtrArray) avgs = NULL;
  g_autofree char *table = NULL, *shapes = NULL, *all = NULL, *unsorted = NULL;
  g_auto(GStrv) lines = NULL;
  GnnProfilerAverage *top = NULL;
  char *bad;

  OK (opt = GNN_OPTIMIZER (gnn_sgd_new (group, 0.1, 0, 0, 0, FALSE, FALSE, &error)));
  /* nothing recorded: an empty table, as torch's */
  OK (table = gnn_profiler_table (prof, FALSE, "self_cpu_time_total", 10, &error));
  g_assert_cmpstr (table, ==, "");
  g_clear_pointer (&table, g_free);

  gnn_profiler_set_record_shapes (prof, TRUE);
  gnn_profiler_set_with_flops (prof, TRUE);
  OK (gnn_profiler_start (prof, &error));
  train_step (model, opt);
  OK (gnn_profiler_stop (prof, &error));

  OK (table = gnn_profiler_table (prof, FALSE, "self_cpu_time_total", 3, &error));
  /* separator, header, separator, 3 rows, separator, total */
  g_assert_cmpuint (count_lines (table), ==, 8);
  lines = g_strsplit (table, "\n", -1);
  g_assert_true (g_str_has_prefix (lines[0], "-----"));
  g_assert_nonnull (strstr (lines[1], "Name  "));
  g_assert_nonnull (strstr (lines[1], "  Self CPU %  "));
  g_assert_nonnull (strstr (lines[1], "  Self CPU  "));
  g_assert_nonnull (strstr (lines[1], "  CPU total %  "));
  g_assert_nonnull (strstr (lines[1], "  CPU total  "));
  g_assert_nonnull (strstr (lines[1], "  CPU time avg  "));
  g_assert_nonnull (strstr (lines[1], "  # of Calls  "));
  g_assert_nonnull (strstr (lines[1], "  Total "));
  g_assert_null (strstr (lines[1], "Input Shapes"));
  g_assert_cmpuint (strlen (lines[0]), ==, strlen (lines[1]));
  g_assert_cmpuint (strlen (lines[3]), ==, strlen (lines[1]));
  g_assert_true (g_str_has_prefix (lines[7], "Self CPU time total: "));
  /* the first row is the key with the largest self time */
  avgs = gnn_profiler_key_averages (prof, FALSE);
  for (guint i = 0; i < avgs->len; i++)
    if (top == NULL || gnn_profiler_average_get_self_cpu_time_total (avgs->pdata[i]) >
                       gnn_profiler_average_get_self_cpu_time_total (top))
      top = avgs->pdata[i];
  {
    g_autofree char *cell = g_strdup_printf (" %s  ", gnn_profiler_average_get_key (top));
    g_assert_nonnull (strstr (lines[3], cell));
  }

  /* every row, grouped by shape: the Input Shapes column */
  OK (shapes = gnn_profiler_table (prof, TRUE, "cpu_time_total", -1, &error));
  g_assert_nonnull (strstr (shapes, "Input Shapes"));
  g_assert_nonnull (strstr (shapes, "[[1, 5, 4], [1, 4, 8]]"));   /* the batched GEMM kernel */
  OK (all = gnn_profiler_table (prof, FALSE, NULL, -1, &error));
  g_assert_cmpuint (count_lines (all), ==, avgs->len + 5);
  OK (unsorted = gnn_profiler_table (prof, FALSE, "count", 1000, &error));
  g_assert_cmpuint (count_lines (unsorted), ==, avgs->len + 5);

  bad = gnn_profiler_table (prof, FALSE, "self_time", 10, &error);
  g_assert_null (bad);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "self_time"));
}

/* the chrome trace parses with json-glib, has one complete event per event with the keys */
static void
test_chrome_trace (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnModule) model = small_model ();
  g_autoptr(GnnParamGroup) group = gnn_param_group_new_from_module (model);
  g_autoptr(GnnOptimizer) opt = NULL;
  g_autoptr(GnnProfiler) prof = gnn_profiler_new ();
  g_autoptr(GPtrArray) events = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autofree char *dir = NULL, *path = NULL, *bad = NULL, *before = NULL, *after = NULL;
  JsonArray *trace;
  JsonObject *top;
  gboolean saw_shapes = FALSE;

  OK (opt = GNN_OPTIMIZER (gnn_sgd_new (group, 0.1, 0, 0, 0, FALSE, FALSE, &error)));
  gnn_profiler_set_record_shapes (prof, TRUE);
  gnn_profiler_set_with_flops (prof, TRUE);
  OK (dir = g_dir_make_tmp ("gnn-profiler-XXXXXX", &error));
  path = g_build_filename (dir, "trace.json", NULL);
  OK (gnn_profiler_start (prof, &error));
  train_step (model, opt);
  /* not while recording */
  g_assert_false (gnn_profiler_export_chrome_trace (prof, path, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_FAILED);
  g_clear_error (&error);
  OK (gnn_profiler_stop (prof, &error));
  OK (gnn_profiler_export_chrome_trace (prof, path, &error));

  OK (json_parser_load_from_file (parser, path, &error));
  top = json_node_get_object (json_parser_get_root (parser));
  g_assert_true (json_object_has_member (top, "traceEvents"));
  trace = json_object_get_array_member (top, "traceEvents");
  events = gnn_profiler_get_events (prof);
  g_assert_cmpuint (json_array_get_length (trace), ==, events->len);
  for (guint i = 0; i < json_array_get_length (trace); i++)
    {
      JsonObject *e = json_array_get_object_element (trace, i);
      GnnProfilerEvent *ev = events->pdata[i];
      JsonObject *args;

      for (guint k = 0; k < 8; k++)
        {
          static const char *const keys[] = { "name", "ph", "ts", "dur", "pid", "tid", "cat", "args" };
          g_assert_true (json_object_has_member (e, keys[k]));
        }
      g_assert_cmpstr (json_object_get_string_member (e, "name"), ==, gnn_profiler_event_get_name (ev));
      g_assert_cmpstr (json_object_get_string_member (e, "ph"), ==, "X");
      g_assert_cmpfloat_with_epsilon (json_object_get_double_member (e, "ts"),
                                      gnn_profiler_event_get_start_ns (ev) / 1000.0, 1e-3);
      g_assert_cmpfloat_with_epsilon (json_object_get_double_member (e, "dur"),
                                      gnn_profiler_event_get_duration_ns (ev) / 1000.0, 1e-3);
      g_assert_cmpint (json_object_get_int_member (e, "pid"), ==, getpid ());
      g_assert_cmpint (json_object_get_int_member (e, "tid"), ==, gnn_profiler_event_get_thread (ev));
      args = json_object_get_object_member (e, "args");
      if (gnn_profiler_event_get_kind (ev) == GNN_PROFILER_EVENT_KERNEL)
        {
          g_assert_cmpstr (json_object_get_string_member (e, "cat"), ==, "kernel");
          g_assert_cmpint (json_object_get_int_member (args, "flops"), ==, gnn_profiler_event_get_flops (ev));
          g_assert_true (json_object_has_member (args, "Input Dims"));
          saw_shapes = TRUE;
        }
      if (gnn_profiler_event_get_kind (ev) == GNN_PROFILER_EVENT_MODULE)
        g_assert_cmpstr (json_object_get_string_member (e, "cat"), ==, "module");
    }
  g_assert_true (saw_shapes);

  /* an unwritable path: a GError naming it, and an existing file stays as it was */
  bad = g_build_filename (dir, "missing-dir", "trace.json", NULL);
  g_assert_false (gnn_profiler_export_chrome_trace (prof, bad, &error));
  g_assert_error (error, G_FILE_ERROR, G_FILE_ERROR_NOENT);
  g_assert_nonnull (strstr (error->message, bad));
  g_clear_error (&error);
  OK (g_file_get_contents (path, &before, NULL, &error));
  g_assert_true (g_chmod (dir, 0500) == 0);
  if (access (dir, W_OK) != 0)        /* root writes anyway */
    {
      g_assert_false (gnn_profiler_export_chrome_trace (prof, path, &error));
      g_assert_nonnull (error);
      g_assert_nonnull (strstr (error->message, path));
      g_clear_error (&error);
      OK (g_file_get_contents (path, &after, NULL, &error));
      g_assert_cmpstr (after, ==, before);
    }
  g_assert_true (g_chmod (dir, 0700) == 0);
  g_assert_true (g_remove (path) == 0);
  g_assert_true (g_rmdir (dir) == 0);
}

typedef struct {
  guint ready;
  guint steps_seen[8];          /* the ProfilerStep#N of each profile handed over */
  guint n_steps[8];
} ReadyLog;

static void
on_trace_ready (GnnProfiler *prof, gpointer data)
{
  ReadyLog *log = data;
  g_autoptr(GPtrArray) events = gnn_profiler_get_events (prof);
  guint n = 0, first = G_MAXUINT;

  for (guint i = 0; i < events->len; i++)
    if (gnn_profiler_event_get_kind (events->pdata[i]) == GNN_PROFILER_EVENT_STEP)
      {
        guint k = (guint) g_ascii_strtoull (gnn_profiler_event_get_name (events->pdata[i]) + strlen ("ProfilerStep#"), NULL, 10);
        g_assert_true (g_str_has_prefix (gnn_profiler_event_get_name (events->pdata[i]), "ProfilerStep#"));
        first = MIN (first, k);
        n++;
      }
  g_assert_cmpuint (log->ready, <, G_N_ELEMENTS (log->n_steps));
  log->steps_seen[log->ready] = first;
  log->n_steps[log->ready] = n;
  log->ready++;
}

static void
test_schedule (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnProfiler) prof = gnn_profiler_new ();
  g_autoptr(GnnProfiler) plain = gnn_profiler_new ();
  ReadyLog log = { 0 };
  const gint64 shape[] = { 4 };
  static const GnnProfilerAction expected[] = {
    /* skip_first 1, then wait 1, warmup 1, active 2, twice */
    GNN_PROFILER_ACTION_NONE,
    GNN_PROFILER_ACTION_NONE, GNN_PROFILER_ACTION_WARMUP, GNN_PROFILER_ACTION_RECORD, GNN_PROFILER_ACTION_RECORD_AND_SAVE,
    GNN_PROFILER_ACTION_NONE, GNN_PROFILER_ACTION_WARMUP, GNN_PROFILER_ACTION_RECORD, GNN_PROFILER_ACTION_RECORD_AND_SAVE,
    GNN_PROFILER_ACTION_NONE, GNN_PROFILER_ACTION_NONE,
  };

  for (guint i = 0; i < G_N_ELEMENTS (expected); i++)
    g_assert_cmpint (gnn_profiler_schedule_action (1, 1, 2, 2, 1, i), ==, expected[i]);
  /* repeat 0: without end */
  g_assert_cmpint (gnn_profiler_schedule_action (0, 0, 1, 0, 0, 1000), ==, GNN_PROFILER_ACTION_RECORD_AND_SAVE);

  g_assert_false (gnn_profiler_set_schedule (prof, 1, 1, 0, 1, 0, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  OK (gnn_profiler_set_schedule (prof, 1, 1, 2, 2, 1, &error));
  g_signal_connect (prof, "trace-ready", G_CALLBACK (on_trace_ready), &log);
  g_assert_false (gnn_profiler_step (prof, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_FAILED);
  g_clear_error (&error);

  OK (gnn_profiler_start (prof, &error));
  g_assert_false (gnn_profiler_set_schedule (prof, 1, 1, 1, 1, 0, &error));
  g_clear_error (&error);
  for (guint i = 0; i < 11; i++)
    {
      g_autoptr(GnnTensor) x = NULL, y = NULL;

      g_assert_cmpuint (gnn_profiler_get_step_num (prof), ==, i);
      OK (x = gnn_tensor_new_randn (shape, 1, NULL, F32, "cpu", &error));
      OK (y = gnn_tensor_exp (x, &error));
      OK (gnn_profiler_step (prof, &error));
    }
  OK (gnn_profiler_stop (prof, &error));
  /* two cycles, each the profile of its two active steps (3-4 and 7-8) */
  g_assert_cmpuint (log.ready, ==, 2);
  g_assert_cmpuint (log.steps_seen[0], ==, 3);
  g_assert_cmpuint (log.n_steps[0], ==, 2);
  g_assert_cmpuint (log.steps_seen[1], ==, 7);
  g_assert_cmpuint (log.n_steps[1], ==, 2);

  /* without a schedule every step records, and stop hands the profile over */
  memset (&log, 0, sizeof log);
  g_signal_connect (plain, "trace-ready", G_CALLBACK (on_trace_ready), &log);
  OK (gnn_profiler_start (plain, &error));
  OK (gnn_profiler_step (plain, &error));
  OK (gnn_profiler_step (plain, &error));
  OK (gnn_profiler_stop (plain, &error));
  g_assert_cmpuint (log.ready, ==, 1);
  g_assert_cmpuint (log.steps_seen[0], ==, 0);
  g_assert_cmpuint (log.n_steps[0], ==, 3);
  g_assert_finalize_object (g_steal_pointer (&prof));
  g_assert_finalize_object (g_steal_pointer (&plain));
}

/* gnn-train's default CNN (tools/gnn-tool.c: two conv-BN-ReLU-pool blocks, a classifier with
 * dropout) at batch 4, one AdamW step profiled: each module's range covers the kernels that ran
 * in it, every layer that computes has kernels, kernels of one thread never overlap, and so
 * their self times add up to at most the step's range. Structure only: no timing bound. */
static void
test_cnn_step (void)
{
  const gint64 k3[2] = { 3, 3 }, pad1[2] = { 1, 1 }, k2[2] = { 2, 2 };
  const gint64 xshape[] = { 4, 1, 28, 28 };
  const gint64 labels[] = { 0, 3, 7, 9 };
  g_autoptr(GError) error = NULL;
  GnnModule *layers[13];
  g_autoptr(GnnModule) model = NULL;
  g_autoptr(GnnParamGroup) group = NULL;
  g_autoptr(GnnOptimizer) opt = NULL;
  g_autoptr(GnnProfiler) prof = gnn_profiler_new ();
  g_autoptr(GPtrArray) events = NULL;
  g_autoptr(GnnTensor) x = NULL, y = NULL, logits = NULL, loss = NULL;
  static const char *const leaves[] = {
    "0 (Conv2d)", "1 (BatchNorm2d)", "2 (ReLU)", "3 (MaxPool2d)", "4 (Conv2d)", "5 (BatchNorm2d)",
    "6 (ReLU)", "7 (MaxPool2d)", "9 (Linear)", "10 (ReLU)", "11 (Dropout)", "12 (Linear)",
  };
  GnnProfilerEvent *step;
  gint64 kernel_self = 0, step_start, step_end;

  OK (layers[0] = GNN_MODULE (gnn_conv2d_new (1, 32, k3, NULL, pad1, NULL, 1, TRUE, F32, &error)));
  OK (layers[1] = GNN_MODULE (gnn_batch_norm2d_new (32, &error)));
  layers[2] = GNN_MODULE (gnn_relu_new ());
  layers[3] = GNN_MODULE (gnn_max_pool2d_new (k2, NULL, NULL, NULL, FALSE));
  OK (layers[4] = GNN_MODULE (gnn_conv2d_new (32, 64, k3, NULL, pad1, NULL, 1, TRUE, F32, &error)));
  OK (layers[5] = GNN_MODULE (gnn_batch_norm2d_new (64, &error)));
  layers[6] = GNN_MODULE (gnn_relu_new ());
  layers[7] = GNN_MODULE (gnn_max_pool2d_new (k2, NULL, NULL, NULL, FALSE));
  layers[8] = GNN_MODULE (gnn_flatten_new (1, -1));
  OK (layers[9] = GNN_MODULE (gnn_linear_new (64 * 7 * 7, 128, TRUE, &error)));
  layers[10] = GNN_MODULE (gnn_relu_new ());
  OK (layers[11] = GNN_MODULE (gnn_dropout_new (0.25, &error)));
  OK (layers[12] = GNN_MODULE (gnn_linear_new (128, 10, TRUE, &error)));
  model = GNN_MODULE (gnn_sequential_new (layers, 13));
  for (guint i = 0; i < 13; i++)
    g_object_unref (layers[i]);
  group = gnn_param_group_new_from_module (model);
  OK (opt = GNN_OPTIMIZER (gnn_adamw_new (group, 0.002, 0.9, 0.999, 1e-8, 0.01, FALSE, FALSE, &error)));
  OK (x = gnn_tensor_new_randn (xshape, 4, NULL, F32, "cpu", &error));
  OK (y = gnn_tensor_new_from_int64s (labels, 4, (gint64[]) { 4 }, 1, &error));

  OK (gnn_profiler_start (prof, &error));
  gnn_optimizer_zero_grad (opt, TRUE);
  OK (logits = gnn_module_forward_tensor (model, x, &error));
  OK (loss = gnn_tensor_cross_entropy (logits, y, NULL, -100, GNN_REDUCTION_MEAN, 0.0, &error));
  OK (gnn_tensor_backward (loss, NULL, FALSE, &error));
  OK (gnn_optimizer_step (opt, &error));
  OK (gnn_profiler_stop (prof, &error));
  events = gnn_profiler_get_events (prof);
  OK (step = find_named (events, "ProfilerStep#0"));
  step_start = gnn_profiler_event_get_start_ns (step);
  step_end = step_start + gnn_profiler_event_get_duration_ns (step);

  /* each layer that computes ran kernels inside its range; Flatten is a view */
  for (guint l = 0; l < G_N_ELEMENTS (leaves); l++)
    {
      GnnProfilerEvent *range = find_named (events, leaves[l]);
      guint n = 0;

      g_assert_nonnull (range);
      g_assert_cmpint (gnn_profiler_event_get_kind (range), ==, GNN_PROFILER_EVENT_MODULE);
      g_assert_true (event_at (events, gnn_profiler_event_get_parent_id (range)) == find_named (events, "Sequential"));
      for (guint i = 0; i < events->len; i++)
        n += gnn_profiler_event_get_kind (events->pdata[i]) == GNN_PROFILER_EVENT_KERNEL &&
             is_inside (events, events->pdata[i], range);
      g_assert_cmpuint (n, >, 0);
    }
  g_assert_nonnull (find_named (events, "8 (Flatten)"));
  /* and each one's backward range, after its forward, inside the model's backward range */
  {
    GnnProfilerEvent *root_bw = find_named (events, "Sequential backward");

    g_assert_nonnull (root_bw);
    for (guint l = 0; l < G_N_ELEMENTS (leaves); l++)
      {
        g_autofree char *name = g_strconcat (leaves[l], " backward", NULL);
        GnnProfilerEvent *forward = find_named (events, leaves[l]);
        GnnProfilerEvent *range = find_named (events, name);

        g_assert_nonnull (range);
        g_assert_true (event_at (events, gnn_profiler_event_get_parent_id (range)) == root_bw);
        g_assert_cmpint (gnn_profiler_event_get_start_ns (range), >=,
                         gnn_profiler_event_get_start_ns (forward) + gnn_profiler_event_get_duration_ns (forward));
      }
  }

  for (guint i = 0; i < events->len; i++)
    {
      GnnProfilerEvent *ev = events->pdata[i];
      gint64 start = gnn_profiler_event_get_start_ns (ev);
      gint64 end = start + gnn_profiler_event_get_duration_ns (ev);

      /* everything happened inside the step */
      g_assert_cmpint (start, >=, step_start);
      g_assert_cmpint (end, <=, step_end);
      if (gnn_profiler_event_get_kind (ev) == GNN_PROFILER_EVENT_MODULE)
        /* a module's range covers every kernel that began on its thread while it was open */
        for (guint j = i + 1; j < events->len; j++)
          {
            GnnProfilerEvent *k = events->pdata[j];
            gint64 ks = gnn_profiler_event_get_start_ns (k);

            if (gnn_profiler_event_get_kind (k) != GNN_PROFILER_EVENT_KERNEL ||
                gnn_profiler_event_get_thread (k) != gnn_profiler_event_get_thread (ev))
              continue;
            if (ks > end)
              break;
            g_assert_true (is_inside (events, k, ev));
            g_assert_cmpint (ks + gnn_profiler_event_get_duration_ns (k), <=, end);
          }
      if (gnn_profiler_event_get_kind (ev) == GNN_PROFILER_EVENT_KERNEL)
        {
          kernel_self += gnn_profiler_event_get_self_ns (ev);
          /* the next kernel on this thread begins after this one ended */
          for (guint j = i + 1; j < events->len; j++)
            {
              GnnProfilerEvent *k = events->pdata[j];
              if (gnn_profiler_event_get_kind (k) == GNN_PROFILER_EVENT_KERNEL &&
                  gnn_profiler_event_get_thread (k) == gnn_profiler_event_get_thread (ev))
                {
                  g_assert_cmpint (gnn_profiler_event_get_start_ns (k), >=, end);
                  break;
                }
            }
        }
    }
  g_assert_cmpint (kernel_self, >, 0);
  g_assert_cmpint (kernel_self, <=, step_end - step_start);
  g_assert_cmpuint (count_named (events, "Optimizer.step#AdamW.step"), ==, 1);

  /* events outlive the profile that recorded them: a new start drops the profiler's own */
  {
    g_autoptr(GnnProfilerEvent) kept = gnn_profiler_event_ref (find_named (events, "12 (Linear)"));
    g_autoptr(GnnProfilerEvent) user = NULL;
    g_autoptr(GPtrArray) again = NULL;

    g_clear_pointer (&events, g_ptr_array_unref);
    OK (gnn_profiler_start (prof, &error));
    gnn_profiler_record_function_begin ("later");
    OK (gnn_profiler_record_function_end (&error));
    OK (gnn_profiler_stop (prof, &error));
    again = gnn_profiler_get_events (prof);
    OK (user = gnn_profiler_event_ref (find_named (again, "later")));
    g_clear_object (&prof);
    g_clear_pointer (&again, g_ptr_array_unref);
    g_assert_cmpstr (gnn_profiler_event_get_name (kept), ==, "12 (Linear)");
    g_assert_cmpint (gnn_profiler_event_get_kind (kept), ==, GNN_PROFILER_EVENT_MODULE);
    g_assert_cmpstr (gnn_profiler_event_get_name (user), ==, "later");
  }
}

/* the range of @name, which must exist once, of @kind */
static GnnProfilerEvent *
the_range (GPtrArray *events, const char *name, GnnProfilerEventKind kind)
{
  GnnProfilerEvent *ev = find_named (events, name);

  if (ev == NULL)
    g_error ("no range named \"%s\"", name);
  g_assert_cmpuint (count_named (events, name), ==, 1);
  g_assert_cmpint (gnn_profiler_event_get_kind (ev), ==, kind);
  return ev;
}

static gint64
end_of (GnnProfilerEvent *ev)
{
  return gnn_profiler_event_get_start_ns (ev) + gnn_profiler_event_get_duration_ns (ev);
}

/* each module's backward is a range named after its forward, after it in time, holding the
 * nodes (and kernels) its forward recorded, inside its parent module's backward range */
static void
test_module_backward (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnModule) model = small_model ();
  g_autoptr(GnnParamGroup) group = gnn_param_group_new_from_module (model);
  g_autoptr(GnnOptimizer) opt = NULL;
  g_autoptr(GnnProfiler) prof = gnn_profiler_new ();
  g_autoptr(GPtrArray) events = NULL;
  static const char *const names[] = { "Sequential", "0 (Linear)", "1 (ReLU)", "2 (Linear)" };
  GnnProfilerEvent *fw[4], *bw[4];
  guint gemm_in_nodes = 0, n_module_bw = 0;

  OK (opt = GNN_OPTIMIZER (gnn_sgd_new (group, 0.1, 0, 0, 0, FALSE, FALSE, &error)));
  OK (gnn_profiler_start (prof, &error));
  train_step (model, opt);
  OK (gnn_profiler_stop (prof, &error));
  events = gnn_profiler_get_events (prof);

  for (guint m = 0; m < 4; m++)
    {
      g_autofree char *name = g_strconcat (names[m], " backward", NULL);

      fw[m] = the_range (events, names[m], GNN_PROFILER_EVENT_MODULE);
      bw[m] = the_range (events, name, GNN_PROFILER_EVENT_MODULE_BACKWARD);
      /* after its forward, with no FLOPs or shapes of its own */
      g_assert_cmpint (gnn_profiler_event_get_start_ns (bw[m]), >=, end_of (fw[m]));
      g_assert_cmpint (gnn_profiler_event_get_duration_ns (bw[m]), >, 0);
      g_assert_cmpuint (gnn_profiler_event_get_flops (bw[m]), ==, 0);
      g_assert_null (gnn_profiler_event_get_input_shapes (bw[m]));
    }
  /* nested as the forwards are: the children inside the root's, in time too */
  for (guint m = 1; m < 4; m++)
    {
      g_assert_cmpint (gnn_profiler_event_get_parent_id (bw[m]), ==, gnn_profiler_event_get_id (bw[0]));
      g_assert_cmpint (gnn_profiler_event_get_start_ns (bw[m]), >=, gnn_profiler_event_get_start_ns (bw[0]));
      g_assert_cmpint (end_of (bw[m]), <=, end_of (bw[0]));
    }
  /* the root's backward range lies outside the user range of the forward, in the step */
  g_assert_cmpint (gnn_profiler_event_get_parent_id (bw[0]), ==, 0);
  /* in the reverse order of the forwards, one after the other */
  g_assert_cmpint (gnn_profiler_event_get_start_ns (bw[2]), >=, end_of (bw[3]));
  g_assert_cmpint (gnn_profiler_event_get_start_ns (bw[1]), >=, end_of (bw[2]));

  /* the backward kernels of each module lie in its range: the second Linear's gradients of
   * its input and weight, the first's of its weight only (x needs none); the ReLU's own */
  g_assert_cmpuint (count_inside (events, bw[3], "gemm"), ==, 2);
  g_assert_cmpuint (count_inside (events, bw[1], "gemm"), ==, 1);
  g_assert_cmpuint (count_inside (events, bw[2], "gemm"), ==, 0);
  {
    guint relu_kernels = 0;
    for (guint i = 0; i < events->len; i++)
      relu_kernels += gnn_profiler_event_get_kind (events->pdata[i]) == GNN_PROFILER_EVENT_KERNEL &&
                      is_inside (events, events->pdata[i], bw[2]);
    g_assert_cmpuint (relu_kernels, >, 0);
  }
  for (guint i = 0; i < events->len; i++)
    {
      GnnProfilerEvent *ev = events->pdata[i];

      n_module_bw += gnn_profiler_event_get_kind (ev) == GNN_PROFILER_EVENT_MODULE_BACKWARD;
      if (gnn_profiler_event_get_kind (ev) == GNN_PROFILER_EVENT_BACKWARD)
        {
          const char *name = gnn_profiler_event_get_name (ev);

          /* the loss was computed outside the modules; the parameters' AccumulateGrads run in
           * the range of the module whose node fed them, and the rest are the modules' */
          if (g_str_equal (name, "SumBackward0"))
            g_assert_false (is_inside (events, ev, bw[0]));
          else
            g_assert_true (is_inside (events, ev, bw[0]));
          if (g_str_equal (name, "AccumulateGrad"))
            g_assert_true (is_inside (events, ev, bw[1]) || is_inside (events, ev, bw[3]));
          gemm_in_nodes += count_inside (events, ev, "gemm");
        }
    }
  /* every backward matrix product is in the root's backward range; one range per module */
  g_assert_cmpuint (gemm_in_nodes, ==, 3);
  g_assert_cmpuint (count_inside (events, bw[0], "gemm"), ==, gemm_in_nodes);
  g_assert_cmpuint (n_module_bw, ==, 4);
  g_clear_pointer (&events, g_ptr_array_unref);

  /* a module called twice in one graph: one backward range per call, the second call's first,
   * each holding its own call's product */
  {
    const gint64 shape[] = { 5, 4 };
    g_autoptr(GnnModule) shared = NULL;
    g_autoptr(GnnTensor) x = NULL, y = NULL, z = NULL, loss = NULL;
    GnnProfilerEvent *calls[2] = { NULL, NULL }, *ranges[2] = { NULL, NULL };
    guint n_calls = 0, n_ranges = 0;

    OK (shared = GNN_MODULE (gnn_linear_new (4, 4, FALSE, &error)));
    OK (x = gnn_tensor_new_randn (shape, 2, NULL, F32, "cpu", &error));
    OK (gnn_profiler_start (prof, &error));
    OK (y = gnn_module_forward_tensor (shared, x, &error));
    OK (z = gnn_module_forward_tensor (shared, y, &error));
    OK (loss = gnn_tensor_sum_all (z, &error));
    OK (gnn_tensor_backward (loss, NULL, FALSE, &error));
    OK (gnn_profiler_stop (prof, &error));
    events = gnn_profiler_get_events (prof);
    for (guint i = 0; i < events->len; i++)
      {
        const char *name = gnn_profiler_event_get_name (events->pdata[i]);
        if (g_str_equal (name, "Linear") && n_calls < 2)
          calls[n_calls++] = events->pdata[i];
        if (g_str_equal (name, "Linear backward") && n_ranges < 2)
          ranges[n_ranges++] = events->pdata[i];
      }
    g_assert_cmpuint (n_calls, ==, 2);
    g_assert_cmpuint (n_ranges, ==, 2);
    g_assert_cmpuint (count_named (events, "Linear backward"), ==, 2);
    g_assert_cmpint (gnn_profiler_event_get_start_ns (ranges[1]), >=, end_of (ranges[0]));
    g_assert_cmpint (gnn_profiler_event_get_start_ns (ranges[0]), >=, end_of (calls[1]));
    /* the second call's backward: the gradients of its input and weight; the first's: its
     * weight's only */
    g_assert_cmpuint (count_inside (events, ranges[0], "gemm"), ==, 2);
    g_assert_cmpuint (count_inside (events, ranges[1], "gemm"), ==, 1);
    g_clear_pointer (&events, g_ptr_array_unref);
  }

  /* a graph recorded before the profile started has no module backward ranges, only nodes */
  {
    const gint64 shape[] = { 5, 4 };
    g_autoptr(GnnTensor) x = NULL, y = NULL, loss = NULL;
    guint nodes = 0;

    OK (x = gnn_tensor_new_randn (shape, 2, NULL, F32, "cpu", &error));
    OK (y = gnn_module_forward_tensor (model, x, &error));
    OK (loss = gnn_tensor_sum_all (y, &error));
    OK (gnn_profiler_start (prof, &error));
    OK (gnn_tensor_backward (loss, NULL, FALSE, &error));
    OK (gnn_profiler_stop (prof, &error));
    events = gnn_profiler_get_events (prof);
    for (guint i = 0; i < events->len; i++)
      {
        g_assert_cmpint (gnn_profiler_event_get_kind (events->pdata[i]), !=, GNN_PROFILER_EVENT_MODULE_BACKWARD);
        nodes += gnn_profiler_event_get_kind (events->pdata[i]) == GNN_PROFILER_EVENT_BACKWARD;
      }
    g_assert_cmpuint (nodes, >, 0);
  }
  g_clear_pointer (&events, g_ptr_array_unref);
  g_clear_object (&opt);
  g_clear_object (&group);
  g_assert_finalize_object (g_steal_pointer (&prof));
  g_assert_finalize_object (g_steal_pointer (&model));
}

static gpointer
drop_tensor (gpointer data)
{
  g_object_unref (data);
  return NULL;
}

/* profile_memory: the bytes each allocation takes count to the kernel that fills it, frees
 * to the range they happen in, a free on a thread with no range open to "[memory]"; the table's
 * memory columns and sort keys, and the trace's [memory] instant events */
static void
test_memory (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnProfiler) prof = gnn_profiler_new ();
  g_autoptr(GPtrArray) events = NULL, avgs = NULL;
  g_autoptr(GnnTensor) t = NULL, early = NULL;
  g_autofree char *table = NULL, *dir = NULL, *path = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  const gint64 n[] = { 1000 };
  GnnProfilerEvent *alloc, *freed, *step, *filled = NULL;
  JsonArray *trace;
  gint64 bytes[8] = { 0 };
  guint n_memory = 0;
  GThread *thread;

  g_assert_false (gnn_profiler_get_profile_memory (prof));
  gnn_profiler_set_profile_memory (prof, TRUE);
  g_assert_true (gnn_profiler_get_profile_memory (prof));
  OK (early = gnn_tensor_new_zeros (n, 1, F32, "cpu", &error));
  OK (gnn_profiler_start (prof, &error));
  gnn_profiler_record_function_begin ("alloc");
  OK (t = gnn_tensor_new_zeros (n, 1, F32, "cpu", &error));
  OK (gnn_profiler_record_function_end (&error));
  gnn_profiler_record_function_begin ("free");
  g_clear_object (&t);
  OK (gnn_profiler_record_function_end (&error));
  /* memory made before the profile, given back on a thread with no range open */
  thread = g_thread_new ("drop", drop_tensor, g_steal_pointer (&early));
  g_thread_join (thread);
  OK (gnn_profiler_stop (prof, &error));

  events = gnn_profiler_get_events (prof);
  alloc = the_range (events, "alloc", GNN_PROFILER_EVENT_USER);
  freed = the_range (events, "free", GNN_PROFILER_EVENT_USER);
  step = the_range (events, "ProfilerStep#0", GNN_PROFILER_EVENT_STEP);
  /* gnn.zeros (1000): 4000 bytes, counted to the kernel that fills them */
  g_assert_cmpint (gnn_profiler_event_get_cpu_memory_usage (alloc), ==, 4000);
  g_assert_cmpint (gnn_profiler_event_get_self_cpu_memory_usage (alloc), ==, 0);
  for (guint i = 0; i < events->len; i++)
    if (gnn_profiler_event_get_kind (events->pdata[i]) == GNN_PROFILER_EVENT_KERNEL &&
        is_inside (events, events->pdata[i], alloc))
      {
        g_assert_null (filled);
        filled = events->pdata[i];
      }
  g_assert_nonnull (filled);
  g_assert_cmpint (gnn_profiler_event_get_self_cpu_memory_usage (filled), ==, 4000);
  g_assert_cmpint (gnn_profiler_event_get_cpu_memory_usage (filled), ==, 4000);
  g_assert_cmpint (gnn_profiler_event_get_cuda_memory_usage (filled), ==, 0);
  g_assert_cmpint (gnn_profiler_event_get_self_cuda_memory_usage (filled), ==, 0);
  g_assert_cmpint (gnn_profiler_event_get_self_cpu_memory_usage (freed), ==, -4000);
  g_assert_cmpint (gnn_profiler_event_get_cpu_memory_usage (freed), ==, -4000);
  /* the step holds both: nothing left */
  g_assert_cmpint (gnn_profiler_event_get_cpu_memory_usage (step), ==, 0);
  g_assert_cmpint (gnn_profiler_event_get_self_cpu_memory_usage (step), ==, 0);

  /* key averages: the kernel's, the ranges', and the thread's free as "[memory]", last */
  avgs = gnn_profiler_key_averages (prof, FALSE);
  {
    GnnProfilerAverage *last = avgs->pdata[avgs->len - 1];
    g_assert_cmpstr (gnn_profiler_average_get_key (last), ==, "[memory]");
    g_assert_cmpuint (gnn_profiler_average_get_count (last), ==, 1);
    g_assert_cmpint (gnn_profiler_average_get_cpu_memory_usage (last), ==, -4000);
    g_assert_cmpint (gnn_profiler_average_get_self_cpu_memory_usage (last), ==, -4000);
    g_assert_cmpint (gnn_profiler_average_get_cuda_memory_usage (last), ==, 0);
    g_assert_cmpint (gnn_profiler_average_get_self_cuda_memory_usage (last), ==, 0);
  }
  for (guint i = 0; i < avgs->len; i++)
    if (g_str_equal (gnn_profiler_average_get_key (avgs->pdata[i]), "alloc"))
      g_assert_cmpint (gnn_profiler_average_get_cpu_memory_usage (avgs->pdata[i]), ==, 4000);

  /* the table: torch's memory columns (no CUDA ones: nothing on a device), sorted by them */
  OK (table = gnn_profiler_table (prof, FALSE, "self_cpu_memory_usage", -1, &error));
  g_assert_nonnull (strstr (table, "  CPU Mem  Self CPU Mem    # of Calls"));
  g_assert_null (strstr (table, "CUDA Mem"));
  g_assert_nonnull (strstr (table, "3.91 Kb"));
  g_assert_nonnull (strstr (table, "-3.91 Kb"));
  {
    /* the first row has the largest self memory: the kernel's 4000 bytes */
    g_auto(GStrv) lines = g_strsplit (table, "\n", -1);
    g_assert_nonnull (strstr (lines[3], gnn_profiler_event_get_name (filled)));
    g_assert_nonnull (strstr (lines[3], "3.91 Kb       3.91 Kb"));
  }
  g_clear_pointer (&table, g_free);
  for (guint k = 0; k < 4; k++)
    {
      static const char *const keys[] = {
        "cpu_memory_usage", "self_cpu_memory_usage", "cuda_memory_usage", "self_cuda_memory_usage",
      };
      OK (table = gnn_profiler_table (prof, TRUE, keys[k], 3, &error));
      g_clear_pointer (&table, g_free);
    }

  /* the trace: each allocation and free, as Kineto writes them */
  OK (dir = g_dir_make_tmp ("gnn-profiler-XXXXXX", &error));
  path = g_build_filename (dir, "trace.json", NULL);
  OK (gnn_profiler_export_chrome_trace (prof, path, &error));
  OK (json_parser_load_from_file (parser, path, &error));
  trace = json_object_get_array_member (json_node_get_object (json_parser_get_root (parser)), "traceEvents");
  for (guint i = 0; i < json_array_get_length (trace); i++)
    {
      JsonObject *e = json_array_get_object_element (trace, i), *args;

      if (!g_str_equal (json_object_get_string_member (e, "name"), "[memory]"))
        continue;
      g_assert_cmpstr (json_object_get_string_member (e, "ph"), ==, "i");
      g_assert_cmpstr (json_object_get_string_member (e, "s"), ==, "t");
      g_assert_true (json_object_has_member (e, "ts"));
      g_assert_true (json_object_has_member (e, "pid"));
      g_assert_true (json_object_has_member (e, "tid"));
      args = json_object_get_object_member (e, "args");
      g_assert_cmpint (json_object_get_int_member (args, "Device Type"), ==, 0);
      g_assert_cmpint (json_object_get_int_member (args, "Device Id"), ==, -1);
      g_assert_cmpint (json_object_get_int_member (args, "Addr"), !=, 0);
      if (n_memory < G_N_ELEMENTS (bytes))
        bytes[n_memory] = json_object_get_int_member (args, "Bytes");
      n_memory++;
      if (n_memory == 1)
        g_assert_cmpint (json_object_get_int_member (args, "Total Allocated"), ==, 4000);
      if (n_memory == 3)
        g_assert_cmpint (json_object_get_int_member (args, "Total Allocated"), ==, -4000);
    }
  g_assert_cmpuint (n_memory, ==, 3);
  g_assert_cmpint (bytes[0], ==, 4000);
  g_assert_cmpint (bytes[1], ==, -4000);
  g_assert_cmpint (bytes[2], ==, -4000);
  g_unlink (path);
  g_rmdir (dir);
  g_clear_pointer (&events, g_ptr_array_unref);
  g_clear_pointer (&avgs, g_ptr_array_unref);

  /* without profile_memory (torch's default): nothing counted, no memory columns */
  gnn_profiler_set_profile_memory (prof, FALSE);
  OK (gnn_profiler_start (prof, &error));
  OK (t = gnn_tensor_new_zeros (n, 1, F32, "cpu", &error));
  OK (gnn_profiler_stop (prof, &error));
  events = gnn_profiler_get_events (prof);
  for (guint i = 0; i < events->len; i++)
    g_assert_cmpint (gnn_profiler_event_get_cpu_memory_usage (events->pdata[i]), ==, 0);
  OK (table = gnn_profiler_table (prof, FALSE, NULL, -1, &error));
  g_assert_null (strstr (table, "CPU Mem"));
  g_clear_pointer (&events, g_ptr_array_unref);
  g_assert_finalize_object (g_steal_pointer (&prof));
}

/* a training step with profile_memory: every event's memory is its own and its children's,
 * the step's is what the step kept, and each Linear's forward product counts its output */
static void
test_memory_training_step (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnModule) model = small_model ();
  g_autoptr(GnnParamGroup) group = gnn_param_group_new_from_module (model);
  g_autoptr(GnnOptimizer) opt = NULL;
  g_autoptr(GnnProfiler) prof = gnn_profiler_new ();
  g_autoptr(GPtrArray) events = NULL;
  gint64 self_sum = 0;

  OK (opt = GNN_OPTIMIZER (gnn_sgd_new (group, 0.1, 0, 0, 0, FALSE, FALSE, &error)));
  gnn_profiler_set_profile_memory (prof, TRUE);
  train_step (model, opt);      /* the gradients exist from then on */
  OK (gnn_profiler_start (prof, &error));
  train_step (model, opt);
  OK (gnn_profiler_stop (prof, &error));
  events = gnn_profiler_get_events (prof);
  for (guint i = 0; i < events->len; i++)
    {
      GnnProfilerEvent *ev = events->pdata[i];
      gint64 children = 0;

      for (guint j = i + 1; j < events->len; j++)
        if (gnn_profiler_event_get_parent_id (events->pdata[j]) == (gint64) i)
          children += gnn_profiler_event_get_cpu_memory_usage (events->pdata[j]);
      g_assert_cmpint (gnn_profiler_event_get_cpu_memory_usage (ev), ==,
                       gnn_profiler_event_get_self_cpu_memory_usage (ev) + children);
      self_sum += gnn_profiler_event_get_self_cpu_memory_usage (ev);
    }
  /* one thread: the step's range holds every allocation and free */
  g_assert_cmpint (gnn_profiler_event_get_cpu_memory_usage (events->pdata[0]), ==, self_sum);
  /* each Linear's forward allocates at least its output, (5, 8) and (5, 3) floats */
  g_assert_cmpint (gnn_profiler_event_get_cpu_memory_usage (find_named (events, "0 (Linear)")), >=, 5 * 8 * 4);
  g_assert_cmpint (gnn_profiler_event_get_cpu_memory_usage (find_named (events, "2 (Linear)")), >=, 5 * 3 * 4);
  g_clear_pointer (&events, g_ptr_array_unref);
  g_clear_object (&opt);
  g_clear_object (&group);
  g_assert_finalize_object (g_steal_pointer (&prof));
}

int
main (int argc, char **argv)
{
  gnn_test_init (&argc, &argv);
  g_test_add_func ("/profiler/training-step", test_training_step);
  g_test_add_func ("/profiler/defaults", test_defaults);
  g_test_add_func ("/profiler/open-ranges", test_open_ranges);
  g_test_add_func ("/profiler/errors", test_errors);
  g_test_add_func ("/profiler/key-averages", test_key_averages);
  g_test_add_func ("/profiler/table", test_table);
  g_test_add_func ("/profiler/chrome-trace", test_chrome_trace);
  g_test_add_func ("/profiler/schedule", test_schedule);
  g_test_add_func ("/profiler/cnn-step", test_cnn_step);
  g_test_add_func ("/profiler/module-backward", test_module_backward);
  g_test_add_func ("/profiler/memory", test_memory);
  g_test_add_func ("/profiler/memory/training-step", test_memory_training_step);
  g_test_add_func ("/profiler/scope", test_scope);
  return g_test_run ();
}
