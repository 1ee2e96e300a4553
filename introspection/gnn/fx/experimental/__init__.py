# torch.fx.experimental: optimization (fuse, remove_dropout)
#
# SPDX-License-Identifier: LGPL-2.1-or-later
from gi.overrides._gnn.names import fill_namespace as _fill

from . import optimization  # noqa: F401

__getattr__ = _fill('torch.fx.experimental', globals())
