# torch.nn.utils.parametrize against torch 1.13: Python parametrizations (the tutorial's
# Symmetric, ones with right_inverse) on Linear: outputs, gradients to `original`, state-dict
# keys, load_state_dict between the two libraries, chains, removal, the cached scope, errors
#
# SPDX-License-Identifier: LGPL-2.1-or-later
import unittest

import numpy as np
import torch
import torch.nn.utils.parametrize as TP

import gnn
import gnn.nn.utils.parametrize as GP

RTOL, ATOL = 1e-5, 1e-6


def np_of(t):
    return t.detach().numpy()


def message(e):
    return getattr(e, 'message', str(e))


def make_classes(lib):
    class Symmetric(lib.nn.Module):
        def forward(self, X):
            return X.triu() + X.triu(1).transpose(-1, -2)

    class Scale(lib.nn.Module):
        """forward 2 X with a buffer of its own; right_inverse X / 2."""
        def __init__(self):
            super().__init__()
            self.register_buffer('factor', lib.tensor(2.0))
            self.calls = 0

        def forward(self, X):
            self.calls += 1
            return X * self.factor

        def right_inverse(self, X):
            return X / self.factor

    class Split(lib.nn.Module):
        """forward (A, B) -> A + B; right_inverse X -> (X / 2, X / 2)."""
        def forward(self, A, B):
            return A + B

        def right_inverse(self, X):
            return X * 0.5, X * 0.5

    class NoInverse(lib.nn.Module):
        def forward(self, X):
            return X * 3

        def right_inverse(self, X):
            raise NotImplementedError

    class Transposed(lib.nn.Module):
        def forward(self, X):
            return X

        def right_inverse(self, X):
            return X.t()

    return Symmetric, Scale, Split, NoInverse, Transposed


T_CLASSES = make_classes(torch)
G_CLASSES = make_classes(gnn)


def pair(n_in=3, n_out=3, seed=0, dtype=np.float32):
    torch.manual_seed(seed)
    t = torch.nn.Linear(n_in, n_out)
    if dtype == np.float64:
        t = t.double()
    m = gnn.nn.Linear(n_in, n_out)
    if dtype == np.float64:
        m = m.double()
    m.load_state_dict({k: gnn.tensor(np_of(v)) for k, v in t.state_dict().items()})
    return t, m


def state_dict_np(module):
    return {k: np_of(v) for k, v in module.state_dict().items()}


