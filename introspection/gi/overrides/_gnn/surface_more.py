# more of torch's Python surface, composed from what gnn already has:
#   - the hyperparameters of the loss modules as the attributes torch's losses have
#     (loss.reduction, loss.ignore_index, loss.label_smoothing, loss.margin, ...), readable and
#     writable as torch's, over the GObject properties of the C losses;
#   - torch.utils.data's iterable-style datasets (IterableDataset, ChainDataset), get_worker_info
#     and default_convert;
#   - torch.autograd.backward, gradcheck / gradgradcheck, Variable, Tensor.is_leaf as a property;
#   - Tensor methods and torch functions: unfold and as_strided (views, gnn_tensor_unfold and
#     gnn_tensor_as_strided in C), the *_scatter and *_copy functions, new, apply_, the in-place
#     addmm_ family, torch 1.13's deprecated and removed linear algebra, storage, layout and
#     memory formats, igamma / igammac;
#   - torch namespace names: window functions, gradient, binomial, the generator state, global
#     switches, asarray, frombuffer, legacy tensor types and the torch.X spellings of functional
#     ops with aten's signatures (reductions as ints, native_* forms, recurrent cells and layers).
#
# The rows of names.py (the block at its end) make these torch.X, Tensor.X and the other
# namespaces' names.
#
# SPDX-License-Identifier: LGPL-2.1-or-later
from .base import Gnn

__all__ = []


def _export(fn):
    __all__.append(fn.__name__)
    return fn


# ---- the losses' hyperparameters as attributes ----
#
# torch's _Loss keeps `reduction` as a plain attribute, and each loss its own (ignore_index,
# label_smoothing, margin, p, eps, swap, full, log_input, log_target, delta, beta, blank,
# zero_infinity): the attribute reads and writes the C loss's property of that name, which the
# next forward uses. (weight and pos_weight are buffers, as torch's: the module's attribute
# lookup finds them.)

def _reduction_name(value):
    return value.value_nick.lower() if hasattr(value, 'value_nick') else str(value)


class _LossAttribute:
    """A data descriptor over the GObject property `prop` of a loss."""

    def __init__(self, name, prop):
        self.name, self.prop = name, prop

    def __get__(self, obj, owner=None):
        if obj is None:
            return self
        value = obj.get_property(self.prop)
        if self.prop == 'reduction':
            return _reduction_name(value)
        return value

    def __set__(self, obj, value):
        if self.prop == 'reduction':
            member = getattr(Gnn.Reduction, str(value).upper(), None) if isinstance(value, str) else None
            if member is None:
                raise ValueError('%s is not a valid value for reduction' % (value,))
            value = member
        obj.set_property(self.prop, value)


def _install_loss_attributes():
    from gi.repository import GObject
    module_type = Gnn.Module.__gtype__
    for name in dir(Gnn):
        cls = getattr(Gnn, name, None)
        if not isinstance(cls, type) or not issubclass(cls, Gnn.Loss):
            continue
        for pspec in GObject.list_properties(cls.__gtype__):
            if pspec.owner_type == module_type or pspec.value_type.is_a(Gnn.Tensor.__gtype__):
                continue
            if not pspec.flags & GObject.ParamFlags.READABLE:
                continue
            attr = pspec.name.replace('-', '_')
            if attr not in cls.__dict__:
                setattr(cls, attr, _LossAttribute(attr, pspec.name))


_install_loss_attributes()


# ---- torch.utils.data: iterable-style datasets ----
#
# DataLoader over an IterableDataset takes its samples from iter(dataset) in order, batch_size
# at a time (the last batch shorter unless drop_last), collated by collate_fn (default_collate;
# default_convert of each sample when batch_size is None). With num_workers = N > 0 each of N
# workers iterates its own copy of the dataset, with get_worker_info() giving its id, N, its
# seed and its copy, so that the dataset can split its stream as torch's documentation shows;
# the batches come in torch's order: one from each worker in turn, a worker that runs out
# leaving the round. The workers take turns on the calling thread (the Python code of a
# dataset holds the GIL either way), so their batches are torch's, in torch's order.

import collections.abc as _abc
import copy as _copy
import re as _re
import threading as _threading

from . import data as _data


class WorkerInfo:
    """torch.utils.data.get_worker_info()'s answer: id, num_workers, seed, dataset (read-only)."""
    __initialized = False

    def __init__(self, **kwargs):
        for k, v in kwargs.items():
            setattr(self, k, v)
        self.__keys = tuple(kwargs)
        self.__initialized = True

    def __setattr__(self, key, value):
        if self.__initialized:
            raise RuntimeError('Cannot assign attributes to %s objects' % type(self).__name__)
        super().__setattr__(key, value)

    def __repr__(self):
        return '%s(%s)' % (type(self).__name__,
                           ', '.join('%s=%s' % (k, getattr(self, k)) for k in self.__keys))


__all__.append('WorkerInfo')
_worker = _threading.local()


@_export
def get_worker_info():
    """torch.utils.data.get_worker_info: the WorkerInfo of the loader worker whose dataset code
    runs now, None outside a worker (num_workers=0 and the main program)."""
    return getattr(_worker, 'info', None)


_NP_STR_OBJ = _re.compile('[SaUO]')


@_export
def default_convert(data):
    """torch.utils.data.default_convert: numpy arrays (and numpy scalars) become tensors,
    mappings, named tuples and sequences are converted element by element, anything else is
    returned as it is."""
    elem_type = type(data)
    if isinstance(data, Gnn.Tensor):
        return data
    if elem_type.__module__ == 'numpy' and elem_type.__name__ not in ('str_', 'string_'):
        if elem_type.__name__ == 'ndarray' and _NP_STR_OBJ.search(data.dtype.str) is not None:
            return data
        from .functions import as_tensor
        return as_tensor(data)
    if isinstance(data, _abc.Mapping):
        try:
            return elem_type({key: default_convert(data[key]) for key in data})
        except TypeError:
            return {key: default_convert(data[key]) for key in data}
    if isinstance(data, tuple) and hasattr(data, '_fields'):
        return elem_type(*(default_convert(d) for d in data))
    if isinstance(data, tuple):
        return [default_convert(d) for d in data]
    if isinstance(data, _abc.Sequence) and not isinstance(data, (str, bytes)):
        try:
            return elem_type([default_convert(d) for d in data])
        except TypeError:
            return [default_convert(d) for d in data]
    return data


class IterableDataset(_data.MapDataset):
    """torch.utils.data.IterableDataset: a dataset of a stream of samples; subclasses define
    `__iter__`. `a + b` chains two of them (ChainDataset)."""

    def __iter__(self):
        raise NotImplementedError('Subclasses of IterableDataset should implement __iter__.')

    def __getitem__(self, index):
        raise NotImplementedError('Subclasses of Dataset should implement __getitem__.')

    def __add__(self, other):
        return ChainDataset([self, other])


__all__.append('IterableDataset')


class ChainDataset(IterableDataset):
    """torch.utils.data.ChainDataset(datasets): the samples of each iterable dataset in turn."""

    def __init__(self, datasets):
        super().__init__()
        self.datasets = datasets

    def __iter__(self):
        for d in self.datasets:
            if not isinstance(d, IterableDataset):
                raise AssertionError('ChainDataset only supports IterableDataset')
            for x in d:
                yield x

    def __len__(self):
        total = 0
        for d in self.datasets:
            if not isinstance(d, IterableDataset):
                raise AssertionError('ChainDataset only supports IterableDataset')
            total += len(d)
        return total


__all__.append('ChainDataset')

_loader_init = _data.DataLoader.__init__
_loader_iter = _data.DataLoader.__iter__
_loader_len = _data.DataLoader.__len__


def _loader_init_torch(self, dataset=None, batch_size=1, shuffle=None, sampler=None, batch_sampler=None,
                       num_workers=0, collate_fn=None, pin_memory=False, drop_last=False, timeout=0,
                       worker_init_fn=None, multiprocessing_context=None, generator=None, *,
                       prefetch_factor=2, persistent_workers=False, pin_memory_device='', **kwargs):
    if not isinstance(pin_memory_device, str):
        raise TypeError('pin_memory_device must be a str, not %s' % type(pin_memory_device).__name__)
    if not isinstance(dataset, IterableDataset):
        _loader_init(self, dataset, batch_size, bool(shuffle), sampler, batch_sampler, num_workers,
                     collate_fn, pin_memory, drop_last, timeout, worker_init_fn, multiprocessing_context,
                     generator, prefetch_factor=prefetch_factor, persistent_workers=persistent_workers,
                     **kwargs)
        self.pin_memory_device = pin_memory_device
        return
    if shuffle not in (False, None):
        raise ValueError('DataLoader with IterableDataset: expected unspecified shuffle option, '
                         'but got shuffle=%s' % (shuffle,))
    if sampler is not None:
        raise ValueError('DataLoader with IterableDataset: expected unspecified sampler option, '
                         'but got sampler=%s' % (sampler,))
    if batch_sampler is not None:
        raise ValueError('DataLoader with IterableDataset: expected unspecified batch_sampler '
                         'option, but got batch_sampler=%s' % (batch_sampler,))
    _data._check_worker_options(num_workers, timeout, prefetch_factor, persistent_workers)
    if batch_size is not None and (isinstance(batch_size, bool) or not isinstance(batch_size, int)
                                   or batch_size <= 0):
        raise ValueError('batch_size should be a positive integer value, but got batch_size=%s'
                         % (batch_size,))
    Gnn.DataLoader.__init__(self, batch_size=batch_size or 1, drop_last=bool(drop_last))
    d = self.__dict__
    d.update(num_workers=num_workers, pin_memory=pin_memory, timeout=timeout,
             worker_init_fn=worker_init_fn, prefetch_factor=prefetch_factor,
             persistent_workers=persistent_workers, generator=generator,
             pin_memory_device=pin_memory_device, multiprocessing_context=multiprocessing_context)
    if collate_fn is None:
        collate_fn = default_convert if batch_size is None else _data.default_collate
    self._setup(dataset, collate_fn, None, None, False, batch_size is None, True)
    d['_iterable'] = True
    d['_drop_last_iterable'] = bool(drop_last)


