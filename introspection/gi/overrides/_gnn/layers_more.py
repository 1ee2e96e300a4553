# more torch.nn layers (gnn-layers-more.c): their torch constructors, and the functional
# forms (Gnn.functional_<name>, which the rows of torch.nn.functional in names.py put under
# torch's names) with torch 1.13's signatures, over the C functions the layers run
#
# SPDX-License-Identifier: LGPL-2.1-or-later
import numbers as _numbers

from .base import Gnn, _call_raising_python_errors, override
from .errors import raising_torch_errors
from .layers import _layer_init

__all__ = []

_T = Gnn.Tensor

_INSTANCE_NORM = ['num_features', ('eps', 1e-5), ('momentum', 0.1), ('affine', False),
                  ('track_running_stats', False), ('device', None), ('dtype', None)]
_SIGNATURES = {
    'PixelShuffle': ['upscale_factor'],
    'PixelUnshuffle': ['downscale_factor'],
    'ChannelShuffle': ['groups'],
    'Unfold': ['kernel_size', ('dilation', 1), ('padding', 0), ('stride', 1)],
    'Fold': ['output_size', 'kernel_size', ('dilation', 1), ('padding', 0), ('stride', 1)],
    'InstanceNorm1d': _INSTANCE_NORM, 'InstanceNorm2d': _INSTANCE_NORM, 'InstanceNorm3d': _INSTANCE_NORM,
    'LPPool1d': ['norm_type', 'kernel_size', ('stride', None), ('ceil_mode', False)],
    'LPPool2d': ['norm_type', 'kernel_size', ('stride', None), ('ceil_mode', False)],
    'LocalResponseNorm': ['size', ('alpha', 0.0001), ('beta', 0.75), ('k', 1.0)],
    'Upsample': [('size', None), ('scale_factor', None), ('mode', 'nearest'), ('align_corners', None),
                 ('recompute_scale_factor', None)],
    'UpsamplingNearest2d': [('size', None), ('scale_factor', None)],
    'UpsamplingBilinear2d': [('size', None), ('scale_factor', None)],
    'AdaptiveMaxPool1d': ['output_size', ('return_indices', False)],
    'AdaptiveMaxPool2d': ['output_size', ('return_indices', False)],
    'MaxUnpool1d': ['kernel_size', ('stride', None), ('padding', 0)],
    'MaxUnpool2d': ['kernel_size', ('stride', None), ('padding', 0)],
    'AlphaDropout': [('p', 0.5), ('inplace', False)],
    'FeatureAlphaDropout': [('p', 0.5), ('inplace', False)],
    'EmbeddingBag': ['num_embeddings', 'embedding_dim', ('max_norm', None), ('norm_type', 2.0),
                     ('scale_grad_by_freq', False), ('mode', 'mean'), ('sparse', False), ('_weight', None),
                     ('include_last_offset', False), ('padding_idx', None), ('device', None), ('dtype', None)],
}


def _install_layers(signatures):
    for name, signature in signatures.items():
        if not hasattr(Gnn, name):
            continue   # a layer this build lacks
        cls = type(name, (getattr(Gnn, name),), {'__init__': _layer_init(name, signature),
                                                  '__module__': __name__})
        globals()[name] = override(cls)
        __all__.append(name)




def _scale_property(value):
    """scale_factor as the "ad" property holds it (torch keeps float(s) or a tuple of floats)"""
    from gi.repository import GLib
    if value is None or isinstance(value, GLib.Variant):
        return value
    if isinstance(value, _numbers.Real):
        return GLib.Variant('ad', [float(value)])
    return GLib.Variant('ad', [float(v) for v in value])


def _upsample_init(base_init):
    def __init__(self, *args, **kwargs):
        names = ('size', 'scale_factor')
        for k, v in zip(names, args):
            kwargs.setdefault(k, v)
        args = args[2:]
        if kwargs.get('scale_factor') is not None:
            kwargs['scale_factor'] = _scale_property(kwargs['scale_factor'])
        base_init(self, *args, **kwargs)
    __init__.__signature__ = base_init.__signature__
    __init__.__doc__ = base_init.__doc__
    return __init__


_install_layers(_SIGNATURES)
for _name in ('Upsample', 'UpsamplingNearest2d', 'UpsamplingBilinear2d'):
    if _name in globals():
        globals()[_name].__init__ = _upsample_init(globals()[_name].__init__)


