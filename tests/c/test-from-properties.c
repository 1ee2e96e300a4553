/* test-from-properties.c: every optimizer (but SparseAdam, whose step refuses dense
 * gradients, and LBFGS, which steps through a closure) and every learning-rate scheduler
 * built from its properties alone (g_object_new, then g_initable_init for a scheduler, as
 * bindings and loaders build objects) trains exactly as the one its _new constructor
 * builds: the same model, inputs and targets, 10 steps, and the same optimizer state dict,
 * scheduler state and weights, to the bit. */
#include <gio/gio.h>

#include "gnn-test-util.h"
#include "nn/gnn-props-private.h"

#define N_STEPS 10

/* ---- the two ways of building each object ------------------------------------------------ */

/* an optimizer with options other than the defaults: its constructor over @group, or
 * g_object_new over @params, a list model of the same parameters (tensors) */
typedef struct {
  const char *name;
  GnnOptimizer *(*made) (GnnParamGroup *group, GError **error);
  GnnOptimizer *(*built) (GListModel *params);
} OptimizerCase;

static GnnOptimizer *
sgd_made (GnnParamGroup *group, GError **error)
{
  return GNN_OPTIMIZER (gnn_sgd_new (group, 0.05, 0.9, 0.0, 0.01, TRUE, FALSE, error));
}

static GnnOptimizer *
sgd_built (GListModel *params)
{
  return g_object_new (GNN_TYPE_SGD, "params", params, "lr", 0.05, "momentum", 0.9, "weight-decay", 0.01,
                       "nesterov", TRUE, NULL);
}

static GnnOptimizer *
sgd_damped_made (GnnParamGroup *group, GError **error)
{
  return GNN_OPTIMIZER (gnn_sgd_new (group, 0.02, 0.5, 0.25, 0.0, FALSE, TRUE, error));
}

static GnnOptimizer *
sgd_damped_built (GListModel *params)
{
  return g_object_new (GNN_TYPE_SGD, "params", params, "lr", 0.02, "momentum", 0.5, "dampening", 0.25,
                       "maximize", TRUE, NULL);
}

static GnnOptimizer *
adam_made (GnnParamGroup *group, GError **error)
{
  return GNN_OPTIMIZER (gnn_adam_new (group, 0.01, 0.8, 0.99, 1e-6, 0.05, TRUE, FALSE, error));
}

static GnnOptimizer *
adam_built (GListModel *params)
{
  return g_object_new (GNN_TYPE_ADAM, "params", params, "lr", 0.01, "betas", g_variant_new ("(dd)", 0.8, 0.99),
                       "eps", 1e-6, "weight-decay", 0.05, "amsgrad", TRUE, NULL);
}

static GnnOptimizer *
adamw_made (GnnParamGroup *group, GError **error)
{
  return GNN_OPTIMIZER (gnn_adamw_new (group, 0.02, 0.85, 0.995, 1e-7, 0.1, FALSE, TRUE, error));
}

static GnnOptimizer *
adamw_built (GListModel *params)
{
  return g_object_new (GNN_TYPE_ADAMW, "params", params, "lr", 0.02, "betas", g_variant_new ("(dd)", 0.85, 0.995),
                       "eps", 1e-7, "weight-decay", 0.1, "maximize", TRUE, NULL);
}

static GnnOptimizer *
rmsprop_made (GnnParamGroup *group, GError **error)
{
  return GNN_OPTIMIZER (gnn_rmsprop_new (group, 0.005, 0.9, 1e-6, 0.1, 0.5, TRUE, FALSE, error));
}

static GnnOptimizer *
rmsprop_built (GListModel *params)
{
  return g_object_new (GNN_TYPE_RMSPROP, "params", params, "lr", 0.005, "alpha", 0.9, "eps", 1e-6,
                       "weight-decay", 0.1, "momentum", 0.5, "centered", TRUE, NULL);
}

static GnnOptimizer *
adagrad_made (GnnParamGroup *group, GError **error)
{
  return GNN_OPTIMIZER (gnn_adagrad_new (group, 0.1, 0.01, 0.1, 0.1, 1e-8, FALSE, error));
}

static GnnOptimizer *
adagrad_built (GListModel *params)
{
  return g_object_new (GNN_TYPE_ADAGRAD, "params", params, "lr", 0.1, "lr-decay", 0.01, "weight-decay", 0.1,
                       "initial-accumulator-value", 0.1, "eps", 1e-8, NULL);
}

static GnnOptimizer *
adadelta_made (GnnParamGroup *group, GError **error)
{
  return GNN_OPTIMIZER (gnn_adadelta_new (group, 0.5, 0.8, 1e-5, 0.05, TRUE, error));
}

static GnnOptimizer *
adadelta_built (GListModel *params)
{
  return g_object_new (GNN_TYPE_ADADELTA, "params", params, "lr", 0.5, "rho", 0.8, "eps", 1e-5,
                       "weight-decay", 0.05, "maximize", TRUE, NULL);
}

