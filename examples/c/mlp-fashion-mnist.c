/* mlp-fashion-mnist.c: a 784-H-10 MLP trained on Fashion-MNIST with gnn's functional API
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The PyTorch program this follows, written without torch.nn modules or torch.optim:
 *
 *   w1 = torch.empty (H, 784).uniform_ (-1 / sqrt (784), 1 / sqrt (784)).requires_grad_ ()
 *   ...
 *   for x, y in batches:
 *       logp = F.log_softmax (F.linear (F.relu (F.linear (x, w1, b1)), w2, b2), 1)
 *       loss = -logp.gather (1, y.unsqueeze (1)).mean ()
 *       loss.backward ()
 *       with torch.no_grad ():
 *           for p in params:
 *               p.add_ (p.grad, alpha=-lr); p.grad = None
 *
 * Run it with --help for the options. It needs Fashion-MNIST's four IDX files, as Debian's
 * dataset-fashion-mnist package installs them in /usr/share/datasets/fashion-mnist; when
 * they are missing it says so and exits with status 77 (the "skipped" status of meson tests).
 */
#include <gnn/gnn.h>
#include <math.h>
#include <stdlib.h>

#define DEFAULT_DATA_DIR "/usr/share/datasets/fashion-mnist"
#define N_PIXELS 784
#define N_CLASSES 10
#define EXIT_DATA_MISSING 77

/* the mean and standard deviation of Fashion-MNIST's training pixels, scaled to [0, 1] */
#define PIXEL_MEAN 0.2860
#define PIXEL_STD 0.3530

typedef struct
{
  char    *data_dir;
  int      epochs;
  int      batch_size;
  double   lr;
  double   momentum;
  int      hidden;
  gint64   seed;
  int      threads;
  int      limit;
} Options;

typedef struct
{
  GnnTensor *images;  /* (N, 784) float32, normalised */
  GnnTensor *labels;  /* (N) int64 */
  gint64     n;
} Split;

static void
split_clear (Split *split)
{
  g_clear_object (&split->images);
  g_clear_object (&split->labels);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Split, split_clear)

/* ---- data --------------------------------------------------------------------------- */

/* Finds @name in @dir, gzipped or not. */
static char *
find_data_file (const char *dir,
                const char *name)
{
  g_autofree char *gz_name = g_strconcat (name, ".gz", NULL);
  g_autofree char *gz = g_build_filename (dir, gz_name, NULL);
  g_autofree char *raw = g_build_filename (dir, name, NULL);

  if (g_file_test (gz, G_FILE_TEST_IS_REGULAR))
    return g_steal_pointer (&gz);
  if (g_file_test (raw, G_FILE_TEST_IS_REGULAR))
    return g_steal_pointer (&raw);
  return NULL;
}

/* Loads one split: images as (N, 784) float32, (x / 255 - mean) / std; labels as int64.
 * @limit > 0 keeps only the first @limit examples. */
static gboolean
load_split (const char  *images_path,
            const char  *labels_path,
            gint64       limit,
            Split       *split,
            GError     **error)
{
  g_autoptr(GnnTensor) images_u8 = NULL;
  g_autoptr(GnnTensor) labels_u8 = NULL;
  g_autoptr(GnnTensor) flat = NULL;
  gint64 n;

  images_u8 = gnn_idx_load (images_path, error);
  if (images_u8 == NULL)
    return FALSE;
  labels_u8 = gnn_idx_load (labels_path, error);
  if (labels_u8 == NULL)
    return FALSE;

  n = gnn_tensor_get_size (images_u8, 0, NULL);
  if (gnn_tensor_get_ndim (images_u8) != 3 || gnn_tensor_get_numel (images_u8) != n * N_PIXELS ||
      gnn_tensor_get_ndim (labels_u8) != 1 || gnn_tensor_get_size (labels_u8, 0, NULL) != n)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_FILE_FORMAT,
                   "expected (N, 28, 28) images and (N) labels in %s and %s",
                   images_path, labels_path);
      return FALSE;
    }
  if (limit > 0 && limit < n)
    {
      GnnTensor *t;

      n = limit;
      t = gnn_tensor_narrow (images_u8, 0, 0, n, error);
      if (t == NULL)
        return FALSE;
      g_object_unref (images_u8);
      images_u8 = t;
      t = gnn_tensor_narrow (labels_u8, 0, 0, n, error);
      if (t == NULL)
        return FALSE;
      g_object_unref (labels_u8);
      labels_u8 = t;
    }

  /* uint8 (N, 28, 28) → float32 (N, 784); then (x / 255 - mean) / std, computed in place as
   * x * (1 / (255 std)) - mean / std to spare two 188 MB temporaries */
  if ((flat = gnn_tensor_reshape (images_u8, (gint64[]) { n, N_PIXELS }, 2, error)) == NULL ||
      (split->images = gnn_tensor_to_dtype (flat, GNN_DTYPE_FLOAT32, error)) == NULL ||
      !gnn_tensor_mul_scalar_ (split->images, 1.0 / (255.0 * PIXEL_STD), error) ||
      !gnn_tensor_add_scalar_ (split->images, -PIXEL_MEAN / PIXEL_STD, error))
    return FALSE;
  split->labels = gnn_tensor_to_dtype (labels_u8, GNN_DTYPE_INT64, error);
  if (split->labels == NULL)
    return FALSE;
  split->n = n;
  return TRUE;
}

