/* gnn-adadelta.c: Adadelta, as torch.optim.Adadelta
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include "gnn-optim-private.h"

/**
 * GnnAdadelta:
 *
 * The Adadelta algorithm (`torch.optim.Adadelta`), with PyTorch's semantics and defaults.
 * For each parameter with a gradient `g`:
 *
 * ```
 * g = -g if maximize;  g = g + weight_decay * param if weight_decay != 0
 * square_avg = rho * square_avg + (1 - rho) * g * g
 * delta = sqrt (acc_delta + eps) / sqrt (square_avg + eps) * g
 * acc_delta = rho * acc_delta + (1 - rho) * delta * delta
 * param = param - lr * delta
 * ```
 *
 * The options of each group are the doubles `lr`, `rho`, `eps` and `weight_decay` and the
 * flag `maximize`. The state of a parameter is `step` (a double; PyTorch counts in an
 * integer), `square_avg` and `acc_delta`.
 *
 * Create one with [ctor@Gnn.Adadelta.new], or from properties:
 * `g_initable_new (GNN_TYPE_ADADELTA, NULL, &error, "params", params, "rho", 0.95, NULL)`.
 *
 * Since: 0.1
 */
/* the numbers of the update as 0-d tensors (gnn-optim-private.h) */
enum {
  SCALAR_RHO,
  SCALAR_EPS,
  N_SCALARS
};

struct _GnnAdadelta
{
  GnnOptimizer parent_instance;

  GnnOptimScalar scalars[N_SCALARS];
};

enum {
  PROP_0,
  PROP_LR,
  PROP_RHO,
  PROP_EPS,
  PROP_WEIGHT_DECAY,
  PROP_MAXIMIZE,
  N_PROPS
};

static GnnProp props[N_PROPS];

G_DEFINE_FINAL_TYPE (GnnAdadelta, gnn_adadelta, GNN_TYPE_OPTIMIZER)

/* PyTorch's checks in Adadelta.__init__ */
static gboolean
gnn_adadelta_check_group (GnnOptimizer  *optimizer,
                          GnnParamGroup *group,
                          GError       **error)
{
  double lr, rho, eps, weight_decay;

  if (!gnn_optim_check_number (group, "lr", error) ||
      !gnn_optim_check_number (group, "rho", error) ||
      !gnn_optim_check_number (group, "eps", error) ||
      !gnn_optim_check_number (group, "weight_decay", error) ||
      !gnn_optim_check_flag (group, "maximize", error))
    return FALSE;
  lr = gnn_param_group_get_double (group, "lr");
  rho = gnn_param_group_get_double (group, "rho");
  eps = gnn_param_group_get_double (group, "eps");
  weight_decay = gnn_param_group_get_double (group, "weight_decay");
  if (!(0.0 <= lr))
    return gnn_optim_invalid (error, "Invalid learning rate", lr);
  if (!(0.0 <= rho && rho <= 1.0))
    return gnn_optim_invalid (error, "Invalid rho value", rho);
  if (!(0.0 <= eps))
    return gnn_optim_invalid (error, "Invalid epsilon value", eps);
  if (!(0.0 <= weight_decay))
    return gnn_optim_invalid (error, "Invalid weight_decay value", weight_decay);
  return TRUE;
}

/* PyTorch's _single_tensor_adadelta, operation by operation */
static gboolean
gnn_adadelta_step (GnnOptimizer *optimizer,
                   GError      **error)
{
  GnnOptimScalar *scalars = GNN_ADADELTA (optimizer)->scalars;
  guint n_groups = gnn_optimizer_get_n_param_groups (optimizer);

  for (guint g = 0; g < n_groups; g++)
    {
      GnnParamGroup *group = gnn_optimizer_get_param_group (optimizer, g);
      double lr = gnn_param_group_get_double (group, "lr");
      double rho = gnn_param_group_get_double (group, "rho");
      double eps = gnn_param_group_get_double (group, "eps");
      double weight_decay = gnn_param_group_get_double (group, "weight_decay");
      gboolean maximize = gnn_param_group_get_boolean (group, "maximize");
      guint n = gnn_param_group_get_n_params (group);

      for (guint i = 0; i < n; i++)
        {
          GnnTensor *param = gnn_param_group_get_param (group, i);
          GnnTensor *grad = gnn_tensor_get_grad (param);
          GnnStateDict *state;
          GnnTensor *square_avg, *acc_delta, *s_rho, *s_eps;
          g_autoptr(GnnTensor) d_p = NULL;
          g_autoptr(GnnTensor) std = NULL;
          g_autoptr(GnnTensor) delta = NULL;
          gboolean owned;

          if (grad == NULL)
            continue;
          state = gnn_optim_param_state (optimizer, param);
          if (!(square_avg = gnn_optim_state_ensure (state, "square_avg", param, 0.0, error)) ||
              !(acc_delta = gnn_optim_state_ensure (state, "acc_delta", param, 0.0, error)))
            return FALSE;
          gnn_optim_count_step (state);

          if (!(d_p = gnn_optim_grad (param, grad, maximize, weight_decay, &owned, error)))
            return FALSE;
          /* square_avg.mul_(rho).addcmul_(grad, grad, value=1 - rho)
           * std = square_avg.add(eps).sqrt_()
           * delta = acc_delta.add(eps).sqrt_().div_(std).mul_(grad)
           * acc_delta.mul_(rho).addcmul_(delta, delta, value=1 - rho)
           * param.add_(delta, alpha=-lr) */
          if (!(s_rho = gnn_optim_scalar (&scalars[SCALAR_RHO], square_avg, rho, error)) ||
              !(s_eps = gnn_optim_scalar (&scalars[SCALAR_EPS], square_avg, eps, error)) ||
              !gnn_tensor_mul_ (square_avg, s_rho, error) ||
              !gnn_tensor_addcmul_ (square_avg, d_p, d_p, 1 - rho, error) ||
              !(std = gnn_tensor_add (square_avg, s_eps, 1.0, error)) ||
              !gnn_tensor_sqrt_ (std, error) ||
              !(delta = gnn_tensor_add (acc_delta, s_eps, 1.0, error)) ||
              !gnn_tensor_sqrt_ (delta, error) ||
              !gnn_tensor_div_ (delta, std, error) ||
              !gnn_tensor_mul_ (delta, d_p, error) ||
              !gnn_tensor_mul_ (acc_delta, s_rho, error) ||
              !gnn_tensor_addcmul_ (acc_delta, delta, delta, 1 - rho, error) ||
              !gnn_tensor_add_ (param, delta, -lr, error))
            return FALSE;
        }
    }
  return TRUE;
}

