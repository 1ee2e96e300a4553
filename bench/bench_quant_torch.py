#!/usr/bin/python3
"""Dynamic quantization, gnn next to PyTorch 1.13 in one process: an MLP (784 -> 512 -> 256 ->
10, ReLU between) in inference, float32 and after quantize_dynamic({Linear}, qint8), at batch 1
and 64, the same weights (torch's, copied into gnn) and input. torch runs its onednn engine (the
one Debian's build has). gnn's int8 kernel is the first, plain one: int32 accumulation in C on
one thread, no blocking or SIMD of its own.

    bench/bench_quant_torch.py [--threads N] [--quick]
"""
import numpy as np

from timing import measure_side_by_side as measure_set, side_by_side_args

SIZES = (784, 512, 256, 10)


def main():
    args = side_by_side_args(__doc__)

    import torch
    import gnn

    torch.set_num_threads(args.threads)
    torch.manual_seed(0)
    layers_t, layers_g = [], []
    for i, (a, b) in enumerate(zip(SIZES, SIZES[1:])):
        if i:
            layers_t.append(torch.nn.ReLU())
            layers_g.append(gnn.nn.ReLU())
        layers_t.append(torch.nn.Linear(a, b))
        layers_g.append(gnn.nn.Linear(a, b))
    t = torch.nn.Sequential(*layers_t).eval()
    g = gnn.nn.Sequential(*layers_g).eval()
    g.load_state_dict({k: gnn.tensor(v.detach().numpy()) for k, v in t.state_dict().items()})
    qt = torch.ao.quantization.quantize_dynamic(t, {torch.nn.Linear}, dtype=torch.qint8)
    qg = gnn.ao.quantization.quantize_dynamic(g, {gnn.nn.Linear}, dtype=gnn.qint8)
    print('MLP %s inference, dynamic int8 vs float32: gnn vs PyTorch %s (%s engine), %d threads'
          % (' -> '.join(map(str, SIZES)), torch.__version__, torch.backends.quantized.engine,
             args.threads))
    print('%-6s %12s %12s %12s %12s %14s %14s' % ('batch', 'gnn f32 us', 'gnn int8 us', 'torch f32 us',
                                                 'torch int8 us', 'gnn f32/int8', 'gnn/torch int8'))
    rng = np.random.default_rng(0)
    for batch in (1, 64):
        x = rng.standard_normal((batch, SIZES[0]), dtype=np.float32)
        xg, xt = gnn.tensor(x), torch.from_numpy(x)
        with torch.no_grad(), gnn.no_grad():
            fns = [lambda: g(xg), lambda: qg(xg), lambda: t(xt), lambda: qt(xt)]
            gf, gq, tf, tq = measure_set(fns, args.min_time)
        print('%-6d %12.1f %12.1f %12.1f %12.1f %14.2f %14.2f'
              % (batch, gf * 1e6, gq * 1e6, tf * 1e6, tq * 1e6, gf / gq, gq / tq))


if __name__ == '__main__':
    main()
