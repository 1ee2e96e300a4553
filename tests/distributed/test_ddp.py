# DistributedDataParallel under `mpirun -np N` (run-mpi.sh): N ranks, each on its share of a
# batch, end with the parameters of one process trained on the whole batch.
#
# SPDX-License-Identifier: LGPL-2.1-or-later
import gnn
import gnn.distributed as dist
from gnn.nn.parallel import DistributedDataParallel as DDP

dist.init_process_group(backend='mpi')
rank, n = dist.get_rank(), dist.get_world_size()

def mlp():
    return gnn.nn.Sequential(gnn.nn.Linear(4, 8), gnn.nn.Tanh(), gnn.nn.Linear(8, 2))

gnn.manual_seed(100 + rank)          # different starts: DDP must broadcast rank 0's
model = DDP(mlp())
assert model.module is not None
keys = list(model.state_dict().keys())
assert keys == ['module.0.weight', 'module.0.bias', 'module.2.weight', 'module.2.bias'], keys

# the broadcast: every rank's parameters are rank 0's
for p in model.parameters():
    out = [gnn.zeros_like(p) for _ in range(n)]
    dist.all_gather(out, p.detach())
    assert all(gnn.equal(o, out[0]) for o in out), 'parameters differ after construction'

ref = mlp()
ref.load_state_dict({k[len('module.'):]: v for k, v in model.state_dict().items()})

gnn.manual_seed(7)                    # the same data on every rank
B = 4 * n
X = gnn.randn(B, 4)
Y = gnn.randn(B, 2)
opt = gnn.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
ref_opt = gnn.optim.SGD(ref.parameters(), lr=0.1, momentum=0.9)
lo, hi = rank * (B // n), (rank + 1) * (B // n)
for step in range(20):
    opt.zero_grad()
    gnn.nn.functional.mse_loss(model(X[lo:hi]), Y[lo:hi]).backward()
    opt.step()
    ref_opt.zero_grad()
    gnn.nn.functional.mse_loss(ref(X), Y).backward()
    ref_opt.step()

for (name, p), q in zip(model.module.named_parameters(), ref.parameters()):
    # float32 sums over different splits of the batch: within 1e-5
    assert gnn.allclose(p, q, rtol=1e-5, atol=1e-6), (name, (p - q).abs().max())
    out = [gnn.zeros_like(p) for _ in range(n)]
    dist.all_gather(out, p.detach())
    assert all(gnn.equal(o, out[0]) for o in out), 'ranks diverged'
dist.destroy_process_group()
print('rank %d of %d: DDP matches one process on the whole batch' % (rank, n))
