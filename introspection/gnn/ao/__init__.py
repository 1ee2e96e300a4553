# torch.ao: the quantization namespace (gnn/quant/)
#
# SPDX-License-Identifier: LGPL-2.1-or-later
from gi.overrides._gnn.names import fill_namespace as _fill

__getattr__ = _fill('torch.ao', globals())

from . import quantization  # noqa: E402,F401
