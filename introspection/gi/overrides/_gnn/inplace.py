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


# ---- the random in-place family: draws from gnn's generator (Gnn.Generator, the default one for
# generator=None), with torch's distributions and argument checks, not torch's streams ----

def _draw_dtype(self):
    return Gnn.Dtype.FLOAT64 if str(self.dtype) == 'torch.float64' else Gnn.Dtype.FLOAT32


def _uniform(self, generator):
    """Uniform [0, 1) draws of self's shape, in float64 for float64 tensors, float32 otherwise."""
    return Gnn.Tensor.new_rand(list(self.shape), generator, _draw_dtype(self), self.get_device())


def _check_floating(name, self):
    _check_self(name, self)
    if not self.is_floating_point():
        raise _error('"%s" not implemented for \'%s\'' % (name, _type_name(self.dtype)))


def _fill_from(self, values):
    """Writes values (computed with no graph) into self: the history gets a zero gradient."""
    return write_back(self, values)


def _no_grad(fn):
    def wrapper(*args, **kwargs):
        previous = Gnn.is_grad_enabled()
        Gnn.set_grad_enabled(False)
        try:
            values = fn(*args, **kwargs)
        finally:
            Gnn.set_grad_enabled(previous)
        return _fill_from(args[0], values)
    wrapper.__name__ = wrapper.__qualname__ = fn.__name__.lstrip('_')
    wrapper.__doc__ = fn.__doc__
    return wrapper


def _take_from(kwargs, value):
    """torch spells uniform_'s and random_'s first argument `from`, a Python keyword."""
    if 'from' in kwargs:
        value = kwargs.pop('from')
    if kwargs:
        raise TypeError('got an unexpected keyword argument %r' % next(iter(kwargs)))
    return value


@_no_grad
def _uniform_(self, from_=0.0, to=1.0, *, generator=None, **kwargs):
    """Tensor.uniform_ (from=0, to=1, *, generator=None): uniform on [from, to)."""
    _check_floating('check_uniform_bounds', self)
    low, high = float(_take_from(kwargs, from_)), float(to)
    if not low <= high:
        raise _error('uniform_ expects to return a [from, to) range, but found from=%g > to=%g'
                     % (low, high), 'INVALID_ARGUMENT')
    return _uniform(self, generator) * (high - low) + low


@_no_grad
def _normal_(self, mean=0.0, std=1.0, *, generator=None):
    """Tensor.normal_ (mean=0, std=1, *, generator=None)."""
    _check_floating('normal_kernel_cpu', self)
    if not float(std) >= 0.0:
        raise _error('normal expects std >= 0.0, but found std %g' % float(std), 'INVALID_ARGUMENT')
    draws = Gnn.Tensor.new_randn(list(self.shape), generator, _draw_dtype(self), self.get_device())
    return draws * float(std) + float(mean)


@_no_grad
def _exponential_(self, lambd=1.0, *, generator=None):
    """Tensor.exponential_ (lambd=1, *, generator=None): density lambd exp (-lambd x)."""
    _check_floating('exponential_cpu', self)
    if not float(lambd) > 0.0:
        raise _error('exponential_ expects lambda > 0.0, but found lambda=%g' % float(lambd),
                     'INVALID_ARGUMENT')
    return (1.0 - _uniform(self, generator)).log() * (-1.0 / float(lambd))


@_no_grad
def _geometric_(self, p, *, generator=None):
    """Tensor.geometric_ (p, *, generator=None): the number of Bernoulli (p) trials up to the
    first success (1, 2, ...)."""
    _check_self('geometric_', self)
    if not 0.0 < float(p) < 1.0:
        raise _error('geometric_ expects p to be in (0, 1), but got p=%g' % float(p), 'INVALID_ARGUMENT')
    u = 1.0 - Gnn.Tensor.new_rand(list(self.shape), generator, Gnn.Dtype.FLOAT64, self.get_device())
    return ((u.log() / _math.log1p(-float(p))).floor() + 1.0).to(self.dtype)


