/* gnn-graph-json.c: a GnnGraph as JSON text, and back
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>
#include <json-glib/json-glib.h>

#include "core/gnn-error.h"
#include "core/gnn-tensor.h"
#include "gnn-enum-types.h"
#include "gnn-module-json-private.h"
#include "gnn-graph-json.h"

#define GRAPH_JSON_FORMAT "gnn.graph"
#define GRAPH_JSON_VERSION 1

/* a GNN_ERROR_FILE_FORMAT error naming the place in the JSON: "graph JSON at node 'add': ..." */
#define fail(error, where, ...) gnn_file_format_error (error, "graph JSON at ", where, __VA_ARGS__)

/* ---- writing ---------------------------------------------------------------------------- */

static gboolean
write_error (GError      **error,
             GnnGraphNode *node,
             const char   *format,
             ...) G_GNUC_PRINTF (3, 4);

static gboolean
write_error (GError      **error,
             GnnGraphNode *node,
             const char   *format,
             ...)
{
  va_list args;
  g_autofree char *msg = NULL;

  va_start (args, format);
  msg = g_strdup_vprintf (format, args);
  va_end (args);
  g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT, "graph JSON: node '%s': %s",
               gnn_graph_node_get_name (node), msg);
  return FALSE;
}

static gboolean
write_value (JsonBuilder  *b,
             const GValue *v,
             GnnGraphNode *node,
             guint         depth,
             GError      **error)
{
  GType type = G_VALUE_TYPE (v);

  if (G_VALUE_HOLDS (v, GNN_TYPE_GRAPH_NODE) && g_value_get_object (v) != NULL)
    {
      json_builder_begin_object (b);
      json_builder_set_member_name (b, "node");
      json_builder_add_string_value (b, gnn_graph_node_get_name (g_value_get_object (v)));
      json_builder_end_object (b);
    }
  else if (G_VALUE_HOLDS (v, GNN_TYPE_ARGS) && g_value_get_object (v) != NULL)
    {
      GnnArgs *a = g_value_get_object (v);
      g_auto(GStrv) names = gnn_args_get_kwarg_names (a);

      if (depth >= GNN_GRAPH_JSON_MAX_ARGS_DEPTH)
        return write_error (error, node, "its arguments nest tuples deeper than %u levels (expected "
                            "at most %u)", GNN_GRAPH_JSON_MAX_ARGS_DEPTH, GNN_GRAPH_JSON_MAX_ARGS_DEPTH);
      if (names[0] != NULL)
        return write_error (error, node, "a nested argument tuple holds the keyword value '%s' "
                            "(expected positional values only: a tuple has no keywords)", names[0]);
      json_builder_begin_object (b);
      json_builder_set_member_name (b, "tuple");
      json_builder_begin_array (b);
      for (guint i = 0; i < gnn_args_get_n_values (a); i++)
        if (!write_value (b, gnn_args_get_value (a, i), node, depth + 1, error))
          return FALSE;
      json_builder_end_array (b);
      json_builder_end_object (b);
    }
  else if (G_VALUE_HOLDS_OBJECT (v) && g_value_get_object (v) == NULL)
    json_builder_add_null_value (b);
  else if (type == G_TYPE_BOOLEAN)
    json_builder_add_boolean_value (b, g_value_get_boolean (v));
  else if (type == G_TYPE_INT64)
    json_builder_add_int_value (b, g_value_get_int64 (v));
  else if (type == G_TYPE_INT)
    json_builder_add_int_value (b, g_value_get_int (v));
  else if (type == G_TYPE_UINT)
    json_builder_add_int_value (b, g_value_get_uint (v));
  else if (type == G_TYPE_LONG)
    json_builder_add_int_value (b, g_value_get_long (v));
  else if (type == G_TYPE_UINT64 || type == G_TYPE_ULONG)
    {
      guint64 u = type == G_TYPE_UINT64 ? g_value_get_uint64 (v) : g_value_get_ulong (v);

      if (u > G_MAXINT64)
        return write_error (error, node, "the integer %" G_GUINT64_FORMAT " has no JSON form "
                            "(expected at most %" G_GINT64_FORMAT ")", u, G_MAXINT64);
      json_builder_add_int_value (b, (gint64) u);
    }
  else if (type == G_TYPE_DOUBLE || type == G_TYPE_FLOAT)
    {
      double d = type == G_TYPE_DOUBLE ? g_value_get_double (v) : g_value_get_float (v);

      if (isfinite (d))
        json_builder_add_double_value (b, d);
      else
        {
          /* JSON has no infinities or NaN */
          json_builder_begin_object (b);
          json_builder_set_member_name (b, "float");
          json_builder_add_string_value (b, isnan (d) ? "nan" : d > 0 ? "inf" : "-inf");
          json_builder_end_object (b);
        }
    }
  else if (type == G_TYPE_STRING)
    {
      if (g_value_get_string (v) == NULL)
        json_builder_add_null_value (b);
      else
        json_builder_add_string_value (b, g_value_get_string (v));
    }
  else if (G_VALUE_HOLDS_ENUM (v))
    {
      g_autoptr(GEnumClass) klass = g_type_class_ref (type);
      GEnumValue *e = g_enum_get_value (klass, g_value_get_enum (v));

      if (e == NULL)
        return write_error (error, node, "%d is no value of %s", g_value_get_enum (v), g_type_name (type));
      json_builder_begin_object (b);
      json_builder_set_member_name (b, "enum");
      json_builder_add_string_value (b, g_type_name (type));
      json_builder_set_member_name (b, "value");
      json_builder_add_string_value (b, e->value_nick);
      json_builder_end_object (b);
    }
  else
    return write_error (error, node, "an argument of type %s has no JSON form (expected a node, a "
                        "tuple, None, a boolean, an integer, a float, a string or an enum; a tensor "
                        "belongs in a get_attr node)", g_type_name (type));
  return TRUE;
}

