/* gv-graph.c: the Graph page's model and its layout
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The layout is a plain layered one: the nodes in a topological order (Kahn's, ties in the
 * file's order), each node's layer the longest path to it from a node without inputs, the
 * nodes of a layer ordered by the mean position of their inputs in the layers above (one
 * pass, top to bottom), each layer centred under the widest. A node without inputs moves down
 * to the layer above its first user.
 */
#include "gv-graph.h"

#include <glib/gi18n.h>
#include <string.h>

#define GAP_X   32.0
#define GAP_Y   40.0
#define MARGIN  24.0

struct _GvGraph
{
  GObject    parent_instance;
  char      *source;
  GPtrArray *nodes;     /* GvGraphNode* */
  guint      n_edges;
  guint      n_layers;
  gint64     n_params;  /* each tensor once, however many nodes take it */
  double     width, height;
};

G_DEFINE_FINAL_TYPE (GvGraph, gv_graph, G_TYPE_OBJECT)

static void
node_free (GvGraphNode *node)
{
  g_free (node->name);
  g_free (node->op);
  g_free (node->shape);
  g_ptr_array_unref (node->tensors);
  g_ptr_array_unref (node->values);
  g_array_unref (node->inputs);
  g_free (node);
}

static GvGraphNode *
add_node (GvGraph    *self,
          const char *name,
          const char *op)
{
  GvGraphNode *node = g_new0 (GvGraphNode, 1);

  node->name = g_strdup (name);
  node->op = g_strdup (op);
  node->tensors = g_ptr_array_new_with_free_func (g_free);
  node->values = g_ptr_array_new_with_free_func (g_free);
  node->inputs = g_array_new (FALSE, FALSE, sizeof (guint));
  g_ptr_array_add (self->nodes, node);
  return node;
}

static void
add_input (GvGraphNode *node,
           guint        input)
{
  for (guint i = 0; i < node->inputs->len; i++)
    if (g_array_index (node->inputs, guint, i) == input)
      return;
  g_array_append_val (node->inputs, input);
}

static char *
shape_text (const gint64 *shape,
            guint         n)
{
  GString *s = g_string_new ("[");

  for (guint i = 0; i < n; i++)
    g_string_append_printf (s, "%s%" G_GINT64_FORMAT, i ? ", " : "", shape[i]);
  g_string_append_c (s, ']');
  return g_string_free (s, FALSE);
}

static void
add_tensor (GvGraphNode *node,
            const char  *name,
            GnnTensor   *tensor)
{
  guint n;
  const gint64 *shape = gnn_tensor_get_shape (tensor, &n);
  g_autofree char *text = shape_text (shape, n);

  g_ptr_array_add (node->tensors, g_strdup_printf ("%s\t%s", name, text));
}

/* ---- layout ---------------------------------------------------------------------------- */

typedef struct { guint index; double key; } Slot;

static int
compare_slots (gconstpointer a,
               gconstpointer b)
{
  const Slot *x = a, *y = b;

  if (x->key != y->key)
    return x->key < y->key ? -1 : 1;
  return x->index < y->index ? -1 : x->index > y->index;
}