static GnnOptimizer *
adamax_made (GnnParamGroup *group, GError **error)
{
  return GNN_OPTIMIZER (gnn_adamax_new (group, 0.01, 0.8, 0.99, 1e-6, 0.05, FALSE, error));
}

static GnnOptimizer *
adamax_built (GListModel *params)
{
  return g_object_new (GNN_TYPE_ADAMAX, "params", params, "lr", 0.01, "betas", g_variant_new ("(dd)", 0.8, 0.99),
                       "eps", 1e-6, "weight-decay", 0.05, NULL);
}

static GnnOptimizer *
nadam_made (GnnParamGroup *group, GError **error)
{
  return GNN_OPTIMIZER (gnn_nadam_new (group, 0.01, 0.85, 0.95, 1e-6, 0.05, 0.01, error));
}

static GnnOptimizer *
nadam_built (GListModel *params)
{
  return g_object_new (GNN_TYPE_NADAM, "params", params, "lr", 0.01, "betas", g_variant_new ("(dd)", 0.85, 0.95),
                       "eps", 1e-6, "weight-decay", 0.05, "momentum-decay", 0.01, NULL);
}

static GnnOptimizer *
radam_made (GnnParamGroup *group, GError **error)
{
  return GNN_OPTIMIZER (gnn_radam_new (group, 0.01, 0.8, 0.9, 1e-6, 0.05, error));
}

static GnnOptimizer *
radam_built (GListModel *params)
{
  return g_object_new (GNN_TYPE_RADAM, "params", params, "lr", 0.01, "betas", g_variant_new ("(dd)", 0.8, 0.9),
                       "eps", 1e-6, "weight-decay", 0.05, NULL);
}

static GnnOptimizer *
rprop_made (GnnParamGroup *group, GError **error)
{
  return GNN_OPTIMIZER (gnn_rprop_new (group, 0.05, 0.3, 1.5, 1e-3, 0.2, FALSE, error));
}

static GnnOptimizer *
rprop_built (GListModel *params)
{
  return g_object_new (GNN_TYPE_RPROP, "params", params, "lr", 0.05, "etas", g_variant_new ("(dd)", 0.3, 1.5),
                       "step-sizes", g_variant_new ("(dd)", 1e-3, 0.2), NULL);
}

static GnnOptimizer *
asgd_made (GnnParamGroup *group, GError **error)
{
  return GNN_OPTIMIZER (gnn_asgd_new (group, 0.05, 1e-3, 0.6, 3, 0.05, FALSE, error));
}

static GnnOptimizer *
asgd_built (GListModel *params)
{
  return g_object_new (GNN_TYPE_ASGD, "params", params, "lr", 0.05, "lambd", 1e-3, "alpha", 0.6, "t0", 3.0,
                       "weight-decay", 0.05, NULL);
}

static const OptimizerCase optimizers[] = {
  { "SGD", sgd_made, sgd_built },
  { "SGD-damped", sgd_damped_made, sgd_damped_built },
  { "Adam", adam_made, adam_built },
  { "AdamW", adamw_made, adamw_built },
  { "RMSprop", rmsprop_made, rmsprop_built },
  { "Adagrad", adagrad_made, adagrad_built },
  { "Adadelta", adadelta_made, adadelta_built },
  { "Adamax", adamax_made, adamax_built },
  { "NAdam", nadam_made, nadam_built },
  { "RAdam", radam_made, radam_built },
  { "Rprop", rprop_made, rprop_built },
  { "ASGD", asgd_made, asgd_built },
};

/* a scheduler of @optimizer (SGD with momentum, or Adam for "adam" cases): its
 * constructor, or g_object_new, to be initialised by the test */
typedef struct {
  const char *name;
  gboolean adam;
  GnnLRScheduler *(*made) (GnnOptimizer *optimizer, GError **error);
  GnnLRScheduler *(*built) (GnnOptimizer *optimizer);
} SchedulerCase;

static GnnLRScheduler *
step_made (GnnOptimizer *optimizer, GError **error)
{
  return GNN_LR_SCHEDULER (gnn_step_lr_new (optimizer, 3, 0.5, -1, error));
}

static GnnLRScheduler *
step_built (GnnOptimizer *optimizer)
{
  return g_object_new (GNN_TYPE_STEP_LR, "optimizer", optimizer, "step-size", 3, "gamma", 0.5, NULL);
}

static GnnLRScheduler *
multi_step_made (GnnOptimizer *optimizer, GError **error)
{
  const int milestones[] = { 8, 2, 5, 5 };

  return GNN_LR_SCHEDULER (gnn_multi_step_lr_new (optimizer, milestones, G_N_ELEMENTS (milestones), 0.7, -1,
                                                  error));
}

static GnnLRScheduler *
multi_step_built (GnnOptimizer *optimizer)
{
  const gint64 milestones[] = { 8, 2, 5, 5 };

  return g_object_new (GNN_TYPE_MULTI_STEP_LR, "optimizer", optimizer, "gamma", 0.7, "milestones",
                       g_variant_new_fixed_array (G_VARIANT_TYPE_INT64, milestones, G_N_ELEMENTS (milestones),
                                                  sizeof (gint64)),
                       NULL);
}

