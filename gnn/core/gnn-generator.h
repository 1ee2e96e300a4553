/* gnn-generator.h: seeded random number generators
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined (GNN_INSIDE) && !defined (GNN_COMPILATION)
#error "Only <gnn/gnn.h> can be included directly."
#endif

#include <glib-object.h>
#include "../gnn-version-macros.h"

G_BEGIN_DECLS

#define GNN_TYPE_GENERATOR (gnn_generator_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnGenerator, gnn_generator, GNN, GENERATOR, GObject)

GNN_AVAILABLE_IN_ALL
GnnGenerator *gnn_generator_new          (guint64       seed);
GNN_AVAILABLE_IN_ALL
GnnGenerator *gnn_generator_get_default  (void);
GNN_AVAILABLE_IN_ALL
void          gnn_generator_manual_seed  (GnnGenerator *self,
                                          guint64       seed);
GNN_AVAILABLE_IN_ALL
guint64       gnn_generator_get_seed     (GnnGenerator *self);
GNN_AVAILABLE_IN_ALL
guint64       gnn_generator_get_offset   (GnnGenerator *self);
GNN_AVAILABLE_IN_ALL
void          gnn_generator_set_state    (GnnGenerator *self,
                                          guint64       seed,
                                          guint64       offset);
GNN_AVAILABLE_IN_ALL
guint64       gnn_generator_reserve      (GnnGenerator *self,
                                          guint64       count);

GNN_AVAILABLE_IN_ALL
void          gnn_manual_seed            (guint64       seed);

G_END_DECLS
