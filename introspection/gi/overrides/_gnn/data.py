# data: datasets and the loader (torch.utils.data)
#
# SPDX-License-Identifier: LGPL-2.1-or-later
from .base import Gnn, override

__all__ = []


class DataLoader(Gnn.DataLoader):
    """`Gnn.DataLoader(dataset, batch_size=1, shuffle=False, seed=0, drop_last=False)`;
    iterating gives each batch of the current epoch as a tuple of tensors, `len()` the number
    of batches, and `loader[i]` batch i."""

    def __init__(self, dataset=None, batch_size=1, shuffle=False, seed=0, drop_last=False,
                 transform=None, **kwargs):
        if dataset is not None:
            kwargs.update(dataset=dataset, batch_size=batch_size, shuffle=shuffle, seed=seed,
                          drop_last=drop_last)
        Gnn.DataLoader.__init__(self, **kwargs)
        if transform is not None:
            self.set_transform(transform)

    def __len__(self):
        return self.get_n_items()

    def __getitem__(self, index):
        n = len(self)
        if index < 0:
            index += n
        if not 0 <= index < n:
            raise IndexError('batch %d is out of range for a loader of %d batches' % (index, n))
        return tuple(self.get_batch(index))

    def __iter__(self):
        for i in range(len(self)):
            yield tuple(self.get_batch(i))


DataLoader = override(DataLoader)
__all__.append('DataLoader')


class Dataset(Gnn.Dataset):
    """Implement a dataset in Python with `do_get_length (self)` and `do_get_item (self,
    index)` returning a sequence of tensors; `len(dataset)` and `dataset[i]` work on any
    dataset."""

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
        return tuple(self.get_item(index))


Dataset = override(Dataset)
__all__.append('Dataset')


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
