/* gnn-rprop.c: Rprop, as torch.optim.Rprop
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include "gnn-optim-private.h"
#include "nn/gnn-module-private.h"

/**
 * GnnRprop:
 *
 * The resilient backpropagation algorithm (`torch.optim.Rprop`), with PyTorch's semantics
 * and defaults. For each parameter with a gradient `g`, elementwise:
 *
 * ```
 * g = -g if maximize
 * s = sign (g * prev)
 * factor = etaplus where s > 0, etaminus where s < 0, 1 where s == 0
 * step_size = clamp (step_size * factor, step_size_min, step_size_max)
 * g = 0 where s < 0
 * param = param - sign (g) * step_size
 * prev = g
 * ```
 *
 * The options of each group are the double `lr` (the first step size), the pairs `etas`
 * (etaminus, etaplus) and `step_sizes` (the least and the greatest step size), each a
 * #GVariant of type `(dd)`, and the flag `maximize`. The state of a parameter is `step` (a
 * double; PyTorch counts in an integer), `prev` and `step_size` (filled with the group's
 * `lr` at the first step).
 *
 * Create one with [ctor@Gnn.Rprop.new], or from properties (see [class@Gnn.Optimizer]).
 *
 * Since: 0.1
 */
struct _GnnRprop
{
  GnnOptimizer parent_instance;
};

enum {
  PROP_0,
  PROP_LR,
  PROP_ETAS,
  PROP_STEP_SIZES,
  PROP_MAXIMIZE,
  N_PROPS
};

static GnnProp props[N_PROPS];

G_DEFINE_FINAL_TYPE (GnnRprop, gnn_rprop, GNN_TYPE_OPTIMIZER)

/* PyTorch's checks in Rprop.__init__ */
static gboolean
gnn_rprop_check_group (GnnOptimizer  *optimizer,
                       GnnParamGroup *group,
                       GError       **error)
{
  double lr, etaminus, etaplus;

  if (!gnn_optim_check_number (group, "lr", error) ||
      !gnn_optim_check_pair (group, "etas", error) ||
      !gnn_optim_check_pair (group, "step_sizes", error) ||
      !gnn_optim_check_flag (group, "maximize", error))
    return FALSE;
  lr = gnn_param_group_get_double (group, "lr");
  if (!(0.0 <= lr))
    return gnn_optim_invalid (error, "Invalid learning rate", lr);
  gnn_optim_get_pair (group, "etas", &etaminus, &etaplus);
  if (!(0.0 < etaminus && etaminus < 1.0 && 1.0 < etaplus))
    {
      g_autofree char *minus = gnn_python_float_repr (etaminus);
      g_autofree char *plus = gnn_python_float_repr (etaplus);

      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT, "Invalid eta values: %s, %s",
                   minus, plus);
      return FALSE;
    }
  return TRUE;
}

/* PyTorch's _single_tensor_rprop, operation by operation */
static gboolean
gnn_rprop_step (GnnOptimizer *optimizer,
                GError      **error)
{
  guint n_groups = gnn_optimizer_get_n_param_groups (optimizer);

  for (guint g = 0; g < n_groups; g++)
    {
      GnnParamGroup *group = gnn_optimizer_get_param_group (optimizer, g);
      double lr = gnn_param_group_get_double (group, "lr");
      gboolean maximize = gnn_param_group_get_boolean (group, "maximize");
      guint n = gnn_param_group_get_n_params (group);
      double etaminus, etaplus, step_size_min, step_size_max;

      gnn_optim_get_pair (group, "etas", &etaminus, &etaplus);
      gnn_optim_get_pair (group, "step_sizes", &step_size_min, &step_size_max);
      for (guint i = 0; i < n; i++)
        {
          GnnTensor *param = gnn_param_group_get_param (group, i);
          GnnTensor *grad = gnn_tensor_get_grad (param);
          GnnStateDict *state;
          GnnTensor *prev, *step_size;
          g_autoptr(GnnTensor) d_p = NULL;
          g_autoptr(GnnTensor) product = NULL;
          g_autoptr(GnnTensor) sign = NULL;
          g_autoptr(GnnTensor) sign_plus = NULL;
          g_autoptr(GnnTensor) sign_minus = NULL;
          g_autoptr(GnnTensor) factor = NULL;
          g_autoptr(GnnTensor) positive = NULL;
          g_autoptr(GnnTensor) negative = NULL;
          g_autoptr(GnnTensor) zero = NULL;
          g_autoptr(GnnTensor) clamped = NULL;
          g_autoptr(GnnTensor) kept = NULL;
          g_autoptr(GnnTensor) direction = NULL;
          gboolean owned;

          if (grad == NULL)
            continue;
          state = gnn_optim_param_state (optimizer, param);
          if (!(prev = gnn_optim_state_ensure (state, "prev", param, 0.0, error)) ||
              !(step_size = gnn_optim_state_ensure (state, "step_size", param, lr, error)))
            return FALSE;
          gnn_optim_count_step (state);

          if (!(d_p = gnn_optim_grad (param, grad, maximize, 0, &owned, error)))
            return FALSE;
          /* sign = grad.mul(prev).sign()
           * sign[sign.gt(0)] = etaplus; sign[sign.lt(0)] = etaminus; sign[sign.eq(0)] = 1
           * (each mask read after the fills before it, as PyTorch reads them) */
          if (!(product = gnn_tensor_mul (d_p, prev, error)) ||
              !(sign = gnn_tensor_sign (product, error)) ||
              !(positive = gnn_tensor_gt_scalar (sign, 0, error)) ||
              !(sign_plus = gnn_tensor_masked_fill (sign, positive, etaplus, error)) ||
              !(negative = gnn_tensor_lt_scalar (sign_plus, 0, error)) ||
              !(sign_minus = gnn_tensor_masked_fill (sign_plus, negative, etaminus, error)) ||
              !(zero = gnn_tensor_eq_scalar (sign_minus, 0, error)) ||
              !(factor = gnn_tensor_masked_fill (sign_minus, zero, 1, error)))
            return FALSE;
          /* step_size.mul_(sign).clamp_(step_size_min, step_size_max) */
          if (!gnn_tensor_mul_ (step_size, factor, error) ||
              !(clamped = gnn_tensor_clamp (step_size, step_size_min, step_size_max, error)) ||
              !gnn_tensor_copy_ (step_size, clamped, error))
            return FALSE;
          /* grad = grad.clone(); grad[sign.eq(etaminus)] = 0: the entries where the sign was
           * negative, as etaminus is neither etaplus nor 1
           * param.addcmul_(grad.sign(), step_size, value=-1); prev.copy_(grad) */
          if (!(kept = gnn_tensor_masked_fill (d_p, negative, 0, error)) ||
              !(direction = gnn_tensor_sign (kept, error)) ||
              !gnn_tensor_addcmul_ (param, direction, step_size, -1, error) ||
              !gnn_tensor_copy_ (prev, kept, error))
            return FALSE;
        }
    }
  return TRUE;
}

