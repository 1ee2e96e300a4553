/* gnn-viewer.c: a GNOME app onto a model: its module tree and, while it trains, live statistics
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 *   gnn-viewer [--model model.json] [--weights file.safetensors | --checkpoint ckpt.safetensors]
 *              [--train [--train-steps K] [--limit N] [--profile-step K]] [FILE...]
 *
 * The window (gv-window.c) has two pages: Modules (gv-modules-page.c), the module tree exactly
 * as named_modules lists it with per-module statistics of the output and its gradient and the
 * selected module's parameters (shapes, histograms of values and gradients); and Training
 * (gv-training-page.c), the loss curve; and Profile (gv-profile-page.c), the time of each
 * module in one step and the step's flame chart, from a chrome trace opened (a FILE) or from a
 * training step profiled live (Profile a Step, or --profile-step K). Training (gv-trainer.c) runs on Fashion-MNIST one step
 * at a time on a worker thread, so the window keeps drawing. Without a model it trains the
 * small CNN tools/gnn-train uses (AdamW). A file that cannot be read, whatever it holds, shows
 * its error in the window (a toast) and on standard error.
 *
 * For tests and scripts: --dump-tree FILE writes the rows of the column view's model (read
 * back from the GtkTreeListModel, not from gnn) as "name<TAB>type<TAB>nparams" lines, plus six
 * statistics columns once training ran; --dump-loss FILE writes "step<TAB>loss" lines;
 * --dump-state FILE the page shown, the window's title and the messages shown in toasts;
 * --dump-profile FILE the Profile page's table (in the order shown) and its flame chart's ranges;
 * --dump-graph FILE the Graph page's nodes with their layout and edges, and the tensors of the
 * node --click-node NAME clicked;
 * --dump-details FILE the parameters the details pane shows for --select NAME; --screenshot
 * FILE.png renders the window to a PNG. These happen once the window has been mapped and
 * --frames frames drawn, after --train-steps steps when training, and then the program quits.
 * --dump-sparsity FILE writes "name<TAB>zeros<TAB>numel<TAB>text" lines, the Sparsity column
 * of each row with the counts behind it (empty fields for a module without parameters).
 * --quit-after-ms bounds the whole run; --page NAME shows that page first; --trace-step K shows
 * step K of a chrome trace opened, --zoom-to NAME zooms its flame chart to the first range so
 * named; --profile-next does what Profile a Step does, at once; --save-trace FILE saves the step
 * profiled as Save the Profile does.
 *
 * Exit status: 0 on success, 1 when something asked for could not be done (training failed, a
 * file could not be written, the time ran out first), 2 for bad usage or a model that could
 * not be read.
 */
#include "gv-config.h"

#include <adwaita.h>
#include <glib/gi18n.h>
#include <gnn/gnn.h>
#include <locale.h>

#include "gv-model-io.h"
#include "gv-module-details.h"
#include "gv-modules-page.h"
#include "gv-profile-page.h"
#include "gv-graph-page.h"
#include "gv-trainer.h"
#include "gv-window.h"

#define APP_ID "org.gnn.Viewer"
#define DEFAULT_DATA_DIR "/usr/share/datasets/fashion-mnist"
#define EXIT_USAGE 2

typedef struct
{
  char    *model_file;
  char    *weights_file;
  char    *checkpoint_file;
  gboolean train;
  int      train_steps;    /* 0: until paused */
  int      limit;          /* 0: all */
  int      batch_size;
  double   lr;
  gint64   seed;
  int      threads;
  char    *data_dir;
  char    *page;
  char    *select;
  char    *dump_tree;
  char    *dump_loss;
  char    *dump_state;
  char    *dump_details;
  char    *dump_sparsity;
  char    *dump_profile;
  char    *dump_graph;
  char    *click_node;
  int      profile_step;   /* 0: none */
  int      trace_step;     /* 0: the first */
  gboolean profile_next;
  char    *zoom_to;
  char    *save_trace;
  char    *screenshot;
  int      frames;
  int      quit_after_ms;
  char   **files;
} Options;

typedef struct
{
  Options         opts;
  AdwApplication *gapp;
  GvWindow       *window;
  GvTrainer      *trainer;

  gboolean        load_failed;
  gboolean        train_failed;
  guint           frames;
  guint           frames_at_stop;
  guint           train_frames;     /* frames drawn while training: the window kept up */
  gboolean        finishing;
  int             exit_status;
} App;

static App app;

static gboolean
scripted (void)
{
  return app.opts.dump_tree || app.opts.dump_loss || app.opts.dump_state || app.opts.dump_details ||
         app.opts.dump_sparsity || app.opts.dump_profile || app.opts.dump_graph || app.opts.save_trace || app.opts.screenshot;
}

/* ---- scripted output ---------------------------------------------------------------------- */

static void
append_stat (GString       *out,
             const GvStats *s,
             double         value)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  g_string_append_c (out, '\t');
  if (s->updates)
    g_string_append (out, g_ascii_formatd (buf, sizeof buf, "%.6g", value));
}

