"""The int32, int16 and int8 dtypes from Python against PyTorch 1.13: their torch names,
conversions, factories, repr, item/tolist, numpy arrays in and out sharing memory, the numpy
dtypes torch refuses, and torch.result_type for every pair and for Python scalars."""
import numpy as np
import torch

from gnntest import ParityTest, main
import gnn

NAMES = ('float32', 'float64', 'float16', 'bfloat16', 'int64', 'int32', 'int16', 'int8', 'uint8', 'bool')
INTS = ('int32', 'int16', 'int8')


def sample(lib, name):
    return lib.tensor([1, 0, 3], dtype=getattr(lib, name))


class DtypeParity(ParityTest):
    def test_names_and_aliases(self):
        for name in ('int32', 'int', 'int16', 'short', 'int8'):
            self.assertEqual(repr(getattr(gnn, name)), repr(getattr(torch, name)))
        self.assertEqual(gnn.int, gnn.int32)
        self.assertEqual(gnn.short, gnn.int16)
        self.assertEqual(gnn.int8.itemsize, 1)
        self.assertTrue(gnn.int8.is_signed)
        self.assertFalse(gnn.int32.is_floating_point)

    def test_conversions_and_factories(self):
        x = [[1.5, -2.0], [127.0, 300.0]]
        for method, name in (('int', 'int32'), ('short', 'int16'), ('char', 'int8')):
            g = getattr(gnn.tensor(x), method)()
            t = getattr(torch.tensor(x), method)()
            self.assertEqual(repr(g.dtype), repr(t.dtype))
            self.assertEqual(g.tolist(), t.tolist())
            self.assertEqual(repr(g), repr(t))
            self.assertEqual(gnn.tensor(x).to(getattr(gnn, name)).tolist(), t.tolist())
            self.assertEqual(g[0, 0].item(), t[0, 0].item())
            self.assertIsInstance(g[0, 0].item(), int)
            for factory in ('zeros', 'ones'):
                f = getattr(gnn, factory)(2, 3, dtype=getattr(gnn, name))
                self.assertEqual(repr(f), repr(getattr(torch, factory)(2, 3, dtype=getattr(torch, name))))
            self.assertEqual(repr(gnn.arange(4, dtype=getattr(gnn, name))),
                             repr(torch.arange(4, dtype=getattr(torch, name))))
            self.assertEqual(repr(gnn.full((2,), 7, dtype=getattr(gnn, name))),
                             repr(torch.full((2,), 7, dtype=getattr(torch, name))))

    def test_numpy_shares_memory(self):
        for name in INTS:
            array = np.arange(6, dtype=name).reshape(2, 3)
            g = gnn.from_numpy(array)
            self.assertEqual(repr(g.dtype), 'torch.' + name)
            array[0, 0] = 42
            self.assertEqual(g[0, 0].item(), 42)   # no copy in
            out = g.numpy()
            self.assertEqual(out.dtype, np.dtype(name))
            out[1, 2] = -7
            self.assertEqual(g[1, 2].item(), -7)   # no copy out
            self.assertEqual(array[1, 2], -7)

    def test_numpy_dtypes_torch_refuses(self):
        for name in ('uint16', 'uint32', 'uint64'):
            array = np.zeros(2, dtype=name)
            with self.assertRaises(TypeError) as t:
                torch.from_numpy(array)
            with self.assertRaises(TypeError) as g:
                gnn.from_numpy(array)
            self.assertEqual(str(g.exception), str(t.exception))

    def test_result_type_of_every_pair(self):
        for a in NAMES:
            for b in NAMES:
                for ga, gb, ta, tb in (
                        (sample(gnn, a), sample(gnn, b), sample(torch, a), sample(torch, b)),
                        (sample(gnn, a), gnn.tensor(2, dtype=getattr(gnn, b)),
                         sample(torch, a), torch.tensor(2, dtype=getattr(torch, b)))):
                    with self.subTest(a=a, b=b, zero_dim=gb.dim() == 0):
                        self.assertEqual(repr((ga + gb).dtype), repr(torch.result_type(ta, tb)))

    def test_result_type_with_python_scalars(self):
        for a in NAMES:
            for scalar in (2, 2.5, 2.0, True):
                with self.subTest(a=a, scalar=scalar):
                    self.assertEqual(repr((sample(gnn, a) * scalar).dtype),
                                     repr(torch.result_type(sample(torch, a), scalar)))


if __name__ == '__main__':
    main()
