"""torch.linalg's decompositions (qr, eigh, svd, lu) and the functions built on them, against
PyTorch 1.13.

Decompositions are compared the way torch's own tests compare them: the factors rebuild A,
are orthonormal or triangular as they should be, and quantities that do not depend on the
sign of a singular or eigen vector (the values, |vectors|, products) agree; gradients are
compared on losses that are invariant under those signs. Every differentiable function gets
a float64 gradcheck (central differences of gnn's own forward)."""
import unittest

import numpy as np
import torch

import gnntest  # noqa: F401 (requires Gnn 1.0, loads torch)
from gnntest import GLib, main
import gnn

F32 = (1e-4, 1e-5)   # float32 decompositions: LAPACK's iterations, not elementwise rounding
F64 = (1e-9, 1e-10)


def tol(dt):
    return F64 if dt == np.float64 else F32


def rng_array(shape, dt=np.float64, seed=0):
    return np.random.default_rng(seed).standard_normal(shape).astype(dt)


def both(a, grad=False):
    """the same array as a gnn and a torch tensor"""
    g = gnn.tensor(np.array(a))
    t = torch.tensor(np.array(a))
    if grad:
        g.requires_grad_(True)
        t.requires_grad_(True)
    return g, t


def npy(t):
    if isinstance(t, np.ndarray):
        return t
    if isinstance(t, torch.Tensor):
        return t.detach().numpy()
    return np.array(t.detach().numpy())


def gradcheck(fn, arrays, eps=1e-6, rtol=1e-4, atol=1e-6):
    """fn (*gnn tensors) -> a 0-d gnn tensor; compares backward with central differences"""
    ins = [gnn.tensor(np.array(a, dtype=np.float64)).requires_grad_(True) for a in arrays]
    fn(*ins).backward()
    for k, a in enumerate(arrays):
        a = np.array(a, dtype=np.float64)
        numeric = np.zeros(a.size)
        for i in range(a.size):
            plus, minus = a.copy(), a.copy()
            plus.reshape(-1)[i] += eps
            minus.reshape(-1)[i] -= eps
            args_p = [gnn.tensor(plus) if j == k else gnn.tensor(np.array(arrays[j], dtype=np.float64))
                      for j in range(len(arrays))]
            args_m = [gnn.tensor(minus) if j == k else gnn.tensor(np.array(arrays[j], dtype=np.float64))
                      for j in range(len(arrays))]
            with gnn.no_grad():
                numeric[i] = (float(fn(*args_p)) - float(fn(*args_m))) / (2 * eps)
        np.testing.assert_allclose(npy(ins[k].grad).reshape(-1), numeric, rtol=rtol, atol=atol,
                                   err_msg='gradcheck of input %d' % k)


class Base(unittest.TestCase):
    def close(self, a, b, dt=np.float64, what=''):
        r, a_ = tol(dt)
        np.testing.assert_allclose(npy(a), npy(b), rtol=r, atol=a_, err_msg=what)

    def grads(self, loss, arrays, dt=np.float64, what=''):
        """loss (lib, *tensors) -> 0-d: value and input gradients of gnn and torch agree"""
        gs, ts = zip(*[both(a.astype(dt), grad=True) for a in arrays])
        lg = loss(gnn, *gs)
        lt = loss(torch, *ts)
        self.close(lg, lt, dt, what + ' value')
        lg.backward()
        lt.backward()
        for k, (g, t) in enumerate(zip(gs, ts)):
            self.close(g.grad, t.grad, dt, '%s grad %d' % (what, k))


def sym(a):
    return a + np.swapaxes(a, -1, -2)


