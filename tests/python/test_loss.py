#!/usr/bin/python3
"""The losses against torch.nn.functional and torch.nn: outputs and the gradients of input
and target agree for every option, float32 and float64, reduction none/mean/sum, batch 1
and odd sizes, 3-D input for NLL/CE; the modules print as torch's."""

import torch.nn.functional as F

from gnntest import Gnn, GLib, np, torch, to_gnn, rand, Input, ParityTest, main

RED = {'none': Gnn.Reduction.NONE, 'mean': Gnn.Reduction.MEAN, 'sum': Gnn.Reduction.SUM,
       'batchmean': Gnn.Reduction.BATCHMEAN}
DTYPES = (np.float32, np.float64)
SHAPES = ((1, 1), (1, 5), (3, 4), (7, 3, 2))


def const(a):
    return Input(a, requires_grad=False)


class Elementwise(ParityTest):
    def each(self):
        for dtype in DTYPES:
            for shape in SHAPES:
                for red in ('none', 'mean', 'sum'):
                    yield dtype, shape, red

    def test_mse_l1(self):
        for k, (dt, sh, red) in enumerate(self.each()):
            x, t = rand(sh, dt, seed=k), rand(sh, dt, seed=k + 50)
            self.check_op(lambda a, b: Gnn.mse_loss(a, b, RED[red]),
                          lambda a, b: F.mse_loss(a, b, reduction=red), [x, t], name='mse')
            self.check_op(lambda a, b: Gnn.l1_loss(a, b, RED[red]),
                          lambda a, b: F.l1_loss(a, b, reduction=red), [x, t], name='l1')

    def test_smooth_huber(self):
        for k, (dt, sh, red) in enumerate(self.each()):
            x, t = rand(sh, dt, seed=k), rand(sh, dt, seed=k + 50)
            for beta in (1.0, 0.5, 2.0, 0.0):
                self.check_op(lambda a, b: Gnn.smooth_l1_loss(a, b, RED[red], beta),
                              lambda a, b: F.smooth_l1_loss(a, b, reduction=red, beta=beta),
                              [x, t], name='smooth_l1 beta=%g' % beta)
            for delta in (1.0, 0.3, 2.5):
                self.check_op(lambda a, b: Gnn.huber_loss(a, b, RED[red], delta),
                              lambda a, b: F.huber_loss(a, b, reduction=red, delta=delta),
                              [x, t], name='huber delta=%g' % delta)

    def test_bce(self):
        for k, (dt, sh, red) in enumerate(self.each()):
            p = rand(sh, dt, seed=k, low=0.05, high=0.95)
            t = rand(sh, dt, seed=k + 50, low=0.0, high=1.0)
            w = rand(sh[-1:], dt, seed=k + 9, low=0.1, high=2.0)
            self.check_op(lambda a, b: Gnn.binary_cross_entropy(a, b, None, RED[red]),
                          lambda a, b: F.binary_cross_entropy(a, b, reduction=red), [p, const(t)],
                          name='bce')
            self.check_op(lambda a, b, c: Gnn.binary_cross_entropy(a, b, c, RED[red]),
                          lambda a, b, c: F.binary_cross_entropy(a, b, weight=c, reduction=red),
                          [p, const(t), const(w)], name='bce weight')

    def test_bce_with_logits(self):
        for k, (dt, sh, red) in enumerate(self.each()):
            x = rand(sh, dt, seed=k, low=-30, high=30)
            t = rand(sh, dt, seed=k + 50, low=0.0, high=1.0)
            w = rand(sh[-1:], dt, seed=k + 9, low=0.1, high=2.0)
            pw = rand(sh[-1:], dt, seed=k + 19, low=0.1, high=3.0)
            self.check_op(lambda a, b: Gnn.binary_cross_entropy_with_logits(a, b, None, None, RED[red]),
                          lambda a, b: F.binary_cross_entropy_with_logits(a, b, reduction=red),
                          [x, t], name='bce_logits')
            self.check_op(lambda a, b, c, d: Gnn.binary_cross_entropy_with_logits(a, b, c, d, RED[red]),
                          lambda a, b, c, d: F.binary_cross_entropy_with_logits(
                              a, b, weight=c, pos_weight=d, reduction=red),
                          [x, t, const(w), const(pw)], name='bce_logits weights')

    def test_kl_div(self):
        for k, (dt, sh, red) in enumerate(self.each()):
            for r in (red, 'batchmean') if red == 'sum' else (red,):
                x = rand(sh, dt, seed=k, low=-3, high=0)
                t = rand(sh, dt, seed=k + 50, low=0.01, high=1.0)
                t[..., 0] = 0  # xlogy(0, 0) = 0
                lt = rand(sh, dt, seed=k + 51, low=-3, high=0)
                self.check_op(lambda a, b: Gnn.kl_div(a, b, RED[r], False),
                              lambda a, b: F.kl_div(a, b, reduction=r), [x, const(t)], name='kl')
                self.check_op(lambda a, b: Gnn.kl_div(a, b, RED[r], True),
                              lambda a, b: F.kl_div(a, b, reduction=r, log_target=True),
                              [x, lt], name='kl log_target')


