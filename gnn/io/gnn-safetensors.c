/* gnn-safetensors.c: reading and writing state dicts in the safetensors format
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The format (https://github.com/huggingface/safetensors): an unsigned little-endian 64-bit
 * header length N, N bytes of JSON, then the tensors' bytes. The JSON object maps each name
 * to {"dtype": "F32", "shape": [2, 3], "data_offsets": [begin, end]} (offsets into the data
 * that follows the header), plus an optional "__metadata__" object of strings. Tensors are
 * little-endian, row-major, and cover the data exactly, without holes or overlaps.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>

#include "core/gnn-tensor-private.h"
#include "nn/gnn-module-private.h"
#include "io/gnn-module-json-private.h"
#include "io/gnn-json-scan-private.h"

#if G_BYTE_ORDER != G_LITTLE_ENDIAN
#error "gnn's safetensors support assumes a little-endian machine"
#endif

static const struct {
  const char *name;
  GnnDtype dtype;
} dtype_names[] = {
  { "F32", GNN_DTYPE_FLOAT32 },
  { "F64", GNN_DTYPE_FLOAT64 },
  { "I64", GNN_DTYPE_INT64 },
  { "BOOL", GNN_DTYPE_BOOL },
  { "U8", GNN_DTYPE_UINT8 },
  { "F16", GNN_DTYPE_FLOAT16 },
  { "BF16", GNN_DTYPE_BFLOAT16 },
  { "I32", GNN_DTYPE_INT32 },
  { "I16", GNN_DTYPE_INT16 },
  { "I8", GNN_DTYPE_INT8 },
};

static const char *
dtype_to_name (GnnDtype dtype)
{
  for (guint i = 0; i < G_N_ELEMENTS (dtype_names); i++)
    if (dtype_names[i].dtype == dtype)
      return dtype_names[i].name;
  return NULL;
}

static gboolean
dtype_from_name (const char *name,
                 GnnDtype   *dtype)
{
  for (guint i = 0; i < G_N_ELEMENTS (dtype_names); i++)
    if (strcmp (dtype_names[i].name, name) == 0)
      {
        *dtype = dtype_names[i].dtype;
        return TRUE;
      }
  return FALSE;
}

/* ---- writing ------------------------------------------------------------------------ */

typedef struct {
  char *key;
  GBytes *data;   /* contiguous host bytes */
} Item;

static void
item_clear (gpointer data)
{
  Item *it = data;

  g_free (it->key);
  g_clear_pointer (&it->data, g_bytes_unref);
}

