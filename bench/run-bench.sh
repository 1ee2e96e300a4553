#!/usr/bin/env bash
# run-bench.sh: gnn next to PyTorch and raw OpenBLAS, one table.
#
#   bench/run-bench.sh BUILD_DIR [--threads N] [--quick] [--min-time S] [--sizes 256,512,...]
#
# Uses the uninstalled build in BUILD_DIR (build it first: ninja -C BUILD_DIR). The thread
# count (GNN_NUM_THREADS, default 2) is the same for gnn, OpenBLAS and torch. OPENBLAS_*
# variables are passed through as they are.
set -euo pipefail

if [ $# -lt 1 ] || [ ! -d "$1" ]; then
  echo "usage: $0 BUILD_DIR [--threads N] [--quick] [--min-time S] [--sizes LIST]" >&2
  exit 2
fi
build=$(cd "$1" && pwd)
shift
src=$(cd "$(dirname "$0")/.." && pwd)

bench_ops="$build/bench/bench-ops"
if [ ! -x "$bench_ops" ]; then
  echo "run-bench.sh: $bench_ops not found; run ninja -C $build first" >&2
  exit 1
fi

export GNN_NUM_THREADS=${GNN_NUM_THREADS:-2}
# torch reaches OpenBLAS through libblas.so.3, whose thread count set_num_threads does not set
export OPENBLAS_NUM_THREADS=$GNN_NUM_THREADS
export GI_TYPELIB_PATH="$build/introspection${GI_TYPELIB_PATH:+:$GI_TYPELIB_PATH}"
export LD_LIBRARY_PATH="$build/gnn${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export PYTHONPATH="$src/introspection${PYTHONPATH:+:$PYTHONPATH}"

/usr/bin/python3 "$src/bench/bench_vs_torch.py" --bench-ops "$bench_ops" "$@"
# the EMA update of a 10M-parameter model, gnn vs torch vs the memory bandwidth
if [ -x "$build/bench/bench-ema" ]; then
  echo
  /usr/bin/python3 "$src/bench/bench_ema_torch.py" --bench-ema "$build/bench/bench-ema" "$@"
fi
# training throughput (MLP, MLP + EMA, CNN, a tiny model from C and Python), gnn vs torch
if [ -x "$build/bench/bench-train" ]; then
  echo
  /usr/bin/python3 "$src/bench/bench_train_torch.py" --bench-train "$build/bench/bench-train" "$@"
fi
# a DataLoader pass with augmentation over Fashion-MNIST-sized data, 0 and 2 workers, gnn vs torch
echo
/usr/bin/python3 "$src/bench/bench_loader_torch.py" "$@"
# einsum attention scores ('bhqd,bhkd->bhqk'), gnn vs torch in the same process
echo
/usr/bin/python3 "$src/bench/bench_einsum_torch.py" "$@"
# causal scaled dot-product attention forward + backward, gnn's fused kernels vs torch's composed formula
echo
/usr/bin/python3 "$src/bench/bench_sdpa_torch.py" "$@"
# LSTM and GRU (256 -> 512, 2 layers, seq 64, batch 32) training samples/s, gnn vs torch in the same process
echo
/usr/bin/python3 "$src/bench/bench_rnn_torch.py" "$@"
# inference: the default CNN before and after Conv+BN folding (gnn.fx.experimental.optimization.fuse),
# and torch.onnx.export'ed resnet18 and CNN run by gnn (gnn.onnx.import_model), ONNX Runtime and torch
echo
/usr/bin/python3 "$src/bench/bench_onnx_torch.py" --onnxruntime "$build/onnx-runtime/node_modules" "$@"
# what the profiler costs: the tiny and the CNN training steps with no profiler and inside one,
# alternating in the same run (targets: tiny at most 2x, cnn at most 1.05x)
if [ -x "$build/bench/bench-profiler" ]; then
  echo
  echo "Profiler cost, $GNN_NUM_THREADS threads (ratio: on/off; targets: tiny <= 2, cnn <= 1.05)"
  quick=
  for a in "$@"; do [ "$a" = --quick ] && quick=--quick; done
  "$build/bench/bench-profiler" --threads "$GNN_NUM_THREADS" $quick
fi
