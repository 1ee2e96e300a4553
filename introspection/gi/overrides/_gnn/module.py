# modules: calling, attribute registration, hooks, iteration
#
# SPDX-License-Identifier: LGPL-2.1-or-later
from gi.repository import GLib

from .base import Gnn, _call_raising_python_errors, _hook_state, _wrap_vfunc, no_grad, override
from .tensor import TENSOR_TYPES, _device_string, dtype as _dtype_class

__all__ = []


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
    # anything else (a list, a dict, a namedtuple, a numpy array ...) travels as a Python
    # object, for a Python forward; a C forward refuses it with a GError naming the type
    return GObject.Value(GObject.TYPE_PYOBJECT, v)


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



# ---- modules written the torch way ----------------------------------------------------------
#
# A subclass of nn.Module (this override) may be written as a torch module is: __init__ calling
# super().__init__() and assigning its parts, and forward(self, *args, **kwargs). The class
# needs no __gtype_name__: its GType is named from its module and qualified name, the parts
# joined by '+' as PyGObject joins them ("__main__+Net", "models+resnet+Block" for a class Block
# of models.resnet, "<locals>" left out), which is the same in every run of the same program,
# so that a JSON tree written by one run is rebuilt by the next one once it has defined the
# class; gnn_module_get_name prints the part after the last '+', the class name torch prints.
# A second class of the same module and name (a class redefined in a notebook, or made by a
# function called twice) is "<module>+v2+<Class>", the third v3, in the order they are made.
# forward becomes the do_forward virtual method that C calls (gnn_module_forward, a Sequential
# holding the module, hooks around it): its positional and keyword arguments are the GnnArgs'
# values, and what it returns becomes the output GnnArgs (a tuple gives one value each, a
# tensor, None or any other object one value; a Python caller gets back the one value, or a
# tuple of several, so that a 1-tuple comes back as its element). extra_repr becomes
# do_extra_repr. A class whose __init__ needs arguments, made by C (a JSON rebuild), skips its
# __init__: its parameters, buffers and submodules come from the tree, its other attributes
# are missing (copy.deepcopy copies them).

_GTYPE_CHARS = frozenset('abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-+')


def _gtype_name_for(cls):
    """The GType name of a Python module class that gives none (see above)."""
    from gi.repository import GObject
    parts = cls.__module__.split('.') + [p for p in cls.__qualname__.split('.') if p != '<locals>']
    parts = [''.join(c if c in _GTYPE_CHARS else '_' for c in p) for p in parts]
    if not parts[0][:1].isalpha() and parts[0][:1] != '_':
        parts[0] = '_' + parts[0]
    for n in range(1, 1 << 16):
        name = '+'.join(parts if n == 1 else parts[:-1] + ['v%d' % n, parts[-1]])
        try:
            GObject.type_from_name(name)
        except RuntimeError:     # not taken
            return name
    raise RuntimeError('no free GType name for %s' % cls.__qualname__)


def _output_of(out):
    """What a Python caller gets from a module's output GnnArgs: its one value, None when it
    has none, a tuple of several (with a dict of keyword values, if any, after them)."""
    pos, kw = out.unpack()
    if kw:
        return pos, kw
    if len(pos) == 1:
        return pos[0]
    return pos if pos else None


def _forward_vfunc(self, args):
    """do_forward of a class written with forward (self, ...)."""
    pos, kw = args.unpack()
    out = self.forward(*pos, **kw)
    if type(out) is tuple:
        return Args.pack(*out)
    return Args.pack(out)


def _extra_repr_vfunc(self):
    return self.extra_repr()


def _is_constructed(obj):
    """Whether the GObject under a Python wrapper exists (PyGObject makes it in __init__)."""
    try:
        obj.__grefcount__
        return True
    except TypeError:
        return False


def _needs_arguments(init):
    import inspect
    try:
        sig = inspect.signature(init)
    except (TypeError, ValueError):
        return False
    params = list(sig.parameters.values())[1:]
    return any(p.default is p.empty and p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)
               for p in params)


def _install_right_inverse(module):
    """A parametrization C rebuilt (a JSON rebuild, a checkpoint) gets its class's right_inverse,
    as register_parametrization gives it one."""
    if callable(getattr(type(module), 'right_inverse', None)):
        from .parametrize import _install_right_inverse as install
        install(module)


