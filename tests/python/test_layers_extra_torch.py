#!/usr/bin/python3
"""torch.nn's lazy modules, grid sampling, gumbel_softmax and the remaining torch.nn names
(_gnn/layers_extra.py) against torch 1.13: printed forms, state-dict keys, outputs and
gradients with copied weights, float64 gradchecks, and the errors of bad input."""

import itertools
import warnings

from gnntest import np, torch, rand, to_gnn, to_np, ParityTest, main

import gnn
import gnn.nn.functional as F
import torch.nn.functional as TF

warnings.simplefilter('ignore')     # the lazy modules' "new feature" warning, in both


def gradcheck(test, fn, arrays, eps=1e-6, seed=3, name='', rtol=1e-5, atol=1e-7):
    """gnn's gradient of sum (fn (*xs) * w) for float64 xs against central differences"""
    xs = [to_gnn(a, requires_grad=True) for a in arrays]
    out = fn(*xs)
    w = rand(tuple(out.shape), np.float64, seed=seed)
    (out * to_gnn(w)).sum().backward()
    for k, array in enumerate(arrays):
        analytic = to_np(xs[k].get_grad()).reshape(-1)
        numeric = np.zeros(array.size)
        for i in range(array.size):
            plus, minus = array.copy(), array.copy()
            plus.reshape(-1)[i] += eps
            minus.reshape(-1)[i] -= eps
            args_p = [to_gnn(plus if j == k else a) for j, a in enumerate(arrays)]
            args_m = [to_gnn(minus if j == k else a) for j, a in enumerate(arrays)]
            with gnn.no_grad():
                numeric[i] = ((to_np(fn(*args_p)) * w).sum() - (to_np(fn(*args_m)) * w).sum()) / (2 * eps)
        np.testing.assert_allclose(analytic, numeric, rtol=rtol, atol=atol,
                                   err_msg='%s: gradcheck of input %d' % (name, k))


def copy_state(gm, tm):
    """torch's parameters and buffers into gnn's module, by state-dict key"""
    state = {k: gnn.tensor(v.detach().numpy().copy()) for k, v in tm.state_dict().items()}
    gm.load_state_dict(state)


def copy_to_torch(tm, gm):
    """gnn's parameters and buffers into torch's module"""
    with torch.no_grad():
        for k, v in gm.state_dict().items():
            tm.state_dict()[k].copy_(torch.from_numpy(to_np(v).copy()))


def first_forward_then_train(tm, gm, topt, gopt, x):
    # the first forward (torch's and gnn's), torch's module given gnn's values, then three steps
    # of each optimizer on the sum of squares
    gm(to_gnn(x))
    tm(torch.from_numpy(x))
    copy_to_torch(tm, gm)
    for step in range(3):
        for opt, m, xx in ((topt, tm, torch.from_numpy(x)), (gopt, gm, to_gnn(x))):
            opt.zero_grad(set_to_none=True)
            (m(xx) ** 2).sum().backward()
            opt.step()


