# PyGObject overrides for Gnn: Pythonic helpers over the introspected API.
#
# SPDX-License-Identifier: LGPL-2.1-or-later
import contextlib
import threading

from gi.module import get_introspection_module
from gi.overrides import override

Gnn = get_introspection_module('Gnn')

__all__ = []

# exceptions raised by Python hooks and virtual methods during a call into C on this thread
_hook_state = threading.local()


def _call_raising_python_errors(func, *args):
    """Calls into C; a Python exception that a hook or virtual method raised meanwhile is
    raised again instead of the GError that stood for it in C."""
    from gi.repository import GLib
    _hook_state.error = None
    try:
        result = func(*args)
    except GLib.Error:
        error = getattr(_hook_state, 'error', None)
        _hook_state.error = None
        if error is not None:
            raise error from None
        raise
    error = getattr(_hook_state, 'error', None)
    _hook_state.error = None
    if error is not None:
        raise error
    return result


@contextlib.contextmanager
def no_grad():
    """Disable autograd recording on this thread inside a ``with`` block (``torch.no_grad``)."""
    previous = Gnn.set_grad_enabled(False)
    try:
        yield
    finally:
        Gnn.set_grad_enabled(previous)


@contextlib.contextmanager
def enable_grad():
    """Enable autograd recording on this thread inside a ``with`` block."""
    previous = Gnn.set_grad_enabled(True)
    try:
        yield
    finally:
        Gnn.set_grad_enabled(previous)


__all__ += ['no_grad', 'enable_grad']


# ---- tensors as Python values: operators, indexing, numpy, Gnn.tensor ---------------------
#
# What torch.Tensor does in Python, Gnn.Tensor does too:
#
#   t = Gnn.tensor([[1., 2.], [3., 4.]])      # ints -> int64, floats -> float32, bools -> bool
#   (2 * t + 1) @ t, -t, t ** 2, 1 - t, t / t.sum()   # C ops; GLib.Error carries the C message
#   t > 0, t == u                               # bool tensors (hashing stays by identity)
#   t += 1; t *= u                              # the C in-place ops (add_, mul_, ...)
#   t[0], t[-1, 1:], t[..., 0], t[None], t[:, ::2]   # views sharing storage, as in torch
#   t[idx_long_tensor], t[bool_mask]            # copies (index_select)
#   t[0] = 5; t[:, 1] = u; t[mask] = 0          # through fill_ / copy_ on the view
#   len(t), list(t), t.tolist(), t.item(), float(t), int(t), bool(t)
#
# numpy, without a Python loop and without a copy where the memory allows:
#   t.numpy() and np.asarray(t) view a CPU tensor's memory in place (any strides): writes
#   through the array are seen by the tensor, and the array keeps the memory alive (it holds a
#   detached alias of the tensor). Tensors off the host (CUDA) are copied through GBytes.
#   Gnn.Tensor.from_numpy(a) shares a C-contiguous, aligned, writable array's memory
#   (Gnn.Tensor.new_from_data; the tensor keeps the array alive) and copies any other array.
#   Unlike torch, numpy() also works on tensors that require grad (their values, no history).

import numbers as _numbers

_NP_DTYPE_NAMES = {
    Gnn.Dtype.FLOAT32: 'float32', Gnn.Dtype.FLOAT64: 'float64', Gnn.Dtype.INT64: 'int64',
    Gnn.Dtype.BOOL: 'bool', Gnn.Dtype.UINT8: 'uint8', Gnn.Dtype.FLOAT16: 'float16',
    Gnn.Dtype.BFLOAT16: 'uint16',   # numpy has no bfloat16: the raw bits
}
_GNN_OF_NP = {
    'float32': Gnn.Dtype.FLOAT32, 'float64': Gnn.Dtype.FLOAT64, 'int64': Gnn.Dtype.INT64,
    'bool': Gnn.Dtype.BOOL, 'uint8': Gnn.Dtype.UINT8, 'float16': Gnn.Dtype.FLOAT16,
}
_INTEGRAL = (Gnn.Dtype.INT64, Gnn.Dtype.UINT8, Gnn.Dtype.BOOL)


class _HostArray:
    """What numpy needs to view a tensor's memory in place; holds the tensor's storage."""
    __slots__ = ('__array_interface__', 'tensor')

    def __init__(self, interface, tensor):
        self.__array_interface__ = interface
        self.tensor = tensor


_array_owner_type = []


def _array_owner(array):
    """A GObject holding @array, the owner given to Gnn.Tensor.new_from_data: the storage's
    reference keeps it (and the array) alive, and dropping it runs no Python code."""
    if not _array_owner_type:
        from gi.repository import GObject

        class ArrayOwner(GObject.Object):
            __gtype_name__ = 'GnnPythonArrayOwner'
        _array_owner_type.append(ArrayOwner)
    owner = _array_owner_type[0]()
    owner.array = array
    return owner


def _is_scalar(value):
    return isinstance(value, _numbers.Number) and not isinstance(value, complex)


def _as_operand(value):
    """A Gnn.Tensor or a Python scalar for a binary operator, else None (NotImplemented)."""
    if isinstance(value, Gnn.Tensor) or _is_scalar(value):
        return value
    if type(value).__module__ == 'numpy':
        return Tensor.from_numpy(value)
    return None


def _float_scalar_on_integral(tensor, scalar):
    """torch's promotion for a Python float with an integral tensor: the float dtype."""
    if isinstance(scalar, bool) or not isinstance(scalar, _numbers.Real):
        return tensor
    if tensor.get_dtype() in _INTEGRAL and not isinstance(scalar, _numbers.Integral):
        return tensor.to_dtype(Gnn.Dtype.FLOAT32)
    if tensor.get_dtype() == Gnn.Dtype.BOOL:
        return tensor.to_dtype(Gnn.Dtype.INT64)
    return tensor


def _binary(tensor_op, scalar_op):
    def op(self, other):
        other = _as_operand(other)
        if other is None:
            return NotImplemented
        if isinstance(other, Gnn.Tensor):
            return tensor_op(self, other)
        return scalar_op(_float_scalar_on_integral(self, other), float(other))
    return op


def _reflected(scalar_op):
    def op(self, other):
        other = _as_operand(other)
        if other is None:
            return NotImplemented
        if isinstance(other, Gnn.Tensor):
            return scalar_op(other, self)   # only reached for tensors of another class
        return scalar_op(_float_scalar_on_integral(self, other), float(other))
    return op


def _inplace(tensor_op, scalar_op):
    def op(self, other):
        other = _as_operand(other)
        if other is None:
            return NotImplemented
        if isinstance(other, Gnn.Tensor):
            tensor_op(self, other)
        else:
            scalar_op(self, float(other))
        return self
    return op


def _scalar_tensor_like(value, like):
    dtype = like.get_dtype()
    if dtype in _INTEGRAL and not isinstance(value, _numbers.Integral):
        dtype = Gnn.Dtype.FLOAT32
    return Gnn.Tensor.new_full([], float(value), dtype, None)


def _bool_only(name, fn):
    def op(self, other):
        other = _as_operand(other)
        if other is None:
            return NotImplemented
        if not isinstance(other, Gnn.Tensor):
            other = _scalar_tensor_like(other, self)
        if self.get_dtype() != Gnn.Dtype.BOOL or other.get_dtype() != Gnn.Dtype.BOOL:
            raise TypeError('%s is only implemented for bool tensors, got %s and %s'
                            % (name, self.get_dtype().value_nick, other.get_dtype().value_nick))
        return fn(self, other)
    return op


def _index_error(index, dim, size):
    return IndexError('index %d is out of bounds for dimension %d with size %d' % (index, dim, size))


def _as_index_tensor(value):
    """A long or bool Gnn.Tensor from a list / numpy array / tensor used as an index."""
    if isinstance(value, Gnn.Tensor):
        return value
    import numpy as np
    array = np.asarray(value)
    if array.dtype == np.bool_:
        return Tensor.from_numpy(np.ascontiguousarray(array))
    if array.dtype.kind not in 'iu' and array.size > 0:
        raise IndexError('tensors used as indices must be long, int, byte or bool tensors')
    return Tensor.from_numpy(np.ascontiguousarray(array, dtype=np.int64))


def _expand_key(self, key):
    """The index as a list of items, with Ellipsis expanded to full slices."""
    if not isinstance(key, tuple):
        key = (key,)
    items = []
    for k in key:
        if isinstance(k, (list, _numbers.Number)) and not isinstance(k, (bool, _numbers.Integral)):
            if isinstance(k, _numbers.Number):
                raise IndexError('only integers, slices (`:`), ellipsis (`...`), None and long or '
                                 'byte Variables are valid indices (got %s)' % type(k).__name__)
            k = _as_index_tensor(k)
        elif type(k).__module__ == 'numpy' and not isinstance(k, _numbers.Integral):
            k = _as_index_tensor(k)
        items.append(k)
    consumed = 0
    for k in items:
        if k is None or k is Ellipsis or isinstance(k, bool):
            continue
        if isinstance(k, Gnn.Tensor) and k.get_dtype() in (Gnn.Dtype.BOOL, Gnn.Dtype.UINT8):
            consumed += k.get_ndim()
        else:
            consumed += 1
    ndim = self.get_ndim()
    if consumed > ndim:
        raise IndexError('too many indices for tensor of dimension %d' % ndim)
    if items.count(Ellipsis) > 1:
        raise IndexError('an index can only have a single ellipsis (\'...\')')
    if Ellipsis in items:
        at = items.index(Ellipsis)
        items[at:at + 1] = [slice(None)] * (ndim - consumed)
    return items


def _mask_positions(mask):
    import numpy as np
    return Tensor.from_numpy(np.flatnonzero(mask.numpy()).astype(np.int64))


def _apply_index(self, key):
    """Basic indexing as views (select / slice / unsqueeze), a tensor index as a copy
    (index_select). Returns (result, whether a tensor index was used)."""
    result = self
    dim = 0          # in the result
    source_dim = 0   # in self, for error messages
    advanced = False
    for k in _expand_key(self, key):
        if not (k is None or isinstance(k, bool)):
            source_dim += k.get_ndim() if isinstance(k, Gnn.Tensor) and k.get_dtype() in (
                Gnn.Dtype.BOOL, Gnn.Dtype.UINT8) else 1
        if k is None:
            result = result.unsqueeze(dim)
            dim += 1
        elif isinstance(k, bool):
            # torch: t[True] adds a dimension of size 1, t[False] one of size 0
            result = result.unsqueeze(dim)
            if not k:
                result = result.narrow(dim, 0, 0)
            dim += 1
        elif isinstance(k, slice):
            size = result.get_size(dim)
            start, stop, step = k.indices(size) if k.step is None or k.step > 0 else (0, 0, k.step)
            if step <= 0:
                raise ValueError('step must be greater than zero')
            if stop < start:
                stop = start
            if (start, stop, step) != (0, size, 1):
                result = result.slice(dim, start, stop, step)
            dim += 1
        elif isinstance(k, Gnn.Tensor) and not (k.get_ndim() == 0 and k.get_dtype() == Gnn.Dtype.INT64):
            if advanced:
                raise IndexError('indexing with more than one tensor is not supported')
            advanced = True
            if k.get_dtype() in (Gnn.Dtype.BOOL, Gnn.Dtype.UINT8):
                n = k.get_ndim()
                shape = list(result.shape)
                if tuple(shape[dim:dim + n]) != k.shape:
                    raise IndexError('The shape of the mask %s at index %d does not match the shape '
                                     'of the indexed tensor %s at index %d'
                                     % (list(k.shape), 0, shape[dim:dim + n], dim))
                flat = result.reshape(shape[:dim] + [-1] + shape[dim + n:])
                result = flat.index_select(dim, _mask_positions(k))
                dim += 1
            else:
                if k.get_dtype() != Gnn.Dtype.INT64:
                    raise IndexError('tensors used as indices must be long, int, byte or bool tensors')
                size = result.get_size(dim)
                flat_index = k.reshape([-1])
                if flat_index.get_numel():
                    lo = int(flat_index.min_all().item())
                    hi = int(flat_index.max_all().item())
                    for bad in (lo, hi):
                        if bad < -size or bad >= size:
                            raise _index_error(bad, source_dim - 1, size)
                    if lo < 0:
                        flat_index = flat_index + (flat_index < 0) * size
                shape = list(result.shape)
                picked = result.index_select(dim, flat_index)
                result = picked.reshape(shape[:dim] + list(k.shape) + shape[dim + 1:])
                dim += k.get_ndim()
        else:
            index = int(k)
            size = result.get_size(dim)
            if index < -size or index >= size:
                raise _index_error(index, source_dim - 1, size)
            result = result.select(dim, index + size if index < 0 else index)
    return result, advanced