def _init_wrapper(init):
    import functools

    @functools.wraps(init)
    def __init__(self, *args, **kwargs):
        # C made this module (JSON rebuild, copy) and PyGObject runs __init__ () on it: a
        # constructor that needs arguments is skipped; the tree's parts come from C
        if not args and not kwargs and _is_constructed(self) and _needs_arguments(init):
            _install_right_inverse(self)
            return
        init(self, *args, **kwargs)
    __init__._gnn_wrapped = True
    return __init__


def _torch_style_class(cls):
    """Fills in what a torch-style subclass leaves out (called by __init_subclass__)."""
    if '__gtype_name__' not in cls.__dict__ and '__gtype__' not in cls.__dict__:
        cls.__gtype_name__ = _gtype_name_for(cls)
    if 'forward' in cls.__dict__ and 'do_forward' not in cls.__dict__:
        cls.do_forward = _forward_vfunc
    if 'extra_repr' in cls.__dict__ and 'do_extra_repr' not in cls.__dict__:
        cls.do_extra_repr = _extra_repr_vfunc
    init = cls.__dict__.get('__init__')
    if init is not None and not getattr(init, '_gnn_wrapped', False):
        cls.__init__ = _init_wrapper(init)


def _typename(value):
    """torch.typename: 'torch.FloatTensor' for a float32 tensor, the class name otherwise."""
    if isinstance(value, Gnn.Tensor):
        return 'torch.' + _TENSOR_TYPE_NAMES.get(value.get_dtype(), 'Tensor')
    cls = type(value)
    return cls.__qualname__ if cls.__module__ == 'builtins' else cls.__module__ + '.' + cls.__qualname__


_TENSOR_TYPE_NAMES = {
    Gnn.Dtype.FLOAT32: 'FloatTensor', Gnn.Dtype.FLOAT64: 'DoubleTensor', Gnn.Dtype.FLOAT16: 'HalfTensor',
    Gnn.Dtype.BFLOAT16: 'BFloat16Tensor', Gnn.Dtype.INT64: 'LongTensor', Gnn.Dtype.UINT8: 'ByteTensor',
    Gnn.Dtype.BOOL: 'BoolTensor', Gnn.Dtype.INT32: 'IntTensor', Gnn.Dtype.INT16: 'ShortTensor',
    Gnn.Dtype.INT8: 'CharTensor',
}

_DTYPE_NAMES = {
    'float32': Gnn.Dtype.FLOAT32, 'float': Gnn.Dtype.FLOAT32, 'float64': Gnn.Dtype.FLOAT64,
    'double': Gnn.Dtype.FLOAT64, 'float16': Gnn.Dtype.FLOAT16, 'half': Gnn.Dtype.FLOAT16,
    'bfloat16': Gnn.Dtype.BFLOAT16, 'int64': Gnn.Dtype.INT64, 'long': Gnn.Dtype.INT64,
    'uint8': Gnn.Dtype.UINT8, 'bool': Gnn.Dtype.BOOL, 'int32': Gnn.Dtype.INT32, 'int': Gnn.Dtype.INT32,
    'int16': Gnn.Dtype.INT16, 'short': Gnn.Dtype.INT16, 'int8': Gnn.Dtype.INT8,
}


def _as_dtype(value):
    """A Gnn.Dtype from a Gnn.Dtype or a dtype object (one holding a Gnn.Dtype, or printing as
    'gnn.float64' / 'torch.float64'); None for anything else. A string is not read as a
    dtype here (Module.to's positional strings are devices): _DTYPE_NAMES reads names."""
    if isinstance(value, Gnn.Dtype):
        return value
    if isinstance(value, _dtype_class):
        return Gnn.Dtype(int(value))     # gnn.float64, an int that prints as torch.float64
    if isinstance(value, (str, int)) or value is None:
        return None      # a device
    for attr in ('gnn_dtype', 'value'):
        inner = getattr(value, attr, None)
        if isinstance(inner, Gnn.Dtype):
            return inner
    name = str(value).rpartition('.')[2]
    return _DTYPE_NAMES.get(name)


