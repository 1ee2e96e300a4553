# the rest of torch.Tensor's and torch's everyday surface: geometry and kind queries, the
# .data alias, in-place view ops, dtype promotion (result_type, promote_types, can_cast,
# finfo, iinfo, set_default_dtype), small compositions (addmv, addr, sum_to_size,
# combinations, cumulative_trapezoid, ...) and torch's namespace-level spellings of
# functional ops (torch.dropout, torch.batch_norm, ...) with their positional signatures,
# which differ from torch.nn.functional's in places.
#
# Everything here is composed from the C ops (their gradients follow from the parts) or is a
# query of the tensor's geometry; the rows of names.py make the functions torch.X and the
# methods Tensor.X.
#
# SPDX-License-Identifier: LGPL-2.1-or-later
import builtins as _builtins
import functools as _functools
import itertools as _itertools
import math as _math
import numbers as _numbers
import warnings as _warnings

from .base import Gnn
from .errors import raising_torch_errors
from . import tensor as _tensor_part
from .tensor import Tensor, as_dtype, dtype as _dtype_class, get_default_dtype, tensor, _INTEGRAL
from . import functions as _fn

__all__ = []


def _export(fn):
    __all__.append(fn.__name__)
    return fn


def _check_tensor(name, value, what='input'):
    if not isinstance(value, Gnn.Tensor):
        raise TypeError("%s(): argument '%s' must be Tensor, not %s" % (name, what, type(value).__name__))


def _size_list(name, size):
    """*size as numbers, one sequence or a torch.Size -> a list of ints."""
    if len(size) == 1 and isinstance(size[0], (tuple, list)):
        size = size[0]
    for s in size:
        if not _fn._is_int(s):
            raise TypeError("%s(): argument 'size' must be a tuple of ints, not an element of type %s"
                            % (name, type(s).__name__))
    return [int(s) for s in size]


def _wrap_dim(dim, ndim):
    lo, hi = -_builtins.max(ndim, 1), _builtins.max(ndim, 1) - 1
    if not lo <= dim <= hi:
        raise IndexError('Dimension out of range (expected to be in range of [%d, %d], but got %d)'
                         % (lo, hi, dim))
    return dim % _builtins.max(ndim, 1)


# ---- constants ----

pi = _math.pi
e = _math.e
inf = _math.inf
nan = _math.nan
__all__ += ['pi', 'e', 'inf', 'nan']


# ---- Tensor: geometry and kind ----

def _stride(self, dim=None):
    """Tensor.stride (): the stride of each dim in elements; stride (dim): that dim's."""
    strides = tuple(self.get_strides())
    if dim is None:
        return strides
    if not _fn._is_int(dim):
        raise TypeError("stride(): argument 'dim' must be int, not %s" % type(dim).__name__)
    return strides[_wrap_dim(int(dim), len(strides))]


def _storage_offset(self):
    """Tensor.storage_offset (): the first element's offset in the storage, in elements."""
    return self.get_storage_offset()


def _element_size(self):
    """Tensor.element_size (): the size of one element in bytes."""
    return Gnn.dtype_get_size(self.get_dtype())


def _is_complex(self):
    """Tensor.is_complex (): False (gnn has no complex dtypes)."""
    return False


def _is_signed(self):
    """Tensor.is_signed (): False for bool and uint8."""
    return as_dtype(self.get_dtype()).is_signed


def _is_nonzero(self):
    """Tensor.is_nonzero (): the one element's truth, as bool (t) but for tensors of one element
    only."""
    n = self.get_numel()
    if n == 0:
        raise RuntimeError('Boolean value of Tensor with no values is ambiguous')
    if n > 1:
        raise RuntimeError('Boolean value of Tensor with more than one value is ambiguous')
    return _builtins.bool(self.item())


def _is_same_size(self, other):
    """Tensor.is_same_size (other): the same shape."""
    _check_tensor('is_same_size', other, 'other')
    return list(self.get_shape()) == list(other.get_shape())


for _name, _fn_ in (('stride', _stride), ('storage_offset', _storage_offset),
                    ('element_size', _element_size), ('is_complex', _is_complex),
                    ('is_signed', _is_signed), ('is_nonzero', _is_nonzero),
                    ('is_same_size', _is_same_size)):
    _fn_.__name__ = _fn_.__qualname__ = _name
    setattr(Tensor, _name, _fn_)

Tensor.is_cuda = property(lambda self: self.get_device().startswith('cuda'),
                          doc='Tensor.is_cuda: whether the tensor is on a CUDA device.')
Tensor.is_cpu = property(lambda self: self.get_device() == 'cpu',
                         doc='Tensor.is_cpu: whether the tensor is on the CPU.')
Tensor.is_sparse = False      # gnn's tensors are dense (strided)
if 'is_quantized' not in Tensor.__dict__:
    Tensor.is_quantized = False   # the quantized tensors of the quant part say True
Tensor.retains_grad = property(lambda self: self.get_retains_grad(),
                               doc='Tensor.retains_grad: whether retain_grad () was called on this '
                                   'non-leaf tensor.')


# ---- Tensor.data ----

def _data_get(self):
    # a new tensor object on the same storage and geometry, no autograd history, its own
    # version counter: torch's .data, whose in-place writes autograd does not see
    alias = Gnn.Tensor.new_empty([0], self.get_dtype(), self.get_device())
    Gnn.Tensor.set_data(alias, self)
    return alias


def _data_set(self, value):
    if not isinstance(value, Gnn.Tensor):
        raise TypeError('Variable data has to be a tensor, but got %s' % type(value).__name__)
    if self.get_requires_grad() and not Gnn.dtype_is_floating(value.get_dtype()):
        raise RuntimeError('data set to a tensor that requires gradients must be floating point or '
                           'complex dtype')
    raising_torch_errors(Gnn.Tensor.set_data)(self, value)


Tensor.data = property(_data_get, _data_set, doc=(
    'Tensor.data: the tensor\'s storage as a tensor without autograd history (requires_grad '
    'False; in-place writes through it change this tensor and are not seen by autograd); '
    '``t.data = other`` makes t hold other\'s storage and geometry, keeping t\'s identity and '
    'autograd settings.'))


# ---- Tensor: shapes as another tensor's, and aliases of views ----