class TestRegister(unittest.TestCase):
    def check_symmetric(self, dtype):
        t, m = pair(dtype=dtype)
        TP.register_parametrization(t, 'weight', T_CLASSES[0]())
        self.assertIs(GP.register_parametrization(m, 'weight', G_CLASSES[0]()), m)
        self.assertEqual(list(m.state_dict().keys()), list(t.state_dict().keys()))
        self.assertEqual([n for n, _ in m.named_parameters()], [n for n, _ in t.named_parameters()])
        np.testing.assert_allclose(np_of(m.weight), np_of(t.weight), rtol=RTOL, atol=ATOL)
        x = np.array([[1.0, -2.0, 0.5], [0.25, 3.0, -1.0]], dtype=dtype)
        yt = t(torch.tensor(x))
        ym = m(gnn.tensor(x))
        np.testing.assert_allclose(np_of(ym), np_of(yt), rtol=RTOL, atol=ATOL)
        (yt * yt).sum().backward()
        (ym * ym).sum().backward()
        np.testing.assert_allclose(m.parametrizations.weight.original.grad.numpy(),
                                   t.parametrizations.weight.original.grad.numpy(), rtol=RTOL, atol=ATOL)
        np.testing.assert_allclose(m.bias.grad.numpy(), t.bias.grad.numpy(), rtol=RTOL, atol=ATOL)

    def test_symmetric_float32(self):
        self.check_symmetric(np.float32)

    def test_symmetric_float64(self):
        self.check_symmetric(np.float64)

    def test_structure(self):
        _, m = pair()
        w = m.weight
        sym = G_CLASSES[0]()
        GP.register_parametrization(m, 'weight', sym)
        self.assertTrue(GP.is_parametrized(m))
        self.assertTrue(GP.is_parametrized(m, 'weight'))
        self.assertFalse(GP.is_parametrized(m, 'bias'))
        plist = m.parametrizations['weight']
        self.assertIsInstance(plist, GP.ParametrizationList)
        self.assertEqual(len(plist), 1)
        self.assertIs(plist[0], sym)
        self.assertTrue(plist.is_tensor)
        self.assertEqual(plist.ntensors, 1)
        self.assertFalse(plist.unsafe)
        # the parameter object moved, as torch's set_ keeps it
        self.assertIs(plist.original, w)
        self.assertIsInstance(plist.original, gnn.nn.Parameter)
        np.testing.assert_allclose(plist().numpy(), m.weight.numpy())

    def test_load_state_dict_between_libraries(self):
        t, m = pair(seed=3)
        TP.register_parametrization(t, 'weight', T_CLASSES[1]())
        GP.register_parametrization(m, 'weight', G_CLASSES[1]())
        self.assertEqual(list(m.state_dict().keys()),
                         ['bias', 'parametrizations.weight.original', 'parametrizations.weight.0.factor'])
        self.assertEqual(list(m.state_dict().keys()), list(t.state_dict().keys()))
        # torch -> gnn
        torch.manual_seed(7)
        t2 = torch.nn.Linear(3, 3)
        TP.register_parametrization(t2, 'weight', T_CLASSES[1]())
        m.load_state_dict({k: gnn.tensor(v) for k, v in state_dict_np(t2).items()})
        x = np.array([[0.5, -1.0, 2.0]], dtype=np.float32)
        np.testing.assert_allclose(np_of(m(gnn.tensor(x))), np_of(t2(torch.tensor(x))), rtol=RTOL, atol=ATOL)
        # gnn -> torch
        t.load_state_dict({k: torch.tensor(v) for k, v in state_dict_np(m).items()})
        np.testing.assert_allclose(np_of(t(torch.tensor(x))), np_of(t2(torch.tensor(x))), rtol=RTOL, atol=ATOL)

    def test_right_inverse_and_assignment(self):
        t, m = pair(seed=1)
        w0 = np_of(t.weight).copy()
        TP.register_parametrization(t, 'weight', T_CLASSES[1]())
        GP.register_parametrization(m, 'weight', G_CLASSES[1]())
        # registration applied right_inverse: original = W / 2, weight still W
        np.testing.assert_allclose(m.parametrizations.weight.original.numpy(), w0 / 2, rtol=RTOL, atol=ATOL)
        np.testing.assert_allclose(np_of(m.weight), w0, rtol=RTOL, atol=ATOL)
        original = m.parametrizations.weight.original
        target = np.arange(9, dtype=np.float32).reshape(3, 3)
        t.weight = torch.tensor(target)
        m.weight = gnn.tensor(target)
        self.assertIs(m.parametrizations.weight.original, original)
        np.testing.assert_allclose(original.numpy(), np_of(t.parametrizations.weight.original), rtol=RTOL, atol=ATOL)
        np.testing.assert_allclose(np_of(m.weight), target, rtol=RTOL, atol=ATOL)
        # a Parameter cannot be assigned to a parametrized name, as in torch
        with self.assertRaises(KeyError):
            t.weight = torch.nn.Parameter(torch.zeros(3, 3))
        with self.assertRaises(KeyError):
            m.weight = gnn.nn.Parameter(gnn.zeros(3, 3))

    def test_chain(self):
        t, m = pair(seed=2)
        for mod, lib, (sym, scale, *_), P in ((t, torch, T_CLASSES, TP), (m, gnn, G_CLASSES, GP)):
            P.register_parametrization(mod, 'weight', scale())
            P.register_parametrization(mod, 'weight', sym())
        self.assertEqual(len(m.parametrizations.weight), 2)
        self.assertEqual(list(m.state_dict().keys()), list(t.state_dict().keys()))
        np.testing.assert_allclose(np_of(m.weight), np_of(t.weight), rtol=RTOL, atol=ATOL)
        x = np.array([[1.0, 2.0, -1.0]], dtype=np.float32)
        t(torch.tensor(x)).sum().backward()
        m(gnn.tensor(x)).sum().backward()
        np.testing.assert_allclose(m.parametrizations.weight.original.grad.numpy(),
                                   t.parametrizations.weight.original.grad.numpy(), rtol=RTOL, atol=ATOL)
        # Symmetric has no right_inverse: assigning fails in both
        with self.assertRaises(RuntimeError):
            t.weight = torch.zeros(3, 3)
        with self.assertRaisesRegex(RuntimeError, 'does not implement right_inverse'):
            m.weight = gnn.zeros(3, 3)

    def test_sequence(self):
        t, m = pair(seed=4)
        TP.register_parametrization(t, 'weight', T_CLASSES[2]())
        GP.register_parametrization(m, 'weight', G_CLASSES[2]())
        self.assertEqual(list(m.state_dict().keys()), list(t.state_dict().keys()))
        self.assertEqual([n for n, _ in m.named_parameters()], [n for n, _ in t.named_parameters()])
        self.assertFalse(m.parametrizations.weight.is_tensor)
        self.assertEqual(m.parametrizations.weight.ntensors, 2)
        np.testing.assert_allclose(np_of(m.weight), np_of(t.weight), rtol=RTOL, atol=ATOL)
        x = np.array([[1.0, 2.0, -1.0]], dtype=np.float32)
        t(torch.tensor(x)).sum().backward()
        m(gnn.tensor(x)).sum().backward()
        for i in range(2):
            name = 'original%d' % i
            np.testing.assert_allclose(getattr(m.parametrizations.weight, name).grad.numpy(),
                                       getattr(t.parametrizations.weight, name).grad.numpy(), rtol=RTOL, atol=ATOL)
        with self.assertRaisesRegex(ValueError, 'sequence of tensors'):
            TP.remove_parametrizations(t, 'weight', leave_parametrized=False)
        with self.assertRaisesRegex(ValueError, 'sequence of tensors'):
            GP.remove_parametrizations(m, 'weight', leave_parametrized=False)

    def test_not_implemented_right_inverse_is_identity(self):
        t, m = pair(seed=5)
        TP.register_parametrization(t, 'weight', T_CLASSES[3]())
        GP.register_parametrization(m, 'weight', G_CLASSES[3]())
        np.testing.assert_allclose(m.parametrizations.weight.original.numpy(),
                                   np_of(t.parametrizations.weight.original), rtol=RTOL, atol=ATOL)
        np.testing.assert_allclose(np_of(m.weight), np_of(t.weight), rtol=RTOL, atol=ATOL)
        with self.assertRaises(NotImplementedError):
            m.weight = gnn.zeros(3, 3)

    def test_remove(self):
        for leave in (True, False):
            t, m = pair(seed=6)
            TP.register_parametrization(t, 'weight', T_CLASSES[1]())
            GP.register_parametrization(m, 'weight', G_CLASSES[1]())
            original = m.parametrizations.weight.original
            TP.remove_parametrizations(t, 'weight', leave_parametrized=leave)
            self.assertIs(GP.remove_parametrizations(m, 'weight', leave_parametrized=leave), m)
            self.assertFalse(GP.is_parametrized(m))
            self.assertFalse(hasattr(m, 'parametrizations'))
            self.assertIs(m.weight, original)
            self.assertIsInstance(m.weight, gnn.nn.Parameter)
            self.assertEqual(list(m.state_dict().keys()), list(t.state_dict().keys()))
            np.testing.assert_allclose(m.weight.numpy(), np_of(t.weight), rtol=RTOL, atol=ATOL)
            with self.assertRaisesRegex(ValueError, 'does not have a parametrization on weight'):
                GP.remove_parametrizations(m, 'weight')

    def test_cached(self):
        _, m = pair()
        scale = G_CLASSES[1]()
        GP.register_parametrization(m, 'weight', scale)
        x = gnn.ones(2, 3)
        scale.calls = 0
        m.weight
        m(x)
        self.assertEqual(scale.calls, 2)
        scale.calls = 0
        with GP.cached():
            a = m.weight
            m(x)
            m(x)
            self.assertIs(m.weight, a)
        self.assertEqual(scale.calls, 1)
        self.assertIsNot(m.weight, a)

    def test_errors(self):
        t, m = pair(n_in=3, n_out=2)
        with self.assertRaisesRegex(ValueError, "does not have a parameter, a buffer, or a parametrized "
                                                "element with name 'wieght'"):
            TP.register_parametrization(t, 'wieght', T_CLASSES[1]())
        with self.assertRaises(ValueError) as cm:
            GP.register_parametrization(m, 'wieght', G_CLASSES[1]())
        self.assertIn("does not have a parameter, a buffer, or a parametrized element with name 'wieght'",
                      message(cm.exception))
        self.assertIn('Linear', message(cm.exception))
        # a right inverse with the wrong shape makes the forward change the shape
        with self.assertRaisesRegex(ValueError, 'may not change the shape'):
            TP.register_parametrization(t, 'weight', T_CLASSES[4]())
        with self.assertRaises(ValueError) as cm:
            GP.register_parametrization(m, 'weight', G_CLASSES[4]())
        self.assertIn("Linear 'weight': Registering a parametrization may not change the shape",
                      message(cm.exception))
        self.assertFalse(GP.is_parametrized(m))
        self.assertEqual(tuple(m.weight.shape), (2, 3))
        # a forward that raises: the Python exception comes back
        class Raising(gnn.nn.Module):
            def forward(self, X):
                raise KeyError('boom')
        with self.assertRaises(KeyError):
            GP.register_parametrization(m, 'weight', Raising())
        self.assertFalse(GP.is_parametrized(m))
        # unsafe skips the check
        GP.register_parametrization(m, 'weight', G_CLASSES[4](), unsafe=True)
        self.assertTrue(m.parametrizations.weight.unsafe)
        self.assertEqual(tuple(m.weight.shape), (3, 2))