static GnnLRScheduler *
exponential_made (GnnOptimizer *optimizer, GError **error)
{
  return GNN_LR_SCHEDULER (gnn_exponential_lr_new (optimizer, 0.9, -1, error));
}

static GnnLRScheduler *
exponential_built (GnnOptimizer *optimizer)
{
  return g_object_new (GNN_TYPE_EXPONENTIAL_LR, "optimizer", optimizer, "gamma", 0.9, NULL);
}

static GnnLRScheduler *
cosine_made (GnnOptimizer *optimizer, GError **error)
{
  return GNN_LR_SCHEDULER (gnn_cosine_annealing_lr_new (optimizer, 4, 0.001, -1, error));
}

static GnnLRScheduler *
cosine_built (GnnOptimizer *optimizer)
{
  return g_object_new (GNN_TYPE_COSINE_ANNEALING_LR, "optimizer", optimizer, "t-max", 4, "eta-min", 0.001, NULL);
}

static GnnLRScheduler *
linear_made (GnnOptimizer *optimizer, GError **error)
{
  return GNN_LR_SCHEDULER (gnn_linear_lr_new (optimizer, 0.25, 0.9, 6, -1, error));
}

static GnnLRScheduler *
linear_built (GnnOptimizer *optimizer)
{
  return g_object_new (GNN_TYPE_LINEAR_LR, "optimizer", optimizer, "start-factor", 0.25, "end-factor", 0.9,
                       "total-iters", 6, NULL);
}

static GnnLRScheduler *
one_cycle_made (GnnOptimizer *optimizer, GError **error)
{
  const double max_lr = 0.2, base_momentum = 0.8, max_momentum = 0.9;

  return GNN_LR_SCHEDULER (gnn_one_cycle_lr_new (optimizer, &max_lr, 1, -1, 2, 6, 0.4, "linear", TRUE,
                                                 &base_momentum, 1, &max_momentum, 1, 10, 100, TRUE, -1,
                                                 error));
}

static GnnLRScheduler *
one_cycle_built (GnnOptimizer *optimizer)
{
  const double max_lr = 0.2, base_momentum = 0.8, max_momentum = 0.9;

  return g_object_new (GNN_TYPE_ONE_CYCLE_LR, "optimizer", optimizer,
                       "max-lr", g_variant_new_fixed_array (G_VARIANT_TYPE_DOUBLE, &max_lr, 1, sizeof (double)),
                       "epochs", 2, "steps-per-epoch", 6, "pct-start", 0.4, "anneal-strategy", "linear",
                       "base-momentum", g_variant_new_fixed_array (G_VARIANT_TYPE_DOUBLE, &base_momentum, 1,
                                                                   sizeof (double)),
                       "max-momentum", g_variant_new_fixed_array (G_VARIANT_TYPE_DOUBLE, &max_momentum, 1,
                                                                  sizeof (double)),
                       "div-factor", 10.0, "final-div-factor", 100.0, "three-phase", TRUE, NULL);
}

/* the same with the defaults of cycle_momentum, base and max momentum, cycling Adam's betas */
static GnnLRScheduler *
one_cycle_adam_made (GnnOptimizer *optimizer, GError **error)
{
  const double max_lr = 0.05;

  return GNN_LR_SCHEDULER (gnn_one_cycle_lr_new (optimizer, &max_lr, 1, 12, -1, -1, 0.3, NULL, TRUE, NULL, 0,
                                                 NULL, 0, 25, 1e4, FALSE, -1, error));
}

static GnnLRScheduler *
one_cycle_adam_built (GnnOptimizer *optimizer)
{
  const double max_lr = 0.05;

  return g_object_new (GNN_TYPE_ONE_CYCLE_LR, "optimizer", optimizer, "total-steps", 12,
                       "max-lr", g_variant_new_fixed_array (G_VARIANT_TYPE_DOUBLE, &max_lr, 1, sizeof (double)),
                       NULL);
}

static double
halving (int      epoch,
         gpointer user_data)
{
  return pow (*(double *) user_data, epoch);
}

/* the closure of the lr-lambda property: (epoch, group, user_data) */
static double
halving_closure (int      epoch,
                 guint    group,
                 gpointer user_data)
{
  return halving (epoch, user_data);
}

static double lambda_base = 0.8;

static GnnLRScheduler *
lambda_made (GnnOptimizer *optimizer, GError **error)
{
  return GNN_LR_SCHEDULER (gnn_lambda_lr_new (optimizer, halving, &lambda_base, NULL, -1, error));
}

static GnnLRScheduler *
lambda_built (GnnOptimizer *optimizer)
{
  return g_object_new (GNN_TYPE_LAMBDA_LR, "optimizer", optimizer,
                       "lr-lambda", g_cclosure_new (G_CALLBACK (halving_closure), &lambda_base, NULL), NULL);
}