static gboolean
write_args (JsonBuilder  *b,
            GnnArgs      *args,
            GnnGraphNode *node,
            GError      **error)
{
  g_auto(GStrv) names = gnn_args_get_kwarg_names (args);

  json_builder_set_member_name (b, "args");
  json_builder_begin_array (b);
  for (guint i = 0; i < gnn_args_get_n_values (args); i++)
    if (!write_value (b, gnn_args_get_value (args, i), node, 0, error))
      return FALSE;
  json_builder_end_array (b);
  json_builder_set_member_name (b, "kwargs");
  json_builder_begin_object (b);
  for (guint i = 0; names[i] != NULL; i++)
    {
      json_builder_set_member_name (b, names[i]);
      if (!write_value (b, gnn_args_get_kwarg (args, names[i]), node, 0, error))
        return FALSE;
    }
  json_builder_end_object (b);
  return TRUE;
}

/**
 * gnn_graph_to_json:
 * @self: a graph
 * @pretty: whether to indent the text
 * @error: return location for a #GError
 *
 * The graph as JSON text, which [ctor@Gnn.Graph.new_from_json] reads back:
 * `{"format": "gnn.graph", "version": 1, "nodes": [...]}`, one object a node in order, with
 * its `"name"`, `"op"` (torch.fx's string: `"placeholder"`, `"get_attr"`, `"call_function"`,
 * `"call_method"`, `"call_module"`, `"output"`), `"target"`, `"args"` (an array) and
 * `"kwargs"` (an object), and `"meta"` (`"shape"` and `"dtype"`) where
 * [method@Gnn.GraphNode.set_tensor_meta] recorded them.
 *
 * An argument is written as: a node's result `{"node": name}`, a tuple `{"tuple": [...]}`,
 * None (a %NULL object) `null`, a boolean, an integer or a string as itself, a float as a
 * number (an infinity or NaN as `{"float": "inf"}`, `"-inf"`, `"nan"`), an enum as
 * `{"enum": type name, "value": nick}`. Tensors are not written: a graph reaches them
 * through get_attr nodes, and their values belong in the state dict.
 *
 * The graph is linted first ([method@Gnn.Graph.lint]), so that what is written reads back.
 *
 * Returns: (transfer full): the text, or %NULL with @error set: the graph does not lint, or
 *   a node has an argument with no JSON form or tuples nested deeper than
 *   %GNN_GRAPH_JSON_MAX_ARGS_DEPTH (%GNN_ERROR_INVALID_ARGUMENT, naming the node)
 *
 * Since: 0.1
 */