class TestSpectralNorm(unittest.TestCase):
    """torch's _u, _v and original are copied into gnn by load_state_dict (the random starts of
    the power iteration differ between the libraries); then both iterate the same way."""

    def check(self, make_t, make_g, x, dtype, **kwargs):
        torch.manual_seed(0)
        t = make_t()
        m = make_g()
        if dtype == np.float64:
            t, m = t.double(), m.double()
        torch.nn.utils.parametrizations.spectral_norm(t, **kwargs)
        self.assertIs(gnn.nn.utils.parametrizations.spectral_norm(m, **kwargs), m)
        self.assertEqual(list(m.state_dict().keys()), list(t.state_dict().keys()))
        self.assertIn('parametrizations.weight.0._u', m.state_dict())
        self.assertIn('parametrizations.weight.0._v', m.state_dict())
        m.load_state_dict({k: gnn.tensor(v) for k, v in state_dict_np(t).items()})
        rtol, atol = (RTOL, ATOL) if dtype == np.float32 else (1e-10, 1e-12)
        for step in range(2):   # training: one power iteration step per forward
            yt = t(torch.tensor(x))
            ym = m(gnn.tensor(x))
            np.testing.assert_allclose(np_of(ym), np_of(yt), rtol=rtol, atol=atol)
            for k, v in state_dict_np(t).items():
                np.testing.assert_allclose(m.state_dict()[k].numpy(), v, rtol=rtol, atol=atol, err_msg=k)
        (yt * yt).sum().backward()
        (ym * ym).sum().backward()
        np.testing.assert_allclose(m.parametrizations.weight.original.grad.numpy(),
                                   t.parametrizations.weight.original.grad.numpy(), rtol=rtol, atol=atol)
        # eval: no iteration, _u and _v stay
        t.eval()
        m.eval()
        u = m.parametrizations.weight[0]._u.numpy().copy()
        np.testing.assert_allclose(np_of(m(gnn.tensor(x))), np_of(t(torch.tensor(x))), rtol=rtol, atol=atol)
        np.testing.assert_array_equal(m.parametrizations.weight[0]._u.numpy(), u)
        np.testing.assert_allclose(np_of(m.weight), np_of(t.weight), rtol=rtol, atol=atol)

    def test_linear(self):
        x = np.array([[1.0, -2.0, 0.5, 3.0], [0.25, 3.0, -1.0, 0.0]])
        for dtype in (np.float32, np.float64):
            self.check(lambda: torch.nn.Linear(4, 3), lambda: gnn.nn.Linear(4, 3), x.astype(dtype), dtype)
            self.check(lambda: torch.nn.Linear(4, 3), lambda: gnn.nn.Linear(4, 3), x.astype(dtype), dtype,
                       n_power_iterations=3)

    def test_conv(self):
        x = np.random.default_rng(0).standard_normal((1, 2, 5, 5))
        for dtype in (np.float32, np.float64):
            self.check(lambda: torch.nn.Conv2d(2, 3, 3), lambda: gnn.nn.Conv2d(2, 3, 3), x.astype(dtype), dtype)
            self.check(lambda: torch.nn.Conv2d(2, 3, 3), lambda: gnn.nn.Conv2d(2, 3, 3), x.astype(dtype), dtype,
                       dim=1)

    def test_errors(self):
        _, m = pair()
        with self.assertRaisesRegex(ValueError, 'n_power_iterations'):
            gnn.nn.utils.parametrizations.spectral_norm(m, n_power_iterations=0)
        with self.assertRaises(IndexError):
            gnn.nn.utils.parametrizations.spectral_norm(m, dim=2)
        with self.assertRaisesRegex(ValueError, "has no parameter or buffer with name 'wieght'"):
            gnn.nn.utils.parametrizations.spectral_norm(m, name='wieght')
        self.assertFalse(GP.is_parametrized(m))

