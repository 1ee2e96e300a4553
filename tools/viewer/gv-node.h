/* gv-node.h: one row of gnn-viewer's module tree, a module and its statistics
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gio/gio.h>
#include <gnn/gnn.h>

G_BEGIN_DECLS

/* the statistics shown for a module's output or its gradient */
typedef struct
{
  double mean;
  double std;
  double max_abs;
  gint64 updates;    /* 0: none yet */
} GvStats;

/* What the hooks gather during one step, over every call of the module in it (a module
 * registered twice runs twice): element count, mean and sum of squared deviations, combined
 * call by call (Chan et al.), and the largest magnitude. */
typedef struct
{
  gint64 n;
  double mean;
  double m2;
  double max_abs;
} GvAcc;

#define GV_TYPE_NODE (gv_node_get_type ())
G_DECLARE_FINAL_TYPE (GvNode, gv_node, GV, NODE, GObject)

struct _GvNode
{
  GObject     parent_instance;

  char       *name;          /* the dotted name named_modules gives ("" for the root) */
  GnnModule  *module;
  char       *type_name;     /* PyTorch's: gnn_module_get_name ("Conv2d") */
  gint64      own_params;
  gint64      total_params;
  GListStore *children;
  GvStats     act;           /* shown */
  GvStats     grad;
  GvAcc       pending_act;   /* written by the hooks, on the training thread */
  GvAcc       pending_grad;
  gulong      forward_id;
  gulong      backward_id;
};

GvNode    *gv_node_new        (const char *name,
                               GnnModule  *module);

/* The nodes of @model's tree in named_modules order (the root first), each under the node of
 * its name's prefix: the tree is exactly named_modules. */
GPtrArray *gv_node_build_tree (GnnModule  *model);

/* the last component of the dotted name, "(model)" for the root */
const char *gv_node_get_label (GvNode     *self);

/* Starts gathering statistics through the module's forward-post and backward-post signals. */
void       gv_node_connect    (GvNode     *self);

/* Clears what the hooks gathered, before a step. */
void       gv_node_reset_pending (GvNode  *self);

/* Shows what the hooks gathered in the last step, if anything ("changed" is emitted). */
void       gv_node_publish    (GvNode     *self);

G_END_DECLS
