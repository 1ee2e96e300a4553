/* gv-profile-page.c: gnn-viewer's Profile page: the time of each module in one step, and the
 * step's ranges as a flame chart
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * A profile comes from a chrome trace (File ▸ Open) or from a training step profiled live
 * (Profile a Step). The table has a row per module: its path and type, the calls of its
 * forward, its total and self time and its share of the step, sorted by any column (the total
 * first, the largest on top); under it the flame chart of the step (gv-flame-chart.c), which
 * zooms to the first call of the module selected in the table.
 */
#include "gv-profile-page.h"
#include "gv-format.h"

#include <glib/gi18n.h>

enum
{
  COL_PATH,
  COL_TYPE,
  COL_CALLS,
  COL_TOTAL,
  COL_SELF,
  COL_PERCENT,
  N_COLUMNS
};

struct _GvProfilePage
{
  AdwBin              parent_instance;

  GtkStack           *stack;
  AdwStatusPage      *status;
  GtkLabel           *summary;
  GtkWidget          *step_box;
  GtkSpinButton      *step_spin;
  GtkColumnView      *column_view;
  GvFlameChart       *chart;

  GtkColumnViewColumn *columns[N_COLUMNS];
  GtkSortListModel   *sorted;
  GtkSingleSelection *selection;
  GvProfile          *profile;
  gboolean            waiting;
};

G_DEFINE_FINAL_TYPE (GvProfilePage, gv_profile_page, ADW_TYPE_BIN)

static const char *
column_title (int col)
{
  switch (col)
    {
    case COL_PATH: return _("Module");
    case COL_TYPE: return _("Type");
    /* Translators: how often the module's forward ran in the step */
    case COL_CALLS: return _("Calls");
    case COL_TOTAL: return _("Total");
    /* Translators: the time in the module outside its child modules */
    case COL_SELF: return _("Self");
    case COL_PERCENT: return _("% of step");
    default: g_assert_not_reached ();
    }
}

static const char *
column_property (int col)
{
  switch (col)
    {
    case COL_PATH: return "path";
    case COL_TYPE: return "module-type";
    case COL_CALLS: return "calls";
    case COL_TOTAL: return "total";
    case COL_SELF: return "self";
    case COL_PERCENT: return "percent";
    default: g_assert_not_reached ();
    }
}

static char *
column_text (GvProfileRow *row,
             int           col)
{
  switch (col)
    {
    case COL_PATH:
      {
        const char *path = gv_profile_row_get_path (row);

        return g_strdup (path[0] ? path : _("(the model)"));
      }
    case COL_TYPE: return g_strdup (gv_profile_row_get_type_name (row));
    case COL_CALLS: return gv_format_count (gv_profile_row_get_calls (row));
    case COL_TOTAL: return gv_format_duration (gv_profile_row_get_total_ns (row));
    case COL_SELF: return gv_format_duration (gv_profile_row_get_self_ns (row));
    case COL_PERCENT:
      {
        g_autofree char *value = gv_format_fixed (gv_profile_row_get_percent (row), 1);

        return g_strdup_printf ("%s %%", value);
      }
    default: g_assert_not_reached ();
    }
}

static void
setup_cell (GtkSignalListItemFactory *factory,
            GtkListItem              *item,
            gpointer                  data)
{
  int col = GPOINTER_TO_INT (data);
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (label), col <= COL_TYPE ? 0 : 1);
  if (col > COL_TYPE)
    gtk_widget_add_css_class (label, "numeric");
  if (col == COL_TYPE)
    gtk_widget_add_css_class (label, "dim-label");
  gtk_list_item_set_child (item, label);
}

static void
bind_cell (GtkSignalListItemFactory *factory,
           GtkListItem              *item,
           gpointer                  data)
{
  GvProfileRow *row = gtk_list_item_get_item (item);
  g_autofree char *text = column_text (row, GPOINTER_TO_INT (data));

  gtk_label_set_text (GTK_LABEL (gtk_list_item_get_child (item)), text);
}

