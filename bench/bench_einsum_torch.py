#!/usr/bin/python3
"""Attention scores through einsum ('bhqd,bhkd->bhqk'): gnn next to PyTorch, in one process
with the same thread count, the same float32 inputs and the same timing, and the ratio of the
two. Both contract through a batched gemm; the time includes each library's permute and
reshape work and the output allocation of every call.

    bench/run-bench.sh BUILD_DIR      (runs this after the other rows)
    bench/bench_einsum_torch.py [--threads N] [--quick]
"""

import numpy as np

from timing import measure_side_by_side as measure_set, side_by_side_args

EQUATION = 'bhqd,bhkd->bhqk'
# (batch, heads, query length, key length, head dim): a small and a GPT-2-sized layer
SHAPES = [(8, 4, 64, 64, 32), (4, 12, 256, 256, 64)]


def main():
    args = side_by_side_args(__doc__)

    import torch
    import gnn

    torch.set_num_threads(args.threads)
    rng = np.random.default_rng(0)
    print('einsum %r, float32: gnn vs PyTorch %s, %d threads each' % (EQUATION, torch.__version__, args.threads))
    print('%-28s %12s %12s %14s' % ('(b, h, q, k, d)', 'gnn ms', 'torch ms', 'torch/gnn'))
    for b, h, q, k, d in SHAPES:
        qa = rng.standard_normal((b, h, q, d), dtype=np.float32)
        ka = rng.standard_normal((b, h, k, d), dtype=np.float32)
        gq, gk = gnn.tensor(qa), gnn.tensor(ka)
        tq, tk = torch.from_numpy(qa), torch.from_numpy(ka)
        diff = np.abs(gnn.einsum(EQUATION, gq, gk).numpy() - torch.einsum(EQUATION, tq, tk).numpy()).max()
        assert diff < 1e-3, 'gnn and torch differ by %g' % diff
        with torch.no_grad():
            t_gnn, t_torch = measure_set([lambda: gnn.einsum(EQUATION, gq, gk),
                                          lambda: torch.einsum(EQUATION, tq, tk)], args.min_time)
        print('%-28s %12.3f %12.3f %14.2f' % (str((b, h, q, k, d)), t_gnn * 1e3, t_torch * 1e3, t_torch / t_gnn))
    print('  (torch/gnn above 1: gnn is faster)')


if __name__ == '__main__':
    main()
