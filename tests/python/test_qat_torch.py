# quantization-aware training against torch 1.13 (gi/overrides/_gnn/qat.py):
# torch.fake_quantize_per_tensor_affine / _per_channel_affine bit for bit with the
# straight-through gradient, FakeQuantize and its qconfigs, prepare_qat -> training -> convert
#
# SPDX-License-Identifier: LGPL-2.1-or-later
import unittest

import numpy as np
import torch

import gnn
from gi.repository import Gnn

tq = torch.ao.quantization
gq = gnn.ao.quantization


def np_of(t):
    return np.asarray(t.detach().numpy()) if hasattr(t, 'detach') else np.asarray(t.numpy())


def both(x, requires_grad=False):
    t = x.clone().requires_grad_(requires_grad)
    g = gnn.tensor(x.numpy(), requires_grad=requires_grad)
    return t, g


class FakeQuantizeFunctions(unittest.TestCase):
    def test_per_tensor_bits_and_gradient(self):
        # the forward is torch's kernel's arithmetic exactly (x times the float32 reciprocal of
        # the scale, half to even, then (q - z) * scale); the gradient is 1 inside the range and
        # 0 outside, the same elements as torch's mask
        torch.manual_seed(0)
        x = torch.cat([torch.randn(20000) * 3, torch.tensor([0.5, 1.5, 2.5, -0.5, 1e9, -1e9])])
        w = torch.randn(x.shape)
        for dt in (torch.float32, torch.float64):
            for s, z, lo, hi in [(0.1, 3, -128, 127), (0.0371, 128, 0, 255), (0.013, 0, 0, 127),
                                 (1 / 3, 10, 0, 15)]:
                with self.subTest(dtype=dt, scale=s):
                    tx, gx = both(x.to(dt), True)
                    t = torch.fake_quantize_per_tensor_affine(tx, s, z, lo, hi)
                    g = gnn.fake_quantize_per_tensor_affine(gx, s, z, lo, hi)
                    (t * w.to(dt)).sum().backward()
                    (g * gnn.tensor(w.to(dt).numpy())).sum().backward()
                    self.assertEqual(repr(g.dtype), repr(t.dtype))
                    np.testing.assert_array_equal(np_of(g), np_of(t))
                    np.testing.assert_array_equal(np_of(gx.grad), np_of(tx.grad))
                    self.assertGreater(int((tx.grad == 0).sum()), 0)   # some fell outside
                    # the tensor-qparams form (what FakeQuantize calls)
                    t2 = torch.fake_quantize_per_tensor_affine(tx.detach().float(), torch.tensor([s]),
                                                               torch.tensor([z], dtype=torch.int32), lo, hi)
                    g2 = gnn.fake_quantize_per_tensor_affine(gx.detach().float(), gnn.tensor([s]),
                                                             gnn.tensor([z], dtype=gnn.int32), lo, hi)
                    np.testing.assert_array_equal(np_of(g2), np_of(t2))

    def test_per_channel_bits_and_gradient(self):
        torch.manual_seed(1)
        x = torch.randn(4, 6, 3, 3) * 2
        for axis in (0, 1, 3):
            n = x.shape[axis]
            sc = torch.rand(n) * 0.1 + 0.01
            zp = torch.randint(-5, 5, (n,), dtype=torch.int32)
            with self.subTest(axis=axis):
                tx, gx = both(x, True)
                t = torch.fake_quantize_per_channel_affine(tx, sc, zp, axis, -128, 127)
                g = gnn.fake_quantize_per_channel_affine(gx, gnn.tensor(sc.numpy()), gnn.tensor(zp.numpy()),
                                                         axis, -128, 127)
                t.sum().backward()
                g.sum().backward()
                np.testing.assert_array_equal(np_of(g), np_of(t))
                np.testing.assert_array_equal(np_of(gx.grad), np_of(tx.grad))

    def test_bad_arguments_say_so(self):
        x = gnn.ones(3)
        with self.assertRaisesRegex(RuntimeError, 'quant_min. should be less than or equal'):
            gnn.fake_quantize_per_tensor_affine(x, 0.1, 0, 10, 5)
        with self.assertRaisesRegex(RuntimeError, 'zero_point. must be between'):
            gnn.fake_quantize_per_tensor_affine(x, 0.1, 300, 0, 255)
        with self.assertRaisesRegex(RuntimeError, 'not consistent with input'):
            gnn.fake_quantize_per_channel_affine(x, gnn.ones(2), gnn.zeros(2, dtype=gnn.int32), 0, 0, 255)
        with self.assertRaisesRegex(RuntimeError, 'float32 or float64'):
            gnn.fake_quantize_per_tensor_affine(gnn.ones(3, dtype=gnn.int64), 0.1, 0, 0, 255)
        for lib, mod in ((gnn, gnn), (torch, torch)):   # torch takes no negative axis either
            with self.assertRaisesRegex(RuntimeError, 'axis. must be between 0'):
                lib.fake_quantize_per_channel_affine(mod.ones(2, 3), mod.ones(3), mod.zeros(3, dtype=mod.int32),
                                                     -1, 0, 255)


