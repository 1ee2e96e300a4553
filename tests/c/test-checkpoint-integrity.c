/* test-checkpoint-integrity.c: checkpoints check their tensors' checksum, and refuse an
 * optimizer state with a tensor missing
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>
#include <glib/gstdio.h>

#include "gnn.h"
#include "gnn-test-util.h"

/* ---- a small training run: Linear, BatchNorm1d, Linear, Adam with amsgrad ---------------- */

typedef struct {
  GnnModule *model;
  GnnOptimizer *opt;
  GnnGenerator *gen;
} Run;

static void
run_init (Run *r)
{
  g_autoptr(GError) error = NULL;
  GnnModule *layers[3];
  g_autoptr(GnnParamGroup) group = NULL;

  gnn_manual_seed (11);
  layers[0] = GNN_MODULE (gnn_linear_new (5, 4, TRUE, &error));
  g_assert_no_error (error);
  layers[1] = GNN_MODULE (gnn_batch_norm1d_new (4, &error));
  g_assert_no_error (error);
  layers[2] = GNN_MODULE (gnn_linear_new (4, 2, TRUE, &error));
  g_assert_no_error (error);
  r->model = GNN_MODULE (gnn_sequential_new (layers, 3));
  for (guint i = 0; i < 3; i++)
    g_object_unref (layers[i]);
  group = gnn_param_group_new_from_module (r->model);
  r->opt = GNN_OPTIMIZER (gnn_adam_new (group, 0.01, 0.9, 0.99, 1e-8, 1e-3, TRUE, FALSE, &error));
  g_assert_no_error (error);
  r->gen = gnn_generator_new (99);
}

static void
run_clear (Run *r)
{
  g_clear_object (&r->opt);
  g_clear_object (&r->model);
  g_clear_object (&r->gen);
}

/* @n steps on inputs drawn from the run's generator */
static void
run_steps (Run *r, guint n)
{
  g_autoptr(GError) error = NULL;

  gnn_module_train (r->model, TRUE);
  for (guint i = 0; i < n; i++)
    {
      gint64 xs[] = { 6, 5 }, ys[] = { 6, 2 };
      g_autoptr(GnnTensor) x = gnn_tensor_new_randn (xs, 2, r->gen, GNN_DTYPE_FLOAT32, NULL, &error);
      g_autoptr(GnnTensor) y = gnn_tensor_new_randn (ys, 2, r->gen, GNN_DTYPE_FLOAT32, NULL, &error);
      g_autoptr(GnnTensor) out = NULL, loss = NULL;

      g_assert_no_error (error);
      gnn_optimizer_zero_grad (r->opt, TRUE);
      out = gnn_module_forward_tensor (r->model, x, &error);
      g_assert_no_error (error);
      loss = gnn_tensor_mse_loss (out, y, GNN_REDUCTION_MEAN, &error);
      g_assert_no_error (error);
      g_assert_true (gnn_tensor_backward (loss, NULL, FALSE, &error));
      g_assert_true (gnn_optimizer_step (r->opt, &error));
      g_assert_no_error (error);
    }
}

static GnnCheckpoint *
run_checkpoint (Run *r)
{
  GnnCheckpoint *ckpt = gnn_checkpoint_new ();

  gnn_checkpoint_set_model (ckpt, r->model);
  gnn_checkpoint_set_optimizer (ckpt, r->opt);
  gnn_checkpoint_set_generator (ckpt, r->gen);
  return ckpt;
}

/* every tensor of @a's state dict equals @b's, byte for byte */
static void
assert_same_tensors (GnnStateDict *sa, GnnStateDict *sb)
{
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) ka = gnn_state_dict_get_keys (sa);
  g_auto(GStrv) kb = gnn_state_dict_get_keys (sb);

  g_assert_cmpstrv (ka, kb);
  for (guint k = 0; ka[k]; k++)
    {
      GnnTensor *ta = gnn_state_dict_get_tensor (sa, ka[k], NULL);
      GnnTensor *tb = gnn_state_dict_get_tensor (sb, ka[k], NULL);
      g_autoptr(GBytes) ba = NULL, bb = NULL;

      if (ta == NULL)
        continue;
      g_assert_nonnull (tb);
      ba = gnn_tensor_get_bytes (ta, &error);
      g_assert_no_error (error);
      bb = gnn_tensor_get_bytes (tb, &error);
      g_assert_no_error (error);
      if (!g_bytes_equal (ba, bb))
        g_error ("%s differs", ka[k]);
    }
}

