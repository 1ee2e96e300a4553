/* custom-module.c: a module subclass trained with SGD, averaged with an EMA, hooked, saved
 * and loaded again. The same program is in examples/python, examples/js and examples/vala:
 * all four print the same line, digit for digit.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The PyTorch program this follows:
 *
 *   class TinyNet (nn.Module):
 *       def __init__ (self, hidden=16):
 *           super ().__init__ ()
 *           self.fc1 = nn.Linear (4, hidden); self.act = nn.ReLU (); self.fc2 = nn.Linear (hidden, 3)
 *       def forward (self, x):
 *           return self.fc2 (self.act (self.fc1 (x)))
 *
 *   g = torch.Generator ().manual_seed (42)
 *   x = torch.randn (64, 4, generator=g); w = torch.randn (3, 4, generator=g)
 *   y = torch.tanh (x @ w.T) + 0.1 * torch.randn (64, 3, generator=g)
 *   torch.manual_seed (0); model = TinyNet ()
 *   ema = AveragedModel (model, multi_avg_fn=get_ema_multi_avg_fn (0.9))
 *   model.register_forward_hook (count_and_record_mean)
 *   opt = SGD (model.parameters (), lr=0.05, momentum=0.9)
 *   for step in range (200):
 *       opt.zero_grad (); loss = F.mse_loss (model (x), y); loss.backward (); opt.step ()
 *       ema.update_parameters (model)
 *   save_file (model.state_dict (), "tinynet.safetensors"), the module tree as JSON, and
 *   a fresh TinyNet rebuilt from both must give the same outputs;
 *   a checkpoint of model, optimizer and EMA, loaded into fresh ones, must continue
 *   training exactly as the originals do.
 *
 * It prints one line:
 *
 *   loss0 L0 loss L ema_loss E hook_calls N hook_mean M reloaded_max_diff D resumed_max_diff R
 *
 * with every float as printf's %.9g, and exits with status 1 when training did not lower the
 * loss or a reloaded model differs.
 *
 * Build tree: ./build/examples/custom-module-c
 */
#include <gnn/gnn.h>
#include <glib/gstdio.h>
#include <math.h>
#include <stdlib.h>

#define N_SAMPLES 64
#define N_IN 4
#define N_OUT 3
#define N_STEPS 200

/* ---- TinyNet: fc1 -> relu -> fc2, with a construct-only "hidden" width ------------- */

#define TINY_TYPE_NET (tiny_net_get_type ())
G_DECLARE_FINAL_TYPE (TinyNet, tiny_net, TINY, NET, GnnModule)

struct _TinyNet
{
  GnnModule  parent_instance;

  int        hidden;
  GnnModule *fc1;   /* borrowed: the module owns its children */
  GnnModule *act;
  GnnModule *fc2;
};

G_DEFINE_FINAL_TYPE (TinyNet, tiny_net, GNN_TYPE_MODULE)

enum { PROP_0, PROP_HIDDEN, N_PROPS };
static GParamSpec *properties[N_PROPS];

/* builds the children from the construct properties; runs once, at construction */
static gboolean
tiny_net_setup (GnnModule  *module,
                GError    **error)
{
  TinyNet *self = TINY_NET (module);
  g_autoptr(GnnLinear) fc1 = gnn_linear_new (N_IN, self->hidden, TRUE, error);
  g_autoptr(GnnReLU) act = gnn_relu_new ();
  g_autoptr(GnnLinear) fc2 = fc1 ? gnn_linear_new (self->hidden, N_OUT, TRUE, error) : NULL;

  if (fc2 == NULL ||
      !gnn_module_register_module (module, "fc1", GNN_MODULE (fc1), error) ||
      !gnn_module_register_module (module, "act", GNN_MODULE (act), error) ||
      !gnn_module_register_module (module, "fc2", GNN_MODULE (fc2), error))
    return FALSE;
  self->fc1 = GNN_MODULE (fc1);
  self->act = GNN_MODULE (act);
  self->fc2 = GNN_MODULE (fc2);
  return TRUE;
}