class TestOrthogonal(unittest.TestCase):
    """torch 1.13's orthogonal on tall, wide and square Linear weights, every map, with and
    without the trivialization: the weight at registration (the tall case completes the base
    with random columns, which the weight does not see), then torch's state dict with a random
    original loaded into gnn: the same weight, output and gradient to original; assignment
    through the right inverse; the errors."""

    SHAPES = ((4, 4), (5, 3), (3, 5))
    MAPS = (None, 'matrix_exp', 'cayley', 'householder')

    def make(self, shape, dtype, **kwargs):
        torch.manual_seed(0)
        t = torch.nn.Linear(shape[1], shape[0])
        m = gnn.nn.Linear(shape[1], shape[0])
        if dtype == np.float64:
            t, m = t.double(), m.double()
        m.load_state_dict({k: gnn.tensor(v) for k, v in state_dict_np(t).items()})
        torch.nn.utils.parametrizations.orthogonal(t, **kwargs)
        self.assertIs(gnn.nn.utils.parametrizations.orthogonal(m, **kwargs), m)
        return t, m

    def check(self, shape, dtype, **kwargs):
        rtol, atol = (RTOL, ATOL) if dtype == np.float32 else (1e-10, 1e-12)
        what = '%s %s %s' % (shape, np.dtype(dtype).name, kwargs)
        t, m = self.make(shape, dtype, **kwargs)
        self.assertEqual(list(m.state_dict().keys()), list(t.state_dict().keys()), what)
        self.assertEqual([n for n, _ in m.named_parameters()], [n for n, _ in t.named_parameters()])
        np.testing.assert_allclose(np_of(m.weight), np_of(t.weight), rtol=rtol, atol=atol, err_msg=what)
        np.testing.assert_allclose(m.parametrizations.weight.original.numpy(),
                                   np_of(t.parametrizations.weight.original), rtol=rtol, atol=atol, err_msg=what)
        sd = {k: v.clone() for k, v in t.state_dict().items()}
        g = torch.Generator().manual_seed(1)
        orig = sd['parametrizations.weight.original']
        sd['parametrizations.weight.original'] = 0.3 * torch.randn(orig.shape, generator=g, dtype=orig.dtype)
        t.load_state_dict(sd)
        m.load_state_dict({k: gnn.tensor(np_of(v)) for k, v in sd.items()})
        np.testing.assert_allclose(np_of(m.weight), np_of(t.weight), rtol=rtol, atol=atol, err_msg=what)
        x = np.random.default_rng(0).standard_normal((2, shape[1])).astype(dtype)
        yt = t(torch.tensor(x))
        ym = m(gnn.tensor(x))
        np.testing.assert_allclose(np_of(ym), np_of(yt), rtol=rtol, atol=atol, err_msg=what)
        (yt * yt).sum().backward()
        (ym * ym).sum().backward()
        np.testing.assert_allclose(m.parametrizations.weight.original.grad.numpy(),
                                   t.parametrizations.weight.original.grad.numpy(),
                                   rtol=rtol, atol=10 * atol, err_msg=what)
        # assignment: an orthonormal matrix through right_inverse
        q = torch.linalg.qr(torch.randn(max(shape), min(shape), generator=g, dtype=orig.dtype))[0]
        if shape[0] < shape[1]:
            q = q.T
        q = q.contiguous()
        try:
            with torch.no_grad():
                t.weight = q
        except NotImplementedError:
            with self.assertRaisesRegex(NotImplementedError, 'use_trivialization=False'):
                m.weight = gnn.tensor(np_of(q))
            return
        m.weight = gnn.tensor(np_of(q))
        np.testing.assert_allclose(np_of(m.weight), np_of(t.weight), rtol=rtol, atol=atol, err_msg=what)
        np.testing.assert_allclose(m.parametrizations.weight.original.numpy(),
                                   np_of(t.parametrizations.weight.original), rtol=rtol, atol=atol, err_msg=what)

    def test_parity(self):
        for dtype in (np.float32, np.float64):
            for shape in self.SHAPES:
                for orthogonal_map in self.MAPS:
                    for use_trivialization in (True, False):
                        self.check(shape, dtype, orthogonal_map=orthogonal_map,
                                   use_trivialization=use_trivialization)

    def test_base_is_orthogonal(self):
        for shape in self.SHAPES:
            _, m = self.make(shape, np.float64)
            base = m.state_dict()['parametrizations.weight.0.base'].numpy()
            n = max(shape)
            np.testing.assert_allclose(base.T @ base, np.eye(n), atol=1e-12)

    def test_errors(self):
        _, m = pair()
        with self.assertRaisesRegex(ValueError, "has no parameter or buffer with name 'wieght'"):
            gnn.nn.utils.parametrizations.orthogonal(m, name='wieght')
        with self.assertRaisesRegex(ValueError, 'Got a tensor of 1 dimensions'):
            gnn.nn.utils.parametrizations.orthogonal(m, name='bias')
        with self.assertRaisesRegex(ValueError, 'orthogonal_map has to be one of .*Got: qr'):
            gnn.nn.utils.parametrizations.orthogonal(m, orthogonal_map='qr')
        self.assertFalse(GP.is_parametrized(m))
        gnn.nn.utils.parametrizations.orthogonal(m)
        with self.assertRaisesRegex(ValueError, r'Expected a matrix or batch of matrices of shape'):
            m.parametrizations.weight.right_inverse(gnn.tensor(np.eye(2, dtype=np.float32)))