static GnnLRScheduler *
sequential_made (GnnOptimizer *optimizer, GError **error)
{
  g_autoptr(GnnLinearLR) warm = gnn_linear_lr_new (optimizer, 0.5, 1.0, 2, -1, error);
  g_autoptr(GnnExponentialLR) decay = gnn_exponential_lr_new (optimizer, 0.9, -1, error);
  GnnLRScheduler *schedulers[] = { GNN_LR_SCHEDULER (warm), GNN_LR_SCHEDULER (decay) };
  const int milestones[] = { 3 };

  return GNN_LR_SCHEDULER (gnn_sequential_lr_new (optimizer, schedulers, 2, milestones, 1, -1, error));
}

static GnnLRScheduler *
sequential_built (GnnOptimizer *optimizer)
{
  g_autoptr(GListStore) schedulers = g_list_store_new (GNN_TYPE_LR_SCHEDULER);
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnLRScheduler) warm = g_initable_new (GNN_TYPE_LINEAR_LR, NULL, &error, "optimizer", optimizer,
                                                   "start-factor", 0.5, "end-factor", 1.0, "total-iters", 2,
                                                   NULL);
  g_autoptr(GnnLRScheduler) decay = g_initable_new (GNN_TYPE_EXPONENTIAL_LR, NULL, &error,
                                                    "optimizer", optimizer, "gamma", 0.9, NULL);
  const gint64 milestones[] = { 3 };

  g_assert_no_error (error);
  g_list_store_append (schedulers, warm);
  g_list_store_append (schedulers, decay);
  return g_object_new (GNN_TYPE_SEQUENTIAL_LR, "optimizer", optimizer, "schedulers", schedulers,
                       "milestones", g_variant_new_fixed_array (G_VARIANT_TYPE_INT64, milestones, 1,
                                                                sizeof (gint64)),
                       NULL);
}

static GnnLRScheduler *
swalr_made (GnnOptimizer *optimizer, GError **error)
{
  const double swa_lr = 0.05;

  return GNN_LR_SCHEDULER (gnn_swalr_new (optimizer, &swa_lr, 1, 3, "linear", -1, error));
}

static GnnLRScheduler *
swalr_built (GnnOptimizer *optimizer)
{
  const double swa_lr = 0.05;

  return g_object_new (GNN_TYPE_SWALR, "optimizer", optimizer,
                       "swa-lr", g_variant_new_fixed_array (G_VARIANT_TYPE_DOUBLE, &swa_lr, 1, sizeof (double)),
                       "anneal-epochs", 3, "anneal-strategy", "linear", NULL);
}

static double mult_base = 0.9;

static GnnLRScheduler *
multiplicative_made (GnnOptimizer *optimizer, GError **error)
{
  return GNN_LR_SCHEDULER (gnn_multiplicative_lr_new (optimizer, halving, &mult_base, NULL, -1, error));
}

static GnnLRScheduler *
multiplicative_built (GnnOptimizer *optimizer)
{
  return g_object_new (GNN_TYPE_MULTIPLICATIVE_LR, "optimizer", optimizer,
                       "lr-lambda", g_cclosure_new (G_CALLBACK (halving_closure), &mult_base, NULL), NULL);
}

static GnnLRScheduler *
constant_made (GnnOptimizer *optimizer, GError **error)
{
  return GNN_LR_SCHEDULER (gnn_constant_lr_new (optimizer, 0.25, 4, -1, error));
}

static GnnLRScheduler *
constant_built (GnnOptimizer *optimizer)
{
  return g_object_new (GNN_TYPE_CONSTANT_LR, "optimizer", optimizer, "factor", 0.25, "total-iters", 4, NULL);
}

static GnnLRScheduler *
polynomial_made (GnnOptimizer *optimizer, GError **error)
{
  return GNN_LR_SCHEDULER (gnn_polynomial_lr_new (optimizer, 12, 0.5, -1, error));
}

static GnnLRScheduler *
polynomial_built (GnnOptimizer *optimizer)
{
  return g_object_new (GNN_TYPE_POLYNOMIAL_LR, "optimizer", optimizer, "total-iters", 12, "power", 0.5, NULL);
}

static GnnLRScheduler *
sgdr_made (GnnOptimizer *optimizer, GError **error)
{
  return GNN_LR_SCHEDULER (gnn_cosine_annealing_warm_restarts_new (optimizer, 2, 3, 0.01, -1, error));
}

static GnnLRScheduler *
sgdr_built (GnnOptimizer *optimizer)
{
  return g_object_new (GNN_TYPE_COSINE_ANNEALING_WARM_RESTARTS, "optimizer", optimizer, "t-0", 2, "t-mult", 3,
                       "eta-min", 0.01, NULL);
}

static GnnLRScheduler *
cyclic_made (GnnOptimizer *optimizer, GError **error)
{
  const double base_lr = 0.01, max_lr = 0.2, base_m = 0.7, max_m = 0.95;

  return GNN_LR_SCHEDULER (gnn_cyclic_lr_new (optimizer, &base_lr, 1, &max_lr, 1, 3, 2, "triangular2", 1.0,
                                              NULL, NULL, TRUE, &base_m, 1, &max_m, 1, -1, error));
}

