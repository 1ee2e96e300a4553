/* bench-cuda.c: gnn on a CUDA device (and on the CPU), for tests/gpu-check's table
 *
 *  - gemm: 4096² float32 matmul (output allocated each call, as torch.matmul), GFLOP/s, with
 *    full float32 products and with TF32 tensor cores (the backend's "allow-tf32");
 *  - mlp: a 784-512-256-10 ReLU network's training step, batch 128: forward, cross-entropy,
 *    backward, in-place SGD (p -= lr · grad), samples/s; also with an MSE loss, which unlike
 *    cross-entropy reads nothing back to the host (cross-entropy reads its class targets and
 *    checks index bounds on the host each step);
 *  - cnn: conv(1,32,3)-relu-maxpool2-conv(32,64,3)-relu-maxpool2-linear(1600,128)-relu-
 *    linear(128,10), batch 64 of 28×28, the same training step, samples/s;
 *  - ema: an exponential moving average of a 10M-float32 parameter list (100 tensors of 100k)
 *    with one foreach_lerp_ per update, ms per update and GB/s (two reads and a write), next to
 *    a device-to-device copy of the same bytes (one read, one write) in the same run.
 *
 * Synthetic data. Each line of output: `benchmark<TAB>implementation<TAB>value<TAB>unit`
 * (implementation gnn-cuda or gnn-cpu); lines starting with '#' are comments.
 *
 * Usage: bench-cuda [--device cuda|cpu] [--only gemm,mlp,cnn,ema] [--min-time SECONDS]
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gnn/gnn.h>

static double min_time = 1.0;
static const char *device = "cuda";
static const char *impl = "gnn-cuda";
static GnnBackend *backend;

static void
die (const char *what, GError *error)
{
  fprintf (stderr, "bench-cuda: %s: %s\n", what, error ? error->message : "failed");
  exit (1);
}

static void
sync_device (void)
{
  g_autoptr(GError) error = NULL;

  if (!gnn_backend_synchronize (backend, 0, &error))
    die ("synchronize", error);
}

static guint64
transfers (void)
{
  guint64 v = 0;

  if (g_object_class_find_property (G_OBJECT_GET_CLASS (backend), "host-transfers"))
    g_object_get (backend, "host-transfers", &v, NULL);
  return v;
}

typedef gboolean (*StepFunc) (gpointer data, GError **error);

/* seconds per call: a few warm-up calls, then batches until min_time has passed; the
 * median batch */
static double
measure (StepFunc func, gpointer data, int warmup)
{
  g_autoptr(GError) error = NULL;
  double per[64];
  int n_batches = 0;
  gint64 iters = 1, start;

  for (int i = 0; i < warmup; i++)
    if (!func (data, &error))
      die ("warm-up", error);
  sync_device ();
  /* calibrate one batch to about min_time / 7 */
  for (;;)
    {
      gint64 t0 = g_get_monotonic_time ();
      double dt;
      for (gint64 i = 0; i < iters; i++)
        if (!func (data, &error))
          die ("step", error);
      sync_device ();
      dt = (g_get_monotonic_time () - t0) / 1e6;
      if (dt >= min_time / 7 || iters > 1000000)
        break;
      iters *= dt > 0 ? MAX (2, MIN (10, (gint64) (min_time / 7 / dt) + 1)) : 10;
    }
  start = g_get_monotonic_time ();
  while (n_batches < 64 && (n_batches < 3 || (g_get_monotonic_time () - start) / 1e6 < min_time))
    {
      gint64 t0 = g_get_monotonic_time ();
      for (gint64 i = 0; i < iters; i++)
        if (!func (data, &error))
          die ("step", error);
      sync_device ();
      per[n_batches++] = (g_get_monotonic_time () - t0) / 1e6 / iters;
    }
  for (int i = 1; i < n_batches; i++)
    for (int j = i; j > 0 && per[j] < per[j - 1]; j--)
      {
        double t = per[j];
        per[j] = per[j - 1];
        per[j - 1] = t;
      }
  return per[n_batches / 2];
}

static void
report (const char *name, double value, const char *unit)
{
  printf ("%s\t%s\t%.6g\t%s\n", name, impl, value, unit);
  fflush (stdout);
}

