# gnn.fx.trace: a module's forward recorded as it runs on example inputs (torch.jit.trace's
# capture, into torch.fx's graph)
#
# The tracer is symbolic_trace's (fx.py), with proxies that carry the value the traced
# forward computes: every node recorded is also run, on the concrete values of its
# arguments, so that what Python reads of a value (a truth value, a length, a shape, an
# integer, iteration) is the example's, and forward goes down the branch the example takes.
# What is recorded is that branch: control flow is specialised to the example, as
# torch.jit.trace records it. doc/design/fx.md says what the graph holds and why both tracers
# exist.
#
# SPDX-License-Identifier: LGPL-2.1-or-later
import operator as _operator
import warnings as _warnings

from .base import Gnn
from . import module as _module
from . import fx as _fx

__all__ = []


def _export(obj):
    __all__.append(obj.__name__)
    return obj


@_export
class fx_TracerWarning(Warning):
    """torch.jit.TracerWarning: a tensor of the traced forward was read as a Python value
    (a truth value, a number, an index), which the graph holds as a constant."""


def _has_tensor(value):
    if isinstance(value, Gnn.Tensor):
        return True
    if isinstance(value, (list, tuple)):
        return any(_has_tensor(v) for v in value)
    if isinstance(value, dict):
        return any(_has_tensor(v) for v in value.values())
    return False


def _concrete(a):
    """@a with each proxy replaced by the value it carries."""
    if isinstance(a, _ConcreteProxy):
        return a.value
    if isinstance(a, tuple) and not hasattr(a, '_fields'):
        return tuple(_concrete(x) for x in a)
    if isinstance(a, list):
        return [_concrete(x) for x in a]
    if isinstance(a, dict):
        return {k: _concrete(v) for k, v in a.items()}
    if isinstance(a, slice):
        return slice(_concrete(a.start), _concrete(a.stop), _concrete(a.step))
    return a


class _ConcreteProxy(_fx.fx_Proxy):
    """A value of the traced forward: the node that computes it, and the value itself (a
    tensor, or a tuple or list holding tensors)."""

    def __init__(self, node, tracer, value):
        self.node, self.tracer, self.value = node, tracer, value

    def __getattr__(self, name):
        if name.startswith('__'):
            raise AttributeError(name)
        attr = getattr(self.value, name)
        if callable(attr) and not isinstance(attr, Gnn.Tensor):
            return _ConcreteMethod(self, name)
        # a tensor attribute (x.T) is a getattr node; anything else (x.shape, x.dtype) is the
        # example's value, and the graph is specialised to it
        return self.tracer.create_proxy('call_function', getattr, (self, name), {})

    def _read(self, convert, what):
        value = convert(self.value)
        _warnings.warn('Converting a tensor to a Python %s might cause the trace to be '
                       'incorrect: the graph holds the value %r that node %s has on the '
                       'example inputs, not how it was computed'
                       % (what, value, self.node.get_name()), fx_TracerWarning, stacklevel=3)
        return value

    def __bool__(self):
        return self._read(bool, 'boolean')

    def __int__(self):
        return self._read(int, 'integer')

    def __float__(self):
        return self._read(float, 'float')

    def __index__(self):
        return self._read(_operator.index, 'index')

    def __setitem__(self, key, value):
        # an in-place write: a node of operator.setitem, run on the value as it is recorded
        self.tracer.create_proxy('call_function', _operator.setitem, (self, key, value), {})

    def __len__(self):
        return len(self.value)

    def __iter__(self):
        return iter([self[i] for i in range(len(self.value))])


class _ConcreteMethod:
    """x.name of a proxy, to be called: a call_method node."""

    def __init__(self, proxy, name):
        self.proxy, self.name = proxy, name

    def __call__(self, *args, **kwargs):
        return self.proxy.tracer.create_proxy('call_method', self.name, (self.proxy,) + args, kwargs)


# the tensor methods that read a tensor's values into Python, and what they give
_READS = {'item': 'number', 'tolist': 'list', 'numpy': 'array'}


def _is_in_place(target):
    """Whether a call_method or call_function target changes its argument (add_, a setitem)."""
    name = target.rpartition('.')[2]
    return (name.endswith('_') and not name.endswith('__')) or target == 'operator.setitem'


