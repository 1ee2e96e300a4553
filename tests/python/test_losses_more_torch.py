#!/usr/bin/python3
"""The margin, embedding, multi-label and likelihood losses of gnn/nn/gnn-loss-more.c against
torch 1.13: every loss and reduction through opspec's runner (values, the gradients of every
floating-point input in float32 and float64, the transposed-slice inputs, a float64 gradcheck
of gnn against its own finite differences, the bad inputs torch refuses), then the modules
(constructors, legacy size_average/reduce, printed forms, buffers) and torch's texts for a bad
reduction.

Targets of +1/-1, class indices and counts are int64 arrays in the cases (no gradient) and the
functions convert the ±1 and count targets to the input's dtype, in both libraries alike.
Targets out of range: torch raises RuntimeError, gnn GNN_ERROR_INDEX (a GLib.Error, so a
RuntimeError too, and an IndexError as nll_loss's)."""
import inspect

import numpy as np
import torch
import torch.nn.functional as F

from gnntest import Gnn, GLib, ParityTest, main, rand, to_gnn, to_np
from opspec import Bad, P, Spec, make_test_class
import gnn
import gnn.nn.functional as GF

_COMPOSED = 'gnn composes the loss of differentiable ops; its last node is not torch\'s fused one'
_REDUCTIONS = ('none', 'mean', 'sum')
_NO_TORCH_GRADGRAD = 'torch 1.13 has no double backward for its fused kernel (derivative not implemented)'
_CLAMPED = ('var below eps: its gradient passes the clamp as torch\'s does (the clamp is under no_grad), so it is '
            'not the derivative of the forward a gradcheck would find')
_P1 = ('piecewise linear for p = 1 (second derivative 0 where defined, which gnn gives); torch 1.13\'s double '
       'backward of triplet_margin_loss with p = 1 returns nonzero terms, one of them a denormal like 7e-316 '
       '(uninitialised memory), so it is no oracle here')
_BAD_ONLY = dict(grad=False, gradcheck=False)

Y4 = np.array([1, -1, 1, -1])
Y34 = np.array([[1, -1, 1, 1], [-1, -1, 1, -1], [1, 1, -1, 1]])
LABELS = np.array([[0, 1, -1, 2], [3, -1, 0, 0], [1, 2, 3, 0]])
CLASSES = np.array([0, 3, 1])
COUNTS = np.array([[0, 1, 2, 5], [3, 0, 1, 1], [7, 2, 0, 4]])
MULTI_HOT = np.array([[1, 0, 1, 0], [0, 0, 1, 1], [1, 1, 0, 0]])
W4 = np.array([1, 2, 3, 4])


def like(x, t):
    return t.to(x.dtype)


def row(name, fn, cases, **kw):
    kw.setdefault('grad_fn_differs', _COMPOSED)
    return Spec(name, fn, cases, **kw)


def each_reduction(cases):
    return [c + (r,) for c in cases for r in _REDUCTIONS]


