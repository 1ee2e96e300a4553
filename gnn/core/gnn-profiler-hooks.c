/* gnn-profiler-hooks.c: the table through which the call paths below the profiler reach it
 * (gnn-profiler-hooks-private.h)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include "gnn-profiler-hooks-private.h"

gint gnn_profiler_active;
gint gnn_profiler_memory_active;
const GnnProfilerHooks *gnn_profiler_hooks;
