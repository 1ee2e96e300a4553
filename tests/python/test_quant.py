# quantized tensors against torch 1.13: torch.quantize_per_tensor / quantize_per_channel,
# dequantize, int_repr and the quantization parameters, bit for bit, and the errors
#
# SPDX-License-Identifier: LGPL-2.1-or-later
import unittest

import numpy as np
import torch

import gnn
from gi.repository import GLib, Gnn

TORCH_QDTYPES = {gnn.qint8: torch.qint8, gnn.quint8: torch.quint8, gnn.qint32: torch.qint32}


def np_of(t):
    return np.asarray(t.numpy()) if hasattr(t, 'numpy') else np.asarray(t)


class QuantizePerTensor(unittest.TestCase):
    def test_bits_equal_torch(self):
        # 10^5 random values and the halfway cases: the integers and the dequantized floats are
        # torch's exactly (same float32 reciprocal, product and half-to-even rounding)
        torch.manual_seed(0)
        x = torch.cat([torch.randn(100000) * 3, torch.tensor([0.5, 1.5, 2.5, -0.5, -1.5, -2.5, 1e9, -1e9])])
        g = gnn.tensor(x.numpy())
        for scale, zp, dt in [(0.1, 3, gnn.qint8), (0.0371, 128, gnn.quint8), (0.013, -5, gnn.qint8),
                              (1 / 3, 0, gnn.qint32), (1.0, 0, gnn.qint8), (0.5, 255, gnn.quint8)]:
            with self.subTest(scale=scale, zp=zp, dtype=dt):
                q = gnn.quantize_per_tensor(g, scale, zp, dt)
                tq = torch.quantize_per_tensor(x, scale, zp, TORCH_QDTYPES[dt])
                np.testing.assert_array_equal(np_of(q.int_repr()), tq.int_repr().numpy())
                np.testing.assert_array_equal(np_of(q.dequantize()), tq.dequantize().numpy())
                self.assertEqual(q.q_scale(), tq.q_scale())
                self.assertEqual(q.q_zero_point(), tq.q_zero_point())
                self.assertEqual(repr(q.dtype), repr(tq.dtype))
                self.assertEqual(repr(q.qscheme()), repr(tq.qscheme()))
                self.assertEqual(q.int_repr().dtype, gnn.int8 if dt == gnn.qint8 else
                                 gnn.uint8 if dt == gnn.quint8 else gnn.int32)

    def test_shape_kept_and_tensor_params(self):
        x = torch.randn(2, 3, 4)
        q = gnn.quantize_per_tensor(gnn.tensor(x.numpy()), gnn.tensor(0.05), gnn.tensor(2), gnn.quint8)
        tq = torch.quantize_per_tensor(x, torch.tensor(0.05), torch.tensor(2), torch.quint8)
        self.assertEqual(tuple(q.shape), (2, 3, 4))
        np.testing.assert_array_equal(np_of(q.int_repr()), tq.int_repr().numpy())
        self.assertTrue(q.is_quantized)
        self.assertIn('quantization_scheme=torch.per_tensor_affine', repr(q))

    def test_torch_names(self):
        self.assertEqual(repr(gnn.qint8), 'torch.qint8')
        self.assertEqual(repr(gnn.per_tensor_symmetric), 'torch.per_tensor_symmetric')
        self.assertIs(gnn.quantize_per_tensor, Gnn.quantize_per_tensor)

    def test_errors(self):
        x = gnn.tensor([1.0, 2.0])
        for scale in (0.0, -1.0, float('nan'), float('inf'), 1e-300):
            with self.assertRaises(GLib.Error) as cm:
                gnn.quantize_per_tensor(x, scale, 0, gnn.qint8)
            self.assertTrue(cm.exception.matches(Gnn.Error.quark(), Gnn.Error.INVALID_ARGUMENT))
            self.assertIn('scale', cm.exception.message)
        for zp, dt in ((128, gnn.qint8), (-129, gnn.qint8), (-1, gnn.quint8), (256, gnn.quint8)):
            with self.assertRaises(GLib.Error) as cm:
                gnn.quantize_per_tensor(x, 1.0, zp, dt)
            self.assertIn('zero point in', cm.exception.message)
            self.assertIn('got %d' % zp, cm.exception.message)
        with self.assertRaises(GLib.Error) as cm:
            gnn.quantize_per_tensor(gnn.tensor([1.0], dtype=gnn.float64), 1.0, 0, gnn.qint8)
        self.assertTrue(cm.exception.matches(Gnn.Error.quark(), Gnn.Error.DTYPE))
        self.assertIn('got float64', cm.exception.message)
        with self.assertRaises(TypeError):
            gnn.quantize_per_tensor(x, 1.0, 0, gnn.int8)
        q = gnn.quantize_per_tensor(x, 1.0, 0, gnn.qint8)
        with self.assertRaises(GLib.Error) as cm:
            q.q_per_channel_scales()
        self.assertIn('per-channel', cm.exception.message)


