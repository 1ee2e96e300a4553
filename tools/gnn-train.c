/* gnn-train.c: train a model on Fashion-MNIST, gnn's main job
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The PyTorch program this follows (bench/train_torch.py is it, runnable):
 *
 *   model = nn.Sequential (Conv2d (1, 32, 3, padding=1), BatchNorm2d (32), ReLU (), MaxPool2d (2),
 *                          Conv2d (32, 64, 3, padding=1), BatchNorm2d (64), ReLU (), MaxPool2d (2),
 *                          Flatten (), Linear (3136, 128), ReLU (), Dropout (0.25), Linear (128, 10))
 *   opt = AdamW (model.parameters (), lr, weight_decay=wd)
 *   sched = CosineAnnealingLR (opt, T_max=epochs)
 *   for epoch in range (epochs):
 *       for x, y in loader:
 *           opt.zero_grad (); F.cross_entropy (model (x), y).backward (); opt.step ()
 *           ema.update_parameters (model)                      # with --ema-decay
 *       if swa_start is not None and epoch + 1 >= swa_start:   # with --swa-start
 *           swa.update_parameters (model); swa_sched.step ()
 *       else:
 *           sched.step ()
 *   update_bn (loader, swa)
 *
 * Everything that a run depends on (parameters, buffers, optimizer and scheduler state, the
 * averages, the default generator that dropout draws from, the position in the epoch, the
 * options) goes into one checkpoint (GnnCheckpoint), at the end of every epoch with --save and
 * on Ctrl-C, so that --resume continues bit for bit: the loader's order is a function of its
 * seed and epoch alone.
 *
 * With --prune-global AMOUNT, the trained model is then pruned (torch.nn.utils.prune):
 *
 *   prune.global_unstructured ([(m, "weight") for m in model.modules ()
 *                               if isinstance (m, (nn.Conv2d, nn.Linear))],
 *                              pruning_method=prune.L1Unstructured, amount=AMOUNT)
 *
 * tested, fine-tuned --prune-epochs epochs by a fresh optimizer of the same kind at the constant
 * --prune-lr, tested again, and made permanent (prune.remove) before the last checkpoint is
 * saved, so that the checkpoint holds a plain model.
 *
 * With --distributed, under `mpirun -np N`, the run is torch's DistributedDataParallel with a
 * DistributedSampler: every rank starts from rank 0's parameters and buffers, trains on its
 * share of each epoch's order (the order of one process, padded by wrapping to a multiple of N,
 * then indices[rank::N]) in batches of --batch-size (per rank, as torch's), and averages the
 * gradients over the ranks after each backward, so the ranks stay identical; rank 0's buffers
 * are broadcast before each forward (broadcast_buffers). Rank 0 alone prints and writes the
 * checkpoints, which record the world size: --resume with the same world size continues bit for
 * bit, with another one it continues at the same epoch and the same number of samples seen,
 * resharded, and says that it is not exact.
 *
 * The second task, --task charlm (gnn-train-charlm.c), trains a small GPT on the text of the
 * fortunes package with the same checkpoints, --resume and Ctrl-C.
 *
 * Exit status: 0 on success, 1 when training fails, 2 for bad usage (options, missing data,
 * an unreadable model or checkpoint), 130 after Ctrl-C (with a checkpoint saved).
 */
#include <gnn/gnn.h>

#include "gnn-tool.h"
#include "gnn-train-charlm.h"
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <locale.h>

#define DEFAULT_DATA_DIR "/usr/share/datasets/fashion-mnist"
#define INTERRUPTED_PATH "gnn-train-interrupted.safetensors"
#define EXIT_USAGE 2
#define EXIT_INTERRUPTED 130

/* the mean and standard deviation of Fashion-MNIST's training pixels, scaled to [0, 1] */
#define PIXEL_MEAN 0.2860
#define PIXEL_STD 0.3530

/* metadata keys of the checkpoint */
#define META_PREFIX "gnn-train."
#define META_EPOCH META_PREFIX "epoch"          /* the epoch in progress, 0-based */
#define META_BATCH META_PREFIX "batch"          /* the next batch of that epoch */
#define META_LOSS_SUM META_PREFIX "loss-sum"    /* the sum of this epoch's batch losses */
#define META_SAMPLES META_PREFIX "samples"      /* the samples seen this epoch */
#define META_SWALR META_PREFIX "swalr"          /* the SWALR scheduler's state, a GVariant text */
#define META_DONE META_PREFIX "done"            /* "true" once training has finished */
#define META_WORLD META_PREFIX "world-size"     /* the number of ranks (1 without --distributed) */

/* ---- options ------------------------------------------------------------------------------ */

/* Unset values (-1, NAN, NULL) mark options not given, so that --resume can tell the options
 * a user repeated from those the checkpoint brings. */
typedef struct
{
  char    *model_file;
  int      epochs;
  int      batch_size;
  char    *optimizer;
  double   lr;
  double   momentum;
  double   weight_decay;
  int      cosine;       /* -1 unset, 0 off, 1 on */
  gint64   seed;
  gboolean seed_set;
  int      swa_start;    /* 0: no SWA */
  double   swa_lr;
  double   ema_decay;    /* 0: no EMA */
  int      limit;        /* 0: all */
  int      test_limit;   /* 0: all */
  char    *overrides;    /* with --resume: the options given that differ from the checkpoint's */
  char    *save;
  char    *resume;
  int      threads;
  char    *data_dir;
  char    *task;
  gboolean distributed;
  /* --prune-global: the amount as torch's (a fraction, or a count of weights) */
  gboolean prune;
  double   prune_amount;
  gboolean prune_is_count;
  int      prune_epochs; /* G_MININT unset: 1 */
  double   prune_lr;     /* NAN unset: --lr / 10 */
} Options;

static void
options_clear (Options *opts)
{
  g_free (opts->model_file);
  g_free (opts->optimizer);
  g_free (opts->save);
  g_free (opts->resume);
  g_free (opts->data_dir);
  g_free (opts->overrides);
  g_free (opts->task);
}

static double
default_lr (const char *optimizer)
{
  return g_str_equal (optimizer, "sgd") ? 0.05 : 0.002;
}

static double
default_weight_decay (const char *optimizer)
{
  if (g_str_equal (optimizer, "sgd"))
    return 5e-4;
  return g_str_equal (optimizer, "adamw") ? 0.01 : 0.0;
}

/* The options that shape the run, kept in the checkpoint as metadata (gnn-train.option.KEY)
 * and restored by --resume. Those that shape the training must not differ on the command
 * line (the run would not continue, it would become another one); those that shape only the
 * evaluation may, and gnn-train says which it overrides. A checkpoint from before an
 * evaluation option was kept lacks it: the command line or the default then decides. The
 * options left out (--save, --resume, --threads, --data-dir) change where files are and how
 * fast it runs, not what it computes. */
static const GnnToolRunOption run_options[] = {
  { "epochs" }, { "batch-size" }, { "optimizer" }, { "lr" }, { "momentum" }, { "weight-decay" },
  { "cosine" }, { "seed" }, { "swa-start" }, { "swa-lr" }, { "ema-decay" }, { "limit" },
  { "test-limit", TRUE },
};

static char *
option_to_string (gconstpointer data,
                  guint         i)
{
  const Options *opts = data;
  const char *key = run_options[i].key;
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  if (g_str_equal (key, "epochs"))
    return g_strdup_printf ("%d", opts->epochs);
  if (g_str_equal (key, "batch-size"))
    return g_strdup_printf ("%d", opts->batch_size);
  if (g_str_equal (key, "optimizer"))
    return g_strdup (opts->optimizer);
  if (g_str_equal (key, "lr"))
    return g_strdup (g_ascii_dtostr (buf, sizeof buf, opts->lr));
  if (g_str_equal (key, "momentum"))
    return g_strdup (g_ascii_dtostr (buf, sizeof buf, opts->momentum));
  if (g_str_equal (key, "weight-decay"))
    return g_strdup (g_ascii_dtostr (buf, sizeof buf, opts->weight_decay));
  if (g_str_equal (key, "cosine"))
    return g_strdup (opts->cosine ? "on" : "off");
  if (g_str_equal (key, "seed"))
    return g_strdup_printf ("%" G_GINT64_FORMAT, opts->seed);
  if (g_str_equal (key, "swa-start"))
    return g_strdup_printf ("%d", opts->swa_start);
  if (g_str_equal (key, "swa-lr"))
    return g_strdup (g_ascii_dtostr (buf, sizeof buf, opts->swa_lr));
  if (g_str_equal (key, "ema-decay"))
    return g_strdup (g_ascii_dtostr (buf, sizeof buf, opts->ema_decay));
  if (g_str_equal (key, "limit"))
    return g_strdup_printf ("%d", opts->limit);
  if (g_str_equal (key, "test-limit"))
    return g_strdup_printf ("%d", opts->test_limit);
  g_assert_not_reached ();
}

