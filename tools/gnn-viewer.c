/* gnn-viewer.c: a GTK 4 window onto a model: its module tree and, while it trains, live statistics
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 *   gnn-viewer [--model model.json] [--weights file.safetensors | --checkpoint ckpt.safetensors]
 *              [--train [--train-steps K] [--limit N]] [FILE...]
 *
 * The window shows the module tree exactly as named_modules lists it (a GtkTreeListModel in a
 * GtkColumnView: name, type, own and total parameter counts, parameter shapes) and, when it
 * trains (the Train button, or --train), per module the mean, standard deviation and largest
 * magnitude of its output (collected from GnnModule::forward-post) and of the gradient of that
 * output (from GnnModule::backward-post), updated after every step, under a loss curve drawn
 * with cairo. Training runs on Fashion-MNIST one step at a time on a worker thread (a GTask
 * holding references to the model, optimizer and loader; the main thread leaves them alone
 * while a step runs), so that the window keeps drawing and answering; the hooks fire on that
 * thread and write into each row's pending statistics, which the main thread shows when the
 * step completes. Without a model it trains the small CNN tools/gnn-train uses (AdamW).
 *
 * For tests and scripts: --dump-tree FILE writes the rows of the column view's model (read
 * back from the GtkTreeListModel, not from gnn) as "name<TAB>type<TAB>nparams" lines, plus six
 * statistics columns once training ran; --dump-loss FILE writes "step<TAB>loss" lines;
 * --screenshot FILE.png renders the window to a PNG. These happen once the window has been
 * mapped and --frames frames drawn, after --train-steps steps when training, and then the
 * program quits. --quit-after-ms bounds the whole run.
 *
 * Exit status: 0 on success, 1 when something asked for could not be done (training failed, a
 * file could not be written, the time ran out first), 2 for bad usage or an unreadable model.
 */
#include <gnn/gnn.h>
#include <gtk/gtk.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gnn-tool.h"

#define DEFAULT_DATA_DIR "/usr/share/datasets/fashion-mnist"
#define EXIT_USAGE 2

/* the mean and standard deviation of Fashion-MNIST's training pixels, scaled to [0, 1] */
#define PIXEL_MEAN 0.2860
#define PIXEL_STD 0.3530

/* ---- one row of the tree: a module and its statistics ------------------------------------- */

typedef struct
{
  double  mean;
  double  std;
  double  max_abs;
  gint64  updates;   /* 0: none yet */
} Stats;

/* What the hooks gather during one step, over every call of the module in it (a module
 * registered twice runs twice): element count, mean and sum of squared deviations, combined
 * call by call (Chan et al.), and the largest magnitude. */
typedef struct
{
  gint64  n;
  double  mean;
  double  m2;
  double  max_abs;
} Acc;

enum
{
  COL_NAME,
  COL_TYPE,
  COL_OWN,
  COL_TOTAL,
  COL_SHAPES,
  COL_ACT_MEAN,
  COL_ACT_STD,
  COL_ACT_MAX,
  COL_GRAD_MEAN,
  COL_GRAD_STD,
  COL_GRAD_MAX,
  N_COLUMNS
};

static const char *const column_titles[N_COLUMNS] = {
  "Module", "Type", "Params", "Params (total)", "Parameter shapes",
  "Act mean", "Act std", "Act max |x|", "Grad mean", "Grad std", "Grad max |g|",
};

#define GV_TYPE_NODE (gv_node_get_type ())
G_DECLARE_FINAL_TYPE (GvNode, gv_node, GV, NODE, GObject)

struct _GvNode
{
  GObject     parent_instance;

  char       *name;          /* the dotted name named_modules gives ("" for the root) */
  GnnModule  *module;
  char       *type_name;
  gint64      own_params;
  gint64      total_params;
  char       *shapes;        /* "weight [32, 1, 3, 3], bias [32]" */
  GListStore *children;
  Stats       act;             /* shown */
  Stats       grad;
  Acc         pending_act;     /* written by the hooks, on the training thread */
  Acc         pending_grad;
  gulong      forward_id;
  gulong      backward_id;
};

enum { NODE_CHANGED, N_NODE_SIGNALS };
static guint node_signals[N_NODE_SIGNALS];

G_DEFINE_FINAL_TYPE (GvNode, gv_node, G_TYPE_OBJECT)

static void
gv_node_disconnect (GvNode *self)
{
  if (self->forward_id)
    g_signal_handler_disconnect (self->module, self->forward_id);
  if (self->backward_id)
    g_signal_handler_disconnect (self->module, self->backward_id);
  self->forward_id = self->backward_id = 0;
}

static void
gv_node_dispose (GObject *object)
{
  GvNode *self = GV_NODE (object);

  if (self->module)
    gv_node_disconnect (self);
  g_clear_object (&self->module);
  g_clear_object (&self->children);
  G_OBJECT_CLASS (gv_node_parent_class)->dispose (object);
}

static void
gv_node_finalize (GObject *object)
{
  GvNode *self = GV_NODE (object);

  g_free (self->name);
  g_free (self->type_name);
  g_free (self->shapes);
  G_OBJECT_CLASS (gv_node_parent_class)->finalize (object);
}

static void
gv_node_class_init (GvNodeClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = gv_node_dispose;
  object_class->finalize = gv_node_finalize;
  /* the statistics changed */
  node_signals[NODE_CHANGED] =
    g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 0);
}

static void
gv_node_init (GvNode *self)
{
  self->children = g_list_store_new (GV_TYPE_NODE);
}

static char *
shape_to_string (GnnTensor *tensor)
{
  guint ndim;
  const gint64 *shape = gnn_tensor_get_shape (tensor, &ndim);
  GString *s = g_string_new ("[");

  for (guint i = 0; i < ndim; i++)
    g_string_append_printf (s, "%s%" G_GINT64_FORMAT, i ? ", " : "", shape[i]);
  g_string_append_c (s, ']');
  return g_string_free (s, FALSE);
}

static GvNode *
gv_node_new (const char *name,
             GnnModule  *module)
{
  GvNode *self = g_object_new (GV_TYPE_NODE, NULL);
  g_auto(GStrv) names = NULL;
  g_autoptr(GPtrArray) own = gnn_module_named_parameters (module, NULL, FALSE, TRUE, &names);
  g_autoptr(GPtrArray) all = gnn_module_parameters (module, TRUE);
  GString *shapes = g_string_new (NULL);

  self->name = g_strdup (name);
  self->module = g_object_ref (module);
  self->type_name = g_strdup (G_OBJECT_TYPE_NAME (module));
  for (guint i = 0; i < own->len; i++)
    {
      g_autofree char *shape = shape_to_string (g_ptr_array_index (own, i));

      self->own_params += gnn_tensor_get_numel (g_ptr_array_index (own, i));
      g_string_append_printf (shapes, "%s%s %s", i ? ", " : "", names[i], shape);
    }
  for (guint i = 0; i < all->len; i++)
    self->total_params += gnn_tensor_get_numel (g_ptr_array_index (all, i));
  self->shapes = g_string_free (shapes, FALSE);
  return self;
}

static char *
stat_text (const Stats *s,
           double       value)
{
  return s->updates ? g_strdup_printf ("%.4g", value) : g_strdup ("");
}

