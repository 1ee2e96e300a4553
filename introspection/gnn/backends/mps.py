# torch.backends.mps: is_available (False: Apple's Metal is not a gnn backend)
#
# SPDX-License-Identifier: LGPL-2.1-or-later
from gi.overrides._gnn.names import fill_namespace as _fill

__getattr__ = _fill('torch.backends.mps', globals())
