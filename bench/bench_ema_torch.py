#!/usr/bin/python3
"""The EMA update of a 10M-parameter model: gnn next to PyTorch, in one run with the same
thread count, and both against the memory bandwidth measured in that run.

Runs bench-ema (a separate process: gnn's update, its fused kernel alone, and over arrays of the
model's size a threaded in-place axpy (the EMA's traffic), a threaded STREAM triad and a memcpy),
then measures in this process PyTorch's
ways of updating an EMA of the same model (10 x nn.Linear (1000, 1000), float32):
  - AveragedModel.update_parameters with avg_fn = the EMA (PyTorch 1.13's only way: one
    Python call and three kernels per tensor);
  - a loop of Tensor.lerp_ per parameter (what get_ema_multi_avg_fn does, unfused);
  - torch._foreach_mul_ then torch._foreach_add_ (two passes over the average);
  - torch._foreach_lerp_, when this PyTorch has it (current PyTorch's get_ema_multi_avg_fn);
  - a triad in torch (torch.add (b, c, alpha=s, out=a)), torch's own bandwidth.
An update moves 12 bytes per parameter (reads the average and the model, writes the average);
GB/s below counts those, and "of axpy" divides by the axpy GB/s of bench-ema: the fraction of
the bandwidth an in-place update can reach that an update gets.

    bench/run-bench.sh BUILD_DIR      (runs this after bench_vs_torch.py)
    bench/bench_ema_torch.py --bench-ema BUILD_DIR/bench/bench-ema [--threads N] [--quick]
"""
import os
import sys

from timing import measure_side_by_side as measure_set, run_c as _run_c, side_by_side_args


def run_c(bench_ema, threads, min_time, layers, width):
    return _run_c([bench_ema, '--threads', threads, '--min-time', min_time,
                   '--layers', layers, '--width', width])


def run_torch(threads, min_time, layers, width, decay=0.999):
    import torch
    from torch import nn
    from torch.optim import swa_utils

    torch.set_num_threads(threads)
    torch.manual_seed(0)
    model = nn.Sequential(*[nn.Linear(width, width) for _ in range(layers)])

    def ema(a, c, n):
        return decay * a + (1 - decay) * c

    swa = swa_utils.AveragedModel(model, avg_fn=ema)
    swa.update_parameters(model)
    avg = [p.detach() for p in swa.module.parameters()]
    cur = [p.detach() for p in model.parameters()]
    n = sum(p.numel() for p in cur)

    def lerp_loop():
        with torch.no_grad():
            for a, c in zip(avg, cur):
                a.lerp_(c, 1 - decay)

    def foreach_mul_add():
        with torch.no_grad():
            torch._foreach_mul_(avg, decay)
            torch._foreach_add_(avg, cur, alpha=1 - decay)

    a, b, c = torch.empty(n), torch.rand(n), torch.rand(n)

    def triad():
        torch.add(b, c, alpha=3.0, out=a)

    names = ['AveragedModel (avg_fn)', 'lerp_ per tensor', '_foreach_mul_ + _foreach_add_']
    fns = [lambda: swa.update_parameters(model), lerp_loop, foreach_mul_add]
    if hasattr(torch, '_foreach_lerp_'):
        names.append('_foreach_lerp_')
        fns.append(lambda: torch._foreach_lerp_(avg, cur, 1 - decay))
    names.append('triad (torch.add out=)')
    fns.append(triad)
    times = measure_set(fns, min_time)
    return dict(zip(names, times)), n, torch.__version__, torch.get_num_threads()


def main():
    def own(ap):
        ap.add_argument('--bench-ema', required=True, help='the bench-ema executable')
        ap.add_argument('--layers', type=int, default=10)
        ap.add_argument('--width', type=int, default=1000)

    args = side_by_side_args(__doc__, own, known_only=True)
    os.environ['GNN_NUM_THREADS'] = str(args.threads)
    os.environ['OPENBLAS_NUM_THREADS'] = str(args.threads)

    c, comments = run_c(args.bench_ema, args.threads, args.min_time, args.layers, args.width)
    t, n, version, torch_threads = run_torch(args.threads, args.min_time, args.layers, args.width)
    axpy_bw = c['axpy_bw']

    def gbs(seconds):
        return 12.0 * n / seconds / 1e9

    print('EMA update of %d x Linear (%d, %d) = %.2fM float32 parameters: gnn vs PyTorch %s, %d threads each '
          '(torch.get_num_threads() = %d)' % (args.layers, args.width, args.width, n / 1e6, version, args.threads,
                                             torch_threads))
    for line in comments:
        print('  gnn: ' + line)
    print('  memory bandwidth in this run: axpy in place %.1f GB/s, triad %.1f GB/s (%d threads); memcpy %.1f GB/s '
          '(1 thread); load average %s' % (axpy_bw, c['triad_bw'], int(c['threads']), c['memcpy_bw'],
                                           ' '.join('%.1f' % v for v in os.getloadavg())))
    print()
    w = [36, 10, 8, 9, 10]

    def row(cells):
        return '  '.join(str(x).rjust(k) if i else str(x).ljust(k) for i, (x, k) in enumerate(zip(cells, w)))

    print(row(['update', 'ms', 'GB/s', 'of axpy', 'gnn update']))
    print(row(['', '', '', '', 'faster by']))
    print('-' * (sum(w) + 2 * (len(w) - 1)))
    gnn_update = c['ema_update']
    print(row(['gnn AveragedModel (ema_multi, fused)', '%.2f' % (gnn_update * 1e3), '%.1f' % gbs(gnn_update),
               '%.2f' % (gbs(gnn_update) / axpy_bw), '-']))
    print(row(['gnn foreach_lerp_ (kernel alone)', '%.2f' % (c['ema_kernel'] * 1e3), '%.1f' % gbs(c['ema_kernel']),
               '%.2f' % (gbs(c['ema_kernel']) / axpy_bw), '-']))
    for name, seconds in t.items():
        if name.startswith('triad'):
            continue
        print(row(['torch ' + name, '%.2f' % (seconds * 1e3), '%.1f' % gbs(seconds),
                   '%.2f' % (gbs(seconds) / axpy_bw), '%.2fx' % (seconds / gnn_update)]))
    tt = t['triad (torch.add out=)']
    print(row(['torch triad (bandwidth reference)', '%.2f' % (tt * 1e3), '%.1f' % gbs(tt),
               '%.2f' % (gbs(tt) / axpy_bw), '-']))
    print()
    print('  (GB/s: 12 bytes per parameter and update; "of axpy": that over the axpy GB/s of bench-ema;')
    print('   "faster by": the torch time over gnn\'s AveragedModel update time)')
    return 0


if __name__ == '__main__':
    sys.exit(main())
