# the introspected module, errors raised from Python callbacks, grad mode
#
# SPDX-License-Identifier: LGPL-2.1-or-later
import contextlib
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
