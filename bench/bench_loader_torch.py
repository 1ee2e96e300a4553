#!/usr/bin/python3
"""One pass of a DataLoader over Fashion-MNIST-sized data with the usual augmentation, gnn next
to PyTorch in one run, with 0 and 2 workers each.

The data (60000 x 1 x 28 x 28 float32 images in [0, 1] and int64 labels) is made here, not read
from disk. Each sample goes through RandomCrop(28, padding=4), RandomHorizontalFlip and
Normalize((0.2860,), (0.3530,)), then batches of 128 are stacked: gnn's TensorDataset applies
its C transforms (gnn.vision.transforms) and its DataLoader makes the batches in C worker
threads; torch's Dataset applies torchvision's transforms in __getitem__ and its DataLoader
forks worker processes. Timing is one pass each (the numbers vary from run to run; nothing
fails on them).

    bench/run-bench.sh BUILD_DIR      (runs this after the training benchmark)
    bench/bench_loader_torch.py [--threads N] [--quick]   (with run-bench.sh's environment)
"""
import argparse
import os
import sys
import time

import numpy as np

N, BATCH, MEAN, STD = 60000, 128, 0.2860, 0.3530


def one_pass(loader):
    t0 = time.perf_counter()
    n = 0
    for images, labels in loader:
        n += len(labels)
    return time.perf_counter() - t0, n


def run_gnn(images, labels, workers):
    import gi
    gi.require_version('Gnn', '1.0')
    from gi.repository import Gnn
    import gnn.utils.data as data
    from gnn.vision import transforms

    augment = transforms.Compose([transforms.RandomCrop(28, padding=4), transforms.RandomHorizontalFlip(),
                                  transforms.Normalize((MEAN,), (STD,))])
    ds = data.TensorDataset(Gnn.Tensor.from_numpy(images), Gnn.Tensor.from_numpy(labels))
    ds.props.transform = augment
    return one_pass(data.DataLoader(ds, batch_size=BATCH, shuffle=True, num_workers=workers))


def run_torch(images, labels, workers):
    import torch
    import torchvision.transforms as T

    class Augmented(torch.utils.data.Dataset):
        def __init__(self):
            self.x, self.y = torch.from_numpy(images), torch.from_numpy(labels)
            self.t = T.Compose([T.RandomCrop(28, padding=4), T.RandomHorizontalFlip(), T.Normalize((MEAN,), (STD,))])

        def __len__(self):
            return len(self.y)

        def __getitem__(self, i):
            return self.t(self.x[i]), self.y[i]

    return one_pass(torch.utils.data.DataLoader(Augmented(), batch_size=BATCH, shuffle=True, num_workers=workers))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--threads', type=int, default=int(os.environ.get('GNN_NUM_THREADS', '2')))
    ap.add_argument('--quick', action='store_true', help='a tenth of the samples')
    ap.add_argument('--min-time', type=float, default=None, help='ignored (one pass each)')
    ap.add_argument('--sizes', default=None, help='ignored')
    args = ap.parse_args()
    n = N // 10 if args.quick else N
    rng = np.random.default_rng(0)
    images = rng.random((n, 1, 28, 28), dtype=np.float32)
    labels = rng.integers(0, 10, n).astype(np.int64)

    import torch
    torch.set_num_threads(args.threads)
    rows = []
    for workers in (0, 2):
        g, gn = run_gnn(images, labels, workers)
        t, tn = run_torch(images, labels, workers)
        assert gn == tn == n
        rows.append((workers, g, t))

    print('DataLoader, one shuffled pass over %d x 1 x 28 x 28 float32, batch %d, RandomCrop(28, padding=4) + '
          'RandomHorizontalFlip + Normalize per sample: gnn (C transforms, worker threads) vs torch %s '
          '(torchvision transforms, worker processes); load average %s' % (
              n, BATCH, torch.__version__, ' '.join('%.1f' % v for v in os.getloadavg())))
    w = [12, 10, 12, 10, 12, 12]

    def row(cells):
        return '  '.join(str(x).rjust(k) if i else str(x).ljust(k) for i, (x, k) in enumerate(zip(cells, w)))

    print(row(['num_workers', 'gnn s', 'gnn img/s', 'torch s', 'torch img/s', 'gnn faster']))
    print('-' * (sum(w) + 2 * (len(w) - 1)))
    for workers, g, t in rows:
        print(row([workers, '%.2f' % g, '%.0f' % (n / g), '%.2f' % t, '%.0f' % (n / t), '%.2fx' % (t / g)]))
    print('  (gnn 2 workers vs gnn 0: %.2fx; torch 2 workers vs torch 0: %.2fx)' % (
        rows[0][1] / rows[1][1], rows[0][2] / rows[1][2]))
    return 0


if __name__ == '__main__':
    sys.exit(main())
