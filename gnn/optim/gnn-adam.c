/* gnn-adam.c: Adam and AdamW, as torch.optim.Adam and torch.optim.AdamW
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <math.h>

#include "gnn-optim-private.h"

/**
 * GnnAdam:
 *
 * The Adam algorithm (`torch.optim.Adam`), with PyTorch's semantics and defaults. For each
 * parameter with a gradient `g`, at step `t` (counted from 1):
 *
 * ```
 * g = -g if maximize;  g = g + weight_decay * param if weight_decay != 0
 * exp_avg = beta1 * exp_avg + (1 - beta1) * g
 * exp_avg_sq = beta2 * exp_avg_sq + (1 - beta2) * g * g
 * max_exp_avg_sq = maximum (max_exp_avg_sq, exp_avg_sq) if amsgrad
 * denom = sqrt (max_exp_avg_sq if amsgrad else exp_avg_sq) / sqrt (1 - beta2^t) + eps
 * param = param - lr / (1 - beta1^t) * exp_avg / denom
 * ```
 *
 * The options of each group are the doubles `lr`, `eps` and `weight_decay`, the pair
 * `betas` (a #GVariant of type `(dd)`) and the flags `amsgrad` and `maximize`. The state of
 * a parameter is `step`, `exp_avg`, `exp_avg_sq` and, with amsgrad, `max_exp_avg_sq`, as
 * in PyTorch, except that `step` is a double (PyTorch keeps a one-element float tensor);
 * loading a state whose `step` is a tensor works too.
 *
 * Create one with [ctor@Gnn.Adam.new], or from properties (see [class@Gnn.Optimizer]):
 * `g_initable_new (GNN_TYPE_ADAM, NULL, &error, "params", params, "lr", 1e-3, NULL)`.
 * [class@Gnn.AdamW] decouples the weight decay.
 */
/* the numbers of the update as 0-d tensors (gnn-optim-private.h) */
enum {
  SCALAR_BETA1,
  SCALAR_BETA2,
  SCALAR_BIAS_CORRECTION2_SQRT,
  SCALAR_EPS,
  SCALAR_DECAY,
  N_SCALARS
};

struct _GnnAdam
{
  GnnOptimizer parent_instance;

  GnnOptimScalar scalars[N_SCALARS];
};

/* the option properties; the two classes have the same, each its own */
enum {
  PROP_0,
  PROP_LR,
  PROP_BETAS,
  PROP_EPS,
  PROP_WEIGHT_DECAY,
  PROP_AMSGRAD,
  PROP_MAXIMIZE,
  N_PROPS
};

static GnnProp adam_props[N_PROPS], adamw_props[N_PROPS];

G_DEFINE_FINAL_TYPE (GnnAdam, gnn_adam, GNN_TYPE_OPTIMIZER)

/**
 * GnnAdamW:
 *
 * Adam with decoupled weight decay (`torch.optim.AdamW`), with PyTorch's semantics and
 * defaults: the same update as [class@Gnn.Adam], except that the weight decay does not
 * enter the gradient; each step first shrinks the parameter:
 *
 * ```
 * param = param * (1 - lr * weight_decay)
 * ```
 *
 * The options and the state are those of [class@Gnn.Adam]; PyTorch's default weight decay
 * is 1e-2 here.
 *
 * Create one with [ctor@Gnn.AdamW.new].
 */
struct _GnnAdamW
{
  GnnOptimizer parent_instance;

  GnnOptimScalar scalars[N_SCALARS];
};

G_DEFINE_FINAL_TYPE (GnnAdamW, gnn_adamw, GNN_TYPE_OPTIMIZER)

static gboolean
adam_check_group (GnnOptimizer  *optimizer,
                  GnnParamGroup *group,
                  GError       **error)
{
  double beta1, beta2;

  if (!gnn_optim_check_number (group, "lr", error) ||
      !gnn_optim_check_betas (group, error) ||
      !gnn_optim_check_number (group, "eps", error) ||
      !gnn_optim_check_number (group, "weight_decay", error) ||
      !gnn_optim_check_flag (group, "amsgrad", error) ||
      !gnn_optim_check_flag (group, "maximize", error))
    return FALSE;
  gnn_optim_get_pair (group, "betas", &beta1, &beta2);
  return gnn_optim_check_adam_values (gnn_param_group_get_double (group, "lr"), beta1, beta2,
                                      gnn_param_group_get_double (group, "eps"),
                                      gnn_param_group_get_double (group, "weight_decay"), error);
}

