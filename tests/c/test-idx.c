/* test-idx.c: the IDX (MNIST-format) reader, raw and gzipped, and every way a file can be bad */
#include "config.h"

#include <glib/gstdio.h>

#include "gnn-test-util.h"

#define FASHION_MNIST_DIR "/usr/share/datasets/fashion-mnist"

static char *tmpdir;

/* ---- building IDX files ------------------------------------------------------------- */

/* An IDX header: 0 0 @type @ndim, then @ndim big-endian sizes. */
static GByteArray *
idx_header (guint8         type,
            guint8         ndim,
            const guint32 *dims)
{
  GByteArray *a = g_byte_array_new ();
  guint8 magic[4] = { 0, 0, type, ndim };

  g_byte_array_append (a, magic, 4);
  for (guint i = 0; i < ndim; i++)
    {
      guint32 be = GUINT32_TO_BE (dims[i]);
      g_byte_array_append (a, (const guint8 *) &be, 4);
    }
  return a;
}

static GBytes *
idx_bytes (guint8         type,
           guint8         ndim,
           const guint32 *dims,
           gconstpointer  data,
           gsize          n_data)
{
  GByteArray *a = idx_header (type, ndim, dims);

  if (n_data > 0)
    g_byte_array_append (a, data, n_data);
  return g_byte_array_free_to_bytes (a);
}

static GBytes *
gzip_bytes (GBytes *bytes)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GZlibCompressor) compressor = g_zlib_compressor_new (G_ZLIB_COMPRESSOR_FORMAT_GZIP, 9);
  g_autoptr(GOutputStream) memory = g_memory_output_stream_new_resizable ();
  g_autoptr(GOutputStream) out = g_converter_output_stream_new (memory, G_CONVERTER (compressor));
  gsize size;
  gconstpointer data = g_bytes_get_data (bytes, &size);

  g_assert_true (g_output_stream_write_all (out, data, size, NULL, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (g_output_stream_close (out, NULL, &error));
  g_assert_no_error (error);
  return g_memory_output_stream_steal_as_bytes (G_MEMORY_OUTPUT_STREAM (memory));
}

/* Writes @bytes to a file named @name in the temporary folder; returns its path. */
static char *
write_file (const char *name,
            GBytes     *bytes)
{
  g_autoptr(GError) error = NULL;
  char *path = g_build_filename (tmpdir, name, NULL);
  gsize size;
  gconstpointer data = g_bytes_get_data (bytes, &size);

  g_file_set_contents (path, data, size, &error);
  g_assert_no_error (error);
  return path;
}

static GnnTensor *
load_ok (const char *name,
         GBytes     *bytes)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *path = write_file (name, bytes);
  GnnTensor *t = gnn_idx_load (path, &error);

  g_assert_no_error (error);
  g_assert_nonnull (t);
  return t;
}

/* Loads @bytes written to a file named @name, from memory and from a stream, and checks that
 * each fails with GNN_ERROR_FILE_FORMAT and a message holding @expected. */
static void
assert_bad (const char *name,
            GBytes     *bytes,
            const char *expected)
{
  g_autofree char *path = write_file (name, bytes);
  g_autoptr(GError) error = NULL;
  GnnTensor *t;

  t = gnn_idx_load (path, &error);
  g_assert_null (t);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_FILE_FORMAT);
  if (strstr (error->message, expected) == NULL || strstr (error->message, name) == NULL)
    g_error ("%s: expected a message naming the file and holding “%s”, got “%s”",
             name, expected, error->message);
  g_test_message ("%s", error->message);
  g_clear_error (&error);

  /* in memory: the same, but for the name (and gzip is detected by its magic number) */
  if (!g_str_has_suffix (name, ".gz") ||
      (g_bytes_get_size (bytes) >= 2 && ((const guint8 *) g_bytes_get_data (bytes, NULL))[0] == 0x1f))
    {
      t = gnn_idx_load_from_bytes (bytes, &error);
      g_assert_null (t);
      g_assert_error (error, GNN_ERROR, GNN_ERROR_FILE_FORMAT);
      if (strstr (error->message, expected) == NULL)
        g_error ("%s from memory: expected a message holding “%s”, got “%s”",
                 name, expected, error->message);
    }
}

