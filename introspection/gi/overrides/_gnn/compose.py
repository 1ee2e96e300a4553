# torch's stacking, splitting, grid and broadcasting functions (and, below, the diagonal and
# indexed-update ones), with torch's signatures, over the C ops of gnn/ops/gnn-ops-compose.c
#
# Each C op is composed of other ops, so gradients follow from the parts. The functions are
# Gnn.<name> here; the rows of names.py put them under torch's names (torch.hstack,
# Tensor.hsplit, ...).
#
# SPDX-License-Identifier: LGPL-2.1-or-later
import numbers as _numbers
import warnings as _warnings

from .base import Gnn
from .errors import raising_torch_errors
from .tensor import Size as _Size, _INTEGRAL

__all__ = []


def _export(fn):
    __all__.append(fn.__name__)
    return fn


def _is_int(value):
    from gi.repository import GObject
    return isinstance(value, _numbers.Integral) and not isinstance(value, (bool, GObject.GEnum))


def _check_tensor(name, value, what='input'):
    if not isinstance(value, Gnn.Tensor):
        raise TypeError('%s(): argument \'%s\' must be Tensor, not %s' % (name, what, type(value).__name__))


def _no_out(name, out):
    if out is not None:
        raise TypeError('%s(): out= is not supported by gnn (its ops return new tensors)' % name)


def _tensor_list(name, tensors, what='tensors'):
    if isinstance(tensors, Gnn.Tensor) or not isinstance(tensors, (tuple, list)):
        raise TypeError('%s(): argument \'%s\' must be tuple of Tensors, not %s'
                        % (name, what, type(tensors).__name__))
    for t in tensors:
        if not isinstance(t, Gnn.Tensor):
            raise TypeError('%s(): argument \'%s\' must be tuple of Tensors, but found element of type %s'
                            % (name, what, type(t).__name__))
    return list(tensors)


def _varargs_tensors(name, tensors):
    """torch's *tensors: several tensors, or one list or tuple of them."""
    if len(tensors) == 1 and isinstance(tensors[0], (tuple, list)):
        return _tensor_list(name, tensors[0])
    return _tensor_list(name, tensors)


def _int_list(name, what, values):
    if isinstance(values, Gnn.Tensor):
        if values.get_dtype() not in _INTEGRAL or values.get_ndim() != 1:
            raise TypeError('%s(): %s must be a 1-d integer tensor, a list or a tuple of ints' % (name, what))
        return [int(v) for v in values.tolist()]
    if not isinstance(values, (tuple, list)) or not all(_is_int(v) for v in values):
        raise TypeError('%s(): argument \'%s\' must be tuple of ints, not %s' % (name, what, type(values).__name__))
    return [int(v) for v in values]


# ---- stacking ----

def _stacking(name, c_op, doc):
    def op(tensors, *, out=None):
        _no_out(name, out)
        return c_op(_tensor_list(name, tensors))
    op.__name__ = op.__qualname__ = name
    op.__doc__ = doc
    return _export(op)


hstack = _stacking('hstack', Gnn.hstack, 'torch.hstack: 1-d tensors joined along dim 0, others along dim 1.')
vstack = _stacking('vstack', Gnn.vstack, 'torch.vstack (row_stack): the tensors made 2-d joined along dim 0.')
dstack = _stacking('dstack', Gnn.dstack, 'torch.dstack: the tensors made 3-d joined along dim 2.')
column_stack = _stacking('column_stack', Gnn.column_stack,
                         'torch.column_stack: 0-d and 1-d tensors as columns, joined along dim 1.')
row_stack = vstack
__all__.append('row_stack')


def _atleast(name, c_op):
    def op(*tensors):
        if len(tensors) == 1 and isinstance(tensors[0], Gnn.Tensor):
            return c_op(tensors[0])
        return tuple(c_op(t) for t in _varargs_tensors(name, tensors))
    op.__name__ = op.__qualname__ = name
    op.__doc__ = ('torch.%s: one tensor gives one tensor (itself when it has enough dims); several, or a '
                  'list, give a tuple.' % name)
    return _export(op)


atleast_1d = _atleast('atleast_1d', Gnn.Tensor.atleast_1d)
atleast_2d = _atleast('atleast_2d', Gnn.Tensor.atleast_2d)
atleast_3d = _atleast('atleast_3d', Gnn.Tensor.atleast_3d)


# ---- splitting ----

