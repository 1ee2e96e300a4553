# gnn's errors as the Python exceptions a torch user catches
#
# SPDX-License-Identifier: LGPL-2.1-or-later

__all__ = []
