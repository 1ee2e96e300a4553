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

/* ---- extra state ----------------------------------------------------------------------- */

/* the Modules note's StatefulModule, with extra state: a step count and a tag, as "(xs)" */
typedef struct {
  GnnModule parent_instance;
  gint64 step;
  char *tag;
  guint n_set;
} TestStateful;
typedef struct { GnnModuleClass parent_class; } TestStatefulClass;
G_DEFINE_TYPE (TestStateful, test_stateful, GNN_TYPE_MODULE)

static GVariant *
test_stateful_get_extra_state (GnnModule *module, GError **error)
{
  TestStateful *self = (TestStateful *) module;

  return g_variant_new ("(xs)", self->step, self->tag ? self->tag : "");
}

static gboolean
test_stateful_set_extra_state (GnnModule *module, GVariant *state, GError **error)
{
  TestStateful *self = (TestStateful *) module;
  const char *tag;

  if (!g_variant_is_of_type (state, G_VARIANT_TYPE ("(xs)")))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT, "extra state of type %s, not (xs)",
                   g_variant_get_type_string (state));
      return FALSE;
    }
  g_variant_get (state, "(x&s)", &self->step, &tag);
  g_free (self->tag);
  self->tag = g_strdup (tag);
  self->n_set++;
  return TRUE;
}

static void
test_stateful_finalize (GObject *object)
{
  g_free (((TestStateful *) object)->tag);
  G_OBJECT_CLASS (test_stateful_parent_class)->finalize (object);
}

static void
test_stateful_class_init (TestStatefulClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = test_stateful_finalize;
  GNN_MODULE_CLASS (klass)->get_extra_state = test_stateful_get_extra_state;
  GNN_MODULE_CLASS (klass)->set_extra_state = test_stateful_set_extra_state;
}

static void test_stateful_init (TestStateful *self) {}

static GnnModule *
stateful_new (double base, gint64 step, const char *tag)
{
  g_autoptr(GError) error = NULL;
  TestStateful *self = g_object_new (test_stateful_get_type (), NULL);
  GnnModule *m = GNN_MODULE (self);
  g_autoptr(GnnParameterList) list = gnn_parameter_list_new (NULL, 0);
  g_autoptr(GnnParameterDict) dict = gnn_parameter_dict_new ();
  g_autoptr(GnnLinear) linear = NULL;

  self->step = step;
  self->tag = g_strdup (tag);
  add_param (m, "param1", GNN_TEST_SHAPE (2), 1, base);
  add_param (m, "param2", GNN_TEST_SHAPE (3), 1, base + 10);
  g_assert_true (gnn_module_register_parameter (m, "param3", NULL, &error));
  for (guint i = 0; i < 3; i++)
    {
      g_autoptr(GnnTensor) t = seq (GNN_TEST_SHAPE (2), 1, base + 20 + 2 * i, GNN_DTYPE_FLOAT32);
      g_assert_true (gnn_parameter_list_append (list, t, &error));
    }
  g_assert_true (gnn_module_register_module (m, "param_list", GNN_MODULE (list), &error));
  {
    g_autoptr(GnnTensor) foo = seq (GNN_TEST_SHAPE (3), 1, base + 30, GNN_DTYPE_FLOAT32);
    g_autoptr(GnnTensor) bar = seq (GNN_TEST_SHAPE (4), 1, base + 40, GNN_DTYPE_FLOAT32);
    g_assert_true (gnn_parameter_dict_set (dict, "foo", foo, &error));
    g_assert_true (gnn_parameter_dict_set (dict, "bar", bar, &error));
  }
  g_assert_true (gnn_module_register_module (m, "param_dict", GNN_MODULE (dict), &error));
  add_buffer (m, "buffer1", GNN_TEST_SHAPE (4), 1, base + 50, GNN_DTYPE_FLOAT32, TRUE);
  add_buffer (m, "buffer2", GNN_TEST_SHAPE (5), 1, base + 60, GNN_DTYPE_FLOAT32, FALSE);
  g_assert_true (gnn_module_register_buffer (m, "buffer3", NULL, TRUE, &error));
  linear = gnn_linear_new (2, 3, TRUE, &error);
  g_assert_nonnull (linear);
  g_assert_true (gnn_module_register_module (m, "linear", GNN_MODULE (linear), &error));
  g_assert_no_error (error);
  return m;
}

