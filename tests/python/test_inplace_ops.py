"""torch's in-place forms (Tensor.X_, torch.X_; _gnn/inplace.py) against torch 1.13: values,
dtype, the same object returned, the version counter, gradients through the in-place result
(also on views), the leaf and saved-tensor errors, the dtype rule, a float64 gradcheck of a few
in-place chains, and the random in-place family's shapes, dtypes, ranges and moments (fixed
seeds; each bound is many standard errors wide, so the fixed draws cannot flake)."""
import numpy as np
import torch

from gnntest import ParityTest, main, to_np
import gnn

# name, positional arguments (arrays become tensors), input range, differentiable
R = np.random.default_rng(7)


def U(lo, hi, shape=(2, 3)):
    return R.uniform(lo, hi, size=shape)


UNIT = (-0.9, 0.9)
POS = (0.2, 3.0)
ANY = (-3.0, 3.0)
CASES = [
    ('abs', (), ANY, True), ('absolute', (), ANY, True), ('acos', (), UNIT, True),
    ('arccos', (), UNIT, True), ('acosh', (), (1.2, 3.0), True), ('arccosh', (), (1.2, 3.0), True),
    ('asin', (), UNIT, True), ('arcsin', (), UNIT, True), ('asinh', (), ANY, True),
    ('arcsinh', (), ANY, True), ('atan', (), ANY, True), ('arctan', (), ANY, True),
    ('atanh', (), UNIT, True), ('arctanh', (), UNIT, True),
    ('atan2', (U(-2, 2),), ANY, True), ('arctan2', (U(-2, 2, (3,)),), ANY, True),
    ('ceil', (), ANY, True), ('floor', (), ANY, True), ('round', (), ANY, True),
    ('trunc', (), ANY, True), ('fix', (), ANY, True), ('frac', (), ANY, True),
    ('clamp', (-1.0, 1.0), ANY, True), ('clip', (-0.5, 2.0), ANY, True),
    ('clamp_max', (0.5,), ANY, True), ('clamp_min', (-0.5,), ANY, True),
    ('copysign', (U(-1, 1),), POS, True), ('cos', (), ANY, True), ('cosh', (), ANY, True),
    ('sin', (), ANY, True), ('sinh', (), ANY, True), ('tan', (), UNIT, True), ('tanh', (), ANY, True),
    ('deg2rad', (), ANY, True), ('rad2deg', (), ANY, True), ('digamma', (), POS, True),
    ('lgamma', (), POS, True), ('divide', (U(0.5, 2),), ANY, True),
    ('true_divide', (U(0.5, 2),), ANY, True), ('multiply', (U(-2, 2),), ANY, True),
    ('subtract', (U(-2, 2),), ANY, True), ('erf', (), ANY, True), ('erfc', (), ANY, True),
    ('erfinv', (), UNIT, True), ('exp', (), ANY, True), ('exp2', (), ANY, True),
    ('expm1', (), ANY, True), ('log', (), POS, True), ('log10', (), POS, True),
    ('log1p', (), POS, True), ('log2', (), POS, True), ('logit', (), (0.1, 0.9), True),
    ('floor_divide', (U(0.5, 2),), ANY, False), ('fmod', (U(0.5, 2),), ANY, True),
    ('remainder', (U(0.5, 2),), ANY, True), ('hypot', (U(-2, 2),), ANY, True),
    ('i0', (), ANY, True), ('sinc', (), ANY, True), ('neg', (), ANY, True),
    ('negative', (), ANY, True), ('nan_to_num', (), ANY, True), ('pow', (2.0,), ANY, True),
    ('pow', (U(0.5, 2),), POS, True), ('reciprocal', (), POS, True), ('relu', (), ANY, True),
    ('rsqrt', (), POS, True), ('sgn', (), ANY, True), ('sign', (), ANY, True),
    ('sigmoid', (), ANY, True), ('square', (), ANY, True), ('xlogy', (U(0.5, 2),), POS, True),
    ('mvlgamma', (2,), (1.5, 3.0), True), ('polygamma', (1,), POS, True),
    ('heaviside', (U(-1, 1),), ANY, False), ('nextafter', (U(-1, 1),), ANY, False),
    ('ldexp', (np.array([1.0, 2.0, 0.0]),), ANY, True), ('tril', (), ANY, True),
    ('triu', (1,), ANY, True), ('cumsum', (1,), ANY, True), ('cumprod', (0,), POS, True),
    ('masked_fill', (np.array([[True, False, True], [False, False, True]]), 0.5), ANY, True),
    ('eq', (U(-1, 1),), ANY, False), ('ne', (U(-1, 1),), ANY, False), ('lt', (0.0,), ANY, False),
    ('le', (U(-1, 1),), ANY, False), ('gt', (U(-1, 1),), ANY, False), ('ge', (0.5,), ANY, False),
    ('greater', (U(-1, 1),), ANY, False), ('greater_equal', (U(-1, 1),), ANY, False),
    ('less', (U(-1, 1),), ANY, False), ('less_equal', (U(-1, 1),), ANY, False),
    ('not_equal', (U(-1, 1),), ANY, False), ('logical_and', (U(-1, 1),), ANY, False),
    ('logical_or', (U(-1, 1),), ANY, False), ('logical_xor', (U(-1, 1),), ANY, False),
    ('logical_not', (), ANY, False),
]

