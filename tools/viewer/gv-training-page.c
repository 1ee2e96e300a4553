/* gv-training-page.c: gnn-viewer's Training page: the loss curve and where the training is
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "gv-training-page.h"
#include "gv-format.h"
#include "gv-loss-plot.h"

#include <glib/gi18n.h>

enum { FIG_STEP, FIG_EPOCH, FIG_LOSS, FIG_SPEED, N_FIGURES };

struct _GvTrainingPage
{
  AdwBin      parent_instance;

  GtkStack   *stack;
  GtkBox     *figures;
  GvLossPlot *plot;
  GtkLabel   *state;
  GtkLabel   *values[N_FIGURES];

  GvTrainer  *trainer;
  gint64      planned_steps;
};

G_DEFINE_FINAL_TYPE (GvTrainingPage, gv_training_page, ADW_TYPE_BIN)

void
gv_training_page_update (GvTrainingPage *self)
{
  GArray *losses;
  gint64 steps;
  g_autofree char *step = NULL, *epoch = NULL, *loss = NULL, *speed = NULL;

  if (self->trainer == NULL)
    return;
  losses = gv_trainer_get_losses (self->trainer);
  steps = gv_trainer_get_steps (self->trainer);
  gtk_stack_set_visible_child_name (self->stack, steps > 0 || gv_trainer_get_training (self->trainer)
                                                 ? "curve" : "empty");
  gv_loss_plot_set_losses (self->plot, losses, self->planned_steps);
  step = gv_format_count (steps);
  epoch = g_strdup_printf (_("%u, batch %u"), gv_trainer_get_epoch (self->trainer) + 1,
                           gv_trainer_get_batch (self->trainer));
  loss = losses->len ? gv_format_value (g_array_index (losses, double, losses->len - 1)) : g_strdup ("—");
  speed = steps > 0 ? gv_format_count ((gint64) (gv_trainer_get_samples_per_second (self->trainer) + 0.5))
                    : g_strdup ("—");
  gtk_label_set_text (self->values[FIG_STEP], step);
  gtk_label_set_text (self->values[FIG_EPOCH], epoch);
  gtk_label_set_text (self->values[FIG_LOSS], loss);
  gtk_label_set_text (self->values[FIG_SPEED], speed);
  gtk_label_set_text (self->state,
                      gv_trainer_get_training (self->trainer) ? _("Training on Fashion-MNIST with AdamW") :
                      gv_trainer_get_finished (self->trainer) ? _("Done: the steps asked for ran") :
                      _("Paused"));
}

static void
on_trainer_changed (GvTrainingPage *self)
{
  gv_training_page_update (self);
}

void
gv_training_page_set_trainer (GvTrainingPage *self,
                              GvTrainer      *trainer,
                              gint64          planned_steps)
{
  if (self->trainer)
    g_signal_handlers_disconnect_by_data (self->trainer, self);
  g_set_object (&self->trainer, trainer);
  self->planned_steps = planned_steps;
  if (trainer)
    {
      g_signal_connect_swapped (trainer, "step-done", G_CALLBACK (on_trainer_changed), self);
      g_signal_connect_swapped (trainer, "notify::training", G_CALLBACK (on_trainer_changed), self);
    }
  gv_training_page_update (self);
}

static void
gv_training_page_dispose (GObject *object)
{
  GvTrainingPage *self = GV_TRAINING_PAGE (object);

  gv_training_page_set_trainer (self, NULL, 0);
  gtk_widget_dispose_template (GTK_WIDGET (self), GV_TYPE_TRAINING_PAGE);
  G_OBJECT_CLASS (gv_training_page_parent_class)->dispose (object);
}

static void
gv_training_page_class_init (GvTrainingPageClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  G_OBJECT_CLASS (klass)->dispose = gv_training_page_dispose;
  g_type_ensure (GV_TYPE_LOSS_PLOT);
  gtk_widget_class_set_template_from_resource (widget_class, "/org/gnn/Viewer/gv-training-page.ui");
  gtk_widget_class_bind_template_child (widget_class, GvTrainingPage, stack);
  gtk_widget_class_bind_template_child (widget_class, GvTrainingPage, figures);
  gtk_widget_class_bind_template_child (widget_class, GvTrainingPage, plot);
  gtk_widget_class_bind_template_child (widget_class, GvTrainingPage, state);
}

static void
gv_training_page_init (GvTrainingPage *self)
{
  const char *titles[N_FIGURES] = { _("Step"), _("Epoch"), _("Loss"), _("Samples/s") };

  gtk_widget_init_template (GTK_WIDGET (self));
  for (int i = 0; i < N_FIGURES; i++)
    {
      GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
      GtkWidget *title = gtk_label_new (titles[i]);
      GtkWidget *value = gtk_label_new ("—");

      gtk_label_set_xalign (GTK_LABEL (title), 0);
      gtk_widget_add_css_class (title, "caption-heading");
      gtk_widget_add_css_class (title, "dim-label");
      gtk_label_set_xalign (GTK_LABEL (value), 0);
      gtk_widget_add_css_class (value, "title-2");
      gtk_widget_add_css_class (value, "numeric");
      gtk_box_append (GTK_BOX (box), title);
      gtk_box_append (GTK_BOX (box), value);
      gtk_box_append (self->figures, box);
      self->values[i] = GTK_LABEL (value);
    }
}
