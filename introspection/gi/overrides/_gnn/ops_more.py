# torch's unique, unique_consecutive, bincount, histc, histogram, searchsorted, bucketize,
# frexp, isin, quantile and nanquantile with torch's signatures, defaults and tuple results
#
# SPDX-License-Identifier: LGPL-2.1-or-later
from .base import Gnn
from .errors import raising_torch_errors
from .functions import _check_tensor, _is_int, _no_out, _return_type, return_types

__all__ = []


def _export(fn):
    """Exports @fn, a GError from C raised as the exception class torch raises."""
    wrapped = raising_torch_errors(fn)
    __all__.append(fn.__name__)
    return wrapped


def _dim(name, dim):
    if not _is_int(dim):
        raise TypeError('%s(): argument \'dim\' must be int, not %s' % (name, type(dim).__name__))
    return int(dim)


def _pack(values, inverse, counts, return_inverse, return_counts):
    if not return_inverse and not return_counts:
        return values
    out = (values,)
    if return_inverse:
        out += (inverse,)
    if return_counts:
        out += (counts,)
    return out


@_export
def unique(input, sorted=True, return_inverse=False, return_counts=False, dim=None):
    """torch.unique / Tensor.unique: the distinct elements (or slices along dim), ascending;
    with return_inverse and return_counts the tuple (output, inverse_indices, counts)."""
    _check_tensor('unique', input)
    if dim is None:
        v, i, c = Gnn.Tensor.unique(input, bool(sorted))
    else:
        v, i, c = Gnn.Tensor.unique_dim(input, _dim('unique', dim), bool(sorted))
    return _pack(v, i, c, return_inverse, return_counts)


@_export
def unique_consecutive(input, return_inverse=False, return_counts=False, dim=None):
    """torch.unique_consecutive / Tensor.unique_consecutive: each run of equal consecutive
    elements (or slices along dim) kept once; with return_inverse and return_counts a tuple."""
    _check_tensor('unique_consecutive', input)
    if dim is None:
        v, i, c = Gnn.Tensor.unique_consecutive(input)
    else:
        v, i, c = Gnn.Tensor.unique_consecutive_dim(input, _dim('unique_consecutive', dim))
    return _pack(v, i, c, return_inverse, return_counts)


def _as_tensor_like(value, like, name, what):
    if isinstance(value, Gnn.Tensor):
        return value
    if isinstance(value, (bool, int, float)):
        from .tensor import tensor
        dtype = like.dtype if like is not None else None
        if isinstance(value, float) and like is not None and not like.is_floating_point():
            dtype = None
        return tensor(value, dtype=dtype)
    raise TypeError('%s(): argument \'%s\' must be Tensor, not %s' % (name, what, type(value).__name__))


@_export
def bincount(input, weights=None, minlength=0):
    """torch.bincount / Tensor.bincount: the count (or weight sum) of each value 0..max."""
    _check_tensor('bincount', input)
    if weights is not None:
        _check_tensor('bincount', weights, 'weights')
    if not _is_int(minlength):
        raise TypeError('bincount(): argument \'minlength\' must be int, not %s' % type(minlength).__name__)
    return Gnn.Tensor.bincount(input, weights, int(minlength))


@_export
def histc(input, bins=100, min=0, max=0, *, out=None):
    """torch.histc / Tensor.histc: counts in bins of equal width between min and max (the
    data's range when both are equal)."""
    _check_tensor('histc', input)
    _no_out('histc', out)
    if not _is_int(bins):
        raise TypeError('histc(): argument \'bins\' must be int, not %s' % type(bins).__name__)
    return Gnn.Tensor.histc(input, int(bins), float(min), float(max))


setattr(return_types, 'histogram', _return_type('histogram', ('hist', 'bin_edges')))


@_export
def histogram(input, bins=100, *, range=None, weight=None, density=False, out=None):
    """torch.histogram / Tensor.histogram: the named tuple (hist, bin_edges); bins a count or
    a 1-d tensor of edges."""
    _check_tensor('histogram', input)
    _no_out('histogram', out)
    if weight is not None:
        _check_tensor('histogram', weight, 'weight')
    if isinstance(bins, Gnn.Tensor):
        if range is not None:
            raise TypeError('histogram(): range= is only accepted with an int bins')
        h, e = Gnn.Tensor.histogram_bins(input, bins, weight, bool(density))
    else:
        if not _is_int(bins):
            raise TypeError('histogram(): argument \'bins\' must be int or Tensor, not %s' % type(bins).__name__)
        if range is None:
            h, e = Gnn.Tensor.histogram(input, int(bins), False, 0.0, 0.0, weight, bool(density))
        else:
            lo, hi = range
            h, e = Gnn.Tensor.histogram(input, int(bins), True, float(lo), float(hi), weight, bool(density))
    return return_types.histogram(h, e)


