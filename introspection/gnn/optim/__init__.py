# torch.optim: optimizers
#
# SPDX-License-Identifier: LGPL-2.1-or-later
from gi.overrides._gnn.names import fill_namespace as _fill

__getattr__ = _fill('torch.optim', globals())

from . import lr_scheduler, swa_utils  # noqa: E402,F401