def _fill_from(view, value):
    if isinstance(value, Gnn.Tensor):
        view.copy_(value)
    elif _is_scalar(value):
        view.fill_(float(value))
    else:
        view.copy_(tensor(value, dtype=view.get_dtype()))


def _tensor_index(self, key):
    return _apply_index(self, key)[0]


def _tensor_setitem(self, key, value):
    items = key if isinstance(key, tuple) else (key,)
    mask = items[0] if len(items) == 1 else None
    if isinstance(mask, (list,)) or type(mask).__module__ == 'numpy':
        mask = _as_index_tensor(mask)
    if isinstance(mask, Gnn.Tensor) and mask.get_dtype() == Gnn.Dtype.BOOL and mask.get_ndim() > 0:
        # t[mask] = value, as where (mask, value, t) written back
        if not isinstance(value, Gnn.Tensor):
            value = Gnn.Tensor.new_full([], float(value), self.get_dtype(), None)
        if mask.shape != self.shape[:mask.get_ndim()]:
            raise IndexError('The shape of the mask %s does not match the shape of the indexed '
                             'tensor %s' % (list(mask.shape), list(self.shape)))
        m = mask.reshape(list(mask.shape) + [1] * (self.get_ndim() - mask.get_ndim()))
        if value.get_numel() != 1:
            raise NotImplementedError('t[mask] = tensor needs a single value; use a scalar')
        self.copy_(Gnn.where(m, value.reshape([]), self))
        return
    view, advanced = _apply_index(self, key)
    if not advanced:
        _fill_from(view, value)
        return
    # t[index, rest...] = value with a long index first: row by row through views
    first = items[0]
    if isinstance(first, list) or (type(first).__module__ == 'numpy'
                                   and not isinstance(first, _numbers.Integral)):
        first = _as_index_tensor(first)
    if not (isinstance(first, Gnn.Tensor) and first.get_dtype() == Gnn.Dtype.INT64
            and first.get_ndim() == 1):
        raise NotImplementedError('assignment through a tensor index is supported for a 1-d long '
                                  'index in the first position and a bool mask only')
    if not isinstance(value, Gnn.Tensor):
        value = value if _is_scalar(value) else tensor(value, dtype=self.get_dtype())
    if isinstance(value, Gnn.Tensor):
        value = value.expand(list(view.shape))
    rest = tuple(items[1:])
    size = self.get_size(0)
    for j, i in enumerate(first.tolist()):
        row = self.select(0, i + size if i < 0 else i)
        target = row[rest] if rest else row
        _fill_from(target, value.select(0, j) if isinstance(value, Gnn.Tensor) else value)


def _one_element(self, kind):
    n = self.get_numel()
    if n != 1:
        if kind is bool:
            raise RuntimeError('Boolean value of Tensor with more than one value is ambiguous')
        raise ValueError('only one element tensors can be converted to Python scalars')
    return self.numpy().reshape(()).item()



class device(str):
    """torch.device over gnn's device strings: a str (``str(t.device) == 'cuda:0'``, and it
    compares and hashes as one: ``t.device == 'cpu'``) with torch's ``type`` and ``index``."""

    def __new__(cls, spec):
        return super().__new__(cls, spec)

    @property
    def type(self):
        return self.partition(':')[0]

    @property
    def index(self):
        _, colon, index = self.partition(':')
        return int(index) if colon else None

    def __repr__(self):
        if self.index is None:
            return "device(type='%s')" % self.type
        return "device(type='%s', index=%d)" % (self.type, self.index)


__all__.append('device')


class Tensor(Gnn.Tensor):
    """torch.Tensor's Python face over GnnTensor.

    Operators ``+ - * / ** @`` (with Python scalars on either side), ``-t``, ``abs(t)``,
    comparisons (bool tensors; ``hash`` stays by identity), ``& | ^ ~`` on bool tensors, and
    in-place ``+= -= *= /= **=`` call the C ops: a failing op raises ``GLib.Error`` with the
    C message. Indexing as in torch: ``t[i]``, ``t[a:b:c]`` (step > 0), ``t[i, j]``,
    ``t[..., 0]``, ``t[None]`` are views sharing storage; a long tensor / list index or a bool
    mask gives a copy (index_select). ``t[key] = value`` writes a scalar, a tensor or a list
    through the view (``fill_`` / ``copy_``); ``t[mask] = scalar`` works too. ``len``,
    iteration over dim 0 (views), ``tolist()``, ``item()``, ``float()``, ``int()``, ``bool()``
    follow torch, errors included. ``numpy()`` / ``np.asarray(t)`` view a CPU tensor's memory
    without a copy (the array keeps it alive); ``from_numpy`` shares a C-contiguous, aligned,
    writable array. ``Gnn.tensor(data, dtype=None, requires_grad=False)`` is torch.tensor.
    """

    def __repr__(self):
        return self.to_string()

    __str__ = __repr__

    @property
    def shape(self):
        return tuple(self.get_shape())

    def size(self, dim=None):
        return self.shape if dim is None else self.get_size(dim)

    def dim(self):
        return self.get_ndim()

    def numel(self):
        return self.get_numel()

    @property
    def dtype(self):
        return self.get_dtype()

    @property
    def device(self):
        return device(self.get_device())

    @property
    def requires_grad(self):
        return self.get_requires_grad()

    @requires_grad.setter
    def requires_grad(self, value):
        self.set_requires_grad(value)

    def requires_grad_(self, value=True):
        self.set_requires_grad(value)
        return self

    @property
    def grad(self):
        return self.get_grad()

    @grad.setter
    def grad(self, value):
        self.set_grad(value)

    @property
    def grad_fn_name(self):
        return self.get_grad_fn_name()

    def backward(self, gradient=None, retain_graph=False):
        """Tensor.backward; an exception raised by a Python hook is raised again here, after
        the C engine finishes (a hook cannot stop it halfway)."""
        _call_raising_python_errors(Gnn.Tensor.backward, self, gradient, retain_graph)

    def register_hook(self, hook):
        """Registers hook(grad) -> grad or None; returns a handle for remove_hook."""
        def trampoline(grad):
            try:
                return hook(grad)
            except BaseException as e:  # re-raised by backward
                if getattr(_hook_state, 'error', None) is None:
                    _hook_state.error = e
                return None
        return Gnn.Tensor.register_hook(self, trampoline)

    __array_priority__ = 1000   # numpy defers to Tensor's reflected operators

    __add__ = _binary(lambda a, b: Gnn.Tensor.add(a, b, 1.0), Gnn.Tensor.add_scalar)
    __radd__ = _reflected(Gnn.Tensor.add_scalar)
    __sub__ = _binary(lambda a, b: Gnn.Tensor.sub(a, b, 1.0), Gnn.Tensor.sub_scalar)
    __rsub__ = _reflected(Gnn.Tensor.rsub_scalar)
    __mul__ = _binary(Gnn.Tensor.mul, Gnn.Tensor.mul_scalar)
    __rmul__ = _reflected(Gnn.Tensor.mul_scalar)
    __truediv__ = _binary(Gnn.Tensor.div, Gnn.Tensor.div_scalar)
    __rtruediv__ = _reflected(Gnn.Tensor.rdiv_scalar)
    __pow__ = _binary(Gnn.Tensor.pow, Gnn.Tensor.pow_scalar)
    __lt__ = _binary(Gnn.Tensor.lt, Gnn.Tensor.lt_scalar)
    __le__ = _binary(Gnn.Tensor.le, Gnn.Tensor.le_scalar)
    __gt__ = _binary(Gnn.Tensor.gt, Gnn.Tensor.gt_scalar)
    __ge__ = _binary(Gnn.Tensor.ge, Gnn.Tensor.ge_scalar)
    __eq__ = _binary(Gnn.Tensor.eq, Gnn.Tensor.eq_scalar)
    __ne__ = _binary(Gnn.Tensor.ne, Gnn.Tensor.ne_scalar)
    __hash__ = Gnn.Tensor.__hash__   # by identity, as torch: tensors stay usable as dict keys

    __iadd__ = _inplace(lambda a, b: Gnn.Tensor.add_(a, b, 1.0), Gnn.Tensor.add_scalar_)
    __isub__ = _inplace(lambda a, b: Gnn.Tensor.sub_(a, b, 1.0), lambda a, s: Gnn.Tensor.add_scalar_(a, -s))
    __imul__ = _inplace(Gnn.Tensor.mul_, Gnn.Tensor.mul_scalar_)
    __itruediv__ = _inplace(Gnn.Tensor.div_, Gnn.Tensor.div_scalar_)
    __ipow__ = _inplace(lambda a, b: a.copy_(a ** b), lambda a, s: a.copy_(a ** s))

    __and__ = _bool_only('&', Gnn.Tensor.minimum)
    __rand__ = __and__
    __or__ = _bool_only('|', Gnn.Tensor.maximum)
    __ror__ = __or__
    __xor__ = _bool_only('^', Gnn.Tensor.ne)
    __rxor__ = __xor__

    def __matmul__(self, other):
        if not isinstance(other, Gnn.Tensor):
            other = _as_operand(other)
            if not isinstance(other, Gnn.Tensor):
                return NotImplemented
        return Gnn.Tensor.matmul(self, other)

    def __rmatmul__(self, other):
        other = _as_operand(other)
        if not isinstance(other, Gnn.Tensor):
            return NotImplemented
        return Gnn.Tensor.matmul(other, self)

    def __rpow__(self, other):
        if not _is_scalar(other):
            return NotImplemented
        return Gnn.Tensor.pow(_scalar_tensor_like(other, self), self)

    def __neg__(self):
        return Gnn.Tensor.neg(self)

    def __pos__(self):
        return self

    def __abs__(self):
        return Gnn.Tensor.abs(self)

    def __invert__(self):
        if self.get_dtype() == Gnn.Dtype.BOOL:
            return Gnn.Tensor.eq_scalar(self, 0.0)
        if self.get_dtype() == Gnn.Dtype.INT64:
            return Gnn.Tensor.rsub_scalar(self, -1.0)   # ~x == -1 - x
        raise TypeError('~ is only implemented for bool and integer tensors')

    __getitem__ = _tensor_index
    __setitem__ = _tensor_setitem

    def __len__(self):
        if self.get_ndim() == 0:
            raise TypeError('len() of a 0-d tensor')
        return self.get_size(0)

    def __iter__(self):
        if self.get_ndim() == 0:
            raise TypeError('iteration over a 0-d tensor')
        return (self.select(0, i) for i in range(self.get_size(0)))

    def __bool__(self):
        return bool(_one_element(self, bool))

    def __float__(self):
        return float(_one_element(self, float))

    def __int__(self):
        return int(_one_element(self, int))

    def __index__(self):
        if self.get_dtype() not in _INTEGRAL or self.get_numel() != 1:
            raise TypeError('only integer tensors of a single element can be converted to an index')
        return int(_one_element(self, int))

    def item(self):
        """The only element as a Python int, float or bool (by dtype), as torch's item()."""
        if self.get_numel() != 1:
            Gnn.Tensor.item(self)   # raises GLib.Error with the C message
        return _one_element(self, None)

    def tolist(self):
        """Nested Python lists of ints, floats or bools (a scalar for a 0-d tensor)."""
        if self.get_dtype() == Gnn.Dtype.BFLOAT16:
            return self.to_dtype(Gnn.Dtype.FLOAT32).numpy().tolist()
        return self.numpy().tolist()

    def numpy(self):
        """A numpy array over the tensor's memory without a copy for a CPU tensor (writes are
        shared both ways; the array keeps the memory alive), a copy for other devices."""
        import numpy as np
        from gi.repository import GLib
        dtype = np.dtype(_NP_DTYPE_NAMES[self.get_dtype()])
        shape = tuple(self.get_shape())
        if self.get_numel() > 0:
            try:
                address = self.get_data_address()
            except GLib.Error:
                address = 0
            if address:
                interface = {
                    'version': 3, 'shape': shape, 'typestr': dtype.str, 'data': (address, False),
                    'strides': tuple(s * dtype.itemsize for s in self.get_strides()),
                }
                return np.asarray(_HostArray(interface, self.detach()))
        data = self.get_bytes().get_data()
        return np.frombuffer(data, dtype=dtype).reshape(shape).copy()

    def __array__(self, dtype=None):
        array = self.numpy()
        return array if dtype is None else array.astype(dtype, copy=False)

    @classmethod
    def from_numpy(cls, array, device=None):
        """A tensor over a numpy array's memory (torch.from_numpy) when the array is
        C-contiguous, aligned and writable and the device is the CPU; a copy otherwise."""
        import numpy as np
        from gi.repository import GLib
        array = np.asarray(array)  # (ascontiguousarray would turn 0-d arrays into 1-d)
        dtype = _GNN_OF_NP.get(array.dtype.name) if array.dtype.isnative else None
        if dtype is None:
            raise TypeError('unsupported numpy dtype %s' % array.dtype)
        if (device in (None, 'cpu') and array.size > 0 and array.flags.c_contiguous
                and array.flags.aligned and array.flags.writeable):
            address = array.__array_interface__['data'][0]
            try:
                return Gnn.Tensor.new_from_data(address, dtype, list(array.shape), None,
                                                _array_owner(array))
            except GLib.Error:
                pass
        return Gnn.Tensor.new_from_bytes(GLib.Bytes.new(array.tobytes()), dtype, list(array.shape), device)


