"""More of torch's Python surface (the surface_more part of the overrides), each name run with
`import gnn as torch` and with torch 1.13 on the same data: the losses' hyperparameters as
attributes, torch.utils.data's iterable-style datasets, torch.autograd.backward / gradcheck /
Variable, and Tensor methods and torch functions composed from gnn's ops."""
import math
import unittest

import numpy as np

from gnntest import main  # (requires Gnn 1.0, loads torch)
import torch

import gnn


def close(test, got, want, rtol=1e-5, atol=1e-6, msg=None):
    if isinstance(want, torch.Tensor):
        test.assertIsInstance(got, gnn.Tensor, msg)
        test.assertEqual(tuple(got.shape), tuple(want.shape), msg)
        test.assertEqual(repr(got.dtype), repr(want.dtype), msg)
        np.testing.assert_allclose(np.asarray(got.detach().numpy(), dtype=float),
                                   np.asarray(want.detach().numpy(), dtype=float),
                                   rtol=rtol, atol=atol, err_msg=msg or '')
    elif isinstance(want, (list, tuple)):
        test.assertEqual(len(got), len(want), msg)
        for g, w in zip(got, want):
            close(test, g, w, rtol, atol, msg)
    elif isinstance(want, float):
        test.assertAlmostEqual(float(got), want, places=5, msg=msg)
    else:
        test.assertEqual(got, want, msg)


# ---- 1. the losses' attributes ----

LOSS_ATTRIBUTES = {
    'L1Loss': {}, 'MSELoss': {}, 'SoftMarginLoss': {}, 'MultiLabelMarginLoss': {},
    'CrossEntropyLoss': {'ignore_index': 3, 'label_smoothing': 0.25},
    'NLLLoss': {'ignore_index': 1},
    'BCELoss': {}, 'BCEWithLogitsLoss': {}, 'MultiLabelSoftMarginLoss': {},
    'KLDivLoss': {'log_target': True},
    'HuberLoss': {'delta': 0.5}, 'SmoothL1Loss': {'beta': 0.25},
    'MarginRankingLoss': {'margin': 0.5}, 'HingeEmbeddingLoss': {'margin': 2.0},
    'CosineEmbeddingLoss': {'margin': 0.1},
    'MultiMarginLoss': {'p': 2, 'margin': 0.5},
    'TripletMarginLoss': {'margin': 0.5, 'p': 1.0, 'eps': 1e-3, 'swap': True},
    'TripletMarginWithDistanceLoss': {'margin': 0.5, 'swap': True},
    'PoissonNLLLoss': {'log_input': False, 'full': True, 'eps': 1e-4},
    'GaussianNLLLoss': {'full': True, 'eps': 1e-4},
    'CTCLoss': {'blank': 1, 'zero_infinity': True},
}


class LossAttributes(unittest.TestCase):
    def test_defaults_and_constructor_values(self):
        for name, kwargs in LOSS_ATTRIBUTES.items():
            for kw in ({}, kwargs):
                t, g = getattr(torch.nn, name)(**kw), getattr(gnn.nn, name)(**kw)
                for attr in [a for a in vars(t) if not a.startswith('_') and a != 'training']:
                    if attr == 'distance_function':
                        continue
                    self.assertEqual(getattr(g, attr), getattr(t, attr), '%s.%s' % (name, attr))
                    self.assertEqual(type(getattr(g, attr)), type(getattr(t, attr)), '%s.%s' % (name, attr))
                for attr in t._buffers:
                    self.assertIsNone(getattr(g, attr), '%s.%s' % (name, attr))

    def test_writes_change_the_next_forward(self):
        rng = np.random.default_rng(0)
        x = rng.standard_normal((6, 4)).astype(np.float32)
        y = np.array([0, 3, 1, 2, 3, 1])
        out = {}
        for lib in (torch, gnn):
            c = lib.nn.CrossEntropyLoss(ignore_index=1, label_smoothing=0.2)
            X, Y = lib.tensor(x), lib.tensor(y)
            vals = [c(X, Y)]
            c.reduction = 'sum'
            c.ignore_index = -100
            c.label_smoothing = 0.0
            vals.append(c(X, Y))
            c.reduction = 'none'
            vals.append(c(X, Y))
            c.weight = lib.tensor([1., 2., 3., 0.5])
            vals.append(c(X, Y))
            self.assertEqual((c.reduction, c.ignore_index, c.label_smoothing), ('none', -100, 0.0))
            m = lib.nn.TripletMarginLoss()
            a, p, n = (lib.tensor(v) for v in (x, x[::-1].copy(), x * 0.5))
            m.margin, m.p, m.swap = 2.0, 1.0, True
            vals.append(m(a, p, n))
            h = lib.nn.HuberLoss()
            h.delta = 0.1
            h.reduction = 'sum'
            vals.append(h(a, p))
            out[lib] = vals
        close(self, out[gnn], out[torch])

    def test_bad_reduction(self):
        c = gnn.nn.MSELoss()
        with self.assertRaisesRegex(ValueError, 'bad is not a valid value for reduction'):
            c.reduction = 'bad'
        self.assertEqual(c.reduction, 'mean')


# ---- 2. torch.utils.data: iterable-style datasets ----

def _datasets(lib):
    D = lib.utils.data

    class Range(D.IterableDataset):
        """torch's documentation's example: each worker takes its share of [start, end)."""

        def __init__(self, start, end, split=True):
            super().__init__()
            self.start, self.end, self.split = start, end, split

        def __iter__(self):
            info = D.get_worker_info()
            if info is None or not self.split:
                return iter(range(self.start, self.end))
            per = int(math.ceil((self.end - self.start) / float(info.num_workers)))
            s = self.start + info.id * per
            return iter(range(s, min(s + per, self.end)))

    class Pairs(D.IterableDataset):
        def __init__(self, n):
            super().__init__()
            self.n = n

        def __iter__(self):
            for k in range(self.n):
                yield np.full(2, k, np.float32), k % 3

        def __len__(self):
            return self.n

    return D, Range, Pairs


def _init_fn(lib):
    def worker_init_fn(worker_id):
        info = lib.utils.data.get_worker_info()
        dataset = info.dataset
        start, end = dataset.start, dataset.end
        per = int(math.ceil((end - start) / float(info.num_workers)))
        dataset.start = start + info.id * per
        dataset.end = min(dataset.start + per, end)
        dataset.split = False
    return worker_init_fn