SPECS = [
    row('cosine_embedding_loss',
        lambda T, a, b, y, m, r: T.nn.functional.cosine_embedding_loss(a, b, like(a, y), m, reduction=r),
        each_reduction([((4, 5), (4, 5), Y4, 0.0), ((4, 5), (4, 5), Y4, 0.3), ((5,), (5,), np.array(-1), 0.2),
                        ((5,), (5,), np.array(1), 0.0)]),
        bad=[Bad(((4, 5), (4, 5), Y34, 0.0, 'mean'), ['0D or 1D target tensor expected']),
             Bad(((5,), (5,), Y4, 0.0, 'mean'), ['1D target tensor expects 2D input tensors', '[5]'])]),
    row('gaussian_nll_loss',
        lambda T, x, t, v, full, eps, r: T.nn.functional.gaussian_nll_loss(x, t, v.abs() + 0.05, full, eps, r),
        each_reduction([((3, 4), (3, 4), (3, 4), False, 1e-6), ((3, 4), (3, 4), (3,), True, 1e-6),
                        ((2, 3), (3,), (2, 3), True, 1e-6)]),
        bad=[Bad(((3, 4), (3, 4), (5,), False, 1e-6, 'mean'), ['var is of incorrect size']),
             Bad(((3, 4), (3, 4), (4,), False, 1e-6, 'mean'), ['var is of incorrect size'])]),
    row('gaussian_nll_loss_clamped_var',
        lambda T, x, t, v, full, eps, r: T.nn.functional.gaussian_nll_loss(x, t, v.abs() + 0.05, full, eps, r),
        each_reduction([((3, 4), (3, 4), (3, 1), False, 0.5), ((2, 3), (3,), (2, 3), True, 0.3)]),
        gradcheck=False, gradgrad=_CLAMPED),
    row('gaussian_nll_loss_negative_var',
        lambda T, x, t, v: T.nn.functional.gaussian_nll_loss(x, t, -v.abs() - 0.5), [], **_BAD_ONLY,
        bad=[Bad(((3, 4), (3, 4), (3, 4)), ['var has negative entry/entries'])]),
    row('hinge_embedding_loss',
        lambda T, x, y, m, r: T.nn.functional.hinge_embedding_loss(x, like(x, y), m, reduction=r),
        each_reduction([((3, 4), Y34, 1.0), ((3, 4), Y4, 0.5), ((4,), Y4, 2.0)])),
    row('margin_ranking_loss',
        lambda T, a, b, y, m, r: T.nn.functional.margin_ranking_loss(a, b, like(a, y), m, reduction=r),
        each_reduction([((4,), (4,), Y4, 0.0), ((4,), (4,), Y4, 0.5), ((3, 4), (3, 4), Y34, 0.2)]),
        bad=[Bad(((3, 4), (3, 4), Y4, 0.0, 'mean'), ['All input tensors should have same dimension', '[3, 4]'])]),
    row('multilabel_margin_loss',
        lambda T, x, y, r: T.nn.functional.multilabel_margin_loss(x, y, reduction=r),
        each_reduction([((3, 4), LABELS), ((4,), np.array([2, 0, -1, 1])), ((4,), np.array([-1, 0, 1, 2])),
                        ((1, 4), np.array([[0, 1, 2, 3]]))]), gradgrad=_NO_TORCH_GRADGRAD,
        bad=[Bad(((3, 4), LABELS[:2], 'mean'), ['inconsistent size', '[2, 4]']),
             Bad(((3, 4), LABELS + 2, 'mean'), ['out of range']),
             Bad(((3, 4), LABELS - 1, 'mean'), ['out of range']),
             Bad(((2, 3, 4), LABELS, 'mean'), ['Expected non-empty vector or matrix', '[2, 3, 4]'])]),
    row('multilabel_margin_loss_float_target',
        lambda T, x, y: T.nn.functional.multilabel_margin_loss(x, like(x, y)), [], **_BAD_ONLY,
        bad=[Bad(((3, 4), LABELS), ['int64'])]),
    row('multilabel_soft_margin_loss',
        lambda T, x, y, r: T.nn.functional.multilabel_soft_margin_loss(x, like(x, y), reduction=r),
        each_reduction([((3, 4), MULTI_HOT), ((4,), MULTI_HOT[0]), ((2, 3, 4), MULTI_HOT)])),
    row('multilabel_soft_margin_loss_weight',
        lambda T, x, y, w, r: T.nn.functional.multilabel_soft_margin_loss(x, like(x, y), weight=w, reduction=r),
        each_reduction([((3, 4), MULTI_HOT, (4,)), ((3, 4), MULTI_HOT, (3, 4))])),
    row('multi_margin_loss',
        lambda T, x, y, p, m, r: T.nn.functional.multi_margin_loss(x, y, p, m, reduction=r),
        each_reduction([((3, 4), CLASSES, 1, 1.0), ((3, 4), CLASSES, 2, 1.0), ((3, 4), CLASSES, 1, 0.3),
                        ((3, 4), CLASSES, 2, 2.5), ((4,), np.array([2]), 1, 1.0), ((4,), np.array(3), 2, 0.5)]),
        gradgrad=_NO_TORCH_GRADGRAD,
        bad=[Bad(((3, 4), CLASSES, 3, 1.0, 'mean'), ['only p == 1 and p == 2 supported']),
             Bad(((3, 4), CLASSES[:2], 1, 1.0, 'mean'), ['inconsistent target size', '[2]']),
             Bad(((3, 4), CLASSES + 4, 1, 1.0, 'mean'), ['out of range']),
             Bad(((2, 3, 4), CLASSES, 1, 1.0, 'mean'), ['Expected non-empty vector or matrix'])]),
    row('multi_margin_loss_weight',
        lambda T, x, y, p, w, r: T.nn.functional.multi_margin_loss(x, y, p, weight=like(x, w), reduction=r),
        each_reduction([((3, 4), CLASSES, 1, W4), ((3, 4), CLASSES, 2, W4)]), gradgrad=_NO_TORCH_GRADGRAD,
        bad=[Bad(((3, 4), CLASSES, 1, np.ones((2, 2), np.int64), 'mean'), ['weight must be one-dimensional'])]),
    row('multi_margin_loss_float_target',
        lambda T, x, y: T.nn.functional.multi_margin_loss(x, like(x, y)), [], **_BAD_ONLY,
        bad=[Bad(((3, 4), CLASSES), ['int64'])]),
    row('poisson_nll_loss_log_input',
        lambda T, x, y, full, r: T.nn.functional.poisson_nll_loss(x, like(x, y), True, full, reduction=r),
        each_reduction([((3, 4), COUNTS, False), ((3, 4), COUNTS, True), ((4,), COUNTS[0], True)])),
    row('poisson_nll_loss_rates',
        lambda T, x, y, full, eps, r: T.nn.functional.poisson_nll_loss(x.abs() + 0.1, like(x, y), False, full,
                                                                       eps=eps, reduction=r),
        each_reduction([((3, 4), COUNTS, False, 1e-8), ((3, 4), COUNTS, True, 1e-8), ((3, 4), COUNTS, True, 0.5)])),
    row('soft_margin_loss',
        lambda T, x, y, r: T.nn.functional.soft_margin_loss(x, like(x, y), reduction=r),
        each_reduction([((3, 4), Y34), ((3, 4), Y4), ((4,), Y4)])),
    row('triplet_margin_loss',
        lambda T, a, p, n, m, norm, eps, swap, r: T.nn.functional.triplet_margin_loss(a, p, n, m, norm, eps, swap,
                                                                                      reduction=r),
        each_reduction([((3, 4), (3, 4), (3, 4), 1.0, 2, 1e-6, False), ((3, 4), (3, 4), (3, 4), 2.0, 3, 0.1, True),
                        ((5,), (5,), (5,), 1.0, 2, 1e-6, False)]),
        bad=[Bad(((3, 4), (3, 4), (4,), 1.0, 2, 1e-6, False, 'mean'),
                 ['All inputs should have same dimension but got 2D, 2D and 1D inputs.'])]),
    row('triplet_margin_loss_p1',
        lambda T, a, p, n, swap, r: T.nn.functional.triplet_margin_loss(a, p, n, 0.5, 1, swap=swap, reduction=r),
        each_reduction([((3, 4), (3, 4), (3, 4), False), ((3, 4), (3, 4), (3, 4), True)]), gradgrad=_P1),
    row('triplet_margin_with_distance_loss',
        lambda T, a, p, n, m, swap, r: T.nn.functional.triplet_margin_with_distance_loss(
            a, p, n, margin=m, swap=swap, reduction=r),
        each_reduction([((3, 4), (3, 4), (3, 4), 1.0, False), ((3, 4), (3, 4), (3, 4), 0.5, True)])),
    row('triplet_margin_with_distance_loss_function',
        lambda T, a, p, n, m, swap, r: T.nn.functional.triplet_margin_with_distance_loss(
            a, p, n, distance_function=lambda x1, x2: 1.0 - T.nn.functional.cosine_similarity(x1, x2),
            margin=m, swap=swap, reduction=r),
        each_reduction([((3, 4), (3, 4), (3, 4), 1.0, False), ((3, 4), (3, 4), (3, 4), 0.2, True)])),
]

