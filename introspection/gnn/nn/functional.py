# torch.nn.functional
#
# SPDX-License-Identifier: LGPL-2.1-or-later
from gi.overrides._gnn.names import fill_namespace as _fill

__getattr__ = _fill('torch.nn.functional', globals())

# PyTorch 2's scaled_dot_product_attention, a name torch 1.13 (the spelling table's torch) lacks
from gi.repository import Gnn as _Gnn  # noqa: E402

scaled_dot_product_attention = _Gnn.functional_scaled_dot_product_attention
__all__.append('scaled_dot_product_attention')
