# torch.nn.utils.prune: pruning tensors of modules by masks
#
# SPDX-License-Identifier: LGPL-2.1-or-later
from gi.overrides._gnn.names import fill_namespace as _fill

__getattr__ = _fill('torch.nn.utils.prune', globals())

# gnn's own, beyond torch.nn.utils.prune: the sparsity report
from gi.repository import Gnn as _Gnn  # noqa: E402

sparsity_report = _Gnn.nn_utils_prune_sparsity_report
SparsityReport = _Gnn.SparsityReport
__all__ += ['sparsity_report', 'SparsityReport']
