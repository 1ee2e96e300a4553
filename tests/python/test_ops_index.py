"""Joining and indexing ops against PyTorch: cat, stack, index_select, gather, one_hot;
values, dtypes, shapes, gradients and errors, on plain and transposed-slice inputs."""
import numpy as np
import torch

from gnntest import Gnn, GLib, Input, ParityTest, main, rand, to_gnn, to_np

DTYPES = (np.float32, np.float64)


class JoinParity(ParityTest):
    def test_cat(self):
        # (shapes of the inputs, dims to join along)
        cases = [
            ([(2, 3), (4, 3), (1, 3)], [0, -2]),
            ([(3, 2), (3, 5)], [1, -1]),
            ([(2, 3, 4), (2, 3, 1), (2, 3, 0)], [2]),
            ([(2, 0, 3), (2, 0, 3)], [0, 1, 2]),
            ([(5,), (2,)], [0]),
        ]
        for dt in DTYPES:
            for shapes, dims in cases:
                for dim in dims:
                    arrays = [rand(s, dt, seed=k) for k, s in enumerate(shapes)]
                    with self.subTest(dtype=dt.__name__, shapes=shapes, dim=dim):
                        got = self.check_op(lambda *t: Gnn.cat(list(t), dim), lambda *t: torch.cat(t, dim),
                                            arrays, name='cat')
                        self.assertEqual(got.grad_fn_name, 'CatBackward0')

    def test_cat_strided_and_mixed(self):
        a = rand((4, 3), np.float32, seed=1)
        b = rand((2, 3), np.float64, seed=2)
        # a transposed slice (3, 4) beside a plain (3, 2)
        c = rand((3, 2), np.float32, seed=3)
        self.check_op(lambda x, y: Gnn.cat([x, y], 1), lambda x, y: torch.cat([x, y], 1),
                      [Input(a.T.copy(), 'tslice'), c], name='cat tslice')
        # float32 with float64 gives float64; each gradient keeps its input's dtype
        got = self.check_op(lambda x, y: Gnn.cat([x, y], 0), lambda x, y: torch.cat([x, y], 0),
                            [a, b], name='cat mixed')
        self.assertEqual(got.get_dtype(), Gnn.Dtype.FLOAT64)
        # int64 with float32 gives float32 (the int input gets no gradient)
        i = np.arange(6).reshape(2, 3)
        self.check_op(lambda x, y: Gnn.cat([x, y], 0), lambda x, y: torch.cat([x, y], 0), [i, a], name='cat int')
        # one-dimensional empty tensors are skipped
        e = np.zeros((0,), np.float32)
        self.check_op(lambda x, y, z: Gnn.cat([x, y, z], 1), lambda x, y, z: torch.cat([x, y, z], 1),
                      [e, c, e], name='cat legacy empty')

    def test_cat_errors(self):
        a = to_gnn(rand((2, 3)))
        with self.assertRaises(GLib.Error) as cm:
            Gnn.cat([a, to_gnn(rand((2, 4)))], 0)
        self.assertIn('Sizes of tensors must match except in dimension 0. Expected size 3 but got size 4 '
                      'for tensor number 1 in the list.', cm.exception.message)
        with self.assertRaises(GLib.Error) as cm:
            Gnn.cat([], 0)
        self.assertIn('expected a non-empty list of Tensors', cm.exception.message)
        with self.assertRaises(GLib.Error) as cm:
            Gnn.cat([a, to_gnn(rand((3,)))], 0)
        self.assertIn('Tensors must have same number of dimensions: got 2 and 1', cm.exception.message)
        with self.assertRaises(GLib.Error) as cm:
            Gnn.cat([a, a], 2)
        self.assertIn('Dimension out of range', cm.exception.message)

    def test_stack(self):
        for dt in DTYPES:
            for shape, kind in [((2, 3), 'plain'), ((3, 4), 'tslice'), ((2, 0, 3), 'plain'), ((), 'plain')]:
                n = max(len(shape), 1)
                for dim in range(-n - 1, n + 1) if shape else (0, -1):
                    arrays = [Input(rand(shape, dt, seed=k), kind) for k in range(3)]
                    with self.subTest(dtype=dt.__name__, shape=shape, kind=kind, dim=dim):
                        got = self.check_op(lambda *t: Gnn.stack(list(t), dim), lambda *t: torch.stack(t, dim),
                                            arrays, name='stack')
                        self.assertEqual(got.grad_fn_name, 'StackBackward0')

    def test_stack_errors(self):
        a = to_gnn(rand((2, 3)))
        with self.assertRaises(GLib.Error) as cm:
            Gnn.stack([a, to_gnn(rand((2, 4)))], 0)
        self.assertIn('stack expects each tensor to be equal size, but got [2, 3] at entry 0 and [2, 4] at entry 1',
                      cm.exception.message)
        with self.assertRaises(GLib.Error) as cm:
            Gnn.stack([], 0)
        self.assertIn('stack expects a non-empty TensorList', cm.exception.message)


