# torch-level functions and factories (torch.zeros, torch.sum, ...) with torch's signatures
#
# Each op here takes the tensor first (torch.sum (x, 1)) and is also the method of that name
# (x.sum (1)): the rows 'torch.sum' and 'torch.Tensor.sum' of names.py both name Gnn.sum, and
# names.install_tensor_methods makes it the method. Every op calls the C op of GnnTensor; ops
# composed here from C ops say so (their gradients follow from the parts). Arguments gnn
# refuses are a TypeError or ValueError as in torch; what C refuses (a shape, a dtype) is the
# C op's GLib.Error, a RuntimeError.
#
# SPDX-License-Identifier: LGPL-2.1-or-later
import builtins as _builtins
import collections as _collections
import numbers as _numbers

from .base import Gnn, override as _override
from gi.repository import GLib as _GLib

from .errors import raise_torch_error, raising_torch_errors, translating_errors
from .tensor import (TENSOR_TYPES as _TENSOR_TYPES, Tensor, as_dtype, dtype as _dtype_class,
                     get_default_dtype, tensor, _INTEGRAL, _is_scalar)

__all__ = []


def _export(fn):
    __all__.append(fn.__name__)
    return fn


def _check_tensor(name, value, what='input'):
    if not isinstance(value, Gnn.Tensor):
        raise TypeError('%s(): argument \'%s\' must be Tensor, not %s' % (name, what, type(value).__name__))


def _no_out(name, out):
    if out is not None:
        raise TypeError('%s(): out= is not supported by gnn (its ops return new tensors)' % name)


def _is_int(value):
    """An int that is not a bool, a dtype or another enum (dtypes are ints underneath)."""
    from gi.repository import GObject
    return (isinstance(value, _numbers.Integral)
            and not isinstance(value, (bool, _dtype_class, GObject.GEnum)))


def _dim_list(dim):
    """None -> None; an int -> [int]; a tuple or list of ints -> a list."""
    if dim is None:
        return None
    if _is_int(dim):
        return [int(dim)]
    if isinstance(dim, (tuple, list)):
        for d in dim:
            if not _is_int(d):
                raise TypeError('dim must be an int or a tuple of ints, got an element of type %s'
                                % type(d).__name__)
        return [int(d) for d in dim]
    raise TypeError('dim must be None, an int or a tuple of ints, not %s' % type(dim).__name__)


def _with_dtype(input, dtype):
    return input if dtype is None else Gnn.Tensor.to_dtype(input, as_dtype(dtype))


def _keep_all(result, input, keepdim):
    """A reduction over every dim with keepdim: the result reshaped to [1] * ndim."""
    return Gnn.Tensor.reshape(result, [1] * input.get_ndim()) if keepdim else result


# ---- reductions ----
# (each exported op is wrapped by raising_torch_errors at the end of the file)

def _reduce(name, whole, over_dims, input, dim, keepdim, dtype, axis, out):
    """sum and mean: the C op over every element (dim None) or over the dims."""
    _check_tensor(name, input)
    _no_out(name, out)
    dims = _dim_list(axis if dim is None else dim)
    x = _with_dtype(input, dtype)
    if dims is None:
        return _keep_all(whole(x), x, keepdim)
    return over_dims(x, dims, bool(keepdim))


@_export
def sum(input, dim=None, keepdim=False, *, dtype=None, axis=None, out=None):
    """torch.sum / Tensor.sum: over every element (dim None) or over dim (an int or a tuple);
    bool and integer inputs sum as int64, as in torch. ``axis`` is numpy's spelling of dim."""
    return _reduce('sum', Gnn.Tensor.sum_all, Gnn.Tensor.sum, input, dim, keepdim, dtype, axis, out)


@_export
def mean(input, dim=None, keepdim=False, *, dtype=None, axis=None, out=None):
    """torch.mean / Tensor.mean (floating-point inputs, or a floating dtype=)."""
    return _reduce('mean', Gnn.Tensor.mean_all, Gnn.Tensor.mean, input, dim, keepdim, dtype, axis, out)


def _correction(name, unbiased, correction):
    if correction is not None:
        if unbiased is not None:
            raise TypeError('%s(): give unbiased or correction, not both' % name)
        return float(correction)
    if unbiased is None or isinstance(unbiased, bool):
        return 0.0 if unbiased is False else 1.0
    if isinstance(unbiased, _numbers.Real):
        return float(unbiased)   # gnn's C spelling: var (dims, correction, keepdim)
    raise TypeError('%s(): unbiased must be a bool, not %s' % (name, type(unbiased).__name__))


@_export
def var(input, dim=None, unbiased=None, keepdim=False, *, correction=None, out=None):
    """torch.var / Tensor.var: var(dim, unbiased=True, keepdim=False), var(unbiased) and
    var(dim, correction=c, keepdim=False); a number in unbiased's place is the correction."""
    _check_tensor('var', input)
    _no_out('var', out)
    if isinstance(dim, bool):
        dim, unbiased = None, dim
    c = _correction('var', unbiased, correction)
    dims = _dim_list(dim)
    if dims is None:
        return _keep_all(Gnn.Tensor.var_all(input, c), input, keepdim)
    return Gnn.Tensor.var(input, dims, c, bool(keepdim))


@_export
def std(input, dim=None, unbiased=None, keepdim=False, *, correction=None, out=None):
    """torch.std / Tensor.std: the square root of var with the same arguments."""
    _check_tensor('std', input)
    return Gnn.Tensor.sqrt(var(input, dim, unbiased, keepdim, correction=correction, out=out))


def _return_type(name, fields=('values', 'indices')):
    base = _collections.namedtuple(name, list(fields))

    def __repr__(self):
        return 'torch.return_types.%s(\n%s)' % (name, ',\n'.join('%s=%r' % (f, getattr(self, f)) for f in fields))
    cls = type(name, (base,), {'__slots__': (), '__repr__': __repr__,
                               '__doc__': 'torch.return_types.%s: (%s), a tuple' % (name, ', '.join(fields))})
    cls.__module__ = 'torch.return_types'
    return cls


class return_types:
    """torch.return_types: the named tuples that max and min over a dim, sort and topk return."""
    max = _return_type('max')
    min = _return_type('min')
    sort = _return_type('sort')
    topk = _return_type('topk')
    slogdet = _return_type('slogdet', ('sign', 'logabsdet'))
    linalg_slogdet = _return_type('linalg_slogdet', ('sign', 'logabsdet'))


__all__.append('return_types')


def _max_min(name, input, dim, keepdim, out):
    _check_tensor(name, input)
    _no_out(name, out)
    if isinstance(dim, Gnn.Tensor):
        if keepdim:
            raise TypeError('%s(): keepdim is not an argument of %s(input, other)' % (name, name))
        return (Gnn.Tensor.maximum if name == 'max' else Gnn.Tensor.minimum)(input, dim)
    if dim is None:
        if keepdim:
            raise TypeError('%s(): keepdim needs a dim' % name)
        return (Gnn.Tensor.max_all if name == 'max' else Gnn.Tensor.min_all)(input)
    if not _is_int(dim):
        raise TypeError('%s(): dim must be an int or a Tensor (other), not %s' % (name, type(dim).__name__))
    values, indices = (Gnn.Tensor.max_dim if name == 'max' else Gnn.Tensor.min_dim)(input, int(dim), bool(keepdim))
    return getattr(return_types, name)(values, indices)


@_export
def max(input, dim=None, keepdim=False, *, out=None):
    """torch.max: max(input) a 0-d tensor, max(input, dim, keepdim=False) the named tuple
    (values, indices), max(input, other) the elementwise maximum."""
    return _max_min('max', input, dim, keepdim, out)


@_export
def min(input, dim=None, keepdim=False, *, out=None):
    """torch.min: as max."""
    return _max_min('min', input, dim, keepdim, out)


def _amax_amin(name, input, dim, keepdim):
    """The C op over dim (None or () is every dim); where several elements tie for the
    extreme, the gradient is shared evenly among them, as torch's."""
    _check_tensor(name, input)
    dims = _dim_list(dim) or []
    return (Gnn.Tensor.amax if name == 'amax' else Gnn.Tensor.amin)(input, dims, bool(keepdim))


@_export
def amax(input, dim=(), keepdim=False, *, out=None):
    """torch.amax: the maximum over dim (an int or a tuple; () is every dim)."""
    _no_out('amax', out)
    return _amax_amin('amax', input, dim, keepdim)


@_export
def amin(input, dim=(), keepdim=False, *, out=None):
    """torch.amin: the minimum over dim (an int or a tuple; () is every dim)."""
    _no_out('amin', out)
    return _amax_amin('amin', input, dim, keepdim)


@_export
def argmax(input, dim=None, keepdim=False):
    """torch.argmax: the index of the maximum over dim, or into the flattened tensor."""
    _check_tensor('argmax', input)
    if dim is None:
        return _keep_all(Gnn.Tensor.argmax_all(input), input, keepdim)
    return Gnn.Tensor.argmax(input, int(dim), bool(keepdim))


@_export
def argmin(input, dim=None, keepdim=False):
    """torch.argmin: the index of the minimum over dim, or into the flattened tensor."""
    _check_tensor('argmin', input)
    if dim is None:
        flat = Gnn.Tensor.argmin(Gnn.Tensor.reshape(input, [-1]), 0, False)
        return _keep_all(flat, input, keepdim)
    return Gnn.Tensor.argmin(input, int(dim), bool(keepdim))


def _all_any(name, c_op, input, dim, keepdim):
    _check_tensor(name, input)
    return c_op(input, _dim_list(dim) or [], bool(keepdim))


@_export
def all(input, dim=None, keepdim=False):
    """torch.all / Tensor.all: whether every element (over dim) is non-zero; bool, uint8 for
    a uint8 input as in torch."""
    return _all_any('all', Gnn.Tensor.all, input, dim, keepdim)


@_export
def any(input, dim=None, keepdim=False):
    """torch.any / Tensor.any: whether some element (over dim) is non-zero."""
    return _all_any('any', Gnn.Tensor.any, input, dim, keepdim)


@_export
def logsumexp(input, dim, keepdim=False, *, out=None):
    """torch.logsumexp / Tensor.logsumexp: log (sum (exp (x))) over dim (an int or a tuple),
    computed stably in C (integers as float32)."""
    _check_tensor('logsumexp', input)
    _no_out('logsumexp', out)
    return Gnn.Tensor.logsumexp(input, _dim_list(dim), bool(keepdim))


@_export
def prod(input, dim=None, keepdim=False, *, dtype=None):
    """torch.prod / Tensor.prod: the product of every element, or along dim (an int); bool and
    integers multiply as int64; dtype= converts the input first."""
    _check_tensor('prod', input)
    x = _with_dtype(input, dtype)
    if dim is None:
        return Gnn.Tensor.prod_all(x)
    if not _is_int(dim):
        raise TypeError("prod(): argument 'dim' must be int, not %s" % type(dim).__name__)
    return Gnn.Tensor.prod(x, int(dim), bool(keepdim))


