/* gnn-adagrad.c: Adagrad, as torch.optim.Adagrad
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include "gnn-optim-private.h"

/**
 * GnnAdagrad:
 *
 * The Adagrad algorithm (`torch.optim.Adagrad`), with PyTorch's semantics and defaults, for
 * dense gradients. For each parameter with a gradient `g`, at step `t` (counted from 1):
 *
 * ```
 * g = -g if maximize;  g = g + weight_decay * param if weight_decay != 0
 * clr = lr / (1 + (t - 1) * lr_decay)
 * sum = sum + g * g
 * param = param - clr * g / (sqrt (sum) + eps)
 * ```
 *
 * The options of each group are the doubles `lr`, `lr_decay`, `eps`, `weight_decay` and
 * `initial_accumulator_value` and the flag `maximize`. The state of a parameter is `step`
 * (a double; PyTorch keeps a float tensor) and `sum`, created when the parameter's group is
 * added, `sum` filled with the group's `initial_accumulator_value` (PyTorch does this in the
 * constructor).
 *
 * Create one with [ctor@Gnn.Adagrad.new].
 */
struct _GnnAdagrad
{
  GnnOptimizer parent_instance;

  GnnOptimScalar eps;   /* eps as a 0-d tensor, for std.add_ */
};

enum {
  PROP_0,
  PROP_LR,
  PROP_LR_DECAY,
  PROP_EPS,
  PROP_WEIGHT_DECAY,
  PROP_INITIAL_ACCUMULATOR_VALUE,
  PROP_MAXIMIZE,
  N_PROPS
};

static GnnProp props[N_PROPS];

G_DEFINE_FINAL_TYPE (GnnAdagrad, gnn_adagrad, GNN_TYPE_OPTIMIZER)

/* PyTorch's checks in Adagrad.__init__ */
static gboolean
check_values (double   lr,
              double   lr_decay,
              double   weight_decay,
              double   initial_accumulator_value,
              double   eps,
              GError **error)
{
  if (!(0.0 <= lr))
    return gnn_optim_invalid (error, "Invalid learning rate", lr);
  if (!(0.0 <= lr_decay))
    return gnn_optim_invalid (error, "Invalid lr_decay value", lr_decay);
  if (!(0.0 <= weight_decay))
    return gnn_optim_invalid (error, "Invalid weight_decay value", weight_decay);
  if (!(0.0 <= initial_accumulator_value))
    return gnn_optim_invalid (error, "Invalid initial_accumulator_value value", initial_accumulator_value);
  if (!(0.0 <= eps))
    return gnn_optim_invalid (error, "Invalid epsilon value", eps);
  return TRUE;
}

/* the state PyTorch's constructor creates: step 0 and sum = initial_accumulator_value */
static gboolean
init_state (GnnOptimizer *optimizer,
            GnnTensor    *param,
            double        initial_accumulator_value,
            GError      **error)
{
  GnnStateDict *state = gnn_optimizer_get_state (optimizer, param);

  if (!gnn_state_dict_contains (state, "step"))
    gnn_optim_set_step (state, 0);
  return gnn_optim_state_ensure (state, "sum", param, initial_accumulator_value, error) != NULL;
}