class IndexParity(ParityTest):
    def test_index_select(self):
        rng = np.random.default_rng(3)
        for dt in DTYPES:
            for shape, kind in [((4, 5), 'plain'), ((3, 4, 5), 'plain'), ((4, 6), 'tslice'), ((3, 0, 2), 'plain'),
                                ((5,), 'plain')]:
                for dim in range(-len(shape), len(shape)):
                    size = shape[dim]
                    for n in (0, 1, 7):
                        if size == 0 and n:
                            continue
                        index = rng.integers(0, max(size, 1), size=(n,))   # with repeats
                        with self.subTest(dtype=dt.__name__, shape=shape, kind=kind, dim=dim, n=n):
                            got = self.check_op(lambda t, i: t.index_select(dim, i),
                                                lambda t, i: t.index_select(dim, i),
                                                [Input(rand(shape, dt, seed=n), kind), index], name='index_select')
                            self.assertEqual(got.grad_fn_name, 'IndexSelectBackward0')
        # a zero-dimensional index; int64 data
        a = rand((3, 4), np.float32)
        self.check_op(lambda t, i: t.index_select(1, i), lambda t, i: t.index_select(1, i), [a, np.array(2)])
        ints = np.arange(12).reshape(3, 4)
        self.check_op(lambda t, i: t.index_select(0, i), lambda t, i: t.index_select(0, i),
                      [ints, np.array([2, 2, 0])], grad=False)

    def test_index_select_errors(self):
        a = to_gnn(rand((2, 3)))
        with self.assertRaises(GLib.Error) as cm:
            a.index_select(1, to_gnn(np.array([0, 3])))
        self.assertIn('index 3 is out of bounds for dimension 1 with size 3', cm.exception.message)
        with self.assertRaises(GLib.Error) as cm:
            a.index_select(0, to_gnn(np.array([-1])))
        self.assertIn('index -1 is out of bounds for dimension 0 with size 2', cm.exception.message)
        with self.assertRaises(GLib.Error) as cm:
            a.index_select(0, to_gnn(np.array([0.0])))
        self.assertIn('index_select(): Expected dtype int32 or int64 for index', cm.exception.message)
        with self.assertRaises(GLib.Error) as cm:
            a.index_select(0, to_gnn(np.array([[0]])))
        self.assertIn('Index is supposed to be a vector', cm.exception.message)

    def test_gather(self):
        rng = np.random.default_rng(4)
        for dt in DTYPES:
            for shape, kind in [((4, 5), 'plain'), ((3, 4, 5), 'plain'), ((4, 6), 'tslice'), ((2, 0, 3), 'plain'),
                                ((6,), 'plain')]:
                for dim in range(-len(shape), len(shape)):
                    # the index: longer than the input along dim, no larger elsewhere
                    for variant in ('same', 'smaller', 'longer'):
                        ishape = list(shape)
                        if variant == 'smaller':
                            ishape = [max(s - 1, 0) for s in shape]
                        elif variant == 'longer':
                            ishape[dim] = shape[dim] + 3
                        if shape[dim] == 0 and ishape[dim] and np.prod(ishape):
                            continue
                        index = rng.integers(0, max(shape[dim], 1), size=tuple(ishape))
                        with self.subTest(dtype=dt.__name__, shape=shape, kind=kind, dim=dim, variant=variant):
                            got = self.check_op(lambda t, i: t.gather(dim, i), lambda t, i: t.gather(dim, i),
                                                [Input(rand(shape, dt, seed=1), kind), index], name='gather')
                            self.assertEqual(got.grad_fn_name, 'GatherBackward0')
        ints = np.arange(12).reshape(3, 4)
        self.check_op(lambda t, i: t.gather(1, i), lambda t, i: t.gather(1, i),
                      [ints, np.array([[3, 3], [0, 1], [2, 2]])], grad=False)

    def test_gather_errors(self):
        a = to_gnn(rand((2, 3)))
        with self.assertRaises(GLib.Error) as cm:
            a.gather(1, to_gnn(np.array([[0, 5]])))
        self.assertIn('index 5 is out of bounds for dimension 1 with size 3', cm.exception.message)
        with self.assertRaises(GLib.Error) as cm:
            a.gather(1, to_gnn(np.array([0, 1])))
        self.assertIn('Index tensor must have the same number of dimensions as input tensor', cm.exception.message)
        with self.assertRaises(GLib.Error) as cm:
            a.gather(1, to_gnn(np.zeros((3, 1), np.int64)))
        self.assertIn('Size does not match at dimension 0 expected index [3, 1] to be smaller than self [2, 3] '
                      'apart from dimension 1', cm.exception.message)
        with self.assertRaises(GLib.Error) as cm:
            a.gather(1, to_gnn(np.zeros((1, 1), np.float32)))
        self.assertIn('gather(): Expected dtype int64 for index', cm.exception.message)

    def test_one_hot(self):
        F = torch.nn.functional
        for idx, n in [(np.array([0, 3, 1, 3]), -1), (np.array([0, 3, 1, 3]), 6), (np.array([[2, 0], [1, 1]]), 3),
                       (np.array(4), -1), (np.zeros((0, 2), np.int64), 4)]:
            with self.subTest(index=idx.tolist(), num_classes=n):
                got = self.check_op(lambda t: t.one_hot(n), lambda t: F.one_hot(t, n), [idx], grad=False)
                self.assertEqual(got.get_dtype(), Gnn.Dtype.INT64)
        with self.assertRaises(GLib.Error) as cm:
            to_gnn(np.array([0, -2])).one_hot(3)
        self.assertIn('Class values must be non-negative', cm.exception.message)
        with self.assertRaises(GLib.Error) as cm:
            to_gnn(np.array([0, 3])).one_hot(3)
        self.assertIn('Class values must be smaller than num_classes', cm.exception.message)
        with self.assertRaises(GLib.Error) as cm:
            to_gnn(np.zeros((0,), np.int64)).one_hot(-1)
        self.assertIn('Can not infer total number of classes from empty tensor.', cm.exception.message)
        with self.assertRaises(GLib.Error) as cm:
            to_gnn(np.array([0.0])).one_hot(2)
        self.assertIn('one_hot is only applicable to index tensor', cm.exception.message)

    def test_composition(self):
        """cross entropy by hand: log_softmax, gather, mean, against torch"""
        x = rand((5, 7), np.float32, seed=9)
        y = np.array([[1], [6], [0], [3], [3]])
        self.check_op(lambda t, i: t.log_softmax(1).gather(1, i).mean_all(),
                      lambda t, i: t.log_softmax(1).gather(1, i).mean(), [Input(x, 'tslice'), y], name='nll')


class IndexSelectDoubleBackward(ParityTest):
    """index_select's gradient is itself differentiated (create_graph) as torch's is: the
    gradient of a penalty on d(sum w * x.index_select(dim, i)^2)/dx, against torch 1.13."""
    def test_double_backward(self):
        import gnn
        for dim in (0, 1):
            with self.subTest(dim=dim):
                a = rand((4, 3), np.float64, seed=1)
                w = rand((3, 3) if dim == 0 else (4, 3), np.float64, seed=2)
                idx = np.array([2, 0, 2], dtype=np.int64)
                grads = []
                for lib in (gnn, torch):
                    x = lib.tensor(a, requires_grad=True)
                    y = x.index_select(dim, lib.tensor(idx))
                    (g,) = lib.autograd.grad((lib.tensor(w) * y * y).sum(), x, create_graph=True)
                    (g * g).sum().backward()
                    grads.append(to_np(x.grad) if lib is gnn else x.grad.numpy())
                self.assert_close(grads[0], grads[1], 1e-12, 1e-12, 'second derivative')


if __name__ == '__main__':
    main()