Tensor = override(Tensor)
__all__.append('Tensor')

# torch.nn.functional's losses keep torch's spellings (Gnn.mse_loss (input, target, ...)):
# in C they are tensor functions (gnn_tensor_mse_loss), methods of the input here too
_FUNCTIONAL_LOSSES = ('mse_loss', 'l1_loss', 'smooth_l1_loss', 'huber_loss', 'binary_cross_entropy',
                      'binary_cross_entropy_with_logits', 'nll_loss', 'cross_entropy', 'kl_div')
for _name in _FUNCTIONAL_LOSSES:
    globals()[_name] = getattr(Gnn.Tensor, _name)
__all__ += list(_FUNCTIONAL_LOSSES)


def tensor(data, dtype=None, requires_grad=False, device=None):
    """torch.tensor: a new tensor holding a copy of @data, a (nested) list of numbers, a number,
    a numpy array or a tensor. Python ints give int64, floats float32 and bools bool; a numpy
    array keeps its dtype."""
    import numpy as np
    from gi.repository import GLib
    if isinstance(data, Gnn.Tensor):
        array = np.array(data.numpy(), copy=True)
    elif isinstance(data, (np.ndarray, np.generic)):
        array = np.array(data, copy=True)
    else:
        try:
            array = np.array(data)
        except ValueError as e:
            raise ValueError('expected a rectangular nested sequence of numbers: %s' % e) from None
        if array.dtype.kind == 'f':
            array = array.astype(np.float32)
        elif array.dtype.kind in 'iu':
            array = array.astype(np.int64)
        elif array.dtype.kind != 'b':
            raise TypeError('Could not infer dtype of %s' % type(data).__name__)
    if dtype is not None:
        array = array.astype(_NP_DTYPE_NAMES[dtype])
    elif array.dtype.name not in _GNN_OF_NP:
        raise TypeError('unsupported numpy dtype %s' % array.dtype)
    array = np.require(array, requirements='C')   # (ascontiguousarray makes 0-d arrays 1-d)
    gnn_dtype = dtype if dtype is not None else _GNN_OF_NP[array.dtype.name]
    result = Gnn.Tensor.new_from_bytes(GLib.Bytes.new(array.tobytes()), gnn_dtype, list(array.shape), device)
    if requires_grad:
        result.set_requires_grad(True)
    return result


__all__.append('tensor')


# ---- modules --------------------------------------------------------------------------

def _to_value(v):
    from gi.repository import GObject
    if v is None or isinstance(v, Gnn.Tensor):
        gv = GObject.Value(Gnn.Tensor)
        gv.set_object(v)
        return gv
    if isinstance(v, bool):
        return GObject.Value(bool, v)
    if isinstance(v, int):
        return GObject.Value(GObject.TYPE_INT64, v)
    if isinstance(v, float):
        return GObject.Value(float, v)
    if isinstance(v, str):
        return GObject.Value(str, v)
    if isinstance(v, GObject.Object):
        gv = GObject.Value(type(v).__gtype__)
        gv.set_object(v)
        return gv
    raise TypeError('cannot pass %r to a module' % (v,))


def _from_value(gv):
    return gv.get_value() if hasattr(gv, 'get_value') else gv


class Args(Gnn.Args):
    @classmethod
    def pack(cls, *args, **kwargs):
        """GnnArgs holding Python values: tensors, None, bool, int, float, str, GObjects."""
        a = Gnn.Args.new()
        for v in args:
            a.add_value(_to_value(v))
        for k, v in kwargs.items():
            a.set_kwarg(k, _to_value(v))
        return a

    def unpack(self):
        """The positional values as a tuple and the keyword values as a dict."""
        pos = tuple(self.get_value(i) for i in range(self.get_n_values()))
        kw = {name: self.get_kwarg(name) for name in self.get_kwarg_names()}
        return pos, kw

    def __len__(self):
        return self.get_n_values()

    def __getitem__(self, i):
        if i < 0:
            i += self.get_n_values()
        if not 0 <= i < self.get_n_values():
            raise IndexError(i)
        return self.get_value(i)


Args = override(Args)
__all__.append('Args')


def _wrap_vfunc(fn):
    """Wraps a Python do_* implementation so that any exception reaches C as a GError (not
    printed and lost) and a Python caller gets the original exception back."""
    import functools
    from gi.repository import GLib

    @functools.wraps(fn)
    def wrapper(self, *args):
        try:
            return fn(self, *args)
        except GLib.Error:
            raise
        except BaseException as e:
            if getattr(_hook_state, 'error', None) is None:
                _hook_state.error = e
            raise GLib.Error.new_literal(Gnn.error_quark(), '%s: %s' % (type(e).__name__, e),
                                         int(Gnn.Error.FAILED))
    wrapper._gnn_wrapped = True
    return wrapper


class Module(Gnn.Module):
    """Python conveniences over GnnModule: calling, attribute registration, iteration."""

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        for name in ('do_forward', 'do_setup', 'do_extra_repr', 'do_get_extra_state', 'do_set_extra_state'):
            fn = cls.__dict__.get(name)
            if fn is not None and not getattr(fn, '_gnn_wrapped', False):
                setattr(cls, name, _wrap_vfunc(fn))

    def __call__(self, *args, **kwargs):
        out = _call_raising_python_errors(Gnn.Module.forward, self, Args.pack(*args, **kwargs))
        pos, kw = out.unpack()
        if len(pos) == 1 and not kw:
            return pos[0]
        return pos if not kw else (pos, kw)

    def __setattr__(self, name, value):
        # as nn.Module.__setattr__: parameters, buffers and modules assigned as attributes
        # are registered (and found again by __getattr__)
        if isinstance(value, Gnn.Parameter):
            self.register_parameter(name, value)
        elif isinstance(value, Gnn.Buffer):
            self.register_buffer(name, value, value.get_persistent())
        elif isinstance(value, Gnn.Module):
            self.register_module(name, value)
        elif self._has_member(Gnn.Module.get_parameter, name):
            if value is not None:
                raise TypeError("cannot assign '%s' as parameter '%s' (Gnn.Parameter or None expected)"
                                % (type(value).__name__, name))
            self.register_parameter(name, None)
        elif self._has_member(Gnn.Module.get_buffer, name) and (value is None or isinstance(value, Gnn.Tensor)):
            self.register_buffer(name, value, self.is_buffer_persistent(name))
        elif self._has_member(Gnn.Module.get_submodule, name) and value is None:
            self.register_module(name, None)
        else:
            super().__setattr__(name, value)

    def _has_member(self, getter, name):
        try:
            getter(self, name)
            return True
        except Exception:
            return False

    def __getattr__(self, name):
        # only called when normal lookup fails
        if name.startswith('__'):
            raise AttributeError(name)
        for getter in (Gnn.Module.get_parameter, Gnn.Module.get_buffer, Gnn.Module.get_submodule):
            try:
                return getter(self, name)
            except Exception:
                continue
        raise AttributeError("'%s' object has no attribute '%s'" % (type(self).__name__, name))

    def __delattr__(self, name):
        if not self.remove(name):
            super().__delattr__(name)

    def __repr__(self):
        return self.to_string()

    __str__ = __repr__

    def register_forward_pre_hook(self, hook, *, prepend=False, with_kwargs=False):
        """PyTorch's register_forward_pre_hook: hook(module, args) or, with with_kwargs,
        hook(module, args, kwargs) may return new inputs. Returns a handle for remove_hook."""
        def trampoline(module, gargs, *_user_data):
            try:
                pos, kw = gargs.unpack()
                result = hook(module, pos, kw) if with_kwargs else hook(module, pos)
                if result is None:
                    return
                if with_kwargs:
                    new_pos, new_kw = result
                else:
                    new_pos, new_kw = result, kw
                if not isinstance(new_pos, tuple):
                    new_pos = (new_pos,)
                gargs.set_from(Args.pack(*new_pos, **new_kw))
            except BaseException as e:  # raised again by __call__
                if getattr(_hook_state, 'error', None) is None:
                    _hook_state.error = e
        return Gnn.Module.register_forward_pre_hook(self, trampoline, None, prepend, with_kwargs)

    def register_forward_hook(self, hook, *, prepend=False, with_kwargs=False, always_call=False):
        """PyTorch's register_forward_hook: hook(module, args, output) or, with with_kwargs,
        hook(module, args, kwargs, output) may return a new output. Returns a handle."""
        def trampoline(module, gargs, gout, *_user_data):
            try:
                pos, kw = gargs.unpack()
                if gout is None:
                    output = None
                else:
                    opos, okw = gout.unpack()
                    output = opos[0] if len(opos) == 1 and not okw else opos
                result = hook(module, pos, kw, output) if with_kwargs else hook(module, pos, output)
                if result is not None and gout is not None:
                    gout.set_from(Args.pack(*(result if isinstance(result, tuple) else (result,))))
            except BaseException as e:  # raised again by __call__
                if getattr(_hook_state, 'error', None) is None:
                    _hook_state.error = e
        return Gnn.Module.register_forward_hook(self, trampoline, None, prepend, with_kwargs, always_call)

    def register_full_backward_pre_hook(self, hook, prepend=False):
        """PyTorch's register_full_backward_pre_hook: hook(module, grad_output) may return new
        output gradients (a tuple). Exceptions are raised again by backward."""
        def trampoline(module, gout, *_user_data):
            try:
                result = hook(module, gout.unpack()[0])
                if result is not None:
                    gout.set_from(Args.pack(*result))
            except BaseException as e:  # raised again by Tensor.backward
                if getattr(_hook_state, 'error', None) is None:
                    _hook_state.error = e
        return Gnn.Module.register_full_backward_pre_hook(self, trampoline, None, prepend)

    def register_full_backward_hook(self, hook, prepend=False):
        """PyTorch's register_full_backward_hook: hook(module, grad_input, grad_output) may
        return new input gradients (a tuple). Exceptions are raised again by backward."""
        def trampoline(module, gin, gout, *_user_data):
            try:
                result = hook(module, gin.unpack()[0], gout.unpack()[0])
                if result is not None:
                    gin.set_from(Args.pack(*result))
            except BaseException as e:  # raised again by Tensor.backward
                if getattr(_hook_state, 'error', None) is None:
                    _hook_state.error = e
        return Gnn.Module.register_full_backward_hook(self, trampoline, None, prepend)

    def named_parameters(self, prefix='', recurse=True, remove_duplicate=True):
        params, names = Gnn.Module.named_parameters(self, prefix, recurse, remove_duplicate)
        return list(zip(names, params))

    def parameters(self, recurse=True):
        return list(Gnn.Module.parameters(self, recurse))

    def named_buffers(self, prefix='', recurse=True, remove_duplicate=True):
        bufs, names = Gnn.Module.named_buffers(self, prefix, recurse, remove_duplicate)
        return list(zip(names, bufs))

    def buffers(self, recurse=True):
        return list(Gnn.Module.buffers(self, recurse))

    # torch.nn.Module's Python-only aliases, over the C functions they stand for
    def add_module(self, name, module):
        """add_module: register_module under PyTorch's other name."""
        Gnn.Module.register_module(self, name, module)

    def cpu(self):
        Gnn.Module.to_device(self, 'cpu')
        return self

    def cuda(self, device=None):
        Gnn.Module.to_device(self, 'cuda' if device is None else _device_string(device))
        return self

    def _to_dtype_alias(dtype):
        def alias(self):
            Gnn.Module.to_dtype(self, dtype)
            return self
        return alias

    double = _to_dtype_alias(Gnn.Dtype.FLOAT64)
    float = _to_dtype_alias(Gnn.Dtype.FLOAT32)
    half = _to_dtype_alias(Gnn.Dtype.FLOAT16)
    bfloat16 = _to_dtype_alias(Gnn.Dtype.BFLOAT16)
    del _to_dtype_alias

    def type(self, dst_type):
        """type (dst_type): every parameter and buffer, integer ones too, and every gradient
        becomes dst_type (a Gnn.Dtype) in place, as PyTorch's _apply does."""
        with no_grad():
            for t in self.parameters() + self.buffers():
                t.set_data(Gnn.Tensor.to_dtype(t, dst_type))
                grad = t.get_grad()
                if grad is not None:
                    grad.set_data(Gnn.Tensor.to_dtype(grad, dst_type))
        return self

    def named_children(self):
        mods, names = Gnn.Module.named_children(self)
        return list(zip(names, mods))

    def children(self):
        return list(Gnn.Module.children(self))

    def named_modules(self, memo=None, prefix='', remove_duplicate=True):
        """(name, module) pairs of the tree, as nn.Module.named_modules; modules in the set
        @memo are skipped (with their subtrees) and the ones listed are added to it."""
        if memo is None:
            mods, names = Gnn.Module.named_modules(self, prefix, remove_duplicate)
            return list(zip(names, mods))
        result = []

        def walk(module, name):
            if module in memo:
                return
            if remove_duplicate:
                memo.add(module)
            result.append((name, module))
            for child_name, child in module.named_children():
                walk(child, name + ('.' if name else '') + child_name)
        walk(self, prefix)
        return result

    def modules(self):
        return list(Gnn.Module.modules(self))

    def train(self, mode=True):
        Gnn.Module.train(self, mode)
        return self

    def eval(self):
        Gnn.Module.eval(self)
        return self

    @property
    def training(self):
        return self.get_training()

    @training.setter
    def training(self, value):
        self.set_training(value)

    # ---- hooks as decorators: @model.forward_hook, @model.forward_hook(prepend=True) ----

    def _hook_decorator(self, register, hook, options):
        def attach(fn):
            # the function stays a function; its handle is kept on it for remove_hook
            fn.hook_handle = register(self, fn, **options)
            return fn
        return attach(hook) if hook is not None else attach

    def forward_pre_hook(self, hook=None, **options):
        """Decorator form of register_forward_pre_hook: ``@model.forward_pre_hook`` (or with
        options, ``@model.forward_pre_hook(prepend=True)``) registers the function and returns
        it, with its handle in ``fn.hook_handle`` (``model.remove_hook (fn.hook_handle)``)."""
        return self._hook_decorator(Module.register_forward_pre_hook, hook, options)

    def forward_hook(self, hook=None, **options):
        """Decorator form of register_forward_hook (see forward_pre_hook)."""
        return self._hook_decorator(Module.register_forward_hook, hook, options)

    def full_backward_pre_hook(self, hook=None, **options):
        """Decorator form of register_full_backward_pre_hook (see forward_pre_hook)."""
        return self._hook_decorator(Module.register_full_backward_pre_hook, hook, options)

    def full_backward_hook(self, hook=None, **options):
        """Decorator form of register_full_backward_hook (see forward_pre_hook)."""
        return self._hook_decorator(Module.register_full_backward_hook, hook, options)