/* The rows of the column view's model (the GtkTreeListModel under the selection), as the window
 * shows them: "name<TAB>type<TAB>nparams", with the statistics columns once training ran (the
 * numbers as C's %.6g, not in the window's format, for programs to read). */
static gboolean
dump_tree (const char  *path,
           GError     **error)
{
  GListModel *rows = gv_modules_page_get_rows (gv_window_get_modules_page (app.window));
  guint n = rows ? g_list_model_get_n_items (rows) : 0;
  g_autoptr(GString) out = g_string_new (NULL);

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(GtkTreeListRow) row = g_list_model_get_item (rows, i);
      g_autoptr(GvNode) node = gtk_tree_list_row_get_item (row);

      g_string_append_printf (out, "%s\t%s\t%" G_GINT64_FORMAT, node->name, node->type_name,
                              node->total_params);
      if (gv_trainer_get_steps (app.trainer) > 0)
        {
          append_stat (out, &node->act, node->act.mean);
          append_stat (out, &node->act, node->act.std);
          append_stat (out, &node->act, node->act.max_abs);
          append_stat (out, &node->grad, node->grad.mean);
          append_stat (out, &node->grad, node->grad.std);
          append_stat (out, &node->grad, node->grad.max_abs);
        }
      g_string_append_c (out, '\n');
    }
  return g_file_set_contents (path, out->str, out->len, error);
}

/* The Sparsity column: "name<TAB>zeros<TAB>numel<TAB>text", the fields empty for a module
 * without parameters */
static gboolean
dump_sparsity (const char  *path,
               GError     **error)
{
  GvModulesPage *page = gv_window_get_modules_page (app.window);
  GListModel *rows = gv_modules_page_get_rows (page);
  guint n = rows ? g_list_model_get_n_items (rows) : 0;
  g_autoptr(GString) out = g_string_new (NULL);

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(GtkTreeListRow) row = g_list_model_get_item (rows, i);
      g_autoptr(GvNode) node = gtk_tree_list_row_get_item (row);
      g_autofree char *text = gv_modules_page_get_sparsity_text (page, node);
      gint64 zeros, numel;

      if (gv_modules_page_get_sparsity (page, node, &zeros, &numel))
        g_string_append_printf (out, "%s\t%" G_GINT64_FORMAT "\t%" G_GINT64_FORMAT "\t%s\n", node->name, zeros,
                                numel, text);
      else
        g_string_append_printf (out, "%s\t\t\t%s\n", node->name, text);
    }
  return g_file_set_contents (path, out->str, out->len, error);
}

static gboolean
dump_loss (const char  *path,
           GError     **error)
{
  GArray *losses = gv_trainer_get_losses (app.trainer);
  g_autoptr(GString) out = g_string_new (NULL);
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  for (guint i = 0; i < losses->len; i++)
    g_string_append_printf (out, "%u\t%s\n", i + 1,
                            g_ascii_dtostr (buf, sizeof buf, g_array_index (losses, double, i)));
  return g_file_set_contents (path, out->str, out->len, error);
}

/* "page<TAB>NAME", "title<TAB>TITLE", "subtitle<TAB>TEXT", "selected<TAB>NAME" and a "message<TAB>TEXT" line per
 * toast shown */
static gboolean
dump_state (const char  *path,
            GError     **error)
{
  g_autoptr(GString) out = g_string_new (NULL);
  GPtrArray *messages = gv_window_get_messages (app.window);
  GvNode *selected = gv_module_details_get_node (gv_modules_page_get_details (gv_window_get_modules_page (app.window)));

  g_string_append_printf (out, "page\t%s\n", gv_window_get_page (app.window));
  g_string_append_printf (out, "title\t%s\n", gtk_window_get_title (GTK_WINDOW (app.window)));
  g_string_append_printf (out, "subtitle\t%s\n", gv_window_get_subtitle (app.window));
  if (selected)
    g_string_append_printf (out, "selected\t%s\n", selected->name);
  for (guint i = 0; i < messages->len; i++)
    {
      g_autofree char *one_line = g_strdelimit (g_strdup (g_ptr_array_index (messages, i)), "\t\n", ' ');

      g_string_append_printf (out, "message\t%s\n", one_line);
    }
  return g_file_set_contents (path, out->str, out->len, error);
}

static gboolean
dump_details (const char  *path,
              GError     **error)
{
  g_autofree char *text = gv_module_details_dump (gv_modules_page_get_details (gv_window_get_modules_page (app.window)));

  return g_file_set_contents (path, text, -1, error);
}

