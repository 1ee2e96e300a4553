# torch.nn.utils.fusion: folding an eval-mode batch norm into the convolution or linear layer before it
#
# SPDX-License-Identifier: LGPL-2.1-or-later
from gi.overrides._gnn.names import fill_namespace as _fill

__getattr__ = _fill('torch.nn.utils.fusion', globals())
