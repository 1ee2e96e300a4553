/* gnn-onnx.c: a traced graph written as an ONNX model (protobuf-c, onnx.proto of libonnx-dev)
 *
 * Each node of the graph becomes one ONNX node or a few: a call of one of gnn's modules the
 * operator of that layer (Linear a Gemm, Conv2d a Conv, ...), with the module's parameters and
 * buffers as initializers under their state-dict keys (`features.0.weight`); a call of an
 * operator or of one of gnn's functions its operator; a layer opset 17 has no operator for
 * (MultiheadAttention, the Transformer layers, GroupNorm, Mish, ...) the composition torch 1.13
 * writes, from its submodules' forms. Values keep the graph's node names, so that the ONNX
 * graph reads as the traced one. What has no ONNX form here is a GError naming the node and
 * its target. doc/onnx.md lists every form.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "core/gnn-error.h"
#include "core/gnn-tensor.h"
#include "nn/gnn-activation.h"
#include "nn/gnn-attention.h"
#include "nn/gnn-conv.h"
#include "nn/gnn-distance.h"
#include "nn/gnn-layers.h"
#include "nn/gnn-layers-more.h"
#include "nn/gnn-linear.h"
#include "nn/gnn-norm.h"
#include "nn/gnn-pad.h"
#include "nn/gnn-pool.h"
#include "nn/gnn-rnn.h"
#include "nn/gnn-transformer.h"
#include "gnn-version.h"
#include "gnn-onnx.h"

/**
 * gnn_onnx_is_available:
 *
 * Whether this build of gnn writes ONNX files: it needs protobuf-c and the ONNX schema
 * (Debian's protobuf-c-compiler, libprotobuf-c-dev and libonnx-dev) at build time, the meson
 * feature `onnx`.
 *
 * Returns: %TRUE when [func@Gnn.onnx_export] can write a file
 *
 * Since: 0.1
 */
gboolean
gnn_onnx_is_available (void)
{
#ifdef GNN_HAVE_ONNX
  return TRUE;
#else
  return FALSE;
#endif
}

#ifdef GNN_HAVE_ONNX

#include "onnx.pb-c.h"
#include "gnn-onnx-private.h"

#define MAX_ATTRS 8
#define MAX_INPUTS 5

typedef struct
{
  GPtrArray *allocs;          /* every block below, g_free'd at the end */
  GPtrArray *nodes;           /* Onnx__NodeProto* */
  GPtrArray *initializers;    /* Onnx__TensorProto* */
  GPtrArray *inputs, *outputs, *value_info;   /* Onnx__ValueInfoProto* */
  GHashTable *values;         /* graph node name -> ONNX value name (not owned) */
  GHashTable *outputs_named;  /* graph node name -> graph output name */
  GHashTable *initialized;    /* initializer names written */
  GHashTable *parts;          /* "<node>#<k>" of a layer giving a tuple -> ONNX value name */
  GHashTable *aliases;        /* graph node name -> the "<node>#<k>" of a tuple it picks */
  GHashTable *node_names;     /* ONNX node names given (a layer called twice gets _1, _2, ...) */
  GVariant *dynamic_axes;
  GnnModule *root;
  int opset;
} Export;

static gpointer
ex_alloc (Export *ex,
          gsize   size)
{
  gpointer p = g_malloc0 (MAX (size, 1));

  g_ptr_array_add (ex->allocs, p);
  return p;
}

static char *
ex_strdup (Export     *ex,
           const char *s)
{
  char *c = g_strdup (s);

  g_ptr_array_add (ex->allocs, c);
  return c;
}

static char *
ex_printf (Export     *ex,
           const char *format,
           ...) G_GNUC_PRINTF (2, 3);

static char *
ex_printf (Export     *ex,
           const char *format,
           ...)
{
  va_list args;
  char *s;

  va_start (args, format);
  s = g_strdup_vprintf (format, args);
  va_end (args);
  g_ptr_array_add (ex->allocs, s);
  return s;
}

int
gnn_onnx_elem_type (GnnDtype dtype)
{
  switch (dtype)
    {
    case GNN_DTYPE_FLOAT32: return ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT;
    case GNN_DTYPE_FLOAT64: return ONNX__TENSOR_PROTO__DATA_TYPE__DOUBLE;
    case GNN_DTYPE_INT64: return ONNX__TENSOR_PROTO__DATA_TYPE__INT64;
    case GNN_DTYPE_BOOL: return ONNX__TENSOR_PROTO__DATA_TYPE__BOOL;
    case GNN_DTYPE_UINT8: return ONNX__TENSOR_PROTO__DATA_TYPE__UINT8;
    case GNN_DTYPE_FLOAT16: return ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT16;
    case GNN_DTYPE_BFLOAT16: return ONNX__TENSOR_PROTO__DATA_TYPE__BFLOAT16;
    case GNN_DTYPE_INT32: return ONNX__TENSOR_PROTO__DATA_TYPE__INT32;
    case GNN_DTYPE_INT16: return ONNX__TENSOR_PROTO__DATA_TYPE__INT16;
    case GNN_DTYPE_INT8: return ONNX__TENSOR_PROTO__DATA_TYPE__INT8;
    default: return ONNX__TENSOR_PROTO__DATA_TYPE__UNDEFINED;
    }
}

/* ---- nodes and attributes ------------------------------------------------------------- */

static Onnx__NodeProto *
add_node (Export      *ex,
          const char  *op_type,
          const char  *name,
          const char  *output,
          guint        n_inputs,
          const char **inputs)
{
  static const Onnx__NodeProto init = ONNX__NODE_PROTO__INIT;
  Onnx__NodeProto *node = ex_alloc (ex, sizeof *node);

  *node = init;
  node->op_type = ex_strdup (ex, op_type);
  node->name = ex_strdup (ex, name);
  /* ONNX wants node names unique: a second call of one layer is named as torch names it,
   * its name with _1 (then _2, ...) */
  for (guint k = 1; g_hash_table_contains (ex->node_names, node->name); k++)
    node->name = ex_printf (ex, "%s_%u", name, k);
  g_hash_table_add (ex->node_names, node->name);
  node->n_input = n_inputs;
  node->input = ex_alloc (ex, MAX (n_inputs, MAX_INPUTS) * sizeof (char *));
  for (guint i = 0; i < n_inputs; i++)
    node->input[i] = ex_strdup (ex, inputs[i]);
  node->n_output = 1;
  node->output = ex_alloc (ex, sizeof (char *));
  node->output[0] = ex_strdup (ex, output);
  node->attribute = ex_alloc (ex, MAX_ATTRS * sizeof (Onnx__AttributeProto *));
  g_ptr_array_add (ex->nodes, node);
  return node;
}

static Onnx__AttributeProto *
add_attr (Export          *ex,
          Onnx__NodeProto *node,
          const char      *name,
          Onnx__AttributeProto__AttributeType type)
{
  static const Onnx__AttributeProto init = ONNX__ATTRIBUTE_PROTO__INIT;
  Onnx__AttributeProto *a = ex_alloc (ex, sizeof *a);

  g_assert (node->n_attribute < MAX_ATTRS);
  *a = init;
  a->name = ex_strdup (ex, name);
  a->has_type = TRUE;
  a->type = type;
  node->attribute[node->n_attribute++] = a;
  return a;
}

static void
attr_int (Export          *ex,
          Onnx__NodeProto *node,
          const char      *name,
          gint64           value)
{
  Onnx__AttributeProto *a = add_attr (ex, node, name, ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__INT);

  a->has_i = TRUE;
  a->i = value;
}

static void
attr_float (Export          *ex,
            Onnx__NodeProto *node,
            const char      *name,
            double           value)
{
  Onnx__AttributeProto *a = add_attr (ex, node, name, ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__FLOAT);

  a->has_f = TRUE;
  a->f = (float) value;
}

static void
attr_ints (Export          *ex,
           Onnx__NodeProto *node,
           const char      *name,
           const gint64    *values,
           guint            n)
{
  Onnx__AttributeProto *a = add_attr (ex, node, name, ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__INTS);

  a->n_ints = n;
  a->ints = ex_alloc (ex, n * sizeof (int64_t));
  for (guint i = 0; i < n; i++)
    a->ints[i] = values[i];
}

/* ---- initializers --------------------------------------------------------------------- */

static Onnx__TensorProto *
new_initializer (Export       *ex,
                 const char   *name,
                 GnnDtype      dtype,
                 const gint64 *shape,
                 guint         n_dims,
                 gconstpointer data,
                 gsize         size)
{
  static const Onnx__TensorProto init = ONNX__TENSOR_PROTO__INIT;
  Onnx__TensorProto *t = ex_alloc (ex, sizeof *t);

  *t = init;
  t->name = ex_strdup (ex, name);
  t->has_data_type = TRUE;
  t->data_type = gnn_onnx_elem_type (dtype);
  t->n_dims = n_dims;
  t->dims = ex_alloc (ex, n_dims * sizeof (int64_t));
  for (guint i = 0; i < n_dims; i++)
    t->dims[i] = shape[i];
  t->has_raw_data = TRUE;
  t->raw_data.len = size;
  t->raw_data.data = ex_alloc (ex, size);
  if (size > 0)
    memcpy (t->raw_data.data, data, size);
  g_ptr_array_add (ex->initializers, t);
  g_hash_table_add (ex->initialized, t->name);
  return t;
}

/* the tensor at @path (a state-dict key) of the root as an initializer of that name */
static const char *
tensor_initializer (Export      *ex,
                    const char  *path,
                    GError     **error)
{
  g_autoptr(GnnTensor) tensor = NULL;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) local = NULL;
  guint n_dims;
  const gint64 *shape;

  if (g_hash_table_contains (ex->initialized, path))
    return g_hash_table_lookup (ex->initialized, path);
  tensor = gnn_module_get_tensor (ex->root, path, &local);
  if (tensor == NULL)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "ONNX export: the root module has no parameter or buffer '%s': %s",
                   path, local->message);
      return NULL;
    }
  if (gnn_onnx_elem_type (gnn_tensor_get_dtype (tensor)) == ONNX__TENSOR_PROTO__DATA_TYPE__UNDEFINED)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE,
                   "ONNX export: the tensor '%s' has a dtype with no ONNX type", path);
      return NULL;
    }
  bytes = gnn_tensor_get_bytes (tensor, error);
  if (bytes == NULL)
    return NULL;
  shape = gnn_tensor_get_shape (tensor, &n_dims);
  return new_initializer (ex, path, gnn_tensor_get_dtype (tensor), shape, n_dims,
                          g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes))->name;
}

static const char *
int64s_initializer (Export       *ex,
                    const char   *name,
                    const gint64 *values,
                    guint         n)
{
  gint64 dim = n;

  return new_initializer (ex, name, GNN_DTYPE_INT64, &dim, 1, values, n * sizeof (gint64))->name;
}

/* a number as a 0-d initializer of @dtype */
static const char *
scalar_initializer (Export     *ex,
                    const char *name,
                    GnnDtype    dtype,
                    double      value)
{
  union { float f; double d; gint64 i; gint32 i32; } v;
  gsize size;

  switch (dtype)
    {
    case GNN_DTYPE_FLOAT64: v.d = value; size = 8; break;
    case GNN_DTYPE_INT64: v.i = (gint64) value; size = 8; break;
    case GNN_DTYPE_INT32: v.i32 = (gint32) value; size = 4; break;
    default: dtype = GNN_DTYPE_FLOAT32; v.f = (float) value; size = 4; break;
    }
  return new_initializer (ex, name, dtype, NULL, 0, &v, size)->name;
}

/* ---- values ---------------------------------------------------------------------------- */

static Onnx__ValueInfoProto *
value_info (Export       *ex,
            const char   *name,
            GnnGraphNode *node,
            GError      **error)
{
  static const Onnx__ValueInfoProto vinit = ONNX__VALUE_INFO_PROTO__INIT;
  static const Onnx__TypeProto tinit = ONNX__TYPE_PROTO__INIT;
  static const Onnx__TypeProto__Tensor ttinit = ONNX__TYPE_PROTO__TENSOR__INIT;
  static const Onnx__TensorShapeProto sinit = ONNX__TENSOR_SHAPE_PROTO__INIT;
  static const Onnx__TensorShapeProto__Dimension dinit = ONNX__TENSOR_SHAPE_PROTO__DIMENSION__INIT;
  Onnx__ValueInfoProto *vi;
  Onnx__TypeProto *type;
  Onnx__TypeProto__Tensor *tt;
  g_autoptr(GVariant) axes = NULL;
  const gint64 *shape;
  guint n_dims;
  GnnDtype dtype;

  shape = gnn_graph_node_get_tensor_meta (node, &n_dims, &dtype);
  if (shape == NULL)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "ONNX export: node %s has no shape and dtype: run shape propagation "
                   "(ShapeProp, or gnn_graph_node_set_tensor_meta) with example inputs first",
                   gnn_graph_node_get_name (node));
      return NULL;
    }
  if (ex->dynamic_axes != NULL)
    axes = g_variant_lookup_value (ex->dynamic_axes, name, G_VARIANT_TYPE ("a{is}"));
  vi = ex_alloc (ex, sizeof *vi);
  *vi = vinit;
  vi->name = ex_strdup (ex, name);
  type = ex_alloc (ex, sizeof *type);
  *type = tinit;
  tt = ex_alloc (ex, sizeof *tt);
  *tt = ttinit;
  tt->has_elem_type = TRUE;
  tt->elem_type = gnn_onnx_elem_type (dtype);
  tt->shape = ex_alloc (ex, sizeof *tt->shape);
  *tt->shape = sinit;
  tt->shape->n_dim = n_dims;
  tt->shape->dim = ex_alloc (ex, n_dims * sizeof (Onnx__TensorShapeProto__Dimension *));
  for (guint i = 0; i < n_dims; i++)
    {
      Onnx__TensorShapeProto__Dimension *d = ex_alloc (ex, sizeof *d);
      const char *param = NULL;

      *d = dinit;
      if (axes != NULL)
        {
          GVariantIter iter;
          gint32 axis;
          const char *p;

          g_variant_iter_init (&iter, axes);
          while (g_variant_iter_next (&iter, "{i&s}", &axis, &p))
            if (axis == (gint32) i || axis + (gint32) n_dims == (gint32) i)
              param = p;
        }
      if (param != NULL)
        {
          d->value_case = ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_PARAM;
          d->dim_param = ex_strdup (ex, param);
        }
      else
        {
          d->value_case = ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_VALUE;
          d->dim_value = shape[i];
        }
      tt->shape->dim[i] = d;
    }
  type->value_case = ONNX__TYPE_PROTO__VALUE_TENSOR_TYPE;
  type->tensor_type = tt;
  vi->type = type;
  return vi;
}

/* the ONNX value a node argument stands for: a node's value, or NULL with @error set */
static const char *
arg_value (Export       *ex,
           GnnGraphNode *user,
           const GValue *v,
           GError      **error)
{
  GnnGraphNode *n;
  const char *name;

  if (!G_VALUE_HOLDS (v, GNN_TYPE_GRAPH_NODE) || (n = g_value_get_object (v)) == NULL)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED,
                   "ONNX export: node %s takes a %s where gnn's exporter needs a tensor",
                   gnn_graph_node_get_name (user), G_VALUE_TYPE_NAME (v));
      return NULL;
    }
  name = g_hash_table_lookup (ex->values, gnn_graph_node_get_name (n));
  if (name == NULL)
    g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                 "ONNX export: node %s uses %s, which has no value (a dangling reference)",
                 gnn_graph_node_get_name (user), gnn_graph_node_get_name (n));
  return name;
}

static guint
n_kwargs (GnnArgs *args)
{
  g_auto(GStrv) names = gnn_args_get_kwarg_names (args);

  return names ? g_strv_length (names) : 0;
}

static GnnGraphNode *
arg_node (const GValue *v)
{
  if (v != NULL && G_VALUE_HOLDS (v, GNN_TYPE_GRAPH_NODE))
    return g_value_get_object (v);
  return NULL;
}

static gboolean
value_is_number (const GValue *v,
                 double       *out)
{
  if (G_VALUE_HOLDS_DOUBLE (v))
    *out = g_value_get_double (v);
  else if (G_VALUE_HOLDS_INT (v))
    *out = g_value_get_int (v);
  else if (G_VALUE_HOLDS_INT64 (v))
    *out = (double) g_value_get_int64 (v);
  else if (G_VALUE_HOLDS_FLOAT (v))
    *out = g_value_get_float (v);
  else
    return FALSE;
  return TRUE;
}

static gboolean
value_is_int (const GValue *v,
              gint64       *out)
{
  if (G_VALUE_HOLDS_INT (v))
    *out = g_value_get_int (v);
  else if (G_VALUE_HOLDS_INT64 (v))
    *out = g_value_get_int64 (v);
  else if (G_VALUE_HOLDS_LONG (v))
    *out = g_value_get_long (v);
  else
    return FALSE;
  return TRUE;
}

static guint
node_rank (GnnGraphNode *n,
           guint         fallback)
{
  guint n_dims;

  if (n == NULL || gnn_graph_node_get_tensor_meta (n, &n_dims, NULL) == NULL)
    return fallback;
  return n_dims;
}

static GnnDtype
node_dtype (GnnGraphNode *n)
{
  GnnDtype dtype = GNN_DTYPE_FLOAT32;

  if (n != NULL)
    gnn_graph_node_get_tensor_meta (n, NULL, &dtype);
  return dtype;
}

/* @n sizes from a layer's GVariant property: one int64 for all, @n of them, or NULL (@dflt) */
static gboolean
sizes_property (GnnModule  *m,
                const char *property,
                guint       n,
                gint64      dflt,
                gint64     *out,
                GError    **error)
{
  g_autoptr(GVariant) v = NULL;

  g_object_get (m, property, &v, NULL);
  for (guint i = 0; i < n; i++)
    out[i] = dflt;
  if (v == NULL)
    return TRUE;
  if (g_variant_is_of_type (v, G_VARIANT_TYPE ("ax")))
    {
      gsize len;
      const gint64 *x = g_variant_get_fixed_array (v, &len, sizeof (gint64));

      if (len != 1 && len != n)
        goto bad;
      for (guint i = 0; i < n; i++)
        out[i] = x[len == 1 ? 0 : i];
      return TRUE;
    }
  if (g_variant_is_of_type (v, G_VARIANT_TYPE_INT64))
    {
      for (guint i = 0; i < n; i++)
        out[i] = g_variant_get_int64 (v);
      return TRUE;
    }
bad:
  {
    g_autofree char *text = g_variant_print (v, FALSE);

    g_set_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED,
                 "ONNX export: %s's %s is %s; gnn's exporter takes one or %u sizes",
                 gnn_module_get_name (m), property, text, n);
  }
  return FALSE;
}

/* ---- modules --------------------------------------------------------------------------- */

/* the state-dict key of @field of the module at @path ("" for the root) */
static const char *
sub_path (Export     *ex,
          const char *path,
          const char *field)
{
  return *path ? ex_printf (ex, "%s.%s", path, field) : ex_strdup (ex, field);
}

/* MaxPool1d/2d (MaxPool) and AvgPool1d/2d (AveragePool), @n spatial dims, in[0] the input */
static gboolean
export_pool (Export      *ex,
             GnnModule   *m,
             const char  *name,
             const char  *path,
             guint        n,
             gboolean     max,
             const char  *out,
             const char **in,
             GError     **error)
{
  const char *layer = gnn_module_get_name (m);
  gint64 k[3], st[3], p[3], d[3] = { 1, 1, 1 }, pads[6];
  gboolean ceil_mode;
  Onnx__NodeProto *o;

  if (!sizes_property (m, "kernel-size", n, 1, k, error) || !sizes_property (m, "stride", n, 0, st, error) ||
      !sizes_property (m, "padding", n, 0, p, error) ||
      (max && !sizes_property (m, "dilation", n, 1, d, error)))
    return FALSE;
  for (guint i = 0; i < n; i++)
    {
      if (st[i] == 0)            /* no stride given: the kernel's */
        st[i] = k[i];
      pads[i] = pads[n + i] = p[i];
    }
  g_object_get (m, "ceil-mode", &ceil_mode, NULL);
  if (max)
    {
      gboolean indices;

      g_object_get (m, "return-indices", &indices, NULL);
      if (indices)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED,
                       "ONNX export: node %s: %s with return_indices has no ONNX form in gnn's exporter", name,
                       layer);
          return FALSE;
        }
      o = add_node (ex, "MaxPool", ex_printf (ex, "/%s/MaxPool", path), out, 1, in);
      attr_ints (ex, o, "dilations", d, n);
    }
  else
    {
      gboolean count_include_pad;
      gint64 divisor = 0;

      g_object_get (m, "count-include-pad", &count_include_pad, NULL);
      if (n >= 2)
        g_object_get (m, "divisor-override", &divisor, NULL);
      if (divisor != 0)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED,
                       "ONNX export: node %s: %s with divisor_override has no ONNX form", name, layer);
          return FALSE;
        }
      o = add_node (ex, "AveragePool", ex_printf (ex, "/%s/AveragePool", path), out, 1, in);
      attr_int (ex, o, "count_include_pad", count_include_pad);
    }
  attr_int (ex, o, "ceil_mode", ceil_mode);
  attr_ints (ex, o, "kernel_shape", k, n);
  attr_ints (ex, o, "pads", pads, 2 * n);
  attr_ints (ex, o, "strides", st, n);
  return TRUE;
}

/* Conv1d, Conv2d (Conv) and ConvTranspose1d, ConvTranspose2d (ConvTranspose, whose weight
 * (in, out / groups, k...) is laid out as ONNX's): @n spatial dims, in[0] the input */
static gboolean
export_conv (Export      *ex,
             GnnModule   *m,
             const char  *path,
             const char  *name,
             guint        n,
             gboolean     transposed,
             const char  *out,
             const char **in,
             GError     **error)
{
  g_autoptr(GVariant) padding = NULL;
  gint64 k[3], s[3], d[3], p[3], op[3] = { 0, 0, 0 }, pads[6];
  gboolean bias;
  int groups;
  Onnx__NodeProto *o;

  g_object_get (m, "padding", &padding, "groups", &groups, "bias", &bias, NULL);
  if (!transposed)
    {
      g_autofree char *mode = NULL;

      g_object_get (m, "padding-mode", &mode, NULL);
      if (g_strcmp0 (mode, "zeros") != 0)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED,
                       "ONNX export: node %s: %s with padding_mode '%s' has no ONNX form in "
                       "gnn's exporter (only 'zeros')", name, gnn_module_get_name (m), mode);
          return FALSE;
        }
    }
  if (!sizes_property (m, "kernel-size", n, 1, k, error) ||
      !sizes_property (m, "stride", n, 1, s, error) ||
      !sizes_property (m, "dilation", n, 1, d, error) ||
      (transposed && !sizes_property (m, "output-padding", n, 0, op, error)))
    return FALSE;
  if (padding != NULL && g_variant_is_of_type (padding, G_VARIANT_TYPE_STRING))
    {
      gboolean same = g_strcmp0 (g_variant_get_string (padding, NULL), "same") == 0;

      for (guint i = 0; i < n; i++)
        {
          gint64 total = same ? d[i] * (k[i] - 1) : 0;

          pads[i] = total / 2;          /* torch puts the odd one at the end */
          pads[i + n] = total - total / 2;
        }
    }
  else
    {
      if (!sizes_property (m, "padding", n, 0, p, error))
        return FALSE;
      for (guint i = 0; i < n; i++)
        pads[i] = pads[i + n] = p[i];
    }
  if ((in[1] = tensor_initializer (ex, sub_path (ex, path, "weight"), error)) == NULL)
    return FALSE;
  if (bias && (in[2] = tensor_initializer (ex, sub_path (ex, path, "bias"), error)) == NULL)
    return FALSE;
  o = add_node (ex, transposed ? "ConvTranspose" : "Conv",
                ex_printf (ex, "/%s/%s", path, transposed ? "ConvTranspose" : "Conv"),
                out, bias ? 3 : 2, in);
  attr_ints (ex, o, "dilations", d, n);
  attr_int (ex, o, "group", groups);
  attr_ints (ex, o, "kernel_shape", k, n);
  if (transposed && (op[0] != 0 || (n >= 2 && op[1] != 0) || (n == 3 && op[2] != 0)))
    attr_ints (ex, o, "output_padding", op, n);
  attr_ints (ex, o, "pads", pads, 2 * n);
  attr_ints (ex, o, "strides", s, n);
  return TRUE;
}

/* a value inside the ONNX form of node @name: "<name>_<tag>" */
static const char *
inner_value (Export     *ex,
             const char *name,
             const char *tag)
{
  return ex_printf (ex, "%s_%s", name, tag);
}

/* one node of two inputs, x and a number (a 0-d initializer of @dtype) */
static void
add_with_number (Export     *ex,
                 const char *op_type,
                 const char *name,
                 const char *tag,
                 const char *x,
                 double      number,
                 GnnDtype    dtype,
                 const char *out)
{
  const char *in[2] = { x, scalar_initializer (ex, inner_value (ex, name, ex_printf (ex, "%s_c", tag)),
                                               dtype, number) };

  add_node (ex, op_type, ex_printf (ex, "/%s/%s_%s", name, op_type, tag), out, 2, in);
}

/* GELU: opset 17 has no Gelu, so torch's arithmetic: 0.5 x (1 + erf (x / sqrt 2)), or with
 * approximate 'tanh' 0.5 x (1 + tanh (sqrt (2 / pi) (x + 0.044715 x^3))) */
static void
export_gelu (Export     *ex,
             const char *name,
             gboolean    tanh_form,
             const char *x,
             GnnDtype    dtype,
             const char *out)
{
  const char *t, *u, *v;

  if (tanh_form)
    {
      const char *x3 = inner_value (ex, name, "cube"), *a = inner_value (ex, name, "scaled_cube");
      const char *b = inner_value (ex, name, "inner"), *c = inner_value (ex, name, "arg");

      add_with_number (ex, "Pow", name, "cube", x, 3.0, dtype, x3);
      add_with_number (ex, "Mul", name, "scaled_cube", x3, 0.044715, dtype, a);
      {
        const char *in[2] = { x, a };

        add_node (ex, "Add", ex_printf (ex, "/%s/Add_inner", name), b, 2, in);
      }
      add_with_number (ex, "Mul", name, "arg", b, sqrt (2.0 / G_PI), dtype, c);
      t = inner_value (ex, name, "tanh");
      add_node (ex, "Tanh", ex_printf (ex, "/%s/Tanh", name), t, 1, &c);
    }
  else
    {
      const char *a = inner_value (ex, name, "scaled");

      add_with_number (ex, "Div", name, "scaled", x, G_SQRT2, dtype, a);
      t = inner_value (ex, name, "erf");
      add_node (ex, "Erf", ex_printf (ex, "/%s/Erf", name), t, 1, &a);
    }
  u = inner_value (ex, name, "one_plus");
  add_with_number (ex, "Add", name, "one_plus", t, 1.0, dtype, u);
  v = inner_value (ex, name, "times_x");
  {
    const char *in[2] = { x, u };

    add_node (ex, "Mul", ex_printf (ex, "/%s/Mul_x", name), v, 2, in);
  }
  add_with_number (ex, "Mul", name, "half", v, 0.5, dtype, out);
}

