/* test-hostile-json.c: JSON from a file that would take the loaders down or lose data
 * silently: nesting deep enough to overflow json-glib's recursive parser, one name twice in
 * an object, comments, a tree that holds itself, members whose absence dropped tensors or
 * layers; and what must still load (brackets inside
 * names, deep but legitimate module trees, shared submodules). Cases that used to crash the process run in a
 * subprocess. */
#include "config.h"

#include <glib/gstdio.h>

#include "gnn-test-util.h"
#include "nn/gnn-module-private.h"

#define DEEP 100000

/* @n '[' then @n ']', between @head and @tail */
static char *
nested_arrays (const char *head, guint n, const char *tail)
{
  GString *s = g_string_new (head);

  for (guint i = 0; i < n; i++)
    g_string_append_c (s, '[');
  for (guint i = 0; i < n; i++)
    g_string_append_c (s, ']');
  g_string_append (s, tail);
  return g_string_free (s, FALSE);
}

/* a safetensors file of this header and @data_len zero bytes of data */
static GBytes *
safetensors_bytes (const char *header, gsize data_len)
{
  gsize hlen = strlen (header);
  guint64 le = GUINT64_TO_LE ((guint64) hlen);
  guint8 *buf = g_malloc0 (8 + hlen + data_len);

  memcpy (buf, &le, 8);
  memcpy (buf + 8, header, hlen);
  return g_bytes_new_take (buf, 8 + hlen + data_len);
}

static void
assert_error_has (GError *error, const char *part)
{
  g_assert_nonnull (error);
  if (strstr (error->message, part) == NULL)
    g_error ("expected \"%s\" in the error: %s", part, error->message);
}

/* ---- nesting -------------------------------------------------------------------------- */

static void
test_deep_module_json (void)
{
  if (g_test_subprocess ())
    {
      g_autofree char *json = nested_arrays ("{\"type\": \"GnnSequential\", \"children\": ", DEEP, "}");
      g_autoptr(GError) error = NULL;
      g_autoptr(GnnModule) m = gnn_module_new_from_json (json, -1, &error);

      g_assert_null (m);
      g_assert_error (error, GNN_ERROR, GNN_ERROR_FILE_FORMAT);
      assert_error_has (error, "nesting deeper than 640 levels");
      assert_error_has (error, "at byte 677 opens level 641");
      return;
    }
  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
  g_test_trap_assert_passed ();
}

static void
test_deep_safetensors (void)
{
  if (g_test_subprocess ())
    {
      g_autofree char *header = nested_arrays ("{\"t\": ", DEEP, "}");
      g_autoptr(GBytes) bytes = safetensors_bytes (header, 0);
      g_autoptr(GError) error = NULL;
      g_autoptr(GnnStateDict) sd = gnn_safetensors_load_from_bytes (bytes, NULL, &error);

      g_assert_null (sd);
      g_assert_error (error, GNN_ERROR, GNN_ERROR_FILE_FORMAT);
      assert_error_has (error, "Not a valid safetensors file");
      assert_error_has (error, "nesting deeper than 128 levels: the '[' at byte 133 opens level 129");
      return;
    }
  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
  g_test_trap_assert_passed ();
}

/* a checkpoint whose model JSON (a string in the file's metadata) nests 100,000 deep */
static void
test_deep_checkpoint_model (void)
{
  if (g_test_subprocess ())
    {
      g_autofree char *dir = g_dir_make_tmp ("gnn-hostile-XXXXXX", NULL);
      g_autofree char *path = g_build_filename (dir, "ckpt.safetensors", NULL);
      g_autoptr(GnnCheckpoint) ck = gnn_checkpoint_new ();
      g_autoptr(GnnLinear) lin = gnn_linear_new (3, 2, TRUE, NULL);
      g_autoptr(GHashTable) meta = NULL;
      g_autoptr(GnnStateDict) sd = NULL;
      g_autoptr(GError) error = NULL;
      g_autoptr(GnnModule) m = NULL;
      char *deep;

      g_assert_nonnull (lin);
      gnn_checkpoint_set_model (ck, GNN_MODULE (lin));
      g_assert_true (gnn_checkpoint_save (ck, path, &error));
      g_assert_no_error (error);
      sd = gnn_safetensors_load (path, &meta, &error);
      g_assert_no_error (error);
      g_assert_true (g_hash_table_contains (meta, "gnn.model"));
      deep = nested_arrays ("{\"type\": \"GnnSequential\", \"children\": ", DEEP, "}");
      g_hash_table_insert (meta, g_strdup ("gnn.model"), deep);
      g_assert_true (gnn_safetensors_save (sd, meta, path, &error));
      g_assert_no_error (error);

      m = gnn_checkpoint_load_model (path, &error);
      g_assert_null (m);
      g_assert_error (error, GNN_ERROR, GNN_ERROR_FILE_FORMAT);
      assert_error_has (error, "nesting deeper than 640 levels");
      g_unlink (path);
      g_rmdir (dir);
      return;
    }
  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
  g_test_trap_assert_passed ();
}