def _plain(batch):
    if isinstance(batch, (torch.Tensor, gnn.Tensor)):
        return ('T', repr(batch.dtype), batch.tolist())
    if isinstance(batch, (list, tuple)):
        return [type(batch).__name__] + [_plain(b) for b in batch]
    if isinstance(batch, dict):
        return {k: _plain(v) for k, v in batch.items()}
    if type(batch).__module__ == 'numpy':
        return ('np', batch.tolist())
    return batch


class IterableDatasets(unittest.TestCase):
    def loaders(self, lib):
        D, Range, Pairs = _datasets(lib)
        r = Range(3, 10)
        return [
            D.DataLoader(r), D.DataLoader(r, batch_size=2), D.DataLoader(r, batch_size=3, drop_last=True),
            D.DataLoader(r, batch_size=None), D.DataLoader(r, batch_size=2, num_workers=2),
            D.DataLoader(r, batch_size=None, num_workers=3),
            D.DataLoader(Range(3, 10, split=False), batch_size=4, num_workers=2),
            D.DataLoader(Range(0, 9), batch_size=2, num_workers=2, worker_init_fn=_init_fn(lib)),
            D.DataLoader(Pairs(5), batch_size=2), D.DataLoader(Pairs(3), batch_size=None),
            D.DataLoader(r + Range(20, 23), batch_size=4),
            D.DataLoader(D.ChainDataset([Range(0, 2), Pairs(2)]), batch_size=None),
            D.DataLoader(r, batch_size=3, collate_fn=lambda b: sum(b)),
        ]

    def test_batches_as_torch(self):
        import warnings
        with warnings.catch_warnings():
            warnings.simplefilter('ignore')   # torch's advice on the worker count of this machine
            want = [[_plain(b) for b in loader] for loader in self.loaders(torch)]
        got = [[_plain(b) for b in loader] for loader in self.loaders(gnn)]
        for k, (g, w) in enumerate(zip(got, want)):
            self.assertEqual(g, w, 'loader %d' % k)

    def test_len(self):
        for lib in (torch, gnn):
            D, Range, Pairs = _datasets(lib)
            self.assertEqual([len(D.DataLoader(Pairs(5), batch_size=2)),
                              len(D.DataLoader(Pairs(5), batch_size=2, drop_last=True)),
                              len(D.DataLoader(Pairs(5), batch_size=None)),
                              len(D.ChainDataset([Pairs(2), Pairs(3)]))], [3, 2, 5, 5])
            with self.assertRaises(TypeError):
                len(D.DataLoader(Range(0, 3)))

    def test_refused_options(self):
        for lib in (torch, gnn):
            D, Range, _ = _datasets(lib)
            r = Range(0, 4)
            msgs = []
            for kw in ({'shuffle': True}, {'sampler': [0, 1]}, {'batch_sampler': [[0, 1]]}):
                with self.assertRaises(ValueError) as cm:
                    D.DataLoader(r, **kw)
                msgs.append(str(cm.exception))
            self.assertEqual(msgs, ['DataLoader with IterableDataset: expected unspecified shuffle option, '
                                    'but got shuffle=True',
                                    'DataLoader with IterableDataset: expected unspecified sampler option, '
                                    'but got sampler=[0, 1]',
                                    'DataLoader with IterableDataset: expected unspecified batch_sampler '
                                    'option, but got batch_sampler=[[0, 1]]'])
            self.assertEqual(list(D.DataLoader(r, shuffle=False, batch_size=None)), [0, 1, 2, 3])
            with self.assertRaises(NotImplementedError):
                iter(D.IterableDataset())
            with self.assertRaises(AssertionError):
                list(D.ChainDataset([[1, 2]]))

    def test_worker_info(self):
        self.assertIsNone(gnn.utils.data.get_worker_info())
        D, Range, _ = _datasets(gnn)
        seen = []

        def init(worker_id):
            info = D.get_worker_info()
            seen.append((worker_id, info.id, info.num_workers, type(info.seed).__name__,
                         isinstance(info.dataset, Range)))
            with self.assertRaisesRegex(RuntimeError, 'Cannot assign attributes to WorkerInfo objects'):
                info.id = 5
            self.assertRegex(repr(info), r'^WorkerInfo\(id=%d, num_workers=2, seed=\d+, dataset=' % worker_id)
        list(D.DataLoader(Range(0, 4), num_workers=2, worker_init_fn=init))
        self.assertEqual(seen, [(0, 0, 2, 'int', True), (1, 1, 2, 'int', True)])
        self.assertIsNone(D.get_worker_info())

    def test_default_convert(self):
        import collections
        Point = collections.namedtuple('Point', ['x', 'y'])
        cases = [lambda: 0, lambda: np.array([0, 1]), lambda: Point(np.array(0), np.array(1.5)),
                 lambda: [np.array([0, 1]), np.array([2, 3])], lambda: {'a': np.float32(2), 'b': 'text'},
                 lambda: (np.ones(2, np.float32), 3), lambda: np.array(['a', 'b']), lambda: 'str']
        for k, case in enumerate(cases):
            self.assertEqual(_plain(gnn.utils.data.default_convert(case())),
                             _plain(torch.utils.data.default_convert(case())), 'case %d' % k)

    def test_dataloader_signature(self):
        import inspect
        t = inspect.signature(torch.utils.data.DataLoader)
        g = inspect.signature(gnn.utils.data.DataLoader)
        for name, p in t.parameters.items():
            self.assertIn(name, g.parameters, name)
            if name != 'dataset':   # gnn's None: the loader made by GObject properties
                self.assertEqual(g.parameters[name].default, p.default, name)
            self.assertEqual(g.parameters[name].kind, p.kind, name)
        loader = gnn.utils.data.DataLoader(gnn.utils.data.TensorDataset(gnn.arange(6.0)), batch_size=4,
                                           pin_memory_device='')
        self.assertEqual([b[0].tolist() for b in loader], [[0.0, 1.0, 2.0, 3.0], [4.0, 5.0]])


# ---- 3. torch.autograd ----

def _f64(lib, array, requires_grad=True):
    return lib.tensor(np.asarray(array, dtype=np.float64), dtype=lib.float64, requires_grad=requires_grad)