CLASS_SHAPES = ((1, 3), (5, 4), (7, 1), (2, 3, 5), (3, 4, 2, 2), (6,))


def targets(shape, seed, ignore=None):
    rng = np.random.default_rng(seed)
    c = shape[0] if len(shape) == 1 else shape[1]
    tshape = () if len(shape) == 1 else (shape[0],) + shape[2:]
    t = rng.integers(0, c, size=tshape).astype(np.int64)
    if ignore is not None and t.size > 1:
        t.flat[0] = ignore
    return t


class ClassLosses(ParityTest):
    def each(self):
        k = 0
        for dtype in DTYPES:
            for shape in CLASS_SHAPES:
                for red in ('none', 'mean', 'sum'):
                    k += 1
                    yield k, dtype, shape, red

    def test_nll(self):
        for k, dt, sh, red in self.each():
            c = sh[0] if len(sh) == 1 else sh[1]
            x = rand(sh, dt, seed=k, low=-4, high=0)
            w = rand((c,), dt, seed=k + 7, low=0.1, high=2.0)
            for ign in (-100, 0):
                t = targets(sh, k + 3, ignore=ign)
                self.check_op(lambda a, b: Gnn.nll_loss(a, b, None, ign, RED[red]),
                              lambda a, b: F.nll_loss(a, b, ignore_index=ign, reduction=red),
                              [x, t], name='nll %s %s' % (sh, red))
                self.check_op(lambda a, b, d: Gnn.nll_loss(a, b, d, ign, RED[red]),
                              lambda a, b, d: F.nll_loss(a, b, weight=d, ignore_index=ign, reduction=red),
                              [x, t, const(w)], name='nll weight %s %s' % (sh, red))

    def test_cross_entropy_indices(self):
        for k, dt, sh, red in self.each():
            c = sh[0] if len(sh) == 1 else sh[1]
            x = rand(sh, dt, seed=k, low=-3, high=3)
            w = rand((c,), dt, seed=k + 7, low=0.1, high=2.0)
            for ign, ls in ((-100, 0.0), (1, 0.0), (-100, 0.2), (0, 0.35)):
                t = targets(sh, k + 3, ignore=ign)
                self.check_op(lambda a, b: Gnn.cross_entropy(a, b, None, ign, RED[red], ls),
                              lambda a, b: F.cross_entropy(a, b, ignore_index=ign, reduction=red,
                                                           label_smoothing=ls),
                              [x, t], name='ce %s %s ls=%g' % (sh, red, ls))
                self.check_op(lambda a, b, d: Gnn.cross_entropy(a, b, d, ign, RED[red], ls),
                              lambda a, b, d: F.cross_entropy(a, b, weight=d, ignore_index=ign,
                                                              reduction=red, label_smoothing=ls),
                              [x, t, const(w)], name='ce weight %s %s ls=%g' % (sh, red, ls))

    def test_cross_entropy_probabilities(self):
        for k, dt, sh, red in self.each():
            c = sh[0] if len(sh) == 1 else sh[1]
            cdim = 0 if len(sh) == 1 else 1
            x = rand(sh, dt, seed=k, low=-3, high=3)
            p = rand(sh, dt, seed=k + 5, low=0.0, high=1.0)
            p = (p / p.sum(axis=cdim, keepdims=True)).astype(dt)
            w = rand((c,), dt, seed=k + 7, low=0.1, high=2.0)
            for ls in (0.0, 0.15):
                self.check_op(lambda a, b: Gnn.cross_entropy(a, b, None, -100, RED[red], ls),
                              lambda a, b: F.cross_entropy(a, b, reduction=red, label_smoothing=ls),
                              [x, p], name='ce prob %s %s' % (sh, red))
                self.check_op(lambda a, b, d: Gnn.cross_entropy(a, b, d, -100, RED[red], ls),
                              lambda a, b, d: F.cross_entropy(a, b, weight=d, reduction=red,
                                                              label_smoothing=ls),
                              [x, p, const(w)], name='ce prob weight %s %s' % (sh, red))


