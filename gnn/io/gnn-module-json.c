/* gnn-module-json.c: the module tree as JSON
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * A module is the object
 *
 *   {"type": "GnnLinear", "training": true,
 *    "properties": {"in-features": 4, "out-features": 2, "bias": true, "dtype": "float32"},
 *    "children": [{"name": "0", "module": {...}}, ...]}
 *
 * "properties" holds every property of the module's class that is readable and writable and
 * of a type JSON can carry (booleans, numbers, strings, enums by nick, flags by nicks joined
 * with '|', variants); GnnModule's own properties (training, device, and dtype but for the
 * layers that create their tensors in it) are left out, training is the top-level member. Children come in registration order; a child name registered as NULL
 * has "module": null; a module registered twice in the tree is written where it comes first,
 * and later as {"shared": "<dotted path of the first place>"}. The values of parameters and
 * buffers are not in the JSON (they go to safetensors), their slots are:
 *
 *   "parameters": [{"name": "weight", "shape": [2, 4], "dtype": "float32", "requires-grad": true},
 *                  {"name": "bias", "shape": null}],
 *   "buffers": [{"name": "running_mean", "shape": [8], "dtype": "float32", "persistent": true}]
 *
 * so that a module whose tensors were added after construction (a ParameterList, a
 * ParameterDict, a module given parameters by hand) is rebuilt with tensors of those shapes
 * and dtypes (zeros), into which a state dict then loads. Object-valued properties hold a
 * tensor as {"tensor": {"dtype": .., "shape": [..], "data": "<base64 of its bytes>"}} and an
 * exponential-moving-average function as {"average-function": "ema", "multi": b, "decay": d};
 * any other object (or boxed value) is refused with an error naming the property.
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "gnn-module-json-private.h"
#include "gnn-json-scan-private.h"
#include "nn/gnn-module-private.h"
#include "nn/gnn-props-private.h"
#include "nn/gnn-parametrize-private.h"
#include "nn/gnn-prune-private.h"
#include "core/gnn-tensor-private.h"

/* deeper trees are refused rather than walked on the stack */
#define MAX_DEPTH 200

/* ---- writing ------------------------------------------------------------------------- */

/* a property of a module of @type that the JSON holds: one a module copy keeps (not
 * GnnModule's own but a layer's dtype), of a type JSON can carry; GnnParameter/GnnBuffer-
 * holding properties are saved as objects below */
static gboolean
property_is_saved (GType type, GParamSpec *pspec)
{
  if (!gnn_module_property_is_saved (type, pspec) || (pspec->flags & G_PARAM_DEPRECATED))
    return FALSE;
  switch (G_TYPE_FUNDAMENTAL (pspec->value_type))
    {
    case G_TYPE_BOOLEAN: case G_TYPE_CHAR: case G_TYPE_UCHAR: case G_TYPE_INT: case G_TYPE_UINT:
    case G_TYPE_LONG: case G_TYPE_ULONG: case G_TYPE_INT64: case G_TYPE_UINT64:
    case G_TYPE_FLOAT: case G_TYPE_DOUBLE: case G_TYPE_STRING: case G_TYPE_ENUM: case G_TYPE_FLAGS:
    case G_TYPE_VARIANT: case G_TYPE_OBJECT: case G_TYPE_BOXED: case G_TYPE_INTERFACE:
      return TRUE;
    default:
      return FALSE;
    }
}

/* a node holding @a or @o, which it takes */
static JsonNode *
take_array_node (JsonArray *a)
{
  JsonNode *node = json_node_init_array (json_node_alloc (), a);
  json_array_unref (a);
  return node;
}

static JsonNode *
take_object_node (JsonObject *o)
{
  JsonNode *node = json_node_init_object (json_node_alloc (), o);
  json_object_unref (o);
  return node;
}

static JsonNode *
shape_node (GnnTensor *t)
{
  JsonArray *a = json_array_new ();
  guint ndim;
  const gint64 *shape = gnn_tensor_get_shape (t, &ndim);

  for (guint i = 0; i < ndim; i++)
    json_array_add_int_element (a, shape[i]);
  return take_array_node (a);
}

/* An object-valued (or boxed) property's value as JSON, or NULL with an error naming it. */
static JsonNode *
object_to_node (GObject *owner, GParamSpec *pspec, const GValue *v, GError **error)
{
  gpointer value = G_VALUE_HOLDS_OBJECT (v) ? g_value_get_object (v)
                   : G_VALUE_HOLDS_BOXED (v) ? g_value_get_boxed (v) : NULL;
  JsonObject *obj;

  if (value == NULL)
    return json_node_init_null (json_node_alloc ());
  if (G_VALUE_HOLDS (v, G_TYPE_STRV))
    {
      JsonArray *a = json_array_new ();
      for (char **p = value; *p; p++)
        json_array_add_string_element (a, *p);
      return take_array_node (a);
    }
  if (G_VALUE_HOLDS_OBJECT (v) && GNN_IS_TENSOR (value))
    {
      GnnTensor *t = value;
      g_autoptr(GBytes) bytes = gnn_tensor_get_bytes (t, error);
      JsonObject *spec;
      g_autofree char *b64 = NULL;
      gsize len;
      gconstpointer data;

      if (bytes == NULL)
        {
          g_prefix_error (error, "%s:%s: ", G_OBJECT_TYPE_NAME (owner), pspec->name);
          return NULL;
        }
      data = g_bytes_get_data (bytes, &len);
      b64 = g_base64_encode (data, len);
      spec = json_object_new ();
      json_object_set_string_member (spec, "dtype", gnn_dtype_get_name (gnn_tensor_get_dtype (t)));
      json_object_set_member (spec, "shape", shape_node (t));
      json_object_set_string_member (spec, "data", b64);
      obj = json_object_new ();
      json_object_set_object_member (obj, "tensor", spec);
      return take_object_node (obj);
    }
  if (G_VALUE_HOLDS_OBJECT (v) && GNN_IS_AVERAGE_FUNCTION (value) &&
      isfinite (gnn_average_function_get_decay (value)))
    {
      obj = json_object_new ();
      json_object_set_string_member (obj, "average-function", "ema");
      json_object_set_boolean_member (obj, "multi", gnn_average_function_get_multi (value));
      json_object_set_double_member (obj, "decay", gnn_average_function_get_decay (value));
      return take_object_node (obj);
    }
  if (G_VALUE_HOLDS_OBJECT (v) && GNN_IS_AVERAGE_FUNCTION (value))
    g_set_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED,
                 "%s:%s holds an averaging function that is not an exponential moving average (an SWA "
                 "function or a callback), which the module JSON cannot carry: expected an EMA "
                 "function or none (without one the average is SWA's)", G_OBJECT_TYPE_NAME (owner), pspec->name);
  else
    g_set_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED,
                 "%s:%s holds a %s, which the module JSON cannot carry: expected a tensor, an "
                 "exponential-moving-average function, a string array or none",
                 G_OBJECT_TYPE_NAME (owner), pspec->name,
                 G_VALUE_HOLDS_OBJECT (v) ? G_OBJECT_TYPE_NAME (value) : G_VALUE_TYPE_NAME (v));
  return NULL;
}

/* the slots of @slots (parameters or buffers) as the array described at the top */
static JsonNode *
slots_node (GPtrArray *slots, gboolean buffers)
{
  JsonArray *a = json_array_new ();

  for (guint i = 0; i < slots->len; i++)
    {
      GnnModuleSlot *slot = slots->pdata[i];
      JsonObject *o = json_object_new ();

      json_object_set_string_member (o, "name", slot->name);
      if (slot->value == NULL)
        json_object_set_null_member (o, "shape");
      else
        {
          GnnTensor *t = GNN_TENSOR (slot->value);

          json_object_set_member (o, "shape", shape_node (t));
          json_object_set_string_member (o, "dtype", gnn_dtype_get_name (gnn_tensor_get_dtype (t)));
          if (buffers)
            json_object_set_boolean_member (o, "persistent", slot->persistent);
          else
            json_object_set_boolean_member (o, "requires-grad", gnn_tensor_get_requires_grad (t));
        }
      json_array_add_object_element (a, o);
    }
  return take_array_node (a);
}

static JsonNode *
double_node (double d)
{
  if (isnan (d))
    return json_node_init_string (json_node_alloc (), "nan");
  if (isinf (d))
    return json_node_init_string (json_node_alloc (), d > 0 ? "inf" : "-inf");
  return json_node_init_double (json_node_alloc (), d);
}

static JsonNode *
value_to_node (GParamSpec *pspec, const GValue *v)
{
  switch (G_TYPE_FUNDAMENTAL (pspec->value_type))
    {
    case G_TYPE_BOOLEAN: return json_node_init_boolean (json_node_alloc (), g_value_get_boolean (v));
    case G_TYPE_CHAR:    return json_node_init_int (json_node_alloc (), g_value_get_schar (v));
    case G_TYPE_UCHAR:   return json_node_init_int (json_node_alloc (), g_value_get_uchar (v));
    case G_TYPE_INT:     return json_node_init_int (json_node_alloc (), g_value_get_int (v));
    case G_TYPE_UINT:    return json_node_init_int (json_node_alloc (), g_value_get_uint (v));
    case G_TYPE_LONG:    return json_node_init_int (json_node_alloc (), g_value_get_long (v));
    case G_TYPE_ULONG:   return json_node_init_int (json_node_alloc (), (gint64) g_value_get_ulong (v));
    case G_TYPE_INT64:   return json_node_init_int (json_node_alloc (), g_value_get_int64 (v));
    case G_TYPE_UINT64:  return json_node_init_int (json_node_alloc (), (gint64) g_value_get_uint64 (v));
    case G_TYPE_FLOAT:   return double_node (g_value_get_float (v));
    case G_TYPE_DOUBLE:  return double_node (g_value_get_double (v));
    case G_TYPE_STRING:
      if (g_value_get_string (v) == NULL)
        return json_node_init_null (json_node_alloc ());
      return json_node_init_string (json_node_alloc (), g_value_get_string (v));
    case G_TYPE_ENUM:
      {
        GEnumClass *klass = g_type_class_peek (pspec->value_type);
        GEnumValue *ev = g_enum_get_value (klass, g_value_get_enum (v));
        if (ev == NULL)
          return json_node_init_int (json_node_alloc (), g_value_get_enum (v));
        return json_node_init_string (json_node_alloc (), ev->value_nick);
      }
    case G_TYPE_FLAGS:
      {
        GFlagsClass *klass = g_type_class_peek (pspec->value_type);
        guint flags = g_value_get_flags (v);
        GString *s = g_string_new (NULL);
        JsonNode *node;

        for (guint i = 0; i < klass->n_values; i++)
          {
            GFlagsValue *fv = &klass->values[i];
            if (fv->value != 0 && (flags & fv->value) == fv->value)
              {
                if (s->len)
                  g_string_append_c (s, '|');
                g_string_append (s, fv->value_nick);
                flags &= ~fv->value;
              }
          }
        node = json_node_init_string (json_node_alloc (), s->str);
        g_string_free (s, TRUE);
        return node;
      }
    case G_TYPE_VARIANT:
      {
        GVariant *variant = g_value_get_variant (v);
        GParamSpecVariant *vspec = G_PARAM_SPEC_VARIANT (pspec);

        if (variant == NULL)
          return json_node_init_null (json_node_alloc ());
        if (g_variant_type_is_definite (vspec->type))
          return json_gvariant_serialize (variant);
        /* an indefinite type: the text keeps the value's type */
        {
          g_autofree char *text = g_variant_print (variant, TRUE);
          return json_node_init_string (json_node_alloc (), text);
        }
      }
    default:
      g_assert_not_reached ();
    }
}

