/* test-tensor.c: creation, geometry, data access, printing and errors of GnnTensor */
#include "config.h"

#include "gnn-test-util.h"
#include "core/gnn-device-private.h"

static void
test_creation (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) z = gnn_tensor_new_zeros (GNN_TEST_SHAPE (2, 3), 2, GNN_DTYPE_FLOAT32, NULL, &error);
  g_autoptr(GnnTensor) o = gnn_tensor_new_ones (GNN_TEST_SHAPE (4), 1, GNN_DTYPE_INT64, "cpu", &error);
  g_autoptr(GnnTensor) f = gnn_tensor_new_full (GNN_TEST_SHAPE (2), 1, 2.5, GNN_DTYPE_FLOAT64, NULL, &error);
  g_autoptr(GnnTensor) a = gnn_tensor_new_arange (0, 5, 2, GNN_DTYPE_INT64, NULL, &error);
  g_autoptr(GnnTensor) e = gnn_tensor_new_eye (2, 3, GNN_DTYPE_FLOAT32, NULL, &error);
  g_autoptr(GnnTensor) s = gnn_tensor_new_scalar (7, GNN_DTYPE_FLOAT32, NULL, &error);

  g_assert_no_error (error);
  gnn_test_assert_shape (z, GNN_TEST_SHAPE (2, 3), 2);
  gnn_test_assert_close (z, GNN_TEST_DATA (0, 0, 0, 0, 0, 0), 6, 0, 0);
  gnn_test_assert_close (o, GNN_TEST_DATA (1, 1, 1, 1), 4, 0, 0);
  gnn_test_assert_close (f, GNN_TEST_DATA (2.5, 2.5), 2, 0, 0);
  gnn_test_assert_close (a, GNN_TEST_DATA (0, 2, 4), 3, 0, 0);
  gnn_test_assert_close (e, GNN_TEST_DATA (1, 0, 0, 0, 1, 0), 6, 0, 0);
  g_assert_cmpuint (gnn_tensor_get_ndim (s), ==, 0);
  g_assert_cmpfloat (gnn_tensor_item (s, &error), ==, 7.0);
  g_assert_cmpint (gnn_tensor_get_numel (z), ==, 6);
  g_assert_true (gnn_tensor_is_contiguous (z));
  g_assert_finalize_object (g_steal_pointer (&z));
}

static void
test_from_data_errors (void)
{
  g_autoptr(GError) error = NULL;
  float d[3] = { 1, 2, 3 };
  GnnTensor *t = gnn_tensor_new_from_floats (d, 3, GNN_TEST_SHAPE (2, 2), 2, &error);

  g_assert_null (t);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_SHAPE);
  g_assert_nonnull (strstr (error->message, "needs 4 elements, got 3"));
  g_clear_error (&error);
  t = gnn_tensor_new_zeros (GNN_TEST_SHAPE (-1), 1, GNN_DTYPE_FLOAT32, NULL, &error);
  g_assert_null (t);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_SHAPE);
  g_clear_error (&error);
  t = gnn_tensor_new_zeros (GNN_TEST_SHAPE (1), 1, GNN_DTYPE_FLOAT32, "cuda:3", &error);
  g_assert_null (t);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_DEVICE);
  g_clear_error (&error);
  t = gnn_tensor_new_zeros (GNN_TEST_SHAPE (1), 1, GNN_DTYPE_FLOAT32, "cu da", &error);
  g_assert_null (t);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_DEVICE);
  g_clear_error (&error);
  t = gnn_tensor_new_arange (0, 1, 0, GNN_DTYPE_FLOAT32, NULL, &error);
  g_assert_null (t);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
}

static void
test_bytes_roundtrip (void)
{
  g_autoptr(GError) error = NULL;
  gint64 v[4] = { 1, -2, 3, 1LL << 60 };
  g_autoptr(GBytes) in = g_bytes_new (v, sizeof v);
  g_autoptr(GnnTensor) t = gnn_tensor_new_from_bytes (in, GNN_DTYPE_INT64, GNN_TEST_SHAPE (2, 2), 2, NULL, &error);
  g_autoptr(GBytes) out = NULL;
  g_autofree gint64 *back = NULL;
  gsize n;

  g_assert_no_error (error);
  out = gnn_tensor_get_bytes (t, &error);
  g_assert_no_error (error);
  g_assert_true (g_bytes_equal (in, out));
  back = gnn_tensor_to_int64s (t, &n, &error);
  g_assert_cmpuint (n, ==, 4);
  g_assert_cmpint (back[3], ==, 1LL << 60);
}

