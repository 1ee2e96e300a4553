"""gnn.optim, gnn.optim.lr_scheduler and gnn.optim.swa_utils written the torch way: the
constructors have torch 1.13's signatures (read with inspect at test time, with a written
allow-list of the differences), the flags gnn cannot honour are ValueErrors that name them,
verbose schedulers print what torch prints, an optimizer loads torch's own state_dict, and a
training loop written as torch's optimization tutorial writes it matches torch step by step."""
import contextlib
import inspect
import io
import unittest

import numpy as np
import torch

from gnntest import TOL, main, rand
from gi.overrides._gnn import names

import gnn
from gnn import nn
from gnn.optim import lr_scheduler, swa_utils

RTOL, ATOL = TOL[np.float32]
P = inspect.Parameter

# parameter -> why gnn's signature differs from torch 1.13's there (None: gnn lacks it)
ALLOWED = {
    'torch.optim.Optimizer': {
        'params': 'defaults to None: a Python subclass made by g_object_new from C gets no arguments',
        'defaults': 'defaults to None, for the same reason',
        '**kwargs': 'GObject construct properties',
    },
    'torch.optim.AdamW': {
        'differentiable': 'PyTorch 2.0 adds it (keyword-only, False); gnn accepts False',
        'fused': 'PyTorch 2.0 adds it (keyword-only, None); gnn accepts a false value',
    },
    'torch.optim.Adagrad': {
        'differentiable': 'PyTorch 2.0 adds it (keyword-only, False); gnn accepts False',
    },
    'torch.optim.lr_scheduler.LRScheduler': {
        'optimizer': 'defaults to None: a Python subclass made by g_object_new from C gets no arguments',
        '**kwargs': 'GObject construct properties',
    },
    'torch.optim.swa_utils.AveragedModel': {
        'multi_avg_fn': "PyTorch 2.1's, before use_buffers as there",
        'use_buffers': "after multi_avg_fn, PyTorch 2.1's order",
        '**kwargs': 'GObject construct properties',
    },
}

# names 1.13 spells differently
ORACLE_NAME = {'torch.optim.lr_scheduler.LRScheduler': 'torch.optim.lr_scheduler._LRScheduler'}


def torch_object(spelling):
    import importlib
    module, name = names.namespace_of(ORACLE_NAME.get(spelling, spelling))
    return getattr(importlib.import_module(module), name, None)


def gnn_object(spelling):
    import importlib
    module, name = names.namespace_of(spelling)
    return getattr(importlib.import_module('gnn' + module[len('torch'):]), name)


def params_of(fn):
    return {p.name if p.kind != P.VAR_KEYWORD else '**' + p.name: p
            for p in inspect.signature(fn).parameters.values()}


def same_default(a, b):
    if a is P.empty or b is P.empty:
        return a is b
    if type(a).__name__ in ('_RequiredParameter', '_Required'):
        return repr(a) == repr(b)
    return isinstance(a, bool) == isinstance(b, bool) and a == b


class Signatures(unittest.TestCase):
    def rows(self):
        for spelling, target in names.ROWS:
            ns = names.namespace_of(spelling)[0]
            if ns.startswith('torch.optim') and not isinstance(target, names.Missing):
                theirs = torch_object(spelling)
                if callable(theirs):
                    yield spelling, theirs, gnn_object(spelling)

    def test_as_torch_1_13(self):
        seen = 0
        for spelling, theirs, ours in self.rows():
            seen += 1
            with self.subTest(spelling):
                allowed = ALLOWED.get(spelling, {})
                want, got = params_of(theirs), params_of(ours)
                # the same names in the same order, allowed ones left out
                self.assertEqual([n for n in want if n not in allowed],
                                 [n for n in got if n not in allowed])
                for name, p in want.items():
                    if name in allowed:
                        continue
                    q = got[name]
                    self.assertEqual(p.kind, q.kind, name)
                    self.assertTrue(same_default(p.default, q.default),
                                    '%s: torch %r, gnn %r' % (name, p.default, q.default))
                for name in got:
                    if name not in want:
                        self.assertIn(name, allowed, '%s has %s, which torch 1.13 lacks' % (spelling, name))
        self.assertEqual(seen, 33)

    def test_allow_list_is_needed(self):
        # every entry of the allow-list is a real difference, not a stale excuse
        for spelling, entries in ALLOWED.items():
            want, got = params_of(torch_object(spelling)), params_of(gnn_object(spelling))
            for name in entries:
                with self.subTest(spelling=spelling, parameter=name):
                    if name in want and name in got:
                        differs = (not same_default(want[name].default, got[name].default)
                                   or list(want).index(name) != list(got).index(name))
                        self.assertTrue(differs)


