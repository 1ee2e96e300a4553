"""Rows for the matrix products, einsum and the linear algebra of gnn-ops-linalg.c."""
import numpy as np

from opspec import Bad, P, Spec

SPECS = [
    Spec('bmm', lambda T, a, b: T.bmm(a, b), [((2, 3, 4), (2, 4, 2)), ((1, 2, 3), (1, 3, 1))],
         bad=[Bad(((2, 3, 4), (2, 5, 2)), ['bmm', '[2, 4]', '[2, 5]']),
              Bad(((2, 3, 4), (4, 2)), ['bmm', 'batch2', '3D'])]),
    Spec('baddbmm', lambda T, c, a, b: T.baddbmm(c, a, b, beta=0.5, alpha=-1.5),
         [((2, 3, 2), (2, 3, 4), (2, 4, 2)), ((3, 1), (2, 3, 2), (2, 2, 1))],
         bad=[Bad(((3, 4), (2, 3, 4), (2, 4, 2)), ['baddbmm', '[3, 4]', '[2, 3, 2]'])]),
    Spec('baddbmm_method', lambda T, c, a, b: c.baddbmm(a, b), [((2, 3, 2), (2, 3, 4), (2, 4, 2)), ((1, 2, 1), (1, 2, 3), (1, 3, 1))]),
    Spec('addmm', lambda T, c, a, b: T.addmm(c, a, b, beta=2.0, alpha=0.5),
         [((3, 2), (3, 4), (4, 2)), ((2,), (3, 4), (4, 2)), ((1, 1), (1, 3), (3, 1))],
         bad=[Bad(((2,), (3, 4), (3, 2)), ['addmm', '3x4', '3x2']),
              Bad(((5,), (3, 4), (4, 2)), ['addmm', '[5]', '[3, 2]']),
              Bad(((2,), (3, 4, 1), (4, 2)), ['addmm', 'mat1', '2D', '3D'])]),
    Spec('addmm_beta0', lambda T, c, a, b: T.addmm(c, a, b, beta=0), [((3, 2), (3, 4), (4, 2))]),
    Spec('addbmm', lambda T, c, a, b: T.addbmm(c, a, b, beta=-1.0, alpha=2.0),
         [((3, 2), (2, 3, 4), (2, 4, 2)), ((2,), (3, 2, 2), (3, 2, 2))],
         bad=[Bad(((3, 2), (2, 3, 4), (2, 3, 2)), ['addbmm', '3x4', '3x2'])]),
    Spec('mv', lambda T, a, v: T.mv(a, v), [((3, 4), (4,)), ((1, 2), (2,))],
         bad=[Bad(((3, 4), (5,)), ['mv', '3x4', '5']),
              Bad(((3, 4), (4, 1)), ['mv', 'matrix @ vector'])]),
    Spec('dot', lambda T, a, b: T.dot(a, b), [((4,), (4,)), ((1,), (1,))],
         bad=[Bad(((3,), (4,)), ['dot', '[3]', '[4]']),
              Bad(((3, 1), (3,)), ['dot', '1D', '2D'])]),
    Spec('dot_method', lambda T, a, b: a.dot(b), [((3,), (3,))]),
    Spec('outer', lambda T, a, b: T.outer(a, b), [((3,), (4,)), ((1,), (2,))],
         bad=[Bad(((3, 2), (4,)), ['outer', '1-D', 'self', '2-D'])]),
    Spec('outer_method', lambda T, a, b: a.outer(b), [((2,), (3,))]),
]


def _einsum(equation):
    return lambda T, *xs: T.einsum(equation, *xs)


# einsum's grad_fn is the last op of its own contraction (a permute, reshape, slice or sum),
# which is not always the one torch's contraction ends in
_EINSUM_GRAD_FN = 'einsum ends in the last op of its own contraction'

