# torch.onnx: export, which writes a traced module as an ONNX model, and gnn's import_model
#
# SPDX-License-Identifier: LGPL-2.1-or-later
from gi.overrides._gnn.names import fill_namespace as _fill

__getattr__ = _fill('torch.onnx', globals())

# gnn's own (torch has no ONNX import): a model from torch.onnx.export as a graph module
from gi.repository import Gnn as _Gnn  # noqa: E402

import_model = _Gnn.onnx_import_model
__all__.append('import_model')
