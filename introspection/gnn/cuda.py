# torch.cuda: is_available, device_count (from the backends gnn found)
#
# SPDX-License-Identifier: LGPL-2.1-or-later
from gi.overrides._gnn.names import fill_namespace as _fill

__getattr__ = _fill('torch.cuda', globals())
