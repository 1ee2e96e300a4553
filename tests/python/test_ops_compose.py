"""The ops composed of other ops (gnn/ops/gnn-ops-compose.c) against PyTorch, through torch's
spellings (import gnn as torch): outputs, gradients and errors."""
import unittest
import warnings

import numpy as np
import torch

import gnntest  # noqa: F401 (requires Gnn 1.0)
from gnntest import ParityTest, main, rand, to_gnn, to_np, to_torch
import gnn


class ComposeParity(ParityTest):
    def pair(self, shapes, dt, seed=0):
        arrays = [rand(s, dt, seed=seed + k) for k, s in enumerate(shapes)]
        g = [to_gnn(a, True) for a in arrays]
        t = [to_torch(a, True) for a in arrays]
        return g, t

    def compare(self, got, want, g_leaves, t_leaves, dt, what):
        rtol, atol = gnntest.TOL[dt]
        got = got if isinstance(got, (tuple, list)) else [got]
        want = want if isinstance(want, (tuple, list)) else [want]
        self.assertEqual(len(got), len(want), what)
        total_g, total_t = None, None
        for k, (a, b) in enumerate(zip(got, want)):
            self.assert_close(to_np(a), b.detach().numpy(), rtol, atol, '%s output %d' % (what, k))
            w = rand(tuple(b.shape), dt, seed=50 + k)
            sg = (a * to_gnn(w)).sum()
            st = (b * torch.from_numpy(w)).sum()
            total_g = sg if total_g is None else total_g + sg
            total_t = st if total_t is None else total_t + st
        total_g.backward()
        total_t.backward()
        for k, (gl, tl) in enumerate(zip(g_leaves, t_leaves)):
            if tl.grad is None:
                continue
            self.assert_close(to_np(gl.grad), tl.grad.numpy(), rtol, atol, '%s grad %d' % (what, k))

    def test_stacks(self):
        cases = {
            'hstack_2d': ([(2, 3), (2, 1)], lambda m, ts: m.hstack(ts)),
            'hstack_1d': ([(3,), (2,)], lambda m, ts: m.hstack(ts)),
            'vstack': ([(2, 3), (3,)], lambda m, ts: m.vstack(ts)),
            'row_stack': ([(1, 3), (3,)], lambda m, ts: m.row_stack(ts)),
            'dstack': ([(2, 3), (2, 3, 2)], lambda m, ts: m.dstack(ts)),
            'column_stack': ([(3,), (3, 2)], lambda m, ts: m.column_stack(ts)),
            'cat_concat': ([(2, 3), (1, 3)], lambda m, ts: m.concat(ts)),
        }
        for dt in (np.float32, np.float64):
            for name, (shapes, f) in cases.items():
                with self.subTest(op=name, dtype=dt.__name__):
                    g, t = self.pair(shapes, dt)
                    self.compare(f(gnn, g), f(torch, t), g, t, dt, name)

    def test_atleast(self):
        for shape in [(), (3,), (2, 3), (2, 3, 2)]:
            for name in ('atleast_1d', 'atleast_2d', 'atleast_3d'):
                with self.subTest(op=name, shape=shape):
                    g, t = self.pair([shape], np.float64)
                    self.compare(getattr(gnn, name)(g[0]), getattr(torch, name)(t[0]), g, t, np.float64, name)
        g, t = self.pair([(), (2,)], np.float32)
        got, want = gnn.atleast_2d(g[0], g[1]), torch.atleast_2d(t[0], t[1])
        self.assertIsInstance(got, tuple)
        self.compare(got, want, g, t, np.float32, 'atleast_2d of two')
        self.assertIs(gnn.atleast_1d(g[1]), g[1])

    def test_splits(self):
        cases = {
            'hsplit': ((2, 4, 2), lambda x: x.hsplit(2)),
            'hsplit_1d': ((6,), lambda x: x.hsplit([1, 4])),
            'hsplit_fn': ((2, 4), lambda x: (gnn if isinstance(x, gnn.Tensor) else torch).hsplit(x, [1, 3])),
            'vsplit': ((4, 2), lambda x: x.vsplit(2)),
            'vsplit_indices': ((4, 2), lambda x: x.vsplit([3])),
            'dsplit': ((2, 2, 6), lambda x: x.dsplit(3)),
            'dsplit_indices': ((2, 2, 6), lambda x: x.dsplit([2, 5])),
        }
        for dt in (np.float32, np.float64):
            for name, (shape, f) in cases.items():
                with self.subTest(op=name, dtype=dt.__name__):
                    g, t = self.pair([shape], dt)
                    self.compare(f(g[0]), f(t[0]), g, t, dt, name)

    def test_meshgrid(self):
        for indexing in ('ij', 'xy'):
            for shapes in ([(3,), (2,)], [(3,), (), (4,)], [(2,)]):
                with self.subTest(indexing=indexing, shapes=shapes):
                    g, t = self.pair(shapes, np.float64)
                    self.compare(gnn.meshgrid(*g, indexing=indexing), torch.meshgrid(*t, indexing=indexing),
                                 g, t, np.float64, 'meshgrid')
        g, t = self.pair([(3,), (2,)], np.float32)
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter('always')
            got = gnn.meshgrid(g)
        self.assertTrue(any('indexing' in str(x.message) for x in w))
        with warnings.catch_warnings():
            warnings.simplefilter('ignore')
            self.compare(got, torch.meshgrid(t), g, t, np.float32, 'meshgrid default')

    def test_broadcast(self):
        g, t = self.pair([(3, 1), (4,), ()], np.float32)
        self.compare(gnn.broadcast_tensors(*g), torch.broadcast_tensors(*t), g, t, np.float32, 'broadcast_tensors')
        g, t = self.pair([(3, 1)], np.float64)
        self.compare(g[0].broadcast_to((2, 3, 4)), t[0].broadcast_to((2, 3, 4)), g, t, np.float64, 'broadcast_to')
        g, t = self.pair([(3,)], np.float64)
        self.compare(gnn.broadcast_to(g[0], (2, -1)), torch.broadcast_to(t[0], (2, -1)), g, t, np.float64,
                     'broadcast_to -1')
        for shapes in [((3, 1), (2, 1, 4)), (2, (1,)), ((), (5,)), ((0, 1), (3,))]:
            self.assertEqual(tuple(gnn.broadcast_shapes(*shapes)), tuple(torch.broadcast_shapes(*shapes)))
        self.assertIsInstance(gnn.broadcast_shapes((2, 1)), gnn.Size)

    def test_unflatten(self):
        for dt in (np.float32, np.float64):
            for dim, sizes in [(1, (3, 2)), (-1, (2, -1)), (0, (1, 2, 1))]:
                with self.subTest(dim=dim, sizes=sizes, dtype=dt.__name__):
                    g, t = self.pair([(2, 6)], dt)
                    self.compare(g[0].unflatten(dim, sizes), t[0].unflatten(dim, sizes), g, t, dt, 'unflatten')
                    g, t = self.pair([(2, 6)], dt)
                    self.compare(gnn.unflatten(g[0], dim, sizes), torch.unflatten(t[0], dim, sizes), g, t, dt,
                                 'torch.unflatten')

    def test_errors(self):
        def both(f, fragment):
            with self.assertRaises(RuntimeError) as ct:
                f(torch)
            with self.assertRaises(RuntimeError) as cg:
                f(gnn)
            self.assertIn(fragment, str(ct.exception))
            self.assertIn(fragment, getattr(cg.exception, 'message', str(cg.exception)))
        both(lambda m: m.hstack([]), 'hstack expects a non-empty TensorList')
        both(lambda m: m.vstack([]), 'vstack expects a non-empty TensorList')
        both(lambda m: m.hsplit(m.ones(2, 5), 2), 'is not divisible by the split_size 2')
        both(lambda m: m.vsplit(m.ones(5), 2), 'requires a tensor with at least 2 dimension')
        both(lambda m: m.dsplit(m.ones(2, 2), [1]), 'requires a tensor with at least 3 dimension')
        both(lambda m: m.meshgrid(m.ones(2), indexing='ab'), 'indexing must be one of "xy" or "ij"')
        both(lambda m: m.meshgrid(m.ones(2, 2), indexing='ij'), 'Expected 0D or 1D tensor')
        both(lambda m: m.meshgrid(m.ones(2), m.ones(2, dtype=m.float64), indexing='ij'),
             'meshgrid expects all tensors to have the same dtype')
        both(lambda m: m.ones(2, 6).unflatten(1, (4, 2)), "don't multiply up to the size of dim 1 (6)")
        both(lambda m: m.ones(2, 6).unflatten(1, ()), 'sizes must be non-empty')
        both(lambda m: m.broadcast_tensors(m.ones(3), m.ones(2)), 'must match the size')
        both(lambda m: m.broadcast_to(m.ones(3), (2, 2)), 'must match the existing size')
        both(lambda m: m.broadcast_shapes((3,), (2,)), 'Shape mismatch')
        with self.assertRaises(TypeError):
            gnn.hstack(gnn.ones(2))


if __name__ == '__main__':
    main()
