"""gnn.optim's Adadelta, Adamax, NAdam, RAdam, Rprop, ASGD, SparseAdam and LBFGS
against torch 1.13: the same weights, data and options in both for twenty steps, the
parameters and the state equal step by step in float32 (rel 1e-5 / abs 1e-6) and float64
(rel 1e-10 / abs 1e-12); the state_dict has torch's structure, a torch state_dict loads and
goes on as torch goes on, a saved gnn state_dict loads back and goes on identically; bad
options are torch's ValueErrors; schedulers and SWA work on each."""
import unittest

import numpy as np
import torch

from gnntest import TOL, Gnn, main, rand, to_gnn, to_np, to_torch

import gnn
from gnn import nn
from gnn.optim import lr_scheduler, swa_utils

# (name, options): defaults, then non-default values with weight_decay and maximize where
# torch 1.13 has them
CASES = [
    ('Adadelta', {}),
    ('Adadelta', dict(lr=0.5, rho=0.8, eps=1e-5, weight_decay=0.1, maximize=True)),
    ('Adamax', {}),
    ('Adamax', dict(lr=0.01, betas=(0.8, 0.99), eps=1e-6, weight_decay=0.05, maximize=True)),
    ('NAdam', {}),
    ('NAdam', dict(lr=0.01, betas=(0.85, 0.95), eps=1e-6, weight_decay=0.05, momentum_decay=0.01)),
    ('RAdam', {}),
    # beta2 0.9: rho_t passes 5 at the third step, so both branches run
    ('RAdam', dict(lr=0.01, betas=(0.8, 0.9), eps=1e-6, weight_decay=0.05)),
    ('Rprop', {}),
    ('Rprop', dict(lr=0.05, etas=(0.3, 1.5), step_sizes=(1e-3, 0.2), maximize=True)),
    ('ASGD', {}),
    # t0 5: averaging starts within the twenty steps
    ('ASGD', dict(lr=0.05, lambd=1e-3, alpha=0.6, t0=5, weight_decay=0.05, maximize=True)),
]

# the state entries that torch keeps as 0-d tensors and gnn as numbers
NUMBERS = {'step', 'mu_product', 'eta', 'mu'}


def problem(dtype):
    """Weights of a 4-5-2 tanh network and a batch; maximize cases climb the same loss."""
    return ([rand((5, 4), dtype, seed=1, low=-1, high=1), rand((5,), dtype, seed=2, low=-1, high=1),
             rand((2, 5), dtype, seed=3, low=-1, high=1), rand((2,), dtype, seed=4, low=-1, high=1)],
            rand((6, 4), dtype, seed=5), rand((6, 2), dtype, seed=6))


def loss_of(params, x, y):
    w1, b1, w2, b2 = params
    h = (x @ w1.T + b1).tanh()
    return ((h @ w2.T + b2 - y) ** 2).mean()


class Run:
    """One library's optimizer over the problem's weights."""

    def __init__(self, lib, name, options, dtype, params=None):
        weights, x, y = problem(dtype)
        self.lib = lib
        if lib is torch:
            self.params = [to_torch(w, True) for w in (params or weights)]
            self.x, self.y = to_torch(x), to_torch(y)
        else:
            self.params = [to_gnn(w, True) for w in (params or weights)]
            self.x, self.y = to_gnn(x), to_gnn(y)
        self.opt = getattr(lib.optim, name)(self.params, **options)

    def step(self):
        loss = loss_of(self.params, self.x, self.y)
        loss.backward()
        self.opt.step()
        self.opt.zero_grad(set_to_none=True)
        return loss.item()

    def weights(self):
        if self.lib is torch:
            return [p.detach().numpy().copy() for p in self.params]
        return [to_np(p) for p in self.params]


def torch_state(opt, index, key):
    value = opt.state_dict()['state'][index][key]
    return float(value) if key in NUMBERS else value.numpy()


def gnn_state(opt, index, key):
    value = opt.state_dict()['state.%d.%s' % (index, key)]
    return float(value) if key in NUMBERS else to_np(value)