static void
test_dtype_conversion (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) t = gnn_test_tensor_d (GNN_TEST_DATA (0, 1.5, -2.25, 65504, 3.0e-5), 5, GNN_TEST_SHAPE (5), 1);
  GnnDtype dts[] = { GNN_DTYPE_FLOAT32, GNN_DTYPE_FLOAT16, GNN_DTYPE_BFLOAT16 };

  for (guint i = 0; i < G_N_ELEMENTS (dts); i++)
    {
      g_autoptr(GnnTensor) c = gnn_tensor_to_dtype (t, dts[i], &error);
      g_autoptr(GnnTensor) back = NULL;
      g_assert_no_error (error);
      g_assert_cmpint (gnn_tensor_get_dtype (c), ==, dts[i]);
      back = gnn_tensor_to_dtype (c, GNN_DTYPE_FLOAT64, &error);
      /* bfloat16 keeps 8 bits of mantissa, float16 11 */
      gnn_test_assert_close (back, GNN_TEST_DATA (0, 1.5, -2.25, 65504, 3.0e-5), 5,
                             dts[i] == GNN_DTYPE_BFLOAT16 ? 4e-3 : 1e-3, 1e-7);
    }
  {
    g_autoptr(GnnTensor) b = gnn_tensor_to_dtype (t, GNN_DTYPE_BOOL, &error);
    g_autoptr(GnnTensor) u = gnn_tensor_to_dtype (t, GNN_DTYPE_INT64, &error);
    gnn_test_assert_close (b, GNN_TEST_DATA (0, 1, 1, 1, 1), 5, 0, 0);
    gnn_test_assert_close (u, GNN_TEST_DATA (0, 1, -2, 65504, 0), 5, 0, 0);
  }
}

static void
test_to_string (void)
{
  g_autoptr(GError) error = NULL;
  struct { const double *data; gsize n; const gint64 *shape; guint ndim; GnnDtype dtype; const char *want; } cases[] = {
    { GNN_TEST_DATA (1, 2, 3, 4), 4, GNN_TEST_SHAPE (2, 2), 2, GNN_DTYPE_FLOAT32, "tensor([[1., 2.],\n        [3., 4.]])" },
    { GNN_TEST_DATA (0.1, -1.2), 2, GNN_TEST_SHAPE (2), 1, GNN_DTYPE_FLOAT32, "tensor([ 0.1000, -1.2000])" },
    { GNN_TEST_DATA (3.5), 1, NULL, 0, GNN_DTYPE_FLOAT32, "tensor(3.5000)" },
    { GNN_TEST_DATA (1, 20, 3), 3, GNN_TEST_SHAPE (3), 1, GNN_DTYPE_INT64, "tensor([ 1, 20,  3])" },
    { GNN_TEST_DATA (1, 0), 2, GNN_TEST_SHAPE (2), 1, GNN_DTYPE_BOOL, "tensor([ True, False])" },
    { GNN_TEST_DATA (1, 2), 2, GNN_TEST_SHAPE (2), 1, GNN_DTYPE_FLOAT64, "tensor([1., 2.], dtype=torch.float64)" },
    { GNN_TEST_DATA (0.0001, 1000), 2, GNN_TEST_SHAPE (2), 1, GNN_DTYPE_FLOAT32, "tensor([1.0000e-04, 1.0000e+03])" },
    { NULL, 0, GNN_TEST_SHAPE (0, 3), 2, GNN_DTYPE_FLOAT32, "tensor([], size=(0, 3))" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GnnTensor) d = gnn_tensor_new_from_doubles (cases[i].data, cases[i].n, cases[i].shape, cases[i].ndim, &error);
      g_autoptr(GnnTensor) t = NULL;
      g_autofree char *s = NULL;
      g_assert_no_error (error);
      t = gnn_tensor_to_dtype (d, cases[i].dtype, &error);
      s = gnn_tensor_to_string (t);
      g_assert_cmpstr (s, ==, cases[i].want);
    }
}