class QR(Base):
    SHAPES = [(4, 3), (3, 5), (4, 4), (2, 4, 3), (2, 1, 3, 5), (0, 3), (3, 0)]

    def test_values(self):
        for dt in (np.float32, np.float64):
            for s, shape in enumerate(self.SHAPES):
                a = rng_array(shape, dt, s)
                g, t = both(a)
                k = min(shape[-2:])
                for mode in ('reduced', 'complete', 'r'):
                    with self.subTest(dtype=dt.__name__, shape=shape, mode=mode):
                        Q, R = gnn.linalg.qr(g, mode=mode)
                        tQ, tR = torch.linalg.qr(t, mode=mode)
                        self.assertEqual(tuple(Q.shape), tuple(tQ.shape))
                        self.assertEqual(tuple(R.shape), tuple(tR.shape))
                        self.assertEqual(Q.dtype, g.dtype)
                        np.testing.assert_array_equal(np.triu(npy(R)), npy(R))
                        # |R|'s rows are unique; LAPACK's signs are torch's too
                        self.close(np.abs(npy(R)), np.abs(npy(tR)), dt, 'R')
                        if mode != 'r':
                            self.close(npy(Q) @ npy(R), a, dt, 'QR = A')
                            self.close(np.swapaxes(npy(Q), -1, -2) @ npy(Q), np.broadcast_to(
                                np.eye(Q.shape[-1]), Q.shape[:-2] + (Q.shape[-1],) * 2), dt, 'QᵀQ = I')
                        if k and mode != 'complete':
                            self.close(npy(R), npy(tR), dt, 'R as torch')

    def test_torch_qr_and_method(self):
        a = rng_array((5, 3))
        g, t = both(a)
        for some in (True, False):
            Q, R = gnn.qr(g, some=some)
            tQ, tR = torch.qr(t, some=some)
            self.close(Q, tQ)
            self.close(R, tR)
        Q, R = g.qr()
        self.close(Q @ R, a)
        self.assertEqual(type(gnn.linalg.qr(g)).__name__, 'linalg_qr')
        self.assertEqual(gnn.linalg.qr(g).Q.shape, (5, 3))

    @staticmethod
    def loss(lib, a, mode='reduced'):
        Q, R = lib.linalg.qr(a, mode=mode)
        d = R.diagonal(0, -2, -1).sign().detach()
        k = d.shape[-1]
        # the positive-diagonal factors, which are unique
        Qp = Q.narrow(-1, 0, k) * d.unsqueeze(-2)
        Rp = R.narrow(-2, 0, k) * d.unsqueeze(-1)
        w1 = lib.arange(Qp.numel(), dtype=a.dtype).reshape(tuple(Qp.shape)).sin()
        w2 = lib.arange(Rp.numel(), dtype=a.dtype).reshape(tuple(Rp.shape)).cos()
        return (Qp * w1).sum() + (Rp * w2).sum()

    def test_gradients(self):
        for dt in (np.float32, np.float64):
            for shape in [(4, 3), (3, 3), (3, 5), (2, 4, 2), (2, 2, 4)]:
                with self.subTest(dtype=dt.__name__, shape=shape):
                    self.grads(self.loss, [rng_array(shape, dt, 3)], dt, 'qr')
        self.grads(lambda lib, a: self.loss(lib, a, 'complete'), [rng_array((3, 5), seed=4)], what='qr complete')
        for shape in [(4, 3), (3, 3), (3, 5), (2, 2, 4)]:
            gradcheck(lambda x: self.loss(gnn, x), [rng_array(shape, seed=5)])

    def test_gradient_errors(self):
        g = gnn.tensor(rng_array((4, 3))).requires_grad_(True)
        Q, R = gnn.linalg.qr(g, mode='r')
        with self.assertRaisesRegex(RuntimeError, "not computed when mode='r'"):
            R.sum().backward()
        Q, R = gnn.linalg.qr(g, mode='complete')
        with self.assertRaisesRegex(RuntimeError, "not differentiable when mode='complete' and nrows > ncols"):
            (Q.sum() + R.sum()).backward()

    def test_errors(self):
        with self.assertRaisesRegex(RuntimeError, 'linalg.qr: The input tensor A must have at least 2 dimensions.'):
            gnn.linalg.qr(gnn.ones(3))
        with self.assertRaisesRegex(RuntimeError, "qr received unrecognized mode 'x' but expected one of"):
            gnn.linalg.qr(gnn.ones(3, 3), mode='x')
        with self.assertRaisesRegex(RuntimeError, 'Expected a floating point'):
            gnn.linalg.qr(gnn.ones(3, 3, dtype=gnn.int64))


