/* test-optim-more.c: Adadelta, Adamax, NAdam, RAdam, Rprop, ASGD, SparseAdam and LBFGS built with
 * g_initable_new from their properties and stepped: first steps against the update rules by
 * hand, a quadratic that each one descends (or climbs, with maximize), the state a step
 * leaves, a state dict that resumes bit for bit, and PyTorch's errors.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "gnn-test-util.h"
#include "optim/gnn-optim-private.h"

static const double P0[] = { 1.0, -0.5 };

static GnnTensor *
new_param (void)
{
  GnnTensor *p = gnn_test_tensor_d (P0, 2, GNN_TEST_SHAPE (2), 1);

  g_assert_true (gnn_tensor_set_requires_grad (p, TRUE, NULL));
  return p;
}

/* the gradient of sum (p * p) */
static void
set_quadratic_grad (GnnTensor *p)
{
  g_autoptr(GError) error = NULL;
  g_autofree double *v = gnn_tensor_to_doubles (p, NULL, &error);
  double g[2];
  g_autoptr(GnnTensor) grad = NULL;

  g_assert_no_error (error);
  g[0] = 2 * v[0];
  g[1] = 2 * v[1];
  grad = gnn_test_tensor_d (g, 2, GNN_TEST_SHAPE (2), 1);
  g_assert_true (gnn_tensor_set_grad (p, grad, &error));
  g_assert_no_error (error);
}

static double
sum_of_squares (GnnTensor *p)
{
  g_autofree double *v = gnn_tensor_to_doubles (p, NULL, NULL);

  return v[0] * v[0] + v[1] * v[1];
}

/* an optimizer of @type from properties (NULL-terminated name/value pairs), then @p added as
 * its group, which takes those options as its defaults */
static GnnOptimizer *
make (GType       type,
      GnnTensor  *p,
      GError    **error,
      const char *first_property,
      ...)
{
  g_autoptr(GnnParamGroup) group = gnn_param_group_new (&p, 1);
  GObject *object;
  va_list args;

  va_start (args, first_property);
  object = G_OBJECT (g_initable_new_valist (type, first_property, args, NULL, error));
  va_end (args);
  if (object == NULL)
    return NULL;
  if (!gnn_optimizer_add_param_group (GNN_OPTIMIZER (object), group, error))
    {
      g_object_unref (object);
      return NULL;
    }
  return GNN_OPTIMIZER (object);
}

static void
step (GnnOptimizer *opt,
      GnnTensor    *p)
{
  g_autoptr(GError) error = NULL;

  set_quadratic_grad (p);
  g_assert_true (gnn_optimizer_step (opt, &error));
  g_assert_no_error (error);
}

static void
test_first_steps (void)
{
  g_autoptr(GError) error = NULL;
  double g0 = 2.0, g1 = -1.0;   /* the first gradient, 2 * P0 */

  /* Adadelta: square_avg = (1 - rho) g^2, delta = sqrt (eps) / sqrt (square_avg + eps) * g */
  {
    g_autoptr(GnnTensor) p = new_param ();
    g_autoptr(GnnOptimizer) opt = make (GNN_TYPE_ADADELTA, p, &error, "rho", 0.8, "eps", 1e-4, NULL);
    double d0 = sqrt (1e-4) / sqrt (0.2 * g0 * g0 + 1e-4) * g0;
    double d1 = sqrt (1e-4) / sqrt (0.2 * g1 * g1 + 1e-4) * g1;

    g_assert_no_error (error);
    step (opt, p);
    gnn_test_assert_close (p, GNN_TEST_DATA (P0[0] - d0, P0[1] - d1), 2, 1e-12, 1e-14);
  }
  /* Adamax: lr / (1 - beta1) * (1 - beta1) g / (|g| + eps) */
  {
    g_autoptr(GnnTensor) p = new_param ();
    g_autoptr(GnnOptimizer) opt = make (GNN_TYPE_ADAMAX, p, &error, "lr", 0.1, NULL);

    g_assert_no_error (error);
    step (opt, p);
    gnn_test_assert_close (p, GNN_TEST_DATA (P0[0] - 0.1 * g0 / (2.0 + 1e-8),
                                             P0[1] - 0.1 * g1 / (1.0 + 1e-8)), 2, 1e-12, 1e-14);
  }
  /* Rprop: no previous gradient, so every step size stays lr: p - sign (g) lr */
  {
    g_autoptr(GnnTensor) p = new_param ();
    g_autoptr(GnnOptimizer) opt = make (GNN_TYPE_RPROP, p, &error, "lr", 0.25, NULL);

    g_assert_no_error (error);
    step (opt, p);
    gnn_test_assert_close (p, GNN_TEST_DATA (0.75, -0.25), 2, 0, 1e-15);
    /* then the signs agree (p keeps its sign): the step sizes grow by etaplus */
    step (opt, p);
    gnn_test_assert_close (p, GNN_TEST_DATA (0.75 - 0.3, -0.25 + 0.3), 2, 1e-12, 1e-15);
  }
  /* ASGD: eta starts as lr rounded to float32: p (1 - lambd eta) - eta g */
  {
    g_autoptr(GnnTensor) p = new_param ();
    g_autoptr(GnnOptimizer) opt = make (GNN_TYPE_ASGD, p, &error, "lr", 0.1, "lambd", 0.01, NULL);
    double eta = (float) 0.1;

    g_assert_no_error (error);
    step (opt, p);
    gnn_test_assert_close (p, GNN_TEST_DATA (P0[0] * (1 - 0.01 * eta) - eta * g0,
                                             P0[1] * (1 - 0.01 * eta) - eta * g1), 2, 1e-14, 1e-15);
  }
}

