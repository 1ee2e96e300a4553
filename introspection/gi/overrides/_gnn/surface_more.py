# more of torch's Python surface, composed from what gnn already has:
#   - the hyperparameters of the loss modules as the attributes torch's losses have
#     (loss.reduction, loss.ignore_index, loss.label_smoothing, loss.margin, ...), readable and
#     writable as torch's, over the GObject properties of the C losses;
#   - torch.utils.data's iterable-style datasets (IterableDataset, ChainDataset), get_worker_info
#     and default_convert;
#   - torch.autograd.backward, gradcheck / gradgradcheck, Variable and autograd.graph's hooks;
#   - Tensor methods and torch functions that compose from existing ops (unfold, as_strided,
#     the *_scatter and *_copy functions, window functions, gradient, ...).
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
        elif isinstance(value, bool) or not isinstance(value, (int, float)):
            pass
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
    if num_workers < 0:
        raise ValueError('num_workers option should be non-negative; use num_workers=0 to '
                         'disable multiprocessing.')
    if timeout < 0:
        raise ValueError('timeout option should be non-negative')
    if num_workers == 0 and prefetch_factor != 2:
        raise ValueError('prefetch_factor option could only be specified in multiprocessing.'
                         'let num_workers > 0 to enable multiprocessing.')
    if persistent_workers and num_workers == 0:
        raise ValueError('persistent_workers option needs num_workers > 0')
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
