# torch.nn.functional with torch's signatures
#
# SPDX-License-Identifier: LGPL-2.1-or-later

__all__ = []