INT_CASES = [
    ('bitwise_and', (np.array([3, 5, 6]),)), ('bitwise_or', (np.array([3, 5, 6]),)),
    ('bitwise_xor', (np.array([3, 5, 6]),)), ('bitwise_not', ()),
    ('bitwise_left_shift', (np.array([1, 2, 3]),)), ('bitwise_right_shift', (np.array([1, 0, 2]),)),
    ('gcd', (np.array([4, 6, 9]),)), ('lcm', (np.array([4, 6, 9]),)), ('abs', ()), ('neg', ()),
    ('square', ()), ('sign', ()), ('floor_divide', (np.array([2, 3, 4]),)),
    ('remainder', (np.array([2, 3, 4]),)), ('fmod', (np.array([2, 3, 4]),)),
    ('eq', (np.array([8, 1, 2]),)), ('cumsum', (0,)), ('clamp', (0, 9)), ('tril', ()),
]


def args_for(lib, args, dtype):
    out = []
    for a in args:
        if isinstance(a, np.ndarray):
            a = a.astype(dtype) if a.dtype.kind == 'f' else a
            out.append(torch.from_numpy(a.copy()) if lib is torch else gnn.tensor(a))
        else:
            out.append(a)
    return out


class InplaceValuesTest(ParityTest):
    def run_case(self, name, args, x, dtype):
        tx = torch.from_numpy(x.copy())
        gx = gnn.tensor(x.copy())
        tr = getattr(tx, name + '_')(*args_for(torch, args, dtype))
        v = gx._version
        gr = getattr(gx, name + '_')(*args_for(gnn, args, dtype))
        self.assertIs(gr, gx, name + '_ returns the tensor itself')
        self.assertIs(tr, tx)
        self.assertEqual(gx._version, v + 1, name + '_ bumps the version once')
        self.assertEqual(str(gx.dtype), str(tx.dtype), name)
        self.assert_close(to_np(gx), tx.numpy(), 1e-5, 1e-6, name + '_')

    def test_float(self):
        for name, args, (lo, hi), _ in CASES:
            for dtype in (np.float32, np.float64):
                with self.subTest(op=name, dtype=dtype):
                    shape = (2, 3) if name != 'ldexp' else (3,)
                    x = np.random.default_rng(len(name)).uniform(lo, hi, size=shape).astype(dtype)
                    self.run_case(name, args, x, dtype)

    def test_int(self):
        for name, args in INT_CASES:
            with self.subTest(op=name):
                x = np.array([7, -3, 12]) if name != 'tril' else np.arange(9).reshape(3, 3)
                if name.startswith('bitwise_') and 'shift' in name:
                    x = np.array([7, 3, 12])
                self.run_case(name, args, x.astype(np.int64), np.int64)

    def test_torch_functions(self):
        x = np.array([0.5, -1.5, 2.0])
        for name, args in (('exp_', ()), ('relu_', ()), ('sigmoid_', ()), ('clamp_', (-1.0, 1.0)),
                           ('abs_', ()), ('fill_', (3.0,)), ('zero_', ()), ('sqrt_', ()),
                           ('logit_', ()), ('xlogy_', (2.0,)), ('nan_to_num_', ())):
            with self.subTest(fn=name):
                tx = torch.from_numpy(np.abs(x) / 3)
                gx = gnn.tensor(np.abs(x) / 3)
                getattr(torch, name)(tx, *args)
                self.assertIs(getattr(gnn, name)(gx, *args), gx)
                self.assert_close(to_np(gx), tx.numpy(), 1e-12, 1e-12, name)
        t = gnn.tensor([1.0, 5.0])
        self.assert_close(to_np(gnn.clamp_max(t, 2.0)), [1.0, 2.0], 0, 0)
        self.assert_close(to_np(gnn.clamp_min(t, gnn.tensor([2.0, 2.0]))), [2.0, 5.0], 0, 0)

    def test_keywords(self):
        tx, gx = torch.tensor([[1.0, 2.0], [3.0, 4.0]]), gnn.tensor([[1.0, 2.0], [3.0, 4.0]])
        tx.divide_(torch.tensor(3.0), rounding_mode='floor')
        gx.divide_(gnn.tensor(3.0), rounding_mode='floor')
        tx.cumsum_(dim=0)
        gx.cumsum_(dim=0)
        tx.tril_(diagonal=-1)
        gx.tril_(diagonal=-1)
        tx.nan_to_num_(nan=1.0, posinf=2.0)
        gx.nan_to_num_(nan=1.0, posinf=2.0)
        tx.clamp_(min=0.5)
        gx.clamp_(min=0.5)
        self.assert_close(to_np(gx), tx.numpy(), 0, 0)
        f = gnn.tensor([1.0, 2.0], dtype=gnn.float64)
        self.assertIs(f.float_power_(2), f)
        self.assert_close(to_np(f), [1.0, 4.0], 0, 0)