/* Reads @owner's property @pspec into @props under its name: an object, boxed or interface
 * value through object_to_node, any other through value_to_node. */
static gboolean
property_to_member (GObject *owner, GParamSpec *pspec, JsonObject *props, GError **error)
{
  g_auto(GValue) v = G_VALUE_INIT;
  GType fundamental = G_TYPE_FUNDAMENTAL (pspec->value_type);
  JsonNode *node;

  g_value_init (&v, pspec->value_type);
  g_object_get_property (owner, pspec->name, &v);
  if (fundamental == G_TYPE_OBJECT || fundamental == G_TYPE_BOXED || fundamental == G_TYPE_INTERFACE)
    node = object_to_node (owner, pspec, &v, error);
  else
    node = value_to_node (pspec, &v);
  if (node == NULL)
    return FALSE;
  json_object_set_member (props, pspec->name, node);
  return TRUE;
}

/* A pruning method as {"type": .., "properties": {..}} (a container adds "methods": [..]):
 * its readable and writable properties of the types the module JSON carries. */
static JsonNode *
pruning_method_node (GnnBasePruningMethod *method, guint depth, GError **error)
{
  g_autoptr(JsonObject) obj = json_object_new ();
  g_autoptr(JsonObject) props = json_object_new ();
  g_autofree GParamSpec **pspecs = NULL;
  guint n;

  if (depth > MAX_DEPTH)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "the pruning methods are nested deeper than %d levels", MAX_DEPTH);
      return NULL;
    }
  json_object_set_string_member (obj, "type", G_OBJECT_TYPE_NAME (method));
  pspecs = g_object_class_list_properties (G_OBJECT_GET_CLASS (method), &n);
  for (guint i = 0; i < n; i++)
    {
      GType fundamental = G_TYPE_FUNDAMENTAL (pspecs[i]->value_type);

      if ((pspecs[i]->flags & G_PARAM_READWRITE) != G_PARAM_READWRITE || (pspecs[i]->flags & G_PARAM_DEPRECATED) ||
          fundamental == G_TYPE_POINTER || fundamental == G_TYPE_PARAM)
        continue;
      if (!property_to_member (G_OBJECT (method), pspecs[i], props, error))
        return NULL;
    }
  json_object_set_object_member (obj, "properties", g_steal_pointer (&props));
  if (GNN_IS_PRUNING_CONTAINER (method))
    {
      JsonArray *a = json_array_new ();
      GnnPruningContainer *c = GNN_PRUNING_CONTAINER (method);

      for (guint i = 0; i < gnn_pruning_container_get_n_methods (c); i++)
        {
          JsonNode *node = pruning_method_node (gnn_pruning_container_get_method (c, i), depth + 1, error);
          if (node == NULL)
            {
              json_array_unref (a);
              return NULL;
            }
          json_array_add_element (a, node);
        }
      json_object_set_array_member (obj, "methods", a);
    }
  return json_node_init_object (json_node_alloc (), obj);
}

/* What makes @self's tensors computed (see gnn_module_to_json): "parametrized", one entry per
 * parametrized tensor, and "hooks", the forward pre-hooks of pruning and of the hook-based
 * norms in their order. Other hooks (callbacks) are not saved. */
static gboolean
write_computed_tensors (GnnModule *self, JsonObject *obj, GError **error)
{
  GnnModulePrivate *priv = gnn_module_priv (self);
  GnnModule *d = gnn_module_get_submodule (self, "parametrizations", NULL);
  g_autoptr(JsonArray) hooks = json_array_new ();

  if (d && GNN_IS_MODULE_DICT (d) && gnn_is_parametrized (self, NULL))
    {
      JsonArray *a = json_array_new ();
      GPtrArray *lists = gnn_module_priv (d)->modules;

      for (guint i = 0; i < lists->len; i++)
        {
          GnnModuleSlot *slot = lists->pdata[i];
          JsonObject *e;

          if (slot->value == NULL || !GNN_IS_PARAMETRIZATION_LIST (slot->value))
            continue;
          e = json_object_new ();
          json_object_set_string_member (e, "tensor", slot->name);
          json_object_set_boolean_member (e, "unsafe",
                                          gnn_parametrization_list_get_unsafe (GNN_PARAMETRIZATION_LIST (slot->value)));
          json_array_add_object_element (a, e);
        }
      json_object_set_array_member (obj, "parametrized", a);
    }
  for (guint i = 0; priv->forward_hooks && i < priv->forward_hooks->len; i++)
    {
      GnnModuleHook *h = priv->forward_hooks->pdata[i];
      GnnBasePruningMethod *method = gnn_prune_hook_method (h);
      const char *kind, *name;
      int dim, n_power_iterations;
      double eps;
      JsonObject *e;

      if (method)
        {
          JsonNode *mnode = pruning_method_node (method, 0, error);

          if (mnode == NULL)
            {
              g_prefix_error (error, "%s: the pruning of '%s': ", G_OBJECT_TYPE_NAME (self),
                              gnn_base_pruning_method_get_tensor_name (method));
              return FALSE;
            }
          e = json_object_new ();
          json_object_set_string_member (e, "kind", "prune");
          json_object_set_string_member (e, "tensor", gnn_base_pruning_method_get_tensor_name (method));
          json_object_set_member (e, "method", mnode);
        }
      else if (gnn_weight_hook_describe (h, &kind, &name, &dim, &n_power_iterations, &eps))
        {
          e = json_object_new ();
          json_object_set_string_member (e, "kind", kind);
          json_object_set_string_member (e, "tensor", name);
          json_object_set_int_member (e, "dim", dim);
          if (g_str_equal (kind, "spectral_norm"))
            {
              json_object_set_int_member (e, "n-power-iterations", n_power_iterations);
              json_object_set_member (e, "eps", double_node (eps));
            }
        }
      else
        continue;
      json_array_add_object_element (hooks, e);
    }
  if (json_array_get_length (hooks) > 0)
    json_object_set_array_member (obj, "hooks", g_steal_pointer (&hooks));
  return TRUE;
}

/* @seen: module → the dotted path where it was first written; @writing: @self and the
 * modules that hold it, root first */
static JsonNode *
module_to_node (GnnModule *self, const char *path, GHashTable *seen, GPtrArray *writing, guint depth,
                GError **error)
{
  g_autoptr(JsonObject) obj = json_object_new ();
  g_autoptr(JsonObject) props = json_object_new ();
  g_autoptr(JsonArray) children = json_array_new ();
  GnnModulePrivate *priv = gnn_module_priv (self);
  g_autofree GParamSpec **pspecs = NULL;
  guint n;

  if (depth > MAX_DEPTH)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "the module tree is deeper than %d levels (or holds a cycle)", MAX_DEPTH);
      return NULL;
    }
  if (!gnn_module_ensure_setup (self, error))
    return NULL;
  json_object_set_string_member (obj, "type", G_OBJECT_TYPE_NAME (self));
  json_object_set_boolean_member (obj, "training", priv->training);

  pspecs = gnn_module_list_saved_properties (G_OBJECT_TYPE (self), &n);
  for (guint i = 0; i < n; i++)
    {
      if (!property_is_saved (G_OBJECT_TYPE (self), pspecs[i]))
        continue;
      if (!property_to_member (G_OBJECT (self), pspecs[i], props, error))
        return NULL;
    }
  json_object_set_object_member (obj, "properties", g_steal_pointer (&props));
  if (priv->parameters->len > 0)
    json_object_set_member (obj, "parameters", slots_node (priv->parameters, FALSE));
  if (priv->buffers->len > 0)
    json_object_set_member (obj, "buffers", slots_node (priv->buffers, TRUE));
  if (!write_computed_tensors (self, obj, error))
    return NULL;

  for (guint i = 0; i < priv->modules->len; i++)
    {
      GnnModuleSlot *s = priv->modules->pdata[i];
      JsonObject *child = json_object_new ();

      json_object_set_string_member (child, "name", s->name);
      if (s->value == NULL)
        json_object_set_null_member (child, "module");
      else if (g_ptr_array_find (writing, s->value, NULL))
        {
          /* a module inside itself: a reference would make the JSON a cycle too */
          g_autofree char *cpath = path[0] ? g_strconcat (path, ".", s->name, NULL) : g_strdup (s->name);
          const char *at = g_hash_table_lookup (seen, s->value);

          json_object_unref (child);
          g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                       "the module tree is a cycle: '%s' is the %s at '%s'%s, which holds it", cpath,
                       gnn_module_get_name (GNN_MODULE (s->value)), at, at[0] ? "" : " (the root)");
          return NULL;
        }
      else if (g_hash_table_contains (seen, s->value))
        {
          /* a module registered twice in the tree is written once, then referred to */
          JsonObject *ref = json_object_new ();
          json_object_set_string_member (ref, "shared", g_hash_table_lookup (seen, s->value));
          json_object_set_object_member (child, "module", ref);
        }
      else
        {
          g_autofree char *cpath = path[0] ? g_strconcat (path, ".", s->name, NULL) : g_strdup (s->name);
          JsonNode *node;

          g_hash_table_insert (seen, s->value, g_strdup (cpath));
          g_ptr_array_add (writing, s->value);
          node = module_to_node (GNN_MODULE (s->value), cpath, seen, writing, depth + 1, error);
          g_ptr_array_remove_index (writing, writing->len - 1);
          if (node == NULL)
            {
              json_object_unref (child);
              return NULL;
            }
          json_object_set_member (child, "module", node);
        }
      json_array_add_object_element (children, child);
    }
  json_object_set_array_member (obj, "children", g_steal_pointer (&children));
  return json_node_init_object (json_node_alloc (), obj);
}

