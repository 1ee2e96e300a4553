/* test-init.c: the torch.nn.init functions beyond uniform_ and kaiming_uniform_ (those are in
 * test-layers.c): distributions, exact fills, orthogonality, errors and reproducibility */
#include "config.h"

#include "gnn-test-util.h"

static GnnTensor *
zeros (const gint64 *shape, guint ndim, GnnDtype dtype)
{
  g_autoptr(GError) error = NULL;
  GnnTensor *t = gnn_tensor_new_zeros (shape, ndim, dtype, NULL, &error);

  g_assert_no_error (error);
  return t;
}

/* mean and standard deviation (divided by n - 1) of @t's values, with their bounds */
static double *
stats (GnnTensor *t, gsize *n, double *min, double *max, double *mean, double *std)
{
  g_autoptr(GError) error = NULL;
  double *v = gnn_tensor_to_doubles (t, n, &error);
  double sum = 0, sq = 0;

  g_assert_no_error (error);
  *min = *max = v[0];
  for (gsize i = 0; i < *n; i++)
    {
      sum += v[i];
      *min = MIN (*min, v[i]);
      *max = MAX (*max, v[i]);
    }
  *mean = sum / *n;
  for (gsize i = 0; i < *n; i++)
    sq += (v[i] - *mean) * (v[i] - *mean);
  *std = sqrt (sq / (*n - 1));
  return v;
}

static double
phi (double x)
{
  return (1.0 + erf (x / M_SQRT2)) / 2.0;
}

static void
test_normal (void)
{
  g_autoptr(GnnGenerator) gen = gnn_generator_new (1);
  GnnDtype dtypes[] = { GNN_DTYPE_FLOAT32, GNN_DTYPE_FLOAT64 };

  for (guint d = 0; d < G_N_ELEMENTS (dtypes); d++)
    {
      g_autoptr(GnnTensor) t = zeros (GNN_TEST_SHAPE (300, 400), 2, dtypes[d]);
      g_autoptr(GError) error = NULL;
      g_autofree double *v = NULL;
      double min, max, mean, std;
      gsize n;

      g_assert_true (gnn_init_normal_ (t, 2.5, 0.3, gen, &error));
      g_assert_no_error (error);
      g_assert_cmpint (gnn_tensor_get_dtype (t), ==, dtypes[d]);
      v = stats (t, &n, &min, &max, &mean, &std);
      g_assert_cmpfloat (fabs (mean - 2.5), <, 5 * 0.3 / sqrt (n));
      g_assert_cmpfloat (fabs (std / 0.3 - 1), <, 0.01);
    }
}

static void
test_trunc_normal (void)
{
  g_autoptr(GnnGenerator) gen = gnn_generator_new (2);
  const double cases[][4] = { { 0, 1, -2, 2 }, { 0.5, 2, -1, 3 }, { 0, 0.02, -0.04, 0.04 }, { 1, 1, 0, 5 } };

  for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
    {
      double mu = cases[c][0], sigma = cases[c][1], a = cases[c][2], b = cases[c][3];
      g_autoptr(GnnTensor) t = zeros (GNN_TEST_SHAPE (400, 500), 2, GNN_DTYPE_FLOAT64);
      g_autoptr(GError) error = NULL;
      g_autofree double *v = NULL;
      double min, max, mean, std, alpha, beta, z, want_mean, want_var;
      gsize n;

      g_assert_true (gnn_init_trunc_normal_ (t, mu, sigma, a, b, gen, &error));
      g_assert_no_error (error);
      v = stats (t, &n, &min, &max, &mean, &std);
      g_assert_cmpfloat (min, >=, a);
      g_assert_cmpfloat (max, <=, b);
      /* the truncated normal's moments */
      alpha = (a - mu) / sigma;
      beta = (b - mu) / sigma;
      z = phi (beta) - phi (alpha);
#define PDF(x) (exp (-(x) * (x) / 2) / sqrt (2 * G_PI))
      want_mean = mu + sigma * (PDF (alpha) - PDF (beta)) / z;
      want_var = sigma * sigma * (1 + (alpha * PDF (alpha) - beta * PDF (beta)) / z -
                                  pow ((PDF (alpha) - PDF (beta)) / z, 2));
#undef PDF
      g_assert_cmpfloat (fabs (mean - want_mean), <, 6 * sigma / sqrt (n));
      g_assert_cmpfloat (fabs (std / sqrt (want_var) - 1), <, 0.01);
    }
}

