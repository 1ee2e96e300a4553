/* test-fx-graph.c: GnnGraph and GnnGraphNode (torch.fx's Graph and Node)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>
#include <string.h>

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

/* the graph of make_graph with every kind of argument a graph's JSON form holds, and a shape */
static GnnGraph *
make_json_graph (void)
{
  GnnGraph *g = make_graph ();
  GnnGraphNode *relu = gnn_graph_find_node (g, "relu");
  GnnGraphNode *x = gnn_graph_find_node (g, "x");
  g_autoptr(GnnArgs) a = args_of_nodes (relu, NULL);
  g_autoptr(GnnArgs) inner = args_of_nodes (x, relu);
  g_auto(GValue) v = G_VALUE_INIT;
  g_autoptr(GError) error = NULL;
  const gint64 shape[] = { 2, 4 };

  gnn_args_add_double (a, 0.5);
  gnn_args_add_double (a, -INFINITY);
  gnn_args_add_string (a, "a \"quoted\" string");
  gnn_args_add_boolean (a, TRUE);
  g_value_init (&v, GNN_TYPE_ARGS);
  g_value_set_object (&v, inner);
  gnn_args_add_value (a, &v);
  g_value_unset (&v);
  g_value_init (&v, GNN_TYPE_TENSOR);   /* None */
  gnn_args_set_kwarg (a, "out", &v);
  g_value_unset (&v);
  g_value_init (&v, GNN_TYPE_DTYPE);
  g_value_set_enum (&v, GNN_DTYPE_FLOAT64);
  gnn_args_set_kwarg (a, "dtype", &v);
  g_value_unset (&v);
  g_value_init (&v, G_TYPE_INT64);
  g_value_set_int64 (&v, -3);
  gnn_args_set_kwarg (a, "dim", &v);
  gnn_graph_inserting_before (g, gnn_graph_find_node (g, "output"));
  gnn_graph_call_function (g, "gnn.sum", a, &error);
  g_assert_no_error (error);
  gnn_graph_inserting_before (g, NULL);
  gnn_graph_node_set_tensor_meta (relu, shape, 2, GNN_DTYPE_FLOAT32);
  return g;
}

