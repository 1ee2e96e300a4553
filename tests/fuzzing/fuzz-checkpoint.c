/* fuzz-checkpoint.c: libFuzzer target for gnn_checkpoint_load
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The input is a checkpoint file's bytes, loaded into a fixed model (Linear, BatchNorm1d,
 * Linear), an Adam optimizer with amsgrad, a StepLR scheduler, an averaged model "ema" and
 * a generator. Any input must load or give a GNN_ERROR error: never a crash, a read past
 * the buffer, a leak or a warning. A failed load leaves the model as it was; what loads
 * saves and loads again.
 */
#include "config.h"

#include <string.h>
#include <glib/gstdio.h>

#include "gnn.h"
#include "io/gnn-checkpoint-private.h"

int LLVMFuzzerTestOneInput (const guint8 *data, size_t size);

static GnnModule *model;
static GnnCheckpoint *ckpt;

static void
setup (void)
{
  g_autoptr(GError) error = NULL;
  GnnModule *layers[3];
  g_autoptr(GnnParamGroup) group = NULL;
  g_autoptr(GnnAdam) adam = NULL;
  g_autoptr(GnnStepLR) sched = NULL;
  g_autoptr(GnnAverageFunction) fn = NULL;
  g_autoptr(GnnAveragedModel) ema = NULL;
  g_autoptr(GnnGenerator) gen = gnn_generator_new (5);

  gnn_manual_seed (3);
  layers[0] = GNN_MODULE (gnn_linear_new (3, 4, TRUE, &error));
  g_assert_no_error (error);
  layers[1] = GNN_MODULE (gnn_batch_norm1d_new (4, &error));
  g_assert_no_error (error);
  layers[2] = GNN_MODULE (gnn_linear_new (4, 2, FALSE, &error));
  g_assert_no_error (error);
  model = GNN_MODULE (gnn_sequential_new (layers, 3));
  for (guint i = 0; i < 3; i++)
    g_object_unref (layers[i]);
  group = gnn_param_group_new_from_module (model);
  adam = gnn_adam_new (group, 1e-3, 0.9, 0.999, 1e-8, 0.0, TRUE, FALSE, &error);
  g_assert_no_error (error);
  sched = gnn_step_lr_new (GNN_OPTIMIZER (adam), 2, 0.5, -1, &error);
  g_assert_no_error (error);
  fn = gnn_average_function_new_ema_multi (0.9, &error);
  g_assert_no_error (error);
  ema = gnn_averaged_model_new (model, NULL, NULL, fn, TRUE, &error);
  g_assert_no_error (error);

  ckpt = gnn_checkpoint_new ();
  gnn_checkpoint_set_model (ckpt, model);
  gnn_checkpoint_set_optimizer (ckpt, GNN_OPTIMIZER (adam));
  gnn_checkpoint_set_scheduler (ckpt, GNN_LR_SCHEDULER (sched));
  gnn_checkpoint_add_averaged_model (ckpt, "ema", ema);
  gnn_checkpoint_set_generator (ckpt, gen);
}

/* the model's tensors, one after the other */
static GByteArray *
model_bytes (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnStateDict) sd = gnn_module_state_dict (model, NULL, FALSE, &error);
  g_auto(GStrv) keys = NULL;
  GByteArray *out = g_byte_array_new ();

  g_assert_no_error (error);
  keys = gnn_state_dict_get_keys (sd);
  for (guint k = 0; keys[k]; k++)
    {
      GnnTensor *t = gnn_state_dict_get_tensor (sd, keys[k], NULL);
      g_autoptr(GBytes) b = NULL;
      gsize n;
      const guint8 *p;

      if (t == NULL)
        continue;
      b = gnn_tensor_get_bytes (t, &error);
      g_assert_no_error (error);
      p = g_bytes_get_data (b, &n);
      g_byte_array_append (out, p, n);
    }
  return out;
}

int
LLVMFuzzerTestOneInput (const guint8 *data,
                        size_t        size)
{
  g_autoptr(GBytes) bytes = g_bytes_new (data, size);   /* a copy: loaded tensors may be written */
  g_autoptr(GError) error = NULL;
  g_autoptr(GByteArray) before = NULL;

  if (ckpt == NULL)
    setup ();
  before = model_bytes ();
  if (!gnn_checkpoint_load_from_bytes (ckpt, bytes, "input", &error))
    {
      g_autoptr(GByteArray) after = model_bytes ();

      g_assert_nonnull (error);
      g_assert_true (error->domain == GNN_ERROR);
      g_assert_cmpmem (before->data, before->len, after->data, after->len);
      return 0;
    }
  g_assert_no_error (error);
  {
    g_autofree char *dir = g_dir_make_tmp ("fuzz-checkpoint-XXXXXX", &error);
    g_autofree char *path = NULL;

    g_assert_no_error (error);
    path = g_build_filename (dir, "c.safetensors", NULL);
    g_assert_true (gnn_checkpoint_save (ckpt, path, &error));
    g_assert_no_error (error);
    g_assert_true (gnn_checkpoint_load (ckpt, path, &error));
    g_assert_no_error (error);
    g_unlink (path);
    g_rmdir (dir);
  }
  return 0;
}
