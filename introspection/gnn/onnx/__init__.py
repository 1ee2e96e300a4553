# torch.onnx: export, which writes a traced module as an ONNX model
#
# SPDX-License-Identifier: LGPL-2.1-or-later
from gi.overrides._gnn.names import fill_namespace as _fill

__getattr__ = _fill('torch.onnx', globals())
