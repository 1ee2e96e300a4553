#!/usr/bin/python3
"""Convolution and pooling against torch 1.13: F.conv2d / F.conv1d through gnn's im2col + gemm, and the
modules Conv1d / Conv2d: outputs and the gradients of input, weight and bias in float32 and
float64 for batch 1, odd sizes, stride / padding / dilation / groups, unbatched input and
padding 'same' / 'valid'; printed forms; default-initialisation statistics. Max / average
pooling (functional and MaxPool2d / AvgPool2d): values, indices, gradients, padding,
dilation, ceil_mode, count_include_pad, divisor_override. Adaptive average pooling
(functional and AdaptiveAvgPool2d), including output sizes that do not divide the input.
Transposed convolution (F.conv_transpose2d, ConvTranspose2d) with stride, padding,
output_padding, dilation and groups."""

import math

from gnntest import Gnn, GLib, np, torch, to_gnn, to_np, rand, TOL, ParityTest, Input, main

F = torch.nn.functional
DTYPES = {np.float32: (Gnn.Dtype.FLOAT32, torch.float32), np.float64: (Gnn.Dtype.FLOAT64, torch.float64)}


def tol(dtype, fan_in):
    # Each output is a sum of fan_in = C/groups·kh·kw products (and the weight gradient a sum
    # over N·OH·OW), accumulated in another order than PyTorch's (OpenBLAS vs. mkldnn/thnn):
    # float32 rounding grows with the length of the sum, so the absolute bound does too.
    r, a = TOL[dtype]
    if dtype == np.float32:
        return 1e-4, max(a, 2e-6 * fan_in)
    return r, max(a, 1e-13 * fan_in)


def var(shape, low, high):
    return GLib.Variant('ax', list(shape)) if shape is not None else None


CASES = [
    # (N, C, H, W), O, (kh, kw), stride, padding, dilation, groups
    ((2, 3, 7, 6), 4, (3, 3), (1, 1), (0, 0), (1, 1), 1),
    ((1, 3, 5, 5), 2, (3, 2), (2, 1), (1, 0), (1, 1), 1),
    ((3, 4, 9, 8), 6, (3, 3), (2, 3), (2, 1), (2, 1), 2),
    ((2, 6, 5, 7), 6, (1, 3), (1, 2), (0, 3), (1, 2), 3),
    ((1, 1, 4, 4), 1, (4, 4), (1, 1), (0, 0), (1, 1), 1),
    ((2, 4, 6, 6), 8, (2, 2), (2, 2), (1, 1), (1, 1), 4),
]


