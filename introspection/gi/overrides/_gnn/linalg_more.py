# torch.linalg's decompositions and the functions built on them, with torch 1.13's signatures
#
# qr, eigh/eigvalsh, svd/svdvals and lu_factor_ex are C ops of gnn/ops/gnn-ops-lapack.c (LAPACK
# on the host, gradients written with ops). The rest is composed here from those and other
# differentiable ops, so gradients follow from the parts: pinv, lstsq, matrix_rank, cond,
# lu/lu_solve/lu_unpack, solve_triangular, cholesky_solve/cholesky_inverse, the _ex forms,
# matrix_power, multi_dot, cross, vecdot, tensorinv/tensorsolve. The rows of names.py put them
# under torch's names (torch.linalg.qr, torch.svd, Tensor.qr, ...).
#
# SPDX-License-Identifier: LGPL-2.1-or-later
import numbers as _numbers
import re as _re

import numpy as _np

from gi.repository import GLib as _GLib

from .base import Gnn
from . import errors as _errors
from .errors import raising_torch_errors

__all__ = []


def _export(fn):
    __all__.append(fn.__name__)
    return fn


class LinAlgError(RuntimeError):
    """torch.linalg.LinAlgError: a linear-algebra routine failed on the values of its input (a
    singular matrix, one that is not positive-definite, an iteration that did not converge).
    gnn raises it as a GLib.Error of code Gnn.Error.LINALG that is also this class."""


LinAlgError.__module__ = 'torch.linalg'
_errors._PYTHON_CLASS[int(Gnn.Error.LINALG)] = LinAlgError
linalg_LinAlgError = LinAlgError
__all__.append('linalg_LinAlgError')


def _return_type(name, fields):
    from .functions import _return_type as make
    return make(name, fields)


class _types:
    linalg_qr = _return_type('linalg_qr', ('Q', 'R'))
    qr = _return_type('qr', ('Q', 'R'))
    linalg_eigh = _return_type('linalg_eigh', ('eigenvalues', 'eigenvectors'))
    linalg_svd = _return_type('linalg_svd', ('U', 'S', 'Vh'))
    svd = _return_type('svd', ('U', 'S', 'V'))
    linalg_lstsq = _return_type('linalg_lstsq', ('solution', 'residuals', 'rank', 'singular_values'))
    linalg_lu_factor = _return_type('linalg_lu_factor', ('LU', 'pivots'))
    linalg_lu_factor_ex = _return_type('linalg_lu_factor_ex', ('LU', 'pivots', 'info'))
    linalg_lu = _return_type('linalg_lu', ('P', 'L', 'U'))
    lu_unpack = _return_type('lu_unpack', ('P', 'L', 'U'))
    linalg_cholesky_ex = _return_type('linalg_cholesky_ex', ('L', 'info'))
    linalg_inv_ex = _return_type('linalg_inv_ex', ('inverse', 'info'))
    linalg_solve_ex = _return_type('linalg_solve_ex', ('result', 'info'))
    triangular_solve = _return_type('triangular_solve', ('solution', 'cloned_coefficient'))


def _check_tensor(name, value, what='A'):
    if not isinstance(value, Gnn.Tensor):
        raise TypeError('%s(): argument \'%s\' must be Tensor, not %s' % (name, what, type(value).__name__))


def _no_out(name, out):
    if out is not None:
        raise TypeError('%s(): out= is not supported by gnn (its ops return new tensors)' % name)


def _is_int(value):
    return isinstance(value, _numbers.Integral) and not isinstance(value, bool)


def _gnn():
    from gi.repository import Gnn as overridden
    return overridden


def _check_matrix(name, A, square=False):
    if A.ndim < 2:
        raise RuntimeError('%s: The input tensor A must have at least 2 dimensions.' % name)
    if square and A.shape[-1] != A.shape[-2]:
        raise RuntimeError('%s: A must be batches of square matrices, but they are %d by %d matrices'
                           % (name, A.shape[-2], A.shape[-1]))


def _eps(dtype):
    g = _gnn()
    return float(_np.finfo(_np.float64 if dtype == g.float64 else _np.float32).eps)


def _eye_like(A, n, m=None):
    return _gnn().eye(n, n if m is None else m, dtype=A.dtype, device=A.device)


# ---- the decompositions (C) ----

@_export
def linalg_qr(A, mode='reduced', *, out=None):
    """torch.linalg.qr: the named tuple (Q, R); mode 'reduced', 'complete' or 'r' (Q empty)."""
    _no_out('linalg.qr', out)
    _check_tensor('linalg.qr', A)
    if not isinstance(mode, str):
        raise TypeError("linalg_qr(): argument 'mode' must be str, not %s" % type(mode).__name__)
    return _types.linalg_qr(*Gnn.linalg_qr(A, mode))


