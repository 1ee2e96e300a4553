/* test-checkpoint.c: the module tree as JSON, and checkpoints
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>
#include <errno.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <glib/gstdio.h>

#include "gnn.h"
#include "gnn-test-util.h"

/* ---- helpers ---------------------------------------------------------------------------- */

static GnnModule *
make_model (void)
{
  g_autoptr(GError) error = NULL;
  GnnModule *layers[4];
  GnnSequential *seq;

  gnn_manual_seed (7);
  layers[0] = GNN_MODULE (gnn_linear_new (6, 8, TRUE, &error));
  g_assert_no_error (error);
  layers[1] = GNN_MODULE (gnn_batch_norm1d_new (8, &error));
  g_assert_no_error (error);
  layers[2] = GNN_MODULE (gnn_relu_new ());
  layers[3] = GNN_MODULE (gnn_linear_new (8, 3, TRUE, &error));
  g_assert_no_error (error);
  seq = gnn_sequential_new (layers, 4);
  for (guint i = 0; i < 4; i++)
    g_object_unref (layers[i]);
  return GNN_MODULE (seq);
}

typedef struct {
  GnnModule *model;
  GnnOptimizer *opt;
  GnnLRScheduler *sched;
  GnnAveragedModel *ema;
  GnnGenerator *gen;
  GPtrArray *x, *y;
} Run;

static void
run_init (Run *r)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnParamGroup) group = NULL;
  g_autoptr(GnnAverageFunction) fn = NULL;
  g_autoptr(GnnGenerator) data_gen = gnn_generator_new (42);

  r->model = make_model ();
  group = gnn_param_group_new_from_module (r->model);
  r->opt = GNN_OPTIMIZER (gnn_sgd_new (group, 0.1, 0.9, 0.0, 1e-3, TRUE, FALSE, &error));
  g_assert_no_error (error);
  r->sched = GNN_LR_SCHEDULER (gnn_cosine_annealing_lr_new (r->opt, 8, 0.0, -1, &error));
  g_assert_no_error (error);
  fn = gnn_average_function_new_ema_multi (0.9, &error);
  g_assert_no_error (error);
  r->ema = gnn_averaged_model_new (r->model, NULL, NULL, fn, TRUE, &error);
  g_assert_no_error (error);
  r->gen = gnn_generator_new (1234);
  r->x = g_ptr_array_new_with_free_func (g_object_unref);
  r->y = g_ptr_array_new_with_free_func (g_object_unref);
  for (guint i = 0; i < 4; i++)
    {
      gint64 xs[] = { 5, 6 }, ys[] = { 5, 3 };
      g_ptr_array_add (r->x, gnn_tensor_new_randn (xs, 2, data_gen, GNN_DTYPE_FLOAT32, NULL, &error));
      g_assert_no_error (error);
      g_ptr_array_add (r->y, gnn_tensor_new_randn (ys, 2, data_gen, GNN_DTYPE_FLOAT32, NULL, &error));
      g_assert_no_error (error);
    }
}

static void
run_clear (Run *r)
{
  g_clear_object (&r->sched);
  g_clear_object (&r->opt);
  g_clear_object (&r->ema);
  g_clear_object (&r->model);
  g_clear_object (&r->gen);
  g_clear_pointer (&r->x, g_ptr_array_unref);
  g_clear_pointer (&r->y, g_ptr_array_unref);
}

/* one epoch: a step per batch, with dropout-free noise drawn from the run's generator added
 * to the inputs, so that the generator's state matters */
static void
run_epoch (Run *r)
{
  g_autoptr(GError) error = NULL;

  gnn_module_train (r->model, TRUE);
  for (guint i = 0; i < r->x->len; i++)
    {
      gint64 xs[] = { 5, 6 };
      g_autoptr(GnnTensor) noise = gnn_tensor_new_randn (xs, 2, r->gen, GNN_DTYPE_FLOAT32, NULL, &error);
      g_autoptr(GnnTensor) x = NULL, out = NULL, loss = NULL;

      g_assert_no_error (error);
      x = gnn_tensor_add (r->x->pdata[i], noise, 1.0, &error);
      g_assert_no_error (error);
      gnn_optimizer_zero_grad (r->opt, TRUE);
      out = gnn_module_forward_tensor (r->model, x, &error);
      g_assert_no_error (error);
      loss = gnn_tensor_mse_loss (out, r->y->pdata[i], GNN_REDUCTION_MEAN, &error);
      g_assert_no_error (error);
      g_assert_true (gnn_tensor_backward (loss, NULL, FALSE, &error));
      g_assert_no_error (error);
      g_assert_true (gnn_optimizer_step (r->opt, &error));
      g_assert_no_error (error);
      g_assert_true (gnn_averaged_model_update_parameters (r->ema, r->model, &error));
      g_assert_no_error (error);
    }
  g_assert_true (gnn_lr_scheduler_step (r->sched, &error));
  g_assert_no_error (error);
}

static GnnCheckpoint *
run_checkpoint (Run *r)
{
  GnnCheckpoint *ckpt = gnn_checkpoint_new ();

  gnn_checkpoint_set_model (ckpt, r->model);
  gnn_checkpoint_set_optimizer (ckpt, r->opt);
  gnn_checkpoint_set_scheduler (ckpt, r->sched);
  gnn_checkpoint_add_averaged_model (ckpt, "ema", r->ema);
  gnn_checkpoint_set_generator (ckpt, r->gen);
  return ckpt;
}

/* every tensor of @a's state dict equals @b's, byte for byte */
static void
assert_same_state (GnnModule *a, GnnModule *b)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnStateDict) sa = gnn_module_state_dict (a, NULL, FALSE, &error);
  g_autoptr(GnnStateDict) sb = gnn_module_state_dict (b, NULL, FALSE, &error);
  g_auto(GStrv) ka = gnn_state_dict_get_keys (sa);
  g_auto(GStrv) kb = gnn_state_dict_get_keys (sb);

  g_assert_no_error (error);
  g_assert_cmpstrv (ka, kb);
  for (guint k = 0; ka[k]; k++)
    {
      GnnTensor *ta = gnn_state_dict_get_tensor (sa, ka[k], NULL);
      GnnTensor *tb = gnn_state_dict_get_tensor (sb, ka[k], NULL);
      g_autoptr(GBytes) ba = NULL, bb = NULL;

      if (ta == NULL)
        continue;
      ba = gnn_tensor_get_bytes (ta, &error);
      g_assert_no_error (error);
      bb = gnn_tensor_get_bytes (tb, &error);
      g_assert_no_error (error);
      if (!g_bytes_equal (ba, bb))
        g_error ("%s differs", ka[k]);
    }
}

static char *
tmp_dir (void)
{
  g_autoptr(GError) error = NULL;
  char *dir = g_dir_make_tmp ("gnn-ckpt-XXXXXX", &error);
  g_assert_no_error (error);
  return dir;
}

/* ---- JSON ------------------------------------------------------------------------------ */

