/* test-optim.c: SGD, Adam, AdamW, RMSprop and Adagrad against their update rules computed
 * by hand (plain double arithmetic, the formulas of PyTorch's documentation; torch 1.13 in
 * float64 gives the same numbers), their errors, parameter groups, zero_grad, and state
 * dicts that resume training bit for bit.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "gnn-test-util.h"

/* ---- the update rules by hand ------------------------------------------------------- */

typedef enum { SGD, ADAM, ADAMW, RMSPROP, ADAGRAD } Kind;

typedef struct {
  Kind kind;
  double lr, momentum, dampening, weight_decay;
  gboolean nesterov, maximize;
  double beta1, beta2, eps;
  gboolean amsgrad;
  double alpha;
  gboolean centered;
  double lr_decay, initial_accumulator_value;
} Hyper;

/* the state of one element */
typedef struct {
  double p, buf, m, v, vmax, gavg, sum, step;
  gboolean has_buf;
} Ref;

static void
ref_init (const Hyper *h, Ref *r, double p)
{
  memset (r, 0, sizeof *r);
  r->p = p;
  r->sum = h->initial_accumulator_value;
}

static void
ref_step (const Hyper *h, Ref *r, double g)
{
  double d = h->maximize ? -g : g;

  r->step += 1;
  if (h->kind != ADAMW && h->weight_decay != 0)
    d += h->weight_decay * r->p;
  switch (h->kind)
    {
    case SGD:
      if (h->momentum != 0)
        {
          r->buf = r->has_buf ? h->momentum * r->buf + (1 - h->dampening) * d : d;
          r->has_buf = TRUE;
          d = h->nesterov ? d + h->momentum * r->buf : r->buf;
        }
      r->p -= h->lr * d;
      break;
    case ADAM:
    case ADAMW:
      {
        double denom;

        if (h->kind == ADAMW)
          r->p *= 1 - h->lr * h->weight_decay;
        r->m = h->beta1 * r->m + (1 - h->beta1) * d;
        r->v = h->beta2 * r->v + (1 - h->beta2) * d * d;
        r->vmax = MAX (r->vmax, r->v);
        denom = sqrt (h->amsgrad ? r->vmax : r->v) / sqrt (1 - pow (h->beta2, r->step)) + h->eps;
        r->p -= h->lr / (1 - pow (h->beta1, r->step)) * r->m / denom;
      }
      break;
    case RMSPROP:
      {
        double avg;

        r->v = h->alpha * r->v + (1 - h->alpha) * d * d;
        if (h->centered)
          {
            r->gavg = h->alpha * r->gavg + (1 - h->alpha) * d;
            avg = sqrt (r->v - r->gavg * r->gavg) + h->eps;
          }
        else
          avg = sqrt (r->v) + h->eps;
        if (h->momentum > 0)
          {
            r->buf = h->momentum * r->buf + d / avg;
            r->p -= h->lr * r->buf;
          }
        else
          r->p -= h->lr * d / avg;
      }
      break;
    case ADAGRAD:
      r->sum += d * d;
      r->p -= h->lr / (1 + (r->step - 1) * h->lr_decay) * d / (sqrt (r->sum) + h->eps);
      break;
    }
}

static GnnOptimizer *
make_optimizer (const Hyper *h, GnnParamGroup *group, GError **error)
{
  switch (h->kind)
    {
    case SGD:
      return GNN_OPTIMIZER (gnn_sgd_new (group, h->lr, h->momentum, h->dampening, h->weight_decay, h->nesterov,
                                         h->maximize, error));
    case ADAM:
      return GNN_OPTIMIZER (gnn_adam_new (group, h->lr, h->beta1, h->beta2, h->eps, h->weight_decay, h->amsgrad,
                                          h->maximize, error));
    case ADAMW:
      return GNN_OPTIMIZER (gnn_adamw_new (group, h->lr, h->beta1, h->beta2, h->eps, h->weight_decay, h->amsgrad,
                                           h->maximize, error));
    case RMSPROP:
      return GNN_OPTIMIZER (gnn_rmsprop_new (group, h->lr, h->alpha, h->eps, h->weight_decay, h->momentum,
                                             h->centered, h->maximize, error));
    case ADAGRAD:
      return GNN_OPTIMIZER (gnn_adagrad_new (group, h->lr, h->lr_decay, h->weight_decay,
                                             h->initial_accumulator_value, h->eps, h->maximize, error));
    }
  g_assert_not_reached ();
}

/* PyTorch's defaults, which the arguments override (a designated initializer may set a
 * field twice; the last one wins) */
#if defined (__clang__)
#pragma clang diagnostic ignored "-Winitializer-overrides"
#elif defined (__GNUC__)
#pragma GCC diagnostic ignored "-Woverride-init"
#endif
#define SGD_H(...)     ((Hyper) { .kind = SGD, __VA_ARGS__ })
#define ADAM_H(...)    ((Hyper) { .kind = ADAM, .lr = 1e-3, .beta1 = 0.9, .beta2 = 0.999, .eps = 1e-8, __VA_ARGS__ })
#define ADAMW_H(...)   ((Hyper) { .kind = ADAMW, .lr = 1e-3, .beta1 = 0.9, .beta2 = 0.999, .eps = 1e-8, \
                                  .weight_decay = 1e-2, __VA_ARGS__ })
#define RMSPROP_H(...) ((Hyper) { .kind = RMSPROP, .lr = 1e-2, .alpha = 0.99, .eps = 1e-8, __VA_ARGS__ })
#define ADAGRAD_H(...) ((Hyper) { .kind = ADAGRAD, .lr = 1e-2, .eps = 1e-10, __VA_ARGS__ })

/* three steps with these gradients of a float64 parameter of two elements (the last are
 * zeros: the state still moves the parameter) */
static const double P0[2] = { 1.0, -0.5 };
static const double GRADS[3][2] = { { 2.0, -1.0 }, { 0.5, 0.25 }, { 0.0, 0.0 } };

static GnnTensor *
new_param (const double *values, gint64 n)
{
  GnnTensor *p = gnn_test_tensor_d (values, n, GNN_TEST_SHAPE (n), 1);

  g_assert_true (gnn_tensor_set_requires_grad (p, TRUE, NULL));
  return p;
}

static void
set_grad (GnnTensor *p, const double *values, gint64 n)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) g = gnn_test_tensor_d (values, n, GNN_TEST_SHAPE (n), 1);

  g_assert_true (gnn_tensor_set_grad (p, g, &error));
  g_assert_no_error (error);
}