/* The Profile page: "step<TAB>ns<TAB>steps in the trace<TAB>chart rows", "summary<TAB>TEXT" (the
 * line above the table), "selected<TAB>path" (the row selected, if any), "chart<TAB>width<TAB>view start ns<TAB>view span ns" (the flame chart's
 * width and the time it shows), a "category<TAB>CAT<TAB>ns"
 * line for each kind of range, a "module<TAB>path<TAB>type<TAB>calls<TAB>total_ns<TAB>self_ns<TAB>
 * percent" line per row of the table in the order shown, and a "range<TAB>row<TAB>depth<TAB>thread<TAB>
 * start_ns<TAB>dur_ns<TAB>self_ns<TAB>cat<TAB>name<TAB>hit<TAB>tooltip" line per range of the flame
 * chart, hit being the name of the range the chart finds under the middle of the bar it drew
 * (empty for a bar narrower than 3 pixels) and tooltip what hovering there shows (its lines
 * joined by " | "): hovering finds what is drawn. Nothing without a profile. */
static gboolean
dump_profile (const char  *path,
              GError     **error)
{
  GvProfilePage *page = gv_window_get_profile_page (app.window);
  GvProfile *profile = gv_profile_page_get_profile (page);
  GListModel *rows = gv_profile_page_get_rows (page);
  GvFlameChart *chart = gv_profile_page_get_chart (page);
  static const char *const categories[] = { "module", "kernel", "backward", "optimizer", "user_annotation" };
  g_autoptr(GString) out = g_string_new (NULL);
  GArray *ranges;

  if (profile == NULL)
    return g_file_set_contents (path, "", 0, error);
  g_string_append_printf (out, "step\t%" G_GINT64_FORMAT "\t%u\t%u\n", gv_profile_get_step_ns (profile),
                          gv_profile_get_n_steps (profile), gv_profile_get_n_chart_rows (profile));
  g_string_append_printf (out, "summary\t%s\n", gv_profile_page_get_summary (page));
  if (gv_profile_page_get_selected (page))
    g_string_append_printf (out, "selected\t%s\n", gv_profile_row_get_path (gv_profile_page_get_selected (page)));
  {
    double v0, span;
    char b0[G_ASCII_DTOSTR_BUF_SIZE], b1[G_ASCII_DTOSTR_BUF_SIZE];

    gv_flame_chart_get_view (chart, &v0, &span);
    g_string_append_printf (out, "chart\t%d\t%s\t%s\n", gtk_widget_get_width (GTK_WIDGET (chart)),
                            g_ascii_dtostr (b0, sizeof b0, v0), g_ascii_dtostr (b1, sizeof b1, span));
  }
  for (guint i = 0; i < G_N_ELEMENTS (categories); i++)
    g_string_append_printf (out, "category\t%s\t%" G_GINT64_FORMAT "\n", categories[i],
                            gv_profile_get_category_ns (profile, categories[i]));
  for (guint i = 0; i < g_list_model_get_n_items (rows); i++)
    {
      g_autoptr(GvProfileRow) row = g_list_model_get_item (rows, i);
      g_autofree char *line = gv_profile_row_dump (row);

      g_string_append_printf (out, "module\t%s\n", line);
    }
  ranges = gv_profile_get_ranges (profile);
  for (guint i = 0; i < ranges->len; i++)
    {
      GvProfileRange *r = &g_array_index (ranges, GvProfileRange, i);
      graphene_rect_t rect;
      GvProfileRange *hit = NULL;
      g_autofree char *tooltip = NULL;

      if (gv_flame_chart_range_rect (chart, i, &rect) && rect.size.width >= 3)
        hit = gv_flame_chart_range_at (chart, rect.origin.x + rect.size.width / 2,
                                       rect.origin.y + rect.size.height / 2);
      if (hit)
        {
          g_autofree char *text = gv_flame_chart_describe (hit);
          g_auto(GStrv) lines = g_strsplit (text, "\n", -1);

          tooltip = g_strjoinv (" | ", lines);
        }
      g_string_append_printf (out, "range\t%u\t%u\t%u\t%" G_GINT64_FORMAT "\t%" G_GINT64_FORMAT "\t%"
                              G_GINT64_FORMAT "\t%s\t%s\t%s\t%s\n", r->row, r->depth, r->thread, r->start_ns,
                              r->duration_ns, r->self_ns, r->category, r->name, hit ? hit->name : "",
                              tooltip ? tooltip : "");
    }
  return g_file_set_contents (path, out->str, out->len, error);
}

/* The Graph page: "graph<TAB>source<TAB>nodes<TAB>edges<TAB>layers<TAB>parameters<TAB>width<TAB>height"
 * (the layout's size), the "summary<TAB>TEXT" above it, a "node<TAB>index<TAB>name<TAB>op<TAB>layer<TAB>
 * x<TAB>y<TAB>width<TAB>height<TAB>parameters<TAB>shape<TAB>inputs<TAB>hit" line per node in the graph's
 * order (inputs the indices of the nodes it takes, joined by ","; hit the name of the node a
 * click in the middle of the box drawn finds), an "edge<TAB>from<TAB>to" line per edge (names),
 * and for the node selected (--click-node) "selected<TAB>name<TAB>pane title<TAB>shown" and a
 * "tensor<TAB>name<TAB>shape" line per tensor the side pane lists and a
 * "value<TAB>input|output<TAB>name<TAB>shape<TAB>dtype" line per value it takes or makes (shape and
 * dtype empty where unknown). Nothing without a graph. */