class Parity(unittest.TestCase):
    def compare(self, want, got, dtype, msg):
        rtol, atol = TOL[dtype]
        for a, b in zip(want, got):
            np.testing.assert_allclose(b, a, rtol=rtol, atol=atol, err_msg=msg)

    def test_twenty_steps_match_torch(self):
        for dtype in (np.float32, np.float64):
            for name, options in CASES:
                with self.subTest(optimizer=name, dtype=dtype.__name__, **options):
                    t, g = Run(torch, name, options, dtype), Run(gnn, name, options, dtype)
                    for step in range(20):
                        lt, lg = t.step(), g.step()
                        self.assertAlmostEqual(lg, lt, delta=TOL[dtype][0] * max(1, abs(lt)))
                        self.compare(t.weights(), g.weights(), dtype, '%s step %d' % (name, step))
                    tsd = t.opt.state_dict()
                    for index, entries in tsd['state'].items():
                        for key in entries:
                            want, got = torch_state(t.opt, index, key), gnn_state(g.opt, index, key)
                            if key in NUMBERS:
                                self.assertEqual(got, want, key)
                            elif key == 'prev' and dtype == np.float32:
                                # Rprop's prev is the last gradient itself: float32 rounding of
                                # the two backward passes, not of the update (whose steps only
                                # read its sign and are compared above)
                                np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-6)
                            else:
                                self.compare([want], [got], dtype, key)

    def test_state_dict_structure_is_torch(self):
        for name, options in CASES:
            with self.subTest(optimizer=name, **options):
                t, g = Run(torch, name, options, np.float32), Run(gnn, name, options, np.float32)
                t.step(), g.step()
                tsd, gsd = t.opt.state_dict(), g.opt.state_dict()
                keys = ['state.%d.%s' % (i, k) for i, e in tsd['state'].items() for k in e]
                for gi, group in enumerate(tsd['param_groups']):
                    keys += ['param_groups.%d.%s' % (gi, k) for k in group
                             if k not in ('params', 'foreach')]
                    keys.append('param_groups.%d.params' % gi)
                self.assertEqual(sorted(gsd.keys()), sorted(keys))
                # the state entries in torch's order, the options with torch's values
                for index, entries in tsd['state'].items():
                    self.assertEqual([k for k in gsd.keys() if k.startswith('state.%d.' % index)],
                                     ['state.%d.%s' % (index, k) for k in entries])
                tgroup, ggroup = t.opt.param_groups[0], g.opt.param_groups[0]
                self.assertEqual([k for k in tgroup if k != 'foreach'], list(ggroup.keys()))
                for key in ggroup.keys():
                    if key != 'params':
                        self.assertEqual(ggroup[key], tgroup[key], key)

    def test_torch_state_dict_loads_and_goes_on(self):
        for name, options in CASES:
            with self.subTest(optimizer=name, **options):
                t = Run(torch, name, options, np.float32)
                for _ in range(4):
                    t.step()
                g = Run(gnn, name, {}, np.float32, params=t.weights())
                g.opt.load_state_dict(t.opt.state_dict())
                for step in range(6):
                    t.step(), g.step()
                    self.compare(t.weights(), g.weights(), np.float32, '%s step %d' % (name, step))

    def test_saved_state_loads_back_and_goes_on_identically(self):
        for name, options in CASES:
            with self.subTest(optimizer=name, **options):
                a = Run(gnn, name, options, np.float64)
                for _ in range(5):
                    a.step()
                saved = a.opt.state_dict()
                b = Run(gnn, name, {}, np.float64, params=a.weights())
                b.opt.load_state_dict(saved)
                for step in range(5):
                    a.step(), b.step()
                    for x, y in zip(a.weights(), b.weights()):
                        np.testing.assert_array_equal(y, x, err_msg='%s step %d' % (name, step))


class BadOptions(unittest.TestCase):
    CASES = [
        ('Adadelta', dict(lr=-1.0)), ('Adadelta', dict(rho=1.5)), ('Adadelta', dict(rho=-0.1)),
        ('Adadelta', dict(eps=-1e-6)), ('Adadelta', dict(weight_decay=-0.1)),
        ('Adamax', dict(lr=-0.5)), ('Adamax', dict(betas=(1.0, 0.9))), ('Adamax', dict(betas=(0.9, -0.1))),
        ('Adamax', dict(eps=-1.0)), ('Adamax', dict(weight_decay=-1)),
        ('NAdam', dict(betas=(0.9, 1.0))), ('NAdam', dict(momentum_decay=-0.1)), ('NAdam', dict(lr=-1e-3)),
        ('RAdam', dict(betas=(-0.5, 0.9))), ('RAdam', dict(eps=-1e-8)), ('RAdam', dict(weight_decay=-2.0)),
        ('Rprop', dict(lr=-0.1)), ('Rprop', dict(etas=(1.5, 1.2))), ('Rprop', dict(etas=(0.5, 0.9))),
        ('ASGD', dict(lr=-0.01)), ('ASGD', dict(weight_decay=-1e-4)),
        ('SparseAdam', dict(lr=0.0)), ('SparseAdam', dict(eps=0.0)), ('SparseAdam', dict(betas=(0.9, 1.5))),
    ]

    def test_torch_value_errors(self):
        for name, options in self.CASES:
            with self.subTest(optimizer=name, **options):
                tparams = [torch.zeros(2, requires_grad=True)]
                with self.assertRaises(ValueError) as want:
                    getattr(torch.optim, name)(tparams, **options)
                with self.assertRaises(ValueError) as got:
                    getattr(gnn.optim, name)([to_gnn(np.zeros(2, np.float32), True)], **options)
                self.assertIn(str(want.exception), str(got.exception))

    def test_foreach_is_accepted(self):
        for name in ('Adadelta', 'Adamax', 'NAdam', 'RAdam', 'Rprop', 'ASGD'):
            for foreach in (None, False, True):
                with self.subTest(optimizer=name, foreach=foreach):
                    getattr(gnn.optim, name)([to_gnn(np.zeros(2, np.float32), True)], foreach=foreach)


