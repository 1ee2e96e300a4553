/* test-state-dict.c: GnnStateDict, gnn_module_state_dict and gnn_module_load_state_dict */
#include "config.h"

#include "gnn-test-util.h"

#define OK(expr) G_STMT_START { (expr); g_assert_no_error (error); } G_STMT_END
#define CHECK(expr) G_STMT_START { gboolean ok_ = (expr); g_assert_no_error (error); g_assert_true (ok_); } G_STMT_END

/* a module that holds whatever the test registers on it */
typedef struct { GnnModule parent_instance; } TestNet;
typedef struct { GnnModuleClass parent_class; } TestNetClass;
G_DEFINE_TYPE (TestNet, test_net, GNN_TYPE_MODULE)

static void test_net_class_init (TestNetClass *klass) {}
static void test_net_init (TestNet *self) {}

/* a float32 tensor holding base, base + 1, ... */
static GnnTensor *
seq (const gint64 *shape, guint ndim, double base, GnnDtype dtype)
{
  gint64 n = 1;
  g_autofree double *data = NULL;
  g_autoptr(GnnTensor) t = NULL;
  GnnTensor *out;

  for (guint i = 0; i < ndim; i++)
    n *= shape[i];
  data = g_new (double, MAX (n, 1));
  for (gint64 i = 0; i < n; i++)
    data[i] = base + i;
  t = gnn_test_tensor_d (data, n, shape, ndim);
  out = gnn_tensor_to_dtype (t, dtype, NULL);
  g_assert_nonnull (out);
  return out;
}

static void
add_param (GnnModule *m, const char *name, const gint64 *shape, guint ndim, double base)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) t = seq (shape, ndim, base, GNN_DTYPE_FLOAT32);
  g_autoptr(GnnParameter) p = gnn_parameter_new (t, TRUE, &error);

  g_assert_no_error (error);
  g_assert_true (gnn_module_register_parameter (m, name, p, &error));
  g_assert_no_error (error);
}

static void
add_buffer (GnnModule *m, const char *name, const gint64 *shape, guint ndim, double base,
            GnnDtype dtype, gboolean persistent)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) t = seq (shape, ndim, base, dtype);

  g_assert_true (gnn_module_register_buffer (m, name, t, persistent, &error));
  g_assert_no_error (error);
}

/* Net
 *   block: Net            (registered before Net's own parameters)
 *     weight [3, 4], bias [3], running [3] (buffer)
 *     inner: Net
 *       weight [2, 3]
 *   scale [2]
 *   steps [] int64 (buffer)
 *   cache [2] (non-persistent buffer)
 *   unused: NULL parameter, hole: NULL buffer, nothing: NULL module
 * Values start at @base. */
static GnnModule *
net_new (double base)
{
  g_autoptr(GError) error = NULL;
  GnnModule *net = g_object_new (test_net_get_type (), NULL);
  g_autoptr(GnnModule) block = g_object_new (test_net_get_type (), NULL);
  g_autoptr(GnnModule) inner = g_object_new (test_net_get_type (), NULL);

  g_assert_true (gnn_module_register_module (net, "block", block, &error));
  add_param (block, "weight", GNN_TEST_SHAPE (3, 4), 2, base);
  add_param (block, "bias", GNN_TEST_SHAPE (3), 1, base + 20);
  add_buffer (block, "running", GNN_TEST_SHAPE (3), 1, base + 30, GNN_DTYPE_FLOAT32, TRUE);
  g_assert_true (gnn_module_register_module (block, "inner", inner, &error));
  add_param (inner, "weight", GNN_TEST_SHAPE (2, 3), 2, base + 40);
  add_param (net, "scale", GNN_TEST_SHAPE (2), 1, base + 50);
  add_buffer (net, "steps", NULL, 0, base + 60, GNN_DTYPE_INT64, TRUE);
  add_buffer (net, "cache", GNN_TEST_SHAPE (2), 1, base + 70, GNN_DTYPE_FLOAT32, FALSE);
  g_assert_true (gnn_module_register_parameter (net, "unused", NULL, &error));
  g_assert_true (gnn_module_register_buffer (net, "hole", NULL, TRUE, &error));
  g_assert_true (gnn_module_register_module (net, "nothing", NULL, &error));
  g_assert_no_error (error);
  return net;
}

static const char *expected_keys[] = {
  "scale", "steps", "block.weight", "block.bias", "block.running", "block.inner.weight", NULL
};

