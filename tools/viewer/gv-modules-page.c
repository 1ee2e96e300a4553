/* gv-modules-page.c: gnn-viewer's Modules page: the module tree as named_modules lists it,
 * with the statistics of every module's output and gradient, and the selected module's
 * details beside it
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The tree is a GtkTreeListModel of GvNode in a GtkColumnView: name, PyTorch type, own and
 * total parameter counts, the sparsity of the module's own parameters (the fraction of their
 * entries that are zero, from gnn_prune_sparsity_report: a pruned model shows how much of each
 * layer is gone; blank for a module without parameters), and once training ran the mean, standard deviation and largest
 * magnitude of each module's output (collected from GnnModule::forward-post) and of the
 * gradient of that output (GnnModule::backward-post). The details pane reads the selected
 * module's parameters only between training steps.
 */
#include "gv-modules-page.h"
#include "gv-format.h"

#include <glib/gi18n.h>

enum
{
  COL_NAME,
  COL_TYPE,
  COL_OWN,
  COL_TOTAL,
  COL_SPARSITY,
  COL_ACT_MEAN,
  COL_ACT_STD,
  COL_ACT_MAX,
  COL_GRAD_MEAN,
  COL_GRAD_STD,
  COL_GRAD_MAX,
  N_COLUMNS
};

struct _GvModulesPage
{
  AdwBin              parent_instance;

  GtkStack           *stack;
  GtkPaned           *paned;
  GtkColumnView      *column_view;
  GtkLabel           *summary;
  GvModuleDetails    *details;

  GtkSingleSelection *selection;
  GvTrainer          *trainer;
  gulong              step_done_id;
  gboolean            details_dirty;   /* the selection changed while a step ran */
  gint64              details_read;    /* when the details were last read (monotonic µs) */

  GnnModule          *model;           /* the root of the tree shown */
  GnnSparsityReport  *sparsity;        /* of @model's parameters, read between steps */
};

G_DEFINE_FINAL_TYPE (GvModulesPage, gv_modules_page, ADW_TYPE_BIN)

static const char *
column_title (int col)
{
  switch (col)
    {
    case COL_NAME: return _("Module");
    case COL_TYPE: return _("Type");
    /* Translators: the module's own parameters; "Total" counts its submodules' too */
    case COL_OWN: return _("Params");
    case COL_TOTAL: return _("Total");
    /* Translators: the fraction of the module's own parameters that are zero (after pruning) */
    case COL_SPARSITY: return _("Sparsity");
    /* Translators: the statistics of the module's output, then of the gradient of its output */
    case COL_ACT_MEAN: return _("Out mean");
    case COL_ACT_STD: return _("Out std");
    case COL_ACT_MAX: return _("Out max");
    case COL_GRAD_MEAN: return _("Grad mean");
    case COL_GRAD_STD: return _("Grad std");
    case COL_GRAD_MAX: return _("Grad max");
    default: g_assert_not_reached ();
    }
}

static char *
stat_text (const GvStats *s,
           double         value)
{
  return s->updates ? gv_format_value (value) : g_strdup ("");
}

gboolean
gv_modules_page_get_sparsity (GvModulesPage *self,
                              GvNode        *node,
                              gint64        *zeros,
                              gint64        *numel)
{
  gint64 z = 0, n = 0;
  gboolean found = self->sparsity && gnn_sparsity_report_lookup_module (self->sparsity, node->name, &z, &n) &&
                   n > 0;

  if (zeros)
    *zeros = z;
  if (numel)
    *numel = n;
  return found;
}

char *
gv_modules_page_get_sparsity_text (GvModulesPage *self,
                                   GvNode        *node)
{
  gint64 zeros, numel;
  g_autofree char *number = NULL;

  if (!gv_modules_page_get_sparsity (self, node, &zeros, &numel))
    return g_strdup ("");
  number = gv_format_fixed (100.0 * (double) zeros / (double) numel, 1);
  /* Translators: a percentage; %s is the number, in the locale's notation */
  return g_strdup_printf (_("%s %%"), number);
}

