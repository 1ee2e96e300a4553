"""torch.autograd.functional (jacobian, hessian, vjp, jvp, vhp, hvp) against torch 1.13."""
import numpy as np
import torch

from gnntest import ParityTest, main, rand
import gnn


def np_of(t):
    return t.detach().numpy() if isinstance(t, torch.Tensor) else t.detach().numpy()


def flat(result):
    """The tensors of a nested tuple result, in order, with their nesting as a string."""
    if isinstance(result, (tuple, list)):
        parts = [flat(r) for r in result]
        brackets = '()' if isinstance(result, tuple) else '[]'
        return ([t for p in parts for t in p[0]],
                brackets[0] + ','.join(p[1] for p in parts) + brackets[1])
    return [result], 'T'


X = rand((2, 3), np.float64, seed=1)
Y = rand((3,), np.float64, seed=2)
V2 = rand((2,), np.float64, seed=3)
V23 = rand((2, 3), np.float64, seed=4)


def f_two_in(a, b):
    return (a.tanh() * b).sum(1)


def f_two_out(a):
    return a.exp() * 2, (a * a).sum(0)


def f_scalar(a):
    return (a.exp() * a).sum() + (a.tanh() * a.sum()).sum()


def f_scalar2(a, b):
    return (a.sigmoid() @ b.tanh()).sum() * b.sum()


