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


class Tensor(Gnn.Tensor):
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

    def numpy(self):
        """A numpy copy of the elements (one memcpy through GBytes)."""
        import numpy as np
        dtypes = {
            Gnn.Dtype.FLOAT32: np.float32, Gnn.Dtype.FLOAT64: np.float64,
            Gnn.Dtype.INT64: np.int64, Gnn.Dtype.BOOL: np.bool_, Gnn.Dtype.UINT8: np.uint8,
            Gnn.Dtype.FLOAT16: np.float16, Gnn.Dtype.BFLOAT16: np.uint16,
        }
        data = self.get_bytes().get_data()
        return np.frombuffer(data, dtype=dtypes[self.get_dtype()]).reshape(self.shape).copy()

    @classmethod
    def from_numpy(cls, array, device=None):
        """A tensor holding a copy of a numpy array (one memcpy through GBytes)."""
        import numpy as np
        from gi.repository import GLib
        dtypes = {
            np.dtype(np.float32): Gnn.Dtype.FLOAT32, np.dtype(np.float64): Gnn.Dtype.FLOAT64,
            np.dtype(np.int64): Gnn.Dtype.INT64, np.dtype(np.bool_): Gnn.Dtype.BOOL,
            np.dtype(np.uint8): Gnn.Dtype.UINT8, np.dtype(np.float16): Gnn.Dtype.FLOAT16,
        }
        array = np.asarray(array)  # (ascontiguousarray would turn 0-d arrays into 1-d)
        if array.dtype not in dtypes:
            raise TypeError('unsupported numpy dtype %s' % array.dtype)
        return Gnn.Tensor.new_from_bytes(GLib.Bytes.new(array.tobytes()), dtypes[array.dtype],
                                         list(array.shape), device)


Tensor = override(Tensor)
__all__.append('Tensor')


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


Module = override(Module)
__all__.append('Module')


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