static void
test_json_round_trip (void)
{
  g_autoptr(GnnGraph) g = make_json_graph ();
  g_autoptr(GError) error = NULL;
  g_autofree char *json = gnn_graph_to_json (g, FALSE, &error);
  g_autofree char *pretty = NULL;
  g_autofree char *again = NULL;
  g_autofree char *text = NULL;
  g_autofree char *text2 = NULL;
  g_autoptr(GnnGraph) back = NULL;
  g_autoptr(GnnGraph) back2 = NULL;
  GnnGraphNode *sum, *relu;
  GnnArgs *args;
  const gint64 *shape;
  guint n_dims;
  GnnDtype dtype;
  const GValue *v;

  g_assert_no_error (error);
  g_assert_true (g_str_has_prefix (json, "{\"format\":\"gnn.graph\",\"version\":1,\"nodes\":["));
  g_assert_nonnull (strstr (json, "{\"name\":\"add\",\"op\":\"call_function\",\"target\":\"operator.add\","
                                  "\"args\":[{\"node\":\"relu\"},{\"node\":\"x\"}],\"kwargs\":{}}"));
  g_assert_nonnull (strstr (json, "\"meta\":{\"shape\":[2,4],\"dtype\":\"float32\"}"));
  g_assert_nonnull (strstr (json, "{\"float\":\"-inf\"}"));
  g_assert_nonnull (strstr (json, "{\"tuple\":[{\"node\":\"x\"},{\"node\":\"relu\"}]}"));
  g_assert_nonnull (strstr (json, "\"kwargs\":{\"out\":null,\"dtype\":{\"enum\":\"GnnDtype\","
                                  "\"value\":\"float64\"},\"dim\":-3}"));
  back = gnn_graph_new_from_json (json, -1, &error);
  g_assert_no_error (error);
  text = gnn_graph_to_string (g);
  text2 = gnn_graph_to_string (back);
  g_assert_cmpstr (text2, ==, text);
  again = gnn_graph_to_json (back, FALSE, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (again, ==, json);

  /* the values come back with their types, the shape with its dtype */
  sum = gnn_graph_find_node (back, "sum_1");   /* sum is a builtin: torch names it sum_1 */
  relu = gnn_graph_find_node (back, "relu");
  args = gnn_graph_node_get_args (sum);
  g_assert_true (g_value_get_object (gnn_args_get_value (args, 0)) == relu);
  g_assert_cmpfloat (g_value_get_double (gnn_args_get_value (args, 1)), ==, 0.5);
  g_assert_true (isinf (g_value_get_double (gnn_args_get_value (args, 2))));
  g_assert_cmpstr (g_value_get_string (gnn_args_get_value (args, 3)), ==, "a \"quoted\" string");
  g_assert_true (g_value_get_boolean (gnn_args_get_value (args, 4)));
  v = gnn_args_get_value (args, 5);
  g_assert_true (G_VALUE_HOLDS (v, GNN_TYPE_ARGS));
  g_assert_true (g_value_get_object (gnn_args_get_value (g_value_get_object (v), 1)) == relu);
  v = gnn_args_get_kwarg (args, "out");
  g_assert_true (G_VALUE_HOLDS (v, GNN_TYPE_TENSOR) && g_value_get_object (v) == NULL);
  g_assert_cmpint (g_value_get_enum (gnn_args_get_kwarg (args, "dtype")), ==, GNN_DTYPE_FLOAT64);
  g_assert_cmpint (g_value_get_int64 (gnn_args_get_kwarg (args, "dim")), ==, -3);
  g_assert_cmpuint (gnn_graph_node_get_n_users (relu), ==, 2);
  shape = gnn_graph_node_get_tensor_meta (relu, &n_dims, &dtype);
  g_assert_cmpuint (n_dims, ==, 2);
  g_assert_cmpint (shape[0], ==, 2);
  g_assert_cmpint (shape[1], ==, 4);
  g_assert_cmpint (dtype, ==, GNN_DTYPE_FLOAT32);

  /* the indented text reads back to the same graph */
  pretty = gnn_graph_to_json (g, TRUE, &error);
  g_assert_no_error (error);
  g_assert_nonnull (strchr (pretty, '\n'));
  back2 = gnn_graph_new_from_json (pretty, strlen (pretty), &error);
  g_assert_no_error (error);
  g_free (text2);
  text2 = gnn_graph_to_string (back2);
  g_assert_cmpstr (text2, ==, text);
}

#define HEAD "{\"format\":\"gnn.graph\",\"version\":1,\"nodes\":["
#define X "{\"name\":\"x\",\"op\":\"placeholder\",\"target\":\"x\"},"
#define OUT(n) "{\"name\":\"output\",\"op\":\"output\",\"target\":\"output\",\"args\":[{\"node\":\"" n "\"}]}]}"

static void
expect_refused (const char *json,
                const char *message)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnGraph) g = gnn_graph_new_from_json (json, -1, &error);

  g_assert_null (g);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_FILE_FORMAT);
  if (strstr (error->message, message) == NULL)
    g_error ("expected '%s' in: %s", message, error->message);
}

/* nodes that use later ones (a cycle, or out of order), names the graph does not have,
 * unknown ops and nesting beyond the bounds: errors naming the node */
