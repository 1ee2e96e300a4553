/* bench-profiler.c: what the profiler costs, and one profiled step of gnn-train's CNN
 *
 * Cost (the default): in the same run, batches of steps with no profiler and batches of the
 * same steps inside a started GnnProfiler alternate (bench_measure_set: the median of
 * BENCH_N_BATCHES batches each), for
 *  - tiny: Linear(16,16)-ReLU-Linear(16,4), batch 1, MSE, zero_grad + forward + backward +
 *    SGD step (bench-train's tiny row);
 *  - cnn: bench-train's CNN (conv(1,32,3)-relu-maxpool2-conv(32,64,3)-relu-maxpool2-
 *    linear(1600,128)-relu-linear(128,10)), batch 64, cross-entropy, SGD momentum 0.9.
 * A profiled batch is the whole of a profile: start, the steps (each ended by
 * gnn_profiler_step, as a training loop under torch's profiler does), stop, and the next
 * start's dropping of the events. The CNN step is long enough to be timed alone: pairs of one
 * step with no profiler and one step profiled on its own (start, step, stop), in alternating
 * order, and the median of the pairs' ratios, which a shared machine's drifting load moves
 * less than batches apart. It prints `name<TAB>value<TAB>unit` rows: the microseconds per
 * step off and on, and their ratio (the targets: at most 2 for tiny, at most 1.05
 * for cnn).
 *
 * --table: one training step of gnn-train's default CNN (two conv-BN-ReLU-pool blocks, a
 * two-layer classifier with dropout; AdamW lr 0.002, weight decay 0.01; batch 128 of
 * Fashion-MNIST, random images of that shape when it is not installed) after three untimed
 * steps, profiled: prints the table (sort_by self_cpu_time_total, row_limit 10), the step's
 * wall time, the kernels' self times summed and their ratio, and exits 1 when the kernels
 * miss the wall time by more than 10%.
 *
 * Usage: bench-profiler [--threads N] [--min-time S] [--quick] [--table] [--data-dir DIR]
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gnn/gnn.h>

#include "bench-util.h"
#include "../tools/gnn-tool.h"

static void
die (const char *what,
     GError     *error)
{
  g_printerr ("bench-profiler: %s: %s\n", what, error ? error->message : "failed");
  exit (1);
}

typedef struct {
  GnnModule *model;
  GnnOptimizer *opt;
  GnnTensor *x, *y;
  gboolean mse;
  GnnProfiler *profiler;        /* NULL: no profiler */
} Step;

static void
run_step (Step *s)
{
  g_autoptr(GnnTensor) out = NULL;
  g_autoptr(GnnTensor) loss = NULL;
  GError *error = NULL;

  gnn_optimizer_zero_grad (s->opt, TRUE);
  if ((out = gnn_module_forward_tensor (s->model, s->x, &error)) == NULL ||
      (loss = s->mse ? gnn_tensor_mse_loss (out, s->y, GNN_REDUCTION_MEAN, &error)
                     : gnn_tensor_cross_entropy (out, s->y, NULL, -100, GNN_REDUCTION_MEAN, 0.0, &error)) == NULL ||
      !gnn_tensor_backward (loss, NULL, FALSE, &error) ||
      !gnn_optimizer_step (s->opt, &error))
    die ("training step", error);
}

