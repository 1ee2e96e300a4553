/* test-module-json.c: the module JSON and checkpoints of modules whose tensors are computed:
 * parametrized (orthogonal, spectral_norm, weight_norm, a chain), pruned (one method and a
 * container), the hook-based weight_norm and spectral_norm; round trips give the same JSON,
 * the same state-dict keys and the same outputs bit for bit, and hostile files are errors
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>

#include "gnn-test-util.h"

typedef enum {
  CASE_ORTHOGONAL,
  CASE_SPECTRAL,
  CASE_WEIGHT_NORM,
  CASE_CHAIN,
  CASE_PRUNE,
  CASE_PRUNE_TWICE,
  CASE_HOOK_WEIGHT_NORM,
  CASE_HOOK_SPECTRAL,
  CASE_PRUNE_LN_CUSTOM,
} Case;

/* the state-dict keys torch 1.13 gives for the same model (nn.Sequential (nn.Linear (4, 4),
 * nn.Tanh (), nn.Linear (4, 3)) with the feature on the first layer's weight) */
static const char *const keys_of[][7] = {
  [CASE_ORTHOGONAL] = { "0.bias", "0.parametrizations.weight.original", "0.parametrizations.weight.0.base",
                        "2.weight", "2.bias", NULL },
  [CASE_SPECTRAL] = { "0.bias", "0.parametrizations.weight.original", "0.parametrizations.weight.0._u",
                      "0.parametrizations.weight.0._v", "2.weight", "2.bias", NULL },
  [CASE_WEIGHT_NORM] = { "0.bias", "0.parametrizations.weight.original0", "0.parametrizations.weight.original1",
                         "2.weight", "2.bias", NULL },
  [CASE_CHAIN] = { "0.bias", "0.parametrizations.weight.original", "0.parametrizations.weight.1._u",
                   "0.parametrizations.weight.1._v", "2.weight", "2.bias", NULL },
  [CASE_PRUNE] = { "0.bias", "0.weight_orig", "0.weight_mask", "2.weight", "2.bias", NULL },
  [CASE_PRUNE_TWICE] = { "0.bias", "0.weight_orig", "0.weight_mask", "2.weight", "2.bias", NULL },
  [CASE_HOOK_WEIGHT_NORM] = { "0.bias", "0.weight_g", "0.weight_v", "2.weight", "2.bias", NULL },
  [CASE_HOOK_SPECTRAL] = { "0.bias", "0.weight_orig", "0.weight_u", "0.weight_v", "2.weight", "2.bias", NULL },
  [CASE_PRUNE_LN_CUSTOM] = { "0.bias", "0.weight_orig", "0.weight_mask", "2.weight", "2.bias", NULL },
};

