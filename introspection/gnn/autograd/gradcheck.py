# torch.autograd.gradcheck: gradcheck, gradgradcheck, GradcheckError (torch.autograd.gradcheck
# itself is the function, as torch's package rebinds it)
#
# SPDX-License-Identifier: LGPL-2.1-or-later
from gi.overrides._gnn.names import fill_namespace as _fill

__getattr__ = _fill('torch.autograd.gradcheck', globals())