char *
gnn_graph_to_json (GnnGraph *self,
                   gboolean  pretty,
                   GError  **error)
{
  g_autoptr(JsonBuilder) b = NULL;
  g_autoptr(JsonGenerator) gen = NULL;
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(GPtrArray) nodes = NULL;
  g_autoptr(GEnumClass) dtypes = NULL;

  g_return_val_if_fail (GNN_IS_GRAPH (self), NULL);

  if (!gnn_graph_lint (self, error))
    {
      g_prefix_error (error, "graph JSON: ");
      return NULL;
    }
  b = json_builder_new ();
  nodes = gnn_graph_get_nodes (self);
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "format");
  json_builder_add_string_value (b, GRAPH_JSON_FORMAT);
  json_builder_set_member_name (b, "version");
  json_builder_add_int_value (b, GRAPH_JSON_VERSION);
  json_builder_set_member_name (b, "nodes");
  json_builder_begin_array (b);
  for (guint i = 0; i < nodes->len; i++)
    {
      GnnGraphNode *node = nodes->pdata[i];
      const gint64 *shape;
      guint n_dims;
      GnnDtype dtype;

      json_builder_begin_object (b);
      json_builder_set_member_name (b, "name");
      json_builder_add_string_value (b, gnn_graph_node_get_name (node));
      json_builder_set_member_name (b, "op");
      json_builder_add_string_value (b, gnn_graph_node_get_op_name (node));
      json_builder_set_member_name (b, "target");
      json_builder_add_string_value (b, gnn_graph_node_get_target (node));
      if (!write_args (b, gnn_graph_node_get_args (node), node, error))
        return NULL;
      shape = gnn_graph_node_get_tensor_meta (node, &n_dims, &dtype);
      if (shape != NULL)
        {
          GEnumValue *e;

          if (dtypes == NULL)
            dtypes = g_type_class_ref (GNN_TYPE_DTYPE);
          e = g_enum_get_value (dtypes, dtype);

          json_builder_set_member_name (b, "meta");
          json_builder_begin_object (b);
          json_builder_set_member_name (b, "shape");
          json_builder_begin_array (b);
          for (guint d = 0; d < n_dims; d++)
            json_builder_add_int_value (b, shape[d]);
          json_builder_end_array (b);
          json_builder_set_member_name (b, "dtype");
          json_builder_add_string_value (b, e ? e->value_nick : "unknown");
          json_builder_end_object (b);
        }
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  json_builder_end_object (b);

  root = json_builder_get_root (b);
  gen = json_generator_new ();
  json_generator_set_pretty (gen, pretty);
  json_generator_set_root (gen, root);
  return json_generator_to_data (gen, NULL);
}

/* ---- reading ---------------------------------------------------------------------------- */

typedef struct {
  JsonArray *nodes;         /* the "nodes" array */
  GHashTable *index;        /* JSON name -> its index + 1 */
  GPtrArray *refs;          /* per node: a GArray of the indices of the nodes it uses */
  GPtrArray *built;         /* GnnGraphNode*, not owned, by index, while building */
} Reader;

static const char *
node_name (Reader *r,
           guint   i)
{
  return json_object_get_string_member (json_array_get_object_element (r->nodes, i), "name");
}

/* @jv as a GValue in @out (when not NULL), or FALSE with an error naming node @self; the
 * nodes it uses are recorded in r->refs (when @out is NULL: the first pass) */