class FunctionalTest(ParityTest):
    def both(self, fn):
        """fn (T, tensors...) in gnn and in torch on the same float64 data."""
        got = fn(gnn, *[gnn.tensor(a) for a in (X, Y, V2, V23)])
        want = fn(torch, *[torch.tensor(a) for a in (X, Y, V2, V23)])
        (gs, gshape), (ts, tshape) = flat(got), flat(want)
        self.assertEqual(gshape, tshape)
        for k, (g, t) in enumerate(zip(gs, ts)):
            self.assertEqual(tuple(g.shape), tuple(t.shape), 'result %d' % k)
            self.assert_close(np_of(g), np_of(t), 1e-10, 1e-12, 'result %d' % k)
        return got, want

    def test_jacobian_nesting(self):
        self.both(lambda T, x, y, v2, v23: T.autograd.functional.jacobian(lambda a: a.exp().sum(1), x))
        self.both(lambda T, x, y, v2, v23: T.autograd.functional.jacobian(f_two_in, (x, y)))
        self.both(lambda T, x, y, v2, v23: T.autograd.functional.jacobian(f_two_out, x))
        self.both(lambda T, x, y, v2, v23: T.autograd.functional.jacobian(f_two_out, (x,)))
        self.both(lambda T, x, y, v2, v23: T.autograd.functional.jacobian(
            f_two_in, (x, y), vectorize=True))
        self.both(lambda T, x, y, v2, v23: T.autograd.functional.jacobian(
            f_two_in, (x, y), vectorize=True, strategy='forward-mode'))

    def test_jacobian_create_graph_and_unused(self):
        for T in (gnn, torch):
            x = T.tensor(X).requires_grad_(True)
            J = T.autograd.functional.jacobian(lambda a: a * a, x)
            self.assertFalse(J.requires_grad)
            J = T.autograd.functional.jacobian(lambda a: a * a, x, create_graph=True)
            self.assertTrue(J.requires_grad)
        got, _ = self.both(lambda T, x, y, v2, v23: T.autograd.functional.jacobian(
            lambda a, b: a.exp(), (x, y)))
        self.assertTrue((got[1].numpy() == 0).all())

    def test_hessian(self):
        self.both(lambda T, x, y, v2, v23: T.autograd.functional.hessian(f_scalar, x))
        self.both(lambda T, x, y, v2, v23: T.autograd.functional.hessian(f_scalar2, (x, y)))
        self.both(lambda T, x, y, v2, v23: T.autograd.functional.hessian(f_scalar, (x,)))

    def test_products(self):
        F = 'functional'
        self.both(lambda T, x, y, v2, v23: getattr(T.autograd, F).vjp(f_two_in, (x, y), v2))
        self.both(lambda T, x, y, v2, v23: getattr(T.autograd, F).vjp(lambda a: a.exp().sum(), x))
        self.both(lambda T, x, y, v2, v23: getattr(T.autograd, F).jvp(f_two_in, (x, y), (v23, y)))
        self.both(lambda T, x, y, v2, v23: getattr(T.autograd, F).jvp(f_two_out, x, v23))
        self.both(lambda T, x, y, v2, v23: getattr(T.autograd, F).vhp(f_scalar, x, v23))
        self.both(lambda T, x, y, v2, v23: getattr(T.autograd, F).hvp(f_scalar, x, v23))
        self.both(lambda T, x, y, v2, v23: getattr(T.autograd, F).hvp(f_scalar2, (x, y), (v23, y)))
        self.both(lambda T, x, y, v2, v23: getattr(T.autograd, F).vhp(f_scalar2, (x, y), (v23, y)))

    def test_create_graph_products_are_differentiable(self):
        results = []
        for T in (gnn, torch):
            x = T.tensor(X).requires_grad_(True)
            _, h = T.autograd.functional.hvp(f_scalar, x, T.tensor(V23), create_graph=True)
            (g,) = T.autograd.grad(h.sum(), x)
            results.append(np_of(g))
        self.assert_close(results[0], results[1], 1e-10, 1e-12)

    def test_errors(self):
        def raises(exc, words, fn):
            for T in (gnn, torch):
                with self.assertRaisesRegex(exc, words, msg=T.__name__):
                    fn(T, T.tensor(X), T.tensor(Y))
        F = lambda T: T.autograd.functional  # noqa: E731
        raises(TypeError, 'The inputs given to jacobian must be either a Tensor or a tuple of Tensors '
               'but the value at index 1 has type', lambda T, x, y: F(T).jacobian(f_two_in, (x, 3)))
        raises(TypeError, 'The outputs of the user-provided function given to vjp must be',
               lambda T, x, y: F(T).vjp(lambda a: 3, x))
        raises(RuntimeError, 'The vector v can only be None if the user-provided function returns a '
               'single Tensor with a single element', lambda T, x, y: F(T).vjp(lambda a: a * 2, x))
        raises(RuntimeError, 'The vector v can only be None if the input to the user-provided function',
               lambda T, x, y: F(T).jvp(lambda a: a * 2, x))
        raises(RuntimeError, r'v has invalid size: should be torch.Size\(\[2, 3\]\) but got',
               lambda T, x, y: F(T).vjp(lambda a: a * 2, x, y))
        raises(RuntimeError, 'v is a tuple of invalid length: should be 2 but got 1',
               lambda T, x, y: F(T).jvp(f_two_in, (x, y), (x,)))
        raises(RuntimeError, 'Output 0 of the user-provided function is independent of input 1. '
               'This is not allowed in strict mode', lambda T, x, y: F(T).jacobian(
                   lambda a, b: a.exp(), (x, y), strict=True))
        raises(RuntimeError, 'The function given to hessian should return a single Tensor',
               lambda T, x, y: F(T).hessian(lambda a: (a.sum(), a.sum()), x))
        raises(RuntimeError, 'should contain a single element',
               lambda T, x, y: F(T).hessian(lambda a: a * 2, x))
        raises(RuntimeError, 'the jacobian of the user-provided function with respect to input 0 is '
               'independent of the input', lambda T, x, y: F(T).hessian(lambda a: a.sum() * 2, x,
                                                                          strict=True))
        raises(NotImplementedError, 'isonly implemented for `vectorize=True`',
               lambda T, x, y: F(T).jacobian(f_two_out, x, strategy='forward-mode'))
        raises(RuntimeError, '`strict=True` and `vectorized=True` are not supported together',
               lambda T, x, y: F(T).jacobian(f_two_out, x, strict=True, vectorize=True))


if __name__ == '__main__':
    main()
