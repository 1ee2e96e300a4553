/* gv-loss-plot.h: the training loss, raw and smoothed, over the steps
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define GV_TYPE_LOSS_PLOT (gv_loss_plot_get_type ())
G_DECLARE_FINAL_TYPE (GvLossPlot, gv_loss_plot, GV, LOSS_PLOT, GtkWidget)

GtkWidget *gv_loss_plot_new        (void);

/* The losses of steps 1, 2, ... (double, referenced); the x axis reaches at least
 * @planned_steps (0: as many as there are). */
void       gv_loss_plot_set_losses (GvLossPlot *self,
                                    GArray     *losses,
                                    gint64      planned_steps);

/* The smoothed curve: an exponential moving average of weight @weight, corrected for its
 * start as TensorBoard's is (the first points are not pulled towards 0). */
double    *gv_loss_plot_smooth     (const double *values,
                                    guint         n,
                                    double        weight);

G_END_DECLS