class SparseAdam(unittest.TestCase):
    def test_dense_gradients_are_refused_as_torch_refuses_them(self):
        results = []
        for lib, make in ((torch, to_torch), (gnn, to_gnn)):
            p = make(np.ones(3, np.float32), True)
            opt = lib.optim.SparseAdam([p], lr=0.01)
            opt.step()   # no gradient: nothing to do
            (p * p).sum().backward()
            with self.assertRaises(RuntimeError) as cm:
                opt.step()
            results.append((str(cm.exception), len(opt.state), opt.param_groups[0]['lr'],
                            tuple(opt.param_groups[0]['betas']), opt.param_groups[0]['maximize']))
        self.assertIn('SparseAdam does not support dense gradients, please consider Adam instead',
                      results[1][0])
        self.assertEqual(results[1][1:], results[0][1:])


# (optimizer, options, scheduler, options): one scheduler each
SCHEDULED = [
    ('Adadelta', dict(lr=0.5), 'StepLR', dict(step_size=3, gamma=0.5)),
    ('Adamax', dict(lr=0.01), 'ExponentialLR', dict(gamma=0.9)),
    ('NAdam', dict(lr=0.01), 'CosineAnnealingLR', dict(T_max=10)),
    ('RAdam', dict(lr=0.01), 'LinearLR', dict(start_factor=0.25, total_iters=8)),
    ('Rprop', dict(lr=0.05), 'MultiStepLR', dict(milestones=[3, 6], gamma=0.3)),
    ('ASGD', dict(lr=0.05, t0=4), 'OneCycleLR', dict(max_lr=0.1, total_steps=12, cycle_momentum=False)),
]


class Schedulers(unittest.TestCase):
    def test_one_scheduler_each(self):
        for name, options, sched, sched_options in SCHEDULED:
            with self.subTest(optimizer=name, scheduler=sched):
                t, g = Run(torch, name, options, np.float32), Run(gnn, name, options, np.float32)
                ts = getattr(torch.optim.lr_scheduler, sched)(t.opt, **sched_options)
                gs = getattr(lr_scheduler, sched)(g.opt, **sched_options)
                for step in range(12):
                    t.step(), g.step()
                    ts.step(), gs.step()
                    self.assertAlmostEqual(gs.get_last_lr()[0], ts.get_last_lr()[0], delta=1e-12)
                    np.testing.assert_allclose(g.weights()[0], t.weights()[0], rtol=1e-5, atol=1e-6,
                                               err_msg='step %d' % step)

    def test_swa_with_each(self):
        for name, options, _, _ in SCHEDULED:
            with self.subTest(optimizer=name):
                results = []
                for lib, swa in ((torch, torch.optim.swa_utils), (gnn, swa_utils)):
                    torch.manual_seed(0)
                    tm = torch.nn.Linear(4, 2)
                    model = tm if lib is torch else nn.Linear(4, 2)
                    if lib is gnn:
                        model.load_state_dict(dict(tm.state_dict()))
                    opt = getattr(lib.optim, name)(model.parameters(), **options)
                    averaged = swa.AveragedModel(model)
                    swalr = swa.SWALR(opt, swa_lr=0.02, anneal_epochs=3)
                    x = (to_torch if lib is torch else to_gnn)(rand((5, 4), seed=7))
                    rates = []
                    for _ in range(6):
                        (model(x) ** 2).mean().backward()
                        opt.step()
                        opt.zero_grad(set_to_none=True)
                        averaged.update_parameters(model)
                        swalr.step()
                        rates.append(opt.param_groups[0]['lr'])
                    weights = [np.array(p.detach().numpy() if lib is torch else p.numpy())
                               for p in averaged.parameters()]
                    results.append((rates, weights))
                for a, b in zip(results[0][0], results[1][0]):
                    self.assertAlmostEqual(b, a, delta=1e-12)
                for a, b in zip(results[0][1], results[1][1]):
                    np.testing.assert_allclose(b, a, rtol=1e-5, atol=1e-6)


