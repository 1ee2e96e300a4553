# tensors as Python values: operators, indexing, numpy, Gnn.tensor, devices
#
# SPDX-License-Identifier: LGPL-2.1-or-later
from .base import Gnn, _call_raising_python_errors, _hook_state, override

__all__ = []

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
    Gnn.Dtype.INT32: 'int32', Gnn.Dtype.INT16: 'int16', Gnn.Dtype.INT8: 'int8',
}
_GNN_OF_NP = {
    'float32': Gnn.Dtype.FLOAT32, 'float64': Gnn.Dtype.FLOAT64, 'int64': Gnn.Dtype.INT64,
    'bool': Gnn.Dtype.BOOL, 'uint8': Gnn.Dtype.UINT8, 'float16': Gnn.Dtype.FLOAT16,
    'int32': Gnn.Dtype.INT32, 'int16': Gnn.Dtype.INT16, 'int8': Gnn.Dtype.INT8,
}
_INTEGRAL = (Gnn.Dtype.INT64, Gnn.Dtype.UINT8, Gnn.Dtype.BOOL, Gnn.Dtype.INT32, Gnn.Dtype.INT16,
             Gnn.Dtype.INT8)
# torch.from_numpy's refusal of the numpy dtypes torch has no dtype for
_NP_REFUSED = ("can't convert np.ndarray of type numpy.%s. The only supported types are: float64, "
               "float32, float16, complex64, complex128, int64, int32, int16, int8, uint8, and bool.")


class dtype(int):
    """torch.dtype over Gnn.Dtype: ``Gnn.float32`` (``gnn.float32``) prints as torch prints it
    (``torch.float32``), equals and hashes as the Gnn.Dtype value it stands for (so it goes
    wherever a Gnn.Dtype does, C calls included), and is what ``t.dtype`` gives."""

    def __new__(cls, value, name):
        self = super().__new__(cls, int(value))
        self._name = name
        return self

    def __repr__(self):
        return 'torch.' + self._name

    __str__ = __repr__

    def __reduce__(self):
        return (as_dtype, (self._name,))

    @property
    def is_floating_point(self):
        return bool(Gnn.dtype_is_floating(self))

    @property
    def is_signed(self):
        return int(self) not in (int(Gnn.Dtype.BOOL), int(Gnn.Dtype.UINT8))

    @property
    def itemsize(self):
        return Gnn.dtype_get_size(self)

    def __getattr__(self, name):
        # value_nick, value_name and the rest of the Gnn.Dtype it stands for
        if name.startswith('__'):
            raise AttributeError(name)
        return getattr(Gnn.Dtype(int(self)), name)


# torch's names of each dtype, the first the one torch prints
_DTYPE_NAMES = {
    Gnn.Dtype.FLOAT32: ('float32', 'float'), Gnn.Dtype.FLOAT64: ('float64', 'double'),
    Gnn.Dtype.FLOAT16: ('float16', 'half'), Gnn.Dtype.BFLOAT16: ('bfloat16',),
    Gnn.Dtype.INT64: ('int64', 'long'), Gnn.Dtype.UINT8: ('uint8',), Gnn.Dtype.BOOL: ('bool',),
    Gnn.Dtype.INT32: ('int32', 'int'), Gnn.Dtype.INT16: ('int16', 'short'), Gnn.Dtype.INT8: ('int8',),
}
_DTYPES = {int(v): dtype(v, names[0]) for v, names in _DTYPE_NAMES.items()}
_DTYPE_OF_NAME = {name: _DTYPES[int(v)] for v, names in _DTYPE_NAMES.items() for name in names}
__all__ += list(_DTYPE_OF_NAME) + ['dtype']


def __getattr__(name):
    # the dtype names (float, bool, long, ...) are attributes of this module without being its
    # globals, which would hide the builtins float and bool from the code here
    if name in _DTYPE_OF_NAME:
        return _DTYPE_OF_NAME[name]
    raise AttributeError("module %r has no attribute %r" % (__name__, name))


def as_dtype(value):
    """The torch-style dtype for a Gnn.Dtype, a dtype, a name ('float32', 'torch.long') or a
    numpy dtype; a TypeError naming the value for anything else."""
    if isinstance(value, dtype):
        return value
    if isinstance(value, int) and not isinstance(value, bool) and int(value) in _DTYPES:
        return _DTYPES[int(value)]
    name = value if isinstance(value, str) else getattr(value, 'name', None)
    if isinstance(name, str):
        found = _DTYPE_OF_NAME.get(name[6:] if name.startswith('torch.') else name)
        if found is not None:
            return found
    raise TypeError('expected a dtype (gnn.float32, gnn.int64, ... or a Gnn.Dtype), got %r: gnn\'s '
                    'dtypes are %s' % (value, ', '.join(repr(d) for d in _DTYPES.values())))


