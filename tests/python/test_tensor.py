#!/usr/bin/python3
"""GnnTensor through PyGObject: data in and out through GBytes, geometry and views against
torch, printing against torch's, GError mapping, grad mode (per thread), gradient hooks
written in Python, and the backward-twice error."""
import gc
import threading
import unittest
import weakref

from gnntest import Gnn, GLib, np, torch, to_gnn, to_torch, GNN_OF, main

DTYPES = [np.float32, np.float64, np.int64, np.bool_, np.uint8]


def sample(dtype, shape=(2, 3, 4), seed=0):
    rng = np.random.default_rng(seed)
    if dtype == np.bool_:
        return rng.integers(0, 2, size=shape).astype(np.bool_)
    if dtype == np.uint8:
        return rng.integers(0, 256, size=shape).astype(np.uint8)
    if dtype == np.int64:
        return rng.integers(-2 ** 40, 2 ** 40, size=shape).astype(np.int64)
    return rng.standard_normal(shape).astype(dtype)


class TestBytes(unittest.TestCase):
    """numpy -> GBytes -> tensor -> GBytes -> numpy is a byte-exact round trip."""

    def test_roundtrip_dtypes(self):
        for dt in DTYPES:
            for shape in [(2, 3, 4), (5,), (1, 1), (0, 3)]:
                with self.subTest(dtype=np.dtype(dt).name, shape=shape):
                    a = sample(dt, shape)
                    t = Gnn.Tensor.new_from_bytes(GLib.Bytes.new(a.tobytes()), GNN_OF[np.dtype(dt)],
                                                  list(shape), None)
                    self.assertEqual(t.get_dtype(), GNN_OF[np.dtype(dt)])
                    self.assertEqual(tuple(t.get_shape()), shape)
                    self.assertEqual(t.get_numel(), a.size)
                    data = t.get_bytes().get_data()
                    self.assertEqual(len(data), a.nbytes)
                    back = np.frombuffer(data, dtype=dt).reshape(shape)
                    self.assertEqual(back.dtype, np.dtype(dt))
                    np.testing.assert_array_equal(back, a)
                    # and through the override helpers
                    g = Gnn.Tensor.from_numpy(a)
                    self.assertEqual(g.dtype, GNN_OF[np.dtype(dt)])
                    n = g.numpy()
                    self.assertEqual(n.dtype, np.dtype(dt))
                    np.testing.assert_array_equal(n, a)

    def test_device_is_a_string(self):
        """t.device: the canonical string, compared as torch.device compares with one."""
        g, t = to_gnn(np.zeros(2, np.float32)), torch.zeros(2)
        self.assertEqual(g.get_device(), 'cpu')
        self.assertEqual(str(g.device), str(t.device))
        self.assertEqual(g.device, 'cpu')
        self.assertEqual(g.device.type, t.device.type)
        self.assertEqual(g.device.index, t.device.index)
        self.assertEqual(repr(g.device), repr(t.device))
        d = Gnn.device('cuda:1')
        self.assertEqual((d.type, d.index, repr(d)), ('cuda', 1, repr(torch.device('cuda:1'))))

    def test_scalar_roundtrip(self):
        # a 0-d array must give a 0-d tensor, as torch.from_numpy does
        for dt in DTYPES:
            with self.subTest(dtype=np.dtype(dt).name):
                a = np.array(sample(dt, (1,))[0], dtype=dt)
                self.assertEqual(a.ndim, 0)
                t = Gnn.Tensor.new_from_bytes(GLib.Bytes.new(a.tobytes()), GNN_OF[np.dtype(dt)], [], None)
                self.assertEqual(t.get_ndim(), 0)
                self.assertEqual(t.get_numel(), 1)
                self.assertEqual(t.item(), float(a))
                g = Gnn.Tensor.from_numpy(a)
                self.assertEqual(g.shape, (), 'from_numpy of a 0-d array')
                self.assertEqual(g.numpy().shape, ())

    def test_non_contiguous_numpy(self):
        a = sample(np.float32, (4, 6))[:, ::2].T
        self.assertFalse(a.flags.c_contiguous)
        g = Gnn.Tensor.from_numpy(a)
        self.assertTrue(g.is_contiguous())
        np.testing.assert_array_equal(g.numpy(), a)

    def test_bytes_of_view_are_logical_order(self):
        a = sample(np.float64, (3, 4))
        g = Gnn.Tensor.from_numpy(a).t()
        self.assertFalse(g.is_contiguous())
        back = np.frombuffer(g.get_bytes().get_data(), np.float64).reshape(4, 3)
        np.testing.assert_array_equal(back, a.T)

    def test_bad_byte_count(self):
        with self.assertRaises(GLib.Error) as cm:
            Gnn.Tensor.new_from_bytes(GLib.Bytes.new(b'\0' * 7), Gnn.Dtype.FLOAT32, [7], None)
        self.assertTrue(cm.exception.matches(Gnn.error_quark(), Gnn.Error.SHAPE))
        with self.assertRaises(GLib.Error) as cm:
            Gnn.Tensor.new_from_bytes(GLib.Bytes.new(b'\0' * 8), Gnn.Dtype.FLOAT32, [3], None)
        self.assertTrue(cm.exception.matches(Gnn.error_quark(), Gnn.Error.SHAPE))

    def test_factories_match_torch(self):
        self.assertEqual(Gnn.Tensor.new_zeros([2, 3], Gnn.Dtype.FLOAT32, None).numpy().tolist(),
                         torch.zeros(2, 3).tolist())
        self.assertEqual(Gnn.Tensor.new_ones([4], Gnn.Dtype.INT64, 'cpu').numpy().tolist(),
                         torch.ones(4, dtype=torch.int64).tolist())
        self.assertEqual(Gnn.Tensor.new_arange(0, 5, 2, Gnn.Dtype.INT64, None).numpy().tolist(),
                         torch.arange(0, 5, 2).tolist())
        self.assertEqual(Gnn.Tensor.new_eye(2, 3, Gnn.Dtype.FLOAT64, None).numpy().tolist(),
                         torch.eye(2, 3, dtype=torch.float64).tolist())
        self.assertEqual(Gnn.Tensor.new_full([2], 2.5, Gnn.Dtype.FLOAT32, None).numpy().tolist(),
                         torch.full((2,), 2.5).tolist())