class FakeQuantizeModule(unittest.TestCase):
    def test_default_fake_quants_follow_torch(self):
        # four steps of observing and fake quantizing: outputs, gradients, the scale and zero
        # point buffers and the whole state dict (keys, dtypes, values) are torch's
        for name in ['default_fake_quant', 'default_weight_fake_quant',
                     'default_per_channel_weight_fake_quant']:
            torch.manual_seed(0)
            tf, gf = getattr(tq, name)(), getattr(gq, name)()
            for step in range(4):
                with self.subTest(name=name, step=step):
                    tx, gx = both(torch.randn(6, 5) * (step + 1), True)
                    a, b = tf(tx), gf(gx)
                    a.sum().backward()
                    b.sum().backward()
                    np.testing.assert_array_equal(np_of(b), np_of(a))
                    np.testing.assert_array_equal(np_of(gx.grad), np_of(tx.grad))
            tsd, gsd = tf.state_dict(), gf.state_dict()
            self.assertEqual(list(gsd.keys()), list(tsd.keys()))
            for k in tsd:
                self.assertEqual(repr(gsd[k].dtype), repr(tsd[k].dtype), k)
                np.testing.assert_array_equal(np_of(gsd[k]), tsd[k].numpy(), err_msg=k)
            self.assertEqual((gf.quant_min, gf.quant_max, gf.ch_axis, gf.is_per_channel),
                             (tf.quant_min, tf.quant_max, tf.ch_axis, tf.is_per_channel))
            self.assertEqual(repr(gf.dtype), repr(tf.dtype))
            self.assertEqual(repr(gf.qscheme), repr(tf.qscheme))
            ts, tz = tf.calculate_qparams()
            gs, gz = gf.calculate_qparams()
            np.testing.assert_array_equal(np_of(gs), ts.numpy())
            np.testing.assert_array_equal(np_of(gz), tz.numpy())
            # a copy keeps the observer's arguments and state
            c = Gnn.Module.copy(gf)
            self.assertEqual(repr(c.qscheme), repr(tf.qscheme))
            np.testing.assert_array_equal(np_of(c.scale), tf.scale.numpy())

    def test_switches(self):
        gf, tf = gq.default_fake_quant(), tq.default_fake_quant()
        x = torch.randn(10)
        gf(gnn.tensor(x.numpy()))
        tf(x)
        for f in (gf, tf):
            f.disable_observer()
            f.disable_fake_quant()
        self.assertEqual(int(gf.observer_enabled[0].item()), 0)
        y = torch.randn(10) * 5
        np.testing.assert_array_equal(np_of(gf(gnn.tensor(y.numpy()))), y.numpy())   # identity now
        np.testing.assert_array_equal(np_of(gf.scale), tf.scale.numpy())             # not observed
        gf.enable_fake_quant()
        tf.enable_fake_quant()
        np.testing.assert_array_equal(np_of(gf(gnn.tensor(y.numpy()))), tf(y).numpy())
        m = gnn.nn.Sequential(gq.default_fake_quant())
        m.apply(gq.disable_observer)
        self.assertEqual(int(m[0].observer_enabled[0].item()), 0)
        m.apply(gq.enable_observer)
        self.assertEqual(int(m[0].observer_enabled[0].item()), 1)
        self.assertEqual(repr(gf).splitlines()[1], repr(tf).splitlines()[1])

    def test_fused_moving_avg_obs_fake_quant(self):
        # torch's fused kernel: the running min/max moved in double precision, the qparams from
        # ChooseQuantizationParams (symmetric schemes preserving sparsity), not the observer's
        # formula; scales, zero points, outputs, gradients and the state dict as torch's
        cases = [({}, {}),
                 (dict(dtype=torch.qint8, quant_min=-128, quant_max=127, qscheme=torch.per_tensor_symmetric),
                  dict(dtype=gnn.qint8, quant_min=-128, quant_max=127, qscheme=gnn.per_tensor_symmetric)),
                 (dict(reduce_range=True), dict(reduce_range=True)),
                 (dict(observer=tq.MovingAveragePerChannelMinMaxObserver, dtype=torch.qint8, quant_min=-128,
                       quant_max=127, qscheme=torch.per_channel_symmetric),
                  dict(observer=gq.MovingAveragePerChannelMinMaxObserver, dtype=gnn.qint8, quant_min=-128,
                       quant_max=127, qscheme=gnn.per_channel_symmetric))]
        torch.manual_seed(0)
        for tcfg, gcfg in cases:
            for trial in range(10):
                tf, gf = tq.FusedMovingAvgObsFakeQuantize(**tcfg), gq.FusedMovingAvgObsFakeQuantize(**gcfg)
                for step in range(3):
                    with self.subTest(cfg=tcfg, trial=trial, step=step):
                        tx, gx = both(torch.randn(4, 5) * (trial + 1) * 0.3 + trial * 0.05 * (step - 1), True)
                        a, b = tf(tx), gf(gx)
                        a.sum().backward()
                        b.sum().backward()
                        np.testing.assert_array_equal(np_of(gf.scale), tf.scale.numpy())
                        np.testing.assert_array_equal(np_of(gf.zero_point), tf.zero_point.numpy())
                        np.testing.assert_array_equal(np_of(b), np_of(a))
                        np.testing.assert_array_equal(np_of(gx.grad), np_of(tx.grad))
                tsd, gsd = tf.state_dict(), gf.state_dict()
                self.assertEqual(list(gsd.keys()), list(tsd.keys()))
                for k in tsd:
                    self.assertEqual(repr(gsd[k].dtype), repr(tsd[k].dtype), k)
                    np.testing.assert_array_equal(np_of(gsd[k]), tsd[k].numpy(), err_msg=k)
                self.assertEqual(repr(gf).splitlines()[1], repr(tf).splitlines()[1])

    def test_qat_qconfigs(self):
        for backend in ('fbgemm', 'qnnpack', 'onednn', 'x86', 'other'):
            with self.subTest(backend=backend):
                g, t = gq.get_default_qat_qconfig(backend, 0), tq.get_default_qat_qconfig(backend, 0)
                ga, ta = g.activation(), t.activation()
                gw, tw = g.weight(), t.weight()
                for gm, tm in ((ga, ta), (gw, tw)):
                    self.assertEqual((gm.quant_min, gm.quant_max, gm.ch_axis), (tm.quant_min, tm.quant_max, tm.ch_axis))
                    self.assertEqual(repr(gm.qscheme), repr(tm.qscheme))
                    self.assertEqual(repr(gm.dtype), repr(tm.dtype))
                    self.assertEqual(type(gm.activation_post_process).__name__,
                                     type(tm.activation_post_process).__name__)
        for backend in ('fbgemm', 'qnnpack', 'onednn', 'x86', 'other'):   # version 1, torch's default
            with self.subTest(backend=backend, version=1):
                g, t = gq.get_default_qat_qconfig(backend), tq.get_default_qat_qconfig(backend)
                for gm, tm in ((g.activation(), t.activation()), (g.weight(), t.weight())):
                    self.assertEqual(type(gm).__name__, 'FusedMovingAvgObsFakeQuantize')
                    self.assertEqual((gm.quant_min, gm.quant_max, gm.ch_axis), (tm.quant_min, tm.quant_max, tm.ch_axis))
                    self.assertEqual(repr(gm.qscheme), repr(tm.qscheme))
                    self.assertEqual(type(gm.activation_post_process).__name__,
                                     type(tm.activation_post_process).__name__)
        self.assertIs(gq.default_qat_qconfig.weight, gq.default_weight_fake_quant)
        self.assertIs(gnn.quantization.FakeQuantize, gq.FakeQuantize)


