"""Rows for the scans (cumsum, cumprod, logcumsumexp), sorting and the reductions built on them."""
import numpy as np

from opspec import Bad, P, Spec

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
         [(_ZEROS64, 1), (_ZEROS64, 0), (_ZEROS64_3D, 1), (_ZEROS64_3D, 2)], dtypes=(np.float64,)),
    Spec('cumprod_zeros_float32', lambda T, x: T.cumprod(x, 1), [(_ZEROS32,)], dtypes=(np.float32,)),
    Spec('cumprod_integral', lambda T, x: T.cumprod(x, 1, dtype=T.int64), [((3, 4),)],
         dtypes=(np.int64, np.bool_), low=-3, high=3),
    Spec('logcumsumexp', lambda T, x, d: T.logcumsumexp(x, d), [((3, 4), 1), ((2, 3, 4), 0), ((2, 3, 4), -1),
                                                                ((5,), 0)],
         low=-4, high=4,
         bad=[Bad(((3, 4), 1), ['logcumsumexp', 'int64'], dtype=np.int64),
              Bad(((3, 4), 2), ['Dimension out of range'])]),
    Spec('logcumsumexp_large', _logcumsumexp_big, [((2, 5),)], rtol=1e-5),
]
