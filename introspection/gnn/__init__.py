# gnn with torch's names: `import gnn as torch`, `from gnn import nn`,
# `from gnn.utils.data import DataLoader`, `from gnn.vision import datasets, transforms`.
#
# A thin namespace over the Gnn module and its PyGObject overrides (gi/overrides/Gnn.py): each
# module of this package puts in its namespace the rows of one torch namespace of the table in
# gi/overrides/_gnn/names.py, and a name gnn lacks raises an AttributeError that says why.
#
# SPDX-License-Identifier: LGPL-2.1-or-later
import gi

gi.require_version('Gnn', '1.0')
from gi.repository import Gnn  # noqa: E402,F401 (loads the overrides)
from gi.overrides._gnn.names import fill_namespace as _fill  # noqa: E402

__getattr__ = _fill('torch', globals())

from . import autograd, backends, cuda, nn, optim, utils, linalg, special  # noqa: E402,F401
from . import profiler  # noqa: E402,F401
from . import ao  # noqa: E402,F401
from . import distributed, fx, onnx  # noqa: E402,F401
from . import quantization  # noqa: E402,F401
from . import amp, cpu  # noqa: E402,F401
