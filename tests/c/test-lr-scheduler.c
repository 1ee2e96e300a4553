/* test-lr-scheduler.c: the learning-rate schedulers against hand-computed schedules, their
 * errors, and their states saved and loaded */
#include <gio/gio.h>

#include "gnn-test-util.h"

/* ---- an optimizer that only holds groups ------------------------------------------------ */

#define TEST_TYPE_OPTIMIZER (test_optimizer_get_type ())
G_DECLARE_FINAL_TYPE (TestOptimizer, test_optimizer, TEST, OPTIMIZER, GnnOptimizer)

struct _TestOptimizer
{
  GnnOptimizer parent_instance;
};

G_DEFINE_FINAL_TYPE (TestOptimizer, test_optimizer, GNN_TYPE_OPTIMIZER)

static gboolean
test_optimizer_step (GnnOptimizer *self,
                     GError      **error)
{
  return TRUE;
}

static void
test_optimizer_class_init (TestOptimizerClass *klass)
{
  GNN_OPTIMIZER_CLASS (klass)->step = test_optimizer_step;
}

static void
test_optimizer_init (TestOptimizer *self)
{
}

/* groups of one tensor each, with these lrs; extra is NULL, "momentum" or "betas" */
static GnnOptimizer *
make_optimizer (const double *lrs,
                guint         n,
                const char   *extra)
{
  GnnOptimizer *opt = g_object_new (TEST_TYPE_OPTIMIZER, NULL);
  g_autoptr(GError) error = NULL;

  gnn_optimizer_set_default (opt, "lr", g_variant_new_double (lrs[0]));
  if (g_strcmp0 (extra, "momentum") == 0)
    gnn_optimizer_set_default (opt, "momentum", g_variant_new_double (0.9));
  else if (g_strcmp0 (extra, "betas") == 0)
    gnn_optimizer_set_default (opt, "betas", g_variant_new ("(dd)", 0.9, 0.999));
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(GnnTensor) t = gnn_test_tensor_d (GNN_TEST_DATA (0, 0), 2, GNN_TEST_SHAPE (2), 1);
      g_autoptr(GnnParamGroup) group = gnn_param_group_new (&t, 1);

      gnn_param_group_set_double (group, "lr", lrs[i]);
      gnn_optimizer_add_param_group (opt, group, &error);
      g_assert_no_error (error);
    }
  return opt;
}

static double
lr_of (GnnOptimizer *opt,
       guint         group)
{
  return gnn_param_group_get_double (gnn_optimizer_get_param_group (opt, group), "lr");
}

static void
assert_near (double got,
             double want)
{
  if (!(fabs (got - want) <= 1e-12 * MAX (1.0, fabs (want))))
    g_error ("got %.17g, expected %.17g", got, want);
}

/* steps @sched through @n epochs (the first is the construction) and checks group 0 */
static void
assert_schedule (GnnLRScheduler *sched,
                 const double   *want,
                 guint           n)
{
  GnnOptimizer *opt = gnn_lr_scheduler_get_optimizer (sched);
  g_autoptr(GError) error = NULL;

  for (guint e = 0; e < n; e++)
    {
      if (e > 0)
        {
          g_assert_true (gnn_lr_scheduler_step (sched, &error));
          g_assert_no_error (error);
        }
      g_assert_cmpint (gnn_lr_scheduler_get_last_epoch (sched), ==, (int) e);
      assert_near (lr_of (opt, 0), want[e]);
    }
}

static void
assert_last_lr (GnnLRScheduler *sched,
                const double   *want,
                guint           n)
{
  guint got_n = 0;
  g_autofree double *got = gnn_lr_scheduler_get_last_lr (sched, &got_n);

  g_assert_cmpuint (got_n, ==, n);
  for (guint i = 0; i < n; i++)
    assert_near (got[i], want[i]);
}

/* ---- the schedules ------------------------------------------------------------------------ */

static void
test_step (void)
{
  g_autoptr(GError) error = NULL;
  GnnOptimizer *opt = make_optimizer (GNN_TEST_DATA (1.0, 0.5), 2, NULL);
  GnnStepLR *s = gnn_step_lr_new (opt, 2, 0.5, -1, &error);
  guint n = 0;
  g_autofree double *base = NULL;
  int step_size = 0;
  double gamma = 0;

  g_assert_no_error (error);
  assert_schedule (GNN_LR_SCHEDULER (s), GNN_TEST_DATA (1, 1, 0.5, 0.5, 0.25, 0.25, 0.125), 7);
  assert_last_lr (GNN_LR_SCHEDULER (s), GNN_TEST_DATA (0.125, 0.0625), 2);
  base = gnn_lr_scheduler_get_base_lrs (GNN_LR_SCHEDULER (s), &n);
  g_assert_cmpuint (n, ==, 2);
  g_assert_cmpfloat (base[0], ==, 1.0);
  g_assert_cmpfloat (base[1], ==, 0.5);
  /* construction recorded initial_lr */
  g_assert_cmpfloat (gnn_param_group_get_double (gnn_optimizer_get_param_group (opt, 1), "initial_lr"), ==, 0.5);
  g_assert_cmpint (gnn_lr_scheduler_get_step_count (GNN_LR_SCHEDULER (s)), ==, 7);
  g_object_get (s, "step-size", &step_size, "gamma", &gamma, NULL);
  g_assert_cmpint (step_size, ==, 2);
  g_assert_cmpfloat (gamma, ==, 0.5);
  /* a hyperparameter changed mid-run applies from the next step, as in PyTorch */
  g_object_set (s, "gamma", 0.1, NULL);
  g_assert_true (gnn_lr_scheduler_step (GNN_LR_SCHEDULER (s), &error));
  assert_near (lr_of (opt, 0), 0.125);
  g_assert_true (gnn_lr_scheduler_step (GNN_LR_SCHEDULER (s), &error));
  assert_near (lr_of (opt, 0), 0.0125);

  g_assert_finalize_object (s);
  g_assert_finalize_object (opt);
}

static void
test_multi_step (void)
{
  g_autoptr(GError) error = NULL;
  GnnOptimizer *opt = make_optimizer (GNN_TEST_DATA (1.0), 1, NULL);
  /* unsorted, and 4 twice: two decays there, as PyTorch's Counter */
  GnnMultiStepLR *s = gnn_multi_step_lr_new (opt, (const int[]) { 4, 2, 4 }, 3, 0.1, -1, &error);
  guint n = 0;
  g_autofree int *m = NULL;

  g_assert_no_error (error);
  assert_schedule (GNN_LR_SCHEDULER (s), GNN_TEST_DATA (1, 1, 0.1, 0.1, 0.001, 0.001), 6);
  m = gnn_multi_step_lr_get_milestones (s, &n);
  g_assert_cmpuint (n, ==, 3);
  g_assert_cmpint (m[0], ==, 2);
  g_assert_cmpint (m[1], ==, 4);
  g_assert_cmpint (m[2], ==, 4);
  g_assert_finalize_object (s);
  g_assert_finalize_object (opt);
}

static void
test_exponential (void)
{
  g_autoptr(GError) error = NULL;
  GnnOptimizer *opt = make_optimizer (GNN_TEST_DATA (2.0), 1, NULL);
  GnnExponentialLR *s = gnn_exponential_lr_new (opt, 0.5, -1, &error);

  g_assert_no_error (error);
  assert_schedule (GNN_LR_SCHEDULER (s), GNN_TEST_DATA (2, 1, 0.5, 0.25), 4);
  g_assert_finalize_object (s);
  g_assert_finalize_object (opt);
}

static void
test_cosine (void)
{
  g_autoptr(GError) error = NULL;
  GnnOptimizer *opt = make_optimizer (GNN_TEST_DATA (1.0), 1, NULL);
  GnnCosineAnnealingLR *s = gnn_cosine_annealing_lr_new (opt, 2, 0.0, -1, &error);
  GnnOptimizer *opt2 = make_optimizer (GNN_TEST_DATA (1.0), 1, NULL);
  GnnCosineAnnealingLR *s2 = gnn_cosine_annealing_lr_new (opt2, 4, 0.2, -1, &error);

  g_assert_no_error (error);
  /* T_max 2: 1, (1 + cos π/2)/2, 0; at epoch 3 the cosine turns back up:
   * 0 + (1 - 0)(1 - cos π/2)/2 = 0.5; epoch 4: (1 + cos 2π)/(1 + cos 3π/2) · 0.5 = 1 */
  assert_schedule (GNN_LR_SCHEDULER (s), GNN_TEST_DATA (1, 0.5, 0, 0.5, 1, 0.5), 6);
  /* eta_min 0.2, T_max 4: 0.2 + 0.8 (1 + cos (π e / 4)) / 2 */
  assert_schedule (GNN_LR_SCHEDULER (s2),
                   GNN_TEST_DATA (1, 0.2 + 0.4 * (1 + G_SQRT2 / 2), 0.6, 0.2 + 0.4 * (1 - G_SQRT2 / 2), 0.2), 5);
  g_assert_finalize_object (s);
  g_assert_finalize_object (opt);
  g_assert_finalize_object (s2);
  g_assert_finalize_object (opt2);
}

