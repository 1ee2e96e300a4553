/* gnn-sgd.c: stochastic gradient descent, as torch.optim.SGD
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include "gnn-optim-private.h"

/**
 * GnnSGD:
 *
 * Stochastic gradient descent, optionally with momentum (`torch.optim.SGD`), with
 * PyTorch's semantics and defaults. For each parameter with a gradient `g`:
 *
 * ```
 * g = -g if maximize;  g = g + weight_decay * param if weight_decay != 0
 * if momentum != 0:
 *     buf = clone (g) on the first step, else buf = momentum * buf + (1 - dampening) * g
 *     g = g + momentum * buf if nesterov, else buf
 * param = param - lr * g
 * ```
 *
 * The options of each group are the doubles `lr`, `momentum`, `dampening` and
 * `weight_decay` and the flags `nesterov` and `maximize`. The state of a parameter is its
 * `momentum_buffer`, kept only when momentum is used (PyTorch stores `None` otherwise).
 *
 * Create one with [ctor@Gnn.SGD.new], or from properties: `g_initable_new (GNN_TYPE_SGD,
 * NULL, &error, "params", params, "lr", 0.1, "momentum", 0.9, NULL)` (see
 * [class@Gnn.Optimizer]); the properties are the defaults of the groups' options.
 */
struct _GnnSGD
{
  GnnOptimizer parent_instance;

  GnnOptimScalar momentum;   /* the momentum as a 0-d tensor, for buf.mul_ */
};

enum {
  PROP_0,
  PROP_LR,
  PROP_MOMENTUM,
  PROP_DAMPENING,
  PROP_WEIGHT_DECAY,
  PROP_NESTEROV,
  PROP_MAXIMIZE,
  N_PROPS
};

static GnnProp props[N_PROPS];

G_DEFINE_FINAL_TYPE (GnnSGD, gnn_sgd, GNN_TYPE_OPTIMIZER)

/* PyTorch's checks in SGD.__init__ */
static gboolean
check_values (double   lr,
              double   momentum,
              double   dampening,
              double   weight_decay,
              gboolean nesterov,
              GError **error)
{
  if (lr < 0.0)
    return gnn_optim_invalid (error, "Invalid learning rate", lr);
  if (momentum < 0.0)
    return gnn_optim_invalid (error, "Invalid momentum value", momentum);
  if (weight_decay < 0.0)
    return gnn_optim_invalid (error, "Invalid weight_decay value", weight_decay);
  if (nesterov && (momentum <= 0 || dampening != 0))
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                           "Nesterov momentum requires a momentum and zero dampening");
      return FALSE;
    }
  return TRUE;
}

static gboolean
gnn_sgd_check_group (GnnOptimizer  *optimizer,
                     GnnParamGroup *group,
                     GError       **error)
{
  if (!gnn_optim_check_number (group, "lr", error) ||
      !gnn_optim_check_number (group, "momentum", error) ||
      !gnn_optim_check_number (group, "dampening", error) ||
      !gnn_optim_check_number (group, "weight_decay", error) ||
      !gnn_optim_check_flag (group, "nesterov", error) ||
      !gnn_optim_check_flag (group, "maximize", error))
    return FALSE;
  return check_values (gnn_param_group_get_double (group, "lr"),
                       gnn_param_group_get_double (group, "momentum"),
                       gnn_param_group_get_double (group, "dampening"),
                       gnn_param_group_get_double (group, "weight_decay"),
                       gnn_param_group_get_boolean (group, "nesterov"),
                       error);
}

/* PyTorch's _single_tensor_sgd, operation by operation */
static gboolean
gnn_sgd_step (GnnOptimizer *optimizer,
              GError      **error)
{
  guint n_groups = gnn_optimizer_get_n_param_groups (optimizer);

  for (guint g = 0; g < n_groups; g++)
    {
      GnnParamGroup *group = gnn_optimizer_get_param_group (optimizer, g);
      double lr = gnn_param_group_get_double (group, "lr");
      double momentum = gnn_param_group_get_double (group, "momentum");
      double dampening = gnn_param_group_get_double (group, "dampening");
      double weight_decay = gnn_param_group_get_double (group, "weight_decay");
      gboolean nesterov = gnn_param_group_get_boolean (group, "nesterov");
      gboolean maximize = gnn_param_group_get_boolean (group, "maximize");
      guint n = gnn_param_group_get_n_params (group);

      for (guint i = 0; i < n; i++)
        {
          GnnTensor *param = gnn_param_group_get_param (group, i);
          GnnTensor *grad = gnn_tensor_get_grad (param);
          g_autoptr(GnnTensor) d_p = NULL;
          gboolean owned;

          if (grad == NULL)
            continue;
          if (!(d_p = gnn_optim_grad (param, grad, maximize, weight_decay, &owned, error)))
            return FALSE;
          if (momentum != 0)
            {
              GnnStateDict *state = gnn_optimizer_get_state (optimizer, param);
              GnnTensor *buf = gnn_optim_state_tensor (state, "momentum_buffer");

              if (buf == NULL)
                {
                  /* torch.clone (d_p).detach (); a temporary d_p is that clone already */
                  g_autoptr(GnnTensor) first = owned ? g_object_ref (d_p) : gnn_tensor_clone (d_p, error);

                  if (first == NULL)
                    return FALSE;
                  gnn_state_dict_set_tensor (state, "momentum_buffer", first);
                  buf = first;   /* the state holds it */
                }
              else
                {
                  /* buf.mul_(momentum).add_(d_p, alpha=1 - dampening) */
                  GnnTensor *m = gnn_optim_scalar (&GNN_SGD (optimizer)->momentum, buf, momentum, error);

                  if (m == NULL || !gnn_tensor_mul_ (buf, m, error) ||
                      !gnn_tensor_add_ (buf, d_p, 1 - dampening, error))
                    return FALSE;
                }

              if (nesterov)
                {
                  GnnTensor *next = gnn_tensor_add (d_p, buf, momentum, error);

                  if (next == NULL)
                    return FALSE;
                  g_object_unref (d_p);
                  d_p = next;
                }
              else
                {
                  g_object_unref (d_p);
                  d_p = g_object_ref (buf);
                }
            }
          if (!gnn_tensor_add_ (param, d_p, -lr, error))
            return FALSE;
        }
    }
  return TRUE;
}

