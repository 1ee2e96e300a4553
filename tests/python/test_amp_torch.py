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
from gi.repository import Gnn

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



# ---- autocast ---------------------------------------------------------------------------------

def bf(t):
    """torch's value rounded to bfloat16 and back: where gnn's autocast rounds"""
    return t.bfloat16().float()


class AutocastState(unittest.TestCase):
    def test_defaults_as_torch(self):
        for name in ('is_autocast_enabled', 'is_autocast_cpu_enabled', 'get_autocast_cpu_dtype',
                     'get_autocast_gpu_dtype', 'is_autocast_cache_enabled'):
            with self.subTest(name=name):
                self.assertEqual(repr(getattr(gnn, name)()), repr(getattr(torch, name)()))

    def test_setters_and_nesting(self):
        gnn.set_autocast_cpu_enabled(True)
        self.assertTrue(gnn.is_autocast_cpu_enabled())
        gnn.set_autocast_cpu_enabled(False)
        gnn.set_autocast_cpu_dtype(gnn.float16)
        self.assertEqual(gnn.get_autocast_cpu_dtype(), gnn.float16)
        gnn.set_autocast_cpu_dtype(gnn.bfloat16)
        gnn.set_autocast_gpu_dtype(gnn.bfloat16)
        self.assertEqual(gnn.get_autocast_gpu_dtype(), gnn.bfloat16)
        gnn.set_autocast_gpu_dtype(gnn.float16)
        gnn.set_autocast_enabled(True)
        self.assertTrue(gnn.is_autocast_enabled())
        gnn.set_autocast_enabled(False)
        self.assertEqual(gnn.autocast_increment_nesting(), torch.autocast_increment_nesting())
        self.assertEqual(gnn.autocast_decrement_nesting(), torch.autocast_decrement_nesting())
        gnn.set_autocast_cache_enabled(False)
        self.assertFalse(gnn.is_autocast_cache_enabled())
        gnn.set_autocast_cache_enabled(True)
        gnn.clear_autocast_cache()
        with self.assertRaises(Exception) as cm:
            gnn.set_autocast_cpu_dtype(gnn.float64)
        self.assertIn('float64', str(cm.exception))

    def test_context_manager_and_decorator(self):
        with gnn.autocast('cpu') as ac:
            self.assertTrue(gnn.is_autocast_cpu_enabled())
            self.assertEqual(gnn.get_autocast_cpu_dtype(), gnn.bfloat16)
            with gnn.autocast('cpu', enabled=False, cache_enabled=False):
                self.assertFalse(gnn.is_autocast_cpu_enabled())
                self.assertFalse(gnn.is_autocast_cache_enabled())
            self.assertTrue(gnn.is_autocast_cpu_enabled())
            self.assertTrue(gnn.is_autocast_cache_enabled())
        self.assertIsInstance(ac, gnn.autocast)
        self.assertFalse(gnn.is_autocast_cpu_enabled())

        @gnn.cpu.amp.autocast()
        def f(a, b):
            return a @ b
        self.assertEqual(f(gnn.randn(2, 3), gnn.randn(3, 2)).dtype, gnn.bfloat16)
        self.assertFalse(gnn.is_autocast_cpu_enabled())
        self.assertEqual((gnn.randn(2, 3) @ gnn.randn(3, 2)).dtype, gnn.float32)

    def test_errors_as_torch(self):
        for lib in (gnn, torch):
            with self.assertRaises(RuntimeError) as cm:
                lib.autocast('hpu')
            self.assertIn("must be 'cuda' or 'cpu'", str(cm.exception))
        if not torch.cuda.is_available() and not gnn.cuda.is_available():
            import warnings
            for lib in (gnn, torch):
                with warnings.catch_warnings(record=True) as w:
                    warnings.simplefilter('always')
                    ac = lib.cuda.amp.autocast()
                self.assertIn("CUDA is not available. Disabling", str(w[0].message))
                with ac:
                    self.assertFalse(lib.is_autocast_enabled())