class Autograd(unittest.TestCase):
    def test_backward(self):
        rng = np.random.default_rng(1)
        xv, yv, gv = rng.standard_normal((2, 3)), rng.standard_normal(3), rng.standard_normal((2, 3))
        got = {}
        for lib in (torch, gnn):
            x, y = _f64(lib, xv), _f64(lib, yv)
            a, b = (x * y).sin(), (y ** 2).sum()
            lib.autograd.backward([a, b], [_f64(lib, gv, False), None])
            r = [x.grad.clone(), y.grad.clone()]
            lib.autograd.backward((x * x).sum())                       # one tensor, accumulating
            r.append(x.grad.clone())
            x.grad = None
            y.grad = None
            c = (x * y).sum()
            lib.autograd.backward(c, inputs=[y])                        # only y's grad
            r += [x.grad is None, y.grad.clone()]
            x.grad = None
            d = (x ** 3).sum()
            lib.autograd.backward([d], create_graph=True)
            r.append(x.grad.detach().clone())
            (g2,) = lib.autograd.grad(x.grad.sum(), [x])                # second derivative 6x
            r.append(g2)
            errors = []
            for call in (lambda: lib.autograd.backward([(x * y)]),
                         lambda: lib.autograd.backward(lib.ones(2)),
                         lambda: lib.autograd.backward((x * 2).sum(), inputs=[])):
                try:
                    call()
                    errors.append(None)
                except RuntimeError as e:
                    errors.append(getattr(e, 'message', str(e)).split('\n')[0])
            got[lib] = (r, errors)
        close(self, got[gnn][0], got[torch][0])
        self.assertEqual(got[gnn][1], got[torch][1])

    def test_variable(self):
        for lib in (torch, gnn):
            x = lib.ones(2, requires_grad=True)
            v = lib.autograd.Variable(x)
            self.assertEqual((v.requires_grad, bool(v.is_leaf), v.tolist()), (False, True, [1.0, 1.0]))
            v.add_(1)
            self.assertEqual(x.tolist(), [2.0, 2.0])                   # shares x's storage
            w = lib.autograd.Variable(lib.zeros(3), requires_grad=True)
            self.assertEqual((w.requires_grad, bool(w.is_leaf), w.grad_fn), (True, True, None))
            self.assertIsInstance(x, lib.autograd.Variable)
            self.assertIs(type(v), lib.Tensor)
            with self.assertRaisesRegex(TypeError, 'Variable data has to be a tensor, but got list'):
                lib.autograd.Variable([1, 2])

    def test_is_leaf_property(self):
        for lib in (torch, gnn):
            x = lib.ones(2, requires_grad=True)
            self.assertEqual([bool(x.is_leaf), bool((x * 2).is_leaf), bool(lib.ones(1).is_leaf)],
                             [True, False, True])
        self.assertTrue(gnn.ones(1).is_leaf())   # gnn's method spelling still answers

    def test_gradcheck(self):
        rng = np.random.default_rng(2)
        xv, yv = rng.standard_normal((2, 3)), rng.standard_normal(3)
        for lib in (torch, gnn):
            GradcheckError = __import__(lib.__name__ + '.autograd.gradcheck',
                                        fromlist=['GradcheckError']).GradcheckError
            self.assertTrue(issubclass(GradcheckError, RuntimeError))
            x, y = _f64(lib, xv), _f64(lib, yv)
            c = _f64(lib, [1.0, 2.0, 3.0], requires_grad=False)
            ok = [lib.autograd.gradcheck(lambda a, b: (a * b).sin().sum(1), (x, y)),
                  lib.autograd.gradcheck(lambda a: (a.tanh() * c, a.exp()), x),
                  lib.autograd.gradcheck(lambda a, k: a.pow(k), (x, 2)),
                  lib.autograd.gradgradcheck(lambda a, b: (a * b).sin(), (x, y)),
                  lib.autograd.gradgradcheck(lambda a: a.exp().sum(), [y])]
            self.assertEqual(ok, [True] * 5)

            class Wrong(lib.autograd.Function):
                @staticmethod
                def forward(ctx, a):
                    return a * 2

                @staticmethod
                def backward(ctx, g):
                    return g * 3

            self.assertIs(lib.autograd.gradcheck(Wrong.apply, (x,), raise_exception=False), False)
            with self.assertRaisesRegex(GradcheckError, '^Jacobian mismatch for output 0 with respect to input 0,\n'
                                        'numerical:'):
                lib.autograd.gradcheck(Wrong.apply, (x,))
            class FirstOrderOnly(lib.autograd.Function):
                @staticmethod
                def forward(ctx, a):
                    ctx.save_for_backward(a)
                    return a * a

                @staticmethod
                def backward(ctx, g):
                    (a,) = ctx.saved_tensors
                    return g * 2 * a.detach()

            self.assertTrue(lib.autograd.gradcheck(FirstOrderOnly.apply, (y,)))
            self.assertIs(lib.autograd.gradgradcheck(FirstOrderOnly.apply, (y,), raise_exception=False), False)
            with self.assertRaisesRegex(ValueError, 'gradcheck expects at least one input tensor to require '
                                        'gradient'):
                lib.autograd.gradcheck(lambda a: a * 2, (_f64(lib, xv, False),))
            with self.assertWarnsRegex(UserWarning, 'Input #0 requires gradient and is not a double precision'):
                lib.autograd.gradcheck(lambda a: a * 2, (lib.ones(2, requires_grad=True),), eps=1e-2, atol=1e-2)

    def test_signatures(self):
        import inspect
        for name in ('gradcheck', 'gradgradcheck', 'backward'):
            t = inspect.signature(getattr(torch.autograd, name))
            g = inspect.signature(getattr(gnn.autograd, name))
            self.assertEqual([(p.name, p.kind, p.default) for p in g.parameters.values()],
                             [(p.name, p.kind, p.default) for p in t.parameters.values()], name)

    def test_inference_mode_in_autograd(self):
        self.assertIs(gnn.autograd.inference_mode, gnn.inference_mode)
        x = gnn.ones(2, requires_grad=True)
        with gnn.autograd.inference_mode():
            y = x * 2
            self.assertTrue(gnn.is_inference_mode_enabled())
        self.assertFalse(y.requires_grad)
        self.assertFalse(gnn.is_inference_mode_enabled())


# ---- 4. Tensor methods and torch functions ----

_RNG = np.random.default_rng(4)
_DATA = {'x': _RNG.standard_normal((3, 4)), 'v': _RNG.standard_normal(10), 'z': _RNG.standard_normal((2, 3, 4)),
         'a': _RNG.standard_normal((3, 3)), 's': _RNG.standard_normal((2, 4)), 'd': _RNG.standard_normal(3),
         'm': _RNG.standard_normal((4, 2)), 'b1': _RNG.standard_normal((2, 3, 5)),
         'b2': _RNG.standard_normal((2, 5, 4)), 'p': _RNG.standard_normal(3), 'q': _RNG.standard_normal(4)}