class TestGeometry(unittest.TestCase):
    """Shapes, strides, storage offsets and storage sharing of views, as torch has them."""

    def assert_same_view(self, g, t, what):
        self.assertEqual(tuple(g.get_shape()), tuple(t.shape), what + ': shape')
        self.assertEqual(tuple(g.get_strides()), tuple(t.stride()), what + ': strides')
        self.assertEqual(g.get_storage_offset(), t.storage_offset(), what + ': storage offset')
        self.assertEqual(g.is_contiguous(), t.is_contiguous(), what + ': is_contiguous')
        self.assertEqual(g.get_ndim(), t.dim(), what + ': ndim')
        self.assertEqual(g.get_numel(), t.numel(), what + ': numel')
        np.testing.assert_array_equal(g.numpy(), t.numpy(), err_msg=what)

    def test_views(self):
        a = sample(np.float32, (3, 4, 5))
        g, t = to_gnn(a), to_torch(a)
        views = [
            ('identity', lambda x: x, lambda x: x),
            ('transpose', lambda x: x.transpose(0, 2), lambda x: x.transpose(0, 2)),
            ('permute', lambda x: x.permute([2, 0, 1]), lambda x: x.permute(2, 0, 1)),
            ('narrow', lambda x: x.narrow(1, 1, 2), lambda x: x.narrow(1, 1, 2)),
            ('select', lambda x: x.select(2, 3), lambda x: x.select(2, 3)),
            ('select-neg', lambda x: x.select(-1, -1), lambda x: x.select(-1, -1)),
            ('slice-step', lambda x: x.slice(2, 1, 5, 2), lambda x: x[:, :, 1:5:2]),
            ('view', lambda x: x.view([12, 5]), lambda x: x.view(12, 5)),
            ('view-infer', lambda x: x.view([-1, 10]), lambda x: x.view(-1, 10)),
            ('unsqueeze', lambda x: x.unsqueeze(1), lambda x: x.unsqueeze(1)),
            ('flatten', lambda x: x.flatten(1, 2), lambda x: x.flatten(1, 2)),
            ('narrow-t', lambda x: x.narrow(0, 1, 2).transpose(1, 2), lambda x: x.narrow(0, 1, 2).transpose(1, 2)),
            ('expand', lambda x: x.select(0, 0).unsqueeze(0).expand([3, 4, 5]),
             lambda x: x.select(0, 0).unsqueeze(0).expand(3, 4, 5)),
        ]
        for name, gf, tf in views:
            with self.subTest(view=name):
                gv, tv = gf(g), tf(t)
                self.assert_same_view(gv, tv, name)
                if name != 'identity':
                    self.assertTrue(gv.is_view(), name)
                    self.assertTrue(gv.shares_storage(g), name)

    def test_squeeze_and_reshape(self):
        a = sample(np.float64, (2, 1, 3, 1))
        g, t = to_gnn(a), to_torch(a)
        self.assert_same_view(g.squeeze(), t.squeeze(), 'squeeze')
        self.assert_same_view(g.squeeze_dim(1), t.squeeze(1), 'squeeze_dim')
        # reshape of a contiguous tensor is a view, of a transposed one a copy
        r = g.reshape([6])
        self.assert_same_view(r, t.reshape(6), 'reshape')
        self.assertTrue(r.shares_storage(g))
        tt = g.squeeze().t()
        r2 = tt.reshape([6])
        self.assert_same_view(r2, t.squeeze().t().reshape(6), 'reshape of transpose')
        self.assertFalse(r2.shares_storage(g))

    def test_contiguous_copy(self):
        a = sample(np.float32, (4, 3))
        g, t = to_gnn(a), to_torch(a)
        c = g.t().contiguous()
        self.assert_same_view(c, t.t().contiguous(), 'contiguous')
        self.assertFalse(c.shares_storage(g))

    def test_view_writes_reach_base(self):
        a = sample(np.float32, (3, 4))
        g, t = to_gnn(a), to_torch(a)
        g.narrow(1, 1, 2).fill_(7.0)
        t.narrow(1, 1, 2).fill_(7.0)
        np.testing.assert_array_equal(g.numpy(), t.numpy())
        g.t().select(0, 3).mul_scalar_(-1.0)
        t.t().select(0, 3).mul_(-1.0)
        np.testing.assert_array_equal(g.numpy(), t.numpy())

    def test_view_of_non_contiguous_fails(self):
        g = to_gnn(sample(np.float32, (3, 4))).t()
        with self.assertRaises(GLib.Error) as cm:
            g.view([12])
        self.assertEqual(cm.exception.domain, GLib.quark_to_string(Gnn.error_quark()))
        with self.assertRaises(RuntimeError):
            torch.zeros(3, 4).t().view(12)

    def test_get_size(self):
        g = to_gnn(sample(np.float32, (3, 4)))
        self.assertEqual(g.get_size(0), 3)
        self.assertEqual(g.get_size(-1), 4)
        with self.assertRaises(GLib.Error) as cm:
            g.get_size(2)
        self.assertTrue(cm.exception.matches(Gnn.error_quark(), Gnn.Error.INDEX))