def _unpool_call(self, input, indices, output_size=None):
    """MaxUnpool1d/2d (input, indices, output_size=None), as torch's"""
    from .module import Args, _output_of
    if output_size is None:
        return _output_of(_call_raising_python_errors(Gnn.Module.forward, self, Args.pack(input, indices)))
    n = 1 if isinstance(self, Gnn.MaxUnpool1d) else 2
    fn = max_unpool1d if n == 1 else max_unpool2d
    k, s, p = (self.get_property(name).unpack() if self.get_property(name) is not None else None
               for name in ('kernel-size', 'stride', 'padding'))
    return fn(input, indices, list(k), None if not s else list(s), list(p) if p else 0, output_size)


def _embedding_bag_call(self, input, offsets=None, per_sample_weights=None):
    """EmbeddingBag(input, offsets=None, per_sample_weights=None), as torch's"""
    from .module import Args, _output_of
    return _output_of(_call_raising_python_errors(Gnn.Module.forward, self,
                                                  Args.pack(input, offsets, per_sample_weights)))


if 'EmbeddingBag' in globals():
    EmbeddingBag.__call__ = _embedding_bag_call


for _name in ('MaxUnpool1d', 'MaxUnpool2d'):
    if _name in globals():
        globals()[_name].__call__ = _unpool_call


def pixel_shuffle(input, upscale_factor):
    return _T.pixel_shuffle(input, int(upscale_factor))


def pixel_unshuffle(input, downscale_factor):
    return _T.pixel_unshuffle(input, int(downscale_factor))


def channel_shuffle(input, groups):
    return _T.channel_shuffle(input, int(groups))


def _ntuple(value, n, name, fn):
    if isinstance(value, _numbers.Integral):
        return [int(value)] * n
    try:
        values = [int(v) for v in value]
    except TypeError:
        raise TypeError('%s(): %s must be an int or a tuple of ints, not %s' % (fn, name, type(value).__name__)) from None
    if len(values) == 1:
        values = values * n
    if len(values) != n:
        raise ValueError('%s(): %s must have %d elements, got %d' % (fn, name, n, len(values)))
    return values


def unfold(input, kernel_size, dilation=1, padding=0, stride=1):
    fn = 'unfold'
    return _T.im2col(input, _ntuple(kernel_size, 2, 'kernel_size', fn), _ntuple(dilation, 2, 'dilation', fn),
                     _ntuple(padding, 2, 'padding', fn), _ntuple(stride, 2, 'stride', fn))


def fold(input, output_size, kernel_size, dilation=1, padding=0, stride=1):
    fn = 'fold'
    return _T.col2im(input, _ntuple(output_size, 2, 'output_size', fn), _ntuple(kernel_size, 2, 'kernel_size', fn),
                     _ntuple(dilation, 2, 'dilation', fn), _ntuple(padding, 2, 'padding', fn),
                     _ntuple(stride, 2, 'stride', fn))


def local_response_norm(input, size, alpha=0.0001, beta=0.75, k=1.0):
    if input.dim() < 3:
        raise ValueError('Expected 3D or higher dimensionality input (got %d dimensions)' % input.dim())
    return _T.local_response_norm(input, int(size), float(alpha), float(beta), float(k))


def _check_p(p, inplace, fn):
    if p < 0.0 or p > 1.0:
        raise ValueError('dropout probability has to be between 0 and 1, but got %s' % (p,))
    if inplace:
        raise NotImplementedError('%s: gnn has no in-place dropout (inplace=True)' % fn)


def alpha_dropout(input, p=0.5, training=False, inplace=False):
    _check_p(p, inplace, 'alpha_dropout')
    return _T.alpha_dropout(input, float(p), bool(training))


def feature_alpha_dropout(input, p=0.5, training=False, inplace=False):
    _check_p(p, inplace, 'feature_alpha_dropout')
    return _T.feature_alpha_dropout(input, float(p), bool(training))


def _adaptive_size(output_size, n):
    if output_size is None or isinstance(output_size, _numbers.Integral):
        return [-1 if output_size is None else int(output_size)] * n
    values = [-1 if v is None else int(v) for v in output_size]
    if len(values) != n:
        raise ValueError('adaptive_max_pool%dd: output_size must have %d elements, got %d' % (n, n, len(values)))
    return values


