# torch's unique, unique_consecutive, bincount, histc, histogram, searchsorted, bucketize,
# frexp, isin, quantile and nanquantile with torch's signatures, defaults and tuple results
#
# SPDX-License-Identifier: LGPL-2.1-or-later
from .base import Gnn
from .errors import raising_torch_errors
from .functions import _check_tensor, _is_int

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