@_export
def count_nonzero(input, dim=None):
    """torch.count_nonzero / Tensor.count_nonzero over dim (an int, a tuple, or None: all)."""
    _check_tensor('count_nonzero', input)
    return Gnn.Tensor.count_nonzero(input, _dim_list(dim) or [])


def _nan_reduce(name, c_op, input, dim, keepdim, dtype, out):
    _check_tensor(name, input)
    _no_out(name, out)
    return c_op(_with_dtype(input, dtype), _dim_list(dim) or [], bool(keepdim))


@_export
def nansum(input, dim=None, keepdim=False, *, dtype=None, out=None):
    """torch.nansum / Tensor.nansum: the sum counting NaN as zero."""
    return _nan_reduce('nansum', Gnn.Tensor.nansum, input, dim, keepdim, dtype, out)


@_export
def nanmean(input, dim=None, keepdim=False, *, dtype=None, out=None):
    """torch.nanmean / Tensor.nanmean: the mean of the elements that are not NaN."""
    return _nan_reduce('nanmean', Gnn.Tensor.nanmean, input, dim, keepdim, dtype, out)


def _stat_mean(name, c_op, input, dim, unbiased, keepdim, correction):
    _check_tensor(name, input)
    if isinstance(dim, bool):
        dim, unbiased = None, dim
    return tuple(c_op(input, _dim_list(dim) or [], _correction(name, unbiased, correction), bool(keepdim)))


@_export
def var_mean(input, dim=None, unbiased=None, keepdim=False, *, correction=None):
    """torch.var_mean: (var, mean) over dim, with var's unbiased / correction arguments."""
    return _stat_mean('var_mean', Gnn.Tensor.var_mean, input, dim, unbiased, keepdim, correction)


@_export
def std_mean(input, dim=None, unbiased=None, keepdim=False, *, correction=None):
    """torch.std_mean: (std, mean) over dim, with std's unbiased / correction arguments."""
    return _stat_mean('std_mean', Gnn.Tensor.std_mean, input, dim, unbiased, keepdim, correction)


@_export
def nan_to_num(input, nan=0.0, posinf=None, neginf=None, *, out=None):
    """torch.nan_to_num / Tensor.nan_to_num: NaN, +inf and -inf replaced; posinf and neginf
    None are the dtype's largest and lowest finite values."""
    _check_tensor('nan_to_num', input)
    _no_out('nan_to_num', out)
    return Gnn.Tensor.nan_to_num(input, float(nan), float('nan') if posinf is None else float(posinf),
                                 float('nan') if neginf is None else float(neginf))


@_export
def isclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False):
    """torch.isclose / Tensor.isclose: where |input - other| <= atol + rtol * |other| (or the
    two are equal), as a bool tensor; the dtypes must agree."""
    _check_tensor('isclose', input)
    _check_tensor('isclose', other, 'other')
    return Gnn.Tensor.isclose(input, other, float(rtol), float(atol), bool(equal_nan))


@_export
def allclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False):
    """torch.allclose / Tensor.allclose: whether isclose holds everywhere (a Python bool)."""
    _check_tensor('allclose', input)
    _check_tensor('allclose', other, 'other')
    return Gnn.Tensor.allclose(input, other, float(rtol), float(atol), bool(equal_nan))


@_export
def equal(input, other):
    """torch.equal / Tensor.equal: the same shape and the same elements (a Python bool)."""
    _check_tensor('equal', input)
    _check_tensor('equal', other, 'other')
    return Gnn.Tensor.equal(input, other)


def _softmax(name, c_op, input, dim, dtype):
    _check_tensor(name, input)
    if dim is None:
        raise TypeError('%s(): dim is required (torch\'s implicit dim is deprecated)' % name)
    return c_op(_with_dtype(input, dtype), int(dim))


@_export
def softmax(input, dim, dtype=None):
    """torch.softmax / Tensor.softmax over dim; dtype= converts the input first."""
    return _softmax('softmax', Gnn.Tensor.softmax, input, dim, dtype)


@_export
def log_softmax(input, dim, dtype=None):
    """torch.log_softmax / Tensor.log_softmax over dim; dtype= converts the input first."""
    return _softmax('log_softmax', Gnn.Tensor.log_softmax, input, dim, dtype)


def _scan(name, c_op, input, dim, dtype, out):
    _check_tensor(name, input)
    _no_out(name, out)
    if not _is_int(dim):
        raise TypeError('%s(): argument \'dim\' must be int, not %s' % (name, type(dim).__name__))
    return c_op(_with_dtype(input, dtype), int(dim))


@_export
def cumsum(input, dim, *, dtype=None, out=None):
    """torch.cumsum / Tensor.cumsum along dim (bool and integers sum as int64); dtype=
    converts the input first, as torch does."""
    return _scan('cumsum', Gnn.Tensor.cumsum, input, dim, dtype, out)


@_export
def cumprod(input, dim, *, dtype=None, out=None):
    """torch.cumprod / Tensor.cumprod along dim, dtypes as cumsum; its gradient holds with
    zeros in the input."""
    return _scan('cumprod', Gnn.Tensor.cumprod, input, dim, dtype, out)


@_export
def logcumsumexp(input, dim, *, out=None):
    """torch.logcumsumexp / Tensor.logcumsumexp along dim (floating-point inputs)."""
    return _scan('logcumsumexp', Gnn.Tensor.logcumsumexp, input, dim, None, out)


def _int_arg(name, what, value):
    if not _is_int(value):
        raise TypeError('%s(): argument \'%s\' must be int, not %s' % (name, what, type(value).__name__))
    return int(value)


@_export
def sort(input, dim=-1, descending=False, *, stable=False, out=None):
    """torch.sort / Tensor.sort: the named tuple (values, indices); the sort is always stable
    and NaN sorts as the largest value."""
    _check_tensor('sort', input)
    _no_out('sort', out)
    values, indices = Gnn.Tensor.sort(input, _int_arg('sort', 'dim', dim), bool(descending), bool(stable))
    return return_types.sort(values, indices)


@_export
def argsort(input, dim=-1, descending=False, *, stable=False):
    """torch.argsort / Tensor.argsort: the int64 positions that sort input along dim."""
    _check_tensor('argsort', input)
    return Gnn.Tensor.argsort(input, _int_arg('argsort', 'dim', dim), bool(descending), bool(stable))


@_export
def msort(input, *, out=None):
    """torch.msort / Tensor.msort: input sorted along dim 0, the values of sort (input, 0)."""
    _check_tensor('msort', input)
    _no_out('msort', out)
    return Gnn.Tensor.sort(input, 0, False, False)[0]


@_export
def topk(input, k, dim=-1, largest=True, sorted=True, *, out=None):
    """torch.topk / Tensor.topk: the named tuple (values, indices) of the k largest (or
    smallest) values along dim, always in sorted order."""
    _check_tensor('topk', input)
    _no_out('topk', out)
    values, indices = Gnn.Tensor.topk(input, _int_arg('topk', 'k', k), _int_arg('topk', 'dim', dim),
                                      bool(largest), bool(sorted))
    return return_types.topk(values, indices)


# ---- sampling ----

@_export
def multinomial(input, num_samples, replacement=False, *, generator=None, out=None):
    """torch.multinomial / Tensor.multinomial: num_samples int64 categories drawn from each
    row of the weights input (1-d or 2-d); the draws come from gnn's generator (the default
    one for None), so they are not torch's numbers, only its distribution."""
    _check_tensor('multinomial', input)
    _no_out('multinomial', out)
    return Gnn.Tensor.multinomial(input, _int_arg('multinomial', 'num_samples', num_samples),
                                  bool(replacement), generator)


# ---- norms and distances (gnn-ops-norms.c) ----

_INF = float('inf')


_FLOAT_RANK = {Gnn.Dtype.FLOAT16: 0, Gnn.Dtype.BFLOAT16: 0, Gnn.Dtype.FLOAT32: 1, Gnn.Dtype.FLOAT64: 2}


def _norm_input(name, x, dtype):
    """x converted to dtype= (None: x itself), which may widen a floating dtype only, as torch."""
    if dtype is None:
        return x
    want = as_dtype(dtype)
    have = x.get_dtype()
    if have in _FLOAT_RANK and _FLOAT_RANK.get(want, -1) < _FLOAT_RANK[have]:
        raise RuntimeError('%s: the dtype of the input (%s) should be convertible without narrowing to the '
                           'specified dtype (%s)' % (name, Gnn.dtype_get_name(have), Gnn.dtype_get_name(want)))
    return Gnn.Tensor.to_dtype(x, want)


def _norm_dims(dim):
    dims = _dim_list(dim)
    return [] if dims is None else dims


@_export
def linalg_vector_norm(x, ord=2, dim=None, keepdim=False, *, dtype=None, out=None):
    """torch.linalg.vector_norm: any order (inf, -inf, 0, any number) over dim (None: every
    element; an int or a tuple); dtype= converts the input first."""
    _check_tensor('linalg.vector_norm', x, 'x')
    _no_out('linalg.vector_norm', out)
    return Gnn.linalg_vector_norm(_norm_input('linalg.vector_norm', x, dtype), float(ord), _norm_dims(dim),
                                  bool(keepdim))


@_export
def linalg_matrix_norm(A, ord='fro', dim=(-2, -1), keepdim=False, *, dtype=None, out=None):
    """torch.linalg.matrix_norm: 'fro', 'nuc', inf, -inf, 1, -1, 2, -2 over the two dims (2, -2
    and 'nuc' from the singular values, linalg.svdvals)."""
    _check_tensor('linalg.matrix_norm', A, 'A')
    _no_out('linalg.matrix_norm', out)
    dims = _dim_list(dim)
    if dims is None or len(dims) != 2:
        raise RuntimeError('linalg.matrix_norm: dim must be a 2-tuple. Got %r' % (dim,))
    A = _norm_input('linalg.matrix_norm', A, dtype)
    if isinstance(ord, str):
        return Gnn.linalg_matrix_norm_str(A, ord, dims[0], dims[1], bool(keepdim))
    return Gnn.linalg_matrix_norm(A, float(ord), dims[0], dims[1], bool(keepdim))


