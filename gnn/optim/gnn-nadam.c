/* gnn-nadam.c: NAdam, as torch.optim.NAdam
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <math.h>

#include "gnn-optim-private.h"

/**
 * GnnNAdam:
 *
 * The NAdam algorithm (`torch.optim.NAdam`), Adam with Nesterov momentum, with PyTorch
 * 1.13's semantics and defaults. For each parameter with a gradient `g`, at step `t`
 * (counted from 1):
 *
 * ```
 * g = g + weight_decay * param if weight_decay != 0
 * mu = beta1 * (1 - 0.5 * 0.96^(t * momentum_decay))
 * mu_next = beta1 * (1 - 0.5 * 0.96^((t + 1) * momentum_decay))
 * mu_product = mu_product * mu
 * exp_avg = beta1 * exp_avg + (1 - beta1) * g
 * exp_avg_sq = beta2 * exp_avg_sq + (1 - beta2) * g * g
 * denom = sqrt (exp_avg_sq / (1 - beta2^t)) + eps
 * param = param - lr * (1 - mu) / (1 - mu_product) * g / denom
 * param = param - lr * mu_next / (1 - mu_product * mu_next) * exp_avg / denom
 * ```
 *
 * The options of each group are the doubles `lr`, `eps`, `weight_decay` and
 * `momentum_decay` and the pair `betas` (a #GVariant of type `(dd)`). The state of a
 * parameter is `step`, `mu_product`, `exp_avg` and `exp_avg_sq`; `step` and `mu_product` are
 * doubles (PyTorch keeps one-element float32 tensors), `mu_product` computed in float32 as
 * PyTorch computes it, so that the steps are the same.
 *
 * Create one with [ctor@Gnn.NAdam.new], or from properties (see [class@Gnn.Optimizer]).
 *
 * Since: 0.1
 */
enum {
  SCALAR_BETA1,
  SCALAR_BETA2,
  SCALAR_BIAS_CORRECTION2,
  SCALAR_EPS,
  N_SCALARS
};

struct _GnnNAdam
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
  PROP_MOMENTUM_DECAY,
  N_PROPS
};

static GnnProp props[N_PROPS];

G_DEFINE_FINAL_TYPE (GnnNAdam, gnn_nadam, GNN_TYPE_OPTIMIZER)

/* PyTorch's checks in NAdam.__init__: Adam's, then momentum_decay */
static gboolean
gnn_nadam_check_group (GnnOptimizer  *optimizer,
                       GnnParamGroup *group,
                       GError       **error)
{
  double beta1, beta2, momentum_decay;

  if (!gnn_optim_check_number (group, "lr", error) ||
      !gnn_optim_check_betas (group, error) ||
      !gnn_optim_check_number (group, "eps", error) ||
      !gnn_optim_check_number (group, "weight_decay", error) ||
      !gnn_optim_check_number (group, "momentum_decay", error))
    return FALSE;
  gnn_optim_get_pair (group, "betas", &beta1, &beta2);
  if (!gnn_optim_check_adam_values (gnn_param_group_get_double (group, "lr"), beta1, beta2,
                                    gnn_param_group_get_double (group, "eps"),
                                    gnn_param_group_get_double (group, "weight_decay"), error))
    return FALSE;
  momentum_decay = gnn_param_group_get_double (group, "momentum_decay");
  if (!(0.0 <= momentum_decay))
    return gnn_optim_invalid (error, "Invalid momentum_decay value", momentum_decay);
  return TRUE;
}

/* PyTorch's _single_tensor_nadam, operation by operation; mu_product is a float32 tensor
 * there, which multiplies by the float32 rounding of a Python float */