static void
update_summary (GvProfilePage *self)
{
  g_autoptr(GString) s = g_string_new (NULL);

  if (self->profile)
    {
      GvProfile *p = self->profile;
      g_autofree char *step = gv_format_duration (gv_profile_get_step_ns (p));
      g_autofree char *fwd = gv_format_duration (gv_profile_get_category_ns (p, "module"));
      g_autofree char *bwd = gv_format_duration (gv_profile_get_category_ns (p, "backward"));
      g_autofree char *opt = gv_format_duration (gv_profile_get_category_ns (p, "optimizer"));
      g_autofree char *kernels = gv_format_count (gv_profile_get_n_kernels (p));

      /* Translators: the profile's source, the step's time, then where it went */
      g_string_append_printf (s, _("%s · step %s: forward %s, backward %s, optimizer %s · %s kernel calls"),
                              gv_profile_get_label (p), step, fwd, bwd, opt, kernels);
      if (gv_profile_get_n_steps (p) > 1)
        g_string_append_printf (s, _(" · step %u of %u in the trace"), gv_profile_get_step (p) + 1,
                                gv_profile_get_n_steps (p));
    }
  if (self->waiting)
    g_string_append (s, s->len ? _(" · profiling the next step…") : _("Profiling the next step…"));
  gtk_label_set_text (self->summary, s->str);
}

static void
update_stack (GvProfilePage *self)
{
  gtk_stack_set_visible_child_name (self->stack, self->profile ? "profile" : "empty");
  adw_status_page_set_title (self->status, self->waiting ? _("Profiling the Next Step…") : _("No Profile"));
  update_summary (self);
}

/* the name of @row's ranges: "path (Type)", the model's by its type alone */
static char *
range_name (GvProfileRow *row)
{
  const char *path = gv_profile_row_get_path (row);

  return path[0] ? g_strdup_printf ("%s (%s)", path, gv_profile_row_get_type_name (row))
                 : g_strdup (gv_profile_row_get_type_name (row));
}

static void
on_selection_changed (GtkSelectionModel *model,
                      guint              position,
                      guint              n_items,
                      GvProfilePage     *self)
{
  GvProfileRow *row = gtk_single_selection_get_selected_item (self->selection);
  g_autofree char *name = row ? range_name (row) : NULL;

  if (name == NULL || !gv_flame_chart_zoom_to (self->chart, name))
    gv_flame_chart_set_view (self->chart, 0, G_MAXDOUBLE);
}

gboolean
gv_profile_page_select (GvProfilePage *self,
                        const char    *path)
{
  GListModel *rows = G_LIST_MODEL (self->sorted);

  for (guint i = 0; i < g_list_model_get_n_items (rows); i++)
    {
      g_autoptr(GvProfileRow) row = g_list_model_get_item (rows, i);

      if (g_str_equal (gv_profile_row_get_path (row), path))
        {
          gtk_single_selection_set_selected (self->selection, i);
          return TRUE;
        }
    }
  return FALSE;
}

GvProfileRow *
gv_profile_page_get_selected (GvProfilePage *self)
{
  return gtk_single_selection_get_selected_item (self->selection);
}

static void
on_step_changed (GtkSpinButton *spin,
                 GvProfilePage *self)
{
  if (self->profile == NULL ||
      !gv_profile_set_step (self->profile, (guint) gtk_spin_button_get_value_as_int (spin) - 1))
    return;
  gv_flame_chart_set_profile (self->chart, self->profile);
  on_selection_changed (NULL, 0, 0, self);
  update_summary (self);
}

void
gv_profile_page_set_profile (GvProfilePage *self,
                             GvProfile     *profile)
{
  guint n_steps = profile ? gv_profile_get_n_steps (profile) : 0;

  g_set_object (&self->profile, profile);
  self->waiting = FALSE;
  gtk_sort_list_model_set_model (self->sorted, profile ? gv_profile_get_rows (profile) : NULL);
  g_signal_handlers_block_by_func (self->step_spin, on_step_changed, self);
  gtk_spin_button_set_range (self->step_spin, 1, MAX (n_steps, 1));
  gtk_spin_button_set_value (self->step_spin, profile ? gv_profile_get_step (profile) + 1 : 1);
  g_signal_handlers_unblock_by_func (self->step_spin, on_step_changed, self);
  gtk_widget_set_visible (self->step_box, n_steps > 1);
  gtk_single_selection_set_selected (self->selection, GTK_INVALID_LIST_POSITION);
  gv_flame_chart_set_profile (self->chart, profile);
  update_stack (self);
}

gboolean
gv_profile_page_set_step (GvProfilePage *self,
                          guint          index)
{
  if (self->profile == NULL || index >= MAX (gv_profile_get_n_steps (self->profile), 1))
    return FALSE;
  gtk_spin_button_set_value (self->step_spin, index + 1);
  on_step_changed (self->step_spin, self);
  return TRUE;
}

