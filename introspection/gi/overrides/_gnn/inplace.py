# torch's in-place forms (Tensor.X_ and torch.X_), built on one mechanism: the out-of-place op
# computes the result, which gnn_tensor_write_back_ (gnn-ops-binary.c) checks (the shape,
# torch's casting rule) and writes into the tensor with copy_. copy_ is autograd-aware: it
# bumps the version counter, refuses a leaf that requires grad, and rebases the history (on a
# view, the base's, as PyTorch's CopySlices), so gradients flow through the in-place result
# and a saved tensor that was changed fails at backward. When autograd records, the op reads
# a clone of the tensor, so that its backward never needs the overwritten values.
# The random family (uniform_, normal_, ...) and the indexed writes (index_add, index_put, put,
# renorm, fill_diagonal_, composed from differentiable ops) reach the same write-back.
#
# SPDX-License-Identifier: LGPL-2.1-or-later
import math as _math

from gi.repository import GLib

from .base import Gnn
from .errors import as_python_error, raise_torch_error

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
    return as_python_error(GLib.Error(message, 'gnn-error-quark', int(getattr(Gnn.Error, code))))


def _check_self(name, self):
    if not isinstance(self, Gnn.Tensor):
        raise TypeError('%s(): argument \'input\' must be Tensor, not %s' % (name, type(self).__name__))


def write_back(self, result):
    """Writes @result (the out-of-place result) into @self as torch's in-place ops do
    (gnn_tensor_write_back_: the shapes must agree and result's dtype must cast to self's),
    and returns @self."""
    try:
        Gnn.Tensor.write_back_(self, result)
    except GLib.Error as e:
        raise_torch_error(e)
    return self


def _records(self, args, kwargs):
    if not Gnn.is_grad_enabled():
        return False
    if Gnn.Tensor.get_requires_grad(self):
        return True
    for v in args + tuple(kwargs.values()) if kwargs else args:
        if isinstance(v, Gnn.Tensor):
            if Gnn.Tensor.get_requires_grad(v):
                return True
        elif isinstance(v, (tuple, list)) and any(isinstance(t, Gnn.Tensor) and t.requires_grad for t in v):
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


# ---- indexed writes: index_add, index_reduce, index_put, put, renorm, fill_diagonal_, each
# composed from differentiable ops (scatter_add, scatter_reduce, index_copy, norms) ----

def _dim_of(name, input, dim):
    n = max(input.dim(), 1)
    if not -n <= int(dim) < n:
        raise _error('%s(): dimension out of range (expected to be in range of [%d, %d], but got %d)'
                     % (name, -n, n - 1, int(dim)), 'INDEX')
    return int(dim) % n


def _index_along(name, input, dim, index, source):
    """index (1-D) expanded to source's shape along dim, as scatter_add and scatter_reduce take it."""
    _check_self(name, input)
    if not isinstance(index, Gnn.Tensor) or index.is_floating_point() or str(index.dtype) == 'torch.bool':
        raise _error('%s(): Expected dtype int64 for index' % name)
    if index.dim() > 1:
        raise _error('%s(): Index is supposed to be a vector' % name, 'SHAPE')
    dim = _dim_of(name, input, dim)
    index = Gnn.Tensor.to_dtype(index.reshape(-1), Gnn.Dtype.INT64)
    if input.dim() == 0:
        return 0, index, source.reshape(-1), input.reshape(1)
    want = list(input.shape)
    want[dim] = index.numel()
    if list(source.shape) != want and not (source.dim() == 0 and index.numel() == 1 and input.dim() == 1):
        raise _error('%s(): source of shape %s does not fit index of %d entries along dim %d of input %s'
                     % (name, list(source.shape), index.numel(), dim, list(input.shape)), 'SHAPE')
    source = source.reshape(want)
    view = [1] * input.dim()
    view[dim] = -1
    return dim, index.reshape(view).expand(want).contiguous(), source, input


def index_add(input, dim, index, source, *, alpha=1, out=None):
    """torch.index_add / Tensor.index_add: input with alpha * source's slices added at index
    along dim (repeated indices add up)."""
    if out is not None:
        raise TypeError('index_add(): out= is not supported by gnn (its ops return new tensors)')
    from .functions import scatter_add
    d, idx, src, base = _index_along('index_add', input, dim, index, source)
    if alpha != 1:
        src = src * alpha
    return scatter_add(base, d, idx, src).reshape(list(input.shape))


_REDUCTIONS = ('prod', 'mean', 'amax', 'amin')