class QuantizePerChannel(unittest.TestCase):
    def test_bits_equal_torch(self):
        torch.manual_seed(1)
        for shape, axis, dt in [((4, 5), 0, torch.qint8), ((3, 4, 5), 1, torch.quint8),
                                ((3, 4, 5), -1, torch.qint8), ((6, 2), 1, torch.qint32)]:
            with self.subTest(shape=shape, axis=axis):
                x = torch.randn(*shape) * 2
                n = shape[axis]
                scales = torch.rand(n, dtype=torch.float64) * 0.1 + 0.01
                zps = torch.randint(0, 100, (n,)) if dt == torch.quint8 else torch.randint(-20, 20, (n,))
                gdt = {torch.qint8: gnn.qint8, torch.quint8: gnn.quint8, torch.qint32: gnn.qint32}[dt]
                tq = torch.quantize_per_channel(x, scales, zps, axis % len(shape), dt)  # torch: axis >= 0
                q = gnn.quantize_per_channel(gnn.tensor(x.numpy()), gnn.tensor(scales.numpy()),
                                             gnn.tensor(zps.numpy()), axis, gdt)
                np.testing.assert_array_equal(np_of(q.int_repr()), tq.int_repr().numpy())
                np.testing.assert_array_equal(np_of(q.dequantize()), tq.dequantize().numpy())
                np.testing.assert_array_equal(np_of(q.q_per_channel_scales()), tq.q_per_channel_scales().numpy())
                np.testing.assert_array_equal(np_of(q.q_per_channel_zero_points()),
                                              tq.q_per_channel_zero_points().numpy())
                self.assertEqual(q.q_per_channel_axis(), tq.q_per_channel_axis())
                self.assertEqual(repr(q.qscheme()), repr(tq.qscheme()))

    def test_errors(self):
        x = gnn.tensor(np.zeros((2, 3), np.float32))
        s, z = gnn.tensor([0.1, 0.2], dtype=gnn.float64), gnn.tensor([1, 2])
        with self.assertRaises(GLib.Error) as cm:
            gnn.quantize_per_channel(x, s, z, 2, gnn.quint8)
        with self.assertRaises(GLib.Error) as cm:
            gnn.quantize_per_channel(x, s, z, 1, gnn.quint8)
        self.assertIn('expected 3 scales', cm.exception.message)
        with self.assertRaises(GLib.Error) as cm:
            gnn.quantize_per_channel(x, gnn.tensor([0.1, 0.0], dtype=gnn.float64), z, 0, gnn.quint8)
        self.assertIn('channel 1', cm.exception.message)
        with self.assertRaises(GLib.Error) as cm:
            gnn.quantize_per_channel(x, s, gnn.tensor([1, 300]), 0, gnn.quint8)
        self.assertIn('got 300', cm.exception.message)
        q = gnn.quantize_per_channel(x, s, z, 0, gnn.quint8)
        with self.assertRaises(GLib.Error):
            q.q_scale()


OBSERVER_CONFIGS = [
    dict(),
    dict(dtype='qint8'),
    dict(dtype='qint8', qscheme='per_tensor_symmetric'),
    dict(dtype='quint8', qscheme='per_tensor_symmetric'),
    dict(dtype='quint8', reduce_range=True),
    dict(dtype='qint8', reduce_range=True),
    dict(dtype='qint8', qscheme='per_tensor_symmetric', reduce_range=True),
    dict(dtype='quint8', quant_min=0, quant_max=15),
    dict(dtype='quint8', qscheme='per_tensor_symmetric', quant_min=0, quant_max=15),
    dict(dtype='qint8', quant_min=-8, quant_max=7, reduce_range=True),
    dict(dtype='quint8', eps=1e-3),
]


def both_kwargs(cfg):
    t, g = {}, {}
    for k, v in cfg.items():
        if k == 'dtype':
            t[k], g[k] = getattr(torch, v), getattr(gnn, v)
        elif k == 'qscheme':
            t[k], g[k] = getattr(torch, v), getattr(gnn, v)
        else:
            t[k] = g[k] = v
    return t, g


class Observers(unittest.TestCase):
    def check_same(self, tobs, gobs):
        ts, tz = tobs.calculate_qparams()
        gs, gz = gobs.calculate_qparams()
        # the same float32 arithmetic: equal scales and zero points, and the same dtypes
        np.testing.assert_array_equal(np_of(gs), ts.numpy())
        np.testing.assert_array_equal(np_of(gz), tz.numpy())
        self.assertEqual(np_of(gz).dtype, tz.numpy().dtype)
        self.assertEqual((gobs.quant_min, gobs.quant_max), (tobs.quant_min, tobs.quant_max))
        self.assertEqual(float(gobs.min_val.item()), float(tobs.min_val))
        self.assertEqual(float(gobs.max_val.item()), float(tobs.max_val))

    def run_batches(self, tcls, gcls, targs=(), gargs=()):
        import warnings
        for cfg in OBSERVER_CONFIGS:
            with self.subTest(cls=tcls.__name__, cfg=cfg):
                tk, gk = both_kwargs(cfg)
                with warnings.catch_warnings():
                    warnings.simplefilter('ignore')
                    tobs = tcls(*targs, **tk)
                gobs = gcls(*gargs, **gk)
                torch.manual_seed(3)
                for i in range(5):
                    x = torch.randn(4, 7) * (i + 1) + (0.5 * i)
                    out = gobs(gnn.tensor(x.numpy()))
                    tobs(x)
                    np.testing.assert_array_equal(np_of(out), x.numpy())
                    self.check_same(tobs, gobs)

    def test_min_max_observer(self):
        self.run_batches(torch.ao.quantization.MinMaxObserver, gnn.ao.quantization.MinMaxObserver)

    def test_moving_average_observer(self):
        self.run_batches(torch.ao.quantization.MovingAverageMinMaxObserver,
                         gnn.ao.quantization.MovingAverageMinMaxObserver)
        self.run_batches(torch.ao.quantization.MovingAverageMinMaxObserver,
                         gnn.ao.quantization.MovingAverageMinMaxObserver, (0.3,), (0.3,))

    def test_only_positive_or_constant(self):
        for data in ([1.0, 2.0, 3.0], [-1.0, -5.0], [0.0, 0.0], [1e-12, 2e-12]):
            for cfg in OBSERVER_CONFIGS[:4]:
                with self.subTest(data=data, cfg=cfg):
                    tk, gk = both_kwargs(cfg)
                    tobs = torch.ao.quantization.MinMaxObserver(**tk)
                    gobs = gnn.ao.quantization.MinMaxObserver(**gk)
                    tobs(torch.tensor(data))
                    gobs(gnn.tensor(data))
                    self.check_same(tobs, gobs)

    def test_state_dict_keys(self):
        tobs = torch.ao.quantization.MinMaxObserver()
        gobs = gnn.ao.quantization.MinMaxObserver()
        self.assertEqual(list(gobs.state_dict().keys()), list(tobs.state_dict().keys()))

    def test_errors(self):
        obs = gnn.ao.quantization.MinMaxObserver()
        with self.assertRaises(GLib.Error) as cm:
            obs.calculate_qparams()
        self.assertIn('seen no data', cm.exception.message)
        obs(gnn.tensor([]))           # an empty tensor changes nothing, as torch's
        with self.assertRaises(GLib.Error):
            obs.calculate_qparams()
        with self.assertRaises(GLib.Error) as cm:
            obs(gnn.tensor([1, 2]))
        self.assertIn('floating-point', cm.exception.message)
        with self.assertRaises(GLib.Error) as cm:
            gnn.ao.quantization.MinMaxObserver(qscheme=gnn.per_channel_affine)
        self.assertIn('per-channel observer', cm.exception.message)
        with self.assertRaises(GLib.Error) as cm:
            gnn.ao.quantization.MinMaxObserver(qscheme=gnn.per_tensor_symmetric, reduce_range=True)
        self.assertIn('symmetric', cm.exception.message)
        with self.assertRaises(GLib.Error) as cm:
            gnn.ao.quantization.MinMaxObserver(quant_min=1, quant_max=10)
        self.assertIn('quant_min <= 0 <= quant_max', cm.exception.message)
        with self.assertRaises(GLib.Error) as cm:
            gnn.ao.quantization.MinMaxObserver(dtype=gnn.qint8, quant_min=-200, quant_max=200)
        self.assertIn('at most 256', cm.exception.message)
        with self.assertRaises(GLib.Error):
            gnn.ao.quantization.MinMaxObserver(eps=0.0)
        obs = gnn.ao.quantization.MinMaxObserver()
        obs(gnn.tensor([1.0, float('nan')]))
        with self.assertRaises(GLib.Error) as cm:
            obs.calculate_qparams()
        self.assertIn('min_val <= max_val', cm.exception.message)
        obs.reset_min_max_vals()
        obs(gnn.tensor([1.0]))
        self.assertEqual(obs.calculate_qparams()[1].item(), 0)


