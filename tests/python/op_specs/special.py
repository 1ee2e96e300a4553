"""Rows for torch.special (gnn-ops-math.c): the modified Bessel functions I0 and I1 and their
scaled forms, the normal distribution's ndtr, ndtri and log_ndtr, erfcx, entr and xlog1py, and
the functions torch.special names a second time."""
import numpy as np

from opspec import Bad, Spec

_S = [((3, 4),), ((2, 3, 2),)]
_NAN = float('nan')
_INF = float('inf')
# as math.py's gamma rows: torch 1.13's trigamma truncates its series (about 5e-10 relative), so
# float64 compares at 1e-8; float32 at the default
_GAMMA_RTOL = {np.float64: 1e-8}


def _special(name, low=-2.0, high=2.0, **kw):
    return Spec('special_' + name, lambda T, x: getattr(T.special, name)(x), _S, low=low, high=high, **kw)


# the tails and special points, with values torch computes in closed form or as limits
_BESSEL_POINTS = np.array([0.0, -0.0, 1e-3, -2.5, 15.0, 29.9, 30.1, -45.0, 80.0, _NAN])
_NDTRI_POINTS = np.array([0.0, 1.0, 0.5, 1e-30, 1e-7, 0.02, 0.999, 1 - 1e-9, -0.1, 1.5, _NAN])
_LOG_NDTR_POINTS = np.array([-40.0, -20.0, -5.0, -1.0, -0.999, 0.0, 3.0, 8.0, _INF, -_INF, _NAN])
_ERFCX_POINTS = np.array([-26.0, -3.0, -0.5, 0.0, 0.7, 10.0, 24.9, 25.1, 1e5, _INF, _NAN])
_ENTR_POINTS = np.array([0.0, -1.0, 1.0, 0.5, 1e-30, 1e30, _INF, _NAN])

