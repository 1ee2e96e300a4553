# data: datasets, samplers, the loader (torch.utils.data), transforms and datasets
# (torchvision.transforms, torchvision.datasets)
#
# The transforms and Fashion-MNIST are C (gnn/data); what is here is their torch-shaped
# surface and what only Python has: map-style datasets of any items, default_collate,
# samplers, Subset, ConcatDataset, random_split and Lambda.
#
# Random orders (shuffle, RandomSampler, random_split) come from gnn's Philox generator
# through the loader's shuffle, not from PyTorch's randperm, so they differ from torch's for the
# same seed; each is reproducible after Gnn.manual_seed (or from its generator).
#
# SPDX-License-Identifier: LGPL-2.1-or-later
import bisect as _bisect
import collections.abc as _abc
import itertools as _itertools
import numbers as _numbers

from .base import Gnn, override
from .errors import raising_torch_errors
from .tensor import tensor as _tensor

__all__ = []

_MASK64 = (1 << 64) - 1


def _seed_from(generator):
    """A loader seed drawn from @generator (the default one for None): each call advances it,
    so that successive draws differ and replay after manual_seed."""
    g = generator if generator is not None else Gnn.Generator.get_default()
    offset = g.reserve(1)
    return (g.get_seed() * 0x9E3779B97F4A7C15 + offset * 0xBF58476D1CE4E5B9 + 1) & _MASK64


def _count_dataset(n):
    """A Gnn.Dataset of @n samples that only has a length: the loader's orders for datasets
    written in Python."""
    if not _count_dataset.__dict__.get('type'):
        from gi.repository import GObject
        from gi.repository import Gnn as loaded   # the interface as overridden: PyGObject needs it

        class _Count(GObject.Object, loaded.Dataset):
            __gtype_name__ = 'GnnPythonSampleCount'
            __module__ = 'gnn.utils.data'   # PyGObject finds no implementor in gi.overrides

            def __init__(self, n):
                super().__init__()
                self.n = n

            def do_get_length(self):
                return self.n

            def do_fill_item(self, index, sample):
                raise NotImplementedError('a sample count has no samples')
        _count_dataset.type = _Count
    return _count_dataset.type(n)


def _permutation(n, generator=None):
    """A random order of range(n): torch.randperm (gnn_tensor_new_randperm, the shuffle of
    the data loader drawn from the generator's stream)."""
    if n == 0:
        return []
    return list(Gnn.Tensor.new_randperm(n, Gnn.Dtype.INT64, generator, None).to_int64s())


# ---- the loader ----------------------------------------------------------------------

def default_collate(batch):
    """torch.utils.data.default_collate: tensors are stacked, ints become an int64 tensor,
    floats a float64 one, bools a bool one, strings stay a list; mappings and sequences are
    collated field by field (a tuple gives a list, as in torch 1.13)."""
    elem = batch[0]
    if isinstance(elem, Gnn.Tensor):
        return Gnn.stack(list(batch), 0)
    if type(elem).__module__ == 'numpy' and hasattr(elem, 'dtype'):
        return default_collate([_tensor(b) for b in batch])
    if isinstance(elem, bool):
        return _tensor(list(batch), dtype=Gnn.Dtype.BOOL)
    if isinstance(elem, _numbers.Integral):
        return _tensor(list(batch), dtype=Gnn.Dtype.INT64)
    if isinstance(elem, _numbers.Real):
        return _tensor(list(batch), dtype=Gnn.Dtype.FLOAT64)
    if isinstance(elem, (str, bytes)):
        return list(batch)
    if isinstance(elem, _abc.Mapping):
        return {key: default_collate([d[key] for d in batch]) for key in elem}
    if isinstance(elem, tuple) and hasattr(elem, '_fields'):
        return type(elem)(*(default_collate(list(s)) for s in zip(*batch)))
    if isinstance(elem, _abc.Sequence):
        if any(len(e) != len(elem) for e in batch):
            raise RuntimeError('each element in list of batch should be of equal size')
        return [default_collate(list(s)) for s in zip(*batch)]
    raise TypeError('default_collate: batch must contain tensors, numpy arrays, numbers, dicts '
                    'or lists; found %s' % type(elem).__name__)


__all__.append('default_collate')


def _gnn_dataset_of(dataset):
    """The Gnn.Dataset whose C batches are what default_collate makes of @dataset's items, or
    None (then the loader collates in Python)."""
    if isinstance(dataset, Gnn.Dataset):
        return dataset
    return getattr(dataset, '_gnn_dataset', None)


_NOT_GIVEN = object()


@raising_torch_errors
def _next_batch(it):
    """The next batch of the pass @it, a dataset's or transform's error as torch raises it."""
    return it.next()


