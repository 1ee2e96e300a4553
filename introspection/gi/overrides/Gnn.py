# PyGObject overrides for Gnn: Pythonic helpers over the introspected API.
#
# SPDX-License-Identifier: LGPL-2.1-or-later
import contextlib
import threading

from gi.module import get_introspection_module
from gi.overrides import override

Gnn = get_introspection_module('Gnn')

__all__ = []

# exceptions raised by Python gradient hooks during a backward on this thread
_hook_state = threading.local()


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
        _hook_state.error = None
        try:
            Gnn.Tensor.backward(self, gradient, retain_graph)
        finally:
            error = getattr(_hook_state, 'error', None)
            _hook_state.error = None
        if error is not None:
            raise error

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


class Module(Gnn.Module):
    """Python conveniences over GnnModule: calling, attribute registration, iteration."""

    def __call__(self, *args, **kwargs):
        _hook_state.error = None
        try:
            out = Gnn.Module.forward(self, Args.pack(*args, **kwargs))
        finally:
            error = getattr(_hook_state, 'error', None)
            _hook_state.error = None
        if error is not None:
            raise error
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

    def named_modules(self, prefix='', remove_duplicate=True):
        mods, names = Gnn.Module.named_modules(self, prefix, remove_duplicate)
        return list(zip(names, mods))

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