class InplaceRulesTest(ParityTest):
    def raises_like_torch(self, fn, words):
        with self.assertRaises(RuntimeError) as tc:
            fn(torch)
        self.assertIn(words, str(tc.exception))
        with self.assertRaises(RuntimeError) as gc:
            fn(gnn)
        self.assertIn(words, str(gc.exception))

    def test_result_dtype_must_cast(self):
        self.raises_like_torch(lambda m: m.tensor([1, 2]).exp_(),
                               "result type Float can't be cast to the desired output type Long")
        self.raises_like_torch(lambda m: m.tensor([True, False]).remainder_(m.tensor([2, 3])),
                               "result type Long can't be cast to the desired output type Bool")
        self.raises_like_torch(lambda m: m.tensor([1.0, 2.0]).float_power_(2),
                               "the base given to float_power_ has dtype Float")
        # a wider result is cast back: float32 stays float32
        for m in (torch, gnn):
            x = m.tensor([3.0, 4.0])
            x.hypot_(m.tensor([4.0, 3.0], dtype=m.float64))
            self.assertEqual(str(x.dtype), 'torch.float32')
            # comparisons write 0 and 1 in the tensor's dtype
            y = m.tensor([1, 5, 2])
            y.gt_(2)
            self.assertEqual(str(y.dtype), 'torch.int64')
            self.assertEqual(list(y.tolist()), [0, 1, 0])

    def test_shape_must_match(self):
        self.raises_like_torch(lambda m: m.ones(3).hypot_(m.ones(2, 3)),
                               "output with shape [3] doesn't match the broadcast shape [2, 3]")
        for m in (torch, gnn):
            x = m.ones(2, 3)
            x.atan2_(m.ones(3))   # the other side broadcasts
            self.assertEqual(list(x.shape), [2, 3])

    def test_leaf_error(self):
        self.raises_like_torch(lambda m: m.ones(3, requires_grad=True).exp_(),
                               'a leaf Variable that requires grad is being used in an in-place operation.')
        self.raises_like_torch(lambda m: m.ones(3, requires_grad=True).uniform_(),
                               'a leaf Variable that requires grad is being used in an in-place operation.')
        for m in (torch, gnn):   # allowed with grad off
            x = m.ones(3, requires_grad=True)
            with m.no_grad():
                x.exp_()
            self.assertAlmostEqual(float(x.sum()), 3 * np.e, 5)

    def test_saved_tensor_error(self):
        def input_saved(m):
            x = m.ones(3, requires_grad=True)
            a = x * 2
            b = a.sin()      # sin saves its input a
            a.exp_()
            b.sum().backward()

        def output_saved(m):
            x = m.ones(3, requires_grad=True)
            c = (x * 2).exp()   # exp saves its output c
            c.sin_()
            c.sum().backward()
        self.raises_like_torch(input_saved, 'modified by an inplace operation')
        self.raises_like_torch(output_saved, 'modified by an inplace operation')

    def test_version_shared_with_views(self):
        x = gnn.zeros(2, 3)
        v = x[0]
        before = x._version
        v.cos_()
        self.assertEqual(x._version, before + 1)
        self.assertEqual(v._version, x._version)
        self.assert_close(to_np(x), [[1, 1, 1], [0, 0, 0]], 0, 0)