static void
check_json_round_trip (GnnModule *m)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *json = gnn_module_to_json (m, TRUE, &error);
  g_autoptr(GnnModule) back = NULL;
  g_autofree char *json2 = NULL, *s1 = NULL, *s2 = NULL;
  g_autoptr(GPtrArray) p1 = NULL, p2 = NULL;
  g_auto(GStrv) n1 = NULL, n2 = NULL;

  g_assert_no_error (error);
  back = gnn_module_new_from_json (json, -1, &error);
  g_assert_no_error (error);
  g_assert_nonnull (back);
  g_assert_cmpstr (G_OBJECT_TYPE_NAME (back), ==, G_OBJECT_TYPE_NAME (m));
  s1 = gnn_module_to_string (m);
  s2 = gnn_module_to_string (back);
  g_assert_cmpstr (s1, ==, s2);
  json2 = gnn_module_to_json (back, TRUE, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (json, ==, json2);
  g_test_message ("round trip of %s", s1);
  p1 = gnn_module_named_parameters (m, NULL, TRUE, TRUE, &n1);
  p2 = gnn_module_named_parameters (back, NULL, TRUE, TRUE, &n2);
  g_assert_cmpstrv (n1, n2);
  for (guint i = 0; i < p1->len; i++)
    {
      guint d1, d2;
      const gint64 *a = gnn_tensor_get_shape (p1->pdata[i], &d1);
      const gint64 *b = gnn_tensor_get_shape (p2->pdata[i], &d2);
      g_assert_cmpuint (d1, ==, d2);
      g_assert_cmpmem (a, d1 * sizeof (gint64), b, d2 * sizeof (gint64));
      g_assert_cmpint (gnn_tensor_get_dtype (p1->pdata[i]), ==, gnn_tensor_get_dtype (p2->pdata[i]));
    }
}

static void
test_json_layers (void)
{
  g_autoptr(GError) error = NULL;
  gint64 k3[] = { 3, 3 }, k2[] = { 2, 2 }, s2[] = { 2, 2 }, p1[] = { 1, 1 }, o1[] = { 1, 1 }, ns[] = { 4, 5 };
  gint64 usz[] = { 2, 3 };
  g_autoptr(GPtrArray) mods = g_ptr_array_new_with_free_func (g_object_unref);

#define ADD(expr) do { GnnModule *_m = GNN_MODULE (expr); g_assert_no_error (error); g_ptr_array_add (mods, _m); } while (0)
  ADD (gnn_linear_new (4, 3, TRUE, &error));
  ADD (gnn_linear_new_with_dtype (4, 3, FALSE, GNN_DTYPE_FLOAT64, &error));
  ADD (gnn_bilinear_new (2, 3, 4, TRUE, GNN_DTYPE_FLOAT32, &error));
  ADD (gnn_embedding_new (10, 3, 2, GNN_DTYPE_FLOAT32, &error));
  ADD (gnn_conv1d_new (2, 4, 3, 2, 1, 1, 2, TRUE, GNN_DTYPE_FLOAT32, &error));
  ADD (gnn_conv2d_new (3, 6, k3, s2, p1, NULL, 3, FALSE, GNN_DTYPE_FLOAT32, &error));
  ADD (gnn_conv_transpose2d_new (4, 2, k3, s2, p1, o1, 1, TRUE, NULL, GNN_DTYPE_FLOAT32, &error));
  ADD (gnn_max_pool2d_new (k2, s2, NULL, NULL, TRUE));
  ADD (gnn_avg_pool2d_new (k3, NULL, p1, FALSE, FALSE, 0));
  ADD (gnn_adaptive_avg_pool2d_new (k2));
  ADD (gnn_batch_norm1d_new_full (5, 1e-3, 0.2, FALSE, TRUE, GNN_DTYPE_FLOAT32, &error));
  ADD (gnn_batch_norm2d_new_full (5, 1e-5, 0.1, TRUE, FALSE, GNN_DTYPE_FLOAT64, &error));
  ADD (gnn_layer_norm_new_full (ns, 2, 1e-6, FALSE, GNN_DTYPE_FLOAT32, &error));
  ADD (gnn_group_norm_new (2, 4, &error));
  ADD (gnn_relu_new ());
  ADD (gnn_leaky_relu_new (0.2));
  ADD (gnn_elu_new (0.5));
  ADD (gnn_gelu_new ("tanh"));
  ADD (gnn_silu_new ());
  ADD (gnn_sigmoid_new ());
  ADD (gnn_tanh_new ());
  ADD (gnn_softmax_new (1));
  ADD (gnn_log_softmax_new (-1));
  ADD (gnn_identity_new ());
  ADD (gnn_flatten_new (0, -1));
  ADD (gnn_unflatten_new (1, usz, 2));
  ADD (gnn_dropout_new (0.3, &error));
  ADD (gnn_dropout2d_new (0.4, &error));
  ADD (gnn_mse_loss_new (GNN_REDUCTION_SUM));
  ADD (gnn_l1_loss_new (GNN_REDUCTION_NONE));
#undef ADD

  for (guint i = 0; i < mods->len; i++)
    check_json_round_trip (mods->pdata[i]);

  /* all of them in each container, one of them in eval mode */
  {
    g_autoptr(GnnSequential) seq = gnn_sequential_new ((GnnModule **) mods->pdata, mods->len);
    g_autoptr(GnnModuleList) list = gnn_module_list_new ((GnnModule **) mods->pdata, mods->len);
    g_autoptr(GnnModuleDict) dict = gnn_module_dict_new ();
    g_autoptr(GnnModule) copy = NULL;

    for (guint i = 0; i < mods->len; i++)
      {
        g_autofree char *key = g_strdup_printf ("layer_%c", 'a' + i);
        g_assert_true (gnn_module_dict_set (dict, key, mods->pdata[i], &error));
        g_assert_no_error (error);
      }
    gnn_module_eval (mods->pdata[3]);
    check_json_round_trip (GNN_MODULE (seq));
    check_json_round_trip (GNN_MODULE (list));
    check_json_round_trip (GNN_MODULE (dict));
    g_assert_true (gnn_module_register_module (GNN_MODULE (list), "extra", NULL, &error));
    g_assert_no_error (error);
    check_json_round_trip (GNN_MODULE (list));

    /* nested containers */
    g_assert_true (gnn_module_register_module (GNN_MODULE (dict), "inner", GNN_MODULE (seq), &error));
    g_assert_no_error (error);
    check_json_round_trip (GNN_MODULE (dict));
  }
}

/* A module whose setup makes children: the JSON's children of those names are recursed into,
 * not added twice (GnnAveragedModel's setup makes "module" from a copy; rebuilt without the
 * model it makes none, and the child comes from the JSON). */
static void
test_json_averaged (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnModule) model = make_model ();
  g_autoptr(GnnAverageFunction) fn = gnn_average_function_new_ema (0.5, &error);
  g_autoptr(GnnAveragedModel) avg = gnn_averaged_model_new (model, NULL, fn, NULL, TRUE, &error);

  g_assert_no_error (error);
  check_json_round_trip (GNN_MODULE (avg));
}

