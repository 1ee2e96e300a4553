/* gv-window.c: gnn-viewer's window: a header bar with the pages' switcher and the primary
 * menu, the pages, and toasts for what went wrong
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Each page is its own widget (tools/viewer/gv-*-page.c with its .ui): a new page is a new
 * AdwViewStackPage in gv-window.ui and a file of its own.
 */
#include "gv-window.h"
#include "gv-format.h"
#include "gv-model-io.h"
#include "gv-profile-page.h"
#include "gv-training-page.h"
#include "gnn-tool.h"

#include <glib/gi18n.h>

struct _GvWindow
{
  AdwApplicationWindow  parent_instance;

  AdwToastOverlay      *toasts;
  AdwViewSwitcherTitle *switcher_title;
  AdwViewStack         *stack;
  GtkToggleButton      *train_button;
  GvModulesPage        *modules_page;
  GvTrainingPage       *training_page;
  GvProfilePage        *profile_page;
  GvGraphPage          *graph_page;
  GnnProfiler          *profiler;     /* of the step shown on the Profile page, if profiled live */

  GvTrainer            *trainer;
  gint64                planned_steps;
  GnnModule            *model;
  char                 *model_label;
  GPtrArray            *nodes;
  GPtrArray            *messages;
};

G_DEFINE_FINAL_TYPE (GvWindow, gv_window, ADW_TYPE_APPLICATION_WINDOW)

void
gv_window_show_error (GvWindow   *self,
                      const char *message)
{
  /* a toast's title is Pango markup: the message of a file's error quotes the file */
  g_autofree char *escaped = g_markup_escape_text (message, -1);
  AdwToast *toast = adw_toast_new (escaped);

  /* an error stays until it is read and dismissed */
  adw_toast_set_timeout (toast, 0);
  adw_toast_set_priority (toast, ADW_TOAST_PRIORITY_HIGH);
  adw_toast_overlay_add_toast (self->toasts, toast);
  g_ptr_array_add (self->messages, g_strdup (message));
}

GPtrArray *
gv_window_get_messages (GvWindow *self)
{
  return self->messages;
}

static void
update_title (GvWindow *self)
{
  g_autofree char *title = NULL;
  g_autofree char *subtitle = NULL;

  if (self->model)
    {
      g_autofree char *count = gv_format_count (GV_NODE (g_ptr_array_index (self->nodes, 0))->total_params);

      subtitle = g_strdup_printf (g_dngettext (NULL, "%s · %u module · %s parameters",
                                               "%s · %u modules · %s parameters", self->nodes->len),
                                  self->model_label, self->nodes->len, count);
      title = g_strdup_printf (_("%s — gnn Viewer"), self->model_label);
    }
  adw_view_switcher_title_set_subtitle (self->switcher_title, subtitle ? subtitle : _("No model"));
  gv_modules_page_set_summary (self->modules_page, subtitle ? subtitle : "");
  gtk_window_set_title (GTK_WINDOW (self), title ? title : _("gnn Viewer"));
}

void
gv_window_set_model (GvWindow   *self,
                     GnnModule  *model,
                     const char *label)
{
  char *new_label = g_strdup (model ? label : NULL);   /* @label may be self->model_label */

  g_set_object (&self->model, model);
  g_free (self->model_label);
  self->model_label = new_label;
  g_clear_pointer (&self->nodes, g_ptr_array_unref);
  self->nodes = model ? gv_node_build_tree (model) : g_ptr_array_new_with_free_func (g_object_unref);
  gv_trainer_set_model (self->trainer, model, self->nodes);
  gv_modules_page_set_nodes (self->modules_page, self->nodes);
  gv_training_page_update (self->training_page);
  gv_profile_page_set_waiting (self->profile_page, FALSE);
  /* the Graph page follows the model shown (an ONNX file opened later replaces it) */
  {
    g_autoptr(GvGraph) graph = model ? gv_graph_new_from_module (model, self->model_label) : NULL;

    gv_graph_page_set_graph (self->graph_page, graph);
  }
  update_title (self);
}

GnnModule *
gv_window_get_model (GvWindow *self)
{
  return self->model;
}

static void
update_save_trace (GvWindow *self)
{
  GAction *action = g_action_map_lookup_action (G_ACTION_MAP (self), "save-trace");

  if (action)
    g_simple_action_set_enabled (G_SIMPLE_ACTION (action), self->profiler != NULL);
}