def _check_worker_options(num_workers, timeout, prefetch_factor, persistent_workers):
    """DataLoader's checks of its worker options, as torch's."""
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


class DataLoader(Gnn.DataLoader):
    """torch.utils.data.DataLoader, with torch 1.13's signature:
    `DataLoader(dataset, batch_size=1, shuffle=False, sampler=None, batch_sampler=None,
    num_workers=0, collate_fn=None, pin_memory=False, drop_last=False, timeout=0,
    worker_init_fn=None, multiprocessing_context=None, generator=None, *, prefetch_factor=2,
    persistent_workers=False)`, plus gnn's keywords `seed=` (a fixed seed: every pass has the
    order of the current #GnnDataLoader:epoch, which set_epoch() changes) and `transform=` (a
    Gnn.Transform of each batch's first tensor).

    Iterating gives batches; `len()` the number of batches, `loader[i]` batch i,
    `loader.dataset` the dataset. A Gnn.Dataset (TensorDataset, FashionMNIST, a Gnn.Dataset
    written in Python) without collate_fn or sampler is batched in C and gives tuples of
    tensors; anything else (a map-style Python dataset, collate_fn, sampler, batch_sampler)
    is collated in Python by `collate_fn` (default_collate).

    With shuffle and no seed, each pass has a new order, as torch's, drawn from `generator`
    (the default generator when None) when the loader is made: the orders are gnn's (Philox),
    not torch's randperm, and replay after Gnn.manual_seed. Without a seed, each pass is also
    a new epoch for the random transforms (RandomCrop, RandomHorizontalFlip) of a loader
    batched in C: their draws come from the seed, the epoch and the batch's number, so that
    a pass repeats exactly after Gnn.manual_seed whatever num_workers is (a transform written
    in Python that draws from Python's or numpy's generators sees its draws in the order the
    workers run).

    num_workers > 0, for a loader batched in C, makes the batches in that many C worker
    threads (no processes, no fork), at most num_workers * prefetch_factor batches ahead, and
    gives them in the order and with the values num_workers=0 gives; a Gnn.Dataset written in
    Python then runs its do_get_item in the workers, one at a time under the GIL (the wait for
    a batch releases it). A worker's error is raised at its batch. timeout > 0 raises
    RuntimeError when a batch takes longer, as torch's. For a loader collated in Python
    (collate_fn, sampler, batch_sampler, a map-style Python dataset) num_workers, prefetch_factor
    and timeout have no effect: the Python code that makes those batches would hold the GIL
    in a thread as on the calling thread, so the batches are made there, in the same order.

    Accepted without effect: pin_memory (host memory is what the CPU backend uses),
    worker_init_fn, multiprocessing_context and persistent_workers (a pass's workers are
    threads that start with the pass and end with it)."""

    def __init__(self, dataset=None, batch_size=1, shuffle=False, sampler=None, batch_sampler=None,
                 num_workers=0, collate_fn=None, pin_memory=False, drop_last=False, timeout=0,
                 worker_init_fn=None, multiprocessing_context=None, generator=None, *,
                 prefetch_factor=2, persistent_workers=False, seed=None, transform=None, **kwargs):
        if dataset is None:   # a GObject construction by properties
            Gnn.DataLoader.__init__(self, **kwargs)
            self._setup(None, None, None, None, False)
            if transform is not None:
                self.set_transform(transform)
            return
        _check_worker_options(num_workers, timeout, prefetch_factor, persistent_workers)
        if sampler is not None and shuffle:
            raise ValueError('sampler option is mutually exclusive with shuffle')
        if batch_sampler is not None:
            if batch_size != 1 or shuffle or sampler is not None or drop_last:
                raise ValueError('batch_sampler option is mutually exclusive with batch_size, '
                                 'shuffle, sampler, and drop_last')
        if batch_size is not None and (isinstance(batch_size, bool) or not isinstance(batch_size, int)
                                       or batch_size <= 0):
            # torch's ValueError, as the GError C gives for 0 (a GLib.Error and a ValueError)
            from .errors import error_class
            raise error_class(Gnn.Error.INVALID_ARGUMENT)(
                'batch_size should be a positive integer value, but got batch_size=%s' % (batch_size,),
                'gnn-error-quark', int(Gnn.Error.INVALID_ARGUMENT))
        gnn_dataset = _gnn_dataset_of(dataset)
        python_side = (gnn_dataset is None or collate_fn is not None or sampler is not None
                       or batch_sampler is not None or batch_size is None)
        order_dataset = _count_dataset(len(dataset)) if python_side else gnn_dataset
        auto_epoch = seed is None
        if seed is None:
            seed = _seed_from(generator) if shuffle else 0
        Gnn.DataLoader.__init__(self, dataset=order_dataset, batch_size=batch_size or 1,
                                shuffle=bool(shuffle), seed=seed, drop_last=bool(drop_last),
                                **kwargs)
        if transform is not None:
            self.set_transform(transform)
        if not python_side:
            self.set_num_workers(num_workers)
            self.set_prefetch_factor(prefetch_factor)
            self.set_timeout(float(timeout))
        self.num_workers = num_workers
        self.pin_memory = pin_memory
        self.timeout = timeout
        self.worker_init_fn = worker_init_fn
        self.prefetch_factor = prefetch_factor
        self.persistent_workers = persistent_workers
        self.generator = generator
        self._setup(dataset, collate_fn if python_side else None, sampler, batch_sampler,
                    auto_epoch, batch_size is None, python_side)

    def _setup(self, dataset, collate_fn, sampler, batch_sampler, auto_epoch, unbatched=False,
               python_side=False):
        self._py_dataset = dataset
        self.collate_fn = collate_fn
        # the caller's samplers, which decide how batches are made; the properties sampler and
        # batch_sampler give torch's defaults when these are None
        self._sampler = sampler
        self._batch_sampler = batch_sampler
        self._default_samplers = None
        self._auto_epoch = auto_epoch
        self._unbatched = unbatched
        self._python_side = python_side
        self._passes = 0
        self._initialized = True

    @property
    def dataset(self):
        d = self.__dict__.get('_py_dataset')
        return d if d is not None else self.get_dataset()

    @property
    def batch_size(self):
        return None if self.__dict__.get('_unbatched') else self.get_batch_size()

    @property
    def drop_last(self):
        return self.props.drop_last

    def _defaults(self):
        """torch's default samplers, made once: SequentialSampler or (with shuffle)
        RandomSampler over the dataset, and a BatchSampler of it unless batch_size is None."""
        if self.__dict__.get('_default_samplers') is None:
            sampler = self.__dict__.get('_sampler')
            if sampler is None:
                if self.props.shuffle:
                    sampler = RandomSampler(self.dataset, generator=self.__dict__.get('generator'))
                else:
                    sampler = SequentialSampler(self.dataset)
            batch_sampler = self.__dict__.get('_batch_sampler')
            if batch_sampler is None and not self.__dict__.get('_unbatched'):
                batch_sampler = BatchSampler(sampler, self.get_batch_size(), self.props.drop_last)
            self._default_samplers = (sampler, batch_sampler)
        return self._default_samplers

    @property
    def sampler(self):
        """The sampler given, or torch's default: SequentialSampler(dataset), or
        RandomSampler(dataset, generator=generator) with shuffle. The loader's own shuffled
        order (batched in C) is drawn as the class documentation says; iterating this
        RandomSampler draws another order."""
        return self._defaults()[0]

    @property
    def batch_sampler(self):
        """The batch sampler given, or torch's default BatchSampler(sampler, batch_size,
        drop_last); None when batch_size is None."""
        return self._defaults()[1]

    def __setattr__(self, name, value):
        if name in ('sampler', 'batch_sampler', 'batch_size', 'drop_last', 'dataset',
                    'persistent_workers') and self.__dict__.get('_initialized'):
            raise ValueError('%s attribute should not be set after %s is initialized'
                             % (name, type(self).__name__))
        super().__setattr__(name, value)

    def _index_batches(self):
        """The sample numbers of each batch of a pass collated in Python."""
        if self._batch_sampler is not None:
            return iter(self._batch_sampler)
        if self._sampler is not None:
            if self._unbatched:
                return ([i] for i in self._sampler)
            return iter(BatchSampler(self._sampler, self.get_batch_size(), self.props.drop_last))
        return (list(self.get_indices(b)) for b in range(self.get_n_items()))

    def _collate(self, indices):
        samples = [self._py_dataset[i] for i in indices]
        if self._unbatched:
            return samples[0] if self.collate_fn is None else self.collate_fn(samples[0])
        return (self.collate_fn or default_collate)(samples)

    def __len__(self):
        if self.__dict__.get('_batch_sampler') is not None:
            return len(self._batch_sampler)
        if self.__dict__.get('_sampler') is not None:
            n, b = len(self._sampler), self.get_batch_size()
            if self._unbatched:
                return n
            return n // b if self.props.drop_last else (n + b - 1) // b
        return self.get_n_items()

    def __getitem__(self, index):
        n = len(self)
        if index < 0:
            index += n
        if not 0 <= index < n:
            raise IndexError('batch %d is out of range for a loader of %d batches' % (index, n))
        if self.__dict__.get('_python_side'):
            return self._collate(next(_itertools.islice(self._index_batches(), index, None)))
        return tuple(self.get_batch(index))

    def __iter__(self):
        if self.__dict__.get('_auto_epoch'):
            if self._passes > 0:
                self.set_epoch(self.get_epoch() + 1)
            self._passes += 1
        if self.__dict__.get('_python_side'):
            for indices in self._index_batches():
                yield self._collate(indices)
            return
        # the pass is closed however the loop ends (a break, an error), with the GIL released
        # while the workers are joined, so that a worker in Python code can finish its batch
        it = self.iterate()
        try:
            while True:
                batch = _next_batch(it)
                if not batch:   # the end: PyGObject gives an empty list for the NULL array
                    return
                yield tuple(batch)
        finally:
            it.close()