static void
layout (GvGraph *self)
{
  guint n = self->nodes->len;
  g_autofree guint *pending = g_new0 (guint, n);
  g_autofree guint *order = g_new0 (guint, n);
  g_autofree double *pos = g_new0 (double, n);
  g_autoptr(GPtrArray) users = g_ptr_array_new_with_free_func ((GDestroyNotify) g_array_unref);
  g_autoptr(GPtrArray) layers = g_ptr_array_new_with_free_func ((GDestroyNotify) g_array_unref);
  guint head = 0, tail = 0, widest = 0;

  self->n_edges = 0;
  for (guint i = 0; i < n; i++)
    g_ptr_array_add (users, g_array_new (FALSE, FALSE, sizeof (guint)));
  for (guint i = 0; i < n; i++)
    {
      GvGraphNode *node = self->nodes->pdata[i];

      pending[i] = node->inputs->len;
      self->n_edges += node->inputs->len;
      for (guint j = 0; j < node->inputs->len; j++)
        g_array_append_val (users->pdata[g_array_index (node->inputs, guint, j)], i);
      if (pending[i] == 0)
        order[tail++] = i;
    }
  /* Kahn's order; the layer of a node is settled once all its inputs are */
  while (head < tail)
    {
      guint v = order[head++];
      GArray *out = users->pdata[v];

      for (guint j = 0; j < out->len; j++)
        {
          guint u = g_array_index (out, guint, j);
          GvGraphNode *user = self->nodes->pdata[u];

          user->layer = MAX (user->layer, ((GvGraphNode *) self->nodes->pdata[v])->layer + 1);
          if (--pending[u] == 0)
            order[tail++] = u;
        }
    }
  /* a cycle (GnnOnnxModel refuses them) would leave nodes out: they go last, in file order */
  for (guint i = 0; i < n && tail < n; i++)
    if (pending[i] > 0)
      {
        pending[i] = 0;
        order[tail++] = i;
      }

  /* a node without inputs (an input, a constant, an Identity of an initializer) sits just
   * above its first user rather than in the top layer, so the top layer stays narrow */
  for (guint i = 0; i < n; i++)
    {
      GvGraphNode *node = self->nodes->pdata[i];
      GArray *out = users->pdata[i];
      guint lowest = G_MAXUINT;

      if (node->inputs->len > 0 || out->len == 0)
        continue;
      for (guint j = 0; j < out->len; j++)
        lowest = MIN (lowest, ((GvGraphNode *) self->nodes->pdata[g_array_index (out, guint, j)])->layer);
      node->layer = lowest - 1;
    }
  self->n_layers = 0;
  for (guint i = 0; i < n; i++)
    self->n_layers = MAX (self->n_layers, ((GvGraphNode *) self->nodes->pdata[i])->layer + 1);
  for (guint l = 0; l < self->n_layers; l++)
    g_ptr_array_add (layers, g_array_new (FALSE, FALSE, sizeof (Slot)));
  for (guint k = 0; k < n; k++)
    {
      GvGraphNode *node = self->nodes->pdata[order[k]];
      Slot slot = { order[k], 0 };

      g_array_append_val (layers->pdata[node->layer], slot);
    }
  for (guint l = 0; l < self->n_layers; l++)
    {
      GArray *layer = layers->pdata[l];

      for (guint j = 0; j < layer->len; j++)
        {
          Slot *s = &g_array_index (layer, Slot, j);
          GvGraphNode *node = self->nodes->pdata[s->index];
          double sum = 0;

          for (guint k = 0; k < node->inputs->len; k++)
            sum += pos[g_array_index (node->inputs, guint, k)];
          s->key = node->inputs->len ? sum / node->inputs->len : j;
        }
      g_array_sort (layer, compare_slots);
      for (guint j = 0; j < layer->len; j++)
        pos[g_array_index (layer, Slot, j).index] = j - (layer->len - 1) / 2.0;
      widest = MAX (widest, layer->len);
    }
  self->width = 2 * MARGIN + widest * GV_GRAPH_NODE_WIDTH + (widest ? widest - 1 : 0) * GAP_X;
  self->height = 2 * MARGIN + self->n_layers * GV_GRAPH_NODE_HEIGHT +
                 (self->n_layers ? self->n_layers - 1 : 0) * GAP_Y;
  for (guint i = 0; i < n; i++)
    {
      GvGraphNode *node = self->nodes->pdata[i];

      node->x = self->width / 2 + pos[i] * (GV_GRAPH_NODE_WIDTH + GAP_X) - GV_GRAPH_NODE_WIDTH / 2;
      node->y = MARGIN + node->layer * (GV_GRAPH_NODE_HEIGHT + GAP_Y);
    }
}

/* ---- sources --------------------------------------------------------------------------- */

/* ---- the values' shapes (ONNX) --------------------------------------------------------- */

/* A dimension: a size (>= 0), a dim_param's name (interned), or neither (-1, NULL: unknown). */
typedef struct { gint64 size; const char *param; } Dim;

/* A value's type: its dtype's name (static; NULL where unknown) and its dims (NULL where the
 * rank is unknown). */
typedef struct { const char *dtype; GArray *dims; } Value;

static void
value_free (Value *v)
{
  if (v->dims)
    g_array_unref (v->dims);
  g_free (v);
}

static GArray *
dims_new (void)
{
  return g_array_new (FALSE, FALSE, sizeof (Dim));
}

static void
dims_add (GArray     *dims,
          gint64      size,
          const char *param)
{
  Dim d = { size, param };

  g_array_append_val (dims, d);
}

#define DIM(a, i) (g_array_index ((a), Dim, (i)))

static gboolean
dim_known (const Dim *d)
{
  return d->size >= 0;
}

static gboolean
dim_equal (const Dim *a,
           const Dim *b)
{
  return (dim_known (a) && a->size == b->size) || (a->param && a->param == b->param);
}

static GArray *
dims_of_tensor (GnnTensor *t)
{
  guint n;
  const gint64 *shape = gnn_tensor_get_shape (t, &n);
  GArray *d = dims_new ();

  for (guint j = 0; j < n; j++)
    dims_add (d, shape[j], NULL);
  return d;
}

static void
put_value (GHashTable *values,
           const char *name,
           const char *dtype,
           GArray     *dims)   /* (transfer full) (nullable) */
{
  Value *v = g_new0 (Value, 1);

  v->dtype = dtype;
  v->dims = dims;
  g_hash_table_replace (values, g_strdup (name), v);
}