Module = override(Module)
__all__.append('Module')


# ---- layers: torch's positional and keyword constructor signatures (after Module: the
# ---- generated classes derive from the Module override) ---------------------------------
#
# Gnn.Linear(4, 3, bias=False), Gnn.Conv2d(1, 8, 3, stride=1, padding=1),
# Gnn.CrossEntropyLoss(reduction='sum', label_smoothing=0.1), Gnn.MaxPool2d(2) ... take
# torch.nn's arguments in torch's order. Each becomes a construct property: an int or a tuple
# for a size (kernel_size, stride, padding, normalized_shape, ...) becomes the GVariant "ax"
# the property holds, a string padding ("same") a GVariant string, a reduction name the
# Gnn.Reduction value, None leaves the property at its default. Arguments gnn has no property
# for are accepted only at torch's default (device=None or 'cpu', inplace=False, ...).
# Property names (also with dashes) and GVariants still work as keywords.

_REQUIRED_ARG = object()
_UNSUPPORTED_DEFAULTS = {
    'device': (None, 'cpu'), 'inplace': (False,), 'padding_mode': ('zeros',),
    'size_average': (None,), 'reduce': (None,), 'max_norm': (None,), 'norm_type': (2.0,),
    'scale_grad_by_freq': (False,), 'sparse': (False,), '_weight': (None,),
}
_R = _REQUIRED_ARG
_CONV = ['in_channels', 'out_channels', 'kernel_size', ('stride', 1), ('padding', 0), ('dilation', 1),
         ('groups', 1), ('bias', True), ('padding_mode', 'zeros'), ('device', None), ('dtype', None)]
_NORM = ['num_features', ('eps', 1e-5), ('momentum', 0.1), ('affine', True),
         ('track_running_stats', True), ('device', None), ('dtype', None)]
_LOSS = [('size_average', None), ('reduce', None), ('reduction', 'mean')]
_LAYER_SIGNATURES = {
    'Linear': ['in_features', 'out_features', ('bias', True), ('device', None), ('dtype', None)],
    'Bilinear': ['in1_features', 'in2_features', 'out_features', ('bias', True), ('device', None),
                 ('dtype', None)],
    'Conv1d': _CONV, 'Conv2d': _CONV,
    'ConvTranspose2d': ['in_channels', 'out_channels', 'kernel_size', ('stride', 1), ('padding', 0),
                        ('output_padding', 0), ('groups', 1), ('bias', True), ('dilation', 1),
                        ('padding_mode', 'zeros'), ('device', None), ('dtype', None)],
    'MaxPool2d': ['kernel_size', ('stride', None), ('padding', 0), ('dilation', 1),
                  ('return_indices', False), ('ceil_mode', False)],
    'AvgPool2d': ['kernel_size', ('stride', None), ('padding', 0), ('ceil_mode', False),
                  ('count_include_pad', True), ('divisor_override', None)],
    'AdaptiveAvgPool2d': ['output_size'],
    'BatchNorm1d': _NORM, 'BatchNorm2d': _NORM,
    'GroupNorm': ['num_groups', 'num_channels', ('eps', 1e-5), ('affine', True), ('device', None),
                  ('dtype', None)],
    'LayerNorm': ['normalized_shape', ('eps', 1e-5), ('elementwise_affine', True), ('device', None),
                  ('dtype', None)],
    'Embedding': ['num_embeddings', 'embedding_dim', ('padding_idx', None), ('max_norm', None),
                  ('norm_type', 2.0), ('scale_grad_by_freq', False), ('sparse', False),
                  ('_weight', None), ('device', None), ('dtype', None)],
    'Dropout': [('p', 0.5), ('inplace', False)], 'Dropout2d': [('p', 0.5), ('inplace', False)],
    'ELU': [('alpha', 1.0), ('inplace', False)],
    'LeakyReLU': [('negative_slope', 0.01), ('inplace', False)],
    'ReLU': [('inplace', False)], 'SiLU': [('inplace', False)], 'Sigmoid': [], 'Tanh': [],
    'GELU': [('approximate', 'none')],
    'Softmax': [('dim', None)], 'LogSoftmax': [('dim', None)],
    'Flatten': [('start_dim', 1), ('end_dim', -1)],
    'Unflatten': ['dim', 'unflattened_size'],
    'L1Loss': _LOSS, 'MSELoss': _LOSS,
    'HuberLoss': [('reduction', 'mean'), ('delta', 1.0)],
    'SmoothL1Loss': _LOSS + [('beta', 1.0)],
    'KLDivLoss': _LOSS + [('log_target', False)],
    'NLLLoss': [('weight', None), ('size_average', None), ('ignore_index', -100), ('reduce', None),
                ('reduction', 'mean')],
    'CrossEntropyLoss': [('weight', None), ('size_average', None), ('ignore_index', -100),
                         ('reduce', None), ('reduction', 'mean'), ('label_smoothing', 0.0)],
    'BCELoss': [('weight', None)] + _LOSS,
    'BCEWithLogitsLoss': [('weight', None)] + _LOSS + [('pos_weight', None)],
}
del _R


def _property_value(pspec, value):
    """@value as the GObject property described by @pspec takes it."""
    from gi.repository import GLib, GObject
    vtype = pspec.value_type
    if vtype == GObject.TYPE_VARIANT and not isinstance(value, GLib.Variant):
        if isinstance(value, str):
            return GLib.Variant('s', value)
        if isinstance(value, _numbers.Integral):
            return GLib.Variant('ax', [int(value)])
        return GLib.Variant('ax', [int(v) for v in value])
    if isinstance(value, str) and vtype.is_a(GObject.TYPE_ENUM):
        enum = vtype.pytype or getattr(Gnn, vtype.name[len('Gnn'):], None)
        member = getattr(enum, value.upper(), None)
        if member is None:
            raise ValueError('%s is not a valid value for %s' % (value, pspec.name))
        return member
    if vtype.is_a(Gnn.Tensor.__gtype__) and type(value).__module__ == 'numpy':
        return Tensor.from_numpy(value)
    return value


def _layer_init(name, signature):
    names = [s if isinstance(s, str) else s[0] for s in signature]
    required = [s for s in signature if isinstance(s, str)]
    gi_class = getattr(Gnn, name)

    def __init__(self, *args, **kwargs):
        from gi.repository import GObject
        if len(args) > len(names):
            raise TypeError('%s() takes at most %d positional arguments (%d given)'
                            % (name, len(names), len(args)))
        values = dict(zip(names, args))
        for key in list(kwargs):
            if key in names:
                if key in values:
                    raise TypeError("%s() got multiple values for argument '%s'" % (name, key))
                values[key] = kwargs.pop(key)
        missing = [n for n in required if n not in values and n not in kwargs
                   and n.replace('_', '-') not in kwargs]
        if missing:
            raise TypeError('%s() missing required argument%s: %s' % (
                name, 's' if len(missing) > 1 else '', ', '.join("'%s'" % m for m in missing)))
        pspecs = {p.name: p for p in GObject.list_properties(type(self).__gtype__)}
        props = {}
        for key, value in values.items():
            pspec = pspecs.get(key.replace('_', '-'))
            if pspec is None:
                if value not in _UNSUPPORTED_DEFAULTS.get(key, (None,)):
                    raise TypeError('%s(): %s=%r is not supported by gnn' % (name, key, value))
                continue
            if value is None:
                continue
            props[key] = _property_value(pspec, value)
        for key, value in kwargs.items():
            pspec = pspecs.get(key.replace('_', '-'))
            props[key] = value if pspec is None or value is None else _property_value(pspec, value)
        gi_class.__init__(self, **props)

    __init__.__doc__ = '%s(%s), as torch.nn.%s' % (name, ', '.join(
        s if isinstance(s, str) else '%s=%r' % s for s in signature), name)
    return __init__


