"""Tensors the torch way: every expression here runs with `import gnn as torch` and with torch
1.13 on the same data, and the results agree (values, dtypes, shapes, the kind of result:
tensor, torch.Size, named tuple, Python scalar), gradients included where the expression
starts from a leaf that requires grad."""
import unittest

import numpy as np

from gnntest import GLib, main  # noqa: F401 (requires Gnn 1.0, loads torch)
from gi.repository import Gnn
import torch

import gnn


def arrays():
    rng = np.random.default_rng(25)
    return {
        'x': rng.uniform(-2, 2, (3, 4)).astype(np.float32),
        'y': rng.uniform(-2, 2, (3, 4)).astype(np.float32),
        'z': rng.uniform(-2, 2, (2, 3, 4)).astype(np.float32),
        'p': rng.uniform(0.5, 2, (3, 4)).astype(np.float32),
        'd': rng.uniform(-2, 2, (4, 3)).astype(np.float64),
        'i': rng.integers(-5, 5, (3, 4)).astype(np.int64),
        'b': rng.integers(0, 2, (3, 4)).astype(np.bool_),
        'u': rng.integers(0, 3, (3, 4)).astype(np.uint8),
        'v': rng.uniform(-2, 2, (4,)).astype(np.float32),
    }


def variables(module, requires_grad=False):
    """The tensors of arrays() in one library, x and z requiring grad if asked."""
    out = {}
    for name, a in arrays().items():
        t = module.tensor(a) if module is gnn else torch.from_numpy(a.copy())
        if requires_grad and name in ('x', 'z', 'p'):
            t.requires_grad_(True)
        out[name] = t
    return out


# expressions evaluated with torch bound to gnn and to torch
REDUCTIONS = [
    'x.sum()', 'x.sum(1)', 'x.sum(-1, keepdim=True)', 'x.sum((0, 1))', 'x.sum(dim=0)',
    'torch.sum(x, 1)', 'torch.sum(z, (0, 2), True)', 'x.sum(dtype=torch.float64)', 'i.sum()', 'b.sum(0)',
    'x.mean()', 'x.mean(0)', 'z.mean((-1, -2), keepdim=True)', 'torch.mean(x, dim=1)',
    'i.mean(dtype=torch.float32)',
    'x.std()', 'x.std(0)', 'x.std(1, keepdim=True)', 'x.std(unbiased=False)', 'x.std(0, False)',
    'x.var()', 'x.var(1)', 'x.var(1, unbiased=False)', 'x.var(0, correction=0)', 'z.var((0, 2))',
    'torch.var(x, 1, True, True)', 'torch.std(z, dim=(1,))', 'x.var(False)',
    'x.max()', 'x.min()', 'x.max(1)', 'x.min(0)', 'x.max(1, keepdim=True)', 'x.max(dim=-1)',
    'torch.max(x, 1)', 'torch.min(x, 0, True)', 'x.max(y)', 'torch.max(x, y)', 'torch.min(x, y)',
    'x.max(1).values', 'x.max(1).indices', 'x.max(1)[0]', 'i.max()', 'i.min(1)',
    'x.amax()', 'x.amax(1)', 'z.amax((0, 2))', 'z.amin((0, 2), keepdim=True)', 'torch.amax(x, -1)',
    'x.argmax()', 'x.argmax(1)', 'x.argmin()', 'x.argmin(0)', 'x.argmax(1, keepdim=True)',
    'torch.argmax(x, dim=1)', 'i.argmin(1)',
    'b.all()', 'b.any()', 'b.all(1)', 'b.any(0)', 'x.gt(0).all()', 'torch.any(x > 1)', 'u.all()',
    'i.any(1, keepdim=True)',
    'x.logsumexp(1)', 'torch.logsumexp(z, (0, 2))', 'torch.logsumexp(x, 0, keepdim=True)',
    'x.softmax(1)', 'torch.softmax(x, 0)', 'x.log_softmax(-1)', 'torch.log_softmax(x, dim=1)',
    'x.softmax(1, dtype=torch.float64)',
]

SHAPES = [
    'x.view(-1)', 'x.view(2, 6)', 'x.view((6, -1))', 'x.view([4, 3])', 'z.view(-1, 4)',
    'x.reshape(-1)', 'x.reshape(2, -1)', 'x.reshape((12,))', 'torch.reshape(x, (4, 3))',
    'z.flatten()', 'z.flatten(1)', 'z.flatten(0, 1)', 'torch.flatten(z, start_dim=1)',
    'x.view(1, 3, 1, 4).squeeze()', 'x.view(1, 3, 1, 4).squeeze(0)', 'x.view(1, 3, 1, 4).squeeze(2)',
    'x.unsqueeze(0)', 'x.unsqueeze(-1)', 'torch.unsqueeze(x, 1)', 'torch.squeeze(x.unsqueeze(1))',
    'z.permute(2, 0, 1)', 'z.permute((1, 2, 0))', 'torch.permute(z, (2, 1, 0))',
    'x.transpose(0, 1)', 'z.transpose(-1, 0)', 'torch.transpose(z, 1, 2)',
    'x.T', 'x.mT', 'z.mT', 'x.t()', 'torch.t(x)', 'v.T', 'x.t().contiguous()',
    'v.expand(3, 4)', 'v.expand(2, 3, -1)', 'x.unsqueeze(0).expand((2, 3, 4))',
    'x.repeat(2, 1)', 'v.repeat(2, 3)', 'x.repeat(1, 2, 2)',
    'x.size()', 'x.size(1)', 'x.size(-1)', 'x.shape', 'z.shape[1:]', 'x.shape[0]', 'x.ndim', 'x.dim()',
    'x.numel()', 'torch.numel(z)', 'z.shape.numel()', 'list(x.shape)', 'tuple(x.size())',
    'x.narrow(1, 1, 2)', 'torch.cat([x, y], 1)', 'torch.stack([x, y])',
]