@_export
def qr(input, some=True, *, out=None):
    """torch.qr / Tensor.qr (some=True): linalg.qr with mode 'reduced', or 'complete' for
    some=False."""
    _no_out('qr', out)
    _check_tensor('qr', input, 'input')
    return _types.qr(*Gnn.linalg_qr(input, 'reduced' if some else 'complete'))


def _uplo(name, UPLO):
    if not isinstance(UPLO, str) or UPLO.upper() not in ('L', 'U') or len(UPLO) != 1:
        raise RuntimeError("Expected UPLO argument to be 'L' or 'U', but got %s" % (UPLO,))
    return UPLO.upper() == 'U'


@_export
def linalg_eigh(A, UPLO='L', *, out=None):
    """torch.linalg.eigh: the named tuple (eigenvalues, eigenvectors) of a symmetric A, read
    from its lower triangle (UPLO='U': the upper)."""
    _no_out('linalg.eigh', out)
    _check_tensor('linalg.eigh', A)
    return _types.linalg_eigh(*Gnn.linalg_eigh(A, _uplo('linalg.eigh', UPLO)))


@_export
def linalg_eigvalsh(A, UPLO='L', *, out=None):
    """torch.linalg.eigvalsh: the eigenvalues of a symmetric A, ascending."""
    _no_out('linalg.eigvalsh', out)
    _check_tensor('linalg.eigvalsh', A)
    return Gnn.linalg_eigvalsh(A, _uplo('linalg.eigvalsh', UPLO))


def _driver(name, driver):
    if driver is not None:
        raise RuntimeError('%s: keyword argument `driver=` is only supported on CUDA inputs with cuSOLVER backend.'
                           % name)


@_export
def linalg_svd(A, full_matrices=True, *, driver=None, out=None):
    """torch.linalg.svd: the named tuple (U, S, Vh) with A = U diag (S) Vh (LAPACK's gesdd)."""
    _no_out('linalg.svd', out)
    _check_tensor('linalg.svd', A)
    _driver('torch.linalg.svd', driver)
    return _types.linalg_svd(*Gnn.linalg_svd(A, bool(full_matrices)))


@_export
def linalg_svdvals(A, *, driver=None, out=None):
    """torch.linalg.svdvals: the singular values, descending."""
    _no_out('linalg.svdvals', out)
    _check_tensor('linalg.svdvals', A)
    _driver('torch.linalg.svdvals', driver)
    return Gnn.linalg_svdvals(A)


@_export
def svd(input, some=True, compute_uv=True, *, out=None):
    """torch.svd / Tensor.svd: the named tuple (U, S, V), V (not Vh) the right singular
    vectors as columns; some=False gives the full U and V; compute_uv=False gives zero U (m, m)
    and V (n, n), as torch 1.13 does."""
    _no_out('svd', out)
    _check_tensor('svd', input, 'input')
    g = _gnn()
    if not compute_uv:
        _check_matrix('linalg.svd', input)
        s = Gnn.linalg_svdvals(input)
        batch = tuple(input.shape[:-2])
        m, n = input.shape[-2], input.shape[-1]
        return _types.svd(g.zeros(batch + (m, m), dtype=input.dtype, device=input.device), s,
                          g.zeros(batch + (n, n), dtype=input.dtype, device=input.device))
    u, s, vh = Gnn.linalg_svd(input, not some)
    return _types.svd(u, s, vh.mT)


def _lu_message(name, A, info):
    """torch's error for the first singular matrix of a batch of getrf infos, or None"""
    bad = _np.nonzero(info.reshape(-1))[0]
    if len(bad) == 0:
        return None
    i = int(bad[0])
    where = '(Batch element %d): ' % i if A.ndim > 2 else ''
    k = int(info.reshape(-1)[i])
    return ('%s: %sU[%d,%d] is zero and using it on lu_solve would result in a division by zero. If you still '
            'want to perform the factorization, consider calling linalg.lu(A, pivot) or linalg.lu_factor_ex(A, pivot)'
            % (name, where, k, k))


def _lu_factor(name, A, pivot, out):
    """getrf's (LU, pivots, info) for A, after the checks the LU entry points share"""
    _no_out(name, out)
    _check_tensor(name, A)
    if not pivot:
        raise RuntimeError('%s: LU without pivoting is not implemented on the CPU' % name)
    return Gnn.linalg_lu_factor_ex(A)


@_export
def linalg_lu_factor_ex(A, *, pivot=True, check_errors=False, out=None):
    """torch.linalg.lu_factor_ex: the named tuple (LU, pivots, info), getrf's packed factors,
    1-based int32 row swaps and info; check_errors=True raises for a singular matrix."""
    lu, piv, info = _lu_factor('linalg.lu_factor_ex', A, pivot, out)
    if check_errors:
        message = _lu_message('torch.linalg.lu_factor_ex', A, info.numpy())
        if message:
            raise RuntimeError(message)
    return _types.linalg_lu_factor_ex(lu, piv, info)


