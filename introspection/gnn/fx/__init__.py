# torch.fx: symbolic tracing of a module's forward into a graph, and the graph module that runs it
#
# SPDX-License-Identifier: LGPL-2.1-or-later
from gi.overrides._gnn.names import fill_namespace as _fill

__getattr__ = _fill('torch.fx', globals())

# gnn's own pass (torch's FX tutorial writes it by hand): every module of one type replaced
from gi.repository import Gnn as _Gnn  # noqa: E402

replace_modules = _Gnn.fx_replace_modules
__all__.append('replace_modules')

# gnn's own: torch.jit.trace's capture (a forward run on example inputs) into torch.fx's graph
trace = _Gnn.fx_trace
TracerWarning = _Gnn.fx_TracerWarning
__all__ += ['trace', 'TracerWarning']