class LazyTest(ParityTest):
    def check_lazy(self, name, args, kwargs, shape, dtype=np.float32):
        gm = getattr(gnn.nn, name)(*args, **kwargs)
        tm = getattr(torch.nn, name)(*args, **kwargs)
        self.assertEqual(repr(gm), repr(tm))
        self.assertEqual(gm.has_uninitialized_params(), tm.has_uninitialized_params())
        self.assertEqual(list(gm.state_dict().keys()), list(tm.state_dict().keys()))
        if dtype == np.float64:
            gm, tm = gm.double(), tm.double()
        x = rand(shape, dtype, seed=1)
        gm(to_gnn(x))
        tm(torch.from_numpy(x))
        self.assertFalse(gm.has_uninitialized_params())
        if list(tm.parameters()) or list(tm.buffers()):
            # (torch leaves num_features at 0 in a lazy norm with neither parameters nor buffers:
            # it has nothing to initialise; gnn's prints the size it inferred)
            self.assertEqual(repr(gm), repr(tm), name + ' after the first forward')
        self.assertEqual(list(gm.state_dict().keys()), list(tm.state_dict().keys()))
        for k, v in tm.state_dict().items():
            self.assertEqual(tuple(gm.state_dict()[k].shape), tuple(v.shape), k)
        copy_to_torch(tm, gm)
        gm.train()
        tm.train()
        self.check_op(lambda x: gm(x), lambda x: tm(x), [rand(shape, dtype, seed=2)], name=name)
        for (k, p), (_, q) in zip(gm.named_parameters(), tm.named_parameters()):
            # atol 1e-5: a weight gradient sums ~100 float32 products of size ~40, whose
            # cancellation leaves a few ulps of 40 in a small entry (the reference backend sums
            # in another order than torch)
            self.assert_close(to_np(p.get_grad()), q.grad.numpy(), 1e-5, 1e-5, name + ' grad of ' + k)
        for k, v in tm.state_dict().items():     # running statistics updated the same
            self.assert_close(to_np(gm.state_dict()[k]), v.numpy(), 1e-5, 1e-6, name + ' ' + k)
        return gm, tm

    def test_lazy_linear(self):
        gm, tm = self.check_lazy('LazyLinear', (4,), {}, (3, 5))
        self.assertEqual(tuple(gm.weight.shape), (4, 5))
        self.assertIs(type(gm.weight), gnn.nn.Parameter)
        self.check_lazy('LazyLinear', (3,), {'bias': False}, (2, 7), np.float64)

    def test_lazy_linear_init_as_linear(self):
        gnn.manual_seed(0)
        gm = gnn.nn.LazyLinear(50)
        gm(gnn.zeros(2, 40))
        bound = 1 / np.sqrt(40)
        w, b = to_np(gm.weight), to_np(gm.bias)
        self.assertLessEqual(np.abs(w).max(), bound)
        self.assertGreater(np.abs(w).max(), 0.9 * bound)      # kaiming_uniform(a=sqrt(5)): U(-1/sqrt(40), ..)
        self.assertLessEqual(np.abs(b).max(), bound)
        self.assertGreater(w.std(), 0.5 * bound / np.sqrt(3))

    def test_lazy_conv(self):
        for n in (1, 2, 3):
            shape = (2, 3) + (5,) * n
            self.check_lazy('LazyConv%dd' % n, (4, 3), {'padding': 1}, shape)
            self.check_lazy('LazyConv%dd' % n, (4, 2), {'stride': 2, 'bias': False}, shape)
            self.check_lazy('LazyConvTranspose%dd' % n, (2, 3), {'stride': 2, 'output_padding': 1}, shape)
        self.check_lazy('LazyConv2d', (4, 3), {'groups': 2, 'dilation': 2}, (1, 4, 7, 7))
        self.check_lazy('LazyConv2d', (4, 3), {'padding': 'same', 'padding_mode': 'reflect'}, (1, 2, 6, 6))

    def test_lazy_conv_unbatched(self):
        gm = gnn.nn.LazyConv2d(4, 3)
        out = gm(gnn.randn(3, 6, 6))
        self.assertEqual(tuple(out.shape), (4, 4, 4))
        self.assertEqual(gm.in_channels, 3)

    def test_lazy_norms(self):
        for n, shape in ((1, (4, 3)), (1, (4, 3, 5)), (2, (2, 3, 4, 4)), (3, (2, 3, 2, 3, 3))):
            self.check_lazy('LazyBatchNorm%dd' % n, (), {}, shape)
            self.check_lazy('LazyBatchNorm%dd' % n, (), {'momentum': None, 'affine': False}, shape)
        for n, shape in ((1, (2, 3, 6)), (2, (2, 3, 4, 4)), (3, (2, 3, 2, 3, 3))):
            self.check_lazy('LazyInstanceNorm%dd' % n, (), {}, shape)
            self.check_lazy('LazyInstanceNorm%dd' % n, (), {'affine': False, 'track_running_stats': False},
                            shape)

    def test_uninitialized_parameter(self):
        p = gnn.nn.UninitializedParameter()
        self.assertEqual(repr(p), '<UninitializedParameter>')
        self.assertIsInstance(p, gnn.nn.Parameter)
        self.assertTrue(p.requires_grad)
        with self.assertRaisesRegex(RuntimeError, "Can't access the shape of an uninitialized"):
            p.shape
        with self.assertRaisesRegex(ValueError, 'Attempted to use an uninitialized parameter in sum'):
            p.sum()
        p.materialize((2, 3))
        self.assertIs(type(p), gnn.nn.Parameter)
        self.assertEqual(tuple(p.shape), (2, 3))
        b = gnn.nn.UninitializedBuffer(dtype=gnn.float64)
        self.assertEqual(repr(b), '<UninitializedBuffer>')
        b.materialize((4,))
        self.assertIs(type(b), gnn.Tensor)
        self.assertEqual(b.dtype, gnn.float64)

    def test_state_dict_of_uninitialized(self):
        gm = gnn.nn.LazyLinear(3)
        state = gm.state_dict()
        self.assertEqual(list(state.keys()), ['weight', 'bias'])
        self.assertIsInstance(state['weight'], gnn.nn.UninitializedParameter)
        # an uninitialised state loads into an uninitialised module, which stays so
        other = gnn.nn.LazyLinear(3)
        other.load_state_dict(state)
        self.assertTrue(other.has_uninitialized_params())

    def test_load_into_uninitialized(self):
        tm = torch.nn.Linear(5, 3)
        gm = gnn.nn.LazyLinear(3)
        copy_state(gm, tm)
        self.assertFalse(gm.has_uninitialized_params())
        np.testing.assert_array_equal(to_np(gm.weight), tm.weight.detach().numpy())
        x = rand((2, 5), seed=4)
        self.assert_close(to_np(gm(to_gnn(x))), tm(torch.from_numpy(x)).detach().numpy(), 1e-5, 1e-6)
        # inside a parent
        tp = torch.nn.Sequential(torch.nn.Linear(4, 6), torch.nn.ReLU(), torch.nn.BatchNorm1d(6))
        gp = gnn.nn.Sequential(gnn.nn.LazyLinear(6), gnn.nn.ReLU(), gnn.nn.LazyBatchNorm1d())
        copy_state(gp, tp)
        tp.eval()
        gp.eval()
        x = rand((3, 4), seed=5)
        self.assert_close(to_np(gp(to_gnn(x))), tp(torch.from_numpy(x)).detach().numpy(), 1e-5, 1e-6)

    def test_optimizer_before_first_forward(self):
        # torch materialises the same parameter objects, so an optimizer made before the first
        # forward trains them; gnn's lazy modules keep the objects too
        tm = torch.nn.LazyLinear(3)
        gm = gnn.nn.LazyLinear(3)
        topt = torch.optim.SGD(tm.parameters(), lr=0.1, momentum=0.9)
        gopt = gnn.optim.SGD(gm.parameters(), lr=0.1, momentum=0.9)
        x = rand((4, 2), seed=6)
        first_forward_then_train(tm, gm, topt, gopt, x)
        self.assert_close(to_np(gm.weight), tm.weight.detach().numpy(), 1e-5, 1e-6, 'trained weight')

    def test_deepcopy(self):
        import copy

        class Net(gnn.nn.Module):
            def __init__(self):
                super().__init__()
                self.fc = gnn.nn.LazyLinear(4)
                self.bn = gnn.nn.LazyBatchNorm1d()

            def forward(self, x):
                return self.bn(self.fc(x))

        net = Net()
        early = copy.deepcopy(net)          # uninitialised, stays so
        self.assertTrue(early.fc.has_uninitialized_params())
        self.assertIsInstance(early.fc.weight, gnn.nn.UninitializedParameter)
        net(gnn.randn(5, 3))
        net.eval()
        twin = copy.deepcopy(net)
        self.assertIs(type(twin.fc.weight), gnn.nn.Parameter)
        self.assertFalse(twin.fc.has_uninitialized_params())
        x = gnn.randn(2, 3)
        np.testing.assert_array_equal(to_np(twin(x)), to_np(net(x)))
        with gnn.no_grad():
            twin.fc.weight.mul_(0)           # the copy's own tensors, which its forward reads
        self.assertFalse(np.allclose(to_np(twin(x)), to_np(net(x))))
        early(gnn.randn(2, 6))
        self.assertEqual(tuple(early.fc.weight.shape), (4, 6))

    def test_other_optimizers_before_first_forward(self):
        x = rand((4, 2), seed=7)
        for name in ('Adam', 'AdamW', 'RMSprop'):
            tm, gm = torch.nn.LazyLinear(3), gnn.nn.LazyLinear(3)
            topt = getattr(torch.optim, name)(tm.parameters(), lr=0.01)
            gopt = getattr(gnn.optim, name)(gm.parameters(), lr=0.01)
            first_forward_then_train(tm, gm, topt, gopt, x)
            self.assert_close(to_np(gm.weight), tm.weight.detach().numpy(), 1e-5, 1e-6, name)
        # Adagrad makes its state when built: torch refuses an uninitialised parameter there
        with self.assertRaisesRegex(ValueError, 'Attempted to use an uninitialized parameter'):
            torch.optim.Adagrad(torch.nn.LazyLinear(3).parameters())
        with self.assertRaisesRegex(ValueError, 'Attempted to use an uninitialized parameter'):
            gnn.optim.Adagrad(gnn.nn.LazyLinear(3).parameters())
        with self.assertRaisesRegex(ValueError, 'Attempted to use an uninitialized parameter'):
            gnn.optim.Adagrad([{'params': list(gnn.nn.LazyLinear(3).parameters())}])
        gnn.optim.Adagrad(gnn.nn.Linear(2, 3).parameters())

    def test_json_rebuild(self):
        from gi.repository import Gnn
        for first in (gnn.nn.LazyLinear(4), gnn.nn.LazyConv2d(4, 3, padding=1, bias=False),
                      gnn.nn.LazyBatchNorm2d(momentum=0.2)):
            model = gnn.nn.Sequential(first, gnn.nn.ReLU())
            shape = (2, 3) if isinstance(first, gnn.nn.LazyLinear) else (2, 3, 5, 5)
            x = gnn.randn(*shape)
            model(x)
            model.eval()
            rebuilt = Gnn.Module.new_from_json(model.to_json(False), -1)
            self.assertEqual(repr(rebuilt), repr(model))
            rebuilt.load_state_dict(model.state_dict())
            rebuilt.eval()
            np.testing.assert_array_equal(to_np(rebuilt(x)), to_np(model(x)))
        # an uninitialised one is rebuilt uninitialised, and initialises at its first forward
        for lazy, shape, weight in ((gnn.nn.LazyLinear(4), (2, 3), (4, 3)),
                                    (gnn.nn.LazyBatchNorm1d(), (5, 6), (6,))):
            rebuilt = Gnn.Module.new_from_json(gnn.nn.Sequential(lazy).to_json(False), -1)
            self.assertTrue(rebuilt[0].has_uninitialized_params())
            self.assertEqual(repr(rebuilt), repr(gnn.nn.Sequential(lazy)))
            rebuilt(gnn.randn(*shape))
            self.assertFalse(rebuilt[0].has_uninitialized_params())
            self.assertEqual(tuple(rebuilt[0].weight.shape), weight)

    def test_dtype_before_first_forward(self):
        gm = gnn.nn.LazyConv1d(2, 3).double()
        gm(gnn.randn(1, 4, 6, dtype=gnn.float64))
        self.assertEqual(gm.weight.dtype, gnn.float64)
        self.assertEqual(tuple(gm.weight.shape), (2, 4, 3))

    def test_bad_input(self):
        with self.assertRaisesRegex(RuntimeError, r'Expected 3D \(unbatched\) or 4D \(batched\) input to '
                                                  'LazyConv2d, but got input of size: \\[5\\]'):
            gnn.nn.LazyConv2d(4, 3)(gnn.randn(5))
        with self.assertRaisesRegex(ValueError, 'out_channels must be divisible by groups'):
            gnn.nn.LazyConv2d(5, 3, groups=2)
        gm = gnn.nn.LazyLinear(3)
        gm(gnn.randn(2, 4))
        with self.assertRaises(RuntimeError):     # the C layer's shape error, named
            gm(gnn.randn(2, 5))


