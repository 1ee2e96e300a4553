/* test-safetensors.c: safetensors round trips, the exact bytes of a small file, zero-copy
 * loading, atomic saving, and every way a file can be bad */
#include "config.h"

#include <glib/gstdio.h>

#include "gnn-test-util.h"

static char *tmpdir;

static GnnStateDict *
sample_state (void)
{
  GnnStateDict *sd = gnn_state_dict_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnTensor) w = gnn_tensor_new_from_doubles (GNN_TEST_DATA (1, 2, 3, 4, 5, 6), 6,
                                                        GNN_TEST_SHAPE (2, 3), 2, &error);
  g_autoptr(GnnTensor) wf = gnn_tensor_to_dtype (w, GNN_DTYPE_FLOAT32, &error);
  g_autoptr(GnnTensor) n = gnn_tensor_new_from_int64s ((const gint64[]) { 7 }, 1, NULL, 0, &error);
  g_autoptr(GnnTensor) h = gnn_tensor_to_dtype (w, GNN_DTYPE_BFLOAT16, &error);
  g_autoptr(GnnTensor) wt = gnn_tensor_transpose (w, 0, 1, &error);   /* not contiguous */

  g_assert_no_error (error);
  gnn_state_dict_set_tensor (sd, "layer.weight", wf);
  gnn_state_dict_set_tensor (sd, "count", n);
  gnn_state_dict_set_tensor (sd, "half", h);
  gnn_state_dict_set_tensor (sd, "wt", wt);
  return sd;
}

static void
assert_same_state (GnnStateDict *a,
                   GnnStateDict *b)
{
  g_auto(GStrv) ka = gnn_state_dict_get_keys (a);

  g_assert_cmpuint (gnn_state_dict_get_length (a), ==, gnn_state_dict_get_length (b));
  for (guint i = 0; ka[i]; i++)
    {
      g_autoptr(GError) error = NULL;
      GnnTensor *x = gnn_state_dict_get_tensor (a, ka[i], &error);
      GnnTensor *y = gnn_state_dict_get_tensor (b, ka[i], &error);
      g_autoptr(GnnTensor) xc = NULL;
      g_autoptr(GBytes) bx = NULL, by = NULL;
      guint nx, ny;
      const gint64 *sx = gnn_tensor_get_shape (x, &nx), *sy;

      g_assert_no_error (error);
      sy = gnn_tensor_get_shape (y, &ny);
      g_assert_cmpint (gnn_tensor_get_dtype (x), ==, gnn_tensor_get_dtype (y));
      g_assert_cmpuint (nx, ==, ny);
      g_assert_cmpmem (sx, nx * sizeof (gint64), sy, ny * sizeof (gint64));
      bx = gnn_tensor_get_bytes (x, &error);
      by = gnn_tensor_get_bytes (y, &error);
      g_assert_no_error (error);
      g_assert_true (g_bytes_equal (bx, by));
    }
}

static void
test_round_trip (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnStateDict) sd = sample_state ();
  g_autoptr(GHashTable) meta = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GHashTable) meta2 = NULL;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GnnStateDict) back = NULL;
  g_auto(GStrv) keys = NULL;

  g_hash_table_insert (meta, "format", "pt");
  g_hash_table_insert (meta, "epoch", "3");
  bytes = gnn_safetensors_save_to_bytes (sd, meta, &error);
  g_assert_no_error (error);
  back = gnn_safetensors_load_from_bytes (bytes, &meta2, &error);
  g_assert_no_error (error);
  assert_same_state (sd, back);
  g_assert_nonnull (meta2);
  g_assert_cmpuint (g_hash_table_size (meta2), ==, 2);
  g_assert_cmpstr (g_hash_table_lookup (meta2, "epoch"), ==, "3");
  g_assert_cmpstr (g_hash_table_lookup (meta2, "format"), ==, "pt");
  /* the file order is the state dict's order */
  keys = gnn_state_dict_get_keys (back);
  g_assert_cmpstr (keys[0], ==, "layer.weight");
  g_assert_cmpstr (keys[3], ==, "wt");
}

