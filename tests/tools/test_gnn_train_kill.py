#!/usr/bin/python3
"""gnn-train killed while it writes a checkpoint: the previous checkpoint stays whole, and
--resume from it ends with the checkpoint (and accuracy) of an uninterrupted run.

The kill comes at a known point of the save, without a race: once gnn-train has written its
epoch-1 checkpoint, its file-size limit (RLIMIT_FSIZE, set from here with prlimit) is
lowered to half the checkpoint's size, so that the next save's write stops midway and the
kernel kills the process there with SIGXFSZ, whose default action ends it as SIGKILL would:
no handler, no cleanup. What it leaves beside the checkpoint is a hidden
`.NAME.XXXXXX.partial` file, never taken for a checkpoint.

    test_gnn_train_kill.py BUILD_DIR/tools/gnn-train

Exits with 77 (skipped) when Fashion-MNIST is not installed."""
import os
import re
import resource
import signal
import subprocess
import sys
import tempfile
import time
import unittest

GNN_TRAIN = None
DATA_DIR = '/usr/share/datasets/fashion-mnist'
ARGS = ['--limit', '640', '--test-limit', '500', '--batch-size', '64', '--threads', '2', '--epochs', '2',
        '--ema-decay', '0.9']


def run(*args, timeout=120):
    return subprocess.run([GNN_TRAIN] + list(args), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          text=True, timeout=timeout)


def no_core_dump():
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))


def accuracy_lines(out):
    return [line for line in out.splitlines() if line.startswith('test accuracy')]


class TestKilledSave(unittest.TestCase):
    def test_killed_during_save_then_resume(self):
        with tempfile.TemporaryDirectory() as d:
            whole, part = os.path.join(d, 'whole.safetensors'), os.path.join(d, 'part.safetensors')
            r = run(*ARGS, '--save', whole)
            self.assertEqual(r.returncode, 0, r.stdout + r.stderr)

            p = subprocess.Popen([GNN_TRAIN] + ARGS + ['--save', part], stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE, text=True, preexec_fn=no_core_dump)
            out = []
            for line in p.stdout:               # epoch 1's line, then its checkpoint
                out.append(line)
                if line.startswith('epoch 1/2'):
                    break
            deadline = time.monotonic() + 60
            while not os.path.exists(part):     # the rename makes it appear whole
                self.assertLess(time.monotonic(), deadline, 'no checkpoint after epoch 1')
                time.sleep(0.005)
            with open(part, 'rb') as f:
                first = f.read()
            # epoch 2 takes ten batches: the limit is in place long before its save
            limit = len(first) // 2
            resource.prlimit(p.pid, resource.RLIMIT_FSIZE, (limit, limit))
            rest, err = p.communicate(timeout=120)
            self.assertEqual(p.returncode, -signal.SIGXFSZ, ''.join(out) + rest + err)
            self.assertNotIn('test accuracy', rest)

            # the epoch-1 checkpoint is whole; the killed save left only its hidden temporary file
            with open(part, 'rb') as f:
                self.assertTrue(f.read() == first, 'the checkpoint changed')
            others = sorted(set(os.listdir(d)) - {'whole.safetensors', 'part.safetensors'})
            self.assertEqual(len(others), 1, others)
            self.assertRegex(others[0], r'^\.part\.safetensors\.[A-Za-z0-9]{6}\.partial$')
            self.assertEqual(os.path.getsize(os.path.join(d, others[0])), limit)

            # the stray file is refused as a checkpoint
            r_bad = run('--resume', os.path.join(d, others[0]))
            self.assertEqual(r_bad.returncode, 2, r_bad.stdout + r_bad.stderr)

            r2 = run('--resume', part, '--save', part, '--test-limit', '500', '--threads', '2')
            self.assertEqual(r2.returncode, 0, r2.stdout + r2.stderr)
            self.assertRegex(r2.stdout, r'resuming .* at epoch 2, batch 0')
            self.assertEqual(accuracy_lines(r2.stdout), accuracy_lines(r.stdout))
            with open(whole, 'rb') as f1, open(part, 'rb') as f2:
                self.assertTrue(f1.read() == f2.read(), 'the resumed run ended with a different checkpoint')


if __name__ == '__main__':
    GNN_TRAIN = sys.argv.pop(1)
    if not os.path.exists(os.path.join(DATA_DIR, 'train-images-idx3-ubyte.gz')):
        print('1..0 # SKIP Fashion-MNIST is not installed')
        sys.exit(77)
    unittest.main(verbosity=2)