@_export
def linalg_norm(A, ord=None, dim=None, keepdim=False, *, dtype=None, out=None):
    """torch.linalg.norm: with ord None the 2-norm of the flattened input (dim None) or over
    dim; otherwise a vector norm over one dim (or of a 1-d input) and a matrix norm over two
    dims (or of a 2-d input)."""
    _check_tensor('linalg.norm', A, 'A')
    _no_out('linalg.norm', out)
    dims = _dim_list(dim)
    if ord is None:
        if dims is not None and len(dims) == 2:
            return linalg_matrix_norm(A, 'fro', dims, keepdim, dtype=dtype)
        return linalg_vector_norm(A, 2, dims, keepdim, dtype=dtype)
    if dims is None:
        if A.get_ndim() not in (1, 2):
            raise RuntimeError('linalg.norm: If dim is not specified but ord is, the input must be 1D or 2D. '
                               'Got %dD.' % A.get_ndim())
        dims = list(range(A.get_ndim()))
    if len(dims) == 2:
        return linalg_matrix_norm(A, ord, dims, keepdim, dtype=dtype)
    if isinstance(ord, str):
        raise RuntimeError('linalg.vector_norm: ord must be a number for a vector norm, got %r' % (ord,))
    return linalg_vector_norm(A, ord, dims, keepdim, dtype=dtype)


@_export
def norm(input, p='fro', dim=None, keepdim=False, out=None, dtype=None):
    """torch.norm / Tensor.norm: a vector norm of order p (a number, or 'fro' for 2) over dim
    (None: every element); 'nuc' the nuclear norm of the last two dims."""
    _check_tensor('norm', input)
    _no_out('norm', out)
    if p == 'nuc':
        return Gnn.linalg_matrix_norm_str(input, 'nuc', -2, -1, bool(keepdim))
    if p is None or p == 'fro':
        p = 2
    elif isinstance(p, str):
        raise RuntimeError('norm: Order %s not supported.' % p)
    return Gnn.Tensor.norm(_norm_input('norm', input, dtype), float(p), _norm_dims(dim), bool(keepdim))


@_export
def dist(input, other, p=2):
    """torch.dist / Tensor.dist: the p-norm of input - other (broadcast)."""
    _check_tensor('dist', input)
    _check_tensor('dist', other, 'other')
    return Gnn.Tensor.dist(input, other, float(p))


@_export
def cdist(x1, x2, p=2.0, compute_mode='use_mm_for_euclid_dist_if_necessary'):
    """torch.cdist: the p-norm distances between the rows of x1 and of x2; gnn always computes
    them from the differences, whatever compute_mode says."""
    _check_tensor('cdist', x1, 'x1')
    _check_tensor('cdist', x2, 'x2')
    return Gnn.Tensor.cdist(x1, x2, float(p))


@_export
def functional_normalize(input, p=2.0, dim=1, eps=1e-12, out=None):
    """torch.nn.functional.normalize: input divided by its p-norm along dim, at least eps."""
    _check_tensor('normalize', input)
    _no_out('normalize', out)
    return Gnn.Tensor.normalize(input, float(p), _int_arg('normalize', 'dim', dim), float(eps))


def _dims_arg(name, dims, what='dims'):
    """An int or a sequence of ints as a list."""
    if _is_int(dims):
        return [int(dims)]
    if isinstance(dims, (tuple, list)) and _builtins.all(_is_int(d) for d in dims):
        return [int(d) for d in dims]
    raise TypeError('%s(): argument \'%s\' must be tuple of ints, not %s' % (name, what, type(dims).__name__))


@_export
def flip(input, *dims):
    """torch.flip / Tensor.flip (dims): the entries along each of dims in reverse order."""
    _check_tensor('flip', input)
    if len(dims) == 1 and not _is_int(dims[0]):
        dims = dims[0]
    return Gnn.Tensor.flip(input, _dims_arg('flip', list(dims)))


@_export
def fliplr(input):
    """torch.fliplr: flip of dim 1 (at least 2 dims)."""
    _check_tensor('fliplr', input)
    if input.get_ndim() < 2:
        raise RuntimeError('Input must be >= 2-d.')
    return Gnn.Tensor.flip(input, [1])


@_export
def flipud(input):
    """torch.flipud: flip of dim 0 (at least 1 dim)."""
    _check_tensor('flipud', input)
    if input.get_ndim() < 1:
        raise RuntimeError('Input must be >= 1-d.')
    return Gnn.Tensor.flip(input, [0])


@_export
def roll(input, shifts, dims=None):
    """torch.roll / Tensor.roll: the entries rolled by shifts along dims (None: the flattened
    tensor, its shape kept)."""
    _check_tensor('roll', input)
    shifts = _dims_arg('roll', shifts, 'shifts')
    dims = [] if dims is None else _dims_arg('roll', dims)
    return Gnn.Tensor.roll(input, shifts, dims)


@_export
def functional_pad(input, pad, mode='constant', value=None):
    """torch.nn.functional.pad: pairs of pads from the last dim backwards (negative pads crop),
    mode 'constant' (filled with value), 'reflect', 'replicate' or 'circular'."""
    _check_tensor('pad', input)
    if not isinstance(pad, (tuple, list)) or not _builtins.all(_is_int(p) for p in pad):
        raise TypeError('pad(): argument \'pad\' must be a tuple of ints, not %s' % type(pad).__name__)
    if not isinstance(mode, str):
        raise TypeError('pad(): argument \'mode\' must be str, not %s' % type(mode).__name__)
    if value is not None and not _is_scalar(value):
        raise TypeError('pad(): argument \'value\' must be a number, not %s' % type(value).__name__)
    return Gnn.Tensor.pad(input, [int(p) for p in pad], mode, 0.0 if value is None else float(value))


# ---- shapes ----

def _shape_args(name, shape, new_tensor=False):
    """view (2, 3), view ((2, 3)), view ([2, 3]) and view (torch.Size) as one list; for a new
    tensor (a factory's size) no dim may be negative."""
    if len(shape) == 1 and isinstance(shape[0], (tuple, list)):
        shape = shape[0]
    for s in shape:
        if not _is_int(s):
            raise TypeError('%s(): argument \'size\' must be a tuple of ints, but found element of type '
                            '%s' % (name, type(s).__name__))
        if new_tensor and s < 0:
            raise RuntimeError('Trying to create tensor with negative dimension %d: %s' % (s, list(shape)))
    return [int(s) for s in shape]


@_export
def reshape(input, *shape):
    """torch.reshape / Tensor.reshape (*shape) with one -1: a view when the strides allow."""
    _check_tensor('reshape', input)
    return Gnn.Tensor.reshape(input, _shape_args('reshape', shape))


def view(self, *shape):
    """Tensor.view (*shape) with one -1, sharing storage (an error where strides forbid);
    view (dtype), a reinterpretation of the bytes, is not in gnn."""
    if len(shape) == 1 and not isinstance(shape[0], (tuple, list)) and not _is_int(shape[0]):
        raise TypeError('view(dtype): reinterpreting a tensor\'s bytes as another dtype is not in gnn; '
                        'use .to(dtype) for a converted copy')
    return Gnn.Tensor.view(self, _shape_args('view', shape))


@_export
def flatten(input, start_dim=0, end_dim=-1):
    """torch.flatten / Tensor.flatten."""
    _check_tensor('flatten', input)
    return Gnn.Tensor.flatten(input, int(start_dim), int(end_dim))


@_export
def squeeze(input, dim=None):
    """torch.squeeze: every dim of size 1, or dim only (if it is of size 1)."""
    _check_tensor('squeeze', input)
    return Gnn.Tensor.squeeze(input) if dim is None else Gnn.Tensor.squeeze_dim(input, int(dim))


@_export
def unsqueeze(input, dim):
    """torch.unsqueeze."""
    _check_tensor('unsqueeze', input)
    return Gnn.Tensor.unsqueeze(input, int(dim))


@_export
def permute(input, *dims):
    """torch.permute (input, dims) / Tensor.permute (*dims)."""
    _check_tensor('permute', input)
    return Gnn.Tensor.permute(input, _shape_args('permute', dims))


@_export
def transpose(input, dim0, dim1):
    """torch.transpose (swapdims)."""
    _check_tensor('transpose', input)
    return Gnn.Tensor.transpose(input, int(dim0), int(dim1))


def _int_list(name, what, values):
    """A tuple or list of ints (or a 1-d integer tensor) as a list of ints."""
    if isinstance(values, Gnn.Tensor):
        if values.get_dtype() not in _INTEGRAL or values.get_ndim() != 1:
            raise TypeError('%s(): %s must be a 1-d integer tensor, a list or a tuple of ints' % (name, what))
        return [int(v) for v in values.tolist()]
    if not isinstance(values, (tuple, list)) or not _builtins.all(_is_int(v) for v in values):
        raise TypeError('%s(): argument \'%s\' must be a tuple of ints, not %s' % (name, what, type(values).__name__))
    return [int(v) for v in values]


@_export
def chunk(input, chunks, dim=0):
    """torch.chunk / Tensor.chunk: a tuple of views (the C op)."""
    _check_tensor('chunk', input)
    return tuple(Gnn.Tensor.chunk(input, int(chunks), int(dim)))


@_export
def split(tensor, split_size_or_sections, dim=0):
    """torch.split / Tensor.split: pieces of one size (an int) or of the sizes of a list, a
    tuple of views sharing one grad_fn."""
    _check_tensor('split', tensor, 'tensor')
    if _is_int(split_size_or_sections):
        return tuple(Gnn.Tensor.split(tensor, int(split_size_or_sections), int(dim)))
    sizes = _int_list('split', 'split_size', split_size_or_sections)
    return tuple(Gnn.Tensor.split_with_sizes(tensor, sizes, int(dim)))


@_export
def tensor_split(input, indices_or_sections, dim=0):
    """torch.tensor_split / Tensor.tensor_split: n sections (an int or a 0-d integer tensor)
    or pieces cut before each index (a list, a tuple or a 1-d integer tensor)."""
    _check_tensor('tensor_split', input)
    ios = indices_or_sections
    if isinstance(ios, Gnn.Tensor) and ios.get_ndim() == 0 and ios.get_dtype() in _INTEGRAL:
        ios = int(ios.item())
    if _is_int(ios):
        return tuple(Gnn.Tensor.tensor_split(input, int(ios), int(dim)))
    if isinstance(ios, Gnn.Tensor) and (ios.get_dtype() not in _INTEGRAL or ios.get_ndim() > 1):
        raise RuntimeError('tensor_split expected tensor_indices_or_sections to have dtype of long, and to be '
                           'either a zero-dimensional or one-dimensional tensor')
    return tuple(Gnn.Tensor.tensor_split_indices(input, _int_list('tensor_split', 'indices', ios), int(dim)))


@_export
def unbind(input, dim=0):
    """torch.unbind / Tensor.unbind: a tuple of views, one per index of dim."""
    _check_tensor('unbind', input)
    return tuple(Gnn.Tensor.unbind(input, int(dim)))


@_export
def movedim(input, source, destination):
    """torch.movedim (moveaxis): dims source (an int or a tuple) moved to destination."""
    _check_tensor('movedim', input)
    src = [int(source)] if _is_int(source) else _int_list('movedim', 'source', source)
    dst = [int(destination)] if _is_int(destination) else _int_list('movedim', 'destination', destination)
    return Gnn.Tensor.movedim(input, src, dst)