DataLoader = override(DataLoader)
__all__.append('DataLoader')


class Dataset(Gnn.Dataset):
    """Implement a dataset in Python with `do_get_length (self)` and `do_get_item (self,
    index)` returning a sequence of tensors; `len(dataset)` and `dataset[i]` work on any
    dataset. A torch-style dataset (`__getitem__` returning anything) derives from
    Gnn.MapDataset (torch.utils.data.Dataset) instead."""

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        user = cls.__dict__.get('do_get_item')
        if user is not None and 'do_fill_item' not in cls.__dict__:
            def do_fill_item(self, index, sample, _user=user):
                for t in _user(self, index):
                    sample.append(t)
                return True
            do_fill_item._gnn_adapted = True
            cls.do_fill_item = do_fill_item

    def __len__(self):
        return self.get_length()

    def __getitem__(self, index):
        n = self.get_length()
        if isinstance(index, _numbers.Integral) and index < 0:
            index += n
        if not 0 <= index < n:
            raise IndexError('index %d is out of range for a dataset of %d samples' % (index, n))
        return tuple(self.get_item(index))

    def __add__(self, other):
        return ConcatDataset([self, other])


Dataset = override(Dataset)
__all__.append('Dataset')


class TensorDataset(Gnn.TensorDataset):
    """torch.utils.data.TensorDataset: `TensorDataset(*tensors)`, sample i the i-th row of
    each; `Gnn.TensorDataset.new([tensors])` is the same. `dataset.tensors` is the tuple."""

    def __new__(cls, *tensors, **kwargs):
        if tensors:
            return Gnn.TensorDataset.new(list(tensors))
        return super().__new__(cls)

    def __init__(self, *tensors, **kwargs):
        if not tensors:
            super().__init__(**kwargs)

    @property
    def tensors(self):
        return tuple(self.get_tensor(k) for k in range(self.get_n_tensors()))