static GnnModule *
make_model (Case c)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnLinear) a = gnn_linear_new (4, 4, TRUE, &error);
  g_autoptr(GnnTanh) t = gnn_tanh_new ();
  g_autoptr(GnnLinear) b = gnn_linear_new (4, 3, TRUE, &error);
  GnnModule *first = GNN_MODULE (a);
  GnnModule *layers[3] = { first, GNN_MODULE (t), GNN_MODULE (b) };
  gboolean ok = TRUE;

  g_assert_no_error (error);
  switch (c)
    {
    case CASE_ORTHOGONAL:
      ok = gnn_orthogonal (first, "weight", NULL, TRUE, &error);
      break;
    case CASE_SPECTRAL:
      ok = gnn_spectral_norm (first, "weight", 2, 1e-12, 0, &error);
      break;
    case CASE_WEIGHT_NORM:
      ok = gnn_parametrizations_weight_norm (first, "weight", 0, &error);
      break;
    case CASE_CHAIN:
      ok = gnn_orthogonal (first, "weight", "householder", FALSE, &error) &&
           gnn_spectral_norm (first, "weight", 1, 1e-6, 0, &error);
      break;
    case CASE_PRUNE:
      {
        g_autoptr(GnnL1Unstructured) m = gnn_l1_unstructured_new (5, TRUE, &error);
        ok = m && gnn_prune_apply (first, "weight", GNN_BASE_PRUNING_METHOD (m), NULL, &error) != NULL;
      }
      break;
    case CASE_PRUNE_TWICE:
      {
        g_autoptr(GnnL1Unstructured) m = gnn_l1_unstructured_new (0.25, FALSE, &error);
        g_autoptr(GnnRandomStructured) s = gnn_random_structured_new (1, TRUE, 0, &error);
        ok = m && s && gnn_prune_apply (first, "weight", GNN_BASE_PRUNING_METHOD (m), NULL, &error) &&
             gnn_prune_apply (first, "weight", GNN_BASE_PRUNING_METHOD (s), NULL, &error);
      }
      break;
    case CASE_PRUNE_LN_CUSTOM:
      {
        g_autoptr(GnnLnStructured) ln = gnn_ln_structured_new (1, TRUE, INFINITY, 1, &error);
        g_autoptr(GnnTensor) mask = gnn_tensor_new_from_floats (
          (float[]) { 1, 0, 1, 1, 1, 1, 0, 1, 1, 1, 1, 1, 0, 1, 1, 1 }, 16, (gint64[]) { 4, 4 }, 2, &error);
        g_autoptr(GnnCustomFromMask) custom = mask ? gnn_custom_from_mask_new (mask) : NULL;
        ok = ln && custom && gnn_prune_apply (first, "weight", GNN_BASE_PRUNING_METHOD (ln), NULL, &error) &&
             gnn_prune_apply (first, "weight", GNN_BASE_PRUNING_METHOD (custom), NULL, &error);
      }
      break;
    case CASE_HOOK_WEIGHT_NORM:
      ok = gnn_weight_norm (first, "weight", 0, &error);
      break;
    case CASE_HOOK_SPECTRAL:
      ok = gnn_spectral_norm_hook (first, "weight", 1, 1e-12, 0, &error);
      break;
    }
  g_assert_no_error (error);
  g_assert_true (ok);
  return GNN_MODULE (gnn_sequential_new (layers, 3));
}

static GnnTensor *
input (void)
{
  g_autoptr(GError) error = NULL;
  GnnTensor *x = gnn_tensor_new_randn ((gint64[]) { 5, 4 }, 2, NULL, GNN_DTYPE_FLOAT32, NULL, &error);

  g_assert_no_error (error);
  return x;
}

static GBytes *
output_bytes (GnnModule *m, GnnTensor *x)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnArgs) in = gnn_args_new_tensor (x);
  g_autoptr(GnnArgs) out = gnn_module_forward (m, in, &error);
  GBytes *bytes;

  g_assert_no_error (error);
  g_assert_nonnull (out);
  bytes = gnn_tensor_get_bytes (gnn_args_get_tensor (out, 0, NULL), &error);
  g_assert_no_error (error);
  return bytes;
}

static void
assert_keys (GnnModule *m, Case c)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnStateDict) sd = gnn_module_state_dict (m, NULL, FALSE, &error);
  g_auto(GStrv) keys = NULL;

  g_assert_no_error (error);
  keys = gnn_state_dict_get_keys (sd);
  g_assert_cmpstrv (keys, keys_of[c]);
}

/* @m and @back (its rebuild, the state loaded) give the same outputs twice (each forward
 * of a training spectral norm steps its power iteration) and the same JSON */
static void
assert_same (GnnModule *m, GnnModule *back, const char *json)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) x = input ();
  g_autofree char *again = NULL;

  for (int i = 0; i < 2; i++)
    {
      g_autoptr(GBytes) a = output_bytes (m, x);
      g_autoptr(GBytes) b = output_bytes (back, x);
      g_assert_true (g_bytes_equal (a, b));
    }
  again = gnn_module_to_json (back, FALSE, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (again, ==, json);
}