def tiny_model():
    torch.manual_seed(3)
    t = torch.nn.Sequential(torch.nn.Linear(4, 3), torch.nn.Tanh(), torch.nn.Linear(3, 2))
    g = nn.Sequential(nn.Linear(4, 3), nn.Tanh(), nn.Linear(3, 2))
    g.load_state_dict(dict(t.state_dict()))
    return t, g


class Flags(unittest.TestCase):
    def test_foreach_is_accepted(self):
        _, g = tiny_model()
        for cls in (gnn.optim.SGD, gnn.optim.Adam, gnn.optim.AdamW, gnn.optim.RMSprop, gnn.optim.Adagrad):
            for foreach in (None, False, True):
                with self.subTest(cls=cls.__name__, foreach=foreach):
                    cls(g.parameters(), lr=0.1, foreach=foreach)

    def test_what_gnn_cannot_honour_is_named(self):
        _, g = tiny_model()
        cases = [(gnn.optim.SGD, 'differentiable'), (gnn.optim.Adam, 'capturable'),
                 (gnn.optim.Adam, 'differentiable'), (gnn.optim.Adam, 'fused'),
                 (gnn.optim.AdamW, 'capturable'), (gnn.optim.AdamW, 'fused'),
                 (gnn.optim.RMSprop, 'differentiable'), (gnn.optim.Adagrad, 'differentiable')]
        for cls, flag in cases:
            with self.subTest(cls=cls.__name__, flag=flag):
                cls(g.parameters(), lr=0.1, **{flag: False})
                with self.assertRaises(ValueError) as cm:
                    cls(g.parameters(), lr=0.1, **{flag: True})
                self.assertIn('%s: %s=True is not supported' % (cls.__name__, flag), str(cm.exception))

    def test_sgd_needs_lr(self):
        _, g = tiny_model()
        with self.assertRaises(ValueError) as cm:
            gnn.optim.SGD(g.parameters())
        self.assertIn('required optimization parameter lr', str(cm.exception))

    def test_verbose_prints_as_torch(self):
        def run(optim, sched, model):
            out = io.StringIO()
            with contextlib.redirect_stdout(out):
                opt = optim.SGD(model.parameters(), lr=0.1)
                s = sched.StepLR(opt, 2, gamma=0.5, verbose=True)
                for _ in range(3):
                    opt.step()
                    s.step()
                quiet = sched.ExponentialLR(opt, 0.9)
                opt.step()
                quiet.step()
            return out.getvalue()
        t, g = tiny_model()
        want = run(torch.optim, torch.optim.lr_scheduler, t)
        self.assertIn('Adjusting learning rate of group 0 to 1.0000e-01.', want)
        self.assertEqual(run(gnn.optim, lr_scheduler, g), want)


