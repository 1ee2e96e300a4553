# torch's order statistics over a dim (kthvalue, median, nanmedian, mode, cummax, cummin,
# aminmax) with torch's signatures and named-tuple results (torch.return_types)
#
# SPDX-License-Identifier: LGPL-2.1-or-later
from .base import Gnn
from .functions import (return_types, _return_type, _check_tensor, _no_out, _is_int)

__all__ = []

for _name, _fields in (('kthvalue', None), ('median', None), ('nanmedian', None), ('mode', None),
                       ('cummax', None), ('cummin', None), ('aminmax', ('min', 'max'))):
    setattr(return_types, _name, _return_type(_name, _fields) if _fields else _return_type(_name))


def _export(fn):
    __all__.append(fn.__name__)
    return fn


def _dim(name, dim):
    if not _is_int(dim):
        raise TypeError('%s(): argument \'dim\' must be int, not %s' % (name, type(dim).__name__))
    return int(dim)


@_export
def kthvalue(input, k, dim=-1, keepdim=False, *, out=None):
    """torch.kthvalue / Tensor.kthvalue: the named tuple (values, indices) of the k-th smallest."""
    _check_tensor('kthvalue', input)
    _no_out('kthvalue', out)
    if not _is_int(k):
        raise TypeError('kthvalue(): argument \'k\' must be int, not %s' % type(k).__name__)
    v, i = Gnn.Tensor.kthvalue(input, int(k), _dim('kthvalue', dim), bool(keepdim))
    return return_types.kthvalue(v, i)


def _median(name, whole, along, input, dim, keepdim, out):
    _check_tensor(name, input)
    _no_out(name, out)
    if dim is None:
        if keepdim:
            raise TypeError('%s(): keepdim needs a dim' % name)
        return whole(input)
    v, i = along(input, _dim(name, dim), bool(keepdim))
    return getattr(return_types, name)(v, i)


@_export
def median(input, dim=None, keepdim=False, *, out=None):
    """torch.median / Tensor.median: median(input) a 0-d tensor (the lower middle),
    median(input, dim, keepdim=False) the named tuple (values, indices)."""
    return _median('median', Gnn.Tensor.median_all, Gnn.Tensor.median, input, dim, keepdim, out)


@_export
def nanmedian(input, dim=None, keepdim=False, *, out=None):
    """torch.nanmedian / Tensor.nanmedian: median ignoring NaN."""
    return _median('nanmedian', Gnn.Tensor.nanmedian_all, Gnn.Tensor.nanmedian, input, dim, keepdim, out)


@_export
def mode(input, dim=-1, keepdim=False, *, out=None):
    """torch.mode / Tensor.mode: the named tuple (values, indices) of the most frequent value."""
    _check_tensor('mode', input)
    _no_out('mode', out)
    v, i = Gnn.Tensor.mode(input, _dim('mode', dim), bool(keepdim))
    return return_types.mode(v, i)


@_export
def cummax(input, dim, *, out=None):
    """torch.cummax / Tensor.cummax: the named tuple (values, indices) of the running maximum."""
    _check_tensor('cummax', input)
    _no_out('cummax', out)
    v, i = Gnn.Tensor.cummax(input, _dim('cummax', dim))
    return return_types.cummax(v, i)


@_export
def cummin(input, dim, *, out=None):
    """torch.cummin / Tensor.cummin: the named tuple (values, indices) of the running minimum."""
    _check_tensor('cummin', input)
    _no_out('cummin', out)
    v, i = Gnn.Tensor.cummin(input, _dim('cummin', dim))
    return return_types.cummin(v, i)


@_export
def aminmax(input, *, dim=None, keepdim=False, out=None):
    """torch.aminmax / Tensor.aminmax: the named tuple (min, max) over dim (None: all)."""
    _check_tensor('aminmax', input)
    _no_out('aminmax', out)
    dims = [] if dim is None else [_dim('aminmax', dim)]
    lo, hi = Gnn.Tensor.aminmax(input, dims, bool(keepdim))
    return return_types.aminmax(lo, hi)
