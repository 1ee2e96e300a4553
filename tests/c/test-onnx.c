/* test-onnx.c: gnn_onnx_export from C, on a graph built by hand (the Python tests check the
 * files against onnx's checker and ONNX Runtime); the errors leave nothing behind under
 * valgrind
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <glib/gstdio.h>
#include <string.h>

#include <gnn/gnn.h>

/* whether the bytes hold @needle (the file is binary: no string search) */
static gboolean
contains (const char *bytes,
          gsize       length,
          const char *needle)
{
  gsize n = strlen (needle);

  for (gsize i = 0; i + n <= length; i++)
    if (memcmp (bytes + i, needle, n) == 0)
      return TRUE;
  return FALSE;
}

static GnnArgs *
args_of_node (GnnGraphNode *a)
{
  GnnArgs *args = gnn_args_new ();
  g_auto(GValue) v = G_VALUE_INIT;

  g_value_init (&v, GNN_TYPE_GRAPH_NODE);
  g_value_set_object (&v, a);
  gnn_args_add_value (args, &v);
  return args;
}

/* x -> linear -> torch.relu -> add (relu, 1) -> output, with shapes for a batch of 2 */
static GnnGraph *
make_graph (gboolean with_shapes)
{
  static const gint64 in_shape[2] = { 2, 3 }, out_shape[2] = { 2, 4 };
  GnnGraph *g = gnn_graph_new ();
  GnnGraphNode *x, *linear, *relu, *add;
  g_autoptr(GnnArgs) a1 = NULL, a2 = NULL, a3 = NULL, a4 = NULL;
  g_autoptr(GError) error = NULL;

  x = gnn_graph_placeholder (g, "x", &error);
  g_assert_no_error (error);
  a1 = args_of_node (x);
  linear = gnn_graph_call_module (g, "linear", a1, &error);
  g_assert_no_error (error);
  a2 = args_of_node (linear);
  relu = gnn_graph_call_function (g, "torch.relu", a2, &error);
  g_assert_no_error (error);
  a3 = args_of_node (relu);
  gnn_args_add_int (a3, 1);
  add = gnn_graph_call_function (g, "operator.add", a3, &error);
  g_assert_no_error (error);
  a4 = args_of_node (add);
  gnn_graph_output (g, a4, &error);
  g_assert_no_error (error);
  if (with_shapes)
    {
      gnn_graph_node_set_tensor_meta (x, in_shape, 2, GNN_DTYPE_FLOAT32);
      gnn_graph_node_set_tensor_meta (linear, out_shape, 2, GNN_DTYPE_FLOAT32);
      gnn_graph_node_set_tensor_meta (relu, out_shape, 2, GNN_DTYPE_FLOAT32);
      gnn_graph_node_set_tensor_meta (add, out_shape, 2, GNN_DTYPE_FLOAT32);
    }
  return g;
}

static GnnModule *
make_root (void)
{
  g_autoptr(GError) error = NULL;
  GnnModule *root = GNN_MODULE (gnn_sequential_new (NULL, 0));
  g_autoptr(GnnLinear) linear = gnn_linear_new (3, 4, TRUE, &error);

  g_assert_no_error (error);
  gnn_module_register_module (root, "linear", GNN_MODULE (linear), &error);
  g_assert_no_error (error);
  return root;
}

static void
test_tensor_meta (void)
{
  g_autoptr(GnnGraph) g = make_graph (TRUE);
  g_autoptr(GPtrArray) nodes = gnn_graph_get_nodes (g);
  guint n_dims = 9;
  GnnDtype dtype = GNN_DTYPE_INT8;
  const gint64 *shape = gnn_graph_node_get_tensor_meta (nodes->pdata[1], &n_dims, &dtype);

  g_assert_nonnull (shape);
  g_assert_cmpuint (n_dims, ==, 2);
  g_assert_cmpint (shape[0], ==, 2);
  g_assert_cmpint (shape[1], ==, 4);
  g_assert_cmpint (dtype, ==, GNN_DTYPE_FLOAT32);
  /* the output node has none */
  g_assert_null (gnn_graph_node_get_tensor_meta (nodes->pdata[4], &n_dims, &dtype));
  g_assert_cmpuint (n_dims, ==, 0);
}

