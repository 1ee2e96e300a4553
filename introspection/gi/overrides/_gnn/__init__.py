# The parts of the Gnn overrides (gi/overrides/Gnn.py imports them in order).
#
# SPDX-License-Identifier: LGPL-2.1-or-later