# the dtype of floating-point factories and of Python floats (torch.set_default_dtype, in the
# surface part, changes it)
_default_dtype = [Gnn.Dtype.FLOAT32]


def get_default_dtype():
    """torch.get_default_dtype: the dtype of floating-point factories and of Python floats,
    float32 unless torch.set_default_dtype changed it (gnn's layers are float32 unless given a
    dtype)."""
    return _DTYPES[int(_default_dtype[0])]


class Size(tuple):
    """torch.Size: a tensor's shape, a tuple of ints that prints as torch.Size([2, 3])."""

    def __repr__(self):
        return 'torch.Size(%r)' % list(self)

    __str__ = __repr__

    def numel(self):
        n = 1
        for s in self:
            n *= s
        return n

    def __getitem__(self, key):
        item = super().__getitem__(key)
        return Size(item) if isinstance(key, slice) else item

    def __add__(self, other):
        return Size(tuple(self) + tuple(other))


__all__ += ['get_default_dtype', 'Size']


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


# The classes of the tensors that C makes (Tensor, Parameter): `type (x) in TENSOR_TYPES` is the
# fast test of the hot ops (isinstance against a GObject class costs as much as a small op's
# arithmetic); a subclass of them still passes isinstance on the general path.
TENSOR_TYPES = set()


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
        return tensor.to_dtype(_default_dtype[0])
    if tensor.get_dtype() == Gnn.Dtype.BOOL:
        return tensor.to_dtype(Gnn.Dtype.INT64)
    return tensor


def _scalar_like(tensor, value):
    """The number @value as a 0-d tensor of @tensor's dtype and device."""
    return Gnn.Tensor.new_scalar(value, tensor.get_dtype(), tensor.get_device())


def _binary(tensor_op, scalar_op, *extra):
    """An operator: tensor_op (self, other, *extra) with a tensor, scalar_op (self, number)
    with a number."""
    def op(self, other):
        if type(other) in TENSOR_TYPES:   # the common case first: a small op is mostly this call
            return tensor_op(self, other, *extra)
        other = _as_operand(other)
        if other is None:
            return NotImplemented
        if isinstance(other, Gnn.Tensor):
            return tensor_op(self, other, *extra)
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
        dtype = _default_dtype[0]
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
    if self.get_dtype() == Gnn.Dtype.BFLOAT16:   # numpy() gives its raw bits
        return Gnn.Tensor.item(self)
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


class _GradFn:
    """What every grad_fn shares: a Gnn.Node seen as torch sees its nodes. One object per node
    while it lives (y.grad_fn is y.grad_fn, and a node reached through next_functions is the
    same object), of a class named as the node (AddBackward0, AccumulateGrad)."""
    __slots__ = ('_node', 'metadata', '_next', '__weakref__')

    def name(self):
        """The node's name; the nodes torch writes in C++ rather than generates carry their
        namespace, as in torch (torch::autograd::AccumulateGrad, torch::autograd::CopySlices)."""
        name = self._node.get_name()
        return 'torch::autograd::' + name if name in _CXX_NODES else name

    @property
    def next_functions(self):
        """((node or None, input_nr), ...): where each input's gradient goes, None for an input
        that needs none, as torch's grad_fn.next_functions."""
        # the edges are fixed once recorded: kept, they keep the objects (and their metadata)
        # of the graph behind a live tensor's grad_fn alive, as torch's nodes keep theirs
        if self._next is None:
            result = []
            for i in range(self._node.get_n_next_functions()):
                node, input_nr = self._node.get_next_function(i)
                result.append((None if node is None else _grad_fn_for(node), input_nr))
            self._next = tuple(result)
        return self._next

    def __repr__(self):
        return '<%s object at %#x>' % (type(self).__name__, id(self))


class _AccumulateGradFn(_GradFn):
    __slots__ = ()

    @property
    def variable(self):
        """The leaf this AccumulateGrad node accumulates into."""
        return self._node.get_variable()


_CXX_NODES = ('AccumulateGrad', 'CopySlices')
_grad_fn_types = {}
_grad_fn_objects = None


