/* gnn-adamax.c: Adamax, as torch.optim.Adamax
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <math.h>

#include "gnn-optim-private.h"

/**
 * GnnAdamax:
 *
 * The Adamax algorithm (`torch.optim.Adamax`), Adam with the infinity norm, with PyTorch's
 * semantics and defaults. For each parameter with a gradient `g`, at step `t` (counted from
 * 1):
 *
 * ```
 * g = -g if maximize;  g = g + weight_decay * param if weight_decay != 0
 * exp_avg = beta1 * exp_avg + (1 - beta1) * g
 * exp_inf = maximum (beta2 * exp_inf, abs (g) + eps)
 * param = param - lr / (1 - beta1^t) * exp_avg / exp_inf
 * ```
 *
 * The options of each group are the doubles `lr`, `eps` and `weight_decay`, the pair
 * `betas` (a #GVariant of type `(dd)`) and the flag `maximize`. The state of a parameter is
 * `step` (a double; PyTorch keeps a one-element tensor), `exp_avg` and `exp_inf`.
 *
 * Create one with [ctor@Gnn.Adamax.new], or from properties (see [class@Gnn.Optimizer]).
 *
 * Since: 0.1
 */
enum {
  SCALAR_BETA1,
  SCALAR_BETA2,
  SCALAR_EPS,
  N_SCALARS
};

struct _GnnAdamax
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
  PROP_MAXIMIZE,
  N_PROPS
};

static GnnProp props[N_PROPS];

G_DEFINE_FINAL_TYPE (GnnAdamax, gnn_adamax, GNN_TYPE_OPTIMIZER)

/* PyTorch's checks in Adamax.__init__: Adam's */
static gboolean
gnn_adamax_check_group (GnnOptimizer  *optimizer,
                        GnnParamGroup *group,
                        GError       **error)
{
  double beta1, beta2;

  if (!gnn_optim_check_number (group, "lr", error) ||
      !gnn_optim_check_betas (group, error) ||
      !gnn_optim_check_number (group, "eps", error) ||
      !gnn_optim_check_number (group, "weight_decay", error) ||
      !gnn_optim_check_flag (group, "maximize", error))
    return FALSE;
  gnn_optim_get_pair (group, "betas", &beta1, &beta2);
  return gnn_optim_check_adam_values (gnn_param_group_get_double (group, "lr"), beta1, beta2,
                                      gnn_param_group_get_double (group, "eps"),
                                      gnn_param_group_get_double (group, "weight_decay"), error);
}

/* PyTorch's _single_tensor_adamax, operation by operation */
static gboolean
gnn_adamax_step (GnnOptimizer *optimizer,
                 GError      **error)
{
  GnnOptimScalar *scalars = GNN_ADAMAX (optimizer)->scalars;
  guint n_groups = gnn_optimizer_get_n_param_groups (optimizer);

  for (guint g = 0; g < n_groups; g++)
    {
      GnnParamGroup *group = gnn_optimizer_get_param_group (optimizer, g);
      double lr = gnn_param_group_get_double (group, "lr");
      double eps = gnn_param_group_get_double (group, "eps");
      double weight_decay = gnn_param_group_get_double (group, "weight_decay");
      gboolean maximize = gnn_param_group_get_boolean (group, "maximize");
      guint n = gnn_param_group_get_n_params (group);
      double beta1, beta2;

      gnn_optim_get_pair (group, "betas", &beta1, &beta2);
      for (guint i = 0; i < n; i++)
        {
          GnnTensor *param = gnn_param_group_get_param (group, i);
          GnnTensor *grad = gnn_tensor_get_grad (param);
          GnnStateDict *state;
          GnnTensor *exp_avg, *exp_inf, *s_beta1, *s_beta2, *s_eps;
          g_autoptr(GnnTensor) d_p = NULL;
          g_autoptr(GnnTensor) norm = NULL;
          double step;
          gboolean owned;

          if (grad == NULL)
            continue;
          state = gnn_optim_param_state (optimizer, param);
          if (!(exp_avg = gnn_optim_state_ensure (state, "exp_avg", param, 0.0, error)) ||
              !(exp_inf = gnn_optim_state_ensure (state, "exp_inf", param, 0.0, error)))
            return FALSE;
          step = gnn_optim_count_step (state);

          if (!(d_p = gnn_optim_grad (param, grad, maximize, weight_decay, &owned, error)))
            return FALSE;
          /* exp_avg.mul_(beta1).add_(grad, alpha=1 - beta1)
           * exp_inf = amax([exp_inf.mul_(beta2), grad.abs().add_(eps)], 0): the elementwise
           * maximum of the two
           * param.addcdiv_(exp_avg, exp_inf, value=-lr / (1 - beta1 ** step)) */
          if (!(s_beta1 = gnn_optim_scalar (&scalars[SCALAR_BETA1], exp_avg, beta1, error)) ||
              !(s_beta2 = gnn_optim_scalar (&scalars[SCALAR_BETA2], exp_inf, beta2, error)) ||
              !(s_eps = gnn_optim_scalar (&scalars[SCALAR_EPS], exp_inf, eps, error)) ||
              !gnn_tensor_mul_ (exp_avg, s_beta1, error) ||
              !gnn_tensor_add_ (exp_avg, d_p, 1 - beta1, error) ||
              !gnn_tensor_mul_ (exp_inf, s_beta2, error) ||
              !(norm = gnn_tensor_abs (d_p, error)) ||
              !gnn_tensor_add_ (norm, s_eps, 1.0, error) ||
              !gnn_tensor_maximum_ (exp_inf, norm, error) ||
              !gnn_tensor_addcdiv_ (param, exp_avg, exp_inf, -(lr / (1 - pow (beta1, step))), error))
            return FALSE;
        }
    }
  return TRUE;
}