def mlp(lib):
    nn = lib.nn
    return nn.Sequential(lib.ao.quantization.QuantStub(), nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 4),
                         lib.ao.quantization.DeQuantStub())


def cnn(lib):
    nn = lib.nn
    return nn.Sequential(lib.ao.quantization.QuantStub(), nn.Conv2d(3, 8, 3, padding=1), nn.BatchNorm2d(8),
                         nn.ReLU(), nn.Conv2d(8, 8, 3, stride=2), nn.ReLU(), nn.Conv2d(8, 4, 1), nn.Flatten(),
                         nn.Linear(4 * 3 * 3, 5), lib.ao.quantization.DeQuantStub())


def dyadic(shape, scale=16):
    # values k / scale, small k: float32 sums of their products are exact in any order, so
    # torch's and gnn's convolutions give the same bits
    return torch.randint(-8, 9, shape).float() / scale


class PrepareTrainConvert(unittest.TestCase):
    def setUp(self):
        torch.backends.quantized.engine = 'onednn'

    def build(self, make, fuse, backend, dyadic_weights=False, version=0):
        torch.manual_seed(0)
        t, g = make(torch), make(gnn)
        t.train()
        if any(isinstance(m, torch.nn.BatchNorm2d) for m in t.modules()):
            for _ in range(2):
                t(torch.randn(4, 3, 8, 8))         # running statistics to fold
        g.load_state_dict({k: gnn.tensor(v.numpy()) for k, v in t.state_dict().items()})
        t.eval()
        g.eval()
        t, g = tq.fuse_modules(t, fuse), gq.fuse_modules(g, fuse)
        t.train()
        g.train()
        t.qconfig = tq.get_default_qat_qconfig(backend, version)
        g.qconfig = gq.get_default_qat_qconfig(backend, version)
        t, g = tq.prepare_qat(t), gq.prepare_qat(g)
        if dyadic_weights:      # (after the batch norm is folded in)
            with torch.no_grad(), gnn.no_grad():
                for (_, tp), (_, gp) in zip(t.named_parameters(), g.named_parameters()):
                    tp.copy_(dyadic(tp.shape, 64))
                    gp.copy_(gnn.tensor(tp.numpy()))
        self.assertEqual(list(g.state_dict().keys()), list(t.state_dict().keys()))
        return t, g

    def step(self, t, g, topt, gopt, x, y):
        ta, ga = t(x), g(gnn.tensor(x.numpy()))
        tl = torch.nn.functional.cross_entropy(ta, y)
        gl = gnn.nn.functional.cross_entropy(ga, gnn.tensor(y.numpy()))
        topt.zero_grad()
        gopt.zero_grad()
        tl.backward()
        gl.backward()
        grads = [(k, gp.grad, tp.grad) for (k, tp), (_, gp) in zip(t.named_parameters(), g.named_parameters())]
        topt.step()
        gopt.step()
        return ta, ga, grads

    def test_mlp_exact(self):
        # Linear+ReLU fused and a Linear, per-channel weights (onednn's qconfig) and per-tensor
        # (qnnpack's): three SGD steps give torch's fake-quantized outputs and gradients, then
        # convert gives torch's int8 model and outputs. (On the CPU backend, whose float32
        # matmul sums as torch's here, they are equal bit for bit; the reference backend sums
        # otherwise, so an observed min/max, hence a scale, may differ in its last bit: rel 1e-5)
        for backend, version in (('onednn', 0), ('qnnpack', 0), ('fbgemm', 1), ('qnnpack', 1)):
            with self.subTest(backend=backend, version=version):
                t, g = self.build(mlp, [['1', '2']], backend, version=version)
                self.assertEqual(type(g[1]).__name__, 'LinearReLU')
                self.assertEqual(type(g[3]).__name__, 'Linear')
                self.assertEqual(repr(g).splitlines()[:3], repr(t).splitlines()[:3])
                topt = torch.optim.SGD(t.parameters(), lr=0.1, momentum=0.9)
                gopt = gnn.optim.SGD(g.parameters(), lr=0.1, momentum=0.9)
                for step in range(3):
                    x, y = torch.randn(32, 8), torch.randint(0, 4, (32,))
                    ta, ga, grads = self.step(t, g, topt, gopt, x, y)
                    np.testing.assert_allclose(np_of(ga), np_of(ta), rtol=1e-5, atol=1e-6)
                    for k, gg, tg in grads:
                        np.testing.assert_allclose(np_of(gg), tg.numpy(), rtol=1e-5, atol=1e-6, err_msg=k)
                for k, v in t.state_dict().items():
                    np.testing.assert_allclose(np_of(g.state_dict()[k]), v.numpy(), rtol=1e-5, atol=1e-6, err_msg=k)
                t.eval()
                g.eval()
                tc, gc = tq.convert(t), gq.convert(g)
                self.assertEqual(type(gc[1]).__name__, 'QuantizedLinearReLU')
                self.assertAlmostEqual(gc[3].scale.item() / tc[3].scale, 1, delta=1e-5)
                self.assertEqual(int(gc[3].zero_point.item()), tc[3].zero_point)
                np.testing.assert_array_equal(np_of(gc[1].weight().int_repr()), tc[1].weight().int_repr().numpy())
                x = torch.randn(64, 8)
                np.testing.assert_allclose(np_of(gc(gnn.tensor(x.numpy()))), tc(x).numpy(), rtol=1e-5, atol=1e-6)

    def test_cnn(self):
        # conv-bn-relu folded, conv-relu, a strided conv, a 1x1 conv and a Linear.
        # One step on dyadic weights and inputs (every float32 sum exact): outputs, gradients
        # and the updated state as torch's. Then three steps on random data: a convolution
        # sums in another order than torch's, so an output at a rounding boundary may fall one
        # quantum of its FakeQuantize away; the outputs stay within one quantum, and the
        # converted int8 model's within one output quantum too
        t, g = self.build(cnn, [['1', '2', '3'], ['4', '5']], 'onednn', dyadic_weights=True)
        self.assertEqual([type(m).__name__ for m in g], [type(m).__name__ for m in t])
        topt = torch.optim.SGD(t.parameters(), lr=0.05)
        gopt = gnn.optim.SGD(g.parameters(), lr=0.05)
        x, y = dyadic((8, 3, 8, 8)), torch.randint(0, 5, (8,))
        ta, ga, grads = self.step(t, g, topt, gopt, x, y)
        np.testing.assert_allclose(np_of(ga), np_of(ta), rtol=1e-5, atol=1e-6)
        for k, gg, tg in grads:
            np.testing.assert_allclose(np_of(gg), tg.numpy(), rtol=1e-5, atol=1e-6, err_msg=k)
        for step in range(3):
            x, y = torch.randn(16, 3, 8, 8), torch.randint(0, 5, (16,))
            quantum = t[8].activation_post_process.scale.item()
            ta, ga, _ = self.step(t, g, topt, gopt, x, y)
            off = np.abs(np_of(ga) - np_of(ta)) / quantum
            self.assertLessEqual(off.max(), 1.0001, step)
            self.assertLess((off > 0.5).mean(), 0.1, step)
        t.eval()
        g.eval()
        tc, gc = tq.convert(t), gq.convert(g)
        self.assertEqual([repr(m).split('(')[0] for m in gc][1:9],
                         ['QuantizedConvReLU2d', 'Identity', 'Identity', 'QuantizedConvReLU2d', 'Identity',
                          'QuantizedConv2d', 'Flatten', 'QuantizedLinear'])
        x = torch.randn(64, 3, 8, 8)
        off = np.abs(np_of(gc(gnn.tensor(x.numpy()))) - tc(x).numpy()) / tc[8].scale
        self.assertLessEqual(off.max(), 1.0001)
        self.assertLess((off > 0.5).mean(), 0.1)

    def test_conv_bn_folded_while_training(self):
        for backend, version in (('onednn', 0), ('fbgemm', 1)):   # FakeQuantize, then the fused one
            with self.subTest(backend=backend, version=version):
                self.conv_bn_case(backend, version)

    def conv_bn_case(self, backend, version):
        # fuse_modules_qat keeps the batch norms (ConvBnReLU2d, ConvBn2d of a conv without
        # bias); prepare_qat makes them the QAT modules that fold bn.weight / running_std into
        # the fake-quantized weight on every step while the batch norm trains on. Three SGD
        # steps: outputs within one quantum of torch's (a convolution sums in another order),
        # the running statistics as torch's; convert folds them (fuse_conv_bn_weights) into
        # torch's quantized convolutions, outputs within one output quantum
        def make(lib):
            nn = lib.nn
            return nn.Sequential(lib.ao.quantization.QuantStub(), nn.Conv2d(3, 8, 3, padding=1), nn.BatchNorm2d(8),
                                 nn.ReLU(), nn.Conv2d(8, 4, 3, stride=2, bias=False), nn.BatchNorm2d(4),
                                 nn.Flatten(), nn.Linear(4 * 3 * 3, 5), lib.ao.quantization.DeQuantStub())
        torch.manual_seed(0)
        t, g = make(torch), make(gnn)
        t.train()
        for _ in range(2):
            t(torch.randn(4, 3, 8, 8))
        g.load_state_dict({k: gnn.tensor(v.numpy()) for k, v in t.state_dict().items()})
        g.train()
        fuse = [['1', '2', '3'], ['4', '5']]
        t, g = tq.fuse_modules_qat(t, fuse), gq.fuse_modules_qat(g, fuse)
        self.assertEqual([type(m).__name__ for m in g][1:6],
                         ['ConvBnReLU2d', 'Identity', 'Identity', 'ConvBn2d', 'Identity'])
        t.qconfig = tq.get_default_qat_qconfig(backend, version)
        g.qconfig = gq.get_default_qat_qconfig(backend, version)
        t, g = tq.prepare_qat(t), gq.prepare_qat(g)
        self.assertEqual(list(g.state_dict().keys()), list(t.state_dict().keys()))
        self.assertEqual(repr(g[4]).split('(')[0], 'ConvBn2d')
        topt = torch.optim.SGD(t.parameters(), lr=0.05)
        gopt = gnn.optim.SGD(g.parameters(), lr=0.05)
        for step in range(3):
            x, y = torch.randn(16, 3, 8, 8), torch.randint(0, 5, (16,))
            quantum = t[7].activation_post_process.scale.item()
            ta, ga, _ = self.step(t, g, topt, gopt, x, y)
            off = np.abs(np_of(ga) - np_of(ta)) / quantum
            self.assertLessEqual(off.max(), 1.0001, step)
            self.assertLess((off > 0.5).mean(), 0.1, step)
        for i in (1, 4):
            np.testing.assert_allclose(np_of(g[i].bn.running_mean), t[i].bn.running_mean.numpy(), rtol=1e-4, atol=1e-5)
            np.testing.assert_allclose(np_of(g[i].bn.running_var), t[i].bn.running_var.numpy(), rtol=1e-4, atol=1e-5)
        t.eval()
        g.eval()
        tc, gc = tq.convert(t), gq.convert(g)
        self.assertEqual([repr(m).split('(')[0] for m in gc][1:8],
                         ['QuantizedConvReLU2d', 'Identity', 'Identity', 'QuantizedConv2d', 'Identity', 'Flatten',
                          'QuantizedLinear'])
        x = torch.randn(64, 3, 8, 8)
        off = np.abs(np_of(gc(gnn.tensor(x.numpy()))) - tc(x).numpy()) / tc[7].scale
        self.assertLessEqual(off.max(), 1.0001)
        self.assertLess((off > 0.5).mean(), 0.1)

    def test_checkpoint_from_torch(self):
        # a QAT checkpoint that torch trained (per-channel FakeQuantize scales of 16 and 4
        # values, fused observers' running min/max) loads into a freshly prepared gnn model,
        # whose buffers take the loaded shapes as torch's _load_from_state_dict does; the
        # fake-quantized outputs then equal torch's
        for backend, version in (('onednn', 0), ('fbgemm', 1)):
            with self.subTest(backend=backend, version=version):
                t, g = self.build(mlp, [['1', '2']], backend, version=version)
                topt = torch.optim.SGD(t.parameters(), lr=0.1)
                for _ in range(2):
                    x = torch.randn(32, 8)
                    topt.zero_grad()
                    t(x).sum().backward()
                    topt.step()
                g.load_state_dict({k: gnn.tensor(v.numpy()) for k, v in t.state_dict().items()})
                self.assertEqual(tuple(g[1].weight_fake_quant.scale.shape), (16,))
                t.apply(tq.disable_observer)
                g.apply(gq.disable_observer)
                x = torch.randn(16, 8)
                np.testing.assert_allclose(np_of(g(gnn.tensor(x.numpy()))), t(x).detach().numpy(),
                                           rtol=1e-5, atol=1e-6)

    def test_bad_use(self):
        m = mlp(gnn)
        m.qconfig = gq.get_default_qat_qconfig('qnnpack', 0)
        m.eval()
        with self.assertRaisesRegex(AssertionError, 'model.training is True'):
            gq.prepare_qat(m)
        with self.assertRaisesRegex(AssertionError, 'qconfig must be provided'):
            gnn.nn.qat.Linear(2, 3)


