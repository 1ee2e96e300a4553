"""Binary ops, comparisons, where and in-place arithmetic against PyTorch."""
import numpy as np
import torch

from gnntest import Gnn, GLib, Input, ParityTest, main, rand, to_gnn, to_np

SHAPE_PAIRS = [
    ((3, 4), (3, 4)),          # same shape
    ((2, 3, 4), (4,)),         # broadcast a vector
    ((5, 1), (1, 6)),          # broadcast both
    ((0, 3), (1, 3)),          # a zero-size dimension
    ((), (2, 3)),              # a scalar tensor
]

BINARY = {
    'add': (lambda a, b: a.add(b, 1.0), lambda a, b: torch.add(a, b)),
    'add_alpha': (lambda a, b: a.add(b, 2.5), lambda a, b: torch.add(a, b, alpha=2.5)),
    'sub': (lambda a, b: a.sub(b, 1.0), lambda a, b: torch.sub(a, b)),
    'sub_alpha': (lambda a, b: a.sub(b, -0.5), lambda a, b: torch.sub(a, b, alpha=-0.5)),
    'mul': (lambda a, b: a.mul(b), torch.mul),
    'div': (lambda a, b: a.div(b), torch.div),
    'maximum': (lambda a, b: a.maximum(b), torch.maximum),
    'minimum': (lambda a, b: a.minimum(b), torch.minimum),
}