static const char *const adamax_state_keys[] = { "step", "exp_avg", "exp_inf", NULL };

static void
gnn_adamax_class_init (GnnAdamaxClass *klass)
{
  GnnOptimizerClass *optimizer_class = GNN_OPTIMIZER_CLASS (klass);

  gnn_optim_class_set_scalars (klass, G_STRUCT_OFFSET (GnnAdamax, scalars), N_SCALARS);
  optimizer_class->step = gnn_adamax_step;
  optimizer_class->check_group = gnn_adamax_check_group;
  gnn_optim_class_set_fixed_state_keys (klass, adamax_state_keys);

  /**
   * GnnAdamax:lr:
   *
   * The learning rate (`lr`), at least 0; PyTorch's default is 2e-3.
   *
   * Since: 0.1
   */
  props[PROP_LR] = gnn_optim_option_double ("lr", 2e-3);
  /**
   * GnnAdamax:betas:
   *
   * The decays of the running average of the gradient and of the infinity norm (`betas`), a
   * #GVariant `(dd)`, each in [0, 1); PyTorch's default is (0.9, 0.999).
   *
   * Since: 0.1
   */
  props[PROP_BETAS] = gnn_optim_option_betas (0.9, 0.999);
  /**
   * GnnAdamax:eps:
   *
   * Added to the absolute gradient (`eps`), at least 0; PyTorch's default is 1e-8.
   *
   * Since: 0.1
   */
  props[PROP_EPS] = gnn_optim_option_double ("eps", 1e-8);
  /**
   * GnnAdamax:weight-decay:
   *
   * The L2 penalty, added to the gradient (`weight_decay`), at least 0.
   *
   * Since: 0.1
   */
  props[PROP_WEIGHT_DECAY] = gnn_optim_option_double ("weight-decay", 0);
  /**
   * GnnAdamax:maximize:
   *
   * Whether to maximize the objective instead of minimizing it (`maximize`).
   *
   * Since: 0.1
   */
  props[PROP_MAXIMIZE] = gnn_optim_option_boolean ("maximize", FALSE);
  gnn_optim_class_install_options (G_OBJECT_CLASS (klass), props, N_PROPS);
}

static void
gnn_adamax_init (GnnAdamax *self)
{
}

/**
 * gnn_adamax_new: (constructor)
 * @params: (nullable): the parameters to optimize, as one group whose options, where set,
 *   override the defaults below; %NULL to add groups later with
 *   [method@Gnn.Optimizer.add_param_group]
 * @lr: the learning rate (PyTorch's default: 2e-3)
 * @beta1: the decay of the running average of the gradient (default: 0.9)
 * @beta2: the decay of the infinity norm (default: 0.999)
 * @eps: added to the absolute gradient (default: 1e-8)
 * @weight_decay: the L2 penalty (default: 0)
 * @maximize: whether to maximize the objective instead of minimizing it (default: %FALSE)
 * @error: return location for a #GError
 *
 * Creates an Adamax optimizer (`torch.optim.Adamax (params, lr, (beta1, beta2), eps,
 * weight_decay, maximize=maximize)`); the arguments become the defaults of its groups.
 *
 * Returns: (transfer full): the optimizer, or %NULL with @error set
 *   (%GNN_ERROR_INVALID_ARGUMENT, with PyTorch's messages)
 *
 * Since: 0.1
 */
GnnAdamax *
gnn_adamax_new (GnnParamGroup *params,
                double         lr,
                double         beta1,
                double         beta2,
                double         eps,
                double         weight_decay,
                gboolean       maximize,
                GError       **error)
{
  g_autoptr(GListModel) list = NULL;

  g_return_val_if_fail (params == NULL || GNN_IS_PARAM_GROUP (params), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);
  list = gnn_optim_params_list (params);
  return g_initable_new (GNN_TYPE_ADAMAX, NULL, error, "params", list, "lr", lr,
                         "betas", g_variant_new ("(dd)", beta1, beta2), "eps", eps,
                         "weight-decay", weight_decay, "maximize", maximize, NULL);
}