LSQ_A = np.random.RandomState(0).randn(8, 3)
LSQ_B = np.random.RandomState(1).randn(8)


class LbfgsRun:
    """LBFGS on a least-squares problem plus a Rosenbrock valley, as torch's docs write the
    closure."""

    def __init__(self, lib, dtype, x0=(1.5, -1.0, 0.5), **options):
        make = to_torch if lib is torch else to_gnn
        self.lib = lib
        self.x = make(np.array(x0, dtype), True)
        self.a, self.b = make(LSQ_A.astype(dtype)), make(LSQ_B.astype(dtype))
        self.opt = lib.optim.LBFGS([self.x], **options)
        self.calls = 0

    def closure(self):
        self.calls += 1
        self.opt.zero_grad()
        x = self.x
        loss = ((self.a @ x - self.b) ** 2).sum() + (1 - x[0]) ** 2 + 10 * (x[1] - x[0] ** 2) ** 2
        loss.backward()
        return loss

    def step(self):
        return float(self.opt.step(self.closure))

    def weights(self):
        return self.x.detach().numpy().copy() if self.lib is torch else to_np(self.x)


class Lbfgs(unittest.TestCase):
    OPTIONS = [dict(), dict(max_iter=5, history_size=3), dict(lr=0.5, max_iter=4, history_size=2),
               dict(line_search_fn='strong_wolfe'), dict(max_iter=5, history_size=3, line_search_fn='strong_wolfe')]

    def check_parity(self, dtype, options, steps=4, tol=None, exact_path=True):
        rtol, atol = tol or TOL[dtype]
        t, g = LbfgsRun(torch, dtype, **options), LbfgsRun(gnn, dtype, **options)
        for step in range(steps):
            lt, lg = t.step(), g.step()
            self.assertAlmostEqual(lg, lt, delta=rtol * max(1, abs(lt)), msg=step)
            np.testing.assert_allclose(g.weights(), t.weights(), rtol=rtol, atol=atol, err_msg=str(step))
            if exact_path:
                self.assertEqual(g.calls, t.calls, step)
        if not exact_path:
            return
        tstate, gstate = t.opt.state_dict()['state'][0], g.opt.state_dict()
        self.assertEqual(sorted('state.0.' + k for k in tstate),
                         sorted(k for k in gstate.keys() if k.startswith('state.')))
        for key in ('func_evals', 'n_iter'):
            self.assertEqual(gstate['state.0.' + key], tstate[key])
        for key in ('d', 'prev_flat_grad'):
            np.testing.assert_allclose(to_np(gstate['state.0.' + key]), tstate[key].numpy(), rtol=rtol, atol=atol)
        np.testing.assert_allclose(to_np(gstate['state.0.old_dirs']),
                                   torch.stack(tstate['old_dirs']).numpy(), rtol=rtol, atol=atol)

    def test_matches_torch_float64(self):
        for options in self.OPTIONS:
            with self.subTest(**options):
                self.check_parity(np.float64, options)

    def test_matches_torch_float32_fixed_step(self):
        # the options that stop before the loss settles: near the minimum, float32 rounding
        # of the loss decides when abs(loss - prev_loss) < tolerance_change ends a step
        for options in self.OPTIONS[1:]:
            if 'line_search_fn' not in options:
                with self.subTest(**options):
                    if Gnn.Backend.get_for_device_type('cpu').get_name() == 'cpu':
                        self.check_parity(np.float32, options)
                    else:
                        # LBFGS feeds float32 dot products back into its directions: a
                        # backend that sums them in another order (the reference backend)
                        # drifts from torch over the iterations, and may stop one sooner
                        self.check_parity(np.float32, options, steps=2, tol=(1e-3, 1e-5), exact_path=False)

    def test_strong_wolfe_float32_reaches_torch_minimum(self):
        # torch's line search computes its scalars as float32 0-d tensors (the comparisons of
        # the Wolfe conditions too), gnn in double: the searches may take different trial
        # steps in float32, and both reach the same minimizer
        t = LbfgsRun(torch, np.float32, line_search_fn='strong_wolfe')
        g = LbfgsRun(gnn, np.float32, line_search_fn='strong_wolfe')
        for _ in range(5):
            t.step(), g.step()
        np.testing.assert_allclose(g.weights(), t.weights(), rtol=1e-4, atol=1e-5)

    def test_torch_state_dict_loads_and_goes_on(self):
        for options in (dict(max_iter=3, history_size=4), dict(max_iter=3, line_search_fn='strong_wolfe')):
            with self.subTest(**options):
                t = LbfgsRun(torch, np.float64, **options)
                t.step()
                g = LbfgsRun(gnn, np.float64, x0=t.weights(), **options)
                g.opt.load_state_dict(t.opt.state_dict())
                for step in range(3):
                    t.step(), g.step()
                    np.testing.assert_allclose(g.weights(), t.weights(), rtol=1e-10, atol=1e-12)

    def test_saved_state_loads_back_and_goes_on_identically(self):
        a = LbfgsRun(gnn, np.float64, max_iter=3, history_size=4)
        a.step()
        b = LbfgsRun(gnn, np.float64, x0=a.weights(), max_iter=3, history_size=4)
        b.opt.load_state_dict(a.opt.state_dict())
        for _ in range(3):
            a.step(), b.step()
            np.testing.assert_array_equal(b.weights(), a.weights())

    def test_as_torch_refuses(self):
        g = LbfgsRun(gnn, np.float32)
        with self.assertRaises(TypeError):
            g.opt.step()
        with self.assertRaises(ValueError) as cm:
            gnn.optim.LBFGS([{'params': [g.x]}, {'params': [to_gnn(np.zeros(2, np.float32), True)]}])
        self.assertIn("LBFGS doesn't support per-parameter options (parameter groups)", str(cm.exception))

        def failing():
            raise KeyError('from the closure')
        with self.assertRaises(KeyError):
            g.opt.step(failing)
        self.assertEqual(g.opt.param_groups[0]['line_search_fn'], None)
        self.assertEqual(g.opt.param_groups[0]['max_eval'], 25)
        self.assertEqual(list(g.opt.param_groups[0].keys()),
                         list(torch.optim.LBFGS([torch.zeros(1, requires_grad=True)]).param_groups[0].keys()))

    def test_with_a_scheduler(self):
        t, g = LbfgsRun(torch, np.float64, max_iter=2), LbfgsRun(gnn, np.float64, max_iter=2)
        ts = torch.optim.lr_scheduler.StepLR(t.opt, 2, gamma=0.5)
        gs = lr_scheduler.StepLR(g.opt, 2, gamma=0.5)
        for step in range(5):
            t.step(), g.step()
            ts.step(), gs.step()
            self.assertEqual(gs.get_last_lr(), ts.get_last_lr())
            np.testing.assert_allclose(g.weights(), t.weights(), rtol=1e-10, atol=1e-12)