static gboolean
read_value (Reader     *r,
            JsonNode   *jv,
            guint       self,
            const char *where,
            guint       depth,
            GValue     *out,
            GError    **error)
{
  if (JSON_NODE_HOLDS_NULL (jv))
    {
      if (out)
        {
          g_value_init (out, GNN_TYPE_TENSOR);   /* None, as the bindings pass it */
          g_value_set_object (out, NULL);
        }
      return TRUE;
    }
  if (JSON_NODE_HOLDS_VALUE (jv))
    {
      GType type = json_node_get_value_type (jv);

      if (out == NULL)
        return TRUE;
      g_value_init (out, type == G_TYPE_INT64 || type == G_TYPE_DOUBLE || type == G_TYPE_BOOLEAN ?
                    type : G_TYPE_STRING);
      if (type == G_TYPE_INT64)
        g_value_set_int64 (out, json_node_get_int (jv));
      else if (type == G_TYPE_DOUBLE)
        g_value_set_double (out, json_node_get_double (jv));
      else if (type == G_TYPE_BOOLEAN)
        g_value_set_boolean (out, json_node_get_boolean (jv));
      else
        g_value_set_string (out, json_node_get_string (jv));
      return TRUE;
    }
  if (JSON_NODE_HOLDS_OBJECT (jv))
    {
      JsonObject *o = json_node_get_object (jv);
      JsonNode *m;

      if (json_object_get_size (o) == 1 && (m = json_object_get_member (o, "node")) != NULL)
        {
          const char *name = JSON_NODE_HOLDS_VALUE (m) && json_node_get_value_type (m) == G_TYPE_STRING ?
                             json_node_get_string (m) : NULL;
          guint used;

          if (name == NULL)
            return fail (error, where, "\"node\" must be a node's name (a string)");
          used = GPOINTER_TO_UINT (g_hash_table_lookup (r->index, name));
          if (used == 0)
            return fail (error, where, "uses node '%s', which the graph does not have (a dangling "
                         "reference)", name);
          used--;
          if (out == NULL)
            {
              g_array_append_val (r->refs->pdata[self], used);
              return TRUE;
            }
          g_value_init (out, GNN_TYPE_GRAPH_NODE);
          g_value_set_object (out, r->built->pdata[used]);
          return TRUE;
        }
      if (json_object_get_size (o) == 1 && (m = json_object_get_member (o, "tuple")) != NULL)
        {
          JsonArray *items;
          g_autoptr(GnnArgs) tuple = NULL;

          if (!JSON_NODE_HOLDS_ARRAY (m))
            return fail (error, where, "\"tuple\" must be an array");
          if (depth >= GNN_GRAPH_JSON_MAX_ARGS_DEPTH)
            return fail (error, where, "its arguments nest tuples deeper than %u levels (expected at "
                         "most %u)", GNN_GRAPH_JSON_MAX_ARGS_DEPTH, GNN_GRAPH_JSON_MAX_ARGS_DEPTH);
          items = json_node_get_array (m);
          tuple = out ? gnn_args_new () : NULL;
          for (guint i = 0; i < json_array_get_length (items); i++)
            {
              g_auto(GValue) item = G_VALUE_INIT;

              if (!read_value (r, json_array_get_element (items, i), self, where, depth + 1,
                               out ? &item : NULL, error))
                return FALSE;
              if (tuple)
                gnn_args_add_value (tuple, &item);
            }
          if (out)
            {
              g_value_init (out, GNN_TYPE_ARGS);
              g_value_set_object (out, tuple);
            }
          return TRUE;
        }
      if (json_object_get_size (o) == 1 && (m = json_object_get_member (o, "float")) != NULL)
        {
          const char *s = JSON_NODE_HOLDS_VALUE (m) && json_node_get_value_type (m) == G_TYPE_STRING ?
                          json_node_get_string (m) : NULL;
          double d;

          if (s != NULL && strcmp (s, "inf") == 0)
            d = INFINITY;
          else if (s != NULL && strcmp (s, "-inf") == 0)
            d = -INFINITY;
          else if (s != NULL && strcmp (s, "nan") == 0)
            d = NAN;
          else
            return fail (error, where, "\"float\" must be \"inf\", \"-inf\" or \"nan\" (a finite "
                         "float is a plain number)");
          if (out)
            {
              g_value_init (out, G_TYPE_DOUBLE);
              g_value_set_double (out, d);
            }
          return TRUE;
        }
      if (json_object_get_size (o) == 2 && json_object_has_member (o, "enum") &&
          json_object_has_member (o, "value"))
        {
          JsonNode *tn = json_object_get_member (o, "enum"), *vn = json_object_get_member (o, "value");
          const char *tname = JSON_NODE_HOLDS_VALUE (tn) && json_node_get_value_type (tn) == G_TYPE_STRING ?
                              json_node_get_string (tn) : NULL;
          const char *nick = JSON_NODE_HOLDS_VALUE (vn) && json_node_get_value_type (vn) == G_TYPE_STRING ?
                             json_node_get_string (vn) : NULL;
          GType type = tname ? g_type_from_name (tname) : G_TYPE_INVALID;
          g_autoptr(GEnumClass) klass = NULL;
          GEnumValue *e;

          if (type == G_TYPE_INVALID || !G_TYPE_IS_ENUM (type) || G_TYPE_IS_ABSTRACT (type))
            return fail (error, where, "\"enum\" must name a registered enum type (found %s)",
                         tname ? tname : "no string");
          klass = g_type_class_ref (type);
          e = nick ? g_enum_get_value_by_nick (klass, nick) : NULL;
          if (e == NULL)
            return fail (error, where, "%s has no value '%s'", tname, nick ? nick : "(not a string)");
          if (out)
            {
              g_value_init (out, type);
              g_value_set_enum (out, e->value);
            }
          return TRUE;
        }
    }
  return fail (error, where, "an argument must be null, a boolean, a number, a string, "
               "{\"node\": name}, {\"tuple\": [...]}, {\"float\": \"inf\"} or {\"enum\": type, "
               "\"value\": nick} (found %s)", json_node_type_name (jv));
}