/* a chrome trace onto the Profile page */
static gboolean
open_trace (GvWindow    *self,
            const char  *path,
            GError     **error)
{
  g_autoptr(GError) local_error = NULL;
  g_autoptr(GvProfile) profile = gv_profile_new_from_file (path, &local_error);

  if (profile == NULL)
    {
      gv_window_show_error (self, local_error->message);
      g_propagate_error (error, g_steal_pointer (&local_error));
      return FALSE;
    }
  gv_profile_page_set_profile (self->profile_page, profile);
  g_clear_object (&self->profiler);
  update_save_trace (self);
  gv_window_set_page (self, "profile");
  return TRUE;
}

/* an ONNX file onto the Graph page */
static gboolean
open_onnx (GvWindow    *self,
           const char  *path,
           GError     **error)
{
  g_autoptr(GError) local_error = NULL;
  g_autoptr(GvGraph) graph = gv_graph_new_from_onnx_file (path, &local_error);

  if (graph == NULL)
    {
      gv_window_show_error (self, local_error->message);
      g_propagate_error (error, g_steal_pointer (&local_error));
      return FALSE;
    }
  gv_graph_page_set_graph (self->graph_page, graph);
  gv_window_set_page (self, "graph");
  return TRUE;
}

gboolean
gv_window_open_file (GvWindow    *self,
                     const char  *path,
                     GError     **error)
{
  g_autoptr(GError) local_error = NULL;
  g_autoptr(GnnModule) model = NULL;
  g_autofree char *base = NULL;

  if (g_str_has_suffix (path, ".json") && gv_profile_sniff_file (path))
    return open_trace (self, path, error);
  if (g_str_has_suffix (path, ".onnx"))
    return open_onnx (self, path, error);
  if ((model = gv_open_file (path, self->model, &local_error)) == NULL)
    {
      gv_window_show_error (self, local_error->message);
      g_propagate_error (error, g_steal_pointer (&local_error));
      return FALSE;
    }
  base = g_path_get_basename (path);
  gv_window_set_model (self, model, base);
  return TRUE;
}

/* the default CNN when no model is shown; FALSE when it cannot be made (the error shown) */
static gboolean
ensure_model (GvWindow *self)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnModule) model = NULL;

  if (self->model)
    return TRUE;
  gnn_manual_seed ((guint64) gv_trainer_get_seed (self->trainer));
  if ((model = gnn_tool_default_model (&error)) == NULL)
    {
      g_prefix_error (&error, _("cannot train: "));
      gv_window_show_error (self, error->message);
      return FALSE;
    }
  gv_window_set_model (self, model, _("the default CNN"));
  return TRUE;
}

gboolean
gv_window_train (GvWindow *self)
{
  g_autoptr(GError) error = NULL;

  if (!ensure_model (self))
    return FALSE;
  if (!gv_trainer_start (self->trainer, &error))
    {
      gv_window_show_error (self, error->message);
      return FALSE;
    }
  return TRUE;
}

static void
on_training_changed (GvWindow *self)
{
  GAction *action = g_action_map_lookup_action (G_ACTION_MAP (self), "train");

  g_simple_action_set_state (G_SIMPLE_ACTION (action),
                             g_variant_new_boolean (gv_trainer_get_training (self->trainer)));
  gtk_button_set_icon_name (GTK_BUTTON (self->train_button),
                            gv_trainer_get_training (self->trainer) ? "media-playback-pause-symbolic"
                                                                    : "media-playback-start-symbolic");
}

static void
on_trainer_failed (GvWindow     *self,
                   const GError *error)
{
  gv_profile_page_set_waiting (self->profile_page, FALSE);
  gv_window_show_error (self, error->message);
}

static void
on_trainer_profiled (GvWindow    *self,
                     gint64       step,
                     GnnProfiler *profiler)
{
  g_autofree char *label = g_strdup_printf (_("training step %" G_GINT64_FORMAT), step);
  g_autoptr(GPtrArray) events = gnn_profiler_get_events (profiler);
  g_autoptr(GvProfile) profile = gv_profile_new_from_events (events, label);

  gv_profile_page_set_profile (self->profile_page, profile);
  g_set_object (&self->profiler, profiler);
  update_save_trace (self);
}

