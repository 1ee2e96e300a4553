#!/usr/bin/python3
"""Causal scaled dot-product attention, forward and backward: gnn's fused kernels
(gnn.nn.functional.scaled_dot_product_attention) next to PyTorch 1.13's composed formula
(softmax(q @ k.T * scale masked to the lower triangle) @ v, since torch 1.13 has no SDPA), in
one process with the same thread count, the same float32 inputs and the same timing. The time
includes making the leaves, the forward, a sum and the backward.

    bench/run-bench.sh BUILD_DIR      (runs this after the other rows)
    bench/bench_sdpa_torch.py [--threads N] [--quick]
"""
import math

import numpy as np

from timing import measure_side_by_side as measure_set, side_by_side_args

# (batch, heads, sequence length, head dim)
SHAPES = [(1, 8, 256, 32), (1, 8, 1024, 32)]


def main():
    args = side_by_side_args(__doc__)

    import torch
    import gnn
    import gnn.nn.functional as F

    torch.set_num_threads(args.threads)
    rng = np.random.default_rng(0)
    print('causal SDPA forward + backward, float32: gnn fused vs PyTorch %s composed, %d threads each'
          % (torch.__version__, args.threads))
    print('%-28s %12s %12s %14s' % ('(b, h, L, d)', 'gnn ms', 'torch ms', 'torch/gnn'))
    for b, h, n, d in SHAPES:
        arrays = [rng.standard_normal((b, h, n, d), dtype=np.float32) for _ in range(3)]
        causal = ~torch.ones(n, n, dtype=torch.bool).tril()

        def run_gnn():
            q, k, v = (gnn.tensor(a).requires_grad_(True) for a in arrays)
            y = F.scaled_dot_product_attention(q, k, v, is_causal=True)
            y.sum().backward()
            return y

        def run_torch():
            q, k, v = (torch.from_numpy(a).requires_grad_(True) for a in arrays)
            s = (q @ k.transpose(-2, -1) * (1 / math.sqrt(d))).masked_fill(causal, float('-inf'))
            y = torch.softmax(s, -1) @ v
            y.sum().backward()
            return y

        diff = np.abs(run_gnn().detach().numpy() - run_torch().detach().numpy()).max()
        assert diff < 1e-4, 'gnn and torch differ by %g' % diff
        t_gnn, t_torch = measure_set([run_gnn, run_torch], args.min_time)
        print('%-28s %12.3f %12.3f %14.2f' % (str((b, h, n, d)), t_gnn * 1e3, t_torch * 1e3, t_torch / t_gnn))
    print('  (torch/gnn above 1: gnn is faster)')


if __name__ == '__main__':
    main()
