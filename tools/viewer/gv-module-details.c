/* gv-module-details.c: the pane beside the module tree: the selected module's parameters,
 * their shapes and the histograms of their values and gradients
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "gv-module-details.h"
#include "gv-format.h"
#include "gv-histogram.h"

#include <glib/gi18n.h>

struct _GvModuleDetails
{
  AdwBin     parent_instance;

  GtkStack  *stack;
  GtkLabel  *title;
  GtkLabel  *subtitle;
  GtkBox    *parameters;

  GvNode    *node;
  GPtrArray *rows;       /* ParamRow */
};

/* the widgets of one parameter */
typedef struct
{
  char        *name;
  GnnTensor   *tensor;
  GtkWidget   *box;
  GtkLabel    *shape;
  GvHistogram *values;
  GvHistogram *grads;
  GtkLabel    *no_grad;
} ParamRow;

G_DEFINE_FINAL_TYPE (GvModuleDetails, gv_module_details, ADW_TYPE_BIN)

static void
param_row_free (ParamRow *row)
{
  g_free (row->name);
  g_object_unref (row->tensor);
  g_free (row);
}

static GtkWidget *
caption (const char *text)
{
  GtkWidget *label = gtk_label_new (text);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_widget_add_css_class (label, "caption-heading");
  gtk_widget_add_css_class (label, "dim-label");
  return label;
}

static ParamRow *
param_row_new (const char *name,
               GnnTensor  *tensor)
{
  ParamRow *row = g_new0 (ParamRow, 1);
  GtkWidget *heading = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  GtkWidget *label = gtk_label_new (name);
  GtkWidget *grads = gtk_box_new (GTK_ORIENTATION_VERTICAL, 4);

  row->name = g_strdup (name);
  row->tensor = g_object_ref (tensor);
  row->box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  gtk_widget_add_css_class (row->box, "card");
  gtk_widget_set_margin_bottom (row->box, 0);
  g_object_set (row->box, "margin-start", 0, NULL);

  gtk_widget_add_css_class (label, "heading");
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_widget_set_hexpand (label, TRUE);
  gtk_box_append (GTK_BOX (heading), label);
  row->shape = GTK_LABEL (gtk_label_new (NULL));
  gtk_widget_add_css_class (GTK_WIDGET (row->shape), "numeric");
  gtk_widget_add_css_class (GTK_WIDGET (row->shape), "dim-label");
  gtk_box_append (GTK_BOX (heading), GTK_WIDGET (row->shape));
  gtk_box_append (GTK_BOX (row->box), heading);

  gtk_box_append (GTK_BOX (row->box), caption (_("Values")));
  row->values = GV_HISTOGRAM (gv_histogram_new ("accent_color"));
  gtk_box_append (GTK_BOX (row->box), GTK_WIDGET (row->values));

  gtk_box_append (GTK_BOX (grads), caption (_("Gradients")));
  row->grads = GV_HISTOGRAM (gv_histogram_new ("warning_color"));
  gtk_box_append (GTK_BOX (grads), GTK_WIDGET (row->grads));
  row->no_grad = GTK_LABEL (gtk_label_new (_("None yet: train a step")));
  gtk_label_set_xalign (row->no_grad, 0);
  gtk_widget_add_css_class (GTK_WIDGET (row->no_grad), "dim-label");
  gtk_box_append (GTK_BOX (grads), GTK_WIDGET (row->no_grad));
  gtk_box_append (GTK_BOX (row->box), grads);

  for (GtkWidget *w = gtk_widget_get_first_child (row->box); w; w = gtk_widget_get_next_sibling (w))
    {
      gtk_widget_set_margin_start (w, 12);
      gtk_widget_set_margin_end (w, 12);
    }
  gtk_widget_set_margin_top (heading, 10);
  gtk_widget_set_margin_bottom (grads, 10);
  return row;
}

/* the histogram of @tensor's elements into @histogram; FALSE when it has none to read */
static gboolean
fill_histogram (GvHistogram *histogram,
                GnnTensor   *tensor)
{
  g_autofree float *values = NULL;
  gsize n = 0;

  if (tensor == NULL || (values = gnn_tensor_to_floats (tensor, &n, NULL)) == NULL)
    return FALSE;
  gv_histogram_set_values (histogram, values, n);
  return TRUE;
}

static void
param_row_refresh (ParamRow *row)
{
  guint ndim;
  const gint64 *shape = gnn_tensor_get_shape (row->tensor, &ndim);
  g_autofree char *dims = gv_format_shape (shape, ndim);
  g_autofree char *count = gv_format_count (gnn_tensor_get_numel (row->tensor));
  g_autofree char *text = g_strdup_printf ("%s · %s · %s", dims,
                                           gnn_dtype_get_name (gnn_tensor_get_dtype (row->tensor)), count);
  gboolean has_grad;

  gtk_label_set_text (row->shape, text);
  fill_histogram (row->values, row->tensor);
  has_grad = fill_histogram (row->grads, gnn_tensor_get_grad (row->tensor));
  gtk_widget_set_visible (GTK_WIDGET (row->grads), has_grad);
  gtk_widget_set_visible (GTK_WIDGET (row->no_grad), !has_grad);
}

