/* gnn-idx.c: the IDX (MNIST-format) reader
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * An IDX file is a four-byte magic number (0x00 0x00, a type code, the number of dimensions),
 * one big-endian 32-bit size per dimension, then the elements in row-major order, each
 * big-endian. MNIST and Fashion-MNIST ship as gzipped IDX files.
 */
#include "config.h"

#include <string.h>

#include "core/gnn-tensor-private.h"
#include "data/gnn-idx.h"

/* the largest tensor built, 16 GiB: a header asking for more is refused, not allocated */
#define IDX_MAX_TENSOR_BYTES (G_GUINT64_CONSTANT (1) << 34)
#define IDX_READ_CHUNK (8 << 20)
#define IDX_TRAILING_COUNT_MAX (1 << 20)

typedef struct
{
  guint8       code;
  const char  *name;
  gsize        in_size;  /* bytes per element in the file */
  GnnDtype     dtype;    /* the tensor's dtype */
} IdxType;

static const IdxType idx_types[] = {
  { 0x08, "unsigned byte", 1, GNN_DTYPE_UINT8 },
  { 0x09, "signed byte", 1, GNN_DTYPE_INT64 },
  { 0x0B, "short", 2, GNN_DTYPE_INT64 },
  { 0x0C, "int", 4, GNN_DTYPE_INT64 },
  { 0x0D, "float", 4, GNN_DTYPE_FLOAT32 },
  { 0x0E, "double", 8, GNN_DTYPE_FLOAT64 },
};

static const IdxType *
idx_type_lookup (guint8 code)
{
  for (gsize i = 0; i < G_N_ELEMENTS (idx_types); i++)
    if (idx_types[i].code == code)
      return &idx_types[i];
  return NULL;
}

/* Reads up to @count bytes, stopping early only at the end of the stream. */
static gboolean
read_up_to (GInputStream  *stream,
            void          *buffer,
            gsize          count,
            gsize         *n_read,
            GCancellable  *cancellable,
            GError       **error)
{
  GError *local_error = NULL;

  *n_read = 0;
  if (count == 0)
    return TRUE;
  if (g_input_stream_read_all (stream, buffer, count, n_read, cancellable, &local_error))
    return TRUE;

  /* zlib's complaints are about the data, not the I/O */
  if (local_error->domain == G_IO_ERROR &&
      (local_error->code == G_IO_ERROR_INVALID_DATA || local_error->code == G_IO_ERROR_PARTIAL_INPUT))
    {
      if (local_error->code == G_IO_ERROR_PARTIAL_INPUT)
        g_set_error (error, GNN_ERROR, GNN_ERROR_FILE_FORMAT,
                     "corrupt gzip data: the compressed stream ends early (%s)", local_error->message);
      else
        g_set_error (error, GNN_ERROR, GNN_ERROR_FILE_FORMAT,
                     "corrupt gzip data: %s", local_error->message);
      g_error_free (local_error);
    }
  else
    g_propagate_error (error, local_error);
  return FALSE;
}

static char *
dims_to_string (const guint32 *dims,
                guint          ndim)
{
  GString *s = g_string_new ("(");

  for (guint i = 0; i < ndim; i++)
    g_string_append_printf (s, i ? ", %u" : "%u", dims[i]);
  g_string_append_c (s, ')');
  return g_string_free (s, FALSE);
}

/* Converts @n big-endian elements of @type at @in into the tensor's dtype at @out. */
static void
convert_elements (const IdxType *type,
                  const guint8  *in,
                  guint8        *out,
                  gsize          n)
{
  gsize i;

  switch (type->code)
    {
    case 0x08:
      memcpy (out, in, n);
      break;
    case 0x09:
      for (i = 0; i < n; i++)
        ((gint64 *) out)[i] = (gint8) in[i];
      break;
    case 0x0B:
      for (i = 0; i < n; i++)
        {
          guint16 v;
          memcpy (&v, in + 2 * i, 2);
          ((gint64 *) out)[i] = (gint16) GUINT16_FROM_BE (v);
        }
      break;
    case 0x0C:
      for (i = 0; i < n; i++)
        {
          guint32 v;
          memcpy (&v, in + 4 * i, 4);
          ((gint64 *) out)[i] = (gint32) GUINT32_FROM_BE (v);
        }
      break;
    case 0x0D:
      for (i = 0; i < n; i++)
        {
          guint32 v;
          memcpy (&v, in + 4 * i, 4);
          v = GUINT32_FROM_BE (v);
          memcpy (out + 4 * i, &v, 4);
        }
      break;
    case 0x0E:
      for (i = 0; i < n; i++)
        {
          guint64 v;
          memcpy (&v, in + 8 * i, 8);
          v = GUINT64_FROM_BE (v);
          memcpy (out + 8 * i, &v, 8);
        }
      break;
    default:
      g_assert_not_reached ();
    }
}