/* the node's "args" and "kwargs" as GnnArgs (when @out is not NULL) */
static gboolean
read_args (Reader      *r,
           JsonObject  *obj,
           guint        self,
           const char  *where,
           GnnArgs    **out,
           GError     **error)
{
  JsonNode *an = json_object_get_member (obj, "args"), *kn = json_object_get_member (obj, "kwargs");
  g_autoptr(GnnArgs) args = out ? gnn_args_new () : NULL;

  if (an != NULL)
    {
      JsonArray *a;

      if (!JSON_NODE_HOLDS_ARRAY (an))
        return fail (error, where, "\"args\" must be an array (found %s)", json_node_type_name (an));
      a = json_node_get_array (an);
      for (guint i = 0; i < json_array_get_length (a); i++)
        {
          g_auto(GValue) v = G_VALUE_INIT;

          if (!read_value (r, json_array_get_element (a, i), self, where, 0, out ? &v : NULL, error))
            return FALSE;
          if (args)
            gnn_args_add_value (args, &v);
        }
    }
  if (kn != NULL)
    {
      JsonObject *k;
      g_autoptr(GList) names = NULL;

      if (!JSON_NODE_HOLDS_OBJECT (kn))
        return fail (error, where, "\"kwargs\" must be an object (found %s)", json_node_type_name (kn));
      k = json_node_get_object (kn);
      names = json_object_get_members (k);
      for (GList *l = names; l != NULL; l = l->next)
        {
          g_auto(GValue) v = G_VALUE_INIT;

          if (!read_value (r, json_object_get_member (k, l->data), self, where, 0, out ? &v : NULL, error))
            return FALSE;
          if (args)
            gnn_args_set_kwarg (args, l->data, &v);
        }
    }
  if (out)
    *out = g_steal_pointer (&args);
  return TRUE;
}

