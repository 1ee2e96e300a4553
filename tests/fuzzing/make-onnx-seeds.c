/* make-onnx-seeds.c: the seed corpus of fuzz-onnx, written at build time by gnn's own ONNX
 * exporter (no ONNX file is kept in the tree): a Linear + ReLU + add graph with and without
 * dynamic axes, and a Conv2d + BatchNorm2d + MaxPool2d + Flatten graph.
 *   make-onnx-seeds FOLDER
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "gnn.h"

static GnnArgs *
args_of (GnnGraphNode *n)
{
  GnnArgs *args = gnn_args_new ();
  g_auto(GValue) v = G_VALUE_INIT;

  g_value_init (&v, GNN_TYPE_GRAPH_NODE);
  g_value_set_object (&v, n);
  gnn_args_add_value (args, &v);
  return args;
}

/* x -> each of @paths in turn (call_module) -> output, each node given the shape @shapes[i] */
static gboolean
write_chain (GnnModule           *root,
             const char * const  *paths,
             const gint64 *const *shapes,
             const guint         *ranks,
             GVariant            *axes,
             const char          *file,
             GError             **error)
{
  g_autoptr(GnnGraph) g = gnn_graph_new ();
  GnnGraphNode *node = gnn_graph_placeholder (g, "x", error);
  g_autoptr(GnnArgs) out = NULL;

  if (node == NULL)
    return FALSE;
  gnn_graph_node_set_tensor_meta (node, shapes[0], ranks[0], GNN_DTYPE_FLOAT32);
  for (guint i = 0; paths[i]; i++)
    {
      g_autoptr(GnnArgs) a = args_of (node);

      if ((node = gnn_graph_call_module (g, paths[i], a, error)) == NULL)
        return FALSE;
      gnn_graph_node_set_tensor_meta (node, shapes[i + 1], ranks[i + 1], GNN_DTYPE_FLOAT32);
    }
  out = args_of (node);
  if (gnn_graph_output (g, out, error) == NULL)
    return FALSE;
  return gnn_onnx_export (g, root, NULL, NULL, axes, 17, file, error);
}

int
main (int argc, char *argv[])
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnModule) mlp = NULL, cnn = NULL;
  g_autofree char *a = NULL, *b = NULL, *c = NULL;
  g_autoptr(GVariant) axes = NULL;
  static const gint64 s0[] = { 2, 3 }, s1[] = { 2, 4 };
  static const gint64 c0[] = { 1, 1, 6, 6 }, c1[] = { 1, 2, 4, 4 }, c3[] = { 1, 2, 2, 2 }, c4[] = { 1, 8 };
  const char *mlp_paths[] = { "0", "1", NULL }, *cnn_paths[] = { "0", "1", "2", "3", NULL };
  const gint64 *mlp_shapes[] = { s0, s1, s1 }, *cnn_shapes[] = { c0, c1, c1, c3, c4 };
  const guint mlp_ranks[] = { 2, 2, 2 }, cnn_ranks[] = { 4, 4, 4, 4, 2 };
  const gint64 k3[2] = { 3, 3 }, k2[2] = { 2, 2 };
  GnnModule *layers[4];

  if (argc != 2)
    {
      g_printerr ("usage: make-onnx-seeds FOLDER\n");
      return 2;
    }
  if (g_mkdir_with_parents (argv[1], 0755) != 0)
    return 1;
  layers[0] = GNN_MODULE (gnn_linear_new (3, 4, TRUE, &error));
  layers[1] = GNN_MODULE (gnn_relu_new ());
  g_assert_no_error (error);
  mlp = GNN_MODULE (gnn_sequential_new (layers, 2));
  for (guint i = 0; i < 2; i++)
    g_object_unref (layers[i]);
  layers[0] = GNN_MODULE (gnn_conv2d_new (1, 2, k3, NULL, NULL, NULL, 1, TRUE, GNN_DTYPE_FLOAT32, &error));
  g_assert_no_error (error);
  layers[1] = GNN_MODULE (gnn_batch_norm2d_new (2, &error));
  layers[2] = GNN_MODULE (gnn_max_pool2d_new (k2, NULL, NULL, NULL, FALSE));
  layers[3] = GNN_MODULE (gnn_flatten_new (1, -1));
  cnn = GNN_MODULE (gnn_sequential_new (layers, 4));
  for (guint i = 0; i < 4; i++)
    g_object_unref (layers[i]);
  a = g_build_filename (argv[1], "mlp.onnx", NULL);
  b = g_build_filename (argv[1], "mlp-dynamic.onnx", NULL);
  c = g_build_filename (argv[1], "cnn.onnx", NULL);
  axes = g_variant_ref_sink (g_variant_new_parsed ("{'x': {0: 'batch'}}"));
  if (!write_chain (mlp, mlp_paths, mlp_shapes, mlp_ranks, NULL, a, &error) ||
      !write_chain (mlp, mlp_paths, mlp_shapes, mlp_ranks, axes, b, &error) ||
      !write_chain (cnn, cnn_paths, cnn_shapes, cnn_ranks, NULL, c, &error))
    {
      g_printerr ("make-onnx-seeds: %s\n", error->message);
      return 1;
    }
  return 0;
}