/* ---- the model ---------------------------------------------------------------------- */

typedef struct
{
  GnnTensor *w1, *b1, *w2, *b2;  /* leaves that require grad */
  GnnTensor *momentum[4];        /* SGD momentum buffers, created at the first step */
} Mlp;

static void
mlp_clear (Mlp *mlp)
{
  g_clear_object (&mlp->w1);
  g_clear_object (&mlp->b1);
  g_clear_object (&mlp->w2);
  g_clear_object (&mlp->b2);
  for (guint i = 0; i < G_N_ELEMENTS (mlp->momentum); i++)
    g_clear_object (&mlp->momentum[i]);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Mlp, mlp_clear)

/* nn.Linear's default init: kaiming_uniform_ with a = sqrt (5), which comes to
 * U(-1/sqrt (fan_in), 1/sqrt (fan_in)), for the weight and the bias alike. */
static GnnTensor *
uniform_param (const gint64  *shape,
               guint          ndim,
               gint64         fan_in,
               GnnGenerator  *generator,
               GError       **error)
{
  double bound = 1.0 / sqrt ((double) fan_in);
  g_autoptr(GnnTensor) u = NULL;
  g_autoptr(GnnTensor) scaled = NULL;
  g_autoptr(GnnTensor) p = NULL;

  if ((u = gnn_tensor_new_rand (shape, ndim, generator, GNN_DTYPE_FLOAT32, NULL, error)) == NULL ||
      (scaled = gnn_tensor_mul_scalar (u, 2.0 * bound, error)) == NULL ||
      (p = gnn_tensor_sub_scalar (scaled, bound, error)) == NULL ||
      !gnn_tensor_set_requires_grad (p, TRUE, error))
    return NULL;
  return g_steal_pointer (&p);
}

static gboolean
mlp_init (Mlp           *mlp,
          gint64         hidden,
          GnnGenerator  *generator,
          GError       **error)
{
  return (mlp->w1 = uniform_param ((gint64[]) { hidden, N_PIXELS }, 2, N_PIXELS, generator, error)) != NULL &&
         (mlp->b1 = uniform_param ((gint64[]) { hidden }, 1, N_PIXELS, generator, error)) != NULL &&
         (mlp->w2 = uniform_param ((gint64[]) { N_CLASSES, hidden }, 2, hidden, generator, error)) != NULL &&
         (mlp->b2 = uniform_param ((gint64[]) { N_CLASSES }, 1, hidden, generator, error)) != NULL;
}

/* log_softmax (linear (relu (linear (x, w1, b1)), w2, b2)): (B, 784) → (B, 10) */
static GnnTensor *
mlp_forward (Mlp        *mlp,
             GnnTensor  *x,
             GError    **error)
{
  g_autoptr(GnnTensor) h = NULL;
  g_autoptr(GnnTensor) r = NULL;
  g_autoptr(GnnTensor) logits = NULL;

  if ((h = gnn_tensor_linear (x, mlp->w1, mlp->b1, error)) == NULL ||
      (r = gnn_tensor_relu (h, error)) == NULL ||
      (logits = gnn_tensor_linear (r, mlp->w2, mlp->b2, error)) == NULL)
    return NULL;
  return gnn_tensor_log_softmax (logits, 1, error);
}