/* whether node @to is reached from node @from through the nodes each uses */
static gboolean
reaches (Reader *r,
         guint   from,
         guint   to)
{
  guint n = json_array_get_length (r->nodes);
  g_autofree gboolean *seen = g_new0 (gboolean, n);
  g_autoptr(GArray) stack = g_array_new (FALSE, FALSE, sizeof (guint));

  g_array_append_val (stack, from);
  seen[from] = TRUE;
  while (stack->len > 0)
    {
      guint at = g_array_index (stack, guint, stack->len - 1);
      GArray *uses = r->refs->pdata[at];

      g_array_set_size (stack, stack->len - 1);
      if (at == to)
        return TRUE;
      for (guint i = 0; i < uses->len; i++)
        {
          guint next = g_array_index (uses, guint, i);

          if (!seen[next])
            {
              seen[next] = TRUE;
              g_array_append_val (stack, next);
            }
        }
    }
  return FALSE;
}

static gboolean
check_members (JsonObject  *obj,
               const char  *where,
               const char **allowed,
               GError     **error)
{
  g_autoptr(GList) names = json_object_get_members (obj);

  for (GList *l = names; l != NULL; l = l->next)
    if (!g_strv_contains (allowed, l->data))
      {
        g_autofree char *list = g_strjoinv (", ", (char **) allowed);
        return fail (error, where, "unknown member '%s' (expected %s)", (const char *) l->data, list);
      }
  return TRUE;
}

static const char *
string_member (JsonObject *obj,
               const char *name)
{
  JsonNode *m = json_object_get_member (obj, name);

  return m && JSON_NODE_HOLDS_VALUE (m) && json_node_get_value_type (m) == G_TYPE_STRING ?
         json_node_get_string (m) : NULL;
}

static gboolean
read_meta (JsonNode     *mn,
           GnnGraphNode *node,
           const char   *where,
           GError      **error)
{
  static const char *allowed[] = { "shape", "dtype", NULL };
  JsonObject *m;
  JsonNode *sn;
  JsonArray *sa;
  const char *dname;
  g_autoptr(GEnumClass) klass = NULL;
  GEnumValue *e;
  g_autofree gint64 *shape = NULL;
  guint n;

  if (!JSON_NODE_HOLDS_OBJECT (mn))
    return fail (error, where, "\"meta\" must be an object (found %s)", json_node_type_name (mn));
  m = json_node_get_object (mn);
  if (!check_members (m, where, allowed, error))
    return FALSE;
  sn = json_object_get_member (m, "shape");
  if (sn == NULL || !JSON_NODE_HOLDS_ARRAY (sn))
    return fail (error, where, "\"meta\" needs a \"shape\" array");
  sa = json_node_get_array (sn);
  n = json_array_get_length (sa);
  if (n > 64)
    return fail (error, where, "a shape of %u dimensions (expected at most 64)", n);
  shape = g_new0 (gint64, MAX (n, 1));
  for (guint d = 0; d < n; d++)
    {
      JsonNode *dn = json_array_get_element (sa, d);

      if (!JSON_NODE_HOLDS_VALUE (dn) || json_node_get_value_type (dn) != G_TYPE_INT64 ||
          json_node_get_int (dn) < 0)
        return fail (error, where, "dimension %u of the shape must be an integer >= 0", d);
      shape[d] = json_node_get_int (dn);
    }
  dname = string_member (m, "dtype");
  klass = g_type_class_ref (GNN_TYPE_DTYPE);
  e = dname ? g_enum_get_value_by_nick (klass, dname) : NULL;
  if (e == NULL)
    return fail (error, where, "\"dtype\" must name a dtype (found %s)", dname ? dname : "none");
  gnn_graph_node_set_tensor_meta (node, shape, n, e->value);
  return TRUE;
}