/* The text of column @col for @self: what the column view shows. */
static char *
gv_node_column_text (GvNode *self,
                     int     col)
{
  switch (col)
    {
    case COL_NAME:
      {
        const char *dot = strrchr (self->name, '.');

        if (self->name[0] == '\0')
          return g_strdup ("(model)");
        return g_strdup (dot ? dot + 1 : self->name);
      }
    case COL_TYPE: return g_strdup (self->type_name);
    case COL_OWN: return g_strdup_printf ("%" G_GINT64_FORMAT, self->own_params);
    case COL_TOTAL: return g_strdup_printf ("%" G_GINT64_FORMAT, self->total_params);
    case COL_SHAPES: return g_strdup (self->shapes);
    case COL_ACT_MEAN: return stat_text (&self->act, self->act.mean);
    case COL_ACT_STD: return stat_text (&self->act, self->act.std);
    case COL_ACT_MAX: return stat_text (&self->act, self->act.max_abs);
    case COL_GRAD_MEAN: return stat_text (&self->grad, self->grad.mean);
    case COL_GRAD_STD: return stat_text (&self->grad, self->grad.std);
    case COL_GRAD_MAX: return stat_text (&self->grad, self->grad.max_abs);
    default: g_assert_not_reached ();
    }
}

/* Adds @tensor's elements to @acc. */
static void
acc_add (Acc       *acc,
         GnnTensor *tensor)
{
  g_autoptr(GError) error = NULL;
  g_autofree float *data = NULL;
  gsize n = 0;
  double sum = 0, m2 = 0, max_abs = 0, mean, delta;
  gint64 total;

  data = gnn_tensor_to_floats (tensor, &n, &error);
  if (data == NULL || n == 0)
    return;
  for (gsize i = 0; i < n; i++)
    {
      sum += data[i];
      max_abs = MAX (max_abs, fabs ((double) data[i]));
    }
  mean = sum / n;
  for (gsize i = 0; i < n; i++)
    m2 += (data[i] - mean) * (data[i] - mean);
  total = acc->n + (gint64) n;
  delta = mean - acc->mean;
  acc->m2 += m2 + delta * delta * ((double) acc->n * n / total);
  acc->mean += delta * n / total;
  acc->n = total;
  acc->max_abs = MAX (acc->max_abs, max_abs);
}

/* Shows what @acc gathered, if anything: mean, (unbiased) standard deviation, largest
 * magnitude. TRUE when @s changed. */
static gboolean
stats_publish (Stats     *s,
               const Acc *acc)
{
  if (acc->n == 0)
    return FALSE;
  s->mean = acc->mean;
  s->std = acc->n > 1 ? sqrt (acc->m2 / (acc->n - 1)) : 0.0;
  s->max_abs = acc->max_abs;
  s->updates++;
  return TRUE;
}

/* The first tensor among @args' positional values, or NULL. */
static GnnTensor *
first_tensor (GnnArgs *args)
{
  guint n = args ? gnn_args_get_n_values (args) : 0;

  for (guint i = 0; i < n; i++)
    {
      const GValue *value = gnn_args_get_value (args, i);

      if (value && G_VALUE_HOLDS (value, GNN_TYPE_TENSOR) && g_value_get_object (value) != NULL)
        return g_value_get_object (value);
    }
  return NULL;
}

static void
on_forward_post (GnnModule *module,
                 GnnArgs   *input,
                 GnnArgs   *output,
                 GvNode    *node)
{
  GnnTensor *tensor = first_tensor (output);

  if (tensor)
    acc_add (&node->pending_act, tensor);
}

static void
on_backward_post (GnnModule *module,
                  GnnArgs   *grad_input,
                  GnnArgs   *grad_output,
                  GvNode    *node)
{
  /* the gradient of the module's output: present for every module, where the gradient of the
   * input is missing for the first layer */
  GnnTensor *tensor = first_tensor (grad_output);

  if (tensor)
    acc_add (&node->pending_grad, tensor);
}

static void
gv_node_connect (GvNode *self)
{
  if (self->forward_id == 0)
    self->forward_id = g_signal_connect (self->module, "forward-post", G_CALLBACK (on_forward_post), self);
  if (self->backward_id == 0)
    self->backward_id = g_signal_connect (self->module, "backward-post", G_CALLBACK (on_backward_post), self);
}

/* The nodes of @model's tree, in named_modules order (the root first): each node under the
 * node of its name's prefix, so the tree is exactly named_modules. */
static GPtrArray *
build_tree (GnnModule *model)
{
  g_auto(GStrv) names = NULL;
  g_autoptr(GPtrArray) modules = gnn_module_named_modules (model, NULL, TRUE, &names);
  g_autoptr(GHashTable) by_name = g_hash_table_new (g_str_hash, g_str_equal);
  GPtrArray *nodes = g_ptr_array_new_with_free_func (g_object_unref);

  for (guint i = 0; i < modules->len; i++)
    {
      GvNode *node = gv_node_new (names[i], g_ptr_array_index (modules, i));

      if (i > 0)
        {
          const char *dot = strrchr (names[i], '.');
          g_autofree char *parent_name = dot ? g_strndup (names[i], dot - names[i]) : g_strdup ("");
          GvNode *parent = g_hash_table_lookup (by_name, parent_name);

          g_list_store_append ((parent ? parent : GV_NODE (g_ptr_array_index (nodes, 0)))->children, node);
        }
      g_hash_table_insert (by_name, node->name, node);
      g_ptr_array_add (nodes, node);
    }
  return nodes;
}

static GListModel *
create_child_model (gpointer item,
                    gpointer user_data)
{
  GvNode *node = item;

  if (g_list_model_get_n_items (G_LIST_MODEL (node->children)) == 0)
    return NULL;
  return G_LIST_MODEL (g_object_ref (node->children));
}

/* ---- options and state -------------------------------------------------------------------- */

typedef struct
{
  char    *model_file;
  char    *weights_file;
  char    *checkpoint_file;
  gboolean train;
  int      train_steps;    /* 0: until paused */
  int      limit;          /* 0: all */
  int      batch_size;
  double   lr;
  gint64   seed;
  int      threads;
  char    *data_dir;
  char    *dump_tree;
  char    *dump_loss;
  char    *screenshot;
  int      frames;
  int      quit_after_ms;
} Options;

typedef struct
{
  Options         opts;
  GtkApplication *gapp;
  GtkWidget      *window;
  GtkWidget      *column_view;
  GtkWidget      *status;
  GtkWidget      *plot;
  GtkWidget      *train_button;

  GnnModule      *model;
  char           *model_label;
  GPtrArray      *nodes;            /* GvNode, named_modules order */

  /* training */
  GnnDataset     *train_set;
  GnnDataLoader  *loader;
  GnnOptimizer   *optimizer;        /* of model */
  guint           batch;
  guint           epoch;
  gint64          steps;
  gint64          samples;
  gint64          train_start;
  GArray         *losses;           /* double */
  gboolean        training;         /* steps are asked for, one after the other */
  gboolean        in_flight;        /* a step runs on a worker thread */
  gboolean        train_failed;

  /* scripted runs */
  guint           frames;
  guint           frames_at_stop;
  guint           train_frames;     /* frames drawn while training: the window kept up */
  gint64          longest_step;     /* microseconds */
  gboolean        finishing;
  int             exit_status;
} App;

