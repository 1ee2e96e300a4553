/* gv-training-page.h: gnn-viewer's Training page: the loss curve and where the training is
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <adwaita.h>
#include "gv-trainer.h"

G_BEGIN_DECLS

#define GV_TYPE_TRAINING_PAGE (gv_training_page_get_type ())
G_DECLARE_FINAL_TYPE (GvTrainingPage, gv_training_page, GV, TRAINING_PAGE, AdwBin)

/* The trainer shown (its steps update the page). */
void gv_training_page_set_trainer (GvTrainingPage *self,
                                   GvTrainer      *trainer,
                                   gint64          planned_steps);

/* Shows the trainer's state again (after another model was opened). */
void gv_training_page_update      (GvTrainingPage *self);

G_END_DECLS
