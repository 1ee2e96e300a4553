# DistributedDataParallel's gradient buckets under `mpirun -np N` (run-mpi.sh): the layout
# against torch 1.13's bucketing rule, the order of the all-reduces against backward, and
# N ranks against one process on the whole batch with buckets, gradient_as_bucket_view,
# no_sync, find_unused_parameters and static_graph.
#
# SPDX-License-Identifier: LGPL-2.1-or-later
import gnn
import gnn.distributed as dist
from gnn.nn.parallel import DistributedDataParallel as DDP

dist.init_process_group(backend='mpi')
rank, n = dist.get_rank(), dist.get_world_size()
F = gnn.nn.functional
MiB = 1024 * 1024
CAP_MB = 0.05                 # later buckets: 52428 bytes


def same_everywhere(t):
    out = [gnn.zeros_like(t) for _ in range(n)]
    dist.all_gather(out, t.detach())
    return all(gnn.equal(o, out[0]) for o in out)


def net():
    # 1.2 MiB of parameters: the 512x600 weight fills the first (1 MiB) bucket by itself
    return gnn.nn.Sequential(gnn.nn.Linear(32, 512), gnn.nn.Tanh(), gnn.nn.Linear(512, 600),
                             gnn.nn.Tanh(), gnn.nn.Linear(600, 64), gnn.nn.Linear(64, 4))


def copy_of(model, make=net):
    ref = make()
    ref.load_state_dict({k[len('module.'):]: v for k, v in model.state_dict().items()})
    return ref


def close(model, ref, what):
    for (name, p), q in zip(model.module.named_parameters(), ref.parameters()):
        # float32 sums over different splits of the batch: within 1e-5
        assert gnn.allclose(p, q, rtol=1e-5, atol=1e-6), (what, name, (p - q).abs().max())
        assert same_everywhere(p), (what, name, 'ranks diverged')


def torch_rule(params, limits, indices=()):
    import torch
    ts = [torch.empty(list(p.shape), dtype=torch.float64 if p.dtype == gnn.float64
                      else torch.float32) for p in params]
    return torch.distributed._compute_bucket_assignment_by_size(ts, limits, [], list(indices))


def rule(params, limits, indices=()):
    return dist._compute_bucket_assignment_by_size(params, limits, (), indices)


# ---- the rule: mixed sizes and dtypes, against torch's own function (on rank 0 only: the
#      rule does not depend on the rank, and importing torch costs seconds) ------------------
mixed = [gnn.zeros(s, dtype=d) for s, d in (
    ([300, 600], gnn.float32), ([600], gnn.float32), ([100, 100], gnn.float64), ([7], gnn.float32),
    ([1000, 300], gnn.float32), ([20000], gnn.float64), ([5], gnn.float64), ([64, 64], gnn.float32))]
for limits in ([MiB, int(CAP_MB * MiB)], [MiB, 25 * MiB], [100, 1000, 10000],
               [2 ** 63 - 1]) if rank == 0 else ():
    ours = dist._compute_bucket_assignment_by_size(mixed, limits)
    theirs = torch_rule(mixed, limits)
    assert [list(b) for b in ours[0]] == [list(b) for b in theirs[0]], (limits, ours, theirs)
    assert list(ours[1]) == list(theirs[1]), (limits, ours, theirs)
    order = [7, 3, 0, 5, 1, 6, 2, 4]
    ours = dist._compute_bucket_assignment_by_size([mixed[i] for i in order], limits, (), order)
    theirs = torch_rule([mixed[i] for i in order], limits, order)
    assert [list(b) for b in ours[0]] == [list(b) for b in theirs[0]], (limits, ours, theirs)
if rank == 0:
    import torch
    assert dist._DEFAULT_FIRST_BUCKET_BYTES == torch.distributed._DEFAULT_FIRST_BUCKET_BYTES == MiB


def check_rule(model, params, limits):
    """Every bucket but the last of its dtype reaches its limit, and is under it without its
    last parameter: the first at 1 MiB, the others at the cap."""
    sizes = [sum(params[i].numel() * params[i].element_size() for i in b)
             for b in model.bucket_indices]
    for k, (b, size) in enumerate(zip(model.bucket_indices, sizes)):
        limit = limits[min(k, len(limits) - 1)]
        last = params[b[-1]].numel() * params[b[-1]].element_size()
        if k < len(sizes) - 1:
            assert size >= limit and size - last < limit, (k, b, size, limit)
        else:
            assert size < limit or size - last < limit, (k, b, size, limit)


