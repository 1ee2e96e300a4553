/* gnn-graph.c: GnnGraph and GnnGraphNode, torch.fx's Graph and Node
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <string.h>

#include "core/gnn-error.h"
#include "gnn-enum-types.h"
#include "gnn-graph.h"

/**
 * GnnGraphNode:
 *
 * One operation of a [class@Gnn.Graph] (torch.fx's `Node`): what it does ([enum@Gnn.GraphOp]),
 * its unique name, its target (an input name, a dotted path, a function or method name), its
 * arguments, and the nodes that use its value (`users`).
 *
 * The arguments are a [class@Gnn.Args]: positional values and keyword values. A value that
 * holds a [class@Gnn.GraphNode] stands for that node's result; one that holds a
 * [class@Gnn.Args] is a nested tuple or list; any other value is a constant.
 *
 * Since: 0.1
 */
struct _GnnGraphNode
{
  GObject parent_instance;
  GnnGraph *graph;      /* not owned; NULL once erased */
  GnnGraphOp op;
  char *name;
  char *target;
  GnnArgs *args;
  GPtrArray *users;     /* GnnGraphNode*, not owned, in the order of first use */
  gint64 *shape;        /* the value's shape and dtype from shape propagation, or NULL */
  guint n_dims;
  GnnDtype dtype;
};

/**
 * GnnGraph:
 *
 * A module's computation as a list of [class@Gnn.GraphNode]s in execution order
 * (torch.fx's `Graph`): placeholders for the inputs, get_attr for parameters and buffers,
 * call_function, call_method and call_module for the calls, and one output node.
 *
 * Node names are made as torch.fx makes them: from the target (`linear` for a call of
 * submodule `linear`, `layer1_0_conv` for `layer1.0.conv`, `add` for a function `add`), made
 * unique with a `_1`, `_2` ... suffix, and never a Python keyword or builtin name
 * (a placeholder `input` is named `input_1`), so that the names read as torch's do.
 *
 * Since: 0.1
 */
struct _GnnGraph
{
  GObject parent_instance;
  GPtrArray *nodes;           /* GnnGraphNode*, owned, in order */
  GHashTable *used_names;     /* char* -> NULL */
  GnnGraphNode *insert_before;  /* not owned; NULL: append */
};

G_DEFINE_FINAL_TYPE (GnnGraphNode, gnn_graph_node, G_TYPE_OBJECT)
G_DEFINE_FINAL_TYPE (GnnGraph, gnn_graph, G_TYPE_OBJECT)

/* Python's keywords and builtins, and the names torch.fx's generated code binds itself:
 * a node is never named one of these */
static const char * const reserved_names[] = {
  "ArithmeticError", "AssertionError", "AttributeError", "BaseException", "BaseExceptionGroup",
  "BlockingIOError", "BrokenPipeError", "BufferError", "BytesWarning", "ChildProcessError",
  "ConnectionAbortedError", "ConnectionError", "ConnectionRefusedError", "ConnectionResetError",
  "DeprecationWarning", "EOFError", "Ellipsis", "EncodingWarning", "EnvironmentError",
  "Exception", "ExceptionGroup", "False", "FileExistsError", "FileNotFoundError",
  "FloatingPointError", "FutureWarning", "GeneratorExit", "IOError", "ImportError",
  "ImportWarning", "IndentationError", "IndexError", "InterruptedError", "IsADirectoryError",
  "KeyError", "KeyboardInterrupt", "LookupError", "MemoryError", "ModuleNotFoundError",
  "NameError", "None", "NoneType", "NotADirectoryError", "NotImplemented", "NotImplementedError",
  "OSError", "OverflowError", "PendingDeprecationWarning", "PermissionError",
  "ProcessLookupError", "RecursionError", "ReferenceError", "ResourceWarning", "RuntimeError",
  "RuntimeWarning", "StopAsyncIteration", "StopIteration", "SyntaxError", "SyntaxWarning",
  "SystemError", "SystemExit", "TabError", "TimeoutError", "True", "TypeError",
  "UnboundLocalError", "UnicodeDecodeError", "UnicodeEncodeError", "UnicodeError",
  "UnicodeTranslateError", "UnicodeWarning", "UserWarning", "ValueError", "Warning",
  "ZeroDivisionError", "abs", "aiter", "all", "and", "anext", "any", "as", "ascii", "assert",
  "async", "await", "bin", "bool", "break", "breakpoint", "bytearray", "bytes", "callable",
  "chr", "class", "classmethod", "compile", "complex", "continue", "copyright", "credits", "def",
  "del", "delattr", "device", "dict", "dir", "divmod", "elif", "else", "enumerate", "eval",
  "except", "exec", "exit", "filter", "finally", "float", "for", "format", "from", "frozenset",
  "fx_pytree", "getattr", "global", "globals", "hasattr", "hash", "help", "hex", "id", "if",
  "import", "in", "inf", "input", "int", "is", "isinstance", "issubclass", "iter", "lambda",
  "len", "license", "list", "locals", "map", "max", "memoryview", "min", "nan", "next",
  "nonlocal", "not", "object", "oct", "open", "or", "ord", "pass", "pow", "print", "property",
  "pytree", "quit", "raise", "range", "repr", "return", "reversed", "round", "set", "setattr",
  "slice", "sorted", "staticmethod", "str", "sum", "super", "torch", "try", "tuple", "type",
  "vars", "while", "with", "yield", "zip",
};

typedef void (*InputFunc) (GnnGraphNode *input, gpointer data);

