#!/usr/bin/python3
"""The activation layers of torch.nn that sit on gnn's activation ops (Softplus, Hardtanh,
ReLU6, Hardsigmoid, Hardswish, Mish, SELU, CELU, LogSigmoid, Tanhshrink, Softmax2d, Threshold,
Hardshrink, Softshrink, Softmin, GLU, PReLU, RReLU) against torch 1.13: outputs, gradients,
torch's constructor arguments and printed forms, the F.* functions' torch spellings, and the
in-place F.relu_ and its kin (torch's rules: a leaf that requires grad refuses, the version
counter moves on)."""

import warnings

from gnntest import Gnn, GLib, np, torch, to_gnn, rand, ParityTest, main

import gnn.nn.functional as F

DTYPES = (np.float32, np.float64)

# torch 1.13's float64 kernels take hardsigmoid's gradient 1/6 and celu's 1/alpha in float32,
# 3e-8 and 6e-8 relative from gnn's double values
FLOAT32_CONSTANT = 1e-7

# (the gnn layer, the torch layer, the input shape, the input range)
CASES = [
    (lambda: Gnn.Softplus(), lambda: torch.nn.Softplus(), (3, 4), 4.0),
    # torch prints the numbers as they were given; gnn prints whole ones as ints (torch's int defaults)
    (lambda: Gnn.Softplus(2, 3), lambda: torch.nn.Softplus(2, 3), (3, 4), 4.0),
    (lambda: Gnn.Softplus(beta=0.5), lambda: torch.nn.Softplus(beta=0.5), (2, 5), 4.0),
    (lambda: Gnn.Hardtanh(), lambda: torch.nn.Hardtanh(), (3, 4), 2.0),
    (lambda: Gnn.Hardtanh(-0.5, max_val=1.5), lambda: torch.nn.Hardtanh(-0.5, max_val=1.5), (3, 4), 2.0),
    (lambda: Gnn.ReLU6(), lambda: torch.nn.ReLU6(), (3, 4), 8.0),
    (lambda: Gnn.Hardsigmoid(), lambda: torch.nn.Hardsigmoid(), (3, 4), 4.0),
    (lambda: Gnn.Hardswish(), lambda: torch.nn.Hardswish(), (3, 4), 4.0),
    (lambda: Gnn.Mish(), lambda: torch.nn.Mish(), (3, 4), 3.0),
    (lambda: Gnn.SELU(), lambda: torch.nn.SELU(), (3, 4), 3.0),
    (lambda: Gnn.CELU(), lambda: torch.nn.CELU(), (3, 4), 3.0),
    (lambda: Gnn.CELU(alpha=0.5), lambda: torch.nn.CELU(alpha=0.5), (3, 4), 3.0),
    (lambda: Gnn.LogSigmoid(), lambda: torch.nn.LogSigmoid(), (3, 4), 4.0),
    (lambda: Gnn.Tanhshrink(), lambda: torch.nn.Tanhshrink(), (3, 4), 3.0),
    (lambda: Gnn.Softmax2d(), lambda: torch.nn.Softmax2d(), (2, 3, 2, 2), 2.0),
    (lambda: Gnn.Softmax2d(), lambda: torch.nn.Softmax2d(), (3, 2, 4), 2.0),
    (lambda: Gnn.Threshold(0.1, 20.0), lambda: torch.nn.Threshold(0.1, 20.0), (3, 4), 2.0),
    (lambda: Gnn.Hardshrink(), lambda: torch.nn.Hardshrink(), (3, 4), 2.0),
    (lambda: Gnn.Hardshrink(lambd=1.0), lambda: torch.nn.Hardshrink(lambd=1.0), (3, 4), 2.0),
    (lambda: Gnn.Softshrink(), lambda: torch.nn.Softshrink(), (3, 4), 2.0),
    (lambda: Gnn.Softshrink(0.25), lambda: torch.nn.Softshrink(0.25), (3, 4), 2.0),
    (lambda: Gnn.Softmin(dim=1), lambda: torch.nn.Softmin(dim=1), (3, 4), 2.0),
    (lambda: Gnn.Softmin(0), lambda: torch.nn.Softmin(0), (3, 4), 2.0),
    (lambda: Gnn.Softmin(), lambda: torch.nn.Softmin(), (3, 4, 2), 2.0),
    (lambda: Gnn.GLU(), lambda: torch.nn.GLU(), (3, 4), 2.0),
    (lambda: Gnn.GLU(dim=0), lambda: torch.nn.GLU(dim=0), (4, 3), 2.0),
]


