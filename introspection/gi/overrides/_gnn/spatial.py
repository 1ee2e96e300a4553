# torch.nn.functional's 1-d convolution and pooling, with torch's signatures
#
# The 1-d forms run the 2-d kernels on a unit height (gnn/ops/gnn-ops-conv.c). Sizes are an
# int or a 1-tuple as torch takes them; stride=None is the kernel size (0 for the C op). They
# are Gnn.functional_<name> here, as in functional.py, and the rows of torch.nn.functional in
# names.py put them under torch's names.
#
# SPDX-License-Identifier: LGPL-2.1-or-later
import numbers as _numbers

from .base import Gnn

__all__ = []

_T = Gnn.Tensor


def _single(value, name, fn, allow_none=False):
    """An int or a 1-sequence of ints as an int (PyTorch's _single)."""
    if value is None and allow_none:
        return None
    if isinstance(value, _numbers.Integral):
        return int(value)
    try:
        values = [int(v) for v in value]
    except TypeError:
        raise TypeError('%s(): %s must be an int or a tuple of one int, not %s'
                        % (fn, name, type(value).__name__)) from None
    if len(values) != 1:
        raise ValueError('%s(): %s must be an int or a tuple of one int, got %d values' % (fn, name, len(values)))
    return values[0]


def _stride(stride, fn):
    """torch's stride=None (the kernel size) as the C op's 0; an explicit 0 refused as torch does."""
    stride = _single(stride, 'stride', fn, allow_none=True)
    if stride is None:
        return 0
    if stride == 0:
        from gi.repository import GLib
        raise GLib.Error('%s: stride should not be zero' % fn, 'gnn-error-quark', int(Gnn.Error.INVALID_ARGUMENT))
    return stride


def conv_transpose1d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1):
    fn = 'conv_transpose1d'
    return _T.conv_transpose1d(input, weight, bias, _single(stride, 'stride', fn), _single(padding, 'padding', fn),
                               _single(output_padding, 'output_padding', fn), int(groups),
                               _single(dilation, 'dilation', fn))


def max_pool1d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False):
    fn = 'max_pool1d'
    out, indices = _T.max_pool1d(input, _single(kernel_size, 'kernel_size', fn), _stride(stride, fn),
                                 _single(padding, 'padding', fn), _single(dilation, 'dilation', fn), bool(ceil_mode))
    return (out, indices) if return_indices else out


def avg_pool1d(input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True):
    fn = 'avg_pool1d'
    return _T.avg_pool1d(input, _single(kernel_size, 'kernel_size', fn), _stride(stride, fn),
                         _single(padding, 'padding', fn), bool(ceil_mode), bool(count_include_pad))


def adaptive_avg_pool1d(input, output_size):
    return _T.adaptive_avg_pool1d(input, _single(output_size, 'output_size', 'adaptive_avg_pool1d'))


def lp_pool1d(input, norm_type, kernel_size, stride=None, ceil_mode=False):
    fn = 'lp_pool1d'
    return _T.lp_pool1d(input, float(norm_type), _single(kernel_size, 'kernel_size', fn), _stride(stride, fn),
                        bool(ceil_mode))


def lp_pool2d(input, norm_type, kernel_size, stride=None, ceil_mode=False):
    from .functional import _pair
    if stride is not None and 0 in _pair(stride, 'stride'):
        _stride(0, 'lp_pool2d')
    return _T.lp_pool2d(input, float(norm_type), _pair(kernel_size, 'kernel_size'),
                        _pair(stride, 'stride', True), bool(ceil_mode))


def dropout1d(input, p=0.5, training=True, inplace=False):
    if inplace:
        raise ValueError('dropout1d(inplace=True): gnn runs this function out of place only')
    return _T.dropout1d(input, float(p), bool(training))


FUNCTIONS = (conv_transpose1d, max_pool1d, avg_pool1d, adaptive_avg_pool1d, lp_pool1d, lp_pool2d, dropout1d)
for _fn in FUNCTIONS:
    _fn.__doc__ = 'torch.nn.functional.%s, over the C op' % _fn.__name__
    globals()['functional_' + _fn.__name__] = _fn
    __all__.append('functional_' + _fn.__name__)
del _fn