/* whether @key was given on the command line (before defaults are filled in) */
static gboolean
option_given (gconstpointer data,
              guint         i)
{
  const Options *opts = data;
  const char *key = run_options[i].key;

  if (g_str_equal (key, "epochs"))
    return opts->epochs >= 0;
  if (g_str_equal (key, "batch-size"))
    return opts->batch_size >= 0;
  if (g_str_equal (key, "optimizer"))
    return opts->optimizer != NULL;
  if (g_str_equal (key, "lr"))
    return !isnan (opts->lr);
  if (g_str_equal (key, "momentum"))
    return !isnan (opts->momentum);
  if (g_str_equal (key, "weight-decay"))
    return !isnan (opts->weight_decay);
  if (g_str_equal (key, "cosine"))
    return opts->cosine >= 0;
  if (g_str_equal (key, "seed"))
    return opts->seed_set;
  if (g_str_equal (key, "swa-start"))
    return opts->swa_start >= 0;
  if (g_str_equal (key, "swa-lr"))
    return !isnan (opts->swa_lr);
  if (g_str_equal (key, "ema-decay"))
    return !isnan (opts->ema_decay);
  if (g_str_equal (key, "limit"))
    return opts->limit >= 0;
  if (g_str_equal (key, "test-limit"))
    return opts->test_limit >= 0;
  g_assert_not_reached ();
}

/* Sets @key from its text in a checkpoint; FALSE when the text does not parse. */
static gboolean
option_from_string (gpointer    data,
                    guint       i,
                    const char *value)
{
  Options *opts = data;
  const char *key = run_options[i].key;
  char *end = NULL;

  if (g_str_equal (key, "optimizer"))
    {
      g_free (opts->optimizer);
      opts->optimizer = g_strdup (value);
      return TRUE;
    }
  if (g_str_equal (key, "cosine"))
    {
      opts->cosine = g_str_equal (value, "on");
      return TRUE;
    }
  if (g_str_equal (key, "lr") || g_str_equal (key, "momentum") || g_str_equal (key, "weight-decay") ||
      g_str_equal (key, "swa-lr") || g_str_equal (key, "ema-decay"))
    {
      double d = g_ascii_strtod (value, &end);

      if (end == value || *end != '\0')
        return FALSE;
      if (g_str_equal (key, "lr"))
        opts->lr = d;
      else if (g_str_equal (key, "momentum"))
        opts->momentum = d;
      else if (g_str_equal (key, "weight-decay"))
        opts->weight_decay = d;
      else if (g_str_equal (key, "swa-lr"))
        opts->swa_lr = d;
      else
        opts->ema_decay = d;
      return TRUE;
    }
  else
    {
      gint64 n = g_ascii_strtoll (value, &end, 10);

      if (end == value || *end != '\0')
        return FALSE;
      if (g_str_equal (key, "epochs"))
        opts->epochs = (int) n;
      else if (g_str_equal (key, "batch-size"))
        opts->batch_size = (int) n;
      else if (g_str_equal (key, "seed"))
        opts->seed = n;
      else if (g_str_equal (key, "swa-start"))
        opts->swa_start = (int) n;
      else if (g_str_equal (key, "limit"))
        opts->limit = (int) n;
      else if (g_str_equal (key, "test-limit"))
        opts->test_limit = (int) n;
      else
        return FALSE;
      return TRUE;
    }
}

static const GnnToolOptionTable option_table = {
  run_options, sizeof run_options[0], G_N_ELEMENTS (run_options),
  option_given, option_to_string, option_from_string,
};

static void
options_fill_defaults (Options *opts)
{
  if (opts->epochs < 0)
    opts->epochs = 6;
  if (opts->batch_size < 0)
    opts->batch_size = 128;
  if (opts->optimizer == NULL)
    opts->optimizer = g_strdup ("adamw");
  if (isnan (opts->lr))
    opts->lr = default_lr (opts->optimizer);
  if (isnan (opts->momentum))
    opts->momentum = 0.9;
  if (isnan (opts->weight_decay))
    opts->weight_decay = default_weight_decay (opts->optimizer);
  if (opts->cosine < 0)
    opts->cosine = 1;
  if (opts->swa_start < 0)
    opts->swa_start = 0;
  if (isnan (opts->swa_lr))
    opts->swa_lr = opts->lr / 10;
  if (isnan (opts->ema_decay))
    opts->ema_decay = 0;
  if (opts->limit < 0)
    opts->limit = 0;
  if (opts->test_limit < 0)
    opts->test_limit = 0;
  if (opts->prune && opts->prune_epochs == G_MININT)
    opts->prune_epochs = 1;
  if (opts->prune && isnan (opts->prune_lr))
    opts->prune_lr = opts->lr / 10;
}

/* The checks of the values; a message for the user or NULL. */
static char *
options_check (const Options *opts)
{
  if (!g_str_equal (opts->optimizer, "sgd") && !g_str_equal (opts->optimizer, "adam") &&
      !g_str_equal (opts->optimizer, "adamw"))
    return g_strdup_printf ("--optimizer: expected sgd, adam or adamw, found '%s'", opts->optimizer);
  if (opts->epochs < 1)
    return g_strdup_printf ("--epochs: expected at least 1, found %d", opts->epochs);
  if (opts->batch_size < 1)
    return g_strdup_printf ("--batch-size: expected at least 1, found %d", opts->batch_size);
  if (!(opts->lr > 0) || !isfinite (opts->lr))
    return g_strdup_printf ("--lr: expected a positive number, found %g", opts->lr);
  if (!(opts->momentum >= 0 && opts->momentum < 1))
    return g_strdup_printf ("--momentum: expected a value in [0, 1), found %g", opts->momentum);
  if (!(opts->weight_decay >= 0) || !isfinite (opts->weight_decay))
    return g_strdup_printf ("--weight-decay: expected a number >= 0, found %g", opts->weight_decay);
  if (opts->swa_start < 0 || opts->swa_start > opts->epochs)
    return g_strdup_printf ("--swa-start: expected an epoch from 1 to --epochs (%d), found %d",
                            opts->epochs, opts->swa_start);
  if (!(opts->swa_lr > 0) || !isfinite (opts->swa_lr))
    return g_strdup_printf ("--swa-lr: expected a positive number, found %g", opts->swa_lr);
  if (!(opts->ema_decay >= 0 && opts->ema_decay < 1))
    return g_strdup_printf ("--ema-decay: expected a value in (0, 1), found %g", opts->ema_decay);
  if (opts->limit < 0)
    return g_strdup_printf ("--limit: expected a number >= 0, found %d", opts->limit);
  if (opts->test_limit < 0)
    return g_strdup_printf ("--test-limit: expected a number >= 0, found %d", opts->test_limit);
  if (opts->threads < 0)
    return g_strdup_printf ("--threads: expected a number >= 1, found %d", opts->threads);
  if (!opts->prune && opts->prune_epochs != G_MININT)
    return g_strdup ("--prune-epochs: expected --prune-global too");
  if (!opts->prune && !isnan (opts->prune_lr))
    return g_strdup ("--prune-lr: expected --prune-global too");
  if (opts->prune && opts->prune_epochs < 0)
    return g_strdup_printf ("--prune-epochs: expected a number >= 0, found %d", opts->prune_epochs);
  if (opts->prune && (!(opts->prune_lr > 0) || !isfinite (opts->prune_lr)))
    return g_strdup_printf ("--prune-lr: expected a positive number, found %g", opts->prune_lr);
  return NULL;
}

static gboolean
parse_cosine (const char  *name,
              const char  *value,
              gpointer     data,
              GError     **error)
{
  Options *opts = data;

  if (g_str_equal (name, "--no-cosine"))
    opts->cosine = 0;
  else if (value == NULL || g_ascii_strcasecmp (value, "on") == 0 ||
           g_ascii_strcasecmp (value, "yes") == 0 || g_ascii_strcasecmp (value, "true") == 0 ||
           g_str_equal (value, "1"))
    opts->cosine = 1;
  else if (g_ascii_strcasecmp (value, "off") == 0 || g_ascii_strcasecmp (value, "no") == 0 ||
           g_ascii_strcasecmp (value, "false") == 0 || g_str_equal (value, "0"))
    opts->cosine = 0;
  else
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   "--cosine: expected on or off, found '%s'", value);
      return FALSE;
    }
  return TRUE;
}

static gboolean
parse_seed (const char  *name,
            const char  *value,
            gpointer     data,
            GError     **error)
{
  Options *opts = data;
  char *end = NULL;

  errno = 0;
  opts->seed = g_ascii_strtoll (value, &end, 10);
  if (end == value || *end != '\0' || errno != 0 || opts->seed < 0)
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   "--seed: expected an integer >= 0, found '%s'", value);
      return FALSE;
    }
  opts->seed_set = TRUE;
  return TRUE;
}