/* Reads an IDX tensor from @stream, which yields the uncompressed bytes. */
static GnnTensor *
idx_read (GInputStream  *stream,
          GCancellable  *cancellable,
          GError       **error)
{
  guint8 magic[4];
  guint8 raw_dims[4 * GNN_IDX_MAX_DIMS];
  guint32 dims[GNN_IDX_MAX_DIMS];
  gint64 shape[GNN_IDX_MAX_DIMS];
  const IdxType *type;
  guint ndim;
  guint64 numel = 1;
  guint64 in_bytes, out_bytes = 0;
  gboolean overflow = FALSE, empty = FALSE;
  gsize n, have = 0;
  g_autofree guint8 *data = NULL;
  g_autoptr(GBytes) bytes = NULL;
  guint8 scratch[4096];
  guint64 trailing = 0;

  if (!read_up_to (stream, magic, 4, &n, cancellable, error))
    return NULL;
  if (n < 4)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_FILE_FORMAT,
                   "truncated IDX header: expected a 4-byte magic number, found %" G_GSIZE_FORMAT " bytes",
                   n);
      return NULL;
    }
  if (magic[0] != 0 || magic[1] != 0)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_FILE_FORMAT,
                   "wrong IDX magic number: expected 0x00 0x00 followed by a type code and a "
                   "dimension count, found 0x%02x 0x%02x 0x%02x 0x%02x",
                   magic[0], magic[1], magic[2], magic[3]);
      return NULL;
    }
  type = idx_type_lookup (magic[2]);
  if (type == NULL)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_FILE_FORMAT,
                   "unknown IDX type code 0x%02x: expected 0x08 (unsigned byte), 0x09 (signed byte), "
                   "0x0B (short), 0x0C (int), 0x0D (float) or 0x0E (double)",
                   magic[2]);
      return NULL;
    }
  ndim = magic[3];
  if (ndim == 0 || ndim > GNN_IDX_MAX_DIMS)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_FILE_FORMAT,
                   "IDX header declares %u dimensions, expected 1 to %d", ndim, GNN_IDX_MAX_DIMS);
      return NULL;
    }

  if (!read_up_to (stream, raw_dims, 4 * ndim, &n, cancellable, error))
    return NULL;
  if (n < 4 * ndim)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_FILE_FORMAT,
                   "truncated IDX header: expected %u bytes of dimension sizes for %u dimensions, "
                   "found %" G_GSIZE_FORMAT,
                   4 * ndim, ndim, n);
      return NULL;
    }
  for (guint i = 0; i < ndim; i++)
    {
      guint32 v;

      memcpy (&v, raw_dims + 4 * i, 4);
      dims[i] = GUINT32_FROM_BE (v);
      if (dims[i] > G_MAXINT32)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_FILE_FORMAT,
                       "IDX dimension %u has size %u, expected at most %d", i, dims[i], G_MAXINT32);
          return NULL;
        }
      shape[i] = dims[i];
    }

  /* A zero size empties the tensor whatever the others say; otherwise the product must
   * neither overflow nor ask for more than the limit. */
  for (guint i = 0; i < ndim; i++)
    empty |= dims[i] == 0;
  if (empty)
    {
      /* an empty tensor's shape still passes the check every tensor's shape passes */
      GError *shape_error = NULL;

      numel = 0;
      if (!gnn_shape_check (NULL, ndim, shape, gnn_dtype_get_size (type->dtype), &shape_error))
        {
          g_autofree char *s = dims_to_string (dims, ndim);

          g_set_error (error, GNN_ERROR, GNN_ERROR_FILE_FORMAT, "IDX dimensions %s: %s", s,
                       shape_error->message);
          g_error_free (shape_error);
          return NULL;
        }
    }
  else
    for (guint i = 0; i < ndim && !overflow; i++)
      overflow = !g_uint64_checked_mul (&numel, numel, dims[i]);
  if (!overflow)
    overflow = !g_uint64_checked_mul (&out_bytes, numel, gnn_dtype_get_size (type->dtype));
  if (overflow || out_bytes > IDX_MAX_TENSOR_BYTES || out_bytes > G_MAXSIZE)
    {
      g_autofree char *s = dims_to_string (dims, ndim);
      g_autofree char *found = overflow
        ? g_strdup ("more elements than 64 bits can count")
        : g_strdup_printf ("%" G_GUINT64_FORMAT " bytes of %s", out_bytes,
                           gnn_dtype_get_name (type->dtype));

      g_set_error (error, GNN_ERROR, GNN_ERROR_FILE_FORMAT,
                   "IDX dimensions %s are too large: expected a tensor of at most %"
                   G_GUINT64_FORMAT " bytes, found %s",
                   s, (guint64) IDX_MAX_TENSOR_BYTES, found);
      return NULL;
    }
  in_bytes = numel * type->in_size;

  /* Grow the buffer as the data arrives, so that a short file claiming a huge tensor costs
   * no more memory than it holds. */
  while (have < in_bytes)
    {
      gsize chunk = MIN (in_bytes - have, MAX (have, IDX_READ_CHUNK));

      data = g_realloc (data, have + chunk);
      if (!read_up_to (stream, data + have, chunk, &n, cancellable, error))
        return NULL;
      have += n;
      if (n < chunk)
        break;
    }
  if (have < in_bytes)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_FILE_FORMAT,
                   "truncated IDX data: expected %" G_GUINT64_FORMAT " bytes of data, found %"
                   G_GSIZE_FORMAT, in_bytes, have);
      return NULL;
    }

  do
    {
      if (!read_up_to (stream, scratch, sizeof scratch, &n, cancellable, error))
        return NULL;
      trailing += n;
    }
  while (n == sizeof scratch && trailing < IDX_TRAILING_COUNT_MAX);
  if (trailing > 0)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_FILE_FORMAT,
                   "trailing garbage in IDX file: expected the data to end after %" G_GUINT64_FORMAT
                   " bytes, found %s%" G_GUINT64_FORMAT " more bytes",
                   in_bytes, n == sizeof scratch ? "at least " : "", trailing);
      return NULL;
    }

  if (type->dtype == GNN_DTYPE_UINT8)
    bytes = g_bytes_new_take (g_steal_pointer (&data), have);
  else
    {
      guint8 *out = g_malloc (MAX (out_bytes, 1));

      convert_elements (type, data, out, numel);
      bytes = g_bytes_new_take (out, out_bytes);
    }
  return gnn_tensor_new_from_bytes (bytes, type->dtype, shape, ndim, NULL, error);
}