/* ---- good files --------------------------------------------------------------------- */

static void
test_ubyte (void)
{
  const guint8 data[6] = { 0, 1, 2, 127, 128, 255 };
  g_autoptr(GBytes) bytes = idx_bytes (0x08, 2, (guint32[]) { 2, 3 }, data, 6);
  g_autoptr(GnnTensor) t = load_ok ("ubyte-idx2", bytes);
  g_autoptr(GBytes) back = NULL;
  g_autoptr(GError) error = NULL;

  g_assert_cmpint (gnn_tensor_get_dtype (t), ==, GNN_DTYPE_UINT8);
  gnn_test_assert_shape (t, GNN_TEST_SHAPE (2, 3), 2);
  back = gnn_tensor_get_bytes (t, &error);
  g_assert_no_error (error);
  g_assert_cmpmem (g_bytes_get_data (back, NULL), g_bytes_get_size (back), data, 6);
  gnn_test_assert_close (t, GNN_TEST_DATA (0, 1, 2, 127, 128, 255), 6, 0, 0);
  g_assert_finalize_object (g_steal_pointer (&t));
}

static void
test_types (void)
{
  /* signed byte */
  {
    const gint8 data[4] = { -128, -1, 0, 127 };
    g_autoptr(GBytes) bytes = idx_bytes (0x09, 1, (guint32[]) { 4 }, data, 4);
    g_autoptr(GnnTensor) t = load_ok ("sbyte", bytes);

    g_assert_cmpint (gnn_tensor_get_dtype (t), ==, GNN_DTYPE_INT64);
    gnn_test_assert_shape (t, GNN_TEST_SHAPE (4), 1);
    gnn_test_assert_close (t, GNN_TEST_DATA (-128, -1, 0, 127), 4, 0, 0);
  }
  /* short, big-endian */
  {
    const guint8 data[6] = { 0x80, 0x00, 0xff, 0xfe, 0x01, 0x02 };
    g_autoptr(GBytes) bytes = idx_bytes (0x0B, 2, (guint32[]) { 3, 1 }, data, 6);
    g_autoptr(GnnTensor) t = load_ok ("short", bytes);

    g_assert_cmpint (gnn_tensor_get_dtype (t), ==, GNN_DTYPE_INT64);
    gnn_test_assert_shape (t, GNN_TEST_SHAPE (3, 1), 2);
    gnn_test_assert_close (t, GNN_TEST_DATA (-32768, -2, 258), 3, 0, 0);
  }
  /* int, big-endian */
  {
    const guint8 data[8] = { 0x80, 0, 0, 0, 0x01, 0x02, 0x03, 0x04 };
    g_autoptr(GBytes) bytes = idx_bytes (0x0C, 1, (guint32[]) { 2 }, data, 8);
    g_autoptr(GnnTensor) t = load_ok ("int", bytes);

    g_assert_cmpint (gnn_tensor_get_dtype (t), ==, GNN_DTYPE_INT64);
    gnn_test_assert_close (t, GNN_TEST_DATA (-2147483648.0, 16909060), 2, 0, 0);
  }
  /* float, big-endian: 1.5 = 0x3fc00000, -0.25 = 0xbe800000 */
  {
    const guint8 data[8] = { 0x3f, 0xc0, 0, 0, 0xbe, 0x80, 0, 0 };
    g_autoptr(GBytes) bytes = idx_bytes (0x0D, 3, (guint32[]) { 1, 2, 1 }, data, 8);
    g_autoptr(GnnTensor) t = load_ok ("float", bytes);

    g_assert_cmpint (gnn_tensor_get_dtype (t), ==, GNN_DTYPE_FLOAT32);
    gnn_test_assert_shape (t, GNN_TEST_SHAPE (1, 2, 1), 3);
    gnn_test_assert_close (t, GNN_TEST_DATA (1.5, -0.25), 2, 0, 0);
  }
  /* double, big-endian: 3.0 = 0x4008000000000000, -1e-3 */
  {
    guint64 a = GUINT64_TO_BE (G_GUINT64_CONSTANT (0x4008000000000000));
    double d = -1e-3;
    guint64 b;
    guint8 data[16];
    g_autoptr(GBytes) bytes = NULL;
    g_autoptr(GnnTensor) t = NULL;

    memcpy (&b, &d, 8);
    b = GUINT64_TO_BE (b);
    memcpy (data, &a, 8);
    memcpy (data + 8, &b, 8);
    bytes = idx_bytes (0x0E, 1, (guint32[]) { 2 }, data, 16);
    t = load_ok ("double", bytes);
    g_assert_cmpint (gnn_tensor_get_dtype (t), ==, GNN_DTYPE_FLOAT64);
    gnn_test_assert_close (t, GNN_TEST_DATA (3.0, -1e-3), 2, 0, 0);
  }
}

