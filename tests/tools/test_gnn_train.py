#!/usr/bin/python3
"""gnn-train from the outside: bad options and missing data exit with status 2 and a message;
a short run prints the test accuracy; a run stopped by SIGINT mid-epoch and resumed ends with
a checkpoint byte-identical to an uninterrupted run's (and prints the same accuracy); a model
given as a JSON file trains; --resume restores --test-limit too (and says when the command line
overrides it); the progress line on a terminal fits its width; messages print in the locale.

    test_gnn_train.py BUILD_DIR/tools/gnn-train

Exits with 77 (skipped) when Fashion-MNIST is not installed."""
import fcntl
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
DATA_DIR = '/usr/share/datasets/fashion-mnist'
# small and quick: 10 batches of 64 per epoch, 500 test images
SMALL = ['--limit', '640', '--test-limit', '500', '--batch-size', '64', '--threads', '2']

MLP_JSON = '''{
  "type": "GnnSequential", "training": true, "properties": {},
  "children": [
    {"name": "0", "module": {"type": "GnnFlatten", "training": true,
                             "properties": {"start-dim": 1, "end-dim": -1}, "children": []}},
    {"name": "1", "module": {"type": "GnnLinear", "training": true,
                             "properties": {"in-features": 784, "out-features": 64, "bias": true,
                                            "dtype": "float32"}, "children": []}},
    {"name": "2", "module": {"type": "GnnReLU", "training": true, "properties": {}, "children": []}},
    {"name": "3", "module": {"type": "GnnLinear", "training": true,
                             "properties": {"in-features": 64, "out-features": 10, "bias": true,
                                            "dtype": "float32"}, "children": []}}
  ]
}'''

# the MLP with computed weights: spectral_norm (the parametrization) on the first Linear,
# l1_unstructured pruning on the second (to_json of such a model)
COMPUTED_JSON = '''{"type": "GnnSequential", "training": true, "properties": {}, "children": [{"name": "0", "module": {"type": "GnnFlatten", "training": true, "properties": {"start-dim": 1, "end-dim": -1}, "children": []}}, {"name": "1", "module": {"type": "GnnLinear", "training": true, "properties": {"in-features": 784, "out-features": 64, "bias": true, "dtype": "float32"}, "parameters": [{"name": "bias", "shape": [64], "dtype": "float32", "requires-grad": true}], "parametrized": [{"tensor": "weight", "unsafe": false}], "children": [{"name": "parametrizations", "module": {"type": "GnnModuleDict", "training": true, "properties": {}, "children": [{"name": "weight", "module": {"type": "GnnParametrizationList", "training": true, "properties": {}, "parameters": [{"name": "original", "shape": [64, 784], "dtype": "float32", "requires-grad": true}], "children": [{"name": "0", "module": {"type": "GnnSpectralNorm", "training": true, "properties": {"n-power-iterations": 1, "dim": 0, "eps": 1e-12, "ndim": 2}, "buffers": [{"name": "_u", "shape": [64], "dtype": "float32", "persistent": true}, {"name": "_v", "shape": [784], "dtype": "float32", "persistent": true}], "children": []}}]}}]}}]}}, {"name": "2", "module": {"type": "GnnReLU", "training": true, "properties": {}, "children": []}}, {"name": "3", "module": {"type": "GnnLinear", "training": true, "properties": {"in-features": 64, "out-features": 10, "bias": true, "dtype": "float32"}, "parameters": [{"name": "bias", "shape": [10], "dtype": "float32", "requires-grad": true}, {"name": "weight_orig", "shape": [10, 64], "dtype": "float32", "requires-grad": true}], "buffers": [{"name": "weight_mask", "shape": [10, 64], "dtype": "float32", "persistent": true}], "hooks": [{"kind": "prune", "tensor": "weight", "method": {"type": "GnnL1Unstructured", "properties": {"tensor-name": "weight", "pruning-type": "unstructured", "dim": -1, "amount": 0.5, "amount-is-count": false}}}], "children": []}}]}'''


def run(*args, timeout=120):
    return subprocess.run([GNN_TRAIN] + list(args), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          text=True, timeout=timeout)


def accuracy_lines(out):
    return [line for line in out.splitlines() if line.startswith('test accuracy')]


