# torch's in-place forms (Tensor.X_ and torch.X_), built on one mechanism: the out-of-place op
# computes the result, which copy_ (gnn-ops-binary.c) writes back into the tensor. copy_ is
# autograd-aware: it bumps the version counter, refuses a leaf that requires grad, and rebases
# the history (on a view, the base's, as PyTorch's CopySlices), so gradients flow through the
# in-place result and a saved tensor that was changed fails at backward. When autograd records,
# the op reads a clone of the tensor, so that its backward never needs the overwritten values.
# The dtype rule is torch's: the result must be castable to the tensor's dtype.
#
# SPDX-License-Identifier: LGPL-2.1-or-later
import math as _math

from .base import Gnn

__all__ = []

_TORCH_TYPE_NAME = {
    'float32': 'Float', 'float64': 'Double', 'float16': 'Half', 'bfloat16': 'BFloat16',
    'int64': 'Long', 'int32': 'Int', 'int16': 'Short', 'int8': 'Char', 'uint8': 'Byte',
    'bool': 'Bool',
}


def _type_name(dtype):
    name = str(dtype).split('.')[-1]
    return _TORCH_TYPE_NAME.get(name, name)


def _error(message, code='DTYPE'):
    from gi.repository import GLib
    from .errors import as_python_error
    return as_python_error(GLib.Error(message, 'gnn-error-quark', int(getattr(Gnn.Error, code))))


def _can_cast(src, dst):
    """torch.can_cast: no floating to integral or bool, no integral to bool."""
    if src.is_floating_point and not dst.is_floating_point:
        return False
    if str(dst) == 'torch.bool' and str(src) != 'torch.bool':
        return False
    return True


def _check_self(name, self):
    if not isinstance(self, Gnn.Tensor):
        raise TypeError('%s(): argument \'input\' must be Tensor, not %s' % (name, type(self).__name__))


def write_back(self, result):
    """Writes @result (the out-of-place result) into @self as torch's in-place ops do, and
    returns @self: the shapes must agree and result's dtype must cast to self's."""
    if list(result.shape) != list(self.shape):
        raise _error("output with shape %s doesn't match the broadcast shape %s"
                     % (list(self.shape), list(result.shape)), 'SHAPE')
    if not _can_cast(result.dtype, self.dtype):
        raise _error("result type %s can't be cast to the desired output type %s"
                     % (_type_name(result.dtype), _type_name(self.dtype)))
    from gi.repository import GLib
    from .errors import raise_torch_error
    try:
        Gnn.Tensor.copy_(self, result)
    except GLib.Error as e:
        raise_torch_error(e)
    return self


def _records(self, args, kwargs):
    if not Gnn.is_grad_enabled():
        return False
    if self.requires_grad:
        return True
    for v in list(args) + list(kwargs.values()):
        if isinstance(v, Gnn.Tensor) and v.requires_grad:
            return True
        if isinstance(v, (tuple, list)) and any(isinstance(t, Gnn.Tensor) and t.requires_grad for t in v):
            return True
    return False


def _source(self, args, kwargs):
    """What the out-of-place op reads: a clone when autograd records (its backward may save
    the input, which write_back then changes), the tensor itself otherwise."""
    return Gnn.Tensor.clone(self) if _records(self, args, kwargs) else self


def inplace_of(name, compute):
    """Tensor.NAME_ / torch.NAME_: compute (self, *args, **kwargs) out of place, then write it back."""
    def method(self, *args, **kwargs):
        _check_self(name + '_', self)
        return write_back(self, compute(_source(self, args, kwargs), *args, **kwargs))
    method.__name__ = method.__qualname__ = name + '_'
    method.__doc__ = 'Tensor.%s_ / torch.%s_: %s written back into the tensor (in place).' % (name, name, name)
    return method


def _tensor_method(name):
    """The out-of-place Tensor method NAME, looked up when first called (the torch.Tensor rows
    install the methods after the parts load)."""
    cache = []

    def compute(self, *args, **kwargs):
        if not cache:
            from .tensor import Tensor
            cache.append(getattr(Tensor, name))
        return cache[0](self, *args, **kwargs)
    return compute


# the in-place forms whose out-of-place op is the Tensor method of the same name
_SAME_NAME = (
    'abs absolute acos acosh arccos arccosh arcsin arcsinh arctan arctan2 arctanh asin asinh atan '
    'atan2 atanh ceil clip copysign cos cosh deg2rad digamma divide eq ne lt le gt ge greater '
    'greater_equal less less_equal not_equal erf erfc erfinv exp exp2 expm1 fix floor floor_divide '
    'fmod frac gcd lcm heaviside hypot i0 ldexp lgamma log log10 log1p log2 logical_and logical_or '
    'logical_xor logical_not logit multiply mvlgamma nan_to_num neg negative nextafter polygamma pow '
    'rad2deg reciprocal relu remainder round rsqrt sgn sigmoid sign sin sinc sinh square subtract '
    'tan tanh true_divide trunc xlogy tril triu cumsum cumprod bitwise_and bitwise_or bitwise_xor '
    'bitwise_not bitwise_left_shift bitwise_right_shift masked_fill').split()

for _name in _SAME_NAME:
    globals()[_name + '_'] = inplace_of(_name, _tensor_method(_name))
    __all__.append(_name + '_')
del _name


def _clamp(self, min=None, max=None):
    from .functions import clamp
    return clamp(self, min, max)


def _clamp_max(self, max):
    return _clamp(self, None, max)


def _clamp_min(self, min):
    return _clamp(self, min, None)



def clamp_max(input, max):
    """torch.clamp_max: clamp (input, max=max), max a number or a tensor."""
    _check_self('clamp_max', input)
    return _clamp_max(input, max)


def clamp_min(input, min):
    """torch.clamp_min: clamp (input, min=min), min a number or a tensor."""
    _check_self('clamp_min', input)
    return _clamp_min(input, min)


clamp_ = inplace_of('clamp', _clamp)
clamp_max_ = inplace_of('clamp_max', _clamp_max)
clamp_min_ = inplace_of('clamp_min', _clamp_min)
__all__ += ['clamp_max', 'clamp_min', 'clamp_', 'clamp_max_', 'clamp_min_']


def float_power_(self, exponent):
    """Tensor.float_power_: float_power computes in float64, so the tensor must be float64."""
    _check_self('float_power_', self)
    if str(self.dtype) != 'torch.float64':
        raise _error("the base given to float_power_ has dtype %s but the operation's result "
                     "requires dtype Double" % _type_name(self.dtype))
    return write_back(self, _tensor_method('float_power')(_source(self, (exponent,), {}), exponent))


__all__.append('float_power_')


def _install_version():
    """Tensor._version: the version counter, shared with the tensor's views, that every in-place
    op bumps (gnn_tensor_get_version)."""
    from .tensor import Tensor
    Tensor._version = property(Gnn.Tensor.get_version, doc=_install_version.__doc__)
    # Tensor.clamp_ of functions.py wrote clamp back without a clone, so a graph that saved
    # the tensor before clamp_ could not run backward: the generic path replaces it
    Tensor.clamp_ = clamp_


_install_version()
