# float16 and bfloat16 compute against torch 1.13: the matrix products, the convolutions, the
# pools, the reductions, norms and losses a .half() / .bfloat16() MLP or CNN needs, forward and
# backward, and a few SGD steps of such models
#
# Tolerances: gnn computes these ops in float32 and rounds the result once to the half type, as
# torch's CPU kernels do; the float32 sums may add in another order than torch's, which moves a
# result across a rounding boundary at most, so outputs agree to 2 ulps of the half type
# (bfloat16: 2^-7 relative, float16: 2^-10 relative), with an absolute floor of 2 ulps of the
# largest input-scale value for results that cancel to near zero. The oracle is torch's float32
# result on the half-rounded inputs, rounded once to the half type: torch 1.13 has no float16
# CPU kernels for these ops, and its bfloat16 gemm (Debian's build, without MKL) rounds partial
# sums to bfloat16, which moves results by up to 8 ulps (measured: 0.02 on values near 1 for a
# 4x6 @ 6x5 product), so for the products and convolutions torch's own bfloat16 kernels are only
# checked loosely (HalfOps.test_torch_bfloat16_kernels); the softmax family, the norms, the
# reductions and the pools compute in float32 and round once in torch's bfloat16 kernels too,
# and are compared with those at 2 ulps as well. Gradients of ops whose backward reads the
# rounded output (softmax, log_softmax) differ from the float32 graph's by the output's
# rounding: 4 ulps for those.
#
# SPDX-License-Identifier: LGPL-2.1-or-later
import unittest

import numpy as np
import torch
import torch.nn.functional as TF

import gnn
from gnn import nn
import gnn.nn.functional as F

MANT = {torch.bfloat16: 7, torch.float16: 10}
GNN_DT = {torch.bfloat16: gnn.bfloat16, torch.float16: gnn.float16}


def np_of(t):
    if isinstance(t, torch.Tensor):
        return t.detach().float().numpy().astype(np.float64)
    return np.asarray(t.float().numpy(), dtype=np.float64)


def g_of(t, dt, requires_grad=False):
    """the gnn copy of a float32 torch tensor, in dtype dt"""
    r = gnn.tensor(t.detach().float().numpy()).to(GNN_DT[dt])
    if requires_grad:
        r.requires_grad_(True)
    return r


def t_ref(t, dt, requires_grad=False, native=False):
    """torch's operand: the float32 value of the half-rounded input (native: the half tensor)"""
    r = t.detach().to(dt)
    if not native:
        r = r.float()
    return r.requires_grad_(requires_grad)


def round_ref(r, dt):
    return r.to(dt)


class HalfCase(unittest.TestCase):
    def assert_ulps(self, got, want, dt, ulps=2, scale=None, msg=''):
        g, w = np_of(got), np_of(round_ref(want, dt))
        self.assertEqual(g.shape, w.shape, msg)
        mant = MANT[dt]
        mag = np.maximum(np.abs(w), 2.0 ** -14)
        ulp = 2.0 ** (np.floor(np.log2(mag)) - mant)
        floor = 0.0 if scale is None else ulps * 2.0 ** (np.floor(np.log2(scale)) - mant)
        bad = np.abs(g - w) > ulps * ulp + floor
        self.assertFalse(bad.any(), '%s: %d of %d values beyond %d ulps: got %s want %s' % (
            msg, bad.sum(), bad.size, ulps, g[bad][:5], w[bad][:5]))

    def check_op(self, fn_g, fn_t, shapes, dt, ulps=2, grad_ulps=2, scale=None, grads=True, name='',
                 native=False):
        torch.manual_seed(sum(s[0] for s in shapes) + len(shapes))
        base = [torch.randn(*s) for s in shapes]
        gi = [g_of(b, dt, grads) for b in base]
        ti = [t_ref(b, dt, grads, native) for b in base]
        go = fn_g(*gi)
        to = fn_t(*ti)
        self.assertEqual(repr(go.dtype), repr(dt), name)
        self.assert_ulps(go, to, dt, ulps, scale, name + ' output')
        if not grads:
            return
        torch.manual_seed(7)
        gout = torch.randn(to.shape)
        go.backward(g_of(gout, dt))
        to.backward(t_ref(gout, dt, False, native))
        for k, (a, b) in enumerate(zip(gi, ti)):
            self.assertEqual(repr(a.grad.dtype), repr(dt), name)
            self.assert_ulps(a.grad, b.grad, dt, grad_ulps, scale, '%s grad %d' % (name, k))