class Conv2dFunctional(ParityTest):
    def test_cases(self):
        for dtype in (np.float32, np.float64):
            for k, (xs, o, ks, st, pad, dil, g) in enumerate(CASES):
                x = rand(xs, dtype, seed=k)
                w = rand((o, xs[1] // g) + ks, dtype, seed=k + 10)
                b = rand((o,), dtype, seed=k + 20)
                r, a = tol(dtype, xs[1] // g * ks[0] * ks[1] * xs[0] * xs[2] * xs[3])
                with self.subTest(case=k, dtype=dtype.__name__):
                    self.check_op(lambda x_, w_, b_: x_.conv2d(w_, b_, st, pad, dil, g),
                                  lambda x_, w_, b_: F.conv2d(x_, w_, b_, st, pad, dil, g),
                                  [x, w, b], rtol=r, atol=a, name='conv2d %d' % k)
                    self.check_op(lambda x_, w_: x_.conv2d(w_, None, st, pad, dil, g),
                                  lambda x_, w_: F.conv2d(x_, w_, None, st, pad, dil, g),
                                  [x, w], rtol=r, atol=a, name='conv2d no bias %d' % k)

    def test_unbatched_and_strided_input(self):
        x = rand((3, 6, 5), np.float64)
        w = rand((2, 3, 2, 3), np.float64, seed=3)
        self.check_op(lambda x_, w_: x_.conv2d(w_, None, [1, 1], [1, 1], [1, 1], 1),
                      lambda x_, w_: F.conv2d(x_, w_, None, 1, 1, 1, 1), [x, w])
        # a transposed (non-contiguous) input
        self.check_op(lambda x_, w_: x_.conv2d(w_, None, [2, 1], [0, 1], [1, 2], 1),
                      lambda x_, w_: F.conv2d(x_, w_, None, (2, 1), (0, 1), (1, 2), 1),
                      [Input(rand((2, 3, 6, 7), np.float64), 'tslice'), w])

    def test_conv1d(self):
        for dtype in (np.float32, np.float64):
            for k, (xs, o, ks, st, pad, dil, g) in enumerate(
                    [((2, 3, 11), 4, 3, 1, 0, 1, 1), ((1, 4, 9), 6, 2, 2, 3, 2, 2), ((5, 7), 2, 3, 1, 1, 1, 1)]):
                x = rand(xs, dtype, seed=k)
                w = rand((o, xs[-2] // g, ks), dtype, seed=k + 1)
                b = rand((o,), dtype, seed=k + 2)
                r, a = tol(dtype, 200)
                self.check_op(lambda x_, w_, b_: x_.conv1d(w_, b_, st, pad, dil, g),
                              lambda x_, w_, b_: F.conv1d(x_, w_, b_, st, pad, dil, g),
                              [x, w, b], rtol=r, atol=a, name='conv1d %d' % k)

    def test_errors(self):
        x = to_gnn(rand((2, 3, 5, 5)))
        with self.assertRaisesRegex(GLib.Error, r'conv2d: .*C = 4 channels, got shape \[2, 3, 5, 5\]'):
            x.conv2d(to_gnn(rand((2, 4, 3, 3))), None, [1, 1], [0, 0], [1, 1], 1)
        with self.assertRaisesRegex(GLib.Error, "Kernel size can't be greater"):
            x.conv2d(to_gnn(rand((2, 3, 7, 3))), None, [1, 1], [0, 0], [1, 1], 1)


def gnn_conv_like(tm, dims, padding=None):
    gdt = Gnn.Dtype.FLOAT64 if tm.weight.dtype == torch.float64 else Gnn.Dtype.FLOAT32
    cls = Gnn.Conv1d if dims == 1 else Gnn.Conv2d
    pad = GLib.Variant('s', padding) if isinstance(padding, str) else GLib.Variant('ax', list(tm.padding))
    m = cls(in_channels=tm.in_channels, out_channels=tm.out_channels,
            kernel_size=GLib.Variant('ax', list(tm.kernel_size)), stride=GLib.Variant('ax', list(tm.stride)),
            padding=pad, dilation=GLib.Variant('ax', list(tm.dilation)), groups=tm.groups,
            bias=tm.bias is not None, dtype=gdt)
    with Gnn.no_grad():
        m.weight.copy_(to_gnn(tm.weight.detach().numpy()))
        if tm.bias is not None:
            m.bias.copy_(to_gnn(tm.bias.detach().numpy()))
    return m


class ConvModules(ParityTest):
    def test_conv2d_module(self):
        for dtype in (np.float32, np.float64):
            tdt = DTYPES[dtype][1]
            for kw in [dict(kernel_size=3, padding=1), dict(kernel_size=(2, 3), stride=2, dilation=(1, 2), groups=2),
                       dict(kernel_size=3, padding='same', dilation=2), dict(kernel_size=(2, 4), padding='same'),
                       dict(kernel_size=3, padding='valid', bias=False)]:
                torch.manual_seed(0)
                tm = torch.nn.Conv2d(4, 6, dtype=tdt, **kw)
                gm = gnn_conv_like(tm, 2, kw.get('padding') if isinstance(kw.get('padding'), str) else None)
                self.assertEqual(gm.to_string(), repr(tm))
                r, a = tol(dtype, 2000)
                ins = [rand((2, 4, 7, 8), dtype)]
                got = self.check_op(lambda x_: gm(x_), lambda x_: tm(x_), ins, rtol=r, atol=a, name=str(kw))
                tm.zero_grad()
                want = tm(torch.from_numpy(ins[0]))
                want.backward(torch.from_numpy(rand(tuple(want.shape), dtype, seed=101)))
                self.assert_close(to_np(gm.weight.get_grad()), tm.weight.grad.numpy(), r, a, 'weight grad')
                if tm.bias is not None:
                    self.assert_close(to_np(gm.bias.get_grad()), tm.bias.grad.numpy(), r, a, 'bias grad')
                # unbatched
                self.check_op(lambda x_: gm(x_), lambda x_: tm(x_), [rand((4, 5, 6), dtype)], grad=False,
                              rtol=r, atol=a)

    def test_conv1d_module(self):
        for kw in [dict(kernel_size=3), dict(kernel_size=4, padding='same', dilation=3),
                   dict(kernel_size=2, stride=3, padding=2, groups=2, bias=False)]:
            torch.manual_seed(1)
            tm = torch.nn.Conv1d(4, 2, dtype=torch.float64, **kw)
            gm = gnn_conv_like(tm, 1, kw.get('padding') if isinstance(kw.get('padding'), str) else None)
            self.assertEqual(gm.to_string(), repr(tm))
            self.check_op(lambda x_: gm(x_), lambda x_: tm(x_), [rand((3, 4, 10), np.float64)], name=str(kw))

    def test_repr(self):
        m = Gnn.Conv2d.new(3, 8, [3, 3], None, [1, 1], None, 1, True, Gnn.Dtype.FLOAT32)
        self.assertEqual(m.to_string(), 'Conv2d(3, 8, kernel_size=(3, 3), stride=(1, 1), padding=(1, 1))')
        self.assertEqual(m.to_string(), repr(torch.nn.Conv2d(3, 8, 3, padding=1)))
        m = Gnn.Conv1d.new(4, 6, 5, 2, 0, 3, 2, False, Gnn.Dtype.FLOAT32)
        self.assertEqual(m.to_string(), repr(torch.nn.Conv1d(4, 6, 5, 2, 0, 3, 2, False)))

    def test_shape_error_names_layer(self):
        m = Gnn.Conv2d.new(3, 8, [3, 3], None, None, None, 1, True, Gnn.Dtype.FLOAT32)
        with self.assertRaisesRegex(GLib.Error, r'Conv2d: .*C = 3 channels, got shape \[2, 5, 8, 8\]'):
            m(to_gnn(rand((2, 5, 8, 8))))
        with self.assertRaisesRegex(GLib.Error, 'Conv2d: padding=.same. is not supported for strided'):
            Gnn.Conv2d(in_channels=2, out_channels=2, kernel_size=GLib.Variant('ax', [3]),
                       stride=GLib.Variant('ax', [2]), padding=GLib.Variant('s', 'same'))(to_gnn(rand((1, 2, 5, 5))))

    def test_default_init(self):
        # kaiming_uniform_ (a=√5) gives U(-1/√fan_in, 1/√fan_in), as does the bias
        m = Gnn.Conv2d.new(16, 32, [3, 5], None, None, None, 2, True, Gnn.Dtype.FLOAT64)
        fan_in = 16 // 2 * 3 * 5
        bound = 1 / math.sqrt(fan_in)
        w = to_np(m.weight)
        self.assertEqual(w.shape, (32, 8, 3, 5))
        self.assertLessEqual(np.abs(w).max(), bound)
        self.assertGreater(np.abs(w).max(), 0.95 * bound)
        self.assertAlmostEqual(w.mean(), 0.0, delta=0.05 * bound)
        self.assertAlmostEqual(w.std(), bound / math.sqrt(3), delta=0.05 * bound)
        self.assertLessEqual(np.abs(to_np(m.bias)).max(), bound)
        self.assertEqual(tuple(m.bias.shape), (32,))


POOLS = [
    # (N, C, H, W) or (C, H, W), kernel, stride (None: kernel), padding, dilation, ceil_mode
    ((2, 3, 7, 8), (2, 2), None, (0, 0), (1, 1), False),
    ((1, 2, 9, 7), (3, 2), (2, 1), (1, 1), (2, 1), True),
    ((3, 5, 6), (3, 3), (2, 2), (1, 0), (1, 1), True),
    ((1, 1, 5, 5), (5, 5), (1, 1), (2, 2), (1, 1), False),
]


class Pooling(ParityTest):
    def test_max_pool2d(self):
        for dtype in (np.float32, np.float64):
            for k, (xs, ks, st, pad, dil, cm) in enumerate(POOLS):
                x = rand(xs, dtype, seed=k)
                # the max of a window is one of its elements: exact in float32 too
                self.check_op(lambda x_: x_.max_pool2d(ks, st, pad, dil, cm)[0],
                              lambda x_: F.max_pool2d(x_, ks, st, pad, dil, cm), [x], name='max_pool2d %d' % k)
                got, idx = to_gnn(x).max_pool2d(ks, st, pad, dil, cm)
                want, widx = F.max_pool2d(torch.from_numpy(x), ks, st, pad, dil, cm, return_indices=True)
                np.testing.assert_array_equal(to_np(idx), widx.numpy())

    def test_max_pool2d_ties_and_nan(self):
        x = np.zeros((1, 1, 4, 4))
        x[0, 0, 1, 2] = np.nan
        got, idx = to_gnn(x).max_pool2d([2, 2], None, None, None, False)
        want, widx = F.max_pool2d(torch.from_numpy(x), 2, return_indices=True)
        np.testing.assert_array_equal(to_np(idx), widx.numpy())
        np.testing.assert_array_equal(to_np(got), want.numpy())

    def test_avg_pool2d(self):
        for dtype in (np.float32, np.float64):
            for k, (xs, ks, st, pad, _, cm) in enumerate(POOLS):
                pad = (min(pad[0], ks[0] // 2), min(pad[1], ks[1] // 2))
                for cip in (True, False):
                    for dov in (0, 3):
                        x = rand(xs, dtype, seed=k)
                        self.check_op(lambda x_: x_.avg_pool2d(ks, st, pad, cm, cip, dov),
                                      lambda x_: F.avg_pool2d(x_, ks, st, pad, cm, cip, dov or None), [x],
                                      rtol=1e-5 if dtype == np.float32 else None, atol=None,
                                      name='avg_pool2d %d %s %d' % (k, cip, dov))

    def test_modules(self):
        for kw in [dict(kernel_size=2), dict(kernel_size=(3, 2), stride=(2, 1), padding=1, dilation=(2, 1), ceil_mode=True)]:
            tm = torch.nn.MaxPool2d(**kw)
            gm = Gnn.MaxPool2d(**{k.replace('_', '-'): (GLib.Variant('ax', list(v) if isinstance(v, tuple) else [v])
                                                        if k != 'ceil_mode' else v) for k, v in kw.items()})
            self.assertEqual(gm.to_string(), repr(tm))
            self.check_op(lambda x_: gm(x_), lambda x_: tm(x_), [rand((2, 3, 9, 8), np.float64)])
        for kw in [dict(kernel_size=3), dict(kernel_size=(3, 2), stride=2, padding=(1, 1), ceil_mode=True,
                                              count_include_pad=False, divisor_override=2)]:
            tm = torch.nn.AvgPool2d(**kw)
            props = {}
            for k, v in kw.items():
                if k in ('kernel_size', 'stride', 'padding'):
                    props[k.replace('_', '-')] = GLib.Variant('ax', list(v) if isinstance(v, tuple) else [v])
                else:
                    props[k.replace('_', '-')] = v
            gm = Gnn.AvgPool2d(**props)
            self.assertEqual(gm.to_string(), repr(tm))
            self.check_op(lambda x_: gm(x_), lambda x_: tm(x_), [rand((3, 9, 8), np.float64)])
        self.assertEqual(Gnn.MaxPool2d.new([2, 2], None, None, None, False).to_string(),
                         repr(torch.nn.MaxPool2d((2, 2))))
        self.assertEqual(Gnn.AvgPool2d.new([2, 3], [1, 1], [1, 1], False, True, 0).to_string(),
                         repr(torch.nn.AvgPool2d((2, 3), (1, 1), (1, 1))))

    def test_max_pool2d_return_indices(self):
        x = rand((2, 3, 7, 6), np.float32, seed=21)
        g = Gnn.MaxPool2d(kernel_size=GLib.Variant('ax', [3, 2]), return_indices=True)
        t = torch.nn.MaxPool2d((3, 2), return_indices=True)
        gv, gi = g(to_gnn(x))
        tv, ti = t(torch.from_numpy(x))
        np.testing.assert_array_equal(gv.numpy(), tv.numpy())
        np.testing.assert_array_equal(gi.numpy(), ti.numpy())
        self.assertEqual(repr(g), repr(t))

    def test_errors(self):
        m = Gnn.MaxPool2d(kernel_size=GLib.Variant('ax', [2]))
        with self.assertRaisesRegex(GLib.Error, r'MaxPool2d: expected a 3-d .* got shape \[4, 4\]'):
            m(to_gnn(rand((4, 4))))
        with self.assertRaisesRegex(GLib.Error, 'AvgPool2d: pad should be smaller than or equal to half'):
            Gnn.AvgPool2d(kernel_size=GLib.Variant('ax', [2]), padding=GLib.Variant('ax', [2]))(to_gnn(rand((1, 4, 4))))
        with self.assertRaisesRegex(GLib.Error, 'max_pool2d: Given input size: .*Output size is too small'):
            to_gnn(rand((1, 2, 2))).max_pool2d([3, 3], None, None, None, False)


class AdaptivePooling(ParityTest):
    def test_functional(self):
        for dtype in (np.float32, np.float64):
            for xs, size in [((2, 3, 7, 8), (3, 5)), ((1, 2, 5, 5), (5, 5)), ((3, 9, 4), (1, 1)),
                             ((2, 1, 4, 10), (7, 3)), ((1, 2, 6, 5), (-1, 2))]:
                x = rand(xs, dtype)
                tsize = tuple(None if v < 0 else v for v in size)
                self.check_op(lambda x_: x_.adaptive_avg_pool2d(size),
                              lambda x_: F.adaptive_avg_pool2d(x_, tsize), [x], name='adaptive %s' % (size,))

    def test_module(self):
        for size in [(5, 7), 1, (None, 3)]:
            tm = torch.nn.AdaptiveAvgPool2d(size)
            vals = list(size) if isinstance(size, tuple) else [size]
            gm = Gnn.AdaptiveAvgPool2d(output_size=GLib.Variant('ax', [-1 if v is None else v for v in vals]))
            self.assertEqual(gm.to_string(), repr(tm))
            self.check_op(lambda x_: gm(x_), lambda x_: tm(x_), [rand((2, 3, 11, 9), np.float64)])
        with self.assertRaisesRegex(GLib.Error, r'AdaptiveAvgPool2d: expected a 3-d .* got shape \[2, 3\]'):
            Gnn.AdaptiveAvgPool2d.new([2, 2])(to_gnn(rand((2, 3))))


TRANSPOSED = [
    # (N, C_in, H, W), O, (kh, kw), stride, padding, output_padding, groups, dilation
    ((2, 4, 5, 6), 6, (3, 2), (2, 1), (1, 0), (1, 0), 2, (1, 2)),
    ((3, 5, 4), 4, (2, 2), (1, 1), (0, 0), (0, 0), 1, (1, 1)),
    ((1, 2, 3, 3), 3, (3, 3), (3, 2), (1, 1), (2, 1), 1, (1, 1)),
    ((2, 3, 4, 4), 3, (1, 1), (1, 1), (0, 0), (0, 0), 3, (1, 1)),
]


class ConvTranspose(ParityTest):
    def test_functional(self):
        for dtype in (np.float32, np.float64):
            for k, (xs, o, ks, st, pad, op, g, dil) in enumerate(TRANSPOSED):
                x = rand(xs, dtype, seed=k)
                w = rand((xs[-3], o // g) + ks, dtype, seed=k + 10)
                b = rand((o,), dtype, seed=k + 20)
                r, a = tol(dtype, 2000)
                self.check_op(lambda x_, w_, b_: x_.conv_transpose2d(w_, b_, st, pad, op, g, dil),
                              lambda x_, w_, b_: F.conv_transpose2d(x_, w_, b_, st, pad, op, g, dil),
                              [x, w, b], rtol=r, atol=a, name='conv_transpose2d %d' % k)

    def test_module(self):
        for kw in [dict(kernel_size=3, stride=2, padding=1, output_padding=1),
                   dict(kernel_size=(2, 3), groups=2, dilation=(2, 1), bias=False)]:
            torch.manual_seed(0)
            tm = torch.nn.ConvTranspose2d(4, 6, dtype=torch.float64, **kw)
            gm = Gnn.ConvTranspose2d(
                in_channels=4, out_channels=6, kernel_size=GLib.Variant('ax', list(tm.kernel_size)),
                stride=GLib.Variant('ax', list(tm.stride)), padding=GLib.Variant('ax', list(tm.padding)),
                output_padding=GLib.Variant('ax', list(tm.output_padding)),
                dilation=GLib.Variant('ax', list(tm.dilation)), groups=tm.groups, bias=tm.bias is not None,
                dtype=Gnn.Dtype.FLOAT64)
            with Gnn.no_grad():
                gm.weight.copy_(to_gnn(tm.weight.detach().numpy()))
                if tm.bias is not None:
                    gm.bias.copy_(to_gnn(tm.bias.detach().numpy()))
            self.assertEqual(gm.to_string(), repr(tm))
            self.check_op(lambda x_: gm(x_), lambda x_: tm(x_), [rand((2, 4, 5, 4), np.float64)])
        m = Gnn.ConvTranspose2d.new(3, 8, [3, 3], [2, 2], None, [1, 1], 1, True, None, Gnn.Dtype.FLOAT32)
        self.assertEqual(m.to_string(), repr(torch.nn.ConvTranspose2d(3, 8, 3, 2, output_padding=1)))
        # default init: fan_in of the (C_in, C_out / groups, kh, kw) weight is C_out / groups · kh · kw
        bound = 1 / math.sqrt(8 * 9)
        self.assertLessEqual(np.abs(to_np(m.weight)).max(), bound)
        self.assertGreater(np.abs(to_np(m.weight)).max(), 0.9 * bound)
        self.assertLessEqual(np.abs(to_np(m.bias)).max(), bound)
        with self.assertRaisesRegex(GLib.Error, r'ConvTranspose2d: .*C = 3 channels, got shape \[1, 4, 5, 5\]'):
            m(to_gnn(rand((1, 4, 5, 5))))


if __name__ == '__main__':
    main()