def _splitting(name, by_sections, by_indices):
    def op(input, indices_or_sections):
        _check_tensor(name, input)
        ios = indices_or_sections
        if isinstance(ios, Gnn.Tensor) and ios.get_ndim() == 0 and ios.get_dtype() in _INTEGRAL:
            ios = int(ios.item())
        if _is_int(ios):
            return tuple(by_sections(input, int(ios)))
        return tuple(by_indices(input, _int_list(name, 'indices', ios)))
    op.__name__ = op.__qualname__ = name
    op.__doc__ = ('torch.%s / Tensor.%s: equal sections (an int, which must divide the size) or pieces cut '
                  'before each index (a list or tuple).' % (name, name))
    return _export(op)


hsplit = _splitting('hsplit', Gnn.Tensor.hsplit, Gnn.Tensor.hsplit_indices)
vsplit = _splitting('vsplit', Gnn.Tensor.vsplit, Gnn.Tensor.vsplit_indices)
dsplit = _splitting('dsplit', Gnn.Tensor.dsplit, Gnn.Tensor.dsplit_indices)


# ---- grids and broadcasting ----

@_export
def meshgrid(*tensors, indexing=None):
    """torch.meshgrid: coordinate grids, 'ij' (matrix) or 'xy' (Cartesian) indexing; None is
    'ij' with torch's warning that indexing will be required."""
    ts = _varargs_tensors('meshgrid', tensors)
    if indexing is None:
        _warnings.warn('torch.meshgrid: in an upcoming release, it will be required to pass the indexing '
                       'argument.', UserWarning, stacklevel=3)
        indexing = 'ij'
    if not isinstance(indexing, str):
        raise TypeError('meshgrid(): argument \'indexing\' must be str, not %s' % type(indexing).__name__)
    return tuple(Gnn.meshgrid(ts, indexing))


@_export
def block_diag(*tensors):
    """torch.block_diag: the block-diagonal matrix of 0-, 1- and 2-d tensors."""
    return Gnn.block_diag(_tensor_list('block_diag', tensors))


@_export
def cartesian_prod(*tensors):
    """torch.cartesian_prod: the rows of every combination of the vectors' entries."""
    return Gnn.cartesian_prod(_tensor_list('cartesian_prod', tensors))


def _size_arg(name, size):
    if len(size) == 1 and isinstance(size[0], (tuple, list, _Size)):
        size = size[0]
    return _int_list(name, 'size', list(size))


@_export
def broadcast_to(input, *size):
    """torch.broadcast_to / Tensor.broadcast_to: input expanded to size (a view)."""
    _check_tensor('broadcast_to', input)
    return Gnn.Tensor.broadcast_to(input, _size_arg('broadcast_to', size))


@_export
def broadcast_tensors(*tensors):
    """torch.broadcast_tensors: the tensors expanded to their common shape, a tuple of views."""
    return tuple(Gnn.broadcast_tensors(_varargs_tensors('broadcast_tensors', tensors)))


@_export
def broadcast_shapes(*shapes):
    """torch.broadcast_shapes: the shape tensors of these shapes broadcast to, a Size; each
    shape is an int or a sequence of ints."""
    result = []
    for shape in shapes:
        dims = [int(shape)] if _is_int(shape) else _int_list('broadcast_shapes', 'shape', list(shape))
        for d in dims:
            if d < 0:
                raise RuntimeError('Trying to create tensor with negative dimension %d: %s' % (d, dims))
        if len(dims) > len(result):
            result = [1] * (len(dims) - len(result)) + result
        for k in range(1, len(dims) + 1):
            a, b = result[-k], dims[-k]
            if a == 1:
                result[-k] = b
            elif b != 1 and a != b:
                raise RuntimeError('Shape mismatch: objects cannot be broadcast to a single shape')
    return _Size(result)


@_export
def unflatten(input, dim, sizes):
    """torch.unflatten / Tensor.unflatten: dim replaced by sizes (one may be -1), a view."""
    _check_tensor('unflatten', input)
    if not _is_int(dim):
        raise TypeError('unflatten(): argument \'dim\' must be int, not %s' % type(dim).__name__)
    return Gnn.Tensor.unflatten(input, int(dim), _int_list('unflatten', 'sizes', sizes))


for _name in __all__:
    if _name != 'row_stack':
        globals()[_name] = raising_torch_errors(globals()[_name])
row_stack = vstack
del _name