static void
check_by_hand (const Hyper *h)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) p = new_param (P0, 2);
  g_autoptr(GnnParamGroup) group = gnn_param_group_new (&p, 1);
  g_autoptr(GnnOptimizer) opt = make_optimizer (h, group, &error);
  Ref r[2];

  g_assert_no_error (error);
  g_assert_nonnull (opt);
  for (int i = 0; i < 2; i++)
    ref_init (h, &r[i], P0[i]);
  for (int s = 0; s < 3; s++)
    {
      double expected[2];

      set_grad (p, GRADS[s], 2);
      g_assert_true (gnn_optimizer_step (opt, &error));
      g_assert_no_error (error);
      for (int i = 0; i < 2; i++)
        {
          ref_step (h, &r[i], GRADS[s][i]);
          expected[i] = r[i].p;
        }
      gnn_test_assert_close (p, expected, 2, 1e-12, 1e-14);
      /* the step count, kept as a double (SGD keeps none) */
      if (h->kind != SGD)
        {
          g_auto(GValue) step = G_VALUE_INIT;

          g_assert_true (gnn_state_dict_get_value (gnn_optimizer_get_state (opt, p), "step", &step, NULL));
          g_assert_true (G_VALUE_HOLDS_DOUBLE (&step));
          g_assert_cmpfloat (g_value_get_double (&step), ==, s + 1);
        }
    }
  g_clear_object (&group);
  g_assert_finalize_object (g_steal_pointer (&opt));
}

static void
test_sgd (void)
{
  /* p - lr·g: 1 - 0.1·2 = 0.8, -0.5 + 0.1 = -0.4; then 0.75, -0.425; then unchanged */
  check_by_hand (&SGD_H (.lr = 0.1));
  check_by_hand (&SGD_H (.lr = 0.1, .momentum = 0.9, .dampening = 0.5, .weight_decay = 0.1));
  check_by_hand (&SGD_H (.lr = 0.1, .momentum = 0.9, .nesterov = TRUE, .maximize = TRUE));
  check_by_hand (&SGD_H (.lr = 0.05, .momentum = 0.5, .weight_decay = 0.2, .maximize = TRUE));
}

static void
test_sgd_first_values (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) p = new_param (P0, 2);
  g_autoptr(GnnParamGroup) group = gnn_param_group_new (&p, 1);
  g_autoptr(GnnOptimizer) opt = GNN_OPTIMIZER (gnn_sgd_new (group, 0.1, 0.9, 0.5, 0, FALSE, FALSE, &error));
  GnnStateDict *state;
  GnnTensor *buf;

  /* the numbers themselves, step by step: buf = g on the first step (no dampening),
   * then 0.9·buf + 0.5·g */
  set_grad (p, GRADS[0], 2);
  g_assert_true (gnn_optimizer_step (opt, &error));
  gnn_test_assert_close (p, GNN_TEST_DATA (0.8, -0.4), 2, 1e-15, 1e-15);
  set_grad (p, GRADS[1], 2);
  g_assert_true (gnn_optimizer_step (opt, &error));
  /* buf = (1.8 + 0.25, -0.9 + 0.125) = (2.05, -0.775) */
  gnn_test_assert_close (p, GNN_TEST_DATA (0.8 - 0.205, -0.4 + 0.0775), 2, 1e-15, 1e-15);

  /* the momentum buffer is a clone of the gradient, not the gradient itself */
  state = gnn_optimizer_get_state (opt, p);
  buf = gnn_state_dict_get_tensor (state, "momentum_buffer", &error);
  g_assert_no_error (error);
  g_assert_true (buf != gnn_tensor_get_grad (p));
  g_assert_false (gnn_tensor_shares_storage (buf, gnn_tensor_get_grad (p)));
  gnn_test_assert_close (buf, GNN_TEST_DATA (2.05, -0.775), 2, 1e-15, 1e-15);
}

static void
test_adam (void)
{
  check_by_hand (&ADAM_H (.lr = 0.1));
  /* the zero gradient of step 3 lowers exp_avg_sq: amsgrad keeps the maximum */
  check_by_hand (&ADAM_H (.lr = 0.1, .weight_decay = 0.1, .amsgrad = TRUE));
  check_by_hand (&ADAM_H (.lr = 0.05, .beta1 = 0.5, .beta2 = 0.9, .eps = 1e-3, .maximize = TRUE));
}

static void
test_adam_first_step (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) p = new_param (P0, 2);
  g_autoptr(GnnParamGroup) group = gnn_param_group_new (&p, 1);
  g_autoptr(GnnOptimizer) opt = GNN_OPTIMIZER (gnn_adam_new (group, 0.1, 0.9, 0.999, 1e-8, 0, FALSE, FALSE, &error));

  /* m = 0.1·g, v = 0.001·g², the bias corrections 0.1 and 0.001: the step is
   * lr · g / (|g| + 1e-8): 1 - 0.1·2/(2 + 1e-8), -0.5 + 0.1·1/(1 + 1e-8) */
  set_grad (p, GRADS[0], 2);
  g_assert_true (gnn_optimizer_step (opt, &error));
  gnn_test_assert_close (p, GNN_TEST_DATA (1 - 0.2 / (2 + 1e-8), -0.5 + 0.1 / (1 + 1e-8)), 2, 1e-14, 1e-15);
}

static void
test_adamw (void)
{
  check_by_hand (&ADAMW_H (.lr = 0.1));
  check_by_hand (&ADAMW_H (.lr = 0.1, .weight_decay = 0.5, .maximize = TRUE));
  check_by_hand (&ADAMW_H (.lr = 0.1, .weight_decay = 0.5, .amsgrad = TRUE));
}

static void
test_rmsprop (void)
{
  check_by_hand (&RMSPROP_H ());
  check_by_hand (&RMSPROP_H (.lr = 0.01, .momentum = 0.9, .centered = TRUE, .weight_decay = 0.1));
  check_by_hand (&RMSPROP_H (.alpha = 0.5, .eps = 1e-2, .momentum = 0.5, .maximize = TRUE));
  check_by_hand (&RMSPROP_H (.centered = TRUE));
}