/* --prune-global AMOUNT: as torch's amount, a fraction in [0, 1] when written as a float
 * ("0.5", "1.0", "5e-1"), else a whole number of weights ("1000") */
static gboolean
parse_prune_global (const char  *name,
                    const char  *value,
                    gpointer     data,
                    GError     **error)
{
  Options *opts = data;
  char *end = NULL;

  (void) name;
  errno = 0;
  if (strpbrk (value, ".eEnN") != NULL)
    {
      double d = g_ascii_strtod (value, &end);

      if (end != value && *end == '\0' && errno == 0 && d >= 0.0 && d <= 1.0)
        {
          opts->prune = TRUE;
          opts->prune_amount = d;
          opts->prune_is_count = FALSE;
          return TRUE;
        }
    }
  else
    {
      gint64 n = g_ascii_strtoll (value, &end, 10);

      if (end != value && *end == '\0' && errno == 0 && n >= 0)
        {
          opts->prune = TRUE;
          opts->prune_amount = (double) n;
          opts->prune_is_count = TRUE;
          return TRUE;
        }
    }
  g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
               "--prune-global: expected a fraction in [0, 1] (such as 0.5) or a whole number of "
               "weights >= 0 (such as 1000), found '%s'", value);
  return FALSE;
}

/* ---- data --------------------------------------------------------------------------------- */

static const char *const data_names[] = {
  "train-images-idx3-ubyte", "train-labels-idx1-ubyte", "t10k-images-idx3-ubyte", "t10k-labels-idx1-ubyte",
};

/* ---- the model ---------------------------------------------------------------------------- */

static GnnModule *
model_from_file (const char  *path,
                 GError     **error)
{
  g_autofree char *json = NULL;
  gsize length;

  if (!g_file_get_contents (path, &json, &length, error))
    return NULL;
  return gnn_module_new_from_json (json, length, error);
}

static gint64
count_parameters (GnnModule *model)
{
  g_autoptr(GPtrArray) params = gnn_module_parameters (model, TRUE);
  gint64 n = 0;

  for (guint i = 0; i < params->len; i++)
    n += gnn_tensor_get_numel (g_ptr_array_index (params, i));
  return n;
}

/* ---- the trainer -------------------------------------------------------------------------- */

typedef struct
{
  Options           *opts;
  GnnModule         *model;
  GnnOptimizer      *optimizer;
  GnnLRScheduler    *scheduler;    /* cosine, or NULL with --cosine off */
  GnnLRScheduler    *swalr;        /* with --swa-start */
  GnnAveragedModel  *swa;
  GnnAveragedModel  *ema;
  GnnDataLoader     *train;
  GnnDataLoader     *test;

  /* the position: the epoch in progress (0-based), the next batch, this epoch's losses */
  int                epoch;
  guint              batch;
  double             loss_sum;
  gint64             samples;
  gboolean           done;

  /* --distributed: the default group, this rank and the number of ranks (NULL, 0 and 1
   * without), the training set and its transform, for the shard of each epoch */
  GnnProcessGroup   *group;
  int                rank;
  int                world;
  GnnDataset        *train_set;
  GnnTransform      *transform;
  gboolean           stop;         /* a rank was interrupted: every rank stops here */
} Trainer;

static void
trainer_clear (Trainer *t)
{
  g_clear_object (&t->model);
  g_clear_object (&t->optimizer);
  g_clear_object (&t->scheduler);
  g_clear_object (&t->swalr);
  g_clear_object (&t->swa);
  g_clear_object (&t->ema);
  g_clear_object (&t->train);
  g_clear_object (&t->test);
  g_clear_object (&t->train_set);
  g_clear_object (&t->transform);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Trainer, trainer_clear)

/* The optimizer --optimizer names, over the parameters of @model, at @lr. */
static GnnOptimizer *
make_optimizer (const Options  *opts,
                GnnModule      *model,
                double          lr,
                GError        **error)
{
  g_autoptr(GnnParamGroup) params = gnn_param_group_new_from_module (model);

  if (g_str_equal (opts->optimizer, "sgd"))
    return GNN_OPTIMIZER (gnn_sgd_new (params, lr, opts->momentum, 0, opts->weight_decay, opts->momentum > 0,
                                       FALSE, error));
  if (g_str_equal (opts->optimizer, "adam"))
    return GNN_OPTIMIZER (gnn_adam_new (params, lr, 0.9, 0.999, 1e-8, opts->weight_decay, FALSE, FALSE, error));
  return GNN_OPTIMIZER (gnn_adamw_new (params, lr, 0.9, 0.999, 1e-8, opts->weight_decay, FALSE, FALSE, error));
}

/* The optimizer, schedulers and averages of @t->model, as @t->opts asks. */
static gboolean
trainer_setup (Trainer  *t,
               GError  **error)
{
  const Options *opts = t->opts;

  if ((t->optimizer = make_optimizer (opts, t->model, opts->lr, error)) == NULL)
    return FALSE;

  if (opts->cosine &&
      (t->scheduler = GNN_LR_SCHEDULER (gnn_cosine_annealing_lr_new (t->optimizer, opts->epochs, 0,
                                                                    -1, error))) == NULL)
    return FALSE;

  if (opts->swa_start > 0)
    {
      double swa_lr = opts->swa_lr;

      /* no function: the equal-weight average (PyTorch's default) */
      t->swa = gnn_averaged_model_new (t->model, NULL, NULL, NULL, FALSE, error);
      if (t->swa == NULL)
        return FALSE;
      t->swalr = GNN_LR_SCHEDULER (gnn_swalr_new (t->optimizer, &swa_lr, 1, 1, "cos", -1, error));
      if (t->swalr == NULL)
        return FALSE;
    }
  if (opts->ema_decay > 0)
    {
      g_autoptr(GnnAverageFunction) ema_fn = gnn_average_function_new_ema_multi (opts->ema_decay, error);

      if (ema_fn == NULL)
        return FALSE;
      t->ema = gnn_averaged_model_new (t->model, NULL, NULL, ema_fn, TRUE, error);
      if (t->ema == NULL)
        return FALSE;
    }
  return TRUE;
}

static double
current_lr (Trainer *t)
{
  return gnn_param_group_get_double (gnn_optimizer_get_param_group (t->optimizer, 0), "lr");
}

/* ---- checkpoints -------------------------------------------------------------------------- */

static GnnCheckpoint *
trainer_checkpoint (Trainer *t)
{
  GnnCheckpoint *ckpt = gnn_checkpoint_new ();

  gnn_checkpoint_set_model (ckpt, t->model);
  gnn_checkpoint_set_optimizer (ckpt, t->optimizer);
  if (t->scheduler)
    gnn_checkpoint_set_scheduler (ckpt, t->scheduler);
  if (t->swa)
    gnn_checkpoint_add_averaged_model (ckpt, "swa", t->swa);
  if (t->ema)
    gnn_checkpoint_add_averaged_model (ckpt, "ema", t->ema);
  gnn_checkpoint_set_generator (ckpt, gnn_generator_get_default ());
  return ckpt;
}

static gboolean
trainer_save (Trainer     *t,
              const char  *path,
              GError     **error)
{
  g_autoptr(GnnCheckpoint) ckpt = NULL;
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  if (t->rank > 0)
    return TRUE;   /* rank 0 writes the checkpoints */
  ckpt = trainer_checkpoint (t);
  gnn_tool_save_options (ckpt, META_PREFIX "option.", &option_table, t->opts);
  {
    g_autofree char *epoch = g_strdup_printf ("%d", t->epoch);
    g_autofree char *batch = g_strdup_printf ("%u", t->batch);
    g_autofree char *samples = g_strdup_printf ("%" G_GINT64_FORMAT, t->samples);

    gnn_checkpoint_set_metadata (ckpt, META_EPOCH, epoch);
    gnn_checkpoint_set_metadata (ckpt, META_BATCH, batch);
    gnn_checkpoint_set_metadata (ckpt, META_SAMPLES, samples);
    /* g_ascii_dtostr prints the shortest text that reads back to the same double */
    gnn_checkpoint_set_metadata (ckpt, META_LOSS_SUM, g_ascii_dtostr (buf, sizeof buf, t->loss_sum));
    gnn_checkpoint_set_metadata (ckpt, META_DONE, t->done ? "true" : "false");
    if (t->world > 1)
      {
        g_autofree char *world = g_strdup_printf ("%d", t->world);
        gnn_checkpoint_set_metadata (ckpt, META_WORLD, world);
      }
  }
  if (t->swalr)
    {
      g_autoptr(GVariant) state = gnn_lr_scheduler_state_dict (t->swalr);
      g_autofree char *text = g_variant_print (state, TRUE);

      gnn_checkpoint_set_metadata (ckpt, META_SWALR, text);
    }
  return gnn_checkpoint_save (ckpt, path, error);
}