CONVERSIONS = [
    'x.float()', 'x.double()', 'i.float()', 'x.long()', 'x.bool()', 'x.half()', 'x.bfloat16().float()',
    'u.long()', 'b.float()', 'x.byte()',
    'x.to(torch.float64)', 'x.to("cpu")', 'x.to(d)', 'x.to("cpu", torch.float64)', 'x.to(dtype=torch.int64)',
    'x.to(device="cpu", dtype=torch.float16)', 'x.type(torch.float64)', 'x.type()', 'i.type()',
    'd.type()', 'x.type("torch.DoubleTensor")', 'x.cpu()', 'x.clone()', 'x.detach()',
    'x.sum().item()', 'i.sum().item()', 'b.all().item()', 'x.tolist()', 'i.tolist()', 'b.tolist()',
    'x.dtype', 'i.dtype', 'd.dtype', 'b.dtype', 'u.dtype', 'x.half().dtype', 'x.bfloat16().dtype',
    'x.is_floating_point()', 'i.is_floating_point()', 'torch.is_floating_point(d)',
    'torch.is_tensor(x)', 'torch.is_tensor(1.0)', 'x.is_contiguous()', 'x.t().is_contiguous()',
]

ELEMENTWISE = [
    'x.pow(2)', 'p.pow(0.5)', 'x.pow(y.abs())', 'torch.pow(x, 3)', 'torch.pow(2, x)', 'p ** 1.5',
    'x.clamp(-1, 1)', 'x.clamp(min=0)', 'x.clamp(max=0.5)', 'x.clamp(y, None)', 'x.clamp(min=y, max=p)',
    'torch.clamp(x, -0.5, 0.5)', 'x.clip(-1, 1)', 'torch.clip(x, max=0)', 'i.clamp(-2, 2)',
    'x.abs()', 'torch.abs(x)', 'p.sqrt()', 'torch.sqrt(p)', 'x.exp()', 'torch.exp(x)', 'p.log()',
    'torch.log(p)', 'x.tanh()', 'torch.tanh(x)', 'x.sigmoid()', 'torch.sigmoid(x)', 'x.relu()',
    'torch.relu(x)', 'x.neg()', 'torch.neg(x)', 'torch.negative(x)', 'x.sign()', 'torch.sign(x)',
    'p.reciprocal()', 'torch.reciprocal(p)', 'torch.hypot(x, y)',
    'x.maximum(y)', 'torch.maximum(x, y)', 'x.minimum(y)', 'torch.minimum(x, y)',
    'x.add(y)', 'x.add(y, alpha=2)', 'x.add(1)', 'torch.add(x, y)', 'torch.add(x, 2.5)', 'i.add(1)',
    'i.add(0.5)', 'x.sub(y)', 'x.sub(y, alpha=0.5)', 'torch.sub(x, 1)', 'torch.subtract(x, y)',
    'x.mul(y)', 'x.mul(3)', 'torch.mul(x, y)', 'torch.multiply(x, 2)', 'i.mul(2)',
    'x.div(p)', 'x.div(2)', 'torch.div(x, p)', 'torch.divide(x, 4)', 'torch.true_divide(i, 2)',
    'x.eq(y)', 'x.ne(0)', 'x.lt(y)', 'x.le(0)', 'x.gt(y)', 'x.ge(0)', 'torch.eq(x, x)', 'torch.gt(x, 0)',
    'torch.greater(x, y)', 'torch.less_equal(x, 0.5)', 'torch.not_equal(i, 0)',
    'torch.where(x > 0, x, y)', 'torch.where(x > 0, x, 0.0)', 'torch.where(b, 1.0, x)',
    'x.lerp(y, 0.3)', 'torch.lerp(x, y, 0.7)', 'torch.lerp(x, y, p / 2)',
    'x.addcmul(y, p)', 'torch.addcmul(x, y, p, value=0.5)', 'x.addcdiv(y, p, value=2)',
    'x.matmul(d.float())', 'torch.matmul(x, v)', 'x.mm(d.float())', 'torch.mm(x, y.t())',
    'torch.bmm(z, z.transpose(1, 2))', 'z @ v',
]

