# DistributedDataParallel's no_sync, find_unused_parameters and broadcast_buffers under
# `mpirun -np N` (run-mpi.sh): each run against one process on the concatenated batch.
#
# SPDX-License-Identifier: LGPL-2.1-or-later
import gnn
import gnn.distributed as dist
from gnn.nn.parallel import DistributedDataParallel as DDP

dist.init_process_group(backend='mpi')
rank, n = dist.get_rank(), dist.get_world_size()
F = gnn.nn.functional


def same_everywhere(t):
    out = [gnn.zeros_like(t) for _ in range(n)]
    dist.all_gather(out, t.detach())
    return all(gnn.equal(o, out[0]) for o in out)


def close(model, ref, what):
    for (name, p), q in zip(model.module.named_parameters(), ref.parameters()):
        if q.grad is None:
            continue
        # float32 sums over different splits of the batch: within 1e-5
        assert gnn.allclose(p, q, rtol=1e-5, atol=1e-6), (what, name, (p - q).abs().max())
        assert same_everywhere(p), (what, name, 'ranks diverged')


def mlp():
    return gnn.nn.Sequential(gnn.nn.Linear(4, 6), gnn.nn.Tanh(), gnn.nn.Linear(6, 2))


def copy_of(model):
    ref = mlp()
    ref.load_state_dict({k[len('module.'):]: v for k, v in model.state_dict().items()})
    return ref


gnn.manual_seed(7)                      # the same data on every rank
B = 4 * n
X = gnn.randn(3, B, 4)                  # three micro-batches
Y = gnn.randn(3, B, 2)
lo, hi = rank * 4, rank * 4 + 4

# ---- no_sync: two local backwards, then a synchronized one, then the step -------------
gnn.manual_seed(100 + rank)
model = DDP(mlp())
ref = copy_of(model)
opt = gnn.optim.SGD(model.parameters(), lr=0.1)
ref_opt = gnn.optim.SGD(ref.parameters(), lr=0.1)
for step in range(5):
    opt.zero_grad()
    with model.no_sync():
        for k in range(2):
            F.mse_loss(model(X[k, lo:hi]), Y[k, lo:hi]).backward()
    if n > 1 and step == 0:       # inside no_sync the gradients are this rank's own
        assert not same_everywhere(model.module[0].weight.grad), 'no_sync all-reduced'
    F.mse_loss(model(X[2, lo:hi]), Y[2, lo:hi]).backward()
    assert same_everywhere(model.module[0].weight.grad), 'the synced backward did not average'
    opt.step()
    ref_opt.zero_grad()
    for k in range(3):
        F.mse_loss(ref(X[k]), Y[k]).backward()
    ref_opt.step()
close(model, ref, 'no_sync')


# ---- find_unused_parameters: rank r uses branch b only when r is even; c is never used -
class Branches(gnn.nn.Module):
    def __init__(self):
        super().__init__()
        self.a = gnn.nn.Linear(4, 2)
        self.b = gnn.nn.Linear(4, 2)
        self.c = gnn.nn.Linear(4, 2)

    def forward(self, x, use_b):
        y = self.a(x)
        return y + self.b(x) if use_b else y


gnn.manual_seed(200 + rank)
model = DDP(Branches(), find_unused_parameters=True)
ref = Branches()
ref.load_state_dict({k[len('module.'):]: v for k, v in model.state_dict().items()})
opt = gnn.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
ref_opt = gnn.optim.SGD(ref.parameters(), lr=0.1, momentum=0.9)
for step in range(5):
    opt.zero_grad()
    F.mse_loss(model(X[0, lo:hi], rank % 2 == 0), Y[0, lo:hi]).backward()
    opt.step()
    ref_opt.zero_grad()
    # the mean over the ranks of each rank's loss, each with its own branches
    sum(F.mse_loss(ref(X[0, 4 * r:4 * r + 4], r % 2 == 0), Y[0, 4 * r:4 * r + 4])
        for r in range(n)).div(n).backward()
    ref_opt.step()
close(model, ref, 'find_unused_parameters')
assert model.module.c.weight.grad is None, 'a parameter no rank used got a gradient'
if n > 1 and rank % 2 == 1:            # unused here, used elsewhere: averaged, not None
    assert model.module.b.weight.grad is not None
for p, q in zip(model.module.parameters(), ref.parameters()):
    if q.grad is not None:
        assert gnn.allclose(p.grad, q.grad, rtol=1e-5, atol=1e-6)


# ---- broadcast_buffers: a buffer each rank changes differently in forward -------------
class Counter(gnn.nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = gnn.nn.Linear(4, 2)
        self.register_buffer('shift', gnn.zeros(2))

    def forward(self, x, by):
        y = self.lin(x) + self.shift
        with gnn.no_grad():
            self.shift.add_(by)
        return y


for broadcast in (True, False):
    gnn.manual_seed(300 + rank)
    model = DDP(Counter(), broadcast_buffers=broadcast)
    ref = Counter()
    ref.load_state_dict({k[len('module.'):]: v for k, v in model.state_dict().items()})
    opt = gnn.optim.SGD(model.parameters(), lr=0.1)
    ref_opt = gnn.optim.SGD(ref.parameters(), lr=0.1)
    shifts = [gnn.zeros(2) for _ in range(n)]      # each rank's buffer without broadcasts
    for step in range(4):
        opt.zero_grad()
        F.mse_loss(model(X[1, lo:hi], rank + 1.0), Y[1, lo:hi]).backward()
        opt.step()
        ref_opt.zero_grad()
        # with broadcast_buffers every rank's forward sees rank 0's buffer
        loss = 0
        for r in range(n):
            with gnn.no_grad():
                ref.shift.copy_(shifts[0] if broadcast else shifts[r])
            loss = loss + F.mse_loss(ref.lin(X[1, 4 * r:4 * r + 4]) + ref.shift,
                                     Y[1, 4 * r:4 * r + 4])
        (loss / n).backward()
        ref_opt.step()
        shifts = [(shifts[0] if broadcast else shifts[r]) + (r + 1.0) for r in range(n)]
    close(model, ref, 'broadcast_buffers=%s' % broadcast)
    assert gnn.allclose(model.module.shift, shifts[rank]), (broadcast, model.module.shift)

dist.destroy_process_group()
print('rank %d of %d: no_sync, find_unused_parameters and broadcast_buffers match one process'
      % (rank, n))