class TestRepr(unittest.TestCase):
    """to_string (the override's repr and str) prints what torch prints."""

    def check(self, g, t):
        self.assertEqual(repr(g), str(t))
        self.assertEqual(str(g), str(t))

    def test_plain(self):
        rng = np.random.default_rng(3)
        arrays = {
            'f32-2d': np.arange(6, dtype=np.float32).reshape(2, 3),
            'f32-frac': np.arange(12, dtype=np.float32).reshape(3, 4) / 7,
            'f32-randn-wrap': rng.standard_normal(20).astype(np.float32),
            'f32-randn-wrap-2d': rng.standard_normal((3, 12)).astype(np.float32),
            'f32-3d': rng.standard_normal((2, 2, 3)).astype(np.float32),
            'f32-small': np.array([1e-5, 0.5], np.float32),
            'f32-big': np.array([1e9, 1.0], np.float32),
            'f32-int-valued': np.array([1., 10., 100.], np.float32),
            'f64': rng.standard_normal((2, 2)),
            'i64': np.arange(24, dtype=np.int64).reshape(2, 3, 4),
            'i64-neg': np.array([-100, 5, 3], np.int64),
            'bool': np.array([[True, False], [False, True]]),
            'u8': np.array([0, 255, 7], np.uint8),
            'empty': np.zeros((0, 3), np.float32),
            'empty-1d': np.zeros((0,), np.float32),
            'nan-finite': np.array([np.nan, 0.5], np.float32),
        }
        for name, a in arrays.items():
            with self.subTest(tensor=name):
                self.check(to_gnn(a), torch.from_numpy(a))

    def test_scalar(self):
        self.check(Gnn.Tensor.new_scalar(3.5, Gnn.Dtype.FLOAT32, None), torch.tensor(3.5))
        self.check(Gnn.Tensor.new_scalar(7, Gnn.Dtype.INT64, None), torch.tensor(7))
        self.check(Gnn.Tensor.new_scalar(2, Gnn.Dtype.FLOAT64, None), torch.tensor(2, dtype=torch.float64))

    def test_autograd_annotations(self):
        a = np.array([1.0, 2.0], np.float32)
        g, t = to_gnn(a, True), to_torch(a, True)
        self.check(g, t)
        self.check(g.add(g, 1.0), t + t)
        self.check(g.mul(g).sum_all(), (t * t).sum())
        self.check(g.mul(g).mean_all(), (t * t).mean())
        self.check(g.detach(), t.detach())

    def test_view_prints_its_elements(self):
        a = np.arange(12, dtype=np.float32).reshape(3, 4)
        self.check(to_gnn(a).t().narrow(0, 1, 2), torch.from_numpy(a).t().narrow(0, 1, 2))

    def test_special_values(self):
        # torch sizes columns by the finite non-zero values only
        arrays = {
            'nan-inf': np.array([np.nan, np.inf, -np.inf, 1.0], np.float32),
            'neg-zero': np.array([-0.0, 1.5], np.float32),
        }
        for name, a in arrays.items():
            with self.subTest(tensor=name):
                self.check(to_gnn(a), torch.from_numpy(a))

    def test_scientific_notation(self):
        # torch switches to scientific notation when max/min of the finite non-zero
        # magnitudes exceeds 1000, in the integer-valued float mode too
        arrays = {
            'ratio-int-valued': np.array([1.0, 2000.0], np.float32),
            'ratio-frac': np.array([0.001, 1.5], np.float32),
        }
        for name, a in arrays.items():
            with self.subTest(tensor=name):
                self.check(to_gnn(a), torch.from_numpy(a))

    def test_summarized(self):
        # more than 1000 elements: three items each side of '...', lines wrapped at 80
        arrays = {
            'i64-1d': np.arange(1200, dtype=np.int64),
            'f32-1d': np.arange(2000, dtype=np.float32) / 4,
            'f32-2d': np.arange(40 * 40, dtype=np.float32).reshape(40, 40) / 1000,
        }
        for name, a in arrays.items():
            with self.subTest(tensor=name):
                self.check(to_gnn(a), torch.from_numpy(a))