@_export
def searchsorted(sorted_sequence, input, *, out_int32=False, right=False, side=None, sorter=None, out=None):
    """torch.searchsorted: where each value of input goes in sorted_sequence (its last dim)."""
    _check_tensor('searchsorted', sorted_sequence, 'sorted_sequence')
    _no_out('searchsorted', out)
    if side is not None:
        if side not in ('left', 'right'):
            raise RuntimeError("torch.searchsorted(): side can only be 'left' or 'right' but got %s" % side)
        if right and side == 'left':
            raise RuntimeError("torch.searchsorted(): side and right can't be set to opposites, got side of "
                               "left while right was True")
        right = side == 'right'
    values = _as_tensor_like(input, sorted_sequence, 'searchsorted', 'input')
    if sorter is not None:
        _check_tensor('searchsorted', sorter, 'sorter')
    return Gnn.Tensor.searchsorted(sorted_sequence, values, bool(out_int32), bool(right), sorter)


@_export
def bucketize(input, boundaries, *, out_int32=False, right=False, out=None):
    """torch.bucketize / Tensor.bucketize: the bucket of each element among 1-d boundaries."""
    _check_tensor('bucketize', boundaries, 'boundaries')
    _no_out('bucketize', out)
    values = _as_tensor_like(input, boundaries, 'bucketize', 'input')
    return Gnn.Tensor.bucketize(values, boundaries, bool(out_int32), bool(right))


setattr(return_types, 'frexp', _return_type('frexp', ('mantissa', 'exponent')))


@_export
def frexp(input, *, out=None):
    """torch.frexp / Tensor.frexp: the named tuple (mantissa, exponent), exponent int32."""
    _check_tensor('frexp', input)
    _no_out('frexp', out)
    m, e = Gnn.Tensor.frexp(input)
    return return_types.frexp(m, e)


@_export
def isin(elements, test_elements, *, assume_unique=False, invert=False):
    """torch.isin: where elements are among test_elements (either may be a scalar)."""
    if not isinstance(elements, Gnn.Tensor) and not isinstance(test_elements, Gnn.Tensor):
        raise TypeError('isin(): expected elements or test_elements to be a Tensor')
    e = _as_tensor_like(elements, test_elements if isinstance(test_elements, Gnn.Tensor) else None, 'isin',
                        'elements')
    t = _as_tensor_like(test_elements, e, 'isin', 'test_elements')
    return Gnn.Tensor.isin(e, t, bool(assume_unique), bool(invert))


def _quantile(name, c_fn, input, q, dim, keepdim, interpolation, out):
    _check_tensor(name, input)
    _no_out(name, out)
    if not isinstance(q, Gnn.Tensor):
        if not isinstance(q, (int, float)) or isinstance(q, bool):
            raise TypeError('%s(): argument \'q\' must be float or Tensor, not %s' % (name, type(q).__name__))
        from .tensor import tensor
        q = tensor(float(q), dtype=input.dtype)
    if not isinstance(interpolation, str):
        raise TypeError('%s(): argument \'interpolation\' must be str, not %s' % (name, type(interpolation).__name__))
    if dim is None:
        return c_fn(input, q, False, 0, bool(keepdim), interpolation)
    return c_fn(input, q, True, _dim(name, dim), bool(keepdim), interpolation)


@_export
def quantile(input, q, dim=None, keepdim=False, *, interpolation='linear', out=None):
    """torch.quantile / Tensor.quantile: the q-quantiles along dim (or over all elements)."""
    return _quantile('quantile', Gnn.Tensor.quantile, input, q, dim, keepdim, interpolation, out)


@_export
def nanquantile(input, q, dim=None, keepdim=False, *, interpolation='linear', out=None):
    """torch.nanquantile / Tensor.nanquantile: quantile with the NaN values left out."""
    return _quantile('nanquantile', Gnn.Tensor.nanquantile, input, q, dim, keepdim, interpolation, out)