_IMG = _RNG.standard_normal((2, 3, 4, 5)).astype(np.float32)


def _scope(lib, requires_grad):
    scope = {'torch': lib, 'np': np}
    for k, v in _DATA.items():
        scope[k] = lib.tensor(v, dtype=lib.float64, requires_grad=requires_grad)
    scope['spd'] = lib.tensor(_DATA['a'] @ _DATA['a'].T + 3 * np.eye(3), dtype=lib.float64)
    scope['f'] = lib.tensor(_DATA['x'].astype(np.float32))
    scope['i'] = lib.tensor([[1, -2, 3], [0, 5, -6]])
    scope['img'] = lib.tensor(_IMG)
    return scope


# expressions whose value (and, from the float64 leaves, gradient) match torch's
DIFFERENTIABLE = [
    'v.unfold(0, 3, 2)', 'v.unfold(0, 2, 3)', 'v.unfold(0, 4, 1)', 'x.unfold(1, 2, 1)', 'x.unfold(0, 3, 3)',
    'z.unfold(-1, 2, 2)', 'x.t().unfold(1, 2, 1)', 'v.unfold(0, 10, 1)', 'v.unfold(0, 0, 1)',
    'v[3].unfold(0, 1, 1)', 'z.unfold(1, 2, 1).unfold(2, 2, 2)',
    'v.as_strided((3, 3), (1, 1))', 'v.as_strided((3, 3), (1, 1), 2)', 'torch.as_strided(x, (2, 2), (4, 1), 1)',
    'torch.as_strided(x, (2, 6), (6, 1))', 'x.as_strided((4,), (3,))', 'v[2:].as_strided((2, 2), (2, 1))',
    'v[2:].as_strided((2,), (1,), 0)', 'x.t().as_strided((3,), (5,))', 'v.as_strided((2, 2), (0, 1))',
    'torch.as_strided_scatter(v, d, (3,), (2,), 1)', 'torch.as_strided_scatter(x, s, (2, 4), (1, 2))',
    'torch.diagonal_scatter(a, d)', 'torch.diagonal_scatter(x, p, 1)', 'torch.diagonal_scatter(x, d[:2], -1)',
    'torch.diagonal_scatter(z, x[:, :2], 0, 0, 2)', 'x.diagonal_scatter(p)',
    'torch.select_scatter(x, q, 0, 1)', 'torch.select_scatter(x, p, 1, -1)', 'z.select_scatter(x, 0, 1)',
    'torch.slice_scatter(x, s, 0, 1, 3, 1)', 'torch.slice_scatter(x, x[:, :2], 1, 0, 4, 2)',
    'torch.slice_scatter(v, d, 0, 2, 8, 2)', 'x.slice_scatter(x[:1], 0, 0, 1, 1)',
    'torch.view_copy(x, (4, 3))', 'torch.view_copy(x, (-1,))', 'torch.slice_copy(x, 1, 1, 3, 1)', 'torch.alias_copy(x)',
    'torch.as_strided_copy(v, (2, 2), (1, 2))', 'torch.detach_copy(x)', 'torch.diagonal_copy(z, 0, 1, 2)',
    'torch.expand_copy(d, (2, 3))', 'torch.permute_copy(z, (2, 0, 1))', 'torch.select_copy(z, 1, 2)',
    'torch.split_copy(v, 3)', 'torch.split_with_sizes_copy(v, [4, 6])', 'torch.squeeze_copy(x[:1])',
    'torch.squeeze_copy(x[:1], 0)', 'torch.t_copy(x)', 'torch.transpose_copy(z, 0, 2)', 'torch.unbind_copy(x, 1)',
    'torch.unfold_copy(v, 0, 3, 3)', 'torch.unsqueeze_copy(x, 1)',
    'x.clone().addmm_(x, torch.ones(4, 4, dtype=torch.float64), beta=0.5, alpha=2)',
    'd.clone().addmv_(a, p, beta=2)', 'a.clone().addr_(d, p, alpha=-1)',
    'z[:, :, :4].clone().baddbmm_(b1, b2, alpha=0.5)', 'x.clone().addbmm_(b1, b2)',
    'torch.cholesky(spd)', 'spd.cholesky(upper=True)', 'torch.symeig(spd).eigenvalues',
    'torch.symeig(spd, eigenvectors=True).eigenvalues', 'torch.symeig(spd, upper=False).eigenvalues',
    'x.angle()', 'torch.angle(i)', 'x.conj_physical()', 'torch.conj_physical(x)',
    'x.contiguous(memory_format=torch.contiguous_format)', 'img.contiguous(memory_format=torch.channels_last)',
    'img.to(memory_format=torch.channels_last)', 'img.to(torch.float64, memory_format=torch.channels_last)',
    'torch.empty_like(x, memory_format=torch.preserve_format).shape',
]

# expressions whose (non-differentiable) result matches torch's
VALUES = [
    'v.unfold(0, 3, 2).stride()', 'x.unfold(1, 2, 1).stride()', 'v.unfold(0, 3, 2).is_contiguous()',
    'v.unfold(0, 3, 2).storage_offset()', 'v[3].unfold(0, 1, 1).shape', 'v.as_strided((3, 3), (1, 1), 2).stride()',
    'v.as_strided((3,), (2,), 4).storage_offset()', 'x.new(2, 3).shape', 'x.new((2, 3)).tolist()',
    'x.new([1, 2]).tolist()', 'x.new([1, 2]).dtype', 'i.new([1.5]).dtype', 'x.new().shape', 'x.new(torch.Size([3])).shape',
    'x.new(x).tolist()', 'f.clone().apply_(lambda e: e * 2 + 1).tolist()',
    'f.clone().map_(f[0], lambda a, b: a - b).tolist()', 'i.clone().apply_(lambda e: e // 2).tolist()',
    'f[:2, :3].clone().map2_(i.float(), i.float(), lambda a, b, c: a + b * c).tolist()',
    'x.layout', 'torch.strided', 'torch.channels_last', 'torch.contiguous_format', 'torch.preserve_format',
    'repr(torch.channels_last_3d)', 'x.is_pinned()', 'x.is_shared()',
    'img.contiguous(memory_format=torch.channels_last).stride()',
    'img.contiguous(memory_format=torch.channels_last).is_contiguous()',
    'img.contiguous(memory_format=torch.channels_last).is_contiguous(memory_format=torch.channels_last)',
    'img.is_contiguous(memory_format=torch.channels_last)', 'x.is_contiguous(memory_format=torch.contiguous_format)',
    'img.to(memory_format=torch.channels_last).stride()',
    'img.contiguous(memory_format=torch.channels_last).contiguous().stride()',
    'f.storage().size()', 'f[1:].storage().tolist()', 'len(f.t().storage())', 'f.storage().element_size()',
    'f.storage().nbytes()', 'f.storage().dtype', 'f.storage()[5]', 'f.storage_type().__name__',
    'i.storage_type().__name__', 'f.storage().data_ptr() == f.data_ptr()',
    'f[1].data_ptr() - f.data_ptr()', 'f.t()[1].data_ptr() - f.data_ptr()', 'torch.zeros(0).data_ptr()',
]