/* the deepest nesting of @json, counted by the scan itself: the smallest bound it passes */
static guint
json_depth (const char *json)
{
  guint d = 0;

  /* the scan is private: find the depth from the text (no string in these holds a bracket) */
  for (guint cur = 0; *json; json++)
    {
      if (*json == '[' || *json == '{')
        {
          cur++;
          d = MAX (d, cur);
        }
      else if (*json == ']' || *json == '}')
        cur--;
    }
  return d;
}

/* @n Sequentials, one inside the other, around a Linear: to JSON and back */
static GnnModule *
nested_sequentials (guint n)
{
  GnnModule *m = GNN_MODULE (gnn_linear_new (3, 2, TRUE, NULL));

  for (guint i = 0; i < n; i++)
    {
      GnnModule *outer = GNN_MODULE (gnn_sequential_new (&m, 1));
      g_object_unref (m);
      m = outer;
    }
  return m;
}

static void
test_deep_legitimate_tree (void)
{
  /* 40 levels as in a deep model; 200, the deepest tree the loader takes */
  const guint levels[] = { 40, 200 };

  for (guint k = 0; k < G_N_ELEMENTS (levels); k++)
    {
      g_autoptr(GnnModule) m = nested_sequentials (levels[k]);
      g_autoptr(GError) error = NULL;
      g_autofree char *json = gnn_module_to_json (m, FALSE, &error);
      g_autoptr(GnnModule) back = NULL;
      g_autofree char *again = NULL;
      guint depth;

      g_assert_no_error (error);
      depth = json_depth (json);
      g_test_message ("%u nested Sequentials around a Linear: JSON %u levels deep", levels[k], depth);
      /* 1 + 3 per module level, then the Linear's parameter slots */
      g_assert_cmpuint (depth, ==, 1 + 3 * levels[k] + 3);
      back = gnn_module_new_from_json (json, -1, &error);
      g_assert_no_error (error);
      g_assert_nonnull (back);
      again = gnn_module_to_json (back, FALSE, &error);
      g_assert_no_error (error);
      g_assert_cmpstr (json, ==, again);
    }
}

/* ---- what the scan must pass ---------------------------------------------------------- */

static void
test_brackets_in_names (void)
{
  g_autoptr(GString) name = g_string_new ("w");
  g_autoptr(GnnStateDict) sd = gnn_state_dict_new ();
  g_autoptr(GnnTensor) t = gnn_tensor_new_from_doubles (GNN_TEST_DATA (1, 2), 2, GNN_TEST_SHAPE (2), 1, NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GnnStateDict) back = NULL;
  g_autoptr(GnnModule) dict = NULL;
  g_autoptr(GnnModule) dict_back = NULL;
  g_autofree char *json = NULL;
  GnnTensor *got;

  /* 200 '[' (and a '{', a quote, a backslash) in a tensor name: only a name */
  for (guint i = 0; i < 200; i++)
    g_string_append_c (name, '[');
  g_string_append (name, "{\"\\");
  gnn_state_dict_set_tensor (sd, name->str, t);
  bytes = gnn_safetensors_save_to_bytes (sd, NULL, &error);
  g_assert_no_error (error);
  back = gnn_safetensors_load_from_bytes (bytes, NULL, &error);
  g_assert_no_error (error);
  got = gnn_state_dict_get_tensor (back, name->str, &error);
  g_assert_no_error (error);
  gnn_test_assert_close (got, GNN_TEST_DATA (1, 2), 2, 0, 0);

  /* and in a child's name in a module JSON */
  dict = GNN_MODULE (g_object_new (GNN_TYPE_MODULE_DICT, NULL));
  g_string_assign (name, "c");
  for (guint i = 0; i < 200; i++)
    g_string_append_c (name, '[');
  {
    g_autoptr(GnnModule) relu = gnn_module_new_from_type_name ("GnnReLU", 0, NULL, NULL, &error);
    g_assert_no_error (error);
    g_assert_true (gnn_module_register_module (dict, name->str, relu, &error));
    g_assert_no_error (error);
  }
  json = gnn_module_to_json (dict, FALSE, &error);
  g_assert_no_error (error);
  dict_back = gnn_module_new_from_json (json, -1, &error);
  g_assert_no_error (error);
  g_assert_nonnull (gnn_module_get_submodule (dict_back, name->str, &error));
  g_assert_no_error (error);
}