@_export
def linalg_lu_factor(A, *, pivot=True, out=None):
    """torch.linalg.lu_factor: the named tuple (LU, pivots); a singular matrix is an error."""
    lu, piv, info = _lu_factor('linalg.lu_factor', A, pivot, out)
    message = _lu_message('torch.linalg.lu_factor', A, info.numpy())
    if message:
        raise RuntimeError(message)
    return _types.linalg_lu_factor(lu, piv)


def _permutation(pivots, m, like):
    """P (…, m, m) with A = P L U from getrf's 1-based pivots (…, k)"""
    piv = pivots.numpy().astype(_np.int64)
    batch = piv.shape[:-1]
    flat = piv.reshape(-1, piv.shape[-1]) if piv.size else _np.zeros((int(_np.prod(batch)), piv.shape[-1]), _np.int64)
    out = _np.zeros((flat.shape[0], m, m))
    for b in range(flat.shape[0]):
        perm = list(range(m))
        for i, p in enumerate(flat[b]):
            if not 1 <= p <= m:
                raise RuntimeError('lu_unpack: pivots must be between 1 and %d, found %d' % (m, p))
            perm[i], perm[p - 1] = perm[p - 1], perm[i]
        out[b, perm, range(m)] = 1
    return _gnn().tensor(out.reshape(batch + (m, m)), dtype=like.dtype, device=like.device)


@_export
def lu_unpack(LU_data, LU_pivots, unpack_data=True, unpack_pivots=True, *, out=None):
    """torch.lu_unpack: the named tuple (P, L, U) from packed LU factors and their pivots
    (empty tensors for the parts not asked for)."""
    _no_out('lu_unpack', out)
    _check_tensor('lu_unpack', LU_data, 'LU_data')
    _check_tensor('lu_unpack', LU_pivots, 'LU_pivots')
    g = _gnn()
    m, n = LU_data.shape[-2], LU_data.shape[-1]
    k = min(m, n)
    empty = g.empty(0, dtype=LU_data.dtype, device=LU_data.device)
    L = U = P = empty
    if unpack_data:
        L = LU_data.narrow(-1, 0, k).tril(-1) + _eye_like(LU_data, m, k)
        U = LU_data.narrow(-2, 0, k).triu()
    if unpack_pivots:
        P = _permutation(LU_pivots, m, LU_data)
    return _types.lu_unpack(P, L, U)


@_export
def linalg_lu(A, *, pivot=True, out=None):
    """torch.linalg.lu: the named tuple (P, L, U) with A = P L U; differentiable (square A)."""
    lu, piv, _info = _lu_factor('linalg.lu', A, pivot, out)
    return _types.linalg_lu(*lu_unpack(lu, piv))


@_export
def lu(A, pivot=True, get_infos=False, out=None):
    """torch.lu / Tensor.lu: (LU, pivots), and info with get_infos=True (else a singular
    matrix is an error)."""
    lu_, piv, info = _lu_factor('lu', A, pivot, out)
    if get_infos:
        return lu_, piv, info
    message = _lu_message('torch.linalg.lu_factor', A, info.numpy())
    if message:
        raise RuntimeError(message)
    return lu_, piv


# ---- triangular and factored solves (composed) ----

def _tri(A, B, upper, unit=False):
    return Gnn.linalg_solve_triangular(A, B, bool(upper), bool(unit))


@_export
def linalg_solve_triangular(A, B, *, upper, left=True, unitriangular=False, out=None):
    """torch.linalg.solve_triangular: X with A X = B (left=False: X A = B) for the triangle of A
    that upper names (its diagonal taken as ones when unitriangular), through trsm: a zero on
    the diagonal gives inf or NaN, as in torch."""
    _no_out('linalg.solve_triangular', out)
    _check_tensor('linalg.solve_triangular', A)
    _check_tensor('linalg.solve_triangular', B, 'B')
    if left:
        return _tri(A, B, upper, unitriangular)
    # X A = B  <=>  Aᵀ Xᵀ = Bᵀ, Aᵀ's triangle the other one
    if B.ndim < 2:
        raise RuntimeError('linalg.solve_triangular: The input tensor B must have at least 2 dimensions.')
    return _tri(A.mT, B.mT, not upper, unitriangular).mT


@_export
def triangular_solve(b, A, upper=True, transpose=False, unitriangular=False, *, out=None):
    """torch.triangular_solve / Tensor.triangular_solve: the named tuple (solution,
    cloned_coefficient) of A X = b (transpose: Aᵀ X = b)."""
    _no_out('triangular_solve', out)
    _check_tensor('triangular_solve', b, 'input')
    _check_tensor('triangular_solve', A, 'A')
    X = _tri(A.mT, b, not upper, unitriangular) if transpose else _tri(A, b, upper, unitriangular)
    return _types.triangular_solve(X, A.clone())


