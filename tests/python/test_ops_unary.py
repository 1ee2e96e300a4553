"""Parity of gnn's elementwise unary ops and activations with PyTorch 1.13: outputs and
input gradients for float32 and float64 on several shapes (one with a zero-size dimension,
a 0-dim tensor and a non-contiguous transposed slice), the gradient at kinks, and the dtype
rules for integer, bool and half inputs."""
import math

import numpy as np
import torch
import torch.nn.functional as F

from gnntest import Gnn, GLib, Input, ParityTest, main, rand, to_gnn, to_np

NAN = float('nan')

# name -> (gnn function, torch function, input range): inputs stay away from kinks, where
# finite differences and float rounding could pick either side (kinks are tested apart)
OPS = {
    'neg': (lambda t: t.neg(), torch.neg, (-2, 2)),
    'exp': (lambda t: t.exp(), torch.exp, (-2, 2)),
    'log': (lambda t: t.log(), torch.log, (0.1, 3)),
    'sqrt': (lambda t: t.sqrt(), torch.sqrt, (0.1, 3)),
    'abs': (lambda t: t.abs(), torch.abs, (-2, 2)),
    'sign': (lambda t: t.sign(), torch.sign, (-2, 2)),
    'clamp': (lambda t: t.clamp(-0.5, 0.75), lambda t: torch.clamp(t, -0.5, 0.75), (-2, 2)),
    'clamp_lower_only': (lambda t: t.clamp(-0.5, NAN), lambda t: torch.clamp(t, min=-0.5), (-2, 2)),
    'clamp_upper_only': (lambda t: t.clamp(NAN, 0.25), lambda t: torch.clamp(t, max=0.25), (-2, 2)),
    'clamp_min': (lambda t: t.clamp_min(-0.5), lambda t: torch.clamp_min(t, -0.5), (-2, 2)),
    'clamp_max': (lambda t: t.clamp_max(0.25), lambda t: torch.clamp_max(t, 0.25), (-2, 2)),
    'relu': (lambda t: t.relu(), torch.relu, (-2, 2)),
    'leaky_relu': (lambda t: t.leaky_relu(0.01), lambda t: F.leaky_relu(t, 0.01), (-2, 2)),
    'leaky_relu_0.2': (lambda t: t.leaky_relu(0.2), lambda t: F.leaky_relu(t, 0.2), (-2, 2)),
    'elu': (lambda t: t.elu(1.0), lambda t: F.elu(t, 1.0), (-2, 2)),
    'elu_0.5': (lambda t: t.elu(0.5), lambda t: F.elu(t, 0.5), (-2, 2)),
    'gelu': (lambda t: t.gelu(None), F.gelu, (-3, 3)),
    'gelu_none': (lambda t: t.gelu('none'), lambda t: F.gelu(t, approximate='none'), (-3, 3)),
    'gelu_tanh': (lambda t: t.gelu('tanh'), lambda t: F.gelu(t, approximate='tanh'), (-3, 3)),
    'silu': (lambda t: t.silu(), F.silu, (-4, 4)),
    'sigmoid': (lambda t: t.sigmoid(), torch.sigmoid, (-4, 4)),
    'tanh': (lambda t: t.tanh(), torch.tanh, (-3, 3)),
}

GRAD_FN = {
    'neg': 'NegBackward0', 'exp': 'ExpBackward0', 'log': 'LogBackward0', 'sqrt': 'SqrtBackward0',
    'abs': 'AbsBackward0', 'sign': 'SignBackward0', 'clamp': 'ClampBackward1',
    'clamp_lower_only': 'ClampBackward1', 'clamp_upper_only': 'ClampBackward1',
    'clamp_min': 'ClampMinBackward0', 'clamp_max': 'ClampMaxBackward0', 'relu': 'ReluBackward0',
    'leaky_relu': 'LeakyReluBackward0', 'leaky_relu_0.2': 'LeakyReluBackward0',
    'elu': 'EluBackward0', 'elu_0.5': 'EluBackward0', 'gelu': 'GeluBackward0',
    'gelu_none': 'GeluBackward0', 'gelu_tanh': 'GeluBackward0', 'silu': 'SiluBackward0',
    'sigmoid': 'SigmoidBackward0', 'tanh': 'TanhBackward0',
}

