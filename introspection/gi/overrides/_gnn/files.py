# saving and loading state dicts (torch.save, torch.load) as safetensors
#
# SPDX-License-Identifier: LGPL-2.1-or-later

__all__ = []
