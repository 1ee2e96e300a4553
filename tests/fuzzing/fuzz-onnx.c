/* fuzz-onnx.c: libFuzzer target for the ONNX reader (gnn/onnx/gnn-onnx-model.c)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Any input must give either a model whose nodes, initializers, inputs and outputs can all be
 * read, or a GNN_ERROR_FILE_FORMAT / GNN_ERROR_DTYPE / GNN_ERROR_NOT_SUPPORTED error: never a
 * crash, a read past the buffer, a stack overflow, a leak, or another error.
 */
#include "config.h"

#include "gnn.h"

int LLVMFuzzerTestOneInput (const guint8 *data, size_t size);

int
LLVMFuzzerTestOneInput (const guint8 *data,
                        size_t        size)
{
  g_autoptr(GBytes) bytes = g_bytes_new (data, size);
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnOnnxModel) model = gnn_onnx_model_new_from_bytes (bytes, &error);
  g_auto(GStrv) names = NULL;

  if (model == NULL)
    {
      g_assert_true (g_error_matches (error, GNN_ERROR, GNN_ERROR_FILE_FORMAT) ||
                     g_error_matches (error, GNN_ERROR, GNN_ERROR_DTYPE) ||
                     g_error_matches (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED));
      return 0;
    }
  g_assert_no_error (error);
  for (guint i = 0; i < gnn_onnx_model_get_n_nodes (model); i++)
    g_assert_true (g_variant_is_of_type (gnn_onnx_model_get_node (model, i),
                                         G_VARIANT_TYPE ("(sssasasa{sv})")));
  names = gnn_onnx_model_get_initializer_names (model);
  for (guint i = 0; names[i]; i++)
    g_assert_nonnull (gnn_onnx_model_get_initializer (model, names[i]));
  g_assert_nonnull (gnn_onnx_model_get_inputs (model));
  g_assert_nonnull (gnn_onnx_model_get_outputs (model));
  return 0;
}
