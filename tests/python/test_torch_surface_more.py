"""More of torch's Python surface (the surface_more part of the overrides), each name run with
`import gnn as torch` and with torch 1.13 on the same data: the losses' hyperparameters as
attributes, torch.utils.data's iterable-style datasets, torch.autograd.backward / gradcheck /
Variable, and Tensor methods and torch functions composed from gnn's ops."""
import unittest

import numpy as np

from gnntest import main  # (requires Gnn 1.0, loads torch)
import torch

import gnn


def close(test, got, want, rtol=1e-5, atol=1e-6, msg=None):
    if isinstance(want, torch.Tensor):
        test.assertIsInstance(got, gnn.Tensor, msg)
        test.assertEqual(tuple(got.shape), tuple(want.shape), msg)
        test.assertEqual(repr(got.dtype), repr(want.dtype), msg)
        np.testing.assert_allclose(np.asarray(got.detach().numpy(), dtype=float),
                                   np.asarray(want.detach().numpy(), dtype=float),
                                   rtol=rtol, atol=atol, err_msg=msg or '')
    elif isinstance(want, (list, tuple)):
        test.assertEqual(len(got), len(want), msg)
        for g, w in zip(got, want):
            close(test, g, w, rtol, atol, msg)
    elif isinstance(want, float):
        test.assertAlmostEqual(float(got), want, places=5, msg=msg)
    else:
        test.assertEqual(got, want, msg)


# ---- 1. the losses' attributes ----

LOSS_ATTRIBUTES = {
    'L1Loss': {}, 'MSELoss': {}, 'SoftMarginLoss': {}, 'MultiLabelMarginLoss': {},
    'CrossEntropyLoss': {'ignore_index': 3, 'label_smoothing': 0.25},
    'NLLLoss': {'ignore_index': 1},
    'BCELoss': {}, 'BCEWithLogitsLoss': {}, 'MultiLabelSoftMarginLoss': {},
    'KLDivLoss': {'log_target': True},
    'HuberLoss': {'delta': 0.5}, 'SmoothL1Loss': {'beta': 0.25},
    'MarginRankingLoss': {'margin': 0.5}, 'HingeEmbeddingLoss': {'margin': 2.0},
    'CosineEmbeddingLoss': {'margin': 0.1},
    'MultiMarginLoss': {'p': 2, 'margin': 0.5},
    'TripletMarginLoss': {'margin': 0.5, 'p': 1.0, 'eps': 1e-3, 'swap': True},
    'TripletMarginWithDistanceLoss': {'margin': 0.5, 'swap': True},
    'PoissonNLLLoss': {'log_input': False, 'full': True, 'eps': 1e-4},
    'GaussianNLLLoss': {'full': True, 'eps': 1e-4},
    'CTCLoss': {'blank': 1, 'zero_infinity': True},
}


class LossAttributes(unittest.TestCase):
    def test_defaults_and_constructor_values(self):
        for name, kwargs in LOSS_ATTRIBUTES.items():
            for kw in ({}, kwargs):
                t, g = getattr(torch.nn, name)(**kw), getattr(gnn.nn, name)(**kw)
                for attr in [a for a in vars(t) if not a.startswith('_') and a != 'training']:
                    if attr == 'distance_function':
                        continue
                    self.assertEqual(getattr(g, attr), getattr(t, attr), '%s.%s' % (name, attr))
                    self.assertEqual(type(getattr(g, attr)), type(getattr(t, attr)), '%s.%s' % (name, attr))
                for attr in t._buffers:
                    self.assertIsNone(getattr(g, attr), '%s.%s' % (name, attr))

    def test_writes_change_the_next_forward(self):
        rng = np.random.default_rng(0)
        x = rng.standard_normal((6, 4)).astype(np.float32)
        y = np.array([0, 3, 1, 2, 3, 1])
        out = {}
        for lib in (torch, gnn):
            c = lib.nn.CrossEntropyLoss(ignore_index=1, label_smoothing=0.2)
            X, Y = lib.tensor(x), lib.tensor(y)
            vals = [c(X, Y)]
            c.reduction = 'sum'
            c.ignore_index = -100
            c.label_smoothing = 0.0
            vals.append(c(X, Y))
            c.reduction = 'none'
            vals.append(c(X, Y))
            c.weight = lib.tensor([1., 2., 3., 0.5])
            vals.append(c(X, Y))
            self.assertEqual((c.reduction, c.ignore_index, c.label_smoothing), ('none', -100, 0.0))
            m = lib.nn.TripletMarginLoss()
            a, p, n = (lib.tensor(v) for v in (x, x[::-1].copy(), x * 0.5))
            m.margin, m.p, m.swap = 2.0, 1.0, True
            vals.append(m(a, p, n))
            h = lib.nn.HuberLoss()
            h.delta = 0.1
            h.reduction = 'sum'
            vals.append(h(a, p))
            out[lib] = vals
        close(self, out[gnn], out[torch])

    def test_bad_reduction(self):
        c = gnn.nn.MSELoss()
        with self.assertRaisesRegex(ValueError, 'bad is not a valid value for reduction'):
            c.reduction = 'bad'
        self.assertEqual(c.reduction, 'mean')


if __name__ == '__main__':
    main()
