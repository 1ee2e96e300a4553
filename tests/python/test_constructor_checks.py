"""Values torch 1.13 refuses, refused here too (a GError, raised by the Python constructors),
and values it accepts, accepted with its result: binary_cross_entropy outside [0, 1],
BatchNorm with mixed dtypes, Embedding's padding_idx and num_embeddings, DataLoader's
batch_size, Conv2d's sizes, TensorDataset without tensors, avg_pool2d's divisor_override,
adaptive pooling to (0, 0), permute's message. torch is the oracle for each case."""
import subprocess
import sys
import textwrap
import unittest

import numpy as np
import torch
import torch.nn.functional as TF

import gnntest  # noqa: F401 (requires Gnn 1.0)
from gnntest import main, to_np
from gi.repository import Gnn, GLib, GObject
import gnn
import gnn.nn.functional as F


def message(e):
    return getattr(e, 'message', str(e))


class Refused(unittest.TestCase):
    def both_raise(self, gnn_call, torch_call, torch_class=RuntimeError, want=None):
        """Runs both; returns gnn's message. torch must raise @torch_class; gnn a GLib.Error
        whose message holds @want (torch's first line when None)."""
        with self.assertRaises(torch_class) as tc:
            torch_call()
        with self.assertRaises(GLib.Error) as gc:
            gnn_call()
        got = message(gc.exception)
        self.assertIn(want if want is not None else str(tc.exception).splitlines()[0], got)
        return got

    def test_binary_cross_entropy_range(self):
        target = [1.0, 0.0]
        for bad in ([1.5, 0.5], [-0.5, 0.5], [float('nan'), 0.5]):
            for dt in (np.float32, np.float64):
                x = np.array(bad, dt)
                t = np.array(target, dt)
                self.both_raise(lambda: F.binary_cross_entropy(gnn.from_numpy(x), gnn.from_numpy(t)),
                                lambda: TF.binary_cross_entropy(torch.from_numpy(x), torch.from_numpy(t)))
                self.both_raise(lambda: gnn.nn.BCELoss()(gnn.from_numpy(x), gnn.from_numpy(t)),
                                lambda: torch.nn.BCELoss()(torch.from_numpy(x), torch.from_numpy(t)))
        # the ends of [0, 1] stay valid, with torch's value
        x = np.array([1.0, 0.0, 0.25], np.float32)
        t = np.array([1.0, 0.0, 1.0], np.float32)
        got = F.binary_cross_entropy(gnn.from_numpy(x), gnn.from_numpy(t))
        want = TF.binary_cross_entropy(torch.from_numpy(x), torch.from_numpy(t))
        np.testing.assert_allclose(to_np(got), want.numpy(), rtol=1e-5, atol=1e-6)

    def test_batch_norm_mixed_dtype(self):
        x = np.random.default_rng(0).standard_normal((4, 3))
        for training in (True, False):
            g = gnn.nn.BatchNorm1d(3)
            t = torch.nn.BatchNorm1d(3)
            g.train(training)
            t.train(training)
            got = self.both_raise(lambda: g(gnn.from_numpy(x)), lambda: t(torch.from_numpy(x)),
                                  want='mixed dtype')
            self.assertIn('float64', got)
            self.assertIn('float32', got)
        w = np.ones(3, np.float32)
        b = np.zeros(3, np.float32)
        self.both_raise(lambda: F.batch_norm(gnn.from_numpy(x), None, None, gnn.from_numpy(w), gnn.from_numpy(b), True),
                        lambda: TF.batch_norm(torch.from_numpy(x), None, None, torch.from_numpy(w),
                                              torch.from_numpy(b), True),
                        want='mixed dtype')
        # one dtype throughout still works
        g = gnn.nn.BatchNorm1d(3, dtype=gnn.float64)
        self.assertEqual(tuple(g(gnn.from_numpy(x)).shape), (4, 3))

    def test_embedding_padding_idx(self):
        for p in (10, -11):
            self.both_raise(lambda: gnn.nn.Embedding(10, 4, padding_idx=p),
                            lambda: torch.nn.Embedding(10, 4, padding_idx=p), AssertionError,
                            want='padding_idx %d must be within num_embeddings (10)' % p)
        self.assertEqual(repr(gnn.nn.Embedding(10, 4, padding_idx=-10)),
                         repr(torch.nn.Embedding(10, 4, padding_idx=-10)))

    def test_data_loader_batch_size(self):
        ds = gnn.utils.data.TensorDataset(gnn.zeros(3))
        tds = torch.utils.data.TensorDataset(torch.zeros(3))
        for bad in (0, -1):
            with self.assertRaises(ValueError) as tc:
                torch.utils.data.DataLoader(tds, batch_size=bad)
            with self.assertRaises(ValueError) as gc:
                gnn.utils.data.DataLoader(ds, batch_size=bad)
            self.assertIsInstance(gc.exception, GLib.Error)
            self.assertEqual(message(gc.exception), str(tc.exception))
        # the C constructor, and a loader made by properties at its first pass and batch
        want = 'batch_size should be a positive integer value, but got batch_size=0'
        with self.assertRaises(GLib.Error) as gc:
            Gnn.DataLoader.new(ds, 0, False, 0, False)
        self.assertEqual(message(gc.exception), want)
        loader = GObject.new(Gnn.DataLoader, dataset=ds, batch_size=0)   # g_object_new, no check
        with self.assertRaises(GLib.Error) as gc:
            list(loader)
        self.assertIn(want, message(gc.exception))
        with self.assertRaises(GLib.Error) as gc:
            loader.get_batch(0)
        self.assertEqual(message(gc.exception), want)

    def test_conv2d_sizes(self):
        for args in ((3, -1, 3), (-1, 3, 3)):
            got = self.both_raise(lambda: gnn.nn.Conv2d(*args), lambda: torch.nn.Conv2d(*args),
                                  want='Trying to create tensor with negative dimension')
            self.assertIn('=-1', got)
        self.both_raise(lambda: gnn.nn.Conv2d(3, 4, 3, groups=2), lambda: torch.nn.Conv2d(3, 4, 3, groups=2),
                        ValueError, want='groups (2) must be positive and divide in_channels (3)')
        # stricter than torch (documented at GnnConv2d): kernel (0, 0) is refused when made,
        # where torch refuses it at the first forward
        with self.assertRaises(RuntimeError) as tc:
            torch.nn.Conv2d(3, 4, (0, 0))(torch.zeros(1, 3, 5, 5))
        self.assertIn('kernel size should be greater than zero', str(tc.exception))
        with self.assertRaises(GLib.Error) as gc:
            gnn.nn.Conv2d(3, 4, (0, 0))
        self.assertIn('kernel_size must lie in [1, 2^31), got 0', message(gc.exception))
        # out_channels=0 is a size torch accepts at construction
        self.assertEqual(repr(gnn.nn.Conv2d(3, 0, 3)), repr(torch.nn.Conv2d(3, 0, 3)))

    def test_permute_message(self):
        got = self.both_raise(lambda: gnn.randn(2, 3).permute(0), lambda: torch.randn(2, 3).permute(0),
                              want='input.dim() = 2 is not equal to len(dims) = 1')
        self.assertNotIn('sparse', got)