def _compare_value(test, got, want, what):
    if isinstance(want, torch.Tensor):
        close(test, got, want, msg=what)
    elif isinstance(want, (list, tuple)) and type(want).__name__ not in ('Size',) and not hasattr(want, '_fields'):
        test.assertEqual(len(got), len(want), what)
        for g, w in zip(got, want):
            _compare_value(test, g, w, what)
    elif isinstance(want, (torch.Size, torch.dtype, torch.layout, torch.memory_format)):
        test.assertEqual(repr(got), repr(want), what)
    elif isinstance(want, float):
        test.assertAlmostEqual(got, want, places=5, msg=what)
    else:
        test.assertEqual(got, want, what)


class TensorMethods(unittest.TestCase):
    def test_differentiable(self):
        import warnings
        for expr in DIFFERENTIABLE:
            results = {}
            for lib in (torch, gnn):
                scope = _scope(lib, True)
                with warnings.catch_warnings():
                    warnings.simplefilter('ignore')   # cholesky's and symeig's deprecation
                    try:
                        out = eval(expr, scope)
                    except Exception as e:
                        raise AssertionError('%s with %s: %s' % (expr, lib.__name__, e)) from e
                leaves = [scope[k] for k in _DATA]
                grads = None
                outs = list(out) if isinstance(out, (list, tuple)) else [out]
                if all(isinstance(o, lib.Tensor) for o in outs) and any(o.requires_grad for o in outs):
                    total = sum((o * lib.arange(o.numel(), dtype=o.dtype).reshape(o.shape).cos()).sum()
                                for o in outs if o.requires_grad)
                    try:
                        grads = lib.autograd.grad(total, leaves, allow_unused=True)
                    except RuntimeError as e:
                        if lib is torch and 'is not implemented' in str(e):
                            grads = 'torch has no derivative'   # (torch 1.13: detach_copy)
                            results[lib] = (out, grads)
                            continue
                        raise
                    grads = [lib.zeros_like(t) if g is None else g for g, t in zip(grads, leaves)]
                results[lib] = (out, grads)
            _compare_value(self, results[gnn][0], results[torch][0], expr)
            if 'as_strided_scatter' in expr or isinstance(results[torch][1], str):
                continue   # torch 1.13's gradient of it reads uninitialized memory: gradchecked below
            if results[torch][1] is None:
                self.assertIsNone(results[gnn][1], expr)
            else:
                self.assertIsNotNone(results[gnn][1], expr)
                close(self, results[gnn][1], results[torch][1], msg=expr + ' (gradients)')

    def test_values(self):
        for expr in VALUES:
            want = eval(expr, _scope(torch, False))
            got = eval(expr, _scope(gnn, False))
            _compare_value(self, got, want, expr)

    def test_unfold_is_a_view(self):
        for lib in (torch, gnn):
            v = lib.arange(8.0)
            w = v.unfold(0, 3, 2)
            w[1, 0] = 100.0
            self.assertEqual(v.tolist()[2], 100.0)
            a = v.as_strided((2, 2), (1, 1), 5)
            a[0, 1] = -1.0
            self.assertEqual(v.tolist()[6], -1.0)
            s = v.storage()
            s[0] = 7.0
            self.assertEqual(v.tolist()[0], 7.0)

    def test_gradcheck_of_views(self):
        x = gnn.tensor(_DATA['v'], dtype=gnn.float64, requires_grad=True)
        self.assertTrue(gnn.autograd.gradcheck(lambda t: t.unfold(0, 3, 2), (x,)))
        self.assertTrue(gnn.autograd.gradcheck(lambda t: t.as_strided((3, 3), (1, 2), 1), (x,)))
        self.assertTrue(gnn.autograd.gradgradcheck(lambda t: (t.unfold(0, 4, 3) ** 2), (x,)))
        self.assertTrue(gnn.autograd.gradgradcheck(lambda t: (t.as_strided((2, 3), (2, 1)) ** 2), (x,)))
        d = gnn.tensor(_DATA['d'], dtype=gnn.float64, requires_grad=True)
        self.assertTrue(gnn.autograd.gradcheck(lambda t, s: gnn.as_strided_scatter(t, s, (3,), (2,), 1), (x, d)))
        self.assertTrue(gnn.autograd.gradcheck(lambda t, s: gnn.diagonal_scatter(t.reshape(2, 5), s[:2], 1), (x, d)))

    def test_errors(self):
        def message(lib, expr):
            scope = _scope(lib, False)
            try:
                eval(expr, scope)
            except Exception as e:
                return type(e).__mro__[-3 if type(e).__module__ == 'gi.overrides.Gnn' else 0], \
                    getattr(e, 'message', str(e))
            return None
        for expr in ['v.unfold(0, 11, 1)', 'v.unfold(0, 3, 0)', 'v.unfold(1, 2, 1)', 'torch.as_strided(v, (3,), (1, 2))',
                     'torch.as_strided(v, (3,), (-1,))', 'torch.as_strided(v, (30,), (1,))',
                     'torch.as_strided(v, (3,), (1,), -1)', 'torch.solve(a, a)', 'a.solve(a)', 'a.lstsq(a)',
                     'torch.lstsq(a, a)', 'a.eig()', 'torch.eig(a)', 'torch.matrix_rank(a)',
                     'x.contiguous(memory_format=torch.channels_last)']:
            want, got = message(torch, expr), message(gnn, expr)
            self.assertIsNotNone(got, expr)
            self.assertEqual(got[1], want[1], expr)
            self.assertTrue(isinstance(got[0], type) and issubclass(got[0], Exception), expr)
        for name in ('cdouble', 'cfloat', 'chalf'):
            with self.assertRaisesRegex(TypeError, 'gnn has no complex dtypes'):
                getattr(gnn.ones(2), name)()

    def test_pinned_and_shared(self):
        x = gnn.arange(3.0)
        p = x.pin_memory()
        self.assertEqual(p.tolist(), [0.0, 1.0, 2.0])
        self.assertFalse(p.is_pinned())
        self.assertIs(x.share_memory_(), x)
        self.assertTrue(x.is_shared())

    def test_deprecation_warnings(self):
        for lib in (torch, gnn):
            spd = _scope(lib, False)['spd']
            with self.assertWarnsRegex(UserWarning, 'torch.cholesky is deprecated in favor of torch.linalg.cholesky'):
                spd.cholesky()
            with self.assertWarnsRegex(UserWarning, 'torch.symeig is deprecated in favor of torch.linalg.eigh'):
                lib.symeig(spd)
            self.assertEqual(tuple(lib.symeig(spd).eigenvectors.shape), (0,))