static void
foreach_input (GnnArgs  *args,
               InputFunc func,
               gpointer  data)
{
  g_auto(GStrv) names = NULL;
  guint n;

  if (args == NULL)
    return;
  n = gnn_args_get_n_values (args);
  names = gnn_args_get_kwarg_names (args);
  for (guint i = 0; i < n + g_strv_length (names); i++)
    {
      const GValue *v = i < n ? gnn_args_get_value (args, i) : gnn_args_get_kwarg (args, names[i - n]);

      if (G_VALUE_HOLDS (v, GNN_TYPE_GRAPH_NODE) && g_value_get_object (v) != NULL)
        func (g_value_get_object (v), data);
      else if (G_VALUE_HOLDS (v, GNN_TYPE_ARGS) && g_value_get_object (v) != NULL)
        foreach_input (g_value_get_object (v), func, data);
    }
}

static void
add_user (GnnGraphNode *input,
          gpointer      data)
{
  if (!g_ptr_array_find (input->users, data, NULL))
    g_ptr_array_add (input->users, data);
}

static void
remove_user (GnnGraphNode *input,
             gpointer      data)
{
  g_ptr_array_remove (input->users, data);
}

typedef struct {
  GnnGraph *graph;
  GnnGraphNode *self;     /* the node whose arguments these are, or NULL */
  GnnGraphNode *bad;
  gboolean later;         /* bad is in the graph but not before self */
} CheckData;

static void
check_input (GnnGraphNode *input,
             gpointer      data)
{
  CheckData *c = data;
  guint at, self_at;

  if (c->bad != NULL)
    return;
  if (input->graph != c->graph || !g_ptr_array_find (c->graph->nodes, input, &at))
    c->bad = input;
  else if (c->self != NULL && g_ptr_array_find (c->graph->nodes, c->self, &self_at) && at >= self_at)
    {
      c->bad = input;
      c->later = TRUE;
    }
}

static gboolean
check_args (GnnGraph     *graph,
            GnnGraphNode *self,
            GnnArgs      *args,
            GError      **error)
{
  CheckData c = { graph, self, NULL, FALSE };

  foreach_input (args, check_input, &c);
  if (c.bad == NULL)
    return TRUE;
  if (c.later)
    g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                 "node '%s' uses node '%s', which comes after it in the graph (expected an "
                 "earlier node)", self->name, c.bad->name);
  else
    g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                 "argument node '%s' is not a node of this graph (expected a node of the graph "
                 "it is used in)", c.bad->name);
  return FALSE;
}

static void
gnn_graph_node_finalize (GObject *object)
{
  GnnGraphNode *self = GNN_GRAPH_NODE (object);

  g_free (self->name);
  g_free (self->target);
  g_clear_object (&self->args);
  g_ptr_array_unref (self->users);
  g_free (self->shape);
  G_OBJECT_CLASS (gnn_graph_node_parent_class)->finalize (object);
}

static void
gnn_graph_node_class_init (GnnGraphNodeClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = gnn_graph_node_finalize;
}

static void
gnn_graph_node_init (GnnGraphNode *self)
{
  self->users = g_ptr_array_new ();
}

/**
 * gnn_graph_node_set_tensor_meta:
 * @self: a node
 * @shape: (array length=n_dims) (nullable): the shape of the tensor the node's value is
 * @n_dims: the number of dimensions (0 for a 0-d tensor)
 * @dtype: its dtype
 *
 * Records what shape propagation found the node's value to be (torch.fx's
 * `node.meta['tensor_meta']`, which `ShapeProp` also sets here), for exporters that need
 * shapes, such as [func@Gnn.onnx_export].
 *
 * Since: 0.1
 */
void
gnn_graph_node_set_tensor_meta (GnnGraphNode *self,
                                const gint64 *shape,
                                guint         n_dims,
                                GnnDtype      dtype)
{
  g_return_if_fail (GNN_IS_GRAPH_NODE (self));
  g_return_if_fail (shape != NULL || n_dims == 0);
  g_free (self->shape);
  self->shape = g_new0 (gint64, MAX (n_dims, 1));
  if (n_dims > 0)
    memcpy (self->shape, shape, n_dims * sizeof (gint64));
  self->n_dims = n_dims;
  self->dtype = dtype;
}

/**
 * gnn_graph_node_get_tensor_meta:
 * @self: a node
 * @n_dims: (out) (optional): where to put the number of dimensions
 * @dtype: (out) (optional): where to put the dtype
 *
 * What [method@Gnn.GraphNode.set_tensor_meta] recorded.
 *
 * Returns: (array length=n_dims) (transfer none) (nullable): the shape, or %NULL when no
 *   tensor meta was recorded
 *
 * Since: 0.1
 */
const gint64 *
gnn_graph_node_get_tensor_meta (GnnGraphNode *self,
                                guint        *n_dims,
                                GnnDtype     *dtype)
{
  g_return_val_if_fail (GNN_IS_GRAPH_NODE (self), NULL);
  if (n_dims)
    *n_dims = self->shape ? self->n_dims : 0;
  if (dtype)
    *dtype = self->shape ? self->dtype : GNN_DTYPE_FLOAT32;
  return self->shape;
}

/**
 * gnn_graph_node_get_op:
 * @self: a node
 *
 * Gives what @self does.
 *
 * Returns: what the node does (`node.op`)
 *
 * Since: 0.1
 */
GnnGraphOp
gnn_graph_node_get_op (GnnGraphNode *self)
{
  g_return_val_if_fail (GNN_IS_GRAPH_NODE (self), GNN_GRAPH_OP_PLACEHOLDER);
  return self->op;
}

/**
 * gnn_graph_node_get_op_name:
 * @self: a node
 *
 * Gives what @self does, as a string.
 *
 * Returns: (transfer none): `node.op` as torch.fx spells it: `"placeholder"`, `"get_attr"`,
 *   `"call_function"`, `"call_method"`, `"call_module"` or `"output"`
 *
 * Since: 0.1
 */
