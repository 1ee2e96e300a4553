# PyGObject overrides for Gnn: Pythonic helpers over the introspected API.
#
# The overrides live in the package _gnn beside this file, one module a topic, each naming
# what it overrides or adds in its __all__; PyGObject reads this file's __all__. _gnn/names.py
# is the table of torch names; the package gnn (import gnn as torch) gives them torch's
# namespaces.
#
# SPDX-License-Identifier: LGPL-2.1-or-later
import importlib as _importlib

# in this order: a part uses what the parts before it override
_PARTS = [_importlib.import_module('._gnn.' + _part, __package__) for _part in (
    'base', 'errors', 'tensor', 'functions', 'autograd', 'function', 'module', 'layers',
    'containers', 'functional', 'spatial', 'state_dict', 'files', 'swa', 'lr_scheduler', 'optim',
    'data', 'losses_more', 'bitwise', 'order', 'resample', 'compose', 'rnn_utils', 'prune',
    'profiler', 'parametrize', 'transformer', 'fx', 'quant', 'distributed', 'onnx',
    'fx_trace', 'surface', 'inplace', 'layers_more', 'linalg_more', 'layers_extra', 'qat', 'amp',
    'optim_more', 'surface_more', 'ops_more')]
_names = _importlib.import_module('._gnn.names', __package__)

__all__ = []
for _part in _PARTS:
    for _name in _part.__all__:
        _value = getattr(_part, _name)
        if isinstance(_value, type) and _value.__module__ == _part.__name__:
            _value.__module__ = __name__   # Gnn.device is gi.overrides.Gnn.device, wherever written
        globals()[_name] = _value
    __all__ += _part.__all__
del _part, _name, _value


def _lookup(name):
    return globals()[name] if name in globals() else getattr(_PARTS[0].Gnn, name)


_names.install_tensor_methods(Tensor, _lookup)  # noqa: F821 (exported by the tensor part)