static GnnTensor *
member (GnnModule *m, const char *target)
{
  GnnParameter *p = gnn_module_get_parameter (m, target, NULL);
  return p ? GNN_TENSOR (p) : gnn_module_get_buffer (m, target, NULL);
}

/* asserts that every state tensor of @a equals @b's */
static void
assert_same_values (GnnModule *a, GnnModule *b)
{
  for (guint i = 0; expected_keys[i]; i++)
    {
      gsize n;
      g_autofree double *va = gnn_tensor_to_doubles (member (a, expected_keys[i]), &n, NULL);
      g_autofree double *vb = gnn_tensor_to_doubles (member (b, expected_keys[i]), NULL, NULL);
      for (gsize k = 0; k < n; k++)
        g_assert_cmpfloat (va[k], ==, vb[k]);
    }
}

static void
test_map (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnStateDict) sd = gnn_state_dict_new ();
  g_autoptr(GnnTensor) a = seq (GNN_TEST_SHAPE (2), 1, 0, GNN_DTYPE_FLOAT32);
  g_autoptr(GnnTensor) b = seq (GNN_TEST_SHAPE (3), 1, 0, GNN_DTYPE_FLOAT32);
  g_auto(GStrv) keys = NULL;
  g_auto(GValue) v = G_VALUE_INIT;
  g_auto(GValue) out = G_VALUE_INIT;

  g_assert_cmpuint (gnn_state_dict_get_length (sd), ==, 0);
  gnn_state_dict_set_tensor (sd, "x", a);
  gnn_state_dict_set_tensor (sd, "y", b);
  g_value_init (&v, G_TYPE_STRING);
  g_value_set_string (&v, "extra");
  gnn_state_dict_set_value (sd, "z", &v);
  /* replacing keeps the place */
  gnn_state_dict_set_tensor (sd, "x", b);
  keys = gnn_state_dict_get_keys (sd);
  g_assert_cmpstrv (keys, ((const char *[]) { "x", "y", "z", NULL }));
  g_assert_true (gnn_state_dict_get_tensor (sd, "x", &error) == b);
  g_assert_true (gnn_state_dict_contains (sd, "z"));
  g_assert_false (gnn_state_dict_contains (sd, "w"));

  g_assert_null (gnn_state_dict_get_tensor (sd, "z", &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  g_assert_null (gnn_state_dict_get_tensor (sd, "w", &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INDEX);
  g_clear_error (&error);

  CHECK (gnn_state_dict_get_value (sd, "z", &out, &error));
  g_assert_cmpstr (g_value_get_string (&out), ==, "extra");
  g_value_unset (&out);
  CHECK (gnn_state_dict_get_value (sd, "y", &out, &error));
  g_assert_true (g_value_get_object (&out) == b);
  g_value_unset (&out);
  g_assert_false (gnn_state_dict_get_value (sd, "w", &out, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INDEX);
  g_clear_error (&error);

  g_assert_true (gnn_state_dict_remove (sd, "x"));
  g_assert_false (gnn_state_dict_remove (sd, "x"));
  g_clear_pointer (&keys, g_strfreev);
  keys = gnn_state_dict_get_keys (sd);
  g_assert_cmpstrv (keys, ((const char *[]) { "y", "z", NULL }));
  g_assert_cmpuint (gnn_state_dict_get_length (sd), ==, 2);
  g_assert_finalize_object (g_steal_pointer (&sd));
}

static void
test_keys (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnModule) net = net_new (0);
  g_autoptr(GnnStateDict) sd = NULL, sd2 = NULL, sd3 = NULL;
  g_auto(GStrv) keys = NULL, keys2 = NULL, keys3 = NULL;

  OK (sd = gnn_module_state_dict (net, NULL, FALSE, &error));
  keys = gnn_state_dict_get_keys (sd);
  g_assert_cmpstrv (keys, expected_keys);

  OK (sd2 = gnn_module_state_dict (net, "model", FALSE, &error));
  keys2 = gnn_state_dict_get_keys (sd2);
  g_assert_cmpstr (keys2[0], ==, "model.scale");
  g_assert_cmpstr (keys2[5], ==, "model.block.inner.weight");
  /* PyTorch's spelling of the prefix, with its dot */
  OK (sd3 = gnn_module_state_dict (net, "model.", FALSE, &error));
  keys3 = gnn_state_dict_get_keys (sd3);
  g_assert_cmpstrv (keys2, (const char * const *) keys3);
}

static void
test_keep_vars (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnModule) net = net_new (0);
  g_autoptr(GnnStateDict) detached = NULL, kept = NULL;
  GnnTensor *w = member (net, "block.weight");
  GnnTensor *d, *k;

  OK (detached = gnn_module_state_dict (net, NULL, FALSE, &error));
  OK (kept = gnn_module_state_dict (net, NULL, TRUE, &error));
  OK (d = gnn_state_dict_get_tensor (detached, "block.weight", &error));
  OK (k = gnn_state_dict_get_tensor (kept, "block.weight", &error));
  g_assert_true (k == w);
  g_assert_true (GNN_IS_PARAMETER (k));
  g_assert_true (d != w);
  g_assert_false (GNN_IS_PARAMETER (d));
  g_assert_false (gnn_tensor_get_requires_grad (d));
  g_assert_true (gnn_tensor_shares_storage (d, w));
  /* the buffer too is the module's own with keep_vars */
  g_assert_true (gnn_state_dict_get_tensor (kept, "steps", NULL) == member (net, "steps"));
}

static void
test_round_trip (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnModule) a = net_new (0);
  g_autoptr(GnnModule) b = net_new (100);
  g_autoptr(GnnStateDict) sd = NULL;
  g_auto(GStrv) missing = NULL, unexpected = NULL;
  GnnTensor *w = member (b, "block.weight");
  g_autofree double *cache = NULL;

  OK (sd = gnn_module_state_dict (a, NULL, FALSE, &error));
  CHECK (gnn_module_load_state_dict (b, sd, TRUE, FALSE, &missing, &unexpected, &error));
  g_assert_cmpstrv (missing, ((const char *[]) { NULL }));
  g_assert_cmpstrv (unexpected, ((const char *[]) { NULL }));
  assert_same_values (a, b);
  /* copied, not shared; the non-persistent buffer is untouched */
  g_assert_true (member (b, "block.weight") == w);
  g_assert_false (gnn_tensor_shares_storage (w, member (a, "block.weight")));
  g_assert_true (gnn_tensor_get_requires_grad (w));
  cache = gnn_tensor_to_doubles (member (b, "cache"), NULL, NULL);
  g_assert_cmpfloat (cache[0], ==, 170);
  g_assert_cmpint (gnn_tensor_get_dtype (member (b, "steps")), ==, GNN_DTYPE_INT64);

  g_assert_finalize_object (g_steal_pointer (&sd));
}