# ---- 5. torch namespace ----

NAMESPACE_DIFFERENTIABLE = [
    'torch.gradient(v)', 'torch.gradient(x)', 'torch.gradient(x, dim=1)', 'torch.gradient(x, spacing=0.5)',
    'torch.gradient(x, spacing=[2.0, 0.5])', 'torch.gradient(z, dim=(1, 2), edge_order=2)',
    'torch.gradient(v, spacing=(torch.tensor(np.cumsum(np.arange(1.0, 11.0)), dtype=torch.float64),))',
    'torch.gradient(x, spacing=(torch.tensor([0.0, 1.0, 3.0], dtype=torch.float64),), dim=0, edge_order=2)',
    'torch.gradient(x, spacing=[torch.tensor([0.0, 1.0, 3.0], dtype=torch.float64), '
    'torch.tensor([0.0, 0.5, 2.0, 2.5], dtype=torch.float64)])',
    'torch.constant_pad_nd(x, (1, 2))', 'torch.constant_pad_nd(z, [0, 1, 2, 0], 1.5)',
    'torch.cosine_embedding_loss(x, x.flip(0), torch.tensor([1, -1, 1]))',
    'torch.cosine_embedding_loss(x, x.flip(0), torch.tensor([1, -1, 1]), 0.2, 0)',
    'torch.hinge_embedding_loss(x, torch.ones(3, 4, dtype=torch.float64), 1.0, 2)',
    'torch.margin_ranking_loss(d, p, torch.tensor([1.0, -1.0, 1.0], dtype=torch.float64), 0.1)',
    'torch.poisson_nll_loss(x, x.abs(), True, False, 1e-8, 1)',
    'torch.poisson_nll_loss(x.abs(), x.abs(), False, True, 1e-8, 2)',
    'torch.triplet_margin_loss(x, x.flip(0), x.flip(1), 1.0, 2.0, 1e-6, True, 0)',
    'torch.frobenius_norm(x)', 'torch.frobenius_norm(z, (0, 2))', 'torch.frobenius_norm(z, [1], True)',
    'torch.nuclear_norm(a)', 'torch.nuclear_norm(z, (1, 2))', 'torch.nuclear_norm(a, keepdim=True)',
    'torch.norm_except_dim(x)', 'torch.norm_except_dim(z, 2, 1)', 'torch.norm_except_dim(z, 3, 2)',
    'torch.norm_except_dim(x, 2, -1)',
    'torch.pixel_shuffle(z.reshape(1, 4, 3, 2), 2)', 'torch.pixel_unshuffle(z.reshape(1, 1, 4, 6), 2)',
    'torch.alpha_dropout(x, 0.5, False)', 'torch.feature_alpha_dropout(x, 0.5, False)',
    'torch.conv3d(z.reshape(1, 1, 2, 3, 4), z[:, :2, :2].reshape(2, 1, 1, 2, 2), p[:2], 1, (0, 1, 0))',
    'torch.conv_transpose3d(z.reshape(1, 2, 1, 3, 4), z[:, :2, :2].reshape(2, 1, 1, 2, 2), None, 1, 0, 0, 1, 1)',
    'torch.max_pool3d(z.reshape(1, 2, 3, 4), (1, 2, 2))', 'torch.max_pool3d(z.reshape(1, 2, 3, 4), 2, 1, 1)',
    'torch.max_pool1d_with_indices(x.reshape(1, 3, 4), 2)',
    'torch.instance_norm(z, None, None, None, None, True, 0.1, 1e-5, False)',
    'torch.instance_norm(z, p, d, None, None, True, 0.1, 1e-5, False)',
    'torch.ctc_loss(z.log_softmax(2), torch.tensor([[1, 2], [3, 1], [2, 2]]), [2, 2, 2], [2, 1, 2])',
    'torch.ctc_loss(z.log_softmax(2), torch.tensor([[1, 2], [3, 1], [2, 2]]), [2, 2, 2], [2, 1, 2], 0, 2)',
    'torch.rnn_tanh_cell(x, m[:3], m.t(), a[:2, :2], p[:2], d[:2])',
    'torch.rnn_relu_cell(x, m[:3], m.t(), a[:2, :2])',
    'torch.gru_cell(x, z[0, :, :2], torch.cat([m.t(), m.t() * 0.5, m.t() * 2]), torch.cat([a[:2, :2]] * 3), '
    'torch.cat([d[:2]] * 3), None)',
    'torch.lstm_cell(x, (z[0, :, :2], z[1, :, :2]), torch.cat([m.t(), -m.t(), m.t() * 0.5, m.t() * 2]), '
    'torch.cat([a[:2, :2]] * 4), torch.cat([d[:2]] * 4), torch.cat([p[:2]] * 4))',
    'torch.native_layer_norm(z, [4], q, q * 0.5, 1e-5)', 'torch.native_layer_norm(z, (3, 4), None, None, 1e-5)',
    'torch.native_batch_norm(z, p, d, None, None, True, 0.1, 1e-5)',
    'torch.native_group_norm(z.reshape(2, 6, 2), torch.ones(6, dtype=torch.float64), None, 2, 6, 2, 3, 1e-5)[0]',
    'torch.native_dropout(x, 0.5, False)[0]',
    'torch.convolution(z, x.reshape(3, 1, 4)[:, :, :2].reshape(1, 3, 2).expand(2, 3, 2), None, [1], [0], [1], '
    'False, [0], 1)',
    'torch.convolution(z.reshape(1, 2, 3, 4), s.reshape(2, 1, 2, 2), p[:1], [1, 1], [1, 0], [1, 1], True, [0, 0], 1)',
    'torch.feature_dropout(z.reshape(1, 2, 3, 4), 0.3, False)',
]