static gboolean
gnn_nadam_step (GnnOptimizer *optimizer,
                GError      **error)
{
  GnnOptimScalar *scalars = GNN_NADAM (optimizer)->scalars;
  guint n_groups = gnn_optimizer_get_n_param_groups (optimizer);

  for (guint g = 0; g < n_groups; g++)
    {
      GnnParamGroup *group = gnn_optimizer_get_param_group (optimizer, g);
      double lr = gnn_param_group_get_double (group, "lr");
      double eps = gnn_param_group_get_double (group, "eps");
      double weight_decay = gnn_param_group_get_double (group, "weight_decay");
      double momentum_decay = gnn_param_group_get_double (group, "momentum_decay");
      guint n = gnn_param_group_get_n_params (group);
      double beta1, beta2;

      gnn_optim_get_pair (group, "betas", &beta1, &beta2);
      for (guint i = 0; i < n; i++)
        {
          GnnTensor *param = gnn_param_group_get_param (group, i);
          GnnTensor *grad = gnn_tensor_get_grad (param);
          GnnStateDict *state;
          GnnTensor *exp_avg, *exp_avg_sq, *s_beta1, *s_beta2, *s_bc2, *s_eps;
          g_autoptr(GnnTensor) d_p = NULL;
          g_autoptr(GnnTensor) denom = NULL;
          double step, mu, mu_next, bias_correction2;
          float mu_product, mu_product_next;
          gboolean owned, fresh;

          if (grad == NULL)
            continue;
          state = gnn_optim_param_state (optimizer, param);
          fresh = gnn_state_dict_get_length (state) == 1;
          if (fresh)
            gnn_optim_set_number (state, "mu_product", 1.0);
          if (!(exp_avg = gnn_optim_state_ensure (state, "exp_avg", param, 0.0, error)) ||
              !(exp_avg_sq = gnn_optim_state_ensure (state, "exp_avg_sq", param, 0.0, error)))
            return FALSE;
          step = gnn_optim_count_step (state);
          bias_correction2 = 1 - pow (beta2, step);

          if (!(d_p = gnn_optim_grad (param, grad, FALSE, weight_decay, &owned, error)))
            return FALSE;
          mu = beta1 * (1. - 0.5 * pow (0.96, step * momentum_decay));
          mu_next = beta1 * (1. - 0.5 * pow (0.96, (step + 1) * momentum_decay));
          /* mu_product *= mu; mu_product_next = mu_product * mu * mu_next (float32) */
          mu_product = (float) gnn_optim_get_number (state, "mu_product", 1.0) * (float) mu;
          mu_product_next = (float) (mu_product * (float) mu) * (float) mu_next;
          gnn_optim_set_number (state, "mu_product", mu_product);

          /* exp_avg.mul_(beta1).add_(grad, alpha=1 - beta1)
           * exp_avg_sq.mul_(beta2).addcmul_(grad, grad, value=1 - beta2)
           * denom = exp_avg_sq.div(bias_correction2).sqrt().add_(eps) */
          if (!(s_beta1 = gnn_optim_scalar (&scalars[SCALAR_BETA1], exp_avg, beta1, error)) ||
              !(s_beta2 = gnn_optim_scalar (&scalars[SCALAR_BETA2], exp_avg_sq, beta2, error)) ||
              !(s_bc2 = gnn_optim_scalar (&scalars[SCALAR_BIAS_CORRECTION2], exp_avg_sq,
                                          bias_correction2, error)) ||
              !(s_eps = gnn_optim_scalar (&scalars[SCALAR_EPS], exp_avg_sq, eps, error)) ||
              !gnn_tensor_mul_ (exp_avg, s_beta1, error) ||
              !gnn_tensor_add_ (exp_avg, d_p, 1 - beta1, error) ||
              !gnn_tensor_mul_ (exp_avg_sq, s_beta2, error) ||
              !gnn_tensor_addcmul_ (exp_avg_sq, d_p, d_p, 1 - beta2, error) ||
              !(denom = gnn_tensor_div (exp_avg_sq, s_bc2, error)) ||
              !gnn_tensor_sqrt_ (denom, error) ||
              !gnn_tensor_add_ (denom, s_eps, 1.0, error))
            return FALSE;
          /* param.addcdiv_(grad, denom, value=-lr * (1. - mu) / (1. - mu_product.item()))
           * param.addcdiv_(exp_avg, denom, value=-lr * mu_next / (1. - mu_product_next.item())) */
          if (!gnn_tensor_addcdiv_ (param, d_p, denom, -lr * (1. - mu) / (1. - (double) mu_product), error) ||
              !gnn_tensor_addcdiv_ (param, exp_avg, denom,
                                    -lr * mu_next / (1. - (double) mu_product_next), error))
            return FALSE;
        }
    }
  return TRUE;
}

