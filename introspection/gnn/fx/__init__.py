# torch.fx: symbolic tracing of a module's forward into a graph, and the graph module that runs it
#
# SPDX-License-Identifier: LGPL-2.1-or-later
from gi.overrides._gnn.names import fill_namespace as _fill

__getattr__ = _fill('torch.fx', globals())