/* ---- gemm ----------------------------------------------------------------------------- */

typedef struct {
  GnnTensor *a, *b;
} Gemm;

static gboolean
gemm_step (gpointer data, GError **error)
{
  Gemm *g = data;
  g_autoptr(GnnTensor) c = gnn_tensor_matmul (g->a, g->b, error);
  return c != NULL;
}

static void
bench_gemm (void)
{
  g_autoptr(GError) error = NULL;
  gint64 n = 4096;
  gint64 shape[2] = { n, n };
  Gemm g;
  double t;

  g.a = gnn_tensor_new_randn (shape, 2, NULL, GNN_DTYPE_FLOAT32, device, &error);
  g.b = g.a ? gnn_tensor_new_randn (shape, 2, NULL, GNN_DTYPE_FLOAT32, device, &error) : NULL;
  if (g.b == NULL)
    die ("gemm inputs", error);
  if (g_object_class_find_property (G_OBJECT_GET_CLASS (backend), "allow-tf32"))
    {
      g_object_set (backend, "allow-tf32", FALSE, NULL);
      t = measure (gemm_step, &g, 3);
      report ("gemm-4096-fp32", 2.0 * n * n * n / t / 1e9, "GFLOP/s");
      g_object_set (backend, "allow-tf32", TRUE, NULL);
      t = measure (gemm_step, &g, 3);
      report ("gemm-4096-tf32", 2.0 * n * n * n / t / 1e9, "GFLOP/s");
      g_object_set (backend, "allow-tf32", FALSE, NULL);
    }
  else
    {
      t = measure (gemm_step, &g, 1);
      report ("gemm-4096-fp32", 2.0 * n * n * n / t / 1e9, "GFLOP/s");
    }
  g_object_unref (g.a);
  g_object_unref (g.b);
}

/* ---- training steps ------------------------------------------------------------------ */

typedef struct {
  GnnModule *model;
  GPtrArray *params;
  GnnTensor *x;
  GnnTensor *classes;   /* int64 (N) */
  GnnTensor *onehot;    /* float (N, 10), for the MSE variant */
  gboolean mse;
  double lr;
} Train;

static gboolean
train_step (gpointer data, GError **error)
{
  Train *tr = data;
  g_autoptr(GnnTensor) y = NULL, loss = NULL;

  if (!gnn_module_zero_grad (tr->model, TRUE, error) ||
      !(y = gnn_module_forward_tensor (tr->model, tr->x, error)))
    return FALSE;
  loss = tr->mse ? gnn_tensor_mse_loss (y, tr->onehot, GNN_REDUCTION_MEAN, error)
                 : gnn_tensor_cross_entropy (y, tr->classes, NULL, -100, GNN_REDUCTION_MEAN, 0.0, error);
  if (loss == NULL || !gnn_tensor_backward (loss, NULL, FALSE, error))
    return FALSE;
  {
    g_autoptr(GnnNoGradGuard) guard = gnn_no_grad_guard_new ();
    for (guint i = 0; i < tr->params->len; i++)
      {
        GnnTensor *p = tr->params->pdata[i];
        if (!gnn_tensor_sub_ (p, gnn_tensor_get_grad (p), tr->lr, error))
          return FALSE;
      }
  }
  return TRUE;
}

static void
train_setup (Train *tr, GnnModule **layers, guint n_layers, const gint64 *xshape, guint xndim, gint64 batch)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) cls = NULL;
  gint64 cshape[1] = { batch };

  tr->model = GNN_MODULE (gnn_sequential_new (layers, n_layers));
  for (guint i = 0; i < n_layers; i++)
    g_object_unref (layers[i]);
  if (!gnn_module_to_device (tr->model, device, &error))
    die ("model to device", error);
  tr->params = gnn_module_parameters (tr->model, TRUE);
  tr->x = gnn_tensor_new_randn (xshape, xndim, NULL, GNN_DTYPE_FLOAT32, device, &error);
  tr->classes = tr->x ? gnn_tensor_new_randint (0, 10, cshape, 1, NULL, device, &error) : NULL;
  if (tr->classes == NULL)
    die ("training data", error);
  cls = gnn_tensor_one_hot (tr->classes, 10, &error);
  tr->onehot = cls ? gnn_tensor_to_dtype (cls, GNN_DTYPE_FLOAT32, &error) : NULL;
  if (tr->onehot == NULL)
    die ("one-hot targets", error);
  tr->lr = 0.01;
}

