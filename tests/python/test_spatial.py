#!/usr/bin/python3
"""The 1-d spatial layers against torch 1.13: ConvTranspose1d, MaxPool1d, AvgPool1d,
AdaptiveAvgPool1d and Dropout1d built with the same arguments (weights copied), their printed forms and
state-dict keys, outputs and the gradients of input and parameters in float32 and float64,
unbatched input, return_indices, and the errors torch raises. The functional forms are rows of
op_specs/spatial.py."""

import numpy as np
import torch

from gnntest import Gnn, GLib, rand, to_gnn, to_np, TOL, ParityTest, main

import gnn

DTYPES = ((np.float32, gnn.float32, torch.float32), (np.float64, gnn.float64, torch.float64))


def copy_parameters(gm, tm):
    with Gnn.no_grad():
        for name, value in tm.state_dict().items():
            getattr(gm, name).copy_(to_gnn(value.detach().numpy()))


class ConvTranspose1dLayer(ParityTest):
    CONFIGS = [
        (4, 6, dict(kernel_size=3)),
        (4, 6, dict(kernel_size=3, stride=2, padding=1, output_padding=1)),
        (4, 2, dict(kernel_size=(2,), groups=2, dilation=2, bias=False, stride=(3,))),
    ]

    def test_parity(self):
        for np_dtype, gdtype, tdtype in DTYPES:
            r, a = TOL[np_dtype]
            if np_dtype == np.float32:
                r, a = 1e-4, 1e-5
            for k, (cin, cout, kw) in enumerate(self.CONFIGS):
                with self.subTest(config=k, dtype=np_dtype.__name__):
                    torch.manual_seed(k)
                    tm = torch.nn.ConvTranspose1d(cin, cout, dtype=tdtype, **kw)
                    gm = gnn.nn.ConvTranspose1d(cin, cout, dtype=gdtype, **kw)
                    self.assertEqual(repr(gm), repr(tm))
                    self.assertEqual(list(gm.state_dict().keys()), list(tm.state_dict().keys()))
                    self.assertEqual(tuple(gm.weight.shape), tuple(tm.weight.shape))
                    copy_parameters(gm, tm)
                    for shape in ((2, cin, 5), (cin, 4)):
                        x = rand(shape, np_dtype, seed=k + 5)
                        self.check_op(lambda x_: gm(x_), lambda x_: tm(x_), [x], rtol=r, atol=a,
                                      name='ConvTranspose1d %d %s' % (k, shape))
                        # the parameters' gradients too: one more backward through both
                        gm.zero_grad()
                        tm.zero_grad()
                        want = tm(torch.from_numpy(x))
                        up = rand(tuple(want.shape), np_dtype, seed=3)
                        want.backward(torch.from_numpy(up))
                        gm(to_gnn(x)).backward(to_gnn(up), False)
                        for name, p in tm.named_parameters():
                            self.assert_close(to_np(getattr(gm, name).get_grad()), p.grad.numpy(), r, a,
                                              'ConvTranspose1d %d grad of %s' % (k, name))

    def test_default_init_and_errors(self):
        m = gnn.nn.ConvTranspose1d(3, 8, 3)
        bound = 1 / np.sqrt(8 * 3)   # fan_in of the (C_in, C_out, k) weight: C_out · k
        self.assertLessEqual(np.abs(to_np(m.weight)).max(), bound)
        self.assertGreater(np.abs(to_np(m.weight)).max(), 0.8 * bound)
        self.assertLessEqual(np.abs(to_np(m.bias)).max(), bound)
        with self.assertRaisesRegex(GLib.Error, r'ConvTranspose1d: .*C = 3 channels, got shape \[1, 4, 5\]'):
            m(to_gnn(rand((1, 4, 5))))
        with self.assertRaisesRegex(Exception, 'output padding must be smaller than either stride or dilation'):
            gnn.nn.ConvTranspose1d(3, 8, 3, output_padding=1)(to_gnn(rand((1, 3, 5))))
        self.assertRaises(Exception, torch.nn.ConvTranspose1d(3, 8, 3, output_padding=1), torch.zeros(1, 3, 5))
        m2 = Gnn.ConvTranspose1d.new(2, 4, 3, 2, 1, 1, 2, False, 1, Gnn.Dtype.FLOAT64)
        self.assertEqual(m2.to_string(), repr(torch.nn.ConvTranspose1d(2, 4, 3, 2, 1, 1, 2, False)))