# equations from real models: attention scores and values, a bilinear layer, batched outer
# products, trace and diagonal, matrix products with and without a batch, a permutation; then
# the implicit output, broadcasting and sums of free subscripts
EINSUM_CASES = [
    ('attention_scores', 'bhqd,bhkd->bhqk', [((2, 2, 3, 4), (2, 2, 2, 4)), ((1, 1, 2, 2), (1, 1, 3, 2))]),
    ('bilinear', 'bn,anm,bm->ba', [((2, 3), (2, 3, 4), (2, 4)), ((1, 2), (1, 2, 2), (1, 2))]),
    ('batched_outer', 'bi,bj->bij', [((2, 3), (2, 4)), ((1, 2), (1, 3))]),
    ('trace', 'ii', [((3, 3),), ((1, 1),)]),
    ('diagonal', 'ii->i', [((3, 3),), ((2, 2),)]),
    ('mm', 'ij,jk->ik', [((3, 4), (4, 2)), ((1, 2), (2, 1))]),
    ('batched_mm_ellipsis', '...ij,...jk->...ik', [((2, 3, 4), (2, 4, 2)), ((2, 1, 2, 3), (3, 3, 2)),
                                                   ((2, 3), (3, 2))]),
    ('attention_values', 'bhqk,bhkd->bhqd', [((2, 2, 3, 4), (2, 2, 4, 3)), ((1, 1, 2, 2), (1, 1, 2, 1))]),
    ('inner', 'i,i->', [((5,), (5,)), ((1,), (1,))]),
    ('reverse_dims', 'ijk->kji', [((2, 3, 4),), ((1, 2, 3),)]),
    ('implicit', 'ij,jk', [((3, 4), (4, 2))]),
    ('implicit_ellipsis', 'b...i,bi', [((2, 3, 4), (2, 4))]),
    ('broadcast_subscript', 'ij,ij->i', [((3, 1), (3, 4))]),
    ('sum_free', 'ijk,jl->il', [((2, 3, 2), (3, 2))]),
    ('batched_diagonal', 'bii->bi', [((2, 3, 3),)]),
]

SPECS += [Spec('einsum_' + name, _einsum(eq), cases, grad_fn_differs=_EINSUM_GRAD_FN)
          for name, eq, cases in EINSUM_CASES]

# equation errors: torch's messages, the index of the character at fault where there is one
SPECS.append(Spec(
    'einsum_list', lambda T, eq, a, b: T.einsum(eq, [a, b]), [('ij,jk->ik', (3, 4), (4, 2))],
    grad_fn_differs=_EINSUM_GRAD_FN,
    bad=[Bad(('ij,jk,kl->il', (3, 4), (4, 2)), ['fewer operands']),
         Bad(('ij->ik', (3, 4), (4, 2)), ['more operands']),
         Bad(('ij,jk->iz', (3, 4), (4, 2)), ['output subscript z']),
         Bad(('ij,jk->ii', (3, 4), (4, 2)), ['subscript i appears more than once']),
         Bad(('i#,jk->ik', (3, 4), (4, 2)), ['index 1', '[a-zA-Z]']),
         Bad(('ijk,jk->ik', (3, 4), (4, 2)), ['subscripts', '(3)', '(2)', 'operand 0']),
         Bad(('ij,jk->ik', (3, 4), (5, 2)), ['subscript j has size 5 for operand 1', 'size 4']),
         Bad(('ii,jk->ik', (3, 4), (4, 2)), ['subscript i is repeated for operand 0', '4 != 3']),
         Bad(('i.j,jk->ik', (3, 4), (4, 2)), ["found '.' for operand 0", 'index 1'])]))

_TENSORDOT_GRAD_FN = 'tensordot is einsum here, ending in the last op of its contraction'
SPECS += [
    Spec('tensordot', lambda T, a, b: T.tensordot(a, b, dims=([1, 0], [0, 2])), [((3, 2, 2), (2, 4, 3))],
         grad_fn_differs=_TENSORDOT_GRAD_FN,
         bad=[Bad(((3, 2, 2), (3, 4, 3)), ['tensordot', 'size 2 in dim 1', 'size 3 in dim 0'])]),
    Spec('tensordot_int', lambda T, a, b: T.tensordot(a, b, 1), [((2, 3), (3, 2)), ((2, 2, 3), (3,))],
         grad_fn_differs=_TENSORDOT_GRAD_FN),
    # no transposed-slice input: torch 1.13's kron refuses one ("view size is not compatible")
    Spec('kron', lambda T, a, b: T.kron(a, b), [((2, 3), (2, 2)), ((3,), (2, 2)), ((2, 1, 2), (2,))],
         grad_fn_differs='kron is one broadcast product of interleaved views, reshaped', tslice=False),
]


# ---- linear algebra through LAPACK (gnn-ops-lapack.c) ----

