# torch-level functions and factories (torch.zeros, torch.sum, ...) with torch's signatures
#
# SPDX-License-Identifier: LGPL-2.1-or-later

__all__ = []
