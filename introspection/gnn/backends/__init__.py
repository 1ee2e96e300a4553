# torch.backends: mps (so that PyTorch's device line runs: mps.is_available () is False)
#
# SPDX-License-Identifier: LGPL-2.1-or-later
from gi.overrides._gnn.names import fill_namespace as _fill

__getattr__ = _fill('torch.backends', globals())

from . import mps  # noqa: E402,F401