static gboolean
gnn_adagrad_check_group (GnnOptimizer  *optimizer,
                         GnnParamGroup *group,
                         GError       **error)
{
  double initial_accumulator_value;
  guint n;

  if (!gnn_optim_check_number (group, "lr", error) ||
      !gnn_optim_check_number (group, "lr_decay", error) ||
      !gnn_optim_check_number (group, "eps", error) ||
      !gnn_optim_check_number (group, "weight_decay", error) ||
      !gnn_optim_check_number (group, "initial_accumulator_value", error) ||
      !gnn_optim_check_flag (group, "maximize", error))
    return FALSE;
  initial_accumulator_value = gnn_param_group_get_double (group, "initial_accumulator_value");
  if (!check_values (gnn_param_group_get_double (group, "lr"),
                     gnn_param_group_get_double (group, "lr_decay"),
                     gnn_param_group_get_double (group, "weight_decay"),
                     initial_accumulator_value,
                     gnn_param_group_get_double (group, "eps"), error))
    return FALSE;
  /* the group is valid and is added next: its parameters get their state now, as in
   * PyTorch's constructor (a failure here leaves no state behind) */
  n = gnn_param_group_get_n_params (group);
  for (guint i = 0; i < n; i++)
    {
      GnnTensor *param = gnn_param_group_get_param (group, i);
      GError *local = NULL;

      if (!init_state (optimizer, param, initial_accumulator_value, &local))
        {
          for (guint j = 0; j <= i; j++)
            {
              GnnStateDict *state = gnn_optimizer_get_state (optimizer, gnn_param_group_get_param (group, j));
              gnn_state_dict_remove (state, "step");
              gnn_state_dict_remove (state, "sum");
            }
          g_propagate_error (error, local);
          return FALSE;
        }
    }
  return TRUE;
}

/* PyTorch's _single_tensor_adagrad (dense gradients), operation by operation */
static gboolean
gnn_adagrad_step (GnnOptimizer *optimizer,
                  GError      **error)
{
  guint n_groups = gnn_optimizer_get_n_param_groups (optimizer);

  for (guint g = 0; g < n_groups; g++)
    {
      GnnParamGroup *group = gnn_optimizer_get_param_group (optimizer, g);
      double lr = gnn_param_group_get_double (group, "lr");
      double lr_decay = gnn_param_group_get_double (group, "lr_decay");
      double eps = gnn_param_group_get_double (group, "eps");
      double weight_decay = gnn_param_group_get_double (group, "weight_decay");
      gboolean maximize = gnn_param_group_get_boolean (group, "maximize");
      guint n = gnn_param_group_get_n_params (group);

      for (guint i = 0; i < n; i++)
        {
          GnnTensor *param = gnn_param_group_get_param (group, i);
          GnnTensor *grad = gnn_tensor_get_grad (param);
          GnnStateDict *state;
          GnnTensor *sum;
          g_autoptr(GnnTensor) d_p = NULL;
          g_autoptr(GnnTensor) std = NULL;
          GnnTensor *s_eps;
          double step, clr;
          gboolean owned;

          if (grad == NULL)
            continue;
          state = gnn_optimizer_get_state (optimizer, param);
          if ((sum = gnn_optim_state_tensor (state, "sum")) == NULL)
            {
              /* a state loaded without it, or removed */
              if (!init_state (optimizer, param,
                               gnn_param_group_get_double (group, "initial_accumulator_value"), error))
                return FALSE;
              sum = gnn_optim_state_tensor (state, "sum");
            }
          step = gnn_optim_count_step (state);

          if (!(d_p = gnn_optim_grad (param, grad, maximize, weight_decay, &owned, error)))
            return FALSE;
          clr = lr / (1 + (step - 1) * lr_decay);
          /* state_sum.addcmul_(grad, grad, value=1); std = state_sum.sqrt().add_(eps);
           * param.addcdiv_(grad, std, value=-clr) */
          if (!gnn_tensor_addcmul_ (sum, d_p, d_p, 1, error) ||
              !(std = gnn_tensor_sqrt (sum, error)) ||
              !(s_eps = gnn_optim_scalar (&GNN_ADAGRAD (optimizer)->eps, std, eps, error)) ||
              !gnn_tensor_add_ (std, s_eps, 1.0, error) ||
              !gnn_tensor_addcdiv_ (param, d_p, std, -clr, error))
            return FALSE;
        }
    }
  return TRUE;
}

/* what a parameter's state holds (from the constructor on) */
static const char *const adagrad_state_keys[] = { "step", "sum", NULL };

