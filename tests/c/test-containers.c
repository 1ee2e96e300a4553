/* test-containers.c: Sequential, ModuleList, ModuleDict, ParameterList, ParameterDict */
#include "config.h"

#include "gnn-test-util.h"

#define OK(expr) G_STMT_START { (expr); g_assert_no_error (error); } G_STMT_END

/* ---- small modules to put in the containers ----------------------------------------- */

/* y = x * weight + bias, with weight = [factor] and bias = [1]; prints "TestLin(factor=2)" */
typedef struct { GnnModule parent_instance; double factor; } TestLin;
typedef struct { GnnModuleClass parent_class; } TestLinClass;
G_DEFINE_TYPE (TestLin, test_lin, GNN_TYPE_MODULE)

static gboolean
test_lin_setup (GnnModule *module, GError **error)
{
  TestLin *self = (TestLin *) module;
  g_autoptr(GnnTensor) w = NULL, b = NULL;
  g_autoptr(GnnParameter) pw = NULL, pb = NULL;

  w = gnn_tensor_new_full ((gint64[]) { 1 }, 1, self->factor, GNN_DTYPE_FLOAT64, NULL, error);
  b = gnn_tensor_new_ones ((gint64[]) { 1 }, 1, GNN_DTYPE_FLOAT64, NULL, error);
  if (w == NULL || b == NULL)
    return FALSE;
  pw = gnn_parameter_new (w, TRUE, error);
  pb = gnn_parameter_new (b, TRUE, error);
  return pw && pb &&
         gnn_module_register_parameter (module, "weight", pw, error) &&
         gnn_module_register_parameter (module, "bias", pb, error);
}

static GnnArgs *
test_lin_forward (GnnModule *module, GnnArgs *input, GError **error)
{
  GnnTensor *x = gnn_args_get_tensor (input, 0, error);
  g_autoptr(GnnTensor) xw = NULL, y = NULL;

  if (x == NULL)
    return NULL;
  xw = gnn_tensor_mul (x, GNN_TENSOR (gnn_module_get_parameter (module, "weight", NULL)), error);
  if (xw == NULL)
    return NULL;
  y = gnn_tensor_add (xw, GNN_TENSOR (gnn_module_get_parameter (module, "bias", NULL)), 1.0, error);
  return y ? gnn_args_new_tensor (y) : NULL;
}

static char *
test_lin_extra_repr (GnnModule *module)
{
  return g_strdup_printf ("factor=%g", ((TestLin *) module)->factor);
}

static void
test_lin_set_property (GObject *o, guint id, const GValue *v, GParamSpec *ps)
{
  ((TestLin *) o)->factor = g_value_get_double (v);
}

static void
test_lin_get_property (GObject *o, guint id, GValue *v, GParamSpec *ps)
{
  g_value_set_double (v, ((TestLin *) o)->factor);
}

static void
test_lin_class_init (TestLinClass *klass)
{
  GObjectClass *oc = G_OBJECT_CLASS (klass);
  GnnModuleClass *mc = GNN_MODULE_CLASS (klass);

  oc->set_property = test_lin_set_property;
  oc->get_property = test_lin_get_property;
  mc->setup = test_lin_setup;
  mc->forward = test_lin_forward;
  mc->extra_repr = test_lin_extra_repr;
  g_object_class_install_property (oc, 1,
    g_param_spec_double ("factor", NULL, NULL, -G_MAXDOUBLE, G_MAXDOUBLE, 1.0,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));
}

static void
test_lin_init (TestLin *self)
{
}

static GnnModule *
lin (double factor)
{
  return g_object_new (test_lin_get_type (), "factor", factor, NULL);
}

/* relu, no parameters: prints "TestAct()" */
typedef struct { GnnModule parent_instance; } TestAct;
typedef struct { GnnModuleClass parent_class; } TestActClass;
G_DEFINE_TYPE (TestAct, test_act, GNN_TYPE_MODULE)

static GnnArgs *
test_act_forward (GnnModule *module, GnnArgs *input, GError **error)
{
  GnnTensor *x = gnn_args_get_tensor (input, 0, error);
  g_autoptr(GnnTensor) y = NULL;

  if (x == NULL)
    return NULL;
  y = gnn_tensor_relu (x, error);
  return y ? gnn_args_new_tensor (y) : NULL;
}