# (name, gnn fn, torch fn): the ops whose dtype under CPU autocast the lists decide, on float32
# and on bfloat16 inputs
DTYPE_OPS = [
    ('matmul', lambda L, x: x @ x.t()), ('mm', lambda L, x: L.mm(x, x.t())),
    ('bmm', lambda L, x: L.bmm(x[None], x.t()[None])), ('addmm', lambda L, x: L.addmm(x[:, :1] * 0 + 1, x, x.t())),
    ('linear', lambda L, x: L.nn.functional.linear(x, x)),
    ('conv2d', lambda L, x: L.nn.functional.conv2d(x.reshape(1, 1, 4, 4), x.reshape(1, 1, 4, 4)[..., :3, :3])),
    ('conv_transpose2d', lambda L, x: L.nn.functional.conv_transpose2d(x.reshape(1, 1, 4, 4),
                                                                       x.reshape(1, 1, 4, 4)[..., :3, :3])),
    ('mv', lambda L, x: L.mv(x, x[0])), ('dot', lambda L, x: L.dot(x[0], x[1])),
    ('softmax', lambda L, x: L.nn.functional.softmax(x, 1)), ('log_softmax', lambda L, x: L.nn.functional.log_softmax(x, 1)),
    ('layer_norm', lambda L, x: L.nn.functional.layer_norm(x, (4,))), ('sum', lambda L, x: x.sum()),
    ('avg_pool3d', lambda L, x: L.nn.functional.avg_pool3d(x.reshape(1, 1, 2, 2, 4), 2)),
    ('max_pool2d', lambda L, x: L.nn.functional.max_pool2d(x.reshape(1, 1, 4, 4), 2)),
    ('cross_entropy', lambda L, x: L.nn.functional.cross_entropy(x, L.tensor([0, 1, 2, 3]))),
    ('nll_loss', lambda L, x: L.nn.functional.nll_loss(x, L.tensor([0, 1, 2, 3]))),
    ('mse_loss', lambda L, x: L.nn.functional.mse_loss(x, x)), ('l1_loss', lambda L, x: L.nn.functional.l1_loss(x, x)),
    ('smooth_l1_loss', lambda L, x: L.nn.functional.smooth_l1_loss(x, x)),
    ('huber_loss', lambda L, x: L.nn.functional.huber_loss(x, x)),
    ('kl_div', lambda L, x: L.nn.functional.kl_div(x, x, reduction='batchmean')),
    ('bce_with_logits', lambda L, x: L.nn.functional.binary_cross_entropy_with_logits(x, x.sigmoid())),
    ('binary_cross_entropy', lambda L, x: L.nn.functional.binary_cross_entropy(x.sigmoid(), x.sigmoid())),
    ('soft_margin_loss', lambda L, x: L.nn.functional.soft_margin_loss(x, x.sign())),
    ('margin_ranking_loss', lambda L, x: L.nn.functional.margin_ranking_loss(x[0], x[1], x[2].sign())),
    ('relu', lambda L, x: L.nn.functional.relu(x)), ('cat', lambda L, x: L.cat([x, x.float()])),
]


