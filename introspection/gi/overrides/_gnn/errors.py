# gnn's errors as the Python exceptions a torch user catches
#
# A C op fails with a GError, which PyGObject raises as GLib.Error, a RuntimeError: what torch
# raises for shape, dtype and device errors. Where torch raises another class (IndexError for
# a dim out of range, ValueError for a bad argument), the ops of the overrides raise a subclass
# of both GLib.Error and that class, so that `except IndexError` and `except GLib.Error`
# (e.matches (Gnn.error_quark (), Gnn.Error.INDEX)) catch the same exception, with the same
# message, domain and code.
#
# SPDX-License-Identifier: LGPL-2.1-or-later
import functools

from .base import Gnn

__all__ = []

# GnnError code -> the builtin exception torch raises for it
_PYTHON_CLASS = {
    int(Gnn.Error.INDEX): IndexError,
    int(Gnn.Error.INVALID_ARGUMENT): ValueError,
    int(Gnn.Error.NOT_SUPPORTED): NotImplementedError,
    int(Gnn.Error.OUT_OF_MEMORY): MemoryError,
}
_classes = {}


def error_class(code):
    """The subclass of GLib.Error and the builtin exception of a GnnError code (GLib.Error for
    codes torch raises as RuntimeError)."""
    from gi.repository import GLib
    builtin = _PYTHON_CLASS.get(int(code))
    if builtin is None:
        return GLib.Error
    if builtin not in _classes:
        _classes[builtin] = type('Gnn' + builtin.__name__, (GLib.Error, builtin), {
            '__module__': 'gi.overrides.Gnn',
            '__doc__': 'A GError of the Gnn domain that is also a %s, as torch raises it.' % builtin.__name__})
    return _classes[builtin]


def as_python_error(error):
    """The GLib.Error @error as the class torch raises for its code (itself if GLib.Error)."""
    if error.domain != 'gnn-error-quark':
        return error
    cls = error_class(error.code)
    if isinstance(error, cls):
        return error
    return cls(error.message, error.domain, error.code)


def raise_torch_error(error):
    """Raises the GLib.Error @error as as_python_error makes it; for an op that catches the
    errors of its C call itself (see translating_errors)."""
    translated = as_python_error(error)
    if translated is error:
        raise error
    raise translated from None


def translating_errors(fn):
    """Marks @fn as an op that raises torch's classes itself (its C call inside try ...
    except GLib.Error: raise_torch_error), so that raising_torch_errors leaves it unwrapped:
    the hot elementwise ops, whose call from Python is mostly overhead for small tensors."""
    fn._translates_errors = True
    return fn


def raising_torch_errors(fn):
    """Wraps an op of the overrides: a GLib.Error from C leaves it as as_python_error makes it.
    An op marked by translating_errors is returned as it is."""
    from gi.repository import GLib

    if getattr(fn, '_translates_errors', False):
        return fn

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except GLib.Error as e:
            translated = as_python_error(e)
            if translated is e:
                raise
            raise translated from None
    return wrapper


__all__ += ['error_class']
