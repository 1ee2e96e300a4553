/* test-fx-graph.c: GnnGraph and GnnGraphNode (torch.fx's Graph and Node)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <gnn/gnn.h>

static GnnArgs *
args_of_nodes (GnnGraphNode *a,
               GnnGraphNode *b)
{
  GnnArgs *args = gnn_args_new ();
  g_auto(GValue) v = G_VALUE_INIT;

  g_value_init (&v, GNN_TYPE_GRAPH_NODE);
  g_value_set_object (&v, a);
  gnn_args_add_value (args, &v);
  if (b != NULL)
    {
      g_value_set_object (&v, b);
      gnn_args_add_value (args, &v);
    }
  return args;
}

/* the graph torch.fx traces from: x -> linear -> relu -> add(relu, x) -> add(add, 1) -> output */
static GnnGraph *
make_graph (void)
{
  GnnGraph *g = gnn_graph_new ();
  GnnGraphNode *x, *linear, *relu, *add, *add_1;
  g_autoptr(GnnArgs) a1 = NULL, a2 = NULL, a3 = NULL, a4 = NULL, a5 = NULL;
  g_autoptr(GError) error = NULL;

  x = gnn_graph_placeholder (g, "x", &error);
  g_assert_no_error (error);
  a1 = args_of_nodes (x, NULL);
  linear = gnn_graph_call_module (g, "linear", a1, &error);
  g_assert_no_error (error);
  a2 = args_of_nodes (linear, NULL);
  relu = gnn_graph_call_function (g, "torch.relu", a2, &error);
  g_assert_no_error (error);
  a3 = args_of_nodes (relu, x);
  add = gnn_graph_call_function (g, "operator.add", a3, &error);
  g_assert_no_error (error);
  a4 = args_of_nodes (add, NULL);
  gnn_args_add_int (a4, 1);
  add_1 = gnn_graph_call_function (g, "operator.add", a4, &error);
  g_assert_no_error (error);
  a5 = args_of_nodes (add_1, NULL);
  gnn_graph_output (g, a5, &error);
  g_assert_no_error (error);
  return g;
}