/* Reads the options of the run a checkpoint holds into @opts. Options given on the command
 * line must agree with those that shape the training; one that shapes only the evaluation
 * overrides the checkpoint's, and @opts->overrides says so. */
static gboolean
read_checkpoint_options (Options     *opts,
                         const char  *path,
                         GError     **error)
{
  g_autoptr(GnnCheckpoint) ckpt = gnn_checkpoint_new ();

  /* only the metadata is wanted here: a checkpoint without objects set loads only that */
  g_clear_pointer (&opts->overrides, g_free);
  return gnn_checkpoint_load (ckpt, path, error) &&
         gnn_tool_resume_options (ckpt, path, "gnn-train", META_PREFIX "option.", &option_table, opts,
                                  &opts->overrides, error);
}

/* Loads the state of a checkpoint into the freshly set-up @t. */
static gboolean
trainer_load (Trainer     *t,
              const char  *path,
              GError     **error)
{
  g_autoptr(GnnCheckpoint) ckpt = trainer_checkpoint (t);
  const char *value;
  char *end = NULL;
  gint64 epoch, batch, samples, world = 1;
  guint n_batches = g_list_model_get_n_items (G_LIST_MODEL (t->train));

  if (!gnn_checkpoint_load (ckpt, path, error))
    return FALSE;
  if (gnn_checkpoint_get_metadata (ckpt, META_WORLD) != NULL &&
      !gnn_tool_metadata_int (ckpt, path, "gnn-train", META_WORLD, G_MAXINT, &world, error))
    return FALSE;
  if (!gnn_tool_metadata_int (ckpt, path, "gnn-train", META_EPOCH, t->opts->epochs, &epoch, error) ||
      !gnn_tool_metadata_int (ckpt, path, "gnn-train", META_BATCH,
                              world == t->world ? n_batches : G_MAXINT, &batch, error) ||
      !gnn_tool_metadata_int (ckpt, path, "gnn-train", META_SAMPLES, G_MAXINT64, &samples, error) ||
      (value = gnn_tool_require_metadata (ckpt, path, "gnn-train", META_LOSS_SUM, error)) == NULL)
    return FALSE;
  t->loss_sum = g_ascii_strtod (value, &end);
  if (end == value || *end != '\0')
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_FILE_FORMAT,
                   "%s: expected a number in %s, found '%s'", path, META_LOSS_SUM, value);
      return FALSE;
    }
  t->epoch = (int) epoch;
  t->batch = (guint) batch;
  t->samples = samples;
  if (world != t->world)
    {
      /* the same number of samples seen this epoch, in batches of the new shards */
      t->batch = (guint) MIN ((gint64) n_batches, batch * world / t->world);
      g_print ("the checkpoint was written by %" G_GINT64_FORMAT " rank%s, this run has %d: "
               "continuing at epoch %d, batch %u of the resharded epoch (not bit-exact)\n",
               world, world == 1 ? "" : "s", t->world, t->epoch + 1, t->batch);
    }
  value = gnn_checkpoint_get_metadata (ckpt, META_DONE);
  t->done = value != NULL && g_str_equal (value, "true");
  if (t->swalr)
    {
      g_autoptr(GVariant) state = NULL;

      if ((value = gnn_tool_require_metadata (ckpt, path, "gnn-train", META_SWALR, error)) == NULL ||
          (state = g_variant_parse (NULL, value, NULL, NULL, error)) == NULL ||
          !gnn_lr_scheduler_load_state_dict (t->swalr, state, error))
        {
          g_prefix_error (error, "%s: the SWALR state: ", path);
          return FALSE;
        }
    }
  return TRUE;
}

/* ---- progress ----------------------------------------------------------------------------- */


/* One line, redrawn in place: @done of @n_batches batches of the current epoch, the learning
 * rate @lr too once the epoch is @final. The line fits in @width - 1 columns (a line that
 * reaches the last column wraps on some terminals): the optional fields go first (the learning
 * rate, the rate of samples, the time), then the bar shrinks and goes; what is left is cut. */
static char *
progress_line (const Trainer *t,
               int            width,
               guint          done,
               guint          n_batches,
               double         rate,
               gboolean       final,
               double         final_seconds,
               double         lr)
{
  const int max_bar = 24, min_bar = 8;
  double mean = done > 0 ? t->loss_sum / done : 0;
  gint64 remaining = (gint64) (n_batches - done) * t->opts->batch_size;
  g_autofree char *eta = gnn_tool_format_duration (final ? final_seconds : rate > 0 ? remaining / rate : 0);
  g_autofree char *head = g_strdup_printf ("epoch %d/%d", t->epoch + 1, t->opts->epochs);
  g_autofree char *count = g_strdup_printf (" %u/%u", done, n_batches);
  g_autofree char *loss = g_strdup_printf ("  loss %.4f", mean);
  /* in the order they appear; dropped by drop_order */
  char *optional[3] = {
    g_strdup_printf ("  %.0f samples/s", rate),
    g_strdup_printf ("  %s %s", final ? "took" : "left", eta),
    final ? g_strdup_printf ("  lr %.3g", lr) : g_strdup (""),
  };
  const int drop_order[3] = { 2, 0, 1 };
  int room = MAX (width - 1, 1);
  int used, bar;
  GString *line;

  used = (int) (g_utf8_strlen (head, -1) + g_utf8_strlen (count, -1) + g_utf8_strlen (loss, -1));
  for (int i = 0; i < 3; i++)
    used += (int) g_utf8_strlen (optional[i], -1);
  for (int i = 0; i < 3 && used > room; i++)
    {
      used -= (int) g_utf8_strlen (optional[drop_order[i]], -1);
      optional[drop_order[i]][0] = '\0';
    }
  bar = MIN (max_bar, room - used - 3);   /* " [" and "]" */
  line = g_string_new (head);
  if (bar >= min_bar)
    {
      int filled = n_batches ? (int) ((gint64) done * bar / n_batches) : bar;

      g_string_append (line, " [");
      for (int i = 0; i < bar; i++)
        g_string_append_c (line, i < filled ? '=' : i == filled ? '>' : ' ');
      g_string_append_c (line, ']');
    }
  g_string_append_printf (line, "%s%s%s%s%s", count, optional[0], loss, optional[1], optional[2]);
  for (int i = 0; i < 3; i++)
    g_free (optional[i]);
  if ((int) line->len > room)
    g_string_truncate (line, room);   /* ASCII only: bytes are columns */
  return g_string_free (line, FALSE);
}

static void
draw_progress (Trainer *t,
               guint    done,
               guint    n_batches,
               double   rate,
               gboolean final,
               double   final_seconds,
               double   lr)
{
  g_autofree char *line = progress_line (t, gnn_tool_terminal_width (), done, n_batches, rate, final,
                                         final_seconds, lr);

  /* \r and erase to the end of the line: the line before may have been longer */
  g_print ("\r\033[K%s%s", line, final ? "\n" : "");
  fflush (stdout);
}

/* ---- --distributed ------------------------------------------------------------------------- */

/* Rank 0's tensors on every rank (DistributedDataParallel's broadcasts). */
static gboolean
broadcast_from_rank0 (Trainer    *t,
                      GPtrArray  *tensors,
                      GError    **error)
{
  g_autoptr(GnnNoGradGuard) no_grad = gnn_no_grad_guard_new ();

  for (guint i = 0; i < tensors->len; i++)
    if (!gnn_process_group_broadcast (t->group, g_ptr_array_index (tensors, i), 0, error))
      return FALSE;
  return TRUE;
}

/* The loader of this rank's share of epoch @epoch, as torch's DistributedSampler makes it:
 * the order one process would follow (the loader's shuffle of --seed and the epoch), padded by
 * wrapping to a multiple of the world size, then every world-size-th sample from this rank's. */
static gboolean
shard_epoch (Trainer  *t,
             int       epoch,
             GError  **error)
{
  guint n = gnn_dataset_get_length (t->train_set);
  guint per_rank = (n + (guint) t->world - 1) / (guint) t->world, n_order = 0;
  g_autoptr(GnnDataLoader) order_loader = NULL;
  g_autofree guint *order = NULL;
  g_autofree guint *mine = g_new (guint, MAX (per_rank, 1));
  g_autoptr(GnnSubset) shard = NULL;
  GnnDataLoader *loader;

  order_loader = gnn_data_loader_new (t->train_set, n, TRUE, (guint64) t->opts->seed, FALSE, error);
  if (order_loader == NULL)
    return FALSE;
  gnn_data_loader_set_epoch (order_loader, epoch);
  order = gnn_data_loader_get_indices (order_loader, 0, &n_order);
  g_assert (order != NULL && n_order == n);
  for (guint i = 0; i < per_rank; i++)
    mine[i] = order[((gsize) i * t->world + t->rank) % n];
  if ((shard = gnn_subset_new (t->train_set, mine, per_rank, error)) == NULL)
    return FALSE;
  loader = gnn_data_loader_new (GNN_DATASET (shard), t->opts->batch_size, FALSE, 0, FALSE, error);
  if (loader == NULL)
    return FALSE;
  gnn_data_loader_set_transform (loader, t->transform);
  g_clear_object (&t->train);
  t->train = loader;
  return TRUE;
}

