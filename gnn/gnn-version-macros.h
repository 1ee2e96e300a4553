/* gnn-version-macros.h: symbol visibility and availability
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined (GNN_INSIDE) && !defined (GNN_COMPILATION)
#error "Only <gnn/gnn.h> can be included directly."
#endif

#include <glib.h>

#ifndef _GNN_EXTERN
# define _GNN_EXTERN __attribute__((visibility ("default"))) extern
#endif

#define GNN_AVAILABLE_IN_ALL _GNN_EXTERN
#define GNN_AVAILABLE_IN_1_0 _GNN_EXTERN
