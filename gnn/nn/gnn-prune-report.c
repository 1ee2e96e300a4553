/* gnn-prune-report.c: how sparse a module's tensors are
 *
 * torch.nn.utils.prune has no report: its tutorial counts `torch.sum (module.weight == 0)` by
 * hand for each tensor and for the whole. gnn_prune_sparsity_report() does that count once for
 * a module tree: for each module (its path and type) each prunable tensor (a parameter, or a
 * pruned tensor in place of its `<name>_orig`) with its zeros, its entries and their fraction,
 * and the same over all the tensors chosen. The tensor counted is the one the module's forward
 * reads: for a pruned tensor `<name>_orig · <name>_mask`.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <string.h>

#include "gnn-prune-report.h"
#include "gnn-prune.h"
#include "../ops/gnn-ops.h"
#include "../autograd/graph/gnn-grad-mode.h"

typedef struct {
  char *path;
  char *type;
  char *name;
  gint64 zeros;
  gint64 numel;
  gboolean pruned;
} Entry;

struct _GnnSparsityReport
{
  GObject parent_instance;
  GArray *entries;   /* Entry */
  gint64 zeros;
  gint64 numel;
};

/**
 * GnnSparsityReport:
 *
 * How sparse the tensors of a module tree are: made by [func@Gnn.prune_sparsity_report].
 *
 * This is a gnn extension: torch.nn.utils.prune has no such report (its pruning tutorial counts
 * `torch.sum (module.weight == 0)` by hand). Each row is one tensor of one module: the module's
 * path in the tree (as `named_modules` gives it, "" for the root), its type as PyTorch prints
 * it ("Conv2d"), the tensor's name, its zeros, its number of entries and their fraction, and
 * whether it is pruned; the global numbers add up every row. In Python it is
 * `gnn.nn.utils.prune.sparsity_report (module)`.
 *
 * Since: 0.1
 */
G_DEFINE_FINAL_TYPE (GnnSparsityReport, gnn_sparsity_report, G_TYPE_OBJECT)

static void
entry_clear (gpointer data)
{
  Entry *e = data;

  g_free (e->path);
  g_free (e->type);
  g_free (e->name);
}

static void
gnn_sparsity_report_finalize (GObject *object)
{
  g_array_unref (GNN_SPARSITY_REPORT (object)->entries);
  G_OBJECT_CLASS (gnn_sparsity_report_parent_class)->finalize (object);
}

static void
gnn_sparsity_report_class_init (GnnSparsityReportClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = gnn_sparsity_report_finalize;
}

static void
gnn_sparsity_report_init (GnnSparsityReport *self)
{
  self->entries = g_array_new (FALSE, TRUE, sizeof (Entry));
  g_array_set_clear_func (self->entries, entry_clear);
}

/* the number of zeros of @t, or -1 with @error set */
static gint64
count_zeros (GnnTensor *t, GError **error)
{
  g_autoptr(GnnNoGradGuard) guard = gnn_no_grad_guard_new ();
  g_autoptr(GnnTensor) nz = gnn_tensor_count_nonzero (t, NULL, 0, error);
  GError *local = NULL;
  double n;

  if (nz == NULL)
    return -1;
  n = gnn_tensor_item (nz, &local);
  if (local)
    {
      g_propagate_error (error, local);
      return -1;
    }
  return gnn_tensor_get_numel (t) - (gint64) n;
}

static gboolean
wanted (const char *name, const char * const *names)
{
  return names == NULL || g_strv_contains (names, name);
}