static void
test_round_trip (gconstpointer data)
{
  Case c = GPOINTER_TO_INT (data);
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnModule) m = make_model (c);
  g_autoptr(GnnModule) back = NULL;
  g_autoptr(GnnStateDict) sd = NULL;
  g_autofree char *json = NULL;

  assert_keys (m, c);
  json = gnn_module_to_json (m, FALSE, &error);
  g_assert_no_error (error);
  back = gnn_module_new_from_json (json, -1, &error);
  g_assert_no_error (error);
  g_assert_nonnull (back);
  assert_keys (back, c);
  sd = gnn_module_state_dict (m, NULL, FALSE, &error);
  g_assert_no_error (error);
  g_assert_true (gnn_module_load_state_dict (back, sd, TRUE, FALSE, NULL, NULL, &error));
  g_assert_no_error (error);
  assert_same (m, back, json);
  /* in eval mode too (no power iteration) */
  gnn_module_train (m, FALSE);
  gnn_module_train (back, FALSE);
  {
    g_autoptr(GnnTensor) x = input ();
    g_autoptr(GBytes) a = output_bytes (m, x);
    g_autoptr(GBytes) b = output_bytes (back, x);
    g_assert_true (g_bytes_equal (a, b));
  }
  if (c == CASE_PRUNE || c == CASE_PRUNE_TWICE || c == CASE_PRUNE_LN_CUSTOM)
    {
      GnnModule *first = gnn_module_get_submodule (back, "0", NULL);
      GnnBasePruningMethod *method = gnn_prune_get_method (first, "weight");

      g_assert_nonnull (method);
      g_assert_true (c == CASE_PRUNE ? GNN_IS_L1_UNSTRUCTURED (method) : GNN_IS_PRUNING_CONTAINER (method));
      if (c != CASE_PRUNE)
        g_assert_cmpuint (gnn_pruning_container_get_n_methods (GNN_PRUNING_CONTAINER (method)), ==, 2);
      if (c == CASE_PRUNE_LN_CUSTOM)
        {
          GnnBasePruningMethod *ln = gnn_pruning_container_get_method (GNN_PRUNING_CONTAINER (method), 0);
          double n = 0;

          g_assert_true (GNN_IS_LN_STRUCTURED (ln));
          g_object_get (ln, "n", &n, NULL);
          g_assert_cmpfloat (n, ==, INFINITY);
          g_assert_true (GNN_IS_CUSTOM_FROM_MASK (gnn_pruning_container_get_method (GNN_PRUNING_CONTAINER (method), 1)));
        }
      /* pruning further combines the same way on both */
      {
        GnnModule *mfirst = gnn_module_get_submodule (m, "0", NULL);
        g_autoptr(GnnL1Unstructured) a = gnn_l1_unstructured_new (1, TRUE, &error);
        g_autoptr(GnnL1Unstructured) b = gnn_l1_unstructured_new (1, TRUE, &error);
        g_autoptr(GnnTensor) x = input ();
        g_autoptr(GBytes) oa = NULL, ob = NULL;

        g_assert_nonnull (gnn_prune_apply (mfirst, "weight", GNN_BASE_PRUNING_METHOD (a), NULL, &error));
        g_assert_nonnull (gnn_prune_apply (first, "weight", GNN_BASE_PRUNING_METHOD (b), NULL, &error));
        g_assert_no_error (error);
        oa = output_bytes (m, x);
        ob = output_bytes (back, x);
        g_assert_true (g_bytes_equal (oa, ob));
        method = gnn_prune_get_method (first, "weight");
      }
      /* pruning stays removable */
      g_assert_true (gnn_prune_remove (first, "weight", &error));
      g_assert_no_error (error);
    }
}