static gboolean
dump_graph (const char  *path,
            GError     **error)
{
  GvGraphPage *page = gv_window_get_graph_page (app.window);
  GvGraph *graph = gv_graph_page_get_graph (page);
  GvGraphView *view = gv_graph_page_get_view (page);
  g_autoptr(GString) out = g_string_new (NULL);
  g_autofree char *details = NULL;
  double width, height;

  if (graph == NULL)
    return g_file_set_contents (path, "", 0, error);
  gv_graph_get_size (graph, &width, &height);
  g_string_append_printf (out, "graph\t%s\t%u\t%u\t%u\t%" G_GINT64_FORMAT "\t%.0f\t%.0f\n", gv_graph_get_source (graph),
                          gv_graph_get_n_nodes (graph), gv_graph_get_n_edges (graph), gv_graph_get_n_layers (graph),
                          gv_graph_get_n_params (graph), width, height);
  g_string_append_printf (out, "summary\t%s\n", gv_graph_page_get_summary (page));
  for (guint i = 0; i < gv_graph_get_n_nodes (graph); i++)
    {
      GvGraphNode *node = gv_graph_get_node (graph, i);
      graphene_rect_t rect;
      int hit = -1;

      if (gv_graph_view_node_rect (view, i, &rect))
        hit = gv_graph_node_at (graph, node->x + rect.size.width / 2, node->y + rect.size.height / 2);
      g_string_append_printf (out, "node\t%u\t%s\t%s\t%u\t%.1f\t%.1f\t%.0f\t%.0f\t%" G_GINT64_FORMAT "\t%s\t", i,
                              node->name, node->op, node->layer, node->x, node->y, GV_GRAPH_NODE_WIDTH,
                              GV_GRAPH_NODE_HEIGHT, node->n_params, node->shape ? node->shape : "");
      for (guint j = 0; j < node->inputs->len; j++)
        g_string_append_printf (out, "%s%u", j ? "," : "", g_array_index (node->inputs, guint, j));
      g_string_append_printf (out, "\t%s\n", hit >= 0 ? gv_graph_get_node (graph, hit)->name : "");
    }
  for (guint i = 0; i < gv_graph_get_n_nodes (graph); i++)
    {
      GvGraphNode *node = gv_graph_get_node (graph, i);

      for (guint j = 0; j < node->inputs->len; j++)
        g_string_append_printf (out, "edge\t%s\t%s\n",
                                gv_graph_get_node (graph, g_array_index (node->inputs, guint, j))->name, node->name);
    }
  details = gv_graph_page_dump_details (page);
  if (details)
    g_string_append (out, details);
  return g_file_set_contents (path, out->str, out->len, error);
}

/* Renders the window as it is now into a PNG of the window's size. */
static gboolean
save_screenshot (const char  *path,
                 GError     **error)
{
  GtkWidget *window = GTK_WIDGET (app.window);
  int width = gtk_widget_get_width (window), height = gtk_widget_get_height (window);
  g_autoptr(GdkPaintable) paintable = gtk_widget_paintable_new (window);
  GtkSnapshot *snapshot = gtk_snapshot_new ();
  g_autoptr(GskRenderNode) node = NULL;
  g_autoptr(GdkTexture) texture = NULL;
  GskRenderer *renderer = gtk_native_get_renderer (GTK_NATIVE (window));

  gdk_paintable_snapshot (paintable, GDK_SNAPSHOT (snapshot), width, height);
  node = gtk_snapshot_free_to_node (snapshot);
  if (node == NULL || renderer == NULL)
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_FAILED,
                   "cannot render the window: expected a render node and a renderer, found %s",
                   node == NULL ? "nothing drawn" : "no renderer");
      return FALSE;
    }
  texture = gsk_renderer_render_texture (renderer, node, &GRAPHENE_RECT_INIT (0, 0, width, height));
  if (texture == NULL || !gdk_texture_save_to_png (texture, path))
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_FAILED, "cannot write the PNG %s", path);
      return FALSE;
    }
  g_print ("screenshot %s: %dx%d, page %s\n", path, width, height, gv_window_get_page (app.window));
  return TRUE;
}

static gboolean
finish (gpointer data)
{
  g_autoptr(GError) error = NULL;
  const Options *opts = &app.opts;

  if ((opts->dump_tree && !dump_tree (opts->dump_tree, &error)) ||
      (opts->dump_loss && !dump_loss (opts->dump_loss, &error)) ||
      (opts->dump_state && !dump_state (opts->dump_state, &error)) ||
      (opts->dump_details && !dump_details (opts->dump_details, &error)) ||
      (opts->dump_sparsity && !dump_sparsity (opts->dump_sparsity, &error)) ||
      (opts->dump_profile && !dump_profile (opts->dump_profile, &error)) ||
      (opts->dump_graph && !dump_graph (opts->dump_graph, &error)) ||
      (opts->save_trace && !gv_window_save_trace (app.window, opts->save_trace, &error)) ||
      (opts->screenshot && !save_screenshot (opts->screenshot, &error)))
    {
      g_printerr ("gnn-viewer: %s\n", error->message);
      app.exit_status = MAX (app.exit_status, 1);
    }
  if (app.train_failed)
    app.exit_status = MAX (app.exit_status, 1);
  if (gv_trainer_get_steps (app.trainer) > 0)
    g_print ("trained %" G_GINT64_FORMAT " steps: %u frames drawn meanwhile, the longest step %.0f ms\n",
             gv_trainer_get_steps (app.trainer), app.train_frames,
             gv_trainer_get_longest_step (app.trainer) / 1e3);
  g_application_quit (G_APPLICATION (app.gapp));
  return G_SOURCE_REMOVE;
}

