#!/usr/bin/python3
"""torch.nn.init's remaining functions against PyTorch: the distributions have the
moments and bounds PyTorch's formulas (and PyTorch's own draws) give, the constant fills
give exact values, orthogonal_ gives WᵀW ≈ gain² I (or W Wᵀ for wide matrices), and bad
arguments raise PyTorch's messages. The numbers come from gnn's generator, not torch's."""

import math

from gnntest import Gnn, GLib, np, torch, to_gnn, to_np, ParityTest, main

DTYPES = [np.float32, np.float64]
TDT = {np.float32: torch.float32, np.float64: torch.float64}


def zeros(shape, dtype=np.float32):
    return to_gnn(np.zeros(shape, dtype))


def phi(x):
    return (1.0 + math.erf(x / math.sqrt(2.0))) / 2.0


class Distributions(ParityTest):
    def test_normal(self):
        gen = Gnn.Generator.new(1)
        for dtype in DTYPES:
            for mean, std in [(0.0, 1.0), (2.5, 0.3), (-1.0, 4.0)]:
                t = zeros((300, 400), dtype)
                self.assertTrue(Gnn.init_normal_(t, mean, std, gen))
                v = to_np(t)
                self.assertEqual(v.dtype, dtype)
                self.assertAlmostEqual(float(v.mean()), mean, delta=5 * std / math.sqrt(v.size))
                self.assertLess(abs(float(v.std()) / std - 1), 0.01)
        t = zeros((10, 10))
        self.assertTrue(Gnn.init_normal_(t, 3.0, 0.0, None))
        self.assertTrue(np.all(to_np(t) == 3.0))

    def test_trunc_normal(self):
        gen = Gnn.Generator.new(2)
        for dtype in DTYPES:
            for mean, std, a, b in [(0.0, 1.0, -2.0, 2.0), (0.5, 2.0, -1.0, 3.0), (0.0, 0.02, -0.04, 0.04),
                                    (1.0, 1.0, 0.0, 5.0)]:
                shape = (400, 500)
                t = zeros(shape, dtype)
                self.assertTrue(Gnn.init_trunc_normal_(t, mean, std, a, b, gen))
                v = to_np(t).astype(np.float64)
                self.assertGreaterEqual(v.min(), float(dtype(a)))
                self.assertLessEqual(v.max(), float(dtype(b)))
                tt = torch.empty(shape, dtype=TDT[dtype])
                torch.manual_seed(0)
                torch.nn.init.trunc_normal_(tt, mean, std, a, b)
                w = tt.numpy().astype(np.float64)
                what = 'trunc_normal_(%g, %g, %g, %g) %s' % (mean, std, a, b, np.dtype(dtype).name)
                self.assertAlmostEqual(v.mean(), w.mean(), delta=6 * std / math.sqrt(v.size), msg=what)
                self.assertLess(abs(v.std() / w.std() - 1), 0.01, what)
                # the empirical CDF against the truncated normal's
                alpha, beta = (a - mean) / std, (b - mean) / std
                z = phi(beta) - phi(alpha)
                for frac in (0.1, 0.25, 0.5, 0.75, 0.9):
                    x = a + frac * (b - a)
                    want = (phi((x - mean) / std) - phi(alpha)) / z
                    self.assertAlmostEqual(float((v <= x).mean()), want, delta=0.005, msg=what)

    def test_xavier(self):
        gen = Gnn.Generator.new(3)
        for shape, gain in [((400, 300), 1.0), ((64, 32, 3, 3), 5.0 / 3), ((1000, 200), math.sqrt(2))]:
            fan_in, fan_out = torch.nn.init._calculate_fan_in_and_fan_out(torch.empty(shape))
            std = gain * math.sqrt(2.0 / (fan_in + fan_out))
            bound = math.sqrt(3.0) * std
            t = zeros(shape, np.float64)
            self.assertTrue(Gnn.init_xavier_uniform_(t, gain, gen))
            v = to_np(t)
            self.assertLessEqual(np.abs(v).max(), bound)
            self.assertGreater(np.abs(v).max(), 0.99 * bound)
            self.assertLess(abs(v.std() / std - 1), 0.02)
            t = zeros(shape, np.float32)
            self.assertTrue(Gnn.init_xavier_normal_(t, gain, gen))
            v = to_np(t)
            self.assertLess(abs(v.std() / std - 1), 0.02)
            self.assertLess(abs(v.mean()), 5 * std / math.sqrt(v.size))

    def test_kaiming_normal(self):
        gen = Gnn.Generator.new(4)
        for shape, a, mode, nl in [((400, 300), 0.0, 'fan_in', 'relu'), ((400, 300), 0.0, 'fan_out', 'relu'),
                                   ((64, 16, 3, 3), 0.1, 'fan_in', 'leaky_relu'), ((500, 400), 0.0, 'FAN_OUT', 'tanh'),
                                   ((300, 300), math.sqrt(5), 'fan_in', None)]:
            t = zeros(shape, np.float64)
            self.assertTrue(Gnn.init_kaiming_normal_(t, a, mode, nl, gen))
            fan_in, fan_out = torch.nn.init._calculate_fan_in_and_fan_out(torch.empty(shape))
            fan = fan_in if mode.lower() == 'fan_in' else fan_out
            std = torch.nn.init.calculate_gain(nl or 'leaky_relu', a) / math.sqrt(fan)
            tt = torch.empty(shape, dtype=torch.float64)
            torch.nn.init.kaiming_normal_(tt, a, mode.lower(), nl or 'leaky_relu')
            v = to_np(t)
            self.assertLess(abs(v.std() / std - 1), 0.02)
            self.assertLess(abs(v.std() / tt.numpy().std() - 1), 0.03)
        # zero elements: a no-op, as in PyTorch
        self.assertTrue(Gnn.init_kaiming_normal_(zeros((0, 3)), 0.0, None, None, None))

    def test_orthogonal(self):
        gen = Gnn.Generator.new(5)
        for dtype in DTYPES:
            tol = 1e-5 if dtype == np.float32 else 1e-12
            for shape, gain in [((50, 20), 1.0), ((20, 50), 1.0), ((30, 30), 2.0), ((16, 4, 3, 3), 0.5),
                                ((6, 40, 2), math.sqrt(2)), ((1, 7), 1.0), ((7, 1), 3.0)]:
                t = zeros(shape, dtype)
                self.assertTrue(Gnn.init_orthogonal_(t, gain, gen))
                w = to_np(t).reshape(shape[0], -1).astype(np.float64)
                rows, cols = w.shape
                g = w.T @ w if rows >= cols else w @ w.T
                self.assert_close(g, gain * gain * np.eye(min(rows, cols)), tol * 10, tol * 10 * gain * gain,
                                  'orthogonal_ %s %s' % (shape, np.dtype(dtype).name))
                # as torch's: the same Gram matrix for its own draw
                tt = torch.empty(shape, dtype=TDT[dtype])
                torch.nn.init.orthogonal_(tt, gain)
                tw = tt.reshape(shape[0], -1).double().numpy()
                tg = tw.T @ tw if rows >= cols else tw @ tw.T
                self.assert_close(g, tg, tol * 10, tol * 10 * gain * gain)
        # the entries of a random orthogonal matrix: mean 0, variance 1/n
        t = zeros((200, 200), np.float64)
        self.assertTrue(Gnn.init_orthogonal_(t, 1.0, gen))
        v = to_np(t)
        self.assertLess(abs(v.std() * math.sqrt(200) - 1), 0.02)