static gboolean
steps (gpointer data,
       gint64   iterations)
{
  Step *s = data;
  GError *error = NULL;

  if (s->profiler && !gnn_profiler_start (s->profiler, &error))
    die ("profiler start", error);
  for (gint64 i = 0; i < iterations; i++)
    {
      run_step (s);
      if (s->profiler && !gnn_profiler_step (s->profiler, &error))
        die ("profiler step", error);
    }
  if (s->profiler && !gnn_profiler_stop (s->profiler, &error))
    die ("profiler stop", error);
  return TRUE;
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

static void
make_tiny (Step *s)
{
  g_autoptr(GnnGenerator) gen = gnn_generator_new (1);
  GError *error = NULL;
  GnnModule *layers[3];

  if ((layers[0] = GNN_MODULE (gnn_linear_new (16, 16, TRUE, &error))) == NULL ||
      (layers[2] = GNN_MODULE (gnn_linear_new (16, 4, TRUE, &error))) == NULL ||
      (s->x = gnn_tensor_new_randn ((gint64[]) { 1, 16 }, 2, gen, GNN_DTYPE_FLOAT32, NULL, &error)) == NULL ||
      (s->y = gnn_tensor_new_randn ((gint64[]) { 1, 4 }, 2, gen, GNN_DTYPE_FLOAT32, NULL, &error)) == NULL)
    die ("tiny", error);
  layers[1] = GNN_MODULE (gnn_relu_new ());
  s->model = sequential (layers, 3);
  s->opt = make_sgd (s->model, 0.01, 0);
  s->mse = TRUE;
}

static void
make_cnn (Step *s)
{
  const gint64 k3[2] = { 3, 3 }, k2[2] = { 2, 2 };
  g_autoptr(GnnGenerator) gen = gnn_generator_new (2);
  g_autofree gint64 *labels = g_new (gint64, 64);
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
  s->model = sequential (layers, 10);
  s->opt = make_sgd (s->model, 0.01, 0.9);
  for (int i = 0; i < 64; i++)
    labels[i] = (i * 7919) % 10;
  if ((s->x = gnn_tensor_new_randn ((gint64[]) { 64, 1, 28, 28 }, 4, gen, GNN_DTYPE_FLOAT32, NULL,
                                    &error)) == NULL ||
      (s->y = gnn_tensor_new_from_int64s (labels, 64, (gint64[]) { 64 }, 1, &error)) == NULL)
    die ("cnn batch", error);
  s->mse = FALSE;
}

static void
step_clear (Step *s)
{
  g_clear_object (&s->model);
  g_clear_object (&s->opt);
  g_clear_object (&s->x);
  g_clear_object (&s->y);
}

/* the events one profiled step of @s records (its ProfilerStep range aside) */
static guint
events_per_step (Step *s)
{
  g_autoptr(GnnProfiler) profiler = gnn_profiler_new ();
  g_autoptr(GPtrArray) events = NULL;
  Step on = *s;

  on.profiler = profiler;
  steps (&on, 1);
  events = gnn_profiler_get_events (profiler);
  return events->len - 1;
}

/* seconds per step off and on, one row each and their ratio; returns the profiler's cost per
 * event in seconds */
static double
measure (const char *name,
         Step       *off,
         double      batch_time)
{
  g_autoptr(GnnProfiler) profiler = gnn_profiler_new ();
  Step on = *off;
  const BenchFunc funcs[2] = { steps, steps };
  gpointer data[2] = { off, &on };
  double t[2], best[2];

  on.profiler = profiler;
  if (!bench_measure_set (2, funcs, data, batch_time, 20000, t, best))
    die (name, NULL);
  printf ("%s_off\t%.3f\tus/step\n", name, t[0] * 1e6);
  printf ("%s_on\t%.3f\tus/step\n", name, t[1] * 1e6);
  printf ("%s_ratio\t%.3f\ton/off\n", name, t[1] / t[0]);
  printf ("# %s: fastest batches %.3f / %.3f us/step, ratio %.3f\n", name, best[0] * 1e6, best[1] * 1e6,
          best[1] / best[0]);
  {
    guint n = events_per_step (off);
    double per_event = (t[1] - t[0]) / n;

    printf ("%s_events\t%u\tper step\n", name, n);
    printf ("%s_cost_per_event\t%.3f\tus\n", name, per_event * 1e6);
    fflush (stdout);
    return per_event;
  }
}

/* seconds per step off and on for a long step, measured in pairs: each pair one step with no
 * profiler and one step that is a whole profile (start, step, stop), in alternating order, so
 * that the load of a shared machine, which drifts over seconds, weighs on both alike; the
 * median step each way and the median of the pairs' ratios */
static void
measure_paired (const char *name,
                Step       *off,
                int         pairs,
                double      per_event)
{
  g_autoptr(GnnProfiler) profiler = gnn_profiler_new ();
  Step on = *off;
  g_autofree double *t_off = g_new (double, pairs);
  g_autofree double *t_on = g_new (double, pairs);
  g_autofree double *ratio = g_new (double, pairs);

  on.profiler = profiler;
  for (int i = 0; i < 3; i++)
    {
      steps (off, 1);
      steps (&on, 1);
    }
  for (int i = 0; i < pairs; i++)
    for (int k = 0; k < 2; k++)
      {
        gboolean profiled = (k == 0) == (i % 2 == 0);
        gint64 t0 = g_get_monotonic_time ();

        steps (profiled ? &on : off, 1);
        (profiled ? t_on : t_off)[i] = (g_get_monotonic_time () - t0) / 1e6;
      }
  for (int i = 0; i < pairs; i++)
    ratio[i] = t_on[i] / t_off[i];
  qsort (t_off, pairs, sizeof (double), bench_cmp_double);
  qsort (t_on, pairs, sizeof (double), bench_cmp_double);
  qsort (ratio, pairs, sizeof (double), bench_cmp_double);
  printf ("%s_off\t%.3f\tus/step\n", name, t_off[pairs / 2] * 1e6);
  printf ("%s_on\t%.3f\tus/step\n", name, t_on[pairs / 2] * 1e6);
  printf ("%s_ratio\t%.3f\ton/off\n", name, ratio[pairs / 2]);
  printf ("# %s: %d pairs, ratios from %.3f to %.3f, quartiles %.3f and %.3f\n", name, pairs, ratio[0],
          ratio[pairs - 1], ratio[pairs / 4], ratio[(3 * pairs) / 4]);
  {
    /* what the tiny step's cost per event predicts, which the noise of a long step hides */
    guint n = events_per_step (off);

    printf ("%s_events\t%u\tper step\n", name, n);
    printf ("%s_ratio_from_events\t%.4f\ton/off (%u events at the tiny step's cost each)\n", name,
            1 + n * per_event / t_off[pairs / 2], n);
  }
  fflush (stdout);
}

/* one profiled step of gnn-train's default CNN: the table and the kernels' sum against the wall */
static int
profile_train_step (const char *data_dir)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnModule) model = NULL;
  g_autoptr(GnnParamGroup) params = NULL;
  g_autoptr(GnnOptimizer) opt = NULL;
  g_autoptr(GPtrArray) batch = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GnnProfiler) profiler = gnn_profiler_new ();
  g_autoptr(GPtrArray) events = NULL;
  g_autofree char *table = NULL;
  g_autofree char *dir = g_strdup (data_dir ? data_dir : "/usr/share/datasets/fashion-mnist");
  g_autoptr(GnnDataset) train = NULL;
  gint64 t0, t1, kernel_ns = 0;
  double loss, wall_ms, kernel_ms, ratio;

  gnn_manual_seed (0);
  if ((model = gnn_tool_default_model (&error)) == NULL)
    die ("model", error);
  params = gnn_param_group_new_from_module (model);
  if ((opt = GNN_OPTIMIZER (gnn_adamw_new (params, 0.002, 0.9, 0.999, 1e-8, 0.01, FALSE, FALSE,
                                           &error))) == NULL)
    die ("adamw", error);
  train = gnn_tool_load_split (dir, "train-images-idx3-ubyte", "train-labels-idx1-ubyte", 128, &error);
  if (train != NULL)
    {
      g_autoptr(GnnNormalize) norm = NULL;
      g_autoptr(GnnTensor) flat = NULL;
      const double mean = 0.2860, std = 0.3530;
      GnnTensor *x;

      if ((norm = gnn_normalize_new (&mean, &std, 1, 1.0 / 255, &error)) == NULL ||
          (flat = gnn_normalize_apply (norm, gnn_tensor_dataset_get_tensor (GNN_TENSOR_DATASET (train), 0),
                                       &error)) == NULL ||
          (x = gnn_tensor_reshape (flat, (gint64[]) { 128, 1, 28, 28 }, 4, &error)) == NULL)
        die ("batch", error);
      g_ptr_array_add (batch, x);
      g_ptr_array_add (batch, g_object_ref (gnn_tensor_dataset_get_tensor (GNN_TENSOR_DATASET (train), 1)));
      printf ("# data: the first 128 Fashion-MNIST training images from %s\n", dir);
    }
  else
    {
      g_autoptr(GnnGenerator) gen = gnn_generator_new (0);
      g_autofree gint64 *y = g_new (gint64, 128);
      GnnTensor *x, *labels;

      g_clear_error (&error);
      for (int i = 0; i < 128; i++)
        y[i] = (i * 7919) % 10;
      if ((x = gnn_tensor_new_randn ((gint64[]) { 128, 1, 28, 28 }, 4, gen, GNN_DTYPE_FLOAT32, NULL,
                                     &error)) == NULL ||
          (labels = gnn_tensor_new_from_int64s (y, 128, (gint64[]) { 128 }, 1, &error)) == NULL)
        die ("batch", error);
      g_ptr_array_add (batch, x);
      g_ptr_array_add (batch, labels);
      printf ("# data: random (Fashion-MNIST not found in %s)\n", dir);
    }
  for (int i = 0; i < 3; i++)
    if (!gnn_tool_classifier_step (model, opt, batch, &loss, &error))
      die ("warm-up step", error);

  if (!gnn_profiler_start (profiler, &error))
    die ("profiler start", error);
  t0 = g_get_monotonic_time ();
  if (!gnn_tool_classifier_step (model, opt, batch, &loss, &error))
    die ("profiled step", error);
  t1 = g_get_monotonic_time ();
  if (!gnn_profiler_stop (profiler, &error))
    die ("profiler stop", error);

  if ((table = gnn_profiler_table (profiler, FALSE, "self_cpu_time_total", 10, &error)) == NULL)
    die ("table", error);
  events = gnn_profiler_get_events (profiler);
  for (guint i = 0; i < events->len; i++)
    if (gnn_profiler_event_get_kind (events->pdata[i]) == GNN_PROFILER_EVENT_KERNEL)
      kernel_ns += gnn_profiler_event_get_self_ns (events->pdata[i]);
  wall_ms = (t1 - t0) / 1e3;
  kernel_ms = kernel_ns / 1e6;
  ratio = kernel_ms / wall_ms;
  printf ("# one training step of gnn-train's default CNN, batch 128, AdamW, %d threads (loss %.4f)\n",
          gnn_get_num_threads (), loss);
  fputs (table, stdout);
  printf ("step_wall\t%.3f\tms\n", wall_ms);
  printf ("kernel_self_total\t%.3f\tms\n", kernel_ms);
  printf ("kernel_share\t%.3f\tof the wall time (%s 10%%)\n", ratio,
          ratio >= 0.9 && ratio <= 1.1 ? "within" : "NOT within");
  return ratio >= 0.9 && ratio <= 1.1 ? 0 : 1;
}