const char *
gnn_graph_node_get_op_name (GnnGraphNode *self)
{
  GEnumClass *klass;
  const char *nick;

  g_return_val_if_fail (GNN_IS_GRAPH_NODE (self), NULL);
  klass = g_type_class_ref (GNN_TYPE_GRAPH_OP);
  nick = g_enum_get_value (klass, self->op)->value_nick;
  g_type_class_unref (klass);   /* the class of a static enum type stays */
  return nick;
}

/**
 * gnn_graph_node_get_name:
 * @self: a node
 *
 * Gives the name of @self.
 *
 * Returns: (transfer none): the node's name, unique in its graph (`node.name`)
 *
 * Since: 0.1
 */
const char *
gnn_graph_node_get_name (GnnGraphNode *self)
{
  g_return_val_if_fail (GNN_IS_GRAPH_NODE (self), NULL);
  return self->name;
}

/**
 * gnn_graph_node_get_target:
 * @self: a node
 *
 * Gives the target of @self.
 *
 * Returns: (transfer none): the node's target (`node.target`): an input's name, a dotted
 *   path, a function's or a method's name
 *
 * Since: 0.1
 */
const char *
gnn_graph_node_get_target (GnnGraphNode *self)
{
  g_return_val_if_fail (GNN_IS_GRAPH_NODE (self), NULL);
  return self->target;
}

/**
 * gnn_graph_node_get_args:
 * @self: a node
 *
 * The node's positional arguments (`node.args`) and keyword arguments (`node.kwargs`). Change
 * them with [method@Gnn.GraphNode.set_args], which keeps the users of the nodes up to date.
 *
 * Returns: (transfer none): the arguments
 *
 * Since: 0.1
 */
GnnArgs *
gnn_graph_node_get_args (GnnGraphNode *self)
{
  g_return_val_if_fail (GNN_IS_GRAPH_NODE (self), NULL);
  return self->args;
}

/**
 * gnn_graph_node_set_args:
 * @self: a node of a graph
 * @args: the new arguments (copied)
 * @error: return location for a #GError
 *
 * Replaces the node's arguments, as assigning `node.args` / `node.kwargs` does. The nodes
 * @args names must be nodes of the same graph that come before @self.
 *
 * Returns: %TRUE, or %FALSE with @error set when @args names a node of another graph, an
 *   erased node or a node that comes later
 *
 * Since: 0.1
 */
gboolean
gnn_graph_node_set_args (GnnGraphNode *self,
                         GnnArgs      *args,
                         GError      **error)
{
  g_return_val_if_fail (GNN_IS_GRAPH_NODE (self), FALSE);
  g_return_val_if_fail (GNN_IS_ARGS (args), FALSE);

  if (self->graph == NULL)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "node '%s' was erased from its graph", self->name);
      return FALSE;
    }
  if (!check_args (self->graph, self, args, error))
    return FALSE;
  foreach_input (self->args, remove_user, self);
  g_clear_object (&self->args);
  self->args = gnn_args_copy (args);
  foreach_input (self->args, add_user, self);
  return TRUE;
}

/**
 * gnn_graph_node_get_users:
 * @self: a node
 *
 * Lists the nodes that use @self.
 *
 * Returns: (transfer container) (element-type Gnn.GraphNode): the nodes whose arguments use
 *   @self, in the order they started to (`node.users`)
 *
 * Since: 0.1
 */
GPtrArray *
gnn_graph_node_get_users (GnnGraphNode *self)
{
  GPtrArray *users;

  g_return_val_if_fail (GNN_IS_GRAPH_NODE (self), NULL);
  users = g_ptr_array_new_with_free_func (g_object_unref);
  for (guint i = 0; i < self->users->len; i++)
    g_ptr_array_add (users, g_object_ref (self->users->pdata[i]));
  return users;
}

/**
 * gnn_graph_node_get_n_users:
 * @self: a node
 *
 * Counts the nodes that use @self.
 *
 * Returns: how many nodes use @self (`len (node.users)`)
 *
 * Since: 0.1
 */
guint
gnn_graph_node_get_n_users (GnnGraphNode *self)
{
  g_return_val_if_fail (GNN_IS_GRAPH_NODE (self), 0);
  return self->users->len;
}

/**
 * gnn_graph_node_get_graph:
 * @self: a node
 *
 * Gives the graph that holds @self.
 *
 * Returns: (transfer none) (nullable): the graph @self belongs to, %NULL once erased
 *
 * Since: 0.1
 */
GnnGraph *
gnn_graph_node_get_graph (GnnGraphNode *self)
{
  g_return_val_if_fail (GNN_IS_GRAPH_NODE (self), NULL);
  return self->graph;
}

/* a copy of @args with every value holding @from holding @to */
static GnnArgs *
args_replacing (GnnArgs      *args,
                GnnGraphNode *from,
                GnnGraphNode *to)
{
  GnnArgs *copy = gnn_args_new ();
  g_auto(GStrv) names = gnn_args_get_kwarg_names (args);
  guint n = gnn_args_get_n_values (args);

  for (guint i = 0; i < n + g_strv_length (names); i++)
    {
      const GValue *v = i < n ? gnn_args_get_value (args, i) : gnn_args_get_kwarg (args, names[i - n]);
      g_auto(GValue) nv = G_VALUE_INIT;

      g_value_init (&nv, G_VALUE_TYPE (v));
      if (G_VALUE_HOLDS (v, GNN_TYPE_GRAPH_NODE) && g_value_get_object (v) == from)
        g_value_set_object (&nv, to);
      else if (G_VALUE_HOLDS (v, GNN_TYPE_ARGS) && g_value_get_object (v) != NULL)
        g_value_take_object (&nv, args_replacing (g_value_get_object (v), from, to));
      else
        g_value_copy (v, &nv);
      if (i < n)
        gnn_args_add_value (copy, &nv);
      else
        gnn_args_set_kwarg (copy, names[i - n], &nv);
    }
  return copy;
}