_loader_init_torch.__doc__ = _loader_init.__doc__
_data.DataLoader.__init__ = _loader_init_torch


def _worker_batches(loader, dataset):
    """The batches of one worker's pass over @dataset."""
    it = iter(dataset)
    if loader._unbatched:
        for sample in it:
            yield loader.collate_fn(sample)
        return
    size = loader.get_batch_size()
    while True:
        batch = []
        for sample in it:
            batch.append(sample)
            if len(batch) == size:
                break
        if not batch or (len(batch) < size and loader._drop_last_iterable):
            return
        yield loader.collate_fn(batch)
        if len(batch) < size:
            return


def _iterable_pass(loader):
    dataset = loader._py_dataset
    n = loader.num_workers
    if n == 0:
        yield from _worker_batches(loader, dataset)
        return
    base_seed = _data._seed_from(loader.generator)
    workers = []
    for wid in range(n):
        try:
            replica = _copy.deepcopy(dataset)
        except Exception:
            replica = dataset
        info = WorkerInfo(id=wid, num_workers=n, seed=base_seed + wid, dataset=replica)
        workers.append((info, replica, [None]))
    previous = getattr(_worker, 'info', None)
    try:
        for info, replica, gen in workers:
            _worker.info = info
            if loader.worker_init_fn is not None:
                loader.worker_init_fn(info.id)
            gen[0] = _worker_batches(loader, replica)
        active = list(workers)
        while active:
            for w in list(active):
                _worker.info = w[0]
                try:
                    batch = next(w[2][0])
                except StopIteration:
                    active.remove(w)
                    continue
                finally:
                    _worker.info = previous
                yield batch
    finally:
        _worker.info = previous


def _loader_iter_torch(self):
    if self.__dict__.get('_iterable'):
        return _iterable_pass(self)
    return _loader_iter(self)


def _loader_len_torch(self):
    if self.__dict__.get('_iterable'):
        length = len(self._py_dataset)
        if not self._unbatched:
            b = self.get_batch_size()
            length = length // b if self._drop_last_iterable else -(-length // b)
        return length
    return _loader_len(self)


_data.DataLoader.__iter__ = _loader_iter_torch
_data.DataLoader.__len__ = _loader_len_torch


# ---- torch.autograd: backward, Variable, gradcheck, gradgradcheck ----

import warnings as _warnings


def _g():
    """The overridden Gnn module (its torch-shaped functions)."""
    from gi.repository import Gnn as overridden
    return overridden


def _as_tuple(value):
    if value is None:
        return None
    return (value,) if isinstance(value, Gnn.Tensor) else tuple(value)


@_export
def autograd_backward(tensors, grad_tensors=None, retain_graph=None, create_graph=False,
                      grad_variables=None, inputs=None):
    """torch.autograd.backward: the gradients of the sum of tensors[i] weighted by
    grad_tensors[i] (None: a scalar output's implicit 1) accumulate into the leaves' (or
    inputs') grad, in one pass of the engine."""
    if grad_variables is not None:
        _warnings.warn("'grad_variables' is deprecated. Use 'grad_tensors' instead.")
        if grad_tensors is not None:
            raise RuntimeError("'grad_tensors' and 'grad_variables' (deprecated) arguments both "
                               "passed to backward(). Please only use 'grad_tensors'.")
        grad_tensors = grad_variables
    if inputs is not None and len(_as_tuple(inputs)) == 0:
        raise RuntimeError("'inputs' argument to backward() cannot be empty.")
    tensors = _as_tuple(tensors)
    grads = _as_tuple(grad_tensors) or (None,) * len(tensors)
    if len(grads) != len(tensors):
        raise RuntimeError('grad can be implicitly created only for scalar outputs'
                           if len(grads) < len(tensors) else
                           'Mismatch in number of tensors: %d gradients for %d tensors'
                           % (len(grads), len(tensors)))
    for k, t in enumerate(tensors):
        if not t.requires_grad:
            raise RuntimeError('element %d of tensors does not require grad and does not have a '
                               'grad_fn' % k)
    if len(tensors) == 1:
        tensors[0].backward(grads[0], retain_graph, create_graph, inputs)
        return
    root = None
    for t, g in zip(tensors, grads):
        if g is None:
            if t.numel() != 1:
                raise RuntimeError('grad can be implicitly created only for scalar outputs')
            term = t.sum()
        else:
            if tuple(g.shape) != tuple(t.shape):
                raise RuntimeError('Mismatch in shape: grad_output[0] has a shape of %s and '
                                   'output[0] has a shape of %s.' % (g.shape, t.shape))
            term = (t * g).sum()
        root = term if root is None else root + term
    root.backward(None, retain_graph, create_graph, inputs)


class _VariableMeta(type):
    def __instancecheck__(cls, other):
        return isinstance(other, Gnn.Tensor)


class Variable(metaclass=_VariableMeta):
    """torch.autograd.Variable(data, requires_grad=False): since torch 0.4 a tensor; this
    returns a tensor that shares data's storage, detached, requiring grad as asked.
    isinstance(t, Variable) holds for every tensor."""

    def __new__(cls, data=None, requires_grad=False, volatile=False):
        if volatile:
            _warnings.warn('volatile was removed and now has no effect. Use `with torch.no_grad():` '
                           'instead.')
        if data is None:
            data = _g().empty(0)
        if not isinstance(data, Gnn.Tensor):
            raise TypeError('Variable data has to be a tensor, but got %s' % type(data).__name__)
        out = data.detach()
        if requires_grad:
            out.requires_grad_(True)
        return out


__all__.append('Variable')


class GradcheckError(RuntimeError):
    """torch.autograd.gradcheck.GradcheckError: raised by gradcheck / gradgradcheck when a check
    fails and raise_exception is True."""


__all__.append('GradcheckError')


def _differentiable(t):
    return isinstance(t, Gnn.Tensor) and t.is_floating_point()


def _outputs_of(func, inputs):
    out = func(*inputs)
    return (out,) if isinstance(out, Gnn.Tensor) else tuple(out)


def _numerical_jacobians(func, inputs, wrt, eps):
    """[output][input] numpy arrays (numel_in x numel_out) of central differences. The
    perturbed inputs are new leaves that require grad where the original does (func may
    differentiate inside, as gradgradcheck's does)."""
    import numpy as np
    G = _g()
    base = {k: inputs[k].detach().numpy().astype(np.float64) for k in wrt}

    def run(k=None, idx=None, step=0.0):
        args = list(inputs)
        for m in wrt:
            arr = base[m]
            if m == k:
                arr = arr.copy()
                arr.flat[idx] += step
            args[m] = G.tensor(arr, dtype=inputs[m].dtype, requires_grad=True)
        return [o.detach().numpy().astype(np.float64).ravel() if _differentiable(o) else None
                for o in _outputs_of(func, args)]

    outs0 = run()
    jac = [[np.zeros((inputs[k].numel(), 0 if o is None else o.size)) for k in wrt] for o in outs0]
    for col, k in enumerate(wrt):
        for idx in range(inputs[k].numel()):
            plus, minus = run(k, idx, eps), run(k, idx, -eps)
            for j, o in enumerate(outs0):
                if o is not None:
                    jac[j][col][idx] = (plus[j] - minus[j]) / (2 * eps)
    return outs0, jac


def _analytical_jacobians(outputs, inputs, wrt, check_grad_dtypes):
    import numpy as np
    G = _g()
    diff = [inputs[k] for k in wrt]
    jac = []
    for o in outputs:
        rows = [np.zeros((t.numel(), o.numel() if _differentiable(o) else 0)) for t in diff]
        if _differentiable(o) and o.requires_grad:
            for j in range(o.numel()):
                onehot = np.zeros(o.numel())
                onehot[j] = 1.0
                go = G.tensor(onehot.reshape(tuple(o.shape)), dtype=o.dtype)
                grads = G.autograd_grad([o], diff, [go], retain_graph=True, allow_unused=True)
                for c, (g, t) in enumerate(zip(grads, diff)):
                    if g is None:
                        continue
                    if tuple(g.shape) != tuple(t.shape):
                        raise GradcheckError('Gradient has incorrect size')
                    if check_grad_dtypes and g.dtype != t.dtype:
                        raise GradcheckError('Gradient has dtype mismatch')
                    rows[c][:, j] = g.detach().numpy().astype(np.float64).ravel()
        jac.append(rows)
    return jac


def _gradcheck(func, inputs, eps, atol, rtol, nondet_tol, check_grad_dtypes, what='Jacobian'):
    import numpy as np
    inputs = _as_tuple(inputs)
    wrt = [k for k, t in enumerate(inputs) if isinstance(t, Gnn.Tensor) and t.requires_grad]
    if not wrt:
        raise ValueError('gradcheck expects at least one input tensor to require gradient, but none '
                         'of the them have requires_grad=True.')
    for k in wrt:
        if inputs[k].dtype != _g().float64:
            _warnings.warn('Input #%d requires gradient and is not a double precision floating point. '
                           'This check will likely fail if all the inputs are not of double precision '
                           'floating point. ' % k)
    outputs = _outputs_of(func, inputs)
    analytical = _analytical_jacobians(outputs, inputs, wrt, check_grad_dtypes)
    again = _analytical_jacobians(outputs, inputs, wrt, check_grad_dtypes)
    for a_out, b_out in zip(analytical, again):
        for a, b in zip(a_out, b_out):
            if np.abs(a - b).max(initial=0.0) > nondet_tol:
                raise GradcheckError('Backward is not reentrant, i.e., running backward with same input '
                                     'and grad_output multiple times gives different values, although '
                                     'analytical gradient matches numerical gradient.The tolerance for '
                                     'nondeterminism was %s.' % (nondet_tol,))
    _, numerical = _numerical_jacobians(func, inputs, wrt, eps)
    for j, (a_out, n_out) in enumerate(zip(analytical, numerical)):
        for c, (a, n) in enumerate(zip(a_out, n_out)):
            if not np.allclose(a, n, rtol=rtol, atol=atol):
                raise GradcheckError('%s mismatch for output %d with respect to input %d,\n'
                                     'numerical:%s\nanalytical:%s\n' % (what, j, wrt[c], n, a))
    return True


