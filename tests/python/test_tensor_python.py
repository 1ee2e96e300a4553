#!/usr/bin/python3
"""Gnn.Tensor as a Python value, against torch 1.13: operators (broadcasting, scalars on both
sides, in place, comparisons), every indexing form (views sharing storage, assignment through
them, errors), len / iteration / tolist / item / conversions, Gnn.tensor's dtype inference,
numpy without copies in both directions (shared writes, lifetimes), and torch.nn's
constructor signatures for the layers."""
import gc
import time
import unittest
import weakref

from gnntest import Gnn, GLib, GObject, np, torch, main

F32 = np.float32


def data(shape, dtype=np.float32, seed=0):
    rng = np.random.default_rng(seed)
    if dtype == np.int64:
        return rng.integers(-5, 6, size=shape).astype(np.int64)
    if dtype == np.bool_:
        return rng.integers(0, 2, size=shape).astype(np.bool_)
    # away from 0 so that divisions and powers stay tame
    return (rng.uniform(0.5, 2.0, size=shape) * rng.choice([-1, 1], size=shape)).astype(dtype)


def both(array):
    array = np.array(array, copy=True)
    return Gnn.Tensor.from_numpy(np.array(array, copy=True)), torch.from_numpy(array)


class Base(unittest.TestCase):
    def assert_like(self, g, t, what=''):
        """Same dtype, shape and values as the torch tensor (or Python value)."""
        if isinstance(t, torch.Tensor):
            self.assertIsInstance(g, Gnn.Tensor, what)
            self.assertEqual(g.shape, tuple(t.shape), what + ': shape')
            self.assertEqual(np.dtype(g.numpy().dtype), t.numpy().dtype, what + ': dtype')
            if t.dtype.is_floating_point:
                np.testing.assert_allclose(g.numpy(), t.detach().numpy(), rtol=1e-5, atol=1e-6, err_msg=what)
            else:
                np.testing.assert_array_equal(g.numpy(), t.numpy(), err_msg=what)
        else:
            self.assertEqual(type(g), type(t), what)
            self.assertEqual(g, t, what)

    def assert_same_view(self, g, t, what=''):
        self.assert_like(g, t, what)
        self.assertEqual(tuple(g.get_strides()), tuple(t.stride()), what + ': strides')
        self.assertEqual(g.get_storage_offset(), t.storage_offset(), what + ': offset')

    def torch_error(self, fn):
        try:
            fn()
        except Exception as e:
            return e
        self.fail('torch raised nothing')