def _grad_fn_type(name):
    if name not in _grad_fn_types:
        base = _AccumulateGradFn if name == 'AccumulateGrad' else _GradFn
        _grad_fn_types[name] = type(name, (base,), {
            '__slots__': (), '__doc__': 'the autograd node %s' % name})
    return _grad_fn_types[name]


def _grad_fn_for(node):
    """The one Python object of a Gnn.Node (boxed nodes compare and hash as their C node)."""
    global _grad_fn_objects
    import weakref
    if _grad_fn_objects is None:
        _grad_fn_objects = weakref.WeakValueDictionary()
    fn = _grad_fn_objects.get(node)
    if fn is None:
        fn = _grad_fn_type(node.get_name())()
        fn._node = node
        fn.metadata = {}
        fn._next = None
        _grad_fn_objects[node] = fn
    return fn


def _to_dtype_method(dtype):
    """Tensor.float () and its kin: to_dtype (dtype), the tensor itself if it has it."""
    def method(self):
        return Gnn.Tensor.to_dtype(self, dtype)
    method.__doc__ = 'The tensor as %s (itself if it is one already).' % _DTYPE_NAMES[dtype][0]
    return method


# the legacy type names of Tensor.type ()
_LEGACY_TYPE_NAMES = {
    int(Gnn.Dtype.FLOAT32): 'Float', int(Gnn.Dtype.FLOAT64): 'Double', int(Gnn.Dtype.FLOAT16): 'Half',
    int(Gnn.Dtype.BFLOAT16): 'BFloat16', int(Gnn.Dtype.INT64): 'Long', int(Gnn.Dtype.UINT8): 'Byte',
    int(Gnn.Dtype.BOOL): 'Bool', int(Gnn.Dtype.INT32): 'Int', int(Gnn.Dtype.INT16): 'Short',
    int(Gnn.Dtype.INT8): 'Char',
}
device_type = device
dtype_type = dtype


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
        return Size(self.get_shape())

    def size(self, dim=None):
        return self.shape if dim is None else self.get_size(dim)

    def dim(self):
        return self.get_ndim()

    @property
    def ndim(self):
        return self.get_ndim()

    def numel(self):
        return self.get_numel()

    nelement = numel

    @property
    def dtype(self):
        return as_dtype(self.get_dtype())

    @property
    def T(self):
        """The dims reversed (t () for 2-D tensors)."""
        return Gnn.Tensor.permute(self, list(range(self.get_ndim() - 1, -1, -1)))

    @property
    def mT(self):
        """The last two dims swapped (a batch of matrices transposed)."""
        if self.get_ndim() < 2:
            raise RuntimeError('tensor.mT is only supported on matrices or batches of matrices. '
                               'Got %d-D tensor.' % self.get_ndim())
        return Gnn.Tensor.transpose(self, -2, -1)

    def is_floating_point(self):
        return bool(Gnn.dtype_is_floating(self.get_dtype()))

    def to(self, *args, dtype=None, device=None, non_blocking=False, copy=False, memory_format=None):
        """Tensor.to (dtype), (device), (device, dtype), (tensor): the tensor itself when
        nothing changes (unless copy=True), as torch's."""
        args = list(args)
        if args and isinstance(args[0], Gnn.Tensor):
            other = args.pop(0)
            device, dtype = other.get_device(), other.get_dtype()
        elif args and (args[0] is None or isinstance(args[0], (str, device_type))
                       or (isinstance(args[0], int)
                           and not isinstance(args[0], (bool, dtype_type, Gnn.Dtype)))):
            device = args.pop(0)
        if args and not isinstance(args[0], bool):
            dtype = args.pop(0)
        if args:
            non_blocking = args.pop(0)
        if args:
            copy = args.pop(0)
        result = self
        if dtype is not None:
            result = Gnn.Tensor.to_dtype(result, as_dtype(dtype))
        if device is not None:
            result = Gnn.Tensor.to_device(result, _device_string(device))
        if copy and result is self:
            result = Gnn.Tensor.clone(self)
        return result

    def type(self, dtype=None, non_blocking=False):
        """Tensor.type (): torch's type name ('torch.FloatTensor'); type (dtype): to (dtype)."""
        if dtype is None:
            return 'torch.%s%sTensor' % ('cuda.' if self.get_device() != 'cpu' else '',
                                         _LEGACY_TYPE_NAMES[int(self.get_dtype())])
        if isinstance(dtype, str):
            legacy = {v: k for k, v in _LEGACY_TYPE_NAMES.items()}
            kind = dtype.rpartition('.')[2][:-len('Tensor')] if dtype.endswith('Tensor') else None
            if kind not in legacy:
                raise ValueError('invalid type: %r' % dtype)
            dtype = legacy[kind]
        return Gnn.Tensor.to_dtype(self, as_dtype(dtype))

    float = _to_dtype_method(Gnn.Dtype.FLOAT32)
    double = _to_dtype_method(Gnn.Dtype.FLOAT64)
    half = _to_dtype_method(Gnn.Dtype.FLOAT16)
    bfloat16 = _to_dtype_method(Gnn.Dtype.BFLOAT16)
    long = _to_dtype_method(Gnn.Dtype.INT64)
    bool = _to_dtype_method(Gnn.Dtype.BOOL)
    byte = _to_dtype_method(Gnn.Dtype.UINT8)
    int = _to_dtype_method(Gnn.Dtype.INT32)
    short = _to_dtype_method(Gnn.Dtype.INT16)
    char = _to_dtype_method(Gnn.Dtype.INT8)

    def cpu(self):
        return Gnn.Tensor.to_device(self, 'cpu')

    def cuda(self, device=None, non_blocking=False):
        return Gnn.Tensor.to_device(self, 'cuda' if device is None else _device_string(device))

    def __getattr__(self, name):
        # only reached for names the class lacks: a torch.Tensor method gnn lacks says why
        from .names import missing_tensor_message
        raise AttributeError(missing_tensor_message(type(self).__name__, name))

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

    @property
    def grad_fn(self):
        """The node that made the tensor (None for a leaf): an object printing as torch's
        (<AddBackward0 object at 0x...>) with name (), next_functions and metadata."""
        node = self.get_grad_fn()
        if node is None:
            return None
        # the tensor keeps its grad_fn's object (and so its metadata) while it lives
        kept = self.__dict__.get('_grad_fn_object')
        if kept is None or kept._node != node:
            kept = _grad_fn_for(node)
            self.__dict__['_grad_fn_object'] = kept
        return kept

    def backward(self, gradient=None, retain_graph=None, create_graph=False, inputs=None):
        """Tensor.backward; an exception raised by a Python hook is raised again here, after
        the C engine finishes (a hook cannot stop it halfway). retain_graph defaults to
        create_graph; with inputs=, only those tensors' grad accumulate (through
        Gnn.autograd_grad)."""
        if retain_graph is None:
            retain_graph = create_graph
        if inputs is None:
            _call_raising_python_errors(Gnn.Tensor.backward_full, self, gradient, retain_graph,
                                        create_graph)
            return
        if isinstance(inputs, Gnn.Tensor):
            inputs = [inputs]
        inputs = list(inputs)
        if not inputs:
            raise RuntimeError("'inputs' argument to backward() cannot be empty.")
        grads = _call_raising_python_errors(
            Gnn.autograd_grad, [self], [] if gradient is None else [gradient], inputs,
            retain_graph, create_graph, True)
        for t, g in zip(inputs, grads):
            if g is None:
                continue
            t.grad = g if t.grad is None else (t.grad + g if create_graph else t.grad.add_(g))

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

    __add__ = _binary(Gnn.Tensor.add, Gnn.Tensor.add_scalar, 1.0)
    __radd__ = _reflected(Gnn.Tensor.add_scalar)
    __sub__ = _binary(Gnn.Tensor.sub, Gnn.Tensor.sub_scalar, 1.0)
    __rsub__ = _reflected(Gnn.Tensor.rsub_scalar)
    __mul__ = _binary(Gnn.Tensor.mul, Gnn.Tensor.mul_scalar)
    __rmul__ = _reflected(Gnn.Tensor.mul_scalar)
    __truediv__ = _binary(Gnn.Tensor.div, Gnn.Tensor.div_scalar)
    __rtruediv__ = _reflected(Gnn.Tensor.rdiv_scalar)
    __pow__ = _binary(Gnn.Tensor.pow, Gnn.Tensor.pow_scalar)
    __mod__ = _binary(Gnn.Tensor.remainder, lambda a, s: Gnn.Tensor.remainder(a, _scalar_like(a, s)))
    __rmod__ = _reflected(lambda a, s: Gnn.Tensor.remainder(_scalar_like(a, s), a))
    __floordiv__ = _binary(Gnn.Tensor.floor_divide, lambda a, s: Gnn.Tensor.floor_divide(a, _scalar_like(a, s)))
    __rfloordiv__ = _reflected(lambda a, s: Gnn.Tensor.floor_divide(_scalar_like(a, s), a))
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
                    # a dimension of size 1 never steps: its stride (x[::2**63 - 1] keeps torch's
                    # huge one) need not fit numpy's byte strides
                    'strides': tuple(s * dtype.itemsize if n > 1 else 0
                                     for n, s in zip(shape, self.get_strides())),
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
            raise TypeError(_NP_REFUSED % array.dtype.name)
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
TENSOR_TYPES.add(Tensor)
__all__.append('Tensor')

