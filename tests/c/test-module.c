/* test-module.c: GnnModule core and GnnArgs */
#include "config.h"

#include <stdlib.h>
#include "gnn-test-util.h"

#define OK(expr) G_STMT_START { (expr); g_assert_no_error (error); } G_STMT_END

/* a module with a construct-only size, a weight, a buffer, and forward x * weight + count */
typedef struct { GnnModule parent_instance; int size; int setups; } TestScale;
typedef struct { GnnModuleClass parent_class; } TestScaleClass;
G_DEFINE_TYPE (TestScale, test_scale, GNN_TYPE_MODULE)

enum { PROP_0, PROP_SIZE };

static gboolean
test_scale_setup (GnnModule *module, GError **error)
{
  TestScale *self = (TestScale *) module;
  g_autoptr(GnnTensor) w = NULL, c = NULL;
  g_autoptr(GnnParameter) p = NULL;
  g_autoptr(GnnBuffer) b = NULL;

  self->setups++;
  if (self->size < 0)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT, "size must be >= 0, got %d", self->size);
      return FALSE;
    }
  w = gnn_tensor_new_ones ((gint64[]) { self->size }, 1, GNN_DTYPE_FLOAT32, NULL, error);
  c = gnn_tensor_new_zeros (NULL, 0, GNN_DTYPE_INT64, NULL, error);
  p = gnn_parameter_new (w, TRUE, error);
  b = gnn_buffer_new (c, TRUE);
  return gnn_module_register_parameter (module, "weight", p, error) &&
         gnn_module_register_buffer (module, "count", GNN_TENSOR (b), TRUE, error);
}

static GnnArgs *
test_scale_forward (GnnModule *module, GnnArgs *input, GError **error)
{
  GnnTensor *x = gnn_args_get_tensor (input, 0, error);
  GnnParameter *w;
  g_autoptr(GnnTensor) y = NULL;

  if (x == NULL)
    return NULL;
  w = gnn_module_get_parameter (module, "weight", error);
  y = gnn_tensor_mul (x, GNN_TENSOR (w), error);
  return y ? gnn_args_new_tensor (y) : NULL;
}

static char *
test_scale_extra_repr (GnnModule *module)
{
  return g_strdup_printf ("size=%d", ((TestScale *) module)->size);
}

static void
test_scale_set_property (GObject *o, guint id, const GValue *v, GParamSpec *ps)
{
  ((TestScale *) o)->size = g_value_get_int (v);
}

static void
test_scale_get_property (GObject *o, guint id, GValue *v, GParamSpec *ps)
{
  g_value_set_int (v, ((TestScale *) o)->size);
}

static void
test_scale_class_init (TestScaleClass *klass)
{
  GObjectClass *oc = G_OBJECT_CLASS (klass);
  GnnModuleClass *mc = GNN_MODULE_CLASS (klass);

  oc->set_property = test_scale_set_property;
  oc->get_property = test_scale_get_property;
  mc->setup = test_scale_setup;
  mc->forward = test_scale_forward;
  mc->extra_repr = test_scale_extra_repr;
  g_object_class_install_property (oc, PROP_SIZE,
    g_param_spec_int ("size", NULL, NULL, -10, 100, 2,
                      G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));
}

static void
test_scale_init (TestScale *self)
{
}

static GnnModule *
scale_new (int size)
{
  return g_object_new (test_scale_get_type (), "size", size, NULL);
}