def index_reduce(input, dim, index, source, reduce, *, include_self=True, out=None):
    """torch.index_reduce / Tensor.index_reduce: the slices of source at index along dim reduced
    ('prod', 'mean', 'amax', 'amin') into input's, with input's values when include_self."""
    if out is not None:
        raise TypeError('index_reduce(): out= is not supported by gnn (its ops return new tensors)')
    if reduce not in _REDUCTIONS:
        raise _error("index_reduce(): Expected reduce to be one of prod, mean, amax or amin but got %s."
                     % reduce, 'INVALID_ARGUMENT')
    from .functions import scatter_reduce
    d, idx, src, base = _index_along('index_reduce', input, dim, index, source)
    return scatter_reduce(base, d, idx, src, reduce, include_self=include_self).reshape(list(input.shape))


def _linear_index(name, input, indices):
    """The positions that a tuple of index tensors (int64 or bool masks) picks in the leading
    dims of input, as one int64 tensor of the broadcast index shape, and the number of dims
    indexed."""
    from .functions import nonzero
    from .compose import broadcast_tensors
    if isinstance(indices, Gnn.Tensor):
        indices = (indices,)
    parts = []
    for t in indices:
        if not isinstance(t, Gnn.Tensor):
            raise TypeError('%s(): indices must be a tuple of tensors, not %s' % (name, type(t).__name__))
        if str(t.dtype) in ('torch.bool', 'torch.uint8'):
            parts.extend(nonzero(t, as_tuple=True))
        elif t.is_floating_point():
            raise _error('tensors used as indices must be long, int, byte or bool tensors', 'INDEX')
        else:
            parts.append(Gnn.Tensor.to_dtype(t, Gnn.Dtype.INT64))
    k = len(parts)
    if k > input.dim():
        raise _error('too many indices for tensor of dimension %d (got %d)' % (input.dim(), k), 'INDEX')
    parts = list(broadcast_tensors(*parts)) if k > 1 else parts
    sizes = list(input.shape)[:k]
    lin = None
    for j, (t, n) in enumerate(zip(parts, sizes)):
        if t.numel() and (int(t.max()) >= n or int(t.min()) < -n):
            bad = int(t.max()) if int(t.max()) >= n else int(t.min())
            raise _error('index %d is out of bounds for dimension %d with size %d' % (bad, j, n), 'INDEX')
        t = t + Gnn.Tensor.to_dtype(t < 0, Gnn.Dtype.INT64) * n
        lin = t if lin is None else lin * n + t
    return lin, k


def index_put(input, indices, values, accumulate=False):
    """torch.index_put / Tensor.index_put: input with values (broadcast) written at the places
    a tuple of index tensors picks (input[indices] = values), added there with accumulate."""
    _check_self('index_put', input)
    if not isinstance(values, Gnn.Tensor):
        raise TypeError('index_put(): argument \'values\' must be Tensor, not %s' % type(values).__name__)
    lin, k = _linear_index('index_put', input, indices)
    shape = list(input.shape)
    rest = shape[k:]
    lead = 1
    for n in shape[:k]:
        lead *= n
    flat = input.reshape([lead] + rest)
    picked = list(lin.shape) + rest
    vals = values.to(input.dtype).expand(picked).reshape([lin.numel()] + rest)
    pos = lin.reshape(-1)
    if accumulate:
        result = index_add(flat, 0, pos, vals)
    else:
        from .functions import index_copy
        result = index_copy(flat, 0, pos, vals)
    return result.reshape(shape)


def put(input, index, source, accumulate=False):
    """torch.put / Tensor.put: input, seen as 1-D, with source's values at index (negative
    indices count from the end), added there with accumulate."""
    _check_self('put', input)
    if index.numel() != source.numel():
        raise _error('put(): Expected source and index to have the same number of elements, but got '
                     'source.numel() = %d, index.numel() = %d' % (source.numel(), index.numel()), 'SHAPE')
    flat = input.reshape(-1)
    return index_put(flat, (index.reshape(-1),), source.reshape(-1), accumulate).reshape(list(input.shape))


def renorm(input, p, dim, maxnorm, *, out=None):
    """torch.renorm / Tensor.renorm: each slice along dim whose p-norm exceeds maxnorm scaled
    to norm maxnorm (by maxnorm / (norm + 1e-7), as torch)."""
    from .functions import linalg_vector_norm, where
    _check_self('renorm', input)
    if out is not None:
        raise TypeError('renorm(): out= is not supported by gnn (its ops return new tensors)')
    if not input.is_floating_point():
        raise _error('"renorm" not implemented for \'%s\'' % _type_name(input.dtype))
    if not float(p) > 0:
        raise _error('renorm: non-positive-norm not supported', 'INVALID_ARGUMENT')
    if not float(maxnorm) >= 0:
        raise _error('renorm: expected maxnorm to be >= 0 but got %g' % float(maxnorm), 'INVALID_ARGUMENT')
    if input.dim() <= 1:
        raise _error('renorm: input needs at least 2 dimensions, got %d dimensions' % input.dim(), 'SHAPE')
    d = _dim_of('renorm', input, dim)
    others = tuple(i for i in range(input.dim()) if i != d)
    norms = linalg_vector_norm(input, float(p), dim=others, keepdim=True)
    factor = where(norms > float(maxnorm), float(maxnorm) / (norms + 1e-7), 1.0)
    return input * factor.to(input.dtype)


