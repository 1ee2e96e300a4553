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

static char *
value_shape (GVariant *dims)
{
  GString *s = g_string_new ("[");
  GVariantIter iter;
  gint64 size;
  const char *name;
  gboolean first = TRUE;

  g_variant_iter_init (&iter, dims);
  while (g_variant_iter_next (&iter, "(x&s)", &size, &name))
    {
      if (!first)
        g_string_append (s, ", ");
      first = FALSE;
      if (size >= 0)
        g_string_append_printf (s, "%" G_GINT64_FORMAT, size);
      else
        g_string_append (s, *name ? name : "?");
    }
  g_string_append_c (s, ']');
  return g_string_free (s, FALSE);
}

GvGraph *
gv_graph_new_from_onnx_file (const char  *path,
                             GError     **error)
{
  g_autoptr(GnnOnnxModel) model = gnn_onnx_model_new_from_file (path, error);
  g_autoptr(GHashTable) producers = NULL;   /* value name -> node index + 1 */
  g_autoptr(GHashTable) counted = g_hash_table_new (g_str_hash, g_str_equal);
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

  g_variant_iter_init (&iter, gnn_onnx_model_get_inputs (model));
  while (g_variant_iter_next (&iter, "(&si@a(xs))", &name, &elem_type, &dims))
    {
      GvGraphNode *node = add_node (self, name, "Input");

      node->shape = value_shape (dims);
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

      g_variant_get_child (v, 3, "^a&s", &inputs);
      for (guint j = 0; inputs[j]; j++)
        {
          GnnTensor *init = *inputs[j] ? gnn_onnx_model_get_initializer (model, inputs[j]) : NULL;
          guint producer = GPOINTER_TO_UINT (g_hash_table_lookup (producers, inputs[j]));

          if (init != NULL)
            {
              add_tensor (node, inputs[j], init);
              node->n_params += gnn_tensor_get_numel (init);
              if (g_hash_table_add (counted, (gpointer) inputs[j]))
                self->n_params += gnn_tensor_get_numel (init);
            }
          else if (producer > 0)
            add_input (node, producer - 1);
        }
      /* a Constant's value is its tensor too */
      if (gnn_onnx_model_get_node_tensor (model, i, "value") != NULL)
        {
          GnnTensor *t = gnn_onnx_model_get_node_tensor (model, i, "value");

          add_tensor (node, "value", t);
        }
    }
  g_variant_iter_init (&iter, gnn_onnx_model_get_outputs (model));
  while (g_variant_iter_next (&iter, "(&si@a(xs))", &name, &elem_type, &dims))
    {
      GvGraphNode *node = add_node (self, name, "Output");
      guint producer = GPOINTER_TO_UINT (g_hash_table_lookup (producers, name));

      node->shape = value_shape (dims);
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
