"""Reductions, max / min, arg-reductions and the softmax family against PyTorch: values,
dtypes, shapes and gradients, on plain and transposed-slice (non-contiguous) inputs."""
import numpy as np
import torch

from gnntest import GLib, Input, ParityTest, main, rand, to_gnn, to_np

DTYPES = (np.float32, np.float64)

# (shape, kind): three shapes, one with a zero-size dimension, and a transposed slice
SHAPES = [((3, 4, 5), 'plain'), ((4, 6), 'plain'), ((2, 0, 3), 'plain'), ((3, 4, 5), 'tslice'),
          ((5, 3), 'tslice')]

# dims lists for each rank: one, several, non-adjacent, negative, and all (empty list)
DIMS = {
    2: [[0], [1], [-1], [0, 1], []],
    3: [[0], [2], [0, 2], [-1, -2], [1, 0, 2], []],
}


def torch_dims(dims, ndim):
    return tuple(dims) if dims else tuple(range(ndim))


class ReduceParity(ParityTest):
    def test_sum_mean(self):
        for dt in DTYPES:
            for shape, kind in SHAPES:
                a = rand(shape, dt, seed=len(shape))
                for dims in DIMS[len(shape)]:
                    for keepdim in (False, True):
                        td = torch_dims(dims, len(shape))
                        with self.subTest(dtype=dt.__name__, shape=shape, kind=kind, dims=dims, keepdim=keepdim):
                            self.check_op(lambda t: t.sum(dims, keepdim), lambda t: t.sum(td, keepdim),
                                          [Input(a, kind)], name='sum')
                            self.check_op(lambda t: t.mean(dims, keepdim), lambda t: t.mean(td, keepdim),
                                          [Input(a, kind)], name='mean')
                with self.subTest(dtype=dt.__name__, shape=shape, kind=kind, op='all'):
                    self.check_op(lambda t: t.sum_all(), lambda t: t.sum(), [Input(a, kind)], name='sum_all')
                    self.check_op(lambda t: t.mean_all(), lambda t: t.mean(), [Input(a, kind)], name='mean_all')

    def test_var(self):
        for dt in DTYPES:
            for shape, kind in SHAPES:
                a = rand(shape, dt, seed=7)
                for dims in DIMS[len(shape)]:
                    for correction in (0, 1, 2):
                        keepdim = correction == 1
                        td = torch_dims(dims, len(shape))
                        with self.subTest(dtype=dt.__name__, shape=shape, kind=kind, dims=dims,
                                          correction=correction):
                            got = self.check_op(lambda t: t.var(dims, float(correction), keepdim),
                                                lambda t: t.var(td, correction=correction, keepdim=keepdim),
                                                [Input(a, kind)], name='var')
                            self.assertEqual(got.grad_fn_name, 'VarBackward0')
                with self.subTest(dtype=dt.__name__, shape=shape, kind=kind, op='var_all'):
                    self.check_op(lambda t: t.var_all(1.0), lambda t: t.var(), [Input(a, kind)], name='var_all')
                    # torch 1.13's backward of var(dim=None, correction=0) fails on empty inputs
                    self.check_op(lambda t: t.var_all(0.0), lambda t: t.var(dim=None, correction=0), [Input(a, kind)],
                                  grad=0 not in shape, name='var_all0')

    def test_var_errors(self):
        with self.assertRaises(GLib.Error) as cm:
            to_gnn(np.arange(6).reshape(2, 3)).var([0], 1.0, False)
        self.assertIn('std and var only support floating point', cm.exception.message)
        with self.assertRaises(GLib.Error) as cm:
            to_gnn(rand((2, 3))).var([0, -2], 1.0, False)
        self.assertIn('dim 0 appears multiple times in the list of dims', cm.exception.message)

    def check_minmax_dim(self, gname, tname, a, kind, dim, keepdim):
        got = self.check_op(lambda t: getattr(t, gname)(dim, keepdim)[0],
                            lambda t: getattr(t, tname)(dim, keepdim)[0], [Input(a, kind)], name=gname)
        if a.dtype.kind == 'f':
            self.assertEqual(got.grad_fn_name, 'MaxBackward0' if tname == 'max' else 'MinBackward0')
        _, gv = Input(a, kind).make_gnn()
        _, tv = Input(a, kind).make_torch()
        idx = getattr(gv, gname)(dim, keepdim)[1]
        self.assert_close(to_np(idx), getattr(tv, tname)(dim, keepdim)[1].numpy(), 0, 0, gname + ' indices')

    def test_max_min_dim(self):
        for dt in DTYPES:
            for shape, kind in SHAPES:
                a = rand(shape, dt, seed=11)
                for dim in range(-len(shape), len(shape)):
                    if shape[dim] == 0:
                        continue
                    for keepdim in (False, True):
                        with self.subTest(dtype=dt.__name__, shape=shape, kind=kind, dim=dim, keepdim=keepdim):
                            self.check_minmax_dim('max_dim', 'max', a, kind, dim, keepdim)
                            self.check_minmax_dim('min_dim', 'min', a, kind, dim, keepdim)

    def test_max_min_ties_and_nan(self):
        """Ties take the first index (PyTorch on CPU); NaN wins and gives its first index."""
        rng = np.random.default_rng(5)
        a = rng.integers(0, 3, size=(7, 40)).astype(np.float64)
        a[2, 5] = a[4, 0] = a[4, 9] = np.nan
        for dim in (0, 1):
            for gname, tname in (('max_dim', 'max'), ('min_dim', 'min')):
                with self.subTest(dim=dim, op=gname):
                    self.check_minmax_dim(gname, tname, a, 'plain', dim, False)
            with self.subTest(dim=dim, op='argmax'):
                self.check_op(lambda t: t.argmax(dim, False), lambda t: t.argmax(dim), [a], grad=False)
                self.check_op(lambda t: t.argmin(dim, True), lambda t: t.argmin(dim, keepdim=True), [a], grad=False)
        # int64 keeps its dtype and ties the same way
        ints = rng.integers(-3, 3, size=(6, 9))
        for dim in (0, 1):
            for gname, tname in (('max_dim', 'max'), ('min_dim', 'min')):
                with self.subTest(dtype='int64', dim=dim, op=gname):
                    self.check_minmax_dim(gname, tname, ints, 'plain', dim, True)

    def test_max_min_all(self):
        for dt in DTYPES:
            for shape, kind in SHAPES:
                if 0 in shape:
                    continue
                a = rand(shape, dt, seed=13)
                with self.subTest(dtype=dt.__name__, shape=shape, kind=kind):
                    got = self.check_op(lambda t: t.max_all(), lambda t: t.max(), [Input(a, kind)], name='max_all')
                    self.assertEqual(got.grad_fn_name, 'MaxBackward1')
                    got = self.check_op(lambda t: t.min_all(), lambda t: t.min(), [Input(a, kind)], name='min_all')
                    self.assertEqual(got.grad_fn_name, 'MinBackward1')
                    self.check_op(lambda t: t.argmax_all(), lambda t: t.argmax(), [Input(a, kind)], grad=False)
        # ties share the gradient evenly, as torch's evenly_distribute_backward
        a = np.array([[1., 3., 3.], [0., 3., -1.]], np.float32)
        self.check_op(lambda t: t.max_all(), lambda t: t.max(), [a], name='max_all ties')
        self.check_op(lambda t: t.min_all(), lambda t: t.min(), [-a], name='min_all ties')
        n = np.array([1., np.nan, 3., np.nan], np.float64)
        self.check_op(lambda t: t.max_all(), lambda t: t.max(), [n], name='max_all nan')
        ints = np.array([[4, 9, 9], [-2, 9, 0]])
        self.check_op(lambda t: t.max_all(), lambda t: t.max(), [ints], grad=False)
        self.check_op(lambda t: t.argmax_all(), lambda t: t.argmax(), [ints], grad=False)

    def test_minmax_errors(self):
        e = to_gnn(np.zeros((0, 3), np.float32))
        with self.assertRaises(GLib.Error) as cm:
            e.max_all()
        self.assertIn("max(): Expected reduction dim to be specified for input.numel() == 0", cm.exception.message)
        with self.assertRaises(GLib.Error) as cm:
            e.min_dim(0, False)
        self.assertIn('min(): Expected reduction dim 0 to have non-zero size.', cm.exception.message)
        with self.assertRaises(GLib.Error) as cm:
            e.argmax(-2, False)
        self.assertIn('argmax(): Expected reduction dim 0 to have non-zero size.', cm.exception.message)
        with self.assertRaises(GLib.Error) as cm:
            to_gnn(rand((2, 3))).max_dim(2, False)
        self.assertIn('Dimension out of range (expected to be in range of [-2, 1], but got 2)', cm.exception.message)

    def test_softmax(self):
        shapes = SHAPES + [((), 'plain'), ((3, 1, 4), 'plain')]
        for dt in DTYPES:
            for shape, kind in shapes:
                # a wide range, so that the max subtraction matters
                a = rand(shape, dt, seed=17, low=-30, high=30)
                for dim in range(-max(len(shape), 1), max(len(shape), 1)):
                    with self.subTest(dtype=dt.__name__, shape=shape, kind=kind, dim=dim):
                        got = self.check_op(lambda t: t.softmax(dim), lambda t: t.softmax(dim),
                                            [Input(a, kind)], name='softmax')
                        self.assertEqual(got.grad_fn_name, 'SoftmaxBackward0')
                        got = self.check_op(lambda t: t.log_softmax(dim), lambda t: t.log_softmax(dim),
                                            [Input(a, kind)], name='log_softmax')
                        self.assertEqual(got.grad_fn_name, 'LogSoftmaxBackward0')

    def test_softmax_extremes(self):
        a = np.array([[1000., 1001., 1002.], [-np.inf, 0., -np.inf], [-np.inf, -np.inf, -np.inf],
                      [np.nan, 1., 2.]], np.float32)
        self.check_op(lambda t: t.softmax(1), lambda t: t.softmax(1), [a], grad=False)
        self.check_op(lambda t: t.log_softmax(1), lambda t: t.log_softmax(1), [a], grad=False)
        with self.assertRaises(GLib.Error) as cm:
            to_gnn(np.arange(3)).softmax(0)
        self.assertIn('expected a floating-point tensor, got int64', cm.exception.message)

    def test_long_rows(self):
        """Long reductions take the blocked paths; still within float32 tolerance of torch."""
        a = rand((70001,), np.float32, seed=3)
        self.check_op(lambda t: t.var_all(1.0), lambda t: t.var(), [a], name='var long')
        self.check_op(lambda t: t.max_all(), lambda t: t.max(), [a], name='max long')
        self.check_op(lambda t: t.argmax_all(), lambda t: t.argmax(), [a], grad=False)
        b = rand((3, 20000), np.float32, seed=4)
        self.check_op(lambda t: t.softmax(1), lambda t: t.softmax(1), [b], name='softmax long')
        self.check_op(lambda t: t.log_softmax(0), lambda t: t.log_softmax(0), [b], name='log_softmax wide')


class MeanScaleTest(ParityTest):
    def test_mean_matches_sum_times_reciprocal(self):
        """mean's host float32/float64 in-place scaling equals the plain path, sum then
        mul_scalar_ (1 / count) through the binary kernel, bit for bit, and bumps the version
        as that in-place multiply does; a zero-size reduction gives NaN."""
        for dt in DTYPES:
            for shape, dims in (((3, 7), [1]), ((5, 3, 2), [0, 2]), ((1, 16), []), ((2, 0), [1])):
                with self.subTest(dtype=dt.__name__, shape=shape, dims=dims):
                    t = to_gnn(rand(shape, dt, seed=5))
                    count = int(np.prod([shape[d] for d in (dims or range(len(shape)))]))
                    m = t.mean(dims, False)
                    s = t.sum(dims, False)
                    s.mul_scalar_(1.0 / count if count else float('nan'))
                    np.testing.assert_array_equal(to_np(m), to_np(s))
                    self.assertEqual(m._version, s._version)


if __name__ == '__main__':
    main()