static GArray *
dims_from_variant (GVariant *variant)
{
  GArray *dims = dims_new ();
  GVariantIter iter;
  gint64 size;
  const char *name;

  g_variant_iter_init (&iter, variant);
  while (g_variant_iter_next (&iter, "(x&s)", &size, &name))
    dims_add (dims, size >= 0 ? size : -1, size < 0 && *name ? g_intern_string (name) : NULL);
  return dims;
}

static char *
dims_text (GArray *dims)
{
  GString *s = g_string_new ("[");

  for (guint i = 0; i < dims->len; i++)
    {
      const Dim *d = &DIM (dims, i);

      if (i)
        g_string_append (s, ", ");
      if (dim_known (d))
        g_string_append_printf (s, "%" G_GINT64_FORMAT, d->size);
      else
        g_string_append (s, d->param ? d->param : "?");
    }
  g_string_append_c (s, ']');
  return g_string_free (s, FALSE);
}

static const char *
elem_type_name (gint32 t)
{
  static const char *const names[] = {
    NULL, "float32", "uint8", "int8", "uint16", "int16", "int32", "int64", "string", "bool",
    "float16", "float64", "uint32", "uint64", "complex64", "complex128", "bfloat16",
  };

  return t > 0 && t < (gint32) G_N_ELEMENTS (names) ? names[t] : NULL;
}

/* The value_info of an ONNX file's graph, read from its protobuf wire form: GnnOnnxModel
 * (which has checked the file) gives the graph's inputs and outputs but not these. Only
 * ModelProto.graph(7) -> GraphProto.value_info(13) -> ValueInfoProto{name(1), type(2) ->
 * TypeProto.tensor_type(1) -> {elem_type(1), shape(2) -> dim(1) -> {dim_value(1),
 * dim_param(2)}}} is read; anything else is skipped, anything malformed ends the reading. */
typedef struct { const guint8 *p, *end; } Wire;

static gboolean
wire_varint (Wire    *w,
             guint64 *out)
{
  guint64 v = 0;

  for (guint shift = 0; shift < 64; shift += 7)
    {
      guint8 b;

      if (w->p >= w->end)
        return FALSE;
      b = *w->p++;
      v |= (guint64) (b & 0x7f) << shift;
      if ((b & 0x80) == 0)
        {
          *out = v;
          return TRUE;
        }
    }
  return FALSE;
}

/* the next field of @w: its number, and its varint (wire type 0) or its bytes (type 2) */
static gboolean
wire_next (Wire    *w,
           guint   *field,
           guint   *type,
           guint64 *varint,
           Wire    *bytes)
{
  guint64 tag, len;

  if (w->p >= w->end || !wire_varint (w, &tag))
    return FALSE;
  *field = (guint) (tag >> 3);
  *type = tag & 7;
  switch (*type)
    {
    case 0:
      return wire_varint (w, varint);
    case 1:
    case 5:
      len = *type == 1 ? 8 : 4;
      if ((guint64) (w->end - w->p) < len)
        return FALSE;
      w->p += len;
      return TRUE;
    case 2:
      if (!wire_varint (w, &len) || (guint64) (w->end - w->p) < len)
        return FALSE;
      bytes->p = w->p;
      bytes->end = w->p + len;
      w->p += len;
      return TRUE;
    default:
      return FALSE;
    }
}

static char *
wire_string (Wire *w)
{
  if (!g_utf8_validate ((const char *) w->p, w->end - w->p, NULL) ||
      memchr (w->p, 0, w->end - w->p) != NULL)
    return NULL;
  return g_strndup ((const char *) w->p, w->end - w->p);
}

static void
read_value_info (Wire       *vi,
                 GHashTable *values)
{
  g_autofree char *name = NULL;
  g_autoptr(GArray) dims = NULL;
  gint32 elem_type = 0;
  guint field, type;
  guint64 varint;
  Wire sub;

  while (wire_next (vi, &field, &type, &varint, &sub))
    if (field == 1 && type == 2)
      {
        g_free (name);
        name = wire_string (&sub);
      }
    else if (field == 2 && type == 2)
      {
        Wire tp = sub, tensor;

        while (wire_next (&tp, &field, &type, &varint, &tensor))
          {
            if (field != 1 || type != 2)
              continue;
            while (wire_next (&tensor, &field, &type, &varint, &sub))
              if (field == 1 && type == 0)
                elem_type = (gint32) varint;
              else if (field == 2 && type == 2)
                {
                  Wire shape = sub, dim;

                  g_clear_pointer (&dims, g_array_unref);
                  dims = dims_new ();
                  while (wire_next (&shape, &field, &type, &varint, &dim))
                    if (field == 1 && type == 2)
                      {
                        gint64 size = -1;
                        const char *param = NULL;
                        Wire s;

                        while (wire_next (&dim, &field, &type, &varint, &s))
                          if (field == 1 && type == 0 && (gint64) varint >= 0)
                            size = (gint64) varint;
                          else if (field == 2 && type == 2)
                            {
                              g_autofree char *text = wire_string (&s);

                              param = text && *text ? g_intern_string (text) : NULL;
                            }
                        dims_add (dims, size, size >= 0 ? NULL : param);
                      }
                }
          }
      }
  if (name && *name && dims)
    put_value (values, name, elem_type_name (elem_type), g_steal_pointer (&dims));
}