def repr_of(m):
    return m.to_string()


class Layers(ParityTest):
    def test_parity(self):
        for dtype in DTYPES:
            for k, (g, t, shape, r) in enumerate(CASES):
                gm, tm = g(), t()
                self.assertEqual(repr_of(gm), repr(tm))
                rtol = FLOAT32_CONSTANT if dtype == np.float64 and isinstance(tm, torch.nn.Hardsigmoid) else None
                with warnings.catch_warnings():
                    warnings.simplefilter('ignore')
                    self.check_op(lambda x: gm(x), lambda x: tm(x), [rand(shape, dtype, seed=k, low=-r, high=r)],
                                  rtol=rtol, name=repr(tm))

    def test_defaults_and_properties(self):
        self.assertEqual(repr_of(Gnn.Softplus()), 'Softplus(beta=1, threshold=20)')
        self.assertEqual(repr_of(Gnn.Hardtanh()), 'Hardtanh(min_val=-1.0, max_val=1.0)')
        self.assertEqual(repr_of(Gnn.Hardshrink()), 'Hardshrink(0.5)')
        h = Gnn.Hardtanh()
        h.props.max_val = 6.0
        h.props.min_val = 0.0
        self.assertEqual(repr_of(h), repr(torch.nn.Hardtanh(0.0, 6.0)))
        x = rand((4, 5), np.float32, low=-8, high=8)
        self.check_op(lambda a: h(a), lambda a: torch.nn.ReLU6()(a), [x], name='Hardtanh(0, 6)')
        by_name = Gnn.Module.new_from_type_name('GnnMish', [], [])
        self.assertEqual(repr_of(by_name), 'Mish()')
        with self.assertRaises(TypeError):
            Gnn.Threshold(0.5)   # threshold and value are required, as in torch

    def test_errors(self):
        with self.assertRaises(GLib.Error) as cm:
            Gnn.Softmax2d()(to_gnn(rand((3, 4))))
        self.assertIn('3D or 4D', str(cm.exception))
        with self.assertRaises(GLib.Error) as cm:
            Gnn.Softshrink(-1.0)(to_gnn(rand((3,))))
        self.assertIn('lambda must be greater or equal to 0', str(cm.exception))
        with self.assertRaises(GLib.Error) as cm:
            Gnn.CELU(0.0)(to_gnn(rand((3,))))
        self.assertIn('alpha cannot be 0', str(cm.exception))
        with self.assertRaises(GLib.Error) as cm:
            Gnn.Mish()(to_gnn(np.array([1, 2])))
        self.assertIn('int64', str(cm.exception))

    def test_functional_spellings(self):
        x = rand((3, 4), np.float64, seed=7, low=-3, high=3)
        for name, args in (('softplus', (2.0, 3.0)), ('hardtanh', (-0.5, 0.5)), ('relu6', ()), ('hardsigmoid', ()),
                           ('hardswish', ()), ('mish', ()), ('selu', ()), ('celu', (0.7,)), ('logsigmoid', ()),
                           ('tanhshrink', ()), ('threshold', (0.2, -1.0)), ('hardshrink', (0.3,)),
                           ('softshrink', (0.3,)), ('softsign', ())):
            g, t = getattr(F, name), getattr(torch.nn.functional, name)
            rtol = FLOAT32_CONSTANT if name in ('hardsigmoid', 'celu') else None
            self.check_op(lambda a: g(a, *args), lambda a: t(a, *args), [x], rtol=rtol, name=name)
            gy = g(to_gnn(x, requires_grad=True), *args)
            ty = t(torch.from_numpy(x).requires_grad_(), *args)
            self.assertEqual(gy.get_grad_fn_name(), type(ty.grad_fn).__name__, name)


    def test_glu_errors(self):
        with self.assertRaises(GLib.Error) as cm:
            Gnn.GLU()(to_gnn(rand((2, 3))))
        self.assertIn('Halving dimension must be even', str(cm.exception))
        with self.assertRaises(GLib.Error) as cm:
            Gnn.GLU(dim=5)(to_gnn(rand((2, 4))))
        self.assertIn('Dimension out of range', str(cm.exception))

    def test_integer_inputs_refused(self):
        # torch has no integer kernel for any of the three: "glu" not implemented for 'Long'
        x = np.arange(12, dtype=np.int64).reshape(3, 4)
        for name, call in (('glu', lambda a: F.glu(a)),
                           ('prelu', lambda a: F.prelu(a, to_gnn(np.array([0.25], dtype=np.int64)))),
                           ('rrelu', lambda a: F.rrelu(a))):
            with self.assertRaises(RuntimeError):
                call_torch = {'glu': lambda t: torch.nn.functional.glu(t),
                              'prelu': lambda t: torch.nn.functional.prelu(t, torch.tensor([1])),
                              'rrelu': lambda t: torch.nn.functional.rrelu(t)}[name]
                call_torch(torch.from_numpy(x))
            with self.assertRaises(GLib.Error) as cm:
                call(to_gnn(x))
            message = getattr(cm.exception, 'message', str(cm.exception))
            self.assertIn(name + ': not implemented for int64 tensors', message)


