"""Rows for the scans (cumsum, cumprod, logcumsumexp), sorting and the reductions built on them."""
import numpy as np

from opspec import Bad, P, Spec

_NAN = float('nan')
# ties and NaN: a stable sort keeps equal values in order, NaN sorts as the largest value
_TIES = np.array([[2.0, 1.0, _NAN, 2.0, 1.0, _NAN, 3.0], [0.5, 0.5, 0.5, -1.0, 4.0, -1.0, 0.5]])

# inputs with zeros, where cumprod's gradient may not divide: one zero, two zeros, a zero first
_ZEROS64 = np.array([[2.0, 0.0, 3.0, 0.5, -1.5],
                     [0.0, 1.5, -2.0, 0.0, 0.7],
                     [1.2, -0.8, 1.1, 0.9, 0.0]])
_ZEROS32 = _ZEROS64.astype(np.float32)
# the same along dim 0 (zeros in columns) and a 3-d one
_ZEROS64_3D = np.array([[[0.5, 0.0], [2.0, 1.0], [-1.0, 0.0]],
                        [[0.0, 3.0], [1.5, 0.0], [0.8, -2.0]]])


def _logcumsumexp_big(T, x):
    # values far beyond exp's range: the scan must not overflow
    return T.logcumsumexp(x * 500, 1)


SPECS = [
    Spec('cumsum', lambda T, x, d: T.cumsum(x, d), [((3, 4), 1), ((2, 3, 4), 0), ((2, 3, 4), -1), ((5,), 0),
                                                    ((), 0), ((2, 0, 3), 1)],
         bad=[Bad(((3, 4), 2), ['Dimension out of range', '2']),
              Bad(((3, 4), -3), ['Dimension out of range', '-3'])]),
    Spec('cumsum_method_dtype', lambda T, x: x.cumsum(1, dtype=T.float64), [((3, 4),), ((2, 3, 2),)],
         dtypes=(np.float32,)),
    Spec('cumsum_integral', lambda T, x: T.cumsum(x, 0), [((4, 3),), ((2, 3, 2),)],
         dtypes=(np.int64, np.bool_, np.uint8), low=-9, high=9),
    Spec('cumprod', lambda T, x, d: T.cumprod(x, d), [((3, 4), 1), ((2, 3, 4), 0), ((2, 3, 4), -1), ((6,), 0)],
         low=0.5, high=1.5, bad=[Bad(((3, 4), 2), ['Dimension out of range'])]),
    Spec('cumprod_signs', lambda T, x: x.cumprod(-1), [((3, 5),)]),
    Spec('cumprod_zeros', lambda T, x, d: T.cumprod(x, d),
         [(_ZEROS64, 1), (_ZEROS64, 0), (_ZEROS64_3D, 1), (_ZEROS64_3D, 2)], dtypes=(np.float64,),
         gradgrad='the double backward of cumprod on inputs with zeros is refused (NOT_SUPPORTED) '
                  'under create_graph: its zero branch was not yet torch\'s'),
    Spec('cumprod_zeros_float32', lambda T, x: T.cumprod(x, 1), [(_ZEROS32,)], dtypes=(np.float32,)),
    Spec('cumprod_integral', lambda T, x: T.cumprod(x, 1, dtype=T.int64), [((3, 4),)],
         dtypes=(np.int64, np.bool_), low=-3, high=3),
    Spec('logcumsumexp', lambda T, x, d: T.logcumsumexp(x, d), [((3, 4), 1), ((2, 3, 4), 0), ((2, 3, 4), -1),
                                                                ((5,), 0)],
         low=-4, high=4,
         bad=[Bad(((3, 4), 1), ['logcumsumexp', 'int64'], dtype=np.int64),
              Bad(((3, 4), 2), ['Dimension out of range'])]),
    # float32: the input is scaled by 500, so one ulp of x * 500 (6e-5 near 1000) is a relative error of
    # about 6e-5 in each exp (x_i - out_j) of the gradient; float32 torch and float32 gnn each differ from
    # float64 torch by up to 5e-5 there, and from each other by the last bits of exp on a given CPU
    Spec('logcumsumexp_large', _logcumsumexp_big, [((2, 5),)], rtol={np.float32: 1e-4, np.float64: 1e-5}),
    Spec('sort', lambda T, x, d, desc: T.sort(x, d, desc), [((3, 5), 1, False), ((2, 3, 4), 0, True),
                                                            ((2, 3, 4), -1, False), ((6,), 0, True), ((), 0, False)],
         bad=[Bad(((3, 4), 2, False), ['Dimension out of range'])]),
    Spec('sort_stable_ties', lambda T, x, desc: x.sort(stable=True, descending=desc, dim=1),
         [(_TIES, False), (_TIES, True)], dtypes=(np.float64,), gradcheck=False,
         grad_fn_differs='torch names the node of its stable= overload SortBackward1'),
    Spec('sort_integral', lambda T, x: T.sort(x, dim=0, descending=True, stable=True), [((5, 3),)], dtypes=(np.int64, np.bool_),
         low=-3, high=3),
    Spec('argsort', lambda T, x, d, desc: T.argsort(x, d, desc), [((3, 5), 1, False), ((2, 3, 4), 0, True)], grad=False),
    Spec('argsort_stable_ties', lambda T, x: T.argsort(x, dim=1, stable=True), [(_TIES,)], dtypes=(np.float64,), grad=False),
    Spec('msort', lambda T, x: T.msort(x), [((4, 3),), ((5,),)]),
    Spec('topk', lambda T, x, k, d, largest: T.topk(x, k, d, largest), [((3, 5), 2, 1, True), ((2, 4, 3), 3, 1, False),
                                                                        ((6,), 6, 0, True), ((2, 3), 0, -1, True)],
         bad=[Bad(((3, 4), 5, 1, True), ['topk', 'k out of range']),
              Bad(((3, 4), -1, 1, True), ['topk', 'k out of range'])]),
    Spec('topk_method', lambda T, x: x.topk(2), [((2, 3, 4),)]),
]