static const char *stateful_keys[] = {
  "param1", "param2", "buffer1", "_extra_state",
  "param_list.0", "param_list.1", "param_list.2", "param_dict.foo", "param_dict.bar",
  "linear.weight", "linear.bias", NULL
};

static void
test_extra_state_keys (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnModule) m = stateful_new (0, 7, "seven");
  g_autoptr(GnnStateDict) sd = NULL, sd2 = NULL;
  g_auto(GStrv) keys = NULL, keys2 = NULL;
  g_auto(GValue) v = G_VALUE_INIT;
  GVariant *extra;
  g_autofree char *printed = NULL;

  g_assert_true (gnn_module_has_extra_state (m));
  OK (sd = gnn_module_state_dict (m, NULL, FALSE, &error));
  keys = gnn_state_dict_get_keys (sd);
  g_assert_cmpstrv (keys, stateful_keys);
  CHECK (gnn_state_dict_get_value (sd, "_extra_state", &v, &error));
  g_assert_true (G_VALUE_HOLDS (&v, G_TYPE_VARIANT));
  extra = g_value_get_variant (&v);
  printed = g_variant_print (extra, FALSE);
  g_assert_cmpstr (printed, ==, "(7, 'seven')");
  /* not a tensor */
  g_assert_null (gnn_state_dict_get_tensor (sd, "_extra_state", &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);

  /* nested, with a prefix: after the submodule's own tensors */
  {
    g_autoptr(GnnModule) outer = g_object_new (test_net_get_type (), NULL);
    g_autoptr(GnnModule) inner = stateful_new (0, 1, "x");

    add_param (outer, "w", GNN_TEST_SHAPE (1), 1, 0);
    g_assert_true (gnn_module_register_module (outer, "s", inner, &error));
    OK (sd2 = gnn_module_state_dict (outer, "model", FALSE, &error));
    keys2 = gnn_state_dict_get_keys (sd2);
    g_assert_cmpstr (keys2[0], ==, "model.w");
    g_assert_cmpstr (keys2[3], ==, "model.s.buffer1");
    g_assert_cmpstr (keys2[4], ==, "model.s._extra_state");
    g_assert_cmpstr (keys2[5], ==, "model.s.param_list.0");
    g_assert_cmpuint (gnn_state_dict_get_length (sd2), ==, 12);
  }
}