static GnnGraph *
read_graph (Reader    *r,
            JsonNode  *root,
            GError   **error)
{
  static const char *top_allowed[] = { "format", "version", "nodes", NULL };
  static const char *node_allowed[] = { "name", "op", "target", "args", "kwargs", "meta", NULL };
  JsonObject *top;
  JsonNode *vn, *nn;
  const char *format;
  g_autoptr(GnnGraph) graph = NULL;
  g_autoptr(GEnumClass) ops = g_type_class_ref (GNN_TYPE_GRAPH_OP);
  guint n;

  if (!JSON_NODE_HOLDS_OBJECT (root))
    return fail (error, "$", "expected an object, found %s", json_node_type_name (root)), NULL;
  top = json_node_get_object (root);
  if (!check_members (top, "$", top_allowed, error))
    return NULL;
  format = string_member (top, "format");
  if (format == NULL || strcmp (format, GRAPH_JSON_FORMAT) != 0)
    return fail (error, "$", "\"format\" must be \"" GRAPH_JSON_FORMAT "\" (found %s)",
                 format ? format : "none"), NULL;
  vn = json_object_get_member (top, "version");
  if (vn == NULL || !JSON_NODE_HOLDS_VALUE (vn) || json_node_get_value_type (vn) != G_TYPE_INT64 ||
      json_node_get_int (vn) != GRAPH_JSON_VERSION)
    return fail (error, "$", "\"version\" must be %d (the version this library reads)",
                 GRAPH_JSON_VERSION), NULL;
  nn = json_object_get_member (top, "nodes");
  if (nn == NULL || !JSON_NODE_HOLDS_ARRAY (nn))
    return fail (error, "$", "\"nodes\" must be an array"), NULL;
  r->nodes = json_node_get_array (nn);
  n = json_array_get_length (r->nodes);

  /* first pass: every node an object with a unique string name */
  for (guint i = 0; i < n; i++)
    {
      JsonNode *e = json_array_get_element (r->nodes, i);
      g_autofree char *where = g_strdup_printf ("$.nodes[%u]", i);
      const char *name;
      guint other;

      if (!JSON_NODE_HOLDS_OBJECT (e))
        return fail (error, where, "a node must be an object (found %s)", json_node_type_name (e)), NULL;
      name = string_member (json_node_get_object (e), "name");
      if (name == NULL || name[0] == '\0')
        return fail (error, where, "a node needs a \"name\" (a non-empty string)"), NULL;
      other = GPOINTER_TO_UINT (g_hash_table_lookup (r->index, name));
      if (other != 0)
        return fail (error, where, "the name '%s' is taken by $.nodes[%u] (expected unique names)",
                     name, other - 1), NULL;
      g_hash_table_insert (r->index, (gpointer) name, GUINT_TO_POINTER (i + 1));
      g_ptr_array_add (r->refs, g_array_new (FALSE, FALSE, sizeof (guint)));
    }
  /* second pass: members, and the nodes each uses, all known */
  for (guint i = 0; i < n; i++)
    {
      JsonObject *obj = json_array_get_object_element (r->nodes, i);
      g_autofree char *where = g_strdup_printf ("node '%s'", node_name (r, i));

      if (!check_members (obj, where, node_allowed, error) ||
          !read_args (r, obj, i, where, NULL, error))
        return NULL;
    }
  /* third pass: each uses earlier nodes only (which leaves no room for a cycle) */
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *where = g_strdup_printf ("node '%s'", node_name (r, i));
      GArray *uses = r->refs->pdata[i];

      for (guint k = 0; k < uses->len; k++)
        {
          guint used = g_array_index (uses, guint, k);

          if (used == i)
            return fail (error, where, "uses itself (a cycle)"), NULL;
          if (used > i && reaches (r, used, i))
            return fail (error, where, "uses node '%s', which uses it in turn (a cycle)",
                         node_name (r, used)), NULL;
          if (used > i)
            return fail (error, where, "uses node '%s', which comes after it (expected the nodes "
                         "in execution order, each using earlier ones)", node_name (r, used)), NULL;
        }
    }
  /* last: the graph */
  graph = gnn_graph_new ();
  for (guint i = 0; i < n; i++)
    {
      JsonObject *obj = json_array_get_object_element (r->nodes, i);
      const char *name = node_name (r, i);
      g_autofree char *where = g_strdup_printf ("node '%s'", name);
      const char *op_name = string_member (obj, "op"), *target = string_member (obj, "target");
      GEnumValue *op = op_name ? g_enum_get_value_by_nick (ops, op_name) : NULL;
      g_autoptr(GnnArgs) args = NULL;
      GError *local = NULL;
      GnnGraphNode *node;
      JsonNode *meta;

      if (op == NULL)
        return fail (error, where, "unknown op '%s' (expected placeholder, get_attr, call_function, "
                     "call_method, call_module or output)", op_name ? op_name : "(none)"), NULL;
      if (target == NULL && op->value != GNN_GRAPH_OP_OUTPUT)
        return fail (error, where, "a %s node needs a \"target\" (a string)", op_name), NULL;
      if (!read_args (r, obj, i, where, &args, error))
        return NULL;
      node = gnn_graph_create_node (graph, op->value, target, args, name, &local);
      if (node == NULL)
        {
          fail (error, where, "%s", local->message);
          g_error_free (local);
          return NULL;
        }
      g_ptr_array_add (r->built, node);
      meta = json_object_get_member (obj, "meta");
      if (meta != NULL && !read_meta (meta, node, where, error))
        return NULL;
    }
  {
    GError *local = NULL;

    if (!gnn_graph_lint (graph, &local))
      {
        fail (error, "$", "%s", local->message);
        g_error_free (local);
        return NULL;
      }
  }
  return g_steal_pointer (&graph);
}