static void
test_setup_from_properties (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnModule) m = scale_new (3);
  g_autoptr(GnnModule) bad = scale_new (-1);
  g_autoptr(GnnTensor) x = gnn_tensor_new_full ((gint64[]) { 3 }, 1, 2.0, GNN_DTYPE_FLOAT32, NULL, NULL);
  g_autoptr(GnnTensor) y = NULL;
  GnnParameter *w;

  OK (w = gnn_module_get_parameter (m, "weight", &error));
  g_assert_cmpint (gnn_tensor_get_numel (GNN_TENSOR (w)), ==, 3);
  g_assert_cmpint (((TestScale *) m)->setups, ==, 1);
  g_assert_true (gnn_module_setup (m, &error));
  g_assert_no_error (error);
  g_assert_cmpint (((TestScale *) m)->setups, ==, 1);
  OK (y = gnn_module_forward_tensor (m, x, &error));
  gnn_test_assert_close (y, GNN_TEST_DATA (2, 2, 2), 3, 0, 0);

  /* a failed setup is reported by every call that needs the module */
  g_assert_false (gnn_module_setup (bad, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  g_assert_null (gnn_module_forward_tensor (bad, x, &error));
  g_assert_nonnull (strstr (error->message, "size must be >= 0"));
}

static void
test_registration_errors (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnModule) m = scale_new (2);
  g_autoptr(GnnModule) sub = scale_new (1);
  g_autoptr(GnnTensor) t = gnn_tensor_new_zeros ((gint64[]) { 2 }, 1, GNN_DTYPE_FLOAT32, NULL, NULL);
  g_autoptr(GnnParameter) p = gnn_parameter_new (t, TRUE, NULL);

  g_assert_false (gnn_module_register_module (m, "weight", sub, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "already exists"));
  g_clear_error (&error);
  g_assert_false (gnn_module_register_parameter (m, "a.b", p, &error));
  g_assert_nonnull (strstr (error->message, "can't contain \".\""));
  g_clear_error (&error);
  g_assert_false (gnn_module_register_buffer (m, "", t, TRUE, &error));
  g_assert_nonnull (strstr (error->message, "can't be empty"));
  g_clear_error (&error);
  g_assert_false (gnn_module_register_parameter (m, "training", p, &error));
  g_assert_nonnull (strstr (error->message, "property"));
  g_clear_error (&error);
  g_assert_false (gnn_module_register_buffer (m, "p", GNN_TENSOR (p), TRUE, &error));
  g_clear_error (&error);
  /* replacing a parameter by a parameter is fine, NULL reserves the name */
  OK (gnn_module_register_parameter (m, "weight", p, &error));
  OK (gnn_module_register_parameter (m, "extra", NULL, &error));
  {
    g_autoptr(GPtrArray) ps = gnn_module_parameters (m, TRUE);
    g_assert_cmpuint (ps->len, ==, 1);
  }
  g_assert_true (gnn_module_remove (m, "extra"));
  g_assert_false (gnn_module_remove (m, "extra"));
}

static void
test_tree (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnModule) root = g_object_new (GNN_TYPE_MODULE, NULL);
  g_autoptr(GnnModule) a = scale_new (1);
  g_autoptr(GnnModule) b = scale_new (2);
  g_auto(GStrv) names = NULL;
  g_autoptr(GPtrArray) mods = NULL, params = NULL;
  g_autofree char *text = NULL;

  OK (gnn_module_register_module (root, "a", a, &error));
  OK (gnn_module_register_module (b, "inner", a, &error));   /* a is shared */
  OK (gnn_module_register_module (root, "b", b, &error));
  OK (gnn_module_register_module (root, "none", NULL, &error));

  mods = gnn_module_named_modules (root, NULL, TRUE, &names);
  g_assert_cmpuint (mods->len, ==, 3);
  g_assert_cmpstr (names[0], ==, "");
  g_assert_cmpstr (names[1], ==, "a");
  g_assert_cmpstr (names[2], ==, "b");
  g_clear_pointer (&names, g_strfreev);
  g_clear_pointer (&mods, g_ptr_array_unref);
  mods = gnn_module_named_modules (root, "net", FALSE, &names);
  g_assert_cmpuint (mods->len, ==, 4);
  g_assert_cmpstr (names[3], ==, "net.b.inner");
  g_clear_pointer (&names, g_strfreev);

  params = gnn_module_named_parameters (root, NULL, TRUE, TRUE, &names);
  g_assert_cmpuint (params->len, ==, 2);
  g_assert_cmpstr (names[0], ==, "a.weight");
  g_assert_cmpstr (names[1], ==, "b.weight");
  g_clear_pointer (&names, g_strfreev);
  g_clear_pointer (&params, g_ptr_array_unref);
  params = gnn_module_named_parameters (root, NULL, TRUE, FALSE, &names);
  g_assert_cmpuint (params->len, ==, 3);
  g_assert_cmpstr (names[2], ==, "b.inner.weight");

  g_assert_true (gnn_module_get_submodule (root, "b.inner", &error) == a);
  g_assert_null (gnn_module_get_submodule (root, "b.nothing", &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "nothing"));
  g_clear_error (&error);
  g_assert_nonnull (gnn_module_get_buffer (root, "b.count", &error));
  g_assert_null (gnn_module_get_parameter (root, "b.count", &error));
  g_clear_error (&error);
  text = gnn_module_to_string (root);
  g_assert_cmpstr (text, ==,
                   "Module(\n"
                   "  (a): TestScale(size=1)\n"
                   "  (b): TestScale(\n"
                   "    size=2\n"
                   "    (inner): TestScale(size=1)\n"
                   "  )\n"
                   "  (none): None\n"
                   ")");
  {
    g_autoptr(GnnModule) c = scale_new (5);
    OK (gnn_module_set_submodule (root, "b.inner", c, &error));
    g_assert_true (gnn_module_get_submodule (root, "b.inner", &error) == c);
    g_assert_false (gnn_module_set_submodule (root, "x.y", c, &error));
    g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  }
}