class AutocastOps(unittest.TestCase):
    def test_output_dtypes_as_torch(self):
        base = torch.randn(4, 4)
        for start in (torch.float32, torch.bfloat16):
            for name, fn in DTYPE_OPS:
                with self.subTest(op=name, input=start):
                    tx = base.to(start)
                    gx = g_of(base, torch.bfloat16) if start == torch.bfloat16 else gnn.tensor(base.numpy())
                    with torch.autocast('cpu'):
                        want = fn(torch, tx)
                    with gnn.autocast('cpu'):
                        got = fn(gnn, gx)
                    self.assertEqual(repr(got.dtype), repr(want.dtype))

    def test_float64_and_disabled_untouched(self):
        x = gnn.randn(3, 3, dtype=gnn.float64)
        with gnn.autocast('cpu'):
            self.assertEqual((x @ x).dtype, gnn.float64)
        with gnn.autocast('cpu', enabled=False):
            self.assertEqual((x.float() @ x.float()).dtype, gnn.float32)

    def test_backward_inside_the_region(self):
        # backward runs with autocast excluded: the same gradients inside the region as after it,
        # as torch's (whose backward ops keep the dtypes of their forward ops)
        grads = []
        for inside in (False, True):
            gnn.manual_seed(5)
            m = nn.Sequential(nn.Linear(4, 6), nn.Tanh(), nn.Linear(6, 2))
            x = gnn.randn(3, 4)
            with gnn.autocast('cpu'):
                loss = F.mse_loss(m(x), gnn.zeros(3, 2))
                if inside:
                    loss.backward()
            if not inside:
                loss.backward()
            grads.append([np_of(p.grad) for p in m.parameters()])
        for a, b in zip(*grads):
            np.testing.assert_array_equal(a, b)

    def test_cache(self):
        m = nn.Linear(3, 2)
        x = gnn.randn(4, 3)
        with gnn.autocast('cpu'):
            m(x)
            m(x)
            # the two weights, cast once each
            self.assertEqual(Gnn.autocast_get_cache_size(), 2)
        self.assertEqual(Gnn.autocast_get_cache_size(), 0)


def mlp_forward(lib, m, x, y):
    return lib.nn.functional.cross_entropy(m(x), y)


class AutocastModels(HalfCase):
    """gnn's CPU autocast against torch 1.13's: the dtypes of every output and gradient, and the
    values (a) against torch's float32 ops on the operands rounded where autocast rounds, to 2
    bfloat16 ulps, (b) against torch's autocast itself within 2^-4 relative + 2^-6 absolute,
    since torch 1.13's bfloat16 gemm rounds its partial sums (see the header)."""

    def run_both(self, make, x, y, emulate):
        torch.manual_seed(0)
        tm = make(torch)
        gm = make(gnn)
        gm.load_state_dict({k: v.detach().clone() for k, v in tm.state_dict().items()})
        em = make(torch)
        em.load_state_dict(tm.state_dict())
        gx, gy = gnn.tensor(x.numpy()), gnn.tensor(y.numpy())
        with torch.autocast('cpu'):
            tout = tm(x)
            tl = TF.cross_entropy(tout, y)
        with gnn.autocast('cpu'):
            gout = gm(gx)
            gl = F.cross_entropy(gout, gy)
        self.assertEqual(repr(gout.dtype), repr(tout.dtype))
        self.assertEqual(repr(gl.dtype), repr(tl.dtype))
        eout = emulate(em, x)
        el = TF.cross_entropy(eout, y)
        tl.backward()
        gl.backward()
        el.backward()
        self.assert_ulps(gout, eout, torch.bfloat16, 2, 1.0, 'output')
        np.testing.assert_allclose(np_of(gout), np_of(tout), rtol=2.0 ** -4, atol=2.0 ** -6)
        self.assertAlmostEqual(gl.item(), el.item(), delta=abs(el.item()) * 2.0 ** -7)
        for (k, gp), (_, tp), (_, ep) in zip(gm.named_parameters(), tm.named_parameters(), em.named_parameters()):
            with self.subTest(param=k):
                self.assertEqual(repr(gp.grad.dtype), 'torch.float32')
                self.assertEqual(repr(tp.grad.dtype), 'torch.float32')
                self.assert_ulps(gp.grad, ep.grad.bfloat16(), torch.bfloat16, 2, 2.0 ** -4, 'grad ' + k)
                np.testing.assert_allclose(np_of(gp.grad), np_of(tp.grad), rtol=2.0 ** -3, atol=2.0 ** -5)

    def test_mlp(self):
        def make(lib):
            return lib.nn.Sequential(lib.nn.Linear(6, 16), lib.nn.ReLU(), lib.nn.Linear(16, 3))

        def emulate(m, x):
            h = bf(TF.linear(bf(x), bf(m[0].weight), bf(m[0].bias)))
            return bf(TF.linear(TF.relu(h), bf(m[2].weight), bf(m[2].bias)))
        torch.manual_seed(1)
        self.run_both(make, torch.randn(8, 6), torch.randint(0, 3, (8,)), emulate)

    def test_cnn(self):
        def make(lib):
            return lib.nn.Sequential(lib.nn.Conv2d(2, 4, 3, padding=1), lib.nn.BatchNorm2d(4), lib.nn.ReLU(),
                                     lib.nn.MaxPool2d(2), lib.nn.Flatten(), lib.nn.Linear(64, 3))

        def emulate(m, x):
            h = bf(TF.conv2d(bf(x), bf(m[0].weight), bf(m[0].bias), padding=1))
            h = bf(TF.batch_norm(h, m[1].running_mean, m[1].running_var, m[1].weight, m[1].bias, True))
            h = TF.max_pool2d(TF.relu(h), 2).flatten(1)
            return bf(TF.linear(h, bf(m[5].weight), bf(m[5].bias)))
        torch.manual_seed(2)
        self.run_both(make, torch.randn(4, 2, 8, 8), torch.randint(0, 3, (4,)), emulate)