/**
 * gnn_graph_node_replace_all_uses_with:
 * @self: a node of a graph
 * @replacement: a node of the same graph
 *
 * Makes every user of @self use @replacement instead (`node.replace_all_uses_with`).
 * @self is left without users, ready for [method@Gnn.Graph.erase_node].
 *
 * Returns: how many nodes were changed
 *
 * Since: 0.1
 */
guint
gnn_graph_node_replace_all_uses_with (GnnGraphNode *self,
                                      GnnGraphNode *replacement)
{
  g_autoptr(GPtrArray) users = NULL;

  g_return_val_if_fail (GNN_IS_GRAPH_NODE (self), 0);
  g_return_val_if_fail (GNN_IS_GRAPH_NODE (replacement), 0);
  g_return_val_if_fail (self->graph != NULL && replacement->graph == self->graph, 0);

  users = gnn_graph_node_get_users (self);
  for (guint i = 0; i < users->len; i++)
    {
      GnnGraphNode *user = users->pdata[i];
      g_autoptr(GnnArgs) args = args_replacing (user->args, self, replacement);

      foreach_input (user->args, remove_user, user);
      g_clear_object (&user->args);
      user->args = g_steal_pointer (&args);
      foreach_input (user->args, add_user, user);
    }
  return users->len;
}

static void
gnn_graph_dispose (GObject *object)
{
  GnnGraph *self = GNN_GRAPH (object);

  /* the nodes hold each other through their arguments: break that first */
  for (guint i = 0; i < self->nodes->len; i++)
    {
      GnnGraphNode *node = self->nodes->pdata[i];
      node->graph = NULL;
      g_ptr_array_set_size (node->users, 0);
    }
  g_ptr_array_set_size (self->nodes, 0);
  G_OBJECT_CLASS (gnn_graph_parent_class)->dispose (object);
}

static void
gnn_graph_finalize (GObject *object)
{
  GnnGraph *self = GNN_GRAPH (object);

  g_ptr_array_unref (self->nodes);
  g_hash_table_unref (self->used_names);
  G_OBJECT_CLASS (gnn_graph_parent_class)->finalize (object);
}

static void
gnn_graph_class_init (GnnGraphClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = gnn_graph_dispose;
  object_class->finalize = gnn_graph_finalize;
}

static void
gnn_graph_init (GnnGraph *self)
{
  self->nodes = g_ptr_array_new_with_free_func (g_object_unref);
  self->used_names = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
}

/**
 * gnn_graph_new:
 *
 * Makes an empty graph (`torch.fx.Graph ()`).
 *
 * Returns: (transfer full): an empty graph
 *
 * Since: 0.1
 */
GnnGraph *
gnn_graph_new (void)
{
  return g_object_new (GNN_TYPE_GRAPH, NULL);
}

static gboolean
is_reserved (const char *name)
{
  for (guint i = 0; i < G_N_ELEMENTS (reserved_names); i++)
    if (strcmp (reserved_names[i], name) == 0)
      return TRUE;
  return FALSE;
}

/* torch.fx's name of a node from its target: the last part of a function's name, without the
 * underscores of a magic name, in snake case */
static char *
candidate_name (GnnGraphOp  op,
                const char *target)
{
  const char *s = target;
  GString *out = g_string_new (NULL);
  gsize len;
  gboolean prev_lower = FALSE;

  if (op == GNN_GRAPH_OP_CALL_FUNCTION && strrchr (s, '.') != NULL)
    s = strrchr (s, '.') + 1;
  len = strcspn (s, "#");   /* a registry suffix (name#2) is not part of the name */
  if (len > 4 && g_str_has_prefix (s, "__") && s[len - 1] == '_' && s[len - 2] == '_')
    {
      s += 2;
      len -= 4;
    }
  for (gsize i = 0; i < len; i++)
    {
      char c = s[i];
      if (prev_lower && g_ascii_isupper (c))
        g_string_append_c (out, '_');
      g_string_append_c (out, g_ascii_tolower (c));
      prev_lower = g_ascii_islower (c);
    }
  return g_string_free (out, FALSE);
}

/* torch.fx's _Namespace.create_name */
static char *
unique_name (GnnGraph   *self,
             const char *candidate)
{
  g_autoptr(GString) base = g_string_new (NULL);
  char *name;
  gint64 num = 0;
  gboolean numbered = FALSE;
  const char *us;

  for (const char *p = candidate; *p; p++)
    {
      gboolean legal = g_ascii_isalnum (*p) || *p == '_';

      if (legal)
        g_string_append_c (base, *p);
      else if (p == candidate || g_ascii_isalnum (p[-1]) || p[-1] == '_')
        g_string_append_c (base, '_');   /* a run of illegal characters becomes one '_' */
    }
  if (base->len == 0)
    g_string_append (base, "_");
  if (g_ascii_isdigit (base->str[0]))
    g_string_prepend_c (base, '_');
  us = strrchr (base->str, '_');
  if (us != NULL && us[1] != '\0' && strspn (us + 1, "0123456789") == strlen (us + 1))
    {
      num = g_ascii_strtoll (us + 1, NULL, 10);
      numbered = TRUE;
      g_string_truncate (base, us - base->str);
    }
  name = numbered ? g_strdup_printf ("%s_%" G_GINT64_FORMAT, base->str, num) : g_strdup (base->str);
  while (g_hash_table_contains (self->used_names, name) || is_reserved (name))
    {
      g_free (name);
      name = g_strdup_printf ("%s_%" G_GINT64_FORMAT, base->str, ++num);
    }
  g_hash_table_add (self->used_names, g_strdup (name));
  return name;
}