static void
test_adagrad (void)
{
  check_by_hand (&ADAGRAD_H (.lr = 0.1, .lr_decay = 0.5, .initial_accumulator_value = 1.0));
  check_by_hand (&ADAGRAD_H (.lr = 0.1, .weight_decay = 0.1, .maximize = TRUE));
  check_by_hand (&ADAGRAD_H ());
}

static void
test_adagrad_initial_state (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) p = new_param (P0, 2);
  g_autoptr(GnnParamGroup) group = gnn_param_group_new (&p, 1);
  g_autoptr(GnnOptimizer) opt = GNN_OPTIMIZER (gnn_adagrad_new (group, 0.1, 0, 0, 0.25, 1e-10, FALSE, &error));
  g_autoptr(GnnStateDict) sd = NULL;
  GnnTensor *sum;

  /* as PyTorch's constructor: step 0 and sum filled, before any step */
  g_assert_no_error (error);
  g_assert_true (gnn_optimizer_has_state (opt, p));
  sd = gnn_optimizer_state_dict (opt);
  g_assert_true (gnn_state_dict_contains (sd, "state.0.step"));
  sum = gnn_state_dict_get_tensor (sd, "state.0.sum", &error);
  g_assert_no_error (error);
  gnn_test_assert_close (sum, GNN_TEST_DATA (0.25, 0.25), 2, 0, 0);
}

/* ---- errors ------------------------------------------------------------------------- */

static void
assert_invalid (GnnOptimizer *opt, GError *error, const char *message)
{
  g_assert_null (opt);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_assert_cmpstr (error->message, ==, message);
}

#define EXPECT_INVALID(call, message)               \
  G_STMT_START {                                     \
    GError *e_ = NULL;                               \
    GnnOptimizer *o_ = GNN_OPTIMIZER (call);         \
    assert_invalid (o_, e_, message);                \
    g_error_free (e_);                               \
  } G_STMT_END

static void
test_errors (void)
{
  g_autoptr(GnnTensor) p = new_param (P0, 2);
  g_autoptr(GnnParamGroup) group = gnn_param_group_new (&p, 1);
  g_autoptr(GnnParamGroup) empty = gnn_param_group_new (NULL, 0);

  /* PyTorch's ValueErrors, word for word */
  EXPECT_INVALID (gnn_sgd_new (group, -0.1, 0, 0, 0, FALSE, FALSE, &e_), "Invalid learning rate: -0.1");
  EXPECT_INVALID (gnn_sgd_new (group, 0.1, -1, 0, 0, FALSE, FALSE, &e_), "Invalid momentum value: -1.0");
  EXPECT_INVALID (gnn_sgd_new (group, 0.1, 0, 0, -1e-5, FALSE, FALSE, &e_), "Invalid weight_decay value: -1e-05");
  EXPECT_INVALID (gnn_sgd_new (group, 0.1, 0, 0, 0, TRUE, FALSE, &e_),
                  "Nesterov momentum requires a momentum and zero dampening");
  EXPECT_INVALID (gnn_sgd_new (group, 0.1, 0.9, 0.1, 0, TRUE, FALSE, &e_),
                  "Nesterov momentum requires a momentum and zero dampening");
  EXPECT_INVALID (gnn_sgd_new (empty, 0.1, 0, 0, 0, FALSE, FALSE, &e_), "optimizer got an empty parameter list");
  EXPECT_INVALID (gnn_adam_new (group, -1, 0.9, 0.999, 1e-8, 0, FALSE, FALSE, &e_), "Invalid learning rate: -1.0");
  EXPECT_INVALID (gnn_adam_new (group, NAN, 0.9, 0.999, 1e-8, 0, FALSE, FALSE, &e_), "Invalid learning rate: nan");
  EXPECT_INVALID (gnn_adam_new (group, 1e-3, 0.9, 0.999, -1e-8, 0, FALSE, FALSE, &e_), "Invalid epsilon value: -1e-08");
  EXPECT_INVALID (gnn_adam_new (group, 1e-3, 1.0, 0.999, 1e-8, 0, FALSE, FALSE, &e_),
                  "Invalid beta parameter at index 0: 1.0");
  EXPECT_INVALID (gnn_adamw_new (group, 1e-3, 0.9, -0.5, 1e-8, 0, FALSE, FALSE, &e_),
                  "Invalid beta parameter at index 1: -0.5");
  EXPECT_INVALID (gnn_adamw_new (group, 1e-3, 0.9, 0.999, 1e-8, -0.01, FALSE, FALSE, &e_),
                  "Invalid weight_decay value: -0.01");
  EXPECT_INVALID (gnn_rmsprop_new (group, 1e-2, -0.99, 1e-8, 0, 0, FALSE, FALSE, &e_), "Invalid alpha value: -0.99");
  EXPECT_INVALID (gnn_rmsprop_new (group, 1e-2, 0.99, 1e-8, 0, -0.9, FALSE, FALSE, &e_), "Invalid momentum value: -0.9");
  EXPECT_INVALID (gnn_adagrad_new (group, 1e-2, -0.5, 0, 0, 1e-10, FALSE, &e_), "Invalid lr_decay value: -0.5");
  EXPECT_INVALID (gnn_adagrad_new (group, 1e-2, 0, 0, -1, 1e-10, FALSE, &e_),
                  "Invalid initial_accumulator_value value: -1.0");
  EXPECT_INVALID (gnn_adagrad_new (empty, 1e-2, 0, 0, 0, 1e-10, FALSE, &e_), "optimizer got an empty parameter list");
  /* none of those left options in the group */
  g_assert_false (gnn_param_group_has_option (group, "lr"));
}

/* built from properties alone: the options are properties that read and write the
 * defaults, "params" a list of tensors or groups, errors reported by init and step */