/* ---- duplicate names ------------------------------------------------------------------ */

static void
test_duplicate_keys_module (void)
{
  /* json-glib keeps the last "type": the file would load as a ReLU */
  const char *json = "{\"type\": \"GnnIdentity\", \"training\": true, \"type\": \"GnnReLU\"}";
  /* the duplicate spelled with an escape is the same name */
  const char *escaped = "{\"type\": \"GnnSequential\", \"children\": [{\"name\": \"0\", \"n\\u0061me\": \"1\","
                        " \"module\": {\"type\": \"GnnReLU\"}}]}";
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnModule) m = gnn_module_new_from_json (json, -1, &error);

  g_assert_null (m);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_FILE_FORMAT);
  assert_error_has (error, "module JSON: the name \"type\" comes twice in the object that starts at byte 0: "
                           "at byte 1 and at byte 42");
  g_clear_error (&error);
  m = gnn_module_new_from_json (escaped, -1, &error);
  g_assert_null (m);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_FILE_FORMAT);
  assert_error_has (error, "the name \"name\" comes twice");

  /* one name in two different objects is no duplicate */
  g_clear_error (&error);
  m = gnn_module_new_from_json ("{\"type\": \"GnnSequential\", \"children\": [{\"name\": \"0\", \"module\": "
                                "{\"type\": \"GnnReLU\", \"children\": []}}], \"training\": true}", -1, &error);
  g_assert_no_error (error);
  g_assert_nonnull (m);
}

static void
test_duplicate_tensor_names (void)
{
  /* the same name twice with identical entries: json-glib would keep one, silently */
  const char *header = "{\"w\": {\"dtype\": \"F32\", \"shape\": [1], \"data_offsets\": [0, 4]},"
                       " \"w\": {\"dtype\": \"F32\", \"shape\": [1], \"data_offsets\": [0, 4]}}";
  const char *meta = "{\"__metadata__\": {\"k\": \"a\", \"k\": \"b\"},"
                     " \"w\": {\"dtype\": \"F32\", \"shape\": [1], \"data_offsets\": [0, 4]}}";
  g_autoptr(GBytes) bytes = safetensors_bytes (header, 4);
  g_autoptr(GBytes) mbytes = safetensors_bytes (meta, 4);
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnStateDict) sd = gnn_safetensors_load_from_bytes (bytes, NULL, &error);

  g_assert_null (sd);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_FILE_FORMAT);
  assert_error_has (error, "Not a valid safetensors file: the header: the name \"w\" comes twice in the "
                           "object that starts at byte 0: at byte 1 and at byte 62");
  g_clear_error (&error);
  sd = gnn_safetensors_load_from_bytes (mbytes, NULL, &error);
  g_assert_null (sd);
  assert_error_has (error, "the name \"k\" comes twice in the object that starts at byte 17");
}

static void not_json (void);

/* json-glib takes comments and single quotes, either of which could hide a bracket from the
 * scan: both are refused (no gnn writer makes them; JSON has neither) */
static void
test_not_json (void)
{
  if (g_test_subprocess ())
    {
      not_json ();
      return;
    }
  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
  g_test_trap_assert_passed ();
}

static void
not_json (void)
{
  g_autofree char *hidden = nested_arrays ("{\"type\": \"GnnReLU\", \"x\": /* \" */ ", DEEP, " /* \" */}");
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnModule) m = gnn_module_new_from_json (hidden, -1, &error);

  g_assert_null (m);
  assert_error_has (error, "module JSON: expected JSON, found '/' at byte 25 (JSON has no comments)");
  g_clear_error (&error);
  m = gnn_module_new_from_json ("{'type': 'GnnReLU'}", -1, &error);
  g_assert_null (m);
  assert_error_has (error, "found a single-quoted string at byte 1");
}