static void
read_value_infos (const char *path,
                  GHashTable *values)
{
  g_autoptr(GMappedFile) file = g_mapped_file_new (path, FALSE, NULL);
  Wire model, graph, vi;
  guint field, type;
  guint64 varint;

  if (file == NULL)
    return;
  model.p = (const guint8 *) g_mapped_file_get_contents (file);
  model.end = model.p + g_mapped_file_get_length (file);
  while (wire_next (&model, &field, &type, &varint, &graph))
    if (field == 7 && type == 2)
      while (wire_next (&graph, &field, &type, &varint, &vi))
        if (field == 13 && type == 2)
          read_value_info (&vi, values);
}

/* ---- shape inference, for the values a file gives no shape of ---- */

static gboolean
attr_int (GVariant   *attrs,
          const char *name,
          gint64     *out)
{
  return g_variant_lookup (attrs, name, "x", out);
}

/* an int list attribute of @n entries, or @fallback in each where absent */
static gboolean
attr_ints (GVariant   *attrs,
           const char *name,
           guint       n,
           gint64      fallback,
           gint64     *out)
{
  g_autoptr(GVariant) v = g_variant_lookup_value (attrs, name, G_VARIANT_TYPE ("ax"));
  gsize len = 0;
  const gint64 *items;

  if (v == NULL)
    {
      for (guint i = 0; i < n; i++)
        out[i] = fallback;
      return TRUE;
    }
  items = g_variant_get_fixed_array (v, &len, sizeof (gint64));
  if (len != n)
    return FALSE;
  memcpy (out, items, n * sizeof (gint64));
  return TRUE;
}

/* numpy's broadcast of two shapes; NULL where it cannot be told */
static GArray *
broadcast (GArray *a,
           GArray *b)
{
  guint n = MAX (a->len, b->len);
  GArray *out = dims_new ();

  for (guint i = 0; i < n; i++)
    {
      const Dim one = { 1, NULL };
      const Dim *x = i + a->len >= n ? &DIM (a, i + a->len - n) : &one;
      const Dim *y = i + b->len >= n ? &DIM (b, i + b->len - n) : &one;

      if (dim_equal (x, y) || (dim_known (y) && y->size == 1))
        g_array_append_val (out, *x);
      else if (dim_known (x) && x->size == 1)
        g_array_append_val (out, *y);
      else if (dim_known (x) && dim_known (y))
        {
          g_array_unref (out);
          return NULL;
        }
      else /* a size and a name or an unknown: the size where it is not 1 (else one is wrong) */
        dims_add (out, dim_known (x) ? x->size : dim_known (y) ? y->size : -1, NULL);
    }
  return out;
}

static const char *const unary_ops[] = {
  "Abs", "BatchNormalization", "Ceil", "Celu", "Clip", "Cos", "Dropout", "Elu", "Erf", "Exp",
  "Floor", "Gelu", "HardSigmoid", "HardSwish", "Identity", "InstanceNormalization",
  "LayerNormalization", "LeakyRelu", "Log", "LogSoftmax", "LpNormalization", "LRN", "Mish", "Neg",
  "PRelu", "Reciprocal", "Relu", "Round", "Selu", "Sigmoid", "Sign", "Sin", "Softmax", "Softplus",
  "Softsign", "Sqrt", "Tanh", "ThresholdedRelu", NULL,
};
static const char *const binary_ops[] = {
  "Add", "Sub", "Mul", "Div", "Pow", "Max", "Min", "Mod", NULL,
};
static const char *const compare_ops[] = {
  "Equal", "Less", "LessOrEqual", "Greater", "GreaterOrEqual", "And", "Or", "Xor", NULL,
};

