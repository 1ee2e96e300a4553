# torch.distributed: the default process group and its collectives
#
# The groups are C (gnn/distributed/gnn-process-group.c); the MPI one is a loadable module
# (gnn/distributed/mpi/), so `init_process_group(backend="mpi")` works in a job started by
# `mpirun -np N`. These functions give the C calls torch's spellings: a GError of misuse (no
# default group, a second init) is the RuntimeError torch raises, an unknown backend the
# ValueError. Every collective takes async_op=True, which returns a work handle (Work: wait,
# is_completed, is_success); the collectives run on the group's worker thread in the order they
# were called. As torch, src and dst are ranks of the default group, translated into the
# group's own; a rank not in a group made by new_group gets GroupMember.NON_GROUP_MEMBER, and
# the collectives of that group do nothing on it.
#
# SPDX-License-Identifier: LGPL-2.1-or-later
import datetime as _datetime
import enum as _enum
import math as _math
import pickle as _pickle
import sys as _sys
import warnings as _warnings

from gi.repository import GLib as _GLib

from .base import Gnn, no_grad as _no_grad
from .errors import as_python_error as _as_python_error
from .data import Sampler as _Sampler
from .module import Module as _Module, _forward_vfunc
from .function import autograd_Function as _Function

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


@_export
class distributed_GroupMember:
    """torch.distributed.GroupMember: NON_GROUP_MEMBER is what new_group gives a rank that is
    not in the group."""
    WORLD = None
    NON_GROUP_MEMBER = object()


# the ranks of the default group that make each group of new_group, in group-rank order
_group_ranks = {}


def _not_member(group, name):
    if group is distributed_GroupMember.NON_GROUP_MEMBER:
        world = Gnn.distributed_get_rank() if Gnn.distributed_is_initialized() else -1
        _warnings.warn('Running %s on global rank %d which does not belong to the given group.'
                       % (name, world))
        return True
    return False


def _group(group):
    if group is not None:
        if not isinstance(group, Gnn.ProcessGroup):
            raise TypeError('group must be a process group, got %s' % type(group).__name__)
        return group
    return _call(Gnn.distributed_get_default_group)


def _group_rank(group, rank, what):
    """A rank of the default group as a rank of @group (torch's get_group_rank)."""
    ranks = _group_ranks.get(group)
    if ranks is None or rank is None:
        return rank
    rank = int(rank)
    if rank not in ranks:
        raise RuntimeError('The global rank %d is not part of the group %r (%s)' % (rank, group, what))
    return ranks.index(rank)


def _global_rank(group, rank):
    ranks = _group_ranks.get(group)
    return rank if ranks is None or rank < 0 else ranks[rank]


# torch.distributed.default_pg_timeout: the default of init_process_group's timeout
distributed_default_pg_timeout = _datetime.timedelta(minutes=30)
__all__.append('distributed_default_pg_timeout')
# the timeout init_process_group was given: every wait's limit unless it names its own
_pg_timeout = [distributed_default_pg_timeout]


def _timeout_ms(timeout):
    """A wait's limit in milliseconds, -1 for none: timeout as a timedelta or seconds; None
    or timedelta(0) (torch's kNoTimeout) is the default group's timeout."""
    if timeout is None or (isinstance(timeout, _datetime.timedelta) and not timeout):
        timeout = _pg_timeout[0]
    if timeout is None:
        return -1
    if isinstance(timeout, _datetime.timedelta):
        seconds = timeout.total_seconds()
    else:
        seconds = float(timeout)
    if seconds < 0:
        raise ValueError('Work.wait: timeout must not be negative, got %r' % (timeout,))
    return max(1, int(round(seconds * 1000)))


def _wait(work, timeout=None):
    """Waits for a Gnn.Work, at most the default group's timeout."""
    _call(work.wait_timeout, _timeout_ms(timeout))


@_export
class distributed_Work:
    """torch.distributed's work handle (async_op=True): wait(timeout) waits for the operation
    and puts its results into the output tensors, raising the error of a failed one, and a
    RuntimeError naming the operation once timeout (a timedelta; by default the timeout of
    init_process_group, 30 minutes) has passed. A send or receive that timed out is
    cancelled and has failed; a collective that timed out keeps running (MPI cannot cancel
    one). is_completed() and is_success() tell without waiting; exception() gives the error of
    a completed operation that failed, None otherwise."""

    def __init__(self, work, after=None):
        self._work = work
        self._after = after

    def wait(self, timeout=None):
        """Waits for the operation, at most @timeout, and raises its error."""
        _wait(self._work, timeout)
        if self._after is not None:
            after, self._after = self._after, None
            after()
        return True

    def is_completed(self):
        return self._work.is_completed()

    def is_success(self):
        return self._work.is_success()

    def exception(self):
        """The error of the operation once it has completed and failed, else None (it does
        not wait)."""
        if not self._work.is_completed() or self._work.is_success():
            return None
        try:
            _call(self._work.wait)
        except Exception as e:  # the error as torch's Work.exception gives it
            return e
        return None

    def _source_rank(self):
        return self._work.get_source_rank()

    def source_rank(self):
        return self._work.get_source_rank()


def _finish(work, async_op, after=None):
    w = distributed_Work(work, after)
    if async_op:
        return w
    w.wait()
    return None