class PoolLayers(ParityTest):
    def check_layer(self, gm, tm, shapes, indices=False):
        self.assertEqual(repr(gm), repr(tm))
        self.assertEqual(list(gm.state_dict().keys()), [])
        for np_dtype, _, _ in DTYPES:
            for k, shape in enumerate(shapes):
                x = rand(shape, np_dtype, seed=k)
                name = '%s %s %s' % (repr(tm), shape, np_dtype.__name__)
                if indices:
                    self.check_op(lambda x_: gm(x_)[0], lambda x_: tm(x_)[0], [x], name=name)
                    got, want = gm(to_gnn(x))[1], tm(torch.from_numpy(x))[1]
                    self.assertEqual(got.dtype, gnn.int64)
                    np.testing.assert_array_equal(to_np(got), want.numpy(), err_msg=name + ' indices')
                else:
                    self.check_op(lambda x_: gm(x_), lambda x_: tm(x_), [x], name=name)

    def test_max_pool1d(self):
        for kw in [dict(kernel_size=2), dict(kernel_size=3, stride=2, padding=1, dilation=2, ceil_mode=True),
                   dict(kernel_size=3, stride=1)]:
            with self.subTest(**kw):
                self.check_layer(gnn.nn.MaxPool1d(**kw), torch.nn.MaxPool1d(**kw), [(2, 3, 9), (3, 8)])
                self.check_layer(gnn.nn.MaxPool1d(return_indices=True, **kw),
                                 torch.nn.MaxPool1d(return_indices=True, **kw), [(2, 3, 9), (3, 8)], indices=True)
        self.check_layer(Gnn.MaxPool1d.new(3, 0, 1, 1, False), torch.nn.MaxPool1d(3, None, 1), [(1, 2, 7)])

    def test_avg_pool1d(self):
        for kw in [dict(kernel_size=2), dict(kernel_size=3, stride=2, padding=1, ceil_mode=True),
                   dict(kernel_size=3, stride=1, padding=1, count_include_pad=False)]:
            with self.subTest(**kw):
                self.check_layer(gnn.nn.AvgPool1d(**kw), torch.nn.AvgPool1d(**kw), [(2, 3, 9), (3, 8)])
        self.check_layer(Gnn.AvgPool1d.new(3, 2, 1, False, False), torch.nn.AvgPool1d(3, 2, 1, False, False),
                         [(1, 2, 7)])

    def test_adaptive_avg_pool1d(self):
        for size in (1, 3, 4, 9):
            with self.subTest(size=size):
                self.check_layer(gnn.nn.AdaptiveAvgPool1d(size), torch.nn.AdaptiveAvgPool1d(size),
                                 [(2, 3, 7), (3, 4)])
        self.check_layer(Gnn.AdaptiveAvgPool1d.new(2), torch.nn.AdaptiveAvgPool1d(2), [(1, 2, 5)])

    def test_errors(self):
        x4 = to_gnn(rand((1, 2, 3, 4)))
        for layer, words in [(gnn.nn.MaxPool1d(2), 'MaxPool1d: expected a 2-d'),
                             (gnn.nn.AvgPool1d(2), 'AvgPool1d: expected a 2-d'),
                             (gnn.nn.AdaptiveAvgPool1d(2), 'AdaptiveAvgPool1d: expected a 2-d')]:
            with self.assertRaisesRegex(GLib.Error, words + r'.*\[1, 2, 3, 4\]'):
                layer(x4)
        x = to_gnn(rand((1, 2, 5)))
        with self.assertRaisesRegex(GLib.Error, 'MaxPool1d: pad should be at most half of kernel size'):
            gnn.nn.MaxPool1d(2, padding=2)(x)
        with self.assertRaisesRegex(GLib.Error, 'MaxPool1d: kernel_size must have 1 value, got 2'):
            gnn.nn.MaxPool1d((2, 2))(x)
        with self.assertRaisesRegex(GLib.Error, 'AvgPool1d: kernel size, stride and dilation must lie in'):
            gnn.nn.AvgPool1d(2, stride=0)(x)
        for fn in (gnn.nn.functional.max_pool1d, gnn.nn.functional.avg_pool1d):
            with self.assertRaisesRegex(RuntimeError, 'stride should not be zero'):
                fn(x, 2, 0)
        with self.assertRaises(RuntimeError):
            torch.nn.functional.max_pool1d(torch.zeros(1, 2, 5), 2, 0)


class Dropout1dLayer(ParityTest):
    def test_channels(self):
        for p in (0.3, 0.5):
            m, tm = gnn.nn.Dropout1d(p), torch.nn.Dropout1d(p)
            self.assertEqual(repr(m), repr(tm))
            self.assertEqual(list(m.state_dict().keys()), [])
            gnn.manual_seed(1)
            for shape in ((20, 16, 5), (64, 5)):
                x = to_gnn(np.ones(shape, np.float64), requires_grad=True)
                y = m(x)
                got = to_np(y).reshape(-1, shape[-1])
                # whole rows kept (scaled by 1 / (1 - p)) or zeroed
                self.assertTrue(np.all((got == 0) | np.isclose(got, 1 / (1 - p))))
                self.assertTrue(np.all(got == got[:, :1]))
                kept = (got[:, 0] != 0).mean()
                self.assertLess(abs(kept - (1 - p)), 0.15)
                y.sum().backward()
                np.testing.assert_allclose(to_np(x.get_grad()), to_np(y))
            m.eval()
            x = to_gnn(rand((2, 3, 4)))
            np.testing.assert_array_equal(to_np(m(x)), to_np(x))

    def test_errors(self):
        with self.assertRaisesRegex(GLib.Error, 'Dropout1d: Expected 2D or 3D input, but received a 4D input'):
            gnn.nn.Dropout1d(0.5)(to_gnn(rand((1, 2, 3, 4))))
        with self.assertRaisesRegex(Exception, 'dropout probability has to be between 0 and 1, but got 1.5'):
            gnn.nn.Dropout1d(1.5)(to_gnn(rand((2, 3))))


if __name__ == '__main__':
    main()