class TestWeightNorm(unittest.TestCase):
    """torch 1.13's hook-based weight_norm on Linear and Conv2d for dim 0, 1, None, -1 (the
    whole tensor, as None) and -2 (counted from the end):
    the keys weight_g and weight_v, their values, the outputs and gradients to g and v after
    loading scaled values from torch, remove_weight_norm, and the errors."""

    def check(self, make, x, dtype, dim):
        rtol, atol = (RTOL, ATOL) if dtype == np.float32 else (1e-10, 1e-12)
        torch.manual_seed(0)
        t, m = make(torch), make(gnn)
        if dtype == np.float64:
            t, m = t.double(), m.double()
        m.load_state_dict({k: gnn.tensor(v) for k, v in state_dict_np(t).items()})
        torch.nn.utils.weight_norm(t, dim=dim)
        self.assertIs(gnn.nn.utils.weight_norm(m, dim=dim), m)
        self.assertEqual(list(m.state_dict().keys()), list(t.state_dict().keys()))
        self.assertEqual([n for n, _ in m.named_parameters()], [n for n, _ in t.named_parameters()])
        for k, v in state_dict_np(t).items():
            np.testing.assert_allclose(m.state_dict()[k].numpy(), v, rtol=rtol, atol=atol, err_msg=k)
        sd = {k: v * 1.3 for k, v in t.state_dict().items()}
        t.load_state_dict(sd)
        m.load_state_dict({k: gnn.tensor(np_of(v)) for k, v in sd.items()})
        yt = t(torch.tensor(x))
        ym = m(gnn.tensor(x))
        np.testing.assert_allclose(np_of(ym), np_of(yt), rtol=rtol, atol=atol)
        np.testing.assert_allclose(np_of(m.weight), np_of(t.weight), rtol=rtol, atol=atol)
        (yt * yt).sum().backward()
        (ym * ym).sum().backward()
        for name in ('weight_g', 'weight_v'):
            np.testing.assert_allclose(getattr(m, name).grad.numpy(), getattr(t, name).grad.numpy(),
                                       rtol=rtol, atol=10 * atol, err_msg=name)
        torch.nn.utils.remove_weight_norm(t)
        self.assertIs(gnn.nn.utils.remove_weight_norm(m), m)
        self.assertEqual(list(m.state_dict().keys()), list(t.state_dict().keys()))
        np.testing.assert_allclose(np_of(m.weight), np_of(t.weight), rtol=rtol, atol=atol)

    def test_parity(self):
        xl = np.random.default_rng(0).standard_normal((2, 4))
        xc = np.random.default_rng(1).standard_normal((1, 2, 5, 5))
        for dtype in (np.float32, np.float64):
            for dim in (0, 1, None, -1, -2):
                self.check(lambda L: L.nn.Linear(4, 3), xl.astype(dtype), dtype, dim)
                self.check(lambda L: L.nn.Conv2d(2, 3, 3), xc.astype(dtype), dtype, dim)

    def test_errors(self):
        _, m = pair()
        with self.assertRaisesRegex(ValueError, "weight_norm of 'weight' not found"):
            gnn.nn.utils.remove_weight_norm(m)
        with self.assertRaisesRegex(AttributeError, 'wieght'):
            gnn.nn.utils.weight_norm(m, 'wieght')
        with self.assertRaises(IndexError):
            gnn.nn.utils.weight_norm(m, dim=2)
        with self.assertRaises(IndexError) as tcm:
            torch.nn.utils.weight_norm(torch.nn.Linear(3, 3), dim=-3)
        with self.assertRaises(IndexError) as gcm:
            gnn.nn.utils.weight_norm(m, dim=-3)
        self.assertIn(str(tcm.exception), message(gcm.exception))
        self.assertEqual(list(m.state_dict().keys()), ['weight', 'bias'])
        gnn.nn.utils.weight_norm(m)
        with self.assertRaisesRegex(RuntimeError, 'Cannot register two weight_norm hooks'):
            gnn.nn.utils.weight_norm(m)