@_no_grad
def _log_normal_(self, mean=1.0, std=2.0, *, generator=None):
    """Tensor.log_normal_ (mean=1, std=2, *, generator=None): exp of a normal (mean, std)."""
    _check_floating('log_normal_cpu', self)
    if not float(std) > 0.0:
        raise _error('log_normal_ expects std > 0.0, but found std=%g' % float(std), 'INVALID_ARGUMENT')
    draws = Gnn.Tensor.new_randn(list(self.shape), generator, _draw_dtype(self), self.get_device())
    return (draws * float(std) + float(mean)).exp()


@_no_grad
def _cauchy_(self, median=0.0, sigma=1.0, *, generator=None):
    """Tensor.cauchy_ (median=0, sigma=1, *, generator=None)."""
    _check_floating('cauchy_cpu', self)
    return ((_uniform(self, generator) - 0.5) * _math.pi).tan() * float(sigma) + float(median)


_RANDOM_TOP = {'float32': 2 ** 24, 'float64': 2 ** 53, 'float16': 2 ** 11, 'bfloat16': 2 ** 8,
               'int64': 2 ** 63 - 1, 'int32': 2 ** 31 - 1, 'int16': 2 ** 15 - 1, 'int8': 2 ** 7 - 1,
               'uint8': 2 ** 8 - 1, 'bool': 1}


@_no_grad
def _random_(self, from_=0, to=None, *, generator=None, **kwargs):
    """Tensor.random_ (from=0, to=None, *, generator=None): integers uniform on [from, to - 1];
    random_ (to) on [0, to - 1]; random_ () on [0, 2^mantissa] for floating tensors and on
    [0, the dtype's maximum] for integral ones."""
    _check_self('random_', self)
    low = _take_from(kwargs, from_)
    high = _RANDOM_TOP[str(self.dtype).split('.')[-1]] + 1 if to is None else to
    low, high = int(low), int(high)
    if not low < high:
        raise _error("random_ expects 'from' to be less than 'to', but got from=%d >= to=%d"
                     % (low, high), 'INVALID_ARGUMENT')
    high = min(high, 2 ** 63 - 1)
    draws = Gnn.Tensor.new_randint(low, high, list(self.shape), generator, self.get_device())
    return draws.to(self.dtype)


def _random_dispatch(self, *args, generator=None, **kwargs):
    # random_ (to) alone: [0, to)
    if len(args) == 1 and 'to' not in kwargs and 'from' not in kwargs:
        return _random_(self, 0, args[0], generator=generator)
    return _random_(self, *args, generator=generator, **kwargs)


def _bernoulli_values(self, p, generator):
    """Draws of self's shape that are 1 with probability p (a number or a tensor broadcast)."""
    if isinstance(p, Gnn.Tensor):
        if p.numel() and (float(p.min()) < 0.0 or float(p.max()) > 1.0):
            raise _error('Expected p_in >= 0 && p_in <= 1 to be true, but got false.', 'INVALID_ARGUMENT')
        u = Gnn.Tensor.new_rand(list(self.shape), generator,
                                Gnn.Dtype.FLOAT64 if str(p.dtype) == 'torch.float64' else Gnn.Dtype.FLOAT32,
                                self.get_device())
        return u < p
    p = float(p)
    if not 0.0 <= p <= 1.0:
        raise _error('bernoulli_ expects p to be in [0, 1], but got p=%g' % p, 'INVALID_ARGUMENT')
    return _uniform(self, generator) < p


@_no_grad
def _bernoulli_(self, p=0.5, *, generator=None):
    """Tensor.bernoulli_ (p=0.5, *, generator=None): 1 with probability p (a number, or a
    tensor broadcast to self's shape), else 0, in self's dtype."""
    _check_self('bernoulli_', self)
    return _bernoulli_values(self, p, generator)