static void
notify_count (GObject *o, GParamSpec *ps, gpointer data)
{
  (*(int *) data)++;
}

static void
collect_name (GnnModule *m, gpointer data)
{
  g_string_append_printf (data, "%s,", gnn_module_get_name (m));
}

static void
test_training_and_apply (void)
{
  g_autoptr(GnnModule) root = scale_new (1);
  g_autoptr(GnnModule) child = scale_new (2);
  g_autoptr(GString) order = g_string_new (NULL);
  int notified = 0;

  gnn_module_register_module (root, "child", child, NULL);
  g_signal_connect (child, "notify::training", G_CALLBACK (notify_count), &notified);
  g_assert_true (gnn_module_get_training (child));
  gnn_module_eval (root);
  g_assert_false (gnn_module_get_training (child));
  g_assert_cmpint (notified, ==, 1);
  gnn_module_eval (root);
  g_assert_cmpint (notified, ==, 1);
  g_object_set (root, "training", TRUE, NULL);
  g_assert_true (gnn_module_get_training (child));
  g_assert_cmpint (notified, ==, 2);

  gnn_module_register_module (child, "leaf", g_object_new (GNN_TYPE_MODULE, NULL), NULL);
  g_object_unref (gnn_module_get_submodule (child, "leaf", NULL));
  gnn_module_apply (root, collect_name, order);
  g_assert_cmpstr (order->str, ==, "Module,TestScale,TestScale,");
}