/* ---- cycles --------------------------------------------------------------------------- */

static void
assert_json_refused (const char *json, const char *part)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnModule) m = gnn_module_new_from_json (json, -1, &error);

  g_assert_null (m);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_FILE_FORMAT);
  assert_error_has (error, part);
}

/* a "shared" that names the root or a parent would make the tree hold itself, which
 * state_dict, forward and repr then walk until the stack runs out */
static void
test_cycle_in_json (void)
{
  if (g_test_subprocess ())
    {
      assert_json_refused ("{\"type\": \"GnnSequential\", \"children\": [{\"name\": \"0\", \"module\": "
                           "{\"shared\": \"\"}}]}",
                           "module JSON at $.children[0].module: \"shared\" refers to '' (the root), which "
                           "holds '0': the tree would be a cycle");
      assert_json_refused ("{\"type\": \"GnnSequential\", \"children\": [{\"name\": \"a\", \"module\": "
                           "{\"type\": \"GnnSequential\", \"children\": [{\"name\": \"b\", \"module\": "
                           "{\"type\": \"GnnModuleList\", \"children\": [{\"name\": \"0\", \"module\": "
                           "{\"shared\": \"a\"}}]}}]}}]}",
                           "module JSON at $.children[0].module.children[0].module.children[0].module: "
                           "\"shared\" refers to 'a', which holds 'a.b.0': the tree would be a cycle");
      return;
    }
  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
  g_test_trap_assert_passed ();
}

/* {"shared": path} stands alone: a member beside it would be dropped at the next save */
static void
test_shared_extra_member (void)
{
  assert_json_refused ("{\"type\": \"GnnSequential\", \"children\": ["
                       "{\"name\": \"0\", \"module\": {\"type\": \"GnnReLU\"}},"
                       "{\"name\": \"1\", \"module\": {\"shared\": \"0\", \"type\": \"GnnTanh\"}}]}",
                       "module JSON at $.children[1].module: expected {\"shared\": path} alone, found the "
                       "member \"type\" beside it");
}

/* a module shared at two places (not an ancestor) still loads, shared */
static void
test_shared_submodule (void)
{
  const char *json = "{\"type\": \"GnnSequential\", \"children\": ["
                     "{\"name\": \"0\", \"module\": {\"type\": \"GnnLinear\", \"properties\": "
                     "{\"in-features\": 2, \"out-features\": 2}}},"
                     "{\"name\": \"1\", \"module\": {\"type\": \"GnnSequential\", \"children\": ["
                     "{\"name\": \"0\", \"module\": {\"shared\": \"0\"}}]}},"
                     "{\"name\": \"2\", \"module\": {\"shared\": \"0\"}}]}";
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnModule) m = gnn_module_new_from_json (json, -1, &error);
  g_autofree char *out = NULL, *again = NULL;
  g_autoptr(GnnModule) back = NULL;
  GnnModule *a, *b, *c;

  g_assert_no_error (error);
  a = gnn_module_get_submodule (m, "0", &error);
  b = gnn_module_get_submodule (m, "1.0", &error);
  c = gnn_module_get_submodule (m, "2", &error);
  g_assert_no_error (error);
  g_assert_true (GNN_IS_LINEAR (a));
  g_assert_true (a == b && a == c);
  out = gnn_module_to_json (m, FALSE, &error);
  g_assert_no_error (error);
  g_assert_nonnull (strstr (out, "{\"name\":\"2\",\"module\":{\"shared\":\"0\"}}"));
  back = gnn_module_new_from_json (out, -1, &error);
  g_assert_no_error (error);
  g_assert_true (gnn_module_get_submodule (back, "0", &error) == gnn_module_get_submodule (back, "1.0", &error));
  again = gnn_module_to_json (back, FALSE, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (out, ==, again);
}

