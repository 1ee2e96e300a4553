/* gnn-asgd.c: ASGD, as torch.optim.ASGD
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <math.h>

#include "gnn-optim-private.h"

/**
 * GnnASGD:
 *
 * Averaged stochastic gradient descent (`torch.optim.ASGD`), with PyTorch 1.13's semantics
 * and defaults. For each parameter with a gradient `g`, at step `t` (counted from 1):
 *
 * ```
 * g = -g if maximize;  g = g + weight_decay * param if weight_decay != 0
 * param = param * (1 - lambd * eta)
 * param = param - eta * g
 * ax = ax + mu * (param - ax) if mu != 1 else param
 * eta = lr / (1 + lambd * lr * t)^alpha
 * mu = 1 / max (1, t - t0)
 * ```
 *
 * The options of each group are the doubles `lr`, `lambd`, `alpha`, `t0` and
 * `weight_decay` and the flag `maximize`. The state of a parameter is `step`, `eta`, `mu`
 * and `ax` (the average of the parameter); `step`, `eta` and `mu` are doubles (PyTorch keeps
 * one-element float32 tensors), `eta` and `mu` rounded to float32 as PyTorch stores them, so
 * that the steps are the same.
 *
 * Create one with [ctor@Gnn.ASGD.new], or from properties (see [class@Gnn.Optimizer]).
 *
 * Since: 0.1
 */
struct _GnnASGD
{
  GnnOptimizer parent_instance;
};

enum {
  PROP_0,
  PROP_LR,
  PROP_LAMBD,
  PROP_ALPHA,
  PROP_T0,
  PROP_WEIGHT_DECAY,
  PROP_MAXIMIZE,
  N_PROPS
};

static GnnProp props[N_PROPS];

G_DEFINE_FINAL_TYPE (GnnASGD, gnn_asgd, GNN_TYPE_OPTIMIZER)

/* PyTorch's checks in ASGD.__init__ */
static gboolean
gnn_asgd_check_group (GnnOptimizer  *optimizer,
                      GnnParamGroup *group,
                      GError       **error)
{
  double lr, weight_decay;

  if (!gnn_optim_check_number (group, "lr", error) ||
      !gnn_optim_check_number (group, "lambd", error) ||
      !gnn_optim_check_number (group, "alpha", error) ||
      !gnn_optim_check_number (group, "t0", error) ||
      !gnn_optim_check_number (group, "weight_decay", error) ||
      !gnn_optim_check_flag (group, "maximize", error))
    return FALSE;
  lr = gnn_param_group_get_double (group, "lr");
  weight_decay = gnn_param_group_get_double (group, "weight_decay");
  if (!(0.0 <= lr))
    return gnn_optim_invalid (error, "Invalid learning rate", lr);
  if (!(0.0 <= weight_decay))
    return gnn_optim_invalid (error, "Invalid weight_decay value", weight_decay);
  return TRUE;
}

/* PyTorch's _single_tensor_asgd, operation by operation; eta and mu are float32 tensors
 * there, read back with item() */
static gboolean
gnn_asgd_step (GnnOptimizer *optimizer,
               GError      **error)
{
  guint n_groups = gnn_optimizer_get_n_param_groups (optimizer);

  for (guint g = 0; g < n_groups; g++)
    {
      GnnParamGroup *group = gnn_optimizer_get_param_group (optimizer, g);
      double lr = gnn_param_group_get_double (group, "lr");
      double lambd = gnn_param_group_get_double (group, "lambd");
      double alpha = gnn_param_group_get_double (group, "alpha");
      double t0 = gnn_param_group_get_double (group, "t0");
      double weight_decay = gnn_param_group_get_double (group, "weight_decay");
      gboolean maximize = gnn_param_group_get_boolean (group, "maximize");
      guint n = gnn_param_group_get_n_params (group);

      for (guint i = 0; i < n; i++)
        {
          GnnTensor *param = gnn_param_group_get_param (group, i);
          GnnTensor *grad = gnn_tensor_get_grad (param);
          GnnStateDict *state;
          GnnTensor *ax;
          g_autoptr(GnnTensor) d_p = NULL;
          g_autoptr(GnnTensor) diff = NULL;
          double step, eta, mu;
          gboolean owned;

          if (grad == NULL)
            continue;
          state = gnn_optim_param_state (optimizer, param);
          if (gnn_state_dict_get_length (state) == 1)
            {
              /* state['eta'] = torch.tensor(group['lr']); state['mu'] = torch.tensor(1.) */
              gnn_optim_set_number (state, "eta", (float) lr);
              gnn_optim_set_number (state, "mu", 1.0);
            }
          if (!(ax = gnn_optim_state_ensure (state, "ax", param, 0.0, error)))
            return FALSE;
          eta = gnn_optim_get_number (state, "eta", (float) lr);
          mu = gnn_optim_get_number (state, "mu", 1.0);
          step = gnn_optim_count_step (state);

          if (!(d_p = gnn_optim_grad (param, grad, maximize, weight_decay, &owned, error)))
            return FALSE;
          /* param.mul_(1 - lambd * eta.item()); param.add_(grad, alpha=-eta.item()) */
          if (!gnn_tensor_mul_scalar_ (param, 1 - lambd * eta, error) ||
              !gnn_tensor_add_ (param, d_p, -eta, error))
            return FALSE;
          /* if mu.item() != 1: ax.add_(param.sub(ax).mul(mu)) else: ax.copy_(param) */
          if (mu != 1)
            {
              if (!(diff = gnn_tensor_sub (param, ax, 1.0, error)) ||
                  !gnn_tensor_mul_scalar_ (diff, mu, error) ||
                  !gnn_tensor_add_ (ax, diff, 1.0, error))
                return FALSE;
            }
          else if (!gnn_tensor_copy_ (ax, param, error))
            return FALSE;
          /* eta.copy_(torch.tensor(lr / math.pow((1 + lambd * lr * step), alpha)))
           * mu.copy_(torch.tensor(1 / max(1, step - t0))) */
          gnn_optim_set_number (state, "eta", (float) (lr / pow (1 + lambd * lr * step, alpha)));
          gnn_optim_set_number (state, "mu", (float) (1 / MAX (1, step - t0)));
        }
    }
  return TRUE;
}