/* One step of DistributedDataParallel: the gradients averaged over the ranks between backward
 * and the optimizer's step, each all-reduce started as its gradient is known; the losses and
 * the interrupted flags are summed in the same round, so that every rank logs the mean loss
 * and every rank stops at the same batch. */
static gboolean
distributed_step (Trainer    *t,
                  GPtrArray  *batch,
                  double     *loss_value,
                  GError    **error)
{
  g_autoptr(GnnTensor) logits = NULL;
  g_autoptr(GnnTensor) loss = NULL;
  g_autoptr(GPtrArray) params = gnn_module_parameters (t->model, TRUE);
  g_autoptr(GPtrArray) buffers = gnn_module_buffers (t->model, TRUE);
  g_autoptr(GPtrArray) works = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GnnTensor) shared = NULL;
  GError *local_error = NULL;
  double state[2];
  gint64 two = 2;
  gboolean ok = TRUE;

  if (!broadcast_from_rank0 (t, buffers, error))
    return FALSE;
  gnn_optimizer_zero_grad (t->optimizer, TRUE);
  if ((logits = gnn_module_forward_tensor (t->model, g_ptr_array_index (batch, 0), error)) == NULL ||
      (loss = gnn_tensor_cross_entropy (logits, g_ptr_array_index (batch, 1), NULL, -100,
                                        GNN_REDUCTION_MEAN, 0.0, error)) == NULL ||
      !gnn_tensor_backward (loss, NULL, FALSE, error))
    return FALSE;
  for (guint i = 0; i < params->len; i++)
    {
      GnnTensor *grad = gnn_tensor_get_grad (g_ptr_array_index (params, i));
      if (grad != NULL)
        g_ptr_array_add (works, gnn_process_group_all_reduce_async (t->group, grad,
                                                                    GNN_REDUCE_OP_AVG));
    }
  state[0] = gnn_tensor_item (loss, &local_error);
  if (local_error != NULL)
    {
      g_propagate_error (error, local_error);
      return FALSE;
    }
  state[1] = gnn_tool_interrupted () ? 1.0 : 0.0;
  if ((shared = gnn_tensor_new_from_doubles (state, 2, &two, 1, error)) == NULL)
    return FALSE;
  g_ptr_array_add (works, gnn_process_group_all_reduce_async (t->group, shared, GNN_REDUCE_OP_SUM));
  /* every work is waited for, the first error kept */
  for (guint i = 0; i < works->len; i++)
    if (!gnn_work_wait (g_ptr_array_index (works, i), ok ? error : NULL))
      ok = FALSE;
  if (!ok || !gnn_optimizer_step (t->optimizer, error))
    return FALSE;
  {
    gsize n = 0;
    g_autofree double *sums = gnn_tensor_to_doubles (shared, &n, error);
    if (sums == NULL)
      return FALSE;
    *loss_value = sums[0] / t->world;
    t->stop = sums[1] > 0;
  }
  return TRUE;
}

/* ---- training ----------------------------------------------------------------------------- */

/* One training step on batch @index of the current epoch; adds the loss to @t. */
static gboolean
train_step (Trainer  *t,
            guint     index,
            GError  **error)
{
  g_autoptr(GPtrArray) batch = NULL;
  double value;

  batch = gnn_data_loader_get_batch (t->train, index, error);
  if (batch == NULL)
    return FALSE;
  if (t->group ? !distributed_step (t, batch, &value, error)
               : !gnn_tool_classifier_step (t->model, t->optimizer, batch, &value, error))
    return FALSE;
  if (t->ema && !gnn_averaged_model_update_parameters (t->ema, t->model, error))
    return FALSE;
  if (!isfinite (value))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_FAILED,
                   "the loss diverged to %g at epoch %d, batch %u; try a smaller --lr",
                   value, t->epoch + 1, index);
      return FALSE;
    }
  t->loss_sum += value;
  /* every rank's batch is as large (the shards are), so the samples of all ranks */
  t->samples += gnn_tensor_get_size (g_ptr_array_index (batch, 0), 0, NULL) * t->world;
  return TRUE;
}

/* The end of an epoch: SWA or the cosine schedule steps. */
static gboolean
end_epoch (Trainer  *t,
           GError  **error)
{
  if (t->swa && t->epoch + 1 >= t->opts->swa_start)
    return gnn_averaged_model_update_parameters (t->swa, t->model, error) &&
           gnn_lr_scheduler_step (t->swalr, error);
  if (t->scheduler)
    return gnn_lr_scheduler_step (t->scheduler, error);
  return TRUE;
}

/* Trains from the current position to the end; FALSE with @error on failure, FALSE without
 * an error when interrupted (after saving @t to @interrupt_path). */
static gboolean
train (Trainer     *t,
       const char  *interrupt_path,
       GError     **error)
{
  guint n_batches = g_list_model_get_n_items (G_LIST_MODEL (t->train));

  gnn_module_train (t->model, TRUE);
  for (; t->epoch < t->opts->epochs; t->epoch++)
    {
      gint64 start = g_get_monotonic_time (), last_draw = 0;
      gint64 start_samples = t->samples;
      double lr = current_lr (t), seconds, rate;

      if (t->group)
        {
          if (!shard_epoch (t, t->epoch, error))
            return FALSE;
        }
      else
        gnn_data_loader_set_epoch (t->train, t->epoch);
      for (; t->batch < n_batches; t->batch++)
        {
          gint64 now;

          /* with --distributed, the ranks agree in each step on whether one was interrupted */
          if (t->group ? t->stop : gnn_tool_interrupted ())
            {
              if (gnn_tool_on_terminal ())
                g_print ("\n");
              if (!trainer_save (t, interrupt_path, error))
                return FALSE;
              g_print ("interrupted at epoch %d, batch %u of %u: saved %s; continue with "
                       "--resume %s\n", t->epoch + 1, t->batch, n_batches, interrupt_path,
                       interrupt_path);
              return FALSE;
            }
          if (!train_step (t, t->batch, error))
            return FALSE;
          now = g_get_monotonic_time ();
          if (gnn_tool_on_terminal () && (now - last_draw > 200000 || t->batch + 1 == n_batches))
            {
              draw_progress (t, t->batch + 1, n_batches,
                             (t->samples - start_samples) / MAX ((now - start) / 1e6, 1e-9), FALSE, 0, 0);
              last_draw = now;
            }
        }
      seconds = (g_get_monotonic_time () - start) / 1e6;
      rate = (t->samples - start_samples) / MAX (seconds, 1e-9);
      if (gnn_tool_on_terminal ())
        {
          draw_progress (t, n_batches, n_batches, rate, TRUE, seconds, lr);
        }
      else
        {
          g_print ("epoch %d/%d: loss %.4f, %.0f samples/s, lr %.4g, %.1f s\n", t->epoch + 1,
                   t->opts->epochs, n_batches ? t->loss_sum / n_batches : 0.0, rate, lr, seconds);
          fflush (stdout);
        }
      if (!end_epoch (t, error))
        return FALSE;
      t->batch = 0;
      t->loss_sum = 0;
      t->samples = 0;
      if (t->opts->save && t->epoch + 1 < t->opts->epochs)
        {
          t->epoch++;
          if (!trainer_save (t, t->opts->save, error))
            return FALSE;
          t->epoch--;
        }
    }
  if (t->swa && !gnn_update_bn (G_LIST_MODEL (t->train), GNN_MODULE (t->swa), NULL, error))
    return FALSE;
  t->done = TRUE;
  return TRUE;
}

/* Test accuracy of @model: the number of correct predictions in @correct. */
static gboolean
evaluate (GnnModule      *model,
          GnnDataLoader  *test,
          gint64         *correct,
          GError        **error)
{
  g_autoptr(GnnNoGradGuard) no_grad = gnn_no_grad_guard_new ();
  guint n_batches = g_list_model_get_n_items (G_LIST_MODEL (test));
  gboolean was_training = gnn_module_get_training (model);
  gboolean ok = TRUE;

  *correct = 0;
  gnn_module_eval (model);
  for (guint b = 0; b < n_batches && ok; b++)
    {
      g_autoptr(GPtrArray) batch = NULL;
      g_autoptr(GnnTensor) logits = NULL;
      g_autoptr(GnnTensor) predicted = NULL;
      g_autoptr(GnnTensor) hits = NULL;
      g_autoptr(GnnTensor) n_hits = NULL;
      GError *local_error = NULL;
      double n;

      if ((batch = gnn_data_loader_get_batch (test, b, error)) == NULL ||
          (logits = gnn_module_forward_tensor (model, g_ptr_array_index (batch, 0), error)) == NULL ||
          (predicted = gnn_tensor_argmax (logits, 1, FALSE, error)) == NULL ||
          (hits = gnn_tensor_eq (predicted, g_ptr_array_index (batch, 1), error)) == NULL ||
          (n_hits = gnn_tensor_sum_all (hits, error)) == NULL)
        {
          ok = FALSE;
          break;
        }
      n = gnn_tensor_item (n_hits, &local_error);
      if (local_error != NULL)
        {
          g_propagate_error (error, local_error);
          ok = FALSE;
          break;
        }
      *correct += (gint64) n;
    }
  gnn_module_train (model, was_training);
  return ok;
}