def mlp_pair(sizes, seed=0, bias=True):
    torch.manual_seed(seed)
    layers_t, layers_g = [], []
    for i, (a, b) in enumerate(zip(sizes, sizes[1:])):
        if i:
            layers_t.append(torch.nn.ReLU())
            layers_g.append(gnn.nn.ReLU())
        layers_t.append(torch.nn.Linear(a, b, bias=bias))
        layers_g.append(gnn.nn.Linear(a, b, bias=bias))
    t = torch.nn.Sequential(*layers_t)
    g = gnn.nn.Sequential(*layers_g)
    g.load_state_dict({k: gnn.tensor(v.detach().numpy()) for k, v in t.state_dict().items()})
    return t.eval(), g.eval()


class QuantizeDynamic(unittest.TestCase):
    def test_choose_qparams(self):
        torch.manual_seed(5)
        for x in (torch.randn(64, 16) * 2, torch.rand(3, 5) + 1, -torch.rand(7), torch.zeros(4),
                  torch.randn(10) * 1e-7, torch.tensor([1e-6, 0.0])):
            for rr in (False, True):
                with self.subTest(x=x[:2], reduce_range=rr):
                    self.assertEqual(gnn._choose_qparams_per_tensor(gnn.tensor(x.numpy()), rr),
                                     torch._choose_qparams_per_tensor(x, rr))

    def test_linear_matches_torch(self):
        # torch's onednn engine (Debian's build has no fbgemm) applies the output scale and
        # the bias in its own order; gnn computes acc_int32 * float32(x_scale * w_scale) + b.
        # The weights, the activations' scale, zero point and integers are torch's exactly, so
        # the outputs differ only by that float32 rounding: a few ulps of the output, checked
        # as rtol 1e-5, atol 1e-5 * max|y|.
        self.assertEqual(torch.backends.quantized.engine, 'onednn')
        for sizes, shape, bias in (([16, 8, 4], (64, 16), True), ([256, 512, 10], (32, 256), True),
                                   ([7, 3], (2, 5, 7), False), ([33, 17], (1, 33), True)):
            with self.subTest(sizes=sizes, shape=shape):
                t, g = mlp_pair(sizes, bias=bias)
                qt = torch.ao.quantization.quantize_dynamic(t, {torch.nn.Linear}, dtype=torch.qint8)
                qg = gnn.ao.quantization.quantize_dynamic(g, {gnn.nn.Linear}, dtype=gnn.qint8)
                self.assertEqual(repr(qg), repr(qt))
                for i, layer in enumerate(qt):
                    if isinstance(layer, torch.nn.Linear) or not hasattr(layer, 'weight'):
                        continue
                    tw, gw = layer.weight(), qg[i].weight()
                    self.assertEqual(gw.q_scale(), tw.q_scale())
                    self.assertEqual(gw.q_zero_point(), tw.q_zero_point())
                    np.testing.assert_array_equal(np_of(gw.int_repr()), tw.int_repr().numpy())
                torch.manual_seed(9)
                x = torch.randn(*shape) * 2
                yt = qt(x).numpy()
                yg = np_of(qg(gnn.tensor(x.numpy())))
                self.assertEqual(yg.shape, yt.shape)
                np.testing.assert_allclose(yg, yt, rtol=1e-5, atol=1e-5 * np.abs(yt).max())
                # the original float model is left as it was (a copy was quantized)
                self.assertEqual(type(g[0]).__name__, 'Linear')

    def test_inplace_and_nested(self):
        t, g = mlp_pair([6, 5, 4])
        outer = gnn.nn.Sequential(g, gnn.nn.Linear(4, 2))
        q = gnn.ao.quantization.quantize_dynamic(outer, {gnn.nn.Linear}, inplace=True)
        self.assertIs(q, outer)
        self.assertEqual(type(outer[0][0]).__name__, 'DynamicQuantizedLinear')
        self.assertEqual(type(outer[1]).__name__, 'DynamicQuantizedLinear')
        # the root is not swapped, as torch's
        lin = gnn.nn.Linear(3, 2)
        self.assertEqual(type(gnn.ao.quantization.quantize_dynamic(lin)).__name__, 'Linear')

    def test_errors(self):
        t, g = mlp_pair([6, 5])
        with self.assertRaises(GLib.Error) as cm:
            gnn.ao.quantization.quantize_dynamic(g, {gnn.nn.Conv2d})
        self.assertIn('GnnConv2d', cm.exception.message)
        with self.assertRaises(GLib.Error) as cm:
            gnn.ao.quantization.quantize_dynamic(g, {gnn.nn.Linear}, dtype=gnn.quint8)
        self.assertIn('qint8', cm.exception.message)
        q = gnn.ao.quantization.quantize_dynamic(g, {gnn.nn.Linear})
        with self.assertRaises(GLib.Error) as cm:
            q(gnn.tensor(np.zeros((2, 4), np.float32)))
        self.assertIn('in_features', cm.exception.message)
        with self.assertRaises(GLib.Error) as cm:
            q(gnn.tensor(np.zeros((2, 6), np.float64)))
        self.assertIn('float32', cm.exception.message)