static App app;

static void
set_status (const char *format,
            ...) G_GNUC_PRINTF (1, 2);

static void
set_status (const char *format,
            ...)
{
  g_autofree char *text = NULL;
  va_list args;

  va_start (args, format);
  text = g_strdup_vprintf (format, args);
  va_end (args);
  if (app.status)
    gtk_label_set_text (GTK_LABEL (app.status), text);
}

static gboolean
scripted (void)
{
  return app.opts.dump_tree || app.opts.dump_loss || app.opts.screenshot;
}

static void maybe_finish (void);

/* ---- models ------------------------------------------------------------------------------- */

static gboolean
load_weights (GnnModule    *model,
              GnnStateDict *state,
              GError      **error)
{
  return gnn_module_load_state_dict (model, state, TRUE, FALSE, NULL, NULL, error);
}

/* A model from a JSON tree (@model_file), weights from a safetensors state dict (@weights_file)
 * or a checkpoint (@checkpoint_file, which alone is enough: it holds the JSON tree). NULL with
 * @error set on failure; NULL without an error when no file was given. */
static GnnModule *
load_model (const char  *model_file,
            const char  *weights_file,
            const char  *checkpoint_file,
            GError     **error)
{
  g_autoptr(GnnModule) model = NULL;

  if (model_file)
    {
      g_autofree char *json = NULL;
      gsize length;

      if (!g_file_get_contents (model_file, &json, &length, error) ||
          (model = gnn_module_new_from_json (json, length, error)) == NULL)
        {
          g_prefix_error (error, "%s: ", model_file);
          return NULL;
        }
    }
  if (checkpoint_file)
    {
      g_autoptr(GnnModule) saved = gnn_checkpoint_load_model (checkpoint_file, error);
      g_autoptr(GnnStateDict) state = NULL;

      if (saved == NULL)
        {
          g_prefix_error (error, "%s: ", checkpoint_file);
          return NULL;
        }
      if (model == NULL)
        return g_steal_pointer (&saved);
      if ((state = gnn_module_state_dict (saved, NULL, FALSE, error)) == NULL ||
          !load_weights (model, state, error))
        {
          g_prefix_error (error, "%s into %s: ", checkpoint_file, model_file);
          return NULL;
        }
    }
  if (weights_file)
    {
      g_autoptr(GnnStateDict) state = NULL;

      if (model == NULL)
        {
          g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_FAILED,
                       "%s: a state dict holds no module tree: expected --model FILE.json with "
                       "--weights, found none (or give a checkpoint with --checkpoint)",
                       weights_file);
          return NULL;
        }
      if ((state = gnn_safetensors_load (weights_file, NULL, error)) == NULL ||
          !load_weights (model, state, error))
        {
          g_prefix_error (error, "%s: ", weights_file);
          return NULL;
        }
    }
  return g_steal_pointer (&model);
}

/* ---- training ----------------------------------------------------------------------------- */

static const char *const data_names[] = { "train-images-idx3-ubyte", "train-labels-idx1-ubyte" };

/* The data, loader and optimizer for the current model. */
static gboolean
trainer_prepare (GError **error)
{
  if (app.train_set == NULL)
    {
      const double mean = PIXEL_MEAN, std = PIXEL_STD;
      g_autoptr(GnnNormalize) normalize = NULL;

      app.train_set = gnn_tool_load_split (app.opts.data_dir, data_names[0], data_names[1], app.opts.limit, error);
      if (app.train_set == NULL)
        return FALSE;
      normalize = gnn_normalize_new (&mean, &std, 1, 1.0 / 255, error);
      if (normalize == NULL)
        return FALSE;
      app.loader = gnn_data_loader_new (app.train_set, app.opts.batch_size, TRUE,
                                        (guint64) app.opts.seed, FALSE);
      gnn_data_loader_set_transform (app.loader, normalize);
    }
  if (app.optimizer == NULL)
    {
      g_autoptr(GnnParamGroup) params = gnn_param_group_new_from_module (app.model);

      app.optimizer = gnn_adamw_new (params, app.opts.lr, 0.9, 0.999, 1e-8, 0.01, FALSE, FALSE, error);
      if (app.optimizer == NULL)
        return FALSE;
      app.batch = 0;
      app.epoch = 0;
      gnn_data_loader_set_epoch (app.loader, 0);
    }
  return TRUE;
}

/* One step, run on a worker thread (a GTask): everything it touches is in here, referenced, and
 * the main thread leaves the model alone until the step completes. The hooks write the
 * statistics into each node's pending fields; the main thread publishes them when the step is
 * done. */
typedef struct
{
  GnnModule     *model;
  GnnOptimizer  *optimizer;
  GnnDataLoader *loader;
  GPtrArray     *nodes;
  guint          batch;
  gint64         step;
  double         loss;
  gint64         samples;
  gint64         micros;
} StepData;

static void
step_data_free (StepData *d)
{
  g_object_unref (d->model);
  g_object_unref (d->optimizer);
  g_object_unref (d->loader);
  g_ptr_array_unref (d->nodes);
  g_free (d);
}

static gboolean
train_step (StepData  *d,
            GError   **error)
{
  g_autoptr(GPtrArray) batch = NULL;
  double value;

  batch = gnn_data_loader_get_batch (d->loader, d->batch, error);
  if (batch == NULL)
    return FALSE;
  gnn_module_train (d->model, TRUE);
  if (!gnn_tool_classifier_step (d->model, d->optimizer, batch, &value, error))
    return FALSE;
  if (!isfinite (value))
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_FAILED,
                   "the loss diverged to %g at step %" G_GINT64_FORMAT "; try a smaller --lr",
                   value, d->step);
      return FALSE;
    }
  d->samples = gnn_tensor_get_size (g_ptr_array_index (batch, 0), 0, NULL);
  d->loss = value;
  return TRUE;
}

static void
train_step_thread (GTask        *task,
                   gpointer      source,
                   gpointer      task_data,
                   GCancellable *cancellable)
{
  StepData *d = task_data;
  GError *error = NULL;
  gint64 start = g_get_monotonic_time ();

  if (train_step (d, &error))
    {
      d->micros = g_get_monotonic_time () - start;
      g_task_return_boolean (task, TRUE);
    }
  else
    g_task_return_error (task, error);
}

static void
update_train_status (void)
{
  double seconds = (g_get_monotonic_time () - app.train_start) / 1e6;

  set_status ("%s · step %" G_GINT64_FORMAT " (epoch %u, batch %u) · loss %.4f · %.0f samples/s%s",
              app.model_label, app.steps, app.epoch + 1, app.batch,
              app.losses->len ? g_array_index (app.losses, double, app.losses->len - 1) : 0.0,
              app.samples / MAX (seconds, 1e-9),
              app.training ? "" :
              app.opts.train_steps > 0 && app.steps >= app.opts.train_steps ? " · done (--train-steps)" :
              " · paused");
}