class TestParametrizedWeightNorm(unittest.TestCase):
    """PyTorch 2.1's parametrizations.weight_norm against torch 1.13's hook-based weight_norm
    (weight_g is original0, weight_v original1) on Linear and Conv2d for dim 0, 1, None and
    -2: the keys, g and v, loading a hook-based state dict (the compat pre-hook) and one with
    the new keys, outputs and gradients to g and v, assignment through the right inverse,
    remove_parametrizations, and the errors."""

    KEYS = ['bias', 'parametrizations.weight.original0', 'parametrizations.weight.original1']

    def check(self, make, x, dtype, dim):
        rtol, atol = (RTOL, ATOL) if dtype == np.float32 else (1e-10, 1e-12)
        torch.manual_seed(0)
        t, m = make(torch), make(gnn)
        if dtype == np.float64:
            t, m = t.double(), m.double()
        m.load_state_dict({k: gnn.tensor(v) for k, v in state_dict_np(t).items()})
        torch.nn.utils.weight_norm(t, dim=dim)
        self.assertIs(gnn.nn.utils.parametrizations.weight_norm(m, dim=dim), m)
        self.assertEqual(list(m.state_dict().keys()), self.KEYS)
        self.assertEqual([n for n, _ in m.named_parameters()], self.KEYS)
        self.assertTrue(GP.is_parametrized(m, 'weight'))
        plist = m.parametrizations.weight
        self.assertEqual(plist[0].props.dim, -1 if dim is None else dim)
        self.assertFalse(plist.is_tensor)
        self.assertEqual(plist.ntensors, 2)
        self.assertTrue(plist.unsafe)
        for ours, theirs in (('original0', 'weight_g'), ('original1', 'weight_v')):
            self.assertIsInstance(getattr(plist, ours), gnn.nn.Parameter)
            self.assertEqual(tuple(getattr(plist, ours).shape), tuple(getattr(t, theirs).shape))
            np.testing.assert_allclose(getattr(plist, ours).numpy(), np_of(getattr(t, theirs)),
                                       rtol=rtol, atol=atol, err_msg=ours)
        np.testing.assert_allclose(np_of(m.weight), np_of(t.weight), rtol=rtol, atol=atol)
        # torch's hook-based state dict (weight_g, weight_v) loads as original0 / original1
        sd = {k: v * 1.3 for k, v in t.state_dict().items()}
        t.load_state_dict(sd)
        m.load_state_dict({k: gnn.tensor(np_of(v)) for k, v in sd.items()})
        np.testing.assert_allclose(plist.original0.numpy(), np_of(t.weight_g), rtol=rtol, atol=atol)
        yt = t(torch.tensor(x))
        ym = m(gnn.tensor(x))
        np.testing.assert_allclose(np_of(ym), np_of(yt), rtol=rtol, atol=atol)
        np.testing.assert_allclose(np_of(m.weight), np_of(t.weight), rtol=rtol, atol=atol)
        (yt * yt).sum().backward()
        (ym * ym).sum().backward()
        for ours, theirs in (('original0', 'weight_g'), ('original1', 'weight_v')):
            np.testing.assert_allclose(getattr(plist, ours).grad.numpy(),
                                       getattr(t, theirs).grad.numpy(),
                                       rtol=rtol, atol=10 * atol, err_msg=ours)
        np.testing.assert_allclose(m.bias.grad.numpy(), t.bias.grad.numpy(), rtol=rtol, atol=10 * atol)
        # and a state dict with the new keys, as torch 2.1 saves it
        renamed = {'bias': sd['bias'], self.KEYS[1]: sd['weight_g'] * 0.5, self.KEYS[2]: sd['weight_v']}
        m.load_state_dict({k: gnn.tensor(np_of(v)) for k, v in renamed.items()})
        np.testing.assert_allclose(plist.original0.numpy(), np_of(sd['weight_g']) * 0.5,
                                   rtol=rtol, atol=atol)
        # assignment: g = the new weight's norm, v = the new weight
        target = np.arange(np.prod(m.weight.shape), dtype=dtype).reshape(tuple(m.weight.shape)) - 2.5
        m.weight = gnn.tensor(target)
        np.testing.assert_allclose(plist.original1.numpy(), target, rtol=rtol, atol=atol)
        np.testing.assert_allclose(m.weight.numpy(), target, rtol=rtol, atol=10 * atol)
        tt = torch.tensor(target)
        expect_g = torch.norm_except_dim(tt, 2, -1 if dim is None else dim)
        np.testing.assert_allclose(plist.original0.numpy(), expect_g.numpy(), rtol=rtol, atol=atol)
        # removal leaves the parametrized value as a plain parameter, last, as torch's
        with torch.no_grad():
            t.weight_g.copy_(expect_g)
            t.weight_v.copy_(tt)
        t(torch.tensor(x))
        torch.nn.utils.remove_weight_norm(t)
        self.assertIs(GP.remove_parametrizations(m, 'weight'), m)
        self.assertEqual(list(m.state_dict().keys()), list(t.state_dict().keys()))
        self.assertFalse(GP.is_parametrized(m))
        np.testing.assert_allclose(np_of(m.weight), np_of(t.weight), rtol=rtol, atol=10 * atol)

    def test_parity(self):
        xl = np.random.default_rng(0).standard_normal((2, 4))
        xc = np.random.default_rng(1).standard_normal((1, 2, 5, 5))
        for dtype in (np.float32, np.float64):
            for dim in (0, 1, None, -2):
                with self.subTest(dtype=dtype, dim=dim):
                    self.check(lambda L: L.nn.Linear(4, 3), xl.astype(dtype), dtype, dim)
                    self.check(lambda L: L.nn.Conv2d(2, 3, 3), xc.astype(dtype), dtype, dim)

    def test_errors(self):
        t, m = pair()
        with self.assertRaisesRegex(ValueError, "does not have a parameter, a buffer, or a "
                                    "parametrized element with name 'wieght'"):
            gnn.nn.utils.parametrizations.weight_norm(m, 'wieght')
        # torch's own message for the dimension (its norm_except_dim's)
        with self.assertRaises(IndexError) as tcm:
            torch.nn.utils.weight_norm(t, dim=2)
        with self.assertRaises(IndexError) as gcm:
            gnn.nn.utils.parametrizations.weight_norm(m, dim=2)
        self.assertIn(str(tcm.exception), message(gcm.exception))
        with self.assertRaisesRegex(IndexError, r'\[-2, 1\], but got -3'):
            gnn.nn.utils.parametrizations.weight_norm(m, dim=-3)
        self.assertEqual(list(m.state_dict().keys()), ['weight', 'bias'])
        self.assertFalse(GP.is_parametrized(m))

    def test_chain_and_hook_state_dict_partial(self):
        # only both of weight_g and weight_v are renamed, as torch's compat hook does
        _, m = pair()
        gnn.nn.utils.parametrizations.weight_norm(m)
        sd = {k: v for k, v in m.state_dict().items()}
        sd['weight_g'] = sd.pop(self.KEYS[1])
        with self.assertRaisesRegex(RuntimeError, 'weight_g'):
            m.load_state_dict(sd)