/* the mean negative log-likelihood: -mean (log_probs[i, targets[i]]) */
static GnnTensor *
nll_loss (GnnTensor  *log_probs,
          GnnTensor  *targets,
          GError    **error)
{
  g_autoptr(GnnTensor) index = NULL;
  g_autoptr(GnnTensor) picked = NULL;
  g_autoptr(GnnTensor) mean = NULL;

  if ((index = gnn_tensor_unsqueeze (targets, 1, error)) == NULL ||
      (picked = gnn_tensor_gather (log_probs, 1, index, error)) == NULL ||
      (mean = gnn_tensor_mean_all (picked, error)) == NULL)
    return NULL;
  return gnn_tensor_neg (mean, error);
}

/* p -= lr * grad (with momentum: buf = momentum * buf + grad; p -= lr * buf), as torch.optim.SGD
 * does without weight decay, then p.grad = None. */
static gboolean
sgd_step (Mlp     *mlp,
          double   lr,
          double   momentum,
          GError **error)
{
  g_autoptr(GnnNoGradGuard) no_grad = gnn_no_grad_guard_new ();
  GnnTensor *params[4] = { mlp->w1, mlp->b1, mlp->w2, mlp->b2 };

  for (guint i = 0; i < G_N_ELEMENTS (params); i++)
    {
      GnnTensor *grad = gnn_tensor_get_grad (params[i]);
      GnnTensor *step = grad;

      if (grad == NULL)
        continue;
      if (momentum != 0.0)
        {
          if (mlp->momentum[i] == NULL)
            {
              mlp->momentum[i] = gnn_tensor_clone (grad, error);
              if (mlp->momentum[i] == NULL)
                return FALSE;
            }
          else if (!gnn_tensor_mul_scalar_ (mlp->momentum[i], momentum, error) ||
                   !gnn_tensor_add_ (mlp->momentum[i], grad, 1.0, error))
            return FALSE;
          step = mlp->momentum[i];
        }
      if (!gnn_tensor_add_ (params[i], step, -lr, error) ||
          !gnn_tensor_set_grad (params[i], NULL, error))
        return FALSE;
    }
  return TRUE;
}

/* ---- training and evaluation -------------------------------------------------------- */

/* Fisher-Yates with a GRand, so that the order is the same for a seed on every machine. */
static void
shuffle (gint64 *perm,
         gint64  n,
         GRand  *rand)
{
  for (gint64 i = 0; i < n; i++)
    perm[i] = i;
  for (gint64 i = n - 1; i > 0; i--)
    {
      gint64 j = g_rand_int_range (rand, 0, (gint32) (i + 1));
      gint64 tmp = perm[i];

      perm[i] = perm[j];
      perm[j] = tmp;
    }
}

/* One pass over @train in shuffled batches; the mean of the batch losses in @mean_loss. */
static gboolean
train_epoch (Mlp            *mlp,
             const Split    *train,
             const Options  *opts,
             GRand          *rand,
             double         *mean_loss,
             GError        **error)
{
  g_autofree gint64 *perm = g_new (gint64, train->n);
  double total = 0;
  gint64 n_batches = 0;

  shuffle (perm, train->n, rand);
  for (gint64 start = 0; start < train->n; start += opts->batch_size)
    {
      gint64 bs = MIN (opts->batch_size, train->n - start);
      g_autoptr(GnnTensor) index = NULL;
      g_autoptr(GnnTensor) x = NULL;
      g_autoptr(GnnTensor) y = NULL;
      g_autoptr(GnnTensor) log_probs = NULL;
      g_autoptr(GnnTensor) loss = NULL;
      GError *local_error = NULL;
      double value;

      if ((index = gnn_tensor_new_from_int64s (perm + start, bs, (gint64[]) { bs }, 1, error)) == NULL ||
          (x = gnn_tensor_index_select (train->images, 0, index, error)) == NULL ||
          (y = gnn_tensor_index_select (train->labels, 0, index, error)) == NULL ||
          (log_probs = mlp_forward (mlp, x, error)) == NULL ||
          (loss = nll_loss (log_probs, y, error)) == NULL ||
          !gnn_tensor_backward (loss, NULL, FALSE, error) ||
          !sgd_step (mlp, opts->lr, opts->momentum, error))
        return FALSE;
      value = gnn_tensor_item (loss, &local_error);
      if (local_error != NULL)
        {
          g_propagate_error (error, local_error);
          return FALSE;
        }
      if (!isfinite (value))
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_FAILED,
                       "the loss diverged to %g at example %" G_GINT64_FORMAT "; try a smaller --lr",
                       value, start);
          return FALSE;
        }
      total += value;
      n_batches++;
    }
  *mean_loss = n_batches > 0 ? total / n_batches : 0;
  return TRUE;
}

