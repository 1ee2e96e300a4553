# state dicts and load_state_dict
#
# SPDX-License-Identifier: LGPL-2.1-or-later
from .base import Gnn, override
from .tensor import Tensor
from .module import Module, _from_value, _to_value
from .containers import _Mapping

__all__ = []


def _as_gnn_tensor(v):
    """A Gnn.Tensor from a Gnn.Tensor, a torch tensor or a numpy array (copied)."""
    if isinstance(v, Gnn.Tensor):
        return v
    if hasattr(v, 'detach') and hasattr(v, 'numpy'):      # a torch tensor, without importing torch
        return Tensor.from_numpy(v.detach().cpu().numpy())
    if type(v).__module__ == 'numpy':
        return Tensor.from_numpy(v)
    return None


class StateDict(_Mapping, Gnn.StateDict):
    """A module tree's state as an ordered mapping (PyTorch's OrderedDict): keys(), values(),
    items() (lists, in order), [], assignment, del, ``in``, len, iteration over the keys in
    order. ``Gnn.StateDict({'w': tensor})`` fills a new one."""

    def __init__(self, entries=None, **kwargs):
        Gnn.StateDict.__init__(self, **kwargs)
        if entries is not None:
            self.update(entries)

    def _keys(self):
        return Gnn.StateDict.get_keys(self) or []

    def get_value(self, key):
        """The value under key (a tensor, a GLib.Variant, ...); GLib.Error when absent. The C
        method's (ok, value) pair, as PyGObject gives it, is reduced to the value."""
        out = Gnn.StateDict.get_value(self, key)
        if isinstance(out, tuple):       # (ok, value)
            out = out[-1]
        return _from_value(out)

    def _get(self, key):
        return self.get_value(key)

    def _set(self, key, value):
        if not isinstance(key, str):
            raise TypeError('state dict keys are strings, not %s' % type(key).__name__)
        tensor = _as_gnn_tensor(value)
        if tensor is not None:
            Gnn.StateDict.set_tensor(self, key, tensor)
            return
        from gi.repository import GLib, GObject
        if isinstance(value, GLib.Variant):
            gv = GObject.Value(GObject.TYPE_VARIANT)
            gv.set_variant(value)
        else:
            gv = _to_value(value)
        Gnn.StateDict.set_value(self, key, gv)

    def _contains(self, key):
        return Gnn.StateDict.contains(self, key)

    def _pop(self, key):
        value = self._get(key)
        Gnn.StateDict.remove(self, key)
        return value

    def get(self, key, default=None):
        return self[key] if key in self else default

    def copy(self):
        return StateDict(self.items())

    def __repr__(self):
        return 'StateDict([%s])' % ', '.join('(%r, %r)' % kv for kv in self.items())

    __str__ = __repr__


StateDict = override(StateDict)
__all__.append('StateDict')


class _IncompatibleKeys(tuple):
    """What load_state_dict returns: PyTorch's namedtuple (missing_keys, unexpected_keys),
    printed as ``<All keys matched successfully>`` when both are empty. (Named as PyTorch's
    torch.nn.modules.module._IncompatibleKeys; Gnn.IncompatibleKeys is the C class given to
    load post-hooks.)"""
    __slots__ = ()
    _fields = ('missing_keys', 'unexpected_keys')

    def __new__(cls, missing_keys, unexpected_keys):
        return tuple.__new__(cls, (list(missing_keys), list(unexpected_keys)))

    @property
    def missing_keys(self):
        return self[0]

    @property
    def unexpected_keys(self):
        return self[1]

    def __repr__(self):
        if not self.missing_keys and not self.unexpected_keys:
            return '<All keys matched successfully>'
        return 'IncompatibleKeys(missing_keys=%r, unexpected_keys=%r)' % (self[0], self[1])

    __str__ = __repr__




def _module_state_dict(self, prefix=None, keep_vars=False, *, destination=None):
    """``Module.state_dict``: a Gnn.StateDict of the parameters and persistent buffers, keys
    in PyTorch's order. prefix may be given as PyTorch's "model." or as "model"; with
    destination (any mapping), the entries are stored into it and it is returned. The
    positional order is gnn's (prefix, keep_vars), not PyTorch's deprecated one."""
    state = Gnn.Module.state_dict(self, prefix or None, keep_vars)
    if destination is None:
        return state
    for k, v in state.items():
        destination[k] = v
    return destination


def _module_load_state_dict(self, state_dict, strict=True, assign=False):
    """``Module.load_state_dict``: state_dict is a Gnn.StateDict or any mapping of key to
    Gnn.Tensor (torch tensors and numpy arrays are copied in). Returns IncompatibleKeys
    (missing_keys, unexpected_keys); a strict load that fails raises GLib.Error with
    PyTorch's message and leaves the module unchanged."""
    if not isinstance(state_dict, Gnn.StateDict):
        state_dict = StateDict(state_dict)
    out = Gnn.Module.load_state_dict(self, state_dict, strict, assign)
    if hasattr(out, 'get_missing_keys'):
        return _IncompatibleKeys(out.get_missing_keys() or [], out.get_unexpected_keys() or [])
    if isinstance(out, tuple) and len(out) == 3:
        out = out[1:]
    missing, unexpected = out
    return _IncompatibleKeys(missing or [], unexpected or [])


Module.state_dict = _module_state_dict
Module.load_state_dict = _module_load_state_dict