static void
test_eight_dims_and_empty (void)
{
  const guint8 data[2] = { 7, 9 };
  g_autoptr(GBytes) eight = idx_bytes (0x08, 8, (guint32[]) { 1, 1, 1, 2, 1, 1, 1, 1 }, data, 2);
  g_autoptr(GnnTensor) t = load_ok ("eight-dims", eight);
  /* a zero size empties the tensor, however large the others */
  g_autoptr(GBytes) empty = idx_bytes (0x0D, 3, (guint32[]) { 0x7fffffff, 0, 0x7fffffff }, NULL, 0);
  g_autoptr(GnnTensor) e = load_ok ("empty", empty);

  gnn_test_assert_shape (t, GNN_TEST_SHAPE (1, 1, 1, 2, 1, 1, 1, 1), 8);
  gnn_test_assert_close (t, GNN_TEST_DATA (7, 9), 2, 0, 0);
  gnn_test_assert_shape (e, GNN_TEST_SHAPE (0x7fffffff, 0, 0x7fffffff), 3);
  g_assert_cmpint (gnn_tensor_get_numel (e), ==, 0);
  g_assert_cmpint (gnn_tensor_get_dtype (e), ==, GNN_DTYPE_FLOAT32);
}

static void
test_gzip (void)
{
  g_autoptr(GError) error = NULL;
  guint8 data[300];
  g_autoptr(GBytes) raw = NULL;
  g_autoptr(GBytes) gz = NULL;
  g_autoptr(GnnTensor) by_suffix = NULL;
  g_autoptr(GnnTensor) by_magic = NULL;
  g_autoptr(GnnTensor) from_bytes = NULL;
  g_autoptr(GnnTensor) from_stream = NULL;
  g_autoptr(GInputStream) stream = NULL;
  g_autoptr(GBytes) back = NULL;

  for (guint i = 0; i < sizeof data; i++)
    data[i] = (guint8) (i * 7);
  raw = idx_bytes (0x08, 3, (guint32[]) { 3, 10, 10 }, data, sizeof data);
  gz = gzip_bytes (raw);
  g_assert_cmpuint (((const guint8 *) g_bytes_get_data (gz, NULL))[0], ==, 0x1f);

  by_suffix = load_ok ("images-idx3-ubyte.gz", gz);
  by_magic = load_ok ("images-idx3-ubyte-gzipped", gz);
  from_bytes = gnn_idx_load_from_bytes (gz, &error);
  g_assert_no_error (error);

  /* the stream is read, not closed */
  stream = g_memory_input_stream_new_from_bytes (gz);
  from_stream = gnn_idx_load_from_stream (stream, NULL, &error);
  g_assert_no_error (error);
  g_assert_false (g_input_stream_is_closed (stream));

  gnn_test_assert_shape (by_suffix, GNN_TEST_SHAPE (3, 10, 10), 3);
  back = gnn_tensor_get_bytes (by_suffix, &error);
  g_assert_no_error (error);
  g_assert_cmpmem (g_bytes_get_data (back, NULL), g_bytes_get_size (back), data, sizeof data);
  g_clear_pointer (&back, g_bytes_unref);
  for (guint k = 0; k < 3; k++)
    {
      GnnTensor *t = k == 0 ? by_magic : k == 1 ? from_bytes : from_stream;

      gnn_test_assert_shape (t, GNN_TEST_SHAPE (3, 10, 10), 3);
      g_assert_cmpint (gnn_tensor_get_dtype (t), ==, GNN_DTYPE_UINT8);
      back = gnn_tensor_get_bytes (t, &error);
      g_assert_no_error (error);
      g_assert_cmpmem (g_bytes_get_data (back, NULL), g_bytes_get_size (back), data, sizeof data);
      g_clear_pointer (&back, g_bytes_unref);
    }
}

