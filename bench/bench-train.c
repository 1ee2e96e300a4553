/* bench-train.c: training throughput of small models, for bench/bench_train_torch.py
 *
 *  - mlp: a 784-512-256-10 ReLU MLP, cross-entropy, SGD (momentum 0.9), batch 128, one pass
 *    over Fashion-MNIST's 60000 training images (random images of the same shape when the data
 *    is not installed): samples/s;
 *  - mlp_ema: the same with an EMA AveragedModel (decay 0.999) updated after every step;
 *  - cnn: conv(1,32,3)-relu-maxpool2-conv(32,64,3)-relu-maxpool2-linear(1600,128)-relu-
 *    linear(128,10), batch 64, --cnn-batches batches (default 200): samples/s;
 *  - tiny: Linear(16,16)-ReLU-Linear(16,4), batch 1, MSE, forward + backward + SGD step,
 *    repeated for about --min-time seconds: steps/s;
 *  - gemm: gnn_tensor_matmul of two 2048 x 2048 float32 matrices: GFLOP/s (2·n³ per product),
 *    the best of --gemm-reps products;
 *  - ema_10m: one EMA update (GnnAveragedModel with new_ema_multi (0.999), the fused kernel)
 *    of 10 Linear (1000, 1000) layers, 10.01M parameters, as bench-ema.c measures it alone:
 *    ms per update, the median of --ema-reps.
 *
 * Each starts with a few untimed warm-up steps. Output lines are `name<TAB>value<TAB>unit`;
 * lines starting with '#' are comments.
 *
 * Usage: bench-train [--threads N] [--min-time S] [--cnn-batches N] [--gemm-reps N] [--ema-reps N]
 *                    [--quick] [--data-dir DIR]
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>

#include <gnn/gnn.h>

#include "bench-util.h"

#define N_TRAIN 60000

static void
die (const char *what,
     GError     *error)
{
  g_printerr ("bench-train: %s: %s\n", what, error ? error->message : "failed");
  exit (1);
}

/* (N, 784) float32 images normalized as gnn-train does, and (N) int64 labels */
static void
load_data (const char  *dir,
           GnnTensor  **images,
           GnnTensor  **labels)
{
  g_autofree char *img = g_build_filename (dir, "train-images-idx3-ubyte.gz", NULL);
  g_autofree char *lab = g_build_filename (dir, "train-labels-idx1-ubyte.gz", NULL);
  GError *error = NULL;

  if (g_file_test (img, G_FILE_TEST_IS_REGULAR) && g_file_test (lab, G_FILE_TEST_IS_REGULAR))
    {
      g_autoptr(GnnTensorDataset) ds = gnn_tensor_dataset_new_idx (img, lab, &error);
      g_autoptr(GnnNormalize) norm = NULL;
      g_autoptr(GnnTensor) x = NULL;
      const double mean = 0.2860, std = 0.3530;

      if (ds == NULL ||
          (norm = gnn_normalize_new (&mean, &std, 1, 1.0 / 255, &error)) == NULL ||
          (x = gnn_normalize_apply (norm, gnn_tensor_dataset_get_tensor (ds, 0), &error)) == NULL ||
          (*images = gnn_tensor_reshape (x, (gint64[]) { N_TRAIN, 784 }, 2, &error)) == NULL)
        die ("loading Fashion-MNIST", error);
      *labels = g_object_ref (gnn_tensor_dataset_get_tensor (ds, 1));
      printf ("# data: Fashion-MNIST from %s\n", dir);
    }
  else
    {
      g_autoptr(GnnGenerator) gen = gnn_generator_new (0);
      g_autoptr(GnnTensor) u = NULL;
      g_autoptr(GnnTensor) scaled = NULL;
      g_autofree gint64 *y = g_new (gint64, N_TRAIN);

      if ((*images = gnn_tensor_new_randn ((gint64[]) { N_TRAIN, 784 }, 2, gen, GNN_DTYPE_FLOAT32,
                                           NULL, &error)) == NULL)
        die ("random images", error);
      for (int i = 0; i < N_TRAIN; i++)
        y[i] = (i * 7919) % 10;
      if ((*labels = gnn_tensor_new_from_int64s (y, N_TRAIN, (gint64[]) { N_TRAIN }, 1, &error)) == NULL)
        die ("labels", error);
      printf ("# data: random (Fashion-MNIST not found in %s)\n", dir);
    }
}

static GnnModule *
sequential (GnnModule **layers,
            guint       n)
{
  GnnModule *model = GNN_MODULE (gnn_sequential_new (layers, n));

  for (guint i = 0; i < n; i++)
    g_object_unref (layers[i]);
  return model;
}

