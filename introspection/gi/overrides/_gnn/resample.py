# torch.nn.functional's resampling (interpolate, upsample*) with torch's signatures, and the
# Upsample layers' torch constructors
#
# The C op takes the size or the scale factors as arrays and the mode as torch's string;
# here torch's None spellings (align_corners=None, recompute_scale_factor=None) and its
# Python-side argument errors (ValueError, NotImplementedError) are kept. They are
# Gnn.functional_<name>, and the rows of torch.nn.functional in names.py put them under
# torch's names.
#
# SPDX-License-Identifier: LGPL-2.1-or-later
import numbers as _numbers
import warnings as _warnings

from .base import Gnn, override
from .layers import _layer_init

__all__ = []

_T = Gnn.Tensor
_INTERPOLATING = ('linear', 'bilinear', 'bicubic', 'trilinear')


def _values(value, cast, name):
    if value is None:
        return None
    if isinstance(value, (_numbers.Real,)) and not isinstance(value, bool):
        return [cast(value)]
    try:
        return [cast(v) for v in value]
    except TypeError:
        raise TypeError('interpolate(): %s must be a number or a sequence of numbers, not %s'
                        % (name, type(value).__name__)) from None


def interpolate(input, size=None, scale_factor=None, mode='nearest', align_corners=None,
                recompute_scale_factor=None, antialias=False):
    dim = input.dim() - 2
    if size is not None and scale_factor is not None:
        raise ValueError('only one of size or scale_factor should be defined')
    sizes = _values(size, int, 'size')
    scales = _values(scale_factor, float, 'scale_factor')
    for given, what in ((sizes, 'output size'), (scales, 'scale_factor')):
        if given is not None and not isinstance(size if what == 'output size' else scale_factor,
                                                _numbers.Real) and len(given) != dim and dim >= 1:
            raise ValueError('Input and %s must have the same number of spatial dimensions, but got input '
                             'with spatial dimensions of %s and %s of %s. Please provide input tensor in '
                             '(N, C, d1, d2, ...,dK) format and %s in (o1, o2, ...,oK) format.'
                             % (what, list(input.shape[2:]), what, list(given), what))
    if sizes is None and scales is None:
        raise ValueError('either size or scale_factor should be defined')
    if mode in ('nearest', 'area', 'nearest-exact'):
        if align_corners is not None:
            raise ValueError('align_corners option can only be set with the interpolating modes: '
                             'linear | bilinear | bicubic | trilinear')
        align_corners = False
    elif align_corners is None:
        align_corners = False
    if recompute_scale_factor and sizes is not None:
        raise ValueError('recompute_scale_factor is not meaningful with an explicit size.')
    if mode == 'area' and sizes is None:
        recompute_scale_factor = True
    if antialias and not (mode in ('bilinear', 'bicubic') and input.dim() == 4):
        raise ValueError('Anti-alias option is only supported for bilinear and bicubic modes')
    needs = {'linear': 3, 'bilinear': 4, 'bicubic': 4, 'trilinear': 5}
    if input.dim() in (3, 4, 5) and mode in needs and needs[mode] != input.dim():
        raise NotImplementedError('Got %dD input, but %s mode needs %dD input' % (input.dim(), mode, needs[mode]))
    if input.dim() not in (3, 4, 5) or mode not in ('nearest', 'nearest-exact', 'area') + _INTERPOLATING:
        raise NotImplementedError(
            'Input Error: Only 3D, 4D and 5D input Tensors supported (got %dD) for the modes: nearest | '
            'linear | bilinear | bicubic | trilinear | area | nearest-exact (got %s)' % (input.dim(), mode))
    return _T.interpolate(input, sizes, scales, mode, bool(align_corners), bool(recompute_scale_factor),
                          bool(antialias))


def upsample(input, size=None, scale_factor=None, mode='nearest', align_corners=None):
    _warnings.warn('nn.functional.upsample is deprecated. Use nn.functional.interpolate instead.')
    return interpolate(input, size, scale_factor, mode, align_corners)


def upsample_nearest(input, size=None, scale_factor=None):
    _warnings.warn('nn.functional.upsample_nearest is deprecated. Use nn.functional.interpolate instead.')
    return interpolate(input, size, scale_factor, mode='nearest')


def upsample_bilinear(input, size=None, scale_factor=None):
    _warnings.warn('nn.functional.upsample_bilinear is deprecated. Use nn.functional.interpolate instead.')
    return interpolate(input, size, scale_factor, mode='bilinear', align_corners=True)


FUNCTIONS = (interpolate, upsample, upsample_nearest, upsample_bilinear)
for _fn in FUNCTIONS:
    _fn.__doc__ = 'torch.nn.functional.%s, over the C op' % _fn.__name__
    globals()['functional_' + _fn.__name__] = _fn
    __all__.append('functional_' + _fn.__name__)
del _fn