static gboolean
has_output (GnnGraph *self)
{
  for (guint i = 0; i < self->nodes->len; i++)
    if (((GnnGraphNode *) self->nodes->pdata[i])->op == GNN_GRAPH_OP_OUTPUT)
      return TRUE;
  return FALSE;
}

/**
 * gnn_graph_create_node:
 * @self: a graph
 * @op: what the node does
 * @target: the node's target (for an output node, ignored and may be %NULL); for a
 *   call_module node given a @name, "" is the root module itself
 * @args: (nullable): its arguments (copied): values holding nodes of @self stand for their
 *   results
 * @name: (nullable): the name to start from; %NULL makes one from @target as torch.fx does
 * @error: return location for a #GError
 *
 * Adds a node at the insertion point (the end, or before the node given to
 * [method@Gnn.Graph.inserting_before]), as `Graph.create_node` does. A placeholder is named
 * after its target, an output node `output`.
 *
 * Returns: (transfer none): the new node, or %NULL with @error set when @args uses a node of
 *   another graph or an erased one, a target is missing, or the graph has an output node
 *   already
 *
 * Since: 0.1
 */
GnnGraphNode *
gnn_graph_create_node (GnnGraph     *self,
                       GnnGraphOp    op,
                       const char   *target,
                       GnnArgs      *args,
                       const char   *name,
                       GError      **error)
{
  GnnGraphNode *node;
  g_autofree char *candidate = NULL;
  guint at;

  g_return_val_if_fail (GNN_IS_GRAPH (self), NULL);
  g_return_val_if_fail (args == NULL || GNN_IS_ARGS (args), NULL);

  if (op == GNN_GRAPH_OP_OUTPUT)
    target = "output";
  /* an empty call_module target is the root itself (get_submodule ("")): the graph of one
   * call of a layer, which the ONNX exporter writes with the layer's own tensor names */
  if (target == NULL || (target[0] == '\0' && (op != GNN_GRAPH_OP_CALL_MODULE || name == NULL)))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "a %s node needs a target (found none)",
                   g_enum_get_value (g_type_class_peek (GNN_TYPE_GRAPH_OP), op) ?
                   g_enum_get_value (g_type_class_peek (GNN_TYPE_GRAPH_OP), op)->value_nick : "graph");
      return NULL;
    }
  if (op == GNN_GRAPH_OP_OUTPUT && has_output (self))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "the graph has an output node already (expected one at most)");
      return NULL;
    }
  if (!check_args (self, NULL, args, error))
    return NULL;

  node = g_object_new (GNN_TYPE_GRAPH_NODE, NULL);
  node->graph = self;
  node->op = op;
  node->target = g_strdup (target);
  node->args = args ? gnn_args_copy (args) : gnn_args_new ();
  if (name != NULL)
    candidate = g_strdup (name);
  else if (op == GNN_GRAPH_OP_PLACEHOLDER || op == GNN_GRAPH_OP_OUTPUT)
    candidate = g_strdup (target);
  else
    candidate = candidate_name (op, target);
  node->name = unique_name (self, candidate);
  if (self->insert_before != NULL && g_ptr_array_find (self->nodes, self->insert_before, &at))
    g_ptr_array_insert (self->nodes, at, node);
  else
    g_ptr_array_add (self->nodes, node);
  foreach_input (node->args, add_user, node);
  return node;
}

/**
 * gnn_graph_placeholder:
 * @self: a graph
 * @name: the input's name
 * @error: return location for a #GError
 *
 * Adds an input (`Graph.placeholder`).
 *
 * Returns: (transfer none): the new node, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnGraphNode *
gnn_graph_placeholder (GnnGraph   *self,
                       const char *name,
                       GError    **error)
{
  return gnn_graph_create_node (self, GNN_GRAPH_OP_PLACEHOLDER, name, NULL, NULL, error);
}

/**
 * gnn_graph_get_attr:
 * @self: a graph
 * @target: the dotted path of a parameter, buffer or tensor attribute
 * @error: return location for a #GError
 *
 * Adds a get_attr node (`Graph.get_attr`).
 *
 * Returns: (transfer none): the new node, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnGraphNode *
gnn_graph_get_attr (GnnGraph   *self,
                    const char *target,
                    GError    **error)
{
  return gnn_graph_create_node (self, GNN_GRAPH_OP_GET_ATTR, target, NULL, NULL, error);
}

/**
 * gnn_graph_call_function:
 * @self: a graph
 * @target: the function's name
 * @args: (nullable): its arguments
 * @error: return location for a #GError
 *
 * Adds a call of a function (`Graph.call_function`).
 *
 * Returns: (transfer none): the new node, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnGraphNode *
gnn_graph_call_function (GnnGraph   *self,
                         const char *target,
                         GnnArgs    *args,
                         GError    **error)
{
  return gnn_graph_create_node (self, GNN_GRAPH_OP_CALL_FUNCTION, target, args, NULL, error);
}

/**
 * gnn_graph_call_method:
 * @self: a graph
 * @target: the method's name
 * @args: (nullable): its arguments, the tensor it is called on first
 * @error: return location for a #GError
 *
 * Adds a call of a tensor method (`Graph.call_method`).
 *
 * Returns: (transfer none): the new node, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnGraphNode *
gnn_graph_call_method (GnnGraph   *self,
                       const char *target,
                       GnnArgs    *args,
                       GError    **error)
{
  return gnn_graph_create_node (self, GNN_GRAPH_OP_CALL_METHOD, target, args, NULL, error);
}

/**
 * gnn_graph_call_module:
 * @self: a graph
 * @target: the submodule's dotted path
 * @args: (nullable): the inputs of its forward
 * @error: return location for a #GError
 *
 * Adds a call of a submodule (`Graph.call_module`).
 *
 * Returns: (transfer none): the new node, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnGraphNode *
gnn_graph_call_module (GnnGraph   *self,
                       const char *target,
                       GnnArgs    *args,
                       GError    **error)
{
  return gnn_graph_create_node (self, GNN_GRAPH_OP_CALL_MODULE, target, args, NULL, error);
}

/**
 * gnn_graph_output:
 * @self: a graph
 * @args: the graph's result as the first value
 * @error: return location for a #GError
 *
 * Adds the output node (`Graph.output`).
 *
 * Returns: (transfer none): the new node, or %NULL with @error set
 *
 * Since: 0.1
 */