static const char *const rprop_state_keys[] = { "step", "prev", "step_size", NULL };

static void
gnn_rprop_class_init (GnnRpropClass *klass)
{
  GnnOptimizerClass *optimizer_class = GNN_OPTIMIZER_CLASS (klass);

  optimizer_class->step = gnn_rprop_step;
  optimizer_class->check_group = gnn_rprop_check_group;
  gnn_optim_class_set_fixed_state_keys (klass, rprop_state_keys);

  /**
   * GnnRprop:lr:
   *
   * The first step size of every element (`lr`), at least 0; PyTorch's default is 1e-2.
   *
   * Since: 0.1
   */
  props[PROP_LR] = gnn_optim_option_double ("lr", 1e-2);
  /**
   * GnnRprop:etas:
   *
   * The factors that shrink and grow a step size (`etas`: etaminus, etaplus), a #GVariant
   * `(dd)` with 0 < etaminus < 1 < etaplus; PyTorch's default is (0.5, 1.2).
   *
   * Since: 0.1
   */
  props[PROP_ETAS] = gnn_optim_option_pair ("etas", 0.5, 1.2);
  /**
   * GnnRprop:step-sizes:
   *
   * The least and the greatest step size (`step_sizes`), a #GVariant `(dd)`; PyTorch's
   * default is (1e-6, 50).
   *
   * Since: 0.1
   */
  props[PROP_STEP_SIZES] = gnn_optim_option_pair ("step-sizes", 1e-6, 50);
  /**
   * GnnRprop:maximize:
   *
   * Whether to maximize the objective instead of minimizing it (`maximize`).
   *
   * Since: 0.1
   */
  props[PROP_MAXIMIZE] = gnn_optim_option_boolean ("maximize", FALSE);
  gnn_optim_class_install_options (G_OBJECT_CLASS (klass), props, N_PROPS);
}

static void
gnn_rprop_init (GnnRprop *self)
{
}

/**
 * gnn_rprop_new: (constructor)
 * @params: (nullable): the parameters to optimize, as one group whose options, where set,
 *   override the defaults below; %NULL to add groups later with
 *   [method@Gnn.Optimizer.add_param_group]
 * @lr: the first step size (PyTorch's default: 1e-2)
 * @etaminus: the factor that shrinks a step size (default: 0.5)
 * @etaplus: the factor that grows a step size (default: 1.2)
 * @step_size_min: the least step size (default: 1e-6)
 * @step_size_max: the greatest step size (default: 50)
 * @maximize: whether to maximize the objective instead of minimizing it (default: %FALSE)
 * @error: return location for a #GError
 *
 * Creates an Rprop optimizer (`torch.optim.Rprop (params, lr, (etaminus, etaplus),
 * (step_size_min, step_size_max), maximize=maximize)`); the arguments become the defaults
 * of its groups, the pairs as the options `etas` and `step_sizes` of type `(dd)`.
 *
 * Returns: (transfer full): the optimizer, or %NULL with @error set
 *   (%GNN_ERROR_INVALID_ARGUMENT, with PyTorch's messages, such as "Invalid eta values: 1.5,
 *   1.2")
 *
 * Since: 0.1
 */
GnnRprop *
gnn_rprop_new (GnnParamGroup *params,
               double         lr,
               double         etaminus,
               double         etaplus,
               double         step_size_min,
               double         step_size_max,
               gboolean       maximize,
               GError       **error)
{
  g_autoptr(GListModel) list = NULL;

  g_return_val_if_fail (params == NULL || GNN_IS_PARAM_GROUP (params), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);
  list = gnn_optim_params_list (params);
  return g_initable_new (GNN_TYPE_RPROP, NULL, error, "params", list, "lr", lr,
                         "etas", g_variant_new ("(dd)", etaminus, etaplus),
                         "step-sizes", g_variant_new ("(dd)", step_size_min, step_size_max),
                         "maximize", maximize, NULL);
}