def _wc(T, a):
    """a + 4 I for a batch of square matrices (a itself otherwise, for the bad inputs): the
    uniform draws in [-2, 2] of at most 3 x 3 become diagonally dominant, well conditioned."""
    if a.dim() < 2 or a.shape[-1] != a.shape[-2]:
        return a
    return a + 4 * T.eye(a.shape[-1], dtype=a.dtype)


_SINGULAR = np.array([[1.0, 2.0, 3.0], [2.0, 4.0, 6.0], [0.0, 1.0, 1.0]])
_INT = dict(dtype=np.int64)

SPECS += [
    Spec('linalg_solve', lambda T, a, b: T.linalg.solve(_wc(T, a), b),
         [((3, 3), (3, 2)), ((3, 3), (3,)), ((2, 3, 3), (2, 3)), ((2, 1, 2, 2), (3, 2, 1)), ((1, 1), (1, 1)),
          ((2, 2, 2), (2, 1))],
         bad=[Bad(((3, 3), (4, 2)), ['linalg.solve', 'AX = B', '3x3', '4x2']),
              Bad(((3, 4), (3, 2)), ['linalg.solve', 'square', '3 by 4']),
              Bad(((3,), (3,)), ['linalg.solve', 'at least 2 dimensions']),
              Bad(((2, 3, 3), (4, 3)), ['linalg.solve', '3x3', '4x3']),
              Bad((np.eye(3, dtype=np.float32), (3, 2)), ['linalg.solve', 'same dtype'], dtype=np.float64),
              Bad(((3, 3), (3, 2)), ['linalg.solve', 'floating point'], **_INT)]),
    Spec('linalg_solve_singular', lambda T, a, b: T.linalg.solve(a, b), [((2, 2), (2,))],
         bad=[Bad((_SINGULAR, (3, 2)), ['linalg.solve', 'singular'], dtype=np.float64),
              Bad((np.stack([np.eye(3), _SINGULAR]), (3,)), ['linalg.solve', '(Batch element 1)', 'singular'],
                  dtype=np.float64)]),
    Spec('linalg_solve_left', lambda T, a, b: T.linalg.solve(_wc(T, a), b, left=False), [((2, 2), (3, 2))],
         grad_fn_differs='left=False solves the transposed system and transposes the solution back'),
    Spec('linalg_inv', lambda T, a: T.linalg.inv(_wc(T, a)), [((3, 3),), ((2, 2, 2),), ((1, 1),)],
         bad=[Bad(((3, 4),), ['linalg.inv', 'square', '3 by 4']),
              Bad(((3, 3),), ['linalg.inv', 'floating point'], **_INT)]),
    Spec('inverse', lambda T, a: T.inverse(a), [((2, 2),)],
         bad=[Bad((_SINGULAR,), ['linalg.inv', 'The diagonal element 2 is zero', 'singular'], dtype=np.float64),
              Bad((np.stack([np.eye(3), _SINGULAR]),), ['linalg.inv', '(Batch element 1)', 'singular'],
                  dtype=np.float64)]),
    Spec('inverse_method', lambda T, a: a.inverse(), [((2, 2),)]),
    Spec('linalg_det', lambda T, a: T.linalg.det(a), [((3, 3),), ((2, 2, 2),), ((1, 1),), ((2, 1, 3, 3),)],
         bad=[Bad(((3, 4),), ['linalg.det', 'square', '3 by 4']),
              Bad(((3,),), ['linalg.det', 'at least 2 dimensions']),
              Bad(((3, 3),), ['linalg.det', 'floating point'], **_INT)]),
    Spec('det', lambda T, a: T.det(a), [((2, 2),)]),
    Spec('det_method', lambda T, a: a.det(), [((2, 3, 3),)]),
    Spec('linalg_slogdet', lambda T, a: T.linalg.slogdet(a), [((3, 3),), ((2, 2, 2),), ((1, 1),)],
         bad=[Bad(((3, 4),), ['linalg.slogdet', 'square']),
              Bad(((3, 3),), ['linalg.slogdet', 'floating point'], **_INT)]),
    Spec('slogdet', lambda T, a: T.slogdet(a), [((2, 2),)]),
    Spec('slogdet_method', lambda T, a: a.slogdet(), [((2, 3, 3),)]),
    Spec('logdet', lambda T, a: T.logdet(_wc(T, a)), [((3, 3),), ((2, 2, 2),)],
         grad_fn_differs='logdet is logabsdet + log (sign) of slogdet, where torch ends in a where'),
    Spec('logdet_method', lambda T, a: _wc(T, a).logdet(), [((2, 2),)],
         grad_fn_differs='logdet is logabsdet + log (sign) of slogdet, where torch ends in a where'),
]

