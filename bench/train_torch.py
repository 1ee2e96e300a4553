#!/usr/bin/python3
"""gnn-train's default run in PyTorch: the same model, recipe and data, for comparison.

The model: Conv2d (1, 32, 3, padding=1)-BatchNorm2d-ReLU-MaxPool2d (2)-Conv2d (32, 64, 3,
padding=1)-BatchNorm2d-ReLU-MaxPool2d (2)-Flatten-Linear (3136, 128)-ReLU-Dropout (0.25)-
Linear (128, 10); AdamW (lr 0.002, weight decay 0.01) or SGD (Nesterov momentum 0.9, lr 0.05,
weight decay 5e-4), a cosine schedule stepped once per epoch, batch 128, 6 epochs, the images
scaled to [0, 1] and normalized with mean 0.2860, std 0.3530. The IDX files are read with gzip
and numpy. Prints one line per epoch, the test accuracy and the wall time (data loading
included, as gnn-train counts it).

    bench/train_torch.py [--epochs N] [--threads N] [--optimizer adamw|adam|sgd] [--limit N]
"""
import argparse
import gzip
import os
import sys
import time

import openblas_threads  # noqa: F401 (sets OPENBLAS_NUM_THREADS before numpy loads OpenBLAS)

import numpy as np


def read_idx(path):
    opener = gzip.open if path.endswith('.gz') else open
    with opener(path, 'rb') as f:
        data = f.read()
    ndim = data[3]
    shape = [int.from_bytes(data[4 + 4 * i:8 + 4 * i], 'big') for i in range(ndim)]
    return np.frombuffer(data, np.uint8, offset=4 + 4 * ndim).reshape(shape)


def find(data_dir, name):
    for candidate in (name + '.gz', name):
        path = os.path.join(data_dir, candidate)
        if os.path.exists(path):
            return path
    sys.exit('train_torch.py: %s(.gz) not found in %s' % (name, data_dir))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--epochs', type=int, default=6)
    ap.add_argument('--batch-size', type=int, default=128)
    ap.add_argument('--optimizer', default='adamw', choices=['adamw', 'adam', 'sgd'])
    ap.add_argument('--lr', type=float)
    ap.add_argument('--weight-decay', type=float)
    ap.add_argument('--threads', type=int, default=int(os.environ.get('GNN_NUM_THREADS', '0') or 0)
                    or os.cpu_count())
    ap.add_argument('--seed', type=int, default=0)
    ap.add_argument('--limit', type=int, default=0)
    ap.add_argument('--data-dir', default='/usr/share/datasets/fashion-mnist')
    args = ap.parse_args()

    import torch
    from torch import nn
    import torch.nn.functional as F

    t0 = time.perf_counter()
    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)

    def load(images, labels, limit=0):
        x = read_idx(find(args.data_dir, images)).astype(np.float32)
        y = read_idx(find(args.data_dir, labels)).astype(np.int64)
        if limit:
            x, y = x[:limit], y[:limit]
        x = (x / 255.0 - 0.2860) / 0.3530
        return torch.from_numpy(x[:, None].astype(np.float32)), torch.from_numpy(y)

    x_train, y_train = load('train-images-idx3-ubyte', 'train-labels-idx1-ubyte', args.limit)
    x_test, y_test = load('t10k-images-idx3-ubyte', 't10k-labels-idx1-ubyte')
    print('Fashion-MNIST: %d training and %d test images, loaded in %.2f s'
          % (len(x_train), len(x_test), time.perf_counter() - t0))

    model = nn.Sequential(
        nn.Conv2d(1, 32, 3, padding=1), nn.BatchNorm2d(32), nn.ReLU(), nn.MaxPool2d(2),
        nn.Conv2d(32, 64, 3, padding=1), nn.BatchNorm2d(64), nn.ReLU(), nn.MaxPool2d(2),
        nn.Flatten(), nn.Linear(64 * 7 * 7, 128), nn.ReLU(), nn.Dropout(0.25), nn.Linear(128, 10))
    if args.optimizer == 'sgd':
        lr = args.lr or 0.05
        wd = 5e-4 if args.weight_decay is None else args.weight_decay
        opt = torch.optim.SGD(model.parameters(), lr=lr, momentum=0.9, nesterov=True, weight_decay=wd)
    else:
        lr = args.lr or 0.002
        wd = (0.01 if args.optimizer == 'adamw' else 0.0) if args.weight_decay is None else args.weight_decay
        cls = torch.optim.AdamW if args.optimizer == 'adamw' else torch.optim.Adam
        opt = cls(model.parameters(), lr=lr, weight_decay=wd)
    sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=args.epochs)
    print('torch %s: %s lr %g (cosine), weight decay %g, batch %d, %d epochs, %d threads'
          % (torch.__version__, args.optimizer, lr, wd, args.batch_size, args.epochs, torch.get_num_threads()))

    g = torch.Generator().manual_seed(args.seed)
    n = len(x_train)
    for epoch in range(args.epochs):
        start = time.perf_counter()
        model.train()
        total, batches = 0.0, 0
        current_lr = opt.param_groups[0]['lr']
        for idx in torch.randperm(n, generator=g).split(args.batch_size):
            opt.zero_grad(set_to_none=True)
            loss = F.cross_entropy(model(x_train[idx]), y_train[idx])
            loss.backward()
            opt.step()
            total += loss.item()
            batches += 1
        sched.step()
        seconds = time.perf_counter() - start
        print('epoch %d/%d: loss %.4f, %.0f samples/s, lr %.4g, %.1f s'
              % (epoch + 1, args.epochs, total / batches, n / seconds, current_lr, seconds), flush=True)

    model.eval()
    correct = 0
    with torch.no_grad():
        for start in range(0, len(x_test), 1000):
            logits = model(x_test[start:start + 1000])
            correct += int((logits.argmax(1) == y_test[start:start + 1000]).sum())
    print('test accuracy (model): %.4f (%d/%d)' % (correct / len(x_test), correct, len(x_test)))
    print('total time: %.1f s' % (time.perf_counter() - t0))
    return 0


if __name__ == '__main__':
    sys.exit(main())