static void
test_linear (void)
{
  g_autoptr(GError) error = NULL;
  GnnOptimizer *opt = make_optimizer (GNN_TEST_DATA (0.05), 1, NULL);
  GnnLinearLR *s = gnn_linear_lr_new (opt, 0.5, 1.0, 4, -1, &error);

  g_assert_no_error (error);
  /* PyTorch's documented example */
  assert_schedule (GNN_LR_SCHEDULER (s), GNN_TEST_DATA (0.025, 0.03125, 0.0375, 0.04375, 0.05, 0.05), 6);
  g_assert_finalize_object (s);
  g_assert_finalize_object (opt);
}

static double
inverse (int      epoch,
         gpointer user_data)
{
  int *calls = user_data;

  (*calls)++;
  return 1.0 / (epoch + 1);
}

static double
per_group (guint    group,
           int      epoch,
           gpointer user_data)
{
  return group == 0 ? 1.0 / (epoch + 1) : pow (0.5, epoch);
}

static double
constant_half (int      epoch,
               gpointer user_data)
{
  return 0.5;
}

/* a GClosure callback: (epoch, group, user_data) */
static double
closure_factor (int      epoch,
                guint    group,
                gpointer user_data)
{
  return (group + 1) * *(double *) user_data / (epoch + 1);
}

static void
count_notify (gpointer data)
{
  (*(int *) data) += 100;
}

