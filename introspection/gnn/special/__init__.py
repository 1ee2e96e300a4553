# torch.special: the Bessel functions, the normal distribution's functions, erfcx, entr,
# xlog1py (gnn-ops-math.c) and torch's own functions under their second names
#
# SPDX-License-Identifier: LGPL-2.1-or-later
from gi.overrides._gnn.names import fill_namespace as _fill

__getattr__ = _fill('torch.special', globals())
