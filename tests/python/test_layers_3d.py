#!/usr/bin/python3
"""The 3-d layers against torch 1.13, with torch's weights copied in: Conv3d (stride, padding
as numbers, 'same' (also with an odd total, padded at the end) and 'valid', dilation, groups,
bias, the padding modes zeros / reflect / replicate / circular, unbatched input),
ConvTranspose3d (stride, padding, output_padding, groups, dilation), MaxPool3d (kernel,
stride, padding, dilation, ceil_mode, return_indices: values and indices), AvgPool3d
(ceil_mode, count_include_pad, divisor_override), AdaptiveAvgPool3d (None in the output
size), BatchNorm3d (training and eval, running statistics, momentum None) and Dropout3d:
outputs and the gradients of input, weight and bias, the functional forms, printed forms,
state-dict keys and the errors of bad shapes."""

import warnings

import numpy as np
import torch

from gnntest import Gnn, to_gnn, to_np, rand, TOL, ParityTest, main

import gnn
from gnn import nn

F = torch.nn.functional
# torch's note that its own 'same' with an even kernel copies the input: not about gnn
warnings.filterwarnings('ignore', message="Using padding='same'")
GF = gnn.nn.functional


def tol(dtype, fan_in=1):
    # float32: a convolution's output sums fan_in products in another order than torch's
    # (OpenBLAS vs. mkldnn): the absolute bound grows with the length of the sum
    r, a = TOL[dtype]
    if dtype == np.float32:
        return 1e-4, max(a, 2e-6 * fan_in)
    return r, max(a, 1e-13 * fan_in)