/*
 * gnn_module_to_json_node:
 *
 * The module tree of @self as a JSON object node (see the top of this file), or %NULL with
 * @error set (a setup that failed, a tree too deep).
 */
JsonNode *
gnn_module_to_json_node (GnnModule *self,
                         GError   **error)
{
  g_autoptr(GHashTable) seen = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  g_autoptr(GPtrArray) writing = g_ptr_array_new ();

  g_return_val_if_fail (GNN_IS_MODULE (self), NULL);
  g_hash_table_insert (seen, self, g_strdup (""));
  g_ptr_array_add (writing, self);
  return module_to_node (self, "", seen, writing, 0, error);
}

/**
 * gnn_module_to_json:
 * @self: a module
 * @pretty: whether to indent the text
 * @error: return location for a #GError
 *
 * The architecture of the module tree as JSON text, which
 * [ctor@Gnn.Module.new_from_json] rebuilds. Each module is an object
 *
 * ```json
 * {"type": "GnnLinear", "training": true,
 *  "properties": {"in-features": 4, "out-features": 2, "bias": true, "dtype": "float32"},
 *  "children": [{"name": "0", "module": {...}}, ...]}
 * ```
 *
 * with its GType name, its training flag, every property of its class that is readable and
 * writable and of a type JSON can carry (booleans, numbers, strings, enums by nick, flags by
 * nicks joined with `|`, variants: definite types as json-glib serializes them, others as
 * their printed text with types; a NaN or infinite number as the string `"nan"`, `"inf"` or
 * `"-inf"`), and its submodules in registration order (`"module": null` for a name
 * registered as %NULL). A module registered at several places of the tree is written at the
 * first, and at the others as `{"shared": "<dotted path of the first>"}`, so that the
 * rebuilt tree shares it too. A module inside itself (a cycle, which
 * [method@Gnn.Module.register_module] refuses to make) is refused with an error naming the
 * path, as the loader refuses a `"shared"` that names an ancestor. A property holding a
 * tensor (such as a loss's `weight`) is written with its values, as `{"tensor": {"dtype": "float32", "shape": [3], "data":
 * "<base64 of its bytes>"}}`; one holding an exponential-moving-average function as
 * `{"average-function": "ema", "multi": false, "decay": 0.99}`; a string array as an array;
 * %NULL as `null`; any other object or boxed value makes the call fail with an error that
 * names the property. [class@Gnn.Module]'s own `training` (a member of its own) and `device`
 * are left out, and so is its `dtype` but for the layers that create their parameters in
 * it (such as [class@Gnn.Linear]), where it comes last.
 *
 * The values of parameters and buffers are not in the JSON (save them with
 * [method@Gnn.Module.state_dict] and [func@Gnn.safetensors_save], or with a
 * [class@Gnn.Checkpoint]), but their slots are, under `"parameters"` and `"buffers"`:
 * `{"name": "weight", "shape": [2, 4], "dtype": "float32", "requires-grad": true}` (a buffer
 * has `"persistent"` instead of `"requires-grad"`; a name registered as %NULL has
 * `"shape": null`), so that tensors added after construction, such as those of a
 * [class@Gnn.ParameterList] or a [class@Gnn.ParameterDict], are rebuilt too.
 *
 * A module whose tensors are computed says how. One with parametrized tensors
 * ([func@Gnn.register_parametrization]) has `"parametrized": [{"tensor": "weight", "unsafe":
 * false}, ...]`, and its child `parametrizations` (a [class@Gnn.ModuleDict] of
 * [class@Gnn.ParametrizationList]s, each with its originals and its chain of
 * parametrizations, written as any module: their types, properties and tensors) is in
 * `"children"`, so that the state-dict keys are torch's (`parametrizations.weight.original`,
 * `parametrizations.weight.0._u`). One pruned ([func@Gnn.prune_apply]) or under a hook-based
 * norm ([func@Gnn.weight_norm], [func@Gnn.SpectralNorm.hook]) has `"hooks"`, those forward
 * pre-hooks in their order: `{"kind": "prune", "tensor": "weight", "method": {"type":
 * "GnnL1Unstructured", "properties": {...}}}` (a [class@Gnn.PruningContainer] with its
 * `"methods"`; the mask is the buffer `weight_mask`, whose values the state dict holds),
 * `{"kind": "weight_norm", "tensor": "weight", "dim": 0}` and `{"kind": "spectral_norm",
 * "tensor": "weight", "dim": 0, "n-power-iterations": 1, "eps": 1e-12}`; their tensors
 * (`weight_orig`, `weight_mask`, `weight_g`, `weight_u` ...) are among the slots. Other hooks
 * (callbacks) are not saved. Loading makes each such tensor computed again, the same
 * attribute with the same state-dict keys; its values come with the state dict.
 *
 * Returns: (transfer full): the JSON text, or %NULL with @error set (a module whose setup
 *   failed, a property holding an object the JSON cannot carry (%GNN_ERROR_NOT_SUPPORTED), a
 *   tree deeper than 200 levels, a tree that is a cycle)
 */
char *
gnn_module_to_json (GnnModule *self,
                    gboolean   pretty,
                    GError   **error)
{
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(JsonGenerator) gen = NULL;

  g_return_val_if_fail (GNN_IS_MODULE (self), NULL);
  node = gnn_module_to_json_node (self, error);
  if (node == NULL)
    return NULL;
  gen = json_generator_new ();
  json_generator_set_pretty (gen, pretty);
  json_generator_set_root (gen, node);
  return json_generator_to_data (gen, NULL);
}

/* ---- reading ------------------------------------------------------------------------- */

static const char *
node_kind (JsonNode *node)
{
  if (node == NULL)
    return "nothing";
  switch (JSON_NODE_TYPE (node))
    {
    case JSON_NODE_OBJECT: return "an object";
    case JSON_NODE_ARRAY: return "an array";
    case JSON_NODE_NULL: return "null";
    case JSON_NODE_VALUE:
      switch (json_node_get_value_type (node))
        {
        case G_TYPE_BOOLEAN: return "a boolean";
        case G_TYPE_INT64: return "an integer";
        case G_TYPE_DOUBLE: return "a number";
        case G_TYPE_STRING: return "a string";
        default: return "a value";
        }
    default:
      return "a value";
    }
}

gboolean
gnn_file_format_error (GError     **error,
                       const char  *head,
                       const char  *where,
                       const char  *format,
                       ...)
{
  va_list args;
  g_autofree char *msg = NULL;

  va_start (args, format);
  msg = g_strdup_vprintf (format, args);
  va_end (args);
  g_set_error (error, GNN_ERROR, GNN_ERROR_FILE_FORMAT, "%s%s: %s", head, where, msg);
  return FALSE;
}

/* a GNN_ERROR_FILE_FORMAT error naming the place in the JSON */
#define fail(error, where, ...) gnn_file_format_error (error, "module JSON at ", where, __VA_ARGS__)

static gboolean
is_value (JsonNode *node, GType type)
{
  return node && JSON_NODE_TYPE (node) == JSON_NODE_VALUE && json_node_get_value_type (node) == type;
}

static gboolean
int_of (JsonNode *node, const char *where, const char *name, const char *expected, gint64 lo, gint64 hi,
        gint64 *out, GError **error)
{
  gint64 i;

  if (!is_value (node, G_TYPE_INT64))
    return fail (error, where, "property '%s' expects %s, found %s", name, expected, node_kind (node));
  i = json_node_get_int (node);
  if (i < lo || i > hi)
    return fail (error, where, "property '%s' expects %s from %" G_GINT64_FORMAT " to %" G_GINT64_FORMAT
                 ", found %" G_GINT64_FORMAT, name, expected, lo, hi, i);
  *out = i;
  return TRUE;
}

/* the shape array @node into @shape (at most 16 dimensions) */
static gboolean
shape_of (JsonNode *node, const char *where, const char *what, gint64 *shape, guint *ndim, GError **error)
{
  JsonArray *a;

  if (node == NULL || !JSON_NODE_HOLDS_ARRAY (node))
    return fail (error, where, "%s: expected \"shape\" to be an array of sizes, found %s", what, node_kind (node));
  a = json_node_get_array (node);
  if (json_array_get_length (a) > 16)
    return fail (error, where, "%s: expected at most 16 dimensions, found %u", what, json_array_get_length (a));
  *ndim = json_array_get_length (a);
  for (guint i = 0; i < *ndim; i++)
    {
      JsonNode *e = json_array_get_element (a, i);
      if (!is_value (e, G_TYPE_INT64) || json_node_get_int (e) < 0 || json_node_get_int (e) > G_MAXINT32)
        return fail (error, where, "%s: expected \"shape\" to hold sizes from 0 to %d, found %s", what,
                     G_MAXINT32, node_kind (e));
      shape[i] = json_node_get_int (e);
    }
  /* the element count must be one the bytes of a tensor can be counted with */
  {
    guint64 numel = 1;
    for (guint i = 0; i < *ndim; i++)
      if (!g_uint64_checked_mul (&numel, numel, (guint64) shape[i]) || numel > G_MAXINT64 / 16)
        return fail (error, where, "%s: the shape holds more elements than a tensor can", what);
  }
  return TRUE;
}

static gboolean
dtype_of (JsonNode *node, const char *where, const char *what, GnnDtype *dtype, GError **error)
{
  if (!is_value (node, G_TYPE_STRING))
    return fail (error, where, "%s: expected \"dtype\" to be a dtype name, found %s", what, node_kind (node));
  if (!gnn_dtype_from_name (json_node_get_string (node), dtype, NULL))
    return fail (error, where, "%s: expected \"dtype\" to be a dtype name, found '%s'", what,
                 json_node_get_string (node));
  return TRUE;
}