static void
test_generator (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnGenerator) g = gnn_generator_new (42);
  g_autoptr(GnnTensor) a = gnn_tensor_new_rand (GNN_TEST_SHAPE (10000), 1, g, GNN_DTYPE_FLOAT64, NULL, &error);
  g_autoptr(GnnTensor) n = gnn_tensor_new_randn (GNN_TEST_SHAPE (20000), 1, g, GNN_DTYPE_FLOAT32, NULL, &error);
  g_autoptr(GnnTensor) r = gnn_tensor_new_randint (3, 7, GNN_TEST_SHAPE (1000), 1, g, NULL, &error);
  g_autoptr(GnnTensor) b = NULL;
  g_autofree double *v = NULL, *w = NULL, *ri = NULL;
  gsize len;
  double mean = 0, var = 0, mn = 1, mx = 0;

  g_assert_no_error (error);
  v = gnn_tensor_to_doubles (a, &len, &error);
  for (gsize i = 0; i < len; i++)
    {
      mean += v[i];
      mn = MIN (mn, v[i]);
      mx = MAX (mx, v[i]);
    }
  mean /= len;
  g_assert_cmpfloat (fabs (mean - 0.5), <, 0.02);
  g_assert_cmpfloat (mn, >=, 0.0);
  g_assert_cmpfloat (mx, <, 1.0);
  w = gnn_tensor_to_doubles (n, &len, &error);
  mean = 0;
  for (gsize i = 0; i < len; i++)
    mean += w[i];
  mean /= len;
  for (gsize i = 0; i < len; i++)
    var += (w[i] - mean) * (w[i] - mean);
  var /= len;
  g_assert_cmpfloat (fabs (mean), <, 0.03);
  g_assert_cmpfloat (fabs (var - 1.0), <, 0.05);
  ri = gnn_tensor_to_doubles (r, &len, &error);
  for (gsize i = 0; i < len; i++)
    g_assert_true (ri[i] >= 3 && ri[i] < 7);

  /* the same state gives the same numbers */
  gnn_generator_manual_seed (g, 42);
  b = gnn_tensor_new_rand (GNN_TEST_SHAPE (10000), 1, g, GNN_DTYPE_FLOAT64, NULL, &error);
  {
    g_autofree double *v2 = gnn_tensor_to_doubles (b, &len, &error);
    g_assert_cmpmem (v, sizeof (double) * len, v2, sizeof (double) * len);
  }
  g_assert_cmpuint (gnn_generator_get_offset (g), ==, 10000);
}

static void
test_device (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) t = gnn_tensor_new_zeros (GNN_TEST_SHAPE (2), 1, GNN_DTYPE_FLOAT32, NULL, &error);
  GnnDeviceSpec d, c, bad = { NULL, -7 };

  g_assert_true (gnn_device_parse ("cuda:1", &d, &error));
  g_assert_true (gnn_device_parse ("cpu", &c, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (d.type, ==, "cuda");
  g_assert_cmpint (d.index, ==, 1);
  g_assert_cmpint (c.index, ==, -1);
  g_assert_cmpstr (gnn_device_name (d.type, d.index), ==, "cuda:1");
  g_assert_cmpstr (gnn_device_name (c.type, 0), ==, "cpu");
  g_assert_false (gnn_device_name (c.type, c.index) == gnn_device_name (d.type, d.index));
  g_assert_false (gnn_device_parse ("cuda:x", &bad, &error));
  g_assert_null (bad.type);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_DEVICE);

  /* a tensor's device is the canonical string, interned */
  g_assert_cmpstr (gnn_tensor_get_device (t), ==, "cpu");
  g_assert_true (gnn_tensor_get_device (t) == g_intern_static_string ("cpu"));
}

static void
test_set_data_keeps_identity (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) p = gnn_tensor_new_zeros (GNN_TEST_SHAPE (2), 1, GNN_DTYPE_FLOAT32, NULL, &error);
  g_autoptr(GnnTensor) q = gnn_tensor_new_ones (GNN_TEST_SHAPE (3), 1, GNN_DTYPE_FLOAT32, NULL, &error);

  gnn_tensor_set_requires_grad (p, TRUE, &error);
  g_assert_true (gnn_tensor_set_data (p, q, &error));
  gnn_test_assert_shape (p, GNN_TEST_SHAPE (3), 1);
  gnn_test_assert_close (p, GNN_TEST_DATA (1, 1, 1), 3, 0, 0);
  g_assert_true (gnn_tensor_get_requires_grad (p));
  g_assert_true (gnn_tensor_shares_storage (p, q));
}