static void
assert_same_model (GnnModule *a, GnnModule *b)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnStateDict) sa = gnn_module_state_dict (a, NULL, FALSE, &error);
  g_autoptr(GnnStateDict) sb = gnn_module_state_dict (b, NULL, FALSE, &error);

  g_assert_no_error (error);
  assert_same_tensors (sa, sb);
}

static void
assert_same_optimizer (GnnOptimizer *a, GnnOptimizer *b)
{
  g_autoptr(GnnStateDict) sa = gnn_optimizer_state_dict (a);
  g_autoptr(GnnStateDict) sb = gnn_optimizer_state_dict (b);

  assert_same_tensors (sa, sb);
}

static char *
tmp_dir (void)
{
  g_autoptr(GError) error = NULL;
  char *dir = g_dir_make_tmp ("gnn-ckpt-XXXXXX", &error);
  g_assert_no_error (error);
  return dir;
}

/* a checkpoint of @r after @steps steps, in @dir */
static char *
save_run (Run *r, const char *dir, const char *name)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnCheckpoint) ckpt = run_checkpoint (r);
  char *path = g_build_filename (dir, name, NULL);

  g_assert_true (gnn_checkpoint_save (ckpt, path, &error));
  g_assert_no_error (error);
  return path;
}

/* the file at @path written again with @edit applied to its tensors and metadata */
typedef void (*EditFunc) (GnnStateDict *tensors, GHashTable *meta);

static void
rewrite (const char *path, EditFunc edit)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GHashTable) meta = NULL;
  g_autoptr(GnnStateDict) st = gnn_safetensors_load (path, &meta, &error);

  g_assert_no_error (error);
  edit (st, meta);
  g_assert_true (gnn_safetensors_save (st, meta, path, &error));
  g_assert_no_error (error);
}

/* ---- checksums --------------------------------------------------------------------------- */

static void
test_checksum_recorded (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = tmp_dir ();
  g_autofree char *path = NULL;
  g_autoptr(GHashTable) meta = NULL;
  g_autoptr(GnnStateDict) st = NULL;
  const char *digest;
  Run r = { 0 };

  run_init (&r);
  run_steps (&r, 2);
  path = save_run (&r, dir, "c.safetensors");
  st = gnn_safetensors_load (path, &meta, &error);
  g_assert_no_error (error);
  digest = g_hash_table_lookup (meta, "gnn.sha256");
  g_assert_nonnull (digest);
  g_assert_cmpuint (strlen (digest), ==, 64);
  g_assert_cmpuint (strspn (digest, "0123456789abcdef"), ==, 64);
  /* two runs alike give the same digest, a different state another */
  {
    Run r2 = { 0 };
    g_autofree char *path2 = NULL, *path3 = NULL;
    g_autoptr(GHashTable) meta2 = NULL, meta3 = NULL;
    g_autoptr(GnnStateDict) st2 = NULL, st3 = NULL;

    run_init (&r2);
    run_steps (&r2, 2);
    path2 = save_run (&r2, dir, "c2.safetensors");
    run_steps (&r2, 1);
    path3 = save_run (&r2, dir, "c3.safetensors");
    st2 = gnn_safetensors_load (path2, &meta2, &error);
    g_assert_no_error (error);
    st3 = gnn_safetensors_load (path3, &meta3, &error);
    g_assert_no_error (error);
    g_assert_cmpstr (g_hash_table_lookup (meta2, "gnn.sha256"), ==, digest);
    g_assert_cmpstr (g_hash_table_lookup (meta3, "gnn.sha256"), !=, digest);
    g_unlink (path2);
    g_unlink (path3);
    run_clear (&r2);
  }
  g_unlink (path);
  g_rmdir (dir);
  run_clear (&r);
}