/* the text of column @col for @node: what the column view shows */
static char *
column_text (GvModulesPage *self,
             GvNode        *node,
             int            col)
{
  switch (col)
    {
    case COL_NAME: return g_strdup (gv_node_get_label (node));
    case COL_TYPE: return g_strdup (node->type_name);
    case COL_OWN: return node->own_params ? gv_format_count (node->own_params) : g_strdup ("");
    case COL_TOTAL: return gv_format_count (node->total_params);
    case COL_SPARSITY: return gv_modules_page_get_sparsity_text (self, node);
    case COL_ACT_MEAN: return stat_text (&node->act, node->act.mean);
    case COL_ACT_STD: return stat_text (&node->act, node->act.std);
    case COL_ACT_MAX: return stat_text (&node->act, node->act.max_abs);
    case COL_GRAD_MEAN: return stat_text (&node->grad, node->grad.mean);
    case COL_GRAD_STD: return stat_text (&node->grad, node->grad.std);
    case COL_GRAD_MAX: return stat_text (&node->grad, node->grad.max_abs);
    default: g_assert_not_reached ();
    }
}

static void
label_update (GtkLabel *label)
{
  GvNode *node = g_object_get_data (G_OBJECT (label), "gv-node");
  GvModulesPage *self = g_object_get_data (G_OBJECT (label), "gv-page");
  int col = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (label), "gv-column"));
  g_autofree char *text = node && self ? column_text (self, node, col) : NULL;

  gtk_label_set_text (label, text ? text : "");
}

static void
on_node_changed (GvNode   *node,
                 GtkLabel *label)
{
  label_update (label);
}

static void
setup_cell (GtkSignalListItemFactory *factory,
            GtkListItem              *item,
            gpointer                  data)
{
  int col = GPOINTER_TO_INT (data);
  GtkWidget *label = gtk_label_new (NULL);

  g_object_set_data (G_OBJECT (label), "gv-column", data);
  g_object_set_data (G_OBJECT (label), "gv-page", g_object_get_data (G_OBJECT (factory), "gv-page"));
  gtk_label_set_xalign (GTK_LABEL (label), col <= COL_TYPE ? 0 : 1);
  if (col > COL_TYPE)
    gtk_widget_add_css_class (label, "numeric");
  if (col == COL_TYPE)
    gtk_widget_add_css_class (label, "dim-label");
  if (col == COL_NAME)
    {
      GtkWidget *expander = gtk_tree_expander_new ();

      gtk_tree_expander_set_child (GTK_TREE_EXPANDER (expander), label);
      gtk_list_item_set_child (item, expander);
    }
  else
    gtk_list_item_set_child (item, label);
}

static GtkLabel *
cell_label (GtkListItem *item,
            int          col)
{
  GtkWidget *child = gtk_list_item_get_child (item);

  if (col == COL_NAME)
    return GTK_LABEL (gtk_tree_expander_get_child (GTK_TREE_EXPANDER (child)));
  return GTK_LABEL (child);
}

static void
bind_cell (GtkSignalListItemFactory *factory,
           GtkListItem              *item,
           gpointer                  data)
{
  int col = GPOINTER_TO_INT (data);
  GtkTreeListRow *row = gtk_list_item_get_item (item);
  GvNode *node = gtk_tree_list_row_get_item (row);   /* transfer full */
  GtkLabel *label = cell_label (item, col);

  if (col == COL_NAME)
    {
      gtk_tree_expander_set_list_row (GTK_TREE_EXPANDER (gtk_list_item_get_child (item)), row);
      /* the full dotted name, as named_modules and the state dict keys spell it */
      gtk_widget_set_tooltip_text (GTK_WIDGET (label), node->name[0] ? node->name : _("the model itself"));
    }
  g_object_set_data_full (G_OBJECT (label), "gv-node", node, g_object_unref);
  label_update (label);
  if (col >= COL_SPARSITY)
    g_signal_connect (node, "changed", G_CALLBACK (on_node_changed), label);
}

static void
unbind_cell (GtkSignalListItemFactory *factory,
             GtkListItem              *item,
             gpointer                  data)
{
  int col = GPOINTER_TO_INT (data);
  GtkLabel *label = cell_label (item, col);
  GvNode *node = g_object_get_data (G_OBJECT (label), "gv-node");

  if (node && col >= COL_SPARSITY)
    g_signal_handlers_disconnect_by_func (node, on_node_changed, label);
  if (col == COL_NAME)
    gtk_tree_expander_set_list_row (GTK_TREE_EXPANDER (gtk_list_item_get_child (item)), NULL);
  g_object_set_data (G_OBJECT (label), "gv-node", NULL);
}