/* the tensors of @state as host bytes, and the header that describes them */
static gboolean
prepare (GnnStateDict  *state,
         GHashTable    *metadata,
         GArray       **items_out,
         char         **header_out,
         gsize         *header_len,
         GError       **error)
{
  g_auto(GStrv) keys = gnn_state_dict_get_keys (state);
  g_autoptr(GArray) items = g_array_new (FALSE, TRUE, sizeof (Item));
  g_autoptr(JsonBuilder) b = json_builder_new ();
  g_autoptr(JsonGenerator) gen = json_generator_new ();
  g_autoptr(JsonNode) root = NULL;
  gsize offset = 0, len, padded;
  char *json;

  g_array_set_clear_func (items, item_clear);
  json_builder_begin_object (b);
  if (metadata != NULL && g_hash_table_size (metadata) > 0)
    {
      g_autoptr(GList) names = g_list_sort (g_hash_table_get_keys (metadata), (GCompareFunc) strcmp);

      json_builder_set_member_name (b, "__metadata__");
      json_builder_begin_object (b);
      for (GList *l = names; l; l = l->next)
        {
          json_builder_set_member_name (b, l->data);
          json_builder_add_string_value (b, g_hash_table_lookup (metadata, l->data));
        }
      json_builder_end_object (b);
    }
  for (guint k = 0; keys[k]; k++)
    {
      g_autoptr(GError) local = NULL;
      GnnTensor *t;
      Item it = { 0, };
      const gint64 *shape;
      guint ndim;
      const char *dtype_name;

      if (strcmp (keys[k], "__metadata__") == 0)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                       "\"__metadata__\" is reserved by the safetensors format and cannot name a tensor");
          return FALSE;
        }
      t = gnn_state_dict_get_tensor (state, keys[k], &local);
      if (t == NULL)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                       "\"%s\" is not a tensor: a safetensors file holds tensors only (keep other "
                       "values in the metadata)", keys[k]);
          return FALSE;
        }
      dtype_name = dtype_to_name (gnn_tensor_get_dtype (t));
      if (dtype_name == NULL)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE, "\"%s\": dtype %s has no safetensors name",
                       keys[k], gnn_dtype_get_name (gnn_tensor_get_dtype (t)));
          return FALSE;
        }
      it.data = gnn_tensor_get_bytes (t, error);
      if (it.data == NULL)
        {
          g_prefix_error (error, "\"%s\": ", keys[k]);
          return FALSE;
        }
      it.key = g_strdup (keys[k]);
      len = g_bytes_get_size (it.data);
      g_array_append_val (items, it);

      shape = gnn_tensor_get_shape (t, &ndim);
      json_builder_set_member_name (b, keys[k]);
      json_builder_begin_object (b);
      json_builder_set_member_name (b, "dtype");
      json_builder_add_string_value (b, dtype_name);
      json_builder_set_member_name (b, "shape");
      json_builder_begin_array (b);
      for (guint d = 0; d < ndim; d++)
        json_builder_add_int_value (b, shape[d]);
      json_builder_end_array (b);
      json_builder_set_member_name (b, "data_offsets");
      json_builder_begin_array (b);
      json_builder_add_int_value (b, offset);
      json_builder_add_int_value (b, offset + len);
      json_builder_end_array (b);
      json_builder_end_object (b);
      offset += len;
    }
  json_builder_end_object (b);
  root = json_builder_get_root (b);
  json_generator_set_root (gen, root);
  json = json_generator_to_data (gen, &len);
  /* pad with spaces so the data starts 8-byte aligned, as the reference writer does */
  padded = (len + 7) & ~(gsize) 7;
  json = g_realloc (json, padded + 1);
  memset (json + len, ' ', padded - len);
  json[padded] = '\0';
  *header_out = json;
  *header_len = padded;
  *items_out = g_steal_pointer (&items);
  return TRUE;
}

/**
 * gnn_safetensors_save_to_bytes:
 * @state: the tensors to save, in the order they are written
 * @metadata: (nullable) (element-type utf8 utf8): text to store under `__metadata__`
 * @error: return location for a #GError
 *
 * Writes @state in the safetensors format into memory. Every value of @state must be a
 * tensor of a dtype the format names (F32, F64, I64, BOOL, U8, F16, BF16); tensors on any
 * device are copied to the host.
 *
 * Returns: (transfer full): the file's bytes, or %NULL with @error set
 */
GBytes *
gnn_safetensors_save_to_bytes (GnnStateDict *state,
                               GHashTable   *metadata,
                               GError      **error)
{
  g_autoptr(GArray) items = NULL;
  g_autofree char *header = NULL;
  gsize header_len, total;
  guint64 n;
  char *buf, *p;

  g_return_val_if_fail (GNN_IS_STATE_DICT (state), NULL);
  if (!prepare (state, metadata, &items, &header, &header_len, error))
    return NULL;
  total = 8 + header_len;
  for (guint i = 0; i < items->len; i++)
    total += g_bytes_get_size (g_array_index (items, Item, i).data);
  buf = g_malloc (total);
  n = GUINT64_TO_LE ((guint64) header_len);
  memcpy (buf, &n, 8);
  memcpy (buf + 8, header, header_len);
  p = buf + 8 + header_len;
  for (guint i = 0; i < items->len; i++)
    {
      gsize len;
      gconstpointer d = g_bytes_get_data (g_array_index (items, Item, i).data, &len);

      if (len)
        memcpy (p, d, len);
      p += len;
    }
  return g_bytes_new_take (buf, total);
}

static gboolean
write_all (int            fd,
           gconstpointer  data,
           gsize          len,
           const char    *path,
           GError       **error)
{
  const char *p = data;

  while (len > 0)
    {
      gssize w = write (fd, p, MIN (len, (gsize) 1 << 30));

      if (w < 0 && errno == EINTR)
        continue;
      if (w <= 0)
        {
          int e = errno;
          g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (e),
                       "Could not write %s: %s", path, g_strerror (e));
          return FALSE;
        }
      p += w;
      len -= w;
    }
  return TRUE;
}

