# torch.nn.utils: gradient clipping, parameters as one vector, (rnn) packed sequences and
# (prune) pruning, (fusion) batch norms folded into the layer before them
#
# SPDX-License-Identifier: LGPL-2.1-or-later
from gi.overrides._gnn.names import fill_namespace as _fill

__getattr__ = _fill('torch.nn.utils', globals())

from . import rnn  # noqa: E402,F401
from . import prune  # noqa: E402,F401
from . import parametrize, parametrizations  # noqa: E402,F401
from . import fusion  # noqa: E402,F401
from . import stateless  # noqa: E402,F401