TensorDataset = override(TensorDataset)
__all__.append('TensorDataset')


class MapDataset:
    """torch.utils.data.Dataset: a map-style dataset written in Python. Subclasses define
    `__getitem__ (self, index)`, returning any sample (tensors, numbers, tuples, dicts), and
    `__len__`; DataLoader collates the samples with default_collate or collate_fn."""

    def __getitem__(self, index):
        raise NotImplementedError('Subclasses of Dataset should implement __getitem__.')

    def __add__(self, other):
        return ConcatDataset([self, other])


# gnn.utils.data.Dataset is this class: it is named as torch's (Gnn.Dataset is the GObject
# interface that C datasets implement, so the Gnn module calls this one MapDataset)
MapDataset.__name__ = MapDataset.__qualname__ = 'Dataset'
__all__.append('MapDataset')


class Subset(MapDataset):
    """torch.utils.data.Subset: the samples of `dataset` at `indices`, in that order. Over a
    dataset that C batches (a Gnn.Dataset), the loader batches the subset in C too, through
    the C class GnnSubset (which this class stands for in Python: it also takes datasets
    written in Python)."""

    def __init__(self, dataset, indices):
        self.dataset = dataset
        self.indices = indices
        inner = _gnn_dataset_of(dataset)
        self._gnn_dataset = None
        if inner is not None and all(isinstance(i, _numbers.Integral) and 0 <= i < len(dataset)
                                     for i in indices):
            self._gnn_dataset = Gnn.Subset.new(inner, [int(i) for i in indices])

    def __getitem__(self, idx):
        if isinstance(idx, list):
            return self.dataset[[self.indices[i] for i in idx]]
        return self.dataset[self.indices[idx]]

    def __len__(self):
        return len(self.indices)


__all__.append('Subset')