SPECS = [
    _special('i0', -4.0, 4.0),
    Spec('i0_function', lambda T, x: T.i0(x), [((3, 4),)], low=-4.0, high=4.0),
    Spec('i0_method', lambda T, x: x.i0(), [((2, 3),)]),
    Spec('i0_integral', lambda T, x: T.special.i0(x), [((3, 4),)], dtypes=(np.int64, np.bool_), low=-5, high=5),
    _special('i0e', -4.0, 4.0),
    _special('i1', -4.0, 4.0),
    _special('i1e', -4.0, 4.0),
    # float32 at 80 overflows in I0 and I1, as in torch; the scaled forms stay finite
    Spec('special_bessel_points', lambda T, x: (T.special.i0(x), T.special.i0e(x), T.special.i1(x),
                                                T.special.i1e(x)),
         [(_BESSEL_POINTS,)], gradcheck=False, tslice=False, grad=False),
    Spec('special_i1_gradient_at_zero', lambda T, x: (T.special.i1(x), T.special.i1e(x), T.special.i0e(x)),
         [(np.array([0.0, 1.0, -1.0]),)], gradcheck=False, tslice=False,
         gradgrad='at 0 the gradient is the constant 1/2 in both; its derivative there is the masked branch '
                  '(I0 - I1/x), NaN in gnn and -0.059 in torch, where I1 (odd) has I1\'\'(0) = 0'),
    _special('ndtr', -3.0, 3.0,
             grad_fn_differs="torch multiplies by 0.5 as a C++ number (mul.Scalar, MulBackward1); gnn's "
                             "node is the Python spelling's MulBackward0"),
    Spec('special_ndtr_integral', lambda T, x: T.special.ndtr(x), [((3, 4),)], dtypes=(np.int64,), low=-3, high=3,
         grad_fn_differs="as special_ndtr"),
    _special('ndtri', 0.02, 0.98),
    Spec('special_ndtri_points', lambda T, x: T.special.ndtri(x), [(_NDTRI_POINTS,)], gradcheck=False,
         tslice=False, grad=False),
    _special('log_ndtr', -6.0, 4.0),
    Spec('special_log_ndtr_points', lambda T, x: T.special.log_ndtr(x), [(_LOG_NDTR_POINTS,)], gradcheck=False,
         tslice=False, grad=False),
    Spec('special_log_ndtr_tail_gradient', lambda T, x: T.special.log_ndtr(x),
         [(np.array([-30.0, -12.0, -2.0, 0.5]),)], gradcheck=False, tslice=False),
    _special('erfcx', -2.0, 4.0),
    Spec('special_erfcx_points', lambda T, x: T.special.erfcx(x), [(_ERFCX_POINTS,)], gradcheck=False,
         tslice=False, grad=False),
    _special('entr', 0.05, 3.0),
    Spec('special_entr_points', lambda T, x: T.special.entr(x), [(_ENTR_POINTS,)], gradcheck=False,
         tslice=False, grad=False),
    Spec('special_entr_gradient_at_zero', lambda T, x: T.special.entr(x), [(np.array([0.0, -1.0, 2.0]),)],
         gradcheck=False, tslice=False),
    Spec('special_xlog1py', lambda T, a, b: T.special.xlog1py(a, b), [((3, 4), (4,)), ((2, 1, 3), (1, 2, 1))],
         low=-0.5, high=2.0),
    Spec('special_xlog1py_zero', lambda T, a, b: T.special.xlog1py(a, b),
         [(np.array([0.0, 0.0, 1.5, 2.0, 0.0]), np.array([-1.0, 2.0, 0.5, _NAN, _NAN]))],
         gradcheck=False, tslice=False),
    Spec('special_xlog1py_scalars', lambda T, a: (T.special.xlog1py(2.0, a), T.special.xlog1py(a, 3.0)),
         [((2, 3),)], low=-0.5, high=2.0,
         grad_fn_differs='torch names its number overloads SpecialXlog1PyBackward1 and 2'),
    Spec('special_xlog1py_integral', lambda T, a, b: T.special.xlog1py(a, b), [((3, 4), (3, 4))],
         dtypes=(np.int64, np.bool_), low=0, high=4),
    # zeta: a gradient for q only (torch has none for s); the exponents are constants
    Spec('special_zeta', lambda T, q: T.special.zeta(T.tensor([2.0, 3.5, 2.5, 4.0], dtype=q.dtype), q),
         [((3, 4),)], low=0.5, high=3.0),
    Spec('special_zeta_values', lambda T, s, q: T.special.zeta(s, q), [((3, 4), (4,)), ((2, 1, 3), (1, 2, 1))],
         low=1.1, high=6.0, grad=False),
    Spec('special_zeta_points', lambda T, s, q: T.special.zeta(s, q),
         [(np.array([1.0, 0.5, 2.0, 2.0, _INF, 3.0, 2.5, 2.0, _NAN]),
           np.array([1.0, 1.0, 0.0, -1.0, 1.0, -1.5, -1.5, 1e9, 1.0]))], grad=False, tslice=False),
    Spec('special_zeta_scalars', lambda T, q: (T.special.zeta(2.0, q), T.special.zeta(q + 1.5, 2.0)),
         [((2, 3),)], low=0.5, high=3.0, grad=False),
    Spec('special_zeta_integral', lambda T, s, q: T.special.zeta(s, q), [((3, 4), (3, 4))], dtypes=(np.int64,),
         low=2, high=5),
    # the multivariate log-gamma, under its two names
    Spec('special_multigammaln', lambda T, x, p: T.special.multigammaln(x, p), [((3, 4), 1), ((2, 3, 2), 3)],
         low=1.3, high=4.0, rtol=_GAMMA_RTOL,
         bad=[Bad(((3, 4), 0), ['p has to be greater than or equal to 1'])]),
    Spec('mvlgamma', lambda T, x: T.mvlgamma(x, 2), [((3, 4),)], low=0.8, high=4.0, rtol=_GAMMA_RTOL),
    Spec('mvlgamma_method', lambda T, x: x.mvlgamma(p=4), [((2, 3),)], low=1.8, high=4.0, rtol=_GAMMA_RTOL),
    Spec('mvlgamma_integral', lambda T, x: T.mvlgamma(x, 2), [((3, 4),)], dtypes=(np.int64,), low=1, high=5),
    # torch's own functions under their torch.special names
    _special('expit'),
    _special('exp2'),
    _special('expm1'),
    _special('log1p', -0.5, 2.0),
    _special('erf'),
    _special('erfc'),
    _special('erfinv', -0.9, 0.9),
    _special('sinc', -3.0, 3.0),
    _special('digamma', 0.3, 4.0, rtol=_GAMMA_RTOL),
    _special('psi', 0.3, 4.0, rtol=_GAMMA_RTOL),
    _special('gammaln', 0.3, 4.0, rtol=_GAMMA_RTOL),
    Spec('special_logit', lambda T, x: T.special.logit(x, eps=0.1), [((3, 4),)], low=0.05, high=0.95),
    Spec('special_xlogy', lambda T, a, b: T.special.xlogy(a, b), [((3, 4), (4,))], low=0.2, high=2.0),
    Spec('special_polygamma', lambda T, x: T.special.polygamma(2, x), [((3, 4),)], low=0.3, high=4.0, rtol=_GAMMA_RTOL),
    Spec('special_logsumexp', lambda T, x: T.special.logsumexp(x, 1), _S),
    Spec('special_softmax', lambda T, x: T.special.softmax(x, 1), _S),
    Spec('special_log_softmax', lambda T, x: T.special.log_softmax(x, -1), _S),
    Spec('special_round', lambda T, x: T.special.round(x), [((3, 4),)], low=-3.0, high=3.0,
         gradgrad='the gradient of round is 0: its second derivative is 0',
         grad_fn_differs="torch.special.round is torch's round with decimals (RoundBackward1); gnn's round "
                         "without decimals is RoundBackward0"),
]