def adaptive_max_pool1d_with_indices(input, output_size, return_indices=False):
    out, indices = _T.adaptive_max_pool1d(input, _adaptive_size(output_size, 1)[0])
    return out, indices


def adaptive_max_pool2d_with_indices(input, output_size, return_indices=False):
    out, indices = _T.adaptive_max_pool2d(input, _adaptive_size(output_size, 2))
    return out, indices


def adaptive_max_pool1d(input, output_size, return_indices=False):
    out, indices = adaptive_max_pool1d_with_indices(input, output_size)
    return (out, indices) if return_indices else out


def adaptive_max_pool2d(input, output_size, return_indices=False):
    out, indices = adaptive_max_pool2d_with_indices(input, output_size)
    return (out, indices) if return_indices else out


def _unpool_size(input, kernel_size, stride, padding, output_size, n, fn):
    k = _ntuple(kernel_size, n, 'kernel_size', fn)
    s = k if stride is None else _ntuple(stride, n, 'stride', fn)
    p = _ntuple(padding, n, 'padding', fn)
    default = [(input.shape[input.dim() - n + d] - 1) * s[d] - 2 * p[d] + k[d] for d in range(n)]
    if output_size is None:
        return default
    size = [int(v) for v in output_size]
    if len(size) == n + 2 or (len(size) == n + 1 and input.dim() == n + 1):
        size = size[-n:]
    if len(size) != n:
        raise ValueError('output_size should be a sequence containing %d or %d elements, but it has a length of '
                         "'%d'" % (n, n + 2, len(size)))
    for d in range(n):
        lo, hi = default[d] - s[d], default[d] + s[d]
        if not lo < size[d] < hi:
            raise ValueError('invalid output_size "%s" (dim %d must be between %d and %d)' % (size, d, lo, hi))
    return size


def max_unpool1d(input, indices, kernel_size, stride=None, padding=0, output_size=None):
    size = _unpool_size(input, kernel_size, stride, padding, output_size, 1, 'max_unpool1d')
    out = _T.max_unpool2d(input.unsqueeze(-2), indices.unsqueeze(-2), [1, size[0]])
    return out.squeeze(-2)


def max_unpool2d(input, indices, kernel_size, stride=None, padding=0, output_size=None):
    size = _unpool_size(input, kernel_size, stride, padding, output_size, 2, 'max_unpool2d')
    return _T.max_unpool2d(input, indices, size)


def max_pool1d_with_indices(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False,
                            return_indices=False):
    from .spatial import functional_max_pool1d
    return functional_max_pool1d(input, kernel_size, stride, padding, dilation, ceil_mode, True)


def max_pool2d_with_indices(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False,
                            return_indices=False):
    from .functional import functional_max_pool2d
    return functional_max_pool2d(input, kernel_size, stride, padding, dilation, ceil_mode, True)


def embedding_bag(input, weight, offsets=None, max_norm=None, norm_type=2, scale_grad_by_freq=False, mode='mean',
                  sparse=False, per_sample_weights=None, include_last_offset=False, padding_idx=None):
    if max_norm is not None or scale_grad_by_freq or sparse:
        raise NotImplementedError('embedding_bag: gnn has no max_norm, scale_grad_by_freq or sparse gradients')
    if padding_idx is not None:
        rows = weight.shape[0]
        if not -rows <= padding_idx < rows:
            raise AssertionError('padding_idx must be within the number of embeddings')
    return _T.embedding_bag(input, weight, offsets, mode, per_sample_weights, bool(include_last_offset),
                            Gnn.EMBEDDING_NO_PADDING if padding_idx is None else int(padding_idx))


def _install_functions(functions):
    for fn in functions:
        fn.__doc__ = fn.__doc__ or 'torch.nn.functional.%s, over the C function its layer runs' % fn.__name__
        globals()['functional_' + fn.__name__] = raising_torch_errors(fn)
        __all__.append('functional_' + fn.__name__)


_install_functions((pixel_shuffle, pixel_unshuffle, channel_shuffle, unfold, fold, local_response_norm,
                    alpha_dropout, feature_alpha_dropout, adaptive_max_pool1d, adaptive_max_pool2d,
                    adaptive_max_pool1d_with_indices, adaptive_max_pool2d_with_indices, max_unpool1d,
                    max_unpool2d, max_pool1d_with_indices, max_pool2d_with_indices, embedding_bag))
