"""torch.autograd.grad, Tensor.backward (create_graph, inputs), torch.nn.utils's gradient
clipping and parameter vectors, and a WGAN-GP gradient penalty, against torch 1.13."""
import math

import numpy as np
import torch

from gnntest import GLib, ParityTest, main, rand
import gnn


def both(array, requires_grad=True):
    g, t = gnn.tensor(np.array(array)), torch.from_numpy(np.array(array))
    if requires_grad:
        g.requires_grad_(True)
        t.requires_grad_(True)
    return g, t


def np_of(t):
    return t.detach().numpy() if isinstance(t, torch.Tensor) else t.numpy()


class AutogradGradTest(ParityTest):
    def test_grad_and_hessian_vector_product(self):
        gx, tx = both(rand((3, 4), np.float64, seed=1))
        gw, tw = both(rand((4, 2), np.float64, seed=2))
        v = rand((3, 4), np.float64, seed=3)
        results = []
        for T, x, w in ((gnn, gx, gw), (torch, tx, tw)):
            y = T.tanh(x @ w).sum() + (T.softmax(x, 1) * x).sum()
            gx1, gw1 = T.autograd.grad(y, [x, w], create_graph=True)
            hvp = T.autograd.grad((gx1 * T.tensor(v)).sum(), [x, w])
            results.append([np_of(gx1), np_of(gw1)] + [np_of(h) for h in hvp])
            self.assertIsNone(x.grad)
        for k, (g, t) in enumerate(zip(*results)):
            self.assert_close(g, t, 1e-10, 1e-12, 'result %d' % k)

    def test_backward_create_graph_and_inputs(self):
        gx, tx = both(rand((2, 3), np.float64, seed=4))
        gw, tw = both(rand((2, 3), np.float64, seed=5))
        grads = []
        for T, x, w in ((gnn, gx, gw), (torch, tx, tw)):
            (T.sigmoid(x * w) ** 2).sum().backward(create_graph=True)
            first = np_of(x.grad)
            x.grad.sum().backward(inputs=[w])
            grads.append((first, np_of(w.grad)))
        self.assert_close(grads[0][0], grads[1][0], 1e-10, 1e-12, 'x.grad')
        self.assert_close(grads[0][1], grads[1][1], 1e-10, 1e-12, 'w.grad')

    def test_allow_unused_and_errors(self):
        gx, _ = both([1.0, 2.0])
        gu, _ = both([3.0])
        y = (gx * gx).sum()
        gxg, none = gnn.autograd.grad(y, [gx, gu], retain_graph=True, allow_unused=True)
        self.assertIsNone(none)
        self.assert_close(np_of(gxg), np.array([2.0, 4.0]), 0, 0)
        with self.assertRaisesRegex(GLib.Error, 'allow_unused=True'):
            gnn.autograd.grad(y, [gx, gu], retain_graph=True)
        with self.assertRaisesRegex(GLib.Error, 'only for scalar outputs'):
            gnn.autograd.grad(gx * 2, [gx])
        # an op without a double backward says so
        img, _ = both(rand((1, 1, 2, 2), np.float64, seed=6))
        out = (gnn.nn.functional.max_pool2d(img * img, 2) ** 2).sum()
        with self.assertRaisesRegex(GLib.Error, 'double backward'):
            gnn.autograd.grad(out, [img], create_graph=True)

    def test_cumprod_double_backward_with_zeros_is_refused(self):
        # without zeros the second derivative is torch's; with a zero gnn refuses it under
        # create_graph (a RuntimeError naming the node, as torch raises for a missing double backward) rather than give a wrong one
        for values, refused in (([0.5, 2.0, -1.5], False), ([0.5, 0.0, -1.5], True)):
            x = gnn.tensor(np.array(values), requires_grad=True)
            t = torch.tensor(values, dtype=torch.float64, requires_grad=True)
            (tg,) = torch.autograd.grad(t.cumprod(0).sum(), t, create_graph=True)
            if refused:
                with self.assertRaises(RuntimeError) as ctx:
                    gnn.autograd.grad(x.cumprod(0).sum(), x, create_graph=True)
                self.assertIn('Cumprod', str(ctx.exception))
                continue
            (g,) = gnn.autograd.grad(x.cumprod(0).sum(), x, create_graph=True)
            (g2,) = gnn.autograd.grad(g.sum(), x)
            (t2,) = torch.autograd.grad(tg.sum(), t)
            np.testing.assert_allclose(np.array(g2.numpy()), t2.numpy(), rtol=1e-10)

    def test_clip_grad_norm(self):
        for norm_type in (2.0, 1.0, 3.5, math.inf, 0.0):
            for max_norm in (0.5, 100.0):
                norms, grads = [], []
                for T in (gnn, torch):
                    ps = [T.tensor(rand((3, 2), seed=7)), T.tensor(rand((4,), seed=8)), T.tensor(rand((2,), seed=9))]
                    for p in ps:
                        p.requires_grad_(True)
                    (ps[0].sum() * 3 + (ps[1] ** 2).sum()).backward()
                    total = T.nn.utils.clip_grad_norm_(ps, max_norm, norm_type=norm_type)
                    norms.append(np_of(total))
                    grads.append([np_of(p.grad) for p in ps[:2]])
                    self.assertIsNone(ps[2].grad)
                what = 'norm_type %g max_norm %g' % (norm_type, max_norm)
                self.assertEqual(norms[0].dtype, norms[1].dtype, what)
                self.assert_close(norms[0], norms[1], 1e-5, 1e-6, what + ' total norm')
                for g, t in zip(*grads):
                    self.assert_close(g, t, 1e-5, 1e-6, what + ' grad')
        p = gnn.tensor(np.array([1.0, 2.0], np.float32))
        p.requires_grad_(True)
        (p * float('inf')).sum().backward()
        with self.assertRaisesRegex(GLib.Error, 'non-finite'):
            gnn.nn.utils.clip_grad_norm_([p], 1.0, error_if_nonfinite=True)
        self.assertEqual(float(gnn.nn.utils.clip_grad_norm_([gnn.tensor([1.0])], 1.0)), 0.0)

    def test_clip_grad_value_and_vectors(self):
        outs = []
        for T in (gnn, torch):
            a, b = T.tensor(rand((2, 3), seed=10)), T.tensor(rand((3,), seed=11))
            a.requires_grad_(True)
            b.requires_grad_(True)
            ((a ** 3).sum() + (b * 4).sum()).backward()
            T.nn.utils.clip_grad_value_([a, b], 1.5)
            vec = T.nn.utils.parameters_to_vector([a, b])
            with T.no_grad():
                T.nn.utils.vector_to_parameters(vec * 2, [a, b])
            outs.append([np_of(a.grad), np_of(b.grad), np_of(vec), np_of(a), np_of(b)])
        for k, (g, t) in enumerate(zip(*outs)):
            self.assert_close(g, t, 1e-6, 1e-6, 'result %d' % k)
        with self.assertRaisesRegex(GLib.Error, 'expected a 1-d vector of 9 elements'):
            gnn.nn.utils.vector_to_parameters(gnn.tensor(np.zeros(4, np.float32)),
                                              [gnn.tensor(np.zeros((3, 3), np.float32))])

    def test_gradient_penalty(self):
        """WGAN-GP: the critic's gradient norm at interpolated inputs, penalised, backward
        through it to the critic's weights."""
        real, fake = rand((4, 3), seed=12), rand((4, 3), seed=13)
        alpha = rand((4, 1), seed=14, low=0.0, high=1.0)
        results = []
        for T in (gnn, torch):
            critic = T.nn.Sequential(T.nn.Linear(3, 5), T.nn.Tanh(), T.nn.Linear(5, 5), T.nn.SiLU(),
                                     T.nn.Linear(5, 1))
            with T.no_grad():
                for k, p in enumerate(critic.parameters()):
                    p.copy_(T.tensor(rand(tuple(p.shape), seed=20 + k)))
            x = T.tensor(alpha) * T.tensor(real) + (1 - T.tensor(alpha)) * T.tensor(fake)
            x.requires_grad_(True)
            score = critic(x)
            g, = T.autograd.grad(score, x, grad_outputs=T.ones_like(score), create_graph=True)
            penalty = ((g.norm(2, dim=1) if T is torch else (g * g).sum(1).sqrt()) - 1) ** 2
            loss = score.mean() + 10 * penalty.mean()
            loss.backward()
            results.append([np_of(loss)] + [np_of(p.grad) for p in critic.parameters()])
        for k, (g, t) in enumerate(zip(*results)):
            self.assert_close(g, t, 1e-4, 1e-5, 'loss' if k == 0 else 'grad of parameter %d' % (k - 1))


class NestedRunTest(ParityTest):
    def test_grad_inside_a_hook_over_the_same_nodes(self):
        """A backward run from a tensor hook while another run holds the same nodes (the
        engine's fallback table): both give their own gradients (torch's engine refuses this
        re-entrant call from Python, so the expected values are analytic: 2x and 6x)."""
        x = gnn.tensor(np.array([1.0, 2.0, 3.0]), requires_grad=True)
        y = x * x
        z = (y * 3.0).sum()
        inner = []

        def hook(g):
            if not inner:
                inner.append(None)
                with gnn.enable_grad():
                    (inner[0],) = gnn.autograd.grad(y.sum(), [x], retain_graph=True)
            return None
        y.register_hook(hook)
        z.backward(retain_graph=True)
        np.testing.assert_array_equal(inner[0].numpy(), [2.0, 4.0, 6.0])
        np.testing.assert_array_equal(x.grad.numpy(), [6.0, 12.0, 18.0])


if __name__ == '__main__':
    main()
