/* gv-trainer.c: gnn-viewer's training, one step at a time on a worker thread
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Each step runs in a GTask holding references to the model, optimizer and loader; the main
 * thread leaves them alone while a step runs, so that the window keeps drawing and answering.
 * The module hooks fire on that thread and write into each node's pending statistics, which
 * the main thread publishes when the step completes. Signals ("step-done", "failed",
 * "profiled", notify::training) are emitted on the main thread.
 *
 * A step asked to be profiled (gv_trainer_profile_step, --profile-step) runs inside a
 * GnnProfiler started and stopped on the worker thread around it, so that its events are that
 * step's alone: the forward of every module, the backward, the optimizer and each kernel. The
 * statistics hooks are blocked for that step (its statistics are not gathered), so that the
 * profile holds no time of the viewer's own.
 */
#include "gv-trainer.h"
#include "gv-node.h"
#include "gnn-tool.h"

#include <glib/gi18n.h>
#include <math.h>

/* the mean and standard deviation of Fashion-MNIST's training pixels, scaled to [0, 1] */
#define PIXEL_MEAN 0.2860
#define PIXEL_STD 0.3530

struct _GvTrainer
{
  GObject        parent_instance;

  char          *data_dir;
  int            limit;
  int            batch_size;
  double         lr;
  gint64         seed;
  gint64         max_steps;

  GnnModule     *model;
  GPtrArray     *nodes;
  GnnDataset    *train_set;
  GnnDataLoader *loader;
  GnnOptimizer  *optimizer;
  guint          batch;
  guint          epoch;
  gint64         steps;
  gint64         samples;
  gint64         train_start;
  gint64         longest_step;
  GArray        *losses;
  gboolean       training;
  gboolean       in_flight;
  gint64         profile_at;          /* the step to profile (--profile-step), 0: none */
  gboolean       profile_next;        /* profile the next step dispatched */
  gboolean       stop_after_profile;  /* training was started for the profile only */
  gboolean       profiling;           /* the step in flight is profiled */
};

enum { PROP_0, PROP_TRAINING, N_PROPS };
static GParamSpec *properties[N_PROPS];

enum { STEP_DONE, FAILED, PROFILED, N_SIGNALS };
static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (GvTrainer, gv_trainer, G_TYPE_OBJECT)

static void
gv_trainer_dispose (GObject *object)
{
  GvTrainer *self = GV_TRAINER (object);

  g_clear_object (&self->optimizer);
  g_clear_object (&self->loader);
  g_clear_object (&self->train_set);
  g_clear_object (&self->model);
  g_clear_pointer (&self->nodes, g_ptr_array_unref);
  G_OBJECT_CLASS (gv_trainer_parent_class)->dispose (object);
}

static void
gv_trainer_finalize (GObject *object)
{
  GvTrainer *self = GV_TRAINER (object);

  g_free (self->data_dir);
  g_array_unref (self->losses);
  G_OBJECT_CLASS (gv_trainer_parent_class)->finalize (object);
}