SHAPES = [(7,), (3, 4), (2, 3, 5), (2, 0, 3), ()]


def away_from_kinks(a):
    """Moves values within 1e-3 of a kink (0 and the clamp bounds) off it."""
    for k in (0.0, -0.5, 0.25, 0.75):
        close = np.abs(a - k) < 1e-3
        a = np.where(close, a + np.asarray(2e-3, a.dtype), a)
    return a.astype(a.dtype)


class UnaryParity(ParityTest):
    def inputs(self, name, shape, dtype, seed):
        low, high = OPS[name][2]
        return away_from_kinks(rand(shape, dtype, seed=seed, low=low, high=high))

    def test_shapes(self):
        for name, (gfn, tfn, _) in OPS.items():
            for dtype in (np.float32, np.float64):
                for k, shape in enumerate(SHAPES):
                    with self.subTest(op=name, dtype=dtype.__name__, shape=shape):
                        self.check_op(gfn, tfn, [self.inputs(name, shape, dtype, k)],
                                      name='%s %s %s' % (name, dtype.__name__, shape))

    def test_transposed_slice(self):
        for name, (gfn, tfn, _) in OPS.items():
            for dtype in (np.float32, np.float64):
                with self.subTest(op=name, dtype=dtype.__name__):
                    x = Input(self.inputs(name, (5, 6), dtype, 11), kind='tslice')
                    self.check_op(gfn, tfn, [x], name='%s %s tslice' % (name, dtype.__name__))

    def test_large_parallel(self):
        # enough elements for the CPU backend to split the loop across threads
        for name in ('exp', 'relu', 'gelu', 'tanh', 'clamp'):
            gfn, tfn, _ = OPS[name]
            with self.subTest(op=name):
                self.check_op(gfn, tfn, [self.inputs(name, (300, 400), np.float32, 5)], name=name)
                self.check_op(gfn, tfn, [Input(self.inputs(name, (300, 401), np.float64, 6), kind='tslice')],
                              name=name + ' tslice')

    def test_grad_fn_names(self):
        for name, (gfn, tfn, _) in OPS.items():
            with self.subTest(op=name):
                x = to_gnn(np.array([0.5, 1.5], np.float32), requires_grad=True)
                t = torch.tensor([0.5, 1.5], requires_grad=True)
                self.assertEqual(gfn(x).get_grad_fn_name(), type(tfn(t).grad_fn).__name__)
                self.assertEqual(gfn(x).get_grad_fn_name(), GRAD_FN[name])

    def test_kinks(self):
        # gradients exactly at kinks and clamp bounds must be PyTorch's, not a one-sided guess
        for dtype in (np.float32, np.float64):
            pts = np.array([-1.0, -0.5, 0.0, 0.25, 0.75, 1.0], dtype)
            for name in ('relu', 'abs', 'sign', 'clamp', 'clamp_lower_only', 'clamp_upper_only',
                         'clamp_min', 'clamp_max', 'leaky_relu', 'leaky_relu_0.2', 'elu', 'elu_0.5',
                         'gelu', 'gelu_tanh', 'silu'):
                gfn, tfn, _ = OPS[name]
                with self.subTest(op=name, dtype=dtype.__name__):
                    self.check_op(gfn, tfn, [pts], name=name + ' kinks')

    def test_inverted_clamp(self):
        # min > max: every element becomes max and no gradient passes
        x = np.array([-2.0, 0.0, 0.5, 3.0], np.float64)
        self.check_op(lambda t: t.clamp(1.0, -1.0), lambda t: torch.clamp(t, 1.0, -1.0), [x])

    def test_special_values(self):
        # NaN and infinities in, outputs only (log/sqrt of negatives give NaN)
        x = np.array([NAN, math.inf, -math.inf, 0.0, -0.0, -1.0, 1.0, 50.0, -50.0, 1000.0, -1000.0],
                     np.float32)
        for name, (gfn, tfn, _) in OPS.items():
            with self.subTest(op=name):
                self.check_op(gfn, tfn, [x], grad=False, name=name + ' special')
        # NaN bounds of clamp_min / clamp_max make everything NaN, as in PyTorch
        self.check_op(lambda t: t.clamp_min(NAN), lambda t: torch.clamp_min(t, NAN), [x], grad=False)
        self.check_op(lambda t: t.clamp_max(NAN), lambda t: torch.clamp_max(t, NAN), [x], grad=False)

    def test_log_sqrt_domain_gradients(self):
        # at 0 and below the gradients are ±inf / NaN exactly as PyTorch gives them
        x = np.array([0.0, -1.0, 2.0], np.float64)
        self.check_op(lambda t: t.log(), torch.log, [x], name='log domain')
        self.check_op(lambda t: t.sqrt(), torch.sqrt, [x], name='sqrt domain')

    def test_half(self):
        # float16 computes in float32 and rounds once; compare with PyTorch's float32 result
        # rounded to float16 (PyTorch 1.13 has no CPU float16 kernels for most of these)
        x = away_from_kinks(rand((4, 5), np.float32, seed=3, low=0.1, high=2))
        for name, (gfn, tfn, _) in OPS.items():
            with self.subTest(op=name):
                got = gfn(to_gnn(x.astype(np.float16)))
                self.assertEqual(got.get_dtype(), Gnn.Dtype.FLOAT16)
                want = tfn(torch.from_numpy(x.astype(np.float16).astype(np.float32))).numpy()
                np.testing.assert_allclose(to_np(got).astype(np.float32),
                                           want.astype(np.float16).astype(np.float32),
                                           rtol=1e-3, atol=1e-4)

    def test_half_gradients(self):
        x = np.array([-1.5, -0.25, 0.5, 2.0], np.float16)
        for name in ('exp', 'relu', 'gelu', 'sigmoid', 'tanh', 'clamp', 'elu'):
            gfn, tfn, _ = OPS[name]
            with self.subTest(op=name):
                g = to_gnn(x, requires_grad=True)
                gfn(g).backward(to_gnn(np.ones(4, np.float16)), False)
                self.assertEqual(g.get_grad().get_dtype(), Gnn.Dtype.FLOAT16)
                t = torch.tensor(x.astype(np.float32), requires_grad=True)
                tfn(t).backward(torch.ones(4))
                np.testing.assert_allclose(to_np(g.get_grad()).astype(np.float32), t.grad.numpy(),
                                           rtol=2e-3, atol=1e-3)