class TestErrors(unittest.TestCase):
    """Data-caused failures raise GLib.Error in the Gnn domain with the right code."""

    def assert_gnn_error(self, code, fn, *args):
        with self.assertRaises(GLib.Error) as cm:
            fn(*args)
        e = cm.exception
        self.assertTrue(e.matches(Gnn.error_quark(), code),
                        'expected %s, got %s:%d: %s' % (code, e.domain, e.code, e.message))
        self.assertEqual(e.domain, 'gnn-error-quark')
        self.assertEqual(e.code, int(code))
        self.assertTrue(e.message)
        return e

    def test_codes(self):
        x = to_gnn(sample(np.float32, (2, 3)))
        y = to_gnn(sample(np.float32, (4, 5)))
        e = self.assert_gnn_error(Gnn.Error.SHAPE, x.matmul, x)
        self.assertIn('2x3', e.message)
        self.assert_gnn_error(Gnn.Error.SHAPE, x.add, y, 1.0)
        self.assert_gnn_error(Gnn.Error.SHAPE, x.view, [5])
        self.assert_gnn_error(Gnn.Error.INDEX, x.narrow, 1, 2, 5)
        self.assert_gnn_error(Gnn.Error.INDEX, x.select, 0, 2)
        self.assert_gnn_error(Gnn.Error.INDEX, x.transpose, 0, 3)
        self.assert_gnn_error(Gnn.Error.DEVICE, Gnn.Tensor.new_zeros, [2], Gnn.Dtype.FLOAT32, 'cuda:3')
        self.assert_gnn_error(Gnn.Error.DEVICE, Gnn.Tensor.new_zeros, [2], Gnn.Dtype.FLOAT32, 'cu da')
        self.assert_gnn_error(Gnn.Error.INVALID_ARGUMENT, Gnn.Tensor.new_arange, 0, 1, 0,
                              Gnn.Dtype.FLOAT32, None)
        # only floating-point tensors can require grad (a dtype error)
        i = to_gnn(np.arange(3, dtype=np.int64))
        self.assert_gnn_error(Gnn.Error.DTYPE, i.set_requires_grad, True)
        # item of a many-element tensor
        self.assert_gnn_error(Gnn.Error.SHAPE, x.item)
        # a gradient of the wrong shape
        w = to_gnn(sample(np.float32, (2, 3)), requires_grad=True)
        self.assert_gnn_error(Gnn.Error.SHAPE, w.set_grad, to_gnn(sample(np.float32, (3, 2))))

    def test_error_domain_helpers(self):
        self.assertEqual(Gnn.error_quark(), GLib.quark_from_string('gnn-error-quark'))
        self.assertEqual(Gnn.Error.quark(), Gnn.error_quark())
        self.assertEqual(Gnn.Error.SHAPE, 1)
        self.assertEqual(Gnn.Error.AUTOGRAD, 4)