static void
test_act_class_init (TestActClass *klass)
{
  GNN_MODULE_CLASS (klass)->forward = test_act_forward;
}

static void
test_act_init (TestAct *self)
{
}

static GnnModule *
act (void)
{
  return g_object_new (test_act_get_type (), NULL);
}

/* a subclass of Sequential, as `class MySeq (nn.Sequential)` */
typedef struct { GnnSequential parent_instance; } TestMySeq;
typedef struct { GnnSequentialClass parent_class; } TestMySeqClass;
G_DEFINE_TYPE (TestMySeq, test_my_seq, GNN_TYPE_SEQUENTIAL)

static gboolean
test_my_seq_setup (GnnModule *module, GError **error)
{
  g_autoptr(GnnModule) a = lin (2), b = act ();

  gnn_sequential_append (GNN_SEQUENTIAL (module), a);
  gnn_sequential_append (GNN_SEQUENTIAL (module), b);
  return GNN_MODULE_CLASS (test_my_seq_parent_class)->setup (module, error);
}

static void
test_my_seq_class_init (TestMySeqClass *klass)
{
  GNN_MODULE_CLASS (klass)->setup = test_my_seq_setup;
}

static void
test_my_seq_init (TestMySeq *self)
{
}

/* ---- helpers ------------------------------------------------------------------------- */

static void
assert_strv (char **got, const char *const *want)
{
  g_assert_cmpstrv (got, want);
}

static void
assert_param_names (GnnModule *m, const char *const *want)
{
  g_auto(GStrv) names = NULL;
  g_autoptr(GPtrArray) p = gnn_module_named_parameters (m, NULL, TRUE, TRUE, &names);

  assert_strv (names, want);
}

static void
assert_module_names (GnnModule *m, const char *const *want)
{
  g_auto(GStrv) names = NULL;
  g_autoptr(GPtrArray) p = gnn_module_named_modules (m, NULL, TRUE, &names);

  assert_strv (names, want);
}

static void
assert_repr (GnnModule *m, const char *want)
{
  g_autofree char *s = gnn_module_to_string (m);

  g_assert_cmpstr (s, ==, want);
}

static GnnTensor *
vec (double a, double b)
{
  return gnn_test_tensor_d (GNN_TEST_DATA (a, b), 2, GNN_TEST_SHAPE (2), 1);
}

/* ---- Sequential ---------------------------------------------------------------------- */