moveaxis = movedim
swapaxes = swapdims = transpose
__all__ += ['moveaxis', 'swapaxes', 'swapdims']


@_export
def diagonal(input, offset=0, dim1=0, dim2=1):
    """torch.diagonal / Tensor.diagonal: a view of the diagonals over dim1 and dim2."""
    _check_tensor('diagonal', input)
    return Gnn.Tensor.diagonal(input, int(offset), int(dim1), int(dim2))


@_export
def diag(input, diagonal=0, *, out=None):
    """torch.diag / Tensor.diag: a vector's square matrix, or a copy of a matrix's diagonal."""
    _no_out('diag', out)
    _check_tensor('diag', input)
    return Gnn.Tensor.diag(input, int(diagonal))


@_export
def diag_embed(input, offset=0, dim1=-2, dim2=-1):
    """torch.diag_embed / Tensor.diag_embed: matrices with the last dim on a diagonal."""
    _check_tensor('diag_embed', input)
    return Gnn.Tensor.diag_embed(input, int(offset), int(dim1), int(dim2))


@_export
def diagflat(input, offset=0):
    """torch.diagflat / Tensor.diagflat: the square matrix with the flattened input on a diagonal."""
    _check_tensor('diagflat', input)
    return Gnn.Tensor.diagflat(input, int(offset))


@_export
def rot90(input, k=1, dims=(0, 1)):
    """torch.rot90 / Tensor.rot90: k quarter turns in the plane of dims."""
    _check_tensor('rot90', input)
    return Gnn.Tensor.rot90(input, int(k), [int(d) for d in dims])


@_export
def diff(input, n=1, dim=-1, prepend=None, append=None):
    """torch.diff / Tensor.diff: the n-th forward difference along dim, prepend and append
    put around the input first (a number becomes one entry of the input's dtype)."""
    _check_tensor('diff', input)

    def extra(value):
        if value is None or isinstance(value, Gnn.Tensor):
            return value
        shape = list(input.shape)
        shape[dim] = 1
        return full(shape, value, dtype=input.dtype, device=input.device)
    return Gnn.Tensor.diff(input, int(n), int(dim), extra(prepend), extra(append))


@_export
def cov(input, *, correction=1, fweights=None, aweights=None):
    """torch.cov / Tensor.cov: the covariance matrix of the rows' variables."""
    _check_tensor('cov', input)
    return Gnn.Tensor.cov(input, int(correction), fweights, aweights)


@_export
def corrcoef(input):
    """torch.corrcoef / Tensor.corrcoef: the Pearson correlation coefficients of the rows."""
    _check_tensor('corrcoef', input)
    return Gnn.Tensor.corrcoef(input)


@_export
def inner(input, other, *, out=None):
    """torch.inner / Tensor.inner: the inner product over the last dimension."""
    _no_out('inner', out)
    _check_tensor('inner', input)
    _check_tensor('inner', other, 'other')
    return Gnn.Tensor.inner(input, other)


@_export
def vander(x, N=None, increasing=False):
    """torch.vander: the Vandermonde matrix of a vector."""
    _check_tensor('vander', x, 'x')
    return Gnn.Tensor.vander(x, -1 if N is None else int(N), bool(increasing))


@_export
def trapezoid(y, x=None, *, dx=None, dim=-1):
    """torch.trapezoid / torch.trapz: the trapezoid rule along dim, at the sample points x
    (a tensor) or with the spacing dx (a number, 1 by default)."""
    _check_tensor('trapezoid', y, 'y')
    if x is not None:
        _check_tensor('trapezoid', x, 'x')
    if x is not None and dx is not None:
        raise TypeError('trapezoid() received an invalid combination of arguments: x and dx')
    return Gnn.Tensor.trapezoid(y, x, 1.0 if dx is None else float(dx), int(dim))


def _triangle_indices(name, c_fn):
    def indices(row, col, offset=0, *, dtype=None, device='cpu', layout=None):
        out = c_fn(int(row), int(col), int(offset))
        if dtype is not None or _device(device) != 'cpu':
            out = out.to(dtype=dtype, device=device)
        return out
    indices.__name__ = indices.__qualname__ = name
    indices.__doc__ = 'torch.%s (row, col, offset=0, dtype=torch.long): a 2 x N tensor of indices.' % name
    return indices


tril_indices = _triangle_indices('tril_indices', Gnn.tril_indices)
triu_indices = _triangle_indices('triu_indices', Gnn.triu_indices)
__all__ += ['tril_indices', 'triu_indices']


@_export
def masked_fill(input, mask, value):
    """torch.masked_fill / Tensor.masked_fill: value (a number or a 0-d tensor, which then gets
    a gradient) where the bool mask is true."""
    _check_tensor('masked_fill', input)
    _check_tensor('masked_fill', mask, 'mask')
    if isinstance(value, Gnn.Tensor):
        return Gnn.Tensor.masked_fill_tensor(input, mask, value)
    if not _is_scalar(value):
        raise TypeError('masked_fill(): argument \'value\' must be Number or Tensor, not %s' % type(value).__name__)
    return Gnn.Tensor.masked_fill(input, mask, float(value))


@_export
def tril(input, diagonal=0):
    """torch.tril / Tensor.tril: the lower triangles of the last two dims."""
    _check_tensor('tril', input)
    return Gnn.Tensor.tril(input, int(diagonal))


@_export
def triu(input, diagonal=0):
    """torch.triu / Tensor.triu: the upper triangles of the last two dims."""
    _check_tensor('triu', input)
    return Gnn.Tensor.triu(input, int(diagonal))


@_export
def scatter(input, dim, index, src=None, value=None, *, reduce=None):
    """torch.scatter / Tensor.scatter: src (a tensor, or a number, as value= also gives it)
    written into a copy of input at index along dim; reduce='add' or 'multiply' (torch 1.13's
    forms without a gradient) combines instead."""
    _check_tensor('scatter', input)
    _check_tensor('scatter', index, 'index')
    if src is None:
        src = value
    if isinstance(src, Gnn.Tensor):
        return Gnn.Tensor.scatter(input, int(dim), index, src, reduce)
    if not _is_scalar(src):
        raise TypeError('scatter(): argument \'src\' must be Tensor or Number, not %s' % type(src).__name__)
    return Gnn.Tensor.scatter_value(input, int(dim), index, float(src), reduce)


@_export
def scatter_add(input, dim, index, src):
    """torch.scatter_add / Tensor.scatter_add: src added into a copy of input at index."""
    _check_tensor('scatter_add', input)
    _check_tensor('scatter_add', index, 'index')
    _check_tensor('scatter_add', src, 'src')
    return Gnn.Tensor.scatter_add(input, int(dim), index, src)


@_export
def scatter_reduce(input, dim, index, src, reduce, *, include_self=True):
    """torch.scatter_reduce / Tensor.scatter_reduce: the src values scattered to each place
    reduced ('sum', 'prod', 'mean', 'amax', 'amin'), with input's value when include_self."""
    _check_tensor('scatter_reduce', input)
    _check_tensor('scatter_reduce', index, 'index')
    _check_tensor('scatter_reduce', src, 'src')
    if not isinstance(reduce, str):
        raise TypeError('scatter_reduce(): argument \'reduce\' must be str, not %s' % type(reduce).__name__)
    return Gnn.Tensor.scatter_reduce(input, int(dim), index, src, reduce, bool(include_self))


@_export
def index_copy(input, dim, index, source):
    """torch.index_copy / Tensor.index_copy: a copy of input with the slices at index along dim
    replaced by those of source."""
    _check_tensor('index_copy', input)
    _check_tensor('index_copy', index, 'index')
    _check_tensor('index_copy', source, 'source')
    return Gnn.Tensor.index_copy(input, int(dim), index, source)


@_export
def index_fill(input, dim, index, value):
    """torch.index_fill / Tensor.index_fill: value (a number, or a 0-d tensor, which then gets a
    gradient) in the slices at index along dim."""
    _check_tensor('index_fill', input)
    _check_tensor('index_fill', index, 'index')
    if isinstance(value, Gnn.Tensor):
        return Gnn.Tensor.index_fill_tensor(input, int(dim), index, value)
    if not _is_scalar(value):
        raise TypeError('index_fill(): argument \'value\' must be Number or Tensor, not %s' % type(value).__name__)
    return Gnn.Tensor.index_fill(input, int(dim), index, float(value))


def _in_place_of(op):
    """Tensor.op_ for the out-of-place op: its result on a clone (which the op's backward may
    have saved) copied into the tensor (copy_ records the in-place change for autograd), which
    is returned."""
    def method(self, *args, **kwargs):
        Gnn.Tensor.copy_(self, op(Gnn.Tensor.clone(self), *args, **kwargs))
        return self
    method.__name__ = method.__qualname__ = op.__name__ + '_'
    method.__doc__ = 'Tensor.%s_: %s in place (through copy_), returning the tensor.' % (op.__name__, op.__name__)
    return method


scatter_, scatter_add_, scatter_reduce_, index_copy_, index_fill_ = (_in_place_of(f) for f in (
    scatter, scatter_add, scatter_reduce, index_copy, index_fill))


def expand_as(self, other):
    """Tensor.expand_as (the C op)."""
    _check_tensor('expand_as', other, 'other')
    return Gnn.Tensor.expand_as(self, other)


def expand(self, *sizes):
    """Tensor.expand (*sizes), -1 keeping a dim."""
    return Gnn.Tensor.expand(self, _shape_args('expand', sizes))


def repeat(self, *sizes):
    """Tensor.repeat (*sizes): tiles the tensor (the C op, whose gradient is expand's, summed
    over the copies)."""
    return Gnn.Tensor.repeat(self, _shape_args('repeat', sizes))


@_export
def numel(input):
    """torch.numel."""
    _check_tensor('numel', input)
    return input.get_numel()


# ---- elementwise ----

def _operand(name, value, like):
    """A tensor for a tensor-or-scalar argument: scalars become 0-d tensors of like's dtype
    (a float with an integral tensor: the default float dtype)."""
    if isinstance(value, Gnn.Tensor):
        return value
    if not _is_scalar(value):
        raise TypeError('%s(): expected a Tensor or a number, got %s' % (name, type(value).__name__))
    dtype = like.get_dtype()
    if isinstance(value, bool):
        pass
    elif dtype in _INTEGRAL and not isinstance(value, _numbers.Integral):
        dtype = get_default_dtype()
    elif dtype == Gnn.Dtype.BOOL:
        dtype = Gnn.Dtype.INT64
    return Gnn.Tensor.new_scalar(float(value), dtype, like.get_device())