static GnnLRScheduler *
cyclic_built (GnnOptimizer *optimizer)
{
  const double base_lr = 0.01, max_lr = 0.2, base_m = 0.7, max_m = 0.95;

  return g_object_new (GNN_TYPE_CYCLIC_LR, "optimizer", optimizer,
                       "base-lr", g_variant_new_fixed_array (G_VARIANT_TYPE_DOUBLE, &base_lr, 1, sizeof (double)),
                       "max-lr", g_variant_new_fixed_array (G_VARIANT_TYPE_DOUBLE, &max_lr, 1, sizeof (double)),
                       "step-size-up", 3.0, "step-size-down", 2.0, "mode", "triangular2",
                       "base-momentum", g_variant_new_fixed_array (G_VARIANT_TYPE_DOUBLE, &base_m, 1, sizeof (double)),
                       "max-momentum", g_variant_new_fixed_array (G_VARIANT_TYPE_DOUBLE, &max_m, 1, sizeof (double)),
                       NULL);
}

static GnnLRScheduler *
cyclic_adam_made (GnnOptimizer *optimizer, GError **error)
{
  const double base_lr = 0.001, max_lr = 0.01;

  return GNN_LR_SCHEDULER (gnn_cyclic_lr_new (optimizer, &base_lr, 1, &max_lr, 1, 4, -1, "exp_range", 0.9,
                                              NULL, NULL, TRUE, NULL, 0, NULL, 0, -1, error));
}

static GnnLRScheduler *
cyclic_adam_built (GnnOptimizer *optimizer)
{
  const double base_lr = 0.001, max_lr = 0.01;

  return g_object_new (GNN_TYPE_CYCLIC_LR, "optimizer", optimizer,
                       "base-lr", g_variant_new_fixed_array (G_VARIANT_TYPE_DOUBLE, &base_lr, 1, sizeof (double)),
                       "max-lr", g_variant_new_fixed_array (G_VARIANT_TYPE_DOUBLE, &max_lr, 1, sizeof (double)),
                       "step-size-up", 4.0, "mode", "exp_range", "gamma", 0.9, NULL);
}

static GnnLRScheduler *
chained_made (GnnOptimizer *optimizer, GError **error)
{
  g_autoptr(GnnConstantLR) warm = gnn_constant_lr_new (optimizer, 0.5, 3, -1, error);
  g_autoptr(GnnExponentialLR) decay = gnn_exponential_lr_new (optimizer, 0.9, -1, error);
  GnnLRScheduler *schedulers[] = { GNN_LR_SCHEDULER (warm), GNN_LR_SCHEDULER (decay) };

  return GNN_LR_SCHEDULER (gnn_chained_scheduler_new (schedulers, 2, error));
}

static GnnLRScheduler *
chained_built (GnnOptimizer *optimizer)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GListStore) schedulers = g_list_store_new (GNN_TYPE_LR_SCHEDULER);
  g_autoptr(GnnLRScheduler) warm = g_initable_new (GNN_TYPE_CONSTANT_LR, NULL, &error, "optimizer", optimizer,
                                                   "factor", 0.5, "total-iters", 3, NULL);
  g_autoptr(GnnLRScheduler) decay = g_initable_new (GNN_TYPE_EXPONENTIAL_LR, NULL, &error,
                                                    "optimizer", optimizer, "gamma", 0.9, NULL);

  g_assert_no_error (error);
  g_list_store_append (schedulers, warm);
  g_list_store_append (schedulers, decay);
  /* no optimizer: the schedulers' */
  return g_object_new (GNN_TYPE_CHAINED_SCHEDULER, "schedulers", schedulers, NULL);
}

static GnnLRScheduler *
plateau_made (GnnOptimizer *optimizer, GError **error)
{
  const double min_lr = 0.02;

  return GNN_LR_SCHEDULER (gnn_reduce_lr_on_plateau_new (optimizer, "min", 0.5, 1, 0.2, "rel", 1, &min_lr, 1,
                                                         1e-8, error));
}

static GnnLRScheduler *
plateau_built (GnnOptimizer *optimizer)
{
  const double min_lr = 0.02;

  return g_object_new (GNN_TYPE_REDUCE_LR_ON_PLATEAU, "optimizer", optimizer, "factor", 0.5, "patience", 1,
                       "threshold", 0.2, "cooldown", 1,
                       "min-lr", g_variant_new_fixed_array (G_VARIANT_TYPE_DOUBLE, &min_lr, 1, sizeof (double)),
                       NULL);
}

