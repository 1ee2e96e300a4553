/* gnn-prune-report.h: how sparse a module's tensors are (a gnn extension of torch.nn.utils.prune)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined (GNN_INSIDE) && !defined (GNN_COMPILATION)
#error "Only <gnn/gnn.h> can be included directly."
#endif

#include <glib-object.h>
#include "../gnn-version-macros.h"
#include "gnn-module.h"

G_BEGIN_DECLS

#define GNN_TYPE_SPARSITY_REPORT (gnn_sparsity_report_get_type ())
GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnSparsityReport, gnn_sparsity_report, GNN, SPARSITY_REPORT, GObject)

GNN_AVAILABLE_IN_ALL
GnnSparsityReport *gnn_prune_sparsity_report           (GnnModule          *module,
                                                        const char * const *names,
                                                        gboolean            pruned_only,
                                                        GError            **error);

GNN_AVAILABLE_IN_ALL
guint              gnn_sparsity_report_get_n_tensors   (GnnSparsityReport *self);
GNN_AVAILABLE_IN_ALL
const char        *gnn_sparsity_report_get_module_path (GnnSparsityReport *self,
                                                        guint              index);
GNN_AVAILABLE_IN_ALL
const char        *gnn_sparsity_report_get_module_type (GnnSparsityReport *self,
                                                        guint              index);
GNN_AVAILABLE_IN_ALL
const char        *gnn_sparsity_report_get_tensor_name (GnnSparsityReport *self,
                                                        guint              index);
GNN_AVAILABLE_IN_ALL
gint64             gnn_sparsity_report_get_zeros       (GnnSparsityReport *self,
                                                        guint              index);
GNN_AVAILABLE_IN_ALL
gint64             gnn_sparsity_report_get_numel       (GnnSparsityReport *self,
                                                        guint              index);
GNN_AVAILABLE_IN_ALL
double             gnn_sparsity_report_get_fraction    (GnnSparsityReport *self,
                                                        guint              index);
GNN_AVAILABLE_IN_ALL
gboolean           gnn_sparsity_report_get_pruned      (GnnSparsityReport *self,
                                                        guint              index);
GNN_AVAILABLE_IN_ALL
gint64             gnn_sparsity_report_get_global_zeros    (GnnSparsityReport *self);
GNN_AVAILABLE_IN_ALL
gint64             gnn_sparsity_report_get_global_numel    (GnnSparsityReport *self);
GNN_AVAILABLE_IN_ALL
double             gnn_sparsity_report_get_global_fraction (GnnSparsityReport *self);
GNN_AVAILABLE_IN_ALL
gboolean           gnn_sparsity_report_lookup_module   (GnnSparsityReport *self,
                                                        const char        *path,
                                                        gint64            *zeros,
                                                        gint64            *numel);
GNN_AVAILABLE_IN_ALL
char              *gnn_sparsity_report_to_string       (GnnSparsityReport *self);

G_END_DECLS
