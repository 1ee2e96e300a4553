# torch.nn.utils.parametrize: register_parametrization and its companions, on the C
# GnnParametrizationList (gnn-parametrize.c)
#
# A parametrization is any module: a C one, or a Python subclass of nn.Module with forward
# and, optionally, right_inverse, which is installed on the C side as its right inverse
# (gnn_parametrization_set_right_inverse) when the parametrization is registered.
#
# SPDX-License-Identifier: LGPL-2.1-or-later
import contextlib as _contextlib

from .base import Gnn, _call_raising_python_errors, _hook_state, override
from .errors import raising_torch_errors as _raising
from .module import Args as _Args

__all__ = []


def _right_inverse_trampoline(p, value, out, *_user_data):
    """The C right inverse of a Python parametrization: calls its right_inverse method.
    NotImplementedError is the C side's NOT_SUPPORTED (kept as the identity at registration);
    any other exception is raised again to the Python caller."""
    from gi.repository import GLib
    try:
        result = p.right_inverse(value)
    except NotImplementedError as e:
        raise GLib.Error.new_literal(Gnn.error_quark(), 'NotImplementedError: %s' % e,
                                     int(Gnn.Error.NOT_SUPPORTED)) from None
    except GLib.Error:
        raise
    except BaseException as e:
        if getattr(_hook_state, 'error', None) is None:
            _hook_state.error = e
        raise GLib.Error.new_literal(Gnn.error_quark(), '%s: %s' % (type(e).__name__, e),
                                     int(Gnn.Error.FAILED)) from None
    if isinstance(result, (list, tuple)):
        out.set_from(_Args.pack(*result, sequence=True))
    else:
        out.set_from(_Args.pack(result))
    return True


def _install_right_inverse(parametrization):
    if (callable(getattr(type(parametrization), 'right_inverse', None))
            and not Gnn.parametrization_has_right_inverse(parametrization)):
        Gnn.parametrization_set_right_inverse(parametrization, _right_inverse_trampoline, None)


@_raising
def nn_utils_parametrize_register_parametrization(module, tensor_name, parametrization, *, unsafe=False):
    """torch.nn.utils.parametrize.register_parametrization: tensor_name of module reads as
    parametrization(module.parametrizations[tensor_name].original) from now on; a second
    registration on the same name chains. Returns module."""
    _install_right_inverse(parametrization)
    _call_raising_python_errors(Gnn.register_parametrization, module, tensor_name,
                                parametrization, unsafe)
    return module


def nn_utils_parametrize_is_parametrized(module, tensor_name=None):
    """torch.nn.utils.parametrize.is_parametrized: whether module has a parametrization on
    tensor_name (on any tensor when None)."""
    return Gnn.is_parametrized(module, tensor_name)


@_raising
def nn_utils_parametrize_remove_parametrizations(module, tensor_name, leave_parametrized=True):
    """torch.nn.utils.parametrize.remove_parametrizations: tensor_name becomes a parameter
    again, holding its parametrized value (leave_parametrized) or original. Returns module."""
    _call_raising_python_errors(Gnn.remove_parametrizations, module, tensor_name,
                                leave_parametrized)
    return module


@_contextlib.contextmanager
def nn_utils_parametrize_cached():
    """torch.nn.utils.parametrize.cached: within the scope each parametrized tensor is
    computed once, at its first read (on this thread)."""
    Gnn.parametrize_cached_enter()
    try:
        yield
    finally:
        Gnn.parametrize_cached_leave()


@_raising
def nn_utils_parametrize_transfer_parametrizations_and_params(from_module, to_module, tensor_name=None):
    """torch.nn.utils.parametrize.transfer_parametrizations_and_params: registers
    from_module's parametrizations (all, or tensor_name's) on to_module, the same
    parametrization objects, creating the tensor there when it lacks it, and makes
    to_module's originals from_module's own tensor objects. Returns to_module."""
    if (tensor_name is not None and Gnn.is_parametrized(from_module, None)
            and not Gnn.is_parametrized(from_module, tensor_name)):
        # torch's errors, before anything changed: getattr of a tensor neither module has,
        # else the lookup in from_module.parametrizations
        if not hasattr(to_module, tensor_name) and not hasattr(from_module, tensor_name):
            raise AttributeError("'%s' object has no attribute '%s'"
                                 % (type(from_module).__name__, tensor_name))
        raise KeyError(tensor_name)
    _call_raising_python_errors(Gnn.transfer_parametrizations_and_params, from_module, to_module,
                                tensor_name)
    return to_module


