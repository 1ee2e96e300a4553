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
        with self.assertRaisesRegex(NotImplementedError, 'FusedMovingAvgObsFakeQuantize'):
            gq.get_default_qat_qconfig('fbgemm')
        self.assertIs(gq.default_qat_qconfig.weight, gq.default_weight_fake_quant)
        self.assertIs(gnn.quantization.FakeQuantize, gq.FakeQuantize)


if __name__ == '__main__':
    unittest.main()