static const SchedulerCase schedulers[] = {
  { "StepLR", FALSE, step_made, step_built },
  { "MultiStepLR", FALSE, multi_step_made, multi_step_built },
  { "ExponentialLR", FALSE, exponential_made, exponential_built },
  { "CosineAnnealingLR", FALSE, cosine_made, cosine_built },
  { "LinearLR", FALSE, linear_made, linear_built },
  { "OneCycleLR", FALSE, one_cycle_made, one_cycle_built },
  { "OneCycleLR-Adam", TRUE, one_cycle_adam_made, one_cycle_adam_built },
  { "LambdaLR", FALSE, lambda_made, lambda_built },
  { "SequentialLR", FALSE, sequential_made, sequential_built },
  { "SWALR", FALSE, swalr_made, swalr_built },
  { "MultiplicativeLR", FALSE, multiplicative_made, multiplicative_built },
  { "ConstantLR", FALSE, constant_made, constant_built },
  { "PolynomialLR", FALSE, polynomial_made, polynomial_built },
  { "CosineAnnealingWarmRestarts", FALSE, sgdr_made, sgdr_built },
  { "CyclicLR", FALSE, cyclic_made, cyclic_built },
  { "CyclicLR-Adam", TRUE, cyclic_adam_made, cyclic_adam_built },
  { "ChainedScheduler", FALSE, chained_made, chained_built },
  { "ReduceLROnPlateau", FALSE, plateau_made, plateau_built },
};

/* ---- training ------------------------------------------------------------------------------ */

/* a model, its optimizer and maybe a scheduler */
typedef struct {
  GnnModule *model;
  GnnOptimizer *optimizer;
  GnnLRScheduler *scheduler;
} Run;

static GnnModule *
new_model (void)
{
  g_autoptr(GError) error = NULL;
  GnnModule *model;

  gnn_manual_seed (3);
  model = GNN_MODULE (gnn_linear_new (3, 2, TRUE, &error));
  g_assert_no_error (error);
  return model;
}

/* the model's parameters as a group, for a constructor, or as a list of tensors */
static GnnParamGroup *
group_of (GnnModule *model)
{
  return gnn_param_group_new_from_module (model);
}

static GListModel *
list_of (GnnModule *model)
{
  g_autoptr(GPtrArray) params = gnn_module_parameters (model, TRUE);
  GListStore *list = g_list_store_new (GNN_TYPE_TENSOR);

  for (guint i = 0; i < params->len; i++)
    g_list_store_append (list, params->pdata[i]);
  return G_LIST_MODEL (list);
}

static void
run_clear (Run *run)
{
  g_clear_object (&run->scheduler);
  g_clear_object (&run->optimizer);
  g_clear_object (&run->model);
}

/* zero_grad, the MSE loss of a fixed batch, backward, step; the scheduler's step after */
static void
train (Run *run)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) x = gnn_test_tensor_d (GNN_TEST_DATA (0.5, -1.0, 2.0, 1.5, 0.25, -0.75), 6,
                                              GNN_TEST_SHAPE (2, 3), 2);
  g_autoptr(GnnTensor) y = gnn_test_tensor_d (GNN_TEST_DATA (1.0, -2.0, 0.5, 3.0), 4, GNN_TEST_SHAPE (2, 2), 2);
  g_autoptr(GnnTensor) xf = gnn_tensor_to_dtype (x, GNN_DTYPE_FLOAT32, &error);
  g_autoptr(GnnTensor) yf = gnn_tensor_to_dtype (y, GNN_DTYPE_FLOAT32, &error);

  for (int step = 0; step < N_STEPS; step++)
    {
      g_autoptr(GnnTensor) prediction = NULL, loss = NULL;

      gnn_optimizer_zero_grad (run->optimizer, TRUE);
      prediction = gnn_module_forward_tensor (run->model, xf, &error);
      g_assert_no_error (error);
      loss = gnn_tensor_mse_loss (prediction, yf, GNN_REDUCTION_MEAN, &error);
      g_assert_no_error (error);
      g_assert_true (gnn_tensor_backward (loss, NULL, FALSE, &error));
      g_assert_true (gnn_optimizer_step (run->optimizer, &error));
      g_assert_no_error (error);
      if (run->scheduler && GNN_IS_REDUCE_LR_ON_PLATEAU (run->scheduler))
        {
          /* the loss as the metric */
          double metric = gnn_tensor_item (loss, &error);

          g_assert_no_error (error);
          g_assert_true (gnn_reduce_lr_on_plateau_step_with_metric (GNN_REDUCE_LR_ON_PLATEAU (run->scheduler),
                                                                    metric, &error));
          g_assert_no_error (error);
        }
      else if (run->scheduler)
        {
          g_assert_true (gnn_lr_scheduler_step (run->scheduler, &error));
          g_assert_no_error (error);
        }
    }
}

/* ---- comparing ------------------------------------------------------------------------------ */

static void
assert_same_tensor (GnnTensor  *a,
                    GnnTensor  *b,
                    const char *what)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) da = gnn_tensor_get_bytes (a, &error);
  g_autoptr(GBytes) db = gnn_tensor_get_bytes (b, &error);

  g_assert_no_error (error);
  if (gnn_tensor_get_dtype (a) != gnn_tensor_get_dtype (b) || !g_bytes_equal (da, db))
    g_error ("%s differs", what);
}