LossSpecs = make_test_class(SPECS)


# ---- the modules ----

def _x(shape, seed, dtype=np.float32):
    return rand(shape, dtype, seed=seed)


# (class name, constructor arguments, forward arguments as arrays, what makes them tensors)
def _module_cases():
    f = np.float32
    return [
        ('CosineEmbeddingLoss', ((0.3,), {'reduction': 'sum'}), [_x((4, 5), 1), _x((4, 5), 2), Y4.astype(f)]),
        ('GaussianNLLLoss', ((), {'full': True, 'eps': 0.2}), [_x((3, 4), 3), _x((3, 4), 4),
                                                              np.abs(_x((3, 1), 5))]),
        ('HingeEmbeddingLoss', ((0.5,), {}), [_x((3, 4), 6), Y34.astype(f)]),
        ('MarginRankingLoss', ((0.2,), {'reduction': 'none'}), [_x((4,), 7), _x((4,), 8), Y4.astype(f)]),
        ('MultiLabelMarginLoss', ((), {}), [_x((3, 4), 9), LABELS]),
        ('MultiLabelSoftMarginLoss', ((), {'weight': W4.astype(f)}), [_x((3, 4), 10), MULTI_HOT.astype(f)]),
        ('MultiMarginLoss', ((2, 0.7), {'weight': W4.astype(f)}), [_x((3, 4), 11), CLASSES]),
        ('PoissonNLLLoss', ((False, True), {'eps': 0.1}), [np.abs(_x((3, 4), 12)), COUNTS.astype(f)]),
        ('SoftMarginLoss', ((), {'reduction': 'sum'}), [_x((3, 4), 13), Y34.astype(f)]),
        ('TripletMarginLoss', ((0.5, 1.0), {'swap': True}), [_x((3, 4), 14), _x((3, 4), 15), _x((3, 4), 16)]),
        ('TripletMarginWithDistanceLoss', ((), {'margin': 0.5, 'swap': True}),
         [_x((3, 4), 17), _x((3, 4), 18), _x((3, 4), 19)]),
    ]


