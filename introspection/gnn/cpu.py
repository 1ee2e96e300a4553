# torch.cpu: its amp namespace, torch.cpu.amp.autocast (bfloat16; gi/overrides/_gnn/amp.py)
#
# SPDX-License-Identifier: LGPL-2.1-or-later
from gi.overrides._gnn.names import fill_namespace as _fill
from gi.overrides._gnn.amp import amp_namespace as _amp_namespace

__getattr__ = _fill('torch.cpu', globals())
amp = _amp_namespace('torch.cpu.amp', __name__ + '.amp')