@_export
def linalg_lu_solve(LU, pivots, B, *, left=True, adjoint=False, out=None):
    """torch.linalg.lu_solve: X with A X = B (left=False: X A = B; adjoint: Aᵀ) from A's
    lu_factor, by two triangular solves with LU; differentiable in LU and B."""
    _no_out('linalg.lu_solve', out)
    _check_tensor('linalg.lu_solve', LU, 'LU')
    _check_tensor('linalg.lu_solve', pivots, 'pivots')
    _check_tensor('linalg.lu_solve', B, 'B')
    _check_matrix('linalg.lu_solve', LU, square=True)
    if not left:
        # X A = B  <=>  Aᵀ Xᵀ = Bᵀ
        return linalg_lu_solve(LU, pivots, B.mT, left=True, adjoint=not adjoint).mT
    P = _permutation(pivots, LU.shape[-1], LU)
    if adjoint:
        # Aᵀ = Uᵀ Lᵀ Pᵀ: X = P L⁻ᵀ U⁻ᵀ B
        Z = _tri(LU.mT, B, False)
        return P.matmul(_tri(LU.mT, Z, True, True))
    Y = _tri(LU, P.mT.matmul(B), False, True)
    return _tri(LU, Y, True)


@_export
def lu_solve(b, LU_data, LU_pivots, *, out=None):
    """torch.lu_solve / Tensor.lu_solve (LU_data, LU_pivots): linalg.lu_solve (LU, pivots, b)."""
    _no_out('lu_solve', out)
    return linalg_lu_solve(LU_data, LU_pivots, b)


@_export
def cholesky_solve(input, input2, upper=False, *, out=None):
    """torch.cholesky_solve / Tensor.cholesky_solve (B, L, upper=False): X with A X = B, A = L Lᵀ
    (upper: A = Uᵀ U)."""
    _no_out('cholesky_solve', out)
    _check_tensor('cholesky_solve', input, 'input')
    _check_tensor('cholesky_solve', input2, 'input2')
    if upper:
        return _tri(input2, _tri(input2.mT, input, False), True)
    return _tri(input2.mT, _tri(input2, input, False), True)


@_export
def cholesky_inverse(input, upper=False, *, out=None):
    """torch.cholesky_inverse / Tensor.cholesky_inverse: A⁻¹ from A's Cholesky factor."""
    _no_out('cholesky_inverse', out)
    _check_tensor('cholesky_inverse', input, 'input')
    _check_matrix('cholesky_inverse', input, square=True)
    eye = _eye_like(input, input.shape[-1]).expand(tuple(input.shape))
    return cholesky_solve(eye, input, upper)


# ---- the _ex forms: info tensors instead of errors ----

def _info_tensor(values, batch, like):
    g = _gnn()
    return g.tensor(_np.asarray(values, dtype=_np.int32).reshape(batch), dtype=g.int32, device=like.device)


def _per_matrix(fn, A, pattern, name, check_errors):
    """fn (A) for the whole batch, or, where it fails, matrix by matrix: the results stacked
    (NaN for the failing matrices) and the info of each (the number its message names)"""
    g = _gnn()
    batch = tuple(A.shape[:-2])
    try:
        out = fn(A)
        return out, _info_tensor(_np.zeros(batch, _np.int32), batch, A)
    except _GLib.Error as e:
        if check_errors or e.code != int(Gnn.Error.LINALG):
            raise
    flat = A.reshape((-1,) + tuple(A.shape[-2:]))
    outs, infos = [], []
    for i in range(flat.shape[0]):
        try:
            outs.append(fn(flat[i]))
            infos.append(0)
        except _GLib.Error as e:
            if e.code != int(Gnn.Error.LINALG):
                raise
            found = _re.search(pattern, str(e))
            infos.append(int(found.group(1)) if found else 1)
            outs.append(g.full(tuple(A.shape[-2:]), float('nan'), dtype=A.dtype, device=A.device))
    return g.stack(outs).reshape(tuple(A.shape)), _info_tensor(infos, batch, A)


@_export
def linalg_cholesky_ex(A, *, upper=False, check_errors=False, out=None):
    """torch.linalg.cholesky_ex: the named tuple (L, info), info the order of the first leading
    minor that is not positive-definite (0 when it is). gnn's L of a failing matrix is NaN where
    torch leaves LAPACK's partial factor."""
    _no_out('linalg.cholesky_ex', out)
    _check_tensor('linalg.cholesky_ex', A)
    _check_matrix('linalg.cholesky_ex', A, square=True)
    return _types.linalg_cholesky_ex(*_per_matrix(lambda M: Gnn.linalg_cholesky(M, bool(upper)), A,
                                                  r'order (\d+)', 'linalg.cholesky_ex', check_errors))


@_export
def linalg_inv_ex(A, *, check_errors=False, out=None):
    """torch.linalg.inv_ex: the named tuple (inverse, info), info getrf's (0 when invertible).
    gnn's inverse of a singular matrix is NaN where torch leaves LAPACK's partial result."""
    _no_out('linalg.inv_ex', out)
    _check_tensor('linalg.inv_ex', A)
    _check_matrix('linalg.inv_ex', A, square=True)
    return _types.linalg_inv_ex(*_per_matrix(Gnn.linalg_inv, A, r'diagonal element (\d+)', 'linalg.inv_ex',
                                             check_errors))