static void
test_grads_dtypes_devices (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnModule) m = scale_new (2);
  GnnParameter *w = gnn_module_get_parameter (m, "weight", NULL);
  GnnTensor *count = gnn_module_get_buffer (m, "count", NULL);
  g_autoptr(GnnTensor) x = gnn_tensor_new_ones ((gint64[]) { 2 }, 1, GNN_DTYPE_FLOAT32, NULL, NULL);
  g_autoptr(GnnTensor) y = NULL, s = NULL;
  g_autofree char *device = NULL;

  OK (y = gnn_module_forward_tensor (m, x, &error));
  OK (s = gnn_tensor_sum_all (y, &error));
  OK (gnn_tensor_backward (s, NULL, FALSE, &error));
  g_assert_nonnull (gnn_tensor_get_grad (GNN_TENSOR (w)));
  OK (gnn_module_zero_grad (m, FALSE, &error));
  gnn_test_assert_close (gnn_tensor_get_grad (GNN_TENSOR (w)), GNN_TEST_DATA (0, 0), 2, 0, 0);
  OK (gnn_module_zero_grad (m, TRUE, &error));
  g_assert_null (gnn_tensor_get_grad (GNN_TENSOR (w)));

  /* dtype changes keep the parameter objects and leave integer buffers alone */
  OK (gnn_module_to_dtype (m, GNN_DTYPE_FLOAT64, &error));
  g_assert_true (gnn_module_get_parameter (m, "weight", NULL) == w);
  g_assert_cmpint (gnn_tensor_get_dtype (GNN_TENSOR (w)), ==, GNN_DTYPE_FLOAT64);
  g_assert_cmpint (gnn_tensor_get_dtype (count), ==, GNN_DTYPE_INT64);
  g_assert_true (gnn_tensor_get_requires_grad (GNN_TENSOR (w)));
  OK (gnn_module_to_dtype (m, GNN_DTYPE_FLOAT16, &error));
  g_assert_cmpint (gnn_tensor_get_dtype (GNN_TENSOR (w)), ==, GNN_DTYPE_FLOAT16);
  g_assert_false (gnn_module_to_dtype (m, GNN_DTYPE_INT64, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_DTYPE);
  g_clear_error (&error);

  /* to (tensor), to_empty (type () is in the Python overrides: test_module.py) */
  {
    g_autoptr(GnnTensor) like = gnn_tensor_new_zeros (NULL, 0, GNN_DTYPE_FLOAT64, NULL, NULL);
    OK (gnn_module_to_tensor (m, like, &error));
    g_assert_cmpint (gnn_tensor_get_dtype (GNN_TENSOR (w)), ==, GNN_DTYPE_FLOAT64);
    OK (gnn_module_to_empty (m, "cpu", TRUE, &error));
    g_assert_cmpint (gnn_tensor_get_numel (GNN_TENSOR (w)), ==, 2);
    g_assert_true (gnn_module_get_parameter (m, "weight", NULL) == w);
    OK (gnn_module_to_device (m, "cpu", &error));
    g_assert_false (gnn_module_to_device (m, "cuda", &error));
    g_assert_error (error, GNN_ERROR, GNN_ERROR_DEVICE);
    g_clear_error (&error);
  }

  OK (gnn_module_requires_grad_ (m, FALSE, &error));
  g_assert_false (gnn_tensor_get_requires_grad (GNN_TENSOR (w)));

  g_object_get (m, "device", &device, NULL);
  g_assert_cmpstr (device, ==, "cpu");
  OK (gnn_module_to_device (m, "cpu", &error));
  g_assert_false (gnn_module_to_device (m, "cuda:0", &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_DEVICE);
  g_assert_true (gnn_module_get_parameter (m, "weight", NULL) == w);
}

static void
test_args (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnArgs) a = gnn_args_new ();
  g_autoptr(GnnTensor) t = gnn_tensor_new_ones ((gint64[]) { 1 }, 1, GNN_DTYPE_FLOAT32, NULL, NULL);
  g_autoptr(GnnArgs) c = NULL;
  g_auto(GStrv) keys = NULL;

  gnn_args_add_tensor (a, t);
  gnn_args_add_string (a, "relu");
  gnn_args_add_int (a, 7);
  gnn_args_add_double (a, 0.5);
  gnn_args_add_boolean (a, TRUE);
  gnn_args_set_kwarg_tensor (a, "mask", t);
  g_assert_cmpuint (gnn_args_get_n_values (a), ==, 5);
  g_assert_true (gnn_args_get_tensor (a, 0, &error) == t);
  g_assert_true (gnn_args_is_tensor (a, 0));
  g_assert_false (gnn_args_is_tensor (a, 1));
  g_assert_cmpstr (gnn_args_get_string (a, 1, &error), ==, "relu");
  g_assert_cmpint (gnn_args_get_int (a, 2, &error), ==, 7);
  g_assert_cmpfloat (gnn_args_get_double (a, 2, &error), ==, 7.0);
  g_assert_cmpfloat (gnn_args_get_double (a, 3, &error), ==, 0.5);
  g_assert_true (gnn_args_get_boolean (a, 4, &error));
  g_assert_no_error (error);
  g_assert_null (gnn_args_get_tensor (a, 1, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "expected a tensor"));
  g_clear_error (&error);
  g_assert_null (gnn_args_get_tensor (a, 9, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INDEX);
  g_clear_error (&error);
  OK (gnn_args_set_tensor (a, 1, t, &error));
  g_assert_true (gnn_args_is_tensor (a, 1));
  c = gnn_args_copy (a);
  g_assert_true (gnn_args_has_kwarg (c, "mask"));
  keys = gnn_args_get_kwarg_names (c);
  g_assert_cmpstr (keys[0], ==, "mask");
  g_assert_null (keys[1]);
  g_assert_true (gnn_args_remove_kwarg (c, "mask"));
  g_assert_false (gnn_args_has_kwarg (c, "mask"));
  g_assert_true (gnn_args_has_kwarg (a, "mask"));
}

static void
test_base_forward_error (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnModule) m = g_object_new (GNN_TYPE_MODULE, NULL);
  g_autoptr(GnnTensor) t = gnn_tensor_new_ones ((gint64[]) { 1 }, 1, GNN_DTYPE_FLOAT32, NULL, NULL);

  g_assert_null (gnn_module_forward_tensor (m, t, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED);
  g_assert_nonnull (strstr (error->message, "missing the required \"forward\""));
}

static void
pre_add_one (GnnModule *m, GnnArgs *input, gpointer data)
{
  GnnTensor *x = gnn_args_get_tensor (input, 0, NULL);
  g_autoptr(GnnTensor) y = gnn_tensor_add_scalar (x, 1.0, NULL);
  g_string_append (data, "pre1,");
  /* without with_kwargs the hook sees positional values only */
  g_assert_false (gnn_args_has_kwarg (input, "flag"));
  gnn_args_set_tensor (input, 0, y, NULL);
}

static void
pre_global (GnnModule *m, GnnArgs *input, gpointer data)
{
  GnnTensor *x = gnn_args_get_tensor (input, 0, NULL);
  g_autoptr(GnnTensor) y = gnn_tensor_add_scalar (x, 1.0, NULL);
  g_string_append (data, "global,");
  /* global hooks see keyword values */
  g_assert_true (gnn_args_has_kwarg (input, "flag"));
  gnn_args_set_tensor (input, 0, y, NULL);
}

static void
pre_times_ten (GnnModule *m, GnnArgs *input, gpointer data)
{
  GnnTensor *x = gnn_args_get_tensor (input, 0, NULL);
  g_autoptr(GnnTensor) y = gnn_tensor_mul_scalar (x, 10.0, NULL);
  g_string_append (data, "pre10,");
  g_assert_true (gnn_args_has_kwarg (input, "flag"));
  gnn_args_set_tensor (input, 0, y, NULL);
}

static void
post_negate (GnnModule *m, GnnArgs *input, GnnArgs *output, gpointer data)
{
  g_autoptr(GnnTensor) y = NULL;
  g_string_append (data, output ? "post," : "post-failed,");
  if (output == NULL)
    return;
  y = gnn_tensor_neg (gnn_args_get_tensor (output, 0, NULL), NULL);
  gnn_args_set_tensor (output, 0, y, NULL);
}

static void
signal_post (GnnModule *m, GnnArgs *input, GnnArgs *output, gpointer data)
{
  g_string_append (data, "signal,");
}

static void
test_forward_hooks (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnModule) m = scale_new (1);
  g_autoptr(GString) log = g_string_new (NULL);
  g_autoptr(GnnTensor) x = gnn_tensor_new_full ((gint64[]) { 1 }, 1, 2.0, GNN_DTYPE_FLOAT32, NULL, NULL);
  g_autoptr(GnnArgs) in = gnn_args_new_tensor (x);
  g_autoptr(GnnArgs) out = NULL;
  guint h1, h2, h3, g1;

  gnn_args_set_kwarg_tensor (in, "flag", x);
  h1 = gnn_module_register_forward_pre_hook (m, pre_add_one, log, NULL, FALSE, FALSE);
  h2 = gnn_module_register_forward_pre_hook (m, pre_times_ten, log, NULL, TRUE, TRUE);
  h3 = gnn_module_register_forward_hook (m, post_negate, log, NULL, FALSE, FALSE, TRUE);
  g_signal_connect (m, "forward-post", G_CALLBACK (signal_post), log);
  g1 = gnn_register_module_forward_pre_hook (pre_global, log, NULL);

  /* global (+1), then the prepended (*10), then +1; forward (*1); negate */
  OK (out = gnn_module_forward (m, in, &error));
  g_assert_cmpstr (log->str, ==, "global,pre10,pre1,post,signal,");
  gnn_test_assert_close (gnn_args_get_tensor (out, 0, NULL), GNN_TEST_DATA (-31), 1, 0, 0);
  /* the keyword survived the hooks that did not see it */
  g_assert_true (gnn_args_has_kwarg (in, "flag"));

  g_assert_true (gnn_remove_module_hook (g1));
  g_assert_false (gnn_remove_module_hook (g1));
  g_assert_true (gnn_module_remove_hook (m, h1));
  g_assert_true (gnn_module_remove_hook (m, h2));
  g_assert_false (gnn_module_remove_hook (m, h2));

  /* always_call: the hook runs when forward fails, with no output; signals do not */
  g_string_truncate (log, 0);
  {
    g_autoptr(GnnArgs) bad = gnn_args_new ();
    gnn_args_add_string (bad, "not a tensor");
    g_assert_null (gnn_module_forward (m, bad, &error));
    g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  }
  g_assert_cmpstr (log->str, ==, "post-failed,");
  g_assert_true (gnn_module_remove_hook (m, h3));
}