static void
test_xavier_kaiming_normal (void)
{
  g_autoptr(GnnGenerator) gen = gnn_generator_new (3);
  g_autoptr(GnnTensor) t = zeros (GNN_TEST_SHAPE (64, 32, 3, 3), 4, GNN_DTYPE_FLOAT64);
  g_autoptr(GError) error = NULL;
  double min, max, mean, std, want;
  gsize n;

  /* fan_in = 288, fan_out = 576 */
  want = 2.0 * sqrt (2.0 / (288 + 576));
  g_assert_true (gnn_init_xavier_uniform_ (t, 2.0, gen, &error));
  g_assert_no_error (error);
  g_free (stats (t, &n, &min, &max, &mean, &std));
  g_assert_cmpfloat (MAX (-min, max), <=, sqrt (3.0) * want);
  g_assert_cmpfloat (MAX (-min, max), >, 0.99 * sqrt (3.0) * want);
  g_assert_cmpfloat (fabs (std / want - 1), <, 0.02);

  g_assert_true (gnn_init_xavier_normal_ (t, 2.0, gen, &error));
  g_assert_no_error (error);
  g_free (stats (t, &n, &min, &max, &mean, &std));
  g_assert_cmpfloat (fabs (std / want - 1), <, 0.02);

  want = sqrt (2.0) / sqrt (576);
  g_assert_true (gnn_init_kaiming_normal_ (t, 0, "fan_out", "relu", gen, &error));
  g_assert_no_error (error);
  g_free (stats (t, &n, &min, &max, &mean, &std));
  g_assert_cmpfloat (fabs (std / want - 1), <, 0.02);
}

static void
check_orthogonal (const gint64 *shape, guint ndim, GnnDtype dtype, double gain, GnnGenerator *gen)
{
  g_autoptr(GnnTensor) t = zeros (shape, ndim, dtype);
  g_autoptr(GError) error = NULL;
  g_autofree double *w = NULL;
  gsize n, rows, cols, k;
  gboolean wide;
  double tol = dtype == GNN_DTYPE_FLOAT32 ? 1e-5 : 1e-12;

  g_assert_true (gnn_init_orthogonal_ (t, gain, gen, &error));
  g_assert_no_error (error);
  w = gnn_tensor_to_doubles (t, &n, &error);
  g_assert_no_error (error);
  rows = shape[0];
  cols = n / rows;
  wide = rows < cols;
  k = wide ? rows : cols;
  /* WᵀW (tall) or W Wᵀ (wide) is gain² I */
  for (gsize i = 0; i < k; i++)
    for (gsize j = 0; j < k; j++)
      {
        double s = 0;

        if (wide)
          for (gsize l = 0; l < cols; l++)
            s += w[i * cols + l] * w[j * cols + l];
        else
          for (gsize l = 0; l < rows; l++)
            s += w[l * cols + i] * w[l * cols + j];
        g_assert_cmpfloat_with_epsilon (s, i == j ? gain * gain : 0.0, 10 * tol * MAX (1, gain * gain));
      }
}

static void
test_orthogonal (void)
{
  g_autoptr(GnnGenerator) gen = gnn_generator_new (5);
  GnnDtype dtypes[] = { GNN_DTYPE_FLOAT32, GNN_DTYPE_FLOAT64 };

  for (guint d = 0; d < G_N_ELEMENTS (dtypes); d++)
    {
      check_orthogonal (GNN_TEST_SHAPE (50, 20), 2, dtypes[d], 1.0, gen);
      check_orthogonal (GNN_TEST_SHAPE (20, 50), 2, dtypes[d], 1.0, gen);
      check_orthogonal (GNN_TEST_SHAPE (30, 30), 2, dtypes[d], 2.0, gen);
      check_orthogonal (GNN_TEST_SHAPE (16, 4, 3, 3), 4, dtypes[d], 0.5, gen);
      check_orthogonal (GNN_TEST_SHAPE (1, 7), 2, dtypes[d], 1.0, gen);
      check_orthogonal (GNN_TEST_SHAPE (7, 1), 2, dtypes[d], 3.0, gen);
    }
}

