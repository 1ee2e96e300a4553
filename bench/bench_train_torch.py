#!/usr/bin/python3
"""Training throughput: gnn (C and PyGObject) next to PyTorch, in one run, same thread count.

Runs bench-train (a separate process), then measures in this process the same work in PyTorch
and the tiny model through gnn's Python binding:
  - mlp: 784-512-256-10 ReLU MLP, cross-entropy, SGD momentum 0.9, batch 128, one pass over
    the 60000 Fashion-MNIST training images: samples/s;
  - mlp+ema: the same with an EMA AveragedModel (decay 0.999) updated after every step
    (torch 1.13's AveragedModel with an EMA avg_fn: its only way);
  - cnn: conv(1,32,3)-relu-maxpool2-conv(32,64,3)-relu-maxpool2-linear(1600,128)-relu-
    linear(128,10), batch 64, 200 batches: samples/s;
  - tiny: Linear(16,16)-ReLU-Linear(16,4), batch 1, MSE, forward + backward + SGD step:
    steps/s from C (gnn) and from Python (gnn via PyGObject, torch);
  - gemm 2048²: float32 matrix product, gnn's matmul against torch.mm: GFLOP/s, best of N;
  - EMA 10M params: one EMA update (decay 0.999) of 10 Linear(1000, 1000) layers, gnn's fused
    AveragedModel update (as bench-ema.c) against torch's AveragedModel(avg_fn=ema) and against
    torch._foreach_lerp_ (or, in a torch without it such as 1.13, _foreach_mul_ + _foreach_add_,
    the same update in foreach kernels): ms per update, median of N.
"ratio" is gnn's figure over torch's for rates, torch's over gnn's for times (above 1: gnn is
faster).

    bench/run-bench.sh BUILD_DIR   (runs this after the other tables)
    bench/bench_train_torch.py --bench-train BUILD_DIR/bench/bench-train [--threads N] [--quick]
"""
import argparse
import gzip
import os
import sys
import time

from timing import run_c as _run_c
import openblas_threads  # noqa: F401 (sets OPENBLAS_NUM_THREADS before numpy loads OpenBLAS)

import numpy as np

N_TRAIN = 60000


def gemm_gflops(torch, n, reps):
    a, b = torch.randn(n, n), torch.randn(n, n)
    torch.mm(a, b)
    best = float('inf')
    for _ in range(reps):
        t0 = time.perf_counter()
        torch.mm(a, b)
        best = min(best, time.perf_counter() - t0)
    return 2.0 * n ** 3 / best / 1e9