/* a float32 tensor of @n_dims dims filled with @value, as an initializer */
static const char *
filled_initializer (Export       *ex,
                    const char   *name,
                    const gint64 *shape,
                    guint         n_dims,
                    float         value)
{
  gsize n = 1;
  g_autofree float *data = NULL;

  for (guint i = 0; i < n_dims; i++)
    n *= shape[i];
  data = g_new (float, MAX (n, 1));
  for (gsize i = 0; i < n; i++)
    data[i] = value;
  return new_initializer (ex, name, GNN_DTYPE_FLOAT32, shape, n_dims, data, n * sizeof (float))->name;
}

/* the weights of torch's gate blocks in ONNX's order, for @n_dirs directions stacked:
 * W (dirs, G·H, cols) from the tensors @key<suffix> of each direction; @order[j] is the torch
 * block ONNX's block j takes */
static const char *
gates_initializer (Export       *ex,
                   const char   *path,
                   const char   *name,
                   const char   *key,
                   guint         n_dirs,
                   const guint  *order,
                   guint         n_gates,
                   gint64        hidden,
                   GError      **error)
{
  g_autoptr(GByteArray) data = g_byte_array_new ();
  gint64 shape[3] = { n_dirs, n_gates * hidden, 1 };
  guint rank = 3;
  GnnDtype dtype = GNN_DTYPE_FLOAT32;

  for (guint d = 0; d < n_dirs; d++)
    {
      const char *tpath = sub_path (ex, path, ex_printf (ex, "%s%s", key, d ? "_reverse" : ""));
      g_autoptr(GError) local = NULL;
      g_autoptr(GnnTensor) t = gnn_module_get_tensor (ex->root, tpath, &local);
      g_autoptr(GBytes) bytes = NULL;
      const gint64 *tshape;
      guint n_dims;
      gsize size, block;
      const guint8 *raw;

      if (t == NULL)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                       "ONNX export: the root module has no parameter '%s': %s", tpath, local->message);
          return NULL;
        }
      if ((bytes = gnn_tensor_get_bytes (t, error)) == NULL)
        return NULL;
      tshape = gnn_tensor_get_shape (t, &n_dims);
      dtype = gnn_tensor_get_dtype (t);
      raw = g_bytes_get_data (bytes, &size);
      if (tshape[0] != n_gates * hidden || size % n_gates != 0)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                       "ONNX export: '%s' has %" G_GINT64_FORMAT " rows; %u gates of %" G_GINT64_FORMAT
                       " need %" G_GINT64_FORMAT, tpath, tshape[0], n_gates, hidden, n_gates * hidden);
          return NULL;
        }
      if (n_dims == 2)
        shape[2] = tshape[1];
      else
        rank = 2;
      block = size / n_gates;
      for (guint j = 0; j < n_gates; j++)
        g_byte_array_append (data, raw + order[j] * block, block);
    }
  if (rank == 2)
    shape[1] = n_gates * hidden;
  return new_initializer (ex, name, dtype, shape, rank, data->data, data->len)->name;
}

/* the padding layers: @n padded dims (1, 2, 3), the ONNX mode, whether it has a value */
static gboolean
pad_layer (GnnModule   *m,
           guint       *n,
           const char **mode,
           gboolean    *has_value)
{
  static const struct { GType (*type) (void); guint n; const char *mode; gboolean value; } pads[] = {
    { gnn_constant_pad1d_get_type, 1, "constant", TRUE },
    { gnn_constant_pad2d_get_type, 2, "constant", TRUE },
    { gnn_constant_pad3d_get_type, 3, "constant", TRUE },
    { gnn_zero_pad2d_get_type, 2, "constant", FALSE },
    { gnn_reflection_pad1d_get_type, 1, "reflect", FALSE },
    { gnn_reflection_pad2d_get_type, 2, "reflect", FALSE },
    { gnn_reflection_pad3d_get_type, 3, "reflect", FALSE },
    { gnn_replication_pad1d_get_type, 1, "edge", FALSE },
    { gnn_replication_pad2d_get_type, 2, "edge", FALSE },
    { gnn_replication_pad3d_get_type, 3, "edge", FALSE },
  };

  for (guint i = 0; i < G_N_ELEMENTS (pads); i++)
    if (G_TYPE_CHECK_INSTANCE_TYPE (m, pads[i].type ()))
      {
        *n = pads[i].n, *mode = pads[i].mode, *has_value = pads[i].value;
        return TRUE;
      }
  return FALSE;
}

/* adaptive_avg_pool2d, the layer's or the function's, from the traced shapes of its input and
 * its output: GlobalAveragePool to (1, 1), AveragePool where the output size divides the input */
static gboolean
export_adaptive_avg_pool2d (Export       *ex,
                            GnnGraphNode *node,
                            GnnGraphNode *in_node,
                            const char   *prefix,
                            const char   *out,
                            const char  **in,
                            GError      **error)
{
  const gint64 *shape = in_node ? gnn_graph_node_get_tensor_meta (in_node, NULL, NULL) : NULL;
  guint n_dims = node_rank (in_node, 0), n_out = 0;
  const gint64 *size = gnn_graph_node_get_tensor_meta (node, &n_out, NULL);
  Onnx__NodeProto *o;

  if (shape != NULL && size != NULL && n_dims == 4 && n_out == 4 && size[2] == 1 && size[3] == 1)
    {
      add_node (ex, "GlobalAveragePool", ex_printf (ex, "%s/GlobalAveragePool", prefix), out, 1, in);
      return TRUE;
    }
  if (shape != NULL && size != NULL && n_dims == 4 && n_out == 4 && size[2] > 0 && size[3] > 0 &&
      shape[2] % size[2] == 0 && shape[3] % size[3] == 0)
    {
      gint64 k[2] = { shape[2] / size[2], shape[3] / size[3] }, pads[4] = { 0, 0, 0, 0 };

      o = add_node (ex, "AveragePool", ex_printf (ex, "%s/AveragePool", prefix), out, 1, in);
      attr_ints (ex, o, "kernel_shape", k, 2);
      attr_ints (ex, o, "pads", pads, 4);
      attr_ints (ex, o, "strides", k, 2);
      return TRUE;
    }
  g_set_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED,
               "ONNX export: node %s: adaptive_avg_pool2d of a 4-d input to a size that does not "
               "divide the input has no ONNX form (torch refuses it too)",
               gnn_graph_node_get_name (node));
  return FALSE;
}

/* ---- the nodes of multi-node forms ---------------------------------------------------- */

/* one node @op of @n inputs, its output @out or else "<prefix>_<tag>", which it returns */
static const char *
emit (Export           *ex,
      const char       *op,
      const char       *prefix,
      const char       *tag,
      const char       *out,
      guint             n,
      const char      **in,
      Onnx__NodeProto **node)
{
  Onnx__NodeProto *o;

  if (out == NULL)
    out = inner_value (ex, prefix, tag);
  o = add_node (ex, op, ex_printf (ex, "/%s/%s_%s", prefix, op, tag), out, n, in);
  if (node)
    *node = o;
  return out;
}

static const char *
emit2 (Export     *ex,
       const char *op,
       const char *prefix,
       const char *tag,
       const char *out,
       const char *a,
       const char *b)
{
  const char *in[2] = { a, b };

  return emit (ex, op, prefix, tag, out, 2, in, NULL);
}

static const char *
emit_transpose (Export       *ex,
                const char   *prefix,
                const char   *tag,
                const char   *x,
                const gint64 *perm,
                guint         n)
{
  Onnx__NodeProto *o;
  const char *t = emit (ex, "Transpose", prefix, tag, NULL, 1, &x, &o);

  attr_ints (ex, o, "perm", perm, n);
  return t;
}

/* Reshape of @x to @shape (0 copies the input's size, -1 is inferred) */
static const char *
emit_reshape (Export       *ex,
              const char   *prefix,
              const char   *tag,
              const char   *x,
              const gint64 *shape,
              guint         n,
              const char   *out)
{
  const char *s = int64s_initializer (ex, inner_value (ex, prefix, ex_printf (ex, "%s_shape", tag)), shape, n);

  return emit2 (ex, "Reshape", prefix, tag, out, x, s);
}

/* Unsqueeze or Squeeze of @x at @axis (opset 13: the axes an input) */
static const char *
emit_squeeze (Export     *ex,
              const char *op,
              const char *prefix,
              const char *tag,
              const char *x,
              gint64      axis,
              const char *out)
{
  const char *axes = int64s_initializer (ex, inner_value (ex, prefix, ex_printf (ex, "%s_axes", tag)), &axis, 1);

  return emit2 (ex, op, prefix, tag, out, x, axes);
}

/* @from to @to of @w along @axis (Slice) */
static const char *
emit_rows (Export     *ex,
           const char *prefix,
           const char *tag,
           const char *w,
           gint64      from,
           gint64      to,
           gint64      axis)
{
  const char *in[4] = { w,
                        int64s_initializer (ex, inner_value (ex, prefix, ex_printf (ex, "%s_starts", tag)), &from, 1),
                        int64s_initializer (ex, inner_value (ex, prefix, ex_printf (ex, "%s_ends", tag)), &to, 1),
                        int64s_initializer (ex, inner_value (ex, prefix, ex_printf (ex, "%s_axes", tag)), &axis, 1) };

  return emit (ex, "Slice", prefix, tag, NULL, 4, in, NULL);
}

/* LayerNorm: LayerNormalization (opset 17), its nodes named from @path and its inner values
 * from @name; in[0] the input, in[1] and in[2] filled here */
static gboolean
layer_norm_form (Export      *ex,
                 GnnModule   *m,
                 const char  *path,
                 const char  *name,
                 const char **in,
                 GnnDtype     dtype,
                 const char  *out,
                 GError     **error)
{
  GnnLayerNorm *ln = GNN_LAYER_NORM (m);
  guint n_norm;
  const gint64 *norm = gnn_layer_norm_get_normalized_shape (ln, &n_norm);
  Onnx__NodeProto *o;

  if (ex->opset < 17)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED,
                   "ONNX export: node %s: LayerNorm is LayerNormalization, which needs opset 17 "
                   "(the export asks for %d)", name, ex->opset);
      return FALSE;
    }
  if (gnn_layer_norm_get_elementwise_affine (ln))
    {
      if ((in[1] = tensor_initializer (ex, sub_path (ex, path, "weight"), error)) == NULL ||
          (in[2] = tensor_initializer (ex, sub_path (ex, path, "bias"), error)) == NULL)
        return FALSE;
    }
  else if (dtype != GNN_DTYPE_FLOAT32)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED,
                   "ONNX export: node %s: LayerNorm without elementwise_affine is written for "
                   "float32 inputs only", name);
      return FALSE;
    }
  else
    {
      in[1] = filled_initializer (ex, inner_value (ex, name, "scale"), norm, n_norm, 1.0f);
      in[2] = filled_initializer (ex, inner_value (ex, name, "bias"), norm, n_norm, 0.0f);
    }
  o = add_node (ex, "LayerNormalization", ex_printf (ex, "/%s/LayerNormalization", path), out, 3, in);
  attr_int (ex, o, "axis", -(gint64) n_norm);
  attr_float (ex, o, "epsilon", gnn_layer_norm_get_eps (ln));
  return TRUE;
}

/* the adaptive pools a graph's traced shapes let ONNX write: GlobalAveragePool (GlobalMaxPool)
 * to size 1, AveragePool (MaxPool) where every output size divides the input's */
static gboolean
export_adaptive_pool (Export       *ex,
                      GnnGraphNode *node,
                      GnnModule    *m,
                      GnnGraphNode *in_node,
                      const char   *path,
                      gboolean      max,
                      const char   *out,
                      const char  **in,
                      GError      **error)
{
  guint n_dims = 0, n_out = 0;
  const gint64 *shape = in_node ? gnn_graph_node_get_tensor_meta (in_node, &n_dims, NULL) : NULL;
  const gint64 *size = gnn_graph_node_get_tensor_meta (node, &n_out, NULL);
  gboolean global = TRUE, divides = TRUE;
  gint64 k[3], pads[6] = { 0 };
  Onnx__NodeProto *o;

  if (max)
    {
      gboolean indices;

      g_object_get (m, "return-indices", &indices, NULL);
      if (indices)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED,
                       "ONNX export: node %s: %s with return_indices has no ONNX form in gnn's exporter",
                       gnn_graph_node_get_name (node), gnn_module_get_name (m));
          return FALSE;
        }
    }
  if (shape == NULL || size == NULL || n_dims != n_out || n_dims < 3 || n_dims > 5)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED,
                   "ONNX export: node %s: %s needs a batched input of known shape (found %u dims)",
                   gnn_graph_node_get_name (node), gnn_module_get_name (m), shape ? n_dims : 0);
      return FALSE;
    }
  for (guint i = 2; i < n_dims; i++)
    {
      global = global && size[i] == 1;
      divides = divides && size[i] > 0 && shape[i] % size[i] == 0;
      if (divides)
        k[i - 2] = shape[i] / size[i];
    }
  if (global)
    {
      add_node (ex, max ? "GlobalMaxPool" : "GlobalAveragePool",
                ex_printf (ex, "/%s/%s", path, max ? "GlobalMaxPool" : "GlobalAveragePool"), out, 1, in);
      return TRUE;
    }
  if (!divides)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED,
                   "ONNX export: node %s: %s to a size that does not divide the input has no ONNX form "
                   "(torch refuses it too)", gnn_graph_node_get_name (node), gnn_module_get_name (m));
      return FALSE;
    }
  o = add_node (ex, max ? "MaxPool" : "AveragePool", ex_printf (ex, "/%s/%s", path, max ? "MaxPool" : "AveragePool"),
                out, 1, in);
  attr_ints (ex, o, "kernel_shape", k, n_dims - 2);
  attr_ints (ex, o, "pads", pads, 2 * (n_dims - 2));
  attr_ints (ex, o, "strides", k, n_dims - 2);
  return TRUE;
}

/* InstanceNorm1d/2d/3d: InstanceNormalization (the weight and bias, or ones and zeros); with
 * track_running_stats, which torch's eval mode normalises by, BatchNormalization of the
 * running statistics */
static gboolean
export_instance_norm (Export       *ex,
                      GnnModule    *m,
                      const char   *path,
                      const char   *name,
                      GnnGraphNode *in_node,
                      const char   *out,
                      const char  **in,
                      GError      **error)
{
  gboolean affine, running;
  int features;
  double eps;
  guint rank = node_rank (in_node, 0);
  guint want = GNN_IS_INSTANCE_NORM1D (m) ? 3 : GNN_IS_INSTANCE_NORM2D (m) ? 4 : 5;
  gint64 c;
  Onnx__NodeProto *o;

  g_object_get (m, "affine", &affine, "track-running-stats", &running, "num-features", &features, "eps", &eps, NULL);
  if (rank != want)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "ONNX export: node %s: %s of a %u-d input; gnn's exporter writes a batched %u-d one", name,
                   gnn_module_get_name (m), rank, want);
      return FALSE;
    }
  c = features;
  if (affine)
    {
      if ((in[1] = tensor_initializer (ex, sub_path (ex, path, "weight"), error)) == NULL ||
          (in[2] = tensor_initializer (ex, sub_path (ex, path, "bias"), error)) == NULL)
        return FALSE;
    }
  else
    {
      in[1] = filled_initializer (ex, inner_value (ex, name, "scale"), &c, 1, 1.0f);
      in[2] = filled_initializer (ex, inner_value (ex, name, "bias"), &c, 1, 0.0f);
    }
  if (running)
    {
      double momentum;

      g_object_get (m, "momentum", &momentum, NULL);
      if ((in[3] = tensor_initializer (ex, sub_path (ex, path, "running_mean"), error)) == NULL ||
          (in[4] = tensor_initializer (ex, sub_path (ex, path, "running_var"), error)) == NULL)
        return FALSE;
      o = add_node (ex, "BatchNormalization", ex_printf (ex, "/%s/BatchNormalization", path), out, 5, in);
      attr_float (ex, o, "momentum", 1.0 - momentum);
    }
  else
    o = add_node (ex, "InstanceNormalization", ex_printf (ex, "/%s/InstanceNormalization", path), out, 3, in);
  attr_float (ex, o, "epsilon", eps);
  return TRUE;
}

/* PixelShuffle: DepthToSpace (mode CRD, torch's channel order); PixelUnshuffle and
 * ChannelShuffle: Reshape, Transpose, Reshape over the traced shape (0 keeps the batch) */
static gboolean
export_shuffle (Export       *ex,
                GnnGraphNode *node,
                GnnModule    *m,
                const char   *path,
                const char   *name,
                GnnGraphNode *in_node,
                const char   *out,
                const char  **in,
                GError      **error)
{
  guint rank = 0, n_out = 0;
  const gint64 *shape = in_node ? gnn_graph_node_get_tensor_meta (in_node, &rank, NULL) : NULL;
  const gint64 *oshape = gnn_graph_node_get_tensor_meta (node, &n_out, NULL);
  Onnx__NodeProto *o;

  if (shape == NULL || oshape == NULL || rank < (GNN_IS_CHANNEL_SHUFFLE (m) ? 3u : 4u) || rank > 8)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "ONNX export: node %s: %s needs a batched input of known shape (found %u dims)", name,
                   gnn_module_get_name (m), shape ? rank : 0);
      return FALSE;
    }
  if (GNN_IS_PIXEL_SHUFFLE (m))
    {
      int r;

      g_object_get (m, "upscale-factor", &r, NULL);
      if (rank != 4)
        goto batched_4d;
      o = add_node (ex, "DepthToSpace", ex_printf (ex, "/%s/DepthToSpace", path), out, 1, in);
      attr_int (ex, o, "blocksize", r);
      {
        Onnx__AttributeProto *a = add_attr (ex, o, "mode", ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__STRING);

        a->has_s = TRUE;
        a->s.data = (guint8 *) ex_strdup (ex, "CRD");
        a->s.len = 3;
      }
      return TRUE;
    }
  if (GNN_IS_PIXEL_UNSHUFFLE (m))
    {
      /* (N, C, H·r, W·r) to (N, C, H, r, W, r), (0, 1, 3, 5, 2, 4), (N, C·r·r, H, W) */
      static const gint64 perm[6] = { 0, 1, 3, 5, 2, 4 };
      int r;
      gint64 split[6], joined[4];
      const char *t;

      g_object_get (m, "downscale-factor", &r, NULL);
      if (rank != 4)
        goto batched_4d;
      split[0] = 0, split[1] = shape[1], split[2] = shape[2] / r, split[3] = r, split[4] = shape[3] / r, split[5] = r;
      joined[0] = 0, joined[1] = oshape[1], joined[2] = oshape[2], joined[3] = oshape[3];
      t = emit_reshape (ex, name, "split", in[0], split, 6, NULL);
      t = emit_transpose (ex, name, "blocks", t, perm, 6);
      emit_reshape (ex, name, "joined", t, joined, 4, out);
      return TRUE;
    }
  {
    /* ChannelShuffle: (N, g, C/g, ...), swap 1 and 2, (N, C, ...) */
    int groups;
    gint64 split[9], perm[9], joined[8];
    const char *t;

    g_object_get (m, "groups", &groups, NULL);
    if (groups <= 0 || shape[1] % groups != 0)
      {
        g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                     "ONNX export: node %s: %" G_GINT64_FORMAT " channels in %d groups", name, shape[1], groups);
        return FALSE;
      }
    split[0] = 0, split[1] = groups, split[2] = shape[1] / groups;
    for (guint i = 2; i < rank; i++)
      split[i + 1] = shape[i];
    for (guint i = 0; i <= rank; i++)
      perm[i] = i;
    perm[1] = 2, perm[2] = 1;
    for (guint i = 0; i < rank; i++)
      joined[i] = i == 0 ? 0 : shape[i];
    t = emit_reshape (ex, name, "split", in[0], split, rank + 1, NULL);
    t = emit_transpose (ex, name, "groups", t, perm, rank + 1);
    emit_reshape (ex, name, "joined", t, joined, rank, out);
    return TRUE;
  }
batched_4d:
  g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
               "ONNX export: node %s: %s of a %u-d input; gnn's exporter writes a batched 4-d one", name,
               gnn_module_get_name (m), rank);
  return FALSE;
}

/* LPPool1d/2d as torch computes it: (AvgPool (x^p) · kernel elements)^(1/p): Pow,
 * AveragePool, Mul, Pow */
static gboolean
export_lp_pool (Export      *ex,
                GnnModule   *m,
                const char  *path,
                const char  *name,
                guint        n,
                GnnDtype     dtype,
                const char  *out,
                const char **in,
                GError     **error)
{
  gint64 k[2], st[2], pads[4] = { 0, 0, 0, 0 }, count = 1;
  double p;
  gboolean ceil_mode;
  const char *t;
  Onnx__NodeProto *o;

  if (!sizes_property (m, "kernel-size", n, 1, k, error) || !sizes_property (m, "stride", n, 0, st, error))
    return FALSE;
  g_object_get (m, "norm-type", &p, "ceil-mode", &ceil_mode, NULL);
  for (guint i = 0; i < n; i++)
    {
      if (st[i] == 0)
        st[i] = k[i];
      count *= k[i];
    }
  t = emit2 (ex, "Pow", name, "power", NULL, in[0], scalar_initializer (ex, inner_value (ex, name, "p"), dtype, p));
  o = add_node (ex, "AveragePool", ex_printf (ex, "/%s/AveragePool", path), inner_value (ex, name, "mean"), 1, &t);
  attr_int (ex, o, "ceil_mode", ceil_mode);
  attr_ints (ex, o, "kernel_shape", k, n);
  attr_ints (ex, o, "pads", pads, 2 * n);
  attr_ints (ex, o, "strides", st, n);
  t = emit2 (ex, "Mul", name, "sum", NULL, inner_value (ex, name, "mean"),
             scalar_initializer (ex, inner_value (ex, name, "count"), dtype, (double) count));
  emit2 (ex, "Pow", name, "root", out, t, scalar_initializer (ex, inner_value (ex, name, "inv_p"), dtype, 1.0 / p));
  return TRUE;
}

/* LocalResponseNorm: ONNX's LRN, whose window over the channels is torch's for an odd size
 * (ONNX Runtime takes odd sizes only); for an even size torch's arithmetic: x² padded along
 * the channels as torch pads it (size/2 before, size/2 − 1 after), the sum of @size shifted
 * Slices, · alpha/size + k, Pow beta, x Div by that */
static gboolean
export_local_response_norm (Export       *ex,
                            GnnModule    *m,
                            const char   *path,
                            const char   *name,
                            GnnGraphNode *in_node,
                            const char   *out,
                            const char  **in,
                            GError      **error)
{
  int size;
  double alpha, beta, k;
  guint rank = 0;
  const gint64 *shape = in_node ? gnn_graph_node_get_tensor_meta (in_node, &rank, NULL) : NULL;
  GnnDtype dtype = node_dtype (in_node);
  Onnx__NodeProto *o;

  g_object_get (m, "size", &size, "alpha", &alpha, "beta", &beta, "k", &k, NULL);
  if (shape == NULL || rank < 3 || rank > 8)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "ONNX export: node %s: LocalResponseNorm of a %u-d input (it takes 3 dims or more)", name, rank);
      return FALSE;
    }
  if (size % 2 == 1)
    {
      o = add_node (ex, "LRN", ex_printf (ex, "/%s/LRN", path), out, 1, in);
      attr_float (ex, o, "alpha", alpha);
      attr_float (ex, o, "beta", beta);
      attr_float (ex, o, "bias", k);
      attr_int (ex, o, "size", size);
      return TRUE;
    }
  {
    gint64 pads[16] = { 0 };
    const char *sq, *padded, *sum = NULL, *t;
    const char *pin[2];

    sq = emit2 (ex, "Mul", name, "square", NULL, in[0], in[0]);
    pads[1] = size / 2, pads[rank + 1] = (size - 1) / 2;
    pin[0] = sq, pin[1] = int64s_initializer (ex, inner_value (ex, name, "pads"), pads, 2 * rank);
    padded = emit (ex, "Pad", name, "padded", NULL, 2, pin, NULL);
    for (int j = 0; j < size; j++)
      {
        t = emit_rows (ex, name, ex_printf (ex, "window%d", j), padded, j, j + shape[1], 1);
        sum = sum ? emit2 (ex, "Add", name, ex_printf (ex, "sum%d", j), NULL, sum, t) : t;
      }
    t = emit2 (ex, "Mul", name, "scaled", NULL, sum,
               scalar_initializer (ex, inner_value (ex, name, "alpha"), dtype, alpha / size));
    t = emit2 (ex, "Add", name, "biased", NULL, t, scalar_initializer (ex, inner_value (ex, name, "k"), dtype, k));
    t = emit2 (ex, "Pow", name, "power", NULL, t, scalar_initializer (ex, inner_value (ex, name, "beta"), dtype, beta));
    emit2 (ex, "Div", name, "div", out, in[0], t);
  }
  return TRUE;
}

static void
attr_string (Export          *ex,
             Onnx__NodeProto *node,
             const char      *name,
             const char      *value)
{
  Onnx__AttributeProto *a = add_attr (ex, node, name, ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__STRING);

  a->has_s = TRUE;
  a->s.data = (guint8 *) ex_strdup (ex, value);
  a->s.len = strlen (value);
}

/* Upsample, UpsamplingNearest2d, UpsamplingBilinear2d: Resize, by the scale factors (ONNX's
 * output size is floor (input · scale), torch's, and its coordinates divide by the given
 * scale, as torch's do) or to the traced output size; nearest as torch's (asymmetric, floor),
 * linear modes with align_corners or pytorch_half_pixel */
