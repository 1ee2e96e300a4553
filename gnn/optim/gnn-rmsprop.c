/* gnn-rmsprop.c: RMSprop, as torch.optim.RMSprop
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include "gnn-optim-private.h"

/**
 * GnnRMSprop:
 *
 * The RMSprop algorithm (`torch.optim.RMSprop`), with PyTorch's semantics and defaults. For
 * each parameter with a gradient `g`:
 *
 * ```
 * g = -g if maximize;  g = g + weight_decay * param if weight_decay != 0
 * square_avg = alpha * square_avg + (1 - alpha) * g * g
 * if centered:
 *     grad_avg = alpha * grad_avg + (1 - alpha) * g
 *     avg = sqrt (square_avg - grad_avg * grad_avg) + eps
 * else:
 *     avg = sqrt (square_avg) + eps
 * if momentum > 0:
 *     buf = momentum * buf + g / avg;  param = param - lr * buf
 * else:
 *     param = param - lr * g / avg
 * ```
 *
 * The options of each group are the doubles `lr`, `alpha`, `eps`, `weight_decay` and
 * `momentum` and the flags `centered` and `maximize`. The state of a parameter is `step`
 * (a double; PyTorch counts in an integer), `square_avg`, and `momentum_buffer` and
 * `grad_avg` when momentum and centering are used.
 *
 * Create one with [ctor@Gnn.RMSprop.new].
 */
/* the numbers of the update as 0-d tensors (gnn-optim-private.h) */
enum {
  SCALAR_ALPHA,
  SCALAR_EPS,
  SCALAR_MOMENTUM,
  N_SCALARS
};

struct _GnnRMSprop
{
  GnnOptimizer parent_instance;

  GnnOptimScalar scalars[N_SCALARS];
};

enum {
  PROP_0,
  PROP_LR,
  PROP_MOMENTUM,
  PROP_ALPHA,
  PROP_EPS,
  PROP_CENTERED,
  PROP_WEIGHT_DECAY,
  PROP_MAXIMIZE,
  N_PROPS
};

static GnnProp props[N_PROPS];

G_DEFINE_FINAL_TYPE (GnnRMSprop, gnn_rmsprop, GNN_TYPE_OPTIMIZER)

/* PyTorch's checks in RMSprop.__init__ */
static gboolean
check_values (double   lr,
              double   alpha,
              double   eps,
              double   weight_decay,
              double   momentum,
              GError **error)
{
  if (!(0.0 <= lr))
    return gnn_optim_invalid (error, "Invalid learning rate", lr);
  if (!(0.0 <= eps))
    return gnn_optim_invalid (error, "Invalid epsilon value", eps);
  if (!(0.0 <= momentum))
    return gnn_optim_invalid (error, "Invalid momentum value", momentum);
  if (!(0.0 <= weight_decay))
    return gnn_optim_invalid (error, "Invalid weight_decay value", weight_decay);
  if (!(0.0 <= alpha))
    return gnn_optim_invalid (error, "Invalid alpha value", alpha);
  return TRUE;
}

static gboolean
gnn_rmsprop_check_group (GnnOptimizer  *optimizer,
                         GnnParamGroup *group,
                         GError       **error)
{
  if (!gnn_optim_check_number (group, "lr", error) ||
      !gnn_optim_check_number (group, "alpha", error) ||
      !gnn_optim_check_number (group, "eps", error) ||
      !gnn_optim_check_number (group, "weight_decay", error) ||
      !gnn_optim_check_number (group, "momentum", error) ||
      !gnn_optim_check_flag (group, "centered", error) ||
      !gnn_optim_check_flag (group, "maximize", error))
    return FALSE;
  return check_values (gnn_param_group_get_double (group, "lr"),
                       gnn_param_group_get_double (group, "alpha"),
                       gnn_param_group_get_double (group, "eps"),
                       gnn_param_group_get_double (group, "weight_decay"),
                       gnn_param_group_get_double (group, "momentum"), error);
}