/* the one-call forms register with PyTorch's defaults: appended, positional inputs only, not
 * run when forward fails */
static void
test_add_forward_hooks (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnModule) m = scale_new (1);
  g_autoptr(GString) log = g_string_new (NULL);
  g_autoptr(GnnTensor) x = gnn_tensor_new_full ((gint64[]) { 1 }, 1, 2.0, GNN_DTYPE_FLOAT32, NULL, NULL);
  g_autoptr(GnnArgs) in = gnn_args_new_tensor (x);
  g_autoptr(GnnArgs) out = NULL;
  g_autoptr(GnnArgs) bad = gnn_args_new ();
  guint h1, h2, h3;

  gnn_args_set_kwarg_tensor (in, "flag", x);
  h1 = gnn_module_register_forward_pre_hook (m, pre_times_ten, log, NULL, FALSE, TRUE);
  h2 = gnn_module_add_forward_pre_hook (m, pre_add_one, log, NULL);
  h3 = gnn_module_add_forward_hook (m, post_negate, log, NULL);
  g_assert_cmpuint (h2, !=, 0);
  g_assert_cmpuint (h3, !=, 0);
  /* *10 first (registered first), then the added +1 after it; negate after forward */
  OK (out = gnn_module_forward (m, in, &error));
  g_assert_cmpstr (log->str, ==, "pre10,pre1,post,");
  gnn_test_assert_close (gnn_args_get_tensor (out, 0, NULL), GNN_TEST_DATA (-21), 1, 0, 0);

  g_string_truncate (log, 0);
  gnn_args_add_string (bad, "not a tensor");
  g_assert_true (gnn_module_remove_hook (m, h1));
  g_assert_true (gnn_module_remove_hook (m, h2));
  g_assert_null (gnn_module_forward (m, bad, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_assert_cmpstr (log->str, ==, "");              /* not always_call: the hook did not run */
  g_assert_true (gnn_module_remove_hook (m, h3));
  g_assert_false (gnn_module_remove_hook (m, h3));
}

typedef struct {
  GString *log;
  double scale_input_grad;
} BwLog;

static void
bw_pre (GnnModule *m, GnnArgs *grad_output, gpointer data)
{
  BwLog *l = data;
  g_string_append_printf (l->log, "pre(%u),", gnn_args_get_n_values (grad_output));
}

static void
bw_post (GnnModule *m, GnnArgs *grad_input, GnnArgs *grad_output, gpointer data)
{
  BwLog *l = data;
  GnnTensor *gin = gnn_args_is_tensor (grad_input, 0) ? gnn_args_get_tensor (grad_input, 0, NULL) : NULL;

  g_string_append_printf (l->log, "post(%s),", gin ? "grad" : "none");
  if (gin && l->scale_input_grad != 1.0)
    {
      g_autoptr(GnnTensor) scaled = gnn_tensor_mul_scalar (gin, l->scale_input_grad, NULL);
      gnn_args_set_tensor (grad_input, 0, scaled, NULL);
    }
}

static void
test_backward_hooks (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnModule) m = scale_new (2);   /* y = x * w, w = ones */
  g_autoptr(GnnTensor) x = gnn_tensor_new_full ((gint64[]) { 2 }, 1, 3.0, GNN_DTYPE_FLOAT32, NULL, NULL);
  g_autoptr(GnnTensor) y1 = NULL, y2 = NULL, s = NULL, t = NULL;
  BwLog l = { g_string_new (NULL), 10.0 };
  GnnParameter *w = gnn_module_get_parameter (m, "weight", NULL);

  gnn_tensor_set_requires_grad (x, TRUE, NULL);
  gnn_module_register_full_backward_pre_hook (m, bw_pre, &l, NULL, FALSE);
  gnn_module_register_full_backward_hook (m, bw_post, &l, NULL, FALSE);

  /* called twice in one graph: the hooks fire once per call; the input gradient is scaled */
  OK (y1 = gnn_module_forward_tensor (m, x, &error));
  OK (y2 = gnn_module_forward_tensor (m, y1, &error));
  g_assert_cmpstr (gnn_tensor_get_grad_fn_name (y2), ==, "BackwardHookFunctionBackward");
  OK (s = gnn_tensor_sum_all (y2, &error));
  OK (gnn_tensor_backward (s, NULL, FALSE, &error));
  g_assert_cmpstr (l.log->str, ==, "pre(1),post(grad),pre(1),post(grad),");
  /* dL/dx = w·w = 1, times 10 at each call's input */
  gnn_test_assert_close (gnn_tensor_get_grad (x), GNN_TEST_DATA (100, 100), 2, 0, 1e-4);
  g_assert_nonnull (gnn_tensor_get_grad (GNN_TENSOR (w)));

  /* outputs of a hooked call cannot change in place */
  g_assert_false (gnn_tensor_mul_scalar_ (y1, 2.0, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_AUTOGRAD);
  g_assert_nonnull (strstr (error->message, "BackwardHookFunctionBackward is a view and is being modified inplace"));
  g_clear_error (&error);

  /* an input that needs no gradient: the hook runs with none, from the output side */
  g_string_truncate (l.log, 0);
  {
    g_autoptr(GnnTensor) c = gnn_tensor_new_full ((gint64[]) { 2 }, 1, 1.0, GNN_DTYPE_FLOAT32, NULL, NULL);
    g_autoptr(GnnTensor) yc = NULL, sc = NULL;
    OK (yc = gnn_module_forward_tensor (m, c, &error));
    OK (sc = gnn_tensor_sum_all (yc, &error));
    OK (gnn_tensor_backward (sc, NULL, FALSE, &error));
  }
  g_assert_cmpstr (l.log->str, ==, "pre(1),post(none),");
  g_string_free (l.log, TRUE);
  (void) t;
}

/* a backward pre-hook and a backward hook that only log their names */
static void
bw_pre_first (GnnModule *m, GnnArgs *grad_output, gpointer data)
{
  g_string_append (((BwLog *) data)->log, "pre-first,");
}

static void
bw_post_first (GnnModule *m, GnnArgs *grad_input, GnnArgs *grad_output, gpointer data)
{
  g_string_append (((BwLog *) data)->log, "post-first,");
}

static void
test_add_backward_hooks (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnModule) m = scale_new (2);   /* y = x * w, w = ones */
  g_autoptr(GnnTensor) x = gnn_tensor_new_full ((gint64[]) { 2 }, 1, 3.0, GNN_DTYPE_FLOAT32, NULL, NULL);
  g_autoptr(GnnTensor) y = NULL, s = NULL;
  BwLog l = { g_string_new (NULL), 10.0 };
  guint h1, h2;

  gnn_tensor_set_requires_grad (x, TRUE, NULL);
  /* the added hooks are register_*_hook (hook) with prepend FALSE: they fire after the ones
   * registered before them */
  gnn_module_register_full_backward_pre_hook (m, bw_pre_first, &l, NULL, FALSE);
  gnn_module_register_full_backward_hook (m, bw_post_first, &l, NULL, FALSE);
  h1 = gnn_module_add_full_backward_pre_hook (m, bw_pre, &l, NULL);
  h2 = gnn_module_add_full_backward_hook (m, bw_post, &l, NULL);
  g_assert_cmpuint (h1, !=, 0);
  g_assert_cmpuint (h2, !=, h1);
  OK (y = gnn_module_forward_tensor (m, x, &error));
  OK (s = gnn_tensor_sum_all (y, &error));
  OK (gnn_tensor_backward (s, NULL, FALSE, &error));
  g_assert_cmpstr (l.log->str, ==, "pre-first,pre(1),post-first,post(grad),");
  /* dL/dx = w = 1, scaled by 10 by the added backward hook */
  gnn_test_assert_close (gnn_tensor_get_grad (x), GNN_TEST_DATA (10, 10), 2, 0, 1e-5);

  g_assert_true (gnn_module_remove_hook (m, h1));
  g_assert_true (gnn_module_remove_hook (m, h2));
  g_assert_false (gnn_module_remove_hook (m, h2));
  g_string_free (l.log, TRUE);
}