/* Stops asking for steps (one in flight completes). */
static void
train_stop (void)
{
  if (app.training)
    app.frames_at_stop = app.frames;
  app.training = FALSE;
  if (app.train_button && gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (app.train_button)))
    gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (app.train_button), FALSE);
}

static void train_dispatch (void);

static void
train_failed (const char *what,
              GError     *error)
{
  app.train_failed = TRUE;
  train_stop ();
  set_status ("%s: %s", what, error->message);
  g_printerr ("gnn-viewer: %s: %s\n", what, error->message);
  maybe_finish ();
}

/* On the main thread, when a step is done: its loss and statistics shown, the next step asked. */
static void
step_done (GTask    *task,
           StepData *d)
{
  g_autoptr(GError) error = NULL;

  app.in_flight = FALSE;
  if (d->model != app.model || d->optimizer != app.optimizer)
    {
      /* another model was opened meanwhile: this step is history */
      if (app.training)
        train_dispatch ();
      return;
    }
  if (!g_task_propagate_boolean (task, &error))
    {
      g_autofree char *what = g_strdup_printf ("training failed at step %" G_GINT64_FORMAT, d->step);

      train_failed (what, error);
      return;
    }
  for (guint i = 0; i < d->nodes->len; i++)
    {
      GvNode *node = g_ptr_array_index (d->nodes, i);

      gboolean changed = stats_publish (&node->act, &node->pending_act);

      changed |= stats_publish (&node->grad, &node->pending_grad);
      if (changed)
        g_signal_emit (node, node_signals[NODE_CHANGED], 0);
    }
  app.longest_step = MAX (app.longest_step, d->micros);
  app.samples += d->samples;
  app.steps++;
  g_array_append_val (app.losses, d->loss);
  gtk_widget_queue_draw (app.plot);
  if (app.opts.train_steps > 0 && app.steps >= app.opts.train_steps)
    train_stop ();
  update_train_status ();
  if (app.training)
    train_dispatch ();
  else
    maybe_finish ();
}

static void
on_step_done (GObject      *source,
              GAsyncResult *result,
              gpointer      user_data)
{
  GTask *task = G_TASK (result);

  step_done (task, g_task_get_task_data (task));
  /* the step's references dropped here, on the main thread, not wherever the task's last
   * reference happens to go */
  g_task_set_task_data (task, NULL, NULL);
}

/* Starts the next step on a worker thread, unless one is in flight. */
static void
train_dispatch (void)
{
  guint n_batches = g_list_model_get_n_items (G_LIST_MODEL (app.loader));
  g_autoptr(GTask) task = NULL;
  StepData *d;

  if (app.in_flight || !app.training)
    return;
  if (n_batches == 0)
    {
      g_autoptr(GError) error = g_error_new (G_FILE_ERROR, G_FILE_ERROR_INVAL,
                                             "the training set is empty: expected at least one "
                                             "batch, found none");

      train_failed ("cannot train", error);
      return;
    }
  if (app.batch >= n_batches)
    {
      app.batch = 0;
      gnn_data_loader_set_epoch (app.loader, ++app.epoch);
    }
  for (guint i = 0; i < app.nodes->len; i++)
    {
      GvNode *node = g_ptr_array_index (app.nodes, i);

      memset (&node->pending_act, 0, sizeof (Acc));
      memset (&node->pending_grad, 0, sizeof (Acc));
    }
  d = g_new0 (StepData, 1);
  d->model = g_object_ref (app.model);
  d->optimizer = g_object_ref (app.optimizer);
  d->loader = g_object_ref (app.loader);
  d->nodes = g_ptr_array_ref (app.nodes);
  d->batch = app.batch++;
  d->step = app.steps + 1;
  task = g_task_new (NULL, NULL, on_step_done, NULL);
  g_task_set_task_data (task, d, (GDestroyNotify) step_data_free);
  app.in_flight = TRUE;
  g_task_run_in_thread (task, train_step_thread);
}

static void set_model (GnnModule *model, const char *label);

static void
train_start (void)
{
  g_autoptr(GError) error = NULL;

  if (app.training)
    return;
  if (app.opts.train_steps > 0 && app.steps >= app.opts.train_steps)
    {
      train_stop ();
      return;
    }
  if (app.model == NULL)
    {
      g_autoptr(GnnModule) model = NULL;

      gnn_manual_seed ((guint64) app.opts.seed);
      if ((model = gnn_tool_default_model (&error)) == NULL)
        {
          train_failed ("cannot train", error);
          return;
        }
      set_model (model, "the default CNN");
    }
  if (!trainer_prepare (&error))
    {
      train_failed ("cannot train", error);
      return;
    }
  for (guint i = 0; i < app.nodes->len; i++)
    gv_node_connect (g_ptr_array_index (app.nodes, i));
  app.train_start = g_get_monotonic_time ();
  app.samples = 0;
  app.training = TRUE;
  train_dispatch ();
  update_train_status ();
}

static void
on_train_toggled (GtkToggleButton *button,
                  gpointer         data)
{
  if (gtk_toggle_button_get_active (button))
    train_start ();
  else if (app.training)
    {
      train_stop ();
      update_train_status ();
    }
}

/* ---- the column view ---------------------------------------------------------------------- */

static void
label_update (GtkLabel *label)
{
  GvNode *node = g_object_get_data (G_OBJECT (label), "gv-node");
  int col = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (label), "gv-column"));
  g_autofree char *text = node ? gv_node_column_text (node, col) : NULL;

  gtk_label_set_text (label, text ? text : "");
}

static void
on_node_changed (GvNode   *node,
                 GtkLabel *label)
{
  label_update (label);
}

static void
setup_cell (GtkSignalListItemFactory *factory,
            GtkListItem              *item,
            gpointer                  data)
{
  int col = GPOINTER_TO_INT (data);
  GtkWidget *label = gtk_label_new (NULL);

  g_object_set_data (G_OBJECT (label), "gv-column", data);
  gtk_label_set_xalign (GTK_LABEL (label), col == COL_NAME || col == COL_TYPE || col == COL_SHAPES ? 0 : 1);
  if (col >= COL_OWN && col != COL_SHAPES)
    gtk_widget_add_css_class (label, "numeric");
  if (col == COL_NAME)
    {
      GtkWidget *expander = gtk_tree_expander_new ();

      gtk_tree_expander_set_child (GTK_TREE_EXPANDER (expander), label);
      gtk_list_item_set_child (item, expander);
    }
  else
    gtk_list_item_set_child (item, label);
}

static GtkLabel *
cell_label (GtkListItem *item,
            int          col)
{
  GtkWidget *child = gtk_list_item_get_child (item);

  if (col == COL_NAME)
    return GTK_LABEL (gtk_tree_expander_get_child (GTK_TREE_EXPANDER (child)));
  return GTK_LABEL (child);
}