@_export
def linalg_solve_ex(A, B, *, left=True, check_errors=False, out=None):
    """torch.linalg.solve_ex: the named tuple (result, info), info getrf's of A (0 when
    invertible); the result of a singular system is NaN."""
    _no_out('linalg.solve_ex', out)
    _check_tensor('linalg.solve_ex', A)
    _check_tensor('linalg.solve_ex', B, 'B')
    from .functions import linalg_solve
    _check_matrix('linalg.solve_ex', A, square=True)
    info = Gnn.linalg_lu_factor_ex(A)[2]
    bad = info.numpy()
    if not bad.any():
        return _types.linalg_solve_ex(linalg_solve(A, B, left=left), info)
    if check_errors:
        linalg_solve(A, B, left=left)
    g = _gnn()
    good = g.tensor(bad == 0, device=A.device)
    eye = _eye_like(A, A.shape[-1])
    safe = g.where(good.reshape(tuple(bad.shape) + (1, 1)), A, eye)
    X = linalg_solve(safe, B, left=left)
    vector = B.ndim == 1 or (B.ndim == A.ndim - 1 and tuple(B.shape) == tuple(A.shape[:-1]))
    mask = good.reshape(tuple(bad.shape) + ((1,) if vector else (1, 1)))
    return _types.linalg_solve_ex(g.where(mask, X, g.full((), float('nan'), dtype=A.dtype, device=A.device)), info)


# ---- built on the SVD and eigh ----

def _tolerances(A, atol, rtol, S_max):
    """tol = max (atol, rtol · σ_max) per matrix, as torch: without either, rtol = eps · max (m, n)"""
    g = _gnn()

    def value(t):
        if t is None:
            return None
        return t if isinstance(t, Gnn.Tensor) else g.tensor(float(t), dtype=A.dtype, device=A.device)
    atol_t, rtol_t = value(atol), value(rtol)
    if rtol_t is None:
        # torch: rtol is 0 when atol is given and positive, else eps · max (m, n)
        rtol_t = g.tensor(0.0 if _positive(atol) else _eps(A.dtype) * max(A.shape[-2], A.shape[-1]),
                          dtype=A.dtype, device=A.device)
    if atol_t is None:
        atol_t = g.zeros((), dtype=A.dtype, device=A.device)
    return g.maximum(atol_t, rtol_t * S_max)


def _positive(atol):
    if atol is None:
        return False
    if isinstance(atol, Gnn.Tensor):
        return True
    return float(atol) > 0


def _rcond_overload(name, rcond, atol, rtol):
    if rcond is not None:
        if atol is not None or rtol is not None:
            raise RuntimeError('%s: rcond cannot be given with atol or rtol' % name)
        return None, rcond
    return atol, rtol


@_export
def linalg_pinv(A, rcond=None, hermitian=False, *, atol=None, rtol=None, out=None):
    """torch.linalg.pinv (A, *, atol=None, rtol=None, hermitian=False), and the older
    (A, rcond, hermitian=False): the pseudoinverse from the SVD (hermitian: from eigh), singular
    values at most max (atol, rtol · σ_max) dropped; differentiable."""
    _no_out('linalg.pinv', out)
    _check_tensor('linalg.pinv', A)
    _check_matrix('linalg.pinv', A)
    atol, rtol = _rcond_overload('linalg.pinv', rcond, atol, rtol)
    g = _gnn()
    zero = g.zeros((), dtype=A.dtype, device=A.device)
    if hermitian:
        _check_matrix('linalg.pinv', A, square=True)
        L, V = Gnn.linalg_eigh(A, False)
        absL = L.abs()
        tol = _tolerances(A, atol, rtol, absL.amax(-1, keepdim=True))
        Linv = g.where(absL > tol, L.reciprocal(), zero)
        return (V * Linv.unsqueeze(-2)).matmul(V.mT)
    U, S, Vh = Gnn.linalg_svd(A, False)
    k = S.shape[-1]
    if k == 0:
        return g.zeros(tuple(A.shape[:-2]) + (A.shape[-1], A.shape[-2]), dtype=A.dtype, device=A.device)
    tol = _tolerances(A, atol, rtol, S.narrow(-1, 0, 1))
    Sinv = g.where(S > tol, S.reciprocal(), zero)
    return (Vh.mT * Sinv.unsqueeze(-2)).matmul(U.mT)


@_export
def pinverse(input, rcond=1e-15):
    """torch.pinverse / Tensor.pinverse (rcond=1e-15): linalg.pinv (input, rtol=rcond)."""
    return linalg_pinv(input, rtol=rcond)