class TestOperators(Base):
    SHAPES = [((2, 3), (2, 3)), ((2, 3), (3,)), ((4, 1, 3), (2, 1)), ((3,), ()), ((), (2, 2))]

    def test_binary_broadcast(self):
        ops = {
            '+': lambda a, b: a + b, '-': lambda a, b: a - b, '*': lambda a, b: a * b,
            '/': lambda a, b: a / b, '<': lambda a, b: a < b, '<=': lambda a, b: a <= b,
            '>': lambda a, b: a > b, '>=': lambda a, b: a >= b, '==': lambda a, b: a == b,
            '!=': lambda a, b: a != b,
        }
        for dtype in (np.float32, np.float64, np.int64):
            for sa, sb in self.SHAPES:
                a, b = data(sa, dtype, 1), data(sb, dtype, 2)
                if dtype == np.int64:
                    b[b == 0] = 3
                (ga, ta), (gb, tb) = both(a), both(b)
                for name, op in ops.items():
                    with self.subTest(dtype=np.dtype(dtype).name, shapes=(sa, sb), op=name):
                        self.assert_like(op(ga, gb), op(ta, tb), name)
        a, b = data((2, 3), F32, 3), data((2, 3), F32, 4)
        (ga, ta), (gb, tb) = both(np.abs(a)), both(b)
        self.assert_like(ga ** gb, ta ** tb, '**')

    def test_scalars_both_sides(self):
        for dtype in (np.float32, np.int64):
            a = data((2, 3), dtype, 5)
            a[a == 0] = 2
            ga, ta = both(a)
            for s in (2, 3.5, -1):
                cases = {
                    't+s': lambda x: x + s, 's+t': lambda x: s + x, 't-s': lambda x: x - s,
                    's-t': lambda x: s - x, 't*s': lambda x: x * s, 's*t': lambda x: s * x,
                    't/s': lambda x: x / s, 's/t': lambda x: s / x, 't<s': lambda x: x < s,
                    's<t': lambda x: s < x, 't==s': lambda x: x == s, 't!=s': lambda x: x != s,
                    't>=s': lambda x: x >= s, 's>=t': lambda x: s >= x,
                }
                for name, op in cases.items():
                    with self.subTest(dtype=np.dtype(dtype).name, scalar=s, op=name):
                        self.assert_like(op(ga), op(ta), name)
        g, t = both(np.abs(data((3,), F32, 6)))
        self.assert_like(g ** 2, t ** 2, 't**2')
        self.assert_like(g ** 0.5, t ** 0.5, 't**0.5')
        self.assert_like(2 ** g, 2 ** t, '2**t')
        self.assert_like(np.float32(2) * g, np.float32(2) * t, 'np.float32 * t')

    def test_unary_and_bool_ops(self):
        g, t = both(data((2, 3), F32, 7))
        self.assert_like(-g, -t, '-t')
        self.assert_like(abs(g), abs(t), 'abs')
        self.assertIs(+g, g)
        gm, tm = g > 0, t > 0
        gn, tn = g < 1, t < 1
        self.assert_like(gm & gn, tm & tn, '&')
        self.assert_like(gm | gn, tm | tn, '|')
        self.assert_like(gm ^ gn, tm ^ tn, '^')
        self.assert_like(~gm, ~tm, '~')
        gi_, ti = both(data((4,), np.int64, 8))
        self.assert_like(~gi_, ~ti, '~int')

    def test_matmul(self):
        for sa, sb in [((2, 3), (3, 4)), ((3,), (3, 2)), ((2, 3), (3,)), ((5, 2, 3), (3, 4))]:
            (ga, ta), (gb, tb) = both(data(sa, F32, 1)), both(data(sb, F32, 2))
            with self.subTest(shapes=(sa, sb)):
                self.assert_like(ga @ gb, ta @ tb, '@')
        ga, ta = both(data((2, 3), F32, 1))
        b = data((3, 2), F32, 2)
        self.assert_like(ga @ b, ta @ torch.from_numpy(b), 't @ ndarray')
        self.assert_like(b @ ga, torch.from_numpy(b) @ ta, 'ndarray @ t')

    def test_autograd_through_operators(self):
        a, b = data((2, 3), F32, 1), data((3,), F32, 2)
        ga, ta = both(a)
        gb, tb = both(b)
        for x in (ga, ta, gb, tb):
            x.requires_grad_(True)
        ((2 * ga - gb) * ga / (1 + gb * gb)).sum_all().backward()
        ((2 * ta - tb) * ta / (1 + tb * tb)).sum().backward()
        self.assert_like(ga.grad, ta.grad, 'grad a')
        self.assert_like(gb.grad, tb.grad, 'grad b')

    def test_inplace(self):
        for dtype in (np.float32, np.int64):
            a, b = data((2, 3), dtype, 1), data((3,), dtype, 2)
            ga, ta = both(a)
            gb, tb = both(b)
            keep = ga
            for name, s in [('+=', 2), ('-=', 1), ('*=', 3)]:
                with self.subTest(dtype=np.dtype(dtype).name, op=name):
                    if name == '+=':
                        ga += gb
                        ta += tb
                        ga += s
                        ta += s
                    elif name == '-=':
                        ga -= gb
                        ta -= tb
                        ga -= s
                        ta -= s
                    else:
                        ga *= gb
                        ta *= tb
                        ga *= s
                        ta *= s
                    self.assertIs(ga, keep, 'in place keeps the object')
                    self.assert_like(ga, ta, name)
        ga, ta = both(data((2, 3), F32, 1))
        gb, tb = both(data((2, 3), F32, 2))
        keep = ga
        ga /= gb
        ta /= tb
        ga /= 4
        ta /= 4
        ga **= 2
        ta **= 2
        self.assertIs(ga, keep)
        self.assert_like(ga, ta, '/= and **=')

    def test_inplace_on_view_writes_base(self):
        ga, ta = both(data((3, 4), F32, 1))
        gv, tv = ga[1], ta[1]
        gv += 10
        tv += 10
        self.assert_like(ga, ta, 'base after view +=')

    def test_errors_are_glib_errors(self):
        ga, gb = Gnn.Tensor.from_numpy(data((2, 3))), Gnn.Tensor.from_numpy(data((4,)))
        with self.assertRaises(GLib.Error) as cm:
            ga + gb
        self.assertTrue(cm.exception.matches(Gnn.error_quark(), Gnn.Error.SHAPE))
        self.assertIn('[2, 3]', cm.exception.message)
        self.assertIn('[4]', cm.exception.message)
        with self.assertRaises(GLib.Error) as cm:
            ga @ gb
        self.assertTrue(cm.exception.matches(Gnn.error_quark(), Gnn.Error.SHAPE))
        with self.assertRaises(TypeError):
            ga + 'x'
        with self.assertRaises(TypeError):
            ga & ga

    def test_hash_and_eq(self):
        g = Gnn.Tensor.from_numpy(data((2,)))
        h = Gnn.Tensor.from_numpy(data((2,)))
        d = {g: 1, h: 2}
        self.assertEqual(d[g], 1)
        self.assertEqual(d[h], 2)
        self.assertEqual(len({g, h, g}), 2)
        self.assertIsInstance(g == h, Gnn.Tensor)
        self.assertFalse(g == None)  # noqa: E711 (torch: False)
        self.assertTrue(g != 'x')
        self.assertEqual(hash(g), hash(g))
        p = Gnn.Parameter.new(g, True)
        self.assertEqual({p: 3}[p], 3)