class PReLU(ParityTest):
    def test_parity(self):
        for dtype in DTYPES:
            for k, (args, shape) in enumerate((((), (3, 4)), ((3,), (2, 3, 4)), ((2, 0.1), (4, 2)), ((), (5,)))):
                gm, tm = Gnn.PReLU(*args), torch.nn.PReLU(*args)
                if dtype == np.float64:
                    gm.to_dtype(Gnn.Dtype.FLOAT64)
                    tm.double()
                self.assertEqual(repr_of(gm), repr(tm))
                self.assertEqual([n for n, _ in gm.named_parameters()], [n for n, _ in tm.named_parameters()])
                self.assertEqual(list(gm.state_dict().keys()), list(tm.state_dict().keys()))
                x = rand(shape, dtype, seed=k)
                gx, tx = to_gnn(x, requires_grad=True), torch.from_numpy(x.copy()).requires_grad_()
                gy, ty = gm(gx), tm(tx)
                self.assert_close(np.array(gy.detach().numpy()), ty.detach().numpy(), 1e-6, 1e-7, repr(tm))
                w = rand(shape, dtype, seed=k + 10)
                (gy * to_gnn(w)).sum().backward()
                (ty * torch.from_numpy(w)).sum().backward()
                self.assert_close(np.array(gx.grad.numpy()), tx.grad.numpy(), 1e-6, 1e-7, repr(tm) + ' input grad')
                self.assert_close(np.array(gm.weight.grad.numpy()), tm.weight.grad.numpy(), 1e-5, 1e-6,
                                  repr(tm) + ' weight grad')

    def test_functional_and_errors(self):
        x = rand((2, 3, 2), np.float64, seed=5)
        w = np.array([0.1, -0.3, 0.7])
        self.check_op(lambda a, b: F.prelu(a, b), lambda a, b: torch.nn.functional.prelu(a, b), [x, w], name='prelu')
        with self.assertRaises(GLib.Error) as cm:
            Gnn.PReLU(2)(to_gnn(rand((2, 3))))
        self.assertIn('Found parameter numbers = 2 and channel size = 3', str(cm.exception))