uniform_ = _uniform_
normal_ = _normal_
exponential_ = _exponential_
geometric_ = _geometric_
log_normal_ = _log_normal_
cauchy_ = _cauchy_
bernoulli_ = _bernoulli_
random_ = _random_dispatch
random_.__name__ = random_.__qualname__ = 'random_'
random_.__doc__ = _random_.__doc__
__all__ += ['uniform_', 'normal_', 'exponential_', 'geometric_', 'log_normal_', 'cauchy_',
            'bernoulli_', 'random_']


def bernoulli(input, p=None, *, generator=None, out=None):
    """torch.bernoulli (input, *, generator=None) / Tensor.bernoulli: 1 with probability input
    (in [0, 1]), in input's dtype; bernoulli (input, p) draws with the number p instead."""
    _check_self('bernoulli', input)
    if out is not None:
        raise TypeError('bernoulli(): out= is not supported by gnn (its ops return new tensors)')
    previous = Gnn.is_grad_enabled()
    Gnn.set_grad_enabled(False)
    try:
        draws = _bernoulli_values(input, input if p is None else p, generator)
        return draws.to(input.dtype)
    finally:
        Gnn.set_grad_enabled(previous)


def normal(mean, std=1.0, size=None, *, generator=None, out=None, dtype=None, layout=None,
           device=None, requires_grad=False):
    """torch.normal, its four forms: (mean tensor, std tensor), (mean tensor, std number),
    (mean number, std tensor), each of the broadcast shape; (mean number, std number, size)."""
    from .functions import get_default_dtype, as_dtype, _device
    if out is not None:
        raise TypeError('normal(): out= is not supported by gnn (its ops return new tensors)')
    tensors = [v for v in (mean, std) if isinstance(v, Gnn.Tensor)]
    previous = Gnn.is_grad_enabled()
    Gnn.set_grad_enabled(False)
    try:
        if not tensors:
            if size is None:
                raise TypeError('normal() received an invalid combination of arguments: with a number '
                                'mean and std, give size')
            if not float(std) >= 0.0:
                raise _error('normal expects std >= 0.0, but found std %g' % float(std), 'INVALID_ARGUMENT')
            dt = as_dtype(dtype) if dtype is not None else as_dtype(get_default_dtype())
            shape = list(size) if isinstance(size, (tuple, list)) else [int(size)]
            draws = Gnn.Tensor.new_randn(shape, generator, dt, _device(device))
            result = draws * float(std) + float(mean)
            if requires_grad:
                result.requires_grad_(True)
            return result
        if size is not None:
            raise TypeError('normal(): size is given only with a number mean and std')
        like = tensors[0]
        if not like.is_floating_point():
            raise _error('"normal_kernel_cpu" not implemented for \'%s\'' % _type_name(like.dtype))
        if isinstance(std, Gnn.Tensor):
            if std.numel() and float(std.min()) < 0.0:
                raise _error('normal expects all elements of std >= 0.0', 'INVALID_ARGUMENT')
        elif not float(std) >= 0.0:
            raise _error('normal expects std >= 0.0, but found std %g' % float(std), 'INVALID_ARGUMENT')
        m = mean.detach() if isinstance(mean, Gnn.Tensor) else mean
        s = std.detach() if isinstance(std, Gnn.Tensor) else std
        shape = (m * 0 + s * 0).shape
        draws = Gnn.Tensor.new_randn(list(shape), generator, _draw_dtype(like), like.get_device())
        return (draws * s + m).to(like.dtype)
    finally:
        Gnn.set_grad_enabled(previous)


__all__ += ['bernoulli', 'normal']


def _install_version():
    """Tensor._version: the version counter, shared with the tensor's views, that every in-place
    op bumps (gnn_tensor_get_version)."""
    from .tensor import Tensor
    Tensor._version = property(Gnn.Tensor.get_version, doc=_install_version.__doc__)
    # Tensor.clamp_ of functions.py wrote clamp back without a clone, so a graph that saved
    # the tensor before clamp_ could not run backward: the generic path replaces it
    Tensor.clamp_ = clamp_


_install_version()