class _ConcreteTracer(_fx.fx_Tracer):
    """symbolic_trace's tracer, each node run as it is recorded."""

    def create_proxy(self, kind, target, args, kwargs, name=None):
        if kind == 'placeholder':
            if self._inputs:
                value = self._inputs.pop(0)
            elif args:
                value = args[0]
            else:
                raise TypeError('trace: forward takes the input %s, which example_inputs does '
                                'not give (it gives %d)' % (target, self._n_inputs))
        elif kind == 'get_attr':
            value = self._fetch(target)
        else:
            value = self._run(kind, target, _concrete(args), _concrete(kwargs))
            if not _has_tensor(value) and target is not _operator.setitem:
                # a Python value computed from tensors: the graph's constant
                if kind == 'call_method' and target in _READS:
                    _warnings.warn('Converting a tensor to a Python %s might cause the trace '
                                   'to be incorrect: the graph holds the value that %s () '
                                   'gives on the example inputs, not how it was computed'
                                   % (_READS[target], target), fx_TracerWarning, stacklevel=3)
                return value
        proxy = super().create_proxy(kind, target, args, kwargs, name)
        _fx._record_meta(proxy.node, value)
        self._values[proxy.node.get_name()] = value
        if kind == 'placeholder' and not _has_tensor(value):
            return value   # an input that is no tensor (None, a flag): specialised to it
        return _ConcreteProxy(proxy.node, self, value)

    def _fetch(self, target):
        owner = self.root
        *path, field = target.split('.')
        for part in path:
            owner = owner.get_submodule(part)
        return owner.get_tensor(field)

    def _run(self, kind, target, args, kwargs):
        """Runs one op on concrete values, with the tracer's patches of Module.__call__ and
        __getattr__ lifted, so that a leaf module runs as it would outside the trace."""
        module_class = _module.Module
        patched = (module_class.__call__, module_class.__getattr__,
                   {cls: cls.__call__ for cls in self._own_calls})
        module_class.__call__, module_class.__getattr__ = self._saved_call, self._saved_getattr
        for cls, call in self._own_calls.items():
            cls.__call__ = call
        try:
            if kind == 'call_function':
                return target(*args, **kwargs)
            if kind == 'call_method':
                return getattr(args[0], target)(*args[1:], **kwargs)
            m = self.root
            for part in target.split('.'):
                m = m.get_submodule(part)
            return m(*args, **kwargs)
        finally:
            module_class.__call__, module_class.__getattr__ = patched[0], patched[1]
            for cls, call in patched[2].items():
                cls.__call__ = call

    def trace(self, root, example_inputs):
        if _fx._is_gnn_class(type(root)) and not isinstance(root, Gnn.Sequential):
            raise _fx.fx_TraceError('trace: %s is a module of gnn (its forward is C, one '
                                    'call_module node): trace takes a module written in '
                                    'Python, or a Sequential' % type(root).__name__)
        if not isinstance(example_inputs, (tuple, list)):
            example_inputs = (example_inputs,)
        self._inputs = list(example_inputs)
        self._n_inputs = len(self._inputs)
        self._values = {}
        self._saved_call = _module.Module.__call__
        self._saved_getattr = _module.Module.__getattr__
        self._own_calls = {type(m): type(m).__dict__['__call__'] for m in root.modules()
                           if '__call__' in type(m).__dict__}
        try:
            graph = super().trace(root)
        finally:
            left = len(self._inputs)
            self._inputs = []
        if left:
            raise TypeError('trace: example_inputs gives %d values, forward takes %d'
                            % (self._n_inputs, self._n_inputs - left))
        nodes = graph.nodes
        output = nodes[-1]
        _fx._record_meta(output, _fx._map_arg(output.args[0], lambda n: self._values[n.get_name()]))
        # what was computed only to be read as a Python value (the condition of a branch) is
        # dead; an in-place call is kept, as what it changes may be read later
        for node in reversed(nodes):
            if node.op in ('placeholder', 'output') or node.get_n_users() > 0:
                continue
            if node.op in ('call_method', 'call_function') and _is_in_place(node.get_target()):
                continue
            graph.erase_node(node)
        self._values = {}
        return graph


@_export
def fx_trace(model, example_inputs):
    """gnn's torch.jit.trace into torch.fx's graph: runs model's forward on example_inputs (a
    tensor or a tuple of them) and returns a GraphModule of what it did. Control flow is
    recorded as the example takes it, and shapes, lengths and other Python values read from
    tensors are the example's (a TracerWarning says where a tensor was read as a Python
    value); every node's meta['tensor_meta'] holds its value's shape and dtype, as ShapeProp
    records them."""
    name = type(model).__name__
    graph = _ConcreteTracer().trace(model, example_inputs)
    return _fx._graph_module_class(name)(model, graph, name)


_fx.fx.trace = fx_trace
_fx.fx.TracerWarning = fx_TracerWarning
fx_TracerWarning.__name__ = fx_TracerWarning.__qualname__ = 'TracerWarning'
