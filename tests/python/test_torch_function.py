"""torch.autograd.Function written as torch writes it (static forward and backward with ctx,
Class.apply), against torch 1.13: the examples of torch's "Extending PyTorch" note and the
ctx API (save_for_backward, saved_tensors, needs_input_grad, mark_non_differentiable,
setup_context, once_differentiable), their gradients, second derivatives and errors."""
import numpy as np
import torch

from gnntest import ParityTest, main
import gnn


def make_functions(T):
    """The same custom functions, written once against the namespace T (gnn or torch)."""
    class Exp(T.autograd.Function):
        @staticmethod
        def forward(ctx, i):
            result = i.exp()
            ctx.save_for_backward(result)
            return result

        @staticmethod
        def backward(ctx, grad_output):
            result, = ctx.saved_tensors
            return grad_output * result

    class LinearFunction(T.autograd.Function):
        @staticmethod
        def forward(ctx, input, weight, bias=None):
            ctx.save_for_backward(input, weight, bias)
            output = input.mm(weight.t())
            if bias is not None:
                output += bias.unsqueeze(0).expand_as(output)
            return output

        @staticmethod
        def backward(ctx, grad_output):
            input, weight, bias = ctx.saved_tensors
            grad_input = grad_weight = grad_bias = None
            if ctx.needs_input_grad[0]:
                grad_input = grad_output.mm(weight)
            if ctx.needs_input_grad[1]:
                grad_weight = grad_output.t().mm(input)
            if bias is not None and ctx.needs_input_grad[2]:
                grad_bias = grad_output.sum(0)
            return grad_input, grad_weight, grad_bias

    class MulConstant(T.autograd.Function):
        @staticmethod
        def forward(ctx, tensor, constant):
            ctx.constant = constant
            return tensor * constant

        @staticmethod
        def backward(ctx, grad_output):
            return grad_output * ctx.constant, None

    class Cube(T.autograd.Function):
        # PyTorch 2's form: forward without ctx, setup_context
        @staticmethod
        def forward(x):
            return x ** 3, x.detach() * 3

        @staticmethod
        def setup_context(ctx, inputs, output):
            x, = inputs
            ctx.save_for_backward(x)
            ctx.mark_non_differentiable(output[1])

        @staticmethod
        def backward(ctx, grad, _unused):
            x, = ctx.saved_tensors
            return grad * 3 * x ** 2

    class SortValues(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            values, indices = x.sort()
            ctx.mark_non_differentiable(indices)
            ctx.save_for_backward(indices)
            return values, indices

        @staticmethod
        def backward(ctx, g, _g_indices):
            indices, = ctx.saved_tensors
            grad = T.zeros_like(g)
            grad.scatter_(0, indices, g)
            return grad

    class OnceSquare(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x * x

        @staticmethod
        @T.autograd.function.once_differentiable
        def backward(ctx, g):
            x, = ctx.saved_tensors
            return 2 * x * g

    return dict(Exp=Exp, LinearFunction=LinearFunction, MulConstant=MulConstant, Cube=Cube,
                SortValues=SortValues, OnceSquare=OnceSquare)


class TorchFunctionTest(ParityTest):
    def setUp(self):
        self.fns = {T: make_functions(T) for T in (gnn, torch)}

    def both(self, fn):
        return [fn(T, self.fns[T]) for T in (gnn, torch)]

    def assert_close_lists(self, g, t, rtol=1e-12):
        self.assertEqual(len(g), len(t))
        for a, b in zip(g, t):
            np.testing.assert_allclose(np.asarray(a), np.asarray(b), rtol=rtol, atol=1e-12)

    def test_exp_and_grad_fn_name(self):
        def run(T, F):
            x = T.tensor([0.5, -1.0, 2.0], dtype=T.float64, requires_grad=True)
            y = F['Exp'].apply(x)
            (y * y).sum().backward()
            return y.grad_fn.name(), y.tolist(), x.grad.tolist()
        (gn, gy, gg), (tn, ty, tg) = self.both(run)
        self.assertEqual(gn, 'ExpBackward')
        self.assertEqual(gn, tn)
        self.assert_close_lists([gy, gg], [ty, tg])

    def test_linear_function(self):
        rng = np.random.default_rng(3)
        xs, ws, bs = rng.standard_normal((4, 3)), rng.standard_normal((2, 3)), rng.standard_normal(2)
        for with_bias in (True, False):
            for needs_x in (True, False):
                def run(T, F):
                    x = T.tensor(xs.tolist(), dtype=T.float64, requires_grad=needs_x)
                    w = T.tensor(ws.tolist(), dtype=T.float64, requires_grad=True)
                    b = T.tensor(bs.tolist(), dtype=T.float64, requires_grad=True) if with_bias else None
                    out = F['LinearFunction'].apply(x, w, b) if with_bias else \
                        F['LinearFunction'].apply(x, w)
                    (out ** 2).sum().backward()
                    return [out.tolist(), w.grad.tolist(), None if b is None else b.grad.tolist(),
                            None if x.grad is None else x.grad.tolist()]
                g, t = self.both(run)
                self.assertEqual([v is None for v in g], [v is None for v in t])
                self.assert_close_lists([v for v in g if v is not None],
                                        [v for v in t if v is not None])

    def test_non_tensor_argument(self):
        def run(T, F):
            x = T.tensor([1.0, 2.0], requires_grad=True)
            y = F['MulConstant'].apply(x, 2.5)
            y.sum().backward()
            return y.tolist(), x.grad.tolist(), y.requires_grad
        g, t = self.both(run)
        self.assertEqual(g, t)

    def test_setup_context_and_non_differentiable(self):
        # setup_context is PyTorch 2's (torch 1.13 lacks it): checked against the formulas
        x = gnn.tensor([1.0, -2.0, 0.5], dtype=gnn.float64, requires_grad=True)
        y, z = self.fns[gnn]['Cube'].apply(x)
        y.sum().backward()
        self.assertEqual(y.tolist(), [1.0, -8.0, 0.125])
        self.assertEqual(z.tolist(), [3.0, -6.0, 1.5])
        self.assertTrue(y.requires_grad)
        self.assertFalse(z.requires_grad)
        self.assertEqual(x.grad.tolist(), [3.0, 12.0, 0.75])

    def test_sort_indices_not_differentiable(self):
        def run(T, F):
            x = T.tensor([3.0, 1.0, 2.0], requires_grad=True)
            v, i = F['SortValues'].apply(x)
            (v * T.tensor([1.0, 10.0, 100.0])).sum().backward()
            return v.tolist(), i.tolist(), i.requires_grad, x.grad.tolist()
        g, t = self.both(run)
        self.assertEqual(g, t)

    def test_second_derivative(self):
        def run(T, F):
            x = T.tensor([0.3, -0.7], dtype=T.float64, requires_grad=True)
            y = F['Exp'].apply(x).sum()
            gx, = T.autograd.grad(y, x, create_graph=True)
            ggx, = T.autograd.grad(gx.sum(), x)
            return gx.tolist(), ggx.tolist()
        g, t = self.both(run)
        self.assert_close_lists(list(g), list(t))

    def test_once_differentiable(self):
        def run(T, F):
            x = T.tensor([1.5, 2.0], dtype=T.float64, requires_grad=True)
            y = F['OnceSquare'].apply(x).sum()
            gx, = T.autograd.grad(y, x, create_graph=True)
            return gx.tolist(), gx.requires_grad
        g, t = self.both(run)
        self.assertEqual(g, t)

    def test_float64_finite_differences(self):
        # the custom LinearFunction's gradient against central differences of its forward
        rng = np.random.default_rng(5)
        xs, ws = rng.standard_normal((3, 2)), rng.standard_normal((2, 2))
        F = self.fns[gnn]['LinearFunction']
        w = gnn.tensor(ws.tolist(), dtype=gnn.float64)
        x = gnn.tensor(xs.tolist(), dtype=gnn.float64, requires_grad=True)
        (F.apply(x, w) ** 2).sum().backward()
        eps, num = 1e-6, np.zeros_like(xs)
        for idx in np.ndindex(xs.shape):
            for sign in (1, -1):
                xp = xs.copy()
                xp[idx] += sign * eps
                val = (F.apply(gnn.tensor(xp.tolist(), dtype=gnn.float64), w) ** 2).sum().item()
                num[idx] += sign * val / (2 * eps)
        np.testing.assert_allclose(np.array(x.grad.tolist()), num, rtol=1e-6, atol=1e-8)

    def test_errors(self):
        for T in (gnn, torch):
            class TooFew(T.autograd.Function):
                @staticmethod
                def forward(ctx, a, b):
                    return a * b

                @staticmethod
                def backward(ctx, g):
                    return g

            class GradForNumber(T.autograd.Function):
                @staticmethod
                def forward(ctx, a, k):
                    return a * k

                @staticmethod
                def backward(ctx, g):
                    return g, g

            a = T.ones(2, requires_grad=True)
            with self.assertRaises(RuntimeError) as cm:
                TooFew.apply(a, T.ones(2)).sum().backward()
            self.assertIn('function TooFewBackward returned an incorrect number of gradients '
                          '(expected 2, got 1)', getattr(cm.exception, 'message', str(cm.exception)))
            with self.assertRaises(RuntimeError) as cm:
                GradForNumber.apply(a, 2.0).sum().backward()
            self.assertIn('returned a gradient different than None at position 2, but the '
                          'corresponding forward input was not a Variable',
                          getattr(cm.exception, 'message', str(cm.exception)))

    def test_gobject_style_still_works(self):
        # Gnn.Function, the GObject form (do_forward/do_backward on lists), is unchanged
        self.assertTrue(issubclass(gnn.autograd.Function, object))
        self.assertIsNot(gnn.autograd.Function, gnn.Gnn.Function)


if __name__ == '__main__':
    main()