static void
train_clear (Train *tr)
{
  g_clear_object (&tr->model);
  g_clear_pointer (&tr->params, g_ptr_array_unref);
  g_clear_object (&tr->x);
  g_clear_object (&tr->classes);
  g_clear_object (&tr->onehot);
}

static void
report_train (const char *name, Train *tr, gint64 batch)
{
  guint64 t0, t1;
  double t;
  g_autofree char *tname = g_strdup_printf ("%s-host-transfers", name);
  g_autoptr(GError) error = NULL;

  t = measure (train_step, tr, 3);
  report (name, batch / t, "samples/s");
  t0 = transfers ();
  if (!train_step (tr, &error))
    die ("step", error);
  t1 = transfers ();
  if (g_str_equal (impl, "gnn-cuda"))
    report (tname, (double) (t1 - t0), "per step");
}

static void
bench_mlp (void)
{
  g_autoptr(GError) error = NULL;
  GnnModule *layers[5];
  gint64 xshape[2] = { 128, 784 };
  Train tr = { 0 };

  layers[0] = GNN_MODULE (gnn_linear_new (784, 512, TRUE, &error));
  layers[1] = GNN_MODULE (gnn_relu_new ());
  layers[2] = GNN_MODULE (gnn_linear_new (512, 256, TRUE, &error));
  layers[3] = GNN_MODULE (gnn_relu_new ());
  layers[4] = GNN_MODULE (gnn_linear_new (256, 10, TRUE, &error));
  if (error)
    die ("mlp", error);
  train_setup (&tr, layers, 5, xshape, 2, 128);
  report_train ("mlp-train-b128", &tr, 128);
  if (g_str_equal (impl, "gnn-cuda"))
    {
      tr.mse = TRUE;
      report_train ("mlp-train-b128-mse", &tr, 128);
    }
  train_clear (&tr);
}

static void
bench_cnn (void)
{
  g_autoptr(GError) error = NULL;
  GnnModule *layers[11];
  gint64 xshape[4] = { 64, 1, 28, 28 };
  const gint64 k3[2] = { 3, 3 }, one[2] = { 1, 1 }, zero[2] = { 0, 0 }, two[2] = { 2, 2 };
  Train tr = { 0 };

  layers[0] = GNN_MODULE (gnn_conv2d_new (1, 32, k3, one, zero, one, 1, TRUE, GNN_DTYPE_FLOAT32, &error));
  layers[1] = GNN_MODULE (gnn_relu_new ());
  layers[2] = GNN_MODULE (gnn_max_pool2d_new (two, NULL, NULL, NULL, FALSE));
  layers[3] = GNN_MODULE (gnn_conv2d_new (32, 64, k3, one, zero, one, 1, TRUE, GNN_DTYPE_FLOAT32, &error));
  layers[4] = GNN_MODULE (gnn_relu_new ());
  layers[5] = GNN_MODULE (gnn_max_pool2d_new (two, NULL, NULL, NULL, FALSE));
  layers[6] = GNN_MODULE (gnn_flatten_new (1, -1));
  layers[7] = GNN_MODULE (gnn_linear_new (1600, 128, TRUE, &error));
  layers[8] = GNN_MODULE (gnn_relu_new ());
  layers[9] = GNN_MODULE (gnn_linear_new (128, 10, TRUE, &error));
  if (error)
    die ("cnn", error);
  train_setup (&tr, layers, 10, xshape, 4, 64);
  report_train ("cnn-train-b64", &tr, 64);
  train_clear (&tr);
}

/* ---- EMA over a 10M-float parameter list ----------------------------------------------- */

#define EMA_TENSORS 100
#define EMA_NUMEL 100000

typedef struct {
  GnnTensor *avg[EMA_TENSORS];
  GnnTensor *cur[EMA_TENSORS];
  GnnTensor *big_src, *big_dst;
} Ema;