NAMESPACE_VALUES = [
    'torch.hann_window(8)', 'torch.hann_window(8, False)', 'torch.hann_window(1)', 'torch.hann_window(0)',
    'torch.hamming_window(7)', 'torch.hamming_window(7, False, 0.5, 0.5)', 'torch.hamming_window(6, True, 0.6)',
    'torch.blackman_window(9)', 'torch.blackman_window(9, periodic=False)', 'torch.bartlett_window(6)',
    'torch.bartlett_window(6, False)', 'torch.kaiser_window(8)', 'torch.kaiser_window(8, False, 5.0)',
    'torch.kaiser_window(5, True, 0.0)', 'torch.hann_window(5, dtype=torch.float64)',
    'torch.hann_window(4, requires_grad=True).requires_grad',
    'torch.asarray([1, 2, 3])', 'torch.asarray([[1.5, 2.0]])', 'torch.asarray(np.arange(4.0))',
    'torch.asarray(x) is x', 'torch.asarray(x, copy=True) is x', 'torch.asarray(x, dtype=torch.float32)',
    'torch.asarray(3.5)', 'torch.asarray([1, 2], dtype=torch.float64, requires_grad=True).requires_grad',
    'torch.frombuffer(bytearray(np.arange(6, dtype=np.float32).tobytes()), dtype=torch.float32)',
    'torch.frombuffer(np.arange(6, dtype=np.int32).tobytes(), dtype=torch.int32, count=3, offset=8)',
    'torch.frombuffer(b"\\x01\\x02\\x03", dtype=torch.uint8)',
    'torch.channel_shuffle(z.reshape(1, 4, 3, 2), 2)',   # (torch 1.13 has no derivative of it)
    'torch.alpha_dropout(x, 0.0, True)', 'torch.dropout_(x.detach().clone(), 0.5, False)',
    'torch.get_float32_matmul_precision()', 'torch.are_deterministic_algorithms_enabled()',
    'torch.is_deterministic_algorithms_warn_only_enabled()', 'torch.get_deterministic_debug_mode()',
    'type(torch.get_num_interop_threads())', 'type(torch.default_generator).__name__',
    'torch.get_rng_state().dtype', 'len(torch.gradient(z))',
    'torch.binomial(torch.tensor([0.0, 5.0, 10.0]), torch.tensor([0.5, 0.0, 1.0]))',
    '[t.shape for t in torch.native_batch_norm(img, None, None, torch.zeros(3), torch.ones(3), False, 0.1, 1e-5)]',
    'torch.native_dropout(x, 0.5, False)[1]',
    '[t.detach() for t in torch.native_group_norm(z.reshape(2, 6, 2), None, None, 2, 6, 2, 3, 1e-5)]', 'torch.native_dropout(x, 0.0, True)[1]',
]


class Namespace(unittest.TestCase):
    def test_differentiable(self):
        for expr in NAMESPACE_DIFFERENTIABLE:
            results = {}
            for lib in (torch, gnn):
                scope = _scope(lib, True)
                try:
                    out = eval(expr, scope)
                except Exception as e:
                    raise AssertionError('%s with %s: %s' % (expr, lib.__name__, e)) from e
                outs = [o for o in (list(out) if isinstance(out, (list, tuple)) else [out]) if o.is_floating_point()]
                leaves = [scope[k] for k in _DATA]
                total = sum((o * lib.arange(o.numel(), dtype=o.dtype).reshape(o.shape).cos()).sum() for o in outs)
                grads = lib.autograd.grad(total, leaves, allow_unused=True)
                results[lib] = (out, [lib.zeros_like(t) if g is None else g for g, t in zip(grads, leaves)])
            _compare_value(self, results[gnn][0], results[torch][0], expr)
            close(self, results[gnn][1], results[torch][1], msg=expr + ' (gradients)')

    def test_values(self):
        for expr in NAMESPACE_VALUES:
            want = eval(expr, _scope(torch, False))
            got = eval(expr, _scope(gnn, False))
            if expr.startswith('type(torch.default_generator)'):
                self.assertEqual(got, 'Generator')
            elif expr.startswith('torch.binomial'):
                self.assertEqual(got.tolist(), want.tolist(), expr)   # (the draws that are certain)
            else:
                _compare_value(self, got, want, expr)

    def test_gradient_gradcheck(self):
        x = gnn.tensor(_DATA['x'], dtype=gnn.float64, requires_grad=True)
        c = gnn.tensor([0.0, 1.0, 3.0], dtype=gnn.float64)
        self.assertTrue(gnn.autograd.gradcheck(lambda t: gnn.gradient(t, spacing=(c,), dim=0, edge_order=2), (x,)))
        self.assertTrue(gnn.autograd.gradcheck(lambda t: gnn.norm_except_dim(t, 3, 1), (x,)))

    def test_rng_state(self):
        gnn.manual_seed(5)
        state = gnn.get_rng_state()
        a = gnn.rand(4)
        gnn.set_rng_state(state)
        self.assertEqual(gnn.rand(4).tolist(), a.tolist())
        self.assertIs(gnn.default_generator, gnn.default_generator)
        gnn.default_generator.manual_seed(11)
        self.assertEqual(gnn.initial_seed(), 11)
        s = gnn.seed()
        self.assertEqual(gnn.initial_seed(), s)
        with self.assertRaises(TypeError):
            gnn.set_rng_state(gnn.zeros(16))
        counts = gnn.tensor([20.0] * 2000)
        draws = gnn.binomial(counts, gnn.full((2000,), 0.25))
        self.assertEqual(draws.dtype, gnn.float32)
        self.assertAlmostEqual(float(draws.mean()), 5.0, delta=0.2)
        self.assertTrue(bool((draws >= 0).all()) and bool((draws <= 20).all()))

    def test_switches(self):
        for lib in (torch, gnn):
            lib.use_deterministic_algorithms(True, warn_only=True)
            got = [lib.are_deterministic_algorithms_enabled(), lib.is_deterministic_algorithms_warn_only_enabled(),
                   lib.get_deterministic_debug_mode()]
            lib.set_deterministic_debug_mode('error')
            got.append(lib.get_deterministic_debug_mode())
            lib.set_deterministic_debug_mode(0)
            got.append(lib.are_deterministic_algorithms_enabled())
            lib.set_float32_matmul_precision('high')
            got.append(lib.get_float32_matmul_precision())
            if lib is gnn:
                with self.assertWarnsRegex(UserWarning, 'low is not one of'):
                    lib.set_float32_matmul_precision('low')
            lib.set_float32_matmul_precision('highest')
            got.append(lib.get_float32_matmul_precision())
            self.assertEqual(got, [True, True, 1, 2, False, 'high', 'highest'])
        n = gnn.get_num_interop_threads()
        gnn.set_num_interop_threads(2)
        self.assertEqual(gnn.get_num_interop_threads(), 2)
        with self.assertRaisesRegex(RuntimeError, 'cannot set number of interop threads'):
            gnn.set_num_interop_threads(3)
        self.assertGreater(n, 0)

    def test_inplace_dropout(self):
        x = gnn.ones(1000)
        y = gnn.dropout_(x, 0.5, True)
        self.assertIs(y, x)
        kept = x[x != 0]
        self.assertTrue(bool((kept == 2.0).all()))
        self.assertLess(abs(kept.numel() - 500), 100)