static void
gv_trainer_get_property (GObject    *object,
                         guint       prop_id,
                         GValue     *value,
                         GParamSpec *pspec)
{
  GvTrainer *self = GV_TRAINER (object);

  switch (prop_id)
    {
    case PROP_TRAINING:
      g_value_set_boolean (value, self->training);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
gv_trainer_class_init (GvTrainerClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = gv_trainer_dispose;
  object_class->finalize = gv_trainer_finalize;
  object_class->get_property = gv_trainer_get_property;
  properties[PROP_TRAINING] =
    g_param_spec_boolean ("training", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  g_object_class_install_properties (object_class, N_PROPS, properties);
  /* a step completed: its loss is the last of the losses, the nodes show its statistics */
  signals[STEP_DONE] = g_signal_new ("step-done", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                                     NULL, NULL, NULL, G_TYPE_NONE, 0);
  /* training stopped on an error */
  signals[FAILED] = g_signal_new ("failed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                                  NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_ERROR);
  /* a profiled step completed: the step's number and its profiler, stopped */
  signals[PROFILED] = g_signal_new ("profiled", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                                    NULL, NULL, NULL, G_TYPE_NONE, 2, G_TYPE_INT64, GNN_TYPE_PROFILER);
}

static void
gv_trainer_init (GvTrainer *self)
{
  self->losses = g_array_new (FALSE, FALSE, sizeof (double));
}

GvTrainer *
gv_trainer_new (const char *data_dir,
                int         limit,
                int         batch_size,
                double      lr,
                gint64      seed,
                gint64      max_steps)
{
  GvTrainer *self = g_object_new (GV_TYPE_TRAINER, NULL);

  self->data_dir = g_strdup (data_dir);
  self->limit = limit;
  self->batch_size = batch_size;
  self->lr = lr;
  self->seed = seed;
  self->max_steps = max_steps;
  return self;
}

static void
set_training (GvTrainer *self,
              gboolean   training)
{
  if (self->training == training)
    return;
  self->training = training;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TRAINING]);
}

void
gv_trainer_stop (GvTrainer *self)
{
  set_training (self, FALSE);
}

void
gv_trainer_set_model (GvTrainer *self,
                      GnnModule *model,
                      GPtrArray *nodes)
{
  gv_trainer_stop (self);
  g_clear_object (&self->optimizer);
  g_set_object (&self->model, model);
  g_clear_pointer (&self->nodes, g_ptr_array_unref);
  self->nodes = nodes ? g_ptr_array_ref (nodes) : NULL;
  self->steps = 0;
  self->longest_step = 0;
  self->profile_next = FALSE;
  self->stop_after_profile = FALSE;
  g_array_set_size (self->losses, 0);
}

static const char *const data_names[] = { "train-images-idx3-ubyte", "train-labels-idx1-ubyte" };

/* the data, the loader and the optimizer of the model */
static gboolean
prepare (GvTrainer  *self,
         GError    **error)
{
  if (self->train_set == NULL)
    {
      const double mean = PIXEL_MEAN, std = PIXEL_STD;
      g_autoptr(GnnNormalize) normalize = NULL;
      g_autoptr(GnnDataset) set = gnn_tool_load_split (self->data_dir, data_names[0], data_names[1],
                                                       self->limit, error);

      if (set == NULL || (normalize = gnn_normalize_new (&mean, &std, 1, 1.0 / 255, error)) == NULL)
        return FALSE;
      self->train_set = g_steal_pointer (&set);
      self->loader = gnn_data_loader_new (self->train_set, self->batch_size, TRUE, (guint64) self->seed, FALSE,
                                          error);
      if (self->loader == NULL)
        return FALSE;
      gnn_data_loader_set_transform (self->loader, GNN_TRANSFORM (normalize));
    }
  if (self->optimizer == NULL)
    {
      g_autoptr(GnnParamGroup) params = gnn_param_group_new_from_module (self->model);

      self->optimizer = GNN_OPTIMIZER (gnn_adamw_new (params, self->lr, 0.9, 0.999, 1e-8, 0.01, FALSE, FALSE, error));
      if (self->optimizer == NULL)
        return FALSE;
      self->batch = 0;
      self->epoch = 0;
      gnn_data_loader_set_epoch (self->loader, 0);
    }
  return TRUE;
}

/* One step's references: the worker thread touches nothing else */
typedef struct
{
  GvTrainer     *trainer;
  GnnModule     *model;
  GnnOptimizer  *optimizer;
  GnnDataLoader *loader;
  guint          batch;
  gint64         step;
  double         loss;
  gint64         samples;
  gint64         micros;
  gboolean       profile;
  GnnProfiler   *profiler;   /* the profile of the step, when it was profiled */
  GPtrArray     *blocked;    /* Blocked: the hooks blocked for a profiled step */
} StepData;

/* a hook blocked while a step is profiled */
typedef struct
{
  GnnModule *module;
  gulong     id;
} Blocked;

static void
blocked_free (Blocked *b)
{
  /* the node may have connected again since: only the handler blocked is unblocked */
  if (g_signal_handler_is_connected (b->module, b->id))
    g_signal_handler_unblock (b->module, b->id);
  g_object_unref (b->module);
  g_free (b);
}

/* Blocks the statistics hooks of @nodes; the array unblocks them when freed. */
static GPtrArray *
block_hooks (GPtrArray *nodes)
{
  GPtrArray *blocked = g_ptr_array_new_with_free_func ((GDestroyNotify) blocked_free);

  for (guint i = 0; i < nodes->len; i++)
    {
      GvNode *node = g_ptr_array_index (nodes, i);
      gulong ids[2] = { node->forward_id, node->backward_id };

      for (guint k = 0; k < G_N_ELEMENTS (ids); k++)
        if (ids[k])
          {
            Blocked *b = g_new (Blocked, 1);

            b->module = g_object_ref (node->module);
            b->id = ids[k];
            g_signal_handler_block (b->module, b->id);
            g_ptr_array_add (blocked, b);
          }
    }
  return blocked;
}

static void
step_data_free (StepData *d)
{
  g_object_unref (d->trainer);
  g_object_unref (d->model);
  g_object_unref (d->optimizer);
  g_object_unref (d->loader);
  g_clear_object (&d->profiler);
  g_clear_pointer (&d->blocked, g_ptr_array_unref);
  g_free (d);
}

static gboolean
run_step (StepData  *d,
          GError   **error)
{
  g_autoptr(GPtrArray) batch = gnn_data_loader_get_batch (d->loader, d->batch, error);
  double value;

  if (batch == NULL)
    return FALSE;
  gnn_module_train (d->model, TRUE);
  if (!gnn_tool_classifier_step (d->model, d->optimizer, batch, &value, error))
    return FALSE;
  if (!isfinite (value))
    {
      g_autofree char *step = g_strdup_printf ("%" G_GINT64_FORMAT, d->step);

      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_FAILED,
                   _("the loss diverged to %g at step %s; try a smaller --lr"), value, step);
      return FALSE;
    }
  d->samples = gnn_tensor_get_size (g_ptr_array_index (batch, 0), 0, NULL);
  d->loss = value;
  return TRUE;
}

static void
step_thread (GTask        *task,
             gpointer      source,
             gpointer      task_data,
             GCancellable *cancellable)
{
  StepData *d = task_data;
  GError *error = NULL;
  gint64 start = g_get_monotonic_time ();
  g_autoptr(GnnProfiler) profiler = d->profile ? gnn_profiler_new () : NULL;
  gboolean ok;

  if (profiler && !gnn_profiler_start (profiler, &error))
    {
      g_prefix_error (&error, _("cannot profile the step: "));
      g_task_return_error (task, error);
      return;
    }
  ok = run_step (d, &error);
  if (profiler)
    {
      gnn_profiler_stop (profiler, NULL);
      d->profiler = g_steal_pointer (&profiler);
    }
  if (ok)
    {
      d->micros = g_get_monotonic_time () - start;
      g_task_return_boolean (task, TRUE);
    }
  else
    g_task_return_error (task, error);
}

static void dispatch (GvTrainer *self);

static void
fail (GvTrainer    *self,
      const GError *error)
{
  gv_trainer_stop (self);
  g_signal_emit (self, signals[FAILED], 0, error);
}

/* on the main thread, when a step is done */
static void
step_done (GvTrainer *self,
           GTask     *task,
           StepData  *d)
{
  g_autoptr(GError) error = NULL;

  self->in_flight = FALSE;
  self->profiling = FALSE;
  g_clear_pointer (&d->blocked, g_ptr_array_unref);   /* the hooks listen again */
  if (d->model != self->model || d->optimizer != self->optimizer)
    {
      /* another model was opened meanwhile: this step is history */
      dispatch (self);
      return;
    }
  if (!g_task_propagate_boolean (task, &error))
    {
      g_autofree char *step = g_strdup_printf ("%" G_GINT64_FORMAT, d->step);

      g_prefix_error (&error, _("training failed at step %s: "), step);
      fail (self, error);
      return;
    }
  for (guint i = 0; i < self->nodes->len; i++)
    gv_node_publish (g_ptr_array_index (self->nodes, i));
  self->longest_step = MAX (self->longest_step, d->micros);
  self->samples += d->samples;
  self->steps++;
  g_array_append_val (self->losses, d->loss);
  if (gv_trainer_get_finished (self) || (d->profiler && self->stop_after_profile))
    gv_trainer_stop (self);
  if (d->profiler)
    self->stop_after_profile = FALSE;
  g_signal_emit (self, signals[STEP_DONE], 0);
  if (d->profiler)
    g_signal_emit (self, signals[PROFILED], 0, d->step, d->profiler);
  dispatch (self);
}

static void
on_step_done (GObject      *source,
              GAsyncResult *result,
              gpointer      user_data)
{
  GTask *task = G_TASK (result);
  StepData *d = g_task_get_task_data (task);

  step_done (d->trainer, task, d);
  /* the step's references dropped here, on the main thread */
  g_task_set_task_data (task, NULL, NULL);
}

/* Starts the next step on a worker thread, unless one is in flight or training stopped. */
static void
dispatch (GvTrainer *self)
{
  guint n_batches;
  g_autoptr(GTask) task = NULL;
  StepData *d;

  if (self->in_flight || !self->training)
    return;
  n_batches = g_list_model_get_n_items (G_LIST_MODEL (self->loader));
  if (n_batches == 0)
    {
      g_autoptr(GError) error = g_error_new (G_FILE_ERROR, G_FILE_ERROR_INVAL,
                                             _("cannot train: the training set is empty: expected "
                                               "at least one batch, found none"));

      fail (self, error);
      return;
    }
  if (self->batch >= n_batches)
    {
      self->batch = 0;
      gnn_data_loader_set_epoch (self->loader, ++self->epoch);
    }
  for (guint i = 0; i < self->nodes->len; i++)
    gv_node_reset_pending (g_ptr_array_index (self->nodes, i));
  d = g_new0 (StepData, 1);
  d->trainer = g_object_ref (self);
  d->model = g_object_ref (self->model);
  d->optimizer = g_object_ref (self->optimizer);
  d->loader = g_object_ref (self->loader);
  d->batch = self->batch++;
  d->step = self->steps + 1;
  d->profile = self->profile_next || d->step == self->profile_at;
  self->profile_next = FALSE;
  self->profiling = d->profile;
  if (d->profile)
    d->blocked = block_hooks (self->nodes);
  task = g_task_new (NULL, NULL, on_step_done, NULL);
  g_task_set_task_data (task, d, (GDestroyNotify) step_data_free);
  self->in_flight = TRUE;
  g_task_run_in_thread (task, step_thread);
}

gboolean
gv_trainer_start (GvTrainer  *self,
                  GError    **error)
{
  if (self->training || gv_trainer_get_finished (self))
    return TRUE;
  if (self->model == NULL)
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL, _("cannot train: no model"));
      return FALSE;
    }
  if (!prepare (self, error))
    {
      g_prefix_error (error, _("cannot train: "));
      return FALSE;
    }
  for (guint i = 0; i < self->nodes->len; i++)
    gv_node_connect (g_ptr_array_index (self->nodes, i));
  self->train_start = g_get_monotonic_time ();
  self->samples = 0;
  set_training (self, TRUE);
  dispatch (self);
  return TRUE;
}