def view_as(self, other):
    """Tensor.view_as (other): view (other.size ())."""
    _check_tensor('view_as', other, 'other')
    return self.view(*other.get_shape())


def reshape_as(self, other):
    """Tensor.reshape_as (other): reshape (other.size ())."""
    _check_tensor('reshape_as', other, 'other')
    return _fn.reshape(self, *other.get_shape())


def type_as(self, other):
    """Tensor.type_as (other): the tensor in other's dtype (and device)."""
    _check_tensor('type_as', other, 'other')
    return self.to(other.get_device(), other.get_dtype())


def _where_method(self, condition, y):
    """Tensor.where (condition, y): torch.where (condition, self, y)."""
    return _fn.where(condition, self, y)


_where_method.__name__ = _where_method.__qualname__ = 'where'


def positive(input):
    """torch.positive / Tensor.positive: the tensor itself (bool tensors are refused)."""
    _check_tensor('positive', input)
    if input.get_dtype() == Gnn.Dtype.BOOL:
        raise RuntimeError('The `+` operator, on a bool tensor is not supported.')
    return input


def sum_to_size(self, *size):
    """Tensor.sum_to_size (*size): summed down to size, which must broadcast to the tensor's
    shape (the reduction of a broadcast's gradient)."""
    size = _size_list('sum_to_size', size)
    shape = list(self.get_shape())
    lead = len(shape) - len(size)
    if lead < 0 or _builtins.any(s not in (1, shape[lead + k]) for k, s in enumerate(size)):
        raise RuntimeError('size {%s} is not expandable to size {%s}.' % (size, shape))
    result = self
    dims = [k for k, s in enumerate(size) if s == 1 and shape[lead + k] != 1]
    if dims:
        result = _fn.sum(result, [lead + k for k in dims], keepdim=True)
    if lead:
        result = _fn.sum(result, list(_builtins.range(lead)))
    return result


def new_tensor(self, data, dtype=None, device=None, requires_grad=False):
    """Tensor.new_tensor (data): a copy of data in this tensor's dtype and device unless given."""
    t = tensor(data, dtype=self.get_dtype() if dtype is None else as_dtype(dtype))
    device = self.get_device() if device is None else _fn._device(device)
    if device != t.get_device():
        t = Gnn.Tensor.to_device(t, device)
    return _fn._finish(t, requires_grad)