int
main (int    argc,
      char **argv)
{
  int threads = 2;
  double min_time = 0.5;
  gboolean quick = FALSE, table = FALSE;
  char *data_dir = NULL;
  const GOptionEntry entries[] = {
    { "threads", 0, 0, G_OPTION_ARG_INT, &threads, "Compute threads (default 2)", "N" },
    { "min-time", 0, 0, G_OPTION_ARG_DOUBLE, &min_time, "Seconds of each timed batch (default 0.5)", "S" },
    { "quick", 0, 0, G_OPTION_ARG_NONE, &quick, "0.2 s batches, 15 CNN pairs", NULL },
    { "table", 0, 0, G_OPTION_ARG_NONE, &table, "Profile one step of gnn-train's CNN instead", NULL },
    { "data-dir", 0, 0, G_OPTION_ARG_FILENAME, &data_dir, "Fashion-MNIST's folder (--table)", "DIR" },
    G_OPTION_ENTRY_NULL
  };
  g_autoptr(GOptionContext) context = g_option_context_new ("- what the profiler costs");
  g_autoptr(GError) error = NULL;
  Step s = { 0 };
  double per_event;
  int rc = 0;

  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      g_printerr ("bench-profiler: %s\n", error->message);
      return 2;
    }
  gnn_set_num_threads (threads);
  gnn_manual_seed (0);
  if (table)
    {
      rc = profile_train_step (data_dir);
      g_free (data_dir);
      return rc;
    }
  g_free (data_dir);
  if (quick)
    min_time = 0.2;
  printf ("# threads %d, batches of %.2f s, median of %d batches each; load average ", gnn_get_num_threads (),
          min_time, BENCH_N_BATCHES);
  {
    double load[3];
    if (getloadavg (load, 3) == 3)
      printf ("%.1f %.1f %.1f\n", load[0], load[1], load[2]);
    else
      printf ("unknown\n");
  }
  make_tiny (&s);
  per_event = measure ("tiny", &s, min_time);
  step_clear (&s);
  make_cnn (&s);
  measure_paired ("cnn", &s, quick ? 15 : 61, per_event);
  step_clear (&s);
  return rc;
}