/* An object-valued (or boxed) property from JSON (object_to_node's forms) into @v. */
static gboolean
object_from_node (GParamSpec *pspec, JsonNode *node, const char *where, GValue *v, GError **error)
{
  const char *name = pspec->name;
  JsonObject *obj;
  JsonNode *member;

  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    return TRUE;
  if (pspec->value_type == G_TYPE_STRV && JSON_NODE_HOLDS_ARRAY (node))
    {
      JsonArray *a = json_node_get_array (node);
      g_autoptr(GStrvBuilder) b = g_strv_builder_new ();

      for (guint i = 0; i < json_array_get_length (a); i++)
        {
          JsonNode *e = json_array_get_element (a, i);
          if (!is_value (e, G_TYPE_STRING))
            return fail (error, where, "property '%s' expects an array of strings, found %s in it", name,
                         node_kind (e));
          g_strv_builder_add (b, json_node_get_string (e));
        }
      g_value_take_boxed (v, g_strv_builder_end (b));
      return TRUE;
    }
  if (!JSON_NODE_HOLDS_OBJECT (node))
    return fail (error, where, "property '%s' expects an object ({\"tensor\": ..} or {\"average-function\": ..}) "
                 "or null, found %s", name, node_kind (node));
  obj = json_node_get_object (node);
  if ((member = json_object_get_member (obj, "tensor")))
    {
      g_autofree char *what = g_strdup_printf ("property '%s'", name);
      gint64 shape[16];
      guint ndim;
      GnnDtype dtype;
      JsonObject *spec;
      JsonNode *data;
      g_autofree guchar *raw = NULL;
      gsize len;
      guint64 numel = 1;
      g_autoptr(GBytes) bytes = NULL;
      g_autoptr(GnnTensor) t = NULL;

      if (!g_type_is_a (GNN_TYPE_TENSOR, pspec->value_type))
        return fail (error, where, "property '%s' expects a %s, found a tensor", name, g_type_name (pspec->value_type));
      if (!JSON_NODE_HOLDS_OBJECT (member))
        return fail (error, where, "property '%s': expected \"tensor\" to be an object, found %s", name,
                     node_kind (member));
      spec = json_node_get_object (member);
      if (!shape_of (json_object_get_member (spec, "shape"), where, what, shape, &ndim, error) ||
          !dtype_of (json_object_get_member (spec, "dtype"), where, what, &dtype, error))
        return FALSE;
      data = json_object_get_member (spec, "data");
      if (!is_value (data, G_TYPE_STRING))
        return fail (error, where, "property '%s': expected \"data\" to be base64 text, found %s", name,
                     node_kind (data));
      raw = g_base64_decode (json_node_get_string (data), &len);
      for (guint i = 0; i < ndim; i++)
        if (!g_uint64_checked_mul (&numel, numel, (guint64) shape[i]))
          return fail (error, where, "property '%s': the shape is too large", name);
      if (numel > G_MAXUINT64 / 8 || numel * gnn_dtype_get_size (dtype) != len)
        return fail (error, where, "property '%s': expected %" G_GINT64_FORMAT " bytes of data for the shape "
                     "and dtype, found %" G_GSIZE_FORMAT, name, (gint64) (numel * gnn_dtype_get_size (dtype)), len);
      bytes = g_bytes_new_take (g_steal_pointer (&raw), len);
      t = gnn_tensor_new_from_bytes (bytes, dtype, shape, ndim, NULL, error);
      if (t == NULL)
        {
          g_prefix_error (error, "module JSON at %s: property '%s': ", where, name);
          return FALSE;
        }
      g_value_set_object (v, t);
      return TRUE;
    }
  if ((member = json_object_get_member (obj, "average-function")))
    {
      JsonNode *decay = json_object_get_member (obj, "decay");
      JsonNode *multi = json_object_get_member (obj, "multi");
      g_autoptr(GnnAverageFunction) fn = NULL;
      double d;

      if (!g_type_is_a (GNN_TYPE_AVERAGE_FUNCTION, pspec->value_type))
        return fail (error, where, "property '%s' expects a %s, found an average function", name,
                     g_type_name (pspec->value_type));
      if (!is_value (member, G_TYPE_STRING) || !g_str_equal (json_node_get_string (member), "ema"))
        return fail (error, where, "property '%s': expected \"average-function\" to be \"ema\", found %s", name,
                     is_value (member, G_TYPE_STRING) ? json_node_get_string (member) : node_kind (member));
      if (multi && !is_value (multi, G_TYPE_BOOLEAN))
        return fail (error, where, "property '%s': expected \"multi\" to be a boolean, found %s", name,
                     node_kind (multi));
      if (is_value (decay, G_TYPE_DOUBLE))
        d = json_node_get_double (decay);
      else if (is_value (decay, G_TYPE_INT64))
        d = json_node_get_int (decay);
      else
        return fail (error, where, "property '%s': expected \"decay\" to be a number, found %s", name,
                     node_kind (decay));
      fn = multi && json_node_get_boolean (multi) ? gnn_average_function_new_ema_multi (d, error)
                                                   : gnn_average_function_new_ema (d, error);
      if (fn == NULL)
        {
          g_prefix_error (error, "module JSON at %s: property '%s': ", where, name);
          return FALSE;
        }
      g_value_set_object (v, fn);
      return TRUE;
    }
  return fail (error, where, "property '%s' expects {\"tensor\": ..}, {\"average-function\": ..} or null, "
               "found an object with neither", name);
}

/* whether two values of an object-valued property write the same JSON */
static gboolean
same_json_value (GObject *owner, GParamSpec *pspec, const GValue *a, const GValue *b)
{
  g_autoptr(JsonNode) na = object_to_node (owner, pspec, a, NULL);
  g_autoptr(JsonNode) nb = object_to_node (owner, pspec, b, NULL);

  return na && nb && json_node_equal (na, nb);
}

/* @node (a JSON member) as a value of @pspec's type in @v (initialised here) */
static gboolean
node_to_value (GParamSpec *pspec, JsonNode *node, const char *where, GValue *v, GError **error)
{
  const char *name = pspec->name;
  GError *local = NULL;
  gint64 i;

  g_value_init (v, pspec->value_type);
  switch (G_TYPE_FUNDAMENTAL (pspec->value_type))
    {
    case G_TYPE_BOOLEAN:
      if (!is_value (node, G_TYPE_BOOLEAN))
        return fail (error, where, "property '%s' expects a boolean, found %s", name, node_kind (node));
      g_value_set_boolean (v, json_node_get_boolean (node));
      break;
    case G_TYPE_CHAR:
      if (!int_of (node, where, name, "an integer", G_MININT8, G_MAXINT8, &i, error))
        return FALSE;
      g_value_set_schar (v, (gint8) i);
      break;
    case G_TYPE_UCHAR:
      if (!int_of (node, where, name, "an integer", 0, G_MAXUINT8, &i, error))
        return FALSE;
      g_value_set_uchar (v, (guint8) i);
      break;
    case G_TYPE_INT:
      if (!int_of (node, where, name, "an integer", G_MININT, G_MAXINT, &i, error))
        return FALSE;
      g_value_set_int (v, (int) i);
      break;
    case G_TYPE_UINT:
      if (!int_of (node, where, name, "an integer", 0, G_MAXUINT, &i, error))
        return FALSE;
      g_value_set_uint (v, (guint) i);
      break;
    case G_TYPE_LONG:
      if (!int_of (node, where, name, "an integer", G_MINLONG, G_MAXLONG, &i, error))
        return FALSE;
      g_value_set_long (v, (glong) i);
      break;
    case G_TYPE_ULONG:
      if (!int_of (node, where, name, "an integer", 0, G_MAXINT64, &i, error))
        return FALSE;
      g_value_set_ulong (v, (gulong) i);
      break;
    case G_TYPE_INT64:
      if (!int_of (node, where, name, "an integer", G_MININT64, G_MAXINT64, &i, error))
        return FALSE;
      g_value_set_int64 (v, i);
      break;
    case G_TYPE_UINT64:
      if (!int_of (node, where, name, "an integer", 0, G_MAXINT64, &i, error))
        return FALSE;
      g_value_set_uint64 (v, (guint64) i);
      break;
    case G_TYPE_FLOAT:
    case G_TYPE_DOUBLE:
      {
        double d;

        if (is_value (node, G_TYPE_DOUBLE))
          d = json_node_get_double (node);
        else if (is_value (node, G_TYPE_INT64))
          d = (double) json_node_get_int (node);
        else if (is_value (node, G_TYPE_STRING) && g_str_equal (json_node_get_string (node), "nan"))
          d = NAN;
        else if (is_value (node, G_TYPE_STRING) && g_str_equal (json_node_get_string (node), "inf"))
          d = INFINITY;
        else if (is_value (node, G_TYPE_STRING) && g_str_equal (json_node_get_string (node), "-inf"))
          d = -INFINITY;
        else
          return fail (error, where, "property '%s' expects a number, found %s", name, node_kind (node));
        if (G_TYPE_FUNDAMENTAL (pspec->value_type) == G_TYPE_FLOAT)
          g_value_set_float (v, (float) d);
        else
          g_value_set_double (v, d);
      }
      break;
    case G_TYPE_STRING:
      if (JSON_NODE_HOLDS_NULL (node))
        g_value_set_string (v, NULL);
      else if (is_value (node, G_TYPE_STRING))
        g_value_set_string (v, json_node_get_string (node));
      else
        return fail (error, where, "property '%s' expects a string or null, found %s", name, node_kind (node));
      break;
    case G_TYPE_ENUM:
      {
        GEnumClass *klass = g_type_class_peek (pspec->value_type);
        GEnumValue *ev;

        if (!is_value (node, G_TYPE_STRING))
          return fail (error, where, "property '%s' expects the nick of a %s value, found %s", name,
                       g_type_name (pspec->value_type), node_kind (node));
        ev = g_enum_get_value_by_nick (klass, json_node_get_string (node));
        if (ev == NULL)
          ev = g_enum_get_value_by_name (klass, json_node_get_string (node));
        if (ev == NULL)
          return fail (error, where, "property '%s' expects the nick of a %s value, found '%s'", name,
                       g_type_name (pspec->value_type), json_node_get_string (node));
        g_value_set_enum (v, ev->value);
      }
      break;
    case G_TYPE_FLAGS:
      {
        GFlagsClass *klass = g_type_class_peek (pspec->value_type);
        g_auto(GStrv) nicks = NULL;
        guint flags = 0;

        if (!is_value (node, G_TYPE_STRING))
          return fail (error, where, "property '%s' expects %s nicks joined with '|', found %s", name,
                       g_type_name (pspec->value_type), node_kind (node));
        nicks = g_strsplit (json_node_get_string (node), "|", -1);
        for (guint k = 0; nicks[k]; k++)
          {
            GFlagsValue *fv;
            if (nicks[k][0] == '\0')
              continue;
            fv = g_flags_get_value_by_nick (klass, nicks[k]);
            if (fv == NULL)
              return fail (error, where, "property '%s' expects %s nicks, found '%s'", name,
                           g_type_name (pspec->value_type), nicks[k]);
            flags |= fv->value;
          }
        g_value_set_flags (v, flags);
      }
      break;
    case G_TYPE_VARIANT:
      {
        const GVariantType *type = G_PARAM_SPEC_VARIANT (pspec)->type;
        g_autoptr(GVariant) variant = NULL;
        g_autofree char *tstr = g_variant_type_dup_string (type);

        if (JSON_NODE_HOLDS_NULL (node))
          break;
        if (g_variant_type_is_definite (type))
          {
            variant = json_gvariant_deserialize (node, tstr, &local);
            if (variant == NULL)
              {
                fail (error, where, "property '%s' expects a value of type '%s', found %s (%s)", name, tstr,
                      node_kind (node), local ? local->message : "no value");
                g_clear_error (&local);
                return FALSE;
              }
            g_variant_ref_sink (variant);
          }
        else
          {
            if (!is_value (node, G_TYPE_STRING))
              return fail (error, where, "property '%s' expects a GVariant text of type '%s', found %s", name,
                           tstr, node_kind (node));
            variant = g_variant_parse (NULL, json_node_get_string (node), NULL, NULL, &local);
            if (variant == NULL)
              {
                fail (error, where, "property '%s' expects a GVariant text of type '%s', found '%s' (%s)", name,
                      tstr, json_node_get_string (node), local->message);
                g_clear_error (&local);
                return FALSE;
              }
          }
        if (!g_variant_is_of_type (variant, type))
          return fail (error, where, "property '%s' expects a value of type '%s', found one of type '%s'", name,
                       tstr, g_variant_get_type_string (variant));
        g_value_set_variant (v, variant);
      }
      break;
    case G_TYPE_OBJECT:
    case G_TYPE_BOXED:
    case G_TYPE_INTERFACE:
      if (!object_from_node (pspec, node, where, v, error))
        return FALSE;
      break;
    default:
      return fail (error, where, "property '%s' of type %s cannot be read from JSON", name,
                   g_type_name (pspec->value_type));
    }
  if (g_param_value_validate (pspec, v))
    {
      g_autofree char *text = g_strdup_value_contents (v);
      return fail (error, where, "property '%s' has a value out of its range: %s", name, text);
    }
  /* the class's own check of the value, which the pspec's range leaves to it */
  if (!gnn_prop_check_value (pspec, v, &local))
    {
      g_autofree char *text = g_strdup_value_contents (v);
      fail (error, where, "property '%s' has a value out of its range: %s (%s)", name, text, local->message);
      g_clear_error (&local);
      return FALSE;
    }
  return TRUE;
}

