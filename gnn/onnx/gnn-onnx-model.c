/* gnn-onnx-model.c: an ONNX file read and checked, for gnn.onnx.import_model
 *
 * The file is untrusted: before protobuf-c parses it, a walk of the wire format bounds the
 * nesting of the schema's recursive messages (graphs inside attributes, types inside types),
 * which protobuf-c would follow on the C stack; after parsing, every tensor's size is checked
 * against its dims with overflow-checked arithmetic, external data is refused, and the graph's
 * values must each be defined once, before their use (no cycles, no dangling inputs).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <string.h>

#include "core/gnn-error.h"
#include "core/gnn-tensor.h"
#include "gnn-onnx.h"

/**
 * GnnOnnxModel:
 *
 * An ONNX model read from a file and checked ([ctor@Gnn.OnnxModel.new_from_file]): its
 * graph's nodes, initializers, inputs and outputs, as gnn's Python part needs them to
 * build a graph module (`gnn.onnx.import_model`).
 *
 * Since: 0.1
 */
struct _GnnOnnxModel
{
  GObject parent_instance;
  gint64 opset;
  char *producer;
  GPtrArray *nodes;            /* GVariant* (sssasasa{sv}) */
  GPtrArray *node_tensors;     /* GHashTable* attribute name -> GnnTensor*, per node */
  GHashTable *initializers;    /* name -> GnnTensor* */
  GPtrArray *initializer_names;
  GVariant *inputs, *outputs;  /* a(sia(xs)) */
};

G_DEFINE_FINAL_TYPE (GnnOnnxModel, gnn_onnx_model, G_TYPE_OBJECT)

static void
gnn_onnx_model_finalize (GObject *object)
{
  GnnOnnxModel *self = GNN_ONNX_MODEL (object);

  g_free (self->producer);
  g_ptr_array_unref (self->nodes);
  g_ptr_array_unref (self->node_tensors);
  g_hash_table_unref (self->initializers);
  g_ptr_array_unref (self->initializer_names);
  g_clear_pointer (&self->inputs, g_variant_unref);
  g_clear_pointer (&self->outputs, g_variant_unref);
  G_OBJECT_CLASS (gnn_onnx_model_parent_class)->finalize (object);
}

static void
gnn_onnx_model_class_init (GnnOnnxModelClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = gnn_onnx_model_finalize;
}

static void
gnn_onnx_model_init (GnnOnnxModel *self)
{
  self->nodes = g_ptr_array_new_with_free_func ((GDestroyNotify) g_variant_unref);
  self->node_tensors = g_ptr_array_new_with_free_func ((GDestroyNotify) g_hash_table_unref);
  self->initializers = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_object_unref);
  self->initializer_names = g_ptr_array_new_with_free_func (g_free);
}

#ifdef GNN_HAVE_ONNX

#include "onnx.pb-c.h"
#include "gnn-onnx-private.h"

/* ---- the nesting bound, on the wire format ---------------------------------------------- */

/* the messages on the schema's recursive paths, and the fields that lead from one to the next */
typedef enum { M_MODEL, M_GRAPH, M_NODE, M_ATTRIBUTE, M_FUNCTION, M_TRAINING, M_VALUE_INFO,
               M_TYPE, M_TYPE_ELEM, M_TYPE_MAP, M_NONE } MessageKind;

static MessageKind
child_kind (MessageKind parent,
            guint32     field)
{
  switch (parent)
    {
    case M_MODEL: return field == 7 ? M_GRAPH : field == 20 ? M_TRAINING : field == 25 ? M_FUNCTION : M_NONE;
    case M_GRAPH: return field == 1 ? M_NODE : (field == 11 || field == 12 || field == 13) ? M_VALUE_INFO : M_NONE;
    case M_NODE: return field == 5 ? M_ATTRIBUTE : M_NONE;
    case M_ATTRIBUTE: return (field == 6 || field == 11) ? M_GRAPH : (field == 14 || field == 15) ? M_TYPE : M_NONE;
    case M_FUNCTION: return field == 7 ? M_NODE : M_NONE;
    case M_TRAINING: return (field == 1 || field == 2) ? M_GRAPH : M_NONE;
    case M_VALUE_INFO: return field == 2 ? M_TYPE : M_NONE;
    case M_TYPE: return (field == 4 || field == 9) ? M_TYPE_ELEM : field == 5 ? M_TYPE_MAP : M_NONE;
    case M_TYPE_ELEM: return field == 1 ? M_TYPE : M_NONE;
    case M_TYPE_MAP: return field == 2 ? M_TYPE : M_NONE;
    default: return M_NONE;
    }
}