/* Wraps @stream in a gzip decompressor when @gzip is set or when it starts with the gzip
 * magic number, then reads. */
static GnnTensor *
idx_load_stream (GInputStream  *stream,
                 gboolean       gzip,
                 GCancellable  *cancellable,
                 GError       **error)
{
  g_autoptr(GInputStream) buffered = NULL;
  g_autoptr(GInputStream) source = NULL;

  if (!gzip)
    {
      GBufferedInputStream *b;
      gsize available;
      const guint8 *peek;

      buffered = g_buffered_input_stream_new (stream);
      g_filter_input_stream_set_close_base_stream (G_FILTER_INPUT_STREAM (buffered), FALSE);
      b = G_BUFFERED_INPUT_STREAM (buffered);
      while ((available = g_buffered_input_stream_get_available (b)) < 2)
        {
          gssize r = g_buffered_input_stream_fill (b, -1, cancellable, error);
          if (r < 0)
            return NULL;
          if (r == 0)
            break;
        }
      peek = g_buffered_input_stream_peek_buffer (b, &available);
      gzip = available >= 2 && peek[0] == 0x1f && peek[1] == 0x8b;
      stream = buffered;
    }

  if (gzip)
    {
      g_autoptr(GZlibDecompressor) decompressor = g_zlib_decompressor_new (G_ZLIB_COMPRESSOR_FORMAT_GZIP);

      source = g_converter_input_stream_new (stream, G_CONVERTER (decompressor));
      g_filter_input_stream_set_close_base_stream (G_FILTER_INPUT_STREAM (source), FALSE);
    }
  else
    source = g_object_ref (stream);

  return idx_read (source, cancellable, error);
}