class GridSampleTest(ParityTest):
    def test_affine_grid(self):
        for size, theta_shape in (((2, 3, 4, 5), (2, 2, 3)), ((2, 1, 3, 4, 5), (2, 3, 4)),
                                  ((1, 1, 1, 3), (1, 2, 3))):
            for ac in (False, True):
                self.check_op(lambda t: F.affine_grid(t, size, align_corners=ac),
                              lambda t: TF.affine_grid(t, size, align_corners=ac),
                              [rand(theta_shape, seed=len(size))], name='affine_grid%r' % (size,))
        gradcheck(self, lambda t: F.affine_grid(t, (2, 1, 3, 4), align_corners=False),
                  [rand((2, 2, 3), np.float64)], name='affine_grid')
        gradcheck(self, lambda t: F.affine_grid(t, (1, 1, 2, 3, 2), align_corners=True),
                  [rand((1, 3, 4), np.float64)], name='affine_grid 3-d')

    def test_affine_grid_errors(self):
        with self.assertRaisesRegex(ValueError, 'Expected a batch of 2D affine matrices of shape Nx2x3'):
            F.affine_grid(gnn.zeros(2, 3, 3), (2, 1, 4, 4), align_corners=False)
        with self.assertRaisesRegex(ValueError, 'Expected theta to have floating point type'):
            F.affine_grid(gnn.zeros(2, 2, 3, dtype=gnn.int64), (2, 1, 4, 4), align_corners=False)
        with self.assertRaisesRegex(NotImplementedError, 'affine_grid only supports 4D and 5D sizes'):
            F.affine_grid(gnn.zeros(2, 2, 3), (2, 4, 4), align_corners=False)

    def test_grid_sample(self):
        x = rand((2, 3, 5, 6), seed=1)
        grid = rand((2, 4, 7, 2), seed=2, low=-1.6, high=1.6)      # some points outside
        for mode in ('bilinear', 'nearest', 'bicubic'):
            for pm in ('zeros', 'border', 'reflection'):
                for ac in (False, True):
                    name = 'grid_sample %s %s %s' % (mode, pm, ac)
                    self.check_op(lambda i, g: F.grid_sample(i, g, mode, pm, ac),
                                  lambda i, g: TF.grid_sample(i, g, mode, pm, ac), [x, grid], name=name,
                                  # bicubic's grid gradient sums 16 taps x 3 channels of float32
                                  # products of size ~10, which cancel: ~1e-5 absolute
                                  atol=2e-5 if mode == 'bicubic' else None)

    def test_grid_sample_3d(self):
        x = rand((2, 2, 3, 4, 5), seed=5)
        grid = rand((2, 2, 3, 2, 3), seed=6, low=-1.6, high=1.6)
        for mode in ('bilinear', 'nearest'):
            for pm in ('zeros', 'border', 'reflection'):
                for ac in (False, True):
                    self.check_op(lambda i, g: F.grid_sample(i, g, mode, pm, ac),
                                  lambda i, g: TF.grid_sample(i, g, mode, pm, ac), [x, grid],
                                  name='grid_sample 3-d %s %s %s' % (mode, pm, ac))
        xd = rand((1, 1, 2, 3, 3), np.float64, seed=7)
        gd = rand((1, 1, 2, 2, 3), np.float64, seed=8, low=-1.4, high=1.4)
        for pm in ('zeros', 'border', 'reflection'):
            gradcheck(self, lambda i, g: F.grid_sample(i, g, 'bilinear', pm, False), [xd, gd],
                      name='grid_sample 3-d ' + pm)

    def test_grid_sample_gradcheck(self):
        x = rand((1, 2, 4, 5), np.float64, seed=3)
        grid = rand((1, 3, 2, 2), np.float64, seed=4, low=-1.4, high=1.4)
        for mode in ('bilinear', 'bicubic'):
            for pm in ('zeros', 'border', 'reflection'):
                for ac in (False, True):
                    gradcheck(self, lambda i, g: F.grid_sample(i, g, mode, pm, ac), [x, grid],
                              name='grid_sample %s %s %s' % (mode, pm, ac))
        gradcheck(self, lambda i: F.grid_sample(i, to_gnn(grid), 'nearest', 'zeros', False), [x],
                  name='grid_sample nearest')

    def test_grid_sample_errors(self):
        x = gnn.zeros(1, 1, 3, 3)
        with self.assertRaisesRegex(ValueError, "expected mode to be 'bilinear', 'nearest' or 'bicubic'"):
            F.grid_sample(x, gnn.zeros(1, 2, 2, 2), mode='area', align_corners=False)
        with self.assertRaisesRegex(ValueError, 'expected padding_mode'):
            F.grid_sample(x, gnn.zeros(1, 2, 2, 2), padding_mode='wrap', align_corners=False)
        with self.assertRaisesRegex(RuntimeError, 'expected grid to have size 2 in last dimension'):
            F.grid_sample(x, gnn.zeros(1, 2, 2, 3), align_corners=False)
        with self.assertRaisesRegex(RuntimeError, 'same batch size'):
            F.grid_sample(x, gnn.zeros(2, 2, 2, 2), align_corners=False)
        with self.assertRaisesRegex(ValueError, 'Bicubic interpolation only supports 4D input'):
            F.grid_sample(gnn.zeros(1, 1, 2, 2, 2), gnn.zeros(1, 1, 1, 1, 3), 'bicubic', align_corners=False)
        with self.assertRaisesRegex(RuntimeError, 'expected grid to have size 3 in last dimension'):
            F.grid_sample(gnn.zeros(1, 1, 2, 2, 2), gnn.zeros(1, 1, 1, 1, 2), align_corners=False)
        with self.assertRaisesRegex(RuntimeError, 'expected 4D or 5D input and grid with same number of dimensions'):
            F.grid_sample(gnn.zeros(1, 1, 2, 2, 2), gnn.zeros(1, 1, 1, 2), align_corners=False)