@_export
def autograd_gradcheck(func, inputs, *, eps=1e-06, atol=1e-05, rtol=0.001, raise_exception=True,
                       check_sparse_nnz=False, nondet_tol=0.0, check_undefined_grad=True,
                       check_grad_dtypes=False, check_batched_grad=False,
                       check_batched_forward_grad=False, check_forward_ad=False,
                       check_backward_ad=True, fast_mode=False):
    """torch.autograd.gradcheck: compares the gradients of func at inputs (those that require
    grad, float64 as torch advises) with central finite differences of step eps; True when
    every entry is within atol + rtol * |numerical|, else a GradcheckError (or False with
    raise_exception=False). The checks gnn has no mode for (sparse, batched, forward AD) are
    accepted at their defaults; fast_mode runs the full check."""
    for name, value, default in (('check_sparse_nnz', check_sparse_nnz, False),
                                 ('check_batched_grad', check_batched_grad, False),
                                 ('check_batched_forward_grad', check_batched_forward_grad, False),
                                 ('check_forward_ad', check_forward_ad, False)):
        if value != default:
            raise NotImplementedError('gradcheck: %s=%r is not supported by gnn' % (name, value))
    if not check_backward_ad:
        return True
    try:
        return _gradcheck(func, inputs, eps, atol, rtol, nondet_tol, check_grad_dtypes)
    except GradcheckError:
        if raise_exception:
            raise
        return False


@_export
def autograd_gradgradcheck(func, inputs, grad_outputs=None, *, eps=1e-06, atol=1e-05, rtol=0.001,
                           gen_non_contig_grad_outputs=False, raise_exception=True, nondet_tol=0.0,
                           check_undefined_grad=True, check_grad_dtypes=False, check_batched_grad=False,
                           check_fwd_over_rev=False, check_rev_over_rev=True, fast_mode=False):
    """torch.autograd.gradgradcheck: gradcheck of the gradient of func (its vector-Jacobian
    product with grad_outputs; random ones, requiring grad, when None), which checks the
    second derivatives."""
    import numpy as np
    G = _g()
    if check_batched_grad or check_fwd_over_rev:
        raise NotImplementedError('gradgradcheck: batched and forward-over-reverse checks are not '
                                  'supported by gnn')
    if not check_rev_over_rev:
        return True
    inputs = _as_tuple(inputs)
    outputs = _outputs_of(func, inputs)
    if grad_outputs is None:
        rng = np.random.default_rng(0)
        grad_outputs = tuple(G.tensor(rng.standard_normal(tuple(o.shape)), dtype=o.dtype, requires_grad=True)
                             for o in outputs if _differentiable(o) and o.requires_grad)
    grad_outputs = _as_tuple(grad_outputs)
    n = len(inputs)
    wrt = [k for k, t in enumerate(inputs) if isinstance(t, Gnn.Tensor) and t.requires_grad]

    def first_derivatives(*args):
        ins, gos = args[:n], args[n:]
        outs = [o for o in _outputs_of(func, ins) if _differentiable(o) and o.requires_grad]
        grads = G.autograd_grad(outs, [ins[k] for k in wrt], list(gos), create_graph=True,
                                allow_unused=True)
        return tuple(g for g in grads if g is not None)

    try:
        return _gradcheck(first_derivatives, inputs + grad_outputs, eps, atol, rtol, nondet_tol,
                          check_grad_dtypes)
    except GradcheckError:
        if raise_exception:
            raise
        return False


# ---- Tensor.is_leaf: torch's property ----
#
# The C method gnn_tensor_is_leaf () is Python's t.is_leaf (); torch's is_leaf is a property.
# The property gives a bool that can also be called, so that both spellings keep working.

class _CallableBool(int):
    """True or False, which also answers a call (t.is_leaf () as t.is_leaf)."""

    def __call__(self):
        return bool(self)

    def __repr__(self):
        return repr(bool(self))

    __str__ = __repr__


_CALLABLE = (_CallableBool(0), _CallableBool(1))
_c_is_leaf = Gnn.Tensor.is_leaf


def _is_leaf(self):
    return _CALLABLE[bool(_c_is_leaf(self))]


def _install_is_leaf():
    from .tensor import Tensor
    Tensor.is_leaf = property(_is_leaf, doc='torch.Tensor.is_leaf: whether the tensor '
                                         'is a leaf of the graph (also callable, as gnn\'s method)')


_install_is_leaf()


# ---- Tensor methods: views of any geometry, the *_scatter functions, legacy spellings ----

import numbers as _numbers

from .errors import raising_torch_errors as _raising
from .tensor import Tensor as _Tensor


def _ints(name, value):
    if isinstance(value, _numbers.Integral):
        return [int(value)]
    return [int(v) for v in value]


@_export
def unfold(self, dimension, size, step):
    """Tensor.unfold(dimension, size, step): a view of the windows of `size` indices of
    `dimension`, `step` apart, in a new last dimension (gnn_tensor_unfold)."""
    return _raising(Gnn.Tensor.unfold)(self, int(dimension), int(size), int(step))


@_export
def as_strided(input, size, stride, storage_offset=None):
    """torch.as_strided(input, size, stride, storage_offset=None): a view of input's storage
    with that geometry; storage_offset None keeps input's own."""
    size, stride = _ints('as_strided', size), _ints('as_strided', stride)
    _check_offset(storage_offset)
    return _raising(Gnn.Tensor.as_strided)(input, size, stride,
                                           -1 if storage_offset is None else int(storage_offset))


def _check_offset(storage_offset):
    if storage_offset is not None and int(storage_offset) < 0:
        raise RuntimeError('Tensor: invalid storage offset %d' % int(storage_offset))


def _as_strided_checked(input, size, stride, storage_offset=None):
    _check_offset(storage_offset)
    return as_strided(input, size, stride, storage_offset)


def _scatter_into(name, input, src, view_of):
    """input with src written where view_of(input) looks, out of place and differentiable in
    both: the positions the view takes (view_of of a tensor of positions) get src's elements
    through scatter, the others keep input's."""
    G = _g()
    if not isinstance(input, Gnn.Tensor) or not isinstance(src, Gnn.Tensor):
        raise TypeError('%s(): arguments must be tensors' % name)
    shape = tuple(input.shape)
    where = view_of(G.arange(input.numel()).reshape(shape))
    if tuple(where.shape) != tuple(src.shape):
        raise RuntimeError('%s: expected src to have a size equal to the slice of self. src size = %s, '
                           'slice size = %s' % (name, list(src.shape), list(where.shape)))
    if where.numel() == 0:
        return input.clone()
    flat = input.reshape(-1).scatter(0, where.reshape(-1), src.to(input.dtype).reshape(-1))
    return flat.reshape(shape)


@_export
def as_strided_scatter(input, src, size, stride, storage_offset=None):
    """torch.as_strided_scatter: a copy of input (contiguous, as torch's) with src written into
    its as_strided(size, stride, storage_offset) view."""
    return _scatter_into('as_strided_scatter', input, src,
                         lambda t: as_strided(t, size, stride, storage_offset))


@_export
def diagonal_scatter(input, src, offset=0, dim1=0, dim2=1):
    """torch.diagonal_scatter: a copy of input with src written on the diagonal."""
    return _scatter_into('diagonal_scatter', input, src, lambda t: t.diagonal(offset, dim1, dim2))


@_export
def select_scatter(input, src, dim, index):
    """torch.select_scatter: a copy of input with src written at index of dim."""
    return _scatter_into('select_scatter', input, src, lambda t: t.select(dim, index))


@_export
def slice_scatter(input, src, dim=0, start=None, end=None, step=1):
    """torch.slice_scatter: a copy of input with src written into input[start:end:step] of dim."""
    def view(t):
        index = [slice(None)] * t.dim()
        index[dim] = slice(start, end, step)
        return t[tuple(index)]
    return _scatter_into('slice_scatter', input, src, view)


@_export
def narrow_copy(input, dim, start, length):
    """torch.narrow_copy: a contiguous copy of input.narrow(dim, start, length)."""
    return input.narrow(dim, start, length).clone().contiguous()


def _copy_of(view_name):
    def fn(input, *args, **kwargs):
        out = getattr(input, view_name)(*args, **kwargs)
        if isinstance(out, (tuple, list)):
            return [o.clone().contiguous() for o in out]
        return out.clone().contiguous()
    fn.__name__ = view_name.strip('_') + '_copy'
    fn.__doc__ = 'torch.%s_copy: a contiguous copy of what Tensor.%s gives.' % (view_name, view_name)
    return fn


def _view_copy(input, *args, **kwargs):
    return input.view(*args, **kwargs).clone().contiguous()


def _slice_copy(input, dim=0, start=None, end=None, step=1):
    index = [slice(None)] * input.dim()
    index[dim] = slice(start, end, step)
    return input[tuple(index)].clone().contiguous()


def _alias_copy(input):
    return input.clone().contiguous()


_COPY_FUNCTIONS = {
    'alias_copy': _alias_copy, 'view_copy': _view_copy, 'slice_copy': _slice_copy,
    'as_strided_copy': lambda input, size, stride, storage_offset=None:
        _as_strided_checked(input, size, stride, storage_offset).clone().contiguous(),
}
_COPY_FUNCTIONS['split_with_sizes_copy'] = lambda input, split_sizes, dim=0: [
    t.clone().contiguous() for t in input.split([int(n) for n in split_sizes], dim)]
for _view in ('detach', 'diagonal', 'expand', 'permute', 'select', 'split',
              'squeeze', 't', 'transpose', 'unbind', 'unfold', 'unsqueeze'):
    _COPY_FUNCTIONS[_view + '_copy'] = _copy_of(_view)
for _name, _fn in _COPY_FUNCTIONS.items():
    _fn.__name__ = _name
    globals()[_name] = _fn
    __all__.append(_name)
del _name, _fn, _view