static void
assert_same_state_dict (GnnStateDict *a,
                        GnnStateDict *b,
                        const char   *what)
{
  g_auto(GStrv) keys = gnn_state_dict_get_keys (a);
  g_auto(GStrv) other = gnn_state_dict_get_keys (b);

  g_assert_cmpstrv (keys, other);
  for (guint k = 0; keys[k]; k++)
    {
      g_auto(GValue) va = G_VALUE_INIT;
      g_auto(GValue) vb = G_VALUE_INIT;
      g_autofree char *where = g_strdup_printf ("%s: %s", what, keys[k]);

      g_assert_true (gnn_state_dict_get_value (a, keys[k], &va, NULL));
      g_assert_true (gnn_state_dict_get_value (b, keys[k], &vb, NULL));
      g_assert_cmpstr (G_VALUE_TYPE_NAME (&va), ==, G_VALUE_TYPE_NAME (&vb));
      if (G_VALUE_HOLDS (&va, GNN_TYPE_TENSOR))
        assert_same_tensor (g_value_get_object (&va), g_value_get_object (&vb), where);
      else if (G_VALUE_HOLDS_VARIANT (&va))
        {
          if (!g_variant_equal (g_value_get_variant (&va), g_value_get_variant (&vb)))
            g_error ("%s differs", where);
        }
      else
        g_assert_cmpfloat (g_value_get_double (&va), ==, g_value_get_double (&vb));
    }
}

/* the optimizers' state dicts, the weights and the schedulers' states */
static void
assert_same_runs (Run        *made,
                  Run        *built,
                  const char *what)
{
  g_autoptr(GnnStateDict) sa = gnn_optimizer_state_dict (made->optimizer);
  g_autoptr(GnnStateDict) sb = gnn_optimizer_state_dict (built->optimizer);
  g_autoptr(GnnStateDict) ma = gnn_module_state_dict (made->model, NULL, FALSE, NULL);
  g_autoptr(GnnStateDict) mb = gnn_module_state_dict (built->model, NULL, FALSE, NULL);

  g_assert_cmpuint (gnn_state_dict_get_length (sa), >, 0);
  assert_same_state_dict (sa, sb, what);
  assert_same_state_dict (ma, mb, what);
  if (made->scheduler)
    {
      g_autoptr(GVariant) a = gnn_lr_scheduler_state_dict (made->scheduler);
      g_autoptr(GVariant) b = gnn_lr_scheduler_state_dict (built->scheduler);

      if (!g_variant_equal (a, b))
        {
          g_autofree char *ta = g_variant_print (a, FALSE), *tb = g_variant_print (b, FALSE);

          g_error ("%s: the scheduler states differ:\n%s\n%s", what, ta, tb);
        }
    }
}

/* ---- the tests --------------------------------------------------------------------------- */

static void
test_optimizers (void)
{
  for (guint c = 0; c < G_N_ELEMENTS (optimizers); c++)
    {
      g_autoptr(GError) error = NULL;
      Run made = { new_model () }, built = { new_model () };
      g_autoptr(GnnParamGroup) group = group_of (made.model);
      g_autoptr(GListModel) params = list_of (built.model);

      made.optimizer = optimizers[c].made (group, &error);
      g_assert_no_error (error);
      /* g_object_new alone gives a working optimizer; init has nothing to report */
      built.optimizer = optimizers[c].built (params);
      g_assert_true (g_initable_init (G_INITABLE (built.optimizer), NULL, &error));
      g_assert_no_error (error);
      assert_same_runs (&made, &built, optimizers[c].name);
      train (&made);
      train (&built);
      assert_same_runs (&made, &built, optimizers[c].name);
      run_clear (&made);
      run_clear (&built);
    }
}

static GnnOptimizer *
scheduled_optimizer (GnnModule *model,
                     gboolean   adam)
{
  g_autoptr(GListModel) params = list_of (model);

  if (adam)
    return g_object_new (GNN_TYPE_ADAM, "params", params, "lr", 0.01, NULL);
  return g_object_new (GNN_TYPE_SGD, "params", params, "lr", 0.1, "momentum", 0.9, NULL);
}

static void
test_schedulers (void)
{
  for (guint c = 0; c < G_N_ELEMENTS (schedulers); c++)
    {
      g_autoptr(GError) error = NULL;
      Run made = { new_model () }, built = { new_model () };

      made.optimizer = scheduled_optimizer (made.model, schedulers[c].adam);
      built.optimizer = scheduled_optimizer (built.model, schedulers[c].adam);
      made.scheduler = schedulers[c].made (made.optimizer, &error);
      g_assert_no_error (error);
      /* from properties: init checks them and performs the initial step */
      built.scheduler = schedulers[c].built (built.optimizer);
      g_assert_cmpint (gnn_lr_scheduler_get_step_count (built.scheduler), ==, 0);
      g_assert_true (g_initable_init (G_INITABLE (built.scheduler), NULL, &error));
      g_assert_no_error (error);
      assert_same_runs (&made, &built, schedulers[c].name);
      train (&made);
      train (&built);
      assert_same_runs (&made, &built, schedulers[c].name);
      g_assert_cmpint (gnn_lr_scheduler_get_last_epoch (built.scheduler), ==, N_STEPS);
      run_clear (&made);
      run_clear (&built);
    }
}

