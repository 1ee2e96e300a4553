#!/usr/bin/python3
"""More torch.nn layers against torch 1.13 (gnn-layers-more.c): each built with torch's
arguments, its printed form, state-dict keys and buffers, outputs and input / weight
gradients with copied weights, a float64 gradcheck of gnn's own gradient against finite
differences, its functional form, and the errors of inputs it cannot take."""

from gnntest import Gnn, GLib, np, torch, rand, to_gnn, to_np, ParityTest, main

import gnn
import gnn.nn.functional as F
import torch.nn.functional as TF


def gradcheck(test, fn, array, eps=1e-6, seed=3, name=''):
    """gnn's gradient of sum (fn (x) * w) for a float64 x against central differences"""
    x = to_gnn(array, requires_grad=True)
    out = fn(x)
    w = rand(tuple(out.shape), np.float64, seed=seed)
    (out * to_gnn(w)).sum().backward()
    analytic = to_np(x.get_grad()).reshape(-1)
    numeric = np.zeros(array.size)
    for i in range(array.size):
        plus, minus = array.copy(), array.copy()
        plus.reshape(-1)[i] += eps
        minus.reshape(-1)[i] -= eps
        with gnn.no_grad():
            numeric[i] = ((to_np(fn(to_gnn(plus))) * w).sum() - (to_np(fn(to_gnn(minus))) * w).sum()) / (2 * eps)
    np.testing.assert_allclose(analytic, numeric, rtol=1e-5, atol=1e-7, err_msg=name + ': gradcheck')


def copy_state(gm, tm):
    """torch's parameters and buffers into gnn's layer, by state-dict key"""
    state = {k: gnn.tensor(v.detach().numpy().copy()) for k, v in tm.state_dict().items()}
    gm.load_state_dict(state)


class LayerTest(ParityTest):
    def check_layer(self, name, args, kwargs, shape, dtypes=(np.float32, np.float64), check_grad=True,
                    torch_fn=None, rtol=None, atol=None):
        gm = getattr(gnn.nn, name)(*args, **kwargs)
        tm = getattr(torch.nn, name)(*args, **kwargs)
        self.assertEqual(repr(gm), repr(tm))
        self.assertEqual(list(gm.state_dict().keys()), list(tm.state_dict().keys()))
        for k, dtype in enumerate(dtypes):
            if dtype == np.float64:
                gm, tm = gm.double(), tm.double()
            copy_state(gm, tm)
            self.check_op(lambda x: gm(x), torch_fn or (lambda x: tm(x)), [rand(shape, dtype, seed=k)],
                          name='%s%r' % (name, args), rtol=rtol, atol=atol)
        if check_grad:
            gradcheck(self, lambda x: gm(x), rand(shape, np.float64, seed=9), name=name)
        return gm, tm


