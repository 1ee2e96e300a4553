/* gnn-checkpoint.h: one file holding a model, its optimizer, scheduler and averages
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined (GNN_INSIDE) && !defined (GNN_COMPILATION)
#error "Only <gnn/gnn.h> can be included directly."
#endif

#include <glib-object.h>
#include "../gnn-version-macros.h"
#include "../core/gnn-generator.h"
#include "../nn/gnn-module.h"
#include "../optim/gnn-optimizer.h"
#include "../optim/gnn-lr-scheduler.h"
#include "../optim/gnn-averaged-model.h"

G_BEGIN_DECLS

#define GNN_TYPE_CHECKPOINT (gnn_checkpoint_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnCheckpoint, gnn_checkpoint, GNN, CHECKPOINT, GObject)

GNN_AVAILABLE_IN_ALL
GnnCheckpoint    *gnn_checkpoint_new                 (void);

GNN_AVAILABLE_IN_ALL
void              gnn_checkpoint_set_model           (GnnCheckpoint    *self,
                                                      GnnModule        *model);
GNN_AVAILABLE_IN_ALL
GnnModule        *gnn_checkpoint_get_model           (GnnCheckpoint    *self);
GNN_AVAILABLE_IN_ALL
void              gnn_checkpoint_set_optimizer       (GnnCheckpoint    *self,
                                                      GnnOptimizer     *optimizer);
GNN_AVAILABLE_IN_ALL
GnnOptimizer     *gnn_checkpoint_get_optimizer       (GnnCheckpoint    *self);
GNN_AVAILABLE_IN_ALL
void              gnn_checkpoint_set_scheduler       (GnnCheckpoint    *self,
                                                      GnnLRScheduler   *scheduler);
GNN_AVAILABLE_IN_ALL
GnnLRScheduler   *gnn_checkpoint_get_scheduler       (GnnCheckpoint    *self);
GNN_AVAILABLE_IN_ALL
void              gnn_checkpoint_set_generator       (GnnCheckpoint    *self,
                                                      GnnGenerator     *generator);
GNN_AVAILABLE_IN_ALL
GnnGenerator     *gnn_checkpoint_get_generator       (GnnCheckpoint    *self);
GNN_AVAILABLE_IN_ALL
void              gnn_checkpoint_add_averaged_model  (GnnCheckpoint    *self,
                                                      const char       *name,
                                                      GnnAveragedModel *model);
GNN_AVAILABLE_IN_ALL
GnnAveragedModel *gnn_checkpoint_get_averaged_model  (GnnCheckpoint    *self,
                                                      const char       *name);
GNN_AVAILABLE_IN_ALL
char            **gnn_checkpoint_list_averaged_models (GnnCheckpoint   *self);

GNN_AVAILABLE_IN_ALL
void              gnn_checkpoint_set_metadata        (GnnCheckpoint    *self,
                                                      const char       *key,
                                                      const char       *value);
GNN_AVAILABLE_IN_ALL
const char       *gnn_checkpoint_get_metadata        (GnnCheckpoint    *self,
                                                      const char       *key);
GNN_AVAILABLE_IN_ALL
char            **gnn_checkpoint_list_metadata       (GnnCheckpoint    *self);

GNN_AVAILABLE_IN_ALL
gboolean          gnn_checkpoint_save                (GnnCheckpoint    *self,
                                                      const char       *path,
                                                      GError          **error);
GNN_AVAILABLE_IN_ALL
gboolean          gnn_checkpoint_load                (GnnCheckpoint    *self,
                                                      const char       *path,
                                                      GError          **error);

GNN_AVAILABLE_IN_ALL
char             *gnn_checkpoint_peek_model_json     (const char       *path,
                                                      GError          **error);
GNN_AVAILABLE_IN_ALL
GnnModule        *gnn_checkpoint_load_model          (const char       *path,
                                                      GError          **error);

G_END_DECLS