static gboolean
export_upsample (Export       *ex,
                 GnnGraphNode *node,
                 GnnModule    *m,
                 const char   *path,
                 const char   *name,
                 GnnGraphNode *in_node,
                 const char   *out,
                 const char  **in,
                 GError      **error)
{
  g_autofree char *mode = NULL;
  g_autoptr(GVariant) scale = NULL;
  gboolean align = FALSE, recompute = FALSE, nearest;
  guint rank = 0, n_out = 0;
  const gint64 *oshape = gnn_graph_node_get_tensor_meta (node, &n_out, NULL);
  const char *rin[4] = { in[0], "", "", NULL };
  Onnx__NodeProto *o;

  rank = node_rank (in_node, 0);
  if (GNN_IS_UPSAMPLE (m))
    g_object_get (m, "mode", &mode, "align-corners", &align, "recompute-scale-factor", &recompute, NULL);
  else
    {
      mode = g_strdup (GNN_IS_UPSAMPLING_NEAREST2D (m) ? "nearest" : "bilinear");
      align = GNN_IS_UPSAMPLING_BILINEAR2D (m);
    }
  g_object_get (m, "scale-factor", &scale, NULL);
  nearest = g_strcmp0 (mode, "nearest") == 0;
  if (!nearest && g_strcmp0 (mode, "linear") != 0 && g_strcmp0 (mode, "bilinear") != 0 &&
      g_strcmp0 (mode, "trilinear") != 0)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED,
                   "ONNX export: node %s: %s with mode '%s' has no ONNX form in gnn's exporter (it writes "
                   "nearest, linear, bilinear and trilinear)", name, gnn_module_get_name (m), mode);
      return FALSE;
    }
  if (oshape == NULL || n_out != rank || rank < 3 || rank > 5)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "ONNX export: node %s: %s needs a batched input of known shape (found %u dims)", name,
                   gnn_module_get_name (m), rank);
      return FALSE;
    }
  if (scale != NULL && !recompute)
    {
      gsize n_sf = 0;
      const double *sf = g_variant_get_fixed_array (scale, &n_sf, sizeof (double));
      float scales[5] = { 1.0f, 1.0f, 1.0f, 1.0f, 1.0f };
      gint64 dim = rank;

      if (n_sf != 1 && n_sf != rank - 2)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                       "ONNX export: node %s: %" G_GSIZE_FORMAT " scale factors for %u spatial dims", name, n_sf,
                       rank - 2);
          return FALSE;
        }
      for (guint i = 2; i < rank; i++)
        scales[i] = (float) sf[n_sf == 1 ? 0 : i - 2];
      rin[2] = new_initializer (ex, inner_value (ex, name, "scales"), GNN_DTYPE_FLOAT32, &dim, 1, scales,
                                rank * sizeof (float))->name;
      o = add_node (ex, "Resize", ex_printf (ex, "/%s/Resize", path), out, 3, rin);
    }
  else
    {
      rin[3] = int64s_initializer (ex, inner_value (ex, name, "sizes"), oshape, rank);
      o = add_node (ex, "Resize", ex_printf (ex, "/%s/Resize", path), out, 4, rin);
    }
  attr_string (ex, o, "mode", nearest ? "nearest" : "linear");
  attr_string (ex, o, "coordinate_transformation_mode",
               nearest ? "asymmetric" : align ? "align_corners" : "pytorch_half_pixel");
  if (nearest)
    attr_string (ex, o, "nearest_mode", "floor");
  return TRUE;
}

/* Unfold: a Conv by a one-hot kernel (C·kh·kw, 1, kh, kw) in C groups, which copies each
 * window's values to torch's (C, kh, kw) channel order, Reshaped to (N, C·kh·kw, L); Fold: the
 * blocks Reshaped to their grid and a ConvTranspose by the same kernel, which sums the
 * overlaps (output_padding where the stride leaves a remainder) */
static gboolean
export_unfold_fold (Export       *ex,
                    GnnGraphNode *node,
                    GnnModule    *m,
                    const char   *path,
                    const char   *name,
                    GnnGraphNode *in_node,
                    const char   *out,
                    const char  **in,
                    GError      **error)
{
  gboolean fold = GNN_IS_FOLD (m);
  guint rank = 0;
  const gint64 *shape = in_node ? gnn_graph_node_get_tensor_meta (in_node, &rank, NULL) : NULL;
  GnnDtype dtype = node_dtype (in_node);
  gint64 k[2], d[2], p[2], st[2], size[2] = { 0, 0 }, pads[4], grid[2], op[2] = { 0, 0 }, kk, c, wshape[4];
  gsize elem = dtype == GNN_DTYPE_FLOAT64 ? 8 : 4;
  g_autofree guint8 *w = NULL;
  const char *cin[2];
  Onnx__NodeProto *o;

  if (!sizes_property (m, "kernel-size", 2, 1, k, error) || !sizes_property (m, "dilation", 2, 1, d, error) ||
      !sizes_property (m, "padding", 2, 0, p, error) || !sizes_property (m, "stride", 2, 1, st, error) ||
      (fold && !sizes_property (m, "output-size", 2, 1, size, error)))
    return FALSE;
  if (shape == NULL || rank != (fold ? 3u : 4u) || (dtype != GNN_DTYPE_FLOAT32 && dtype != GNN_DTYPE_FLOAT64))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "ONNX export: node %s: %s of a %u-d input; gnn's exporter writes a batched %u-d float one",
                   name, gnn_module_get_name (m), shape ? rank : 0, fold ? 3 : 4);
      return FALSE;
    }
  kk = k[0] * k[1];
  c = fold ? shape[1] / kk : shape[1];
  if (kk <= 0 || c <= 0 || (fold && shape[1] % kk != 0) || c * kk > (1 << 20))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "ONNX export: node %s: %s of %" G_GINT64_FORMAT " channels with a %" G_GINT64_FORMAT "x%"
                   G_GINT64_FORMAT " kernel", name, gnn_module_get_name (m), shape[1], k[0], k[1]);
      return FALSE;
    }
  wshape[0] = c * kk, wshape[1] = 1, wshape[2] = k[0], wshape[3] = k[1];
  w = g_malloc0 ((gsize) (c * kk * kk) * elem);
  for (gint64 ch = 0; ch < c; ch++)
    for (gint64 j = 0; j < kk; j++)
      {
        gsize at = (gsize) ((ch * kk + j) * kk + j);

        if (elem == 8)
          ((double *) w)[at] = 1.0;
        else
          ((float *) w)[at] = 1.0f;
      }
  for (guint i = 0; i < 2; i++)
    pads[i] = pads[i + 2] = p[i];
  cin[1] = new_initializer (ex, inner_value (ex, name, "one_hot"), dtype, wshape, 4, w,
                            (gsize) (c * kk * kk) * elem)->name;
  if (!fold)
    {
      static const gint64 flat[3] = { 0, 0, -1 };

      cin[0] = in[0];
      emit (ex, "Conv", name, "windows", NULL, 2, cin, &o);
      attr_ints (ex, o, "dilations", d, 2);
      attr_int (ex, o, "group", c);
      attr_ints (ex, o, "kernel_shape", k, 2);
      attr_ints (ex, o, "pads", pads, 4);
      attr_ints (ex, o, "strides", st, 2);
      emit_reshape (ex, name, "columns", inner_value (ex, name, "windows"), flat, 3, out);
      return TRUE;
    }
  for (guint i = 0; i < 2; i++)
    {
      gint64 span = size[i] + 2 * p[i] - d[i] * (k[i] - 1) - 1;

      grid[i] = span < 0 ? 0 : span / st[i] + 1;
      op[i] = span < 0 ? 0 : span % st[i];
    }
  if (grid[0] * grid[1] != shape[2])
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "ONNX export: node %s: Fold to (%" G_GINT64_FORMAT ", %" G_GINT64_FORMAT ") takes %"
                   G_GINT64_FORMAT " blocks, found %" G_GINT64_FORMAT, name, size[0], size[1],
                   grid[0] * grid[1], shape[2]);
      return FALSE;
    }
  {
    gint64 blocks[4] = { 0, c * kk, grid[0], grid[1] };

    cin[0] = emit_reshape (ex, name, "grid", in[0], blocks, 4, NULL);
  }
  emit (ex, "ConvTranspose", name, "overlap", out, 2, cin, &o);
  attr_ints (ex, o, "dilations", d, 2);
  attr_int (ex, o, "group", c);
  attr_ints (ex, o, "kernel_shape", k, 2);
  if (op[0] != 0 || op[1] != 0)
    attr_ints (ex, o, "output_padding", op, 2);
  attr_ints (ex, o, "pads", pads, 4);
  attr_ints (ex, o, "strides", st, 2);
  return TRUE;
}

static gboolean kwargs_within (GnnArgs            *args,
                               const char * const *allowed);
static const GValue *arg_or_kwarg (GnnArgs    *args,
                                   guint       i,
                                   const char *key);

/* the gate blocks of torch's LSTM step from @g (N, 4H): i, f, g, o (Split along 1) */
static void
split_gates (Export      *ex,
             const char  *prefix,
             const char  *tag,
             const char  *g,
             gint64       hidden,
             const char **gates)
{
  const gint64 sizes[4] = { hidden, hidden, hidden, hidden };
  const char *in[2] = { g, int64s_initializer (ex, inner_value (ex, prefix, ex_printf (ex, "%s_split", tag)), sizes, 4) };
  static const char *const names[4] = { "i", "f", "g", "o" };
  Onnx__NodeProto *o;

  emit (ex, "Split", prefix, tag, NULL, 2, in, &o);
  o->n_output = 4;
  o->output = ex_alloc (ex, 4 * sizeof (char *));
  for (guint k = 0; k < 4; k++)
    gates[k] = o->output[k] = ex_strdup (ex, inner_value (ex, prefix, ex_printf (ex, "%s_%s", tag, names[k])));
  attr_int (ex, o, "axis", 1);
}

/* one layer of an LSTM with proj_size, unrolled over the @steps steps of the traced sequence
 * (ONNX's LSTM has no projection): @seq (T, N, I) time-major, @h0 (L·D, N, P) and @c0
 * (L·D, N, H) or NULL; gives the layer's output (T, N, D·P) and sets @h_n (D, N, P) and @c_n
 * (D, N, H) */
static const char *
projected_layer (Export      *ex,
                 const char  *path,
                 const char  *name,
                 int          l,
                 guint        n_dirs,
                 gboolean     bias,
                 gint64       steps,
                 gint64       hidden,
                 const char  *seq,
                 const char  *h0,
                 const char  *c0,
                 const char **h_n,
                 const char **c_n,
                 GError     **error)
{
  static const gint64 perm[2] = { 1, 0 };
  const char *outs[2], *hs[2], *cs[2];
  Onnx__NodeProto *o;

  for (guint d = 0; d < n_dirs; d++)
    {
      const char *sfx = d ? "_reverse" : "";
      const char *pre = ex_printf (ex, "%s_l%d%s", name, l, sfx);
      const char *w[3], *xw, *h = NULL, *c = NULL, *w_hh_t, *w_hr_t;
      const char **ys = ex_alloc (ex, steps * sizeof (char *));
      static const char *const keys[3] = { "weight_ih", "weight_hh", "weight_hr" };

      for (guint k = 0; k < 3; k++)
        if ((w[k] = tensor_initializer (ex, sub_path (ex, path, ex_printf (ex, "%s_l%d%s", keys[k], l, sfx)),
                                        error)) == NULL)
          return NULL;
      /* the input's part of every step's gates at once: seq · W_ih^T (+ b_ih + b_hh) */
      xw = emit2 (ex, "MatMul", pre, "x_W", NULL, seq, emit_transpose (ex, pre, "W_ih_T", w[0], perm, 2));
      if (bias)
        {
          const char *bi, *bh;

          if ((bi = tensor_initializer (ex, sub_path (ex, path, ex_printf (ex, "bias_ih_l%d%s", l, sfx)),
                                        error)) == NULL ||
              (bh = tensor_initializer (ex, sub_path (ex, path, ex_printf (ex, "bias_hh_l%d%s", l, sfx)),
                                        error)) == NULL)
            return NULL;
          xw = emit2 (ex, "Add", pre, "x_W_b", NULL, xw, emit2 (ex, "Add", pre, "b", NULL, bi, bh));
        }
      w_hh_t = emit_transpose (ex, pre, "W_hh_T", w[1], perm, 2);
      w_hr_t = emit_transpose (ex, pre, "W_hr_T", w[2], perm, 2);
      if (h0 != NULL)
        {
          const char *at = scalar_initializer (ex, inner_value (ex, pre, "state_index"), GNN_DTYPE_INT64,
                                               (double) (l * n_dirs + d));

          h = emit2 (ex, "Gather", pre, "h0", NULL, h0, at);
          c = emit2 (ex, "Gather", pre, "c0", NULL, c0, at);
        }
      for (gint64 s = 0; s < steps; s++)
        {
          gint64 t = d ? steps - 1 - s : s;
          const char *tag = ex_printf (ex, "t%" G_GINT64_FORMAT, t);
          const char *g, *gates[4], *ig;

          g = emit2 (ex, "Gather", pre, tag, NULL, xw,
                     scalar_initializer (ex, inner_value (ex, pre, ex_printf (ex, "%s_index", tag)), GNN_DTYPE_INT64,
                                         (double) t));
          if (h != NULL)   /* at the first step without a state, h and c are zeros */
            g = emit2 (ex, "Add", pre, ex_printf (ex, "%s_gates", tag), NULL, g,
                       emit2 (ex, "MatMul", pre, ex_printf (ex, "%s_h_W", tag), NULL, h, w_hh_t));
          split_gates (ex, pre, ex_printf (ex, "%s_split", tag), g, hidden, gates);
          for (guint k = 0; k < 4; k++)
            gates[k] = emit (ex, k == 2 ? "Tanh" : "Sigmoid", pre, ex_printf (ex, "%s_act%u", tag, k), NULL, 1,
                             &gates[k], NULL);
          ig = emit2 (ex, "Mul", pre, ex_printf (ex, "%s_ig", tag), NULL, gates[0], gates[2]);
          c = c ? emit2 (ex, "Add", pre, ex_printf (ex, "%s_c", tag), NULL,
                         emit2 (ex, "Mul", pre, ex_printf (ex, "%s_fc", tag), NULL, gates[1], c), ig) : ig;
          h = emit2 (ex, "Mul", pre, ex_printf (ex, "%s_h_full", tag), NULL, gates[3],
                     emit (ex, "Tanh", pre, ex_printf (ex, "%s_c_tanh", tag), NULL, 1, &c, NULL));
          h = emit2 (ex, "MatMul", pre, ex_printf (ex, "%s_h", tag), NULL, h, w_hr_t);
          ys[t] = emit_squeeze (ex, "Unsqueeze", pre, ex_printf (ex, "%s_y", tag), h, 0, NULL);
        }
      outs[d] = emit (ex, "Concat", pre, "Y", NULL, steps, ys, &o);
      attr_int (ex, o, "axis", 0);
      hs[d] = emit_squeeze (ex, "Unsqueeze", pre, "Y_h", h, 0, NULL);
      cs[d] = emit_squeeze (ex, "Unsqueeze", pre, "Y_c", c, 0, NULL);
    }
  if (n_dirs == 1)
    {
      *h_n = hs[0], *c_n = cs[0];
      return outs[0];
    }
  *h_n = emit (ex, "Concat", ex_printf (ex, "%s_l%d", name, l), "Y_h_dirs", NULL, 2, hs, &o);
  attr_int (ex, o, "axis", 0);
  *c_n = emit (ex, "Concat", ex_printf (ex, "%s_l%d", name, l), "Y_c_dirs", NULL, 2, cs, &o);
  attr_int (ex, o, "axis", 0);
  outs[0] = emit (ex, "Concat", ex_printf (ex, "%s_l%d", name, l), "Y_dirs", NULL, 2, outs, &o);
  attr_int (ex, o, "axis", 2);
  return outs[0];
}

/* LSTM and GRU: an ONNX LSTM or GRU per layer (torch's gates reordered, the two biases
 * concatenated), each layer's Y (seq, dirs, batch, H) made torch's (seq, batch, dirs·H); the
 * initial states (hx; LSTM's (h_0, c_0)) sliced per layer as initial_h (initial_c); an LSTM
 * with proj_size unrolled over the traced sequence (projected_layer); the call's tuple parts
 * (output, h_n, c_n) are found by the getitem nodes that pick them */
static gboolean
export_recurrent (Export       *ex,
                  GnnGraphNode *node,
                  GnnModule    *m,
                  GError      **error)
{
  static const guint lstm_order[4] = { 0, 3, 1, 2 };   /* i o f c from torch's i f g o */
  static const guint gru_order[3] = { 1, 0, 2 };       /* z r h from torch's r z n */
  static const guint rnn_order[1] = { 0 };
  static const char *const allowed[] = { "hx", NULL };
  const char *path = gnn_graph_node_get_target (node);
  const char *name = gnn_graph_node_get_name (node);
  GnnArgs *args = gnn_graph_node_get_args (node);
  GnnRNNBase *rnn = GNN_RNN_BASE (m);
  gboolean lstm = GNN_IS_LSTM (m), plain = GNN_IS_RNN (m), bias, unbatched;
  guint n_gates = lstm ? 4 : plain ? 1 : 3, n_dirs = gnn_rnn_base_get_bidirectional (rnn) ? 2 : 1, rank;
  gint64 hidden = gnn_rnn_base_get_hidden_size (rnn), proj = gnn_rnn_base_get_proj_size (rnn), steps = 0;
  int layers = gnn_rnn_base_get_num_layers (rnn);
  const guint *order = lstm ? lstm_order : plain ? rnn_order : gru_order;
  g_autofree const char **hs = g_new0 (const char *, layers);
  g_autofree const char **cs = g_new0 (const char *, layers);
  const char *seq, *state[2] = { NULL, NULL };
  const GValue *hx = arg_or_kwarg (args, 1, "hx");
  GnnGraphNode *x_node;
  gboolean time_first;
  Onnx__NodeProto *o;

  if (gnn_args_get_n_values (args) < 1 || gnn_args_get_n_values (args) > 2 || !kwargs_within (args, allowed))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED,
                   "ONNX export: node %s calls %s (%s) with arguments gnn's exporter does not write: it takes "
                   "input and hx", name, path, gnn_module_get_name (m));
      return FALSE;
    }
  if (g_hash_table_contains (ex->outputs_named, name))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED,
                   "ONNX export: the graph returns the tuple %s gives; return its tensors "
                   "(out[0], out[1]%s)", name, lstm ? "[0]" : "");
      return FALSE;
    }
  if ((seq = arg_value (ex, node, gnn_args_get_value (args, 0), error)) == NULL)
    return FALSE;
  x_node = arg_node (gnn_args_get_value (args, 0));
  rank = node_rank (x_node, 3);
  if (rank != 2 && rank != 3)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "ONNX export: node %s: %s of a %u-d input (it takes (L, N, input_size), (N, L, input_size) "
                   "or (L, input_size))", name, gnn_module_get_name (m), rank);
      return FALSE;
    }
  unbatched = rank == 2;
  time_first = unbatched || !gnn_rnn_base_get_batch_first (rnn);
  if (proj > 0)
    {
      const gint64 *shape = x_node ? gnn_graph_node_get_tensor_meta (x_node, NULL, NULL) : NULL;

      if (shape == NULL)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED,
                       "ONNX export: node %s: an LSTM with proj_size is unrolled over its input's sequence, and "
                       "the input has no shape", name);
          return FALSE;
        }
      steps = shape[time_first ? 0 : 1];
      if (steps < 1)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                       "ONNX export: node %s: an LSTM with proj_size over an empty sequence", name);
          return FALSE;
        }
    }
  if (hx != NULL && !(G_VALUE_HOLDS_OBJECT (hx) && g_value_get_object (hx) == NULL))
    {
      GnnArgs *pair = G_VALUE_HOLDS (hx, GNN_TYPE_ARGS) ? g_value_get_object (hx) : NULL;

      if (lstm != (pair != NULL) || (pair && gnn_args_get_n_values (pair) != 2))
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED,
                       "ONNX export: node %s: %s takes as hx %s", name, gnn_module_get_name (m),
                       lstm ? "a tuple (h_0, c_0) of two tensors" : "a tensor");
          return FALSE;
        }
      for (guint k = 0; k < (lstm ? 2u : 1u); k++)
        {
          if ((state[k] = arg_value (ex, node, pair ? gnn_args_get_value (pair, k) : hx, error)) == NULL)
            return FALSE;
          if (unbatched)   /* (L·D, H) to (L·D, 1, H) */
            state[k] = emit_squeeze (ex, "Unsqueeze", name, k ? "c_0" : "h_0", state[k], 1, NULL);
        }
    }
  g_object_get (m, "bias", &bias, NULL);
  if (unbatched)
    seq = emit_squeeze (ex, "Unsqueeze", name, "batch", seq, 1, NULL);
  else if (!time_first)
    {
      static const gint64 perm[3] = { 1, 0, 2 };
      const char *t = inner_value (ex, name, "time_major");

      o = add_node (ex, "Transpose", ex_printf (ex, "/%s/Transpose_in", path), t, 1, &seq);
      attr_ints (ex, o, "perm", perm, 3);
      seq = t;
    }
  for (int l = 0; l < layers; l++)
    {
      const char *in[7] = { seq, NULL, NULL, "", "", "", "" };
      const char *op = lstm ? "LSTM" : plain ? "RNN" : "GRU";
      const char *y = inner_value (ex, name, ex_printf (ex, "Y_%d", l));
      const char *outs[3];
      g_autofree char *lkey = g_strdup_printf ("_l%d", l);
      guint n_in = 3;

      if (proj > 0)
        {
          if ((seq = projected_layer (ex, path, name, l, n_dirs, bias, steps, hidden, seq, state[0], state[1],
                                      &hs[l], &cs[l], error)) == NULL)
            return FALSE;
          continue;
        }
      if ((in[1] = gates_initializer (ex, path, inner_value (ex, name, ex_printf (ex, "W_%d", l)),
                                      ex_printf (ex, "weight_ih%s", lkey), n_dirs, order, n_gates,
                                      hidden, error)) == NULL ||
          (in[2] = gates_initializer (ex, path, inner_value (ex, name, ex_printf (ex, "R_%d", l)),
                                      ex_printf (ex, "weight_hh%s", lkey), n_dirs, order, n_gates,
                                      hidden, error)) == NULL)
        return FALSE;
      if (bias)
        {
          const char *bi, *bh;
          const char *cat[2];

          if ((bi = gates_initializer (ex, path, inner_value (ex, name, ex_printf (ex, "Bi_%d", l)),
                                       ex_printf (ex, "bias_ih%s", lkey), n_dirs, order, n_gates,
                                       hidden, error)) == NULL ||
              (bh = gates_initializer (ex, path, inner_value (ex, name, ex_printf (ex, "Bh_%d", l)),
                                       ex_printf (ex, "bias_hh%s", lkey), n_dirs, order, n_gates,
                                       hidden, error)) == NULL)
            return FALSE;
          cat[0] = bi, cat[1] = bh;
          in[3] = inner_value (ex, name, ex_printf (ex, "B_%d", l));
          o = add_node (ex, "Concat", ex_printf (ex, "/%s/Concat_B_%d", path, l), in[3], 2, cat);
          attr_int (ex, o, "axis", 1);
          n_in = 4;
        }
      for (guint k = 0; k < 2; k++)
        if (state[k] != NULL)
          {
            /* this layer's rows of h_0 (c_0): (D, N, H) */
            in[5 + k] = layers == 1 ? state[k]
                                    : emit_rows (ex, name, ex_printf (ex, "%s_%d", k ? "c_0" : "h_0", l), state[k],
                                                 l * (gint64) n_dirs, (l + 1) * (gint64) n_dirs, 0);
            n_in = 6 + k;
          }
      hs[l] = inner_value (ex, name, ex_printf (ex, "Y_h_%d", l));
      cs[l] = inner_value (ex, name, ex_printf (ex, "Y_c_%d", l));
      outs[0] = y, outs[1] = hs[l], outs[2] = cs[l];
      o = add_node (ex, op, ex_printf (ex, "/%s/%s_%d", path, op, l), y, n_in, in);
      o->n_output = lstm ? 3 : 2;
      o->output = ex_alloc (ex, 3 * sizeof (char *));
      for (guint k = 0; k < o->n_output; k++)
        o->output[k] = ex_strdup (ex, outs[k]);
      attr_int (ex, o, "hidden_size", hidden);
      if (n_dirs == 2)
        {
          Onnx__AttributeProto *a = add_attr (ex, o, "direction", ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__STRING);

          a->has_s = TRUE;
          a->s.data = (guint8 *) ex_strdup (ex, "bidirectional");
          a->s.len = strlen ("bidirectional");
        }
      if (!lstm && !plain)
        attr_int (ex, o, "linear_before_reset", 1);   /* torch's GRU */
      if (plain)
        {
          g_autofree char *nonlinearity = NULL;

          g_object_get (m, "nonlinearity", &nonlinearity, NULL);
          if (g_strcmp0 (nonlinearity, "relu") == 0)
            {
              Onnx__AttributeProto *a = add_attr (ex, o, "activations",
                                                  ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__STRINGS);

              a->n_strings = n_dirs;
              a->strings = ex_alloc (ex, n_dirs * sizeof (ProtobufCBinaryData));
              for (guint k = 0; k < n_dirs; k++)
                {
                  a->strings[k].data = (guint8 *) ex_strdup (ex, "Relu");
                  a->strings[k].len = 4;
                }
            }
        }
      {
        static const gint64 perm[4] = { 0, 2, 1, 3 }, sizes[3] = { 0, 0, -1 };
        const char *t = inner_value (ex, name, ex_printf (ex, "Y_t_%d", l));
        const char *r[2] = { t, NULL };

        o = add_node (ex, "Transpose", ex_printf (ex, "/%s/Transpose_%d", path, l), t, 1, &y);
        attr_ints (ex, o, "perm", perm, 4);
        r[1] = int64s_initializer (ex, inner_value (ex, name, ex_printf (ex, "shape_%d", l)), sizes, 3);
        seq = inner_value (ex, name, ex_printf (ex, "out_%d", l));
        add_node (ex, "Reshape", ex_printf (ex, "/%s/Reshape_%d", path, l), seq, 2, r);
      }
    }
  if (unbatched)
    seq = emit_squeeze (ex, "Squeeze", name, "unbatched", seq, 1, NULL);
  else if (!time_first)
    {
      static const gint64 perm[3] = { 1, 0, 2 };
      const char *t = inner_value (ex, name, "batch_major");

      o = add_node (ex, "Transpose", ex_printf (ex, "/%s/Transpose_out", path), t, 1, &seq);
      attr_ints (ex, o, "perm", perm, 3);
      seq = t;
    }
  g_hash_table_insert (ex->parts, ex_printf (ex, "%s#0", name), (gpointer) seq);
  for (int which = 0; which < (lstm ? 2 : 1); which++)
    {
      const char *state_n = inner_value (ex, name, which ? "c_n" : "h_n");

      o = add_node (ex, "Concat", ex_printf (ex, "/%s/Concat_%s", path, which ? "c_n" : "h_n"), state_n,
                    layers, which ? cs : hs);
      attr_int (ex, o, "axis", 0);
      if (unbatched)
        state_n = emit_squeeze (ex, "Squeeze", name, which ? "c_n_unbatched" : "h_n_unbatched", state_n, 1, NULL);
      g_hash_table_insert (ex->parts, lstm ? ex_printf (ex, "%s#1#%d", name, which)
                                           : ex_printf (ex, "%s#1", name), (gpointer) state_n);
    }
  if (lstm)
    g_hash_table_insert (ex->parts, ex_printf (ex, "%s#1", name), NULL);   /* a tuple */
  return TRUE;
}

