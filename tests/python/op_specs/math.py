"""Rows for the elementwise math functions (gnn-ops-math.c): logarithms, trigonometric and
hyperbolic functions, erf, the gamma functions, rounding, fmod and its kin, logit."""
import numpy as np

from opspec import Bad, P, Spec

_S = [((3, 4),), ((2, 3, 2),)]
_FLOAT_INTS = (np.float32, np.float64, np.int64)


def _unary(name, low=-2.0, high=2.0, **kw):
    return Spec(name, lambda T, x: getattr(T, name)(x), _S, low=low, high=high, **kw)


def _method(name, low=-2.0, high=2.0, **kw):
    return Spec(name + '_method', lambda T, x: getattr(x, name)(), [((2, 3),)], low=low, high=high, **kw)


# torch 1.13's trigamma (the gradient of digamma, the second derivative of lgamma) truncates its
# asymptotic series from x = 6 on, about 5e-10 relative; gnn sums the Hurwitz zeta function to
# double precision
_GAMMA_RTOL = 1e-8
_NO_GRADGRAD = 'the gradient does not depend on the input: its second derivative is 0'

SPECS = [
    _unary('reciprocal', 0.5, 2.0),
    _unary('rsqrt', 0.3, 3.0),
    _unary('log1p', -0.5, 2.0),
    _unary('expm1'),
    _unary('log2', 0.2, 3.0),
    _unary('log10', 0.2, 3.0),
    _unary('sin', -3.0, 3.0),
    _unary('cos', -3.0, 3.0),
    _unary('tan', -1.2, 1.2),
    _unary('asin', -0.9, 0.9),
    _unary('acos', -0.9, 0.9),
    _unary('atan', -3.0, 3.0),
    _unary('sinh'),
    _unary('cosh'),
    _unary('asinh', -3.0, 3.0),
    _unary('acosh', 1.2, 3.0),
    _unary('atanh', -0.9, 0.9),
    _unary('erf'),
    _unary('erfc'),
    _unary('erfinv', -0.9, 0.9),
    _unary('lgamma', 0.3, 4.0, dtypes=(np.float32,)),
    Spec('lgamma_float64', lambda T, x: T.lgamma(x), _S, low=0.3, high=4.0, dtypes=(np.float64,), rtol=_GAMMA_RTOL),
    _unary('digamma', 0.3, 4.0, dtypes=(np.float32,)),
    Spec('digamma_float64', lambda T, x: T.digamma(x), _S, low=0.3, high=4.0, dtypes=(np.float64,), rtol=_GAMMA_RTOL),
    _unary('square'),
    _method('sin', -3.0, 3.0),
    _method('erfinv', -0.9, 0.9),
    _method('log1p', -0.5, 2.0),
    Spec('arcsin_alias', lambda T, x: T.arcsin(x), [((2, 3),)], low=-0.9, high=0.9),
    Spec('polygamma', lambda T, x, n: T.polygamma(n, x), [((3, 4), 1), ((2, 3), 2), ((2, 2), 0)], low=0.3, high=4.0,
         dtypes=(np.float64,), rtol=_GAMMA_RTOL,
         bad=[Bad(((2, 2), -1), ['polygamma', 'negative'])]),
    Spec('polygamma_float32', lambda T, x, n: T.polygamma(n, x), [((3, 4), 1), ((2, 2), 0)], low=0.3, high=4.0,
         dtypes=(np.float32,)),
    Spec('polygamma_method', lambda T, x: x.polygamma(1), [((2, 3),)], low=0.3, high=4.0, dtypes=(np.float64,), rtol=_GAMMA_RTOL),
    # float-valued functions give float32 for integers
    Spec('sin_integral', lambda T, x: T.sin(x), [((3, 4),)], dtypes=(np.int64, np.bool_), low=-5, high=5),
    Spec('erf_integral', lambda T, x: x.erf(), [((3, 4),)], dtypes=(np.int64,), low=-3, high=3),
    # rounding: integers kept, bool refused
    Spec('floor', lambda T, x: T.floor(x), _S, dtypes=_FLOAT_INTS, low=-3, high=3, gradgrad=_NO_GRADGRAD),
    Spec('ceil', lambda T, x: T.ceil(x), _S, dtypes=_FLOAT_INTS, low=-3, high=3, gradgrad=_NO_GRADGRAD),
    Spec('trunc', lambda T, x: T.trunc(x), _S, dtypes=_FLOAT_INTS, low=-3, high=3, gradgrad=_NO_GRADGRAD),
    Spec('fix_alias', lambda T, x: T.fix(x), [((3, 4),)], low=-3, high=3, gradgrad=_NO_GRADGRAD),
    Spec('round', lambda T, x: T.round(x), _S, dtypes=_FLOAT_INTS, low=-3, high=3,
         gradgrad=_NO_GRADGRAD, bad=[Bad(((2, 2),), ['round', 'bool'], dtype=np.bool_)]),
    Spec('round_halves', lambda T, x: T.round(x), [(np.array([0.5, 1.5, 2.5, -0.5, -1.5]),)], gradcheck=False,
         tslice=False),
    Spec('round_method', lambda T, x: x.round(), [((3, 4),)], low=-3, high=3, gradgrad=_NO_GRADGRAD),
    Spec('round_decimals', lambda T, x, d: T.round(x, decimals=d),
         [(np.array([0.1234, 1.4567, -2.3412, 1234.5678]), 2), (np.array([1234.5678, -87.6, 13.0, 0.2]), -1)],
         gradgrad=_NO_GRADGRAD, rtol=1e-6),
    Spec('frac', lambda T, x: T.frac(x), [((3, 4),)], low=-3, high=3, gradgrad=_NO_GRADGRAD,
         bad=[Bad(((2, 2),), ['frac', 'int64'], dtype=np.int64)]),
    Spec('logit', lambda T, x: T.logit(x), _S, low=0.05, high=0.95),
    Spec('logit_eps', lambda T, x: T.logit(x, eps=0.2), [(np.array([[0.1, 0.35, 0.5], [0.7, 0.9, 0.25]]),)]),
    Spec('logit_method', lambda T, x: x.logit(0.1), [((2, 3),)], low=0.15, high=0.85),
    # binary, broadcasting
    Spec('atan2', lambda T, a, b: T.atan2(a, b), [((3, 4), (4,)), ((2, 1, 3), (1, 2, 1))]),
    Spec('arctan2_method', lambda T, a, b: a.arctan2(b), [((2, 3), (2, 3))]),
    Spec('xlogy', lambda T, a, b: T.xlogy(a, b), [((3, 4), (4,))], low=0.2, high=2.0),
    Spec('xlogy_zero', lambda T, a, b: T.xlogy(a, b),
         [(np.array([0.0, 0.0, 1.5, 2.0]), np.array([0.0, 2.0, 0.5, float('nan')]))], gradcheck=False, tslice=False),
    Spec('xlogy_scalar', lambda T, b: T.xlogy(2.0, b), [((2, 3),)], low=0.2, high=2.0,
         grad_fn_differs='torch names its number overload XlogyBackward1'),
    Spec('fmod', lambda T, a, b: T.fmod(a, b), [(np.array([[-7.3, 7.3, -2.2], [5.5, 0.4, -0.6]]),
                                                 np.array([2.0, -1.5, 0.7]))],
         gradgrad=_NO_GRADGRAD),
    Spec('fmod_scalar', lambda T, a: T.fmod(a, 1.5), [(np.array([[-7.3, 7.3, -2.2], [5.5, 0.4, -0.6]]),)],
         gradgrad=_NO_GRADGRAD, grad_fn_differs='torch names its number overload FmodBackward0'),
    Spec('remainder', lambda T, a, b: T.remainder(a, b), [(np.array([[-7.3, 7.3, -2.2], [5.5, 0.4, -0.6]]),
                                                           np.array([2.0, -1.5, 0.7]))],
         gradgrad=_NO_GRADGRAD),
    Spec('mod_operator', lambda T, a: a % 2.5, [(np.array([[-7.3, 7.3, -2.2], [5.5, 0.4, -0.6]]),)],
         gradgrad=_NO_GRADGRAD, grad_fn_differs='torch names its number overload RemainderBackward0'),
    Spec('fmod_integral', lambda T, a, b: T.fmod(a, b), [(np.array([-7, 7, -8, 5]), np.array([2, -2, 3, -1]))],
         dtypes=(np.int64, np.int32), bad=[Bad((np.array([3, 4]), np.array([1, 0])), ['ZeroDivisionError'],
                                              dtype=np.int64)]),
    Spec('remainder_integral', lambda T, a, b: T.remainder(a, b), [(np.array([-7, 7, -8, 5]), np.array([2, -2, 3, -1]))],
         dtypes=(np.int64,)),
    Spec('floor_divide', lambda T, a, b: T.floor_divide(a, b),
         [(np.array([[-7.0, 7.0, -7.5], [5.5, 0.0, 3.0]]), np.array([2.0, -2.0, 1.5]))],
         dtypes=(np.float32, np.float64, np.int64), grad=False),
    Spec('floordiv_operator', lambda T, a: a // 2, [(np.array([-7, 7, -8, 5]),)], dtypes=(np.int64,)),
    Spec('div_floor', lambda T, a, b: T.div(a, b, rounding_mode='floor'),
         [(np.array([-7, 7, -8, 5]), np.array([2, -2, 3, -1]))], dtypes=(np.int64, np.float64), grad=False),
    Spec('div_trunc', lambda T, a, b: T.div(a, b, rounding_mode='trunc'),
         [(np.array([-7, 7, -8, 5]), np.array([2, -2, 3, -1]))], dtypes=(np.int64,)),
    Spec('atan2_integral', lambda T, a, b: T.atan2(a, b), [((3, 4), (4,))], dtypes=(np.int64,), low=-3, high=3),
]