/* the scalars of an Adam or an AdamW, which keep the same ones */
static GnnOptimScalar *
adam_scalars (gpointer optimizer)
{
  return GNN_IS_ADAMW (optimizer) ? GNN_ADAMW (optimizer)->scalars : GNN_ADAM (optimizer)->scalars;
}

/* PyTorch's _single_tensor_adam (AdamW, with decoupled weight decay: _single_tensor_adamw),
 * operation by operation, on the path without capturable/differentiable */
static gboolean
adam_step (GnnOptimizer *optimizer,
           GError      **error)
{
  GnnOptimScalar *scalars = adam_scalars (optimizer);
  gboolean decoupled = GNN_IS_ADAMW (optimizer);
  guint n_groups = gnn_optimizer_get_n_param_groups (optimizer);

  for (guint g = 0; g < n_groups; g++)
    {
      GnnParamGroup *group = gnn_optimizer_get_param_group (optimizer, g);
      double lr = gnn_param_group_get_double (group, "lr");
      double eps = gnn_param_group_get_double (group, "eps");
      double weight_decay = gnn_param_group_get_double (group, "weight_decay");
      gboolean amsgrad = gnn_param_group_get_boolean (group, "amsgrad");
      gboolean maximize = gnn_param_group_get_boolean (group, "maximize");
      guint n = gnn_param_group_get_n_params (group);
      double beta1, beta2;

      gnn_optim_get_pair (group, "betas", &beta1, &beta2);
      for (guint i = 0; i < n; i++)
        {
          GnnTensor *param = gnn_param_group_get_param (group, i);
          GnnTensor *grad = gnn_tensor_get_grad (param);
          GnnStateDict *state;
          GnnTensor *exp_avg, *exp_avg_sq, *max_exp_avg_sq = NULL;
          g_autoptr(GnnTensor) d_p = NULL;
          g_autoptr(GnnTensor) denom = NULL;
          GnnTensor *s_beta1, *s_beta2, *s_bc2, *s_eps, *s_decay;
          double step, bias_correction1, bias_correction2, step_size;
          gboolean owned;

          if (grad == NULL)
            continue;
          state = gnn_optim_param_state (optimizer, param);
          if (!(exp_avg = gnn_optim_state_ensure (state, "exp_avg", param, 0.0, error)) ||
              !(exp_avg_sq = gnn_optim_state_ensure (state, "exp_avg_sq", param, 0.0, error)) ||
              (amsgrad &&
               !(max_exp_avg_sq = gnn_optim_state_ensure (state, "max_exp_avg_sq", param, 0.0, error))))
            return FALSE;

          step = gnn_optim_count_step (state);
          if (decoupled)
            {
              /* AdamW: param.mul_(1 - lr * weight_decay); a product by 1 changes nothing */
              if (!(d_p = gnn_optim_grad (param, grad, maximize, 0, &owned, error)))
                return FALSE;
              if (lr * weight_decay != 0 &&
                  (!(s_decay = gnn_optim_scalar (&scalars[SCALAR_DECAY], param, 1 - lr * weight_decay, error)) ||
                   !gnn_tensor_mul_ (param, s_decay, error)))
                return FALSE;
            }
          else if (!(d_p = gnn_optim_grad (param, grad, maximize, weight_decay, &owned, error)))
            return FALSE;

          /* exp_avg.mul_(beta1).add_(grad, alpha=1 - beta1)
           * exp_avg_sq.mul_(beta2).addcmul_(grad, grad, value=1 - beta2) */
          if (!(s_beta1 = gnn_optim_scalar (&scalars[SCALAR_BETA1], exp_avg, beta1, error)) ||
              !(s_beta2 = gnn_optim_scalar (&scalars[SCALAR_BETA2], exp_avg_sq, beta2, error)) ||
              !gnn_tensor_mul_ (exp_avg, s_beta1, error) ||
              !gnn_tensor_add_ (exp_avg, d_p, 1 - beta1, error) ||
              !gnn_tensor_mul_ (exp_avg_sq, s_beta2, error) ||
              !gnn_tensor_addcmul_ (exp_avg_sq, d_p, d_p, 1 - beta2, error))
            return FALSE;

          bias_correction1 = 1 - pow (beta1, step);
          bias_correction2 = 1 - pow (beta2, step);
          step_size = lr / bias_correction1;

          if (amsgrad && !gnn_tensor_maximum_ (max_exp_avg_sq, exp_avg_sq, error))
            return FALSE;
          /* denom = (v.sqrt() / bias_correction2_sqrt).add_(eps): one new tensor, divided
           * and shifted in place */
          if (!(denom = gnn_tensor_sqrt (amsgrad ? max_exp_avg_sq : exp_avg_sq, error)) ||
              !(s_bc2 = gnn_optim_scalar (&scalars[SCALAR_BIAS_CORRECTION2_SQRT], denom,
                                          sqrt (bias_correction2), error)) ||
              !(s_eps = gnn_optim_scalar (&scalars[SCALAR_EPS], denom, eps, error)) ||
              !gnn_tensor_div_ (denom, s_bc2, error) ||
              !gnn_tensor_add_ (denom, s_eps, 1.0, error) ||
              !gnn_tensor_addcdiv_ (param, exp_avg, denom, -step_size, error))
            return FALSE;
        }
    }
  return TRUE;
}