/* a byte of the data flipped: an error naming the file and both digests; nothing changes */
static void
test_checksum_flipped_byte (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = tmp_dir ();
  g_autofree char *path = NULL, *contents = NULL;
  g_autoptr(GHashTable) meta = NULL;
  g_autoptr(GnnStateDict) st = NULL;
  g_autoptr(GnnCheckpoint) ckpt = NULL;
  g_autoptr(GnnStateDict) model_before = NULL, opt_before = NULL;
  gsize length;
  guint64 header;
  Run r = { 0 }, fresh = { 0 };

  run_init (&r);
  run_steps (&r, 3);
  path = save_run (&r, dir, "c.safetensors");
  st = gnn_safetensors_load (path, &meta, &error);
  g_assert_no_error (error);

  run_init (&fresh);
  model_before = gnn_module_state_dict (fresh.model, NULL, FALSE, &error);
  g_assert_no_error (error);
  ckpt = run_checkpoint (&fresh);

  g_assert_true (g_file_get_contents (path, &contents, &length, &error));
  g_assert_no_error (error);
  memcpy (&header, contents, 8);
  header = GUINT64_FROM_LE (header);
  g_assert_cmpuint (8 + header, <, length);
  /* a byte in the middle of the data, then the last one */
  for (guint which = 0; which < 2; which++)
    {
      gsize at = which == 0 ? 8 + header + (length - 8 - header) / 2 : length - 1;
      g_autofree char *bad = g_memdup2 (contents, length);

      bad[at] ^= 0x10;
      g_assert_true (g_file_set_contents (path, bad, length, &error));
      g_assert_no_error (error);
      g_assert_false (gnn_checkpoint_load (ckpt, path, &error));
      g_assert_error (error, GNN_ERROR, GNN_ERROR_FILE_FORMAT);
      g_test_message ("%s", error->message);
      g_assert_nonnull (strstr (error->message, path));
      g_assert_nonnull (strstr (error->message, "checksum"));
      g_assert_nonnull (strstr (error->message, g_hash_table_lookup (meta, "gnn.sha256")));
      g_clear_error (&error);
      /* the failed load changed nothing */
      {
        g_autoptr(GnnStateDict) now = gnn_module_state_dict (fresh.model, NULL, FALSE, &error);
        g_autoptr(GnnStateDict) opt_now = gnn_optimizer_state_dict (fresh.opt);
        g_auto(GStrv) okeys = gnn_state_dict_get_keys (opt_now);

        g_assert_no_error (error);
        assert_same_tensors (model_before, now);
        for (guint k = 0; okeys[k]; k++)
          g_assert_false (g_str_has_prefix (okeys[k], "state."));
      }
      /* the file's own load refuses it too */
      g_assert_null (gnn_checkpoint_load_model (path, &error));
      g_assert_error (error, GNN_ERROR, GNN_ERROR_FILE_FORMAT);
      g_clear_error (&error);
    }
  /* the file whole again loads, and gives the saved state */
  g_assert_true (g_file_set_contents (path, contents, length, &error));
  g_assert_true (gnn_checkpoint_load (ckpt, path, &error));
  g_assert_no_error (error);
  assert_same_model (r.model, fresh.model);
  assert_same_optimizer (r.opt, fresh.opt);
  (void) opt_before;
  g_unlink (path);
  g_rmdir (dir);
  run_clear (&r);
  run_clear (&fresh);
}

static void
drop_checksum (GnnStateDict *tensors, GHashTable *meta)
{
  g_assert_true (g_hash_table_remove (meta, "gnn.sha256"));
}

/* a tensor's value changed by someone who rewrote the file: the checksum no longer fits */
static void
change_a_value (GnnStateDict *tensors, GHashTable *meta)
{
  g_autoptr(GError) error = NULL;
  GnnTensor *t = gnn_state_dict_get_tensor (tensors, "model.0.weight", &error);
  g_autoptr(GnnTensor) changed = NULL;

  g_assert_no_error (error);
  changed = gnn_tensor_mul_scalar (t, 1.5, &error);
  g_assert_no_error (error);
  gnn_state_dict_set_tensor (tensors, "model.0.weight", changed);
}

