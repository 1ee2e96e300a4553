# torch.distributed: the default process group and its collectives
#
# The groups are C (gnn/distributed/gnn-process-group.c); the MPI one is a loadable module
# (gnn/distributed/mpi/), so `init_process_group(backend="mpi")` works in a job started by
# `mpirun -np N`. These functions give the C calls torch's spellings: a GError of misuse (no
# default group, a second init) is the RuntimeError torch raises, an unknown backend the
# ValueError. Collectives run synchronously: async_op=True is not built yet.
#
# SPDX-License-Identifier: LGPL-2.1-or-later
import enum as _enum
import math as _math

from .base import Gnn, no_grad as _no_grad
from .errors import as_python_error as _as_python_error
from .data import Sampler as _Sampler, _permutation
from .module import Module as _Module, _forward_vfunc

__all__ = []


def _export(obj):
    __all__.append(obj.__name__)
    return obj


def _call(fn, *args):
    try:
        return fn(*args)
    except Exception as e:  # a GLib.Error: the class torch raises for its code
        if hasattr(e, 'domain') and hasattr(e, 'code'):
            raise _as_python_error(e) from None
        raise


@_export
class distributed_ReduceOp(_enum.IntEnum):
    """torch.distributed.ReduceOp: how all_reduce combines the ranks' tensors."""
    SUM = int(Gnn.ReduceOp.SUM)
    PRODUCT = int(Gnn.ReduceOp.PRODUCT)
    MIN = int(Gnn.ReduceOp.MIN)
    MAX = int(Gnn.ReduceOp.MAX)
    AVG = int(Gnn.ReduceOp.AVG)


_KNOWN_BACKENDS = ('mpi', 'gloo', 'nccl', 'ucc')


def _group(group):
    if group is not None:
        if not isinstance(group, Gnn.ProcessGroup):
            raise TypeError('group must be a process group, got %s' % type(group).__name__)
        return group
    return _call(Gnn.distributed_get_default_group)


def _sync_only(async_op, name):
    if async_op:
        raise NotImplementedError('%s(async_op=True): gnn runs collectives synchronously '
                                  '(work handles are not built yet)' % name)


@_export
def distributed_is_available():
    """torch.distributed.is_available: gnn always has the process-group API."""
    return True


@_export
def distributed_is_mpi_available():
    """torch.distributed.is_mpi_available: whether the MPI module was built (it is looked
    for in GNN_DISTRIBUTED_PATH and the installed folder)."""
    import os
    dirs = [d for d in os.environ.get('GNN_DISTRIBUTED_PATH', '').split(os.pathsep) if d]
    return any(os.path.exists(os.path.join(d, 'libgnn-distributed-mpi.so')) for d in dirs) or \
        Gnn.distributed_is_initialized()


@_export
def distributed_init_process_group(backend=None, init_method=None, timeout=None, world_size=-1,
                                   rank=-1, store=None, group_name='', pg_options=None):
    """torch.distributed.init_process_group: the default group of backend 'mpi'; rank and
    world size come from the MPI launcher (torch ignores them for MPI; gnn checks them)."""
    if backend is None:
        raise ValueError("init_process_group: gnn needs the backend named: backend='mpi'")
    name = str(backend).lower()
    if name in ('gloo', 'nccl', 'ucc'):
        raise RuntimeError("Distributed package doesn't have %s built in: gnn's backend is 'mpi'"
                           % name.upper())
    if name not in _KNOWN_BACKENDS:
        raise ValueError("Invalid backend: '%s'" % backend)
    if init_method not in (None, 'env://') or store is not None:
        raise ValueError("init_process_group: the MPI backend takes its ranks from mpirun; "
                         "init_method and store are not used (got %r, %r)" % (init_method, store))
    _call(Gnn.distributed_init_process_group, name)
    for what, given, actual in (('world_size', world_size, Gnn.distributed_get_world_size()),
                                ('rank', rank, Gnn.distributed_get_rank())):
        if given not in (-1, None) and given != actual:
            Gnn.distributed_destroy_process_group()
            raise ValueError('init_process_group: %s=%d, but mpirun gave this process %d'
                             % (what, given, actual))


@_export
def distributed_is_initialized():
    """torch.distributed.is_initialized: whether the default group exists."""
    return Gnn.distributed_is_initialized()


@_export
def distributed_destroy_process_group(group=None):
    """torch.distributed.destroy_process_group: releases the default group."""
    if group is not None:
        raise NotImplementedError('destroy_process_group(group): gnn has only the default group')
    _call(Gnn.distributed_destroy_process_group)


@_export
def distributed_get_rank(group=None):
    """torch.distributed.get_rank."""
    return _group(group).get_rank()


@_export
def distributed_get_world_size(group=None):
    """torch.distributed.get_world_size."""
    return _group(group).get_world_size()


@_export
def distributed_get_backend(group=None):
    """torch.distributed.get_backend."""
    return _group(group).get_backend()


@_export
def distributed_all_reduce(tensor, op=distributed_ReduceOp.SUM, group=None, async_op=False):
    """torch.distributed.all_reduce: in place, on every rank."""
    _sync_only(async_op, 'all_reduce')
    _call(_group(group).all_reduce, tensor, Gnn.ReduceOp(int(op)))


@_export
def distributed_broadcast(tensor, src, group=None, async_op=False):
    """torch.distributed.broadcast: rank src's tensor, in place, on every rank."""
    _sync_only(async_op, 'broadcast')
    _call(_group(group).broadcast, tensor, int(src))