/* adds @module's own tensors to @self */
static gboolean
add_module (GnnSparsityReport *self, const char *path, GnnModule *module, const char * const *names,
            gboolean pruned_only, GHashTable *seen, GError **error)
{
  g_auto(GStrv) pnames = NULL;
  g_autoptr(GPtrArray) params = gnn_module_named_parameters (module, NULL, FALSE, FALSE, &pnames);

  for (guint i = 0; i < params->len; i++)
    {
      const char *pname = pnames[i];
      g_autofree char *base = NULL;
      g_autoptr(GnnTensor) t = NULL;
      gboolean pruned = FALSE;
      Entry e = { 0 };

      if (g_str_has_suffix (pname, "_orig"))
        {
          base = g_strndup (pname, strlen (pname) - strlen ("_orig"));
          pruned = gnn_prune_get_method (module, base) != NULL;
        }
      if (!pruned)
        {
          g_clear_pointer (&base, g_free);
          base = g_strdup (pname);
        }
      if (!wanted (base, names) || (pruned_only && !pruned))
        continue;
      if (pruned)
        {
          if (!(t = gnn_module_get_tensor (module, base, error)))
            {
              g_prefix_error (error, "sparsity report of '%s' of %s: ", base, gnn_module_get_name (module));
              return FALSE;
            }
        }
      else
        {
          /* a parameter shared by several modules is counted once, in the first */
          if (!g_hash_table_add (seen, params->pdata[i]))
            continue;
          t = g_object_ref (params->pdata[i]);
        }
      e.numel = gnn_tensor_get_numel (t);
      if ((e.zeros = count_zeros (t, error)) < 0)
        {
          g_prefix_error (error, "sparsity report of '%s' of %s: ", base, gnn_module_get_name (module));
          return FALSE;
        }
      e.path = g_strdup (path);
      e.type = g_strdup (gnn_module_get_name (module));
      e.name = g_steal_pointer (&base);
      e.pruned = pruned;
      self->zeros += e.zeros;
      self->numel += e.numel;
      g_array_append_val (self->entries, e);
    }
  return TRUE;
}

/**
 * gnn_prune_sparsity_report:
 * @module: the root of a module tree
 * @names: (array zero-terminated=1) (nullable): the names of the tensors to count ("weight");
 *   %NULL: every prunable tensor
 * @pruned_only: whether to count only the tensors that are pruned
 * @error: return location for a #GError
 *
 * Counts the zeros of the prunable tensors of @module and of every module below it: for each
 * module, in the order of `named_modules`, each of its own parameters, or, for a pruned tensor,
 * the tensor its forward reads (`<name>_orig · <name>_mask`, listed under `<name>`). @names
 * and @pruned_only choose the tensors; the report's global numbers are over the tensors chosen,
 * as the pruning tutorial's global sparsity is over the tensors given to `global_unstructured`.
 * A parameter shared by several modules is counted once.
 *
 * A gnn extension: torch.nn.utils.prune has no such function. In Python:
 * `gnn.nn.utils.prune.sparsity_report (module, names=None, pruned_only=False)`.
 *
 * Returns: (transfer full): the report, or %NULL with @error set when a pruned tensor cannot
 *   be computed (its `<name>_mask` removed by hand)
 *
 * Since: 0.1
 */
GnnSparsityReport *
gnn_prune_sparsity_report (GnnModule          *module,
                           const char * const *names,
                           gboolean            pruned_only,
                           GError            **error)
{
  g_autoptr(GnnSparsityReport) self = NULL;
  g_autoptr(GHashTable) seen = NULL;
  g_auto(GStrv) paths = NULL;
  g_autoptr(GPtrArray) modules = NULL;

  g_return_val_if_fail (GNN_IS_MODULE (module), NULL);
  self = g_object_new (GNN_TYPE_SPARSITY_REPORT, NULL);
  seen = g_hash_table_new (NULL, NULL);
  modules = gnn_module_named_modules (module, "", TRUE, &paths);
  for (guint i = 0; i < modules->len; i++)
    if (!add_module (self, paths[i], modules->pdata[i], names, pruned_only, seen, error))
      return NULL;
  return g_steal_pointer (&self);
}

static Entry *
entry (GnnSparsityReport *self, guint index)
{
  return &g_array_index (self->entries, Entry, index);
}

/**
 * gnn_sparsity_report_get_n_tensors:
 * @self: a report
 *
 * The number of tensors (rows) the report counts.
 *
 * Returns: the number of rows
 *
 * Since: 0.1
 */
guint
gnn_sparsity_report_get_n_tensors (GnnSparsityReport *self)
{
  g_return_val_if_fail (GNN_IS_SPARSITY_REPORT (self), 0);
  return self->entries->len;
}

/**
 * gnn_sparsity_report_get_module_path:
 * @self: a report
 * @index: a row, below [method@Gnn.SparsityReport.get_n_tensors]
 *
 * The path of the row's module in the tree ("features.0"; "" for the root).
 *
 * Returns: the path
 *
 * Since: 0.1
 */
const char *
gnn_sparsity_report_get_module_path (GnnSparsityReport *self,
                                     guint              index)
{
  g_return_val_if_fail (GNN_IS_SPARSITY_REPORT (self), NULL);
  g_return_val_if_fail (index < self->entries->len, NULL);
  return entry (self, index)->path;
}

