# torch.fx._symbolic_trace: the check a graph specialized on None makes (the name the code of
# such a graph calls, as torch's does)
#
# SPDX-License-Identifier: LGPL-2.1-or-later
from gi.overrides._gnn.fx import _assert_is_none  # noqa: F401
