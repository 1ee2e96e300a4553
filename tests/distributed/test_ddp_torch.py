# gnn's DistributedDataParallel against torch 1.13's over gloo, in the same job: under
# `mpirun -np N` (run-mpi.sh) every rank also joins a torch gloo group on loopback (the port
# chosen by rank 0 and sent over gnn's group), wraps the same model with the same weights in
# both, and trains both on its share of the same batches. The state-dict keys, the bucket
# layouts torch logs ('bucket_sizes', with and without find_unused_parameters), the gradients
# after each backward and the parameters after each step are torch's.
#
# The layout after the rebuild follows the order the gradients became ready, which is the
# autograd engine's: torch's runs a Linear's bias AccumulateGrad before its weight's, gnn's the
# weight's first, so the rebuilt buckets may be cut elsewhere; the rule applied to that order is
# checked in test_ddp_buckets.py.
#
# SPDX-License-Identifier: LGPL-2.1-or-later
import os
import socket

import gnn
import gnn.distributed as dist
from gnn.nn.parallel import DistributedDataParallel as DDP

dist.init_process_group(backend='mpi')
rank, n = dist.get_rank(), dist.get_world_size()
port = [None]
if rank == 0:
    with socket.socket() as s:
        s.bind(('127.0.0.1', 0))
        port[0] = s.getsockname()[1]
dist.broadcast_object_list(port, src=0)

import torch                                      # noqa: E402 (after gnn's group is up)
import torch.distributed as tdist                 # noqa: E402

os.environ.setdefault('GLOO_SOCKET_IFNAME', 'lo')
tdist.init_process_group('gloo', init_method='tcp://127.0.0.1:%d' % port[0], rank=rank,
                         world_size=n)
F = gnn.nn.functional


def gnn_net():
    return gnn.nn.Sequential(gnn.nn.Linear(32, 512), gnn.nn.Tanh(), gnn.nn.Linear(512, 600),
                             gnn.nn.Tanh(), gnn.nn.Linear(600, 64), gnn.nn.Linear(64, 4))


def torch_net():
    return torch.nn.Sequential(torch.nn.Linear(32, 512), torch.nn.Tanh(),
                               torch.nn.Linear(512, 600), torch.nn.Tanh(),
                               torch.nn.Linear(600, 64), torch.nn.Linear(64, 4))


def to_torch(t):
    return torch.tensor(t.detach().tolist(), dtype=torch.float32)


def close(a, b, what):
    b = to_torch(b) if not isinstance(b, torch.Tensor) else b
    a = to_torch(a)
    # float32: the same sums in other orders (gnn's kernels, MPI's and gloo's reductions)
    assert torch.allclose(a, b, rtol=1e-5, atol=1e-6), (what, (a - b).abs().max().item())


gnn.manual_seed(5)                     # the same weights and data on every rank
B = 4 * n
X = gnn.randn(4, B, 32)
Y = gnn.randn(4, B, 4)
lo, hi = rank * 4, rank * 4 + 4
for find_unused in (False, True):
    gnn.manual_seed(40 + rank)         # different starts: both broadcast rank 0's
    ours = DDP(gnn_net(), bucket_cap_mb=0.05, find_unused_parameters=find_unused)
    ref = torch_net()
    with torch.no_grad():
        for q, p in zip(ref.parameters(), ours.module.parameters()):
            q.copy_(to_torch(p) + (rank if rank else 0))   # differs on ranks > 0: the broadcast
    theirs = torch.nn.parallel.DistributedDataParallel(ref, bucket_cap_mb=0.05,
                                                        find_unused_parameters=find_unused)
    assert list(ours.state_dict()) == list(theirs.state_dict()), \
        (list(ours.state_dict()), list(theirs.state_dict()))
    for p, q in zip(ours.parameters(), theirs.parameters()):
        close(p, q, 'after the broadcast')
    opt = gnn.optim.SGD(ours.parameters(), lr=0.05, momentum=0.9)
    topt = torch.optim.SGD(theirs.parameters(), lr=0.05, momentum=0.9)
    for step in range(4):
        opt.zero_grad()
        topt.zero_grad()
        F.mse_loss(ours(X[step, lo:hi]), Y[step, lo:hi]).backward()
        torch.nn.functional.mse_loss(theirs(to_torch(X[step, lo:hi])),
                                     to_torch(Y[step, lo:hi])).backward()
        if step == 0:
            # the first iteration's layout, as torch logs it
            info, tinfo = ours._get_ddp_logging_data(), theirs._get_ddp_logging_data()
            assert info['bucket_sizes'] == tinfo['bucket_sizes'], (info, tinfo)
            assert info['bucket_cap_bytes'] == tinfo['bucket_cap_bytes']
        for (name, p), q in zip(ours.module.named_parameters(), theirs.parameters()):
            close(p.grad, q.grad, ('grad', find_unused, step, name))
        opt.step()
        topt.step()
    for (name, p), q in zip(ours.module.named_parameters(), theirs.parameters()):
        close(p, q, ('parameters', find_unused, name))
    # rebuilt once without find_unused_parameters, never with it, as torch's
    assert ours._get_ddp_logging_data()['has_rebuilt_buckets'] == \
        theirs._get_ddp_logging_data()['has_rebuilt_buckets'] == (0 if find_unused else 1)

tdist.destroy_process_group()
dist.destroy_process_group()
print('rank %d of %d: DDP matches torch\'s over gloo' % (rank, n))