INPLACE = [
    'x.clone().add_(y)', 'x.clone().add_(1)', 'x.clone().add_(y, alpha=2)', 'x.clone().sub_(y)',
    'x.clone().sub_(2)', 'x.clone().mul_(y)', 'x.clone().mul_(2)', 'x.clone().div_(p)',
    'x.clone().div_(2)', 'x.clone().clamp_(-1, 1)', 'x.clone().clamp_(min=y)', 'x.clone().lerp_(y, 0.5)',
    'x.clone().lerp_(y, p / 2)', 'x.clone().addcmul_(y, p, value=2)', 'x.clone().addcdiv_(y, p)',
    'p.clone().sqrt_()', 'x.clone().zero_()', 'x.clone().fill_(3)', 'x.clone().copy_(y)',
]

FACTORIES = [
    'torch.zeros(2, 3)', 'torch.zeros((2, 3))', 'torch.zeros([4])', 'torch.zeros(2, dtype=torch.int64)',
    'torch.zeros(())', 'torch.zeros(0, 3)', 'torch.zeros(x.shape)', 'torch.zeros(x.size())',
    'torch.ones(3)', 'torch.ones(2, 2, dtype=torch.float64)', 'torch.ones((1, 2), dtype=torch.bool)',
    'torch.full((2, 3), 7)', 'torch.full((2,), 1.5)', 'torch.full([2], True)',
    'torch.full((2, 2), 3, dtype=torch.float32)', 'torch.empty(2, 3).shape', 'torch.empty((0,)).dtype',
    'torch.arange(5)', 'torch.arange(5.0)', 'torch.arange(1, 4)', 'torch.arange(0, 1, 0.25)',
    'torch.arange(10, 0, -3)', 'torch.arange(3, dtype=torch.float64)', 'torch.arange(0, 5, 2.0)',
    'torch.linspace(0, 1, 5)', 'torch.linspace(-1, 1, 7)', 'torch.linspace(0, 10, 1)',
    'torch.linspace(3, 1, 4, dtype=torch.float64)', 'torch.linspace(0, 1, 0)',
    'torch.eye(3)', 'torch.eye(2, 4)', 'torch.eye(3, dtype=torch.int64)',
    'torch.zeros_like(x)', 'torch.ones_like(i)', 'torch.full_like(x, 2)', 'torch.zeros_like(x, dtype=torch.int64)',
    'torch.empty_like(d).shape', 'torch.ones_like(x, dtype=torch.float64)',
    'torch.rand(2, 3).shape', 'torch.randn((4,)).dtype', 'torch.rand(2, dtype=torch.float64).dtype',
    'torch.rand_like(x).shape', 'torch.randn_like(d).dtype', 'torch.rand_like(x, dtype=torch.float64).dtype',
    'torch.randint(5, (3,)).dtype', 'torch.randint(2, 5, (2, 2)).shape', 'torch.randint(0, 3, size=(4,)).dtype',
    'torch.tensor([1, 2])', 'torch.tensor([1.0, 2])', 'torch.tensor([[True], [False]])',
    'torch.tensor(3.5)', 'torch.tensor([1, 2], dtype=torch.float32)', 'torch.tensor(np.arange(3))',
    'torch.as_tensor([1, 2])', 'torch.as_tensor(np.ones(2))', 'torch.as_tensor(x) is x',
    'torch.as_tensor(x, dtype=torch.float64)', 'torch.from_numpy(np.arange(4.0))',
    'torch.get_default_dtype()', 'torch.float32', 'torch.float', 'torch.float64', 'torch.double',
    'torch.float16', 'torch.half', 'torch.bfloat16', 'torch.int64', 'torch.long', 'torch.uint8',
    'torch.bool', 'torch.float == torch.float32', 'torch.long == torch.int64', 'str(torch.float64)',
    'torch.float32.is_floating_point', 'torch.int64.is_floating_point', 'torch.float16.itemsize',
    'torch.Size([2, 3])', 'torch.Size([2, 3]) == (2, 3)', 'torch.numel(torch.zeros(2, 5))',
    'torch.cuda.is_available()', 'torch.backends.mps.is_available()',
    'torch.zeros(2, requires_grad=True).requires_grad',
]

# torch 1.13's torch.Tensor has no itemsize on dtypes
TORCH_113_LACKS = {'torch.float16.itemsize': 2}


def is_tensor(value):
    return isinstance(value, (Gnn.Tensor, torch.Tensor))