static void
test_properties (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) a = new_param (P0, 2);
  g_autoptr(GnnTensor) b = new_param (P0, 2);
  g_autoptr(GListStore) tensors = g_list_store_new (GNN_TYPE_TENSOR);
  g_autoptr(GListStore) mixed = g_list_store_new (G_TYPE_OBJECT);
  g_autoptr(GListStore) empty = g_list_store_new (GNN_TYPE_TENSOR);
  g_autoptr(GListStore) groups = g_list_store_new (GNN_TYPE_PARAM_GROUP);
  g_autoptr(GnnParamGroup) group = gnn_param_group_new (&b, 1);
  g_autoptr(GVariant) betas = NULL, lr = NULL;
  g_autoptr(GnnOptimizer) sgd = NULL, adam = NULL, bad = NULL;
  double momentum;
  gboolean nesterov;
  int n_notify = 0;

  g_list_store_append (tensors, a);
  g_list_store_append (tensors, b);
  sgd = g_object_new (GNN_TYPE_SGD, "params", tensors, "lr", 0.5, "momentum", 0.9, "nesterov", TRUE, NULL);
  g_assert_true (g_initable_init (G_INITABLE (sgd), NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (gnn_optimizer_get_n_param_groups (sgd), ==, 1);
  g_assert_cmpuint (gnn_param_group_get_n_params (gnn_optimizer_get_param_group (sgd, 0)), ==, 2);
  g_assert_cmpfloat (gnn_param_group_get_double (gnn_optimizer_get_param_group (sgd, 0), "lr"), ==, 0.5);
  g_object_get (sgd, "momentum", &momentum, "nesterov", &nesterov, NULL);
  g_assert_cmpfloat (momentum, ==, 0.9);
  g_assert_true (nesterov);
  /* the properties are the defaults, in PyTorch's order */
  lr = gnn_optimizer_get_default (sgd, "lr");
  g_assert_cmpfloat (g_variant_get_double (lr), ==, 0.5);
  /* set either way, notified once a change (STYLE.md's rule) */
  g_signal_connect_swapped (sgd, "notify::weight-decay", G_CALLBACK (g_atomic_int_inc), &n_notify);
  gnn_optimizer_set_default (sgd, "weight_decay", g_variant_new_double (0.25));
  g_assert_cmpint (n_notify, ==, 1);
  g_object_get (sgd, "weight-decay", &momentum, NULL);
  g_assert_cmpfloat (momentum, ==, 0.25);
  g_object_set (sgd, "weight-decay", 0.25, NULL);
  gnn_optimizer_set_default (sgd, "weight_decay", g_variant_new_double (0.25));
  g_assert_cmpint (n_notify, ==, 1);
  g_object_set (sgd, "weight-decay", 0.5, NULL);
  g_assert_cmpint (n_notify, ==, 2);
  /* an option without a property is a default all the same */
  gnn_optimizer_set_default (sgd, "foreach", g_variant_new_boolean (FALSE));
  g_assert_cmpint (n_notify, ==, 2);

  /* groups, and Adam's betas as a (dd) */
  g_list_store_append (groups, group);
  adam = g_initable_new (GNN_TYPE_ADAM, NULL, &error, "params", groups, NULL);
  g_assert_no_error (error);
  g_object_get (adam, "betas", &betas, NULL);
  g_assert_cmpstr (g_variant_get_type_string (betas), ==, "(dd)");
  g_assert_true (gnn_param_group_has_option (group, "betas"));

  /* PyTorch's errors, from init and again from step */
  bad = g_object_new (GNN_TYPE_SGD, "params", tensors, "lr", -1.0, NULL);
  g_assert_false (g_initable_init (G_INITABLE (bad), NULL, &error));
  g_assert_cmpstr (error->message, ==, "Invalid learning rate: -1.0");
  g_clear_error (&error);
  g_assert_false (gnn_optimizer_step (bad, &error));
  g_assert_cmpstr (error->message, ==, "Invalid learning rate: -1.0");
  g_clear_error (&error);
  g_clear_object (&bad);
  g_assert_null (g_initable_new (GNN_TYPE_ADAM, NULL, &error, "lr", NAN, NULL));
  g_assert_cmpstr (error->message, ==, "Invalid learning rate: nan");
  g_clear_error (&error);
  g_assert_null (g_initable_new (GNN_TYPE_RMSPROP, NULL, &error, "params", empty, NULL));
  g_assert_cmpstr (error->message, ==, "optimizer got an empty parameter list");
  g_clear_error (&error);
  g_list_store_append (mixed, a);
  g_list_store_append (mixed, group);
  g_assert_null (g_initable_new (GNN_TYPE_ADAGRAD, NULL, &error, "params", mixed, NULL));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "expected tensors or parameter groups"));
}

