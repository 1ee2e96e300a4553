"""Rows for the activation functions of torch.nn.functional (gnn-ops-math.c's activation rows,
hardtanh in gnn-ops-unary.c, and the ones torch composes: softsign, tanhshrink, softmin)."""
import numpy as np

from opspec import Bad, Spec

_S = [((3, 4),), ((2, 3, 2),)]
_LINEAR = 'piecewise linear: its gradient does not depend on the input, the second derivative is 0'


def _f(name, *args, **kw):
    return lambda T, x: getattr(T.nn.functional, name)(x, *args, **kw)


def _row(name, fn, low=-4.0, high=4.0, **kw):
    return Spec(name, fn, _S, low=low, high=high, **kw)


# torch 1.13's float64 kernels take some constants in float32: hardsigmoid's gradient 1/6 and
# celu's 1/alpha (`1.0 / alpha.toFloat()`), 3e-8 and 6e-8 relative from gnn's double values
_FLOAT32_CONSTANT = 1e-7

_INT_REFUSED = [Bad(((2, 2),), ['int64'], dtype=np.int64)]

SPECS = [
    _row('softplus', _f('softplus'), bad=_INT_REFUSED),
    _row('softplus_beta_threshold', _f('softplus', 2.0, 3.0)),
    _row('hardsigmoid', _f('hardsigmoid'), gradgrad=_LINEAR, bad=_INT_REFUSED, dtypes=(np.float32,)),
    _row('hardsigmoid_float64', _f('hardsigmoid'), gradgrad=_LINEAR, dtypes=(np.float64,), rtol=_FLOAT32_CONSTANT),
    _row('hardswish', _f('hardswish'), bad=_INT_REFUSED),
    _row('mish', _f('mish'), bad=_INT_REFUSED),
    _row('celu', _f('celu'), low=-3.0, high=3.0),
    _row('celu_alpha', _f('celu', 0.7), low=-3.0, high=3.0, dtypes=(np.float32,)),
    _row('celu_alpha_float64', _f('celu', 0.7), low=-3.0, high=3.0, dtypes=(np.float64,), rtol=_FLOAT32_CONSTANT),
    Spec('celu_alpha_zero', _f('celu', 0.0), [], dtypes=(np.float32,), bad=[Bad(((2, 2),), ['alpha cannot be 0'])]),
    _row('selu', _f('selu'), low=-3.0, high=3.0, bad=_INT_REFUSED),
    _row('logsigmoid', _f('logsigmoid'), bad=_INT_REFUSED),
    _row('hardshrink', _f('hardshrink'), low=-2.0, high=2.0, gradgrad=_LINEAR),
    _row('hardshrink_lambd', _f('hardshrink', 1.0), low=-2.0, high=2.0, gradgrad=_LINEAR),
    _row('softshrink', _f('softshrink'), low=-2.0, high=2.0, gradgrad=_LINEAR),
    _row('softshrink_lambd', _f('softshrink', 0.25), low=-2.0, high=2.0, gradgrad=_LINEAR),
    _row('threshold', _f('threshold', 0.3, -2.5), low=-2.0, high=2.0, gradgrad=_LINEAR),
    _row('hardtanh', _f('hardtanh'), low=-2.0, high=2.0, gradgrad=_LINEAR),
    _row('hardtanh_bounds', _f('hardtanh', -0.5, 1.5), low=-2.0, high=2.0, gradgrad=_LINEAR),
    _row('relu6', _f('relu6'), low=-3.0, high=8.0, gradgrad=_LINEAR),
    Spec('hardtanh_integral', _f('hardtanh', -2.0, 3.0), [((3, 4),)], dtypes=(np.int64,), low=-5, high=5),
    _row('softsign', _f('softsign')),
    _row('tanhshrink', _f('tanhshrink'), low=-3.0, high=3.0),
    Spec('softmin', lambda T, x, d: T.nn.functional.softmin(x, d), [((3, 4), 1), ((2, 3, 2), 0), ((2, 3), -1)]),
    Spec('softmin_dtype', lambda T, x: T.nn.functional.softmin(x, 1, dtype=T.float64), [((3, 4),)],
         dtypes=(np.float32,)),
    Spec('glu', lambda T, x, d: T.nn.functional.glu(x, d), [((3, 4), -1), ((4, 3), 0), ((2, 2, 6), 2)],
         grad_fn_differs='gnn composes it from chunk, sigmoid and mul (MulBackward0; torch: GluBackward0)',
         bad=[Bad(((2, 3), -1), ['glu', 'Halving dimension must be even', '3']),
              Bad(((2, 4), 5), ['glu', 'Dimension out of range'])]),
    Spec('prelu', lambda T, x, w: T.nn.functional.prelu(x, w), [((2, 3, 4), (3,)), ((3, 4), (1,)), ((4, 2), (2,))],
         grad_fn_differs='gnn composes it from gt, mul and where (WhereBackward0; torch: PreluBackward0)',
         bad=[Bad(((2, 3), (2,)), ['prelu', 'parameter numbers = 2', 'channel size = 3'])]),
]
