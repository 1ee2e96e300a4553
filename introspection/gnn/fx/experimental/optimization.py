# torch.fx.experimental.optimization: fuse (Conv+BatchNorm folding) and remove_dropout, for
# inference
#
# SPDX-License-Identifier: LGPL-2.1-or-later
from gi.overrides._gnn.names import fill_namespace as _fill

__getattr__ = _fill('torch.fx.experimental.optimization', globals())
