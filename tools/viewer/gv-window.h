/* gv-window.h: gnn-viewer's window: a header bar with the pages' switcher and the primary
 * menu, the pages, and toasts for what went wrong
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <adwaita.h>
#include "gv-modules-page.h"
#include "gv-profile-page.h"
#include "gv-graph-page.h"
#include "gv-trainer.h"

G_BEGIN_DECLS

#define GV_TYPE_WINDOW (gv_window_get_type ())
G_DECLARE_FINAL_TYPE (GvWindow, gv_window, GV, WINDOW, AdwApplicationWindow)

/* A window training with @trainer, which stops after @planned_steps (0: never). */
GvWindow      *gv_window_new          (AdwApplication *app,
                                       GvTrainer      *trainer,
                                       gint64          planned_steps);

/* Shows @model (NULL: none) under @label, replacing the model shown so far. */
void           gv_window_set_model    (GvWindow       *self,
                                       GnnModule      *model,
                                       const char     *label);
GnnModule     *gv_window_get_model    (GvWindow       *self);

/* Opens @path as File ▸ Open does (a chrome trace, a .json object with "traceEvents" in its
 * first 4 KiB, onto the Profile page, which it shows; a .onnx file onto the Graph page, which
 * it shows; a model also onto the Graph page, as its module tree's call order). On failure the error shows in the window (a toast), is
 * returned in @error too, and the model shown stays. */
gboolean       gv_window_open_file    (GvWindow       *self,
                                       const char     *path,
                                       GError        **error);

/* Starts training (the default CNN when no model is shown). FALSE when it cannot; the error
 * shows in the window. */
gboolean       gv_window_train        (GvWindow       *self);

/* Shows @message in a toast that stays until dismissed. */
void           gv_window_show_error   (GvWindow       *self,
                                       const char     *message);

/* the messages shown in toasts so far, oldest first */
GPtrArray     *gv_window_get_messages (GvWindow       *self);

GvModulesPage *gv_window_get_modules_page (GvWindow   *self);
GvTrainer     *gv_window_get_trainer  (GvWindow       *self);
GvProfilePage *gv_window_get_profile_page (GvWindow   *self);

/* Profile a Step: profiles the next training step (training the default CNN, for that step
 * alone, when nothing trains) and shows it on the Profile page. FALSE when it cannot; the
 * error shows in the window. */
gboolean       gv_window_profile_step (GvWindow       *self);

/* Saves the step profiled live that the Profile page shows as a chrome trace at @path
 * (export_chrome_trace). On failure the error shows in the window and is returned in @error. */
gboolean       gv_window_save_trace   (GvWindow       *self,
                                       const char     *path,
                                       GError        **error);

GvGraphPage   *gv_window_get_graph_page (GvWindow     *self);

/* the line under the title: the model, its module and parameter counts */
const char    *gv_window_get_subtitle (GvWindow       *self);

/* the page shown: "modules", "training", "profile" or "graph" */
const char    *gv_window_get_page     (GvWindow       *self);
gboolean       gv_window_set_page     (GvWindow       *self,
                                       const char     *name);

G_END_DECLS