typedef struct {
  gboolean skip_init;
  GHashTable *by_path;   /* dotted path → module (borrowed: the tree holds them) */
  GPtrArray *filling;    /* the modules whose children are being read, root first */
} Reader;

static GnnModule *node_to_module (JsonNode *node, const char *where, const char *path, guint depth, Reader *r,
                                  GError **error);

static JsonObject *
object_of (JsonNode *node, const char *where, const char *what, GError **error)
{
  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    {
      fail (error, where, "expected %s (an object), found %s", what, node_kind (node));
      return NULL;
    }
  return json_node_get_object (node);
}

/* Sets the read-write properties of the existing module @m (made by its parent's setup) from
 * @props, and checks that the construct-only ones hold the values @props gives. */
static gboolean
apply_to_existing (GnnModule *m, JsonObject *props, const char *where, GError **error)
{
  GObjectClass *klass = G_OBJECT_GET_CLASS (m);
  g_autoptr(GList) members = json_object_get_members (props);

  for (GList *l = members; l; l = l->next)
    {
      const char *name = l->data;
      GParamSpec *pspec = g_object_class_find_property (klass, name);
      g_auto(GValue) v = G_VALUE_INIT;

      if (pspec == NULL || !property_is_saved (G_OBJECT_TYPE (m), pspec))
        return fail (error, where, "%s has no readable and writable property '%s'", G_OBJECT_TYPE_NAME (m), name);
      if (!node_to_value (pspec, json_object_get_member (props, name), where, &v, error))
        return FALSE;
      if (pspec->flags & G_PARAM_CONSTRUCT_ONLY)
        {
          g_auto(GValue) current = G_VALUE_INIT;

          GType fundamental = G_TYPE_FUNDAMENTAL (pspec->value_type);
          gboolean is_object = fundamental == G_TYPE_OBJECT || fundamental == G_TYPE_BOXED ||
                               fundamental == G_TYPE_INTERFACE;

          g_value_init (&current, pspec->value_type);
          g_object_get_property (G_OBJECT (m), name, &current);
          if (is_object ? !same_json_value (G_OBJECT (m), pspec, &current, &v)
                        : g_param_values_cmp (pspec, &current, &v) != 0)
            {
              g_autofree char *want = g_strdup_value_contents (&v);
              g_autofree char *have = g_strdup_value_contents (&current);
              return fail (error, where, "the %s its parent made has %s = %s, the JSON says %s",
                           G_OBJECT_TYPE_NAME (m), name, have, want);
            }
        }
      else
        g_object_set_property (G_OBJECT (m), name, &v);
    }
  return TRUE;
}

/* The parameter or buffer slots of @m from the JSON array @node (see the top of the file):
 * a slot its setup made must be listed, with the shape and dtype it has; a missing one is
 * added, holding zeros; names setup reserved as None that the JSON lacks go, and the rest
 * take its order. Without the member, setup's slots stay as they are. */
static gboolean
fill_slots (GnnModule *m, JsonNode *node, gboolean buffers, const char *where, GError **error)
{
  GnnModulePrivate *priv = gnn_module_priv (m);
  GPtrArray *slots = buffers ? priv->buffers : priv->parameters;
  const char *kind = buffers ? "buffer" : "parameter";
  g_autoptr(GPtrArray) order = g_ptr_array_new ();
  JsonArray *a;

  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    return TRUE;
  if (!JSON_NODE_HOLDS_ARRAY (node))
    return fail (error, where, "expected \"%s\" to be an array, found %s", buffers ? "buffers" : "parameters",
                 node_kind (node));
  a = json_node_get_array (node);
  for (guint i = 0; i < json_array_get_length (a); i++)
    {
      g_autofree char *ewhere = g_strdup_printf ("%s.%s[%u]", where, buffers ? "buffers" : "parameters", i);
      JsonObject *e = object_of (json_array_get_element (a, i), ewhere, buffers ? "a buffer" : "a parameter", error);
      JsonNode *name_node, *shape_node_, *flag;
      const char *name;
      g_autofree char *what = NULL;
      GnnModuleSlot *slot;
      gint64 shape[16];
      guint ndim;
      GnnDtype dtype;

      if (e == NULL)
        return FALSE;
      name_node = json_object_get_member (e, "name");
      if (!is_value (name_node, G_TYPE_STRING))
        return fail (error, ewhere, "expected \"name\" to be a string, found %s", node_kind (name_node));
      name = json_node_get_string (name_node);
      for (guint k = 0; k < order->len; k++)
        if (g_str_equal (order->pdata[k], name))
          return fail (error, ewhere, "the %s name '%s' appears twice", kind, name);
      what = g_strdup_printf ("%s '%s'", kind, name);
      slot = gnn_module_find_slot (slots, name);
      shape_node_ = json_object_get_member (e, "shape");
      flag = json_object_get_member (e, buffers ? "persistent" : "requires-grad");
      if (flag && !is_value (flag, G_TYPE_BOOLEAN))
        return fail (error, ewhere, "expected \"%s\" to be a boolean, found %s",
                     buffers ? "persistent" : "requires-grad", node_kind (flag));

      if (shape_node_ == NULL)
        return fail (error, ewhere, "%s: expected \"shape\" (an array of sizes, or null for a name "
                     "registered as None), found nothing", what);
      if (JSON_NODE_HOLDS_NULL (shape_node_))
        {
          /* a name registered as None */
          if (slot)
            g_clear_object (&slot->value);
          else if (!(buffers ? gnn_module_register_buffer (m, name, NULL, TRUE, error)
                             : gnn_module_register_parameter (m, name, NULL, error)))
            {
              g_prefix_error (error, "module JSON at %s: ", ewhere);
              return FALSE;
            }
          g_ptr_array_add (order, (gpointer) name);
          continue;
        }
      if (!shape_of (shape_node_, ewhere, what, shape, &ndim, error) ||
          !dtype_of (json_object_get_member (e, "dtype"), ewhere, what, &dtype, error))
        return FALSE;

      if (slot && slot->value)
        {
          /* made by setup: it must be the tensor the JSON describes */
          GnnTensor *t = GNN_TENSOR (slot->value);
          guint have_ndim;
          const gint64 *have = gnn_tensor_get_shape (t, &have_ndim);

          if (have_ndim != ndim || (ndim && memcmp (have, shape, ndim * sizeof (gint64)) != 0) ||
              gnn_tensor_get_dtype (t) != dtype)
            {
              g_autofree char *hs = gnn_shape_to_string (have_ndim, have);
              g_autofree char *ws = gnn_shape_to_string (ndim, shape);
              return fail (error, ewhere, "the %s made %s of shape %s and dtype %s, the JSON says shape %s "
                           "and dtype %s", G_OBJECT_TYPE_NAME (m), what, hs,
                           gnn_dtype_get_name (gnn_tensor_get_dtype (t)), ws, gnn_dtype_get_name (dtype));
            }
          if (buffers && flag)
            slot->persistent = json_node_get_boolean (flag);
          else if (!buffers && flag && gnn_tensor_get_requires_grad (t) != json_node_get_boolean (flag) &&
                   !gnn_tensor_set_requires_grad (t, json_node_get_boolean (flag), error))
            {
              g_prefix_error (error, "module JSON at %s: ", ewhere);
              return FALSE;
            }
        }
      else
        {
          g_autoptr(GnnTensor) zeros = gnn_tensor_new_zeros (shape, ndim, dtype, NULL, error);
          gboolean ok;

          if (zeros == NULL)
            {
              g_prefix_error (error, "module JSON at %s: ", ewhere);
              return FALSE;
            }
          if (buffers)
            ok = gnn_module_register_buffer (m, name, zeros, flag ? json_node_get_boolean (flag) : TRUE, error);
          else
            {
              g_autoptr(GnnParameter) p = gnn_parameter_new (zeros, flag ? json_node_get_boolean (flag) : TRUE,
                                                             error);
              ok = p && gnn_module_register_parameter (m, name, p, error);
            }
          if (!ok)
            {
              g_prefix_error (error, "module JSON at %s: ", ewhere);
              return FALSE;
            }
        }
      g_ptr_array_add (order, (gpointer) name);
    }

  /* the JSON lists every slot: a tensor setup made must be there (an empty list on a
   * Linear would load it without its weights); a name setup registered as None and the JSON
   * lacks goes; the rest take the JSON's order */
  for (guint k = 0; k < slots->len; k++)
    {
      GnnModuleSlot *slot = slots->pdata[k];
      gboolean listed = FALSE;

      for (guint i = 0; i < order->len && !listed; i++)
        listed = g_str_equal (slot->name, order->pdata[i]);
      if (!listed && slot->value)
        return fail (error, where, "\"%s\" lacks the %s '%s', which a %s makes (expected every %s of "
                     "the type, as to_json writes them)", buffers ? "buffers" : "parameters", kind, slot->name,
                     G_OBJECT_TYPE_NAME (m), kind);
    }
  {
    g_autoptr(GPtrArray) ordered = g_ptr_array_new ();

    for (guint i = 0; i < order->len; i++)
      for (guint k = 0; k < slots->len; k++)
        if (g_str_equal (((GnnModuleSlot *) slots->pdata[k])->name, order->pdata[i]))
          {
            g_ptr_array_add (ordered, g_ptr_array_steal_index (slots, k));
            break;
          }
    g_ptr_array_set_size (slots, 0);
    for (guint i = 0; i < ordered->len; i++)
      g_ptr_array_add (slots, ordered->pdata[i]);
  }
  return TRUE;
}

