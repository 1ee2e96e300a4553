#!/usr/bin/python3
"""Gnn.AveragedModel, Gnn.update_bn, copy.deepcopy of modules and Gnn.foreach_lerp_ against
torch.optim.swa_utils (python3-torch 1.13).

The same model is built in both libraries (gnn loads torch's state dict), both are moved by the
same "training steps" (torch changes, gnn loads torch's state again) and both averages are
updated from them; after every update the averages' state dicts must agree (float32 rel 1e-5,
abs 1e-6). torch 1.13 lacks multi_avg_fn, get_*_avg_fn and the copying of buffers when
use_buffers is off: those are compared with the formulas of current PyTorch, computed here with
torch.
"""
import copy

import numpy as np
import torch
from torch import nn
from torch.optim import swa_utils

from gnntest import Gnn, GLib, GObject, ParityTest, main, rand, to_gnn, to_np

TOL = {torch.float32: (1e-5, 1e-6), torch.float64: (1e-12, 1e-12)}
GDT = {torch.float32: Gnn.Dtype.FLOAT32, torch.float64: Gnn.Dtype.FLOAT64}


def torch_model(dtype=torch.float32, seed=0):
    torch.manual_seed(seed)
    return nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1d(4), nn.ReLU(), nn.Linear(4, 2)).to(dtype)


def gnn_model(tm, dtype=torch.float32):
    d = GDT[dtype]
    i, h, o = tm[0].in_features, tm[0].out_features, tm[3].out_features
    gm = Gnn.Sequential(Gnn.Linear.new_with_dtype(i, h, True, d), Gnn.BatchNorm1d(num_features=h, dtype=d),
                        Gnn.ReLU.new(), Gnn.Linear.new_with_dtype(h, o, True, d))
    gm.load_state_dict(tm.state_dict())
    return gm


def train_step(tm, gm, k):
    """A stand-in for a training step: every parameter moves, a forward in training mode moves
    the BatchNorm statistics; gnn's model takes torch's state."""
    g = torch.Generator().manual_seed(100 + k)
    dtype = next(tm.parameters()).dtype
    with torch.no_grad():
        for p in tm.parameters():
            p.add_(0.3 * torch.randn(p.shape, generator=g, dtype=dtype))
        tm.train()
        tm(torch.randn(5, 3, generator=g, dtype=dtype))
    gm.load_state_dict(tm.state_dict())


def lerp_kernel_calls():
    return Gnn.Backend.get_for_device_type('cpu').get_kernel_count(Gnn.BackendOp.FOREACH_LERP)