static void
bind_cell (GtkSignalListItemFactory *factory,
           GtkListItem              *item,
           gpointer                  data)
{
  int col = GPOINTER_TO_INT (data);
  GtkTreeListRow *row = gtk_list_item_get_item (item);
  GvNode *node = gtk_tree_list_row_get_item (row);   /* transfer full */
  GtkLabel *label = cell_label (item, col);

  if (col == COL_NAME)
    {
      gtk_tree_expander_set_list_row (GTK_TREE_EXPANDER (gtk_list_item_get_child (item)), row);
      /* the full dotted name, as named_modules and the state dict keys spell it */
      gtk_widget_set_tooltip_text (GTK_WIDGET (label), node->name[0] ? node->name : "the model itself");
    }
  g_object_set_data_full (G_OBJECT (label), "gv-node", node, g_object_unref);
  label_update (label);
  if (col >= COL_ACT_MEAN)
    g_signal_connect (node, "changed", G_CALLBACK (on_node_changed), label);
}

static void
unbind_cell (GtkSignalListItemFactory *factory,
             GtkListItem              *item,
             gpointer                  data)
{
  int col = GPOINTER_TO_INT (data);
  GtkLabel *label = cell_label (item, col);
  GvNode *node = g_object_get_data (G_OBJECT (label), "gv-node");

  if (node && col >= COL_ACT_MEAN)
    g_signal_handlers_disconnect_by_func (node, on_node_changed, label);
  if (col == COL_NAME)
    gtk_tree_expander_set_list_row (GTK_TREE_EXPANDER (gtk_list_item_get_child (item)), NULL);
  g_object_set_data (G_OBJECT (label), "gv-node", NULL);
}

static GtkWidget *
create_column_view (void)
{
  GtkWidget *view = gtk_column_view_new (NULL);

  gtk_column_view_set_show_column_separators (GTK_COLUMN_VIEW (view), TRUE);
  gtk_column_view_set_show_row_separators (GTK_COLUMN_VIEW (view), TRUE);
  for (int col = 0; col < N_COLUMNS; col++)
    {
      GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();
      GtkColumnViewColumn *column;

      g_signal_connect (factory, "setup", G_CALLBACK (setup_cell), GINT_TO_POINTER (col));
      g_signal_connect (factory, "bind", G_CALLBACK (bind_cell), GINT_TO_POINTER (col));
      g_signal_connect (factory, "unbind", G_CALLBACK (unbind_cell), GINT_TO_POINTER (col));
      column = gtk_column_view_column_new (column_titles[col], factory);
      gtk_column_view_column_set_resizable (column, TRUE);
      if (col == COL_NAME || col == COL_SHAPES)
        gtk_column_view_column_set_expand (column, TRUE);
      gtk_column_view_append_column (GTK_COLUMN_VIEW (view), column);
      g_object_unref (column);
    }
  return view;
}

/* Shows @model (which may be NULL) in the column view, replacing the model shown so far. */
static void
set_model (GnnModule  *model,
           const char *label)
{
  GListStore *roots = g_list_store_new (GV_TYPE_NODE);
  GtkTreeListModel *tree;
  GtkSingleSelection *selection;
  g_autofree char *title = NULL;
  char *new_label = g_strdup (model ? label : "no model");   /* @label may be app.model_label */

  train_stop ();
  g_clear_object (&app.optimizer);
  g_clear_pointer (&app.nodes, g_ptr_array_unref);
  g_set_object (&app.model, model);
  g_free (app.model_label);
  app.model_label = new_label;
  app.steps = 0;
  g_array_set_size (app.losses, 0);
  if (model)
    {
      app.nodes = build_tree (model);
      g_list_store_append (roots, g_ptr_array_index (app.nodes, 0));
    }
  else
    app.nodes = g_ptr_array_new_with_free_func (g_object_unref);
  tree = gtk_tree_list_model_new (G_LIST_MODEL (roots), FALSE, TRUE, create_child_model, NULL, NULL);
  selection = gtk_single_selection_new (G_LIST_MODEL (tree));
  gtk_single_selection_set_autoselect (selection, FALSE);
  gtk_single_selection_set_can_unselect (selection, TRUE);
  gtk_single_selection_set_selected (selection, GTK_INVALID_LIST_POSITION);
  gtk_column_view_set_model (GTK_COLUMN_VIEW (app.column_view), GTK_SELECTION_MODEL (selection));
  g_object_unref (selection);

  title = g_strdup_printf ("gnn-viewer — %s", app.model_label);
  gtk_window_set_title (GTK_WINDOW (app.window), title);
  if (model)
    set_status ("%s · %u modules · %" G_GINT64_FORMAT " parameters", app.model_label,
                app.nodes->len, GV_NODE (g_ptr_array_index (app.nodes, 0))->total_params);
  else
    set_status ("no model: File ▸ Open a module JSON, a checkpoint or a state dict, or press Train");
  if (app.plot)
    gtk_widget_queue_draw (app.plot);
}

/* ---- the loss curve ----------------------------------------------------------------------- */

static void
draw_loss (GtkDrawingArea *area,
           cairo_t        *cr,
           int             width,
           int             height,
           gpointer        data)
{
  const double left = 56, right = 16, top = 22, bottom = 26;
  double pw = width - left - right, ph = height - top - bottom;
  guint n = app.losses->len;
  double ymax = 0, xmax;
  char text[64];

  cairo_set_source_rgb (cr, 1, 1, 1);
  cairo_paint (cr);
  if (pw < 10 || ph < 10)
    return;
  cairo_select_font_face (cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
  cairo_set_font_size (cr, 11);

  cairo_set_source_rgb (cr, 0.2, 0.2, 0.2);
  cairo_move_to (cr, left, 15);
  if (n == 0)
    {
      cairo_show_text (cr, "training loss (cross-entropy): press Train to start");
      cairo_rectangle (cr, left + 0.5, top + 0.5, pw, ph);
      cairo_set_line_width (cr, 1);
      cairo_stroke (cr);
      return;
    }
  g_snprintf (text, sizeof text, "training loss (cross-entropy), step %u: %.4f", n,
              g_array_index (app.losses, double, n - 1));
  cairo_show_text (cr, text);

  for (guint i = 0; i < n; i++)
    ymax = MAX (ymax, g_array_index (app.losses, double, i));
  ymax = ymax > 0 ? ymax * 1.05 : 1;
  xmax = MAX ((double) n, app.opts.train_steps > 0 ? (double) app.opts.train_steps : 2.0);

  /* grid and labels */
  cairo_set_line_width (cr, 1);
  for (int g = 0; g <= 4; g++)
    {
      double y = top + ph - ph * g / 4.0;

      cairo_set_source_rgb (cr, 0.88, 0.88, 0.88);
      cairo_move_to (cr, left, floor (y) + 0.5);
      cairo_line_to (cr, left + pw, floor (y) + 0.5);
      cairo_stroke (cr);
      cairo_set_source_rgb (cr, 0.3, 0.3, 0.3);
      g_snprintf (text, sizeof text, "%.2f", ymax * g / 4.0);
      cairo_move_to (cr, 6, y + 4);
      cairo_show_text (cr, text);
    }
  cairo_set_source_rgb (cr, 0.3, 0.3, 0.3);
  cairo_rectangle (cr, left + 0.5, top + 0.5, pw, ph);
  cairo_stroke (cr);
  cairo_move_to (cr, left, height - 8);
  cairo_show_text (cr, "1");
  g_snprintf (text, sizeof text, "step %.0f", xmax);
  cairo_move_to (cr, left + pw - 50, height - 8);
  cairo_show_text (cr, text);

  /* the curve */
  cairo_set_source_rgb (cr, 0.11, 0.44, 0.85);
  cairo_set_line_width (cr, 2);
  cairo_set_line_join (cr, CAIRO_LINE_JOIN_ROUND);
  for (guint i = 0; i < n; i++)
    {
      double x = left + (xmax > 1 ? pw * i / (xmax - 1) : pw / 2);
      double y = top + ph - ph * g_array_index (app.losses, double, i) / ymax;

      if (i == 0)
        cairo_move_to (cr, x, y);
      else
        cairo_line_to (cr, x, y);
    }
  cairo_stroke (cr);
  for (guint i = 0; i < n; i++)
    {
      double x = left + (xmax > 1 ? pw * i / (xmax - 1) : pw / 2);
      double y = top + ph - ph * g_array_index (app.losses, double, i) / ymax;

      cairo_arc (cr, x, y, 2.5, 0, 2 * G_PI);
      cairo_fill (cr);
    }
}

/* ---- scripted output ---------------------------------------------------------------------- */

/* The rows of the column view's model (the GtkTreeListModel under the selection), as the window
 * shows them: "name<TAB>type<TAB>nparams", with the statistics columns once training ran. */
static gboolean
dump_tree (const char  *path,
           GError     **error)
{
  GListModel *rows = G_LIST_MODEL (gtk_column_view_get_model (GTK_COLUMN_VIEW (app.column_view)));
  guint n = rows ? g_list_model_get_n_items (rows) : 0;
  g_autoptr(GString) out = g_string_new (NULL);

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(GtkTreeListRow) row = g_list_model_get_item (rows, i);
      g_autoptr(GvNode) node = gtk_tree_list_row_get_item (row);
      g_autofree char *type = gv_node_column_text (node, COL_TYPE);
      g_autofree char *total = gv_node_column_text (node, COL_TOTAL);

      g_string_append_printf (out, "%s\t%s\t%s", node->name, type, total);
      if (app.steps > 0)
        for (int col = COL_ACT_MEAN; col < N_COLUMNS; col++)
          {
            g_autofree char *text = gv_node_column_text (node, col);

            g_string_append_printf (out, "\t%s", text);
          }
      g_string_append_c (out, '\n');
    }
  return g_file_set_contents (path, out->str, out->len, error);
}

