/* gv-model-io.c: the files gnn-viewer opens
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "gv-model-io.h"

#include <glib/gi18n.h>

static gboolean
load_weights (GnnModule    *model,
              GnnStateDict *state,
              GError      **error)
{
  return gnn_module_load_state_dict (model, state, TRUE, FALSE, NULL, NULL, error);
}

GnnModule *
gv_load_model (const char  *model_file,
               const char  *weights_file,
               const char  *checkpoint_file,
               GError     **error)
{
  g_autoptr(GnnModule) model = NULL;

  if (model_file)
    {
      g_autofree char *json = NULL;
      gsize length;

      if (!g_file_get_contents (model_file, &json, &length, error) ||
          (model = gnn_module_new_from_json (json, length, error)) == NULL)
        {
          g_prefix_error (error, "%s: ", model_file);
          return NULL;
        }
    }
  if (checkpoint_file)
    {
      g_autoptr(GnnModule) saved = gnn_checkpoint_load_model (checkpoint_file, error);
      g_autoptr(GnnStateDict) state = NULL;

      if (saved == NULL)
        {
          g_prefix_error (error, "%s: ", checkpoint_file);
          return NULL;
        }
      if (model == NULL)
        return g_steal_pointer (&saved);
      if ((state = gnn_module_state_dict (saved, NULL, FALSE, error)) == NULL ||
          !load_weights (model, state, error))
        {
          g_prefix_error (error, "%s into %s: ", checkpoint_file, model_file);
          return NULL;
        }
    }
  if (weights_file)
    {
      g_autoptr(GnnStateDict) state = NULL;

      if (model == NULL)
        {
          g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_FAILED,
                       _("%s: a state dict holds no module tree: expected --model FILE.json with "
                         "--weights, found none (or give a checkpoint with --checkpoint)"),
                       weights_file);
          return NULL;
        }
      if ((state = gnn_safetensors_load (weights_file, NULL, error)) == NULL ||
          !load_weights (model, state, error))
        {
          g_prefix_error (error, "%s: ", weights_file);
          return NULL;
        }
    }
  return g_steal_pointer (&model);
}

GnnModule *
gv_open_file (const char  *path,
              GnnModule   *current,
              GError     **error)
{
  if (g_str_has_suffix (path, ".json"))
    return gv_load_model (path, NULL, NULL, error);
  if (g_str_has_suffix (path, ".safetensors"))
    {
      g_autofree char *json = gnn_checkpoint_peek_model_json (path, NULL);
      g_autoptr(GnnModule) copy = NULL;
      g_autoptr(GnnStateDict) state = NULL;

      if (json != NULL)
        return gv_load_model (NULL, NULL, path, error);
      /* a plain state dict: weights for the model shown, into a copy of it */
      if (current == NULL)
        {
          g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
                       _("%s: a state dict holds no module tree: open the model's JSON first"), path);
          return NULL;
        }
      if ((copy = gnn_module_copy (current, error)) == NULL ||
          (state = gnn_safetensors_load (path, NULL, error)) == NULL ||
          !load_weights (copy, state, error))
        {
          g_prefix_error (error, "%s: ", path);
          return NULL;
        }
      return g_steal_pointer (&copy);
    }
  g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
               _("%s: expected a module JSON (.json), a checkpoint or a state dict (.safetensors)"), path);
  return NULL;
}
