/* gnn-profiler-private.h: the profiler's entry points in the module, optimizer and autograd
 * call paths
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Each call path reads gnn_profiler_active (one atomic read) and calls in only while a
 * profiler records; nothing else runs on those paths when none does.
 */
#pragma once

#include "gnn-profiler.h"
#include "core/gnn-profiler-hooks-private.h"
#include "nn/gnn-module.h"

G_BEGIN_DECLS


/* Opens a range on the calling thread; returns a token for gnn_profiler_range_end(), or
 * NULL when no profiler records any more. */
gpointer gnn_profiler_range_begin   (GnnProfilerEventKind  kind,
                                     const char           *name);
/* the same, named "Optimizer.<what>#<Type>.<what>" after @optimizer's type */
gpointer gnn_profiler_optimizer_begin (GObject            *optimizer,
                                       const char         *what);
/* the same for @module's forward, named by its path in the module of the enclosing range */
gpointer gnn_profiler_module_begin  (GnnModule            *module);
/* Closes the range of @token (and any the caller left open inside it); NULL is ignored, and so
 * is a token of a profile that has stopped since. */
void     gnn_profiler_range_end     (gpointer              token);

G_END_DECLS