/* what a parameter's state holds once stepped */
static const char *const adadelta_state_keys[] = { "step", "square_avg", "acc_delta", NULL };

static void
gnn_adadelta_class_init (GnnAdadeltaClass *klass)
{
  GnnOptimizerClass *optimizer_class = GNN_OPTIMIZER_CLASS (klass);

  gnn_optim_class_set_scalars (klass, G_STRUCT_OFFSET (GnnAdadelta, scalars), N_SCALARS);
  optimizer_class->step = gnn_adadelta_step;
  optimizer_class->check_group = gnn_adadelta_check_group;
  gnn_optim_class_set_fixed_state_keys (klass, adadelta_state_keys);

  /**
   * GnnAdadelta:lr:
   *
   * The coefficient that scales delta before it is applied (`lr`), at least 0; PyTorch's
   * default is 1.0.
   *
   * Since: 0.1
   */
  props[PROP_LR] = gnn_optim_option_double ("lr", 1.0);
  /**
   * GnnAdadelta:rho:
   *
   * The decay of the running averages of the squared gradient and of the squared update
   * (`rho`), in [0, 1]; PyTorch's default is 0.9.
   *
   * Since: 0.1
   */
  props[PROP_RHO] = gnn_optim_option_double ("rho", 0.9);
  /**
   * GnnAdadelta:eps:
   *
   * Added inside both square roots (`eps`), at least 0; PyTorch's default is 1e-6.
   *
   * Since: 0.1
   */
  props[PROP_EPS] = gnn_optim_option_double ("eps", 1e-6);
  /**
   * GnnAdadelta:weight-decay:
   *
   * The L2 penalty, added to the gradient (`weight_decay`), at least 0.
   *
   * Since: 0.1
   */
  props[PROP_WEIGHT_DECAY] = gnn_optim_option_double ("weight-decay", 0);
  /**
   * GnnAdadelta:maximize:
   *
   * Whether to maximize the objective instead of minimizing it (`maximize`).
   *
   * Since: 0.1
   */
  props[PROP_MAXIMIZE] = gnn_optim_option_boolean ("maximize", FALSE);
  gnn_optim_class_install_options (G_OBJECT_CLASS (klass), props, N_PROPS);
}

static void
gnn_adadelta_init (GnnAdadelta *self)
{
}

/**
 * gnn_adadelta_new: (constructor)
 * @params: (nullable): the parameters to optimize, as one group whose options, where set,
 *   override the defaults below; %NULL to add groups later with
 *   [method@Gnn.Optimizer.add_param_group]
 * @lr: the coefficient of the update (PyTorch's default: 1.0)
 * @rho: the decay of the running averages (default: 0.9)
 * @eps: added inside the square roots (default: 1e-6)
 * @weight_decay: the L2 penalty (default: 0)
 * @maximize: whether to maximize the objective instead of minimizing it (default: %FALSE)
 * @error: return location for a #GError
 *
 * Creates an Adadelta optimizer (`torch.optim.Adadelta (params, lr, rho, eps, weight_decay,
 * maximize=maximize)`); the arguments become the defaults of its groups.
 *
 * Returns: (transfer full): the optimizer, or %NULL with @error set
 *   (%GNN_ERROR_INVALID_ARGUMENT, with PyTorch's messages, such as "Invalid rho value: 1.5")
 *
 * Since: 0.1
 */
GnnAdadelta *
gnn_adadelta_new (GnnParamGroup *params,
                  double         lr,
                  double         rho,
                  double         eps,
                  double         weight_decay,
                  gboolean       maximize,
                  GError       **error)
{
  g_autoptr(GListModel) list = NULL;

  g_return_val_if_fail (params == NULL || GNN_IS_PARAM_GROUP (params), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);
  list = gnn_optim_params_list (params);
  return g_initable_new (GNN_TYPE_ADADELTA, NULL, error, "params", list, "lr", lr, "rho", rho,
                         "eps", eps, "weight-decay", weight_decay, "maximize", maximize, NULL);
}