class GumbelSoftmaxTest(ParityTest):
    def test_deterministic_part(self):
        # the same seed gives gnn's noise: -log(Exp(1)); with it, torch's formula
        logits = rand((3, 5), seed=7)
        for hard in (False, True):
            for dim, tau in ((-1, 1.0), (0, 0.5)):
                gnn.manual_seed(11)
                noise = -np.log(to_np(gnn.empty(3, 5).exponential_()))
                gnn.manual_seed(11)
                gl = to_gnn(logits, requires_grad=True)
                got = F.gumbel_softmax(gl, tau=tau, hard=hard, dim=dim)
                tl = torch.from_numpy(logits).requires_grad_()
                soft = ((tl + torch.from_numpy(noise)) / tau).softmax(dim)
                if hard:
                    index = soft.max(dim, keepdim=True)[1]
                    want = torch.zeros_like(tl).scatter_(dim, index, 1.0) - soft.detach() + soft
                else:
                    want = soft
                self.assert_close(to_np(got), want.detach().numpy(), 1e-5, 1e-6, 'gumbel_softmax')
                w = rand((3, 5), seed=8)
                (got * to_gnn(w)).sum().backward()
                (want * torch.from_numpy(w)).sum().backward()
                self.assert_close(to_np(gl.get_grad()), tl.grad.numpy(), 1e-5, 1e-6, 'gumbel_softmax grad')

    def test_hard_is_one_hot(self):
        y = F.gumbel_softmax(gnn.randn(6, 4), hard=True)
        a = to_np(y)
        self.assertEqual(a.shape, (6, 4))
        np.testing.assert_array_equal(a.sum(1), np.ones(6))
        self.assertTrue(set(np.unique(a)) <= {0.0, 1.0})

    def test_distribution(self):
        # the Gumbel-max trick: argmax frequencies are softmax (logits)
        logits = np.array([1.0, 0.0, -1.0, 2.0], np.float32)
        n = 20000
        y = F.gumbel_softmax(to_gnn(np.tile(logits, (n, 1))), tau=0.5, hard=True)
        freq = to_np(y).mean(0)
        want = np.exp(logits) / np.exp(logits).sum()
        np.testing.assert_allclose(freq, want, atol=0.015)
        soft = to_np(F.gumbel_softmax(to_gnn(np.tile(logits, (100, 1)))))
        np.testing.assert_allclose(soft.sum(1), np.ones(100), rtol=1e-6)
        self.assertTrue((soft > 0).all())


