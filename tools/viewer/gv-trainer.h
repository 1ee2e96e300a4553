/* gv-trainer.h: gnn-viewer's training, one step at a time on a worker thread
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gnn/gnn.h>

G_BEGIN_DECLS

#define GV_TYPE_TRAINER (gv_trainer_get_type ())
G_DECLARE_FINAL_TYPE (GvTrainer, gv_trainer, GV, TRAINER, GObject)

/* Trains on Fashion-MNIST's training images in @data_dir (the first @limit, or all for 0) in
 * batches of @batch_size with AdamW at @lr, the batch order from @seed; @max_steps > 0 stops
 * after that many steps. */
GvTrainer    *gv_trainer_new           (const char *data_dir,
                                        int         limit,
                                        int         batch_size,
                                        double      lr,
                                        gint64      seed,
                                        gint64      max_steps);

/* The model trained (NULL: none) and the nodes of its tree, whose statistics the hooks fill.
 * Stops training and starts again from step 0, with a new optimizer. */
void          gv_trainer_set_model     (GvTrainer  *self,
                                        GnnModule  *model,
                                        GPtrArray  *nodes);

/* Asks for steps, one after the other, until gv_trainer_stop (or --train-steps). FALSE with
 * @error when it cannot train (no data, no model). */
gboolean      gv_trainer_start         (GvTrainer  *self,
                                        GError    **error);
void          gv_trainer_stop          (GvTrainer  *self);

/* Profiles the next step dispatched (the "profiled" signal hands its profiler over); when not
 * training, starts training for that step alone. FALSE with @error when it cannot train. */
gboolean      gv_trainer_profile_step  (GvTrainer  *self,
                                        GError    **error);
/* whether a step asked to be profiled has not completed yet */
gboolean      gv_trainer_get_profile_pending (GvTrainer *self);
/* profiles step @step (1 for the first; 0: none) when it runs */
void          gv_trainer_set_profile_at (GvTrainer *self,
                                        gint64      step);

/* whether steps are asked for; whether one runs now on the worker thread */
gboolean      gv_trainer_get_training  (GvTrainer  *self);
gboolean      gv_trainer_get_in_flight (GvTrainer  *self);
/* whether --train-steps steps are done */
gboolean      gv_trainer_get_finished  (GvTrainer  *self);

gint64        gv_trainer_get_steps     (GvTrainer  *self);
guint         gv_trainer_get_epoch     (GvTrainer  *self);
guint         gv_trainer_get_batch     (GvTrainer  *self);
/* the loss of every step so far (double) */
GArray       *gv_trainer_get_losses    (GvTrainer  *self);
double        gv_trainer_get_samples_per_second (GvTrainer *self);
/* the seed of the batch order (and of the default model) */
gint64        gv_trainer_get_seed      (GvTrainer  *self);
/* the longest step so far, in microseconds */
gint64        gv_trainer_get_longest_step (GvTrainer *self);

G_END_DECLS