static void
test_group_errors (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) a = new_param (P0, 2);
  g_autoptr(GnnTensor) b = new_param (P0, 2);
  g_autoptr(GnnParamGroup) ga = gnn_param_group_new (&a, 1);
  g_autoptr(GnnParamGroup) gb = gnn_param_group_new (&b, 1);
  g_autoptr(GnnParamGroup) again = gnn_param_group_new (&a, 1);
  g_autoptr(GnnOptimizer) sgd = GNN_OPTIMIZER (gnn_sgd_new (ga, 0.1, 0, 0, 0, FALSE, FALSE, &error));
  g_autoptr(GnnOptimizer) adam = GNN_OPTIMIZER (gnn_adam_new (NULL, 1e-3, 0.9, 0.999, 1e-8, 0, FALSE, FALSE, &error));

  g_assert_no_error (error);
  /* per-group options are checked as the constructor's arguments */
  gnn_param_group_set_double (gb, "lr", -1);
  g_assert_false (gnn_optimizer_add_param_group (sgd, gb, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_assert_cmpstr (error->message, ==, "Invalid learning rate: -1.0");
  g_clear_error (&error);
  gnn_param_group_set_double (gb, "lr", 0.1);
  gnn_param_group_set_boolean (gb, "nesterov", TRUE);
  g_assert_false (gnn_optimizer_add_param_group (sgd, gb, &error));
  g_assert_cmpstr (error->message, ==, "Nesterov momentum requires a momentum and zero dampening");
  g_clear_error (&error);
  gnn_param_group_set_boolean (gb, "nesterov", FALSE);
  gnn_param_group_set_option (gb, "momentum", g_variant_new_string ("high"));
  g_assert_false (gnn_optimizer_add_param_group (sgd, gb, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "\"momentum\""));
  g_assert_nonnull (strstr (error->message, "'s'"));
  g_clear_error (&error);
  g_assert_cmpuint (gnn_optimizer_get_n_param_groups (sgd), ==, 1);

  /* betas must be a pair */
  gnn_param_group_set_option (gb, "momentum", g_variant_new_double (0));
  gnn_param_group_set_double (gb, "betas", 0.9);
  g_assert_false (gnn_optimizer_add_param_group (adam, gb, &error));
  g_assert_nonnull (strstr (error->message, "'(dd)'"));
  g_clear_error (&error);
  gnn_param_group_set_option (gb, "betas", g_variant_new ("(dd)", 0.9, 1.5));
  g_assert_false (gnn_optimizer_add_param_group (adam, gb, &error));
  g_assert_cmpstr (error->message, ==, "Invalid beta parameter at index 1: 1.5");
  g_clear_error (&error);
  g_assert_cmpuint (gnn_optimizer_get_n_param_groups (adam), ==, 0);

  /* a parameter in two groups */
  g_assert_false (gnn_optimizer_add_param_group (sgd, again, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "more than one parameter group"));
}

/* ---- groups, zero_grad, signals ----------------------------------------------------- */

static void
test_param_groups (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) a = new_param (GNN_TEST_DATA (1, 1), 2);
  g_autoptr(GnnTensor) b = new_param (GNN_TEST_DATA (1, 1), 2);
  g_autoptr(GnnTensor) c = new_param (GNN_TEST_DATA (1, 1), 2);
  g_autoptr(GnnParamGroup) ga = gnn_param_group_new (&a, 1);
  g_autoptr(GnnParamGroup) gb = gnn_param_group_new (&b, 1);
  g_autoptr(GnnParamGroup) gc = gnn_param_group_new (&c, 1);
  g_autoptr(GnnOptimizer) opt = GNN_OPTIMIZER (gnn_sgd_new (ga, 0.1, 0.5, 0, 0, FALSE, FALSE, &error));
  g_autoptr(GVariant) lr = NULL;
  g_auto(GStrv) names = NULL;
  GnnTensor *params[3] = { a, b, c };

  g_assert_no_error (error);
  gnn_param_group_set_double (gb, "lr", 0.01);
  g_assert_true (gnn_optimizer_add_param_group (opt, gb, &error));
  g_assert_true (gnn_optimizer_add_param_group (opt, gc, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (gnn_optimizer_get_n_param_groups (opt), ==, 3);
  /* defaults fill what a group lacks, in the constructor's order after the group's own */
  g_assert_cmpfloat (gnn_param_group_get_double (gb, "lr"), ==, 0.01);
  g_assert_cmpfloat (gnn_param_group_get_double (gb, "momentum"), ==, 0.5);
  g_assert_cmpfloat (gnn_param_group_get_double (gc, "lr"), ==, 0.1);
  names = gnn_param_group_list_options (ga);
  g_assert_cmpstrv (names, ((const char *[]) { "lr", "momentum", "dampening", "weight_decay",
                                               "nesterov", "maximize", NULL }));
  lr = gnn_optimizer_get_default (opt, "lr");
  g_assert_cmpfloat (g_variant_get_double (lr), ==, 0.1);

  /* a changed option takes effect on the next step (a scheduler's way) */
  gnn_param_group_set_double (gc, "lr", 1.0);
  for (int i = 0; i < 3; i++)
    set_grad (params[i], GNN_TEST_DATA (1, -2), 2);
  g_assert_true (gnn_optimizer_step (opt, &error));
  g_assert_no_error (error);
  gnn_test_assert_close (a, GNN_TEST_DATA (0.9, 1.2), 2, 1e-15, 1e-15);
  gnn_test_assert_close (b, GNN_TEST_DATA (0.99, 1.02), 2, 1e-15, 1e-15);
  gnn_test_assert_close (c, GNN_TEST_DATA (0.0, 3.0), 2, 1e-15, 1e-15);

  /* a parameter without a gradient is skipped and gets no state */
  gnn_tensor_set_grad (b, NULL, NULL);
  g_assert_true (gnn_optimizer_step (opt, &error));
  gnn_test_assert_close (b, GNN_TEST_DATA (0.99, 1.02), 2, 0, 0);
  /* a: buf = 0.5·1 + 1 = 1.5 → 0.9 - 0.15 */
  gnn_test_assert_close (a, GNN_TEST_DATA (0.75, 1.5), 2, 1e-15, 1e-15);
}

static void
test_param_group_without_grad_state (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) a = new_param (GNN_TEST_DATA (1, 1), 2);
  g_autoptr(GnnTensor) b = new_param (GNN_TEST_DATA (1, 1), 2);
  GnnTensor *params[2] = { a, b };
  g_autoptr(GnnParamGroup) group = gnn_param_group_new (params, 2);
  g_autoptr(GnnOptimizer) opt = GNN_OPTIMIZER (gnn_adam_new (group, 1e-3, 0.9, 0.999, 1e-8, 0, FALSE, FALSE, &error));

  set_grad (a, GNN_TEST_DATA (1, 1), 2);
  g_assert_true (gnn_optimizer_step (opt, &error));
  g_assert_no_error (error);
  g_assert_true (gnn_optimizer_has_state (opt, a));
  g_assert_false (gnn_optimizer_has_state (opt, b));
  gnn_test_assert_close (b, GNN_TEST_DATA (1, 1), 2, 0, 0);
}

static void
test_zero_grad (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) p = new_param (P0, 2);
  g_autoptr(GnnParamGroup) group = gnn_param_group_new (&p, 1);
  g_autoptr(GnnOptimizer) opt = GNN_OPTIMIZER (gnn_sgd_new (group, 0.1, 0, 0, 0, FALSE, FALSE, &error));
  GnnTensor *grad;

  /* set_to_none FALSE: the same tensor, zeroed */
  set_grad (p, GRADS[0], 2);
  grad = gnn_tensor_get_grad (p);
  gnn_optimizer_zero_grad (opt, FALSE);
  g_assert_true (gnn_tensor_get_grad (p) == grad);
  gnn_test_assert_close (grad, GNN_TEST_DATA (0, 0), 2, 0, 0);
  /* set_to_none TRUE: dropped */
  gnn_optimizer_zero_grad (opt, TRUE);
  g_assert_null (gnn_tensor_get_grad (p));
  /* nothing to clear: nothing happens */
  gnn_optimizer_zero_grad (opt, FALSE);
  g_assert_null (gnn_tensor_get_grad (p));
}

static void
count_signal (GnnOptimizer *opt, int *count)
{
  (*count)++;
}

static void
test_step_signals (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) p = new_param (P0, 2);
  g_autoptr(GnnParamGroup) group = gnn_param_group_new (&p, 1);
  g_autoptr(GnnOptimizer) opt = GNN_OPTIMIZER (gnn_rmsprop_new (group, 1e-2, 0.99, 1e-8, 0, 0, FALSE, FALSE, &error));
  int pre = 0, post = 0;

  g_signal_connect (opt, "step-pre", G_CALLBACK (count_signal), &pre);
  g_signal_connect (opt, "step-post", G_CALLBACK (count_signal), &post);
  set_grad (p, GRADS[0], 2);
  g_assert_true (gnn_optimizer_step (opt, &error));
  g_assert_true (gnn_optimizer_step (opt, &error));
  g_assert_cmpint (pre, ==, 2);
  g_assert_cmpint (post, ==, 2);
}