class FractionalPoolTest(ParityTest):
    CASES_2D = (((2, 3, 9, 11), 2, (5, 6), None), ((3, 7, 8), 3, (4, 5), None),
                ((1, 2, 6, 6), (2, 3), (5, 4), None), ((2, 2, 10, 9), 2, None, (0.5, 0.7)))
    CASES_3D = (((2, 3, 7, 8, 9), 2, None, 0.6), ((2, 5, 6, 7), (2, 3, 2), (3, 3, 4), None))

    def check(self, n, shape, k, osz, ratio, dtype=np.float32, ties=True):
        rng = np.random.default_rng(sum(shape))
        x = (rng.integers(-3, 3, shape) if ties else rng.standard_normal(shape)).astype(dtype)
        batch = shape[0] if len(shape) == n + 2 else 1
        samples = rng.random((batch, shape[-n - 1], n)).astype(dtype)
        gf = F.fractional_max_pool2d if n == 2 else F.fractional_max_pool3d
        tf = TF.fractional_max_pool2d if n == 2 else TF.fractional_max_pool3d
        got, gi = gf(to_gnn(x), k, osz, ratio, True, to_gnn(samples))
        want, wi = tf(torch.from_numpy(x), k, osz, ratio, True, torch.from_numpy(samples))
        np.testing.assert_array_equal(to_np(got), want.numpy())
        np.testing.assert_array_equal(to_np(gi), wi.numpy())
        # gradients: the windows overlap, so one input element can win several
        self.check_op(lambda t: gf(t, k, osz, ratio, False, to_gnn(samples)),
                      lambda t: tf(t, k, osz, ratio, False, torch.from_numpy(samples)),
                      [rand(shape, dtype, seed=3)], name='fractional_max_pool%dd' % n)
        gm = getattr(gnn.nn, 'FractionalMaxPool%dd' % n)(k, osz, ratio, True, to_gnn(samples))
        tm = getattr(torch.nn, 'FractionalMaxPool%dd' % n)(k, osz, ratio, True, torch.from_numpy(samples))
        self.assertEqual(repr(gm), repr(tm))
        self.assertEqual(list(gm.state_dict().keys()), list(tm.state_dict().keys()))
        got, gi = gm(to_gnn(x))
        np.testing.assert_array_equal(to_np(gi), tm(torch.from_numpy(x))[1].numpy())

    def test_fractional_max_pool2d(self):
        for case in self.CASES_2D:
            self.check(2, *case)
        self.check(2, (2, 3, 9, 11), 2, (5, 6), None, np.float64, ties=False)

    def test_fractional_max_pool3d(self):
        for case in self.CASES_3D:
            self.check(3, *case)

    def test_random_samples_drawn(self):
        gm = gnn.nn.FractionalMaxPool2d(3, output_ratio=0.5)
        out = gm(gnn.randn(2, 3, 10, 12))
        self.assertEqual(tuple(out.shape), (2, 3, 5, 6))
        self.assertEqual(repr(gm), 'FractionalMaxPool2d()')
        self.assertEqual(list(gm.state_dict().keys()), [])
        out, idx = F.fractional_max_pool3d_with_indices(gnn.randn(1, 2, 5, 5, 5), 2, output_size=3)
        self.assertEqual(tuple(idx.shape), (1, 2, 3, 3, 3))

    def test_gradcheck(self):
        rng = np.random.default_rng(5)
        s2 = to_gnn(rng.random((1, 2, 2)))
        gradcheck(self, lambda t: F.fractional_max_pool2d(t, 2, (3, 3), _random_samples=s2),
                  [rand((1, 2, 5, 5), np.float64, seed=6)], name='fractional_max_pool2d')
        s3 = to_gnn(rng.random((1, 1, 3)))
        gradcheck(self, lambda t: F.fractional_max_pool3d(t, 2, (2, 3, 2), _random_samples=s3),
                  [rand((1, 1, 4, 4, 3), np.float64, seed=7)], name='fractional_max_pool3d')

    def test_errors(self):
        with self.assertRaisesRegex(ValueError, 'requires specifying either an output size, or a pooling ratio'):
            gnn.nn.FractionalMaxPool2d(2)
        with self.assertRaisesRegex(ValueError, 'only one of output_size and output_ratio may be specified'):
            gnn.nn.FractionalMaxPool2d(2, 3, 0.5)
        with self.assertRaisesRegex(ValueError, r'output_ratio must be between 0 and 1 \(got 1.5\)'):
            gnn.nn.FractionalMaxPool3d(2, output_ratio=1.5)
        with self.assertRaisesRegex(RuntimeError, 'pool height 3 too large relative to input height 4'):
            F.fractional_max_pool2d(gnn.randn(1, 1, 4, 8), 3, output_size=(3, 3))
        with self.assertRaisesRegex(RuntimeError, r'Expected 3D or 4D tensor'):
            F.fractional_max_pool2d(gnn.randn(4, 8), 2, output_size=(2, 2))
        with self.assertRaisesRegex(RuntimeError, 'expected _random_samples of shape'):
            F.fractional_max_pool2d(gnn.randn(2, 3, 8, 8), 2, output_size=(3, 3), _random_samples=gnn.rand(1, 3, 2))