# torch 1.13 has no gradient for these in-place forms (acosh_, asinh_, atanh_ raise
# NotImplementedError, ldexp_ refuses autograd) or a wrong one (sgn_ of a real tensor: the
# derivative of sgn is zero, as torch's sign gives): the oracle is the out-of-place op
TORCH_OUT_OF_PLACE = {'acosh': 'acosh', 'arccosh': 'acosh', 'asinh': 'asinh', 'arcsinh': 'asinh',
                      'atanh': 'atanh', 'arctanh': 'atanh', 'ldexp': 'ldexp', 'sgn': 'sign'}


class InplaceGradTest(ParityTest):
    def test_gradients_through_result(self):
        for name, args, (lo, hi), diff in CASES:
            if not diff:
                continue
            with self.subTest(op=name):
                shape = (2, 3) if name != 'ldexp' else (3,)
                x = np.random.default_rng(3).uniform(lo, hi, size=shape)
                w = np.random.default_rng(4).uniform(-1, 1, size=shape)
                grads = []
                for m in (torch, gnn):
                    leaf = m.tensor(x, requires_grad=True)
                    y = leaf * 1.0
                    if m is torch and name in TORCH_OUT_OF_PLACE:
                        y = getattr(y, TORCH_OUT_OF_PLACE[name])(*args_for(m, args, np.float64))
                    else:
                        r = getattr(y, name + '_')(*args_for(m, args, np.float64))
                        self.assertIs(r, y)
                    (y * m.tensor(w)).sum().backward()
                    grads.append(to_np(leaf.grad) if m is gnn else leaf.grad.numpy())
                self.assert_close(grads[1], grads[0], 1e-7, 1e-9, name + '_ gradient')

    def test_gradient_to_the_other_operand(self):
        # self needs no grad, other does: the op's backward reads self's old values
        for name in ('mul_', 'hypot_', 'atan2_', 'xlogy_', 'copysign_', 'pow_'):
            with self.subTest(op=name):
                grads = []
                for m in (torch, gnn):
                    other = m.tensor([0.5, 1.5, 2.0], dtype=m.float64, requires_grad=True)
                    x = m.tensor([1.5, 2.0, 0.7], dtype=m.float64)
                    getattr(x, name)(other)
                    x.sum().backward()
                    grads.append(np.asarray(other.grad.tolist()))
                self.assert_close(grads[1], grads[0], 1e-10, 1e-12, name)

    def test_on_views(self):
        grads = []
        for m in (torch, gnn):
            leaf = m.tensor(np.arange(12.0).reshape(3, 4) / 10, requires_grad=True)
            y = leaf * 2
            y[1].sin_()
            y.narrow(1, 0, 2).mul_(m.tensor([3.0, -1.0], dtype=m.float64))
            y[:, 3].clamp_(max=0.9)
            (y * y).sum().backward()
            grads.append(np.asarray(leaf.grad.tolist()))
        self.assert_close(grads[1], grads[0], 1e-10, 1e-12, 'view gradients')

    def test_random_fill_zeroes_the_history(self):
        for m in (torch, gnn):
            leaf = m.ones(3, requires_grad=True)
            y = leaf * 3
            y.normal_()
            (y * 2).sum().backward()
            self.assertEqual(list(leaf.grad.tolist()), [0.0, 0.0, 0.0])

    def test_double_backward(self):
        # create_graph through in-place results: the C ops (mul_, div_, sub_) save a recorded
        # clone of the overwritten values, the generic path reads a clone
        chains = [
            lambda m, x: (x * 1.0).sin().mul_(x),
            lambda m, x: (x * 1.0).sin_().div_(x + 2.0),
            lambda m, x: (x * x).sub_(x.exp()).tanh_() * x,
            lambda m, x: ((x * 1.0).hypot_(x * x) * x).pow_(3.0),
        ]
        for k, chain in enumerate(chains):
            with self.subTest(chain=k):
                got = []
                for m in (torch, gnn):
                    x = m.tensor([0.5, 1.0, 2.0], dtype=m.float64, requires_grad=True)
                    (g,) = m.autograd.grad(chain(m, x).sum(), x, create_graph=True)
                    (g * g).sum().backward()
                    got.append((np.asarray(g.tolist()), np.asarray(x.grad.tolist())))
                self.assert_close(got[1][0], got[0][0], 1e-10, 1e-12, 'first derivative')
                self.assert_close(got[1][1], got[0][1], 1e-10, 1e-12, 'second derivative')

    def test_gradcheck_chains(self):
        # float64: gnn's gradient against central differences of gnn's own forward
        chains = [
            lambda x: (x * 1.0).sin_().exp_().mul_(x),
            lambda x: (x + 2.0).log_().pow_(2.0).sigmoid_(),
            lambda x: (x * 1.0).tanh_().atan2_(x * 0.5 + 1.0).cumsum_(0),
            lambda x: (x * x).hypot_(x).reciprocal_().clamp_(max=2.0),
        ]
        rng = np.random.default_rng(11)
        for k, chain in enumerate(chains):
            with self.subTest(chain=k):
                x0 = rng.uniform(0.2, 1.0, size=(4,))
                leaf = gnn.tensor(x0, requires_grad=True)
                chain(leaf).sum().backward()
                analytic = to_np(leaf.grad)
                numeric = np.zeros_like(x0)
                eps = 1e-6
                with gnn.no_grad():
                    for i in range(x0.size):
                        hi, lo = x0.copy(), x0.copy()
                        hi[i] += eps
                        lo[i] -= eps
                        numeric[i] = (float(chain(gnn.tensor(hi)).sum()) -
                                      float(chain(gnn.tensor(lo)).sum())) / (2 * eps)
                self.assert_close(analytic, numeric, 1e-5, 1e-7, 'chain %d' % k)