GnnGraphNode *
gnn_graph_output (GnnGraph *self,
                  GnnArgs  *args,
                  GError  **error)
{
  return gnn_graph_create_node (self, GNN_GRAPH_OP_OUTPUT, NULL, args, NULL, error);
}

/**
 * gnn_graph_inserting_before:
 * @self: a graph
 * @node: (nullable): a node of @self, or %NULL for the end
 *
 * Makes new nodes go before @node (`with graph.inserting_before (node):`), or at the end.
 *
 * Since: 0.1
 */
void
gnn_graph_inserting_before (GnnGraph     *self,
                            GnnGraphNode *node)
{
  g_return_if_fail (GNN_IS_GRAPH (self));
  g_return_if_fail (node == NULL || (GNN_IS_GRAPH_NODE (node) && node->graph == self));
  self->insert_before = node;
}

/**
 * gnn_graph_get_nodes:
 * @self: a graph
 *
 * Lists the nodes of @self in execution order.
 *
 * Returns: (transfer container) (element-type Gnn.GraphNode): the nodes in order (`graph.nodes`)
 *
 * Since: 0.1
 */
GPtrArray *
gnn_graph_get_nodes (GnnGraph *self)
{
  GPtrArray *nodes;

  g_return_val_if_fail (GNN_IS_GRAPH (self), NULL);
  nodes = g_ptr_array_new_with_free_func (g_object_unref);
  for (guint i = 0; i < self->nodes->len; i++)
    g_ptr_array_add (nodes, g_object_ref (self->nodes->pdata[i]));
  return nodes;
}

/**
 * gnn_graph_get_n_nodes:
 * @self: a graph
 *
 * Counts the nodes of @self.
 *
 * Returns: how many nodes @self has
 *
 * Since: 0.1
 */
guint
gnn_graph_get_n_nodes (GnnGraph *self)
{
  g_return_val_if_fail (GNN_IS_GRAPH (self), 0);
  return self->nodes->len;
}

/**
 * gnn_graph_find_node:
 * @self: a graph
 * @name: a node name
 *
 * Looks a node up by its name.
 *
 * Returns: (transfer none) (nullable): the node named @name, or %NULL
 *
 * Since: 0.1
 */
GnnGraphNode *
gnn_graph_find_node (GnnGraph   *self,
                     const char *name)
{
  g_return_val_if_fail (GNN_IS_GRAPH (self), NULL);
  g_return_val_if_fail (name != NULL, NULL);
  for (guint i = 0; i < self->nodes->len; i++)
    if (strcmp (((GnnGraphNode *) self->nodes->pdata[i])->name, name) == 0)
      return self->nodes->pdata[i];
  return NULL;
}

/**
 * gnn_graph_erase_node:
 * @self: a graph
 * @node: a node of @self without users
 * @error: return location for a #GError
 *
 * Removes @node (`Graph.erase_node`). Its name stays taken, as in torch.fx.
 *
 * Returns: %TRUE, or %FALSE with @error set when @node still has users or is not in @self
 *
 * Since: 0.1
 */
gboolean
gnn_graph_erase_node (GnnGraph     *self,
                      GnnGraphNode *node,
                      GError      **error)
{
  g_return_val_if_fail (GNN_IS_GRAPH (self), FALSE);
  g_return_val_if_fail (GNN_IS_GRAPH_NODE (node), FALSE);

  if (node->graph != self)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "node '%s' is not a node of this graph", node->name);
      return FALSE;
    }
  if (node->users->len > 0)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "tried to erase node '%s' but it still has %u user(s), the first '%s' "
                   "(expected none)", node->name, node->users->len,
                   ((GnnGraphNode *) node->users->pdata[0])->name);
      return FALSE;
    }
  if (self->insert_before == node)
    self->insert_before = NULL;
  foreach_input (node->args, remove_user, node);
  node->graph = NULL;
  g_ptr_array_remove (self->nodes, node);
  return TRUE;
}

/**
 * gnn_graph_eliminate_dead_code:
 * @self: a graph
 *
 * Erases, from the end backwards, every node without users other than placeholders and the
 * output (`Graph.eliminate_dead_code`). gnn's calls have no side effects a graph records, so
 * every such node is dead.
 *
 * Returns: whether a node was erased
 *
 * Since: 0.1
 */
gboolean
gnn_graph_eliminate_dead_code (GnnGraph *self)
{
  gboolean changed = FALSE;

  g_return_val_if_fail (GNN_IS_GRAPH (self), FALSE);
  for (guint i = self->nodes->len; i-- > 0;)
    {
      GnnGraphNode *node = self->nodes->pdata[i];

      if (node->op == GNN_GRAPH_OP_PLACEHOLDER || node->op == GNN_GRAPH_OP_OUTPUT || node->users->len > 0)
        continue;
      gnn_graph_erase_node (self, node, NULL);
      changed = TRUE;
    }
  return changed;
}

/**
 * gnn_graph_lint:
 * @self: a graph
 * @error: return location for a #GError
 *
 * Checks the graph (`Graph.lint`): every argument node is a node of @self that comes before
 * its user, names are unique, and the last node is the one output node.
 *
 * Returns: %TRUE, or %FALSE with @error set naming the first problem
 *
 * Since: 0.1
 */