static gboolean
read_varint (const guint8 **p,
             const guint8  *end,
             guint64       *out)
{
  guint64 v = 0;

  for (guint shift = 0; shift < 64; shift += 7)
    {
      if (*p >= end)
        return FALSE;
      v |= (guint64) (**p & 0x7f) << shift;
      if ((*(*p)++ & 0x80) == 0)
        {
          *out = v;
          return TRUE;
        }
    }
  return FALSE;
}

static gboolean
check_nesting (const guint8 *p,
               const guint8 *end,
               MessageKind   kind,
               guint         depth,
               GError      **error)
{
  if (depth > GNN_ONNX_MAX_NESTING)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_FILE_FORMAT,
                   "ONNX file: messages nested deeper than %d levels (subgraphs inside "
                   "subgraphs, or types inside types)", GNN_ONNX_MAX_NESTING);
      return FALSE;
    }
  while (p < end)
    {
      guint64 key, len, skip;

      if (!read_varint (&p, end, &key))
        goto truncated;
      switch (key & 7)
        {
        case 0:
          if (!read_varint (&p, end, &skip))
            goto truncated;
          break;
        case 1:
          if (end - p < 8)
            goto truncated;
          p += 8;
          break;
        case 5:
          if (end - p < 4)
            goto truncated;
          p += 4;
          break;
        case 2:
          {
            MessageKind child;

            if (!read_varint (&p, end, &len) || len > (guint64) (end - p))
              goto truncated;
            child = child_kind (kind, (guint32) (key >> 3));
            if (child != M_NONE && !check_nesting (p, p + len, child, depth + 1, error))
              return FALSE;
            p += len;
            break;
          }
        default:
          g_set_error (error, GNN_ERROR, GNN_ERROR_FILE_FORMAT,
                       "ONNX file: corrupt protobuf (wire type %u)", (guint) (key & 7));
          return FALSE;
        }
    }
  return TRUE;
truncated:
  g_set_error (error, GNN_ERROR, GNN_ERROR_FILE_FORMAT,
               "ONNX file: truncated or corrupt protobuf");
  return FALSE;
}

/* ---- tensors ----------------------------------------------------------------------------- */

static gboolean
onnx_dtype (int32_t   type,
            GnnDtype *dtype)
{
  for (int d = 0; d < GNN_N_DTYPES; d++)
    if (type != 0 && gnn_onnx_elem_type (d) == type)
      {
        *dtype = d;
        return TRUE;
      }
  return FALSE;
}