/* The exact bytes of a one-tensor file: the length, the JSON padded to 8, the data. */
static void
test_exact_bytes (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnStateDict) sd = gnn_state_dict_new ();
  g_autoptr(GnnTensor) t = gnn_tensor_new_from_floats ((const float[]) { 1.5f, -2 }, 2,
                                                       GNN_TEST_SHAPE (2), 1, &error);
  g_autoptr(GBytes) bytes = NULL;
  const char *json = "{\"a\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[0,8]}}";
  gsize len = strlen (json), padded = (len + 7) / 8 * 8, size;
  const guint8 *d;
  guint64 n;
  float v[2];

  gnn_state_dict_set_tensor (sd, "a", t);
  bytes = gnn_safetensors_save_to_bytes (sd, NULL, &error);
  g_assert_no_error (error);
  d = g_bytes_get_data (bytes, &size);
  g_assert_cmpuint (size, ==, 8 + padded + 8);
  memcpy (&n, d, 8);
  g_assert_cmpuint (GUINT64_FROM_LE (n), ==, padded);
  g_assert_cmpmem (d + 8, len, json, len);
  for (gsize i = len; i < padded; i++)
    g_assert_cmpint (d[8 + i], ==, ' ');
  memcpy (v, d + 8 + padded, 8);
  g_assert_cmpfloat (v[0], ==, 1.5f);
  g_assert_cmpfloat (v[1], ==, -2.0f);
}

static void
test_file_zero_copy (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnStateDict) sd = sample_state ();
  g_autofree char *path = g_build_filename (tmpdir, "a.safetensors", NULL);
  g_autoptr(GnnStateDict) back = NULL;
  g_autoptr(GnnStateDict) again = NULL;
  GnnTensor *w;

  g_assert_true (gnn_safetensors_save (sd, NULL, path, &error));
  g_assert_no_error (error);
  back = gnn_safetensors_load (path, NULL, &error);
  g_assert_no_error (error);
  assert_same_state (sd, back);

  /* writing a loaded tensor changes it, not the file (a private mapping) */
  w = gnn_state_dict_get_tensor (back, "layer.weight", &error);
  g_assert_true (gnn_tensor_fill_ (w, 9, &error));
  g_assert_no_error (error);
  gnn_test_assert_close (w, GNN_TEST_DATA (9, 9, 9, 9, 9, 9), 6, 0, 0);
  again = gnn_safetensors_load (path, NULL, &error);
  g_assert_no_error (error);
  assert_same_state (sd, again);
  g_clear_object (&back);
  g_unlink (path);
}

/* a save that fails leaves the previous file whole, and no temporary file behind */
static void
test_atomic_save (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnStateDict) sd = sample_state ();
  g_autoptr(GnnStateDict) bad = gnn_state_dict_new ();
  g_autofree char *path = g_build_filename (tmpdir, "b.safetensors", NULL);
  g_autofree char *missing = g_build_filename (tmpdir, "no-such-dir", "c.safetensors", NULL);
  g_autoptr(GnnStateDict) back = NULL;
  g_autoptr(GDir) dir = NULL;
  GValue v = G_VALUE_INIT;
  guint n_files = 0;

  g_assert_true (gnn_safetensors_save (sd, NULL, path, &error));
  g_assert_no_error (error);

  /* a value that is not a tensor: refused before anything is written */
  g_value_init (&v, G_TYPE_INT);
  g_value_set_int (&v, 3);
  gnn_state_dict_set_value (bad, "step", &v);
  g_assert_false (gnn_safetensors_save (bad, NULL, path, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "\"step\" is not a tensor"));
  g_clear_error (&error);

  /* a folder that does not exist */
  g_assert_false (gnn_safetensors_save (sd, NULL, missing, &error));
  g_assert_error (error, G_FILE_ERROR, G_FILE_ERROR_NOENT);
  g_clear_error (&error);

  back = gnn_safetensors_load (path, NULL, &error);
  g_assert_no_error (error);
  assert_same_state (sd, back);
  dir = g_dir_open (tmpdir, 0, &error);
  while (g_dir_read_name (dir))
    n_files++;
  g_assert_cmpuint (n_files, ==, 1);
  g_unlink (path);
}

static GBytes *
file_with_header (const char *json,
                  gsize       n_data)
{
  GByteArray *a = g_byte_array_new ();
  guint64 n = GUINT64_TO_LE (strlen (json));
  guint8 *zeros = g_malloc0 (n_data + 1);

  g_byte_array_append (a, (const guint8 *) &n, 8);
  g_byte_array_append (a, (const guint8 *) json, strlen (json));
  g_byte_array_append (a, zeros, n_data);
  g_free (zeros);
  return g_byte_array_free_to_bytes (a);
}