void
gv_module_details_refresh (GvModuleDetails *self)
{
  if (self->node == NULL)
    return;
  for (guint i = 0; i < self->rows->len; i++)
    param_row_refresh (g_ptr_array_index (self->rows, i));
}

void
gv_module_details_set_node (GvModuleDetails *self,
                            GvNode          *node)
{
  GtkWidget *child;

  if (node == self->node)
    return;
  g_set_object (&self->node, node);
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->parameters))) != NULL)
    gtk_box_remove (self->parameters, child);
  g_ptr_array_set_size (self->rows, 0);
  if (node == NULL)
    {
      gtk_stack_set_visible_child_name (self->stack, "empty");
      return;
    }
  {
    g_auto(GStrv) names = NULL;
    g_autoptr(GPtrArray) own = gnn_module_named_parameters (node->module, NULL, FALSE, TRUE, &names);
    g_autofree char *count = gv_format_count (node->own_params);
    g_autofree char *subtitle = NULL;

    gtk_label_set_text (self->title, node->name[0] ? node->name : _("The model"));
    subtitle = own->len == 0 ? g_strdup_printf (_("%s · no parameters of its own"), node->type_name)
                             : g_strdup_printf (g_dngettext (NULL, "%s · %s parameter", "%s · %s parameters",
                                                             node->own_params),
                                                node->type_name, count);
    gtk_label_set_text (self->subtitle, subtitle);
    for (guint i = 0; i < own->len; i++)
      {
        ParamRow *row = param_row_new (names[i], g_ptr_array_index (own, i));

        g_ptr_array_add (self->rows, row);
        gtk_box_append (self->parameters, row->box);
      }
  }
  gv_module_details_refresh (self);
  gtk_stack_set_visible_child_name (self->stack, "module");
}

GvNode *
gv_module_details_get_node (GvModuleDetails *self)
{
  return self->node;
}

static void
append_counts (GString     *out,
               GvHistogram *histogram,
               gboolean     shown)
{
  double lo, hi;
  const gint64 *counts = gv_histogram_get_counts (histogram, &lo, &hi);

  g_string_append_c (out, '\t');
  if (!shown)
    return;
  for (int i = 0; i < GV_HISTOGRAM_BINS; i++)
    g_string_append_printf (out, "%s%" G_GINT64_FORMAT, i ? "," : "", counts[i]);
}

char *
gv_module_details_dump (GvModuleDetails *self)
{
  GString *out = g_string_new (NULL);

  for (guint i = 0; self->node && i < self->rows->len; i++)
    {
      ParamRow *row = g_ptr_array_index (self->rows, i);
      guint ndim;
      const gint64 *shape = gnn_tensor_get_shape (row->tensor, &ndim);

      g_string_append_printf (out, "%s\t", row->name);
      for (guint d = 0; d < ndim; d++)
        g_string_append_printf (out, "%s%" G_GINT64_FORMAT, d ? "," : "", shape[d]);
      g_string_append_printf (out, "\t%" G_GINT64_FORMAT, gnn_tensor_get_numel (row->tensor));
      append_counts (out, row->values, TRUE);
      append_counts (out, row->grads, gtk_widget_get_visible (GTK_WIDGET (row->grads)));
      g_string_append_c (out, '\n');
    }
  return g_string_free (out, FALSE);
}

static void
gv_module_details_dispose (GObject *object)
{
  GvModuleDetails *self = GV_MODULE_DETAILS (object);

  g_clear_object (&self->node);
  g_clear_pointer (&self->rows, g_ptr_array_unref);
  gtk_widget_dispose_template (GTK_WIDGET (self), GV_TYPE_MODULE_DETAILS);
  G_OBJECT_CLASS (gv_module_details_parent_class)->dispose (object);
}

static void
gv_module_details_class_init (GvModuleDetailsClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  G_OBJECT_CLASS (klass)->dispose = gv_module_details_dispose;
  gtk_widget_class_set_template_from_resource (widget_class, "/org/gnn/Viewer/gv-module-details.ui");
  gtk_widget_class_bind_template_child (widget_class, GvModuleDetails, stack);
  gtk_widget_class_bind_template_child (widget_class, GvModuleDetails, title);
  gtk_widget_class_bind_template_child (widget_class, GvModuleDetails, subtitle);
  gtk_widget_class_bind_template_child (widget_class, GvModuleDetails, parameters);
}

static void
gv_module_details_init (GvModuleDetails *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  self->rows = g_ptr_array_new_with_free_func ((GDestroyNotify) param_row_free);
}