for _name, _signature in _LAYER_SIGNATURES.items():
    if _name in globals() or not hasattr(Gnn, _name):
        continue   # a hand-written override, or a layer this build lacks
    _cls = type(_name, (getattr(Gnn, _name),), {'__init__': _layer_init(_name, _signature),
                                                 '__module__': __name__})
    globals()[_name] = override(_cls)
    __all__.append(_name)
del _name, _signature, _cls


# ---- containers -----------------------------------------------------------------------

def _check_index(index, n):
    if not isinstance(index, int):
        raise TypeError('indices must be integers or slices, not %s' % type(index).__name__)
    if not -n <= index < n:
        raise IndexError('index %d is out of range' % index)
    return index + n if index < 0 else index


def _same(a, b):
    return a is b or a == b


class Sequential(Gnn.Sequential):
    """``nn.Sequential``: ``Gnn.Sequential(m1, m2, ...)`` or ``Gnn.Sequential(OrderedDict)``
    (the modules under the dict's keys); len, indexing (negative too, slices give a new
    Sequential with the same keys), iteration, ``in``, append/extend returning self."""

    def __init__(self, *modules, **kwargs):
        super().__init__(**kwargs)
        if len(modules) == 1 and hasattr(modules[0], 'items'):
            for name, m in modules[0].items():
                self.register_module(name, m)
        else:
            for m in modules:
                Gnn.Sequential.append(self, m)

    def __len__(self):
        return self.get_length()

    def __getitem__(self, index):
        if isinstance(index, slice):
            mods, names = Gnn.Module.named_children(self)
            picked = list(zip(names, mods))[index]
            return Sequential(dict(picked))
        i = _check_index(index, len(self))
        return self.get(i)

    def __setitem__(self, index, module):
        i = _check_index(index, len(self))
        mods, names = Gnn.Module.named_children(self)
        self.register_module(names[i], module)

    def __iter__(self):
        return iter([self.get(i) for i in range(len(self))])

    def __contains__(self, module):
        return any(_same(m, module) for m in self)

    def append(self, module):
        Gnn.Sequential.append(self, module)
        return self

    def extend(self, modules):
        for m in modules:
            Gnn.Sequential.append(self, m)
        return self


Sequential = override(Sequential)
__all__.append('Sequential')


class ModuleList(Gnn.ModuleList):
    """``nn.ModuleList``: ``Gnn.ModuleList([m1, m2])``; len, indexing (negative too; slices
    give a new ModuleList), assignment, del, iteration, ``in``, append/extend/insert/pop."""

    def __init__(self, modules=None, **kwargs):
        super().__init__(**kwargs)
        if modules is not None:
            self.extend(modules)

    def __len__(self):
        return self.get_length()

    def __getitem__(self, index):
        if isinstance(index, slice):
            return ModuleList([self.get(i) for i in range(len(self))][index])
        return self.get(_check_index(index, len(self)))

    def __setitem__(self, index, module):
        self.set(_check_index(index, len(self)), module)

    def __delitem__(self, index):
        if isinstance(index, slice):
            for i in sorted(range(len(self))[index], reverse=True):
                Gnn.ModuleList.pop(self, i)
        else:
            Gnn.ModuleList.pop(self, _check_index(index, len(self)))

    def __iter__(self):
        return iter([self.get(i) for i in range(len(self))])

    def __contains__(self, module):
        return any(_same(m, module) for m in self)

    def __iadd__(self, modules):
        return self.extend(modules)

    def append(self, module):
        Gnn.ModuleList.append(self, module)
        return self

    def extend(self, modules):
        for m in modules:
            Gnn.ModuleList.append(self, m)
        return self

    def insert(self, index, module):
        Gnn.ModuleList.insert(self, index, module)

    def pop(self, index=-1):
        return Gnn.ModuleList.pop(self, _check_index(index, len(self)))


ModuleList = override(ModuleList)
__all__.append('ModuleList')


class _Mapping:
    """The mapping protocol over _keys/_get/_set/_contains/_pop of a subclass."""

    def __len__(self):
        return len(self._keys())

    def __iter__(self):
        return iter(self._keys())

    def __contains__(self, key):
        return isinstance(key, str) and self._contains(key)

    def __getitem__(self, key):
        if not isinstance(key, str) or not self._contains(key):
            raise KeyError(key)
        return self._get(key)

    def __setitem__(self, key, value):
        self._set(key, value)

    def __delitem__(self, key):
        if key not in self:
            raise KeyError(key)
        self._pop(key)

    def keys(self):
        return list(self._keys())

    def values(self):
        return [self._get(k) for k in self._keys()]

    def items(self):
        return [(k, self._get(k)) for k in self._keys()]

    def pop(self, key, *default):
        if key not in self:
            if default:
                return default[0]
            raise KeyError(key)
        return self._pop(key)

    def update(self, other=(), **kwargs):
        pairs = other.items() if hasattr(other, 'items') else other
        for k, v in pairs:
            self[k] = v
        for k, v in kwargs.items():
            self[k] = v


class ModuleDict(_Mapping, Gnn.ModuleDict):
    """``nn.ModuleDict``: ``Gnn.ModuleDict({'relu': ...})``; the mapping protocol (len, [],
    assignment, del, ``in``, iteration over the keys in order, keys/values/items as lists,
    pop, update, clear). ``get (key)`` stays the C method (GLib.Error when absent)."""

    def __init__(self, modules=None, **kwargs):
        Gnn.ModuleDict.__init__(self, **kwargs)
        if modules is not None:
            self.update(modules)

    def _keys(self):
        return Gnn.ModuleDict.keys(self) or []

    def _get(self, key):
        return Gnn.ModuleDict.get(self, key)

    def _set(self, key, value):
        Gnn.ModuleDict.set(self, key, value)

    def _contains(self, key):
        return Gnn.ModuleDict.contains(self, key)

    def _pop(self, key):
        return Gnn.ModuleDict.pop(self, key)

    def clear(self):
        Gnn.ModuleDict.clear(self)


ModuleDict = override(ModuleDict)
__all__.append('ModuleDict')


class ParameterList(Gnn.ParameterList):
    """``nn.ParameterList``: ``Gnn.ParameterList([p1, p2])``; len, indexing (negative too),
    assignment, iteration, ``in``, append/extend returning self. Plain tensors become
    parameters that require grad, as in PyTorch."""

    def __init__(self, values=None, **kwargs):
        super().__init__(**kwargs)
        if values is not None:
            self.extend(values)

    def __len__(self):
        return self.get_length()

    def __getitem__(self, index):
        if isinstance(index, slice):
            return ParameterList([self.get(i) for i in range(len(self))][index])
        return self.get(_check_index(index, len(self)))

    def __setitem__(self, index, value):
        self.set(_check_index(index, len(self)), value)

    def __iter__(self):
        return iter([self.get(i) for i in range(len(self))])

    def __contains__(self, value):
        return any(p is value for p in self)

    def __iadd__(self, values):
        return self.extend(values)

    def append(self, value):
        Gnn.ParameterList.append(self, value)
        return self

    def extend(self, values):
        for v in values:
            Gnn.ParameterList.append(self, v)
        return self


ParameterList = override(ParameterList)
__all__.append('ParameterList')


class ParameterDict(_Mapping, Gnn.ParameterDict):
    """``nn.ParameterDict``: ``Gnn.ParameterDict({'w': p})``; the mapping protocol as
    ModuleDict's. Plain tensors become parameters that require grad."""

    def __init__(self, parameters=None, **kwargs):
        Gnn.ParameterDict.__init__(self, **kwargs)
        if parameters is not None:
            self.update(parameters)

    def _keys(self):
        return Gnn.ParameterDict.keys(self) or []

    def _get(self, key):
        return Gnn.ParameterDict.get(self, key)

    def _set(self, key, value):
        Gnn.ParameterDict.set(self, key, value)

    def _contains(self, key):
        return Gnn.ParameterDict.contains(self, key)

    def _pop(self, key):
        return Gnn.ParameterDict.pop(self, key)

    def clear(self):
        for k in self.keys():
            self._pop(k)

    def update(self, other=(), **kwargs):
        """As PyTorch: a plain mapping (not an OrderedDict or ParameterDict) is added in
        sorted key order."""
        import collections
        if hasattr(other, 'items') and not isinstance(other, (collections.OrderedDict, ParameterDict)):
            other = sorted(other.items(), key=lambda kv: kv[0])
        _Mapping.update(self, other, **kwargs)


ParameterDict = override(ParameterDict)
__all__.append('ParameterDict')


# ---- state dicts ----------------------------------------------------------------------

def _as_gnn_tensor(v):
    """A Gnn.Tensor from a Gnn.Tensor, a torch tensor or a numpy array (copied)."""
    if isinstance(v, Gnn.Tensor):
        return v
    if hasattr(v, 'detach') and hasattr(v, 'numpy'):      # a torch tensor, without importing torch
        return Tensor.from_numpy(v.detach().cpu().numpy())
    if type(v).__module__ == 'numpy':
        return Tensor.from_numpy(v)
    return None


class StateDict(_Mapping, Gnn.StateDict):
    """A module tree's state as an ordered mapping (PyTorch's OrderedDict): keys(), values(),
    items() (lists, in order), [], assignment, del, ``in``, len, iteration over the keys in
    order. ``Gnn.StateDict({'w': tensor})`` fills a new one."""

    def __init__(self, entries=None, **kwargs):
        Gnn.StateDict.__init__(self, **kwargs)
        if entries is not None:
            self.update(entries)

    def _keys(self):
        return Gnn.StateDict.get_keys(self) or []

    def get_value(self, key):
        """The value under key (a tensor, a GLib.Variant, ...); GLib.Error when absent. The C
        method's (ok, value) pair, as PyGObject gives it, is reduced to the value."""
        out = Gnn.StateDict.get_value(self, key)
        if isinstance(out, tuple):       # (ok, value)
            out = out[-1]
        return _from_value(out)

    def _get(self, key):
        return self.get_value(key)

    def _set(self, key, value):
        if not isinstance(key, str):
            raise TypeError('state dict keys are strings, not %s' % type(key).__name__)
        tensor = _as_gnn_tensor(value)
        if tensor is not None:
            Gnn.StateDict.set_tensor(self, key, tensor)
            return
        from gi.repository import GLib, GObject
        if isinstance(value, GLib.Variant):
            gv = GObject.Value(GObject.TYPE_VARIANT)
            gv.set_variant(value)
        else:
            gv = _to_value(value)
        Gnn.StateDict.set_value(self, key, gv)

    def _contains(self, key):
        return Gnn.StateDict.contains(self, key)

    def _pop(self, key):
        value = self._get(key)
        Gnn.StateDict.remove(self, key)
        return value

    def get(self, key, default=None):
        return self[key] if key in self else default

    def copy(self):
        return StateDict(self.items())

    def __repr__(self):
        return 'StateDict([%s])' % ', '.join('(%r, %r)' % kv for kv in self.items())

    __str__ = __repr__


StateDict = override(StateDict)
__all__.append('StateDict')


class _IncompatibleKeys(tuple):
    """What load_state_dict returns: PyTorch's namedtuple (missing_keys, unexpected_keys),
    printed as ``<All keys matched successfully>`` when both are empty. (Named as PyTorch's
    torch.nn.modules.module._IncompatibleKeys; Gnn.IncompatibleKeys is the C class given to
    load post-hooks.)"""
    __slots__ = ()
    _fields = ('missing_keys', 'unexpected_keys')

    def __new__(cls, missing_keys, unexpected_keys):
        return tuple.__new__(cls, (list(missing_keys), list(unexpected_keys)))

    @property
    def missing_keys(self):
        return self[0]

    @property
    def unexpected_keys(self):
        return self[1]

    def __repr__(self):
        if not self.missing_keys and not self.unexpected_keys:
            return '<All keys matched successfully>'
        return 'IncompatibleKeys(missing_keys=%r, unexpected_keys=%r)' % (self[0], self[1])

    __str__ = __repr__