@_export
def tensor_new(self, *args, device=None):
    """Tensor.new(...), torch's legacy constructor of a tensor of self's dtype (and device):
    new() an empty one, new(*sizes) or new(torch.Size) an uninitialized one of that shape,
    new(sequence) one holding the data, new(tensor) an alias of it."""
    G = _g()
    dev = device if device is not None else self.device
    if not args:
        return G.empty(0, dtype=self.dtype, device=dev)
    if len(args) == 1 and isinstance(args[0], Gnn.Tensor):
        if args[0].dtype != self.dtype:
            raise TypeError('expected %s (got %s)' % (self.type(), args[0].type()))
        return args[0].detach()
    if all(isinstance(a, _numbers.Integral) for a in args):
        return G.empty(*args, dtype=self.dtype, device=dev)
    if len(args) == 1 and type(args[0]).__name__ == 'Size':
        return G.empty(tuple(args[0]), dtype=self.dtype, device=dev)
    if len(args) == 1:
        return G.tensor(args[0], dtype=self.dtype, device=dev)
    raise TypeError('new(): invalid arguments')


def _elementwise_python(name, self, others, fn):
    """Writes fn(x, *others' elements) into each element of self (a CPU tensor), as torch's
    apply_ / map_ / map2_; no autograd."""
    import numpy as np
    G = _g()
    if self.device.type != 'cpu':
        raise TypeError('%s is only implemented on CPU tensors' % name)
    values = self.detach().numpy()
    arrays = [np.broadcast_to(o.detach().numpy(), values.shape) for o in others]
    out = np.empty(values.shape, dtype=values.dtype)
    for idx in np.ndindex(values.shape):
        args = [values[idx].item()] + [a[idx].item() for a in arrays]
        out[idx] = fn(*args)
    with G.no_grad():
        self.copy_(G.tensor(out, dtype=self.dtype))
    return self


@_export
def apply_(self, callable):
    """Tensor.apply_(callable): each element x becomes callable(x) (CPU, no autograd)."""
    return _elementwise_python('apply_', self, [], callable)


@_export
def map_(self, tensor, callable):
    """Tensor.map_(tensor, callable): each element x becomes callable(x, y), y the element of
    tensor (broadcast) at the same place."""
    return _elementwise_python('map_', self, [tensor], callable)


@_export
def map2_(self, x, y, callable):
    """Tensor.map2_(x, y, callable): callable(self element, x element, y element)."""
    return _elementwise_python('map2_', self, [x, y], callable)


def _inplace(name, signature):
    from .inplace import inplace_of
    compute = inplace_of(name, lambda source, *args, **kwargs: getattr(_g(), name)(source, *args, **kwargs))

    def method(self, a, b, *, beta=1, alpha=1):
        return compute(self, a, b, beta=beta, alpha=alpha)
    method.__name__ = method.__qualname__ = name + '_'
    method.__doc__ = 'Tensor.%s_%s: torch.%s written back into self.' % (name, signature, name)
    return method


addmm_ = _inplace('addmm', '(mat1, mat2, *, beta=1, alpha=1)')
addmv_ = _inplace('addmv', '(mat, vec, *, beta=1, alpha=1)')
addr_ = _inplace('addr', '(vec1, vec2, *, beta=1, alpha=1)')
baddbmm_ = _inplace('baddbmm', '(batch1, batch2, *, beta=1, alpha=1)')
addbmm_ = _inplace('addbmm', '(batch1, batch2, *, beta=1, alpha=1)')
__all__ += ['addmm_', 'addmv_', 'addr_', 'baddbmm_', 'addbmm_']


# torch 1.13's deprecated linear algebra: cholesky and symeig warn and answer, the removed
# ones raise torch's RuntimeError
_REMOVED = 'This function was deprecated since version 1.9 and is now removed.'


def _removed(instead, tuple_message=False):
    def fn(*args, **kwargs):
        if tuple_message:
            raise RuntimeError(str((_REMOVED, 'Please use the `torch.linalg.%s` function instead.' % instead)))
        raise RuntimeError(_REMOVED + ' Please use the `torch.linalg.%s` function instead.' % instead)
    return fn


solve = _removed('solve')
lstsq = _removed('lstsq', True)
eig = _removed('eig')
matrix_rank = _removed('matrix_rank', True)
for _fn, _name in ((solve, 'solve'), (lstsq, 'lstsq'), (eig, 'eig'), (matrix_rank, 'matrix_rank')):
    _fn.__name__ = _name
    _fn.__doc__ = 'torch.%s: removed in torch 1.9; raises torch\'s RuntimeError' % _name
    __all__.append(_name)
del _fn, _name


@_export
def cholesky(input, upper=False, *, out=None):
    """torch.cholesky (deprecated in torch 1.13, which warns): linalg.cholesky, transposed when
    upper."""
    _warnings.warn('torch.cholesky is deprecated in favor of torch.linalg.cholesky and will be removed '
                   'in a future PyTorch release.')
    if out is not None:
        raise NotImplementedError('cholesky: out= is not supported by gnn')
    L = _g().linalg_cholesky(input)
    return L.mT if upper else L


@_export
def symeig(input, eigenvectors=False, upper=True, *, out=None):
    """torch.symeig (deprecated in torch 1.13, which warns): (eigenvalues, eigenvectors) from
    linalg.eigh of the upper (or lower) triangle; the eigenvectors are an empty tensor unless
    asked for."""
    from .functions import _return_type
    _warnings.warn('torch.symeig is deprecated in favor of torch.linalg.eigh and will be removed in a '
                   'future PyTorch release.')
    G = _g()
    uplo = 'U' if upper else 'L'
    if eigenvectors:
        values, vectors = G.linalg_eigh(input, UPLO=uplo)
    else:
        values, vectors = G.linalg_eigvalsh(input, UPLO=uplo), G.empty(0, dtype=input.dtype)
    return _return_type('symeig', ('eigenvalues', 'eigenvectors'))(values, vectors)


# ---- kinds, memory and layout ----

class _TorchConstant:
    """A named torch constant: prints as torch.<name> and pickles by that name."""

    def __init__(self, name):
        self._name = name

    def __repr__(self):
        return 'torch.' + self._name

    def __reduce__(self):
        return self._name


class layout(_TorchConstant):
    """torch.layout: gnn's tensors are all torch.strided."""


strided = layout('strided')
__all__ += ['layout', 'strided']


class memory_format(_TorchConstant):
    """torch.memory_format: contiguous_format, channels_last, channels_last_3d, preserve_format."""


contiguous_format = memory_format('contiguous_format')
channels_last = memory_format('channels_last')
channels_last_3d = memory_format('channels_last_3d')
preserve_format = memory_format('preserve_format')
__all__ += ['memory_format', 'contiguous_format', 'channels_last', 'channels_last_3d', 'preserve_format']


def _layout(self):
    return strided


@_export
def pin_memory(self, device=None):
    """Tensor.pin_memory(): gnn's CPU tensors live in host memory that every backend reads, so
    this is a copy, as torch's (a pinned tensor is a new one)."""
    if self.device.type != 'cpu':
        raise RuntimeError('cannot pin \'%s\' only dense CPU tensors can be pinned' % self.type())
    return self.clone()


@_export
def is_pinned(self, device=None):
    """Tensor.is_pinned(): False (gnn has no page-locked memory)."""
    return False


@_export
def share_memory_(self):
    """Tensor.share_memory_(): gnn's workers are threads, which share all memory already;
    returns self, which is_shared() then reports."""
    self.__dict__['_gnn_shared'] = True
    return self


@_export
def is_shared(self):
    """Tensor.is_shared(): whether share_memory_() was called on this tensor."""
    return bool(self.__dict__.get('_gnn_shared', False))


@_export
def data_ptr(self):
    """Tensor.data_ptr(): the address of the first element (CPU tensors; 0 for an empty one)."""
    if self.numel() == 0:
        return 0
    return int(_raising(Gnn.Tensor.get_data_address)(self))


def _complex_only(name):
    def fn(self, *args, **kwargs):
        raise TypeError('%s: gnn has no complex dtypes (torch.%s is a complex dtype)'
                        % (name, {'cdouble': 'complex128', 'cfloat': 'complex64',
                                  'chalf': 'complex32'}.get(name, 'complex64')))
    fn.__name__ = name
    return fn


cdouble = _complex_only('cdouble')
cfloat = _complex_only('cfloat')
chalf = _complex_only('chalf')
__all__ += ['cdouble', 'cfloat', 'chalf']


@_export
def angle(input):
    """torch.angle of a real tensor: 0 where input >= 0, pi where it is negative, nan kept
    (integers give float); gnn has no complex dtypes."""
    import math
    G = _g()
    x = input if input.is_floating_point() else input.to(G.get_default_dtype())
    return G.where(x < 0, G.full_like(x, math.pi), x * 0)


@_export
def conj_physical(input):
    """torch.conj_physical of a real tensor: a copy."""
    return input.clone()


@_export
def conj_physical_(self):
    """Tensor.conj_physical_ of a real tensor: self, unchanged."""
    return self


def _storage_elements(tensor):
    """The elements of the memory a tensor views: what its root tensor (the one it is a view
    of, or itself) reaches, from the start of the storage."""
    root = Gnn.Tensor.get_base(tensor)
    if root is None:
        root = tensor
    if root.numel() == 0:
        return root.storage_offset()
    return root.storage_offset() + 1 + sum((n - 1) * st for n, st in zip(root.shape, root.stride()))


_STORAGE_NAMES = {'float32': 'Float', 'float64': 'Double', 'float16': 'Half', 'bfloat16': 'BFloat16',
                  'int64': 'Long', 'int32': 'Int', 'int16': 'Short', 'int8': 'Char', 'uint8': 'Byte',
                  'bool': 'Bool'}


class TypedStorage:
    """What Tensor.storage () gives: the memory a tensor is a view of, as a 1-D sequence of its
    dtype (torch.storage.TypedStorage's reading side: size, len, indexing, tolist, dtype,
    device, data_ptr, element_size, nbytes). Writes through indexing change every view."""

    def __init__(self, tensor):
        n = _storage_elements(tensor)
        self._flat = as_strided(tensor.detach(), [n], [1], 0)
        self.dtype = tensor.dtype
        self.device = tensor.device

    def size(self):
        return int(self._flat.numel())

    __len__ = size

    def element_size(self):
        return self._flat.element_size()

    def nbytes(self):
        return self.size() * self.element_size()

    def data_ptr(self):
        return data_ptr(self._flat)

    def tolist(self):
        return self._flat.tolist()

    def __getitem__(self, index):
        value = self._flat[index]
        return value.item() if isinstance(index, _numbers.Integral) else value.tolist()

    def __setitem__(self, index, value):
        self._flat[index] = value

    def __iter__(self):
        return iter(self.tolist())

    def _tensor(self):
        return self._flat

    def __repr__(self):
        return ' ' + '\n '.join(str(v) for v in self.tolist()) + '\n[%s of size %d]' % (
            type(self).__name__, self.size())