static GnnTensor *
tensor_from_proto (const Onnx__TensorProto *t,
                   const char              *what,
                   GError                 **error)
{
  g_autoptr(GBytes) bytes = NULL;
  GnnDtype dtype;
  gsize elem, numel = 1, size;
  g_autofree gint64 *shape = NULL;

  if (t->name != NULL && !g_utf8_validate (t->name, -1, NULL))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_FILE_FORMAT, "ONNX file: a tensor name is not UTF-8 text");
      return NULL;
    }
  if (!t->has_data_type || !onnx_dtype (t->data_type, &dtype))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_DTYPE,
                   "ONNX file: %s '%s' has data type %d, which gnn has no dtype for",
                   what, t->name ? t->name : "", t->has_data_type ? t->data_type : 0);
      return NULL;
    }
  if ((t->has_data_location && t->data_location == ONNX__TENSOR_PROTO__DATA_LOCATION__EXTERNAL) ||
      t->n_external_data > 0)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED,
                   "ONNX file: %s '%s' keeps its data in an external file, which gnn does not "
                   "read (save the model with its data inside)", what, t->name ? t->name : "");
      return NULL;
    }
  if (t->n_dims > 8)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED,
                   "ONNX file: %s '%s' has %zu dims; gnn's tensors have at most 8", what,
                   t->name ? t->name : "", t->n_dims);
      return NULL;
    }
  shape = g_new0 (gint64, MAX (t->n_dims, 1));
  for (gsize i = 0; i < t->n_dims; i++)
    {
      if (t->dims[i] < 0 || !g_size_checked_mul (&numel, numel, (gsize) t->dims[i]) ||
          numel > ((gsize) 1 << 40))
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_FILE_FORMAT,
                       "ONNX file: %s '%s' has dims that are negative or too large (dim %zu is %"
                       G_GINT64_FORMAT ")", what, t->name ? t->name : "", i, (gint64) t->dims[i]);
          return NULL;
        }
      shape[i] = t->dims[i];
    }
  elem = gnn_dtype_get_size (dtype);
  size = numel * elem;
  if (t->has_raw_data)
    {
      if (t->raw_data.len != size)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_FILE_FORMAT,
                       "ONNX file: %s '%s' has %zu bytes of raw_data; its dims and type need %zu",
                       what, t->name ? t->name : "", t->raw_data.len, size);
          return NULL;
        }
      bytes = g_bytes_new (t->raw_data.data, size);
    }
  else
    {
      gsize n = dtype == GNN_DTYPE_FLOAT32 ? t->n_float_data
                : dtype == GNN_DTYPE_FLOAT64 ? t->n_double_data
                : dtype == GNN_DTYPE_INT64 ? t->n_int64_data : t->n_int32_data;
      guint8 *data;

      /* the count first: the dims alone must not decide how much is allocated */
      if (n != numel)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_FILE_FORMAT,
                       "ONNX file: %s '%s' holds %zu values; its dims need %zu", what,
                       t->name ? t->name : "", n, numel);
          return NULL;
        }
      data = g_malloc0 (MAX (size, 1));
      for (gsize i = 0; i < numel; i++)
        switch (dtype)
          {
          case GNN_DTYPE_FLOAT32: ((float *) data)[i] = t->float_data[i]; break;
          case GNN_DTYPE_FLOAT64: ((double *) data)[i] = t->double_data[i]; break;
          case GNN_DTYPE_INT64: ((gint64 *) data)[i] = t->int64_data[i]; break;
          case GNN_DTYPE_INT32: ((gint32 *) data)[i] = t->int32_data[i]; break;
          case GNN_DTYPE_INT16: ((gint16 *) data)[i] = (gint16) t->int32_data[i]; break;
          case GNN_DTYPE_INT8: ((gint8 *) data)[i] = (gint8) t->int32_data[i]; break;
          case GNN_DTYPE_UINT8: case GNN_DTYPE_BOOL: data[i] = (guint8) t->int32_data[i]; break;
          default: ((guint16 *) data)[i] = (guint16) t->int32_data[i]; break;
          }
      bytes = g_bytes_new_take (data, size);
    }
  return gnn_tensor_new_from_bytes (bytes, dtype, shape, t->n_dims, "cpu", error);
}

/* ---- the graph --------------------------------------------------------------------------- */

/* names become GVariant strings and Python str: they must be UTF-8 */
static gboolean
check_utf8 (const char  *s,
            const char  *what,
            GError     **error)
{
  if (s == NULL || g_utf8_validate (s, -1, NULL))
    return TRUE;
  g_set_error (error, GNN_ERROR, GNN_ERROR_FILE_FORMAT, "ONNX file: a %s is not UTF-8 text", what);
  return FALSE;
}