def nn_utils_parametrize_type_before_parametrizations(module):
    """torch.nn.utils.parametrize.type_before_parametrizations: gnn does not change the class
    of a parametrized module, so this is type(module)."""
    return type(module)


@_raising
def _set_parametrized(module, name, value):
    _call_raising_python_errors(Gnn.parametrize_set_tensor, module, name, value)


for _f in (nn_utils_parametrize_register_parametrization, nn_utils_parametrize_is_parametrized,
           nn_utils_parametrize_remove_parametrizations, nn_utils_parametrize_cached,
           nn_utils_parametrize_type_before_parametrizations,
           nn_utils_parametrize_transfer_parametrizations_and_params):
    _f.__module__ = 'gnn.nn.utils.parametrize'
    _f.__name__ = _f.__qualname__ = _f.__name__[len('nn_utils_parametrize_'):]
del _f
__all__ += ['nn_utils_parametrize_register_parametrization', 'nn_utils_parametrize_is_parametrized',
            'nn_utils_parametrize_remove_parametrizations', 'nn_utils_parametrize_cached',
            'nn_utils_parametrize_type_before_parametrizations',
            'nn_utils_parametrize_transfer_parametrizations_and_params']


# ---- torch.nn.utils.parametrizations ----

@_raising
def nn_utils_parametrizations_spectral_norm(module, name='weight', n_power_iterations=1, eps=1e-12, dim=None):
    """torch.nn.utils.parametrizations.spectral_norm: module's weight reads as W / sigma(W),
    sigma estimated by power iteration (one step per training forward). dim None is 0, or 1
    for the transposed convolutions. Returns module."""
    if dim is None:
        dim = Gnn.SpectralNorm.default_dim(module)
    _call_raising_python_errors(Gnn.spectral_norm, module, name, n_power_iterations, eps, dim)
    return module


nn_utils_parametrizations_spectral_norm.__module__ = 'gnn.nn.utils.parametrizations'
nn_utils_parametrizations_spectral_norm.__name__ = 'spectral_norm'
nn_utils_parametrizations_spectral_norm.__qualname__ = 'spectral_norm'
__all__.append('nn_utils_parametrizations_spectral_norm')


@_raising
def nn_utils_parametrizations_orthogonal(module, name='weight', orthogonal_map=None, *,
                                         use_trivialization=True):
    """torch.nn.utils.parametrizations.orthogonal: module's weight (a matrix or a batch of
    them) reads as one with orthonormal columns, or rows for a wide one. orthogonal_map is
    "matrix_exp", "cayley" or "householder"; None picks matrix_exp for a square weight,
    householder otherwise. Returns module."""
    if orthogonal_map is not None and not isinstance(orthogonal_map, str):
        raise ValueError('orthogonal_map has to be one of "matrix_exp", "cayley", "householder". '
                         'Got: %s' % (orthogonal_map,))
    _call_raising_python_errors(Gnn.orthogonal, module, name, orthogonal_map, use_trivialization)
    return module


nn_utils_parametrizations_orthogonal.__module__ = 'gnn.nn.utils.parametrizations'
nn_utils_parametrizations_orthogonal.__name__ = 'orthogonal'
nn_utils_parametrizations_orthogonal.__qualname__ = 'orthogonal'
__all__.append('nn_utils_parametrizations_orthogonal')


@_raising
def nn_utils_parametrizations_weight_norm(module, name='weight', dim=0):
    """torch.nn.utils.parametrizations.weight_norm (PyTorch 2.1): module's weight reads as
    v * g / ||v|| with g = parametrizations[name].original0 (its norm over every dimension
    but dim; the whole tensor when dim is None) and v = original1 (its values). A state dict
    of the hook-based weight_norm (name_g, name_v) loads into it. Returns module."""
    _call_raising_python_errors(Gnn.parametrizations_weight_norm, module, name,
                                -1 if dim is None else dim)
    return module