class TestTransfer(unittest.TestCase):
    """transfer_parametrizations_and_params and type_before_parametrizations against torch
    1.13: to a module that has the tensor and to one that lacks it, chains, sequences
    (original0, original1), one tensor by name, a C parametrization (spectral_norm), an
    unparametrized source, the shared objects, keys, values, outputs and gradients."""

    def chained(self, lib, classes, seed):
        """Linear(3, 3) of seed's weights, weight = Symmetric(Scale(original)), bias = Split."""
        t, m = pair(seed=seed)
        module = t if lib is torch else m
        P = TP if lib is torch else GP
        Symmetric, Scale, Split = classes[0], classes[1], classes[2]
        P.register_parametrization(module, 'weight', Scale())
        P.register_parametrization(module, 'weight', Symmetric())
        P.register_parametrization(module, 'bias', Split())
        return module

    def compare(self, t, m, x):
        self.assertEqual(list(m.state_dict().keys()), list(t.state_dict().keys()))
        for k, v in state_dict_np(t).items():
            np.testing.assert_allclose(m.state_dict()[k].numpy(), v, rtol=RTOL, atol=ATOL, err_msg=k)
        yt = t(torch.tensor(x))
        ym = m(gnn.tensor(x))
        np.testing.assert_allclose(np_of(ym), np_of(yt), rtol=RTOL, atol=ATOL)
        return yt, ym

    def test_to_module_with_the_tensors(self):
        x = np.array([[1.0, -2.0, 0.5], [0.25, 3.0, -1.0]], dtype=np.float32)
        tf, mf = self.chained(torch, T_CLASSES, 0), self.chained(gnn, G_CLASSES, 0)
        tt, mt = pair(seed=5)
        self.assertIs(TP.transfer_parametrizations_and_params(tf, tt), tt)
        self.assertIs(GP.transfer_parametrizations_and_params(mf, mt), mt)
        self.compare(tt, mt, x)
        self.assertEqual(list(mt.state_dict().keys()),
                         ['parametrizations.weight.original', 'parametrizations.weight.0.factor',
                          'parametrizations.bias.original0', 'parametrizations.bias.original1'])
        # the same objects: parametrizations and originals are shared with the source
        for name in ('weight', 'bias'):
            for k in range(len(mf.parametrizations[name])):
                self.assertIs(mt.parametrizations[name][k], mf.parametrizations[name][k])
        self.assertIs(mt.parametrizations.weight.original, mf.parametrizations.weight.original)
        self.assertIs(mt.parametrizations.bias.original0, mf.parametrizations.bias.original0)
        self.assertIs(mt.parametrizations.bias.original1, mf.parametrizations.bias.original1)
        self.assertFalse(mt.parametrizations.bias.is_tensor)
        np.testing.assert_allclose(mt.weight.numpy(), mf.weight.numpy())
        # a step on the target trains the source's parameters: the gradients land on them
        yt, ym = self.compare(tt, mt, x)
        (yt * yt).sum().backward()
        (ym * ym).sum().backward()
        np.testing.assert_allclose(mf.parametrizations.weight.original.grad.numpy(),
                                   tf.parametrizations.weight.original.grad.numpy(), rtol=RTOL, atol=ATOL)
        np.testing.assert_allclose(mf.parametrizations.bias.original1.grad.numpy(),
                                   tf.parametrizations.bias.original1.grad.numpy(), rtol=RTOL, atol=ATOL)

    def test_to_module_without_the_tensor(self):
        tf, mf = self.chained(torch, T_CLASSES, 1), self.chained(gnn, G_CLASSES, 1)
        tt, mt = torch.nn.Module(), gnn.nn.Module()
        TP.transfer_parametrizations_and_params(tf, tt)
        GP.transfer_parametrizations_and_params(mf, mt)
        self.assertEqual(list(mt.state_dict().keys()), list(tt.state_dict().keys()))
        for k, v in state_dict_np(tt).items():
            np.testing.assert_allclose(mt.state_dict()[k].numpy(), v, rtol=RTOL, atol=ATOL, err_msg=k)
        np.testing.assert_allclose(mt.weight.numpy(), np_of(tt.weight), rtol=RTOL, atol=ATOL)
        np.testing.assert_allclose(mt.bias.numpy(), np_of(tt.bias), rtol=RTOL, atol=ATOL)
        self.assertTrue(GP.is_parametrized(mt, 'weight'))
        self.assertIs(GP.type_before_parametrizations(mt), gnn.nn.Module)

    def test_one_tensor_by_name(self):
        x = np.array([[0.5, 1.0, -1.5]], dtype=np.float32)
        tf, mf = self.chained(torch, T_CLASSES, 2), self.chained(gnn, G_CLASSES, 2)
        tt, mt = pair(seed=6)
        TP.transfer_parametrizations_and_params(tf, tt, 'bias')
        GP.transfer_parametrizations_and_params(mf, mt, 'bias')
        self.compare(tt, mt, x)
        self.assertTrue(GP.is_parametrized(mt, 'bias'))
        self.assertFalse(GP.is_parametrized(mt, 'weight'))
        # a name neither module has: torch's AttributeError; one the source has but does not
        # parametrize: its KeyError; nothing changed
        keys = list(mt.state_dict().keys())
        with self.assertRaisesRegex(AttributeError, "no attribute 'nothing'"):
            TP.transfer_parametrizations_and_params(tf, torch.nn.Linear(3, 3), 'nothing')
        with self.assertRaisesRegex(AttributeError, "no attribute 'nothing'"):
            GP.transfer_parametrizations_and_params(mf, mt, 'nothing')
        TP.remove_parametrizations(tf, 'bias')
        GP.remove_parametrizations(mf, 'bias')
        with self.assertRaises(KeyError):
            TP.transfer_parametrizations_and_params(tf, torch.nn.Linear(3, 3), 'bias')
        with self.assertRaises(KeyError):
            GP.transfer_parametrizations_and_params(mf, mt, 'bias')
        self.assertEqual(list(mt.state_dict().keys()), keys)

    def test_unparametrized_source_and_c_parametrization(self):
        t, m = pair(seed=3)
        tt, mt = pair(seed=4)
        self.assertIs(GP.transfer_parametrizations_and_params(m, mt), mt)
        self.assertEqual(list(mt.state_dict().keys()), ['weight', 'bias'])
        self.assertFalse(GP.is_parametrized(mt))
        # spectral_norm's module (its _u and _v) is shared; in eval mode no power iteration
        torch.nn.utils.parametrizations.spectral_norm(t)
        gnn.nn.utils.parametrizations.spectral_norm(m)
        m.load_state_dict({k: gnn.tensor(v) for k, v in state_dict_np(t).items()})
        t.eval(), m.eval(), tt.eval(), mt.eval()
        TP.transfer_parametrizations_and_params(t, tt)
        GP.transfer_parametrizations_and_params(m, mt)
        self.assertIs(mt.parametrizations.weight[0], m.parametrizations.weight[0])
        self.compare(tt, mt, np.ones((1, 3), dtype=np.float32))
        np.testing.assert_allclose(mt.weight.numpy(), m.weight.numpy())

    def test_type_before_parametrizations(self):
        t, m = pair()
        self.assertIs(GP.type_before_parametrizations(m), gnn.nn.Linear)
        TP.register_parametrization(t, 'weight', T_CLASSES[0]())
        GP.register_parametrization(m, 'weight', G_CLASSES[0]())
        self.assertIs(TP.type_before_parametrizations(t), torch.nn.Linear)
        self.assertIs(GP.type_before_parametrizations(m), gnn.nn.Linear)
        self.assertEqual(GP.type_before_parametrizations(m).__name__,
                         TP.type_before_parametrizations(t).__name__)
        self.assertEqual(gnn.Gnn.type_before_parametrizations(m).name, 'GnnLinear')