class ConcatDataset(MapDataset):
    """torch.utils.data.ConcatDataset: the samples of each dataset, one after the other
    (through the C class GnnConcatDataset, batched in C, when every dataset is batched in C;
    this class stands for it in Python)."""

    def __init__(self, datasets):
        self.datasets = list(datasets)
        if not self.datasets:
            raise AssertionError('datasets should not be an empty iterable')
        self.cumulative_sizes = list(_itertools.accumulate(len(d) for d in self.datasets))
        inner = [_gnn_dataset_of(d) for d in self.datasets]
        self._gnn_dataset = None if None in inner else Gnn.ConcatDataset.new(inner)

    def __len__(self):
        return self.cumulative_sizes[-1]

    def __getitem__(self, idx):
        if idx < 0:
            if -idx > len(self):
                raise ValueError('absolute value of index should not exceed dataset length')
            idx = len(self) + idx
        which = _bisect.bisect_right(self.cumulative_sizes, idx)
        start = self.cumulative_sizes[which - 1] if which > 0 else 0
        return self.datasets[which][idx - start]


__all__.append('ConcatDataset')


def random_split(dataset, lengths, generator=None):
    """torch.utils.data.random_split: Subsets of the given lengths (or fractions summing to 1,
    the remainder spread one by one from the first, as torch 1.13) of a random order of the
    samples. The order comes from gnn's generator (`generator`, or the default one), not
    torch's randperm: the split differs from torch's for the same seed, and repeats for
    gnn's."""
    n = len(dataset)
    lengths = list(lengths)
    if lengths and abs(sum(lengths) - 1) < 1e-9 and sum(lengths) <= 1:
        counts = []
        for i, frac in enumerate(lengths):
            if frac < 0 or frac > 1:
                raise ValueError('Fraction at index %d is not between 0 and 1' % i)
            counts.append(int(n * frac))
        for i in range(n - sum(counts)):
            counts[i % len(counts)] += 1
        lengths = counts
    if sum(lengths) != n:
        raise ValueError('Sum of input lengths does not equal the length of the input dataset!')
    order = _permutation(n, generator)
    out, offset = [], 0
    for length in lengths:
        out.append(Subset(dataset, order[offset:offset + length]))
        offset += length
    return out


__all__.append('random_split')


class Sampler:
    """torch.utils.data.Sampler: iterating gives sample numbers."""

    def __init__(self, data_source=None):
        pass

    def __iter__(self):
        raise NotImplementedError


__all__.append('Sampler')


class SequentialSampler(Sampler):
    """torch.utils.data.SequentialSampler: 0, 1, ..., len(data_source) - 1."""

    def __init__(self, data_source):
        self.data_source = data_source

    def __iter__(self):
        return iter(range(len(self.data_source)))

    def __len__(self):
        return len(self.data_source)


__all__.append('SequentialSampler')


class RandomSampler(Sampler):
    """torch.utils.data.RandomSampler(data_source, replacement=False, num_samples=None,
    generator=None): a new random order each pass, from gnn's generator (the orders differ
    from torch's)."""

    def __init__(self, data_source, replacement=False, num_samples=None, generator=None):
        if not isinstance(replacement, bool):
            raise TypeError('replacement should be a boolean value, but got replacement=%s'
                            % replacement)
        self.data_source = data_source
        self.replacement = replacement
        self._num_samples = num_samples
        self.generator = generator
        if not isinstance(self.num_samples, int) or self.num_samples <= 0:
            raise ValueError('num_samples should be a positive integer value, but got '
                             'num_samples=%s' % self.num_samples)

    @property
    def num_samples(self):
        return len(self.data_source) if self._num_samples is None else self._num_samples

    def __iter__(self):
        n = len(self.data_source)
        if self.replacement:
            draws = Gnn.Tensor.new_randint(0, n, [self.num_samples], self.generator, None)
            return iter(int(v) for v in draws.to_int64s())
        out = []
        while len(out) < self.num_samples:
            out += _permutation(n, self.generator)
        return iter(out[:self.num_samples])

    def __len__(self):
        return self.num_samples


__all__.append('RandomSampler')


class SubsetRandomSampler(Sampler):
    """torch.utils.data.SubsetRandomSampler(indices, generator=None): the given indices in a
    new random order each pass."""

    def __init__(self, indices, generator=None):
        self.indices = indices
        self.generator = generator

    def __iter__(self):
        for i in _permutation(len(self.indices), self.generator):
            yield self.indices[i]

    def __len__(self):
        return len(self.indices)


__all__.append('SubsetRandomSampler')