/* PyTorch's _single_tensor_rmsprop, operation by operation */
static gboolean
gnn_rmsprop_step (GnnOptimizer *optimizer,
                  GError      **error)
{
  GnnOptimScalar *scalars = GNN_RMSPROP (optimizer)->scalars;
  guint n_groups = gnn_optimizer_get_n_param_groups (optimizer);

  for (guint g = 0; g < n_groups; g++)
    {
      GnnParamGroup *group = gnn_optimizer_get_param_group (optimizer, g);
      double lr = gnn_param_group_get_double (group, "lr");
      double alpha = gnn_param_group_get_double (group, "alpha");
      double eps = gnn_param_group_get_double (group, "eps");
      double weight_decay = gnn_param_group_get_double (group, "weight_decay");
      double momentum = gnn_param_group_get_double (group, "momentum");
      gboolean centered = gnn_param_group_get_boolean (group, "centered");
      gboolean maximize = gnn_param_group_get_boolean (group, "maximize");
      guint n = gnn_param_group_get_n_params (group);

      for (guint i = 0; i < n; i++)
        {
          GnnTensor *param = gnn_param_group_get_param (group, i);
          GnnTensor *grad = gnn_tensor_get_grad (param);
          GnnStateDict *state;
          GnnTensor *square_avg, *buf = NULL, *grad_avg = NULL;
          g_autoptr(GnnTensor) d_p = NULL;
          g_autoptr(GnnTensor) avg = NULL;
          GnnTensor *s_alpha, *s_eps, *s_momentum;
          gboolean owned;

          if (grad == NULL)
            continue;
          state = gnn_optim_param_state (optimizer, param);
          if (!(square_avg = gnn_optim_state_ensure (state, "square_avg", param, 0.0, error)) ||
              (momentum > 0 &&
               !(buf = gnn_optim_state_ensure (state, "momentum_buffer", param, 0.0, error))) ||
              (centered && !(grad_avg = gnn_optim_state_ensure (state, "grad_avg", param, 0.0, error))))
            return FALSE;
          gnn_optim_count_step (state);

          if (!(d_p = gnn_optim_grad (param, grad, maximize, weight_decay, &owned, error)))
            return FALSE;
          /* square_avg.mul_(alpha).addcmul_(grad, grad, value=1 - alpha) */
          if (!(s_alpha = gnn_optim_scalar (&scalars[SCALAR_ALPHA], square_avg, alpha, error)) ||
              !gnn_tensor_mul_ (square_avg, s_alpha, error) ||
              !gnn_tensor_addcmul_ (square_avg, d_p, d_p, 1 - alpha, error))
            return FALSE;
          if (centered)
            {
              /* grad_avg.mul_(alpha).add_(grad, alpha=1 - alpha)
               * avg = square_avg.addcmul(grad_avg, grad_avg, value=-1).sqrt_() */
              if (!gnn_tensor_mul_ (grad_avg, s_alpha, error) ||
                  !gnn_tensor_add_ (grad_avg, d_p, 1 - alpha, error) ||
                  !(avg = gnn_tensor_clone (square_avg, error)) ||
                  !gnn_tensor_addcmul_ (avg, grad_avg, grad_avg, -1, error) ||
                  !gnn_tensor_sqrt_ (avg, error))
                return FALSE;
            }
          else if (!(avg = gnn_tensor_sqrt (square_avg, error)))
            return FALSE;
          /* avg.add_(eps) */
          if (!(s_eps = gnn_optim_scalar (&scalars[SCALAR_EPS], avg, eps, error)) ||
              !gnn_tensor_add_ (avg, s_eps, 1.0, error))
            return FALSE;

          if (momentum > 0)
            {
              /* buf.mul_(momentum).addcdiv_(grad, avg); param.add_(buf, alpha=-lr) */
              if (!(s_momentum = gnn_optim_scalar (&scalars[SCALAR_MOMENTUM], buf, momentum, error)) ||
                  !gnn_tensor_mul_ (buf, s_momentum, error) ||
                  !gnn_tensor_addcdiv_ (buf, d_p, avg, 1, error) ||
                  !gnn_tensor_add_ (param, buf, -lr, error))
                return FALSE;
            }
          else if (!gnn_tensor_addcdiv_ (param, d_p, avg, -lr, error))
            return FALSE;
        }
    }
  return TRUE;
}

/* what a parameter's state holds once stepped */
static const char *const *
rmsprop_state_keys (GnnOptimizer  *optimizer,
                    GnnParamGroup *group)
{
  static const char *const keys[4][5] = {
    { "step", "square_avg", NULL },
    { "step", "square_avg", "momentum_buffer", NULL },
    { "step", "square_avg", "grad_avg", NULL },
    { "step", "square_avg", "momentum_buffer", "grad_avg", NULL },
  };
  gboolean momentum = gnn_param_group_get_double (group, "momentum") > 0;
  gboolean centered = gnn_param_group_get_boolean (group, "centered");

  return keys[(momentum ? 1 : 0) + (centered ? 2 : 0)];
}