class Eigh(Base):
    def test_values(self):
        for dt in (np.float32, np.float64):
            for s, shape in enumerate([(1, 1), (4, 4), (2, 3, 3), (0, 0), (2, 0, 0)]):
                a = rng_array(shape, dt, s)
                for uplo in ('L', 'U'):
                    with self.subTest(dtype=dt.__name__, shape=shape, UPLO=uplo):
                        g, t = both(a)   # not symmetric: only one triangle is read
                        L, V = gnn.linalg.eigh(g, UPLO=uplo)
                        tL, tV = torch.linalg.eigh(t, UPLO=uplo)
                        self.close(L, tL, dt, 'eigenvalues')
                        self.close(gnn.linalg.eigvalsh(g, UPLO=uplo), tL, dt, 'eigvalsh')
                        self.close(np.abs(npy(V)), np.abs(npy(tV)), dt, '|V|')
                        half = np.tril(a) if uplo == 'L' else np.triu(a)
                        full = half + np.swapaxes(half, -1, -2) - half * np.eye(a.shape[-1])
                        self.close(npy(V) @ (npy(L)[..., :, None] * np.swapaxes(npy(V), -1, -2)), full, dt,
                                   'V diag(L) Vᵀ = A')
        r = gnn.linalg.eigh(gnn.eye(2))
        self.assertEqual(type(r).__name__, 'linalg_eigh')
        self.assertEqual(tuple(r.eigenvectors.shape), (2, 2))

    @staticmethod
    def loss(lib, x, upper=False):
        a = x + x.mT
        L, V = lib.linalg.eigh(a, UPLO='U' if upper else 'L')
        w = lib.arange(V.numel(), dtype=a.dtype).reshape(tuple(V.shape)).sin()
        return (L * L.cos()).sum() + (V * V * w).sum()

    def test_gradients(self):
        for dt in (np.float32, np.float64):
            for shape in [(3, 3), (2, 4, 4)]:
                with self.subTest(dtype=dt.__name__, shape=shape):
                    self.grads(self.loss, [rng_array(shape, dt, 6)], dt, 'eigh')
                    self.grads(lambda lib, x: lib.linalg.eigvalsh(x + x.mT).exp().sum(), [rng_array(shape, dt, 7)],
                               dt, 'eigvalsh')
        gradcheck(lambda x: self.loss(gnn, x), [rng_array((3, 3), seed=8)])
        gradcheck(lambda x: self.loss(gnn, x, True), [rng_array((2, 3, 3), seed=9)])
        gradcheck(lambda x: gnn.linalg.eigvalsh(x + x.mT).exp().sum(), [rng_array((3, 3), seed=10)])

    def test_double_backward(self):
        a = rng_array((3, 3), seed=11)
        g, t = both(a, grad=True)
        outs = []
        for lib, x in ((gnn, g), (torch, t)):
            y = lib.linalg.eigvalsh(x + x.mT)
            (gx,) = lib.autograd.grad((y * y).sum(), [x], create_graph=True)
            (gx * gx).sum().backward()
            outs.append(x.grad)
        self.close(outs[0], outs[1])

    def test_repeated_eigenvalues(self):
        # torch divides by the zero gap: the gradient of the vectors is not finite
        g = gnn.eye(3, dtype=gnn.float64).requires_grad_(True)
        L, V = gnn.linalg.eigh(g)
        (V * gnn.arange(9, dtype=gnn.float64).reshape((3, 3))).sum().backward()
        self.assertFalse(np.isfinite(npy(g.grad)).all())

    def test_errors(self):
        with self.assertRaisesRegex(RuntimeError,
                                    'linalg.eigh: A must be batches of square matrices, but they are 3 by 4 matrices'):
            gnn.linalg.eigh(gnn.ones(3, 4))
        with self.assertRaisesRegex(RuntimeError, "Expected UPLO argument to be 'L' or 'U', but got X"):
            gnn.linalg.eigh(gnn.eye(3), UPLO='X')
        with self.assertRaises(gnn.linalg.LinAlgError) as cm:
            gnn.linalg.eigh(gnn.full((3, 3), float('nan')))
        self.assertIn('linalg.eigh: The algorithm failed to converge', str(cm.exception))