# the inputs torch differentiates (its fused kernels refuse a target that requires grad)
_GRAD_INPUTS = {'CosineEmbeddingLoss': 2, 'GaussianNLLLoss': 3, 'MarginRankingLoss': 2,
                'TripletMarginLoss': 3, 'TripletMarginWithDistanceLoss': 3}


def _args(lib, arrays, name):
    made = []
    for k, a in enumerate(arrays):
        t = gnn.tensor(a.copy()) if lib is gnn else torch.from_numpy(a.copy())
        if a.dtype.kind == 'f' and k < _GRAD_INPUTS.get(name, 1):
            t.requires_grad_(True)
        made.append(t)
    return made


def _kwargs(lib, kw):
    return {k: (gnn.tensor(v) if lib is gnn else torch.from_numpy(v)) if isinstance(v, np.ndarray) else v
            for k, v in kw.items()}


class Modules(ParityTest):
    def test_forward_and_gradients(self):
        for name, (args, kw), arrays in _module_cases():
            with self.subTest(loss=name):
                tm = getattr(torch.nn, name)(*args, **_kwargs(torch, kw))
                gm = getattr(gnn.nn, name)(*args, **_kwargs(gnn, kw))
                tx, gx = _args(torch, arrays, name), _args(gnn, arrays, name)
                want, got = tm(*tx), gm(*gx)
                self.assert_close(to_np(got), want.detach().numpy(), 1e-5, 1e-6, name)
                up = rand(tuple(want.shape), np.float32, seed=5)
                want.backward(torch.from_numpy(up))
                got.backward(to_gnn(up), False)
                for k, (t, g) in enumerate(zip(tx, gx)):
                    if t.grad is not None:
                        self.assert_close(to_np(g.grad), t.grad.numpy(), 1e-5, 1e-6, '%s grad %d' % (name, k))

    def test_printed_forms_and_buffers(self):
        for name, (args, kw), _ in _module_cases():
            with self.subTest(loss=name):
                tm = getattr(torch.nn, name)(*args, **_kwargs(torch, kw))
                gm = getattr(gnn.nn, name)(*args, **_kwargs(gnn, kw))
                self.assertEqual(repr(gm), repr(tm))
                self.assertEqual(list(dict(gm.named_buffers())), list(dict(tm.named_buffers())))
                self.assertEqual(list(gm.state_dict()), list(tm.state_dict()))

    def test_signatures(self):
        for name, _, _ in _module_cases():
            with self.subTest(loss=name):
                want = inspect.signature(getattr(torch.nn, name).__init__)
                got = inspect.signature(getattr(gnn.nn, name).__init__)
                self.assertEqual([(p.name, p.kind, p.default) for p in got.parameters.values()],
                                 [(p.name, p.kind, p.default) for p in want.parameters.values()])

    def test_legacy_reduction(self):
        # size_average / reduce as torch 1.13 maps them: (None, False) 'none', (False, None) 'sum'
        x, y = _x((3, 4), 20), Y34.astype(np.float32)
        for sa, rd in ((None, False), (False, None), (True, True), (False, True), (True, False)):
            with self.subTest(size_average=sa, reduce=rd):
                import warnings
                with warnings.catch_warnings():
                    warnings.simplefilter('ignore')
                    want = torch.nn.SoftMarginLoss(size_average=sa, reduce=rd)(torch.tensor(x), torch.tensor(y))
                    fwant = F.hinge_embedding_loss(torch.tensor(x), torch.tensor(y), size_average=sa, reduce=rd)
                got = gnn.nn.SoftMarginLoss(size_average=sa, reduce=rd)(gnn.tensor(x), gnn.tensor(y))
                fgot = GF.hinge_embedding_loss(gnn.tensor(x), gnn.tensor(y), size_average=sa, reduce=rd)
                self.assert_close(to_np(got), want.numpy(), 1e-5, 1e-6, 'SoftMarginLoss')
                self.assert_close(to_np(fgot), fwant.numpy(), 1e-5, 1e-6, 'hinge_embedding_loss')

    def test_module_errors(self):
        with self.assertRaisesRegex(ValueError, 'only p == 1 and p == 2 supported'):
            torch.nn.MultiMarginLoss(p=3)
        with self.assertRaisesRegex(ValueError, 'only p == 1 and p == 2 supported'):
            gnn.nn.MultiMarginLoss(p=3)
        with self.assertRaises(TypeError):
            gnn.nn.GaussianNLLLoss(True)      # keyword-only, as torch's
        with self.assertRaises(TypeError):
            torch.nn.GaussianNLLLoss(True)
        m = gnn.nn.TripletMarginLoss()
        with self.assertRaisesRegex(GLib.Error, 'TripletMarginLoss: expected \\(anchor, positive, negative\\)'):
            m(gnn.ones(2, 3), gnn.ones(2, 3))

    def test_distance_functions(self):
        a, p, n = _x((3, 4), 21), _x((3, 4), 22), _x((3, 4), 23)
        calls = []

        def manhattan(lib):
            def d(x1, x2):
                calls.append(lib)
                return (x1 - x2).abs().sum(1)
            return d
        for swap in (False, True):
            tm = torch.nn.TripletMarginWithDistanceLoss(distance_function=manhattan(torch), swap=swap)
            gm = gnn.nn.TripletMarginWithDistanceLoss(distance_function=manhattan(gnn), swap=swap)
            self.assertEqual(repr(gm), repr(tm))
            self.assertIs(gm.distance_function.__self__ if hasattr(gm.distance_function, '__self__') else None, None)
            want = tm(torch.tensor(a), torch.tensor(p), torch.tensor(n))
            got = gm(gnn.tensor(a), gnn.tensor(p), gnn.tensor(n))
            self.assert_close(to_np(got), want.numpy(), 1e-5, 1e-6, 'manhattan swap=%s' % swap)
        self.assertEqual(calls.count(gnn), calls.count(torch))
        # a module distance is a child, printed and called as torch's
        tm = torch.nn.TripletMarginWithDistanceLoss(distance_function=torch.nn.PairwiseDistance(p=1.0))
        gm = gnn.nn.TripletMarginWithDistanceLoss(distance_function=gnn.nn.PairwiseDistance(p=1.0))
        self.assertEqual(repr(gm), repr(tm))
        self.assert_close(to_np(gm(gnn.tensor(a), gnn.tensor(p), gnn.tensor(n))),
                          tm(torch.tensor(a), torch.tensor(p), torch.tensor(n)).numpy(), 1e-5, 1e-6, 'module')

        # an exception of the function reaches the caller as it is
        def broken(x1, x2):
            raise KeyError('no distance')
        with self.assertRaises(KeyError):
            gnn.nn.TripletMarginWithDistanceLoss(distance_function=broken)(gnn.tensor(a), gnn.tensor(p),
                                                                           gnn.tensor(n))


