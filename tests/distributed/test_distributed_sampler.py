# DistributedSampler against torch's: the index lists are torch's for the same arguments,
# without shuffle and with it (torch's randperm of seed + epoch, set_epoch), and they partition
# the padded index set.
#
# SPDX-License-Identifier: LGPL-2.1-or-later
import collections

import torch
from torch.utils.data.distributed import DistributedSampler as TorchSampler

import gnn
from gnn.utils.data.distributed import DistributedSampler
import gnn.utils.data

cases = [(n, r, dl) for n in (0, 1, 2, 5, 10, 11, 17) for r in (1, 2, 3, 4, 7) for dl in (False, True)]
for n, replicas, drop_last in cases:
    data = list(range(n))
    for rank in range(replicas):
        ours = DistributedSampler(data, num_replicas=replicas, rank=rank, shuffle=False,
                                  drop_last=drop_last)
        theirs = TorchSampler(data, num_replicas=replicas, rank=rank, shuffle=False,
                              drop_last=drop_last)
        assert list(ours) == list(theirs), (n, replicas, rank, drop_last, list(ours), list(theirs))
        assert len(ours) == len(theirs)

for n, replicas, drop_last in [c for c in cases if c[0] > 0]:
    data = list(range(n))
    for epoch in (0, 1):
        lists = []
        for rank in range(replicas):
            s = DistributedSampler(data, num_replicas=replicas, rank=rank, seed=5, drop_last=drop_last)
            t = TorchSampler(data, num_replicas=replicas, rank=rank, seed=5, drop_last=drop_last)
            s.set_epoch(epoch)
            t.set_epoch(epoch)
            got = list(s)
            assert got == list(s), 'the same seed and epoch give the same order'
            assert got == list(t), (n, replicas, rank, drop_last, epoch, got, list(t))
            assert len(got) == len(s) == len(t)
            lists.append(got)
        every = collections.Counter(i for lst in lists for i in lst)
        total = len(lists[0]) * replicas
        if drop_last:
            assert all(c == 1 for c in every.values()) and len(every) == total
        else:
            assert set(every) == set(range(n)) and sum(every.values()) == total
            assert max(every.values()) - min(every.values()) <= max(1, -(-total // n) )

# Fashion-MNIST's size, a seed past 32 bits, later epochs: still torch's order
for seed, epoch in ((0, 0), (2 ** 33 + 7, 3)):
    s = DistributedSampler(range(60000), num_replicas=3, rank=1, seed=seed)
    t = TorchSampler(range(60000), num_replicas=3, rank=1, seed=seed)
    s.set_epoch(epoch)
    t.set_epoch(epoch)
    assert list(s) == list(t), (seed, epoch)
a = list(DistributedSampler(list(range(50)), num_replicas=2, rank=0, seed=1))
s = DistributedSampler(list(range(50)), num_replicas=2, rank=0, seed=1)
s.set_epoch(1)
assert list(s) != a, 'set_epoch changes the order'
assert sorted(list(DistributedSampler(list(range(50)), num_replicas=1, rank=0))) == list(range(50))
for bad in (-1, 2):
    try:
        DistributedSampler(list(range(4)), num_replicas=2, rank=bad)
    except ValueError as e:
        assert 'Invalid rank' in str(e)
    else:
        raise AssertionError('rank %d did not raise' % bad)
try:
    DistributedSampler(list(range(4)))
except RuntimeError as e:
    assert 'init_process_group' in str(e)
else:
    raise AssertionError('no default group did not raise')
# with the data loader
loader = gnn.utils.data.DataLoader(list(range(10)), batch_size=3,
                                   sampler=DistributedSampler(list(range(10)), 2, 1, shuffle=False))
assert [b.tolist() for b in loader] == [[1, 3, 5], [7, 9]]
print('DistributedSampler: every check passed')
