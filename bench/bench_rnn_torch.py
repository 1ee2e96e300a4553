#!/usr/bin/python3
"""Recurrent layers training, gnn next to PyTorch 1.13 in one process: LSTM (256 -> 512,
2 layers) and GRU likewise on a sequence of 64 steps, batch 32, float32, the same weights (torch's,
copied into gnn) and the same input. A training step is zero_grad, the forward, a weighted sum
of the outputs and the backward through the whole sequence into every parameter; the rate is
samples (sequences) per second, with the same thread count for both.

    bench/run-bench.sh BUILD_DIR      (runs this after the other rows)
    bench/bench_rnn_torch.py [--threads N] [--quick]
"""
import numpy as np

from timing import measure_side_by_side as measure_set, side_by_side_args

INPUT, HIDDEN, LAYERS, SEQ, BATCH = 256, 512, 2, 64, 32


def main():
    args = side_by_side_args(__doc__)

    import torch
    import gnn
    from gnn import nn

    torch.set_num_threads(args.threads)
    rng = np.random.default_rng(0)
    x_np = rng.standard_normal((SEQ, BATCH, INPUT), dtype=np.float32)
    w_np = rng.standard_normal((SEQ, BATCH, HIDDEN), dtype=np.float32)
    print('%s (%d -> %d, %d layers) training, seq %d, batch %d, float32: gnn vs PyTorch %s, %d threads each'
          % ('LSTM and GRU', INPUT, HIDDEN, LAYERS, SEQ, BATCH, torch.__version__, args.threads))
    print('%-10s %14s %14s %12s' % ('layer', 'gnn samples/s', 'torch samples/s', 'gnn/torch'))
    for name in ('LSTM', 'GRU'):
        torch.manual_seed(0)
        t = getattr(torch.nn, name)(INPUT, HIDDEN, LAYERS)
        g = getattr(nn, name)(INPUT, HIDDEN, LAYERS)
        g.load_state_dict({k: gnn.tensor(v.detach().numpy()) for k, v in t.state_dict().items()})
        xg, wg = gnn.tensor(x_np), gnn.tensor(w_np)
        xt, wt = torch.from_numpy(x_np), torch.from_numpy(w_np)

        def step_gnn():
            g.zero_grad()
            y = g(xg)[0]
            (y * wg).sum().backward()
            return y

        def step_torch():
            t.zero_grad()
            y = t(xt)[0]
            (y * wt).sum().backward()
            return y

        yg, yt = step_gnn(), step_torch()
        diff = np.abs(yg.detach().numpy() - yt.detach().numpy()).max()
        assert diff < 1e-4, '%s: gnn and torch outputs differ by %g' % (name, diff)
        gw = next(iter(g.parameters())).grad.numpy()
        tw = next(iter(t.parameters())).grad.numpy()
        gdiff = np.abs(gw - tw).max() / max(np.abs(tw).max(), 1e-30)
        assert gdiff < 1e-3, '%s: gnn and torch gradients differ by %g (relative)' % (name, gdiff)
        t_gnn, t_torch = measure_set([step_gnn, step_torch], args.min_time)
        print('%-10s %14.1f %14.1f %12.2f' % (name, BATCH / t_gnn, BATCH / t_torch, t_torch / t_gnn))
    print('  (gnn/torch above 1: gnn is faster)')


if __name__ == '__main__':
    main()