static GVariant *
value_infos (Onnx__ValueInfoProto **infos,
             gsize                  n,
             GHashTable            *skip,
             GError               **error)
{
  GVariantBuilder b;

  for (gsize i = 0; i < n; i++)
    {
      const Onnx__TypeProto__Tensor *tt = NULL;

      if (!check_utf8 (infos[i]->name, "value name", error))
        return NULL;
      if (infos[i]->type && infos[i]->type->value_case == ONNX__TYPE_PROTO__VALUE_TENSOR_TYPE)
        tt = infos[i]->type->tensor_type;
      if (tt && tt->shape)
        for (gsize d = 0; d < tt->shape->n_dim; d++)
          if (tt->shape->dim[d]->value_case == ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_PARAM &&
              !check_utf8 (tt->shape->dim[d]->dim_param, "dimension name", error))
            return NULL;
    }
  g_variant_builder_init (&b, G_VARIANT_TYPE ("a(sia(xs))"));
  for (gsize i = 0; i < n; i++)
    {
      const Onnx__ValueInfoProto *vi = infos[i];
      const Onnx__TypeProto__Tensor *tt = NULL;
      GVariantBuilder dims;

      if (vi->name == NULL || g_hash_table_contains (skip, vi->name))
        continue;
      if (vi->type && vi->type->value_case == ONNX__TYPE_PROTO__VALUE_TENSOR_TYPE)
        tt = vi->type->tensor_type;
      g_variant_builder_init (&dims, G_VARIANT_TYPE ("a(xs)"));
      if (tt && tt->shape)
        for (gsize d = 0; d < tt->shape->n_dim; d++)
          {
            const Onnx__TensorShapeProto__Dimension *dim = tt->shape->dim[d];

            if (dim->value_case == ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_VALUE)
              g_variant_builder_add (&dims, "(xs)", (gint64) dim->dim_value, "");
            else
              g_variant_builder_add (&dims, "(xs)", (gint64) -1,
                                     dim->value_case == ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_PARAM
                                     && dim->dim_param ? dim->dim_param : "");
          }
      g_variant_builder_add (&b, "(sia(xs))", vi->name, tt && tt->has_elem_type ? tt->elem_type : 0, &dims);
    }
  return g_variant_ref_sink (g_variant_builder_end (&b));
}

