# torchvision's names gnn has: `from gnn.vision import datasets, transforms`
#
# SPDX-License-Identifier: LGPL-2.1-or-later
from . import datasets, transforms  # noqa: F401
