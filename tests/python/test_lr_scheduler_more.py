#!/usr/bin/python3
"""MultiplicativeLR, ConstantLR, PolynomialLR, CosineAnnealingWarmRestarts, CyclicLR,
ChainedScheduler and ReduceLROnPlateau against torch 1.13, side by side, written the torch way
(gnn.optim.lr_scheduler): the lr (and the momentum, for CyclicLR) of every group after every one
of 40 steps, for several argument sets of each, to 1e-12 relative; fractional epochs and restarts;
metric sequences with plateaus, as floats and as tensors; the state_dict's keys and values as
torch's, and a state saved mid-run and loaded into fresh objects goes on identically; torch's
errors and verbose lines.

Where gnn follows current PyTorch rather than 1.13 the test says so: CyclicLR cycles Adam's first
beta (1.13 refuses an optimizer without momentum), and ReduceLROnPlateau is an LRScheduler whose
get_last_lr() works before its first step."""

import contextlib
import io
import math
import warnings

from torch.optim import lr_scheduler as tl

import gnn
from gnn.optim import lr_scheduler as gl
from gnntest import GLib, torch, main
from test_lr_scheduler import CurrentSequentialLR, SchedulerTest, copy_groups, group_value, make_pair, torch_state

STEPS = 40
RTOL = 1e-12

warnings.filterwarnings('ignore', message='The epoch parameter')


def close(a, b):
    return math.isclose(a, b, rel_tol=RTOL, abs_tol=1e-300)