static void
test_missing_file (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *path = g_build_filename (tmpdir, "no-such-file-idx1-ubyte", NULL);
  GnnTensor *t = gnn_idx_load (path, &error);

  g_assert_null (t);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
}

/* ---- bad files ---------------------------------------------------------------------- */

static void
test_bad_header (void)
{
  const guint8 data[6] = { 1, 2, 3, 4, 5, 6 };
  g_autoptr(GBytes) nothing = g_bytes_new (NULL, 0);
  g_autoptr(GBytes) three = g_bytes_new ("\0\0\x08", 3);
  g_autoptr(GBytes) text = g_bytes_new ("hello world\n", 12);
  g_autoptr(GBytes) code = idx_bytes (0x0A, 1, (guint32[]) { 6 }, data, 6);
  g_autoptr(GBytes) zero_dims = idx_bytes (0x08, 0, NULL, data, 6);
  g_autoptr(GBytes) nine_dims = idx_bytes (0x08, 9, (guint32[]) { 1, 1, 1, 1, 1, 1, 1, 1, 6 }, data, 6);
  g_autoptr(GBytes) short_dims = g_bytes_new ("\0\0\x08\x03\0\0\0\x02\0\0", 10);

  assert_bad ("empty-file", nothing, "truncated IDX header: expected a 4-byte magic number, found 0 bytes");
  assert_bad ("three-bytes", three, "found 3 bytes");
  assert_bad ("text", text, "wrong IDX magic number: expected 0x00 0x00 followed by a type code and "
                            "a dimension count, found 0x68 0x65 0x6c 0x6c");
  assert_bad ("type-code", code, "unknown IDX type code 0x0a: expected 0x08 (unsigned byte)");
  assert_bad ("zero-dims", zero_dims, "IDX header declares 0 dimensions, expected 1 to 8");
  assert_bad ("nine-dims", nine_dims, "IDX header declares 9 dimensions, expected 1 to 8");
  assert_bad ("short-dims", short_dims,
              "truncated IDX header: expected 12 bytes of dimension sizes for 3 dimensions, found 6");
}

static void
test_bad_dims (void)
{
  const guint8 data[6] = { 1, 2, 3, 4, 5, 6 };
  g_autoptr(GBytes) negative = idx_bytes (0x08, 2, (guint32[]) { 0x80000000u, 1 }, data, 6);
  g_autoptr(GBytes) overflow = idx_bytes (0x0E, 8, (guint32[]) { 0x7fffffff, 0x7fffffff, 0x7fffffff,
                                                                 0x7fffffff, 0x7fffffff, 0x7fffffff,
                                                                 0x7fffffff, 0x7fffffff }, data, 6);
  g_autoptr(GBytes) huge = idx_bytes (0x08, 3, (guint32[]) { 100000, 100000, 10 }, data, 6);
  /* 2^31 signed bytes make 16 GiB of int64: one byte past the limit */
  g_autoptr(GBytes) huge_int64 = idx_bytes (0x09, 2, (guint32[]) { 0x40000000, 3 }, data, 6);

  assert_bad ("negative-dim", negative, "IDX dimension 0 has size 2147483648, expected at most 2147483647");
  assert_bad ("overflow-dims", overflow, "found more elements than 64 bits can count");
  assert_bad ("huge-dims", huge, "IDX dimensions (100000, 100000, 10) are too large: expected a tensor "
                                 "of at most 17179869184 bytes, found 100000000000 bytes of uint8");
  assert_bad ("huge-int64", huge_int64, "found 25769803776 bytes of int64");
}