class Layers3d(ParityTest):
    def run_pair(self, gm, tm, x, rtol, atol, what, grad=True, copy=True, outputs=1):
        """forward of both on x, then backward of the same upstream gradient: output, the
        gradient of the input and of every parameter compared"""
        if copy:
            gm.load_state_dict({k: v.detach().clone() for k, v in tm.state_dict().items()})
        tx = torch.from_numpy(x.copy()).requires_grad_(grad)
        gx = to_gnn(x, grad)
        want, got = tm(tx), gm(gx)
        if outputs == 2:
            self.assert_close(to_np(got[1]), want[1].numpy(), 0, 0, what + ' indices')
            want, got = want[0], got[0]
        self.assert_close(to_np(got), want.detach().numpy(), rtol, atol, what + ' output')
        if not grad:
            return got
        up = rand(tuple(want.shape), x.dtype, seed=99)
        want.backward(torch.from_numpy(up))
        got.backward(to_gnn(up), False)
        self.assert_close(to_np(gx.get_grad()), tx.grad.numpy(), rtol, atol, what + ' grad input')
        gparams = dict(gm.named_parameters())
        for name, tp in tm.named_parameters():
            self.assert_close(to_np(gparams[name].get_grad()), tp.grad.numpy(), rtol, atol,
                              '%s grad %s' % (what, name))
        return got

    def test_conv3d(self):
        cases = [
            # in, out, kernel, stride, padding, dilation, groups, bias, padding_mode, input shape
            (3, 4, 3, 1, 0, 1, 1, True, 'zeros', (2, 3, 5, 6, 4)),
            (2, 4, (2, 3, 1), (2, 1, 2), (1, 0, 1), (1, 2, 1), 2, True, 'zeros', (2, 2, 5, 7, 5)),
            (4, 2, 3, 1, 'same', 1, 1, False, 'zeros', (1, 4, 4, 5, 3)),
            (3, 3, (3, 2, 3), 1, 'same', (2, 1, 1), 3, True, 'zeros', (2, 3, 6, 4, 5)),
            (2, 3, 3, 1, 'valid', 1, 1, True, 'zeros', (2, 2, 4, 4, 4)),
            (2, 3, 3, 2, 1, 1, 1, True, 'reflect', (2, 2, 5, 6, 4)),
            (2, 3, (2, 3, 2), 1, (1, 1, 0), 1, 1, True, 'replicate', (1, 2, 4, 5, 3)),
            (2, 4, 3, (1, 2, 1), (1, 2, 1), 1, 2, True, 'circular', (2, 2, 4, 6, 5)),
            (2, 3, 2, 1, 'same', 1, 1, True, 'reflect', (2, 2, 4, 5, 3)),
            (3, 2, 2, 1, 1, 1, 1, True, 'zeros', (3, 4, 5, 3)),     # unbatched
        ]
        for dtype in (np.float64, np.float32):
            for k, (ci, co, ks, st, pad, dil, g, bias, mode, shape) in enumerate(cases):
                kw = dict(stride=st, padding=pad, dilation=dil, groups=g, bias=bias, padding_mode=mode)
                tdt = torch.float64 if dtype == np.float64 else torch.float32
                torch.manual_seed(k)
                tm = torch.nn.Conv3d(ci, co, ks, dtype=tdt, **kw)
                gm = nn.Conv3d(ci, co, ks, dtype=tdt, **kw)
                self.assertEqual(gm.to_string(), repr(tm))
                self.assertEqual(list(gm.state_dict().keys()), list(tm.state_dict().keys()))
                kvol = int(np.prod(tm.weight.shape[1:]))
                r, a = tol(dtype, kvol * int(np.prod(shape)) // ci)
                with self.subTest(case=k, dtype=dtype.__name__):
                    self.run_pair(gm, tm, rand(shape, dtype, seed=k), r, a, 'Conv3d %d' % k)

    def test_conv_transpose3d(self):
        cases = [
            # in, out, kernel, stride, padding, output_padding, groups, bias, dilation, input shape
            (3, 2, 3, 1, 0, 0, 1, True, 1, (2, 3, 3, 4, 2)),
            (4, 6, (2, 3, 2), (2, 1, 2), (1, 0, 1), (1, 0, 0), 2, True, (1, 2, 1), (2, 4, 3, 3, 4)),
            (2, 2, 2, 2, 0, 1, 1, False, 2, (1, 2, 2, 3, 2)),
            (3, 3, (1, 2, 3), (3, 2, 1), (0, 1, 1), (2, 1, 0), 3, True, 1, (2, 3, 2, 3, 3)),
            (2, 3, 2, 2, 0, 0, 1, True, 1, (2, 3, 2, 2)),           # unbatched
        ]
        for dtype in (np.float64, np.float32):
            for k, (ci, co, ks, st, pad, opad, g, bias, dil, shape) in enumerate(cases):
                kw = dict(stride=st, padding=pad, output_padding=opad, groups=g, bias=bias, dilation=dil)
                tdt = torch.float64 if dtype == np.float64 else torch.float32
                torch.manual_seed(k)
                tm = torch.nn.ConvTranspose3d(ci, co, ks, dtype=tdt, **kw)
                gm = nn.ConvTranspose3d(ci, co, ks, dtype=tdt, **kw)
                self.assertEqual(gm.to_string(), repr(tm))
                self.assertEqual(list(gm.state_dict().keys()), list(tm.state_dict().keys()))
                r, a = tol(dtype, int(np.prod(tm.weight.shape)) * int(np.prod(shape)) // ci)
                with self.subTest(case=k, dtype=dtype.__name__):
                    self.run_pair(gm, tm, rand(shape, dtype, seed=k), r, a, 'ConvTranspose3d %d' % k)

    def test_max_pool3d(self):
        cases = [
            # kernel, stride, padding, dilation, ceil_mode, return_indices, input shape
            (2, None, 0, 1, False, False, (2, 3, 6, 5, 4)),
            ((3, 2, 2), (2, 1, 2), (1, 1, 0), (1, 2, 1), True, True, (2, 2, 7, 6, 5)),
            (3, 2, 1, 1, True, True, (1, 3, 5, 5, 6)),
            ((2, 2, 3), 1, 0, (2, 1, 1), False, True, (2, 4, 5, 3)),   # unbatched
        ]
        for dtype in (np.float64, np.float32):
            for k, (ks, st, pad, dil, ceil, ret, shape) in enumerate(cases):
                kw = dict(stride=st, padding=pad, dilation=dil, ceil_mode=ceil, return_indices=ret)
                tm, gm = torch.nn.MaxPool3d(ks, **kw), nn.MaxPool3d(ks, **kw)
                self.assertEqual(gm.to_string(), repr(tm))
                self.assertEqual(list(gm.state_dict().keys()), [])
                with self.subTest(case=k, dtype=dtype.__name__):
                    # distinct values: no ties, so both pick the same maxima
                    x = rand(shape, dtype, seed=k)
                    self.run_pair(gm, tm, x, *TOL[dtype], 'MaxPool3d %d' % k, copy=False,
                                  outputs=2 if ret else 1)

    def test_avg_pool3d(self):
        cases = [
            # kernel, stride, padding, ceil_mode, count_include_pad, divisor_override, input shape
            (2, None, 0, False, True, None, (2, 3, 6, 5, 4)),
            ((3, 2, 3), (2, 1, 2), (1, 1, 1), True, False, None, (2, 2, 7, 6, 5)),
            (3, 2, 1, True, True, 5, (1, 3, 5, 5, 6)),
            ((2, 3, 2), 1, (1, 1, 0), False, True, 7, (2, 4, 5, 3)),   # unbatched
            (3, 2, 1, True, False, None, (2, 2, 4, 6, 5)),
        ]
        for dtype in (np.float64, np.float32):
            for k, (ks, st, pad, ceil, cip, div, shape) in enumerate(cases):
                kw = dict(stride=st, padding=pad, ceil_mode=ceil, count_include_pad=cip, divisor_override=div)
                tm, gm = torch.nn.AvgPool3d(ks, **kw), nn.AvgPool3d(ks, **kw)
                self.assertEqual(gm.to_string(), repr(tm))
                with self.subTest(case=k, dtype=dtype.__name__):
                    self.run_pair(gm, tm, rand(shape, dtype, seed=k), *TOL[dtype], 'AvgPool3d %d' % k, copy=False)

    def test_adaptive_avg_pool3d(self):
        for dtype in (np.float64, np.float32):
            for k, size in enumerate([(2, 3, 2), (None, 2, 1), 1, (3, None, None), (4, 5, 3)]):
                tm, gm = torch.nn.AdaptiveAvgPool3d(size), nn.AdaptiveAvgPool3d(size)
                self.assertEqual(gm.to_string(), repr(tm))
                for shape in [(2, 3, 5, 7, 4), (3, 6, 5, 3)]:
                    with self.subTest(size=size, shape=shape, dtype=dtype.__name__):
                        self.run_pair(gm, tm, rand(shape, dtype, seed=k), *TOL[dtype],
                                      'AdaptiveAvgPool3d %s' % (size,), copy=False)

    def test_adaptive_max_pool3d(self):
        for dtype in (np.float64, np.float32):
            for k, size in enumerate([(2, 3, 2), (None, 2, 1), 1, (4, 5, 3)]):
                for ret in (False, True):
                    tm = torch.nn.AdaptiveMaxPool3d(size, return_indices=ret)
                    gm = nn.AdaptiveMaxPool3d(size, return_indices=ret)
                    self.assertEqual(gm.to_string(), repr(tm))
                    for shape in [(2, 3, 5, 7, 4), (3, 6, 5, 3)]:
                        with self.subTest(size=size, shape=shape, ret=ret, dtype=dtype.__name__):
                            self.run_pair(gm, tm, rand(shape, dtype, seed=k), *TOL[dtype],
                                          'AdaptiveMaxPool3d %s' % (size,), copy=False, outputs=2 if ret else 1)
        x = rand((2, 3, 5, 6, 4), np.float64, seed=3)
        self.check_op(lambda x_: GF.adaptive_max_pool3d(x_, (3, None, 2)),
                      lambda x_: F.adaptive_max_pool3d(x_, (3, None, 2)), [x], name='adaptive_max_pool3d')
        gout, gidx = GF.adaptive_max_pool3d(to_gnn(x), 2, True)
        tout, tidx = F.adaptive_max_pool3d(torch.from_numpy(x), 2, True)
        np.testing.assert_array_equal(to_np(gidx), tidx.numpy())

    def test_batch_norm3d(self):
        for dtype in (np.float64, np.float32):
            tdt = torch.float64 if dtype == np.float64 else torch.float32
            r, a = (1e-4, 1e-5) if dtype == np.float32 else TOL[dtype]   # a mean over N·D·H·W = 240
            for momentum in (0.1, None):
                tm = torch.nn.BatchNorm3d(3, momentum=momentum, dtype=tdt)
                gm = nn.BatchNorm3d(3, momentum=momentum, dtype=tdt)
                with torch.no_grad():
                    tm.weight.uniform_(0.5, 1.5)
                    tm.bias.uniform_(-0.5, 0.5)
                self.assertEqual(gm.to_string(), repr(tm))
                self.assertEqual(list(gm.state_dict().keys()), list(tm.state_dict().keys()))
                gm.load_state_dict({k: v.detach().clone() for k, v in tm.state_dict().items()})
                for step in range(2):
                    self.run_pair(gm, tm, rand((2, 3, 4, 5, 6), dtype, seed=step), r, a,
                                  'BatchNorm3d train %s' % momentum, copy=False)
                    tm.zero_grad()
                    gm.zero_grad()
                gsd = gm.state_dict()
                for key, v in tm.state_dict().items():
                    self.assert_close(to_np(gsd[key]), v.numpy(), r, a, 'BatchNorm3d %s' % key)
                tm.eval()
                gm.eval()
                self.run_pair(gm, tm, rand((2, 3, 3, 2, 4), dtype, seed=5), r, a, 'BatchNorm3d eval', copy=False)

    def test_dropout3d(self):
        x = np.ones((4, 6, 2, 3, 2))
        d = nn.Dropout3d(0.5)
        self.assertEqual(d.to_string(), repr(torch.nn.Dropout3d(0.5)))
        gnn.manual_seed(1)
        y = to_np(d(to_gnn(x)))
        per_channel = y.reshape(24, -1)
        self.assertTrue(np.all(per_channel == per_channel[:, :1]))          # whole volumes
        self.assertTrue(set(np.unique(per_channel)) <= {0.0, 2.0})          # zeroed or scaled by 1 / (1 - p)
        self.assertTrue(0 < np.count_nonzero(per_channel[:, 0]) < 24)
        y4 = to_np(GF.dropout3d(to_gnn(np.ones((8, 2, 3, 2))), 0.5)).reshape(8, -1)
        self.assertTrue(np.all(y4 == y4[:, :1]))                             # unbatched: per channel
        d.eval()
        np.testing.assert_array_equal(to_np(d(to_gnn(x))), x)
        np.testing.assert_array_equal(to_np(GF.dropout3d(to_gnn(x), 0.5, training=False)), x)
        np.testing.assert_array_equal(to_np(GF.dropout3d(to_gnn(x), 1.0)), 0 * x)
        with self.assertRaises(Exception):
            nn.Dropout3d(1.5)

    def test_functional(self):
        x = rand((2, 4, 5, 6, 6), np.float64, seed=1)
        w = rand((6, 2, 2, 3, 3), np.float64, seed=2)
        b = rand((6,), np.float64, seed=3)
        wt = rand((4, 3, 2, 3, 2), np.float64, seed=4)
        for padding in ('same', 'valid', (1, 0, 2), 1):
            self.check_op(lambda x_, w_, b_: GF.conv3d(x_, w_, b_, 1, padding, (1, 2, 1), 2),
                          lambda x_, w_, b_: F.conv3d(x_, w_, b_, 1, padding, (1, 2, 1), 2),
                          [x, w, b], name='conv3d %s' % (padding,))
        self.check_op(lambda x_, w_, b_: GF.conv3d(x_, w_, b_, (2, 1, 2), 1, 1, 2),
                      lambda x_, w_, b_: F.conv3d(x_, w_, b_, (2, 1, 2), 1, 1, 2), [x, w, b], name='conv3d strided')
        self.check_op(lambda x_, w_: GF.conv_transpose3d(x_, w_, None, 2, 1, (1, 0, 1), 2, 1),
                      lambda x_, w_: F.conv_transpose3d(x_, w_, None, 2, 1, (1, 0, 1), 2, 1), [x, wt],
                      name='conv_transpose3d')
        self.check_op(lambda x_: GF.max_pool3d(x_, 3, 2, 1, 1, True),
                      lambda x_: F.max_pool3d(x_, 3, 2, 1, 1, True), [x], name='max_pool3d')
        gout, gidx = GF.max_pool3d(to_gnn(x), (2, 3, 2), 1, (1, 1, 0), (2, 1, 1), False, True)
        tout, tidx = F.max_pool3d(torch.from_numpy(x), (2, 3, 2), 1, (1, 1, 0), (2, 1, 1), False, True)
        np.testing.assert_array_equal(to_np(gidx), tidx.numpy())
        self.assert_close(to_np(gout), tout.numpy(), 0, 0, 'max_pool3d return_indices')
        self.check_op(lambda x_: GF.avg_pool3d(x_, 3, 2, 1, True, False, 4),
                      lambda x_: F.avg_pool3d(x_, 3, 2, 1, True, False, 4), [x], name='avg_pool3d')
        self.check_op(lambda x_: GF.adaptive_avg_pool3d(x_, (3, None, 4)),
                      lambda x_: F.adaptive_avg_pool3d(x_, (3, None, 4)), [x], name='adaptive_avg_pool3d')
        self.check_op(lambda x_: GF.dropout3d(x_, 0.3, training=False),
                      lambda x_: F.dropout3d(x_, 0.3, training=False), [x], name='dropout3d eval')
        with self.assertRaises(Exception):
            GF.avg_pool3d(to_gnn(x), 2, divisor_override=0)

    def test_errors(self):
        def message(fn):
            with self.assertRaises(Exception) as cm:
                fn()
            return str(cm.exception)
        x4 = to_gnn(rand((3, 4, 5), np.float32))
        self.assertIn('expected a 4-d (C, D, H, W) or 5-d (N, C, D, H, W) input, got shape [3, 4, 5]',
                      message(lambda: nn.MaxPool3d(2)(x4)))
        self.assertIn('expected 5D input (got 4D input)',
                      message(lambda: nn.BatchNorm3d(3)(to_gnn(rand((3, 2, 2, 2), np.float32)))))
        self.assertIn('input with C = 3 channels, got shape [1, 2, 4, 4, 4]',
                      message(lambda: nn.Conv3d(3, 2, 2)(to_gnn(rand((1, 2, 4, 4, 4), np.float32)))))
        self.assertIn('expected a 5-d weight',
                      message(lambda: GF.conv3d(to_gnn(rand((1, 2, 4, 4, 4), np.float32)),
                                                to_gnn(rand((2, 2, 3, 3), np.float32)))))
        self.assertIn('pad should be smaller than or equal to half of kernel size',
                      message(lambda: GF.max_pool3d(to_gnn(rand((1, 1, 4, 4, 4), np.float32)), 2, 1, 2)))
        self.assertIn("Kernel size can't be greater than actual input size",
                      message(lambda: nn.Conv3d(1, 1, 5)(to_gnn(rand((1, 1, 4, 4, 4), np.float32)))))
        self.assertIn('output padding must be smaller than either stride or dilation',
                      message(lambda: nn.ConvTranspose3d(1, 1, 2, stride=1, output_padding=1)))
        self.assertIn('padding_mode must be one of',
                      message(lambda: nn.Conv3d(1, 1, 2, padding_mode='mirror')))


if __name__ == '__main__':
    main()