__all__.append('TypedStorage')


@_export
def storage(self):
    """Tensor.storage(): the TypedStorage of the memory self views."""
    return TypedStorage(self)


@_export
def storage_type(self):
    """Tensor.storage_type(): a class named as torch's (FloatStorage, LongStorage, ...)."""
    name = _STORAGE_NAMES.get(repr(self.dtype).replace('torch.', ''), 'Typed') + 'Storage'
    return type(name, (TypedStorage,), {'__module__': 'torch'})


# memory formats: contiguous () and to () take torch's memory_format; channels_last gives the
# NHWC strides torch gives (a 4-d tensor), channels_last_3d the NDHWC ones (5-d)

def _channels_last_copy(self, fmt):
    nd = 4 if fmt is channels_last else 5
    if self.dim() != nd:
        raise RuntimeError('required rank %d tensor to use %s format' % (nd, fmt._name))
    order = (0, 2, 3, 1) if nd == 4 else (0, 2, 3, 4, 1)
    back = (0, 3, 1, 2) if nd == 4 else (0, 4, 1, 2, 3)
    moved = self.permute(*order)
    if Gnn.Tensor.is_contiguous(moved):
        return self
    return Gnn.Tensor.contiguous(moved).permute(*back)


def _check_format(fmt):
    if fmt is not None and not isinstance(fmt, memory_format):
        raise TypeError("memory_format must be torch.memory_format, not %s" % type(fmt).__name__)


def _contiguous(self, memory_format=contiguous_format):
    """Tensor.contiguous(memory_format=torch.contiguous_format): self when it is already laid
    out so, else a copy; channels_last (4-d) and channels_last_3d (5-d) give the channels-last
    strides."""
    _check_format(memory_format)
    if memory_format in (channels_last, channels_last_3d):
        return _channels_last_copy(self, memory_format)
    if memory_format is preserve_format:
        raise RuntimeError('preserve memory format is unsupported by the contiguous operator')
    return _raising(Gnn.Tensor.contiguous)(self)


def _is_contiguous(self, memory_format=contiguous_format):
    """Tensor.is_contiguous(memory_format=torch.contiguous_format)."""
    _check_format(memory_format)
    if memory_format in (channels_last, channels_last_3d):
        nd = 4 if memory_format is channels_last else 5
        if self.dim() != nd:
            return False
        order = (0, 2, 3, 1) if nd == 4 else (0, 2, 3, 4, 1)
        return bool(Gnn.Tensor.is_contiguous(self.permute(*order)))
    return bool(Gnn.Tensor.is_contiguous(self))


_tensor_to = _Tensor.to


def _to(self, *args, memory_format=None, **kwargs):
    _check_format(memory_format)
    out = _tensor_to(self, *args, **kwargs)
    if memory_format in (channels_last, channels_last_3d):
        out = _channels_last_copy(out, memory_format)
    elif memory_format is contiguous_format:
        out = _raising(Gnn.Tensor.contiguous)(out)
    return out


_to.__doc__ = (_tensor_to.__doc__ or '') + ' memory_format= lays the result out as torch does.'


def _install_tensor_surface():
    _Tensor.layout = property(_layout, doc='torch.Tensor.layout: torch.strided')
    _Tensor.contiguous = _contiguous
    _Tensor.is_contiguous = _is_contiguous
    _Tensor.to = _to


_install_tensor_surface()


# ---- torch namespace: windows, gradient, binomial, generator state, global switches ----

import math as _math
import struct as _struct


def _window(name, values_of):
    def fn(window_length, periodic=True, *args, dtype=None, layout=None, device=None,
           requires_grad=False, pin_memory=False):
        import numpy as np
        G = _g()
        if window_length < 0:
            raise RuntimeError('%s requires non-negative window_length, got window_length=%d'
                               % (name, window_length))
        dtype = G.get_default_dtype() if dtype is None else dtype
        if not G.empty(0, dtype=dtype).is_floating_point():
            raise RuntimeError('%s expects floating point dtypes, got: %s' % (name, dtype))
        if window_length == 0:
            values = np.zeros(0)
        elif window_length == 1:
            values = np.ones(1)
        else:
            n = window_length + 1 if periodic else window_length
            values = values_of(n, *args)[:window_length]
        out = G.tensor(np.asarray(values, dtype=np.float64), dtype=dtype, device=device)
        return out.requires_grad_(True) if requires_grad else out
    fn.__name__ = name
    fn.__doc__ = 'torch.%s(window_length, periodic=True, ...): as torch\'s (periodic by default).' % name
    return fn


def _cosine_sum(n, *coefficients):
    import numpy as np
    k = np.arange(n)
    return sum(c * (-1) ** j * np.cos(2 * np.pi * j * k / (n - 1)) for j, c in enumerate(coefficients))


hann_window = _window('hann_window', lambda n: _cosine_sum(n, 0.5, 0.5))
hamming_window = _window('hamming_window', lambda n, alpha=0.54, beta=0.46: _cosine_sum(n, alpha, beta))
blackman_window = _window('blackman_window', lambda n: _cosine_sum(n, 0.42, 0.5, 0.08))


def _bartlett(n):
    import numpy as np
    k = np.arange(n)
    return 1 - np.abs(2 * k / (n - 1) - 1)


def _kaiser(n, beta=12.0):
    import numpy as np
    k = np.arange(n)
    return np.i0(beta * np.sqrt(np.clip(1 - ((k - (n - 1) / 2) / ((n - 1) / 2)) ** 2, 0, None))) / np.i0(beta)


bartlett_window = _window('bartlett_window', _bartlett)
kaiser_window = _window('kaiser_window', _kaiser)
__all__ += ['hann_window', 'hamming_window', 'blackman_window', 'bartlett_window', 'kaiser_window']


def _gradient_along(f, d, h, edge_order):
    """The central differences of f along dim d, spacing h: a number or a 1-D coordinate
    tensor (numpy's and torch's formulas)."""
    G = _g()
    n = f.shape[d]
    if n < edge_order + 1:
        raise RuntimeError('torch.gradient expected each dimension size to be at least edge_order+1')

    def part(start, stop):
        return f.narrow(d, start, stop - start)

    def along(c):
        shape = [1] * f.dim()
        shape[d] = c.numel()
        return c.reshape(shape)
    if isinstance(h, Gnn.Tensor):
        x = h.to(f.dtype)
        dx = x[1:] - x[:-1]
        hl, hr = along(dx[:-1]), along(dx[1:])
        a = -hr / (hl * (hl + hr))
        b = (hr - hl) / (hl * hr)
        c = hl / (hr * (hl + hr))
        inner = a * part(0, n - 2) + b * part(1, n - 1) + c * part(2, n)
        if edge_order == 1:
            first = (part(1, 2) - part(0, 1)) / dx[0]
            last = (part(n - 1, n) - part(n - 2, n - 1)) / dx[-1]
        else:
            h1, h2 = dx[0], dx[1]
            first = (-(2 * h1 + h2) / (h1 * (h1 + h2)) * part(0, 1) + (h1 + h2) / (h1 * h2) * part(1, 2)
                     - h1 / (h2 * (h1 + h2)) * part(2, 3))
            h1, h2 = dx[-2], dx[-1]
            last = (h2 / (h1 * (h1 + h2)) * part(n - 3, n - 2) - (h1 + h2) / (h1 * h2) * part(n - 2, n - 1)
                    + (2 * h2 + h1) / (h2 * (h1 + h2)) * part(n - 1, n))
    else:
        h = float(h)
        inner = (part(2, n) - part(0, n - 2)) / (2 * h)
        if edge_order == 1:
            first = (part(1, 2) - part(0, 1)) / h
            last = (part(n - 1, n) - part(n - 2, n - 1)) / h
        else:
            first = (-1.5 * part(0, 1) + 2 * part(1, 2) - 0.5 * part(2, 3)) / h
            last = (0.5 * part(n - 3, n - 2) - 2 * part(n - 2, n - 1) + 1.5 * part(n - 1, n)) / h
    return G.cat([first, inner, last], d)


@_export
def gradient(input, *, spacing=1, dim=None, edge_order=1):
    """torch.gradient(input, *, spacing=1, dim=None, edge_order=1): the derivative estimated
    by central differences in the interior and one-sided ones (first or second order) at the
    edges, along each dim; spacing a number, a list of numbers (one a dim) or a list of
    coordinate tensors. A tuple of tensors, differentiable."""
    G = _g()
    if edge_order not in (1, 2):
        raise RuntimeError('torch.gradient only supports edge_order=1 and edge_order=2.')
    f = input if input.is_floating_point() else input.to(G.get_default_dtype())
    if dim is None:
        dims = list(range(f.dim()))
    elif isinstance(dim, _numbers.Integral):
        dims = [int(dim)]
    else:
        dims = [int(d) for d in dim]
    dims = [d % f.dim() for d in dims]
    if isinstance(spacing, (list, tuple)):
        if len(spacing) != len(dims):
            raise RuntimeError('torch.gradient expected spacing to be unspecified, a scalar or a list of '
                               'length equal to \'self.dim() = %d\', since dim argument was not given, but '
                               'got a list of length %d' % (f.dim(), len(spacing)))
        hs = list(spacing)
    else:
        hs = [spacing] * len(dims)
    return tuple(_gradient_along(f, d, h, edge_order) for d, h in zip(dims, hs))