class IncompleteGamma(unittest.TestCase):
    A = np.array([0.5, 1.0, 2.5, 10.0, 0.1, 3.0, 0.0, 50.0, 4.0, 1e-3, 7.0])
    X = np.array([0.2, 1.0, 4.0, 9.0, 0.0, 30.0, 2.0, 45.0, -1.0, 5.0, 7.5])

    def test_values_and_gradients(self):
        out = {}
        for lib in (torch, gnn):
            a, x = lib.tensor(self.A), lib.tensor(self.X, requires_grad=True)
            r = [lib.igamma(a, x), lib.igammac(a, x), a.igamma(x), a.igammac(x), lib.special.gammainc(a, x),
                 lib.special.gammaincc(a, x), lib.igamma(a.float(), x.detach().float()),
                 lib.igamma(a[:3].reshape(3, 1), x.detach()[:4])]
            (g,) = lib.autograd.grad((lib.igamma(a, x) * 2 + lib.igammac(a, x)).sum(), x)
            r.append(g)
            b = a.clone()
            b.igamma_(x.detach())
            c = a.clone()
            c.igammac_(x.detach())
            out[lib] = r + [b, c]
        close(self, out[gnn], out[torch], rtol=1e-6, atol=1e-9)   # (float32: torch's float kernel)

    def test_gradcheck_and_no_gradient_in_a(self):
        a = gnn.tensor([0.7, 2.0, 5.0], dtype=gnn.float64)
        x = gnn.tensor([0.3, 2.5, 6.0], dtype=gnn.float64, requires_grad=True)
        self.assertTrue(gnn.autograd.gradcheck(lambda t: gnn.igamma(a, t), (x,)))
        self.assertTrue(gnn.autograd.gradcheck(lambda t: gnn.igammac(a, t), (x,)))
        a.requires_grad_(True)
        with self.assertRaisesRegex(NotImplementedError, 'not implemented'):
            gnn.igamma(a, x).sum().backward()


class RecurrentFunctions(unittest.TestCase):
    def test_as_torch(self):
        rng = np.random.default_rng(7)
        for name, gates, lstm in (('lstm', 4, True), ('gru', 3, False), ('rnn_tanh', 1, False), ('rnn_relu', 1, False)):
            for layers, bidirectional, biases, batch_first in ((1, False, True, False), (2, True, True, True),
                                                               (2, False, False, False)):
                dirs = 2 if bidirectional else 1
                x = rng.standard_normal((5, 3, 4))
                shapes = []
                for layer in range(layers):
                    n_in = 4 if layer == 0 else 6 * dirs
                    for _ in range(dirs):
                        shapes += [(gates * 6, n_in), (gates * 6, 6)] + ([(gates * 6,), (gates * 6,)] if biases else [])
                params = [rng.standard_normal(s) * 0.4 for s in shapes]
                h = rng.standard_normal((layers * dirs, 5 if batch_first else 3, 6))
                c = rng.standard_normal(h.shape)
                out = {}
                for lib in (torch, gnn):
                    X = lib.tensor(x, dtype=lib.float64, requires_grad=True)
                    P = [lib.tensor(p, dtype=lib.float64, requires_grad=True) for p in params]
                    H = lib.tensor(h, dtype=lib.float64)
                    hx = [H, lib.tensor(c, dtype=lib.float64)] if lstm else H
                    r = getattr(lib, name)(X, hx, P, biases, layers, 0.0, False, bidirectional, batch_first)
                    total = sum((t * t).sum() for t in r)
                    out[lib] = list(r) + list(lib.autograd.grad(total, [X] + P))
                close(self, out[gnn], out[torch], msg='%s %d %s %s %s' % (name, layers, bidirectional, biases,
                                                                           batch_first))


class DefaultsAndGraph(unittest.TestCase):
    def test_set_default_tensor_type(self):
        try:
            for lib in (torch, gnn):
                lib.set_default_tensor_type(lib.DoubleTensor)
                self.assertEqual(repr(lib.get_default_dtype()), 'torch.float64')
                self.assertEqual(repr(lib.tensor([1.5]).dtype), 'torch.float64')
                lib.set_default_tensor_type('torch.FloatTensor')
                self.assertEqual(repr(lib.get_default_dtype()), 'torch.float32')
                with self.assertRaises(TypeError):
                    lib.set_default_tensor_type(lib.LongTensor)
        finally:
            torch.set_default_dtype(torch.float32)
            gnn.set_default_dtype(gnn.float32)

    def test_save_on_cpu(self):
        grads = {}
        for lib in (torch, gnn):
            x = lib.tensor([1.0, 2.0, 3.0], requires_grad=True)
            with lib.autograd.graph.save_on_cpu(pin_memory=False):
                y = (x * x).sin().sum()
            (g,) = lib.autograd.grad(y, [x])
            grads[lib] = g
        close(self, grads[gnn], grads[torch])
        with self.assertRaisesRegex(AttributeError, 'pack / unpack hooks'):
            gnn.autograd.graph.saved_tensors_hooks


if __name__ == '__main__':
    main()
