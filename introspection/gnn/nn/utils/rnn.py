# torch.nn.utils.rnn: PackedSequence and packing and padding of variable-length sequences
#
# SPDX-License-Identifier: LGPL-2.1-or-later
from gi.overrides._gnn.names import fill_namespace as _fill

__getattr__ = _fill('torch.nn.utils.rnn', globals())