class SVD(Base):
    SHAPES = [(4, 3), (3, 5), (4, 4), (2, 4, 3), (2, 1, 3, 5), (0, 3), (3, 0)]

    def test_values(self):
        for dt in (np.float32, np.float64):
            for s, shape in enumerate(self.SHAPES):
                a = rng_array(shape, dt, s)
                g, t = both(a)
                for full in (False, True):
                    with self.subTest(dtype=dt.__name__, shape=shape, full=full):
                        U, S, Vh = gnn.linalg.svd(g, full_matrices=full)
                        tU, tS, tVh = torch.linalg.svd(t, full_matrices=full)
                        for x, y in ((U, tU), (S, tS), (Vh, tVh)):
                            self.assertEqual(tuple(x.shape), tuple(y.shape))
                        self.close(S, tS, dt, 'S')
                        self.close(gnn.linalg.svdvals(g), tS, dt, 'svdvals')
                        k = S.shape[-1]
                        u, vh = npy(U)[..., :k], npy(Vh)[..., :k, :]
                        self.close(u @ (npy(S)[..., :, None] * vh), a, dt, 'U S Vh = A')
                        m, n = shape[-2:]
                        self.close(np.swapaxes(npy(U), -1, -2) @ npy(U),
                                   np.broadcast_to(np.eye(U.shape[-1]), U.shape[:-2] + (U.shape[-1],) * 2), dt)
                        self.close(npy(Vh) @ np.swapaxes(npy(Vh), -1, -2),
                                   np.broadcast_to(np.eye(Vh.shape[-2]), Vh.shape[:-2] + (Vh.shape[-2],) * 2), dt)
                        # each u_i v_iᵀ does not depend on the signs
                        tu, tvh = npy(tU)[..., :k], npy(tVh)[..., :k, :]
                        self.close(u[..., :, None, :] * vh.swapaxes(-1, -2)[..., None, :, :],
                                   tu[..., :, None, :] * tvh.swapaxes(-1, -2)[..., None, :, :], dt, 'u vᵀ')

    def test_torch_svd(self):
        a = rng_array((5, 3), seed=1)
        g, t = both(a)
        for some in (True, False):
            U, S, V = gnn.svd(g, some=some)
            tU, tS, tV = torch.svd(t, some=some)
            self.assertEqual(tuple(V.shape), tuple(tV.shape))
            self.close(S, tS)
            self.close(npy(U)[:, :3] @ np.diag(npy(S)) @ npy(V)[:, :3].T, a, what='U S Vᵀ (V, not Vh)')
        U, S, V = gnn.svd(g, compute_uv=False)
        tU, tS, tV = torch.svd(t, compute_uv=False)
        self.close(U, tU)
        self.close(V, tV)
        self.close(S, tS)
        U, S, V = g.svd()
        self.close(S, tS)
        self.assertEqual(type(gnn.linalg.svd(g)).__name__, 'linalg_svd')

    @staticmethod
    def loss(lib, a, full=False):
        U, S, Vh = lib.linalg.svd(a, full_matrices=full)
        k = S.shape[-1]
        u, vh = U.narrow(-1, 0, k), Vh.narrow(-2, 0, k)
        w1 = lib.arange(u.numel(), dtype=a.dtype).reshape(tuple(u.shape)).sin()
        w2 = lib.arange(vh.numel(), dtype=a.dtype).reshape(tuple(vh.shape)).cos()
        # squares of the vectors do not depend on their signs
        return (S * S.sin()).sum() + (u * u * w1).sum() + (vh * vh * w2).sum()

    def test_gradients(self):
        for dt in (np.float32, np.float64):
            for shape in [(4, 3), (3, 3), (3, 5), (2, 4, 2)]:
                for full in (False, True):
                    with self.subTest(dtype=dt.__name__, shape=shape, full=full):
                        self.grads(lambda lib, a: self.loss(lib, a, full), [rng_array(shape, dt, 12)], dt, 'svd')
                self.grads(lambda lib, a: (lib.linalg.svdvals(a) ** 3).sum(), [rng_array(shape, dt, 13)], dt,
                           'svdvals')
        for shape in [(4, 3), (3, 3), (3, 5)]:
            gradcheck(lambda x: self.loss(gnn, x), [rng_array(shape, seed=14)])
            gradcheck(lambda a: (gnn.linalg.svdvals(a) ** 3).sum(), [rng_array(shape, seed=15)])
        gradcheck(lambda a: self.loss(gnn, a, True), [rng_array((2, 4, 3), seed=16)])

    def test_double_backward(self):
        a = rng_array((4, 3), seed=17)
        g, t = both(a, grad=True)
        outs = []
        for lib, x in ((gnn, g), (torch, t)):
            s = lib.linalg.svdvals(x)
            (gx,) = lib.autograd.grad((s ** 3).sum(), [x], create_graph=True)
            (gx * gx).sum().backward()
            outs.append(x.grad)
        self.close(outs[0], outs[1])

    def test_errors(self):
        with self.assertRaisesRegex(RuntimeError, 'linalg.svd: The input tensor A must have at least 2 dimensions.'):
            gnn.linalg.svd(gnn.ones(3))
        with self.assertRaises(gnn.linalg.LinAlgError) as cm:
            gnn.linalg.svd(gnn.full((3, 3), float('nan')))
        self.assertEqual(cm.exception.message, 'linalg.svd: The algorithm failed to converge because the input '
                         'matrix contained non-finite values.')
        self.assertTrue(isinstance(cm.exception, GLib.Error))
        with self.assertRaises(gnn.linalg.LinAlgError):
            gnn.linalg.inv(gnn.zeros(3, 3))
        with self.assertRaises(gnn.linalg.LinAlgError):
            gnn.linalg.cholesky(-gnn.eye(3))
        self.assertTrue(issubclass(gnn.linalg.LinAlgError, RuntimeError))