@_export
def linalg_matrix_rank(A, tol=None, hermitian=False, *, atol=None, rtol=None, out=None):
    """torch.linalg.matrix_rank (A, *, atol=None, rtol=None, hermitian=False), and the older
    (A, tol, hermitian=False): the number of singular values (hermitian: |eigenvalues|) above
    max (atol, rtol · σ_max), int64."""
    _no_out('linalg.matrix_rank', out)
    _check_tensor('linalg.matrix_rank', A)
    _check_matrix('linalg.matrix_rank', A)
    if tol is not None:
        if atol is not None or rtol is not None:
            raise RuntimeError('linalg.matrix_rank: tol cannot be given with atol or rtol')
        atol, rtol = tol, 0.0
    g = _gnn()
    with g.no_grad():
        if hermitian:
            _check_matrix('linalg.matrix_rank', A, square=True)
            S = Gnn.linalg_eigvalsh(A, False).abs()
        else:
            S = Gnn.linalg_svdvals(A)
        if S.shape[-1] == 0:
            return g.zeros(tuple(A.shape[:-2]), dtype=g.int64, device=A.device)
        tol_t = _tolerances(A, atol, rtol, S.amax(-1, keepdim=True))
        return (S > tol_t).sum(-1)


@_export
def linalg_cond(A, p=None, *, out=None):
    """torch.linalg.cond: σ_max / σ_min for p None or 2 (-2: σ_min / σ_max), else
    ‖A‖_p ‖A⁻¹‖_p for p 'fro', 'nuc', inf, -inf, 1, -1 (inf for a singular matrix)."""
    _no_out('linalg.cond', out)
    _check_tensor('linalg.cond', A)
    g = _gnn()
    if p is None or p == 2 or p == -2:
        _check_matrix('linalg.cond', A)
        S = Gnn.linalg_svdvals(A)
        if p == -2:
            return S.narrow(-1, S.shape[-1] - 1, 1).squeeze(-1) / S.narrow(-1, 0, 1).squeeze(-1)
        return S.narrow(-1, 0, 1).squeeze(-1) / S.narrow(-1, S.shape[-1] - 1, 1).squeeze(-1)
    if p not in ('fro', 'nuc', float('inf'), float('-inf'), 1, -1):
        raise RuntimeError('linalg.cond got an invalid norm type: %s' % (p,))
    _check_matrix('linalg.cond', A)
    if A.shape[-1] != A.shape[-2]:
        raise RuntimeError('linalg.cond(ord=%s): A must be batches of square matrices, but they are %d by %d matrices'
                           % (p, A.shape[-2], A.shape[-1]))
    from .functions import linalg_matrix_norm
    inverse, info = linalg_inv_ex(A)
    norm_a = linalg_matrix_norm(A, p)
    norm_inv = linalg_matrix_norm(g.where(inverse != inverse, g.zeros((), dtype=A.dtype), inverse), p)
    singular = info.reshape(tuple(info.shape)) > 0
    return g.where(singular, g.full((), float('inf'), dtype=A.dtype, device=A.device), norm_a * norm_inv)


@_export
def linalg_lstsq(A, B, rcond=None, *, driver=None, out=None):
    """torch.linalg.lstsq: the named tuple (solution, residuals, rank, singular_values) of the
    least-squares problem min ‖A X - B‖. The solution is the minimum-norm one, pinv (A) B with
    singular values at most rcond · σ_max dropped (rcond: eps · max (m, n) by default).
    The fields are filled as torch fills them on the CPU for each driver: gelsy (the
    default) gives rank, gelsd and gelss rank and singular_values, gels neither; residuals
    (the squared residual of each column) when m > n and A has full rank, except for gelsy."""
    _no_out('linalg.lstsq', out)
    _check_tensor('linalg.lstsq', A, 'self')
    _check_tensor('linalg.lstsq', B, 'b')
    if driver is None:
        driver = 'gelsy'
    if driver not in ('gels', 'gelsy', 'gelsd', 'gelss'):
        raise RuntimeError("torch.linalg.lstsq: parameter `driver` should be one of (gels, gelsy, gelsd, gelss)")
    if A.ndim < 2:
        raise RuntimeError('torch.linalg.lstsq: input must have at least 2 dimensions.')
    if A.dtype != B.dtype:
        raise RuntimeError('torch.linalg.lstsq: Expected input and other to have the same dtype, but got input\'s '
                           'dtype %s and other\'s dtype %s' % (A.dtype, B.dtype))
    g = _gnn()
    vector = B.ndim == A.ndim - 1
    Bm = B.unsqueeze(-1) if vector else B
    m, n = A.shape[-2], A.shape[-1]
    if Bm.shape[-2] != m:
        raise RuntimeError('torch.linalg.lstsq: input.size(-2) should match other.size(-2)')
    rtol = _eps(A.dtype) * max(m, n) if rcond is None or rcond < 0 else float(rcond)
    X = linalg_pinv(A, rtol=rtol).matmul(Bm)
    empty = g.empty(0, dtype=A.dtype, device=A.device)
    rank = g.empty(0, dtype=g.int64, device=A.device)
    sv = empty
    if driver != 'gels':
        rank = linalg_matrix_rank(A, rtol=rtol)
    if driver in ('gelsd', 'gelss'):
        with g.no_grad():
            sv = Gnn.linalg_svdvals(A)
    residuals = empty
    if m > n and driver != 'gelsy':
        if bool((linalg_matrix_rank(A, rtol=rtol) == n).all()):
            residuals = ((A.matmul(X) - Bm) ** 2).sum(-2)
            if vector:
                residuals = residuals.squeeze(-1)
    if vector:
        X = X.squeeze(-1)
    return _types.linalg_lstsq(X, residuals, rank, sv)