/* a checkpoint without the checksum (as gnn wrote them before) loads, unchecked */
static void
test_checksum_absent (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = tmp_dir ();
  g_autofree char *path = NULL;
  g_autoptr(GnnCheckpoint) ckpt = NULL;
  g_autoptr(GnnModule) rebuilt = NULL;
  Run r = { 0 }, fresh = { 0 };

  run_init (&r);
  run_steps (&r, 2);
  path = save_run (&r, dir, "c.safetensors");

  rewrite (path, change_a_value);
  run_init (&fresh);
  ckpt = run_checkpoint (&fresh);
  g_assert_false (gnn_checkpoint_load (ckpt, path, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_FILE_FORMAT);
  g_assert_nonnull (strstr (error->message, "checksum"));
  g_clear_error (&error);

  g_unlink (path);
  g_free (path);
  path = save_run (&r, dir, "c.safetensors");
  rewrite (path, drop_checksum);
  g_assert_true (gnn_checkpoint_load (ckpt, path, &error));
  g_assert_no_error (error);
  assert_same_model (r.model, fresh.model);
  assert_same_optimizer (r.opt, fresh.opt);
  rebuilt = gnn_checkpoint_load_model (path, &error);
  g_assert_no_error (error);
  assert_same_model (r.model, rebuilt);
  g_unlink (path);
  g_rmdir (dir);
  run_clear (&r);
  run_clear (&fresh);
}

/* ---- missing optimizer state ------------------------------------------------------------ */

static const char *drop_key;

static void
drop_tensor (GnnStateDict *tensors, GHashTable *meta)
{
  g_assert_true (gnn_state_dict_contains (tensors, drop_key));
  gnn_state_dict_remove (tensors, drop_key);
}

static void
drop_tensor_and_checksum (GnnStateDict *tensors, GHashTable *meta)
{
  drop_tensor (tensors, meta);
  drop_checksum (tensors, meta);
}

/* a checkpoint whose optimizer state lacks one tensor Adam needs is refused, naming it,
 * and changes nothing (with the checksum, which no longer fits, or without) */
static void
test_missing_optimizer_state (void)
{
  static const char *const keys[] = {
    "optimizer.state.1.exp_avg_sq", "optimizer.state.0.exp_avg", "optimizer.state.3.max_exp_avg_sq",
  };
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = tmp_dir ();
  Run r = { 0 };

  run_init (&r);
  run_steps (&r, 2);
  for (guint i = 0; i < G_N_ELEMENTS (keys); i++)
    for (guint with_checksum = 0; with_checksum < 2; with_checksum++)
      {
        g_autofree char *path = save_run (&r, dir, "c.safetensors");
        g_autoptr(GnnCheckpoint) ckpt = NULL;
        g_autoptr(GnnStateDict) model_before = NULL, model_after = NULL, opt_after = NULL;
        g_auto(GStrv) okeys = NULL;
        Run fresh = { 0 };

        drop_key = keys[i];
        rewrite (path, with_checksum ? drop_tensor : drop_tensor_and_checksum);
        run_init (&fresh);
        run_steps (&fresh, 1);
        model_before = gnn_module_state_dict (fresh.model, NULL, FALSE, &error);
        g_assert_no_error (error);
        ckpt = run_checkpoint (&fresh);
        g_assert_false (gnn_checkpoint_load (ckpt, path, &error));
        g_test_message ("%s", error->message);
        if (with_checksum)
          {
            g_assert_error (error, GNN_ERROR, GNN_ERROR_FILE_FORMAT);
            g_assert_nonnull (strstr (error->message, "checksum"));
          }
        else
          {
            g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
            g_assert_nonnull (strstr (error->message, keys[i] + strlen ("optimizer.")));
            g_assert_nonnull (strstr (error->message, "GnnAdam"));
          }
        g_clear_error (&error);
        model_after = gnn_module_state_dict (fresh.model, NULL, FALSE, &error);
        g_assert_no_error (error);
        assert_same_tensors (model_before, model_after);
        /* the optimizer keeps its own state, whole */
        opt_after = gnn_optimizer_state_dict (fresh.opt);
        g_assert_true (gnn_state_dict_contains (opt_after, keys[i] + strlen ("optimizer.")));
        g_unlink (path);
        run_clear (&fresh);
      }
  g_rmdir (dir);
  run_clear (&r);
}

/* the same check on the optimizer's own load_state_dict, for the state each optimizer keeps */
static void
test_missing_state_each_optimizer (void)
{
  g_autoptr(GError) error = NULL;

  for (guint which = 0; which < 4; which++)
    {
      Run r = { 0 };
      g_autoptr(GnnParamGroup) group = NULL;
      g_autoptr(GnnStateDict) sd = NULL;
      g_autoptr(GnnStateDict) before = NULL;
      const char *key;

      run_init (&r);
      group = gnn_param_group_new_from_module (r.model);
      g_clear_object (&r.opt);
      switch (which)
        {
        case 0:
          r.opt = GNN_OPTIMIZER (gnn_sgd_new (group, 0.1, 0.9, 0.0, 0.0, FALSE, FALSE, &error));
          key = "state.2.momentum_buffer";
          break;
        case 1:
          r.opt = GNN_OPTIMIZER (gnn_rmsprop_new (group, 0.01, 0.99, 1e-8, 0.0, 0.5, TRUE, FALSE, &error));
          key = "state.4.grad_avg";
          break;
        case 2:
          r.opt = GNN_OPTIMIZER (gnn_adagrad_new (group, 0.1, 0.0, 0.0, 0.1, 1e-10, FALSE, &error));
          key = "state.0.sum";
          break;
        default:
          r.opt = GNN_OPTIMIZER (gnn_adamw_new (group, 0.01, 0.9, 0.99, 1e-8, 1e-2, FALSE, FALSE, &error));
          key = "state.5.exp_avg";
          break;
        }
      g_assert_no_error (error);
      run_steps (&r, 2);
      sd = gnn_optimizer_state_dict (r.opt);
      before = gnn_optimizer_state_dict (r.opt);
      /* SGD's buffer is the whole state: drop it beside another entry kept */
      if (which == 0)
        {
          g_auto(GValue) v = G_VALUE_INIT;
          g_value_init (&v, G_TYPE_DOUBLE);
          g_value_set_double (&v, 0.0);
          gnn_state_dict_set_value (sd, "state.2.extra", &v);
        }
      g_assert_true (gnn_state_dict_contains (sd, key));
      /* whole, it loads */
      g_assert_true (gnn_optimizer_load_state_dict (r.opt, before, &error));
      g_assert_no_error (error);
      gnn_state_dict_remove (sd, key);
      g_assert_false (gnn_optimizer_load_state_dict (r.opt, sd, &error));
      g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
      g_test_message ("%s", error->message);
      g_assert_nonnull (strstr (error->message, key));
      g_clear_error (&error);
      {
        g_autoptr(GnnStateDict) now = gnn_optimizer_state_dict (r.opt);
        assert_same_tensors (before, now);
      }
      run_clear (&r);
    }
}

/* stopped after 3 steps and resumed from the file, Adam with amsgrad goes on bit for bit */
static void
test_resume_exact (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = tmp_dir ();
  g_autofree char *path = NULL;
  g_autoptr(GnnCheckpoint) ckpt = NULL;
  Run whole = { 0 }, fresh = { 0 };

  run_init (&whole);
  run_steps (&whole, 3);
  path = save_run (&whole, dir, "c.safetensors");
  run_steps (&whole, 4);

  run_init (&fresh);
  ckpt = run_checkpoint (&fresh);
  g_assert_true (gnn_checkpoint_load (ckpt, path, &error));
  g_assert_no_error (error);
  run_steps (&fresh, 4);
  assert_same_model (whole.model, fresh.model);
  assert_same_optimizer (whole.opt, fresh.opt);
  g_unlink (path);
  g_rmdir (dir);
  run_clear (&whole);
  run_clear (&fresh);
}

int
main (int argc, char **argv)
{
  gnn_test_init (&argc, &argv);
  g_test_add_func ("/checkpoint/checksum/recorded", test_checksum_recorded);
  g_test_add_func ("/checkpoint/checksum/flipped-byte", test_checksum_flipped_byte);
  g_test_add_func ("/checkpoint/checksum/absent", test_checksum_absent);
  g_test_add_func ("/checkpoint/optimizer-state/missing", test_missing_optimizer_state);
  g_test_add_func ("/checkpoint/optimizer-state/missing-each-optimizer", test_missing_state_each_optimizer);
  g_test_add_func ("/checkpoint/optimizer-state/resume-exact", test_resume_exact);
  return g_test_run ();
}