OPS = [
    # name, gnn fn, torch fn, shapes, kwargs
    ('matmul', lambda a, b: a @ b, lambda a, b: a @ b, [(5, 7), (7, 3)], {}),
    ('matmul-batched', lambda a, b: a @ b, lambda a, b: a @ b, [(2, 5, 7), (7, 3)], {}),
    ('mm', gnn.mm, torch.mm, [(4, 6), (6, 5)], {}),
    ('bmm', gnn.bmm, torch.bmm, [(3, 4, 6), (3, 6, 2)], {}),
    ('addmm', gnn.addmm, torch.addmm, [(4, 5), (4, 6), (6, 5)], {}),
    ('baddbmm', gnn.baddbmm, torch.baddbmm, [(2, 4, 5), (2, 4, 6), (2, 6, 5)], {}),
    ('linear', F.linear, TF.linear, [(8, 6), (4, 6), (4,)], {}),
    ('conv1d', lambda x, w, b: F.conv1d(x, w, b, padding=1), lambda x, w, b: TF.conv1d(x, w, b, padding=1),
     [(2, 3, 9), (4, 3, 3), (4,)], {}),
    ('conv2d', lambda x, w, b: F.conv2d(x, w, b, stride=2, padding=1),
     lambda x, w, b: TF.conv2d(x, w, b, stride=2, padding=1), [(2, 3, 7, 7), (4, 3, 3, 3), (4,)], {}),
    ('conv3d', F.conv3d, TF.conv3d, [(1, 2, 4, 5, 5), (3, 2, 2, 3, 3), (3,)], {}),
    ('max_pool2d', lambda x: F.max_pool2d(x, 2), lambda x: TF.max_pool2d(x, 2), [(2, 3, 6, 6)], {}),
    ('avg_pool2d', lambda x: F.avg_pool2d(x, 2), lambda x: TF.avg_pool2d(x, 2), [(2, 3, 6, 6)], {}),
    ('sum', lambda x: x.sum(), lambda x: x.sum(), [(6, 50)], {'scale': 8.0}),
    ('sum-dim', lambda x: x.sum(1), lambda x: x.sum(1), [(6, 50)], {'scale': 4.0}),
    ('mean', lambda x: x.mean(0), lambda x: x.mean(0), [(40, 5)], {'scale': 1.0}),
    ('softmax', lambda x: F.softmax(x, 1), lambda x: TF.softmax(x, 1), [(4, 10)],
     {'grad_ulps': 4, 'scale': 0.25}),
    ('log_softmax', lambda x: F.log_softmax(x, 1), lambda x: TF.log_softmax(x, 1), [(4, 10)],
     {'grad_ulps': 4, 'scale': 1.0}),
    ('layer_norm', lambda x, w, b: F.layer_norm(x, (8,), w, b), lambda x, w, b: TF.layer_norm(x, (8,), w, b),
     [(5, 8), (8,), (8,)], {'scale': 1.0}),
    ('batch_norm', lambda x, w, b: F.batch_norm(x, None, None, w, b, training=True),
     lambda x, w, b: TF.batch_norm(x, None, None, w, b, training=True), [(6, 4), (4,), (4,)], {'scale': 1.0}),
    ('cross_entropy', lambda x: F.cross_entropy(x, gnn.tensor([0, 3, 2, 1, 4, 0])),
     lambda x: TF.cross_entropy(x, torch.tensor([0, 3, 2, 1, 4, 0])), [(6, 5)], {'scale': 1.0}),
]

GEMM_OPS = {'matmul', 'matmul-batched', 'mm', 'bmm', 'addmm', 'baddbmm', 'linear', 'conv1d', 'conv2d', 'conv3d'}


