/* gnn-module-private.h
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "gnn.h"

G_BEGIN_DECLS

typedef struct {
  char *name;
  GObject *value;      /* NULL: a reserved name */
  gboolean persistent; /* buffers */
} GnnModuleSlot;

typedef struct {
  gint ref;
  guint id;
  gboolean pre;
  gpointer func;
  gpointer data;
  GDestroyNotify destroy;
  gboolean with_kwargs;
  gboolean always_call;
} GnnModuleHook;

typedef struct {
  GPtrArray *parameters;   /* GnnModuleSlot, in registration order */
  GPtrArray *buffers;
  GPtrArray *modules;
  gboolean training;
  gboolean setup_done;
  GError *setup_error;     /* a setup that failed in constructed, reported at first use */
  GPtrArray *forward_hooks; /* GnnModuleHook*, pre and post, in firing order; NULL when none */
} GnnModulePrivate;

GnnModulePrivate *gnn_module_priv         (GnnModule *self);
/* Runs setup once; FALSE with @error set when it failed (now or at construction). */
gboolean          gnn_module_ensure_setup (GnnModule *self,
                                           GError   **error);

G_END_DECLS