class TestUsage(unittest.TestCase):
    def assert_usage(self, args, message):
        r = run(*args)
        self.assertEqual(r.returncode, 2, r.stdout + r.stderr)
        self.assertIn(message, r.stderr)

    def test_bad_options(self):
        self.assert_usage(['--optimizer', 'lbfgs'], "expected sgd, adam or adamw, found 'lbfgs'")
        self.assert_usage(['--epochs', '0'], '--epochs: expected at least 1, found 0')
        self.assert_usage(['--lr', '-1'], '--lr: expected a positive number')
        self.assert_usage(['--cosine=maybe'], "--cosine: expected on or off, found 'maybe'")
        self.assert_usage(['--swa-start', '9', '--epochs', '3'], '--swa-start: expected an epoch from 1')
        self.assert_usage(['--epochs', 'many'], 'many')
        self.assert_usage(['--no-such-option'], 'no-such-option')
        self.assert_usage(['stray'], "unexpected argument 'stray'")

    def test_missing_data(self):
        with tempfile.TemporaryDirectory() as d:
            self.assert_usage(['--data-dir', d], 'Fashion-MNIST not found: expected train-images-idx3-ubyte.gz')

    def test_empty_training_split(self):
        # IDX files of 0 images: the run trained on nothing and saved untrained weights
        def idx(path, magic, dims, item_bytes):
            with open(path, 'wb') as f:
                f.write(struct.pack('>I', magic) + b''.join(struct.pack('>I', n) for n in dims))
                f.write(bytes(dims[0] * item_bytes))
        with tempfile.TemporaryDirectory() as d:
            idx(os.path.join(d, 'train-images-idx3-ubyte'), 0x803, [0, 28, 28], 784)
            idx(os.path.join(d, 'train-labels-idx1-ubyte'), 0x801, [0], 1)
            idx(os.path.join(d, 't10k-images-idx3-ubyte'), 0x803, [2, 28, 28], 784)
            idx(os.path.join(d, 't10k-labels-idx1-ubyte'), 0x801, [2], 1)
            self.assert_usage(['--data-dir', d, '--epochs', '1', '--save', os.path.join(d, 'out.safetensors')],
                              'the training split in %s is empty: expected at least 1 item, found 0' % d)
            self.assertFalse(os.path.exists(os.path.join(d, 'out.safetensors')))

    def test_missing_model_and_checkpoint(self):
        with tempfile.TemporaryDirectory() as d:
            self.assert_usage(['--model', os.path.join(d, 'none.json')] + SMALL, 'none.json')
            self.assert_usage(['--resume', os.path.join(d, 'none.safetensors')], 'none.safetensors')
            bad = os.path.join(d, 'bad.json')
            with open(bad, 'w') as f:
                f.write('{"type": "NoSuchModule"}')
            self.assert_usage(['--model', bad] + SMALL, bad)