class DynamicStateDtype(unittest.TestCase):
    def test_packed_weight_of_another_dtype_is_refused(self):
        # torch's packed tuple holds a qint8 tensor: float integers are an error that names the
        # key and both dtypes, not a silent conversion
        m = gq.quantize_dynamic(gnn.nn.Sequential(gnn.nn.Linear(4, 3)), {gnn.nn.Linear})
        before = np_of(m[0].weight().int_repr())
        sd = dict(m.state_dict())
        sd['0._packed_params.weight'] = sd['0._packed_params.weight'].float()
        with self.assertRaises(Exception) as cm:
            m.load_state_dict(sd)
        for word in ('0._packed_params.weight', 'float32', 'int8'):
            self.assertIn(word, str(cm.exception))
        np.testing.assert_array_equal(np_of(m[0].weight().int_repr()), before)


class QuantizedTensorNames(unittest.TestCase):
    def test_quantize_per_tensor_dynamic(self):
        # torch's ChooseQuantizationParams (float32 min/max, double scale, the nudged zero
        # point, the smallest scale 6.1e-5): the same scale, zero point and integers on 600
        # inputs of many magnitudes and signs, all zeros included
        torch.manual_seed(0)
        for trial in range(150):
            n = int(torch.randint(1, 50, ()))
            x = torch.randn(n) * float(torch.rand(()) * 10 ** float(torch.randint(-6, 3, ()))) + \
                float(torch.randn(())) * (trial % 3)
            x = x.abs() if trial % 7 == 0 else -x.abs() if trial % 11 == 0 else x
            x = torch.zeros(n) if trial % 13 == 0 else x
            for tdt, gdt in ((torch.qint8, gnn.qint8), (torch.quint8, gnn.quint8)):
                for rr in (False, True):
                    t = torch.quantize_per_tensor_dynamic(x, tdt, rr)
                    g = gnn.quantize_per_tensor_dynamic(gnn.tensor(x.numpy()), gdt, rr)
                    self.assertEqual((g.q_scale(), g.q_zero_point()), (t.q_scale(), t.q_zero_point()), (trial, rr))
                    np.testing.assert_array_equal(np_of(g.int_repr()), t.int_repr().numpy())
                    self.assertEqual(repr(g.dtype), repr(t.dtype))
        with self.assertRaisesRegex(RuntimeError, 'not supported'):
            gnn.quantize_per_tensor_dynamic(gnn.ones(2), gnn.qint32, False)

    def test_namespace_forms(self):
        x = torch.randn(2, 3)
        for lib, mk in ((torch, torch.tensor), (gnn, gnn.tensor)):
            with self.subTest(lib=lib.__name__):
                q = lib.quantize_per_tensor(mk(x.numpy()), 0.05, 3, lib.quint8)
                qc = lib.quantize_per_channel(mk(x.numpy()), mk(np.array([0.1, 0.2])).double(),
                                              mk(np.array([1, 2])), 0, lib.qint8)
                self.assertEqual(lib.q_scale(q), q.q_scale())
                self.assertEqual(lib.q_zero_point(q), 3)
                np.testing.assert_array_equal(np_of(lib.int_repr(q)), np_of(q.int_repr()))
                np.testing.assert_array_equal(np_of(lib.q_per_channel_scales(qc)), [0.1, 0.2])
                np.testing.assert_array_equal(np_of(lib.q_per_channel_zero_points(qc)), [1, 2])
                self.assertEqual(lib.q_per_channel_axis(qc), 0)
                np.testing.assert_array_equal(np_of(lib.dequantize(q)), np_of(q.dequantize()))
                both_ = lib.dequantize([q, qc])
                self.assertIsInstance(both_, tuple)
                np.testing.assert_array_equal(np_of(both_[1]), np_of(qc.dequantize()))
                f = mk(x.numpy())
                self.assertIs(lib.dequantize(f), f)       # a float tensor as it is
                self.assertIs(f.dequantize(), f)
                for name in ('int_repr', 'q_scale', 'q_zero_point', 'q_per_channel_axis'):
                    with self.assertRaises(NotImplementedError):
                        getattr(f, name)()
                    with self.assertRaises(NotImplementedError):
                        getattr(lib, name)(f)
        g = gnn.quantize_per_tensor(gnn.tensor(x.numpy()), 0.05, 3, gnn.quint8)
        t = torch.quantize_per_tensor(x, 0.05, 3, torch.quint8)
        self.assertEqual(repr(g.qscheme()), repr(t.qscheme()))
        self.assertTrue(g.is_quantized)