static gboolean export_attention_call (Export       *ex,
                                       GnnGraphNode *node,
                                       GnnModule    *m,
                                       const char   *out,
                                       GError      **error);
static gboolean export_two_tensors (Export       *ex,
                                    GnnGraphNode *node,
                                    GnnModule    *m,
                                    const char   *out,
                                    GError      **error);
static gboolean export_cell (Export       *ex,
                             GnnGraphNode *node,
                             GnnModule    *m,
                             const char   *out,
                             GError      **error);

static gboolean
export_module (Export       *ex,
               GnnGraphNode *node,
               const char   *out,
               GError      **error)
{
  const char *path = gnn_graph_node_get_target (node);
  const char *name = gnn_graph_node_get_name (node);
  GnnArgs *args = gnn_graph_node_get_args (node);
  g_autoptr(GError) local = NULL;
  GnnModule *m = gnn_module_get_submodule (ex->root, path, &local);
  GnnGraphNode *in_node;
  const char *in[MAX_INPUTS];
  Onnx__NodeProto *o;

  if (m == NULL)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "ONNX export: node %s calls '%s', which is not a submodule of the root: %s",
                   name, path, local->message);
      return FALSE;
    }
  if (GNN_IS_MULTIHEAD_ATTENTION (m) || GNN_IS_TRANSFORMER_ENCODER_LAYER (m) || GNN_IS_TRANSFORMER_ENCODER (m) ||
      GNN_IS_TRANSFORMER_DECODER_LAYER (m) || GNN_IS_TRANSFORMER_DECODER (m) || GNN_IS_TRANSFORMER (m))
    return export_attention_call (ex, node, m, out, error);
  if (GNN_IS_RNN_CELL_BASE (m))
    return export_cell (ex, node, m, out, error);
  if (GNN_IS_LSTM (m) || GNN_IS_GRU (m) || GNN_IS_RNN (m))
    return export_recurrent (ex, node, m, error);
  if (GNN_IS_COSINE_SIMILARITY (m) || GNN_IS_PAIRWISE_DISTANCE (m) || GNN_IS_BILINEAR (m))
    return export_two_tensors (ex, node, m, out, error);
  if (gnn_args_get_n_values (args) != 1 || n_kwargs (args) != 0)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED,
                   "ONNX export: node %s calls %s (%s) with %u arguments; gnn's exporter "
                   "writes calls of one tensor", name, path, gnn_module_get_name (m),
                   gnn_args_get_n_values (args) + n_kwargs (args));
      return FALSE;
    }
  in_node = arg_node (gnn_args_get_value (args, 0));
  if ((in[0] = arg_value (ex, node, gnn_args_get_value (args, 0), error)) == NULL)
    return FALSE;

  if (GNN_IS_LINEAR (m))
    {
      gboolean bias = gnn_linear_get_bias (GNN_LINEAR (m));

      if ((in[1] = tensor_initializer (ex, sub_path (ex, path, "weight"), error)) == NULL)
        return FALSE;
      if (bias && (in[2] = tensor_initializer (ex, sub_path (ex, path, "bias"), error)) == NULL)
        return FALSE;
      if (node_rank (in_node, 2) == 2)
        {
          o = add_node (ex, "Gemm", ex_printf (ex, "/%s/Gemm", path), out, bias ? 3 : 2, in);
          attr_float (ex, o, "alpha", 1.0);
          attr_float (ex, o, "beta", 1.0);
          attr_int (ex, o, "transB", 1);
        }
      else
        {
          const char *wt = ex_printf (ex, "%s.weight_T", name);
          const char *mm = bias ? ex_printf (ex, "%s_matmul", name) : out;
          static const gint64 perm[2] = { 1, 0 };
          const char *mm_in[2] = { in[0], wt };
          const char *add_in[2] = { mm, in[2] };

          o = add_node (ex, "Transpose", ex_printf (ex, "/%s/Transpose", path), wt, 1, &in[1]);
          attr_ints (ex, o, "perm", perm, 2);
          add_node (ex, "MatMul", ex_printf (ex, "/%s/MatMul", path), mm, 2, mm_in);
          if (bias)
            add_node (ex, "Add", ex_printf (ex, "/%s/Add", path), out, 2, add_in);
        }
      return TRUE;
    }
  if (GNN_IS_CONV1D (m) || GNN_IS_CONV2D (m) || GNN_IS_CONV3D (m))
    return export_conv (ex, m, path, name, GNN_IS_CONV1D (m) ? 1 : GNN_IS_CONV2D (m) ? 2 : 3, FALSE, out, in, error);
  if (GNN_IS_CONV_TRANSPOSE1D (m) || GNN_IS_CONV_TRANSPOSE2D (m) || GNN_IS_CONV_TRANSPOSE3D (m))
    return export_conv (ex, m, path, name, GNN_IS_CONV_TRANSPOSE1D (m) ? 1 : GNN_IS_CONV_TRANSPOSE2D (m) ? 2 : 3, TRUE,
                        out, in, error);
  if (GNN_IS_MAX_POOL3D (m) || GNN_IS_AVG_POOL3D (m))
    return export_pool (ex, m, name, path, 3, GNN_IS_MAX_POOL3D (m), out, in, error);
  if (GNN_IS_ADAPTIVE_AVG_POOL3D (m) || GNN_IS_ADAPTIVE_MAX_POOL1D (m) || GNN_IS_ADAPTIVE_MAX_POOL2D (m) ||
      GNN_IS_ADAPTIVE_MAX_POOL3D (m))
    return export_adaptive_pool (ex, node, m, in_node, path, !GNN_IS_ADAPTIVE_AVG_POOL3D (m), out, in, error);
  if (GNN_IS_INSTANCE_NORM (m))
    return export_instance_norm (ex, m, path, name, in_node, out, in, error);
  if (GNN_IS_PIXEL_SHUFFLE (m) || GNN_IS_PIXEL_UNSHUFFLE (m) || GNN_IS_CHANNEL_SHUFFLE (m))
    return export_shuffle (ex, node, m, path, name, in_node, out, in, error);
  if (GNN_IS_LP_POOL1D (m) || GNN_IS_LP_POOL2D (m))
    return export_lp_pool (ex, m, path, name, GNN_IS_LP_POOL1D (m) ? 1 : 2, node_dtype (in_node), out, in, error);
  if (GNN_IS_UPSAMPLE (m) || GNN_IS_UPSAMPLING_NEAREST2D (m) || GNN_IS_UPSAMPLING_BILINEAR2D (m))
    return export_upsample (ex, node, m, path, name, in_node, out, in, error);
  if (GNN_IS_UNFOLD (m) || GNN_IS_FOLD (m))
    return export_unfold_fold (ex, node, m, path, name, in_node, out, in, error);
  if (GNN_IS_LOCAL_RESPONSE_NORM (m))
    return export_local_response_norm (ex, m, path, name, in_node, out, in, error);
  if (GNN_IS_BATCH_NORM1D (m) || GNN_IS_BATCH_NORM2D (m) || GNN_IS_BATCH_NORM3D (m))
    {
      GnnBatchNorm *bn = GNN_BATCH_NORM (m);

      if (!gnn_batch_norm_get_affine (bn) || !gnn_batch_norm_get_track_running_stats (bn))
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED,
                       "ONNX export: node %s: %s without %s has no ONNX form in gnn's exporter",
                       name, gnn_module_get_name (m),
                       gnn_batch_norm_get_affine (bn) ? "running statistics" : "affine weights");
          return FALSE;
        }
      if ((in[1] = tensor_initializer (ex, sub_path (ex, path, "weight"), error)) == NULL ||
          (in[2] = tensor_initializer (ex, sub_path (ex, path, "bias"), error)) == NULL ||
          (in[3] = tensor_initializer (ex, sub_path (ex, path, "running_mean"), error)) == NULL ||
          (in[4] = tensor_initializer (ex, sub_path (ex, path, "running_var"), error)) == NULL)
        return FALSE;
      o = add_node (ex, "BatchNormalization", ex_printf (ex, "/%s/BatchNormalization", path),
                    out, 5, in);
      attr_float (ex, o, "epsilon", gnn_batch_norm_get_eps (bn));
      attr_float (ex, o, "momentum", 1.0 - gnn_batch_norm_get_momentum (bn));
      return TRUE;
    }
  if (GNN_IS_MAX_POOL2D (m) || GNN_IS_AVG_POOL2D (m))
    return export_pool (ex, m, name, path, 2, GNN_IS_MAX_POOL2D (m), out, in, error);
  if (GNN_IS_ADAPTIVE_AVG_POOL2D (m))
    return export_adaptive_avg_pool2d (ex, node, in_node, ex_printf (ex, "/%s", path), out, in, error);
  if (GNN_IS_FLATTEN (m))
    {
      int start, end;
      guint rank = node_rank (in_node, 0);

      g_object_get (m, "start-dim", &start, "end-dim", &end, NULL);
      if (rank > 0 && start < 0)
        start += rank;
      if (rank > 0 && end < 0)
        end += rank;
      if (rank > 0 && start == 1 && end == (int) rank - 1)
        {
          o = add_node (ex, "Flatten", ex_printf (ex, "/%s/Flatten", path), out, 1, in);
          attr_int (ex, o, "axis", 1);
          return TRUE;
        }
      {
        guint n_out;
        const gint64 *shape = gnn_graph_node_get_tensor_meta (node, &n_out, NULL);

        if (shape == NULL)
          {
            g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                         "ONNX export: node %s has no shape: run shape propagation first", name);
            return FALSE;
          }
        in[1] = int64s_initializer (ex, ex_printf (ex, "%s_shape", name), shape, n_out);
        add_node (ex, "Reshape", ex_printf (ex, "/%s/Reshape", path), out, 2, in);
        return TRUE;
      }
    }
  if (GNN_IS_DROPOUT (m) || GNN_IS_DROPOUT1D (m) || GNN_IS_DROPOUT2D (m) || GNN_IS_IDENTITY (m) ||
      GNN_IS_DROPOUT3D (m) || GNN_IS_ALPHA_DROPOUT (m) || GNN_IS_FEATURE_ALPHA_DROPOUT (m))
    {
      /* exported for inference, as torch.onnx.export does by default */
      add_node (ex, "Identity", ex_printf (ex, "/%s/Identity", path), out, 1, in);
      return TRUE;
    }
  if (GNN_IS_SELU (m) || GNN_IS_CELU (m))
    {
      gboolean celu = GNN_IS_CELU (m);

      o = add_node (ex, celu ? "Celu" : "Selu", ex_printf (ex, "/%s/%s", path, celu ? "Celu" : "Selu"),
                    out, 1, in);
      if (celu)
        {
          double alpha;

          g_object_get (m, "alpha", &alpha, NULL);
          attr_float (ex, o, "alpha", alpha);
        }
      return TRUE;          /* Selu's alpha and gamma default to torch's constants */
    }
  if (GNN_IS_SOFTPLUS (m))
    {
      double beta, threshold;

      g_object_get (m, "beta", &beta, "threshold", &threshold, NULL);
      /* ONNX's Softplus is log (exp (x) + 1), without torch's linear region; above 20 the two
       * are equal in float32, so only thresholds from 20 up are written */
      if (threshold < 20.0)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED,
                       "ONNX export: node %s: Softplus with threshold %g has no ONNX form in gnn's "
                       "exporter (ONNX's Softplus has no linear region; threshold 20 or more)",
                       name, threshold);
          return FALSE;
        }
      if (beta == 1.0)
        add_node (ex, "Softplus", ex_printf (ex, "/%s/Softplus", path), out, 1, in);
      else
        {
          const char *bx = inner_value (ex, name, "beta_x"), *sp = inner_value (ex, name, "softplus");

          add_with_number (ex, "Mul", name, "beta", in[0], beta, node_dtype (in_node), bx);
          add_node (ex, "Softplus", ex_printf (ex, "/%s/Softplus", path), sp, 1, &bx);
          add_with_number (ex, "Div", name, "unbeta", sp, beta, node_dtype (in_node), out);
        }
      return TRUE;
    }
  if (GNN_IS_HARDSHRINK (m) || GNN_IS_SOFTSHRINK (m))
    {
      double lambd;

      g_object_get (m, "lambd", &lambd, NULL);
      o = add_node (ex, "Shrink", ex_printf (ex, "/%s/Shrink", path), out, 1, in);
      attr_float (ex, o, "lambd", lambd);
      attr_float (ex, o, "bias", GNN_IS_SOFTSHRINK (m) ? lambd : 0.0);
      return TRUE;
    }
  if (GNN_IS_SOFTMAX2D (m) || GNN_IS_SOFTMIN (m))
    {
      gint64 axis = -3;
      const char *x = in[0];

      if (GNN_IS_SOFTMIN (m))
        {
          int dim;
          guint rank = node_rank (in_node, 0);

          g_object_get (m, "dim", &dim, NULL);
          /* torch's implicit dim: 0 for 0-, 1- and 3-d inputs, 1 otherwise */
          axis = dim != G_MININT ? dim : (rank == 0 || rank == 1 || rank == 3) ? 0 : 1;
          x = inner_value (ex, name, "neg");
          add_node (ex, "Neg", ex_printf (ex, "/%s/Neg", path), x, 1, in);
        }
      o = add_node (ex, "Softmax", ex_printf (ex, "/%s/Softmax", path), out, 1, &x);
      attr_int (ex, o, "axis", axis);
      return TRUE;
    }
  if (GNN_IS_LOG_SIGMOID (m))
    {
      const char *sig = inner_value (ex, name, "sigmoid");

      add_node (ex, "Sigmoid", ex_printf (ex, "/%s/Sigmoid", path), sig, 1, in);
      add_node (ex, "Log", ex_printf (ex, "/%s/Log", path), out, 1, &sig);
      return TRUE;
    }
  if (GNN_IS_TANHSHRINK (m))
    {
      const char *t = inner_value (ex, name, "tanh");
      const char *sub_in[2] = { in[0], t };

      add_node (ex, "Tanh", ex_printf (ex, "/%s/Tanh", path), t, 1, in);
      add_node (ex, "Sub", ex_printf (ex, "/%s/Sub", path), out, 2, sub_in);
      return TRUE;
    }
  if (GNN_IS_PRELU (m))
    {
      /* PRelu's slope broadcasts from the last dim: torch's (C,) weight is on dim 1, so it is
       * reshaped to (C, 1, ...) for the input's rank */
      guint rank = node_rank (in_node, 0);
      gint64 shape[8] = { -1, 1, 1, 1, 1, 1, 1, 1 };
      const char *r[2], *slope = inner_value (ex, name, "slope");

      if ((r[0] = tensor_initializer (ex, sub_path (ex, path, "weight"), error)) == NULL)
        return FALSE;
      if (rank < 2 || rank > 9)
        in[1] = r[0];
      else
        {
          r[1] = int64s_initializer (ex, inner_value (ex, name, "slope_shape"), shape, rank - 1);
          add_node (ex, "Reshape", ex_printf (ex, "/%s/Reshape", path), slope, 2, r);
          in[1] = slope;
        }
      add_node (ex, "PRelu", ex_printf (ex, "/%s/PRelu", path), out, 2, in);
      return TRUE;
    }
  if (GNN_IS_MAX_POOL1D (m) || GNN_IS_AVG_POOL1D (m))
    return export_pool (ex, m, name, path, 1, GNN_IS_MAX_POOL1D (m), out, in, error);
  if (GNN_IS_ADAPTIVE_AVG_POOL1D (m))
    {
      gint64 size;
      const gint64 *shape = in_node ? gnn_graph_node_get_tensor_meta (in_node, NULL, NULL) : NULL;
      guint n_dims = node_rank (in_node, 0);

      if (!sizes_property (m, "output-size", 1, 0, &size, error))
        return FALSE;
      if (size == 1)
        {
          add_node (ex, "GlobalAveragePool", ex_printf (ex, "/%s/GlobalAveragePool", path), out, 1, in);
          return TRUE;
        }
      if (shape != NULL && n_dims == 3 && size > 0 && shape[2] % size == 0)
        {
          gint64 k = shape[2] / size, pads[2] = { 0, 0 };

          o = add_node (ex, "AveragePool", ex_printf (ex, "/%s/AveragePool", path), out, 1, in);
          attr_ints (ex, o, "kernel_shape", &k, 1);
          attr_ints (ex, o, "pads", pads, 2);
          attr_ints (ex, o, "strides", &k, 1);
          return TRUE;
        }
      g_set_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED,
                   "ONNX export: node %s: AdaptiveAvgPool1d to a size that does not divide the "
                   "input has no ONNX form (torch refuses it too)", name);
      return FALSE;
    }
  if (GNN_IS_UNFLATTEN (m))
    {
      guint n_out;
      const gint64 *shape = gnn_graph_node_get_tensor_meta (node, &n_out, NULL);

      if (shape == NULL)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                       "ONNX export: node %s has no shape: run shape propagation first", name);
          return FALSE;
        }
      in[1] = int64s_initializer (ex, ex_printf (ex, "%s_shape", name), shape, n_out);
      add_node (ex, "Reshape", ex_printf (ex, "/%s/Reshape", path), out, 2, in);
      return TRUE;
    }
  if (GNN_IS_RRELU (m))
    {
      double lower, upper;

      /* exported for inference, where torch's RReLU is a leaky ReLU of the mean slope */
      g_object_get (m, "lower", &lower, "upper", &upper, NULL);
      o = add_node (ex, "LeakyRelu", ex_printf (ex, "/%s/LeakyRelu", path), out, 1, in);
      attr_float (ex, o, "alpha", (lower + upper) / 2.0);
      return TRUE;
    }
  {
    guint n_pad, rank = node_rank (in_node, 0);
    const char *mode;
    gboolean has_value;

    if (pad_layer (m, &n_pad, &mode, &has_value))
      {
        gint64 torch_pads[6], pads[16] = { 0 };
        double value = 0.0;
        Onnx__AttributeProto *a;

        if (!sizes_property (m, "padding", 2 * n_pad, 0, torch_pads, error))
          return FALSE;
        if (rank < n_pad || rank > 8)
          {
            g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                         "ONNX export: node %s: %s of a %u-d input", name, gnn_module_get_name (m), rank);
            return FALSE;
          }
        /* torch's (left, right, top, bottom, ...) from the last dim; ONNX's all begins, then ends */
        for (guint j = 0; j < n_pad; j++)
          {
            pads[rank - 1 - j] = torch_pads[2 * j];
            pads[2 * rank - 1 - j] = torch_pads[2 * j + 1];
          }
        if (has_value)
          g_object_get (m, "value", &value, NULL);
        in[1] = int64s_initializer (ex, inner_value (ex, name, "pads"), pads, 2 * rank);
        in[2] = scalar_initializer (ex, inner_value (ex, name, "value"), node_dtype (in_node), value);
        o = add_node (ex, "Pad", ex_printf (ex, "/%s/Pad", path), out, g_str_equal (mode, "constant") ? 3 : 2, in);
        a = add_attr (ex, o, "mode", ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__STRING);
        a->has_s = TRUE;
        a->s.data = (guint8 *) ex_strdup (ex, mode);
        a->s.len = strlen (mode);
        return TRUE;
      }
  }
  if (GNN_IS_GELU (m))
    {
      export_gelu (ex, name, g_strcmp0 (gnn_gelu_get_approximate (GNN_GELU (m)), "tanh") == 0,
                   in[0], node_dtype (in_node), out);
      return TRUE;
    }
  if (GNN_IS_SILU (m))
    {
      const char *sig = inner_value (ex, name, "sigmoid");
      const char *mul_in[2] = { in[0], sig };

      add_node (ex, "Sigmoid", ex_printf (ex, "/%s/Sigmoid", path), sig, 1, in);
      add_node (ex, "Mul", ex_printf (ex, "/%s/Mul", path), out, 2, mul_in);
      return TRUE;
    }
  if (GNN_IS_RELU6 (m) || GNN_IS_HARDTANH (m))
    {
      double lo = 0.0, hi = 6.0;

      if (GNN_IS_HARDTANH (m))
        g_object_get (m, "min-val", &lo, "max-val", &hi, NULL);
      in[1] = scalar_initializer (ex, inner_value (ex, name, "min"), node_dtype (in_node), lo);
      in[2] = scalar_initializer (ex, inner_value (ex, name, "max"), node_dtype (in_node), hi);
      add_node (ex, "Clip", ex_printf (ex, "/%s/Clip", path), out, 3, in);
      return TRUE;
    }
  if (GNN_IS_HARDSIGMOID (m) || (GNN_IS_HARDSWISH (m) && ex->opset < 14))
    {
      /* torch's relu6 (x + 3) / 6; Hardswish before opset 14 is x times it */
      const char *hs = GNN_IS_HARDSWISH (m) ? inner_value (ex, name, "hardsigmoid") : out;

      o = add_node (ex, "HardSigmoid", ex_printf (ex, "/%s/HardSigmoid", path), hs, 1, in);
      attr_float (ex, o, "alpha", 1.0 / 6.0);
      attr_float (ex, o, "beta", 0.5);
      if (GNN_IS_HARDSWISH (m))
        {
          const char *mul_in[2] = { in[0], hs };

          add_node (ex, "Mul", ex_printf (ex, "/%s/Mul", path), out, 2, mul_in);
        }
      return TRUE;
    }
  if (GNN_IS_HARDSWISH (m))
    {
      add_node (ex, "HardSwish", ex_printf (ex, "/%s/HardSwish", path), out, 1, in);
      return TRUE;
    }
  if (GNN_IS_GROUP_NORM (m))
    {
      /* opset 17 has no GroupNormalization: torch's composition, (N, G, -1) normalized by
       * InstanceNormalization (scale 1, bias 0 per group), the input's shape again, then the
       * affine weight and bias (C, 1, ...) */
      GnnGroupNorm *gn = GNN_GROUP_NORM (m);
      gint64 G = gnn_group_norm_get_num_groups (gn), grouped[3] = { 0, G, -1 };
      gint64 ones[8] = { -1, 1, 1, 1, 1, 1, 1, 1 };
      guint rank = node_rank (in_node, 0);
      const char *g, *shape, *y, *r[3] = { NULL, NULL, NULL };

      if (node_dtype (in_node) != GNN_DTYPE_FLOAT32 || rank < 2 || rank > 9)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED,
                       "ONNX export: node %s: GroupNorm is written for float32 inputs of 2 to 9 dims "
                       "(found %u dims)", name, rank);
          return FALSE;
        }
      g = emit_reshape (ex, name, "grouped", in[0], grouped, 3, NULL);
      r[0] = g;
      r[1] = filled_initializer (ex, inner_value (ex, name, "group_scale"), &G, 1, 1.0f);
      r[2] = filled_initializer (ex, inner_value (ex, name, "group_bias"), &G, 1, 0.0f);
      o = add_node (ex, "InstanceNormalization", ex_printf (ex, "/%s/InstanceNormalization", path),
                    inner_value (ex, name, "normalized"), 3, r);
      attr_float (ex, o, "epsilon", gnn_group_norm_get_eps (gn));
      shape = emit (ex, "Shape", name, "shape", NULL, 1, &in[0], NULL);
      y = emit2 (ex, "Reshape", name, "ungrouped", gnn_group_norm_get_affine (gn) ? NULL : out,
                 inner_value (ex, name, "normalized"), shape);
      if (gnn_group_norm_get_affine (gn))
        {
          const char *w, *b;

          if ((w = tensor_initializer (ex, sub_path (ex, path, "weight"), error)) == NULL ||
              (b = tensor_initializer (ex, sub_path (ex, path, "bias"), error)) == NULL)
            return FALSE;
          w = emit_reshape (ex, name, "weight_c", w, ones, rank - 1, NULL);
          b = emit_reshape (ex, name, "bias_c", b, ones, rank - 1, NULL);
          y = emit2 (ex, "Mul", name, "scaled", NULL, y, w);
          emit2 (ex, "Add", name, "shifted", out, y, b);
        }
      return TRUE;
    }
  if (GNN_IS_THRESHOLD (m))
    {
      /* x where x > threshold, value elsewhere: Greater, Where */
      double threshold, value;
      const char *gt, *w[3];

      g_object_get (m, "threshold", &threshold, "value", &value, NULL);
      gt = emit2 (ex, "Greater", name, "above", NULL, in[0],
                  scalar_initializer (ex, inner_value (ex, name, "threshold"), node_dtype (in_node), threshold));
      w[0] = gt, w[1] = in[0];
      w[2] = scalar_initializer (ex, inner_value (ex, name, "value"), node_dtype (in_node), value);
      emit (ex, "Where", name, "where", out, 3, w, NULL);
      return TRUE;
    }
  if (GNN_IS_GLU (m))
    {
      /* a sigmoid (b) of the two halves along dim: Slice, Slice, Sigmoid, Mul */
      guint rank = 0;
      const gint64 *shape = in_node ? gnn_graph_node_get_tensor_meta (in_node, &rank, NULL) : NULL;
      int dim, d;
      const char *a, *b;

      g_object_get (m, "dim", &dim, NULL);
      d = dim < 0 ? dim + (int) rank : dim;
      if (shape == NULL || d < 0 || d >= (int) rank || shape[d] % 2 != 0)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                       "ONNX export: node %s: GLU halves dim %d, which the input's shape does not have in "
                       "an even size", name, dim);
          return FALSE;
        }
      {
        gint64 half = shape[d] / 2;

        a = emit_rows (ex, name, "first_half", in[0], 0, half, dim);
        b = emit_rows (ex, name, "second_half", in[0], half, 2 * half, dim);
        b = emit (ex, "Sigmoid", name, "gate", NULL, 1, &b, NULL);
        emit2 (ex, "Mul", name, "gated", out, a, b);
      }
      return TRUE;
    }
  if (GNN_IS_MISH (m))
    {
      /* opset 17 has no Mish: x tanh (softplus (x)) (ONNX's Softplus has no linear region;
       * from 20, where torch's begins, tanh of either is 1 in float32) */
      const char *sp = emit (ex, "Softplus", name, "softplus", NULL, 1, &in[0], NULL);
      const char *t = emit (ex, "Tanh", name, "tanh", NULL, 1, &sp, NULL);

      emit2 (ex, "Mul", name, "mul", out, in[0], t);
      return TRUE;
    }
  if (GNN_IS_LAYER_NORM (m))
    return layer_norm_form (ex, m, path, name, in, node_dtype (in_node), out, error);
  if (GNN_IS_EMBEDDING_BAG (m))
    {
      /* bags of a 2-d input: Gather of the weight, ReduceSum / ReduceMean / ReduceMax over dim 1 */
      g_autofree char *mode = NULL;
      gint64 padding_idx, axis = 1;
      const char *gin[2] = { NULL, in[0] }, *rin[2];
      guint rank = node_rank (in_node, 0);

      g_object_get (m, "mode", &mode, "padding-idx", &padding_idx, NULL);
      if (rank != 2 || padding_idx != G_MININT)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED,
                       "ONNX export: node %s: EmbeddingBag %s has no ONNX form in gnn's exporter (it writes the bags "
                       "of a 2-d input without padding_idx)", name,
                       rank != 2 ? "of a 1-d input with offsets" : "with padding_idx");
          return FALSE;
        }
      if ((gin[0] = tensor_initializer (ex, sub_path (ex, path, "weight"), error)) == NULL)
        return FALSE;
      rin[0] = emit (ex, "Gather", name, "rows", NULL, 2, gin, NULL);
      if (g_strcmp0 (mode, "sum") == 0)
        {
          rin[1] = int64s_initializer (ex, inner_value (ex, name, "axes"), &axis, 1);
          emit (ex, "ReduceSum", name, "bags", out, 2, rin, &o);
        }
      else
        {
          emit (ex, g_strcmp0 (mode, "max") == 0 ? "ReduceMax" : "ReduceMean", name, "bags", out, 1, rin, &o);
          attr_ints (ex, o, "axes", &axis, 1);
        }
      attr_int (ex, o, "keepdims", 0);
      return TRUE;
    }
  if (GNN_IS_EMBEDDING (m))
    {
      const char *gin[2] = { NULL, in[0] };

      if ((gin[0] = tensor_initializer (ex, sub_path (ex, path, "weight"), error)) == NULL)
        return FALSE;
      add_node (ex, "Gather", ex_printf (ex, "/%s/Gather", path), out, 2, gin);
      return TRUE;
    }
  {
    static const struct { GType (*type) (void); const char *op; } plain[] = {
      { gnn_relu_get_type, "Relu" },
      { gnn_sigmoid_get_type, "Sigmoid" },
      { gnn_tanh_get_type, "Tanh" },
      { gnn_softsign_get_type, "Softsign" },
    };

    for (guint i = 0; i < G_N_ELEMENTS (plain); i++)
      if (G_TYPE_CHECK_INSTANCE_TYPE (m, plain[i].type ()))
        {
          add_node (ex, plain[i].op, ex_printf (ex, "/%s/%s", path, plain[i].op), out, 1, in);
          return TRUE;
        }
  }
  if (GNN_IS_LEAKY_RELU (m) || GNN_IS_ELU (m))
    {
      gboolean leaky = GNN_IS_LEAKY_RELU (m);

      o = add_node (ex, leaky ? "LeakyRelu" : "Elu",
                    ex_printf (ex, "/%s/%s", path, leaky ? "LeakyRelu" : "Elu"), out, 1, in);
      attr_float (ex, o, "alpha", leaky ? gnn_leaky_relu_get_negative_slope (GNN_LEAKY_RELU (m))
                                        : gnn_elu_get_alpha (GNN_ELU (m)));
      return TRUE;
    }
  if (GNN_IS_SOFTMAX (m) || GNN_IS_LOG_SOFTMAX (m))
    {
      gboolean log = GNN_IS_LOG_SOFTMAX (m);
      int dim;

      g_object_get (m, "dim", &dim, NULL);
      o = add_node (ex, log ? "LogSoftmax" : "Softmax",
                    ex_printf (ex, "/%s/%s", path, log ? "LogSoftmax" : "Softmax"), out, 1, in);
      attr_int (ex, o, "axis", dim);
      return TRUE;
    }
  g_set_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED,
               "ONNX export: node %s calls %s, a %s, which has no ONNX form in gnn's exporter "
               "(doc/onnx.md lists the layers it writes)", name, path, gnn_module_get_name (m));
  return FALSE;
}

