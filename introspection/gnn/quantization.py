# torch.quantization: torch 1.13's older spelling of torch.ao.quantization, the same names
# (gnn/quant/)
#
# SPDX-License-Identifier: LGPL-2.1-or-later
from gi.overrides._gnn.names import fill_namespace as _fill

__getattr__ = _fill('torch.quantization', globals())