/* what a parameter's state holds once stepped: the momentum buffer, with momentum (a state
 * holding nothing else, its absence looks like a parameter not stepped yet) */
static const char *const *
sgd_state_keys (GnnOptimizer  *optimizer,
                GnnParamGroup *group)
{
  static const char *const keys[] = { "momentum_buffer", NULL };

  return gnn_param_group_get_double (group, "momentum") != 0 ? keys : NULL;
}

static void
gnn_sgd_class_init (GnnSGDClass *klass)
{
  GnnOptimizerClass *optimizer_class = GNN_OPTIMIZER_CLASS (klass);

  gnn_optim_class_set_scalars (klass, G_STRUCT_OFFSET (GnnSGD, momentum), 1);
  optimizer_class->step = gnn_sgd_step;
  optimizer_class->check_group = gnn_sgd_check_group;
  gnn_optim_class_set_state_keys (klass, sgd_state_keys);

  /**
   * GnnSGD:lr:
   *
   * The learning rate (`lr`). PyTorch 1.13 requires it; the default, 1e-3, is that of later
   * versions.
   */
  props[PROP_LR] = gnn_optim_option_double ("lr", 1e-3);
  /**
   * GnnSGD:momentum:
   *
   * The momentum factor (`momentum`), at least 0.
   */
  props[PROP_MOMENTUM] = gnn_optim_option_double ("momentum", 0);
  /**
   * GnnSGD:dampening:
   *
   * The dampening of the momentum (`dampening`).
   */
  props[PROP_DAMPENING] = gnn_optim_option_double ("dampening", 0);
  /**
   * GnnSGD:weight-decay:
   *
   * The L2 penalty (`weight_decay`), at least 0.
   */
  props[PROP_WEIGHT_DECAY] = gnn_optim_option_double ("weight-decay", 0);
  /**
   * GnnSGD:nesterov:
   *
   * Whether to use Nesterov momentum (`nesterov`); it needs a momentum and zero
   * dampening.
   */
  props[PROP_NESTEROV] = gnn_optim_option_boolean ("nesterov", FALSE);
  /**
   * GnnSGD:maximize:
   *
   * Whether to maximize the objective instead of minimizing it (`maximize`).
   */
  props[PROP_MAXIMIZE] = gnn_optim_option_boolean ("maximize", FALSE);
  gnn_optim_class_install_options (G_OBJECT_CLASS (klass), props, N_PROPS);
}

static void
gnn_sgd_init (GnnSGD *self)
{
}

/**
 * gnn_sgd_new: (constructor)
 * @params: (nullable): the parameters to optimize, as one group whose options, where set,
 *   override the defaults below; %NULL to add groups later with
 *   [method@Gnn.Optimizer.add_param_group]
 * @lr: the learning rate (PyTorch requires it)
 * @momentum: the momentum factor (PyTorch's default: 0)
 * @dampening: the dampening of the momentum (default: 0)
 * @weight_decay: the L2 penalty (default: 0)
 * @nesterov: whether to use Nesterov momentum (default: %FALSE)
 * @maximize: whether to maximize the objective instead of minimizing it (default: %FALSE)
 * @error: return location for a #GError
 *
 * Creates an SGD optimizer (`torch.optim.SGD (params, lr, momentum, dampening,
 * weight_decay, nesterov, maximize=maximize)`); the arguments become the defaults of its
 * groups.
 *
 * Returns: (transfer full): the optimizer, or %NULL with @error set
 *   (%GNN_ERROR_INVALID_ARGUMENT, with PyTorch's messages: "Invalid learning rate: -0.1",
 *   "Nesterov momentum requires a momentum and zero dampening", "optimizer got an empty
 *   parameter list")
 */
GnnSGD *
gnn_sgd_new (GnnParamGroup *params,
             double         lr,
             double         momentum,
             double         dampening,
             double         weight_decay,
             gboolean       nesterov,
             gboolean       maximize,
             GError       **error)
{
  g_autoptr(GListModel) list = NULL;

  g_return_val_if_fail (params == NULL || GNN_IS_PARAM_GROUP (params), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);
  list = gnn_optim_params_list (params);
  return g_initable_new (GNN_TYPE_SGD, NULL, error, "params", list, "lr", lr, "momentum", momentum,
                         "dampening", dampening, "weight-decay", weight_decay, "nesterov", nesterov,
                         "maximize", maximize, NULL);
}
