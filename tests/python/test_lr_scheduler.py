#!/usr/bin/python3
"""The learning-rate schedulers against torch.optim.lr_scheduler and swa_utils.SWALR
(torch 1.13): the lr of every group after every one of 50 steps, for several option sets of
each scheduler, to 1e-12 relative (the arithmetic is PyTorch's, so most agree exactly);
OneCycleLR's momentum and betas; SequentialLR; SWALR alone and after CosineAnnealingLR as in
PyTorch's AveragedModel example; LambdaLR with Python functions; a state saved mid-run and
loaded into fresh objects continues identically; PyTorch's errors.

Where current PyTorch differs from 1.13, gnn follows current PyTorch and the test compares
with 1.13 patched to behave as current PyTorch (SequentialLR at a milestone) or checks the
difference (the initial step of a resumed scheduler)."""

import math
import warnings
from bisect import bisect_right

from torch.optim import lr_scheduler as tl
from torch.optim import swa_utils

from gnntest import Gnn, GLib, np, torch, ParityTest, main

STEPS = 50
RTOL = 1e-12

# torch's SequentialLR steps the next scheduler with the deprecated step (epoch)
warnings.filterwarnings('ignore', message='The epoch parameter')


class NoOpOptimizer(Gnn.Optimizer):
    """An optimizer that holds groups and options, and does nothing: schedulers only read
    and write the options."""
    __gtype_name__ = 'TestLRSchedulerNoOpOptimizer'

    def do_step(self):
        return True


def make_pair(lrs=(0.1, 0.05), momentum=None, betas=None):
    """A gnn optimizer and a torch one (SGD, or Adam when betas is given) with the same
    groups and options."""
    gopt = NoOpOptimizer()
    gopt.set_default('lr', GLib.Variant('d', lrs[0]))
    if momentum is not None:
        gopt.set_default('momentum', GLib.Variant('d', momentum))
    if betas is not None:
        gopt.set_default('betas', GLib.Variant('(dd)', betas))
    groups = []
    for lr in lrs:
        g = Gnn.ParamGroup.new([Gnn.Tensor.from_numpy(np.zeros(2, np.float32))])
        g.set_double('lr', lr)
        gopt.add_param_group(g)
        groups.append({'params': [torch.zeros(2, requires_grad=True)], 'lr': lr})
    if betas is not None:
        topt = torch.optim.Adam(groups, lr=lrs[0], betas=betas)
    else:
        topt = torch.optim.SGD(groups, lr=lrs[0], momentum=momentum or 0.0)
    return gopt, topt


def group_value(gopt, i, name):
    v = gopt.get_param_group(i).get_option(name)
    return None if v is None else v.unpack()


def copy_groups(src, dst):
    """The group options of src into dst (what loading the optimizer's state does)."""
    for i in range(src.get_n_param_groups()):
        a, b = src.get_param_group(i), dst.get_param_group(i)
        for name in a.list_options():
            b.set_option(name, a.get_option(name))


class CurrentSequentialLR(tl.SequentialLR):
    """torch 1.13's SequentialLR with current PyTorch's step: at a milestone the next
    scheduler is moved to epoch 0 with _update_lr (0), which does not count a step; 1.13's
    step (0) also incremented its _step_count."""

    def step(self):
        self.last_epoch += 1
        idx = bisect_right(self._milestones, self.last_epoch)
        scheduler = self._schedulers[idx]
        if idx > 0 and self._milestones[idx - 1] == self.last_epoch:
            scheduler._step_count -= 1
            with warnings.catch_warnings():
                warnings.simplefilter('ignore')
                scheduler.step(0)
        else:
            scheduler.step()
        self._last_lr = scheduler.get_last_lr()


class SchedulerTest(ParityTest):
    def assert_lrs(self, gopt, topt, what, momentum=False):
        for i, tg in enumerate(topt.param_groups):
            got = group_value(gopt, i, 'lr')
            want = tg['lr']
            self.assertTrue(math.isclose(got, want, rel_tol=RTOL, abs_tol=1e-300),
                            '%s: group %d lr %r, torch %r' % (what, i, got, want))
            if momentum and 'betas' in tg:
                got_b = group_value(gopt, i, 'betas')
                for k in range(2):
                    self.assertTrue(math.isclose(got_b[k], tg['betas'][k], rel_tol=RTOL),
                                    '%s: group %d betas %r, torch %r' % (what, i, got_b, tg['betas']))
            elif momentum:
                self.assertTrue(math.isclose(group_value(gopt, i, 'momentum'), tg['momentum'],
                                             rel_tol=RTOL),
                                '%s: group %d momentum %r, torch %r'
                                % (what, i, group_value(gopt, i, 'momentum'), tg['momentum']))

    def run_pair(self, make_gnn, make_torch, what, steps=STEPS, momentum=None, betas=None,
                 lrs=(0.1, 0.05), check_momentum=False):
        """Builds both schedulers on twin optimizers, then steps both; the lrs (and
        momenta) of every group must agree after construction and after every step."""
        gopt, topt = make_pair(lrs, momentum, betas)
        gs, ts = make_gnn(gopt), make_torch(topt)
        self.assert_lrs(gopt, topt, what + ' at construction', check_momentum)
        for step in range(steps):
            topt.step()
            ts.step()
            gs.step()
            self.assert_lrs(gopt, topt, '%s step %d' % (what, step + 1), check_momentum)
            self.assertEqual(len(gs.get_last_lr()), len(ts.get_last_lr()))
            for a, b in zip(gs.get_last_lr(), ts.get_last_lr()):
                self.assertTrue(math.isclose(a, b, rel_tol=RTOL), '%s: get_last_lr' % what)
            self.assertEqual(gs.last_epoch, ts.last_epoch, what)
        return gs, ts, gopt, topt