def gnn_state_of_torch_quantized(sd):
    """torch's state dict of a dynamically quantized model in gnn's layout: each
    _packed_params._packed_params tuple (weight, bias) as the buffers weight (int8),
    weight_scale (float64), weight_zero_point (int64) and bias; _packed_params.dtype dropped."""
    out = {}
    for k, v in sd.items():
        if k.endswith('_packed_params._packed_params'):
            p = k[:-len('_packed_params')]
            w, b = v
            out[p + 'weight'] = gnn.tensor(w.int_repr().numpy())
            out[p + 'weight_scale'] = gnn.tensor(np.float64(w.q_scale()), dtype=gnn.float64)
            out[p + 'weight_zero_point'] = gnn.tensor(np.int64(w.q_zero_point()), dtype=gnn.int64)
            if b is not None:
                out[p + 'bias'] = gnn.tensor(b.detach().numpy())
        elif not k.endswith('_packed_params.dtype'):
            out[k] = gnn.tensor(v.numpy())
    return out


class DynamicSaveLoad(unittest.TestCase):
    def test_keys_follow_torch(self):
        t, g = mlp_pair([6, 5, 4])
        qt = torch.ao.quantization.quantize_dynamic(t, {torch.nn.Linear})
        qg = gnn.ao.quantization.quantize_dynamic(g, {gnn.nn.Linear})
        tkeys, gkeys = list(qt.state_dict()), list(qg.state_dict())
        # torch: scale, zero_point, _packed_params.dtype, _packed_params._packed_params (a tuple)
        self.assertEqual([k for k in tkeys if not k.startswith(('0._packed', '2._packed'))],
                         [k for k in gkeys if not k.startswith(('0._packed', '2._packed'))])
        self.assertEqual(gkeys, ['0.scale', '0.zero_point', '0._packed_params.weight',
                                 '0._packed_params.weight_scale', '0._packed_params.weight_zero_point',
                                 '0._packed_params.bias', '2.scale', '2.zero_point',
                                 '2._packed_params.weight', '2._packed_params.weight_scale',
                                 '2._packed_params.weight_zero_point', '2._packed_params.bias'])
        # the values are torch's tuple's parts
        self.assertEqual(list(gnn_state_of_torch_quantized(qt.state_dict())), gkeys)
        for k, v in gnn_state_of_torch_quantized(qt.state_dict()).items():
            np.testing.assert_array_equal(np_of(qg.state_dict()[k]), np_of(v), k)
        self.assertEqual(qg.state_dict()['0.scale'].dtype, gnn.float32)
        self.assertEqual(qg.state_dict()['0.zero_point'].dtype, gnn.int64)

    def test_torch_weights_load_and_run(self):
        # a gnn model built as torch's, loaded with torch's quantized weights: torch's outputs
        torch.manual_seed(3)
        t = torch.nn.Sequential(torch.nn.Linear(12, 7), torch.nn.ReLU(), torch.nn.Linear(7, 3, bias=False))
        qt = torch.ao.quantization.quantize_dynamic(t.eval(), {torch.nn.Linear})
        g = gnn.nn.Sequential(gnn.nn.Linear(12, 7), gnn.nn.ReLU(), gnn.nn.Linear(7, 3, bias=False))
        qg = gnn.ao.quantization.quantize_dynamic(g, {gnn.nn.Linear})
        qg.load_state_dict(gnn_state_of_torch_quantized(qt.state_dict()))
        x = torch.randn(20, 12)
        yt = qt(x).numpy()
        np.testing.assert_allclose(np_of(qg(gnn.tensor(x.numpy()))), yt, rtol=1e-5,
                                   atol=1e-5 * np.abs(yt).max())

    def test_save_load_json_round_trip(self):
        import os
        import tempfile
        t, g = mlp_pair([9, 6, 4])
        qg = gnn.ao.quantization.quantize_dynamic(g, {gnn.nn.Linear})
        x = gnn.tensor(np.random.RandomState(0).randn(5, 9).astype(np.float32))
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, 'q.safetensors')
            gnn.save(qg.state_dict(), path)
            back = Gnn.Module.new_from_json(qg.to_json(False), -1)
            self.assertEqual(repr(back), repr(qg))
            self.assertEqual(type(back[0]).__name__, 'DynamicQuantizedLinear')
            back.load_state_dict(gnn.load(path))
        np.testing.assert_array_equal(np_of(back(x)), np_of(qg(x)))
        np.testing.assert_array_equal(np_of(back[2].weight().int_repr()), np_of(qg[2].weight().int_repr()))
        self.assertEqual(back[2].weight().q_scale(), qg[2].weight().q_scale())
        # a per-channel layer keeps its scheme through the JSON
        pc = Gnn.DynamicQuantizedLinear(4, 3, qscheme=gnn.per_channel_affine)
        self.assertEqual(tuple(pc.state_dict()['_packed_params.weight_scale'].shape), (3,))
        pc2 = Gnn.Module.new_from_json(pc.to_json(False), -1)
        self.assertEqual(tuple(pc2.state_dict()['_packed_params.weight_scale'].shape), (3,))
        self.assertIn('per_channel_affine', repr(pc2))
        # a per-tensor state into a per-channel layer: the size mismatch names the key
        with self.assertRaises(Exception) as cm:
            pc.load_state_dict(qg[0].state_dict())
        self.assertIn('weight_scale', str(cm.exception))


def qparams_equal(test, tq, gq, label):
    (ts, tz), (gs, gz) = tq, gq
    np.testing.assert_array_equal(np_of(gs), ts.numpy(), label)
    np.testing.assert_array_equal(np_of(gz), tz.numpy(), label)
    test.assertEqual(str(gz.dtype), str(tz.dtype), label)
    test.assertEqual(str(gs.dtype), str(ts.dtype), label)


