#!/usr/bin/python3
"""gnn next to PyTorch and raw OpenBLAS, in one run with the same thread count on every side.

Runs the C benchmark (bench-ops, a separate process so that gnn's OpenBLAS and torch's BLAS
do not share a thread pool), then measures in this process:
  - torch.matmul on the same square float32 sizes (output allocated each call);
  - a 16-element float32 add with autograd off: gnn from Python and torch from Python;
  - a 1e6-element float32 add: torch and gnn from Python (GB/s, two reads and a write);
and prints one table.

    bench/run-bench.sh BUILD_DIR [--threads N] [--quick]

Environment: GNN_NUM_THREADS (default 2) is the thread count for both; OPENBLAS_* variables
are passed through untouched.
"""
import argparse
import os
import statistics
import subprocess
import sys
import time

N_BATCHES = 7


def measure(fn, min_time):
    """Seconds per call: the median of N_BATCHES batches, like bench-ops.c."""
    batch_time = min_time / N_BATCHES
    iterations = 1
    while True:
        t0 = time.perf_counter()
        for _ in range(iterations):
            fn()
        dt = time.perf_counter() - t0
        if dt >= batch_time * 0.5:
            iterations = max(1, int(iterations * batch_time / dt))
            break
        iterations *= min(10, max(2, int(batch_time / dt))) if dt > 0 else 10
    times = []
    for _ in range(N_BATCHES):
        t0 = time.perf_counter()
        for _ in range(iterations):
            fn()
        times.append((time.perf_counter() - t0) / iterations)
    return statistics.median(times)


def run_c(bench_ops, threads, min_time, sizes):
    cmd = [bench_ops, '--threads', str(threads), '--min-time', str(min_time),
           '--sizes', ','.join(map(str, sizes))]
    proc = subprocess.run(cmd, stdout=subprocess.PIPE, text=True, check=True)
    results, comments = {}, []
    for line in proc.stdout.splitlines():
        if line.startswith('#'):
            comments.append(line[1:].strip())
            continue
        name, value, _unit = line.split('\t')
        results[name] = float(value)
    return results, comments


def run_python(threads, min_time, sizes):
    import gi
    gi.require_version('Gnn', '1.0')
    from gi.repository import Gnn, GLib
    import numpy as np
    import torch

    torch.set_num_threads(threads)
    Gnn.set_num_threads(threads)
    r = {'torch_threads': torch.get_num_threads(), 'torch_config': torch.__version__}

    def gnn_tensor(a):
        return Gnn.Tensor.new_from_bytes(GLib.Bytes.new(a.tobytes()), Gnn.Dtype.FLOAT32,
                                         list(a.shape), None)

    rng = np.random.default_rng(0)
    with torch.no_grad():
        for n in sizes:
            a = torch.rand(n, n)
            b = torch.rand(n, n)
            t = measure(lambda: torch.matmul(a, b), min_time)
            r['matmul_%d_torch' % n] = 2.0 * n ** 3 / t / 1e9

        for n, label in [(16, '16'), (1000000, '1e6')]:
            an = rng.random(n, dtype=np.float32)
            bn = rng.random(n, dtype=np.float32)
            ta, tb = torch.from_numpy(an), torch.from_numpy(bn)
            r['add_%s_torch_py' % label] = measure(lambda: torch.add(ta, tb), min_time) * 1e9

    previous = Gnn.set_grad_enabled(False)
    try:
        for n, label in [(16, '16'), (1000000, '1e6')]:
            an = rng.random(n, dtype=np.float32)
            bn = rng.random(n, dtype=np.float32)
            ga, gb = gnn_tensor(an), gnn_tensor(bn)
            # the generated binding, no override layer in between
            add = Gnn.Tensor.add
            r['add_%s_gnn_py' % label] = measure(lambda: add(ga, gb, 1.0), min_time) * 1e9
    finally:
        Gnn.set_grad_enabled(previous)
    return r


def fmt(v, digits=3):
    if v is None:
        return '-'
    if v >= 100:
        return '%.0f' % v
    if v >= 10:
        return '%.1f' % v
    return '%.*f' % (digits - 1, v)