/* Once the window is mapped, --frames frames drawn (after training stopped, when training),
 * and the --train-steps steps done: the dumps, the screenshot, and quit. */
static void
maybe_finish (void)
{
  gboolean training_pending;

  if (!scripted () || app.finishing || app.window == NULL || !gtk_widget_get_mapped (GTK_WIDGET (app.window)))
    return;
  training_pending = (app.opts.train || app.opts.profile_next) && !app.load_failed && !app.train_failed &&
                     (gv_trainer_get_training (app.trainer) || gv_trainer_get_in_flight (app.trainer) ||
                      gv_trainer_get_profile_pending (app.trainer) ||
                      (app.opts.train && app.opts.train_steps > 0 && !gv_trainer_get_finished (app.trainer)));
  if (training_pending || app.frames < app.frames_at_stop + (guint) app.opts.frames)
    return;
  app.finishing = TRUE;
  g_idle_add (finish, NULL);
}

static gboolean
on_tick (GtkWidget     *widget,
         GdkFrameClock *clock,
         gpointer       data)
{
  app.frames++;
  if (gv_trainer_get_training (app.trainer))
    app.train_frames++;
  maybe_finish ();
  return G_SOURCE_CONTINUE;
}

static gboolean
on_quit_timeout (gpointer data)
{
  if (scripted () && !app.finishing)
    {
      g_printerr ("gnn-viewer: --quit-after-ms %d ran out before the window was ready "
                  "(%u frames drawn, %" G_GINT64_FORMAT " steps done)\n",
                  app.opts.quit_after_ms, app.frames, gv_trainer_get_steps (app.trainer));
      app.exit_status = 1;
    }
  g_application_quit (G_APPLICATION (app.gapp));
  return G_SOURCE_REMOVE;
}

static void
on_training_changed (GvTrainer *trainer)
{
  if (!gv_trainer_get_training (trainer))
    app.frames_at_stop = app.frames;
  maybe_finish ();
}

static void
on_train_failed (GvTrainer    *trainer,
                 const GError *error)
{
  app.train_failed = TRUE;
  g_printerr ("gnn-viewer: %s\n", error->message);
  maybe_finish ();
}

/* ---- the application ---------------------------------------------------------------------- */

static void
load_failed (const GError *error)
{
  app.load_failed = TRUE;
  app.exit_status = EXIT_USAGE;
  gv_window_show_error (app.window, error->message);
  g_printerr ("gnn-viewer: %s\n", error->message);
}

/* The files of the command line, into the window: --model, --weights, --checkpoint, then each
 * FILE in turn as File ▸ Open opens it. The first that cannot be read stops the rest. */
static void
load_files (void)
{
  const Options *opts = &app.opts;
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnModule) model = gv_load_model (opts->model_file, opts->weights_file, opts->checkpoint_file,
                                              &error);

  if (error)
    {
      load_failed (error);
      return;
    }
  if (model)
    {
      const char *file = opts->checkpoint_file ? opts->checkpoint_file : opts->model_file;
      g_autofree char *label = g_path_get_basename (file);

      gv_window_set_model (app.window, model, label);
    }
  for (guint i = 0; opts->files && opts->files[i]; i++)
    if (!gv_window_open_file (app.window, opts->files[i], &error))
      {
        app.load_failed = TRUE;
        app.exit_status = EXIT_USAGE;
        g_printerr ("gnn-viewer: %s\n", error->message);
        return;
      }
}

static void
about_activated (GSimpleAction *action,
                 GVariant      *parameter,
                 gpointer       data)
{
  const char *developers[] = { _("The gnn authors"), NULL };
  GtkWidget *about = adw_about_window_new ();

  g_object_set (about,
                "transient-for", gtk_application_get_active_window (GTK_APPLICATION (app.gapp)),
                "application-name", _("gnn Viewer"),
                "application-icon", APP_ID,
                "version", PACKAGE_VERSION,
                "developer-name", _("The gnn authors"),
                "developers", developers,
                "comments", _("A model's module tree, its parameters and its training, live"),
                "license-type", GTK_LICENSE_LGPL_2_1,
                "translator-credits", _("translator-credits"),
                NULL);
  gtk_window_present (GTK_WINDOW (about));
}

static void
quit_activated (GSimpleAction *action,
                GVariant      *parameter,
                gpointer       data)
{
  g_application_quit (G_APPLICATION (app.gapp));
}