# ---- the layouts DDP uses --------------------------------------------------------------------
gnn.manual_seed(7)                      # the same data on every rank
B = 4 * n
X = gnn.randn(3, B, 32)
Y = gnn.randn(3, B, 4)
lo, hi = rank * 4, rank * 4 + 4

model = DDP(net(), bucket_cap_mb=CAP_MB)
params = list(model.module.parameters())
# torch 1.13: one bucket in the first iteration (no find_unused_parameters)
assert model.bucket_indices == [list(range(len(params)))], model.bucket_indices
F.mse_loss(model(X[0, lo:hi]), Y[0, lo:hi]).backward()
ready = [i for e, i in model._ddp_events if e == 'ready']
assert sorted(ready) == list(range(len(params))), ready
model(X[0, lo:hi])                      # the rebuild comes before this forward
model.zero_grad()
expected = rule([params[i] for i in ready], [MiB, int(CAP_MB * MiB)], ready)[0]
assert model.bucket_indices == [list(b) for b in expected], (model.bucket_indices, expected)
assert len(model.bucket_indices) >= 3, model.bucket_indices
check_rule(model, params, [MiB, int(CAP_MB * MiB)])
info = model._get_ddp_logging_data()
assert info['has_rebuilt_buckets'] == 1 and info['bucket_sizes'] == str(
    sum(p.numel() * 4 for p in params)), info
assert info['rebuilt_per_bucket_param_indices'] == ', '.join(
    ' '.join(str(i) for i in b) for b in expected), info
model._ddp_sync = False                 # that forward's backward is not run

# with find_unused_parameters: the registration order, reversed, and never rebuilt
fu = DDP(net(), bucket_cap_mb=CAP_MB, find_unused_parameters=True)
fparams = list(fu.module.parameters())
theirs = rule(fparams, [MiB, int(CAP_MB * MiB)])[0]
assert fu.bucket_indices == [list(b) for b in reversed(theirs)], (fu.bucket_indices, theirs)
for step in range(2):
    F.mse_loss(fu(X[0, lo:hi]), Y[0, lo:hi]).backward()
assert fu.bucket_indices == [list(b) for b in reversed(theirs)], 'rebuilt with find_unused'

# ---- overlap: each bucket's all-reduce starts as soon as its last gradient is in, while the
#      gradients of the later buckets are still to come; every wait comes after the last one
gnn.manual_seed(11 + rank)
model = DDP(net(), bucket_cap_mb=CAP_MB)
for step in range(2):
    model.zero_grad()
    F.mse_loss(model(X[0, lo:hi]), Y[0, lo:hi]).backward()
events = model._ddp_events
buckets = model.bucket_indices
last_ready = max(k for k, e in enumerate(events) if e[0] == 'ready')
first_wait = min(k for k, e in enumerate(events) if e[0] == 'wait')
assert first_wait > last_ready, events
for b, members in enumerate(buckets):
    at = events.index(('launch', b))
    done = max(events.index(('ready', i)) for i in members)
    # launched right after its last gradient (or right after the bucket before it)
    assert all(e[0] == 'launch' for e in events[done + 1:at]), (b, events)
    if b < len(buckets) - 1:
        later = [k for k, e in enumerate(events) if e[0] == 'ready' and k > at]
        assert later, ('bucket %d was launched after the whole backward' % b, events)
assert [e for e in events if e[0] == 'launch'] == [('launch', b) for b in range(len(buckets))]
for p in model.parameters():
    assert same_everywhere(p.grad), 'not averaged when backward returned'


# ---- N ranks equal one process on the whole batch; buckets equal one all-reduce -------------
def train(view, steps=6, one_bucket=False):
    gnn.manual_seed(100 + rank)
    model = DDP(net(), bucket_cap_mb=CAP_MB, gradient_as_bucket_view=view)
    if one_bucket:        # the one all-reduce of every gradient (the layout before rebuilding)
        model._ddp_set_buckets([list(range(len(params)))], [2 ** 63 - 1])
        model._ddp_has_rebuilt = True
    ref = copy_of(model)
    opt = gnn.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    ref_opt = gnn.optim.SGD(ref.parameters(), lr=0.05, momentum=0.9)
    for step in range(steps):
        opt.zero_grad(set_to_none=(step % 2 == 0))
        F.mse_loss(model(X[step % 3, lo:hi]), Y[step % 3, lo:hi]).backward()
        if view:
            for i, p in enumerate(model.module.parameters()):
                v = model._ddp_view(i)
                assert p.grad is v, 'gradient_as_bucket_view: .grad is not its bucket view'
        opt.step()
        ref_opt.zero_grad()
        F.mse_loss(ref(X[step % 3]), Y[step % 3]).backward()
        ref_opt.step()
    close(model, ref, 'buckets, gradient_as_bucket_view=%s' % view)
    if not one_bucket:
        assert len(model.bucket_indices) >= 3
    return model