/* The temporary file a save of @path writes first, in the same directory (a rename is only
 * atomic within one file system): ".NAME.XXXXXX.partial". A process killed while saving cannot
 * remove it; hidden, and ending in ".partial" rather than NAME's own suffix, it is never
 * taken for the file itself nor matched by a pattern such as "*.safetensors". */
static char *
temp_path_for (const char *path)
{
  g_autofree char *dir = g_path_get_dirname (path);
  g_autofree char *base = g_path_get_basename (path);
  g_autofree char *name = g_strdup_printf (".%s.XXXXXX.partial", base);

  return g_build_filename (dir, name, NULL);
}

/* makes the rename itself durable; failures are not the caller's: the data is written */
static void
sync_directory_of (const char *path)
{
  g_autofree char *dir = g_path_get_dirname (path);
  int fd = open (dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

  if (fd >= 0)
    {
      (void) fsync (fd);
      close (fd);
    }
}

/**
 * gnn_safetensors_save:
 * @state: the tensors to save, in the order they are written
 * @metadata: (nullable) (element-type utf8 utf8): text to store under `__metadata__`
 * @path: (type filename): the file to write
 * @error: return location for a #GError
 *
 * Writes @state to @path in the safetensors format (`safetensors.torch.save_file`), as
 * [func@Gnn.safetensors_save_to_bytes] describes. The file is written atomically: the data
 * goes to a temporary file beside @path, which is flushed to disk and then renamed over
 * @path, so a failed or interrupted save leaves any previous file whole.
 *
 * The temporary file is named `.NAME.XXXXXX.partial` (NAME being the last component of
 * @path, XXXXXX six random characters), in the directory of @path. A failed save removes
 * it; a process killed while saving cannot, and leaves it behind: hidden, and ending in
 * `.partial` rather than in the name's own suffix, it cannot be mistaken for the file (nor
 * for any `*.safetensors` file), and can be deleted.
 *
 * Returns: %TRUE on success; %FALSE with @error set (a #GFileError for the file system)
 */
gboolean
gnn_safetensors_save (GnnStateDict *state,
                      GHashTable   *metadata,
                      const char   *path,
                      GError      **error)
{
  g_autoptr(GArray) items = NULL;
  g_autofree char *header = NULL;
  g_autofree char *tmp = NULL;
  gsize header_len;
  guint64 n;
  int fd;
  gboolean ok;

  g_return_val_if_fail (GNN_IS_STATE_DICT (state), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);
  if (!prepare (state, metadata, &items, &header, &header_len, error))
    return FALSE;

  tmp = temp_path_for (path);
  fd = g_mkstemp_full (tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0)
    {
      int e = errno;
      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (e),
                   "Could not create a temporary file beside %s: %s", path, g_strerror (e));
      return FALSE;
    }
  n = GUINT64_TO_LE ((guint64) header_len);
  ok = write_all (fd, &n, 8, path, error) && write_all (fd, header, header_len, path, error);
  for (guint i = 0; ok && i < items->len; i++)
    {
      gsize len;
      gconstpointer d = g_bytes_get_data (g_array_index (items, Item, i).data, &len);

      ok = write_all (fd, d, len, path, error);
    }
  if (ok && fsync (fd) != 0)
    {
      int e = errno;
      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (e),
                   "Could not flush %s to disk: %s", path, g_strerror (e));
      ok = FALSE;
    }
  if (close (fd) != 0 && ok)
    {
      int e = errno;
      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (e),
                   "Could not write %s: %s", path, g_strerror (e));
      ok = FALSE;
    }
  if (ok && g_rename (tmp, path) != 0)
    {
      int e = errno;
      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (e),
                   "Could not rename %s to %s: %s", tmp, path, g_strerror (e));
      ok = FALSE;
    }
  if (!ok)
    g_unlink (tmp);
  else
    sync_directory_of (path);
  return ok;
}

/* ---- reading ------------------------------------------------------------------------ */

#define format_error(error, ...) \
  gnn_file_format_error (error, "Not a valid safetensors file", "", __VA_ARGS__)

typedef struct {
  const char *key;
  GnnDtype dtype;
  guint ndim;
  gint64 shape[GNN_MAX_DIMS];
  guint64 begin, end;
} Entry;

static int
compare_entries (gconstpointer a,
                 gconstpointer b)
{
  const Entry *x = a, *y = b;

  return x->begin < y->begin ? -1 : x->begin > y->begin ? 1 : (x->end > y->end) - (x->end < y->end);
}