class UnaryDtypes(ParityTest):
    INTS = {
        'int64': np.array([-3, -1, 0, 2, 5], np.int64),
        'uint8': np.array([0, 1, 2, 200, 255], np.uint8),
        'bool': np.array([True, False, True, True, False]),
    }

    def compare(self, gfn, tfn, array, what):
        try:
            want = tfn(torch.from_numpy(array.copy()))
        except RuntimeError:
            with self.assertRaises(GLib.Error, msg=what) as cm:
                gfn(to_gnn(array))
            self.assertTrue(cm.exception.matches(Gnn.error_quark(), Gnn.Error.DTYPE) or
                            cm.exception.matches(Gnn.error_quark(), Gnn.Error.INVALID_ARGUMENT), what)
            return
        got = gfn(to_gnn(array))
        want = want.numpy()
        self.assertEqual(to_np(got).dtype, want.dtype, what)
        self.assert_close(to_np(got), want, 1e-5, 1e-6, what)

    def test_integer_inputs(self):
        for name, (gfn, tfn, _) in OPS.items():
            for kind, array in self.INTS.items():
                with self.subTest(op=name, dtype=kind):
                    self.compare(gfn, tfn, array, '%s %s' % (name, kind))

    def test_clamp_bounds_dtype(self):
        cases = [
            (lambda t: t.clamp(-1, 1), lambda t: torch.clamp(t, -1, 1)),
            (lambda t: t.clamp(-1.5, 1), lambda t: torch.clamp(t, -1.5, 1)),
            (lambda t: t.clamp(2, 3), lambda t: torch.clamp(t, 2, 3)),
            (lambda t: t.clamp_min(1), lambda t: torch.clamp_min(t, 1)),
            (lambda t: t.clamp_min(0.5), lambda t: torch.clamp_min(t, 0.5)),
            (lambda t: t.clamp_max(1), lambda t: torch.clamp_max(t, 1)),
            (lambda t: t.clamp_max(2.5), lambda t: torch.clamp_max(t, 2.5)),
            (lambda t: t.clamp(-1, 300), lambda t: torch.clamp(t, -1, 300)),
            (lambda t: t.clamp(-math.inf, 2), lambda t: torch.clamp(t, -math.inf, 2)),
            # uint8: PyTorch converts the bounds first, -255..255 pass and negatives wrap
            (lambda t: t.clamp_min(-1), lambda t: torch.clamp_min(t, -1)),
            (lambda t: t.clamp_max(-255), lambda t: torch.clamp_max(t, -255)),
            (lambda t: t.clamp(-256, 3), lambda t: torch.clamp(t, -256, 3)),
            (lambda t: t.clamp(NAN, 256), lambda t: torch.clamp(t, max=256)),
        ]
        for k, (gfn, tfn) in enumerate(cases):
            for kind, array in self.INTS.items():
                with self.subTest(case=k, dtype=kind):
                    self.compare(gfn, tfn, array, 'clamp case %d %s' % (k, kind))

    def test_no_bounds(self):
        with self.assertRaises(GLib.Error) as cm:
            to_gnn(np.zeros(3, np.float32)).clamp(NAN, NAN)
        self.assertTrue(cm.exception.matches(Gnn.error_quark(), Gnn.Error.INVALID_ARGUMENT))

    def test_bad_gelu_approximate(self):
        with self.assertRaises(GLib.Error) as cm:
            to_gnn(np.zeros(3, np.float32)).gelu('sigmoid')
        self.assertTrue(cm.exception.matches(Gnn.error_quark(), Gnn.Error.INVALID_ARGUMENT))
        self.assertIn('approximate', cm.exception.message)

    def test_zeta_has_no_gradient_for_s(self):
        # torch 1.13: NotImplementedError("the derivative for 'zeta' is not implemented.") at backward
        import gnn
        s = gnn.tensor([2.0, 3.0], requires_grad=True)
        q = gnn.tensor([1.0, 2.0], requires_grad=True)
        y = gnn.special.zeta(s, q).sum()
        with self.assertRaisesRegex(NotImplementedError, "the derivative for 'zeta' is not implemented"):
            y.backward()
        # with s a constant, q's gradient is -s zeta (s + 1, q), as torch's
        s = gnn.tensor([2.0, 3.0])
        gnn.special.zeta(s, q).sum().backward()
        np.testing.assert_allclose(q.grad.numpy(), [-2.4041138, -0.2469697], rtol=1e-6)

    def test_trace_of_a_tall_matrix(self):
        # the gradient is the identity's pattern; torch 1.13 puts ones at (3, 0) and (4, 1) too
        import gnn
        x = gnn.tensor(np.arange(10.0).reshape(5, 2), requires_grad=True)
        gnn.trace(x).backward()
        np.testing.assert_array_equal(x.grad.numpy(), np.eye(5, 2))

    def test_inplace_modification_detected(self):
        for name in ('exp', 'sqrt', 'sigmoid', 'tanh', 'relu'):
            with self.subTest(op=name):
                x = to_gnn(np.array([0.5, 1.5], np.float32), requires_grad=True)
                y = OPS[name][0](x)
                y.add_scalar_(1.0)
                with self.assertRaises(GLib.Error) as cm:
                    y.backward(to_gnn(np.ones(2, np.float32)), False)
                self.assertTrue(cm.exception.matches(Gnn.error_quark(), Gnn.Error.AUTOGRAD))


if __name__ == '__main__':
    main()