class TestIndexing(Base):
    KEYS = [
        0, -1, 2, slice(None), slice(1, 3), slice(None, None, 2), slice(-3, None), slice(1, -1, 2),
        slice(5, 1), slice(-100, 100), (1, 2), (-1, -2), (0, slice(1, 3)), (slice(None), 1),
        (slice(None), slice(1, 3)), (Ellipsis, 0), (Ellipsis, slice(0, 2)), (0, Ellipsis),
        None, (None, 0), (slice(None), None, 1), (Ellipsis, None), (1, None, Ellipsis, 2),
        (0, 1, 2), (slice(None, None, 3), Ellipsis, slice(None, None, 2)), (True,), (np.int64(1), 0),
    ]

    def test_views_like_torch(self):
        a = data((4, 5, 3), F32, 1)
        g, t = both(a)
        for key in self.KEYS:
            with self.subTest(key=key):
                gv, tv = g[key], t[key]
                self.assert_same_view(gv, tv, repr(key))
                self.assertTrue(gv.shares_storage(g), 'basic indexing gives a view')

    def test_views_of_views(self):
        g, t = both(data((6, 4), F32, 2))
        self.assert_same_view(g[1:5][::2, 1:][0], t[1:5][::2, 1:][0], 'chain')
        self.assert_same_view(g.t()[1:3, ::2], t.t()[1:3, ::2], 'transposed')

    def test_tensor_indices(self):
        a = data((5, 5), F32, 3)
        g, t = both(a)
        for idx in ([0, 2, 4], [-1, 0], [], [4, 4, -5]):
            with self.subTest(index=idx):
                self.assert_like(g[idx], t[idx], 'list')
                gi_ = Gnn.Tensor.from_numpy(np.array(idx, dtype=np.int64))
                self.assert_like(g[gi_], t[torch.tensor(idx, dtype=torch.int64)], 'long tensor')
                self.assert_like(g[:, gi_], t[:, torch.tensor(idx, dtype=torch.int64)], '[:, idx]')
        idx2 = [[1, 0], [3, -3]]
        gi2, ti2 = both(np.array(idx2, dtype=np.int64))
        self.assert_like(g[gi2], t[ti2], '2-d long index')
        self.assert_like(g[1:, gi2], t[1:, ti2], '[1:, 2-d index]')
        self.assert_like(g[..., gi2, None], t[..., ti2, None], '[..., 2-d index, None]')
        self.assertFalse(g[[0, 1]].shares_storage(g), 'a tensor index copies')
        mask = a > 0
        self.assert_like(g[Gnn.Tensor.from_numpy(mask)], t[torch.from_numpy(mask)], 'bool mask 2-d')
        self.assert_like(g[g > 0], t[t > 0], 'bool tensor mask')
        row_mask = np.array([True, False, True, True, False])
        self.assert_like(g[Gnn.Tensor.from_numpy(row_mask)], t[torch.from_numpy(row_mask)], 'row mask')
        self.assert_like(g[row_mask], t[torch.from_numpy(row_mask)], 'numpy mask')

    def test_setitem_like_torch(self):
        values = [
            (0, 7.0), (-1, -2), ((1, 2), 5), (slice(1, 3), 0.5), ((slice(None), 1), 9),
            ((Ellipsis, 0), 3), ((slice(None, None, 2), slice(1, 3)), -1),
        ]
        for key, value in values:
            with self.subTest(key=key):
                g, t = both(data((4, 3), F32, 4))
                g[key] = value
                t[key] = value
                self.assert_like(g, t, 'scalar into %r' % (key,))
        g, t = both(data((4, 3), F32, 4))
        s = data((3,), F32, 5)
        g[1] = Gnn.Tensor.from_numpy(s.copy())
        t[1] = torch.from_numpy(s.copy())
        g[:, 0] = Gnn.Tensor.from_numpy(data((4,), F32, 6))
        t[:, 0] = torch.from_numpy(data((4,), F32, 6))
        g[2:] = Gnn.Tensor.from_numpy(s.copy())   # broadcast over rows
        t[2:] = torch.from_numpy(s.copy())
        g[0] = [1, 2, 3]
        t[0] = torch.tensor([1, 2, 3])
        self.assert_like(g, t, 'tensors into views')
        g[g > 0] = 0
        t[t > 0] = 0
        self.assert_like(g, t, 'mask = scalar')
        g[[0, -1]] = 4
        t[[0, -1]] = 4
        g[Gnn.tensor([2, 1]), 1:] = Gnn.tensor([[5.0, 6.0], [7.0, 8.0]])
        t[torch.tensor([2, 1]), 1:] = torch.tensor([[5.0, 6.0], [7.0, 8.0]])
        g[[3]] = Gnn.tensor([1.0, 2.0, 3.0])
        t[[3]] = torch.tensor([1.0, 2.0, 3.0])
        self.assert_like(g, t, 'long index = scalar / tensor')
        with self.assertRaises(IndexError):
            g[[0, 4]] = 1
        with self.assertRaises(NotImplementedError):
            g[:, [0, 1]] = 1

    def test_assignment_through_view_objects(self):
        g, t = both(data((3, 4), F32, 7))
        gv, tv = g[:, 1:3], t[:, 1:3]
        gv[0] = 100
        tv[0] = 100
        self.assert_like(g, t, 'base sees writes through the view')
        g[1, 1] = -3
        t[1, 1] = -3
        self.assert_like(gv, tv, 'view sees writes through the base')

    def test_index_errors(self):
        g, t = both(data((3, 4), F32, 1))
        for key in (3, -4, (0, 4), (1, -5), [0, 5]):
            with self.subTest(key=key):
                te = self.torch_error(lambda: t[key])
                with self.assertRaises(IndexError) as cm:
                    g[key]
                self.assertEqual(str(cm.exception), str(te))
        for key in ((0, 0, 0), (Ellipsis, 0, 0, 0)):
            te = self.torch_error(lambda: t[key])
            with self.assertRaises(IndexError) as cm:
                g[key]
            self.assertEqual(str(cm.exception), str(te))
        te = self.torch_error(lambda: t[::-1])
        with self.assertRaises(ValueError) as cm:
            g[::-1]
        self.assertEqual(str(cm.exception), str(te))
        with self.assertRaises(IndexError) as cm:
            g[1.5]
        with self.assertRaises(IndexError):
            g[..., ...]
        with self.assertRaises(IndexError) as cm:
            g[3] = 1
        self.assertEqual(str(cm.exception), 'index 3 is out of bounds for dimension 0 with size 3')

    def test_autograd_through_indexing(self):
        a = data((3, 4), F32, 2)
        g, t = both(a)
        g.requires_grad_(True)
        t.requires_grad_(True)
        (g[1:, ::2] * g[0, 1:3]).sum_all().backward()
        (t[1:, ::2] * t[0, 1:3]).sum().backward()
        self.assert_like(g.grad, t.grad, 'grad through slices')