static gboolean
read_int (JsonNode   *node,
          gint64     *out)
{
  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_INT64)
    return FALSE;
  *out = json_node_get_int (node);
  return TRUE;
}

static gboolean
parse_entry (const char *key,
             JsonNode   *node,
             guint64     data_size,
             Entry      *e,
             GError    **error)
{
  JsonObject *obj;
  JsonNode *dtype, *shape, *offsets;
  JsonArray *arr;
  gint64 b, en;
  guint64 numel = 1;

  if (!JSON_NODE_HOLDS_OBJECT (node))
    return format_error (error, "the entry of \"%s\" is not an object", key);
  obj = json_node_get_object (node);
  dtype = json_object_get_member (obj, "dtype");
  shape = json_object_get_member (obj, "shape");
  offsets = json_object_get_member (obj, "data_offsets");
  if (dtype == NULL || shape == NULL || offsets == NULL || json_object_get_size (obj) != 3)
    return format_error (error, "the entry of \"%s\" must have exactly the members dtype, shape "
                         "and data_offsets", key);
  if (!JSON_NODE_HOLDS_VALUE (dtype) || json_node_get_value_type (dtype) != G_TYPE_STRING)
    return format_error (error, "the dtype of \"%s\" is not a string", key);
  e->key = key;
  if (!dtype_from_name (json_node_get_string (dtype), &e->dtype))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE,
                   "\"%s\" has dtype \"%s\", which gnn cannot load (expected one of F32, F64, I64, "
                   "BOOL, U8, F16, BF16)", key, json_node_get_string (dtype));
      return FALSE;
    }
  if (!JSON_NODE_HOLDS_ARRAY (shape))
    return format_error (error, "the shape of \"%s\" is not an array", key);
  arr = json_node_get_array (shape);
  if (json_array_get_length (arr) > GNN_MAX_DIMS)
    return format_error (error, "\"%s\" has %u dimensions, gnn allows at most %d", key,
                         json_array_get_length (arr), GNN_MAX_DIMS);
  e->ndim = json_array_get_length (arr);
  for (guint d = 0; d < e->ndim; d++)
    {
      gint64 s;

      if (!read_int (json_array_get_element (arr, d), &s) || s < 0 || s > ((gint64) 1 << 48))
        return format_error (error, "dimension %u of the shape of \"%s\" is not a size", d, key);
      e->shape[d] = s;
      if (s != 0 && numel > G_MAXUINT64 / (guint64) s)
        return format_error (error, "the shape of \"%s\" overflows", key);
      numel *= (guint64) s;
    }
  if (!JSON_NODE_HOLDS_ARRAY (offsets) || json_array_get_length (json_node_get_array (offsets)) != 2 ||
      !read_int (json_array_get_element (json_node_get_array (offsets), 0), &b) ||
      !read_int (json_array_get_element (json_node_get_array (offsets), 1), &en))
    return format_error (error, "the data_offsets of \"%s\" are not two integers", key);
  if (b < 0 || en < b || (guint64) en > data_size)
    return format_error (error, "the data_offsets [%" G_GINT64_FORMAT ", %" G_GINT64_FORMAT "] of "
                         "\"%s\" lie outside the %" G_GUINT64_FORMAT " bytes of data", b, en, key, data_size);
  e->begin = b;
  e->end = en;
  if (numel > G_MAXUINT64 / gnn_dtype_get_size (e->dtype) ||
      numel * gnn_dtype_get_size (e->dtype) != e->end - e->begin)
    return format_error (error, "\"%s\" (%s, %" G_GUINT64_FORMAT " elements) needs %" G_GUINT64_FORMAT
                         " bytes, its data_offsets give %" G_GUINT64_FORMAT, key,
                         json_node_get_string (dtype), numel, numel * gnn_dtype_get_size (e->dtype),
                         e->end - e->begin);
  return TRUE;
}

/* What torch.save writes, told apart from safetensors (whose header length comes first, then
 * '{'): a zip archive (torch.save's format since 1.6) or a pickle stream (0x80, then the
 * protocol, 2 to 5: the legacy format); NULL for anything else */
static const char *
torch_pickle_kind (const guint8 *data,
                   gsize         size)
{
  if (size >= 4 && memcmp (data, "PK\003\004", 4) == 0)
    return "a zip archive, as torch.save writes its pickles";
  if (size >= 2 && data[0] == 0x80 && data[1] >= 2 && data[1] <= 5)
    return "a pickle stream, as torch.save writes with _use_new_zipfile_serialization=False";
  return NULL;
}