static void
test_json_errors (void)
{
  static const struct { const char *json; int code; const char *needle; } cases[] = {
    { "", GNN_ERROR_FILE_FORMAT, "found an empty text" },
    { " 3 ", GNN_ERROR_FILE_FORMAT, "expected a module (an object), found an integer" },
    { "{\"type\": \"GnnSequential\", \"children\": [{\"name\": \"a\", \"module\": {\"shared\": \"b\"}}]}",
      GNN_ERROR_FILE_FORMAT, "refers to 'b', which is no module built before it" },
    { "{", GNN_ERROR_FILE_FORMAT, "not valid JSON" },
    { "[]", GNN_ERROR_FILE_FORMAT, "expected a module (an object), found an array" },
    { "{}", GNN_ERROR_FILE_FORMAT, "expected \"type\" to be a string, found nothing" },
    { "{\"type\": 3}", GNN_ERROR_FILE_FORMAT, "found an integer" },
    { "{\"type\": \"GnnNoSuchThing\"}", GNN_ERROR_INVALID_ARGUMENT, "'GnnNoSuchThing', which is not registered" },
    { "{\"type\": \"GnnTensor\"}", GNN_ERROR_INVALID_ARGUMENT, "is not a GnnModule" },
    { "{\"type\": \"GnnLoss\"}", GNN_ERROR_INVALID_ARGUMENT, "is abstract" },
    { "{\"type\": \"GnnLinear\", \"properties\": {\"in-features\": \"4\"}}", GNN_ERROR_FILE_FORMAT,
      "property 'in-features' expects an integer, found a string" },
    { "{\"type\": \"GnnLinear\", \"properties\": {\"in-features\": 4000000000}}", GNN_ERROR_FILE_FORMAT,
      "expects an integer from" },
    { "{\"type\": \"GnnLinear\", \"properties\": {\"bias\": 1}}", GNN_ERROR_FILE_FORMAT,
      "property 'bias' expects a boolean, found an integer" },
    { "{\"type\": \"GnnLinear\", \"properties\": {\"dtype\": \"float128\"}}", GNN_ERROR_FILE_FORMAT,
      "expects the nick of a GnnDtype value, found 'float128'" },
    { "{\"type\": \"GnnLinear\", \"properties\": {\"color\": 1}}", GNN_ERROR_FILE_FORMAT,
      "GnnLinear has no readable and writable property 'color'" },
    { "{\"type\": \"GnnLinear\", \"properties\": {\"training\": true}}", GNN_ERROR_FILE_FORMAT,
      "no readable and writable property 'training'" },
    { "{\"type\": \"GnnLinear\", \"properties\": []}", GNN_ERROR_FILE_FORMAT, "expected \"properties\" (an object)" },
    { "{\"type\": \"GnnConv2d\", \"properties\": {\"kernel-size\": [\"a\"]}}", GNN_ERROR_FILE_FORMAT,
      "property 'kernel-size' expects a value of type 'ax'" },
    { "{\"type\": \"GnnSequential\", \"children\": {}}", GNN_ERROR_FILE_FORMAT, "\"children\" to be an array" },
    { "{\"type\": \"GnnSequential\", \"children\": [1]}", GNN_ERROR_FILE_FORMAT, "$.children[0]: expected a child" },
    { "{\"type\": \"GnnSequential\", \"children\": [{\"name\": 1}]}", GNN_ERROR_FILE_FORMAT, "\"name\" to be a string" },
    { "{\"type\": \"GnnSequential\", \"children\": [{\"name\": \"a\", \"module\": {\"type\": \"GnnReLU\"}},"
      "{\"name\": \"a\", \"module\": {\"type\": \"GnnReLU\"}}]}", GNN_ERROR_FILE_FORMAT, "appears twice" },
    { "{\"type\": \"GnnSequential\", \"children\": [{\"name\": \"a.b\", \"module\": {\"type\": \"GnnReLU\"}}]}",
      GNN_ERROR_INVALID_ARGUMENT, "$.children[0]" },
    { "{\"type\": \"GnnSequential\", \"training\": 1}", GNN_ERROR_FILE_FORMAT, "\"training\" to be a boolean" },
    { "{\"type\": \"GnnLinear\", \"properties\": {\"in-features\": -1}}", GNN_ERROR_FILE_FORMAT, "out of its range" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(GnnModule) m = gnn_module_new_from_json (cases[i].json, -1, &error);

      g_test_message ("%s", cases[i].json);
      g_assert_null (m);
      g_assert_error (error, GNN_ERROR, cases[i].code);
      if (!strstr (error->message, cases[i].needle))
        g_error ("'%s' lacks '%s'", error->message, cases[i].needle);
    }

  /* a tree deeper than the limit */
  {
    GString *s = g_string_new (NULL);
    g_autoptr(GError) error = NULL;
    g_autoptr(GnnModule) m = NULL;

    for (guint i = 0; i < 300; i++)
      g_string_append (s, "{\"type\": \"GnnSequential\", \"children\": [{\"name\": \"0\", \"module\": ");
    g_string_append (s, "null");
    for (guint i = 0; i < 300; i++)
      g_string_append (s, "}]}");
    m = gnn_module_new_from_json (s->str, s->len, &error);
    g_assert_null (m);
    g_assert_error (error, GNN_ERROR, GNN_ERROR_FILE_FORMAT);
    g_assert_nonnull (strstr (error->message, "deeper than"));
    g_string_free (s, TRUE);
  }
}

/* ---- checkpoints ----------------------------------------------------------------------- */

static void
test_checkpoint_resume (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = tmp_dir ();
  g_autofree char *path = g_build_filename (dir, "ckpt.safetensors", NULL);
  Run straight, first, resumed;

  run_init (&straight);
  for (guint e = 0; e < 6; e++)
    run_epoch (&straight);

  run_init (&first);
  for (guint e = 0; e < 3; e++)
    run_epoch (&first);
  {
    g_autoptr(GnnCheckpoint) ckpt = run_checkpoint (&first);
    gnn_checkpoint_set_metadata (ckpt, "epoch", "3");
    g_assert_true (gnn_checkpoint_save (ckpt, path, &error));
    g_assert_no_error (error);
  }
  run_clear (&first);

  /* fresh objects: other weights, another generator state */
  run_init (&resumed);
  gnn_generator_manual_seed (resumed.gen, 999);
  {
    g_autoptr(GnnCheckpoint) ckpt = run_checkpoint (&resumed);
    g_auto(GStrv) keys = NULL;
    g_auto(GStrv) names = NULL;

    gnn_checkpoint_set_metadata (ckpt, "stale", "x");
    g_assert_true (gnn_checkpoint_load (ckpt, path, &error));
    g_assert_no_error (error);
    g_assert_cmpstr (gnn_checkpoint_get_metadata (ckpt, "epoch"), ==, "3");
    g_assert_null (gnn_checkpoint_get_metadata (ckpt, "stale"));
    keys = gnn_checkpoint_list_metadata (ckpt);
    g_assert_cmpuint (g_strv_length (keys), ==, 1);
    names = gnn_checkpoint_list_averaged_models (ckpt);
    g_assert_cmpstr (names[0], ==, "ema");
    g_assert_true (gnn_checkpoint_get_averaged_model (ckpt, "ema") == resumed.ema);
  }
  for (guint e = 0; e < 3; e++)
    run_epoch (&resumed);

  assert_same_state (straight.model, resumed.model);
  assert_same_state (GNN_MODULE (straight.ema), GNN_MODULE (resumed.ema));
  g_assert_cmpint (gnn_averaged_model_get_n_averaged (resumed.ema), ==, 24);
  g_assert_cmpuint (gnn_generator_get_offset (straight.gen), ==, gnn_generator_get_offset (resumed.gen));
  g_assert_cmpuint (gnn_generator_get_seed (straight.gen), ==, gnn_generator_get_seed (resumed.gen));
  {
    guint n1, n2;
    g_autofree double *a = gnn_lr_scheduler_get_last_lr (straight.sched, &n1);
    g_autofree double *b = gnn_lr_scheduler_get_last_lr (resumed.sched, &n2);
    g_assert_cmpuint (n1, ==, n2);
    g_assert_cmpmem (a, n1 * sizeof (double), b, n2 * sizeof (double));
  }

  /* the model alone, from the file */
  {
    g_autoptr(GnnModule) m = gnn_checkpoint_load_model (path, &error);
    g_autofree char *json = gnn_checkpoint_peek_model_json (path, &error);
    g_autofree char *s1 = NULL, *s2 = NULL;
    Run check;

    g_assert_no_error (error);
    g_assert_nonnull (json);
    g_assert_nonnull (strstr (json, "\"GnnBatchNorm1d\""));
    run_init (&check);
    {
      g_autoptr(GnnCheckpoint) ckpt = gnn_checkpoint_new ();
      gnn_checkpoint_set_model (ckpt, check.model);
      g_assert_true (gnn_checkpoint_load (ckpt, path, &error));
      g_assert_no_error (error);
    }
    assert_same_state (m, check.model);
    s1 = gnn_module_to_string (m);
    s2 = gnn_module_to_string (check.model);
    g_assert_cmpstr (s1, ==, s2);
    run_clear (&check);
  }

  run_clear (&straight);
  run_clear (&resumed);
  g_assert_cmpint (g_unlink (path), ==, 0);
  g_assert_cmpint (g_rmdir (dir), ==, 0);
}

/* loading what does not fit changes nothing */
static void
test_checkpoint_mismatch (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = tmp_dir ();
  g_autofree char *path = g_build_filename (dir, "ckpt.safetensors", NULL);
  Run a, b;

  run_init (&a);
  run_epoch (&a);
  {
    g_autoptr(GnnCheckpoint) ckpt = run_checkpoint (&a);
    g_assert_true (gnn_checkpoint_save (ckpt, path, &error));
    g_assert_no_error (error);
  }

  /* another architecture: a model with a wider last layer */
  run_init (&b);
  {
    g_autoptr(GnnCheckpoint) ckpt = gnn_checkpoint_new ();
    g_autoptr(GnnModule) other = NULL;
    g_autoptr(GnnModule) before = gnn_module_copy (b.model, &error);
    GnnModule *layers[1];

    g_assert_no_error (error);
    layers[0] = GNN_MODULE (gnn_linear_new (6, 8, TRUE, &error));
    other = GNN_MODULE (gnn_sequential_new (layers, 1));
    g_object_unref (layers[0]);
    gnn_checkpoint_set_model (ckpt, other);
    g_assert_false (gnn_checkpoint_load (ckpt, path, &error));
    g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
    g_clear_error (&error);

    /* a named averaged model the file lacks: nothing loads, the model included */
    gnn_checkpoint_set_model (ckpt, b.model);
    gnn_checkpoint_add_averaged_model (ckpt, "swa", b.ema);
    g_assert_false (gnn_checkpoint_load (ckpt, path, &error));
    g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
    g_assert_nonnull (strstr (error->message, "'swa'"));
    g_clear_error (&error);
    assert_same_state (before, b.model);

    /* a scheduler of another class */
    gnn_checkpoint_add_averaged_model (ckpt, "swa", NULL);
    {
      g_autoptr(GnnStepLR) step = gnn_step_lr_new (b.opt, 2, 0.5, -1, &error);
      g_assert_no_error (error);
      gnn_checkpoint_set_scheduler (ckpt, GNN_LR_SCHEDULER (step));
      g_assert_false (gnn_checkpoint_load (ckpt, path, &error));
      g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
      g_assert_nonnull (strstr (error->message, "GnnCosineAnnealingLR"));
      g_clear_error (&error);
      gnn_checkpoint_set_scheduler (ckpt, NULL);
    }
    assert_same_state (before, b.model);
  }
  run_clear (&a);
  run_clear (&b);
  g_unlink (path);
  g_rmdir (dir);
}

/* a second save that fails leaves the first checkpoint whole and loadable */
static void
test_checkpoint_failed_save (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = tmp_dir ();
  g_autofree char *path = g_build_filename (dir, "ckpt.safetensors", NULL);
  g_autofree char *before = NULL, *after = NULL;
  gsize len_before, len_after;
  Run a;

  run_init (&a);
  run_epoch (&a);
  {
    g_autoptr(GnnCheckpoint) ckpt = run_checkpoint (&a);
    g_assert_true (gnn_checkpoint_save (ckpt, path, &error));
    g_assert_no_error (error);
  }
  g_assert_true (g_file_get_contents (path, &before, &len_before, NULL));
  run_epoch (&a);

  /* the directory read-only: the temporary file cannot be made (root ignores modes: then
   * only the state error below is checked) */
  g_assert_cmpint (g_chmod (dir, 0500), ==, 0);
  if (access (dir, W_OK) != 0)
    {
      g_autoptr(GnnCheckpoint) ckpt = run_checkpoint (&a);
      g_assert_false (gnn_checkpoint_save (ckpt, path, &error));
      g_assert_nonnull (error);
      g_clear_error (&error);
    }
  g_assert_cmpint (g_chmod (dir, 0700), ==, 0);

  /* a state that errors: a model whose setup failed (3 groups of 4 channels) */
  {
    g_autoptr(GnnCheckpoint) ckpt = run_checkpoint (&a);
    g_autoptr(GnnModule) bad = g_object_new (GNN_TYPE_GROUP_NORM, "num-groups", 3, "num-channels", 4, NULL);

    gnn_checkpoint_set_model (ckpt, bad);
    g_assert_false (gnn_checkpoint_save (ckpt, path, &error));
    g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
    g_clear_error (&error);
    g_assert_true (g_file_get_contents (path, &after, &len_after, NULL));
    g_assert_cmpmem (before, len_before, after, len_after);
    g_clear_pointer (&after, g_free);
  }
  /* a path whose directory is missing: the save fails, nothing is created */
  {
    g_autoptr(GnnCheckpoint) ckpt = run_checkpoint (&a);
    g_autofree char *bad_path = g_build_filename (dir, "missing", "ckpt.safetensors", NULL);
    g_assert_false (gnn_checkpoint_save (ckpt, bad_path, &error));
    g_assert_error (error, G_FILE_ERROR, G_FILE_ERROR_NOENT);
    g_clear_error (&error);
  }
  {
    Run b;
    run_init (&b);
    {
      g_autoptr(GnnCheckpoint) ckpt = run_checkpoint (&b);
      g_assert_true (gnn_checkpoint_load (ckpt, path, &error));
      g_assert_no_error (error);
    }
    run_clear (&b);
  }
  g_assert_true (g_file_get_contents (path, &after, &len_after, NULL));
  g_assert_cmpmem (before, len_before, after, len_after);

  /* no temporary files left behind */
  {
    g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
    const char *name;
    guint n = 0;
    while ((name = g_dir_read_name (d)))
      n++;
    g_assert_cmpuint (n, ==, 1);
  }
  run_clear (&a);
  g_unlink (path);
  g_rmdir (dir);
}

/* every prefix of a small checkpoint is refused, and leaves the objects unchanged */
static void
test_checkpoint_truncated (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = tmp_dir ();
  g_autofree char *path = g_build_filename (dir, "ckpt.safetensors", NULL);
  g_autofree char *cut = g_build_filename (dir, "cut.safetensors", NULL);
  g_autofree char *data = NULL;
  gsize len;
  g_autoptr(GnnModule) model = NULL, before = NULL;
  g_autoptr(GnnCheckpoint) ckpt = gnn_checkpoint_new ();
  g_autoptr(GnnParamGroup) group = NULL;
  g_autoptr(GnnOptimizer) opt = NULL;
  g_autoptr(GnnGenerator) gen = gnn_generator_new (5);
  GnnModule *layers[2];

  layers[0] = GNN_MODULE (gnn_linear_new (2, 2, TRUE, &error));
  layers[1] = GNN_MODULE (gnn_batch_norm1d_new (2, &error));
  g_assert_no_error (error);
  model = GNN_MODULE (gnn_sequential_new (layers, 2));
  g_object_unref (layers[0]);
  g_object_unref (layers[1]);
  group = gnn_param_group_new_from_module (model);
  opt = GNN_OPTIMIZER (gnn_sgd_new (group, 0.1, 0.9, 0.0, 0.0, FALSE, FALSE, &error));
  g_assert_no_error (error);
  gnn_checkpoint_set_model (ckpt, model);
  gnn_checkpoint_set_optimizer (ckpt, opt);
  gnn_checkpoint_set_generator (ckpt, gen);
  gnn_checkpoint_set_metadata (ckpt, "epoch", "1");
  g_assert_true (gnn_checkpoint_save (ckpt, path, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (path, &data, &len, NULL));

  before = gnn_module_copy (model, &error);
  g_assert_no_error (error);
  gnn_generator_manual_seed (gen, 77);
  for (gsize n = 0; n < len; n++)
    {
      g_autoptr(GnnModule) m = NULL;

      g_assert_true (g_file_set_contents_full (cut, data, n, G_FILE_SET_CONTENTS_NONE, 0600, NULL));
      g_assert_false (gnn_checkpoint_load (ckpt, cut, &error));
      g_assert_error (error, GNN_ERROR, GNN_ERROR_FILE_FORMAT);
      g_clear_error (&error);
      m = gnn_checkpoint_load_model (cut, &error);
      g_assert_null (m);
      g_assert_error (error, GNN_ERROR, GNN_ERROR_FILE_FORMAT);
      g_clear_error (&error);
    }
  assert_same_state (before, model);
  g_assert_cmpuint (gnn_generator_get_seed (gen), ==, 77);
  g_assert_cmpstr (gnn_checkpoint_get_metadata (ckpt, "epoch"), ==, "1");

  /* a plain safetensors file is not a checkpoint */
  {
    g_autoptr(GnnStateDict) sd = gnn_module_state_dict (model, NULL, FALSE, &error);
    g_assert_true (gnn_safetensors_save (sd, NULL, cut, &error));
    g_assert_false (gnn_checkpoint_load (ckpt, cut, &error));
    g_assert_error (error, GNN_ERROR, GNN_ERROR_FILE_FORMAT);
    g_assert_nonnull (strstr (error->message, "gnn.checkpoint"));
    g_clear_error (&error);
  }

  /* the whole file loads */
  g_assert_true (gnn_checkpoint_load (ckpt, path, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (gnn_generator_get_seed (gen), ==, 5);
  g_unlink (path);
  g_unlink (cut);
  g_rmdir (dir);
}

/* ---- parameters added by hand, object-valued properties ------------------------------- */

static GnnParameter *
param_of (const gint64 *shape, guint ndim, GnnDtype dtype, double value, gboolean requires_grad)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) t = gnn_tensor_new_full (shape, ndim, value, dtype, NULL, &error);
  GnnParameter *p;

  g_assert_no_error (error);
  p = gnn_parameter_new (t, requires_grad, &error);
  g_assert_no_error (error);
  return p;
}

/* A dict holding a ParameterList, a ParameterDict, a Linear, and a hand-registered buffer:
 * rebuilt from its JSON, it has the same parameters (shapes, dtypes, requires-grad), and its
 * state dict loads. */
static void
test_json_parameter_containers (void)
{
  g_autoptr(GError) error = NULL;
  gint64 s34[] = { 3, 4 }, s5[] = { 5 }, s22[] = { 2, 2 };
  g_autoptr(GnnParameter) p0 = param_of (s34, 2, GNN_DTYPE_FLOAT32, 1.5, TRUE);
  g_autoptr(GnnParameter) p1 = param_of (s5, 1, GNN_DTYPE_FLOAT64, -2.0, FALSE);
  g_autoptr(GnnParameter) alpha = param_of (s22, 2, GNN_DTYPE_FLOAT32, 3.0, TRUE);
  g_autoptr(GnnParameter) beta = param_of (NULL, 0, GNN_DTYPE_FLOAT32, 0.25, TRUE);
  GnnParameter *list_params[] = { p0, p1 };
  g_autoptr(GnnParameterList) plist = gnn_parameter_list_new (list_params, 2);
  g_autoptr(GnnParameterDict) pdict = gnn_parameter_dict_new ();
  g_autoptr(GnnModuleDict) model = gnn_module_dict_new ();
  g_autoptr(GnnLinear) lin = gnn_linear_new (4, 2, TRUE, &error);
  g_autoptr(GnnTensor) scale = gnn_tensor_new_full (s5, 1, 7.0, GNN_DTYPE_FLOAT32, NULL, &error);
  g_autoptr(GnnModule) back = NULL;
  g_autoptr(GnnStateDict) sd = NULL;
  g_autofree char *json = NULL;

  g_assert_no_error (error);
  g_assert_true (gnn_parameter_dict_set (pdict, "alpha", GNN_TENSOR (alpha), &error));
  g_assert_true (gnn_parameter_dict_set (pdict, "beta", GNN_TENSOR (beta), &error));
  g_assert_true (gnn_module_dict_set (model, "plist", GNN_MODULE (plist), &error));
  g_assert_true (gnn_module_dict_set (model, "pdict", GNN_MODULE (pdict), &error));
  g_assert_true (gnn_module_dict_set (model, "lin", GNN_MODULE (lin), &error));
  g_assert_true (gnn_module_register_buffer (GNN_MODULE (model), "scale", scale, FALSE, &error));
  g_assert_true (gnn_module_register_parameter (GNN_MODULE (lin), "extra", NULL, &error));
  g_assert_no_error (error);

  check_json_round_trip (GNN_MODULE (model));
  check_json_round_trip (GNN_MODULE (plist));
  check_json_round_trip (GNN_MODULE (pdict));

  json = gnn_module_to_json (GNN_MODULE (model), FALSE, &error);
  g_assert_no_error (error);
  g_assert_nonnull (strstr (json, "\"parameters\":[{\"name\":\"0\",\"shape\":[3,4],\"dtype\":\"float32\",\"requires-grad\":true}"));
  back = gnn_module_new_from_json (json, -1, &error);
  g_assert_no_error (error);

  /* the rebuilt tensors: zeros of the saved shapes, dtypes and requires-grad */
  {
    GnnModule *bl = gnn_module_get_submodule (back, "plist", &error);
    GnnParameter *q0, *q1;

    g_assert_no_error (error);
    g_assert_true (GNN_IS_PARAMETER_LIST (bl));
    g_assert_cmpuint (gnn_parameter_list_get_length (GNN_PARAMETER_LIST (bl)), ==, 2);
    q0 = gnn_parameter_list_get (GNN_PARAMETER_LIST (bl), 0, &error);
    q1 = gnn_parameter_list_get (GNN_PARAMETER_LIST (bl), 1, &error);
    g_assert_no_error (error);
    g_assert_cmpint (gnn_tensor_get_dtype (GNN_TENSOR (q1)), ==, GNN_DTYPE_FLOAT64);
    g_assert_true (gnn_tensor_get_requires_grad (GNN_TENSOR (q0)));
    g_assert_false (gnn_tensor_get_requires_grad (GNN_TENSOR (q1)));
    {
      g_autoptr(GBytes) bytes = gnn_tensor_get_bytes (GNN_TENSOR (q1), &error);
      gsize len;
      const guint8 *d = g_bytes_get_data (bytes, &len);

      g_assert_cmpuint (len, ==, 5 * sizeof (double));
      for (gsize i = 0; i < len; i++)
        g_assert_cmpuint (d[i], ==, 0);
    }
  }

  /* the state dict loads strictly, and gives the same tensors */
  sd = gnn_module_state_dict (GNN_MODULE (model), NULL, FALSE, &error);
  g_assert_no_error (error);
  g_assert_true (gnn_module_load_state_dict (back, sd, TRUE, FALSE, NULL, NULL, &error));
  g_assert_no_error (error);
  assert_same_state (GNN_MODULE (model), back);

  /* the non-persistent buffer is rebuilt, though not in the state dict */
  {
    g_autoptr(GPtrArray) bufs = NULL;
    g_auto(GStrv) names = NULL;

    bufs = gnn_module_named_buffers (back, NULL, TRUE, TRUE, &names);
    g_assert_cmpstr (names[0], ==, "scale");
    g_assert_false (gnn_state_dict_contains (sd, "scale"));
  }

  /* a parameter made by setup that the JSON describes otherwise */
  {
    static const char *bad[] = {
      "{\"type\": \"GnnLinear\", \"properties\": {\"in-features\": 4, \"out-features\": 2}, "
      "\"parameters\": [{\"name\": \"weight\", \"shape\": [2, 5], \"dtype\": \"float32\"}]}",
      "{\"type\": \"GnnLinear\", \"properties\": {\"in-features\": 4, \"out-features\": 2}, "
      "\"parameters\": [{\"name\": \"weight\", \"shape\": [2, 4], \"dtype\": \"float64\"}]}",
      "{\"type\": \"GnnParameterList\", \"parameters\": [{\"name\": \"0\", \"shape\": [-1], \"dtype\": \"float32\"}]}",
      "{\"type\": \"GnnParameterList\", \"parameters\": [{\"name\": \"0\", \"shape\": [1], \"dtype\": \"float99\"}]}",
      "{\"type\": \"GnnParameterList\", \"parameters\": {}}",
      "{\"type\": \"GnnParameterDict\", \"parameters\": [{\"name\": \"a\", \"shape\": [1], \"dtype\": \"float32\"},"
      " {\"name\": \"a\", \"shape\": [1], \"dtype\": \"float32\"}]}",
    };
    static const char *needles[] = {
      "made parameter 'weight' of shape [2, 4] and dtype float32, the JSON says shape [2, 5]",
      "the JSON says shape [2, 4] and dtype float64",
      "expected \"shape\" to hold sizes",
      "found 'float99'",
      "expected \"parameters\" to be an array, found an object",
      "appears twice",
    };
    for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
      {
        g_autoptr(GnnModule) m = gnn_module_new_from_json (bad[i], -1, &error);
        g_assert_null (m);
        g_assert_error (error, GNN_ERROR, GNN_ERROR_FILE_FORMAT);
        if (!strstr (error->message, needles[i]))
          g_error ("'%s' lacks '%s'", error->message, needles[i]);
        g_clear_error (&error);
      }
  }
}

/* a module with a property holding any GObject */
typedef struct { GnnModule parent_instance; GObject *other; } TestObjHolder;
typedef struct { GnnModuleClass parent_class; } TestObjHolderClass;
G_DEFINE_TYPE (TestObjHolder, test_obj_holder, GNN_TYPE_MODULE)

static void
test_obj_holder_set_property (GObject *o, guint id, const GValue *v, GParamSpec *ps)
{
  g_set_object (&((TestObjHolder *) o)->other, g_value_get_object (v));
}

static void
test_obj_holder_get_property (GObject *o, guint id, GValue *v, GParamSpec *ps)
{
  g_value_set_object (v, ((TestObjHolder *) o)->other);
}

static void
test_obj_holder_dispose (GObject *o)
{
  g_clear_object (&((TestObjHolder *) o)->other);
  G_OBJECT_CLASS (test_obj_holder_parent_class)->dispose (o);
}

static void
test_obj_holder_class_init (TestObjHolderClass *klass)
{
  GObjectClass *oc = G_OBJECT_CLASS (klass);

  oc->set_property = test_obj_holder_set_property;
  oc->get_property = test_obj_holder_get_property;
  oc->dispose = test_obj_holder_dispose;
  g_object_class_install_property (oc, 1, g_param_spec_object ("other", NULL, NULL, G_TYPE_OBJECT,
                                                               G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS));
}

static void
test_obj_holder_init (TestObjHolder *self)
{
}

static GnnTensor *
dummy_avg (GnnTensor *averaged, GnnTensor *current, GnnTensor *n, gpointer data)
{
  return g_object_ref (current);
}

static void
test_json_object_properties (void)
{
  g_autoptr(GError) error = NULL;
  gint64 s3[] = { 3 };
  float w[] = { 0.5f, 2.0f, -1.0f };

  /* a loss's weight tensor: its values are in the JSON, the rebuilt loss has them */
  {
    g_autoptr(GnnTensor) weight = gnn_tensor_new_from_floats (w, 3, s3, 1, &error);
    g_autoptr(GnnBCELoss) loss = gnn_bce_loss_new (weight, GNN_REDUCTION_SUM);
    g_autofree char *json = NULL;
    g_autoptr(GnnModule) back = NULL;
    g_autoptr(GBytes) a = NULL, b = NULL;

    g_assert_no_error (error);
    check_json_round_trip (GNN_MODULE (loss));
    json = gnn_module_to_json (GNN_MODULE (loss), FALSE, &error);
    g_assert_no_error (error);
    g_assert_nonnull (strstr (json, "\"weight\":{\"tensor\":{\"dtype\":\"float32\",\"shape\":[3],\"data\":"));
    back = gnn_module_new_from_json (json, -1, &error);
    g_assert_no_error (error);
    a = gnn_tensor_get_bytes (weight, NULL);
    b = gnn_tensor_get_bytes (gnn_bce_loss_get_weight (GNN_BCE_LOSS (back)), NULL);
    g_assert_true (g_bytes_equal (a, b));
    assert_same_state (GNN_MODULE (loss), back);
  }
  /* every loss with a tensor property */
  {
    g_autoptr(GnnTensor) weight = gnn_tensor_new_from_floats (w, 3, s3, 1, &error);
    GType types[] = { GNN_TYPE_BCE_WITH_LOGITS_LOSS, GNN_TYPE_CROSS_ENTROPY_LOSS, GNN_TYPE_NLL_LOSS };

    g_assert_no_error (error);
    for (guint i = 0; i < G_N_ELEMENTS (types); i++)
      {
        g_autoptr(GnnModule) loss = i == 0 ? g_object_new (types[i], "weight", weight, "pos-weight", weight, NULL)
                                           : g_object_new (types[i], "weight", weight, NULL);
        g_autofree char *json = gnn_module_to_json (loss, FALSE, &error);
        g_autoptr(GnnModule) back = NULL;

        g_assert_no_error (error);
        check_json_round_trip (loss);
        back = gnn_module_new_from_json (json, -1, &error);
        g_assert_no_error (error);
        assert_same_state (loss, back);
      }
  }
  /* a loss without one: null */
  {
    g_autoptr(GnnBCELoss) loss = gnn_bce_loss_new (NULL, GNN_REDUCTION_MEAN);
    g_autofree char *json = gnn_module_to_json (GNN_MODULE (loss), FALSE, &error);

    g_assert_no_error (error);
    g_assert_nonnull (strstr (json, "\"weight\":null"));
    check_json_round_trip (GNN_MODULE (loss));
  }
  /* an EMA function is carried; a callback is refused, naming the property */
  {
    g_autoptr(GnnModule) model = make_model ();
    g_autoptr(GnnAverageFunction) ema = gnn_average_function_new_ema_multi (0.75, &error);
    g_autoptr(GnnAverageFunction) cb = gnn_average_function_new_callback (dummy_avg, NULL, NULL);
    g_autoptr(GnnAveragedModel) a = gnn_averaged_model_new (model, NULL, NULL, ema, FALSE, &error);
    g_autoptr(GnnAveragedModel) c = gnn_averaged_model_new (model, NULL, cb, NULL, FALSE, &error);
    g_autofree char *json = NULL, *none = NULL;
    g_autoptr(GnnModule) back = NULL;
    GnnAverageFunction *fn;

    g_assert_no_error (error);
    check_json_round_trip (GNN_MODULE (a));
    json = gnn_module_to_json (GNN_MODULE (a), FALSE, &error);
    g_assert_no_error (error);
    back = gnn_module_new_from_json (json, -1, &error);
    g_assert_no_error (error);
    fn = gnn_averaged_model_get_multi_avg_fn (GNN_AVERAGED_MODEL (back));
    g_assert_nonnull (fn);
    g_assert_true (gnn_average_function_get_multi (fn));
    g_assert_cmpfloat (gnn_average_function_get_decay (fn), ==, 0.75);
    g_assert_null (gnn_averaged_model_get_avg_fn (GNN_AVERAGED_MODEL (back)));

    none = gnn_module_to_json (GNN_MODULE (c), FALSE, &error);
    g_assert_null (none);
    g_assert_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED);
    g_assert_nonnull (strstr (error->message, "GnnAveragedModel:avg-fn"));
    g_clear_error (&error);
  }
  /* any other object: refused with the property named, in a tree too; null is carried */
  {
    g_autoptr(GnnGenerator) gen = gnn_generator_new (1);
    g_autoptr(GnnModule) holder = g_object_new (test_obj_holder_get_type (), "other", gen, NULL);
    g_autoptr(GnnModuleList) list = NULL;
    g_autofree char *json = NULL;
    g_autoptr(GnnCheckpoint) ckpt = gnn_checkpoint_new ();
    g_autofree char *dir = tmp_dir ();
    g_autofree char *path = g_build_filename (dir, "ckpt.safetensors", NULL);
    GnnModule *one[1];

    one[0] = holder;
    list = gnn_module_list_new (one, 1);
    json = gnn_module_to_json (GNN_MODULE (list), FALSE, &error);
    g_assert_null (json);
    g_assert_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED);
    g_assert_nonnull (strstr (error->message, "TestObjHolder:other holds a GnnGenerator"));
    g_clear_error (&error);
    /* nor is a checkpoint of it written */
    gnn_checkpoint_set_model (ckpt, GNN_MODULE (list));
    g_assert_false (gnn_checkpoint_save (ckpt, path, &error));
    g_assert_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED);
    g_clear_error (&error);
    g_assert_false (g_file_test (path, G_FILE_TEST_EXISTS));
    g_rmdir (dir);

    g_object_set (holder, "other", NULL, NULL);
    check_json_round_trip (GNN_MODULE (list));

    /* reading: a tensor where an average function is expected, bad base64 sizes */
    {
      static const char *bad[] = {
        "{\"type\": \"GnnBCELoss\", \"properties\": {\"weight\": {\"tensor\": {\"dtype\": \"float32\", "
        "\"shape\": [2], \"data\": \"AAAA\"}}}}",
        "{\"type\": \"GnnBCELoss\", \"properties\": {\"weight\": {\"average-function\": \"ema\", \"decay\": 0.5}}}",
        "{\"type\": \"GnnBCELoss\", \"properties\": {\"weight\": 3}}",
        "{\"type\": \"GnnAveragedModel\", \"properties\": {\"avg-fn\": {\"average-function\": \"ema\", \"decay\": 2}}}",
      };
      static const char *needles[] = {
        "expected 8 bytes of data for the shape and dtype, found 3",
        "property 'weight' expects a GnnTensor, found an average function",
        "property 'weight' expects an object",
        "Invalid decay value 2",
      };
      for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
        {
          g_autoptr(GnnModule) m = gnn_module_new_from_json (bad[i], -1, &error);
          g_assert_null (m);
          g_assert_nonnull (error);
          if (!strstr (error->message, needles[i]))
            g_error ("'%s' lacks '%s'", error->message, needles[i]);
          g_clear_error (&error);
        }
    }
  }
}

