/* gnn-dataset-private.h: what the data tests reach inside the datasets
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* The system folder gnn_tensor_dataset_new_fashion_mnist() looks in after the root
 * ("/usr/share/datasets/fashion-mnist"); the tests point it elsewhere to see the lookup fail. */
extern const char *gnn_fashion_mnist_system_dir;

G_END_DECLS