static void
test_checkpoint (gconstpointer data)
{
  Case c = GPOINTER_TO_INT (data);
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnModule) m = make_model (c);
  g_autoptr(GnnCheckpoint) ckpt = gnn_checkpoint_new ();
  g_autoptr(GnnModule) back = NULL;
  g_autofree char *dir = g_dir_make_tmp ("gnn-module-json-XXXXXX", &error);
  g_autofree char *path = g_build_filename (dir, "model.safetensors", NULL);
  g_autofree char *json = NULL;

  g_assert_no_error (error);
  /* a step of training first, so that the state differs from any initialisation */
  {
    g_autoptr(GnnTensor) x = input ();
    g_autoptr(GBytes) b = output_bytes (m, x);
  }
  gnn_checkpoint_set_model (ckpt, m);
  g_assert_true (gnn_checkpoint_save (ckpt, path, &error));
  g_assert_no_error (error);
  /* a model with computed tensors is format 2, which a reader of format 1 refuses */
  {
    g_autoptr(GHashTable) meta = NULL;
    g_autoptr(GnnStateDict) st = gnn_safetensors_load (path, &meta, &error);

    g_assert_no_error (error);
    g_assert_cmpstr (g_hash_table_lookup (meta, "gnn.checkpoint"), ==, "2");
  }
  back = gnn_checkpoint_load_model (path, &error);
  g_assert_no_error (error);
  g_assert_nonnull (back);
  assert_keys (back, c);
  json = gnn_module_to_json (m, FALSE, &error);
  g_assert_no_error (error);
  assert_same (m, back, json);
  g_unlink (path);
  g_rmdir (dir);
}

/* a rebuild whose weights no state dict fills starts as the registration leaves a module:
 * the spectral norms' vectors drawn and iterated, the orthogonal weight orthogonal */
static void
test_fresh (gconstpointer data)
{
  Case c = GPOINTER_TO_INT (data);
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnModule) m = make_model (c);
  g_autofree char *json = gnn_module_to_json (m, FALSE, &error);
  g_autoptr(GnnModule) back = gnn_module_new_from_json (json, -1, &error);
  g_autoptr(GnnTensor) x = input ();
  g_autoptr(GBytes) out = NULL;
  gsize n;
  const float *v;

  g_assert_no_error (error);
  out = output_bytes (back, x);
  v = g_bytes_get_data (out, &n);
  for (gsize i = 0; i < n / sizeof (float); i++)
    g_assert_true (isfinite (v[i]));
  if (c == CASE_ORTHOGONAL)
    {
      GnnModule *first = gnn_module_get_submodule (back, "0", NULL);
      g_autoptr(GnnTensor) w = gnn_module_get_tensor (first, "weight", &error);
      g_autoptr(GnnTensor) wt = NULL, p = NULL;
      double eye[16] = { 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1 };

      g_assert_no_error (error);
      wt = gnn_tensor_t (w, &error);
      p = gnn_tensor_matmul (w, wt, &error);
      g_assert_no_error (error);
      gnn_test_assert_close (p, eye, 16, 1e-5, 1e-5);
    }
}

/* the JSON of @c's model, changed by @edit on the first layer's object */
typedef void (*Edit) (JsonObject *first);

static void
assert_refused (Case c, Edit edit, const char *expected)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnModule) m = make_model (c);
  g_autofree char *json = gnn_module_to_json (m, FALSE, &error);
  g_autoptr(JsonNode) root = json_from_string (json, NULL);
  JsonObject *first = json_object_get_object_member (
    json_array_get_object_element (json_object_get_array_member (json_node_get_object (root), "children"), 0),
    "module");
  g_autofree char *bad = NULL;
  g_autoptr(GnnModule) back = NULL;

  edit (first);
  bad = json_to_string (root, FALSE);
  back = gnn_module_new_from_json (bad, -1, &error);
  g_assert_null (back);
  g_assert_nonnull (error);
  g_test_message ("%s", error->message);
  g_assert_true (strstr (error->message, expected) != NULL);
}