class TestTraining(unittest.TestCase):
    def test_short_run(self):
        r = run('--limit', '2000', '--test-limit', '1000', '--epochs', '2', '--threads', '2')
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        self.assertEqual(len(re.findall(r'^epoch \d/2: loss [0-9.]+, \d+ samples/s', r.stdout, re.M)), 2, r.stdout)
        acc = accuracy_lines(r.stdout)
        self.assertEqual(len(acc), 1, r.stdout)
        m = re.match(r'test accuracy \(model\): ([0-9.]+) \((\d+)/1000\)', acc[0])
        self.assertTrue(m, acc[0])
        self.assertGreater(float(m.group(1)), 0.5)   # 2000 images, 2 epochs: about 0.75
        self.assertIn('total time:', r.stdout)

    def test_sigint_resume_is_exact(self):
        self.sigint_resume_is_exact(SMALL + ['--epochs', '2', '--ema-decay', '0.9', '--swa-start', '2'])

    def test_computed_model_resume_is_exact(self):
        """a parametrized and pruned model from JSON: its checkpoints rebuild it, bit for bit"""
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, 'computed.json')
            with open(path, 'w') as f:
                f.write(COMPUTED_JSON)
            # an MLP is quick: enough batches that the signal comes mid-run
            self.sigint_resume_is_exact(['--model', path, '--limit', '32000', '--test-limit', '500',
                                         '--batch-size', '64', '--threads', '2', '--epochs', '2'])

    def sigint_resume_is_exact(self, args):
        with tempfile.TemporaryDirectory() as d:
            whole, part = os.path.join(d, 'whole.safetensors'), os.path.join(d, 'part.safetensors')
            r = run(*args, '--save', whole)
            self.assertEqual(r.returncode, 0, r.stdout + r.stderr)

            p = subprocess.Popen([GNN_TRAIN] + args + ['--save', part], stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE, text=True)
            first = []
            for line in p.stdout:               # wait for the first progress: epoch 1's line
                first.append(line)
                if line.startswith('epoch 1/2'):
                    break
            time.sleep(0.3)                     # into epoch 2 (10 batches of ~0.1-0.3 s)
            p.send_signal(signal.SIGINT)
            rest, err = p.communicate(timeout=120)
            out = ''.join(first) + rest
            self.assertEqual(p.returncode, 130, out + err)
            self.assertRegex(out, r'interrupted at epoch [12], batch \d+ of \d+: saved ')
            self.assertTrue(os.path.exists(part))

            r2 = run('--resume', part, '--save', part, '--test-limit', '500', '--threads', '2')
            self.assertEqual(r2.returncode, 0, r2.stdout + r2.stderr)
            self.assertIn('resuming ', r2.stdout)
            self.assertEqual(accuracy_lines(r2.stdout), accuracy_lines(r.stdout))
            with open(whole, 'rb') as f1, open(part, 'rb') as f2:
                self.assertTrue(f1.read() == f2.read(), 'the resumed run ended with a different checkpoint')

            # a finished run resumed only evaluates; a conflicting option is refused
            r3 = run('--resume', part, '--test-limit', '500', '--threads', '2')
            self.assertEqual(r3.returncode, 0, r3.stdout + r3.stderr)
            self.assertNotRegex(r3.stdout, re.compile(r'^epoch \d', re.M))
            self.assertIn('training finished', r3.stdout)
            self.assertEqual(accuracy_lines(r3.stdout), accuracy_lines(r.stdout))
            r4 = run('--resume', part, '--lr', '0.5')
            self.assertEqual(r4.returncode, 2)
            self.assertIn('--lr 0.5 differs from the value in the checkpoint', r4.stderr)

    def test_json_model(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, 'mlp.json')
            with open(path, 'w') as f:
                f.write(MLP_JSON)
            r = run('--model', path, '--epochs', '1', *SMALL)
            self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
            self.assertIn('50890 parameters', r.stdout)      # 784*64+64 + 64*10+10
            acc = accuracy_lines(r.stdout)
            self.assertEqual(len(acc), 1, r.stdout)
            self.assertGreater(float(re.search(r': ([0-9.]+)', acc[0]).group(1)), 0.4)


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
        # three-digit batch counts: 1600 images in batches of 8 are 200 batches
        for columns in (80, 60, 40, 24):
            status, out = run_on_terminal(columns, '--limit', '1600', '--batch-size', '8',
                                          '--test-limit', '200', '--epochs', '1', '--threads', '2')
            self.assertEqual(status, 0, out)
            drawn = [seg.replace('\x1b[K', '') for line in out.split('\r\n') for seg in line.split('\r')]
            progress = [seg for seg in drawn if seg.startswith('epoch 1/1')]
            self.assertTrue(progress, out)
            self.assertTrue(any('200/200' in seg for seg in progress), progress)
            # no redraw reaches the last column, where it would wrap
            self.assertEqual([seg for seg in progress if len(seg) >= columns], [], columns)
            if columns >= 80:
                self.assertTrue(any('[' in seg and 'loss' in seg and 'samples/s' in seg
                                    for seg in progress), progress)

    def test_locale(self):
        # GLib's quotes around a file name print as themselves in a UTF-8 locale
        with tempfile.TemporaryDirectory() as d:
            missing = os.path.join(d, 'nope')
            r = subprocess.run([GNN_TRAIN, '--resume', missing], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, timeout=60,
                               env=dict(os.environ, LC_ALL='C.UTF-8'))
            self.assertEqual(r.returncode, 2)
            err = r.stderr.decode('utf-8')
            self.assertIn('\u201c%s\u201d' % missing, err)
            self.assertNotIn('?', err)


class TestResumeOptions(unittest.TestCase):
    def test_resume_restores_test_limit(self):
        with tempfile.TemporaryDirectory() as d:
            ckpt = os.path.join(d, 'c.safetensors')
            r = run('--limit', '640', '--test-limit', '300', '--batch-size', '64', '--epochs', '1',
                    '--threads', '2', '--save', ckpt)
            self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
            self.assertRegex(accuracy_lines(r.stdout)[0], r'/300\)$')
            # restored: the same evaluation
            r2 = run('--resume', ckpt, '--threads', '2')
            self.assertEqual(r2.returncode, 0, r2.stdout + r2.stderr)
            self.assertEqual(accuracy_lines(r2.stdout), accuracy_lines(r.stdout))
            self.assertNotIn('overriding', r2.stdout)
            # given: it overrides the checkpoint's, and says so
            r3 = run('--resume', ckpt, '--test-limit', '200', '--threads', '2')
            self.assertEqual(r3.returncode, 0, r3.stdout + r3.stderr)
            self.assertIn("overriding the checkpoint's options that shape only the evaluation: "
                          "--test-limit 200 (the checkpoint's: 300)", r3.stdout)
            self.assertRegex(accuracy_lines(r3.stdout)[0], r'/200\)$')
            # an option that shapes the training still may not differ
            r4 = run('--resume', ckpt, '--limit', '320')
            self.assertEqual(r4.returncode, 2, r4.stdout + r4.stderr)
            self.assertIn('--limit 320 differs from the value in the checkpoint', r4.stderr)


if __name__ == '__main__':
    GNN_TRAIN = sys.argv.pop(1)
    if not os.path.exists(os.path.join(DATA_DIR, 'train-images-idx3-ubyte.gz')):
        print('1..0 # SKIP Fashion-MNIST is not installed')
        sys.exit(77)
    unittest.main(verbosity=2)