class Shuffles(LayerTest):
    def test_layers(self):
        for name, args, shape in [('PixelShuffle', (2,), (2, 8, 3, 2)), ('PixelShuffle', (3,), (9, 2, 3)),
                                  ('PixelShuffle', (1,), (1, 2, 2, 2, 3)),
                                  ('PixelUnshuffle', (2,), (2, 1, 4, 6)), ('PixelUnshuffle', (3,), (2, 3, 3)),
                                  ('ChannelShuffle', (2,), (2, 6, 3)), ('ChannelShuffle', (3,), (1, 6, 2, 2))]:
            # torch 1.13's channel_shuffle has no derivative: its reference is the reshape and
            # transpose it is defined as
            ref = None
            if name == 'ChannelShuffle':
                g = args[0]
                ref = (lambda g: lambda x: x.reshape(x.shape[0], g, x.shape[1] // g, -1).transpose(1, 2)
                       .reshape(x.shape))(g)
                self.assertTrue(torch.equal(ref(torch.arange(36.).reshape(1, 6, 6)),
                                            torch.nn.ChannelShuffle(g)(torch.arange(36.).reshape(1, 6, 6))))
            self.check_layer(name, args, {}, shape, torch_fn=ref)

    def test_functional(self):
        x = rand((2, 12, 2, 3), np.float64)
        for fn, arg in (('pixel_shuffle', 2), ('pixel_unshuffle', 1), ('channel_shuffle', 4)):
            self.check_op(lambda t: getattr(F, fn)(t, arg), lambda t: getattr(TF, fn)(t, arg), [x], name=fn,
                          grad=fn != 'channel_shuffle')
        self.assertEqual(tuple(F.pixel_shuffle(gnn.zeros(0, 4, 2, 2), 2).shape), (0, 1, 4, 4))

    def test_errors(self):
        cases = [
            (lambda: F.pixel_shuffle(gnn.zeros(2, 5, 3, 3), 2),
             "pixel_shuffle expects its input's 'channel' dimension to be divisible by the square of "
             "upscale_factor, but input.size(-3)=5 is not divisible by 4"),
            (lambda: F.pixel_shuffle(gnn.zeros(4, 3), 2),
             'pixel_shuffle expects input to have at least 3 dimensions, but got input with 2 dimension(s)'),
            (lambda: F.pixel_shuffle(gnn.zeros(2, 4, 3, 3), 0), 'pixel_shuffle expects a positive upscale_factor, but got 0'),
            (lambda: F.pixel_unshuffle(gnn.zeros(2, 5, 3, 3), 2),
             'pixel_unshuffle expects height to be divisible by downscale_factor, but input.size(-2)=3 is not '
             'divisible by 2'),
            (lambda: F.pixel_unshuffle(gnn.zeros(2, 5, 4, 3), 2),
             'pixel_unshuffle expects width to be divisible by downscale_factor, but input.size(-1)=3 is not '
             'divisible by 2'),
            (lambda: F.channel_shuffle(gnn.zeros(2, 5, 3, 3), 2),
             'Number of channels must be divisible by groups. Got 5 channels and 2 groups.'),
            (lambda: F.channel_shuffle(gnn.zeros(2, 4), 2),
             'channel_shuffle expects input with > 2 dims, but got input with sizes [2, 4]'),
            (lambda: gnn.nn.ChannelShuffle(0)(gnn.zeros(2, 4, 3)),
             'Number of groups to divide channels in must be positive. Value of groups:0'),
        ]
        for fn, message in cases:
            with self.assertRaises(RuntimeError) as ctx:
                fn()
            self.assertIn(message, str(ctx.exception))



def raises(test, exc, message, fn):
    with test.assertRaises(exc) as ctx:
        fn()
    test.assertIn(message, str(ctx.exception))


class FoldUnfold(LayerTest):
    CASES = [((2,), {}, (2, 3, 4, 5)), ((3,), dict(padding=1, stride=2), (1, 2, 5, 5)),
             (((2, 3),), dict(dilation=(2, 1), stride=(1, 2)), (2, 1, 6, 6)), ((2,), {}, (3, 4, 4))]

    def test_unfold(self):
        for args, kw, shape in self.CASES:
            self.check_layer('Unfold', args, kw, shape)
            self.check_op(lambda x: F.unfold(x, *args, **kw), lambda x: TF.unfold(x, *args, **kw),
                          [rand(shape, np.float64)], name='F.unfold')

    def test_fold(self):
        for args, kw, shape in self.CASES:
            cols = TF.unfold(torch.zeros(shape), *args, **kw).shape
            out = shape[-2:]
            self.check_layer('Fold', (out,) + args, kw, tuple(cols))
            self.check_op(lambda x: F.fold(x, out, *args, **kw), lambda x: TF.fold(x, out, *args, **kw),
                          [rand(tuple(cols), np.float64)], name='F.fold')

    def test_errors(self):
        raises(self, RuntimeError, 'expected size of input\'s dimension 2 to match the calculated number of sliding '
               'blocks 3 * 3 = 9, but got input.size(2)=8', lambda: F.fold(gnn.zeros(2, 12, 8), (4, 4), 2))
        raises(self, RuntimeError, 'divisible by the product of kernel_size, but got input.size(1)=11',
               lambda: F.fold(gnn.zeros(2, 11, 9), (4, 4), 2))
        raises(self, RuntimeError, 'calculated shape of the array of sliding blocks as (0, 0)',
               lambda: F.unfold(gnn.zeros(1, 1, 2, 2), 3))
        raises(self, RuntimeError, 'expected a 3-d (C, H, W) or 4-d (N, C, H, W) input, got shape [3, 4]',
               lambda: gnn.nn.Unfold(2)(gnn.zeros(3, 4)))


class InstanceNorm(LayerTest):
    def test_layers(self):
        for name, kw, shape in [('InstanceNorm1d', {}, (2, 3, 5)), ('InstanceNorm1d', dict(affine=True), (3, 4)),
                                ('InstanceNorm2d', dict(affine=True, eps=1e-3), (2, 3, 4, 3)),
                                ('InstanceNorm2d', dict(track_running_stats=True, momentum=0.3), (2, 3, 3, 3)),
                                ('InstanceNorm3d', dict(affine=True, track_running_stats=True), (2, 2, 3, 2, 2)),
                                ('InstanceNorm3d', {}, (2, 2, 2, 3))]:
            features = shape[1] if len(shape) == int(name[-2]) + 2 else shape[0]
            gm, tm = self.check_layer(name, (features,), kw, shape)
            if kw.get('affine'):
                self.assertEqual([k for k, _ in gm.named_parameters()], ['weight', 'bias'])

    def test_running_stats_train_eval(self):
        gm = gnn.nn.InstanceNorm2d(3, affine=True, track_running_stats=True, momentum=0.2)
        tm = torch.nn.InstanceNorm2d(3, affine=True, track_running_stats=True, momentum=0.2)
        with torch.no_grad():
            tm.weight.uniform_(0.5, 1.5)
            tm.bias.uniform_(-1, 1)
        copy_state(gm, tm)
        self.assertEqual(list(gm.state_dict().keys()),
                         ['weight', 'bias', 'running_mean', 'running_var', 'num_batches_tracked'])
        for step in range(3):
            x = rand((2, 3, 4, 4), seed=step)
            self.check_op(lambda t: gm(t), lambda t: tm(t), [x], name='train step %d' % step)
        for key, value in tm.state_dict().items():
            self.assert_close(to_np(gm.state_dict()[key]), value.numpy(), 1e-5, 1e-6, key)
        gm.eval()
        tm.eval()
        self.check_op(lambda t: gm(t), lambda t: tm(t), [rand((2, 3, 4, 4), seed=7)], name='eval')
        self.check_op(lambda t: gm(t), lambda t: tm(t), [rand((3, 4, 4), seed=8)], name='eval unbatched')

    def test_functional_and_errors(self):
        x = rand((2, 3, 4), np.float64)
        w, b = rand((3,), np.float64, seed=1), rand((3,), np.float64, seed=2)
        self.check_op(lambda t, w, b: F.instance_norm(t, weight=w, bias=b, eps=1e-3),
                      lambda t, w, b: TF.instance_norm(t, weight=w, bias=b, eps=1e-3), [x, w, b], name='F')
        raises(self, RuntimeError, 'expected 2D or 3D input (got 4D input)',
               lambda: gnn.nn.InstanceNorm1d(3)(gnn.zeros(2, 3, 4, 4)))
        raises(self, RuntimeError, 'expected 3D or 4D input (got 2D input)',
               lambda: gnn.nn.InstanceNorm2d(3)(gnn.zeros(2, 3)))
        raises(self, RuntimeError, "expected input's size at dim=1 to match num_features (3), but got: 4.",
               lambda: gnn.nn.InstanceNorm1d(3, affine=True)(gnn.zeros(2, 4, 4)))
        raises(self, RuntimeError, 'momentum=None',
               lambda: gnn.nn.InstanceNorm1d(3, momentum=None, track_running_stats=True)(gnn.zeros(2, 3, 4)))


class Pools(LayerTest):
    def test_lp_pool(self):
        for name, args, kw, shape in [('LPPool1d', (2, 3), {}, (2, 3, 7)), ('LPPool1d', (3, 2), dict(stride=1), (3, 5)),
                                      ('LPPool2d', (2, 2), {}, (2, 2, 4, 5)),
                                      ('LPPool2d', (1.5, (2, 3)), dict(stride=(1, 2), ceil_mode=False), (1, 2, 4, 6))]:
            # positive inputs: the p-norm of a window of negative values is not real for p = 1.5
            gm, tm = getattr(gnn.nn, name)(*args, **kw), getattr(torch.nn, name)(*args, **kw)
            self.assertEqual(repr(gm), repr(tm))
            for dtype in (np.float32, np.float64):
                self.check_op(lambda x: gm(x), lambda x: tm(x), [rand(shape, dtype, low=0.1, high=2.0)], name=name)
            gradcheck(self, lambda x: gm(x), rand(shape, np.float64, low=0.1, high=2.0), name=name)

    def test_local_response_norm(self):
        for args, kw, shape in [((2,), {}, (2, 5, 3)), ((3,), dict(alpha=0.1, beta=0.5, k=2.0), (2, 4, 3, 3)),
                                ((4,), dict(alpha=1e-2), (1, 6, 2, 2, 2))]:
            self.check_layer('LocalResponseNorm', args, kw, shape)
            self.check_op(lambda x: F.local_response_norm(x, *args, **kw),
                          lambda x: TF.local_response_norm(x, *args, **kw), [rand(shape, np.float64)], name='F.lrn')
        raises(self, ValueError, 'Expected 3D or higher dimensionality input (got 2 dimensions)',
               lambda: F.local_response_norm(gnn.zeros(2, 3), 2))

    def test_adaptive_max_pool(self):
        for name, args, shape in [('AdaptiveMaxPool1d', (3,), (2, 3, 7)), ('AdaptiveMaxPool1d', (4,), (3, 4)),
                                  ('AdaptiveMaxPool2d', ((2, 3),), (2, 2, 5, 7)),
                                  ('AdaptiveMaxPool2d', ((None, 2),), (1, 3, 4, 5)),
                                  ('AdaptiveMaxPool2d', (3,), (2, 5, 5))]:
            self.check_layer(name, args, {}, shape)
            gm = getattr(gnn.nn, name)(*args, return_indices=True)
            tm = getattr(torch.nn, name)(*args, return_indices=True)
            x = rand(shape)
            (g, gi), (t, ti) = gm(gnn.tensor(x)), tm(torch.from_numpy(x))
            self.assertTrue(np.array_equal(to_np(gi), ti.numpy()), name + ' indices')
            self.assert_close(to_np(g), t.numpy(), 0, 0, name + ' values')
        x = rand((2, 3, 6, 5), np.float64)
        for f in ('adaptive_max_pool2d', 'adaptive_max_pool2d_with_indices'):
            g, gi = getattr(F, f)(gnn.tensor(x), (4, 3), return_indices=True)
            t, ti = getattr(TF, f)(torch.from_numpy(x), (4, 3), return_indices=True)
            self.assertTrue(np.array_equal(to_np(gi), ti.numpy()), f)
        self.check_op(lambda t: F.adaptive_max_pool1d(t, 2), lambda t: TF.adaptive_max_pool1d(t, 2),
                      [rand((2, 3, 5), np.float64)], name='F.adaptive_max_pool1d')
        raises(self, RuntimeError, 'Expected 3D or 4D tensor, but got: [2, 3]',
               lambda: F.adaptive_max_pool2d(gnn.zeros(2, 3), 2))

    def test_max_unpool(self):
        for n, kw, shape in [(1, dict(kernel_size=2), (2, 3, 8)), (1, dict(kernel_size=3, stride=2, padding=1), (2, 7)),
                             (2, dict(kernel_size=2), (2, 2, 4, 6)), (2, dict(kernel_size=3, stride=2, padding=1), (1, 5, 5))]:
            pool_g = getattr(gnn.nn, 'MaxPool%dd' % n)(return_indices=True, **kw)
            pool_t = getattr(torch.nn, 'MaxPool%dd' % n)(return_indices=True, **kw)
            gm, tm = getattr(gnn.nn, 'MaxUnpool%dd' % n)(**kw), getattr(torch.nn, 'MaxUnpool%dd' % n)(**kw)
            self.assertEqual(repr(gm), repr(tm))
            x = rand(shape, np.float64)
            _, gi = pool_g(gnn.tensor(x))
            tv, ti = pool_t(torch.from_numpy(x))
            self.assertTrue(np.array_equal(to_np(gi), ti.numpy()))
            # the pooled maxima themselves: overlapping windows repeat an index with the same value
            # (which copy is written is unspecified, in torch as here)
            pooled = tv.numpy().copy()
            self.check_op(lambda v: gm(v, gi), lambda v: tm(v, ti), [pooled], name='MaxUnpool%dd' % n)
            flat = ti.reshape(-1, ti.shape[-1] * (ti.shape[-2] if n == 2 else 1))
            if all(len(set(r.tolist())) == len(r) for r in flat):
                # (with repeated indices the last write wins and the gradient of every copy is the
                # output's, as torch's: no function to take finite differences of)
                gradcheck(self, lambda v: gm(v, gi), pooled, name='MaxUnpool%dd' % n)
            size = [d + 1 for d in x.shape[-n:]] if kw.get('stride', kw['kernel_size']) > 1 else list(x.shape[-n:])
            fn, tfn = getattr(F, 'max_unpool%dd' % n), getattr(TF, 'max_unpool%dd' % n)
            self.check_op(lambda v: fn(v, gi, output_size=size, **kw), lambda v: tfn(v, ti, output_size=size, **kw),
                          [pooled], name='F.max_unpool%dd' % n)
            self.check_op(lambda v: gm(v, gi, size), lambda v: tm(v, ti, size), [pooled], name='output_size')
        raises(self, RuntimeError, 'Found an invalid max index: 9 (output volumes are of size 3x3)',
               lambda: F.max_unpool2d(gnn.ones(1, 1, 1, 1), gnn.tensor(np.array([[[[9]]]])), 2, output_size=(3, 3)))
        raises(self, RuntimeError, 'elements in indices should be type int64 but got: float32',
               lambda: F.max_unpool2d(gnn.ones(1, 1, 1, 1), gnn.ones(1, 1, 1, 1), 2))

    def test_max_pool_with_indices(self):
        x = rand((2, 3, 6, 5))
        g, gi = F.max_pool2d_with_indices(gnn.tensor(x), 2, 1)
        t, ti = TF.max_pool2d_with_indices(torch.from_numpy(x), 2, 1)
        self.assertTrue(np.array_equal(to_np(gi), ti.numpy()))
        g, gi = F.max_pool1d_with_indices(gnn.tensor(x[0]), 3)
        t, ti = TF.max_pool1d_with_indices(torch.from_numpy(x[0]), 3)
        self.assertTrue(np.array_equal(to_np(gi), ti.numpy()))


class Upsample(LayerTest):
    def test_layers(self):
        for name, kw, shape in [('Upsample', dict(scale_factor=2), (2, 3, 4)),
                                ('Upsample', dict(size=(3, 5), mode='bilinear', align_corners=True), (1, 2, 4, 3)),
                                ('Upsample', dict(scale_factor=(1.5, 2), mode='bilinear'), (2, 1, 4, 3)),
                                ('Upsample', dict(size=7, mode='linear'), (2, 2, 4)),
                                ('Upsample', dict(scale_factor=2, mode='bicubic'), (1, 1, 3, 3)),
                                ('UpsamplingNearest2d', dict(scale_factor=3), (1, 2, 2, 3)),
                                ('UpsamplingNearest2d', dict(size=(4, 5)), (1, 2, 2, 3)),
                                ('UpsamplingBilinear2d', dict(size=5), (2, 1, 3, 3)),
                                ('UpsamplingBilinear2d', dict(scale_factor=2), (1, 2, 2, 3))]:
            self.check_layer(name, (), kw, shape, check_grad=name != 'Upsample' or kw.get('mode') != 'bicubic')
        raises(self, RuntimeError, 'either size or scale_factor should be defined',
               lambda: gnn.nn.Upsample()(gnn.zeros(1, 1, 2, 2)))


class AlphaDropout(ParityTest):
    def test_eval_and_edges(self):
        x = rand((4, 3, 5))
        for name in ('AlphaDropout', 'FeatureAlphaDropout'):
            gm, tm = getattr(gnn.nn, name)(0.3), getattr(torch.nn, name)(0.3)
            self.assertEqual(repr(gm), repr(tm))
            self.assertEqual(list(gm.state_dict().keys()), [])
            gm.eval()
            self.assert_close(to_np(gm(gnn.tensor(x))), x, 0, 0, name + ' eval')
            self.assert_close(to_np(getattr(gnn.nn, name)(0.0)(gnn.tensor(x))), x, 0, 0, name + ' p=0')
            self.assert_close(to_np(getattr(gnn.nn, name)(1.0)(gnn.tensor(x))), 0 * x, 0, 0, name + ' p=1')
        self.assert_close(to_np(F.alpha_dropout(gnn.tensor(x), 0.5)), x, 0, 0, 'F default training=False')
        raises(self, ValueError, 'dropout probability has to be between 0 and 1, but got 1.5',
               lambda: gnn.nn.AlphaDropout(1.5))
        raises(self, RuntimeError, 'Feature dropout requires at least 2 dimensions',
               lambda: F.feature_alpha_dropout(gnn.zeros(3), 0.5, True))

    def test_training_statistics(self):
        # torch's formula: a kept element is a·x + a·α'·p, a dropped one a·α'·p - a·α' (α' = 1.7581...);
        # the gradient is a on kept elements, 0 on dropped ones; a standard normal input keeps
        # mean 0 and variance 1
        p, alpha = 0.2, 1.7580993408473766
        a = 1 / np.sqrt((alpha * alpha * p + 1) * (1 - p))
        for fn, shape in ((F.alpha_dropout, (400, 50)), (F.feature_alpha_dropout, (400, 50, 4))):
            x = np.random.default_rng(0).standard_normal(shape)
            t = gnn.tensor(x, requires_grad=True)
            y = fn(t, p, True)
            y.sum().backward()
            out, grad = to_np(y), to_np(t.grad)
            kept = grad > 0
            self.assertTrue(np.allclose(grad[kept], a))
            self.assertTrue(np.allclose(out[kept], a * x[kept] + a * alpha * p))
            self.assertTrue(np.allclose(out[~kept], a * alpha * p - a * alpha))
            self.assertAlmostEqual(kept.mean(), 1 - p, delta=0.02)
            self.assertAlmostEqual(out.mean(), 0.0, delta=0.05)
            self.assertAlmostEqual(out.std(), 1.0, delta=0.05)
            if fn is F.feature_alpha_dropout:
                self.assertTrue((kept.all(axis=2) | (~kept).all(axis=2)).all())
        # torch's own train-mode output obeys the same formula
        x = torch.randn(300, 40, dtype=torch.float64)
        y = TF.alpha_dropout(x, p, True)
        kept = torch.isclose(y, a * x + a * alpha * p)
        self.assertTrue(torch.allclose(y[~kept], torch.tensor(a * alpha * p - a * alpha, dtype=torch.float64)))



class EmbeddingBag(ParityTest):
    CASES = [
        (dict(mode='sum'), np.array([1, 2, 4, 5, 4, 3, 2, 9]), np.array([0, 4]), None),
        (dict(mode='mean'), np.array([1, 2, 4, 5, 4, 3, 2, 9]), np.array([0, 3, 3]), None),
        (dict(mode='max'), np.array([1, 2, 4, 5, 4, 3, 2, 9]), np.array([0, 1, 5]), None),
        (dict(mode='mean'), np.array([[1, 2, 0], [4, 0, 0]]), None, None),
        (dict(mode='mean', padding_idx=0), np.array([[1, 2, 0], [4, 0, 0], [0, 0, 0]]), None, None),
        (dict(mode='max', padding_idx=2), np.array([1, 2, 4, 2, 2, 3]), np.array([0, 2, 4, 6]), None),
        (dict(mode='sum', include_last_offset=True), np.array([1, 2, 4, 5, 4, 3]), np.array([0, 2, 2, 6]), None),
        (dict(mode='sum'), np.array([1, 2, 4, 5, 4, 3]), np.array([0, 2]), np.linspace(-1, 1, 6)),
        (dict(mode='sum', padding_idx=-1), np.array([1, 9, 4, 9]), np.array([0, 2]), np.linspace(-1, 1, 4)),
    ]

    def test_parity(self):
        for k, (kw, idx, offsets, psw) in enumerate(self.CASES):
            gm, tm = gnn.nn.EmbeddingBag(10, 3, **kw), torch.nn.EmbeddingBag(10, 3, **kw)
            self.assertEqual(repr(gm), repr(tm))
            self.assertEqual(list(gm.state_dict().keys()), ['weight'])
            if 'padding_idx' in kw:
                self.assertTrue(np.all(to_np(gm.weight)[kw['padding_idx']] == 0))
            for dtype in (np.float32, np.float64):
                w = rand((10, 3), dtype, seed=k)
                gw, tw = to_gnn(w, True), torch.from_numpy(w.copy()).requires_grad_(True)
                gargs = [gnn.tensor(idx), None if offsets is None else gnn.tensor(offsets)]
                targs = [torch.from_numpy(idx), None if offsets is None else torch.from_numpy(offsets)]
                gp = tp = None
                if psw is not None:
                    gp, tp = to_gnn(psw.astype(dtype), True), torch.from_numpy(psw.astype(dtype)).requires_grad_(True)
                g = F.embedding_bag(gargs[0], gw, gargs[1], per_sample_weights=gp, **kw)
                t = TF.embedding_bag(targs[0], tw, targs[1], per_sample_weights=tp, **kw)
                what = '%r %s' % (kw, np.dtype(dtype).name)
                self.assert_close(to_np(g), t.detach().numpy(), *TOLS[dtype], what=what)
                up = rand(tuple(t.shape), dtype, seed=50)
                g.backward(to_gnn(up))
                t.backward(torch.from_numpy(up))
                self.assert_close(to_np(gw.grad), tw.grad.numpy(), *TOLS[dtype], what=what + ' weight grad')
                if psw is not None:
                    self.assert_close(to_np(gp.grad), tp.grad.numpy(), *TOLS[dtype], what=what + ' psw grad')
            # the module, with torch's weights
            copy_state(gm, tm)
            got = gm(gnn.tensor(idx), None if offsets is None else gnn.tensor(offsets),
                     None if psw is None else gnn.tensor(psw.astype(np.float32)))
            want = tm(torch.from_numpy(idx), None if offsets is None else torch.from_numpy(offsets),
                      None if psw is None else torch.from_numpy(psw.astype(np.float32)))
            self.assert_close(to_np(got), want.detach().numpy(), 1e-5, 1e-6, 'module %r' % kw)

    def test_gradcheck(self):
        idx, offsets = gnn.tensor(np.array([1, 2, 4, 5, 4, 3])), gnn.tensor(np.array([0, 2, 2]))
        for mode in ('sum', 'mean', 'max'):
            gradcheck(self, lambda w: F.embedding_bag(idx, w, offsets, mode=mode), rand((6, 2), np.float64),
                      name='embedding_bag ' + mode)

    def test_errors(self):
        w = gnn.zeros(5, 2)
        raises(self, RuntimeError, "per_sample_weights is only supported for mode='sum' (got mode='mean')",
               lambda: F.embedding_bag(gnn.tensor(np.array([1, 2])), w, gnn.tensor(np.array([0])),
                                       per_sample_weights=gnn.ones(2)))
        raises(self, RuntimeError, 'offsets[0] has to be 0',
               lambda: F.embedding_bag(gnn.tensor(np.array([1, 2])), w, gnn.tensor(np.array([1]))))
        raises(self, RuntimeError, 'if input is 2D, then offsets has to be None',
               lambda: F.embedding_bag(gnn.tensor(np.array([[1, 2]])), w, gnn.tensor(np.array([0]))))
        raises(self, IndexError, 'index 7 is out of range for a table of 5 rows',
               lambda: F.embedding_bag(gnn.tensor(np.array([[7]])), w))
        raises(self, RuntimeError, 'mode has to be one of sum, mean or max, got min',
               lambda: gnn.nn.EmbeddingBag(5, 2, mode='min'))


class Json(ParityTest):
    def test_round_trip(self):
        # every layer of gnn-layers-more.c rebuilt from its JSON description, hyperparameters kept
        layers = [gnn.nn.PixelShuffle(2), gnn.nn.PixelUnshuffle(3), gnn.nn.ChannelShuffle(2), gnn.nn.Unfold(2, stride=(1, 2)),
                  gnn.nn.Fold((4, 5), 2), gnn.nn.InstanceNorm1d(3), gnn.nn.InstanceNorm2d(3, affine=True, momentum=None),
                  gnn.nn.InstanceNorm3d(2, track_running_stats=True), gnn.nn.LPPool1d(2, 3),
                  gnn.nn.LPPool2d(2.5, (2, 3), stride=1), gnn.nn.LocalResponseNorm(2, k=2.0),
                  gnn.nn.Upsample(scale_factor=(2, 1.5), mode='bilinear', align_corners=True),
                  gnn.nn.UpsamplingNearest2d(size=3), gnn.nn.UpsamplingBilinear2d(scale_factor=2),
                  gnn.nn.AdaptiveMaxPool1d(3, True), gnn.nn.AdaptiveMaxPool2d((None, 2)), gnn.nn.MaxUnpool1d(2),
                  gnn.nn.MaxUnpool2d(3, 2, 1), gnn.nn.AlphaDropout(0.2), gnn.nn.FeatureAlphaDropout(),
                  gnn.nn.EmbeddingBag(5, 3, mode='max', padding_idx=1, include_last_offset=True)]
        for m in layers:
            text = m.to_json(False)
            back = Gnn.Module.new_from_json(text, -1)
            self.assertEqual(repr(back), repr(m))
            self.assertEqual(back.to_json(False), text)
            self.assertEqual(list(back.state_dict().keys()), list(m.state_dict().keys()))


TOLS = {np.float32: (1e-5, 1e-6), np.float64: (1e-10, 1e-12)}


if __name__ == '__main__':
    main()