class WeightedRandomSampler(Sampler):
    """torch.utils.data.WeightedRandomSampler(weights, num_samples, replacement=True,
    generator=None): num_samples indices drawn with the probabilities the weights give
    (torch.multinomial), with or without replacement."""

    def __init__(self, weights, num_samples, replacement=True, generator=None):
        if not isinstance(num_samples, int) or isinstance(num_samples, bool) or num_samples <= 0:
            raise ValueError('num_samples should be a positive integer value, but got '
                             'num_samples=%s' % (num_samples,))
        if not isinstance(replacement, bool):
            raise ValueError('replacement should be a boolean value, but got replacement=%s'
                             % (replacement,))
        weights = weights if isinstance(weights, Gnn.Tensor) else _tensor(weights, dtype=Gnn.Dtype.FLOAT64)
        if weights.ndim != 1:
            raise ValueError('weights should be a 1d sequence but given weights have shape %s'
                             % (tuple(weights.shape),))
        self.weights = weights.to(Gnn.Dtype.FLOAT64)
        self.num_samples = num_samples
        self.replacement = replacement
        self.generator = generator

    def __iter__(self):
        from gi.repository import Gnn as overridden
        drawn = overridden.multinomial(self.weights, self.num_samples, self.replacement,
                                       generator=self.generator)
        return iter(drawn.tolist())

    def __len__(self):
        return self.num_samples


__all__.append('WeightedRandomSampler')


class BatchSampler(Sampler):
    """torch.utils.data.BatchSampler(sampler, batch_size, drop_last): lists of sample
    numbers."""

    def __init__(self, sampler, batch_size, drop_last):
        if not isinstance(batch_size, int) or isinstance(batch_size, bool) or batch_size <= 0:
            raise ValueError('batch_size should be a positive integer value, but got '
                             'batch_size=%s' % batch_size)
        if not isinstance(drop_last, bool):
            raise ValueError('drop_last should be a boolean value, but got drop_last=%s'
                             % drop_last)
        self.sampler = sampler
        self.batch_size = batch_size
        self.drop_last = drop_last

    def __iter__(self):
        batch = []
        for idx in self.sampler:
            batch.append(idx)
            if len(batch) == self.batch_size:
                yield batch
                batch = []
        if batch and not self.drop_last:
            yield batch

    def __len__(self):
        n = len(self.sampler)
        return n // self.batch_size if self.drop_last else (n + self.batch_size - 1) // self.batch_size


__all__.append('BatchSampler')


class Checkpoint(Gnn.Checkpoint):
    """`Gnn.Checkpoint(model=m, optimizer=o, scheduler=s, generator=g,
    averaged={'ema': e}, metadata={'epoch': '3'})`; `ckpt.save(path)`, `ckpt.load(path)`,
    `ckpt.metadata` (a dict of the caller's metadata)."""

    def __init__(self, averaged=None, metadata=None, **kwargs):
        super().__init__(**kwargs)
        for name, model in (averaged or {}).items():
            self.add_averaged_model(name, model)
        for key, value in (metadata or {}).items():
            self.set_metadata(key, str(value))

    @property
    def metadata(self):
        return {k: self.get_metadata(k) for k in self.list_metadata()}

    @property
    def averaged(self):
        return {k: self.get_averaged_model(k) for k in self.list_averaged_models()}


Checkpoint = override(Checkpoint)
__all__.append('Checkpoint')


# ---- transforms (torchvision.transforms) ---------------------------------------------
#
# The C transforms are callables with torchvision's constructors; Compose and the datasets
# hand them to C whole, so that a TensorDataset or FashionMNIST with C transforms is batched
# in C. Lambda (and any plain function) runs in Python.

def _as_tensor(pic):
    """A numpy array (what a PIL image is to torchvision) as a tensor; tensors pass."""
    if isinstance(pic, Gnn.Tensor):
        return pic
    return _tensor(pic)


def _transform_call(self, pic):
    return self.apply(_as_tensor(pic))


class ToTensor(Gnn.ToTensor):
    """torchvision.transforms.ToTensor(): an image (H, W) or (H, W, C) (a uint8 tensor or numpy
    array) becomes a float32 tensor (C, H, W) in [0, 1]; see Gnn.ToTensor for other dtypes.
    torchvision refuses a torch tensor (TypeError); gnn's images are tensors, so it takes them."""

    def __new__(cls, *args, **kwargs):
        return Gnn.ToTensor.new()

    def __init__(self, *args, **kwargs):
        pass

    __call__ = _transform_call

    def __repr__(self):
        return 'ToTensor()'


ToTensor = override(ToTensor)
__all__.append('ToTensor')


def _pair(value, what):
    if isinstance(value, _numbers.Integral):
        return (int(value), int(value))
    value = tuple(value)
    if len(value) == 1:
        return (int(value[0]), int(value[0]))
    if len(value) != 2:
        raise ValueError('Please provide only two dimensions (h, w) for %s.' % what)
    return (int(value[0]), int(value[1]))