@_export
def binomial(count, prob, generator=None):
    """torch.binomial(count, prob, generator=None): a draw of Binomial(count, prob) per element
    (a float tensor of count's dtype), from gnn's generator (torch's draws differ)."""
    import numpy as np
    G = _g()
    if count.dtype != prob.dtype:
        raise RuntimeError('expected scalar type %s but found %s' % (count.dtype, prob.dtype))
    seed = int(G.randint(0, 2 ** 62, (1,), generator=generator).item())
    rng = np.random.default_rng(seed)
    n = count.detach().numpy()
    p = prob.detach().numpy()
    draws = rng.binomial(np.broadcast_to(n, np.broadcast_shapes(n.shape, p.shape)).astype(np.int64),
                         np.clip(p, 0.0, 1.0))
    return G.tensor(draws.astype(np.float64), dtype=count.dtype)


def _default_generator():
    return Gnn.Generator.get_default()


@_export
def get_rng_state():
    """torch.get_rng_state: the default generator's state (seed and offset) as a uint8 tensor,
    which set_rng_state takes back."""
    G = _g()
    g = _default_generator()
    raw = _struct.pack('<QQ', g.get_seed(), g.get_offset())
    return G.tensor(list(raw), dtype=G.uint8)


@_export
def set_rng_state(new_state):
    """torch.set_rng_state(new_state): restores a state get_rng_state gave."""
    G = _g()
    if not isinstance(new_state, Gnn.Tensor) or new_state.dtype != G.uint8:
        raise TypeError('expected a torch.ByteTensor, but got %s' % type(new_state).__name__)
    data = bytes(new_state.tolist())
    if len(data) != 16:
        raise RuntimeError('Expected either a THGeneratorState of size 16 (gnn\'s seed and offset) '
                           'but found the input RNG state size to be %d' % len(data))
    seed, offset = _struct.unpack('<QQ', data)
    _default_generator().set_state(seed, offset)


@_export
def seed():
    """torch.seed: seeds the default generator with a non-deterministic number, returned."""
    import os
    value = int.from_bytes(os.urandom(8), 'little') & ((1 << 63) - 1)
    _g().manual_seed(value)
    return value


class _Flags:
    deterministic = False
    warn_only = False
    matmul_precision = 'highest'
    interop_threads = None


@_export
def use_deterministic_algorithms(mode, *, warn_only=False):
    """torch.use_deterministic_algorithms(mode, *, warn_only=False): recorded; gnn's CPU kernels
    are deterministic already (a reduction's order does not depend on the threads)."""
    if not isinstance(mode, bool):
        raise TypeError('use_deterministic_algorithms expects a bool, but got %s' % type(mode).__name__)
    _Flags.deterministic, _Flags.warn_only = mode, bool(warn_only) and mode


@_export
def are_deterministic_algorithms_enabled():
    return _Flags.deterministic


@_export
def is_deterministic_algorithms_warn_only_enabled():
    return _Flags.warn_only


@_export
def set_deterministic_debug_mode(debug_mode):
    """torch.set_deterministic_debug_mode: 'default' / 0, 'warn' / 1, 'error' / 2."""
    names = {'default': 0, 'warn': 1, 'error': 2}
    if isinstance(debug_mode, str):
        if debug_mode not in names:
            raise RuntimeError('invalid value of debug_mode, expected one of `default`, `warn`, `error`, '
                               'but got %s' % debug_mode)
        debug_mode = names[debug_mode]
    if debug_mode not in (0, 1, 2):
        raise RuntimeError('invalid value of debug_mode, expected 0, 1, or 2, but got %s' % debug_mode)
    use_deterministic_algorithms(debug_mode != 0, warn_only=debug_mode == 1)


@_export
def get_deterministic_debug_mode():
    return 0 if not _Flags.deterministic else 1 if _Flags.warn_only else 2


@_export
def set_float32_matmul_precision(precision):
    """torch.set_float32_matmul_precision('highest' | 'high' | 'medium'): recorded; gnn's CPU
    matmul is always full float32."""
    if precision not in ('highest', 'high', 'medium'):
        _warnings.warn("%s is not one of 'highest', 'high', or 'medium'; the current "
                       "set_float32_matmul_precision call has no effect." % precision)
        return
    _Flags.matmul_precision = precision


@_export
def get_float32_matmul_precision():
    return _Flags.matmul_precision


@_export
def set_num_interop_threads(num):
    """torch.set_num_interop_threads: recorded (gnn runs ops one at a time; its intra-op
    threads are set_num_threads')."""
    if int(num) <= 0:
        raise RuntimeError('Expected positive number of threads')
    if _Flags.interop_threads is not None:
        raise RuntimeError('Error: cannot set number of interop threads after parallel work has '
                           'started or set_num_interop_threads called')
    _Flags.interop_threads = int(num)


@_export
def get_num_interop_threads():
    return _Flags.interop_threads if _Flags.interop_threads is not None else _g().get_num_threads()


@_export
def asarray(obj, *, dtype=None, device=None, copy=None, requires_grad=False):
    """torch.asarray(obj, *, dtype=None, device=None, copy=None, requires_grad=False): a tensor
    itself when nothing changes and copy is not True; anything tensor() takes otherwise
    (a numpy array is copied: gnn's storage is its own)."""
    G = _g()
    if isinstance(obj, Gnn.Tensor):
        out = obj
        if dtype is not None and out.dtype != dtype:
            if copy is False:
                raise ValueError("can't alias tensor from a different dtype: copy=False")
            out = out.to(dtype)
        if device is not None:
            out = out.to(device)
        if copy and out is obj:
            out = obj.clone()
    else:
        if copy is False and type(obj).__module__ == 'numpy':
            raise ValueError("can't alias a numpy array's memory in gnn: copy=False")
        out = G.as_tensor(obj, dtype=dtype, device=device)
    if requires_grad:
        out.requires_grad_(True)
    return out


@_export
def frombuffer(buffer, *, dtype, count=-1, offset=0, requires_grad=False):
    """torch.frombuffer(buffer, *, dtype, count=-1, offset=0, requires_grad=False): the
    buffer's bytes read as dtype (copied: gnn's storage is its own)."""
    import numpy as np
    G = _g()
    np_type = np.dtype(repr(dtype).replace('torch.', '').replace('bool', 'bool_'))
    view = memoryview(buffer).cast('B')
    if offset < 0 or offset >= max(len(view), 1) and len(view):
        raise ValueError('both buffer length (%d) and offset (%d) must be positive and offset must be less '
                         'than buffer length' % (len(view), offset))
    available = (len(view) - offset) // np_type.itemsize
    if count == 0 or (count < 0 and available * np_type.itemsize != len(view) - offset):
        raise ValueError('buffer length (%d bytes) after offset (%d bytes) must be a multiple of element '
                         'size (%d)' % (len(view), offset, np_type.itemsize))
    if count > available:
        raise ValueError('requested buffer length (%d * %d bytes) after offset (%d bytes) must not be greater '
                         'than actual buffer length (%d bytes)' % (count, np_type.itemsize, offset, len(view)))
    data = np.frombuffer(view, dtype=np_type, count=count, offset=offset)
    out = G.tensor(data.copy(), dtype=dtype)
    return out.requires_grad_(True) if requires_grad else out


# ---- torch.X spellings of functional ops, with aten's signatures (reductions as ints: 0 none,
# 1 mean, 2 sum; torch 1.13's torch.X losses default to 0, no reduction, as these do) ----

_REDUCTIONS = {0: 'none', 1: 'mean', 2: 'sum'}


def _reduction_of(value):
    if isinstance(value, str):
        return value
    return _REDUCTIONS[int(value)]


def _F(name):
    return getattr(_g(), 'functional_' + name)


@_export
def conv3d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    return _F('conv3d')(input, weight, bias, stride, padding, dilation, groups)


@_export
def conv_transpose3d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1):
    return _F('conv_transpose3d')(input, weight, bias, stride, padding, output_padding, groups, dilation)


@_export
def max_pool3d(input, kernel_size, stride=(), padding=0, dilation=1, ceil_mode=False):
    return _F('max_pool3d')(input, kernel_size, stride or None, padding, dilation, ceil_mode)


@_export
def max_pool1d_with_indices(input, kernel_size, stride=(), padding=0, dilation=1, ceil_mode=False):
    return _F('max_pool1d')(input, kernel_size, stride or None, padding, dilation, ceil_mode, True)


@_export
def pixel_shuffle(input, upscale_factor):
    return _F('pixel_shuffle')(input, upscale_factor)


@_export
def pixel_unshuffle(input, downscale_factor):
    return _F('pixel_unshuffle')(input, downscale_factor)


@_export
def channel_shuffle(input, groups):
    return _F('channel_shuffle')(input, groups)


@_export
def alpha_dropout(input, p, train):
    return _F('alpha_dropout')(input, p, train)


@_export
def feature_alpha_dropout(input, p, train):
    return _F('feature_alpha_dropout')(input, p, train)


def _inplace_dropout(name, functional):
    def fn(input, p, train):
        from .inplace import write_back
        if not train or p == 0:
            return input
        return write_back(input, _F(functional)(input.clone() if input.requires_grad else input, p, True))
    fn.__name__ = name
    fn.__doc__ = 'torch.%s(input, p, train): F.%s written back into input.' % (name, functional)
    return fn


alpha_dropout_ = _inplace_dropout('alpha_dropout_', 'alpha_dropout')
feature_alpha_dropout_ = _inplace_dropout('feature_alpha_dropout_', 'feature_alpha_dropout')
dropout_ = _inplace_dropout('dropout_', 'dropout')
__all__ += ['alpha_dropout_', 'feature_alpha_dropout_', 'dropout_']


@_export
def cosine_embedding_loss(input1, input2, target, margin=0.0, reduction=0):
    return _F('cosine_embedding_loss')(input1, input2, target, margin, reduction=_reduction_of(reduction))


@_export
def hinge_embedding_loss(input, target, margin=1.0, reduction=0):
    return _F('hinge_embedding_loss')(input, target, margin, reduction=_reduction_of(reduction))


@_export
def margin_ranking_loss(input1, input2, target, margin=0.0, reduction=0):
    return _F('margin_ranking_loss')(input1, input2, target, margin, reduction=_reduction_of(reduction))


@_export
def poisson_nll_loss(input, target, log_input, full, eps, reduction):
    return _F('poisson_nll_loss')(input, target, log_input, full, eps=eps, reduction=_reduction_of(reduction))