static GListModel *
create_child_model (gpointer item,
                    gpointer user_data)
{
  GvNode *node = item;

  if (g_list_model_get_n_items (G_LIST_MODEL (node->children)) == 0)
    return NULL;
  return G_LIST_MODEL (g_object_ref (node->children));
}

static GvNode *
selected_node (GvModulesPage *self)
{
  GtkTreeListRow *row = self->selection ? gtk_single_selection_get_selected_item (self->selection) : NULL;

  return row ? gtk_tree_list_row_get_item (row) : NULL;   /* transfer full */
}

/* Shows the selected module's details now, or after the step that runs */
static void
update_details (GvModulesPage *self)
{
  g_autoptr(GvNode) node = selected_node (self);

  if (self->trainer && gv_trainer_get_in_flight (self->trainer))
    {
      self->details_dirty = TRUE;
      return;
    }
  self->details_dirty = FALSE;
  self->details_read = g_get_monotonic_time ();
  if (node == gv_module_details_get_node (self->details))
    gv_module_details_refresh (self->details);
  else
    gv_module_details_set_node (self->details, node);
}

static void
on_selection_changed (GtkSelectionModel *model,
                      guint              position,
                      guint              n_items,
                      GvModulesPage     *self)
{
  update_details (self);
}

/* Counts the zeros of the model's parameters again (only between steps: they are read); the
 * rows are told when a count changed. */
static void
refresh_sparsity (GvModulesPage *self)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GnnSparsityReport) report = NULL;
  gboolean changed;

  if (self->model == NULL)
    {
      g_clear_object (&self->sparsity);
      return;
    }
  if ((report = gnn_prune_sparsity_report (self->model, NULL, FALSE, &error)) == NULL)
    {
      g_debug ("sparsity: %s", error->message);
      return;
    }
  changed = self->sparsity == NULL ||
            gnn_sparsity_report_get_global_zeros (report) != gnn_sparsity_report_get_global_zeros (self->sparsity);
  g_set_object (&self->sparsity, report);
  if (changed && self->selection)
    {
      GListModel *rows = gtk_single_selection_get_model (self->selection);

      for (guint i = 0; i < g_list_model_get_n_items (rows); i++)
        {
          g_autoptr(GtkTreeListRow) row = g_list_model_get_item (rows, i);
          g_autoptr(GvNode) node = gtk_tree_list_row_get_item (row);

          g_signal_emit_by_name (node, "changed");
        }
    }
}

/* between two steps: the parameters can be read (every step when it is slow, else a few
 * times a second, so that the histograms do not cost the training its speed) */
static void
on_step_done (GvTrainer     *trainer,
              GvModulesPage *self)
{
  if (self->details_dirty || g_get_monotonic_time () - self->details_read > 250000 ||
      !gv_trainer_get_training (trainer))
    {
      update_details (self);
      if (!gv_trainer_get_in_flight (trainer))
        refresh_sparsity (self);
    }
}

void
gv_modules_page_set_trainer (GvModulesPage *self,
                             GvTrainer     *trainer)
{
  if (self->trainer)
    g_clear_signal_handler (&self->step_done_id, self->trainer);
  g_set_object (&self->trainer, trainer);
  if (trainer)
    self->step_done_id = g_signal_connect (trainer, "step-done", G_CALLBACK (on_step_done), self);
}