class Normalize(Gnn.Normalize):
    """torchvision.transforms.Normalize(mean, std, inplace=False): (x - mean[c]) / std[c] per
    channel of a float image (C, H, W) or batch (N, C, H, W); `Gnn.Normalize.new(mean, std,
    scale)` also scales first. inplace is accepted; the result is always a new tensor."""

    def __new__(cls, mean=None, std=None, inplace=False, **kwargs):
        if mean is None:
            return super().__new__(cls)
        mean = [float(m) for m in (mean if isinstance(mean, _abc.Sequence) else [mean])]
        std = [float(s) for s in (std if isinstance(std, _abc.Sequence) else [std])]
        if len(mean) != len(std):
            raise ValueError('Normalize: mean has %d values and std %d' % (len(mean), len(std)))
        self = Gnn.Normalize.new(mean, std, 1.0)
        self._torch_args = (mean, std, inplace)
        return self

    def __init__(self, mean=None, std=None, inplace=False, **kwargs):
        if mean is None:
            super().__init__(**kwargs)

    __call__ = _transform_call

    def __repr__(self):
        args = self.__dict__.get('_torch_args')
        if args is None:
            return 'Normalize()'
        return 'Normalize(mean=%s, std=%s)' % (args[0], args[1])


Normalize = override(Normalize)
__all__.append('Normalize')


def _runs_in_c(transform):
    """Whether @transform is made of C transforms only (then C may apply it)."""
    if transform is None:
        return True
    if not isinstance(transform, Gnn.Transform):
        return False
    members = transform.__dict__.get('_members')
    return members is None or all(_runs_in_c(t) for t in members)


class Compose(Gnn.Compose):
    """torchvision.transforms.Compose(transforms): each in turn. Python functions and Lambdas
    among them are called back from C when C applies it; called from Python, each member is called from Python (so a member
    may return something other than a tensor)."""

    def __new__(cls, transforms=None, **kwargs):
        if transforms is None:
            return super().__new__(cls)
        members = list(transforms)
        wrapped = [_as_gnn_transform(t) for t in members]
        self = Gnn.Compose.new(wrapped)
        self._members = members
        return self

    def __init__(self, transforms=None, **kwargs):
        if transforms is None:
            super().__init__(**kwargs)

    @property
    def transforms(self):
        members = self.__dict__.get('_members')
        if members is not None:
            return list(members)
        return [self.get_transform(i) for i in range(self.get_n_transforms())]

    def __call__(self, img):
        for t in self.transforms:
            img = t(img)
        return img

    def __repr__(self):
        return 'Compose(\n' + ''.join('    %r\n' % t for t in self.transforms) + ')'


Compose = override(Compose)
__all__.append('Compose')


class RandomCrop(Gnn.RandomCrop):
    """torchvision.transforms.RandomCrop(size, padding=None, pad_if_needed=False, fill=0,
    padding_mode='constant'), with gnn's keyword `generator=` (the default generator when
    None): the windows differ from torchvision's, which come from torch's generator."""

    def __new__(cls, size=None, padding=None, pad_if_needed=False, fill=0, padding_mode='constant',
                generator=None, **kwargs):
        if size is None:
            return super().__new__(cls)
        h, w = _pair(size, 'size')
        if padding is None:
            pad = []
        elif isinstance(padding, _numbers.Integral):
            pad = [int(padding)]
        else:
            pad = [int(p) for p in padding]
        if not isinstance(fill, _numbers.Real):
            raise TypeError('RandomCrop: gnn takes one number as fill, found %r' % (fill,))
        self = Gnn.RandomCrop.new(h, w, pad, bool(pad_if_needed), float(fill), padding_mode,
                                  generator)
        self._torch_args = ((h, w), padding)
        return self

    def __init__(self, size=None, *args, **kwargs):
        if size is None:
            super().__init__(**kwargs)

    __call__ = _transform_call

    def __repr__(self):
        args = self.__dict__.get('_torch_args', ((0, 0), None))
        return 'RandomCrop(size=%s, padding=%s)' % args


RandomCrop = override(RandomCrop)
__all__.append('RandomCrop')


class RandomHorizontalFlip(Gnn.RandomHorizontalFlip):
    """torchvision.transforms.RandomHorizontalFlip(p=0.5), with gnn's keyword `generator=`."""

    def __new__(cls, p=0.5, generator=None, **kwargs):
        if kwargs:
            return super().__new__(cls)
        self = Gnn.RandomHorizontalFlip.new(float(p), generator)
        self._torch_p = float(p)
        return self

    def __init__(self, p=0.5, generator=None, **kwargs):
        if kwargs:
            super().__init__(**kwargs)

    __call__ = _transform_call

    def __repr__(self):
        return 'RandomHorizontalFlip(p=%s)' % self.__dict__.get('_torch_p', 0.5)


