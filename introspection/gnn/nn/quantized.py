# torch.nn.quantized: FloatFunctional and QFunctional (gi/overrides/_gnn/qat.py)
#
# SPDX-License-Identifier: LGPL-2.1-or-later
from gi.overrides._gnn.names import fill_namespace as _fill

__getattr__ = _fill('torch.nn.quantized', globals())