static void
test_dtype_conversion (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnModule) net = net_new (0);
  g_autoptr(GnnStateDict) sd = NULL;
  g_autoptr(GnnTensor) d = seq (GNN_TEST_SHAPE (2), 1, 0.5, GNN_DTYPE_FLOAT64);
  g_autoptr(GnnTensor) one = seq (GNN_TEST_SHAPE (1), 1, 7, GNN_DTYPE_FLOAT32);

  OK (sd = gnn_module_state_dict (net, NULL, FALSE, &error));
  gnn_state_dict_set_tensor (sd, "scale", d);
  /* a 1-element 1-d tensor loads into a 0-d one, as in PyTorch */
  gnn_state_dict_set_tensor (sd, "steps", one);
  CHECK (gnn_module_load_state_dict (net, sd, TRUE, FALSE, NULL, NULL, &error));
  g_assert_cmpint (gnn_tensor_get_dtype (member (net, "scale")), ==, GNN_DTYPE_FLOAT32);
  gnn_test_assert_close (member (net, "scale"), GNN_TEST_DATA (0.5, 1.5), 2, 0, 0);
  g_assert_cmpint (gnn_tensor_get_dtype (member (net, "steps")), ==, GNN_DTYPE_INT64);
  gnn_test_assert_close (member (net, "steps"), GNN_TEST_DATA (7), 1, 0, 0);
}

