# torch.nn: modules, parameters, containers, layers and losses
#
# SPDX-License-Identifier: LGPL-2.1-or-later
from gi.overrides._gnn.names import fill_namespace as _fill

__getattr__ = _fill('torch.nn', globals())

from . import functional, init, utils  # noqa: E402,F401
from . import qat  # noqa: E402,F401 (torch.nn.qat)
from . import quantized  # noqa: E402,F401 (torch.nn.quantized)
