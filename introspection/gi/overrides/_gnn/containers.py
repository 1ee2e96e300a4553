# containers: Sequential, ModuleList, ModuleDict, ParameterList, ParameterDict
#
# SPDX-License-Identifier: LGPL-2.1-or-later
from .base import Gnn, override

__all__ = []


def _check_index(index, n):
    if not isinstance(index, int):
        raise TypeError('indices must be integers or slices, not %s' % type(index).__name__)
    if not -n <= index < n:
        raise IndexError('index %d is out of range' % index)
    return index + n if index < 0 else index


def _same(a, b):
    return a is b or a == b


class Sequential(Gnn.Sequential):
    """``nn.Sequential``: ``Gnn.Sequential(m1, m2, ...)`` or ``Gnn.Sequential(OrderedDict)``
    (the modules under the dict's keys); len, indexing (negative too, slices give a new
    Sequential with the same keys), iteration, ``in``, append/extend returning self."""

    def __init__(self, *args, **kwargs):
        super().__init__(**kwargs)
        if len(args) == 1 and hasattr(args[0], 'items'):
            for name, m in args[0].items():
                self.register_module(name, m)
        else:
            for m in args:
                Gnn.Sequential.append(self, m)

    def __len__(self):
        return self.get_length()

    def __getitem__(self, index):
        if isinstance(index, slice):
            mods, names = Gnn.Module.named_children(self)
            picked = list(zip(names, mods))[index]
            return Sequential(dict(picked))
        i = _check_index(index, len(self))
        return self.get(i)

    def __setitem__(self, index, module):
        i = _check_index(index, len(self))
        mods, names = Gnn.Module.named_children(self)
        self.register_module(names[i], module)

    def __iter__(self):
        return iter([self.get(i) for i in range(len(self))])

    def __contains__(self, module):
        return any(_same(m, module) for m in self)

    def append(self, module):
        # register_module raises where the C append could only warn (a module holding self)
        self.register_module(str(len(self)), module)
        return self

    def extend(self, modules):
        for m in modules:
            self.append(m)
        return self


Sequential = override(Sequential)
__all__.append('Sequential')


class ModuleList(Gnn.ModuleList):
    """``nn.ModuleList``: ``Gnn.ModuleList([m1, m2])``; len, indexing (negative too; slices
    give a new ModuleList), assignment, del, iteration, ``in``, append/extend/insert/pop."""

    def __init__(self, modules=None, **kwargs):
        super().__init__(**kwargs)
        if modules is not None:
            self.extend(modules)

    def __len__(self):
        return self.get_length()

    def __getitem__(self, index):
        if isinstance(index, slice):
            return ModuleList([self.get(i) for i in range(len(self))][index])
        return self.get(_check_index(index, len(self)))

    def __setitem__(self, index, module):
        self.set(_check_index(index, len(self)), module)

    def __delitem__(self, index):
        if isinstance(index, slice):
            for i in sorted(range(len(self))[index], reverse=True):
                Gnn.ModuleList.pop(self, i)
        else:
            Gnn.ModuleList.pop(self, _check_index(index, len(self)))

    def __iter__(self):
        return iter([self.get(i) for i in range(len(self))])

    def __contains__(self, module):
        return any(_same(m, module) for m in self)

    def __iadd__(self, modules):
        return self.extend(modules)

    def append(self, module):
        # insert raises where the C append could only warn (a module holding self)
        Gnn.ModuleList.insert(self, len(self), module)
        return self

    def extend(self, modules):
        for m in modules:
            self.append(m)
        return self

    def insert(self, index, module):
        Gnn.ModuleList.insert(self, index, module)

    def pop(self, index=-1):
        return Gnn.ModuleList.pop(self, _check_index(index, len(self)))


ModuleList = override(ModuleList)
__all__.append('ModuleList')