class Parity(SchedulerTest):
    def run_both(self, make_gnn, make_torch, what, steps=STEPS, momentum=None, betas=None, lrs=(0.1, 0.05),
                 step=None, check_momentum=False):
        """Both schedulers on twin optimizers; step(scheduler, i) does step i (scheduler.step()
        by default); the lrs (and momenta) of every group and get_last_lr() must agree after
        construction and after every step."""
        gopt, topt = make_pair(lrs, momentum, betas)
        gs, ts = make_gnn(gopt), make_torch(topt)
        step = step or (lambda s, i: s.step())
        self.assert_lrs(gopt, topt, what + ' at construction', check_momentum)
        for i in range(steps):
            topt.step()
            step(ts, i)
            step(gs, i)
            self.assert_lrs(gopt, topt, '%s step %d' % (what, i + 1), check_momentum)
            # 1.13's ReduceLROnPlateau has only the attribute
            got, want = gs.get_last_lr(), ts.get_last_lr() if hasattr(ts, 'get_last_lr') else ts._last_lr
            self.assertEqual(len(got), len(want))
            self.assertTrue(all(close(a, b) for a, b in zip(got, want)), '%s: get_last_lr %r %r' % (what, got, want))
            if hasattr(ts, 'last_epoch'):
                self.assertEqual(gs.last_epoch, ts.last_epoch, what)
        return gs, ts, gopt, topt

    def test_multiplicative_lr(self):
        class Decay:
            def __init__(self, f):
                self.f = f

            def __call__(self, e):
                return self.f ** (1 + e % 3)

        for args, name in (((lambda e: 0.95,), 'one function'),
                           (([lambda e: 0.9, lambda e: 1.0 - 0.01 * e],), 'one per group'),
                           ((Decay(0.97),), 'a callable object')):
            self.run_both(lambda o: gl.MultiplicativeLR(o, *args), lambda o: tl.MultiplicativeLR(o, *args),
                          'MultiplicativeLR ' + name)
        gs, ts, _, _ = self.run_both(lambda o: gl.MultiplicativeLR(o, lambda e: 0.9),
                                     lambda o: tl.MultiplicativeLR(o, lambda e: 0.9), 'MultiplicativeLR', steps=3)
        self.assertEqual(len(gs.lr_lambdas), 2)

    def test_constant_lr(self):
        for args in ((), (0.5,), (0.25, 10), (0.5, 0), (1.0, 3)):
            self.run_both(lambda o: gl.ConstantLR(o, *args), lambda o: tl.ConstantLR(o, *args), 'ConstantLR %r' % (args,))
        gs = self.run_both(lambda o: gl.ConstantLR(o, total_iters=7, factor=0.1),
                           lambda o: tl.ConstantLR(o, total_iters=7, factor=0.1), 'ConstantLR keywords')[0]
        self.assertEqual((gs.factor, gs.total_iters), (0.1, 7))

    def test_polynomial_lr(self):
        for args in ((), (10, 1.0), (8, 2.0), (60, 0.5), (1, 3.0)):
            self.run_both(lambda o: gl.PolynomialLR(o, *args), lambda o: tl.PolynomialLR(o, *args),
                          'PolynomialLR %r' % (args,), lrs=(0.3, 0.1, 0.02))

    def test_cosine_annealing_warm_restarts(self):
        for args in ((3,), (2, 2, 0.001), (5, 3, 0.01), (1,), (4, 1, 0.05)):
            gs, ts, _, _ = self.run_both(lambda o: gl.CosineAnnealingWarmRestarts(o, *args),
                                         lambda o: tl.CosineAnnealingWarmRestarts(o, *args),
                                         'CosineAnnealingWarmRestarts %r' % (args,))
            self.assertEqual((gs.T_i, gs.T_cur, gs.T_0, gs.T_mult), (ts.T_i, ts.T_cur, ts.T_0, ts.T_mult))
            self.assertEqual(gs._step_count, ts._step_count)

    def test_warm_restarts_fractional_epochs(self):
        # torch's documented loop: step(epoch + i / iters) after each of 4 batches
        iters = 4
        for args in ((3,), (2, 2, 0.001), (3, 3)):
            self.run_both(lambda o: gl.CosineAnnealingWarmRestarts(o, *args),
                          lambda o: tl.CosineAnnealingWarmRestarts(o, *args),
                          'CosineAnnealingWarmRestarts %r by batch' % (args,),
                          step=lambda s, i: s.step(i // iters + (i % iters) / iters), steps=48)
        # interleaved: step() 20 times, step(26), then step() is step(27)
        epochs = [None] * 20 + [26, None, None, 3.5, None, 100.25, None]
        gs, ts, _, _ = self.run_both(lambda o: gl.CosineAnnealingWarmRestarts(o, 4, 2, 0.01),
                                     lambda o: tl.CosineAnnealingWarmRestarts(o, 4, 2, 0.01),
                                     'CosineAnnealingWarmRestarts interleaved',
                                     step=lambda s, i: s.step(epochs[i]), steps=len(epochs))
        self.assertEqual((gs.T_i, gs.T_cur), (ts.T_i, ts.T_cur))

    def test_cyclic_lr(self):
        cases = [
            dict(base_lr=0.01, max_lr=0.1, step_size_up=5),
            dict(base_lr=[0.01, 0.001], max_lr=[0.1, 0.05], step_size_up=4, step_size_down=7, mode='triangular2'),
            dict(base_lr=0.001, max_lr=0.1, step_size_up=3, mode='exp_range', gamma=0.9),
            dict(base_lr=0.01, max_lr=0.1, step_size_up=2, scale_fn=lambda x: 1 / (1 + x), scale_mode='cycle'),
            dict(base_lr=0.01, max_lr=0.1, step_size_up=3, scale_fn=lambda x: 0.97 ** x, scale_mode='iterations'),
            dict(base_lr=0.01, max_lr=0.1, step_size_up=6, step_size_down=2, base_momentum=[0.7, 0.8],
                 max_momentum=0.95),
        ]
        for kw in cases:
            self.run_both(lambda o: gl.CyclicLR(o, **kw), lambda o: tl.CyclicLR(o, **kw), 'CyclicLR %r' % (kw,),
                          momentum=0.9, check_momentum=True)
            self.run_both(lambda o: gl.CyclicLR(o, cycle_momentum=False, **kw),
                          lambda o: tl.CyclicLR(o, cycle_momentum=False, **kw),
                          'CyclicLR without momentum %r' % (kw,))
        # the new schedule starts at base_lr (and the initial step sets max_momentum)
        gs, _, gopt, _ = self.run_both(lambda o: gl.CyclicLR(o, 0.02, 0.2, 10), lambda o: tl.CyclicLR(o, 0.02, 0.2, 10),
                                       'CyclicLR', momentum=0.9, check_momentum=True, steps=0)
        self.assertEqual(group_value(gopt, 1, 'lr'), 0.02)
        self.assertEqual(group_value(gopt, 1, 'momentum'), 0.9)
        self.assertEqual(gs.base_lrs, [0.02, 0.02])
        self.assertEqual(gs.max_lrs, [0.2, 0.2])

    def test_cyclic_lr_on_adam_betas(self):
        # current PyTorch cycles Adam's first beta as 1.13 cycles SGD's momentum: the same numbers
        kw = dict(base_lr=0.01, max_lr=0.1, step_size_up=3, mode='triangular2', base_momentum=0.85,
                  max_momentum=0.95)
        gopt, _ = make_pair(betas=(0.9, 0.999))
        _, sgd = make_pair(momentum=0.9)
        gs, ts = gl.CyclicLR(gopt, **kw), tl.CyclicLR(sgd, **kw)
        for i in range(STEPS):
            sgd.step()
            ts.step()
            gs.step()
            for g, tg in enumerate(sgd.param_groups):
                self.assertTrue(close(group_value(gopt, g, 'lr'), tg['lr']))
                b1, b2 = group_value(gopt, g, 'betas')
                self.assertTrue(close(b1, tg['momentum']), 'step %d: beta1 %r, momentum %r' % (i, b1, tg['momentum']))
                self.assertEqual(b2, 0.999)
        self.assertTrue(gs.state_dict()['use_beta1'])

    def test_chained_scheduler(self):
        cases = [
            ('ConstantLR + ExponentialLR', lambda m, o: [m.ConstantLR(o, 0.1, 2), m.ExponentialLR(o, 0.9)]),
            ('LinearLR + CosineAnnealingLR', lambda m, o: [m.LinearLR(o, 0.2, 1.0, 5), m.CosineAnnealingLR(o, 7)]),
            ('MultiplicativeLR + StepLR + PolynomialLR',
             lambda m, o: [m.MultiplicativeLR(o, lambda e: 0.99), m.StepLR(o, 4, 0.5), m.PolynomialLR(o, 30, 0.5)]),
        ]
        for what, make in cases:
            gs, ts, _, _ = self.run_both(lambda o: gl.ChainedScheduler(make(gl, o)),
                                         lambda o: tl.ChainedScheduler(make(tl, o)), 'ChainedScheduler ' + what)
            self.assertEqual([s.last_epoch for s in gs._schedulers], [s.last_epoch for s in ts._schedulers])
            self.assertIs(gs.optimizer, gs._schedulers[0].optimizer)

    def test_in_sequential_lr(self):
        # at a milestone the next scheduler restarts at epoch 0 (current PyTorch's SequentialLR,
        # as test_lr_scheduler compares it): from its closed form, or its first period
        def warm_restarts(m, o):
            # stepped before: the milestone must take it back to its first period
            s = m.CosineAnnealingWarmRestarts(o, 3, 2, 0.001)
            for _ in range(4):
                s.step()
            return s

        for what, make in (('LinearLR, CosineAnnealingWarmRestarts',
                            lambda m, o: [m.LinearLR(o, 0.1, 1.0, 4), warm_restarts(m, o)]),
                           ('ConstantLR, PolynomialLR', lambda m, o: [m.ConstantLR(o, 0.5, 3), m.PolynomialLR(o, 20, 2.0)]),
                           ('PolynomialLR, CyclicLR', lambda m, o: [m.PolynomialLR(o, 4), m.CyclicLR(o, 0.01, 0.1, 3)])):
            self.run_both(lambda o: gl.SequentialLR(o, make(gl, o), [6]),
                          lambda o: CurrentSequentialLR(o, make(tl, o), [6]), 'SequentialLR ' + what,
                          momentum=0.9, check_momentum=True)

    def plateau_run(self, kw, metrics, as_tensor=False, lrs=(0.1, 0.05)):
        def step(s, i):
            m = metrics[i]
            if as_tensor:
                m = torch.tensor(m) if isinstance(s, tl.ReduceLROnPlateau) else gnn.tensor(m)
            s.step(m)
        gs, ts, _, _ = self.run_both(lambda o: gl.ReduceLROnPlateau(o, **kw), lambda o: tl.ReduceLROnPlateau(o, **kw),
                                     'ReduceLROnPlateau %r' % (kw,), steps=len(metrics), step=step, lrs=lrs)
        for name in ('best', 'num_bad_epochs', 'cooldown_counter', 'in_cooldown', 'mode_worse', 'min_lrs'):
            self.assertEqual(getattr(gs, name), getattr(ts, name), name)
        return gs, ts

    def test_reduce_lr_on_plateau(self):
        # a loss that falls, stalls, falls again, stalls; and one that climbs (mode max)
        falling = [1.0 / (1 + i // 6) + 0.001 * (i % 6 == 3) for i in range(STEPS)]
        rising = [min(i, 10) + 0.5 * (i > 25) for i in range(STEPS)]
        noisy = [1.0, 0.8, 0.81, 0.79, 0.8, 0.8, 0.78, 0.7, 0.7, 0.7, 0.7, 0.71, 0.69] * 3
        cases = [
            (dict(), falling),
            (dict(patience=2), falling),
            (dict(patience=1, cooldown=2, factor=0.5), noisy),
            (dict(mode='max', patience=3, threshold=0.5, threshold_mode='abs'), rising),
            (dict(patience=0, min_lr=[0.02, 0.01], factor=0.5), noisy),
            (dict(patience=0, min_lr=0.03, eps=0.01), noisy),
            (dict(mode='max', threshold=0.1, patience=1), [1.0] * STEPS),
            (dict(threshold_mode='abs', threshold=0.05, patience=1), noisy),
        ]
        for kw, metrics in cases:
            self.plateau_run(kw, metrics)
        self.plateau_run(dict(patience=1, cooldown=1), noisy, as_tensor=True)
        self.plateau_run(dict(patience=1), [float('nan'), 1.0, 1.0, float('nan'), 0.5] * 4)

    def test_reduce_lr_on_plateau_is_an_lr_scheduler(self):
        gopt, _ = make_pair()
        s = gl.ReduceLROnPlateau(gopt)
        self.assertIsInstance(s, gl.LRScheduler)
        self.assertEqual(s.get_last_lr(), [0.1, 0.05])
        self.assertEqual(s.last_epoch, 0)
        self.assertIsNone(group_value(gopt, 0, 'initial_lr'))
        self.assertTrue(s.is_better(0.5, 1.0))
        self.assertFalse(s.is_better(0.99995, 1.0))
        with self.assertRaises(TypeError):
            s.step()
        # the deprecated epoch argument sets last_epoch, as torch's
        s.step(1.0, epoch=7)
        self.assertEqual(s.last_epoch, 7)


class State(SchedulerTest):
    SKIP = {'_scale_fn_ref', '_scale_fn_custom'}   # torch keeps functions there; gnn saves none

    def assert_same_state(self, got, want, what):
        want = {k: v for k, v in want.items() if k not in self.SKIP}
        self.assertEqual(set(got) - {'use_beta1'}, set(want), what)
        for k, v in want.items():
            if k == '_schedulers':
                for a, b in zip(got[k], v):
                    self.assert_same_state(a, {kk: vv for kk, vv in b.items() if kk not in self.SKIP}, what + ' ' + k)
            else:
                self.assertEqual(got[k], v, '%s: %s' % (what, k))

    def check_resume(self, make_gnn, make_torch, what, step=None, momentum=None, split=17):
        step = step or (lambda s, i: s.step())
        gopt, topt = make_pair(momentum=momentum)
        gs, ts = make_gnn(gopt), make_torch(topt)
        for i in range(split):
            topt.step()
            step(ts, i)
            step(gs, i)
        state = gs.state_dict()
        self.assert_same_state(state, torch_state(ts), what)
        # a fresh optimizer and scheduler, then both states loaded, as a resumed run does
        gopt2, _ = make_pair(momentum=momentum)
        gs2 = make_gnn(gopt2)
        copy_groups(gopt, gopt2)
        gs2.load_state_dict(state)
        self.assertEqual(gs2.state_dict(), state, what)
        for i in range(split, STEPS):
            topt.step()
            step(ts, i)
            step(gs2, i)
            self.assert_lrs(gopt2, topt, '%s resumed step %d' % (what, i + 1), momentum is not None)
        # the GLib.Variant of the C API loads too
        gs.load_state_dict(gnn.optim.lr_scheduler.LRScheduler.state_dict(gs2))
        self.assertEqual(gs.state_dict(), gs2.state_dict())

    def test_resume(self):
        self.check_resume(lambda o: gl.MultiplicativeLR(o, lambda e: 0.95),
                          lambda o: tl.MultiplicativeLR(o, lambda e: 0.95), 'MultiplicativeLR')
        self.check_resume(lambda o: gl.ConstantLR(o, 0.5, 25), lambda o: tl.ConstantLR(o, 0.5, 25), 'ConstantLR')
        self.check_resume(lambda o: gl.PolynomialLR(o, 30, 2.0), lambda o: tl.PolynomialLR(o, 30, 2.0), 'PolynomialLR')
        self.check_resume(lambda o: gl.CosineAnnealingWarmRestarts(o, 3, 2, 0.001),
                          lambda o: tl.CosineAnnealingWarmRestarts(o, 3, 2, 0.001), 'CosineAnnealingWarmRestarts')
        self.check_resume(lambda o: gl.CosineAnnealingWarmRestarts(o, 3, 2),
                          lambda o: tl.CosineAnnealingWarmRestarts(o, 3, 2), 'CosineAnnealingWarmRestarts by batch',
                          step=lambda s, i: s.step(i / 3))
        self.check_resume(lambda o: gl.CyclicLR(o, 0.01, 0.1, 4, 3, 'triangular2'),
                          lambda o: tl.CyclicLR(o, 0.01, 0.1, 4, 3, 'triangular2'), 'CyclicLR', momentum=0.9)
        self.check_resume(lambda o: gl.CyclicLR(o, 0.01, 0.1, 4, mode='exp_range', gamma=0.95, cycle_momentum=False),
                          lambda o: tl.CyclicLR(o, 0.01, 0.1, 4, mode='exp_range', gamma=0.95, cycle_momentum=False),
                          'CyclicLR exp_range')
        self.check_resume(lambda o: gl.ChainedScheduler([gl.ConstantLR(o, 0.1, 20), gl.ExponentialLR(o, 0.9)]),
                          lambda o: tl.ChainedScheduler([tl.ConstantLR(o, 0.1, 20), tl.ExponentialLR(o, 0.9)]),
                          'ChainedScheduler')
        metrics = [1.0, 0.9, 0.9, 0.9, 0.95, 0.8, 0.8, 0.8] * 5
        self.check_resume(lambda o: gl.ReduceLROnPlateau(o, patience=1, cooldown=1, factor=0.5),
                          lambda o: tl.ReduceLROnPlateau(o, patience=1, cooldown=1, factor=0.5), 'ReduceLROnPlateau',
                          step=lambda s, i: s.step(metrics[i]))

    def test_plateau_state_before_a_step(self):
        gopt, topt = make_pair()
        self.assertEqual(set(gl.ReduceLROnPlateau(gopt).state_dict()), set(torch_state(tl.ReduceLROnPlateau(topt))))

    def test_plateau_load_checks_modes(self):
        gopt, _ = make_pair()
        s = gl.ReduceLROnPlateau(gopt)
        before = s.state_dict()
        with self.assertRaises(GLib.Error) as cm:
            s.load_state_dict({'mode': 'avg', 'best': 0.5})
        self.assertEqual(cm.exception.message, 'mode avg is unknown!')
        self.assertEqual(s.state_dict(), before)
        # mode_worse follows the loaded mode, as torch's _init_is_better sets it
        s.load_state_dict({'mode': 'max'})
        self.assertEqual(s.state_dict()['mode_worse'], float('-inf'))


class Errors(SchedulerTest):
    def same_error(self, make_gnn, make_torch, exc=ValueError):
        gopt, topt = make_pair(momentum=0.9)
        with self.assertRaises(exc) as want:
            make_torch(topt)
        with self.assertRaises(exc) as got:
            make_gnn(gopt)
        e = got.exception
        self.assertEqual(e.message if isinstance(e, GLib.Error) else str(e), str(want.exception))
        # a failed construction leaves the groups alone
        self.assertEqual([group_value(gopt, i, 'lr') for i in range(2)], [0.1, 0.05])
        self.assertEqual([group_value(gopt, i, 'momentum') for i in range(2)], [0.9, 0.9])

    def test_torch_messages(self):
        cases = [
            ('ConstantLR', dict(factor=1.5)),
            ('ConstantLR', dict(factor=-0.1)),
            ('CosineAnnealingWarmRestarts', dict(T_0=0)),
            ('CosineAnnealingWarmRestarts', dict(T_0=2.5)),
            ('CosineAnnealingWarmRestarts', dict(T_0=3, T_mult=0)),
            ('CosineAnnealingWarmRestarts', dict(T_0=3, T_mult=1.5)),
            ('CyclicLR', dict(base_lr=0.01, max_lr=0.1, mode='cyclic')),
            ('CyclicLR', dict(base_lr=[0.01] * 3, max_lr=0.1)),
            ('CyclicLR', dict(base_lr=0.01, max_lr=[0.1])),
            ('CyclicLR', dict(base_lr=0.01, max_lr=0.1, base_momentum=[0.8] * 3)),
            ('ReduceLROnPlateau', dict(factor=1.0)),
            ('ReduceLROnPlateau', dict(mode='avg')),
            ('ReduceLROnPlateau', dict(threshold_mode='rel2')),
            ('ReduceLROnPlateau', dict(min_lr=[0.1, 0.2, 0.3])),
            ('MultiplicativeLR', dict(lr_lambda=[lambda e: 1.0] * 3)),
        ]
        for name, kw in cases:
            with self.subTest(name, **{k: repr(v) for k, v in kw.items()}):
                self.same_error(lambda o: getattr(gl, name)(o, **kw), lambda o: getattr(tl, name)(o, **kw))

    def test_chained_optimizers_differ(self):
        a, _ = make_pair()
        b, _ = make_pair()
        _, ta = make_pair()
        _, tb = make_pair()
        with self.assertRaises(ValueError) as want:
            tl.ChainedScheduler([tl.ExponentialLR(ta, 0.9), tl.StepLR(ta, 2), tl.ExponentialLR(tb, 0.9)])
        with self.assertRaises(ValueError) as got:
            gl.ChainedScheduler([gl.ExponentialLR(a, 0.9), gl.StepLR(a, 2), gl.ExponentialLR(b, 0.9)])
        self.assertEqual(got.exception.message, str(want.exception))
        with self.assertRaises(ValueError):
            gl.ChainedScheduler([])

    def test_negative_epoch(self):
        gopt, topt = make_pair()
        gs, ts = gl.CosineAnnealingWarmRestarts(gopt, 3), tl.CosineAnnealingWarmRestarts(topt, 3)
        gs.step(4.5)
        with self.assertRaises(ValueError) as want:
            ts.step(-1.0)
        with self.assertRaises(ValueError) as got:
            gs.step(-1.0)
        self.assertEqual(got.exception.message, str(want.exception))
        self.assertEqual((gs.last_epoch, gs.T_cur), (4, 1.5))

    def test_cycle_momentum_needs_momentum(self):
        gopt, _ = make_pair()
        with self.assertRaises(ValueError) as cm:
            gl.CyclicLR(gopt, 0.01, 0.1)
        # current PyTorch's message: gnn cycles Adam's beta1 too
        self.assertEqual(cm.exception.message,
                         'optimizer must support momentum or beta1 with `cycle_momentum` option enabled')
        self.assertEqual(group_value(gopt, 0, 'lr'), 0.1)

    def test_python_errors_change_nothing(self):
        def fails_at(n):
            def fn(x):
                if x >= n:
                    raise ArithmeticError('no %d' % x)
                return 0.9
            return fn
        for make in (lambda o: gl.MultiplicativeLR(o, fails_at(3)),
                     lambda o: gl.CyclicLR(o, 0.01, 0.1, 2, scale_fn=fails_at(3), scale_mode='iterations')):
            gopt, _ = make_pair(momentum=0.9)
            s = make(gopt)
            s.step()
            s.step()
            state = s.state_dict()
            lrs = [group_value(gopt, i, 'lr') for i in range(2)]
            moms = [group_value(gopt, i, 'momentum') for i in range(2)]
            with self.assertRaises(ArithmeticError):
                s.step()
            self.assertEqual(s.state_dict(), state)
            self.assertEqual([group_value(gopt, i, 'lr') for i in range(2)], lrs)
            self.assertEqual([group_value(gopt, i, 'momentum') for i in range(2)], moms)


class Verbose(SchedulerTest):
    def printed(self, make, steps):
        out = io.StringIO()
        with contextlib.redirect_stdout(out), warnings.catch_warnings():
            warnings.simplefilter('ignore')
            s = make()
            for step in steps:
                step(s)
        return out.getvalue()

    def test_verbose_as_torch(self):
        metrics = [1.0, 1.0, 1.0, 0.5, 0.5, 0.5]
        cases = [
            (lambda m, o: m.CosineAnnealingWarmRestarts(o, 3, verbose=True),
             [lambda s: s.step(), lambda s: s.step(2.5), lambda s: s.step()]),
            (lambda m, o: m.ReduceLROnPlateau(o, patience=1, verbose=True),
             [lambda s, m=m: s.step(m) for m in metrics]),
            (lambda m, o: m.ConstantLR(o, 0.5, 2, verbose=True), [lambda s: s.step()] * 3),
            (lambda m, o: m.CyclicLR(o, 0.01, 0.1, 2, cycle_momentum=False, verbose=True), [lambda s: s.step()] * 3),
        ]
        for make, steps in cases:
            gopt, topt = make_pair()
            want = self.printed(lambda: make(tl, topt), steps)
            self.assertTrue(want)
            self.assertEqual(self.printed(lambda: make(gl, gopt), steps), want)


if __name__ == '__main__':
    main()
