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