static void
test_export (void)
{
  g_autoptr(GnnGraph) g = make_graph (TRUE);
  g_autoptr(GnnModule) root = make_root ();
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("gnn-onnx-XXXXXX", &error);
  g_autofree char *path = g_build_filename (dir, "m.onnx", NULL);
  g_autofree char *bad = g_build_filename (dir, "bad.onnx", NULL);
  g_autofree char *contents = NULL;
  g_autoptr(GVariant) axes = NULL;
  const char *inputs[] = { "input", NULL }, *outputs[] = { "y", NULL };
  gsize length;

  g_assert_no_error (error);
  if (!gnn_onnx_is_available ())
    {
      g_assert_false (gnn_onnx_export (g, root, NULL, NULL, NULL, 17, path, &error));
      g_assert_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED);
      g_assert_nonnull (strstr (error->message, "libonnx-dev"));
      g_rmdir (dir);
      return;
    }
  axes = g_variant_ref_sink (g_variant_new_parsed ("{'input': {0: 'batch'}, 'y': {0: 'batch'}}"));
  g_assert_true (gnn_onnx_export (g, root, inputs, outputs, axes, 17, path, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (path, &contents, &length, NULL));
  /* the names the file holds: the input, the output, the initializers and the operators */
  g_assert_true (contains (contents, length, "linear.weight"));
  g_assert_true (contains (contents, length, "linear.bias"));
  g_assert_true (contains (contents, length, "Gemm"));
  g_assert_true (contains (contents, length, "Relu"));
  g_assert_true (contains (contents, length, "batch"));
  g_assert_true (contains (contents, length, "gnn"));

  /* errors: an opset out of range, a graph without shapes, a bad dynamic_axes type */
  g_assert_false (gnn_onnx_export (g, root, NULL, NULL, NULL, 18, bad, &error));
  g_assert_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED);
  g_assert_nonnull (strstr (error->message, "opset 18"));
  g_clear_error (&error);
  {
    g_autoptr(GnnGraph) bare = make_graph (FALSE);

    g_assert_false (gnn_onnx_export (bare, root, NULL, NULL, NULL, 17, bad, &error));
    g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
    g_assert_nonnull (strstr (error->message, "node x has no shape"));
    g_clear_error (&error);
  }
  {
    g_autoptr(GVariant) wrong = g_variant_ref_sink (g_variant_new_parsed ("{'input': 0}"));

    g_assert_false (gnn_onnx_export (g, root, NULL, NULL, wrong, 17, bad, &error));
    g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
    g_clear_error (&error);
  }
  {
    /* a root without the submodule the graph calls */
    g_autoptr(GnnModule) empty = GNN_MODULE (gnn_sequential_new (NULL, 0));

    g_assert_false (gnn_onnx_export (g, empty, NULL, NULL, NULL, 17, bad, &error));
    g_assert_error (error, GNN_ERROR, GNN_ERROR_INVALID_ARGUMENT);
    g_assert_nonnull (strstr (error->message, "node linear calls 'linear'"));
    g_clear_error (&error);
  }
  g_assert_false (g_file_test (bad, G_FILE_TEST_EXISTS));

  /* read back: the graph's nodes, initializers, inputs and outputs */
  {
    g_autoptr(GnnOnnxModel) model = gnn_onnx_model_new_from_file (path, &error);
    g_auto(GStrv) names = NULL;
    const char *op_type;
    g_autoptr(GVariant) inputs = NULL;

    g_assert_no_error (error);
    g_assert_cmpint (gnn_onnx_model_get_opset_version (model), ==, 17);
    g_assert_cmpstr (gnn_onnx_model_get_producer_name (model), ==, "gnn");
    g_assert_cmpuint (gnn_onnx_model_get_n_nodes (model), ==, 3);
    g_variant_get_child (gnn_onnx_model_get_node (model, 0), 1, "&s", &op_type);
    g_assert_cmpstr (op_type, ==, "Gemm");
    names = gnn_onnx_model_get_initializer_names (model);
    g_assert_cmpuint (g_strv_length (names), ==, 3);
    g_assert_nonnull (gnn_onnx_model_get_initializer (model, "linear.weight"));
    g_assert_null (gnn_onnx_model_get_initializer (model, "nothing"));
    g_assert_cmpuint (g_variant_n_children (gnn_onnx_model_get_inputs (model)), ==, 1);
    g_assert_true (g_variant_is_of_type (gnn_onnx_model_get_outputs (model), G_VARIANT_TYPE ("a(sia(xs))")));
  }
  /* hostile bytes: every truncation, garbage, and a nesting bomb, each a GError */
  {
    g_autofree char *data = NULL;
    gsize size;
    GByteArray *bomb = g_byte_array_new ();
    g_autoptr(GBytes) bomb_bytes = NULL;
    g_autoptr(GnnOnnxModel) none = NULL;

    g_assert_true (g_file_get_contents (path, &data, &size, NULL));
    for (gsize n = 0; n + 1 < size; n += 3)
      {
        g_autoptr(GBytes) part = g_bytes_new (data, n);
        g_autoptr(GnnOnnxModel) m = gnn_onnx_model_new_from_bytes (part, &error);

        g_assert_null (m);
        g_assert_nonnull (error);
        g_clear_error (&error);
      }
    /* ModelProto.graph -> GraphProto.node -> NodeProto.attribute -> AttributeProto.g -> ...
     * 3000 levels deep, written inside out: each level a field key and a varint length */
    for (int level = 0; level < 3000; level++)
      {
        static const guint8 keys[3] = { (6 << 3) | 2, (5 << 3) | 2, (1 << 3) | 2 };

        for (int k = 0; k < 3; k++)
          {
            guint8 head[11];
            guint len = bomb->len, n = 0;

            head[n++] = keys[k];
            do
              {
                head[n++] = (len & 0x7f) | (len > 0x7f ? 0x80 : 0);
                len >>= 7;
              }
            while (len);
            g_byte_array_prepend (bomb, head, n);
          }
      }
    {
      guint8 head[11];
      guint len = bomb->len, n = 0;

      head[n++] = (7 << 3) | 2;
      do
        {
          head[n++] = (len & 0x7f) | (len > 0x7f ? 0x80 : 0);
          len >>= 7;
        }
      while (len);
      g_byte_array_prepend (bomb, head, n);
    }
    bomb_bytes = g_byte_array_free_to_bytes (bomb);
    none = gnn_onnx_model_new_from_bytes (bomb_bytes, &error);
    g_assert_null (none);
    g_assert_error (error, GNN_ERROR, GNN_ERROR_FILE_FORMAT);
    g_assert_nonnull (strstr (error->message, "nested deeper"));
    g_clear_error (&error);
  }
  g_unlink (path);
  g_rmdir (dir);
}

