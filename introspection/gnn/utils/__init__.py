# torch.utils
#
# SPDX-License-Identifier: LGPL-2.1-or-later
from . import data  # noqa: F401
