/* gnn-json-scan-private.h: the check every untrusted JSON text passes before json-glib
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* The deepest nesting of arrays and objects a module JSON may have. A module at depth d of
 * the tree (the root at 0) is an object at level 1 + 3 d (its parent's object, "children"
 * array, child object, "module" object), and what gnn writes below it reaches 4 levels more
 * (a tensor-valued property: "properties", {"tensor": ..}, its spec, its "shape" array;
 * a slot: "parameters", the slot, its "shape"). The loader takes trees 200 modules deep,
 * which makes 605 levels; 640 leaves room for a variant-valued property on the deepest
 * module. For scale: 40 nested Sequentials around a Linear make 124 levels, which
 * serde_json's 128 would barely admit. */
#define GNN_JSON_MAX_DEPTH 640

/* The deepest nesting a safetensors header may have: serde_json's default, which the
 * format's own reader applies (the format needs 3: the header, an entry, its shape). */
#define GNN_SAFETENSORS_JSON_MAX_DEPTH 128

gboolean gnn_json_scan (const char *text,
                        gsize       length,
                        guint       max_depth,
                        const char *what,
                        GError    **error);

G_END_DECLS