class TorchParity(unittest.TestCase):
    def assert_same(self, got, want, what):
        if isinstance(want, torch.Tensor):
            self.assertIsInstance(got, Gnn.Tensor, what)
            self.assertEqual(repr(got.dtype), repr(want.dtype), what + ': dtype')
            self.assertEqual(tuple(got.shape), tuple(want.shape), what + ': shape')
            w = want.detach().float().numpy() if want.dtype == torch.bfloat16 else want.detach().numpy()
            g = got.float().numpy() if got.dtype == gnn.bfloat16 else got.numpy()
            if w.dtype.kind in 'biu':
                np.testing.assert_array_equal(g, w, err_msg=what)
            else:
                tol = 1e-3 if w.dtype == np.float16 else 1e-5
                np.testing.assert_allclose(g, w, rtol=tol, atol=tol, equal_nan=True, err_msg=what)
        elif isinstance(want, tuple):
            self.assertEqual(type(got).__name__, type(want).__name__, what + ': type')
            self.assertEqual(repr(type(got)).count('return_types'), repr(type(want)).count('return_types'),
                             what)
            self.assertEqual(len(got), len(want), what)
            for k, (g, w) in enumerate(zip(got, want)):
                self.assert_same(g, w, '%s[%d]' % (what, k))
            if type(want).__name__ == 'Size':
                self.assertEqual(repr(got), repr(want), what)
            if hasattr(want, 'values'):
                self.assert_same(got.values, want.values, what + '.values')
                self.assert_same(got.indices, want.indices, what + '.indices')
        elif isinstance(want, torch.dtype):
            self.assertEqual(repr(got), repr(want), what)
            self.assertEqual(str(got), str(want), what)
        else:
            self.assertEqual(type(got), type(want), what)
            if isinstance(want, float):
                self.assertAlmostEqual(got, want, 5, what)
            elif isinstance(want, list):
                np.testing.assert_allclose(np.array(got, dtype=float), np.array(want, dtype=float),
                                           rtol=1e-5, err_msg=what)
            else:
                self.assertEqual(got, want, what)

    def run_cases(self, cases, grad=False):
        for expression in cases:
            with self.subTest(expression=expression):
                if expression in TORCH_113_LACKS:
                    self.assertEqual(eval(expression, {'torch': gnn, 'np': np}), TORCH_113_LACKS[expression])
                    continue
                gv, tv = variables(gnn, grad), variables(torch, grad)
                got = eval(expression, dict(gv, torch=gnn, np=np))
                want = eval(expression, dict(tv, torch=torch, np=np))
                self.assert_same(got, want, expression)
                if grad and is_tensor(want) and want.requires_grad:
                    upstream = np.random.default_rng(1).uniform(-1, 1, tuple(want.shape))
                    want.backward(torch.from_numpy(upstream.astype(want.detach().numpy().dtype)))
                    got.backward(gnn.tensor(upstream, dtype=got.dtype))
                    for name in ('x', 'z', 'p'):
                        if tv[name].grad is not None:
                            self.assert_same(gv[name].grad, tv[name].grad, '%s: grad of %s' % (expression, name))
                        else:
                            self.assertIsNone(gv[name].grad, '%s: grad of %s' % (expression, name))

    def test_reductions(self):
        self.run_cases(REDUCTIONS)

    def test_reduction_gradients(self):
        self.run_cases(REDUCTIONS, grad=True)

    def test_tied_extremes(self):
        # amax / amin share the gradient evenly among tied elements, max / min over a dim give
        # it to the returned index, max () / min () of everything share it: as torch, NaN too
        data = [[[1.0, 3.0, 3.0], [3.0, 0.0, 3.0]], [[2.0, 2.0, 2.0], [-1.0, float('nan'), 5.0]]]
        cases = ['x.amax(2)', 'x.amin(2)', 'x.amax((0, 2))', 'x.amin((1, 2), keepdim=True)', 'x.amax(())',
                 'x[0].amax()', 'x[0].amin()', 'x.amax(-1, True)', 'torch.amax(x, (0, 1, 2))', 'x.max(2)[0]',
                 'x.min(1).values', 'x[0].max()', 'x[1, 0].min()', 'x[0].amax(0)']
        for expression in cases:
            with self.subTest(expression):
                tx = torch.tensor(data, requires_grad=True)
                gx = gnn.tensor(data, requires_grad=True)
                want = eval(expression, {'x': tx, 'torch': torch})
                got = eval(expression, {'x': gx, 'torch': gnn})
                np.testing.assert_array_equal(got.detach().numpy(), want.detach().numpy())
                upstream = np.arange(1, want.numel() + 1, dtype=np.float32).reshape(tuple(want.shape))
                want.backward(torch.from_numpy(upstream))
                got.backward(gnn.tensor(upstream))
                np.testing.assert_array_equal(gx.grad.numpy(), tx.grad.numpy())
                self.assertEqual(got.grad_fn.name(), type(want.grad_fn).__name__)
        for name in ('amax', 'amin'):
            for bad, text in ((lambda f: f(gnn.empty(0)), 'Expected reduction dim to be specified'),
                              (lambda f: f(gnn.empty(2, 0), 1), 'Expected reduction dim 1 to have non-zero size'),
                              (lambda f: f(gnn.ones(2), (0, 0)), 'appears multiple times'),
                              (lambda f: f(gnn.ones(2), 2), 'out of range')):
                with self.subTest(name, text=text):
                    with self.assertRaises(GLib.Error) as cm:
                        bad(getattr(gnn, name))
                    self.assertIn(text, cm.exception.message)
            self.assertEqual(tuple(getattr(gnn, name)(gnn.empty(2, 0), 0).shape), (0,))

    def test_shapes(self):
        self.run_cases(SHAPES)
        self.run_cases([c for c in SHAPES if 'size' not in c and 'shape' not in c and 'dim' not in c
                        and 'numel' not in c and 'is_' not in c], grad=True)

    def test_conversions(self):
        self.run_cases(CONVERSIONS)

    def test_elementwise(self):
        self.run_cases(ELEMENTWISE)
        self.run_cases(ELEMENTWISE, grad=True)

    def test_inplace(self):
        self.run_cases(INPLACE)

    def test_factories(self):
        self.run_cases(FACTORIES)

    def test_return_type_repr(self):
        gx, tx = variables(gnn)['x'], variables(torch)['x']
        self.assertEqual(repr(gx.max(1)), repr(tx.max(1)))
        self.assertEqual(repr(gnn.min(gx, 0, keepdim=True)), repr(torch.min(tx, 0, keepdim=True)))
        values, indices = gx.max(1)
        self.assertIsInstance(gx.max(1), tuple)
        self.assertIs(type(gx.max(1)), gnn.return_types.max)


