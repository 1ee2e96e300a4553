/* parametrized-net.c: a small network whose first layer is spectral-normalized and whose
 * hidden layer is kept orthogonal by parametrizations, trained with SGD; after training it
 * measures, independently of the parametrizations, the largest singular value of the first
 * weight (about 1) and how far the hidden weight is from orthogonal (float32 rounding).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The PyTorch program this follows:
 *
 *   from torch.nn.utils import parametrizations as P
 *   g = torch.Generator ().manual_seed (42)
 *   x = torch.randn (64, 4, generator=g); w = torch.randn (3, 4, generator=g)
 *   y = torch.tanh (x @ w.T) + 0.1 * torch.randn (64, 3, generator=g)
 *   torch.manual_seed (0)
 *   model = nn.Sequential (P.spectral_norm (nn.Linear (4, 16)), nn.Tanh (),
 *                          P.orthogonal (nn.Linear (16, 16)), nn.Tanh (), nn.Linear (16, 3))
 *   opt = SGD (model.parameters (), lr=0.05, momentum=0.9)
 *   for step in range (steps):
 *       opt.zero_grad (); loss = F.mse_loss (model (x), y); loss.backward (); opt.step ()
 *   sigma_lagged = torch.linalg.matrix_norm (model[0].weight, 2)
 *   with torch.no_grad ():
 *       for i in range (100): model (x)     # the power iteration catches up
 *   model.eval ()
 *   sigma_max = torch.linalg.matrix_norm (model[0].weight, 2)
 *   orth_error = (model[2].weight.T @ model[2].weight - torch.eye (16)).abs ().max ()
 *
 * It prints one line:
 *
 *   steps N loss0 L0 loss L sigma_lagged S0 sigma_max S orth_error E
 *
 * with every float as printf's %.9g, and exits with status 1 unless the loss fell,
 * 1 <= S0 < 1.2 (σ̂ ≤ σ always, so W / σ̂ never has σ below 1), |S - 1| < 1e-4 and E < 1e-5.
 * Options: --steps N (default 200; the test suite runs 40).
 *
 * Build tree: ./build/examples/parametrized-net
 */
#include <gnn/gnn.h>
#include <math.h>
#include <stdlib.h>

#define N_SAMPLES 64
#define N_IN 4
#define N_HIDDEN 16
#define N_OUT 3
#define CATCH_UP 100  /* power iteration steps after training, before measuring */

/* the largest singular value of the rows × cols matrix @w (row-major), in double: the square
 * root of the largest eigenvalue of wᵀw, by power iteration from a vector of ones */
static double
largest_singular_value (const double *w, int rows, int cols)
{
  g_autofree double *v = g_new (double, cols);
  g_autofree double *u = g_new (double, rows);
  double sigma = 0.0;

  for (int j = 0; j < cols; j++)
    v[j] = 1.0;
  for (int it = 0; it < 1000; it++)
    {
      double norm = 0.0;

      for (int i = 0; i < rows; i++)
        {
          u[i] = 0.0;
          for (int j = 0; j < cols; j++)
            u[i] += w[i * cols + j] * v[j];
        }
      for (int j = 0; j < cols; j++)
        {
          v[j] = 0.0;
          for (int i = 0; i < rows; i++)
            v[j] += w[i * cols + j] * u[i];
          norm += v[j] * v[j];
        }
      norm = sqrt (norm);
      sigma = sqrt (norm);   /* ‖wᵀw v‖ → σ² for a unit v */
      for (int j = 0; j < cols; j++)
        v[j] /= norm;
    }
  return sigma;
}

/* max |wᵀw - I| for the n × n matrix @w (row-major), in double */
static double
orthogonality_error (const double *w, int n)
{
  double err = 0.0;

  for (int a = 0; a < n; a++)
    for (int b = 0; b < n; b++)
      {
        double dot = 0.0;

        for (int i = 0; i < n; i++)
          dot += w[i * n + a] * w[i * n + b];
        err = MAX (err, fabs (dot - (a == b ? 1.0 : 0.0)));
      }
  return err;
}