bucketed = train(False)
viewed = train(True)
single = train(False, one_bucket=True)
for p, q, r in zip(bucketed.parameters(), viewed.parameters(), single.parameters()):
    assert gnn.allclose(p, r, rtol=1e-6, atol=1e-7), (p - r).abs().max()
    assert gnn.allclose(p, q, rtol=1e-6, atol=1e-7), (p - q).abs().max()

# ---- no_sync with buckets: two local backwards, then a synchronized one ----------------------
for view in (False, True):
    gnn.manual_seed(200 + rank)
    model = DDP(net(), bucket_cap_mb=CAP_MB, gradient_as_bucket_view=view)
    ref = copy_of(model)
    opt = gnn.optim.SGD(model.parameters(), lr=0.05)
    ref_opt = gnn.optim.SGD(ref.parameters(), lr=0.05)
    for step in range(4):
        opt.zero_grad()
        with model.no_sync():
            for k in range(2):
                F.mse_loss(model(X[k, lo:hi]), Y[k, lo:hi]).backward()
        if n > 1 and step == 0:
            assert not same_everywhere(model.module[0].weight.grad), 'no_sync all-reduced'
        F.mse_loss(model(X[2, lo:hi]), Y[2, lo:hi]).backward()
        opt.step()
        ref_opt.zero_grad()
        for k in range(3):
            F.mse_loss(ref(X[k]), Y[k]).backward()
        ref_opt.step()
    assert len(model.bucket_indices) >= 3
    close(model, ref, 'no_sync, gradient_as_bucket_view=%s' % view)


# ---- find_unused_parameters with buckets: rank r uses the big branch b when r is even --------
class Branches(gnn.nn.Module):
    def __init__(self):
        super().__init__()
        self.c = gnn.nn.Linear(32, 9000)    # never used; 1.1 MiB
        self.a = gnn.nn.Linear(32, 4)
        self.b = gnn.nn.Sequential(gnn.nn.Linear(32, 600), gnn.nn.Tanh(), gnn.nn.Linear(600, 4))
        self.d = gnn.nn.Linear(32, 4)

    def forward(self, x, use_b):
        y = self.a(x) + self.d(x)
        return y + self.b(x) if use_b else y


for static in (False, True):
    gnn.manual_seed(300 + rank)
    if static:      # the same branches in every iteration: static_graph's premise
        model = DDP(Branches(), bucket_cap_mb=CAP_MB, static_graph=True)
    else:
        model = DDP(Branches(), bucket_cap_mb=CAP_MB, find_unused_parameters=True)
        assert len(model.bucket_indices) >= 3, model.bucket_indices
    ref = copy_of(model, Branches)
    opt = gnn.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    ref_opt = gnn.optim.SGD(ref.parameters(), lr=0.05, momentum=0.9)
    for step in range(5):
        opt.zero_grad()
        F.mse_loss(model(X[0, lo:hi], rank % 2 == 0), Y[0, lo:hi]).backward()
        opt.step()
        ref_opt.zero_grad()
        sum(F.mse_loss(ref(X[0, 4 * r:4 * r + 4], r % 2 == 0), Y[0, 4 * r:4 * r + 4])
            for r in range(n)).div(n).backward()
        ref_opt.step()
    what = 'static_graph' if static else 'find_unused_parameters'
    for (name, p), q in zip(model.module.named_parameters(), ref.parameters()):
        if q.grad is None:
            assert p.grad is None, (what, name, 'a parameter no rank used got a gradient')
            continue
        assert gnn.allclose(p, q, rtol=1e-5, atol=1e-6), (what, name, (p - q).abs().max())
        assert gnn.allclose(p.grad, q.grad, rtol=1e-5, atol=1e-6), (what, name)
        assert same_everywhere(p), (what, name, 'ranks diverged')
    assert model.module.c.weight.grad is None
    if static:
        assert model._get_ddp_logging_data()['has_rebuilt_buckets'] == 1
        assert len(model.bucket_indices) >= 3, model.bucket_indices
    if n > 1 and rank % 2 == 1:         # unused here, used elsewhere: averaged, not None
        assert model.module.b[0].weight.grad is not None

dist.destroy_process_group()
print('rank %d of %d: DDP buckets follow torch\'s rule, overlap backward and match one process'
      % (rank, n))
