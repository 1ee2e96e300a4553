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
import sys

from timing import N_BATCHES, measure_set as _measure_set, run_c as _run_c

SETTLE = 0.1


def measure_set(fns, min_time):
    return _measure_set(fns, min_time / N_BATCHES, SETTLE)


def run_c(bench_ops, threads, min_time, sizes):
    return _run_c([bench_ops, '--threads', threads, '--min-time', min_time,
                   '--sizes', ','.join(map(str, sizes))])


def raw_sgemm(threads):
    """cblas_sgemm of the OpenBLAS gnn links, through ctypes, on preallocated buffers."""
    import ctypes
    import numpy as np
    lib = ctypes.CDLL('libopenblas.so.0')
    lib.openblas_set_num_threads(ctypes.c_int(threads))
    fp = ctypes.POINTER(ctypes.c_float)
    lib.cblas_sgemm.restype = None
    lib.cblas_sgemm.argtypes = [ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_int,
                                ctypes.c_int, ctypes.c_float, fp, ctypes.c_int, fp, ctypes.c_int,
                                ctypes.c_float, fp, ctypes.c_int]

    def make(a, b):
        c = np.zeros_like(a)
        n = a.shape[0]
        pa, pb, pc = (x.ctypes.data_as(fp) for x in (a, b, c))
        # 101 CblasRowMajor, 111 CblasNoTrans
        return lambda: lib.cblas_sgemm(101, 111, 111, n, n, n, 1.0, pa, n, pb, n, 0.0, pc, n), c
    return make