/**
 * gnn_safetensors_load_from_bytes:
 * @bytes: the contents of a safetensors file
 * @metadata: (out) (optional) (nullable) (transfer full) (element-type utf8 utf8): the
 *   file's `__metadata__`, or %NULL when it has none
 * @error: return location for a #GError
 *
 * Reads a safetensors file from memory. The tensors share the memory of @bytes where it is
 * suitably aligned (no copy), which in-place operations then write: give bytes that may be
 * written, or use [func@Gnn.safetensors_load], which maps the file privately.
 *
 * Every inconsistency is refused: a truncated file, a header longer than
 * %GNN_SAFETENSORS_MAX_HEADER or than the file, a header that is not strict JSON (RFC 8259:
 * no comments) or nests arrays and objects more than 128 deep (serde_json's bound, which the
 * format's reference reader applies; checked before parsing), a tensor name or metadata key
 * that comes twice, JSON that is not an object of valid entries, an unknown dtype, offsets outside the data, a size that does not match the
 * shape, tensors that overlap or leave holes in the data. What `torch.save` writes (a zip
 * archive, or a legacy pickle stream) is named as such in the error, with how to convert it:
 * gnn never unpickles.
 *
 * Returns: (transfer full): the tensors, in the order of their data in the file, or %NULL
 *   with @error set (%GNN_ERROR_FILE_FORMAT, or %GNN_ERROR_DTYPE for an unknown dtype)
 */