def _parse_to(args, kwargs):
    """torch.nn.Module.to's arguments as (device, dtype): to (device=None, dtype=None,
    non_blocking=False), to (dtype, non_blocking=False), to (tensor, non_blocking=False)."""
    kwargs = dict(kwargs)
    for key in ('non_blocking', 'memory_format', 'copy'):
        kwargs.pop(key, None)
    device, dtype = kwargs.pop('device', None), kwargs.pop('dtype', None)
    tensor = kwargs.pop('tensor', None)
    if kwargs:
        raise TypeError("to() got an unexpected keyword argument '%s'" % next(iter(kwargs)))
    args = list(args)
    if args and isinstance(args[-1], bool):     # non_blocking given by position
        args.pop()
    if len(args) > 2:
        raise TypeError('to() received an invalid combination of arguments: %d positional' % len(args))
    for a in args:
        if isinstance(a, Gnn.Tensor):
            tensor = a
        elif _as_dtype(a) is not None:
            dtype = a
        elif a is None or isinstance(a, (str, int)):
            device = a
        else:
            raise TypeError('to() received an invalid argument: expected a device, a dtype or a '
                            'tensor, got %s' % type(a).__name__)
    if tensor is not None:
        device, dtype = tensor.get_device(), tensor.get_dtype()
    if dtype is not None:
        d = _DTYPE_NAMES.get(dtype) if isinstance(dtype, str) else _as_dtype(dtype)
        if d is None:
            raise TypeError('to(): %r is not a dtype' % (dtype,))
        if d not in (Gnn.Dtype.FLOAT32, Gnn.Dtype.FLOAT64, Gnn.Dtype.FLOAT16, Gnn.Dtype.BFLOAT16):
            raise TypeError('nn.Module.to only accepts floating point or complex dtypes, but got '
                            'desired dtype=%s' % dtype)
        dtype = d
    return _device_string(device), dtype


def _c_none_slots(module):
    """{name: kind} of the slots of @module itself that hold None, from its JSON description."""
    import json
    try:
        tree = json.loads(Gnn.Module.to_json(module, False))
    except Exception:      # a module JSON cannot describe: no None slots known
        return {}
    slots = {}
    for key, kind in (('parameters', 'parameter'), ('buffers', 'buffer')):
        for entry in tree.get(key, []):
            if entry.get('shape', ()) is None:
                slots[entry['name']] = kind
    for entry in tree.get('children', []):
        if entry.get('module') is None:
            slots[entry['name']] = 'module'
    return slots