class TestFactories(unittest.TestCase):
    def test_factory_arguments(self):
        t = gnn.zeros(2, 3, requires_grad=True)
        self.assertTrue(t.requires_grad and t.is_leaf())
        self.assertEqual(gnn.ones(2, device='cpu').device, 'cpu')
        self.assertEqual(gnn.eye(2, requires_grad=True).requires_grad, True)

    def test_generators(self):
        g = gnn.Generator().manual_seed(5)
        a = gnn.rand(3, generator=g)
        g.manual_seed(5)
        self.assertEqual(gnn.rand(3, generator=g).tolist(), a.tolist())
        self.assertEqual(gnn.randn(2, 2, generator=gnn.Generator().manual_seed(1)).tolist(),
                         gnn.randn(2, 2, generator=gnn.Generator().manual_seed(1)).tolist())
        self.assertEqual(gnn.Generator().initial_seed(), torch.Generator().initial_seed())
        self.assertEqual(gnn.Generator().manual_seed(9).initial_seed(), 9)
        r = gnn.randint(3, 7, (1000,), generator=g)
        self.assertEqual((r.min().item(), r.max().item()), (3, 6))
        r = gnn.randint(4, (1000,))
        self.assertEqual((r.min().item(), r.max().item()), (0, 3))

    def test_manual_seed(self):
        g = gnn.manual_seed(3)
        self.assertIsInstance(g, Gnn.Generator)
        self.assertIs(type(torch.manual_seed(3)), torch.Generator)
        self.assertEqual(gnn.initial_seed(), 3)
        a = gnn.randn(4)
        gnn.manual_seed(3)
        self.assertEqual(gnn.randn(4).tolist(), a.tolist())
        self.assertEqual(Gnn.manual_seed(3).initial_seed(), 3)

    def test_dtypes(self):
        self.assertIs(gnn.float, gnn.float32)
        self.assertEqual(gnn.float32, Gnn.Dtype.FLOAT32)
        self.assertEqual(Gnn.Dtype.INT64, gnn.long)
        self.assertEqual({Gnn.Dtype.FLOAT64: 'x'}[gnn.double], 'x')
        self.assertIs(gnn.tensor([1.0]).dtype, gnn.float32)
        self.assertEqual(gnn.zeros(2, dtype=Gnn.Dtype.FLOAT64).dtype, gnn.float64)
        self.assertEqual(gnn.zeros(2, dtype='float64').dtype, gnn.float64)
        self.assertEqual(gnn.float32.value_nick, 'float32')
        self.assertEqual(Gnn.Linear(2, 3, dtype=gnn.float64).weight.dtype, gnn.float64)
        import pickle
        self.assertIs(pickle.loads(pickle.dumps(gnn.half)), gnn.half)

    def test_bad_factory_arguments(self):
        cases = [
            (lambda: gnn.zeros(2, 'a'), TypeError, 'must be a tuple of ints'),
            (lambda: gnn.zeros(2.5), TypeError, 'must be a tuple of ints'),
            (lambda: gnn.zeros(-1), RuntimeError, 'negative dimension'),
            (lambda: gnn.zeros(2, dtype='complex64'), TypeError, "got 'complex64'"),
            (lambda: gnn.randint(5), TypeError, 'size'),
            (lambda: gnn.randint(1.5, (2,)), TypeError, "'high' must be int"),
            (lambda: gnn.full((2,), 'a'), TypeError, "'fill_value' must be Number"),
            (lambda: gnn.arange('a'), TypeError, "'end' must be Number"),
            (lambda: gnn.zeros(2, gnn.float64), TypeError, 'must be a tuple of ints'),
            (lambda: gnn.zeros(2, out=gnn.zeros(2)), TypeError, 'out='),
        ]
        for fn, kind, text in cases:
            with self.subTest(text=text):
                with self.assertRaises(kind) as cm:
                    fn()
                self.assertIn(text, str(cm.exception))

    def test_torch_refuses_the_same(self):
        for expression in ('torch.zeros(2, "a")', 'torch.zeros(-1)', 'torch.randint(1.5, (2,))'):
            for module in (gnn, torch):
                with self.subTest(expression=expression, module=module.__name__):
                    with self.assertRaises((TypeError, RuntimeError)):
                        eval(expression, {'torch': module})


