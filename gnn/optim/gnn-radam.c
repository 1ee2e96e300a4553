/* gnn-radam.c: RAdam, as torch.optim.RAdam
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <math.h>

#include "gnn-optim-private.h"

/**
 * GnnRAdam:
 *
 * The RAdam algorithm (`torch.optim.RAdam`), Adam with a rectified adaptive learning rate,
 * with PyTorch 1.13's semantics and defaults. For each parameter with a gradient `g`, at
 * step `t` (counted from 1):
 *
 * ```
 * g = g + weight_decay * param if weight_decay != 0
 * exp_avg = beta1 * exp_avg + (1 - beta1) * g
 * exp_avg_sq = beta2 * exp_avg_sq + (1 - beta2) * g * g
 * rho_inf = 2 / (1 - beta2) - 1
 * rho_t = rho_inf - 2 * t * beta2^t / (1 - beta2^t)
 * if rho_t > 5:
 *     rect = sqrt ((rho_t - 4) * (rho_t - 2) * rho_inf / ((rho_inf - 4) * (rho_inf - 2) * rho_t))
 *     param = param - exp_avg / (1 - beta1^t) * lr * sqrt (1 - beta2^t) / (sqrt (exp_avg_sq) + eps) * rect
 * else:
 *     param = param - exp_avg / (1 - beta1^t) * lr
 * ```
 *
 * The options of each group are the doubles `lr`, `eps` and `weight_decay` and the pair
 * `betas` (a #GVariant of type `(dd)`). The state of a parameter is `step` (a double;
 * PyTorch keeps a one-element tensor), `exp_avg` and `exp_avg_sq`.
 *
 * Create one with [ctor@Gnn.RAdam.new], or from properties (see [class@Gnn.Optimizer]).
 *
 * Since: 0.1
 */
enum {
  SCALAR_BETA1,
  SCALAR_BETA2,
  SCALAR_EPS,
  N_SCALARS
};

struct _GnnRAdam
{
  GnnOptimizer parent_instance;

  GnnOptimScalar scalars[N_SCALARS];
};

enum {
  PROP_0,
  PROP_LR,
  PROP_BETAS,
  PROP_EPS,
  PROP_WEIGHT_DECAY,
  N_PROPS
};

static GnnProp props[N_PROPS];

G_DEFINE_FINAL_TYPE (GnnRAdam, gnn_radam, GNN_TYPE_OPTIMIZER)

/* PyTorch's checks in RAdam.__init__: Adam's */
static gboolean
gnn_radam_check_group (GnnOptimizer  *optimizer,
                       GnnParamGroup *group,
                       GError       **error)
{
  double beta1, beta2;

  if (!gnn_optim_check_number (group, "lr", error) ||
      !gnn_optim_check_betas (group, error) ||
      !gnn_optim_check_number (group, "eps", error) ||
      !gnn_optim_check_number (group, "weight_decay", error))
    return FALSE;
  gnn_optim_get_pair (group, "betas", &beta1, &beta2);
  return gnn_optim_check_adam_values (gnn_param_group_get_double (group, "lr"), beta1, beta2,
                                      gnn_param_group_get_double (group, "eps"),
                                      gnn_param_group_get_double (group, "weight_decay"), error);
}