class Pool3dIndicesTest(ParityTest):
    def test_max_unpool3d(self):
        x = rand((2, 3, 4, 4, 6), seed=1)
        o, i = TF.max_pool3d(torch.from_numpy(x), 2, return_indices=True)
        gi = to_gnn(i.numpy())
        self.check_op(lambda t: F.max_unpool3d(t, gi, 2), lambda t: TF.max_unpool3d(t, i, 2),
                      [o.numpy()], name='max_unpool3d')
        self.check_op(lambda t: F.max_unpool3d(t, gi, 2, output_size=(5, 5, 7)),
                      lambda t: TF.max_unpool3d(t, i, 2, output_size=(5, 5, 7)), [o.numpy()],
                      name='max_unpool3d output_size')
        gm, tm = gnn.nn.MaxUnpool3d(2), torch.nn.MaxUnpool3d(2)
        self.assertEqual(repr(gm), repr(tm))
        np.testing.assert_array_equal(to_np(gm(to_gnn(o.numpy()), gi)), tm(o, i).numpy())
        np.testing.assert_array_equal(to_np(gm(to_gnn(o.numpy()), gi, (5, 5, 7))),
                                      tm(o, i, (5, 5, 7)).numpy())
        # unbatched
        np.testing.assert_array_equal(to_np(F.max_unpool3d(to_gnn(o[0].numpy()), to_gnn(i[0].numpy()), 2)),
                                      TF.max_unpool3d(o[0], i[0], 2).numpy())
        gradcheck(self, lambda t: F.max_unpool3d(t, gi[:1, :1], 2), [rand((1, 1, 2, 2, 3), np.float64)],
                  name='max_unpool3d')
        with self.assertRaisesRegex(RuntimeError, 'Expected shape of indices to be same as that of the input'):
            F.max_unpool3d(to_gnn(o.numpy()), gi[:1], 2)

    def test_with_indices(self):
        x = rand((2, 3, 5, 6, 4), seed=2)
        got, gi = F.max_pool3d_with_indices(to_gnn(x), 2, stride=1)
        want, wi = TF.max_pool3d_with_indices(torch.from_numpy(x), 2, stride=1)
        np.testing.assert_array_equal(to_np(got), want.numpy())
        np.testing.assert_array_equal(to_np(gi), wi.numpy())
        got, gi = F.adaptive_max_pool3d_with_indices(to_gnn(x), (2, 3, 3))
        want, wi = TF.adaptive_max_pool3d_with_indices(torch.from_numpy(x), (2, 3, 3))
        np.testing.assert_array_equal(to_np(got), want.numpy())
        np.testing.assert_array_equal(to_np(gi), wi.numpy())


class AdaptiveLogSoftmaxTest(ParityTest):
    def make(self, *args, **kwargs):
        gm = gnn.nn.AdaptiveLogSoftmaxWithLoss(*args, **kwargs)
        tm = torch.nn.AdaptiveLogSoftmaxWithLoss(*args, **kwargs)
        self.assertEqual(repr(gm), repr(tm))
        self.assertEqual(list(gm.state_dict().keys()), list(tm.state_dict().keys()))
        copy_state(gm, tm)
        return gm, tm

    def test_forward(self):
        for args, kwargs in (((16, 20, [4, 10]), {'div_value': 2.0}), ((8, 12, [3]), {'head_bias': True}),
                             ((10, 30, [5, 12, 20]), {})):
            gm, tm = self.make(*args, **kwargs)
            target = np.random.default_rng(1).integers(0, args[1], 9)
            target[:3] = [0, args[2][0], args[1] - 1]
            x = rand((9, args[0]), seed=2)
            got = gm(to_gnn(x), gnn.tensor(target))
            want = tm(torch.from_numpy(x), torch.from_numpy(target))
            self.assertEqual(type(got).__name__, '_ASMoutput')
            self.assertEqual(got._fields, ('output', 'loss'))
            self.assert_close(to_np(got.output), want.output.detach().numpy(), 1e-5, 1e-6, 'output')
            self.assert_close(to_np(got.loss), want.loss.detach().numpy(), 1e-5, 1e-6, 'loss')
            got.loss.backward()
            want.loss.backward()
            for (k, p), (_, q) in zip(gm.named_parameters(), tm.named_parameters()):
                if q.grad is None:      # a cluster no target falls in is not run
                    self.assertIsNone(p.get_grad(), k)
                    continue
                self.assert_close(to_np(p.get_grad()), q.grad.numpy(), 1e-5, 1e-6, 'grad of ' + k)
            self.assert_close(to_np(gm.log_prob(to_gnn(x))), tm.log_prob(torch.from_numpy(x)).detach().numpy(),
                              1e-5, 1e-6, 'log_prob')
            np.testing.assert_array_equal(to_np(gm.predict(to_gnn(x))), tm.predict(torch.from_numpy(x)).numpy())
            # unbatched
            one = gm(to_gnn(x[0]), gnn.tensor(int(target[0])))
            self.assertEqual(tuple(one.output.shape), ())
            self.assert_close(to_np(one.output), to_np(got.output)[0], 1e-5, 1e-6, 'unbatched')

    def test_gradcheck(self):
        gm = gnn.nn.AdaptiveLogSoftmaxWithLoss(6, 9, [2, 5], div_value=2.0).double()
        target = gnn.tensor([0, 3, 8, 1, 6])
        gradcheck(self, lambda x: gm(x, target).output, [rand((5, 6), np.float64, seed=3)],
                  name='AdaptiveLogSoftmaxWithLoss')

    def test_errors(self):
        for cutoffs in ([10, 4], [0, 3], [3, 3], [3, 20]):
            with self.assertRaisesRegex(ValueError, 'cutoffs should be a sequence of unique, positive integers'):
                gnn.nn.AdaptiveLogSoftmaxWithLoss(8, 20, cutoffs)
        gm = gnn.nn.AdaptiveLogSoftmaxWithLoss(8, 20, [4, 10])
        with self.assertRaisesRegex(RuntimeError, r'Target values should be in \[0, 19\]'):
            gm(gnn.randn(2, 8), gnn.tensor([0, 20]))
        with self.assertRaisesRegex(RuntimeError, 'Input and target should have the same size in the batch dimension'):
            gm(gnn.randn(3, 8), gnn.tensor([0, 2]))
        with self.assertRaisesRegex(RuntimeError, '0D or 1D target tensor expected, multi-target not supported'):
            gm(gnn.randn(2, 8), gnn.tensor([[0, 2]]))
        with self.assertRaisesRegex(RuntimeError, 'expected an int64'):
            gm(gnn.randn(2, 8), gnn.tensor([0.0, 2.0]))