/* ---- computed tensors: parametrizations, pruning, the hook-based norms ---------------- */

static void
ensure_computed_types (void)
{
  g_type_ensure (GNN_TYPE_PARAMETRIZATION_LIST);
  g_type_ensure (GNN_TYPE_SPECTRAL_NORM);
  g_type_ensure (GNN_TYPE_ORTHOGONAL);
  g_type_ensure (GNN_TYPE_WEIGHT_NORM);
  g_type_ensure (GNN_TYPE_PRUNING_CONTAINER);
  g_type_ensure (GNN_TYPE_PRUNING_IDENTITY);
  g_type_ensure (GNN_TYPE_RANDOM_UNSTRUCTURED);
  g_type_ensure (GNN_TYPE_L1_UNSTRUCTURED);
  g_type_ensure (GNN_TYPE_RANDOM_STRUCTURED);
  g_type_ensure (GNN_TYPE_LN_STRUCTURED);
  g_type_ensure (GNN_TYPE_CUSTOM_FROM_MASK);
}

/* a pruning method from pruning_method_node's form */
static GnnBasePruningMethod *
method_from_node (JsonNode *node, const char *where, guint depth, GError **error)
{
  JsonObject *obj = object_of (node, where, "a pruning method", error);
  JsonNode *type_node, *props_node, *methods;
  JsonObject *props = NULL;
  const char *type_name;
  GType type;
  g_autoptr(GPtrArray) names = g_ptr_array_new ();
  g_autoptr(GArray) values = g_array_new (FALSE, TRUE, sizeof (GValue));
  g_autoptr(GList) members = NULL;
  g_autoptr(GnnBasePruningMethod) method = NULL;
  GObjectClass *klass;

  g_array_set_clear_func (values, (GDestroyNotify) g_value_unset);
  if (obj == NULL)
    return NULL;
  if (depth > MAX_DEPTH)
    {
      fail (error, where, "the pruning methods are nested deeper than %d levels", MAX_DEPTH);
      return NULL;
    }
  type_node = json_object_get_member (obj, "type");
  if (!is_value (type_node, G_TYPE_STRING))
    {
      fail (error, where, "expected \"type\" to be a string, found %s", node_kind (type_node));
      return NULL;
    }
  type_name = json_node_get_string (type_node);
  type = g_type_from_name (type_name);
  if (type == 0 || !g_type_is_a (type, GNN_TYPE_BASE_PRUNING_METHOD) || G_TYPE_IS_ABSTRACT (type))
    {
      fail (error, where, "expected the name of a pruning method type, found '%s', which %s", type_name,
            type == 0 ? "is not registered (a class from a binding must be defined, with its type name, "
                        "before loading)"
            : !g_type_is_a (type, GNN_TYPE_BASE_PRUNING_METHOD) ? "is not a GnnBasePruningMethod" : "is abstract");
      return NULL;
    }
  props_node = json_object_get_member (obj, "properties");
  if (props_node && !JSON_NODE_HOLDS_NULL (props_node) &&
      !(props = object_of (props_node, where, "\"properties\"", error)))
    return NULL;
  klass = g_type_class_ref (type);
  if (props)
    members = json_object_get_members (props);
  for (GList *l = members; l; l = l->next)
    {
      GParamSpec *pspec = g_object_class_find_property (klass, l->data);
      GValue v = G_VALUE_INIT;

      if (pspec == NULL || (pspec->flags & G_PARAM_READWRITE) != G_PARAM_READWRITE)
        {
          g_type_class_unref (klass);
          fail (error, where, "%s has no readable and writable property '%s'", type_name, (const char *) l->data);
          return NULL;
        }
      if (!node_to_value (pspec, json_object_get_member (props, l->data), where, &v, error))
        {
          g_value_unset (&v);
          g_type_class_unref (klass);
          return NULL;
        }
      g_ptr_array_add (names, (gpointer) pspec->name);
      g_array_append_val (values, v);
    }
  g_type_class_unref (klass);
  method = GNN_BASE_PRUNING_METHOD (g_object_new_with_properties (type, names->len, (const char **) names->pdata,
                                                                  (const GValue *) values->data));
  methods = json_object_get_member (obj, "methods");
  if (methods && !GNN_IS_PRUNING_CONTAINER (method))
    {
      fail (error, where, "\"methods\" belongs to a GnnPruningContainer, found it in a %s", type_name);
      return NULL;
    }
  if (GNN_IS_PRUNING_CONTAINER (method))
    {
      JsonArray *a;

      if (methods == NULL || !JSON_NODE_HOLDS_ARRAY (methods))
        {
          fail (error, where, "expected \"methods\" to be an array of pruning methods, found %s",
                node_kind (methods));
          return NULL;
        }
      a = json_node_get_array (methods);
      for (guint i = 0; i < json_array_get_length (a); i++)
        {
          g_autofree char *mwhere = g_strdup_printf ("%s.methods[%u]", where, i);
          g_autoptr(GnnBasePruningMethod) sub = method_from_node (json_array_get_element (a, i), mwhere,
                                                                  depth + 1, error);

          if (sub == NULL)
            return NULL;
          if (!gnn_pruning_container_add_pruning_method (GNN_PRUNING_CONTAINER (method), sub, error))
            {
              g_prefix_error (error, "module JSON at %s: ", mwhere);
              return NULL;
            }
        }
    }
  return g_steal_pointer (&method);
}

/* The "hooks" of @obj (see write_computed_tensors) made again on @m, before its slots are
 * read: each replaces a parameter by the tensors the JSON then lists. */
static gboolean
read_hooks (GnnModule *m, JsonObject *obj, const char *where, gboolean fresh, GError **error)
{
  JsonNode *node = json_object_get_member (obj, "hooks");
  JsonArray *a;

  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    return TRUE;
  if (!JSON_NODE_HOLDS_ARRAY (node))
    return fail (error, where, "expected \"hooks\" to be an array, found %s", node_kind (node));
  a = json_node_get_array (node);
  for (guint i = 0; i < json_array_get_length (a); i++)
    {
      g_autofree char *hwhere = g_strdup_printf ("%s.hooks[%u]", where, i);
      JsonObject *e = object_of (json_array_get_element (a, i), hwhere, "a hook", error);
      JsonNode *kind_node, *tensor_node, *dim_node;
      const char *kind, *tensor;
      gboolean ok;

      if (e == NULL)
        return FALSE;
      kind_node = json_object_get_member (e, "kind");
      tensor_node = json_object_get_member (e, "tensor");
      if (!is_value (kind_node, G_TYPE_STRING))
        return fail (error, hwhere, "expected \"kind\" to be a string, found %s", node_kind (kind_node));
      if (!is_value (tensor_node, G_TYPE_STRING))
        return fail (error, hwhere, "expected \"tensor\" to be a tensor name, found %s", node_kind (tensor_node));
      kind = json_node_get_string (kind_node);
      tensor = json_node_get_string (tensor_node);
      dim_node = json_object_get_member (e, "dim");
      if (g_str_equal (kind, "prune"))
        {
          g_autofree char *mwhere = g_strdup_printf ("%s.method", hwhere);
          g_autoptr(GnnBasePruningMethod) method = method_from_node (json_object_get_member (e, "method"), mwhere,
                                                                     0, error);

          if (method == NULL)
            return FALSE;
          ok = gnn_prune_restore (m, tensor, method, error);
        }
      else if (g_str_equal (kind, "weight_norm") || g_str_equal (kind, "spectral_norm"))
        {
          if (!is_value (dim_node, G_TYPE_INT64) || json_node_get_int (dim_node) < G_MININT ||
              json_node_get_int (dim_node) > G_MAXINT)
            return fail (error, hwhere, "%s of '%s': expected \"dim\" to be an integer, found %s", kind, tensor,
                         node_kind (dim_node));
          if (g_str_equal (kind, "weight_norm"))
            ok = gnn_weight_norm_restore (m, tensor, (int) json_node_get_int (dim_node), error);
          else
            {
              JsonNode *n_node = json_object_get_member (e, "n-power-iterations");
              JsonNode *eps_node = json_object_get_member (e, "eps");
              double eps;

              if (!is_value (n_node, G_TYPE_INT64) || json_node_get_int (n_node) < 1 ||
                  json_node_get_int (n_node) > G_MAXINT)
                return fail (error, hwhere, "spectral_norm of '%s': expected \"n-power-iterations\" to be a "
                             "positive integer, found %s", tensor, node_kind (n_node));
              if (is_value (eps_node, G_TYPE_DOUBLE))
                eps = json_node_get_double (eps_node);
              else if (is_value (eps_node, G_TYPE_INT64))
                eps = (double) json_node_get_int (eps_node);
              else
                return fail (error, hwhere, "spectral_norm of '%s': expected \"eps\" to be a number, found %s",
                             tensor, node_kind (eps_node));
              ok = gnn_spectral_norm_hook_restore (m, tensor, (int) json_node_get_int (n_node), eps,
                                                   (int) json_node_get_int (dim_node), fresh, error);
            }
        }
      else
        return fail (error, hwhere, "expected \"kind\" to be \"prune\", \"weight_norm\" or \"spectral_norm\", "
                     "found '%s'", kind);
      if (!ok)
        {
          g_prefix_error (error, "module JSON at %s: %s of '%s': ", hwhere, kind, tensor);
          return FALSE;
        }
    }
  return TRUE;
}

typedef struct {
  char *name;
  GnnTensor *setup;    /* the tensor setup made under the name, or NULL */
  gboolean unsafe;
} Parametrized;

static void
parametrized_clear (Parametrized *p)
{
  g_free (p->name);
  g_clear_object (&p->setup);
}

/* The "parametrized" entries of @obj into @out: each tensor setup made under such a name
 * leaves @m (the rebuilt "parametrizations" holds its original), kept to check the original
 * against. */