class RReLU(ParityTest):
    def test_eval_matches_torch(self):
        for dtype in DTYPES:
            gm, tm = Gnn.RReLU(), torch.nn.RReLU()
            gm.eval()
            tm.eval()
            self.assertEqual(repr_of(gm), repr(tm))
            self.check_op(lambda a: gm(a), lambda a: tm(a), [rand((3, 4), dtype, seed=2)], name='RReLU eval')
            self.check_op(lambda a: F.rrelu(a, 0.2, 0.4), lambda a: torch.nn.functional.rrelu(a, 0.2, 0.4),
                          [rand((3, 4), dtype, seed=3)], name='F.rrelu eval')

    def test_training_slopes(self):
        gm = Gnn.RReLU(0.1, 0.3)
        self.assertEqual(repr_of(gm), repr(torch.nn.RReLU(0.1, 0.3)))
        x = rand((64, 64), np.float64, seed=4)
        gx = to_gnn(x, requires_grad=True)
        y = gm(gx)
        y.sum().backward()
        out, grad = np.array(y.detach().numpy()), np.array(gx.grad.numpy())
        neg = x <= 0
        self.assertTrue(np.array_equal(out[~neg], x[~neg]))
        self.assertTrue(np.all(grad[~neg] == 1.0))
        slopes = out[neg] / x[neg]
        self.assertTrue(np.all((slopes >= 0.1) & (slopes < 0.3)))
        self.assertTrue(np.allclose(grad[neg], slopes))
        self.assertGreater(np.std(slopes), 0.04)   # drawn, not the mean 0.2 (uniform: std 0.058)
        with self.assertRaises(GLib.Error) as cm:
            F.rrelu(to_gnn(x), 0.5, 0.1, training=True)
        self.assertIn('Lower bound should be less than or equal to the upper bound', str(cm.exception))


class InPlace(ParityTest):
    FUNCTIONS = (('relu_', ()), ('elu_', (0.7,)), ('leaky_relu_', (0.2,)), ('hardtanh_', (-0.5, 0.5)),
                 ('threshold_', (0.1, -3.0)), ('selu_', ()), ('celu_', (1.5,)), ('rrelu_', (0.1, 0.3)))

    def test_values_and_gradients(self):
        x = rand((3, 4), np.float64, seed=3, low=-2, high=2)
        w = rand((3, 4), np.float64, seed=4)
        for name, args in self.FUNCTIONS:
            g, t = getattr(F, name), getattr(torch.nn.functional, name)
            # on a non-leaf (x · 2), as torch allows; the gradient reaches the leaf
            gl, tl = to_gnn(x, requires_grad=True), torch.from_numpy(x.copy()).requires_grad_()
            gy, ty = gl * 2.0, tl * 2.0
            gv, tv = gy.get_version(), ty._version
            self.assertIs(g(gy, *args), gy)
            t(ty, *args)
            self.assertGreater(gy.get_version(), gv, name)
            self.assertGreater(ty._version, tv)
            self.assert_close(np.array(gy.detach().numpy()), ty.detach().numpy(), 1e-10, 1e-12, name)
            (gy * to_gnn(w)).sum().backward()
            (ty * torch.from_numpy(w)).sum().backward()
            self.assert_close(np.array(gl.grad.numpy()), tl.grad.numpy(), 1e-10, 1e-12, name + ' grad')

    def test_leaf_refuses(self):
        for name, args in self.FUNCTIONS:
            leaf = to_gnn(rand((2, 3)), requires_grad=True)
            with self.assertRaises((RuntimeError, GLib.Error)) as cm:
                getattr(F, name)(leaf, *args)
            self.assertIn('leaf', str(cm.exception), name)
            plain = to_gnn(np.array([-1.0, 2.0]))
            getattr(F, name)(plain, *args)
            want = getattr(torch.nn.functional, name)(torch.tensor([-1.0, 2.0]), *args)
            self.assert_close(np.array(plain.numpy()), want.numpy(), 1e-6, 1e-7, name)


if __name__ == '__main__':
    main()