/* PyTorch's _single_tensor_radam, operation by operation */
static gboolean
gnn_radam_step (GnnOptimizer *optimizer,
                GError      **error)
{
  GnnOptimScalar *scalars = GNN_RADAM (optimizer)->scalars;
  guint n_groups = gnn_optimizer_get_n_param_groups (optimizer);

  for (guint g = 0; g < n_groups; g++)
    {
      GnnParamGroup *group = gnn_optimizer_get_param_group (optimizer, g);
      double lr = gnn_param_group_get_double (group, "lr");
      double eps = gnn_param_group_get_double (group, "eps");
      double weight_decay = gnn_param_group_get_double (group, "weight_decay");
      guint n = gnn_param_group_get_n_params (group);
      double beta1, beta2;

      gnn_optim_get_pair (group, "betas", &beta1, &beta2);
      for (guint i = 0; i < n; i++)
        {
          GnnTensor *param = gnn_param_group_get_param (group, i);
          GnnTensor *grad = gnn_tensor_get_grad (param);
          GnnStateDict *state;
          GnnTensor *exp_avg, *exp_avg_sq, *s_beta1, *s_beta2, *s_eps;
          g_autoptr(GnnTensor) d_p = NULL;
          g_autoptr(GnnTensor) update = NULL;
          g_autoptr(GnnTensor) adaptive_lr = NULL;
          g_autoptr(GnnTensor) reciprocal = NULL;
          double step, bias_correction1, bias_correction2, rho_inf, rho_t;
          gboolean owned;

          if (grad == NULL)
            continue;
          state = gnn_optim_param_state (optimizer, param);
          if (!(exp_avg = gnn_optim_state_ensure (state, "exp_avg", param, 0.0, error)) ||
              !(exp_avg_sq = gnn_optim_state_ensure (state, "exp_avg_sq", param, 0.0, error)))
            return FALSE;
          step = gnn_optim_count_step (state);
          bias_correction1 = 1 - pow (beta1, step);
          bias_correction2 = 1 - pow (beta2, step);

          if (!(d_p = gnn_optim_grad (param, grad, FALSE, weight_decay, &owned, error)))
            return FALSE;
          /* exp_avg.mul_(beta1).add_(grad, alpha=1 - beta1)
           * exp_avg_sq.mul_(beta2).addcmul_(grad, grad, value=1 - beta2)
           * bias_corrected_exp_avg * lr: update = exp_avg / bias_correction1, times lr */
          if (!(s_beta1 = gnn_optim_scalar (&scalars[SCALAR_BETA1], exp_avg, beta1, error)) ||
              !(s_beta2 = gnn_optim_scalar (&scalars[SCALAR_BETA2], exp_avg_sq, beta2, error)) ||
              !gnn_tensor_mul_ (exp_avg, s_beta1, error) ||
              !gnn_tensor_add_ (exp_avg, d_p, 1 - beta1, error) ||
              !gnn_tensor_mul_ (exp_avg_sq, s_beta2, error) ||
              !gnn_tensor_addcmul_ (exp_avg_sq, d_p, d_p, 1 - beta2, error) ||
              !(update = gnn_tensor_div_scalar (exp_avg, bias_correction1, error)) ||
              !gnn_tensor_mul_scalar_ (update, lr, error))
            return FALSE;

          rho_inf = 2 / (1 - beta2) - 1;
          rho_t = rho_inf - 2 * step * pow (beta2, step) / bias_correction2;
          if (rho_t > 5.)
            {
              double rect = sqrt ((rho_t - 4) * (rho_t - 2) * rho_inf /
                                  ((rho_inf - 4) * (rho_inf - 2) * rho_t));

              /* adaptive_lr = math.sqrt(bias_correction2) / exp_avg_sq.sqrt().add_(eps), a
               * float over a tensor: PyTorch's Tensor.__rtruediv__, reciprocal() * number
               * param.add_(bias_corrected_exp_avg * lr * adaptive_lr * rect, alpha=-1.0) */
              if (!(adaptive_lr = gnn_tensor_sqrt (exp_avg_sq, error)) ||
                  !(s_eps = gnn_optim_scalar (&scalars[SCALAR_EPS], adaptive_lr, eps, error)) ||
                  !gnn_tensor_add_ (adaptive_lr, s_eps, 1.0, error) ||
                  !(reciprocal = gnn_tensor_reciprocal (adaptive_lr, error)) ||
                  !gnn_tensor_mul_scalar_ (reciprocal, sqrt (bias_correction2), error) ||
                  !gnn_tensor_mul_ (update, reciprocal, error) ||
                  !gnn_tensor_mul_scalar_ (update, rect, error))
                return FALSE;
            }
          if (!gnn_tensor_add_ (param, update, -1.0, error))
            return FALSE;
        }
    }
  return TRUE;
}