void
gv_modules_page_set_nodes (GvModulesPage *self,
                           GPtrArray     *nodes)
{
  g_autoptr(GListStore) roots = g_list_store_new (GV_TYPE_NODE);
  GtkTreeListModel *tree;

  if (nodes && nodes->len > 0)
    g_list_store_append (roots, g_ptr_array_index (nodes, 0));
  tree = gtk_tree_list_model_new (G_LIST_MODEL (g_steal_pointer (&roots)), FALSE, TRUE,
                                  create_child_model, NULL, NULL);
  if (self->selection)
    g_signal_handlers_disconnect_by_func (self->selection, on_selection_changed, self);
  g_clear_object (&self->selection);
  self->selection = gtk_single_selection_new (G_LIST_MODEL (tree));
  gtk_single_selection_set_autoselect (self->selection, FALSE);
  gtk_single_selection_set_can_unselect (self->selection, TRUE);
  gtk_single_selection_set_selected (self->selection, GTK_INVALID_LIST_POSITION);
  g_signal_connect (self->selection, "selection-changed", G_CALLBACK (on_selection_changed), self);
  {
    GnnModule *model = nodes && nodes->len ? ((GvNode *) g_ptr_array_index (nodes, 0))->module : NULL;

    g_set_object (&self->model, model);
  }
  g_clear_object (&self->sparsity);
  refresh_sparsity (self);
  gtk_column_view_set_model (self->column_view, GTK_SELECTION_MODEL (self->selection));
  gv_module_details_set_node (self->details, NULL);
  gtk_stack_set_visible_child_name (self->stack, nodes && nodes->len ? "tree" : "empty");
}

GListModel *
gv_modules_page_get_rows (GvModulesPage *self)
{
  return self->selection ? gtk_single_selection_get_model (self->selection) : NULL;
}

gboolean
gv_modules_page_select (GvModulesPage *self,
                        const char    *name)
{
  GListModel *rows = gv_modules_page_get_rows (self);
  guint n = rows ? g_list_model_get_n_items (rows) : 0;

  /* the rows are expanded already (autoexpand); a name is found in order */
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(GtkTreeListRow) row = g_list_model_get_item (rows, i);
      g_autoptr(GvNode) node = gtk_tree_list_row_get_item (row);

      if (g_str_equal (node->name, name))
        {
          gtk_single_selection_set_selected (self->selection, i);
          return TRUE;
        }
    }
  return FALSE;
}

void
gv_modules_page_set_summary (GvModulesPage *self,
                             const char    *text)
{
  gtk_label_set_text (self->summary, text);
}

GvModuleDetails *
gv_modules_page_get_details (GvModulesPage *self)
{
  return self->details;
}

static void
gv_modules_page_dispose (GObject *object)
{
  GvModulesPage *self = GV_MODULES_PAGE (object);

  gv_modules_page_set_trainer (self, NULL);
  if (self->selection)
    g_signal_handlers_disconnect_by_func (self->selection, on_selection_changed, self);
  g_clear_object (&self->selection);
  g_clear_object (&self->sparsity);
  g_clear_object (&self->model);
  gtk_widget_dispose_template (GTK_WIDGET (self), GV_TYPE_MODULES_PAGE);
  G_OBJECT_CLASS (gv_modules_page_parent_class)->dispose (object);
}

static void
gv_modules_page_class_init (GvModulesPageClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  G_OBJECT_CLASS (klass)->dispose = gv_modules_page_dispose;
  g_type_ensure (GV_TYPE_MODULE_DETAILS);
  gtk_widget_class_set_template_from_resource (widget_class, "/org/gnn/Viewer/gv-modules-page.ui");
  gtk_widget_class_bind_template_child (widget_class, GvModulesPage, stack);
  gtk_widget_class_bind_template_child (widget_class, GvModulesPage, paned);
  gtk_widget_class_bind_template_child (widget_class, GvModulesPage, column_view);
  gtk_widget_class_bind_template_child (widget_class, GvModulesPage, summary);
  gtk_widget_class_bind_template_child (widget_class, GvModulesPage, details);
}

static void
gv_modules_page_init (GvModulesPage *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  for (int col = 0; col < N_COLUMNS; col++)
    {
      GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();
      GtkColumnViewColumn *column;

      g_object_set_data (G_OBJECT (factory), "gv-page", self);
      g_signal_connect (factory, "setup", G_CALLBACK (setup_cell), GINT_TO_POINTER (col));
      g_signal_connect (factory, "bind", G_CALLBACK (bind_cell), GINT_TO_POINTER (col));
      g_signal_connect (factory, "unbind", G_CALLBACK (unbind_cell), GINT_TO_POINTER (col));
      column = gtk_column_view_column_new (column_title (col), factory);
      gtk_column_view_column_set_resizable (column, TRUE);
      if (col == COL_NAME)
        gtk_column_view_column_set_expand (column, TRUE);
      gtk_column_view_append_column (self->column_view, column);
      g_object_unref (column);
    }
  gv_modules_page_set_nodes (self, NULL);
}