static void
test_extra_state_round_trip (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnModule) a = stateful_new (0, 7, "seven");
  g_autoptr(GnnModule) b = stateful_new (100, 0, "zero");
  g_autoptr(GnnStateDict) sd = NULL;
  g_auto(GStrv) missing = NULL, unexpected = NULL;
  g_auto(GValue) bad = G_VALUE_INIT;

  OK (sd = gnn_module_state_dict (a, NULL, FALSE, &error));
  CHECK (gnn_module_load_state_dict (b, sd, TRUE, FALSE, &missing, &unexpected, &error));
  g_assert_cmpstrv (missing, ((const char *[]) { NULL }));
  g_assert_cmpstrv (unexpected, ((const char *[]) { NULL }));
  g_assert_cmpint (((TestStateful *) b)->step, ==, 7);
  g_assert_cmpstr (((TestStateful *) b)->tag, ==, "seven");
  g_assert_cmpuint (((TestStateful *) b)->n_set, ==, 1);
  gnn_test_assert_close (member (b, "param2"), GNN_TEST_DATA (10, 11, 12), 3, 0, 0);
  gnn_test_assert_close (member (b, "buffer2"), GNN_TEST_DATA (160, 161, 162, 163, 164), 5, 0, 0);
  g_clear_pointer (&missing, g_strfreev);
  g_clear_pointer (&unexpected, g_strfreev);

  /* without the key: missing (after the module's tensors), and strict fails */
  ((TestStateful *) b)->step = 0;
  gnn_state_dict_remove (sd, "_extra_state");
  gnn_state_dict_remove (sd, "param1");
  g_assert_false (gnn_module_load_state_dict (b, sd, TRUE, FALSE, NULL, NULL, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_assert_cmpstr (error->message, ==,
                   "Error(s) in loading state_dict for TestStateful:\n\t"
                   "Missing key(s) in state_dict: \"param1\", \"_extra_state\". ");
  g_clear_error (&error);
  CHECK (gnn_module_load_state_dict (b, sd, FALSE, FALSE, &missing, &unexpected, &error));
  g_assert_cmpstrv (missing, ((const char *[]) { "param1", "_extra_state", NULL }));
  g_assert_cmpint (((TestStateful *) b)->step, ==, 0);

  /* a value that is not a GVariant: an error of the load, nothing written */
  g_value_init (&bad, G_TYPE_STRING);
  g_value_set_string (&bad, "nope");
  gnn_state_dict_set_value (sd, "_extra_state", &bad);
  g_assert_false (gnn_module_load_state_dict (b, sd, FALSE, FALSE, NULL, NULL, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "expected a GVariant"));
  g_clear_error (&error);

  /* set_extra_state failing: the load fails with its error, the tensors are not written */
  {
    g_auto(GValue) v = G_VALUE_INIT;
    g_autoptr(GnnModule) c = stateful_new (200, 3, "three");
    g_autoptr(GnnStateDict) sd2 = NULL;

    OK (sd2 = gnn_module_state_dict (a, NULL, FALSE, &error));
    g_value_init (&v, G_TYPE_VARIANT);
    g_value_set_variant (&v, g_variant_new_string ("wrong"));
    gnn_state_dict_set_value (sd2, "_extra_state", &v);
    g_assert_false (gnn_module_load_state_dict (c, sd2, TRUE, FALSE, NULL, NULL, &error));
    g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
    g_assert_nonnull (strstr (error->message, "extra state of type s, not (xs)"));
    g_assert_nonnull (strstr (error->message, "\"_extra_state\""));
    g_clear_error (&error);
    g_assert_cmpint (((TestStateful *) c)->step, ==, 3);
    gnn_test_assert_close (member (c, "param2"), GNN_TEST_DATA (210, 211, 212), 3, 0, 0);
  }

  /* a module without extra state: the key is unexpected */
  {
    g_autoptr(GnnModule) net = net_new (0);
    g_autoptr(GnnStateDict) sd3 = NULL;
    g_autoptr(GVariant) vv = g_variant_ref_sink (g_variant_new_int32 (1));
    g_auto(GValue) v = G_VALUE_INIT;
    g_auto(GStrv) unexp = NULL;

    g_assert_false (gnn_module_has_extra_state (net));
    OK (sd3 = gnn_module_state_dict (net, NULL, FALSE, &error));
    g_value_init (&v, G_TYPE_VARIANT);
    g_value_set_variant (&v, vv);
    gnn_state_dict_set_value (sd3, "block._extra_state", &v);
    CHECK (gnn_module_load_state_dict (net, sd3, FALSE, FALSE, NULL, &unexp, &error));
    g_assert_cmpstrv (unexp, ((const char *[]) { "block._extra_state", NULL }));
  }
}

/* ---- hooks -------------------------------------------------------------------------------- */

typedef struct {
  GString *log;
  const char *name;
} HookData;

static void
save_pre (GnnModule *module, const char *prefix, gboolean keep_vars, gpointer user_data)
{
  HookData *d = user_data;

  g_assert_true (GNN_IS_MODULE (module));
  g_string_append_printf (d->log, "%s:pre(%s,%d) ", d->name, prefix, keep_vars);
}

static void
save_post (GnnModule *module, GnnStateDict *state, const char *prefix, gpointer user_data)
{
  HookData *d = user_data;

  g_string_append_printf (d->log, "%s:post(%s,%u) ", d->name, prefix, gnn_state_dict_get_length (state));
}

static void
load_pre (GnnModule *module, GnnStateDict *state, const char *prefix, gboolean strict, gpointer user_data)
{
  HookData *d = user_data;

  g_string_append_printf (d->log, "%s:lpre(%s,%d,%u) ", d->name, prefix, strict,
                          gnn_state_dict_get_length (state));
}

static void
load_post (GnnModule *module, GnnIncompatibleKeys *keys, gpointer user_data)
{
  HookData *d = user_data;
  g_auto(GStrv) missing = gnn_incompatible_keys_get_missing_keys (keys);

  g_string_append_printf (d->log, "%s:lpost(%u) ", d->name, g_strv_length (missing));
}

static void
count_destroy (gpointer data)
{
  (*(int *) data)++;
}

static void
test_hook_order (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnModule) net = net_new (0);
  g_autoptr(GnnStateDict) sd = NULL;
  g_autoptr(GString) log = g_string_new ("");
  GnnModule *block = gnn_module_get_submodule (net, "block", NULL);
  GnnModule *inner = gnn_module_get_submodule (net, "block.inner", NULL);
  HookData dn = { log, "net" }, dn2 = { log, "net2" }, db = { log, "block" }, di = { log, "inner" };

  gnn_module_register_state_dict_post_hook (net, save_post, &dn, NULL);
  gnn_module_register_state_dict_pre_hook (net, save_pre, &dn, NULL);
  gnn_module_register_state_dict_pre_hook (net, save_pre, &dn2, NULL);
  gnn_module_register_state_dict_pre_hook (block, save_pre, &db, NULL);
  gnn_module_register_state_dict_post_hook (block, save_post, &db, NULL);
  gnn_module_register_state_dict_pre_hook (inner, save_pre, &di, NULL);
  gnn_module_register_state_dict_post_hook (inner, save_post, &di, NULL);
  OK (sd = gnn_module_state_dict (net, "m", TRUE, &error));
  /* entries: net 2, block 3, inner 1: a post-hook sees its subtree saved */
  g_assert_cmpstr (log->str, ==,
                   "net:pre(m.,1) net2:pre(m.,1) block:pre(m.block.,1) inner:pre(m.block.inner.,1) "
                   "inner:post(m.block.inner.,6) block:post(m.block.,6) net:post(m.,6) ");
  g_string_truncate (log, 0);

  gnn_module_register_load_state_dict_post_hook (net, load_post, &dn, NULL);
  gnn_module_register_load_state_dict_pre_hook (net, load_pre, &dn, NULL);
  gnn_module_register_load_state_dict_pre_hook (block, load_pre, &db, NULL);
  gnn_module_register_load_state_dict_post_hook (block, load_post, &db, NULL);
  gnn_module_register_load_state_dict_pre_hook (inner, load_pre, &di, NULL);
  gnn_module_register_load_state_dict_post_hook (inner, load_post, &di, NULL);
  g_clear_object (&sd);
  OK (sd = gnn_module_state_dict (net, NULL, FALSE, &error));
  g_string_truncate (log, 0);
  gnn_state_dict_remove (sd, "scale");
  CHECK (gnn_module_load_state_dict (net, sd, FALSE, FALSE, NULL, NULL, &error));
  /* a pre-hook sees the entries under its module's prefix */
  g_assert_cmpstr (log->str, ==,
                   "net:lpre(,0,5) block:lpre(block.,0,4) inner:lpre(block.inner.,0,1) "
                   "inner:lpost(1) block:lpost(1) net:lpost(1) ");
}