def _diagonal_mask(self, wrap):
    import numpy as np
    shape = list(self.shape)
    if len(shape) < 2:
        raise _error('dimensions must larger than 1', 'SHAPE')
    if len(shape) > 2 and any(n != shape[0] for n in shape):
        raise _error('all dimensions of input must be of equal length', 'SHAPE')
    numel = int(np.prod(shape))
    mask = np.zeros(numel, bool)
    if len(shape) == 2:
        rows, cols = shape
        step = cols + 1
        end = numel if wrap and rows > cols else min(rows, cols) * cols
        mask[0:end:step] = True
    else:
        n = shape[0]
        step = sum(n ** i for i in range(len(shape)))
        mask[0:n * step:step] = True
    from .tensor import tensor
    return tensor(mask.reshape(shape), device=self.get_device())


def fill_diagonal_(self, fill_value, wrap=False):
    """Tensor.fill_diagonal_ (fill_value, wrap=False): the main diagonal (of a matrix, or of a
    tensor whose dims are all equal) set to fill_value; with wrap, a tall matrix's diagonal
    starts again after each square block and a row."""
    _check_self('fill_diagonal_', self)
    return globals()['masked_fill_'](self, _diagonal_mask(self, wrap), fill_value)


index_add_ = inplace_of('index_add', index_add)
index_reduce_ = inplace_of('index_reduce', index_reduce)
index_put_ = inplace_of('index_put', index_put)
put_ = inplace_of('put', put)
renorm_ = inplace_of('renorm', renorm)
__all__ += ['index_add', 'index_add_', 'index_reduce', 'index_reduce_', 'index_put', 'index_put_',
            'put', 'put_', 'renorm', 'renorm_', 'fill_diagonal_']


def poisson(input, generator=None):
    """torch.poisson (input, generator=None): a Poisson draw for each rate in input (floating,
    non-negative), in input's dtype, without gradient. Each draw inverts the Poisson CDF at
    one uniform number from gnn's generator, the CDF summed in log space so that large rates
    do not underflow."""
    import numpy as np
    from .tensor import tensor
    _check_floating('poisson_cpu', input)
    rate = np.asarray(Gnn.Tensor.to_dtype(input.detach().contiguous(), Gnn.Dtype.FLOAT64)).ravel()
    if rate.size and not (rate >= 0).all():
        raise _error('invalid Poisson rate, expected rate to be non-negative', 'INVALID_ARGUMENT')
    u = np.asarray(Gnn.Tensor.new_rand([rate.size], generator, Gnn.Dtype.FLOAT64, None)).ravel()
    k = np.zeros(rate.size)
    if rate.size:
        with np.errstate(divide='ignore'):
            log_rate = np.log(rate)
        log_p = -rate                        # log P(K = 0)
        cdf = np.exp(log_p)
        live = np.nonzero(u >= cdf)[0]       # the draws still above the CDF
        log_p, cdf, log_rate, u = log_p[live], cdf[live], log_rate[live], u[live]
        top = float(rate.max())
        for j in range(1, int(top + 12 * _math.sqrt(top) + 30)):
            if live.size == 0:
                break
            log_p = log_p + log_rate - _math.log(j)
            cdf = cdf + np.exp(log_p)
            k[live] = j
            keep = u >= cdf
            if not keep.all():
                live, log_p, cdf, log_rate, u = live[keep], log_p[keep], cdf[keep], log_rate[keep], u[keep]
    out = tensor(k.reshape(list(input.shape)), device=input.get_device())
    return Gnn.Tensor.to_dtype(out, Gnn.Tensor.get_dtype(input))


__all__.append('poisson')


def _install_version():
    """Tensor._version: the version counter, shared with the tensor's views, that every in-place
    op bumps (gnn_tensor_get_version)."""
    from .tensor import Tensor
    Tensor._version = property(Gnn.Tensor.get_version, doc=_install_version.__doc__)
    # Tensor.clamp_ of functions.py wrote clamp back without a clone, so a graph that saved
    # the tensor before clamp_ could not run backward: the generic path replaces it
    Tensor.clamp_ = clamp_


_install_version()