class TestMissing(unittest.TestCase):
    def test_missing_tensor_methods_say_why(self):
        x = gnn.zeros(2)
        with self.assertRaises(TypeError) as cm:
            x.cfloat()
        self.assertIn('gnn has no complex dtypes', str(cm.exception))
        with self.assertRaises(AttributeError) as cm:
            x.stft(4)
        self.assertIn('gnn has no complex dtypes', str(cm.exception))
        with self.assertRaises(AttributeError) as cm:
            x.no_such_method
        self.assertEqual(str(cm.exception), "'Tensor' object has no attribute 'no_such_method'")
        self.assertFalse(hasattr(x, '__array_function__'))
        with self.assertRaises(AttributeError) as cm:
            gnn.complex64
        self.assertIn('gnn lacks torch.complex64', str(cm.exception))
        with self.assertRaises(AttributeError) as cm:
            gnn.resize_as_
        self.assertIn('gnn lacks torch.resize_as_', str(cm.exception))

    def test_two_tensor_fast_paths(self):
        # add, sub, mul, div, the comparisons and their operators take two tensors straight to C:
        # the same results and the same errors as the general path, parameters included
        a, b = gnn.tensor([[1.0, 2.0, 3.0]]), gnn.tensor([[4.0], [5.0]])
        p = gnn.nn.Parameter(gnn.tensor([2.0, 2.0, 2.0]))
        ta, tb, tp = torch.tensor([[1.0, 2.0, 3.0]]), torch.tensor([[4.0], [5.0]]), torch.tensor([2.0, 2.0, 2.0])
        for name, fn in (('add', lambda x, y: x + y), ('sub', lambda x, y: x - y),
                         ('mul', lambda x, y: x * y), ('div', lambda x, y: x / y),
                         ('lt', lambda x, y: x < y), ('eq', lambda x, y: x == y)):
            for x, y, tx, ty in ((a, b, ta, tb), (a, p, ta, tp), (p, a, tp, ta)):
                want = fn(tx, ty).detach().numpy()
                for got in (fn(x, y), getattr(gnn, name)(x, y), getattr(x, name)(y)):
                    with self.subTest(op=name, shapes=(x.shape, y.shape)):
                        np.testing.assert_array_equal(got.numpy(), want)
            with self.subTest(op=name, error='shapes'):
                for call in (lambda: fn(a, gnn.ones(2)), lambda: getattr(gnn, name)(a, gnn.ones(2)),
                             lambda: getattr(a, name)(gnn.ones(2))):
                    with self.assertRaises(RuntimeError) as cm:
                        call()
                    self.assertIsInstance(cm.exception, GLib.Error)
                    self.assertIn('[1, 3]', cm.exception.message)
        np.testing.assert_array_equal(gnn.add(a, b, alpha=2).numpy(), torch.add(ta, tb, alpha=2).numpy())
        np.testing.assert_array_equal(gnn.sub(a, b, alpha=0.5).numpy(), torch.sub(ta, tb, alpha=0.5).numpy())
        with self.assertRaises(TypeError):
            gnn.add(a, b, out=gnn.empty(2, 3))

    def test_unsupported_arguments(self):
        x = gnn.ones(2, 3)
        with self.assertRaises(TypeError):
            x.view(gnn.uint8)
        with self.assertRaises(RuntimeError):   # torch's error for a rounding mode it lacks
            x.div(2, rounding_mode='nearest')
        with self.assertRaises(TypeError):
            x.sum(dim='a')
        with self.assertRaises(TypeError):
            x.add('a')
        with self.assertRaises(RuntimeError):
            x.clamp()
        with self.assertRaises(RuntimeError):
            gnn.ones(3).mT
        with self.assertRaises(GLib.Error):
            x.view(4)   # C: the shape is wrong

    def test_gnn_spellings_still_work(self):
        x = gnn.tensor([[1.0, 2.0], [3.0, 4.0]])
        self.assertEqual(x.sum([1], True).tolist(), [[3.0], [7.0]])
        self.assertEqual(x.sum([], False).item(), 10.0)
        self.assertAlmostEqual(x.var([0], 0.0, False).tolist()[0], 1.0)
        self.assertEqual(x.add(x, 2.0).tolist(), [[3.0, 6.0], [9.0, 12.0]])
        self.assertEqual(x.permute([1, 0]).tolist(), [[1.0, 3.0], [2.0, 4.0]])
        self.assertEqual(x.max_dim(1, False)[0].tolist(), [2.0, 4.0])
        self.assertIs(x.to(Gnn.Dtype.FLOAT32), x)
        self.assertEqual(x.to(Gnn.Dtype.FLOAT64).dtype, gnn.float64)

    def test_grad_fn(self):
        x = gnn.ones(2, requires_grad=True)
        tx = torch.ones(2, requires_grad=True)
        self.assertIsNone(x.grad_fn)
        y, ty = x + 1, tx + 1
        self.assertEqual(type(y.grad_fn).__name__, type(ty.grad_fn).__name__)
        self.assertEqual(y.grad_fn.name(), ty.grad_fn.name())
        self.assertTrue(repr(y.grad_fn).startswith('<AddBackward0 object at 0x'))

    def test_grad_fn_next_functions(self):
        """The graph behind a tensor, walked from grad_fn as torchviz walks it."""
        def graph(T):
            x = T.tensor([1.0, 2.0], requires_grad=True)
            w = T.tensor([3.0, 4.0])
            y = (x * w + x.exp()).sum()
            y2 = x * 1
            y2[0] = T.tensor(5.0)
            seen = []

            def walk(fn, depth):
                if fn is None:
                    seen.append((depth, None))
                    return
                seen.append((depth, type(fn).__name__, fn.name(),
                             fn.variable is x if type(fn).__name__ == 'AccumulateGrad' else None))
                for n, nr in fn.next_functions:
                    seen.append((depth, 'nr', nr))
                    walk(n, depth + 1)
            walk(y.grad_fn, 0)
            walk(y2.grad_fn, 0)
            mul = y.grad_fn.next_functions[0][0].next_functions[0][0]
            exp = y.grad_fn.next_functions[0][0].next_functions[1][0]
            same = (y.grad_fn is y.grad_fn, mul.next_functions[0][0] is exp.next_functions[0][0])
            y.grad_fn.metadata['tag'] = 1
            return seen, same, y.grad_fn.metadata
        got, want = graph(gnn), graph(torch)
        self.assertEqual(got, want)
        self.assertEqual(got[1], (True, True))