static gboolean
ema_step (gpointer data, GError **error)
{
  Ema *e = data;
  return gnn_foreach_lerp_ (e->avg, e->cur, EMA_TENSORS, 0.001, error);
}

static gboolean
copy_step (gpointer data, GError **error)
{
  Ema *e = data;
  return gnn_tensor_copy_ (e->big_dst, e->big_src, error);
}

static void
bench_ema (void)
{
  g_autoptr(GError) error = NULL;
  gint64 shape[1] = { EMA_NUMEL };
  gint64 big[1] = { (gint64) EMA_TENSORS * EMA_NUMEL };
  double bytes = 4.0 * EMA_TENSORS * EMA_NUMEL;
  Ema e = { 0 };
  double t;

  for (guint i = 0; i < EMA_TENSORS; i++)
    {
      e.avg[i] = gnn_tensor_new_randn (shape, 1, NULL, GNN_DTYPE_FLOAT32, device, &error);
      e.cur[i] = e.avg[i] ? gnn_tensor_new_randn (shape, 1, NULL, GNN_DTYPE_FLOAT32, device, &error) : NULL;
      if (e.cur[i] == NULL)
        die ("ema tensors", error);
    }
  e.big_src = gnn_tensor_new_randn (big, 1, NULL, GNN_DTYPE_FLOAT32, device, &error);
  e.big_dst = e.big_src ? gnn_tensor_new_zeros (big, 1, GNN_DTYPE_FLOAT32, device, &error) : NULL;
  if (e.big_dst == NULL)
    die ("copy tensors", error);

  t = measure (ema_step, &e, 3);
  report ("ema-10M-foreach-lerp", t * 1e3, "ms/update");
  report ("ema-10M-foreach-lerp-bw", 3 * bytes / t / 1e9, "GB/s");
  t = measure (copy_step, &e, 3);
  report ("d2d-copy-40MB", t * 1e3, "ms");
  report ("d2d-copy-40MB-bw", 2 * bytes / t / 1e9, "GB/s");

  for (guint i = 0; i < EMA_TENSORS; i++)
    {
      g_object_unref (e.avg[i]);
      g_object_unref (e.cur[i]);
    }
  g_object_unref (e.big_src);
  g_object_unref (e.big_dst);
}

int
main (int argc, char **argv)
{
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) only = NULL;
  const char *only_arg = "gemm,mlp,cnn,ema";
  g_autofree char *desc = NULL;

  for (int i = 1; i < argc; i++)
    {
      if (g_str_equal (argv[i], "--device") && i + 1 < argc)
        device = argv[++i];
      else if (g_str_equal (argv[i], "--only") && i + 1 < argc)
        only_arg = argv[++i];
      else if (g_str_equal (argv[i], "--min-time") && i + 1 < argc)
        min_time = g_ascii_strtod (argv[++i], NULL);
      else
        {
          fprintf (stderr, "usage: %s [--device cuda|cpu] [--only gemm,mlp,cnn,ema] [--min-time S]\n", argv[0]);
          return 2;
        }
    }
  only = g_strsplit (only_arg, ",", -1);
  impl = g_str_has_prefix (device, "cuda") ? "gnn-cuda" : "gnn-cpu";
  backend = gnn_backend_get_for_device_type (g_str_has_prefix (device, "cuda") ? "cuda" : "cpu", &error);
  if (backend == NULL)
    die ("backend", error);
  if (gnn_backend_get_device_count (backend) == 0)
    {
      g_autofree char *text = gnn_backend_describe_available ();
      fprintf (stderr, "bench-cuda: no %s device\n%s", device, text);
      return 77;
    }
  desc = gnn_backend_get_device_description (backend, 0);
  printf ("# %s: %s backend, %s\n", impl, gnn_backend_get_name (backend), desc);
  gnn_manual_seed (0);
  if (g_strv_contains ((const char * const *) only, "gemm"))
    bench_gemm ();
  if (g_strv_contains ((const char * const *) only, "mlp"))
    bench_mlp ();
  if (g_strv_contains ((const char * const *) only, "cnn"))
    bench_cnn ();
  if (g_strv_contains ((const char * const *) only, "ema"))
    bench_ema ();
  return 0;
}