/* ---- state dicts -------------------------------------------------------------------- */

typedef struct {
  GnnModule *model;
  GnnOptimizer *opt;
} Trainer;

static GnnTensor *
data (guint seed, gint64 rows, gint64 cols)
{
  g_autoptr(GnnGenerator) gen = gnn_generator_new (seed);
  GnnTensor *t = gnn_tensor_new_randn (GNN_TEST_SHAPE (rows, cols), 2, gen, GNN_DTYPE_FLOAT32, NULL, NULL);

  g_assert_nonnull (t);
  return t;
}

static void
train_step (Trainer *t, guint step)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) x = data (100 + step, 4, 3);
  g_autoptr(GnnTensor) y = data (200 + step, 4, 2);
  g_autoptr(GnnTensor) out = NULL;
  g_autoptr(GnnTensor) loss = NULL;

  gnn_optimizer_zero_grad (t->opt, TRUE);
  out = gnn_module_forward_tensor (t->model, x, &error);
  g_assert_no_error (error);
  loss = gnn_tensor_mse_loss (out, y, GNN_REDUCTION_MEAN, &error);
  g_assert_no_error (error);
  g_assert_true (gnn_tensor_backward (loss, NULL, FALSE, &error));
  g_assert_true (gnn_optimizer_step (t->opt, &error));
  g_assert_no_error (error);
}

/* two groups: the weight with the optimizer's options, the bias with its own lr */
static GnnOptimizer *
trainer_optimizer (const Hyper *h, GnnModule *model)
{
  g_autoptr(GError) error = NULL;
  GnnTensor *w = GNN_TENSOR (gnn_module_get_parameter (model, "weight", NULL));
  GnnTensor *b = GNN_TENSOR (gnn_module_get_parameter (model, "bias", NULL));
  g_autoptr(GnnParamGroup) gw = gnn_param_group_new (&w, 1);
  g_autoptr(GnnParamGroup) gb = gnn_param_group_new (&b, 1);
  GnnOptimizer *opt = make_optimizer (h, gw, &error);

  g_assert_no_error (error);
  gnn_param_group_set_double (gb, "lr", h->lr * 0.5);
  g_assert_true (gnn_optimizer_add_param_group (opt, gb, &error));
  g_assert_no_error (error);
  return opt;
}

static void
assert_same_bits (GnnModule *a, GnnModule *b)
{
  g_autoptr(GPtrArray) pa = gnn_module_parameters (a, TRUE);
  g_autoptr(GPtrArray) pb = gnn_module_parameters (b, TRUE);

  g_assert_cmpuint (pa->len, ==, pb->len);
  for (guint i = 0; i < pa->len; i++)
    {
      g_autoptr(GBytes) ba = gnn_tensor_get_bytes (pa->pdata[i], NULL);
      g_autoptr(GBytes) bb = gnn_tensor_get_bytes (pb->pdata[i], NULL);

      g_assert_true (g_bytes_equal (ba, bb));
    }
}

static void
check_resume (const Hyper *h)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnLinear) lin = NULL;
  Trainer whole, resumed;
  g_autoptr(GnnStateDict) saved = NULL;
  g_autoptr(GnnModule) copy = NULL;

  gnn_manual_seed (7);
  lin = gnn_linear_new (3, 2, TRUE, &error);
  g_assert_no_error (error);
  whole.model = GNN_MODULE (lin);
  whole.opt = trainer_optimizer (h, whole.model);
  for (guint s = 0; s < 5; s++)
    train_step (&whole, s);

  /* mid-training: the state and a copy of the weights go to a fresh model and optimizer */
  saved = gnn_optimizer_state_dict (whole.opt);
  copy = gnn_module_copy (whole.model, &error);
  g_assert_no_error (error);
  resumed.model = copy;
  resumed.opt = trainer_optimizer (h, resumed.model);
  g_assert_true (gnn_optimizer_load_state_dict (resumed.opt, saved, &error));
  g_assert_no_error (error);
  g_clear_object (&saved);

  for (guint s = 5; s < 12; s++)
    {
      train_step (&whole, s);
      train_step (&resumed, s);
      assert_same_bits (whole.model, resumed.model);
    }
  g_assert_cmpfloat (gnn_param_group_get_double (gnn_optimizer_get_param_group (resumed.opt, 1), "lr"), ==,
                     h->lr * 0.5);
  g_object_unref (whole.opt);
  g_assert_finalize_object (resumed.opt);
}

static void
test_state_dict_resume (void)
{
  check_resume (&SGD_H (.lr = 0.1, .momentum = 0.9, .nesterov = TRUE));
  check_resume (&ADAM_H (.lr = 0.01, .amsgrad = TRUE, .weight_decay = 0.01));
  check_resume (&ADAMW_H (.lr = 0.01));
  check_resume (&RMSPROP_H (.momentum = 0.5, .centered = TRUE));
  check_resume (&ADAGRAD_H (.lr = 0.1, .lr_decay = 0.1, .initial_accumulator_value = 0.1));
}

static void
test_state_dict_keys (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) p = new_param (P0, 2);
  g_autoptr(GnnParamGroup) group = gnn_param_group_new (&p, 1);
  g_autoptr(GnnOptimizer) opt = GNN_OPTIMIZER (gnn_adam_new (group, 1e-3, 0.9, 0.999, 1e-8, 0, TRUE, FALSE, &error));
  g_autoptr(GnnStateDict) sd = NULL;
  g_auto(GStrv) keys = NULL;
  g_auto(GValue) betas = G_VALUE_INIT;
  double b1, b2;

  set_grad (p, GRADS[0], 2);
  g_assert_true (gnn_optimizer_step (opt, &error));
  sd = gnn_optimizer_state_dict (opt);
  keys = gnn_state_dict_get_keys (sd);
  /* PyTorch's names, flattened */
  g_assert_cmpstrv (keys, ((const char *[]) {
    "state.0.step", "state.0.exp_avg", "state.0.exp_avg_sq", "state.0.max_exp_avg_sq",
    "param_groups.0.lr", "param_groups.0.betas", "param_groups.0.eps", "param_groups.0.weight_decay",
    "param_groups.0.amsgrad", "param_groups.0.maximize", "param_groups.0.params", NULL }));
  g_assert_true (gnn_state_dict_get_value (sd, "param_groups.0.betas", &betas, NULL));
  g_assert_true (g_variant_is_of_type (g_value_get_variant (&betas), G_VARIANT_TYPE ("(dd)")));
  g_variant_get (g_value_get_variant (&betas), "(dd)", &b1, &b2);
  g_assert_cmpfloat (b1, ==, 0.9);
  g_assert_cmpfloat (b2, ==, 0.999);
}