class Modules(ParityTest):
    def test_modules(self):
        x = rand((4, 3), np.float64, seed=1, low=-2, high=2)
        t = rand((4, 3), np.float64, seed=2, low=0.05, high=0.95)
        ci = targets((4, 3), 3)
        w = rand((3,), np.float64, seed=4, low=0.5, high=1.5)
        cases = [
            (Gnn.MSELoss(reduction=Gnn.Reduction.SUM), torch.nn.MSELoss(reduction='sum'), x, t),
            (Gnn.L1Loss(), torch.nn.L1Loss(), x, t),
            (Gnn.SmoothL1Loss(beta=0.5), torch.nn.SmoothL1Loss(beta=0.5), x, t),
            (Gnn.HuberLoss(delta=0.5, reduction=Gnn.Reduction.NONE),
             torch.nn.HuberLoss(delta=0.5, reduction='none'), x, t),
            (Gnn.BCELoss(weight=to_gnn(w)), torch.nn.BCELoss(weight=torch.from_numpy(w)), t, t[::-1].copy()),
            (Gnn.BCEWithLogitsLoss(pos_weight=to_gnn(w)),
             torch.nn.BCEWithLogitsLoss(pos_weight=torch.from_numpy(w)), x, t),
            (Gnn.NLLLoss(weight=to_gnn(w), ignore_index=1), torch.nn.NLLLoss(weight=torch.from_numpy(w), ignore_index=1),
             -np.abs(x), ci),
            (Gnn.CrossEntropyLoss(weight=to_gnn(w), label_smoothing=0.1),
             torch.nn.CrossEntropyLoss(weight=torch.from_numpy(w), label_smoothing=0.1), x, ci),
            (Gnn.KLDivLoss(reduction=Gnn.Reduction.BATCHMEAN, log_target=True),
             torch.nn.KLDivLoss(reduction='batchmean', log_target=True), -np.abs(x), -np.abs(x[::-1].copy())),
        ]
        for g, tm, a, b in cases:
            self.assertEqual(repr(g), repr(tm))
            self.check_op(lambda p, q: g(p, q), lambda p, q: tm(p, q), [a, b], name=repr(tm))

    def test_properties(self):
        m = Gnn.CrossEntropyLoss()
        self.assertEqual(m.props.reduction, Gnn.Reduction.MEAN)
        self.assertEqual(m.props.ignore_index, -100)
        self.assertEqual(m.props.label_smoothing, 0.0)
        self.assertIsNone(m.props.weight)
        m.props.reduction = Gnn.Reduction.SUM
        self.assertEqual(m.get_reduction(), Gnn.Reduction.SUM)
        self.assertEqual(Gnn.SmoothL1Loss().props.beta, 1.0)
        self.assertEqual(Gnn.HuberLoss().props.delta, 1.0)
        self.assertFalse(Gnn.KLDivLoss().props.log_target)
        w = to_gnn(np.ones(3, np.float32))
        self.assertEqual([n for n, _ in Gnn.NLLLoss(weight=w).named_buffers()], ['weight'])

    def test_errors(self):
        x = to_gnn(rand((2, 3)))
        with self.assertRaises(GLib.Error) as cm:
            Gnn.MSELoss()(x, to_gnn(rand((3, 2))))
        self.assertIn('MSELoss', str(cm.exception))
        self.assertIn('[2, 3]', str(cm.exception))
        self.assertIn('[3, 2]', str(cm.exception))
        with self.assertRaises(GLib.Error):
            Gnn.mse_loss(x, to_gnn(rand((2, 3), np.float64)), Gnn.Reduction.MEAN)
        with self.assertRaises(GLib.Error):
            Gnn.nll_loss(x, to_gnn(np.array([0, 5], np.int64)), None, -100, Gnn.Reduction.MEAN)
        with self.assertRaises(GLib.Error):
            Gnn.l1_loss(x, x, Gnn.Reduction.BATCHMEAN)


if __name__ == '__main__':
    main()