static void
test_json_refused (void)
{
  g_autoptr(GString) deep = g_string_new (HEAD X "{\"name\":\"t\",\"op\":\"call_function\",\"target\":\"f\",\"args\":[");
  g_autoptr(GString) deeper = g_string_new (NULL);

  expect_refused (HEAD X "{\"name\":\"a\",\"op\":\"call_function\",\"target\":\"f\",\"args\":[{\"node\":\"b\"}]},"
                  "{\"name\":\"b\",\"op\":\"call_function\",\"target\":\"f\",\"args\":[{\"node\":\"a\"}]}," OUT ("b"),
                  "graph JSON at node 'a': uses node 'b', which uses it in turn (a cycle)");
  expect_refused (HEAD X "{\"name\":\"a\",\"op\":\"call_function\",\"target\":\"f\",\"args\":[{\"tuple\":[{\"node\":\"a\"}]}]},"
                  OUT ("a"), "graph JSON at node 'a': uses itself (a cycle)");
  expect_refused (HEAD X "{\"name\":\"a\",\"op\":\"call_function\",\"target\":\"f\",\"kwargs\":{\"k\":{\"node\":\"b\"}}},"
                  "{\"name\":\"b\",\"op\":\"call_function\",\"target\":\"f\",\"args\":[{\"node\":\"x\"}]}," OUT ("a"),
                  "graph JSON at node 'a': uses node 'b', which comes after it");
  expect_refused (HEAD X "{\"name\":\"a\",\"op\":\"call_function\",\"target\":\"f\",\"args\":[{\"node\":\"gone\"}]},"
                  OUT ("a"), "graph JSON at node 'a': uses node 'gone', which the graph does not have (a dangling reference)");
  expect_refused (HEAD X "{\"name\":\"a\",\"op\":\"call_everything\",\"target\":\"f\"}," OUT ("a"),
                  "graph JSON at node 'a': unknown op 'call_everything' (expected placeholder");
  expect_refused (HEAD X "{\"name\":\"a\",\"op\":\"call_module\"}," OUT ("a"),
                  "graph JSON at node 'a': a call_module node needs a \"target\"");
  expect_refused (HEAD X X OUT ("x"), "graph JSON at $.nodes[1]: the name 'x' is taken by $.nodes[0]");
  expect_refused (HEAD X "{\"name\":\"a\",\"op\":\"call_function\",\"target\":\"f\",\"args\":[[1]]}," OUT ("a"),
                  "graph JSON at node 'a': an argument must be null");
  expect_refused (HEAD X "{\"name\":\"a\",\"op\":\"call_function\",\"target\":\"f\",\"args\":[{\"enum\":\"NoSuchType\",\"value\":\"v\"}]},"
                  OUT ("a"), "graph JSON at node 'a': \"enum\" must name a registered enum type (found NoSuchType)");
  expect_refused (HEAD X "{\"name\":\"a\",\"op\":\"call_function\",\"target\":\"f\",\"args\":[{\"enum\":\"GEnum\",\"value\":\"v\"}]},"
                  OUT ("a"), "graph JSON at node 'a': \"enum\" must name a registered enum type (found GEnum)");
  expect_refused (HEAD X "{\"name\":\"a\",\"op\":\"call_function\",\"target\":\"f\",\"meta\":{\"shape\":[2],\"dtype\":\"float99\"}},"
                  OUT ("a"), "graph JSON at node 'a': \"dtype\" must name a dtype (found float99)");
  expect_refused (HEAD X "{\"name\":\"a\",\"op\":\"call_function\",\"target\":\"f\",\"color\":1}," OUT ("a"),
                  "graph JSON at node 'a': unknown member 'color'");
  expect_refused (HEAD X "{\"name\":\"a\",\"op\":\"call_function\",\"target\":\"f\"}]}",
                  "graph JSON at $: the graph has no output node");
  expect_refused ("{\"format\":\"gnn.graph\",\"version\":2,\"nodes\":[]}", "graph JSON at $: \"version\" must be 1");
  expect_refused ("{\"format\":\"onnx\",\"version\":1,\"nodes\":[]}", "graph JSON at $: \"format\" must be \"gnn.graph\"");
  expect_refused ("[]", "graph JSON at $: expected an object, found JsonArray");
  expect_refused ("{\"format\":", "graph JSON: not valid JSON");
  expect_refused ("{\"format\":\"gnn.graph\",\"format\":\"gnn.graph\"}", "graph JSON: the name \"format\" comes twice");

  /* tuples nested one level deeper than the bound: the node is named */
  for (guint i = 0; i <= GNN_GRAPH_JSON_MAX_ARGS_DEPTH; i++)
    g_string_append (deep, "{\"tuple\":[");
  g_string_append (deep, "1");
  for (guint i = 0; i <= GNN_GRAPH_JSON_MAX_ARGS_DEPTH; i++)
    g_string_append (deep, "]}");
  g_string_append (deep, "]}," OUT ("t"));
  expect_refused (deep->str, "graph JSON at node 't': its arguments nest tuples deeper than 64 levels");
  /* nesting beyond what any JSON text gnn reads may have is refused before parsing */
  for (guint i = 0; i < 5000; i++)
    g_string_append_c (deeper, '[');
  expect_refused (deeper->str, "graph JSON: nesting deeper than 640 levels");
}