class TestConversions(Base):
    def test_len_iter(self):
        g, t = both(data((3, 2), F32, 1))
        self.assertEqual(len(g), len(t))
        rows = list(g)
        self.assertEqual(len(rows), 3)
        for gr, tr in zip(rows, t):
            self.assert_same_view(gr, tr, 'row')
            self.assertTrue(gr.shares_storage(g))
        s = Gnn.Tensor.new_scalar(1.0, Gnn.Dtype.FLOAT32)
        ts = torch.tensor(1.0)
        for fn in (len, iter):
            te = self.torch_error(lambda: fn(ts))
            with self.assertRaises(TypeError) as cm:
                fn(s)
            self.assertEqual(str(cm.exception), str(te))

    def test_tolist_item(self):
        for dtype in (np.float32, np.float64, np.int64, np.bool_):
            for shape in ((2, 3), (4,), ()):
                with self.subTest(dtype=np.dtype(dtype).name, shape=shape):
                    g, t = both(data(shape, dtype, 3))
                    gl, tl = g.tolist(), t.tolist()
                    self.assertEqual(gl, tl)
                    self.assertEqual(repr(gl), repr(tl), 'same Python types')
        g, t = both(np.array([2 ** 53 + 1], dtype=np.int64))
        self.assertEqual(g.item(), t.item())
        self.assertIs(type(g.item()), int)
        g, t = both(np.array(True))
        self.assertIs(g.item(), True)
        g, t = both(np.array([1.25], dtype=np.float32))
        self.assertEqual(g.item(), t.item())
        g = Gnn.Tensor.from_numpy(data((2,)))
        with self.assertRaises(GLib.Error) as cm:
            g.item()
        self.assertEqual(cm.exception.message, 'a Tensor with 2 elements cannot be converted to Scalar')
        self.assertTrue(cm.exception.matches(Gnn.error_quark(), Gnn.Error.SHAPE))

    def test_scalar_conversions(self):
        for value in (2.5, -3.0, 0.0):
            g, t = both(np.array([value], dtype=np.float32))
            self.assertEqual(float(g), float(t))
            self.assertEqual(int(g), int(t))
            self.assertEqual(bool(g), bool(t))
        g, t = both(np.array(7, dtype=np.int64))
        self.assertEqual(int(g), 7)
        self.assertEqual([10, 20, 30, 40, 50, 60, 70, 80][g], 80)   # __index__
        g, t = both(data((2,), F32))
        for fn, kind in ((bool, RuntimeError), (float, ValueError), (int, ValueError)):
            te = self.torch_error(lambda: fn(t))
            self.assertIsInstance(te, kind)
            with self.assertRaises(kind) as cm:
                fn(g)
            self.assertEqual(str(cm.exception), str(te))

    def test_repr_is_c_print(self):
        g = Gnn.Tensor.from_numpy(data((2, 3)))
        self.assertEqual(repr(g), g.to_string())
        self.assertEqual(repr(g), repr(torch.from_numpy(data((2, 3)))))

    def test_tensor_constructor(self):
        cases = [
            [[1, 2], [3, 4]], [1.5, 2], [True, False], 3, 2.5, True, [[1, 2.0]], [],
            [[True, 1]], np.array([1, 2], dtype=np.uint8), np.array([1.5, 2.5]),
            np.float64(1.5), [np.float32(1), 2],
        ]
        for value in cases:
            with self.subTest(value=value):
                self.assert_like(Gnn.tensor(value), torch.tensor(value), repr(value))
        self.assert_like(Gnn.tensor([1, 2], dtype=Gnn.Dtype.FLOAT64),
                         torch.tensor([1, 2], dtype=torch.float64), 'dtype')
        g = Gnn.tensor([1.0, 2.0], requires_grad=True)
        self.assertTrue(g.requires_grad)
        self.assertTrue(g.is_leaf())
        src = Gnn.tensor([1.0, 2.0])
        copy = Gnn.tensor(src)
        self.assertFalse(copy.shares_storage(src))
        self.assert_like(copy, torch.tensor([1.0, 2.0]))
        a = np.array([1.0, 2.0])
        g = Gnn.tensor(a)
        a[0] = 9
        self.assertEqual(g.tolist(), [1.0, 2.0], 'Gnn.tensor copies')
        with self.assertRaises(ValueError):
            Gnn.tensor([[1, 2], [3]])
        with self.assertRaises(TypeError):
            Gnn.tensor(['a'])