# multinomial's draws are gnn's own (its generator is not torch's): the rows compare its errors,
# test_ops_sampling.py its distribution
_P = np.array([0.2, 0.3, 0.5])
SPECS += [
    Spec('multinomial_errors', lambda T, p, n, r: T.multinomial(p, n, r), [], grad=False,
         bad=[Bad((np.array([-0.1, 0.3]), 1, True), ['multinomial', 'element < 0']),
              Bad((np.array([float('inf'), 0.3]), 1, False), ['multinomial', '`inf`, `nan`']),
              Bad((np.array([0.3, float('nan')]), 1, True), ['multinomial', '`inf`, `nan`']),
              Bad((np.array([[1.0, 1.0], [0.0, 0.0]]), 1, True), ['multinomial', 'sum of probabilities <= 0']),
              Bad((_P, 4, False), ['multinomial', 'cannot sample n_sample > prob_dist.size(-1)']),
              Bad((_P, 0, True), ['multinomial', 'n_sample <= 0']),
              Bad((np.ones((1, 1, 2)), 1, True), ['multinomial', 'must be 1 or 2 dim']),
              Bad((np.array([1, 2]), 1, True), ['multinomial only supports floating-point dtypes'])]),
]

# norms and distances (gnn-ops-norms.c)
_INF = float('inf')
# a zero row (the 2-norm's subgradient 0 at x = 0) and ties for the infinity norms' extreme
_NORM_ZERO = np.array([[0.0, 0.0, 0.0], [1.0, -2.0, 0.5]])
_NORM_TIES = np.array([[1.0, -3.0, 3.0], [2.0, 2.0, -1.0]])
_ONE_INF = 'the second derivative of the 1- and infinity norms differs from torch 1.13\'s (not yet found why)'
_AT_ZERO = 'the second derivative at x = 0 is not defined (gnn and torch pick different values)'
SPECS += [
    Spec('linalg_vector_norm', lambda T, x, o, d, k: T.linalg.vector_norm(x, o, d, k),
         [((3, 4), 2, None, False), ((2, 3, 4), 3, P((0, 2)), True),
          ((3, 4), 0.5, -1, False), ((5,), 2.5, 0, False), ((), 2, None, False)],
         bad=[Bad(((3, 4), 2, 2, False), ['Dimension out of range']),
              Bad(((3, 4), 2, P((1, 1)), False), ['linalg.vector_norm', 'appears multiple times']),
              Bad(((3, 4), 2, None, False), ['linalg.vector_norm', 'floating point', 'int64'], dtype=np.int64)]),
    Spec('linalg_vector_norm_1_inf', lambda T, x, o, d, k: T.linalg.vector_norm(x, o, d, k),
         [((3, 4), 1, 1, False), ((3, 4), _INF, 0, False), ((2, 3, 4), -_INF, P((1, 2)), True)],
         gradgrad=_ONE_INF),
    Spec('linalg_vector_norm_ord0', lambda T, x: T.linalg.vector_norm(x, 0, 1), [(np.array([[0.0, 1.5, -2.0], [0.0, 0.0, 3.0]]),)],
         grad=False),
    Spec('linalg_vector_norm_dtype', lambda T, x: T.linalg.vector_norm(x, 2, -1, dtype=T.float64), [((3, 4),)],
         dtypes=(np.float32,)),
    Spec('linalg_vector_norm_at_zero', lambda T, x, o: T.linalg.vector_norm(x, o, 1), [(_NORM_ZERO, 2), (_NORM_ZERO, 3),
                                                                                      (_NORM_ZERO, 1)],
         dtypes=(np.float64,), gradcheck=False, gradgrad=_AT_ZERO),
    Spec('linalg_vector_norm_ties', lambda T, x, o: T.linalg.vector_norm(x, o, 1), [(_NORM_TIES, _INF), (_NORM_TIES, -_INF)],
         dtypes=(np.float64,), gradcheck=False),
    Spec('norm', lambda T, x: T.norm(x), [((3, 4),), ((2, 3, 4),)]),
    Spec('norm_method', lambda T, x, p, d, k: x.norm(p, d, k),
         [((3, 4), 3, None, False), ((2, 3, 4), 2, P((0, 2)), True)]),
    Spec('norm_fro_dims', lambda T, x: x.norm('fro', (0, 1)), [((2, 3, 4),)],
         grad_fn_differs='torch 1.13 composes \'fro\' over dims as sqrt (sum (x * x)) (SqrtBackward0); '
                         'gnn takes its 2-norm (NormBackward1)'),
    Spec('norm_method_1_inf', lambda T, x, p, d, k: x.norm(p, d, k), [((3, 4), 1, 1, False), ((3, 4), _INF, 0, True)],
         gradgrad=_ONE_INF),
    Spec('linalg_matrix_norm', lambda T, x, o, k: T.linalg.matrix_norm(x, o, keepdim=k),
         [((3, 4), 'fro', False), ((2, 3, 4), 'fro', True), ((3, 4), _INF, False), ((2, 3, 4), -_INF, True),
          ((3, 4), 1, False), ((2, 3, 4), -1, False)],
         gradgrad=_ONE_INF,
         bad=[Bad(((4,), 1, False), ['linalg.matrix_norm', 'at least 2 dimensions']),
              Bad(((3, 4), 3, False), ['linalg.matrix_norm', 'Order 3 not supported'])]),
    Spec('linalg_matrix_norm_dims', lambda T, x: T.linalg.matrix_norm(x, 1, dim=(2, 0)), [((3, 2, 4),), ((2, 2, 3),)],
         gradgrad=_ONE_INF),
    Spec('linalg_norm', lambda T, x, o, d: T.linalg.norm(x, o, d), [((3, 4), None, None), ((2, 3, 4), None, P((0, 2))),
                                                                  ((3, 4), _INF, None), ((4,), 3, None),
                                                                  ((2, 3, 4), 1, -1), ((2, 3, 4), -1, P((1, 2)))],
         gradgrad=_ONE_INF, bad=[Bad(((2, 3, 4), 2, None), ['linalg.norm', 'must be 1D or 2D'])]),
    Spec('normalize', lambda T, x, p, d: T.nn.functional.normalize(x, p, d), [((3, 4), 2.0, 1), ((2, 3, 4), 1.0, 0),
                                                                             ((5,), 3.0, 0), ((3, 4), _INF, -1)]),
    Spec('normalize_eps', lambda T, x: T.nn.functional.normalize(x * 1e-3, eps=1e-2), [((3, 4),)]),
    Spec('dist', lambda T, x, y, p: T.dist(x, y, p), [((3, 4), (4,), 2), ((2, 3), (2, 3), 1), ((3, 4), (3, 1), 3),
                                                      ((2, 3), (2, 3), _INF)], gradgrad=_ONE_INF),
    Spec('cdist', lambda T, x, y, p: T.cdist(x, y, p), [((3, 4), (5, 4), 2.0), ((2, 3, 4), (2, 5, 4), 1.0),
                                                        ((2, 3, 2), (1, 4, 2), 3.0), ((3, 2), (2, 2), _INF)],
         gradgrad='torch 1.13 has no double backward of cdist (_cdist_backward) to compare with',
         bad=[Bad(((3, 4), (5, 3), 2.0), ['cdist', 'same number of columns']),
              Bad(((4,), (5, 4), 2.0), ['cdist only supports at least 2D tensors'])]),
]

