"""Rows for gnn-ops-diag.c (diag, diag_embed, diagflat, trace, rot90, diff, tril_indices and
triu_indices) and gnn-ops-numeric.c (cov, corrcoef, inner, vander, trapezoid)."""
import numpy as np

from opspec import Bad, Spec

SPECS = [
    Spec('diag_matrix', lambda T, x, d: T.diag(x, d), [((3, 4), 0), ((3, 4), 1), ((4, 3), -2), ((3, 4), -3)],
         bad=[Bad(((2, 2, 2), 0), ['matrix or a vector expected'])]),
    Spec('diag_vector', lambda T, x, d: T.diag(x, d), [((4,), 0), ((3,), 2), ((3,), -1)]),
    Spec('diag_method', lambda T, x: x.diag(diagonal=1), [((3, 3),)]),
    Spec('diag_integral', lambda T, x: T.diag(x), [((3,),), ((3, 3),)], dtypes=(np.int64, np.bool_), low=-3, high=3),
    Spec('diag_embed', lambda T, x, o, a, b: T.diag_embed(x, o, a, b),
         [((3, 4), 0, -2, -1), ((2, 3), 1, 0, 2), ((2, 3), -2, 2, 0), ((4,), 0, 0, 1), ((2, 2, 3), 1, 1, 3)],
         bad=[Bad(((2, 3), 0, 1, 1), ['diagonal dimensions cannot be identical'])]),
    Spec('diag_embed_method', lambda T, x: x.diag_embed(), [((2, 3),)]),
    Spec('diagflat', lambda T, x, o: T.diagflat(x, o), [((2, 3), 0), ((4,), -1), ((2, 2), 2)]),
    Spec('diagflat_method', lambda T, x: x.diagflat(1), [((3,),)]),
    # wide and square only: torch 1.13's backward of a tall matrix's trace puts ones off the
    # diagonal (at every (rows + 1)-th element of the flat gradient); test_ops_unary checks gnn's
    Spec('trace', lambda T, x: T.trace(x), [((3, 3),), ((3, 5),)],
         bad=[Bad(((2, 2, 2),), ['trace: expected a matrix, but got tensor with dim 3'])]),
    Spec('trace_method', lambda T, x: x.trace(), [((4, 4),)]),
    Spec('trace_integral', lambda T, x: T.trace(x), [((3, 3),)], dtypes=(np.int64,), low=-5, high=5),
    Spec('rot90', lambda T, x, k, dims: T.rot90(x, k, dims),
         [((3, 4), 1, [0, 1]), ((3, 4), 2, [0, 1]), ((3, 4), 3, [0, 1]), ((3, 4), -1, [0, 1]), ((3, 4), 0, [0, 1]),
          ((2, 3, 4), 1, [2, 0]), ((2, 3, 4), 5, [-1, -2])],
         bad=[Bad(((3, 4), 1, [0]), ['expected total rotation dims == 2']),
              Bad(((3, 4), 1, [1, 1]), ['expected rotation dims to be different'])]),
    Spec('rot90_default', lambda T, x: T.rot90(x), [((3, 4),)]),
    Spec('rot90_method', lambda T, x: x.rot90(1, [1, 0]), [((2, 3),)]),
    Spec('rot90_vector', lambda T, x: T.rot90(x), [((2, 2),)], bad=[Bad(((3,),), ['expected total dims >= 2'])]),
    Spec('diff', lambda T, x, n, d: T.diff(x, n, d), [((3, 5), 1, -1), ((3, 5), 2, 0), ((4, 3, 2), 3, 1), ((6,), 1, 0),
                                                      ((3, 5), 7, 1)],
         bad=[Bad(((), 1, 0), ['diff expects input to be at least one-dimensional'])]),
    Spec('diff_prepend_append', lambda T, x, p, a: T.diff(x, 1, 1, p, a), [((3, 4), (3, 2), (3, 1))]),
    Spec('diff_method', lambda T, x: x.diff(dim=0), [((4, 3),)]),
    Spec('diff_integral', lambda T, x: T.diff(x, 2), [((3, 5),)], dtypes=(np.int64, np.bool_), low=-4, high=4),
    Spec('tril_indices', lambda T: (T.tril_indices(3, 4), T.tril_indices(4, 3, 1), T.tril_indices(3, 3, -5),
                                    T.tril_indices(0, 3), T.tril_indices(2, 5, 9)),
         [()], dtypes=(np.float32,), grad=False),
    Spec('triu_indices', lambda T: (T.triu_indices(3, 4), T.triu_indices(4, 3, -1), T.triu_indices(3, 3, 5),
                                    T.triu_indices(2, 5, -9)),
         [()], dtypes=(np.float32,), grad=False),
    Spec('cov', lambda T, x: T.cov(x), [((3, 6),), ((7,),), ((1, 5),)]),
    Spec('cov_correction', lambda T, x, c: T.cov(x, correction=c), [((2, 5), 0), ((3, 4), 2)]),
    Spec('cov_weights', lambda T, x: (T.cov(x, fweights=T.tensor([1, 2, 1, 3, 1])),
                                      T.cov(x, aweights=T.tensor([0.5, 1.0, 2.0, 0.25, 1.5], dtype=x.dtype)),
                                      T.cov(x, correction=3, fweights=T.tensor([1, 2, 1, 3, 1]),
                                            aweights=T.tensor([0.5, 1.0, 2.0, 0.25, 1.5], dtype=x.dtype))),
         [((3, 5),)]),
    Spec('cov_method', lambda T, x: x.cov(correction=0), [((2, 4),)]),
    Spec('cov_integral', lambda T, x: T.cov(x), [((2, 5),)], dtypes=(np.int64,), low=-5, high=5),
    Spec('cov_bad', lambda T, x: T.cov(x), [((2, 3),)],
         bad=[Bad(((2, 2, 2),), ['cov(): expected input to have two or fewer dimensions'])]),
    Spec('cov_bad_weights', lambda T, x, w: T.cov(x, fweights=w), [((2, 5), np.array([1, 2, 1, 1, 3]))],
         bad=[Bad(((2, 5), (5,)), ['fweights to have integral dtype']),
              Bad(((2, 5), np.array([1, 2])), ['same numel as there are observations'], dtype=np.int64)]),
    Spec('corrcoef', lambda T, x: T.corrcoef(x), [((3, 6),), ((6,),)]),
    Spec('corrcoef_method', lambda T, x: x.corrcoef(), [((2, 5),)]),
    Spec('inner', lambda T, a, b: T.inner(a, b), [((3, 4), (2, 4)), ((4,), (4,)), ((2, 3, 4), (4,)), ((), (3, 2))],
         grad_fn_differs="torch's inner ends in a reshape of its matmul (ReshapeAliasBackward0); gnn's is "
                         "tensordot's"),
    Spec('inner_bad', lambda T, a, b: T.inner(a, b), [((2, 3), (3,))], grad_fn_differs='as inner',
         bad=[Bad(((3, 4), (3,)), ['inner() the last dimension must match'])]),
    Spec('vander', lambda T, x: (T.vander(x), T.vander(x, 2), T.vander(x, N=5, increasing=True), T.vander(x, 1),
                                 T.vander(x, 0)),
         [((4,),)], low=-1.5, high=1.5,
         # torch 1.13 cannot differentiate vander (its cumprod writes into a slice of a tensor
         # the backward needs: "modified by an inplace operation"); gnn's gradient is that of
         # cat, cumprod and flip, each gradchecked in its own rows
         grad=False),
    Spec('vander_integral', lambda T, x: T.vander(x, 4), [((3,),)], dtypes=(np.int64, np.bool_), low=-3, high=3),
    Spec('trapezoid', lambda T, y: (T.trapezoid(y), T.trapezoid(y, dx=0.5, dim=0)),
         [((3, 5),), ((4,),)],
         grad_fn_differs="torch multiplies by dx as a C++ number (MulBackward1); gnn's node is the Python "
                         "spelling's MulBackward0"),
    Spec('trapezoid_x', lambda T, y, x: T.trapezoid(y, x), [((3, 5), (5,)), ((3, 5), (3, 5))],
         grad_fn_differs="torch divides by 2 as a C++ number (DivBackward1); gnn's node is the Python "
                         "spelling's DivBackward0"),
    Spec('trapz', lambda T, y: T.trapz(y, dim=0), [((4, 2),)],
         grad_fn_differs="torch multiplies by dx as a C++ number (MulBackward1); gnn's node is the Python "
                         "spelling's MulBackward0"),
]
