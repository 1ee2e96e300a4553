# torch.nn.utils.stateless: calling a module with other parameters and buffers
#
# SPDX-License-Identifier: LGPL-2.1-or-later
from gi.overrides._gnn.names import fill_namespace as _fill

__getattr__ = _fill('torch.nn.utils.stateless', globals())
