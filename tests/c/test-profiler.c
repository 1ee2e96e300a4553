/* test-profiler.c: GnnProfiler (torch.profiler) over a small model's forward, backward and SGD
 * step: the events, their nesting in time, the module paths, the kernel counts and FLOPs, and
 * the errors of a misused profiler
 */
#include "config.h"

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
  g_assert_cmpint (gnn_profiler_event_get_parent_id (user), ==, -1);
  g_assert_cmpint (gnn_profiler_event_get_parent_id (step), ==, -1);
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
    g_assert_cmpuint (again->len, ==, 0);
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
  g_assert_cmpstr (gnn_profiler_event_get_name (events->pdata[0]), ==, "Sequential");
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

int
main (int argc, char **argv)
{
  gnn_test_init (&argc, &argv);
  g_test_add_func ("/profiler/training-step", test_training_step);
  g_test_add_func ("/profiler/defaults", test_defaults);
  g_test_add_func ("/profiler/open-ranges", test_open_ranges);
  g_test_add_func ("/profiler/errors", test_errors);
  return g_test_run ();
}