class Accepted(unittest.TestCase):
    def test_tensor_dataset_without_tensors(self):
        torch.utils.data.TensorDataset()
        self.assertEqual(len(gnn.utils.data.TensorDataset()), 0)
        # the C constructor gave a critical (fatal here) and NULL
        code = textwrap.dedent('''
            import gi
            gi.require_version('Gnn', '1.0')
            from gi.repository import Gnn
            d = Gnn.TensorDataset.new([])
            print(type(d).__name__, d.get_length(), d.get_n_tensors())
        ''')
        import os
        env = dict(os.environ, G_DEBUG='fatal-warnings,fatal-criticals')
        run = subprocess.run([sys.executable, '-c', code], capture_output=True, text=True, env=env, timeout=120)
        self.assertEqual(run.returncode, 0, run.stderr[-2000:])
        self.assertEqual(run.stdout.split(), ['TensorDataset', '0', '0'])

    def test_embedding_without_rows(self):
        g = gnn.nn.Embedding(0, 4)
        t = torch.nn.Embedding(0, 4)
        self.assertEqual(repr(g), repr(t))
        out = g(gnn.tensor([], dtype=gnn.int64))
        self.assertEqual(tuple(out.shape), tuple(t(torch.tensor([], dtype=torch.long)).shape))
        # an index into no rows is out of range, with nothing about padding_idx
        with self.assertRaises(GLib.Error) as gc:
            g(gnn.tensor([0]))
        self.assertIn('out of bounds', message(gc.exception))
        self.assertNotIn('padding', message(gc.exception))

    def test_avg_pool2d_negative_divisor(self):
        x = np.arange(32, dtype=np.float64).reshape(1, 2, 4, 4)
        for d in (-1, -2, 3):
            for dt in (np.float32, np.float64):
                gx = gnn.from_numpy(x.astype(dt))
                gx.requires_grad_(True)
                tx = torch.from_numpy(x.astype(dt)).requires_grad_(True)
                got = F.avg_pool2d(gx, 2, divisor_override=d)
                want = TF.avg_pool2d(tx, 2, divisor_override=d)
                np.testing.assert_allclose(to_np(got), want.detach().numpy(), rtol=1e-5, atol=1e-6)
                got.sum().backward()
                want.sum().backward()
                np.testing.assert_allclose(to_np(gx.grad), tx.grad.numpy(), rtol=1e-5, atol=1e-6)
            layer = gnn.nn.AvgPool2d(2, divisor_override=d)
            np.testing.assert_allclose(to_np(layer(gnn.from_numpy(x))),
                                       torch.nn.AvgPool2d(2, divisor_override=d)(torch.from_numpy(x)).numpy(),
                                       rtol=1e-10, atol=1e-12)
        with self.assertRaises(RuntimeError) as tc:
            TF.avg_pool2d(torch.from_numpy(x), 2, divisor_override=0)
        with self.assertRaises(ValueError) as gc:
            F.avg_pool2d(gnn.from_numpy(x), 2, divisor_override=0)
        self.assertIn(str(tc.exception), message(gc.exception))

    def test_adaptive_avg_pool_to_nothing(self):
        x = np.random.default_rng(1).standard_normal((2, 3, 4, 4))
        for size in ((0, 0), (0, 2), (2, 0)):
            gx = gnn.from_numpy(x)
            gx.requires_grad_(True)
            tx = torch.from_numpy(x).requires_grad_(True)
            got = F.adaptive_avg_pool2d(gx, size)
            want = TF.adaptive_avg_pool2d(tx, size)
            self.assertEqual(tuple(got.shape), tuple(want.shape))
            self.assertEqual(tuple(gnn.nn.AdaptiveAvgPool2d(size)(gx).shape), tuple(want.shape))
            # torch's backward refuses an empty output plane; an empty batch passes zeros
            with self.assertRaises(RuntimeError) as tc:
                want.sum().backward()
            with self.assertRaises(GLib.Error) as gc:
                got.sum().backward()
            self.assertIn('Expected grad_output to have non-zero size for non-batch dimensions', str(tc.exception))
            self.assertIn('Expected grad_output to have non-zero size for non-batch dimensions', message(gc.exception))
        gx = gnn.from_numpy(np.zeros((0, 3, 4, 4)))
        gx.requires_grad_(True)
        tx = torch.zeros((0, 3, 4, 4), dtype=torch.float64, requires_grad=True)
        F.adaptive_avg_pool2d(gx, 2).sum().backward()
        TF.adaptive_avg_pool2d(tx, 2).sum().backward()
        self.assertEqual(tuple(gx.grad.shape), tuple(tx.grad.shape))


if __name__ == '__main__':
    main()