_HOUSEHOLDER = 'torch.linalg.householder_product'
SPECS += [
    Spec('linalg_matrix_exp', lambda T, a: T.linalg.matrix_exp(a), [((3, 3),), ((2, 2, 2),), ((1, 1),)],
         bad=[Bad(((3, 4),), ['linalg.matrix_exp', 'square', '3 by 4']),
              Bad(((3, 3),), ['matrix_exp', 'floating point'], **_INT)]),
    # a 1-norm up to 18: exp (A / 2^s) and s squarings; float64 only, since float32 gradients of
    # so large an exponential (entries up to e^18) differ from those of torch's float32 algorithm
    # (a Taylor polynomial of another degree) by more than float32's tolerance
    Spec('linalg_matrix_exp_scaled', lambda T, a: T.linalg.matrix_exp(3 * a), [((3, 3),), ((2, 2, 2),)],
         dtypes=(np.float64,)),
    Spec('matrix_exp', lambda T, a: T.matrix_exp(a), [((2, 2),)]),
    Spec('matrix_exp_method', lambda T, a: a.matrix_exp(), [((2, 3, 3),)]),
    Spec('linalg_householder_product', lambda T, a, tau: T.linalg.householder_product(a, tau),
         [((3, 2), (2,)), ((3, 3), (2,)), ((2, 3, 2), (2, 1)), ((4, 2), (1,)), ((2, 2), (2,))], low=-1.0, high=1.0,
         bad=[Bad(((3, 2), (3,)), [_HOUSEHOLDER, 'tau.shape[-1]']),
              Bad(((2, 3), (2,)), [_HOUSEHOLDER, 'input.shape[-2]']),
              Bad(((3,), (2,)), [_HOUSEHOLDER, 'at least 2 dimensions']),
              Bad(((2, 3, 2), (2,)), [_HOUSEHOLDER, 'one dimension less']),
              Bad(((2, 3, 2), (3, 2)), [_HOUSEHOLDER, 'batch dimensions of tau', '[3]']),
              Bad(((3, 2), np.ones(2, dtype=np.float64)), [_HOUSEHOLDER, 'tau dtype', 'float64', 'float32'])]),
    Spec('orgqr', lambda T, a, tau: T.orgqr(a, tau), [((3, 2), (2,))]),
    Spec('orgqr_method', lambda T, a, tau: a.orgqr(tau), [((2, 3, 2), (2, 2))]),
]


def _spd(T, a):
    """a aᵀ + I: symmetric positive-definite."""
    return a @ a.mT + T.eye(a.shape[-2], dtype=a.dtype)


_SPD = np.array([[4.0, 2.0], [2.0, 3.0]])
_NOT_PD = np.array([[1.0, 2.0], [2.0, 1.0]])
SPECS += [
    Spec('linalg_cholesky', lambda T, a: T.linalg.cholesky(_spd(T, a)), [((3, 3),), ((2, 2, 2),), ((1, 1),)]),
    Spec('linalg_cholesky_upper', lambda T, a: T.linalg.cholesky(_spd(T, a), upper=True), [((3, 3),), ((2, 2, 2),)]),
    # no gradcheck: cholesky reads one triangle, and its gradient (torch's) is the one for a
    # symmetric change, which finite differences of single entries are not
    Spec('linalg_cholesky_plain', lambda T, a: T.linalg.cholesky(a), [(_SPD,)], gradcheck=False,
         bad=[Bad((_NOT_PD,), ['linalg.cholesky', 'not positive-definite', 'leading minor of order 2'],
                  dtype=np.float64),
              Bad((np.stack([np.eye(2), -np.eye(2)]),), ['linalg.cholesky', '(Batch element 1)', 'order 1'],
                  dtype=np.float64),
              Bad(((3, 4),), ['linalg.cholesky', 'square', '3 by 4']),
              Bad(((3, 3),), ['linalg.cholesky', 'floating point'], **_INT)]),
]
