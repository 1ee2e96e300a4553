/* gnn-tool.c: what the command-line tools share (not installed)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "gnn-tool.h"

char *
gnn_tool_find_data_file (const char *dir,
                         const char *name)
{
  g_autofree char *gz_name = g_strconcat (name, ".gz", NULL);
  g_autofree char *gz = g_build_filename (dir, gz_name, NULL);
  g_autofree char *raw = g_build_filename (dir, name, NULL);

  if (g_file_test (gz, G_FILE_TEST_IS_REGULAR))
    return g_steal_pointer (&gz);
  if (g_file_test (raw, G_FILE_TEST_IS_REGULAR))
    return g_steal_pointer (&raw);
  return NULL;
}

GnnDataset *
gnn_tool_load_split (const char  *dir,
                     const char  *images_name,
                     const char  *labels_name,
                     int          limit,
                     GError     **error)
{
  g_autofree char *images = gnn_tool_find_data_file (dir, images_name);
  g_autofree char *labels = gnn_tool_find_data_file (dir, labels_name);
  g_autoptr(GnnTensorDataset) full = NULL;
  GnnTensor *narrowed[2] = { NULL, NULL };
  GnnTensorDataset *part;

  if (images == NULL || labels == NULL)
    {
      const char *missing = images ? labels_name : images_name;

      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_NOENT,
                   "Fashion-MNIST not found: expected %s.gz (or %s) in %s; install Debian's "
                   "dataset-fashion-mnist package or pass --data-dir DIR", missing, missing, dir);
      return NULL;
    }
  full = gnn_tensor_dataset_new_idx (images, labels, error);
  if (full == NULL)
    return NULL;
  if (limit <= 0 || (guint) limit >= gnn_dataset_get_length (GNN_DATASET (full)))
    return GNN_DATASET (g_steal_pointer (&full));
  for (guint i = 0; i < 2; i++)
    if ((narrowed[i] = gnn_tensor_narrow (gnn_tensor_dataset_get_tensor (full, i), 0, 0, limit,
                                          error)) == NULL)
      {
        g_clear_object (&narrowed[0]);
        return NULL;
      }
  part = gnn_tensor_dataset_new (narrowed, 2, error);
  g_object_unref (narrowed[0]);
  g_object_unref (narrowed[1]);
  return part ? GNN_DATASET (part) : NULL;
}

GnnModule *
gnn_tool_default_model (GError **error)
{
  const gint64 k3[2] = { 3, 3 }, pad1[2] = { 1, 1 }, k2[2] = { 2, 2 };
  GnnModule *layers[13] = { NULL };
  GnnModule *model = NULL;
  guint n = 0;

#define ADD(expr) G_STMT_START { if ((layers[n] = GNN_MODULE (expr)) == NULL) goto out; n++; } G_STMT_END
  ADD (gnn_conv2d_new (1, 32, k3, NULL, pad1, NULL, 1, TRUE, GNN_DTYPE_FLOAT32, error));
  ADD (gnn_batch_norm2d_new (32, error));
  ADD (gnn_relu_new ());
  ADD (gnn_max_pool2d_new (k2, NULL, NULL, NULL, FALSE));
  ADD (gnn_conv2d_new (32, 64, k3, NULL, pad1, NULL, 1, TRUE, GNN_DTYPE_FLOAT32, error));
  ADD (gnn_batch_norm2d_new (64, error));
  ADD (gnn_relu_new ());
  ADD (gnn_max_pool2d_new (k2, NULL, NULL, NULL, FALSE));
  ADD (gnn_flatten_new (1, -1));
  ADD (gnn_linear_new (64 * 7 * 7, 128, TRUE, error));
  ADD (gnn_relu_new ());
  ADD (gnn_dropout_new (0.25, error));
  ADD (gnn_linear_new (128, 10, TRUE, error));
#undef ADD
  model = GNN_MODULE (gnn_sequential_new (layers, n));
out:
  for (guint i = 0; i < n; i++)
    g_object_unref (layers[i]);
  return model;
}

gboolean
gnn_tool_classifier_step (GnnModule    *model,
                          GnnOptimizer *optimizer,
                          GPtrArray    *batch,
                          double       *loss_value,
                          GError      **error)
{
  g_autoptr(GnnTensor) logits = NULL;
  g_autoptr(GnnTensor) loss = NULL;
  GError *local_error = NULL;

  gnn_optimizer_zero_grad (optimizer, TRUE);
  if ((logits = gnn_module_forward_tensor (model, g_ptr_array_index (batch, 0), error)) == NULL ||
      (loss = gnn_tensor_cross_entropy (logits, g_ptr_array_index (batch, 1), NULL, -100, GNN_REDUCTION_MEAN,
                                        0.0, error)) == NULL ||
      !gnn_tensor_backward (loss, NULL, FALSE, error) ||
      !gnn_optimizer_step (optimizer, error))
    return FALSE;
  *loss_value = gnn_tensor_item (loss, &local_error);
  if (local_error != NULL)
    {
      g_propagate_error (error, local_error);
      return FALSE;
    }
  return TRUE;
}