class HistogramAndPerChannel(unittest.TestCase):
    # torch 1.13's qparams exactly (scale, zero point, their dtypes) and its histogram buffer
    # bit for bit, over 6 settings x 4 data sets x 3 batches (the later batches widen the range,
    # so the histograms are combined) and 5 per-channel settings x 3 batches
    def test_histogram_matches_torch(self):
        for kw in (dict(), dict(dtype='qint8', qscheme='sym'), dict(reduce_range=True),
                   dict(bins=256, upsample_rate=16), dict(dtype='qint8'), dict(bins=100)):
            for seed in range(4):
                tkw, gkw = dict(kw), dict(kw)
                if kw.get('dtype'):
                    tkw['dtype'], gkw['dtype'] = torch.qint8, gnn.qint8
                if kw.get('qscheme'):
                    tkw['qscheme'], gkw['qscheme'] = torch.per_tensor_symmetric, gnn.per_tensor_symmetric
                t = torch.ao.quantization.HistogramObserver(**tkw)
                g = gnn.ao.quantization.HistogramObserver(**gkw)
                torch.manual_seed(seed)
                for b in range(3):
                    x = torch.randn(200, 30) * (1 + 2 * b + seed) + (seed - 1.5)
                    if seed == 3:
                        x = torch.rand(500) * 5
                    t(x)
                    g(gnn.tensor(x.numpy()))
                    label = '%r seed %d batch %d' % (kw, seed, b)
                    np.testing.assert_array_equal(np_of(g.histogram), t.histogram.numpy(), label)
                    self.assertEqual(g.min_val.item(), t.min_val.item(), label)
                    self.assertEqual(g.max_val.item(), t.max_val.item(), label)
                    qparams_equal(self, t.calculate_qparams(), g.calculate_qparams(), label)
        self.assertEqual(list(g.state_dict()), list(t.state_dict()))

    def test_per_channel_matches_torch(self):
        torch.manual_seed(1)
        for kw in (dict(), dict(ch_axis=1), dict(dtype='qint8', qscheme='sym'),
                   dict(reduce_range=True, ch_axis=-1),
                   dict(dtype='qint8', qscheme='affine', quant_min=-100, quant_max=100)):
            tkw, gkw = dict(kw), dict(kw)
            if kw.get('dtype'):
                tkw['dtype'], gkw['dtype'] = torch.qint8, gnn.qint8
            if kw.get('qscheme'):
                sym = kw['qscheme'] == 'sym'
                tkw['qscheme'] = torch.per_channel_symmetric if sym else torch.per_channel_affine
                gkw['qscheme'] = gnn.per_channel_symmetric if sym else gnn.per_channel_affine
            t = torch.ao.quantization.PerChannelMinMaxObserver(**tkw)
            g = gnn.ao.quantization.PerChannelMinMaxObserver(**gkw)
            for b in range(3):
                x = torch.randn(4, 5, 6) * (b + 1)
                t(x)
                g(gnn.tensor(x.numpy()))
                qparams_equal(self, t.calculate_qparams(), g.calculate_qparams(), '%r %d' % (kw, b))
            self.assertEqual(list(g.state_dict()), list(t.state_dict()))
            np.testing.assert_array_equal(np_of(g.min_val), t.min_val.numpy())
        # torch's state dict (min_val/max_val of 4 channels) loads into a fresh observer
        g2 = gnn.ao.quantization.PerChannelMinMaxObserver(dtype=gnn.qint8, qscheme=gnn.per_channel_affine,
                                                          quant_min=-100, quant_max=100)
        self.assertEqual(tuple(g2.min_val.shape), (0,))
        g2.load_state_dict({k: gnn.tensor(v.numpy()) for k, v in t.state_dict().items()})
        qparams_equal(self, t.calculate_qparams(), g2.calculate_qparams(), 'loaded')

    def test_errors(self):
        h = gnn.ao.quantization.HistogramObserver()
        with self.assertRaises(GLib.Error) as cm:
            h.calculate_qparams()
        self.assertIn('seen no data', cm.exception.message)
        with self.assertRaises(GLib.Error) as cm:
            h(gnn.tensor([1.0, float('inf')]))
        self.assertIn('finite', cm.exception.message)
        with self.assertRaises(GLib.Error) as cm:
            gnn.ao.quantization.HistogramObserver(qscheme=gnn.per_channel_affine)
        self.assertIn('per_tensor_affine or per_tensor_symmetric', cm.exception.message)
        with self.assertRaises(GLib.Error) as cm:
            gnn.ao.quantization.HistogramObserver(bins=0)
        self.assertIn('bins', cm.exception.message)
        p = gnn.ao.quantization.PerChannelMinMaxObserver()
        with self.assertRaises(GLib.Error) as cm:
            p.calculate_qparams()
        self.assertIn('seen no data', cm.exception.message)
        with self.assertRaises(GLib.Error) as cm:
            gnn.ao.quantization.PerChannelMinMaxObserver(qscheme=gnn.per_tensor_affine)
        self.assertIn('per_channel_affine or per_channel_symmetric', cm.exception.message)
        with self.assertRaises(GLib.Error) as cm:
            gnn.ao.quantization.PerChannelMinMaxObserver(qscheme=gnn.per_channel_symmetric,
                                                        reduce_range=True)
        self.assertIn('symmetric', cm.exception.message)
        p(gnn.tensor(np.zeros((3, 2), np.float32)))
        with self.assertRaises(GLib.Error) as cm:
            p(gnn.tensor(np.zeros((4, 2), np.float32)))
        self.assertIn('expected 3 channels', cm.exception.message)
        with self.assertRaises(GLib.Error) as cm:
            gnn.ao.quantization.PerChannelMinMaxObserver(ch_axis=3)(gnn.tensor(np.zeros((3, 2), np.float32)))
        self.assertIn('ch_axis', cm.exception.message)


