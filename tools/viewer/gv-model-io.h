/* gv-model-io.h: the files gnn-viewer opens
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gnn/gnn.h>

G_BEGIN_DECLS

/* A model from a JSON tree (@model_file), weights from a safetensors state dict
 * (@weights_file) or a checkpoint (@checkpoint_file, which alone is enough: it holds the JSON
 * tree). NULL with @error set on failure (the message names the file); NULL without an error
 * when no file was given. */
GnnModule *gv_load_model (const char  *model_file,
                          const char  *weights_file,
                          const char  *checkpoint_file,
                          GError     **error);

/* Opens @path as File ▸ Open does: a module JSON (.json), a checkpoint (.safetensors with a
 * module tree), or a plain safetensors state dict, loaded into a copy of @current (which may
 * be NULL: then a state dict is an error). */
GnnModule *gv_open_file  (const char  *path,
                          GnnModule   *current,
                          GError     **error);

G_END_DECLS