/* the ParametrizationList of "parametrizations.weight" */
static JsonObject *
plist (JsonObject *first)
{
  JsonArray *children = json_object_get_array_member (first, "children");
  JsonObject *dict = NULL;

  for (guint i = 0; i < json_array_get_length (children); i++)
    {
      JsonObject *e = json_array_get_object_element (children, i);
      if (g_str_equal (json_object_get_string_member (e, "name"), "parametrizations"))
        dict = json_object_get_object_member (e, "module");
    }
  g_assert_nonnull (dict);
  return json_object_get_object_member (
    json_array_get_object_element (json_object_get_array_member (dict, "children"), 0), "module");
}

static void
edit_no_original (JsonObject *first)
{
  json_object_set_array_member (plist (first), "parameters", json_array_new ());
}

static void
edit_no_u (JsonObject *first)
{
  JsonObject *p = json_object_get_object_member (
    json_array_get_object_element (json_object_get_array_member (plist (first), "children"), 0), "module");
  json_object_remove_member (p, "buffers");
}

static void
edit_unknown_parametrization (JsonObject *first)
{
  JsonObject *p = json_object_get_object_member (
    json_array_get_object_element (json_object_get_array_member (plist (first), "children"), 0), "module");
  json_object_set_string_member (p, "type", "TestNoSuchParametrization");
}

static void
edit_no_parametrizations (JsonObject *first)
{
  json_object_set_array_member (first, "children", json_array_new ());
}

static void
edit_wrong_original_shape (JsonObject *first)
{
  JsonObject *orig = json_array_get_object_element (json_object_get_array_member (plist (first), "parameters"), 0);
  JsonArray *shape = json_array_new ();

  json_array_add_int_element (shape, 2);
  json_array_add_int_element (shape, 8);
  json_object_set_array_member (orig, "shape", shape);
}

static void
edit_wrong_mask_shape (JsonObject *first)
{
  JsonObject *mask = json_array_get_object_element (json_object_get_array_member (first, "buffers"), 0);
  JsonArray *shape = json_array_new ();

  json_array_add_int_element (shape, 3);
  json_array_add_int_element (shape, 3);
  json_object_set_array_member (mask, "shape", shape);
}

static void
edit_unknown_method (JsonObject *first)
{
  JsonObject *hook = json_array_get_object_element (json_object_get_array_member (first, "hooks"), 0);
  json_object_set_string_member (json_object_get_object_member (hook, "method"), "type", "GnnLinear");
}

static void
edit_unknown_hook (JsonObject *first)
{
  JsonObject *hook = json_array_get_object_element (json_object_get_array_member (first, "hooks"), 0);
  json_object_set_string_member (hook, "kind", "frobnicate");
}

static void
edit_hook_missing_tensor (JsonObject *first)
{
  JsonObject *hook = json_array_get_object_element (json_object_get_array_member (first, "hooks"), 0);
  json_object_set_string_member (hook, "tensor", "gain");
}

static void
edit_no_g (JsonObject *first)
{
  JsonArray *params = json_object_get_array_member (first, "parameters");
  JsonArray *kept = json_array_new ();

  for (guint i = 0; i < json_array_get_length (params); i++)
    if (!g_str_equal (json_object_get_string_member (json_array_get_object_element (params, i), "name"),
                      "weight_g"))
      json_array_add_element (kept, json_node_copy (json_array_get_element (params, i)));
  json_object_set_array_member (first, "parameters", kept);
}

