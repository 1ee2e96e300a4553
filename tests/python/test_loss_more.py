#!/usr/bin/python3
"""The distances (cosine_similarity, pairwise_distance, pdist) and the losses added after the
first ones, against torch.nn.functional and torch.nn 1.13: outputs and the gradients of
every floating-point input, float32 and float64, every reduction and option, the modules'
constructor signatures and printed forms, and the errors torch raises."""

import torch.nn.functional as F

from gnntest import Gnn, GLib, np, torch, to_gnn, rand, Input, ParityTest, main
import gnn
import gnn.nn.functional as GF

DTYPES = (np.float32, np.float64)


def const(a):
    return Input(a, requires_grad=False)


def message(e):
    return getattr(e, 'message', str(e))


class Distances(ParityTest):
    def test_cosine_similarity(self):
        cases = [((3, 5), (3, 5), 1), ((4, 3, 2), (4, 3, 2), 1), ((4, 3, 2), (4, 3, 2), -1),
                 ((4, 3, 2), (4, 3, 2), 0), ((6,), (6,), 0), ((1, 7), (1, 7), 1),
                 ((3, 1), (3, 4), 1), ((2, 4), (4,), 1), ((5, 3), (5, 3), -2)]
        for k, (dt, (s1, s2, dim)) in enumerate((dt, c) for dt in DTYPES for c in cases):
            a, b = rand(s1, dt, seed=k), rand(s2, dt, seed=k + 30)
            for eps in (1e-8, 0.5):
                self.check_op(lambda p, q: GF.cosine_similarity(p, q, dim, eps),
                              lambda p, q: F.cosine_similarity(p, q, dim, eps), [a, b],
                              name='cosine_similarity %s %s dim=%d eps=%g' % (s1, s2, dim, eps))
            # defaults, and through the torch namespace
            self.check_op(lambda p, q: gnn.cosine_similarity(p, q, dim=dim),
                          lambda p, q: torch.cosine_similarity(p, q, dim=dim), [a, b],
                          name='torch.cosine_similarity')

    def test_cosine_similarity_small_norms(self):
        # norms below eps: torch 1.13 clamps the squared norms outside autograd
        for dt in DTYPES:
            a = np.array([[1e-5, 0.0], [3.0, 4.0], [0.05, 0.02], [0.0, 0.0]], dt)
            b = np.array([[1e-4, 1e-5], [1.0, 2.0], [0.3, -0.01], [0.5, 0.1]], dt)
            for eps in (1e-8, 0.1, 1e-3):
                # float32, eps=1e-8: the gradient of the first row (norm 1e-5) is the difference
                # of terms of about 2e4, so float32 rounding leaves an absolute error near 0.05
                # in an element that is about 0.02 (both libraries round differently); in float64
                # the same cancellation leaves about 1e-8 (the row's other element is 2e4)
                atol = None if eps != 1e-8 else 0.1 if dt == np.float32 else 1e-7
                self.check_op(lambda p, q: GF.cosine_similarity(p, q, 1, eps),
                              lambda p, q: F.cosine_similarity(p, q, 1, eps), [a, b], atol=atol,
                              name='cosine_similarity small eps=%g' % eps)

    def test_pairwise_distance(self):
        cases = [((3, 5), (3, 5)), ((6,), (6,)), ((1, 4), (1, 4)), ((4, 3), (3,)), ((2, 3, 4), (2, 3, 4)),
                 ((1, 3), (5, 3))]
        for k, (dt, (s1, s2)) in enumerate((dt, c) for dt in DTYPES for c in cases):
            a, b = rand(s1, dt, seed=k), rand(s2, dt, seed=k + 30)
            for p in (2.0, 1.0, 3.0, 0.5, float('inf')):
                for eps, keepdim in ((1e-6, False), (0.1, True), (0.0, False)):
                    self.check_op(lambda x, y: GF.pairwise_distance(x, y, p, eps, keepdim),
                                  lambda x, y: F.pairwise_distance(x, y, p, eps, keepdim), [a, b],
                                  name='pairwise_distance %s %s p=%g eps=%g keepdim=%s'
                                  % (s1, s2, p, eps, keepdim))

    def test_pdist(self):
        for k, dt in enumerate(DTYPES):
            for shape in ((4, 3), (2, 5), (6, 1), (7, 4)):
                x = rand(shape, dt, seed=k + shape[0])
                for p in (2, 1, 3.0, 0.5, float('inf')):
                    self.check_op(lambda a: GF.pdist(a, p), lambda a: F.pdist(a, p), [x],
                                  name='pdist %s p=%g' % (shape, p))
                self.check_op(lambda a: gnn.pdist(a), lambda a: torch.pdist(a), [x], name='torch.pdist')
            # one row: no pairs
            one = rand((1, 3), dt)
            self.check_op(lambda a: GF.pdist(a), lambda a: F.pdist(a), [one], grad=False, name='pdist 1 row')

    def test_modules(self):
        a, b = rand((4, 6), seed=1), rand((4, 6), seed=2)
        for args, kwargs in (((), {}), ((0,), {}), ((1, 1e-3), {}), ((), {'dim': -1, 'eps': 0.2})):
            g, tm = gnn.nn.CosineSimilarity(*args, **kwargs), torch.nn.CosineSimilarity(*args, **kwargs)
            self.assertEqual(repr(g), repr(tm))
            self.assertEqual(g.props.dim, tm.dim)
            self.assertEqual(g.props.eps, tm.eps)
            self.check_op(lambda p, q: g(p, q), lambda p, q: tm(p, q), [a, b], name='CosineSimilarity')
        for args, kwargs in (((), {}), ((1,), {}), ((3.0, 0.01, True), {}), ((), {'keepdim': True})):
            g, tm = gnn.nn.PairwiseDistance(*args, **kwargs), torch.nn.PairwiseDistance(*args, **kwargs)
            self.assertEqual(repr(g), repr(tm))
            self.assertEqual(g.props.p, tm.norm)
            self.assertEqual(g.props.eps, tm.eps)
            self.assertEqual(g.props.keepdim, tm.keepdim)
            self.check_op(lambda p, q: g(p, q), lambda p, q: tm(p, q), [a, b], name='PairwiseDistance')

    def test_errors(self):
        x = to_gnn(rand((2, 3)))
        with self.assertRaises(GLib.Error) as cm:
            GF.cosine_similarity(x, to_gnn(rand((3, 2))))
        self.assertIn('cosine_similarity', message(cm.exception))
        with self.assertRaises(GLib.Error) as cm:
            GF.cosine_similarity(x, x, 2)
        self.assertIn('dimension out of range', message(cm.exception))
        with self.assertRaises(GLib.Error):
            GF.cosine_similarity(x, to_gnn(rand((2, 3), np.float64)))
        with self.assertRaises(GLib.Error):
            GF.pairwise_distance(x, to_gnn(rand((2, 4))))
        with self.assertRaises(GLib.Error):
            GF.pairwise_distance(x, x, -1.0)
        with self.assertRaises(GLib.Error) as cm:
            GF.pdist(to_gnn(rand((2, 3, 4))))
        self.assertIn('2D', message(cm.exception))
        with self.assertRaises(GLib.Error) as cm:
            GF.pdist(x, -1)
        self.assertIn('non-negative', message(cm.exception))
        with self.assertRaises(GLib.Error):
            GF.pdist(to_gnn(np.ones((3, 2), np.int64)))
        with self.assertRaises(TypeError):
            GF.cosine_similarity(x, x, 1.5)
        with self.assertRaises(TypeError):
            GF.pdist([[1.0, 2.0]])


if __name__ == '__main__':
    main()