class MoreNamesTest(ParityTest):
    def test_nll_loss_2d(self):
        x = rand((2, 3, 4, 5), seed=1)
        t = np.random.default_rng(2).integers(0, 3, (2, 4, 5))
        w = np.array([0.2, 1.0, 3.0], np.float32)
        for kwargs in ({}, {'reduction': 'sum', 'ignore_index': 1}):
            gm = gnn.nn.NLLLoss2d(weight=to_gnn(w), **kwargs)
            tm = torch.nn.NLLLoss2d(weight=torch.from_numpy(w), **kwargs)
            self.assertEqual(repr(gm), repr(tm))
            self.assertEqual(list(gm.state_dict().keys()), list(tm.state_dict().keys()))
            self.check_op(lambda a: gm(a, gnn.tensor(t)), lambda a: tm(a, torch.from_numpy(t)), [x], name='NLLLoss2d')
        with self.assertWarnsRegex(UserWarning, 'NLLLoss2d has been deprecated'):
            gnn.nn.NLLLoss2d()

    def test_container_and_bases(self):
        with self.assertWarnsRegex(UserWarning, 'nn.Container is deprecated'):
            gm = gnn.nn.Container(fc=gnn.nn.Linear(2, 3), act=gnn.nn.ReLU())
        tm = torch.nn.Container(fc=torch.nn.Linear(2, 3), act=torch.nn.ReLU())
        self.assertEqual(repr(gm), repr(tm))
        self.assertEqual(list(gm.state_dict().keys()), list(tm.state_dict().keys()))
        self.assertIsInstance(gnn.nn.LSTM(2, 3), gnn.nn.RNNBase)
        self.assertIsInstance(gnn.nn.GRU(2, 3), gnn.nn.RNNBase)
        self.assertIsInstance(gnn.nn.LSTMCell(2, 3), gnn.nn.RNNCellBase)
        self.assertIsInstance(gnn.nn.RNNCell(2, 3), gnn.nn.RNNCellBase)

    def test_init(self):
        for shape, groups in (((4, 2, 3), 1), ((6, 3, 3, 3), 2), ((4, 4, 1, 3, 2), 4)):
            got = gnn.nn.init.dirac_(gnn.empty(*shape), groups)
            want = torch.nn.init.dirac_(torch.empty(*shape), groups)
            np.testing.assert_array_equal(to_np(got), want.numpy())
        with self.assertRaisesRegex(ValueError, 'Only tensors with 3, 4, or 5 dimensions are supported'):
            gnn.nn.init.dirac_(gnn.empty(3, 3))
        with self.assertRaisesRegex(ValueError, 'dim 0 must be divisible by groups'):
            gnn.nn.init.dirac_(gnn.empty(3, 3, 3), 2)
        a = to_np(gnn.nn.init.sparse_(gnn.empty(10, 6), 0.25))
        np.testing.assert_array_equal((a == 0).sum(0), np.full(6, 3))      # ceil(0.25 * 10) per column
        self.assertLess(np.abs(a).max(), 0.1)
        with self.assertRaisesRegex(ValueError, 'Only tensors with 2 dimensions are supported'):
            gnn.nn.init.sparse_(gnn.empty(3), 0.5)
        for old in ('uniform', 'normal', 'constant', 'eye', 'dirac', 'xavier_uniform', 'xavier_normal',
                    'kaiming_uniform', 'kaiming_normal', 'orthogonal', 'sparse'):
            args = {'constant': (0.5,), 'sparse': (0.5,)}.get(old, ())
            t = gnn.empty(4, 3, 3) if old == 'dirac' else gnn.empty(4, 3)
            with self.assertWarnsRegex(UserWarning, 'nn.init.%s is now deprecated in favor of nn.init.%s_.'
                                       % (old, old)):
                self.assertIs(getattr(gnn.nn.init, old)(t, *args), t)
        np.testing.assert_array_equal(to_np(gnn.nn.init.constant(gnn.empty(2, 2), 0.5)), np.full((2, 2), 0.5))

    def test_fuse_weights(self):
        rng = np.random.default_rng(3)
        w = rng.standard_normal((4, 3, 3, 3)).astype(np.float32)
        b = rng.standard_normal(4).astype(np.float32)
        rm, rv = rng.standard_normal(4).astype(np.float32), rng.random(4).astype(np.float32) + 0.5
        bw, bb = rng.standard_normal(4).astype(np.float32), rng.standard_normal(4).astype(np.float32)
        for conv_b, bn_w, bn_b in ((b, bw, bb), (None, None, None)):
            g = lambda a: None if a is None else to_gnn(a)
            t = lambda a: None if a is None else torch.from_numpy(a)
            got = gnn.nn.utils.fuse_conv_bn_weights(to_gnn(w), g(conv_b), to_gnn(rm), to_gnn(rv), 1e-5, g(bn_w), g(bn_b))
            want = torch.nn.utils.fuse_conv_bn_weights(t(w), t(conv_b), t(rm), t(rv), 1e-5, t(bn_w), t(bn_b))
            for x, y in zip(got, want):
                self.assertIsInstance(x, gnn.nn.Parameter)
                self.assert_close(to_np(x), y.detach().numpy(), 1e-6, 1e-7, 'fuse_conv_bn_weights')
        wt = rng.standard_normal((3, 4, 2, 2)).astype(np.float32)      # transposed: out channels in dim 1
        got = gnn.nn.utils.fusion.fuse_conv_bn_weights(to_gnn(wt), None, to_gnn(rm), to_gnn(rv), 1e-3, to_gnn(bw),
                                                       to_gnn(bb), transpose=True)
        want = torch.nn.utils.fusion.fuse_conv_bn_weights(torch.from_numpy(wt), None, torch.from_numpy(rm),
                                                          torch.from_numpy(rv), 1e-3, torch.from_numpy(bw),
                                                          torch.from_numpy(bb), transpose=True)
        for x, y in zip(got, want):
            self.assert_close(to_np(x), y.detach().numpy(), 1e-6, 1e-7, 'fuse_conv_bn_weights transposed')
        lw = rng.standard_normal((4, 5)).astype(np.float32)
        got = gnn.nn.utils.fusion.fuse_linear_bn_weights(to_gnn(lw), None, to_gnn(rm), to_gnn(rv), 1e-5,
                                                         to_gnn(bw), to_gnn(bb))
        want = torch.nn.utils.fusion.fuse_linear_bn_weights(torch.from_numpy(lw), None, torch.from_numpy(rm),
                                                            torch.from_numpy(rv), 1e-5, torch.from_numpy(bw),
                                                            torch.from_numpy(bb))
        for x, y in zip(got, want):
            self.assert_close(to_np(x), y.detach().numpy(), 1e-6, 1e-7, 'fuse_linear_bn_weights')
        self.assertIs(gnn.nn.utils.fuse_conv_bn_eval, gnn.nn.utils.fusion.fuse_conv_bn_eval)

    def test_skip_init(self):
        m = gnn.nn.utils.skip_init(gnn.nn.Linear, 3, 4)
        self.assertEqual(repr(m), 'Linear(in_features=3, out_features=4, bias=True)')
        self.assertEqual(tuple(m.weight.shape), (4, 3))
        self.assertEqual(tuple(m(gnn.zeros(2, 3)).shape), (2, 4))
        with self.assertRaisesRegex(RuntimeError, 'Expected a Module'):
            gnn.nn.utils.skip_init(int)

    def test_clip_grad_norm(self):
        p = gnn.nn.Parameter(gnn.ones(3))
        p.grad = gnn.full((3,), 2.0)
        with self.assertWarnsRegex(UserWarning, 'clip_grad_norm is now deprecated'):
            total = gnn.nn.utils.clip_grad_norm([p], 1.0)
        self.assertAlmostEqual(float(total), np.sqrt(12), places=5)
        self.assertAlmostEqual(float(p.grad.norm()), 1.0, places=5)

    def test_functional_call(self):
        import gnn.nn.utils.stateless as GS
        tm = torch.nn.Sequential(torch.nn.Linear(3, 4), torch.nn.BatchNorm1d(4), torch.nn.Linear(4, 2))
        gm = gnn.nn.Sequential(gnn.nn.Linear(3, 4), gnn.nn.BatchNorm1d(4), gnn.nn.Linear(4, 2))
        copy_state(gm, tm)
        keys = list(gm.state_dict().keys())
        w = rand((4, 3), seed=4)
        rm = rand((4,), seed=5)
        x = rand((5, 3), seed=6)
        tm.eval()
        gm.eval()
        tw = torch.from_numpy(w).requires_grad_()
        gw = to_gnn(w, requires_grad=True)
        want = torch.nn.utils.stateless.functional_call(tm, {'0.weight': tw, '1.running_mean': torch.from_numpy(rm)},
                                                       (torch.from_numpy(x),))
        got = GS.functional_call(gm, {'0.weight': gw, '1.running_mean': to_gnn(rm)}, to_gnn(x))
        self.assert_close(to_np(got), want.detach().numpy(), 1e-5, 1e-6, 'functional_call')
        want.sum().backward()
        got.sum().backward()
        self.assert_close(to_np(gw.get_grad()), tw.grad.numpy(), 1e-5, 1e-6, 'functional_call grad')
        self.assertIsNone(gm[0].weight.get_grad())
        self.assertEqual(list(gm.state_dict().keys()), keys)          # the module's own are back, in order
        self.assert_close(to_np(gm(to_gnn(x))), tm(torch.from_numpy(x)).detach().numpy(), 1e-5, 1e-6, 'restored')
        with self.assertRaises(AttributeError):
            GS.functional_call(gm, {'9.weight': gw}, (to_gnn(x),))
        self.assertEqual(list(gm.state_dict().keys()), keys)


class CrossMapLRN2dTest(ParityTest):
    def test_parity(self):
        for (size, channels), dtype in itertools.product(((3, 6), (5, 4), (2, 7), (4, 2)), (np.float32, np.float64)):
            args = (size, 0.1, 0.6, 1.5)
            gm, tm = gnn.nn.CrossMapLRN2d(*args), torch.nn.CrossMapLRN2d(*args)
            self.assertEqual(repr(gm), repr(tm))
            self.check_op(lambda x: gm(x), lambda x: tm(x), [rand((2, channels, 3, 4), dtype, seed=size)],
                          name='CrossMapLRN2d%r' % (args,))
        self.assertEqual(repr(gnn.nn.CrossMapLRN2d(3)), repr(torch.nn.CrossMapLRN2d(3)))

    # no gradcheck: torch's CrossMapLRN2d backward is not its forward's derivative (its channel
    # window is offset by one from the forward's), and gnn gives torch's numbers (test_parity)

    def test_errors(self):
        with self.assertRaisesRegex(RuntimeError, 'expected a 4-D input'):
            gnn.nn.CrossMapLRN2d(3)(gnn.randn(2, 3, 4))


if __name__ == '__main__':
    main()