class Functional(unittest.TestCase):
    def setUp(self):
        torch.backends.quantized.engine = 'onednn'

    def test_quantized_ops_as_torch(self):
        # QFunctional's arithmetic against torch.ops.quantized: cat, mul, add_scalar and
        # mul_scalar give torch's integers and parameters exactly. add and add_relu equal torch's
        # scalar path (both dequantized in float32, summed, requantized); torch's AVX2 path
        # dequantizes with a fused multiply-add (q * s + (-z * s)), one rounding fewer, so an
        # element at a rounding boundary may come out one step away (at most 1% here)
        from gi.overrides._gnn import qat as Q
        torch.manual_seed(0)
        x, y = torch.randn(1000) * 2, torch.randn(1000)
        for tdt, gdt in ((torch.quint8, gnn.quint8), (torch.qint8, gnn.qint8)):
            for s, z in ((0.03, 128 if tdt == torch.quint8 else 3), (0.011, 30 if tdt == torch.quint8 else -100)):
                z2 = 100 if tdt == torch.quint8 else -7
                tq_, tq2 = torch.quantize_per_tensor(x, s, z, tdt), torch.quantize_per_tensor(y, 0.02, z2, tdt)
                gq_ = gnn.quantize_per_tensor(gnn.tensor(x.numpy()), s, z, gdt)
                gq2 = gnn.quantize_per_tensor(gnn.tensor(y.numpy()), 0.02, z2, gdt)
                for c in (0.5, -0.7, 3.9, -3.9, 0.0, 100.0, -100.0, 1.3):
                    for name in ('add_scalar', 'mul_scalar'):
                        with self.subTest(dtype=tdt, scale=s, c=c, op=name):
                            t = getattr(torch.ops.quantized, name)(tq_, c)
                            g = getattr(Q.QFunctional(), name)(gq_, c)
                            self.assertEqual((g.q_scale(), g.q_zero_point()), (t.q_scale(), t.q_zero_point()))
                            np.testing.assert_array_equal(np_of(g.int_repr()), t.int_repr().numpy())
                for os_, oz in ((0.05, 10 if tdt == torch.quint8 else 0), (0.013, 128 if tdt == torch.quint8 else 5)):
                    os_ = float(np.float32(os_))    # (QFunctional's scale is a float32 buffer)
                    f = Q.QFunctional()
                    f.scale.fill_(os_)
                    f.zero_point.fill_(oz)
                    for name in ('add', 'add_relu', 'mul'):
                        with self.subTest(dtype=tdt, op=name, out=(os_, oz)):
                            t = getattr(torch.ops.quantized, name)(tq_, tq2, os_, oz)
                            g = getattr(f, name)(gq_, gq2)
                            self.assertEqual((g.q_scale(), g.q_zero_point()), (t.q_scale(), t.q_zero_point()))
                            d = np.abs(np_of(g.int_repr()).astype(int) - t.int_repr().numpy().astype(int))
                            self.assertLessEqual(d.max(), 1)
                            self.assertLessEqual((d > 0).mean(), 0.01 if name != 'mul' else 0)
                    t = torch.ops.quantized.cat([tq_, tq2], 0, os_, oz)
                    np.testing.assert_array_equal(np_of(f.cat([gq_, gq2], 0).int_repr()), t.int_repr().numpy())

    def test_qat_through_float_functional(self):
        # prepare_qat gives FloatFunctional a FakeQuantize (torch's default fbgemm qconfig, the
        # fused one): three SGD steps with add_relu as torch's, then convert's QFunctional with
        # torch's scale, zero point and outputs
        def make(lib):
            class Block(lib.nn.Module):
                def __init__(self):
                    super().__init__()
                    self.quant = lib.ao.quantization.QuantStub()
                    self.fc = lib.nn.Linear(6, 6)
                    self.skip = lib.nn.quantized.FloatFunctional()
                    self.dequant = lib.ao.quantization.DeQuantStub()

                def forward(self, x):
                    x = self.quant(x)
                    return self.dequant(self.skip.add_relu(self.fc(x), x))
            return Block()
        torch.manual_seed(0)
        t, g = make(torch), make(gnn)
        g.load_state_dict({k: gnn.tensor(v.numpy()) for k, v in t.state_dict().items()})
        t.qconfig = tq.get_default_qat_qconfig('fbgemm')
        g.qconfig = gq.get_default_qat_qconfig('fbgemm')
        t, g = tq.prepare_qat(t), gq.prepare_qat(g)
        self.assertEqual(list(g.state_dict().keys()), list(t.state_dict().keys()))
        topt, gopt = torch.optim.SGD(t.parameters(), lr=0.1), gnn.optim.SGD(g.parameters(), lr=0.1)
        for _ in range(3):
            x = torch.randn(16, 6)
            a, b = t(x), g(gnn.tensor(x.numpy()))
            np.testing.assert_allclose(np_of(b), a.detach().numpy(), rtol=1e-5, atol=1e-6)
            topt.zero_grad()
            gopt.zero_grad()
            a.sum().backward()
            b.sum().backward()
            topt.step()
            gopt.step()
        t.eval()
        g.eval()
        tc, gc = tq.convert(t), gq.convert(g)
        self.assertEqual(repr(gc.skip), repr(tc.skip))
        x = torch.randn(64, 6)
        off = np.abs(np_of(gc(gnn.tensor(x.numpy()))) - tc(x).numpy()) / tc.skip.scale
        self.assertLessEqual(off.max(), 1.0001)

    def test_prepare_calibrate_convert(self):
        # a residual block with FloatFunctional.add and cat: prepare replaces the Identity by the
        # observer (torch's state-dict keys), convert gives QFunctional with torch's scale and
        # zero point, and the quantized model's outputs are torch's within one step
        def make(lib):
            class Block(lib.nn.Module):
                def __init__(self):
                    super().__init__()
                    self.quant = lib.ao.quantization.QuantStub()
                    self.fc = lib.nn.Linear(6, 6)
                    self.skip = lib.nn.quantized.FloatFunctional()
                    self.join = lib.nn.quantized.FloatFunctional()
                    self.dequant = lib.ao.quantization.DeQuantStub()

                def forward(self, x):
                    x = self.quant(x)
                    r = self.skip.add(self.fc(x), x)
                    return self.dequant(self.join.cat([r, x], 1))
            return Block()
        torch.manual_seed(0)
        t, g = make(torch), make(gnn)
        g.load_state_dict({k: gnn.tensor(v.numpy()) for k, v in t.state_dict().items()})
        for m, lib in ((t, torch), (g, gnn)):
            m.eval()
            m.qconfig = lib.ao.quantization.get_default_qconfig('onednn')
        self.assertEqual(repr(g.skip), repr(t.skip))
        with self.assertRaisesRegex(RuntimeError, 'not intended'):
            g.skip(gnn.ones(2))
        t, g = tq.prepare(t), gq.prepare(g)
        self.assertEqual(list(g.state_dict().keys()), list(t.state_dict().keys()))
        for _ in range(4):
            x = torch.randn(16, 6)
            np.testing.assert_allclose(np_of(g(gnn.tensor(x.numpy()))), t(x).detach().numpy(), rtol=1e-5, atol=1e-6)
        tc, gc = tq.convert(t), gq.convert(g)
        self.assertEqual(repr(gc.skip), repr(tc.skip))
        self.assertEqual(list(gc.skip.state_dict().keys()), list(tc.skip.state_dict().keys()))
        self.assertAlmostEqual(gc.join.scale.item() / tc.join.scale, 1, delta=1e-6)
        self.assertEqual(int(gc.join.zero_point.item()), tc.join.zero_point)
        x = torch.randn(64, 6)
        off = np.abs(np_of(gc(gnn.tensor(x.numpy()))) - tc(x).numpy()) / tc.join.scale
        self.assertLessEqual(off.max(), 1.0001)
        self.assertLess((off > 0.5).mean(), 0.02)