/* ---- functions and methods ------------------------------------------------------------- */

/* the name of a function target without the namespace gnn writes it under */
static const char *
function_name (const char *target)
{
  static const char *const prefixes[] = { "gnn.nn.functional.", "gnn.", "Gnn.", "operator.",
                                          "torch.nn.functional.", "torch." };

  for (guint i = 0; i < G_N_ELEMENTS (prefixes); i++)
    if (g_str_has_prefix (target, prefixes[i]) && strchr (target + strlen (prefixes[i]), '.') == NULL)
      return target + strlen (prefixes[i]);
  return NULL;
}

/* an int, or a tuple of ints (a GnnArgs), as at most @max ints */
static gboolean
int_list (const GValue *v,
          gint64       *out,
          guint         max,
          guint        *n)
{
  *n = 0;
  if (v != NULL && G_VALUE_HOLDS (v, GNN_TYPE_ARGS) && g_value_get_object (v) != NULL)
    {
      GnnArgs *inner = g_value_get_object (v);

      if (gnn_args_get_n_values (inner) > max)
        return FALSE;
      for (guint k = 0; k < gnn_args_get_n_values (inner); k++)
        if (!value_is_int (gnn_args_get_value (inner, k), &out[(*n)++]))
          return FALSE;
      return TRUE;
    }
  if (v != NULL && max >= 1 && value_is_int (v, &out[0]))
    {
      *n = 1;
      return TRUE;
    }
  return FALSE;
}

/* whether @args has no keyword argument other than those in @allowed (NULL-terminated) */
static gboolean
kwargs_within (GnnArgs            *args,
               const char * const *allowed)
{
  g_auto(GStrv) names = gnn_args_get_kwarg_names (args);

  for (guint i = 0; names != NULL && names[i] != NULL; i++)
    if (!g_strv_contains (allowed, names[i]))
      return FALSE;
  return TRUE;
}

/* the positional argument @i, or else the keyword argument @key, or NULL */
static const GValue *
arg_or_kwarg (GnnArgs    *args,
              guint       i,
              const char *key)
{
  if (i < gnn_args_get_n_values (args))
    return gnn_args_get_value (args, i);
  return key ? gnn_args_get_kwarg (args, key) : NULL;
}

/* fmod: Mod (fmod 1); remainder (the sign of the divisor, as torch's): the fmod, plus b where
 * it is not 0 and its sign differs from b's (Less, Xor, Equal, Not, And, Where) */
static gboolean
binary_mod (Export      *ex,
            const char  *name,
            gboolean     remainder,
            const char **in,
            GnnDtype     dtype,
            const char  *out)
{
  Onnx__NodeProto *o;
  const char *m, *zero, *neg_m, *neg_b, *differ, *nonzero, *cond, *w[3];

  m = emit (ex, "Mod", name, "fmod", remainder ? NULL : out, 2, in, &o);
  attr_int (ex, o, "fmod", 1);
  if (!remainder)
    return TRUE;
  zero = scalar_initializer (ex, inner_value (ex, name, "zero"), dtype, 0.0);
  neg_m = emit2 (ex, "Less", name, "m_negative", NULL, m, zero);
  neg_b = emit2 (ex, "Less", name, "b_negative", NULL, in[1], zero);
  differ = emit2 (ex, "Xor", name, "signs_differ", NULL, neg_m, neg_b);
  nonzero = emit2 (ex, "Equal", name, "m_zero", NULL, m, zero);
  nonzero = emit (ex, "Not", name, "m_nonzero", NULL, 1, &nonzero, NULL);
  cond = emit2 (ex, "And", name, "shift", NULL, differ, nonzero);
  w[0] = cond, w[1] = emit2 (ex, "Add", name, "shifted", NULL, m, in[1]), w[2] = m;
  emit (ex, "Where", name, "where", out, 3, w, NULL);
  return TRUE;
}

/* the functions of one tensor that ONNX writes as a few operators; FALSE (without @error)
 * when @fn is none of them */
static gboolean
export_composed_unary (Export       *ex,
                       GnnGraphNode *node,
                       const char   *fn,
                       const char   *out,
                       GError      **error)
{
  const char *name = gnn_graph_node_get_name (node);
  GnnGraphNode *x_node = arg_node (gnn_args_get_value (gnn_graph_node_get_args (node), 0));
  GnnDtype dtype = node_dtype (x_node);
  const char *x, *t;

  if (strcmp (fn, "rsqrt") != 0 && strcmp (fn, "log1p") != 0 && strcmp (fn, "expm1") != 0 &&
      strcmp (fn, "log2") != 0 && strcmp (fn, "log10") != 0 && strcmp (fn, "mish") != 0 &&
      strcmp (fn, "exp2") != 0 && strcmp (fn, "silu") != 0 && strcmp (fn, "softsign") != 0)
    return FALSE;
  if ((x = arg_value (ex, node, gnn_args_get_value (gnn_graph_node_get_args (node), 0), error)) == NULL)
    return FALSE;
  if (strcmp (fn, "rsqrt") == 0)   /* Sqrt, Reciprocal */
    {
      t = emit (ex, "Sqrt", name, "sqrt", NULL, 1, &x, NULL);
      emit (ex, "Reciprocal", name, "reciprocal", out, 1, &t, NULL);
    }
  else if (strcmp (fn, "log1p") == 0)   /* Add 1, Log (as torch writes it) */
    {
      t = emit2 (ex, "Add", name, "one_plus", NULL, x, scalar_initializer (ex, inner_value (ex, name, "one"), dtype, 1.0));
      emit (ex, "Log", name, "log", out, 1, &t, NULL);
    }
  else if (strcmp (fn, "expm1") == 0)   /* Exp, Sub 1 */
    {
      t = emit (ex, "Exp", name, "exp", NULL, 1, &x, NULL);
      emit2 (ex, "Sub", name, "minus_one", out, t, scalar_initializer (ex, inner_value (ex, name, "one"), dtype, 1.0));
    }
  else if (strcmp (fn, "log2") == 0 || strcmp (fn, "log10") == 0)   /* Log, Div by ln 2 (ln 10) */
    {
      t = emit (ex, "Log", name, "log", NULL, 1, &x, NULL);
      emit2 (ex, "Div", name, "base", out, t,
             scalar_initializer (ex, inner_value (ex, name, "ln_base"), dtype, fn[3] == '2' ? G_LN2 : G_LN10));
    }
  else if (strcmp (fn, "exp2") == 0)   /* Pow (2, x) */
    emit2 (ex, "Pow", name, "pow", out, scalar_initializer (ex, inner_value (ex, name, "two"), dtype, 2.0), x);
  else if (strcmp (fn, "silu") == 0)   /* Sigmoid, Mul */
    emit2 (ex, "Mul", name, "mul", out, x, emit (ex, "Sigmoid", name, "sigmoid", NULL, 1, &x, NULL));
  else if (strcmp (fn, "softsign") == 0)
    emit (ex, "Softsign", name, "softsign", out, 1, &x, NULL);
  else   /* mish: Softplus, Tanh, Mul by x, as the layer */
    {
      t = emit (ex, "Softplus", name, "softplus", NULL, 1, &x, NULL);
      t = emit (ex, "Tanh", name, "tanh", NULL, 1, &t, NULL);
      emit2 (ex, "Mul", name, "mul", out, x, t);
    }
  return TRUE;
}

/* a tensor argument, or a number as a 0-d initializer of @dtype, or NULL when @v is neither */
static const char *
tensor_or_number (Export       *ex,
                  GnnGraphNode *node,
                  const GValue *v,
                  const char   *tag,
                  GnnDtype      dtype,
                  GError      **error)
{
  double number;

  if (v == NULL)
    return NULL;
  if (arg_node (v) == NULL && value_is_number (v, &number))
    return scalar_initializer (ex, inner_value (ex, gnn_graph_node_get_name (node), tag), dtype, number);
  if (arg_node (v) == NULL)
    return NULL;
  return arg_value (ex, node, v, error);
}

/* where, lerp, addcmul, addcdiv, clamp / clip, threshold, cumsum: FALSE (without @error) when
 * @fn is none of them or its arguments are not what its form takes */
static gboolean
export_composed_call (Export       *ex,
                      GnnGraphNode *node,
                      const char   *fn,
                      const char   *out,
                      GError      **error)
{
  const char *name = gnn_graph_node_get_name (node);
  GnnArgs *args = gnn_graph_node_get_args (node);
  guint n = gnn_args_get_n_values (args);
  GnnGraphNode *x_node = n >= 1 ? arg_node (gnn_args_get_value (args, 0)) : NULL;
  GnnDtype dtype = node_dtype (x_node);
  const char *in[3] = { NULL, NULL, NULL };
  Onnx__NodeProto *node_out;

  if (strcmp (fn, "where") == 0 && n == 3 && n_kwargs (args) == 0 && x_node != NULL)
    {
      GnnGraphNode *other = arg_node (gnn_args_get_value (args, 1));

      if (other == NULL)
        other = arg_node (gnn_args_get_value (args, 2));
      if (other == NULL)
        return FALSE;
      if ((in[0] = arg_value (ex, node, gnn_args_get_value (args, 0), error)) == NULL ||
          (in[1] = tensor_or_number (ex, node, gnn_args_get_value (args, 1), "x", node_dtype (other), error)) == NULL ||
          (in[2] = tensor_or_number (ex, node, gnn_args_get_value (args, 2), "y", node_dtype (other), error)) == NULL)
        return FALSE;
      emit (ex, "Where", name, "where", out, 3, in, NULL);
      return TRUE;
    }
  if (strcmp (fn, "lerp") == 0 && n == 3 && n_kwargs (args) == 0 && x_node != NULL)
    {
      /* a + w (b - a): Sub, Mul, Add */
      for (guint j = 0; j < 3; j++)
        if ((in[j] = tensor_or_number (ex, node, gnn_args_get_value (args, j), ex_printf (ex, "arg%u", j), dtype,
                                       error)) == NULL)
          return FALSE;
      emit2 (ex, "Add", name, "add", out, in[0],
             emit2 (ex, "Mul", name, "mul", NULL, in[2], emit2 (ex, "Sub", name, "sub", NULL, in[1], in[0])));
      return TRUE;
    }
  if ((strcmp (fn, "addcmul") == 0 || strcmp (fn, "addcdiv") == 0) && n == 3 && x_node != NULL &&
      kwargs_within (args, (const char * const[]) { "value", NULL }))
    {
      /* x + value · t1 * t2 (t1 / t2): Mul (Div), Mul, Add */
      const GValue *value_v = gnn_args_get_kwarg (args, "value");
      double value = 1.0;
      const char *t;

      if (value_v != NULL && !value_is_number (value_v, &value))
        return FALSE;
      for (guint j = 0; j < 3; j++)
        if ((in[j] = arg_value (ex, node, gnn_args_get_value (args, j), error)) == NULL)
          return FALSE;
      t = emit2 (ex, fn[4] == 'm' ? "Mul" : "Div", name, "product", NULL, in[1], in[2]);
      if (value != 1.0)
        t = emit2 (ex, "Mul", name, "scaled", NULL, t, scalar_initializer (ex, inner_value (ex, name, "value"), dtype, value));
      emit2 (ex, "Add", name, "add", out, in[0], t);
      return TRUE;
    }
  if ((strcmp (fn, "clamp") == 0 || strcmp (fn, "clip") == 0) && n >= 1 && n <= 3 && x_node != NULL &&
      kwargs_within (args, (const char * const[]) { "min", "max", NULL }))
    {
      /* Clip, min and max as 0-d initializers or tensors ("" when not given) */
      const GValue *lo = arg_or_kwarg (args, 1, "min"), *hi = arg_or_kwarg (args, 2, "max");
      const char *bounds[2] = { "", "" };

      for (guint j = 0; j < 2; j++)
        {
          const GValue *v = j ? hi : lo;

          if (v == NULL || (G_VALUE_HOLDS_OBJECT (v) && g_value_get_object (v) == NULL))
            continue;
          if (arg_node (v) != NULL)   /* a tensor bound: ONNX's Clip takes 0-d bounds only */
            return FALSE;
          if ((bounds[j] = tensor_or_number (ex, node, v, j ? "max" : "min", dtype, error)) == NULL)
            return FALSE;
        }
      if ((in[0] = arg_value (ex, node, gnn_args_get_value (args, 0), error)) == NULL)
        return FALSE;
      in[1] = bounds[0], in[2] = bounds[1];
      emit (ex, "Clip", name, "clip", out, *bounds[1] ? 3 : *bounds[0] ? 2 : 1, in, NULL);
      return TRUE;
    }
  if (strcmp (fn, "threshold") == 0 && n == 3 && n_kwargs (args) == 0 && x_node != NULL)
    {
      /* x where x > threshold, value elsewhere: Greater, Where, as the layer */
      const char *w[3];

      if ((in[0] = arg_value (ex, node, gnn_args_get_value (args, 0), error)) == NULL ||
          arg_node (gnn_args_get_value (args, 1)) != NULL || arg_node (gnn_args_get_value (args, 2)) != NULL ||
          (in[1] = tensor_or_number (ex, node, gnn_args_get_value (args, 1), "threshold", dtype, error)) == NULL ||
          (in[2] = tensor_or_number (ex, node, gnn_args_get_value (args, 2), "value", dtype, error)) == NULL)
        return FALSE;
      w[0] = emit2 (ex, "Greater", name, "above", NULL, in[0], in[1]);
      w[1] = in[0], w[2] = in[2];
      emit (ex, "Where", name, "where", out, 3, w, NULL);
      return TRUE;
    }
  if ((strcmp (fn, "logaddexp") == 0 || strcmp (fn, "logaddexp2") == 0 || strcmp (fn, "heaviside") == 0 ||
       strcmp (fn, "xlogy") == 0 || strcmp (fn, "fmax") == 0 || strcmp (fn, "fmin") == 0 ||
       strcmp (fn, "atan2") == 0 || strcmp (fn, "arctan2") == 0 || strcmp (fn, "copysign") == 0) &&
      n == 2 && n_kwargs (args) == 0)
    {
      GnnGraphNode *other = x_node ? x_node : arg_node (gnn_args_get_value (args, 1));
      const char *w[3], *t, *u;

      if (other == NULL)
        return FALSE;
      dtype = node_dtype (other);
      for (guint j = 0; j < 2; j++)
        if ((in[j] = tensor_or_number (ex, node, gnn_args_get_value (args, j), ex_printf (ex, "arg%u", j), dtype,
                                       error)) == NULL)
          return FALSE;
      if (strncmp (fn, "logaddexp", 9) == 0)
        {
          /* max + log (1 + exp (−|a − b|)), in base e or 2 (· ln 2 inside, / ln 2 outside) */
          gboolean two = fn[9] == '2';
          double ln2 = G_LN2;

          t = emit2 (ex, "Sub", name, "diff", NULL, in[0], in[1]);
          t = emit (ex, "Abs", name, "abs", NULL, 1, &t, NULL);
          t = emit (ex, "Neg", name, "neg", NULL, 1, &t, NULL);
          if (two)
            t = emit2 (ex, "Mul", name, "in_e", NULL, t, scalar_initializer (ex, inner_value (ex, name, "ln2"), dtype, ln2));
          t = emit (ex, "Exp", name, "exp", NULL, 1, &t, NULL);
          t = emit2 (ex, "Add", name, "one_plus", NULL, t, scalar_initializer (ex, inner_value (ex, name, "one"), dtype, 1.0));
          t = emit (ex, "Log", name, "log", NULL, 1, &t, NULL);
          if (two)
            t = emit2 (ex, "Div", name, "in_2", NULL, t, scalar_initializer (ex, inner_value (ex, name, "ln2_"), dtype, ln2));
          emit2 (ex, "Add", name, "add", out, emit2 (ex, "Max", name, "max", NULL, in[0], in[1]), t);
        }
      else if (strcmp (fn, "heaviside") == 0)
        {
          /* values where x is 0, else 1 where x > 0 and 0 below: Equal, Greater, Cast, Where */
          const char *zero = scalar_initializer (ex, inner_value (ex, name, "zero"), dtype, 0.0);

          t = emit2 (ex, "Greater", name, "positive", NULL, in[0], zero);
          t = emit (ex, "Cast", name, "step", NULL, 1, &t, &node_out);
          attr_int (ex, node_out, "to", gnn_onnx_elem_type (dtype));
          w[0] = emit2 (ex, "Equal", name, "at_zero", NULL, in[0], zero), w[1] = in[1], w[2] = t;
          emit (ex, "Where", name, "where", out, 3, w, NULL);
        }
      else if (strcmp (fn, "xlogy") == 0)
        {
          /* 0 where x is 0 (and y is not NaN), x log y elsewhere: Log, Mul, Equal, Where */
          const char *zero = scalar_initializer (ex, inner_value (ex, name, "zero"), dtype, 0.0);
          const char *nan_y;

          t = emit2 (ex, "Mul", name, "x_log_y", NULL, in[0], emit (ex, "Log", name, "log", NULL, 1, &in[1], NULL));
          nan_y = emit (ex, "IsNaN", name, "y_nan", NULL, 1, &in[1], NULL);
          u = emit2 (ex, "Equal", name, "x_zero", NULL, in[0], zero);
          nan_y = emit (ex, "Not", name, "y_number", NULL, 1, &nan_y, NULL);
          w[0] = emit2 (ex, "And", name, "zero_term", NULL, u, nan_y), w[1] = zero, w[2] = t;
          emit (ex, "Where", name, "where", out, 3, w, NULL);
        }
      else if (strcmp (fn, "fmax") == 0 || strcmp (fn, "fmin") == 0)
        {
          /* Max (Min), the other operand where one is NaN: IsNaN, Where */
          t = emit2 (ex, fn[2] == 'a' ? "Max" : "Min", name, "extreme", NULL, in[0], in[1]);
          w[0] = emit (ex, "IsNaN", name, "b_nan", NULL, 1, &in[1], NULL), w[1] = in[0], w[2] = t;
          t = emit (ex, "Where", name, "b_skipped", NULL, 3, w, NULL);
          w[0] = emit (ex, "IsNaN", name, "a_nan", NULL, 1, &in[0], NULL), w[1] = in[1], w[2] = t;
          emit (ex, "Where", name, "where", out, 3, w, NULL);
        }
      else if (strcmp (fn, "copysign") == 0)
        {
          /* |a| negated where b < 0 (a −0.0 b counts as positive: ONNX cannot see its sign bit) */
          t = emit (ex, "Abs", name, "abs", NULL, 1, &in[0], NULL);
          w[0] = emit2 (ex, "Less", name, "b_negative", NULL, in[1],
                        scalar_initializer (ex, inner_value (ex, name, "zero"), dtype, 0.0));
          w[1] = emit (ex, "Neg", name, "neg", NULL, 1, &t, NULL), w[2] = t;
          emit (ex, "Where", name, "where", out, 3, w, NULL);
        }
      else
        {
          /* atan2 (y, x): Atan (y / x), ± pi where x < 0 (by y's sign), ± pi/2 where x = 0 by
           * Atan of ±inf, 0 where both are 0; a −0.0 counts as +0.0 (ONNX cannot see its sign
           * bit), so atan2 (−0.0, −1) is pi and atan2 (1, −0.0) is −pi/2 where torch's are −pi
           * and pi/2 */
          const char *zero = scalar_initializer (ex, inner_value (ex, name, "zero"), dtype, 0.0);
          const char *pi = scalar_initializer (ex, inner_value (ex, name, "pi"), dtype, G_PI);
          const char *neg_pi = scalar_initializer (ex, inner_value (ex, name, "neg_pi"), dtype, -G_PI);
          const char *both;

          t = emit (ex, "Atan", name, "atan", NULL, 1,
                    (const char *[]) { emit2 (ex, "Div", name, "ratio", NULL, in[0], in[1]) }, NULL);
          w[0] = emit2 (ex, "Less", name, "y_negative", NULL, in[0], zero), w[1] = neg_pi, w[2] = pi;
          u = emit (ex, "Where", name, "half_turn", NULL, 3, w, NULL);
          w[0] = emit2 (ex, "Less", name, "x_negative", NULL, in[1], zero), w[1] = u, w[2] = zero;
          u = emit (ex, "Where", name, "shift", NULL, 3, w, NULL);
          t = emit2 (ex, "Add", name, "angle", NULL, t, u);
          both = emit2 (ex, "And", name, "origin", NULL, emit2 (ex, "Equal", name, "y_zero", NULL, in[0], zero),
                        emit2 (ex, "Equal", name, "x_zero", NULL, in[1], zero));
          w[0] = both, w[1] = zero, w[2] = t;
          emit (ex, "Where", name, "where", out, 3, w, NULL);
        }
      return TRUE;
    }
  if ((strcmp (fn, "amax") == 0 || strcmp (fn, "amin") == 0) && n >= 1 && n <= 3 && x_node != NULL &&
      kwargs_within (args, (const char * const[]) { "dim", "keepdim", NULL }))
    {
      /* ReduceMax (ReduceMin) over dim (one or a list; every dim without), keepdims */
      const GValue *dim_v = arg_or_kwarg (args, 1, "dim"), *keep_v = arg_or_kwarg (args, 2, "keepdim");
      gint64 axes[16];
      guint n_axes = 0;
      gboolean keep = FALSE;

      if (dim_v != NULL && !(G_VALUE_HOLDS_OBJECT (dim_v) && g_value_get_object (dim_v) == NULL))
        {
          if (value_is_int (dim_v, &axes[0]))
            n_axes = 1;
          else if (!int_list (dim_v, axes, G_N_ELEMENTS (axes), &n_axes))
            return FALSE;
        }
      if (keep_v != NULL)
        {
          if (!G_VALUE_HOLDS_BOOLEAN (keep_v))
            return FALSE;
          keep = g_value_get_boolean (keep_v);
        }
      if ((in[0] = arg_value (ex, node, gnn_args_get_value (args, 0), error)) == NULL)
        return FALSE;
      emit (ex, fn[1] == 'm' && fn[2] == 'a' ? "ReduceMax" : "ReduceMin", name, "reduce", out, 1, in, &node_out);
      if (n_axes > 0)
        attr_ints (ex, node_out, "axes", axes, n_axes);
      attr_int (ex, node_out, "keepdims", keep);
      return TRUE;
    }
  if ((strcmp (fn, "logical_and") == 0 || strcmp (fn, "logical_or") == 0 || strcmp (fn, "logical_xor") == 0 ||
       strcmp (fn, "and_") == 0 || strcmp (fn, "or_") == 0 || strcmp (fn, "xor") == 0 ||
       strcmp (fn, "bitwise_and") == 0 || strcmp (fn, "bitwise_or") == 0 || strcmp (fn, "bitwise_xor") == 0) &&
      n == 2 && n_kwargs (args) == 0)
    {
      /* And, Or, Xor of bool tensors (ONNX's take bool only); logical_* of others compare with 0 */
      const char *op = strstr (fn, "and") ? "And" : strstr (fn, "xor") ? "Xor" : "Or";
      gboolean logical = g_str_has_prefix (fn, "logical_");

      for (guint j = 0; j < 2; j++)
        {
          GnnGraphNode *a = arg_node (gnn_args_get_value (args, j));

          if (a == NULL || (!logical && node_dtype (a) != GNN_DTYPE_BOOL))
            return FALSE;
          if ((in[j] = arg_value (ex, node, gnn_args_get_value (args, j), error)) == NULL)
            return FALSE;
          if (node_dtype (a) != GNN_DTYPE_BOOL)
            {
              const char *z = scalar_initializer (ex, inner_value (ex, name, ex_printf (ex, "zero%u", j)),
                                                  node_dtype (a), 0.0);

              in[j] = emit (ex, "Not", name, ex_printf (ex, "truth%u", j), NULL, 1,
                            (const char *[]) { emit2 (ex, "Equal", name, ex_printf (ex, "is_zero%u", j), NULL,
                                                      in[j], z) }, NULL);
            }
        }
      emit2 (ex, op, name, "op", out, in[0], in[1]);
      return TRUE;
    }
  if ((strcmp (fn, "logical_not") == 0 || strcmp (fn, "bitwise_not") == 0 || strcmp (fn, "invert") == 0) &&
      n == 1 && n_kwargs (args) == 0 && x_node != NULL)
    {
      gboolean logical = fn[0] == 'l';

      if (!logical && dtype != GNN_DTYPE_BOOL)
        return FALSE;
      if ((in[0] = arg_value (ex, node, gnn_args_get_value (args, 0), error)) == NULL)
        return FALSE;
      if (dtype != GNN_DTYPE_BOOL)   /* logical_not of a number: x == 0 */
        emit2 (ex, "Equal", name, "is_zero", out, in[0],
               scalar_initializer (ex, inner_value (ex, name, "zero"), dtype, 0.0));
      else
        emit (ex, "Not", name, "not", out, 1, in, NULL);
      return TRUE;
    }
  if ((strcmp (fn, "trunc") == 0 || strcmp (fn, "fix") == 0 || strcmp (fn, "frac") == 0 || strcmp (fn, "sinc") == 0) &&
      n == 1 && n_kwargs (args) == 0 && x_node != NULL)
    {
      const char *t, *w[3];

      if ((in[0] = arg_value (ex, node, gnn_args_get_value (args, 0), error)) == NULL)
        return FALSE;
      if (strcmp (fn, "sinc") == 0)
        {
          /* sin (pi x) / (pi x), 1 at 0: Mul, Sin, Div, Equal, Where */
          const char *px = emit2 (ex, "Mul", name, "pi_x", NULL, in[0],
                                  scalar_initializer (ex, inner_value (ex, name, "pi"), dtype, G_PI));

          t = emit2 (ex, "Div", name, "ratio", NULL, emit (ex, "Sin", name, "sin", NULL, 1, &px, NULL), px);
          w[0] = emit2 (ex, "Equal", name, "at_zero", NULL, in[0],
                        scalar_initializer (ex, inner_value (ex, name, "zero"), dtype, 0.0));
          w[1] = scalar_initializer (ex, inner_value (ex, name, "one"), dtype, 1.0), w[2] = t;
          emit (ex, "Where", name, "where", out, 3, w, NULL);
          return TRUE;
        }
      /* trunc: Sign (x) · Floor (|x|) (opset 17 has no Trunc); frac: x − trunc (x) */
      t = emit (ex, "Floor", name, "floor", NULL, 1, (const char *[]) { emit (ex, "Abs", name, "abs", NULL, 1, in, NULL) },
                NULL);
      t = emit2 (ex, "Mul", name, "trunc", strcmp (fn, "frac") == 0 ? NULL : out,
                 emit (ex, "Sign", name, "sign", NULL, 1, in, NULL), t);
      if (strcmp (fn, "frac") == 0)
        emit2 (ex, "Sub", name, "frac", out, in[0], t);
      return TRUE;
    }
  if (strcmp (fn, "cumsum") == 0 && n >= 1 && n <= 2 && x_node != NULL &&
      kwargs_within (args, (const char * const[]) { "dim", NULL }))
    {
      const GValue *dim_v = arg_or_kwarg (args, 1, "dim");
      gint64 dim;

      if (dim_v == NULL || !value_is_int (dim_v, &dim))
        return FALSE;
      if ((in[0] = arg_value (ex, node, gnn_args_get_value (args, 0), error)) == NULL)
        return FALSE;
      in[1] = scalar_initializer (ex, inner_value (ex, name, "axis"), GNN_DTYPE_INT64, (double) dim);
      emit (ex, "CumSum", name, "cumsum", out, 2, in, NULL);
      return TRUE;
    }
  return FALSE;
}