static const char *const nadam_state_keys[] = {
  "step", "mu_product", "exp_avg", "exp_avg_sq", NULL
};

static void
gnn_nadam_class_init (GnnNAdamClass *klass)
{
  GnnOptimizerClass *optimizer_class = GNN_OPTIMIZER_CLASS (klass);

  gnn_optim_class_set_scalars (klass, G_STRUCT_OFFSET (GnnNAdam, scalars), N_SCALARS);
  optimizer_class->step = gnn_nadam_step;
  optimizer_class->check_group = gnn_nadam_check_group;
  gnn_optim_class_set_fixed_state_keys (klass, nadam_state_keys);

  /**
   * GnnNAdam:lr:
   *
   * The learning rate (`lr`), at least 0; PyTorch's default is 2e-3.
   *
   * Since: 0.1
   */
  props[PROP_LR] = gnn_optim_option_double ("lr", 2e-3);
  /**
   * GnnNAdam:betas:
   *
   * The decays of the running averages of the gradient and of its square (`betas`), a
   * #GVariant `(dd)`, each in [0, 1); PyTorch's default is (0.9, 0.999).
   *
   * Since: 0.1
   */
  props[PROP_BETAS] = gnn_optim_option_betas (0.9, 0.999);
  /**
   * GnnNAdam:eps:
   *
   * Added to the denominator (`eps`), at least 0; PyTorch's default is 1e-8.
   *
   * Since: 0.1
   */
  props[PROP_EPS] = gnn_optim_option_double ("eps", 1e-8);
  /**
   * GnnNAdam:weight-decay:
   *
   * The L2 penalty, added to the gradient (`weight_decay`), at least 0.
   *
   * Since: 0.1
   */
  props[PROP_WEIGHT_DECAY] = gnn_optim_option_double ("weight-decay", 0);
  /**
   * GnnNAdam:momentum-decay:
   *
   * The momentum decay (`momentum_decay`), at least 0; PyTorch's default is 4e-3.
   *
   * Since: 0.1
   */
  props[PROP_MOMENTUM_DECAY] = gnn_optim_option_double ("momentum-decay", 4e-3);
  gnn_optim_class_install_options (G_OBJECT_CLASS (klass), props, N_PROPS);
}

static void
gnn_nadam_init (GnnNAdam *self)
{
}

/**
 * gnn_nadam_new: (constructor)
 * @params: (nullable): the parameters to optimize, as one group whose options, where set,
 *   override the defaults below; %NULL to add groups later with
 *   [method@Gnn.Optimizer.add_param_group]
 * @lr: the learning rate (PyTorch's default: 2e-3)
 * @beta1: the decay of the running average of the gradient (default: 0.9)
 * @beta2: the decay of the running average of its square (default: 0.999)
 * @eps: added to the denominator (default: 1e-8)
 * @weight_decay: the L2 penalty (default: 0)
 * @momentum_decay: the momentum decay (default: 4e-3)
 * @error: return location for a #GError
 *
 * Creates an NAdam optimizer (`torch.optim.NAdam (params, lr, (beta1, beta2), eps,
 * weight_decay, momentum_decay)`); the arguments become the defaults of its groups.
 *
 * Returns: (transfer full): the optimizer, or %NULL with @error set
 *   (%GNN_ERROR_INVALID_ARGUMENT, with PyTorch's messages)
 *
 * Since: 0.1
 */
GnnNAdam *
gnn_nadam_new (GnnParamGroup *params,
               double         lr,
               double         beta1,
               double         beta2,
               double         eps,
               double         weight_decay,
               double         momentum_decay,
               GError       **error)
{
  g_autoptr(GListModel) list = NULL;

  g_return_val_if_fail (params == NULL || GNN_IS_PARAM_GROUP (params), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);
  list = gnn_optim_params_list (params);
  return g_initable_new (GNN_TYPE_NADAM, NULL, error, "params", list, "lr", lr,
                         "betas", g_variant_new ("(dd)", beta1, beta2), "eps", eps,
                         "weight-decay", weight_decay, "momentum-decay", momentum_decay, NULL);
}