/* ---- pruning ------------------------------------------------------------------------------ */

/* The Conv2d and Linear modules of @model, in the order of modules () */
static GPtrArray *
prunable_modules (GnnModule *model,
                  gint64    *n_weights)
{
  g_autoptr(GPtrArray) all = gnn_module_modules (model);
  GPtrArray *found = g_ptr_array_new ();

  *n_weights = 0;
  for (guint i = 0; i < all->len; i++)
    {
      GnnModule *m = all->pdata[i];
      GnnParameter *w;

      if (!G_TYPE_CHECK_INSTANCE_TYPE (m, GNN_TYPE_CONV2D) && !G_TYPE_CHECK_INSTANCE_TYPE (m, GNN_TYPE_LINEAR))
        continue;
      if ((w = gnn_module_get_parameter (m, "weight", NULL)) == NULL)
        continue;
      g_ptr_array_add (found, m);
      *n_weights += gnn_tensor_get_numel (GNN_TENSOR (w));
    }
  return found;
}

/* Refuses an amount the model cannot take before any training is done. */
static gboolean
check_prune_amount (const Options  *opts,
                    GnnModule      *model,
                    GError        **error)
{
  gint64 n_weights;
  g_autoptr(GPtrArray) modules = prunable_modules (model, &n_weights);

  if (modules->len == 0)
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   "--prune-global: expected a model with Conv2d or Linear layers, found none");
      return FALSE;
    }
  if (opts->prune_is_count && opts->prune_amount > (double) n_weights)
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   "--prune-global: expected at most the %" G_GINT64_FORMAT " weights of the model's "
                   "Conv2d and Linear layers, found %.0f", n_weights, opts->prune_amount);
      return FALSE;
    }
  return TRUE;
}

static gboolean
print_accuracy (const char     *name,
                GnnModule      *model,
                GnnDataLoader  *test,
                gint64          test_n,
                GError        **error)
{
  gint64 correct;

  if (!evaluate (model, test, &correct, error))
    return FALSE;
  g_print ("test accuracy (%s): %.4f (%" G_GINT64_FORMAT "/%" G_GINT64_FORMAT ")\n",
           name, test_n ? (double) correct / test_n : 0.0, correct, test_n);
  fflush (stdout);
  return TRUE;
}

/* --prune-epochs epochs of training of the pruned model by @optimizer (no schedule, no
 * averages); FALSE without an error when interrupted */
static gboolean
fine_tune (Trainer       *t,
           GnnOptimizer  *optimizer,
           GError       **error)
{
  guint n_batches = g_list_model_get_n_items (G_LIST_MODEL (t->train));

  gnn_module_train (t->model, TRUE);
  for (int e = 0; e < t->opts->prune_epochs; e++)
    {
      gint64 start = g_get_monotonic_time (), samples = 0;
      double loss_sum = 0, seconds;

      /* the epochs after training's, so that the order of the batches goes on changing */
      gnn_data_loader_set_epoch (t->train, t->opts->epochs + e);
      for (guint b = 0; b < n_batches; b++)
        {
          g_autoptr(GPtrArray) batch = NULL;
          double value;

          if (gnn_tool_interrupted ())
            return FALSE;
          if ((batch = gnn_data_loader_get_batch (t->train, b, error)) == NULL ||
              !gnn_tool_classifier_step (t->model, optimizer, batch, &value, error))
            return FALSE;
          if (!isfinite (value))
            {
              g_set_error (error, GNN_ERROR, GNN_ERROR_FAILED,
                           "the loss diverged to %g in fine-tuning epoch %d, batch %u; try a smaller --prune-lr",
                           value, e + 1, b);
              return FALSE;
            }
          loss_sum += value;
          samples += gnn_tensor_get_size (g_ptr_array_index (batch, 0), 0, NULL);
        }
      seconds = (g_get_monotonic_time () - start) / 1e6;
      g_print ("fine-tuning epoch %d/%d: loss %.4f, %.0f samples/s, lr %.4g, %.1f s\n", e + 1,
               t->opts->prune_epochs, n_batches ? loss_sum / n_batches : 0.0, samples / MAX (seconds, 1e-9),
               t->opts->prune_lr, seconds);
      fflush (stdout);
    }
  return TRUE;
}

/* --prune-global: global L1 pruning of every Conv2d and Linear weight, the accuracy right
 * after it and after fine-tuning, the sparsity, then prune.remove and the last checkpoint.
 * An exit status. */
static int
prune_model (Trainer        *t,
             gint64          test_n,
             GError        **error)
{
  const Options *opts = t->opts;
  gint64 n_weights, start;
  g_autoptr(GPtrArray) modules = prunable_modules (t->model, &n_weights);
  g_autofree const char **names = g_new (const char *, MAX (modules->len, 1));
  g_autoptr(GnnBasePruningMethod) method = NULL;
  g_autoptr(GnnOptimizer) optimizer = NULL;
  g_autoptr(GnnSparsityReport) report = NULL;
  g_autofree char *table = NULL;

  for (guint i = 0; i < modules->len; i++)
    names[i] = "weight";
  start = g_get_monotonic_time ();
  if ((method = GNN_BASE_PRUNING_METHOD (gnn_l1_unstructured_new (opts->prune_amount, opts->prune_is_count,
                                                                   error))) == NULL ||
      !gnn_prune_global_unstructured ((GnnModule **) modules->pdata, names, modules->len, method, NULL, error))
    {
      g_prefix_error (error, "--prune-global: ");
      return EXIT_USAGE;
    }
  {
    /* torch's _compute_nparams_toprune: a fraction rounds half to even, as Python's round */
    gint64 k = opts->prune_is_count ? (gint64) opts->prune_amount
                                    : (gint64) nearbyint (opts->prune_amount * (double) n_weights);
    char buf[G_ASCII_DTOSTR_BUF_SIZE];

    g_print ("pruned %" G_GINT64_FORMAT " of the %" G_GINT64_FORMAT " weights of %u Conv2d and Linear layers "
             "(global L1, amount %s) in %.2f s\n", k, n_weights, modules->len,
             opts->prune_is_count ? g_ascii_formatd (buf, sizeof buf, "%.0f", opts->prune_amount)
                                  : g_ascii_formatd (buf, sizeof buf, "%.6g", opts->prune_amount),
             (g_get_monotonic_time () - start) / 1e6);
  }
  if (!print_accuracy ("pruned", t->model, t->test, test_n, error))
    return EXIT_FAILURE;

  if (opts->prune_epochs > 0)
    {
      if ((optimizer = make_optimizer (opts, t->model, opts->prune_lr, error)) == NULL)
        return EXIT_FAILURE;
      if (!fine_tune (t, optimizer, error))
        {
          if (*error)
            return EXIT_FAILURE;
          g_print ("\ninterrupted while fine-tuning the pruned model%s%s\n",
                   opts->save ? ": the checkpoint before pruning is in " : "", opts->save ? opts->save : "");
          return EXIT_INTERRUPTED;
        }
      {
        g_autofree char *name = g_strdup_printf ("fine-tuned %d epoch%s", opts->prune_epochs,
                                                 opts->prune_epochs == 1 ? "" : "s");

        if (!print_accuracy (name, t->model, t->test, test_n, error))
          return EXIT_FAILURE;
      }
    }

  if ((report = gnn_prune_sparsity_report (t->model, NULL, TRUE, error)) == NULL)
    return EXIT_FAILURE;
  table = gnn_sparsity_report_to_string (report);
  g_print ("%s", table);
  g_print ("global sparsity: %.4f (%" G_GINT64_FORMAT "/%" G_GINT64_FORMAT " weights are zero)\n",
           gnn_sparsity_report_get_global_fraction (report), gnn_sparsity_report_get_global_zeros (report),
           gnn_sparsity_report_get_global_numel (report));

  /* permanent: plain weights again, no weight_orig, weight_mask or hook in what is saved */
  for (guint i = 0; i < modules->len; i++)
    if (!gnn_prune_remove (modules->pdata[i], "weight", error))
      return EXIT_FAILURE;
  if (opts->save)
    {
      if (!trainer_save (t, opts->save, error))
        return EXIT_FAILURE;
      g_print ("saved the pruned model in %s\n", opts->save);
    }
  return EXIT_SUCCESS;
}

