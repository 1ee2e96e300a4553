# torch.distributed spellings over gnn's MPI backend: run under `mpirun -np N` (run-mpi.sh)
# with the argument `mpi`, or alone with `errors` for the misuse errors (no MPI needed).
#
# SPDX-License-Identifier: LGPL-2.1-or-later
import sys
import warnings

import numpy as np

import gnn
import gnn.distributed as dist


def check_errors():
    assert not dist.is_initialized()
    for fn in (dist.get_rank, dist.get_world_size, dist.barrier, dist.destroy_process_group):
        try:
            fn()
        except RuntimeError as e:
            assert 'init_process_group' in str(e), e
        else:
            raise AssertionError('%s before init_process_group did not raise' % fn.__name__)
    try:
        dist.all_reduce(gnn.ones(2))
    except RuntimeError as e:
        assert 'has not been initialized' in str(e), e
    else:
        raise AssertionError('all_reduce before init did not raise')
    for bad, cls in (('nosuch', ValueError), ('nccl', RuntimeError)):
        try:
            dist.init_process_group(backend=bad)
        except cls as e:
            assert bad in str(e).lower(), e
        else:
            raise AssertionError('backend %r did not raise' % bad)
    assert not dist.is_initialized()
    try:
        dist.new_group([0])
    except RuntimeError as e:
        assert 'init_process_group' in str(e), e
    else:
        raise AssertionError('new_group before init did not raise')
    print('errors: every check passed')


def raises(cls, needle, fn, *args, **kwargs):
    try:
        fn(*args, **kwargs)
    except cls as e:
        assert needle in str(e), (needle, str(e))
    else:
        raise AssertionError('%s did not raise %s' % (fn.__name__, cls.__name__))


