#!/usr/bin/python3
"""gnn-train --task charlm's default run in PyTorch: the same model, recipe, data and batches.

The corpus: the text files of /usr/share/games/fortunes (Debian's fortunes package; not the
.dat/.u8 index files), sorted by name; the first 95% of each file is training text, the last
5% (length // 20 bytes) held out; the vocabulary is the sorted set of the bytes seen.
The model: Embedding (vocab, d_model) for the tokens and Embedding (context, d_model) for the
positions, --layers nn.TransformerEncoderLayer (d_model, heads, 4 * d_model, --dropout 0,
activation="gelu", batch_first=True, norm_first=True) with the causal mask, LayerNorm and a
Linear head; the same module names as gnn-train's (tok_emb, pos_emb, layers, norm, head), so
the state-dict keys are the same. The recipe: AdamW (lr 0.002, weight decay 0.1), SequentialLR
of LinearLR (1 / warmup to 1 over the warm-up steps) and CosineAnnealingLR (to 0), stepped
every step, clip_grad_norm_ 1.0, an EMA AveragedModel (decay 0.99). The batches are gnn-train's:
the window starts of step s come from GLib's Mersenne Twister seeded with the array
(seed, seed >> 32, s, 0x63686c6d) (numpy's RandomState seeds it the same way) through
g_rand_double's formula; the held-out windows are gnn-train's too. Only the initial weights
differ (torch's generator). Prints a line per report, the final held-out losses and the wall
time (data loading included, as gnn-train counts it).

    bench/train_charlm_torch.py [--steps N] [--threads N] [--batch-size N] [--context N] ...
"""
import argparse
import math
import os
import sys
import time
import warnings

import openblas_threads  # noqa: F401 (sets OPENBLAS_NUM_THREADS before numpy loads OpenBLAS)

import numpy as np

G_RAND_DOUBLE_TRANSFORM = 2.3283064365386962890625e-10   # 2^-32


def load_corpus(data_dir):
    try:
        names = sorted(n for n in os.listdir(data_dir)
                       if not n.endswith('.dat') and not n.endswith('.u8') and not n.startswith('.')
                       and os.path.isfile(os.path.join(data_dir, n)))
    except OSError:
        names = []
    if not names:
        sys.exit('train_charlm_torch.py: no text files in %s; install Debian\'s fortunes package' % data_dir)
    train, val = [], []
    for name in names:
        with open(os.path.join(data_dir, name), 'rb') as f:
            text = f.read()
        n_val = len(text) // 20
        train.append(text[:len(text) - n_val])
        val.append(text[len(text) - n_val:])
    train, val = b''.join(train), b''.join(val)
    chars = sorted(set(train) | set(val))
    table = np.full(256, -1, np.int64)
    table[chars] = np.arange(len(chars))
    return (len(names), chars, table[np.frombuffer(train, np.uint8)], table[np.frombuffer(val, np.uint8)])


def g_rand_doubles(seed_array, n):
    """n values of g_rand_double from g_rand_new_with_seed_array (seed_array)"""
    rs = np.random.RandomState(np.array(seed_array, dtype=np.uint32))
    out = []
    while len(out) < n:
        a, b = rs.randint(0, 2 ** 32, size=2, dtype=np.uint64)
        v = (float(a) * G_RAND_DOUBLE_TRANSFORM + float(b)) * G_RAND_DOUBLE_TRANSFORM
        if v < 1.0:
            out.append(v)
    return out