def _binary_method(name, dunder):
    c_op = getattr(Gnn.Tensor, name)

    @translating_errors
    def op(input, other):
        if type(other) in _TENSOR_TYPES and type(input) in _TENSOR_TYPES:
            try:   # two tensors, the common case: straight to C
                return c_op(input, other)
            except _GLib.Error as e:
                raise_torch_error(e)
        _check_tensor(name, input)
        try:
            result = dunder(input, other)
        except _GLib.Error as e:
            raise_torch_error(e)
        if result is NotImplemented:
            raise TypeError('%s(): argument \'other\' must be Tensor or Number, not %s'
                            % (name, type(other).__name__))
        return result
    op.__name__ = op.__qualname__ = name
    op.__doc__ = 'torch.%s: elementwise, broadcasting, with a tensor or a number.' % name
    return op


mul = _binary_method('mul', Tensor.__mul__)
eq = _binary_method('eq', Tensor.__eq__)
ne = _binary_method('ne', Tensor.__ne__)
lt = _binary_method('lt', Tensor.__lt__)
le = _binary_method('le', Tensor.__le__)
gt = _binary_method('gt', Tensor.__gt__)
ge = _binary_method('ge', Tensor.__ge__)
multiply, greater, greater_equal, less, less_equal, not_equal = mul, gt, ge, lt, le, ne
__all__ += ['mul', 'eq', 'ne', 'lt', 'le', 'gt', 'ge']
__all__ += ['multiply', 'greater', 'greater_equal', 'less', 'less_equal', 'not_equal']


def _add_sub(name, input, other, alpha):
    """add and sub but for their common case, two tensors and alpha 1, which they take
    straight to C."""
    _check_tensor(name, input)
    sign = 1 if name == 'add' else -1
    if isinstance(other, Gnn.Tensor):
        return (Gnn.Tensor.add if name == 'add' else Gnn.Tensor.sub)(input, other, float(alpha))
    if not _is_scalar(other):
        raise TypeError('%s(): argument \'other\' must be Tensor or Number, not %s' % (name, type(other).__name__))
    return Tensor.__add__(input, sign * other * alpha)


_c_add, _c_sub = Gnn.Tensor.add, Gnn.Tensor.sub


@_export
@translating_errors
def add(input, other, alpha=1, *, out=None):
    """torch.add: input + alpha * other (a tensor or a number)."""
    try:
        if type(other) in _TENSOR_TYPES and type(input) in _TENSOR_TYPES and alpha == 1 and out is None:
            return _c_add(input, other, 1.0)
        _no_out('add', out)
        return _add_sub('add', input, other, alpha)
    except _GLib.Error as e:
        raise_torch_error(e)


@_export
@translating_errors
def sub(input, other, alpha=1, *, out=None):
    """torch.sub: input - alpha * other (a tensor or a number)."""
    try:
        if type(other) in _TENSOR_TYPES and type(input) in _TENSOR_TYPES and alpha == 1 and out is None:
            return _c_sub(input, other, 1.0)
        _no_out('sub', out)
        return _add_sub('sub', input, other, alpha)
    except _GLib.Error as e:
        raise_torch_error(e)


subtract = sub
__all__.append('subtract')


@_export
def div(input, other, *, rounding_mode=None, out=None):
    """torch.div: true division, or rounded toward zero ('trunc') or toward -inf ('floor')."""
    _no_out('div', out)
    _check_tensor('div', input)
    if rounding_mode == 'floor':
        return floor_divide(input, other)
    if rounding_mode == 'trunc':
        if input.get_dtype() in _INTEGRAL or input.get_dtype() == Gnn.Dtype.BOOL:
            # exact in integers: the dividend less its fmod remainder, floor-divided
            b = _operand('div', other, input)
            return floor_divide(Tensor.__sub__(input, fmod(input, b)), b)
        return Gnn.Tensor.trunc(Tensor.__truediv__(input, other))
    if rounding_mode is not None:
        raise RuntimeError("div expected rounding_mode to be one of None, 'trunc', or 'floor' but found '%s'"
                           % (rounding_mode,))
    result = Tensor.__truediv__(input, other)
    if result is NotImplemented:
        raise TypeError('div(): argument \'other\' must be Tensor or Number, not %s' % type(other).__name__)
    return result


divide, true_divide = div, div
__all__ += ['divide', 'true_divide']


def _inplace_method(name, c_tensor_op, c_scalar_op):
    def op(self, other, alpha=None):
        if isinstance(other, Gnn.Tensor):
            if alpha is None:
                c_tensor_op(self, other) if name in ('mul_', 'div_') else c_tensor_op(self, other, 1.0)
            else:
                c_tensor_op(self, other, float(alpha))
        elif _is_scalar(other):
            value = float(other) * (1.0 if alpha is None else float(alpha))
            c_scalar_op(self, -value if name == 'sub_' else value)
        else:
            raise TypeError('%s(): argument \'other\' must be Tensor or Number, not %s' % (name, type(other).__name__))
        return self
    op.__name__ = op.__qualname__ = name
    op.__doc__ = 'Tensor.%s: in place (the C op %s).' % (name, c_tensor_op.__name__)
    return op


add_ = _inplace_method('add_', Gnn.Tensor.add_, Gnn.Tensor.add_scalar_)
sub_ = _inplace_method('sub_', Gnn.Tensor.sub_, Gnn.Tensor.add_scalar_)
mul_ = _inplace_method('mul_', Gnn.Tensor.mul_, Gnn.Tensor.mul_scalar_)
div_ = _inplace_method('div_', Gnn.Tensor.div_, Gnn.Tensor.div_scalar_)


@_export
def pow(input, exponent):
    """torch.pow: a tensor to a tensor or number power, or a number to a tensor power."""
    if not isinstance(input, Gnn.Tensor):
        _check_tensor('pow', exponent, 'exponent')
        return Tensor.__rpow__(exponent, input)
    if isinstance(exponent, Gnn.Tensor):
        return Gnn.Tensor.pow(input, exponent)
    if not _is_scalar(exponent):
        raise TypeError('pow(): argument \'exponent\' must be Tensor or Number, not %s' % type(exponent).__name__)
    return Tensor.__pow__(input, exponent)


@_export
def clamp(input, min=None, max=None, *, out=None):
    """torch.clamp / clip: min and max are numbers, tensors (elementwise bounds) or None."""
    _check_tensor('clamp', input)
    _no_out('clamp', out)
    if min is None and max is None:
        raise RuntimeError("torch.clamp: At least one of 'min' or 'max' must not be None")
    if isinstance(min, Gnn.Tensor) or isinstance(max, Gnn.Tensor):
        result = input
        if min is not None:
            result = Gnn.Tensor.maximum(result, _operand('clamp', min, input))
        if max is not None:
            result = Gnn.Tensor.minimum(result, _operand('clamp', max, input))
        return result
    for bound in (min, max):
        if bound is not None and not _is_scalar(bound):
            raise TypeError('clamp(): min and max must be numbers, tensors or None, not %s'
                            % type(bound).__name__)
    if max is None:
        return Gnn.Tensor.clamp_min(input, float(min))
    if min is None:
        return Gnn.Tensor.clamp_max(input, float(max))
    return Gnn.Tensor.clamp(input, float(min), float(max))


clip = clamp
__all__.append('clip')


def clamp_(self, min=None, max=None):
    """Tensor.clamp_: clamp written back into the tensor (copy_)."""
    return self.copy_(clamp(self, min, max))


@_export
def reciprocal(input):
    """torch.reciprocal: 1 / x (the C op; integers give float32)."""
    _check_tensor('reciprocal', input)
    return Gnn.Tensor.reciprocal(input)


@_export
def maximum(input, other):
    """torch.maximum: elementwise, broadcasting."""
    _check_tensor('maximum', input)
    return Gnn.Tensor.maximum(input, other)


@_export
def minimum(input, other):
    """torch.minimum: elementwise, broadcasting."""
    _check_tensor('minimum', input)
    return Gnn.Tensor.minimum(input, other)


@_export
def where(condition, input=None, other=None):
    """torch.where (condition, input, other), input and other tensors or numbers;
    where (condition) alone (nonzero) is not in gnn."""
    if input is None and other is None:
        raise NotImplementedError('where(condition) (the indices of non-zero elements, torch.nonzero) '
                                  'is not in gnn')
    _check_tensor('where', condition, 'condition')
    like = input if isinstance(input, Gnn.Tensor) else other if isinstance(other, Gnn.Tensor) else None
    if like is None:
        like = Gnn.Tensor.new_scalar(0.0, get_default_dtype() if _builtins.any(
            isinstance(v, float) for v in (input, other)) else Gnn.Dtype.INT64, None)
    return Gnn.where(condition, _operand('where', input, like), _operand('where', other, like))


@_export
def lerp(input, end, weight):
    """torch.lerp: input + weight * (end - input), weight a number or a tensor."""
    _check_tensor('lerp', input)
    step = Tensor.__mul__(Gnn.Tensor.sub(end, input, 1.0), weight)
    return Gnn.Tensor.add(input, step, 1.0)


def lerp_(self, end, weight):
    """Tensor.lerp_: the C op for a number weight, lerp written back for a tensor weight."""
    if _is_scalar(weight):
        Gnn.Tensor.lerp_(self, end, float(weight))
        return self
    return self.copy_(lerp(self, end, weight))


@_export
def addcmul(input, tensor1, tensor2, *, value=1):
    """torch.addcmul: input + value * tensor1 * tensor2."""
    _check_tensor('addcmul', input)
    return Gnn.Tensor.add(input, Tensor.__mul__(Gnn.Tensor.mul(tensor1, tensor2), value), 1.0)


@_export
def addcdiv(input, tensor1, tensor2, *, value=1):
    """torch.addcdiv: input + value * tensor1 / tensor2."""
    _check_tensor('addcdiv', input)
    return Gnn.Tensor.add(input, Tensor.__mul__(Gnn.Tensor.div(tensor1, tensor2), value), 1.0)


def addcmul_(self, tensor1, tensor2, value=1):
    """Tensor.addcmul_ (the C op; value also positional, as C spells it)."""
    Gnn.Tensor.addcmul_(self, tensor1, tensor2, float(value))
    return self


def addcdiv_(self, tensor1, tensor2, value=1):
    """Tensor.addcdiv_ (the C op; value also positional, as C spells it)."""
    Gnn.Tensor.addcdiv_(self, tensor1, tensor2, float(value))
    return self


def _returning_self(c_op):
    """A C in-place op (which returns TRUE, or FALSE with a GError) as torch's: it returns the
    tensor."""
    def op(self, *args):
        c_op(self, *args)
        return self
    op.__name__ = op.__qualname__ = c_op.__name__
    op.__doc__ = 'Tensor.%s: in place (the C op), returning the tensor.' % c_op.__name__
    return op


zero_, fill_, copy_, sqrt_, maximum_ = (_returning_self(getattr(Gnn.Tensor, n)) for n in (
    'zero_', 'fill_', 'copy_', 'sqrt_', 'maximum_'))


