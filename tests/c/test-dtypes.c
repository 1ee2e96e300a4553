/* test-dtypes.c: the int32, int16 and int8 dtypes: names, promotion as torch.promote_types and
 * torch.result_type, casts to and from every dtype, wrap-around arithmetic, safetensors */
#include "config.h"

#include "gnn-test-util.h"

#define OK(expr) G_STMT_START { (expr); g_assert_no_error (error); } G_STMT_END

static void
test_names (void)
{
  static const struct { GnnDtype dtype; const char *name; gsize size; } rows[] = {
    { GNN_DTYPE_INT32, "int32", 4 }, { GNN_DTYPE_INT16, "int16", 2 }, { GNN_DTYPE_INT8, "int8", 1 },
  };
  g_autoptr(GError) error = NULL;
  GnnDtype d;

  for (guint i = 0; i < G_N_ELEMENTS (rows); i++)
    {
      g_assert_cmpstr (gnn_dtype_get_name (rows[i].dtype), ==, rows[i].name);
      g_assert_cmpuint (gnn_dtype_get_size (rows[i].dtype), ==, rows[i].size);
      g_assert_false (gnn_dtype_is_floating (rows[i].dtype));
      g_assert_true (gnn_dtype_from_name (rows[i].name, &d, &error));
      g_assert_no_error (error);
      g_assert_cmpint (d, ==, rows[i].dtype);
    }
  g_assert_true (gnn_dtype_from_name ("torch.int", &d, &error));
  g_assert_no_error (error);
  g_assert_cmpint (d, ==, GNN_DTYPE_INT32);
  g_assert_true (gnn_dtype_from_name ("short", &d, &error));
  g_assert_no_error (error);
  g_assert_cmpint (d, ==, GNN_DTYPE_INT16);
  g_assert_false (gnn_dtype_from_name ("uint16", &d, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_DTYPE);
  g_assert_nonnull (strstr (error->message, "int8"));
}

/* torch.promote_types of every pair, in GnnDtype order (float32, float64, int64, bool, uint8,
 * float16, bfloat16, int32, int16, int8), printed by torch 1.13 */
static const GnnDtype promoted[GNN_N_DTYPES][GNN_N_DTYPES] = {
  { 0, 1, 0, 0, 0, 0, 0, 0, 0, 0 },  /* float32 */
  { 1, 1, 1, 1, 1, 1, 1, 1, 1, 1 },  /* float64 */
  { 0, 1, 2, 2, 2, 5, 6, 2, 2, 2 },  /* int64 */
  { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9 },  /* bool */
  { 0, 1, 2, 4, 4, 5, 6, 7, 8, 8 },  /* uint8 */
  { 0, 1, 5, 5, 5, 5, 0, 5, 5, 5 },  /* float16 */
  { 0, 1, 6, 6, 6, 0, 6, 6, 6, 6 },  /* bfloat16 */
  { 0, 1, 2, 7, 7, 5, 6, 7, 7, 7 },  /* int32 */
  { 0, 1, 2, 8, 8, 5, 6, 7, 8, 8 },  /* int16 */
  { 0, 1, 2, 9, 8, 5, 6, 7, 8, 9 },  /* int8 */
};

static void
test_promote (void)
{
  for (guint a = 0; a < GNN_N_DTYPES; a++)
    for (guint b = 0; b < GNN_N_DTYPES; b++)
      {
        if (gnn_dtype_promote (a, b) != promoted[a][b])
          g_error ("promote (%s, %s): got %s, torch gives %s", gnn_dtype_get_name (a), gnn_dtype_get_name (b),
                   gnn_dtype_get_name (gnn_dtype_promote (a, b)), gnn_dtype_get_name (promoted[a][b]));
      }
}

/* a dimensioned tensor of @dim with a 0-d one of @zero, as torch.result_type gives them */
static void
test_result_type (void)
{
  static const struct { GnnDtype dim, zero, expected; } rows[] = {
    { GNN_DTYPE_INT8, GNN_DTYPE_INT64, GNN_DTYPE_INT8 },
    { GNN_DTYPE_INT8, GNN_DTYPE_FLOAT64, GNN_DTYPE_FLOAT64 },
    { GNN_DTYPE_BOOL, GNN_DTYPE_INT32, GNN_DTYPE_INT32 },
    { GNN_DTYPE_FLOAT16, GNN_DTYPE_FLOAT64, GNN_DTYPE_FLOAT16 },
    { GNN_DTYPE_UINT8, GNN_DTYPE_INT8, GNN_DTYPE_UINT8 },
    { GNN_DTYPE_BOOL, GNN_DTYPE_UINT8, GNN_DTYPE_UINT8 },
    { GNN_DTYPE_INT16, GNN_DTYPE_BOOL, GNN_DTYPE_INT16 },
  };
  g_autoptr(GError) error = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (rows); i++)
    {
      g_autoptr(GnnTensor) a = NULL, z = NULL, s1 = NULL, s2 = NULL;

      OK (a = gnn_tensor_new_ones (GNN_TEST_SHAPE (2), 1, rows[i].dim, NULL, &error));
      OK (z = gnn_tensor_new_scalar (1, rows[i].zero, NULL, &error));
      OK (s1 = gnn_tensor_add (a, z, 1.0, &error));
      OK (s2 = gnn_tensor_add (z, a, 1.0, &error));
      g_assert_cmpstr (gnn_dtype_get_name (gnn_tensor_get_dtype (s1)), ==, gnn_dtype_get_name (rows[i].expected));
      g_assert_cmpstr (gnn_dtype_get_name (gnn_tensor_get_dtype (s2)), ==, gnn_dtype_get_name (rows[i].expected));
    }
}

