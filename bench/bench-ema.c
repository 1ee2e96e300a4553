/* bench-ema.c: the EMA update of a 10M-parameter model, against the memory bandwidth measured
 * in the same run
 *
 * The model is a stack of Linear (1000, 1000) layers (10 layers: 10.01M float32 parameters, 40 MB).
 * An EMA update (GnnAveragedModel with Gnn.AverageFunction.new_ema_multi (0.999)) reads the
 * average and the model and writes the average: 12 bytes per parameter, so its speed is a
 * memory bandwidth, to be compared with what the machine moves:
 *
 *  - ema_update: gnn_averaged_model_update_parameters (pairing, grouping, one fused kernel call);
 *  - ema_kernel: gnn_foreach_lerp_ on the two parameter lists (the kernel and its checks alone);
 *  - axpy: a[i] += s·b[i] over arrays of the model's size, in place as the EMA is (two reads and
 *    a write of the same array: the EMA's traffic), split over the same number of threads as gnn's
 *    kernels: the bandwidth an update can reach;
 *  - triad: STREAM's a[i] = b[i] + s·c[i] (two reads, a write to a third array, which the cache
 *    also reads first), the same threads;
 *  - memcpy: one thread copying the model's bytes (a read and a write).
 *
 * Each figure is the median of batches that alternate with those of the others. Output lines
 * are `name<TAB>value<TAB>unit`, lines starting with '#' are comments; bench/bench_ema_torch.py
 * runs this program and measures PyTorch's updates of the same model with the same thread count.
 *
 * Usage: bench-ema [--threads N] [--min-time SECONDS] [--layers L] [--width W] [--quick]
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gnn/gnn.h>

#include "bench-util.h"

#define SETTLE_US 50000

static double min_time = 2.0;

/* ---- gnn ---------------------------------------------------------------------------------- */

typedef struct {
  GnnAveragedModel *avg;
  GnnModule *model;
  GPtrArray *averaged;
  GPtrArray *current;
} EmaBench;

static gboolean
run_update (gpointer data, gint64 iterations)
{
  EmaBench *b = data;
  g_autoptr(GError) error = NULL;

  for (gint64 i = 0; i < iterations; i++)
    if (!gnn_averaged_model_update_parameters (b->avg, b->model, &error))
      {
        g_printerr ("bench-ema: %s\n", error->message);
        return FALSE;
      }
  return TRUE;
}

static gboolean
run_kernel (gpointer data, gint64 iterations)
{
  EmaBench *b = data;
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnNoGradGuard) guard = gnn_no_grad_guard_new ();

  for (gint64 i = 0; i < iterations; i++)
    if (!gnn_foreach_lerp_ ((GnnTensor **) b->averaged->pdata, (GnnTensor **) b->current->pdata,
                            b->averaged->len, 1 - 0.999, &error))
      {
        g_printerr ("bench-ema: %s\n", error->message);
        return FALSE;
      }
  return TRUE;
}

/* ---- the bandwidth baselines ---------------------------------------------------------------- */

typedef struct {
  float *a, *b, *c;
  gint64 n;
  int threads;
  gboolean axpy;
} Triad;

typedef struct {
  Triad *t;
  gint64 begin, end;
} TriadPart;

static void
triad_part (TriadPart *p)
{
  float *restrict a = p->t->a;
  const float *restrict b = p->t->b, *restrict c = p->t->c;
  const float s = 3.0f;

  if (p->t->axpy)
    for (gint64 i = p->begin; i < p->end; i++)
      a[i] += 1e-7f * b[i];
  else
    for (gint64 i = p->begin; i < p->end; i++)
      a[i] = b[i] + s * c[i];
}

static gpointer
triad_thread (gpointer data)
{
  triad_part (data);
  return NULL;
}

/* the threads are started for each pass: their cost (tens of µs) is far below a pass's */
static gboolean
run_triad (gpointer data, gint64 iterations)
{
  Triad *t = data;
  TriadPart parts[256];
  GThread *threads[256];

  for (gint64 it = 0; it < iterations; it++)
    {
      gint64 chunk = (t->n + t->threads - 1) / t->threads;

      for (int k = 0; k < t->threads; k++)
        {
          parts[k].t = t;
          parts[k].begin = MIN (t->n, k * chunk);
          parts[k].end = MIN (t->n, (k + 1) * chunk);
        }
      for (int k = 1; k < t->threads; k++)
        threads[k] = g_thread_new ("triad", triad_thread, &parts[k]);
      triad_part (&parts[0]);
      for (int k = 1; k < t->threads; k++)
        g_thread_join (threads[k]);
    }
  return TRUE;
}

static gboolean
run_memcpy (gpointer data, gint64 iterations)
{
  Triad *t = data;

  for (gint64 it = 0; it < iterations; it++)
    {
      memcpy (t->a, t->b, t->n * sizeof (float));
      /* keep the copy from being optimised away */
      t->b[it % t->n] += 1.0f;
    }
  return TRUE;
}

static float *
alloc_floats (gint64 n, float value)
{
  float *p = NULL;

  if (posix_memalign ((void **) &p, 64, n * sizeof (float)) != 0)
    g_error ("bench-ema: out of memory");
  for (gint64 i = 0; i < n; i++)
    p[i] = value + (float) (i % 7);
  return p;
}