/* the spatial sizes of a Conv's or a pool's output; FALSE where they cannot be told */
static gboolean
window_dims (GArray      *x,
             const gint64 *kernel,
             GVariant    *attrs,
             gboolean     ceil_mode,
             GArray      *out)
{
  guint n = x->len - 2;
  g_autofree gint64 *pads = g_new (gint64, 2 * n);
  g_autofree gint64 *strides = g_new (gint64, n);
  g_autofree gint64 *dilations = g_new (gint64, n);
  const char *auto_pad = "NOTSET";

  g_variant_lookup (attrs, "auto_pad", "&s", &auto_pad);
  if (!attr_ints (attrs, "pads", 2 * n, 0, pads) || !attr_ints (attrs, "strides", n, 1, strides) ||
      !attr_ints (attrs, "dilations", n, 1, dilations))
    return FALSE;
  for (guint i = 0; i < n; i++)
    {
      const Dim *d = &DIM (x, i + 2);
      gint64 span = dilations[i] * (kernel[i] - 1) + 1, size;

      if (!dim_known (d) || strides[i] <= 0 || dilations[i] <= 0 || kernel[i] <= 0 || pads[i] < 0 || pads[i + n] < 0)
        return FALSE;
      if (g_str_equal (auto_pad, "SAME_UPPER") || g_str_equal (auto_pad, "SAME_LOWER"))
        size = (d->size + strides[i] - 1) / strides[i];
      else if (g_str_equal (auto_pad, "VALID"))
        size = d->size < span ? -1 : (d->size - span) / strides[i] + 1;
      else if (g_str_equal (auto_pad, "NOTSET"))
        {
          gint64 room = d->size + pads[i] + pads[i + n] - span;

          size = room < 0 ? -1 : (ceil_mode ? (room + strides[i] - 1) / strides[i] : room / strides[i]) + 1;
          /* a last window that would start in the end padding: torch drops it, ONNX's text
           * does not say; either may be meant, so the size is not told */
          if (ceil_mode && size > 0 && (size - 1) * strides[i] >= d->size + pads[i])
            return FALSE;
        }
      else
        return FALSE;
      if (size < 0)
        return FALSE;
      dims_add (out, size, NULL);
    }
  return TRUE;
}

/* The shape and type of a node's first output from its inputs' (@ins, NULL entries where
 * unknown), or NULL: only what follows from the operator's definition. */
static GArray *
infer (const char  *op,
       GVariant    *attrs,
       Value      **ins,
       guint        n_ins,
       const char **dtype)
{
  GArray *x = n_ins > 0 && ins[0] ? ins[0]->dims : NULL;
  GArray *out;

  if (x == NULL)
    return NULL;
  *dtype = ins[0]->dtype;
  if (g_strv_contains (unary_ops, op))
    return g_array_ref (x);
  if (g_str_equal (op, "Cast"))
    {
      gint64 to = 0;

      *dtype = attr_int (attrs, "to", &to) ? elem_type_name ((gint32) to) : NULL;
      return g_array_ref (x);
    }
  if (g_strv_contains (binary_ops, op) || g_strv_contains (compare_ops, op))
    {
      if (n_ins != 2 || ins[1] == NULL || ins[1]->dims == NULL)
        return NULL;
      if (g_strv_contains (compare_ops, op))
        *dtype = "bool";
      return broadcast (x, ins[1]->dims);
    }
  if (g_str_equal (op, "GlobalAveragePool") || g_str_equal (op, "GlobalMaxPool"))
    {
      if (x->len < 3)
        return NULL;
      out = dims_new ();
      g_array_append_vals (out, x->data, 2);
      for (guint i = 2; i < x->len; i++)
        dims_add (out, 1, NULL);
      return out;
    }
  if (g_str_equal (op, "Flatten"))
    {
      gint64 axis = 1;
      Dim parts[2] = { { 1, NULL }, { 1, NULL } };
      guint counted[2] = { 0, 0 };

      attr_int (attrs, "axis", &axis);
      if (axis < 0)
        axis += x->len;
      if (axis < 0 || axis > (gint64) x->len)
        return NULL;
      /* each part the product of its dims: a named dim only where it is the one not 1 */
      for (guint i = 0; i < x->len; i++)
        {
          const Dim *d = &DIM (x, i);
          Dim *p = &parts[i >= axis];

          if (dim_known (d) && d->size == 1)
            continue;
          if (counted[i >= axis]++ > 0 && (!dim_known (d) || !dim_known (p)))
            return NULL;
          if (dim_known (d) && dim_known (p))
            {
              if (d->size > 0 && p->size > G_MAXINT64 / d->size)
                return NULL;
              p->size *= d->size;
            }
          else
            *p = *d;
        }
      out = dims_new ();
      g_array_append_vals (out, parts, 2);
      return out;
    }
  if (g_str_equal (op, "Conv") || g_str_equal (op, "MaxPool") || g_str_equal (op, "AveragePool") ||
      g_str_equal (op, "LpPool"))
    {
      gboolean conv = g_str_equal (op, "Conv");
      GArray *w = conv && n_ins > 1 && ins[1] ? ins[1]->dims : NULL;
      g_autofree gint64 *kernel = NULL;
      gint64 ceil_mode = 0;

      if (x->len < 3 || (conv && (w == NULL || w->len != x->len || !dim_known (&DIM (w, 0)))))
        return NULL;
      kernel = g_new (gint64, x->len - 2);
      if (g_variant_lookup (attrs, "kernel_shape", "@ax", NULL) || !conv)
        {
          if (!g_variant_lookup (attrs, "kernel_shape", "@ax", NULL) ||
              !attr_ints (attrs, "kernel_shape", x->len - 2, -1, kernel))
            return NULL;
        }
      else
        for (guint i = 2; i < x->len; i++)
          {
            if (!dim_known (&DIM (w, i)))
              return NULL;
            kernel[i - 2] = DIM (w, i).size;
          }
      attr_int (attrs, "ceil_mode", &ceil_mode);
      out = dims_new ();
      g_array_append_val (out, DIM (x, 0));
      if (conv)
        g_array_append_val (out, DIM (w, 0));
      else
        g_array_append_val (out, DIM (x, 1));
      if (!window_dims (x, kernel, attrs, ceil_mode != 0, out))
        g_clear_pointer (&out, g_array_unref);
      return out;
    }
  if (g_str_equal (op, "Transpose"))
    {
      g_autofree gint64 *perm = g_new (gint64, x->len + 1);

      if (!attr_ints (attrs, "perm", x->len, -1, perm))
        return NULL;
      if (!g_variant_lookup (attrs, "perm", "@ax", NULL))
        for (guint i = 0; i < x->len; i++)
          perm[i] = x->len - 1 - i;
      out = dims_new ();
      for (guint i = 0; i < x->len; i++)
        {
          if (perm[i] < 0 || perm[i] >= (gint64) x->len)
            {
              g_array_unref (out);
              return NULL;
            }
          g_array_append_val (out, DIM (x, perm[i]));
        }
      return out;
    }
  if (g_str_equal (op, "Gemm"))
    {
      GArray *b = n_ins > 1 && ins[1] ? ins[1]->dims : NULL;
      gint64 ta = 0, tb = 0;

      attr_int (attrs, "transA", &ta);
      attr_int (attrs, "transB", &tb);
      if (x->len != 2 || b == NULL || b->len != 2)
        return NULL;
      out = dims_new ();
      g_array_append_val (out, DIM (x, ta ? 1 : 0));
      g_array_append_val (out, DIM (b, tb ? 0 : 1));
      return out;
    }
  if (g_str_equal (op, "MatMul"))
    {
      GArray *b = n_ins > 1 && ins[1] ? ins[1]->dims : NULL;

      /* the common forms only: a matrix (or a batch of them) by a matrix */
      if (b == NULL || b->len != 2 || x->len < 2)
        return NULL;
      out = dims_new ();
      g_array_append_vals (out, x->data, x->len - 1);
      g_array_append_val (out, DIM (b, 1));
      return out;
    }
  return NULL;
}

