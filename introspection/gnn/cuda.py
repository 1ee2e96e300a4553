# torch.cuda: is_available, device_count (from the backends gnn found)
#
# SPDX-License-Identifier: LGPL-2.1-or-later
from gi.overrides._gnn.names import fill_namespace as _fill

__getattr__ = _fill('torch.cuda', globals())

# torch.cuda.amp: autocast (float16) and GradScaler (gi/overrides/_gnn/amp.py)
from gi.overrides._gnn.amp import amp_namespace as _amp_namespace  # noqa: E402

amp = _amp_namespace('torch.cuda.amp', __name__ + '.amp')
