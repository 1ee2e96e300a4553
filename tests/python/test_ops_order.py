"""kthvalue, median, nanmedian, mode, cummax, cummin and aminmax against PyTorch: values,
indices (where torch's tie rule is fixed), and gradients, in float32 and float64."""
import unittest

import numpy as np
import torch

from gnntest import GLib, Gnn, main, to_gnn, to_np
from gi.repository import Gnn as G

DTYPES = (np.float32, np.float64)


def data(dt, ties=False, nan=False):
    rng = np.random.default_rng(3)
    a = rng.integers(0, 4, (3, 6)).astype(dt) if ties else rng.standard_normal((3, 6)).astype(dt)
    if nan:
        a[1, 2] = np.nan
        a[2, 0] = np.nan
        a[2, 4] = np.nan
    return a


class OrderParity(unittest.TestCase):
    def grads(self, gfn, tfn, a):
        g = to_gnn(a, requires_grad=True)
        t = torch.tensor(a, requires_grad=True)
        go, to_ = gfn(g), tfn(t)
        np.testing.assert_allclose(to_np(go), to_.detach().numpy(), rtol=1e-5, atol=1e-6)
        w = np.arange(1, to_.numel() + 1, dtype=a.dtype).reshape(to_.shape)
        G.Tensor.backward(G.Tensor.sum_all(G.Tensor.mul(go, to_gnn(w))))
        (to_ * torch.tensor(w)).sum().backward()
        np.testing.assert_allclose(to_np(g.grad), t.grad.numpy(), rtol=1e-5, atol=1e-6)

    def test_selection(self):
        for dt in DTYPES:
            for nan in (False, True):
                a = data(dt, nan=nan)
                for dim in (0, 1, -1):
                    for keepdim in (False, True):
                        with self.subTest(dt=dt.__name__, nan=nan, dim=dim, keepdim=keepdim):
                            # torch's mode sorts with '<', which NaN leaves unordered: its
                            # result on rows with NaN is not defined, so mode is compared
                            # without NaN only
                            for name in ('median', 'nanmedian') + (() if nan else ('mode',)):
                                gv, gi = getattr(G.Tensor, name)(to_gnn(a), dim, keepdim)
                                tv, ti = getattr(torch, name)(torch.tensor(a), dim, keepdim)
                                np.testing.assert_array_equal(to_np(gv), tv.numpy())
                                np.testing.assert_array_equal(to_np(gi), ti.numpy())
                                self.grads(lambda x: getattr(G.Tensor, name)(x, dim, keepdim)[0],
                                           lambda x: getattr(torch, name)(x, dim, keepdim)[0], a)
                            k = 2
                            gv, gi = G.Tensor.kthvalue(to_gnn(a), k, dim, keepdim)
                            tv, ti = torch.kthvalue(torch.tensor(a), k, dim, keepdim)
                            np.testing.assert_array_equal(to_np(gv), tv.numpy())
                            np.testing.assert_array_equal(to_np(gi), ti.numpy())
                            self.grads(lambda x: G.Tensor.kthvalue(x, k, dim, keepdim)[0],
                                       lambda x: torch.kthvalue(x, k, dim, keepdim)[0], a)

    def test_ties(self):
        # with ties torch's kthvalue / median positions are unspecified: the values must agree
        # and the position must hold the value; mode's rule (smallest, last position) is fixed
        for dt in DTYPES:
            a = data(dt, ties=True)
            for name, args in (('kthvalue', (3, 1)), ('median', (1,)), ('nanmedian', (1,)), ('mode', (1,))):
                gv, gi = getattr(G.Tensor, name)(to_gnn(a), *args, False)
                tv, ti = getattr(torch, name)(torch.tensor(a), *args)
                np.testing.assert_array_equal(to_np(gv), tv.numpy())
                np.testing.assert_array_equal(np.take_along_axis(a, to_np(gi)[:, None], 1)[:, 0], tv.numpy())
                if name == 'mode':
                    np.testing.assert_array_equal(to_np(gi), ti.numpy())

    def test_whole(self):
        for dt in DTYPES:
            for a in (data(dt), data(dt, ties=True), data(dt, nan=True), np.zeros(0, dt)):
                for name in ('median', 'nanmedian'):
                    with self.subTest(dt=dt.__name__, name=name, n=a.size):
                        gfn = getattr(G.Tensor, name + '_all')
                        tv = getattr(torch, name)(torch.tensor(a))
                        np.testing.assert_array_equal(to_np(gfn(to_gnn(a))), tv.numpy())
                        if a.size:
                            self.grads(gfn, getattr(torch, name), a)

    def test_cumulative(self):
        for dt in DTYPES:
            for a in (data(dt), data(dt, ties=True), data(dt, nan=True)):
                for dim in (0, 1):
                    for name in ('cummax', 'cummin'):
                        with self.subTest(dt=dt.__name__, name=name, dim=dim):
                            gv, gi = getattr(G.Tensor, name)(to_gnn(a), dim)
                            tv, ti = getattr(torch, name)(torch.tensor(a), dim)
                            np.testing.assert_array_equal(to_np(gv), tv.numpy())
                            np.testing.assert_array_equal(to_np(gi), ti.numpy())
                            self.grads(lambda x: getattr(G.Tensor, name)(x, dim)[0],
                                       lambda x: getattr(torch, name)(x, dim)[0], a)

    def test_aminmax(self):
        # torch 1.13 has no aminmax gradient: values only against torch
        for dt in DTYPES:
            a = data(dt, ties=True)
            for dim, keepdim in ((None, False), (0, False), (1, True)):
                import gnn
                lo, hi = gnn.aminmax(to_gnn(a), dim=dim, keepdim=keepdim)
                r = torch.aminmax(torch.tensor(a), dim=dim, keepdim=keepdim)
                np.testing.assert_array_equal(to_np(lo), r.min.numpy())
                np.testing.assert_array_equal(to_np(hi), r.max.numpy())

    def test_torch_spelling(self):
        import gnn
        x = gnn.tensor([[3., 1., 3., 1., 2.], [2., 2., 5., 5., 1.]])
        r = gnn.kthvalue(x, 2, 1)
        self.assertEqual(r.values.tolist(), [1., 2.])
        self.assertEqual(x.median(dim=1).indices.tolist(), [4, 1])
        self.assertEqual(x.median().item(), 2.)
        self.assertEqual(x.mode(1).indices.tolist(), [3, 1])
        self.assertEqual(gnn.cummax(x, 1).indices.tolist(), [[0, 0, 2, 2, 2], [0, 1, 2, 3, 3]])
        self.assertEqual(x.aminmax().max.item(), 5.)
        self.assertEqual(type(r).__name__, 'kthvalue')

    def test_errors(self):
        x = to_gnn(np.zeros((2, 3), np.float32))
        for call, fragment in ((lambda: G.Tensor.kthvalue(x, 4, 1, False), 'k out of range'),
                               (lambda: G.Tensor.kthvalue(x, 0, 1, False), 'k out of range'),
                               (lambda: G.Tensor.median(to_gnn(np.zeros((2, 0), np.float32)), 1, False), 'non-zero'),
                               (lambda: G.Tensor.mode(x, 2, False), 'out of range'),
                               (lambda: __import__('gnn').aminmax(to_gnn(np.zeros(0, np.float32))), 'empty')):
            with self.assertRaises(GLib.Error) as cm:
                call()
            self.assertIn(fragment, getattr(cm.exception, 'message', str(cm.exception)))


if __name__ == '__main__':
    main()
