/* bench-ops.c: gnn's C-side speed next to its own baselines
 *
 *  - matmul of square float32 matrices through gnn_tensor_matmul (output allocation
 *    included) and through raw cblas_sgemm on preallocated buffers, in GFLOP/s (the FLOPs
 *    of the op table's GEMM formula, 2 · n³);
 *  - the per-op overhead of a 16-element float32 add with autograd off (output allocation
 *    included), in calls per second and ns per call;
 *  - a 1e6-element float32 add, gnn and a plain C loop, in GB/s (two reads and a write).
 *
 * Each measurement alternates batches of the things compared (gnn and its baseline), about
 * --min-time seconds each in all, and reports the median batch of each. Output lines are `name<TAB>value<TAB>unit`; lines starting with '#' are
 * comments. bench/bench_vs_torch.py runs this program and sets the same thread count in torch.
 *
 * Usage: bench-ops [--threads N] [--min-time SECONDS] [--sizes 256,512,...] [--quick]
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <cblas.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gnn/gnn.h>
#include <gnn/backend/gnn-backend-impl.h>

#include "bench-util.h"

#define SETTLE_US 100000

static double min_time = 1.0;

static void
report (const char *name, double value, const char *unit)
{
  printf ("%s\t%.6g\t%s\n", name, value, unit);
  fflush (stdout);
}

static GnnTensor *
rand_tensor (gint64 n0, gint64 n1)
{
  g_autoptr(GError) error = NULL;
  gint64 shape[2] = { n0, n1 };
  GnnTensor *t = gnn_tensor_new_rand (shape, n1 > 0 ? 2 : 1, NULL, GNN_DTYPE_FLOAT32, NULL, &error);

  if (t == NULL)
    g_error ("bench-ops: %s", error->message);
  return t;
}

/* ---- matmul ------------------------------------------------------------------------- */

typedef struct
{
  GnnTensor *a, *b;
  float *ra, *rb, *rc;
  int n;
} MatmulData;

static gboolean
bench_gnn_matmul (gpointer data, gint64 iterations)
{
  MatmulData *m = data;

  for (gint64 i = 0; i < iterations; i++)
    {
      g_autoptr(GError) error = NULL;
      GnnTensor *c = gnn_tensor_matmul (m->a, m->b, &error);
      if (c == NULL)
        {
          g_printerr ("bench-ops: matmul: %s\n", error->message);
          return FALSE;
        }
      g_object_unref (c);
    }
  return TRUE;
}

static gboolean
bench_blas_sgemm (gpointer data, gint64 iterations)
{
  MatmulData *m = data;

  for (gint64 i = 0; i < iterations; i++)
    cblas_sgemm (CblasRowMajor, CblasNoTrans, CblasNoTrans, m->n, m->n, m->n,
                 1.0f, m->ra, m->n, m->rb, m->n, 0.0f, m->rc, m->n);
  return TRUE;
}

/* the FLOPs of an (n, n) · (n, n) product, by the op table's formula for GEMM */
static double
matmul_flops (gint64 n)
{
  GnnKernelTensor a = { NULL, GNN_DTYPE_FLOAT32, 3, { 1, n, n } };
  GnnKernelArgs args = { GNN_BACKEND_OP_GEMM, &a, NULL, { &a, &a }, 2 };

  return (double) gnn_backend_op_count_flops (&args);
}

static void
run_matmul (const char *sizes)
{
  g_auto(GStrv) parts = g_strsplit (sizes, ",", -1);

  for (char **p = parts; *p; p++)
    {
      MatmulData m = { 0 };
      int n = atoi (*p);
      double flops = matmul_flops (n);
      double t_gnn, t_blas;
      char name[64];
      gsize bytes = (gsize) n * n * sizeof (float);

      if (n <= 0)
        continue;
      m.n = n;
      m.a = rand_tensor (n, n);
      m.b = rand_tensor (n, n);
      m.ra = g_malloc (bytes);
      m.rb = g_malloc (bytes);
      m.rc = g_malloc0 (bytes);
      {
        g_autoptr(GBytes) ba = gnn_tensor_get_bytes (m.a, NULL);
        g_autoptr(GBytes) bb = gnn_tensor_get_bytes (m.b, NULL);
        memcpy (m.ra, g_bytes_get_data (ba, NULL), bytes);
        memcpy (m.rb, g_bytes_get_data (bb, NULL), bytes);
      }
      {
        BenchFunc funcs[2] = { bench_gnn_matmul, bench_blas_sgemm };
        gpointer data[2] = { &m, &m };
        double t[2];
        if (!bench_measure_set (2, funcs, data, min_time / BENCH_N_BATCHES, SETTLE_US, t, NULL))
          exit (1);
        t_gnn = t[0];
        t_blas = t[1];
      }
      g_snprintf (name, sizeof name, "matmul_%d_gnn", n);
      report (name, flops / t_gnn / 1e9, "GFLOP/s");
      g_snprintf (name, sizeof name, "matmul_%d_openblas", n);
      report (name, flops / t_blas / 1e9, "GFLOP/s");
      g_object_unref (m.a);
      g_object_unref (m.b);
      g_free (m.ra);
      g_free (m.rb);
      g_free (m.rc);
    }
}