static void
expect_bad (GBytes     *bytes,
            gint        code,
            const char *fragment)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnStateDict) sd = gnn_safetensors_load_from_bytes (bytes, NULL, &error);

  g_assert_null (sd);
  g_assert_error (error, GNN_ERROR, code);
  if (strstr (error->message, fragment) == NULL)
    g_error ("expected \"%s\" in \"%s\"", fragment, error->message);
}

static void
test_bad_files (void)
{
  static const struct {
    const char *json;
    gsize n_data;
    gint code;
    const char *fragment;
  } cases[] = {
    { "[1,2]", 0, GNN_ERROR_FILE_FORMAT, "does not start with '{'" },
    { "{\"a\":", 0, GNN_ERROR_FILE_FORMAT, "not JSON" },
    { "{\"a\":3}", 0, GNN_ERROR_FILE_FORMAT, "not an object" },
    { "{\"a\":{\"dtype\":\"F32\",\"shape\":[2]}}", 8, GNN_ERROR_FILE_FORMAT, "exactly the members" },
    { "{\"a\":{\"dtype\":\"Q8\",\"shape\":[2],\"data_offsets\":[0,8]}}", 8, GNN_ERROR_DTYPE, "\"Q8\"" },
    { "{\"a\":{\"dtype\":\"F32\",\"shape\":[-2],\"data_offsets\":[0,8]}}", 8, GNN_ERROR_FILE_FORMAT, "not a size" },
    { "{\"a\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[0,12]}}", 8, GNN_ERROR_FILE_FORMAT, "outside" },
    { "{\"a\":{\"dtype\":\"F32\",\"shape\":[3],\"data_offsets\":[0,8]}}", 8, GNN_ERROR_FILE_FORMAT, "needs 12 bytes" },
    { "{\"a\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[0,8]},"
      "\"b\":{\"dtype\":\"F32\",\"shape\":[1],\"data_offsets\":[4,8]}}", 8, GNN_ERROR_FILE_FORMAT, "overlap" },
    { "{\"a\":{\"dtype\":\"F32\",\"shape\":[1],\"data_offsets\":[0,4]}}", 8, GNN_ERROR_FILE_FORMAT, "cover 4 bytes" },
    { "{\"a\":{\"dtype\":\"F32\",\"shape\":[1,1,1,1,1,1,1,1,1],\"data_offsets\":[0,4]}}", 4, GNN_ERROR_FILE_FORMAT, "9 dimensions" },
    { "{\"__metadata__\":{\"x\":1}}", 0, GNN_ERROR_FILE_FORMAT, "not a string" },
    { "{\"a\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[0,\"8\"]}}", 8, GNN_ERROR_FILE_FORMAT, "two integers" },
  };
  guint8 raw[16] = { 0, };
  guint64 n;

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GBytes) b = file_with_header (cases[i].json, cases[i].n_data);

      expect_bad (b, cases[i].code, cases[i].fragment);
    }

  /* too short for the length; a length past the end; an oversized header */
  {
    g_autoptr(GBytes) b = g_bytes_new (raw, 5);
    expect_bad (b, GNN_ERROR_FILE_FORMAT, "too short");
  }
  n = GUINT64_TO_LE (100);
  memcpy (raw, &n, 8);
  raw[8] = '{';
  {
    g_autoptr(GBytes) b = g_bytes_new (raw, 16);
    expect_bad (b, GNN_ERROR_FILE_FORMAT, "truncated");
  }
  n = GUINT64_TO_LE ((guint64) GNN_SAFETENSORS_MAX_HEADER + 1);
  memcpy (raw, &n, 8);
  {
    g_autoptr(GBytes) b = g_bytes_new (raw, 16);
    expect_bad (b, GNN_ERROR_FILE_FORMAT, "more than the");
  }

  /* what torch.save writes (a zip archive, or a legacy pickle) is named as such, and a
   * safetensors file whose header length starts with the same bytes still loads */
  {
    static const guint8 zip[] = { 'P', 'K', 3, 4, 20, 0, 0, 0, 0, 0, 'a', 'r', 'c', 'h', 'i', 'v', 'e' };
    static const guint8 legacy[] = { 0x80, 0x02, 0x8a, 0x0a, 0x6c, 0xfc, 0x9c, 0x46, 0xf9, 0x20, 0x6a, 0xa8 };
    g_autoptr(GBytes) z = g_bytes_new_static (zip, sizeof zip);
    g_autoptr(GBytes) l = g_bytes_new_static (legacy, sizeof legacy);

    expect_bad (z, GNN_ERROR_FILE_FORMAT, "a zip archive, as torch.save writes");
    expect_bad (l, GNN_ERROR_FILE_FORMAT, "a pickle stream, as torch.save writes");
    expect_bad (l, GNN_ERROR_FILE_FORMAT, "safetensors.torch.save_file (torch.load (path");
  }
  {
    g_autoptr(GError) error = NULL;
    gboolean seen_0x80 = FALSE;

    for (guint n = 1; n < 80; n++)
      {
        g_autofree char *key = g_strnfill (n, 'k');
        g_autoptr(GnnTensor) t = gnn_tensor_new_ones (GNN_TEST_SHAPE (2), 1, GNN_DTYPE_FLOAT32, NULL, &error);
        g_autoptr(GnnStateDict) one = gnn_state_dict_new ();
        g_autoptr(GBytes) b = NULL;
        g_autoptr(GnnStateDict) back = NULL;

        g_assert_no_error (error);
        gnn_state_dict_set_tensor (one, key, t);
        b = gnn_safetensors_save_to_bytes (one, NULL, &error);
        g_assert_no_error (error);
        seen_0x80 |= ((const guint8 *) g_bytes_get_data (b, NULL))[0] == 0x80;
        back = gnn_safetensors_load_from_bytes (b, NULL, &error);
        g_assert_no_error (error);
        g_assert_nonnull (back);
      }
    g_assert_true (seen_0x80);
  }

  /* every truncation of a good file is refused */
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(GnnStateDict) sd = sample_state ();
    g_autoptr(GBytes) good = gnn_safetensors_save_to_bytes (sd, NULL, &error);
    gsize size = g_bytes_get_size (good);

    for (gsize cut = 0; cut < size; cut++)
      {
        g_autoptr(GBytes) part = g_bytes_new_from_bytes (good, 0, cut);
        g_autoptr(GnnStateDict) none = gnn_safetensors_load_from_bytes (part, NULL, &error);

        g_assert_null (none);
        g_assert_error (error, GNN_ERROR, GNN_ERROR_FILE_FORMAT);
        g_clear_error (&error);
      }
  }
}