static void
test_exact (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) t = gnn_test_tensor_d (GNN_TEST_DATA (1, 2, 3, 4, 5, 6), 6, GNN_TEST_SHAPE (2, 3), 2);
  g_autoptr(GnnTensor) i = gnn_tensor_new_full (GNN_TEST_SHAPE (2, 3), 2, 7, GNN_DTYPE_INT64, NULL, &error);

  g_assert_no_error (error);
  g_assert_true (gnn_init_constant_ (t, 2.5, &error));
  gnn_test_assert_close (t, GNN_TEST_DATA (2.5, 2.5, 2.5, 2.5, 2.5, 2.5), 6, 0, 0);
  g_assert_true (gnn_init_zeros_ (t, &error));
  gnn_test_assert_close (t, GNN_TEST_DATA (0, 0, 0, 0, 0, 0), 6, 0, 0);
  g_assert_true (gnn_init_ones_ (t, &error));
  gnn_test_assert_close (t, GNN_TEST_DATA (1, 1, 1, 1, 1, 1), 6, 0, 0);
  g_assert_true (gnn_init_eye_ (t, &error));
  gnn_test_assert_close (t, GNN_TEST_DATA (1, 0, 0, 0, 1, 0), 6, 0, 0);
  g_assert_true (gnn_init_eye_ (i, &error));
  gnn_test_assert_close (i, GNN_TEST_DATA (1, 0, 0, 0, 1, 0), 6, 0, 0);
  g_assert_no_error (error);
}

static void
test_parameter (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) data = zeros (GNN_TEST_SHAPE (8, 6), 2, GNN_DTYPE_FLOAT32);
  g_autoptr(GnnParameter) p = gnn_parameter_new (data, TRUE, &error);
  GnnTensor *t = GNN_TENSOR (p);
  guint64 v0 = gnn_tensor_get_version (t);

  g_assert_true (gnn_init_normal_ (t, 0, 1, NULL, &error));
  g_assert_true (gnn_init_trunc_normal_ (t, 0, 1, -2, 2, NULL, &error));
  g_assert_true (gnn_init_xavier_normal_ (t, 1, NULL, &error));
  g_assert_true (gnn_init_kaiming_normal_ (t, 0, NULL, NULL, NULL, &error));
  g_assert_true (gnn_init_orthogonal_ (t, 1, NULL, &error));
  g_assert_true (gnn_init_eye_ (t, &error));
  g_assert_true (gnn_init_constant_ (t, 3, &error));
  g_assert_no_error (error);
  g_assert_true (gnn_tensor_get_requires_grad (t));
  g_assert_null (gnn_tensor_get_grad_fn_name (t));
  g_assert_cmpuint (gnn_tensor_get_version (t), >, v0);
}

static void
test_reproducible (void)
{
  for (int f = 0; f < 3; f++)
    {
      g_autoptr(GnnGenerator) g1 = gnn_generator_new (42);
      g_autoptr(GnnGenerator) g2 = gnn_generator_new (42);
      g_autoptr(GnnTensor) a = zeros (GNN_TEST_SHAPE (5, 7), 2, GNN_DTYPE_FLOAT32);
      g_autoptr(GnnTensor) b = zeros (GNN_TEST_SHAPE (5, 7), 2, GNN_DTYPE_FLOAT32);
      g_autoptr(GError) error = NULL;
      g_autofree double *va = NULL;
      g_autofree double *vb = NULL;
      gsize na, nb;

      for (int r = 0; r < 2; r++)
        {
          GnnTensor *t = r ? b : a;
          GnnGenerator *g = r ? g2 : g1;

          if (f == 0)
            g_assert_true (gnn_init_normal_ (t, 0, 1, g, &error));
          else if (f == 1)
            g_assert_true (gnn_init_trunc_normal_ (t, 0, 1, -2, 2, g, &error));
          else
            g_assert_true (gnn_init_orthogonal_ (t, 1, g, &error));
          g_assert_no_error (error);
        }
      va = gnn_tensor_to_doubles (a, &na, &error);
      vb = gnn_tensor_to_doubles (b, &nb, &error);
      g_assert_cmpmem (va, na * sizeof (double), vb, nb * sizeof (double));
    }
}