class Exact(ParityTest):
    def test_constant_zeros_ones(self):
        for dtype in [np.float32, np.float64, np.int64]:
            a = np.arange(12, dtype=dtype).reshape(3, 4)
            t = to_gnn(a)
            self.assertTrue(Gnn.init_constant_(t, 2.5))
            tt = torch.from_numpy(a.copy())
            torch.nn.init.constant_(tt, 2.5)
            np.testing.assert_array_equal(to_np(t), tt.numpy())
            self.assertTrue(Gnn.init_zeros_(t))
            np.testing.assert_array_equal(to_np(t), np.zeros((3, 4), dtype))
            self.assertTrue(Gnn.init_ones_(t))
            np.testing.assert_array_equal(to_np(t), np.ones((3, 4), dtype))

    def test_eye(self):
        for shape in [(3, 3), (2, 5), (5, 2), (1, 1)]:
            for dtype in [np.float32, np.float64, np.int64]:
                t = to_gnn(np.full(shape, 7, dtype))
                self.assertTrue(Gnn.init_eye_(t))
                tt = torch.full(shape, 7, dtype=torch.from_numpy(np.zeros(1, dtype)).dtype)
                torch.nn.init.eye_(tt)
                np.testing.assert_array_equal(to_np(t), tt.numpy())

    def test_parameter_identity_and_no_grad(self):
        p = Gnn.Parameter.new(zeros((8, 6)), True)
        v0 = p.get_version()
        for fill in [lambda t: Gnn.init_normal_(t, 0.0, 1.0, None),
                     lambda t: Gnn.init_trunc_normal_(t, 0.0, 1.0, -2.0, 2.0, None),
                     lambda t: Gnn.init_xavier_uniform_(t, 1.0, None),
                     lambda t: Gnn.init_xavier_normal_(t, 1.0, None),
                     lambda t: Gnn.init_kaiming_normal_(t, 0.0, None, None, None),
                     lambda t: Gnn.init_orthogonal_(t, 1.0, None),
                     lambda t: Gnn.init_eye_(t), lambda t: Gnn.init_constant_(t, 0.5),
                     lambda t: Gnn.init_zeros_(t), lambda t: Gnn.init_ones_(t)]:
            self.assertTrue(fill(p))
            self.assertTrue(p.get_requires_grad())
            self.assertIsNone(p.get_grad_fn_name())
        self.assertGreater(p.get_version(), v0)

    def test_reproducible(self):
        for fill in [lambda t, g: Gnn.init_normal_(t, 0.0, 1.0, g),
                     lambda t, g: Gnn.init_trunc_normal_(t, 0.0, 1.0, -2.0, 2.0, g),
                     lambda t, g: Gnn.init_orthogonal_(t, 1.0, g)]:
            a, b = zeros((5, 7)), zeros((5, 7))
            self.assertTrue(fill(a, Gnn.Generator.new(42)))
            self.assertTrue(fill(b, Gnn.Generator.new(42)))
            np.testing.assert_array_equal(to_np(a), to_np(b))


