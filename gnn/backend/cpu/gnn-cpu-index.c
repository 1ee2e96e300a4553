/* gnn-cpu-index.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include "gnn-cpu-private.h"

void
gnn_cpu_register_index (GnnCpuKernel *table)
{
}