# ---- GradScaler -------------------------------------------------------------------------------

class ScalerKernels(unittest.TestCase):
    """the two kernels of GradScaler against their documented algorithm, by hand. torch 1.13's
    torch._amp_update_scale_ and torch._amp_foreach_non_finite_check_and_unscale_ have no CPU
    kernels (checked here: NotImplementedError on CPU tensors), so they cannot be the oracle."""

    def test_torch_has_no_cpu_kernels(self):
        with self.assertRaises(NotImplementedError):
            torch._amp_update_scale_(torch.ones(1), torch.zeros(1, dtype=torch.int32), torch.zeros(1), 2.0, 0.5, 2)
        with self.assertRaises(NotImplementedError):
            torch._amp_foreach_non_finite_check_and_unscale_([torch.ones(2)], torch.zeros(1), torch.ones(1))

    def test_update_scale_by_hand(self):
        # (growth_interval, growth_factor, backoff_factor, found_inf per step, (scale, tracker) after each)
        cases = [
            (3, 2.0, 0.5, [0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 0, 0, 0],
             [(1024, 1), (1024, 2), (2048, 0), (1024, 0), (1024, 1), (1024, 2), (512, 0), (256, 0),
              (256, 1), (256, 2), (512, 0), (512, 1), (512, 2)]),
            (1, 1.5, 0.25, [0, 0, 1, 0],
             [(1536, 0), (2304, 0), (576, 0), (864, 0)]),
            # growth that would overflow float32 is not applied (the tracker still resets)
            (2, 2.0 ** 100, 0.5, [0, 0, 0, 0, 1],
             [(1024, 1), (2.0 ** 110, 0), (2.0 ** 110, 1), (2.0 ** 110, 0), (2.0 ** 109, 0)]),
        ]
        for interval, gf, bf_, founds, want in cases:
            with self.subTest(interval=interval, growth=gf):
                scale, tracker = gnn.full((1,), 1024.0), gnn.zeros((1,), dtype=gnn.int32)
                for found, (ws, wt) in zip(founds, want):
                    out = gnn._amp_update_scale_(scale, tracker, gnn.full((1,), float(found)), gf, bf_, interval)
                    self.assertIs(out, scale)
                    self.assertEqual((scale.item(), int(tracker.item())), (ws, wt))
                self.assertEqual(tracker.dtype, gnn.int32)

    def test_unscale_by_hand(self):
        rng = np.random.default_rng(0)
        inv = np.float32(1.0 / 3.0)
        for bad in (None, float('inf'), float('nan'), -float('inf')):
            with self.subTest(bad=bad):
                base = [rng.standard_normal((3, 4)).astype(np.float32), rng.standard_normal(5).astype(np.float32)]
                if bad is not None:
                    base[1][2] = bad
                grads = [gnn.tensor(b) for b in base]
                found = gnn.zeros(1)
                gnn._amp_foreach_non_finite_check_and_unscale_(grads, found, gnn.full((1,), float(inv)))
                self.assertEqual(found.item(), 0.0 if bad is None else 1.0)
                for g, b in zip(grads, base):
                    # every value multiplied in float32, the non-finite ones too
                    np.testing.assert_array_equal(np_of(g), (b * inv).astype(np.float64))
        # a float16 gradient: the float32 product rounded once to float16
        g = gnn.tensor(np.array([3.0, 1e-3], np.float32)).to(gnn.float16)
        gnn._amp_foreach_non_finite_check_and_unscale_([g], gnn.zeros(1), gnn.full((1,), 0.1))
        np.testing.assert_array_equal(np_of(g), (np.float16([3.0, 1e-3]).astype(np.float32) * np.float32(0.1))
                                      .astype(np.float16).astype(np.float64))