def check_collectives(rank, n):
    """Every collective against numpy, on every rank: rank r's data is data(r)."""
    def data(r, shape=(3, 2)):
        return (np.arange(np.prod(shape), dtype=np.float32).reshape(shape) * (r + 1) + r)

    def close(t, want):
        got = t.numpy()
        assert got.shape == want.shape and np.allclose(got, want, rtol=1e-6, atol=0), (got, want)

    every = np.stack([data(r) for r in range(n)])
    # async all_reduce: a work handle, results after wait
    t = gnn.tensor(data(rank))
    work = dist.all_reduce(t, op=dist.ReduceOp.MAX, async_op=True)
    assert work.wait() is True and work.is_completed() and work.is_success()
    close(t, every.max(0))
    # reduce: only dst changes
    for dst in range(n):
        t = gnn.tensor(data(rank))
        dist.reduce(t, dst, op=dist.ReduceOp.SUM)
        close(t, every.sum(0) if rank == dst else data(rank))
    raises(RuntimeError, 'world size %d' % n, dist.reduce, gnn.zeros(1), n)
    # reduce_scatter and reduce_scatter_tensor: rank r gets the sum over s of block r of s
    blocks = [[data(s * n + i) for i in range(n)] for s in range(n)]
    out = gnn.zeros(3, 2)
    dist.reduce_scatter(out, [gnn.tensor(b) for b in blocks[rank]])
    close(out, sum(blocks[s][rank] for s in range(n)))
    out = gnn.zeros(3, 2)
    w = dist.reduce_scatter_tensor(out, gnn.tensor(np.concatenate(blocks[rank])),
                                   op=dist.ReduceOp.AVG, async_op=True)
    w.wait()
    close(out, sum(blocks[s][rank] for s in range(n)) / n)
    # all_gather_into_tensor
    out = gnn.zeros(3 * n, 2)
    dist.all_gather_into_tensor(out, gnn.tensor(data(rank)))
    close(out, np.concatenate([data(r) for r in range(n)]))
    # gather to the last rank, scatter from rank 0
    dst = n - 1
    lst = [gnn.zeros(3, 2) for _ in range(n)] if rank == dst else None
    dist.gather(gnn.tensor(data(rank)), lst, dst=dst)
    if rank == dst:
        for r in range(n):
            close(lst[r], data(r))
    out = gnn.zeros(3, 2)
    dist.scatter(out, [gnn.tensor(data(10 + r)) for r in range(n)] if rank == 0 else None, src=0)
    close(out, data(10 + rank))
    if n > 1:
        raises(RuntimeError, 'must NOT be specified', dist.gather, gnn.zeros(3, 2),
               [gnn.zeros(3, 2) for _ in range(n)], dst=(rank + 1) % n)
    # all_to_all with sizes that differ: rank s sends s + d + 1 rows to rank d
    ins = [gnn.tensor(np.full((rank + d + 1, 2), 10 * rank + d, dtype=np.float32)) for d in range(n)]
    outs = [gnn.zeros(s + rank + 1, 2) for s in range(n)]
    dist.all_to_all(outs, ins)
    for s in range(n):
        close(outs[s], np.full((s + rank + 1, 2), 10 * s + rank, dtype=np.float32))
    # all_to_all_single with split sizes: rank s sends d + 1 rows to rank d
    in_sizes = [d + 1 for d in range(n)]
    out_sizes = [rank + 1] * n
    src = np.concatenate([np.full((d + 1, 2), 100 * rank + d, dtype=np.float32) for d in range(n)])
    out = gnn.zeros(sum(out_sizes), 2)
    dist.all_to_all_single(out, gnn.tensor(src), out_sizes, in_sizes)
    close(out, np.concatenate([np.full((rank + 1, 2), 100 * s + rank, dtype=np.float32)
                               for s in range(n)]))
    if n > 1:   # rank 0 expects a row too many from rank 1: an error on every rank
        bad = [x + (1 if rank == 0 and i == 1 else 0) for i, x in enumerate(out_sizes)]
        raises(RuntimeError, 'rank', dist.all_to_all_single,
               gnn.zeros(sum(bad), 2), gnn.tensor(src), bad, in_sizes)
    # objects
    objs = [None] * n
    dist.all_gather_object(objs, {'rank': rank, 'name': 'r' * rank})
    assert objs == [{'rank': r, 'name': 'r' * r} for r in range(n)], objs
    lst = [('x', 1), [2.5]] if rank == n - 1 else [None, None]
    dist.broadcast_object_list(lst, src=n - 1)
    assert lst == [('x', 1), [2.5]], lst
    # send/recv around a ring: isend then recv on every rank, from any source
    if n > 1:
        nxt, prv = (rank + 1) % n, (rank - 1) % n
        w = dist.isend(gnn.tensor(data(rank)), nxt, tag=3)
        got = gnn.zeros(3, 2)
        assert dist.recv(got, tag=3) == prv
        w.wait()
        close(got, data(prv))
        r = dist.irecv(got, src=nxt, tag=4)
        dist.send(gnn.tensor(data(rank) * 2), prv, tag=4)
        r.wait()
        close(got, data(nxt) * 2)
        raises(RuntimeError, 'world size %d' % n, dist.send, gnn.zeros(1), n)
    # new_group of the even ranks: group ranks, src as a rank of the default group
    evens = list(range(0, n, 2))
    g = dist.new_group(evens)
    if rank % 2 == 0:
        assert dist.get_rank(g) == rank // 2 and dist.get_world_size(g) == len(evens)
        t = gnn.tensor(data(rank))
        dist.all_reduce(t, group=g)
        close(t, sum(data(r) for r in evens))
        t = gnn.tensor(data(rank))
        dist.broadcast(t, src=evens[-1], group=g)
        close(t, data(evens[-1]))
        if n > 1:
            raises(RuntimeError, 'not part of the group', dist.broadcast, t, 1, group=g)
    else:
        assert g is dist.GroupMember.NON_GROUP_MEMBER
        assert dist.get_rank(g) == -1 and dist.get_world_size(g) == -1
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter('always')
            assert dist.all_reduce(gnn.zeros(1), group=g) is None
        assert 'does not belong to the given group' in str(caught[0].message)
    # new_group() is every rank, in the default group's order
    everyone = dist.new_group()
    assert dist.get_rank(everyone) == rank and dist.get_world_size(everyone) == n
    objs = [None] * n
    dist.all_gather_object(objs, rank, group=everyone)
    assert objs == list(range(n)), objs
    dist.barrier()


