/* gnn-transforms-private.h: how the data loader gives each batch its own random draws
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* While a thread has a draw scope, the random transforms it runs draw block @counter, then
 * @counter + 1 ..., under a key made of @key and their generator's seed, instead of reserving
 * blocks of their generator's stream. The loader opens one per batch with a key drawn from
 * (seed, epoch, batch number), so that a batch's draws depend on nothing else: not on the
 * thread that makes it, nor on the order in which the batches are made. */
typedef struct
{
  guint64 key;
  guint64 counter;
} GnnDrawScope;

/* Makes @scope (or %NULL: none) the calling thread's draw scope; returns the previous one,
 * to be put back when the scope ends. */
GnnDrawScope *gnn_draw_scope_swap (GnnDrawScope *scope);

G_END_DECLS