/* each descends the quadratic, or climbs it with maximize, and keeps PyTorch's state */
static void
test_descend (void)
{
  struct {
    GType type;
    const char *keys[5];
    gboolean maximize;
  } cases[] = {
    { GNN_TYPE_ADADELTA, { "step", "square_avg", "acc_delta" }, FALSE },
    { GNN_TYPE_ADADELTA, { "step", "square_avg", "acc_delta" }, TRUE },
    { GNN_TYPE_ADAMAX, { "step", "exp_avg", "exp_inf" }, FALSE },
    { GNN_TYPE_ADAMAX, { "step", "exp_avg", "exp_inf" }, TRUE },
    { GNN_TYPE_NADAM, { "step", "mu_product", "exp_avg", "exp_avg_sq" }, FALSE },
    { GNN_TYPE_RADAM, { "step", "exp_avg", "exp_avg_sq" }, FALSE },
    { GNN_TYPE_RPROP, { "step", "prev", "step_size" }, FALSE },
    { GNN_TYPE_RPROP, { "step", "prev", "step_size" }, TRUE },
    { GNN_TYPE_ASGD, { "step", "eta", "mu", "ax" }, FALSE },
    { GNN_TYPE_ASGD, { "step", "eta", "mu", "ax" }, TRUE },
  };

  for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(GnnTensor) p = new_param ();
      g_autoptr(GnnOptimizer) opt = NULL;
      GnnStateDict *state;
      double before = sum_of_squares (p);
      g_auto(GStrv) keys = NULL;
      guint n_keys = 0;

      /* the options NAdam and RAdam lack (torch 1.13's) are not set on them */
      if (cases[c].type == GNN_TYPE_NADAM || cases[c].type == GNN_TYPE_RADAM)
        opt = make (cases[c].type, p, &error, "lr", 0.05, NULL);
      else
        opt = make (cases[c].type, p, &error, "lr", 0.05, "maximize", cases[c].maximize, NULL);
      g_assert_no_error (error);
      g_assert_false (gnn_optimizer_has_state (opt, p));
      for (int s = 0; s < 10; s++)
        step (opt, p);
      if (cases[c].maximize)
        g_assert_cmpfloat (sum_of_squares (p), >, before);
      else
        g_assert_cmpfloat (sum_of_squares (p), <, before);

      state = gnn_optimizer_get_state (opt, p);
      keys = gnn_state_dict_get_keys (state);
      while (cases[c].keys[n_keys] != NULL)
        {
          g_assert_cmpstr (keys[n_keys], ==, cases[c].keys[n_keys]);
          n_keys++;
        }
      g_assert_null (keys[n_keys]);
      g_assert_cmpfloat (gnn_state_dict_get_length (state), ==, n_keys);
    }
}

/* a state dict taken after three steps resumes in a new optimizer bit for bit; NAdam keeps a
 * number besides step */