static gboolean
export_call (Export       *ex,
             GnnGraphNode *node,
             gboolean      method,
             const char   *out,
             GError      **error)
{
  static const struct { const char *name; const char *op; } unary[] = {
    { "relu", "Relu" }, { "sigmoid", "Sigmoid" }, { "tanh", "Tanh" }, { "neg", "Neg" },
    { "exp", "Exp" }, { "log", "Log" }, { "sqrt", "Sqrt" }, { "abs", "Abs" },
    { "erf", "Erf" }, { "reciprocal", "Reciprocal" }, { "floor", "Floor" }, { "ceil", "Ceil" },
    { "sin", "Sin" }, { "cos", "Cos" },
    { "tan", "Tan" }, { "asin", "Asin" }, { "acos", "Acos" }, { "atan", "Atan" }, { "sinh", "Sinh" },
    { "cosh", "Cosh" }, { "asinh", "Asinh" }, { "acosh", "Acosh" }, { "atanh", "Atanh" },
    { "arcsin", "Asin" }, { "arccos", "Acos" }, { "arctan", "Atan" }, { "arcsinh", "Asinh" },
    { "arccosh", "Acosh" }, { "arctanh", "Atanh" }, { "sign", "Sign" }, { "round", "Round" },
  };
  static const struct { const char *name; const char *op; } binary[] = {
    { "add", "Add" }, { "sub", "Sub" }, { "mul", "Mul" }, { "truediv", "Div" },
    { "div", "Div" }, { "matmul", "MatMul" },
    { "pow", "Pow" }, { "maximum", "Max" }, { "minimum", "Min" }, { "eq", "Equal" }, { "lt", "Less" },
    { "le", "LessOrEqual" }, { "gt", "Greater" }, { "ge", "GreaterOrEqual" }, { "ne", "Equal" },
    { "fmod", "Mod" }, { "remainder", "Mod" }, { "floor_divide", "Div" }, { "hypot", "Mul" },
    { "less", "Less" }, { "greater", "Greater" }, { "less_equal", "LessOrEqual" },
    { "greater_equal", "GreaterOrEqual" }, { "not_equal", "Equal" },
  };
  const char *target = gnn_graph_node_get_target (node);
  const char *name = gnn_graph_node_get_name (node);
  const char *fn = method ? target : function_name (target);
  GnnArgs *args = gnn_graph_node_get_args (node);
  guint n = gnn_args_get_n_values (args);
  const char *in[MAX_INPUTS];
  Onnx__NodeProto *o;

  if (fn == NULL)
    goto unsupported;
  for (guint i = 0; i < G_N_ELEMENTS (unary); i++)
    if (strcmp (fn, unary[i].name) == 0 && n == 1 && n_kwargs (args) == 0)
      {
        if ((in[0] = arg_value (ex, node, gnn_args_get_value (args, 0), error)) == NULL)
          return FALSE;
        add_node (ex, unary[i].op, ex_printf (ex, "/%s/%s", name, unary[i].op), out, 1, in);
        return TRUE;
      }
  if (n == 1 && n_kwargs (args) == 0 && arg_node (gnn_args_get_value (args, 0)) != NULL &&
      export_composed_unary (ex, node, fn, out, error))
    return TRUE;
  if (error != NULL && *error != NULL)
    return FALSE;
  if (export_composed_call (ex, node, fn, out, error))
    return TRUE;
  if (error != NULL && *error != NULL)
    return FALSE;
  for (guint i = 0; i < G_N_ELEMENTS (binary); i++)
    if (strcmp (fn, binary[i].name) == 0 && n == 2 && n_kwargs (args) == 0)
      {
        GnnGraphNode *tensor_arg = NULL;

        for (guint j = 0; j < 2; j++)
          if (arg_node (gnn_args_get_value (args, j)) != NULL)
            tensor_arg = arg_node (gnn_args_get_value (args, j));
        for (guint j = 0; j < 2; j++)
          {
            const GValue *v = gnn_args_get_value (args, j);
            double number;

            if (arg_node (v) == NULL && value_is_number (v, &number))
              in[j] = scalar_initializer (ex, ex_printf (ex, "%s_operand%u", name, j),
                                          node_dtype (tensor_arg), number);
            else if ((in[j] = arg_value (ex, node, v, error)) == NULL)
              return FALSE;
          }
        if (strcmp (binary[i].op, "Mod") == 0)
          return binary_mod (ex, name, fn[0] == 'r', in, node_dtype (tensor_arg), out);
        if (strcmp (fn, "floor_divide") == 0)
          {
            /* torch 1.13 rounds the quotient down: Div, Floor */
            const char *q = emit2 (ex, "Div", name, "quotient", NULL, in[0], in[1]);

            emit (ex, "Floor", name, "floor", out, 1, &q, NULL);
            return TRUE;
          }
        if (strcmp (fn, "hypot") == 0)
          {
            /* sqrt (a² + b²): Mul, Mul, Add, Sqrt */
            const char *sq = emit2 (ex, "Add", name, "sum", NULL, emit2 (ex, "Mul", name, "a2", NULL, in[0], in[0]),
                                    emit2 (ex, "Mul", name, "b2", NULL, in[1], in[1]));

            emit (ex, "Sqrt", name, "sqrt", out, 1, &sq, NULL);
            return TRUE;
          }
        if (strcmp (fn, "ne") == 0 || strcmp (fn, "not_equal") == 0)
          {
            const char *eq = emit2 (ex, "Equal", name, "equal", NULL, in[0], in[1]);

            emit (ex, "Not", name, "not", out, 1, &eq, NULL);
            return TRUE;
          }
        add_node (ex, binary[i].op, ex_printf (ex, "/%s/%s", name, binary[i].op), out, 2, in);
        return TRUE;
      }
  if ((strcmp (fn, "softmax") == 0 || strcmp (fn, "log_softmax") == 0) && n >= 1)
    {
      const GValue *dim_v = n >= 2 ? gnn_args_get_value (args, 1) : gnn_args_get_kwarg (args, "dim");
      gint64 dim;

      if (dim_v == NULL || !value_is_int (dim_v, &dim))
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED,
                       "ONNX export: node %s: %s without an integer dim has no ONNX form",
                       name, fn);
          return FALSE;
        }
      if ((in[0] = arg_value (ex, node, gnn_args_get_value (args, 0), error)) == NULL)
        return FALSE;
      o = add_node (ex, fn[0] == 's' ? "Softmax" : "LogSoftmax",
                    ex_printf (ex, "/%s/%s", name, fn[0] == 's' ? "Softmax" : "LogSoftmax"), out, 1, in);
      attr_int (ex, o, "axis", dim);
      return TRUE;
    }
  if (strcmp (fn, "adaptive_avg_pool2d") == 0 && n >= 1 && n + n_kwargs (args) == 2 &&
      arg_node (gnn_args_get_value (args, 0)) != NULL)
    {
      if ((in[0] = arg_value (ex, node, gnn_args_get_value (args, 0), error)) == NULL)
        return FALSE;
      return export_adaptive_avg_pool2d (ex, node, arg_node (gnn_args_get_value (args, 0)),
                                         ex_printf (ex, "/%s", name), out, in, error);
    }
  if (strcmp (fn, "getitem") == 0 && n == 2 && n_kwargs (args) == 0 &&
      arg_node (gnn_args_get_value (args, 0)) != NULL)
    {
      const char *of = gnn_graph_node_get_name (arg_node (gnn_args_get_value (args, 0)));
      const char *base = g_hash_table_lookup (ex->aliases, of);
      const char *key;
      gpointer value;
      gint64 k;

      if (!value_is_int (gnn_args_get_value (args, 1), &k))
        goto unsupported;
      key = ex_printf (ex, "%s#%" G_GINT64_FORMAT, base ? base : of, k);
      if (!g_hash_table_lookup_extended (ex->parts, key, NULL, &value))
        goto unsupported;
      if (value == NULL)              /* a tuple inside the tuple: its parts are picked next */
        {
          g_hash_table_insert (ex->aliases, (gpointer) name, (gpointer) key);
          return TRUE;
        }
      in[0] = value;
      add_node (ex, "Identity", ex_printf (ex, "/%s/Identity", name), out, 1, in);
      return TRUE;
    }
  if (strcmp (fn, "cat") == 0 || strcmp (fn, "concat") == 0)
    {
      static const char *const allowed[] = { "dim", NULL };
      const GValue *list = n >= 1 ? gnn_args_get_value (args, 0) : NULL;
      const GValue *dim_v = arg_or_kwarg (args, 1, "dim");
      gint64 dim = 0;
      GnnArgs *inner;
      g_autofree const char **cin = NULL;
      guint m;

      if (list == NULL || !G_VALUE_HOLDS (list, GNN_TYPE_ARGS) ||
          (inner = g_value_get_object (list)) == NULL || n > 2 || !kwargs_within (args, allowed) ||
          (dim_v != NULL && !value_is_int (dim_v, &dim)))
        goto unsupported;
      m = gnn_args_get_n_values (inner);
      cin = g_new0 (const char *, MAX (m, 1));
      for (guint j = 0; j < m; j++)
        if ((cin[j] = arg_value (ex, node, gnn_args_get_value (inner, j), error)) == NULL)
          return FALSE;
      o = add_node (ex, "Concat", ex_printf (ex, "/%s/Concat", name), out, m, cin);
      attr_int (ex, o, "axis", dim);
      return TRUE;
    }
  if ((strcmp (fn, "transpose") == 0 || strcmp (fn, "permute") == 0 || strcmp (fn, "t") == 0 ||
       strcmp (fn, "swapaxes") == 0) && n >= 1 && n_kwargs (args) == 0)
    {
      GnnGraphNode *x = arg_node (gnn_args_get_value (args, 0));
      guint rank = node_rank (x, 0);
      gint64 perm[16];

      if (x == NULL || rank == 0 || rank > G_N_ELEMENTS (perm))
        goto unsupported;
      for (guint j = 0; j < rank; j++)
        perm[j] = j;
      if (fn[0] == 'p')
        {
          guint n_dims = 0;

          if (n == 2 && int_list (gnn_args_get_value (args, 1), perm, rank, &n_dims) && n_dims == rank)
            ;
          else if (n == rank + 1)
            {
              for (guint j = 0; j < rank; j++)
                if (!value_is_int (gnn_args_get_value (args, j + 1), &perm[j]))
                  goto unsupported;
            }
          else
            goto unsupported;
          for (guint j = 0; j < rank; j++)
            perm[j] = perm[j] < 0 ? perm[j] + rank : perm[j];
        }
      else if (fn[0] == 't' && fn[1] == '\0')
        {
          if (n != 1 || rank > 2)
            goto unsupported;
          if (rank == 2)
            perm[0] = 1, perm[1] = 0;
        }
      else
        {
          gint64 a, b, tmp;

          if (n != 3 || !value_is_int (gnn_args_get_value (args, 1), &a) ||
              !value_is_int (gnn_args_get_value (args, 2), &b))
            goto unsupported;
          a = a < 0 ? a + rank : a;
          b = b < 0 ? b + rank : b;
          if (a < 0 || b < 0 || a >= rank || b >= rank)
            goto unsupported;
          tmp = perm[a], perm[a] = perm[b], perm[b] = tmp;
        }
      if ((in[0] = arg_value (ex, node, gnn_args_get_value (args, 0), error)) == NULL)
        return FALSE;
      o = add_node (ex, "Transpose", ex_printf (ex, "/%s/Transpose", name), out, 1, in);
      attr_ints (ex, o, "perm", perm, rank);
      return TRUE;
    }
  if ((strcmp (fn, "mean") == 0 || strcmp (fn, "sum") == 0) && n >= 1 && n <= 3)
    {
      static const char *const allowed[] = { "dim", "keepdim", NULL };
      const GValue *dim_v = arg_or_kwarg (args, 1, "dim");
      const GValue *keep_v = arg_or_kwarg (args, 2, "keepdim");
      gboolean sum = fn[0] == 's';
      gint64 axes[16];
      guint n_axes = 0;
      gboolean keep = FALSE;

      if (!kwargs_within (args, allowed) ||
          (dim_v != NULL && !int_list (dim_v, axes, G_N_ELEMENTS (axes), &n_axes)) ||
          (keep_v != NULL && !G_VALUE_HOLDS_BOOLEAN (keep_v)))
        goto unsupported;
      if (keep_v != NULL)
        keep = g_value_get_boolean (keep_v);
      if ((in[0] = arg_value (ex, node, gnn_args_get_value (args, 0), error)) == NULL)
        return FALSE;
      if (sum)
        {
          /* ReduceSum takes its axes as an input from opset 13 */
          if (n_axes > 0)
            in[1] = int64s_initializer (ex, inner_value (ex, name, "axes"), axes, n_axes);
          o = add_node (ex, "ReduceSum", ex_printf (ex, "/%s/ReduceSum", name), out,
                        n_axes > 0 ? 2 : 1, in);
        }
      else
        {
          o = add_node (ex, "ReduceMean", ex_printf (ex, "/%s/ReduceMean", name), out, 1, in);
          if (n_axes > 0)
            attr_ints (ex, o, "axes", axes, n_axes);
        }
      attr_int (ex, o, "keepdims", keep);
      return TRUE;
    }
  if (strcmp (fn, "gelu") == 0 && n == 1 && kwargs_within (args, (const char * const[]) { "approximate", NULL }))
    {
      const GValue *approx = gnn_args_get_kwarg (args, "approximate");

      if (approx != NULL && !G_VALUE_HOLDS_STRING (approx))
        goto unsupported;
      if ((in[0] = arg_value (ex, node, gnn_args_get_value (args, 0), error)) == NULL)
        return FALSE;
      export_gelu (ex, name, approx != NULL && g_strcmp0 (g_value_get_string (approx), "tanh") == 0,
                   in[0], node_dtype (arg_node (gnn_args_get_value (args, 0))), out);
      return TRUE;
    }
  if (strcmp (fn, "view") == 0 || strcmp (fn, "reshape") == 0 || strcmp (fn, "flatten") == 0)
    {
      g_autofree gint64 *shape = g_new0 (gint64, MAX (n, 1) + 8);
      guint n_shape = 0;

      if (n < 1 || (in[0] = arg_value (ex, node, gnn_args_get_value (args, 0), error)) == NULL)
        return n >= 1 ? FALSE : (g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                                              "ONNX export: node %s has no input", name), FALSE);
      if (strcmp (fn, "flatten") == 0)
        {
          guint n_out;
          const gint64 *out_shape = gnn_graph_node_get_tensor_meta (node, &n_out, NULL);

          if (out_shape == NULL)
            {
              g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                           "ONNX export: node %s has no shape: run shape propagation first", name);
              return FALSE;
            }
          /* flatten (x, 1) of a batch: Flatten, which keeps a dynamic batch size */
          if (n_out == 2 && node_rank (arg_node (gnn_args_get_value (args, 0)), 0) >= 2)
            {
              gint64 start = 0;

              if (n >= 2)
                value_is_int (gnn_args_get_value (args, 1), &start);
              else if (gnn_args_get_kwarg (args, "start_dim"))
                value_is_int (gnn_args_get_kwarg (args, "start_dim"), &start);
              if (start == 1 && (n < 3 && gnn_args_get_kwarg (args, "end_dim") == NULL))
                {
                  o = add_node (ex, "Flatten", ex_printf (ex, "/%s/Flatten", name), out, 1, in);
                  attr_int (ex, o, "axis", 1);
                  return TRUE;
                }
            }
          memcpy (shape, out_shape, n_out * sizeof (gint64));
          n_shape = n_out;
        }
      else
        {
          for (guint j = 1; j < n; j++)
            {
              const GValue *v = gnn_args_get_value (args, j);

              if (G_VALUE_HOLDS (v, GNN_TYPE_ARGS) && g_value_get_object (v) != NULL && n == 2)
                {
                  GnnArgs *inner = g_value_get_object (v);
                  guint m = gnn_args_get_n_values (inner);

                  shape = g_renew (gint64, shape, MAX (m, 1));
                  for (guint k = 0; k < m; k++)
                    if (!value_is_int (gnn_args_get_value (inner, k), &shape[n_shape++]))
                      goto dynamic;
                }
              else if (!value_is_int (v, &shape[n_shape++]))
                goto dynamic;
            }
        }
      in[1] = int64s_initializer (ex, ex_printf (ex, "%s_shape", name), shape, n_shape);
      add_node (ex, "Reshape", ex_printf (ex, "/%s/Reshape", name), out, 2, in);
      return TRUE;
dynamic:
      g_set_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED,
                   "ONNX export: node %s: %s to a shape computed in the graph has no ONNX form in "
                   "gnn's exporter (give the sizes as numbers)", name, fn);
      return FALSE;
    }
unsupported:
  g_set_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED,
               "ONNX export: node %s %s %s, which has no ONNX form in gnn's exporter "
               "(doc/onnx.md lists the operators it writes)", name,
               method ? "calls the method" : "calls", target);
  return FALSE;
}

/* ---- attention and the Transformer layers -------------------------------------------------
 *
 * MultiheadAttention, TransformerEncoderLayer, TransformerEncoder, TransformerDecoderLayer and
 * TransformerDecoder are traced as one call each (leaves); their forms are written here from
 * their submodules' (self_attn, linear1, linear2, norm1, ...), the initializers under the
 * submodules' state-dict keys (`layers.0.self_attn.in_proj_weight`). The attention is torch
 * 1.13's composition: the in-projection of the query, key and value (MatMul, Add), the heads
 * split (Reshape, Transpose), the query divided by sqrt (head_dim), MatMul, the masks added,
 * Softmax over the keys, MatMul with the values, the heads joined and the out-projection.
 * Values inside a form are named "<prefix>_<tag>" and its nodes "/<prefix>/<Op>_<tag>",
 * where the prefix is the traced node's name and the submodule's path under it. */

static gboolean
has_tensor (Export     *ex,
            const char *path)
{
  g_autoptr(GnnTensor) t = gnn_module_get_tensor (ex->root, path, NULL);

  return t != NULL;
}

/* x W^T (+ b) of the weight @w (out, in) and bias @b (NULL for none), for any rank of x */
static const char *
emit_matmul_linear (Export     *ex,
                    const char *prefix,
                    const char *tag,
                    const char *x,
                    const char *w,
                    const char *b,
                    const char *out)
{
  static const gint64 perm[2] = { 1, 0 };
  const char *wt = emit_transpose (ex, prefix, ex_printf (ex, "%s_weight_T", tag), w, perm, 2);
  const char *mm = emit2 (ex, "MatMul", prefix, tag, b ? NULL : out, x, wt);

  return b ? emit2 (ex, "Add", prefix, ex_printf (ex, "%s_bias", tag), out, mm, b) : mm;
}

/* the Linear at @path (weight, and bias if it has one) applied to @x */
static const char *
emit_linear (Export     *ex,
             const char *path,
             const char *prefix,
             const char *x,
             const char *out,
             GError    **error)
{
  const char *w, *b = NULL;

  if ((w = tensor_initializer (ex, sub_path (ex, path, "weight"), error)) == NULL)
    return NULL;
  if (has_tensor (ex, sub_path (ex, path, "bias")) &&
      (b = tensor_initializer (ex, sub_path (ex, path, "bias"), error)) == NULL)
    return NULL;
  return emit_matmul_linear (ex, prefix, "linear", x, w, b, out);
}

/* the LayerNorm submodule @field of the module at @path applied to @x */
static const char *
emit_layer_norm (Export     *ex,
                 const char *path,
                 const char *field,
                 const char *prefix,
                 const char *x,
                 GnnDtype    dtype,
                 const char *out,
                 GError    **error)
{
  const char *npath = sub_path (ex, path, field);
  const char *nprefix = ex_printf (ex, "%s/%s", prefix, field);
  GnnModule *m = gnn_module_get_submodule (ex->root, npath, NULL);
  const char *in[3] = { x, NULL, NULL };

  if (m == NULL || !GNN_IS_LAYER_NORM (m))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED,
                   "ONNX export: %s is a %s where gnn's exporter needs a LayerNorm", npath,
                   m ? gnn_module_get_name (m) : "missing module");
      return NULL;
    }
  if (out == NULL)
    out = inner_value (ex, nprefix, "out");
  return layer_norm_form (ex, m, npath, nprefix, in, dtype, out, error) ? out : NULL;
}

/* an attention mask as one float mask to add to the scores (N, H, L, S): a bool @mask (True:
 * not attended) becomes -inf and 0 (Where), a 3-d (N·H, L, S) one (N, H, L, S); with a key
 * padding mask (N, S), unsqueezed to (N, 1, 1, S) and added; NULL when there is neither */