def _tensors(tensors, name):
    tensors = list(tensors)
    for t in tensors:
        if not isinstance(t, Gnn.Tensor):
            raise TypeError('%s must hold tensors, got %s' % (name, type(t).__name__))
    return tensors


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
def distributed_init_process_group(backend=None, init_method=None,
                                   timeout=distributed_default_pg_timeout, world_size=-1,
                                   rank=-1, store=None, group_name='', pg_options=None):
    """torch.distributed.init_process_group: the default group of backend 'mpi'; rank and
    world size come from the MPI launcher (torch ignores them for MPI; gnn checks them).
    timeout (a timedelta, default 30 minutes as torch's default_pg_timeout) is the limit of
    every wait on a work handle that does not give its own, DDP's included."""
    if timeout is None:
        timeout = distributed_default_pg_timeout
    if not isinstance(timeout, _datetime.timedelta):
        raise TypeError('Expected timeout argument to be of type datetime.timedelta, got %s'
                        % type(timeout).__name__)
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
    _pg_timeout[0] = timeout
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
    """torch.distributed.destroy_process_group: releases the default group (and forgets the
    groups of new_group), or forgets one group of new_group."""
    if group is distributed_GroupMember.NON_GROUP_MEMBER:
        return
    if group is not None:
        if group not in _group_ranks:
            raise ValueError('destroy_process_group: not a group of new_group: %r' % (group,))
        del _group_ranks[group]
        return
    _group_ranks.clear()
    _call(Gnn.distributed_destroy_process_group)


@_export
def distributed_new_group(ranks=None, timeout=None, backend=None, pg_options=None):
    """torch.distributed.new_group: a group of some ranks of the default group. Every rank
    calls it with the same ranks, members or not; a rank not in ranks gets
    GroupMember.NON_GROUP_MEMBER. Group ranks follow the sorted ranks, as torch's."""
    world = _call(Gnn.distributed_get_default_group)
    if backend is not None and str(backend).lower() != world.get_backend():
        raise ValueError("new_group: backend %r: gnn's groups use the default group's backend %r"
                         % (backend, world.get_backend()))
    ranks = sorted(int(r) for r in ranks) if ranks is not None else None
    g = _call(world.new_group, ranks)
    if g is None:
        return distributed_GroupMember.NON_GROUP_MEMBER
    _group_ranks[g] = ranks if ranks is not None else list(range(world.get_world_size()))
    return g


@_export
def distributed_get_rank(group=None):
    """torch.distributed.get_rank: this process's rank in group (-1 when not in it)."""
    if group is distributed_GroupMember.NON_GROUP_MEMBER:
        return -1
    return _group(group).get_rank()


@_export
def distributed_get_world_size(group=None):
    """torch.distributed.get_world_size (-1 for a group this rank is not in)."""
    if group is distributed_GroupMember.NON_GROUP_MEMBER:
        return -1
    return _group(group).get_world_size()


@_export
def distributed_get_backend(group=None):
    """torch.distributed.get_backend."""
    if group is distributed_GroupMember.NON_GROUP_MEMBER:
        raise RuntimeError('Invalid process group specified')
    return _group(group).get_backend()


@_export
def distributed_all_reduce(tensor, op=distributed_ReduceOp.SUM, group=None, async_op=False):
    """torch.distributed.all_reduce: in place, on every rank."""
    if _not_member(group, 'all_reduce'):
        return None
    return _finish(_group(group).all_reduce_async(tensor, Gnn.ReduceOp(int(op))), async_op)


@_export
def distributed_broadcast(tensor, src, group=None, async_op=False):
    """torch.distributed.broadcast: rank src's tensor, in place, on every rank."""
    if _not_member(group, 'broadcast'):
        return None
    g = _group(group)
    return _finish(g.broadcast_async(tensor, _group_rank(g, src, 'src')), async_op)


@_export
def distributed_all_gather(tensor_list, tensor, group=None, async_op=False):
    """torch.distributed.all_gather: every rank's tensor into tensor_list, in rank order."""
    if _not_member(group, 'all_gather'):
        return None
    g = _group(group)
    if len(tensor_list) != g.get_world_size():
        raise ValueError('all_gather: tensor_list has %d tensors, expected the world size %d'
                         % (len(tensor_list), g.get_world_size()))
    return _finish(g.all_gather_async(_tensors(tensor_list, 'tensor_list'), tensor), async_op)


def _chunks(t, n, name):
    """@t's elements as n equal views of a flat view (t must be contiguous)."""
    if t.numel() % n != 0:
        raise ValueError('%s has %d elements, not a multiple of the world size %d'
                         % (name, t.numel(), n))
    if not t.is_contiguous():
        raise ValueError('%s must be contiguous' % name)
    flat = t.view(-1)
    m = t.numel() // n
    return [flat[i * m:(i + 1) * m] for i in range(n)]


@_export
def distributed_all_gather_into_tensor(output_tensor, input_tensor, group=None, async_op=False):
    """torch.distributed.all_gather_into_tensor: every rank's input_tensor, one after the
    other, into output_tensor (world size times input_tensor's elements)."""
    if _not_member(group, 'all_gather_into_tensor'):
        return None
    g = _group(group)
    n = g.get_world_size()
    if output_tensor.numel() != n * input_tensor.numel():
        raise ValueError('all_gather_into_tensor: output_tensor has %d elements, expected the '
                         'world size %d times %d' % (output_tensor.numel(), n, input_tensor.numel()))
    views = _chunks(output_tensor, n, 'output_tensor')
    return _finish(g.all_gather_async(views, input_tensor), async_op)


@_export
def distributed_reduce(tensor, dst, op=distributed_ReduceOp.SUM, group=None, async_op=False):
    """torch.distributed.reduce: the reduction over the ranks, into tensor on rank dst only."""
    if _not_member(group, 'reduce'):
        return None
    g = _group(group)
    return _finish(g.reduce_async(tensor, _group_rank(g, dst, 'dst'), Gnn.ReduceOp(int(op))),
                   async_op)


@_export
def distributed_reduce_scatter(output, input_list, op=distributed_ReduceOp.SUM, group=None,
                               async_op=False):
    """torch.distributed.reduce_scatter: rank r's output is the reduction of every rank's
    input_list[r]."""
    if _not_member(group, 'reduce_scatter'):
        return None
    return _finish(_group(group).reduce_scatter_async(output, _tensors(input_list, 'input_list'),
                                                      Gnn.ReduceOp(int(op))), async_op)


