#!/usr/bin/python3
"""gnn-train --task charlm from the outside, on a tiny configuration: the validation loss falls
well below that of a uniform guess; a run stopped by SIGINT and resumed ends with a checkpoint
byte-identical to an uninterrupted run's; seeded --sample output is reproducible (and another
seed gives other text, top-k 1 the same text whatever the seed); the state-dict keys of the
blocks are those of torch.nn.TransformerEncoderLayer; bad options and a missing corpus exit
with status 2 and a message.

    test_gnn_train_charlm.py BUILD_DIR/tools/gnn-train

Exits with 77 (skipped) when the fortunes package is not installed."""
import fcntl
import json
import math
import os
import pty
import re
import select
import signal
import struct
import subprocess
import sys
import tempfile
import termios
import time
import unittest

GNN_TRAIN = None
DATA_DIR = '/usr/share/games/fortunes'
# about 0.05 s a step on 2 cores
TINY = ['--task', 'charlm', '--steps', '60', '--batch-size', '8', '--context', '32', '--layers', '2',
        '--d-model', '32', '--heads', '2', '--eval-every', '20', '--eval-windows', '16', '--lr', '0.01',
        '--warmup', '5', '--ema-decay', '0.9', '--threads', '2']
REPORT = re.compile(r'^step (\d+)/(\d+): train loss ([0-9.]+), val loss ([0-9.]+) \(ppl ([0-9.]+)\), '
                    r'ema val loss ([0-9.]+) \(ppl ([0-9.]+)\)', re.M)


def run(*args, timeout=120):
    # sampled text is bytes of the corpus, not always whole UTF-8 sequences
    return subprocess.run([GNN_TRAIN] + list(args), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          text=True, encoding='utf-8', errors='surrogateescape', timeout=timeout)


def final_lines(out):
    return [line for line in out.splitlines() if line.startswith('final val loss')]


def sample_of(out):
    m = re.search(r'^sample \(model, \d+ characters[^\n]*\):\n(.*)\ntotal time', out, re.M | re.S)
    return m.group(1) if m else None


def safetensors_keys(path):
    with open(path, 'rb') as f:
        n = struct.unpack('<Q', f.read(8))[0]
        header = json.loads(f.read(n))
    header.pop('__metadata__', None)
    return list(header)