/* ---- main --------------------------------------------------------------------------------- */

static void
print_nothing (const char *text)
{
}

static int
run (Options  *opts,
     GError  **error)
{
  g_auto(Trainer) t = { 0 };
  g_autoptr(GnnDataset) train_set = NULL;
  g_autoptr(GnnDataset) test_set = NULL;
  g_autoptr(GnnNormalize) normalize = NULL;
  const double mean = PIXEL_MEAN, std = PIXEL_STD;
  const char *interrupt_path = opts->save ? opts->save : INTERRUPTED_PATH;
  gint64 t0 = g_get_monotonic_time ();
  gint64 test_n;
  struct { const char *name; GnnModule *model; } evals[3];
  guint n_evals = 0;

  t.opts = opts;
  t.world = 1;
  if (opts->distributed)
    {
      if (opts->prune)
        {
          g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                       "--prune-global is not supported with --distributed");
          return EXIT_USAGE;
        }
      if (!gnn_distributed_init_process_group ("mpi", error) ||
          (t.group = gnn_distributed_get_default_group (error)) == NULL)
        {
          g_prefix_error (error, "--distributed: ");
          return EXIT_USAGE;
        }
      t.rank = gnn_process_group_get_rank (t.group);
      t.world = gnn_process_group_get_world_size (t.group);
      if (t.rank > 0)
        g_set_print_handler (print_nothing);   /* rank 0 prints */
    }

  /* the model: from the checkpoint when resuming (it holds the JSON tree), else from --model
   * or the default; the default generator seeded first, so the initial weights follow --seed */
  gnn_manual_seed ((guint64) opts->seed);
  if (opts->resume)
    {
      g_autofree char *json = gnn_checkpoint_peek_model_json (opts->resume, error);

      if (json == NULL || (t.model = gnn_module_new_from_json (json, -1, error)) == NULL)
        return EXIT_USAGE;
    }
  else if (opts->model_file)
    {
      if ((t.model = model_from_file (opts->model_file, error)) == NULL)
        {
          g_prefix_error (error, "--model %s: ", opts->model_file);
          return EXIT_USAGE;
        }
    }
  else if ((t.model = gnn_tool_default_model (error)) == NULL)
    return EXIT_FAILURE;

  train_set = gnn_tool_load_split (opts->data_dir, data_names[0], data_names[1], opts->limit, error);
  if (train_set == NULL)
    return EXIT_USAGE;
  test_set = gnn_tool_load_split (opts->data_dir, data_names[2], data_names[3], opts->test_limit, error);
  if (test_set == NULL)
    return EXIT_USAGE;
  normalize = gnn_normalize_new (&mean, &std, 1, 1.0 / 255, error);
  if (normalize == NULL)
    return EXIT_FAILURE;
  if (gnn_dataset_get_length (train_set) == 0)
    {
      /* an epoch over nothing would "train" without a step and save untrained weights */
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   "the training split in %s is empty: expected at least 1 item, found 0", opts->data_dir);
      return EXIT_USAGE;
    }
  t.train = gnn_data_loader_new (train_set, opts->batch_size, TRUE, (guint64) opts->seed, FALSE, error);
  if (t.train == NULL)
    return EXIT_USAGE;
  gnn_data_loader_set_transform (t.train, GNN_TRANSFORM (normalize));
  if (t.group)
    {
      t.train_set = g_object_ref (train_set);
      t.transform = GNN_TRANSFORM (g_object_ref (normalize));
      if (!shard_epoch (&t, 0, error))
        return EXIT_FAILURE;
    }
  /* small test batches: the activations of big ones cost more in page faults than they save */
  t.test = gnn_data_loader_new (test_set, 200, FALSE, 0, FALSE, error);
  if (t.test == NULL)
    return EXIT_FAILURE;
  gnn_data_loader_set_transform (t.test, GNN_TRANSFORM (normalize));
  test_n = gnn_dataset_get_length (test_set);

  if (opts->prune && !check_prune_amount (opts, t.model, error))
    return EXIT_USAGE;
  if (!trainer_setup (&t, error))
    return EXIT_FAILURE;
  if (opts->resume)
    {
      if (!trainer_load (&t, opts->resume, error))
        return EXIT_USAGE;
    }
  if (t.group)
    {
      /* DistributedDataParallel's construction: rank 0's parameters and buffers everywhere */
      g_autoptr(GPtrArray) params = gnn_module_parameters (t.model, TRUE);
      g_autoptr(GPtrArray) buffers = gnn_module_buffers (t.model, TRUE);

      if (!broadcast_from_rank0 (&t, params, error) || !broadcast_from_rank0 (&t, buffers, error))
        return EXIT_FAILURE;
    }

  g_print ("Fashion-MNIST: %u training and %" G_GINT64_FORMAT " test images, loaded in %.2f s\n",
           gnn_dataset_get_length (train_set), test_n, (g_get_monotonic_time () - t0) / 1e6);
  g_print ("model: %s, %" G_GINT64_FORMAT " parameters\n",
           opts->model_file ? opts->model_file : opts->resume ? opts->resume : "the default CNN",
           count_parameters (t.model));
  g_print ("%s lr %g%s, weight decay %g, batch %d, %d epochs%s", opts->optimizer, opts->lr,
           opts->cosine ? " (cosine)" : "", opts->weight_decay, opts->batch_size, opts->epochs,
           g_str_equal (opts->optimizer, "sgd") ? "" : "");
  if (g_str_equal (opts->optimizer, "sgd"))
    g_print (", momentum %g", opts->momentum);
  if (opts->swa_start > 0)
    g_print (", SWA from epoch %d (lr %g)", opts->swa_start, opts->swa_lr);
  if (opts->ema_decay > 0)
    g_print (", EMA %g", opts->ema_decay);
  g_print (", seed %" G_GINT64_FORMAT ", %d threads\n", opts->seed, gnn_get_num_threads ());
  if (t.group)
    g_print ("distributed: %d ranks (mpi), each on its share of every epoch in batches of %d\n",
             t.world, opts->batch_size);
  if (opts->resume && t.done)
    g_print ("resuming %s: training finished, evaluating only\n", opts->resume);
  else if (opts->resume)
    g_print ("resuming %s at epoch %d, batch %u\n", opts->resume, t.epoch + 1, t.batch);
  if (opts->overrides)
    g_print ("overriding the checkpoint's options that shape only the evaluation: %s\n", opts->overrides);
  fflush (stdout);

  if (!t.done)
    {
      if (!train (&t, interrupt_path, error))
        return *error ? EXIT_FAILURE : EXIT_INTERRUPTED;
      if (opts->save && !trainer_save (&t, opts->save, error))
        return EXIT_FAILURE;
    }
  if (t.rank > 0)
    return EXIT_SUCCESS;   /* rank 0 evaluates and prints */

  evals[n_evals].name = "model";
  evals[n_evals++].model = t.model;
  if (t.swa)
    {
      evals[n_evals].name = "swa";
      evals[n_evals++].model = GNN_MODULE (t.swa);
    }
  if (t.ema)
    {
      evals[n_evals].name = "ema";
      evals[n_evals++].model = GNN_MODULE (t.ema);
    }
  for (guint i = 0; i < n_evals; i++)
    if (!print_accuracy (evals[i].name, evals[i].model, t.test, test_n, error))
      return EXIT_FAILURE;
  if (opts->prune)
    {
      int status = prune_model (&t, test_n, error);

      if (status != EXIT_SUCCESS)
        return status;
    }
  g_print ("total time: %.1f s\n", (g_get_monotonic_time () - t0) / 1e6);
  return EXIT_SUCCESS;
}

/* Whether the command line asks for the charlm task: --task charlm, or no --task and a
 * --resume of a charlm checkpoint. */
static gboolean
wants_charlm (int    argc,
              char **argv)
{
  const char *task = NULL, *resume = NULL;

  for (int i = 1; i < argc; i++)
    {
      if (g_str_equal (argv[i], "--"))
        break;
      if (g_str_equal (argv[i], "--task") && i + 1 < argc)
        task = argv[++i];
      else if (g_str_has_prefix (argv[i], "--task="))
        task = argv[i] + strlen ("--task=");
      else if (g_str_equal (argv[i], "--resume") && i + 1 < argc)
        resume = argv[++i];
      else if (g_str_has_prefix (argv[i], "--resume="))
        resume = argv[i] + strlen ("--resume=");
    }
  if (task)
    return g_str_equal (task, "charlm");
  if (resume)
    {
      g_autofree char *checkpoint_task = gnn_train_checkpoint_task (resume);

      return g_strcmp0 (checkpoint_task, "charlm") == 0;
    }
  return FALSE;
}

