# SyncBatchNorm under `mpirun -np N` (run-mpi.sh): N ranks on batches of b, through
# convert_sync_batchnorm and DistributedDataParallel, equal one process with BatchNorm on the
# batch of N*b: outputs, input gradients, parameters and running statistics.
#
# SPDX-License-Identifier: LGPL-2.1-or-later
import gnn
import gnn.distributed as dist
from gnn.nn.parallel import DistributedDataParallel as DDP

dist.init_process_group(backend='mpi')
rank, n = dist.get_rank(), dist.get_world_size()
F = gnn.nn.functional


def model():
    return gnn.nn.Sequential(gnn.nn.Conv2d(2, 3, 3, padding=1), gnn.nn.BatchNorm2d(3),
                             gnn.nn.ReLU(), gnn.nn.Flatten(), gnn.nn.Linear(3 * 4 * 4, 2),
                             gnn.nn.BatchNorm1d(2, momentum=None))


def check(a, b, what):
    # float32 sums over different splits of the batch: within 1e-5
    assert gnn.allclose(a, b, rtol=1e-5, atol=1e-6), (what, (a - b).abs().max())


gnn.manual_seed(11)
ref = model()
local = gnn.nn.SyncBatchNorm.convert_sync_batchnorm(model())
local.load_state_dict(ref.state_dict())
assert type(local[1]).__name__ == 'SyncBatchNorm' and type(local[5]).__name__ == 'SyncBatchNorm'
assert local[5].momentum is None and local[1].num_features == 3
ddp = DDP(local)
gnn.manual_seed(5)                       # the same data on every rank
b = 3
X = gnn.randn(4, n * b, 2, 4, 4)
Y = gnn.randn(4, n * b, 2)
opt = gnn.optim.SGD(ddp.parameters(), lr=0.05, momentum=0.9)
ref_opt = gnn.optim.SGD(ref.parameters(), lr=0.05, momentum=0.9)
lo, hi = rank * b, rank * b + b
for step in range(4):
    x = X[step, lo:hi].clone().requires_grad_(True)
    xr = X[step].clone().requires_grad_(True)
    opt.zero_grad()
    out = ddp(x)
    # the loss of the whole batch is the mean of the ranks' (equal shares): DDP averages
    F.mse_loss(out, Y[step, lo:hi]).backward()
    opt.step()
    ref_opt.zero_grad()
    ref_out = ref(xr)
    F.mse_loss(ref_out, Y[step]).backward()
    ref_opt.step()
    check(out, ref_out[lo:hi], 'output, step %d' % step)
    # the input gradient of rank r's share is 1/n of the whole batch's (DDP's mean)
    check(x.grad * (1.0 / n), xr.grad[lo:hi], 'input gradient, step %d' % step)
for (name, p), q in zip(ddp.module.named_parameters(), ref.parameters()):
    check(p, q, name)
for (name, p), q in zip(ddp.module.named_buffers(), ref.buffers()):
    check(p.double(), q.double(), name)
ddp.eval()
ref.eval()
check(ddp(X[0, lo:hi]), ref(X[0])[lo:hi], 'eval output')
dist.destroy_process_group()
print('rank %d of %d: SyncBatchNorm matches one BatchNorm on the whole batch' % (rank, n))
