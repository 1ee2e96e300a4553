/* test-props.c: the property field table (gnn-props-private.h): reading and writing members
 * of every kind, the early-return-then-notify rule, NULL as the default, owned values freed,
 * checks that return a GError, and the layers that use it */
#include "gnn-test-util.h"
#include "nn/gnn-props-private.h"

/* ---- a class of every kind ------------------------------------------------------------ */

#define TEST_TYPE_THING (test_thing_get_type ())
G_DECLARE_FINAL_TYPE (TestThing, test_thing, TEST, THING, GObject)

typedef struct {
  double rate;   /* a member of the private struct */
} TestThingPrivate;

struct _TestThing
{
  GObject parent_instance;

  gboolean flag;
  int count;
  guint ucount;
  gint64 big;
  double scale;
  GnnDtype dtype;
  char *name;
  GVariant *sizes;
  GnnTensor *tensor;
  GBytes *bytes;
  int size;        /* construct-only, checked */
  int derived;     /* read through an accessor */
};

enum {
  PROP_0,
  PROP_FLAG,
  PROP_COUNT,
  PROP_UCOUNT,
  PROP_BIG,
  PROP_SCALE,
  PROP_DTYPE,
  PROP_NAME,
  PROP_SIZES,
  PROP_TENSOR,
  PROP_BYTES,
  PROP_SIZE,
  PROP_RATE,
  PROP_DERIVED,
  N_PROPS
};

static GnnProp props[N_PROPS];

G_DEFINE_FINAL_TYPE_WITH_PRIVATE (TestThing, test_thing, G_TYPE_OBJECT)

static void
test_thing_finalize (GObject *object)
{
  gnn_props_clear (object);
  G_OBJECT_CLASS (test_thing_parent_class)->finalize (object);
}

static void
derived_get (GObject *object, GParamSpec *pspec, GValue *value)
{
  g_value_set_int (value, TEST_THING (object)->derived * 10);
}

static void
test_thing_class_init (TestThingClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = test_thing_finalize;
  props[PROP_FLAG] = (GnnProp) { g_param_spec_boolean ("flag", NULL, NULL, FALSE, GNN_PARAM_RW),
                                 G_STRUCT_OFFSET (TestThing, flag) };
  props[PROP_COUNT] = (GnnProp) { g_param_spec_int ("count", NULL, NULL, G_MININT, G_MAXINT, 3,
                                                    GNN_PARAM_RW | G_PARAM_CONSTRUCT),
                                  G_STRUCT_OFFSET (TestThing, count), gnn_prop_check_non_negative };
  props[PROP_UCOUNT] = (GnnProp) { g_param_spec_uint ("ucount", NULL, NULL, 0, G_MAXUINT, 0, GNN_PARAM_RW),
                                   G_STRUCT_OFFSET (TestThing, ucount) };
  props[PROP_BIG] = (GnnProp) { g_param_spec_int64 ("big", NULL, NULL, G_MININT64, G_MAXINT64, 0, GNN_PARAM_RW),
                                G_STRUCT_OFFSET (TestThing, big) };
  props[PROP_SCALE] = (GnnProp) { g_param_spec_double ("scale", NULL, NULL, -G_MAXDOUBLE, G_MAXDOUBLE, 1.0,
                                                       GNN_PARAM_RW | G_PARAM_CONSTRUCT),
                                  G_STRUCT_OFFSET (TestThing, scale), gnn_prop_check_positive };
  props[PROP_DTYPE] = (GnnProp) { g_param_spec_enum ("dtype", NULL, NULL, GNN_TYPE_DTYPE, GNN_DTYPE_FLOAT32,
                                                     GNN_PARAM_RW | G_PARAM_CONSTRUCT),
                                  G_STRUCT_OFFSET (TestThing, dtype) };
  props[PROP_NAME] = (GnnProp) { g_param_spec_string ("name", NULL, NULL, "none", GNN_PARAM_RW | G_PARAM_CONSTRUCT),
                                 G_STRUCT_OFFSET (TestThing, name) };
  props[PROP_SIZES] = (GnnProp) {
    g_param_spec_variant ("sizes", NULL, NULL, G_VARIANT_TYPE ("ax"), NULL, GNN_PARAM_RW | G_PARAM_CONSTRUCT),
    G_STRUCT_OFFSET (TestThing, sizes) };
  props[PROP_TENSOR] = (GnnProp) { g_param_spec_object ("tensor", NULL, NULL, GNN_TYPE_TENSOR, GNN_PARAM_RW),
                                   G_STRUCT_OFFSET (TestThing, tensor) };
  props[PROP_BYTES] = (GnnProp) { g_param_spec_boxed ("bytes", NULL, NULL, G_TYPE_BYTES, GNN_PARAM_RW),
                                  G_STRUCT_OFFSET (TestThing, bytes) };
  props[PROP_SIZE] = (GnnProp) { g_param_spec_int ("size", NULL, NULL, G_MININT, G_MAXINT, 0,
                                                   GNN_PARAM_RW | G_PARAM_CONSTRUCT_ONLY),
                                 G_STRUCT_OFFSET (TestThing, size), gnn_prop_check_size };
  props[PROP_RATE] = (GnnProp) { g_param_spec_double ("rate", NULL, NULL, -G_MAXDOUBLE, G_MAXDOUBLE, 0.5,
                                                      GNN_PARAM_RW | G_PARAM_CONSTRUCT),
                                 G_PRIVATE_OFFSET (TestThing, rate) };
  props[PROP_DERIVED] = (GnnProp) { g_param_spec_int ("derived", NULL, NULL, G_MININT, G_MAXINT, 0, GNN_PARAM_RW),
                                    G_STRUCT_OFFSET (TestThing, derived), NULL, derived_get };
  gnn_props_install (object_class, props, N_PROPS);
}

