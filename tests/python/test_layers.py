#!/usr/bin/python3
"""Linear, ReLU and LeakyReLU against torch.nn: with the same weights, outputs and the
gradients of input, weight and bias agree; the printed forms are torch's; the default
initialisation has the distribution torch.nn.init's formulas give (the numbers themselves
come from gnn's generator, not torch's)."""

import math
import warnings

from gnntest import Gnn, GLib, np, torch, to_gnn, to_np, rand, TOL, ParityTest, main

DTYPES = {np.float32: (Gnn.Dtype.FLOAT32, torch.float32), np.float64: (Gnn.Dtype.FLOAT64, torch.float64)}


def gnn_linear_like(tlin, dtype):
    """A gnn Linear holding a copy of torch's parameters."""
    gdt, _ = DTYPES[dtype]
    lin = Gnn.Linear(in_features=tlin.in_features, out_features=tlin.out_features,
                     bias=tlin.bias is not None, dtype=gdt)
    with Gnn.no_grad():
        lin.weight.copy_(to_gnn(tlin.weight.detach().numpy()))
        if tlin.bias is not None:
            lin.bias.copy_(to_gnn(tlin.bias.detach().numpy()))
    return lin


class LinearParity(ParityTest):
    def check_linear(self, in_f, out_f, shape, dtype, bias=True, seed=0):
        _, tdt = DTYPES[dtype]
        torch.manual_seed(seed)
        tlin = torch.nn.Linear(in_f, out_f, bias=bias, dtype=tdt)
        glin = gnn_linear_like(tlin, dtype)
        x = rand(shape, dtype, seed=seed)
        tx = torch.from_numpy(x.copy()).requires_grad_(True)
        gx = to_gnn(x, requires_grad=True)
        want = tlin(tx)
        got = glin(gx)
        r, a = TOL[dtype]
        # sums over in_features in another order: allow for their rounding
        a = max(a, r * in_f)
        what = 'Linear(%d, %d, bias=%s) on %s %s' % (in_f, out_f, bias, shape, np.dtype(dtype).name)
        self.assertEqual(got.get_dtype(), DTYPES[dtype][0])
        self.assert_close(to_np(got), want.detach().numpy(), r, a, what + ' output')

        upstream = rand(tuple(want.shape), dtype, seed=seed + 100)
        want.backward(torch.from_numpy(upstream))
        got.backward(to_gnn(upstream), False)
        a_batch = max(a, r * int(np.prod(shape[:-1])))
        self.assert_close(to_np(gx.get_grad()), tx.grad.numpy(), r, a, what + ' grad of input')
        self.assert_close(to_np(glin.weight.get_grad()), tlin.weight.grad.numpy(), r, a_batch,
                          what + ' grad of weight')
        if bias:
            self.assert_close(to_np(glin.bias.get_grad()), tlin.bias.grad.numpy(), r, a_batch,
                              what + ' grad of bias')
        else:
            self.assertEqual([n for n, _ in glin.named_parameters()], ['weight'])

    def test_float32(self):
        self.check_linear(4, 3, (2, 4), np.float32)
        self.check_linear(20, 32, (16, 20), np.float32, seed=1)

    def test_float64(self):
        self.check_linear(4, 3, (2, 4), np.float64)
        self.check_linear(20, 32, (16, 20), np.float64, seed=1)

    def test_batch_one(self):
        for dtype in DTYPES:
            self.check_linear(5, 7, (1, 5), dtype, seed=2)
            self.check_linear(5, 7, (5,), dtype, seed=3)

    def test_odd_sizes(self):
        for dtype in DTYPES:
            self.check_linear(1, 1, (3, 1), dtype, seed=4)
            self.check_linear(13, 1, (7, 13), dtype, seed=5)
            self.check_linear(1, 17, (9, 1), dtype, seed=6)
            self.check_linear(37, 29, (11, 37), dtype, seed=7)

    def test_3d_input(self):
        for dtype in DTYPES:
            self.check_linear(6, 4, (2, 3, 6), dtype, seed=8)
            self.check_linear(6, 4, (2, 3, 5, 6), dtype, seed=9)

    def test_no_bias(self):
        for dtype in DTYPES:
            self.check_linear(6, 4, (3, 6), dtype, bias=False, seed=10)
            self.check_linear(6, 4, (2, 3, 6), dtype, bias=False, seed=11)