static gboolean
take_parametrized (GnnModule *m, JsonObject *obj, const char *where, GArray *out, GError **error)
{
  JsonNode *node = json_object_get_member (obj, "parametrized");
  JsonArray *a;

  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    return TRUE;
  if (!JSON_NODE_HOLDS_ARRAY (node))
    return fail (error, where, "expected \"parametrized\" to be an array, found %s", node_kind (node));
  a = json_node_get_array (node);
  for (guint i = 0; i < json_array_get_length (a); i++)
    {
      g_autofree char *pwhere = g_strdup_printf ("%s.parametrized[%u]", where, i);
      JsonObject *e = object_of (json_array_get_element (a, i), pwhere, "a parametrized tensor", error);
      JsonNode *tensor_node, *unsafe_node;
      Parametrized p = { NULL, NULL, FALSE };
      GnnTensor *t;

      if (e == NULL)
        return FALSE;
      tensor_node = json_object_get_member (e, "tensor");
      unsafe_node = json_object_get_member (e, "unsafe");
      if (!is_value (tensor_node, G_TYPE_STRING))
        return fail (error, pwhere, "expected \"tensor\" to be a tensor name, found %s", node_kind (tensor_node));
      if (unsafe_node && !is_value (unsafe_node, G_TYPE_BOOLEAN))
        return fail (error, pwhere, "expected \"unsafe\" to be a boolean, found %s", node_kind (unsafe_node));
      for (guint k = 0; k < out->len; k++)
        if (g_str_equal (g_array_index (out, Parametrized, k).name, json_node_get_string (tensor_node)))
          return fail (error, pwhere, "the tensor '%s' is listed twice", json_node_get_string (tensor_node));
      p.name = g_strdup (json_node_get_string (tensor_node));
      p.unsafe = unsafe_node && json_node_get_boolean (unsafe_node);
      t = GNN_TENSOR (gnn_module_find_parameter (m, p.name));
      if (t == NULL)
        t = gnn_module_get_buffer (m, p.name, NULL);
      if (t)
        {
          p.setup = g_object_ref (t);
          gnn_module_remove (m, p.name);
        }
      g_array_append_val (out, p);
    }
  return TRUE;
}

/* The children of @m from the JSON array @children (see the top of the file), then the
 * training flag. */
static gboolean
fill_children (GnnModule *m, JsonObject *obj, const char *where, const char *path, guint depth, Reader *r,
               GError **error)
{
  GnnModulePrivate *priv = gnn_module_priv (m);
  JsonNode *cnode = json_object_get_member (obj, "children");
  JsonNode *tnode = json_object_get_member (obj, "training");
  g_autoptr(GPtrArray) order = g_ptr_array_new ();
  g_autoptr(GArray) parametrized = g_array_new (FALSE, TRUE, sizeof (Parametrized));
  JsonArray *children;
  guint n;

  g_array_set_clear_func (parametrized, (GDestroyNotify) parametrized_clear);
  if (cnode && !JSON_NODE_HOLDS_NULL (cnode) && !JSON_NODE_HOLDS_ARRAY (cnode))
    return fail (error, where, "expected \"children\" to be an array, found %s", node_kind (cnode));
  if (tnode && !is_value (tnode, G_TYPE_BOOLEAN))
    return fail (error, where, "expected \"training\" to be a boolean, found %s", node_kind (tnode));
  children = cnode && JSON_NODE_HOLDS_ARRAY (cnode) ? json_node_get_array (cnode) : NULL;
  n = children ? json_array_get_length (children) : 0;

  if (!read_hooks (m, obj, where, !r->skip_init, error) ||
      !take_parametrized (m, obj, where, parametrized, error) ||
      !fill_slots (m, json_object_get_member (obj, "parameters"), FALSE, where, error) ||
      !fill_slots (m, json_object_get_member (obj, "buffers"), TRUE, where, error))
    return FALSE;

  g_ptr_array_add (r->filling, m);

  for (guint i = 0; i < n; i++)
    {
      g_autofree char *cwhere = g_strdup_printf ("%s.children[%u]", where, i);
      g_autofree char *mwhere = NULL;
      g_autofree char *cpath = NULL;
      JsonNode *shared = NULL;
      JsonObject *child = object_of (json_array_get_element (children, i), cwhere, "a child", error);
      JsonNode *name_node, *mnode;
      const char *name;
      GnnModuleSlot *slot;

      if (child == NULL)
        return FALSE;
      name_node = json_object_get_member (child, "name");
      if (!is_value (name_node, G_TYPE_STRING))
        return fail (error, cwhere, "expected \"name\" to be a string, found %s", node_kind (name_node));
      name = json_node_get_string (name_node);
      for (guint k = 0; k < order->len; k++)
        if (g_str_equal (order->pdata[k], name))
          return fail (error, cwhere, "the child name '%s' appears twice", name);
      mwhere = g_strdup_printf ("%s.module", cwhere);
      cpath = path[0] ? g_strconcat (path, ".", name, NULL) : g_strdup (name);
      mnode = json_object_get_member (child, "module");
      if (mnode == NULL)
        return fail (error, cwhere, "the child '%s': expected \"module\" (a module, {\"shared\": path} or "
                     "null for a name registered as None), found nothing", name);
      slot = gnn_module_find_slot (priv->modules, name);
      if (mnode && JSON_NODE_HOLDS_OBJECT (mnode))
        shared = json_object_get_member (json_node_get_object (mnode), "shared");

      if (shared)
        {
          /* a module met earlier in the tree, registered here too */
          GnnModule *same;

          if (!is_value (shared, G_TYPE_STRING))
            return fail (error, mwhere, "expected \"shared\" to be a string, found %s", node_kind (shared));
          /* {"shared": path} stands for a module described elsewhere: anything beside it would be
           * dropped, and an entry such as {"shared": …, "type": …} is ambiguous */
          if (json_object_get_size (json_node_get_object (mnode)) != 1)
            {
              g_autoptr(GList) members = json_object_get_members (json_node_get_object (mnode));

              for (GList *l = members; l; l = l->next)
                if (!g_str_equal (l->data, "shared"))
                  return fail (error, mwhere, "expected {\"shared\": path} alone, found the member \"%s\" "
                               "beside it", (const char *) l->data);
            }
          same = g_hash_table_lookup (r->by_path, json_node_get_string (shared));
          if (same == NULL)
            return fail (error, mwhere, "\"shared\" refers to '%s', which is no module built before it",
                         json_node_get_string (shared));
          /* a module that holds this place: sharing it would make the tree a cycle */
          if (g_ptr_array_find (r->filling, same, NULL))
            return fail (error, mwhere, "\"shared\" refers to '%s'%s, which holds '%s': the tree would be "
                         "a cycle (expected a module that is not an ancestor)", json_node_get_string (shared),
                         json_node_get_string (shared)[0] ? "" : " (the root)", cpath);
          if (slot)
            g_set_object (&slot->value, G_OBJECT (same));
          else if (!gnn_module_register_module (m, name, same, error))
            {
              g_prefix_error (error, "module JSON at %s: ", cwhere);
              return FALSE;
            }
        }
      else if (JSON_NODE_HOLDS_NULL (mnode))
        {
          if (slot)
            g_clear_object (&slot->value);
          else if (!gnn_module_register_module (m, name, NULL, error))
            return FALSE;
        }
      else if (slot && slot->value)
        {
          /* made by the parent's setup: the JSON describes it, it is not added twice */
          JsonObject *cobj = object_of (mnode, mwhere, "a module", error);
          JsonNode *type_node, *props_node;
          GnnModule *existing = GNN_MODULE (slot->value);

          if (cobj == NULL)
            return FALSE;
          type_node = json_object_get_member (cobj, "type");
          if (!is_value (type_node, G_TYPE_STRING))
            return fail (error, mwhere, "expected \"type\" to be a string, found %s", node_kind (type_node));
          if (!g_str_equal (json_node_get_string (type_node), G_OBJECT_TYPE_NAME (existing)))
            return fail (error, mwhere, "%s made its child '%s' a %s, the JSON says %s", G_OBJECT_TYPE_NAME (m),
                         name, G_OBJECT_TYPE_NAME (existing), json_node_get_string (type_node));
          props_node = json_object_get_member (cobj, "properties");
          if (props_node && !JSON_NODE_HOLDS_NULL (props_node))
            {
              JsonObject *props = object_of (props_node, mwhere, "\"properties\"", error);
              if (props == NULL || !apply_to_existing (existing, props, mwhere, error))
                return FALSE;
            }
          if (depth + 1 > MAX_DEPTH)
            return fail (error, mwhere, "the tree is deeper than %d levels", MAX_DEPTH);
          g_hash_table_insert (r->by_path, g_strdup (cpath), existing);
          if (!fill_children (existing, cobj, mwhere, cpath, depth + 1, r, error))
            return FALSE;
        }
      else
        {
          g_autoptr(GnnModule) built = node_to_module (mnode, mwhere, cpath, depth + 1, r, error);

          if (built == NULL)
            return FALSE;
          if (slot)
            g_set_object (&slot->value, G_OBJECT (built));
          else if (!gnn_module_register_module (m, name, built, error))
            {
              g_prefix_error (error, "module JSON at %s: ", cwhere);
              return FALSE;
            }
        }
      g_ptr_array_add (order, (gpointer) name);
    }

  g_ptr_array_remove_index (r->filling, r->filling->len - 1);

  /* the JSON is the whole tree: a child setup made must be there (it cannot be dropped
   * silently); a name setup reserved as None and the JSON lacks goes; the rest take the
   * JSON's order. Without "children", setup's children stay as they are. */
  for (guint k = 0; children && k < priv->modules->len; k++)
    {
      GnnModuleSlot *slot = priv->modules->pdata[k];
      gboolean listed = FALSE;

      for (guint i = 0; i < order->len && !listed; i++)
        listed = g_str_equal (slot->name, order->pdata[i]);
      if (!listed && slot->value)
        return fail (error, where, "\"children\" lacks the child '%s', which a %s makes (expected every "
                     "child of the type, as to_json writes them)", slot->name, G_OBJECT_TYPE_NAME (m));
    }
  if (children)
    {
      g_autoptr(GPtrArray) ordered = g_ptr_array_new ();

      for (guint i = 0; i < order->len; i++)
        for (guint k = 0; k < priv->modules->len; k++)
          if (g_str_equal (((GnnModuleSlot *) priv->modules->pdata[k])->name, order->pdata[i]))
            {
              g_ptr_array_add (ordered, g_ptr_array_steal_index (priv->modules, k));
              break;
            }
      g_ptr_array_set_size (priv->modules, 0);
      for (guint i = 0; i < ordered->len; i++)
        g_ptr_array_add (priv->modules, ordered->pdata[i]);
    }

  /* the rebuilt "parametrizations" makes the listed tensors computed again */
  for (guint i = 0; i < parametrized->len; i++)
    {
      Parametrized *p = &g_array_index (parametrized, Parametrized, i);

      if (!gnn_parametrize_restore (m, p->name, p->setup, p->unsafe, !r->skip_init, error))
        {
          g_prefix_error (error, "module JSON at %s.parametrized[%u]: ", where, i);
          return FALSE;
        }
    }

  if (tnode)
    priv->training = json_node_get_boolean (tnode);
  return TRUE;
}

