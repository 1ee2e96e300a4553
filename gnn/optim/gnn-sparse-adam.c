/* gnn-sparse-adam.c: SparseAdam, as torch.optim.SparseAdam
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include "gnn-optim-private.h"

/**
 * GnnSparseAdam:
 *
 * The lazy Adam of sparse gradients (`torch.optim.SparseAdam`), with PyTorch 1.13's
 * options, defaults and checks. gnn's gradients are dense, and PyTorch's SparseAdam refuses
 * dense gradients: [method@Gnn.Optimizer.step] fails, as PyTorch raises, as soon as one of
 * the parameters has a gradient ("SparseAdam does not support dense gradients, please
 * consider Adam instead"), before it changes any state; with no gradient at all it does
 * nothing. Use [class@Gnn.Adam] on dense gradients.
 *
 * The options of each group are the doubles `lr` and `eps` (each greater than 0), the pair
 * `betas` (a #GVariant of type `(dd)`) and the flag `maximize`.
 *
 * Create one with [ctor@Gnn.SparseAdam.new], or from properties (see
 * [class@Gnn.Optimizer]).
 *
 * Since: 0.1
 */
struct _GnnSparseAdam
{
  GnnOptimizer parent_instance;
};

enum {
  PROP_0,
  PROP_LR,
  PROP_BETAS,
  PROP_EPS,
  PROP_MAXIMIZE,
  N_PROPS
};

static GnnProp props[N_PROPS];

G_DEFINE_FINAL_TYPE (GnnSparseAdam, gnn_sparse_adam, GNN_TYPE_OPTIMIZER)

/* PyTorch's checks in SparseAdam.__init__: lr and eps greater than 0 */
static gboolean
gnn_sparse_adam_check_group (GnnOptimizer  *optimizer,
                             GnnParamGroup *group,
                             GError       **error)
{
  double lr, eps, beta1, beta2;

  if (!gnn_optim_check_number (group, "lr", error) ||
      !gnn_optim_check_betas (group, error) ||
      !gnn_optim_check_number (group, "eps", error) ||
      !gnn_optim_check_flag (group, "maximize", error))
    return FALSE;
  lr = gnn_param_group_get_double (group, "lr");
  eps = gnn_param_group_get_double (group, "eps");
  gnn_optim_get_pair (group, "betas", &beta1, &beta2);
  if (!(0.0 < lr))
    return gnn_optim_invalid (error, "Invalid learning rate", lr);
  if (!(0.0 < eps))
    return gnn_optim_invalid (error, "Invalid epsilon value", eps);
  return gnn_optim_check_adam_values (lr, beta1, beta2, eps, 0, error);
}

/* PyTorch's SparseAdam.step: a dense gradient is a RuntimeError */
static gboolean
gnn_sparse_adam_step (GnnOptimizer *optimizer,
                      GError      **error)
{
  guint n_groups = gnn_optimizer_get_n_param_groups (optimizer);

  for (guint g = 0; g < n_groups; g++)
    {
      GnnParamGroup *group = gnn_optimizer_get_param_group (optimizer, g);
      guint n = gnn_param_group_get_n_params (group);

      for (guint i = 0; i < n; i++)
        if (gnn_tensor_get_grad (gnn_param_group_get_param (group, i)) != NULL)
          {
            g_set_error_literal (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED,
                                 "SparseAdam does not support dense gradients, please consider Adam instead");
            return FALSE;
          }
    }
  return TRUE;
}

static const char *const sparse_adam_state_keys[] = { "step", "exp_avg", "exp_avg_sq", NULL };

static void
gnn_sparse_adam_class_init (GnnSparseAdamClass *klass)
{
  GnnOptimizerClass *optimizer_class = GNN_OPTIMIZER_CLASS (klass);

  optimizer_class->step = gnn_sparse_adam_step;
  optimizer_class->check_group = gnn_sparse_adam_check_group;
  gnn_optim_class_set_fixed_state_keys (klass, sparse_adam_state_keys);

  /**
   * GnnSparseAdam:lr:
   *
   * The learning rate (`lr`), greater than 0; PyTorch's default is 1e-3.
   *
   * Since: 0.1
   */
  props[PROP_LR] = gnn_optim_option_double ("lr", 1e-3);
  /**
   * GnnSparseAdam:betas:
   *
   * The decays of the running averages (`betas`), a #GVariant `(dd)`, each in [0, 1);
   * PyTorch's default is (0.9, 0.999).
   *
   * Since: 0.1
   */
  props[PROP_BETAS] = gnn_optim_option_betas (0.9, 0.999);
  /**
   * GnnSparseAdam:eps:
   *
   * Added to the denominator (`eps`), greater than 0; PyTorch's default is 1e-8.
   *
   * Since: 0.1
   */
  props[PROP_EPS] = gnn_optim_option_double ("eps", 1e-8);
  /**
   * GnnSparseAdam:maximize:
   *
   * Whether to maximize the objective instead of minimizing it (`maximize`).
   *
   * Since: 0.1
   */
  props[PROP_MAXIMIZE] = gnn_optim_option_boolean ("maximize", FALSE);
  gnn_optim_class_install_options (G_OBJECT_CLASS (klass), props, N_PROPS);
}

static void
gnn_sparse_adam_init (GnnSparseAdam *self)
{
}

/**
 * gnn_sparse_adam_new: (constructor)
 * @params: (nullable): the parameters to optimize, as one group whose options, where set,
 *   override the defaults below; %NULL to add groups later with
 *   [method@Gnn.Optimizer.add_param_group]
 * @lr: the learning rate (PyTorch's default: 1e-3)
 * @beta1: the decay of the running average of the gradient (default: 0.9)
 * @beta2: the decay of the running average of its square (default: 0.999)
 * @eps: added to the denominator (default: 1e-8)
 * @maximize: whether to maximize the objective instead of minimizing it (default: %FALSE)
 * @error: return location for a #GError
 *
 * Creates a SparseAdam optimizer (`torch.optim.SparseAdam (params, lr, (beta1, beta2), eps,
 * maximize)`); its step refuses the dense gradients gnn has, as PyTorch's does (see
 * [class@Gnn.SparseAdam]).
 *
 * Returns: (transfer full): the optimizer, or %NULL with @error set
 *   (%GNN_ERROR_INVALID_ARGUMENT, with PyTorch's messages)
 *
 * Since: 0.1
 */
GnnSparseAdam *
gnn_sparse_adam_new (GnnParamGroup *params,
                     double         lr,
                     double         beta1,
                     double         beta2,
                     double         eps,
                     gboolean       maximize,
                     GError       **error)
{
  g_autoptr(GListModel) list = NULL;

  g_return_val_if_fail (params == NULL || GNN_IS_PARAM_GROUP (params), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);
  list = gnn_optim_params_list (params);
  return g_initable_new (GNN_TYPE_SPARSE_ADAM, NULL, error, "params", list, "lr", lr,
                         "betas", g_variant_new ("(dd)", beta1, beta2), "eps", eps,
                         "maximize", maximize, NULL);
}