static gboolean
read_node (GnnOnnxModel          *self,
           const Onnx__NodeProto *node,
           guint                  index,
           GHashTable            *defined,
           GError               **error)
{
  GVariantBuilder attrs, ins, outs;
  GHashTable *tensors = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_object_unref);
  const char *name = node->name && *node->name ? node->name : node->op_type;

  g_ptr_array_add (self->node_tensors, tensors);
  if (!check_utf8 (node->name, "node name", error) || !check_utf8 (node->op_type, "node op_type", error) ||
      !check_utf8 (node->domain, "node domain", error))
    return FALSE;
  for (gsize i = 0; i < node->n_input; i++)
    if (!check_utf8 (node->input[i], "value name", error))
      return FALSE;
  for (gsize i = 0; i < node->n_output; i++)
    if (!check_utf8 (node->output[i], "value name", error))
      return FALSE;
  for (gsize i = 0; i < node->n_attribute; i++)
    if (!check_utf8 (node->attribute[i]->name, "attribute name", error))
      return FALSE;
  if (node->op_type == NULL || node->op_type[0] == '\0')
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_FILE_FORMAT, "ONNX file: node %u has no op_type", index);
      return FALSE;
    }
  if (node->domain && *node->domain && strcmp (node->domain, "ai.onnx") != 0)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED,
                   "ONNX file: node %s is %s of the domain '%s'; gnn reads the default domain only",
                   name, node->op_type, node->domain);
      return FALSE;
    }
  g_variant_builder_init (&ins, G_VARIANT_TYPE_STRING_ARRAY);
  for (gsize i = 0; i < node->n_input; i++)
    {
      const char *in = node->input[i] ? node->input[i] : "";

      if (*in && !g_hash_table_contains (defined, in))
        {
          g_variant_builder_clear (&ins);
          g_set_error (error, GNN_ERROR, GNN_ERROR_FILE_FORMAT,
                       "ONNX file: node %s (%s) uses '%s', which no input, initializer or "
                       "earlier node defines (a dangling input or a cycle)", name, node->op_type, in);
          return FALSE;
        }
      g_variant_builder_add (&ins, "s", in);
    }
  g_variant_builder_init (&outs, G_VARIANT_TYPE_STRING_ARRAY);
  for (gsize i = 0; i < node->n_output; i++)
    {
      const char *out = node->output[i] ? node->output[i] : "";

      if (*out && g_hash_table_contains (defined, out))
        {
          g_variant_builder_clear (&ins);
          g_variant_builder_clear (&outs);
          g_set_error (error, GNN_ERROR, GNN_ERROR_FILE_FORMAT,
                       "ONNX file: node %s (%s) defines '%s' a second time", name, node->op_type, out);
          return FALSE;
        }
      if (*out)
        g_hash_table_add (defined, g_strdup (out));
      g_variant_builder_add (&outs, "s", out);
    }
  g_variant_builder_init (&attrs, G_VARIANT_TYPE_VARDICT);
  for (gsize i = 0; i < node->n_attribute; i++)
    {
      const Onnx__AttributeProto *a = node->attribute[i];
      GVariant *v = NULL;

      if (a->name == NULL)
        continue;
      switch (a->type)
        {
        case ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__INT: v = g_variant_new_int64 (a->i); break;
        case ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__FLOAT: v = g_variant_new_double (a->f); break;
        case ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__STRING:
          {
            g_autofree char *s = g_strndup (a->s.data ? (const char *) a->s.data : "", a->s.len);

            v = g_variant_new_string (g_utf8_validate (s, -1, NULL) ? s : "");
            break;
          }
        case ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__INTS:
          v = g_variant_new_fixed_array (G_VARIANT_TYPE_INT64, a->ints, a->n_ints, sizeof (gint64));
          break;
        case ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__FLOATS:
          {
            g_autofree double *d = g_new (double, MAX (a->n_floats, 1));

            for (gsize k = 0; k < a->n_floats; k++)
              d[k] = a->floats[k];
            v = g_variant_new_fixed_array (G_VARIANT_TYPE_DOUBLE, d, a->n_floats, sizeof (double));
            break;
          }
        case ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__STRINGS:
          {
            GVariantBuilder sb;

            g_variant_builder_init (&sb, G_VARIANT_TYPE_STRING_ARRAY);
            for (gsize k = 0; k < a->n_strings; k++)
              {
                g_autofree char *s = g_strndup (a->strings[k].data ? (const char *) a->strings[k].data : "",
                                                a->strings[k].len);

                g_variant_builder_add (&sb, "s", g_utf8_validate (s, -1, NULL) ? s : "");
              }
            v = g_variant_builder_end (&sb);
            break;
          }
        case ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__TENSOR:
          {
            GnnTensor *t = a->t ? tensor_from_proto (a->t, "attribute tensor", error) : NULL;

            if (t == NULL)
              {
                if (a->t == NULL)
                  g_set_error (error, GNN_ERROR, GNN_ERROR_FILE_FORMAT,
                               "ONNX file: node %s: tensor attribute %s holds no tensor", name, a->name);
                g_variant_builder_clear (&ins);
                g_variant_builder_clear (&outs);
                g_variant_builder_clear (&attrs);
                return FALSE;
              }
            g_hash_table_insert (tensors, g_strdup (a->name), t);
            v = g_variant_new_maybe (G_VARIANT_TYPE_BYTE, NULL);
            break;
          }
        default:
          g_variant_builder_clear (&ins);
          g_variant_builder_clear (&outs);
          g_variant_builder_clear (&attrs);
          g_set_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED,
                       "ONNX file: node %s (%s): attribute %s is a %s, which gnn does not read "
                       "(If, Loop and Scan subgraphs are not supported)", name, node->op_type, a->name,
                       a->type == ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__GRAPH ||
                       a->type == ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__GRAPHS ? "graph" : "value of another kind");
          return FALSE;
        }
      g_variant_builder_add (&attrs, "{sv}", a->name, v);
    }
  g_ptr_array_add (self->nodes,
                   g_variant_ref_sink (g_variant_new ("(sss@as@as@a{sv})", node->name ? node->name : "",
                                                      node->op_type, node->domain ? node->domain : "",
                                                      g_variant_builder_end (&ins),
                                                      g_variant_builder_end (&outs),
                                                      g_variant_builder_end (&attrs))));
  return TRUE;
}