# torch.nn.functional's losses keep torch's spellings (Gnn.mse_loss (input, target, ...)):
# in C they are tensor functions (gnn_tensor_mse_loss), methods of the input here too
_FUNCTIONAL_LOSSES = ('mse_loss', 'l1_loss', 'smooth_l1_loss', 'huber_loss', 'binary_cross_entropy',
                      'binary_cross_entropy_with_logits', 'nll_loss', 'cross_entropy', 'kl_div')
for _name in _FUNCTIONAL_LOSSES:
    globals()[_name] = getattr(Gnn.Tensor, _name)
__all__ += list(_FUNCTIONAL_LOSSES)


def _check_data(data, where=(), lengths=None):
    """Raises what torch raises for data that tensor () cannot take, naming the element: a
    TypeError for a string or a sequence where a number is expected and back, a
    RuntimeError for any other object that is not a number (None, a dict: torch's "Could not
    infer dtype"), a ValueError for sequences of unequal lengths."""
    import numpy as np
    if lengths is None:
        lengths = []   # the length of the sequences at each depth, as first seen
    dim = len(where)
    if isinstance(data, (list, tuple)):
        if dim < len(lengths):
            if lengths[dim] is None:
                raise TypeError('expected a number at dim %d, got %s%s' % (dim, type(data).__name__, _at(where)))
            if len(data) != lengths[dim]:
                raise ValueError('expected sequence of length %d at dim %d (got %d)%s'
                                 % (lengths[dim], dim, len(data), _at(where)))
        else:
            lengths.append(len(data))
        for k, item in enumerate(data):
            _check_data(item, where + (k,), lengths)
        return
    if dim < len(lengths) and lengths[dim] is not None:
        raise TypeError('expected a sequence of length %d at dim %d, got %s%s'
                        % (lengths[dim], dim, type(data).__name__, _at(where)))
    if dim == len(lengths) and dim > 0:
        lengths.append(None)   # numbers at this depth
    if isinstance(data, (str, bytes)):
        raise TypeError("tensor(): invalid data type '%s'%s: %r, where numbers or bools are expected"
                        % (type(data).__name__, _at(where), data))
    if not (_is_scalar(data) or isinstance(data, (Gnn.Tensor, np.ndarray, np.generic))):
        raise RuntimeError('Could not infer dtype of %s%s' % (type(data).__name__, _at(where)))


