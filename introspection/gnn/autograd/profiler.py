# torch.autograd.profiler: the older spelling of the profiler (profile, record_function)
#
# SPDX-License-Identifier: LGPL-2.1-or-later
from gi.overrides._gnn.names import fill_namespace as _fill

__getattr__ = _fill('torch.autograd.profiler', globals())