static gboolean
read_model (GnnOnnxModel           *self,
            const Onnx__ModelProto *model,
            GError                **error)
{
  const Onnx__GraphProto *g = model->graph;
  g_autoptr(GHashTable) defined = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  gboolean have_opset = FALSE;

  if (g == NULL)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_FILE_FORMAT, "ONNX file: the model has no graph");
      return FALSE;
    }
  for (gsize i = 0; i < model->n_opset_import; i++)
    {
      const Onnx__OperatorSetIdProto *o = model->opset_import[i];

      if (o->domain == NULL || *o->domain == '\0' || strcmp (o->domain, "ai.onnx") == 0)
        {
          self->opset = o->has_version ? o->version : 1;
          have_opset = TRUE;
        }
    }
  if (!have_opset || self->opset > GNN_ONNX_MAX_OPSET || self->opset < 7)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED,
                   "ONNX file: opset %" G_GINT64_FORMAT " of the default domain; gnn reads "
                   "opsets 7 to %d", have_opset ? self->opset : (gint64) 0, GNN_ONNX_MAX_OPSET);
      return FALSE;
    }
  self->producer = g_strdup (model->producer_name && g_utf8_validate (model->producer_name, -1, NULL)
                             ? model->producer_name : "");
  for (gsize i = 0; i < g->n_initializer; i++)
    {
      const Onnx__TensorProto *t = g->initializer[i];
      GnnTensor *tensor;

      if (!check_utf8 (t->name, "initializer name", error))
        return FALSE;
      if (t->name == NULL || *t->name == '\0' || g_hash_table_contains (defined, t->name))
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_FILE_FORMAT,
                       "ONNX file: initializer %zu has %s name", i,
                       t->name && *t->name ? "a duplicate" : "no");
          return FALSE;
        }
      if ((tensor = tensor_from_proto (t, "initializer", error)) == NULL)
        return FALSE;
      g_hash_table_insert (self->initializers, g_strdup (t->name), tensor);
      g_ptr_array_add (self->initializer_names, g_strdup (t->name));
      g_hash_table_add (defined, g_strdup (t->name));
    }
  if (g->n_sparse_initializer > 0)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED,
                   "ONNX file: sparse initializers are not supported");
      return FALSE;
    }
  self->inputs = value_infos (g->input, g->n_input, self->initializers, error);
  if (self->inputs == NULL)
    return FALSE;
  for (gsize i = 0; i < g->n_input; i++)
    if (g->input[i]->name && !g_hash_table_contains (self->initializers, g->input[i]->name))
      {
        if (g_hash_table_contains (defined, g->input[i]->name))
          {
            g_set_error (error, GNN_ERROR, GNN_ERROR_FILE_FORMAT,
                         "ONNX file: the input '%s' is named twice", g->input[i]->name);
            return FALSE;
          }
        g_hash_table_add (defined, g_strdup (g->input[i]->name));
      }
  for (gsize i = 0; i < g->n_node; i++)
    if (!read_node (self, g->node[i], i, defined, error))
      return FALSE;
  {
    g_autoptr(GHashTable) none = g_hash_table_new (g_str_hash, g_str_equal);

    self->outputs = value_infos (g->output, g->n_output, none, error);
    if (self->outputs == NULL)
      return FALSE;
  }
  for (gsize i = 0; i < g->n_output; i++)
    if (g->output[i]->name == NULL || !g_hash_table_contains (defined, g->output[i]->name))
      {
        g_set_error (error, GNN_ERROR, GNN_ERROR_FILE_FORMAT,
                     "ONNX file: the output '%s' is not defined by the graph",
                     g->output[i]->name ? g->output[i]->name : "");
        return FALSE;
      }
  return TRUE;
}

#endif /* GNN_HAVE_ONNX */