def _module_state_dict(self, prefix=None, keep_vars=False, *, destination=None):
    """``Module.state_dict``: a Gnn.StateDict of the parameters and persistent buffers, keys
    in PyTorch's order. prefix may be given as PyTorch's "model." or as "model"; with
    destination (any mapping), the entries are stored into it and it is returned. The
    positional order is gnn's (prefix, keep_vars), not PyTorch's deprecated one."""
    state = Gnn.Module.state_dict(self, prefix or None, keep_vars)
    if destination is None:
        return state
    for k, v in state.items():
        destination[k] = v
    return destination


def _module_load_state_dict(self, state_dict, strict=True, assign=False):
    """``Module.load_state_dict``: state_dict is a Gnn.StateDict or any mapping of key to
    Gnn.Tensor (torch tensors and numpy arrays are copied in). Returns IncompatibleKeys
    (missing_keys, unexpected_keys); a strict load that fails raises GLib.Error with
    PyTorch's message and leaves the module unchanged."""
    if not isinstance(state_dict, Gnn.StateDict):
        state_dict = StateDict(state_dict)
    out = Gnn.Module.load_state_dict(self, state_dict, strict, assign)
    if hasattr(out, 'get_missing_keys'):
        return _IncompatibleKeys(out.get_missing_keys() or [], out.get_unexpected_keys() or [])
    if isinstance(out, tuple) and len(out) == 3:
        out = out[1:]
    missing, unexpected = out
    return _IncompatibleKeys(missing or [], unexpected or [])


Module.state_dict = _module_state_dict
Module.load_state_dict = _module_load_state_dict


# ---- module copies and weight averaging (torch.optim.swa_utils) -------------------------

def _tensor_deepcopy(self, memo):
    """copy.deepcopy of a tensor: its values in new memory, without history, keeping
    requires_grad (a Parameter stays a Parameter)."""
    if id(self) in memo:
        return memo[id(self)]
    with no_grad():
        data = self.clone()
    if isinstance(self, Gnn.Parameter):
        result = Gnn.Parameter.new(data, self.get_requires_grad())
    elif isinstance(self, Gnn.Buffer):
        result = Gnn.Buffer.new(data, self.get_persistent())
    else:
        result = data
        if self.get_requires_grad():
            result.set_requires_grad(True)
    memo[id(self)] = result
    return result


Gnn.Tensor.__deepcopy__ = _tensor_deepcopy


def _module_deepcopy(self, memo):
    """copy.deepcopy (module): Gnn.Module.copy copies the module tree (parameters, buffers,
    submodules, sharing kept; hooks are not copied), then the Python attributes of every module
    of the tree are deep-copied into its copy, references to the tree's modules, parameters and
    buffers becoming references to their copies."""
    import copy
    if id(self) in memo:
        return memo[id(self)]
    result = _call_raising_python_errors(Gnn.Module.copy, self)
    memo[id(self)] = result
    pairs = list(zip(Gnn.Module.modules(self), Gnn.Module.modules(result)))
    for a, b in pairs:
        memo.setdefault(id(a), b)
    for get in (Gnn.Module.parameters, Gnn.Module.buffers):
        for a, b in zip(get(self, True), get(result, True)):
            memo.setdefault(id(a), b)
    for a, b in pairs:
        for key, value in list(vars(a).items()):
            try:
                value = copy.deepcopy(value, memo)
            except Exception:  # an object deepcopy cannot copy is shared, as a property is
                pass
            vars(b)[key] = value
    return result


Module.__deepcopy__ = _module_deepcopy


def _avg_fn_callback(fn):
    def trampoline(averaged, current, n_averaged, *_user_data):
        try:
            result = fn(averaged, current, n_averaged)
            return None if result is None else _as_gnn_tensor(result)
        except BaseException as e:  # raised again by update_parameters
            if getattr(_hook_state, 'error', None) is None:
                _hook_state.error = e
            return None
    return Gnn.AverageFunction.new_callback(trampoline)


def _multi_avg_fn_callback(fn):
    def trampoline(averaged, current, n, n_averaged, *_user_data):
        try:
            fn(list(averaged), list(current), n_averaged)
            return True
        except BaseException as e:  # raised again by update_parameters
            if getattr(_hook_state, 'error', None) is None:
                _hook_state.error = e
            return False
    return Gnn.AverageFunction.new_multi_callback(trampoline)


def _as_average_function(fn, multi):
    if fn is None or isinstance(fn, Gnn.AverageFunction):
        return fn
    if not callable(fn):
        raise TypeError('%s must be a Gnn.AverageFunction or a callable, not %s'
                        % ('multi_avg_fn' if multi else 'avg_fn', type(fn).__name__))
    return _multi_avg_fn_callback(fn) if multi else _avg_fn_callback(fn)


class AverageFunction(Gnn.AverageFunction):
    """An averaging function; called as PyTorch's: a list function updates the lists in place,
    a function of one tensor returns the new averaged value."""

    def __call__(self, averaged, current, n_averaged):
        if not isinstance(n_averaged, Gnn.Tensor):
            n_averaged = Gnn.Tensor.new_scalar(float(n_averaged), Gnn.Dtype.INT64, None)
        if self.get_multi():
            _call_raising_python_errors(Gnn.AverageFunction.apply, self, list(averaged), list(current),
                                        n_averaged)
            return None
        with no_grad():
            result = averaged.clone()
        _call_raising_python_errors(Gnn.AverageFunction.apply, self, [result], [current], n_averaged)
        return result


AverageFunction = override(AverageFunction)
__all__.append('AverageFunction')


def get_ema_multi_avg_fn(decay=0.999):
    """torch.optim.swa_utils.get_ema_multi_avg_fn: Gnn.AverageFunction.new_ema_multi."""
    return Gnn.AverageFunction.new_ema_multi(decay)


def get_swa_multi_avg_fn():
    """torch.optim.swa_utils.get_swa_multi_avg_fn: Gnn.AverageFunction.new_swa_multi."""
    return Gnn.AverageFunction.new_swa_multi()


def get_ema_avg_fn(decay=0.999):
    """torch.optim.swa_utils.get_ema_avg_fn: Gnn.AverageFunction.new_ema."""
    return Gnn.AverageFunction.new_ema(decay)


def get_swa_avg_fn():
    """torch.optim.swa_utils.get_swa_avg_fn: Gnn.AverageFunction.new_swa."""
    return Gnn.AverageFunction.new_swa()


__all__ += ['get_ema_multi_avg_fn', 'get_swa_multi_avg_fn', 'get_ema_avg_fn', 'get_swa_avg_fn']


def _device_string(device):
    if device is None or isinstance(device, str):
        return device
    if isinstance(device, int):
        return 'cuda:%d' % device
    return str(device)


class AveragedModel(Gnn.AveragedModel):
    """torch.optim.swa_utils.AveragedModel (model, device=None, avg_fn=None,
    multi_avg_fn=None, use_buffers=False). avg_fn / multi_avg_fn: a Gnn.AverageFunction (such
    as get_ema_multi_avg_fn (0.999)) or a Python function with PyTorch's signature. The model is
    copied with copy.deepcopy, so that Python attributes of Python modules are copied too."""

    def __init__(self, model=None, device=None, avg_fn=None, multi_avg_fn=None, use_buffers=False,
                 **kwargs):
        import copy
        super().__init__(avg_fn=_as_average_function(avg_fn, False),
                         multi_avg_fn=_as_average_function(multi_avg_fn, True),
                         use_buffers=use_buffers, **kwargs)
        Gnn.Module.setup(self)   # raises when both functions are given
        if model is not None:
            self.register_module('module', copy.deepcopy(model))
        device = _device_string(device)
        if device is not None:
            self.to_device(device)

    def update_parameters(self, model):
        """Blends model's parameters into the average; an exception raised by a Python
        averaging function is raised again here."""
        _call_raising_python_errors(Gnn.AveragedModel.update_parameters, self, model)


AveragedModel = override(AveragedModel)
__all__.append('AveragedModel')


def update_bn(loader, model, device=None):
    """torch.optim.swa_utils.update_bn: loader is a Gio.ListModel or any iterable of batches,
    each a tensor (Gnn, numpy or torch) or a list / tuple whose first item is the input."""
    from gi.repository import Gio
    if not isinstance(loader, Gio.ListModel):
        store = Gio.ListStore.new(Gnn.Tensor)
        for batch in loader:
            if isinstance(batch, (list, tuple)):
                batch = batch[0]
            tensor = _as_gnn_tensor(batch)
            if tensor is None:
                raise TypeError('update_bn: a batch is a %s, not a tensor' % type(batch).__name__)
            store.append(tensor)
        loader = store
    _call_raising_python_errors(Gnn.update_bn, loader, model, _device_string(device))


__all__.append('update_bn')


# ---- learning-rate schedulers ---------------------------------------------------------

def _variant_guess(value):
    """A GLib.Variant for a Python value of a scheduler state that has no template."""
    from gi.repository import GLib
    if isinstance(value, GLib.Variant):
        return value
    if isinstance(value, bool):
        return GLib.Variant('b', value)
    if isinstance(value, int):
        return GLib.Variant('x', value)
    if isinstance(value, float):
        return GLib.Variant('d', value)
    if isinstance(value, str):
        return GLib.Variant('s', value)
    if isinstance(value, dict):
        if all(isinstance(k, int) and isinstance(v, int) for k, v in value.items()):
            return GLib.Variant('a{xx}', value)
        return GLib.Variant('a{sv}', {str(k): _variant_guess(v) for k, v in value.items()})
    if isinstance(value, (list, tuple)):
        if all(isinstance(v, int) and not isinstance(v, bool) for v in value):
            return GLib.Variant('ax', list(value))
        if all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in value):
            return GLib.Variant('ad', [float(v) for v in value])
        return GLib.Variant('av', [_variant_guess(v) for v in value])
    raise TypeError('cannot store %r in a scheduler state' % (value,))


def _variant_like(template, value):
    """value as a GLib.Variant of the type of template (the same entry of a state the
    scheduler saves), through variants, dictionaries and lists."""
    from gi.repository import GLib
    if isinstance(value, GLib.Variant):
        return value
    if template is None:
        return _variant_guess(value)
    t = template.get_type_string()
    if t == 'v':
        return GLib.Variant('v', _variant_like(template.get_variant(), value))
    if t == 'a{sv}' and isinstance(value, dict):
        return GLib.Variant('a{sv}', {k: _variant_like(template.lookup_value(k, None), v)
                                      for k, v in value.items()})
    if t.startswith('a') and 'v' in t and isinstance(value, (list, tuple)):
        n = template.n_children()
        children = [_variant_like(template.get_child_value(min(i, n - 1)) if n else None, v)
                    for i, v in enumerate(value)]
        if t == 'av':
            children = [c if c.get_type_string() == 'v' else GLib.Variant('v', c) for c in children]
        return GLib.Variant.new_array(GLib.VariantType.new(t[1:]), children)
    if t == 'd':
        value = float(value)
    elif t == 'ad':
        value = [float(v) for v in value]
    try:
        return GLib.Variant(t, value)
    except (TypeError, ValueError):
        return _variant_guess(value)


def _per_group(name, value, optimizer):
    """One float for every group, or a list of one per group (PyTorch's _format_param)."""
    if isinstance(value, (list, tuple)):
        n = optimizer.get_n_param_groups()
        if len(value) != n:
            raise ValueError('{0} must have the same length as optimizer.param_groups. {0} has {1} '
                             'values, param_groups has {2}.'.format(name, len(value), n))
        return [float(v) for v in value]
    return [float(value)]


def _wrap_get_lr(fn):
    """A Python get_lr as the get_lr virtual method: a list of floats; an exception reaches
    C as a GError and a Python caller gets it back."""
    def get_lr(self):
        return [float(v) for v in fn(self)]
    return _wrap_vfunc(get_lr)