class TestCharLM(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.dir = tempfile.TemporaryDirectory()
        cls.whole = os.path.join(cls.dir.name, 'whole.safetensors')
        cls.r = run(*TINY, '--save', cls.whole)

    @classmethod
    def tearDownClass(cls):
        cls.dir.cleanup()

    def test_loss_falls(self):
        r = self.r
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        self.assertRegex(r.stdout, r'fortunes: \d+ files, \d+ training and \d+ held-out characters')
        reports = REPORT.findall(r.stdout)
        self.assertEqual([int(m[0]) for m in reports], [20, 40, 60], r.stdout)
        val = [float(m[3]) for m in reports]
        m = re.search(r'(\d+) symbols', r.stdout)
        uniform = math.log(int(m.group(1)))         # about 4.74 nats
        # 60 steps of 256 characters: about 3.3 nats, the unigram entropy of English text
        self.assertLess(val[-1], uniform - 1.0, r.stdout)
        self.assertLess(val[-1], val[0], r.stdout)
        for m in reports:
            self.assertAlmostEqual(float(m[4]), math.exp(float(m[3])), delta=0.01 * float(m[4]))
        self.assertEqual(len(final_lines(r.stdout)), 2, r.stdout)
        self.assertEqual(final_lines(r.stdout)[0], 'final val loss (model): %s (ppl %s)' % reports[-1][3:5])

    def test_state_dict_keys(self):
        keys = safetensors_keys(self.whole)
        block = sorted(k[len('model.layers.0.'):] for k in keys if k.startswith('model.layers.0.'))
        expected = ['linear1.bias', 'linear1.weight', 'linear2.bias', 'linear2.weight', 'norm1.bias',
                    'norm1.weight', 'norm2.bias', 'norm2.weight', 'self_attn.in_proj_bias',
                    'self_attn.in_proj_weight', 'self_attn.out_proj.bias', 'self_attn.out_proj.weight']
        try:
            import torch
            layer = torch.nn.TransformerEncoderLayer(32, 2, 128, 0.0, activation='gelu', batch_first=True,
                                                     norm_first=True)
            expected = sorted(layer.state_dict().keys())
        except ImportError:
            pass
        self.assertEqual(block, expected)
        for k in ['model.tok_emb.weight', 'model.pos_emb.weight', 'model.norm.weight', 'model.head.weight',
                  'model.layers.1.linear2.bias', 'averaged.ema.n_averaged']:
            self.assertIn(k, keys)
        self.assertNotIn('model.layers.2.linear1.weight', keys)

    def test_torch_runs_the_same_model(self):
        """torch's nn.TransformerEncoderLayer model of bench/train_charlm_torch.py, given the
        weights of gnn-train's checkpoint, has the same held-out loss on the same windows."""
        try:
            import numpy as np
            import torch
            import torch.nn.functional as F
        except ImportError:
            self.skipTest('torch is not installed')
        sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'bench'))
        import train_charlm_torch as bench
        with open(self.whole, 'rb') as f:
            data = f.read()
        n = struct.unpack('<Q', data[:8])[0]
        header = json.loads(data[8:8 + n])
        meta = header.pop('__metadata__')
        n_files, chars, _, val = bench.load_corpus(DATA_DIR)
        model = bench.make_model(torch, len(chars), int(meta['gnn-train.option.context']),
                                 int(meta['gnn-train.option.d-model']), int(meta['gnn-train.option.layers']),
                                 int(meta['gnn-train.option.heads']), int(meta['gnn-train.option.dim-feedforward']))
        state = {}
        for k, v in header.items():
            if k.startswith('model.'):
                self.assertEqual(v['dtype'], 'F32')
                a, b = v['data_offsets']
                state[k[len('model.'):]] = torch.from_numpy(
                    np.frombuffer(data, np.float32, (b - a) // 4, 8 + n + a).reshape(v['shape']).copy())
        model.load_state_dict(state)      # strict: the same keys, no more, no fewer
        model.eval()
        T, windows = int(meta['gnn-train.option.context']), int(meta['gnn-train.option.eval-windows'])
        span = len(val) - T - 1
        starts = torch.tensor([span * i // (windows - 1) for i in range(windows)])
        w = torch.from_numpy(val)[starts[:, None] + torch.arange(T + 1)]
        with torch.no_grad():
            logits = model(w[:, :-1])
            loss = F.cross_entropy(logits.reshape(-1, logits.shape[-1]), w[:, 1:].reshape(-1)).item()
        m = re.search(r'^final val loss \(model\): ([0-9.]+)', self.r.stdout, re.M)
        self.assertAlmostEqual(loss, float(m.group(1)), delta=1e-4)

    def test_sigint_resume_is_exact(self):
        with tempfile.TemporaryDirectory() as d:
            part = os.path.join(d, 'part.safetensors')
            p = subprocess.Popen([GNN_TRAIN] + TINY + ['--save', part], stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE, text=True)
            first = []
            for line in p.stdout:               # the first report, at step 20 of 60
                first.append(line)
                if line.startswith('step 20/60'):
                    break
            time.sleep(0.2)
            p.send_signal(signal.SIGINT)
            rest, err = p.communicate(timeout=120)
            out = ''.join(first) + rest
            self.assertEqual(p.returncode, 130, out + err)
            m = re.search(r'interrupted at step (\d+) of 60: saved ', out)
            self.assertTrue(m, out)
            self.assertLess(int(m.group(1)), 60)

            r2 = run('--resume', part, '--save', part, '--threads', '2')
            self.assertEqual(r2.returncode, 0, r2.stdout + r2.stderr)
            self.assertIn('resuming %s at step %s' % (part, m.group(1)), r2.stdout)
            self.assertEqual(final_lines(r2.stdout), final_lines(self.r.stdout))
            with open(self.whole, 'rb') as f1, open(part, 'rb') as f2:
                self.assertTrue(f1.read() == f2.read(), 'the resumed run ended with a different checkpoint')

    def test_resume_finished(self):
        r = run('--resume', self.whole, '--threads', '2')
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        self.assertIn('training finished, evaluating only', r.stdout)
        self.assertIsNone(REPORT.search(r.stdout))
        self.assertEqual(final_lines(r.stdout), final_lines(self.r.stdout))
        r = run('--resume', self.whole, '--lr', '0.5')
        self.assertEqual(r.returncode, 2)
        self.assertIn('--lr 0.5 differs from the value in the checkpoint', r.stderr)
        # an evaluation option may differ, and is said to
        r = run('--resume', self.whole, '--eval-windows', '8', '--threads', '2')
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        self.assertIn('--eval-windows 8 (the checkpoint\'s: 16)', r.stdout)

    def test_sample_is_reproducible(self):
        def sample(*args):
            r = run('--resume', self.whole, '--sample', '80', '--threads', '2', *args)
            self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
            text = sample_of(r.stdout)
            self.assertIsNotNone(text, r.stdout)
            return text

        a = sample('--sample-seed', '3')
        self.assertEqual(len(a.encode('utf-8', 'surrogateescape')), 80)
        self.assertEqual(sample('--sample-seed', '3'), a)
        self.assertNotEqual(sample('--sample-seed', '4'), a)
        cold = sample('--sample-seed', '3', '--temperature', '0.5', '--top-k', '5')
        self.assertNotEqual(cold, a)
        # top-k 1 is the greedy choice: the seed does not matter
        self.assertEqual(sample('--top-k', '1', '--sample-seed', '1'), sample('--top-k', '1', '--sample-seed', '2'))

    def test_usage(self):
        def usage(args, message):
            r = run(*args)
            self.assertEqual(r.returncode, 2, r.stdout + r.stderr)
            self.assertIn(message, r.stderr)

        usage(['--task', 'charlm', '--steps', '0'], '--steps: expected at least 1, found 0')
        usage(['--task', 'charlm', '--d-model', '30', '--heads', '4'], '--heads: expected a divisor of --d-model (30), found 4')
        usage(['--task', 'charlm', '--warmup', '10', '--steps', '10'], '--warmup: expected a number of steps from 0')
        usage(['--task', 'charlm', '--temperature', '0'], '--temperature: expected a positive number')
        usage(['--task', 'charlm', '--top-k', '-1'], '--top-k: expected a number >= 0 (0: all), found -1')
        usage(['--task', 'charlm', '--seed', '-3'], "--seed: expected an integer >= 0, found '-3'")
        usage(['--task', 'charlm', 'stray'], "unexpected argument 'stray'")
        usage(['--task', 'rnn'], "--task: expected cnn or charlm, found 'rnn'")
        with tempfile.TemporaryDirectory() as d:
            usage(['--task', 'charlm', '--data-dir', d], "install Debian's fortunes package")
            usage(['--task', 'charlm', '--data-dir', os.path.join(d, 'none')], "install Debian's fortunes package")


def run_on_terminal(columns, *args, timeout=120):
    """Runs gnn-train on a pseudo-terminal COLUMNS wide: (status, the text written to it)."""
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack('HHHH', 24, columns, 0, 0))
    env = dict(os.environ, TERM='xterm', COLUMNS='1000')     # the terminal's width wins
    p = subprocess.Popen([GNN_TRAIN] + list(args), stdin=slave, stdout=slave, stderr=slave, env=env)
    os.close(slave)
    out, deadline = b'', time.monotonic() + timeout
    while time.monotonic() < deadline:
        ready, _, _ = select.select([master], [], [], 0.5)
        if ready:
            try:
                data = os.read(master, 65536)
            except OSError:       # the other end closed
                break
            if not data:
                break
            out += data
        elif p.poll() is not None:
            break
    os.close(master)
    return p.wait(timeout=10), out.decode('utf-8', 'replace')


class TestTerminal(unittest.TestCase):
    def test_progress_fits_the_terminal(self):
        args = [a for a in TINY]
        args[args.index('--steps') + 1] = '80'
        args[args.index('--eval-every') + 1] = '40'
        for columns in (80, 40):
            status, out = run_on_terminal(columns, *args)
            self.assertEqual(status, 0, out)
            drawn = [seg.replace('\x1b[K', '') for line in out.split('\r\n') for seg in line.split('\r')]
            # the redrawn progress line, not the reports ("step 40/80: ...")
            progress = [seg for seg in drawn if re.match(r'step \d+/80(?!:)', seg)]
            self.assertTrue(progress, out)
            self.assertEqual([seg for seg in progress if len(seg) >= columns], [], columns)
            if columns >= 80:
                self.assertTrue(any('[' in seg and 'loss' in seg and 'tokens/s' in seg for seg in progress),
                                progress)
            # the reports start on a line of their own
            self.assertTrue(any(seg.startswith('step 40/80: train loss') for seg in drawn), drawn)


if __name__ == '__main__':
    GNN_TRAIN = sys.argv.pop(1)
    if not os.path.isdir(DATA_DIR) or not os.path.exists(os.path.join(DATA_DIR, 'cookie')):
        print('1..0 # SKIP the fortunes package is not installed')
        sys.exit(77)
    unittest.main(verbosity=2)