# ---- torch's text for a bad reduction, function by function ----

def _bad_reduction_calls(lib):
    Fn = lib.nn.functional
    x = lib.tensor(_x((3, 4), 30))
    y = lib.tensor(Y34.astype(np.float32))
    c = lib.tensor(CLASSES)
    lab = lib.tensor(LABELS)
    v = lib.tensor(np.abs(_x((3, 4), 31)))
    return {
        'cosine_embedding_loss': lambda: Fn.cosine_embedding_loss(x, x, lib.tensor(Y4[:3].astype(np.float32)),
                                                                  reduction='bad'),
        'gaussian_nll_loss': lambda: Fn.gaussian_nll_loss(x, x, v, reduction='bad'),
        'hinge_embedding_loss': lambda: Fn.hinge_embedding_loss(x, y, reduction='bad'),
        'margin_ranking_loss': lambda: Fn.margin_ranking_loss(x, x, y, reduction='bad'),
        'multilabel_margin_loss': lambda: Fn.multilabel_margin_loss(x, lab, reduction='bad'),
        'multilabel_soft_margin_loss': lambda: Fn.multilabel_soft_margin_loss(x, y, reduction='bad'),
        'multi_margin_loss': lambda: Fn.multi_margin_loss(x, c, reduction='bad'),
        'poisson_nll_loss': lambda: Fn.poisson_nll_loss(x, y, reduction='bad'),
        'soft_margin_loss': lambda: Fn.soft_margin_loss(x, y, reduction='bad'),
        'triplet_margin_loss': lambda: Fn.triplet_margin_loss(x, x, x, reduction='bad'),
        'triplet_margin_with_distance_loss': lambda: Fn.triplet_margin_with_distance_loss(x, x, x, reduction='bad'),
    }