static void
test_json_write_refused (void)
{
  g_autoptr(GnnGraph) g = make_graph ();
  g_autoptr(GnnGraph) open = gnn_graph_new ();
  g_autoptr(GnnTensor) t = gnn_tensor_new_zeros ((gint64[]) { 2 }, 1, GNN_DTYPE_FLOAT32, NULL, NULL);
  g_autoptr(GnnArgs) a = args_of_nodes (gnn_graph_find_node (g, "x"), NULL);
  g_autoptr(GnnArgs) nested = gnn_args_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *json = NULL;
  g_auto(GValue) v = G_VALUE_INIT;

  /* a tensor argument: its values belong in the state dict */
  gnn_args_add_tensor (a, t);
  gnn_graph_inserting_before (g, gnn_graph_find_node (g, "output"));
  gnn_graph_call_function (g, "operator.mul", a, &error);
  g_assert_no_error (error);
  json = gnn_graph_to_json (g, FALSE, &error);
  g_assert_null (json);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "graph JSON: node 'mul': an argument of type GnnTensor has no JSON form"));
  g_clear_error (&error);

  /* tuples nested beyond the bound */
  gnn_args_add_int (nested, 1);
  for (guint i = 0; i <= GNN_GRAPH_JSON_MAX_ARGS_DEPTH; i++)
    {
      GnnArgs *outer = gnn_args_new ();

      if (!G_IS_VALUE (&v))
        g_value_init (&v, GNN_TYPE_ARGS);
      g_value_set_object (&v, nested);
      gnn_args_add_value (outer, &v);
      g_object_unref (nested);
      nested = outer;
    }
  gnn_graph_call_function (g, "f", nested, &error);
  g_assert_no_error (error);
  gnn_graph_inserting_before (g, NULL);
  json = gnn_graph_to_json (g, FALSE, &error);
  g_assert_null (json);
  g_assert_nonnull (strstr (error->message, "node 'mul': an argument of type GnnTensor"));
  g_clear_error (&error);
  gnn_graph_erase_node (g, gnn_graph_find_node (g, "mul"), &error);
  g_assert_no_error (error);
  json = gnn_graph_to_json (g, FALSE, &error);
  g_assert_null (json);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "graph JSON: node 'f': its arguments nest tuples deeper than 64 levels"));
  g_clear_error (&error);

  /* a graph that does not lint (no output) would not read back */
  gnn_graph_placeholder (open, "x", &error);
  g_assert_no_error (error);
  json = gnn_graph_to_json (open, FALSE, &error);
  g_assert_null (json);
  g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "graph JSON: the graph has no output node"));
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
  g_test_add_func ("/fx/graph/json-round-trip", test_json_round_trip);
  g_test_add_func ("/fx/graph/json-refused", test_json_refused);
  g_test_add_func ("/fx/graph/json-write-refused", test_json_write_refused);
  return g_test_run ();
}