static void
test_new_from_type_name (void)
{
  g_autoptr(GError) error = NULL;
  const char *names[] = { "size" };
  GValue values[1] = { G_VALUE_INIT };
  g_autoptr(GnnModule) m = NULL;
  GnnModule *bad;

  g_type_ensure (test_scale_get_type ());
  g_value_init (&values[0], G_TYPE_INT);
  g_value_set_int (&values[0], 4);
  OK (m = gnn_module_new_from_type_name ("TestScale", 1, names, values, &error));
  g_assert_cmpint (gnn_tensor_get_numel (GNN_TENSOR (gnn_module_get_parameter (m, "weight", NULL))), ==, 4);

  g_value_set_int (&values[0], -1);
  bad = gnn_module_new_from_type_name ("TestScale", 1, names, values, &error);
  g_assert_null (bad);
  g_assert_nonnull (strstr (error->message, "size must be >= 0"));
  g_clear_error (&error);
  g_assert_null (gnn_module_new_from_type_name ("NoSuchType", 0, NULL, NULL, &error));
  g_assert_nonnull (strstr (error->message, "no type named 'NoSuchType'"));
  g_clear_error (&error);
  g_assert_null (gnn_module_new_from_type_name ("GnnTensor", 0, NULL, NULL, &error));
  g_assert_nonnull (strstr (error->message, "not a GnnModule"));
  g_clear_error (&error);
  g_assert_null (gnn_module_new_from_type_name ("TestScale", 1, (const char *[]) { "nope" }, values, &error));
  g_assert_nonnull (strstr (error->message, "no writable property 'nope'"));
  g_clear_error (&error);
  /* gnn's own layers are found without being used first */
  {
    const char *ln[] = { "in-features", "out-features" };
    GValue lv[2] = { G_VALUE_INIT, G_VALUE_INIT };
    g_autoptr(GnnModule) lin = NULL;
    g_value_init (&lv[0], G_TYPE_INT);
    g_value_set_int (&lv[0], 3);
    g_value_init (&lv[1], G_TYPE_INT);
    g_value_set_int (&lv[1], 2);
    OK (lin = gnn_module_new_from_type_name ("GnnLinear", 2, ln, lv, &error));
    g_assert_nonnull (gnn_module_get_parameter (lin, "bias", &error));
  }
  g_value_unset (&values[0]);
}