/* randperm: a permutation of 0 .. n - 1, replayed by the seed, every position reached over
 * many draws, torch's dtypes and errors */
static void
test_randperm (void)
{
  g_autoptr(GnnGenerator) g = gnn_generator_new (7);
  g_autoptr(GnnTensor) p = NULL, q = NULL, f = NULL, e = NULL;
  g_autofree double *pv = NULL, *qv = NULL, *fv = NULL;
  GError *error = NULL;
  gboolean seen[6][6] = { { FALSE } };
  gboolean differs = FALSE;
  gsize n;

  p = gnn_tensor_new_randperm (50, GNN_DTYPE_INT64, g, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpint (gnn_tensor_get_dtype (p), ==, GNN_DTYPE_INT64);
  pv = gnn_tensor_to_doubles (p, &n, &error);
  g_assert_cmpuint (n, ==, 50);
  {
    gboolean hit[50] = { FALSE };
    for (gsize i = 0; i < n; i++)
      {
        g_assert_cmpfloat (pv[i], >=, 0);
        g_assert_cmpfloat (pv[i], <, 50);
        g_assert_false (hit[(int) pv[i]]);
        hit[(int) pv[i]] = TRUE;
        differs |= pv[i] != (double) i;
      }
  }
  g_assert_true (differs);
  gnn_generator_manual_seed (g, 7);
  q = gnn_tensor_new_randperm (50, GNN_DTYPE_INT64, g, NULL, &error);
  qv = gnn_tensor_to_doubles (q, &n, &error);
  g_assert_cmpmem (pv, 50 * sizeof (double), qv, 50 * sizeof (double));

  /* every value reaches every position within 300 draws of 6 */
  for (int k = 0; k < 300; k++)
    {
      g_autoptr(GnnTensor) r = gnn_tensor_new_randperm (6, GNN_DTYPE_INT32, g, NULL, &error);
      g_autofree double *rv = gnn_tensor_to_doubles (r, &n, &error);
      for (int i = 0; i < 6; i++)
        seen[i][(int) rv[i]] = TRUE;
    }
  for (int i = 0; i < 6; i++)
    for (int j = 0; j < 6; j++)
      g_assert_true (seen[i][j]);

  f = gnn_tensor_new_randperm (4, GNN_DTYPE_FLOAT32, g, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpint (gnn_tensor_get_dtype (f), ==, GNN_DTYPE_FLOAT32);
  fv = gnn_tensor_to_doubles (f, &n, &error);
  g_assert_cmpfloat (fv[0] + fv[1] + fv[2] + fv[3], ==, 6);
  e = gnn_tensor_new_randperm (0, GNN_DTYPE_INT64, g, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpint (gnn_tensor_get_numel (e), ==, 0);

  g_assert_null (gnn_tensor_new_randperm (-1, GNN_DTYPE_INT64, g, NULL, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_SHAPE);
  g_clear_error (&error);
  g_assert_null (gnn_tensor_new_randperm (300, GNN_DTYPE_UINT8, g, NULL, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  g_clear_object (&f);
  f = gnn_tensor_new_randperm (256, GNN_DTYPE_UINT8, g, NULL, &error);   /* 0 .. 255 fit */
  g_assert_no_error (error);
  g_assert_nonnull (f);
  g_assert_null (gnn_tensor_new_randperm (3, GNN_DTYPE_BOOL, g, NULL, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_DTYPE);
  g_clear_error (&error);
}

int
main (int argc, char *argv[])
{
  gnn_test_init (&argc, &argv);
  g_test_add_func ("/tensor/creation", test_creation);
  g_test_add_func ("/tensor/from-data-errors", test_from_data_errors);
  g_test_add_func ("/tensor/bytes-roundtrip", test_bytes_roundtrip);
  g_test_add_func ("/tensor/dtype-conversion", test_dtype_conversion);
  g_test_add_func ("/tensor/to-string", test_to_string);
  g_test_add_func ("/tensor/generator", test_generator);
  g_test_add_func ("/tensor/randperm", test_randperm);
  g_test_add_func ("/tensor/device", test_device);
  g_test_add_func ("/tensor/set-data", test_set_data_keeps_identity);
  return g_test_run ();
}
