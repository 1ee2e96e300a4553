/* gnn.h: the umbrella header of libgnn
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#define GNN_INSIDE

#include <glib-object.h>

#include "gnn-version.h"
#include "gnn-version-macros.h"
#include "gnn-enum-types.h"
#include "core/gnn-error.h"
#include "core/gnn-dtype.h"
#include "core/gnn-generator.h"
#include "core/gnn-tensor.h"
#include "core/gnn-node.h"
#include "autograd/graph/gnn-grad-mode.h"
#include "autograd/engine/gnn-function.h"
#include "autograd/engine/gnn-autograd.h"
#include "ops/gnn-ops.h"
#include "backend/gnn-backend.h"
#include "core/gnn-threads.h"
#include "data/gnn-idx.h"
#include "nn/gnn-parameter.h"
#include "nn/gnn-args.h"
#include "nn/gnn-module.h"
#include "nn/gnn-init.h"
#include "nn/gnn-clip-grad.h"
#include "nn/gnn-linear.h"
#include "nn/gnn-conv.h"
#include "nn/gnn-pool.h"
#include "nn/gnn-activation.h"
#include "nn/gnn-layers.h"
#include "nn/gnn-containers.h"
#include "nn/gnn-state-dict.h"
#include "nn/gnn-loss.h"
#include "nn/gnn-norm.h"
#include "nn/gnn-rnn.h"
#include "nn/gnn-pad.h"
#include "optim/gnn-optimizer.h"
#include "optim/gnn-averaged-model.h"
#include "optim/gnn-lr-scheduler.h"
#include "io/gnn-safetensors.h"
#include "io/gnn-module-json.h"
#include "io/gnn-checkpoint.h"
#include "data/gnn-transforms.h"
#include "data/gnn-dataset.h"
#include "nn/gnn-attention.h"
#include "nn/gnn-distance.h"
#include "nn/gnn-packed-sequence.h"
#include "nn/gnn-prune.h"
#include "profiler/gnn-profiler.h"
#include "nn/gnn-parametrize.h"
#include "nn/gnn-transformer.h"
#include "fx/gnn-graph.h"
#include "quant/gnn-quantized-tensor.h"
#include "quant/gnn-observer.h"
#include "quant/gnn-quantize-dynamic.h"
#include "distributed/gnn-process-group.h"
#include "nn/gnn-prune-report.h"

#undef GNN_INSIDE