@_export
def triplet_margin_loss(anchor, positive, negative, margin=1.0, p=2.0, eps=1e-06, swap=False, reduction=0):
    return _F('triplet_margin_loss')(anchor, positive, negative, margin, p, eps, swap,
                                     reduction=_reduction_of(reduction))


@_export
def ctc_loss(log_probs, targets, input_lengths, target_lengths, blank=0, reduction=0, zero_infinity=False):
    return _F('ctc_loss')(log_probs, targets, input_lengths, target_lengths, blank,
                          _reduction_of(reduction), zero_infinity)


@_export
def constant_pad_nd(input, pad, value=0):
    return _F('pad')(input, tuple(pad), 'constant', value)


@_export
def instance_norm(input, weight, bias, running_mean, running_var, use_input_stats, momentum, eps,
                  cudnn_enabled):
    return _F('instance_norm')(input, running_mean, running_var, weight, bias, use_input_stats, momentum, eps)


@_export
def frobenius_norm(input, dim=None, keepdim=False):
    """torch.frobenius_norm(input, dim=None, keepdim=False): sqrt of the sum of squares."""
    if dim is None:
        return (input * input).sum().sqrt()
    return (input * input).sum(dim=tuple(_ints('frobenius_norm', dim)), keepdim=keepdim).sqrt()


@_export
def nuclear_norm(input, dim=None, keepdim=False):
    G = _g()
    if dim is None:
        return G.linalg_matrix_norm(input, 'nuc', keepdim=keepdim)
    return G.linalg_matrix_norm(input, 'nuc', dim=tuple(dim), keepdim=keepdim)


@_export
def norm_except_dim(v, pow=2, dim=0):
    """torch.norm_except_dim(v, pow=2, dim=0): the pow-norm over every dim but dim, kept as
    size-1 dims (weight_norm's g); dim=-1 the norm of all."""
    if dim == -1:
        return v.norm(pow)
    dims = tuple(d for d in range(v.dim()) if d != dim % v.dim())
    if not dims:
        return v.abs() if pow != 0 else v
    return (v.abs() ** pow).sum(dim=dims, keepdim=True) ** (1.0 / pow)


# torch.default_generator: the generator Gnn.manual_seed seeds (the one a draw without a
# generator= uses)
default_generator = Gnn.Generator.get_default()
__all__.append('default_generator')


@_export
def feature_dropout(input, p, train):
    """torch.feature_dropout(input, p, train): F.dropout2d's (whole channels) for (N, C, ...)."""
    return _F('dropout2d' if input.dim() == 4 else 'dropout3d' if input.dim() == 5 else 'dropout1d')(
        input, p, train)


feature_dropout_ = _inplace_dropout('feature_dropout_', 'dropout2d')
__all__.append('feature_dropout_')


@_export
def convolution(input, weight, bias, stride, padding, dilation, transposed, output_padding, groups):
    """torch.convolution (aten's): conv1d/2d/3d, or their transposed forms, by input's rank."""
    nd = input.dim() - 2
    if nd not in (1, 2, 3):
        raise RuntimeError('Expected 3D, 4D or 5D input to convolution, but got input of size: %s'
                           % list(input.shape))
    if transposed:
        return _F('conv_transpose%dd' % nd)(input, weight, bias, tuple(stride), tuple(padding),
                                            tuple(output_padding), groups, tuple(dilation))
    return _F('conv%dd' % nd)(input, weight, bias, tuple(stride), tuple(padding), tuple(dilation), groups)


# the recurrent cells, with aten's signatures (weights given, not a module's)

def _linear(x, w, b):
    out = x.matmul(w.t())
    return out if b is None else out + b


@_export
def rnn_tanh_cell(input, hx, w_ih, w_hh, b_ih=None, b_hh=None):
    return (_linear(input, w_ih, b_ih) + _linear(hx, w_hh, b_hh)).tanh()


@_export
def rnn_relu_cell(input, hx, w_ih, w_hh, b_ih=None, b_hh=None):
    return (_linear(input, w_ih, b_ih) + _linear(hx, w_hh, b_hh)).relu()


@_export
def lstm_cell(input, hx, w_ih, w_hh, b_ih=None, b_hh=None):
    """torch.lstm_cell(input, (h, c), w_ih, w_hh, b_ih=None, b_hh=None) -> (h', c')."""
    h, c = hx
    gates = _linear(input, w_ih, b_ih) + _linear(h, w_hh, b_hh)
    i, f, g, o = gates.chunk(4, -1)
    c2 = f.sigmoid() * c + i.sigmoid() * g.tanh()
    return o.sigmoid() * c2.tanh(), c2


@_export
def gru_cell(input, hx, w_ih, w_hh, b_ih=None, b_hh=None):
    gi = _linear(input, w_ih, b_ih).chunk(3, -1)
    gh = _linear(hx, w_hh, b_hh).chunk(3, -1)
    r = (gi[0] + gh[0]).sigmoid()
    z = (gi[1] + gh[1]).sigmoid()
    n = (gi[2] + r * gh[2]).tanh()
    return (1 - z) * n + z * hx


# the native_* forms: their outputs and the statistics they save

@_export
def native_layer_norm(input, normalized_shape, weight, bias, eps):
    """torch.native_layer_norm -> (output, mean, rstd), mean and rstd over the normalized dims
    kept as size-1 dims."""
    dims = tuple(range(input.dim() - len(normalized_shape), input.dim()))
    mean = input.mean(dim=dims, keepdim=True)
    rstd = (input.var(dim=dims, unbiased=False, keepdim=True) + eps).rsqrt()
    out = (input - mean) * rstd
    if weight is not None:
        out = out * weight
    if bias is not None:
        out = out + bias
    return out, mean.detach(), rstd.detach()   # (torch differentiates the output only)


@_export
def native_batch_norm(input, weight, bias, running_mean, running_var, training, momentum, eps):
    """torch.native_batch_norm -> (output, save_mean, save_invstd): the batch's mean and
    1/sqrt(var + eps) when training (running statistics updated as F.batch_norm does), empty
    tensors otherwise."""
    G = _g()
    out = _F('batch_norm')(input, running_mean, running_var, weight, bias, training, momentum, eps)
    if not training:
        return out, G.empty(0, dtype=input.dtype), G.empty(0, dtype=input.dtype)
    dims = tuple(d for d in range(input.dim()) if d != 1)
    mean = input.mean(dim=dims)
    invstd = (input.var(dim=dims, unbiased=False) + eps).rsqrt()
    return out, mean.detach(), invstd.detach()


@_export
def native_group_norm(input, weight, bias, N, C, HxW, group, eps):
    """torch.native_group_norm -> (output, mean, rstd), the statistics of shape (N, group)."""
    x = input.reshape(N, group, -1)
    mean = x.mean(dim=2)
    rstd = (x.var(dim=2, unbiased=False) + eps).rsqrt()
    out = ((x - mean.unsqueeze(2)) * rstd.unsqueeze(2)).reshape(input.shape)
    shape = [1, C] + [1] * (input.dim() - 2)
    if weight is not None:
        out = out * weight.reshape(shape)
    if bias is not None:
        out = out + bias.reshape(shape)
    return out, mean.detach(), rstd.detach()


@_export
def native_dropout(input, p, train):
    """torch.native_dropout -> (output, mask): the kept elements scaled by 1/(1-p), and the
    boolean mask of the kept ones (all kept unless train)."""
    G = _g()
    if train is False:
        return input.clone(), G.ones(input.shape, dtype=G.bool)
    if p >= 1:
        return input * 0, G.zeros(input.shape, dtype=G.bool)
    mask = G.rand(tuple(input.shape)) >= p
    return input * mask.to(input.dtype) * (1.0 / (1.0 - p)), mask


# ---- the regularized incomplete gamma functions (igamma / igammac, special.gammainc /
# gammaincc): the values from the series (x < a + 1) or the continued fraction (otherwise) in
# float64, the gradient in x from dP/dx = x^(a-1) e^(-x) / Gamma(a), none in a (as torch's) ----