static void
test_skip_init (void)
{
  g_autoptr(GError) error = NULL;
  const char *names[] = { "in-features", "out-features" };
  GValue values[2] = { G_VALUE_INIT, G_VALUE_INIT };
  GnnGenerator *gen = gnn_generator_get_default ();
  g_autoptr(GnnModule) a = NULL, b = NULL;
  guint64 before;

  g_value_init (&values[0], G_TYPE_INT);
  g_value_set_int (&values[0], 30);
  g_value_init (&values[1], G_TYPE_INT);
  g_value_set_int (&values[1], 20);
  /* a normal construction draws its initialisation from the default generator ... */
  before = gnn_generator_get_offset (gen);
  OK (a = gnn_module_new_from_type_name ("GnnLinear", 2, names, values, &error));
  g_assert_cmpuint (gnn_generator_get_offset (gen), >, before);
  /* ... skip_init draws nothing, and the module is complete */
  before = gnn_generator_get_offset (gen);
  OK (b = gnn_module_new_skip_init ("GnnLinear", 2, names, values, &error));
  g_assert_cmpuint (gnn_generator_get_offset (gen), ==, before);
  g_assert_cmpint (gnn_tensor_get_numel (GNN_TENSOR (gnn_module_get_parameter (b, "weight", NULL))), ==, 600);
  g_assert_cmpint (gnn_tensor_get_numel (GNN_TENSOR (gnn_module_get_parameter (b, "bias", NULL))), ==, 20);
  /* and initialisation works again afterwards */
  before = gnn_generator_get_offset (gen);
  OK (gnn_init_normal_ (GNN_TENSOR (gnn_module_get_parameter (b, "bias", NULL)), 0, 1, NULL, &error));
  g_assert_cmpuint (gnn_generator_get_offset (gen), >, before);
  g_value_unset (&values[0]);
  g_value_unset (&values[1]);
}