gboolean
gnn_graph_lint (GnnGraph *self,
                GError  **error)
{
  g_autoptr(GHashTable) names = g_hash_table_new (g_str_hash, g_str_equal);

  g_return_val_if_fail (GNN_IS_GRAPH (self), FALSE);
  for (guint i = 0; i < self->nodes->len; i++)
    {
      GnnGraphNode *node = self->nodes->pdata[i];

      if (!g_hash_table_add (names, node->name))
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                       "two nodes are named '%s' (expected unique names)", node->name);
          return FALSE;
        }
      if (!check_args (self, node, node->args, error))
        return FALSE;
      if (node->op == GNN_GRAPH_OP_OUTPUT && i != self->nodes->len - 1)
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                       "the output node '%s' is not the last node (expected nothing after it)",
                       node->name);
          return FALSE;
        }
    }
  if (!has_output (self))
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT,
                   "the graph has no output node (expected one)");
      return FALSE;
    }
  return TRUE;
}

/* how a value is written: as torch.fx's _format_arg writes a node's arguments (a node as
 * %name, a string as it is), or as Python's repr () writes it inside the output's tuple (a
 * node by its name, a string quoted) */
typedef enum { FORMAT_ARG, FORMAT_REPR } ValueFormat;

static void
append_value (GString      *out,
              const GValue *v,
              ValueFormat   format)
{
  if (G_VALUE_HOLDS (v, GNN_TYPE_GRAPH_NODE) && g_value_get_object (v) != NULL)
    g_string_append_printf (out, format == FORMAT_ARG ? "%%%s" : "%s",
                            ((GnnGraphNode *) g_value_get_object (v))->name);
  else if (G_VALUE_HOLDS (v, GNN_TYPE_ARGS) && g_value_get_object (v) != NULL)
    {
      GnnArgs *a = g_value_get_object (v);
      guint n = gnn_args_get_n_values (a);

      g_string_append_c (out, '(');
      for (guint i = 0; i < n; i++)
        {
          append_value (out, gnn_args_get_value (a, i), format);
          if (i + 1 < n || n == 1)
            g_string_append (out, n == 1 ? "," : ", ");
        }
      g_string_append_c (out, ')');
    }
  else if (G_VALUE_HOLDS_STRING (v))
    g_string_append_printf (out, format == FORMAT_ARG ? "%s" : "'%s'",
                            g_value_get_string (v) ? g_value_get_string (v) : "");
  else if (G_VALUE_HOLDS_BOOLEAN (v))
    g_string_append (out, g_value_get_boolean (v) ? "True" : "False");
  else if (G_VALUE_HOLDS_OBJECT (v) && g_value_get_object (v) == NULL)
    g_string_append (out, "None");
  else if (G_VALUE_HOLDS_DOUBLE (v))
    {
      char buf[G_ASCII_DTOSTR_BUF_SIZE];
      g_string_append (out, g_ascii_dtostr (buf, sizeof buf, g_value_get_double (v)));
    }
  else if (g_value_type_transformable (G_VALUE_TYPE (v), G_TYPE_STRING) && !G_VALUE_HOLDS_OBJECT (v))
    {
      g_auto(GValue) s = G_VALUE_INIT;
      g_value_init (&s, G_TYPE_STRING);
      g_value_transform (v, &s);
      g_string_append (out, g_value_get_string (&s));
    }
  else
    g_string_append_printf (out, "<%s>", G_VALUE_TYPE_NAME (v));
}

/**
 * gnn_graph_to_string:
 * @self: a graph
 *
 * The graph as torch.fx's `str (graph)` writes it: `graph():` and one line a node,
 * `%name : [#users=N] = op[target=target](args = (...), kwargs = {...})`, with no newline
 * after the last one.
 *
 * Returns: (transfer full): the text
 *
 * Since: 0.1
 */
char *
gnn_graph_to_string (GnnGraph *self)
{
  GString *out;

  g_return_val_if_fail (GNN_IS_GRAPH (self), NULL);
  out = g_string_new ("graph():\n");
  for (guint i = 0; i < self->nodes->len; i++)
    {
      GnnGraphNode *node = self->nodes->pdata[i];
      g_auto(GStrv) names = gnn_args_get_kwarg_names (node->args);
      guint n = gnn_args_get_n_values (node->args);

      if (node->op == GNN_GRAPH_OP_PLACEHOLDER)
        {
          g_string_append_printf (out, "    %%%s : [#users=%u] = placeholder[target=%s]",
                                  node->name, node->users->len, node->target);
          /* a default as torch writes it, with str (): a string without its quotes */
          if (n > 0)
            {
              g_string_append (out, "(default=");
              append_value (out, gnn_args_get_value (node->args, 0), FORMAT_ARG);
              g_string_append_c (out, ')');
            }
          g_string_append_c (out, '\n');
          continue;
        }
      if (node->op == GNN_GRAPH_OP_GET_ATTR)
        {
          g_string_append_printf (out, "    %%%s : [#users=%u] = get_attr[target=%s]\n",
                                  node->name, node->users->len, node->target);
          continue;
        }
      if (node->op == GNN_GRAPH_OP_OUTPUT)
        g_string_append_printf (out, "    return ");
      else
        g_string_append_printf (out, "    %%%s : [#users=%u] = %s[target=%s](", node->name,
                                node->users->len, gnn_graph_node_get_op_name (node), node->target);
      if (node->op == GNN_GRAPH_OP_OUTPUT)
        {
          const GValue *v = n > 0 ? gnn_args_get_value (node->args, 0) : NULL;

          /* torch prints the output's argument with Python's str (): names without '%',
           * a string as it is, inside a tuple repr () of each */
          if (v != NULL)
            append_value (out, v, G_VALUE_HOLDS_STRING (v) ? FORMAT_ARG : FORMAT_REPR);
          g_string_append_c (out, '\n');
          continue;
        }
      g_string_append (out, "args = (");
      for (guint j = 0; j < n; j++)
        {
          append_value (out, gnn_args_get_value (node->args, j), FORMAT_ARG);
          if (j + 1 < n || n == 1)
            g_string_append (out, n == 1 ? "," : ", ");
        }
      g_string_append (out, "), kwargs = {");
      for (guint j = 0; names[j]; j++)
        {
          g_string_append_printf (out, "%s%s: ", j ? ", " : "", names[j]);
          append_value (out, gnn_args_get_kwarg (node->args, names[j]), FORMAT_ARG);
        }
      g_string_append (out, "})\n");
    }
  /* torch's str (graph) ends with the last node's line, without a newline */
  if (out->len > 0 && out->str[out->len - 1] == '\n')
    g_string_truncate (out, out->len - 1);
  return g_string_free (out, FALSE);
}