class _Mapping:
    """The mapping protocol over _keys/_get/_set/_contains/_pop of a subclass."""

    def __len__(self):
        return len(self._keys())

    def __iter__(self):
        return iter(self._keys())

    def __contains__(self, key):
        return isinstance(key, str) and self._contains(key)

    def __getitem__(self, key):
        if not isinstance(key, str) or not self._contains(key):
            raise KeyError(key)
        return self._get(key)

    def __setitem__(self, key, value):
        self._set(key, value)

    def __delitem__(self, key):
        if key not in self:
            raise KeyError(key)
        self._pop(key)

    def keys(self):
        return list(self._keys())

    def values(self):
        return [self._get(k) for k in self._keys()]

    def items(self):
        return [(k, self._get(k)) for k in self._keys()]

    def pop(self, key, *default):
        if key not in self:
            if default:
                return default[0]
            raise KeyError(key)
        return self._pop(key)

    def update(self, other=(), **kwargs):
        pairs = other.items() if hasattr(other, 'items') else other
        for k, v in pairs:
            self[k] = v
        for k, v in kwargs.items():
            self[k] = v


class ModuleDict(_Mapping, Gnn.ModuleDict):
    """``nn.ModuleDict``: ``Gnn.ModuleDict({'relu': ...})``; the mapping protocol (len, [],
    assignment, del, ``in``, iteration over the keys in order, keys/values/items as lists,
    pop, update, clear). ``get (key)`` stays the C method (GLib.Error when absent)."""

    def __init__(self, modules=None, **kwargs):
        Gnn.ModuleDict.__init__(self, **kwargs)
        if modules is not None:
            self.update(modules)

    def _keys(self):
        return Gnn.ModuleDict.keys(self) or []

    def _get(self, key):
        return Gnn.ModuleDict.get(self, key)

    def _set(self, key, value):
        Gnn.ModuleDict.set(self, key, value)

    def _contains(self, key):
        return Gnn.ModuleDict.contains(self, key)

    def _pop(self, key):
        return Gnn.ModuleDict.pop(self, key)

    def clear(self):
        Gnn.ModuleDict.clear(self)


ModuleDict = override(ModuleDict)
__all__.append('ModuleDict')


class ParameterList(Gnn.ParameterList):
    """``nn.ParameterList``: ``Gnn.ParameterList([p1, p2])``; len, indexing (negative too),
    assignment, iteration, ``in``, append/extend returning self. Plain tensors become
    parameters that require grad, as in PyTorch."""

    def __init__(self, values=None, **kwargs):
        super().__init__(**kwargs)
        if values is not None:
            self.extend(values)

    def __len__(self):
        return self.get_length()

    def __getitem__(self, index):
        if isinstance(index, slice):
            return ParameterList([self.get(i) for i in range(len(self))][index])
        return self.get(_check_index(index, len(self)))

    def __setitem__(self, index, value):
        self.set(_check_index(index, len(self)), value)

    def __iter__(self):
        return iter([self.get(i) for i in range(len(self))])

    def __contains__(self, value):
        return any(p is value for p in self)

    def __iadd__(self, values):
        return self.extend(values)

    def append(self, value):
        Gnn.ParameterList.append(self, value)
        return self

    def extend(self, values):
        for v in values:
            Gnn.ParameterList.append(self, v)
        return self


ParameterList = override(ParameterList)
__all__.append('ParameterList')


class ParameterDict(_Mapping, Gnn.ParameterDict):
    """``nn.ParameterDict``: ``Gnn.ParameterDict({'w': p})``; the mapping protocol as
    ModuleDict's. Plain tensors become parameters that require grad."""

    def __init__(self, parameters=None, **kwargs):
        Gnn.ParameterDict.__init__(self, **kwargs)
        if parameters is not None:
            self.update(parameters)

    def _keys(self):
        return Gnn.ParameterDict.keys(self) or []

    def _get(self, key):
        return Gnn.ParameterDict.get(self, key)

    def _set(self, key, value):
        Gnn.ParameterDict.set(self, key, value)

    def _contains(self, key):
        return Gnn.ParameterDict.contains(self, key)

    def _pop(self, key):
        return Gnn.ParameterDict.pop(self, key)

    def clear(self):
        for k in self.keys():
            self._pop(k)

    def update(self, other=(), **kwargs):
        """As PyTorch: a plain mapping (not an OrderedDict or ParameterDict) is added in
        sorted key order."""
        import collections
        if hasattr(other, 'items') and not isinstance(other, (collections.OrderedDict, ParameterDict)):
            other = sorted(other.items(), key=lambda kv: kv[0])
        _Mapping.update(self, other, **kwargs)


ParameterDict = override(ParameterDict)
__all__.append('ParameterDict')