class LU(Base):
    def test_lu_factor(self):
        for dt in (np.float32, np.float64):
            for s, shape in enumerate([(4, 4), (3, 5), (5, 3), (2, 3, 3), (0, 0)]):
                a = rng_array(shape, dt, s)
                g, t = both(a)
                with self.subTest(dtype=dt.__name__, shape=shape):
                    LU, piv = gnn.linalg.lu_factor(g)
                    tLU, tpiv = torch.linalg.lu_factor(t)
                    self.close(LU, tLU, dt)
                    self.assertEqual(piv.dtype, gnn.int32)
                    np.testing.assert_array_equal(npy(piv), npy(tpiv))
                    P, L, U = gnn.linalg.lu(g)
                    tP, tL, tU = torch.linalg.lu(t)
                    for x, y in ((P, tP), (L, tL), (U, tU)):
                        self.close(x, y, dt)
                    P, L, U = gnn.lu_unpack(LU, piv)
                    self.close(P, tP, dt)
                    LU2, piv2 = gnn.lu(g)
                    self.close(LU2, tLU, dt)
                    LU2, piv2, info = g.lu(get_infos=True)
                    self.assertEqual(info.dtype, gnn.int32)
        singular = np.array([[1.0, 2.0], [2.0, 4.0]])
        LU, piv, info = gnn.linalg.lu_factor_ex(gnn.tensor(singular))
        tLU, tpiv, tinfo = torch.linalg.lu_factor_ex(torch.tensor(singular))
        self.close(LU, tLU)
        self.assertEqual(int(info), int(tinfo))
        with self.assertRaisesRegex(RuntimeError, r'torch.linalg.lu_factor: U\[2,2\] is zero'):
            gnn.linalg.lu_factor(gnn.tensor(singular))
        with self.assertRaisesRegex(RuntimeError, r'\(Batch element 1\): U\[2,2\] is zero'):
            gnn.linalg.lu_factor(gnn.tensor(np.stack([np.eye(2), singular])))

    def test_solves(self):
        for dt in (np.float32, np.float64):
            a = rng_array((2, 3, 3), dt, 1) + 3 * np.eye(3, dtype=dt)
            b = rng_array((2, 3, 2), dt, 2)
            (ga, ta), (gb, tb) = both(a), both(b)
            LU, piv = gnn.linalg.lu_factor(ga)
            tLU, tpiv = torch.linalg.lu_factor(ta)
            for left in (True, False):
                for adjoint in (False, True):
                    bb, tbb = (gb, tb) if left else (gb.mT, tb.mT)
                    with self.subTest(dtype=dt.__name__, left=left, adjoint=adjoint):
                        self.close(gnn.linalg.lu_solve(LU, piv, bb, left=left, adjoint=adjoint),
                                   torch.linalg.lu_solve(tLU, tpiv, tbb, left=left, adjoint=adjoint), dt)
            self.close(gnn.lu_solve(gb, LU, piv), torch.lu_solve(tb, tLU, tpiv), dt)
            self.close(gb.lu_solve(LU, piv), torch.lu_solve(tb, tLU, tpiv), dt)

    def test_gradients(self):
        a = rng_array((3, 3), seed=3) + 2 * np.eye(3)
        b = rng_array((3, 2), seed=4)
        w = np.sin(np.arange(9.0)).reshape(3, 3)

        def lu_loss(lib, x):
            return (lib.linalg.lu_factor(x)[0] * lib.tensor(w)).sum()

        def solve_loss(lib, x, y):
            LU, piv = lib.linalg.lu_factor(x)
            return (lib.linalg.lu_solve(LU, piv, y) ** 2).sum()

        def plu_loss(lib, x):
            P, L, U = lib.linalg.lu(x)
            return (L * lib.tensor(w)).sum() + (U ** 2).sum()
        for dt in (np.float32, np.float64):
            self.grads(lu_loss, [a.astype(dt)], dt, 'lu_factor')
            self.grads(solve_loss, [a.astype(dt), b.astype(dt)], dt, 'lu_solve')
            self.grads(plu_loss, [a.astype(dt)], dt, 'lu')
        gradcheck(lambda x: lu_loss(gnn, x), [a])
        gradcheck(lambda x, y: solve_loss(gnn, x, y), [a, b])

    def test_solve_triangular(self):
        a = rng_array((2, 3, 3), seed=5) + 3 * np.eye(3)
        b = rng_array((2, 3, 4), seed=6)
        for upper in (True, False):
            for left in (True, False):
                for unit in (False, True):
                    bb = b if left else np.swapaxes(b, -1, -2)

                    def loss(lib, x, y, upper=upper, left=left, unit=unit):
                        return (lib.linalg.solve_triangular(x, y, upper=upper, left=left, unitriangular=unit)
                                ** 2).sum()
                    with self.subTest(upper=upper, left=left, unit=unit):
                        self.grads(loss, [a, bb], what='solve_triangular')
                        self.grads(loss, [a.astype(np.float32), bb.astype(np.float32)], np.float32,
                                   'solve_triangular')
        gradcheck(lambda x, y: (gnn.linalg.solve_triangular(x, y, upper=True) ** 2).sum(), [a[0], b[0]])
        gradcheck(lambda x, y: (gnn.linalg.solve_triangular(x, y, upper=False, left=False, unitriangular=True)
                                ** 2).sum(), [a[0], b[0].T])
        # a zero on the diagonal is no error: inf and NaN, as torch gives them
        z, one = np.zeros((3, 3)), np.ones((3, 2))
        np.testing.assert_array_equal(npy(gnn.linalg.solve_triangular(gnn.tensor(z), gnn.tensor(one), upper=True)),
                                      npy(torch.linalg.solve_triangular(torch.tensor(z), torch.tensor(one), upper=True)))
        with self.assertRaisesRegex(RuntimeError, 'linalg.solve_triangular: The input tensor B must have at least 2'):
            gnn.linalg.solve_triangular(gnn.eye(2), gnn.ones(2), upper=True)
        (ga, ta), (gb, tb) = both(a), both(b)
        for transpose in (False, True):
            X, C = gnn.triangular_solve(gb, ga, transpose=transpose)
            tX, tC = torch.triangular_solve(tb, ta, transpose=transpose)
            self.close(X, tX)
            self.close(C, tC)
        self.close(gb.triangular_solve(ga, upper=False)[0], tb.triangular_solve(ta, upper=False)[0])

    def test_cholesky_solve_inverse(self):
        x = rng_array((2, 3, 3), seed=7)
        a = x @ np.swapaxes(x, -1, -2) + np.eye(3)
        b = rng_array((2, 3, 2), seed=8)
        for upper in (False, True):
            L = np.linalg.cholesky(a)
            f = np.swapaxes(L, -1, -2) if upper else L
            (gf, tf), (gb, tb) = both(f), both(b)
            self.close(gnn.cholesky_solve(gb, gf, upper), torch.cholesky_solve(tb, tf, upper))
            self.close(gb.cholesky_solve(gf, upper), torch.cholesky_solve(tb, tf, upper))
            self.close(gnn.cholesky_inverse(gf, upper), torch.cholesky_inverse(tf, upper))
            self.close(gf.cholesky_inverse(upper), torch.cholesky_inverse(tf, upper))

    def test_ex(self):
        a = np.stack([np.eye(3) * 2, np.zeros((3, 3)), np.eye(3)])
        g, t = both(a)
        inv, info = gnn.linalg.inv_ex(g)
        tinv, tinfo = torch.linalg.inv_ex(t)
        np.testing.assert_array_equal(npy(info), npy(tinfo))
        self.close(npy(inv)[[0, 2]], npy(tinv)[[0, 2]])
        with self.assertRaises(gnn.linalg.LinAlgError):
            gnn.linalg.inv_ex(g, check_errors=True)
        spd = np.stack([np.eye(3), -np.eye(3), np.diag([1.0, 1.0, -1.0])])
        g, t = both(spd)
        L, info = gnn.linalg.cholesky_ex(g)
        tL, tinfo = torch.linalg.cholesky_ex(t)
        np.testing.assert_array_equal(npy(info), npy(tinfo))
        self.close(npy(L)[0], npy(tL)[0])
        b = rng_array((3, 3), seed=9)
        g, t = both(a)
        X, info = gnn.linalg.solve_ex(g, gnn.tensor(b))
        tX, tinfo = torch.linalg.solve_ex(t, torch.tensor(b))
        np.testing.assert_array_equal(npy(info), npy(tinfo))
        self.close(npy(X)[[0, 2]], npy(tX)[[0, 2]])
        X, info = gnn.linalg.solve_ex(gnn.tensor(np.eye(3) * 2), gnn.tensor(b))
        self.assertEqual(int(info), 0)
        self.close(X, b / 2)


