# torch.autograd: Function, grad, grad mode, anomaly detection, functional
#
# SPDX-License-Identifier: LGPL-2.1-or-later
from gi.overrides._gnn.names import fill_namespace as _fill

__getattr__ = _fill('torch.autograd', globals())

from . import function, functional  # noqa: E402,F401
from . import profiler  # noqa: E402,F401