/**
 * gnn_onnx_model_new_from_bytes:
 * @bytes: the contents of an ONNX file
 * @error: return location for a #GError
 *
 * Reads an ONNX model. Before the protobuf is parsed, the nesting of subgraphs and types is
 * bounded by %GNN_ONNX_MAX_NESTING; then every tensor's data must match its dims and type,
 * every value of the graph must be defined once before it is used, and the model must use
 * the default domain at opset 7 to %GNN_ONNX_MAX_OPSET. External data, sparse initializers
 * and subgraph attributes (If, Loop, Scan) are refused.
 *
 * Returns: (transfer full): the model, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnOnnxModel *
gnn_onnx_model_new_from_bytes (GBytes  *bytes,
                               GError **error)
{
  g_return_val_if_fail (bytes != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);
#ifndef GNN_HAVE_ONNX
  g_set_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED,
               "ONNX import: this build of gnn has no ONNX support: install protobuf-c-compiler, "
               "libprotobuf-c-dev and libonnx-dev and rebuild with -Donnx=enabled");
  return NULL;
#else
  {
    gsize size;
    const guint8 *data = g_bytes_get_data (bytes, &size);
    g_autoptr(GnnOnnxModel) self = NULL;
    Onnx__ModelProto *model;
    gboolean ok;

    if (size == 0)
      {
        g_set_error (error, GNN_ERROR, GNN_ERROR_FILE_FORMAT, "ONNX file: the file is empty");
        return NULL;
      }
    if (!check_nesting (data, data + size, M_MODEL, 0, error))
      return NULL;
    model = onnx__model_proto__unpack (NULL, size, data);
    if (model == NULL)
      {
        g_set_error (error, GNN_ERROR, GNN_ERROR_FILE_FORMAT,
                     "ONNX file: not an ONNX model (the protobuf does not parse as a ModelProto)");
        return NULL;
      }
    self = g_object_new (GNN_TYPE_ONNX_MODEL, NULL);
    ok = read_model (self, model, error);
    onnx__model_proto__free_unpacked (model, NULL);
    return ok ? g_steal_pointer (&self) : NULL;
  }
#endif
}

/**
 * gnn_onnx_model_new_from_file:
 * @path: an ONNX file
 * @error: return location for a #GError
 *
 * Reads the ONNX model in @path, as [ctor@Gnn.OnnxModel.new_from_bytes] does.
 *
 * Returns: (transfer full): the model, or %NULL with @error set (naming @path)
 *
 * Since: 0.1
 */
GnnOnnxModel *
gnn_onnx_model_new_from_file (const char  *path,
                              GError     **error)
{
  g_autofree char *contents = NULL;
  g_autoptr(GBytes) bytes = NULL;
  GnnOnnxModel *model;
  gsize length;

  g_return_val_if_fail (path != NULL, NULL);
  if (!g_file_get_contents (path, &contents, &length, error))
    return NULL;
  bytes = g_bytes_new_take (g_steal_pointer (&contents), length);
  model = gnn_onnx_model_new_from_bytes (bytes, error);
  if (model == NULL)
    g_prefix_error (error, "%s: ", path);
  return model;
}

/**
 * gnn_onnx_model_get_opset_version:
 * @self: a model
 *
 * The opset of the default domain the model imports.
 *
 * Returns: the opset of the default domain the model uses
 *
 * Since: 0.1
 */
gint64
gnn_onnx_model_get_opset_version (GnnOnnxModel *self)
{
  g_return_val_if_fail (GNN_IS_ONNX_MODEL (self), 0);
  return self->opset;
}

/**
 * gnn_onnx_model_get_producer_name:
 * @self: a model
 *
 * What wrote the file, as its producer_name says.
 *
 * Returns: (transfer none): what wrote the file (`pytorch`, `gnn`), or ""
 *
 * Since: 0.1
 */
const char *
gnn_onnx_model_get_producer_name (GnnOnnxModel *self)
{
  g_return_val_if_fail (GNN_IS_ONNX_MODEL (self), NULL);
  return self->producer;
}

/**
 * gnn_onnx_model_get_n_nodes:
 * @self: a model
 *
 * How many nodes the graph has.
 *
 * Returns: the number of nodes of the graph
 *
 * Since: 0.1
 */
guint
gnn_onnx_model_get_n_nodes (GnnOnnxModel *self)
{
  g_return_val_if_fail (GNN_IS_ONNX_MODEL (self), 0);
  return self->nodes->len;
}

