/* gnn-profiler-hooks-private.h: where the module, optimizer and autograd call paths report to a
 * profiler, without depending on it
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The profiler (gnn/profiler/) sits above nn and optim, which it names ranges after; those call
 * paths sit below it. So they call it through this table, which the profiler fills when it first
 * records. Each path reads gnn_profiler_active (one atomic read) and calls in only while a
 * profiler records; nothing else runs on those paths when none does.
 */
#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

typedef struct {
  /* each opens a range on the calling thread and returns a token for range_end, or NULL */
  gpointer (*backward_begin)  (const char *node_name);
  gpointer (*optimizer_begin) (GObject    *optimizer,
                               const char *what);
  gpointer (*module_begin)    (GObject    *module);
  /* closes the range of a token (never NULL here) */
  void     (*range_end)       (gpointer    token);
  /* the module forward a node recorded now belongs to: a tag for module_backward_enter,
   * never 0 (see GnnNode.profile_scope) */
  guint64  (*node_scope)      (void);
  /* before a node whose tag is @node_scope runs in backward: makes the backward ranges open in
   * *@scope (a backward pass's own, NULL at first) those of the node's module and its parents */
  void     (*module_backward_enter) (gpointer *scope,
                                     guint64   node_scope);
  /* at the end of a backward pass: closes the ranges of @scope (never NULL here), frees it */
  void     (*module_backward_end)   (gpointer  scope);
  /* a storage of @nbytes at @data was allocated (@nbytes > 0) or freed (< 0) on @device of
   * @device_type; called only while gnn_profiler_memory_active */
  void     (*memory)          (gconstpointer data,
                               gint64        nbytes,
                               const char   *device_type,
                               guint         device);
} GnnProfilerHooks;

/* non-zero while a profiler records */
extern gint gnn_profiler_active;
/* non-zero while a profiler records with profile-memory: storage allocation reports to it */
extern gint gnn_profiler_memory_active;
/* the profiler's entry points, set before gnn_profiler_active first becomes non-zero */
extern const GnnProfilerHooks *gnn_profiler_hooks;

#define GNN_PROFILER_IS_ACTIVE() G_UNLIKELY (g_atomic_int_get (&gnn_profiler_active) != 0)
#define GNN_PROFILER_MEMORY_IS_ACTIVE() G_UNLIKELY (g_atomic_int_get (&gnn_profiler_memory_active) != 0)

static inline gpointer
gnn_profiler_backward_begin (const char *node_name)
{
  const GnnProfilerHooks *h = g_atomic_pointer_get (&gnn_profiler_hooks);
  return h ? h->backward_begin (node_name) : NULL;
}

static inline gpointer
gnn_profiler_optimizer_range_begin (GObject *optimizer, const char *what)
{
  const GnnProfilerHooks *h = g_atomic_pointer_get (&gnn_profiler_hooks);
  return h ? h->optimizer_begin (optimizer, what) : NULL;
}

static inline gpointer
gnn_profiler_module_range_begin (GObject *module)
{
  const GnnProfilerHooks *h = g_atomic_pointer_get (&gnn_profiler_hooks);
  return h ? h->module_begin (module) : NULL;
}

static inline guint64
gnn_profiler_node_scope (void)
{
  const GnnProfilerHooks *h = g_atomic_pointer_get (&gnn_profiler_hooks);
  return h ? h->node_scope () : 0;
}

static inline void
gnn_profiler_module_backward_enter (gpointer *scope, guint64 node_scope)
{
  const GnnProfilerHooks *h = g_atomic_pointer_get (&gnn_profiler_hooks);
  if (h)
    h->module_backward_enter (scope, node_scope);
}

/* NULL is ignored */
static inline void
gnn_profiler_module_backward_end (gpointer scope)
{
  if (scope)
    gnn_profiler_hooks->module_backward_end (scope);
}

static inline void
gnn_profiler_memory_record (gconstpointer data, gint64 nbytes, const char *device_type, guint device)
{
  const GnnProfilerHooks *h = g_atomic_pointer_get (&gnn_profiler_hooks);
  if (h)
    h->memory (data, nbytes, device_type, device);
}

/* closes the range of a token from the functions above; NULL is ignored */
static inline void
gnn_profiler_range_close (gpointer token)
{
  if (token)
    gnn_profiler_hooks->range_end (token);
}

G_END_DECLS