gboolean
gv_trainer_profile_step (GvTrainer  *self,
                         GError    **error)
{
  if (gv_trainer_get_finished (self))
    {
      g_autofree char *steps = g_strdup_printf ("%" G_GINT64_FORMAT, self->max_steps);

      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
                   _("cannot profile a step: the %s steps of --train-steps are done"), steps);
      return FALSE;
    }
  self->profile_next = TRUE;
  if (!self->training)
    {
      if (!gv_trainer_start (self, error))
        {
          self->profile_next = FALSE;
          return FALSE;
        }
      self->stop_after_profile = TRUE;
    }
  return TRUE;
}

gboolean
gv_trainer_get_profile_pending (GvTrainer *self)
{
  return self->profile_next || self->profiling;
}

void
gv_trainer_set_profile_at (GvTrainer *self,
                           gint64     step)
{
  self->profile_at = step;
}

gboolean
gv_trainer_get_training (GvTrainer *self)
{
  return self->training;
}

gboolean
gv_trainer_get_in_flight (GvTrainer *self)
{
  return self->in_flight;
}

gboolean
gv_trainer_get_finished (GvTrainer *self)
{
  return self->max_steps > 0 && self->steps >= self->max_steps;
}

gint64
gv_trainer_get_steps (GvTrainer *self)
{
  return self->steps;
}

guint
gv_trainer_get_epoch (GvTrainer *self)
{
  return self->epoch;
}

guint
gv_trainer_get_batch (GvTrainer *self)
{
  return self->batch;
}

GArray *
gv_trainer_get_losses (GvTrainer *self)
{
  return self->losses;
}

double
gv_trainer_get_samples_per_second (GvTrainer *self)
{
  double seconds = (g_get_monotonic_time () - self->train_start) / 1e6;

  return self->samples / MAX (seconds, 1e-9);
}

gint64
gv_trainer_get_longest_step (GvTrainer *self)
{
  return self->longest_step;
}

gint64
gv_trainer_get_seed (GvTrainer *self)
{
  return self->seed;
}