static const char *const radam_state_keys[] = { "step", "exp_avg", "exp_avg_sq", NULL };

static void
gnn_radam_class_init (GnnRAdamClass *klass)
{
  GnnOptimizerClass *optimizer_class = GNN_OPTIMIZER_CLASS (klass);

  gnn_optim_class_set_scalars (klass, G_STRUCT_OFFSET (GnnRAdam, scalars), N_SCALARS);
  optimizer_class->step = gnn_radam_step;
  optimizer_class->check_group = gnn_radam_check_group;
  gnn_optim_class_set_fixed_state_keys (klass, radam_state_keys);

  /**
   * GnnRAdam:lr:
   *
   * The learning rate (`lr`), at least 0; PyTorch's default is 1e-3.
   *
   * Since: 0.1
   */
  props[PROP_LR] = gnn_optim_option_double ("lr", 1e-3);
  /**
   * GnnRAdam:betas:
   *
   * The decays of the running averages of the gradient and of its square (`betas`), a
   * #GVariant `(dd)`, each in [0, 1); PyTorch's default is (0.9, 0.999).
   *
   * Since: 0.1
   */
  props[PROP_BETAS] = gnn_optim_option_betas (0.9, 0.999);
  /**
   * GnnRAdam:eps:
   *
   * Added to the denominator (`eps`), at least 0; PyTorch's default is 1e-8.
   *
   * Since: 0.1
   */
  props[PROP_EPS] = gnn_optim_option_double ("eps", 1e-8);
  /**
   * GnnRAdam:weight-decay:
   *
   * The L2 penalty, added to the gradient (`weight_decay`), at least 0.
   *
   * Since: 0.1
   */
  props[PROP_WEIGHT_DECAY] = gnn_optim_option_double ("weight-decay", 0);
  gnn_optim_class_install_options (G_OBJECT_CLASS (klass), props, N_PROPS);
}

static void
gnn_radam_init (GnnRAdam *self)
{
}

/**
 * gnn_radam_new: (constructor)
 * @params: (nullable): the parameters to optimize, as one group whose options, where set,
 *   override the defaults below; %NULL to add groups later with
 *   [method@Gnn.Optimizer.add_param_group]
 * @lr: the learning rate (PyTorch's default: 1e-3)
 * @beta1: the decay of the running average of the gradient (default: 0.9)
 * @beta2: the decay of the running average of its square (default: 0.999)
 * @eps: added to the denominator (default: 1e-8)
 * @weight_decay: the L2 penalty (default: 0)
 * @error: return location for a #GError
 *
 * Creates an RAdam optimizer (`torch.optim.RAdam (params, lr, (beta1, beta2), eps,
 * weight_decay)`); the arguments become the defaults of its groups.
 *
 * Returns: (transfer full): the optimizer, or %NULL with @error set
 *   (%GNN_ERROR_INVALID_ARGUMENT, with PyTorch's messages)
 *
 * Since: 0.1
 */
GnnRAdam *
gnn_radam_new (GnnParamGroup *params,
               double         lr,
               double         beta1,
               double         beta2,
               double         eps,
               double         weight_decay,
               GError       **error)
{
  g_autoptr(GListModel) list = NULL;

  g_return_val_if_fail (params == NULL || GNN_IS_PARAM_GROUP (params), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);
  list = gnn_optim_params_list (params);
  return g_initable_new (GNN_TYPE_RADAM, NULL, error, "params", list, "lr", lr,
                         "betas", g_variant_new ("(dd)", beta1, beta2), "eps", eps,
                         "weight-decay", weight_decay, NULL);
}