class AveragedModelTest(ParityTest):
    def assert_state(self, gavg, want, dtype=torch.float32, what='', skip=()):
        """gavg's state dict equals want (a mapping of key to torch tensor), in keys and values."""
        r, a = TOL[dtype]
        got = gavg.state_dict()
        self.assertEqual(list(got.keys()), list(want.keys()), what)
        for k, v in want.items():
            if k in skip:
                continue
            self.assert_close(to_np(got[k]), v.detach().numpy(), r, a, '%s %s' % (what, k))

    def run_against_torch(self, tavg, gavg, tm, gm, steps=5, dtype=torch.float32, what='',
                          buffers_from_model=False):
        for k in range(steps):
            train_step(tm, gm, k)
            tavg.update_parameters(tm)
            gavg.update_parameters(gm)
            want = dict(tavg.state_dict())
            if buffers_from_model:
                # current PyTorch: without use_buffers the buffers follow the model (1.13 left
                # them alone)
                for name, b in tm.named_buffers():
                    want['module.' + name] = b
            self.assert_state(gavg, want, dtype, '%s step %d' % (what, k))
            self.assertEqual(gavg.get_n_averaged(), k + 1)

    # ---- parity with torch 1.13 -----------------------------------------------------------

    def test_swa_default(self):
        for dtype in (torch.float32, torch.float64):
            for use_buffers in (False, True):
                tm = torch_model(dtype)
                gm = gnn_model(tm, dtype)
                tavg = swa_utils.AveragedModel(tm, use_buffers=use_buffers)
                gavg = Gnn.AveragedModel(gm, use_buffers=use_buffers)
                self.run_against_torch(tavg, gavg, tm, gm, dtype=dtype, buffers_from_model=not use_buffers,
                                       what='SWA %s use_buffers=%s' % (dtype, use_buffers))

    def test_ema_avg_fn(self):
        # 1.13 has no get_ema_avg_fn: the function current PyTorch returns, written out
        decay = 0.9

        def ema(a, c, n):
            return decay * a + (1 - decay) * c

        for use_buffers in (False, True):
            for gfn in (Gnn.get_ema_avg_fn(decay), Gnn.AverageFunction.new_ema(decay)):
                tm = torch_model()
                gm = gnn_model(tm)
                tavg = swa_utils.AveragedModel(tm, avg_fn=ema, use_buffers=use_buffers)
                gavg = Gnn.AveragedModel(gm, avg_fn=gfn, use_buffers=use_buffers)
                self.run_against_torch(tavg, gavg, tm, gm, buffers_from_model=not use_buffers,
                                       what='EMA avg_fn use_buffers=%s' % use_buffers)

    def test_python_avg_fn(self):
        """A Python avg_fn (gnn ops) against the same function in torch."""
        calls = []

        def gnn_fn(a, c, n):
            calls.append(int(n.item()))
            self.assertEqual(n.get_dtype(), Gnn.Dtype.INT64)
            return a.mul_scalar(0.25).add(c, 0.75)

        def torch_fn(a, c, n):
            return 0.25 * a + 0.75 * c

        tm = torch_model()
        gm = gnn_model(tm)
        tavg = swa_utils.AveragedModel(tm, avg_fn=torch_fn, use_buffers=True)
        gavg = Gnn.AveragedModel(gm, avg_fn=gnn_fn, use_buffers=True)
        self.run_against_torch(tavg, gavg, tm, gm, steps=3, what='Python avg_fn')
        n_tensors = len(list(tm.parameters())) + len(list(tm.buffers()))
        self.assertEqual(calls, [1] * n_tensors + [2] * n_tensors)

    # ---- current PyTorch's functions, by formula ---------------------------------------------

    def run_by_formula(self, gavg, tm, gm, update, use_buffers, steps=5, dtype=torch.float32, what=''):
        """update (avg, cur, n) -> new avg, for float tensors (torch), compared after each step;
        integer buffers follow update too (the formula computed in float32 and truncated)."""
        avg = None
        for k in range(steps):
            train_step(tm, gm, k)
            n = gavg.get_n_averaged()
            calls = lerp_kernel_calls()
            gavg.update_parameters(gm)
            # one fused kernel call for the float tensors of the one device and dtype
            self.assertEqual(lerp_kernel_calls() - calls, 1 if n > 0 else 0, what)
            cur = {name: t.detach().clone() for name, t in tm.state_dict().items()}
            if avg is None:
                avg = cur
            else:
                params = dict(tm.named_parameters())
                for name in avg:
                    if name in params or use_buffers:
                        avg[name] = update(avg[name], cur[name], n)
                    else:
                        avg[name] = cur[name]
            want = {'n_averaged': torch.tensor(k + 1)}
            want.update({'module.' + name: t for name, t in avg.items()})
            self.assert_state(gavg, want, dtype, '%s step %d' % (what, k))

    def test_ema_multi(self):
        decay = 0.95

        def update(a, c, n):
            if a.is_floating_point():
                return torch.lerp(a, c, 1 - decay)
            return (a * decay + c * (1 - decay)).to(a.dtype)

        for use_buffers in (False, True):
            tm = torch_model()
            gm = gnn_model(tm)
            gavg = Gnn.AveragedModel(gm, multi_avg_fn=Gnn.get_ema_multi_avg_fn(decay), use_buffers=use_buffers)
            self.run_by_formula(gavg, tm, gm, update, use_buffers, what='EMA multi use_buffers=%s' % use_buffers)

    def test_swa_multi(self):
        def update(a, c, n):
            return torch.lerp(a, c, 1 / (n + 1))

        tm = torch_model()
        gm = gnn_model(tm)
        gavg = Gnn.AveragedModel(gm, multi_avg_fn=Gnn.get_swa_multi_avg_fn())
        self.run_by_formula(gavg, tm, gm, update, False, what='SWA multi')

        # with use_buffers, num_batches_tracked meets PyTorch's refusal of integer addcdiv
        tm = torch_model()
        gm = gnn_model(tm)
        gavg = Gnn.AveragedModel(gm, multi_avg_fn=Gnn.get_swa_multi_avg_fn(), use_buffers=True)
        gavg.update_parameters(gm)
        train_step(tm, gm, 1)
        with self.assertRaises(GLib.Error) as cm:
            gavg.update_parameters(gm)
        self.assertTrue(cm.exception.matches(Gnn.error_quark(), Gnn.Error.DTYPE))
        self.assertIn('addcdiv', cm.exception.message)
        with self.assertRaises(RuntimeError):
            torch.addcdiv(torch.tensor([1]), torch.tensor([1]), torch.tensor([2]))

    def test_python_multi_avg_fn(self):
        seen = []

        def keep_max(averaged, current, n_averaged):
            seen.append((len(averaged), averaged[0].get_dtype(), int(n_averaged.item())))
            with Gnn.no_grad():
                for a, c in zip(averaged, current):
                    a.copy_(a.maximum(c))

        def update(a, c, n):
            return torch.maximum(a, c)

        tm = torch_model()
        gm = gnn_model(tm)
        gavg = Gnn.AveragedModel(gm, multi_avg_fn=keep_max, use_buffers=True)
        avg = None
        for k in range(3):
            train_step(tm, gm, k)
            gavg.update_parameters(gm)
            cur = dict(tm.state_dict())
            avg = {n: t.clone() for n, t in cur.items()} if avg is None else \
                {n: update(avg[n], cur[n], k) for n in avg}
            self.assert_state(gavg, {'n_averaged': torch.tensor(k + 1),
                                     **{'module.' + n: t for n, t in avg.items()}}, what='keep_max %d' % k)
        # one call per (device, dtype): float32 tensors, then the int64 one
        n_float = len(list(tm.parameters())) + 2
        self.assertEqual(seen, [(n_float, Gnn.Dtype.FLOAT32, 1), (1, Gnn.Dtype.INT64, 1),
                                (n_float, Gnn.Dtype.FLOAT32, 2), (1, Gnn.Dtype.INT64, 2)])

    def test_ema_is_lerp_float64(self):
        """The fused kernel gives torch.lerp (ema, cur, 1 - decay) to the last bit in float64."""
        tm = torch_model(torch.float64)
        gm = gnn_model(tm, torch.float64)
        gavg = Gnn.AveragedModel(gm, multi_avg_fn=Gnn.get_ema_multi_avg_fn(0.999))
        gavg.update_parameters(gm)
        before = {n: torch.from_numpy(to_np(t)) for n, t in gavg.state_dict().items()}
        train_step(tm, gm, 3)
        gavg.update_parameters(gm)
        after = gavg.state_dict()
        for name, p in tm.named_parameters():
            np.testing.assert_array_equal(to_np(after['module.' + name]),
                                          torch.lerp(before['module.' + name], p.detach(), 1 - 0.999).numpy())

    def test_python_exceptions_propagate(self):
        def broken(a, c, n):
            raise ZeroDivisionError('avg_fn exploded')

        def broken_multi(a, c, n):
            raise KeyError('multi exploded')

        tm = torch_model()
        gm = gnn_model(tm)
        for kwargs, exc in (({'avg_fn': broken}, ZeroDivisionError), ({'multi_avg_fn': broken_multi}, KeyError)):
            gavg = Gnn.AveragedModel(gm, **kwargs)
            gavg.update_parameters(gm)                 # the first update only copies
            with self.assertRaises(exc):
                gavg.update_parameters(gm)
            self.assertEqual(gavg.get_n_averaged(), 1)

    # ---- errors ---------------------------------------------------------------------------

    def test_errors(self):
        tm = torch_model()
        gm = gnn_model(tm)
        with self.assertRaises(GLib.Error) as cm:
            Gnn.AveragedModel(gm, avg_fn=Gnn.get_ema_avg_fn(0.5), multi_avg_fn=Gnn.get_ema_multi_avg_fn(0.5))
        self.assertIn('Only one of avg_fn and multi_avg_fn', cm.exception.message)
        for decay in (-0.5, 1.5, float('nan')):
            for fn in (Gnn.get_ema_avg_fn, Gnn.get_ema_multi_avg_fn):
                with self.assertRaises(GLib.Error) as cm:
                    fn(decay)
                self.assertTrue(cm.exception.matches(Gnn.error_quark(), Gnn.Error.INVALID_ARGUMENT))
                self.assertIn('[0,1]', cm.exception.message)
        with self.assertRaises(GLib.Error):
            Gnn.AveragedModel(gm, avg_fn=Gnn.get_ema_multi_avg_fn(0.5))     # a list function as avg_fn

        gavg = Gnn.AveragedModel(gm)
        gavg.update_parameters(gm)
        before = {k: to_np(v) for k, v in gavg.state_dict().items()}
        other = Gnn.Sequential(Gnn.Linear.new(3, 4, True), Gnn.BatchNorm1d(num_features=4), Gnn.ReLU.new(),
                               Gnn.Linear.new(4, 3, True))
        with self.assertRaises(GLib.Error) as cm:
            gavg.update_parameters(other)
        self.assertTrue(cm.exception.matches(Gnn.error_quark(), Gnn.Error.SHAPE))
        self.assertIn('3.weight', cm.exception.message)
        fewer = Gnn.Sequential(Gnn.Linear.new(3, 4, True))
        with self.assertRaises(GLib.Error) as cm:
            gavg.update_parameters(fewer)
        self.assertIn('has 2 parameters but the averaged model has 6', cm.exception.message)
        for k, v in gavg.state_dict().items():
            np.testing.assert_array_equal(to_np(v), before[k])

    # ---- state dict, forward, printing ---------------------------------------------------------

    def test_state_dict(self):
        tm = torch_model()
        gm = gnn_model(tm)
        tavg = swa_utils.AveragedModel(tm, use_buffers=True)
        gavg = Gnn.AveragedModel(gm, use_buffers=True)
        for k in range(3):
            train_step(tm, gm, k)
            tavg.update_parameters(tm)
            gavg.update_parameters(gm)
        self.assertEqual(list(gavg.state_dict().keys()), list(tavg.state_dict().keys()))
        self.assertEqual(str(gavg), str(tavg))
        n = gavg.state_dict()['n_averaged']
        self.assertEqual((n.get_dtype(), n.get_ndim(), n.item()), (Gnn.Dtype.INT64, 0, 3.0))

        # torch's state into a fresh gnn average, and gnn's back into a fresh torch one
        fresh = Gnn.AveragedModel(gnn_model(torch_model(seed=5)), use_buffers=True)
        fresh.load_state_dict(tavg.state_dict())
        self.assert_state(fresh, tavg.state_dict(), what='loaded from torch')
        tfresh = swa_utils.AveragedModel(torch_model(seed=6), use_buffers=True)
        tfresh.load_state_dict({k: torch.from_numpy(to_np(v)) for k, v in gavg.state_dict().items()})
        self.assert_state(gavg, tfresh.state_dict(), what='loaded into torch')
        self.assertEqual(fresh.get_n_averaged(), 3)

    def test_forward_and_device(self):
        tm = torch_model()
        gm = gnn_model(tm)
        gavg = Gnn.AveragedModel(gm, device='cpu')
        tavg = swa_utils.AveragedModel(tm, device='cpu')
        x = rand((6, 3), seed=3)
        gavg.eval()
        tavg.eval()
        self.assert_close(to_np(gavg(to_gnn(x))), tavg(torch.from_numpy(x)).detach().numpy(), 1e-5, 1e-6, 'forward')
        self.assertEqual(gavg.get_module().get_device(), 'cpu')
        self.assertIsInstance(gavg.module, Gnn.Sequential)

    def test_deepcopy_of_average(self):
        tm = torch_model()
        gm = gnn_model(tm)
        gavg = Gnn.AveragedModel(gm, multi_avg_fn=Gnn.get_ema_multi_avg_fn(0.5))
        gavg.update_parameters(gm)
        c = copy.deepcopy(gavg)
        self.assertIsInstance(c, Gnn.AveragedModel)
        self.assertEqual(c.get_n_averaged(), 1)
        self.assertIs(c.get_multi_avg_fn(), gavg.get_multi_avg_fn())
        train_step(tm, gm, 0)
        c.update_parameters(gm)
        self.assertEqual((c.get_n_averaged(), gavg.get_n_averaged()), (2, 1))

    # ---- update_bn --------------------------------------------------------------------------

    def test_update_bn(self):
        for dtype in (torch.float32, torch.float64):
            tm = torch_model(dtype)
            tm[1].momentum = 0.3
            gm = gnn_model(tm, dtype)
            gm[1].set_momentum(0.3)
            g = torch.Generator().manual_seed(7)
            batches = [torch.randn(6, 3, generator=g, dtype=dtype) for _ in range(4)]
            # a tensor, an (input, target) pair, numpy, ...
            loader = [batches[0], (batches[1], torch.zeros(6)), [batches[2]], batches[3].numpy()]
            tloader = [batches[0], (batches[1], torch.zeros(6)), [batches[2]], batches[3]]
            for m in (tm, gm):
                m.eval()
            swa_utils.update_bn(tloader, tm)
            Gnn.update_bn(loader, gm)
            self.assertFalse(gm.training)
            self.assertEqual(gm[1].get_momentum(), 0.3)
            self.assertFalse(gm[1].get_cumulative_average())
            r, a = TOL[dtype]
            for name, b in tm.named_buffers():
                self.assert_close(to_np(gm.get_buffer(name)), b.numpy(), r * 10, a, 'update_bn %s %s' % (dtype, name))

        # an AveragedModel, and a Gio.ListModel loader
        from gi.repository import Gio
        tm = torch_model()
        gm = gnn_model(tm)
        tavg = swa_utils.AveragedModel(tm)
        gavg = Gnn.AveragedModel(gm)
        store = Gio.ListStore.new(Gnn.Tensor)
        xs = [rand((5, 3), seed=s) for s in range(3)]
        for x in xs:
            store.append(to_gnn(x))
        swa_utils.update_bn([torch.from_numpy(x) for x in xs], tavg)
        Gnn.update_bn(store, gavg)
        self.assert_state(gavg, tavg.state_dict(), what='update_bn of an AveragedModel')

    # ---- the fused kernel from Python ------------------------------------------------------------

    def test_foreach_lerp(self):
        for dtype in (np.float32, np.float64):
            tol = 1e-6 if dtype == np.float32 else 1e-14
            shapes = [(3,), (40000,), (5, 7), ()]
            a = [rand(s, dtype, seed=i) for i, s in enumerate(shapes)]
            b = [rand(s, dtype, seed=10 + i) for i, s in enumerate(shapes)]
            for w in (0.2, 0.8):
                ga = [to_gnn(x) for x in a]
                Gnn.foreach_lerp_(ga, [to_gnn(x) for x in b], w)
                for k in range(len(shapes)):
                    want = torch.lerp(torch.from_numpy(a[k]), torch.from_numpy(b[k]), w).numpy()
                    np.testing.assert_allclose(to_np(ga[k]), want, rtol=tol, atol=tol)
        p = Gnn.Parameter.new(to_gnn(a[0]), True)
        with self.assertRaises(GLib.Error) as cm:
            Gnn.foreach_lerp_([p], [to_gnn(b[0])], 0.5)
        self.assertIn('leaf Variable that requires grad', cm.exception.message)
        with Gnn.no_grad():
            Gnn.foreach_lerp_([p], [to_gnn(b[0])], 0.5)

    def test_functions_called_as_pytorch(self):
        """get_*_avg_fn () (a, c, n) returns the new value, get_*_multi_avg_fn () (lists, n)
        updates in place, as PyTorch's functions do."""
        a, c = rand((3, 4), seed=1), rand((3, 4), seed=2)
        ta, tc = torch.from_numpy(a), torch.from_numpy(c)
        for n in (1, 4):
            got = Gnn.get_swa_avg_fn()(to_gnn(a), to_gnn(c), n)
            want = ta + (tc - ta) / (n + 1)
            self.assert_close(to_np(got), want.numpy(), 1e-6, 1e-6, 'swa_avg_fn n=%d' % n)
            lists = [to_gnn(a), to_gnn(c)]
            self.assertIsNone(Gnn.get_swa_multi_avg_fn()(lists, [to_gnn(c), to_gnn(a)], n))
            self.assert_close(to_np(lists[0]), torch.lerp(ta, tc, 1 / (n + 1)).numpy(), 1e-6, 1e-6, 'swa multi')
            self.assert_close(to_np(lists[1]), torch.lerp(tc, ta, 1 / (n + 1)).numpy(), 1e-6, 1e-6, 'swa multi')
        got = Gnn.get_ema_avg_fn(0.8)(to_gnn(a), to_gnn(c), 3)
        self.assert_close(to_np(got), (0.8 * ta + 0.2 * tc).numpy(), 1e-6, 1e-6, 'ema_avg_fn')
        self.assertEqual(Gnn.get_ema_avg_fn(0.8).get_decay(), 0.8)
        self.assertTrue(Gnn.get_ema_multi_avg_fn().get_multi())

    # ---- module copies -------------------------------------------------------------------------

    def test_deepcopy_module(self):
        class Holder(Gnn.Module):
            __gtype_name__ = 'AvgTestHolder'
            width = GObject.Property(type=int, default=2,
                                     flags=GObject.ParamFlags.READWRITE | GObject.ParamFlags.CONSTRUCT_ONLY)

            def do_setup(self):
                self.fc = Gnn.Linear.new(3, self.width, True)
                self.scale = Gnn.Parameter.new(to_gnn(np.ones(self.width, np.float32)), True)
                self.register_buffer('scratch', to_gnn(np.arange(3, dtype=np.float64)), False)
                self.setups = getattr(self, 'setups', 0) + 1
                return True

            def do_forward(self, args):
                return Gnn.Args.new_tensor(self.fc(args.get_tensor(0)).mul(self.scale))

        h = Holder(width=4)
        with Gnn.no_grad():
            h.scale.copy_(to_gnn(np.array([1, 2, 3, 4], np.float32)))
            h.get_buffer('scratch').copy_(to_gnn(np.array([7, 8, 9], np.float64)))
        h.tied = h.fc.weight                      # one parameter under two names
        h.fc.bias.set_requires_grad(False)
        h.notes = {'epoch': 3, 'weights': [h.fc.weight]}
        h.fc.eval()
        calls = []
        h.register_forward_hook(lambda *args: calls.append(1))

        c = copy.deepcopy(h)
        self.assertIsInstance(c, Holder)
        self.assertEqual(c.width, 4)
        self.assertEqual(c.setups, 1)
        self.assertEqual(list(c.state_dict().keys()), list(h.state_dict().keys()))
        for (name, a), (_, b) in zip(h.named_parameters(), c.named_parameters()):
            np.testing.assert_array_equal(to_np(a), to_np(b), name)
            self.assertFalse(a.shares_storage(b), name)
            self.assertEqual(a.get_requires_grad(), b.get_requires_grad(), name)
        self.assertIs(c.tied, c.fc.weight)
        self.assertIsNot(c.tied, h.tied)
        self.assertFalse(c.is_buffer_persistent('scratch'))
        np.testing.assert_array_equal(to_np(c.get_buffer('scratch')), [7, 8, 9])
        self.assertEqual(c.notes['epoch'], 3)
        self.assertIs(c.notes['weights'][0], c.fc.weight)
        self.assertFalse(c.fc.training)
        self.assertTrue(c.training)
        x = to_gnn(rand((2, 3), seed=1))
        np.testing.assert_array_equal(to_np(c(x)), to_np(h(x)))
        self.assertEqual(len(calls), 1)            # hooks are not copied

        # the averaged model copies the Python module the same way
        gavg = Gnn.AveragedModel(h)
        self.assertEqual(gavg.module.notes['epoch'], 3)
        self.assertIsInstance(gavg.module, Holder)

    def test_deepcopy_matches_torch(self):
        """deepcopy of the same model in both libraries: the same state, independent of the original."""
        tm = torch_model()
        gm = gnn_model(tm)
        tc, gc = copy.deepcopy(tm), copy.deepcopy(gm)
        train_step(tm, gm, 0)
        for k, v in tc.state_dict().items():
            self.assert_close(to_np(gc.state_dict()[k]), v.numpy(), 0, 0, k)


