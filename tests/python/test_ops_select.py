"""Repeating, taking and mask-selecting ops against PyTorch: repeat, tile, repeat_interleave,
take, take_along_dim, masked_select, masked_scatter, nonzero / argwhere; values, gradients
(float32 and float64) and errors."""
import numpy as np
import torch

import gi
gi.require_version('Gnn', '1.0')
from gi.repository import Gnn  # noqa: E402

import gnn  # noqa: E402
from gnntest import GLib, ParityTest, main, rand, to_gnn, to_np  # noqa: E402,F401

DTYPES = (np.float32, np.float64)


def _msg(e):
    return getattr(e, 'message', str(e))


class SelectParity(ParityTest):
    def test_repeat_tile(self):
        for dt in DTYPES:
            a = rand((2, 3), dt, seed=1)
            for sizes in [(2, 1), (1, 3), (2, 2, 1), (3, 1, 2)]:
                with self.subTest(dtype=dt.__name__, sizes=sizes):
                    self.check_op(lambda x: x.repeat(*sizes), lambda x: x.repeat(*sizes), [a], name='repeat')
            for dims in [(2,), (2, 3), (2, 1, 2)]:
                with self.subTest(dtype=dt.__name__, dims=dims):
                    self.check_op(lambda x: gnn.tile(x, dims), lambda x: torch.tile(x, dims), [a], name='tile')
            # five dimensions, which the repeats do not double
            b = rand((1, 2, 1, 2, 1), dt, seed=2)
            self.check_op(lambda x: x.repeat(2, 1, 3, 1, 2), lambda x: x.repeat(2, 1, 3, 1, 2), [b], name='repeat 5d')

    def test_repeat_interleave(self):
        for dt in DTYPES:
            a = rand((2, 3), dt, seed=3)
            self.check_op(lambda x: gnn.repeat_interleave(x, 2), lambda x: torch.repeat_interleave(x, 2),
                          [a], name='flat')
            self.check_op(lambda x: gnn.repeat_interleave(x, 2, dim=1),
                          lambda x: torch.repeat_interleave(x, 2, dim=1), [a], name='int dim')
            self.check_op(lambda x: gnn.repeat_interleave(x, to_gnn(np.array([1, 0, 2])), dim=-1, output_size=3),
                          lambda x: torch.repeat_interleave(x, torch.tensor([1, 0, 2]), dim=-1, output_size=3),
                          [a], name='tensor dim')
            self.check_op(lambda x: gnn.repeat_interleave(x, to_gnn(np.array([2])), dim=0),
                          lambda x: torch.repeat_interleave(x, torch.tensor([2]), dim=0), [a], name='one count')
        got = gnn.repeat_interleave(to_gnn(np.array([2, 0, 1])))
        self.assertEqual(to_np(got).tolist(), [0, 0, 2])
        self.assertEqual(got.get_dtype(), Gnn.Dtype.INT64)

    def test_take(self):
        for dt in DTYPES:
            a = rand((3, 4), dt, seed=4)
            idx = np.array([[0, -1], [5, 5], [11, 2]])
            self.check_op(lambda x: gnn.take(x, to_gnn(idx)), lambda x: torch.take(x, torch.from_numpy(idx)),
                          [a], name='take')
            ind = np.array([[0, 2, 1, 2], [1, 1, 0, 0]])
            self.check_op(lambda x: gnn.take_along_dim(x, to_gnn(ind), dim=0),
                          lambda x: torch.take_along_dim(x, torch.from_numpy(ind), dim=0), [a], name='along 0')
            ind1 = np.array([[3], [0], [1]])
            self.check_op(lambda x: gnn.take_along_dim(x, to_gnn(ind1), dim=1),
                          lambda x: torch.take_along_dim(x, torch.from_numpy(ind1), dim=1), [a], name='along 1')
            # broadcasting outside dim
            ind2 = np.array([[1, 0]])
            self.check_op(lambda x: gnn.take_along_dim(x, to_gnn(ind2), dim=1),
                          lambda x: torch.take_along_dim(x, torch.from_numpy(ind2), dim=1), [a], name='bcast')
            flat = np.array([7, 0, 7])
            self.check_op(lambda x: gnn.take_along_dim(x, to_gnn(flat)),
                          lambda x: torch.take_along_dim(x, torch.from_numpy(flat)), [a], name='flat')

    def test_masks(self):
        m = np.array([True, False, True, True])
        for dt in DTYPES:
            a = rand((3, 4), dt, seed=5)
            self.check_op(lambda x: gnn.masked_select(x, to_gnn(m)),
                          lambda x: torch.masked_select(x, torch.from_numpy(m)), [a], name='select')
            src = rand((12,), dt, seed=6)
            self.check_op(lambda x, s: gnn.masked_scatter(x, to_gnn(m), s),
                          lambda x, s: torch.masked_scatter(x, torch.from_numpy(m), s), [a, src], name='scatter')
            # the mask broadcasts the input up
            col = np.array([[True], [False]])
            b = rand((4,), dt, seed=7)
            self.check_op(lambda x: gnn.masked_select(x, to_gnn(col)),
                          lambda x: torch.masked_select(x, torch.from_numpy(col)), [b], name='select bcast')
        x = to_gnn(np.zeros((2, 3), np.float32))
        x.masked_scatter_(to_gnn(np.array([True, False, True])), to_gnn(np.arange(6, dtype=np.float32)))
        self.assertEqual(to_np(x).tolist(), [[0, 0, 1], [2, 0, 3]])

    def test_nonzero(self):
        v = np.array([[0.0, 1.5, 0.0], [np.nan, 0.0, -2.0]])
        for arr in (v, np.array([[0, 3], [4, 0]]), np.array(3.0), np.zeros((0, 2)), v > 0):
            want = torch.nonzero(torch.from_numpy(np.asarray(arr)))
            got = gnn.nonzero(to_gnn(np.asarray(arr)))
            self.assertEqual(tuple(got.get_shape()), tuple(want.shape))
            self.assertEqual(to_np(got).tolist(), want.tolist())
            self.assertEqual(to_np(gnn.argwhere(to_gnn(np.asarray(arr)))).tolist(), want.tolist())
            wt = torch.nonzero(torch.from_numpy(np.asarray(arr)), as_tuple=True)
            gt = gnn.nonzero(to_gnn(np.asarray(arr)), as_tuple=True)
            self.assertEqual(len(gt), len(wt))
            for g, w in zip(gt, wt):
                self.assertEqual(to_np(g).tolist(), w.tolist())

    def test_errors(self):
        x = to_gnn(rand((2, 3)))
        cases = [
            (lambda: x.repeat(2), 'Number of dimensions of repeat dims can not be smaller'),
            (lambda: x.repeat(2, -1), 'Trying to create tensor with negative dimension -3'),
            (lambda: gnn.repeat_interleave(x, -1), 'repeats can not be negative'),
            (lambda: gnn.repeat_interleave(x, to_gnn(np.array([1, -1])), dim=0), 'repeats can not be negative'),
            (lambda: gnn.repeat_interleave(x, to_gnn(np.array([1, 2, 3])), dim=0),
             'repeats must have the same size as input along dim'),
            (lambda: gnn.repeat_interleave(x, to_gnn(np.array([[1, 2]])), dim=0),
             'repeats must be 0-dim or 1-dim tensor'),
            (lambda: gnn.repeat_interleave(x, to_gnn(np.array([1, 2])), dim=0, output_size=5),
             'allocated size does not match required size'),
            (lambda: gnn.take(x, to_gnn(np.array([10]))), 'out of range: tried to access index 10 on a tensor of 6'),
            (lambda: gnn.take(x, to_gnn(np.array([-7]))), 'tried to access index -7'),
            (lambda: gnn.take(x, to_gnn(np.array([1.0]))), 'take(): Expected a long tensor for index'),
            (lambda: gnn.take_along_dim(x, to_gnn(np.array([1])), dim=0),
             'input and indices should have the same number of dimensions'),
            (lambda: gnn.take_along_dim(x, to_gnn(np.array([[7]])), dim=0),
             'index 7 is out of bounds for dimension 0 with size 2'),
            (lambda: gnn.masked_select(x, to_gnn(np.array([1, 0, 1]))), 'expected BoolTensor or ByteTensor for mask'),
            (lambda: gnn.masked_select(x, to_gnn(np.array([True, False]))), 'must match the size'),
            (lambda: gnn.masked_scatter(x, to_gnn(np.array([True, False, True])), to_gnn(np.ones(3, np.float32))),
             'Number of elements of source < number of ones in mask'),
            (lambda: gnn.masked_scatter(x, to_gnn(np.array([True, False, True])), to_gnn(np.arange(6))),
             'expected self and source to have same dtypes'),
        ]
        for fn, text in cases:
            with self.subTest(text=text):
                with self.assertRaises(Exception) as cm:
                    fn()
                self.assertIn(text, _msg(cm.exception))


if __name__ == '__main__':
    main()
