/* gv-node.c: one row of gnn-viewer's module tree, a module and its statistics
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "gv-node.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

enum { CHANGED, N_SIGNALS };
static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (GvNode, gv_node, G_TYPE_OBJECT)

static void
gv_node_disconnect (GvNode *self)
{
  if (self->forward_id)
    g_signal_handler_disconnect (self->module, self->forward_id);
  if (self->backward_id)
    g_signal_handler_disconnect (self->module, self->backward_id);
  self->forward_id = self->backward_id = 0;
}

static void
gv_node_dispose (GObject *object)
{
  GvNode *self = GV_NODE (object);

  if (self->module)
    gv_node_disconnect (self);
  g_clear_object (&self->module);
  g_clear_object (&self->children);
  G_OBJECT_CLASS (gv_node_parent_class)->dispose (object);
}

static void
gv_node_finalize (GObject *object)
{
  GvNode *self = GV_NODE (object);

  g_free (self->name);
  g_free (self->type_name);
  G_OBJECT_CLASS (gv_node_parent_class)->finalize (object);
}

static void
gv_node_class_init (GvNodeClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = gv_node_dispose;
  object_class->finalize = gv_node_finalize;
  /* the statistics changed */
  signals[CHANGED] = g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                                   NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void
gv_node_init (GvNode *self)
{
  self->children = g_list_store_new (GV_TYPE_NODE);
}

GvNode *
gv_node_new (const char *name,
             GnnModule  *module)
{
  GvNode *self = g_object_new (GV_TYPE_NODE, NULL);
  g_auto(GStrv) names = NULL;
  g_autoptr(GPtrArray) own = gnn_module_named_parameters (module, NULL, FALSE, TRUE, &names);
  g_autoptr(GPtrArray) all = gnn_module_parameters (module, TRUE);

  self->name = g_strdup (name);
  self->module = g_object_ref (module);
  self->type_name = g_strdup (gnn_module_get_name (module));
  for (guint i = 0; i < own->len; i++)
    self->own_params += gnn_tensor_get_numel (g_ptr_array_index (own, i));
  for (guint i = 0; i < all->len; i++)
    self->total_params += gnn_tensor_get_numel (g_ptr_array_index (all, i));
  return self;
}

GPtrArray *
gv_node_build_tree (GnnModule *model)
{
  g_auto(GStrv) names = NULL;
  g_autoptr(GPtrArray) modules = gnn_module_named_modules (model, NULL, TRUE, &names);
  g_autoptr(GHashTable) by_name = g_hash_table_new (g_str_hash, g_str_equal);
  GPtrArray *nodes = g_ptr_array_new_with_free_func (g_object_unref);

  for (guint i = 0; i < modules->len; i++)
    {
      GvNode *node = gv_node_new (names[i], g_ptr_array_index (modules, i));

      if (i > 0)
        {
          const char *dot = strrchr (names[i], '.');
          g_autofree char *parent_name = dot ? g_strndup (names[i], dot - names[i]) : g_strdup ("");
          GvNode *parent = g_hash_table_lookup (by_name, parent_name);

          g_list_store_append ((parent ? parent : GV_NODE (g_ptr_array_index (nodes, 0)))->children, node);
        }
      g_hash_table_insert (by_name, node->name, node);
      g_ptr_array_add (nodes, node);
    }
  return nodes;
}

const char *
gv_node_get_label (GvNode *self)
{
  const char *dot = strrchr (self->name, '.');

  if (self->name[0] == '\0')
    return _("(model)");
  return dot ? dot + 1 : self->name;
}

/* Adds @tensor's elements to @acc. */
static void
acc_add (GvAcc     *acc,
         GnnTensor *tensor)
{
  g_autofree float *data = NULL;
  gsize n = 0;
  double sum = 0, m2 = 0, max_abs = 0, mean, delta;
  gint64 total;

  data = gnn_tensor_to_floats (tensor, &n, NULL);
  if (data == NULL || n == 0)
    return;
  for (gsize i = 0; i < n; i++)
    {
      sum += data[i];
      max_abs = MAX (max_abs, fabs ((double) data[i]));
    }
  mean = sum / n;
  for (gsize i = 0; i < n; i++)
    m2 += (data[i] - mean) * (data[i] - mean);
  total = acc->n + (gint64) n;
  delta = mean - acc->mean;
  acc->m2 += m2 + delta * delta * ((double) acc->n * n / total);
  acc->mean += delta * n / total;
  acc->n = total;
  acc->max_abs = MAX (acc->max_abs, max_abs);
}

/* Shows what @acc gathered, if anything: mean, (unbiased) standard deviation, largest
 * magnitude. TRUE when @s changed. */
static gboolean
stats_publish (GvStats     *s,
               const GvAcc *acc)
{
  if (acc->n == 0)
    return FALSE;
  s->mean = acc->mean;
  s->std = acc->n > 1 ? sqrt (acc->m2 / (acc->n - 1)) : 0.0;
  s->max_abs = acc->max_abs;
  s->updates++;
  return TRUE;
}

/* The first tensor among @args' positional values, or NULL. */
static GnnTensor *
first_tensor (GnnArgs *args)
{
  guint n = args ? gnn_args_get_n_values (args) : 0;

  for (guint i = 0; i < n; i++)
    {
      const GValue *value = gnn_args_get_value (args, i);

      if (value && G_VALUE_HOLDS (value, GNN_TYPE_TENSOR) && g_value_get_object (value) != NULL)
        return g_value_get_object (value);
    }
  return NULL;
}

/* GnnModule::forward-post and ::backward-post alike: the first tensor of the output, or of the
 * gradient of the output (present for every module, where the gradient of the input is missing
 * for the first layer), into @acc */
static void
on_hook (GnnModule *module,
         GnnArgs   *input,
         GnnArgs   *output,
         GvAcc     *acc)
{
  GnnTensor *tensor = first_tensor (output);

  if (tensor)
    acc_add (acc, tensor);
}

void
gv_node_connect (GvNode *self)
{
  if (self->forward_id == 0)
    self->forward_id = g_signal_connect (self->module, "forward-post", G_CALLBACK (on_hook), &self->pending_act);
  if (self->backward_id == 0)
    self->backward_id = g_signal_connect (self->module, "backward-post", G_CALLBACK (on_hook), &self->pending_grad);
}

void
gv_node_reset_pending (GvNode *self)
{
  memset (&self->pending_act, 0, sizeof self->pending_act);
  memset (&self->pending_grad, 0, sizeof self->pending_grad);
}

void
gv_node_publish (GvNode *self)
{
  gboolean changed = stats_publish (&self->act, &self->pending_act);

  changed |= stats_publish (&self->grad, &self->pending_grad);
  if (changed)
    g_signal_emit (self, signals[CHANGED], 0);
}