GnnStateDict *
gnn_safetensors_load_from_bytes (GBytes      *bytes,
                                 GHashTable **metadata,
                                 GError     **error)
{
  gsize size;
  const guint8 *data;
  guint64 header_len, data_size, expected;
  g_autoptr(JsonParser) parser = NULL;
  g_autoptr(GError) json_error = NULL;
  g_autoptr(GArray) entries = NULL;
  g_autoptr(GHashTable) meta = NULL;
  g_autoptr(GnnStateDict) state = NULL;
  g_autoptr(GBytes) payload = NULL;
  JsonNode *root;
  JsonObject *obj;
  JsonObjectIter iter;
  const char *name;
  JsonNode *node;

  g_return_val_if_fail (bytes != NULL, NULL);
  if (metadata)
    *metadata = NULL;
  data = g_bytes_get_data (bytes, &size);
  if (size < 8)
    return format_error (error, "%" G_GSIZE_FORMAT " bytes, too short for the 8-byte header length",
                         size), NULL;
  memcpy (&header_len, data, 8);
  header_len = GUINT64_FROM_LE (header_len);
  if (!(header_len <= size - 8 && size > 8 && data[8] == '{'))
    {
      const char *pickle = torch_pickle_kind (data, size);

      if (pickle != NULL)
        return format_error (error, "this is %s; gnn reads safetensors files and never unpickles: "
                             "convert it once where PyTorch is installed, with "
                             "safetensors.torch.save_file (torch.load (path, map_location='cpu'), "
                             "'model.safetensors') or gnn.save in place of save_file in Python",
                             pickle), NULL;
    }
  if (header_len > GNN_SAFETENSORS_MAX_HEADER)
    return format_error (error, "the header declares %" G_GUINT64_FORMAT " bytes, more than the "
                         "%d allowed", header_len, GNN_SAFETENSORS_MAX_HEADER), NULL;
  if (header_len > size - 8)
    return format_error (error, "truncated: the header declares %" G_GUINT64_FORMAT " bytes, the "
                         "file has %" G_GSIZE_FORMAT " after the length", header_len, size - 8), NULL;
  if (header_len < 2 || data[8] != '{')
    return format_error (error, "the header does not start with '{'"), NULL;
  if (memchr (data + 8, '\0', header_len) != NULL ||
      !g_utf8_validate ((const char *) data + 8, header_len, NULL))
    return format_error (error, "the header is not UTF-8 text"), NULL;

  if (!gnn_json_scan ((const char *) data + 8, header_len, GNN_SAFETENSORS_JSON_MAX_DEPTH,
                      "Not a valid safetensors file: the header", error))
    return NULL;
  parser = json_parser_new_immutable ();
  if (!json_parser_load_from_data (parser, (const char *) data + 8, header_len, &json_error))
    return format_error (error, "the header is not JSON: %s", json_error->message), NULL;
  root = json_parser_get_root (parser);
  if (root == NULL || !JSON_NODE_HOLDS_OBJECT (root))
    return format_error (error, "the header is not a JSON object"), NULL;
  obj = json_node_get_object (root);

  data_size = size - 8 - header_len;
  entries = g_array_new (FALSE, TRUE, sizeof (Entry));
  json_object_iter_init (&iter, obj);
  while (json_object_iter_next (&iter, &name, &node))
    {
      Entry e = { 0, };

      if (strcmp (name, "__metadata__") == 0)
        {
          JsonObjectIter mi;
          const char *mk;
          JsonNode *mv;

          if (!JSON_NODE_HOLDS_OBJECT (node))
            return format_error (error, "__metadata__ is not an object"), NULL;
          meta = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
          json_object_iter_init (&mi, json_node_get_object (node));
          while (json_object_iter_next (&mi, &mk, &mv))
            {
              if (!JSON_NODE_HOLDS_VALUE (mv) || json_node_get_value_type (mv) != G_TYPE_STRING)
                return format_error (error, "__metadata__ value \"%s\" is not a string", mk), NULL;
              g_hash_table_insert (meta, g_strdup (mk), g_strdup (json_node_get_string (mv)));
            }
          continue;
        }
      if (!parse_entry (name, node, data_size, &e, error))
        return NULL;
      g_array_append_val (entries, e);
    }

  /* the tensors must tile the data exactly */
  g_array_sort (entries, compare_entries);
  expected = 0;
  for (guint i = 0; i < entries->len; i++)
    {
      Entry *e = &g_array_index (entries, Entry, i);

      if (e->begin != expected)
        return format_error (error, "\"%s\" starts at byte %" G_GUINT64_FORMAT " of the data, expected %"
                             G_GUINT64_FORMAT " (tensors overlap or leave a hole)", e->key, e->begin,
                             expected), NULL;
      expected = e->end;
    }
  if (expected != data_size)
    return format_error (error, "the tensors cover %" G_GUINT64_FORMAT " bytes of data, the file has %"
                         G_GUINT64_FORMAT, expected, data_size), NULL;

  payload = g_bytes_new_from_bytes (bytes, 8 + header_len, data_size);
  state = gnn_state_dict_new ();
  for (guint i = 0; i < entries->len; i++)
    {
      Entry *e = &g_array_index (entries, Entry, i);
      g_autoptr(GBytes) part = g_bytes_new_from_bytes (payload, e->begin, e->end - e->begin);
      g_autoptr(GnnTensor) t = gnn_tensor_new_wrap_bytes (part, e->dtype, e->ndim, e->shape, error);

      if (t == NULL)
        {
          g_prefix_error (error, "\"%s\": ", e->key);
          return NULL;
        }
      gnn_state_dict_set_tensor (state, e->key, t);
    }
  if (metadata)
    *metadata = g_steal_pointer (&meta);
  return g_steal_pointer (&state);
}

/**
 * gnn_safetensors_load:
 * @path: (type filename): the file to read
 * @metadata: (out) (optional) (nullable) (transfer full) (element-type utf8 utf8): the
 *   file's `__metadata__`, or %NULL when it has none
 * @error: return location for a #GError
 *
 * Reads a safetensors file (`safetensors.torch.load_file`), checked as
 * [func@Gnn.safetensors_load_from_bytes] describes. The file is mapped privately rather
 * than read: tensors use the mapped pages until they are written (copy on write), and the
 * file on disk never changes.
 *
 * Returns: (transfer full): the tensors, or %NULL with @error set (a #GFileError when the
 *   file cannot be opened)
 */
GnnStateDict *
gnn_safetensors_load (const char  *path,
                      GHashTable **metadata,
                      GError     **error)
{
  g_autoptr(GMappedFile) file = NULL;
  g_autoptr(GBytes) bytes = NULL;
  GnnStateDict *state;

  g_return_val_if_fail (path != NULL, NULL);
  if (metadata)
    *metadata = NULL;
  file = g_mapped_file_new (path, TRUE, error);
  if (file == NULL)
    return NULL;
  bytes = g_mapped_file_get_bytes (file);
  state = gnn_safetensors_load_from_bytes (bytes, metadata, error);
  if (state == NULL)
    g_prefix_error (error, "%s: ", path);
  return state;
}