@_export
def distributed_all_gather(tensor_list, tensor, group=None, async_op=False):
    """torch.distributed.all_gather: every rank's tensor into tensor_list, in rank order."""
    _sync_only(async_op, 'all_gather')
    g = _group(group)
    if len(tensor_list) != g.get_world_size():
        raise ValueError('all_gather: tensor_list has %d tensors, expected the world size %d'
                         % (len(tensor_list), g.get_world_size()))
    gathered = _call(g.all_gather, tensor)
    for out, t in zip(tensor_list, gathered):
        with _no_grad():
            out.copy_(t)


@_export
def distributed_barrier(group=None, async_op=False, device_ids=None):
    """torch.distributed.barrier."""
    _sync_only(async_op, 'barrier')
    _call(_group(group).barrier)


@_export
class DistributedSampler(_Sampler):
    """torch.utils.data.distributed.DistributedSampler(dataset, num_replicas=None, rank=None,
    shuffle=True, seed=0, drop_last=False): this rank's share of the indices, torch's rule:
    padded by wrapping around to a multiple of num_replicas (or cut, with drop_last), then
    indices[rank::num_replicas]. Without shuffle the lists are torch's. With shuffle the
    permutation comes from a gnn generator seeded with seed + epoch (set_epoch): the same on
    every rank and every run, but not torch's permutation, since gnn's randperm draws
    differently from torch's."""

    def __init__(self, dataset, num_replicas=None, rank=None, shuffle=True, seed=0,
                 drop_last=False):
        if num_replicas is None:
            num_replicas = distributed_get_world_size()
        if rank is None:
            rank = distributed_get_rank()
        if rank >= num_replicas or rank < 0:
            raise ValueError('Invalid rank {}, rank should be in the interval [0, {}]'
                             .format(rank, num_replicas - 1))
        self.dataset = dataset
        self.num_replicas = num_replicas
        self.rank = rank
        self.epoch = 0
        self.drop_last = drop_last
        n = len(dataset)
        if self.drop_last and n % self.num_replicas != 0:
            self.num_samples = _math.ceil((n - self.num_replicas) / self.num_replicas)
        else:
            self.num_samples = _math.ceil(n / self.num_replicas)
        self.total_size = self.num_samples * self.num_replicas
        self.shuffle = shuffle
        self.seed = seed

    def __iter__(self):
        n = len(self.dataset)
        if self.shuffle:
            g = Gnn.Generator.new(self.seed + self.epoch)
            indices = _permutation(n, g)
        else:
            indices = list(range(n))
        if not self.drop_last:
            padding_size = self.total_size - len(indices)
            if padding_size <= len(indices):
                indices += indices[:padding_size]
            else:
                indices += (indices * _math.ceil(padding_size / len(indices)))[:padding_size]
        else:
            indices = indices[:self.total_size]
        assert len(indices) == self.total_size
        indices = indices[self.rank:self.total_size:self.num_replicas]
        assert len(indices) == self.num_samples
        return iter(indices)

    def __len__(self):
        return self.num_samples

    def set_epoch(self, epoch):
        """The epoch whose order the next pass gives (shuffle seeds seed + epoch)."""
        self.epoch = epoch


@_export
class DistributedDataParallel(_Module):
    """torch.nn.parallel.DistributedDataParallel(module, process_group=None,
    broadcast_buffers=True): data parallelism over the ranks of a process group. At
    construction rank 0's parameters and buffers are broadcast to every rank; during backward
    each parameter's gradient is averaged over the ranks (an all-reduce per parameter, from a
    tensor hook, in the order backward makes the gradients, the same on every rank), so that
    after backward every rank holds the gradient of the whole batch. The wrapped module is
    `module`, and the state dict's keys start with `module.`, as torch's. With
    broadcast_buffers, rank 0's buffers are broadcast again before each forward. Not built yet:
    buckets, asynchronous all-reduces overlapping backward, find_unused_parameters, no_sync."""

    # a class of the overrides is not made torch-style by Module.__init_subclass__: its GType
    # name and its forward as the do_forward virtual method are given here
    __gtype_name__ = 'gi+overrides+_gnn+distributed+DistributedDataParallel'
    # a class of a gi.overrides module gets no GType of its own: its do_forward would become
    # Gnn.Module's, every C module's
    __module__ = 'gnn.nn.parallel'
    do_forward = _forward_vfunc

    def __init__(self, module, device_ids=None, output_device=None, dim=0,
                 broadcast_buffers=True, process_group=None, bucket_cap_mb=25,
                 find_unused_parameters=False, check_reduction=False,
                 gradient_as_bucket_view=False, static_graph=False):
        super().__init__()
        if find_unused_parameters or static_graph or gradient_as_bucket_view:
            raise NotImplementedError('DistributedDataParallel: find_unused_parameters, '
                                      'static_graph and gradient_as_bucket_view are not built yet')
        group = _group(process_group)
        self.module = module
        self.broadcast_buffers = broadcast_buffers
        self._ddp_group = group
        self._ddp_handles = []
        self._sync_state(group, module.parameters())
        self._sync_state(group, module.buffers())
        for p in module.parameters():
            if p.requires_grad:
                self._ddp_handles.append(p.register_hook(self._make_hook(group)))

    @staticmethod
    def _sync_state(group, tensors):
        with _no_grad():
            for t in tensors:
                _call(group.broadcast, t, 0)

    @staticmethod
    def _make_hook(group):
        def hook(grad):
            g = grad.clone()
            _call(group.all_reduce, g, Gnn.ReduceOp.AVG)
            return g
        return hook

    def forward(self, *args, **kwargs):
        if self.broadcast_buffers and self.module.training:
            self._sync_state(self._ddp_group, self.module.buffers())
        return self.module(*args, **kwargs)
