/* test-layers.c: GnnLinear, GnnReLU, GnnLeakyReLU and the torch.nn.init functions they use */
#include "config.h"

#include "gnn-test-util.h"

/* mean and standard deviation (divided by n - 1, as torch.std) of all of @t's values */
static void
stats (GnnTensor *t, double *min, double *max, double *mean, double *std)
{
  g_autoptr(GError) error = NULL;
  g_autofree double *v = NULL;
  gsize n = 0;
  double sum = 0, sq = 0;

  v = gnn_tensor_to_doubles (t, &n, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (n, >, 1);
  *min = *max = v[0];
  for (gsize i = 0; i < n; i++)
    {
      sum += v[i];
      *min = MIN (*min, v[i]);
      *max = MAX (*max, v[i]);
    }
  *mean = sum / n;
  for (gsize i = 0; i < n; i++)
    sq += (v[i] - *mean) * (v[i] - *mean);
  *std = sqrt (sq / (n - 1));
}

static GnnTensor *
param (gpointer module, const char *name)
{
  g_autoptr(GError) error = NULL;
  GnnParameter *p = gnn_module_get_parameter (GNN_MODULE (module), name, &error);

  g_assert_no_error (error);
  g_assert_nonnull (p);
  return GNN_TENSOR (p);
}

/* copies @data into the parameter @name, as `with torch.no_grad (): p.copy_ (data)` */
static void
set_param (gpointer module, const char *name, const double *data, gsize n)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnNoGradGuard) guard = gnn_no_grad_guard_new ();
  GnnTensor *p = param (module, name);
  guint ndim;
  const gint64 *shape = gnn_tensor_get_shape (p, &ndim);
  g_autoptr(GnnTensor) src = gnn_test_tensor_d (data, n, shape, ndim);

  g_assert_true (gnn_tensor_copy_ (p, src, &error));
  g_assert_no_error (error);
}

static char **
parameter_names (gpointer module)
{
  char **names = NULL;
  g_autoptr(GPtrArray) params = gnn_module_named_parameters (GNN_MODULE (module), NULL, TRUE, TRUE, &names);

  g_assert_cmpuint (params->len, ==, g_strv_length (names));
  return names;
}

/* ---- Linear ---------------------------------------------------------------------------- */

static void
test_linear_basics (void)
{
  g_autoptr(GError) error = NULL;
  GnnLinear *lin = gnn_linear_new (4, 3, TRUE, &error);
  g_auto(GStrv) names = NULL;
  g_autofree char *repr = NULL, *extra = NULL;
  GnnTensor *w, *b;

  g_assert_no_error (error);
  g_assert_true (GNN_IS_LINEAR (lin));
  g_assert_true (GNN_IS_MODULE (lin));
  g_assert_cmpint (gnn_linear_get_in_features (lin), ==, 4);
  g_assert_cmpint (gnn_linear_get_out_features (lin), ==, 3);
  g_assert_true (gnn_linear_get_bias (lin));
  g_assert_cmpint (gnn_linear_get_dtype (lin), ==, GNN_DTYPE_FLOAT32);

  w = param (lin, "weight");
  b = param (lin, "bias");
  gnn_test_assert_shape (w, GNN_TEST_SHAPE (3, 4), 2);
  gnn_test_assert_shape (b, GNN_TEST_SHAPE (3), 1);
  g_assert_cmpint (gnn_tensor_get_dtype (w), ==, GNN_DTYPE_FLOAT32);
  g_assert_cmpint (gnn_tensor_get_dtype (b), ==, GNN_DTYPE_FLOAT32);
  g_assert_true (gnn_tensor_get_requires_grad (w));
  g_assert_true (gnn_tensor_get_requires_grad (b));
  g_assert_true (gnn_tensor_is_leaf (w));

  names = parameter_names (lin);
  g_assert_cmpuint (g_strv_length (names), ==, 2);
  g_assert_cmpstr (names[0], ==, "weight");
  g_assert_cmpstr (names[1], ==, "bias");

  extra = gnn_module_extra_repr (GNN_MODULE (lin));
  g_assert_cmpstr (extra, ==, "in_features=4, out_features=3, bias=True");
  repr = gnn_module_to_string (GNN_MODULE (lin));
  g_assert_cmpstr (repr, ==, "Linear(in_features=4, out_features=3, bias=True)");
  g_assert_cmpstr (gnn_module_get_name (GNN_MODULE (lin)), ==, "Linear");

  g_assert_finalize_object (lin);
}