/* ---- training flags --------------------------------------------------------------------- */

static void
assert_flags (GnnModule *m, const char *const *eval_paths)
{
  g_auto(GStrv) names = NULL;
  g_autoptr(GPtrArray) mods = gnn_module_named_modules (m, NULL, FALSE, &names);

  for (guint i = 0; i < mods->len; i++)
    {
      gboolean want = !g_strv_contains (eval_paths, names[i]);
      if (gnn_module_get_training (mods->pdata[i]) != want)
        g_error ("module '%s': training is %d, expected %d", names[i], !want, want);
    }
}

static void
test_checkpoint_training_flags (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = tmp_dir ();
  g_autofree char *path = g_build_filename (dir, "ckpt.safetensors", NULL);
  static const char *const model_eval[] = { "1", "3", NULL };
  static const char *const ema_eval[] = { "", "module.2", NULL };
  static const char *const none[] = { NULL };
  Run a, b;

  run_init (&a);
  run_epoch (&a);
  gnn_module_set_training (gnn_module_get_submodule (a.model, "1", NULL), FALSE);
  gnn_module_set_training (gnn_module_get_submodule (a.model, "3", NULL), FALSE);
  gnn_module_set_training (GNN_MODULE (a.ema), FALSE);
  gnn_module_set_training (gnn_module_get_submodule (GNN_MODULE (a.ema), "module", NULL), TRUE);
  gnn_module_set_training (gnn_module_get_submodule (GNN_MODULE (a.ema), "module.2", NULL), FALSE);
  assert_flags (a.model, model_eval);
  assert_flags (GNN_MODULE (a.ema), ema_eval);
  {
    g_autoptr(GnnCheckpoint) ckpt = run_checkpoint (&a);
    g_assert_true (gnn_checkpoint_save (ckpt, path, &error));
    g_assert_no_error (error);
  }

  /* fresh objects, all training: loading sets the saved flags */
  run_init (&b);
  assert_flags (b.model, none);
  {
    g_autoptr(GnnCheckpoint) ckpt = run_checkpoint (&b);
    g_assert_true (gnn_checkpoint_load (ckpt, path, &error));
    g_assert_no_error (error);
  }
  assert_flags (b.model, model_eval);
  assert_flags (GNN_MODULE (b.ema), ema_eval);
  /* the model alone, rebuilt from the file, too */
  {
    g_autoptr(GnnModule) m = gnn_checkpoint_load_model (path, &error);
    g_assert_no_error (error);
    assert_flags (m, model_eval);
  }

  /* saved all training, loaded into objects in eval mode */
  gnn_module_set_training (a.model, TRUE);
  gnn_module_set_training (GNN_MODULE (a.ema), TRUE);
  {
    g_autoptr(GnnCheckpoint) ckpt = run_checkpoint (&a);
    g_assert_true (gnn_checkpoint_save (ckpt, path, &error));
    g_assert_no_error (error);
  }
  gnn_module_eval (b.model);
  gnn_module_eval (GNN_MODULE (b.ema));
  {
    g_autoptr(GnnCheckpoint) ckpt = run_checkpoint (&b);
    g_assert_true (gnn_checkpoint_load (ckpt, path, &error));
    g_assert_no_error (error);
  }
  assert_flags (b.model, none);
  assert_flags (GNN_MODULE (b.ema), none);

  /* a failed load changes no flag */
  gnn_module_eval (b.model);
  {
    g_autoptr(GnnCheckpoint) ckpt = run_checkpoint (&b);
    g_autoptr(GnnStepLR) step = gnn_step_lr_new (b.opt, 2, 0.5, -1, &error);
    static const char *const all_eval[] = { "", "0", "1", "2", "3", NULL };

    g_assert_no_error (error);
    gnn_checkpoint_set_scheduler (ckpt, GNN_LR_SCHEDULER (step));
    g_assert_false (gnn_checkpoint_load (ckpt, path, &error));
    g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
    g_clear_error (&error);
    assert_flags (b.model, all_eval);
  }
  run_clear (&a);
  run_clear (&b);
  g_unlink (path);
  g_rmdir (dir);
}

