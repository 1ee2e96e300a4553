"""matmul and linear against PyTorch."""
import numpy as np
import torch

from gnntest import Gnn, GLib, Input, ParityTest, main, rand, to_gnn


MATMUL_SHAPES = [
    ((3, 4), (4, 5)),            # mm
    ((4,), (4,)),                # dot
    ((3, 4), (4,)),              # mv
    ((4,), (4, 5)),              # vector-matrix
    ((2, 3, 4), (4, 5)),         # batch folded into rows
    ((2, 3, 4), (2, 4, 5)),      # bmm
    ((2, 1, 3, 4), (5, 4, 2)),   # broadcast batch dims
    ((0, 4), (4, 3)),            # zero rows
    ((3, 0), (0, 2)),            # zero inner size
    ((1, 1), (1, 1)),
]


class LinalgParity(ParityTest):
    def test_matmul(self):
        for dt in (np.float32, np.float64):
            for k, (sa, sb) in enumerate(MATMUL_SHAPES):
                a = rand(sa, dt, seed=k)
                b = rand(sb, dt, seed=k + 20)
                # float32 products of length-4 sums: the library's own tolerance
                with self.subTest(dtype=dt.__name__, shapes=(sa, sb)):
                    self.check_op(lambda x, y: x.matmul(y), torch.matmul, [a, b], name='matmul')

    def test_matmul_transposed_inputs(self):
        a = Input(rand((6, 7), np.float32, seed=1), 'tslice')
        b = Input(rand((7, 5), np.float32, seed=2), 'tslice')
        self.check_op(lambda x, y: x.matmul(y), torch.matmul, [a, b], name='matmul tslice')
        c = rand((3, 6, 7), np.float64, seed=3)
        d = Input(rand((3, 7, 5), np.float64, seed=4), 'tslice')
        self.check_op(lambda x, y: x.matmul(y), torch.matmul, [c, d], name='bmm tslice')

    def test_large_matmul(self):
        a = rand((130, 257), np.float32, seed=5)
        b = rand((257, 65), np.float32, seed=6)
        # 257-term float32 dot products: OpenBLAS and PyTorch sum in different orders
        self.check_op(lambda x, y: x.matmul(y), torch.matmul, [a, b], rtol=1e-4, atol=1e-4, name='matmul large')

    def test_linear(self):
        for dt in (np.float32, np.float64):
            for shape in ((5, 4), (4,), (2, 3, 4), (0, 4)):
                x = rand(shape, dt, seed=7)
                w = rand((3, 4), dt, seed=8)
                b = rand((3,), dt, seed=9)
                with self.subTest(dtype=dt.__name__, shape=shape):
                    self.check_op(lambda xx, ww, bb: xx.linear(ww, bb), torch.nn.functional.linear,
                                  [x, w, b], name='linear')
                    self.check_op(lambda xx, ww: xx.linear(ww, None), torch.nn.functional.linear,
                                  [x, w], name='linear no bias')
        x = Input(rand((5, 4), np.float32, seed=10), 'tslice')
        self.check_op(lambda xx, ww, bb: xx.linear(ww, bb), torch.nn.functional.linear,
                      [x, rand((3, 4), np.float32, seed=11), rand((3,), np.float32, seed=12)], name='linear tslice')

    def test_grad_fn_names(self):
        a = to_gnn(rand((2, 3), np.float32), True)
        b = to_gnn(rand((3, 4), np.float32), True)
        w = to_gnn(rand((4, 3), np.float32), True)
        bias = to_gnn(rand((4,), np.float32), True)
        self.assertEqual(a.matmul(b).get_grad_fn_name(), 'MmBackward0')
        self.assertEqual(a.linear(w, bias).get_grad_fn_name(), 'AddmmBackward0')

    def test_errors(self):
        a = to_gnn(rand((2, 3), np.float32))
        b = to_gnn(rand((4, 5), np.float32))
        with self.assertRaises(GLib.Error) as cm:
            a.matmul(b)
        self.assertIn('mat1 and mat2 shapes cannot be multiplied (2x3 and 4x5)', cm.exception.message)
        with self.assertRaises(GLib.Error) as cm:
            a.matmul(to_gnn(rand((3, 2), np.float64)))
        self.assertTrue(cm.exception.matches(Gnn.error_quark(), Gnn.Error.DTYPE))
        with self.assertRaises(GLib.Error) as cm:
            a.linear(to_gnn(rand((5, 4), np.float32)), None)
        self.assertTrue(cm.exception.matches(Gnn.error_quark(), Gnn.Error.SHAPE))
        with self.assertRaises(GLib.Error):
            a.linear(to_gnn(rand((5, 3), np.float32)), to_gnn(rand((4,), np.float32)))
        with self.assertRaises(GLib.Error):
            to_gnn(np.float32(1.0)).matmul(a)


if __name__ == '__main__':
    main()