static void
test_lambda (void)
{
  g_autoptr(GError) error = NULL;
  GnnOptimizer *opt = make_optimizer (GNN_TEST_DATA (1.0, 2.0), 2, NULL);
  GnnLambdaLR *s;
  int calls = 0;
  GnnLRLambdaFunc funcs[2] = { inverse, constant_half };
  gpointer datas[2] = { &calls, NULL };

  s = gnn_lambda_lr_new (opt, inverse, &calls, count_notify, -1, &error);
  g_assert_no_error (error);
  assert_schedule (GNN_LR_SCHEDULER (s), GNN_TEST_DATA (1, 0.5, 1.0 / 3, 0.25), 4);
  assert_last_lr (GNN_LR_SCHEDULER (s), GNN_TEST_DATA (0.25, 0.5), 2);
  g_assert_cmpint (calls, ==, 8);   /* once per group per step, the initial step included */
  g_assert_finalize_object (s);
  g_assert_cmpint (calls, ==, 108); /* the notify ran */

  s = gnn_lambda_lr_new_per_group (opt, per_group, NULL, NULL, -1, &error);
  g_assert_no_error (error);
  g_assert_true (gnn_lr_scheduler_step (GNN_LR_SCHEDULER (s), &error));
  g_assert_true (gnn_lr_scheduler_step (GNN_LR_SCHEDULER (s), &error));
  /* the base lrs are the initial_lr set by the first scheduler: 1 and 2 */
  assert_last_lr (GNN_LR_SCHEDULER (s), GNN_TEST_DATA (1.0 / 3, 0.5), 2);
  g_assert_finalize_object (s);

  s = gnn_lambda_lr_new_from_array (opt, funcs, datas, 2, -1, &error);
  g_assert_no_error (error);
  g_assert_true (gnn_lr_scheduler_step (GNN_LR_SCHEDULER (s), &error));
  assert_last_lr (GNN_LR_SCHEDULER (s), GNN_TEST_DATA (0.5, 1.0), 2);
  g_assert_finalize_object (s);

  {
    double scale = 0.5;
    GClosure *closure = g_cclosure_new (G_CALLBACK (closure_factor), &scale, NULL);

    s = gnn_lambda_lr_new_with_closure (opt, closure, -1, &error);
    g_assert_no_error (error);
    assert_last_lr (GNN_LR_SCHEDULER (s), GNN_TEST_DATA (0.5, 2.0), 2);
    g_assert_true (gnn_lr_scheduler_step (GNN_LR_SCHEDULER (s), &error));
    assert_last_lr (GNN_LR_SCHEDULER (s), GNN_TEST_DATA (0.25, 1.0), 2);
    g_assert_finalize_object (s);
  }

  g_assert_null (gnn_lambda_lr_new_from_array (opt, funcs, NULL, 1, -1, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_assert_cmpstr (error->message, ==, "Expected 2 lr_lambdas, but got 1");
  g_assert_finalize_object (opt);
}

static double
option_of (GnnOptimizer *opt,
           guint         group,
           const char   *name)
{
  return gnn_param_group_get_double (gnn_optimizer_get_param_group (opt, group), name);
}

static void
test_one_cycle (void)
{
  g_autoptr(GError) error = NULL;
  GnnOptimizer *opt = make_optimizer (GNN_TEST_DATA (0.01), 1, "momentum");
  GnnOneCycleLR *s;
  /* max_lr 1, div 10, final div 100: from 0.1 up to 1 over 3 steps (end_step 2), then
   * down to 0.001 at step 9, linearly; momentum from 0.95 down to 0.85 and back */
  const double lr[] = { 0.1, 0.55, 1.0, 1 + (0.001 - 1) / 7, 1 + 2 * (0.001 - 1) / 7 };
  const double mom[] = { 0.95, 0.9, 0.85, 0.85 + 0.1 / 7, 0.85 + 0.2 / 7 };

  s = gnn_one_cycle_lr_new (opt, (const double[]) { 1.0 }, 1, 10, -1, -1, 0.3, "linear", TRUE,
                            NULL, 0, NULL, 0, 10, 100, FALSE, -1, &error);
  g_assert_no_error (error);
  assert_near (option_of (opt, 0, "initial_lr"), 0.1);
  assert_near (option_of (opt, 0, "max_lr"), 1.0);
  assert_near (option_of (opt, 0, "min_lr"), 0.001);
  for (guint e = 0; e < G_N_ELEMENTS (lr); e++)
    {
      if (e > 0)
        g_assert_true (gnn_lr_scheduler_step (GNN_LR_SCHEDULER (s), &error));
      assert_near (lr_of (opt, 0), lr[e]);
      assert_near (option_of (opt, 0, "momentum"), mom[e]);
    }
  for (guint e = G_N_ELEMENTS (lr); e <= 10; e++)
    g_assert_true (gnn_lr_scheduler_step (GNN_LR_SCHEDULER (s), &error));
  g_assert_no_error (error);
  /* step 10 extrapolates the last phase, as PyTorch does */
  assert_near (lr_of (opt, 0), (0.001 - 1) * (8.0 / 7) + 1);
  g_assert_false (gnn_lr_scheduler_step (GNN_LR_SCHEDULER (s), &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_assert_cmpstr (error->message, ==, "Tried to step 11 times. The specified number of total steps is 10");
  g_clear_error (&error);
  g_assert_cmpint (gnn_lr_scheduler_get_last_epoch (GNN_LR_SCHEDULER (s)), ==, 10);
  g_assert_finalize_object (s);
  g_assert_finalize_object (opt);

  /* Adam-like: the first beta cycles, the second stays; epochs × steps_per_epoch */
  opt = make_optimizer (GNN_TEST_DATA (0.01, 0.02), 2, "betas");
  s = gnn_one_cycle_lr_new (opt, (const double[]) { 1.0, 2.0 }, 2, -1, 2, 5, 0.3, NULL, TRUE,
                            (const double[]) { 0.8 }, 1, (const double[]) { 0.9, 0.95 }, 2,
                            10, 100, FALSE, -1, &error);
  g_assert_no_error (error);
  {
    g_autoptr(GVariant) betas = gnn_param_group_get_option (gnn_optimizer_get_param_group (opt, 1), "betas");
    double b1, b2;
    int total = 0;

    g_variant_get (betas, "(dd)", &b1, &b2);
    assert_near (b1, 0.95);
    assert_near (b2, 0.999);
    g_object_get (s, "total-steps", &total, NULL);
    g_assert_cmpint (total, ==, 10);
  }
  g_assert_true (gnn_lr_scheduler_step (GNN_LR_SCHEDULER (s), &error));
  {
    g_autoptr(GVariant) betas = gnn_param_group_get_option (gnn_optimizer_get_param_group (opt, 0), "betas");
    double b1, b2;

    /* cos anneal half way from 0.9 to 0.8 */
    g_variant_get (betas, "(dd)", &b1, &b2);
    assert_near (b1, 0.8 + (0.9 - 0.8) / 2.0 * (cos (G_PI * 0.5) + 1));
    assert_near (b2, 0.999);
  }
  assert_last_lr (GNN_LR_SCHEDULER (s),
                  GNN_TEST_DATA (1 + (0.1 - 1) / 2.0 * (cos (G_PI * 0.5) + 1),
                                 2 + (0.2 - 2) / 2.0 * (cos (G_PI * 0.5) + 1)), 2);
  g_assert_finalize_object (s);
  g_assert_finalize_object (opt);
}

static void
expect_one_cycle_error (GnnOptimizer *opt,
                        int           total_steps,
                        int           epochs,
                        int           steps_per_epoch,
                        double        pct_start,
                        const char   *strategy,
                        guint         n_max_lr,
                        const char   *message)
{
  g_autoptr(GError) error = NULL;

  g_assert_null (gnn_one_cycle_lr_new (opt, (const double[]) { 1, 1, 1 }, n_max_lr, total_steps,
                                       epochs, steps_per_epoch, pct_start, strategy, TRUE, NULL, 0,
                                       NULL, 0, 25, 1e4, FALSE, -1, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_assert_cmpstr (error->message, ==, message);
}

static void
test_one_cycle_errors (void)
{
  g_autoptr(GError) error = NULL;
  GnnOptimizer *opt = make_optimizer (GNN_TEST_DATA (0.01, 0.02), 2, "momentum");
  GnnOptimizer *plain = make_optimizer (GNN_TEST_DATA (0.01), 1, NULL);

  expect_one_cycle_error (opt, -1, -1, -1, 0.3, "cos", 1,
                          "You must define either total_steps OR (epochs AND steps_per_epoch)");
  expect_one_cycle_error (opt, -1, 3, -1, 0.3, "cos", 1,
                          "You must define either total_steps OR (epochs AND steps_per_epoch)");
  expect_one_cycle_error (opt, 0, -1, -1, 0.3, "cos", 1, "Expected positive integer total_steps, but got 0");
  expect_one_cycle_error (opt, -1, 0, 4, 0.3, "cos", 1, "Expected positive integer epochs, but got 0");
  expect_one_cycle_error (opt, -1, 4, 0, 0.3, "cos", 1, "Expected positive integer steps_per_epoch, but got 0");
  expect_one_cycle_error (opt, 10, -1, -1, 1.5, "cos", 1, "Expected float between 0 and 1 pct_start, but got 1.5");
  expect_one_cycle_error (opt, 10, -1, -1, -0.25, "cos", 1, "Expected float between 0 and 1 pct_start, but got -0.25");
  expect_one_cycle_error (opt, 10, -1, -1, 0.3, "exp", 1,
                          "anneal_strategy must be one of 'cos' or 'linear', instead got exp");
  expect_one_cycle_error (opt, 10, -1, -1, 0.3, "cos", 3,
                          "max_lr must have the same length as optimizer.param_groups. max_lr has 3 "
                          "values, param_groups has 2.");
  expect_one_cycle_error (plain, 10, -1, -1, 0.3, "cos", 1,
                          "optimizer must support momentum or beta1 with `cycle_momentum` option enabled");
  /* nothing was set on the groups */
  g_assert_false (gnn_param_group_has_option (gnn_optimizer_get_param_group (opt, 0), "max_lr"));
  g_assert_false (gnn_param_group_has_option (gnn_optimizer_get_param_group (opt, 0), "initial_lr"));
  g_assert_finalize_object (opt);
  g_assert_finalize_object (plain);
}

static void
test_sequential (void)
{
  g_autoptr(GError) error = NULL;
  GnnOptimizer *opt = make_optimizer (GNN_TEST_DATA (1.0), 1, NULL);
  GnnOptimizer *other = make_optimizer (GNN_TEST_DATA (1.0), 1, NULL);
  GnnLinearLR *warm = gnn_linear_lr_new (opt, 0.5, 1.0, 2, -1, &error);
  GnnExponentialLR *decay = gnn_exponential_lr_new (opt, 0.5, -1, &error);
  GnnStepLR *foreign = gnn_step_lr_new (other, 1, 0.5, -1, &error);
  GnnLRScheduler *scheds[2] = { GNN_LR_SCHEDULER (warm), GNN_LR_SCHEDULER (decay) };
  GnnLRScheduler *mixed[2] = { GNN_LR_SCHEDULER (warm), GNN_LR_SCHEDULER (foreign) };
  GnnSequentialLR *s;
  guint n = 0;
  g_autofree int *m = NULL;

  g_assert_no_error (error);
  /* the linear warm-up's initial step made the lr 0.5; SequentialLR starts it over */
  s = gnn_sequential_lr_new (opt, scheds, 2, (const int[]) { 3 }, 1, -1, &error);
  g_assert_no_error (error);
  g_assert_cmpint (gnn_lr_scheduler_get_last_epoch (GNN_LR_SCHEDULER (decay)), ==, -1);
  /* warm-up 0.5, 0.75, 1; at the milestone the exponential starts again from the base lr */
  assert_schedule (GNN_LR_SCHEDULER (s), GNN_TEST_DATA (0.5, 0.75, 1.0, 1.0, 0.5, 0.25), 6);
  assert_last_lr (GNN_LR_SCHEDULER (s), GNN_TEST_DATA (0.25), 1);
  g_assert_cmpint (gnn_lr_scheduler_get_last_epoch (GNN_LR_SCHEDULER (decay)), ==, 2);
  /* current PyTorch: the milestone's move to epoch 0 is not a step of the exponential */
  g_assert_cmpint (gnn_lr_scheduler_get_step_count (GNN_LR_SCHEDULER (decay)), ==, 3);
  g_assert_cmpuint (gnn_sequential_lr_get_n_schedulers (s), ==, 2);
  g_assert_true (gnn_sequential_lr_get_scheduler (s, 1) == GNN_LR_SCHEDULER (decay));
  m = gnn_sequential_lr_get_milestones (s, &n);
  g_assert_cmpuint (n, ==, 1);
  g_assert_cmpint (m[0], ==, 3);

  g_assert_null (gnn_sequential_lr_new (opt, scheds, 0, NULL, 0, -1, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_assert_cmpstr (error->message, ==, "SequentialLR expects at least one scheduler, but got no scheduler.");
  g_clear_error (&error);
  g_assert_null (gnn_sequential_lr_new (opt, scheds, 2, NULL, 0, -1, &error));
  g_assert_cmpstr (error->message, ==,
                   "Sequential Schedulers expects number of schedulers provided to be one more than "
                   "the number of milestone points, but got number of schedulers 2 and the number of "
                   "milestones to be equal to 0");
  g_clear_error (&error);
  g_assert_null (gnn_sequential_lr_new (opt, mixed, 2, (const int[]) { 3 }, 1, -1, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_assert_true (g_str_has_prefix (error->message,
                                   "SequentialLR expects all schedulers to belong to the same "
                                   "optimizer, but got scheduler StepLR at index 1 has"));
  g_clear_error (&error);

  g_assert_finalize_object (s);
  g_assert_finalize_object (warm);
  g_assert_finalize_object (decay);
  g_assert_finalize_object (foreign);
  g_assert_finalize_object (opt);
  g_assert_finalize_object (other);
}

static void
test_swalr (void)
{
  g_autoptr(GError) error = NULL;
  GnnOptimizer *opt = make_optimizer (GNN_TEST_DATA (1.0, 2.0), 2, NULL);
  GnnSWALR *s = gnn_swalr_new (opt, (const double[]) { 0.5 }, 1, 2, "linear", -1, &error);
  GnnExponentialLR *exp_lr;
  int epochs = 0;
  g_autofree char *strategy = NULL;

  g_assert_no_error (error);
  g_assert_cmpfloat (option_of (opt, 1, "swa_lr"), ==, 0.5);
  /* linear over 2 steps: halfway, then swa_lr, then stays */
  assert_schedule (GNN_LR_SCHEDULER (s), GNN_TEST_DATA (1.0, 0.75, 0.5, 0.5), 4);
  assert_last_lr (GNN_LR_SCHEDULER (s), GNN_TEST_DATA (0.5, 0.5), 2);
  g_object_get (s, "anneal-epochs", &epochs, "anneal-strategy", &strategy, NULL);
  g_assert_cmpint (epochs, ==, 2);
  g_assert_cmpstr (strategy, ==, "linear");
  g_assert_finalize_object (s);
  g_assert_finalize_object (opt);

  /* after another scheduler: SWALR recovers the rate it starts from out of the current lr */
  opt = make_optimizer (GNN_TEST_DATA (1.0), 1, NULL);
  exp_lr = gnn_exponential_lr_new (opt, 0.5, -1, &error);
  s = gnn_swalr_new (opt, (const double[]) { 1.0 }, 1, 2, "linear", -1, &error);
  g_assert_no_error (error);
  gnn_lr_scheduler_step (GNN_LR_SCHEDULER (exp_lr), &error);
  gnn_lr_scheduler_step (GNN_LR_SCHEDULER (exp_lr), &error);
  assert_near (lr_of (opt, 0), 0.25);
  gnn_lr_scheduler_step (GNN_LR_SCHEDULER (s), &error);
  assert_near (lr_of (opt, 0), 0.5 * 1.0 + 0.5 * 0.25);
  gnn_lr_scheduler_step (GNN_LR_SCHEDULER (s), &error);
  assert_near (lr_of (opt, 0), 1.0);
  g_assert_no_error (error);
  g_assert_finalize_object (s);
  g_assert_finalize_object (exp_lr);

  /* cos with anneal_epochs 0: straight to swa_lr */
  s = gnn_swalr_new (opt, (const double[]) { 0.125 }, 1, 0, NULL, -1, &error);
  g_assert_no_error (error);
  gnn_lr_scheduler_step (GNN_LR_SCHEDULER (s), &error);
  assert_near (lr_of (opt, 0), 0.125);
  g_assert_finalize_object (s);

  g_assert_null (gnn_swalr_new (opt, (const double[]) { 0.1 }, 1, 2, "exp", -1, &error));
  g_assert_cmpstr (error->message, ==, "anneal_strategy must by one of 'cos' or 'linear', instead got exp");
  g_clear_error (&error);
  g_assert_null (gnn_swalr_new (opt, (const double[]) { 0.1 }, 1, -1, "cos", -1, &error));
  g_assert_cmpstr (error->message, ==, "anneal_epochs must be equal or greater than 0, got -1");
  g_clear_error (&error);
  g_assert_null (gnn_swalr_new (opt, (const double[]) { 0.1, 0.2 }, 2, 2, "cos", -1, &error));
  g_assert_cmpstr (error->message, ==,
                   "swa_lr must have the same length as optimizer.param_groups. swa_lr has 2 values, "
                   "param_groups has 1.");
  g_clear_error (&error);
  g_assert_finalize_object (opt);
}

static void
test_errors (void)
{
  g_autoptr(GError) error = NULL;
  GnnOptimizer *opt = make_optimizer (GNN_TEST_DATA (0.1), 1, NULL);
  GnnLRScheduler *bare;

  /* resuming needs initial_lr in every group */
  g_assert_null (gnn_step_lr_new (opt, 2, 0.1, 4, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_assert_cmpstr (error->message, ==,
                   "param 'initial_lr' is not specified in param_groups[0] when resuming an optimizer");
  g_clear_error (&error);
  g_assert_null (gnn_step_lr_new (opt, 0, 0.1, -1, &error));
  g_assert_cmpstr (error->message, ==, "Expected positive integer step_size, but got 0");
  g_clear_error (&error);
  g_assert_null (gnn_cosine_annealing_lr_new (opt, 0, 0.0, -1, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  g_assert_null (gnn_linear_lr_new (opt, 0.0, 1.0, 5, -1, &error));
  g_assert_cmpstr (error->message, ==,
                   "Starting multiplicative factor expected to be greater than 0 and less or equal to 1.");
  g_clear_error (&error);
  g_assert_null (gnn_linear_lr_new (opt, 0.5, 1.5, 5, -1, &error));
  g_assert_cmpstr (error->message, ==, "Ending multiplicative factor expected to be between 0 and 1.");
  g_clear_error (&error);
  /* none of that touched the lr */
  g_assert_cmpfloat (lr_of (opt, 0), ==, 0.1);

  /* created by g_object_new, a scheduler is unusable until g_initable_init */
  bare = g_object_new (GNN_TYPE_STEP_LR, "optimizer", opt, "step-size", 3, NULL);
  g_assert_false (gnn_lr_scheduler_step (bare, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_FAILED);
  g_clear_error (&error);
  g_assert_true (g_initable_init (G_INITABLE (bare), NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpint (gnn_lr_scheduler_get_last_epoch (bare), ==, 0);
  g_assert_true (g_initable_init (G_INITABLE (bare), NULL, &error)); /* once only */
  g_assert_cmpint (gnn_lr_scheduler_get_last_epoch (bare), ==, 0);
  g_assert_finalize_object (bare);

  /* a failed initialisation is reported again by later calls */
  bare = g_object_new (GNN_TYPE_STEP_LR, "optimizer", opt, "step-size", -2, NULL);
  g_assert_false (g_initable_init (G_INITABLE (bare), NULL, &error));
  g_clear_error (&error);
  g_assert_false (gnn_lr_scheduler_step (bare, &error));
  g_assert_cmpstr (error->message, ==, "Expected positive integer step_size, but got -2");
  g_clear_error (&error);
  g_assert_finalize_object (bare);
  g_assert_finalize_object (opt);

  /* an optimizer without groups: nothing to schedule, and no error */
  opt = g_object_new (TEST_TYPE_OPTIMIZER, NULL);
  bare = GNN_LR_SCHEDULER (gnn_exponential_lr_new (opt, 0.5, -1, &error));
  g_assert_no_error (error);
  g_assert_true (gnn_lr_scheduler_step (bare, &error));
  g_assert_no_error (error);
  {
    guint n = 1;
    g_autofree double *last = gnn_lr_scheduler_get_last_lr (bare, &n);
    g_autoptr(GArray) lrs = gnn_lr_scheduler_get_lr (bare, &error);

    g_assert_cmpuint (n, ==, 0);
    g_assert_no_error (error);
    g_assert_cmpuint (lrs->len, ==, 0);
  }
  g_assert_finalize_object (bare);
  g_assert_finalize_object (opt);
}

/* ---- states ------------------------------------------------------------------------------- */

static void
test_state (void)
{
  g_autoptr(GError) error = NULL;
  GnnOptimizer *opt = make_optimizer (GNN_TEST_DATA (1.0), 1, NULL);
  GnnOptimizer *opt2 = make_optimizer (GNN_TEST_DATA (1.0), 1, NULL);
  GnnStepLR *a = gnn_step_lr_new (opt, 2, 0.5, -1, &error);
  GnnStepLR *b = gnn_step_lr_new (opt2, 5, 0.9, -1, &error);
  g_autoptr(GVariant) state = NULL, again = NULL;
  g_autoptr(GVariant) bad = NULL;
  gint64 last_epoch = 0;
  double gamma = 0;

  g_assert_no_error (error);
  for (int i = 0; i < 3; i++)
    gnn_lr_scheduler_step (GNN_LR_SCHEDULER (a), &error);
  state = gnn_lr_scheduler_state_dict (GNN_LR_SCHEDULER (a));
  g_assert_false (g_variant_is_floating (state));
  g_assert_true (g_variant_lookup (state, "last_epoch", "x", &last_epoch));
  g_assert_cmpint (last_epoch, ==, 3);
  g_assert_true (g_variant_lookup (state, "gamma", "d", &gamma));
  g_assert_cmpfloat (gamma, ==, 0.5);
  g_assert_true (g_variant_lookup (state, "step_size", "x", &last_epoch));
  g_assert_cmpint (last_epoch, ==, 2);
  {
    g_autoptr(GVariant) v = g_variant_lookup_value (state, "base_lrs", G_VARIANT_TYPE ("ad"));
    g_autoptr(GVariant) w = g_variant_lookup_value (state, "_last_lr", G_VARIANT_TYPE ("ad"));
    g_autoptr(GVariant) c = g_variant_lookup_value (state, "_step_count", G_VARIANT_TYPE_INT64);

    g_assert_nonnull (v);
    g_assert_nonnull (w);
    g_assert_nonnull (c);
  }

  /* loaded into another scheduler, with the optimizer's lr, it continues identically */
  g_assert_true (gnn_lr_scheduler_load_state_dict (GNN_LR_SCHEDULER (b), state, &error));
  g_assert_no_error (error);
  again = gnn_lr_scheduler_state_dict (GNN_LR_SCHEDULER (b));
  g_assert_true (g_variant_equal (state, again));
  gnn_param_group_set_double (gnn_optimizer_get_param_group (opt2, 0), "lr", lr_of (opt, 0));
  for (int i = 0; i < 4; i++)
    {
      gnn_lr_scheduler_step (GNN_LR_SCHEDULER (a), &error);
      gnn_lr_scheduler_step (GNN_LR_SCHEDULER (b), &error);
      g_assert_cmpfloat (lr_of (opt, 0), ==, lr_of (opt2, 0));
    }

  /* a wrong type fails and changes nothing, even when other entries were fine */
  g_clear_pointer (&again, g_variant_unref);
  again = gnn_lr_scheduler_state_dict (GNN_LR_SCHEDULER (b));
  bad = g_variant_ref_sink (g_variant_new_parsed ("{'last_epoch': <int64 40>, 'step_size': <'two'>}"));
  g_assert_false (gnn_lr_scheduler_load_state_dict (GNN_LR_SCHEDULER (b), bad, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  g_clear_pointer (&bad, g_variant_unref);
  bad = g_variant_ref_sink (g_variant_new_parsed ("{'last_epoch': <int64 40>, 'base_lrs': <[0.1, 0.2]>}"));
  g_assert_false (gnn_lr_scheduler_load_state_dict (GNN_LR_SCHEDULER (b), bad, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  g_clear_pointer (&bad, g_variant_unref);
  bad = g_variant_ref_sink (g_variant_new_int32 (3));
  g_assert_false (gnn_lr_scheduler_load_state_dict (GNN_LR_SCHEDULER (b), bad, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  {
    g_autoptr(GVariant) now = gnn_lr_scheduler_state_dict (GNN_LR_SCHEDULER (b));

    g_assert_true (g_variant_equal (now, again));
  }
  /* integers of any type are accepted */
  g_clear_pointer (&bad, g_variant_unref);
  bad = g_variant_ref_sink (g_variant_new_parsed ("{'last_epoch': <int32 1>, 'step_size': <uint32 3>}"));
  g_assert_true (gnn_lr_scheduler_load_state_dict (GNN_LR_SCHEDULER (b), bad, &error));
  g_assert_no_error (error);
  g_assert_cmpint (gnn_lr_scheduler_get_last_epoch (GNN_LR_SCHEDULER (b)), ==, 1);

  g_assert_finalize_object (a);
  g_assert_finalize_object (b);
  g_assert_finalize_object (opt);
  g_assert_finalize_object (opt2);
}

/* copies every option of every group, as loading the optimizer's state does */
static void
copy_groups (GnnOptimizer *from,
             GnnOptimizer *to)
{
  for (guint g = 0; g < gnn_optimizer_get_n_param_groups (from); g++)
    {
      GnnParamGroup *a = gnn_optimizer_get_param_group (from, g);
      GnnParamGroup *b = gnn_optimizer_get_param_group (to, g);
      g_auto(GStrv) names = gnn_param_group_list_options (a);

      for (guint i = 0; names[i]; i++)
        {
          g_autoptr(GVariant) v = gnn_param_group_get_option (a, names[i]);

          gnn_param_group_set_option (b, names[i], v);
        }
    }
}

static GnnLRScheduler *
make_resumable (GnnOptimizer *opt,
                int           kind)
{
  g_autoptr(GError) error = NULL;
  GnnLRScheduler *s = NULL;

  switch (kind)
    {
    case 0:
      s = GNN_LR_SCHEDULER (gnn_one_cycle_lr_new (opt, (const double[]) { 1.0 }, 1, 20, -1, -1, 0.3,
                                                  "cos", TRUE, NULL, 0, NULL, 0, 25, 1e4, TRUE, -1, &error));
      break;
    case 1:
      {
        g_autoptr(GnnLRScheduler) a = GNN_LR_SCHEDULER (gnn_linear_lr_new (opt, 0.25, 1.0, 3, -1, &error));
        g_autoptr(GnnLRScheduler) b = GNN_LR_SCHEDULER (gnn_cosine_annealing_lr_new (opt, 5, 0.01, -1, &error));
        g_autoptr(GnnLRScheduler) c = GNN_LR_SCHEDULER (gnn_multi_step_lr_new (opt, (const int[]) { 2, 3 }, 2,
                                                                               0.5, -1, &error));
        GnnLRScheduler *all[] = { a, b, c };

        s = GNN_LR_SCHEDULER (gnn_sequential_lr_new (opt, all, 3, (const int[]) { 4, 9 }, 2, -1, &error));
      }
      break;
    case 2:
      s = GNN_LR_SCHEDULER (gnn_swalr_new (opt, (const double[]) { 0.05 }, 1, 7, "cos", -1, &error));
      break;
    default:
      g_assert_not_reached ();
    }
  g_assert_no_error (error);
  return s;
}

static void
test_state_resume (void)
{
  for (int kind = 0; kind < 3; kind++)
    {
      g_autoptr(GError) error = NULL;
      GnnOptimizer *opt = make_optimizer (GNN_TEST_DATA (0.1), 1, "momentum");
      GnnOptimizer *opt2 = make_optimizer (GNN_TEST_DATA (0.1), 1, "momentum");
      GnnLRScheduler *a = make_resumable (opt, kind);
      GnnLRScheduler *b = make_resumable (opt2, kind);
      g_autoptr(GVariant) state = NULL;

      for (int i = 0; i < 6; i++)
        g_assert_true (gnn_lr_scheduler_step (a, &error));
      state = gnn_lr_scheduler_state_dict (a);
      copy_groups (opt, opt2);
      g_assert_true (gnn_lr_scheduler_load_state_dict (b, state, &error));
      g_assert_no_error (error);
      for (int i = 0; i < 12; i++)
        {
          g_assert_true (gnn_lr_scheduler_step (a, &error));
          g_assert_true (gnn_lr_scheduler_step (b, &error));
          g_assert_cmpfloat (lr_of (opt, 0), ==, lr_of (opt2, 0));
          g_assert_cmpfloat (option_of (opt, 0, "momentum"), ==, option_of (opt2, 0, "momentum"));
        }
      g_assert_no_error (error);
      g_assert_finalize_object (a);
      g_assert_finalize_object (b);
      g_assert_finalize_object (opt);
      g_assert_finalize_object (opt2);
    }
}

/* ---- MultiplicativeLR, ConstantLR, PolynomialLR, CosineAnnealingWarmRestarts, CyclicLR,
 * ChainedScheduler, ReduceLROnPlateau: the lr of group 0 at each epoch, as torch 1.13 computes
 * it (printed once with '%.17g' by a script that ran the same schedules on torch 1.13, with
 * SGD groups of lr 1.0 and 0.5) ---------------------------------------------------------------- */

static double
times_0_9 (int      epoch,
           gpointer user_data)
{
  (*(int *) user_data)++;
  return 0.9;
}

static void
test_more_schedules (void)
{
  /* ConstantLR (o, 0.5, 3) */
  const double constant[] = { 0.5, 0.5, 0.5, 1, 1, 1 };
  /* PolynomialLR (o, 4, 2.0) */
  const double polynomial[] = { 1, 0.5625, 0.25, 0.0625, 0, 0, 0 };
  /* MultiplicativeLR (o, lambda e: 0.9) */
  const double multiplicative[] = { 1, 0.90000000000000002, 0.81000000000000005, 0.72900000000000009,
                                    0.65610000000000013 };
  /* CosineAnnealingWarmRestarts (o, 2, 2, 0.1) */
  const double sgdr[] = { 1, 0.55000000000000004, 1, 0.86819805153394636, 0.55000000000000004,
                          0.23180194846605365, 1, 0.96574578963007907, 0.86819805153394636 };
  /* CyclicLR (o, 0.1, 1.0, 2, 3, 'triangular2'), SGD with momentum */
  const double cyclic[] = { 0.10000000000000001, 0.54999999999999993, 0.99999999999999978, 0.69999999999999984,
                            0.39999999999999991, 0.10000000000000001, 0.32500000000000018, 0.54999999999999993,
                            0.39999999999999991, 0.25000000000000011, 0.10000000000000001, 0.21250000000000011 };
  const double cyclic_momentum[] = { 0.90000000000000002, 0.85000000000000009, 0.80000000000000004,
                                     0.83333333333333337, 0.8666666666666667, 0.90000000000000002, 0.875,
                                     0.85000000000000009, 0.8666666666666667, 0.8833333333333333,
                                     0.90000000000000002, 0.88750000000000007 };
  /* CyclicLR (o, 0.1, 1.0, 3, None, 'exp_range', 0.8, cycle_momentum=False) */
  const double cyclic_exp[] = { 0.10000000000000001, 0.34000000000000014, 0.48399999999999999, 0.56080000000000008,
                                0.34576000000000018, 0.19830399999999995, 0.10000000000000001, 0.16291456000000015 };
  /* ChainedScheduler ([ConstantLR (o, 0.1, 2), ExponentialLR (o, 0.9)]) */
  const double chained[] = { 0.10000000000000001, 0.090000000000000011, 0.81000000000000016, 0.7290000000000002,
                             0.65610000000000024 };
  g_autoptr(GError) error = NULL;
  int calls = 0;

  {
    GnnOptimizer *opt = make_optimizer (GNN_TEST_DATA (1.0, 0.5), 2, NULL);
    GnnConstantLR *s = gnn_constant_lr_new (opt, 0.5, 3, -1, &error);

    g_assert_no_error (error);
    assert_schedule (GNN_LR_SCHEDULER (s), constant, G_N_ELEMENTS (constant));
    assert_last_lr (GNN_LR_SCHEDULER (s), GNN_TEST_DATA (1.0, 0.5), 2);
    g_assert_finalize_object (s);
    g_assert_finalize_object (opt);
  }
  {
    GnnOptimizer *opt = make_optimizer (GNN_TEST_DATA (1.0, 0.5), 2, NULL);
    GnnPolynomialLR *s = gnn_polynomial_lr_new (opt, 4, 2.0, -1, &error);

    g_assert_no_error (error);
    assert_schedule (GNN_LR_SCHEDULER (s), polynomial, G_N_ELEMENTS (polynomial));
    g_assert_finalize_object (s);
    g_assert_finalize_object (opt);
  }
  {
    GnnOptimizer *opt = make_optimizer (GNN_TEST_DATA (1.0, 0.5), 2, NULL);
    GnnMultiplicativeLR *s = gnn_multiplicative_lr_new (opt, times_0_9, &calls, NULL, -1, &error);

    g_assert_no_error (error);
    /* the initial step does not call the function */
    g_assert_cmpint (calls, ==, 0);
    assert_schedule (GNN_LR_SCHEDULER (s), multiplicative, G_N_ELEMENTS (multiplicative));
    /* once per group and epoch */
    g_assert_cmpint (calls, ==, 2 * 4);
    assert_near (lr_of (opt, 1), 0.5 * multiplicative[4]);
    g_assert_finalize_object (s);
    g_assert_finalize_object (opt);
  }
  {
    GnnOptimizer *opt = make_optimizer (GNN_TEST_DATA (1.0, 0.5), 2, NULL);
    GnnCosineAnnealingWarmRestarts *s = gnn_cosine_annealing_warm_restarts_new (opt, 2, 2, 0.1, -1, &error);

    g_assert_no_error (error);
    assert_schedule (GNN_LR_SCHEDULER (s), sgdr, G_N_ELEMENTS (sgdr));
    /* PyTorch's steps of this scheduler do not count */
    g_assert_cmpint (gnn_lr_scheduler_get_step_count (GNN_LR_SCHEDULER (s)), ==, 0);
    g_assert_cmpint (gnn_cosine_annealing_warm_restarts_get_t_i (s), ==, 8);
    assert_near (gnn_cosine_annealing_warm_restarts_get_t_cur (s), 2);
    g_assert_finalize_object (s);
    g_assert_finalize_object (opt);
  }
  {
    GnnOptimizer *opt = make_optimizer (GNN_TEST_DATA (1.0, 0.5), 2, "momentum");
    GnnCyclicLR *s = gnn_cyclic_lr_new (opt, GNN_TEST_DATA (0.1), 1, GNN_TEST_DATA (1.0), 1, 2, 3, "triangular2",
                                        1.0, NULL, NULL, TRUE, NULL, 0, NULL, 0, -1, &error);

    g_assert_no_error (error);
    for (guint e = 0; e < G_N_ELEMENTS (cyclic); e++)
      {
        if (e > 0)
          g_assert_true (gnn_lr_scheduler_step (GNN_LR_SCHEDULER (s), &error));
        g_assert_no_error (error);
        assert_near (lr_of (opt, 0), cyclic[e]);
        assert_near (option_of (opt, 0, "momentum"), cyclic_momentum[e]);
        assert_near (option_of (opt, 1, "momentum"), cyclic_momentum[e]);
      }
    g_assert_finalize_object (s);
    g_assert_finalize_object (opt);
  }
  {
    GnnOptimizer *opt = make_optimizer (GNN_TEST_DATA (1.0, 0.5), 2, NULL);
    GnnCyclicLR *s = gnn_cyclic_lr_new (opt, GNN_TEST_DATA (0.1), 1, GNN_TEST_DATA (1.0), 1, 3, -1, "exp_range",
                                        0.8, NULL, NULL, FALSE, NULL, 0, NULL, 0, -1, &error);
    g_autofree char *scale_mode = NULL;

    g_assert_no_error (error);
    /* exp_range scales by the step */
    g_object_get (s, "scale-mode", &scale_mode, NULL);
    g_assert_cmpstr (scale_mode, ==, "iterations");
    assert_schedule (GNN_LR_SCHEDULER (s), cyclic_exp, G_N_ELEMENTS (cyclic_exp));
    g_assert_finalize_object (s);
    g_assert_finalize_object (opt);
  }
  {
    GnnOptimizer *opt = make_optimizer (GNN_TEST_DATA (1.0, 0.5), 2, NULL);
    g_autoptr(GnnConstantLR) a = gnn_constant_lr_new (opt, 0.1, 2, -1, &error);
    g_autoptr(GnnExponentialLR) b = gnn_exponential_lr_new (opt, 0.9, -1, &error);
    GnnLRScheduler *both[] = { GNN_LR_SCHEDULER (a), GNN_LR_SCHEDULER (b) };
    GnnChainedScheduler *s = gnn_chained_scheduler_new (both, 2, &error);

    g_assert_no_error (error);
    g_assert_true (gnn_lr_scheduler_get_optimizer (GNN_LR_SCHEDULER (s)) == opt);
    g_assert_cmpuint (gnn_chained_scheduler_get_n_schedulers (s), ==, 2);
    g_assert_true (gnn_chained_scheduler_get_scheduler (s, 1) == GNN_LR_SCHEDULER (b));
    assert_schedule (GNN_LR_SCHEDULER (s), chained, G_N_ELEMENTS (chained));
    g_assert_cmpint (gnn_lr_scheduler_get_last_epoch (GNN_LR_SCHEDULER (b)), ==, 4);
    assert_last_lr (GNN_LR_SCHEDULER (s), GNN_TEST_DATA (chained[4], chained[4] / 2), 2);
    g_assert_finalize_object (s);
    g_clear_object (&a);
    g_clear_object (&b);
    g_assert_finalize_object (opt);
  }
}

/* step (epoch) with fractional epochs: CosineAnnealingWarmRestarts (o, 2, 2, 0.1) stepped to
 * 0.5, 2.5, 7.0 and 1.0, then once more (torch 1.13's values) */
static void
test_sgdr_step_to (void)
{
  const double epochs[] = { 0.5, 2.5, 7.0, 1.0 };
  const double want[] = { 0.86819805153394636, 0.96574578963007907, 0.96574578963007907, 0.55000000000000004 };
  const int last_epochs[] = { 0, 2, 7, 1 };
  g_autoptr(GError) error = NULL;
  GnnOptimizer *opt = make_optimizer (GNN_TEST_DATA (1.0, 0.5), 2, NULL);
  GnnCosineAnnealingWarmRestarts *s = gnn_cosine_annealing_warm_restarts_new (opt, 2, 2, 0.1, -1, &error);

  g_assert_no_error (error);
  for (guint i = 0; i < G_N_ELEMENTS (epochs); i++)
    {
      g_assert_true (gnn_cosine_annealing_warm_restarts_step_to (s, epochs[i], &error));
      g_assert_no_error (error);
      assert_near (lr_of (opt, 0), want[i]);
      g_assert_cmpint (gnn_lr_scheduler_get_last_epoch (GNN_LR_SCHEDULER (s)), ==, last_epochs[i]);
    }
  /* the next plain step goes on from there: epoch 2, the first restart */
  g_assert_true (gnn_lr_scheduler_step (GNN_LR_SCHEDULER (s), &error));
  assert_near (lr_of (opt, 0), 1.0);
  g_assert_cmpint (gnn_cosine_annealing_warm_restarts_get_t_i (s), ==, 4);
  /* a negative epoch changes nothing */
  g_assert_false (gnn_cosine_annealing_warm_restarts_step_to (s, -1, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_assert_cmpstr (error->message, ==, "Expected non-negative epoch, but got -1.0");
  g_assert_cmpint (gnn_lr_scheduler_get_last_epoch (GNN_LR_SCHEDULER (s)), ==, 2);
  assert_near (gnn_cosine_annealing_warm_restarts_get_t_cur (s), 0);
  g_assert_finalize_object (s);
  g_assert_finalize_object (opt);
}

/* ReduceLROnPlateau (o, 'max', 0.5, 1, 0.1, 'abs', 1, 0.2) given metrics with plateaus */
static void
test_plateau (void)
{
  const double metrics[] = { 1, 1.05, 1.0, 0.9, 2, 2, 2, 2, 2 };
  const double plateau[] = { 1, 1, 1, 0.5, 0.5, 0.5, 0.5, 0.25, 0.25, 0.25 };
  const double min_lr = 0.2;
  g_autoptr(GError) error = NULL;
  GnnOptimizer *opt = make_optimizer (GNN_TEST_DATA (1.0, 0.5), 2, NULL);
  GnnReduceLROnPlateau *s = gnn_reduce_lr_on_plateau_new (opt, "max", 0.5, 1, 0.1, "abs", 1, &min_lr, 1, 1e-8,
                                                          &error);
  guint n = 0;
  g_autofree double *base = NULL;

  g_assert_no_error (error);
  /* no initial step, no initial_lr, no base rates */
  g_assert_cmpint (gnn_lr_scheduler_get_last_epoch (GNN_LR_SCHEDULER (s)), ==, 0);
  g_assert_false (gnn_param_group_has_option (gnn_optimizer_get_param_group (opt, 0), "initial_lr"));
  base = gnn_lr_scheduler_get_base_lrs (GNN_LR_SCHEDULER (s), &n);
  g_assert_cmpuint (n, ==, 0);
  g_assert_cmpfloat (gnn_reduce_lr_on_plateau_get_best (s), ==, -INFINITY);
  assert_near (lr_of (opt, 0), plateau[0]);
  for (guint e = 0; e < G_N_ELEMENTS (metrics); e++)
    {
      g_assert_true (gnn_reduce_lr_on_plateau_step_with_metric (s, metrics[e], &error));
      g_assert_no_error (error);
      assert_near (lr_of (opt, 0), plateau[e + 1]);
      g_assert_cmpint (gnn_lr_scheduler_get_last_epoch (GNN_LR_SCHEDULER (s)), ==, (int) e + 1);
    }
  /* group 1 stops at its min_lr */
  assert_near (lr_of (opt, 1), 0.2);
  assert_last_lr (GNN_LR_SCHEDULER (s), GNN_TEST_DATA (0.25, 0.2), 2);
  g_assert_cmpfloat (gnn_reduce_lr_on_plateau_get_best (s), ==, 2);
  /* a plain step has no metric */
  g_assert_false (gnn_lr_scheduler_step (GNN_LR_SCHEDULER (s), &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_assert_true (g_str_has_prefix (error->message,
                                   "ReduceLROnPlateau.step() missing 1 required positional argument: 'metrics'"));
  g_assert_finalize_object (s);
  g_assert_finalize_object (opt);
}

static void
assert_message (GError    **error,
                const char *message)
{
  g_assert_error (*error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_assert_cmpstr ((*error)->message, ==, message);
  g_clear_error (error);
}

/* PyTorch's messages, and nothing changed */
static void
test_more_errors (void)
{
  g_autoptr(GError) error = NULL;
  GnnOptimizer *opt = make_optimizer (GNN_TEST_DATA (1.0, 0.5), 2, NULL);
  GnnOptimizer *other = make_optimizer (GNN_TEST_DATA (1.0), 1, NULL);
  const double three[] = { 0.1, 0.2, 0.3 };

  g_assert_null (gnn_constant_lr_new (opt, 1.5, 5, -1, &error));
  assert_message (&error, "Constant multiplicative factor expected to be between 0 and 1.");
  g_assert_null (gnn_cosine_annealing_warm_restarts_new (opt, 0, 1, 0, -1, &error));
  assert_message (&error, "Expected positive integer T_0, but got 0");
  g_assert_null (gnn_cosine_annealing_warm_restarts_new (opt, 3, 0, 0, -1, &error));
  assert_message (&error, "Expected integer T_mult >= 1, but got 0");
  g_assert_null (gnn_cyclic_lr_new (opt, three, 1, three, 1, 10, -1, "cyclic", 1, NULL, NULL, FALSE,
                                    NULL, 0, NULL, 0, -1, &error));
  assert_message (&error, "mode is invalid and scale_fn is None");
  g_assert_null (gnn_cyclic_lr_new (opt, three, 3, three, 1, 10, -1, NULL, 1, NULL, NULL, FALSE,
                                    NULL, 0, NULL, 0, -1, &error));
  assert_message (&error, "base_lr must have the same length as optimizer.param_groups. base_lr has 3 values, "
                          "param_groups has 2.");
  g_assert_null (gnn_cyclic_lr_new (opt, three, 1, three, 1, 10, -1, NULL, 1, NULL, NULL, TRUE,
                                    NULL, 0, NULL, 0, -1, &error));
  assert_message (&error, "optimizer must support momentum or beta1 with `cycle_momentum` option enabled");
  g_assert_null (gnn_reduce_lr_on_plateau_new (opt, NULL, 1.0, 10, 1e-4, NULL, 0, NULL, 0, 1e-8, &error));
  assert_message (&error, "Factor should be < 1.0.");
  g_assert_null (gnn_reduce_lr_on_plateau_new (opt, "avg", 0.1, 10, 1e-4, NULL, 0, NULL, 0, 1e-8, &error));
  assert_message (&error, "mode avg is unknown!");
  g_assert_null (gnn_reduce_lr_on_plateau_new (opt, "max", 0.1, 10, 1e-4, "rel2", 0, NULL, 0, 1e-8, &error));
  assert_message (&error, "threshold mode rel2 is unknown!");
  g_assert_null (gnn_chained_scheduler_new (NULL, 0, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  {
    g_autoptr(GnnConstantLR) a = gnn_constant_lr_new (opt, 0.5, 2, -1, &error);
    g_autoptr(GnnConstantLR) b = gnn_constant_lr_new (other, 0.5, 2, -1, &error);
    GnnLRScheduler *both[] = { GNN_LR_SCHEDULER (a), GNN_LR_SCHEDULER (b) };

    g_assert_no_error (error);
    g_assert_null (gnn_chained_scheduler_new (both, 2, &error));
    assert_message (&error, "ChainedScheduler expects all schedulers to belong to the same optimizer, but got "
                            "schedulers at index 0 and 1 to be different");
  }
  /* the failed constructions left the groups alone (the ConstantLR halved the rates) */
  assert_near (lr_of (opt, 0), 0.5);
  g_assert_false (gnn_param_group_has_option (gnn_optimizer_get_param_group (opt, 0), "momentum"));
  g_assert_finalize_object (opt);
  g_assert_finalize_object (other);
}

static GnnLRScheduler *
make_resumable_more (GnnOptimizer *opt,
                     int           kind)
{
  g_autoptr(GError) error = NULL;
  GnnLRScheduler *s = NULL;

  switch (kind)
    {
    case 0:
      s = GNN_LR_SCHEDULER (gnn_cyclic_lr_new (opt, GNN_TEST_DATA (0.01), 1, GNN_TEST_DATA (0.1), 1, 4, 2,
                                               "triangular2", 1, NULL, NULL, TRUE, NULL, 0, NULL, 0, -1, &error));
      break;
    case 1:
      s = GNN_LR_SCHEDULER (gnn_cosine_annealing_warm_restarts_new (opt, 3, 2, 0.001, -1, &error));
      break;
    case 2:
      {
        g_autoptr(GnnLRScheduler) a = GNN_LR_SCHEDULER (gnn_polynomial_lr_new (opt, 8, 1.5, -1, &error));
        g_autoptr(GnnLRScheduler) b = GNN_LR_SCHEDULER (gnn_constant_lr_new (opt, 0.5, 9, -1, &error));
        GnnLRScheduler *all[] = { a, b };

        s = GNN_LR_SCHEDULER (gnn_chained_scheduler_new (all, 2, &error));
      }
      break;
    case 3:
      s = GNN_LR_SCHEDULER (gnn_reduce_lr_on_plateau_new (opt, "min", 0.5, 1, 0.01, "rel", 2, NULL, 0, 1e-8,
                                                          &error));
      break;
    default:
      g_assert_not_reached ();
    }
  g_assert_no_error (error);
  return s;
}

/* one epoch: a step, or a plateaued metric for ReduceLROnPlateau */
static void
step_more (GnnLRScheduler *s,
           int             epoch)
{
  g_autoptr(GError) error = NULL;

  if (GNN_IS_REDUCE_LR_ON_PLATEAU (s))
    g_assert_true (gnn_reduce_lr_on_plateau_step_with_metric (GNN_REDUCE_LR_ON_PLATEAU (s), 1.0 / (1 + epoch / 3),
                                                              &error));
  else
    g_assert_true (gnn_lr_scheduler_step (s, &error));
  g_assert_no_error (error);
}

/* a state saved mid-run and loaded into a fresh scheduler goes on identically */
static void
test_state_resume_more (void)
{
  for (int kind = 0; kind < 4; kind++)
    {
      g_autoptr(GError) error = NULL;
      GnnOptimizer *opt = make_optimizer (GNN_TEST_DATA (0.1), 1, "momentum");
      GnnOptimizer *opt2 = make_optimizer (GNN_TEST_DATA (0.1), 1, "momentum");
      GnnLRScheduler *a = make_resumable_more (opt, kind);
      GnnLRScheduler *b = make_resumable_more (opt2, kind);
      g_autoptr(GVariant) state = NULL, again = NULL;

      for (int i = 0; i < 7; i++)
        step_more (a, i);
      state = gnn_lr_scheduler_state_dict (a);
      copy_groups (opt, opt2);
      g_assert_true (gnn_lr_scheduler_load_state_dict (b, state, &error));
      g_assert_no_error (error);
      again = gnn_lr_scheduler_state_dict (b);
      g_assert_true (g_variant_equal (state, again));
      for (int i = 7; i < 20; i++)
        {
          step_more (a, i);
          step_more (b, i);
          g_assert_cmpfloat (lr_of (opt, 0), ==, lr_of (opt2, 0));
          g_assert_cmpfloat (option_of (opt, 0, "momentum"), ==, option_of (opt2, 0, "momentum"));
        }
      g_assert_finalize_object (a);
      g_assert_finalize_object (b);
      g_assert_finalize_object (opt);
      g_assert_finalize_object (opt2);
    }
}

/* ---- a subclass --------------------------------------------------------------------------- */

#define TEST_TYPE_HALVING (test_halving_get_type ())
G_DECLARE_FINAL_TYPE (TestHalving, test_halving, TEST, HALVING, GnnLRScheduler)

struct _TestHalving
{
  GnnLRScheduler parent_instance;
  int initial_calls;
};

G_DEFINE_FINAL_TYPE (TestHalving, test_halving, GNN_TYPE_LR_SCHEDULER)

static GArray *
test_halving_get_lr (GnnLRScheduler *sched,
                     GError        **error)
{
  guint n = 0;
  g_autofree double *base = gnn_lr_scheduler_get_base_lrs (sched, &n);
  GArray *out = g_array_new (FALSE, FALSE, sizeof (double));

  if (gnn_lr_scheduler_is_initial_step (sched))
    TEST_HALVING (sched)->initial_calls++;
  for (guint i = 0; i < n; i++)
    {
      double v = base[i] * pow (0.5, gnn_lr_scheduler_get_last_epoch (sched));

      g_array_append_val (out, v);
    }
  return out;
}

static void
test_halving_class_init (TestHalvingClass *klass)
{
  GNN_LR_SCHEDULER_CLASS (klass)->get_lr = test_halving_get_lr;
}

static void
test_halving_init (TestHalving *self)
{
}

static void
count_notify_epoch (GObject    *object,
                    GParamSpec *pspec,
                    gpointer    data)
{
  (*(int *) data)++;
}

static void
test_subclass (void)
{
  g_autoptr(GError) error = NULL;
  GnnOptimizer *opt = make_optimizer (GNN_TEST_DATA (4.0, 8.0), 2, NULL);
  TestHalving *s = g_initable_new (TEST_TYPE_HALVING, NULL, &error, "optimizer", opt, NULL);
  g_autoptr(GArray) lrs = NULL;
  int notified = 0;

  g_assert_no_error (error);
  g_assert_cmpint (s->initial_calls, ==, 1);
  g_assert_cmpint (gnn_lr_scheduler_get_step_count (GNN_LR_SCHEDULER (s)), ==, 1);
  g_signal_connect (s, "notify::last-epoch", G_CALLBACK (count_notify_epoch), &notified);
  assert_schedule (GNN_LR_SCHEDULER (s), GNN_TEST_DATA (4, 2, 1, 0.5), 4);
  g_assert_cmpint (notified, ==, 3);
  g_assert_cmpint (s->initial_calls, ==, 1);
  g_assert_false (gnn_lr_scheduler_is_initial_step (GNN_LR_SCHEDULER (s)));
  /* the get_lr invoker computes without applying */
  gnn_lr_scheduler_set_last_epoch (GNN_LR_SCHEDULER (s), 5);
  lrs = gnn_lr_scheduler_get_lr (GNN_LR_SCHEDULER (s), &error);
  g_assert_no_error (error);
  g_assert_cmpuint (lrs->len, ==, 2);
  g_assert_cmpfloat (g_array_index (lrs, double, 1), ==, 0.25);
  assert_near (lr_of (opt, 1), 1.0);
  g_assert_finalize_object (s);
  g_assert_finalize_object (opt);
}

int
main (int    argc,
      char **argv)
{
  gnn_test_init (&argc, &argv);
  g_test_add_func ("/lr-scheduler/step", test_step);
  g_test_add_func ("/lr-scheduler/multi-step", test_multi_step);
  g_test_add_func ("/lr-scheduler/exponential", test_exponential);
  g_test_add_func ("/lr-scheduler/cosine", test_cosine);
  g_test_add_func ("/lr-scheduler/linear", test_linear);
  g_test_add_func ("/lr-scheduler/lambda", test_lambda);
  g_test_add_func ("/lr-scheduler/one-cycle", test_one_cycle);
  g_test_add_func ("/lr-scheduler/one-cycle-errors", test_one_cycle_errors);
  g_test_add_func ("/lr-scheduler/sequential", test_sequential);
  g_test_add_func ("/lr-scheduler/swalr", test_swalr);
  g_test_add_func ("/lr-scheduler/errors", test_errors);
  g_test_add_func ("/lr-scheduler/state", test_state);
  g_test_add_func ("/lr-scheduler/state-resume", test_state_resume);
  g_test_add_func ("/lr-scheduler/subclass", test_subclass);
  g_test_add_func ("/lr-scheduler/more-schedules", test_more_schedules);
  g_test_add_func ("/lr-scheduler/sgdr-step-to", test_sgdr_step_to);
  g_test_add_func ("/lr-scheduler/plateau", test_plateau);
  g_test_add_func ("/lr-scheduler/more-errors", test_more_errors);
  g_test_add_func ("/lr-scheduler/state-resume-more", test_state_resume_more);
  return g_test_run ();
}