class TestGradMode(unittest.TestCase):
    """no_grad, enable_grad and set_grad_enabled as torch 1.13's: context managers,
    decorators (of generators too), and set_grad_enabled (mode) as a plain call."""

    def tearDown(self):
        gnn.set_grad_enabled(True)
        torch.set_grad_enabled(True)

    def both(self, script):
        """Runs script with torch bound to gnn and to torch; the lists of modes it records
        (rec (...)) agree."""
        results = []
        for module in (gnn, torch):
            seen = []
            exec(script, {'torch': module, 'rec': seen.append})
            module.set_grad_enabled(True)
            results.append(seen)
        self.assertEqual(results[0], results[1])
        return results[0]

    def test_context_managers(self):
        seen = self.both(
            'with torch.no_grad():\n'
            '    rec(torch.is_grad_enabled())\n'
            '    with torch.enable_grad():\n'
            '        rec(torch.is_grad_enabled())\n'
            '        x = torch.ones(2, requires_grad=True)\n'
            '        rec((x * 2).requires_grad)\n'
            '    rec(torch.is_grad_enabled())\n'
            '    rec((x * 2).requires_grad)\n'
            'rec(torch.is_grad_enabled())\n'
            'try:\n'
            '    with torch.no_grad():\n'
            '        raise KeyError\n'
            'except KeyError:\n'
            '    rec(torch.is_grad_enabled())\n')
        self.assertEqual(seen, [False, True, True, False, False, True, True])

    def test_decorators(self):
        seen = self.both(
            '@torch.no_grad()\n'
            'def f(x):\n'
            '    rec(torch.is_grad_enabled())\n'
            '    return x * 2\n'
            'rec(f(torch.ones(1, requires_grad=True)).requires_grad)\n'
            'rec(torch.is_grad_enabled())\n'
            '@torch.enable_grad()\n'
            'def g():\n'
            '    return torch.is_grad_enabled()\n'
            'with torch.no_grad():\n'
            '    rec(g())\n'
            '    rec(torch.is_grad_enabled())\n'
            '@torch.no_grad()\n'
            'def gen():\n'
            '    yield torch.is_grad_enabled()\n'
            '    yield torch.is_grad_enabled()\n'
            'for mode in gen():\n'
            '    rec(mode)\n'
            '    rec(torch.is_grad_enabled())\n'
            'rec(f.__name__)\n')
        self.assertEqual(seen, [False, False, True, True, False, False, True, False, True, 'f'])

    def test_set_grad_enabled(self):
        seen = self.both(
            'torch.set_grad_enabled(False)\n'
            'rec(torch.is_grad_enabled())\n'
            'torch.set_grad_enabled(True)\n'
            'with torch.set_grad_enabled(False):\n'
            '    rec(torch.is_grad_enabled())\n'
            '    with torch.set_grad_enabled(True):\n'
            '        rec(torch.is_grad_enabled())\n'
            '    rec(torch.is_grad_enabled())\n'
            'rec(torch.is_grad_enabled())\n'
            'is_train = False\n'
            'with torch.set_grad_enabled(is_train):\n'
            '    rec((torch.ones(1, requires_grad=True) + 1).requires_grad)\n'
            'rec(torch.autograd.no_grad is torch.no_grad)\n')
        self.assertEqual(seen, [False, False, True, False, True, False, True])

    def test_set_grad_enabled_is_the_previous_mode(self):
        # gnn_set_grad_enabled returns the previous mode: so does the object, as a bool
        prev = Gnn.set_grad_enabled(False)
        self.assertTrue(prev)
        self.assertFalse(Gnn.set_grad_enabled(False))
        Gnn.set_grad_enabled(prev)
        self.assertTrue(Gnn.is_grad_enabled())