/* register_module refuses to put a module inside itself (torch does not check) */
static void
test_register_cycle (void)
{
  if (g_test_subprocess ())
    {
      g_autoptr(GnnModule) lin = GNN_MODULE (gnn_linear_new (2, 2, TRUE, NULL));
      g_autoptr(GnnModule) inner = GNN_MODULE (gnn_sequential_new (&lin, 1));
      g_autoptr(GnnModule) root = GNN_MODULE (gnn_sequential_new (&inner, 1));
      g_autoptr(GError) error = NULL;

      g_assert_false (gnn_module_register_module (root, "self", root, &error));
      g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
      assert_error_has (error, "cannot register a Sequential as submodule 'self' of Sequential: it is that "
                               "module itself, so the module tree would be a cycle");
      g_clear_error (&error);
      g_assert_false (gnn_module_register_module (lin, "up", root, &error));
      g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
      assert_error_has (error, "cannot register a Sequential as submodule 'up' of Linear: it holds that module "
                               "among its submodules");
      g_clear_error (&error);
      g_assert_false (gnn_module_set_submodule (root, "0.0", root, &error));
      g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
      g_clear_error (&error);
      /* nothing was registered */
      g_assert_null (gnn_module_find_slot (gnn_module_priv (lin)->modules, "up"));
      g_assert_true (gnn_module_get_submodule (root, "0.0", &error) == lin);

      /* sharing is no cycle */
      g_assert_true (gnn_module_register_module (root, "again", lin, &error));
      g_assert_no_error (error);
      g_assert_true (gnn_module_register_module (root, "inner2", inner, &error));
      g_assert_no_error (error);
      return;
    }
  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
  g_test_trap_assert_passed ();
}

/* to_json refuses a tree that is a cycle (made here behind the API's back) rather than
 * writing a "shared" reference to an ancestor */
static void
test_to_json_cycle (void)
{
  g_autoptr(GnnModule) lin = GNN_MODULE (gnn_linear_new (2, 2, TRUE, NULL));
  g_autoptr(GnnModule) inner = GNN_MODULE (gnn_sequential_new (&lin, 1));
  g_autoptr(GnnModule) root = GNN_MODULE (gnn_sequential_new (&inner, 1));
  GnnModuleSlot *slot = gnn_module_find_slot (gnn_module_priv (inner)->modules, "0");
  g_autoptr(GError) error = NULL;
  char *json;

  g_set_object (&slot->value, G_OBJECT (root));
  json = gnn_module_to_json (root, FALSE, &error);
  /* break the cycle before any assertion, so that the tree is freed */
  g_set_object (&slot->value, G_OBJECT (lin));
  g_assert_null (json);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  assert_error_has (error, "the module tree is a cycle: '0.0' is the Sequential at '' (the root), which holds it");
}

/* ---- members whose absence lost data -------------------------------------------------- */

static void
test_missing_members (void)
{
  /* an empty list would load a Linear without its weights, a BatchNorm without its
   * running statistics; the JSON is then no longer what to_json writes back */
  assert_json_refused ("{\"type\": \"GnnLinear\", \"properties\": {\"in-features\": 3, \"out-features\": 2},"
                       " \"parameters\": []}",
                       "module JSON at $: \"parameters\" lacks the parameter 'weight', which a GnnLinear makes");
  assert_json_refused ("{\"type\": \"GnnLinear\", \"properties\": {\"in-features\": 3, \"out-features\": 2},"
                       " \"parameters\": [{\"name\": \"weight\", \"shape\": [2, 3], \"dtype\": \"float32\"}]}",
                       "\"parameters\" lacks the parameter 'bias', which a GnnLinear makes");
  assert_json_refused ("{\"type\": \"GnnBatchNorm1d\", \"properties\": {\"num-features\": 3}, \"buffers\": []}",
                       "module JSON at $: \"buffers\" lacks the buffer 'running_mean', which a GnnBatchNorm1d makes");
  /* a slot without its shape used to clear the tensor */
  assert_json_refused ("{\"type\": \"GnnLinear\", \"properties\": {\"in-features\": 3, \"out-features\": 2},"
                       " \"parameters\": [{\"name\": \"weight\"}, {\"name\": \"bias\", \"shape\": [2],"
                       " \"dtype\": \"float32\"}]}",
                       "module JSON at $.parameters[0]: parameter 'weight': expected \"shape\"");
  /* a child without its module used to load as None, dropping the layer */
  assert_json_refused ("{\"type\": \"GnnSequential\", \"children\": [{\"name\": \"0\"}]}",
                       "module JSON at $.children[0]: the child '0': expected \"module\"");
  /* a child its type makes, left out of "children" */
  assert_json_refused ("{\"type\": \"GnnMultiheadAttention\", \"properties\": {\"embed-dim\": 4, \"num-heads\": 2},"
                       " \"children\": []}",
                       "\"children\" lacks the child 'out_proj', which a GnnMultiheadAttention makes");
}