class PrepareStatic(unittest.TestCase):
    # prepare as torch 1.13's: the same observer children (activation_post_process of the
    # QuantStub and each Linear, none on ReLU or DeQuantStub), the same state-dict keys, and
    # after 4 calibration batches the same scales and zero points for the qconfigs of all four
    # backends and default_qconfig (15 observers; all 15 exactly equal on the CPU backend)
    def test_prepare_calibrate_matches_torch(self):
        import warnings
        tq, gq = torch.ao.quantization, gnn.ao.quantization
        torch.manual_seed(0)
        t = torch.nn.Sequential(tq.QuantStub(), torch.nn.Linear(8, 6), torch.nn.ReLU(),
                                torch.nn.Linear(6, 3), tq.DeQuantStub())
        g = gnn.nn.Sequential(gq.QuantStub(), gnn.nn.Linear(8, 6), gnn.nn.ReLU(),
                              gnn.nn.Linear(6, 3), gq.DeQuantStub())
        g.load_state_dict({k: gnn.tensor(v.detach().numpy()) for k, v in t.state_dict().items()})
        for backend in ('onednn', 'x86', 'fbgemm', 'qnnpack', None):
            t.qconfig = tq.get_default_qconfig(backend) if backend else tq.default_qconfig
            g.qconfig = gq.get_default_qconfig(backend) if backend else gq.default_qconfig
            with warnings.catch_warnings():
                warnings.simplefilter('ignore')
                pt = tq.prepare(t.eval())
            pg = gq.prepare(g.eval())
            self.assertEqual([n for n, _ in pg.named_modules()], [n for n, _ in pt.named_modules()])
            self.assertEqual(list(pg.state_dict()), list(pt.state_dict()))
            self.assertFalse(hasattr(g[1], 'activation_post_process'))   # a copy was prepared
            torch.manual_seed(4)
            for b in range(4):
                x = torch.randn(16, 8) * (b + 1)
                yt = pt(x)
                yg = pg(gnn.tensor(x.numpy()))
                np.testing.assert_allclose(np_of(yg), yt.detach().numpy(), rtol=1e-5, atol=1e-6)
            for i in (0, 1, 3):
                ts, tz = pt[i].activation_post_process.calculate_qparams()
                gs, gz = pg[i].activation_post_process.calculate_qparams()
                if i == 0:
                    # the QuantStub sees the input itself: exactly torch's
                    self.assertEqual((gs.item(), gz.item()), (ts.item(), tz.item()), (backend, i))
                else:
                    # a Linear's output: exactly torch's on the CPU backend (all measured equal);
                    # the reference backend's matmul sums in another order, which moves an
                    # output by an ulp and so the scale by up to an ulp
                    self.assertAlmostEqual(gs.item(), ts.item(), delta=2e-7 * ts.item(), msg=(backend, i))
                    self.assertLessEqual(abs(gz.item() - tz.item()), 1, (backend, i))
        self.assertEqual(type(pg[1].activation_post_process).__name__, 'MinMaxObserver')
        self.assertIn('(activation_post_process): MinMaxObserver(', repr(pg))

    def test_qconfigs(self):
        tq, gq = torch.ao.quantization, gnn.ao.quantization
        for backend in ('onednn', 'x86', 'fbgemm', 'qnnpack', 'other'):
            tc, gc = tq.get_default_qconfig(backend), gq.get_default_qconfig(backend)
            for tf, gf in ((tc.activation, gc.activation), (tc.weight, gc.weight)):
                self.assertEqual(gf.func.__name__, tf.p.func.__name__, backend)   # torch wraps its partial
                tobs, gobs = tf(), gf()
                self.assertEqual(repr(gobs.qscheme), repr(tobs.qscheme))
                self.assertEqual(repr(gobs.dtype), repr(tobs.dtype))
                self.assertEqual((gobs.quant_min, gobs.quant_max), (tobs.quant_min, tobs.quant_max))
        with self.assertRaises(ValueError):
            gq.QConfig(activation=gq.MinMaxObserver(), weight=gq.default_weight_observer)
        stub = gq.QuantStub()
        self.assertEqual(stub(gnn.tensor([1.5])).item(), 1.5)
        self.assertEqual(repr(gq.DeQuantStub()), 'DeQuantStub()')
        # torch.quantization, the older spelling, has the same names
        for name in ('prepare', 'QConfig', 'get_default_qconfig', 'HistogramObserver', 'fuse_modules',
                     'quantize_dynamic'):
            self.assertIs(getattr(gnn.quantization, name), getattr(gq, name))
            self.assertTrue(hasattr(torch.quantization, name))


class FuseModules(unittest.TestCase):
    # fuse_modules as torch 1.13's: the same printed tree and keys, the folded conv-bn and
    # linear-bn weights within float32 rounding (max 3e-8 measured), the same outputs, and
    # prepare observing each fused module as one
    def test_fuse_matches_torch(self):
        import warnings
        tq, gq = torch.ao.quantization, gnn.ao.quantization
        torch.manual_seed(0)
        t = torch.nn.Sequential(torch.nn.Conv2d(3, 4, 3), torch.nn.BatchNorm2d(4), torch.nn.ReLU(),
                                torch.nn.Flatten(), torch.nn.Linear(16, 5), torch.nn.ReLU(),
                                torch.nn.Linear(5, 3), torch.nn.BatchNorm1d(3), torch.nn.Conv2d(1, 1, 1))
        t.train()
        for _ in range(3):
            t[:8](torch.randn(8, 3, 4, 4))
        t.eval()
        g = gnn.nn.Sequential(gnn.nn.Conv2d(3, 4, 3), gnn.nn.BatchNorm2d(4), gnn.nn.ReLU(),
                              gnn.nn.Flatten(), gnn.nn.Linear(16, 5), gnn.nn.ReLU(),
                              gnn.nn.Linear(5, 3), gnn.nn.BatchNorm1d(3), gnn.nn.Conv2d(1, 1, 1))
        g.load_state_dict({k: gnn.tensor(v.detach().numpy()) for k, v in t.state_dict().items()})
        g.eval()
        groups = [['0', '1', '2'], ['4', '5'], ['6', '7']]
        ft, fg = tq.fuse_modules(t, groups), gq.fuse_modules(g, groups)
        self.assertEqual(repr(fg), repr(ft))
        self.assertEqual(list(fg.state_dict()), list(ft.state_dict()))
        for k, v in ft.state_dict().items():
            np.testing.assert_allclose(np_of(fg.state_dict()[k]), v.numpy(), rtol=1e-5, atol=1e-6, err_msg=k)
        x = torch.randn(5, 3, 4, 4)
        np.testing.assert_allclose(np_of(fg[:8](gnn.tensor(x.numpy()))), ft[:8](x).detach().numpy(),
                                   rtol=1e-5, atol=1e-6)
        self.assertEqual(type(g[0]).__name__, 'Conv2d')       # a copy was fused
        self.assertEqual(type(fg[0]).__name__, 'ConvReLU2d')
        ft.qconfig, fg.qconfig = tq.get_default_qconfig('onednn'), gq.get_default_qconfig('onednn')
        with warnings.catch_warnings():
            warnings.simplefilter('ignore')
            pt = tq.prepare(ft)
        pg = gq.prepare(fg)
        self.assertEqual([n for n, _ in pg.named_modules()], [n for n, _ in pt.named_modules()])
        # conv + relu alone, one list, in place
        g2 = gnn.nn.Sequential(gnn.nn.Conv2d(1, 2, 1), gnn.nn.ReLU())
        self.assertIs(gq.fuse_modules(g2, ['0', '1'], inplace=True), g2)
        self.assertEqual(type(g2[0]).__name__, 'ConvReLU2d')

    def test_errors(self):
        gq = gnn.ao.quantization
        g = gnn.nn.Sequential(gnn.nn.Linear(2, 2), gnn.nn.Sigmoid(), gnn.nn.Conv2d(1, 1, 1), gnn.nn.BatchNorm2d(1))
        with self.assertRaises(NotImplementedError) as cm:
            gq.fuse_modules(g, ['0', '1'])
        self.assertIn('Cannot fuse modules', str(cm.exception))
        with self.assertRaises(NotImplementedError) as cm:
            gq.fuse_modules(g.train(), ['2', '3'])
        self.assertIn('training', str(cm.exception))
        with self.assertRaises(AssertionError):
            Gnn.LinearReLU(gnn.nn.Conv2d(1, 1, 1), gnn.nn.ReLU())   # torch.ao.nn.intrinsic has no gnn namespace yet