static GnnModule *
node_to_module (JsonNode *node, const char *where, const char *path, guint depth, Reader *r, GError **error)
{
  JsonObject *obj, *props = NULL;
  JsonNode *type_node, *props_node;
  const char *type_name;
  GType type;
  g_autoptr(GnnModule) module = NULL;
  g_autoptr(GPtrArray) names = g_ptr_array_new ();
  g_autoptr(GArray) values = g_array_new (FALSE, TRUE, sizeof (GValue));
  g_autoptr(GList) members = NULL;
  GObjectClass *klass;

  g_array_set_clear_func (values, (GDestroyNotify) g_value_unset);
  if (depth > MAX_DEPTH)
    {
      fail (error, where, "the tree is deeper than %d levels", MAX_DEPTH);
      return NULL;
    }
  if (!(obj = object_of (node, where, "a module", error)))
    return NULL;
  type_node = json_object_get_member (obj, "type");
  if (!is_value (type_node, G_TYPE_STRING))
    {
      fail (error, where, "expected \"type\" to be a string, found %s", node_kind (type_node));
      return NULL;
    }
  type_name = json_node_get_string (type_node);
  props_node = json_object_get_member (obj, "properties");
  if (props_node && !JSON_NODE_HOLDS_NULL (props_node) &&
      !(props = object_of (props_node, where, "\"properties\"", error)))
    return NULL;

  /* gnn's own types are registered by the call below; look the type up after a first try */
  type = g_type_from_name (type_name);
  if (type == 0)
    {
      g_autoptr(GnnModule) probe = NULL;
      /* gnn_module_new_from_type_name registers gnn's types, then reports the unknown name */
      probe = gnn_module_new_from_type_name ("GnnIdentity", 0, NULL, NULL, NULL);
      type = g_type_from_name (type_name);
    }
  if (type == 0 || !g_type_is_a (type, GNN_TYPE_MODULE) || G_TYPE_IS_ABSTRACT (type))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "module JSON at %s%s%s%s: expected the name of a module type, found '%s', which %s", where,
                   path[0] ? " (the module '" : "", path, path[0] ? "')" : "", type_name,
                   type == 0 ? "is not registered (a class from a binding must be defined, with its "
                               "type name, before loading)"
                   : !g_type_is_a (type, GNN_TYPE_MODULE) ? "is not a GnnModule" : "is abstract");
      return NULL;
    }

  klass = g_type_class_ref (type);
  if (props)
    members = json_object_get_members (props);
  for (GList *l = members; l; l = l->next)
    {
      const char *name = l->data;
      GParamSpec *pspec = g_object_class_find_property (klass, name);
      GValue v = G_VALUE_INIT;

      if (pspec == NULL || !property_is_saved (type, pspec))
        {
          g_type_class_unref (klass);
          fail (error, where, "%s has no readable and writable property '%s'", type_name, name);
          return NULL;
        }
      if (!node_to_value (pspec, json_object_get_member (props, name), where, &v, error))
        {
          g_value_unset (&v);
          g_type_class_unref (klass);
          return NULL;
        }
      g_ptr_array_add (names, (gpointer) pspec->name);
      g_array_append_val (values, v);
    }
  g_type_class_unref (klass);

  if (r->skip_init)
    module = gnn_module_new_skip_init (type_name, names->len, (const char **) names->pdata,
                                       (const GValue *) values->data, error);
  else
    module = gnn_module_new_from_type_name (type_name, names->len, (const char **) names->pdata,
                                            (const GValue *) values->data, error);
  if (module == NULL)
    {
      g_prefix_error (error, "module JSON at %s: ", where);
      return NULL;
    }
  g_hash_table_insert (r->by_path, g_strdup (path), module);
  if (!fill_children (module, obj, where, path, depth, r, error))
    return NULL;
  return g_steal_pointer (&module);
}

/* Also used by the checkpoint code, with @skip_init when the weights come from the file. */
GnnModule *
gnn_module_new_from_json_node_full (JsonNode  *node,
                                    gboolean   skip_init,
                                    GError   **error)
{
  Reader r = { skip_init, NULL, NULL };
  GnnModule *m;

  g_return_val_if_fail (node != NULL, NULL);
  ensure_computed_types ();
  r.by_path = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  r.filling = g_ptr_array_new ();
  m = node_to_module (node, "$", "", 0, &r, error);
  g_hash_table_unref (r.by_path);
  g_ptr_array_unref (r.filling);
  return m;
}

GnnModule *
gnn_module_new_from_json_node (JsonNode  *node,
                               GError   **error)
{
  return gnn_module_new_from_json_node_full (node, FALSE, error);
}

/* parses @json into a node; FALSE with a GNN_ERROR_FILE_FORMAT error */
JsonNode *
gnn_json_parse (const char *json, gssize length, const char *what, GError **error)
{
  g_autoptr(JsonParser) parser = json_parser_new_immutable ();
  GError *local = NULL;
  JsonNode *root;

  if (length < 0)
    length = strlen (json);
  if (!g_utf8_validate_len (json, length, NULL))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_FILE_FORMAT, "%s: expected UTF-8 JSON text, found invalid UTF-8", what);
      return NULL;
    }
  if (!gnn_json_scan (json, length, GNN_JSON_MAX_DEPTH, what, error))
    return NULL;
  if (!json_parser_load_from_data (parser, json, length, &local))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_FILE_FORMAT, "%s: not valid JSON: %s", what, local->message);
      g_error_free (local);
      return NULL;
    }
  root = json_parser_get_root (parser);
  if (root == NULL)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_FILE_FORMAT, "%s: expected a JSON object, found an empty text", what);
      return NULL;
    }
  return json_node_ref (root);
}

/**
 * gnn_module_new_from_json:
 * @json: JSON text from [method@Gnn.Module.to_json]
 * @length: the length of @json in bytes, or -1 when it ends with a NUL byte
 * @error: return location for a #GError
 *
 * Rebuilds a module tree from its JSON architecture ([method@Gnn.Module.to_json]). Each
 * module is created by type name ([ctor@Gnn.Module.new_from_type_name]) with the properties
 * the JSON gives, so its `setup` runs and its parameters are freshly initialised; load
 * the weights afterwards ([method@Gnn.Module.load_state_dict]). Then its children are
 * taken in order: a child that the module's setup already made under that name (a layer
 * built by a composite module) must have the type the JSON names; its read-write properties
 * are set from the JSON, its construct-only ones must equal the JSON's, and its own
 * children are handled the same way; any other child (those of containers such as
 * [class@Gnn.Sequential], or added after construction) is built from the JSON and added.
 * Every child entry needs its `"name"` and its `"module"` (a module, `{"shared": path}`, or
 * `null` for a name registered as None). A `"children"` array must list every child that
 * setup made (a name setup reserved as None may be left out, and goes); children take the
 * JSON's order. Without `"children"`, the children setup made stay as they are. A
 * `"shared"` child refers to a module built before it by its dotted path (`""` the root),
 * never to one that holds it (an ancestor), which would make the tree a cycle, and stands
 * alone in its object (no member beside `"shared"`). Parameter
 * and buffer slots are handled alike: each needs its `"name"` and its `"shape"` (`null` for
 * None) and, with a shape, its `"dtype"`; a `"parameters"` (`"buffers"`) array must list
 * every tensor setup made, with the shape and dtype it has, so that an empty list on a
 * [class@Gnn.Linear] is an error, not a Linear without weights; one setup did not make (a
 * [class@Gnn.ParameterList]'s, a [class@Gnn.ParameterDict]'s) is added holding zeros of that
 * shape and dtype, ready for the state dict; without the member, setup's tensors stay. Last,
 * each module's training flag is set. The `"hooks"` of a module are made again before its
 * slots are read (each replaces a parameter by the tensors the slots then list), the
 * `"parametrized"` tensors after its children (the setup's tensor goes; without `unsafe` a
 * single `original` must have its shape and dtype): a file naming an unknown parametrization
 * or pruning method, lacking `parametrizations.<name>`, an original or a tensor a hook needs,
 * or holding a tensor of another shape (such as a mask) is a %GNN_ERROR_FILE_FORMAT error
 * naming it. Files written before these members existed load as before. Whatever the loader accepts, [method@Gnn.Module.to_json]
 * writes back as JSON that loads to a tree writing the same JSON.
 *
 * Types from the bindings (Python, gjs, Vala subclasses) must be registered under the name
 * the JSON holds before loading: define the class, with a stable `__gtype_name__` (Python)
 * or `GTypeName` (gjs).
 *
 * The text is read as strict JSON (RFC 8259) and checked before it is parsed: arrays and
 * objects nested at most 640 deep (what a tree of 200 modules needs, with room to spare;
 * json-glib's parser recurses per level), no member name twice in one object (json-glib
 * would keep the last without a word), no comments or single-quoted strings. Brackets
 * inside strings are only text. The error names the depth or the name and the byte offset.
 * The same checks guard every JSON text gnn reads from a file: safetensors headers (128
 * levels deep at most) and the model JSON of checkpoints.
 *
 * Returns: (transfer full): the module, or %NULL with @error set: %GNN_ERROR_FILE_FORMAT for
 *   text that is not JSON or not a module tree (a missing member, a value of the wrong
 *   kind, an unknown property, a tensor or child that setup made and a list leaves out, a
 *   `"shared"` naming an ancestor or with a member beside it, a tree deeper than 200
 *   modules, nesting deeper than 640, a name twice in one object), %GNN_ERROR_INVALID_ARGUMENT
 *   for a type name that is not a registered, instantiable module type, or the error of a
 *   setup that failed
 */
GnnModule *
gnn_module_new_from_json (const char *json,
                          gssize      length,
                          GError    **error)
{
  g_autoptr(JsonNode) root = NULL;

  g_return_val_if_fail (json != NULL || length == 0, NULL);
  root = gnn_json_parse (json ? json : "", length, "module JSON", error);
  if (root == NULL)
    return NULL;
  return gnn_module_new_from_json_node_full (root, FALSE, error);
}