class TorchState(unittest.TestCase):
    def test_zero_grad_sets_to_none(self):
        t, g = tiny_model()
        opt = gnn.optim.SGD(g.parameters(), lr=0.1)
        nn.MSELoss()(g(gnn.Tensor.from_numpy(rand((2, 4)))), gnn.Tensor.from_numpy(rand((2, 2)))).backward()
        self.assertTrue(all(p.grad is not None for p in g.parameters()))
        opt.zero_grad()
        self.assertTrue(all(p.grad is None for p in g.parameters()))

    def test_loads_torch_state_dict(self):
        # torch trains three steps, gnn takes its weights and Adam's state and both go on
        x, y = rand((5, 4), seed=1), rand((5, 2), seed=2)
        t, g = tiny_model()
        topt = torch.optim.Adam(t.parameters(), lr=0.02, amsgrad=True, weight_decay=0.01)

        def tstep():
            torch.nn.functional.mse_loss(t(torch.from_numpy(x)), torch.from_numpy(y)).backward()
            topt.step()
            topt.zero_grad(set_to_none=True)
        for _ in range(3):
            tstep()
        g.load_state_dict(dict(t.state_dict()))
        gopt = gnn.optim.Adam(g.parameters(), lr=0.5, amsgrad=False)
        gopt.load_state_dict(topt.state_dict())
        self.assertEqual(gopt.param_groups[0]['lr'], 0.02)
        self.assertIs(gopt.param_groups[0]['amsgrad'], True)
        self.assertEqual(gopt.state_dict()['state.0.step'], 3.0)
        for _ in range(3):
            tstep()
            nn.MSELoss()(g(gnn.Tensor.from_numpy(x)), gnn.Tensor.from_numpy(y)).backward()
            gopt.step()
            gopt.zero_grad()
        for (name, a), b in zip(t.named_parameters(), g.parameters()):
            np.testing.assert_allclose(b.numpy(), a.detach().numpy(), rtol=RTOL, atol=ATOL, err_msg=name)


# (optimizer, its options, scheduler, its options), as the optimization tutorial combines them
LOOPS = [
    ('SGD', dict(lr=0.1, momentum=0.9), 'StepLR', dict(step_size=5, gamma=0.5)),
    ('SGD', dict(lr=0.05, momentum=0.9, nesterov=True, weight_decay=0.01), 'CosineAnnealingLR', dict(T_max=20)),
    ('SGD', dict(lr=0.05, weight_decay=0.1), 'MultiStepLR', dict(milestones=[4, 12], gamma=0.3)),
    ('Adam', dict(lr=0.01), 'ExponentialLR', dict(gamma=0.9)),
    ('AdamW', dict(lr=0.01, weight_decay=0.1), 'LinearLR', dict(start_factor=0.25, total_iters=8)),
    ('RMSprop', dict(lr=0.005, momentum=0.5), 'LambdaLR', dict(lr_lambda=lambda e: 0.95 ** e)),
    ('Adagrad', dict(lr=0.1, lr_decay=0.01), 'OneCycleLR', dict(max_lr=0.2, total_steps=20, cycle_momentum=False)),
    ('SGD', dict(lr=0.1, momentum=0.9), 'OneCycleLR', dict(max_lr=0.3, total_steps=20)),
]


def train_loop(torch_like, model, X, y, optimizer, scheduler):
    """The tutorial's train_loop, one batch a step; returns each step's loss and rate."""
    loss_fn = torch_like.nn.CrossEntropyLoss()
    trace = []
    for batch in range(20):
        pred = model(X[batch % 4])
        loss = loss_fn(pred, y[batch % 4])
        loss.backward()
        optimizer.step()
        optimizer.zero_grad(set_to_none=True)
        scheduler.step()
        trace.append((loss.item(), scheduler.get_last_lr()[0],
                      [p.detach().numpy().copy() if hasattr(p, 'detach') else np.array(p.numpy())
                       for p in model.parameters()]))
    return trace