static void
test_thing_init (TestThing *self)
{
}

/* counts notify::<name> */
static void
count_notify (GObject *object, GParamSpec *pspec, gpointer data)
{
  (*(int *) data)++;
}

static void
test_props_members (void)
{
  g_autoptr(GnnTensor) t = gnn_tensor_new_zeros (GNN_TEST_SHAPE (2), 1, GNN_DTYPE_FLOAT32, NULL, NULL);
  g_autoptr(GBytes) bytes = g_bytes_new ("abc", 3);
  g_autoptr(GVariant) sizes = g_variant_ref_sink (g_variant_new_fixed_array (G_VARIANT_TYPE_INT64,
                                                                             (gint64[]) { 2, 5 }, 2,
                                                                             sizeof (gint64)));
  TestThing *thing;
  gboolean flag;
  int count, derived;
  guint ucount;
  gint64 big;
  double scale, rate;
  GnnDtype dtype;
  g_autofree char *name = NULL;
  g_autoptr(GVariant) got_sizes = NULL;
  g_autoptr(GnnTensor) got_tensor = NULL;
  g_autoptr(GBytes) got_bytes = NULL;

  /* the defaults of construct properties are written at construction */
  thing = g_object_new (TEST_TYPE_THING, NULL);
  g_assert_cmpint (thing->count, ==, 3);
  g_assert_cmpfloat (thing->scale, ==, 1.0);
  g_assert_cmpstr (thing->name, ==, "none");
  g_assert_null (thing->sizes);
  g_assert_cmpfloat (((TestThingPrivate *) test_thing_get_instance_private (thing))->rate, ==, 0.5);

  g_object_set (thing, "flag", TRUE, "count", 4, "ucount", 5u, "big", G_GINT64_CONSTANT (1) << 40,
                "scale", 2.5, "dtype", GNN_DTYPE_FLOAT64, "name", "tanh", "sizes", sizes,
                "tensor", t, "bytes", bytes, "rate", 0.25, "derived", 4, NULL);
  gnn_prop_set (thing, &props[PROP_FLAG], 7);
  g_assert_true (thing->flag == TRUE);   /* normalised */
  g_assert_true (thing->sizes == sizes); /* a reference of its own */
  g_object_get (thing, "flag", &flag, "count", &count, "ucount", &ucount, "big", &big,
                "scale", &scale, "dtype", &dtype, "name", &name, "sizes", &got_sizes,
                "tensor", &got_tensor, "bytes", &got_bytes, "rate", &rate, "derived", &derived, NULL);
  g_assert_true (flag);
  g_assert_cmpint (count, ==, 4);
  g_assert_cmpuint (ucount, ==, 5);
  g_assert_cmpint (big, ==, G_GINT64_CONSTANT (1) << 40);
  g_assert_cmpfloat (scale, ==, 2.5);
  g_assert_cmpint (dtype, ==, GNN_DTYPE_FLOAT64);
  g_assert_cmpstr (name, ==, "tanh");
  g_assert_true (g_variant_equal (got_sizes, sizes));
  g_assert_true (got_tensor == t);
  g_assert_true (g_bytes_equal (got_bytes, bytes));
  g_assert_cmpfloat (rate, ==, 0.25);
  g_assert_cmpint (derived, ==, 40);   /* through the accessor */

  /* NULL restores the default of a string */
  g_object_set (thing, "name", NULL, "sizes", NULL, "tensor", NULL, NULL);
  g_assert_cmpstr (thing->name, ==, "none");
  g_assert_null (thing->sizes);
  g_assert_null (thing->tensor);

  /* owned values are freed by gnn_props_clear (valgrind checks it) */
  g_object_set (thing, "tensor", t, NULL);
  g_assert_finalize_object (thing);
}