class TestNumpy(Base):
    def test_numpy_views_tensor_memory(self):
        g = Gnn.Tensor.from_numpy(data((3, 4), F32, 1)) * 1   # memory that gnn allocated
        a = g.numpy()
        self.assertEqual(a.ctypes.data, g.get_data_address())
        a[1, 2] = 42.0
        self.assertEqual(g[1, 2].item(), 42.0)
        g[0, 0] = -7
        self.assertEqual(a[0, 0], -7.0)
        b = np.asarray(g)
        self.assertTrue(np.shares_memory(a, b))
        self.assertEqual(np.asarray(g, dtype=np.float64).dtype, np.float64)

    def test_numpy_of_strided_views(self):
        g, t = both(data((4, 6), F32, 2))
        for name, gv, tv in [('t', g.t(), t.t()), ('slice', g[1:, ::2], t[1:, ::2]),
                             ('select', g[:, 3], t[:, 3]), ('expand', g[0:1].expand([3, 6]),
                                                             t[0:1].expand(3, 6))]:
            with self.subTest(view=name):
                a = gv.numpy()
                np.testing.assert_array_equal(a, tv.numpy())
                self.assertEqual(a.strides, tv.numpy().strides)
                self.assertTrue(np.shares_memory(a, g.numpy()), 'a view, not a copy')

    def test_array_keeps_tensor_memory_alive(self):
        g = Gnn.tensor([[1.0, 2.0], [3.0, 4.0]]) + 0
        a = g.numpy()
        ref = weakref.ref(g)
        del g
        gc.collect()
        self.assertIsNone(ref(), 'the tensor object itself may go')
        filler = [Gnn.Tensor.new_full([2, 2], 9.0, Gnn.Dtype.FLOAT32, None) for _ in range(20)]
        np.testing.assert_array_equal(a, [[1.0, 2.0], [3.0, 4.0]])
        del filler

    def test_from_numpy_shares(self):
        a = data((3, 4), F32, 3)
        g = Gnn.Tensor.from_numpy(a)
        self.assertEqual(g.get_data_address(), a.ctypes.data)
        a[0, 1] = 5.0
        self.assertEqual(g[0, 1].item(), 5.0)
        g[2] = 0
        np.testing.assert_array_equal(a[2], 0)
        g += 1
        self.assertEqual(a[2, 0], 1.0)
        self.assertTrue(np.shares_memory(g.numpy(), a))

    def test_from_numpy_keeps_array_alive(self):
        a = np.arange(12, dtype=np.float64).reshape(3, 4)
        ref = weakref.ref(a)
        g = Gnn.Tensor.from_numpy(a)
        del a
        gc.collect()
        self.assertIsNotNone(ref(), 'the tensor holds the array')
        self.assertEqual(g.tolist(), np.arange(12.0).reshape(3, 4).tolist())
        del g
        gc.collect()
        self.assertIsNone(ref(), 'the array goes with the tensor')

    def test_from_numpy_copies_when_it_must(self):
        a = data((4, 6), F32, 4)
        for name, b in [('strided', a[:, ::2]), ('read-only', np.frombuffer(a.tobytes(), F32)),
                        ('big-endian', a.astype('>f4'))]:
            with self.subTest(kind=name):
                if name == 'big-endian':
                    with self.assertRaises(TypeError):
                        Gnn.Tensor.from_numpy(b)
                    continue
                g = Gnn.Tensor.from_numpy(b)
                np.testing.assert_array_equal(g.numpy(), b)
                self.assertFalse(np.shares_memory(g.numpy(), b))

    def test_new_from_data_checks(self):
        a = np.zeros(4, dtype=np.float32)
        addr = a.ctypes.data
        with self.assertRaises(GLib.Error) as cm:
            Gnn.Tensor.new_from_data(addr + 1, Gnn.Dtype.FLOAT32, [2], None, None)
        self.assertTrue(cm.exception.matches(Gnn.error_quark(), Gnn.Error.INVALID_ARGUMENT))
        self.assertIn('aligned', cm.exception.message)
        with self.assertRaises(GLib.Error) as cm:
            Gnn.Tensor.new_from_data(addr, Gnn.Dtype.FLOAT32, [2], [-1], None)
        self.assertIn('non-negative strides', cm.exception.message)
        with self.assertRaises(GLib.Error) as cm:
            Gnn.Tensor.new_from_data(addr, Gnn.Dtype.FLOAT32, [2, 2], [1], None)
        self.assertIn('Expected 2 strides', cm.exception.message)
        owner = GObject.Object()
        gone = []
        owner.weak_ref(lambda: gone.append(True))
        g = Gnn.Tensor.new_from_data(addr, Gnn.Dtype.FLOAT32, [2, 2], [1, 2], owner)
        del owner
        a[:] = [1, 2, 3, 4]
        self.assertEqual(g.tolist(), [[1.0, 3.0], [2.0, 4.0]])
        v = g[1]
        del g
        gc.collect()
        self.assertEqual(gone, [])
        del v
        gc.collect()
        self.assertEqual(gone, [True])

    def test_error_from_c_while_a_shared_tensor_goes(self):
        # a GError raised by a call whose temporary argument shares numpy memory: dropping
        # that tensor must not disturb the exception
        a = Gnn.Tensor.from_numpy(data((2, 3)))
        for _ in range(3):
            with self.assertRaises(GLib.Error) as cm:
                a.matmul(Gnn.Tensor.from_numpy(data((2, 3))))
            self.assertIn('cannot be multiplied', cm.exception.message)

    def test_conversion_cost(self):
        g = Gnn.Tensor.new_ones([1000, 1000], Gnn.Dtype.FLOAT32, None)
        n = 200
        start = time.perf_counter()
        for _ in range(n):
            g.numpy()
        per_view = (time.perf_counter() - start) / n
        a = np.ones((1000, 1000), np.float32)
        start = time.perf_counter()
        for _ in range(n):
            Gnn.Tensor.from_numpy(a)
        per_share = (time.perf_counter() - start) / n
        print('\nnumpy() of 1M floats: %.1f us, from_numpy of 1M floats: %.1f us'
              % (per_view * 1e6, per_share * 1e6))
        self.assertLess(per_view, 1e-3)
        self.assertLess(per_share, 1e-3)