GvProfile *
gv_profile_page_get_profile (GvProfilePage *self)
{
  return self->profile;
}

void
gv_profile_page_set_waiting (GvProfilePage *self,
                             gboolean       waiting)
{
  self->waiting = waiting;
  update_stack (self);
}

GListModel *
gv_profile_page_get_rows (GvProfilePage *self)
{
  return G_LIST_MODEL (self->sorted);
}

GvFlameChart *
gv_profile_page_get_chart (GvProfilePage *self)
{
  return self->chart;
}

const char *
gv_profile_page_get_summary (GvProfilePage *self)
{
  return gtk_label_get_text (self->summary);
}

static void
gv_profile_page_dispose (GObject *object)
{
  GvProfilePage *self = GV_PROFILE_PAGE (object);

  g_clear_object (&self->profile);
  gtk_widget_dispose_template (GTK_WIDGET (self), GV_TYPE_PROFILE_PAGE);
  G_OBJECT_CLASS (gv_profile_page_parent_class)->dispose (object);
}

static void
gv_profile_page_class_init (GvProfilePageClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  G_OBJECT_CLASS (klass)->dispose = gv_profile_page_dispose;
  g_type_ensure (GV_TYPE_FLAME_CHART);
  gtk_widget_class_set_template_from_resource (widget_class, "/org/gnn/Viewer/gv-profile-page.ui");
  gtk_widget_class_bind_template_child (widget_class, GvProfilePage, stack);
  gtk_widget_class_bind_template_child (widget_class, GvProfilePage, status);
  gtk_widget_class_bind_template_child (widget_class, GvProfilePage, summary);
  gtk_widget_class_bind_template_child (widget_class, GvProfilePage, step_box);
  gtk_widget_class_bind_template_child (widget_class, GvProfilePage, step_spin);
  gtk_widget_class_bind_template_child (widget_class, GvProfilePage, column_view);
  gtk_widget_class_bind_template_child (widget_class, GvProfilePage, chart);
}

static void
gv_profile_page_init (GvProfilePage *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  g_signal_connect (self->step_spin, "value-changed", G_CALLBACK (on_step_changed), self);
  for (int col = 0; col < N_COLUMNS; col++)
    {
      GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();
      GtkExpression *expr = gtk_property_expression_new (GV_TYPE_PROFILE_ROW, NULL, column_property (col));
      GtkSorter *sorter = col <= COL_TYPE ? GTK_SORTER (gtk_string_sorter_new (expr))
                                          : GTK_SORTER (gtk_numeric_sorter_new (expr));
      GtkColumnViewColumn *column;

      g_signal_connect (factory, "setup", G_CALLBACK (setup_cell), GINT_TO_POINTER (col));
      g_signal_connect (factory, "bind", G_CALLBACK (bind_cell), GINT_TO_POINTER (col));
      column = gtk_column_view_column_new (column_title (col), factory);
      gtk_column_view_column_set_resizable (column, TRUE);
      gtk_column_view_column_set_sorter (column, sorter);
      if (col == COL_PATH)
        gtk_column_view_column_set_expand (column, TRUE);
      gtk_column_view_append_column (self->column_view, column);
      self->columns[col] = column;
      g_object_unref (sorter);
      g_object_unref (column);
    }
  self->sorted = gtk_sort_list_model_new (NULL, g_object_ref (gtk_column_view_get_sorter (self->column_view)));
  self->selection = gtk_single_selection_new (g_object_ref (G_LIST_MODEL (self->sorted)));
  gtk_single_selection_set_autoselect (self->selection, FALSE);
  gtk_single_selection_set_can_unselect (self->selection, TRUE);
  gtk_single_selection_set_selected (self->selection, GTK_INVALID_LIST_POSITION);
  g_signal_connect (self->selection, "selection-changed", G_CALLBACK (on_selection_changed), self);
  gtk_column_view_set_model (self->column_view, GTK_SELECTION_MODEL (self->selection));
  g_object_unref (self->selection);   /* the column view holds it */
  g_object_unref (self->sorted);      /* the selection holds it */
  /* the largest total first */
  gtk_column_view_sort_by_column (self->column_view, self->columns[COL_TOTAL], GTK_SORT_DESCENDING);
  update_stack (self);
}