static void
test_hostile (void)
{
  assert_refused (CASE_ORTHOGONAL, edit_no_original, "parametrizations.weight.original' is missing");
  assert_refused (CASE_SPECTRAL, edit_unknown_parametrization, "TestNoSuchParametrization");
  assert_refused (CASE_SPECTRAL, edit_unknown_parametrization, "'0.parametrizations.weight.0'");
  assert_refused (CASE_SPECTRAL, edit_no_u, "'parametrizations.weight.0._u' is missing");
  assert_refused (CASE_ORTHOGONAL, edit_no_u, "'parametrizations.weight.0.base' is missing");
  assert_refused (CASE_SPECTRAL, edit_no_parametrizations, "no 'parametrizations.weight'");
  assert_refused (CASE_SPECTRAL, edit_wrong_original_shape, "'parametrizations.weight.original' has shape");
  assert_refused (CASE_PRUNE, edit_wrong_mask_shape, "buffer 'weight_mask'");
  assert_refused (CASE_PRUNE, edit_unknown_method, "expected the name of a pruning method type, found 'GnnLinear'");
  assert_refused (CASE_PRUNE, edit_unknown_hook, "found 'frobnicate'");
  assert_refused (CASE_HOOK_SPECTRAL, edit_hook_missing_tensor, "no parameter with name 'gain'");
  assert_refused (CASE_HOOK_WEIGHT_NORM, edit_no_g, "lacks the parameter 'weight_g'");
}

/* a file of the format before the computed tensors (no "parametrized", no "hooks") loads */
static void
test_older_file (void)
{
  g_autoptr(GError) error = NULL;
  const char *json =
    "{\"type\": \"GnnSequential\", \"training\": true, \"properties\": {}, \"children\": ["
    "{\"name\": \"0\", \"module\": {\"type\": \"GnnLinear\", \"training\": true, \"properties\": "
    "{\"in-features\": 4, \"out-features\": 3, \"bias\": true, \"dtype\": \"float32\"}, \"parameters\": ["
    "{\"name\": \"weight\", \"shape\": [3, 4], \"dtype\": \"float32\", \"requires-grad\": true},"
    "{\"name\": \"bias\", \"shape\": [3], \"dtype\": \"float32\", \"requires-grad\": true}], \"children\": []}}]}";
  g_autoptr(GnnModule) m = gnn_module_new_from_json (json, -1, &error);

  g_assert_no_error (error);
  g_assert_nonnull (m);
}

int
main (int argc, char **argv)
{
  static const struct { const char *name; Case c; } cases[] = {
    { "orthogonal", CASE_ORTHOGONAL }, { "spectral-norm", CASE_SPECTRAL },
    { "weight-norm", CASE_WEIGHT_NORM }, { "chain", CASE_CHAIN }, { "prune", CASE_PRUNE },
    { "prune-twice", CASE_PRUNE_TWICE }, { "hook-weight-norm", CASE_HOOK_WEIGHT_NORM },
    { "hook-spectral-norm", CASE_HOOK_SPECTRAL }, { "prune-ln-custom", CASE_PRUNE_LN_CUSTOM },
  };

  gnn_test_init (&argc, &argv);
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *path = g_strdup_printf ("/module-json/round-trip/%s", cases[i].name);
      g_test_add_data_func (path, GINT_TO_POINTER (cases[i].c), test_round_trip);
    }
  g_test_add_data_func ("/module-json/checkpoint/prune", GINT_TO_POINTER (CASE_PRUNE_TWICE), test_checkpoint);
  g_test_add_data_func ("/module-json/checkpoint/spectral-norm", GINT_TO_POINTER (CASE_SPECTRAL), test_checkpoint);
  g_test_add_data_func ("/module-json/checkpoint/hook-spectral-norm", GINT_TO_POINTER (CASE_HOOK_SPECTRAL),
                        test_checkpoint);
  g_test_add_data_func ("/module-json/fresh/orthogonal", GINT_TO_POINTER (CASE_ORTHOGONAL), test_fresh);
  g_test_add_data_func ("/module-json/fresh/spectral-norm", GINT_TO_POINTER (CASE_SPECTRAL), test_fresh);
  g_test_add_data_func ("/module-json/fresh/chain", GINT_TO_POINTER (CASE_CHAIN), test_fresh);
  g_test_add_data_func ("/module-json/fresh/hook-spectral-norm", GINT_TO_POINTER (CASE_HOOK_SPECTRAL), test_fresh);
  g_test_add_func ("/module-json/hostile", test_hostile);
  g_test_add_func ("/module-json/older-file", test_older_file);
  return g_test_run ();
}
