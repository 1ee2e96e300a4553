# the introspected module, errors raised from Python callbacks, grad mode
#
# SPDX-License-Identifier: LGPL-2.1-or-later
import threading

from gi.module import get_introspection_module
from gi.overrides import override as _gi_override

Gnn = get_introspection_module('Gnn')


def override(klass):
    """gi.overrides.override for a class written in any part: PyGObject finds the namespace
    from the class's module, which is gi.overrides.Gnn for every override of Gnn."""
    klass.__module__ = 'gi.overrides.Gnn'
    return _gi_override(klass)


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


class _GradMode:
    """What torch's grad-mode classes share: each is a context manager and, called on a
    function, a decorator that runs every call inside a fresh instance of itself."""

    def clone(self):
        return type(self)()

    def __call__(self, fn):
        import functools
        import inspect
        if inspect.isgeneratorfunction(fn):
            @functools.wraps(fn)
            def generator(*args, **kwargs):
                gen = fn(*args, **kwargs)
                value = None
                while True:
                    with self.clone():
                        try:
                            item = gen.send(value)
                        except StopIteration as stop:
                            return stop.value
                    value = yield item
            return generator

        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            with self.clone():
                return fn(*args, **kwargs)
        return wrapper


class no_grad(_GradMode):
    """torch.no_grad: autograd records nothing on this thread inside ``with no_grad ():``, or
    during each call of a function decorated with ``@no_grad ()``."""

    def __enter__(self):
        self.prev = Gnn.set_grad_enabled(False)

    def __exit__(self, *exc):
        Gnn.set_grad_enabled(self.prev)


class enable_grad(_GradMode):
    """torch.enable_grad: autograd records inside the block (or the decorated function) even
    within no_grad."""

    def __enter__(self):
        self.prev = Gnn.set_grad_enabled(True)

    def __exit__(self, *exc):
        Gnn.set_grad_enabled(self.prev)


class set_grad_enabled(_GradMode):
    """torch.set_grad_enabled (mode): sets the mode at once, as a plain call, and restores the
    previous one at the end of a ``with`` block (or, as a decorator, around each call).

    As the C function gnn_set_grad_enabled returns the previous mode, the object is true or
    false as the previous mode was: ``prev = Gnn.set_grad_enabled (False)`` ...
    ``Gnn.set_grad_enabled (prev)`` keeps working."""

    def __init__(self, mode):
        self.mode = bool(mode)
        self.prev = Gnn.set_grad_enabled(self.mode)

    def clone(self):
        return type(self)(self.mode)

    def __bool__(self):
        return bool(self.prev)

    def __enter__(self):
        pass

    def __exit__(self, *exc):
        Gnn.set_grad_enabled(self.prev)

    def __repr__(self):
        return 'set_grad_enabled(mode=%r) (previous mode %r)' % (self.mode, self.prev)


__all__ += ['no_grad', 'enable_grad', 'set_grad_enabled']



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