def check_timeouts(rank, n):
    """Work.wait(timeout): a receive no send matches fails after its timeout, cancelled; the
    default is init_process_group's timeout."""
    import datetime
    import time
    if n > 1:
        t = gnn.zeros(3)
        w = dist.irecv(t, src=(rank + 1) % n, tag=777)
        start = time.monotonic()
        raises(RuntimeError, 'recv: timed out waiting 150 ms', w.wait,
               datetime.timedelta(milliseconds=150))
        assert time.monotonic() - start >= 0.15
        assert w.is_completed() and not w.is_success()
        assert 'timed out' in str(w.exception()), w.exception()
        # a timeout of init_process_group's: the default of every wait (0.2 s here)
        w = dist.irecv(t, src=(rank + 1) % n, tag=778)
        raises(RuntimeError, 'timed out waiting 200 ms', w.wait)
        assert t.tolist() == [0.0, 0.0, 0.0]
    t = gnn.tensor([1.0])
    w = dist.all_reduce(t, async_op=True)
    assert w.wait(datetime.timedelta(seconds=60)) is True and t.tolist() == [float(n)]
    assert w.is_completed() and w.is_success() and w.exception() is None
    raises(ValueError, 'negative', w.wait, -1.0)


def check_timeout():
    """A process of its own: init_process_group's timeout (0.2 s) is every wait's limit, and
    MPI cannot start again after destroy_process_group."""
    import datetime
    raises(TypeError, 'timedelta', dist.init_process_group, backend='mpi', timeout=5)
    assert dist.default_pg_timeout == datetime.timedelta(minutes=30)
    dist.init_process_group(backend='mpi', timeout=datetime.timedelta(milliseconds=200))
    rank, n = dist.get_rank(), dist.get_world_size()
    check_timeouts(rank, n)
    dist.destroy_process_group()
    print('rank %d of %d: the timeouts passed' % (rank, n))


def check_mpi():
    dist.init_process_group(backend='mpi')
    assert dist.is_initialized() and dist.get_backend() == 'mpi'
    rank, n = dist.get_rank(), dist.get_world_size()
    t = gnn.tensor([float(rank + 1), 2.0 * rank])
    dist.all_reduce(t)
    assert t.tolist() == [n * (n + 1) / 2, float(n * (n - 1))], t
    t = gnn.tensor([float(rank)], dtype=gnn.float64)
    dist.all_reduce(t, op=dist.ReduceOp.MAX)
    assert t.tolist() == [n - 1.0], t
    t = gnn.tensor([float(rank), 1.0])
    dist.all_reduce(t, op=dist.ReduceOp.AVG)
    assert abs(t.tolist()[0] - (n - 1) / 2) < 1e-6 and t.tolist()[1] == 1.0, t
    t = gnn.tensor([rank, rank * 3])
    dist.broadcast(t, src=n - 1)
    assert t.tolist() == [n - 1, 3 * (n - 1)], t
    out = [gnn.zeros(2, dtype=gnn.int64) for _ in range(n)]
    dist.all_gather(out, gnn.tensor([rank, -rank]))
    assert [o.tolist() for o in out] == [[r, -r] for r in range(n)], out
    dist.barrier()
    if n > 1:
        try:
            dist.all_reduce(gnn.ones(2 if rank == 0 else 3))
        except RuntimeError as e:
            assert 'same size' in str(e), e
        else:
            raise AssertionError('mismatched sizes did not raise')
    check_collectives(rank, n)
    try:
        dist.init_process_group(backend='mpi')
    except RuntimeError as e:
        assert 'twice' in str(e), e
    dist.destroy_process_group()
    assert not dist.is_initialized()
    print('rank %d of %d: every check passed' % (rank, n))


if __name__ == '__main__':
    {'errors': check_errors, 'mpi': check_mpi, 'timeout': check_timeout}[sys.argv[1]]()