class DynamicRNN(unittest.TestCase):
    def setUp(self):
        torch.backends.quantized.engine = 'onednn'

    def test_lstm_gru_as_torch(self):
        # quantize_dynamic with {LSTM} / {GRU} (and None, torch's default set for qint8): the
        # outputs and final states of one and two layers, one and two directions, batch_first,
        # equal torch's dynamic quantized ones at abs 1e-5 (measured: 1e-7; the weights, the
        # per-call activation qparams and the int32 sums are the same, the float gate
        # arithmetic rounds in another order), while quantization itself moves them by ~1e-3
        torch.manual_seed(0)
        for kind in ('LSTM', 'GRU'):
            for kw in (dict(), dict(num_layers=2, bidirectional=True, batch_first=True)):
                for spec in ('set', None):
                    with self.subTest(kind=kind, kw=kw, spec=spec):
                        t = torch.nn.Sequential(getattr(torch.nn, kind)(5, 7, **kw), torch.nn.Linear(7, 2))
                        g = gnn.nn.Sequential(getattr(gnn.nn, kind)(5, 7, **kw), gnn.nn.Linear(7, 2))
                        g.load_state_dict({k: gnn.tensor(v.numpy()) for k, v in t.state_dict().items()})
                        tq_ = tq.quantize_dynamic(t, {getattr(torch.nn, kind)} if spec else None)
                        gq_ = gq.quantize_dynamic(g, {getattr(gnn.nn, kind)} if spec else None)
                        self.assertEqual(repr(gq_[0]).split('(')[0], repr(tq_[0]).split('(')[0])
                        self.assertEqual(repr(gq_[1]).split('(')[0], repr(tq_[1]).split('(')[0])
                        x = torch.randn(3, 6, 5) if kw.get('batch_first') else torch.randn(6, 3, 5)
                        h0 = torch.randn(2 * kw.get('num_layers', 1) if kw.get('bidirectional') else 1, 3, 7)
                        thx = (h0, h0 * 0.5) if kind == 'LSTM' else h0
                        ghx = (gnn.tensor(h0.numpy()), gnn.tensor((h0 * 0.5).numpy())) if kind == 'LSTM' \
                            else gnn.tensor(h0.numpy())
                        gx = gnn.tensor(x.numpy())
                        for targs, gargs in (((x,), (gx,)), ((x, thx), (gx, ghx))):
                            to, th = tq_[0](*targs)
                            go, gh = gq_[0](*gargs)
                            np.testing.assert_allclose(np_of(go), to.numpy(), rtol=1e-5, atol=1e-5)
                            for a, b in zip(gh if kind == 'LSTM' else (gh,), th if kind == 'LSTM' else (th,)):
                                np.testing.assert_allclose(np_of(a), b.numpy(), rtol=1e-5, atol=1e-5)
                        fo, _ = t[0](x)
                        self.assertGreater(np.abs(fo.detach().numpy() - to.numpy()).max(), 1e-4)  # (quantized)

    def test_cells_as_torch(self):
        # LSTMCell, GRUCell and RNNCell (tanh, relu) through quantize_dynamic's default set:
        # torch's printed form, its state-dict prefixes (_packed_weight_ih/_hh) and outputs at
        # abs 1e-5, with and without a given state
        torch.manual_seed(2)
        for kind, kw in (('LSTMCell', {}), ('GRUCell', {}), ('RNNCell', {}), ('RNNCell', dict(nonlinearity='relu'))):
            with self.subTest(kind=kind, kw=kw):
                t = torch.nn.Sequential(getattr(torch.nn, kind)(5, 7, **kw))
                g = gnn.nn.Sequential(getattr(gnn.nn, kind)(5, 7, **kw))
                g.load_state_dict({k: gnn.tensor(v.numpy()) for k, v in t.state_dict().items()})
                tq_, gq_ = tq.quantize_dynamic(t), gq.quantize_dynamic(g)
                self.assertEqual(repr(gq_[0]).splitlines()[0].rstrip('('), repr(tq_[0]).split('(')[0])
                self.assertIn(repr(tq_[0])[len(repr(tq_[0]).split('(')[0]):].strip('()'), repr(gq_[0]))
                self.assertEqual(sorted({k.split('.')[1] for k in gq_.state_dict()}),
                                 sorted({k.split('.')[1] for k in tq_.state_dict()}))
                x, h = torch.randn(3, 5), torch.randn(3, 7)
                lstm = kind == 'LSTMCell'
                gx, gh = gnn.tensor(x.numpy()), gnn.tensor(h.numpy())
                for targs, gargs in (((x,), (gx,)), ((x, (h, h) if lstm else h), (gx, (gh, gh) if lstm else gh))):
                    a, b = tq_[0](*targs), gq_[0](*gargs)
                    for u, v in zip(a if lstm else (a,), b if lstm else (b,)):
                        np.testing.assert_allclose(np_of(v), u.detach().numpy(), rtol=1e-5, atol=1e-5)
        with self.assertRaisesRegex(AssertionError, 'bias=True'):
            gq.quantize_dynamic(gnn.nn.Sequential(gnn.nn.LSTMCell(2, 3, bias=False)))

    def test_state_round_trip(self):
        # the int8 weights travel in the state dict (per layer and direction, ih and hh as
        # DynamicQuantizedLinear's _packed_params); a fresh quantized model loads them
        torch.manual_seed(1)
        g = gnn.nn.LSTM(4, 3, num_layers=2)
        q = gq.quantize_dynamic(g, {gnn.nn.LSTM})
        sd = q.state_dict()
        self.assertIn('_all_weight_values.1.hh._packed_params.weight', sd)
        self.assertEqual(repr(sd['_all_weight_values.0.ih._packed_params.weight'].dtype), 'torch.int8')
        other = gq.quantize_dynamic(gnn.nn.LSTM(4, 3, num_layers=2), {gnn.nn.LSTM})
        other.load_state_dict(sd)
        x = gnn.tensor(np.random.default_rng(0).standard_normal((5, 2, 4)).astype(np.float32))
        np.testing.assert_array_equal(np_of(other(x)[0]), np_of(q(x)[0]))
        c = Gnn.Module.copy(q)
        np.testing.assert_array_equal(np_of(c(x)[0]), np_of(q(x)[0]))
        with self.assertRaisesRegex(RuntimeError, 'input_size'):
            q(gnn.ones(5, 2, 3))
        with self.assertRaises(Exception):
            gq.quantize_dynamic(gnn.nn.Sequential(gnn.nn.Conv2d(1, 1, 1)), {gnn.nn.Conv2d, gnn.nn.LSTM})


if __name__ == '__main__':
    unittest.main()