static void
on_activate (GApplication *gapp,
             gpointer      data)
{
  static const GActionEntry actions[] = {
    { .name = "about", .activate = about_activated },
    { .name = "quit", .activate = quit_activated },
  };
  const char *const open_accels[] = { "<Control>o", NULL };
  const char *const quit_accels[] = { "<Control>q", NULL };
  const char *const train_accels[] = { "<Control>t", NULL };
  const char *const profile_accels[] = { "<Control>p", NULL };
  const char *const help_accels[] = { "<Control>question", NULL };

  if (app.window)
    {
      gtk_window_present (GTK_WINDOW (app.window));
      return;
    }
  g_action_map_add_action_entries (G_ACTION_MAP (gapp), actions, G_N_ELEMENTS (actions), NULL);
  gtk_application_set_accels_for_action (GTK_APPLICATION (gapp), "win.open", open_accels);
  gtk_application_set_accels_for_action (GTK_APPLICATION (gapp), "app.quit", quit_accels);
  gtk_application_set_accels_for_action (GTK_APPLICATION (gapp), "win.train", train_accels);
  gtk_application_set_accels_for_action (GTK_APPLICATION (gapp), "win.profile-step", profile_accels);
  gtk_application_set_accels_for_action (GTK_APPLICATION (gapp), "win.show-help-overlay", help_accels);

  app.window = gv_window_new (app.gapp, app.trainer, app.opts.train_steps);
  g_signal_connect (app.trainer, "notify::training", G_CALLBACK (on_training_changed), NULL);
  g_signal_connect (app.trainer, "failed", G_CALLBACK (on_train_failed), NULL);
  gtk_widget_add_tick_callback (GTK_WIDGET (app.window), on_tick, NULL, NULL);
  if (app.opts.quit_after_ms > 0)
    g_timeout_add (app.opts.quit_after_ms, on_quit_timeout, NULL);
  if (app.opts.page && !gv_window_set_page (app.window, app.opts.page))
    {
      g_autofree char *message = g_strdup_printf (_("--page: expected modules, training, profile or graph, found “%s”"),
                                                  app.opts.page);

      gv_window_show_error (app.window, message);
      g_printerr ("gnn-viewer: %s\n", message);
      app.exit_status = EXIT_USAGE;
    }
  gtk_window_present (GTK_WINDOW (app.window));
  load_files ();
  if (app.opts.trace_step > 0 && !app.load_failed &&
      !gv_profile_page_set_step (gv_window_get_profile_page (app.window), (guint) app.opts.trace_step - 1))
    {
      GvProfile *profile = gv_profile_page_get_profile (gv_window_get_profile_page (app.window));
      g_autofree char *message =
        g_strdup_printf (_("--trace-step: expected a step from 1 to %u of a trace opened, found %d"),
                         profile ? MAX (gv_profile_get_n_steps (profile), 1) : 0, app.opts.trace_step);

      gv_window_show_error (app.window, message);
      g_printerr ("gnn-viewer: %s\n", message);
      app.exit_status = EXIT_USAGE;
    }
  if (app.opts.zoom_to && !app.load_failed &&
      !gv_flame_chart_zoom_to (gv_profile_page_get_chart (gv_window_get_profile_page (app.window)), app.opts.zoom_to))
    {
      g_autofree char *message = g_strdup_printf (_("--zoom-to: the flame chart has no range “%s”"), app.opts.zoom_to);

      gv_window_show_error (app.window, message);
      g_printerr ("gnn-viewer: %s\n", message);
      app.exit_status = EXIT_USAGE;
    }
  if (app.opts.train && !app.load_failed && !gv_window_train (app.window))
    {
      GPtrArray *messages = gv_window_get_messages (app.window);

      app.train_failed = TRUE;
      g_printerr ("gnn-viewer: %s\n", (char *) g_ptr_array_index (messages, messages->len - 1));
    }
  if (app.opts.profile_next && !app.load_failed && !app.train_failed && !gv_window_profile_step (app.window))
    {
      GPtrArray *messages = gv_window_get_messages (app.window);

      app.train_failed = TRUE;
      g_printerr ("gnn-viewer: %s\n", (char *) g_ptr_array_index (messages, messages->len - 1));
    }
  /* a click on a node of the Graph page */
  if (app.opts.click_node && !app.load_failed &&
      !gv_graph_page_click_node (gv_window_get_graph_page (app.window), app.opts.click_node))
    {
      g_autofree char *message = g_strdup_printf (_("--click-node: the graph has no node “%s”"), app.opts.click_node);

      gv_window_show_error (app.window, message);
      g_printerr ("gnn-viewer: %s\n", message);
      app.exit_status = EXIT_USAGE;
    }
  /* the module in the Profile page's table too, when a profile is shown (a trace alone: there) */
  /* the module in the tree, and in the Profile page's table when a profile is shown */
  if (app.opts.select)
    {
      gboolean in_tree = gv_modules_page_select (gv_window_get_modules_page (app.window), app.opts.select);
      gboolean in_profile = gv_profile_page_select (gv_window_get_profile_page (app.window), app.opts.select);

      if (!in_tree && !in_profile)
        {
          g_autofree char *message = g_strdup_printf (_("--select: the model has no module “%s”"),
                                                      app.opts.select);

          gv_window_show_error (app.window, message);
          g_printerr ("gnn-viewer: %s\n", message);
          app.exit_status = EXIT_USAGE;
        }
    }
}