static void
adam_finalize (GObject *object)
{
  gnn_optim_scalars_clear (adam_scalars (object), N_SCALARS);
  G_OBJECT_CLASS (GNN_IS_ADAMW (object) ? gnn_adamw_parent_class
                                        : gnn_adam_parent_class)->finalize (object);
}

/* the class of an Adam or an AdamW: they differ only in the type, which adam_step reads, and
 * in the default weight decay */
/* what a parameter's state holds once stepped */
static const char *const *
adam_state_keys (GnnOptimizer  *optimizer,
                 GnnParamGroup *group)
{
  static const char *const keys[] = { "step", "exp_avg", "exp_avg_sq", NULL };
  static const char *const amsgrad_keys[] = { "step", "exp_avg", "exp_avg_sq", "max_exp_avg_sq", NULL };

  return gnn_param_group_get_boolean (group, "amsgrad") ? amsgrad_keys : keys;
}

static void
adam_class_setup (gpointer  klass,
                  GnnProp  *props,
                  double    weight_decay)
{
  GnnOptimizerClass *optimizer_class = GNN_OPTIMIZER_CLASS (klass);

  G_OBJECT_CLASS (klass)->finalize = adam_finalize;
  optimizer_class->step = adam_step;
  optimizer_class->check_group = adam_check_group;
  gnn_optim_class_set_state_keys (klass, adam_state_keys);
  props[PROP_LR] = gnn_optim_option_double ("lr", 1e-3);
  props[PROP_BETAS] = gnn_optim_option_betas (0.9, 0.999);
  props[PROP_EPS] = gnn_optim_option_double ("eps", 1e-8);
  props[PROP_WEIGHT_DECAY] = gnn_optim_option_double ("weight-decay", weight_decay);
  props[PROP_AMSGRAD] = gnn_optim_option_boolean ("amsgrad", FALSE);
  props[PROP_MAXIMIZE] = gnn_optim_option_boolean ("maximize", FALSE);
  gnn_optim_class_install_options (G_OBJECT_CLASS (klass), props, N_PROPS);
}

/**
 * GnnAdam:lr:
 *
 * The learning rate (`lr`), at least 0; PyTorch's default is 1e-3.
 */
/**
 * GnnAdam:betas:
 *
 * The decays of the running averages of the gradient and of its square (`betas`), a
 * #GVariant `(dd)`, each in [0, 1); PyTorch's default is (0.9, 0.999).
 */
/**
 * GnnAdam:eps:
 *
 * Added to the denominator (`eps`), at least 0; PyTorch's default is 1e-8.
 */
/**
 * GnnAdam:weight-decay:
 *
 * The L2 penalty, added to the gradient (`weight_decay`), at least 0.
 */
/**
 * GnnAdam:amsgrad:
 *
 * Whether to use the AMSGrad variant (`amsgrad`).
 */
/**
 * GnnAdam:maximize:
 *
 * Whether to maximize the objective instead of minimizing it (`maximize`).
 */
static void
gnn_adam_class_init (GnnAdamClass *klass)
{
  adam_class_setup (klass, adam_props, 0);
}

static void
gnn_adam_init (GnnAdam *self)
{
}

/**
 * GnnAdamW:lr:
 *
 * The learning rate (`lr`), as [property@Gnn.Adam:lr].
 */
/**
 * GnnAdamW:betas:
 *
 * The decays of the running averages (`betas`), as [property@Gnn.Adam:betas].
 */
/**
 * GnnAdamW:eps:
 *
 * Added to the denominator (`eps`), as [property@Gnn.Adam:eps].
 */
/**
 * GnnAdamW:weight-decay:
 *
 * The decoupled weight decay (`weight_decay`), at least 0; PyTorch's default is 1e-2.
 */
/**
 * GnnAdamW:amsgrad:
 *
 * Whether to use the AMSGrad variant (`amsgrad`).
 */