def _at(where):
    return ' (the element at [%s])' % ', '.join(str(k) for k in where) if where else ''


def tensor(data, dtype=None, requires_grad=False, device=None):
    """torch.tensor: a new tensor holding a copy of @data, a (nested) list of numbers, a number,
    a numpy array or a tensor. Python ints give int64, floats float32 and bools bool; a numpy
    array keeps its dtype."""
    import numpy as np
    from gi.repository import GLib
    cast_to = None
    if isinstance(data, Gnn.Tensor):
        array = np.array(data.numpy(), copy=True)
    elif isinstance(data, (np.ndarray, np.generic)):
        array = np.array(data, copy=True)
    else:
        _check_data(data)
        try:
            array = np.array(data)
        except ValueError as e:
            raise ValueError('expected a rectangular nested sequence of numbers: %s' % e) from None
        if dtype is not None and array.dtype.kind in 'iufb':
            pass                                   # cast once, below: a float64 keeps its digits
        elif array.dtype.kind == 'f':
            # the default dtype: float64 keeps the digits; float16 and bfloat16 by a cast below
            array = array.astype(np.float64 if _default_dtype[0] == Gnn.Dtype.FLOAT64 else np.float32)
            if _default_dtype[0] not in (Gnn.Dtype.FLOAT32, Gnn.Dtype.FLOAT64):
                cast_to = _default_dtype[0]
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
    if cast_to is not None:
        result = Gnn.Tensor.to_dtype(result, cast_to)
    if requires_grad:
        result.set_requires_grad(True)
    return result


__all__.append('tensor')


def _device_string(device):
    if device is None or isinstance(device, str):
        return device
    if isinstance(device, int):
        return 'cuda:%d' % device
    return str(device)