# ---- products ----

@_export
def linalg_matrix_power(A, n, *, out=None):
    """torch.linalg.matrix_power, torch.matrix_power and Tensor.matrix_power: A^n by repeated
    squaring (n < 0: of A⁻¹; n = 0: the identity); differentiable."""
    _no_out('linalg.matrix_power', out)
    _check_tensor('linalg.matrix_power', A)
    if not _is_int(n):
        raise TypeError("matrix_power(): argument 'n' must be int, not %s" % type(n).__name__)
    _check_matrix('linalg.matrix_power', A, square=True)
    n = int(n)
    if n == 0:
        return _eye_like(A, A.shape[-1]).expand(tuple(A.shape)).clone()
    base = Gnn.linalg_inv(A) if n < 0 else A
    n = abs(n)
    result = None
    while n:
        if n & 1:
            result = base if result is None else result.matmul(base)
        n >>= 1
        if n:
            base = base.matmul(base)
    return result


@_export
def linalg_multi_dot(tensors, *, out=None):
    """torch.linalg.multi_dot: the product of 2-D tensors (the first may be 1-D, a row; the
    last 1-D, a column), in the order of fewest multiplications."""
    _no_out('linalg.multi_dot', out)
    if not isinstance(tensors, (list, tuple)):
        raise TypeError("linalg_multi_dot(): argument 'tensors' must be tuple of Tensors, not %s"
                        % type(tensors).__name__)
    n = len(tensors)
    if n < 2:
        raise RuntimeError('multi_dot(): expected at least 2 tensors but got %d' % n)
    for i, t in enumerate(tensors):
        _check_tensor('linalg.multi_dot', t, 'tensors')
        if t.dtype != tensors[0].dtype:
            raise RuntimeError('multi_dot(): all tensors must have be the same dtype but tensor 0 is %s and '
                               'tensor %d %s'
                               % (tensors[0].dtype, i, t.dtype))
    first, last = tensors[0], tensors[-1]
    if first.ndim not in (1, 2):
        raise RuntimeError('multi_dot(): the first tensor must be 1D or 2D but got %dD' % first.ndim)
    if last.ndim not in (1, 2):
        raise RuntimeError('multi_dot(): the last tensor must be 1D or 2D but got %dD' % last.ndim)
    mats = [first.unsqueeze(0) if first.ndim == 1 else first] + list(tensors[1:-1]) + \
        [last.unsqueeze(-1) if last.ndim == 1 else last]
    for i in range(1, n - 1):
        if mats[i].ndim != 2:
            raise RuntimeError('multi_dot(): tensor %d must be 2D but got %dD' % (i, mats[i].ndim))
    for i in range(n - 1):
        if mats[i].shape[1] != mats[i + 1].shape[0]:
            raise RuntimeError('multi_dot(): tensors %d and %d with shapes %s and %s cannot be multiplied'
                               % (i, i + 1, list(tensors[i].shape), list(tensors[i + 1].shape)))
    dims = [mats[0].shape[0]] + [t.shape[1] for t in mats]
    # the matrix-chain order: cost[i][j] the fewest multiplications for mats[i..j]
    cost = [[0] * n for _ in range(n)]
    split = [[0] * n for _ in range(n)]
    for length in range(1, n):
        for i in range(n - length):
            j = i + length
            cost[i][j] = None
            for k in range(i, j):
                c = cost[i][k] + cost[k + 1][j] + dims[i] * dims[k + 1] * dims[j + 1]
                if cost[i][j] is None or c < cost[i][j]:
                    cost[i][j], split[i][j] = c, k

    def product(i, j):
        if i == j:
            return mats[i]
        k = split[i][j]
        return product(i, k).matmul(product(k + 1, j))
    result = product(0, n - 1)
    if first.ndim == 1:
        result = result.squeeze(0)
    if last.ndim == 1:
        result = result.squeeze(-1)
    return result