static void
rename_weight (GnnModule *module, GnnStateDict *state, const char *prefix, gboolean strict, gpointer user_data)
{
  g_autofree char *old = g_strconcat (prefix, "old_weight", NULL);
  g_autofree char *key = g_strconcat (prefix, "weight", NULL);
  GnnTensor *t = gnn_state_dict_get_tensor (state, old, NULL);

  if (t)
    {
      g_autoptr(GnnTensor) keep = g_object_ref (t);
      gnn_state_dict_remove (state, old);
      gnn_state_dict_set_tensor (state, key, keep);
    }
}

static void
edit_saved (GnnModule *module, GnnStateDict *state, const char *prefix, gpointer user_data)
{
  g_autofree char *key = g_strconcat (prefix, "weight", NULL);
  g_autofree char *old = g_strconcat (prefix, "old_weight", NULL);
  g_autoptr(GnnTensor) t = g_object_ref (gnn_state_dict_get_tensor (state, key, NULL));

  gnn_state_dict_remove (state, key);
  gnn_state_dict_set_tensor (state, old, t);
}

static void
test_hook_edits (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnModule) a = net_new (0);
  g_autoptr(GnnModule) b = net_new (100);
  g_autoptr(GnnStateDict) sd = NULL;
  g_auto(GStrv) keys = NULL, after = NULL;
  GnnModule *block_a = gnn_module_get_submodule (a, "block", NULL);
  GnnModule *block_b = gnn_module_get_submodule (b, "block", NULL);

  /* a post-hook renames block.weight in the saved state; a load pre-hook renames it back */
  gnn_module_register_state_dict_post_hook (block_a, edit_saved, NULL, NULL);
  OK (sd = gnn_module_state_dict (a, NULL, FALSE, &error));
  keys = gnn_state_dict_get_keys (sd);
  g_assert_cmpstrv (keys, ((const char *[]) {
    "scale", "steps", "block.bias", "block.running", "block.inner.weight", "block.old_weight", NULL }));
  g_assert_false (gnn_module_load_state_dict (b, sd, TRUE, FALSE, NULL, NULL, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  gnn_module_register_load_state_dict_pre_hook (block_b, rename_weight, NULL, NULL);
  CHECK (gnn_module_load_state_dict (b, sd, TRUE, FALSE, NULL, NULL, &error));
  assert_same_values (a, b);
  /* the hook edited a copy */
  after = gnn_state_dict_get_keys (sd);
  g_assert_cmpstrv (after, (const char * const *) keys);
}

static void
forgive_missing (GnnModule *module, GnnIncompatibleKeys *keys, gpointer user_data)
{
  g_assert_true (gnn_incompatible_keys_remove_missing_key (keys, user_data));
  g_assert_false (gnn_incompatible_keys_remove_missing_key (keys, "no-such-key"));
}

static void
add_unexpected (GnnModule *module, GnnIncompatibleKeys *keys, gpointer user_data)
{
  g_auto(GStrv) unexpected = gnn_incompatible_keys_get_unexpected_keys (keys);
  g_autoptr(GStrvBuilder) b = g_strv_builder_new ();
  g_auto(GStrv) edited = NULL;

  g_strv_builder_addv (b, (const char **) unexpected);
  g_strv_builder_add (b, "made.up");
  edited = g_strv_builder_end (b);
  gnn_incompatible_keys_set_unexpected_keys (keys, (const char * const *) edited);
}

static void
test_load_post_hook_strict (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnModule) a = net_new (0);
  g_autoptr(GnnModule) b = net_new (100);
  g_autoptr(GnnStateDict) sd = NULL;
  g_auto(GStrv) missing = NULL, unexpected = NULL;
  guint h;

  OK (sd = gnn_module_state_dict (a, NULL, FALSE, &error));
  gnn_state_dict_remove (sd, "block.bias");
  g_assert_false (gnn_module_load_state_dict (b, sd, TRUE, FALSE, NULL, NULL, &error));
  g_assert_cmpstr (error->message, ==, "Error(s) in loading state_dict for TestNet:\n\t"
                   "Missing key(s) in state_dict: \"block.bias\". ");
  g_clear_error (&error);

  /* a post hook (on a submodule) removes the missing key: strict then succeeds */
  h = gnn_module_register_load_state_dict_post_hook (gnn_module_get_submodule (b, "block", NULL),
                                                     forgive_missing, (gpointer) "block.bias", NULL);
  CHECK (gnn_module_load_state_dict (b, sd, TRUE, FALSE, &missing, &unexpected, &error));
  g_assert_cmpstrv (missing, ((const char *[]) { NULL }));
  g_assert_cmpstrv (unexpected, ((const char *[]) { NULL }));
  gnn_test_assert_close (member (b, "block.weight"), GNN_TEST_DATA (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11),
                         12, 0, 0);
  gnn_test_assert_close (member (b, "block.bias"), GNN_TEST_DATA (120, 121, 122), 3, 0, 0);
  g_clear_pointer (&missing, g_strfreev);
  g_clear_pointer (&unexpected, g_strfreev);

  /* one that adds a key makes it fail (the values were written, as PyTorch) */
  gnn_module_register_load_state_dict_post_hook (b, add_unexpected, NULL, NULL);
  g_assert_false (gnn_module_load_state_dict (b, sd, TRUE, FALSE, NULL, NULL, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_assert_cmpstr (error->message, ==, "Error(s) in loading state_dict for TestNet:\n\t"
                   "Unexpected key(s) in state_dict: \"made.up\". ");
  g_clear_error (&error);
  /* not strict: reported */
  CHECK (gnn_module_load_state_dict (b, sd, FALSE, FALSE, &missing, &unexpected, &error));
  g_assert_cmpstrv (missing, ((const char *[]) { NULL }));
  g_assert_cmpstrv (unexpected, ((const char *[]) { "made.up", NULL }));

  /* removed: the missing key is back */
  g_assert_true (gnn_module_remove_state_dict_hook (gnn_module_get_submodule (b, "block", NULL), h));
  g_assert_false (gnn_module_load_state_dict (b, sd, TRUE, FALSE, NULL, NULL, &error));
  g_assert_nonnull (strstr (error->message, "Missing key(s) in state_dict: \"block.bias\". "));
  g_clear_error (&error);
}

static void
remove_self (GnnModule *module, const char *prefix, gboolean keep_vars, gpointer user_data)
{
  guint *handle = user_data;

  g_assert_true (gnn_module_remove_state_dict_hook (module, *handle));
}

static void
test_hook_removal (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnModule) net = net_new (0);
  g_autoptr(GnnStateDict) sd = NULL;
  g_autoptr(GString) log = g_string_new ("");
  HookData d = { log, "net" };
  int destroyed = 0;
  guint h1, h2, h3, self_handle;

  h1 = gnn_module_register_state_dict_pre_hook (net, save_pre, &d, NULL);
  h2 = gnn_module_register_state_dict_post_hook (net, save_post, &d, NULL);
  h3 = gnn_module_register_load_state_dict_pre_hook (net, load_pre, &destroyed, count_destroy);
  g_assert_cmpuint (h1, !=, 0);
  g_assert_cmpuint (h1, !=, h2);
  g_assert_true (gnn_module_remove_state_dict_hook (net, h1));
  g_assert_false (gnn_module_remove_state_dict_hook (net, h1));
  g_assert_true (gnn_module_remove_state_dict_hook (net, h3));
  g_assert_cmpint (destroyed, ==, 1);
  /* a forward-hook handle is not a state-dict one */
  g_assert_false (gnn_module_remove_state_dict_hook (net, 999999));
  OK (sd = gnn_module_state_dict (net, NULL, FALSE, &error));
  g_assert_cmpstr (log->str, ==, "net:post(,6) ");
  g_assert_true (gnn_module_remove_state_dict_hook (net, h2));

  /* a hook that removes itself runs once */
  self_handle = gnn_module_register_state_dict_pre_hook (net, remove_self, &self_handle, NULL);
  g_clear_object (&sd);
  OK (sd = gnn_module_state_dict (net, NULL, FALSE, &error));
  g_clear_object (&sd);
  OK (sd = gnn_module_state_dict (net, NULL, FALSE, &error));

  /* the destroy notify of a hook still registered runs when the module goes */
  gnn_module_register_load_state_dict_post_hook (net, load_post, &destroyed, count_destroy);
  g_assert_finalize_object (g_steal_pointer (&net));
  g_assert_cmpint (destroyed, ==, 2);
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
  g_test_add_func ("/state-dict/extra-state-keys", test_extra_state_keys);
  g_test_add_func ("/state-dict/extra-state-round-trip", test_extra_state_round_trip);
  g_test_add_func ("/state-dict/hook-order", test_hook_order);
  g_test_add_func ("/state-dict/hook-edits", test_hook_edits);
  g_test_add_func ("/state-dict/load-post-hook-strict", test_load_post_hook_strict);
  g_test_add_func ("/state-dict/hook-removal", test_hook_removal);
  return g_test_run ();
}
