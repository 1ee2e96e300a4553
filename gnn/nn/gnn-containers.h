/* gnn-containers.h: Sequential, ModuleList, ModuleDict, ParameterList, ParameterDict
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
#include "gnn-parameter.h"

G_BEGIN_DECLS

/* ---- Sequential ---------------------------------------------------------------------- */

#define GNN_TYPE_SEQUENTIAL (gnn_sequential_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_DERIVABLE_TYPE (GnnSequential, gnn_sequential, GNN, SEQUENTIAL, GnnModule)

/**
 * GnnSequentialClass:
 * @parent_class: the parent class
 *
 * The class of [class@Gnn.Sequential]; subclasses override the virtual methods of
 * [class@Gnn.Module].
 */
struct _GnnSequentialClass
{
  GnnModuleClass parent_class;

  /*< private >*/
  gpointer padding[8];
};

GNN_AVAILABLE_IN_ALL
GnnSequential *gnn_sequential_new        (GnnModule     **modules,
                                          guint           n);
GNN_AVAILABLE_IN_ALL
void           gnn_sequential_append     (GnnSequential  *self,
                                          GnnModule      *module);
GNN_AVAILABLE_IN_ALL
GnnModule     *gnn_sequential_get        (GnnSequential  *self,
                                          int             index,
                                          GError        **error);
GNN_AVAILABLE_IN_ALL
guint          gnn_sequential_get_length (GnnSequential  *self);

/* ---- ModuleList ---------------------------------------------------------------------- */

#define GNN_TYPE_MODULE_LIST (gnn_module_list_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnModuleList, gnn_module_list, GNN, MODULE_LIST, GnnModule)

GNN_AVAILABLE_IN_ALL
GnnModuleList *gnn_module_list_new        (GnnModule     **modules,
                                           guint           n);
GNN_AVAILABLE_IN_ALL
void           gnn_module_list_append     (GnnModuleList  *self,
                                           GnnModule      *module);
GNN_AVAILABLE_IN_ALL
void           gnn_module_list_extend     (GnnModuleList  *self,
                                           GnnModule     **modules,
                                           guint           n);
GNN_AVAILABLE_IN_ALL
gboolean       gnn_module_list_insert     (GnnModuleList  *self,
                                           int             index,
                                           GnnModule      *module,
                                           GError        **error);
GNN_AVAILABLE_IN_ALL
GnnModule     *gnn_module_list_get        (GnnModuleList  *self,
                                           int             index,
                                           GError        **error);
GNN_AVAILABLE_IN_ALL
gboolean       gnn_module_list_set        (GnnModuleList  *self,
                                           int             index,
                                           GnnModule      *module,
                                           GError        **error);
GNN_AVAILABLE_IN_ALL
GnnModule     *gnn_module_list_pop        (GnnModuleList  *self,
                                           int             index,
                                           GError        **error);
GNN_AVAILABLE_IN_ALL
guint          gnn_module_list_get_length (GnnModuleList  *self);

/* ---- ModuleDict ---------------------------------------------------------------------- */

#define GNN_TYPE_MODULE_DICT (gnn_module_dict_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnModuleDict, gnn_module_dict, GNN, MODULE_DICT, GnnModule)

GNN_AVAILABLE_IN_ALL
GnnModuleDict *gnn_module_dict_new        (void);
GNN_AVAILABLE_IN_ALL
gboolean       gnn_module_dict_set        (GnnModuleDict  *self,
                                           const char     *key,
                                           GnnModule      *module,
                                           GError        **error);
GNN_AVAILABLE_IN_ALL
GnnModule     *gnn_module_dict_get        (GnnModuleDict  *self,
                                           const char     *key,
                                           GError        **error);
GNN_AVAILABLE_IN_ALL
gboolean       gnn_module_dict_contains   (GnnModuleDict  *self,
                                           const char     *key);
GNN_AVAILABLE_IN_ALL
GnnModule     *gnn_module_dict_pop        (GnnModuleDict  *self,
                                           const char     *key,
                                           GError        **error);
GNN_AVAILABLE_IN_ALL
char         **gnn_module_dict_keys       (GnnModuleDict  *self);
GNN_AVAILABLE_IN_ALL
guint          gnn_module_dict_get_length (GnnModuleDict  *self);
GNN_AVAILABLE_IN_ALL
void           gnn_module_dict_clear      (GnnModuleDict  *self);

/* ---- ParameterList ------------------------------------------------------------------- */

#define GNN_TYPE_PARAMETER_LIST (gnn_parameter_list_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnParameterList, gnn_parameter_list, GNN, PARAMETER_LIST, GnnModule)

GNN_AVAILABLE_IN_ALL
GnnParameterList *gnn_parameter_list_new        (GnnParameter     **parameters,
                                                 guint              n);
GNN_AVAILABLE_IN_ALL
gboolean          gnn_parameter_list_append     (GnnParameterList  *self,
                                                 GnnTensor         *value,
                                                 GError           **error);
GNN_AVAILABLE_IN_ALL
GnnParameter     *gnn_parameter_list_get        (GnnParameterList  *self,
                                                 int                index,
                                                 GError           **error);
GNN_AVAILABLE_IN_ALL
gboolean          gnn_parameter_list_set        (GnnParameterList  *self,
                                                 int                index,
                                                 GnnTensor         *value,
                                                 GError           **error);
GNN_AVAILABLE_IN_ALL
guint             gnn_parameter_list_get_length (GnnParameterList  *self);

/* ---- ParameterDict ------------------------------------------------------------------- */

#define GNN_TYPE_PARAMETER_DICT (gnn_parameter_dict_get_type ())

GNN_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (GnnParameterDict, gnn_parameter_dict, GNN, PARAMETER_DICT, GnnModule)

GNN_AVAILABLE_IN_ALL
GnnParameterDict *gnn_parameter_dict_new        (void);
GNN_AVAILABLE_IN_ALL
gboolean          gnn_parameter_dict_set        (GnnParameterDict  *self,
                                                 const char        *key,
                                                 GnnTensor         *value,
                                                 GError           **error);
GNN_AVAILABLE_IN_ALL
GnnParameter     *gnn_parameter_dict_get        (GnnParameterDict  *self,
                                                 const char        *key,
                                                 GError           **error);
GNN_AVAILABLE_IN_ALL
gboolean          gnn_parameter_dict_contains   (GnnParameterDict  *self,
                                                 const char        *key);
GNN_AVAILABLE_IN_ALL
GnnParameter     *gnn_parameter_dict_pop        (GnnParameterDict  *self,
                                                 const char        *key,
                                                 GError           **error);
GNN_AVAILABLE_IN_ALL
char            **gnn_parameter_dict_keys       (GnnParameterDict  *self);
GNN_AVAILABLE_IN_ALL
guint             gnn_parameter_dict_get_length (GnnParameterDict  *self);

G_END_DECLS
