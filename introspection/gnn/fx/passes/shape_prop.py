# torch.fx.passes.shape_prop: ShapeProp records each node's tensor shape, dtype and strides
#
# SPDX-License-Identifier: LGPL-2.1-or-later
from gi.overrides._gnn.names import fill_namespace as _fill

__getattr__ = _fill('torch.fx.passes.shape_prop', globals())