static void
gnn_rmsprop_class_init (GnnRMSpropClass *klass)
{
  GnnOptimizerClass *optimizer_class = GNN_OPTIMIZER_CLASS (klass);

  gnn_optim_class_set_scalars (klass, G_STRUCT_OFFSET (GnnRMSprop, scalars), N_SCALARS);
  optimizer_class->step = gnn_rmsprop_step;
  optimizer_class->check_group = gnn_rmsprop_check_group;
  gnn_optim_class_set_state_keys (klass, rmsprop_state_keys);

  /**
   * GnnRMSprop:lr:
   *
   * The learning rate (`lr`), at least 0.
   */
  props[PROP_LR] = gnn_optim_option_double ("lr", 1e-2);
  /**
   * GnnRMSprop:momentum:
   *
   * The momentum factor (`momentum`), at least 0.
   */
  props[PROP_MOMENTUM] = gnn_optim_option_double ("momentum", 0);
  /**
   * GnnRMSprop:alpha:
   *
   * The smoothing constant of the running average of the squared gradient (`alpha`), at
   * least 0.
   */
  props[PROP_ALPHA] = gnn_optim_option_double ("alpha", 0.99);
  /**
   * GnnRMSprop:eps:
   *
   * Added to the denominator (`eps`), at least 0.
   */
  props[PROP_EPS] = gnn_optim_option_double ("eps", 1e-8);
  /**
   * GnnRMSprop:centered:
   *
   * Whether to normalise by the estimated variance of the gradient (`centered`).
   */
  props[PROP_CENTERED] = gnn_optim_option_boolean ("centered", FALSE);
  /**
   * GnnRMSprop:weight-decay:
   *
   * The L2 penalty (`weight_decay`), at least 0.
   */
  props[PROP_WEIGHT_DECAY] = gnn_optim_option_double ("weight-decay", 0);
  /**
   * GnnRMSprop:maximize:
   *
   * Whether to maximize the objective instead of minimizing it (`maximize`).
   */
  props[PROP_MAXIMIZE] = gnn_optim_option_boolean ("maximize", FALSE);
  gnn_optim_class_install_options (G_OBJECT_CLASS (klass), props, N_PROPS);
}

static void
gnn_rmsprop_init (GnnRMSprop *self)
{
}

/**
 * gnn_rmsprop_new: (constructor)
 * @params: (nullable): the parameters to optimize, as one group whose options, where set,
 *   override the defaults below; %NULL to add groups later with
 *   [method@Gnn.Optimizer.add_param_group]
 * @lr: the learning rate (PyTorch's default: 1e-2)
 * @alpha: the smoothing constant (default: 0.99)
 * @eps: added to the denominator (default: 1e-8)
 * @weight_decay: the L2 penalty (default: 0)
 * @momentum: the momentum factor (default: 0)
 * @centered: whether to normalize by an estimate of the variance of the gradient (default:
 *   %FALSE)
 * @maximize: whether to maximize the objective instead of minimizing it (default: %FALSE)
 * @error: return location for a #GError
 *
 * Creates an RMSprop optimizer (`torch.optim.RMSprop (params, lr, alpha, eps,
 * weight_decay, momentum, centered, maximize=maximize)`); the arguments become the defaults
 * of its groups.
 *
 * Returns: (transfer full): the optimizer, or %NULL with @error set
 *   (%GNN_ERROR_INVALID_ARGUMENT, with PyTorch's messages, such as "Invalid alpha value: -1.0")
 */
GnnRMSprop *
gnn_rmsprop_new (GnnParamGroup *params,
                 double         lr,
                 double         alpha,
                 double         eps,
                 double         weight_decay,
                 double         momentum,
                 gboolean       centered,
                 gboolean       maximize,
                 GError       **error)
{
  g_autoptr(GListModel) list = NULL;

  g_return_val_if_fail (params == NULL || GNN_IS_PARAM_GROUP (params), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);
  list = gnn_optim_params_list (params);
  return g_initable_new (GNN_TYPE_RMSPROP, NULL, error, "params", list, "lr", lr, "momentum", momentum,
                         "alpha", alpha, "eps", eps, "centered", centered, "weight-decay", weight_decay,
                         "maximize", maximize, NULL);
}