class Composed(Base):
    def test_pinv(self):
        full = rng_array((2, 4, 3), seed=1)
        low = rng_array((4, 2), seed=2) @ rng_array((2, 3), seed=3)   # rank 2
        h = sym(rng_array((3, 3), seed=4))
        for a in (full, low):
            for kw in ({}, {'rtol': 1e-3}, {'atol': 0.5}, {'atol': 0.1, 'rtol': 0.2}):
                g, t = both(a)
                with self.subTest(shape=a.shape, kw=kw):
                    self.close(gnn.linalg.pinv(g, **kw), torch.linalg.pinv(t, **kw))
        g, t = both(h)
        self.close(gnn.linalg.pinv(g, hermitian=True), torch.linalg.pinv(t, hermitian=True))
        self.close(gnn.linalg.pinv(g, 0.3, True), torch.linalg.pinv(t, 0.3, True))
        self.close(gnn.pinverse(g), torch.pinverse(t))
        self.close(g.pinverse(rcond=0.5), t.pinverse(rcond=0.5))
        for dt in (np.float32, np.float64):
            self.grads(lambda lib, x: (lib.linalg.pinv(x) ** 2).sum(), [full.astype(dt)], dt, 'pinv')
            self.grads(lambda lib, x: (lib.linalg.pinv(x + x.mT, hermitian=True) ** 2).sum(), [h.astype(dt)], dt,
                       'pinv hermitian')
        gradcheck(lambda x: (gnn.linalg.pinv(x) ** 2).sum(), [full[0]])
        gradcheck(lambda x: (gnn.linalg.pinv(x + x.mT, hermitian=True) ** 2).sum(), [h])

    def test_matrix_rank_cond(self):
        low = rng_array((2, 5, 2), seed=5) @ rng_array((2, 2, 4), seed=6)
        h = sym(rng_array((4, 4), seed=7))
        for a in (low, h, rng_array((3, 3), seed=8)):
            g, t = both(a)
            for kw in ({}, {'rtol': 0.5}, {'atol': 1.0}, {'hermitian': a.shape[-1] == a.shape[-2]}):
                with self.subTest(shape=a.shape, kw=kw):
                    r = gnn.linalg.matrix_rank(g, **kw)
                    self.assertEqual(r.dtype, gnn.int64)
                    np.testing.assert_array_equal(npy(r), npy(torch.linalg.matrix_rank(t, **kw)))
        a = rng_array((2, 3, 3), seed=9)
        g, t = both(a)
        for p in (None, 2, -2, 'fro', 'nuc', float('inf'), float('-inf'), 1, -1):
            with self.subTest(p=p):
                self.close(gnn.linalg.cond(g, p), torch.linalg.cond(t, p))
        singular = np.stack([np.eye(3), np.zeros((3, 3))])
        self.close(gnn.linalg.cond(gnn.tensor(singular), 'fro'), torch.linalg.cond(torch.tensor(singular), 'fro'))
        g, t = both(rng_array((4, 3), seed=10))
        self.close(gnn.linalg.cond(g), torch.linalg.cond(t))

    def test_singular_value_norms(self):
        a = rng_array((2, 3, 4), seed=50)
        for dt in (np.float32, np.float64):
            for ord in (2, -2, 'nuc'):
                for dim, keepdim in (((-2, -1), False), ((0, 2), True), ((2, 1), False)):
                    def loss(lib, x, ord=ord, dim=dim, keepdim=keepdim):
                        return (lib.linalg.matrix_norm(x, ord, dim, keepdim) ** 2).sum()
                    with self.subTest(dtype=dt.__name__, ord=ord, dim=dim):
                        g, t = both(a.astype(dt))
                        self.close(gnn.linalg.matrix_norm(g, ord, dim, keepdim),
                                   torch.linalg.matrix_norm(t, ord, dim, keepdim), dt)
                        self.grads(loss, [a.astype(dt)], dt, 'matrix_norm')
        g, t = both(a)
        self.close(gnn.linalg.norm(g, 'nuc', (1, 2)), torch.linalg.norm(t, 'nuc', (1, 2)))
        self.close(gnn.norm(g[0], 'nuc'), torch.norm(t[0], 'nuc'))
        gradcheck(lambda x: gnn.linalg.matrix_norm(x, 'nuc') + gnn.linalg.matrix_norm(x, 2), [a[0]])


    def test_lstsq(self):
        for shape, bshape in (((5, 3), (5, 2)), ((3, 5), (3, 2)), ((2, 5, 3), (2, 5, 4)), ((4, 4), (4, 1))):
            a, b = rng_array(shape, seed=11), rng_array(bshape, seed=12)
            for driver in (None, 'gelsy', 'gelsd', 'gelss'):
                (ga, ta), (gb, tb) = both(a), both(b)
                with self.subTest(shape=shape, driver=driver):
                    r = gnn.linalg.lstsq(ga, gb, driver=driver)
                    tr = torch.linalg.lstsq(ta, tb, driver=driver)
                    self.assertEqual(type(r).__name__, 'linalg_lstsq')
                    for field in ('solution', 'residuals', 'rank', 'singular_values'):
                        x, y = getattr(r, field), getattr(tr, field)
                        self.assertEqual(tuple(x.shape), tuple(y.shape), field)
                        self.close(x, y, what=field)
        a, b = rng_array((5, 3), seed=13), rng_array((5, 2), seed=14)
        self.grads(lambda lib, x, y: (lib.linalg.lstsq(x, y).solution ** 2).sum(), [a, b], what='lstsq')
        gradcheck(lambda x, y: (gnn.linalg.lstsq(x, y).solution ** 2).sum(), [a, b])

    def test_matrix_power(self):
        a = rng_array((2, 3, 3), seed=15) + 2 * np.eye(3)
        g, t = both(a)
        for n in (-3, -1, 0, 1, 2, 5):
            with self.subTest(n=n):
                self.close(gnn.linalg.matrix_power(g, n), torch.linalg.matrix_power(t, n))
                self.close(gnn.matrix_power(g, n), torch.matrix_power(t, n))
                self.close(g.matrix_power(n), t.matrix_power(n))
                if n:
                    self.grads(lambda lib, x, n=n: (lib.linalg.matrix_power(x, n) ** 2).sum(), [a], what='power')
        gradcheck(lambda x: (gnn.linalg.matrix_power(x, 3) ** 2).sum(), [a[0]])
        gradcheck(lambda x: gnn.linalg.matrix_power(x, -2).sum(), [a[0]])
        with self.assertRaisesRegex(RuntimeError, 'A must be batches of square matrices, but they are 2 by 3'):
            gnn.linalg.matrix_power(gnn.ones(2, 3), 2)

    def test_multi_dot(self):
        shapes = [(4,), (4, 6), (6, 2), (2, 5), (5,)]
        arrays = [rng_array(s, seed=20 + i) for i, s in enumerate(shapes)]
        for cut in ((0, 3), (1, 4), (0, 5), (1, 3)):
            part = arrays[cut[0]:cut[1]]
            with self.subTest(shapes=[a.shape for a in part]):
                self.close(gnn.linalg.multi_dot([gnn.tensor(a) for a in part]),
                           torch.linalg.multi_dot([torch.tensor(a) for a in part]))
                self.grads(lambda lib, *xs: (lib.linalg.multi_dot(list(xs)) ** 2).sum(), part, what='multi_dot')
        gradcheck(lambda *xs: (gnn.linalg.multi_dot(list(xs)) ** 2).sum(), arrays[1:4])
        with self.assertRaisesRegex(RuntimeError, 'multi_dot\\(\\): expected at least 2 tensors but got 1'):
            gnn.linalg.multi_dot([gnn.ones(2, 2)])

    def test_cross_vecdot(self):
        a, b = rng_array((1, 4, 3), seed=30), rng_array((2, 1, 3), seed=31)
        (ga, ta), (gb, tb) = both(a), both(b)
        self.close(gnn.linalg.cross(ga, gb), torch.linalg.cross(ta, tb))
        c, d = rng_array((3, 5), seed=32), rng_array((3, 5), seed=33)
        (gc, tc), (gd, td) = both(c), both(d)
        self.close(gnn.cross(gc, gd), torch.cross(tc, td))
        self.close(gc.cross(gd, dim=0), tc.cross(td, dim=0))
        self.close(gnn.linalg.cross(gc, gd, dim=0), torch.linalg.cross(tc, td, dim=0))
        self.grads(lambda lib, x, y: (lib.linalg.cross(x, y) ** 2).sum(), [a, b], what='cross')
        gradcheck(lambda x, y: (gnn.linalg.cross(x, y) ** 2).sum(), [a, b])
        with self.assertRaisesRegex(RuntimeError, 'linalg.cross: inputs dimension -1 must have length 3. Got 4 and 4'):
            gnn.linalg.cross(gnn.ones(4), gnn.ones(4))
        with self.assertRaisesRegex(RuntimeError, 'linalg.cross: inputs must have the same number of dimensions.'):
            gnn.linalg.cross(gnn.ones(2, 3), gnn.ones(3))
        self.close(gnn.linalg.vecdot(ga, gb), torch.linalg.vecdot(ta, tb))
        self.close(gnn.linalg.vecdot(gc, gd, dim=0), torch.linalg.vecdot(tc, td, dim=0))
        self.grads(lambda lib, x, y: (lib.linalg.vecdot(x, y) ** 2).sum(), [a, b], what='vecdot')
        gradcheck(lambda x, y: (gnn.linalg.vecdot(x, y) ** 2).sum(), [a, b])

    def test_tensor_functions(self):
        a = rng_array((4, 6, 8, 3), seed=40)
        g, t = both(a)
        self.close(gnn.linalg.tensorinv(g, ind=2), torch.linalg.tensorinv(t, ind=2))
        a = rng_array((2, 3, 6), seed=41)
        b = rng_array((2, 3), seed=42)
        (ga, ta), (gb, tb) = both(a), both(b)
        self.close(gnn.linalg.tensorsolve(ga, gb), torch.linalg.tensorsolve(ta, tb))
        a = rng_array((6, 2, 3), seed=43)
        g, t = both(a)
        self.close(gnn.linalg.tensorsolve(g, gb, dims=(0,)), torch.linalg.tensorsolve(t, tb, dims=(0,)))
        x = rng_array((2, 3, 4), seed=44)
        g, t = both(x)
        self.close(gnn.linalg.diagonal(g), torch.linalg.diagonal(t))
        self.close(gnn.linalg.diagonal(g, offset=1, dim1=0, dim2=2), torch.linalg.diagonal(t, offset=1, dim1=0, dim2=2))
        y = rng_array((4, 5), seed=45)
        self.close(gnn.linalg.matmul(g, gnn.tensor(y)), torch.linalg.matmul(t, torch.tensor(y)))


if __name__ == '__main__':
    main()