def make_model(torch, vocab, context, d_model, layers, heads, dim_feedforward, dropout=0.0):
    """the model of gnn-train --task charlm, with its module names"""
    from torch import nn

    class CharLM(nn.Module):
        def __init__(self):
            super().__init__()
            self.tok_emb = nn.Embedding(vocab, d_model)
            self.pos_emb = nn.Embedding(context, d_model)
            self.layers = nn.ModuleList(
                nn.TransformerEncoderLayer(d_model, heads, dim_feedforward, dropout, activation='gelu',
                                           batch_first=True, norm_first=True)
                for _ in range(layers))
            self.norm = nn.LayerNorm(d_model)
            self.head = nn.Linear(d_model, vocab)

        def forward(self, idx):
            length = idx.shape[1]
            x = self.tok_emb(idx) + self.pos_emb(torch.arange(length))
            mask = torch.triu(torch.ones(length, length, dtype=torch.bool), 1)   # True: masked out
            for layer in self.layers:
                x = layer(x, src_mask=mask)
            return self.head(self.norm(x))

    return CharLM()


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--steps', type=int, default=600)
    ap.add_argument('--batch-size', type=int, default=32)
    ap.add_argument('--context', type=int, default=128)
    ap.add_argument('--layers', type=int, default=4)
    ap.add_argument('--d-model', type=int, default=128)
    ap.add_argument('--heads', type=int, default=4)
    ap.add_argument('--dim-feedforward', type=int)
    ap.add_argument('--dropout', type=float, default=0.0)
    ap.add_argument('--lr', type=float, default=2e-3)
    ap.add_argument('--warmup', type=int)
    ap.add_argument('--weight-decay', type=float, default=0.1)
    ap.add_argument('--clip', type=float, default=1.0)
    ap.add_argument('--ema-decay', type=float, default=0.99)
    ap.add_argument('--seed', type=int, default=0)
    ap.add_argument('--eval-every', type=int, default=100)
    ap.add_argument('--eval-windows', type=int, default=128)
    ap.add_argument('--threads', type=int, default=int(os.environ.get('GNN_NUM_THREADS', '0') or 0)
                    or os.cpu_count())
    ap.add_argument('--data-dir', default='/usr/share/games/fortunes')
    args = ap.parse_args()
    ff = args.dim_feedforward or 4 * args.d_model
    warmup = args.warmup if args.warmup is not None else min(100, args.steps // 10)

    # SequentialLR of torch 1.13 steps the next scheduler with an epoch at its milestone
    warnings.filterwarnings('ignore', message='The epoch parameter in')
    import torch
    from torch import nn
    import torch.nn.functional as F
    from torch.optim.swa_utils import AveragedModel

    t0 = time.perf_counter()
    torch.set_num_threads(args.threads)
    n_files, chars, train, val = load_corpus(args.data_dir)
    train_t, val_t = torch.from_numpy(train), torch.from_numpy(val)
    print('fortunes: %d files, %d training and %d held-out characters, %d symbols, loaded in %.2f s'
          % (n_files, len(train), len(val), len(chars), time.perf_counter() - t0))

    torch.manual_seed(args.seed)
    model = make_model(torch, len(chars), args.context, args.d_model, args.layers, args.heads, ff, args.dropout)
    n_params = sum(p.numel() for p in model.parameters())
    print('model: a GPT of %d layers, d_model %d, %d heads, feed-forward %d, context %d, %d parameters'
          % (args.layers, args.d_model, args.heads, ff, args.context, n_params))
    opt = torch.optim.AdamW(model.parameters(), lr=args.lr, betas=(0.9, 0.999), eps=1e-8,
                            weight_decay=args.weight_decay)
    if warmup > 0:
        sched = torch.optim.lr_scheduler.SequentialLR(
            opt, [torch.optim.lr_scheduler.LinearLR(opt, 1.0 / warmup, 1.0, warmup),
                  torch.optim.lr_scheduler.CosineAnnealingLR(opt, args.steps - warmup, 0)], [warmup])
    else:
        sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, args.steps, 0)
    decay = args.ema_decay
    ema = AveragedModel(model, avg_fn=lambda avg, p, n: decay * avg + (1 - decay) * p) if decay > 0 else None
    print('adamw lr %g (warm-up %d steps, cosine), weight decay %g, clip %g, batch %d, %d steps, EMA %g, '
          'seed %d, %d threads' % (args.lr, warmup, args.weight_decay, args.clip, args.batch_size, args.steps,
                                   decay, args.seed, torch.get_num_threads()))

    T = args.context
    offsets = torch.arange(T + 1)

    def windows(text, starts):
        w = text[torch.tensor(starts, dtype=torch.int64)[:, None] + offsets]
        return w[:, :-1], w[:, 1:]

    n_eval = args.eval_windows
    span = len(val) - T - 1
    eval_starts = [span * i // (n_eval - 1) if n_eval > 1 else 0 for i in range(n_eval)]

    def evaluate(m):
        was = m.training
        m.eval()
        total = 0.0
        with torch.no_grad():
            for b in range(0, n_eval, args.batch_size):
                s = eval_starts[b:b + args.batch_size]
                x, y = windows(val_t, s)
                logits = m(x)
                total += F.cross_entropy(logits.reshape(-1, logits.shape[-1]), y.reshape(-1)).item() * len(s)
        m.train(was)
        return total / n_eval

    seed = args.seed
    loss_sum, loss_count = 0.0, 0
    start = time.perf_counter()
    model.train()
    for step in range(args.steps):
        u = g_rand_doubles([seed & 0xffffffff, (seed >> 32) & 0xffffffff, step, 0x63686c6d], args.batch_size)
        starts = [int(v * (len(train) - T - 1)) for v in u]
        x, y = windows(train_t, starts)
        opt.zero_grad(set_to_none=True)
        logits = model(x)
        loss = F.cross_entropy(logits.reshape(-1, logits.shape[-1]), y.reshape(-1))
        loss.backward()
        if args.clip > 0:
            nn.utils.clip_grad_norm_(model.parameters(), args.clip)
        opt.step()
        sched.step()
        if ema is not None:
            ema.update_parameters(model)
        loss_sum += loss.item()
        loss_count += 1
        done = step + 1
        if done % args.eval_every == 0 or done == args.steps:
            rate = done * args.batch_size * T / (time.perf_counter() - start)
            v = evaluate(model)
            line = 'step %d/%d: train loss %.4f, val loss %.4f (ppl %.3f)' % (
                done, args.steps, loss_sum / loss_count, v, math.exp(v))
            if ema is not None:
                ve = evaluate(ema)
                line += ', ema val loss %.4f (ppl %.3f)' % (ve, math.exp(ve))
            print(line + ', lr %.3g, %.0f tokens/s' % (opt.param_groups[0]['lr'], rate), flush=True)
            loss_sum, loss_count = 0.0, 0
    v = evaluate(model)
    print('final val loss (model): %.4f (ppl %.3f)' % (v, math.exp(v)))
    if ema is not None:
        ve = evaluate(ema)
        print('final val loss (ema): %.4f (ppl %.3f)' % (ve, math.exp(ve)))
    print('total time: %.1f s' % (time.perf_counter() - t0))


if __name__ == '__main__':
    main()