static void
test_resume (void)
{
  GType types[] = { GNN_TYPE_NADAM, GNN_TYPE_ASGD, GNN_TYPE_RPROP, GNN_TYPE_ADADELTA };

  for (guint t = 0; t < G_N_ELEMENTS (types); t++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(GnnTensor) a = new_param ();
      g_autoptr(GnnTensor) b = NULL;
      g_autoptr(GnnOptimizer) opt_a = make (types[t], a, &error, "lr", 0.05, NULL);
      g_autoptr(GnnOptimizer) opt_b = NULL;
      g_autoptr(GnnStateDict) saved = NULL;
      g_autofree double *va = NULL;

      g_assert_no_error (error);
      for (int s = 0; s < 3; s++)
        step (opt_a, a);
      saved = gnn_optimizer_state_dict (opt_a);
      va = gnn_tensor_to_doubles (a, NULL, &error);
      b = gnn_test_tensor_d (va, 2, GNN_TEST_SHAPE (2), 1);
      g_clear_pointer (&va, g_free);
      g_assert_true (gnn_tensor_set_requires_grad (b, TRUE, NULL));
      opt_b = make (types[t], b, &error, NULL);
      g_assert_no_error (error);
      g_assert_true (gnn_optimizer_load_state_dict (opt_b, saved, &error));
      g_assert_no_error (error);
      for (int s = 0; s < 4; s++)
        {
          step (opt_a, a);
          step (opt_b, b);
        }
      va = gnn_tensor_to_doubles (a, NULL, &error);
      gnn_test_assert_close (b, va, 2, 0, 0);
    }
}

static void
test_errors (void)
{
  g_autoptr(GnnTensor) p = new_param ();
  g_autoptr(GListStore) groups = g_list_store_new (GNN_TYPE_PARAM_GROUP);
  g_autoptr(GnnParamGroup) group = gnn_param_group_new (&p, 1);
  /* a double option, or a pair when pair is set */
  struct {
    GType type;
    const char *name;
    double value;
    gboolean pair;
    double first, second;
    const char *message;
  } cases[] = {
    { GNN_TYPE_ADADELTA, "rho", 1.5, FALSE, 0, 0, "Invalid rho value: 1.5" },
    { GNN_TYPE_ADADELTA, "lr", -1, FALSE, 0, 0, "Invalid learning rate: -1.0" },
    { GNN_TYPE_ADAMAX, "betas", 0, TRUE, 1.0, 0.9, "Invalid beta parameter at index 0: 1.0" },
    { GNN_TYPE_NADAM, "momentum-decay", -0.5, FALSE, 0, 0, "Invalid momentum_decay value: -0.5" },
    { GNN_TYPE_RADAM, "betas", 0, TRUE, 0.9, 1.0, "Invalid beta parameter at index 1: 1.0" },
    { GNN_TYPE_RPROP, "etas", 0, TRUE, 0.5, 0.9, "Invalid eta values: 0.5, 0.9" },
    { GNN_TYPE_ASGD, "weight-decay", -1e-4, FALSE, 0, 0, "Invalid weight_decay value: -0.0001" },
    { GNN_TYPE_SPARSE_ADAM, "lr", 0, FALSE, 0, 0, "Invalid learning rate: 0.0" },
    { GNN_TYPE_SPARSE_ADAM, "eps", 0, FALSE, 0, 0, "Invalid epsilon value: 0.0" },
  };

  g_list_store_append (groups, group);
  for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
    {
      g_autoptr(GError) error = NULL;
      gpointer object;

      if (cases[c].pair)
        object = g_initable_new (cases[c].type, NULL, &error, "params", groups, cases[c].name,
                                 g_variant_new ("(dd)", cases[c].first, cases[c].second), NULL);
      else
        object = g_initable_new (cases[c].type, NULL, &error, "params", groups, cases[c].name,
                                 cases[c].value, NULL);
      g_assert_null (object);
      g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
      g_assert_cmpstr (error->message, ==, cases[c].message);
    }
}