static void
expect_error (gboolean ok, GError **error, const char *message)
{
  g_assert_false (ok);
  g_assert_nonnull (*error);
  g_assert_cmpstr ((*error)->message, ==, message);
  g_clear_error (error);
}

static void
test_errors (void)
{
  g_autoptr(GnnTensor) one_d = zeros (GNN_TEST_SHAPE (3), 1, GNN_DTYPE_FLOAT32);
  g_autoptr(GnnTensor) t2 = zeros (GNN_TEST_SHAPE (3, 3), 2, GNN_DTYPE_FLOAT32);
  g_autoptr(GnnTensor) t3 = zeros (GNN_TEST_SHAPE (2, 3, 4), 3, GNN_DTYPE_FLOAT32);
  g_autoptr(GnnTensor) ints = zeros (GNN_TEST_SHAPE (3, 3), 2, GNN_DTYPE_INT64);
  GError *error = NULL;
  const char *fan = "Fan in and fan out can not be computed for tensor with fewer than 2 dimensions";

  expect_error (gnn_init_normal_ (t2, 0, -1, NULL, &error), &error,
                "normal expects std >= 0.0, but found std -1");
  expect_error (gnn_init_eye_ (one_d, &error), &error, "Only tensors with 2 dimensions are supported");
  expect_error (gnn_init_eye_ (t3, &error), &error, "Only tensors with 2 dimensions are supported");
  expect_error (gnn_init_orthogonal_ (one_d, 1, NULL, &error), &error,
                "Only tensors with 2 or more dimensions are supported");
  expect_error (gnn_init_xavier_uniform_ (one_d, 1, NULL, &error), &error, fan);
  expect_error (gnn_init_xavier_normal_ (one_d, 1, NULL, &error), &error, fan);
  expect_error (gnn_init_kaiming_normal_ (one_d, 0, NULL, NULL, NULL, &error), &error, fan);
  expect_error (gnn_init_kaiming_normal_ (t2, 0, "foo", NULL, NULL, &error), &error,
                "Mode foo not supported, please use one of ['fan_in', 'fan_out']");
  expect_error (gnn_init_kaiming_normal_ (t2, 0, NULL, "softmax", NULL, &error), &error,
                "Unsupported nonlinearity softmax");
  expect_error (gnn_init_trunc_normal_ (t2, 0, 1, 2, -2, NULL, &error), &error,
                "uniform_ expects to return a [from, to) range, but found from=0.9545 > to=-0.9545");
  g_assert_false (gnn_init_normal_ (ints, 0, 1, NULL, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_DTYPE);
  g_clear_error (&error);
  g_assert_false (gnn_init_orthogonal_ (ints, 1, NULL, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_DTYPE);
  g_clear_error (&error);
}

int
main (int argc, char **argv)
{
  gnn_test_init (&argc, &argv);

  g_test_add_func ("/nn/init/normal", test_normal);
  g_test_add_func ("/nn/init/trunc-normal", test_trunc_normal);
  g_test_add_func ("/nn/init/xavier-kaiming-normal", test_xavier_kaiming_normal);
  g_test_add_func ("/nn/init/orthogonal", test_orthogonal);
  g_test_add_func ("/nn/init/exact", test_exact);
  g_test_add_func ("/nn/init/parameter", test_parameter);
  g_test_add_func ("/nn/init/reproducible", test_reproducible);
  g_test_add_func ("/nn/init/errors", test_errors);
  return g_test_run ();
}