def ratio(a, b):
    return '-' if a is None or b is None or b == 0 else '%.2f' % (a / b)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--bench-ops', required=True, help='the bench-ops executable')
    ap.add_argument('--threads', type=int, default=int(os.environ.get('GNN_NUM_THREADS', '2') or 2))
    ap.add_argument('--min-time', type=float, default=1.0, help='seconds per measurement')
    ap.add_argument('--sizes', default='256,512,1024,2048')
    ap.add_argument('--quick', action='store_true', help='sizes 256,512 and 0.2 s per measurement')
    args = ap.parse_args()
    if args.quick:
        args.min_time = 0.2
        args.sizes = '256,512'
    sizes = [int(s) for s in args.sizes.split(',') if s]
    os.environ['GNN_NUM_THREADS'] = str(args.threads)

    c, comments = run_c(args.bench_ops, args.threads, args.min_time, sizes)
    py = run_python(args.threads, args.min_time, sizes)
    import torch
    blas_info = [l.strip() for l in torch.__config__.show().splitlines() if 'BLAS' in l]

    print('gnn vs PyTorch %s, %d threads each (torch.get_num_threads() = %d)'
          % (torch.__version__, args.threads, py['torch_threads']))
    for line in comments:
        print('  gnn: ' + line)
    for line in blas_info[:2]:
        print('  torch: ' + line)
    print('  OPENBLAS_CORETYPE=%s OPENBLAS_L2_SIZE=%s; median of %d batches, %.2g s per measurement'
          % (os.environ.get('OPENBLAS_CORETYPE', '-'), os.environ.get('OPENBLAS_L2_SIZE', '-'),
             N_BATCHES, args.min_time))
    print()
    w = 30
    print('%-*s %10s %10s %10s %10s %10s' % (w, 'benchmark', 'gnn', 'PyTorch', 'OpenBLAS', 'gnn/BLAS', 'torch/BLAS'))
    print('-' * (w + 55))
    for n in sizes:
        g, t, b = c.get('matmul_%d_gnn' % n), py.get('matmul_%d_torch' % n), c.get('matmul_%d_openblas' % n)
        print('%-*s %10s %10s %10s %10s %10s' % (w, 'matmul %dx%d f32 GFLOP/s' % (n, n), fmt(g), fmt(t), fmt(b),
                                               ratio(g, b), ratio(t, b)))
    print()
    print('%-*s %10s %10s %10s %10s %10s' % (w, 'per-op overhead', 'gnn', 'PyTorch', 'C loop', 'gnn/torch', 'torch/gnn'))
    print('-' * (w + 55))
    g_c, g_py, t_py = c.get('add_16_gnn_c'), py.get('add_16_gnn_py'), py.get('add_16_torch_py')
    print('%-*s %10s %10s %10s %10s %10s' % (w, 'add 16 f32, from C, ns/call', fmt(g_c), '-', fmt(c.get('add_16_loop_c')),
                                           '-', '-'))
    print('%-*s %10s %10s %10s %10s %10s' % (w, 'add 16 f32, from C, Mcalls/s', fmt(1e3 / g_c), '-', '-', '-', '-'))
    print('%-*s %10s %10s %10s %10s %10s' % (w, 'add 16 f32, from Python, ns/call', fmt(g_py), fmt(t_py), '-',
                                           ratio(g_py, t_py), ratio(t_py, g_py)))
    print('%-*s %10s %10s %10s %10s %10s' % (w, 'add 16 f32, from Python, Mcalls/s', fmt(1e3 / g_py), fmt(1e3 / t_py),
                                           '-', ratio(t_py, g_py), ratio(g_py, t_py)))
    n = 1e6
    bw = lambda ns: 3 * 4 * n / ns  # noqa: E731 -- bytes per ns = GB/s
    g1, t1, l1 = c.get('add_1e6_gnn_c'), py.get('add_1e6_torch_py'), c.get('add_1e6_loop_c')
    g1p = py.get('add_1e6_gnn_py')
    print('%-*s %10s %10s %10s %10s %10s' % (w, 'add 1e6 f32, GB/s (gnn from C)', fmt(bw(g1)), fmt(bw(t1)), fmt(bw(l1)),
                                           ratio(bw(g1), bw(t1)), ratio(bw(t1), bw(g1))))
    print('%-*s %10s %10s %10s %10s %10s' % (w, 'add 1e6 f32, GB/s (from Python)', fmt(bw(g1p)), fmt(bw(t1)), '-',
                                           ratio(bw(g1p), bw(t1)), ratio(bw(t1), bw(g1p))))
    print()
    big = max(sizes)
    g, b = c.get('matmul_%d_gnn' % big), c.get('matmul_%d_openblas' % big)
    ok_mm = g is not None and b and g / b >= 0.9
    ok_op = g_c is not None and g_c < 1000
    print('target: gnn matmul %d >= 90%% of OpenBLAS: %s (%.0f%%)' % (big, 'met' if ok_mm else 'NOT met',
                                                                      100 * g / b if g and b else 0))
    print('target: small op from C < 1 us: %s (%.0f ns)' % ('met' if ok_op else 'NOT met', g_c or 0))
    return 0


if __name__ == '__main__':
    sys.exit(main())