static gboolean
dump_loss (const char  *path,
           GError     **error)
{
  g_autoptr(GString) out = g_string_new (NULL);
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  for (guint i = 0; i < app.losses->len; i++)
    g_string_append_printf (out, "%u\t%s\n", i + 1,
                            g_ascii_dtostr (buf, sizeof buf, g_array_index (app.losses, double, i)));
  return g_file_set_contents (path, out->str, out->len, error);
}

/* Renders the window as it is now into a PNG of the window's size. */
static gboolean
save_screenshot (const char  *path,
                 GError     **error)
{
  int width = gtk_widget_get_width (app.window), height = gtk_widget_get_height (app.window);
  g_autoptr(GdkPaintable) paintable = gtk_widget_paintable_new (app.window);
  GtkSnapshot *snapshot = gtk_snapshot_new ();
  g_autoptr(GskRenderNode) node = NULL;
  g_autoptr(GdkTexture) texture = NULL;
  GskRenderer *renderer = gtk_native_get_renderer (GTK_NATIVE (app.window));

  gdk_paintable_snapshot (paintable, GDK_SNAPSHOT (snapshot), width, height);
  node = gtk_snapshot_free_to_node (snapshot);
  if (node == NULL || renderer == NULL)
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_FAILED,
                   "cannot render the window: expected a render node and a renderer, found %s",
                   node == NULL ? "nothing drawn" : "no renderer");
      return FALSE;
    }
  texture = gsk_renderer_render_texture (renderer, node, &GRAPHENE_RECT_INIT (0, 0, width, height));
  if (texture == NULL || !gdk_texture_save_to_png (texture, path))
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_FAILED, "cannot write the PNG %s", path);
      return FALSE;
    }
  g_print ("screenshot %s: %dx%d\n", path, width, height);
  return TRUE;
}

static gboolean
finish (gpointer data)
{
  g_autoptr(GError) error = NULL;

  if ((app.opts.dump_tree && !dump_tree (app.opts.dump_tree, &error)) ||
      (app.opts.dump_loss && !dump_loss (app.opts.dump_loss, &error)) ||
      (app.opts.screenshot && !save_screenshot (app.opts.screenshot, &error)))
    {
      g_printerr ("gnn-viewer: %s\n", error->message);
      app.exit_status = 1;
    }
  if (app.train_failed)
    app.exit_status = 1;
  if (app.steps > 0)
    g_print ("trained %" G_GINT64_FORMAT " steps: %u frames drawn meanwhile, the longest step %.0f ms\n",
             app.steps, app.train_frames, app.longest_step / 1e3);
  g_application_quit (G_APPLICATION (app.gapp));
  return G_SOURCE_REMOVE;
}

/* Once the window is mapped, --frames frames drawn (after training stopped, when training),
 * and the --train-steps steps done: the dumps, the screenshot, and quit. */
static void
maybe_finish (void)
{
  gboolean training_pending;

  if (!scripted () || app.finishing || app.window == NULL || !gtk_widget_get_mapped (app.window))
    return;
  training_pending = app.opts.train && !app.train_failed &&
                     (app.training || app.in_flight ||
                      (app.opts.train_steps > 0 && app.steps < app.opts.train_steps));
  if (training_pending || app.frames < app.frames_at_stop + (guint) app.opts.frames)
    return;
  app.finishing = TRUE;
  g_idle_add (finish, NULL);
}

static gboolean
on_tick (GtkWidget     *widget,
         GdkFrameClock *clock,
         gpointer       data)
{
  app.frames++;
  if (app.training)
    app.train_frames++;
  maybe_finish ();
  return G_SOURCE_CONTINUE;
}

static gboolean
on_quit_timeout (gpointer data)
{
  if (scripted () && !app.finishing)
    {
      g_printerr ("gnn-viewer: --quit-after-ms %d ran out before the window was ready "
                  "(%u frames drawn, %" G_GINT64_FORMAT " steps done)\n",
                  app.opts.quit_after_ms, app.frames, app.steps);
      app.exit_status = 1;
    }
  g_application_quit (G_APPLICATION (app.gapp));
  return G_SOURCE_REMOVE;
}

/* ---- File ▸ Open -------------------------------------------------------------------------- */

static GnnModule *
open_file (const char  *path,
           GError     **error)
{
  if (g_str_has_suffix (path, ".json"))
    return load_model (path, NULL, NULL, error);
  if (g_str_has_suffix (path, ".safetensors"))
    {
      g_autofree char *json = gnn_checkpoint_peek_model_json (path, NULL);
      g_autoptr(GnnModule) copy = NULL;
      g_autoptr(GnnStateDict) state = NULL;

      if (json != NULL)
        return load_model (NULL, NULL, path, error);
      /* a plain state dict: weights for the model shown, into a copy of it */
      if (app.model == NULL)
        {
          g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
                       "%s: a state dict holds no module tree: open the model's JSON first", path);
          return NULL;
        }
      if ((copy = gnn_module_copy (app.model, error)) == NULL ||
          (state = gnn_safetensors_load (path, NULL, error)) == NULL ||
          !load_weights (copy, state, error))
        {
          g_prefix_error (error, "%s: ", path);
          return NULL;
        }
      return g_steal_pointer (&copy);
    }
  g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
               "%s: expected a module JSON (.json), a checkpoint or a state dict (.safetensors)", path);
  return NULL;
}