class Module(Gnn.Module):
    """Python conveniences over GnnModule: calling, attribute registration, iteration."""

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        if not cls.__module__.startswith('gi.overrides.'):
            _torch_style_class(cls)
        for name in ('do_forward', 'do_setup', 'do_extra_repr', 'do_get_extra_state', 'do_set_extra_state'):
            fn = cls.__dict__.get(name)
            if fn is not None and not getattr(fn, '_gnn_wrapped', False):
                setattr(cls, name, _wrap_vfunc(fn))

    def __init__(self, *args, **kwargs):
        # a module that C created (a JSON rebuild, Gnn.Module.copy) is already constructed when
        # PyGObject runs the class's __init__ on it: the subclass's __init__ then only adds
        # what it assigns
        if not _is_constructed(self):
            Gnn.Module.__init__(self, *args, **kwargs)
        else:
            _install_right_inverse(self)

    def __call__(self, *args, **kwargs):
        out = _call_raising_python_errors(Gnn.Module.forward, self, Args.pack(*args, **kwargs))
        return _output_of(out)

    def __setattr__(self, name, value):
        # as nn.Module.__setattr__: parameters, buffers and modules assigned as attributes
        # are registered (and found again by __getattr__); a slot keeps its kind: a parameter
        # slot takes a Parameter or None, a module slot a module or None
        if isinstance(value, Gnn.Parameter):
            self.__dict__.pop(name, None)
            self.register_parameter(name, value)
        elif isinstance(value, Gnn.Buffer):
            self.__dict__.pop(name, None)
            self.register_buffer(name, value, value.get_persistent())
        elif isinstance(value, Gnn.Module):
            self.__dict__.pop(name, None)
            self.register_module(name, value)
        elif self._slot_kind(name) == 'parameter':
            if value is not None:
                raise TypeError("cannot assign '%s' as parameter '%s' (torch.nn.Parameter or None "
                                "expected)" % (_typename(value), name))
            self.register_parameter(name, None)
        elif self._slot_kind(name) == 'module':
            if value is not None:
                raise TypeError("cannot assign '%s' as child module '%s' (torch.nn.Module or None "
                                "expected)" % (_typename(value), name))
            self.register_module(name, None)
        elif self._slot_kind(name) == 'buffer':
            if value is not None and not isinstance(value, Gnn.Tensor):
                raise TypeError("cannot assign '%s' as buffer '%s' (torch.Tensor or None expected)"
                                % (_typename(value), name))
            self.register_buffer(name, value, self.is_buffer_persistent(name))
        elif isinstance(value, Gnn.Tensor) and self._set_tensor_attribute(name, value):
            pass
        else:
            super().__setattr__(name, value)

    def _set_tensor_attribute(self, name, value):
        # a plain tensor attribute lives on the C side, where the layers' forward reads it (as
        # pruning's recomputed weight); a name the C side refuses (a property) stays a Python one;
        # a parametrized name is assigned through its right inverse, as torch's property setter
        if Gnn.is_parametrized(self, name):
            from .parametrize import _set_parametrized
            _set_parametrized(self, name, value)
            return True
        try:
            Gnn.Module.set_tensor_attribute(self, name, value)
        except (GLib.Error, TypeError):
            return False
        self.__dict__.pop(name, None)
        return True

    # The C getters cannot tell a slot holding None from no slot: the slots set to None from
    # Python are remembered here, by name, with their kind
    # (a gnn layer's own, such as Linear's bias with bias=False, are read once from its JSON
    # description, which lists them with a null shape)
    def _none_slots(self):
        slots = self.__dict__.get('_gnn_none_slots')
        if slots is None:
            slots = self.__dict__['_gnn_none_slots'] = {}
            if type(self).__module__.startswith('gi.'):
                slots.update(_c_none_slots(self))
        return slots

    def _note_slot(self, kind, name, value):
        if value is None:
            self._none_slots()[name] = kind
        else:
            self._none_slots().pop(name, None)

    def _slot_kind(self, name):
        """'parameter', 'buffer' or 'module' for a slot of that kind under @name, else None."""
        for kind, getter in (('parameter', Gnn.Module.get_parameter), ('buffer', Gnn.Module.get_buffer),
                             ('module', Gnn.Module.get_submodule)):
            if self._has_member(getter, name):
                return kind
        return self._none_slots().get(name)

    @staticmethod
    def _registering(register, self, name, value, *rest):
        # a name another member or a tensor attribute holds is torch's KeyError
        try:
            register(self, name, value, *rest)
        except GLib.Error as e:
            if 'already exists' in e.message:
                raise KeyError("attribute '%s' already exists" % name) from None
            raise

    def register_parameter(self, name, param):
        """register_parameter (name, param), as nn.Module's; None makes a slot that reads as
        None and registers the Parameter assigned to it later."""
        self._registering(Gnn.Module.register_parameter, self, name, param)
        self._note_slot('parameter', name, param)

    def register_module(self, name, module):
        """register_module (name, module); None makes a slot that reads as None."""
        self._registering(Gnn.Module.register_module, self, name, module)
        self._note_slot('module', name, module)

    def register_buffer(self, name, tensor, persistent=True):
        """register_buffer (name, tensor, persistent=True), as nn.Module's; a None tensor
        makes a slot that reads as None and registers the tensor assigned to it later."""
        self._registering(Gnn.Module.register_buffer, self, name, tensor, persistent)
        self._note_slot('buffer', name, tensor)

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
        for getter in (Gnn.Module.get_parameter, Gnn.Module.get_buffer, Gnn.Module.get_submodule,
                       Gnn.Module.get_tensor):
            try:
                return getter(self, name)
            except Exception:
                continue
        if name != '_gnn_none_slots' and name in self._none_slots():
            return None
        raise AttributeError("'%s' object has no attribute '%s'" % (type(self).__name__, name))

    def __delattr__(self, name):
        self._none_slots().pop(name, None)
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

    # the traversals are lazy iterators, as torch's are (each walks a snapshot of the tree
    # taken when the iteration starts)
    def named_parameters(self, prefix='', recurse=True, remove_duplicate=True):
        params, names = Gnn.Module.named_parameters(self, prefix, recurse, remove_duplicate)
        yield from zip(names, params)

    def parameters(self, recurse=True):
        yield from Gnn.Module.parameters(self, recurse)

    def named_buffers(self, prefix='', recurse=True, remove_duplicate=True):
        bufs, names = Gnn.Module.named_buffers(self, prefix, recurse, remove_duplicate)
        yield from zip(names, bufs)

    def buffers(self, recurse=True):
        yield from Gnn.Module.buffers(self, recurse)

    # torch.nn.Module's Python-only aliases, over the C functions they stand for
    def add_module(self, name, module):
        """add_module: register_module under PyTorch's other name."""
        self.register_module(name, module)

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
            for t in list(self.parameters()) + list(self.buffers()):
                t.set_data(Gnn.Tensor.to_dtype(t, dst_type))
                grad = t.get_grad()
                if grad is not None:
                    grad.set_data(Gnn.Tensor.to_dtype(grad, dst_type))
        return self

    def named_children(self):
        mods, names = Gnn.Module.named_children(self)
        yield from zip(names, mods)

    def children(self):
        yield from Gnn.Module.children(self)

    def named_modules(self, memo=None, prefix='', remove_duplicate=True):
        """(name, module) pairs of the tree, as nn.Module.named_modules; modules in the set
        @memo are skipped (with their subtrees) and the ones listed are added to it."""
        if memo is None:
            mods, names = Gnn.Module.named_modules(self, prefix, remove_duplicate)
            yield from zip(names, mods)
            return

        def walk(module, name):
            if module in memo:
                return
            if remove_duplicate:
                memo.add(module)
            yield name, module
            for child_name, child in module.named_children():
                yield from walk(child, name + ('.' if name else '') + child_name)
        yield from walk(self, prefix)

    def modules(self):
        yield from Gnn.Module.modules(self)

    def train(self, mode=True):
        """train (mode=True): the mode of the whole tree; returns the module."""
        if not isinstance(mode, bool):
            raise ValueError('training mode is expected to be boolean')
        Gnn.Module.train(self, mode)
        return self

    def eval(self):
        """eval (): train (False); returns the module."""
        return self.train(False)

    @property
    def training(self):
        return self.get_training()

    @training.setter
    def training(self, value):
        # torch's training is one module's attribute: the modules below keep their modes
        # (Gnn.Module.set_training, like train, sets the whole tree)
        below = [(m, m.get_training()) for m in Gnn.Module.modules(self)[1:]]
        self.set_training(bool(value))
        for m, mode in below:
            if m.get_training() != mode:
                m.set_training(mode)

    def to(self, *args, **kwargs):
        """to (device=None, dtype=None, non_blocking=False), to (dtype), to (tensor), as
        nn.Module.to: a device string or gnn.device, a floating-point dtype, or a tensor whose
        device and dtype the module takes. Returns the module."""
        device, dtype = _parse_to(args, kwargs)
        if device is not None:
            _call_raising_python_errors(Gnn.Module.to_device, self, device)
        if dtype is not None:
            _call_raising_python_errors(Gnn.Module.to_dtype, self, dtype)
        return self

    def requires_grad_(self, requires_grad=True):
        """requires_grad_ (requires_grad=True) of every parameter; returns the module."""
        Gnn.Module.requires_grad_(self, requires_grad)
        return self

    def zero_grad(self, set_to_none=True):
        """zero_grad (set_to_none=True): the gradients of every parameter become None (or, with
        set_to_none=False, zeros), as in torch >= 2.0. Returns None."""
        Gnn.Module.zero_grad(self, set_to_none)

    def extra_repr(self):
        """extra_repr (): the extra text of the printed form. A torch-style class that defines
        extra_repr and calls super ().extra_repr () gets the implementation of the nearest gnn
        class it derives from (Linear's, or Module's empty one)."""
        for klass in type(self).__mro__:
            if klass.__module__.startswith('gi.'):    # a gnn class (or its override)
                return klass.do_extra_repr(self)
        return ''

    def apply(self, fn, *user_data):
        """apply (fn): fn (module) on every submodule, children first, then on this module, as
        nn.Module.apply; an exception of fn stops the walk. Returns the module. (Values after
        fn are passed to it after the module, as the C function's user data.)"""
        for child in Gnn.Module.children(self):
            child.apply(fn, *user_data)
        fn(self, *user_data)
        return self

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


class Parameter(Gnn.Parameter):
    """``nn.Parameter (data=None, requires_grad=True)``: a parameter over @data's storage
    (Gnn.Parameter.new); without data, an empty float32 tensor, as in torch."""

    def __new__(cls, data=None, requires_grad=True, **kwargs):
        if kwargs:     # PyGObject's property form, Gnn.Parameter (requires_grad=...)
            return super().__new__(cls)
        if data is None:
            data = Gnn.Tensor.new_empty([0], Gnn.Dtype.FLOAT32, None)
        elif not isinstance(data, Gnn.Tensor):
            raise TypeError('Parameter(): data must be a Tensor, not %s' % type(data).__name__)
        return Gnn.Parameter.new(data, bool(requires_grad))

    def __init__(self, data=None, requires_grad=True, **kwargs):
        if kwargs:
            Gnn.Parameter.__init__(self, **kwargs)


Parameter = override(Parameter)
TENSOR_TYPES.add(Parameter)
__all__.append('Parameter')