nn_utils_parametrizations_weight_norm.__module__ = 'gnn.nn.utils.parametrizations'
nn_utils_parametrizations_weight_norm.__name__ = 'weight_norm'
nn_utils_parametrizations_weight_norm.__qualname__ = 'weight_norm'
__all__.append('nn_utils_parametrizations_weight_norm')


# ---- the hook-based torch.nn.utils.weight_norm ----

@_raising
def nn_utils_weight_norm(module, name='weight', dim=0):
    """torch.nn.utils.weight_norm: name is replaced by the parameters name_g (its norm over
    every dimension but dim; the whole tensor when dim is None) and name_v, and recomputed as
    v * g / ||v|| by a forward pre-hook before each call. Returns module."""
    if not hasattr(module, name):
        raise AttributeError("'%s' object has no attribute '%s'" % (type(module).__name__, name))
    _call_raising_python_errors(Gnn.weight_norm, module, name, -1 if dim is None else dim)
    return module


@_raising
def nn_utils_remove_weight_norm(module, name='weight'):
    """torch.nn.utils.remove_weight_norm: name is a plain parameter again. Returns module."""
    _call_raising_python_errors(Gnn.remove_weight_norm, module, name)
    return module


for _f in (nn_utils_weight_norm, nn_utils_remove_weight_norm):
    _f.__module__ = 'gnn.nn.utils'
    _f.__name__ = _f.__qualname__ = _f.__name__[len('nn_utils_'):]
del _f
__all__ += ['nn_utils_weight_norm', 'nn_utils_remove_weight_norm']


# ---- the hook-based torch.nn.utils.spectral_norm ----

@_raising
def nn_utils_spectral_norm(module, name='weight', n_power_iterations=1, eps=1e-12, dim=None):
    """torch.nn.utils.spectral_norm: name becomes name_orig with the buffers name_u and
    name_v, and a forward pre-hook sets name = orig / sigma before each call (power iteration
    in training mode only). dim None is 0, or 1 for the transposed convolutions. Returns
    module."""
    if not hasattr(module, name):
        raise AttributeError("'%s' object has no attribute '%s'" % (type(module).__name__, name))
    if dim is None:
        dim = Gnn.SpectralNorm.default_dim(module)
    _call_raising_python_errors(Gnn.SpectralNorm.hook, module, name, n_power_iterations, eps, dim)
    return module


@_raising
def nn_utils_remove_spectral_norm(module, name='weight'):
    """torch.nn.utils.remove_spectral_norm: name is a plain parameter again. Returns module."""
    _call_raising_python_errors(Gnn.remove_spectral_norm, module, name)
    return module


for _f in (nn_utils_spectral_norm, nn_utils_remove_spectral_norm):
    _f.__module__ = 'gnn.nn.utils'
    _f.__name__ = _f.__qualname__ = _f.__name__[len('nn_utils_'):]
del _f
__all__ += ['nn_utils_spectral_norm', 'nn_utils_remove_spectral_norm']

class ParametrizationList(Gnn.ParametrizationList):
    """torch.nn.utils.parametrize.ParametrizationList: the parametrizations of one tensor as
    children 0, 1, ..., the unparametrized tensor as original (original0, original1, ...);
    calling it gives the parametrized tensor."""

    def __len__(self):
        return self.get_length()

    def __getitem__(self, index):
        if isinstance(index, slice):
            return [self.get(i) for i in range(len(self))][index]
        if not isinstance(index, int):
            raise TypeError('indices must be integers or slices, not %s' % type(index).__name__)
        n = len(self)
        if not -n <= index < n:
            raise IndexError('index %d is out of range' % index)
        return self.get(index)

    def __iter__(self):
        return iter([self.get(i) for i in range(len(self))])

    @property
    def unsafe(self):
        return self.get_unsafe()

    @property
    def is_tensor(self):
        return self.get_is_tensor()

    @property
    def ntensors(self):
        return self.get_n_tensors()

    @_raising
    def right_inverse(self, value):
        _call_raising_python_errors(Gnn.ParametrizationList.right_inverse, self, value)


ParametrizationList = override(ParametrizationList)
__all__.append('ParametrizationList')