static GnnModule *
make_mlp (void)
{
  GError *error = NULL;
  GnnModule *layers[5];

  if ((layers[0] = GNN_MODULE (gnn_linear_new (784, 512, TRUE, &error))) == NULL ||
      (layers[2] = GNN_MODULE (gnn_linear_new (512, 256, TRUE, &error))) == NULL ||
      (layers[4] = GNN_MODULE (gnn_linear_new (256, 10, TRUE, &error))) == NULL)
    die ("mlp", error);
  layers[1] = GNN_MODULE (gnn_relu_new ());
  layers[3] = GNN_MODULE (gnn_relu_new ());
  return sequential (layers, 5);
}

static GnnModule *
make_cnn (void)
{
  const gint64 k3[2] = { 3, 3 }, k2[2] = { 2, 2 };
  GError *error = NULL;
  GnnModule *layers[10];

  if ((layers[0] = GNN_MODULE (gnn_conv2d_new (1, 32, k3, NULL, NULL, NULL, 1, TRUE, GNN_DTYPE_FLOAT32,
                                               &error))) == NULL ||
      (layers[3] = GNN_MODULE (gnn_conv2d_new (32, 64, k3, NULL, NULL, NULL, 1, TRUE, GNN_DTYPE_FLOAT32,
                                               &error))) == NULL ||
      (layers[7] = GNN_MODULE (gnn_linear_new (1600, 128, TRUE, &error))) == NULL ||
      (layers[9] = GNN_MODULE (gnn_linear_new (128, 10, TRUE, &error))) == NULL)
    die ("cnn", error);
  layers[1] = GNN_MODULE (gnn_relu_new ());
  layers[2] = GNN_MODULE (gnn_max_pool2d_new (k2, NULL, NULL, NULL, FALSE));
  layers[4] = GNN_MODULE (gnn_relu_new ());
  layers[5] = GNN_MODULE (gnn_max_pool2d_new (k2, NULL, NULL, NULL, FALSE));
  layers[6] = GNN_MODULE (gnn_flatten_new (1, -1));
  layers[8] = GNN_MODULE (gnn_relu_new ());
  return sequential (layers, 10);
}

static GnnOptimizer *
make_sgd (GnnModule *model,
          double     lr,
          double     momentum)
{
  g_autoptr(GnnParamGroup) params = gnn_param_group_new_from_module (model);
  GError *error = NULL;
  GnnOptimizer *opt = GNN_OPTIMIZER (gnn_sgd_new (params, lr, momentum, 0, 0, FALSE, FALSE, &error));

  if (opt == NULL)
    die ("sgd", error);
  return opt;
}

/* one step: zero_grad, forward, cross-entropy (or MSE with @mse), backward, step, EMA */
static void
step (GnnModule        *model,
      GnnOptimizer     *opt,
      GnnAveragedModel *ema,
      GnnTensor        *x,
      GnnTensor        *y,
      gboolean          mse)
{
  g_autoptr(GnnTensor) out = NULL;
  g_autoptr(GnnTensor) loss = NULL;
  GError *error = NULL;

  gnn_optimizer_zero_grad (opt, TRUE);
  if ((out = gnn_module_forward_tensor (model, x, &error)) == NULL ||
      (loss = mse ? gnn_tensor_mse_loss (out, y, GNN_REDUCTION_MEAN, &error)
                  : gnn_tensor_cross_entropy (out, y, NULL, -100, GNN_REDUCTION_MEAN, 0.0, &error)) == NULL ||
      !gnn_tensor_backward (loss, NULL, FALSE, &error) ||
      !gnn_optimizer_step (opt, &error) ||
      (ema && !gnn_averaged_model_update_parameters (ema, model, &error)))
    die ("training step", error);
}

/* samples/s of @n_batches batches of @batch rows of @images (reshaped to @shape) */
static double
run_batches (GnnModule        *model,
             GnnOptimizer     *opt,
             GnnAveragedModel *ema,
             GnnTensor        *images,
             GnnTensor        *labels,
             const gint64     *shape,
             guint             ndim,
             int               batch,
             int               n_batches)
{
  GError *error = NULL;
  gint64 t0 = 0, samples = 0;
  const int warmup = 3;

  for (int b = -warmup; b < n_batches; b++)
    {
      gint64 start = ((gint64) (b < 0 ? b + warmup : b) * batch) % N_TRAIN;
      gint64 len = MIN (batch, N_TRAIN - start);
      g_autoptr(GnnTensor) flat = NULL;
      g_autoptr(GnnTensor) x = NULL;
      g_autoptr(GnnTensor) y = NULL;
      gint64 s[4];

      memcpy (s, shape, ndim * sizeof (gint64));
      s[0] = len;
      if (b == 0)
        t0 = g_get_monotonic_time ();
      if ((flat = gnn_tensor_narrow (images, 0, start, len, &error)) == NULL ||
          (x = gnn_tensor_reshape (flat, s, ndim, &error)) == NULL ||
          (y = gnn_tensor_narrow (labels, 0, start, len, &error)) == NULL)
        die ("batch", error);
      step (model, opt, ema, x, y, FALSE);
      if (b >= 0)
        samples += len;
    }
  return samples / ((g_get_monotonic_time () - t0) / 1e6);
}