@_export
def distributed_reduce_scatter_tensor(output, input, op=distributed_ReduceOp.SUM, group=None,
                                      async_op=False):
    """torch.distributed.reduce_scatter_tensor: input holds world-size blocks of output's
    size; rank r's output is the reduction of every rank's r-th block."""
    if _not_member(group, 'reduce_scatter_tensor'):
        return None
    g = _group(group)
    n = g.get_world_size()
    if input.numel() != n * output.numel():
        raise ValueError('reduce_scatter_tensor: input has %d elements, expected the world size '
                         '%d times %d' % (input.numel(), n, output.numel()))
    blocks = [b for b in _chunks(input.contiguous(), n, 'input')]
    return _finish(g.reduce_scatter_async(output, blocks, Gnn.ReduceOp(int(op))), async_op)


@_export
def distributed_gather(tensor, gather_list=None, dst=0, group=None, async_op=False):
    """torch.distributed.gather: every rank's tensor into gather_list on rank dst."""
    if _not_member(group, 'gather'):
        return None
    g = _group(group)
    lst = _tensors(gather_list, 'gather_list') if gather_list is not None else None
    return _finish(g.gather_async(tensor, lst, _group_rank(g, dst, 'dst')), async_op)


@_export
def distributed_scatter(tensor, scatter_list=None, src=0, group=None, async_op=False):
    """torch.distributed.scatter: rank r gets scatter_list[r] of rank src, in tensor."""
    if _not_member(group, 'scatter'):
        return None
    g = _group(group)
    lst = _tensors(scatter_list, 'scatter_list') if scatter_list is not None else None
    return _finish(g.scatter_async(tensor, lst, _group_rank(g, src, 'src')), async_op)


@_export
def distributed_all_to_all(output_tensor_list, input_tensor_list, group=None, async_op=False):
    """torch.distributed.all_to_all: input_tensor_list[r] goes to rank r, and
    output_tensor_list[r] receives rank r's tensor for this rank (sizes may differ)."""
    if _not_member(group, 'all_to_all'):
        return None
    return _finish(_group(group).all_to_all_async(
        _tensors(output_tensor_list, 'output_tensor_list'),
        _tensors(input_tensor_list, 'input_tensor_list')), async_op)