# the reductions and predicates written with other ops (gnn-ops-reduce.c, gnn-ops-predicates.c)
_NINF = -_INF
# a row of -inf, a row holding +inf, an ordinary row
_LSE_INF = np.array([[_NINF, _NINF, _NINF], [1.0, _INF, -2.0], [0.5, -1.0, 2.0]])
# NaN, both infinities, zeros
_SPECIAL = np.array([[_NAN, 1.5, _INF, 0.0], [_NINF, 0.0, -2.0, 0.7], [0.3, _NAN, 0.0, -0.4]])
# NaN among finite values (finite differences need a finite sum)
_NANS = np.array([[_NAN, 1.5, 0.2, 0.0], [-0.8, 0.0, -2.0, 0.7], [0.3, _NAN, _NAN, -0.4]])
_BOOLS = np.array([[True, False, True], [True, True, True]])
SPECS += [
    Spec('logsumexp', lambda T, x, d, k: T.logsumexp(x, d, k),
         [((3, 4), 1, False), ((2, 3, 4), P((0, 2)), True), ((5,), 0, False), ((), 0, False), ((2, 0), 1, False)],
         bad=[Bad(((3, 4), 2, False), ['Dimension out of range', '2'])]),
    Spec('logsumexp_method_large', lambda T, x: (x * 300).logsumexp(-1), [((3, 4),)]),
    # the gradient at the rows of -inf and +inf is NaN (exp (x - logsumexp)) in both libraries, which
    # the comparison with torch accepts; finite differences across an infinity mean nothing
    Spec('logsumexp_inf', lambda T, x: T.logsumexp(x, 1), [(_LSE_INF,)], dtypes=(np.float64,), gradcheck=False),
    Spec('logsumexp_integral', lambda T, x: T.logsumexp(x, 0), [((3, 2),)], dtypes=(np.int64,), low=-5, high=5),
    Spec('prod', lambda T, x, d, k: T.prod(x, d, k), [((3, 4), 1, False), ((2, 3, 4), 0, True), ((2, 3, 4), -1, False),
                                                      ((5,), 0, False), ((2, 1), 1, False), ((), 0, True)],
         low=0.5, high=1.5, bad=[Bad(((3, 4), 2, False), ['Dimension out of range'])]),
    Spec('prod_all', lambda T, x: T.prod(x), [((3, 4),), ((2, 3, 2),), ((1,),)], low=0.5, high=1.5),
    Spec('prod_method_signs', lambda T, x: x.prod(0), [((4, 3),)]),
    Spec('prod_zeros', lambda T, x, d: T.prod(x, d), [(_ZEROS64, 1), (_ZEROS64, 0), (_ZEROS64_3D, 1)],
         dtypes=(np.float64,)),
    Spec('prod_all_zeros', lambda T, x: x.prod(), [(_ZEROS64[:1],), (_ZEROS64[:, 2:4],)], dtypes=(np.float64,)),
    Spec('prod_all_two_zeros', lambda T, x: x.prod(), [(_ZEROS64_3D[:, :1],)], dtypes=(np.float64,),
         gradgrad='with two zeros torch 1.13\'s ProdBackward0 gives zeros_like (input), no second derivative; '
                  'gnn\'s gradient, the product of the others, has the exact one (test-ops-reduce checks it against finite differences)'),
    Spec('prod_dtype', lambda T, x: T.prod(x, 1, dtype=T.float64), [((3, 4),)], dtypes=(np.float32,)),
    Spec('prod_integral', lambda T, x: (T.prod(x, 0), T.prod(x)), [((3, 2),)],
         dtypes=(np.int64, np.bool_, np.uint8), low=-3, high=3),
    Spec('all_any', lambda T, x: (T.all(x), T.any(x), x.all(1), x.any(0, True), T.all(x, -1, keepdim=True)),
         [(_SPECIAL,), (_BOOLS,), ((2, 0),)], dtypes=(np.float64,), grad=False),
    Spec('all_dim', lambda T, x, d: T.all(x, d), [((3, 4), 1)], grad=False,
         bad=[Bad(((3, 4), 2), ['Dimension out of range'])]),
    Spec('all_any_integral', lambda T, x: (T.all(x, 0), T.any(x, 1), x.all()), [((3, 4),)],
         dtypes=(np.int64, np.uint8, np.bool_), low=0, high=2),
    Spec('count_nonzero', lambda T, x: (T.count_nonzero(x), T.count_nonzero(x, 1), x.count_nonzero((0, 1))),
         [(_SPECIAL,), ((2, 3, 4),)], dtypes=(np.float64,), grad=False),
    Spec('count_nonzero_dims', lambda T, x, d: T.count_nonzero(x, d), [((2, 3, 4), P((0, 2)))], grad=False,
         bad=[Bad(((3, 4), 3), ['Dimension out of range']),
              Bad(((3, 4), P((1, 1))), ['count_nonzero', 'appears multiple times'])]),
    Spec('predicates', lambda T, x: (T.isnan(x), T.isinf(x), T.isposinf(x), T.isneginf(x), T.isfinite(x),
                                     T.isreal(x), x.isnan(), x.isfinite()),
         [(_SPECIAL,), ((3, 4),)], dtypes=(np.float32, np.float64), grad=False),
    Spec('predicates_integral', lambda T, x: (T.isnan(x), T.isinf(x), T.isposinf(x), T.isneginf(x), T.isfinite(x),
                                              T.isreal(x)),
         [((3, 4),)], dtypes=(np.int64, np.bool_, np.uint8), low=0, high=3),
    Spec('nan_to_num', lambda T, x: T.nan_to_num(x), [((3, 4),), (_NANS,)]),
    # the largest float replacing +inf makes the finite differences overflow: gradients against torch only
    Spec('nan_to_num_inf', lambda T, x: T.nan_to_num(x), [(_SPECIAL,)], gradcheck=False),
    Spec('nan_to_num_values', lambda T, x: x.nan_to_num(nan=2.5, posinf=9.0, neginf=-7.0), [(_SPECIAL,)]),
    Spec('nan_to_num_integral', lambda T, x: T.nan_to_num(x, 1.0), [((3, 4),)], dtypes=(np.int64,), low=-5, high=5),
    Spec('nansum', lambda T, x, d, k: T.nansum(x, d, k), [((3, 4), 1, False), ((2, 3, 4), P((0, 2)), True),
                                                         ((3, 4), None, False), (_NANS, 0, False), (_NANS, None, True)]),
    Spec('nansum_integral', lambda T, x: T.nansum(x, 0), [((3, 4),)], dtypes=(np.int64,), low=-5, high=5),
    Spec('nanmean', lambda T, x, d, k: T.nanmean(x, d, k), [((3, 4), 1, False), ((2, 3, 4), P((0, 2)), True),
                                                           ((3, 4), None, False), (_NANS, 1, False),
                                                           (_NANS, None, False)],
         bad=[Bad(((3, 4), 1, False), ['nanmean', 'floating point'], dtype=np.int64)]),
    Spec('var_mean', lambda T, x, d, k: T.var_mean(x, d, keepdim=k), [((3, 4), 1, False), ((2, 3, 4), P((0, 2)), True),
                                                                     ((3, 4), None, False), ((5,), 0, True)],
         bad=[Bad(((3, 4), 1, False), ['var_mean', 'floating point'], dtype=np.int64)]),
    Spec('var_mean_correction', lambda T, x: (T.var_mean(x, 1, unbiased=False), T.var_mean(x, 0, correction=2)),
         [((3, 4),), ((4, 3),)]),
    Spec('std_mean', lambda T, x, d, k: T.std_mean(x, d, keepdim=k), [((3, 4), 1, False), ((2, 3, 4), P((0, 2)), True),
                                                                     ((3, 4), None, False)],
         bad=[Bad(((3, 4), 1, False), ['std_mean', 'floating point'], dtype=np.int64)]),
    Spec('std_mean_unbiased', lambda T, x: T.std_mean(x, False), [((3, 4),)]),
]