static void
test_state_dict_tensor_step (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) p = new_param (P0, 2);
  g_autoptr(GnnTensor) q = new_param (P0, 2);
  g_autoptr(GnnParamGroup) gp = gnn_param_group_new (&p, 1);
  g_autoptr(GnnParamGroup) gq = gnn_param_group_new (&q, 1);
  g_autoptr(GnnOptimizer) a = GNN_OPTIMIZER (gnn_adam_new (gp, 0.1, 0.9, 0.999, 1e-8, 0, FALSE, FALSE, &error));
  g_autoptr(GnnOptimizer) b = GNN_OPTIMIZER (gnn_adam_new (gq, 0.1, 0.9, 0.999, 1e-8, 0, FALSE, FALSE, &error));
  g_autoptr(GnnStateDict) sd = NULL;
  g_autoptr(GnnTensor) step = gnn_tensor_new_scalar (1, GNN_DTYPE_FLOAT32, NULL, NULL);

  /* a state saved by PyTorch keeps step as a tensor: it loads as the same count */
  set_grad (p, GRADS[0], 2);
  set_grad (q, GRADS[0], 2);
  g_assert_true (gnn_optimizer_step (a, &error));
  sd = gnn_optimizer_state_dict (a);
  gnn_state_dict_set_tensor (sd, "state.0.step", step);
  g_assert_true (gnn_optimizer_load_state_dict (b, sd, &error));
  g_assert_no_error (error);
  {
    g_autoptr(GnnNoGradGuard) guard = gnn_no_grad_guard_new ();
    g_assert_true (gnn_tensor_copy_ (q, p, &error));
  }
  set_grad (p, GRADS[1], 2);
  set_grad (q, GRADS[1], 2);
  g_assert_true (gnn_optimizer_step (a, &error));
  g_assert_true (gnn_optimizer_step (b, &error));
  {
    g_autoptr(GBytes) bp = gnn_tensor_get_bytes (p, NULL);
    g_autoptr(GBytes) bq = gnn_tensor_get_bytes (q, NULL);
    g_assert_true (g_bytes_equal (bp, bq));
  }
}