# methods of Tensor only (torch has no function of these names, or one of another signature)
for _method in (view, expand, expand_as, repeat, add_, sub_, mul_, div_, clamp_, lerp_, addcmul_, addcdiv_,
                zero_, fill_, copy_, sqrt_, maximum_, scatter_, scatter_add_, scatter_reduce_, index_copy_,
                index_fill_):
    setattr(Tensor, _method.__name__, raising_torch_errors(_method))


@_export
def cat(tensors, dim=0, *, out=None):
    """torch.cat (concat): tensors joined along dim (0 unless given)."""
    _no_out('cat', out)
    return Gnn.cat(list(tensors), int(dim))


@_export
def stack(tensors, dim=0, *, out=None):
    """torch.stack: tensors of one shape stacked along a new dim (0 unless given)."""
    _no_out('stack', out)
    return Gnn.stack(list(tensors), int(dim))


concat = cat
__all__.append('concat')


@_export
def matmul(input, other):
    """torch.matmul: numpy's matmul rules, broadcasting the batch dims."""
    _check_tensor('matmul', input)
    return Gnn.Tensor.matmul(input, other)


def _matmul_of_rank(name, rank):
    def op(input, mat2):
        _check_tensor(name, input)
        _check_tensor(name, mat2, 'mat2')
        for t in (input, mat2):
            if t.get_ndim() != rank:
                raise RuntimeError('%s: expected a %d-D tensor, got a %d-D one' % (name, rank, t.get_ndim()))
        return Gnn.Tensor.matmul(input, mat2)
    op.__name__ = op.__qualname__ = name
    op.__doc__ = 'torch.%s: matmul of %d-D tensors only.' % (name, rank)
    return op


mm = _matmul_of_rank('mm', 2)
__all__ += ['mm']


@_export
def bmm(input, mat2, *, out=None):
    """torch.bmm: the batched product of two 3-D tensors of one batch size."""
    _no_out('bmm', out)
    _check_tensor('bmm', input)
    return Gnn.Tensor.bmm(input, mat2)


def _addmm_like(name, c_op):
    def op(input, mat1, mat2, *, beta=1, alpha=1, out=None):
        _no_out(name, out)
        _check_tensor(name, input)
        return c_op(input, mat1, mat2, float(beta), float(alpha))
    op.__name__ = op.__qualname__ = name
    op.__doc__ = 'torch.%s: beta * input + alpha * the product (%s).' % (name, c_op.__name__)
    return op


addmm = _addmm_like('addmm', Gnn.Tensor.addmm)
baddbmm = _addmm_like('baddbmm', Gnn.Tensor.baddbmm)
addbmm = _addmm_like('addbmm', Gnn.Tensor.addbmm)
__all__ += ['addmm', 'baddbmm', 'addbmm']


def _vector_product(name, c_op):
    def op(input, other, *, out=None):
        _no_out(name, out)
        _check_tensor(name, input)
        return c_op(input, other)
    op.__name__ = op.__qualname__ = name
    op.__doc__ = 'torch.%s (%s).' % (name, c_op.__name__)
    return op


mv = _vector_product('mv', Gnn.Tensor.mv)
dot = _vector_product('dot', Gnn.Tensor.dot)
outer = _vector_product('outer', Gnn.Tensor.outer)
ger = outer
__all__ += ['mv', 'dot', 'outer', 'ger']


@_export
def einsum(equation, *operands):
    """torch.einsum: einsum('ij,jk->ik', a, b) or einsum('ij,jk->ik', [a, b])."""
    if not isinstance(equation, str):
        raise TypeError('einsum(): argument \'equation\' must be str, not %s' % type(equation).__name__)
    if len(operands) == 1 and isinstance(operands[0], (list, tuple)):
        operands = operands[0]
    for k, t in enumerate(operands):
        _check_tensor('einsum', t, 'operands[%d]' % k)
    return Gnn.einsum(equation, list(operands))


@_export
def tensordot(a, b, dims=2, out=None):
    """torch.tensordot: dims an int (the last dims of a with the first of b) or two lists."""
    _no_out('tensordot', out)
    _check_tensor('tensordot', a, 'a')
    _check_tensor('tensordot', b, 'b')
    if isinstance(dims, Gnn.Tensor):
        dims = dims.tolist()
    if _is_int(dims):
        if dims < 0:
            raise RuntimeError('tensordot expects dims >= 0, but got dims=%d' % dims)
        n = int(dims)
        dims_a, dims_b = list(range(a.get_ndim() - n, a.get_ndim())), list(range(n))
    else:
        dims_a, dims_b = (_dim_list(d) for d in dims)
    return Gnn.tensordot(a, b, [int(d) for d in dims_a], [int(d) for d in dims_b])


@_export
def kron(input, other, *, out=None):
    """torch.kron: the Kronecker product."""
    _no_out('kron', out)
    _check_tensor('kron', input)
    return Gnn.Tensor.kron(input, other)


# ---- factories ----

def _size_args(name, size):
    return _shape_args(name, size, new_tensor=True)


def _finish(t, requires_grad):
    if requires_grad:
        t.set_requires_grad(True)
    return t


def _dtype_or_default(dtype):
    return get_default_dtype() if dtype is None else as_dtype(dtype)


def _device(device):
    from .tensor import _device_string
    return _device_string(device)


def _plain_factory(name, make):
    def factory(*size, out=None, dtype=None, layout=None, device=None, requires_grad=False,
                pin_memory=False):
        _no_out(name, out)
        return _finish(make(_size_args(name, size), _dtype_or_default(dtype), _device(device)), requires_grad)
    factory.__name__ = factory.__qualname__ = name
    factory.__doc__ = ('torch.%s (*size, dtype=None, device=None, requires_grad=False): size as '
                       'numbers or one sequence; the default dtype is float32.' % name)
    return factory


zeros = _plain_factory('zeros', Gnn.Tensor.new_zeros)
ones = _plain_factory('ones', Gnn.Tensor.new_ones)
empty = _plain_factory('empty', Gnn.Tensor.new_empty)
__all__ += ['zeros', 'ones', 'empty']


def _random_factory(name, make):
    def factory(*size, generator=None, out=None, dtype=None, layout=None, device=None,
                requires_grad=False, pin_memory=False):
        _no_out(name, out)
        t = make(_size_args(name, size), generator, _dtype_or_default(dtype), _device(device))
        return _finish(t, requires_grad)
    factory.__name__ = factory.__qualname__ = name
    factory.__doc__ = ('torch.%s (*size, generator=None, dtype=None, device=None, requires_grad=False)'
                       % name)
    return factory


rand = _random_factory('rand', Gnn.Tensor.new_rand)
randn = _random_factory('randn', Gnn.Tensor.new_randn)
__all__ += ['rand', 'randn']


def _dtype_of_value(value):
    if isinstance(value, bool):
        return Gnn.Dtype.BOOL
    if isinstance(value, _numbers.Integral):
        return Gnn.Dtype.INT64
    return get_default_dtype()


@_export
def full(size, fill_value, *, out=None, dtype=None, layout=None, device=None, requires_grad=False):
    """torch.full: the dtype follows fill_value (bool, int64 or the default float) unless given."""
    _no_out('full', out)
    _check_scalar('full', 'fill_value', fill_value)
    dtype = _dtype_of_value(fill_value) if dtype is None else as_dtype(dtype)
    return _finish(Gnn.Tensor.new_full(_size_args('full', (size,)), float(fill_value), dtype,
                                       _device(device)), requires_grad)


def _check_scalar(name, what, value):
    if not _is_scalar(value):
        raise TypeError('%s(): argument \'%s\' must be Number, not %s' % (name, what, type(value).__name__))


@_export
def randint(*args, size=None, generator=None, out=None, dtype=None, layout=None, device=None,
            requires_grad=False):
    """torch.randint (high, size) / (low, high, size): int64 unless dtype is given."""
    _no_out('randint', out)
    if size is None:
        if not args or not isinstance(args[-1], (tuple, list)):
            raise TypeError('randint(): the size is a required tuple argument: randint(high, size) or '
                            'randint(low, high, size)')
        args, size = args[:-1], args[-1]
    if len(args) == 1:
        low, high = 0, args[0]
    elif len(args) == 2:
        low, high = args
    else:
        raise TypeError('randint() takes (high, size) or (low, high, size), got %d numbers' % len(args))
    for what, v in (('low', low), ('high', high)):
        if not _is_int(v):
            raise TypeError('randint(): argument \'%s\' must be int, not %s' % (what, type(v).__name__))
    t = Gnn.Tensor.new_randint(int(low), int(high), _size_args('randint', (size,)), generator, _device(device))
    if dtype is not None:
        t = Gnn.Tensor.to_dtype(t, as_dtype(dtype))
    return _finish(t, requires_grad)


@_export
@translating_errors
def randperm(n, *, generator=None, out=None, dtype=None, layout=None, device=None,
             requires_grad=False, pin_memory=False):
    """torch.randperm (n): a random permutation of 0 .. n - 1, int64 unless dtype is given."""
    _no_out('randperm', out)
    if not _is_int(n):
        raise TypeError("randperm(): argument 'n' (position 1) must be int, not %s"
                        % type(n).__name__)
    try:
        t = Gnn.Tensor.new_randperm(int(n), Gnn.Dtype.INT64 if dtype is None else as_dtype(dtype),
                                    generator, _device(device))
    except _GLib.Error as e:
        raise_torch_error(e)
    return _finish(t, requires_grad)


@_export
def arange(start=0, end=None, step=1, *, out=None, dtype=None, layout=None, device=None,
           requires_grad=False):
    """torch.arange (end) / (start, end, step=1): int64 when every bound is an int, else the
    default float dtype, unless dtype is given."""
    _no_out('arange', out)
    if end is None:
        start, end = 0, start
    for what, v in (('start', start), ('end', end), ('step', step)):
        _check_scalar('arange', what, v)
    if dtype is None:
        integral = _builtins.all(isinstance(v, _numbers.Integral) for v in (start, end, step))
        dtype = Gnn.Dtype.INT64 if integral else get_default_dtype()
    return _finish(Gnn.Tensor.new_arange(float(start), float(end), float(step), as_dtype(dtype),
                                         _device(device)), requires_grad)