class HalfOps(HalfCase):
    def test_ops(self):
        for dt in (torch.bfloat16, torch.float16):
            for name, fg, ft, shapes, kw in OPS:
                with self.subTest(op=name, dtype=dt):
                    self.check_op(fg, ft, shapes, dt, name=name, **kw)

    def test_torch_bfloat16_kernels(self):
        # the same ops against torch's own bfloat16 kernels: at 2 ulps where those round once,
        # within 2^-4 relative (plus 2^-6 absolute) for the products, whose partial sums torch
        # 1.13 rounds
        for name, fg, ft, shapes, kw in OPS:
            with self.subTest(op=name):
                if name in GEMM_OPS:
                    torch.manual_seed(sum(s[0] for s in shapes) + len(shapes))
                    base = [torch.randn(*s) for s in shapes]
                    got = fg(*[g_of(b, torch.bfloat16) for b in base])
                    want = ft(*[b.bfloat16() for b in base])
                    np.testing.assert_allclose(np_of(got), np_of(want), rtol=2.0 ** -4, atol=2.0 ** -6)
                else:
                    self.check_op(fg, ft, shapes, torch.bfloat16, name=name, native=True, **kw)

    def test_mixed_dtypes_refused(self):
        a = gnn.randn(2, 3).to(gnn.bfloat16)
        with self.assertRaises(Exception) as cm:
            a @ gnn.randn(3, 2)
        self.assertIn('bfloat16', str(cm.exception))
        with self.assertRaises(Exception):
            a @ gnn.randn(3, 2).to(gnn.float16)


def mlp(lib):
    return lib.nn.Sequential(lib.nn.Linear(6, 16), lib.nn.ReLU(), lib.nn.LayerNorm(16), lib.nn.Linear(16, 3))


def cnn(lib):
    return lib.nn.Sequential(lib.nn.Conv2d(2, 4, 3, padding=1), lib.nn.BatchNorm2d(4), lib.nn.ReLU(),
                             lib.nn.MaxPool2d(2), lib.nn.Flatten(), lib.nn.Linear(4 * 4 * 4, 3))


class HalfTraining(HalfCase):
    def train(self, make, xshape, dt):
        # torch's model: float32 parameters holding half-rounded values, its gradients and its
        # updated parameters rounded to the half type at each step, as a half model keeps them;
        # gnn's: the model itself in the half type. Losses and parameters after 3 SGD steps agree
        # within 8 ulps of the half type (the activations round at each op in gnn only).
        torch.manual_seed(0)
        tm = make(torch)
        gm = make(gnn)
        gm.load_state_dict({k: v.detach().clone() for k, v in tm.state_dict().items()})
        tm = tm.to(dt).float()
        gm = gm.to(GNN_DT[dt])
        x = torch.randn(*xshape)
        y = torch.randint(0, 3, (xshape[0],))
        topt = torch.optim.SGD(tm.parameters(), lr=0.1)
        gopt = gnn.optim.SGD(gm.parameters(), lr=0.1)
        losses = []
        for _ in range(3):
            topt.zero_grad()
            gopt.zero_grad()
            tl = TF.cross_entropy(tm(t_ref(x, dt)), y)
            gl = F.cross_entropy(gm(g_of(x, dt)), gnn.tensor(y.numpy()))
            self.assertEqual(repr(gl.dtype), repr(dt))
            tl.backward()
            gl.backward()
            losses.append((gl.item(), tl.to(dt).item()))
            with torch.no_grad():
                for p in tm.parameters():
                    p.grad.copy_(p.grad.to(dt).float())
            topt.step()
            gopt.step()
            with torch.no_grad():
                for p in tm.parameters():
                    p.copy_(p.to(dt).float())
        for g, t in losses:
            self.assertAlmostEqual(g, t, delta=abs(t) * 2.0 ** -(MANT[dt] - 3))
        for (k, gp), (_, tp) in zip(gm.state_dict().items(), tm.state_dict().items()):
            if 'num_batches' in k:
                continue
            np.testing.assert_allclose(np_of(gp), np_of(tp), rtol=2.0 ** -(MANT[dt] - 3), atol=2.0 ** -(MANT[dt] - 1),
                                       err_msg=k)
        return gm

    def test_mlp(self):
        for dt in (torch.bfloat16, torch.float16):
            with self.subTest(dtype=dt):
                self.train(mlp, (8, 6), dt)

    def test_cnn(self):
        for dt in (torch.bfloat16, torch.float16):
            with self.subTest(dtype=dt):
                self.train(cnn, (4, 2, 8, 8), dt)


if __name__ == '__main__':
    unittest.main()
