#!/usr/bin/env python3
"""bench_cuda_torch.py: PyTorch's side of bench/bench-cuda.c, for tests/gpu-check's table.

The same benchmarks, measured the same way (warm-up, batches of about --min-time / 7 seconds,
the median batch, the device synchronized around each batch):

  - gemm: 4096² float32 torch.matmul, GFLOP/s, TF32 off and on
    (torch.backends.cuda.matmul.allow_tf32);
  - mlp: 784-512-256-10 ReLU network, batch 128: forward, cross-entropy, backward, in-place SGD
    (p.sub_(lr * grad) under no_grad), samples/s;
  - cnn: conv(1,32,3)-relu-maxpool2-conv(32,64,3)-relu-maxpool2-linear(1600,128)-relu-
    linear(128,10), batch 64 of 28x28, the same step, samples/s;
  - ema: torch._foreach_lerp_ over 100 tensors of 100k float32, ms per update and GB/s, and a
    device-to-device copy of the same 40 MB.

Prints `benchmark<TAB>torch-cuda<TAB>value<TAB>unit` lines (torch-cpu with --device cpu).
"""
import argparse
import sys
import time


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--device', default='cuda')
    ap.add_argument('--only', default='gemm,mlp,cnn,ema')
    ap.add_argument('--min-time', type=float, default=1.0)
    args = ap.parse_args()

    import torch

    dev = torch.device(args.device)
    impl = 'torch-cuda' if dev.type == 'cuda' else 'torch-cpu'
    if dev.type == 'cuda' and not torch.cuda.is_available():
        print('bench_cuda_torch: torch sees no CUDA device', file=sys.stderr)
        return 77
    only = args.only.split(',')

    def sync():
        if dev.type == 'cuda':
            torch.cuda.synchronize(dev)

    def measure(step, warmup=3):
        for _ in range(warmup):
            step()
        sync()
        iters = 1
        while True:
            t0 = time.perf_counter()
            for _ in range(iters):
                step()
            sync()
            dt = time.perf_counter() - t0
            if dt >= args.min_time / 7 or iters > 1000000:
                break
            iters *= max(2, min(10, int(args.min_time / 7 / dt) + 1)) if dt > 0 else 10
        per = []
        start = time.perf_counter()
        while len(per) < 64 and (len(per) < 3 or time.perf_counter() - start < args.min_time):
            t0 = time.perf_counter()
            for _ in range(iters):
                step()
            sync()
            per.append((time.perf_counter() - t0) / iters)
        per.sort()
        return per[len(per) // 2]

    def report(name, value, unit):
        print('%s\t%s\t%.6g\t%s' % (name, impl, value, unit), flush=True)

    desc = torch.cuda.get_device_name(dev) if dev.type == 'cuda' else 'CPU, %d threads' % torch.get_num_threads()
    print('# %s: torch %s, %s' % (impl, torch.__version__, desc), flush=True)
    torch.manual_seed(0)

    if 'gemm' in only:
        n = 4096
        a = torch.randn(n, n, device=dev)
        b = torch.randn(n, n, device=dev)
        modes = [('fp32', False), ('tf32', True)] if dev.type == 'cuda' else [('fp32', False)]
        for label, tf32 in modes:
            torch.backends.cuda.matmul.allow_tf32 = tf32
            t = measure(lambda: torch.matmul(a, b))
            report('gemm-4096-%s' % label, 2.0 * n ** 3 / t / 1e9, 'GFLOP/s')
        torch.backends.cuda.matmul.allow_tf32 = False

    def train(name, model, x, y, batch):
        model = model.to(dev)
        params = list(model.parameters())
        loss_fn = torch.nn.CrossEntropyLoss()

        def step():
            for p in params:
                p.grad = None
            loss = loss_fn(model(x), y)
            loss.backward()
            with torch.no_grad():
                for p in params:
                    p.sub_(0.01 * p.grad)
        t = measure(step)
        report(name, batch / t, 'samples/s')

    nn = torch.nn
    if 'mlp' in only:
        model = nn.Sequential(nn.Linear(784, 512), nn.ReLU(), nn.Linear(512, 256), nn.ReLU(), nn.Linear(256, 10))
        train('mlp-train-b128', model, torch.randn(128, 784, device=dev), torch.randint(0, 10, (128,), device=dev), 128)
    if 'cnn' in only:
        model = nn.Sequential(nn.Conv2d(1, 32, 3), nn.ReLU(), nn.MaxPool2d(2), nn.Conv2d(32, 64, 3), nn.ReLU(),
                              nn.MaxPool2d(2), nn.Flatten(), nn.Linear(1600, 128), nn.ReLU(), nn.Linear(128, 10))
        train('cnn-train-b64', model, torch.randn(64, 1, 28, 28, device=dev), torch.randint(0, 10, (64,), device=dev), 64)
    if 'ema' in only:
        count, numel = 100, 100000
        avg = [torch.randn(numel, device=dev) for _ in range(count)]
        cur = [torch.randn(numel, device=dev) for _ in range(count)]
        nbytes = 4.0 * count * numel
        if hasattr(torch, '_foreach_lerp_'):
            def ema():
                torch._foreach_lerp_(avg, cur, 0.001)
        else:
            # older torch: one lerp_ per tensor
            def ema():
                for a, c in zip(avg, cur):
                    a.lerp_(c, 0.001)
        with torch.no_grad():
            t = measure(ema)
        report('ema-10M-foreach-lerp', t * 1e3, 'ms/update')
        report('ema-10M-foreach-lerp-bw', 3 * nbytes / t / 1e9, 'GB/s')
        src = torch.randn(count * numel, device=dev)
        dst = torch.zeros(count * numel, device=dev)
        t = measure(lambda: dst.copy_(src))
        report('d2d-copy-40MB', t * 1e3, 'ms')
        report('d2d-copy-40MB-bw', 2 * nbytes / t / 1e9, 'GB/s')
    return 0


if __name__ == '__main__':
    sys.exit(main())