static const char *
emit_attention_mask (Export       *ex,
                     const char   *prefix,
                     const char   *mask,
                     GnnGraphNode *mask_node,
                     const char   *kpm,
                     GnnGraphNode *kpm_node,
                     gint64        heads,
                     GnnDtype      dtype,
                     GError      **error)
{
  const char *sum = NULL;

  for (int which = 0; which < 2; which++)
    {
      const char *m = which ? kpm : mask, *tag = which ? "key_padding_mask" : "attn_mask";
      GnnGraphNode *n = which ? kpm_node : mask_node;
      const gint64 *shape;
      guint rank;
      GnnDtype mdtype;

      if (m == NULL)
        continue;
      shape = gnn_graph_node_get_tensor_meta (n, &rank, &mdtype);
      if (shape == NULL)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                       "ONNX export: the %s %s has no shape: run shape propagation first", tag,
                       gnn_graph_node_get_name (n));
          return NULL;
        }
      if (mdtype == GNN_DTYPE_BOOL)
        {
          const char *in[3] = { m,
                                scalar_initializer (ex, inner_value (ex, prefix, ex_printf (ex, "%s_ninf", tag)),
                                                    dtype, -INFINITY),
                                scalar_initializer (ex, inner_value (ex, prefix, ex_printf (ex, "%s_zero", tag)),
                                                    dtype, 0.0) };

          m = emit (ex, "Where", prefix, ex_printf (ex, "%s_float", tag), NULL, 3, in, NULL);
        }
      else if (mdtype != dtype)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE,
                       "ONNX export: the %s %s is neither bool nor of the query's dtype", tag,
                       gnn_graph_node_get_name (n));
          return NULL;
        }
      if (!which && rank == 3)
        {
          gint64 s4[4] = { -1, heads, shape[1], shape[2] };

          m = emit_reshape (ex, prefix, ex_printf (ex, "%s_heads", tag), m, s4, 4, NULL);
        }
      else if (which && rank == 2)
        {
          static const gint64 axes[2] = { 1, 2 };
          const char *a = int64s_initializer (ex, inner_value (ex, prefix, "key_padding_mask_axes"), axes, 2);

          m = emit2 (ex, "Unsqueeze", prefix, "key_padding_mask_4d", NULL, m, a);
        }
      else if (rank != (which ? 1u : 2u))
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                       "ONNX export: the %s %s is %u-d; gnn's exporter writes %s", tag,
                       gnn_graph_node_get_name (n), rank, which ? "(N, S) or (S)" : "(L, S) or (N·H, L, S)");
          return NULL;
        }
      sum = sum ? emit2 (ex, "Add", prefix, "masks", NULL, sum, m) : m;
    }
  return sum;
}

/* the MultiheadAttention at @path: @q, @k, @v of rank @rank (3, or 2 unbatched), @mask the
 * additive mask of emit_attention_mask or NULL; the output to @out, and with @weights_out the
 * attention weights (averaged over the heads with @average) to it */
static gboolean
attention_form (Export     *ex,
                const char *path,
                const char *prefix,
                const char *q,
                const char *k,
                const char *v,
                guint       rank,
                GnnDtype    dtype,
                const char *mask,
                gboolean    average,
                const char *out,
                const char *weights_out,
                GError    **error)
{
  GnnModule *m = gnn_module_get_submodule (ex->root, path, NULL);
  gboolean batch_first, bias_kv, zero_attn;
  gint64 E, H, hd;
  const char *x[3] = { q, k, v }, *w = NULL, *b = NULL, *packed = NULL, *scores, *p, *o, *proj;
  static const char *const names[3] = { "q", "k", "v" }, *const separate[3] = { "q_proj_weight", "k_proj_weight",
                                                                                 "v_proj_weight" };

  if (m == NULL || !GNN_IS_MULTIHEAD_ATTENTION (m))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED,
                   "ONNX export: %s is a %s where gnn's exporter needs a MultiheadAttention", path,
                   m ? gnn_module_get_name (m) : "missing module");
      return FALSE;
    }
  g_object_get (m, "batch-first", &batch_first, "add-bias-kv", &bias_kv, "add-zero-attn", &zero_attn, NULL);
  if (bias_kv || zero_attn)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED,
                   "ONNX export: %s: MultiheadAttention with %s has no ONNX form in gnn's exporter", path,
                   bias_kv ? "add_bias_kv" : "add_zero_attn");
      return FALSE;
    }
  if (rank != 2 && rank != 3)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "ONNX export: %s: MultiheadAttention of a %u-d query (it takes 3-d or unbatched 2-d)",
                   path, rank);
      return FALSE;
    }
  E = gnn_multihead_attention_get_embed_dim (GNN_MULTIHEAD_ATTENTION (m));
  H = gnn_multihead_attention_get_num_heads (GNN_MULTIHEAD_ATTENTION (m));
  hd = E / H;
  if (rank == 2)              /* unbatched: (L, E) is (L, 1, E) */
    {
      batch_first = FALSE;
      const char *orig[3] = { q, k, v };

      for (guint i = 0; i < 3; i++)
        {
          x[i] = NULL;
          for (guint j = 0; j < i; j++)
            if (x[i] == NULL && orig[j] == orig[i])
              x[i] = x[j];
          if (x[i] == NULL)
            x[i] = emit_squeeze (ex, "Unsqueeze", prefix, ex_printf (ex, "%s_batched", names[i]), orig[i], 1, NULL);
        }
    }
  if (has_tensor (ex, sub_path (ex, path, "in_proj_weight")) &&
      (w = tensor_initializer (ex, sub_path (ex, path, "in_proj_weight"), error)) == NULL)
    return FALSE;
  if (has_tensor (ex, sub_path (ex, path, "in_proj_bias")) &&
      (b = tensor_initializer (ex, sub_path (ex, path, "in_proj_bias"), error)) == NULL)
    return FALSE;
  /* the in-projections, the heads split: q and v (N, H, L or S, hd), k (N, H, hd, S); in
   * self-attention one projection by in_proj_weight, sliced in three, as torch writes it */
  if (w != NULL && x[0] == x[1] && x[1] == x[2])
    packed = emit_matmul_linear (ex, prefix, "qkv_proj", x[0], w, b, NULL);
  for (guint i = 0; i < 3; i++)
    {
      static const gint64 perm_seq[3][4] = { { 1, 2, 0, 3 }, { 1, 2, 3, 0 }, { 1, 2, 0, 3 } };
      static const gint64 perm_batch[3][4] = { { 0, 2, 1, 3 }, { 0, 2, 3, 1 }, { 0, 2, 1, 3 } };
      const gint64 heads[4] = { 0, 0, H, hd };
      const char *wi, *bi = NULL;

      if (packed != NULL)
        x[i] = emit_rows (ex, prefix, ex_printf (ex, "%s_proj", names[i]), packed, i * E, (i + 1) * E, -1);
      else
        {
          if (w != NULL)
            wi = emit_rows (ex, prefix, ex_printf (ex, "%s_weight", names[i]), w, i * E, (i + 1) * E, 0);
          else if ((wi = tensor_initializer (ex, sub_path (ex, path, separate[i]), error)) == NULL)
            return FALSE;
          if (b != NULL)
            bi = emit_rows (ex, prefix, ex_printf (ex, "%s_bias", names[i]), b, i * E, (i + 1) * E, 0);
          x[i] = emit_matmul_linear (ex, prefix, ex_printf (ex, "%s_proj", names[i]), x[i], wi, bi, NULL);
        }
      x[i] = emit_reshape (ex, prefix, ex_printf (ex, "%s_heads", names[i]), x[i], heads, 4, NULL);
      x[i] = emit_transpose (ex, prefix, ex_printf (ex, "%s_heads_first", names[i]), x[i],
                             batch_first ? perm_batch[i] : perm_seq[i], 4);
    }
  x[0] = emit2 (ex, "Div", prefix, "q_scaled", NULL, x[0],
                scalar_initializer (ex, inner_value (ex, prefix, "sqrt_head_dim"), dtype, sqrt ((double) hd)));
  scores = emit2 (ex, "MatMul", prefix, "scores", NULL, x[0], x[1]);
  if (mask != NULL)
    scores = emit2 (ex, "Add", prefix, "scores_masked", NULL, scores, mask);
  {
    Onnx__NodeProto *sm;

    p = emit (ex, "Softmax", prefix, "softmax", NULL, 1, &scores, &sm);
    attr_int (ex, sm, "axis", -1);
  }
  o = emit2 (ex, "MatMul", prefix, "attended", NULL, p, x[2]);
  {
    static const gint64 back_seq[4] = { 2, 0, 1, 3 }, back_batch[4] = { 0, 2, 1, 3 };
    const gint64 joined[3] = { 0, 0, E };

    o = emit_transpose (ex, prefix, "heads_last", o, batch_first ? back_batch : back_seq, 4);
    o = emit_reshape (ex, prefix, "heads_joined", o, joined, 3, NULL);
  }
  if ((proj = emit_linear (ex, sub_path (ex, path, "out_proj"), ex_printf (ex, "%s/out_proj", prefix), o,
                           rank == 2 ? NULL : out, error)) == NULL)
    return FALSE;
  if (rank == 2)
    emit_squeeze (ex, "Squeeze", prefix, "unbatched", proj, 1, out);
  if (weights_out != NULL)
    {
      const char *wts = p;

      if (average)
        {
          static const gint64 axis1 = 1;
          Onnx__NodeProto *rm;

          wts = emit (ex, "ReduceMean", prefix, "weights_mean", rank == 2 ? NULL : weights_out, 1, &p, &rm);
          attr_ints (ex, rm, "axes", &axis1, 1);
          attr_int (ex, rm, "keepdims", 0);
          if (rank == 2)
            emit_squeeze (ex, "Squeeze", prefix, "weights_unbatched", wts, 0, weights_out);
        }
      else if (rank == 2)
        emit_squeeze (ex, "Squeeze", prefix, "weights_unbatched", wts, 0, weights_out);
      else
        emit (ex, "Identity", prefix, "weights_out", weights_out, 1, &wts, NULL);
    }
  return TRUE;
}

/* the feed-forward block of a Transformer layer at @path: linear2 (activation (linear1 (x))) */
static const char *
feed_forward_form (Export     *ex,
                   GnnModule  *layer,
                   const char *path,
                   const char *prefix,
                   const char *x,
                   GnnDtype    dtype,
                   GError    **error)
{
  g_autofree char *activation = NULL;
  GnnModule *act = gnn_module_get_submodule (ex->root, sub_path (ex, path, "activation"), NULL);
  const char *h, *aprefix = ex_printf (ex, "%s/activation", prefix);
  gboolean gelu;

  g_object_get (layer, "activation", &activation, NULL);
  if (act != NULL && !GNN_IS_RELU (act) && !GNN_IS_GELU (act))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED,
                   "ONNX export: %s: a Transformer layer whose activation is a %s has no ONNX form in gnn's "
                   "exporter (ReLU or GELU)", path, gnn_module_get_name (act));
      return NULL;
    }
  if ((h = emit_linear (ex, sub_path (ex, path, "linear1"), ex_printf (ex, "%s/linear1", prefix), x, NULL,
                        error)) == NULL)
    return NULL;
  gelu = act ? GNN_IS_GELU (act) : g_strcmp0 (activation, "gelu") == 0;
  if (gelu)
    {
      const char *g = inner_value (ex, aprefix, "out");

      export_gelu (ex, aprefix, act && g_strcmp0 (gnn_gelu_get_approximate (GNN_GELU (act)), "tanh") == 0,
                   h, dtype, g);
      h = g;
    }
  else
    h = emit (ex, "Relu", aprefix, "out", NULL, 1, &h, NULL);
  return emit_linear (ex, sub_path (ex, path, "linear2"), ex_printf (ex, "%s/linear2", prefix), h, NULL, error);
}

/* an optional tensor argument of a call: positional @i or keyword @key; *@value NULL when it
 * is absent or None */
static gboolean
optional_tensor (Export        *ex,
                 GnnGraphNode  *node,
                 GnnArgs       *args,
                 guint          i,
                 const char    *key,
                 const char   **value,
                 GnnGraphNode **value_node,
                 GError       **error)
{
  const GValue *v = gnn_args_get_kwarg (args, key);

  if (v == NULL && i < gnn_args_get_n_values (args))
    v = gnn_args_get_value (args, i);
  *value = NULL;
  *value_node = NULL;
  if (v == NULL || (G_VALUE_HOLDS_OBJECT (v) && g_value_get_object (v) == NULL))
    return TRUE;
  if ((*value = arg_value (ex, node, v, error)) == NULL)
    {
      g_prefix_error (error, "%s: ", key);
      return FALSE;
    }
  *value_node = arg_node (v);
  return TRUE;
}

static gboolean
optional_boolean (GnnArgs    *args,
                  guint       i,
                  const char *key,
                  gboolean    fallback)
{
  const GValue *v = gnn_args_get_kwarg (args, key);
  gint64 n;

  if (v == NULL && i < gnn_args_get_n_values (args))
    v = gnn_args_get_value (args, i);
  if (v != NULL && G_VALUE_HOLDS_BOOLEAN (v))
    return g_value_get_boolean (v);
  if (v != NULL && value_is_int (v, &n))
    return n != 0;
  return fallback;
}

/* The TransformerEncoderLayer (@memory NULL) or TransformerDecoderLayer at @path on @x: its
 * blocks (self-attention under @mask, then for a decoder cross-attention on @memory under
 * @cross_mask, then the feed-forward block) in turn, each with its residual and its norm{i}
 * before the block (norm_first) or after the residual */
static const char *
layer_form (Export     *ex,
            const char *path,
            const char *prefix,
            const char *x,
            const char *memory,
            guint       rank,
            GnnDtype    dtype,
            const char *mask,
            const char *cross_mask,
            const char *out,
            GError    **error)
{
  GnnModule *m = gnn_module_get_submodule (ex->root, path, NULL);
  gboolean decoder = memory != NULL, norm_first;
  guint n_blocks = decoder ? 3 : 2;
  const char *h = x;

  if (m == NULL || !(decoder ? GNN_IS_TRANSFORMER_DECODER_LAYER (m) : GNN_IS_TRANSFORMER_ENCODER_LAYER (m)))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED,
                   "ONNX export: %s is a %s where gnn's exporter needs a %s", path,
                   m ? gnn_module_get_name (m) : "missing module",
                   decoder ? "TransformerDecoderLayer" : "TransformerEncoderLayer");
      return NULL;
    }
  g_object_get (m, "norm-first", &norm_first, NULL);
  for (guint i = 1; i <= n_blocks; i++)
    {
      const char *norm = ex_printf (ex, "norm%u", i), *residual = ex_printf (ex, "residual%u", i);
      const char *last_out = i == n_blocks ? out : NULL, *in = h, *b;

      if (norm_first && (in = emit_layer_norm (ex, path, norm, prefix, h, dtype, NULL, error)) == NULL)
        return NULL;
      if (i == n_blocks)
        b = feed_forward_form (ex, m, path, prefix, in, dtype, error);
      else
        {
          const char *attn = i == 1 ? "self_attn" : "multihead_attn";
          const char *aprefix = ex_printf (ex, "%s/%s", prefix, attn), *kv = i == 1 ? in : memory;

          b = inner_value (ex, aprefix, "out");
          if (!attention_form (ex, sub_path (ex, path, attn), aprefix, in, kv, kv, rank, dtype,
                               i == 1 ? mask : cross_mask, TRUE, b, NULL, error))
            b = NULL;
        }
      if (b == NULL)
        return NULL;
      h = emit2 (ex, "Add", prefix, residual, norm_first ? last_out : NULL, h, b);
      if (!norm_first && (h = emit_layer_norm (ex, path, norm, prefix, h, dtype, last_out, error)) == NULL)
        return NULL;
    }
  return h;
}

/* a TransformerEncoder (@memory NULL) or TransformerDecoder at @path: its layers.0, layers.1,
 * ... in turn, then its norm when it has one */
static const char *
stack_form (Export     *ex,
            const char *path,
            const char *prefix,
            const char *x,
            const char *memory,
            guint       rank,
            GnnDtype    dtype,
            const char *mask,
            const char *cross_mask,
            const char *out,
            GError    **error)
{
  gboolean has_norm = gnn_module_get_submodule (ex->root, sub_path (ex, path, "norm"), NULL) != NULL;
  guint n = 0;

  while (gnn_module_get_submodule (ex->root, sub_path (ex, path, ex_printf (ex, "layers.%u", n)), NULL) != NULL)
    n++;
  for (guint i = 0; i < n; i++)
    {
      const char *lpath = sub_path (ex, path, ex_printf (ex, "layers.%u", i));
      const char *lprefix = ex_printf (ex, "%s/layers.%u", prefix, i);
      const char *lout = i == n - 1 && !has_norm ? out : NULL;

      x = layer_form (ex, lpath, lprefix, x, memory, rank, dtype, mask, cross_mask, lout, error);
      if (x == NULL)
        return NULL;
    }
  if (has_norm)
    return emit_layer_norm (ex, path, "norm", prefix, x, dtype, out, error);
  if (n == 0)
    return emit (ex, "Identity", prefix, "out", out, 1, &x, NULL);
  return x;
}

/* the number of heads of the attention of the layer at @path, or of a stack's first layer */
static int
heads_of (Export     *ex,
          const char *path)
{
  static const char *const tries[] = { "", "layers.0", "encoder.layers.0" };
  int heads = 1;

  for (guint i = 0; i < G_N_ELEMENTS (tries); i++)
    {
      GnnModule *m = gnn_module_get_submodule (ex->root, *tries[i] ? sub_path (ex, path, tries[i]) : path, NULL);

      if (m != NULL && (GNN_IS_TRANSFORMER_ENCODER_LAYER (m) || GNN_IS_TRANSFORMER_DECODER_LAYER (m)))
        {
          g_object_get (m, "nhead", &heads, NULL);
          break;
        }
    }
  return heads;
}

/* a call of a MultiheadAttention or a Transformer layer or stack (see above): its arguments
 * by the names of torch's forward, positionally or as keywords; tensors become values, and
 * the masks (float, or bool: True is not attended) additive masks of the scores */
static gboolean
export_attention_call (Export       *ex,
                       GnnGraphNode *node,
                       GnnModule    *m,
                       const char   *out,
                       GError      **error)
{
  static const char *const mha_keys[] = { "query", "key", "value", "key_padding_mask", "need_weights", "attn_mask",
                                          "average_attn_weights", "is_causal", NULL };
  static const char *const enc_layer_keys[] = { "src", "src_mask", "src_key_padding_mask", "is_causal", NULL };
  static const char *const enc_keys[] = { "src", "mask", "src_key_padding_mask", "is_causal", NULL };
  static const char *const dec_keys[] = { "tgt", "memory", "tgt_mask", "memory_mask", "tgt_key_padding_mask",
                                          "memory_key_padding_mask", "tgt_is_causal", "memory_is_causal", NULL };
  static const char *const tf_keys[] = { "src", "tgt", "src_mask", "tgt_mask", "memory_mask", "src_key_padding_mask",
                                         "tgt_key_padding_mask", "memory_key_padding_mask", "src_is_causal",
                                         "tgt_is_causal", "memory_is_causal", NULL };
  const char *path = gnn_graph_node_get_target (node);
  const char *name = gnn_graph_node_get_name (node);
  GnnArgs *args = gnn_graph_node_get_args (node);
  gboolean mha = GNN_IS_MULTIHEAD_ATTENTION (m), enc_layer = GNN_IS_TRANSFORMER_ENCODER_LAYER (m);
  gboolean enc = GNN_IS_TRANSFORMER_ENCODER (m), transformer = GNN_IS_TRANSFORMER (m);
  const char *const *keys = mha ? mha_keys : enc_layer ? enc_layer_keys : enc ? enc_keys : transformer ? tf_keys
                                                                                                        : dec_keys;
  guint n_required = mha ? 3 : enc_layer || enc ? 1 : 2, n_keys = g_strv_length ((char **) keys), rank;
  const char *v[11] = { NULL };
  GnnGraphNode *vn[11] = { NULL };
  GnnDtype dtype;
  int heads = mha ? gnn_multihead_attention_get_num_heads (GNN_MULTIHEAD_ATTENTION (m)) : heads_of (ex, path);

  if (gnn_args_get_n_values (args) > n_keys || !kwargs_within (args, keys))
    goto bad_args;
  for (guint i = 0; i < n_keys; i++)
    {
      if (g_str_has_suffix (keys[i], "is_causal") || g_str_equal (keys[i], "need_weights") ||
          g_str_equal (keys[i], "average_attn_weights"))
        continue;   /* the causal hints: the mask is still given, and it is what is written */
      if (!optional_tensor (ex, node, args, i, keys[i], &v[i], &vn[i], error))
        return FALSE;
      if (i < n_required && v[i] == NULL)
        goto bad_args;
    }
  rank = node_rank (vn[0], 0);
  dtype = node_dtype (vn[0]);
  if (mha)
    {
      const char *o = inner_value (ex, name, "output"), *w = NULL, *add_mask = NULL;

      if (g_hash_table_contains (ex->outputs_named, name))
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED,
                       "ONNX export: the graph returns the tuple %s gives; return its tensors (out[0], out[1])",
                       name);
          return FALSE;
        }
      if (optional_boolean (args, 4, "need_weights", TRUE))
        w = inner_value (ex, name, "weights");
      if ((v[3] || v[5]) &&
          (add_mask = emit_attention_mask (ex, name, v[5], vn[5], v[3], vn[3], heads, dtype, error)) == NULL)
        return FALSE;
      if (!attention_form (ex, path, name, v[0], v[1], v[2], rank, dtype, add_mask,
                           optional_boolean (args, 6, "average_attn_weights", TRUE), o, w, error))
        return FALSE;
      g_hash_table_insert (ex->parts, ex_printf (ex, "%s#0", name), (gpointer) o);
      if (w != NULL)
        g_hash_table_insert (ex->parts, ex_printf (ex, "%s#1", name), (gpointer) w);
      return TRUE;
    }
  if (enc_layer || enc)
    {
      const char *mask = NULL;

      if ((v[1] || v[2]) &&
          (mask = emit_attention_mask (ex, name, v[1], vn[1], v[2], vn[2], heads, dtype, error)) == NULL)
        return FALSE;
      return (enc_layer ? layer_form (ex, path, name, v[0], NULL, rank, dtype, mask, NULL, out, error)
                        : stack_form (ex, path, name, v[0], NULL, rank, dtype, mask, NULL, out, error)) != NULL;
    }
  if (!transformer)
    {
      const char *mask = NULL, *cross = NULL;

      if ((v[2] || v[4]) &&
          (mask = emit_attention_mask (ex, ex_printf (ex, "%s/tgt", name), v[2], vn[2], v[4], vn[4], heads, dtype,
                                       error)) == NULL)
        return FALSE;
      if ((v[3] || v[5]) &&
          (cross = emit_attention_mask (ex, ex_printf (ex, "%s/memory", name), v[3], vn[3], v[5], vn[5], heads,
                                        dtype, error)) == NULL)
        return FALSE;
      return (GNN_IS_TRANSFORMER_DECODER_LAYER (m)
              ? layer_form (ex, path, name, v[0], v[1], rank, dtype, mask, cross, out, error)
              : stack_form (ex, path, name, v[0], v[1], rank, dtype, mask, cross, out, error)) != NULL;
    }
  {
    const char *src_mask = NULL, *tgt_mask = NULL, *cross = NULL, *memory;
    GnnModule *e = gnn_module_get_submodule (ex->root, sub_path (ex, path, "encoder"), NULL);
    GnnModule *d = gnn_module_get_submodule (ex->root, sub_path (ex, path, "decoder"), NULL);

    if (e == NULL || d == NULL || !GNN_IS_TRANSFORMER_ENCODER (e) || !GNN_IS_TRANSFORMER_DECODER (d))
      {
        g_set_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED,
                     "ONNX export: node %s: a Transformer with a custom encoder or decoder has no ONNX form in "
                     "gnn's exporter", name);
        return FALSE;
      }
    if (((v[2] || v[5]) &&
         (src_mask = emit_attention_mask (ex, ex_printf (ex, "%s/src", name), v[2], vn[2], v[5], vn[5], heads,
                                          dtype, error)) == NULL) ||
        ((v[3] || v[6]) &&
         (tgt_mask = emit_attention_mask (ex, ex_printf (ex, "%s/tgt", name), v[3], vn[3], v[6], vn[6], heads,
                                          dtype, error)) == NULL) ||
        ((v[4] || v[7]) &&
         (cross = emit_attention_mask (ex, ex_printf (ex, "%s/memory", name), v[4], vn[4], v[7], vn[7], heads,
                                       dtype, error)) == NULL))
      return FALSE;
    if ((memory = stack_form (ex, sub_path (ex, path, "encoder"), ex_printf (ex, "%s/encoder", name), v[0], NULL,
                              rank, dtype, src_mask, NULL, NULL, error)) == NULL)
      return FALSE;
    return stack_form (ex, sub_path (ex, path, "decoder"), ex_printf (ex, "%s/decoder", name), v[1], memory,
                       rank, dtype, tgt_mask, cross, out, error) != NULL;
  }

bad_args:
  {
    g_autofree char *list = g_strjoinv (", ", (char **) keys);

    g_set_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED,
                 "ONNX export: node %s calls %s (%s) with arguments gnn's exporter does not write: it takes %s, "
                 "the first %u of them tensors", name, path, gnn_module_get_name (m), list, n_required);
    return FALSE;
  }
}

/* RNNCell, LSTMCell and GRUCell: one step of the recurrence, an ONNX RNN, LSTM or GRU over a
 * sequence of one (the input unsqueezed to (1, N, I)), the state hx (or LSTMCell's (h, c)) as
 * initial_h and initial_c, Y_h (and Y_c) squeezed back to (N, H); an unbatched (I) input is
 * (1, I) first. LSTMCell's tuple is picked by getitem nodes */