/* ---- a save killed midway ---------------------------------------------------------------- */

static char *test_program;

/* how much of the big checkpoint the writer may write before it stops (RLIMIT_FSIZE) */
#define KILL_LIMIT (16 << 20)
/* its size: a parameter of 48M floats, 192 MB */
#define BIG_ELEMENTS ((gint64) 48 << 20)

static void
on_file_size_limit (int sig)
{
  /* the save is midway: its temporary file holds KILL_LIMIT bytes; wait to be killed */
  raise (SIGSTOP);
  _exit (4);
}

/* The writer (this program run with --checkpoint-writer PATH): saves a big checkpoint to
 * PATH, and stops itself, with SIGSTOP, when the file-size limit set here cuts the write
 * short, so that the parent kills it at a known point of the save. */
static int
checkpoint_writer (const char *path)
{
  g_autoptr(GError) error = NULL;
  gint64 shape[] = { BIG_ELEMENTS };
  g_autoptr(GnnParameter) big = param_of (shape, 1, GNN_DTYPE_FLOAT32, 0.5, TRUE);
  GnnParameter *params[] = { big };
  g_autoptr(GnnParameterList) model = gnn_parameter_list_new (params, 1);
  g_autoptr(GnnCheckpoint) ckpt = gnn_checkpoint_new ();
  struct rlimit limit = { KILL_LIMIT, KILL_LIMIT };
  struct sigaction sa = { 0 };

  gnn_checkpoint_set_model (ckpt, GNN_MODULE (model));
  gnn_checkpoint_set_metadata (ckpt, "epoch", "2");
  sa.sa_handler = on_file_size_limit;
  sigemptyset (&sa.sa_mask);
  if (sigaction (SIGXFSZ, &sa, NULL) != 0 || setrlimit (RLIMIT_FSIZE, &limit) != 0)
    return 2;
  gnn_checkpoint_save (ckpt, path, &error);
  /* not reached: the limit stops the save */
  return 3;
}