/**
 * gnn_idx_load_from_stream:
 * @stream: a stream positioned at the start of an IDX file
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for a #GError
 *
 * Reads an IDX file (the format of MNIST and Fashion-MNIST) from @stream into a new CPU tensor.
 * A stream that starts with the gzip magic number is decompressed first. The stream is read
 * to its end, since bytes after the data are an error; it is not closed.
 *
 * The IDX type codes map onto dtypes thus: unsigned byte (0x08) to
 * [enum@Gnn.Dtype.UINT8]; signed byte (0x09), short (0x0B) and int (0x0C) to
 * [enum@Gnn.Dtype.INT64]; float (0x0D) to [enum@Gnn.Dtype.FLOAT32]; double (0x0E) to
 * [enum@Gnn.Dtype.FLOAT64]. The tensor has the dimensions of the file.
 *
 * A file that is not IDX, truncated, followed by other bytes, corrupt gzip, or whose
 * dimensions ask for a tensor of more than 16 GiB fails with
 * [error@Gnn.Error.FILE_FORMAT]; a failure of the stream itself is passed on as it comes
 * (usually a `G_IO_ERROR`).
 *
 * Returns: (transfer full): a new tensor, or %NULL with @error set
 */
GnnTensor *
gnn_idx_load_from_stream (GInputStream  *stream,
                          GCancellable  *cancellable,
                          GError       **error)
{
  g_return_val_if_fail (G_IS_INPUT_STREAM (stream), NULL);
  g_return_val_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  return idx_load_stream (stream, FALSE, cancellable, error);
}

/**
 * gnn_idx_load_from_bytes:
 * @bytes: the contents of an IDX file, gzipped or not
 * @error: return location for a #GError
 *
 * Reads an IDX file held in memory into a new CPU tensor, as
 * [func@Gnn.idx_load_from_stream] does.
 *
 * Returns: (transfer full): a new tensor, or %NULL with @error set
 */
GnnTensor *
gnn_idx_load_from_bytes (GBytes  *bytes,
                         GError **error)
{
  g_autoptr(GInputStream) stream = NULL;

  g_return_val_if_fail (bytes != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  stream = g_memory_input_stream_new_from_bytes (bytes);
  return idx_load_stream (stream, FALSE, NULL, error);
}

/**
 * gnn_idx_load_file:
 * @file: an IDX file
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for a #GError
 *
 * Reads an IDX file into a new CPU tensor, as [func@Gnn.idx_load_from_stream] does. A file
 * whose name ends in `.gz` is always decompressed; others are when they start with the
 * gzip magic number. Error messages begin with the file's name.
 *
 * Returns: (transfer full): a new tensor, or %NULL with @error set
 */
GnnTensor *
gnn_idx_load_file (GFile         *file,
                   GCancellable  *cancellable,
                   GError       **error)
{
  g_autoptr(GFileInputStream) stream = NULL;
  g_autofree char *basename = NULL;
  g_autofree char *name = NULL;
  GError *local_error = NULL;
  GnnTensor *t;

  g_return_val_if_fail (G_IS_FILE (file), NULL);
  g_return_val_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  stream = g_file_read (file, cancellable, error);
  if (stream == NULL)
    return NULL;
  basename = g_file_get_basename (file);
  t = idx_load_stream (G_INPUT_STREAM (stream),
                       basename != NULL && g_str_has_suffix (basename, ".gz"),
                       cancellable, &local_error);
  if (t == NULL)
    {
      name = g_file_get_parse_name (file);
      g_propagate_prefixed_error (error, local_error, "%s: ", name);
    }
  return t;
}

/**
 * gnn_idx_load:
 * @path: (type filename): the path of an IDX file
 * @error: return location for a #GError
 *
 * Reads an IDX file, such as Fashion-MNIST's `t10k-images-idx3-ubyte.gz`, into a new CPU
 * tensor, as [func@Gnn.idx_load_file] does. MNIST's images come out as a
 * [enum@Gnn.Dtype.UINT8] tensor of shape (N, 28, 28), its labels as a
 * [enum@Gnn.Dtype.UINT8] tensor of shape (N).
 *
 * Returns: (transfer full): a new tensor, or %NULL with @error set
 */
GnnTensor *
gnn_idx_load (const char  *path,
              GError     **error)
{
  g_autoptr(GFile) file = NULL;

  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  file = g_file_new_for_path (path);
  return gnn_idx_load_file (file, NULL, error);
}