static void
test_state_dict_mismatch (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) a = new_param (P0, 2);
  g_autoptr(GnnTensor) b = new_param (P0, 2);
  GnnTensor *both[2] = { a, b };
  g_autoptr(GnnParamGroup) g1 = gnn_param_group_new (both, 2);
  g_autoptr(GnnParamGroup) g2 = gnn_param_group_new (&a, 1);
  g_autoptr(GnnParamGroup) g3 = gnn_param_group_new (&a, 1);
  g_autoptr(GnnParamGroup) g4 = gnn_param_group_new (&b, 1);
  g_autoptr(GnnOptimizer) two = GNN_OPTIMIZER (gnn_sgd_new (g1, 0.1, 0.9, 0, 0, FALSE, FALSE, &error));
  g_autoptr(GnnOptimizer) one = GNN_OPTIMIZER (gnn_sgd_new (g2, 0.1, 0.9, 0, 0, FALSE, FALSE, &error));
  g_autoptr(GnnOptimizer) split = GNN_OPTIMIZER (gnn_sgd_new (NULL, 0.1, 0.9, 0, 0, FALSE, FALSE, &error));
  g_autoptr(GnnStateDict) sd = NULL;
  g_autoptr(GnnStateDict) sd_one = NULL;

  set_grad (a, GRADS[0], 2);
  set_grad (b, GRADS[0], 2);
  g_assert_true (gnn_optimizer_step (two, &error));
  sd = gnn_optimizer_state_dict (two);
  /* one group of 2 parameters into one group of 1: PyTorch's ValueError */
  g_assert_false (gnn_optimizer_load_state_dict (one, sd, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_assert_true (g_str_has_prefix (error->message, "loaded state dict contains a parameter group that "
                                                   "doesn't match the size of optimizer's group"));
  g_clear_error (&error);
  g_assert_false (gnn_optimizer_has_state (one, a));
  /* one group into two */
  g_assert_true (gnn_optimizer_add_param_group (split, g3, &error));
  g_assert_true (gnn_optimizer_add_param_group (split, g4, &error));
  g_assert_false (gnn_optimizer_load_state_dict (split, sd, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_assert_true (g_str_has_prefix (error->message, "loaded state dict has a different number of parameter groups"));
  g_clear_error (&error);
  /* the optimizer is unchanged by a failed load */
  sd_one = gnn_optimizer_state_dict (one);
  g_assert_cmpuint (gnn_state_dict_get_length (sd_one), ==, 7);
}

static void
test_state_dict_bad_options (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) p = new_param (P0, 2);
  g_autoptr(GnnParamGroup) group = gnn_param_group_new (&p, 1);
  g_autoptr(GnnOptimizer) opt = GNN_OPTIMIZER (gnn_adam_new (group, 0.1, 0.9, 0.999, 1e-8, 0, FALSE, FALSE, &error));
  g_autoptr(GnnStateDict) sd = NULL;
  g_auto(GValue) v = G_VALUE_INIT;

  set_grad (p, GRADS[0], 2);
  g_assert_true (gnn_optimizer_step (opt, &error));
  sd = gnn_optimizer_state_dict (opt);
  /* an option the file lacks keeps its value; a loaded one replaces it */
  g_assert_true (gnn_state_dict_remove (sd, "param_groups.0.maximize"));
  g_value_init (&v, G_TYPE_VARIANT);
  g_value_set_variant (&v, g_variant_new_double (0.5));
  gnn_state_dict_set_value (sd, "param_groups.0.lr", &v);
  gnn_param_group_set_boolean (group, "maximize", TRUE);
  g_assert_true (gnn_optimizer_load_state_dict (opt, sd, &error));
  g_assert_no_error (error);
  g_assert_true (gnn_param_group_get_boolean (group, "maximize"));
  g_assert_cmpfloat (gnn_param_group_get_double (group, "lr"), ==, 0.5);
  /* options are checked as a new group's: the optimizer is left as it was */
  g_value_set_variant (&v, g_variant_new_double (-1));
  gnn_state_dict_set_value (sd, "param_groups.0.lr", &v);
  g_assert_false (gnn_optimizer_load_state_dict (opt, sd, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_assert_true (g_str_has_suffix (error->message, "Invalid learning rate: -1.0"));
  g_clear_error (&error);
  g_value_set_variant (&v, g_variant_new_string ("fast"));
  gnn_state_dict_set_value (sd, "param_groups.0.lr", &v);
  g_assert_false (gnn_optimizer_load_state_dict (opt, sd, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  g_assert_cmpfloat (gnn_param_group_get_double (group, "lr"), ==, 0.5);
  g_assert_true (gnn_optimizer_step (opt, &error));
  g_assert_no_error (error);
}

/* ---- the in-place ops the optimizers added ------------------------------------------ */

static void
test_inplace_ops (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) x = gnn_test_tensor_d (GNN_TEST_DATA (4, 2.25, -1), 3, GNN_TEST_SHAPE (3), 1);
  g_autoptr(GnnTensor) y = gnn_test_tensor_d (GNN_TEST_DATA (1, 5, 0), 3, GNN_TEST_SHAPE (3), 1);
  g_autoptr(GnnTensor) i = gnn_tensor_new_arange (0, 3, 1, GNN_DTYPE_INT64, NULL, NULL);
  g_autoptr(GnnTensor) leaf = new_param (P0, 2);
  guint64 version = gnn_tensor_get_version (x);
  double nan_ = NAN;

  g_assert_true (gnn_tensor_maximum_ (x, y, &error));
  g_assert_no_error (error);
  gnn_test_assert_close (x, GNN_TEST_DATA (4, 5, 0), 3, 0, 0);
  g_assert_true (gnn_tensor_div_scalar_ (x, 2, &error));
  gnn_test_assert_close (x, GNN_TEST_DATA (2, 2.5, 0), 3, 0, 0);
  g_assert_true (gnn_tensor_sqrt_ (x, &error));
  gnn_test_assert_close (x, GNN_TEST_DATA (sqrt (2), sqrt (2.5), 0), 3, 1e-15, 0);
  g_assert_cmpuint (gnn_tensor_get_version (x), ==, version + 3);
  g_assert_true (gnn_tensor_fill_ (y, -1, &error));
  g_assert_true (gnn_tensor_sqrt_ (y, &error));
  gnn_test_assert_close (y, (const double[]) { nan_, nan_, nan_ }, 3, 0, 0);

  /* integer tensors: PyTorch's dtype errors */
  g_assert_false (gnn_tensor_sqrt_ (i, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_DTYPE);
  g_clear_error (&error);
  g_assert_false (gnn_tensor_div_scalar_ (i, 2, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_DTYPE);
  g_clear_error (&error);

  /* sqrt_ records no gradient: refused on a tensor that needs one */
  g_assert_false (gnn_tensor_sqrt_ (leaf, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED);
  g_clear_error (&error);
  {
    g_autoptr(GnnNoGradGuard) guard = gnn_no_grad_guard_new ();
    g_assert_true (gnn_tensor_sqrt_ (leaf, &error));
    g_assert_no_error (error);
  }
}

static void
test_inplace_maximum_grad (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) a = new_param (GNN_TEST_DATA (1, 4, 2), 3);
  g_autoptr(GnnTensor) b = new_param (GNN_TEST_DATA (3, 0, 2), 3);
  g_autoptr(GnnTensor) c = NULL;
  g_autoptr(GnnTensor) s = NULL;

  /* on a non-leaf: the gradient goes to the larger input, split on ties */
  c = gnn_tensor_mul_scalar (a, 1.0, &error);
  g_assert_true (gnn_tensor_maximum_ (c, b, &error));
  g_assert_no_error (error);
  s = gnn_tensor_sum_all (c, &error);
  g_assert_true (gnn_tensor_backward (s, NULL, FALSE, &error));
  g_assert_no_error (error);
  gnn_test_assert_close (gnn_tensor_get_grad (a), GNN_TEST_DATA (0, 1, 0.5), 3, 0, 0);
  gnn_test_assert_close (gnn_tensor_get_grad (b), GNN_TEST_DATA (1, 0, 0.5), 3, 0, 0);
}

int
main (int argc, char **argv)
{
  gnn_test_init (&argc, &argv);

  g_test_add_func ("/optim/sgd/by-hand", test_sgd);
  g_test_add_func ("/optim/sgd/first-values", test_sgd_first_values);
  g_test_add_func ("/optim/adam/by-hand", test_adam);
  g_test_add_func ("/optim/adam/first-step", test_adam_first_step);
  g_test_add_func ("/optim/adamw/by-hand", test_adamw);
  g_test_add_func ("/optim/rmsprop/by-hand", test_rmsprop);
  g_test_add_func ("/optim/adagrad/by-hand", test_adagrad);
  g_test_add_func ("/optim/adagrad/initial-state", test_adagrad_initial_state);
  g_test_add_func ("/optim/errors/constructors", test_errors);
  g_test_add_func ("/optim/errors/groups", test_group_errors);
  g_test_add_func ("/optim/properties", test_properties);
  g_test_add_func ("/optim/param-groups/options", test_param_groups);
  g_test_add_func ("/optim/param-groups/no-grad", test_param_group_without_grad_state);
  g_test_add_func ("/optim/zero-grad", test_zero_grad);
  g_test_add_func ("/optim/step-signals", test_step_signals);
  g_test_add_func ("/optim/state-dict/resume", test_state_dict_resume);
  g_test_add_func ("/optim/state-dict/keys", test_state_dict_keys);
  g_test_add_func ("/optim/state-dict/tensor-step", test_state_dict_tensor_step);
  g_test_add_func ("/optim/state-dict/mismatch", test_state_dict_mismatch);
  g_test_add_func ("/optim/state-dict/bad-options", test_state_dict_bad_options);
  g_test_add_func ("/optim/ops/inplace", test_inplace_ops);
  g_test_add_func ("/optim/ops/maximum-grad", test_inplace_maximum_grad);

  return g_test_run ();
}