static const char *const asgd_state_keys[] = { "step", "eta", "mu", "ax", NULL };

static void
gnn_asgd_class_init (GnnASGDClass *klass)
{
  GnnOptimizerClass *optimizer_class = GNN_OPTIMIZER_CLASS (klass);

  optimizer_class->step = gnn_asgd_step;
  optimizer_class->check_group = gnn_asgd_check_group;
  gnn_optim_class_set_fixed_state_keys (klass, asgd_state_keys);

  /**
   * GnnASGD:lr:
   *
   * The learning rate (`lr`), at least 0; PyTorch's default is 1e-2.
   *
   * Since: 0.1
   */
  props[PROP_LR] = gnn_optim_option_double ("lr", 1e-2);
  /**
   * GnnASGD:lambd:
   *
   * The decay term (`lambd`); PyTorch's default is 1e-4.
   *
   * Since: 0.1
   */
  props[PROP_LAMBD] = gnn_optim_option_double ("lambd", 1e-4);
  /**
   * GnnASGD:alpha:
   *
   * The power of the update of eta (`alpha`); PyTorch's default is 0.75.
   *
   * Since: 0.1
   */
  props[PROP_ALPHA] = gnn_optim_option_double ("alpha", 0.75);
  /**
   * GnnASGD:t0:
   *
   * The step at which averaging starts (`t0`); PyTorch's default is 1e6.
   *
   * Since: 0.1
   */
  props[PROP_T0] = gnn_optim_option_double ("t0", 1e6);
  /**
   * GnnASGD:weight-decay:
   *
   * The L2 penalty, added to the gradient (`weight_decay`), at least 0.
   *
   * Since: 0.1
   */
  props[PROP_WEIGHT_DECAY] = gnn_optim_option_double ("weight-decay", 0);
  /**
   * GnnASGD:maximize:
   *
   * Whether to maximize the objective instead of minimizing it (`maximize`).
   *
   * Since: 0.1
   */
  props[PROP_MAXIMIZE] = gnn_optim_option_boolean ("maximize", FALSE);
  gnn_optim_class_install_options (G_OBJECT_CLASS (klass), props, N_PROPS);
}

static void
gnn_asgd_init (GnnASGD *self)
{
}

/**
 * gnn_asgd_new: (constructor)
 * @params: (nullable): the parameters to optimize, as one group whose options, where set,
 *   override the defaults below; %NULL to add groups later with
 *   [method@Gnn.Optimizer.add_param_group]
 * @lr: the learning rate (PyTorch's default: 1e-2)
 * @lambd: the decay term (default: 1e-4)
 * @alpha: the power of the update of eta (default: 0.75)
 * @t0: the step at which averaging starts (default: 1e6)
 * @weight_decay: the L2 penalty (default: 0)
 * @maximize: whether to maximize the objective instead of minimizing it (default: %FALSE)
 * @error: return location for a #GError
 *
 * Creates an ASGD optimizer (`torch.optim.ASGD (params, lr, lambd, alpha, t0, weight_decay,
 * maximize=maximize)`); the arguments become the defaults of its groups.
 *
 * Returns: (transfer full): the optimizer, or %NULL with @error set
 *   (%GNN_ERROR_INVALID_ARGUMENT, with PyTorch's messages)
 *
 * Since: 0.1
 */
GnnASGD *
gnn_asgd_new (GnnParamGroup *params,
              double         lr,
              double         lambd,
              double         alpha,
              double         t0,
              double         weight_decay,
              gboolean       maximize,
              GError       **error)
{
  g_autoptr(GListModel) list = NULL;

  g_return_val_if_fail (params == NULL || GNN_IS_PARAM_GROUP (params), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);
  list = gnn_optim_params_list (params);
  return g_initable_new (GNN_TYPE_ASGD, NULL, error, "params", list, "lr", lr, "lambd", lambd,
                         "alpha", alpha, "t0", t0, "weight-decay", weight_decay,
                         "maximize", maximize, NULL);
}