static void
test_bad_data (void)
{
  const guint8 data[12] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12 };
  g_autoptr(GBytes) truncated = idx_bytes (0x08, 2, (guint32[]) { 2, 3 }, data, 4);
  g_autoptr(GBytes) truncated_int = idx_bytes (0x0C, 1, (guint32[]) { 3 }, data, 11);
  g_autoptr(GBytes) trailing = idx_bytes (0x08, 2, (guint32[]) { 2, 3 }, data, 9);
  /* a header claiming a gigabyte in front of ten bytes: must fail without allocating it */
  g_autoptr(GBytes) claims_gb = idx_bytes (0x08, 1, (guint32[]) { 1u << 30 }, data, 10);
  g_autoptr(GBytes) big_trailing = NULL;
  g_autoptr(GByteArray) a = idx_header (0x08, 1, (guint32[]) { 1 });
  guint header_len = a->len;

  g_byte_array_set_size (a, header_len + 1 + 3 * 1024 * 1024);
  memset (a->data + header_len, 0xab, a->len - header_len);
  big_trailing = g_byte_array_free_to_bytes (g_steal_pointer (&a));

  assert_bad ("truncated-data", truncated, "truncated IDX data: expected 6 bytes of data, found 4");
  assert_bad ("truncated-int", truncated_int, "expected 12 bytes of data, found 11");
  assert_bad ("trailing", trailing, "trailing garbage in IDX file: expected the data to end after 6 "
                                    "bytes, found 3 more bytes");
  assert_bad ("claims-gb", claims_gb, "expected 1073741824 bytes of data, found 10");
  assert_bad ("big-trailing", big_trailing, "found at least 1048576 more bytes");
}

static void
test_bad_gzip (void)
{
  const guint8 data[6] = { 1, 2, 3, 4, 5, 6 };
  g_autoptr(GBytes) raw = idx_bytes (0x08, 2, (guint32[]) { 2, 3 }, data, 6);
  g_autoptr(GBytes) gz = gzip_bytes (raw);
  gsize size = g_bytes_get_size (gz);
  g_autofree guint8 *bad_crc = g_memdup2 (g_bytes_get_data (gz, NULL), size);
  g_autofree guint8 *bad_method = g_memdup2 (g_bytes_get_data (gz, NULL), size);
  g_autoptr(GBytes) bad_crc_bytes = NULL;
  g_autoptr(GBytes) bad_method_bytes = NULL;
  g_autoptr(GBytes) cut = g_bytes_new_from_bytes (gz, 0, size - 10);
  g_autoptr(GBytes) magic_only = g_bytes_new ("\x1f\x8b", 2);
  g_autoptr(GBytes) bad_gz_raw = idx_bytes (0x0D, 1, (guint32[]) { 2 }, data, 6);
  g_autoptr(GBytes) bad_gz = gzip_bytes (bad_gz_raw);

  bad_crc[size - 8] ^= 0xff;   /* the CRC-32 of the trailer */
  bad_method[2] = 0x07;        /* compression method: only 8 (deflate) exists */
  bad_crc_bytes = g_bytes_new (bad_crc, size);
  bad_method_bytes = g_bytes_new (bad_method, size);

  assert_bad ("bad-crc.gz", bad_crc_bytes, "corrupt gzip data");
  assert_bad ("bad-crc-no-suffix", bad_crc_bytes, "corrupt gzip data");
  assert_bad ("bad-method.gz", bad_method_bytes, "corrupt gzip data");
  assert_bad ("cut.gz", cut, "corrupt gzip data: the compressed stream ends early");
  assert_bad ("magic-only", magic_only, "corrupt gzip data: the compressed stream ends early");
  /* named .gz but not gzip: decompressed all the same, and refused */
  assert_bad ("not-gzip.gz", raw, "corrupt gzip data");
  /* good gzip of a bad IDX file: the IDX error comes through */
  assert_bad ("bad-inside.gz", bad_gz, "expected 8 bytes of data, found 6");
}