static void
test_linear_no_bias (void)
{
  g_autoptr(GError) error = NULL;
  GnnLinear *lin = gnn_linear_new (5, 2, FALSE, &error);
  g_auto(GStrv) names = NULL;
  g_autofree char *repr = NULL;
  g_autoptr(GnnTensor) x = NULL, y = NULL;

  g_assert_no_error (error);
  g_assert_false (gnn_linear_get_bias (lin));
  names = parameter_names (lin);
  g_assert_cmpuint (g_strv_length (names), ==, 1);
  g_assert_cmpstr (names[0], ==, "weight");
  g_assert_null (gnn_module_get_parameter (GNN_MODULE (lin), "bias", &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);

  repr = gnn_module_to_string (GNN_MODULE (lin));
  g_assert_cmpstr (repr, ==, "Linear(in_features=5, out_features=2, bias=False)");

  /* y = x Wᵀ, nothing added */
  set_param (lin, "weight", GNN_TEST_DATA (1, 0, 0, 0, 0,
                                           0, 1, 1, 1, 1), 10);
  x = gnn_tensor_new_from_floats ((const float[]) { 1, 2, 3, 4, 5 }, 5, GNN_TEST_SHAPE (1, 5), 2, &error);
  y = gnn_module_forward_tensor (GNN_MODULE (lin), x, &error);
  g_assert_no_error (error);
  gnn_test_assert_close (y, GNN_TEST_DATA (1, 14), 2, 0, 0);

  g_assert_finalize_object (lin);
}

static void
test_linear_forward (void)
{
  g_autoptr(GError) error = NULL;
  GnnLinear *lin = gnn_linear_new_with_dtype (3, 2, TRUE, GNN_DTYPE_FLOAT64, &error);
  g_autoptr(GnnTensor) x = NULL, y = NULL, x3 = NULL, y3 = NULL, s = NULL;
  GnnTensor *w, *b;

  g_assert_no_error (error);
  g_assert_cmpint (gnn_linear_get_dtype (lin), ==, GNN_DTYPE_FLOAT64);
  set_param (lin, "weight", GNN_TEST_DATA (1, 2, 3,
                                           -1, 0.5, 0), 6);
  set_param (lin, "bias", GNN_TEST_DATA (0.25, -2), 2);
  w = param (lin, "weight");
  b = param (lin, "bias");
  g_assert_cmpint (gnn_tensor_get_dtype (w), ==, GNN_DTYPE_FLOAT64);

  /* rows (1, 0, -1) and (2, 3, 4):
   *   (1 + 0 - 3 + 0.25, -1 + 0 + 0 - 2) = (-1.75, -3)
   *   (2 + 6 + 12 + 0.25, -2 + 1.5 + 0 - 2) = (20.25, -2.5) */
  x = gnn_test_tensor_d (GNN_TEST_DATA (1, 0, -1, 2, 3, 4), 6, GNN_TEST_SHAPE (2, 3), 2);
  y = gnn_module_forward_tensor (GNN_MODULE (lin), x, &error);
  g_assert_no_error (error);
  gnn_test_assert_shape (y, GNN_TEST_SHAPE (2, 2), 2);
  gnn_test_assert_close (y, GNN_TEST_DATA (-1.75, -3, 20.25, -2.5), 4, 1e-15, 1e-15);

  /* gradients of sum (y): dW[j, k] = Σₙ x[n, k], db[j] = N */
  s = gnn_tensor_sum_all (y, &error);
  g_assert_true (gnn_tensor_backward (s, NULL, FALSE, &error));
  g_assert_no_error (error);
  gnn_test_assert_close (gnn_tensor_get_grad (w), GNN_TEST_DATA (3, 3, 3, 3, 3, 3), 6, 1e-15, 1e-15);
  gnn_test_assert_close (gnn_tensor_get_grad (b), GNN_TEST_DATA (2, 2), 2, 1e-15, 1e-15);

  /* a 3-D input (*, in_features) and a 1-D one */
  x3 = gnn_test_tensor_d (GNN_TEST_DATA (1, 0, -1, 2, 3, 4), 6, GNN_TEST_SHAPE (2, 1, 3), 3);
  y3 = gnn_module_forward_tensor (GNN_MODULE (lin), x3, &error);
  g_assert_no_error (error);
  gnn_test_assert_shape (y3, GNN_TEST_SHAPE (2, 1, 2), 3);
  gnn_test_assert_close (y3, GNN_TEST_DATA (-1.75, -3, 20.25, -2.5), 4, 1e-15, 1e-15);
  g_clear_object (&x3);
  g_clear_object (&y3);
  x3 = gnn_test_tensor_d (GNN_TEST_DATA (2, 3, 4), 3, GNN_TEST_SHAPE (3), 1);
  y3 = gnn_module_forward_tensor (GNN_MODULE (lin), x3, &error);
  g_assert_no_error (error);
  gnn_test_assert_shape (y3, GNN_TEST_SHAPE (2), 1);
  gnn_test_assert_close (y3, GNN_TEST_DATA (20.25, -2.5), 2, 1e-15, 1e-15);

  g_clear_object (&y);
  g_clear_object (&y3);
  g_clear_object (&s);
  g_assert_finalize_object (lin);
}

static void
test_linear_errors (void)
{
  g_autoptr(GError) error = NULL;
  GnnLinear *lin = gnn_linear_new (4, 3, TRUE, &error);
  g_autoptr(GnnTensor) x = NULL, y = NULL, scalar = NULL, d = NULL;
  g_autoptr(GnnArgs) empty = gnn_args_new ();
  g_autoptr(GnnArgs) out = NULL;

  g_assert_no_error (error);
  x = gnn_tensor_new_zeros (GNN_TEST_SHAPE (2, 5), 2, GNN_DTYPE_FLOAT32, NULL, &error);
  y = gnn_module_forward_tensor (GNN_MODULE (lin), x, &error);
  g_assert_null (y);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_SHAPE);
  g_assert_cmpstr (error->message, ==,
                   "Linear: expected input with last dimension 4 (in_features), got shape [2, 5]");
  g_clear_error (&error);

  scalar = gnn_tensor_new_scalar (1, GNN_DTYPE_FLOAT32, NULL, &error);
  g_assert_null (gnn_module_forward_tensor (GNN_MODULE (lin), scalar, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_SHAPE);
  g_assert_cmpstr (error->message, ==,
                   "Linear: expected input with last dimension 4 (in_features), got shape []");
  g_clear_error (&error);

  /* float64 input to float32 parameters: PyTorch refuses the mixed dtypes too */
  d = gnn_tensor_new_zeros (GNN_TEST_SHAPE (2, 4), 2, GNN_DTYPE_FLOAT64, NULL, &error);
  g_assert_null (gnn_module_forward_tensor (GNN_MODULE (lin), d, &error));
  g_assert_nonnull (error);
  g_assert_true (g_str_has_prefix (error->message, "Linear: "));
  g_clear_error (&error);

  /* no tensor to work on */
  out = gnn_module_forward (GNN_MODULE (lin), empty, &error);
  g_assert_null (out);
  g_assert_nonnull (error);
  g_assert_true (g_str_has_prefix (error->message, "Linear: "));
  g_clear_error (&error);

  /* sizes and dtypes the layer cannot be built with */
  g_assert_null (gnn_linear_new (-1, 3, TRUE, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_SHAPE);
  g_clear_error (&error);
  g_assert_null (gnn_linear_new_with_dtype (4, 3, TRUE, GNN_DTYPE_INT64, &error));
  g_assert_nonnull (error);
  g_clear_error (&error);

  g_assert_finalize_object (lin);
}

static void
test_linear_by_type (void)
{
  g_autoptr(GError) error = NULL;
  GnnModule *m;
  g_autofree char *repr = NULL;
  int in_features = 0;
  gboolean bias = FALSE;
  GnnDtype dtype = GNN_DTYPE_INT64;

  m = g_object_new (GNN_TYPE_LINEAR, "in-features", 4, "out-features", 3, NULL);
  g_assert_true (gnn_module_setup (m, &error));
  g_assert_no_error (error);
  gnn_test_assert_shape (param (m, "weight"), GNN_TEST_SHAPE (3, 4), 2);
  gnn_test_assert_shape (param (m, "bias"), GNN_TEST_SHAPE (3), 1);
  g_object_get (m, "in-features", &in_features, "bias", &bias, "dtype", &dtype, NULL);
  g_assert_cmpint (in_features, ==, 4);
  g_assert_true (bias);
  g_assert_cmpint (dtype, ==, GNN_DTYPE_FLOAT32);
  repr = gnn_module_to_string (m);
  g_assert_cmpstr (repr, ==, "Linear(in_features=4, out_features=3, bias=True)");
  g_assert_finalize_object (m);

  /* by name, as a loader does */
  m = g_object_new (g_type_from_name ("GnnLinear"), "in-features", 2, "out-features", 6,
                    "bias", FALSE, "dtype", GNN_DTYPE_FLOAT64, NULL);
  g_assert_true (gnn_module_setup (m, &error));
  gnn_test_assert_shape (param (m, "weight"), GNN_TEST_SHAPE (6, 2), 2);
  g_assert_cmpint (gnn_tensor_get_dtype (param (m, "weight")), ==, GNN_DTYPE_FLOAT64);
  g_assert_null (gnn_module_get_parameter (m, "bias", &error));
  g_clear_error (&error);
  g_assert_finalize_object (m);

  /* a failed setup is reported by the calls that need the layer */
  m = g_object_new (GNN_TYPE_LINEAR, "in-features", 2, "out-features", 2,
                    "dtype", GNN_DTYPE_INT64, NULL);
  g_assert_false (gnn_module_setup (m, &error));
  g_assert_nonnull (error);
  g_clear_error (&error);
  g_assert_false (gnn_linear_reset_parameters (GNN_LINEAR (m), &error));
  g_assert_nonnull (error);
  g_clear_error (&error);
  g_assert_finalize_object (m);
}

static void
test_linear_init_statistics (void)
{
  g_autoptr(GError) error = NULL;
  GnnLinear *lin = gnn_linear_new (1000, 500, TRUE, &error);
  double bound = 1 / sqrt (1000.0), min, max, mean, std;

  g_assert_no_error (error);
  /* kaiming_uniform_ (a = √5): gain √(2 / 6), bound = gain √(3 / fan_in) = 1 / √fan_in */
  stats (param (lin, "weight"), &min, &max, &mean, &std);
  g_assert_cmpfloat (min, >=, -bound);
  g_assert_cmpfloat (max, <=, bound);
  g_assert_cmpfloat (min, <, -0.99 * bound);
  g_assert_cmpfloat (max, >, 0.99 * bound);
  /* 500 000 draws: the mean's standard error is bound / √3 / 707 ≈ 2.6e-5 */
  g_assert_cmpfloat (fabs (mean), <, 1.5e-4);
  g_assert_cmpfloat (fabs (std / (bound / sqrt (3)) - 1), <, 0.01);

  /* bias: U(-1/√fan_in, 1/√fan_in), 500 draws */
  stats (param (lin, "bias"), &min, &max, &mean, &std);
  g_assert_cmpfloat (min, >=, -bound);
  g_assert_cmpfloat (max, <=, bound);
  g_assert_cmpfloat (fabs (mean), <, 0.2 * bound);
  g_assert_cmpfloat (fabs (std / (bound / sqrt (3)) - 1), <, 0.15);

  g_assert_finalize_object (lin);
}

static void
test_linear_reset_parameters (void)
{
  g_autoptr(GError) error = NULL;
  GnnLinear *a, *b;
  g_autofree double *wa = NULL, *wb = NULL, *wc = NULL;
  gsize n = 0;

  /* the default generator decides the values */
  gnn_manual_seed (1234);
  a = gnn_linear_new (7, 5, TRUE, &error);
  gnn_manual_seed (1234);
  b = gnn_linear_new (7, 5, TRUE, &error);
  g_assert_no_error (error);
  wa = gnn_tensor_to_doubles (param (a, "weight"), &n, &error);
  wb = gnn_tensor_to_doubles (param (b, "weight"), &n, &error);
  g_assert_cmpmem (wa, n * sizeof (double), wb, n * sizeof (double));

  /* new draws, in place: same parameter objects, new values within the bound */
  {
    GnnTensor *w = param (a, "weight");
    double min, max, mean, std;

    g_assert_true (gnn_linear_reset_parameters (a, &error));
    g_assert_no_error (error);
    g_assert_true (w == param (a, "weight"));
    wc = gnn_tensor_to_doubles (w, &n, &error);
    g_assert_true (memcmp (wa, wc, n * sizeof (double)) != 0);
    stats (w, &min, &max, &mean, &std);
    g_assert_cmpfloat (fabs (min), <=, 1 / sqrt (7.0));
    g_assert_cmpfloat (fabs (max), <=, 1 / sqrt (7.0));
    g_assert_true (gnn_tensor_get_requires_grad (w));
    g_assert_true (gnn_tensor_is_leaf (w));
  }
  g_assert_finalize_object (a);
  g_assert_finalize_object (b);
}

static void
test_linear_zero_features (void)
{
  g_autoptr(GError) error = NULL;
  GnnLinear *lin = gnn_linear_new (0, 3, TRUE, &error);
  g_autoptr(GnnTensor) x = NULL, y = NULL;

  g_assert_no_error (error);
  gnn_test_assert_shape (param (lin, "weight"), GNN_TEST_SHAPE (3, 0), 2);
  /* PyTorch: bound 0 when fan_in is 0, so the bias is all zeros */
  gnn_test_assert_close (param (lin, "bias"), GNN_TEST_DATA (0, 0, 0), 3, 0, 0);
  x = gnn_tensor_new_zeros (GNN_TEST_SHAPE (2, 0), 2, GNN_DTYPE_FLOAT32, NULL, &error);
  y = gnn_module_forward_tensor (GNN_MODULE (lin), x, &error);
  g_assert_no_error (error);
  gnn_test_assert_shape (y, GNN_TEST_SHAPE (2, 3), 2);
  gnn_test_assert_close (y, GNN_TEST_DATA (0, 0, 0, 0, 0, 0), 6, 0, 0);
  g_clear_object (&y);
  g_assert_finalize_object (lin);
}

/* ---- init ------------------------------------------------------------------------------ */

static void
test_init_calculate_gain (void)
{
  g_autoptr(GError) error = NULL;

  g_assert_cmpfloat (gnn_init_calculate_gain ("linear", NAN, &error), ==, 1);
  g_assert_cmpfloat (gnn_init_calculate_gain ("conv_transpose2d", NAN, &error), ==, 1);
  g_assert_cmpfloat (gnn_init_calculate_gain ("sigmoid", NAN, &error), ==, 1);
  g_assert_cmpfloat (gnn_init_calculate_gain ("tanh", NAN, &error), ==, 5.0 / 3);
  g_assert_cmpfloat (gnn_init_calculate_gain ("relu", NAN, &error), ==, sqrt (2.0));
  g_assert_cmpfloat (gnn_init_calculate_gain ("selu", NAN, &error), ==, 0.75);
  /* None means a slope of 0.01 */
  g_assert_cmpfloat (gnn_init_calculate_gain ("leaky_relu", NAN, &error), ==, sqrt (2.0 / (1 + 0.01 * 0.01)));
  g_assert_cmpfloat (gnn_init_calculate_gain ("leaky_relu", 0, &error), ==, sqrt (2.0));
  g_assert_cmpfloat (gnn_init_calculate_gain ("leaky_relu", sqrt (5.0), &error), ==, sqrt (2.0 / 6));
  g_assert_no_error (error);

  g_assert_cmpfloat (gnn_init_calculate_gain ("softmax", NAN, &error), ==, 0);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_assert_cmpstr (error->message, ==, "Unsupported nonlinearity softmax");
  g_clear_error (&error);
  gnn_init_calculate_gain ("leaky_relu", INFINITY, &error);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
}

static void
test_init_fan (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) conv = gnn_tensor_new_empty (GNN_TEST_SHAPE (3, 4, 5, 6), 4, GNN_DTYPE_FLOAT32, NULL, &error);
  g_autoptr(GnnTensor) vec = gnn_tensor_new_empty (GNN_TEST_SHAPE (3), 1, GNN_DTYPE_FLOAT32, NULL, &error);
  gint64 fan_in = 0, fan_out = 0;

  g_assert_true (gnn_init_calculate_fan_in_and_fan_out (conv, &fan_in, &fan_out, &error));
  g_assert_cmpint (fan_in, ==, 4 * 30);
  g_assert_cmpint (fan_out, ==, 3 * 30);
  g_assert_true (gnn_init_calculate_fan_in_and_fan_out (conv, NULL, &fan_out, &error));
  g_assert_false (gnn_init_calculate_fan_in_and_fan_out (vec, &fan_in, &fan_out, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_SHAPE);
  g_assert_cmpstr (error->message, ==,
                   "Fan in and fan out can not be computed for tensor with fewer than 2 dimensions");
}

static void
test_init_kaiming_uniform (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnGenerator) gen = gnn_generator_new (7);
  g_autoptr(GnnTensor) w = gnn_tensor_new_zeros (GNN_TEST_SHAPE (300, 200), 2, GNN_DTYPE_FLOAT64, NULL, &error);
  g_autoptr(GnnTensor) vec = gnn_tensor_new_zeros (GNN_TEST_SHAPE (3), 1, GNN_DTYPE_FLOAT32, NULL, &error);
  g_autoptr(GnnTensor) none = gnn_tensor_new_zeros (GNN_TEST_SHAPE (0, 3), 2, GNN_DTYPE_FLOAT32, NULL, &error);
  double bound, min, max, mean, std;

  /* relu, fan_out: bound = √2 √(3 / 300) */
  g_assert_true (gnn_init_kaiming_uniform_ (w, 0, "fan_out", "relu", gen, &error));
  g_assert_no_error (error);
  bound = sqrt (2.0) * sqrt (3.0 / 300);
  stats (w, &min, &max, &mean, &std);
  g_assert_cmpfloat (min, >=, -bound);
  g_assert_cmpfloat (max, <=, bound);
  g_assert_cmpfloat (max, >, 0.99 * bound);
  g_assert_cmpfloat (fabs (std / (bound / sqrt (3)) - 1), <, 0.02);

  /* the defaults (fan_in, leaky_relu) with a = 0: bound = √2 √(3 / 200); the mode's case
   * does not matter */
  g_assert_true (gnn_init_kaiming_uniform_ (w, 0, "FAN_IN", NULL, gen, &error));
  bound = sqrt (2.0) * sqrt (3.0 / 200);
  stats (w, &min, &max, &mean, &std);
  g_assert_cmpfloat (max, <=, bound);
  g_assert_cmpfloat (max, >, 0.99 * bound);
  g_assert_true (gnn_init_kaiming_uniform_ (w, 0, NULL, NULL, NULL, &error));
  g_assert_no_error (error);

  g_assert_false (gnn_init_kaiming_uniform_ (w, 0, "fan_avg", NULL, gen, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_assert_cmpstr (error->message, ==, "Mode fan_avg not supported, please use one of ['fan_in', 'fan_out']");
  g_clear_error (&error);
  g_assert_false (gnn_init_kaiming_uniform_ (w, 0, NULL, "softmax", gen, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  g_assert_false (gnn_init_kaiming_uniform_ (vec, 0, NULL, NULL, gen, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_SHAPE);
  g_clear_error (&error);
  /* zero elements: a no-op */
  g_assert_true (gnn_init_kaiming_uniform_ (none, 0, NULL, NULL, gen, &error));
  g_assert_no_error (error);
}

static void
test_init_uniform (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnGenerator) g1 = gnn_generator_new (42);
  g_autoptr(GnnGenerator) g2 = gnn_generator_new (42);
  g_autoptr(GnnTensor) a = gnn_tensor_new_zeros (GNN_TEST_SHAPE (100, 100), 2, GNN_DTYPE_FLOAT32, NULL, &error);
  g_autoptr(GnnTensor) b = gnn_tensor_new_zeros (GNN_TEST_SHAPE (100, 100), 2, GNN_DTYPE_FLOAT32, NULL, &error);
  g_autoptr(GnnTensor) i = gnn_tensor_new_zeros (GNN_TEST_SHAPE (4), 1, GNN_DTYPE_INT64, NULL, &error);
  g_autoptr(GnnTensor) wide = NULL, view = NULL;
  g_autoptr(GnnParameter) p = NULL;
  g_autofree double *va = NULL, *vb = NULL;
  double min, max, mean, std;
  gsize n = 0;

  g_assert_true (gnn_init_uniform_ (a, -3, 5, g1, &error));
  g_assert_true (gnn_init_uniform_ (b, -3, 5, g2, &error));
  g_assert_no_error (error);
  va = gnn_tensor_to_doubles (a, &n, &error);
  vb = gnn_tensor_to_doubles (b, &n, &error);
  g_assert_cmpmem (va, n * sizeof (double), vb, n * sizeof (double));
  stats (a, &min, &max, &mean, &std);
  g_assert_cmpfloat (min, >=, -3);
  g_assert_cmpfloat (max, <=, 5);
  g_assert_cmpfloat (fabs (mean - 1), <, 0.1);
  g_assert_cmpfloat (fabs (std - 8 / sqrt (12)), <, 0.05);

  /* a parameter that requires grad is filled without autograd recording anything */
  p = gnn_parameter_new (a, TRUE, &error);
  g_assert_true (gnn_init_uniform_ (GNN_TENSOR (p), 0, 1, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (gnn_tensor_is_leaf (GNN_TENSOR (p)));
  g_assert_null (gnn_tensor_get_grad_fn_name (GNN_TENSOR (p)));

  /* a strided view fills only its own elements */
  wide = gnn_tensor_new_zeros (GNN_TEST_SHAPE (4, 2), 2, GNN_DTYPE_FLOAT64, NULL, &error);
  view = gnn_tensor_select (wide, 1, 0, &error);
  g_assert_no_error (error);
  g_assert_true (gnn_init_uniform_ (view, 1, 2, g1, &error));
  {
    g_autofree double *v = gnn_tensor_to_doubles (wide, &n, &error);
    for (guint k = 0; k < 4; k++)
      {
        g_assert_cmpfloat (v[2 * k], >=, 1);
        g_assert_cmpfloat (v[2 * k], <, 2);
        g_assert_cmpfloat (v[2 * k + 1], ==, 0);
      }
  }

  g_assert_false (gnn_init_uniform_ (a, 1, 0, NULL, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  g_assert_false (gnn_init_uniform_ (i, 0, 1, NULL, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_DTYPE);
}

/* ---- activations ----------------------------------------------------------------------- */

static void
test_relu (void)
{
  g_autoptr(GError) error = NULL;
  GnnReLU *relu = gnn_relu_new ();
  g_autoptr(GnnTensor) x = gnn_test_tensor_d (GNN_TEST_DATA (-2, -0.5, 0, 0.5, 3, -1), 6, GNN_TEST_SHAPE (2, 3), 2);
  g_autoptr(GnnTensor) y = NULL;
  g_autoptr(GnnArgs) empty = gnn_args_new ();
  g_autofree char *repr = gnn_module_to_string (GNN_MODULE (relu));
  g_autoptr(GPtrArray) params = gnn_module_parameters (GNN_MODULE (relu), TRUE);

  g_assert_cmpstr (repr, ==, "ReLU()");
  g_assert_cmpuint (params->len, ==, 0);
  y = gnn_module_forward_tensor (GNN_MODULE (relu), x, &error);
  g_assert_no_error (error);
  gnn_test_assert_shape (y, GNN_TEST_SHAPE (2, 3), 2);
  gnn_test_assert_close (y, GNN_TEST_DATA (0, 0, 0, 0.5, 3, 0), 6, 0, 0);

  g_assert_null (gnn_module_forward (GNN_MODULE (relu), empty, &error));
  g_assert_nonnull (error);
  g_assert_true (g_str_has_prefix (error->message, "ReLU: "));
  g_assert_finalize_object (relu);
}

static void
notify_count (GObject *object, GParamSpec *pspec, gpointer data)
{
  (*(int *) data)++;
}

static void
test_leaky_relu (void)
{
  g_autoptr(GError) error = NULL;
  GnnLeakyReLU *leaky = gnn_leaky_relu_new (0.2);
  GnnLeakyReLU *dflt = g_object_new (GNN_TYPE_LEAKY_RELU, NULL);
  g_autoptr(GnnTensor) x = gnn_test_tensor_d (GNN_TEST_DATA (-2, -0.5, 0, 0.5, 3, -1), 6, GNN_TEST_SHAPE (6), 1);
  g_autoptr(GnnTensor) y = NULL, y2 = NULL;
  g_autofree char *repr = gnn_module_to_string (GNN_MODULE (leaky));
  g_autofree char *repr_default = gnn_module_to_string (GNN_MODULE (dflt));
  int notified = 0;

  g_assert_cmpstr (repr, ==, "LeakyReLU(negative_slope=0.2)");
  g_assert_cmpstr (repr_default, ==, "LeakyReLU(negative_slope=0.01)");
  g_assert_cmpfloat (gnn_leaky_relu_get_negative_slope (dflt), ==, 0.01);

  y = gnn_module_forward_tensor (GNN_MODULE (leaky), x, &error);
  g_assert_no_error (error);
  gnn_test_assert_close (y, GNN_TEST_DATA (-0.4, -0.1, 0, 0.5, 3, -0.2), 6, 1e-15, 0);

  /* read-write: the next forward uses the new slope; notify only on change */
  g_signal_connect (leaky, "notify::negative-slope", G_CALLBACK (notify_count), &notified);
  gnn_leaky_relu_set_negative_slope (leaky, 0.5);
  gnn_leaky_relu_set_negative_slope (leaky, 0.5);
  g_object_set (leaky, "negative-slope", 0.5, NULL);
  g_assert_cmpint (notified, ==, 1);
  y2 = gnn_module_forward_tensor (GNN_MODULE (leaky), x, &error);
  gnn_test_assert_close (y2, GNN_TEST_DATA (-1, -0.25, 0, 0.5, 3, -0.5), 6, 1e-15, 0);

  /* the slope prints as Python's repr (float) */
  {
    static const struct { double v; const char *s; } cases[] = {
      { 1e-5, "1e-05" }, { 1.5e-7, "1.5e-07" }, { 1e-4, "0.0001" }, { 0.00012, "0.00012" },
      { 1.0, "1.0" }, { 123456.0, "123456.0" }, { 1e16, "1e+16" }, { 1e15, "1000000000000000.0" },
      { 1.0 / 3, "0.3333333333333333" }, { -0.3, "-0.3" }, { 0.0, "0.0" }, { 2.5e20, "2.5e+20" },
    };
    for (guint k = 0; k < G_N_ELEMENTS (cases); k++)
      {
        g_autofree char *expected = g_strdup_printf ("negative_slope=%s", cases[k].s);
        g_autofree char *got = NULL;

        gnn_leaky_relu_set_negative_slope (leaky, cases[k].v);
        got = gnn_module_extra_repr (GNN_MODULE (leaky));
        g_assert_cmpstr (got, ==, expected);
      }
  }

  g_clear_object (&y);
  g_clear_object (&y2);
  g_assert_finalize_object (leaky);
  g_assert_finalize_object (dflt);
}

int
main (int argc, char *argv[])
{
  gnn_test_init (&argc, &argv);

  g_test_add_func ("/nn/linear/basics", test_linear_basics);
  g_test_add_func ("/nn/linear/no-bias", test_linear_no_bias);
  g_test_add_func ("/nn/linear/forward", test_linear_forward);
  g_test_add_func ("/nn/linear/errors", test_linear_errors);
  g_test_add_func ("/nn/linear/by-type", test_linear_by_type);
  g_test_add_func ("/nn/linear/init-statistics", test_linear_init_statistics);
  g_test_add_func ("/nn/linear/reset-parameters", test_linear_reset_parameters);
  g_test_add_func ("/nn/linear/zero-features", test_linear_zero_features);
  g_test_add_func ("/nn/init/calculate-gain", test_init_calculate_gain);
  g_test_add_func ("/nn/init/fan", test_init_fan);
  g_test_add_func ("/nn/init/kaiming-uniform", test_init_kaiming_uniform);
  g_test_add_func ("/nn/init/uniform", test_init_uniform);
  g_test_add_func ("/nn/relu/basics", test_relu);
  g_test_add_func ("/nn/leaky-relu/basics", test_leaky_relu);

  return g_test_run ();
}