RandomHorizontalFlip = override(RandomHorizontalFlip)
__all__.append('RandomHorizontalFlip')


class Lambda:
    """torchvision.transforms.Lambda(lambd): a function as a transform, called in Python (it
    may return anything). Inside a Compose that C applies (a dataset's transform) the
    function must return a tensor."""

    def __init__(self, lambd):
        if not callable(lambd):
            raise TypeError('Argument lambd should be callable, got %r' % type(lambd).__name__)
        self.lambd = lambd

    def __call__(self, img):
        return self.lambd(img)

    def __repr__(self):
        return 'Lambda()'


__all__.append('Lambda')


def _as_gnn_transform(function):
    """A Gnn.Transform that calls @function (a Python callable) from C."""
    if isinstance(function, Gnn.Transform):
        return function
    if not _as_gnn_transform.__dict__.get('type'):
        from gi.repository import GObject
        from gi.repository import Gnn as loaded   # the interface as overridden: PyGObject needs it

        class _PythonTransform(GObject.Object, loaded.Transform):
            __gtype_name__ = 'GnnPythonTransform'
            __module__ = 'gnn.vision.transforms'   # as above

            def __init__(self, function):
                super().__init__()
                self.function = function

            def do_apply(self, sample):
                out = self.function(sample)
                if not isinstance(out, Gnn.Tensor):
                    raise TypeError('a Python transform inside a C pipeline must return a tensor, '
                                    '%r returned %s' % (self.function, type(out).__name__))
                return out
        _as_gnn_transform.type = _PythonTransform
    if not callable(function):
        raise TypeError('a transform must be callable, found %s' % type(function).__name__)
    return _as_gnn_transform.type(function)


# ---- datasets (torchvision.datasets) -------------------------------------------------

class FashionMNIST(MapDataset):
    """torchvision.datasets.FashionMNIST(root, train=True, transform=None,
    target_transform=None, download=False), read from disk only: `root/FashionMNIST/raw/`,
    then /usr/share/datasets/fashion-mnist (Debian's dataset-fashion-mnist); see
    Gnn.TensorDataset.new_fashion_mnist. A sample is (image, label): the image a uint8 tensor
    (28, 28) where torchvision has a PIL image (ToTensor() makes the same float (1, 28, 28)),
    the label an int. `data`, `targets` and `classes` are torchvision's.

    download=True does not reach the network: gnn does not download, and the error lists
    where it looked. With C transforms (ToTensor, Normalize, Compose, RandomCrop,
    RandomHorizontalFlip) the DataLoader batches it in C."""

    classes = ['T-shirt/top', 'Trouser', 'Pullover', 'Dress', 'Coat', 'Sandal', 'Shirt',
               'Sneaker', 'Bag', 'Ankle boot']

    def __init__(self, root, train=True, transform=None, target_transform=None, download=False):
        from gi.repository import GLib
        self.root = root
        self.train = train
        self.transform = transform
        self.target_transform = target_transform
        try:
            self._raw = Gnn.TensorDataset.new_fashion_mnist(str(root) if root is not None else None,
                                                            bool(train))
        except GLib.Error as e:
            message = e.message
            if download:
                message = 'download=True: gnn does not download datasets. ' + message
            raise RuntimeError('Dataset not found. ' + message) from None
        self.data = self._raw.get_tensor(0)
        self.targets = self._raw.get_tensor(1)
        self._gnn_dataset = None
        if _runs_in_c(transform) and target_transform is None:
            self._gnn_dataset = Gnn.TensorDataset.new([self.data, self.targets])
            if transform is not None:
                self._gnn_dataset.props.transform = transform

    def __len__(self):
        return self._raw.get_length()

    def __getitem__(self, index):
        n = len(self)
        if index < 0:
            index += n
        if not 0 <= index < n:
            raise IndexError('index %d is out of range for a dataset of %d samples' % (index, n))
        img, target = self._raw.get_item(index)
        target = int(target.item())
        if self.transform is not None:
            img = self.transform(img)
        if self.target_transform is not None:
            target = self.target_transform(target)
        return img, target

    def __repr__(self):
        lines = ['Dataset FashionMNIST', '    Number of datapoints: %d' % len(self),
                 '    Root location: %s' % self.root, '    Split: %s' % ('Train' if self.train else 'Test')]
        if self.transform is not None:
            lines.append('    StandardTransform\nTransform: %r' % (self.transform,))
        return '\n'.join(lines)


__all__.append('FashionMNIST')