static char *
value_text (GHashTable *values,
            const char *direction,
            const char *name)
{
  Value *v = g_hash_table_lookup (values, name);
  g_autofree char *shape = v && v->dims ? dims_text (v->dims) : NULL;
  const char *dtype = v ? v->dtype : NULL;

  return g_strdup_printf ("%s\t%s\t%s\t%s", direction, name, shape ? shape : "", dtype ? dtype : "");
}

GvGraph *
gv_graph_new_from_onnx_file (const char  *path,
                             GError     **error)
{
  g_autoptr(GnnOnnxModel) model = gnn_onnx_model_new_from_file (path, error);
  g_autoptr(GHashTable) producers = NULL;   /* value name -> node index + 1 */
  g_autoptr(GHashTable) counted = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GHashTable) values = NULL;      /* value name -> Value* */
  g_auto(GStrv) init_names = NULL;
  GvGraph *self;
  GVariantIter iter;
  const char *name;
  gint32 elem_type;
  GVariant *dims;
  guint first_node;

  if (model == NULL)
    return NULL;
  self = g_object_new (GV_TYPE_GRAPH, NULL);
  self->source = g_path_get_basename (path);
  producers = g_hash_table_new (g_str_hash, g_str_equal);

  /* the shapes the file gives: value_info, the initializers, the graph's inputs and outputs */
  values = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) value_free);
  read_value_infos (path, values);
  init_names = gnn_onnx_model_get_initializer_names (model);
  for (guint i = 0; init_names[i]; i++)
    {
      GnnTensor *t = gnn_onnx_model_get_initializer (model, init_names[i]);

      put_value (values, init_names[i], gnn_dtype_get_name (gnn_tensor_get_dtype (t)), dims_of_tensor (t));
    }
  g_variant_iter_init (&iter, gnn_onnx_model_get_outputs (model));
  while (g_variant_iter_next (&iter, "(&si@a(xs))", &name, &elem_type, &dims))
    {
      /* no dims may be a scalar or no shape at all: then value_info's or the inferred one */
      if (g_variant_n_children (dims) > 0)
        put_value (values, name, elem_type_name (elem_type), dims_from_variant (dims));
      g_variant_unref (dims);
    }

  g_variant_iter_init (&iter, gnn_onnx_model_get_inputs (model));
  while (g_variant_iter_next (&iter, "(&si@a(xs))", &name, &elem_type, &dims))
    {
      GvGraphNode *node = add_node (self, name, "Input");

      put_value (values, name, elem_type_name (elem_type), dims_from_variant (dims));
      g_ptr_array_add (node->values, value_text (values, "output", name));
      node->shape = dims_text (((Value *) g_hash_table_lookup (values, name))->dims);
      g_hash_table_insert (producers, node->name, GUINT_TO_POINTER (self->nodes->len));
      g_variant_unref (dims);
    }
  /* the producers first, so that an edge does not depend on the nodes' order */
  first_node = self->nodes->len;
  for (guint i = 0; i < gnn_onnx_model_get_n_nodes (model); i++)
    {
      GVariant *v = gnn_onnx_model_get_node (model, i);
      const char *node_name, *op_type, *domain;
      g_autofree const char **outputs = NULL;
      g_autofree char *fallback = NULL;

      g_variant_get_child (v, 0, "&s", &node_name);
      g_variant_get_child (v, 1, "&s", &op_type);
      g_variant_get_child (v, 2, "&s", &domain);
      g_variant_get_child (v, 4, "^a&s", &outputs);
      if (*node_name == '\0')
        node_name = fallback = g_strdup_printf ("%s_%u", op_type, i);
      add_node (self, node_name, op_type);
      for (guint j = 0; outputs[j]; j++)
        if (*outputs[j] && !g_hash_table_contains (producers, outputs[j]))
          g_hash_table_insert (producers, (gpointer) outputs[j],
                               GUINT_TO_POINTER (self->nodes->len));
    }
  for (guint i = 0; i < gnn_onnx_model_get_n_nodes (model); i++)
    {
      GVariant *v = gnn_onnx_model_get_node (model, i);
      GvGraphNode *node = self->nodes->pdata[first_node + i];
      g_autofree const char **inputs = NULL;
      g_autofree const char **outputs = NULL;
      g_autoptr(GVariant) attrs = g_variant_get_child_value (v, 5);
      g_autofree Value **ins = NULL;
      const char *op_type, *domain;
      guint n_ins;

      g_variant_get_child (v, 1, "&s", &op_type);
      g_variant_get_child (v, 2, "&s", &domain);
      g_variant_get_child (v, 3, "^a&s", &inputs);
      g_variant_get_child (v, 4, "^a&s", &outputs);
      n_ins = g_strv_length ((char **) inputs);
      ins = g_new0 (Value *, n_ins + 1);
      for (guint j = 0; inputs[j]; j++)
        {
          GnnTensor *init = *inputs[j] ? gnn_onnx_model_get_initializer (model, inputs[j]) : NULL;
          guint producer = GPOINTER_TO_UINT (g_hash_table_lookup (producers, inputs[j]));

          ins[j] = *inputs[j] ? g_hash_table_lookup (values, inputs[j]) : NULL;
          if (init != NULL)
            {
              add_tensor (node, inputs[j], init);
              node->n_params += gnn_tensor_get_numel (init);
              if (g_hash_table_add (counted, (gpointer) inputs[j]))
                self->n_params += gnn_tensor_get_numel (init);
            }
          else if (*inputs[j])
            {
              g_ptr_array_add (node->values, value_text (values, "input", inputs[j]));
              if (producer > 0)
                add_input (node, producer - 1);
            }
        }
      /* a Constant's value is its tensor too */
      if (gnn_onnx_model_get_node_tensor (model, i, "value") != NULL)
        {
          GnnTensor *t = gnn_onnx_model_get_node_tensor (model, i, "value");

          add_tensor (node, "value", t);
          if (g_str_equal (op_type, "Constant") && outputs[0] && *outputs[0] &&
              !g_hash_table_contains (values, outputs[0]))
            put_value (values, outputs[0], gnn_dtype_get_name (gnn_tensor_get_dtype (t)), dims_of_tensor (t));
        }
      /* the first output's shape, where the file does not say it, from its inputs' (the
       * default domain's operators only) */
      if (outputs[0] && *outputs[0] && !g_hash_table_contains (values, outputs[0]) &&
          (*domain == '\0' || g_str_equal (domain, "ai.onnx")))
        {
          const char *dtype = NULL;
          GArray *out = infer (op_type, attrs, ins, n_ins, &dtype);

          if (out)
            put_value (values, outputs[0], dtype, out);
        }
      for (guint j = 0; outputs[j]; j++)
        if (*outputs[j])
          {
            Value *known = g_hash_table_lookup (values, outputs[j]);

            g_ptr_array_add (node->values, value_text (values, "output", outputs[j]));
            if (j == 0 && known && known->dims)
              node->shape = dims_text (known->dims);
          }
    }
  g_variant_iter_init (&iter, gnn_onnx_model_get_outputs (model));
  while (g_variant_iter_next (&iter, "(&si@a(xs))", &name, &elem_type, &dims))
    {
      GvGraphNode *node = add_node (self, name, "Output");
      guint producer = GPOINTER_TO_UINT (g_hash_table_lookup (producers, name));
      Value *known = g_hash_table_lookup (values, name);

      if (known && known->dims)
        node->shape = dims_text (known->dims);
      g_ptr_array_add (node->values, value_text (values, "input", name));
      if (producer > 0)
        add_input (node, producer - 1);
      g_variant_unref (dims);
    }
  layout (self);
  return self;
}

