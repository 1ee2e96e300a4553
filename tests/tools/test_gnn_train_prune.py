#!/usr/bin/python3
"""gnn-train --prune-global on a tiny subset: the accuracy before pruning, right after it and
after fine-tuning is printed, the global sparsity printed is the amount (a fraction or a count),
the saved checkpoint holds a plain model (no weight_orig / weight_mask) whose Conv2d and Linear
weights have those zeros and which --resume evaluates to the fine-tuned accuracy; bad amounts
are refused with a clear message.

    test_gnn_train_prune.py BUILD_DIR/tools/gnn-train

Exits with 77 (skipped) when Fashion-MNIST is not installed."""
import json
import os
import re
import struct
import subprocess
import sys
import tempfile
import unittest

import numpy as np

GNN_TRAIN = None
DATA_DIR = '/usr/share/datasets/fashion-mnist'
# 10 batches of 64, 300 test images, one epoch: a few seconds
SMALL = ['--limit', '640', '--test-limit', '300', '--batch-size', '64', '--threads', '2', '--epochs', '1']
# the default CNN's Conv2d and Linear weights: 32*1*9 + 64*32*9 + 128*3136 + 10*128
N_WEIGHTS = 288 + 18432 + 401408 + 1280
WEIGHTS = ['model.0.weight', 'model.4.weight', 'model.9.weight', 'model.12.weight']


def run(*args, timeout=240):
    return subprocess.run([GNN_TRAIN] + list(args), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          text=True, timeout=timeout)


def read_safetensors(path):
    with open(path, 'rb') as f:
        n = struct.unpack('<Q', f.read(8))[0]
        header = json.loads(f.read(n))
        data = f.read()
    tensors = {}
    for key, info in header.items():
        if key == '__metadata__':
            continue
        begin, end = info['data_offsets']
        if info['dtype'] == 'F32':
            tensors[key] = np.frombuffer(data[begin:end], np.float32).reshape(info['shape'])
        else:
            tensors[key] = None
    return tensors, header.get('__metadata__', {})


def accuracy(out, name):
    m = re.search(r'^test accuracy \(%s\): ([0-9.]+) \((\d+)/(\d+)\)$' % re.escape(name), out, re.M)
    return m and (float(m.group(1)), int(m.group(2)), int(m.group(3)))


class TestPruneGlobal(unittest.TestCase):
    def check_run(self, amount, want_zeros, epochs=None):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, 'pruned.safetensors')
            extra = ['--prune-epochs', str(epochs)] if epochs is not None else []
            r = run(*SMALL, '--prune-global', amount, *extra, '--save', path)
            out = r.stdout
            self.assertEqual(r.returncode, 0, out + r.stderr)
            before, after = accuracy(out, 'model'), accuracy(out, 'pruned')
            self.assertTrue(before and after, out)
            self.assertIn('pruned %d of the %d weights of 4 Conv2d and Linear layers (global L1, amount %s) in '
                          % (want_zeros, N_WEIGHTS, amount), out)
            n_epochs = 1 if epochs is None else epochs
            tuned = accuracy(out, 'fine-tuned %d epoch%s' % (n_epochs, '' if n_epochs == 1 else 's'))
            if n_epochs:
                self.assertTrue(tuned, out)
                self.assertEqual(len(re.findall(r'^fine-tuning epoch \d/%d: loss [0-9.]+' % n_epochs, out, re.M)),
                                 n_epochs, out)
            else:
                self.assertIsNone(tuned, out)
                self.assertNotIn('fine-tuning epoch', out)

            m = re.search(r'^global sparsity: ([0-9.]+) \((\d+)/(\d+) weights are zero\)$', out, re.M)
            self.assertTrue(m, out)
            self.assertEqual(int(m.group(3)), N_WEIGHTS)
            self.assertEqual(int(m.group(2)), want_zeros)
            self.assertEqual(m.group(1), '%.4f' % (want_zeros / N_WEIGHTS))
            # the report's rows: the four pruned weights, and the global row
            for path_ in ('0', '4', '9', '12'):
                self.assertRegex(out, r'(?m)^%s +(Conv2d|Linear) +weight\* ' % path_)

            # the checkpoint: a plain model with the zeros in its weights
            tensors, meta = read_safetensors(path)
            self.assertFalse([k for k in tensors if '_orig' in k or '_mask' in k], sorted(tensors))
            self.assertNotIn('weight_orig', json.dumps(meta))
            zeros = sum(int((tensors[k] == 0).sum()) for k in WEIGHTS)
            self.assertEqual(zeros, want_zeros)

            # it loads as an ordinary finished run and tests as the pruned model did at the end
            r2 = run('--resume', path, '--test-limit', '300', '--threads', '2')
            self.assertEqual(r2.returncode, 0, r2.stdout + r2.stderr)
            self.assertIn('training finished', r2.stdout)
            self.assertEqual(accuracy(r2.stdout, 'model'), tuned if n_epochs else after)
            return out

    def test_fraction(self):
        self.check_run('0.5', N_WEIGHTS // 2)

    def test_count_and_two_epochs(self):
        self.check_run('300000', 300000, epochs=2)

    def test_no_fine_tuning(self):
        self.check_run('0.9', round(0.9 * N_WEIGHTS), epochs=0)

    def test_bad_amounts(self):
        for amount, message in (('1.5', "found '1.5'"), ('-0.1', "found '-0.1'"), ('-3', "found '-3'"),
                                ('half', "found 'half'"), ('nan', "found 'nan'"), ('', "found ''")):
            with self.subTest(amount=amount):
                r = run(*SMALL, '--prune-global', amount)
                self.assertEqual(r.returncode, 2, r.stdout + r.stderr)
                self.assertIn('--prune-global: expected a fraction in [0, 1] (such as 0.5) or a whole number of '
                              'weights >= 0 (such as 1000), ' + message, r.stderr)
        # a count above the weights there are: refused before any training
        r = run(*SMALL, '--prune-global', str(N_WEIGHTS + 1))
        self.assertEqual(r.returncode, 2, r.stdout + r.stderr)
        self.assertIn('--prune-global: expected at most the %d weights of the model\'s Conv2d and Linear layers, '
                      'found %d' % (N_WEIGHTS, N_WEIGHTS + 1), r.stderr)
        self.assertNotIn('epoch 1/1', r.stdout)
        r = run(*SMALL, '--prune-epochs', '2')
        self.assertEqual(r.returncode, 2)
        self.assertIn('--prune-epochs: expected --prune-global too', r.stderr)
        r = run(*SMALL, '--prune-global', '0.5', '--prune-epochs', '-1')
        self.assertEqual(r.returncode, 2)
        self.assertIn('--prune-epochs: expected a number >= 0, found -1', r.stderr)
        r = run(*SMALL, '--prune-global', '0.5', '--prune-lr', '0')
        self.assertEqual(r.returncode, 2)
        self.assertIn('--prune-lr: expected a positive number', r.stderr)


if __name__ == '__main__':
    GNN_TRAIN = sys.argv.pop(1)
    if not os.path.exists(os.path.join(DATA_DIR, 'train-images-idx3-ubyte.gz')):
        print('1..0 # SKIP Fashion-MNIST is not installed')
        sys.exit(77)
    unittest.main(verbosity=2)