static void
test_sequential_basics (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnModule) a = lin (2), b = act (), c = lin (3), d = act ();
  GnnModule *mods[] = { a, b, c };
  GnnSequential *seq = gnn_sequential_new (mods, 3);
  g_autoptr(GnnTensor) x = vec (-1, 1);
  g_autoptr(GnnTensor) y = NULL;

  g_assert_cmpuint (gnn_sequential_get_length (seq), ==, 3);
  g_assert_true (gnn_sequential_get (seq, 0, &error) == a);
  g_assert_true (gnn_sequential_get (seq, -1, &error) == c);
  g_assert_true (gnn_sequential_get (seq, -3, &error) == a);
  g_assert_no_error (error);
  g_assert_null (gnn_sequential_get (seq, 3, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INDEX);
  g_assert_cmpstr (error->message, ==, "index 3 is out of range");
  g_clear_error (&error);
  g_assert_null (gnn_sequential_get (seq, -4, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INDEX);
  g_clear_error (&error);

  assert_param_names (GNN_MODULE (seq), (const char *[]) { "0.weight", "0.bias", "2.weight", "2.bias", NULL });
  assert_module_names (GNN_MODULE (seq), (const char *[]) { "", "0", "1", "2", NULL });

  /* (-1, 1) -> *2+1 -> (-1, 3) -> relu -> (0, 3) -> *3+1 -> (1, 10) */
  OK (y = gnn_module_forward_tensor (GNN_MODULE (seq), x, &error));
  gnn_test_assert_close (y, GNN_TEST_DATA (1, 10), 2, 0, 0);

  assert_repr (GNN_MODULE (seq),
               "Sequential(\n"
               "  (0): TestLin(factor=2)\n"
               "  (1): TestAct()\n"
               "  (2): TestLin(factor=3)\n"
               ")");

  gnn_sequential_append (seq, d);
  g_assert_cmpuint (gnn_sequential_get_length (seq), ==, 4);
  g_assert_true (gnn_sequential_get (seq, -1, &error) == d);
  g_assert_no_error (error);
  g_clear_object (&y);
  OK (y = gnn_module_forward_tensor (GNN_MODULE (seq), x, &error));
  gnn_test_assert_close (y, GNN_TEST_DATA (1, 10), 2, 0, 0);

  g_assert_finalize_object (seq);
}

static void
test_sequential_empty (void)
{
  g_autoptr(GError) error = NULL;
  GnnSequential *seq = gnn_sequential_new (NULL, 0);
  g_autoptr(GnnTensor) x = vec (1, 2);
  g_autoptr(GnnArgs) in = gnn_args_new_tensor (x);
  g_autoptr(GnnArgs) out = NULL;

  g_assert_cmpuint (gnn_sequential_get_length (seq), ==, 0);
  OK (out = gnn_module_forward (GNN_MODULE (seq), in, &error));
  g_assert_true (gnn_args_get_tensor (out, 0, &error) == x);
  assert_repr (GNN_MODULE (seq), "Sequential()");
  g_assert_null (gnn_sequential_get (seq, 0, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INDEX);
  g_assert_finalize_object (seq);
}

static void
test_sequential_subclass (void)
{
  g_autoptr(GError) error = NULL;
  GnnModule *seq = g_object_new (test_my_seq_get_type (), NULL);
  g_autoptr(GnnTensor) x = vec (-1, 1);
  g_autoptr(GnnTensor) y = NULL;

  g_assert_true (GNN_IS_SEQUENTIAL (seq));
  g_assert_cmpuint (gnn_sequential_get_length (GNN_SEQUENTIAL (seq)), ==, 2);
  OK (y = gnn_module_forward_tensor (seq, x, &error));
  gnn_test_assert_close (y, GNN_TEST_DATA (0, 3), 2, 0, 0);
  assert_repr (seq, "TestMySeq(\n  (0): TestLin(factor=2)\n  (1): TestAct()\n)");
  g_assert_finalize_object (seq);
}

static void
test_sequential_error (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnModule) a = lin (2);
  GnnModuleList *list = gnn_module_list_new (NULL, 0);
  GnnModule *mods[] = { a, GNN_MODULE (list) };
  GnnSequential *seq = gnn_sequential_new (mods, 2);
  g_autoptr(GnnTensor) x = vec (-1, 1);

  g_object_unref (list);
  g_assert_null (gnn_module_forward_tensor (GNN_MODULE (seq), x, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED);
  g_assert_cmpstr (error->message, ==, "Module [ModuleList] is missing the required \"forward\" function");
  g_assert_finalize_object (seq);
}

/* ---- ModuleList ---------------------------------------------------------------------- */

static void
test_module_list (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnModule) a = lin (1), b = lin (2), c = lin (3), d = act (), e = act (), f = act ();
  GnnModule *abc[] = { a, b };
  GnnModuleList *list = gnn_module_list_new (abc, 2);
  GnnModule *holder = g_object_new (GNN_TYPE_MODULE, NULL);
  g_autoptr(GnnModule) popped = NULL;
  g_autoptr(GnnTensor) x = vec (1, 2);

  OK (gnn_module_register_module (holder, "layers", GNN_MODULE (list), &error));
  g_object_unref (list);
  gnn_module_list_append (list, c);
  g_assert_cmpuint (gnn_module_list_get_length (list), ==, 3);
  assert_param_names (holder, (const char *[]) { "layers.0.weight", "layers.0.bias", "layers.1.weight",
                                                 "layers.1.bias", "layers.2.weight", "layers.2.bias", NULL });

  /* insert renumbers what follows: a d b c */
  OK (gnn_module_list_insert (list, 1, d, &error));
  g_assert_true (gnn_module_list_get (list, 1, &error) == d);
  g_assert_true (gnn_module_list_get (list, 2, &error) == b);
  g_assert_true (gnn_module_list_get (list, -1, &error) == c);
  /* -1 goes before the last one: a d b e c */
  OK (gnn_module_list_insert (list, -1, e, &error));
  g_assert_true (gnn_module_list_get (list, 3, &error) == e);
  /* the length appends: a d b e c f */
  OK (gnn_module_list_insert (list, 5, f, &error));
  g_assert_true (gnn_module_list_get (list, -1, &error) == f);
  assert_module_names (holder, (const char *[]) { "", "layers", "layers.0", "layers.1", "layers.2",
                                                  "layers.3", "layers.4", "layers.5", NULL });
  assert_param_names (holder, (const char *[]) { "layers.0.weight", "layers.0.bias", "layers.2.weight",
                                                 "layers.2.bias", "layers.4.weight", "layers.4.bias", NULL });

  g_assert_false (gnn_module_list_insert (list, 7, f, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INDEX);
  g_clear_error (&error);
  g_assert_false (gnn_module_list_insert (list, -7, f, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INDEX);
  g_clear_error (&error);
  g_assert_null (gnn_module_list_get (list, 6, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INDEX);
  g_clear_error (&error);

  /* pop renumbers too: a b e c f */
  OK (popped = gnn_module_list_pop (list, 1, &error));
  g_assert_true (popped == d);
  g_assert_cmpuint (gnn_module_list_get_length (list), ==, 5);
  g_assert_true (gnn_module_list_get (list, 1, &error) == b);
  assert_module_names (holder, (const char *[]) { "", "layers", "layers.0", "layers.1", "layers.2",
                                                  "layers.3", "layers.4", NULL });
  g_assert_null (gnn_module_list_pop (list, 5, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INDEX);
  g_clear_error (&error);

  /* set: a b d c f */
  OK (gnn_module_list_set (list, -3, d, &error));
  g_assert_true (gnn_module_list_get (list, 2, &error) == d);
  g_assert_false (gnn_module_list_set (list, 5, d, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INDEX);
  g_clear_error (&error);

  assert_repr (holder,
               "Module(\n"
               "  (layers): ModuleList(\n"
               "    (0): TestLin(factor=1)\n"
               "    (1): TestLin(factor=2)\n"
               "    (2): TestAct()\n"
               "    (3): TestLin(factor=3)\n"
               "    (4): TestAct()\n"
               "  )\n"
               ")");

  /* no forward of its own */
  g_assert_null (gnn_module_forward_tensor (GNN_MODULE (list), x, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED);
  g_assert_cmpstr (error->message, ==, "Module [ModuleList] is missing the required \"forward\" function");

  g_assert_finalize_object (holder);
}

static void
test_module_list_extend (void)
{
  g_autoptr(GnnModule) a = lin (1), b = act ();
  GnnModule *ab[] = { a, b };
  GnnModuleList *list = gnn_module_list_new (NULL, 0);

  assert_repr (GNN_MODULE (list), "ModuleList()");
  gnn_module_list_extend (list, ab, 2);
  gnn_module_list_extend (list, ab, 2);
  g_assert_cmpuint (gnn_module_list_get_length (list), ==, 4);
  /* the same module twice: named_modules lists it once, as PyTorch */
  assert_module_names (GNN_MODULE (list), (const char *[]) { "", "0", "1", NULL });
  assert_param_names (GNN_MODULE (list), (const char *[]) { "0.weight", "0.bias", NULL });
  assert_repr (GNN_MODULE (list),
               "ModuleList(\n"
               "  (0): TestLin(factor=1)\n"
               "  (1): TestAct()\n"
               "  (2): TestLin(factor=1)\n"
               "  (3): TestAct()\n"
               ")");
  g_assert_finalize_object (list);
}

/* ---- ModuleDict ---------------------------------------------------------------------- */

static void
test_module_dict (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnModule) a = lin (1), b = act (), c = lin (5);
  GnnModuleDict *dict = gnn_module_dict_new ();
  g_auto(GStrv) keys = NULL, keys2 = NULL;
  g_autoptr(GnnModule) popped = NULL;

  OK (gnn_module_dict_set (dict, "zeta", a, &error));
  OK (gnn_module_dict_set (dict, "act", b, &error));
  keys = gnn_module_dict_keys (dict);
  assert_strv (keys, (const char *[]) { "zeta", "act", NULL });
  g_assert_cmpuint (gnn_module_dict_get_length (dict), ==, 2);
  g_assert_true (gnn_module_dict_contains (dict, "act"));
  g_assert_false (gnn_module_dict_contains (dict, "nope"));
  g_assert_true (gnn_module_dict_get (dict, "zeta", &error) == a);
  g_assert_no_error (error);

  /* replacing keeps the place */
  OK (gnn_module_dict_set (dict, "zeta", c, &error));
  g_assert_true (gnn_module_dict_get (dict, "zeta", &error) == c);
  assert_param_names (GNN_MODULE (dict), (const char *[]) { "zeta.weight", "zeta.bias", NULL });
  assert_repr (GNN_MODULE (dict),
               "ModuleDict(\n"
               "  (zeta): TestLin(factor=5)\n"
               "  (act): TestAct()\n"
               ")");

  /* bad keys and missing keys */
  g_assert_false (gnn_module_dict_set (dict, "", a, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  g_assert_false (gnn_module_dict_set (dict, "a.b", a, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  g_assert_false (gnn_module_dict_set (dict, "training", a, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  g_assert_null (gnn_module_dict_get (dict, "nope", &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INDEX);
  g_clear_error (&error);
  g_assert_null (gnn_module_dict_pop (dict, "nope", &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INDEX);
  g_clear_error (&error);

  OK (popped = gnn_module_dict_pop (dict, "zeta", &error));
  g_assert_true (popped == c);
  keys2 = gnn_module_dict_keys (dict);
  assert_strv (keys2, (const char *[]) { "act", NULL });
  gnn_module_dict_clear (dict);
  g_assert_cmpuint (gnn_module_dict_get_length (dict), ==, 0);
  assert_repr (GNN_MODULE (dict), "ModuleDict()");
  g_assert_finalize_object (dict);
}

/* ---- ParameterList / ParameterDict --------------------------------------------------- */

static GnnTensor *
zeros (GnnDtype dtype, guint ndim, const gint64 *shape)
{
  g_autoptr(GError) error = NULL;
  GnnTensor *t = gnn_tensor_new_zeros (shape, ndim, dtype, NULL, &error);

  g_assert_no_error (error);
  return t;
}

static void
test_parameter_list (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) t0 = zeros (GNN_DTYPE_FLOAT32, 1, GNN_TEST_SHAPE (3));
  g_autoptr(GnnTensor) t1 = zeros (GNN_DTYPE_FLOAT64, 2, GNN_TEST_SHAPE (2, 3));
  g_autoptr(GnnTensor) t2 = zeros (GNN_DTYPE_INT64, 1, GNN_TEST_SHAPE (2));
  g_autoptr(GnnParameter) p0 = gnn_parameter_new (t0, TRUE, &error);
  GnnParameterList *list = gnn_parameter_list_new ((GnnParameter *[]) { p0 }, 1);
  GnnModule *holder = g_object_new (GNN_TYPE_MODULE, NULL);
  GnnParameter *p1;

  OK (gnn_module_register_module (holder, "params", GNN_MODULE (list), &error));
  g_object_unref (list);
  assert_repr (holder,
               "Module(\n"
               "  (params): ParameterList(  (0): Parameter containing: [torch.float32 of size 3])\n"
               ")");

  /* a plain tensor becomes a parameter that requires grad and shares the data */
  OK (gnn_parameter_list_append (list, t1, &error));
  OK (p1 = gnn_parameter_list_get (list, -1, &error));
  g_assert_true (GNN_IS_PARAMETER (p1));
  g_assert_true (gnn_tensor_get_requires_grad (GNN_TENSOR (p1)));
  g_assert_true (gnn_tensor_shares_storage (GNN_TENSOR (p1), t1));
  g_assert_true (gnn_parameter_list_get (list, 0, &error) == p0);
  g_assert_cmpuint (gnn_parameter_list_get_length (list), ==, 2);

  /* an integer tensor cannot be a parameter */
  g_assert_false (gnn_parameter_list_append (list, t2, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_DTYPE);
  g_clear_error (&error);
  g_assert_null (gnn_parameter_list_get (list, 2, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INDEX);
  g_clear_error (&error);
  g_assert_false (gnn_parameter_list_set (list, -3, t0, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INDEX);
  g_clear_error (&error);

  assert_param_names (holder, (const char *[]) { "params.0", "params.1", NULL });
  assert_repr (GNN_MODULE (list),
               "ParameterList(\n"
               "    (0): Parameter containing: [torch.float32 of size 3]\n"
               "    (1): Parameter containing: [torch.float64 of size 2x3]\n"
               ")");

  OK (gnn_parameter_list_set (list, -2, GNN_TENSOR (p1), &error));
  g_assert_true (gnn_parameter_list_get (list, 0, &error) == p1);
  g_assert_finalize_object (holder);
}

static void
test_parameter_dict (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) t0 = zeros (GNN_DTYPE_FLOAT32, 1, GNN_TEST_SHAPE (3));
  g_autoptr(GnnTensor) t1 = zeros (GNN_DTYPE_FLOAT64, 2, GNN_TEST_SHAPE (2, 2));
  g_autoptr(GnnTensor) t2 = zeros (GNN_DTYPE_FLOAT32, 0, NULL);
  GnnParameterDict *dict = gnn_parameter_dict_new ();
  GnnModule *holder = g_object_new (GNN_TYPE_MODULE, NULL);
  g_auto(GStrv) keys = NULL;
  g_autoptr(GnnParameter) popped = NULL;
  GnnParameter *foo;

  OK (gnn_module_register_module (holder, "param_dict", GNN_MODULE (dict), &error));
  g_object_unref (dict);
  assert_repr (GNN_MODULE (dict), "ParameterDict()");
  OK (gnn_parameter_dict_set (dict, "foo", t0, &error));
  OK (foo = gnn_parameter_dict_get (dict, "foo", &error));
  g_assert_true (gnn_tensor_get_requires_grad (GNN_TENSOR (foo)));
  assert_repr (holder,
               "Module(\n"
               "  (param_dict): ParameterDict(  (foo): Parameter containing: [torch.FloatTensor of size 3])\n"
               ")");
  OK (gnn_parameter_dict_set (dict, "bar", t1, &error));
  OK (gnn_parameter_dict_set (dict, "s", t2, &error));
  keys = gnn_parameter_dict_keys (dict);
  assert_strv (keys, (const char *[]) { "foo", "bar", "s", NULL });
  g_assert_cmpuint (gnn_parameter_dict_get_length (dict), ==, 3);
  g_assert_true (gnn_parameter_dict_contains (dict, "bar"));
  g_assert_false (gnn_parameter_dict_contains (dict, "baz"));
  assert_param_names (holder, (const char *[]) { "param_dict.foo", "param_dict.bar", "param_dict.s", NULL });
  assert_repr (GNN_MODULE (dict),
               "ParameterDict(\n"
               "    (foo): Parameter containing: [torch.FloatTensor of size 3]\n"
               "    (bar): Parameter containing: [torch.DoubleTensor of size 2x2]\n"
               "    (s): Parameter containing: [torch.FloatTensor of size ]\n"
               ")");

  g_assert_false (gnn_parameter_dict_set (dict, "a.b", t0, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  g_assert_false (gnn_parameter_dict_set (dict, "", t0, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  g_assert_null (gnn_parameter_dict_get (dict, "baz", &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INDEX);
  g_clear_error (&error);

  OK (popped = gnn_parameter_dict_pop (dict, "foo", &error));
  g_assert_true (popped == foo);
  g_assert_false (gnn_parameter_dict_contains (dict, "foo"));
  g_assert_null (gnn_parameter_dict_pop (dict, "foo", &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INDEX);
  g_assert_finalize_object (holder);
}

/* ---- everything together ------------------------------------------------------------- */

static void
test_nested (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnModule) a = lin (2), b = act ();
  g_autoptr(GnnTensor) t = zeros (GNN_DTYPE_FLOAT32, 1, GNN_TEST_SHAPE (3));
  GnnModule *net = g_object_new (GNN_TYPE_MODULE, NULL);
  GnnModule *inner[] = { a, b };
  g_autoptr(GnnSequential) seq = gnn_sequential_new (inner, 2);
  GnnModule *blocks[] = { GNN_MODULE (seq), a };
  g_autoptr(GnnModuleList) list = gnn_module_list_new (blocks, 2);
  g_autoptr(GnnModuleDict) dict = gnn_module_dict_new ();
  g_autoptr(GnnParameterList) plist = gnn_parameter_list_new (NULL, 0);
  g_autoptr(GnnParameterDict) pdict = gnn_parameter_dict_new ();
  g_autoptr(GnnModule) c = lin (4);

  OK (gnn_parameter_list_append (plist, t, &error));
  OK (gnn_parameter_dict_set (pdict, "foo", t, &error));
  OK (gnn_module_dict_set (dict, "head", c, &error));
  OK (gnn_module_register_module (net, "blocks", GNN_MODULE (list), &error));
  OK (gnn_module_register_module (net, "heads", GNN_MODULE (dict), &error));
  OK (gnn_module_register_module (net, "params", GNN_MODULE (plist), &error));
  OK (gnn_module_register_module (net, "param_dict", GNN_MODULE (pdict), &error));

  assert_param_names (net, (const char *[]) { "blocks.0.0.weight", "blocks.0.0.bias", "heads.head.weight",
                                              "heads.head.bias", "params.0", "param_dict.foo", NULL });
  assert_module_names (net, (const char *[]) { "", "blocks", "blocks.0", "blocks.0.0", "blocks.0.1",
                                               "heads", "heads.head", "params", "param_dict", NULL });
  assert_repr (net,
               "Module(\n"
               "  (blocks): ModuleList(\n"
               "    (0): Sequential(\n"
               "      (0): TestLin(factor=2)\n"
               "      (1): TestAct()\n"
               "    )\n"
               "    (1): TestLin(factor=2)\n"
               "  )\n"
               "  (heads): ModuleDict(\n"
               "    (head): TestLin(factor=4)\n"
               "  )\n"
               "  (params): ParameterList(  (0): Parameter containing: [torch.float32 of size 3])\n"
               "  (param_dict): ParameterDict(  (foo): Parameter containing: [torch.FloatTensor of size 3])\n"
               ")");
  g_assert_finalize_object (net);
}

/* ---- with gnn's own layers ----------------------------------------------------------- */

static void
test_with_linear (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnLinear) fc = gnn_linear_new (4, 3, TRUE, &error);
  g_autoptr(GnnReLU) relu = gnn_relu_new ();
  g_autoptr(GnnLinear) out = gnn_linear_new (3, 1, FALSE, &error);
  GnnModule *mods[] = { GNN_MODULE (fc), GNN_MODULE (relu), GNN_MODULE (out) };
  GnnSequential *seq = gnn_sequential_new (mods, 3);

  g_assert_no_error (error);
  assert_repr (GNN_MODULE (seq),
               "Sequential(\n"
               "  (0): Linear(in_features=4, out_features=3, bias=True)\n"
               "  (1): ReLU()\n"
               "  (2): Linear(in_features=3, out_features=1, bias=False)\n"
               ")");
  assert_param_names (GNN_MODULE (seq), (const char *[]) { "0.weight", "0.bias", "2.weight", NULL });
  g_assert_finalize_object (seq);
}

int
main (int argc, char *argv[])
{
  gnn_test_init (&argc, &argv);
  g_test_add_func ("/nn/containers/sequential/basics", test_sequential_basics);
  g_test_add_func ("/nn/containers/sequential/empty", test_sequential_empty);
  g_test_add_func ("/nn/containers/sequential/subclass", test_sequential_subclass);
  g_test_add_func ("/nn/containers/sequential/error", test_sequential_error);
  g_test_add_func ("/nn/containers/module-list/insert-pop", test_module_list);
  g_test_add_func ("/nn/containers/module-list/extend", test_module_list_extend);
  g_test_add_func ("/nn/containers/module-dict/basics", test_module_dict);
  g_test_add_func ("/nn/containers/parameter-list/basics", test_parameter_list);
  g_test_add_func ("/nn/containers/parameter-dict/basics", test_parameter_dict);
  g_test_add_func ("/nn/containers/nested", test_nested);
  g_test_add_func ("/nn/containers/sequential/linear", test_with_linear);
  return g_test_run ();
}