static void
test_sparse_adam_refuses_dense (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) p = new_param ();
  g_autoptr(GnnOptimizer) opt = make (GNN_TYPE_SPARSE_ADAM, p, &error, NULL);

  g_assert_no_error (error);
  /* no gradient: nothing to do */
  g_assert_true (gnn_optimizer_step (opt, &error));
  g_assert_no_error (error);
  set_quadratic_grad (p);
  g_assert_false (gnn_optimizer_step (opt, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED);
  g_assert_cmpstr (error->message, ==, "SparseAdam does not support dense gradients, please consider Adam instead");
  g_assert_false (gnn_optimizer_has_state (opt, p));
  gnn_test_assert_close (p, P0, 2, 0, 0);
}

/* the closure of LBFGS: loss (p0 - 3)^2 + 10 (p1 + 2)^2 and its gradient, set by hand */
static gboolean
quadratic_closure (double   *loss,
                   gpointer  user_data)
{
  GnnTensor *p = user_data;
  g_autofree double *v = gnn_tensor_to_doubles (p, NULL, NULL);
  double g[2] = { 2 * (v[0] - 3), 20 * (v[1] + 2) };
  g_autoptr(GnnTensor) grad = gnn_test_tensor_d (g, 2, GNN_TEST_SHAPE (2), 1);

  g_assert_false (gnn_is_grad_enabled () == FALSE);
  *loss = (v[0] - 3) * (v[0] - 3) + 10 * (v[1] + 2) * (v[1] + 2);
  return gnn_tensor_set_grad (p, grad, NULL);
}

static gboolean
failing_closure (double   *loss,
                 gpointer  user_data)
{
  return FALSE;
}

static void
test_lbfgs (void)
{
  const char *searches[] = { NULL, "strong_wolfe" };

  for (guint i = 0; i < G_N_ELEMENTS (searches); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(GnnTensor) p = new_param ();
      g_autoptr(GnnOptimizer) opt = NULL;
      GVariant *search = g_variant_new_maybe (G_VARIANT_TYPE_STRING,
                                              searches[i] ? g_variant_new_string (searches[i]) : NULL);
      GnnStateDict *state;
      double loss = 0;

      opt = make (GNN_TYPE_LBFGS, p, &error, "lr", 1.0, "history-size", 5.0,
                  "line-search-fn", search, NULL);
      g_assert_no_error (error);
      /* a step needs the closure */
      g_assert_false (gnn_optimizer_step (opt, &error));
      g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
      g_clear_error (&error);
      for (int s = 0; s < 5; s++)
        {
          g_assert_true (gnn_lbfgs_step_closure (GNN_LBFGS (opt), quadratic_closure, p, &loss, &error));
          g_assert_no_error (error);
        }
      gnn_test_assert_close (p, GNN_TEST_DATA (3, -2), 2, 1e-6, 1e-6);
      g_assert_cmpfloat (loss, <, 1e-8);
      state = gnn_optimizer_get_state (opt, p);
      g_assert_cmpfloat (gnn_optim_get_number (state, "n_iter", 0), >, 1);
      g_assert_nonnull (gnn_state_dict_get_tensor (state, "old_dirs", NULL));
      /* a failing closure fails the step */
      g_assert_false (gnn_lbfgs_step_closure (GNN_LBFGS (opt), failing_closure, NULL, NULL, &error));
      g_assert_error (error, GNN_ERROR, GNN_ERROR_FAILED);
    }
}

/* history_size 0 cannot keep a pair: an error (PyTorch: an IndexError), not a crash */
static void
test_lbfgs_no_history (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) p = new_param ();
  g_autoptr(GnnOptimizer) opt = make (GNN_TYPE_LBFGS, p, &error, "history-size", 0.0, NULL);

  g_assert_no_error (error);
  g_assert_false (gnn_lbfgs_step_closure (GNN_LBFGS (opt), quadratic_closure, p, NULL, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_assert_cmpstr (error->message, ==, "LBFGS: history_size must be at least 1, found 0");
}

int
main (int argc, char **argv)
{
  gnn_test_init (&argc, &argv);

  g_test_add_func ("/optim-more/first-steps", test_first_steps);
  g_test_add_func ("/optim-more/descend", test_descend);
  g_test_add_func ("/optim-more/resume", test_resume);
  g_test_add_func ("/optim-more/errors", test_errors);
  g_test_add_func ("/optim-more/sparse-adam", test_sparse_adam_refuses_dense);
  g_test_add_func ("/optim-more/lbfgs", test_lbfgs);
  g_test_add_func ("/optim-more/lbfgs/no-history", test_lbfgs_no_history);

  return g_test_run ();
}