gboolean
gv_window_save_trace (GvWindow    *self,
                      const char  *path,
                      GError     **error)
{
  g_autoptr(GError) local_error = NULL;

  if (self->profiler == NULL)
    g_set_error (&local_error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
                 _("cannot save a trace to %s: expected a step profiled here, found none"), path);
  else
    gnn_profiler_export_chrome_trace (self->profiler, path, &local_error);
  if (local_error)
    {
      gv_window_show_error (self, local_error->message);
      g_propagate_error (error, g_steal_pointer (&local_error));
      return FALSE;
    }
  return TRUE;
}

gboolean
gv_window_profile_step (GvWindow *self)
{
  g_autoptr(GError) error = NULL;

  if (!ensure_model (self))
    return FALSE;
  if (!gv_trainer_profile_step (self->trainer, &error))
    {
      gv_window_show_error (self, error->message);
      return FALSE;
    }
  gv_profile_page_set_waiting (self->profile_page, TRUE);
  gv_window_set_page (self, "profile");
  return TRUE;
}

static void
profile_step_activated (GSimpleAction *action,
                        GVariant      *parameter,
                        gpointer       data)
{
  gv_window_profile_step (data);
}

static void
train_change_state (GSimpleAction *action,
                    GVariant      *state,
                    gpointer       data)
{
  GvWindow *self = data;

  if (g_variant_get_boolean (state))
    gv_window_train (self);
  else
    gv_trainer_stop (self->trainer);
  /* the state follows the trainer, whatever was asked */
  on_training_changed (self);
}

G_GNUC_BEGIN_IGNORE_DEPRECATIONS   /* GtkFileChooserNative: GTK 4.8 has no GtkFileDialog */

/* the local path a file chooser's answer names, or NULL; the dialog is done with */
static char *
chosen_path (GtkNativeDialog *dialog,
             int              response)
{
  char *path = NULL;

  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));

      path = file ? g_file_get_path (file) : NULL;
    }
  g_object_unref (dialog);
  return path;
}

static void
on_open_response (GtkNativeDialog *dialog,
                  int              response,
                  gpointer         data)
{
  g_autofree char *path = chosen_path (dialog, response);

  if (path)
    gv_window_open_file (data, path, NULL);
}

static void
open_activated (GSimpleAction *action,
                GVariant      *parameter,
                gpointer       data)
{
  GvWindow *self = data;
  GtkFileChooserNative *dialog =
    gtk_file_chooser_native_new (_("Open a Model"), GTK_WINDOW (self), GTK_FILE_CHOOSER_ACTION_OPEN,
                                 _("_Open"), _("_Cancel"));
  GtkFileFilter *filter = gtk_file_filter_new ();
  GtkFileFilter *all = gtk_file_filter_new ();

  gtk_file_filter_set_name (filter, _("Models (module JSON, checkpoint, state dict, ONNX) and profiles (chrome trace JSON)"));
  gtk_file_filter_add_pattern (filter, "*.json");
  gtk_file_filter_add_pattern (filter, "*.onnx");
  gtk_file_filter_add_pattern (filter, "*.safetensors");
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (dialog), filter);
  gtk_file_filter_set_name (all, _("All files"));
  gtk_file_filter_add_pattern (all, "*");
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (dialog), all);
  g_object_unref (filter);
  g_object_unref (all);
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (dialog), TRUE);
  g_signal_connect (dialog, "response", G_CALLBACK (on_open_response), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (dialog));
}

static void
on_save_response (GtkNativeDialog *dialog,
                  int              response,
                  gpointer         data)
{
  g_autofree char *path = chosen_path (dialog, response);

  if (path)
    gv_window_save_trace (data, path, NULL);
}

static void
save_trace_activated (GSimpleAction *action,
                      GVariant      *parameter,
                      gpointer       data)
{
  GvWindow *self = data;
  GtkFileChooserNative *dialog =
    gtk_file_chooser_native_new (_("Save the Profile as a Chrome Trace"), GTK_WINDOW (self),
                                 GTK_FILE_CHOOSER_ACTION_SAVE, _("_Save"), _("_Cancel"));

  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (dialog), "trace.json");
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (dialog), TRUE);
  g_signal_connect (dialog, "response", G_CALLBACK (on_save_response), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (dialog));
}

G_GNUC_END_IGNORE_DEPRECATIONS

GvModulesPage *
gv_window_get_modules_page (GvWindow *self)
{
  return self->modules_page;
}