def ema_10m_ms(torch, reps, decay=0.999):
    """ms per EMA update of 10 Linear(1000, 1000): AveragedModel(avg_fn) and a foreach form."""
    from torch import nn
    from torch.optim import swa_utils

    model = nn.Sequential(*[nn.Linear(1000, 1000) for _ in range(10)])

    def ema(a, c, n):
        return decay * a + (1 - decay) * c

    swa = swa_utils.AveragedModel(model, avg_fn=ema)
    avg = [p.detach() for p in swa.module.parameters()]
    cur = [p.detach() for p in model.parameters()]
    if hasattr(torch, '_foreach_lerp_'):
        name = '_foreach_lerp_'

        def foreach():
            torch._foreach_lerp_(avg, cur, 1 - decay)
    else:
        name = '_foreach_mul_ + _foreach_add_'

        def foreach():
            torch._foreach_mul_(avg, decay)
            torch._foreach_add_(avg, cur, alpha=1 - decay)

    def median_ms(fn):
        fn()
        fn()
        times = []
        for _ in range(reps):
            t0 = time.perf_counter()
            fn()
            times.append(time.perf_counter() - t0)
        return sorted(times)[len(times) // 2] * 1e3

    with torch.no_grad():
        return median_ms(lambda: swa.update_parameters(model)), median_ms(foreach), name


def run_c(bench_train, threads, min_time, quick, cnn_batches):
    return _run_c([bench_train, '--threads', threads, '--min-time', min_time,
                   '--cnn-batches', cnn_batches] + (['--quick'] if quick else []))


def read_idx(path):
    with gzip.open(path, 'rb') as f:
        data = f.read()
    ndim = data[3]
    shape = [int.from_bytes(data[4 + 4 * i:8 + 4 * i], 'big') for i in range(ndim)]
    return np.frombuffer(data, np.uint8, offset=4 + 4 * ndim).reshape(shape)


def load_data(data_dir):
    img = os.path.join(data_dir, 'train-images-idx3-ubyte.gz')
    lab = os.path.join(data_dir, 'train-labels-idx1-ubyte.gz')
    if os.path.exists(img) and os.path.exists(lab):
        x = ((read_idx(img).astype(np.float32) / 255.0 - 0.2860) / 0.3530).reshape(N_TRAIN, 784)
        return x.astype(np.float32), read_idx(lab).astype(np.int64)
    rng = np.random.default_rng(0)
    return rng.standard_normal((N_TRAIN, 784), dtype=np.float32), (np.arange(N_TRAIN) * 7919 % 10)


def run_torch(threads, quick, min_time, cnn_batches, x_np, y_np):
    import torch
    from torch import nn
    import torch.nn.functional as F
    from torch.optim import swa_utils

    torch.set_num_threads(threads)
    torch.manual_seed(0)
    x_all, y_all = torch.from_numpy(x_np), torch.from_numpy(y_np)
    out = {}

    def batches(model, opt, ema, shape, batch, n_batches):
        warmup = 3
        samples, t0 = 0, None
        for b in range(-warmup, n_batches):
            start = ((b + warmup if b < 0 else b) * batch) % N_TRAIN
            x = x_all[start:start + batch].reshape((-1,) + shape)
            y = y_all[start:start + batch]
            if b == 0:
                t0 = time.perf_counter()
            opt.zero_grad(set_to_none=True)
            F.cross_entropy(model(x), y).backward()
            opt.step()
            if ema is not None:
                ema.update_parameters(model)
            if b >= 0:
                samples += len(x)
        return samples / (time.perf_counter() - t0)

    mlp_batches = (N_TRAIN + 127) // 128 // (4 if quick else 1)
    for with_ema in (False, True):
        model = nn.Sequential(nn.Linear(784, 512), nn.ReLU(), nn.Linear(512, 256), nn.ReLU(), nn.Linear(256, 10))
        opt = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
        ema = None
        if with_ema:
            ema = swa_utils.AveragedModel(model, avg_fn=lambda a, c, n: 0.999 * a + 0.001 * c)
        out['mlp_ema' if with_ema else 'mlp'] = batches(model, opt, ema, (784,), 128, mlp_batches)

    model = nn.Sequential(nn.Conv2d(1, 32, 3), nn.ReLU(), nn.MaxPool2d(2), nn.Conv2d(32, 64, 3), nn.ReLU(),
                          nn.MaxPool2d(2), nn.Flatten(), nn.Linear(1600, 128), nn.ReLU(), nn.Linear(128, 10))
    opt = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
    out['cnn'] = batches(model, opt, None, (1, 28, 28), 64, cnn_batches)

    model = nn.Sequential(nn.Linear(16, 16), nn.ReLU(), nn.Linear(16, 4))
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    x, y = torch.randn(1, 16), torch.randn(1, 4)

    def tiny_step():
        opt.zero_grad(set_to_none=True)
        F.mse_loss(model(x), y).backward()
        opt.step()

    out['tiny'] = steps_per_second(tiny_step, min_time)

    out['gemm'] = gemm_gflops(torch, 2048, 3 if quick else 10)
    out['ema_avg_fn'], out['ema_foreach'], out['ema_foreach_name'] = ema_10m_ms(torch, 5 if quick else 30)
    return out, torch.__version__


def steps_per_second(step, min_time):
    for _ in range(100):
        step()
    steps, t0 = 0, time.perf_counter()
    deadline = t0 + min_time
    while True:
        for _ in range(100):
            step()
        steps += 100
        if time.perf_counter() >= deadline:
            return steps / (time.perf_counter() - t0)


def run_gnn_python(min_time):
    """The tiny model through PyGObject; None when gnn's typelib is not reachable."""
    try:
        import gi
        gi.require_version('Gnn', '1.0')
        from gi.repository import Gnn
    except (ImportError, ValueError) as e:
        print('  (gnn from Python skipped: %s)' % e)
        return None
    Gnn.manual_seed(0)
    model = Gnn.Sequential.new([Gnn.Linear.new(16, 16, True), Gnn.ReLU.new(), Gnn.Linear.new(16, 4, True)])
    opt = Gnn.SGD(model.parameters(), lr=0.01)
    rng = np.random.default_rng(1)
    x = Gnn.Tensor.from_numpy(rng.standard_normal((1, 16)).astype(np.float32))
    y = Gnn.Tensor.from_numpy(rng.standard_normal((1, 4)).astype(np.float32))

    def tiny_step():
        opt.zero_grad(True)
        Gnn.mse_loss(model(x), y, Gnn.Reduction.MEAN).backward()
        opt.step()

    return steps_per_second(tiny_step, min_time)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--bench-train', required=True, help='the bench-train executable')
    ap.add_argument('--threads', type=int, default=int(os.environ.get('GNN_NUM_THREADS', '2') or 2))
    ap.add_argument('--min-time', type=float, default=2.0, help='seconds of each tiny measurement')
    ap.add_argument('--cnn-batches', type=int, default=200)
    ap.add_argument('--data-dir', default='/usr/share/datasets/fashion-mnist')
    ap.add_argument('--quick', action='store_true', help='a quarter MLP pass, 50 CNN batches, 0.5 s tiny')
    args, _unknown = ap.parse_known_args()      # run-bench.sh passes the other scripts' options too
    if args.quick:
        args.min_time = 0.5
        args.cnn_batches = 50
    os.environ['GNN_NUM_THREADS'] = str(args.threads)

    c, comments = run_c(args.bench_train, args.threads, args.min_time, args.quick, args.cnn_batches)
    x, y = load_data(args.data_dir)
    t, version = run_torch(args.threads, args.quick, args.min_time, args.cnn_batches, x, y)
    py_tiny = run_gnn_python(args.min_time)

    print('Training throughput: gnn vs PyTorch %s, %d threads each; load average %s'
          % (version, args.threads, ' '.join('%.1f' % v for v in os.getloadavg())))
    for line in comments:
        print('  gnn: ' + line)
    print()
    w = [36, 10, 10, 6]

    def row(cells):
        return '  '.join(str(v).rjust(k) if i else str(v).ljust(k) for i, (v, k) in enumerate(zip(cells, w)))

    print(row(['benchmark', 'gnn', 'torch', 'ratio']))
    print('-' * (sum(w) + 2 * (len(w) - 1)))
    rows = [('mlp 784-512-256-10, b128 (samples/s)', 'mlp'),
            ('mlp + EMA 0.999 (samples/s)', 'mlp_ema'),
            ('cnn, b64 (samples/s)', 'cnn'),
            ('tiny 16-16-4, b1, C (steps/s)', 'tiny')]
    for label, key in rows:
        print(row([label, '%.0f' % c[key], '%.0f' % t[key], '%.2f' % (c[key] / t[key])]))
    if py_tiny is not None:
        print(row(['tiny 16-16-4, b1, Python (steps/s)', '%.0f' % py_tiny, '%.0f' % t['tiny'],
                   '%.2f' % (py_tiny / t['tiny'])]))
    print(row(['gemm 2048², float32 (GFLOP/s)', '%.1f' % c['gemm'], '%.1f' % t['gemm'],
               '%.2f' % (c['gemm'] / t['gemm'])]))
    print(row(['EMA 10M params, AveragedModel (ms)', '%.2f' % c['ema_10m'], '%.2f' % t['ema_avg_fn'],
               '%.2f' % (t['ema_avg_fn'] / c['ema_10m'])]))
    print(row(['EMA 10M params, foreach (ms)', '%.2f' % c['ema_10m'], '%.2f' % t['ema_foreach'],
               '%.2f' % (t['ema_foreach'] / c['ema_10m'])]))
    print()
    print('  (ratio: above 1 gnn is faster: gnn over torch for rates, torch over gnn for times; the C')
    print('   tiny row compares gnn from C with torch from Python, the Python row both from Python; both')
    print('   EMA rows are gnn\'s fused AveragedModel update, against torch 1.13\'s AveragedModel(avg_fn=ema)')
    print('   and against torch.%s on the parameter lists)' % t['ema_foreach_name'])
    return 0


if __name__ == '__main__':
    sys.exit(main())