class LinearModule(ParityTest):
    def test_parameters(self):
        lin = Gnn.Linear.new(4, 3, True)
        names = [n for n, _ in lin.named_parameters()]
        self.assertEqual(names, [n for n, _ in torch.nn.Linear(4, 3).named_parameters()])
        self.assertEqual(lin.weight.shape, (3, 4))
        self.assertEqual(lin.bias.shape, (3,))
        self.assertTrue(lin.weight.requires_grad)
        self.assertEqual(lin.weight.get_dtype(), Gnn.Dtype.FLOAT32)
        self.assertEqual(lin.props.in_features, 4)
        self.assertEqual(lin.props.out_features, 3)
        self.assertTrue(lin.props.bias)
        self.assertEqual(lin.props.dtype, Gnn.Dtype.FLOAT32)

    def test_dtype(self):
        lin = Gnn.Linear.new_with_dtype(4, 3, True, Gnn.Dtype.FLOAT64)
        self.assertEqual(lin.weight.get_dtype(), Gnn.Dtype.FLOAT64)
        self.assertEqual(lin.bias.get_dtype(), Gnn.Dtype.FLOAT64)
        with self.assertRaises(GLib.Error):
            Gnn.Linear.new_with_dtype(4, 3, True, Gnn.Dtype.INT64)

    def test_wrong_shape(self):
        lin = Gnn.Linear.new(4, 3, True)
        with self.assertRaises(GLib.Error) as cm:
            lin(to_gnn(np.zeros((2, 5), np.float32)))
        self.assertIn('Linear: expected input with last dimension 4 (in_features), got shape [2, 5]',
                      str(cm.exception))

    def test_repr(self):
        with warnings.catch_warnings():
            # torch: "Initializing zero-element tensors is a no-op" for Linear(0, 7)
            warnings.simplefilter('ignore', UserWarning)
            for args in [(4, 3), (5, 2, False), (0, 7), (1, 1, True)]:
                self.assertEqual(repr(Gnn.Linear.new(*(args + (True,))[:3])), repr(torch.nn.Linear(*args)))
        self.assertEqual(repr(Gnn.ReLU()), repr(torch.nn.ReLU()))
        self.assertEqual(repr(Gnn.ReLU.new()), repr(torch.nn.ReLU()))
        self.assertEqual(repr(Gnn.LeakyReLU()), repr(torch.nn.LeakyReLU()))
        for slope in [0.2, 0.01, 1e-5, 1 / 3, 100.0, -2.5, 0.0, 1e16, 1e-4, 123456789.125]:
            self.assertEqual(repr(Gnn.LeakyReLU.new(slope)), repr(torch.nn.LeakyReLU(slope)))
            self.assertEqual(repr(Gnn.LeakyReLU(negative_slope=slope)), repr(torch.nn.LeakyReLU(slope)))

    def check_init(self, gnn_values, torch_values, bound, what, tol):
        """gnn's and torch's draws both lie in [-bound, bound] with the uniform distribution's
        mean 0 and std bound/√3."""
        for name, v in (('gnn', gnn_values), ('torch', torch_values)):
            self.assertLessEqual(np.abs(v).max(), bound, '%s %s bound' % (name, what))
            self.assertGreater(np.abs(v).max(), 0.98 * bound, '%s %s reaches the bound' % (name, what))
            self.assertLess(abs(v.mean()), tol * bound, '%s %s mean' % (name, what))
            self.assertLess(abs(v.std() / (bound / math.sqrt(3)) - 1), tol, '%s %s std' % (name, what))

    def test_default_init(self):
        torch.manual_seed(0)
        Gnn.manual_seed(0)
        for in_f, out_f in [(1000, 500), (300, 2000)]:
            glin = Gnn.Linear.new(in_f, out_f, True)
            tlin = torch.nn.Linear(in_f, out_f)
            # torch.nn.init: kaiming_uniform_(a=√5) → gain √(2/6), bound gain·√(3/fan_in)
            gain = torch.nn.init.calculate_gain('leaky_relu', math.sqrt(5))
            bound = gain * math.sqrt(3.0 / in_f)
            self.assertAlmostEqual(bound, 1 / math.sqrt(in_f), places=12)
            self.check_init(to_np(glin.weight), tlin.weight.detach().numpy(), bound * (1 + 1e-6),
                            'weight', 0.01)
            self.check_init(to_np(glin.bias), tlin.bias.detach().numpy(), bound * (1 + 1e-6),
                            'bias', 0.15)

    def test_reset_parameters(self):
        lin = Gnn.Linear.new(50, 40, True)
        before = to_np(lin.weight).copy()
        w = lin.weight
        self.assertTrue(lin.reset_parameters())
        after = to_np(lin.weight)
        self.assertFalse(np.array_equal(before, after))
        self.assertLessEqual(np.abs(after).max(), 1 / math.sqrt(50) * (1 + 1e-6))
        # in place: the same parameter, still a leaf that requires grad
        self.assertTrue(np.array_equal(to_np(w), after))
        self.assertTrue(lin.weight.requires_grad)