/**
 * GnnAdamW:maximize:
 *
 * Whether to maximize the objective instead of minimizing it (`maximize`).
 */
static void
gnn_adamw_class_init (GnnAdamWClass *klass)
{
  adam_class_setup (klass, adamw_props, 1e-2);
}

static void
gnn_adamw_init (GnnAdamW *self)
{
}

static gpointer
adam_new (GType          type,
          GnnParamGroup *params,
          double         lr,
          double         beta1,
          double         beta2,
          double         eps,
          double         weight_decay,
          gboolean       amsgrad,
          gboolean       maximize,
          GError       **error)
{
  g_autoptr(GListModel) list = gnn_optim_params_list (params);

  return g_initable_new (type, NULL, error, "params", list, "lr", lr,
                         "betas", g_variant_new ("(dd)", beta1, beta2), "eps", eps,
                         "weight-decay", weight_decay, "amsgrad", amsgrad, "maximize", maximize, NULL);
}

/**
 * gnn_adam_new: (constructor)
 * @params: (nullable): the parameters to optimize, as one group whose options, where set,
 *   override the defaults below; %NULL to add groups later with
 *   [method@Gnn.Optimizer.add_param_group]
 * @lr: the learning rate (PyTorch's default: 1e-3)
 * @beta1: the decay of the running average of the gradient (default: 0.9)
 * @beta2: the decay of the running average of its square (default: 0.999)
 * @eps: added to the denominator (default: 1e-8)
 * @weight_decay: the L2 penalty, added to the gradient (default: 0)
 * @amsgrad: whether to use the AMSGrad variant (default: %FALSE)
 * @maximize: whether to maximize the objective instead of minimizing it (default: %FALSE)
 * @error: return location for a #GError
 *
 * Creates an Adam optimizer (`torch.optim.Adam (params, lr, (beta1, beta2), eps,
 * weight_decay, amsgrad, maximize=maximize)`); the arguments become the defaults of its
 * groups, the betas as the option `betas` of type `(dd)`.
 *
 * Returns: (transfer full): the optimizer, or %NULL with @error set
 *   (%GNN_ERROR_INVALID_ARGUMENT, with PyTorch's messages, such as "Invalid beta parameter
 *   at index 0: 1.0")
 */
GnnAdam *
gnn_adam_new (GnnParamGroup *params,
              double         lr,
              double         beta1,
              double         beta2,
              double         eps,
              double         weight_decay,
              gboolean       amsgrad,
              gboolean       maximize,
              GError       **error)
{
  g_return_val_if_fail (params == NULL || GNN_IS_PARAM_GROUP (params), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);
  return adam_new (GNN_TYPE_ADAM, params, lr, beta1, beta2, eps, weight_decay, amsgrad, maximize,
                   error);
}

/**
 * gnn_adamw_new: (constructor)
 * @params: (nullable): the parameters to optimize, as one group whose options, where set,
 *   override the defaults below; %NULL to add groups later with
 *   [method@Gnn.Optimizer.add_param_group]
 * @lr: the learning rate (PyTorch's default: 1e-3)
 * @beta1: the decay of the running average of the gradient (default: 0.9)
 * @beta2: the decay of the running average of its square (default: 0.999)
 * @eps: added to the denominator (default: 1e-8)
 * @weight_decay: the decoupled weight decay (default: 1e-2)
 * @amsgrad: whether to use the AMSGrad variant (default: %FALSE)
 * @maximize: whether to maximize the objective instead of minimizing it (default: %FALSE)
 * @error: return location for a #GError
 *
 * Creates an AdamW optimizer (`torch.optim.AdamW (params, lr, (beta1, beta2), eps,
 * weight_decay, amsgrad, maximize=maximize)`); the arguments become the defaults of its
 * groups, the betas as the option `betas` of type `(dd)`.
 *
 * Returns: (transfer full): the optimizer, or %NULL with @error set
 *   (%GNN_ERROR_INVALID_ARGUMENT, with PyTorch's messages)
 */
GnnAdamW *
gnn_adamw_new (GnnParamGroup *params,
               double         lr,
               double         beta1,
               double         beta2,
               double         eps,
               double         weight_decay,
               gboolean       amsgrad,
               gboolean       maximize,
               GError       **error)
{
  g_return_val_if_fail (params == NULL || GNN_IS_PARAM_GROUP (params), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);
  return adam_new (GNN_TYPE_ADAMW, params, lr, beta1, beta2, eps, weight_decay, amsgrad, maximize,
                   error);
}