class Files(unittest.TestCase):
    def test_gnn_save_and_load_keep_the_state(self):
        import os
        import tempfile
        for name, options in CASES[1::2] + [('LBFGS', dict(max_iter=3, history_size=2))]:
            with self.subTest(optimizer=name):
                if name == 'LBFGS':
                    a = LbfgsRun(gnn, np.float64, **options)
                else:
                    a = Run(gnn, name, options, np.float64)
                for _ in range(3):
                    a.step()
                with tempfile.TemporaryDirectory() as folder:
                    path = os.path.join(folder, 'optimizer.pt')
                    gnn.save(a.opt.state_dict(), path)
                    loaded = gnn.load(path)
                if name == 'LBFGS':
                    b = LbfgsRun(gnn, np.float64, x0=a.weights(), **options)
                else:
                    b = Run(gnn, name, {}, np.float64, params=a.weights())
                b.opt.load_state_dict(loaded)
                for _ in range(3):
                    a.step(), b.step()
                    wa, wb = a.weights(), b.weights()
                    for x, y in (zip(wa, wb) if isinstance(wa, list) else [(wa, wb)]):
                        np.testing.assert_array_equal(y, x)


class FromProperties(unittest.TestCase):
    def test_g_object_new_builds_each(self):
        from gi.repository import GObject
        for name in ('Adadelta', 'Adamax', 'NAdam', 'RAdam', 'Rprop', 'ASGD', 'SparseAdam', 'LBFGS'):
            with self.subTest(optimizer=name):
                gtype = GObject.type_from_name('Gnn' + name)
                self.assertTrue(gtype.is_a(gnn.optim.Optimizer.__gtype__))


if __name__ == '__main__':
    main()