def _strided(name, size, stride, dtype, device):
    """A new tensor of size with the strides stride, for the layouts view ops can make: every
    dim's stride a multiple of the extent of the dims of smaller stride (dense, permuted or
    padded), size-1 dims any, 0 for an expanded dim."""
    size = _size_list(name, (size,))
    stride = _size_list(name, (stride,))
    if len(size) != len(stride):
        raise RuntimeError('mismatch in length of strides and shape')
    if _builtins.any(s < 0 for s in size) or _builtins.any(s < 0 for s in stride):
        raise RuntimeError('%s: sizes and strides must be non-negative, got size %s and stride %s'
                           % (name, size, stride))
    real = sorted((k for k in _builtins.range(len(size)) if size[k] > 1 and stride[k] > 0),
                  key=lambda k: (stride[k], k))
    alloc = []   # (extent, original dim or None for padding), innermost first
    if real and stride[real[0]] > 1:
        alloc.append((stride[real[0]], None))
    for j, k in enumerate(real):
        if j + 1 < len(real):
            outer = stride[real[j + 1]]
            if outer % stride[k] or outer // stride[k] < size[k]:
                raise NotImplementedError('%s: the strides %s with size %s overlap or interleave, which '
                                          'gnn\'s views cannot make' % (name, stride, size))
            alloc.append((outer // stride[k], k))
        else:
            alloc.append((size[k], k))
    outer = list(reversed(alloc))
    t = Gnn.Tensor.new_empty([n for n, _ in outer] or [1], dtype, device)
    if not outer:
        t = Gnn.Tensor.reshape(t, [])
    order = [k for _, k in outer]
    for pos in _builtins.range(len(order) - 1, -1, -1):   # drop the padding dim, cut the others
        if order[pos] is None:
            t = Gnn.Tensor.select(t, pos, 0)
            del order[pos]
    for pos, k in enumerate(order):
        if t.get_shape()[pos] != size[k]:
            t = Gnn.Tensor.narrow(t, pos, 0, size[k])
    # order holds the dims of t by their original index; add the others, then permute
    for k in _builtins.range(len(size)):
        if k not in order:
            t = Gnn.Tensor.unsqueeze(t, len(order))
            order.append(k)
    t = Gnn.Tensor.permute(t, [order.index(k) for k in _builtins.range(len(size))])
    if _builtins.any(size[k] > 1 and stride[k] == 0 for k in _builtins.range(len(size))) or 0 in size:
        t = Gnn.Tensor.expand(t, size) if 0 not in size else Gnn.Tensor.new_empty(size, dtype, device)
    return t


def new_empty_strided(self, size, stride, dtype=None, layout=None, device=None, requires_grad=False,
                      pin_memory=False):
    """Tensor.new_empty_strided (size, stride): empty_strided in this tensor's dtype and device
    unless given."""
    dtype = self.get_dtype() if dtype is None else as_dtype(dtype)
    device = self.get_device() if device is None else _fn._device(device)
    return _fn._finish(_strided('new_empty_strided', size, stride, dtype, device), requires_grad)


@_export
def empty_strided(size, stride, *, dtype=None, layout=None, device=None, requires_grad=False,
                  pin_memory=False):
    """torch.empty_strided (size, stride): an uninitialised tensor with those strides (the
    layouts gnn's views can make: dense in any dim order, padded, expanded)."""
    return _fn._finish(_strided('empty_strided', size, stride, _fn._dtype_or_default(dtype),
                                _fn._device(device)), requires_grad)


def unsafe_chunk(self, chunks, dim=0):
    """Tensor.unsafe_chunk: chunk (views; gnn's version counters keep them safe)."""
    return _fn.chunk(self, chunks, dim)


def unsafe_split(self, split_size, dim=0):
    """Tensor.unsafe_split (split_size, dim=0): split into pieces of one size (an int, as
    torch's)."""
    if not _fn._is_int(split_size):
        raise TypeError("unsafe_split(): argument 'split_size' (position 1) must be int, not %s"
                        % type(split_size).__name__)
    return _fn.split(self, split_size, dim)


# ---- Tensor: in-place view ops and detach_ ----

def _in_place_view(name, self, view):
    """Makes self the view @view of its storage (set_data): torch's x.unsqueeze_ (0) and the
    like, which change a tensor's geometry without touching its elements."""
    if self.get_requires_grad() and Gnn.is_grad_enabled():
        if self.is_leaf():
            raise RuntimeError('a leaf Variable that requires grad is being used in an in-place operation.')
        raise RuntimeError('%s: gnn cannot change the shape of a tensor with autograd history in place; '
                           'use the out-of-place op (x = x.%s (...))' % (name, name.rstrip('_')))
    Gnn.Tensor.set_data(self, view)
    return self


def squeeze_(self, dim=None):
    """Tensor.squeeze_ (dim=None): squeeze in place."""
    return _in_place_view('squeeze_', self, _fn.squeeze(self, dim))


def unsqueeze_(self, dim):
    """Tensor.unsqueeze_ (dim): unsqueeze in place."""
    return _in_place_view('unsqueeze_', self, _fn.unsqueeze(self, dim))


def t_(self):
    """Tensor.t_ (): t in place (tensors of up to 2 dims)."""
    if self.get_ndim() > 2:
        raise RuntimeError('t_() expects a tensor with <= 2 dimensions, but self is %dD' % self.get_ndim())
    return _in_place_view('t_', self, Gnn.Tensor.t(self) if self.get_ndim() == 2 else Gnn.Tensor.detach(self))


def transpose_(self, dim0, dim1):
    """Tensor.transpose_ (dim0, dim1): transpose in place."""
    return _in_place_view('transpose_', self, _fn.transpose(self, dim0, dim1))


def swapaxes_(self, axis0, axis1):
    """Tensor.swapaxes_: transpose_."""
    return _in_place_view('swapaxes_', self, _fn.transpose(self, axis0, axis1))


def swapdims_(self, dim0, dim1):
    """Tensor.swapdims_: transpose_."""
    return _in_place_view('swapdims_', self, _fn.transpose(self, dim0, dim1))


def detach_(self):
    """Tensor.detach_ (): the tensor made a leaf that does not require grad, in place (the C
    op); a view is refused, as torch refuses it."""
    if self.is_view():
        raise RuntimeError("Can't detach views in-place. Use detach() instead.")
    Gnn.Tensor.detach_(self)
    return self


# ---- Tensor: conjugates and the real part (gnn's dtypes are real) ----

def _h(self):
    if self.get_ndim() != 2:
        raise RuntimeError('tensor.H is only supported on matrices (2-D tensors). Got %d-D tensor.%s'
                           % (self.get_ndim(), ' For batches of matrices, consider using tensor.mH'
                              if self.get_ndim() > 2 else ''))
    return Gnn.Tensor.transpose(self, 0, 1)


def _m_h(self):
    if self.get_ndim() < 2:
        raise RuntimeError('tensor.mH is only supported on matrices or batches of matrices. Got %d-D '
                           'tensor.' % self.get_ndim())
    return Gnn.Tensor.transpose(self, -2, -1)


def adjoint(input):
    """torch.adjoint / Tensor.adjoint: the last two dims swapped (and conjugated: gnn's dtypes
    are real)."""
    _check_tensor('adjoint', input)
    if input.get_ndim() < 2:
        raise RuntimeError('tensor.adjoint() is only supported on matrices or batches of matrices. '
                           'Got %d-D tensor.' % input.get_ndim())
    return Gnn.Tensor.transpose(input, -2, -1)


def _itself(name, doc):
    def op(self):
        return self
    op.__name__ = op.__qualname__ = name
    op.__doc__ = doc
    return op


def _false(name, doc):
    def op(self):
        return False
    op.__name__ = op.__qualname__ = name
    op.__doc__ = doc
    return op


def _imag(self):
    raise RuntimeError('imag is not implemented for tensors with non-complex dtypes.')


Tensor.H = property(_h, doc='Tensor.H: the conjugate transpose of a matrix (its transpose: gnn\'s '
                            'dtypes are real).')
Tensor.mH = property(_m_h, doc='Tensor.mH: the conjugate transpose of a batch of matrices.')
Tensor.real = property(lambda self: self, doc='Tensor.real: the tensor itself (gnn\'s dtypes are real).')
Tensor.imag = property(_imag, doc='Tensor.imag: refused, as torch refuses it for real dtypes.')
conj = _itself('conj', 'torch.conj / Tensor.conj: the tensor itself (gnn\'s dtypes are real).')
resolve_conj = _itself('resolve_conj', 'torch.resolve_conj: the tensor itself.')
resolve_neg = _itself('resolve_neg', 'torch.resolve_neg: the tensor itself.')
is_conj = _false('is_conj', 'torch.is_conj: False (gnn has no lazy conjugation).')
is_neg = _false('is_neg', 'torch.is_neg: False (gnn has no lazy negation).')
__all__ += ['conj', 'resolve_conj', 'resolve_neg', 'is_conj', 'is_neg', 'adjoint', 'positive']


# ---- products ----

def _check_dims(name, what, t, ndim):
    if t.get_ndim() != ndim:
        raise RuntimeError('%s: Expected %d-D argument %s, but got %d-D' % (name, ndim, what, t.get_ndim()))


@_export
def addmv(input, mat, vec, *, beta=1, alpha=1, out=None):
    """torch.addmv / Tensor.addmv: beta * input + alpha * (mat @ vec) (addmm of vec as a
    column; beta 0 ignores input, NaNs included)."""
    _fn._no_out('addmv', out)
    _check_tensor('addmv', input)
    _check_tensor('addmv', mat, 'mat')
    _check_tensor('addmv', vec, 'vec')
    if mat.get_ndim() != 2 or vec.get_ndim() != 1 or input.get_ndim() > 1:
        raise RuntimeError('vector + matrix @ vector expected, got %d, %d, %d'
                           % (input.get_ndim(), mat.get_ndim(), vec.get_ndim()))
    result = Gnn.Tensor.addmm(Gnn.Tensor.unsqueeze(input, -1), mat, Gnn.Tensor.unsqueeze(vec, -1),
                              float(beta), float(alpha))
    return Gnn.Tensor.squeeze_dim(result, -1)


@_export
def addr(input, vec1, vec2, *, beta=1, alpha=1, out=None):
    """torch.addr / Tensor.addr: beta * input + alpha * outer (vec1, vec2) (addmm of a column
    and a row)."""
    _fn._no_out('addr', out)
    _check_tensor('addr', input)
    _check_tensor('addr', vec1, 'vec1')
    _check_tensor('addr', vec2, 'vec2')
    _check_dims('addr', 'vec1', vec1, 1)
    _check_dims('addr', 'vec2', vec2, 1)
    return Gnn.Tensor.addmm(input, Gnn.Tensor.unsqueeze(vec1, 1), Gnn.Tensor.unsqueeze(vec2, 0),
                            float(beta), float(alpha))


@_export
def vdot(input, other, *, out=None):
    """torch.vdot / Tensor.vdot: the dot product of two 1-D tensors (the first conjugated:
    gnn's dtypes are real)."""
    _fn._no_out('vdot', out)
    _check_tensor('vdot', input)
    _check_tensor('vdot', other, 'other')
    if input.get_ndim() != 1 or other.get_ndim() != 1:
        raise RuntimeError('1D tensors expected, but got %dD and %dD tensors'
                           % (input.get_ndim(), other.get_ndim()))
    return Gnn.Tensor.dot(input, other)


@_export
def chain_matmul(*matrices, out=None):
    """torch.chain_matmul (*matrices): the product of 2-D tensors, left to right (deprecated in
    torch for linalg.multi_dot)."""
    _fn._no_out('chain_matmul', out)
    if not matrices:
        raise RuntimeError('chain_matmul(): Expected one or more matrices')
    for k, m in enumerate(matrices):
        _check_tensor('chain_matmul', m, 'matrices[%d]' % k)
        if m.get_ndim() != 2:
            raise RuntimeError('Tensor dimension is %d, expected 2 instead.' % m.get_ndim())
    if len(matrices) == 1:
        return Gnn.Tensor.clone(matrices[0])
    result = matrices[0]
    for m in matrices[1:]:
        result = Gnn.Tensor.matmul(result, m)
    return result


@_export
def bilinear(input1, input2, weight, bias=None):
    """torch.bilinear / F.bilinear: y[..., o] = x1 W[o] x2 + b[o], composed of matmuls."""
    for what, t in (('input1', input1), ('input2', input2), ('weight', weight)):
        _check_tensor('bilinear', t, what)
    if weight.get_ndim() != 3:
        raise RuntimeError('bilinear(): weight must be 3-dimensional, got %d-D' % weight.get_ndim())
    o, i, j = weight.get_shape()
    lead = list(input1.get_shape())[:-1]
    if input1.get_ndim() < 1 or input1.get_shape()[-1] != i or input2.get_ndim() < 1 \
            or input2.get_shape()[-1] != j or list(input2.get_shape())[:-1] != lead:
        raise RuntimeError('bilinear(): input1 (%s) and input2 (%s) must end in the weight\'s in1 and in2 '
                           'sizes (%d and %d) and agree in their other dims'
                           % (list(input1.get_shape()), list(input2.get_shape()), i, j))
    x1 = Gnn.Tensor.reshape(input1, [-1, i])
    x2 = Gnn.Tensor.reshape(input2, [-1, j])
    # (n, i) @ (i, o * j) -> (n, o, j), then the sum over j with x2
    w = Gnn.Tensor.reshape(Gnn.Tensor.permute(weight, [1, 0, 2]), [i, o * j])
    t = Gnn.Tensor.reshape(Gnn.Tensor.matmul(x1, w), [-1, o, j])
    y = Gnn.Tensor.squeeze_dim(Gnn.Tensor.matmul(t, Gnn.Tensor.unsqueeze(x2, -1)), -1)
    if bias is not None:
        y = Gnn.Tensor.add(y, bias, 1.0)
    return Gnn.Tensor.reshape(y, lead + [o])


# ---- dtypes: the default, promotion, limits ----

_FLOATING = (Gnn.Dtype.FLOAT32, Gnn.Dtype.FLOAT64, Gnn.Dtype.FLOAT16, Gnn.Dtype.BFLOAT16)


def _is_dtype(value):
    return isinstance(value, (_dtype_class, Gnn.Dtype))


@_export
def set_default_dtype(d):
    """torch.set_default_dtype (d): the dtype of floating-point factories (zeros, rand, arange
    of floats, ...), of Python floats in tensor (), of a float scalar with an integer tensor
    and of the parameters of the layers that take dtype= (torch.nn.Linear (2, 3) after
    set_default_dtype (torch.float64) has float64 weights, as torch's)."""
    if not _is_dtype(d):
        raise TypeError('invalid dtype object: only floating-point types are supported as the default type')
    if int(d) not in [int(f) for f in _FLOATING]:
        raise TypeError('only floating-point types are supported as the default type')
    _tensor_part._default_dtype[0] = Gnn.Dtype(int(d))


_CATEGORY = {int(Gnn.Dtype.BOOL): 0}
for _d in (Gnn.Dtype.UINT8, Gnn.Dtype.INT8, Gnn.Dtype.INT16, Gnn.Dtype.INT32, Gnn.Dtype.INT64):
    _CATEGORY[int(_d)] = 1
for _d in _FLOATING:
    _CATEGORY[int(_d)] = 2
_BITS = {int(Gnn.Dtype.BOOL): 8, int(Gnn.Dtype.UINT8): 8, int(Gnn.Dtype.INT8): 8, int(Gnn.Dtype.INT16): 16,
         int(Gnn.Dtype.INT32): 32, int(Gnn.Dtype.INT64): 64, int(Gnn.Dtype.FLOAT16): 16,
         int(Gnn.Dtype.BFLOAT16): 16, int(Gnn.Dtype.FLOAT32): 32, int(Gnn.Dtype.FLOAT64): 64}
_SIGNED_OF_BITS = {8: Gnn.Dtype.INT8, 16: Gnn.Dtype.INT16, 32: Gnn.Dtype.INT32, 64: Gnn.Dtype.INT64}


def _promote(a, b):
    """torch's promotion lattice over gnn's dtypes (a, b Gnn.Dtype ints, None for none yet)."""
    if a is None:
        return b
    if b is None or a == b:
        return a
    ca, cb = _CATEGORY[a], _CATEGORY[b]
    if ca != cb:
        return a if ca > cb else b
    if ca == 1:
        if int(Gnn.Dtype.UINT8) in (a, b):
            other = b if a == int(Gnn.Dtype.UINT8) else a
            return int(Gnn.Dtype.INT16) if other == int(Gnn.Dtype.INT8) else other
        return a if _BITS[a] > _BITS[b] else b
    # floating: float16 with bfloat16 is float32, else the wider
    if {a, b} == {int(Gnn.Dtype.FLOAT16), int(Gnn.Dtype.BFLOAT16)}:
        return int(Gnn.Dtype.FLOAT32)
    return a if _BITS[a] > _BITS[b] else b


def _dtype_arg(name, what, position, value):
    if not _is_dtype(value):
        raise TypeError("%s(): argument '%s' (position %d) must be torch.dtype, not %s"
                        % (name, what, position, type(value).__name__))
    return int(value)


@_export
def promote_types(type1, type2):
    """torch.promote_types: the smallest dtype that holds both kinds and sizes."""
    return as_dtype(_promote(_dtype_arg('promote_types', 'type1', 1, type1),
                             _dtype_arg('promote_types', 'type2', 2, type2)))


@_export
def can_cast(from_, to):
    """torch.can_cast (from, to): whether the casting rules of type promotion allow it (no
    floating to integral, nothing but bool to bool)."""
    f = _dtype_arg('can_cast', 'from', 1, from_)
    t = _dtype_arg('can_cast', 'to', 2, to)
    if _CATEGORY[f] == 2 and _CATEGORY[t] < 2:
        return False
    if f != int(Gnn.Dtype.BOOL) and t == int(Gnn.Dtype.BOOL):
        return False
    return True


def _combine(higher, lower):
    """torch's combination of the result of one priority (dimensioned tensors, 0-d tensors,
    numbers) with the next: a higher kind in the lower priority lifts the result."""
    if higher is not None and _CATEGORY[higher] == 2:
        return higher
    if higher == int(Gnn.Dtype.BOOL) or (lower is not None and _CATEGORY[lower] == 2):
        return _promote(higher, lower)
    return higher if higher is not None else lower


@_export
def result_type(tensor1, tensor2):
    """torch.result_type: the dtype of an arithmetic op on the two (tensors or numbers), by
    torch's rules: 0-d tensors and numbers lift only the kind (bool, integer, floating) of the
    dimensioned operands, a Python float counting as the default dtype."""
    tiers = [None, None, None]   # dimensioned, 0-d, numbers
    for k, v in enumerate((tensor1, tensor2)):
        what = 'tensor%d' % (k + 1)
        if isinstance(v, Gnn.Tensor):
            tier, d = (0 if v.get_ndim() > 0 else 1), int(v.get_dtype())
        elif isinstance(v, _builtins.bool):
            tier, d = 2, int(Gnn.Dtype.BOOL)
        elif isinstance(v, _numbers.Integral):
            tier, d = 2, int(Gnn.Dtype.INT64)
        elif isinstance(v, _numbers.Real):
            tier, d = 2, int(get_default_dtype())
        else:
            raise TypeError("result_type(): argument '%s' must be Tensor or Number, not %s"
                            % (what, type(v).__name__))
        tiers[tier] = _promote(tiers[tier], d)
    return as_dtype(_combine(tiers[0], _combine(tiers[1], tiers[2])))


def _finfo_values(d):
    import numpy as np
    if d == int(Gnn.Dtype.BFLOAT16):
        eps, big, tiny = 2.0 ** -7, float(np.float32(3.3895313892515355e+38)), 2.0 ** -126
    else:
        f = np.finfo(_tensor_part._NP_DTYPE_NAMES[Gnn.Dtype(d)])
        eps, big, tiny = float(f.eps), float(f.max), float(f.tiny)
    return eps, big, tiny


class finfo:
    """torch.finfo (type=None): the limits of a floating dtype (the default dtype if none):
    bits, eps, max, min, tiny (= smallest_normal), resolution and dtype (its name)."""

    __slots__ = ('bits', 'eps', 'max', 'min', 'tiny', 'smallest_normal', 'resolution', 'dtype')

    def __init__(self, type=None):
        if type is None:
            type = get_default_dtype()
        d = _dtype_arg('finfo', 'type', 1, type)
        if _CATEGORY[d] != 2:
            raise TypeError("torch.finfo() requires a floating point input type. Use torch.iinfo to "
                            "handle 'torch.finfo'")
        self.eps, self.max, self.tiny = _finfo_values(d)
        self.min = -self.max
        self.smallest_normal = self.tiny
        self.bits = _BITS[d]
        self.resolution = 10.0 ** -_math.floor(-_math.log10(self.eps))
        self.dtype = repr(as_dtype(d))[len('torch.'):]

    def __eq__(self, other):
        return isinstance(other, finfo) and self.dtype == other.dtype

    def __hash__(self):
        return hash(('finfo', self.dtype))

    def __repr__(self):
        return ('finfo(resolution=%g, min=%g, max=%g, eps=%g, smallest_normal=%g, tiny=%g, dtype=%s)'
                % (self.resolution, self.min, self.max, self.eps, self.smallest_normal, self.tiny, self.dtype))

    __str__ = __repr__


class iinfo:
    """torch.iinfo (type): the limits of an integer dtype: bits, max, min and dtype (its name)."""

    __slots__ = ('bits', 'max', 'min', 'dtype')

    def __init__(self, type):
        d = _dtype_arg('iinfo', 'type', 1, type)
        if d == int(Gnn.Dtype.BOOL):
            raise TypeError('torch.bool is not supported by torch.iinfo')
        if _CATEGORY[d] != 1:
            raise TypeError("torch.iinfo() requires an integer input type. Use torch.finfo to handle "
                            "'torch.iinfo'")
        self.bits = _BITS[d]
        if d == int(Gnn.Dtype.UINT8):
            self.min, self.max = 0, 255
        else:
            self.min, self.max = -2 ** (self.bits - 1), 2 ** (self.bits - 1) - 1
        self.dtype = repr(as_dtype(d))[len('torch.'):]

    def __eq__(self, other):
        return isinstance(other, iinfo) and self.dtype == other.dtype

    def __hash__(self):
        return hash(('iinfo', self.dtype))

    def __repr__(self):
        return 'iinfo(min=%g, max=%g, dtype=%s)' % (self.min, self.max, self.dtype)

    __str__ = __repr__


__all__ += ['finfo', 'iinfo']


# ---- torch.X spellings of the methods above, and small functions ----

def _namespace_of(method, name, doc):
    def fn(input, *args, **kwargs):
        _check_tensor(name, input)
        return method(input, *args, **kwargs)
    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = doc
    return fn


is_nonzero = _namespace_of(_is_nonzero, 'is_nonzero', 'torch.is_nonzero (input).')
is_same_size = _namespace_of(_is_same_size, 'is_same_size', 'torch.is_same_size (input, other).')
is_signed = _namespace_of(_is_signed, 'is_signed', 'torch.is_signed (input).')
is_complex = _namespace_of(_is_complex, 'is_complex', 'torch.is_complex (input): False (gnn has no '
                                                      'complex dtypes).')
__all__ += ['is_nonzero', 'is_same_size', 'is_signed', 'is_complex']


@_export
def clone(input, *, memory_format=None):
    """torch.clone (input): a copy that autograd sees (the C op)."""
    _check_tensor('clone', input)
    return Gnn.Tensor.clone(input)


@_export
def ravel(input):
    """torch.ravel / Tensor.ravel: the elements as a 1-D tensor (a view where one can be)."""
    _check_tensor('ravel', input)
    return _fn.reshape(input, -1)


@_export
def concatenate(tensors, dim=0, *, axis=None, out=None):
    """torch.concatenate: cat (axis is numpy's spelling of dim)."""
    return _fn.cat(tensors, dim if axis is None else axis, out=out)


@_export
def rsub(input, other, alpha=1):
    """torch.rsub (input, other, alpha=1): other - alpha * input."""
    _check_tensor('rsub', input)
    if input.get_dtype() == Gnn.Dtype.BOOL and (isinstance(other, _builtins.bool) or (
            isinstance(other, Gnn.Tensor) and other.get_dtype() == Gnn.Dtype.BOOL)):
        raise RuntimeError('Subtraction, the `-` operator, with two bool tensors is not supported. Use '
                           'the `^` or `logical_xor()` operator instead.')
    if isinstance(other, Gnn.Tensor):
        return _fn.sub(other, input, alpha)
    if not _fn._is_scalar(other):
        raise TypeError("rsub(): argument 'other' must be Tensor or Number, not %s" % type(other).__name__)
    scaled = input if alpha == 1 else Tensor.__mul__(input, alpha)
    return Tensor.__rsub__(scaled, other)


@_export
def scalar_tensor(s, *, dtype=None, layout=None, device=None, requires_grad=False, pin_memory=False):
    """torch.scalar_tensor (s): a 0-d tensor of s, in the default dtype unless given (an int or
    a bool too)."""
    _fn._check_scalar('scalar_tensor', 's', s)
    return _fn._finish(Gnn.Tensor.new_full([], float(s), _fn._dtype_or_default(dtype), _fn._device(device)),
                       requires_grad)


@_export
def fill(input, value):
    """torch.fill (input, value): a new tensor of input's shape and dtype, every element value
    (a number, or a 0-d tensor, which then gets the gradient); input gets a zero gradient
    (masked_fill with an all-true mask)."""
    _check_tensor('fill', input)
    if isinstance(value, Gnn.Tensor):
        if value.get_ndim() != 0:
            raise RuntimeError('fill only supports 0-dimension value tensor but got tensor with %d '
                               'dimensions.' % value.get_ndim())
    else:
        _fn._check_scalar('fill', 'value', value)
    mask = Gnn.Tensor.new_ones(list(input.get_shape()), Gnn.Dtype.BOOL, input.get_device())
    return _fn.masked_fill(input, mask, value)


@_export
def zero_(input):
    """torch.zero_ (input): input filled with zeros, in place; returns it."""
    _check_tensor('zero_', input)
    return input.zero_()


@_export
def range(start, end, step=1, *, out=None, dtype=None, layout=None, device=None,
          requires_grad=False):
    """torch.range (start, end, step=1): from start to end inclusive, in the default dtype
    unless given (deprecated in torch for arange, which excludes end)."""
    import numpy as np
    _fn._no_out('range', out)
    _warnings.warn('torch.range is deprecated and will be removed in a future release because its '
                   "behavior is inconsistent with Python's range builtin. Instead, use torch.arange, "
                   'which produces values in [start, end).', UserWarning, stacklevel=2)
    for what, v in (('start', start), ('end', end), ('step', step)):
        _fn._check_scalar('range', what, v)
    if step == 0:
        raise RuntimeError('step must be nonzero')
    if (step > 0 and end < start) or (step < 0 and end > start):
        raise RuntimeError('upper bound and lower bound inconsistent with step sign')
    n = int(_math.floor((float(end) - float(start)) / float(step))) + 1
    values = float(start) + np.arange(n, dtype=np.float64) * float(step)
    result = tensor(values, dtype=_fn._dtype_or_default(dtype))
    if _fn._device(device) not in (None, 'cpu'):
        result = Gnn.Tensor.to_device(result, _fn._device(device))
    return _fn._finish(result, requires_grad)


@_export
def logspace(start, end, steps, base=10.0, *, out=None, dtype=None, layout=None, device=None,
             requires_grad=False):
    """torch.logspace: base ** linspace (start, end, steps), in the default dtype unless given."""
    import numpy as np
    _fn._no_out('logspace', out)
    exponents = _fn.linspace(start, end, steps, dtype=Gnn.Dtype.FLOAT64).numpy()
    values = np.power(float(base), exponents)
    dtype = _fn._dtype_or_default(dtype)
    if dtype in _INTEGRAL:
        values = np.round(values)
    result = tensor(values, dtype=dtype)
    if _fn._device(device) not in (None, 'cpu'):
        result = Gnn.Tensor.to_device(result, _fn._device(device))
    return _fn._finish(result, requires_grad)


@_export
def randint_like(input, *args, low=None, high=None, dtype=None, layout=None, device=None,
                 requires_grad=False, memory_format=None):
    """torch.randint_like (input, high) / (input, low, high): integers in [low, high) in
    input's shape, dtype and device unless given."""
    _check_tensor('randint_like', input)
    if len(args) == 1 and high is None:
        high = args[0]
    elif len(args) == 2:
        low, high = args
    elif args or high is None:
        raise TypeError('randint_like() takes (input, high) or (input, low, high)')
    low = 0 if low is None else low
    for what, v in (('low', low), ('high', high)):
        if not _fn._is_int(v):
            raise TypeError("randint_like(): argument '%s' must be int, not %s" % (what, type(v).__name__))
    device = input.get_device() if device is None else _fn._device(device)
    t = Gnn.Tensor.new_randint(int(low), int(high), list(input.get_shape()), None, device)
    t = Gnn.Tensor.to_dtype(t, input.get_dtype() if dtype is None else as_dtype(dtype))
    return _fn._finish(t, requires_grad)


@_export
def split_with_sizes(input, split_sizes, dim=0):
    """torch.split_with_sizes (input, split_sizes, dim=0): views of those sizes along dim."""
    _check_tensor('split_with_sizes', input)
    sizes = _fn._int_list('split_with_sizes', 'split_sizes', split_sizes)
    d = _wrap_dim(int(dim), input.get_ndim())
    if _builtins.sum(sizes) != input.get_shape()[d]:
        raise RuntimeError("split_with_sizes expects split_sizes to sum exactly to %d (input tensor's size "
                           'at dimension %d), but got split_sizes=%s' % (input.get_shape()[d], int(dim), sizes))
    return tuple(Gnn.Tensor.split_with_sizes(input, sizes, d))


@_export
def combinations(input, r=2, with_replacement=False):
    """torch.combinations (input, r=2, with_replacement=False): the r-element combinations of a
    1-D tensor's elements as rows (itertools' order), by index_select (so gradients flow)."""
    _check_tensor('combinations', input)
    if input.get_ndim() != 1:
        raise RuntimeError('Expect a 1D vector, but got shape %s' % list(input.get_shape()))
    if not _fn._is_int(r) or r < 0:
        raise RuntimeError('Expect a non-negative number, but got %s' % (r,))
    if r == 0:
        return Gnn.Tensor.new_empty([0], input.get_dtype(), input.get_device())
    make = _itertools.combinations_with_replacement if with_replacement else _itertools.combinations
    rows = list(make(list(_builtins.range(input.get_shape()[0])), r))
    index = Gnn.Tensor.new_from_int64s([k for row in rows for k in row], [len(rows) * r]) \
        if rows else Gnn.Tensor.new_empty([0], Gnn.Dtype.INT64, None)
    if input.get_device() != 'cpu':
        index = Gnn.Tensor.to_device(index, input.get_device())
    return Gnn.Tensor.reshape(Gnn.Tensor.index_select(input, 0, index), [len(rows), r])


@_export
def cumulative_trapezoid(y, x=None, *, dx=None, dim=-1):
    """torch.cumulative_trapezoid (y, x=None, *, dx=None, dim=-1): the running trapezoid-rule
    integral along dim, with sample points x (1-D or y's shape) or spacing dx (1 unless given);
    integer y gives the default dtype."""
    _check_tensor('cumulative_trapezoid', y, 'y')
    if x is not None and dx is not None:
        raise TypeError('cumulative_trapezoid(): give x or dx, not both')
    if y.get_dtype() in _INTEGRAL:
        y = Gnn.Tensor.to_dtype(y, get_default_dtype())
    d = _wrap_dim(int(dim), y.get_ndim())
    n = y.get_shape()[d]
    if n == 0:
        return y
    mid = Tensor.__mul__(Gnn.Tensor.add(Gnn.Tensor.narrow(y, d, 1, n - 1), Gnn.Tensor.narrow(y, d, 0, n - 1), 1.0),
                         0.5)
    if x is not None:
        _check_tensor('cumulative_trapezoid', x, 'x')
        if x.get_ndim() == 1:
            if x.get_shape()[0] != n:
                raise RuntimeError('cumulative_trapezoid: There must be one `x` value for each sample point')
            steps = Gnn.Tensor.sub(Gnn.Tensor.narrow(x, 0, 1, n - 1), Gnn.Tensor.narrow(x, 0, 0, n - 1), 1.0)
            shape = [1] * y.get_ndim()
            shape[d] = n - 1
            steps = Gnn.Tensor.reshape(steps, shape)
        else:
            xd = _wrap_dim(int(dim), x.get_ndim())
            m = x.get_shape()[xd]
            steps = Gnn.Tensor.sub(Gnn.Tensor.narrow(x, xd, 1, m - 1), Gnn.Tensor.narrow(x, xd, 0, m - 1), 1.0)
        mid = Gnn.Tensor.mul(mid, steps)
    elif dx is not None:
        mid = Tensor.__mul__(mid, dx)
    return _fn.cumsum(mid, d)


@_export
def typename(o):
    """torch.typename (o): a tensor's type () ('torch.FloatTensor'), else the module and class
    name of o."""
    if isinstance(o, Gnn.Tensor):
        return o.type()
    module = ''
    if getattr(o, '__module__', None) not in ('builtins', '__builtin__', None):
        module = o.__module__ + '.'
    if hasattr(o, '__qualname__'):
        name = o.__qualname__
    elif hasattr(o, '__name__'):
        name = o.__name__
    else:
        name = o.__class__.__name__
    return module + name


# ---- torch.X spellings of functional ops (aten's signatures, not F's) ----

def _reduction_of_int(name, reduction):
    names = {0: 'none', 1: 'mean', 2: 'sum'}
    if not _fn._is_int(reduction):
        raise TypeError("%s(): argument 'reduction' (position 3) must be int, not %s"
                        % (name, type(reduction).__name__))
    if int(reduction) not in names:
        raise ValueError('%s(): reduction is 0 (none), 1 (mean) or 2 (sum), got %d' % (name, reduction))
    return names[int(reduction)]


def _fn_functional(name):
    """The torch.nn.functional op Gnn.<name> (looked up at call time: the functional parts load
    before this one, the Gnn module's namespace after it)."""
    import gi.overrides.Gnn as module
    return getattr(module, name)


def torch_dropout(input, p, train):
    """torch.dropout (input, p, train): F.dropout (input, p, training=train)."""
    return _fn_functional('functional_dropout')(input, p, train)


def torch_batch_norm(input, weight, bias, running_mean, running_var, training, momentum, eps,
                     cudnn_enabled):
    """torch.batch_norm (input, weight, bias, running_mean, running_var, training, momentum,
    eps, cudnn_enabled): F.batch_norm with aten's argument order."""
    return _fn_functional('functional_batch_norm')(input, running_mean, running_var, weight, bias,
                                                   training, momentum, eps)


def torch_layer_norm(input, normalized_shape, weight=None, bias=None, eps=1e-05, cudnn_enable=True):
    """torch.layer_norm (input, normalized_shape, weight=None, bias=None, eps=1e-05,
    cudnn_enable=True)."""
    return _fn_functional('functional_layer_norm')(input, normalized_shape, weight, bias, eps)


def torch_group_norm(input, num_groups, weight=None, bias=None, eps=1e-05, cudnn_enabled=True):
    """torch.group_norm (input, num_groups, weight=None, bias=None, eps=1e-05, cudnn_enabled=True)."""
    return _fn_functional('functional_group_norm')(input, num_groups, weight, bias, eps)


def torch_embedding(weight, indices, padding_idx=-1, scale_grad_by_freq=False, sparse=False):
    """torch.embedding (weight, indices, padding_idx=-1, scale_grad_by_freq=False, sparse=False):
    the weight first, padding_idx -1 for none (aten's order); F.embedding."""
    return _fn_functional('functional_embedding')(indices, weight, None if padding_idx == -1 else padding_idx,
                                                  None, 2.0, scale_grad_by_freq, sparse)


def torch_celu(input, alpha=1.0):
    """torch.celu (input, alpha=1.0)."""
    return _fn_functional('functional_celu')(input, alpha)


def torch_selu(input):
    """torch.selu (input)."""
    return _fn_functional('functional_selu')(input)


def torch_rrelu(input, lower=1.0 / 8, upper=1.0 / 3, training=False, generator=None):
    """torch.rrelu (input, lower=1/8, upper=1/3, training=False, generator=None)."""
    if generator is not None:
        raise TypeError('rrelu(): generator= is not supported by gnn (its rrelu draws from the global generator)')
    return _fn_functional('functional_rrelu')(input, lower, upper, training)


def torch_threshold(input, threshold, value):
    """torch.threshold (input, threshold, value)."""
    return _fn_functional('functional_threshold')(input, threshold, value)


def torch_max_pool1d(input, kernel_size, stride=(), padding=0, dilation=1, ceil_mode=False):
    """torch.max_pool1d (input, kernel_size, stride=[], padding=0, dilation=1, ceil_mode=False):
    an empty stride is the kernel size; no return_indices (torch.max_pool1d_with_indices)."""
    return _fn_functional('functional_max_pool1d')(input, kernel_size, stride or None, padding, dilation,
                                                   ceil_mode)


def torch_max_pool2d(input, kernel_size, stride=(), padding=0, dilation=1, ceil_mode=False):
    """torch.max_pool2d (input, kernel_size, stride=[], padding=0, dilation=1, ceil_mode=False)."""
    return _fn_functional('functional_max_pool2d')(input, kernel_size, stride or None, padding, dilation,
                                                   ceil_mode)


def torch_kl_div(input, target, reduction=0, *, log_target=False):
    """torch.kl_div (input, target, reduction=0, *, log_target=False): reduction as aten's
    int (0 none, 1 mean, 2 sum); torch 1.13's binding does not reduce unless told."""
    return _fn_functional('functional_kl_div')(input, target, reduction=_reduction_of_int('kl_div', reduction),
                                               log_target=log_target)


def torch_binary_cross_entropy_with_logits(input, target, weight=None, pos_weight=None, reduction=0):
    """torch.binary_cross_entropy_with_logits (input, target, weight=None, pos_weight=None,
    reduction=0): pos_weight before reduction, reduction an int (0 none, 1 mean, 2 sum; torch
    1.13's binding does not reduce unless told)."""
    return _fn_functional('functional_binary_cross_entropy_with_logits')(
        input, target, weight, reduction=_reduction_of_int('binary_cross_entropy_with_logits', reduction),
        pos_weight=pos_weight)


__all__ += ['torch_dropout', 'torch_batch_norm', 'torch_layer_norm', 'torch_group_norm', 'torch_embedding',
            'torch_celu', 'torch_selu', 'torch_rrelu', 'torch_threshold', 'torch_max_pool1d',
            'torch_max_pool2d', 'torch_kl_div', 'torch_binary_cross_entropy_with_logits']


# ---- the layers: dtype=None means the default dtype, as in torch ----

def _default_dtype_init(init, names):
    position = names.index('dtype')

    @_functools.wraps(init)   # (inspect.signature follows __wrapped__: torch's parameters)
    def __init__(self, *args, **kwargs):
        if len(args) <= position and kwargs.get('dtype') is None \
                and _tensor_part._default_dtype[0] != Gnn.Dtype.FLOAT32:
            kwargs['dtype'] = get_default_dtype()
        init(self, *args, **kwargs)
    return __init__


def _install_layer_defaults():
    from . import layers
    for name, signature in layers._LAYER_SIGNATURES.items():
        names = [p if isinstance(p, str) else p[0] for p in signature]
        cls = getattr(layers, name, None)
        if cls is None or 'dtype' not in names or '__init__' not in cls.__dict__:
            continue
        cls.__init__ = _default_dtype_init(cls.__dict__['__init__'], names)


_install_layer_defaults()


# ---- the methods of Tensor ----

for _method in (view_as, reshape_as, type_as, _where_method, sum_to_size, new_tensor, new_empty_strided,
                unsafe_chunk, unsafe_split, squeeze_, unsqueeze_, t_, transpose_, swapaxes_, swapdims_,
                detach_):
    setattr(Tensor, _method.__name__, raising_torch_errors(_method))

for _name in __all__:
    _value = globals()[_name]
    if callable(_value) and not isinstance(_value, type):
        globals()[_name] = raising_torch_errors(_value)
del _name, _value, _method, _fn_, _d
