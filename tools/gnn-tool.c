/* gnn-tool.c: what the command-line tools share (not installed)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "gnn-tool.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

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

const char *
gnn_tool_require_metadata (GnnCheckpoint  *ckpt,
                           const char     *path,
                           const char     *what,
                           const char     *key,
                           GError        **error)
{
  const char *value = gnn_checkpoint_get_metadata (ckpt, key);

  if (value == NULL)
    g_set_error (error, GNN_ERROR, GNN_ERROR_FILE_FORMAT,
                 "%s: expected a %s checkpoint with the metadata key '%s', found none", path, what, key);
  return value;
}

gboolean
gnn_tool_metadata_int (GnnCheckpoint  *ckpt,
                       const char     *path,
                       const char     *what,
                       const char     *key,
                       gint64          max,
                       gint64         *out,
                       GError        **error)
{
  const char *value = gnn_tool_require_metadata (ckpt, path, what, key, error);
  char *end = NULL;

  if (value == NULL)
    return FALSE;
  *out = g_ascii_strtoll (value, &end, 10);
  if (end == value || *end != '\0' || *out < 0 || *out > max)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_FILE_FORMAT,
                   "%s: expected %s to be an integer from 0 to %" G_GINT64_FORMAT ", found '%s'",
                   path, key, max, value);
      return FALSE;
    }
  return TRUE;
}

static const GnnToolRunOption *
run_option (const GnnToolOptionTable *table,
            guint                     i)
{
  return (const GnnToolRunOption *) ((const char *) table->first + i * table->stride);
}

void
gnn_tool_save_options (GnnCheckpoint            *ckpt,
                       const char               *prefix,
                       const GnnToolOptionTable *table,
                       gconstpointer             opts)
{
  for (guint i = 0; i < table->n; i++)
    {
      g_autofree char *key = g_strconcat (prefix, run_option (table, i)->key, NULL);
      g_autofree char *value = table->to_string (opts, i);

      gnn_checkpoint_set_metadata (ckpt, key, value);
    }
}

gboolean
gnn_tool_resume_options (GnnCheckpoint            *ckpt,
                         const char               *path,
                         const char               *what,
                         const char               *prefix,
                         const GnnToolOptionTable *table,
                         gpointer                  opts,
                         char                    **overrides,
                         GError                  **error)
{
  g_autoptr(GString) said = g_string_new (NULL);

  for (guint i = 0; i < table->n; i++)
    {
      const GnnToolRunOption *option = run_option (table, i);
      const char *key = option->key;
      g_autofree char *meta_key = g_strconcat (prefix, key, NULL);
      const char *value = gnn_checkpoint_get_metadata (ckpt, meta_key);

      if (value == NULL && option->evaluation_only)
        continue;
      if (value == NULL && gnn_tool_require_metadata (ckpt, path, what, meta_key, error) == NULL)
        return FALSE;
      if (table->given (opts, i))
        {
          g_autofree char *given = table->to_string (opts, i);

          if (g_str_equal (given, value))
            continue;
          if (!option->evaluation_only)
            {
              g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                           "--%s %s differs from the value in the checkpoint %s (%s): leave it out "
                           "to continue that run", key, given, path, value);
              return FALSE;
            }
          g_string_append_printf (said, "%s--%s %s (the checkpoint's: %s)", said->len ? ", " : "", key,
                                  given, value);
          continue;
        }
      if (!table->from_string (opts, i, value))
        {
          g_set_error (error, GNN_ERROR, GNN_ERROR_FILE_FORMAT,
                       "%s: the option %s has the unreadable value '%s'", path, key, value);
          return FALSE;
        }
    }
  *overrides = said->len ? g_string_free (g_steal_pointer (&said), FALSE) : NULL;
  return TRUE;
}

static volatile sig_atomic_t interrupted = 0;

static void
on_sigint (int signum)
{
  interrupted = 1;
}

void
gnn_tool_install_sigint (void)
{
  struct sigaction sa;

  memset (&sa, 0, sizeof sa);
  sa.sa_handler = on_sigint;
  sigemptyset (&sa.sa_mask);
  sa.sa_flags = SA_RESETHAND;   /* a second Ctrl-C ends the program at once */
  sigaction (SIGINT, &sa, NULL);
}

gboolean
gnn_tool_interrupted (void)
{
  return interrupted != 0;
}

gboolean
gnn_tool_on_terminal (void)
{
  static gsize checked = 0;
  static gboolean on_terminal = FALSE;

  if (g_once_init_enter (&checked))
    {
      on_terminal = isatty (STDOUT_FILENO) && g_strcmp0 (g_getenv ("TERM"), "dumb") != 0;
      g_once_init_leave (&checked, 1);
    }
  return on_terminal;
}

int
gnn_tool_terminal_width (void)
{
  struct winsize ws;
  const char *columns;

  if (ioctl (STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
    return ws.ws_col;
  columns = g_getenv ("COLUMNS");
  if (columns && atoi (columns) > 0)
    return atoi (columns);
  return 80;
}

char *
gnn_tool_format_duration (double seconds)
{
  int s = (int) (seconds + 0.5);

  if (s >= 3600)
    return g_strdup_printf ("%d:%02d:%02d", s / 3600, s / 60 % 60, s % 60);
  return g_strdup_printf ("%d:%02d", s / 60, s % 60);
}