def run_python(threads, min_time, sizes):
    import gi
    gi.require_version('Gnn', '1.0')
    from gi.repository import Gnn, GLib
    import numpy as np
    import torch

    torch.set_num_threads(threads)
    Gnn.set_num_threads(threads)
    make_sgemm = raw_sgemm(threads)
    r = {'torch_threads': torch.get_num_threads()}

    def gnn_tensor(a):
        return Gnn.Tensor.new_from_bytes(GLib.Bytes.new(a.tobytes()), Gnn.Dtype.FLOAT32,
                                         list(a.shape), None)

    rng = np.random.default_rng(0)
    previous = Gnn.set_grad_enabled(False)
    try:
        with torch.no_grad():
            for n in sizes:
                a = rng.random((n, n), dtype=np.float32)
                b = rng.random((n, n), dtype=np.float32)
                ta, tb = torch.from_numpy(a), torch.from_numpy(b)
                sgemm, _c = make_sgemm(a, b)
                t_torch, t_blas = measure_set([lambda: torch.matmul(ta, tb), sgemm], min_time)
                r['matmul_%d_torch' % n] = 2.0 * n ** 3 / t_torch / 1e9
                r['matmul_%d_openblas_py' % n] = 2.0 * n ** 3 / t_blas / 1e9

            # the generated binding, no override layer in between
            add = Gnn.Tensor.add
            for n, label in [(16, '16'), (1000000, '1e6')]:
                an = rng.random(n, dtype=np.float32)
                bn = rng.random(n, dtype=np.float32)
                ta, tb = torch.from_numpy(an), torch.from_numpy(bn)
                ga, gb = gnn_tensor(an), gnn_tensor(bn)
                t_gnn, t_torch = measure_set([lambda: add(ga, gb, 1.0), lambda: torch.add(ta, tb)], min_time)
                r['add_%s_gnn_py' % label] = t_gnn * 1e9
                r['add_%s_torch_py' % label] = t_torch * 1e9
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

    os.environ['OPENBLAS_NUM_THREADS'] = str(args.threads)   # torch's BLAS follows this, not set_num_threads

    load_before = ' '.join('%.2f' % v for v in os.getloadavg())
    c, comments = run_c(args.bench_ops, args.threads, args.min_time, sizes)
    py = run_python(args.threads, args.min_time, sizes)
    import torch

    print('gnn vs PyTorch %s and raw OpenBLAS, %d threads each (torch.get_num_threads() = %d)'
          % (torch.__version__, args.threads, py['torch_threads']))
    for line in comments:
        print('  gnn: ' + line)
    print('  OPENBLAS_CORETYPE=%s OPENBLAS_L2_SIZE=%s; each figure is the median of %d batches that alternate'
          % (os.environ.get('OPENBLAS_CORETYPE', '-'), os.environ.get('OPENBLAS_L2_SIZE', '-'), N_BATCHES))
    print('  with those of what it is compared to (%.2g s in all per measurement); load average before: %s,'
          ' after: %s' % (args.min_time, load_before, ' '.join('%.2f' % v for v in os.getloadavg())))
    print()

    def row(cells, widths):
        return '  '.join(str(c).rjust(w) if i else str(c).ljust(w) for i, (c, w) in enumerate(zip(cells, widths)))

    wm = [26, 8, 9, 9, 8, 9, 10, 9]
    print(row(['matmul f32, GFLOP/s', 'gnn', 'OpenBLAS', 'gnn/BLAS', 'PyTorch', 'OpenBLAS', 'torch/BLAS',
               'gnn/torch'], wm))
    print(row(['', '(C)', '(C)', '', '(Python)', '(Python)', '', ''], wm))
    print('-' * (sum(wm) + 2 * (len(wm) - 1)))
    for n in sizes:
        g, b = c.get('matmul_%d_gnn' % n), c.get('matmul_%d_openblas' % n)
        t, bp = py.get('matmul_%d_torch' % n), py.get('matmul_%d_openblas_py' % n)
        print(row(['%d x %d' % (n, n), fmt(g), fmt(b), ratio(g, b), fmt(t), fmt(bp), ratio(t, bp), ratio(g, t)], wm))
    print()

    wo = [34, 9, 9, 9, 9]
    g_c, loop_c = c.get('add_16_gnn_c'), c.get('add_16_loop_c')
    g_py, t_py = py.get('add_16_gnn_py'), py.get('add_16_torch_py')
    n = 1e6
    bw = lambda ns: None if ns is None else 3 * 4 * n / ns  # noqa: E731 -- bytes per ns = GB/s
    print(row(['elementwise add f32, no autograd', 'gnn', 'PyTorch', 'gnn/torch', 'plain C'], wo))
    print('-' * (sum(wo) + 2 * (len(wo) - 1)))
    print(row(['16 elements from C, ns/call', fmt(g_c), '-', '-', fmt(loop_c)], wo))
    print(row(['16 elements from C, Mcalls/s', fmt(1e3 / g_c), '-', '-', fmt(1e3 / loop_c)], wo))
    print(row(['16 elements from Python, ns/call', fmt(g_py), fmt(t_py), ratio(g_py, t_py), '-'], wo))
    print(row(['16 elements from Python, Mcalls/s', fmt(1e3 / g_py), fmt(1e3 / t_py), ratio(t_py, g_py), '-'], wo))
    print(row(['1e6 elements from C, GB/s', fmt(bw(c.get('add_1e6_gnn_c'))), '-', '-',
               fmt(bw(c.get('add_1e6_loop_c')))], wo))
    print(row(['1e6 elements from Python, GB/s', fmt(bw(py.get('add_1e6_gnn_py'))), fmt(bw(py.get('add_1e6_torch_py'))),
               ratio(bw(py.get('add_1e6_gnn_py')), bw(py.get('add_1e6_torch_py'))), '-'], wo))
    print('  (GB/s counts two reads and a write; "plain C" is one thread into a preallocated buffer)')
    print()
    big = max(sizes)
    g, b = c.get('matmul_%d_gnn' % big), c.get('matmul_%d_openblas' % big)
    ok_mm = g is not None and b and g / b >= 0.9
    ok_op = g_c is not None and g_c < 1000
    print('target: gnn matmul %d at >= 90%% of OpenBLAS: %s (%.0f%%)'
          % (big, 'met' if ok_mm else 'NOT met', 100 * g / b if g and b else 0))
    print('target: a small op from C under 1 us: %s (median %.0f ns, best batch %.0f ns)'
          % ('met' if ok_op else 'NOT met', g_c or 0, c.get('add_16_gnn_c_best') or 0))
    return 0


if __name__ == '__main__':
    sys.exit(main())