GvProfilePage *
gv_window_get_profile_page (GvWindow *self)
{
  return self->profile_page;
}

GvGraphPage *
gv_window_get_graph_page (GvWindow *self)
{
  return self->graph_page;
}

GvTrainer *
gv_window_get_trainer (GvWindow *self)
{
  return self->trainer;
}

const char *
gv_window_get_subtitle (GvWindow *self)
{
  return adw_view_switcher_title_get_subtitle (self->switcher_title);
}

const char *
gv_window_get_page (GvWindow *self)
{
  return adw_view_stack_get_visible_child_name (self->stack);
}

gboolean
gv_window_set_page (GvWindow   *self,
                    const char *name)
{
  if (adw_view_stack_get_child_by_name (self->stack, name) == NULL)
    return FALSE;
  adw_view_stack_set_visible_child_name (self->stack, name);
  return TRUE;
}

static void
gv_window_dispose (GObject *object)
{
  GvWindow *self = GV_WINDOW (object);

  if (self->trainer)
    g_signal_handlers_disconnect_by_data (self->trainer, self);
  gtk_widget_dispose_template (GTK_WIDGET (self), GV_TYPE_WINDOW);
  g_clear_object (&self->trainer);
  g_clear_object (&self->profiler);
  g_clear_object (&self->model);
  g_clear_pointer (&self->nodes, g_ptr_array_unref);
  G_OBJECT_CLASS (gv_window_parent_class)->dispose (object);
}

static void
gv_window_finalize (GObject *object)
{
  GvWindow *self = GV_WINDOW (object);

  g_free (self->model_label);
  g_ptr_array_unref (self->messages);
  G_OBJECT_CLASS (gv_window_parent_class)->finalize (object);
}

static void
gv_window_class_init (GvWindowClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = gv_window_dispose;
  object_class->finalize = gv_window_finalize;
  g_type_ensure (GV_TYPE_MODULES_PAGE);
  g_type_ensure (GV_TYPE_TRAINING_PAGE);
  g_type_ensure (GV_TYPE_PROFILE_PAGE);
  g_type_ensure (GV_TYPE_GRAPH_PAGE);
  gtk_widget_class_set_template_from_resource (widget_class, "/org/gnn/Viewer/gv-window.ui");
  gtk_widget_class_bind_template_child (widget_class, GvWindow, toasts);
  gtk_widget_class_bind_template_child (widget_class, GvWindow, switcher_title);
  gtk_widget_class_bind_template_child (widget_class, GvWindow, stack);
  gtk_widget_class_bind_template_child (widget_class, GvWindow, train_button);
  gtk_widget_class_bind_template_child (widget_class, GvWindow, modules_page);
  gtk_widget_class_bind_template_child (widget_class, GvWindow, training_page);
  gtk_widget_class_bind_template_child (widget_class, GvWindow, profile_page);
  gtk_widget_class_bind_template_child (widget_class, GvWindow, graph_page);
}

static void
gv_window_init (GvWindow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  self->messages = g_ptr_array_new_with_free_func (g_free);
}

GvWindow *
gv_window_new (AdwApplication *app,
               GvTrainer      *trainer,
               gint64          planned_steps)
{
  const GActionEntry actions[] = {
    { .name = "open", .activate = open_activated },
    { .name = "train", .state = "false", .change_state = train_change_state },
    { .name = "profile-step", .activate = profile_step_activated },
    { .name = "save-trace", .activate = save_trace_activated },
  };
  GvWindow *self = g_object_new (GV_TYPE_WINDOW, "application", app, NULL);

  g_action_map_add_action_entries (G_ACTION_MAP (self), actions, G_N_ELEMENTS (actions), self);
  self->trainer = g_object_ref (trainer);
  self->planned_steps = planned_steps;
  g_signal_connect_swapped (trainer, "notify::training", G_CALLBACK (on_training_changed), self);
  g_signal_connect_swapped (trainer, "failed", G_CALLBACK (on_trainer_failed), self);
  g_signal_connect_swapped (trainer, "profiled", G_CALLBACK (on_trainer_profiled), self);
  gv_modules_page_set_trainer (self->modules_page, trainer);
  gv_training_page_set_trainer (self->training_page, trainer, planned_steps);
  gv_window_set_model (self, NULL, NULL);
  update_save_trace (self);
  return self;
}