class ConvertStatic(unittest.TestCase):
    # QuantStub -> Linear+ReLU (fused) -> Linear -> DeQuantStub, onednn qconfig, 8 calibration
    # batches, then convert: torch 1.13's onednn engine and gnn agree to the integer at every
    # stage (measured: 0 of 16384 LinearReLU outputs and 0 of 2560 Linear outputs off by one
    # quantum, for 256 random inputs), so the float outputs are equal
    def test_mlp_matches_torch_onednn(self):
        import warnings
        tq, gq = torch.ao.quantization, gnn.ao.quantization
        self.assertIn('onednn', torch.backends.quantized.supported_engines)
        torch.backends.quantized.engine = 'onednn'
        torch.manual_seed(0)
        t = torch.nn.Sequential(tq.QuantStub(), torch.nn.Linear(32, 64), torch.nn.ReLU(),
                                torch.nn.Linear(64, 10), tq.DeQuantStub()).eval()
        g = gnn.nn.Sequential(gq.QuantStub(), gnn.nn.Linear(32, 64), gnn.nn.ReLU(),
                              gnn.nn.Linear(64, 10), gq.DeQuantStub()).eval()
        g.load_state_dict({k: gnn.tensor(v.detach().numpy()) for k, v in t.state_dict().items()})
        t, g = tq.fuse_modules(t, [['1', '2']]), gq.fuse_modules(g, [['1', '2']])
        t.qconfig, g.qconfig = tq.get_default_qconfig('onednn'), gq.get_default_qconfig('onednn')
        with warnings.catch_warnings():
            warnings.simplefilter('ignore')
            pt = tq.prepare(t)
        pg = gq.prepare(g)
        for _ in range(8):
            x = torch.randn(32, 32)
            pt(x)
            pg(gnn.tensor(x.numpy()))
        # the observers' states as torch's (PrepareStatic checks calibration itself; on the
        # reference backend a float Linear output may differ by an ulp), so that this test sees
        # the integer kernels alone
        pg.load_state_dict({k: gnn.tensor(v.detach().numpy()) for k, v in pt.state_dict().items()})
        qt, qg = tq.convert(pt), gq.convert(pg)
        self.assertEqual(repr(qg), repr(qt))
        x = torch.randn(256, 32)
        xt, xg = qt[0](x), qg[0](gnn.tensor(x.numpy()))
        np.testing.assert_array_equal(np_of(xg.int_repr()), xt.int_repr().numpy())
        h1t, h1g = qt[1](xt), qg[1](xg)
        d1 = np_of(h1g.int_repr()).astype(int) - h1t.int_repr().numpy().astype(int)
        self.assertEqual(np.abs(d1).max(), 0)
        # the second layer from torch's integers, to see its own agreement
        h3t = qt[3](h1t)
        h3g = qg[3](gnn.quantize_per_tensor(gnn.tensor(h1t.dequantize().numpy()), h1t.q_scale(),
                                            h1t.q_zero_point(), gnn.quint8))
        d3 = np_of(h3g.int_repr()).astype(int) - h3t.int_repr().numpy().astype(int)
        self.assertEqual(np.abs(d3).max(), 0)
        np.testing.assert_array_equal(np_of(qg(gnn.tensor(x.numpy()))), qt(x).numpy())
        self.assertEqual(qg[1].weight().q_per_channel_scales().numpy().tolist(),
                         qt[1].weight().q_per_channel_scales().numpy().tolist())
        # saved: torch's keys but the packed tuple's four parts, and back through gnn.save/load
        import os
        import tempfile
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, 'static.safetensors')
            gnn.save(qg.state_dict(), path)
            fresh = gq.convert(pg)
            for k, v in gnn.load(path).items():
                self.assertIn(k, fresh.state_dict())
            fresh.load_state_dict(gnn.load(path))
        np.testing.assert_array_equal(np_of(fresh(gnn.tensor(x.numpy()))), qt(x).numpy())

    def test_relu_and_qnnpack(self):
        # an unfused ReLU on quantized values (max (q, zero_point)) and the qnnpack qconfig and
        # engine: qnnpack requantizes with a fixed-point multiplier, gnn in float32, so a few
        # outputs land one quantum apart (measured: 2 of 1000 final outputs, 0 of 4800 after
        # the first layer and ReLU)
        import warnings
        tq, gq = torch.ao.quantization, gnn.ao.quantization
        if 'qnnpack' not in torch.backends.quantized.supported_engines:
            self.skipTest('torch has no qnnpack engine')
        torch.manual_seed(1)
        t = torch.nn.Sequential(tq.QuantStub(), torch.nn.Linear(16, 24), torch.nn.ReLU(),
                                torch.nn.Linear(24, 5), tq.DeQuantStub()).eval()
        g = gnn.nn.Sequential(gq.QuantStub(), gnn.nn.Linear(16, 24), gnn.nn.ReLU(),
                              gnn.nn.Linear(24, 5), gq.DeQuantStub()).eval()
        g.load_state_dict({k: gnn.tensor(v.detach().numpy()) for k, v in t.state_dict().items()})
        t.qconfig, g.qconfig = tq.get_default_qconfig('qnnpack'), gq.get_default_qconfig('qnnpack')
        old = torch.backends.quantized.engine
        torch.backends.quantized.engine = 'qnnpack'
        try:
            with warnings.catch_warnings():
                warnings.simplefilter('ignore')
                pt = tq.prepare(t)
            pg = gq.prepare(g)
            for _ in range(4):
                x = torch.randn(32, 16)
                pt(x)
                pg(gnn.tensor(x.numpy()))
            pg.load_state_dict({k: gnn.tensor(v.detach().numpy()) for k, v in pt.state_dict().items()})
            qt, qg = tq.convert(pt), gq.convert(pg)
            self.assertEqual(repr(qg), repr(qt))
            x = torch.randn(200, 16)
            ht = qt[2](qt[1](qt[0](x)))
            hg = qg[2](qg[1](qg[0](gnn.tensor(x.numpy()))))
            d = np_of(hg.int_repr()).astype(int) - ht.int_repr().numpy().astype(int)
            self.assertLessEqual(np.abs(d).max(), 1)
            yt, yg = qt(x).numpy(), np_of(qg(gnn.tensor(x.numpy())))
            quanta = np.rint(np.abs(yt - yg) / qt[3].scale)
            self.assertLessEqual(quanta.max(), 1)
            self.assertLessEqual((quanta > 0).sum(), 10)       # of 1000
        finally:
            torch.backends.quantized.engine = old

    def test_cnn_matches_torch_onednn(self):
        # QuantStub -> Conv2d+BatchNorm2d+ReLU (fused, padding 1) -> Conv2d (stride 2) -> Flatten
        # -> Linear -> DeQuantStub under the onednn qconfig: every integer equals torch 1.13's
        # onednn engine's (measured: 0 of 32768 ConvReLU2d, 0 of 3136 Conv2d and 0 of 160 final
        # outputs off by one quantum, for 16 random 3x16x16 inputs)
        import warnings
        tq, gq = torch.ao.quantization, gnn.ao.quantization
        torch.backends.quantized.engine = 'onednn'
        torch.manual_seed(2)

        def build(nn, stubs):
            return nn.Sequential(stubs.QuantStub(), nn.Conv2d(3, 8, 3, padding=1), nn.BatchNorm2d(8), nn.ReLU(),
                                 nn.Conv2d(8, 4, 3, stride=2), nn.Flatten(), nn.Linear(4 * 7 * 7, 10),
                                 stubs.DeQuantStub())
        t = build(torch.nn, tq)
        t.train()
        for _ in range(2):
            t(torch.randn(8, 3, 16, 16))
        t.eval()
        g = build(gnn.nn, gq)
        g.load_state_dict({k: gnn.tensor(v.detach().numpy()) for k, v in t.state_dict().items()})
        g.eval()
        t, g = tq.fuse_modules(t, [['1', '2', '3']]), gq.fuse_modules(g, [['1', '2', '3']])
        t.qconfig, g.qconfig = tq.get_default_qconfig('onednn'), gq.get_default_qconfig('onednn')
        with warnings.catch_warnings():
            warnings.simplefilter('ignore')
            pt = tq.prepare(t)
        pg = gq.prepare(g)
        for _ in range(4):
            x = torch.randn(8, 3, 16, 16)
            pt(x)
            pg(gnn.tensor(x.numpy()))
        pg.load_state_dict({k: gnn.tensor(v.detach().numpy()) for k, v in pt.state_dict().items()})
        qt, qg = tq.convert(pt), gq.convert(pg)
        self.assertEqual(repr(qg), repr(qt))
        x = torch.randn(16, 3, 16, 16)
        at = qt[0](x)
        for i in (1, 4):
            bt = qt[i](at)
            bg = qg[i](gnn.quantize_per_tensor(gnn.tensor(at.dequantize().numpy()), at.q_scale(),
                                               at.q_zero_point(), gnn.quint8))
            d = np_of(bg.int_repr()).astype(int) - bt.int_repr().numpy().astype(int)
            self.assertEqual(np.abs(d).max(), 0, i)
            at = bt
        np.testing.assert_array_equal(np_of(qg(gnn.tensor(x.numpy()))), qt(x).numpy())

    def test_convert_errors(self):
        gq = gnn.ao.quantization
        g = gnn.nn.Sequential(gq.QuantStub(), gnn.nn.Conv2d(1, 1, 1, padding='same'), gq.DeQuantStub()).eval()
        g.qconfig = gq.default_qconfig
        p = gq.prepare(g)
        p(gnn.tensor(np.ones((1, 1, 2, 2), np.float32)))
        with self.assertRaises(NotImplementedError) as cm:
            gq.convert(p)
        self.assertIn('padding', str(cm.exception))
        lin = Gnn.QuantizedLinear(3, 2)   # torch.ao.nn.quantized has no gnn namespace yet
        with self.assertRaises(GLib.Error) as cm:
            lin(gnn.quantize_per_tensor(gnn.tensor([1.0, 2.0, 3.0]), 0.1, 0, gnn.qint8))
        self.assertIn('quint8', cm.exception.message)
        with self.assertRaises(GLib.Error) as cm:
            lin(gnn.quantize_per_tensor(gnn.tensor([1.0, 2.0]), 0.1, 0, gnn.quint8))
        self.assertIn('in_features', cm.exception.message)


if __name__ == '__main__':
    unittest.main()