class PyTorchExamplesTest(ParityTest):
    """The two examples of PyTorch's AveragedModel page, in float64, against torch after every
    update (rel 1e-9): SGD with CosineAnnealingLR then SWALR and update_bn; an EMA of weights
    and buffers. torch 1.13 has no multi_avg_fn: its avg_fn with the same formula stands for
    get_ema_multi_avg_fn, and it leaves buffers alone without use_buffers (current PyTorch and
    gnn copy them from the model), so those are compared with the model's."""

    def make(self):
        tm = nn.Sequential(nn.Linear(4, 6), nn.BatchNorm1d(6), nn.ReLU(), nn.Linear(6, 1)).double()
        with torch.no_grad():
            for k, p in enumerate(tm.parameters()):
                p.copy_(0.3 * torch.sin(1.1 * torch.arange(p.numel(), dtype=torch.float64) + 0.7 * k + 0.1)
                        .reshape(p.shape))
        gm = gnn_model(tm, torch.float64)
        g = torch.Generator().manual_seed(11)
        loader = [(torch.randn(8, 4, generator=g, dtype=torch.float64),
                   torch.randn(8, 1, generator=g, dtype=torch.float64)) for _ in range(4)]
        gloader = [(to_gnn(x.numpy()), to_gnn(y.numpy())) for x, y in loader]
        return tm, gm, loader, gloader

    def epoch(self, model, optimizer, loader, loss_fn, after_step=None):
        model.train()
        for x, y in loader:
            optimizer.zero_grad()
            loss_fn(model(x), y).backward()
            optimizer.step()
            if after_step:
                after_step()

    def assert_module(self, gavg, tavg, tm=None, what=''):
        want = dict(tavg.module.state_dict())
        if tm is not None:
            want.update(dict(tm.named_buffers()))
        got = gavg.get_module().state_dict()
        self.assertEqual(list(got.keys()), list(want.keys()))
        for k, v in want.items():
            self.assert_close(to_np(got[k]), v.detach().numpy(), 1e-9, 1e-12, '%s %s' % (what, k))

    def test_swa_example(self):
        tm, gm, loader, gloader = self.make()
        mse = nn.MSELoss()

        def gmse(out, y):
            return Gnn.mse_loss(out, y, Gnn.Reduction.MEAN)

        topt = torch.optim.SGD(tm.parameters(), lr=0.05, momentum=0.9)
        gopt = Gnn.SGD(gm.parameters(), lr=0.05, momentum=0.9)
        tswa, gswa = swa_utils.AveragedModel(tm), Gnn.AveragedModel(gm)
        tsched = torch.optim.lr_scheduler.CosineAnnealingLR(topt, T_max=10)
        gsched = Gnn.CosineAnnealingLR(gopt, T_max=10)
        tswa_sched = swa_utils.SWALR(topt, swa_lr=0.02, anneal_epochs=3, anneal_strategy='cos')
        gswa_sched = Gnn.SWALR(gopt, swa_lr=0.02, anneal_epochs=3, anneal_strategy='cos')
        swa_start, updates = 4, 0
        for i in range(10):
            self.epoch(tm, topt, loader, mse)
            self.epoch(gm, gopt, gloader, gmse)
            if i > swa_start:
                tswa.update_parameters(tm)
                gswa.update_parameters(gm)
                tswa_sched.step()
                gswa_sched.step()
                self.assert_module(gswa, tswa, tm, 'epoch %d' % i)
                updates += 1
            else:
                tsched.step()
                gsched.step()
        self.assertEqual((updates, gswa.get_n_averaged()), (5, 5))
        swa_utils.update_bn(loader, tswa)
        Gnn.update_bn(gloader, gswa)
        self.assert_module(gswa, tswa, what='after update_bn')
        x = loader[0][0]
        gswa.eval()
        tswa.eval()
        self.assert_close(to_np(gswa(to_gnn(x.numpy()))), tswa(x).detach().numpy(), 1e-9, 1e-12, 'prediction')

    def test_ema_example(self):
        tm, gm, loader, gloader = self.make()
        mse = nn.MSELoss()
        topt = torch.optim.SGD(tm.parameters(), lr=0.05, momentum=0.9)
        gopt = Gnn.SGD(gm.parameters(), lr=0.05, momentum=0.9)

        def ema(a, c, n):
            return 0.9 * a + (1 - 0.9) * c

        tema = swa_utils.AveragedModel(tm, avg_fn=ema, use_buffers=True)
        gema = Gnn.AveragedModel(gm, multi_avg_fn=Gnn.get_ema_multi_avg_fn(0.9), use_buffers=True)
        for i in range(4):
            for (x, y), (gx, gy) in zip(loader, gloader):
                for model, opt, args, loss in ((tm, topt, (x, y), mse),
                                               (gm, gopt, (gx, gy), lambda o, t: Gnn.mse_loss(o, t, Gnn.Reduction.MEAN))):
                    model.train()
                    opt.zero_grad()
                    loss(model(args[0]), args[1]).backward()
                    opt.step()
                tema.update_parameters(tm)
                gema.update_parameters(gm)
                self.assert_module(gema, tema, what='epoch %d' % i)
        self.assertEqual(gema.get_n_averaged(), 16)


if __name__ == '__main__':
    main()