/**
 * gnn_graph_new_from_json:
 * @json: JSON text from [method@Gnn.Graph.to_json]
 * @length: the length of @json in bytes, or -1 when it ends with a NUL byte
 * @error: return location for a #GError
 *
 * Reads a graph from its JSON form ([method@Gnn.Graph.to_json]). The text is checked before
 * it is parsed as every JSON text gnn reads is (UTF-8, no name twice in one object, nesting
 * at most as deep as a module JSON may be); then each node must be an object with a unique
 * `"name"`, a known `"op"`, a `"target"` (but the output), and arguments of the forms
 * [method@Gnn.Graph.to_json] writes, nesting tuples at most
 * %GNN_GRAPH_JSON_MAX_ARGS_DEPTH deep. Every `{"node": name}` must name an earlier node of
 * the list: a name the list does not have is a dangling reference, one that uses the node
 * itself or a node that uses it in turn is a cycle, and each is an error naming the node.
 * Last the graph must lint ([method@Gnn.Graph.lint]: one output node, at the end). Node
 * names are made as [method@Gnn.Graph.create_node] makes them from the names given, so the
 * names [method@Gnn.Graph.to_json] wrote come back unchanged.
 *
 * A float argument comes back as a double, an integer as a 64-bit integer, and None as a
 * %NULL [class@Gnn.Tensor] (as the bindings pass None).
 *
 * Returns: (transfer full): the graph, or %NULL with a %GNN_ERROR_FILE_FORMAT error naming
 *   the node (or the byte offset, for text that fails the check before parsing)
 *
 * Since: 0.1
 */
GnnGraph *
gnn_graph_new_from_json (const char *json,
                         gssize      length,
                         GError    **error)
{
  g_autoptr(JsonNode) root = NULL;
  Reader r = { 0 };
  GnnGraph *graph;

  g_return_val_if_fail (json != NULL, NULL);

  root = gnn_json_parse (json, length, "graph JSON", error);
  if (root == NULL)
    return NULL;
  r.index = g_hash_table_new (g_str_hash, g_str_equal);
  r.refs = g_ptr_array_new_with_free_func ((GDestroyNotify) g_array_unref);
  r.built = g_ptr_array_new ();
  graph = read_graph (&r, root, error);
  g_hash_table_unref (r.index);
  g_ptr_array_unref (r.refs);
  g_ptr_array_unref (r.built);
  return graph;
}
