# torch.amp: autocast, and GradScaler in torch 2's spelling (GradScaler('cpu') scales on the
# CPU too; gi/overrides/_gnn/amp.py)
#
# SPDX-License-Identifier: LGPL-2.1-or-later
from gi.overrides._gnn.names import fill_namespace as _fill

__getattr__ = _fill('torch.amp', globals())
