# torch.autograd.graph: save_on_cpu (saved_tensors_hooks says why gnn lacks it)
#
# SPDX-License-Identifier: LGPL-2.1-or-later
from gi.overrides._gnn.names import fill_namespace as _fill

__getattr__ = _fill('torch.autograd.graph', globals())