class TestLayerConstructors(Base):
    """torch.nn's positional and keyword signatures: the same call gives the same module."""

    CALLS = [
        ('Linear', (4, 3), {'bias': False}), ('Linear', (4, 3), {}),
        ('Linear', (), {'in_features': 2, 'out_features': 5}),
        ('Bilinear', (2, 3, 4), {}), ('Conv2d', (1, 8, 3), {'stride': 1, 'padding': 1}),
        ('Conv2d', (2, 4, (3, 2)), {'padding': 'same', 'bias': False}),
        ('Conv2d', (2, 4, 3, 2, 1, 1, 2), {}),
        ('Conv1d', (2, 4, 5), {'stride': 2}), ('ConvTranspose2d', (2, 3, 3), {'stride': 2, 'output_padding': 1}),
        ('MaxPool2d', (2,), {}), ('MaxPool2d', (3, 2, 1), {'ceil_mode': True}), ('AvgPool2d', (3, 2), {}),
        ('AdaptiveAvgPool2d', ((2, 3),), {}), ('BatchNorm1d', (5, 1e-3), {}),
        ('BatchNorm2d', (3,), {'affine': False}),
        ('GroupNorm', (2, 4), {}), ('LayerNorm', (4,), {}), ('LayerNorm', ([2, 3],), {'elementwise_affine': False}),
        ('Embedding', (10, 3), {'padding_idx': 0}), ('Dropout', (0.2,), {}), ('Dropout2d', (), {'p': 0.1}),
        ('ReLU', (), {}), ('ELU', (0.5,), {}), ('LeakyReLU', (0.2,), {}), ('GELU', ('tanh',), {}),
        ('Softmax', (1,), {}), ('LogSoftmax', (), {'dim': -1}), ('Flatten', (0, 2), {}),
        ('Unflatten', (1, (2, 2)), {}),
        ('SiLU', (), {}), ('Sigmoid', (), {}), ('Tanh', (), {}),
    ]

    def test_same_module_as_torch(self):
        for name, args, kwargs in self.CALLS:
            with self.subTest(call='%s%r %r' % (name, args, kwargs)):
                g = getattr(Gnn, name)(*args, **kwargs)
                t = getattr(torch.nn, name)(*args, **kwargs)
                self.assertEqual(repr(g), repr(t))
                self.assertEqual([n for n, _ in g.named_parameters()], [n for n, _ in t.named_parameters()])
                for (n, gp), (_, tp) in zip(g.named_parameters(), t.named_parameters()):
                    self.assertEqual(gp.shape, tuple(tp.shape), n)

    def test_losses(self):
        for name, kwargs in [('CrossEntropyLoss', {'reduction': 'sum', 'label_smoothing': 0.1}),
                             ('MSELoss', {'reduction': 'none'}), ('L1Loss', {}), ('HuberLoss', {'delta': 2.0}),
                             ('NLLLoss', {'ignore_index': 1}), ('BCEWithLogitsLoss', {'reduction': 'sum'}),
                             ('SmoothL1Loss', {'beta': 0.5}), ('KLDivLoss', {'log_target': True})]:
            with self.subTest(loss=name):
                g = getattr(Gnn, name)(**kwargs)
                t = getattr(torch.nn, name)(**kwargs)
                self.assertEqual(g.props.reduction.value_nick, t.reduction)
                self.assertEqual(repr(g), repr(t))
        x, y = data((4, 3), F32, 1), np.array([0, 2, 1, 1], dtype=np.int64)
        g = Gnn.CrossEntropyLoss(Gnn.Tensor.from_numpy(np.array([1.0, 2.0, 0.5], F32)), label_smoothing=0.1)
        t = torch.nn.CrossEntropyLoss(torch.tensor([1.0, 2.0, 0.5]), label_smoothing=0.1)
        self.assert_like(g(Gnn.Tensor.from_numpy(x), Gnn.Tensor.from_numpy(y)),
                         t(torch.from_numpy(x), torch.from_numpy(y)), 'weighted cross entropy')

    def test_errors(self):
        cases = [
            (lambda: Gnn.Linear(4), TypeError, "Linear() missing required argument: 'out_features'"),
            (lambda: Gnn.Linear(4, 3, in_features=2), TypeError,
             "Linear() got multiple values for argument 'in_features'"),
            (lambda: Gnn.Linear(1, 2, 3, 4, 5, 6), TypeError,
             'Linear() takes at most 5 positional arguments (6 given)'),
            (lambda: Gnn.ReLU(True), TypeError, 'ReLU(): inplace=True is not supported by gnn'),
            (lambda: Gnn.MSELoss(reduction='avg'), ValueError, 'avg is not a valid value for reduction'),
        ]
        for fn, kind, message in cases:
            with self.subTest(message=message):
                with self.assertRaises(kind) as cm:
                    fn()
                self.assertEqual(str(cm.exception), message)


if __name__ == '__main__':
    main()