static void
test_checkpoint_killed_save (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = tmp_dir ();
  g_autofree char *path = g_build_filename (dir, "ckpt.safetensors", NULL);
  g_autofree char *before = NULL, *after = NULL, *stray = NULL;
  gsize len_before, len_after;
  const char *argv[] = { test_program, "--checkpoint-writer", path, NULL };
  GPid pid;
  int status;
  Run untouched, resumed;

  /* checkpoint A */
  run_init (&untouched);
  run_epoch (&untouched);
  {
    g_autoptr(GnnCheckpoint) ckpt = run_checkpoint (&untouched);
    gnn_checkpoint_set_metadata (ckpt, "epoch", "1");
    g_assert_true (gnn_checkpoint_save (ckpt, path, &error));
    g_assert_no_error (error);
  }
  g_assert_true (g_file_get_contents (path, &before, &len_before, NULL));

  /* another process saves the big checkpoint B over it, and is killed midway */
  g_assert_true (g_spawn_async (NULL, (char **) argv, NULL,
                                G_SPAWN_DO_NOT_REAP_CHILD | G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL, &pid,
                                &error));
  g_assert_no_error (error);
  g_assert_cmpint (waitpid (pid, &status, WUNTRACED), ==, pid);
  if (!WIFSTOPPED (status))
    g_error ("the writer did not stop midway: status 0x%x", status);
  {
    g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
    const char *name;
    GStatBuf st;

    while ((name = g_dir_read_name (d)))
      if (!g_str_equal (name, "ckpt.safetensors"))
        {
          g_assert_null (stray);
          stray = g_build_filename (dir, name, NULL);
          /* hidden, and not named as a checkpoint */
          g_assert_true (g_str_has_prefix (name, ".ckpt.safetensors."));
          g_assert_true (g_str_has_suffix (name, ".partial"));
          g_assert_cmpuint (strlen (name), ==, strlen (".ckpt.safetensors.XXXXXX.partial"));
        }
    g_assert_nonnull (stray);
    g_assert_cmpint (g_stat (stray, &st), ==, 0);
    g_assert_cmpint (st.st_size, ==, KILL_LIMIT);     /* partly written */
  }
  g_assert_cmpint (kill (pid, SIGKILL), ==, 0);
  g_assert_cmpint (waitpid (pid, &status, 0), ==, pid);
  g_assert_true (WIFSIGNALED (status));
  g_assert_cmpint (WTERMSIG (status), ==, SIGKILL);
  g_spawn_close_pid (pid);

  /* the path holds A, byte for byte */
  g_assert_true (g_file_get_contents (path, &after, &len_after, NULL));
  g_assert_cmpmem (before, len_before, after, len_after);
  /* the stray temporary file is not a checkpoint */
  {
    g_autoptr(GnnCheckpoint) ckpt = gnn_checkpoint_new ();
    g_assert_false (gnn_checkpoint_load (ckpt, stray, &error));
    g_assert_error (error, GNN_ERROR, GNN_ERROR_FILE_FORMAT);
    g_clear_error (&error);
  }

  /* A loads into fresh objects, and training resumes as from the untouched ones */
  run_init (&resumed);
  gnn_generator_manual_seed (resumed.gen, 999);
  {
    g_autoptr(GnnCheckpoint) ckpt = run_checkpoint (&resumed);
    g_assert_true (gnn_checkpoint_load (ckpt, path, &error));
    g_assert_no_error (error);
    g_assert_cmpstr (gnn_checkpoint_get_metadata (ckpt, "epoch"), ==, "1");
  }
  assert_same_state (untouched.model, resumed.model);
  run_epoch (&untouched);
  run_epoch (&resumed);
  assert_same_state (untouched.model, resumed.model);
  assert_same_state (GNN_MODULE (untouched.ema), GNN_MODULE (resumed.ema));
  g_assert_cmpuint (gnn_generator_get_offset (untouched.gen), ==, gnn_generator_get_offset (resumed.gen));
  {
    guint n1, n2;
    g_autofree double *a = gnn_lr_scheduler_get_last_lr (untouched.sched, &n1);
    g_autofree double *b = gnn_lr_scheduler_get_last_lr (resumed.sched, &n2);
    g_assert_cmpuint (n1, ==, n2);
    g_assert_cmpmem (a, n1 * sizeof (double), b, n2 * sizeof (double));
  }

  /* the next save goes through, beside the stray file */
  {
    g_autoptr(GnnCheckpoint) ckpt = run_checkpoint (&resumed);
    g_assert_true (gnn_checkpoint_save (ckpt, path, &error));
    g_assert_no_error (error);
  }
  run_clear (&untouched);
  run_clear (&resumed);
  g_assert_cmpint (g_unlink (stray), ==, 0);
  g_assert_cmpint (g_unlink (path), ==, 0);
  g_assert_cmpint (g_rmdir (dir), ==, 0);
}