class TutorialLoop(unittest.TestCase):
    def test_twenty_steps_match_torch(self):
        X = [rand((8, 6), seed=10 + i) for i in range(4)]
        y = [np.random.RandomState(20 + i).randint(0, 3, size=8).astype(np.int64) for i in range(4)]
        for opt_name, opt_args, sched_name, sched_args in LOOPS:
            with self.subTest(optimizer=opt_name, scheduler=sched_name, **{k: v for k, v in opt_args.items()}):
                torch.manual_seed(0)
                tm = torch.nn.Sequential(torch.nn.Linear(6, 5), torch.nn.ReLU(), torch.nn.Linear(5, 3))
                gm = nn.Sequential(nn.Linear(6, 5), nn.ReLU(), nn.Linear(5, 3))
                gm.load_state_dict(dict(tm.state_dict()))
                results = []
                for lib, model, to_tensor in ((torch, tm, torch.from_numpy),
                                              (gnn, gm, gnn.Tensor.from_numpy)):
                    optimizer = getattr(lib.optim, opt_name)(model.parameters(), **opt_args)
                    scheduler = getattr(lib.optim.lr_scheduler, sched_name)(optimizer, **sched_args)
                    results.append(train_loop(lib, model, [to_tensor(a) for a in X],
                                              [to_tensor(a) for a in y], optimizer, scheduler))
                for step, (want, got) in enumerate(zip(*results)):
                    self.assertAlmostEqual(got[0], want[0], delta=1e-5 * max(1, abs(want[0])), msg=step)
                    self.assertAlmostEqual(got[1], want[1], delta=1e-12, msg=step)
                    for a, b in zip(want[2], got[2]):
                        np.testing.assert_allclose(b, a, rtol=RTOL, atol=ATOL, err_msg='step %d' % step)



def swa_loop(torch_like, model, loader, epochs=8, swa_start=3):
    """The loop of torch.optim.swa_utils' documentation, as it writes it; returns the
    averaged model and the rates of each epoch."""
    from_swa = torch_like.optim.swa_utils
    loss_fn = torch_like.nn.MSELoss()
    optimizer = torch_like.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    swa_model = from_swa.AveragedModel(model)
    scheduler = torch_like.optim.lr_scheduler.CosineAnnealingLR(optimizer, T_max=epochs)
    swa_scheduler = from_swa.SWALR(optimizer, swa_lr=0.02, anneal_epochs=2)
    rates = []
    for epoch in range(epochs):
        for input, target in loader:
            optimizer.zero_grad(set_to_none=True)
            loss_fn(model(input), target).backward()
            optimizer.step()
        if epoch > swa_start:
            swa_model.update_parameters(model)
            swa_scheduler.step()
        else:
            scheduler.step()
        rates.append(optimizer.param_groups[0]['lr'])
    from_swa.update_bn(loader, swa_model)
    return swa_model, rates


class SwaLoop(unittest.TestCase):
    def test_swa_loop_matches_torch(self):
        data = [(rand((6, 4), seed=30 + i), rand((6, 2), seed=40 + i)) for i in range(3)]
        torch.manual_seed(1)
        tm = torch.nn.Sequential(torch.nn.Linear(4, 5), torch.nn.BatchNorm1d(5), torch.nn.ReLU(),
                                 torch.nn.Linear(5, 2))
        gm = nn.Sequential(nn.Linear(4, 5), nn.BatchNorm1d(5), nn.ReLU(), nn.Linear(5, 2))
        gm.load_state_dict(dict(tm.state_dict()))
        tswa, trates = swa_loop(torch, tm, [(torch.from_numpy(x), torch.from_numpy(y)) for x, y in data])
        gswa, grates = swa_loop(gnn, gm, [(gnn.Tensor.from_numpy(x), gnn.Tensor.from_numpy(y)) for x, y in data])
        np.testing.assert_allclose(grates, trates, rtol=1e-12)
        self.assertEqual(int(gswa.n_averaged.item()), int(tswa.n_averaged.item()))
        want = tswa.state_dict()
        got = gswa.state_dict()
        self.assertEqual(list(got.keys()), list(want.keys()))
        for key in want:
            np.testing.assert_allclose(np.asarray(got[key].numpy(), dtype=np.float64),
                                       want[key].numpy().astype(np.float64), rtol=RTOL, atol=ATOL,
                                       err_msg=key)
        x = data[0][0]
        tswa.eval()
        gswa.eval()
        np.testing.assert_allclose(gswa(gnn.Tensor.from_numpy(x)).detach().numpy(),
                                   tswa(torch.from_numpy(x)).detach().numpy(), rtol=RTOL, atol=ATOL)


if __name__ == '__main__':
    main()