/* ---- what an emission costs ------------------------------------------------------------ */

#define EMIT_CALLS 200000
#define EMIT_BATCHES 11

static void
count_post (GnnModule *m, GnnArgs *input, GnnArgs *output, gpointer data)
{
  (*(guint *) data)++;
}

static int
cmp_ns (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return (x > y) - (x < y);
}

/* Performance only (-m perf): one emission of forward-post (its genmarshal'd marshaller and
 * va_list form) with one handler, against a signal of the same signature left to GLib's
 * generic marshaller, the median of alternating batches. Run it with:
 * build/tests/c/test-module -m perf -p /nn/module/signal-cost */
static void
test_signal_cost (void)
{
  g_autoptr(GnnModule) m = scale_new (1);
  g_autoptr(GnnArgs) a = gnn_args_new ();
  g_autoptr(GnnArgs) b = gnn_args_new ();
  guint post = g_signal_lookup ("forward-post", GNN_TYPE_MODULE);
  guint generic, n = 0;
  double t[2][EMIT_BATCHES];

  if (!g_test_perf ())
    {
      g_test_skip ("a measurement: run with -m perf");
      return;
    }
  generic = g_signal_new ("test-generic-post", test_scale_get_type (), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                          NULL, G_TYPE_NONE, 2, GNN_TYPE_ARGS, GNN_TYPE_ARGS);
  g_signal_connect (m, "forward-post", G_CALLBACK (count_post), &n);
  g_signal_connect (m, "test-generic-post", G_CALLBACK (count_post), &n);
  for (int i = 0; i < EMIT_BATCHES; i++)
    for (int k = 0; k < 2; k++)
      {
        gint64 t0 = g_get_monotonic_time ();

        for (int j = 0; j < EMIT_CALLS; j++)
          g_signal_emit (m, k == 0 ? post : generic, 0, a, b);
        t[k][i] = (g_get_monotonic_time () - t0) * 1e3 / EMIT_CALLS;
      }
  for (int k = 0; k < 2; k++)
    qsort (t[k], EMIT_BATCHES, sizeof (double), cmp_ns);
  g_test_message ("one emission with one handler: forward-post %.1f ns, the generic marshaller %.1f ns",
                  t[0][EMIT_BATCHES / 2], t[1][EMIT_BATCHES / 2]);
  g_test_minimized_result (t[0][EMIT_BATCHES / 2], "%.1f ns an emission of forward-post", t[0][EMIT_BATCHES / 2]);
  g_assert_cmpuint (n, ==, 2 * EMIT_CALLS * EMIT_BATCHES);
}

int
main (int argc, char *argv[])
{
  gnn_test_init (&argc, &argv);
  g_test_add_func ("/nn/module/setup", test_setup_from_properties);
  g_test_add_func ("/nn/module/registration-errors", test_registration_errors);
  g_test_add_func ("/nn/module/tree", test_tree);
  g_test_add_func ("/nn/module/training-apply", test_training_and_apply);
  g_test_add_func ("/nn/module/grads-dtypes-devices", test_grads_dtypes_devices);
  g_test_add_func ("/nn/module/base-forward-error", test_base_forward_error);
  g_test_add_func ("/nn/module/forward-hooks", test_forward_hooks);
  g_test_add_func ("/nn/module/add-forward-hooks", test_add_forward_hooks);
  g_test_add_func ("/nn/module/backward-hooks", test_backward_hooks);
  g_test_add_func ("/nn/module/add-backward-hooks", test_add_backward_hooks);
  g_test_add_func ("/nn/module/new-from-type-name", test_new_from_type_name);
  g_test_add_func ("/nn/module/skip-init", test_skip_init);
  g_test_add_func ("/nn/module/signal-cost", test_signal_cost);
  g_test_add_func ("/nn/args/values", test_args);
  return g_test_run ();
}