static GnnArgs *
tiny_net_forward (GnnModule  *module,
                  GnnArgs    *input,
                  GError    **error)
{
  TinyNet *self = TINY_NET (module);
  GnnTensor *x = gnn_args_get_tensor (input, 0, error);
  g_autoptr(GnnTensor) h = x ? gnn_module_forward_tensor (self->fc1, x, error) : NULL;
  g_autoptr(GnnTensor) a = h ? gnn_module_forward_tensor (self->act, h, error) : NULL;
  g_autoptr(GnnTensor) y = a ? gnn_module_forward_tensor (self->fc2, a, error) : NULL;

  return y ? gnn_args_new_tensor (y) : NULL;
}

static void
tiny_net_get_property (GObject    *object,
                       guint       prop_id,
                       GValue     *value,
                       GParamSpec *pspec)
{
  TinyNet *self = TINY_NET (object);

  switch (prop_id)
    {
    case PROP_HIDDEN:
      g_value_set_int (value, self->hidden);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tiny_net_set_property (GObject      *object,
                       guint         prop_id,
                       const GValue *value,
                       GParamSpec   *pspec)
{
  TinyNet *self = TINY_NET (object);

  switch (prop_id)
    {
    case PROP_HIDDEN:
      self->hidden = g_value_get_int (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tiny_net_class_init (TinyNetClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GnnModuleClass *module_class = GNN_MODULE_CLASS (klass);

  object_class->get_property = tiny_net_get_property;
  object_class->set_property = tiny_net_set_property;
  module_class->setup = tiny_net_setup;
  module_class->forward = tiny_net_forward;

  properties[PROP_HIDDEN] =
    g_param_spec_int ("hidden", NULL, NULL, 1, G_MAXINT, 16,
                      G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
tiny_net_init (TinyNet *self)
{
  self->hidden = 16;
}

/* ---- the forward hook: a forward-post handler ------------------------------------- */

typedef struct
{
  int    calls;
  double last_mean;
} HookStats;

static void
on_forward_post (GnnModule *module,
                 GnnArgs   *input,
                 GnnArgs   *output,
                 HookStats *stats)
{
  g_autoptr(GnnNoGradGuard) guard = gnn_no_grad_guard_new ();
  GnnTensor *out = gnn_args_get_tensor (output, 0, NULL);
  g_autoptr(GnnTensor) mean = out ? gnn_tensor_mean_all (out, NULL) : NULL;

  stats->calls++;
  if (mean != NULL)
    stats->last_mean = gnn_tensor_item (mean, NULL);
}

/* ---- the program ------------------------------------------------------------------ */

static double
mse (GnnModule  *model,
     GnnTensor  *x,
     GnnTensor  *y,
     GError    **error)
{
  g_autoptr(GnnTensor) out = gnn_module_forward_tensor (model, x, error);
  g_autoptr(GnnTensor) loss = out ? gnn_tensor_mse_loss (out, y, GNN_REDUCTION_MEAN, error) : NULL;

  return loss ? gnn_tensor_item (loss, error) : NAN;
}

/* one step: zero_grad, forward, MSE loss, backward, SGD step, EMA update; returns the loss */
static double
train_step (GnnModule         *model,
            GnnOptimizer      *opt,
            GnnAveragedModel  *ema,
            GnnTensor         *x,
            GnnTensor         *y,
            GError           **error)
{
  g_autoptr(GnnTensor) out = NULL;
  g_autoptr(GnnTensor) loss = NULL;

  gnn_optimizer_zero_grad (opt, TRUE);
  out = gnn_module_forward_tensor (model, x, error);
  loss = out ? gnn_tensor_mse_loss (out, y, GNN_REDUCTION_MEAN, error) : NULL;
  if (loss == NULL || !gnn_tensor_backward (loss, NULL, FALSE, error) ||
      !gnn_optimizer_step (opt, error) ||
      !gnn_averaged_model_update_parameters (ema, model, error))
    return NAN;
  return gnn_tensor_item (loss, error);
}

/* the largest absolute difference between the outputs of @a and @b on @x */
static double
max_diff (GnnModule  *a,
          GnnModule  *b,
          GnnTensor  *x,
          GError    **error)
{
  g_autoptr(GnnNoGradGuard) guard = gnn_no_grad_guard_new ();
  g_autoptr(GnnTensor) out_a = gnn_module_forward_tensor (a, x, error);
  g_autoptr(GnnTensor) out_b = out_a ? gnn_module_forward_tensor (b, x, error) : NULL;
  g_autoptr(GnnTensor) diff = out_b ? gnn_tensor_sub (out_a, out_b, 1.0, error) : NULL;
  g_autoptr(GnnTensor) abs_diff = diff ? gnn_tensor_abs (diff, error) : NULL;
  g_autoptr(GnnTensor) max = abs_diff ? gnn_tensor_max_all (abs_diff, error) : NULL;

  return max ? gnn_tensor_item (max, error) : NAN;
}

static const char * const file_names[] = { "tinynet.safetensors", "tinynet.json", "tinynet.ckpt" };

/* 1. the weights as safetensors and the module tree as JSON; a fresh TinyNet rebuilt from the
 *    JSON (by its type name) and given the weights must compute what @model does.
 * 2. a checkpoint of the model, the optimizer and the EMA, loaded into fresh objects; one more
 *    training step of each pair must give the same EMA. */
static gboolean
save_and_load (const char        *dir,
               GnnModule         *model,
               GnnOptimizer      *opt,
               GnnAveragedModel  *ema,
               GnnTensor         *x,
               GnnTensor         *y,
               double            *reloaded_diff,
               double            *resumed_diff,
               GError           **error)
{
  g_autofree char *weights_path = g_build_filename (dir, file_names[0], NULL);
  g_autofree char *json_path = g_build_filename (dir, file_names[1], NULL);
  g_autofree char *ckpt_path = g_build_filename (dir, file_names[2], NULL);
  g_autofree char *json = NULL, *json_read = NULL;
  g_autoptr(GnnStateDict) state = NULL, state_read = NULL;
  g_autoptr(GnnModule) reloaded = NULL, model2 = NULL;
  g_autoptr(GnnCheckpoint) ckpt = gnn_checkpoint_new ();
  g_autoptr(GnnCheckpoint) resume = gnn_checkpoint_new ();
  g_autoptr(GnnAverageFunction) ema_fn = NULL;
  g_autoptr(GnnAveragedModel) ema2 = NULL;
  g_autoptr(GnnParamGroup) params2 = NULL;
  g_autoptr(GnnOptimizer) opt2 = NULL;

  state = gnn_module_state_dict (model, NULL, FALSE, error);
  json = state ? gnn_module_to_json (model, TRUE, error) : NULL;
  if (json == NULL ||
      !gnn_safetensors_save (state, NULL, weights_path, error) ||
      !g_file_set_contents (json_path, json, -1, error) ||
      !g_file_get_contents (json_path, &json_read, NULL, error))
    return FALSE;
  reloaded = gnn_module_new_from_json (json_read, -1, error);
  state_read = reloaded ? gnn_safetensors_load (weights_path, NULL, error) : NULL;
  if (state_read == NULL ||
      !gnn_module_load_state_dict (reloaded, state_read, TRUE, FALSE, NULL, NULL, error))
    return FALSE;
  if (!TINY_IS_NET (reloaded))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_FAILED, "the reloaded model is a %s, expected a TinyNet",
                   G_OBJECT_TYPE_NAME (reloaded));
      return FALSE;
    }
  *reloaded_diff = max_diff (model, reloaded, x, error);
  if (isnan (*reloaded_diff))
    return FALSE;

  gnn_checkpoint_set_model (ckpt, model);
  gnn_checkpoint_set_optimizer (ckpt, opt);
  gnn_checkpoint_add_averaged_model (ckpt, "ema", ema);
  if (!gnn_checkpoint_save (ckpt, ckpt_path, error))
    return FALSE;

  model2 = g_object_new (TINY_TYPE_NET, "hidden", 16, NULL);
  ema_fn = gnn_average_function_new_ema_multi (0.9, error);
  ema2 = ema_fn ? gnn_averaged_model_new (model2, NULL, NULL, ema_fn, FALSE, error) : NULL;
  params2 = gnn_param_group_new_from_module (model2);
  opt2 = ema2 ? GNN_OPTIMIZER (gnn_sgd_new (params2, 0.05, 0.9, 0.0, 0.0, FALSE, FALSE, error)) : NULL;
  if (opt2 == NULL)
    return FALSE;
  gnn_checkpoint_set_model (resume, model2);
  gnn_checkpoint_set_optimizer (resume, opt2);
  gnn_checkpoint_add_averaged_model (resume, "ema", ema2);
  if (!gnn_checkpoint_load (resume, ckpt_path, error) ||
      isnan (train_step (model, opt, ema, x, y, error)) ||
      isnan (train_step (model2, opt2, ema2, x, y, error)))
    return FALSE;
  *resumed_diff = max_diff (GNN_MODULE (ema), GNN_MODULE (ema2), x, error);
  return !isnan (*resumed_diff);
}

static gboolean
run (GError **error)
{
  g_autoptr(GnnGenerator) gen = gnn_generator_new (42);
  g_autoptr(GnnTensor) x = NULL, w = NULL, noise = NULL, wt = NULL, xw = NULL, t = NULL, y = NULL;
  g_autoptr(GnnModule) model = NULL;
  g_autoptr(GnnAverageFunction) ema_fn = NULL;
  g_autoptr(GnnAveragedModel) ema = NULL;
  g_autoptr(GnnParamGroup) params = NULL;
  g_autoptr(GnnOptimizer) opt = NULL;
  HookStats stats = { 0, 0.0 };
  g_autofree char *dir = NULL;
  double loss0 = NAN, loss_final, ema_loss, reloaded_diff = NAN, resumed_diff = NAN;
  gboolean ok;

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

  /* the model, its EMA (a copy made now), the hook, the optimizer */
  gnn_manual_seed (0);
  model = g_object_new (TINY_TYPE_NET, "hidden", 16, NULL);
  ema_fn = gnn_average_function_new_ema_multi (0.9, error);
  ema = ema_fn ? gnn_averaged_model_new (model, NULL, NULL, ema_fn, FALSE, error) : NULL;
  if (ema == NULL)
    return FALSE;
  g_signal_connect (model, "forward-post", G_CALLBACK (on_forward_post), &stats);
  params = gnn_param_group_new_from_module (model);
  opt = GNN_OPTIMIZER (gnn_sgd_new (params, 0.05, 0.9, 0.0, 0.0, FALSE, FALSE, error));
  if (opt == NULL)
    return FALSE;

  for (int step = 0; step < N_STEPS; step++)
    {
      double loss = train_step (model, opt, ema, x, y, error);

      if (isnan (loss))
        return FALSE;
      if (step == 0)
        loss0 = loss;
    }

  {
    g_autoptr(GnnNoGradGuard) guard = gnn_no_grad_guard_new ();

    loss_final = mse (model, x, y, error);
    ema_loss = isnan (loss_final) ? NAN : mse (GNN_MODULE (ema), x, y, error);
    if (isnan (ema_loss))
      return FALSE;
  }

  /* save to a new folder and load back; the folder goes whatever happened */
  dir = g_dir_make_tmp ("gnn-custom-module-XXXXXX", error);
  if (dir == NULL)
    return FALSE;
  ok = save_and_load (dir, model, opt, ema, x, y, &reloaded_diff, &resumed_diff, error);
  for (guint i = 0; i < G_N_ELEMENTS (file_names); i++)
    {
      g_autofree char *path = g_build_filename (dir, file_names[i], NULL);
      g_unlink (path);
    }
  g_rmdir (dir);
  if (!ok)
    return FALSE;

  g_print ("loss0 %.9g loss %.9g ema_loss %.9g hook_calls %d hook_mean %.9g "
           "reloaded_max_diff %.9g resumed_max_diff %.9g\n",
           loss0, loss_final, ema_loss, stats.calls, stats.last_mean, reloaded_diff, resumed_diff);

  if (!(loss_final < loss0) || reloaded_diff != 0.0 || resumed_diff != 0.0)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_FAILED,
                   "expected a lower loss and identical reloaded and resumed models, found loss "
                   "%g -> %g, max differences %g and %g", loss0, loss_final, reloaded_diff, resumed_diff);
      return FALSE;
    }
  return TRUE;
}

int
main (int    argc,
      char **argv)
{
  g_autoptr(GError) error = NULL;

  if (!run (&error))
    {
      /* a NaN loss with no error set fails too */
      g_printerr ("custom-module: %s\n", error ? error->message : "a computation gave NaN");
      return EXIT_FAILURE;
    }
  return EXIT_SUCCESS;
}
