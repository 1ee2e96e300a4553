# torch.distributed spellings over gnn's MPI backend: run under `mpirun -np N` (run-mpi.sh)
# with the argument `mpi`, or alone with `errors` for the misuse errors (no MPI needed).
#
# SPDX-License-Identifier: LGPL-2.1-or-later
import sys

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
    except AttributeError as e:
        assert 'default group' in str(e), e
    print('errors: every check passed')


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
    try:
        dist.all_reduce(gnn.ones(2), async_op=True)
    except NotImplementedError:
        pass
    try:
        dist.init_process_group(backend='mpi')
    except RuntimeError as e:
        assert 'twice' in str(e), e
    dist.destroy_process_group()
    assert not dist.is_initialized()
    print('rank %d of %d: every check passed' % (rank, n))


if __name__ == '__main__':
    {'errors': check_errors, 'mpi': check_mpi}[sys.argv[1]]()