/* an LSTM with proj_size given (h_0, c_0), unrolled over its sequence, then remainder and
 * cumsum of its output: the forms built from several operators, and their errors, leave
 * nothing behind under valgrind */
static void
test_export_composed (void)
{
  static const gint64 x_shape[3] = { 4, 2, 3 }, h_shape[3] = { 1, 2, 2 }, c_shape[3] = { 1, 2, 5 };
  static const gint64 y_shape[3] = { 4, 2, 2 };
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnGraph) g = gnn_graph_new ();
  g_autoptr(GnnModule) root = GNN_MODULE (gnn_sequential_new (NULL, 0));
  g_autoptr(GnnModule) lstm = NULL;
  g_autoptr(GnnArgs) la = NULL, state = NULL, ga = NULL, ra = NULL, ca = NULL, oa = NULL;
  g_auto(GValue) v = G_VALUE_INIT;
  g_autofree char *dir = g_dir_make_tmp ("gnn-onnx-XXXXXX", &error);
  g_autofree char *path = g_build_filename (dir, "lstm.onnx", NULL);
  g_autofree char *contents = NULL;
  GnnGraphNode *x, *h, *c, *call, *item, *rem, *cum;
  gsize length;

  g_assert_no_error (error);
  if (!gnn_onnx_is_available ())
    {
      g_rmdir (dir);
      return;
    }
  lstm = g_object_new (GNN_TYPE_LSTM, "input-size", 3, "hidden-size", 5, "proj-size", 2, NULL);
  gnn_module_register_module (root, "rnn", lstm, &error);
  g_assert_no_error (error);
  x = gnn_graph_placeholder (g, "x", &error);
  h = gnn_graph_placeholder (g, "h", &error);
  c = gnn_graph_placeholder (g, "c", &error);
  g_assert_no_error (error);
  la = args_of_node (x);
  state = args_of_node (h);
  g_value_init (&v, GNN_TYPE_GRAPH_NODE);
  g_value_set_object (&v, c);
  gnn_args_add_value (state, &v);
  g_value_unset (&v);
  g_value_init (&v, GNN_TYPE_ARGS);
  g_value_set_object (&v, state);
  gnn_args_add_value (la, &v);
  call = gnn_graph_call_module (g, "rnn", la, &error);
  g_assert_no_error (error);
  ga = args_of_node (call);
  gnn_args_add_int (ga, 0);
  item = gnn_graph_call_function (g, "operator.getitem", ga, &error);
  g_assert_no_error (error);
  ra = args_of_node (item);
  gnn_args_add_double (ra, 0.7);
  rem = gnn_graph_call_function (g, "torch.remainder", ra, &error);
  g_assert_no_error (error);
  ca = args_of_node (rem);
  gnn_args_add_int (ca, 0);
  cum = gnn_graph_call_function (g, "torch.cumsum", ca, &error);
  g_assert_no_error (error);
  {
    /* atan2 of the sums and -0.5, and logaddexp of that and the sums */
    g_autoptr(GnnArgs) aa = args_of_node (cum), la2 = NULL;
    GnnGraphNode *angle, *lse;

    gnn_args_add_double (aa, -0.5);
    angle = gnn_graph_call_function (g, "torch.atan2", aa, &error);
    g_assert_no_error (error);
    la2 = args_of_node (angle);
    g_value_unset (&v);
    g_value_init (&v, GNN_TYPE_GRAPH_NODE);
    g_value_set_object (&v, cum);
    gnn_args_add_value (la2, &v);
    g_value_unset (&v);
    lse = gnn_graph_call_function (g, "torch.logaddexp", la2, &error);
    g_assert_no_error (error);
    gnn_graph_node_set_tensor_meta (angle, y_shape, 3, GNN_DTYPE_FLOAT32);
    gnn_graph_node_set_tensor_meta (lse, y_shape, 3, GNN_DTYPE_FLOAT32);
    oa = args_of_node (lse);
  }
  gnn_graph_output (g, oa, &error);
  g_assert_no_error (error);
  gnn_graph_node_set_tensor_meta (x, x_shape, 3, GNN_DTYPE_FLOAT32);
  gnn_graph_node_set_tensor_meta (h, h_shape, 3, GNN_DTYPE_FLOAT32);
  gnn_graph_node_set_tensor_meta (c, c_shape, 3, GNN_DTYPE_FLOAT32);
  gnn_graph_node_set_tensor_meta (item, y_shape, 3, GNN_DTYPE_FLOAT32);
  gnn_graph_node_set_tensor_meta (rem, y_shape, 3, GNN_DTYPE_FLOAT32);
  gnn_graph_node_set_tensor_meta (cum, y_shape, 3, GNN_DTYPE_FLOAT32);

  /* the LSTM is unrolled over the 4 steps of x's traced shape */
  g_assert_true (gnn_onnx_export (g, root, NULL, NULL, NULL, 17, path, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (path, &contents, &length, NULL));
  g_assert_true (contains (contents, length, "rnn.weight_hr_l0"));
  g_assert_true (contains (contents, length, "Split"));
  g_assert_true (contains (contents, length, "Mod"));
  g_assert_true (contains (contents, length, "Xor"));
  g_assert_true (contains (contents, length, "CumSum"));
  g_assert_true (contains (contents, length, "Atan"));
  g_assert_true (contains (contents, length, "Exp"));
  g_assert_false (contains (contents, length, "LSTM"));
  {
    g_autoptr(GnnOnnxModel) model = gnn_onnx_model_new_from_file (path, &error);

    g_assert_no_error (error);
    g_assert_cmpuint (g_variant_n_children (gnn_onnx_model_get_inputs (model)), ==, 3);
  }
  g_unlink (path);

  /* an LSTM's hx is a tuple (h_0, c_0): one tensor is a GError naming the node */
  {
    g_autoptr(GnnGraph) bare = gnn_graph_new ();
    g_autoptr(GnnArgs) ba = NULL, bi = NULL, bo = NULL;
    GnnGraphNode *bx = gnn_graph_placeholder (bare, "x", &error), *bh, *bc, *bg;

    g_assert_no_error (error);
    bh = gnn_graph_placeholder (bare, "h", &error);
    g_assert_no_error (error);
    gnn_graph_node_set_tensor_meta (bx, x_shape, 3, GNN_DTYPE_FLOAT32);
    gnn_graph_node_set_tensor_meta (bh, h_shape, 3, GNN_DTYPE_FLOAT32);
    ba = args_of_node (bx);
    g_value_unset (&v);
    g_value_init (&v, GNN_TYPE_GRAPH_NODE);
    g_value_set_object (&v, bh);
    gnn_args_add_value (ba, &v);
    g_value_unset (&v);
    bc = gnn_graph_call_module (bare, "rnn", ba, &error);
    g_assert_no_error (error);
    bi = args_of_node (bc);
    gnn_args_add_int (bi, 0);
    bg = gnn_graph_call_function (bare, "operator.getitem", bi, &error);
    g_assert_no_error (error);
    gnn_graph_node_set_tensor_meta (bg, y_shape, 3, GNN_DTYPE_FLOAT32);
    bo = args_of_node (bg);
    gnn_graph_output (bare, bo, &error);
    g_assert_no_error (error);
    g_assert_false (gnn_onnx_export (bare, root, NULL, NULL, NULL, 17, path, &error));
    g_assert_error (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED);
    g_assert_nonnull (strstr (error->message, "node rnn: LSTM takes as hx a tuple (h_0, c_0)"));
    g_clear_error (&error);
  }
  g_assert_false (g_file_test (path, G_FILE_TEST_EXISTS));
  g_rmdir (dir);
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/onnx/tensor-meta", test_tensor_meta);
  g_test_add_func ("/onnx/export", test_export);
  g_test_add_func ("/onnx/export-composed", test_export_composed);
  return g_test_run ();
}