def _cross(name, input, other, dim):
    from .compose import broadcast_tensors
    _check_tensor(name, input, 'input')
    _check_tensor(name, other, 'other')
    if input.ndim != other.ndim:
        raise RuntimeError('linalg.cross: inputs must have the same number of dimensions.')
    a, b = broadcast_tensors(input, other)
    d = dim + a.ndim if dim < 0 else dim
    if not 0 <= d < a.ndim:
        raise IndexError('Dimension out of range (expected to be in range of [%d, %d], but got %d)'
                         % (-a.ndim, a.ndim - 1, dim))
    sizes = [input.shape[d], other.shape[d]]
    if sizes != [3, 3]:
        raise RuntimeError('linalg.cross: inputs dimension %d must have length 3. Got %d and %d'
                           % (dim, sizes[0], sizes[1]))
    a0, a1, a2 = (a.narrow(d, i, 1) for i in range(3))
    b0, b1, b2 = (b.narrow(d, i, 1) for i in range(3))
    g = _gnn()
    return g.cat([a1 * b2 - a2 * b1, a2 * b0 - a0 * b2, a0 * b1 - a1 * b0], d)


@_export
def linalg_cross(input, other, *, dim=-1, out=None):
    """torch.linalg.cross: the cross product along dim (of size 3), broadcast; differentiable."""
    _no_out('linalg.cross', out)
    return _cross('linalg.cross', input, other, int(dim))


@_export
def cross(input, other, dim=None, *, out=None):
    """torch.cross / Tensor.cross: dim=None takes the first dimension of size 3 (torch 1.13's
    deprecated default)."""
    _no_out('cross', out)
    _check_tensor('cross', input, 'input')
    if dim is None:
        sizes = [i for i, s in enumerate(input.shape) if s == 3]
        if not sizes:
            raise RuntimeError('no dimension of size 3 in input')
        dim = sizes[0]
    return _cross('cross', input, other, int(dim))


@_export
def linalg_vecdot(x, y, *, dim=-1, out=None):
    """torch.linalg.vecdot: the dot product along dim, broadcast; differentiable."""
    _no_out('linalg.vecdot', out)
    _check_tensor('linalg.vecdot', x, 'x')
    _check_tensor('linalg.vecdot', y, 'y')
    if x.dtype != y.dtype:
        raise RuntimeError('linalg.vecdot: Expected x and y to have the same dtype, but found x of type %s and y of '
                           'type %s instead' % (x.dtype, y.dtype))
    return (x * y).sum(int(dim))


@_export
def linalg_diagonal(A, *, offset=0, dim1=-2, dim2=-1):
    """torch.linalg.diagonal: torch.diagonal with the last two dimensions by default."""
    _check_tensor('linalg.diagonal', A)
    return A.diagonal(offset, dim1, dim2)


@_export
def linalg_matmul(input, other, *, out=None):
    """torch.linalg.matmul: torch.matmul."""
    _no_out('linalg.matmul', out)
    _check_tensor('linalg.matmul', input, 'input')
    return input.matmul(other)


def _prod(shape):
    p = 1
    for s in shape:
        p *= s
    return p


@_export
def linalg_tensorinv(A, ind=2, *, out=None):
    """torch.linalg.tensorinv: the inverse of A read as a matrix of its first ind dimensions
    by the rest, of shape A.shape[ind:] + A.shape[:ind]."""
    _no_out('linalg.tensorinv', out)
    _check_tensor('linalg.tensorinv', A)
    if not _is_int(ind) or ind <= 0:
        raise RuntimeError('Expected a strictly positive integer for \'ind\', but got %s' % (ind,))
    rows, cols = tuple(A.shape[:ind]), tuple(A.shape[ind:])
    if _prod(rows) != _prod(cols):
        raise RuntimeError('Expected self to satisfy the requirement prod(self.shape[ind:]) == '
                           'prod(self.shape[:ind]), but got %d != %d' % (_prod(cols), _prod(rows)))
    return Gnn.linalg_inv(A.reshape((_prod(rows), _prod(cols)))).reshape(cols + rows)


@_export
def linalg_tensorsolve(A, B, dims=None, *, out=None):
    """torch.linalg.tensorsolve: X with tensordot (A, X, X.ndim) = B, A's dims moved last first."""
    _no_out('linalg.tensorsolve', out)
    _check_tensor('linalg.tensorsolve', A)
    _check_tensor('linalg.tensorsolve', B, 'B')
    if dims is not None:
        dims = [d % A.ndim for d in dims]
        order = [d for d in range(A.ndim) if d not in dims] + dims
        A = A.permute(order)
    xshape = tuple(A.shape[B.ndim:])
    if _prod(tuple(A.shape[:B.ndim])) != _prod(xshape) or tuple(A.shape[:B.ndim]) != tuple(B.shape):
        raise RuntimeError('Expected self to satisfy the requirement prod(self.shape[other.ndim:]) == '
                           'prod(self.shape[:other.ndim]), but got %d != %d'
                           % (_prod(xshape), _prod(tuple(A.shape[:B.ndim]))))
    n = _prod(xshape)
    return Gnn.linalg_solve(A.reshape((n, n)), B.reshape((n,))).reshape(xshape)


# every function raises torch's exception classes (errors.py)
for _name in __all__:
    if _name != 'linalg_LinAlgError':
        globals()[_name] = raising_torch_errors(globals()[_name])
del _name