/* every new dtype to and from every dtype: small values survive, out-of-range integers wrap */
static void
test_casts (void)
{
  static const GnnDtype ints[] = { GNN_DTYPE_INT32, GNN_DTYPE_INT16, GNN_DTYPE_INT8 };
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) src = gnn_test_tensor_d (GNN_TEST_DATA (0, 1, 5, 100), 4, GNN_TEST_SHAPE (4), 1);

  for (guint i = 0; i < G_N_ELEMENTS (ints); i++)
    for (guint d = 0; d < GNN_N_DTYPES; d++)
      {
        g_autoptr(GnnTensor) a = NULL, b = NULL, c = NULL;

        OK (a = gnn_tensor_to_dtype (src, ints[i], &error));
        OK (b = gnn_tensor_to_dtype (a, d, &error));
        OK (c = gnn_tensor_to_dtype (b, ints[i], &error));
        g_assert_cmpint (gnn_tensor_get_dtype (c), ==, ints[i]);
        if (d == GNN_DTYPE_BOOL)
          gnn_test_assert_close (c, GNN_TEST_DATA (0, 1, 1, 1), 4, 0, 0);
        else
          gnn_test_assert_close (c, GNN_TEST_DATA (0, 1, 5, 100), 4, 0, 0);
      }
  {
    g_autoptr(GnnTensor) big = gnn_test_tensor_d (GNN_TEST_DATA (300, -129, 70000, -1.75), 4, GNN_TEST_SHAPE (4), 1);
    g_autoptr(GnnTensor) i8 = NULL, i16 = NULL, i32 = NULL, u8 = NULL;

    OK (i8 = gnn_tensor_to_dtype (big, GNN_DTYPE_INT8, &error));
    gnn_test_assert_close (i8, GNN_TEST_DATA (44, 127, 112, -1), 4, 0, 0);
    OK (i16 = gnn_tensor_to_dtype (big, GNN_DTYPE_INT16, &error));
    gnn_test_assert_close (i16, GNN_TEST_DATA (300, -129, 4464, -1), 4, 0, 0);
    OK (i32 = gnn_tensor_to_dtype (big, GNN_DTYPE_INT32, &error));
    gnn_test_assert_close (i32, GNN_TEST_DATA (300, -129, 70000, -1), 4, 0, 0);
    OK (u8 = gnn_tensor_to_dtype (i8, GNN_DTYPE_UINT8, &error));
    gnn_test_assert_close (u8, GNN_TEST_DATA (44, 127, 112, 255), 4, 0, 0);
  }
}

