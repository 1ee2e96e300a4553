# torch.fx.passes: the passes over a traced graph (shape_prop)
#
# SPDX-License-Identifier: LGPL-2.1-or-later
from gi.overrides._gnn.names import fill_namespace as _fill

from . import shape_prop  # noqa: F401  (torch.fx.passes.shape_prop, as torch imports it)

__getattr__ = _fill('torch.fx.passes', globals())