/* GFLOP/s of the best of @reps products of two n x n float32 matrices */
static double
bench_gemm (int n,
            int reps)
{
  g_autoptr(GnnGenerator) gen = gnn_generator_new (3);
  g_autoptr(GnnTensor) a = NULL;
  g_autoptr(GnnTensor) b = NULL;
  GError *error = NULL;
  double best = INFINITY;

  if ((a = gnn_tensor_new_randn ((gint64[]) { n, n }, 2, gen, GNN_DTYPE_FLOAT32, NULL, &error)) == NULL ||
      (b = gnn_tensor_new_randn ((gint64[]) { n, n }, 2, gen, GNN_DTYPE_FLOAT32, NULL, &error)) == NULL)
    die ("gemm inputs", error);
  for (int r = -1; r < reps; r++)          /* one untimed product first */
    {
      gint64 t0 = g_get_monotonic_time ();
      g_autoptr(GnnTensor) c = gnn_tensor_matmul (a, b, &error);

      if (c == NULL)
        die ("gemm", error);
      if (r >= 0)
        best = MIN (best, (g_get_monotonic_time () - t0) / 1e6);
    }
  return 2.0 * n * n * (double) n / best / 1e9;
}

/* ms of one EMA update of 10 Linear (1000, 1000) layers: the median of @reps */
static double
bench_ema_10m (int reps)
{
  g_autoptr(GnnSequential) model = gnn_sequential_new (NULL, 0);
  g_autoptr(GnnAverageFunction) fn = NULL;
  g_autoptr(GnnAveragedModel) avg = NULL;
  g_autofree double *t = g_new (double, reps);
  GError *error = NULL;

  for (int l = 0; l < 10; l++)
    {
      g_autoptr(GnnLinear) lin = gnn_linear_new (1000, 1000, TRUE, &error);
      if (lin == NULL)
        die ("ema model", error);
      gnn_sequential_append (model, GNN_MODULE (lin));
    }
  if ((fn = gnn_average_function_new_ema_multi (0.999, &error)) == NULL ||
      (avg = gnn_averaged_model_new (GNN_MODULE (model), NULL, NULL, fn, FALSE, &error)) == NULL)
    die ("ema", error);
  /* the first update copies; the second is untimed warm-up */
  for (int r = -2; r < reps; r++)
    {
      gint64 t0 = g_get_monotonic_time ();

      if (!gnn_averaged_model_update_parameters (avg, GNN_MODULE (model), &error))
        die ("ema update", error);
      if (r >= 0)
        t[r] = (g_get_monotonic_time () - t0) / 1e3;
    }
  qsort (t, reps, sizeof (double), bench_cmp_double);
  return t[reps / 2];
}