/* What the loader accepts, to_json writes back as JSON that loads to the same JSON: the
 * invariant of the module-JSON fuzz target, on inputs that leave out what may be left out */
static void
test_round_trip_idempotent (void)
{
  const char *accepted[] = {
    /* no "parameters", no "children", no "training": setup's tensors and children stay */
    "{\"type\": \"GnnLinear\", \"properties\": {\"in-features\": 3, \"out-features\": 2}}",
    "{\"type\": \"GnnMultiheadAttention\", \"properties\": {\"embed-dim\": 4, \"num-heads\": 2}}",
    "{\"type\": \"GnnBatchNorm1d\", \"properties\": {\"num-features\": 3}, \"training\": false}",
    /* a name registered as None, explicitly */
    "{\"type\": \"GnnLinear\", \"properties\": {\"in-features\": 3, \"out-features\": 2},"
    " \"parameters\": [{\"name\": \"bias\", \"shape\": null}, {\"name\": \"weight\", \"shape\": [2, 3],"
    " \"dtype\": \"float32\", \"requires-grad\": false}]}",
    "{\"type\": \"GnnSequential\", \"children\": [{\"name\": \"0\", \"module\": null},"
    " {\"name\": \"1\", \"module\": {\"type\": \"GnnReLU\"}}, {\"name\": \"2\", \"module\": {\"shared\": \"1\"}}]}",
    /* tensors a ParameterList gets after construction */
    "{\"type\": \"GnnParameterList\", \"parameters\": [{\"name\": \"0\", \"shape\": [2], \"dtype\": \"float64\"}]}",
  };

  for (guint i = 0; i < G_N_ELEMENTS (accepted); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(GnnModule) m = gnn_module_new_from_json (accepted[i], -1, &error);
      g_autoptr(GnnModule) back = NULL;
      g_autofree char *json = NULL, *again = NULL;

      g_assert_no_error (error);
      json = gnn_module_to_json (m, FALSE, &error);
      g_assert_no_error (error);
      back = gnn_module_new_from_json (json, -1, &error);
      g_assert_no_error (error);
      again = gnn_module_to_json (back, FALSE, &error);
      g_assert_no_error (error);
      g_assert_cmpstr (json, ==, again);
    }
  /* the left-out members were setup's: the Linear has its weights, the attention its
   * output projection */
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(GnnModule) lin = gnn_module_new_from_json (accepted[0], -1, &error);
    g_autoptr(GnnModule) mha = gnn_module_new_from_json (accepted[1], -1, &error);

    g_assert_no_error (error);
    g_assert_nonnull (gnn_module_get_parameter (lin, "weight", &error));
    g_assert_nonnull (gnn_module_get_parameter (lin, "bias", &error));
    g_assert_nonnull (gnn_module_get_submodule (mha, "out_proj", &error));
    g_assert_no_error (error);
  }
}

int
main (int argc, char **argv)
{
  gnn_test_init (&argc, &argv);
  g_test_add_func ("/hostile-json/nesting/module-json", test_deep_module_json);
  g_test_add_func ("/hostile-json/nesting/safetensors", test_deep_safetensors);
  g_test_add_func ("/hostile-json/nesting/checkpoint-model", test_deep_checkpoint_model);
  g_test_add_func ("/hostile-json/nesting/legitimate-tree", test_deep_legitimate_tree);
  g_test_add_func ("/hostile-json/brackets-in-names", test_brackets_in_names);
  g_test_add_func ("/hostile-json/duplicate/module-json", test_duplicate_keys_module);
  g_test_add_func ("/hostile-json/duplicate/tensor-names", test_duplicate_tensor_names);
  g_test_add_func ("/hostile-json/not-json", test_not_json);
  g_test_add_func ("/hostile-json/cycle/json", test_cycle_in_json);
  g_test_add_func ("/hostile-json/cycle/shared-submodule", test_shared_submodule);
  g_test_add_func ("/hostile-json/cycle/shared-extra-member", test_shared_extra_member);
  g_test_add_func ("/hostile-json/cycle/register-module", test_register_cycle);
  g_test_add_func ("/hostile-json/cycle/to-json", test_to_json_cycle);
  g_test_add_func ("/hostile-json/missing/members", test_missing_members);
  g_test_add_func ("/hostile-json/missing/round-trip", test_round_trip_idempotent);
  return g_test_run ();
}
