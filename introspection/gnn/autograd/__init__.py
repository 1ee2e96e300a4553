# torch.autograd: Function, grad, grad mode, anomaly detection, functional
#
# SPDX-License-Identifier: LGPL-2.1-or-later
from gi.overrides._gnn.names import fill_namespace as _fill

__getattr__ = _fill('torch.autograd', globals())

from . import function, functional  # noqa: E402,F401
from . import profiler  # noqa: E402,F401
# torch.autograd.gradcheck is the function, and the module of that name can still be imported
_gradcheck_function = gradcheck  # noqa: F821 (filled in from the table)
__import__('importlib').import_module('.gradcheck', __name__)
gradcheck = _gradcheck_function
from . import graph  # noqa: E402,F401