GvGraph *
gv_graph_new_from_module (GnnModule  *model,
                          const char *label)
{
  GvGraph *self = g_object_new (GV_TYPE_GRAPH, NULL);
  g_auto(GStrv) names = NULL;
  g_autoptr(GPtrArray) modules = gnn_module_named_modules (model, "", TRUE, &names);
  guint prev;

  self->source = g_strdup (label);
  add_node (self, "input", "Input");
  prev = 0;
  for (guint i = 0; i < modules->len; i++)
    {
      GnnModule *m = modules->pdata[i];
      g_autoptr(GPtrArray) children = gnn_module_children (m);
      g_auto(GStrv) pnames = NULL, bnames = NULL;
      g_autoptr(GPtrArray) params = NULL, buffers = NULL;
      GvGraphNode *node;

      if (children->len > 0)
        continue;
      node = add_node (self, *names[i] ? names[i] : "(model)", gnn_module_get_name (m));
      params = gnn_module_named_parameters (m, names[i], FALSE, TRUE, &pnames);
      buffers = gnn_module_named_buffers (m, names[i], FALSE, TRUE, &bnames);
      for (guint j = 0; j < params->len; j++)
        {
          add_tensor (node, pnames[j], params->pdata[j]);
          node->n_params += gnn_tensor_get_numel (params->pdata[j]);
        }
      for (guint j = 0; j < buffers->len; j++)
        if (buffers->pdata[j] != NULL)
          add_tensor (node, bnames[j], buffers->pdata[j]);
      add_input (node, prev);
      prev = self->nodes->len - 1;
      self->n_params += node->n_params;
    }
  add_input (add_node (self, "output", "Output"), prev);
  layout (self);
  return self;
}