/* text inside a DOT quoted string: a quote and a backslash escaped, a newline as \n (in a
 * label that is a line break; in a node's id, two characters no other name makes) */
static void
append_dot_escaped (GString    *out,
                    const char *text)
{
  for (const char *p = text; *p; p++)
    {
      if (*p == '"' || *p == '\\')
        g_string_append_c (out, '\\');
      if (*p == '\n')
        g_string_append (out, "\\n");
      else if (*p != '\r')
        g_string_append_c (out, *p);
    }
}

static void
append_dot_id (GString      *out,
               GnnGraphNode *node)
{
  g_string_append_c (out, '"');
  append_dot_escaped (out, node->name);
  g_string_append_c (out, '"');
}

typedef struct {
  GString *out;
  GnnGraphNode *user;
  GPtrArray *seen;
} DotEdges;

static void
append_dot_edge (GnnGraphNode *input,
                 gpointer      data)
{
  DotEdges *e = data;

  if (g_ptr_array_find (e->seen, input, NULL))
    return;
  g_ptr_array_add (e->seen, input);
  g_string_append (e->out, "  ");
  append_dot_id (e->out, input);
  g_string_append (e->out, " -> ");
  append_dot_id (e->out, e->user);
  g_string_append (e->out, ";\n");
}

/**
 * gnn_graph_to_dot:
 * @self: a graph
 * @root: (nullable): the module the graph was traced from, to name the type of the module
 *   each call_module node calls
 *
 * The graph in Graphviz's DOT language, laid out top to bottom (as torch.fx's
 * `FxGraphDrawer` draws it, without needing pydot): one node a graph node, in the graph's
 * order, whose id is the node's name and whose label has three lines at most: the name; the
 * op and target (`call_module layer1.0.conv1`, followed by the module's type, `: Conv2d`, when
 * @root is given and holds a module at that path); the value's shape and dtype
 * (`[1, 64, 112, 112] float32`) when shape propagation recorded them
 * ([method@Gnn.GraphNode.set_tensor_meta]). Placeholders and the output are ellipses, the other
 * nodes boxes. Then one edge from each node to each of its users (one edge however many
 * times the user takes the value), in the order of the users' arguments. Quotes, backslashes
 * and newlines in names and targets are escaped, so any graph gives a well-formed file.
 *
 * Returns: (transfer full): the DOT text, ending with a newline
 *
 * Since: 0.1
 */
char *
gnn_graph_to_dot (GnnGraph  *self,
                  GnnModule *root)
{
  GString *out;

  g_return_val_if_fail (GNN_IS_GRAPH (self), NULL);
  g_return_val_if_fail (root == NULL || GNN_IS_MODULE (root), NULL);

  out = g_string_new ("digraph G {\n"
                      "  rankdir=TB;\n"
                      "  node [shape=box, fontname=\"monospace\"];\n");
  for (guint i = 0; i < self->nodes->len; i++)
    {
      GnnGraphNode *node = self->nodes->pdata[i];

      g_string_append (out, "  ");
      append_dot_id (out, node);
      g_string_append (out, " [label=\"");
      append_dot_escaped (out, node->name);
      g_string_append (out, "\\n");
      append_dot_escaped (out, gnn_graph_node_get_op_name (node));
      if (node->op != GNN_GRAPH_OP_OUTPUT && node->target != NULL)
        {
          g_string_append_c (out, ' ');
          append_dot_escaped (out, node->target);
        }
      if (node->op == GNN_GRAPH_OP_CALL_MODULE && root != NULL && node->target != NULL)
        {
          GnnModule *m = gnn_module_get_submodule (root, node->target, NULL);

          if (m != NULL)
            {
              g_string_append (out, ": ");
              append_dot_escaped (out, gnn_module_get_name (m));
            }
        }
      if (node->shape != NULL)
        {
          g_string_append (out, "\\n[");
          for (guint d = 0; d < node->n_dims; d++)
            g_string_append_printf (out, "%s%" G_GINT64_FORMAT, d ? ", " : "", node->shape[d]);
          g_string_append_printf (out, "] %s", gnn_dtype_get_name (node->dtype));
        }
      g_string_append_c (out, '"');
      if (node->op == GNN_GRAPH_OP_PLACEHOLDER || node->op == GNN_GRAPH_OP_OUTPUT)
        g_string_append (out, ", shape=ellipse");
      g_string_append (out, "];\n");
    }
  for (guint i = 0; i < self->nodes->len; i++)
    {
      GnnGraphNode *node = self->nodes->pdata[i];
      g_autoptr(GPtrArray) seen = g_ptr_array_new ();
      DotEdges e = { out, node, seen };

      foreach_input (node->args, append_dot_edge, &e);
    }
  g_string_append (out, "}\n");
  return g_string_free (out, FALSE);
}