class BinaryParity(ParityTest):
    def test_binary_ops(self):
        for name, (gf, tf) in BINARY.items():
            for dt in (np.float32, np.float64):
                for k, (sa, sb) in enumerate(SHAPE_PAIRS):
                    a = rand(sa, dt, seed=k)
                    b = rand(sb, dt, seed=k + 50)
                    if name == 'div':
                        b = np.where(np.abs(b) < 0.3, 0.7, b).astype(dt)
                    with self.subTest(op=name, dtype=dt.__name__, shapes=(sa, sb)):
                        self.check_op(gf, tf, [a, b], name=name)

    def test_transposed_slice_inputs(self):
        for name, (gf, tf) in BINARY.items():
            a = Input(rand((4, 5), np.float32, seed=1), 'tslice')
            b = Input(rand((4, 5), np.float32, seed=2), 'tslice')
            with self.subTest(op=name):
                self.check_op(gf, tf, [a, b], name=name)

    def test_pow(self):
        for dt in (np.float32, np.float64):
            a = rand((3, 4), dt, seed=3, low=0.5, high=2.0)
            b = rand((4,), dt, seed=4, low=-2.0, high=2.0)
            self.check_op(lambda x, y: x.pow(y), torch.pow, [a, b], name='pow')
            for e in (2.0, 3.0, 0.5, -1.0, 1.7, 0.0):
                with self.subTest(dtype=dt.__name__, exponent=e):
                    self.check_op(lambda x: x.pow_scalar(e), lambda x: torch.pow(x, e), [a], name='pow_scalar')

    def test_hypot(self):
        for dt in (np.float32, np.float64):
            for k, (sa, sb) in enumerate(SHAPE_PAIRS):
                a = rand(sa, dt, seed=k, low=-3.0, high=3.0)
                b = rand(sb, dt, seed=k + 50, low=-3.0, high=3.0)
                with self.subTest(dtype=dt.__name__, shapes=(sa, sb)):
                    self.check_op(lambda x, y: x.hypot(y), torch.hypot, [a, b], name='hypot')
            big = np.array([3e30, 1e-30, 0.0], dtype=dt)
            self.check_op(lambda x, y: x.hypot(y), torch.hypot, [big, big[::-1].copy()], grad=False,
                          name='hypot extremes')
        i = to_gnn(np.array([3, 4], dtype=np.int64))
        with self.assertRaisesRegex(GLib.Error, 'hypot: expected floating-point tensors, got int64'):
            i.hypot(i)

    def test_scalar_ops(self):
        cases = {
            'add_scalar': (lambda a: a.add_scalar(1.5), lambda a: a + 1.5),
            'sub_scalar': (lambda a: a.sub_scalar(1.5), lambda a: a - 1.5),
            'rsub_scalar': (lambda a: a.rsub_scalar(1.5), lambda a: 1.5 - a),
            'mul_scalar': (lambda a: a.mul_scalar(-3.0), lambda a: a * -3.0),
            'div_scalar': (lambda a: a.div_scalar(4.0), lambda a: a / 4.0),
            'rdiv_scalar': (lambda a: a.rdiv_scalar(2.0), lambda a: 2.0 / a),
        }
        for name, (gf, tf) in cases.items():
            for dt in (np.float32, np.float64):
                a = rand((2, 3), dt, seed=5, low=0.5, high=2.0)
                with self.subTest(op=name, dtype=dt.__name__):
                    self.check_op(gf, tf, [a], name=name)

    def test_promotion(self):
        i = np.array([[1, 2], [3, 4]], dtype=np.int64)
        f = rand((2, 2), np.float32, seed=6)
        d = rand((2,), np.float64, seed=7)
        cases = [
            (i, i, 'add'), (i, f, 'add'), (f, d, 'mul'), (i, i, 'div'), (i, d, 'sub'),
        ]
        for a, b, op in cases:
            with self.subTest(a=a.dtype, b=b.dtype, op=op):
                got = getattr(to_gnn(a), op)(to_gnn(b), *((1.0,) if op in ('add', 'sub') else ()))
                want = getattr(torch, op)(torch.from_numpy(a), torch.from_numpy(b))
                self.assertEqual(to_np(got).dtype, want.numpy().dtype)
                self.assert_close(to_np(got), want.numpy(), 1e-6, 1e-6, op)
        # python-scalar style: an int tensor times a fraction becomes float32
        got = to_gnn(i).mul_scalar(0.5)
        self.assertEqual(got.get_dtype(), Gnn.Dtype.FLOAT32)
        got = to_gnn(i).mul_scalar(2.0)
        self.assertEqual(got.get_dtype(), Gnn.Dtype.INT64)

    def test_comparisons(self):
        a = rand((3, 4), np.float32, seed=8).round(0)
        b = rand((4,), np.float32, seed=9).round(0)
        for name in ('eq', 'ne', 'lt', 'le', 'gt', 'ge'):
            with self.subTest(op=name):
                got = getattr(to_gnn(a), name)(to_gnn(b))
                want = getattr(torch, name)(torch.from_numpy(a), torch.from_numpy(b))
                self.assertEqual(got.get_dtype(), Gnn.Dtype.BOOL)
                np.testing.assert_array_equal(to_np(got), want.numpy())
                got = getattr(to_gnn(a), name + '_scalar')(1.0)
                want = getattr(torch, name)(torch.from_numpy(a), 1.0)
                np.testing.assert_array_equal(to_np(got), want.numpy())

    def test_where(self):
        for dt in (np.float32, np.float64):
            c = rand((3, 1), np.float32, seed=10) > 0
            a = rand((3, 4), dt, seed=11)
            b = rand((4,), dt, seed=12)
            self.check_op(lambda cc, x, y: Gnn.where(cc, x, y), torch.where,
                          [Input(c, requires_grad=False), a, b], name='where')

    def test_inplace(self):
        base = rand((3, 4), np.float32, seed=13)
        other = rand((4,), np.float32, seed=14)
        third = rand((3, 4), np.float32, seed=15, low=0.5, high=1.5)
        cases = [
            ('add_', lambda g, o, t: g.add_(o, 0.5), lambda x, o, t: x.add_(o, alpha=0.5)),
            ('sub_', lambda g, o, t: g.sub_(o, 2.0), lambda x, o, t: x.sub_(o, alpha=2.0)),
            ('mul_', lambda g, o, t: g.mul_(o), lambda x, o, t: x.mul_(o)),
            ('div_', lambda g, o, t: g.div_(t), lambda x, o, t: x.div_(t)),
            ('add_scalar_', lambda g, o, t: g.add_scalar_(3.0), lambda x, o, t: x.add_(3.0)),
            ('mul_scalar_', lambda g, o, t: g.mul_scalar_(-2.0), lambda x, o, t: x.mul_(-2.0)),
            ('lerp_', lambda g, o, t: g.lerp_(t, 0.3), lambda x, o, t: x.lerp_(t, 0.3)),
            ('lerp_big', lambda g, o, t: g.lerp_(t, 0.9), lambda x, o, t: x.lerp_(t, 0.9)),
            ('addcmul_', lambda g, o, t: g.addcmul_(o, t, 0.7), lambda x, o, t: x.addcmul_(o, t, value=0.7)),
            ('addcdiv_', lambda g, o, t: g.addcdiv_(o, t, -0.7), lambda x, o, t: x.addcdiv_(o, t, value=-0.7)),
            ('copy_', lambda g, o, t: g.copy_(o), lambda x, o, t: x.copy_(o)),
            ('fill_', lambda g, o, t: g.fill_(2.5), lambda x, o, t: x.fill_(2.5)),
            ('zero_', lambda g, o, t: g.zero_(), lambda x, o, t: x.zero_()),
        ]
        for name, gf, tf in cases:
            with self.subTest(op=name):
                g = to_gnn(base)
                version = g.get_version()
                t = torch.from_numpy(base.copy())
                self.assertTrue(gf(g, to_gnn(other), to_gnn(third)) is not False)
                tf(t, torch.from_numpy(other), torch.from_numpy(third))
                self.assert_close(to_np(g), t.numpy(), 1e-6, 1e-6, name)
                self.assertEqual(g.get_version(), version + 1)

    def test_inplace_autograd(self):
        """In-place ops on non-leaves record, as PyTorch's do."""
        x = rand((2, 3), np.float32, seed=16)
        w = rand((3,), np.float32, seed=17)
        xt = torch.from_numpy(x).requires_grad_()
        wt = torch.from_numpy(w).requires_grad_()
        yt = xt * 2
        yt.add_(wt, alpha=3.0)
        yt.mul_(wt)
        yt.sum().backward()
        xg = to_gnn(x, True)
        wg = to_gnn(w, True)
        yg = xg.mul_scalar(2.0)
        yg.add_(wg, 3.0)
        yg.mul_(wg)
        self.assertEqual(yg.get_grad_fn_name(), type(yt.grad_fn).__name__)
        yg.sum_all().backward(None, False)
        self.assert_close(to_np(xg.get_grad()), xt.grad.numpy(), 1e-5, 1e-6, 'x grad')
        self.assert_close(to_np(wg.get_grad()), wt.grad.numpy(), 1e-5, 1e-6, 'w grad')

    def test_errors(self):
        a = to_gnn(rand((2, 3), np.float32))
        b = to_gnn(rand((4,), np.float32))
        with self.assertRaises(GLib.Error) as cm:
            a.add(b, 1.0)
        self.assertTrue(cm.exception.matches(Gnn.error_quark(), Gnn.Error.SHAPE))
        self.assertIn('must match the size of tensor b (4)', cm.exception.message)
        i = to_gnn(np.array([1, 2, 3], dtype=np.int64))
        with self.assertRaises(GLib.Error) as cm:
            i.add_(to_gnn(np.array([0.5, 1, 2], dtype=np.float32)), 1.0)
        self.assertTrue(cm.exception.matches(Gnn.error_quark(), Gnn.Error.DTYPE))
        with self.assertRaises(GLib.Error) as cm:
            a.add_(to_gnn(rand((4, 2, 3), np.float32)), 1.0)
        self.assertIn("doesn't match the broadcast shape", cm.exception.message)
        c = to_gnn(rand((3,), np.float32))
        with self.assertRaises(GLib.Error) as cm:
            Gnn.where(c, c, c)
        self.assertIn('bool', cm.exception.message)
        leaf = to_gnn(rand((3,), np.float32), True)
        with self.assertRaises(GLib.Error) as cm:
            leaf.mul_scalar_(2.0)
        self.assertTrue(cm.exception.matches(Gnn.error_quark(), Gnn.Error.AUTOGRAD))


if __name__ == '__main__':
    main()