/* int8 arithmetic wraps as torch's does: 127 + 1 = -128, 100 * 2 = -56; sums go to int64 */
static void
test_int8_wrap (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) d = gnn_test_tensor_d (GNN_TEST_DATA (127, -128, 100), 3, GNN_TEST_SHAPE (3), 1);
  g_autoptr(GnnTensor) a = NULL, one = NULL, s = NULL, m = NULL, n = NULL, sum = NULL, q = NULL, f = NULL;

  OK (a = gnn_tensor_to_dtype (d, GNN_DTYPE_INT8, &error));
  OK (one = gnn_tensor_new_ones (GNN_TEST_SHAPE (3), 1, GNN_DTYPE_INT8, NULL, &error));
  OK (s = gnn_tensor_add (a, one, 1.0, &error));
  g_assert_cmpint (gnn_tensor_get_dtype (s), ==, GNN_DTYPE_INT8);
  gnn_test_assert_close (s, GNN_TEST_DATA (-128, -127, 101), 3, 0, 0);
  OK (m = gnn_tensor_mul (a, a, &error));
  gnn_test_assert_close (m, GNN_TEST_DATA (1, 0, 16), 3, 0, 0);
  OK (n = gnn_tensor_neg (a, &error));
  gnn_test_assert_close (n, GNN_TEST_DATA (-127, -128, -100), 3, 0, 0);
  OK (sum = gnn_tensor_sum (a, NULL, 0, FALSE, &error));
  g_assert_cmpint (gnn_tensor_get_dtype (sum), ==, GNN_DTYPE_INT64);
  g_assert_cmpfloat (gnn_tensor_item (sum, &error), ==, 99);
  OK (q = gnn_tensor_div (a, one, &error));
  g_assert_cmpint (gnn_tensor_get_dtype (q), ==, GNN_DTYPE_FLOAT32);
  OK (f = gnn_tensor_mul_scalar (a, 0.5, &error));
  g_assert_cmpint (gnn_tensor_get_dtype (f), ==, GNN_DTYPE_FLOAT32);
  gnn_test_assert_close (f, GNN_TEST_DATA (63.5, -64, 50), 3, 0, 0);
}

static void
test_repr (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) d = gnn_test_tensor_d (GNN_TEST_DATA (1, -2), 2, GNN_TEST_SHAPE (2), 1);
  g_autoptr(GnnTensor) a = NULL;
  g_autofree char *s = NULL;

  OK (a = gnn_tensor_to_dtype (d, GNN_DTYPE_INT16, &error));
  s = gnn_tensor_to_string (a);
  g_assert_cmpstr (s, ==, "tensor([ 1, -2], dtype=torch.int16)");
}

/* safetensors names them I32, I16 and I8, and a saved tensor loads back bit for bit */
static void
test_safetensors (void)
{
  static const GnnDtype ints[] = { GNN_DTYPE_INT32, GNN_DTYPE_INT16, GNN_DTYPE_INT8 };
  static const char *const names[] = { "\"I32\"", "\"I16\"", "\"I8\"" };
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) d = gnn_test_tensor_d (GNN_TEST_DATA (3, -4, 5), 3, GNN_TEST_SHAPE (3), 1);

  for (guint i = 0; i < G_N_ELEMENTS (ints); i++)
    {
      g_autoptr(GnnStateDict) sd = gnn_state_dict_new (), back = NULL;
      g_autoptr(GnnTensor) a = NULL;
      g_autoptr(GBytes) bytes = NULL;
      GnnTensor *b;
      gsize len;
      const char *data;

      OK (a = gnn_tensor_to_dtype (d, ints[i], &error));
      gnn_state_dict_set_tensor (sd, "w", a);
      OK (bytes = gnn_safetensors_save_to_bytes (sd, NULL, &error));
      data = g_bytes_get_data (bytes, &len);
      /* the JSON header follows its 8-byte length */
      g_assert_nonnull (g_strstr_len (data + 8, (gssize) len - 8, names[i]));
      OK (back = gnn_safetensors_load_from_bytes (bytes, NULL, &error));
      OK (b = gnn_state_dict_get_tensor (back, "w", &error));
      g_assert_nonnull (b);
      g_assert_cmpint (gnn_tensor_get_dtype (b), ==, ints[i]);
      gnn_test_assert_close (b, GNN_TEST_DATA (3, -4, 5), 3, 0, 0);
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/dtypes/names", test_names);
  g_test_add_func ("/dtypes/promote", test_promote);
  g_test_add_func ("/dtypes/result-type", test_result_type);
  g_test_add_func ("/dtypes/casts", test_casts);
  g_test_add_func ("/dtypes/int8-wrap", test_int8_wrap);
  g_test_add_func ("/dtypes/repr", test_repr);
  g_test_add_func ("/dtypes/safetensors", test_safetensors);
  return g_test_run ();
}