static void
gnn_adagrad_class_init (GnnAdagradClass *klass)
{
  GnnOptimizerClass *optimizer_class = GNN_OPTIMIZER_CLASS (klass);

  gnn_optim_class_set_scalars (klass, G_STRUCT_OFFSET (GnnAdagrad, eps), 1);
  optimizer_class->step = gnn_adagrad_step;
  optimizer_class->check_group = gnn_adagrad_check_group;
  gnn_optim_class_set_fixed_state_keys (klass, adagrad_state_keys);

  /**
   * GnnAdagrad:lr:
   *
   * The learning rate (`lr`), at least 0.
   */
  props[PROP_LR] = gnn_optim_option_double ("lr", 1e-2);
  /**
   * GnnAdagrad:lr-decay:
   *
   * The learning rate decay (`lr_decay`), at least 0.
   */
  props[PROP_LR_DECAY] = gnn_optim_option_double ("lr-decay", 0);
  /**
   * GnnAdagrad:eps:
   *
   * Added to the denominator (`eps`), at least 0.
   */
  props[PROP_EPS] = gnn_optim_option_double ("eps", 1e-10);
  /**
   * GnnAdagrad:weight-decay:
   *
   * The L2 penalty (`weight_decay`), at least 0.
   */
  props[PROP_WEIGHT_DECAY] = gnn_optim_option_double ("weight-decay", 0);
  /**
   * GnnAdagrad:initial-accumulator-value:
   *
   * The first value of the sum of squared gradients (`initial_accumulator_value`), at
   * least 0.
   */
  props[PROP_INITIAL_ACCUMULATOR_VALUE] = gnn_optim_option_double ("initial-accumulator-value", 0);
  /**
   * GnnAdagrad:maximize:
   *
   * Whether to maximize the objective instead of minimizing it (`maximize`).
   */
  props[PROP_MAXIMIZE] = gnn_optim_option_boolean ("maximize", FALSE);
  gnn_optim_class_install_options (G_OBJECT_CLASS (klass), props, N_PROPS);
}

static void
gnn_adagrad_init (GnnAdagrad *self)
{
}

/**
 * gnn_adagrad_new: (constructor)
 * @params: (nullable): the parameters to optimize, as one group whose options, where set,
 *   override the defaults below; %NULL to add groups later with
 *   [method@Gnn.Optimizer.add_param_group]
 * @lr: the learning rate (PyTorch's default: 1e-2)
 * @lr_decay: the learning rate decay (default: 0)
 * @weight_decay: the L2 penalty (default: 0)
 * @initial_accumulator_value: the first value of the sum of squared gradients (default: 0)
 * @eps: added to the denominator (default: 1e-10)
 * @maximize: whether to maximize the objective instead of minimizing it (default: %FALSE)
 * @error: return location for a #GError
 *
 * Creates an Adagrad optimizer (`torch.optim.Adagrad (params, lr, lr_decay, weight_decay,
 * initial_accumulator_value, eps, maximize=maximize)`); the arguments become the defaults
 * of its groups.
 *
 * Returns: (transfer full): the optimizer, or %NULL with @error set
 *   (%GNN_ERROR_INVALID_ARGUMENT, with PyTorch's messages, such as "Invalid lr_decay value:
 *   -0.5")
 */
GnnAdagrad *
gnn_adagrad_new (GnnParamGroup *params,
                 double         lr,
                 double         lr_decay,
                 double         weight_decay,
                 double         initial_accumulator_value,
                 double         eps,
                 gboolean       maximize,
                 GError       **error)
{
  g_autoptr(GListModel) list = NULL;

  g_return_val_if_fail (params == NULL || GNN_IS_PARAM_GROUP (params), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);
  list = gnn_optim_params_list (params);
  return g_initable_new (GNN_TYPE_ADAGRAD, NULL, error, "params", list, "lr", lr, "lr-decay", lr_decay,
                         "eps", eps, "weight-decay", weight_decay,
                         "initial-accumulator-value", initial_accumulator_value, "maximize", maximize,
                         NULL);
}