/**
 * gnn_sparsity_report_get_module_type:
 * @self: a report
 * @index: a row, below [method@Gnn.SparsityReport.get_n_tensors]
 *
 * The type of the row's module as PyTorch prints it ("Conv2d").
 *
 * Returns: the type name
 *
 * Since: 0.1
 */
const char *
gnn_sparsity_report_get_module_type (GnnSparsityReport *self,
                                     guint              index)
{
  g_return_val_if_fail (GNN_IS_SPARSITY_REPORT (self), NULL);
  g_return_val_if_fail (index < self->entries->len, NULL);
  return entry (self, index)->type;
}

/**
 * gnn_sparsity_report_get_tensor_name:
 * @self: a report
 * @index: a row, below [method@Gnn.SparsityReport.get_n_tensors]
 *
 * The name of the row's tensor in its module ("weight", also when it is pruned and the
 * parameter is `weight_orig`).
 *
 * Returns: the name
 *
 * Since: 0.1
 */
const char *
gnn_sparsity_report_get_tensor_name (GnnSparsityReport *self,
                                     guint              index)
{
  g_return_val_if_fail (GNN_IS_SPARSITY_REPORT (self), NULL);
  g_return_val_if_fail (index < self->entries->len, NULL);
  return entry (self, index)->name;
}

/**
 * gnn_sparsity_report_get_zeros:
 * @self: a report
 * @index: a row, below [method@Gnn.SparsityReport.get_n_tensors]
 *
 * The number of entries of the row's tensor that are zero (`torch.sum (t == 0)`).
 *
 * Returns: the zeros
 *
 * Since: 0.1
 */
gint64
gnn_sparsity_report_get_zeros (GnnSparsityReport *self,
                               guint              index)
{
  g_return_val_if_fail (GNN_IS_SPARSITY_REPORT (self), 0);
  g_return_val_if_fail (index < self->entries->len, 0);
  return entry (self, index)->zeros;
}

/**
 * gnn_sparsity_report_get_numel:
 * @self: a report
 * @index: a row, below [method@Gnn.SparsityReport.get_n_tensors]
 *
 * The number of entries of the row's tensor (`t.numel ()`).
 *
 * Returns: the entries
 *
 * Since: 0.1
 */
gint64
gnn_sparsity_report_get_numel (GnnSparsityReport *self,
                               guint              index)
{
  g_return_val_if_fail (GNN_IS_SPARSITY_REPORT (self), 0);
  g_return_val_if_fail (index < self->entries->len, 0);
  return entry (self, index)->numel;
}

static double
fraction (gint64 zeros, gint64 numel)
{
  return numel > 0 ? (double) zeros / (double) numel : 0.0;
}

/**
 * gnn_sparsity_report_get_fraction:
 * @self: a report
 * @index: a row, below [method@Gnn.SparsityReport.get_n_tensors]
 *
 * The row's sparsity: its zeros over its entries (0 for an empty tensor).
 *
 * Returns: the fraction, in [0, 1]
 *
 * Since: 0.1
 */
double
gnn_sparsity_report_get_fraction (GnnSparsityReport *self,
                                  guint              index)
{
  g_return_val_if_fail (GNN_IS_SPARSITY_REPORT (self), 0.0);
  g_return_val_if_fail (index < self->entries->len, 0.0);
  return fraction (entry (self, index)->zeros, entry (self, index)->numel);
}

/**
 * gnn_sparsity_report_get_pruned:
 * @self: a report
 * @index: a row, below [method@Gnn.SparsityReport.get_n_tensors]
 *
 * Whether the row's tensor is pruned (has `<name>_orig`, `<name>_mask` and the pruning hook).
 *
 * Returns: %TRUE when it is pruned
 *
 * Since: 0.1
 */
gboolean
gnn_sparsity_report_get_pruned (GnnSparsityReport *self,
                                guint              index)
{
  g_return_val_if_fail (GNN_IS_SPARSITY_REPORT (self), FALSE);
  g_return_val_if_fail (index < self->entries->len, FALSE);
  return entry (self, index)->pruned;
}

/**
 * gnn_sparsity_report_get_global_zeros:
 * @self: a report
 *
 * The zeros of all the rows together.
 *
 * Returns: the zeros
 *
 * Since: 0.1
 */