static void
test_missing_file (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *path = g_build_filename (tmpdir, "absent.safetensors", NULL);
  g_autoptr(GnnStateDict) sd = gnn_safetensors_load (path, NULL, &error);

  g_assert_null (sd);
  g_assert_error (error, G_FILE_ERROR, G_FILE_ERROR_NOENT);
}

/* a module's state through a file and back into another module */
static void
test_module_state (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnModule) a = GNN_MODULE (gnn_linear_new (4, 3, TRUE, &error));
  g_autoptr(GnnModule) b = GNN_MODULE (gnn_linear_new (4, 3, TRUE, &error));
  g_autoptr(GnnStateDict) sd = gnn_module_state_dict (a, NULL, FALSE, &error);
  g_autofree char *path = g_build_filename (tmpdir, "m.safetensors", NULL);
  g_autoptr(GnnStateDict) back = NULL;
  g_autoptr(GnnStateDict) sb = NULL;

  g_assert_no_error (error);
  g_assert_true (gnn_safetensors_save (sd, NULL, path, &error));
  back = gnn_safetensors_load (path, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (gnn_module_load_state_dict (b, back, TRUE, FALSE, NULL, NULL, &error));
  g_assert_no_error (error);
  sb = gnn_module_state_dict (b, NULL, FALSE, &error);
  assert_same_state (sd, sb);
  g_clear_object (&back);
  g_unlink (path);
}

int
main (int argc, char **argv)
{
  int ret;

  gnn_test_init (&argc, &argv);
  tmpdir = g_dir_make_tmp ("gnn-safetensors-XXXXXX", NULL);
  g_test_add_func ("/safetensors/round-trip", test_round_trip);
  g_test_add_func ("/safetensors/exact-bytes", test_exact_bytes);
  g_test_add_func ("/safetensors/file-zero-copy", test_file_zero_copy);
  g_test_add_func ("/safetensors/atomic-save", test_atomic_save);
  g_test_add_func ("/safetensors/bad-files", test_bad_files);
  g_test_add_func ("/safetensors/missing-file", test_missing_file);
  g_test_add_func ("/safetensors/module-state", test_module_state);
  ret = g_test_run ();
  g_rmdir (tmpdir);
  g_free (tmpdir);
  return ret;
}