# tensors whose repr is compared with torch's (precision 4, sci mode, int / bool formats, the
# dtype, requires_grad and grad_fn suffixes, summarisation over 1000 elements)
REPRS = [
    'torch.tensor([[1., 2.], [3., 4.]])', 'torch.tensor([1., 2.], dtype=torch.float64)',
    'torch.tensor([1, 2])', 'torch.tensor([[True, False]])', 'torch.tensor(3.5)', 'torch.tensor(7)',
    'torch.tensor([0.1, 0.25, 1 / 3])', 'torch.tensor([1e-8, 1.])', 'torch.tensor([123456789.])',
    'torch.tensor([1e-5, 1e5])', 'torch.tensor([-0.0, 2.5])', 'torch.tensor([float("nan"), 1.5])',
    'torch.tensor([float("inf"), -float("inf"), 0.])', 'torch.tensor([100., 10., 1.])',
    'torch.tensor([-123, 45])', 'torch.zeros(2, dtype=torch.uint8)', 'torch.zeros(0, dtype=torch.int64)',
    'torch.zeros(2, 0)', 'torch.zeros(0)', 'torch.ones(2, 2, dtype=torch.float16)',
    'torch.ones(3, dtype=torch.bfloat16)', 'torch.arange(24.).reshape(2, 3, 4) / 7',
    'torch.arange(2000.)', 'torch.arange(1200)', 'torch.arange(1600.).reshape(40, 40) / 1000',
    'torch.arange(3000).reshape(3, 10, 100)', 'torch.arange(12.).reshape(3, 4).t()[1:]',
    'torch.ones(2, requires_grad=True)', 'torch.ones(2, requires_grad=True) * 2',
    'torch.ones(2, 3, dtype=torch.float64, requires_grad=True).sum()',
    'torch.ones(2, requires_grad=True).mean()', 'torch.ones(2, dtype=torch.float16, requires_grad=True)',
    'torch.ones(2, 2, requires_grad=True).t()', 'torch.ones(3, requires_grad=True).softmax(0)',
    'torch.ones(2, requires_grad=True).detach()', 'torch.linspace(-1, 1, 5) * 1e-3',
    'torch.tensor([1.5]).bool()', 'torch.Size([2, 3])', 'torch.float64', 'torch.int64', 'torch.bool',
    'torch.device("cpu")', 'torch.device("cuda:1")', 'torch.tensor([[1., 5.], [2., 0.]]).max(1)',
    'torch.tensor([[1, 5], [2, 0]]).min(0, keepdim=True)',
]


class TestRepr(unittest.TestCase):
    def test_as_torch_prints(self):
        for expression in REPRS:
            with self.subTest(expression=expression):
                got = eval(expression, {'torch': gnn})
                want = eval(expression, {'torch': torch})
                self.assertEqual(repr(got), repr(want))
                self.assertEqual(str(got), str(want))


class TestErrors(unittest.TestCase):
    """gnn's errors are the exceptions torch raises, still GLib.Errors of the Gnn domain."""

    def test_c_errors_are_runtime_errors(self):
        x = gnn.zeros(2, 3)
        with self.assertRaises(RuntimeError) as cm:
            x @ gnn.zeros(2, 2)
        self.assertIsInstance(cm.exception, GLib.Error)
        self.assertTrue(cm.exception.matches(Gnn.error_quark(), Gnn.Error.SHAPE))
        with self.assertRaises(RuntimeError):
            torch.zeros(2, 3) @ torch.zeros(2, 2)

    def test_dims_out_of_range_are_index_errors(self):
        for expression in ('x.sum(5)', 'x.transpose(0, 4)', 'torch.mean(x, -3)', 'x.softmax(2)',
                           'x.unsqueeze(4)', 'x.max(3)', 'x.flatten(0, 5)'):
            for module in (gnn, torch):
                with self.subTest(expression=expression, module=module.__name__):
                    with self.assertRaises(IndexError) as cm:
                        eval(expression, {'torch': module, 'x': module.zeros(2, 3)})
                    if module is gnn:
                        self.assertIsInstance(cm.exception, GLib.Error)
                        self.assertTrue(cm.exception.matches(Gnn.error_quark(), Gnn.Error.INDEX))
                        self.assertIn('Dimension out of range', cm.exception.message)

    def test_error_class(self):
        self.assertIs(Gnn.error_class(Gnn.Error.SHAPE), GLib.Error)
        self.assertTrue(issubclass(Gnn.error_class(Gnn.Error.INDEX), IndexError))
        self.assertTrue(issubclass(Gnn.error_class(Gnn.Error.INVALID_ARGUMENT), ValueError))
        self.assertTrue(issubclass(Gnn.error_class(Gnn.Error.INVALID_ARGUMENT), GLib.Error))

    def test_tensor_names_the_bad_element(self):
        cases = [
            ([1, 'a'], TypeError, "invalid data type 'str' (the element at [1])"),
            ([[1, 2], [3]], ValueError, 'expected sequence of length 2 at dim 1 (got 1) (the element at [1])'),
            ([1, None], RuntimeError, 'Could not infer dtype of NoneType (the element at [1])'),
            ([[1, 2], [3, [4]]], TypeError, 'expected a number at dim 2, got list (the element at [1, 1])'),
            ([[1], 2], TypeError, 'expected a sequence of length 1 at dim 1, got int (the element at [1])'),
            ('abc', TypeError, "invalid data type 'str'"),
            ([[0.5, {}]], RuntimeError, 'Could not infer dtype of dict (the element at [0, 1])'),
        ]
        for data, kind, text in cases:
            with self.subTest(data=data):
                with self.assertRaises(kind) as cm:
                    gnn.tensor(data)
                self.assertIn(text, str(cm.exception))
                with self.assertRaises(kind):
                    torch.tensor(data)


if __name__ == '__main__':
    main()