/* The fraction of @test whose most likely class is the label. */
static gboolean
evaluate (Mlp          *mlp,
          const Split  *test,
          double       *accuracy,
          GError      **error)
{
  g_autoptr(GnnNoGradGuard) no_grad = gnn_no_grad_guard_new ();
  const gint64 chunk = 2000;
  double correct = 0;

  for (gint64 start = 0; start < test->n; start += chunk)
    {
      gint64 len = MIN (chunk, test->n - start);
      g_autoptr(GnnTensor) x = NULL;
      g_autoptr(GnnTensor) y = NULL;
      g_autoptr(GnnTensor) log_probs = NULL;
      g_autoptr(GnnTensor) predicted = NULL;
      g_autoptr(GnnTensor) hits = NULL;
      g_autoptr(GnnTensor) n_hits = NULL;
      GError *local_error = NULL;

      if ((x = gnn_tensor_narrow (test->images, 0, start, len, error)) == NULL ||
          (y = gnn_tensor_narrow (test->labels, 0, start, len, error)) == NULL ||
          (log_probs = mlp_forward (mlp, x, error)) == NULL ||
          (predicted = gnn_tensor_argmax (log_probs, 1, FALSE, error)) == NULL ||
          (hits = gnn_tensor_eq (predicted, y, error)) == NULL ||
          (n_hits = gnn_tensor_sum_all (hits, error)) == NULL)
        return FALSE;
      correct += gnn_tensor_item (n_hits, &local_error);
      if (local_error != NULL)
        {
          g_propagate_error (error, local_error);
          return FALSE;
        }
    }
  *accuracy = test->n > 0 ? correct / test->n : 0;
  return TRUE;
}

/* ---- main --------------------------------------------------------------------------- */

static gboolean
run (Options  *opts,
     double   *final_accuracy,
     GError  **error)
{
  g_auto(Split) train = { 0 };
  g_auto(Split) test = { 0 };
  g_auto(Mlp) mlp = { 0 };
  g_autoptr(GnnGenerator) generator = gnn_generator_new ((guint64) opts->seed);
  g_autoptr(GRand) rand = g_rand_new_with_seed ((guint32) opts->seed);
  g_autofree char *train_images = find_data_file (opts->data_dir, "train-images-idx3-ubyte");
  g_autofree char *train_labels = find_data_file (opts->data_dir, "train-labels-idx1-ubyte");
  g_autofree char *test_images = find_data_file (opts->data_dir, "t10k-images-idx3-ubyte");
  g_autofree char *test_labels = find_data_file (opts->data_dir, "t10k-labels-idx1-ubyte");
  gint64 t0 = g_get_monotonic_time ();

  if (!load_split (train_images, train_labels, opts->limit, &train, error) ||
      !load_split (test_images, test_labels, 0, &test, error))
    return FALSE;
  g_print ("Fashion-MNIST: %" G_GINT64_FORMAT " training and %" G_GINT64_FORMAT
           " test images, loaded in %.2f s\n",
           train.n, test.n, (g_get_monotonic_time () - t0) / 1e6);
  g_print ("MLP 784-%d-10, %d epochs, batch %d, lr %g, momentum %g, seed %" G_GINT64_FORMAT
           ", %d threads\n",
           opts->hidden, opts->epochs, opts->batch_size, opts->lr, opts->momentum, opts->seed,
           gnn_get_num_threads ());

  if (!mlp_init (&mlp, opts->hidden, generator, error))
    return FALSE;

  *final_accuracy = 0;
  for (int epoch = 1; epoch <= opts->epochs; epoch++)
    {
      gint64 start = g_get_monotonic_time ();
      double loss, accuracy;

      if (!train_epoch (&mlp, &train, opts, rand, &loss, error) ||
          !evaluate (&mlp, &test, &accuracy, error))
        return FALSE;
      g_print ("epoch %d: train loss %.4f, test accuracy %.4f, %.2f s\n",
               epoch, loss, accuracy, (g_get_monotonic_time () - start) / 1e6);
      *final_accuracy = accuracy;
    }
  if (opts->epochs == 0 && !evaluate (&mlp, &test, final_accuracy, error))
    return FALSE;
  g_print ("total time: %.2f s\n", (g_get_monotonic_time () - t0) / 1e6);
  return TRUE;
}