static gboolean
export_cell (Export       *ex,
             GnnGraphNode *node,
             GnnModule    *m,
             const char   *out,
             GError      **error)
{
  static const guint lstm_order[4] = { 0, 3, 1, 2 }, gru_order[3] = { 1, 0, 2 }, rnn_order[1] = { 0 };
  static const char *const allowed[] = { "hx", NULL };
  const char *path = gnn_graph_node_get_target (node);
  const char *name = gnn_graph_node_get_name (node);
  GnnArgs *args = gnn_graph_node_get_args (node);
  GnnRNNCellBase *cell = GNN_RNN_CELL_BASE (m);
  gboolean lstm = GNN_IS_LSTM_CELL (m), plain = GNN_IS_RNN_CELL (m);
  guint n_gates = lstm ? 4 : plain ? 1 : 3, rank, n_in;
  gint64 hidden = gnn_rnn_cell_base_get_hidden_size (cell);
  const guint *order = lstm ? lstm_order : plain ? rnn_order : gru_order;
  const char *op = lstm ? "LSTM" : plain ? "RNN" : "GRU";
  const char *in[7] = { NULL, NULL, NULL, "", "", "", "" }, *state[2] = { NULL, NULL };
  const char *outs[3], *h, *c = NULL;
  const GValue *hx = arg_or_kwarg (args, 1, "hx");
  GnnGraphNode *x_node;
  Onnx__NodeProto *o;

  if (gnn_args_get_n_values (args) < 1 || gnn_args_get_n_values (args) > 2 || !kwargs_within (args, allowed))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED,
                   "ONNX export: node %s calls %s (%s) with arguments gnn's exporter does not write: it takes "
                   "input and hx", name, path, gnn_module_get_name (m));
      return FALSE;
    }
  if (lstm && g_hash_table_contains (ex->outputs_named, name))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED,
                   "ONNX export: the graph returns the tuple %s gives; return its tensors (out[0], out[1])", name);
      return FALSE;
    }
  if ((in[0] = arg_value (ex, node, gnn_args_get_value (args, 0), error)) == NULL)
    return FALSE;
  x_node = arg_node (gnn_args_get_value (args, 0));
  rank = node_rank (x_node, 2);
  if (rank != 1 && rank != 2)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE,
                   "ONNX export: node %s: %s of a %u-d input (it takes (N, input_size) or (input_size))", name,
                   gnn_module_get_name (m), rank);
      return FALSE;
    }
  if (hx != NULL && !(G_VALUE_HOLDS_OBJECT (hx) && g_value_get_object (hx) == NULL))
    {
      GnnArgs *pair = G_VALUE_HOLDS (hx, GNN_TYPE_ARGS) ? g_value_get_object (hx) : NULL;

      if (lstm != (pair != NULL) || (pair && gnn_args_get_n_values (pair) != 2))
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED,
                       "ONNX export: node %s: %s takes as hx %s", name, gnn_module_get_name (m),
                       lstm ? "a tuple (h, c) of two tensors" : "a tensor");
          return FALSE;
        }
      for (guint k = 0; k < (lstm ? 2u : 1u); k++)
        {
          const GValue *v = pair ? gnn_args_get_value (pair, k) : hx;

          if ((state[k] = arg_value (ex, node, v, error)) == NULL)
            return FALSE;
          for (guint u = 0; u < (rank == 1 ? 2u : 1u); u++)
            state[k] = emit_squeeze (ex, "Unsqueeze", name, ex_printf (ex, "%s_%u", k ? "c" : "h", u), state[k], 0,
                                     NULL);
        }
    }
  for (guint u = 0; u < (rank == 1 ? 2u : 1u); u++)
    in[0] = emit_squeeze (ex, "Unsqueeze", name, ex_printf (ex, "x_%u", u), in[0], 0, NULL);
  if ((in[1] = gates_initializer (ex, path, inner_value (ex, name, "W"), "weight_ih", 1, order, n_gates, hidden,
                                  error)) == NULL ||
      (in[2] = gates_initializer (ex, path, inner_value (ex, name, "R"), "weight_hh", 1, order, n_gates, hidden,
                                  error)) == NULL)
    return FALSE;
  if (gnn_rnn_cell_base_get_bias (cell))
    {
      const char *cat[2];

      if ((cat[0] = gates_initializer (ex, path, inner_value (ex, name, "Bi"), "bias_ih", 1, order, n_gates, hidden,
                                       error)) == NULL ||
          (cat[1] = gates_initializer (ex, path, inner_value (ex, name, "Bh"), "bias_hh", 1, order, n_gates, hidden,
                                       error)) == NULL)
        return FALSE;
      in[3] = emit (ex, "Concat", name, "B", NULL, 2, cat, &o);
      attr_int (ex, o, "axis", 1);
    }
  n_in = 3;
  if (*in[3])
    n_in = 4;
  if (state[0])
    in[5] = state[0], n_in = 6;
  if (state[1])
    in[6] = state[1], n_in = 7;
  outs[0] = inner_value (ex, name, "Y");
  outs[1] = inner_value (ex, name, "Y_h");
  outs[2] = inner_value (ex, name, "Y_c");
  o = add_node (ex, op, ex_printf (ex, "/%s/%s", path, op), outs[0], n_in, in);
  o->n_output = lstm ? 3 : 2;
  o->output = ex_alloc (ex, 3 * sizeof (char *));
  for (guint k = 0; k < o->n_output; k++)
    o->output[k] = ex_strdup (ex, outs[k]);
  attr_int (ex, o, "hidden_size", hidden);
  if (!lstm && !plain)
    attr_int (ex, o, "linear_before_reset", 1);   /* torch's GRU */
  if (plain)
    {
      g_autofree char *nonlinearity = NULL;

      g_object_get (m, "nonlinearity", &nonlinearity, NULL);
      if (g_strcmp0 (nonlinearity, "relu") == 0)
        {
          Onnx__AttributeProto *a = add_attr (ex, o, "activations", ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__STRINGS);

          a->n_strings = 1;
          a->strings = ex_alloc (ex, sizeof (ProtobufCBinaryData));
          a->strings[0].data = (guint8 *) ex_strdup (ex, "Relu");
          a->strings[0].len = 4;
        }
    }
  /* Y_h (1, N, H): the step's h' (N, H), or (H) unbatched */
  h = emit_squeeze (ex, "Squeeze", name, "h_step", outs[1], 0, rank == 1 || lstm ? NULL : out);
  if (rank == 1)
    h = emit_squeeze (ex, "Squeeze", name, "h_unbatched", h, 0, lstm ? NULL : out);
  if (lstm)
    {
      c = emit_squeeze (ex, "Squeeze", name, "c_step", outs[2], 0, NULL);
      if (rank == 1)
        c = emit_squeeze (ex, "Squeeze", name, "c_unbatched", c, 0, NULL);
      g_hash_table_insert (ex->parts, ex_printf (ex, "%s#0", name), (gpointer) h);
      g_hash_table_insert (ex->parts, ex_printf (ex, "%s#1", name), (gpointer) c);
    }
  return TRUE;
}

/* ReduceSum of @x over @axis (opset 13: the axes an input) */
static const char *
emit_reduce_sum (Export     *ex,
                 const char *prefix,
                 const char *tag,
                 const char *x,
                 gint64      axis,
                 gboolean    keepdims)
{
  const char *axes = int64s_initializer (ex, inner_value (ex, prefix, ex_printf (ex, "%s_axes", tag)), &axis, 1);
  Onnx__NodeProto *o;
  const char *in[2] = { x, axes };
  const char *r = emit (ex, "ReduceSum", prefix, tag, NULL, 2, in, &o);

  attr_int (ex, o, "keepdims", keepdims);
  return r;
}

/* the layers of two tensors: CosineSimilarity (torch 1.13's w12 / sqrt (max (w1, eps²) ·
 * max (w2, eps²)) of the sums of x1 x2, x1², x2² along dim), PairwiseDistance (the p-norm of
 * x1 − x2 + eps along the last dim) and Bilinear (x1 A x2 + b: x1 times the weight as
 * (in1, out · in2), (…, out, in2), times x2, summed over in2) */
static gboolean
export_two_tensors (Export       *ex,
                    GnnGraphNode *node,
                    GnnModule    *m,
                    const char   *out,
                    GError      **error)
{
  const char *path = gnn_graph_node_get_target (node);
  const char *name = gnn_graph_node_get_name (node);
  GnnArgs *args = gnn_graph_node_get_args (node);
  const char *x1, *x2;
  GnnGraphNode *n1;
  GnnDtype dtype;

  if (gnn_args_get_n_values (args) != 2 || n_kwargs (args) != 0)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED,
                   "ONNX export: node %s calls %s (%s) with %u arguments; it takes two tensors", name, path,
                   gnn_module_get_name (m), gnn_args_get_n_values (args) + n_kwargs (args));
      return FALSE;
    }
  if ((x1 = arg_value (ex, node, gnn_args_get_value (args, 0), error)) == NULL ||
      (x2 = arg_value (ex, node, gnn_args_get_value (args, 1), error)) == NULL)
    return FALSE;
  n1 = arg_node (gnn_args_get_value (args, 0));
  dtype = node_dtype (n1);
  if (GNN_IS_COSINE_SIMILARITY (m))
    {
      int dim;
      double eps;
      const char *w12, *w1, *w2, *den, *c[3], *x12, *shape;

      g_object_get (m, "dim", &dim, "eps", &eps, NULL);
      /* the inputs broadcast to one shape first, as torch expands them */
      x12 = emit2 (ex, "Mul", name, "x1_x2", NULL, x1, x2);
      shape = emit (ex, "Shape", name, "shape", NULL, 1, &x12, NULL);
      x1 = emit2 (ex, "Expand", name, "x1_expanded", NULL, x1, shape);
      x2 = emit2 (ex, "Expand", name, "x2_expanded", NULL, x2, shape);
      w12 = emit_reduce_sum (ex, name, "w12", x12, dim, FALSE);
      w1 = emit_reduce_sum (ex, name, "w1", emit2 (ex, "Mul", name, "x1_x1", NULL, x1, x1), dim, FALSE);
      w2 = emit_reduce_sum (ex, name, "w2", emit2 (ex, "Mul", name, "x2_x2", NULL, x2, x2), dim, FALSE);
      c[1] = scalar_initializer (ex, inner_value (ex, name, "eps2"), dtype, eps * eps);
      c[0] = w1;
      w1 = emit (ex, "Clip", name, "w1_clamped", NULL, 2, c, NULL);
      c[0] = w2;
      w2 = emit (ex, "Clip", name, "w2_clamped", NULL, 2, c, NULL);
      den = emit2 (ex, "Mul", name, "den", NULL, w1, w2);
      den = emit (ex, "Sqrt", name, "norms", NULL, 1, &den, NULL);
      emit2 (ex, "Div", name, "cosine", out, w12, den);
      return TRUE;
    }
  if (GNN_IS_PAIRWISE_DISTANCE (m))
    {
      double p, eps;
      gboolean keepdim;
      const char *d, *a, *r;

      g_object_get (m, "p", &p, "eps", &eps, "keepdim", &keepdim, NULL);
      if (!(p > 0) || isinf (p) || node_rank (n1, 1) == 0)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED,
                       "ONNX export: node %s: PairwiseDistance of p %g%s has no ONNX form in gnn's exporter "
                       "(p > 0 and finite, inputs of one or more dims)", name, p,
                       node_rank (n1, 1) == 0 ? " and 0-d inputs" : "");
          return FALSE;
        }
      d = emit2 (ex, "Sub", name, "diff", NULL, x1, x2);
      d = emit2 (ex, "Add", name, "diff_eps", NULL, d,
                 scalar_initializer (ex, inner_value (ex, name, "eps"), dtype, eps));
      if (p == 2.0)
        {
          r = emit_reduce_sum (ex, name, "sum", emit2 (ex, "Mul", name, "square", NULL, d, d), -1, keepdim);
          emit (ex, "Sqrt", name, "norm", out, 1, &r, NULL);
        }
      else
        {
          a = emit (ex, "Abs", name, "abs", NULL, 1, &d, NULL);
          if (p == 1.0)
            {
              r = emit_reduce_sum (ex, name, "sum", a, -1, keepdim);
              emit (ex, "Identity", name, "norm", out, 1, &r, NULL);
            }
          else
            {
              a = emit2 (ex, "Pow", name, "pow", NULL, a, scalar_initializer (ex, inner_value (ex, name, "p"), dtype, p));
              r = emit_reduce_sum (ex, name, "sum", a, -1, keepdim);
              emit2 (ex, "Pow", name, "norm", out, r, scalar_initializer (ex, inner_value (ex, name, "inv_p"), dtype, 1.0 / p));
            }
        }
      return TRUE;
    }
  {
    int in1, in2, n_out;
    guint rank = node_rank (n1, 2);
    static const gint64 perm[3] = { 1, 0, 2 };
    gint64 flat[2], split[8];
    const char *w, *b = NULL, *t;

    g_object_get (m, "in1-features", &in1, "in2-features", &in2, "out-features", &n_out, NULL);
    if (rank < 1 || rank > 7)
      {
        g_set_error (error, GNN_ERROR, GNN_ERROR_SHAPE, "ONNX export: node %s: Bilinear of %u-d inputs", name, rank);
        return FALSE;
      }
    if ((w = tensor_initializer (ex, sub_path (ex, path, "weight"), error)) == NULL)
      return FALSE;
    if (has_tensor (ex, sub_path (ex, path, "bias")) &&
        (b = tensor_initializer (ex, sub_path (ex, path, "bias"), error)) == NULL)
      return FALSE;
    flat[0] = in1, flat[1] = (gint64) n_out * in2;
    for (guint i = 0; i + 1 < rank; i++)
      split[i] = 0;
    split[rank - 1] = n_out, split[rank] = in2;
    w = emit_transpose (ex, name, "weight_in1_first", w, perm, 3);
    w = emit_reshape (ex, name, "weight_flat", w, flat, 2, NULL);
    t = emit2 (ex, "MatMul", name, "x1_weight", NULL, x1, w);
    t = emit_reshape (ex, name, "x1_weight_split", t, split, rank + 1, NULL);
    t = emit2 (ex, "Mul", name, "times_x2", NULL, t, emit_squeeze (ex, "Unsqueeze", name, "x2_row", x2, -2, NULL));
    t = emit_reduce_sum (ex, name, "bilinear", t, -1, FALSE);
    if (b != NULL)
      emit2 (ex, "Add", name, "bias", out, t, b);
    else
      emit (ex, "Identity", name, "out", out, 1, &t, NULL);
    return TRUE;
  }
}

/* ---- the model ------------------------------------------------------------------------- */

static gboolean
collect_outputs (Export        *ex,
                 GnnGraphNode  *output,
                 GPtrArray     *out_nodes,
                 GError       **error)
{
  GnnArgs *args = gnn_graph_node_get_args (output);
  const GValue *v = gnn_args_get_n_values (args) > 0 ? gnn_args_get_value (args, 0) : NULL;

  if (v != NULL && G_VALUE_HOLDS (v, GNN_TYPE_ARGS) && g_value_get_object (v) != NULL)
    {
      GnnArgs *inner = g_value_get_object (v);

      for (guint i = 0; i < gnn_args_get_n_values (inner); i++)
        {
          GnnGraphNode *n = arg_node (gnn_args_get_value (inner, i));

          if (n == NULL)
            goto bad;
          g_ptr_array_add (out_nodes, n);
        }
      return TRUE;
    }
  if (arg_node (v) != NULL)
    {
      g_ptr_array_add (out_nodes, arg_node (v));
      return TRUE;
    }
bad:
  g_set_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED,
               "ONNX export: the graph returns something other than a tensor or a tuple of "
               "tensors; ONNX outputs are tensors");
  return FALSE;
}

static gboolean
build_graph (Export             *ex,
             GnnGraph           *graph,
             const char * const *input_names,
             const char * const *output_names,
             GError            **error)
{
  g_autoptr(GPtrArray) nodes = gnn_graph_get_nodes (graph);
  g_autoptr(GPtrArray) out_nodes = g_ptr_array_new ();
  GnnGraphNode *output = NULL;
  guint n_inputs = 0;

  for (guint i = 0; i < nodes->len; i++)
    if (gnn_graph_node_get_op (nodes->pdata[i]) == GNN_GRAPH_OP_OUTPUT)
      output = nodes->pdata[i];
  if (output == NULL)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "ONNX export: the graph has no output node");
      return FALSE;
    }
  if (!collect_outputs (ex, output, out_nodes, error))
    return FALSE;
  if (output_names != NULL && g_strv_length ((char **) output_names) > out_nodes->len)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "ONNX export: %u output names for %u outputs",
                   g_strv_length ((char **) output_names), out_nodes->len);
      return FALSE;
    }
  for (guint i = 0; i < out_nodes->len; i++)
    {
      const char *node_name = gnn_graph_node_get_name (out_nodes->pdata[i]);
      const char *oname = output_names && i < g_strv_length ((char **) output_names)
                          ? output_names[i] : node_name;

      if (g_hash_table_contains (ex->outputs_named, node_name))
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED,
                       "ONNX export: the graph returns %s twice; give each output its own value",
                       node_name);
          return FALSE;
        }
      g_hash_table_insert (ex->outputs_named, (gpointer) node_name, ex_strdup (ex, oname));
    }

  for (guint i = 0; i < nodes->len; i++)
    {
      GnnGraphNode *node = nodes->pdata[i];
      const char *name = gnn_graph_node_get_name (node);
      const char *out = g_hash_table_lookup (ex->outputs_named, name);
      gboolean ok = TRUE;

      if (out == NULL)
        out = ex_strdup (ex, name);
      switch (gnn_graph_node_get_op (node))
        {
        case GNN_GRAPH_OP_PLACEHOLDER:
          {
            Onnx__ValueInfoProto *vi;

            if (input_names != NULL && n_inputs < g_strv_length ((char **) input_names))
              out = ex_strdup (ex, input_names[n_inputs]);
            n_inputs++;
            if (g_hash_table_contains (ex->outputs_named, name))
              {
                g_set_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED,
                             "ONNX export: the graph returns its input %s unchanged", name);
                return FALSE;
              }
            if ((vi = value_info (ex, out, node, error)) == NULL)
              return FALSE;
            g_ptr_array_add (ex->inputs, vi);
            g_hash_table_insert (ex->values, (gpointer) name, (gpointer) out);
            continue;
          }
        case GNN_GRAPH_OP_GET_ATTR:
          {
            const char *init = tensor_initializer (ex, gnn_graph_node_get_target (node), error);

            if (init == NULL)
              return FALSE;
            if (g_hash_table_contains (ex->outputs_named, name))
              {
                const char *in[1] = { init };

                add_node (ex, "Identity", ex_printf (ex, "/%s/Identity", name), out, 1, in);
              }
            else
              out = (char *) init;
            break;
          }
        case GNN_GRAPH_OP_CALL_MODULE:
          ok = export_module (ex, node, out, error);
          break;
        case GNN_GRAPH_OP_CALL_FUNCTION:
          ok = export_call (ex, node, FALSE, out, error);
          break;
        case GNN_GRAPH_OP_CALL_METHOD:
          ok = export_call (ex, node, TRUE, out, error);
          break;
        case GNN_GRAPH_OP_OUTPUT:
          continue;
        default:
          g_assert_not_reached ();
        }
      if (!ok)
        return FALSE;
      g_hash_table_insert (ex->values, (gpointer) name, (gpointer) out);
      if (gnn_graph_node_get_tensor_meta (node, NULL, NULL) != NULL &&
          gnn_graph_node_get_op (node) != GNN_GRAPH_OP_GET_ATTR)
        {
          Onnx__ValueInfoProto *vi = value_info (ex, out, node, error);

          if (vi == NULL)
            return FALSE;
          /* the shapes inside the graph only where no axis is dynamic: with a dynamic batch
           * the traced sizes would be wrong for other batches */
          if (g_hash_table_contains (ex->outputs_named, name))
            g_ptr_array_add (ex->outputs, vi);
          else if (ex->dynamic_axes == NULL || g_variant_n_children (ex->dynamic_axes) == 0)
            g_ptr_array_add (ex->value_info, vi);
        }
      else if (g_hash_table_contains (ex->outputs_named, name))
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                       "ONNX export: output %s has no shape: run shape propagation first", name);
          return FALSE;
        }
    }
  if (input_names != NULL && g_strv_length ((char **) input_names) > n_inputs)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "ONNX export: %u input names for %u inputs",
                   g_strv_length ((char **) input_names), n_inputs);
      return FALSE;
    }
  return TRUE;
}

#endif /* GNN_HAVE_ONNX */

/**
 * gnn_onnx_export:
 * @graph: a traced graph whose nodes carry shapes ([method@Gnn.GraphNode.set_tensor_meta],
 *   which shape propagation sets)
 * @root: the module the graph was traced from: its submodules are the call_module targets,
 *   its parameters and buffers the initializers
 * @input_names: (array zero-terminated=1) (nullable): names of the graph's inputs, in order
 *   (torch's `input_names`); by default the placeholders' names
 * @output_names: (array zero-terminated=1) (nullable): names of its outputs (`output_names`);
 *   by default the names of the nodes returned
 * @dynamic_axes: (nullable): `a{sa{is}}`: for an input or output name, the axes whose size is
 *   not fixed and the name of each (torch's `dynamic_axes`)
 * @opset_version: the ONNX opset, from %GNN_ONNX_MIN_OPSET to %GNN_ONNX_MAX_OPSET
 * @path: the file to write (atomically: a failed export leaves an existing file as it was)
 * @error: return location for a #GError
 *
 * Writes @graph as an ONNX model (`torch.onnx.export`), for inference: Dropout is the
 * identity and BatchNorm uses its running statistics. The parameters and buffers become
 * initializers named by their state-dict keys. A node with no ONNX form, a node without a
 * shape, or an opset out of range is a #GError naming it; so is a build of gnn without
 * ONNX support (see [func@Gnn.onnx_is_available]).
 *
 * Returns: %TRUE when the file was written
 *
 * Since: 0.1
 */
gboolean
gnn_onnx_export (GnnGraph           *graph,
                 GnnModule          *root,
                 const char * const *input_names,
                 const char * const *output_names,
                 GVariant           *dynamic_axes,
                 int                 opset_version,
                 const char         *path,
                 GError            **error)
{
  g_return_val_if_fail (GNN_IS_GRAPH (graph), FALSE);
  g_return_val_if_fail (GNN_IS_MODULE (root), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (opset_version < GNN_ONNX_MIN_OPSET || opset_version > GNN_ONNX_MAX_OPSET)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED,
                   "ONNX export: opset %d is out of range: gnn writes opsets %d to %d",
                   opset_version, GNN_ONNX_MIN_OPSET, GNN_ONNX_MAX_OPSET);
      return FALSE;
    }
  if (dynamic_axes != NULL && !g_variant_is_of_type (dynamic_axes, G_VARIANT_TYPE ("a{sa{is}}")))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "ONNX export: dynamic_axes must be of type a{sa{is}}, not %s",
                   g_variant_get_type_string (dynamic_axes));
      return FALSE;
    }
#ifndef GNN_HAVE_ONNX
  g_set_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED,
               "ONNX export: this build of gnn has no ONNX support: install protobuf-c-compiler, "
               "libprotobuf-c-dev and libonnx-dev and rebuild with -Donnx=enabled");
  return FALSE;
#else
  {
    static const Onnx__ModelProto minit = ONNX__MODEL_PROTO__INIT;
    static const Onnx__GraphProto ginit = ONNX__GRAPH_PROTO__INIT;
    static const Onnx__OperatorSetIdProto oinit = ONNX__OPERATOR_SET_ID_PROTO__INIT;
    Export ex = { 0 };
    Onnx__ModelProto model = minit;
    Onnx__GraphProto g = ginit;
    Onnx__OperatorSetIdProto opset = oinit;
    Onnx__OperatorSetIdProto *opsets[1] = { &opset };
    gboolean ok = FALSE;

    ex.allocs = g_ptr_array_new_with_free_func (g_free);
    ex.nodes = g_ptr_array_new ();
    ex.initializers = g_ptr_array_new ();
    ex.inputs = g_ptr_array_new ();
    ex.outputs = g_ptr_array_new ();
    ex.value_info = g_ptr_array_new ();
    ex.values = g_hash_table_new (g_str_hash, g_str_equal);
    ex.outputs_named = g_hash_table_new (g_str_hash, g_str_equal);
    ex.initialized = g_hash_table_new (g_str_hash, g_str_equal);
    ex.node_names = g_hash_table_new (g_str_hash, g_str_equal);
    ex.parts = g_hash_table_new (g_str_hash, g_str_equal);
    ex.aliases = g_hash_table_new (g_str_hash, g_str_equal);
    ex.dynamic_axes = dynamic_axes;
    ex.root = root;
    ex.opset = opset_version;

    if (build_graph (&ex, graph, input_names, output_names, error))
      {
        gsize size;
        guint8 *buffer;

        g.name = ex_strdup (&ex, "main_graph");
        g.doc_string = ex_printf (&ex, "%s, traced by gnn", gnn_module_get_name (root));
        g.n_node = ex.nodes->len;
        g.node = (Onnx__NodeProto **) ex.nodes->pdata;
        g.n_initializer = ex.initializers->len;
        g.initializer = (Onnx__TensorProto **) ex.initializers->pdata;
        g.n_input = ex.inputs->len;
        g.input = (Onnx__ValueInfoProto **) ex.inputs->pdata;
        g.n_output = ex.outputs->len;
        g.output = (Onnx__ValueInfoProto **) ex.outputs->pdata;
        g.n_value_info = ex.value_info->len;
        g.value_info = (Onnx__ValueInfoProto **) ex.value_info->pdata;
        opset.domain = ex_strdup (&ex, "");
        opset.has_version = TRUE;
        opset.version = opset_version;
        model.has_ir_version = TRUE;
        model.ir_version = 8;           /* the IR of opsets 15 to 17 (onnx 1.10 to 1.12) */
        model.n_opset_import = 1;
        model.opset_import = opsets;
        model.producer_name = ex_strdup (&ex, "gnn");
        model.producer_version = ex_strdup (&ex, GNN_VERSION_S);
        model.graph = &g;
        size = onnx__model_proto__get_packed_size (&model);
        buffer = g_malloc (MAX (size, 1));
        onnx__model_proto__pack (&model, buffer);
        ok = g_file_set_contents_full (path, (const char *) buffer, size,
                                       G_FILE_SET_CONTENTS_CONSISTENT, 0644, error);
        if (!ok)
          g_prefix_error (error, "ONNX export: ");
        g_free (buffer);
      }
    g_hash_table_unref (ex.values);
    g_hash_table_unref (ex.outputs_named);
    g_hash_table_unref (ex.initialized);
    g_hash_table_unref (ex.node_names);
    g_hash_table_unref (ex.parts);
    g_hash_table_unref (ex.aliases);
    g_ptr_array_unref (ex.nodes);
    g_ptr_array_unref (ex.initializers);
    g_ptr_array_unref (ex.inputs);
    g_ptr_array_unref (ex.outputs);
    g_ptr_array_unref (ex.value_info);
    g_ptr_array_unref (ex.allocs);
    return ok;
  }
#endif
}