/**
 * gnn_onnx_model_get_node:
 * @self: a model
 * @index: a node's index, in the graph's order (which is topological: checked at load)
 *
 * One node, as a `(sssasasa{sv})`: its name, op_type, domain, inputs (an empty string for an
 * optional input left out), outputs and attributes (ints as `x`, floats as `d`, lists as
 * `ax`, `ad` and `as`, strings as `s`; a tensor attribute as the empty maybe `@my nothing`,
 * read with [method@Gnn.OnnxModel.get_node_tensor]).
 *
 * Returns: (transfer none): the node
 *
 * Since: 0.1
 */
GVariant *
gnn_onnx_model_get_node (GnnOnnxModel *self,
                         guint         index)
{
  g_return_val_if_fail (GNN_IS_ONNX_MODEL (self), NULL);
  g_return_val_if_fail (index < self->nodes->len, NULL);
  return self->nodes->pdata[index];
}

/**
 * gnn_onnx_model_get_node_tensor:
 * @self: a model
 * @index: a node's index
 * @attribute: the name of one of its tensor attributes (Constant's `value`)
 *
 * A tensor attribute of a node, such as Constant's `value`.
 *
 * Returns: (transfer none) (nullable): the tensor, or %NULL when the node has no tensor
 *   attribute of that name
 *
 * Since: 0.1
 */
GnnTensor *
gnn_onnx_model_get_node_tensor (GnnOnnxModel *self,
                                guint         index,
                                const char   *attribute)
{
  g_return_val_if_fail (GNN_IS_ONNX_MODEL (self), NULL);
  g_return_val_if_fail (index < self->node_tensors->len, NULL);
  return g_hash_table_lookup (self->node_tensors->pdata[index], attribute);
}

/**
 * gnn_onnx_model_get_initializer_names:
 * @self: a model
 *
 * The names of the graph's initializers.
 *
 * Returns: (transfer full): the initializers' names, in the file's order
 *
 * Since: 0.1
 */
char **
gnn_onnx_model_get_initializer_names (GnnOnnxModel *self)
{
  char **names;

  g_return_val_if_fail (GNN_IS_ONNX_MODEL (self), NULL);
  names = g_new0 (char *, self->initializer_names->len + 1);
  for (guint i = 0; i < self->initializer_names->len; i++)
    names[i] = g_strdup (self->initializer_names->pdata[i]);
  return names;
}

/**
 * gnn_onnx_model_get_initializer:
 * @self: a model
 * @name: an initializer's name
 *
 * One initializer, as a tensor.
 *
 * Returns: (transfer none) (nullable): the initializer as a tensor, or %NULL when there is
 *   none of that name
 *
 * Since: 0.1
 */
GnnTensor *
gnn_onnx_model_get_initializer (GnnOnnxModel *self,
                                const char   *name)
{
  g_return_val_if_fail (GNN_IS_ONNX_MODEL (self), NULL);
  return g_hash_table_lookup (self->initializers, name);
}

/**
 * gnn_onnx_model_get_inputs:
 * @self: a model
 *
 * The graph's inputs that are not initializers, as an `a(sia(xs))`: name, ONNX element type,
 * and per dim its size, or -1 and the dim's name where it has none.
 *
 * Returns: (transfer none): the inputs
 *
 * Since: 0.1
 */
GVariant *
gnn_onnx_model_get_inputs (GnnOnnxModel *self)
{
  g_return_val_if_fail (GNN_IS_ONNX_MODEL (self), NULL);
  return self->inputs;
}

/**
 * gnn_onnx_model_get_outputs:
 * @self: a model
 *
 * The graph's outputs, as [method@Gnn.OnnxModel.get_inputs] gives the inputs.
 *
 * Returns: (transfer none): the outputs
 *
 * Since: 0.1
 */
GVariant *
gnn_onnx_model_get_outputs (GnnOnnxModel *self)
{
  g_return_val_if_fail (GNN_IS_ONNX_MODEL (self), NULL);
  return self->outputs;
}