/* one step: zero_grad, forward, MSE loss, backward, SGD step; returns the loss */
static double
train_step (GnnModule     *model,
            GnnOptimizer  *opt,
            GnnTensor     *x,
            GnnTensor     *y,
            GError       **error)
{
  g_autoptr(GnnTensor) out = NULL;
  g_autoptr(GnnTensor) loss = NULL;

  gnn_optimizer_zero_grad (opt, TRUE);
  out = gnn_module_forward_tensor (model, x, error);
  loss = out ? gnn_tensor_mse_loss (out, y, GNN_REDUCTION_MEAN, error) : NULL;
  if (loss == NULL || !gnn_tensor_backward (loss, NULL, FALSE, error) ||
      !gnn_optimizer_step (opt, error))
    return NAN;
  return gnn_tensor_item (loss, error);
}

/* the values of @module's (parametrized) tensor @name, as doubles */
static double *
read_weight (GnnModule *module, const char *name, GError **error)
{
  g_autoptr(GnnNoGradGuard) guard = gnn_no_grad_guard_new ();
  g_autoptr(GnnTensor) w = gnn_module_get_tensor (module, name, error);

  return w ? gnn_tensor_to_doubles (w, NULL, error) : NULL;
}

static gboolean
run (int steps, GError **error)
{
  g_autoptr(GnnGenerator) gen = gnn_generator_new (42);
  g_autoptr(GnnTensor) x = NULL, w = NULL, noise = NULL, wt = NULL, xw = NULL, t = NULL, y = NULL;
  g_autoptr(GnnLinear) fc1 = NULL, fc2 = NULL, fc3 = NULL;
  g_autoptr(GnnTanh) act1 = gnn_tanh_new (), act2 = gnn_tanh_new ();
  g_autoptr(GnnSequential) model = NULL;
  g_autoptr(GnnParamGroup) params = NULL;
  g_autoptr(GnnOptimizer) opt = NULL;
  g_autofree double *w1 = NULL, *w2 = NULL;
  double loss0 = NAN, loss_final = NAN, sigma_lagged, sigma_max, orth_error;

  /* the data: y = tanh (x @ w.T) + 0.1 * noise */
  x = gnn_tensor_new_randn ((gint64[]) { N_SAMPLES, N_IN }, 2, gen, GNN_DTYPE_FLOAT32, NULL, error);
  w = x ? gnn_tensor_new_randn ((gint64[]) { N_OUT, N_IN }, 2, gen, GNN_DTYPE_FLOAT32, NULL, error) : NULL;
  noise = w ? gnn_tensor_new_randn ((gint64[]) { N_SAMPLES, N_OUT }, 2, gen, GNN_DTYPE_FLOAT32, NULL, error) : NULL;
  wt = noise ? gnn_tensor_t (w, error) : NULL;
  xw = wt ? gnn_tensor_matmul (x, wt, error) : NULL;
  t = xw ? gnn_tensor_tanh (xw, error) : NULL;
  y = t ? gnn_tensor_add (t, noise, 0.1, error) : NULL;
  if (y == NULL)
    return FALSE;

  /* the model: spectral_norm on the first weight, orthogonal (matrix_exp) on the hidden one */
  gnn_manual_seed (0);
  if (!(fc1 = gnn_linear_new (N_IN, N_HIDDEN, TRUE, error)) ||
      !(fc2 = gnn_linear_new (N_HIDDEN, N_HIDDEN, TRUE, error)) ||
      !(fc3 = gnn_linear_new (N_HIDDEN, N_OUT, TRUE, error)) ||
      !gnn_spectral_norm (GNN_MODULE (fc1), "weight", 1, 1e-12,
                          gnn_spectral_norm_default_dim (GNN_MODULE (fc1)), error) ||
      !gnn_orthogonal (GNN_MODULE (fc2), "weight", NULL, TRUE, error))
    return FALSE;
  model = gnn_sequential_new ((GnnModule *[]) { GNN_MODULE (fc1), GNN_MODULE (act1), GNN_MODULE (fc2),
                                                GNN_MODULE (act2), GNN_MODULE (fc3) }, 5);
  params = gnn_param_group_new_from_module (GNN_MODULE (model));
  opt = GNN_OPTIMIZER (gnn_sgd_new (params, 0.05, 0.9, 0.0, 0.0, FALSE, FALSE, error));
  if (opt == NULL)
    return FALSE;

  for (int step = 0; step < steps; step++)
    {
      double loss = train_step (GNN_MODULE (model), opt, x, y, error);

      if (isnan (loss))
        return FALSE;
      if (step == 0)
        loss0 = loss;
    }

  /* spectral_norm estimates σ with one power iteration step per training forward, so the
   * estimate lags behind a weight that moves: right after training σ of the weight read is a
   * few percent above 1 (in torch too). Forwards in training mode without gradients let the
   * estimate catch up; then eval, where the weights read without a power iteration step. */
  sigma_lagged = NAN;
  if (!(w1 = read_weight (GNN_MODULE (fc1), "weight", error)))
    return FALSE;
  sigma_lagged = largest_singular_value (w1, N_HIDDEN, N_IN);
  g_clear_pointer (&w1, g_free);
  {
    g_autoptr(GnnNoGradGuard) guard = gnn_no_grad_guard_new ();

    for (int i = 0; i < CATCH_UP; i++)
      {
        g_autoptr(GnnTensor) out = gnn_module_forward_tensor (GNN_MODULE (model), x, error);
        if (out == NULL)
          return FALSE;
      }
  }
  gnn_module_eval (GNN_MODULE (model));
  {
    g_autoptr(GnnNoGradGuard) guard = gnn_no_grad_guard_new ();
    g_autoptr(GnnTensor) out = gnn_module_forward_tensor (GNN_MODULE (model), x, error);
    g_autoptr(GnnTensor) loss = out ? gnn_tensor_mse_loss (out, y, GNN_REDUCTION_MEAN, error) : NULL;

    if (loss == NULL || isnan (loss_final = gnn_tensor_item (loss, error)))
      return FALSE;
  }
  if (!(w1 = read_weight (GNN_MODULE (fc1), "weight", error)) ||
      !(w2 = read_weight (GNN_MODULE (fc2), "weight", error)))
    return FALSE;
  sigma_max = largest_singular_value (w1, N_HIDDEN, N_IN);
  orth_error = orthogonality_error (w2, N_HIDDEN);

  g_print ("steps %d loss0 %.9g loss %.9g sigma_lagged %.9g sigma_max %.9g orth_error %.9g\n",
           steps, loss0, loss_final, sigma_lagged, sigma_max, orth_error);

  if (!(loss_final < loss0) || !(sigma_lagged >= 1.0 - 1e-5 && sigma_lagged < 1.2) ||
      !(fabs (sigma_max - 1.0) < 1e-4) || !(orth_error < 1e-5))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_FAILED,
                   "expected a lower loss, a largest singular value in [1, 1.2) right after "
                   "training and within 1e-4 of 1 after the power iteration caught up, and an "
                   "orthogonality error below 1e-5; found loss %g -> %g, sigma_lagged %.9g, "
                   "sigma_max %.9g, orth_error %g", loss0, loss_final, sigma_lagged, sigma_max,
                   orth_error);
      return FALSE;
    }
  return TRUE;
}

int
main (int    argc,
      char **argv)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GOptionContext) context = g_option_context_new ("- train a spectral-norm and orthogonal network");
  int steps = 200;
  GOptionEntry entries[] = {
    { "steps", 0, 0, G_OPTION_ARG_INT, &steps, "training steps (default 200)", "N" },
    { NULL }
  };

  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error) || steps < 1)
    {
      g_printerr ("parametrized-net: %s\n", error ? error->message : "--steps must be at least 1");
      return EXIT_FAILURE;
    }
  if (!run (steps, &error))
    {
      g_printerr ("parametrized-net: %s\n", error ? error->message : "a computation gave NaN");
      return EXIT_FAILURE;
    }
  return EXIT_SUCCESS;
}
