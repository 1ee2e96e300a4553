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
    raised again instead of the GError that stood for it in C. Any other GError is raised as the
    class torch raises for its code (a NotImplementedError for a derivative torch lacks, say),
    still a GLib.Error."""
    from gi.repository import GLib
    _hook_state.error = None
    try:
        result = func(*args)
    except GLib.Error as e:
        error = getattr(_hook_state, 'error', None)
        _hook_state.error = None
        _warn_anomaly_report()
        if error is not None:
            raise error from None
        from .errors import as_python_error
        translated = as_python_error(e)
        if translated is e:
            raise
        raise translated from None
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


class inference_mode(_GradMode):
    """torch.inference_mode (mode=True): inside the block (or each call of the decorated
    function) autograd records nothing and every tensor made is an inference tensor
    (Tensor.is_inference ()), which outside the mode refuses in-place updates and
    requires_grad and cannot be saved for backward; ``inference_mode (False)`` turns the mode
    off again, with grad mode on. Also a bare decorator, as in PyTorch 2."""

    def __new__(cls, mode=True):
        if callable(mode) and not isinstance(mode, bool):
            return cls()(mode)
        return super().__new__(cls)

    def __init__(self, mode=True):
        self.mode = bool(mode)

    def clone(self):
        return type(self)(self.mode)

    def __enter__(self):
        self.prev, self.prev_grad = Gnn.set_inference_mode_enabled(self.mode)

    def __exit__(self, *exc):
        Gnn.set_inference_mode_enabled(self.prev)
        Gnn.set_grad_enabled(self.prev_grad)


def is_inference(input):
    """torch.is_inference (input): whether input is an inference tensor."""
    if not isinstance(input, Gnn.Tensor):
        raise TypeError('is_inference(): argument \'input\' (position 1) must be Tensor, not %s'
                        % type(input).__name__)
    return input.is_inference()


__all__ += ['no_grad', 'enable_grad', 'set_grad_enabled', 'inference_mode', 'is_inference']


# ---- anomaly detection: Python's traceback as the forward trace of each node ----

_OVERRIDES_DIR = __file__.rsplit('/', 1)[0].rsplit('/', 1)[0]   # gi/overrides


def _forward_trace(user_data=None):
    """The anomaly trace function: the Python stack of the op that records a node, without
    the frames of these overrides, formatted as torch's anomaly mode prints it."""
    import traceback
    frames = [f for f in traceback.extract_stack()[:-1]
              if not f.filename.startswith(_OVERRIDES_DIR)]
    return ''.join(traceback.format_list(frames))


Gnn.autograd_set_anomaly_trace_func(_forward_trace, None)


def _warn_anomaly_report():
    """After a failed call under anomaly mode: the report of the backward that failed, as the
    UserWarning torch's anomaly mode gives."""
    if Gnn.autograd_is_anomaly_enabled():
        report = Gnn.autograd_take_anomaly_report()
        if report:
            import warnings
            warnings.warn(report, UserWarning, stacklevel=4)


def set_anomaly_enabled(enabled, check_nan=True):
    """torch.set_anomaly_enabled: turns anomaly detection on or off (and its NaN check)."""
    Gnn.autograd_set_anomaly_enabled(bool(enabled), bool(check_nan))


def is_anomaly_enabled():
    """torch.is_anomaly_enabled."""
    return Gnn.autograd_is_anomaly_enabled()


def is_anomaly_check_nan_enabled():
    """torch.is_anomaly_check_nan_enabled."""
    return Gnn.autograd_is_anomaly_check_nan_enabled()


class detect_anomaly:
    """torch.autograd.detect_anomaly (check_nan=True): anomaly detection inside the ``with``
    block. Each node recorded there keeps the Python traceback of its forward call; a backward
    that fails warns ``Error detected in XBackward0. Traceback of forward call that caused the
    error: ...`` before its error, and with check_nan a backward formula returning NaN raises
    ``RuntimeError: Function 'XBackward0' returned nan values in its 0th output.``"""

    def __init__(self, check_nan=True):
        import warnings
        self.prev = is_anomaly_enabled()
        self.check_nan = check_nan
        self.prev_check_nan = is_anomaly_check_nan_enabled()
        warnings.warn('Anomaly Detection has been enabled. This mode will increase the runtime '
                      'and should only be enabled for debugging.', stacklevel=2)

    def __enter__(self):
        set_anomaly_enabled(True, self.check_nan)

    def __exit__(self, *exc):
        set_anomaly_enabled(self.prev, self.prev_check_nan)


class set_detect_anomaly:
    """torch.autograd.set_detect_anomaly (mode, check_nan=True): sets anomaly detection at
    once, as a plain call, and restores the previous setting at the end of a ``with`` block."""

    def __init__(self, mode, check_nan=True):
        self.prev = is_anomaly_enabled()
        self.prev_check_nan = is_anomaly_check_nan_enabled()
        set_anomaly_enabled(mode, check_nan)

    def __enter__(self):
        pass

    def __exit__(self, *exc):
        set_anomaly_enabled(self.prev, self.prev_check_nan)


__all__ += ['set_anomaly_enabled', 'is_anomaly_enabled', 'is_anomaly_check_nan_enabled',
            'detect_anomaly', 'set_detect_anomaly']



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
