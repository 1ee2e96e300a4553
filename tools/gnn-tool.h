/* gnn-tool.h: what the command-line tools share (not installed)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gnn/gnn.h>

G_BEGIN_DECLS

/* Finds @name in @dir, gzipped (NAME.gz, preferred) or not; NULL when neither exists. */
char       *gnn_tool_find_data_file (const char *dir,
                                     const char *name);

/* The IDX images and labels @images_name / @labels_name of @dir as a dataset; @limit > 0
 * keeps the first @limit samples. A missing file is a G_FILE_ERROR_NOENT naming it. */
GnnDataset *gnn_tool_load_split     (const char *dir,
                                     const char *images_name,
                                     const char *labels_name,
                                     int         limit,
                                     GError    **error);

/* gnn-train's default model: two conv-BN-ReLU-pool blocks and a two-layer classifier. */
GnnModule  *gnn_tool_default_model  (GError    **error);

/* One training step of a classifier on @batch (images, labels): zero_grad, forward,
 * cross-entropy, backward, optimizer step; the loss's value in @loss_value. */
gboolean    gnn_tool_classifier_step (GnnModule    *model,
                                      GnnOptimizer *optimizer,
                                      GPtrArray    *batch,
                                      double       *loss_value,
                                      GError      **error);

G_END_DECLS