int
main (int    argc,
      char **argv)
{
  Options opts = {
    .epochs = -1, .batch_size = -1, .lr = NAN, .momentum = NAN, .weight_decay = NAN,
    .cosine = -1, .seed = 0, .swa_start = -1, .swa_lr = NAN, .ema_decay = NAN, .limit = -1,
    .test_limit = -1, .prune_epochs = G_MININT, .prune_lr = NAN,
  };
  const GOptionEntry entries[] = {
    { "model", 'm', 0, G_OPTION_ARG_FILENAME, &opts.model_file,
      "A model as a JSON module tree (default: a small CNN with BatchNorm)", "FILE" },
    { "epochs", 'e', 0, G_OPTION_ARG_INT, &opts.epochs, "Passes over the training set (default 6)", "N" },
    { "batch-size", 'b', 0, G_OPTION_ARG_INT, &opts.batch_size, "Samples per step (default 128)", "N" },
    { "optimizer", 0, 0, G_OPTION_ARG_STRING, &opts.optimizer,
      "sgd, adam or adamw (default adamw)", "NAME" },
    { "lr", 0, 0, G_OPTION_ARG_DOUBLE, &opts.lr,
      "The learning rate (default 0.002 for adam and adamw, 0.05 for sgd)", "LR" },
    { "momentum", 0, 0, G_OPTION_ARG_DOUBLE, &opts.momentum,
      "SGD momentum, Nesterov's when > 0 (default 0.9)", "M" },
    { "weight-decay", 0, 0, G_OPTION_ARG_DOUBLE, &opts.weight_decay,
      "Weight decay (default 0.01 for adamw, 5e-4 for sgd, 0 for adam)", "WD" },
    { "cosine", 0, G_OPTION_FLAG_OPTIONAL_ARG, G_OPTION_ARG_CALLBACK, parse_cosine,
      "Cosine learning-rate schedule over the epochs, on or off (default on)", "on|off" },
    { "no-cosine", 0, G_OPTION_FLAG_NO_ARG, G_OPTION_ARG_CALLBACK, parse_cosine,
      "A constant learning rate (as --cosine=off)", NULL },
    { "seed", 's', 0, G_OPTION_ARG_CALLBACK, parse_seed,
      "Seed of the initial weights, the batch order and dropout (default 0)", "S" },
    { "swa-start", 0, 0, G_OPTION_ARG_INT, &opts.swa_start,
      "Average the weights (SWA) at the end of every epoch from this one, with SWALR", "EPOCH" },
    { "swa-lr", 0, 0, G_OPTION_ARG_DOUBLE, &opts.swa_lr,
      "The learning rate SWALR anneals to (default --lr / 10)", "LR" },
    { "ema-decay", 0, 0, G_OPTION_ARG_DOUBLE, &opts.ema_decay,
      "Keep an exponential moving average of the weights and buffers, updated every step", "D" },
    { "save", 0, 0, G_OPTION_ARG_FILENAME, &opts.save,
      "Save a checkpoint here after every epoch and at the end", "PATH" },
    { "resume", 0, 0, G_OPTION_ARG_FILENAME, &opts.resume,
      "Continue the run saved in this checkpoint, exactly", "PATH" },
    { "threads", 't', 0, G_OPTION_ARG_INT, &opts.threads,
      "Compute threads (default: GNN_NUM_THREADS or the number of processors)", "N" },
    { "data-dir", 0, 0, G_OPTION_ARG_FILENAME, &opts.data_dir,
      "Where Fashion-MNIST's IDX files are (default " DEFAULT_DATA_DIR ")", "DIR" },
    { "limit", 0, 0, G_OPTION_ARG_INT, &opts.limit,
      "Train on the first N training images only (default: all 60000)", "N" },
    { "test-limit", 0, 0, G_OPTION_ARG_INT, &opts.test_limit,
      "Test on the first N test images only (default: all 10000)", "N" },
    { "prune-global", 0, 0, G_OPTION_ARG_CALLBACK, parse_prune_global,
      "After training, prune this much of all Conv2d and Linear weights together by L1 magnitude "
      "(torch's global_unstructured): a fraction (0.5) or a number of weights (1000); then fine-tune, "
      "and save the pruned model as a plain one", "AMOUNT" },
    { "prune-epochs", 0, 0, G_OPTION_ARG_INT, &opts.prune_epochs,
      "Epochs of fine-tuning after --prune-global (default 1)", "N" },
    { "prune-lr", 0, 0, G_OPTION_ARG_DOUBLE, &opts.prune_lr,
      "The constant learning rate of the fine-tuning (default --lr / 10)", "LR" },
    { "distributed", 0, 0, G_OPTION_ARG_NONE, &opts.distributed,
      "Train on the ranks of `mpirun -np N` (DistributedDataParallel over MPI): each rank on its "
      "share of every epoch, --batch-size per rank; rank 0 prints and saves", NULL },
    { "task", 0, 0, G_OPTION_ARG_STRING, &opts.task,
      "cnn (this task, the default) or charlm: a character-level language model on the fortunes "
      "package's text (see --task charlm --help)", "NAME" },
    G_OPTION_ENTRY_NULL
  };
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GOptionGroup) group = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *problem = NULL;
  int status;

  /* the user's locale: messages with file names in GLib's quotes print as themselves, not as
   * '?' (the C locale's ASCII), numbers take the locale's decimal sign; the checkpoint's
   * metadata is written and read with g_ascii_dtostr / g_ascii_strtod whatever the locale */
  setlocale (LC_ALL, "");
  g_set_prgname ("gnn-train");
  if (wants_charlm (argc, argv))
    return gnn_train_charlm_main (argc, argv);
  context = g_option_context_new ("- train a model on Fashion-MNIST");
  g_option_context_set_summary (context,
    "Trains a model (by default a small CNN with BatchNorm) on Fashion-MNIST and prints its\n"
    "test accuracy. With --save, a checkpoint after every epoch; Ctrl-C saves one mid-epoch\n"
    "(to --save PATH or " INTERRUPTED_PATH ") that --resume continues exactly.\n"
    "With --task charlm, trains a character-level language model instead (see --task charlm --help).");
  group = g_option_group_new (NULL, NULL, NULL, &opts, NULL);
  g_option_group_add_entries (group, entries);
  g_option_context_set_main_group (context, g_steal_pointer (&group));
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      g_printerr ("gnn-train: %s (see --help)\n", error->message);
      options_clear (&opts);
      return EXIT_USAGE;
    }
  if (argc > 1)
    {
      g_printerr ("gnn-train: unexpected argument '%s' (see --help)\n", argv[1]);
      options_clear (&opts);
      return EXIT_USAGE;
    }
  if (opts.task && !g_str_equal (opts.task, "cnn"))
    {
      g_printerr ("gnn-train: --task: expected cnn or charlm, found '%s'\n", opts.task);
      options_clear (&opts);
      return EXIT_USAGE;
    }
  if (opts.data_dir == NULL)
    opts.data_dir = g_strdup (DEFAULT_DATA_DIR);

  if (opts.resume)
    {
      if (opts.model_file)
        {
          g_printerr ("gnn-train: --model and --resume exclude each other: the checkpoint holds "
                      "the model\n");
          options_clear (&opts);
          return EXIT_USAGE;
        }
      if (!read_checkpoint_options (&opts, opts.resume, &error))
        {
          g_printerr ("gnn-train: --resume %s: %s\n", opts.resume, error->message);
          options_clear (&opts);
          return EXIT_USAGE;
        }
    }
  options_fill_defaults (&opts);
  if ((problem = options_check (&opts)) != NULL)
    {
      g_printerr ("gnn-train: %s\n", problem);
      options_clear (&opts);
      return EXIT_USAGE;
    }

  for (guint i = 0; i < G_N_ELEMENTS (data_names); i++)
    {
      g_autofree char *path = gnn_tool_find_data_file (opts.data_dir, data_names[i]);

      if (path == NULL)
        {
          g_printerr ("gnn-train: Fashion-MNIST not found: expected %s.gz (or %s) in %s; install "
                      "Debian's dataset-fashion-mnist package or pass --data-dir DIR\n",
                      data_names[i], data_names[i], opts.data_dir);
          options_clear (&opts);
          return EXIT_USAGE;
        }
    }

  if (opts.threads > 0)
    gnn_set_num_threads (opts.threads);
  /* the progress line redrawn in place on a terminal that can erase a line; elsewhere (a pipe,
   * a file, TERM=dumb) a line per epoch */
  gnn_tool_install_sigint ();

  status = run (&opts, &error);
  if (status != EXIT_SUCCESS && error != NULL)
    g_printerr ("gnn-train: %s\n", error->message);
  options_clear (&opts);
  return status;
}