def _splits(t, sizes, n, name):
    d0 = t.shape[0] if t.dim() > 0 else 0
    if sizes is None or len(sizes) == 0:
        if d0 % n != 0:
            raise ValueError('all_to_all_single: %s has %d rows, not a multiple of the world size '
                             '%d: give split sizes' % (name, d0, n))
        sizes = [d0 // n] * n
    sizes = [int(x) for x in sizes]
    if len(sizes) != n or sum(sizes) != d0:
        raise ValueError('all_to_all_single: split sizes %r of %s: expected %d sizes adding up to '
                         'its %d rows' % (sizes, name, n, d0))
    views, off = [], 0
    for k in sizes:
        views.append(t.narrow(0, off, k))
        off += k
    return views


@_export
def distributed_all_to_all_single(output, input, output_split_sizes=None, input_split_sizes=None,
                                  group=None, async_op=False):
    """torch.distributed.all_to_all_single: input's rows, split by input_split_sizes (equal
    splits by default), go to the ranks in order; output's rows, split by output_split_sizes,
    receive them."""
    if _not_member(group, 'all_to_all_single'):
        return None
    g = _group(group)
    n = g.get_world_size()
    outs = _splits(output, output_split_sizes, n, 'output')
    ins = _splits(input, input_split_sizes, n, 'input')
    return _finish(g.all_to_all_async(outs, ins), async_op)


@_export
def distributed_barrier(group=None, async_op=False, device_ids=None):
    """torch.distributed.barrier."""
    if _not_member(group, 'barrier'):
        return None
    return _finish(_group(group).barrier_async(), async_op)


@_export
def distributed_isend(tensor, dst, group=None, tag=0):
    """torch.distributed.isend: a work handle of the send."""
    if _not_member(group, 'isend'):
        return None
    g = _group(group)
    return distributed_Work(g.send_async(tensor, _group_rank(g, dst, 'dst'), int(tag)))


@_export
def distributed_irecv(tensor, src=None, group=None, tag=0):
    """torch.distributed.irecv: a work handle of the receive (src None: any rank)."""
    if _not_member(group, 'irecv'):
        return None
    g = _group(group)
    src = -1 if src is None else _group_rank(g, src, 'src')
    return distributed_Work(g.recv_async(tensor, src, int(tag)))


@_export
def distributed_send(tensor, dst, group=None, tag=0):
    """torch.distributed.send: returns once the tensor is sent (or buffered)."""
    w = distributed_isend(tensor, dst, group, tag)
    if w is not None:
        w.wait()


@_export
def distributed_recv(tensor, src=None, group=None, tag=0):
    """torch.distributed.recv: receives into tensor; returns the sender's rank (of the default
    group), -1 on a rank not in group."""
    w = distributed_irecv(tensor, src, group, tag)
    if w is None:
        return -1
    w.wait()
    return _global_rank(_group(group), w.source_rank())


def _bytes_tensor(data):
    return Gnn.Tensor.new_from_bytes(_GLib.Bytes.new(data), Gnn.Dtype.UINT8, [len(data)], None)


def _tensor_bytes(t):
    return bytes(t.get_bytes().get_data())


@_export
def distributed_all_gather_object(object_list, obj, group=None):
    """torch.distributed.all_gather_object: every rank's picklable obj into object_list, in
    rank order (pickled bytes over all_gather)."""
    if _not_member(group, 'all_gather_object'):
        return None
    g = _group(group)
    n = g.get_world_size()
    data = _pickle.dumps(obj)
    sizes = [Gnn.Tensor.new_from_bytes(_GLib.Bytes.new(b'\0' * 8), Gnn.Dtype.INT64, [1], None)
             for _ in range(n)]
    mine = Gnn.Tensor.new_from_bytes(_GLib.Bytes.new(len(data).to_bytes(8, 'little', signed=True)),
                                     Gnn.Dtype.INT64, [1], None)
    _finish(g.all_gather_async(sizes, mine), False)
    lengths = [int(s.item()) for s in sizes]
    longest = max(lengths)
    outs = [_bytes_tensor(b'\0' * longest) for _ in range(n)]
    _finish(g.all_gather_async(outs, _bytes_tensor(data + b'\0' * (longest - len(data)))), False)
    for i in range(n):
        object_list[i] = _pickle.loads(_tensor_bytes(outs[i])[:lengths[i]])


@_export
def distributed_broadcast_object_list(object_list, src=0, group=None, device=None):
    """torch.distributed.broadcast_object_list: rank src's picklable objects into
    object_list on every rank (pickled bytes over broadcast)."""
    if _not_member(group, 'broadcast_object_list'):
        return None
    g = _group(group)
    root = _group_rank(g, src, 'src')
    k = len(object_list)
    if g.get_rank() == root:
        blobs = [_pickle.dumps(o) for o in object_list]
    else:
        blobs = [b''] * k
    sizes = Gnn.Tensor.new_from_bytes(
        _GLib.Bytes.new(b''.join(len(b).to_bytes(8, 'little', signed=True) for b in blobs)),
        Gnn.Dtype.INT64, [k], None)
    _finish(g.broadcast_async(sizes, root), False)
    lengths = [int(x) for x in sizes.tolist()]
    payload = _bytes_tensor(b''.join(blobs) if g.get_rank() == root else b'\0' * sum(lengths))
    _finish(g.broadcast_async(payload, root), False)
    if g.get_rank() != root:
        data, off = _tensor_bytes(payload), 0
        for i, m in enumerate(lengths):
            object_list[i] = _pickle.loads(data[off:off + m])
            off += m


def _mt19937_randperm(n, seed):
    """torch.randperm(n, generator=g) of a CPU generator after g.manual_seed(seed), as torch
    1.13 draws it: MT19937 seeded with seed's low 32 bits (the reference init_genrand), then a
    Fisher-Yates pass that swaps element i with element i + (next 32-bit draw) % (n - i).
    Python's random.Random is an MT19937 too: given that state, its getrandbits(32) are the
    same draws."""
    import random
    state = [seed & 0xffffffff]
    for i in range(1, 624):
        prev = state[-1]
        state.append((1812433253 * (prev ^ (prev >> 30)) + i) & 0xffffffff)
    draws = random.Random()
    draws.setstate((3, tuple(state + [624]), None))
    perm = list(range(n))
    for i in range(n - 1):
        z = i + draws.getrandbits(32) % (n - i)
        perm[i], perm[z] = perm[z], perm[i]
    return perm


@_export
class DistributedSampler(_Sampler):
    """torch.utils.data.distributed.DistributedSampler(dataset, num_replicas=None, rank=None,
    shuffle=True, seed=0, drop_last=False): this rank's share of the indices, torch's rule:
    padded by wrapping around to a multiple of num_replicas (or cut, with drop_last), then
    indices[rank::num_replicas]. With shuffle the permutation is torch's randperm of a
    generator seeded with seed + epoch (set_epoch), drawn from an MT19937 as torch's CPU
    generator (gnn's own generators are Philox, whose randperm differs), so that the index lists
    are torch's, shuffled or not."""

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
            indices = _mt19937_randperm(n, self.seed + self.epoch)
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


def _g():
    """The overridden module (its Python-level zeros_like, cat, tensor)."""
    from gi.repository import Gnn as overridden
    return overridden


def _output_tensors(obj, out):
    if isinstance(obj, Gnn.Tensor):
        out.append(obj)
    elif isinstance(obj, (list, tuple)):
        for o in obj:
            _output_tensors(o, out)
    elif isinstance(obj, dict):
        for o in obj.values():
            _output_tensors(o, out)
    return out


def _reached_leaves(outputs):
    """The hashes of the leaves (parameters) whose gradients a backward from @outputs makes:
    the AccumulateGrad nodes of their graph, as torch's prepare_for_backward finds them."""
    leaves, seen, stack = set(), set(), []
    for t in outputs:
        node = t.get_grad_fn()
        if node is None:
            if t.get_requires_grad():
                leaves.add(hash(t))
            continue
        stack.append(node)
    while stack:
        node = stack.pop()
        if node in seen:
            continue
        seen.add(node)
        if node.get_name() == 'AccumulateGrad':
            v = node.get_variable()
            if v is not None:
                leaves.add(hash(v))
            continue
        for i in range(node.get_n_next_functions()):
            nxt, _ = node.get_next_function(i)
            if nxt is not None and nxt not in seen:
                stack.append(nxt)
    return leaves


# torch's _DEFAULT_FIRST_BUCKET_BYTES: the cap of the first bucket DDP fills (the gradients
# that come first in backward), so that their all-reduce starts early
_DEFAULT_FIRST_BUCKET_BYTES = 1024 * 1024
distributed__DEFAULT_FIRST_BUCKET_BYTES = _DEFAULT_FIRST_BUCKET_BYTES
__all__.append('distributed__DEFAULT_FIRST_BUCKET_BYTES')


def _bucket_key(t):
    return (t.get_dtype(), t.get_device())


@_export
def distributed__compute_bucket_assignment_by_size(tensors, bucket_size_limits,
                                                   expect_sparse_gradient=(), tensor_indices=()):
    """torch.distributed._compute_bucket_assignment_by_size: DDP's bucketing rule. The tensors
    are taken in order, apart by dtype and device; a bucket is closed by the tensor that
    brings it to its limit or over it, and each closed bucket moves that dtype's limit on
    to the next of bucket_size_limits (the last one stays). Returns (buckets, limits): the
    tensors' indices per bucket (tensor_indices[i] for tensor i where given) and each bucket's
    limit. Without tensor_indices the buckets are sorted by the smallest index they hold;
    with them (the order gradients became ready) they stay in the order they were closed, the
    ones left open last, the dtype seen last first, as torch's."""
    result = []
    open_ = {}
    limit_at = {}
    limits = [int(x) for x in bucket_size_limits]
    if not limits:
        raise ValueError('_compute_bucket_assignment_by_size: bucket_size_limits is empty')
    for i, t in enumerate(tensors):
        index = tensor_indices[i] if len(tensor_indices) else i
        if len(expect_sparse_gradient) and expect_sparse_gradient[index]:
            result.append(([index], _sys.maxsize))
            continue
        key = _bucket_key(t)
        k = limit_at.setdefault(key, 0)
        b = open_.setdefault(key, {'indices': [], 'size': 0})
        b['indices'].append(index)
        b['size'] += t.numel() * t.element_size()
        if b['size'] >= limits[k]:
            result.append((b['indices'], limits[k]))
            open_[key] = {'indices': [], 'size': 0}
            limit_at[key] = min(k + 1, len(limits) - 1)
    # the buckets left open, newest dtype first: the order torch's unordered_map of them
    # gives with libstdc++ (it matters only for several dtypes and tensor_indices)
    for key, b in reversed(list(open_.items())):
        if b['indices']:
            result.append((b['indices'], limits[limit_at[key]]))
    if not len(tensor_indices):
        result.sort(key=lambda r: min(r[0]))
    return [r[0] for r in result], [r[1] for r in result]


class _Bucket:
    """One bucket of DDP: its parameters' indices, a flat tensor of their gradients in that
    order (one dtype and device) and a view of it per parameter."""

    def __init__(self, params, indices, limit):
        G = _g()
        self.indices = list(indices)
        self.limit = limit
        first = params[self.indices[0]]
        total = sum(params[i].numel() for i in self.indices)
        self.flat = G.zeros(total, dtype=first.dtype, device=first.device)
        self.views, off = [], 0
        for i in self.indices:
            n = params[i].numel()
            self.views.append(self.flat[off:off + n].view(params[i].shape))
            off += n
        self.nbytes = total * first.element_size()
        self.pending = len(self.indices)
        self.work = None


@_export
class DistributedDataParallel(_Module):
    """torch.nn.parallel.DistributedDataParallel(module, device_ids=None, output_device=None,
    dim=0, broadcast_buffers=True, process_group=None, bucket_cap_mb=25,
    find_unused_parameters=False, check_reduction=False, gradient_as_bucket_view=False,
    static_graph=False): data parallelism over the ranks of a process group, with torch
    1.13's reducer.

    At construction rank 0's parameters and buffers are broadcast to every rank. The
    parameters that require grad are put in buckets by
    distributed._compute_bucket_assignment_by_size, in registration order, and the list of
    buckets is reversed, so that the first bucket holds the last parameters, whose gradients
    backward makes first. As torch 1.13's, the first iteration has one bucket of every
    parameter unless find_unused_parameters (without static_graph) is set, where the limits
    are distributed._DEFAULT_FIRST_BUCKET_BYTES (1 MiB) for the first bucket and
    bucket_cap_mb for the others. Each bucket has a flat gradient tensor. During backward a
    hook on each parameter copies its gradient (with what no_sync accumulated) into its
    bucket; once a bucket is full its all-reduce (an average) is started asynchronously, in
    bucket order, so that communication runs while backward goes on with the other
    gradients. The hook of the last gradient waits for every bucket and writes the averages
    into the parameters' .grad, so that backward returns with the gradients of the whole
    batch. After the first synchronized iteration (without find_unused_parameters, or with
    static_graph) the buckets are rebuilt once, before the next forward, in the order the
    gradients became ready, with the 1 MiB / bucket_cap_mb limits, and rank 0's layout is
    broadcast so that every rank has it.

    gradient_as_bucket_view: every .grad is a view of its bucket's flat tensor (no copy after
    the all-reduce). find_unused_parameters: the forward finds the parameters its output
    reaches; the others are marked ready with zeros at the first hook, and a map of the
    parameters used is all-reduced, so that a parameter no rank used keeps its gradient as it
    was. static_graph: the first iteration finds the unused parameters and counts each
    parameter's hooks; later iterations mark a parameter ready at its last hook and reuse the
    first iteration's map; gnn's backward runs a parameter's hook once, so a parameter is
    ready at its first hook in every iteration (a second one raises torch's "marked ready
    twice" error). no_sync(): gradients accumulate locally (in the bucket views with
    gradient_as_bucket_view); the next synchronized backward averages their sum.
    broadcast_buffers: rank 0's buffers are broadcast before each forward that follows a
    synchronized one.

    gnn's hooks see a gradient before it is accumulated (torch's reducer hooks run after): the
    DDP hook copies it into the bucket and gives zeros in its place, so a tensor hook
    registered on a parameter after the wrapping sees zeros; register such hooks first.

    The bucket layout is `bucket_indices` (gnn's: the parameter indices of each bucket, in
    bucket order) and, as torch, `_get_ddp_logging_data()` ('bucket_sizes',
    'rebuilt_bucket_sizes', 'rebuilt_per_bucket_param_indices', 'has_rebuilt_buckets', ...).
    `_ddp_events` holds the last synchronized backward's events, in order: ('ready', i) when
    parameter i's gradient reached its bucket, ('launch', b) when bucket b's all-reduce
    started, ('wait', b) when it was waited for. The wrapped module is `module`, and the state
    dict's keys start with `module.`."""

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
        import weakref
        group = _group(process_group)
        self.module = module
        self.broadcast_buffers = broadcast_buffers
        self.find_unused_parameters = find_unused_parameters
        self.gradient_as_bucket_view = gradient_as_bucket_view
        self.static_graph = static_graph
        self.bucket_bytes_cap = int(bucket_cap_mb * 1024 * 1024)
        self.require_backward_grad_sync = True
        self.require_forward_param_sync = True
        self.process_group = group
        self._ddp_group = group
        self._ddp_handles = []
        self._sync_state(group, module.parameters())
        self._sync_state(group, module.buffers())
        params = [p for p in module.parameters() if p.requires_grad]
        if not params:
            raise RuntimeError('DistributedDataParallel is not needed when a module doesn\'t '
                               'have any parameter that requires a gradient.')
        self._ddp_params = params
        self._ddp_index = {hash(p): i for i, p in enumerate(params)}
        self._ddp_zeros = [None] * len(params)
        self._ddp_num_iterations = 0
        self._ddp_has_rebuilt = False
        self._ddp_rebuilt_order = []
        self._ddp_rebuilt_info = None
        self._ddp_hook_counts = None      # static_graph: each parameter's hooks per backward
        self._ddp_static_used = None      # static_graph: the first iteration's global map
        self._ddp_sync = False
        self._ddp_events = []
        if static_graph or not find_unused_parameters:
            limits = [_sys.maxsize]
        else:
            limits = [_DEFAULT_FIRST_BUCKET_BYTES, self.bucket_bytes_cap]
        indices, sizes = distributed__compute_bucket_assignment_by_size(params, limits)
        self._ddp_set_buckets(list(reversed(indices)), list(reversed(sizes)))
        self._ddp_bucket_size_limits = limits
        self._ddp_first_sizes = ', '.join(str(b.nbytes) for b in self._ddp_buckets)
        for i, p in enumerate(params):
            self._ddp_handles.append(p.register_hook(self._make_hook(weakref.ref(self), i)))

    @staticmethod
    def _sync_state(group, tensors):
        with _no_grad():
            for t in tensors:
                _call(group.broadcast, t, 0)

    # ---- buckets ---------------------------------------------------------------------

    def _ddp_set_buckets(self, indices, limits):
        params = self._ddp_params
        seen = sorted(i for b in indices for i in b)
        if seen != list(range(len(params))):
            raise RuntimeError('DistributedDataParallel: a bucket layout must hold every '
                               'parameter once, got %r' % (indices,))
        buckets = [_Bucket(params, b, lim) for b, lim in zip(indices, limits)]
        where = [None] * len(params)
        for k, b in enumerate(buckets):
            for pos, i in enumerate(b.indices):
                where[i] = (k, pos)
        self._ddp_buckets = buckets
        self._ddp_where = where
        if self.gradient_as_bucket_view:
            with _no_grad():
                for i, p in enumerate(params):
                    if p.grad is not None:
                        view = self._ddp_view(i)
                        view.copy_(p.grad)
                        p.grad = view

    def _ddp_view(self, i):
        k, pos = self._ddp_where[i]
        return self._ddp_buckets[k].views[pos]

    @property
    def bucket_indices(self):
        """gnn's view of the layout: the parameter indices (of the parameters that require
        grad, in registration order) of each bucket, in the order the buckets are
        all-reduced."""
        return [list(b.indices) for b in self._ddp_buckets]

    def _get_ddp_logging_data(self):
        """torch's DDP logging data, the keys about buckets: 'bucket_sizes' (the first
        layout's bytes per bucket, comma separated), and after the rebuild
        'rebuilt_bucket_sizes' and 'rebuilt_per_bucket_param_indices'."""
        data = {'bucket_sizes': self._ddp_first_sizes,
                'bucket_cap_bytes': self.bucket_bytes_cap,
                'gradient_as_bucket_view': int(self.gradient_as_bucket_view),
                'find_unused_parameters': int(self.find_unused_parameters),
                'static_graph': int(self.static_graph),
                'broadcast_buffers': int(self.broadcast_buffers),
                'world_size': self._ddp_group.get_world_size(),
                'rank': self._ddp_group.get_rank(),
                'num_parameter_tensors': len(self._ddp_params),
                'total_parameter_size_bytes': sum(p.numel() * p.element_size()
                                                  for p in self._ddp_params)}
        if self._ddp_num_iterations > 0:
            data['has_rebuilt_buckets'] = int(self._ddp_has_rebuilt)
        if self._ddp_rebuilt_info is not None:
            data.update(self._ddp_rebuilt_info)
        return data

    def _ddp_should_rebuild(self):
        return (self.static_graph or not self.find_unused_parameters) and \
            not self._ddp_has_rebuilt

    def _ddp_rebuild(self):
        """Before a forward: the buckets in the order the gradients of the first synchronized
        backward became ready (rank 0's order on every rank)."""
        order = self._ddp_rebuilt_order
        if not order:
            return False
        n = len(self._ddp_params)
        order = order + [i for i in range(n) if i not in set(order)]
        params = [self._ddp_params[i] for i in order]
        indices, limits = distributed__compute_bucket_assignment_by_size(
            params, [_DEFAULT_FIRST_BUCKET_BYTES, self.bucket_bytes_cap], (), order)
        # rank 0's layout: the flat indices, then each bucket's length
        G = _g()
        lengths = [len(b) for b in indices]
        layout = G.tensor([i for b in indices for i in b] + lengths + [len(lengths)],
                          dtype=G.int64)
        if layout.numel() < 2 * n + 1:
            pad = G.full([2 * n + 1 - layout.numel()], -1, dtype=G.int64)
            layout = G.cat([layout[:-1], pad, layout[-1:]])
        _call(self._ddp_group.broadcast, layout, 0)
        values = [int(v) for v in layout.tolist()]
        nb = values[-1]
        lengths = values[n:n + nb]
        flat, indices, off = values[:n], [], 0
        for m in lengths:
            indices.append(flat[off:off + m])
            off += m
        limits = [_DEFAULT_FIRST_BUCKET_BYTES] + [self.bucket_bytes_cap] * (nb - 1)
        self._ddp_set_buckets(indices, limits)
        self._ddp_has_rebuilt = True
        self._ddp_rebuilt_order = []
        self._ddp_rebuilt_info = {
            'rebuilt_bucket_sizes': ', '.join(str(b.nbytes) for b in self._ddp_buckets),
            'rebuilt_per_bucket_param_indices': ', '.join(
                ' '.join(str(i) for i in b.indices) for b in self._ddp_buckets)}
        return True

    # ---- a backward ------------------------------------------------------------------

    def _ddp_prepare(self, out):
        """After a forward that a synchronized backward follows: the state of that backward."""
        n = len(self._ddp_params)
        first_static = self.static_graph and self._ddp_num_iterations == 0
        if self.find_unused_parameters or first_static:
            reached = _reached_leaves(_output_tensors(out, []))
            used = {self._ddp_index[h] for h in reached if h in self._ddp_index}
            self._ddp_unused = [i for i in range(n) if i not in used]
        elif self.static_graph:
            self._ddp_unused = [i for i in range(n) if self._ddp_hook_counts[i] == 0]
        else:
            self._ddp_unused = []
        self._ddp_map = self.find_unused_parameters or first_static
        self._ddp_local_used = [0.0] * n
        self._ddp_hooks_now = [0] * n
        self._ddp_ready = [False] * n
        self._ddp_marked_unused = False
        self._ddp_next = 0
        self._ddp_events = []
        for b in self._ddp_buckets:
            b.pending = len(b.indices)
            b.work = None
        self._ddp_sync = True
        self._ddp_num_iterations += 1
        if len(self._ddp_unused) == n:     # no hook will run: this rank takes part at once
            self._ddp_mark_unused()

    @staticmethod
    def _make_hook(ref, i):
        def hook(grad):
            self = ref()
            if self is None or not self._ddp_sync:   # no_sync, or no synchronized forward
                return None
            return self._ddp_hook(i, grad)
        return hook

    def _ddp_hook(self, i, grad):
        p = self._ddp_params[i]
        self._ddp_hooks_now[i] += 1
        if self.static_graph and self._ddp_hook_counts is not None and \
                self._ddp_hooks_now[i] < self._ddp_hook_counts[i]:
            return None     # not its last hook: it accumulates as usual
        if self._ddp_ready[i]:
            raise RuntimeError(
                'Expected to mark a variable ready only once. This error is caused by one of '
                'the following reasons: 1) Use of a module parameter outside the `forward` '
                'function. 2) Reused parameters in multiple reentrant backward passes. '
                'Parameter at index %d has been marked as ready twice.' % i)
        self._ddp_local_used[i] = 1.0
        if not self._ddp_marked_unused:
            self._ddp_mark_unused()
        with _no_grad():
            view = self._ddp_view(i)
            g = p.grad
            if g is None:
                view.copy_(grad)
            elif g is view:
                view.add_(grad)
            else:
                view.copy_(g + grad)
            if self.gradient_as_bucket_view:
                p.grad = view
            zeros = self._ddp_zeros[i]
            if zeros is None:
                zeros = self._ddp_zeros[i] = _g().zeros_like(p)
        self._ddp_mark_ready(i)
        # the gradient is in the bucket (and, once averaged, in .grad): nothing to add
        return zeros

    def _ddp_mark_unused(self):
        self._ddp_marked_unused = True
        with _no_grad():
            for j in self._ddp_unused:
                g = self._ddp_params[j].grad
                view = self._ddp_view(j)
                if g is None:
                    view.zero_()
                elif g is not view:
                    view.copy_(g)
                self._ddp_mark_ready(j)

    def _ddp_mark_ready(self, i):
        self._ddp_ready[i] = True
        self._ddp_events.append(('ready', i))
        if self._ddp_should_rebuild():
            self._ddp_rebuilt_order.append(i)
        k, _ = self._ddp_where[i]
        bucket = self._ddp_buckets[k]
        bucket.pending -= 1
        buckets = self._ddp_buckets
        # in bucket order on every rank, so that the ranks' collectives pair up
        while self._ddp_next < len(buckets) and buckets[self._ddp_next].pending == 0:
            b = buckets[self._ddp_next]
            b.work = self._ddp_group.all_reduce_async(b.flat, Gnn.ReduceOp.AVG)
            self._ddp_events.append(('launch', self._ddp_next))
            self._ddp_next += 1
        if self._ddp_next == len(buckets):
            self._ddp_finalize()

    def _ddp_finalize(self):
        """The last gradient is in: wait for every bucket and write the averages into .grad."""
        self._ddp_sync = False
        used = None
        if self._ddp_map:
            G = _g()
            used_t = G.tensor(self._ddp_local_used, dtype=G.float64)
            _call(self._ddp_group.all_reduce, used_t, Gnn.ReduceOp.SUM)
            used = used_t.tolist()
            if self.static_graph:
                self._ddp_static_used = used
        elif self.static_graph:
            used = self._ddp_static_used
        if self.static_graph and self._ddp_hook_counts is None:
            self._ddp_hook_counts = list(self._ddp_hooks_now)
        with _no_grad():
            for k, b in enumerate(self._ddp_buckets):
                work, b.work = b.work, None
                _wait(work)
                self._ddp_events.append(('wait', k))
                for i, view in zip(b.indices, b.views):
                    if used is not None and used[i] == 0:
                        continue     # no rank used it: its gradient stays as it was
                    p = self._ddp_params[i]
                    if self.gradient_as_bucket_view:
                        if p.grad is not view:
                            p.grad = view
                    elif p.grad is None:
                        p.grad = view.clone()
                    else:
                        p.grad.copy_(view)

    def no_sync(self):
        """torch's DistributedDataParallel.no_sync: a context in which backward accumulates
        gradients locally; the first synchronized backward after it averages their sum."""
        import contextlib

        @contextlib.contextmanager
        def context():
            old = self.require_backward_grad_sync
            self.require_backward_grad_sync = False
            try:
                yield
            finally:
                self.require_backward_grad_sync = old
        return context()

    def forward(self, *args, **kwargs):
        if self._ddp_sync:
            missing = [i for i, r in enumerate(self._ddp_ready) if not r]
            self._ddp_sync = False
            for b in self._ddp_buckets:      # the started all-reduces end before the error
                if b.work is not None:
                    work, b.work = b.work, None
                    try:
                        work.wait()
                    except Exception:  # the error of the next line is the one to give
                        pass
            raise RuntimeError(
                'Expected to have finished reduction in the prior iteration before starting a '
                'new one. This error indicates that your module has parameters that were not '
                'used in producing loss. You can enable unused parameter detection by passing '
                'the keyword argument `find_unused_parameters=True` to '
                '`torch.nn.parallel.DistributedDataParallel`. Parameter indices which did not '
                'receive grad for rank %d: %s' % (self._ddp_group.get_rank(),
                                                  ' '.join(str(m) for m in missing)))
        if Gnn.is_grad_enabled() and self._ddp_should_rebuild():
            self._ddp_rebuild()
        buffers = list(self.module.buffers())
        if self.broadcast_buffers and self.require_forward_param_sync and buffers:
            self._sync_state(self._ddp_group, buffers)
        out = self.module(*args, **kwargs)
        if Gnn.is_grad_enabled() and self.require_backward_grad_sync:
            self.require_forward_param_sync = True
            self._ddp_prepare(out)
        else:
            self.require_forward_param_sync = False
        return out


class _AllReduceSum(_Function):
    """The sum over the ranks, differentiable: each rank's input feeds every rank's output,
    so its gradient is the sum of every rank's output gradient."""

    @staticmethod
    def forward(ctx, x, group):
        ctx.group = group
        y = x.clone()
        _call(group.all_reduce, y, Gnn.ReduceOp.SUM)
        return y

    @staticmethod
    def backward(ctx, grad):
        g = grad.clone()
        _call(ctx.group.all_reduce, g, Gnn.ReduceOp.SUM)
        return g, None


@_export
class SyncBatchNorm(_Module):
    """torch.nn.SyncBatchNorm(num_features, eps=1e-05, momentum=0.1, affine=True,
    track_running_stats=True, process_group=None): batch normalization whose batch statistics
    are those of every rank's batch together. In training, the per-channel sum and element count
    are all-reduced for the mean, then the sum of squared deviations for the (biased) variance,
    both differentiably (the backward all-reduces their gradients), so that N ranks on batches
    of b equal one BatchNorm on the N*b batch. The running statistics are updated as
    BatchNorm's (the unbiased variance); in eval they normalize, with no communication.
    Composed of differentiable ops, in Python."""

    __gtype_name__ = 'gi+overrides+_gnn+distributed+SyncBatchNorm'
    __module__ = 'gnn.nn'
    do_forward = _forward_vfunc

    def __init__(self, num_features, eps=1e-05, momentum=0.1, affine=True,
                 track_running_stats=True, process_group=None, device=None, dtype=None):
        super().__init__()
        G = _g()
        self.num_features = num_features
        self.eps = eps
        self.momentum = momentum
        self.affine = affine
        self.track_running_stats = track_running_stats
        self.process_group = process_group
        if affine:
            self.weight = G.Parameter(G.ones(num_features))
            self.bias = G.Parameter(G.zeros(num_features))
        if track_running_stats:
            self.register_buffer('running_mean', G.zeros(num_features))
            self.register_buffer('running_var', G.ones(num_features))
            self.register_buffer('num_batches_tracked', G.tensor(0, dtype=G.int64))

    def extra_repr(self):
        return ('{num_features}, eps={eps}, momentum={momentum}, affine={affine}, '
                'track_running_stats={track_running_stats}'.format(**self.__dict__))

    def forward(self, input):
        G = _g()
        if input.dim() < 2:
            raise ValueError('expected at least 2D input (got {}D input)'.format(input.dim()))
        if input.shape[1] != self.num_features:
            raise ValueError('SyncBatchNorm: expected %d channels, got input of shape %s'
                             % (self.num_features, list(input.shape)))
        use_batch = self.training or not self.track_running_stats
        if not use_batch:
            return G.functional_batch_norm(input, self.running_mean, self.running_var,
                                self.weight if self.affine else None,
                                self.bias if self.affine else None, False, 0.0, self.eps)
        group = self.process_group if self.process_group is not None else \
            _call(Gnn.distributed_get_default_group)
        C = self.num_features
        dims = [0] + list(range(2, input.dim()))
        shape = [1, C] + [1] * (input.dim() - 2)
        count = float(input.numel() // C)
        local = G.cat([input.sum(dims), G.full([1], count, dtype=input.dtype)])
        total = _AllReduceSum.apply(local, group)
        n = float(total[C].item())
        mean = total[:C] / n
        centered = input - mean.reshape(shape)
        var = _AllReduceSum.apply((centered * centered).sum(dims), group) / n
        out = centered / (var + self.eps).sqrt().reshape(shape)
        if self.affine:
            out = out * self.weight.reshape(shape) + self.bias.reshape(shape)
        if self.training and self.track_running_stats:
            with _no_grad():
                self.num_batches_tracked.add_(1)
                m = self.momentum if self.momentum is not None else \
                    1.0 / float(self.num_batches_tracked.item())
                self.running_mean.mul_(1 - m).add_(mean.detach() * m)
                unbiased = var.detach() * (n / max(n - 1.0, 1.0))
                self.running_var.mul_(1 - m).add_(unbiased * m)
        return out

    @classmethod
    def convert_sync_batchnorm(cls, module, process_group=None):
        """torch.nn.SyncBatchNorm.convert_sync_batchnorm: module with every BatchNorm*d
        replaced by a SyncBatchNorm of the same settings, parameters and buffers."""
        out = module
        if isinstance(module, Gnn.BatchNorm):
            props = module.props
            out = cls(props.num_features, props.eps,
                      None if props.cumulative_average else props.momentum, props.affine,
                      props.track_running_stats, process_group)
            with _no_grad():
                if props.affine:
                    out.weight.copy_(module.weight)
                    out.bias.copy_(module.bias)
                if props.track_running_stats:
                    out.running_mean.copy_(module.running_mean)
                    out.running_var.copy_(module.running_var)
                    out.num_batches_tracked.copy_(module.num_batches_tracked)
            out.train(module.training)
        for name, child in module.named_children():
            out.add_module(name, cls.convert_sync_batchnorm(child, process_group))
        return out