int
main (int argc, char *argv[])
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnSequential) model = NULL;
  g_autoptr(GnnAverageFunction) fn = NULL;
  g_autoptr(GnnAveragedModel) avg = NULL;
  int threads = 0, layers = 10, width = 1000;
  gboolean quick = FALSE;
  gint64 n_params = 0;
  EmaBench eb = { 0 };
  Triad tr = { 0 }, ax = { 0 };
  double t[5];

  for (int i = 1; i < argc; i++)
    {
      if (g_str_equal (argv[i], "--threads") && i + 1 < argc)
        threads = atoi (argv[++i]);
      else if (g_str_equal (argv[i], "--min-time") && i + 1 < argc)
        min_time = g_ascii_strtod (argv[++i], NULL);
      else if (g_str_equal (argv[i], "--layers") && i + 1 < argc)
        layers = atoi (argv[++i]);
      else if (g_str_equal (argv[i], "--width") && i + 1 < argc)
        width = atoi (argv[++i]);
      else if (g_str_equal (argv[i], "--quick"))
        quick = TRUE;
      else
        {
          g_printerr ("usage: %s [--threads N] [--min-time S] [--layers L] [--width W] [--quick]\n", argv[0]);
          return 2;
        }
    }
  if (quick)
    min_time = 0.4;
  if (threads > 0)
    gnn_set_num_threads (threads);
  threads = gnn_get_num_threads ();

  gnn_manual_seed (0);
  model = gnn_sequential_new (NULL, 0);
  for (int l = 0; l < layers; l++)
    {
      g_autoptr(GnnLinear) lin = gnn_linear_new (width, width, TRUE, &error);
      if (lin == NULL)
        g_error ("bench-ema: %s", error->message);
      gnn_sequential_append (model, GNN_MODULE (lin));
    }
  fn = gnn_average_function_new_ema_multi (0.999, &error);
  avg = gnn_averaged_model_new (GNN_MODULE (model), NULL, NULL, fn, FALSE, &error);
  if (avg == NULL || !gnn_averaged_model_update_parameters (avg, GNN_MODULE (model), &error))
    g_error ("bench-ema: %s", error->message);

  eb.avg = avg;
  eb.model = GNN_MODULE (model);
  eb.averaged = gnn_module_parameters (gnn_averaged_model_get_module (avg), TRUE);
  eb.current = gnn_module_parameters (GNN_MODULE (model), TRUE);
  for (guint i = 0; i < eb.current->len; i++)
    n_params += gnn_tensor_get_numel (eb.current->pdata[i]);

  tr.n = n_params;
  tr.threads = CLAMP (threads, 1, 256);
  tr.a = alloc_floats (n_params, 0);
  tr.b = alloc_floats (n_params, 1);
  tr.c = alloc_floats (n_params, 2);
  ax = tr;
  ax.axpy = TRUE;

  {
    const BenchFunc funcs[] = { run_update, run_kernel, run_triad, run_memcpy, run_triad };
    gpointer data[] = { &eb, &eb, &tr, &tr, &ax };
    if (!bench_measure_set (5, funcs, data, min_time / BENCH_N_BATCHES / 5, SETTLE_US, t, NULL))
      return 1;
  }

  printf ("# bench-ema: %d x Linear (%d, %d), %" G_GINT64_FORMAT " float32 parameters in %u tensors; "
          "threads %d, backend %s\n", layers, width, width, n_params, eb.current->len, threads,
          gnn_backend_get_name (gnn_backend_get_for_device_type ("cpu", NULL)));
  printf ("params\t%" G_GINT64_FORMAT "\tcount\n", n_params);
  printf ("threads\t%d\tcount\n", threads);
  printf ("ema_update\t%.6g\ts\n", t[0]);
  printf ("ema_kernel\t%.6g\ts\n", t[1]);
  printf ("triad\t%.6g\ts\n", t[2]);
  printf ("memcpy\t%.6g\ts\n", t[3]);
  printf ("axpy\t%.6g\ts\n", t[4]);
  printf ("ema_update_bw\t%.6g\tGB/s\n", 12.0 * n_params / t[0] / 1e9);
  printf ("ema_kernel_bw\t%.6g\tGB/s\n", 12.0 * n_params / t[1] / 1e9);
  printf ("triad_bw\t%.6g\tGB/s\n", 12.0 * n_params / t[2] / 1e9);
  printf ("memcpy_bw\t%.6g\tGB/s\n", 8.0 * n_params / t[3] / 1e9);
  printf ("axpy_bw\t%.6g\tGB/s\n", 12.0 * n_params / t[4] / 1e9);
  printf ("ema_update_vs_axpy\t%.4g\tratio\n", t[4] / t[0]);
  printf ("ema_update_vs_triad\t%.4g\tratio\n", t[2] / t[0]);

  g_ptr_array_unref (eb.averaged);
  g_ptr_array_unref (eb.current);
  free (tr.a);
  free (tr.b);
  free (tr.c);
  return 0;
}