class LRScheduler(Gnn.LRScheduler):
    """``torch.optim.lr_scheduler.LRScheduler``. A subclass implements ``get_lr`` (or
    ``do_get_lr``) returning one float per parameter group, and calls
    ``super().__init__(optimizer, last_epoch)``, which performs the initial step. The
    hyperparameters of gnn's schedulers read and write as attributes with PyTorch's names
    (``scheduler.gamma``, ``scheduler.T_max``)."""

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        fn = cls.__dict__.get('do_get_lr')
        if fn is None and 'get_lr' in cls.__dict__:
            fn = cls.__dict__['get_lr']
        if fn is not None and not getattr(fn, '_gnn_wrapped', False):
            cls.do_get_lr = _wrap_get_lr(fn)
        for name in ('do_save_state', 'do_load_state'):
            fn = cls.__dict__.get(name)
            if fn is not None and not getattr(fn, '_gnn_wrapped', False):
                setattr(cls, name, _wrap_vfunc(fn))

    def __init__(self, optimizer=None, last_epoch=-1, **kwargs):
        from gi.repository import Gio
        super().__init__(optimizer=optimizer, last_epoch=last_epoch, **kwargs)
        _call_raising_python_errors(Gio.Initable.init, self, None)

    @staticmethod
    def _prop_name(name):
        return name.lower().replace('_', '-')

    def __getattr__(self, name):
        # only called when normal lookup fails: the GObject properties under PyTorch's names
        if not name.startswith('_'):
            try:
                return self.get_property(LRScheduler._prop_name(name))
            except TypeError:
                pass
        raise AttributeError("'%s' object has no attribute '%s'" % (type(self).__name__, name))

    def __setattr__(self, name, value):
        if not name.startswith('_') and not hasattr(type(self), name):
            pname = LRScheduler._prop_name(name)
            if any(p.name == pname for p in type(self).list_properties()):
                self.set_property(pname, value)
                return
        super().__setattr__(name, value)

    @property
    def optimizer(self):
        return self.get_optimizer()

    @property
    def last_epoch(self):
        return self.get_last_epoch()

    @last_epoch.setter
    def last_epoch(self, value):
        self.set_last_epoch(value)

    @property
    def base_lrs(self):
        return list(self.get_base_lrs())

    @property
    def _step_count(self):
        return self.get_step_count()

    @property
    def _is_initial(self):
        return self.is_initial_step()

    def step(self):
        """``scheduler.step()``; an exception raised by Python code it ran is raised again."""
        _call_raising_python_errors(Gnn.LRScheduler.step, self)

    def get_lr(self):
        return list(_call_raising_python_errors(Gnn.LRScheduler.get_lr, self))

    def get_last_lr(self):
        """The learning rates the last step set, a list of floats."""
        return list(Gnn.LRScheduler.get_last_lr(self))

    def state_dict(self):
        """The scheduler's state as a dict with PyTorch's keys (the ``a{sv}`` of the C API,
        unpacked)."""
        return Gnn.LRScheduler.state_dict(self).unpack()

    def load_state_dict(self, state_dict):
        """Restores a state from state_dict (a dict, or the GLib.Variant of the C API);
        a bad entry raises GLib.Error and leaves the scheduler unchanged."""
        from gi.repository import GLib
        if not isinstance(state_dict, GLib.Variant):
            state_dict = _variant_like(Gnn.LRScheduler.state_dict(self), dict(state_dict))
        Gnn.LRScheduler.load_state_dict(self, state_dict)


LRScheduler = override(LRScheduler)
__all__.append('LRScheduler')


class StepLR(Gnn.StepLR):
    def __new__(cls, optimizer, step_size, gamma=0.1, last_epoch=-1):
        return Gnn.StepLR.new(optimizer, step_size, gamma, last_epoch)

    def __init__(self, *args, **kwargs):
        pass


StepLR = override(StepLR)
__all__.append('StepLR')


class MultiStepLR(Gnn.MultiStepLR):
    def __new__(cls, optimizer, milestones, gamma=0.1, last_epoch=-1):
        return Gnn.MultiStepLR.new(optimizer, [int(m) for m in milestones], gamma, last_epoch)

    def __init__(self, *args, **kwargs):
        pass

    @property
    def milestones(self):
        """The milestones as PyTorch holds them, a Counter."""
        import collections
        return collections.Counter(self.get_milestones())


MultiStepLR = override(MultiStepLR)
__all__.append('MultiStepLR')


class ExponentialLR(Gnn.ExponentialLR):
    def __new__(cls, optimizer, gamma, last_epoch=-1):
        return Gnn.ExponentialLR.new(optimizer, gamma, last_epoch)

    def __init__(self, *args, **kwargs):
        pass


ExponentialLR = override(ExponentialLR)
__all__.append('ExponentialLR')


class CosineAnnealingLR(Gnn.CosineAnnealingLR):
    def __new__(cls, optimizer, T_max, eta_min=0.0, last_epoch=-1):
        return Gnn.CosineAnnealingLR.new(optimizer, T_max, eta_min, last_epoch)

    def __init__(self, *args, **kwargs):
        pass


CosineAnnealingLR = override(CosineAnnealingLR)
__all__.append('CosineAnnealingLR')


class LinearLR(Gnn.LinearLR):
    def __new__(cls, optimizer, start_factor=1.0 / 3, end_factor=1.0, total_iters=5, last_epoch=-1):
        return Gnn.LinearLR.new(optimizer, start_factor, end_factor, total_iters, last_epoch)

    def __init__(self, *args, **kwargs):
        pass


LinearLR = override(LinearLR)
__all__.append('LinearLR')


def _call_lr_lambda(fn, epoch):
    try:
        return float(fn(epoch))
    except BaseException as e:  # raised again by the caller into C
        if getattr(_hook_state, 'error', None) is None:
            _hook_state.error = e
        return float('nan')


class LambdaLR(Gnn.LambdaLR):
    """``LambdaLR(optimizer, lr_lambda, last_epoch=-1)``: lr_lambda is a function of the
    epoch, or a list of them, one per parameter group. An exception raised by a function
    is raised again by the constructor or ``step``, which then leaves the scheduler and the
    groups as they were."""

    def __new__(cls, optimizer, lr_lambda, last_epoch=-1):
        if isinstance(lr_lambda, (list, tuple)):
            n = optimizer.get_n_param_groups()
            if len(lr_lambda) != n:
                raise ValueError('Expected {} lr_lambdas, but got {}'.format(n, len(lr_lambda)))
            fns = list(lr_lambda)

            def per_group(group, epoch, *user_data):
                return _call_lr_lambda(fns[group], epoch)
            self = _call_raising_python_errors(Gnn.LambdaLR.new_per_group, optimizer, per_group,
                                               None, last_epoch)
        else:
            fns = [lr_lambda] * optimizer.get_n_param_groups()

            def one(epoch, *user_data):
                return _call_lr_lambda(lr_lambda, epoch)
            self = _call_raising_python_errors(Gnn.LambdaLR.new, optimizer, one, None, last_epoch)
        self._lr_lambdas = fns
        return self

    def __init__(self, *args, **kwargs):
        pass

    @property
    def lr_lambdas(self):
        return list(self._lr_lambdas)

    def step(self):
        opt = self.get_optimizer()
        snapshot = Gnn.LRScheduler.state_dict(self)
        lrs = [opt.get_param_group(i).get_option('lr') for i in range(opt.get_n_param_groups())]
        try:
            _call_raising_python_errors(Gnn.LRScheduler.step, self)
        except BaseException:
            Gnn.LRScheduler.load_state_dict(self, snapshot)
            for i, v in enumerate(lrs):
                opt.get_param_group(i).set_option('lr', v)
            raise


LambdaLR = override(LambdaLR)
__all__.append('LambdaLR')


class OneCycleLR(Gnn.OneCycleLR):
    def __new__(cls, optimizer, max_lr, total_steps=None, epochs=None, steps_per_epoch=None,
                pct_start=0.3, anneal_strategy='cos', cycle_momentum=True, base_momentum=0.85,
                max_momentum=0.95, div_factor=25., final_div_factor=1e4, three_phase=False,
                last_epoch=-1):
        def positive(name, v):
            if not isinstance(v, int) or isinstance(v, bool) or v <= 0:
                raise ValueError('Expected positive integer {}, but got {}'.format(name, v))
            return v
        ts = ep = spe = -1
        if total_steps is not None:
            ts = positive('total_steps', total_steps)
        elif epochs is not None and steps_per_epoch is not None:
            ep = positive('epochs', epochs)
            spe = positive('steps_per_epoch', steps_per_epoch)
        if not isinstance(pct_start, float):
            raise ValueError('Expected float between 0 and 1 pct_start, but got {}'.format(pct_start))
        return Gnn.OneCycleLR.new(optimizer, _per_group('max_lr', max_lr, optimizer), ts, ep, spe,
                                  pct_start, anneal_strategy, cycle_momentum,
                                  _per_group('base_momentum', base_momentum, optimizer),
                                  _per_group('max_momentum', max_momentum, optimizer), float(div_factor),
                                  float(final_div_factor), three_phase, last_epoch)

    def __init__(self, *args, **kwargs):
        pass


OneCycleLR = override(OneCycleLR)
__all__.append('OneCycleLR')


class SequentialLR(Gnn.SequentialLR):
    def __new__(cls, optimizer, schedulers, milestones, last_epoch=-1):
        return _call_raising_python_errors(Gnn.SequentialLR.new, optimizer, list(schedulers),
                                           [int(m) for m in milestones], last_epoch)

    def __init__(self, *args, **kwargs):
        pass

    @property
    def _schedulers(self):
        return [self.get_scheduler(i) for i in range(self.get_n_schedulers())]

    @property
    def _milestones(self):
        return list(self.get_milestones())


SequentialLR = override(SequentialLR)
__all__.append('SequentialLR')


class SWALR(Gnn.SWALR):
    def __new__(cls, optimizer, swa_lr, anneal_epochs=10, anneal_strategy='cos', last_epoch=-1):
        if not isinstance(anneal_epochs, int) or isinstance(anneal_epochs, bool):
            raise ValueError('anneal_epochs must be equal or greater than 0, got {}'.format(anneal_epochs))
        return Gnn.SWALR.new(optimizer, _per_group('swa_lr', swa_lr, optimizer), anneal_epochs,
                             anneal_strategy, last_epoch)

    def __init__(self, *args, **kwargs):
        pass


SWALR = override(SWALR)
__all__.append('SWALR')


# ---- optimizers (torch.optim) ----------------------------------------------------------

def _option_variant(value):
    """A parameter-group option as the GLib.Variant the C side keeps: bool 'b', a number 'd',
    a pair of numbers '(dd)' (Adam's betas), a string 's'; a GLib.Variant as it is."""
    from gi.repository import GLib
    import numbers
    if isinstance(value, GLib.Variant):
        return value
    if isinstance(value, bool):
        return GLib.Variant('b', value)
    if isinstance(value, numbers.Real):
        return GLib.Variant('d', float(value))
    if isinstance(value, (tuple, list)) and len(value) == 2 and all(
            isinstance(v, numbers.Real) and not isinstance(v, bool) for v in value):
        return GLib.Variant('(dd)', (float(value[0]), float(value[1])))
    if isinstance(value, str):
        return GLib.Variant('s', value)
    raise TypeError('cannot store %r as an option of a parameter group (expected a bool, a number, '
                    'a pair of numbers or a string)' % (value,))


class ParamGroup(_Mapping, Gnn.ParamGroup):
    """One entry of ``optimizer.param_groups``: a mapping of ``"params"`` (the list of
    tensors) and the options, as PyTorch's dicts: ``group["lr"]``, ``group["lr"] = 0.01``,
    ``"momentum" in group``, keys() with ``"params"`` first. Numbers come back as float,
    flags as bool, Adam's betas as a tuple. The parameters of a group are fixed."""

    def _keys(self):
        return ['params'] + list(self.list_options() or [])

    def _get(self, key):
        if key == 'params':
            return list(self.get_params())
        return self.get_option(key).unpack()

    def _set(self, key, value):
        if not isinstance(key, str):
            raise TypeError('parameter group options are named by strings, not %s' % type(key).__name__)
        if key == 'params':
            raise TypeError('the parameters of a Gnn.ParamGroup cannot be replaced; make a new group')
        self.set_option(key, _option_variant(value))

    def _contains(self, key):
        return key == 'params' or self.has_option(key)

    def _pop(self, key):
        raise TypeError('options cannot be removed from a parameter group')

    def get(self, key, default=None):
        return self[key] if key in self else default

    def setdefault(self, key, default=None):
        if key not in self:
            self[key] = default
        return self[key]

    def __repr__(self):
        return '{%s}' % ', '.join('%r: %r' % kv for kv in self.items())

    __str__ = __repr__


