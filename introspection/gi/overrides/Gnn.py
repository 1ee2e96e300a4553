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