gint64
gnn_sparsity_report_get_global_zeros (GnnSparsityReport *self)
{
  g_return_val_if_fail (GNN_IS_SPARSITY_REPORT (self), 0);
  return self->zeros;
}

/**
 * gnn_sparsity_report_get_global_numel:
 * @self: a report
 *
 * The entries of all the rows together.
 *
 * Returns: the entries
 *
 * Since: 0.1
 */
gint64
gnn_sparsity_report_get_global_numel (GnnSparsityReport *self)
{
  g_return_val_if_fail (GNN_IS_SPARSITY_REPORT (self), 0);
  return self->numel;
}

/**
 * gnn_sparsity_report_get_global_fraction:
 * @self: a report
 *
 * The global sparsity: the zeros of all the rows over their entries (0 when there are none).
 *
 * Returns: the fraction, in [0, 1]
 *
 * Since: 0.1
 */
double
gnn_sparsity_report_get_global_fraction (GnnSparsityReport *self)
{
  g_return_val_if_fail (GNN_IS_SPARSITY_REPORT (self), 0.0);
  return fraction (self->zeros, self->numel);
}

/**
 * gnn_sparsity_report_lookup_module:
 * @self: a report
 * @path: a module's path, as the rows give it ("" for the root)
 * @zeros: (out) (optional): the zeros of the module's rows together
 * @numel: (out) (optional): the entries of the module's rows together
 *
 * The sparsity of one module's own tensors (not those of its submodules), summed over its rows.
 *
 * Returns: %TRUE when the report has a row of the module at @path; %FALSE (and 0s) otherwise
 *
 * Since: 0.1
 */
gboolean
gnn_sparsity_report_lookup_module (GnnSparsityReport *self,
                                   const char        *path,
                                   gint64            *zeros,
                                   gint64            *numel)
{
  gint64 z = 0, n = 0;
  gboolean found = FALSE;

  g_return_val_if_fail (GNN_IS_SPARSITY_REPORT (self), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);
  for (guint i = 0; i < self->entries->len; i++)
    if (strcmp (entry (self, i)->path, path) == 0)
      {
        z += entry (self, i)->zeros;
        n += entry (self, i)->numel;
        found = TRUE;
      }
  if (zeros)
    *zeros = z;
  if (numel)
    *numel = n;
  return found;
}

/**
 * gnn_sparsity_report_to_string:
 * @self: a report
 *
 * The report as a table: a row per tensor (module path, type, tensor, zeros, entries,
 * sparsity as a percentage; a pruned tensor's name is followed by "*"), then the global row.
 *
 * Returns: (transfer full): the table, ending in a newline
 *
 * Since: 0.1
 */
char *
gnn_sparsity_report_to_string (GnnSparsityReport *self)
{
  GString *s;
  int wp = (int) strlen ("module"), wt = (int) strlen ("type"), wn = (int) strlen ("tensor");

  g_return_val_if_fail (GNN_IS_SPARSITY_REPORT (self), NULL);
  for (guint i = 0; i < self->entries->len; i++)
    {
      Entry *e = entry (self, i);
      wp = MAX (wp, (int) strlen (e->path[0] ? e->path : "(root)"));
      wt = MAX (wt, (int) strlen (e->type));
      wn = MAX (wn, (int) strlen (e->name) + 1);
    }
  s = g_string_new (NULL);
  g_string_append_printf (s, "%-*s  %-*s  %-*s  %12s  %12s  %8s\n", wp, "module", wt, "type", wn, "tensor",
                          "zeros", "numel", "sparsity");
  for (guint i = 0; i < self->entries->len; i++)
    {
      Entry *e = entry (self, i);
      g_autofree char *name = g_strconcat (e->name, e->pruned ? "*" : "", NULL);

      g_string_append_printf (s, "%-*s  %-*s  %-*s  %12" G_GINT64_FORMAT "  %12" G_GINT64_FORMAT "  %7.2f%%\n",
                              wp, e->path[0] ? e->path : "(root)", wt, e->type, wn, name, e->zeros, e->numel,
                              100.0 * fraction (e->zeros, e->numel));
    }
  g_string_append_printf (s, "%-*s  %-*s  %-*s  %12" G_GINT64_FORMAT "  %12" G_GINT64_FORMAT "  %7.2f%%\n",
                          wp, "global", wt, "", wn, "", self->zeros, self->numel,
                          100.0 * fraction (self->zeros, self->numel));
  return g_string_free (s, FALSE);
}