static void
test_props_notify (void)
{
  TestThing *thing = g_object_new (TEST_TYPE_THING, "size", 2, NULL);
  int n_count = 0, n_name = 0, n_sizes = 0, n_any = 0;
  g_autoptr(GVariant) a = g_variant_ref_sink (g_variant_new_fixed_array (G_VARIANT_TYPE_INT64, (gint64[]) { 1 },
                                                                         1, sizeof (gint64)));
  g_autoptr(GVariant) b = g_variant_ref_sink (g_variant_new_fixed_array (G_VARIANT_TYPE_INT64, (gint64[]) { 1 },
                                                                         1, sizeof (gint64)));

  g_signal_connect (thing, "notify::count", G_CALLBACK (count_notify), &n_count);
  g_signal_connect (thing, "notify::name", G_CALLBACK (count_notify), &n_name);
  g_signal_connect (thing, "notify::sizes", G_CALLBACK (count_notify), &n_sizes);
  g_signal_connect (thing, "notify", G_CALLBACK (count_notify), &n_any);

  /* unchanged: no notify */
  g_object_set (thing, "count", 3, "name", "none", NULL);
  g_assert_cmpint (n_count, ==, 0);
  g_assert_cmpint (n_name, ==, 0);
  g_object_set (thing, "name", NULL, NULL);   /* NULL is the default, which it holds */
  g_assert_cmpint (n_name, ==, 0);

  /* changed: one notify each */
  g_object_set (thing, "count", 8, NULL);
  g_assert_cmpint (n_count, ==, 1);
  g_object_set (thing, "count", 8, NULL);
  g_assert_cmpint (n_count, ==, 1);
  gnn_prop_set (thing, &props[PROP_COUNT], 9);
  g_assert_cmpint (thing->count, ==, 9);
  g_assert_cmpint (n_count, ==, 2);
  gnn_prop_set (thing, &props[PROP_COUNT], 9);
  g_assert_cmpint (n_count, ==, 2);
  gnn_prop_set (thing, &props[PROP_NAME], "tanh");
  g_assert_cmpint (n_name, ==, 1);

  /* a variant equal to the one held is no change */
  g_object_set (thing, "sizes", a, NULL);
  g_assert_cmpint (n_sizes, ==, 1);
  g_object_set (thing, "sizes", b, NULL);
  g_assert_cmpint (n_sizes, ==, 1);

  g_assert_cmpint (n_any, ==, 4);
  g_assert_finalize_object (thing);
}