class Errors(ParityTest):
    def check_error(self, gnn_call, torch_call):
        with self.assertRaises(Exception) as want:
            torch_call()
        with self.assertRaises(GLib.Error) as got:
            gnn_call()
        self.assertEqual(got.exception.message, str(want.exception))

    def test_messages(self):
        one_d, t2 = np.zeros((3,), np.float32), np.zeros((3, 3), np.float32)
        t3 = np.zeros((2, 3, 4), np.float32)
        T = torch.from_numpy
        self.check_error(lambda: Gnn.init_normal_(to_gnn(t2), 0.0, -1.0, None),
                         lambda: torch.nn.init.normal_(T(t2), 0.0, -1.0))
        self.check_error(lambda: Gnn.init_eye_(to_gnn(one_d)), lambda: torch.nn.init.eye_(T(one_d)))
        self.check_error(lambda: Gnn.init_eye_(to_gnn(t3)), lambda: torch.nn.init.eye_(T(t3)))
        self.check_error(lambda: Gnn.init_orthogonal_(to_gnn(one_d), 1.0, None),
                         lambda: torch.nn.init.orthogonal_(T(one_d)))
        self.check_error(lambda: Gnn.init_xavier_uniform_(to_gnn(one_d), 1.0, None),
                         lambda: torch.nn.init.xavier_uniform_(T(one_d)))
        self.check_error(lambda: Gnn.init_xavier_normal_(to_gnn(one_d), 1.0, None),
                         lambda: torch.nn.init.xavier_normal_(T(one_d)))
        self.check_error(lambda: Gnn.init_kaiming_normal_(to_gnn(one_d), 0.0, None, None, None),
                         lambda: torch.nn.init.kaiming_normal_(T(one_d)))
        self.check_error(lambda: Gnn.init_kaiming_normal_(to_gnn(t2), 0.0, 'foo', None, None),
                         lambda: torch.nn.init.kaiming_normal_(T(t2), mode='foo'))
        self.check_error(lambda: Gnn.init_kaiming_normal_(to_gnn(t2), 0.0, None, 'softmax', None),
                         lambda: torch.nn.init.kaiming_normal_(T(t2), nonlinearity='softmax'))
        self.check_error(lambda: Gnn.init_trunc_normal_(to_gnn(t2), 0.0, 1.0, 2.0, -2.0, None),
                         lambda: torch.nn.init.trunc_normal_(T(t2), 0.0, 1.0, 2.0, -2.0))

    def test_non_floating(self):
        t = to_gnn(np.zeros((3, 3), np.int64))
        for fill in [lambda: Gnn.init_normal_(t, 0.0, 1.0, None),
                     lambda: Gnn.init_trunc_normal_(t, 0.0, 1.0, -2.0, 2.0, None),
                     lambda: Gnn.init_xavier_normal_(t, 1.0, None),
                     lambda: Gnn.init_orthogonal_(t, 1.0, None)]:
            with self.assertRaises(GLib.Error):
                fill()


if __name__ == '__main__':
    main()