@_export
def linspace(start, end, steps, *, out=None, dtype=None, layout=None, device=None, requires_grad=False):
    """torch.linspace: steps values from start to end, computed from both ends as torch does."""
    import numpy as np
    _no_out('linspace', out)
    if not isinstance(steps, _numbers.Integral) or steps < 0:
        raise RuntimeError('number of steps must be non-negative')
    dtype = _dtype_or_default(dtype)
    i = np.arange(steps, dtype=np.float64)
    step = (float(end) - float(start)) / (steps - 1) if steps > 1 else 0.0
    values = np.where(i < steps // 2, float(start) + i * step, float(end) - (steps - 1 - i) * step)
    if steps == 1:
        values[:] = float(start)
    result = tensor(values.astype(np.float64), dtype=dtype)
    if _device(device) not in (None, 'cpu'):
        result = Gnn.Tensor.to_device(result, _device(device))
    return _finish(result, requires_grad)


@_export
def eye(n, m=None, *, out=None, dtype=None, layout=None, device=None, requires_grad=False):
    """torch.eye (n, m=None)."""
    _no_out('eye', out)
    return _finish(Gnn.Tensor.new_eye(int(n), int(n if m is None else m), _dtype_or_default(dtype),
                                      _device(device)), requires_grad)


def _like_factory(name, make):
    def factory(input, *args, dtype=None, layout=None, device=None, requires_grad=False,
                memory_format=None, **kwargs):
        _check_tensor(name, input)
        dtype = input.get_dtype() if dtype is None else as_dtype(dtype)
        device = input.get_device() if device is None else _device(device)
        return _finish(make(input, dtype, device, *args, **kwargs), requires_grad)
    factory.__name__ = factory.__qualname__ = name
    factory.__doc__ = 'torch.%s: of the input\'s shape, dtype and device unless given.' % name
    return factory


def _shape(t):
    return list(t.get_shape())


zeros_like = _like_factory('zeros_like', lambda t, d, dev: Gnn.Tensor.new_zeros(_shape(t), d, dev))
ones_like = _like_factory('ones_like', lambda t, d, dev: Gnn.Tensor.new_ones(_shape(t), d, dev))
empty_like = _like_factory('empty_like', lambda t, d, dev: Gnn.Tensor.new_empty(_shape(t), d, dev))
full_like = _like_factory('full_like', lambda t, d, dev, fill_value: Gnn.Tensor.new_full(
    _shape(t), float(fill_value), d, dev))
rand_like = _like_factory('rand_like', lambda t, d, dev: Gnn.Tensor.new_rand(_shape(t), None, d, dev))
randn_like = _like_factory('randn_like', lambda t, d, dev: Gnn.Tensor.new_randn(_shape(t), None, d, dev))
__all__ += ['zeros_like', 'ones_like', 'empty_like', 'full_like', 'rand_like', 'randn_like']


@_export
def as_tensor(data, dtype=None, device=None):
    """torch.as_tensor: the tensor itself (converted if dtype or device differ), a numpy
    array's memory where from_numpy can share it, else a copy (tensor)."""
    if isinstance(data, Gnn.Tensor):
        return data.to(device, dtype) if (dtype, device) != (None, None) else data
    if type(data).__module__ == 'numpy' and hasattr(data, 'dtype') and (
            dtype is None or as_dtype(dtype) == as_dtype(data.dtype.name)):
        try:
            return Tensor.from_numpy(data, _device(device))
        except TypeError:
            pass
    return tensor(data, dtype=dtype, device=device)


@_export
def is_tensor(obj):
    """torch.is_tensor."""
    return isinstance(obj, Gnn.Tensor)


@_export
def is_floating_point(input):
    """torch.is_floating_point."""
    _check_tensor('is_floating_point', input)
    return bool(Gnn.dtype_is_floating(input.get_dtype()))


# ---- random state ----

@_override
class Generator(Gnn.Generator):
    """torch.Generator: ``Generator ()`` starts from torch's default seed (67280421310721),
    ``manual_seed (s)`` returns the generator, as torch's does, so that
    ``Generator ().manual_seed (s)`` is one expression."""

    def __init__(self, device='cpu'):
        if device not in ('cpu', None) and not str(device).startswith('cpu'):
            raise ValueError('gnn\'s generators are CPU generators (one stream for every device), '
                             'not %r' % (device,))
        super().__init__()

    def manual_seed(self, seed):
        Gnn.Generator.manual_seed(self, int(seed) & 0xFFFFFFFFFFFFFFFF)
        return self

    def initial_seed(self):
        return self.get_seed()


__all__.append('Generator')


@_export
def manual_seed(seed):
    """torch.manual_seed: seeds the default generator and returns it."""
    Gnn.manual_seed(int(seed) & 0xFFFFFFFFFFFFFFFF)
    return Gnn.Generator.get_default()


@_export
def initial_seed():
    """torch.initial_seed: the default generator's seed."""
    return Gnn.Generator.get_default().get_seed()


# ---- devices ----

@_export
def cuda_is_available():
    """torch.cuda.is_available: whether a backend serves the device type 'cuda' (the CUDA
    module is installed and found a device)."""
    return cuda_device_count() > 0


@_export
def cuda_device_count():
    """torch.cuda.device_count: the devices of the backend serving 'cuda', 0 without one."""
    from gi.repository import GLib
    try:
        backend = Gnn.backend_get_for_device_type('cuda')
    except GLib.Error:
        return 0
    return backend.get_device_count()


@_export
def mps_is_available():
    """torch.backends.mps.is_available: False (Apple's Metal is not a gnn backend)."""
    return False


# every op raises torch's exception classes (errors.py: IndexError for a dim out of range ...)
for _name in __all__:
    if not isinstance(globals()[_name], type):
        globals()[_name] = raising_torch_errors(globals()[_name])


_c_autograd_grad = Gnn.autograd_grad


@_export
def autograd_grad(outputs, inputs, grad_outputs=None, retain_graph=None, create_graph=False,
                  allow_unused=False):
    """torch.autograd.grad: the gradients of outputs (a tensor or a sequence) with respect to
    inputs, as a tuple (None for an unused input when allow_unused); nothing accumulates
    into any .grad. retain_graph defaults to create_graph; with create_graph the gradients
    can be differentiated again."""
    from .base import _call_raising_python_errors
    from gi.repository import Gnn as _overrides_module

    def _overrides():
        return _overrides_module
    outputs = [outputs] if isinstance(outputs, Gnn.Tensor) else list(outputs)
    inputs = [inputs] if isinstance(inputs, Gnn.Tensor) else list(inputs)
    if grad_outputs is None:
        grad_outputs = []
    else:
        grad_outputs = [grad_outputs] if isinstance(grad_outputs, Gnn.Tensor) else list(grad_outputs)
        if len(grad_outputs) != len(outputs):
            raise RuntimeError('grad requires one grad_output per output: got %d grad_outputs for %d '
                               'outputs' % (len(grad_outputs), len(outputs)))
        if _builtins.any(g is None for g in grad_outputs):
            filled = []
            for o, g in zip(outputs, grad_outputs):
                if g is None:
                    if o.get_numel() != 1:
                        raise RuntimeError('grad can be implicitly created only for scalar outputs')
                    g = _overrides().ones_like(o)
                filled.append(g)
            grad_outputs = filled
    for i, t in enumerate(outputs + inputs):
        _check_tensor('grad', t, 'outputs' if i < len(outputs) else 'inputs')
    if retain_graph is None:
        retain_graph = create_graph
    return tuple(_call_raising_python_errors(_c_autograd_grad, outputs, grad_outputs, inputs,
                                             retain_graph, create_graph, allow_unused))


def _parameter_list(parameters):
    return [parameters] if isinstance(parameters, Gnn.Tensor) else list(parameters)


@_export
def nn_utils_clip_grad_norm_(parameters, max_norm, norm_type=2.0, error_if_nonfinite=False,
                             foreach=None):
    """torch.nn.utils.clip_grad_norm_: scales the gradients in place so that their total norm
    is at most max_norm and returns that norm (a 0-d tensor). foreach is accepted and has
    no effect (gnn always takes one pass over the list)."""
    return Gnn.clip_grad_norm_(_parameter_list(parameters), float(max_norm), float(norm_type),
                               error_if_nonfinite)


@_export
def nn_utils_clip_grad_value_(parameters, clip_value, foreach=None):
    """torch.nn.utils.clip_grad_value_: clamps the gradients in place."""
    Gnn.clip_grad_value_(_parameter_list(parameters), float(clip_value))


@_export
def nn_utils_parameters_to_vector(parameters):
    """torch.nn.utils.parameters_to_vector."""
    return Gnn.parameters_to_vector(_parameter_list(parameters))


@_export
def nn_utils_vector_to_parameters(vec, parameters):
    """torch.nn.utils.vector_to_parameters."""
    if not isinstance(vec, Gnn.Tensor):
        raise TypeError('expected torch.Tensor, but got: {}'.format(type(vec).__name__))
    Gnn.vector_to_parameters(vec, _parameter_list(parameters))


# ---- the elementwise math functions (gnn-ops-math.c) ----

def _math_binary(name, c_op):
    """torch.NAME (input, other): tensors or numbers on either side (a number becomes a 0-d
    tensor of the other operand's dtype, a float with an integral tensor the default dtype)."""
    @translating_errors
    def op(input, other, *, out=None):
        _no_out(name, out)
        if not isinstance(input, Gnn.Tensor):
            _check_tensor(name, other, 'other')
            input = _operand(name, input, other)
        try:
            return c_op(input, _operand(name, other, input))
        except _GLib.Error as e:
            raise_torch_error(e)
    op.__name__ = op.__qualname__ = name
    op.__doc__ = 'torch.%s: elementwise, broadcasting, with a tensor or a number.' % name
    return op


atan2 = _math_binary('atan2', Gnn.Tensor.atan2)
fmod = _math_binary('fmod', Gnn.Tensor.fmod)
remainder = _math_binary('remainder', Gnn.Tensor.remainder)
floor_divide = _math_binary('floor_divide', Gnn.Tensor.floor_divide)
xlogy = _math_binary('xlogy', Gnn.Tensor.xlogy)
__all__ += ['atan2', 'fmod', 'remainder', 'floor_divide', 'xlogy']
# torch.special.xlog1py: as xlogy, with a number on either side
special_xlog1py = _math_binary('special_xlog1py', Gnn.special_xlog1py)
special_zeta = _math_binary('special_zeta', Gnn.special_zeta)
__all__ += ['special_xlog1py', 'special_zeta']


def _tensor_binary(name, c_op, second='other'):
    """torch.NAME (input, other) of two tensors only, as torch's overloads take them (a number
    is a TypeError that says so)."""
    @translating_errors
    def op(input, other, *, out=None):
        _no_out(name, out)
        for position, (arg, value) in enumerate((('input', input), (second, other)), 1):
            if not isinstance(value, Gnn.Tensor):
                raise TypeError("%s(): argument '%s' (position %d) must be Tensor, not %s"
                                % (name, arg, position, type(value).__name__))
        try:
            return c_op(input, other)
        except _GLib.Error as e:
            raise_torch_error(e)
    op.__name__ = op.__qualname__ = name
    op.__doc__ = 'torch.%s: elementwise, broadcasting, of two tensors.' % name
    return op


copysign = _math_binary('copysign', Gnn.Tensor.copysign)
fmax = _tensor_binary('fmax', Gnn.Tensor.fmax)
fmin = _tensor_binary('fmin', Gnn.Tensor.fmin)
logaddexp = _tensor_binary('logaddexp', Gnn.Tensor.logaddexp)
logaddexp2 = _tensor_binary('logaddexp2', Gnn.Tensor.logaddexp2)
nextafter = _tensor_binary('nextafter', Gnn.Tensor.nextafter)
heaviside = _tensor_binary('heaviside', Gnn.Tensor.heaviside, 'values')
ldexp = _tensor_binary('ldexp', Gnn.Tensor.ldexp)


@translating_errors
def float_power(input, exponent, *, out=None):
    """torch.float_power: input ** exponent in float64; either may be a number (taken as a
    float64 scalar, as torch takes it)."""
    _no_out('float_power', out)
    if not isinstance(input, Gnn.Tensor) and not isinstance(exponent, Gnn.Tensor):
        raise TypeError('float_power(): expected a Tensor, got %s and %s'
                        % (type(input).__name__, type(exponent).__name__))
    like = input if isinstance(input, Gnn.Tensor) else exponent

    def as_tensor(value, arg):
        if isinstance(value, Gnn.Tensor):
            return value
        if not _is_scalar(value):
            raise TypeError("float_power(): argument '%s' must be Tensor or Number, not %s"
                            % (arg, type(value).__name__))
        return Gnn.Tensor.new_scalar(float(value), Gnn.Dtype.FLOAT64, like.get_device())
    try:
        return Gnn.Tensor.float_power(as_tensor(input, 'input'), as_tensor(exponent, 'exponent'))
    except _GLib.Error as e:
        raise_torch_error(e)


__all__ += ['copysign', 'fmax', 'fmin', 'logaddexp', 'logaddexp2', 'nextafter', 'heaviside', 'ldexp',
            'float_power']


# the C methods, kept before Tensor.logit and Tensor.polygamma become torch's (names.py)
_c_logit, _c_polygamma = Gnn.Tensor.logit, Gnn.Tensor.polygamma


@_export
@translating_errors
def round(input, *, decimals=0, out=None):
    """torch.round: to the nearest integer, halves to even, or to `decimals` places."""
    _no_out('round', out)
    _check_tensor('round', input)
    try:
        return Gnn.Tensor.round_decimals(input, int(decimals))
    except _GLib.Error as e:
        raise_torch_error(e)


@_export
@translating_errors
def logit(input, eps=None, *, out=None):
    """torch.logit: log (p / (1 - p)), the input clamped to [eps, 1 - eps] when eps is given."""
    _no_out('logit', out)
    _check_tensor('logit', input)
    try:
        return _c_logit(input, -1.0 if eps is None else float(eps))
    except _GLib.Error as e:
        raise_torch_error(e)


@_export
@translating_errors
def polygamma(n, input, *, out=None):
    """torch.polygamma (n, input): the n-th derivative of the digamma function."""
    _no_out('polygamma', out)
    _check_tensor('polygamma', input)
    try:
        return _c_polygamma(input, int(n))
    except _GLib.Error as e:
        raise_torch_error(e)


def _tensor_polygamma(self, n):
    """Tensor.polygamma (n)."""
    return polygamma(n, self)


def _tensor_round(self, decimals=0):
    """Tensor.round (decimals=0)."""
    return round(self, decimals=decimals)


def _tensor_logit(self, eps=None):
    """Tensor.logit (eps=None)."""
    return logit(self, eps)


tensor_polygamma, tensor_round, tensor_logit = _tensor_polygamma, _tensor_round, _tensor_logit
__all__ += ['tensor_polygamma', 'tensor_round', 'tensor_logit']


# ---- linear algebra (gnn-ops-lapack.c) ----

@_export
def linalg_solve(A, B, *, left=True, out=None):
    """torch.linalg.solve: X with A X = B (left=False: X A = B, solved as Aᵀ Xᵀ = Bᵀ)."""
    _no_out('linalg.solve', out)
    _check_tensor('linalg.solve', A, 'A')
    _check_tensor('linalg.solve', B, 'B')
    if left:
        return Gnn.linalg_solve(A, B)
    return Gnn.linalg_solve(A.transpose(-1, -2), B.transpose(-1, -2)).transpose(-1, -2)


@_export
def linalg_inv(A, *, out=None):
    """torch.linalg.inv and torch.inverse."""
    _no_out('linalg.inv', out)
    _check_tensor('linalg.inv', A, 'A')
    return Gnn.linalg_inv(A)


@_export
def linalg_det(A, *, out=None):
    """torch.linalg.det and torch.det."""
    _no_out('linalg.det', out)
    _check_tensor('linalg.det', A, 'A')
    return Gnn.linalg_det(A)


def _slogdet(name, A, out):
    _no_out(name, out)
    _check_tensor(name, A, 'A')
    return Gnn.linalg_slogdet(A)


@_export
def linalg_slogdet(A, *, out=None):
    """torch.linalg.slogdet: the named tuple (sign, logabsdet)."""
    return return_types.linalg_slogdet(*_slogdet('linalg.slogdet', A, out))


@_export
def slogdet(input, *, out=None):
    """torch.slogdet / Tensor.slogdet: the named tuple (sign, logabsdet)."""
    return return_types.slogdet(*_slogdet('slogdet', input, out))


@_export
def logdet(input):
    """torch.logdet / Tensor.logdet: log det, NaN for a negative determinant, composed from
    slogdet as logabsdet + log (sign) (its grad_fn is the addition's)."""
    sign, logabsdet = _slogdet('logdet', input, None)
    return logabsdet + Gnn.Tensor.log(sign)


@_export
def linalg_matrix_exp(A):
    """torch.linalg.matrix_exp, torch.matrix_exp and Tensor.matrix_exp."""
    _check_tensor('linalg.matrix_exp', A, 'A')
    return Gnn.linalg_matrix_exp(A)


@_export
def linalg_householder_product(A, tau, *, out=None):
    """torch.linalg.householder_product, torch.orgqr and Tensor.orgqr."""
    _no_out('linalg.householder_product', out)
    _check_tensor('linalg.householder_product', A, 'A')
    _check_tensor('linalg.householder_product', tau, 'tau')
    return Gnn.linalg_householder_product(A, tau)


@_export
def linalg_cholesky(A, *, upper=False, out=None):
    """torch.linalg.cholesky: L with A = L Lᵀ (upper=True: U with A = Uᵀ U)."""
    _no_out('linalg.cholesky', out)
    _check_tensor('linalg.cholesky', A, 'A')
    return Gnn.linalg_cholesky(A, bool(upper))


# repeating, taking and selecting with masks (gnn/ops/gnn-ops-select.c)

@_export
def tile(input, dims):
    """torch.tile / Tensor.tile (dims): repeat with dims padded with leading ones."""
    _check_tensor('tile', input)
    return raising_torch_errors(Gnn.Tensor.tile)(input, _shape_args('tile', (dims,)))


@_export
def repeat_interleave(input, repeats=None, dim=None, *, output_size=None):
    """torch.repeat_interleave (input, repeats, dim=None, *, output_size=None), and
    torch.repeat_interleave (repeats): the indices repeated."""
    size = -1 if output_size is None else int(output_size)
    if repeats is None:
        _check_tensor('repeat_interleave', input, 'repeats')
        return raising_torch_errors(Gnn.repeat_interleave_counts)(input, size)
    _check_tensor('repeat_interleave', input)
    flatten = dim is None
    d = 0 if flatten else int(dim)
    if isinstance(repeats, Gnn.Tensor):
        return raising_torch_errors(Gnn.Tensor.repeat_interleave)(input, repeats, d, flatten, size)
    return raising_torch_errors(Gnn.Tensor.repeat_interleave_int)(input, int(repeats), d, flatten, size)


@_export
def take(input, index):
    """torch.take / Tensor.take: the elements of input flattened at index."""
    _check_tensor('take', input)
    _check_tensor('take', index, 'index')
    return raising_torch_errors(Gnn.Tensor.take)(input, index)


@_export
def take_along_dim(input, indices, dim=None, *, out=None):
    """torch.take_along_dim / Tensor.take_along_dim (indices, dim=None)."""
    _no_out('take_along_dim', out)
    _check_tensor('take_along_dim', input)
    _check_tensor('take_along_dim', indices, 'indices')
    return raising_torch_errors(Gnn.Tensor.take_along_dim)(input, indices, 0 if dim is None else int(dim),
                                                           dim is None)


@_export
def masked_select(input, mask, *, out=None):
    """torch.masked_select / Tensor.masked_select: input's elements where mask is true."""
    _no_out('masked_select', out)
    _check_tensor('masked_select', input)
    _check_tensor('masked_select', mask, 'mask')
    return raising_torch_errors(Gnn.Tensor.masked_select)(input, mask)


@_export
def masked_scatter(input, mask, source):
    """torch.masked_scatter / Tensor.masked_scatter: source's elements where mask is true."""
    _check_tensor('masked_scatter', input)
    _check_tensor('masked_scatter', mask, 'mask')
    _check_tensor('masked_scatter', source, 'source')
    return raising_torch_errors(Gnn.Tensor.masked_scatter)(input, mask, source)


def masked_scatter_(self, mask, source):
    """Tensor.masked_scatter_: in place, the mask broadcasting to the tensor's shape."""
    _check_tensor('masked_scatter_', mask, 'mask')
    expanded = Gnn.Tensor.expand(mask, list(self.get_shape()))
    Gnn.Tensor.copy_(self, Gnn.Tensor.masked_scatter(self, expanded, source))
    return self


@_export
def nonzero(input, *, out=None, as_tuple=False):
    """torch.nonzero / Tensor.nonzero: the coordinates of the non-zero elements, (n, ndim),
    or with as_tuple one tensor a dimension."""
    _no_out('nonzero', out)
    _check_tensor('nonzero', input)
    if as_tuple:
        return tuple(raising_torch_errors(Gnn.Tensor.nonzero_tuple)(input))
    return raising_torch_errors(Gnn.Tensor.nonzero)(input)


@_export
def argwhere(input):
    """torch.argwhere / Tensor.argwhere: nonzero (input)."""
    _check_tensor('argwhere', input)
    return raising_torch_errors(Gnn.Tensor.nonzero)(input)


Tensor.masked_scatter_ = raising_torch_errors(masked_scatter_)


# the linear-algebra functions above raise torch's classes too (torch.linalg.LinAlgError for a
# singular matrix or one that is not positive-definite: linalg_more.py)
for _name in ('linalg_solve', 'linalg_inv', 'linalg_det', 'linalg_slogdet', 'slogdet', 'logdet', 'linalg_matrix_exp',
              'linalg_householder_product', 'linalg_cholesky'):
    globals()[_name] = raising_torch_errors(globals()[_name])
del _name