class Scaler(unittest.TestCase):
    def setUp(self):
        self.w = nn.Parameter(gnn.tensor([1.0, -2.0]))
        self.opt = gnn.optim.SGD([self.w], lr=0.5)

    def backward(self, scaler, x):
        self.opt.zero_grad()
        loss = (self.w * gnn.tensor(x)).sum()
        scaler.scale(loss).backward()

    def test_scaling_arithmetic_growth_and_backoff(self):
        # by hand: loss = Σ w·x, so the gradient is x; the scaled one is scale·x
        s = gnn.amp.GradScaler('cpu', init_scale=4.0, growth_factor=2.0, backoff_factor=0.5, growth_interval=2)
        self.assertTrue(s.is_enabled())
        self.assertEqual(s.get_scale(), 4.0)
        self.backward(s, [1.0, 3.0])
        np.testing.assert_array_equal(np_of(self.w.grad), [4.0, 12.0])
        s.unscale_(self.opt)
        np.testing.assert_array_equal(np_of(self.w.grad), [1.0, 3.0])
        with self.assertRaisesRegex(RuntimeError, 'unscale_\\(\\) has already been called'):
            s.unscale_(self.opt)
        s.step(self.opt)
        np.testing.assert_array_equal(np_of(self.w), [0.5, -3.5])
        s.update()
        self.assertEqual(s.get_scale(), 4.0)
        self.assertEqual(s.state_dict()['_growth_tracker'], 1)
        self.backward(s, [2.0, 2.0])
        s.step(self.opt)          # unscales itself
        np.testing.assert_array_equal(np_of(self.w), [-0.5, -4.5])
        s.update()                # 2 successful steps: the scale grows
        self.assertEqual(s.get_scale(), 8.0)
        self.assertEqual(s.state_dict()['_growth_tracker'], 0)
        # an inf: the step is skipped, the scale backs off
        self.backward(s, [float('inf'), 1.0])
        self.assertIsNone(s.step(self.opt))
        np.testing.assert_array_equal(np_of(self.w), [-0.5, -4.5])
        s.update()
        self.assertEqual(s.get_scale(), 4.0)
        self.backward(s, [float('nan'), 1.0])
        s.step(self.opt)
        s.update()
        self.assertEqual(s.get_scale(), 2.0)
        np.testing.assert_array_equal(np_of(self.w), [-0.5, -4.5])
        # an explicit new scale
        s.update(16.0)
        self.assertEqual(s.get_scale(), 16.0)

    def test_scale_nested_outputs(self):
        s = gnn.amp.GradScaler('cpu', init_scale=8.0)
        a, (b, c) = s.scale([gnn.tensor([1.0]), (gnn.tensor([2.0]), gnn.tensor([0.5]))])
        self.assertEqual([a.item(), b.item(), c.item()], [8.0, 16.0, 4.0])

    def test_state_dict_as_torch(self):
        s = gnn.amp.GradScaler('cpu', init_scale=2.0 ** 10, growth_interval=7)
        self.backward(s, [1.0, 1.0])
        s.step(self.opt)
        s.update()
        sd = s.state_dict()
        # torch's keys, in torch's order (torch/cuda/amp/grad_scaler.py)
        self.assertEqual(list(sd), ['scale', 'growth_factor', 'backoff_factor', 'growth_interval', '_growth_tracker'])
        self.assertEqual(sd, {'scale': 1024.0, 'growth_factor': 2.0, 'backoff_factor': 0.5,
                              'growth_interval': 7, '_growth_tracker': 1})
        other = gnn.amp.GradScaler('cpu')
        other.load_state_dict(sd)
        self.assertEqual(other.state_dict(), sd)
        with self.assertRaisesRegex(RuntimeError, 'source state dict is empty'):
            other.load_state_dict({})
        # a torch GradScaler reads gnn's state dict (its load_state_dict only needs the keys)
        t = torch.cuda.amp.GradScaler.__new__(torch.cuda.amp.GradScaler)
        t._enabled = True
        t._scale = None
        t._growth_tracker = None
        t.load_state_dict(sd)
        self.assertEqual(t._init_scale, 1024.0)

    def test_disabled(self):
        import warnings
        if not gnn.cuda.is_available():
            with warnings.catch_warnings(record=True) as w:
                warnings.simplefilter('always')
                s = gnn.cuda.amp.GradScaler()
            with warnings.catch_warnings(record=True) as tw:
                warnings.simplefilter('always')
                t = torch.cuda.amp.GradScaler()
            self.assertEqual(str(w[0].message), str(tw[0].message))
            self.assertEqual(s.is_enabled(), t.is_enabled())
            self.assertEqual(s.state_dict(), t.state_dict())
            self.assertEqual(s.get_scale(), t.get_scale())
        s = gnn.amp.GradScaler('cpu', enabled=False)
        loss = gnn.tensor([3.0])
        self.assertIs(s.scale(loss), loss)
        self.backward(s, [1.0, 1.0])
        s.step(self.opt)
        np.testing.assert_array_equal(np_of(self.w), [0.5, -2.5])
        with self.assertRaisesRegex(RuntimeError, 'disabled'):
            s.load_state_dict({'scale': 1.0})

    def test_closure_refused(self):
        s = gnn.amp.GradScaler('cpu')
        self.backward(s, [1.0, 1.0])
        with self.assertRaisesRegex(RuntimeError, 'Closure'):
            s.step(self.opt, closure=lambda: None)

    def test_autocast_training_with_scaler(self):
        # a float16-autocast MLP step with the scaler on the CPU: float32 parameters and grads,
        # the unscaled gradients equal to those of the same step without scaling
        torch.manual_seed(3)
        x, y = gnn.randn(8, 4), gnn.tensor([0, 1, 2, 0, 1, 2, 0, 1])
        grads = []
        for scaled in (False, True):
            gnn.manual_seed(0)
            m = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 3))
            opt = gnn.optim.SGD(m.parameters(), lr=0.1)
            s = gnn.amp.GradScaler('cpu', init_scale=2.0 ** 8, enabled=scaled)
            with gnn.autocast('cpu', dtype=gnn.float16):
                loss = F.cross_entropy(m(x), y)
            self.assertEqual(loss.dtype, gnn.float32)
            s.scale(loss).backward()
            s.unscale_(opt)
            grads.append([np_of(p.grad) for p in m.parameters()])
            self.assertTrue(all(repr(p.grad.dtype) == 'torch.float32' for p in m.parameters()))
            s.step(opt)
            s.update()
        for a, b in zip(*grads):
            # scaling by a power of two is exact, except where float16 underflowed unscaled
            np.testing.assert_allclose(a, b, rtol=2.0 ** -9, atol=2.0 ** -20)


if __name__ == '__main__':
    unittest.main()