static void
options_clear (Options *opts)
{
  g_free (opts->model_file);
  g_free (opts->weights_file);
  g_free (opts->checkpoint_file);
  g_free (opts->data_dir);
  g_free (opts->page);
  g_free (opts->select);
  g_free (opts->dump_tree);
  g_free (opts->dump_loss);
  g_free (opts->dump_state);
  g_free (opts->dump_details);
  g_free (opts->dump_sparsity);
  g_free (opts->dump_profile);
  g_free (opts->dump_graph);
  g_free (opts->click_node);
  g_free (opts->zoom_to);
  g_free (opts->save_trace);
  g_free (opts->screenshot);
  g_strfreev (opts->files);
}

int
main (int    argc,
      char **argv)
{
  Options *opts = &app.opts;
  const GOptionEntry entries[] = {
    { "model", 'm', 0, G_OPTION_ARG_FILENAME, &opts->model_file,
      N_("A model as a JSON module tree"), N_("FILE.json") },
    { "weights", 'w', 0, G_OPTION_ARG_FILENAME, &opts->weights_file,
      N_("Its weights: a safetensors state dict"), N_("FILE.safetensors") },
    { "checkpoint", 'c', 0, G_OPTION_ARG_FILENAME, &opts->checkpoint_file,
      N_("A GnnCheckpoint (holds the module tree: enough alone)"), N_("FILE.safetensors") },
    { "train", 't', 0, G_OPTION_ARG_NONE, &opts->train,
      N_("Train on Fashion-MNIST at once (the model opened, or the default CNN)"), NULL },
    { "train-steps", 0, 0, G_OPTION_ARG_INT, &opts->train_steps, N_("Stop training after K steps"), "K" },
    { "limit", 0, 0, G_OPTION_ARG_INT, &opts->limit, N_("Train on the first N images only (default: all)"), "N" },
    { "batch-size", 'b', 0, G_OPTION_ARG_INT, &opts->batch_size, N_("Samples per step (default 64)"), "N" },
    { "lr", 0, 0, G_OPTION_ARG_DOUBLE, &opts->lr, N_("AdamW's learning rate (default 0.002)"), "LR" },
    { "seed", 's', 0, G_OPTION_ARG_INT64, &opts->seed, N_("Seed of the default model and the batch order"), "S" },
    { "threads", 0, 0, G_OPTION_ARG_INT, &opts->threads, N_("Compute threads"), "N" },
    { "data-dir", 0, 0, G_OPTION_ARG_FILENAME, &opts->data_dir,
      N_("Where Fashion-MNIST's IDX files are (default " DEFAULT_DATA_DIR ")"), N_("DIR") },
    { "profile-step", 0, 0, G_OPTION_ARG_INT, &opts->profile_step,
      N_("Profile training step K (1: the first) and show it on the Profile page"), "K" },
    { "profile-next", 0, 0, G_OPTION_ARG_NONE, &opts->profile_next,
      N_("Profile the next training step as Profile a Step does (without --train: one step)"), NULL },
    { "trace-step", 0, 0, G_OPTION_ARG_INT, &opts->trace_step,
      N_("Of a chrome trace of several steps, show step K (1: the first)"), "K" },
    { "zoom-to", 0, 0, G_OPTION_ARG_STRING, &opts->zoom_to,
      N_("Zoom the flame chart of a trace opened to the first range of this name"), N_("NAME") },
    { "page", 0, 0, G_OPTION_ARG_STRING, &opts->page, N_("The page shown first: modules, training, profile or graph"),
      N_("NAME") },
    { "select", 0, 0, G_OPTION_ARG_STRING, &opts->select,
      N_("Select the module of this dotted name (\"\" for the model): its details, its profile"), N_("NAME") },
    { "dump-tree", 0, 0, G_OPTION_ARG_FILENAME, &opts->dump_tree,
      N_("Write the rows shown as name<TAB>type<TAB>nparams (and the statistics after training), then quit"),
      N_("FILE") },
    { "dump-loss", 0, 0, G_OPTION_ARG_FILENAME, &opts->dump_loss,
      N_("Write the loss curve as step<TAB>loss lines, then quit"), N_("FILE") },
    { "dump-state", 0, 0, G_OPTION_ARG_FILENAME, &opts->dump_state,
      N_("Write the page shown, the window's title and the messages shown, then quit"), N_("FILE") },
    { "dump-details", 0, 0, G_OPTION_ARG_FILENAME, &opts->dump_details,
      N_("Write the parameters the details pane shows, then quit"), N_("FILE") },
    { "dump-sparsity", 0, 0, G_OPTION_ARG_FILENAME, &opts->dump_sparsity,
      N_("Write each row's Sparsity column as name<TAB>zeros<TAB>numel<TAB>text, then quit"), N_("FILE") },
    { "dump-profile", 0, 0, G_OPTION_ARG_FILENAME, &opts->dump_profile,
      N_("Write the Profile page's table and flame chart ranges, then quit"), N_("FILE") },
    { "dump-graph", 0, 0, G_OPTION_ARG_FILENAME, &opts->dump_graph,
      N_("Write the Graph page's nodes, their layout and edges, then quit"), N_("FILE") },
    { "click-node", 0, 0, G_OPTION_ARG_STRING, &opts->click_node,
      N_("Click the node of this name on the Graph page: its tensors in the side pane"), N_("NAME") },
    { "save-trace", 0, 0, G_OPTION_ARG_FILENAME, &opts->save_trace,
      N_("Save the step profiled (--profile-step, --profile-next) as a chrome trace, then quit"),
      N_("FILE.json") },
    { "screenshot", 0, 0, G_OPTION_ARG_FILENAME, &opts->screenshot,
      N_("Render the window into a PNG, then quit"), N_("FILE.png") },
    { "frames", 0, 0, G_OPTION_ARG_INT, &opts->frames,
      N_("Frames to draw before the dumps and the screenshot (default 3)"), "N" },
    { "quit-after-ms", 0, 0, G_OPTION_ARG_INT, &opts->quit_after_ms, N_("Quit after this long"), "MS" },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &opts->files, NULL, N_("[FILE…]") },
    G_OPTION_ENTRY_NULL
  };
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GError) error = NULL;
  char *gapp_argv[2] = { argv[0], NULL };
  int status;

  setlocale (LC_ALL, "");
  bindtextdomain (GETTEXT_PACKAGE, LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);

  opts->batch_size = 64;
  opts->lr = 0.002;
  opts->frames = 3;
  g_set_prgname ("gnn-viewer");
  g_set_application_name (_("gnn Viewer"));
  context = g_option_context_new (_("- look at a model and its training"));
  g_option_context_set_translation_domain (context, GETTEXT_PACKAGE);
  g_option_context_set_summary (context,
    _("Shows a model's module tree (from a module JSON with a safetensors state dict, or a\n"
      "checkpoint) with each module's parameters, and with --train (or the Train button)\n"
      "trains it on Fashion-MNIST, showing per-module activation and gradient statistics and\n"
      "the loss curve live. Each FILE is opened in turn as Open does: a .json module tree, a\n"
      ".safetensors checkpoint, or a safetensors state dict loaded into the model opened\n"
      "before it; a chrome trace (a .json of the profiler's export_chrome_trace) opens on the\n"
      "Profile page, which --profile-step K fills with training step K instead; a .onnx\n"
      "file opens on the Graph page, which otherwise shows the model's module tree in call order."));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      g_printerr ("gnn-viewer: %s (see --help)\n", error->message);
      options_clear (opts);
      return EXIT_USAGE;
    }
  if (opts->weights_file && opts->checkpoint_file)
    {
      g_printerr ("gnn-viewer: %s\n", _("--weights and --checkpoint exclude each other"));
      options_clear (opts);
      return EXIT_USAGE;
    }
  if (opts->train_steps < 0 || opts->limit < 0 || opts->batch_size < 1 || opts->frames < 1 ||
      opts->quit_after_ms < 0 || opts->threads < 0 || opts->profile_step < 0 || opts->trace_step < 0 ||
      !(opts->lr > 0))
    {
      g_printerr ("gnn-viewer: %s\n", _("expected --train-steps, --limit, --quit-after-ms, --threads, "
                                        "--profile-step, --trace-step >= 0, --batch-size, --frames >= 1 "
                                        "and --lr > 0"));
      options_clear (opts);
      return EXIT_USAGE;
    }
  if (opts->data_dir == NULL)
    opts->data_dir = g_strdup (DEFAULT_DATA_DIR);
  if (opts->threads > 0)
    gnn_set_num_threads (opts->threads);
  gnn_manual_seed ((guint64) opts->seed);

  app.trainer = gv_trainer_new (opts->data_dir, opts->limit, opts->batch_size, opts->lr, opts->seed,
                                opts->train_steps);
  gv_trainer_set_profile_at (app.trainer, opts->profile_step);
  /* several windows of several models at once: one process each */
  app.gapp = adw_application_new (APP_ID, G_APPLICATION_NON_UNIQUE);
  g_signal_connect (app.gapp, "activate", G_CALLBACK (on_activate), NULL);
  status = g_application_run (G_APPLICATION (app.gapp), 1, gapp_argv);
  if (status == 0)
    status = app.exit_status;

  /* a step still running holds its own references; let it end before the process does */
  gv_trainer_stop (app.trainer);
  while (gv_trainer_get_in_flight (app.trainer))
    g_main_context_iteration (NULL, TRUE);
  g_clear_object (&app.gapp);
  g_clear_object (&app.trainer);
  options_clear (opts);
  return status;
}