class InitFunctions(ParityTest):
    def test_calculate_gain(self):
        nan = float('nan')
        for name in ['linear', 'conv1d', 'conv_transpose3d', 'sigmoid', 'tanh', 'relu', 'selu']:
            self.assertEqual(Gnn.init_calculate_gain(name, nan), torch.nn.init.calculate_gain(name), name)
        self.assertEqual(Gnn.init_calculate_gain('leaky_relu', nan), torch.nn.init.calculate_gain('leaky_relu'))
        for slope in [0.0, 0.2, math.sqrt(5)]:
            self.assertEqual(Gnn.init_calculate_gain('leaky_relu', slope),
                             torch.nn.init.calculate_gain('leaky_relu', slope))
        with self.assertRaises(GLib.Error):
            Gnn.init_calculate_gain('softmax', nan)

    def test_fan(self):
        for shape in [(3, 4), (3, 4, 5), (6, 2, 3, 3), (1, 7, 2, 2, 2)]:
            t = torch.empty(shape)
            ok, fan_in, fan_out = Gnn.init_calculate_fan_in_and_fan_out(to_gnn(np.zeros(shape, np.float32)))
            self.assertTrue(ok)
            self.assertEqual((fan_in, fan_out), torch.nn.init._calculate_fan_in_and_fan_out(t))
        with self.assertRaises(GLib.Error):
            Gnn.init_calculate_fan_in_and_fan_out(to_gnn(np.zeros((3,), np.float32)))

    def test_kaiming_uniform(self):
        gen = Gnn.Generator.new(3)
        for shape, a, mode, nl in [((400, 300), 0.0, 'fan_in', 'relu'),
                                   ((400, 300), 0.0, 'fan_out', 'relu'),
                                   ((64, 16, 3, 3), 0.1, 'fan_in', 'leaky_relu'),
                                   ((500, 400), 0.0, 'fan_in', 'tanh')]:
            t = to_gnn(np.zeros(shape, np.float64))
            self.assertTrue(Gnn.init_kaiming_uniform_(t, a, mode, nl, gen))
            fan_in, fan_out = torch.nn.init._calculate_fan_in_and_fan_out(torch.empty(shape))
            fan = fan_in if mode == 'fan_in' else fan_out
            bound = torch.nn.init.calculate_gain(nl, a) * math.sqrt(3.0 / fan)
            v = to_np(t)
            self.assertLessEqual(np.abs(v).max(), bound)
            self.assertGreater(np.abs(v).max(), 0.99 * bound)
            self.assertLess(abs(v.std() / (bound / math.sqrt(3)) - 1), 0.02)

    def test_uniform(self):
        t = to_gnn(np.zeros((200, 100), np.float32))
        self.assertTrue(Gnn.init_uniform_(t, -1.5, 0.5, None))
        v = to_np(t)
        self.assertGreaterEqual(v.min(), -1.5)
        self.assertLessEqual(v.max(), 0.5)
        self.assertAlmostEqual(float(v.mean()), -0.5, delta=0.02)
        self.assertAlmostEqual(float(v.std()), 2 / math.sqrt(12), delta=0.01)


class Activations(ParityTest):
    def test_relu(self):
        for dtype in DTYPES:
            x = rand((5, 7), dtype, seed=1)
            m = Gnn.ReLU.new()
            self.check_op(lambda t: m(t), torch.nn.ReLU(), [x], name='ReLU')
            self.assertEqual(list(m.named_parameters()), [])

    def test_leaky_relu(self):
        for dtype in DTYPES:
            for slope in [0.01, 0.2, 1.5]:
                x = rand((4, 3, 2), dtype, seed=2)
                m = Gnn.LeakyReLU.new(slope)
                self.check_op(lambda t: m(t), torch.nn.LeakyReLU(slope), [x], name='LeakyReLU(%g)' % slope)
        m = Gnn.LeakyReLU()
        self.assertEqual(m.props.negative_slope, 0.01)
        m.props.negative_slope = 0.3
        self.check_op(lambda t: m(t), torch.nn.LeakyReLU(0.3), [rand((6,), np.float64, seed=3)],
                      name='LeakyReLU after setting the slope')


if __name__ == '__main__':
    main()