class IndexedWriteTest(ParityTest):
    """index_add, index_reduce, index_put, put, renorm, fill_diagonal_ and their in-place forms:
    values and float64 gradients (to the input and to the written values) against torch."""

    def both(self, fn, arrays, grads_for=(0, 1)):
        results, grads = [], []
        for m in (torch, gnn):
            ts = [m.tensor(a, requires_grad=(k in grads_for and a.dtype.kind == 'f'))
                  if isinstance(a, np.ndarray) else a for k, a in enumerate(arrays)]
            out = fn(m, *ts)
            w = m.tensor(np.random.default_rng(5).uniform(-1, 1, size=tuple(out.shape)))
            (out * w).sum().backward()
            results.append(np.asarray(out.tolist()))
            grads.append([np.asarray(t.grad.tolist()) for t in ts
                          if isinstance(t, (torch.Tensor, gnn.Tensor)) and t.requires_grad])
        self.assert_close(results[1], results[0], 1e-10, 1e-12, 'values')
        self.assertEqual(len(grads[1]), len(grads[0]))
        for k, (g, t) in enumerate(zip(grads[1], grads[0])):
            self.assert_close(g, t, 1e-10, 1e-12, 'gradient %d' % k)

    def test_index_add(self):
        x, src = U(-1, 1, (4, 3)), U(-1, 1, (3, 3))
        self.both(lambda m, x, s: x.index_add(0, m.tensor([2, 0, 2]), s, alpha=-1.5), [x, src])
        self.both(lambda m, x, s: m.index_add(x, 1, m.tensor([1, 0, 1]), s.t()), [x.T.copy(), src])
        self.both(lambda m, x, s: (x * 1).index_add_(-1, m.tensor([0, 2, 0]), s), [x.T.copy()[:3], src])

    def test_index_reduce(self):
        x, src = U(0.5, 2, (4, 2)), U(0.5, 2, (5, 2))
        idx = [0, 3, 0, 1, 3]
        for reduce in ('prod', 'mean', 'amax', 'amin'):
            for include_self in (True, False):
                with self.subTest(reduce=reduce, include_self=include_self):
                    self.both(lambda m, x, s: x.index_reduce(0, m.tensor(idx), s, reduce,
                                                             include_self=include_self), [x, src])
        self.both(lambda m, x, s: (x * 1).index_reduce_(0, m.tensor(idx), s, 'mean'), [x, src])

    def test_index_put_and_put(self):
        x = U(-1, 1, (3, 4))
        self.both(lambda m, x, v: x.index_put((m.tensor([0, 2, -1]), m.tensor([1, 1, 3])), v),
                  [x, U(-1, 1, (3,))])
        self.both(lambda m, x, v: m.index_put(x, (m.tensor([0, 0, 1]),), v, accumulate=True),
                  [x, U(-1, 1, (4,))])
        self.both(lambda m, x, v: (x * 1).index_put_((m.tensor([[True, False, True, False]] * 3),), v),
                  [x, U(-1, 1, ())])
        self.both(lambda m, x, v: (x * 1).index_put_((m.tensor([2, 1]), m.tensor([0, 3])), v, True),
                  [x, U(-1, 1, (2,))])
        self.both(lambda m, x, v: x.put(m.tensor([0, -1, 5]), v), [x, U(-1, 1, (3,))])
        self.both(lambda m, x, v: (x * 1).put_(m.tensor([[1, 1], [2, 7]]), v, accumulate=True),
                  [x, U(-1, 1, (2, 2))])
        for m in (torch, gnn):
            with self.assertRaises(IndexError):
                m.zeros(3, 4).index_put_((m.tensor([3]),), m.tensor(1.0))
            with self.assertRaises((IndexError, RuntimeError)):
                m.zeros(3, 4).put_(m.tensor([12]), m.tensor([1.0]))
            with self.assertRaises((IndexError, RuntimeError)):
                m.zeros(3, 4).index_add_(0, m.tensor([5]), m.ones(1, 4))

    def test_renorm(self):
        x = U(-2, 2, (3, 4, 2))
        for p, dim, maxnorm in ((2, 0, 1.5), (1, 1, 2.0), (3.0, -1, 0.5), (2, 2, 100.0)):
            with self.subTest(p=p, dim=dim, maxnorm=maxnorm):
                self.both(lambda m, x: x.renorm(p, dim, maxnorm), [x], (0,))
        self.both(lambda m, x: (x * 1).renorm_(2, 0, 1.0), [x], (0,))
        with self.assertRaises(RuntimeError):
            gnn.ones(3).renorm(2, 0, 1.0)

    def test_fill_diagonal(self):
        for shape, wrap in (((3, 5), False), ((7, 3), True), ((7, 3), False), ((3, 3, 3), False)):
            with self.subTest(shape=shape, wrap=wrap):
                self.both(lambda m, x: (x * 1).fill_diagonal_(0.25, wrap=wrap), [U(-1, 1, shape)], (0,))
        x = gnn.zeros(2, 3, dtype=gnn.int64)
        self.assertIs(x.fill_diagonal_(4), x)
        self.assertEqual(x.tolist(), [[4, 0, 0], [0, 4, 0]])
        with self.assertRaises(RuntimeError):
            gnn.zeros(2, 3, 2).fill_diagonal_(1.0)