class BadReduction(ParityTest):
    def test_texts(self):
        want_calls, got_calls = _bad_reduction_calls(torch), _bad_reduction_calls(gnn)
        for name in want_calls:
            with self.subTest(function=name):
                with self.assertRaises(ValueError) as want:
                    want_calls[name]()
                with self.assertRaises(ValueError) as got:
                    got_calls[name]()
                self.assertEqual(str(got.exception), str(want.exception))

    def test_gerror_in_c(self):
        # C takes a Gnn.Reduction: batchmean (KLDivLoss's only) is refused with a GError
        x = gnn.tensor(_x((3, 4), 32))
        with self.assertRaisesRegex(GLib.Error, 'SoftMarginLoss: 3 is not a valid value for reduction'):
            Gnn.Tensor.soft_margin_loss(x, x, Gnn.Reduction.BATCHMEAN)


# ---- CTCLoss: forward and backward in C (gnn/ops/gnn-ops-ctc.c) ----

class CTC(ParityTest):
    T, N, C = 6, 3, 5

    def log_probs(self, dtype, seed=0):
        logits = np.random.RandomState(seed).randn(self.T, self.N, self.C).astype(dtype)
        return torch.log_softmax(torch.from_numpy(logits), 2).numpy()

    def run_both(self, lp, targets, il, tl, **kw):
        """(torch's loss and gradient, gnn's) for one random upstream gradient"""
        a = torch.tensor(lp, requires_grad=True)
        b = gnn.tensor(lp.copy())
        b.requires_grad_(True)
        want = F.ctc_loss(a, torch.tensor(targets), il, tl, **kw)
        got = GF.ctc_loss(b, gnn.tensor(np.array(targets)), il, tl, **kw)
        up = rand(tuple(want.shape), lp.dtype, seed=9)
        want.backward(torch.from_numpy(up))
        got.backward(to_gnn(up), False)
        return (want.detach().numpy(), a.grad.numpy()), (to_np(got), to_np(b.grad))

    def check(self, lp, targets, il, tl, what, **kw):
        rtol, atol = (1e-5, 1e-6) if lp.dtype == np.float32 else (1e-10, 1e-12)
        (wv, wg), (gv, gg) = self.run_both(lp, targets, il, tl, **kw)
        self.assert_close(gv, wv, rtol, atol, what + ' loss')
        self.assert_close(gg, wg, rtol, atol, what + ' gradient')

    def test_padded_targets(self):
        targets = np.array([[1, 2, 2], [3, 1, 0], [4, 4, 4]])
        for dtype in (np.float32, np.float64):
            lp = self.log_probs(dtype)
            for reduction in _REDUCTIONS:
                for zero_infinity in (False, True):
                    with self.subTest(dtype=dtype.__name__, reduction=reduction, zero_infinity=zero_infinity):
                        self.check(lp, targets, [6, 5, 4], [3, 2, 1], 'padded', reduction=reduction,
                                   zero_infinity=zero_infinity)
            # another blank, lengths as tensors
            self.check(lp, np.array([[1, 2], [3, 1], [4, 3]]), [6, 6, 3], [2, 2, 2], 'full lengths')
            self.check(lp, np.array([[1, 2], [3, 1], [0, 3]]), [6, 4, 3], [2, 1, 2], 'blank 4', blank=4)

    def test_concatenated_and_unbatched(self):
        lp = self.log_probs(np.float64, 1)
        self.check(lp, np.array([1, 2, 3, 1, 4]), [6, 5, 4], [2, 2, 1], 'concatenated')
        self.check(lp[:, 0].copy(), np.array([1, 2]), [6], [2], 'unbatched', reduction='none')
        self.check(lp[:, 0].copy(), np.array([1, 2]), [6], [2], 'unbatched mean')

    def test_infinite_losses(self):
        # an input of 2 steps cannot emit 1, 1, 1 (a blank must separate repeats)
        lp = self.log_probs(np.float64, 2)
        targets, il, tl = np.array([[1, 1, 1], [3, 1, 0], [4, 4, 4]]), [2, 5, 4], [3, 2, 1]
        (wv, _), (gv, _) = self.run_both(lp, targets, il, tl, reduction='none')
        self.assertEqual(list(np.isinf(gv)), list(np.isinf(wv)))
        self.check(lp, targets, il, tl, 'zero_infinity', reduction='sum', zero_infinity=True)

    def test_module(self):
        lp = self.log_probs(np.float32, 3)
        targets = np.array([[1, 2], [3, 1], [4, 4]])
        for blank, reduction in ((0, 'mean'), (0, 'sum')):
            tm = torch.nn.CTCLoss(blank=blank, reduction=reduction)
            gm = gnn.nn.CTCLoss(blank=blank, reduction=reduction)
            self.assertEqual(repr(gm), repr(tm))
            want = tm(torch.tensor(lp), torch.tensor(targets), torch.tensor([6, 5, 4]), torch.tensor([2, 2, 1]))
            got = gm(gnn.tensor(lp), gnn.tensor(targets), (6, 5, 4), gnn.tensor(np.array([2, 2, 1])))
            self.assert_close(to_np(got), want.numpy(), 1e-5, 1e-6, 'CTCLoss ' + reduction)
        self.assertEqual([(p.name, p.default) for p in inspect.signature(gnn.nn.CTCLoss.__init__).parameters.values()],
                         [(p.name, p.default) for p in inspect.signature(torch.nn.CTCLoss.__init__).parameters.values()])

    def test_errors(self):
        lp = self.log_probs(np.float32, 4)
        targets = np.array([[1, 2], [3, 1], [4, 4]])
        cases = [(((7, 5, 4), (2, 2, 1)), {}, RuntimeError, 'Expected input_lengths to have value at most 6'),
                 (((6, 5, 4), (3, 2, 1)), {}, RuntimeError, 'Expected tensor to have size at least 3 at dimension 1'),
                 (((6, 5, 4), (2, 2, 1)), {'blank': 9}, RuntimeError, 'blank must be in label range')]
        for (il, tl), kw, cls, words in cases:
            with self.subTest(words=words):
                with self.assertRaises(cls):
                    F.ctc_loss(torch.tensor(lp), torch.tensor(targets), il, tl, **kw)
                with self.assertRaises(cls) as got:
                    GF.ctc_loss(gnn.tensor(lp), gnn.tensor(targets), il, tl, **kw)
                self.assertIn(words, str(got.exception))
        with self.assertRaises(ValueError) as got:
            GF.ctc_loss(gnn.tensor(lp), gnn.tensor(targets), (6, 5, 4), (2, 2, 1), reduction='bad')
        with self.assertRaises(ValueError) as want:
            F.ctc_loss(torch.tensor(lp), torch.tensor(targets), (6, 5, 4), (2, 2, 1), reduction='bad')
        self.assertEqual(str(got.exception), str(want.exception))


if __name__ == '__main__':
    main()