static void
test_strict (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnModule) a = net_new (0);
  g_autoptr(GnnModule) b = net_new (100);
  g_autoptr(GnnModule) fresh = net_new (100);
  g_autoptr(GnnStateDict) sd = NULL;
  g_autoptr(GnnTensor) t = seq (GNN_TEST_SHAPE (2), 1, 0, GNN_DTYPE_FLOAT32);
  g_auto(GStrv) missing = NULL, unexpected = NULL;

  OK (sd = gnn_module_state_dict (a, NULL, FALSE, &error));
  gnn_state_dict_remove (sd, "scale");
  gnn_state_dict_remove (sd, "block.inner.weight");
  gnn_state_dict_set_tensor (sd, "unused", t);        /* a NULL parameter */
  gnn_state_dict_set_tensor (sd, "cache", t);         /* a non-persistent buffer */
  gnn_state_dict_set_tensor (sd, "block.extra", t);   /* unknown in a submodule */
  gnn_state_dict_set_tensor (sd, "bogus.x", t);       /* unknown submodule */
  gnn_state_dict_set_tensor (sd, "nothing.x", t);     /* under a NULL submodule: ignored */

  g_assert_false (gnn_module_load_state_dict (b, sd, TRUE, FALSE, &missing, &unexpected, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_assert_cmpstr (error->message, ==,
                   "Error(s) in loading state_dict for TestNet:\n\t"
                   "Missing key(s) in state_dict: \"scale\", \"block.inner.weight\". \n\t"
                   "Unexpected key(s) in state_dict: \"unused\", \"cache\", \"bogus.x\", \"block.extra\". ");
  g_clear_error (&error);
  /* nothing was written */
  assert_same_values (b, fresh);
  g_clear_pointer (&missing, g_strfreev);
  g_clear_pointer (&unexpected, g_strfreev);

  /* not strict: the keys are reported and the rest is loaded */
  CHECK (gnn_module_load_state_dict (b, sd, FALSE, FALSE, &missing, &unexpected, &error));
  g_assert_cmpstrv (missing, ((const char *[]) { "scale", "block.inner.weight", NULL }));
  g_assert_cmpstrv (unexpected, ((const char *[]) { "unused", "cache", "bogus.x", "block.extra", NULL }));
  gnn_test_assert_close (member (b, "block.weight"), GNN_TEST_DATA (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11),
                         12, 0, 0);
  gnn_test_assert_close (member (b, "scale"), GNN_TEST_DATA (150, 151), 2, 0, 0);
}

static void
test_size_mismatch (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnModule) a = net_new (0);
  g_autoptr(GnnModule) b = net_new (100);
  g_autoptr(GnnModule) fresh = net_new (100);
  g_autoptr(GnnStateDict) sd = NULL;
  g_autoptr(GnnTensor) w = seq (GNN_TEST_SHAPE (3, 5), 2, 0, GNN_DTYPE_FLOAT32);
  g_autoptr(GnnTensor) s = seq (GNN_TEST_SHAPE (2, 1), 2, 0, GNN_DTYPE_FLOAT32);

  OK (sd = gnn_module_state_dict (a, NULL, FALSE, &error));
  gnn_state_dict_set_tensor (sd, "block.weight", w);
  gnn_state_dict_set_tensor (sd, "scale", s);
  gnn_state_dict_remove (sd, "steps");
  /* a size mismatch is an error even when not strict */
  g_assert_false (gnn_module_load_state_dict (b, sd, FALSE, FALSE, NULL, NULL, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_SHAPE);
  g_assert_cmpstr (error->message, ==,
                   "Error(s) in loading state_dict for TestNet:\n\t"
                   "size mismatch for scale: copying a param with shape [2, 1] from checkpoint, "
                   "the shape in current model is [2].\n\t"
                   "size mismatch for block.weight: copying a param with shape [3, 5] from "
                   "checkpoint, the shape in current model is [3, 4].");
  g_clear_error (&error);
  assert_same_values (b, fresh);

  /* strict: the missing key comes first */
  g_assert_false (gnn_module_load_state_dict (b, sd, TRUE, FALSE, NULL, NULL, &error));
  g_assert_true (g_str_has_prefix (error->message,
                                   "Error(s) in loading state_dict for TestNet:\n\t"
                                   "Missing key(s) in state_dict: \"steps\". \n\t"
                                   "size mismatch for scale: "));
  assert_same_values (b, fresh);
}

static void
test_not_a_tensor (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnModule) a = net_new (0);
  g_autoptr(GnnModule) fresh = net_new (0);
  g_autoptr(GnnStateDict) sd = NULL;
  g_auto(GValue) v = G_VALUE_INIT;

  OK (sd = gnn_module_state_dict (a, NULL, FALSE, &error));
  g_value_init (&v, G_TYPE_INT);
  g_value_set_int (&v, 3);
  gnn_state_dict_set_value (sd, "scale", &v);
  g_assert_false (gnn_module_load_state_dict (a, sd, TRUE, FALSE, NULL, NULL, &error));
  g_assert_cmpstr (error->message, ==,
                   "Error(s) in loading state_dict for TestNet:\n\t"
                   "While copying the parameter named \"scale\", expected Tensor or Tensor-like "
                   "object from checkpoint but received gint");
  assert_same_values (a, fresh);
}