ParamGroup = override(ParamGroup)
__all__.append('ParamGroup')


def _make_param_group(spec):
    """A Gnn.ParamGroup from a Gnn.ParamGroup (as it is), or a dict holding ``"params"`` (a
    tensor or an iterable of tensors) and options, as PyTorch's add_param_group takes."""
    if isinstance(spec, Gnn.ParamGroup):
        return spec
    if not isinstance(spec, dict):
        raise TypeError('a parameter group is a dict with "params", not %s' % type(spec).__name__)
    if 'params' not in spec:
        raise ValueError('a parameter group needs "params"')
    params = spec['params']
    if isinstance(params, Gnn.Tensor):
        params = [params]
    elif isinstance(params, set):
        raise TypeError('optimizer parameters need to be organized in ordered collections, but the '
                        'ordering of tensors in sets will change between runs. Please use a list instead.')
    else:
        params = list(params)
    for p in params:
        if not isinstance(p, Gnn.Tensor):
            raise TypeError("optimizer can only optimize Tensors, but one of the params is "
                            + type(p).__name__)
    group = Gnn.ParamGroup.new(params)
    for key, value in spec.items():
        if key != 'params':
            group.set_option(key, _option_variant(value))
    return group


def _param_groups(params):
    """PyTorch's params argument (an iterable of tensors, or of dicts, or a module's
    parameters()) as a list of Gnn.ParamGroup; a single group without options for tensors."""
    if isinstance(params, Gnn.Tensor):
        raise TypeError('params argument given to the optimizer should be an iterable of Tensors '
                        'or dicts, but got ' + type(params).__name__)
    if isinstance(params, Gnn.ParamGroup):
        return [params]
    if isinstance(params, Gnn.Module):
        params = params.parameters(True)
    params = list(params)
    if not params or not isinstance(params[0], dict):
        return [_make_param_group({'params': params})]
    return [_make_param_group(spec) for spec in params]


class _OptimizerState:
    """``optimizer.state``: parameter -> its state (a Gnn.StateDict)."""

    def __init__(self, optimizer):
        self._optimizer = optimizer

    def __getitem__(self, param):
        return self._optimizer.get_state(param)

    def __contains__(self, param):
        return isinstance(param, Gnn.Tensor) and self._optimizer.has_state(param)

    def __iter__(self):
        return iter([p for g in self._optimizer.get_param_groups() for p in g.get_params()
                     if self._optimizer.has_state(p)])

    def __len__(self):
        return len(list(iter(self)))

    def items(self):
        return [(p, self[p]) for p in self]


def _wrap_bool_vfunc(fn):
    """_wrap_vfunc for a do_* method returning gboolean: a Python implementation that
    returns None succeeds."""
    import functools

    @functools.wraps(fn)
    def returning_true(self, *args):
        result = fn(self, *args)
        return True if result is None else result
    return _wrap_vfunc(returning_true)


class Optimizer(Gnn.Optimizer):
    """``torch.optim.Optimizer``: param_groups, step(closure=None), zero_grad(set_to_none=True),
    state_dict()/load_state_dict(), add_param_group(dict). Python subclasses call
    ``super().__init__(params, defaults)`` and implement ``do_step(self)`` (and optionally
    ``do_check_group(self, group)``); an exception they raise reaches the caller of step()."""

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        for name in ('do_step', 'do_check_group'):
            fn = cls.__dict__.get(name)
            if fn is not None and not getattr(fn, '_gnn_wrapped', False):
                setattr(cls, name, _wrap_bool_vfunc(fn))

    def __init__(self, params=None, defaults=None, **kwargs):
        Gnn.Optimizer.__init__(self, **kwargs)
        for key, value in (defaults or {}).items():
            self.set_default(key, _option_variant(value))
        if params is not None:
            groups = _param_groups(params)
            if not groups[0].get_n_params():
                raise ValueError('optimizer got an empty parameter list')
            for group in groups:
                self.add_param_group(group)

    @property
    def param_groups(self):
        return list(self.get_param_groups())

    @property
    def state(self):
        return _OptimizerState(self)

    def add_param_group(self, param_group):
        """Adds a group: a dict with "params" and options, or a Gnn.ParamGroup; options it
        lacks come from the defaults. A GLib.Error (PyTorch's message) when it is invalid."""
        _call_raising_python_errors(Gnn.Optimizer.add_param_group, self, _make_param_group(param_group))

    def step(self, closure=None):
        """One optimization step; closure, when given, is called first with gradients enabled
        and its result (the loss) returned."""
        loss = None
        if closure is not None:
            with enable_grad():
                loss = closure()
        _call_raising_python_errors(Gnn.Optimizer.step, self)
        return loss

    def zero_grad(self, set_to_none=True):
        """Drops the gradients (set_to_none=True, PyTorch 2's default) or zeroes them."""
        Gnn.Optimizer.zero_grad(self, set_to_none)

    def load_state_dict(self, state_dict):
        """Loads a state from state_dict() (a Gnn.StateDict, or any mapping of the same keys)."""
        if not isinstance(state_dict, Gnn.StateDict):
            state_dict = StateDict(state_dict)
        Gnn.Optimizer.load_state_dict(self, state_dict)

    def __repr__(self):
        lines = [type(self).__name__ + ' (']
        for i, group in enumerate(self.get_param_groups()):
            lines.append('Parameter Group %d' % i)
            for key in sorted(k for k in group.keys() if k != 'params'):
                lines.append('    %s: %s' % (key, group[key]))
        lines.append(')')
        return '\n'.join(lines)

    __str__ = __repr__


Optimizer = override(Optimizer)
__all__.append('Optimizer')

_REQUIRED = object()


def _new_optimizer(new, params, options, positional):
    """Creates an optimizer with its C constructor new(first group, *positional) and adds the
    other groups; options names the keyword arguments (for a required lr)."""
    groups = _param_groups(params)
    if options.get('lr') is _REQUIRED:
        for group in groups:
            if not group.has_option('lr'):
                raise ValueError("parameter group didn't specify a value of required optimization "
                                 "parameter lr")
        positional = (0.0,) + tuple(positional[1:])
    optimizer = new(groups[0], *positional)
    for group in groups[1:]:
        optimizer.add_param_group(group)
    return optimizer


class SGD(Gnn.SGD, Optimizer):
    """``torch.optim.SGD(params, lr, momentum=0, dampening=0, weight_decay=0, nesterov=False,
    *, maximize=False)``; params: tensors, dicts of per-group options, or a module."""

    def __new__(cls, params, lr=_REQUIRED, momentum=0, dampening=0, weight_decay=0, nesterov=False,
                *, maximize=False, foreach=None):
        return _new_optimizer(Gnn.SGD.new, params, {'lr': lr},
                              (lr, momentum, dampening, weight_decay, nesterov, maximize))

    def __init__(self, *args, **kwargs):
        pass


SGD = override(SGD)
__all__.append('SGD')


class Adam(Gnn.Adam, Optimizer):
    """``torch.optim.Adam(params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0,
    amsgrad=False, *, maximize=False)``."""

    def __new__(cls, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0, amsgrad=False,
                *, maximize=False, foreach=None):
        return _new_optimizer(Gnn.Adam.new, params, {},
                              (lr, betas[0], betas[1], eps, weight_decay, amsgrad, maximize))

    def __init__(self, *args, **kwargs):
        pass


Adam = override(Adam)
__all__.append('Adam')


class AdamW(Gnn.AdamW, Optimizer):
    """``torch.optim.AdamW(params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=1e-2,
    amsgrad=False, *, maximize=False)``."""

    def __new__(cls, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=1e-2, amsgrad=False,
                *, maximize=False, foreach=None):
        return _new_optimizer(Gnn.AdamW.new, params, {},
                              (lr, betas[0], betas[1], eps, weight_decay, amsgrad, maximize))

    def __init__(self, *args, **kwargs):
        pass


AdamW = override(AdamW)
__all__.append('AdamW')


class RMSprop(Gnn.RMSprop, Optimizer):
    """``torch.optim.RMSprop(params, lr=1e-2, alpha=0.99, eps=1e-8, weight_decay=0, momentum=0,
    centered=False, *, maximize=False)``."""

    def __new__(cls, params, lr=1e-2, alpha=0.99, eps=1e-8, weight_decay=0, momentum=0, centered=False,
                foreach=None, maximize=False):
        return _new_optimizer(Gnn.RMSprop.new, params, {},
                              (lr, alpha, eps, weight_decay, momentum, centered, maximize))

    def __init__(self, *args, **kwargs):
        pass


RMSprop = override(RMSprop)
__all__.append('RMSprop')


class Adagrad(Gnn.Adagrad, Optimizer):
    """``torch.optim.Adagrad(params, lr=1e-2, lr_decay=0, weight_decay=0,
    initial_accumulator_value=0, eps=1e-10, *, maximize=False)``."""

    def __new__(cls, params, lr=1e-2, lr_decay=0, weight_decay=0, initial_accumulator_value=0, eps=1e-10,
                foreach=None, *, maximize=False):
        return _new_optimizer(Gnn.Adagrad.new, params, {},
                              (lr, lr_decay, weight_decay, initial_accumulator_value, eps, maximize))

    def __init__(self, *args, **kwargs):
        pass


Adagrad = override(Adagrad)
__all__.append('Adagrad')


# ---- data: datasets and the loader ------------------------------------------------------

class DataLoader(Gnn.DataLoader):
    """`Gnn.DataLoader(dataset, batch_size=1, shuffle=False, seed=0, drop_last=False)`;
    iterating gives each batch of the current epoch as a tuple of tensors, `len()` the number
    of batches, and `loader[i]` batch i."""

    def __init__(self, dataset=None, batch_size=1, shuffle=False, seed=0, drop_last=False,
                 transform=None, **kwargs):
        if dataset is not None:
            kwargs.update(dataset=dataset, batch_size=batch_size, shuffle=shuffle, seed=seed,
                          drop_last=drop_last)
        Gnn.DataLoader.__init__(self, **kwargs)
        if transform is not None:
            self.set_transform(transform)

    def __len__(self):
        return self.get_n_items()

    def __getitem__(self, index):
        n = len(self)
        if index < 0:
            index += n
        if not 0 <= index < n:
            raise IndexError('batch %d is out of range for a loader of %d batches' % (index, n))
        return tuple(self.get_batch(index))

    def __iter__(self):
        for i in range(len(self)):
            yield tuple(self.get_batch(i))


DataLoader = override(DataLoader)
__all__.append('DataLoader')


class Dataset(Gnn.Dataset):
    """Implement a dataset in Python with `do_get_length (self)` and `do_get_item (self,
    index)` returning a sequence of tensors; `len(dataset)` and `dataset[i]` work on any
    dataset."""

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        user = cls.__dict__.get('do_get_item')
        if user is not None and 'do_fill_item' not in cls.__dict__:
            def do_fill_item(self, index, sample, _user=user):
                for t in _user(self, index):
                    sample.append(t)
                return True
            do_fill_item._gnn_adapted = True
            cls.do_fill_item = do_fill_item

    def __len__(self):
        return self.get_length()

    def __getitem__(self, index):
        return tuple(self.get_item(index))


Dataset = override(Dataset)
__all__.append('Dataset')


class Checkpoint(Gnn.Checkpoint):
    """`Gnn.Checkpoint(model=m, optimizer=o, scheduler=s, generator=g,
    averaged={'ema': e}, metadata={'epoch': '3'})`; `ckpt.save(path)`, `ckpt.load(path)`,
    `ckpt.metadata` (a dict of the caller's metadata)."""

    def __init__(self, averaged=None, metadata=None, **kwargs):
        super().__init__(**kwargs)
        for name, model in (averaged or {}).items():
            self.add_averaged_model(name, model)
        for key, value in (metadata or {}).items():
            self.set_metadata(key, str(value))

    @property
    def metadata(self):
        return {k: self.get_metadata(k) for k in self.list_metadata()}

    @property
    def averaged(self):
        return {k: self.get_averaged_model(k) for k in self.list_averaged_models()}


Checkpoint = override(Checkpoint)
__all__.append('Checkpoint')