class Simple(SchedulerTest):
    def test_step_lr(self):
        for step_size, gamma in ((7, 0.5), (3, 0.1), (1, 0.9), (60, 0.5)):
            gs, ts, _, _ = self.run_pair(lambda o: Gnn.StepLR(o, step_size=step_size, gamma=gamma),
                                         lambda o: tl.StepLR(o, step_size=step_size, gamma=gamma),
                                         'StepLR(%d, %g)' % (step_size, gamma))
            self.assertEqual(gs.step_size, step_size)
            self.assertEqual(gs.gamma, gamma)
        # the default gamma
        self.run_pair(lambda o: Gnn.StepLR(o, 5), lambda o: tl.StepLR(o, 5), 'StepLR(5)')

    def test_multi_step_lr(self):
        for milestones, gamma in (([5, 10, 10, 30], 0.5), ([], 0.1), ([40, 3], 0.3), ([1], 2.0)):
            gs, ts, _, _ = self.run_pair(
                lambda o: Gnn.MultiStepLR(o, milestones=milestones, gamma=gamma),
                lambda o: tl.MultiStepLR(o, milestones=milestones, gamma=gamma),
                'MultiStepLR(%s, %g)' % (milestones, gamma))
            self.assertEqual(gs.milestones, ts.milestones)

    def test_exponential_lr(self):
        for gamma in (0.9, 0.5, 1.1, 0.99):
            self.run_pair(lambda o: Gnn.ExponentialLR(o, gamma=gamma),
                          lambda o: tl.ExponentialLR(o, gamma=gamma), 'ExponentialLR(%g)' % gamma)

    def test_cosine_annealing_lr(self):
        for t_max, eta_min in ((10, 0.0), (7, 0.001), (50, 0.01), (3, 0.0), (100, 0.002)):
            self.run_pair(lambda o: Gnn.CosineAnnealingLR(o, T_max=t_max, eta_min=eta_min),
                          lambda o: tl.CosineAnnealingLR(o, T_max=t_max, eta_min=eta_min),
                          'CosineAnnealingLR(%d, %g)' % (t_max, eta_min))

    def test_cosine_annealing_drifts_as_pytorch(self):
        # the chainable (recursive) form drifts from the closed form by rounding, and gnn's
        # drift is PyTorch's, bit for bit
        gopt, topt = make_pair((0.1,))
        gs = Gnn.CosineAnnealingLR(gopt, T_max=7, eta_min=0.001)
        ts = tl.CosineAnnealingLR(topt, T_max=7, eta_min=0.001)
        drifted = 0
        for step in range(1, 200):
            topt.step()
            ts.step()
            gs.step()
            got, want = group_value(gopt, 0, 'lr'), topt.param_groups[0]['lr']
            self.assertEqual(got, want, 'step %d' % step)
            closed = 0.001 + (0.1 - 0.001) * (1 + math.cos(math.pi * step / 7)) / 2
            drifted += got != closed
        self.assertGreater(drifted, 0)
        self.assertEqual(gs.T_max, 7)
        self.assertEqual(gs.eta_min, 0.001)

    def test_linear_lr(self):
        for start, end, total in ((0.5, 1.0, 4), (1.0 / 3, 1.0, 5), (1.0, 0.1, 10), (0.25, 0.75, 60),
                                  (0.1, 0.0, 20)):
            self.run_pair(lambda o: Gnn.LinearLR(o, start_factor=start, end_factor=end, total_iters=total),
                          lambda o: tl.LinearLR(o, start_factor=start, end_factor=end, total_iters=total),
                          'LinearLR(%g, %g, %d)' % (start, end, total))
        self.run_pair(lambda o: Gnn.LinearLR(o), lambda o: tl.LinearLR(o), 'LinearLR()')

    def test_lambda_lr(self):
        self.run_pair(lambda o: Gnn.LambdaLR(o, lr_lambda=lambda e: 0.95 ** e),
                      lambda o: tl.LambdaLR(o, lr_lambda=lambda e: 0.95 ** e), 'LambdaLR(0.95**e)')
        fns = [lambda e: e // 30 + 1, lambda e: 1.0 / (1 + e)]
        self.run_pair(lambda o: Gnn.LambdaLR(o, lr_lambda=fns),
                      lambda o: tl.LambdaLR(o, lr_lambda=fns), 'LambdaLR([f, g])')
        # a closure over state, and a callable object
        class Warm:
            def __init__(self, n):
                self.n = n

            def __call__(self, e):
                return min(1.0, (e + 1) / self.n)
        self.run_pair(lambda o: Gnn.LambdaLR(o, Warm(8)), lambda o: tl.LambdaLR(o, Warm(8)), 'LambdaLR(Warm)')

    def test_lambda_lr_python_errors(self):
        gopt, _ = make_pair()
        with self.assertRaises(ValueError) as cm:
            Gnn.LambdaLR(gopt, lr_lambda=[lambda e: 1.0])
        self.assertEqual(str(cm.exception), 'Expected 2 lr_lambdas, but got 1')

        def fails_at_3(e):
            if e == 3:
                raise ZeroDivisionError('at 3')
            return 0.5 ** e
        s = Gnn.LambdaLR(gopt, lr_lambda=fails_at_3)
        s.step()
        s.step()
        before = [group_value(gopt, i, 'lr') for i in range(2)]
        with self.assertRaises(ZeroDivisionError):
            s.step()
        # the failed step changed nothing
        self.assertEqual(s.last_epoch, 2)
        self.assertEqual([group_value(gopt, i, 'lr') for i in range(2)], before)
        self.assertEqual(s.get_last_lr(), before)
        with self.assertRaises(ZeroDivisionError):
            Gnn.LambdaLR(gopt, lr_lambda=lambda e: 1 / 0)


class OneCycle(SchedulerTest):
    def test_one_cycle_lr(self):
        cases = [
            dict(max_lr=0.1, total_steps=50),
            dict(max_lr=[0.1, 0.2], epochs=5, steps_per_epoch=10, anneal_strategy='linear'),
            dict(max_lr=0.3, total_steps=50, three_phase=True),
            dict(max_lr=[0.3, 0.01], total_steps=60, three_phase=True, anneal_strategy='linear',
                 pct_start=0.4, div_factor=10.0, final_div_factor=100.0),
            dict(max_lr=0.1, total_steps=50, cycle_momentum=False),
            dict(max_lr=0.1, total_steps=53, base_momentum=[0.8, 0.7], max_momentum=0.9, pct_start=0.25),
            dict(max_lr=1.0, total_steps=50, pct_start=0.0),
            dict(max_lr=1.0, total_steps=50, pct_start=1.0, anneal_strategy='linear'),
        ]
        for kw in cases:
            self.run_pair(lambda o: Gnn.OneCycleLR(o, **kw), lambda o: tl.OneCycleLR(o, **kw),
                          'OneCycleLR(%s) SGD' % kw, momentum=0.9,
                          check_momentum=kw.get('cycle_momentum', True), steps=49)
            self.run_pair(lambda o: Gnn.OneCycleLR(o, **kw), lambda o: tl.OneCycleLR(o, **kw),
                          'OneCycleLR(%s) Adam' % kw, betas=(0.9, 0.999),
                          check_momentum=kw.get('cycle_momentum', True), steps=49)

    def test_one_cycle_group_options(self):
        gopt, topt = make_pair(momentum=0.9)
        Gnn.OneCycleLR(gopt, max_lr=[0.5, 0.25], total_steps=10, div_factor=5.0, final_div_factor=2.0)
        tl.OneCycleLR(topt, max_lr=[0.5, 0.25], total_steps=10, div_factor=5.0, final_div_factor=2.0)
        for i, tg in enumerate(topt.param_groups):
            for name in ('initial_lr', 'max_lr', 'min_lr', 'max_momentum', 'base_momentum', 'momentum'):
                self.assertEqual(group_value(gopt, i, name), tg[name], name)

    def test_one_cycle_past_the_end(self):
        gopt, topt = make_pair()
        gs = Gnn.OneCycleLR(gopt, max_lr=0.1, total_steps=10, cycle_momentum=False)
        ts = tl.OneCycleLR(topt, max_lr=0.1, total_steps=10, cycle_momentum=False)
        for _ in range(10):
            gs.step()
            topt.step()
            ts.step()
        self.assert_lrs(gopt, topt, 'OneCycleLR at its last step')
        with self.assertRaises(ValueError):
            ts.step()
        with self.assertRaises(GLib.Error) as cm:
            gs.step()
        # current PyTorch's wording (1.13 printed one more step)
        self.assertEqual(cm.exception.message,
                         'Tried to step 11 times. The specified number of total steps is 10')
        self.assertEqual(gs.last_epoch, 10)

    def test_one_cycle_errors(self):
        gopt, _ = make_pair(momentum=0.9)

        def err(**kw):
            with self.assertRaises((GLib.Error, ValueError)) as cm:
                Gnn.OneCycleLR(gopt, **kw)
            e = cm.exception
            return e.message if isinstance(e, GLib.Error) else str(e)

        self.assertEqual(err(max_lr=0.1),
                         'You must define either total_steps OR (epochs AND steps_per_epoch)')
        self.assertEqual(err(max_lr=0.1, epochs=3),
                         'You must define either total_steps OR (epochs AND steps_per_epoch)')
        self.assertEqual(err(max_lr=0.1, total_steps=0), 'Expected positive integer total_steps, but got 0')
        self.assertEqual(err(max_lr=0.1, epochs=-1, steps_per_epoch=3),
                         'Expected positive integer epochs, but got -1')
        self.assertEqual(err(max_lr=0.1, epochs=2, steps_per_epoch=0),
                         'Expected positive integer steps_per_epoch, but got 0')
        self.assertEqual(err(max_lr=0.1, total_steps=10, pct_start=1.5),
                         'Expected float between 0 and 1 pct_start, but got 1.5')
        self.assertEqual(err(max_lr=0.1, total_steps=10, anneal_strategy='step'),
                         "anneal_strategy must be one of 'cos' or 'linear', instead got step")
        self.assertEqual(err(max_lr=[0.1, 0.2, 0.3], total_steps=10),
                         'max_lr must have the same length as optimizer.param_groups. max_lr has 3 '
                         'values, param_groups has 2.')
        self.assertEqual(err(max_lr=0.1, total_steps=10, base_momentum=[0.8]),
                         'base_momentum must have the same length as optimizer.param_groups. '
                         'base_momentum has 1 values, param_groups has 2.')
        self.assertEqual(err(max_lr=0.1, total_steps=10, max_momentum=[0.8, 0.9, 0.95]),
                         'max_momentum must have the same length as optimizer.param_groups. '
                         'max_momentum has 3 values, param_groups has 2.')
        plain, _ = make_pair()
        with self.assertRaises(GLib.Error) as cm:
            Gnn.OneCycleLR(plain, max_lr=0.1, total_steps=10)
        self.assertEqual(cm.exception.message,
                         'optimizer must support momentum or beta1 with `cycle_momentum` option enabled')
        # a failed construction leaves the groups alone
        self.assertIsNone(group_value(gopt, 0, 'max_lr'))
        self.assertEqual(group_value(gopt, 0, 'lr'), 0.1)


class Sequential(SchedulerTest):
    def test_sequential_lr(self):
        cases = [
            (lambda o: [tl.LinearLR(o, start_factor=0.1, total_iters=5), tl.ExponentialLR(o, gamma=0.9)],
             lambda o: [Gnn.LinearLR(o, start_factor=0.1, total_iters=5), Gnn.ExponentialLR(o, gamma=0.9)],
             [5]),
            (lambda o: [tl.StepLR(o, 3, 0.5), tl.CosineAnnealingLR(o, T_max=8, eta_min=0.001),
                        tl.ExponentialLR(o, 0.95)],
             lambda o: [Gnn.StepLR(o, 3, 0.5), Gnn.CosineAnnealingLR(o, T_max=8, eta_min=0.001),
                        Gnn.ExponentialLR(o, 0.95)],
             [10, 25]),
            (lambda o: [tl.ExponentialLR(o, 0.8), tl.MultiStepLR(o, [3, 6], 0.5),
                        tl.LinearLR(o, 0.5, 1.0, 4)],
             lambda o: [Gnn.ExponentialLR(o, 0.8), Gnn.MultiStepLR(o, [3, 6], 0.5),
                        Gnn.LinearLR(o, 0.5, 1.0, 4)],
             [7, 7]),
            (lambda o: [tl.LambdaLR(o, lambda e: 1.0 / (e + 1)), tl.StepLR(o, 5, 0.5)],
             lambda o: [Gnn.LambdaLR(o, lambda e: 1.0 / (e + 1)), Gnn.StepLR(o, 5, 0.5)],
             [12]),
            (lambda o: [tl.StepLR(o, 4, 0.5)], lambda o: [Gnn.StepLR(o, 4, 0.5)], []),
        ]
        for k, (tscheds, gscheds, milestones) in enumerate(cases):
            # these schedulers run the same in 1.13 and current PyTorch
            self.run_pair(lambda o: Gnn.SequentialLR(o, gscheds(o), milestones),
                          lambda o: tl.SequentialLR(o, tscheds(o), milestones),
                          'SequentialLR case %d' % k)

    def test_sequential_swalr_follows_current_pytorch(self):
        # at the milestone, 1.13's step (0) counted a step of SWALR and started its annealing
        # one step early; gnn follows current PyTorch (_update_lr (0))
        def gnn(o):
            return Gnn.SequentialLR(o, [Gnn.ExponentialLR(o, 0.9),
                                        Gnn.SWALR(o, swa_lr=0.01, anneal_epochs=5, anneal_strategy='linear')],
                                    [10])

        def current(o):
            return CurrentSequentialLR(o, [tl.ExponentialLR(o, 0.9),
                                           swa_utils.SWALR(o, swa_lr=0.01, anneal_epochs=5,
                                                           anneal_strategy='linear')], [10])

        def old(o):
            return tl.SequentialLR(o, [tl.ExponentialLR(o, 0.9),
                                       swa_utils.SWALR(o, swa_lr=0.01, anneal_epochs=5,
                                                       anneal_strategy='linear')], [10])
        self.run_pair(gnn, current, 'SequentialLR with SWALR')
        gopt, topt = make_pair()
        gs, ts = gnn(gopt), old(topt)
        differs = False
        for _ in range(20):
            topt.step()
            ts.step()
            gs.step()
            differs |= group_value(gopt, 0, 'lr') != topt.param_groups[0]['lr']
        self.assertTrue(differs)

    def test_sequential_errors(self):
        gopt, _ = make_pair()
        other, _ = make_pair()
        a, b = Gnn.StepLR(gopt, 2), Gnn.ExponentialLR(gopt, 0.5)
        with self.assertRaises(GLib.Error) as cm:
            Gnn.SequentialLR(gopt, [], [])
        self.assertEqual(cm.exception.message, 'SequentialLR expects at least one scheduler, but got no scheduler.')
        with self.assertRaises(GLib.Error) as cm:
            Gnn.SequentialLR(gopt, [a, b], [])
        self.assertEqual(cm.exception.message,
                         'Sequential Schedulers expects number of schedulers provided to be one more '
                         'than the number of milestone points, but got number of schedulers 2 and '
                         'the number of milestones to be equal to 0')
        with self.assertRaises(GLib.Error) as cm:
            Gnn.SequentialLR(other, [a, b], [3])
        self.assertIn('SequentialLR expects all schedulers to belong to the same optimizer, but got '
                      'scheduler StepLR at index 0 has', cm.exception.message)


class SWA(SchedulerTest):
    def test_swalr(self):
        cases = [
            dict(swa_lr=0.05, anneal_epochs=5, anneal_strategy='linear'),
            dict(swa_lr=[0.01, 0.02], anneal_epochs=10, anneal_strategy='cos'),
            dict(swa_lr=0.5, anneal_epochs=0),
            dict(swa_lr=0.5, anneal_epochs=1, anneal_strategy='linear'),
            dict(swa_lr=0.2),
        ]
        for kw in cases:
            gs, ts, gopt, topt = self.run_pair(lambda o: Gnn.SWALR(o, **kw),
                                               lambda o: swa_utils.SWALR(o, **kw), 'SWALR(%s)' % kw)
            for i, tg in enumerate(topt.param_groups):
                self.assertEqual(group_value(gopt, i, 'swa_lr'), tg['swa_lr'])

    def test_swalr_after_cosine(self):
        # PyTorch's AveragedModel example: a cosine schedule, then SWALR from swa_start on
        for swa_start in (5, 20, 35):
            for strategy in ('cos', 'linear'):
                gopt, topt = make_pair((0.1, 0.05))
                gsched = Gnn.CosineAnnealingLR(gopt, T_max=100)
                gswa = Gnn.SWALR(gopt, swa_lr=0.05, anneal_epochs=8, anneal_strategy=strategy)
                tsched = tl.CosineAnnealingLR(topt, T_max=100)
                tswa = swa_utils.SWALR(topt, swa_lr=0.05, anneal_epochs=8, anneal_strategy=strategy)
                for epoch in range(STEPS):
                    topt.step()
                    if epoch > swa_start:
                        tswa.step()
                        gswa.step()
                    else:
                        tsched.step()
                        gsched.step()
                    self.assert_lrs(gopt, topt, 'swa_start %d %s epoch %d' % (swa_start, strategy, epoch))
                self.assertEqual(gswa.get_last_lr(), tswa.get_last_lr())

    def test_swalr_errors(self):
        gopt, _ = make_pair()
        with self.assertRaises(GLib.Error) as cm:
            Gnn.SWALR(gopt, swa_lr=0.1, anneal_strategy='step')
        self.assertEqual(cm.exception.message,
                         "anneal_strategy must by one of 'cos' or 'linear', instead got step")
        with self.assertRaises(GLib.Error) as cm:
            Gnn.SWALR(gopt, swa_lr=0.1, anneal_epochs=-1)
        self.assertEqual(cm.exception.message, 'anneal_epochs must be equal or greater than 0, got -1')
        with self.assertRaises(ValueError):
            Gnn.SWALR(gopt, swa_lr=0.1, anneal_epochs=2.5)
        with self.assertRaises(ValueError) as cm:
            Gnn.SWALR(gopt, swa_lr=[0.1, 0.2, 0.3])
        self.assertEqual(str(cm.exception),
                         'swa_lr must have the same length as optimizer.param_groups. swa_lr has 3 '
                         'values, param_groups has 2.')


def from_properties(cls, **props):
    """A scheduler built as bindings and loaders build objects: GObject.new with the
    properties, then Gio.Initable.init (which performs the initial step)."""
    from gi.repository import GObject
    sched = GObject.new(cls, **props)
    assert sched.get_step_count() == 0
    assert sched.init(None)
    return sched


def doubles(v):
    return GLib.Variant('ad', [float(x) for x in (v if isinstance(v, (list, tuple)) else [v])])


def ints(v):
    return GLib.Variant('ax', [int(x) for x in v])


class FromProperties(SchedulerTest):
    """Every scheduler built from its properties alone runs as torch's (LambdaLR's function
    cannot be a property value from Python: PyGObject 3.42 does not make a GClosure of a
    Python function there, so LambdaLR takes it through its constructor)."""

    def test_schedulers(self):
        def sequential(o):
            from gi.repository import Gio
            scheds = Gio.ListStore.new(Gnn.LRScheduler)
            scheds.append(from_properties(Gnn.LinearLR, optimizer=o, start_factor=0.1, total_iters=5))
            scheds.append(from_properties(Gnn.ExponentialLR, optimizer=o, gamma=0.9))
            return from_properties(Gnn.SequentialLR, optimizer=o, schedulers=scheds, milestones=ints([5]))
        cases = [
            (lambda o: from_properties(Gnn.StepLR, optimizer=o, step_size=3, gamma=0.5),
             lambda o: tl.StepLR(o, 3, 0.5), 'StepLR', {}),
            (lambda o: from_properties(Gnn.MultiStepLR, optimizer=o, milestones=ints([6, 2, 6]), gamma=0.5),
             lambda o: tl.MultiStepLR(o, [6, 2, 6], 0.5), 'MultiStepLR', {}),
            (lambda o: from_properties(Gnn.ExponentialLR, optimizer=o, gamma=0.8),
             lambda o: tl.ExponentialLR(o, 0.8), 'ExponentialLR', {}),
            (lambda o: from_properties(Gnn.CosineAnnealingLR, optimizer=o, t_max=4, eta_min=0.001),
             lambda o: tl.CosineAnnealingLR(o, 4, 0.001), 'CosineAnnealingLR', {}),
            (lambda o: from_properties(Gnn.LinearLR, optimizer=o, start_factor=0.25, end_factor=0.75,
                                       total_iters=6),
             lambda o: tl.LinearLR(o, 0.25, 0.75, 6), 'LinearLR', {}),
            (lambda o: from_properties(Gnn.OneCycleLR, optimizer=o, max_lr=doubles([0.3, 0.01]), total_steps=30,
                                       three_phase=True, anneal_strategy='linear', pct_start=0.4,
                                       div_factor=10.0, final_div_factor=100.0,
                                       base_momentum=doubles([0.8, 0.7]), max_momentum=doubles(0.9)),
             lambda o: tl.OneCycleLR(o, [0.3, 0.01], total_steps=30, three_phase=True, anneal_strategy='linear',
                                     pct_start=0.4, div_factor=10.0, final_div_factor=100.0,
                                     base_momentum=[0.8, 0.7], max_momentum=0.9),
             'OneCycleLR', dict(momentum=0.9, check_momentum=True)),
            (lambda o: from_properties(Gnn.OneCycleLR, optimizer=o, max_lr=doubles(0.1), epochs=3,
                                       steps_per_epoch=10),
             lambda o: tl.OneCycleLR(o, 0.1, epochs=3, steps_per_epoch=10), 'OneCycleLR Adam',
             dict(betas=(0.9, 0.999), check_momentum=True)),
            (sequential, lambda o: tl.SequentialLR(o, [tl.LinearLR(o, start_factor=0.1, total_iters=5),
                                                       tl.ExponentialLR(o, gamma=0.9)], [5]),
             'SequentialLR', {}),
            (lambda o: from_properties(Gnn.SWALR, optimizer=o, swa_lr=doubles([0.01, 0.02]), anneal_epochs=4,
                                       anneal_strategy='linear'),
             lambda o: swa_utils.SWALR(o, [0.01, 0.02], anneal_epochs=4, anneal_strategy='linear'), 'SWALR', {}),
        ]
        for make_gnn, make_torch, what, kw in cases:
            gs, ts, _, _ = self.run_pair(make_gnn, make_torch, what + ' from properties', steps=25, **kw)
            self.assertEqual(gs.state_dict()['last_epoch'], ts.state_dict()['last_epoch'])

    def test_errors(self):
        gopt, _ = make_pair()
        from gi.repository import GObject
        sched = GObject.new(Gnn.StepLR, optimizer=gopt, step_size=0)
        with self.assertRaises(GLib.Error) as cm:
            sched.init(None)
        self.assertEqual(cm.exception.message, 'Expected positive integer step_size, but got 0')
        with self.assertRaises(GLib.Error) as cm:
            GObject.new(Gnn.SWALR, optimizer=gopt, swa_lr=doubles([0.1, 0.2, 0.3])).init(None)
        self.assertEqual(cm.exception.message,
                         'swa_lr must have the same length as optimizer.param_groups. swa_lr has 3 '
                         'values, param_groups has 2.')
        with self.assertRaises(GLib.Error) as cm:
            GObject.new(Gnn.OneCycleLR, optimizer=gopt, max_lr=doubles(0.1)).init(None)
        self.assertEqual(cm.exception.message,
                         'You must define either total_steps OR (epochs AND steps_per_epoch)')


def torch_state(ts):
    """torch's state_dict without what gnn does not keep: the optimizer, the functions,
    1.13's verbose flag and bound anneal_func, the get_lr-within-step flag."""
    skip = {'optimizer', 'verbose', 'anneal_func', 'lr_lambdas', '_get_lr_called_within_step'}
    out = {}
    for k, v in ts.state_dict().items():
        if k in skip:
            continue
        if k == '_schedulers':
            v = [{kk: vv for kk, vv in s.items() if kk not in skip} for s in v]
        out[k] = v
    return out


class State(SchedulerTest):
    def assert_same_state(self, got, want, what):
        for k, v in want.items():
            self.assertIn(k, got, '%s: key %s' % (what, k))
            if k == '_schedulers':
                for a, b in zip(got[k], v):
                    self.assert_same_state(a, b, what + ' ' + k)
            elif k == 'milestones':
                self.assertEqual(dict(got[k]), dict(v), what)
            else:
                self.assertEqual(got[k], v, '%s: %s' % (what, k))

    def check_resume(self, make_gnn, make_torch, what, momentum=None, betas=None, split=20,
                     anneal_key=None):
        gopt, topt = make_pair(momentum=momentum, betas=betas)
        gs, ts = make_gnn(gopt), make_torch(topt)
        for _ in range(split):
            topt.step()
            ts.step()
            gs.step()
        state = gs.state_dict()
        want = torch_state(ts)
        if anneal_key:
            # 1.13 pickles a bound method; gnn saves current PyTorch's string
            self.assertIn(anneal_key, state)
        self.assert_same_state(state, want, what)
        # a fresh optimizer and scheduler, then both states loaded, as a resumed run does
        gopt2, _ = make_pair(momentum=momentum, betas=betas)
        gs2 = make_gnn(gopt2)
        copy_groups(gopt, gopt2)
        gs2.load_state_dict(state)
        self.assertEqual(gs2.state_dict(), state, what)
        for step in range(STEPS - split):
            topt.step()
            ts.step()
            gs2.step()
            self.assert_lrs(gopt2, topt, '%s resumed step %d' % (what, split + step + 1),
                            momentum is not None or betas is not None)
        # the GLib.Variant of the C API loads too
        gs.load_state_dict(Gnn.LRScheduler.state_dict(gs2))
        self.assertEqual(gs.state_dict(), gs2.state_dict())

    def test_resume(self):
        self.check_resume(lambda o: Gnn.StepLR(o, 7, 0.5), lambda o: tl.StepLR(o, 7, 0.5), 'StepLR')
        self.check_resume(lambda o: Gnn.MultiStepLR(o, [5, 25, 25, 40], 0.5),
                          lambda o: tl.MultiStepLR(o, [5, 25, 25, 40], 0.5), 'MultiStepLR')
        self.check_resume(lambda o: Gnn.ExponentialLR(o, 0.9), lambda o: tl.ExponentialLR(o, 0.9),
                          'ExponentialLR')
        self.check_resume(lambda o: Gnn.CosineAnnealingLR(o, 10, 0.001),
                          lambda o: tl.CosineAnnealingLR(o, 10, 0.001), 'CosineAnnealingLR')
        self.check_resume(lambda o: Gnn.LinearLR(o, 0.25, 1.0, 30), lambda o: tl.LinearLR(o, 0.25, 1.0, 30),
                          'LinearLR')
        self.check_resume(lambda o: Gnn.LambdaLR(o, lambda e: 0.97 ** e),
                          lambda o: tl.LambdaLR(o, lambda e: 0.97 ** e), 'LambdaLR')
        self.check_resume(lambda o: Gnn.OneCycleLR(o, max_lr=[0.2, 0.1], total_steps=STEPS, three_phase=True),
                          lambda o: tl.OneCycleLR(o, max_lr=[0.2, 0.1], total_steps=STEPS, three_phase=True),
                          'OneCycleLR', momentum=0.9, anneal_key='_anneal_func_type')
        self.check_resume(lambda o: Gnn.OneCycleLR(o, max_lr=0.2, total_steps=STEPS, anneal_strategy='linear'),
                          lambda o: tl.OneCycleLR(o, max_lr=0.2, total_steps=STEPS, anneal_strategy='linear'),
                          'OneCycleLR Adam', betas=(0.95, 0.99), anneal_key='_anneal_func_type')
        self.check_resume(lambda o: Gnn.SWALR(o, swa_lr=0.01, anneal_epochs=30),
                          lambda o: swa_utils.SWALR(o, swa_lr=0.01, anneal_epochs=30), 'SWALR',
                          anneal_key='_anneal_strategy')
        self.check_resume(lambda o: Gnn.SequentialLR(o, [Gnn.LinearLR(o, 0.1, 1.0, 5),
                                                         Gnn.CosineAnnealingLR(o, 20)], [10]),
                          lambda o: CurrentSequentialLR(o, [tl.LinearLR(o, 0.1, 1.0, 5),
                                                            tl.CosineAnnealingLR(o, 20)], [10]),
                          'SequentialLR', split=25)

    def test_bad_state_changes_nothing(self):
        gopt, _ = make_pair()
        s = Gnn.StepLR(gopt, 3, 0.5)
        s.step()
        before = s.state_dict()
        with self.assertRaises(GLib.Error):
            s.load_state_dict(GLib.Variant('a{sv}', {'last_epoch': GLib.Variant('x', 9),
                                                     'gamma': GLib.Variant('s', 'half')}))
        with self.assertRaises(GLib.Error):
            s.load_state_dict({'base_lrs': [0.1, 0.2, 0.3]})
        self.assertEqual(s.state_dict(), before)
        # absent entries keep their value, as PyTorch's __dict__.update
        s.load_state_dict({'gamma': 0.25})
        self.assertEqual(s.gamma, 0.25)
        self.assertEqual(s.last_epoch, 1)

    def test_resume_with_last_epoch(self):
        gopt, _ = make_pair()
        with self.assertRaises(GLib.Error) as cm:
            Gnn.StepLR(gopt, 3, last_epoch=4)
        self.assertEqual(cm.exception.message,
                         "param 'initial_lr' is not specified in param_groups[0] when resuming an optimizer")
        # with initial_lr restored, the initial step of a resumed scheduler leaves the rates
        # alone (current PyTorch; 1.13 applied one more decay to ExponentialLR)
        for i in range(2):
            gopt.get_param_group(i).set_double('initial_lr', 1.0)
            gopt.get_param_group(i).set_double('lr', 0.25)
        s = Gnn.ExponentialLR(gopt, 0.5, last_epoch=2)
        self.assertEqual(s.last_epoch, 3)
        self.assertEqual(s.get_last_lr(), [0.25, 0.25])
        self.assertEqual(s.base_lrs, [1.0, 1.0])
        s.step()
        self.assertEqual(s.get_last_lr(), [0.125, 0.125])


class RealOptimizers(SchedulerTest):
    def test_with_gnn_sgd_and_adam(self):
        # the schedulers on gnn's own optimizers, stepping real parameters in between
        if not hasattr(Gnn, 'SGD') or not hasattr(Gnn, 'Adam'):
            self.skipTest('Gnn.SGD / Gnn.Adam are not built')
        x = np.linspace(-1, 1, 6).astype(np.float32)
        for kind in ('sgd', 'adam'):
            gp = Gnn.Tensor.from_numpy(x.copy())
            gp.set_requires_grad(True)
            tp = torch.tensor(x.copy(), requires_grad=True)
            if kind == 'sgd':
                gopt, topt = Gnn.SGD([gp], lr=0.1, momentum=0.9), torch.optim.SGD([tp], lr=0.1, momentum=0.9)
            else:
                gopt, topt = Gnn.Adam([gp], lr=1e-3), torch.optim.Adam([tp], lr=1e-3)
            gs = Gnn.OneCycleLR(gopt, max_lr=0.05, total_steps=30, three_phase=True)
            ts = tl.OneCycleLR(topt, max_lr=0.05, total_steps=30, three_phase=True)
            for step in range(29):
                loss_t = (tp * tp).sum()
                loss_t.backward()
                gp.set_grad(Gnn.Tensor.from_numpy(tp.grad.numpy().copy()))
                topt.step()
                gopt.step()
                topt.zero_grad()
                gopt.zero_grad()
                ts.step()
                gs.step()
                self.assert_lrs(gopt, topt, '%s step %d' % (kind, step), momentum=True)
            np.testing.assert_allclose(gp.numpy(), tp.detach().numpy(), rtol=1e-5, atol=1e-6)


class Subclass(SchedulerTest):
    def test_python_subclass(self):
        class Halving(Gnn.LRScheduler):
            __gtype_name__ = 'TestHalvingLR'

            def __init__(self, optimizer, factor, last_epoch=-1):
                self.factor = factor
                super().__init__(optimizer, last_epoch)

            def get_lr(self):
                return [base * self.factor ** self.last_epoch for base in self.base_lrs]

        class TorchHalving(tl._LRScheduler):
            def __init__(self, optimizer, factor, last_epoch=-1):
                self.factor = factor
                super().__init__(optimizer, last_epoch)

            def get_lr(self):
                return [base * self.factor ** self.last_epoch for base in self.base_lrs]

        gs, ts, _, _ = self.run_pair(lambda o: Halving(o, 0.8), lambda o: TorchHalving(o, 0.8), 'Halving')
        self.assertEqual(gs._step_count, STEPS + 1)
        # a subclass that fails raises its own exception
        class Broken(Gnn.LRScheduler):
            __gtype_name__ = 'TestBrokenLR'

            def do_get_lr(self):
                raise KeyError('nope')
        gopt, _ = make_pair()
        with self.assertRaises(KeyError):
            Broken(gopt)


if __name__ == '__main__':
    main()