/* ---- elementwise add ---------------------------------------------------------------- */

typedef struct
{
  GnnTensor *a, *b;
  float *ra, *rb, *rc;
  gint64 n;
} AddData;

static gboolean
bench_gnn_add (gpointer data, gint64 iterations)
{
  AddData *d = data;

  for (gint64 i = 0; i < iterations; i++)
    {
      g_autoptr(GError) error = NULL;
      GnnTensor *c = gnn_tensor_add (d->a, d->b, 1.0, &error);
      if (c == NULL)
        {
          g_printerr ("bench-ops: add: %s\n", error->message);
          return FALSE;
        }
      g_object_unref (c);
    }
  return TRUE;
}

/* the same work as a plain single-threaded C loop into a preallocated buffer */
static gboolean
bench_loop_add (gpointer data, gint64 iterations)
{
  AddData *d = data;

  for (gint64 i = 0; i < iterations; i++)
    {
      float *restrict c = d->rc;
      const float *restrict a = d->ra, *restrict b = d->rb;
      for (gint64 j = 0; j < d->n; j++)
        c[j] = a[j] + b[j];
      /* keep the compiler from hoisting the loop out */
      __asm__ __volatile__ ("" : : "r" (c) : "memory");
    }
  return TRUE;
}

static void
run_add (gint64 n, const char *label)
{
  AddData d = { 0 };
  char name[64];
  double t[2], best[2];

  d.n = n;
  d.a = rand_tensor (n, 0);
  d.b = rand_tensor (n, 0);
  d.ra = g_malloc (n * sizeof (float));
  d.rb = g_malloc (n * sizeof (float));
  d.rc = g_malloc0 (n * sizeof (float));
  for (gint64 i = 0; i < n; i++)
    {
      d.ra[i] = (float) i;
      d.rb[i] = 1.0f;
    }

  {
    BenchFunc funcs[2] = { bench_gnn_add, bench_loop_add };
    gpointer data[2] = { &d, &d };
    if (!bench_measure_set (2, funcs, data, min_time / BENCH_N_BATCHES, SETTLE_US, t, best))
      exit (1);
  }
  g_snprintf (name, sizeof name, "add_%s_gnn_c", label);
  report (name, t[0] * 1e9, "ns");
  g_snprintf (name, sizeof name, "add_%s_gnn_c_best", label);
  report (name, best[0] * 1e9, "ns");
  g_snprintf (name, sizeof name, "add_%s_loop_c", label);
  report (name, t[1] * 1e9, "ns");
  if (n >= 100000)
    {
      g_snprintf (name, sizeof name, "add_%s_gnn_c_bw", label);
      report (name, 3.0 * n * sizeof (float) / t[0] / 1e9, "GB/s");
      g_snprintf (name, sizeof name, "add_%s_loop_c_bw", label);
      report (name, 3.0 * n * sizeof (float) / t[1] / 1e9, "GB/s");
    }
  g_object_unref (d.a);
  g_object_unref (d.b);
  g_free (d.ra);
  g_free (d.rb);
  g_free (d.rc);
}

int
main (int argc, char **argv)
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GError) error = NULL;
  int threads = 0;
  gboolean quick = FALSE;
  g_autofree char *sizes = NULL;
  const char *env;
  GOptionEntry entries[] = {
    { "threads", 't', 0, G_OPTION_ARG_INT, &threads, "Threads for gnn and OpenBLAS (default: GNN_NUM_THREADS or 2)", "N" },
    { "min-time", 0, 0, G_OPTION_ARG_DOUBLE, &min_time, "Seconds per measurement (default 1)", "S" },
    { "sizes", 0, 0, G_OPTION_ARG_STRING, &sizes, "Square matmul sizes (default 256,512,1024,2048)", "LIST" },
    { "quick", 0, 0, G_OPTION_ARG_NONE, &quick, "Short run: sizes 256,512 and 0.2 s per measurement", NULL },
    G_OPTION_ENTRY_NULL
  };

  context = g_option_context_new ("- gnn op benchmarks");
  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      g_printerr ("bench-ops: %s\n", error->message);
      return 2;
    }
  if (quick)
    {
      min_time = 0.2;
      if (sizes == NULL)
        sizes = g_strdup ("256,512");
    }
  if (sizes == NULL)
    sizes = g_strdup ("256,512,1024,2048");
  env = g_getenv ("GNN_NUM_THREADS");
  if (threads <= 0)
    threads = env && atoi (env) > 0 ? atoi (env) : 2;
  gnn_set_num_threads (threads);
  gnn_set_grad_enabled (FALSE);

  printf ("# bench-ops: threads %d, backend %s, %s\n", gnn_get_num_threads (),
          gnn_backend_get_name (gnn_backend_get_for_device_type ("cpu", NULL)),
          openblas_get_config ());
  report ("threads", threads, "");
  run_add (16, "16");
  run_add (1000000, "1e6");
  run_matmul (sizes);
  return 0;
}