G_GNUC_BEGIN_IGNORE_DEPRECATIONS

static void
on_open_response (GtkNativeDialog *dialog,
                  int              response,
                  gpointer         data)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
      g_autofree char *path = file ? g_file_get_path (file) : NULL;
      g_autoptr(GError) error = NULL;
      g_autoptr(GnnModule) model = path ? open_file (path, &error) : NULL;

      if (model)
        {
          g_autofree char *base = g_path_get_basename (path);

          set_model (model, base);
        }
      else if (error)
        set_status ("cannot open: %s", error->message);
    }
  g_object_unref (dialog);
}

static void
open_activated (GSimpleAction *action,
                GVariant      *parameter,
                gpointer       data)
{
  GtkFileChooserNative *dialog =
    gtk_file_chooser_native_new ("Open a model", GTK_WINDOW (app.window), GTK_FILE_CHOOSER_ACTION_OPEN,
                                 "_Open", "_Cancel");
  GtkFileFilter *filter = gtk_file_filter_new ();
  GtkFileFilter *all = gtk_file_filter_new ();

  gtk_file_filter_set_name (filter, "Models (module JSON, checkpoint, state dict)");
  gtk_file_filter_add_pattern (filter, "*.json");
  gtk_file_filter_add_pattern (filter, "*.safetensors");
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (dialog), filter);
  gtk_file_filter_set_name (all, "All files");
  gtk_file_filter_add_pattern (all, "*");
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (dialog), all);
  g_object_unref (filter);
  g_object_unref (all);
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (dialog), TRUE);
  g_signal_connect (dialog, "response", G_CALLBACK (on_open_response), NULL);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (dialog));
}

G_GNUC_END_IGNORE_DEPRECATIONS

static void
quit_activated (GSimpleAction *action,
                GVariant      *parameter,
                gpointer       data)
{
  g_application_quit (G_APPLICATION (app.gapp));
}

static void
train_activated (GSimpleAction *action,
                 GVariant      *parameter,
                 gpointer       data)
{
  GtkToggleButton *button = GTK_TOGGLE_BUTTON (app.train_button);

  gtk_toggle_button_set_active (button, !gtk_toggle_button_get_active (button));
}

/* ---- the window --------------------------------------------------------------------------- */

static void
on_activate (GtkApplication *gapp,
             gpointer        data)
{
  static const GActionEntry actions[] = {
    { .name = "open", .activate = open_activated },
    { .name = "quit", .activate = quit_activated },
    { .name = "train", .activate = train_activated },
  };
  const char *const open_accels[] = { "<Control>o", NULL };
  const char *const quit_accels[] = { "<Control>q", NULL };
  const char *const train_accels[] = { "<Control>t", NULL };
  g_autoptr(GMenu) menubar = g_menu_new ();
  g_autoptr(GMenu) file_menu = g_menu_new ();
  g_autoptr(GMenu) train_menu = g_menu_new ();
  GtkWidget *header, *open_button, *paned, *scrolled, *bottom;

  if (app.window)
    {
      gtk_window_present (GTK_WINDOW (app.window));
      return;
    }
  g_action_map_add_action_entries (G_ACTION_MAP (gapp), actions, G_N_ELEMENTS (actions), NULL);
  gtk_application_set_accels_for_action (gapp, "app.open", open_accels);
  gtk_application_set_accels_for_action (gapp, "app.quit", quit_accels);
  gtk_application_set_accels_for_action (gapp, "app.train", train_accels);
  g_menu_append (file_menu, "_Open…", "app.open");
  g_menu_append (file_menu, "_Quit", "app.quit");
  g_menu_append (train_menu, "Start or _pause training", "app.train");
  g_menu_append_submenu (menubar, "_File", G_MENU_MODEL (file_menu));
  g_menu_append_submenu (menubar, "_Train", G_MENU_MODEL (train_menu));
  gtk_application_set_menubar (gapp, G_MENU_MODEL (menubar));

  app.window = gtk_application_window_new (gapp);
  gtk_application_window_set_show_menubar (GTK_APPLICATION_WINDOW (app.window), TRUE);
  gtk_window_set_default_size (GTK_WINDOW (app.window), 1240, 760);

  header = gtk_header_bar_new ();
  open_button = gtk_button_new_with_mnemonic ("_Open…");
  gtk_actionable_set_action_name (GTK_ACTIONABLE (open_button), "app.open");
  gtk_header_bar_pack_start (GTK_HEADER_BAR (header), open_button);
  app.train_button = gtk_toggle_button_new_with_mnemonic ("_Train");
  gtk_widget_set_tooltip_text (app.train_button, "Train on Fashion-MNIST, collecting statistics");
  g_signal_connect (app.train_button, "toggled", G_CALLBACK (on_train_toggled), NULL);
  gtk_header_bar_pack_start (GTK_HEADER_BAR (header), app.train_button);
  gtk_window_set_titlebar (GTK_WINDOW (app.window), header);

  app.column_view = create_column_view ();
  scrolled = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scrolled), app.column_view);
  gtk_widget_set_vexpand (scrolled, TRUE);

  app.status = gtk_label_new (NULL);
  gtk_label_set_xalign (GTK_LABEL (app.status), 0);
  gtk_label_set_ellipsize (GTK_LABEL (app.status), PANGO_ELLIPSIZE_END);
  gtk_widget_set_margin_start (app.status, 8);
  gtk_widget_set_margin_end (app.status, 8);
  gtk_widget_set_margin_top (app.status, 4);
  gtk_widget_set_margin_bottom (app.status, 4);

  app.plot = gtk_drawing_area_new ();
  gtk_drawing_area_set_content_height (GTK_DRAWING_AREA (app.plot), 200);
  gtk_drawing_area_set_draw_func (GTK_DRAWING_AREA (app.plot), draw_loss, NULL, NULL);
  gtk_widget_set_vexpand (app.plot, TRUE);

  bottom = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  gtk_box_append (GTK_BOX (bottom), app.status);
  gtk_box_append (GTK_BOX (bottom), app.plot);

  paned = gtk_paned_new (GTK_ORIENTATION_VERTICAL);
  gtk_paned_set_start_child (GTK_PANED (paned), scrolled);
  gtk_paned_set_end_child (GTK_PANED (paned), bottom);
  gtk_paned_set_shrink_start_child (GTK_PANED (paned), FALSE);
  gtk_paned_set_shrink_end_child (GTK_PANED (paned), FALSE);
  gtk_paned_set_position (GTK_PANED (paned), 440);
  gtk_window_set_child (GTK_WINDOW (app.window), paned);

  set_model (app.model, app.model_label);
  gtk_widget_add_tick_callback (app.window, on_tick, NULL, NULL);
  if (app.opts.quit_after_ms > 0)
    g_timeout_add (app.opts.quit_after_ms, on_quit_timeout, NULL);
  gtk_window_present (GTK_WINDOW (app.window));
  if (app.opts.train)
    gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (app.train_button), TRUE);
}