class TestGradMode(unittest.TestCase):
    def setUp(self):
        self.assertTrue(Gnn.is_grad_enabled())
        self.x = to_gnn(sample(np.float32, (3,)), requires_grad=True)

    def tearDown(self):
        self.assertTrue(Gnn.is_grad_enabled())

    def test_no_grad_disables_recording(self):
        with Gnn.no_grad():
            self.assertFalse(Gnn.is_grad_enabled())
            y = self.x.mul(self.x)
            self.assertFalse(y.get_requires_grad())
            self.assertIsNone(y.get_grad_fn_name())
            self.assertTrue(y.is_leaf())
        self.assertTrue(Gnn.is_grad_enabled())
        z = self.x.mul(self.x)
        self.assertTrue(z.get_requires_grad())
        self.assertEqual(z.get_grad_fn_name(), 'MulBackward0')

    def test_nested_and_exceptions(self):
        with Gnn.no_grad():
            with Gnn.enable_grad():
                self.assertTrue(Gnn.is_grad_enabled())
                self.assertTrue(self.x.mul(self.x).get_requires_grad())
            self.assertFalse(Gnn.is_grad_enabled())
            with Gnn.no_grad():
                pass
            self.assertFalse(Gnn.is_grad_enabled())
        with self.assertRaises(ZeroDivisionError):
            with Gnn.no_grad():
                1 / 0
        self.assertTrue(Gnn.is_grad_enabled())

    def test_set_grad_enabled_returns_previous(self):
        self.assertTrue(Gnn.set_grad_enabled(False))
        self.assertFalse(Gnn.set_grad_enabled(False))
        self.assertFalse(Gnn.set_grad_enabled(True))
        self.assertTrue(Gnn.is_grad_enabled())

    def run_in_thread(self, fn):
        result = {}

        def body():
            try:
                result['value'] = fn()
            except BaseException as e:  # noqa: B902 -- handed back to the main thread
                result['error'] = e
        th = threading.Thread(target=body)
        th.start()
        th.join()
        if 'error' in result:
            raise result['error']
        return result['value']

    def test_grad_mode_is_per_thread(self):
        x = self.x

        def record():
            y = x.mul(x)
            return Gnn.is_grad_enabled(), y.get_requires_grad(), y.get_grad_fn_name()

        with Gnn.no_grad():
            # a thread started inside no_grad records: grad mode is per thread, as in torch
            enabled, req, fn = self.run_in_thread(record)
            self.assertTrue(enabled)
            self.assertTrue(req)
            self.assertEqual(fn, 'MulBackward0')
            self.assertFalse(Gnn.is_grad_enabled())
            self.assertFalse(x.mul(x).get_requires_grad())

        # and no_grad inside a thread leaves the main thread recording
        barrier = threading.Barrier(2, timeout=30)

        def off_in_thread():
            with Gnn.no_grad():
                barrier.wait()   # main thread checks while this one is in no_grad
                barrier.wait()
                return x.mul(x).get_requires_grad()

        th_result = {}
        th = threading.Thread(target=lambda: th_result.setdefault('req', off_in_thread()))
        th.start()
        barrier.wait()
        main_req = x.mul(x).get_requires_grad()
        main_enabled = Gnn.is_grad_enabled()
        barrier.wait()
        th.join()
        self.assertTrue(main_req)
        self.assertTrue(main_enabled)
        self.assertFalse(th_result['req'])

    def test_same_as_torch(self):
        t = torch.ones(3, requires_grad=True)
        with torch.no_grad():
            self.assertFalse((t * t).requires_grad)
            th_req = {}
            th = threading.Thread(target=lambda: th_req.setdefault('r', (t * t).requires_grad))
            th.start()
            th.join()
            self.assertTrue(th_req['r'])