/* ---- access ---------------------------------------------------------------------------- */

const char *
gv_graph_get_source (GvGraph *self)
{
  return self->source;
}

guint
gv_graph_get_n_nodes (GvGraph *self)
{
  return self->nodes->len;
}

GvGraphNode *
gv_graph_get_node (GvGraph *self,
                   guint    index)
{
  g_return_val_if_fail (index < self->nodes->len, NULL);
  return self->nodes->pdata[index];
}

guint
gv_graph_get_n_edges (GvGraph *self)
{
  return self->n_edges;
}

guint
gv_graph_get_n_layers (GvGraph *self)
{
  return self->n_layers;
}

gint64
gv_graph_get_n_params (GvGraph *self)
{
  return self->n_params;
}

void
gv_graph_get_size (GvGraph *self,
                   double  *width,
                   double  *height)
{
  *width = self->width;
  *height = self->height;
}

int
gv_graph_node_at (GvGraph *self,
                  double   x,
                  double   y)
{
  for (guint i = 0; i < self->nodes->len; i++)
    {
      GvGraphNode *node = self->nodes->pdata[i];

      if (x >= node->x && x < node->x + GV_GRAPH_NODE_WIDTH && y >= node->y && y < node->y + GV_GRAPH_NODE_HEIGHT)
        return (int) i;
    }
  return -1;
}

int
gv_graph_find_node (GvGraph    *self,
                    const char *name)
{
  for (guint i = 0; i < self->nodes->len; i++)
    if (g_strcmp0 (((GvGraphNode *) self->nodes->pdata[i])->name, name) == 0)
      return (int) i;
  return -1;
}

static void
gv_graph_finalize (GObject *object)
{
  GvGraph *self = GV_GRAPH (object);

  g_free (self->source);
  g_ptr_array_unref (self->nodes);
  G_OBJECT_CLASS (gv_graph_parent_class)->finalize (object);
}

static void
gv_graph_class_init (GvGraphClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = gv_graph_finalize;
}

static void
gv_graph_init (GvGraph *self)
{
  self->nodes = g_ptr_array_new_with_free_func ((GDestroyNotify) node_free);
}