static void
test_names (void)
{
  g_autoptr(GnnGraph) g = make_graph ();
  g_autoptr(GPtrArray) nodes = gnn_graph_get_nodes (g);
  const char *names[] = { "x", "linear", "relu", "add", "add_1", "output" };
  const char *ops[] = { "placeholder", "call_module", "call_function", "call_function", "call_function", "output" };
  g_autoptr(GError) error = NULL;
  GnnGraphNode *n;

  g_assert_cmpuint (nodes->len, ==, 6);
  for (guint i = 0; i < nodes->len; i++)
    {
      g_assert_cmpstr (gnn_graph_node_get_name (nodes->pdata[i]), ==, names[i]);
      g_assert_cmpstr (gnn_graph_node_get_op_name (nodes->pdata[i]), ==, ops[i]);
      g_assert_true (gnn_graph_node_get_graph (nodes->pdata[i]) == g);
    }
  g_assert_cmpstr (gnn_graph_node_get_target (nodes->pdata[2]), ==, "torch.relu");
  g_assert_cmpint (gnn_graph_node_get_op (nodes->pdata[4]), ==, GNN_GRAPH_OP_CALL_FUNCTION);

  /* torch's naming: dotted paths, magic names, camel case, keywords and builtins, numbers */
  n = gnn_graph_call_module (g, "layer1.0.conv", NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (gnn_graph_node_get_name (n), ==, "layer1_0_conv");
  n = gnn_graph_get_attr (g, "linear.weight", &error);
  g_assert_cmpstr (gnn_graph_node_get_name (n), ==, "linear_weight");
  n = gnn_graph_call_method (g, "__add__", NULL, &error);
  g_assert_cmpstr (gnn_graph_node_get_name (n), ==, "add_2");
  n = gnn_graph_call_method (g, "addMM", NULL, &error);
  g_assert_cmpstr (gnn_graph_node_get_name (n), ==, "add_mm");
  n = gnn_graph_placeholder (g, "input", &error);
  g_assert_cmpstr (gnn_graph_node_get_name (n), ==, "input_1");
  g_assert_cmpstr (gnn_graph_node_get_target (n), ==, "input");
  n = gnn_graph_call_function (g, "builtins.getattr", NULL, &error);
  g_assert_cmpstr (gnn_graph_node_get_name (n), ==, "getattr_1");
  n = gnn_graph_call_module (g, "0", NULL, &error);
  g_assert_cmpstr (gnn_graph_node_get_name (n), ==, "_0");
  n = gnn_graph_call_module (g, "relu_1", NULL, &error);
  g_assert_cmpstr (gnn_graph_node_get_name (n), ==, "relu_1");
  n = gnn_graph_call_module (g, "relu", NULL, &error);
  g_assert_cmpstr (gnn_graph_node_get_name (n), ==, "relu_2");
  g_assert_no_error (error);
  g_assert_true (gnn_graph_find_node (g, "relu_2") == n);
  g_assert_null (gnn_graph_find_node (g, "nothing"));
}

static void
test_users (void)
{
  g_autoptr(GnnGraph) g = make_graph ();
  GnnGraphNode *x = gnn_graph_find_node (g, "x");
  GnnGraphNode *relu = gnn_graph_find_node (g, "relu");
  GnnGraphNode *add = gnn_graph_find_node (g, "add");
  g_autoptr(GPtrArray) users = gnn_graph_node_get_users (x);
  g_autoptr(GError) error = NULL;

  g_assert_cmpuint (users->len, ==, 2);
  g_assert_cmpstr (gnn_graph_node_get_name (users->pdata[0]), ==, "linear");
  g_assert_cmpstr (gnn_graph_node_get_name (users->pdata[1]), ==, "add");
  g_assert_cmpuint (gnn_graph_node_get_n_users (relu), ==, 1);

  /* a node with users cannot be erased */
  g_assert_false (gnn_graph_erase_node (g, relu, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "still has 1 user"));
  g_clear_error (&error);

  /* add uses x twice after the rewrite: relu loses its user and dies */
  g_assert_cmpuint (gnn_graph_node_replace_all_uses_with (relu, x), ==, 1);
  g_assert_cmpuint (gnn_graph_node_get_n_users (relu), ==, 0);
  g_assert_cmpuint (gnn_graph_node_get_n_users (x), ==, 2);
  g_assert_true (g_value_get_object (gnn_args_get_value (gnn_graph_node_get_args (add), 0)) == x);
  g_assert_true (gnn_graph_eliminate_dead_code (g));
  g_assert_null (gnn_graph_find_node (g, "relu"));
  g_assert_null (gnn_graph_find_node (g, "linear"));   /* relu was its only user */
  g_assert_cmpuint (gnn_graph_get_n_nodes (g), ==, 4);
  g_assert_false (gnn_graph_eliminate_dead_code (g));
  g_assert_true (gnn_graph_lint (g, &error));
  g_assert_no_error (error);
}

static void
test_errors (void)
{
  g_autoptr(GnnGraph) g = make_graph ();
  g_autoptr(GnnGraph) other = gnn_graph_new ();
  g_autoptr(GnnArgs) foreign = NULL, later = NULL;
  g_autoptr(GError) error = NULL;
  GnnGraphNode *y, *linear;

  y = gnn_graph_placeholder (other, "y", &error);
  foreign = args_of_nodes (y, NULL);
  g_assert_null (gnn_graph_call_function (g, "torch.relu", foreign, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "'y' is not a node of this graph"));
  g_clear_error (&error);

  g_assert_null (gnn_graph_call_module (g, "", NULL, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "call_module node needs a target"));
  g_clear_error (&error);

  g_assert_null (gnn_graph_output (g, NULL, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);

  /* a node that uses a later one */
  linear = gnn_graph_find_node (g, "linear");
  later = args_of_nodes (gnn_graph_find_node (g, "add_1"), NULL);
  g_assert_false (gnn_graph_node_set_args (linear, later, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "comes after it"));
  g_clear_error (&error);

  /* a graph without output fails lint */
  g_assert_false (gnn_graph_lint (other, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "no output node"));
}

static void
test_insert_and_print (void)
{
  g_autoptr(GnnGraph) g = make_graph ();
  GnnGraphNode *relu = gnn_graph_find_node (g, "relu");
  GnnGraphNode *linear = gnn_graph_find_node (g, "linear");
  g_autoptr(GnnArgs) a = args_of_nodes (linear, NULL);
  g_autoptr(GPtrArray) nodes = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  GnnGraphNode *sig;

  gnn_graph_inserting_before (g, relu);
  sig = gnn_graph_call_method (g, "sigmoid", a, &error);
  g_assert_no_error (error);
  gnn_graph_inserting_before (g, NULL);
  nodes = gnn_graph_get_nodes (g);
  g_assert_true (nodes->pdata[2] == sig);
  g_assert_true (gnn_graph_lint (g, &error));

  text = gnn_graph_to_string (g);
  g_assert_cmpstr (text, ==,
    "graph():\n"
    "    %x : [#users=2] = placeholder[target=x]\n"
    "    %linear : [#users=2] = call_module[target=linear](args = (%x,), kwargs = {})\n"
    "    %sigmoid : [#users=0] = call_method[target=sigmoid](args = (%linear,), kwargs = {})\n"
    "    %relu : [#users=1] = call_function[target=torch.relu](args = (%linear,), kwargs = {})\n"
    "    %add : [#users=1] = call_function[target=operator.add](args = (%relu, %x), kwargs = {})\n"
    "    %add_1 : [#users=1] = call_function[target=operator.add](args = (%add, 1), kwargs = {})\n"
    "    return add_1");
}

static void
test_finalize (void)
{
  GnnGraph *g = make_graph ();
  GnnGraphNode *x = g_object_ref (gnn_graph_find_node (g, "x"));

  g_assert_finalize_object (g);
  g_assert_null (gnn_graph_node_get_graph (x));
  g_assert_finalize_object (x);
}

/* the DOT text: ids and labels, the shape ShapeProp recorded, the module's type from the
 * root, one edge per (input, user) pair, and a target with a quote and a backslash escaped */
static void
test_to_dot (void)
{
  g_autoptr(GnnGraph) g = make_graph ();
  g_autoptr(GnnSequential) root = gnn_sequential_new (NULL, 0);
  g_autoptr(GnnLinear) linear = gnn_linear_new (4, 4, TRUE, NULL);
  GnnGraphNode *x = gnn_graph_find_node (g, "x");
  GnnGraphNode *relu = gnn_graph_find_node (g, "relu");
  g_autoptr(GnnArgs) a = args_of_nodes (x, x);
  g_autoptr(GError) error = NULL;
  g_autofree char *plain = NULL;
  g_autofree char *dot = NULL;
  const gint64 shape[] = { 2, 4 };

  plain = gnn_graph_to_dot (g, NULL);
  g_assert_cmpstr (plain, ==,
    "digraph G {\n"
    "  rankdir=TB;\n"
    "  node [shape=box, fontname=\"monospace\"];\n"
    "  \"x\" [label=\"x\\nplaceholder x\", shape=ellipse];\n"
    "  \"linear\" [label=\"linear\\ncall_module linear\"];\n"
    "  \"relu\" [label=\"relu\\ncall_function torch.relu\"];\n"
    "  \"add\" [label=\"add\\ncall_function operator.add\"];\n"
    "  \"add_1\" [label=\"add_1\\ncall_function operator.add\"];\n"
    "  \"output\" [label=\"output\\noutput\", shape=ellipse];\n"
    "  \"x\" -> \"linear\";\n"
    "  \"linear\" -> \"relu\";\n"
    "  \"relu\" -> \"add\";\n"
    "  \"x\" -> \"add\";\n"
    "  \"add\" -> \"add_1\";\n"
    "  \"add_1\" -> \"output\";\n"
    "}\n");

  g_assert_true (gnn_module_register_module (GNN_MODULE (root), "linear", GNN_MODULE (linear), &error));
  g_assert_no_error (error);
  gnn_graph_node_set_tensor_meta (x, shape, 2, GNN_DTYPE_FLOAT32);
  gnn_graph_inserting_before (g, relu);
  gnn_graph_call_function (g, "my\"fn\\", a, &error);
  g_assert_no_error (error);
  dot = gnn_graph_to_dot (g, GNN_MODULE (root));
  g_assert_cmpstr (dot, ==,
    "digraph G {\n"
    "  rankdir=TB;\n"
    "  node [shape=box, fontname=\"monospace\"];\n"
    "  \"x\" [label=\"x\\nplaceholder x\\n[2, 4] float32\", shape=ellipse];\n"
    "  \"linear\" [label=\"linear\\ncall_module linear: Linear\"];\n"
    "  \"my_fn_\" [label=\"my_fn_\\ncall_function my\\\"fn\\\\\"];\n"
    "  \"relu\" [label=\"relu\\ncall_function torch.relu\"];\n"
    "  \"add\" [label=\"add\\ncall_function operator.add\"];\n"
    "  \"add_1\" [label=\"add_1\\ncall_function operator.add\"];\n"
    "  \"output\" [label=\"output\\noutput\", shape=ellipse];\n"
    "  \"x\" -> \"linear\";\n"
    "  \"x\" -> \"my_fn_\";\n"
    "  \"linear\" -> \"relu\";\n"
    "  \"relu\" -> \"add\";\n"
    "  \"x\" -> \"add\";\n"
    "  \"add\" -> \"add_1\";\n"
    "  \"add_1\" -> \"output\";\n"
    "}\n");
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/fx/graph/names", test_names);
  g_test_add_func ("/fx/graph/users", test_users);
  g_test_add_func ("/fx/graph/errors", test_errors);
  g_test_add_func ("/fx/graph/insert-and-print", test_insert_and_print);
  g_test_add_func ("/fx/graph/finalize", test_finalize);
  g_test_add_func ("/fx/graph/to-dot", test_to_dot);
  return g_test_run ();
}