static void
options_clear (Options *opts)
{
  g_free (opts->model_file);
  g_free (opts->weights_file);
  g_free (opts->checkpoint_file);
  g_free (opts->data_dir);
  g_free (opts->dump_tree);
  g_free (opts->dump_loss);
  g_free (opts->screenshot);
}

int
main (int    argc,
      char **argv)
{
  Options *opts = &app.opts;
  const GOptionEntry entries[] = {
    { "model", 'm', 0, G_OPTION_ARG_FILENAME, &opts->model_file,
      "A model as a JSON module tree", "FILE.json" },
    { "weights", 'w', 0, G_OPTION_ARG_FILENAME, &opts->weights_file,
      "Its weights: a safetensors state dict", "FILE.safetensors" },
    { "checkpoint", 'c', 0, G_OPTION_ARG_FILENAME, &opts->checkpoint_file,
      "A GnnCheckpoint (holds the module tree: enough alone)", "FILE.safetensors" },
    { "train", 't', 0, G_OPTION_ARG_NONE, &opts->train,
      "Train on Fashion-MNIST at once (the model opened, or the default CNN)", NULL },
    { "train-steps", 0, 0, G_OPTION_ARG_INT, &opts->train_steps, "Stop training after K steps", "K" },
    { "limit", 0, 0, G_OPTION_ARG_INT, &opts->limit, "Train on the first N images only (default: all)", "N" },
    { "batch-size", 'b', 0, G_OPTION_ARG_INT, &opts->batch_size, "Samples per step (default 64)", "N" },
    { "lr", 0, 0, G_OPTION_ARG_DOUBLE, &opts->lr, "AdamW's learning rate (default 0.002)", "LR" },
    { "seed", 's', 0, G_OPTION_ARG_INT64, &opts->seed, "Seed of the default model and the batch order", "S" },
    { "threads", 0, 0, G_OPTION_ARG_INT, &opts->threads, "Compute threads", "N" },
    { "data-dir", 0, 0, G_OPTION_ARG_FILENAME, &opts->data_dir,
      "Where Fashion-MNIST's IDX files are (default " DEFAULT_DATA_DIR ")", "DIR" },
    { "dump-tree", 0, 0, G_OPTION_ARG_FILENAME, &opts->dump_tree,
      "Write the rows shown as name<TAB>type<TAB>nparams (and the statistics after training), then quit",
      "FILE" },
    { "dump-loss", 0, 0, G_OPTION_ARG_FILENAME, &opts->dump_loss,
      "Write the loss curve as step<TAB>loss lines, then quit", "FILE" },
    { "screenshot", 0, 0, G_OPTION_ARG_FILENAME, &opts->screenshot,
      "Render the window into a PNG, then quit", "FILE.png" },
    { "frames", 0, 0, G_OPTION_ARG_INT, &opts->frames,
      "Frames to draw before the dumps and the screenshot (default 3)", "N" },
    { "quit-after-ms", 0, 0, G_OPTION_ARG_INT, &opts->quit_after_ms, "Quit after this long", "MS" },
    G_OPTION_ENTRY_NULL
  };
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnModule) model = NULL;
  char *gapp_argv[2] = { argv[0], NULL };
  int status;

  opts->batch_size = 64;
  opts->lr = 0.002;
  opts->frames = 3;
  g_set_prgname ("gnn-viewer");
  context = g_option_context_new ("[FILE...] - look at a model and its training");
  g_option_context_set_summary (context,
    "Shows a model's module tree (from a module JSON with a safetensors state dict, or a\n"
    "checkpoint), and with --train (or the Train button) trains it on Fashion-MNIST, showing\n"
    "per-module activation and gradient statistics and the loss curve live. Each FILE is\n"
    "opened in turn as File > Open does: a .json module tree, a .safetensors checkpoint, or a\n"
    "safetensors state dict loaded into the model opened before it.");
  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      g_printerr ("gnn-viewer: %s (see --help)\n", error->message);
      options_clear (opts);
      return EXIT_USAGE;
    }
  if (opts->weights_file && opts->checkpoint_file)
    {
      g_printerr ("gnn-viewer: --weights and --checkpoint exclude each other\n");
      options_clear (opts);
      return EXIT_USAGE;
    }
  if (opts->train_steps < 0 || opts->limit < 0 || opts->batch_size < 1 || opts->frames < 1 ||
      opts->quit_after_ms < 0 || opts->threads < 0 || !(opts->lr > 0))
    {
      g_printerr ("gnn-viewer: expected --train-steps, --limit, --quit-after-ms, --threads >= 0, "
                  "--batch-size, --frames >= 1 and --lr > 0\n");
      options_clear (opts);
      return EXIT_USAGE;
    }
  if (opts->data_dir == NULL)
    opts->data_dir = g_strdup (DEFAULT_DATA_DIR);
  if (opts->threads > 0)
    gnn_set_num_threads (opts->threads);

  gnn_manual_seed ((guint64) opts->seed);
  model = load_model (opts->model_file, opts->weights_file, opts->checkpoint_file, &error);
  if (model == NULL && error != NULL)
    {
      g_printerr ("gnn-viewer: %s\n", error->message);
      options_clear (opts);
      return EXIT_USAGE;
    }
  app.losses = g_array_new (FALSE, FALSE, sizeof (double));
  app.model = g_steal_pointer (&model);
  {
    const char *file = opts->checkpoint_file ? opts->checkpoint_file : opts->model_file;

    app.model_label = file ? g_path_get_basename (file) : g_strdup ("no model");
  }
  /* FILE arguments, in turn, as File ▸ Open opens them */
  for (int i = 1; i < argc; i++)
    {
      g_autoptr(GnnModule) opened = open_file (argv[i], &error);

      if (opened == NULL)
        {
          g_printerr ("gnn-viewer: %s\n", error->message);
          g_clear_object (&app.model);
          g_free (app.model_label);
          g_array_unref (app.losses);
          options_clear (opts);
          return EXIT_USAGE;
        }
      g_set_object (&app.model, opened);
      g_free (app.model_label);
      app.model_label = g_path_get_basename (argv[i]);
    }

  app.gapp = gtk_application_new (NULL, G_APPLICATION_NON_UNIQUE);
  g_signal_connect (app.gapp, "activate", G_CALLBACK (on_activate), NULL);
  status = g_application_run (G_APPLICATION (app.gapp), 1, gapp_argv);
  if (status == 0)
    status = app.exit_status;

  /* a step still running holds its own references; let it end before the process does */
  app.training = FALSE;
  while (app.in_flight)
    g_main_context_iteration (NULL, TRUE);
  g_clear_object (&app.gapp);
  g_clear_pointer (&app.nodes, g_ptr_array_unref);
  g_clear_object (&app.optimizer);
  g_clear_object (&app.loader);
  g_clear_object (&app.train_set);
  g_clear_object (&app.model);
  g_clear_pointer (&app.losses, g_array_unref);
  g_free (app.model_label);
  options_clear (opts);
  return status;
}