int
main (int argc, char **argv)
{
  if (argc == 3 && g_str_equal (argv[1], "--checkpoint-writer"))
    return checkpoint_writer (argv[2]);
  /* the writer is this program: by /proc/self/exe, which also works when argv[0] is bare */
  test_program = g_file_read_link ("/proc/self/exe", NULL);
  if (test_program == NULL)
    test_program = argv[0];
  gnn_test_init (&argc, &argv);
  g_test_add_func ("/module-json/layers", test_json_layers);
  g_test_add_func ("/module-json/averaged", test_json_averaged);
  g_test_add_func ("/module-json/errors", test_json_errors);
  g_test_add_func ("/checkpoint/resume", test_checkpoint_resume);
  g_test_add_func ("/checkpoint/mismatch", test_checkpoint_mismatch);
  g_test_add_func ("/checkpoint/failed-save", test_checkpoint_failed_save);
  g_test_add_func ("/checkpoint/truncated", test_checkpoint_truncated);
  g_test_add_func ("/module-json/parameter-containers", test_json_parameter_containers);
  g_test_add_func ("/module-json/object-properties", test_json_object_properties);
  g_test_add_func ("/checkpoint/training-flags", test_checkpoint_training_flags);
  g_test_add_func ("/checkpoint/killed-save", test_checkpoint_killed_save);
  return g_test_run ();
}
