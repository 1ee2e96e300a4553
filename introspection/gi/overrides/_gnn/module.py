# modules: calling, attribute registration, hooks, iteration
#
# SPDX-License-Identifier: LGPL-2.1-or-later
from .base import Gnn, _call_raising_python_errors, _hook_state, _wrap_vfunc, no_grad, override
from .tensor import _device_string

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
