"""torch.nn.functional's dropout, norms and embedding beside torch 1.13 where the op-spec rows
(op_specs/nn.py) cannot reach: dropout's random masks (drawn as the layers draw them) and the
running statistics that batch_norm and instance_norm update in place."""
import unittest

import numpy as np
import torch
import torch.nn.functional as TF

from gnntest import TOL, main, rand, to_np
import gnn
import gnn.nn as nn
import gnn.nn.functional as F


class Dropout(unittest.TestCase):
    def test_layer_draws_what_the_function_draws(self):
        x = gnn.tensor(rand((6, 50)))
        for layer, fn in ((nn.Dropout(0.3), F.dropout), (nn.Dropout2d(0.3), F.dropout2d)):
            gnn.manual_seed(7)
            a = to_np(layer(x))
            gnn.manual_seed(7)
            b = to_np(fn(x, 0.3))
            np.testing.assert_array_equal(a, b)

    def test_elements(self):
        gnn.manual_seed(1)
        x = gnn.ones(4000, requires_grad=True)
        y = F.dropout(x, 0.25)
        out = to_np(y)
        kept = out != 0
        self.assertAlmostEqual(kept.mean(), 0.75, delta=0.03)
        np.testing.assert_allclose(out[kept], 1 / 0.75, rtol=1e-6)
        y.sum().backward()
        np.testing.assert_array_equal(to_np(x.grad), out)
        self.assertIs(F.dropout(x, 0.25, training=False), x)

    def test_channels(self):
        gnn.manual_seed(2)
        out = to_np(F.dropout2d(gnn.ones(30, 40, 2, 3), 0.5))
        per_channel = out.reshape(30, 40, -1)
        self.assertTrue(np.all(per_channel.min(-1) == per_channel.max(-1)))
        self.assertAlmostEqual((per_channel[..., 0] == 0).mean(), 0.5, delta=0.05)

    def test_errors(self):
        with self.assertRaisesRegex(ValueError, 'dropout probability has to be between 0 and 1, but got -0.5'):
            F.dropout(gnn.ones(3), -0.5)
        with self.assertRaisesRegex(RuntimeError, 'dropout2d: expected an input of shape'):
            F.dropout2d(gnn.ones(3), 0.5)


class RunningStats(unittest.TestCase):
    def check(self, gnn_fn, torch_fn, shape, dtype):
        x = rand(shape, dtype, seed=3)
        c = shape[1]
        w, b = rand((c,), dtype, seed=4), rand((c,), dtype, seed=5)
        rm, rv = rand((c,), dtype, seed=6), rand((c,), dtype, seed=7, low=0.5, high=2.0)
        g_stats = [gnn.tensor(rm.copy()), gnn.tensor(rv.copy())]
        t_stats = [torch.from_numpy(rm.copy()), torch.from_numpy(rv.copy())]
        for _ in range(2):
            got = gnn_fn(gnn.tensor(x), *g_stats, gnn.tensor(w), gnn.tensor(b))
            want = torch_fn(torch.from_numpy(x), *t_stats, torch.from_numpy(w), torch.from_numpy(b))
            rtol, atol = TOL[np.dtype(dtype).type]
            np.testing.assert_allclose(to_np(got), want.numpy(), rtol=rtol, atol=atol)
            for g, t in zip(g_stats, t_stats):
                np.testing.assert_allclose(to_np(g), t.numpy(), rtol=rtol, atol=atol)

    def test_batch_norm(self):
        for dtype in (np.float32, np.float64):
            for training in (True, False):
                self.check(lambda x, rm, rv, w, b: F.batch_norm(x, rm, rv, w, b, training, 0.3),
                           lambda x, rm, rv, w, b: TF.batch_norm(x, rm, rv, w, b, training, 0.3),
                           (5, 3, 4), dtype)

    def test_instance_norm(self):
        for dtype in (np.float32, np.float64):
            for use in (True, False):
                self.check(lambda x, rm, rv, w, b: F.instance_norm(x, rm, rv, w, b, use, 0.2),
                           lambda x, rm, rv, w, b: TF.instance_norm(x, rm, rv, w, b, use, 0.2),
                           (3, 2, 5), dtype)

    def test_eval_needs_running_stats(self):
        with self.assertRaisesRegex(ValueError, 'batch_norm: running_mean and running_var must be defined'):
            F.batch_norm(gnn.ones(2, 3), None, None, training=False)


if __name__ == '__main__':
    main()