int
main (int    argc,
      char **argv)
{
  int threads = 2, cnn_batches = 200, gemm_reps = 10, ema_reps = 30;
  double min_time = 2.0;
  gboolean quick = FALSE;
  char *data_dir = NULL;
  const GOptionEntry entries[] = {
    { "threads", 0, 0, G_OPTION_ARG_INT, &threads, "Compute threads (default 2)", "N" },
    { "min-time", 0, 0, G_OPTION_ARG_DOUBLE, &min_time, "Seconds of the tiny benchmark (default 2)", "S" },
    { "cnn-batches", 0, 0, G_OPTION_ARG_INT, &cnn_batches, "Batches of the CNN benchmark (default 200)", "N" },
    { "quick", 0, 0, G_OPTION_ARG_NONE, &quick, "A quarter of the MLP pass, 50 CNN batches, 0.5 s tiny", NULL },
    { "gemm-reps", 0, 0, G_OPTION_ARG_INT, &gemm_reps, "Timed 2048² products (default 10)", "N" },
    { "ema-reps", 0, 0, G_OPTION_ARG_INT, &ema_reps, "Timed EMA updates of 10M parameters (default 30)", "N" },
    { "data-dir", 0, 0, G_OPTION_ARG_FILENAME, &data_dir, "Fashion-MNIST's folder", "DIR" },
    G_OPTION_ENTRY_NULL
  };
  g_autoptr(GOptionContext) context = g_option_context_new ("- training throughput of small models");
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) images = NULL;
  g_autoptr(GnnTensor) labels = NULL;
  int mlp_batches;

  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      g_printerr ("bench-train: %s\n", error->message);
      return 2;
    }
  if (quick)
    {
      cnn_batches = 50;
      min_time = 0.5;
      gemm_reps = 3;
      ema_reps = 5;
    }
  gemm_reps = MAX (gemm_reps, 1);
  ema_reps = MAX (ema_reps, 1);
  gnn_set_num_threads (threads);
  gnn_manual_seed (0);
  load_data (data_dir ? data_dir : "/usr/share/datasets/fashion-mnist", &images, &labels);
  g_free (data_dir);
  mlp_batches = (N_TRAIN + 127) / 128 / (quick ? 4 : 1);
  printf ("# threads %d, mlp %d batches of 128, cnn %d batches of 64\n", gnn_get_num_threads (),
          mlp_batches, cnn_batches);
  fflush (stdout);

  /* mlp and mlp_ema */
  for (int with_ema = 0; with_ema < 2; with_ema++)
    {
      g_autoptr(GnnModule) model = make_mlp ();
      g_autoptr(GnnOptimizer) opt = make_sgd (model, 0.01, 0.9);
      g_autoptr(GnnAveragedModel) ema = NULL;
      double rate;

      if (with_ema)
        {
          g_autoptr(GnnAverageFunction) fn = gnn_average_function_new_ema_multi (0.999, &error);

          if (fn == NULL || (ema = gnn_averaged_model_new (model, NULL, NULL, fn, FALSE, &error)) == NULL)
            die ("ema", error);
        }
      rate = run_batches (model, opt, ema, images, labels, (gint64[]) { 128, 784 }, 2, 128, mlp_batches);
      printf ("%s\t%.1f\tsamples/s\n", with_ema ? "mlp_ema" : "mlp", rate);
      fflush (stdout);
    }

  /* cnn */
  {
    g_autoptr(GnnModule) model = make_cnn ();
    g_autoptr(GnnOptimizer) opt = make_sgd (model, 0.01, 0.9);
    double rate = run_batches (model, opt, NULL, images, labels, (gint64[]) { 64, 1, 28, 28 }, 4, 64,
                               cnn_batches);

    printf ("cnn\t%.1f\tsamples/s\n", rate);
    fflush (stdout);
  }

  /* tiny */
  {
    GnnModule *layers[3];
    g_autoptr(GnnModule) model = NULL;
    g_autoptr(GnnOptimizer) opt = NULL;
    g_autoptr(GnnGenerator) gen = gnn_generator_new (1);
    g_autoptr(GnnTensor) x = NULL;
    g_autoptr(GnnTensor) y = NULL;
    gint64 t0, steps = 0, deadline;

    if ((layers[0] = GNN_MODULE (gnn_linear_new (16, 16, TRUE, &error))) == NULL ||
        (layers[2] = GNN_MODULE (gnn_linear_new (16, 4, TRUE, &error))) == NULL ||
        (x = gnn_tensor_new_randn ((gint64[]) { 1, 16 }, 2, gen, GNN_DTYPE_FLOAT32, NULL, &error)) == NULL ||
        (y = gnn_tensor_new_randn ((gint64[]) { 1, 4 }, 2, gen, GNN_DTYPE_FLOAT32, NULL, &error)) == NULL)
      die ("tiny", error);
    layers[1] = GNN_MODULE (gnn_relu_new ());
    model = sequential (layers, 3);
    opt = make_sgd (model, 0.01, 0);
    for (int i = 0; i < 100; i++)
      step (model, opt, NULL, x, y, TRUE);
    t0 = g_get_monotonic_time ();
    deadline = t0 + (gint64) (min_time * 1e6);
    do
      {
        for (int i = 0; i < 100; i++)
          step (model, opt, NULL, x, y, TRUE);
        steps += 100;
      }
    while (g_get_monotonic_time () < deadline);
    printf ("tiny\t%.1f\tsteps/s\n", steps / ((g_get_monotonic_time () - t0) / 1e6));
    fflush (stdout);
  }

  printf ("gemm\t%.1f\tGFLOP/s\n", bench_gemm (2048, gemm_reps));
  fflush (stdout);
  printf ("ema_10m\t%.3f\tms\n", bench_ema_10m (ema_reps));
  return 0;
}