class TestHooks(unittest.TestCase):
    def test_python_hook_doubles_gradient(self):
        a = sample(np.float32, (4,), seed=5)
        g, t = to_gnn(a, True), to_torch(a, True)
        seen = []

        def gnn_hook(grad):
            seen.append(grad.numpy())
            return grad.mul_scalar(2.0)

        handle = g.register_hook(gnn_hook)
        self.assertGreater(handle, 0)
        t.register_hook(lambda grad: grad * 2)
        g.mul(g).sum_all().backward(None, False)
        (t * t).sum().backward()
        self.assertEqual(len(seen), 1)
        np.testing.assert_allclose(seen[0], 2 * a, rtol=1e-6)
        np.testing.assert_allclose(g.get_grad().numpy(), t.grad.numpy(), rtol=1e-6)
        np.testing.assert_allclose(g.get_grad().numpy(), 4 * a, rtol=1e-6)

    def test_hook_returning_none_keeps_gradient(self):
        g = to_gnn(np.ones(3, np.float32), True)
        calls = []
        g.register_hook(lambda grad: calls.append(1))
        g.mul_scalar(3.0).sum_all().backward(None, False)
        self.assertEqual(calls, [1])
        np.testing.assert_array_equal(g.get_grad().numpy(), [3, 3, 3])

    def test_hook_exception_reaches_backward(self):
        g = to_gnn(np.ones(2, np.float32), True)

        def broken(grad):
            raise ValueError('hook failed')
        g.register_hook(broken)
        with self.assertRaises(ValueError):
            g.mul_scalar(2.0).sum_all().backward()
        # the next backward is not affected by the earlier error
        g2 = to_gnn(np.ones(2, np.float32), True)
        g2.sum_all().backward()

    def test_hooks_chain_in_order_and_remove(self):
        g = to_gnn(np.ones(2, np.float32), True)
        order = []

        def first(grad):
            order.append('first')
            return grad.add_scalar(1.0)

        def second(grad):
            order.append('second')
            return grad.mul_scalar(10.0)

        h1 = g.register_hook(first)
        g.register_hook(second)
        g.sum_all().backward(None, False)
        self.assertEqual(order, ['first', 'second'])
        np.testing.assert_array_equal(g.get_grad().numpy(), [20, 20])
        self.assertTrue(g.remove_hook(h1))
        self.assertFalse(g.remove_hook(h1))
        g.set_grad(None)
        g.sum_all().backward(None, False)
        np.testing.assert_array_equal(g.get_grad().numpy(), [10, 10])

    def test_hook_on_intermediate(self):
        a = sample(np.float64, (3,), seed=2)
        g, t = to_gnn(a, True), to_torch(a, True)
        gy, ty = g.mul(g), t * t
        gy.register_hook(lambda grad: grad.mul_scalar(-0.5))
        ty.register_hook(lambda grad: grad * -0.5)
        gy.mul_scalar(3.0).sum_all().backward(None, False)
        (ty * 3.0).sum().backward()
        np.testing.assert_allclose(g.get_grad().numpy(), t.grad.numpy(), rtol=1e-12)

    def test_hook_needs_requires_grad(self):
        g = to_gnn(np.ones(2, np.float32))
        with self.assertRaises(GLib.Error) as cm:
            g.register_hook(lambda grad: grad)
        self.assertTrue(cm.exception.matches(Gnn.error_quark(), Gnn.Error.AUTOGRAD))

    def test_hook_closure_released(self):
        # the Python callable is released once the tensor that holds it goes away
        class Marker:
            pass
        m = Marker()
        ref = weakref.ref(m)
        g = to_gnn(np.ones(2, np.float32), True)
        g.register_hook(lambda grad, m=m: None)
        del m
        self.assertIsNotNone(ref())
        del g
        gc.collect()
        self.assertIsNone(ref())