class TestSpectralNormHook(unittest.TestCase):
    """torch 1.13's hook-based spectral_norm on Linear and ConvTranspose2d (dim 1): the keys
    weight_orig, weight_u, weight_v; after loading torch's random u and v, two training
    forwards (one power iteration each, v then u) give the same outputs and buffers, then the
    gradient to weight_orig, eval without iteration, remove_spectral_norm; the errors."""

    def check(self, make, x, dtype, **kwargs):
        rtol, atol = (RTOL, ATOL) if dtype == np.float32 else (1e-10, 1e-12)
        torch.manual_seed(0)
        t, m = make(torch), make(gnn)
        if dtype == np.float64:
            t, m = t.double(), m.double()
        m.load_state_dict({k: gnn.tensor(v) for k, v in state_dict_np(t).items()})
        torch.nn.utils.spectral_norm(t, **kwargs)
        self.assertIs(gnn.nn.utils.spectral_norm(m, **kwargs), m)
        self.assertEqual(list(m.state_dict().keys()), list(t.state_dict().keys()))
        self.assertEqual([n for n, _ in m.named_parameters()], [n for n, _ in t.named_parameters()])
        m.load_state_dict({k: gnn.tensor(v) for k, v in state_dict_np(t).items()})
        for step in range(2):
            yt = t(torch.tensor(x))
            ym = m(gnn.tensor(x))
            np.testing.assert_allclose(np_of(ym), np_of(yt), rtol=rtol, atol=atol)
            for k, v in state_dict_np(t).items():
                np.testing.assert_allclose(m.state_dict()[k].numpy(), v, rtol=rtol, atol=atol, err_msg=k)
        (yt * yt).sum().backward()
        (ym * ym).sum().backward()
        np.testing.assert_allclose(m.weight_orig.grad.numpy(), t.weight_orig.grad.numpy(),
                                   rtol=rtol, atol=10 * atol)
        t.eval()
        m.eval()
        u = m.weight_u.numpy().copy()
        np.testing.assert_allclose(np_of(m(gnn.tensor(x))), np_of(t(torch.tensor(x))), rtol=rtol, atol=atol)
        np.testing.assert_array_equal(m.weight_u.numpy(), u)
        torch.nn.utils.remove_spectral_norm(t)
        self.assertIs(gnn.nn.utils.remove_spectral_norm(m), m)
        self.assertEqual(list(m.state_dict().keys()), list(t.state_dict().keys()))
        np.testing.assert_allclose(np_of(m.weight), np_of(t.weight), rtol=rtol, atol=atol)

    def test_parity(self):
        xl = np.random.default_rng(0).standard_normal((2, 4))
        xc = np.random.default_rng(1).standard_normal((1, 2, 4, 4))
        for dtype in (np.float32, np.float64):
            for kwargs in ({}, {'n_power_iterations': 3}):
                self.check(lambda L: L.nn.Linear(4, 3), xl.astype(dtype), dtype, **kwargs)
                self.check(lambda L: L.nn.ConvTranspose2d(2, 3, 3), xc.astype(dtype), dtype, **kwargs)

    def test_errors(self):
        _, m = pair()
        with self.assertRaisesRegex(ValueError, "spectral_norm of 'weight' not found"):
            gnn.nn.utils.remove_spectral_norm(m)
        with self.assertRaisesRegex(AttributeError, 'wieght'):
            gnn.nn.utils.spectral_norm(m, 'wieght')
        with self.assertRaises(IndexError):
            gnn.nn.utils.spectral_norm(m, dim=2)
        self.assertEqual(list(m.state_dict().keys()), ['weight', 'bias'])
        gnn.nn.utils.spectral_norm(m)
        with self.assertRaisesRegex(RuntimeError, 'Cannot register two spectral_norm hooks'):
            gnn.nn.utils.spectral_norm(m)


class TestNamespaces(unittest.TestCase):
    def test_names(self):
        self.assertIs(gnn.nn.utils.parametrize.register_parametrization, GP.register_parametrization)
        for name in ('register_parametrization', 'is_parametrized', 'remove_parametrizations', 'cached',
                     'type_before_parametrizations', 'ParametrizationList',
                     'transfer_parametrizations_and_params'):
            self.assertTrue(hasattr(GP, name), name)
        self.assertIs(gnn.nn.utils.parametrizations.spectral_norm,
                      gnn.nn.utils.parametrizations.__dict__['spectral_norm'])
        self.assertIs(gnn.nn.utils.parametrizations.orthogonal,
                      gnn.nn.utils.parametrizations.__dict__['orthogonal'])
        self.assertEqual(gnn.nn.utils.parametrizations.weight_norm.__module__,
                         'gnn.nn.utils.parametrizations')


if __name__ == '__main__':
    unittest.main()