static void
test_props_checks (void)
{
  g_autoptr(GError) error = NULL;
  TestThing *thing = g_object_new (TEST_TYPE_THING, "size", 4, NULL);
  g_auto(GValue) v = G_VALUE_INIT;

  g_assert_true (gnn_props_check (thing, &error));
  g_assert_no_error (error);

  /* values out of range are taken (no warning) and refused by the check with a GError */
  g_object_set (thing, "count", -2, NULL);
  g_assert_false (gnn_props_check (thing, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_assert_cmpstr (error->message, ==, "count must be non-negative, got -2");
  g_clear_error (&error);
  g_object_set (thing, "count", 0, "scale", 0.0, NULL);
  g_assert_false (gnn_props_check (thing, &error));
  g_assert_cmpstr (error->message, ==, "scale must be positive, got 0.0");
  g_clear_error (&error);
  g_assert_finalize_object (thing);

  thing = g_object_new (TEST_TYPE_THING, "size", -3, NULL);
  g_assert_false (gnn_props_check (thing, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_SHAPE);
  g_assert_cmpstr (error->message, ==, "Trying to create tensor with negative dimension: size=-3");
  g_clear_error (&error);

  /* one value, as a loader checks what it read */
  g_value_init (&v, G_TYPE_DOUBLE);
  g_value_set_double (&v, -1.5);
  g_assert_false (gnn_prop_check_value (props[PROP_SCALE].pspec, &v, &error));
  g_assert_cmpstr (error->message, ==, "scale must be positive, got -1.5");
  g_clear_error (&error);
  g_assert_true (gnn_prop_check_value (props[PROP_RATE].pspec, &v, &error));
  g_assert_finalize_object (thing);
}

/* modules run the checks before setup, naming the layer */
static void
test_props_module_checks (void)
{
  g_autoptr(GError) error = NULL;
  GObject *m;

  m = g_object_new (GNN_TYPE_LINEAR, "in-features", -1, "out-features", 3, NULL);
  g_assert_false (gnn_module_setup (GNN_MODULE (m), &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_SHAPE);
  g_assert_cmpstr (error->message, ==, "Linear: Trying to create tensor with negative dimension: in_features=-1");
  g_clear_error (&error);
  g_assert_finalize_object (m);

  g_assert_null (gnn_linear_new (4, -2, TRUE, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_SHAPE);
  g_assert_cmpstr (error->message, ==, "Linear: Trying to create tensor with negative dimension: out_features=-2");
  g_clear_error (&error);
}

/* values the pspecs used to refuse with a warning are errors of the layer's setup (PyTorch's
 * messages where it has one), and values set later are checked where they are used */
static void
test_props_layer_checks (void)
{
  static const struct { GType (*type) (void); const char *prop; double value; const char *message; } cases[] = {
    { gnn_dropout_get_type, "p", 1.5, "Dropout: dropout probability has to be between 0 and 1, but got 1.5" },
    { gnn_cross_entropy_loss_get_type, "label-smoothing", -0.5,
      "CrossEntropyLoss: label_smoothing must be between 0.0 and 1.0. Got: -0.5" },
    { gnn_smooth_l1_loss_get_type, "beta", -1, "SmoothL1Loss: beta must be non-negative, got -1.0" },
    { gnn_huber_loss_get_type, "delta", 0, "HuberLoss: delta must be positive, got 0.0" },
    { gnn_layer_norm_get_type, "eps", -1e-5, "LayerNorm: eps must be non-negative, got -1e-05" },
  };
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) x = gnn_tensor_new_ones (GNN_TEST_SHAPE (4), 1, GNN_DTYPE_FLOAT32, NULL, NULL);
  GnnModule *m;

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      GType type = cases[i].type ();

      if (type == GNN_TYPE_LAYER_NORM)
        m = g_object_new (type, cases[i].prop, cases[i].value, "normalized-shape",
                          g_variant_new_fixed_array (G_VARIANT_TYPE_INT64, (gint64[]) { 4 }, 1, sizeof (gint64)),
                          NULL);
      else
        m = g_object_new (type, cases[i].prop, cases[i].value, NULL);
      g_assert_false (gnn_module_setup (m, &error));
      g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
      g_assert_cmpstr (error->message, ==, cases[i].message);
      g_clear_error (&error);
      g_assert_finalize_object (m);
    }

  m = g_object_new (GNN_TYPE_CONV2D, "in-channels", 2, "out-channels", 2, "groups", 0,
                    "kernel-size", g_variant_new_fixed_array (G_VARIANT_TYPE_INT64, (gint64[]) { 3 }, 1, sizeof (gint64)),
                    NULL);
  g_assert_false (gnn_module_setup (m, &error));
  g_assert_cmpstr (error->message, ==, "Conv2d: groups must be a positive integer");
  g_clear_error (&error);
  g_assert_finalize_object (m);

  m = g_object_new (GNN_TYPE_BATCH_NORM2D, "num-features", -3, NULL);
  g_assert_false (gnn_module_setup (m, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_SHAPE);
  g_assert_cmpstr (error->message, ==, "BatchNorm2d: Trying to create tensor with negative dimension: num_features=-3");
  g_clear_error (&error);
  g_assert_finalize_object (m);

  g_assert_null (gnn_embedding_new (-1, 3, GNN_EMBEDDING_NO_PADDING, GNN_DTYPE_FLOAT32, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_SHAPE);
  g_clear_error (&error);

  /* a read-write value set after construction: forward checks it, as F.dropout does */
  m = GNN_MODULE (gnn_dropout_new (0.5, &error));
  g_assert_no_error (error);
  g_object_set (m, "p", 2.0, NULL);
  g_assert_null (gnn_module_forward_tensor (m, x, &error));
  g_assert_cmpstr (error->message, ==, "Dropout: dropout probability has to be between 0 and 1, but got 2.0");
  g_clear_error (&error);
  g_assert_finalize_object (m);
}

/* dtype is GnnModule's: the layers create their tensors in it, read it back from them, and
 * keep it in copies and the JSON; other modules ignore it and leave it out */
static void
test_props_module_dtype (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnModule) lin = NULL, copy = NULL, relu = NULL, bn = NULL, rebuilt = NULL;
  g_autofree char *json = NULL, *relu_json = NULL;
  GnnDtype dtype;

  lin = GNN_MODULE (gnn_linear_new_with_dtype (3, 2, TRUE, GNN_DTYPE_FLOAT64, &error));
  g_assert_no_error (error);
  g_assert_cmpint (gnn_tensor_get_dtype (GNN_TENSOR (gnn_module_get_parameter (lin, "weight", NULL))), ==,
                   GNN_DTYPE_FLOAT64);
  g_assert_true (g_object_class_find_property (G_OBJECT_GET_CLASS (lin), "dtype")->owner_type == GNN_TYPE_MODULE);
  copy = gnn_module_copy (lin, &error);
  g_assert_no_error (error);
  g_object_get (copy, "dtype", &dtype, NULL);
  g_assert_cmpint (dtype, ==, GNN_DTYPE_FLOAT64);
  g_assert_true (gnn_module_to_dtype (lin, GNN_DTYPE_FLOAT32, &error));
  g_object_get (lin, "dtype", &dtype, NULL);
  g_assert_cmpint (dtype, ==, GNN_DTYPE_FLOAT32);   /* the weight's */
  g_assert_cmpint (gnn_linear_get_dtype (GNN_LINEAR (lin)), ==, GNN_DTYPE_FLOAT32);

  json = gnn_module_to_json (copy, FALSE, &error);
  g_assert_no_error (error);
  g_assert_nonnull (strstr (json, "\"bias\":true,\"dtype\":\"float64\"}"));
  rebuilt = gnn_module_new_from_json (json, -1, &error);
  g_assert_no_error (error);
  g_assert_cmpint (gnn_linear_get_dtype (GNN_LINEAR (rebuilt)), ==, GNN_DTYPE_FLOAT64);

  /* a batch norm without tensors keeps the one it was given */
  bn = g_object_new (GNN_TYPE_BATCH_NORM1D, "num-features", 3, "affine", FALSE,
                     "track-running-stats", FALSE, "dtype", GNN_DTYPE_FLOAT64, NULL);
  g_object_get (bn, "dtype", &dtype, NULL);
  g_assert_cmpint (dtype, ==, GNN_DTYPE_FLOAT64);

  relu = g_object_new (GNN_TYPE_RELU, "dtype", GNN_DTYPE_FLOAT64, NULL);
  relu_json = gnn_module_to_json (relu, FALSE, &error);
  g_assert_no_error (error);
  g_assert_nonnull (strstr (relu_json, "\"properties\":{}"));
  g_assert_null (gnn_module_new_from_json ("{\"type\": \"GnnReLU\", \"properties\": {\"dtype\": \"float64\"}}",
                                           -1, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_FILE_FORMAT);
  g_assert_nonnull (strstr (error->message, "GnnReLU has no readable and writable property 'dtype'"));
}

int
main (int argc, char **argv)
{
  gnn_test_init (&argc, &argv);
  g_test_add_func ("/props/members", test_props_members);
  g_test_add_func ("/props/notify", test_props_notify);
  g_test_add_func ("/props/checks", test_props_checks);
  g_test_add_func ("/props/module-checks", test_props_module_checks);
  g_test_add_func ("/props/module-dtype", test_props_module_dtype);
  g_test_add_func ("/props/layer-checks", test_props_layer_checks);
  return g_test_run ();
}