class TestBackward(unittest.TestCase):
    def test_backward_twice_raises(self):
        g = to_gnn(np.array([1.0, 2.0, 3.0], np.float32), True)
        loss = g.mul(g).sum_all()
        loss.backward(None, False)
        with self.assertRaises(GLib.Error) as cm:
            loss.backward(None, False)
        self.assertTrue(cm.exception.matches(Gnn.error_quark(), Gnn.Error.AUTOGRAD))
        self.assertIn('second time', cm.exception.message)
        # torch agrees
        t = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
        tl = (t * t).sum()
        tl.backward()
        with self.assertRaises(RuntimeError):
            tl.backward()

    def test_retain_graph_accumulates(self):
        a = np.array([1.0, -2.0, 3.0], np.float32)
        g, t = to_gnn(a, True), to_torch(a, True)
        gl, tl = g.mul(g).sum_all(), (t * t).sum()
        gl.backward(None, True)
        gl.backward(None, False)
        tl.backward(retain_graph=True)
        tl.backward()
        np.testing.assert_allclose(g.get_grad().numpy(), t.grad.numpy())
        with self.assertRaises(GLib.Error):
            gl.backward(None, False)

    def test_backward_needs_scalar_or_gradient(self):
        g = to_gnn(np.ones(3, np.float32), True)
        y = g.mul_scalar(2.0)
        with self.assertRaises(GLib.Error) as cm:
            y.backward(None, False)
        self.assertEqual(cm.exception.domain, 'gnn-error-quark')
        y.backward(to_gnn(np.array([1.0, 2.0, 3.0], np.float32)), False)
        np.testing.assert_array_equal(g.get_grad().numpy(), [2, 4, 6])

    def test_override_backward_defaults(self):
        g = to_gnn(np.ones(2, np.float64), True)
        g.mul(g).sum_all().backward()
        np.testing.assert_array_equal(g.grad.numpy(), [2, 2])


if __name__ == '__main__':
    main()