def _gammainc_lower(a, x):
    """P(a, x) for one pair of numbers."""
    if _math.isnan(a) or _math.isnan(x) or a < 0 or x < 0 or (a == 0 and x == 0):
        return _math.nan
    if a == 0:
        return 1.0
    if x == 0:
        return 0.0
    if _math.isinf(x):
        return 1.0
    if _math.isinf(a):
        return 0.0
    log_front = a * _math.log(x) - x - _math.lgamma(a)
    if x < a + 1:
        term = total = 1.0 / a
        n = a
        for _ in range(10000):
            n += 1
            term *= x / n
            total += term
            if abs(term) < abs(total) * 1e-16:
                break
        return min(1.0, total * _math.exp(log_front))
    # Lentz's continued fraction for Q(a, x)
    tiny = 1e-300
    b = x + 1 - a
    c = 1 / tiny
    d = 1 / b
    h = d
    for i in range(1, 10000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1 / d
        delta = d * c
        h *= delta
        if abs(delta - 1) < 1e-16:
            break
    return max(0.0, 1.0 - _math.exp(log_front) * h)


def _gammainc_values(a, x, upper):
    import numpy as np
    G = _g()
    dtype = G.promote_types(a.dtype, x.dtype)
    if not G.empty(0, dtype=dtype).is_floating_point():
        dtype = G.get_default_dtype()
    an, xn = np.broadcast_arrays(a.detach().numpy().astype(np.float64), x.detach().numpy().astype(np.float64))
    out = np.vectorize(_gammainc_lower, otypes=[np.float64])(an, xn) if an.size else np.zeros(an.shape)
    if upper:
        out = 1.0 - out
    return G.tensor(out, dtype=dtype)


def _gammainc_function():
    from .function import autograd_Function

    class _Gammainc(autograd_Function):
        @staticmethod
        def forward(ctx, a, x, upper):
            ctx.save_for_backward(a, x)
            ctx.upper = upper
            return _gammainc_values(a, x, upper)

        @staticmethod
        def backward(ctx, grad):
            a, x = ctx.saved_tensors
            if ctx.needs_input_grad[0]:
                raise NotImplementedError('the derivative for \'igamma\' / \'igammac\' with respect to its '
                                          'first argument (a) is not implemented (as torch\'s)')
            ad, xd = a.to(grad.dtype), x.to(grad.dtype)
            density = (ad.sub(1) * xd.log() - xd - ad.lgamma()).exp()
            g = grad * (-density if ctx.upper else density)
            return None, g.sum_to_size(*x.shape) if tuple(g.shape) != tuple(x.shape) else g, None
    return _Gammainc


_GAMMAINC = []


def _gammainc(a, x, upper):
    G = _g()
    if not isinstance(a, Gnn.Tensor):
        a = G.tensor(a)
    if not isinstance(x, Gnn.Tensor):
        x = G.tensor(x)
    if not _GAMMAINC:
        _GAMMAINC.append(_gammainc_function())
    return _GAMMAINC[0].apply(a, x, upper)


@_export
def igamma(input, other, *, out=None):
    """torch.igamma / special.gammainc(input, other): the regularized lower incomplete gamma
    P(input, other); differentiable in other."""
    return _gammainc(input, other, False)


@_export
def igammac(input, other, *, out=None):
    """torch.igammac / special.gammaincc: the regularized upper incomplete gamma Q = 1 - P."""
    return _gammainc(input, other, True)


@_export
def igamma_(self, other):
    from .inplace import write_back
    return write_back(self, igamma(self.detach() if not self.requires_grad else self.clone(), other))


@_export
def igammac_(self, other):
    from .inplace import write_back
    return write_back(self, igammac(self.detach() if not self.requires_grad else self.clone(), other))


# the whole recurrent layers with aten's signatures (the .input forms: a padded input, the
# weights as a flat list w_ih, w_hh[, b_ih, b_hh] per layer and direction), run cell by cell

def _recurrent(cell, is_lstm, input, hx, params, has_biases, num_layers, dropout, train, bidirectional,
               batch_first):
    G = _g()
    dirs = 2 if bidirectional else 1
    per = 4 if has_biases else 2
    params = list(params)
    if len(params) != per * num_layers * dirs:
        raise RuntimeError('expected %d parameter tensors, got %d' % (per * num_layers * dirs, len(params)))
    x = input.transpose(0, 1) if batch_first else input
    h0 = list(hx) if is_lstm else [hx]
    layer_input = x
    finals = []
    for layer in range(num_layers):
        outputs = []
        for d in range(dirs):
            k = layer * dirs + d
            w = params[k * per:(k + 1) * per]
            w_ih, w_hh = w[0], w[1]
            b_ih, b_hh = (w[2], w[3]) if has_biases else (None, None)
            state = tuple(h[k] for h in h0) if is_lstm else h0[0][k]
            steps = range(layer_input.shape[0] - 1, -1, -1) if d == 1 else range(layer_input.shape[0])
            hs = [None] * layer_input.shape[0]
            for t in steps:
                state = cell(layer_input[t], state, w_ih, w_hh, b_ih, b_hh)
                hs[t] = state[0] if is_lstm else state
            outputs.append(G.stack(hs, 0))
            finals.append(state)
        layer_input = outputs[0] if dirs == 1 else G.cat(outputs, 2)
        if dropout and train and layer < num_layers - 1:
            layer_input = _F('dropout')(layer_input, dropout, True)
    out = layer_input.transpose(0, 1) if batch_first else layer_input
    if is_lstm:
        return out, G.stack([s[0] for s in finals], 0), G.stack([s[1] for s in finals], 0)
    return out, G.stack(finals, 0)


@_export
def lstm(input, hx, params, has_biases, num_layers, dropout, train, bidirectional, batch_first):
    """torch.lstm (aten's .input form) -> (output, h_n, c_n)."""
    return _recurrent(lstm_cell, True, input, hx, params, has_biases, num_layers, dropout, train,
                      bidirectional, batch_first)


@_export
def gru(input, hx, params, has_biases, num_layers, dropout, train, bidirectional, batch_first):
    """torch.gru (aten's .input form) -> (output, h_n)."""
    return _recurrent(gru_cell, False, input, hx, params, has_biases, num_layers, dropout, train,
                      bidirectional, batch_first)


@_export
def rnn_tanh(input, hx, params, has_biases, num_layers, dropout, train, bidirectional, batch_first):
    """torch.rnn_tanh (aten's .input form) -> (output, h_n)."""
    return _recurrent(rnn_tanh_cell, False, input, hx, params, has_biases, num_layers, dropout, train,
                      bidirectional, batch_first)


@_export
def rnn_relu(input, hx, params, has_biases, num_layers, dropout, train, bidirectional, batch_first):
    """torch.rnn_relu (aten's .input form) -> (output, h_n)."""
    return _recurrent(rnn_relu_cell, False, input, hx, params, has_biases, num_layers, dropout, train,
                      bidirectional, batch_first)


# ---- legacy tensor types (torch.FloatTensor(2, 3), isinstance(t, torch.LongTensor)) and
# build facts ----

class _LegacyTypeMeta(type):
    def __instancecheck__(cls, other):
        return isinstance(other, Gnn.Tensor) and repr(other.dtype) == repr(cls.dtype) and \
            other.device.type == 'cpu'

    def __repr__(cls):
        return "<class 'torch.%s'>" % cls.__name__


def _legacy_type(name, dtype_name):
    def __new__(cls, *args, device=None):
        G = _g()
        dtype = getattr(G, dtype_name)
        if len(args) == 1 and isinstance(args[0], Gnn.Tensor):
            if args[0].dtype != dtype:
                raise TypeError('expected %s (got %s)' % (name, args[0].type()))
            return args[0].detach()
        return tensor_new(G.empty(0, dtype=dtype), *args, device=device)

    class_dict = {'__new__': __new__, '__module__': 'torch',
                  '__doc__': 'torch.%s: the legacy constructor of %s CPU tensors, and the type '
                             'isinstance checks' % (name, dtype_name)}
    cls = _LegacyTypeMeta(name, (), class_dict)
    return cls


_LEGACY = {'FloatTensor': 'float32', 'DoubleTensor': 'float64', 'HalfTensor': 'float16',
           'BFloat16Tensor': 'bfloat16', 'LongTensor': 'int64', 'IntTensor': 'int32', 'ShortTensor': 'int16',
           'CharTensor': 'int8', 'ByteTensor': 'uint8', 'BoolTensor': 'bool'}
for _name, _dtype in _LEGACY.items():
    globals()[_name] = _legacy_type(_name, _dtype)
    __all__.append(_name)
del _name, _dtype


def _legacy_dtype(cls):
    return getattr(_g(), _LEGACY[cls.__name__])


_LegacyTypeMeta.dtype = property(_legacy_dtype)


@_export
def get_device(input):
    """torch.get_device(input): -1 for a CPU tensor, the device index otherwise."""
    return input.get_device_index() if hasattr(input, 'get_device_index') else (
        -1 if input.device.type == 'cpu' else (input.device.index or 0))


@_export
def is_storage(obj):
    """torch.is_storage: whether obj is what Tensor.storage () gives."""
    return isinstance(obj, TypedStorage)


_FLUSH = [False]


@_export
def set_flush_denormal(mode):
    """torch.set_flush_denormal(mode): recorded; True, as torch answers on x86 (gnn's kernels
    leave the FPU's denormal mode as it is)."""
    _FLUSH[0] = bool(mode)
    return True


_WARN_ALWAYS = [False]


@_export
def set_warn_always(b):
    """torch.set_warn_always(b): recorded (gnn's warnings go through Python's warnings module,
    whose filters decide)."""
    _WARN_ALWAYS[0] = bool(b)


@_export
def is_warn_always_enabled():
    return _WARN_ALWAYS[0]


@_export
def compiled_with_cxx11_abi():
    """torch.compiled_with_cxx11_abi: True (gnn is C; nothing of it depends on a C++ ABI)."""
    return True


# what this build has, in torch's has_* spelling: LAPACK (the decompositions), OpenMP-like
# threads, no CUDA/cuDNN/MKL/MKL-DNN/MPS here unless the CUDA backend loads
has_lapack = True
has_openmp = True
has_spectral = False
has_mkl = False
has_mkldnn = False
has_mps = False
has_cudnn = False
__all__ += ['has_lapack', 'has_openmp', 'has_spectral', 'has_mkl', 'has_mkldnn', 'has_mps', 'has_cudnn']


@_export
def adaptive_max_pool1d(input, output_size):
    """torch.adaptive_max_pool1d(input, output_size) -> (output, indices), aten's form."""
    return _F('adaptive_max_pool1d')(input, output_size, True)


@_export
def unsafe_chunk(input, chunks, dim=0):
    return input.chunk(chunks, dim)


@_export
def unsafe_split(input, split_size, dim=0):
    return input.split(split_size, dim)


@_export
def unsafe_split_with_sizes(input, split_sizes, dim=0):
    return input.split([int(n) for n in split_sizes], dim)


@_export
def set_default_tensor_type(t):
    """torch.set_default_tensor_type(t): a legacy CPU type (torch.DoubleTensor) or its name
    ('torch.FloatTensor') sets the default floating dtype, as torch's does."""
    name = t if isinstance(t, str) else getattr(t, '__name__', '')
    name = name.replace('torch.', '')
    if name not in _LEGACY:
        raise TypeError('invalid type object: only floating-point types are supported as the default type'
                        if not isinstance(t, str) else 'invalid type: %r' % t)
    dtype = getattr(_g(), _LEGACY[name])
    if not _g().empty(0, dtype=dtype).is_floating_point():
        raise TypeError('only floating-point types are supported as the default type')
    _g().set_default_dtype(dtype)


class autograd_graph_save_on_cpu:
    """torch.autograd.graph.save_on_cpu(pin_memory=False): a context manager under which the
    tensors autograd saves live in CPU memory. gnn's CPU tensors already do; a CUDA tensor's
    saved copy stays on its device (the values backward reads are the same)."""

    def __init__(self, pin_memory=False):
        self.pin_memory = pin_memory

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


autograd_graph_save_on_cpu.__name__ = autograd_graph_save_on_cpu.__qualname__ = 'save_on_cpu'
__all__.append('autograd_graph_save_on_cpu')