/* the properties read back what was given; bad values are init's errors, with the
 * constructors' messages */
static void
test_properties (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnModule) model = new_model ();
  g_autoptr(GnnOptimizer) optimizer = scheduled_optimizer (model, FALSE);
  g_autoptr(GnnLRScheduler) sched = one_cycle_built (optimizer);
  g_autoptr(GVariant) max_lr = NULL;
  g_autofree char *strategy = NULL;
  int total_steps = 0, epochs = 0;
  gboolean three_phase = FALSE;
  GClosure *closure = NULL;

  g_object_get (sched, "max-lr", &max_lr, "anneal-strategy", &strategy, "total-steps", &total_steps,
                "epochs", &epochs, "three-phase", &three_phase, NULL);
  g_assert_cmpstr (g_variant_get_type_string (max_lr), ==, "ad");
  g_assert_cmpstr (strategy, ==, "linear");
  g_assert_cmpint (total_steps, ==, -1);
  g_assert_cmpint (epochs, ==, 2);
  g_assert_true (three_phase);
  g_assert_true (g_initable_init (G_INITABLE (sched), NULL, &error));
  g_object_get (sched, "total-steps", &total_steps, NULL);
  g_assert_cmpint (total_steps, ==, 12);   /* epochs × steps-per-epoch */
  g_clear_object (&sched);

  sched = lambda_built (optimizer);
  g_object_get (sched, "lr-lambda", &closure, NULL);
  g_assert_nonnull (closure);
  g_closure_unref (closure);
  g_clear_object (&sched);

  /* what g_object_new cannot refuse, init does */
  sched = g_object_new (GNN_TYPE_ONE_CYCLE_LR, "optimizer", optimizer, "total-steps", 10, NULL);
  g_assert_false (g_initable_init (G_INITABLE (sched), NULL, &error));
  g_assert_cmpstr (error->message, ==,
                   "max_lr must have the same length as optimizer.param_groups. max_lr has 0 values, "
                   "param_groups has 1.");
  g_clear_error (&error);
  g_clear_object (&sched);
  g_assert_null (g_initable_new (GNN_TYPE_ONE_CYCLE_LR, NULL, &error, "optimizer", optimizer,
                                 "max-lr", gnn_prop_new_doubles (GNN_TEST_DATA (0.1), 1), NULL));
  g_assert_cmpstr (error->message, ==, "You must define either total_steps OR (epochs AND steps_per_epoch)");
  g_clear_error (&error);
  g_assert_null (g_initable_new (GNN_TYPE_SWALR, NULL, &error, "optimizer", optimizer, "swa-lr",
                                 gnn_prop_new_doubles (GNN_TEST_DATA (0.1), 1), "anneal-epochs", -1, NULL));
  g_assert_cmpstr (error->message, ==, "anneal_epochs must be equal or greater than 0, got -1");
  g_clear_error (&error);
  g_assert_null (g_initable_new (GNN_TYPE_LAMBDA_LR, NULL, &error, "optimizer", optimizer, NULL));
  g_assert_cmpstr (error->message, ==, "LambdaLR needs a function (the \"lr-lambda\" property)");
  g_clear_error (&error);
  g_assert_null (g_initable_new (GNN_TYPE_SEQUENTIAL_LR, NULL, &error, "optimizer", optimizer, NULL));
  g_assert_cmpstr (error->message, ==, "SequentialLR expects at least one scheduler, but got no scheduler.");
  g_clear_error (&error);
  {
    g_autoptr(GListStore) wrong = g_list_store_new (G_TYPE_OBJECT);

    g_list_store_append (wrong, optimizer);
    g_assert_null (g_initable_new (GNN_TYPE_SEQUENTIAL_LR, NULL, &error, "optimizer", optimizer,
                                   "schedulers", wrong, NULL));
    g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
    g_assert_nonnull (strstr (error->message, "expected learning-rate schedulers"));
    g_clear_error (&error);
  }
  g_assert_null (g_initable_new (GNN_TYPE_MULTI_STEP_LR, NULL, &error, "optimizer", optimizer, "milestones",
                                 g_variant_new_fixed_array (G_VARIANT_TYPE_INT64, (gint64[]) { G_MAXINT64 }, 1,
                                                            sizeof (gint64)),
                                 NULL));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  /* a step size set to a bad value after construction is the next step's error */
  sched = step_made (optimizer, &error);
  g_assert_no_error (error);
  g_object_set (sched, "step-size", 0, NULL);
  g_assert_false (gnn_lr_scheduler_step (sched, &error));
  g_assert_cmpstr (error->message, ==, "Expected positive integer step_size, but got 0");
}

int
main (int argc, char **argv)
{
  gnn_test_init (&argc, &argv);
  g_test_add_func ("/from-properties/optimizers", test_optimizers);
  g_test_add_func ("/from-properties/schedulers", test_schedulers);
  g_test_add_func ("/from-properties/properties", test_properties);
  return g_test_run ();
}