class RandomInplaceTest(ParityTest):
    N = 40000

    def moments(self, t):
        a = to_np(t).astype(np.float64).ravel()
        return a, a.mean(), a.var()

    def assert_mean(self, a, mean, var, what):
        # within 6 standard errors of the mean
        self.assertLess(abs(a.mean() - mean), 6 * np.sqrt(var / a.size), what)

    def test_shapes_dtypes_and_self(self):
        g = gnn.Generator()
        g.manual_seed(0)
        for name, args in (('uniform_', ()), ('normal_', ()), ('bernoulli_', ()), ('random_', ()),
                           ('exponential_', ()), ('geometric_', (0.5,)), ('log_normal_', ()),
                           ('cauchy_', ())):
            for dtype in ('float32', 'float64'):
                with self.subTest(op=name, dtype=dtype):
                    x = gnn.zeros(2, 3, dtype=getattr(gnn, dtype))
                    tx = torch.zeros(2, 3, dtype=getattr(torch, dtype))
                    v = x._version
                    self.assertIs(getattr(x, name)(*args, generator=g), x)
                    getattr(tx, name)(*args)
                    self.assertEqual(x._version, v + 1)
                    self.assertEqual(list(x.shape), [2, 3])
                    self.assertEqual(str(x.dtype), str(tx.dtype))

    def test_uniform(self):
        gnn.manual_seed(1)
        a, _, _ = self.moments(gnn.empty(self.N).uniform_(-2.0, 3.0))
        self.assertTrue(a.min() >= -2.0 and a.max() < 3.0)
        self.assert_mean(a, 0.5, 25 / 12, 'uniform mean')
        b, _, _ = self.moments(gnn.empty(10).uniform_(**{'from': 5, 'to': 6}))
        self.assertTrue(b.min() >= 5 and b.max() < 6)
        g1, g2 = gnn.Generator(), gnn.Generator()
        g1.manual_seed(9)
        g2.manual_seed(9)
        self.assertEqual(gnn.empty(5).uniform_(generator=g1).tolist(),
                         gnn.empty(5).uniform_(generator=g2).tolist(), 'a seeded generator repeats')
        with self.assertRaises(RuntimeError):
            gnn.empty(3).uniform_(2.0, 1.0)
        with self.assertRaises(RuntimeError):
            gnn.zeros(3, dtype=gnn.int64).uniform_()

    def test_normal_and_log_normal(self):
        gnn.manual_seed(2)
        a, m, v = self.moments(gnn.empty(self.N, dtype=gnn.float64).normal_(1.5, 2.0))
        self.assert_mean(a, 1.5, 4.0, 'normal mean')
        self.assertLess(abs(v - 4.0), 0.1, 'normal variance')
        b, _, _ = self.moments(gnn.empty(self.N).log_normal_(0.0, 0.5))
        self.assertTrue(b.min() > 0)
        self.assert_mean(np.log(b), 0.0, 0.25, 'log-normal log mean')
        with self.assertRaises(RuntimeError):
            gnn.empty(3).normal_(0.0, -1.0)

    def test_exponential_geometric_cauchy(self):
        gnn.manual_seed(3)
        a, _, _ = self.moments(gnn.empty(self.N).exponential_(4.0))
        self.assertTrue(a.min() >= 0)
        self.assert_mean(a, 0.25, 1 / 16, 'exponential mean')
        b, _, _ = self.moments(gnn.empty(self.N, dtype=gnn.int64).geometric_(0.25))
        self.assertTrue(b.min() >= 1 and np.all(b == np.round(b)))
        self.assert_mean(b, 4.0, 0.75 / 0.0625, 'geometric mean')
        c, _, _ = self.moments(gnn.empty(self.N).cauchy_(2.0, 0.5))
        # the median and quartiles (a Cauchy has no mean): 2 -/+ 0.5
        q1, med, q3 = np.percentile(c, [25, 50, 75])
        for got, want in ((q1, 1.5), (med, 2.0), (q3, 2.5)):
            self.assertLess(abs(got - want), 0.05)
        with self.assertRaises(RuntimeError):
            gnn.empty(3).exponential_(0.0)
        with self.assertRaises(RuntimeError):
            gnn.empty(3).geometric_(1.0)

    def test_bernoulli(self):
        gnn.manual_seed(4)
        a, _, _ = self.moments(gnn.empty(self.N).bernoulli_(0.3))
        self.assertTrue(set(np.unique(a)) <= {0.0, 1.0})
        self.assert_mean(a, 0.3, 0.21, 'bernoulli_ (number)')
        p = gnn.tensor([0.0, 1.0, 0.5]).expand(self.N // 3, 3)
        b = to_np(gnn.empty(self.N // 3, 3, dtype=gnn.int64).bernoulli_(p))
        self.assertTrue((b[:, 0] == 0).all() and (b[:, 1] == 1).all())
        self.assert_mean(b[:, 2], 0.5, 0.25, 'bernoulli_ (tensor)')
        c = gnn.bernoulli(gnn.full((self.N,), 0.8, dtype=gnn.float64))
        self.assertEqual(str(c.dtype), 'torch.float64')
        self.assert_mean(to_np(c), 0.8, 0.16, 'torch.bernoulli')
        d = gnn.full((self.N,), 0.5).bernoulli()
        self.assert_mean(to_np(d), 0.5, 0.25, 'Tensor.bernoulli')
        e = gnn.bernoulli(gnn.zeros(self.N), 0.9)
        self.assert_mean(to_np(e), 0.9, 0.09, 'torch.bernoulli (input, p)')
        with self.assertRaises(RuntimeError):
            gnn.empty(3).bernoulli_(1.5)
        with self.assertRaises(RuntimeError):
            gnn.bernoulli(gnn.tensor([0.5, 2.0]))

    def test_random(self):
        gnn.manual_seed(5)
        a = to_np(gnn.empty(self.N, dtype=gnn.int64).random_(3, 10))
        self.assertEqual(set(np.unique(a)), set(range(3, 10)))
        b = to_np(gnn.empty(self.N).random_(5))
        self.assertEqual(set(np.unique(b)), set(range(5)))
        c = to_np(gnn.empty(self.N).random_())
        self.assertTrue(c.min() >= 0 and c.max() <= 2 ** 24 and np.all(c == np.round(c)))
        self.assert_mean(c, 2 ** 23, (2 ** 24) ** 2 / 12, 'random_ () float32')
        d = to_np(gnn.empty(self.N, dtype=gnn.uint8).random_())
        self.assertEqual(int(d.max()), 255)
        e = to_np(gnn.empty(self.N, dtype=gnn.bool).random_())
        self.assertEqual(set(np.unique(e)), {False, True})
        with self.assertRaises(RuntimeError):
            gnn.empty(3).random_(5, 2)

    def test_poisson(self):
        gnn.manual_seed(7)
        rates = [0.0, 0.5, 3.0, 40.0, 1000.0]
        d = to_np(gnn.poisson(gnn.tensor(rates).expand(self.N // 2, 5)))
        self.assertEqual(d.shape, (self.N // 2, 5))
        self.assertTrue(np.all(d == np.round(d)) and d.min() >= 0)
        self.assertTrue((d[:, 0] == 0).all(), 'rate 0 draws 0')
        for j, lam in enumerate(rates[1:], 1):
            self.assert_mean(d[:, j], lam, lam, 'poisson mean, rate %g' % lam)
            self.assertLess(abs(d[:, j].var() / lam - 1), 0.06, 'poisson variance, rate %g' % lam)
        t = torch.poisson(torch.ones(2, dtype=torch.float64))
        self.assertEqual(str(gnn.poisson(gnn.ones(2, dtype=gnn.float64)).dtype), str(t.dtype))
        with self.assertRaises(RuntimeError):
            gnn.poisson(gnn.tensor([-1.0]))

    def test_torch_normal_forms(self):
        gnn.manual_seed(6)
        mean = gnn.tensor(np.linspace(-3, 3, 4), dtype=gnn.float64)
        std = gnn.tensor([0.5, 1.0, 2.0, 0.0], dtype=gnn.float64)
        draws = np.stack([to_np(gnn.normal(mean, std)) for _ in range(4000)])
        self.assertEqual(draws.shape, (4000, 4))
        self.assertTrue(np.all(draws[:, 3] == 3.0), 'std 0 gives the mean')
        for j in range(3):
            self.assert_mean(draws[:, j], np.linspace(-3, 3, 4)[j], float(std[j]) ** 2, 'column %d' % j)
        t = gnn.normal(gnn.zeros(self.N), 2.0)
        self.assert_mean(to_np(t), 0.0, 4.0, 'normal (tensor, number)')
        u = gnn.normal(1.0, gnn.full((self.N,), 3.0))
        self.assert_mean(to_np(u), 1.0, 9.0, 'normal (number, tensor)')
        v = gnn.normal(2.0, 0.5, (100, 400))
        tv = torch.normal(2.0, 0.5, (100, 400))
        self.assertEqual(list(v.shape), list(tv.shape))
        self.assertEqual(str(v.dtype), str(tv.dtype))
        self.assert_mean(to_np(v), 2.0, 0.25, 'normal (number, number, size)')
        self.assertEqual(list(gnn.normal(gnn.zeros(2, 1), gnn.ones(3)).shape),
                         list(torch.normal(torch.zeros(2, 1), torch.ones(3)).shape))
        g = gnn.Generator()
        g.manual_seed(1)
        self.assertEqual(str(gnn.normal(0.0, 1.0, (3,), dtype=gnn.float64, generator=g).dtype), 'torch.float64')


if __name__ == '__main__':
    main()