static void
test_assign (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnModule) a = net_new (0);
  g_autoptr(GnnModule) b = net_new (100);
  g_autoptr(GnnStateDict) sd = NULL;
  g_autoptr(GnnTensor) d = seq (GNN_TEST_SHAPE (2), 1, 0.5, GNN_DTYPE_FLOAT64);
  GnnTensor *w = member (b, "block.weight");
  GnnTensor *src;

  OK (sd = gnn_module_state_dict (a, NULL, FALSE, &error));
  gnn_state_dict_set_tensor (sd, "scale", d);
  CHECK (gnn_module_load_state_dict (b, sd, TRUE, TRUE, NULL, NULL, &error));
  /* the parameter object stays, with its requires_grad, and takes the storage */
  g_assert_true (member (b, "block.weight") == w);
  g_assert_true (GNN_IS_PARAMETER (w));
  g_assert_true (gnn_tensor_get_requires_grad (w));
  src = gnn_state_dict_get_tensor (sd, "block.weight", NULL);
  g_assert_true (gnn_tensor_shares_storage (w, src));
  g_assert_true (gnn_tensor_shares_storage (member (b, "block.running"),
                                            gnn_state_dict_get_tensor (sd, "block.running", NULL)));
  /* and the dtype of the checkpoint */
  g_assert_cmpint (gnn_tensor_get_dtype (member (b, "scale")), ==, GNN_DTYPE_FLOAT64);
  gnn_test_assert_close (member (b, "scale"), GNN_TEST_DATA (0.5, 1.5), 2, 0, 0);
  gnn_test_assert_close (w, GNN_TEST_DATA (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11), 12, 0, 0);
}

static void
test_assign_int_into_grad (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnModule) b = net_new (100);
  g_autoptr(GnnModule) fresh = net_new (100);
  g_autoptr(GnnStateDict) sd = NULL;
  g_autoptr(GnnTensor) i = seq (GNN_TEST_SHAPE (2), 1, 1, GNN_DTYPE_INT64);

  OK (sd = gnn_module_state_dict (fresh, NULL, FALSE, &error));
  gnn_state_dict_set_tensor (sd, "scale", i);
  g_assert_false (gnn_module_load_state_dict (b, sd, TRUE, TRUE, NULL, NULL, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_DTYPE);
  g_assert_nonnull (strstr (error->message, "While copying the parameter named \"scale\""));
  g_clear_error (&error);
  g_assert_cmpint (gnn_tensor_get_dtype (member (b, "scale")), ==, GNN_DTYPE_FLOAT32);
  /* copying converts instead */
  CHECK (gnn_module_load_state_dict (b, sd, TRUE, FALSE, NULL, NULL, &error));
  gnn_test_assert_close (member (b, "scale"), GNN_TEST_DATA (1, 2), 2, 0, 0);
}

static void
test_shared_module (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnModule) net = g_object_new (test_net_get_type (), NULL);
  g_autoptr(GnnModule) leaf = g_object_new (test_net_get_type (), NULL);
  g_autoptr(GnnStateDict) sd = NULL;
  g_auto(GStrv) keys = NULL;

  add_param (leaf, "w", GNN_TEST_SHAPE (2), 1, 0);
  g_assert_true (gnn_module_register_module (net, "a", leaf, &error));
  g_assert_true (gnn_module_register_module (net, "b", leaf, &error));
  OK (sd = gnn_module_state_dict (net, NULL, FALSE, &error));
  keys = gnn_state_dict_get_keys (sd);
  g_assert_cmpstrv (keys, ((const char *[]) { "a.w", "b.w", NULL }));
  CHECK (gnn_module_load_state_dict (net, sd, TRUE, FALSE, NULL, NULL, &error));
}

int
main (int argc, char *argv[])
{
  gnn_test_init (&argc, &argv);
  g_test_add_func ("/state-dict/map", test_map);
  g_test_add_func ("/state-dict/keys", test_keys);
  g_test_add_func ("/state-dict/keep-vars", test_keep_vars);
  g_test_add_func ("/state-dict/round-trip", test_round_trip);
  g_test_add_func ("/state-dict/dtype-conversion", test_dtype_conversion);
  g_test_add_func ("/state-dict/strict", test_strict);
  g_test_add_func ("/state-dict/size-mismatch", test_size_mismatch);
  g_test_add_func ("/state-dict/not-a-tensor", test_not_a_tensor);
  g_test_add_func ("/state-dict/assign", test_assign);
  g_test_add_func ("/state-dict/assign-int-into-grad", test_assign_int_into_grad);
  g_test_add_func ("/state-dict/shared-module", test_shared_module);
  return g_test_run ();
}
