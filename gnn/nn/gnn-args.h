/* gnn-args.h: the inputs and outputs of a module call
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined (GNN_INSIDE) && !defined (GNN_COMPILATION)
#error "Only <gnn/gnn.h> can be included directly."
#endif

#include <glib-object.h>
#include "../gnn-version-macros.h"
#include "../core/gnn-tensor.h"

G_BEGIN_DECLS

#define GNN_TYPE_ARGS (gnn_args_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnArgs, gnn_args, GNN, ARGS, GObject)

GNN_AVAILABLE_IN_ALL
GnnArgs      *gnn_args_new              (void);
GNN_AVAILABLE_IN_ALL
GnnArgs      *gnn_args_new_tensor       (GnnTensor    *tensor);
GNN_AVAILABLE_IN_ALL
GnnArgs      *gnn_args_copy             (GnnArgs      *self);

GNN_AVAILABLE_IN_ALL
void          gnn_args_set_from         (GnnArgs      *self,
                                         GnnArgs      *other);
GNN_AVAILABLE_IN_ALL
void          gnn_args_clear_values     (GnnArgs      *self);
GNN_AVAILABLE_IN_ALL
guint         gnn_args_get_n_values     (GnnArgs      *self);
GNN_AVAILABLE_IN_ALL
void          gnn_args_add_value        (GnnArgs      *self,
                                         const GValue *value);
GNN_AVAILABLE_IN_ALL
void          gnn_args_add_tensor       (GnnArgs      *self,
                                         GnnTensor    *tensor);
GNN_AVAILABLE_IN_ALL
void          gnn_args_add_double       (GnnArgs      *self,
                                         double        value);
GNN_AVAILABLE_IN_ALL
void          gnn_args_add_int          (GnnArgs      *self,
                                         gint64        value);
GNN_AVAILABLE_IN_ALL
void          gnn_args_add_boolean      (GnnArgs      *self,
                                         gboolean      value);
GNN_AVAILABLE_IN_ALL
void          gnn_args_add_string       (GnnArgs      *self,
                                         const char   *value);
GNN_AVAILABLE_IN_ALL
const GValue *gnn_args_get_value        (GnnArgs      *self,
                                         guint         index);
GNN_AVAILABLE_IN_ALL
gboolean      gnn_args_set_value        (GnnArgs      *self,
                                         guint         index,
                                         const GValue *value,
                                         GError      **error);
GNN_AVAILABLE_IN_ALL
gboolean      gnn_args_set_tensor       (GnnArgs      *self,
                                         guint         index,
                                         GnnTensor    *tensor,
                                         GError      **error);
GNN_AVAILABLE_IN_ALL
GnnTensor    *gnn_args_get_tensor       (GnnArgs      *self,
                                         guint         index,
                                         GError      **error);
GNN_AVAILABLE_IN_ALL
double        gnn_args_get_double       (GnnArgs      *self,
                                         guint         index,
                                         GError      **error);
GNN_AVAILABLE_IN_ALL
gint64        gnn_args_get_int          (GnnArgs      *self,
                                         guint         index,
                                         GError      **error);
GNN_AVAILABLE_IN_ALL
gboolean      gnn_args_get_boolean      (GnnArgs      *self,
                                         guint         index,
                                         GError      **error);
GNN_AVAILABLE_IN_ALL
const char   *gnn_args_get_string       (GnnArgs      *self,
                                         guint         index,
                                         GError      **error);
GNN_AVAILABLE_IN_ALL
gboolean      gnn_args_is_tensor        (GnnArgs      *self,
                                         guint         index);

GNN_AVAILABLE_IN_ALL
void          gnn_args_set_kwarg        (GnnArgs      *self,
                                         const char   *name,
                                         const GValue *value);
GNN_AVAILABLE_IN_ALL
void          gnn_args_set_kwarg_tensor (GnnArgs      *self,
                                         const char   *name,
                                         GnnTensor    *tensor);
GNN_AVAILABLE_IN_ALL
const GValue *gnn_args_get_kwarg        (GnnArgs      *self,
                                         const char   *name);
GNN_AVAILABLE_IN_ALL
gboolean      gnn_args_has_kwarg        (GnnArgs      *self,
                                         const char   *name);
GNN_AVAILABLE_IN_ALL
gboolean      gnn_args_remove_kwarg     (GnnArgs      *self,
                                         const char   *name);
GNN_AVAILABLE_IN_ALL
char        **gnn_args_get_kwarg_names  (GnnArgs      *self);

G_END_DECLS
