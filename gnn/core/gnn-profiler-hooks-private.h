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
} GnnProfilerHooks;

/* non-zero while a profiler records */
extern gint gnn_profiler_active;
/* the profiler's entry points, set before gnn_profiler_active first becomes non-zero */
extern const GnnProfilerHooks *gnn_profiler_hooks;

#define GNN_PROFILER_IS_ACTIVE() G_UNLIKELY (g_atomic_int_get (&gnn_profiler_active) != 0)

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

/* closes the range of a token from the functions above; NULL is ignored */
static inline void
gnn_profiler_range_close (gpointer token)
{
  if (token)
    gnn_profiler_hooks->range_end (token);
}

G_END_DECLS