/* Every prefix of a good file is refused cleanly. */
static void
test_every_prefix (void)
{
  const guint8 data[8] = { 0x3f, 0xc0, 0, 0, 0xbe, 0x80, 0, 0 };
  g_autoptr(GBytes) raw = idx_bytes (0x0D, 2, (guint32[]) { 1, 2 }, data, 8);
  g_autoptr(GBytes) gz = gzip_bytes (raw);

  for (guint k = 0; k < 2; k++)
    {
      GBytes *whole = k == 0 ? raw : gz;
      gsize size = g_bytes_get_size (whole);

      for (gsize n = 0; n < size; n++)
        {
          g_autoptr(GBytes) prefix = g_bytes_new_from_bytes (whole, 0, n);
          g_autoptr(GError) error = NULL;
          GnnTensor *t = gnn_idx_load_from_bytes (prefix, &error);

          g_assert_null (t);
          g_assert_error (error, GNN_ERROR, GNN_ERROR_FILE_FORMAT);
        }
    }
}

/* ---- Fashion-MNIST, when Debian's dataset-fashion-mnist is installed ----------------- */

static void
test_fashion_mnist (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *labels_path = g_build_filename (FASHION_MNIST_DIR, "t10k-labels-idx1-ubyte.gz", NULL);
  g_autofree char *images_path = g_build_filename (FASHION_MNIST_DIR, "t10k-images-idx3-ubyte.gz", NULL);
  g_autoptr(GnnTensor) labels = NULL;
  g_autoptr(GnnTensor) images = NULL;
  g_autoptr(GBytes) bytes = NULL;
  const guint8 *p;
  gsize n;
  guint counts[10] = { 0 };

  if (!g_file_test (labels_path, G_FILE_TEST_EXISTS) || !g_file_test (images_path, G_FILE_TEST_EXISTS))
    {
      g_test_skip ("Fashion-MNIST not found in " FASHION_MNIST_DIR " (Debian package dataset-fashion-mnist)");
      return;
    }

  labels = gnn_idx_load (labels_path, &error);
  g_assert_no_error (error);
  images = gnn_idx_load (images_path, &error);
  g_assert_no_error (error);

  gnn_test_assert_shape (labels, GNN_TEST_SHAPE (10000), 1);
  gnn_test_assert_shape (images, GNN_TEST_SHAPE (10000, 28, 28), 3);
  g_assert_cmpint (gnn_tensor_get_dtype (labels), ==, GNN_DTYPE_UINT8);
  g_assert_cmpint (gnn_tensor_get_dtype (images), ==, GNN_DTYPE_UINT8);

  bytes = gnn_tensor_get_bytes (labels, &error);
  g_assert_no_error (error);
  p = g_bytes_get_data (bytes, &n);
  g_assert_cmpuint (n, ==, 10000);
  for (gsize i = 0; i < n; i++)
    {
      g_assert_cmpuint (p[i], <=, 9);
      counts[p[i]]++;
    }
  /* the test set is balanced: 1000 of each class */
  for (guint c = 0; c < 10; c++)
    g_assert_cmpuint (counts[c], ==, 1000);
}

int
main (int argc, char **argv)
{
  g_autoptr(GError) error = NULL;
  int ret;

  gnn_test_init (&argc, &argv);
  tmpdir = g_dir_make_tmp ("gnn-test-idx-XXXXXX", &error);
  g_assert_no_error (error);

  g_test_add_func ("/idx/ubyte", test_ubyte);
  g_test_add_func ("/idx/types", test_types);
  g_test_add_func ("/idx/eight-dims-and-empty", test_eight_dims_and_empty);
  g_test_add_func ("/idx/gzip", test_gzip);
  g_test_add_func ("/idx/missing-file", test_missing_file);
  g_test_add_func ("/idx/bad/header", test_bad_header);
  g_test_add_func ("/idx/bad/dims", test_bad_dims);
  g_test_add_func ("/idx/bad/data", test_bad_data);
  g_test_add_func ("/idx/bad/gzip", test_bad_gzip);
  g_test_add_func ("/idx/bad/every-prefix", test_every_prefix);
  g_test_add_func ("/idx/fashion-mnist", test_fashion_mnist);

  ret = g_test_run ();

  {
    g_autoptr(GDir) dir = g_dir_open (tmpdir, 0, NULL);
    const char *name;

    while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
      {
        g_autofree char *path = g_build_filename (tmpdir, name, NULL);
        g_unlink (path);
      }
  }
  g_rmdir (tmpdir);
  g_free (tmpdir);
  return ret;
}
