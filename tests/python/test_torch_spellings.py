"""Every spelling of PyTorch's "Learn the Basics" tutorials and of its Modules note (the
snippets of torch_spellings.py) runs with `import gnn as torch` as with torch 1.13, or fails
the way its entry says (so that a fix shows up here); doc/pytorch-names.md, which lists them
and the table of torch names, is the page tools/gen-pytorch-names.py writes."""
import os
import subprocess
import sys
import unittest

import numpy as np

from gnntest import GLib, main  # (requires Gnn 1.0, loads torch)
from gi.repository import Gnn
import torch

import gnn
import torch_spellings

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def run(code, module):
    """Runs a snippet with torch bound to module (gnn or torch); returns its result."""
    if module is gnn:
        code = code.replace('gnn_or_torchvision', 'gnn.vision').replace('gnn_or_torch', 'gnn')
        scope = {'torch': gnn, 'nn': gnn.nn, 'F': gnn.nn.functional, 'np': np}
    else:
        code = code.replace('gnn_or_torchvision', 'torchvision').replace('gnn_or_torch', 'torch')
        scope = {'torch': torch, 'nn': torch.nn, 'F': torch.nn.functional, 'np': np}
    exec(code, scope)
    return scope['result']


class Spellings(unittest.TestCase):
    def assert_same(self, got, want, what):
        if isinstance(want, torch.Tensor):
            self.assertIsInstance(got, Gnn.Tensor, what)
            self.assertEqual(repr(got.dtype), repr(want.dtype), what)
            self.assertEqual(tuple(got.shape), tuple(want.shape), what)
            np.testing.assert_allclose(np.asarray(got.numpy(), dtype=float),
                                       np.asarray(want.detach().numpy(), dtype=float),
                                       rtol=1e-5, atol=1e-6, err_msg=what)
        elif isinstance(want, (list, tuple)) and type(want).__name__ != 'Size':
            self.assertEqual(len(got), len(want), what)
            for k, (g, w) in enumerate(zip(got, want)):
                self.assert_same(g, w, '%s[%d]' % (what, k))
        elif isinstance(want, (torch.Size, torch.dtype)):
            self.assertEqual(repr(got), repr(want), what)
        elif isinstance(want, type):
            self.assertEqual(got.__name__, want.__name__, what)
        elif isinstance(want, float):
            self.assertIsInstance(got, float, what)
        else:
            self.assertEqual(type(got), type(want), what)
            self.assertEqual(got, want, what)

    def test_snippets(self):
        # random values differ between the libraries: the snippets compare what does not
        # depend on them, or use deterministic data
        for k, (tutorial, code, expected) in enumerate(torch_spellings.SNIPPETS):
            with self.subTest(tutorial=tutorial, snippet=k, code=code):
                if expected is torch_spellings.RUNS:
                    torch.manual_seed(0)
                    want = run(code, torch)
                    gnn.manual_seed(0)
                    self.assert_same(run(code, gnn), want, code)
                else:
                    run(code, torch)   # the snippet is right: torch runs it
                    with self.assertRaises(Exception) as cm:
                        run(code, gnn)
                    name = 'GLib.Error' if type(cm.exception) is GLib.Error else type(cm.exception).__name__
                    self.assertEqual(name, expected.exception,
                                     'snippet %d fails otherwise than its entry says: %r' % (k, cm.exception))
                    self.assertIn(expected.text, str(cm.exception))

    def test_page_is_current(self):
        # tools/gen-pytorch-names.py --check exits 1 when doc/pytorch-names.md is stale
        generator = os.path.join(ROOT, 'tools', 'gen-pytorch-names.py')
        done = subprocess.run([sys.executable, generator, '--check'], capture_output=True, text=True)
        self.assertEqual(done.returncode, 0, done.stdout + done.stderr)


if __name__ == '__main__':
    main()