int
main (int    argc,
      char **argv)
{
  Options opts = {
    .data_dir = NULL,
    .epochs = 3,
    .batch_size = 128,
    .lr = 0.1,
    .momentum = 0.0,
    .hidden = 256,
    .seed = 0,
    .threads = 0,
    .limit = 0,
  };
  const GOptionEntry entries[] = {
    { "data", 0, 0, G_OPTION_ARG_FILENAME, &opts.data_dir,
      "The folder with Fashion-MNIST's IDX files (default " DEFAULT_DATA_DIR ")", "DIR" },
    { "epochs", 0, 0, G_OPTION_ARG_INT, &opts.epochs, "Passes over the training set (default 3)", "N" },
    { "batch-size", 0, 0, G_OPTION_ARG_INT, &opts.batch_size, "Examples per step (default 128)", "N" },
    { "lr", 0, 0, G_OPTION_ARG_DOUBLE, &opts.lr, "The SGD learning rate (default 0.1)", "LR" },
    { "momentum", 0, 0, G_OPTION_ARG_DOUBLE, &opts.momentum, "SGD momentum, e.g. 0.9 (default 0)", "M" },
    { "hidden", 0, 0, G_OPTION_ARG_INT, &opts.hidden, "Hidden units (default 256)", "H" },
    { "seed", 0, 0, G_OPTION_ARG_INT64, &opts.seed, "Seed of the initialisation and shuffling (default 0)", "S" },
    { "threads", 0, 0, G_OPTION_ARG_INT, &opts.threads, "Compute threads (default: gnn's choice)", "N" },
    { "limit", 0, 0, G_OPTION_ARG_INT, &opts.limit, "Train on the first N images only (default: all)", "N" },
    G_OPTION_ENTRY_NULL
  };
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *data_dir = NULL;
  double accuracy = 0;

  context = g_option_context_new ("- train an MLP on Fashion-MNIST");
  g_option_context_set_summary (context,
    "Trains a 784-H-10 multilayer perceptron on Fashion-MNIST with gnn's functional API and\n"
    "plain SGD, printing the training loss and the test accuracy after each epoch.\n"
    "Exits with status 77 when the data is missing.");
  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      g_printerr ("%s: %s\n", g_get_prgname (), error->message);
      return EXIT_FAILURE;
    }
  if (opts.epochs < 0 || opts.batch_size <= 0 || opts.hidden <= 0 || opts.limit < 0 ||
      !(opts.lr > 0) || opts.momentum < 0 || opts.momentum >= 1)
    {
      g_printerr ("%s: expected --epochs >= 0, --batch-size > 0, --hidden > 0, --limit >= 0, "
                  "--lr > 0 and 0 <= --momentum < 1\n", g_get_prgname ());
      return EXIT_FAILURE;
    }
  data_dir = opts.data_dir ? g_steal_pointer (&opts.data_dir) : g_strdup (DEFAULT_DATA_DIR);
  opts.data_dir = data_dir;

  {
    const char *names[] = { "train-images-idx3-ubyte", "train-labels-idx1-ubyte",
                            "t10k-images-idx3-ubyte", "t10k-labels-idx1-ubyte" };

    for (guint i = 0; i < G_N_ELEMENTS (names); i++)
      {
        g_autofree char *path = find_data_file (data_dir, names[i]);

        if (path == NULL)
          {
            g_printerr ("%s: Fashion-MNIST not found: expected %s.gz (or %s) in %s; install Debian's "
                        "dataset-fashion-mnist package or pass --data DIR\n",
                        g_get_prgname (), names[i], names[i], data_dir);
            return EXIT_DATA_MISSING;
          }
      }
  }

  if (opts.threads > 0)
    gnn_set_num_threads (opts.threads);

  if (!run (&opts, &accuracy, &error))
    {
      g_printerr ("%s: %s\n", g_get_prgname (), error->message);
      return EXIT_FAILURE;
    }
  g_print ("test accuracy: %.4f\n", accuracy);
  return EXIT_SUCCESS;
}
